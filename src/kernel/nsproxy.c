/* kernel/nsproxy.c: the sets of namespaces tasks hold, the namespaces'
 * references, owners and inode numbers. UTS (kernel/uts.c), mount
 * (vfs/namespace.c), IPC (ipc/ipc.c), network (net/netns.c), pid
 * (kernel/pidns.c: the set holds Linux's pid_ns_for_children), user
 * (kernel/userns.c: the set's is the credentials'), time (kernel/timens.c:
 * the set holds both the task's own and its children's) and cgroup
 * namespaces can be made; the user namespace of their maker's credentials
 * owns them. A cgroup
 * namespace's root is the cgroup of its maker (kernel/cgroup.c): paths in
 * /proc/PID/cgroup and a cgroup2 mount start there. */
#include <stdlib.h>
#include <string.h>

#include "kernel/nsproxy.h"
#include "kernel/cgroup.h"
#include "kernel/uts.h"
#include "kernel/cred.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "kernel/userns.h"
#include "kernel/timens.h"
#include "vfs/namespace.h"
#include "ipc/ipc.h"
#include "net/netns.h"
#include "abi/linux/errno.h"

static struct nsproxy init_nsproxy = {
	.refcount = 1,
	.ns = {
		[NS_CGROUP] = &init_cgroup_ns.ns,
		[NS_IPC] = &init_ipc_ns.ns,
		[NS_MNT] = &init_mnt_ns.ns,
		[NS_NET] = &init_net.ns,
		[NS_PID] = &init_pid_ns.ns,
		[NS_TIME] = &init_time_ns.ns,
		[NS_USER] = &init_user_ns.ns,
		[NS_UTS] = &init_uts_ns.ns,
	},
	.time = &init_time_ns.ns,
};

struct nsproxy *nsproxy_initial(void)
{
	nsproxy_get(&init_nsproxy);
	return &init_nsproxy;
}

void ns_get(struct ns_common *ns)
{
	ns->refcount++;
}

void ns_put(struct ns_common *ns)
{
	struct ns_common *owner = ns->owner;

	if (--ns->refcount == 0 && ns->free) {
		ns->free(ns);
		if (owner)
			ns_put(owner);
	}
}

void nsproxy_get(struct nsproxy *nsp)
{
	nsp->refcount++;
}

void nsproxy_put(struct nsproxy *nsp)
{
	int i;

	if (!nsp || --nsp->refcount > 0)
		return;
	for (i = 0; i < NS_NTYPES; i++)
		ns_put(nsp->ns[i]);
	ns_put(nsp->time);
	if (nsp != &init_nsproxy)
		free(nsp);
}

/* The proc inode allocator's dynamic numbers: a bit per number from
 * 0xF0000000, the lowest free one first (Linux's ida). skas's procfs
 * numbers its inodes otherwise, so only namespaces draw on it. */
#define INO_FIRST 0xF0000000U
#define INO_MAX	  (1U << 20) /* far more namespaces than memory allows */

static uint64_t *ino_bits;
static uint32_t ino_words;

uint32_t ns_ino_alloc(void)
{
	uint32_t w;

	for (w = 0; w < ino_words; w++)
		if (~ino_bits[w]) {
			int b = __builtin_ctzll(~ino_bits[w]);

			ino_bits[w] |= 1ULL << b;
			return INO_FIRST + w * 64 + (uint32_t)b;
		}
	if (ino_words * 64 >= INO_MAX) {
		return 0;
	} else {
		uint32_t n = ino_words ? 2 * ino_words : 4;
		uint64_t *grown = realloc(ino_bits, n * sizeof(*grown));

		if (!grown)
			return 0;
		memset(grown + ino_words, 0, (n - ino_words) * sizeof(*grown));
		ino_bits = grown;
		ino_words = n;
		return ns_ino_alloc();
	}
}

static void ns_free_plain(struct ns_common *ns)
{
	ns_ino_free(ns->ino);
	free(ns);
}

void *ns_alloc(size_t size, enum ns_type type, void (*free_fn)(struct ns_common *ns))
{
	struct ns_common *ns = calloc(1, size);

	if (!ns)
		return NULL;
	*ns = (struct ns_common){ .refcount = 1, .type = type, .free = free_fn ?: ns_free_plain };
	ns->ino = ns_ino_alloc();
	if (!ns->ino) {
		free(ns);
		return NULL;
	}
	return ns;
}

void ns_ino_free(uint32_t ino)
{
	uint32_t i = ino - INO_FIRST;

	if (ino >= INO_FIRST && i / 64 < ino_words)
		ino_bits[i / 64] &= ~(1ULL << (i % 64));
}

const char *ns_type_name(enum ns_type type)
{
	static const char *const names[NS_NTYPES] = {
		[NS_CGROUP] = "cgroup", [NS_IPC] = "ipc",   [NS_MNT] = "mnt",	[NS_NET] = "net",
		[NS_PID] = "pid",	[NS_TIME] = "time", [NS_USER] = "user", [NS_UTS] = "uts",
	};

	return names[type];
}

