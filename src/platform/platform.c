/* platform/platform.c: choosing the backend. */
#include <string.h>

#include "platform/platform.h"

const struct platform_ops *platform = &platform_ptrace;

/* Returns 0, or -1 if no backend has that name. */
int platform_select(const char *name)
{
	if (strcmp(name, "ptrace") == 0) {
		platform = &platform_ptrace;
		return 0;
	}
	if (strcmp(name, "seccomp") == 0) {
		platform = &platform_seccomp;
		return 0;
	}
	return -1;
}
