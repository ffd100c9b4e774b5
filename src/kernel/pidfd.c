/* kernel/pidfd.c: pidfd_open, pidfd_send_signal, pidfd_getfd and the pidfd file: it
 * keeps its process (even reaped) and polls readable once it has exited. */
#include <stdlib.h>
#include <string.h>

#include "kernel/task.h"
#include "kernel/pidns.h"
#include "kernel/cred.h"
#include "fs/procfs/procfs.h"
#include "syscalls/dispatch.h"
#include "vfs/file.h"
#include "vfs/poll.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/poll.h"
#include "abi/linux/stat.h"

static unsigned pidfd_poll(struct file *f, struct poll_table *pt)
{
	struct process *p = f->priv;

	poll_wait(pt, &p->exit_wait);
	return (p->zombie || p->reaped) ? LINUX_POLLIN | LINUX_POLLRDNORM : 0;
}

static int pidfd_stat(struct file *f, struct linux_stat *st)
{
	(void)f;
	memset(st, 0, sizeof(*st));
	st->st_mode = 0600; /* an anonymous inode, as Linux's pidfs before 6.9 */
	st->st_nlink = 1;
	st->st_blksize = 4096;
	return 0;
}

static void pidfd_release(struct file *f)
{
	process_pidfd_put(f->priv);
}

static const struct file_ops pidfd_ops = {
	.anon_name = "[pidfd]",
	.poll = pidfd_poll,
	.stat = pidfd_stat,
	.release = pidfd_release,
};

struct process *pidfd_file_process(struct file *f)
{
	return f && f->ops == &pidfd_ops ? f->priv : NULL;
}

struct process *pidfd_process(struct task *t, int fd)
{
	struct file *f = fdget(t->files, fd);
	struct process *p = pidfd_file_process(f);

	file_put(f);
	return p;
}

/* The process a pidfd names, if it has not exited: EBADF for an fd that is
 * not a pidfd, ESRCH for a zombie or reaped process. */
static int pidfd_live(struct task *t, int fd, struct process **pp)
{
	struct process *p = pidfd_process(t, fd);

	if (!p)
		return -EBADF;
	if (p->reaped || p->zombie)
		return -ESRCH;
	*pp = p;
	return 0;
}

int pidfd_mm(struct task *t, int fd, struct mm **out)
{
	struct process *p;
	struct task *leader;
	int ret = pidfd_live(t, fd, &p);

	if (ret)
		return ret;
	leader = task_by_tid(p->pid);
	if (!leader || leader->proc != p || leader->state == TASK_DEAD || !leader->mm)
		return -ESRCH;
	if (leader->mm != t->mm && !cred_ptrace_may_access(&t->proc->cred, p, false))
		return -EACCES;
	*out = leader->mm;
	return 0;
}

int pidfd_create(struct task *t, struct process *p, unsigned flags)
{
	struct file *f =
		file_alloc(&pidfd_ops, LINUX_O_RDWR | (flags & LINUX_O_NONBLOCK), -1, NULL);
	int fd;

	if (!f)
		return file_alloc_error();
	f->priv = p;
	p->pidfd_refs++;
	fd = fd_install(t->files, f, 0, true, (int)t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur);
	if (fd < 0)
		file_put(f);
	return fd;
}

long sys_pidfd_open(struct task *t, const struct sysargs *a)
{
	int pid = sysarg_int(a, 0);
	unsigned flags = sysarg_uint(a, 1);
	struct process *p;

	if (flags & ~LINUX_O_NONBLOCK)
		return -EINVAL;
	if (pid <= 0)
		return -EINVAL;
	p = process_by_vpid(t, pid);
	if (!p) {
		struct task *th = task_by_vtid(t, pid);

		return th ? -EINVAL : -ESRCH; /* a thread that is not a leader */
	}
	return pidfd_create(t, p, flags);
}

/* The process pidfd_send_signal's fd names: a pidfd's, or an open
 * /proc/PID directory's (Linux's tgid_pidfd_to_pid). Zombies too, as
 * Linux: a signal to one is taken (0) and dropped. EBADF for any other fd,
 * ESRCH once the process is reaped. */
static int signal_target(struct task *t, int fd, struct process **pp)
{
	struct file *f = fdget(t->files, fd);
	int ret = -EBADF;

	if (f && f->ops == &pidfd_ops) {
		*pp = f->priv;
		ret = (*pp)->reaped ? -ESRCH : 0;
	} else if (f) {
		ret = procfs_pid_dir_process(f, pp);
	}
	file_put(f);
	return ret;
}

long sys_pidfd_send_signal(struct task *t, const struct sysargs *a)
{
	int sig = sysarg_int(a, 1);
	unsigned flags = sysarg_uint(a, 3);
	uaddr_t uinfo = sysarg_uaddr(a, 2);
	struct linux_siginfo si, *info = NULL;
	struct process *p;
	struct task *leader;
	int ret;

	/* PIDFD_SIGNAL_THREAD (1): the thread the pidfd names (the leader:
	 * pidfds of other threads, PIDFD_THREAD, are not made here);
	 * _THREAD_GROUP (2), _PROCESS_GROUP (4): at most one. */
	if ((flags & ~7u) || (flags & (flags - 1)))
		return -EINVAL;
	ret = signal_target(t, sysarg_int(a, 0), &p);
	if (ret)
		return ret;
	/* The caller's siginfo before the permission, as Linux: posing as
	 * kill() or the kernel only towards the calling thread's own pid,
	 * never a process group. */
	if (uinfo) {
		if (copy_from_user(t->mm, &si, uinfo, sizeof(si)) < 0)
			return -EFAULT;
		if (si.si_signo != sig)
			return -EINVAL;
		if ((si.si_code >= 0 || si.si_code == LINUX_SI_TKILL) &&
		    (t->tid != p->pid || (flags & 4)))
			return -EPERM;
		info = &si;
	}
	/* the process group whose id is the pidfd's pid, as Linux's
	 * kill_pgrp_info(pid): ESRCH if that process leads none */
	if (flags & 4)
		return kill_pgrp_info(t, p->pid, sig, info);
	if (!(flags & 1) || p->zombie)
		return send_signal_checked(t, p, NULL, sig, info);
	leader = task_by_tid(p->pid);
	if (!leader || leader->proc != p)
		return -ESRCH;
	return send_signal_checked(t, p, leader, sig, info);
}

/* pidfd_getfd: a duplicate of the process's fd (its leader's table), with
 * close-on-exec, for a caller with ptrace's ATTACH right over it (real
 * credentials). A process that has exited has no table left: ESRCH. */
long sys_pidfd_getfd(struct task *t, const struct sysargs *a)
{
	int targetfd = sysarg_int(a, 1);
	struct process *p;
	struct task *leader;
	struct file *f;
	int fd;

	if (sysarg_uint(a, 2))
		return -EINVAL;
	fd = pidfd_live(t, sysarg_int(a, 0), &p);
	if (fd)
		return fd;
	leader = task_by_tid(p->pid);
	if (!leader || leader->proc != p)
		return -ESRCH;
	if (p != t->proc && !cred_ptrace_may_access(&t->proc->cred, p, true))
		return -EPERM;
	f = leader->files ? fdget(leader->files, targetfd) : NULL;
	if (!f)
		return leader->files ? -EBADF : -ESRCH;
	fd = fd_install(t->files, f, 0, true, (int)t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur);
	if (fd < 0)
		file_put(f);
	return fd;
}
