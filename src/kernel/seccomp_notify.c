/* kernel/seccomp_notify.c: seccomp user notification (seccomp_unotify(2)),
 * as Linux's kernel/seccomp.c. A filter installed with NEW_LISTENER has a
 * listener file; a call a filter answers USER_NOTIF with queues a
 * notification there and its task sleeps until the supervisor RECVs it
 * and SENDs an answer (a value, an error, or CONTINUE: the call runs).
 * A notification lives on its task's kernel stack for as long as the
 * task waits, so they are bounded by the tasks; ADDFD installs the fd at
 * once in the waiting task's table (Linux hands it to the task to do),
 * so nothing queues there either. */
#include <stdlib.h>
#include <string.h>

#include "kernel/seccomp_notify.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "host/host.h"
#include "mm/usercopy.h"
#include "vfs/eventfd.h"
#include "vfs/file.h"
#include "vfs/poll.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/poll.h"
#include "abi/linux/types.h"

enum notify_state {
	NOTIFY_INIT,	/* queued: RECV may take it */
	NOTIFY_SENT,	/* received: waits for SEND */
	NOTIFY_REPLIED, /* answered (or the listener went: ENOSYS) */
};

struct seccomp_listener {
	struct list_head notifs; /* struct unotif by link, oldest first */
	uint64_t next_id;
	/* Linux's count of notifications queued and not yet taken by a
	 * RECV: one withdrawn by a signal before it was received stays
	 * counted, so a RECV then finds none (ENOENT) instead of waiting. */
	int requests;
	unsigned flags; /* SET_FLAGS: SYNC_WAKE_UP, a scheduling hint */
};

/* A waiting call (its task's stack). */
struct unotif {
	struct list_head link; /* in the listener's notifs, while it has one */
	struct task *task;
	uint64_t id;
	enum notify_state state;
	struct linux_seccomp_data data;
	int32_t error;
	int64_t val;
	uint32_t flags;
	struct waitq ready; /* the task, until REPLIED */
};

#define ADDFD_SIZE_VER0 24

static struct unotif *find_notification(struct seccomp_listener *l, uint64_t id)
{
	struct unotif *n;

	list_for_each_entry(n, &l->notifs, link)
	{
		if (n->id == id)
			return n;
	}
	return NULL;
}

/* Linux's should_sleep_killable: once received, with WAIT_KILLABLE_RECV. */
static bool sleep_killable(const struct seccomp_filter *f, const struct unotif *n)
{
	return f->wait_killable_recv && n->state >= NOTIFY_SENT;
}

bool seccomp_user_notif(struct task *t, struct seccomp_filter *match,
			const struct linux_seccomp_data *d, long *ret)
{
	struct seccomp_listener *l = match->notif;
	struct unotif n;
	bool interrupted = false;

	if (!l) {
		*ret = -ENOSYS;
		return false;
	}
	memset(&n, 0, sizeof(n));
	n.task = t;
	n.state = NOTIFY_INIT;
	n.data = *d;
	n.id = l->next_id++;
	waitq_init(&n.ready);
	list_add_tail(&n.link, &l->notifs);
	l->requests++;
	waitq_wake(&match->wqh, LINUX_POLLIN | LINUX_POLLRDNORM);
	/* As Linux's seccomp_do_user_notification: a signal withdraws the
	 * call (restarted, or EINTR), a fatal one only once it is received
	 * under WAIT_KILLABLE_RECV. */
	while (n.state != NOTIFY_REPLIED) {
		if (sleep_killable(match, &n) ? t->killed : signal_pending(t)) {
			interrupted = true;
			break;
		}
		waitq_sleep(&n.ready);
	}
	/* (the listener's release may have unlinked it: a no-op then) */
	list_del(&n.link);
	if (interrupted) {
		t->restart_ret = -ERESTARTSYS;
		*ret = -EINTR;
		return false;
	}
	if (n.flags & LINUX_SECCOMP_USER_NOTIF_FLAG_CONTINUE)
		return true;
	*ret = n.error ? (long)n.error : (long)n.val;
	return false;
}

