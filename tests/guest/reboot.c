/* reboot's refusals: a wrong first or second magic number, a command
 * that is none (EINVAL), and without CAP_SYS_BOOT anything (EPERM, before
 * the magic is looked at). Nothing that would act is tried: natively as
 * root it would restart the machine (scenario processes.sh ends an
 * instance with it). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "caps.h"

#define MAGIC1 0xfee1deadu
#define MAGIC2 0x28121969u

static int n;

static void check(int cond, const char *what)
{
	printf("%s %d - %s\n", cond ? "ok" : "not ok", ++n, what);
}

static void check_err(long r, int want, const char *name, const char *what)
{
	int e = errno;

	if (r == -1 && e == want)
		printf("ok %d - %s -> %s\n", ++n, what, name);
	else
		printf("not ok %d - %s: got %ld (errno %d), want %s\n", ++n, what, r,
		       r == -1 ? e : 0, name);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_err(syscall(SYS_reboot, 0, 0, 0, NULL), EINVAL, "EINVAL", "no magic");
	check_err(syscall(SYS_reboot, MAGIC1, 0, 0, NULL), EINVAL, "EINVAL", "no second magic");
	check_err(syscall(SYS_reboot, 0, MAGIC2, 0x01234567, NULL), EINVAL, "EINVAL",
		  "RESTART without the first magic");
	check_err(syscall(SYS_reboot, MAGIC1, MAGIC2, 0xdeadbeefu, NULL), EINVAL, "EINVAL",
		  "a command that is none");
	check_err(syscall(SYS_reboot, MAGIC1, 0x05121996u, 0x12345678u, NULL), EINVAL, "EINVAL",
		  "magic 2A, a command that is none");
	check(caps_drop(CAP_SYS_BOOT) == 0, "capset drops CAP_SYS_BOOT");
	check_err(syscall(SYS_reboot, 0, 0, 0, NULL), EPERM, "EPERM", "without CAP_SYS_BOOT");
	check_err(syscall(SYS_reboot, MAGIC1, MAGIC2, 0xdeadbeefu, NULL), EPERM, "EPERM",
		  "without CAP_SYS_BOOT, a command that is none");
	return 0;
}
