/* vfs/epoll.c: epoll_create, epoll_ctl, epoll_wait and friends, as Linux's
 * eventpoll. An epoll file keeps one item per (file, fd) registered. At
 * EPOLL_CTL_ADD the item polls its file once with a callback table: each
 * wait queue the file's poll op names gets a callback entry (ep_entry) that
 * stays there until the item goes. A wakeup whose key meets the item's
 * events puts the item on the epoll's ready list; epoll_wait looks only at
 * that list, polls each item there again and reports what is ready. Level-
 * triggered items go back on the list after a report, EPOLLET ones wait for
 * the next wakeup, EPOLLONESHOT ones for EPOLL_CTL_MOD. An item holds no
 * reference to its file: the file's final release removes it from every
 * epoll (epoll_file_release, Linux's eventpoll_release).
 *
 * epoll_wait sleepers wait exclusively on ep->wq, so a wakeup wakes one
 * of them; poll, select and outer epolls wait on ep->poll_wq. An
 * EPOLLEXCLUSIVE item's entries are exclusive waiters of the file's
 * queues: a wakeup stops at the first such item whose epoll has an
 * epoll_wait sleeper it woke (ep_poll_callback's return), so of several
 * epolls waiting on one file with EPOLLEXCLUSIVE one wakes. Host-fd files
 * (hostfs streams: the host's stdio pipes) are no exception: the event
 * loop's edge watches wake their queues at each host event.
 *
 * Differs from Linux: regular files, directories, block devices and the
 * mem devices (null, zero, full, urandom...) are refused with EPERM by
 * their stat, as Linux refuses files without a poll op. EPOLLWAKEUP is
 * accepted and changes nothing. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "vfs/epoll.h"
#include "vfs/eventfd.h"
#include "ipc/ipc.h"
#include "vfs/file.h"
#include "vfs/poll.h"
#include "kernel/task.h"
#include "syscalls/dispatch.h"
#include "mm/commit.h"
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
#define NSEC_PER_SEC   1000000000LL
#define FILE_HASH_BITS 10
#define MEM_MAJOR      1
#define RANDOM_MINOR   8 /* /dev/random polls; its siblings do not */

struct eventpoll {
	struct list_head items;	  /* every struct epitem, by link */
	struct list_head rdllist; /* items a wakeup made ready, by rdllink */
	int nitems;
	struct waitq wq;      /* epoll_wait sleepers (exclusive, leave when woken) */
	struct waitq poll_wq; /* pollers and outer epolls' entries */
	struct file *file;    /* the epoll's own file (not a reference) */
	/* The loop check's memo: this epoll's depth, valid while gen is the
	 * check's (each epoll is walked once per check, not once per path:
	 * a wide lattice of epolls costs its edges, not its paths). */
	uint64_t gen;
	int gen_depth;
};

/* One wait queue an item listens on (Linux's eppoll_entry). */
struct ep_entry {
	struct waiter w;  /* in wq->waiters, func ep_poll_callback */
	struct waitq *wq; /* NULL once the queue went (WAKE_FREE) */
	struct epitem *epi;
	struct ep_entry *next;
};

struct epitem {
	struct list_head link;	  /* in ep->items */
	struct list_head hlink;	  /* in file_hash, by file */
	struct list_head rdllink; /* in ep->rdllist or a send's list; self-linked if none */
	struct eventpoll *ep;
	struct file *file; /* no reference: its release removes the item */
	int fd;
	uint32_t events; /* as asked, plus ERR and HUP; ONESHOT clears the poll bits */
	uint64_t data;
	struct ep_entry *entries; /* owned */
};

/* Every item of every epoll, by file: the items a file's release removes,
 * and which epolls contain an epoll (for the loop check). */
static struct list_head file_hash[1 << FILE_HASH_BITS];
static bool file_hash_ready;

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

/* What an item holds (its epitem and wait entries; Linux's are charged
 * to the memcg): counted against --memory, as items are one per epoll
 * instance and file, 6 million with 5000 files, kernel memory nothing
 * else bounds. Past it, EPOLL_CTL_ADD is ENOMEM. */
#define EPI_CHARGE 256

static void ep_remove(struct epitem *epi)
{
	struct ep_entry *e, *next;

	for (e = epi->entries; e; e = next) {
		next = e->next;
		if (e->wq)
			list_del(&e->w.link);
		free(e);
	}
	list_del(&epi->link);
	list_del(&epi->hlink);
	list_del(&epi->rdllink);
	epi->ep->nitems--;
	free(epi);
	mem_give_kernel(EPI_CHARGE);
}

