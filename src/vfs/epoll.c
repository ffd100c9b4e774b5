/* vfs/epoll.c: epoll_create, epoll_ctl, epoll_wait and friends. An epoll
 * file keeps one item per (file, fd) registered; each item owns a reference
 * to its file. epoll_wait asks every item's file for its readiness, as
 * poll(2) does (vfs/poll.c), and if none is ready sleeps on all their wait
 * queues at once. An epoll inside another is polled through to its items.
 *
 * Differs from Linux (no wakeup callbacks on wait queues yet):
 * - EPOLLET reports an item when one of its ready bits was not ready the
 *   last time this epoll looked (at ADD/MOD nothing counts as seen), and
 *   again if it is still ready ET_RECHECK_NS after the last report, so that
 *   a refill that epoll never saw empty cannot hang the program. Linux
 *   instead reports again on every wakeup of the file's wait queue.
 * - An item whose file is closed everywhere (only epoll items still hold
 *   it) is dropped at the next epoll_wait or poll of that epoll, not at
 *   the close; until then the file stays open (a pipe's other end sees no
 *   EOF or EPIPE yet).
 * - Regular files, directories, block devices and the mem devices (null,
 *   zero, full, urandom...) are refused with EPERM by their stat, as Linux
 *   refuses files without a poll op. EPOLLEXCLUSIVE and EPOLLWAKEUP are
 *   accepted and change nothing. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "vfs/eventfd.h"
#include "ipc/ipc.h"
#include "vfs/file.h"
#include "vfs/poll.h"
#include "kernel/task.h"
#include "syscalls/dispatch.h"
#include "mm/usercopy.h"
#include "host/host.h"
#include "abi/linux/epoll.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/poll.h"
#include "abi/linux/stat.h"
#include "abi/linux/types.h"

#define EP_EVENT_SIZE sizeof(struct linux_epoll_event)
#define EP_MAX_EVENTS ((int)(INT_MAX / EP_EVENT_SIZE))
#define EP_MAX_NESTS  4
#define EP_PRIVATE_BITS \
	(LINUX_EPOLLWAKEUP | LINUX_EPOLLONESHOT | LINUX_EPOLLET | LINUX_EPOLLEXCLUSIVE)
#define EP_EXCLUSIVE_OK                                                                         \
	(LINUX_EPOLLIN | LINUX_EPOLLOUT | LINUX_EPOLLERR | LINUX_EPOLLHUP | LINUX_EPOLLWAKEUP | \
	 LINUX_EPOLLET | LINUX_EPOLLEXCLUSIVE)
#define ET_RECHECK_NS  (50 * 1000000LL)
#define NSEC_PER_SEC   1000000000LL
#define FILE_HASH_BITS 10
#define MEM_MAJOR      1
#define RANDOM_MINOR   8 /* /dev/random polls; its siblings do not */

struct eventpoll {
	struct list_head items; /* struct epitem, by link; reported ones go to the tail */
	int nitems;
	struct waitq wq;   /* epoll_wait sleepers and pollers: woken by epoll_ctl */
	struct file *file; /* the epoll's own file (not a reference) */
};

struct epitem {
	struct list_head link;	/* in ep->items */
	struct list_head hlink; /* in file_hash, by file */
	struct eventpoll *ep;
	struct file *file; /* owns a reference */
	int fd;
	uint32_t events; /* as asked, plus ERR and HUP; ONESHOT clears the poll bits */
	uint64_t data;
	unsigned et_seen;   /* EPOLLET: the ready bits when this epoll last looked */
	int64_t et_recheck; /* EPOLLET: report again if still ready then (ns) */
};

/* Every item of every epoll, by file: how many items hold a file, and
 * which epolls contain an epoll (for the loop check). */
static struct list_head file_hash[1 << FILE_HASH_BITS];
static bool file_hash_ready;

/* One pass over an epoll's items. */
struct ep_scan {
	struct poll_table *pt; /* NULL: look only, do not register to sleep */
	struct file **pins;    /* files polled with pt, kept open until it is freed */
	int npins, maxpins;
	bool no_pins;	 /* called as a poll op: the caller holds nothing */
	bool incomplete; /* a file could not be registered: poll again soon */
	int64_t now;
	int64_t recheck; /* earliest et_recheck of a suppressed item, or 0 */
};

