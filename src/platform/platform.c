/* platform/platform.c: choosing the backend. The default is seccomp where
 * the host has what it needs (USER_NOTIF, pidfd_getfd), else ptrace. */
#include <stdbool.h>
#include <string.h>

#include "platform/platform.h"

const struct platform_ops *platform = &platform_seccomp;
static bool chosen;

/* Returns 0, or -1 if no backend has that name. */
int platform_select(const char *name)
{
	if (strcmp(name, "ptrace") == 0) {
		platform = &platform_ptrace;
	} else if (strcmp(name, "seccomp") == 0) {
		platform = &platform_seccomp;
	} else if (strcmp(name, "sigsys") == 0) {
		platform = &platform_sigsys;
	} else {
		return -1;
	}
	chosen = true;
	return 0;
}

const char *platform_resolve(void)
{
	if (!chosen && platform->probe && platform->probe() < 0)
		platform = &platform_ptrace;
	chosen = true;
	return platform->name;
}