void epoll_file_release(struct file *f)
{
	struct epitem *epi, *tmp;

	if (!file_hash_ready)
		return;
	list_for_each_entry_safe(epi, tmp, file_bucket(f), hlink)
	{
		if (epi->file == f)
			ep_remove(epi);
	}
}

/* The item is ready (or may be): onto the ready list, and whoever waits
 * on the epoll hears of it: one epoll_wait sleeper, and every poller (an
 * outer epoll as a POLLIN wakeup). Returns whether an epoll_wait sleeper
 * was there to wake. */
static bool ep_set_ready(struct epitem *epi)
{
	struct eventpoll *ep = epi->ep;
	bool sleeper = !list_empty(&ep->wq.waiters);

	if (list_empty(&epi->rdllink))
		list_add_tail(&epi->rdllink, &ep->rdllist);
	if (sleeper)
		waitq_wake(&ep->wq, 0);
	waitq_wake(&ep->poll_wq, LINUX_POLLIN | LINUX_POLLRDNORM);
	return sleeper;
}

/* A wakeup of a queue the item listens on (Linux's ep_poll_callback).
 * Returns 1 if the wakeup is spent on this item: always, unless the item
 * is EPOLLEXCLUSIVE; then only if its epoll had a sleeper and the key is
 * about what the item asks for (POLLIN or POLLOUT, not both, or any). */
static int ep_poll_callback(struct waiter *w, unsigned key)
{
	struct ep_entry *e = container_of(w, struct ep_entry, w);
	struct epitem *epi = e->epi;
	unsigned inout = key & (LINUX_POLLIN | LINUX_POLLOUT);
	bool exclusive = epi->events & LINUX_EPOLLEXCLUSIVE, woke;

	if (key & WAKE_FREE) {
		list_del(&w->link);
		e->wq = NULL;
	}
	if (!(epi->events & ~EP_PRIVATE_BITS))
		return !exclusive; /* a ONESHOT that fired: nothing until EPOLL_CTL_MOD */
	if (key && !(key & epi->events))
		return !exclusive; /* not about what the item asks for */
	woke = ep_set_ready(epi);
	if (!exclusive || (key & WAKE_FREE))
		return 1;
	return woke &&
	       (inout == 0 || (inout != (LINUX_POLLIN | LINUX_POLLOUT) && (epi->events & inout)));
}

/* The registration poll at ADD: a callback entry per wait queue. */
struct ep_pqueue {
	struct poll_table pt;
	struct epitem *epi;
	bool failed;
};

static void ep_ptable_queue_proc(struct poll_table *pt, struct waitq *wq)
{
	struct ep_pqueue *q = container_of(pt, struct ep_pqueue, pt);
	struct ep_entry *e = calloc(1, sizeof(*e));

	if (!e) {
		q->failed = true;
		return;
	}
	e->w.func = ep_poll_callback;
	e->w.exclusive = q->epi->events & LINUX_EPOLLEXCLUSIVE;
	e->wq = wq;
	e->epi = q->epi;
	e->next = q->epi->entries;
	q->epi->entries = e;
	list_add_tail(&e->w.link, &wq->waiters);
}

static bool ep_poll_ready(struct eventpoll *ep, int depth);

/* The item's ready bits among those it asks for; with pt, registers. */
static unsigned ep_item_poll(struct epitem *epi, struct poll_table *pt, int depth)
{
	struct file *f = epi->file;
	unsigned mask;

	if (is_epoll(f)) {
		poll_wait(pt, &((struct eventpoll *)f->priv)->poll_wq);
		mask = ep_poll_ready(f->priv, depth + 1) ? LINUX_POLLIN | LINUX_POLLRDNORM : 0;
	} else {
		mask = file_op_poll(f, pt);
	}
	return mask & epi->events;
}

/* Would epoll_wait on ep report something now? Drops the ready list's
 * items that are not ready after all, as Linux's ep_read_events_proc. */
static bool ep_poll_ready(struct eventpoll *ep, int depth)
{
	struct epitem *epi, *tmp;

	if (depth > EP_MAX_NESTS)
		return false;
	list_for_each_entry_safe(epi, tmp, &ep->rdllist, rdllink)
	{
		if (ep_item_poll(epi, NULL, depth))
			return true;
		list_del(&epi->rdllink);
	}
	return false;
}

