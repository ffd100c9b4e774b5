/* kernel/uts.c: the instance's host and domain names. sethostname,
 * setdomainname and /proc/sys/kernel/{hostname,domainname} set them;
 * uname reads them; the host's own never change. */
#include <string.h>

#include "kernel/uts.h"
#include "abi/linux/errno.h"
#include "abi/linux/types.h"

static char names[2][LINUX_UTS_LEN + 1] = { "skas", "(none)" };

const char *uts_name(bool domain)
{
	return names[domain];
}

int uts_set_name(bool domain, const char *name, size_t len)
{
	if (len > LINUX_UTS_LEN)
		return -EINVAL;
	memset(names[domain], 0, sizeof(names[domain]));
	memcpy(names[domain], name, len);
	return 0;
}