void seccomp_filter_orphaned(struct seccomp_filter *f)
{
	waitq_wake(&f->wqh, LINUX_POLLHUP);
}

/* Each open fd's close: nothing; the last reference's release: every
 * waiting call gets ENOSYS, and the filter has no listener from now. */
static void listener_release(struct file *file)
{
	struct seccomp_filter *f = file->priv;
	struct seccomp_listener *l;
	struct unotif *n, *tmp;

	if (!f)
		return;
	l = f->notif;
	list_for_each_entry_safe(n, tmp, &l->notifs, link)
	{
		list_del(&n->link);
		if (n->state == NOTIFY_REPLIED)
			continue;
		n->state = NOTIFY_REPLIED;
		n->error = -ENOSYS;
		n->val = 0;
		n->flags = 0;
		waitq_wake_all(&n->ready);
	}
	free(l);
	f->notif = NULL;
	seccomp_filter_put(f);
}

/* Linux's check_zeroed_user: 1 if the n guest bytes at addr are all 0, 0
 * if not, -EFAULT. */
static int user_zeroed(struct task *t, uaddr_t addr, size_t n)
{
	char buf[256];
	size_t i, chunk;

	while (n) {
		chunk = n < sizeof(buf) ? n : sizeof(buf);
		if (copy_from_user(t->mm, buf, addr, chunk) < 0)
			return -EFAULT;
		for (i = 0; i < chunk; i++)
			if (buf[i])
				return 0;
		addr += chunk;
		n -= chunk;
	}
	return 1;
}

/* Linux's recv_wait_event: until a notification is counted or no task
 * uses the filter. */
static long recv_wait(struct seccomp_filter *f)
{
	for (;;) {
		if (f->users == 0)
			return 0;
		if (f->notif->requests > 0) {
			f->notif->requests--;
			return 0;
		}
		if (signal_pending(current))
			return -ERESTARTSYS;
		waitq_sleep(&f->wqh);
	}
}

static long notify_recv(struct seccomp_filter *f, struct task *t, uaddr_t buf)
{
	struct linux_seccomp_notif u;
	struct unotif *n = NULL, *cur;
	long ret;

	ret = user_zeroed(t, buf, sizeof(u));
	if (ret <= 0)
		return ret < 0 ? ret : -EINVAL;
	ret = recv_wait(f);
	if (ret < 0)
		return ret;
	list_for_each_entry(cur, &f->notif->notifs, link)
	{
		if (cur->state == NOTIFY_INIT) {
			n = cur;
			break;
		}
	}
	if (!n)
		return -ENOENT; /* withdrawn meanwhile */
	memset(&u, 0, sizeof(u));
	u.id = n->id;
	u.pid = (uint32_t)pid_vnr(t, n->task->tid); /* 0: outside the supervisor's namespace */
	u.data = n->data;
	n->state = NOTIFY_SENT;
	waitq_wake(&f->wqh, LINUX_POLLOUT | LINUX_POLLWRNORM);
	if (copy_to_user(t->mm, buf, &u, sizeof(u)) == 0)
		return 0;
	/* The supervisor lost it: back to the queue, as Linux, if it is still
	 * there (found again: a copy may have let its task run). */
	n = find_notification(f->notif, u.id);
	if (!n)
		return -EFAULT;
	if (sleep_killable(f, n))
		waitq_wake_all(&n->ready);
	n->state = NOTIFY_INIT;
	f->notif->requests++;
	waitq_wake(&f->wqh, LINUX_POLLIN | LINUX_POLLRDNORM);
	return -EFAULT;
}

