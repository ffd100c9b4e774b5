/* vfs/signalfd.c: signalfd(2) and signalfd4(2). A signalfd holds only a
 * mask; as in Linux, a read takes signals from the reader's own queues (its
 * thread's pending set, then its process's), so the same fd read in a
 * forked child gives the child's signals. Readers and pollers sleep on
 * their process's signalfd_wq, which kernel/signal.c wakes whenever a
 * signal is queued to the process or one of its threads. */
#include <stdlib.h>
#include <string.h>

#include "vfs/eventfd.h"
#include "vfs/file.h"
#include "vfs/poll.h"
#include "kernel/task.h"
#include "syscalls/dispatch.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/poll.h"
#include "abi/linux/signal.h"

#define SIGBIT(sig) (1ULL << ((sig)-1))
#define UNBLOCKABLE (SIGBIT(LINUX_SIGKILL) | SIGBIT(LINUX_SIGSTOP))

struct signalfd {
	uint64_t mask; /* never SIGKILL or SIGSTOP */
};

static const struct file_ops signalfd_ops;

/* Linux's siginfo_layout(): which union member of info is live. */
enum layout { SIL_KILL, SIL_TIMER, SIL_POLL, SIL_FAULT, SIL_CHLD, SIL_RT, SIL_SYS };

static enum layout siginfo_layout(int sig, int code)
{
	static const struct {
		int limit;
		enum layout layout;
	} filter[] = {
		[LINUX_SIGILL] = { 11, SIL_FAULT }, [LINUX_SIGFPE] = { 15, SIL_FAULT },
		[LINUX_SIGSEGV] = { 9, SIL_FAULT }, [LINUX_SIGBUS] = { 5, SIL_FAULT },
		[LINUX_SIGTRAP] = { 6, SIL_FAULT }, [LINUX_SIGCHLD] = { 6, SIL_CHLD },
		[LINUX_SIGPOLL] = { 6, SIL_POLL },  [LINUX_SIGSYS] = { 2, SIL_SYS },
	};

	if (code > LINUX_SI_USER && code < LINUX_SI_KERNEL) {
		if ((size_t)sig < sizeof(filter) / sizeof(filter[0]) && filter[sig].limit &&
		    code <= filter[sig].limit)
			return filter[sig].layout;
		return code <= 6 ? SIL_POLL : SIL_KILL;
	}
	if (code == LINUX_SI_TIMER)
		return SIL_TIMER;
	if (code == LINUX_SI_SIGIO)
		return SIL_POLL;
	return code < 0 ? SIL_RT : SIL_KILL;
}

/* Linux's signalfd_copyinfo(): the fields of the live member only. */
static void copy_info(struct linux_signalfd_siginfo *o, const struct linux_siginfo *i)
{
	memset(o, 0, sizeof(*o));
	o->ssi_signo = (uint32_t)i->si_signo;
	o->ssi_errno = i->si_errno;
	o->ssi_code = i->si_code;
	switch (siginfo_layout(i->si_signo, i->si_code)) {
	case SIL_KILL:
		o->ssi_pid = (uint32_t)i->fields.kill.pid;
		o->ssi_uid = i->fields.kill.uid;
		break;
	case SIL_TIMER:
		o->ssi_tid = (uint32_t)i->fields.timer.tid;
		o->ssi_overrun = (uint32_t)i->fields.timer.overrun;
		o->ssi_ptr = i->fields.timer.sigval.sival_ptr;
		o->ssi_int = i->fields.timer.sigval.sival_int;
		break;
	case SIL_POLL:
		o->ssi_band = (uint32_t)i->fields.sigpoll.band;
		o->ssi_fd = i->fields.sigpoll.fd;
		break;
	case SIL_FAULT:
		o->ssi_addr = i->fields.sigfault.addr;
		break;
	case SIL_CHLD:
		o->ssi_pid = (uint32_t)i->fields.sigchld.pid;
		o->ssi_uid = i->fields.sigchld.uid;
		o->ssi_status = i->fields.sigchld.status;
		o->ssi_utime = (uint64_t)i->fields.sigchld.utime;
		o->ssi_stime = (uint64_t)i->fields.sigchld.stime;
		break;
	case SIL_RT:
		o->ssi_pid = (uint32_t)i->fields.rt.pid;
		o->ssi_uid = i->fields.rt.uid;
		o->ssi_ptr = i->fields.rt.sigval.sival_ptr;
		o->ssi_int = i->fields.rt.sigval.sival_int;
		break;
	case SIL_SYS:
		o->ssi_call_addr = i->fields.sigsys.call_addr;
		o->ssi_syscall = i->fields.sigsys.syscall;
		o->ssi_arch = i->fields.sigsys.arch;
		break;
	}
}