static const struct file_ops epoll_ops;

static struct list_head *file_bucket(struct file *f)
{
	return &file_hash[((uint64_t)(uintptr_t)f * 0x9E3779B97F4A7C15ULL) >>
			  (64 - FILE_HASH_BITS)];
}

static bool is_epoll(const struct file *f)
{
	return f->ops == &epoll_ops;
}

/* How many epoll items hold f. */
static int epoll_refs(struct file *f)
{
	struct epitem *epi;
	int n = 0;

	list_for_each_entry(epi, file_bucket(f), hlink)
	{
		if (epi->file == f)
			n++;
	}
	return n;
}

static void ep_remove(struct epitem *epi)
{
	list_del(&epi->link);
	list_del(&epi->hlink);
	epi->ep->nitems--;
	file_put(epi->file);
	free(epi);
}

/* Drops epi if nothing but epoll items holds its file any more. */
static bool ep_collect(struct epitem *epi)
{
	if (epi->file->refcount > epoll_refs(epi->file))
		return false;
	ep_remove(epi);
	return true;
}

static bool ep_pin(struct ep_scan *sc, struct file *f)
{
	if (sc->npins == sc->maxpins) {
		int max = sc->maxpins ? sc->maxpins * 2 : 16;
		struct file **p = realloc(sc->pins, max * sizeof(*p));

		if (!p)
			return false;
		sc->pins = p;
		sc->maxpins = max;
	}
	file_get(f);
	sc->pins[sc->npins++] = f;
	return true;
}

/* Leaves every wait queue of pt, then lets the pinned files go. */
static void ep_unregister(struct poll_table *pt, struct ep_scan *sc)
{
	int i;

	for (i = 0; i < pt->n; i++) {
		if (pt->e[i].host_fd >= 0)
			host_evloop_del(pt->e[i].host_fd);
		else
			list_del(&pt->e[i].w.link);
	}
	free(pt->e);
	pt->e = NULL;
	pt->n = pt->max = 0;
	for (i = 0; i < sc->npins; i++)
		file_put(sc->pins[i]);
	sc->npins = 0;
}

static bool ep_ready(struct eventpoll *ep, struct ep_scan *sc, int depth);

/* The item's ready bits among those it asks for. */
static unsigned ep_item_poll(struct epitem *epi, struct ep_scan *sc, int depth)
{
	struct file *f = epi->file;
	struct poll_table *pt = sc->pt;
	unsigned mask;

	if (pt && !sc->no_pins && !ep_pin(sc, f)) {
		sc->pt = NULL;
		sc->incomplete = true;
	}
	if (is_epoll(f))
		mask = ep_ready(f->priv, sc, depth + 1) ? LINUX_POLLIN | LINUX_POLLRDNORM : 0;
	else if (f->ops->poll)
		mask = f->ops->poll(f, sc->pt);
	else
		mask = LINUX_POLLIN | LINUX_POLLOUT | LINUX_POLLRDNORM | LINUX_POLLWRNORM;
	sc->pt = pt;
	return mask & epi->events;
}

/* EPOLLET: were these ready bits reported already? Notes when to look
 * again. */
static bool et_suppressed(struct epitem *epi, unsigned ready, struct ep_scan *sc)
{
	if (!(epi->events & LINUX_EPOLLET) || (ready & ~epi->et_seen) || sc->now >= epi->et_recheck)
		return false;
	if (!sc->recheck || epi->et_recheck < sc->recheck)
		sc->recheck = epi->et_recheck;
	return true;
}

/* Would epoll_wait on ep report something now? Consumes nothing. */
static bool ep_ready(struct eventpoll *ep, struct ep_scan *sc, int depth)
{
	struct epitem *epi, *tmp;

	poll_wait(sc->pt, &ep->wq);
	if (depth > EP_MAX_NESTS)
		return false;
	list_for_each_entry_safe(epi, tmp, &ep->items, link)
	{
		unsigned ready;

		if (ep_collect(epi))
			continue;
		ready = ep_item_poll(epi, sc, depth);
		if (!ready)
			epi->et_seen = 0;
		else if (!et_suppressed(epi, ready, sc))
			return true;
	}
	return false;
}