static long notify_send(struct seccomp_filter *f, struct task *t, uaddr_t buf)
{
	struct linux_seccomp_notif_resp r;
	struct unotif *n;

	if (copy_from_user(t->mm, &r, buf, sizeof(r)) < 0)
		return -EFAULT;
	if (r.flags & ~LINUX_SECCOMP_USER_NOTIF_FLAG_CONTINUE)
		return -EINVAL;
	if ((r.flags & LINUX_SECCOMP_USER_NOTIF_FLAG_CONTINUE) && (r.error || r.val))
		return -EINVAL;
	n = find_notification(f->notif, r.id);
	if (!n)
		return -ENOENT;
	if (n->state != NOTIFY_SENT)
		return -EINPROGRESS; /* exactly one answer, after the RECV */
	n->state = NOTIFY_REPLIED;
	n->error = r.error;
	n->val = r.val;
	n->flags = r.flags;
	waitq_wake_all(&n->ready);
	return 0;
}

static long notify_id_valid(struct seccomp_filter *f, struct task *t, uaddr_t buf)
{
	struct unotif *n;
	uint64_t id;

	if (copy_from_user(t->mm, &id, buf, sizeof(id)) < 0)
		return -EFAULT;
	n = find_notification(f->notif, id);
	return n && n->state == NOTIFY_SENT ? 0 : -ENOENT;
}

/* Linux's receive_fd and receive_fd_replace, in the waiting task's table
 * (its RLIMIT_NOFILE). Differs from Linux: a file replaced by SETFD is
 * closed by the supervisor, not by the task (its POSIX locks are the
 * task's files' all the same). */
static int addfd_install(struct task *target, struct file *file,
			 const struct linux_seccomp_notif_addfd *a)
{
	uint64_t limit = target->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur;
	bool cloexec = a->newfd_flags & LINUX_O_CLOEXEC;
	int fd;

	file_get(file);
	if (a->flags & LINUX_SECCOMP_ADDFD_FLAG_SETFD) {
		if (a->newfd >= limit)
			fd = -EBADF;
		else
			fd = fd_install_at(target->files, (int)a->newfd, file, cloexec);
	} else {
		fd = fd_install(target->files, file, 0, cloexec, (int)limit);
	}
	if (fd < 0)
		file_put(file);
	return fd;
}

static long notify_addfd(struct seccomp_filter *f, struct task *t, uaddr_t buf, unsigned size)
{
	struct linux_seccomp_notif_addfd a;
	struct unotif *n;
	struct file *file;
	long ret;

	if (size < ADDFD_SIZE_VER0 || size >= PAGE_SIZE)
		return -EINVAL;
	/* copy_struct_from_user: what a newer caller adds must be 0 */
	if (size > sizeof(a)) {
		ret = user_zeroed(t, buf + sizeof(a), size - sizeof(a));
		if (ret <= 0)
			return ret < 0 ? ret : -E2BIG;
	}
	if (copy_from_user(t->mm, &a, buf, sizeof(a)) < 0)
		return -EFAULT;
	if (a.newfd_flags & ~LINUX_O_CLOEXEC)
		return -EINVAL;
	if (a.flags & ~(LINUX_SECCOMP_ADDFD_FLAG_SETFD | LINUX_SECCOMP_ADDFD_FLAG_SEND))
		return -EINVAL;
	if (a.newfd && !(a.flags & LINUX_SECCOMP_ADDFD_FLAG_SETFD))
		return -EINVAL;
	file = fdget_nopath(t->files, (int)a.srcfd);
	if (!file)
		return -EBADF;
	n = find_notification(f->notif, a.id);
	if (!n)
		ret = -ENOENT;
	else if (n->state != NOTIFY_SENT)
		ret = -EINPROGRESS; /* not before the RECV, nor after the answer */
	else
		ret = addfd_install(n->task, file, &a);
	/* SEND: the fd is the call's answer; a failure leaves it received.
	 * (Found again: the close of a file SETFD replaced may have slept and
	 * let the task go.) */
	if (ret >= 0 && (a.flags & LINUX_SECCOMP_ADDFD_FLAG_SEND))
		n = find_notification(f->notif, a.id);
	if (ret >= 0 && (a.flags & LINUX_SECCOMP_ADDFD_FLAG_SEND) && n && n->state == NOTIFY_SENT) {
		n->state = NOTIFY_REPLIED;
		n->error = 0;
		n->val = ret;
		n->flags = 0;
		waitq_wake_all(&n->ready);
	}
	file_put(file);
	return ret;
}

