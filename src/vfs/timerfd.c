/* vfs/timerfd.c: timerfd_create, timerfd_settime, timerfd_gettime. A timer
 * on the kernel's monotonic clock (a ktimer) counts expirations; read takes
 * the count. Absolute REALTIME and BOOTTIME deadlines are turned into
 * monotonic ones when the timer is set. Differs from Linux: a later jump of
 * the host's realtime clock does not move an armed absolute timer, and
 * TFD_TIMER_CANCEL_ON_SET is accepted but never cancels (read never gives
 * ECANCELED); the alarm clocks behave as their plain clocks (no wakeup from
 * suspend); a read of 0 bytes returns 0 before it gets here. */
#include <stdlib.h>
#include <string.h>

#include "kernel/ktime.h"
#include "vfs/eventfd.h"
#include "vfs/file.h"
#include "vfs/poll.h"
#include "kernel/task.h"
#include "kernel/timens.h"
#include "syscalls/dispatch.h"
#include "mm/usercopy.h"
#include "host/host.h"
#include "abi/linux/epoll.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/misc.h"
#include "abi/linux/poll.h"
#include "abi/linux/types.h"

#define CAP_WAKE_ALARM 35

struct timerfd {
	int clockid;	     /* the guest's clock, for absolute deadlines */
	uint64_t ticks;	     /* expirations not yet read */
	bool armed;	     /* expires_ns is the next expiry */
	int64_t expires_ns;  /* monotonic (sched_now_ns) */
	int64_t interval_ns; /* 0: one-shot */
	struct ktimer tm;
	struct waitq wq; /* readers and pollers */
};

static const struct file_ops timerfd_ops;

/* The host clock an absolute deadline of this timer is read on. */
static int base_clock(int clockid)
{
	switch (clockid) {
	case LINUX_CLOCK_REALTIME_ALARM:
		return LINUX_CLOCK_REALTIME;
	case LINUX_CLOCK_BOOTTIME_ALARM:
		return LINUX_CLOCK_BOOTTIME;
	default:
		return clockid;
	}
}

static void timerfd_fire(void *arg);

/* The kernel timer runs only while there is an expiry to wake someone
 * for: armed, and no ticks unread (they make the fd readable until a
 * read; the count is worked out from the clock when looked at). So a
 * periodic timer nobody reads fires once, as Linux's hrtimer, which the
 * read re-arms; re-armed at each period it let a guest keep the kernel
 * firing timers for ever. */
static void timerfd_rearm(struct timerfd *tfd)
{
	if (tfd->armed && !tfd->ticks)
		ktimer_arm(&tfd->tm, tfd->expires_ns, timerfd_fire, tfd);
	else
		ktimer_cancel(&tfd->tm);
}

/* Counts the expirations that are due and moves the timer to the next
 * one (periodic) or disarms it (one-shot). Returns true if any were due. */
static bool timerfd_update(struct timerfd *tfd)
{
	int64_t now = sched_now_ns();
	uint64_t n;

	if (!tfd->armed || now < tfd->expires_ns)
		return false;
	n = 1;
	if (tfd->interval_ns) {
		n += (uint64_t)(now - tfd->expires_ns) / (uint64_t)tfd->interval_ns;
		if (n > (uint64_t)KTIME_MAX / (uint64_t)tfd->interval_ns)
			tfd->expires_ns = KTIME_MAX;
		else
			tfd->expires_ns = add_sat(tfd->expires_ns, (int64_t)n * tfd->interval_ns);
	} else {
		tfd->armed = false;
	}
	/* Whoever notices an expiry first (the ktimer, a read, a poll) wakes
	 * the queue, but only for the first since the last read. */
	if (!tfd->ticks)
		waitq_wake(&tfd->wq, LINUX_POLLIN);
	tfd->ticks += n;
	timerfd_rearm(tfd);
	return true;
}

/* The ktimer ran out (in the scheduler). */
static void timerfd_fire(void *arg)
{
	struct timerfd *tfd = arg;

	timerfd_update(tfd);
}

static void timerfd_get(struct timerfd *tfd, struct linux_itimerspec *cur)
{
	int64_t left = 0;

	timerfd_update(tfd);
	if (tfd->armed) {
		left = tfd->expires_ns - sched_now_ns();
		if (left < 0)
			left = 0;
	}
	cur->it_value = ns_to_ts(left);
	cur->it_interval = ns_to_ts(tfd->interval_ns);
}

/* Arms (or disarms, with a zero it_value) and forgets pending ticks. */
static void timerfd_set(struct task *t, struct timerfd *tfd, int flags,
			const struct linux_itimerspec *nv)
{
	int64_t now = sched_now_ns(), value = ts_to_ns(&nv->it_value);

	ktimer_cancel(&tfd->tm);
	tfd->ticks = 0;
	tfd->armed = false;
	tfd->interval_ns = ts_to_ns(&nv->it_interval);
	if (value == 0)
		return;
	if (flags & LINUX_TFD_TIMER_ABSTIME) {
		/* the deadline on the host's clock (Linux's
		 * timens_ktime_to_host) */
		int64_t clk = host_clock_ns(base_clock(tfd->clockid));

		value = timens_to_host(t, tfd->clockid, value);
		/* A deadline in the past stays there: a periodic timer counts
		 * the intervals since, as Linux's hrtimer_forward. */
		tfd->expires_ns = add_sat(now, value - clk);
	} else {
		tfd->expires_ns = add_sat(now, value);
	}
	tfd->armed = true;
	if (!timerfd_update(tfd)) /* which re-arms when it counts ticks */
		timerfd_rearm(tfd);
}