/* Reports up to max ready items into out (Linux's ep_send_events): each
 * item of the ready list is polled again; a level-triggered one that is
 * ready goes back to the tail, after those left for next time. */
static int ep_send(struct eventpoll *ep, struct linux_epoll_event *out, int max)
{
	LIST_HEAD_DECL(txlist);
	struct epitem *epi;
	int n = 0;

	if (list_empty(&ep->rdllist))
		return 0;
	/* Wakeups during the pass find the items on txlist still linked, and
	 * put others on the (now empty) ready list. */
	txlist.next = ep->rdllist.next;
	txlist.prev = ep->rdllist.prev;
	txlist.next->prev = &txlist;
	txlist.prev->next = &txlist;
	list_init(&ep->rdllist);
	while (n < max && !list_empty(&txlist)) {
		unsigned ready;

		epi = list_first_entry(&txlist, struct epitem, rdllink);
		/* Polled while still linked: a wakeup the poll itself makes
		 * (a timerfd noticing its expiry) is in what it reports. */
		ready = ep_item_poll(epi, NULL, 0);
		list_del(&epi->rdllink);
		if (!ready)
			continue;
		out[n].events = ready;
		out[n].data = epi->data;
		n++;
		if (epi->events & LINUX_EPOLLONESHOT)
			epi->events &= EP_PRIVATE_BITS;
		else if (!(epi->events & LINUX_EPOLLET) && list_empty(&epi->rdllink))
			list_add_tail(&epi->rdllink, &ep->rdllist);
	}
	/* What is left goes first next time. */
	while (!list_empty(&txlist)) {
		epi = list_entry(txlist.prev, struct epitem, rdllink);
		list_del(&epi->rdllink);
		list_add(&epi->rdllink, &ep->rdllist);
	}
	/* Another sleeper gets what is still ready (Linux's ep_done_scan). */
	if (!list_empty(&ep->rdllist) && !list_empty(&ep->wq.waiters))
		waitq_wake(&ep->wq, 0);
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

/* An epoll_wait sleeper's wakeup: it leaves ep->wq, so the next wakeup
 * goes to another (Linux's ep_autoremove_wake_function). */
static int ep_autoremove_wake(struct waiter *w, unsigned key)
{
	bool sleeping = w->task->state == TASK_SLEEPING;

	(void)key;
	list_del(&w->link);
	sched_wake(w->task);
	return sleeping;
}

/* Reports ready items into out (room for max), sleeping until there are
 * some, the deadline (monotonic ns; -1 never, 0 do not wait) or a signal
 * (-EINTR, as Linux, never a restart). */
static long ep_wait(struct task *t, struct eventpoll *ep, struct linux_epoll_event *out, int max,
		    int64_t deadline)
{
	struct ep_sleep s = { .expired = false, .task = t };
	struct ktimer tm = { .armed = false };
	struct waiter w = { .task = t, .func = ep_autoremove_wake, .exclusive = true };
	long n;

	for (;;) {
		n = ep_send(ep, out, max);
		if (n || deadline == 0 || s.expired)
			break;
		if (signal_pending(t)) {
			n = -EINTR;
			break;
		}
		if (deadline > 0 && !tm.armed)
			ktimer_arm(&tm, deadline, ep_timeout, &s);
		list_add_tail(&w.link, &ep->wq.waiters);
		t->state = TASK_SLEEPING;
		schedule();
		list_del(&w.link);
	}
	ktimer_cancel(&tm);
	return n;
}

/* poll of an epoll fd (poll, select, or an outer epoll): POLLIN when
 * epoll_wait would report something. */
static unsigned epoll_poll(struct file *f, struct poll_table *pt)
{
	struct eventpoll *ep = f->priv;

	poll_wait(pt, &ep->poll_wq);
	return ep_poll_ready(ep, 0) ? LINUX_POLLIN | LINUX_POLLRDNORM : 0;
}

static void epoll_release(struct file *f)
{
	struct eventpoll *ep = f->priv;

	while (!list_empty(&ep->items))
		ep_remove(list_first_entry(&ep->items, struct epitem, link));
	free(ep);
}

static const struct file_ops epoll_ops = {
	.anon_name = "[eventpoll]",
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
	list_init(&ep->rdllist);
	waitq_init(&ep->wq);
	waitq_init(&ep->poll_wq);
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

static uint64_t loop_gen; /* the current walk's, for eventpoll.gen */

/* How deep ep sits inside other epolls: 0 if in none. */
static int ep_depth_up(struct eventpoll *ep)
{
	struct epitem *epi;
	int max = 0;

	if (ep->gen == loop_gen)
		return ep->gen_depth;
	/* Until done, a walk that came back here would be too deep. */
	ep->gen = loop_gen;
	ep->gen_depth = EP_MAX_NESTS + 1;
	list_for_each_entry(epi, file_bucket(ep->file), hlink)
	{
		if (epi->file == ep->file) {
			int d = ep_depth_up(epi->ep) + 1;

			if (d > max)
				max = d;
			if (max > EP_MAX_NESTS)
				break;
		}
	}
	ep->gen_depth = max;
	return max;
}

/* How many levels of epolls `to` holds (0: none); more than EP_MAX_NESTS
 * if ep is among them. It stops early once too deep. */
static int ep_depth_down(struct eventpoll *to, struct eventpoll *ep)
{
	struct epitem *epi;
	int max = 0;

	if (to->gen == loop_gen)
		return to->gen_depth;
	to->gen = loop_gen;
	to->gen_depth = EP_MAX_NESTS + 1;
	list_for_each_entry(epi, &to->items, link)
	{
		int d;

		if (!is_epoll(epi->file))
			continue;
		d = epi->file->priv == ep ? EP_MAX_NESTS + 1
					  : ep_depth_down(epi->file->priv, ep) + 1;
		if (d > max)
			max = d;
		if (max > EP_MAX_NESTS)
			break;
	}
	to->gen_depth = max;
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

/* A new item: registered on its file's queues by one poll, and on the
 * ready list at once if the file is ready (Linux's ep_insert). */
static int ep_insert(struct eventpoll *ep, struct file *tf, int fd,
		     const struct linux_epoll_event *ev)
{
	struct epitem *epi;
	struct ep_pqueue q;
	unsigned ready;

	if (!mem_take_kernel(EPI_CHARGE))
		return -ENOMEM;
	epi = calloc(1, sizeof(*epi));
	if (!epi) {
		mem_give_kernel(EPI_CHARGE);
		return -ENOMEM;
	}
	epi->ep = ep;
	epi->file = tf;
	epi->fd = fd;
	epi->events = ev->events | LINUX_EPOLLERR | LINUX_EPOLLHUP;
	epi->data = ev->data;
	list_init(&epi->rdllink);
	list_add_tail(&epi->link, &ep->items);
	list_add_tail(&epi->hlink, file_bucket(tf));
	ep->nitems++;
	memset(&q, 0, sizeof(q));
	q.pt.qproc = ep_ptable_queue_proc;
	q.epi = epi;
	ready = ep_item_poll(epi, &q.pt, 0);
	if (q.failed || q.pt.failed) {
		ep_remove(epi);
		return -ENOMEM;
	}
	if (ready)
		ep_set_ready(epi);
	return 0;
}

/* New events and data; a ready item is reported again, even under
 * EPOLLET (the usual re-arm), as Linux's ep_modify. */
static int ep_modify(struct epitem *epi, const struct linux_epoll_event *ev)
{
	unsigned ready;

	if (epi->events & LINUX_EPOLLEXCLUSIVE)
		return -EINVAL;
	epi->events = ev->events | LINUX_EPOLLERR | LINUX_EPOLLHUP;
	epi->data = ev->data;
	ready = ep_item_poll(epi, NULL, 0);
	if (ready)
		ep_set_ready(epi);
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
		int down, up;

		loop_gen++;
		down = ep_depth_down(tf->priv, ep);
		loop_gen++;
		up = ep_depth_up(ep);
		if (down > EP_MAX_NESTS || down + 1 + up > EP_MAX_NESTS)
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

struct file *epoll_item_file(struct file *f, int tfd, uint64_t toff, int *err)
{
	struct eventpoll *ep;
	struct epitem *epi;

	if (!is_epoll(f)) {
		*err = -EINVAL;
		return NULL;
	}
	ep = f->priv;
	list_for_each_entry(epi, &ep->items, link)
	{
		if (epi->fd != tfd)
			continue;
		if (toff-- == 0)
			return epi->file;
	}
	*err = -ENOENT;
	return NULL;
}
