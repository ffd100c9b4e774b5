/* vfs/fown.c: a file's owner and its signal, as Linux's fs/fcntl.c: the
 * owner is a thread, a process or a process group, kept by number and
 * looked up when a signal is sent; F_SETSIG's signal is queued with
 * si_code the reason, si_band and si_fd, and plain SIGIO is sent when it
 * is 0 or cannot be queued. Only those the setter's ids allow are
 * signalled (sigio_perm). dnotify sends through it, and O_ASYNC (Linux's
 * fasync): a file whose kind has it (file_ops.fasync: pipes, sockets,
 * terminals, inotify) hangs a callback on each wait queue its poll
 * registers, and a wakeup about what the file is open for signals the
 * owner: POLL_IN for data (or a change, to a reader), POLL_OUT for room,
 * as the drivers' kill_fasync calls. */
#include <stdlib.h>

#include "vfs/fown.h"
#include "vfs/file.h"
#include "vfs/poll.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "kernel/cred.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/poll.h"
#include "abi/linux/signal.h"

/* Does a thread or process number (or a process group) exist? */
static bool owner_exists(int type, int pid)
{
	struct process *p = NULL;

	if (task_by_tid(pid))
		return true;
	if (type != LINUX_F_OWNER_PGRP)
		return false;
	while ((p = process_next(p)))
		if (p->pgid == pid)
			return true;
	return false;
}

static void set_owner(struct task *t, struct file *f, int type, int pid)
{
	f->owner_type = (uint8_t)type;
	f->owner_pid = pid;
	f->owner_uid = t->proc->cred.uid;
	f->owner_euid = t->proc->cred.euid;
}

void fown_set_default(struct task *t, struct file *f)
{
	if (!f->owner_pid)
		set_owner(t, f, LINUX_F_OWNER_PID, t->proc->pid);
}

/* F_GETOWN: the owner, a group as its negative; 0 once it has gone. */
static long get_owner(const struct file *f)
{
	struct task *th;

	switch (f->owner_type) {
	case LINUX_F_OWNER_PGRP:
		return owner_exists(LINUX_F_OWNER_PGRP, f->owner_pid) ? -f->owner_pid : 0;
	case LINUX_F_OWNER_TID:
		th = task_by_tid(f->owner_pid);
		return th && th->state != TASK_DEAD ? f->owner_pid : 0;
	default:
		return process_by_pid(f->owner_pid) ? f->owner_pid : 0;
	}
}

/* get_owner as t's pid namespace sees it. */
static long get_owner_vnr(struct task *t, const struct file *f)
{
	long o = f->owner_pid ? get_owner(f) : 0;

	return o < 0 ? -(long)pid_vnr(t, (int)-o) : pid_vnr(t, (int)o);
}

long fown_fcntl(struct task *t, struct file *f, int cmd, uint64_t arg)
{
	struct linux_f_owner_ex ex;
	int who = (int)arg, g;

	switch (cmd) {
	case LINUX_F_SETOWN:
		if (who == INT32_MIN)
			return -EINVAL;
		/* the number in the caller's pid namespace; kept as the
		 * instance's */
		g = pid_from_nr(task_pid_ns(t), who < 0 ? -who : who);
		if (who &&
		    (!g || !owner_exists(who < 0 ? LINUX_F_OWNER_PGRP : LINUX_F_OWNER_PID, g)))
			return -ESRCH;
		set_owner(t, f, who < 0 ? LINUX_F_OWNER_PGRP : LINUX_F_OWNER_PID, g);
		return 0;
	case LINUX_F_GETOWN:
		return get_owner_vnr(t, f);
	case LINUX_F_SETOWN_EX:
		if (copy_from_user(t->mm, &ex, arg, sizeof(ex)) < 0)
			return -EFAULT;
		if (ex.type != LINUX_F_OWNER_TID && ex.type != LINUX_F_OWNER_PID &&
		    ex.type != LINUX_F_OWNER_PGRP)
			return -EINVAL;
		g = ex.pid > 0 ? pid_from_nr(task_pid_ns(t), ex.pid) : 0;
		if (ex.pid && (!g || !owner_exists(ex.type, g)))
			return -ESRCH;
		set_owner(t, f, ex.type, g);
		return 0;
	case LINUX_F_GETOWN_EX:
		/* A file never owned says F_OWNER_TID, as Linux. */
		ex.type = f->owner_type;
		ex.pid = (int)get_owner_vnr(t, f);
		if (ex.pid < 0)
			ex.pid = -ex.pid;
		return copy_to_user(t->mm, arg, &ex, sizeof(ex)) < 0 ? -EFAULT : 0;
	case LINUX_F_SETSIG:
		/* Linux's valid_signal of an unsigned long: 0 restores SIGIO. */
		if ((unsigned)who > LINUX_NSIG)
			return -EINVAL;
		f->sigio_sig = who;
		return 0;
	case LINUX_F_GETSIG:
		return f->sigio_sig;
	}
	return -EINVAL;
}

/* Linux's sigio_perm: root set it, or one of the setter's ids is the
 * target's real or saved uid. */
static bool may_signal(const struct file *f, const struct process *p)
{
	const struct cred *c = &p->cred;

	return f->owner_euid == 0 || f->owner_euid == c->suid || f->owner_euid == c->uid ||
	       f->owner_uid == c->suid || f->owner_uid == c->uid;
}

