/* vfs/poll.c: poll, ppoll, select, pselect6. Each pass asks every file for
 * its readiness; if none is ready the task sleeps on all their wait queues
 * at once, until a wakeup, a signal or the timeout. select, pselect6 and
 * ppoll write the time left back to the guest's timeout, as Linux. */
#include <stdlib.h>
#include <string.h>

#include "vfs/poll.h"
#include "vfs/file.h"
#include "kernel/task.h"
#include "syscalls/dispatch.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/poll.h"
#include "abi/linux/types.h"

#define POLL_MAX_FDS 65536

static struct poll_entry *new_entry(struct poll_table *pt)
{
	if (pt->n == pt->max) {
		int max = pt->max ? pt->max * 2 : 16;
		struct poll_entry *e = realloc(pt->e, max * sizeof(*e));

		if (!e) {
			pt->failed = true;
			return NULL;
		}
		pt->e = e;
		pt->max = max;
	}
	return &pt->e[pt->n++];
}

void poll_wait(struct poll_table *pt, struct waitq *wq)
{
	struct poll_entry *e;

	if (pt && pt->qproc) {
		pt->qproc(pt, wq);
		return;
	}
	if (!pt || !(e = new_entry(pt)))
		return;
	e->w.task = pt->task;
	e->w.func = NULL;
	e->w.exclusive = false;
	list_add_tail(&e->w.link, &wq->waiters);
}

void poll_table_free(struct poll_table *pt)
{
	int i;

	for (i = 0; i < pt->n; i++)
		list_del(&pt->e[i].w.link);
	free(pt->e);
	memset(pt, 0, sizeof(*pt));
}

/* The files a sleeping poll is queued on stay alive until it wakes. */
struct held_files {
	struct file **f;
	unsigned n;
};

static void release_files(struct held_files *h)
{
	unsigned i;

	for (i = 0; i < h->n; i++)
		file_put(h->f[i]);
	h->n = 0;
}

struct poll_sleep {
	bool expired;
	struct task *task;
};

static void poll_sleep_timeout(void *arg)
{
	struct poll_sleep *ps = arg;

	ps->expired = true;
	sched_wake(ps->task);
}

/* Checks fds; returns how many are ready, or sleeps and checks again. */
static long do_poll(struct task *t, struct linux_pollfd *fds, unsigned n, int64_t deadline_ns)
{
	struct poll_sleep ps = { .expired = false, .task = t };
	struct ktimer tm = { .armed = false };
	struct held_files held = { calloc(n ? n : 1, sizeof(struct file *)), 0 };
	struct poll_table pt;
	long ready;
	unsigned i;

	if (!held.f)
		return -ENOMEM;
	for (;;) {
		memset(&pt, 0, sizeof(pt));
		pt.task = t;
		ready = 0;
		for (i = 0; i < n; i++) {
			unsigned mask = LINUX_POLLERR | LINUX_POLLHUP | (uint16_t)fds[i].events;
			struct file *f;

			fds[i].revents = 0;
			if (fds[i].fd < 0)
				continue;
			f = fdget(t->files, fds[i].fd);
			if (!f) {
				fds[i].revents = LINUX_POLLNVAL;
				ready++;
				continue;
			}
			fds[i].revents = (int16_t)(file_op_poll(f, ready ? NULL : &pt) & mask);
			held.f[held.n++] = f;
			if (fds[i].revents)
				ready++;
		}
		if (ready || deadline_ns == 0 || ps.expired || signal_pending(t)) {
			poll_table_free(&pt);
			release_files(&held);
			free(held.f);
			ktimer_cancel(&tm);
			return ready || deadline_ns == 0 || ps.expired ? ready : -ERESTARTNOHAND;
		}
		if (deadline_ns > 0 && !tm.armed)
			ktimer_arm(&tm, deadline_ns, poll_sleep_timeout, &ps);
		t->state = TASK_SLEEPING;
		schedule();
		poll_table_free(&pt);
		release_files(&held);
	}
}

