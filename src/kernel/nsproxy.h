/* kernel/nsproxy.h: a task's namespaces (Linux's nsproxy): one object per
 * namespace type, each with a reference count and the inode number that
 * /proc/PID/ns shows. fork and clone share the parent's set; CLONE_NEW*,
 * unshare and setns give a task a new set. Of the types, UTS, mount, IPC,
 * network, pid, user, cgroup and time namespaces can be made. The pid one
 * in a set is the one for the task's children (Linux's
 * pid_ns_for_children): the task's own is that of its pid
 * (kernel/pidns.h). The time one too is for its children; the set's time
 * is the task's own (kernel/timens.h). */
#ifndef KERNEL_NSPROXY_H
#define KERNEL_NSPROXY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/linux/misc.h"

struct task;
struct cred;
struct fs_info;
struct inode;

enum ns_type {
	NS_CGROUP,
	NS_IPC,
	NS_MNT,
	NS_NET,
	NS_PID,
	NS_TIME,
	NS_USER,
	NS_UTS,
	NS_NTYPES,
};

struct ns_common {
	int refcount; /* nsproxies, nsfs inodes; the initial ones never go */
	uint32_t ino;
	enum ns_type type;
	/* nsfs's inode while one exists (it holds a reference on the ns;
	 * this is no reference on it). */
	struct inode *inode;
	void (*free)(struct ns_common *ns); /* at the last put; NULL: static */
	/* The user namespace that owns it (kernel/userns.h; a reference),
	 * NULL for the instance's: its capabilities govern it. */
	struct ns_common *owner;
};

struct nsproxy {
	int refcount;			 /* tasks */
	struct ns_common *ns[NS_NTYPES]; /* a reference each */
	struct ns_common *time;		 /* the tasks' own time namespace (a reference) */
};

/* Linux's fixed inode numbers of the initial namespaces (proc_ns.h). */
#define NS_INO_CGROUP 0xEFFFFFFBU
#define NS_INO_IPC    0xEFFFFFFFU
#define NS_INO_MNT    0xEFFFFFF8U
#define NS_INO_NET    0xEFFFFFF9U
#define NS_INO_PID    0xEFFFFFFCU
#define NS_INO_TIME   0xEFFFFFFAU
#define NS_INO_USER   0xEFFFFFFDU
#define NS_INO_UTS    0xEFFFFFFEU

/* The CLONE_NEW* flags skas can make a namespace of. */
#define NS_CLONE_SUPPORTED                                                                  \
	(LINUX_CLONE_NEWUTS | LINUX_CLONE_NEWNS | LINUX_CLONE_NEWIPC | LINUX_CLONE_NEWNET | \
	 LINUX_CLONE_NEWCGROUP | LINUX_CLONE_NEWPID | LINUX_CLONE_NEWUSER | LINUX_CLONE_NEWTIME)

/* The set the first task starts with. */
struct nsproxy *nsproxy_initial(void);
void nsproxy_get(struct nsproxy *nsp);
void nsproxy_put(struct nsproxy *nsp);
void ns_get(struct ns_common *ns);
void ns_put(struct ns_common *ns);
/* A number from the proc inode allocator (Linux's ns_alloc_inum: the
 * lowest free one from 0xF0000000), or 0 when none is left; and back. */
uint32_t ns_ino_alloc(void);
void ns_ino_free(uint32_t ino);
/* A new namespace of type: size bytes, zeroed, that start with its
 * ns_common (one reference, a number from ns_ino_alloc). free_fn frees it
 * at the last put and gives the number back; NULL: it holds nothing more,
 * and ns_alloc's own free does that. NULL when memory or numbers run out. */
void *ns_alloc(size_t size, enum ns_type type, void (*free_fn)(struct ns_common *ns));
/* "uts", "mnt"...; and the CLONE_NEW* flag of a type. */
const char *ns_type_name(enum ns_type type);
uint64_t ns_type_flag(enum ns_type type);
/* /proc/sys/user/max_TYPE_namespaces: Linux's default, half of
 * kernel.threads-max. */
int ns_max(enum ns_type type);
/* The checks of clone and unshare by t on flags' CLONE_NEW* bits, as
 * Linux's: with CLONE_NEWUSER, user_ns_may_create's (its maker gets every
 * capability there, so the other types need nothing more); else 0 or
 * -EPERM without CAP_SYS_ADMIN in t's user namespace. */
int ns_flags_check(struct task *t, uint64_t flags);
/* The set for a task of old's whose flags ask for new namespaces: old
 * itself (a new reference) when they ask none, else a new set with new
 * namespaces for those (a mount namespace moves fs's root and cwd to its
 * copies; CLONE_NEWPID's is pid_ns, which the caller made with
 * pid_ns_new, and which the set takes a reference of). user_ns is the
 * user namespace of the credentials the set goes with (CLONE_NEWUSER's
 * new one): it owns the new namespaces. 0 or -ENOMEM / -ENOSPC. */
int nsproxy_copy(struct nsproxy *old, uint64_t flags, struct fs_info *fs, struct ns_common *pid_ns,
		 struct ns_common *user_ns, struct nsproxy **out);
/* A copy of old with ns (a new reference) for its type (a time
 * namespace: the task's own and its children's). */
struct nsproxy *nsproxy_with(struct nsproxy *old, struct ns_common *ns);

#endif
