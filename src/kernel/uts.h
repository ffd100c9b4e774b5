/* kernel/uts.h: the instance's host and domain names (its one UTS
 * namespace). */
#ifndef KERNEL_UTS_H
#define KERNEL_UTS_H

#include <stdbool.h>
#include <stddef.h>

/* The current name, NUL-terminated: "skas" and "(none)" at start. */
const char *uts_name(bool domain);
/* Sets it to len bytes of name (no NUL needed): 0 or -EINVAL (len > 64). */
int uts_set_name(bool domain, const char *name, size_t len);

#endif