/* A wait's timeout as the guest gave it (select's normalized) and when the
 * wait began, for the time left that select, pselect6 and ppoll write back. */
struct poll_timeout {
	struct linux_timespec ts;
	int64_t start_ns;
};

/* The deadline of a valid timeout: 0 for a zero one; a billion seconds is
 * forever (no overflow). */
static int64_t timeout_deadline(struct poll_timeout *to)
{
	to->start_ns = sched_now_ns();
	if (to->ts.tv_sec == 0 && to->ts.tv_nsec == 0)
		return 0;
	return to->start_ns +
	       (to->ts.tv_sec > 1000000000LL ? 1000000000LL * 1000000000LL
					     : to->ts.tv_sec * 1000000000LL) +
	       to->ts.tv_nsec;
}

static int get_timeout(struct task *t, uaddr_t uts, struct poll_timeout *to, int64_t *deadline)
{
	*deadline = -1;
	if (!uts)
		return 0;
	if (copy_from_user(t->mm, &to->ts, uts, sizeof(to->ts)) < 0)
		return -EFAULT;
	if (to->ts.tv_sec < 0 || to->ts.tv_nsec < 0 || to->ts.tv_nsec >= 1000000000)
		return -EINVAL;
	*deadline = timeout_deadline(to);
	return 0;
}

/* Linux's poll_select_finish: the time left goes back to the guest's
 * timeout (not for a zero one); if that faults, a restart would wait all
 * over again, so the call is interrupted instead. */
static long put_time_left(struct task *t, uaddr_t uts, const struct poll_timeout *to, bool timeval,
			  long ret)
{
	int64_t elapsed = sched_now_ns() - to->start_ns;
	struct linux_timespec left;
	int err;

	if (!uts || (to->ts.tv_sec == 0 && to->ts.tv_nsec == 0))
		return ret;
	left.tv_sec = to->ts.tv_sec - elapsed / 1000000000LL;
	left.tv_nsec = to->ts.tv_nsec - elapsed % 1000000000LL;
	if (left.tv_nsec < 0) {
		left.tv_nsec += 1000000000LL;
		left.tv_sec--;
	}
	if (left.tv_sec < 0)
		left.tv_sec = left.tv_nsec = 0;
	if (timeval) {
		struct linux_timeval tv = { left.tv_sec, left.tv_nsec / 1000 };

		err = copy_to_user(t->mm, uts, &tv, sizeof(tv));
	} else {
		err = copy_to_user(t->mm, uts, &left, sizeof(left));
	}
	return err < 0 && ret == -ERESTARTNOHAND ? -EINTR : ret;
}

static long poll_common(struct task *t, uaddr_t ufds, unsigned n, int64_t deadline)
{
	struct linux_pollfd *fds;
	long ret;

	if (n > t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur || n > POLL_MAX_FDS)
		return -EINVAL;
	fds = calloc(n ? n : 1, sizeof(*fds));
	if (!fds)
		return -ENOMEM;
	if (copy_from_user(t->mm, fds, ufds, n * sizeof(*fds)) < 0) {
		free(fds);
		return -EFAULT;
	}
	ret = do_poll(t, fds, n, deadline);
	if (ret >= 0) {
		unsigned i;

		/* Only revents goes back, as in Linux. */
		for (i = 0; i < n; i++)
			if (copy_to_user(t->mm, ufds + i * sizeof(*fds) + 6, &fds[i].revents, 2) <
			    0)
				ret = -EFAULT;
	}
	free(fds);
	return ret;
}

/* poll interrupted with no handler run: restart_syscall goes on with the
 * same fds to the same end (Linux's do_restart_poll). */
static long poll_restart(struct task *t);