/* The size field of an ioctl number, and the number without it or its
 * direction (Linux's EA_IOCTL: ADDFD takes any size it knows). */
#define IOC_SIZE(cmd) (((cmd) >> 16) & 0x3fff)
#define EA_IOCTL(cmd) ((cmd) & ~(3U << 30 | 0x3fffU << 16))

static long listener_ioctl(struct file *file, struct task *t, unsigned cmd, uint64_t arg)
{
	struct seccomp_filter *f = file->priv;

	switch (cmd) {
	case LINUX_SECCOMP_IOCTL_NOTIF_RECV:
		return notify_recv(f, t, arg);
	case LINUX_SECCOMP_IOCTL_NOTIF_SEND:
		return notify_send(f, t, arg);
	case LINUX_SECCOMP_IOCTL_NOTIF_ID_VALID:
	case LINUX_SECCOMP_IOCTL_NOTIF_ID_VALID_WRONG_DIR:
		return notify_id_valid(f, t, arg);
	case LINUX_SECCOMP_IOCTL_NOTIF_SET_FLAGS:
		/* SYNC_WAKE_UP asks Linux to run the woken task on the
		 * waker's CPU: nothing a guest sees, kept as a no-op. */
		if (arg & ~(uint64_t)LINUX_SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP)
			return -EINVAL;
		f->notif->flags = (unsigned)arg;
		return 0;
	}
	if (EA_IOCTL(cmd) == EA_IOCTL(LINUX_SECCOMP_IOCTL_NOTIF_ADDFD))
		return notify_addfd(f, t, arg, IOC_SIZE(cmd));
	return -EINVAL;
}

static unsigned listener_poll(struct file *file, struct poll_table *pt)
{
	struct seccomp_filter *f = file->priv;
	struct unotif *n;
	unsigned mask = 0;

	poll_wait(pt, &f->wqh);
	list_for_each_entry(n, &f->notif->notifs, link)
	{
		if (n->state == NOTIFY_INIT)
			mask |= LINUX_POLLIN | LINUX_POLLRDNORM;
		if (n->state == NOTIFY_SENT)
			mask |= LINUX_POLLOUT | LINUX_POLLWRNORM;
	}
	if (f->users == 0)
		mask |= LINUX_POLLHUP;
	return mask;
}

/* No read, write or llseek: EINVAL and ESPIPE, as Linux's. */
static const struct file_ops listener_ops = {
	.stat = anon_inode_stat,
	.ioctl = listener_ioctl,
	.poll = listener_poll,
	.release = listener_release,
	.anon_name = "seccomp notify",
};

int seccomp_listener_create(struct seccomp_filter *f, struct file **out)
{
	struct seccomp_listener *l = calloc(1, sizeof(*l));
	struct file *file;

	if (!l)
		return -ENOMEM;
	file = file_alloc(&listener_ops, LINUX_O_RDWR, -1, NULL);
	if (!file) {
		free(l);
		return file_alloc_error();
	}
	list_init(&l->notifs);
	/* Linux starts the ids at a random number */
	if (host_getrandom(&l->next_id, sizeof(l->next_id)) < 0)
		l->next_id = 1;
	f->notif = l;
	f->refcount++;
	file->priv = f;
	*out = file;
	return 0;
}

void seccomp_listener_abort(struct seccomp_filter *f, struct file *file)
{
	file->priv = NULL;
	free(f->notif);
	f->notif = NULL;
	f->refcount--;
}