/* Reports up to max ready items into out; ONESHOT items are disabled and
 * EPOLLET ones marked as seen. Reported items move to the tail, so that a
 * small max goes round all of them, as in Linux. */
static int ep_send(struct eventpoll *ep, struct ep_scan *sc, struct linux_epoll_event *out, int max)
{
	LIST_HEAD_DECL(done);
	struct epitem *epi, *tmp;
	int n = 0;

	poll_wait(sc->pt, &ep->wq);
	list_for_each_entry_safe(epi, tmp, &ep->items, link)
	{
		unsigned ready;

		if (ep_collect(epi))
			continue;
		ready = ep_item_poll(epi, sc, 0);
		if (!ready) {
			epi->et_seen = 0;
			continue;
		}
		if (et_suppressed(epi, ready, sc))
			continue;
		epi->et_seen = ready;
		epi->et_recheck = sc->now + ET_RECHECK_NS;
		if (epi->events & LINUX_EPOLLONESHOT)
			epi->events &= EP_PRIVATE_BITS;
		out[n].events = ready;
		out[n].data = epi->data;
		list_del(&epi->link);
		list_add_tail(&epi->link, &done);
		sc->pt = NULL; /* no sleep now */
		if (++n == max)
			break;
	}
	while (!list_empty(&done)) {
		epi = list_first_entry(&done, struct epitem, link);
		list_del(&epi->link);
		list_add_tail(&epi->link, &ep->items);
	}
	return n;
}

struct ep_sleep {
	bool expired;
	struct task *task;
};

static void ep_timeout(void *arg)
{
	struct ep_sleep *s = arg;

	s->expired = true;
	sched_wake(s->task);
}

static void ep_recheck(void *arg)
{
	sched_wake(arg);
}

/* Reports ready items into out (room for max), sleeping until there are
 * some, the deadline (monotonic ns; -1 never, 0 do not wait) or a signal
 * (-EINTR, as Linux, never a restart). */
static long ep_wait(struct task *t, struct eventpoll *ep, struct linux_epoll_event *out, int max,
		    int64_t deadline)
{
	struct ep_sleep s = { .expired = false, .task = t };
	struct ktimer tm = { .armed = false }, recheck = { .armed = false };
	struct poll_table pt;
	struct ep_scan sc;
	long n;

	memset(&sc, 0, sizeof(sc));
	for (;;) {
		memset(&pt, 0, sizeof(pt));
		pt.task = t;
		sc.pt = deadline == 0 || s.expired ? NULL : &pt;
		sc.incomplete = false;
		sc.now = sched_now_ns();
		sc.recheck = 0;
		n = ep_send(ep, &sc, out, max);
		if (n || deadline == 0 || s.expired)
			break;
		if (signal_pending(t)) {
			n = -EINTR;
			break;
		}
		if (deadline > 0 && !tm.armed)
			ktimer_arm(&tm, deadline, ep_timeout, &s);
		if (sc.incomplete)
			ktimer_arm(&recheck, sc.now + ET_RECHECK_NS / 10, ep_recheck, t);
		else if (sc.recheck)
			ktimer_arm(&recheck, sc.recheck, ep_recheck, t);
		t->state = TASK_SLEEPING;
		schedule();
		ktimer_cancel(&recheck);
		ep_unregister(&pt, &sc);
	}
	ep_unregister(&pt, &sc);
	ktimer_cancel(&tm);
	ktimer_cancel(&recheck);
	free(sc.pins);
	return n;
}

/* poll of an epoll fd (poll, select, or an epoll that is not ours): POLLIN
 * when epoll_wait would report something. */