static long poll_until(struct task *t, uaddr_t ufds, unsigned nfds, int64_t deadline)
{
	long ret = poll_common(t, ufds, nfds, deadline);

	if (ret != -ERESTARTNOHAND)
		return ret;
	t->restart_fn = poll_restart;
	t->restart_urem = ufds;
	t->restart_args[0] = nfds;
	t->restart_deadline = deadline;
	return -ERESTART_RESTARTBLOCK;
}

static long poll_restart(struct task *t)
{
	return poll_until(t, t->restart_urem, (unsigned)t->restart_args[0], t->restart_deadline);
}

long sys_poll(struct task *t, const struct sysargs *a)
{
	int timeout_ms = sysarg_int(a, 2);
	int64_t deadline = timeout_ms < 0    ? -1
			   : timeout_ms == 0 ? 0
					     : sched_now_ns() + (int64_t)timeout_ms * 1000000;

	return poll_until(t, sysarg_uaddr(a, 0), sysarg_uint(a, 1), deadline);
}

int set_wait_mask(struct task *t, uint64_t umask, uint64_t size)
{
	uint64_t mask;

	if (!umask)
		return 0;
	if (size != sizeof(uint64_t))
		return -EINVAL;
	if (copy_from_user(t->mm, &mask, umask, sizeof(mask)) < 0)
		return -EFAULT;
	t->saved_sigmask = t->sigmask;
	t->restore_sigmask = true;
	t->sigmask = mask & ~((1ULL << 8) | (1ULL << 18));
	return 0;
}

int set_wait_mask_indirect(struct task *t, uint64_t usig)
{
	struct {
		uint64_t ss;
		uint64_t ss_len;
	} sig = { 0, 0 };

	if (usig && copy_from_user(t->mm, &sig, usig, sizeof(sig)) < 0)
		return -EFAULT;
	return set_wait_mask(t, sig.ss, sig.ss_len);
}

void end_wait_mask(struct task *t, long ret)
{
	/* With a signal to deliver, handle_signals restores the mask after
	 * the frame is built; otherwise now. */
	if (t->restore_sigmask && ret != -ERESTARTNOHAND) {
		t->restore_sigmask = false;
		t->sigmask = t->saved_sigmask;
	}
}

long sys_ppoll(struct task *t, const struct sysargs *a)
{
	struct poll_timeout to;
	int64_t deadline;
	long ret = get_timeout(t, sysarg_uaddr(a, 2), &to, &deadline);

	if (ret < 0)
		return ret;
	ret = set_wait_mask(t, sysarg_uaddr(a, 3), sysarg_size(a, 4));
	if (ret < 0)
		return ret;
	ret = poll_common(t, sysarg_uaddr(a, 0), sysarg_uint(a, 1), deadline);
	end_wait_mask(t, ret);
	return put_time_left(t, sysarg_uaddr(a, 2), &to, false, ret);
}

