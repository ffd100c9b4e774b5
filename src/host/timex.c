/* host/timex.c: the host clock's NTP state, read-only, for the guest's
 * adjtimex and clock_adjtime. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/timex.h>

#include "host/host.h"
#include "abi/linux/types.h"

_Static_assert(sizeof(struct timex) == sizeof(struct linux_timex), "timex layout");

int host_adjtime_read(unsigned modes, struct linux_timex *out)
{
	struct timex tx;
	int ret;

	/* Only the two reading modes ever reach the host. */
	if (modes != 0 && modes != LINUX_ADJ_OFFSET_SS_READ)
		return -EPERM;
	memset(&tx, 0, sizeof(tx));
	tx.modes = modes;
	ret = (int)syscall(SYS_clock_adjtime, CLOCK_REALTIME, &tx);
	if (ret < 0)
		return -errno;
	memcpy(out, &tx, sizeof(*out));
	return ret;
}
