/* kernel/setns.c: setns(2), as Linux's: with a namespace file (nstype 0
 * or its CLONE_NEW* type) the caller enters that namespace; with a pidfd
 * and a set of CLONE_NEW* flags it enters those of the process's, all or
 * none. Each type's checks are Linux's *_install: CAP_SYS_ADMIN for all,
 * CAP_SYS_CHROOT and an unshared root and cwd for a mount namespace (whose
 * root then becomes the caller's root and cwd), a single thread for a
 * time namespace (which the caller enters itself, as its children do); the
 * caller's own user namespace cannot be entered (EINVAL), and an IPC
 * namespace's entry drops the SEM_UNDO list. */
#include <stdlib.h>

#include "kernel/task.h"
#include "kernel/nsproxy.h"
#include "kernel/pidns.h"
#include "kernel/userns.h"
#include "kernel/timens.h"
#include "kernel/cred.h"
#include "fs/nsfs/nsfs.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "vfs/namespace.h"
#include "ipc/ipc.h"
#include "syscalls/dispatch.h"
#include "abi/linux/errno.h"

#define NS_CLONE_ALL                                                                           \
	(LINUX_CLONE_NEWNS | LINUX_CLONE_NEWCGROUP | LINUX_CLONE_NEWUTS | LINUX_CLONE_NEWIPC | \
	 LINUX_CLONE_NEWUSER | LINUX_CLONE_NEWPID | LINUX_CLONE_NEWNET | LINUX_CLONE_NEWTIME)

/* CAP_SYS_ADMIN over ns (in its owner) and in c's own user namespace. */
static bool admin_over(const struct cred *c, struct ns_common *ns)
{
	return ns_capable(c, ns_owner(ns), CAP_SYS_ADMIN) &&
	       ns_capable(c, cred_user_ns(c), CAP_SYS_ADMIN);
}

/* May t, with credentials c, enter ns (flags: every type this setns
 * enters)? */
static int validate_ns(struct task *t, const struct cred *c, struct ns_common *ns, uint64_t flags)
{
	switch (ns->type) {
	case NS_USER:
		/* userns_install: no capabilities gained by entering one's
		 * own again; a whole process with its own fs info */
		if ((struct user_ns *)ns == cred_user_ns(c))
			return -EINVAL;
		if (t->proc->nthreads > 1 || t->fs->refcount > 1)
			return -EINVAL;
		return ns_capable(c, (struct user_ns *)ns, CAP_SYS_ADMIN) ? 0 : -EPERM;
	case NS_TIME:
		/* timens_install: no other task shares the address space */
		if (t->proc->nthreads > 1 || t->mm->refcount > 1)
			return -EUSERS;
		break;
	case NS_PID:
		if (!admin_over(c, ns))
			return -EPERM;
		/* pidns_install: the caller's own or one below it */
		return pid_ns_within((struct pid_ns *)ns, task_pid_ns(t)) ? 0 : -EINVAL;
	case NS_MNT:
		if (!admin_over(c, ns) || !ns_capable(c, cred_user_ns(c), CAP_SYS_CHROOT))
			return -EPERM;
		/* Linux checks the fs info it will change: the caller's
		 * when only the mount namespace changes, else a copy */
		if (flags == LINUX_CLONE_NEWNS && t->fs->refcount > 1)
			return -EINVAL;
		return 0;
	default:
		break;
	}
	return admin_over(c, ns) ? 0 : -EPERM;
}

/* t's set with ns in place of its own of that type. */
static int install(struct task *t, struct ns_common *ns)
{
	struct nsproxy *n;

	if (t->nsproxy->ns[ns->type] == ns && ns->type != NS_MNT && ns->type != NS_IPC &&
	    (ns->type != NS_TIME || t->nsproxy->time == ns))
		return 0;
	n = nsproxy_with(t->nsproxy, ns);
	if (!n)
		return -ENOMEM;
	nsproxy_put(t->nsproxy);
	t->nsproxy = n;
	if (ns->type == NS_MNT)
		mnt_ns_enter((struct mnt_ns *)ns, t->fs);
	/* a process given capabilities it did not have is not dumpable:
	 * those who own the namespace cannot ptrace it */
	if (ns->type == NS_USER && !user_ns_enter(&t->proc->cred, (struct user_ns *)ns))
		t->proc->nondumpable = true;
	if (ns->type == NS_IPC) {
		/* Linux's ipcns_install: the old namespace's undo state goes */
		sem_exit(t->proc->pid);
		t->proc->sem_undo_list = false;
	}
	if (ns->type == NS_TIME)
		timens_commit(t); /* the task is in it now, and its children */
	return 0;
}

/* A live thread of p, whose namespaces a pidfd's setns takes. */
static struct task *pidfd_task(struct process *p)
{
	struct task *th;

	if (p->reaped || p->zombie)
		return NULL;
	list_for_each_entry(th, &p->threads, thread_link) if (th->nsproxy) return th;
	return NULL;
}

/* Linux's validate_nsset: the user namespace first, then the others. */
static const enum ns_type pidfd_order[] = { NS_USER, NS_MNT, NS_UTS,	NS_IPC,
					    NS_NET,  NS_PID, NS_CGROUP, NS_TIME };

static long setns_pidfd(struct task *t, struct process *p, uint64_t flags)
{
	struct ns_common *want[NS_NTYPES] = { 0 };
	struct task *target = pidfd_task(p);
	struct cred c = t->proc->cred; /* as it will be for each check */
	size_t i;
	int ret;

	if (!flags || (flags & ~(uint64_t)NS_CLONE_ALL))
		return -EINVAL;
	if (!target)
		return -ESRCH;
	for (i = 0; i < sizeof(pidfd_order) / sizeof(pidfd_order[0]); i++) {
		enum ns_type type = pidfd_order[i];

		if (!(flags & ns_type_flag(type)))
			continue;
		/* the pid and time namespaces the process is in, not its
		 * children's; its user namespace is its credentials' */
		want[type] = type == NS_PID    ? &task_pid_ns(target)->ns
			     : type == NS_TIME ? target->nsproxy->time
			     : type == NS_USER ? &cred_user_ns(&p->cred)->ns
					       : target->nsproxy->ns[type];
		ret = validate_ns(t, &c, want[type], flags);
		if (ret < 0)
			return ret;
		if (type == NS_USER) { /* the others are checked as from there */
			c.user_ns = (struct user_ns *)want[type];
			c.cap_effective = CAP_FULL_SET;
		}
	}
	/* Every check passed: nothing below fails but for memory. */
	for (i = 0; i < sizeof(pidfd_order) / sizeof(pidfd_order[0]); i++) {
		struct ns_common *ns = want[pidfd_order[i]];

		if (ns) {
			ret = install(t, ns);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

long sys_setns(struct task *t, const struct sysargs *a)
{
	uint64_t flags = (uint64_t)sysarg_int(a, 1) & 0xffffffffULL;
	struct file *f = fdget_nopath(t->files, sysarg_int(a, 0));
	struct ns_common *ns;
	struct process *p;
	long ret;

	if (!f)
		return -EBADF;
	ns = nsfs_ns(f);
	p = ns ? NULL : pidfd_process(t, sysarg_int(a, 0));
	if (ns) {
		if (flags && ns_type_flag(ns->type) != flags)
			ret = -EINVAL;
		else
			ret = validate_ns(t, &t->proc->cred, ns, ns_type_flag(ns->type));
		if (ret == 0)
			ret = install(t, ns);
	} else if (p) {
		ret = setns_pidfd(t, p, flags);
	} else {
		ret = -EINVAL;
	}
	file_put(f);
	return ret;
}