/* select: fd_sets in, converted to a poll of the same fds, and back. */
static long do_select(struct task *t, int nfds, uaddr_t uin, uaddr_t uout, uaddr_t uex,
		      int64_t deadline)
{
	uint64_t in[16] = { 0 }, out[16] = { 0 }, ex[16] = { 0 };
	uint64_t rin[16] = { 0 }, rout[16] = { 0 }, rex[16] = { 0 };
	size_t bytes;
	struct linux_pollfd *fds;
	int i, n = 0;
	long ret;

	if (nfds < 0)
		return -EINVAL;
	if (nfds > LINUX_FD_SETSIZE)
		nfds = LINUX_FD_SETSIZE;
	bytes = ((size_t)nfds + 63) / 64 * 8;
	if ((uin && copy_from_user(t->mm, in, uin, bytes) < 0) ||
	    (uout && copy_from_user(t->mm, out, uout, bytes) < 0) ||
	    (uex && copy_from_user(t->mm, ex, uex, bytes) < 0))
		return -EFAULT;
	fds = calloc(nfds ? nfds : 1, sizeof(*fds));
	if (!fds)
		return -ENOMEM;
	for (i = 0; i < nfds; i++) {
		uint64_t bit = 1ULL << (i % 64);
		int16_t ev = 0;

		if (in[i / 64] & bit)
			ev |= LINUX_POLLIN | LINUX_POLLRDNORM | LINUX_POLLHUP | LINUX_POLLERR;
		if (out[i / 64] & bit)
			ev |= LINUX_POLLOUT | LINUX_POLLWRNORM | LINUX_POLLERR;
		if (ex[i / 64] & bit)
			ev |= LINUX_POLLPRI;
		if (!ev)
			continue;
		fds[n].fd = i;
		fds[n].events = ev;
		n++;
	}
	/* A bad fd in a set is EBADF for select. */
	for (i = 0; i < n; i++) {
		struct file *f = fdget(t->files, fds[i].fd);

		if (!f) {
			free(fds);
			return -EBADF;
		}
		file_put(f);
	}
	ret = do_poll(t, fds, n, deadline);
	if (ret >= 0) {
		ret = 0;
		for (i = 0; i < n; i++) {
			int fd = fds[i].fd;
			uint64_t bit = 1ULL << (fd % 64);
			int16_t r = fds[i].revents;

			if ((in[fd / 64] & bit) && (r & (LINUX_POLLIN | LINUX_POLLRDNORM |
							 LINUX_POLLHUP | LINUX_POLLERR))) {
				rin[fd / 64] |= bit;
				ret++;
			}
			if ((out[fd / 64] & bit) &&
			    (r & (LINUX_POLLOUT | LINUX_POLLWRNORM | LINUX_POLLERR))) {
				rout[fd / 64] |= bit;
				ret++;
			}
			if ((ex[fd / 64] & bit) && (r & LINUX_POLLPRI)) {
				rex[fd / 64] |= bit;
				ret++;
			}
		}
		if ((uin && copy_to_user(t->mm, uin, rin, bytes) < 0) ||
		    (uout && copy_to_user(t->mm, uout, rout, bytes) < 0) ||
		    (uex && copy_to_user(t->mm, uex, rex, bytes) < 0))
			ret = -EFAULT;
	}
	free(fds);
	return ret;
}

long sys_select(struct task *t, const struct sysargs *a)
{
	uaddr_t utv = sysarg_uaddr(a, 4);
	struct poll_timeout to;
	int64_t deadline = -1;
	long ret;

	if (utv) {
		struct linux_timeval tv;

		if (copy_from_user(t->mm, &tv, utv, sizeof(tv)) < 0)
			return -EFAULT;
		/* As Linux: microseconds past a second are seconds, and a sum
		 * that overflows is negative. */
		if (tv.tv_sec < 0 || tv.tv_usec < 0 || tv.tv_sec > INT64_MAX - tv.tv_usec / 1000000)
			return -EINVAL;
		to.ts.tv_sec = tv.tv_sec + tv.tv_usec / 1000000;
		to.ts.tv_nsec = tv.tv_usec % 1000000 * 1000;
		deadline = timeout_deadline(&to);
	}
	ret = do_select(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_uaddr(a, 2),
			sysarg_uaddr(a, 3), deadline);
	return put_time_left(t, utv, &to, true, ret);
}

long sys_pselect6(struct task *t, const struct sysargs *a)
{
	struct poll_timeout to;
	int64_t deadline;
	long ret = get_timeout(t, sysarg_uaddr(a, 4), &to, &deadline);

	if (ret < 0)
		return ret;
	ret = set_wait_mask_indirect(t, sysarg_uaddr(a, 5));
	if (ret < 0)
		return ret;
	ret = do_select(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_uaddr(a, 2),
			sysarg_uaddr(a, 3), deadline);
	end_wait_mask(t, ret);
	return put_time_left(t, sysarg_uaddr(a, 4), &to, false, ret);
}