static unsigned epoll_poll(struct file *f, struct poll_table *pt)
{
	struct ep_scan sc;

	memset(&sc, 0, sizeof(sc));
	sc.pt = pt;
	sc.no_pins = true;
	sc.now = sched_now_ns();
	return ep_ready(f->priv, &sc, 0) ? LINUX_POLLIN | LINUX_POLLRDNORM : 0;
}

static void epoll_release(struct file *f)
{
	struct eventpoll *ep = f->priv;

	while (!list_empty(&ep->items))
		ep_remove(list_first_entry(&ep->items, struct epitem, link));
	free(ep);
}

static const struct file_ops epoll_ops = {
	.llseek = anon_inode_llseek,
	.stat = anon_inode_stat,
	.poll = epoll_poll,
	.release = epoll_release,
};

static long do_epoll_create(struct task *t, int flags)
{
	struct eventpoll *ep;
	struct file *f;
	int fd, i;

	if (flags & ~LINUX_EPOLL_CLOEXEC)
		return -EINVAL;
	if (!file_hash_ready) {
		for (i = 0; i < (1 << FILE_HASH_BITS); i++)
			list_init(&file_hash[i]);
		file_hash_ready = true;
	}
	ep = calloc(1, sizeof(*ep));
	if (!ep)
		return -ENOMEM;
	f = file_alloc(&epoll_ops, LINUX_O_RDWR, -1, NULL);
	if (!f) {
		free(ep);
		return file_alloc_error();
	}
	list_init(&ep->items);
	waitq_init(&ep->wq);
	ep->file = f;
	f->priv = ep;
	fd = fd_install(t->files, f, 0, flags & LINUX_EPOLL_CLOEXEC,
			(int)t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur);
	if (fd < 0)
		file_put(f);
	return fd;
}

long sys_epoll_create(struct task *t, const struct sysargs *a)
{
	if (sysarg_int(a, 0) <= 0)
		return -EINVAL;
	return do_epoll_create(t, 0);
}

long sys_epoll_create1(struct task *t, const struct sysargs *a)
{
	return do_epoll_create(t, sysarg_int(a, 0));
}

/* Linux refuses files without a poll op; here those are told by type. */
static int ep_check_target(struct file *tf)
{
	struct linux_stat st;

	if (!tf->ops->poll)
		return -EPERM;
	if (mq_is_queue(tf))
		return 0; /* a regular file with a real poll, as in Linux */
	if (!tf->ops->stat || tf->ops->stat(tf, &st) < 0)
		return 0;
	switch (st.st_mode & LINUX_S_IFMT) {
	case LINUX_S_IFREG:
	case LINUX_S_IFDIR:
	case LINUX_S_IFBLK:
		return -EPERM;
	case LINUX_S_IFCHR:
		if (((st.st_rdev >> 8) & 0xfff) == MEM_MAJOR && (st.st_rdev & 0xff) != RANDOM_MINOR)
			return -EPERM;
		return 0;
	default:
		return 0;
	}
}

/* How deep ep sits inside other epolls. */
static int ep_depth_up(struct eventpoll *ep, int depth)
{
	struct epitem *epi;
	int max = depth;

	if (depth > EP_MAX_NESTS)
		return depth;
	list_for_each_entry(epi, file_bucket(ep->file), hlink)
	{
		if (epi->file == ep->file) {
			int d = ep_depth_up(epi->ep, depth + 1);

			if (d > max)
				max = d;
		}
	}
	return max;
}

/* How many levels of epolls `to` holds (0: none), or -1 if ep is among
 * them. */
static int ep_depth_down(struct eventpoll *to, struct eventpoll *ep, int depth)
{
	struct epitem *epi;
	int max = depth;

	if (depth > EP_MAX_NESTS)
		return depth;
	list_for_each_entry(epi, &to->items, link)
	{
		int d;

		if (!is_epoll(epi->file))
			continue;
		if (epi->file->priv == ep)
			return -1;
		d = ep_depth_down(epi->file->priv, ep, depth + 1);
		if (d < 0)
			return -1;
		if (d > max)
			max = d;
	}
	return max;
}

static struct epitem *ep_find(struct eventpoll *ep, struct file *f, int fd)
{
	struct epitem *epi;

