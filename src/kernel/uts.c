/* kernel/uts.c: host and domain names per UTS namespace. sethostname,
 * setdomainname and /proc/sys/kernel/{hostname,domainname} set the
 * caller's; uname reads them; the host's own never change. CLONE_NEWUTS
 * gives a task a copy (Linux's copy_utsname). */
#include <stdlib.h>
#include <string.h>

#include "kernel/uts.h"
#include "kernel/task.h"
#include "abi/linux/errno.h"

struct uts_ns init_uts_ns = {
	.ns = { .refcount = 1, .ino = NS_INO_UTS, .type = NS_UTS },
	.names = { "skas", "(none)" },
};

static struct uts_ns *uts_of(struct task *t)
{
	if (!t || !t->nsproxy)
		return &init_uts_ns;
	return (struct uts_ns *)t->nsproxy->ns[NS_UTS];
}

const char *uts_name(struct task *t, bool domain)
{
	return uts_of(t)->names[domain];
}

int uts_set_name(struct task *t, bool domain, const char *name, size_t len)
{
	struct uts_ns *u = uts_of(t);

	if (len > LINUX_UTS_LEN)
		return -EINVAL;
	memset(u->names[domain], 0, sizeof(u->names[domain]));
	memcpy(u->names[domain], name, len);
	return 0;
}

struct ns_common *uts_ns_copy(struct ns_common *old)
{
	struct uts_ns *u = ns_alloc(sizeof(*u), NS_UTS, NULL);

	if (!u)
		return NULL;
	memcpy(u->names, ((struct uts_ns *)old)->names, sizeof(u->names));
	return &u->ns;
}