/* Linux's band_table, by reason (POLL_IN .. POLL_HUP). */
static const uint16_t band_of[] = {
	LINUX_POLLIN | LINUX_POLLRDNORM,
	LINUX_POLLOUT | LINUX_POLLWRNORM | LINUX_POLLWRBAND,
	LINUX_POLLIN | LINUX_POLLRDNORM | LINUX_POLLMSG,
	LINUX_POLLERR,
	LINUX_POLLPRI | LINUX_POLLRDBAND,
	LINUX_POLLHUP | LINUX_POLLERR,
};

/* reason 0: SIGURG (send_sigurg_to_task), else the SIGIO of reason. */
static void sigio_to(struct file *f, struct process *p, struct task *th, int fd, int reason)
{
	struct linux_siginfo si = { 0 };

	if (p->zombie || p->reaped || !may_signal(f, p))
		return;
	if (!reason) {
		si.si_signo = LINUX_SIGURG;
		si.si_code = LINUX_SI_KERNEL;
		send_signal_info(p, th, LINUX_SIGURG, &si);
		return;
	}
	if (f->sigio_sig) {
		si.si_signo = f->sigio_sig;
		si.si_code = reason;
		si.fields.sigpoll.band = band_of[reason - LINUX_POLL_IN];
		si.fields.sigpoll.fd = fd;
		if (send_signal_info(p, th, f->sigio_sig, &si) == 0)
			return;
		si = (struct linux_siginfo){ 0 }; /* queue full: plain SIGIO */
	}
	si.si_signo = LINUX_SIGIO;
	si.si_code = LINUX_SI_KERNEL;
	send_signal_info(p, th, LINUX_SIGIO, &si);
}

void fown_send_sigio(struct file *f, int fd, int reason)
{
	struct process *p = NULL;
	struct task *th;

	if (!f->owner_pid)
		return;
	switch (f->owner_type) {
	case LINUX_F_OWNER_TID:
		th = task_by_tid(f->owner_pid);
		if (th && th->state != TASK_DEAD)
			sigio_to(f, th->proc, th, fd, reason);
		break;
	case LINUX_F_OWNER_PGRP:
		while ((p = process_next(p)))
			if (p->pgid == f->owner_pid)
				sigio_to(f, p, NULL, fd, reason);
		break;
	default:
		p = process_by_pid(f->owner_pid);
		if (p)
			sigio_to(f, p, NULL, fd, reason);
	}
}

void fown_send_sigurg(struct file *f)
{
	fown_send_sigio(f, 0, 0);
	if (f->fasync)
		fown_send_sigio(f, f->fasync_fd, LINUX_POLL_PRI);
}

/* One wait queue an O_ASYNC file listens on. */
struct fasync_entry {
	struct waiter w;
	struct waitq *wq; /* NULL once the queue was freed */
	struct file *file;
	struct fasync_entry *next;
};

static int fasync_wake(struct waiter *w, unsigned key)
{
	struct fasync_entry *e = container_of(w, struct fasync_entry, w);
	struct file *f = e->file;
	int reason;

	if (key & WAKE_FREE) {
		list_del(&w->link);
		e->wq = NULL;
		return 0;
	}
	if ((key & LINUX_POLLIN) && file_readable(f))
		reason = LINUX_POLL_IN;
	else if ((key & LINUX_POLLOUT) && file_writable(f))
		reason = LINUX_POLL_OUT;
	else if (key & (LINUX_POLLIN | LINUX_POLLOUT))
		return 0; /* about the other direction */
	else if (key & LINUX_POLLHUP)
		reason = LINUX_POLL_HUP;
	else if (key & LINUX_POLLERR)
		reason = LINUX_POLL_ERR;
	else
		reason = file_readable(f) ? LINUX_POLL_IN : LINUX_POLL_OUT;
	fown_send_sigio(f, f->fasync_fd, reason);
	return 0; /* takes no exclusive waiter's wakeup */
}

struct fasync_pqueue {
	struct poll_table pt;
	struct file *file;
};

static void fasync_queue_proc(struct poll_table *pt, struct waitq *wq)
{
	struct fasync_pqueue *q = container_of(pt, struct fasync_pqueue, pt);
	struct fasync_entry *e = calloc(1, sizeof(*e));

	if (!e) {
		pt->failed = true;
		return;
	}
	e->w.func = fasync_wake;
	e->wq = wq;
	e->file = q->file;
	e->next = q->file->fasync;
	q->file->fasync = e;
	list_add_tail(&e->w.link, &wq->waiters);
}

static void fasync_drop(struct file *f)
{
	struct fasync_entry *e;

	while ((e = f->fasync)) {
		f->fasync = e->next;
		if (e->wq)
			list_del(&e->w.link);
		free(e);
	}
}

long fown_fasync(struct file *f, int fd, bool on)
{
	struct fasync_pqueue q = { .pt = { .qproc = fasync_queue_proc }, .file = f };

	if (!f->ops->fasync || !f->ops->poll)
		return -ENOTTY;
	if (!on) {
		fasync_drop(f);
		return 0;
	}
	f->fasync_fd = fd;
	if (f->fasync)
		return 0;
	f->ops->poll(f, &q.pt);
	if (q.pt.failed) {
		fasync_drop(f);
		return -ENOMEM;
	}
	return 0;
}

void fown_file_gone(struct file *f)
{
	fasync_drop(f);
}