static long timerfd_read(struct file *f, void *buf, size_t n)
{
	struct timerfd *tfd = f->priv;
	uint64_t ticks;

	if (n < sizeof(ticks))
		return -EINVAL;
	for (;;) {
		timerfd_update(tfd);
		if (tfd->ticks)
			break;
		if (f->flags & LINUX_O_NONBLOCK)
			return -EAGAIN;
		if (signal_pending(current))
			return -ERESTARTSYS;
		waitq_sleep(&tfd->wq);
	}
	ticks = tfd->ticks;
	tfd->ticks = 0;
	timerfd_rearm(tfd);
	memcpy(buf, &ticks, sizeof(ticks));
	return sizeof(ticks);
}

/* Linux's timerfd_read takes the ticks, then copy_to_iter's count of
 * them is the result (EFAULT if 0). */
static long timerfd_read_fault(struct file *f, void *buf, size_t n, size_t ok, size_t *arrived)
{
	return file_read_fault_records(f, buf, n, ok, arrived, sizeof(uint64_t), true);
}

static unsigned timerfd_poll(struct file *f, struct poll_table *pt)
{
	struct timerfd *tfd = f->priv;

	timerfd_update(tfd);
	poll_wait(pt, &tfd->wq);
	return tfd->ticks ? LINUX_POLLIN : 0;
}

static void timerfd_release(struct file *f)
{
	struct timerfd *tfd = f->priv;

	ktimer_cancel(&tfd->tm);
	free(tfd);
}

static const struct file_ops timerfd_ops = {
	.anon_name = "[timerfd]",
	.read = timerfd_read,
	.read_fault = timerfd_read_fault,
	.llseek = anon_inode_llseek,
	.stat = anon_inode_stat,
	.poll = timerfd_poll,
	.release = timerfd_release,
	.nowait = FILE_NOWAIT_READ,
};

long sys_timerfd_create(struct task *t, const struct sysargs *a)
{
	int clockid = sysarg_int(a, 0), flags = sysarg_int(a, 1), fd;
	struct timerfd *tfd;
	struct file *f;

	if (flags & ~(LINUX_TFD_NONBLOCK | LINUX_TFD_CLOEXEC))
		return -EINVAL;
	switch (clockid) {
	case LINUX_CLOCK_REALTIME:
	case LINUX_CLOCK_MONOTONIC:
	case LINUX_CLOCK_BOOTTIME:
		break;
	case LINUX_CLOCK_REALTIME_ALARM:
	case LINUX_CLOCK_BOOTTIME_ALARM:
		if (!capable(&t->proc->cred, CAP_WAKE_ALARM))
			return -EPERM;
		break;
	default:
		return -EINVAL;
	}
	tfd = calloc(1, sizeof(*tfd));
	if (!tfd)
		return -ENOMEM;
	f = file_alloc(&timerfd_ops, LINUX_O_RDWR | (flags & LINUX_TFD_NONBLOCK), -1, NULL);
	if (!f) {
		free(tfd);
		return file_alloc_error();
	}
	tfd->clockid = clockid;
	waitq_init(&tfd->wq);
	f->priv = tfd;
	fd = fd_install(t->files, f, 0, flags & LINUX_TFD_CLOEXEC,
			(int)t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur);
	if (fd < 0)
		file_put(f);
	return fd;
}

/* The timerfd behind fd with a reference, or NULL and *err. */
static struct file *timerfd_fdget(struct task *t, int fd, long *err)
{
	struct file *f = fdget_nopath(t->files, fd); /* O_PATH: EBADF, as Linux */

	*err = -EBADF;
	if (f && f->ops != &timerfd_ops) {
		file_put(f);
		*err = -EINVAL;
		return NULL;
	}
	return f;
}

long sys_timerfd_settime(struct task *t, const struct sysargs *a)
{
	int flags = sysarg_int(a, 1);
	uaddr_t uold = sysarg_uaddr(a, 3);
	struct linux_itimerspec nv, old;
	struct file *f;
	long ret;

	if (copy_from_user(t->mm, &nv, sysarg_uaddr(a, 2), sizeof(nv)) < 0)
		return -EFAULT;
	if ((flags & ~(LINUX_TFD_TIMER_ABSTIME | LINUX_TFD_TIMER_CANCEL_ON_SET)) ||
	    !ts_valid(&nv.it_value) || !ts_valid(&nv.it_interval))
		return -EINVAL;
	f = timerfd_fdget(t, sysarg_int(a, 0), &ret);
	if (!f)
		return ret;
	timerfd_get(f->priv, &old);
	timerfd_set(t, f->priv, flags, &nv);
	file_put(f);
	if (uold && copy_to_user(t->mm, uold, &old, sizeof(old)) < 0)
		return -EFAULT;
	return 0;
}

long sys_timerfd_gettime(struct task *t, const struct sysargs *a)
{
	struct linux_itimerspec cur;
	struct file *f;
	long ret;

	f = timerfd_fdget(t, sysarg_int(a, 0), &ret);
	if (!f)
		return ret;
	timerfd_get(f->priv, &cur);
	file_put(f);
	return copy_to_user(t->mm, sysarg_uaddr(a, 1), &cur, sizeof(cur));
}