uint64_t ns_type_flag(enum ns_type type)
{
	static const uint64_t flags[NS_NTYPES] = {
		[NS_CGROUP] = LINUX_CLONE_NEWCGROUP, [NS_IPC] = LINUX_CLONE_NEWIPC,
		[NS_MNT] = LINUX_CLONE_NEWNS,	     [NS_NET] = LINUX_CLONE_NEWNET,
		[NS_PID] = LINUX_CLONE_NEWPID,	     [NS_TIME] = LINUX_CLONE_NEWTIME,
		[NS_USER] = LINUX_CLONE_NEWUSER,     [NS_UTS] = LINUX_CLONE_NEWUTS,
	};

	return flags[type];
}

#define NS_CLONE_ALL                                                                           \
	(LINUX_CLONE_NEWNS | LINUX_CLONE_NEWCGROUP | LINUX_CLONE_NEWUTS | LINUX_CLONE_NEWIPC | \
	 LINUX_CLONE_NEWPID | LINUX_CLONE_NEWNET | LINUX_CLONE_NEWTIME)

int ns_flags_check(struct task *t, uint64_t flags)
{
	const struct cred *c = &t->proc->cred;

	/* a new user namespace first (copy_creds, unshare_userns): the
	 * others are then its, where the maker has every capability */
	if (flags & LINUX_CLONE_NEWUSER)
		return user_ns_may_create(t, c);
	if (!(flags & NS_CLONE_ALL))
		return 0;
	return ns_capable(c, cred_user_ns(c), CAP_SYS_ADMIN) ? 0 : -EPERM;
}

int ns_max(enum ns_type type)
{
	if (type >= NS_NTYPES)
		return 0;
	return task_pids_max() / 2;
}

struct nsproxy *nsproxy_with(struct nsproxy *old, struct ns_common *ns)
{
	struct nsproxy *n = malloc(sizeof(*n));
	int i;

	if (!n)
		return NULL;
	n->refcount = 1;
	for (i = 0; i < NS_NTYPES; i++) {
		n->ns[i] = i == (int)ns->type ? ns : old->ns[i];
		ns_get(n->ns[i]);
	}
	n->time = ns->type == NS_TIME ? ns : old->time;
	ns_get(n->time);
	return n;
}

int nsproxy_copy(struct nsproxy *old, uint64_t flags, struct fs_info *fs, struct ns_common *pid_ns,
		 struct ns_common *user_ns, struct nsproxy **out)
{
	struct ns_common *fresh[NS_NTYPES] = { 0 }; /* the new ones, by type */
	struct nsproxy *n;
	int ret, i;

	if (!(flags & NS_CLONE_SUPPORTED)) {
		nsproxy_get(old);
		*out = old;
		return 0;
	}
	n = malloc(sizeof(*n));
	if (!n)
		return -ENOMEM;
	ret = -ENOMEM;
	if ((flags & LINUX_CLONE_NEWUTS) && !(fresh[NS_UTS] = uts_ns_copy(old->ns[NS_UTS])))
		goto fail;
	if ((flags & LINUX_CLONE_NEWIPC) && !(fresh[NS_IPC] = ipc_ns_new()))
		goto fail;
	if ((flags & LINUX_CLONE_NEWNET) && !(fresh[NS_NET] = net_ns_new()))
		goto fail;
	if (flags & LINUX_CLONE_NEWPID) {
		ns_get(pid_ns);
		fresh[NS_PID] = pid_ns;
	}
	if ((flags & LINUX_CLONE_NEWCGROUP) && !(fresh[NS_CGROUP] = cgroup_ns_new(current)))
		goto fail;
	if ((flags & LINUX_CLONE_NEWTIME) && !(fresh[NS_TIME] = time_ns_new(old->ns[NS_TIME])))
		goto fail;
	/* Last: it moves fs's root and cwd to its copies. */
	if (flags & LINUX_CLONE_NEWNS) {
		/* copied into a less privileged user namespace: locked */
		ret = mnt_ns_copy(old->ns[NS_MNT], fs, &ns_owner(old->ns[NS_MNT])->ns != user_ns,
				  &fresh[NS_MNT]);
		if (ret < 0)
			goto fail;
	}
	if (flags & LINUX_CLONE_NEWUSER) {
		ns_get(user_ns);
		fresh[NS_USER] = user_ns;
	}
	n->refcount = 1;
	n->time = old->time; /* a new one is for the children */
	ns_get(n->time);
	for (i = 0; i < NS_NTYPES; i++) {
		n->ns[i] = fresh[i] ? fresh[i] : old->ns[i];
		if (!fresh[i])
			ns_get(n->ns[i]);
		/* the maker's user namespace owns what it made */
		else if (i != NS_USER && user_ns != &init_user_ns.ns) {
			ns_get(user_ns);
			fresh[i]->owner = user_ns;
		}
	}
	*out = n;
	return 0;
fail:
	for (i = 0; i < NS_NTYPES; i++)
		if (fresh[i])
			ns_put(fresh[i]);
	free(n);
	return ret;
}