	list_for_each_entry(epi, file_bucket(f), hlink)
	{
		if (epi->file == f && epi->fd == fd && epi->ep == ep)
			return epi;
	}
	return NULL;
}

static int ep_insert(struct eventpoll *ep, struct file *tf, int fd,
		     const struct linux_epoll_event *ev)
{
	struct epitem *epi = calloc(1, sizeof(*epi));

	if (!epi)
		return -ENOMEM;
	epi->ep = ep;
	epi->file = tf;
	file_get(tf);
	epi->fd = fd;
	epi->events = ev->events | LINUX_EPOLLERR | LINUX_EPOLLHUP;
	epi->data = ev->data;
	list_add_tail(&epi->link, &ep->items);
	list_add_tail(&epi->hlink, file_bucket(tf));
	ep->nitems++;
	waitq_wake_all(&ep->wq);
	return 0;
}

static int ep_modify(struct epitem *epi, const struct linux_epoll_event *ev)
{
	if (epi->events & LINUX_EPOLLEXCLUSIVE)
		return -EINVAL;
	epi->events = ev->events | LINUX_EPOLLERR | LINUX_EPOLLHUP;
	epi->data = ev->data;
	epi->et_seen = 0;
	waitq_wake_all(&epi->ep->wq);
	return 0;
}

static int ep_ctl(struct eventpoll *ep, int op, struct file *tf, int fd,
		  const struct linux_epoll_event *ev)
{
	struct epitem *epi;

	if (op != LINUX_EPOLL_CTL_DEL && (ev->events & LINUX_EPOLLEXCLUSIVE)) {
		if (op == LINUX_EPOLL_CTL_MOD)
			return -EINVAL;
		if (op == LINUX_EPOLL_CTL_ADD && (is_epoll(tf) || (ev->events & ~EP_EXCLUSIVE_OK)))
			return -EINVAL;
	}
	if (op == LINUX_EPOLL_CTL_ADD && is_epoll(tf)) {
		int down = ep_depth_down(tf->priv, ep, 0);

		if (down < 0 || down + 1 + ep_depth_up(ep, 0) > EP_MAX_NESTS)
			return -ELOOP;
	}
	epi = ep_find(ep, tf, fd);
	switch (op) {
	case LINUX_EPOLL_CTL_ADD:
		return epi ? -EEXIST : ep_insert(ep, tf, fd, ev);
	case LINUX_EPOLL_CTL_DEL:
		if (!epi)
			return -ENOENT;
		ep_remove(epi);
		return 0;
	case LINUX_EPOLL_CTL_MOD:
		return epi ? ep_modify(epi, ev) : -ENOENT;
	default:
		return -EINVAL;
	}
}

long sys_epoll_ctl(struct task *t, const struct sysargs *a)
{
	int op = sysarg_int(a, 1), fd = sysarg_int(a, 2);
	struct linux_epoll_event ev = { 0, 0 };
	struct file *f, *tf;
	long ret;

	if (op != LINUX_EPOLL_CTL_DEL &&
	    copy_from_user(t->mm, &ev, sysarg_uaddr(a, 3), sizeof(ev)) < 0)
		return -EFAULT;
	f = fdget(t->files, sysarg_int(a, 0));
	if (!f)
		return -EBADF;
	tf = fdget(t->files, fd);
	if (!tf || (f->flags & LINUX_O_PATH) || (tf->flags & LINUX_O_PATH))
		ret = -EBADF;
	else if ((ret = ep_check_target(tf)) < 0)
		;
	else if (f == tf || !is_epoll(f))
		ret = -EINVAL;
	else
		ret = ep_ctl(f->priv, op, tf, fd, &ev);
	file_put(tf);
	file_put(f);
	return ret;
}