/* Takes one signal of the mask from current's queues; blocks (unless
 * nonblock) until there is one. 1, or -EAGAIN / -ERESTARTSYS. */
static int signalfd_dequeue(struct signalfd *sfd, bool nonblock, struct linux_siginfo *info)
{
	struct task *t = current;

	for (;;) {
		if (signal_dequeue(t, sfd->mask, info))
			return 1;
		if (nonblock)
			return -EAGAIN;
		if (signal_pending(t))
			return -ERESTARTSYS;
		waitq_sleep(&t->proc->signalfd_wq);
	}
}

static long signalfd_read(struct file *f, void *buf, size_t n)
{
	struct signalfd *sfd = f->priv;
	struct linux_signalfd_siginfo rec;
	struct linux_siginfo info;
	size_t count = n / sizeof(rec), done = 0;
	int ret;

	if (count == 0)
		return -EINVAL;
	/* The first record may wait; the rest are taken only if there. */
	for (; done < count; done++) {
		ret = signalfd_dequeue(sfd, done > 0 || (f->flags & LINUX_O_NONBLOCK), &info);
		if (ret < 0)
			break;
		copy_info(&rec, &info);
		memcpy((char *)buf + done * sizeof(rec), &rec, sizeof(rec));
	}
	return done ? (long)(done * sizeof(rec)) : ret;
}

/* Linux's signalfd_read dequeues each signal before copying its record
 * out: the one whose copy faults is lost. */
static long signalfd_read_fault(struct file *f, void *buf, size_t n, size_t ok, size_t *arrived)
{
	return file_read_fault_records(f, buf, n, ok, arrived,
				       sizeof(struct linux_signalfd_siginfo), false);
}

/* As Linux: readable when the poller (current) has one of the signals
 * pending, on its thread or its process. */
static unsigned signalfd_poll(struct file *f, struct poll_table *pt)
{
	struct signalfd *sfd = f->priv;
	struct task *t = current;

	if (!t)
		return 0;
	poll_wait(pt, &t->proc->signalfd_wq);
	return ((t->pending | t->proc->pending) & sfd->mask) ? LINUX_POLLIN : 0;
}

static void signalfd_release(struct file *f)
{
	free(f->priv);
}

static const struct file_ops signalfd_ops = {
	.anon_name = "[signalfd]",
	.read = signalfd_read,
	.read_fault = signalfd_read_fault,
	.llseek = anon_inode_llseek,
	.stat = anon_inode_stat,
	.poll = signalfd_poll,
	.release = signalfd_release,
	.nowait = FILE_NOWAIT_READ,
};

static long do_signalfd4(struct task *t, int fd, uaddr_t umask, uint64_t size, int flags)
{
	struct signalfd *sfd;
	struct file *f;
	uint64_t mask;

	if (flags & ~(LINUX_SFD_CLOEXEC | LINUX_SFD_NONBLOCK))
		return -EINVAL;
	if (size != sizeof(mask))
		return -EINVAL;
	if (copy_from_user(t->mm, &mask, umask, sizeof(mask)) < 0)
		return -EFAULT;
	mask &= ~UNBLOCKABLE;
	if (fd != -1) {
		f = fdget(t->files, fd);
		if (!f)
			return -EBADF;
		if (f->ops != &signalfd_ops) {
			file_put(f);
			return -EINVAL;
		}
		sfd = f->priv;
		sfd->mask = mask;
		file_put(f);
		/* Readers may now have something to take. */
		waitq_wake_all(&t->proc->signalfd_wq);
		return fd;
	}
	sfd = calloc(1, sizeof(*sfd));
	if (!sfd)
		return -ENOMEM;
	f = file_alloc(&signalfd_ops, LINUX_O_RDWR | (flags & LINUX_SFD_NONBLOCK), -1, NULL);
	if (!f) {
		free(sfd);
		return -ENFILE;
	}
	sfd->mask = mask;
	f->priv = sfd;
	fd = fd_install(t->files, f, 0, flags & LINUX_SFD_CLOEXEC,
			(int)t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur);
	if (fd < 0)
		file_put(f);
	return fd;
}

long sys_signalfd(struct task *t, const struct sysargs *a)
{
	return do_signalfd4(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_size(a, 2), 0);
}

long sys_signalfd4(struct task *t, const struct sysargs *a)
{
	return do_signalfd4(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_size(a, 2),
			    sysarg_int(a, 3));
}
