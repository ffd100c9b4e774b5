/* kernel/uts.h: host and domain names, one pair per UTS namespace. */
#ifndef KERNEL_UTS_H
#define KERNEL_UTS_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/nsproxy.h"
#include "abi/linux/types.h"

struct task;

struct uts_ns {
	struct ns_common ns;
	char names[2][LINUX_UTS_LEN + 1]; /* host, domain */
};

extern struct uts_ns init_uts_ns;

/* t's current name, NUL-terminated: "skas" and "(none)" at start (t NULL:
 * the initial namespace's). */
const char *uts_name(struct task *t, bool domain);
/* Sets it to len bytes of name (no NUL needed): 0 or -EINVAL (len > 64). */
int uts_set_name(struct task *t, bool domain, const char *name, size_t len);
/* A new namespace with old's names (CLONE_NEWUTS), or NULL. */
struct ns_common *uts_ns_copy(struct ns_common *old);

#endif