/* epoll_wait, epoll_pwait, epoll_pwait2 after their own arguments. */
static long do_epoll_wait(struct task *t, int epfd, uaddr_t uevents, int maxevents,
			  int64_t deadline)
{
	struct linux_epoll_event *out;
	uint64_t size = (uint64_t)maxevents * EP_EVENT_SIZE;
	struct file *f;
	int nitems;
	long n;

	if (maxevents <= 0 || maxevents > EP_MAX_EVENTS)
		return -EINVAL;
	if (size > TASK_SIZE || uevents > TASK_SIZE - size)
		return -EFAULT;
	f = fdget(t->files, epfd);
	if (!f)
		return -EBADF;
	if (!is_epoll(f)) {
		file_put(f);
		return -EINVAL;
	}
	/* As many as the guest's buffer takes; with no room at all, the first
	 * event is EFAULT (as Linux: it faults on the first event it cannot
	 * store, and returns 0 if there is none). */
	size = user_prefix(t->mm, uevents, size, true) / EP_EVENT_SIZE;
	if ((uint64_t)maxevents > size)
		maxevents = size ? (int)size : 1;
	/* No more events than items (fewer than ready is fine: the rest come
	 * next time, if others add items while it sleeps). */
	nitems = ((struct eventpoll *)f->priv)->nitems;
	if (maxevents > nitems && maxevents > 16)
		maxevents = nitems > 16 ? nitems : 16;
	out = malloc((size_t)maxevents * EP_EVENT_SIZE);
	if (!out) {
		file_put(f);
		return -ENOMEM;
	}
	n = ep_wait(t, f->priv, out, maxevents, deadline);
	if (n > 0 && copy_to_user(t->mm, uevents, out, n * EP_EVENT_SIZE) < 0)
		n = -EFAULT;
	free(out);
	file_put(f);
	return n;
}

long sys_epoll_wait(struct task *t, const struct sysargs *a)
{
	int timeout_ms = sysarg_int(a, 3);
	int64_t deadline = timeout_ms < 0    ? -1
			   : timeout_ms == 0 ? 0
					     : sched_now_ns() + (int64_t)timeout_ms * 1000000;

	return do_epoll_wait(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_int(a, 2), deadline);
}

/* epoll_pwait and epoll_pwait2 install a signal mask for the wait, as
 * ppoll does; with -EINTR handle_signals puts the old one back after the
 * handler's frame is built. */
static long epoll_pwait_common(struct task *t, const struct sysargs *a, int64_t deadline)
{
	uaddr_t umask = sysarg_uaddr(a, 4);
	uint64_t mask;
	long ret;

	if (umask) {
		if (sysarg_size(a, 5) != sizeof(mask))
			return -EINVAL;
		if (copy_from_user(t->mm, &mask, umask, sizeof(mask)) < 0)
			return -EFAULT;
		t->saved_sigmask = t->sigmask;
		t->restore_sigmask = true;
		t->sigmask =
			mask & ~((1ULL << (LINUX_SIGKILL - 1)) | (1ULL << (LINUX_SIGSTOP - 1)));
	}
	ret = do_epoll_wait(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_int(a, 2), deadline);
	if (t->restore_sigmask && ret != -EINTR) {
		t->restore_sigmask = false;
		t->sigmask = t->saved_sigmask;
	}
	return ret;
}

long sys_epoll_pwait(struct task *t, const struct sysargs *a)
{
	int timeout_ms = sysarg_int(a, 3);
	int64_t deadline = timeout_ms < 0    ? -1
			   : timeout_ms == 0 ? 0
					     : sched_now_ns() + (int64_t)timeout_ms * 1000000;

	return epoll_pwait_common(t, a, deadline);
}

long sys_epoll_pwait2(struct task *t, const struct sysargs *a)
{
	uaddr_t uts = sysarg_uaddr(a, 3);
	struct linux_timespec ts;
	int64_t deadline = -1;

	if (uts) {
		if (copy_from_user(t->mm, &ts, uts, sizeof(ts)) < 0)
			return -EFAULT;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= NSEC_PER_SEC)
			return -EINVAL;
		if (ts.tv_sec == 0 && ts.tv_nsec == 0)
			deadline = 0;
		else if (ts.tv_sec > NSEC_PER_SEC)
			deadline = sched_now_ns() + NSEC_PER_SEC * NSEC_PER_SEC;
		else
			deadline = sched_now_ns() + ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
	}
	return epoll_pwait_common(t, a, deadline);
}
