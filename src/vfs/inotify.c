/* vfs/inotify.c: inotify(7). An instance is an anonymous file holding a
 * queue of events and a set of watches; read returns whole struct
 * inotify_event records (the name NUL-padded to 16 bytes), EINVAL when the
 * next one does not fit. An event identical to the last queued one is
 * dropped (coalescing, as Linux); past max_queued_events one IN_Q_OVERFLOW
 * is queued and the rest is lost. Watches are per file identity (dev, ino)
 * in a small hash. Each guest user (the effective uid that made the
 * instance) may have max_user_instances instances (EMFILE beyond) and
 * max_user_watches watches (ENOSPC beyond). Differs from Linux: changes
 * made on the host behind skas's back are never seen; max_user_watches is
 * a fixed number (Linux derives it from the memory size). */
#include <stdlib.h>
#include <string.h>

#include "vfs/inotify.h"
#include "vfs/eventfd.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "vfs/poll.h"
#include "kernel/task.h"
#include "mm/usercopy.h"
#include "syscalls/dispatch.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/ioctl.h"
#include "abi/linux/poll.h"
#include "abi/linux/types.h"

#define MAX_QUEUED_EVENTS INOTIFY_MAX_QUEUED_EVENTS
#define EVENT_HDR	  16 /* sizeof(struct inotify_event) */
#define NBUCKETS	  256
#define USER_MASK	  (IN_ALL_EVENTS | IN_ONESHOT | IN_EXCL_UNLINK) /* what a watch keeps of its mask */
#define ALL_INOTIFY_BITS                                                                         \
	(IN_ALL_EVENTS | IN_UNMOUNT | IN_Q_OVERFLOW | IN_IGNORED | IN_ONLYDIR | IN_DONT_FOLLOW | \
	 IN_EXCL_UNLINK | IN_MASK_ADD | IN_MASK_CREATE | IN_ISDIR | IN_ONESHOT)

struct inotify_kevent {
	struct list_head link;
	int32_t wd;
	uint32_t mask, cookie;
	uint32_t len; /* of name[], NUL padding included */
	char name[];
};

/* What one guest user has. */
struct inotify_user {
	struct list_head link;
	uint32_t uid;
	int instances, watches;
};

struct inotify_inst {
	struct inotify_user *user; /* charged for the instance and its watches */
	struct list_head watches;  /* struct inotify_watch.ilink */
	struct list_head events;
	int nevents;
	size_t bytes; /* of the queued events as read returns them */
	bool overflow_queued;
	int last_wd;
	struct waitq wait;
};

struct inotify_watch {
	struct list_head ilink, hlink;
	struct inotify_inst *in;
	int wd;
	uint64_t dev, ino;
	uint32_t mask;	   /* USER_MASK bits */
	bool gone_pending; /* unlinked, still open: IN_DELETE_SELF at the last close */
};

int inotify_nwatches;
static LIST_HEAD_DECL(users);

static struct inotify_user *user_get(uint32_t uid)
{
	struct inotify_user *u;

	list_for_each_entry(u, &users, link) if (u->uid == uid) return u;
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->uid = uid;
	list_add_tail(&u->link, &users);
	return u;
}

static void user_put(struct inotify_user *u)
{
	if (u->instances || u->watches)
		return;
	list_del(&u->link);
	free(u);
}
static struct list_head buckets[NBUCKETS];
static bool buckets_ready;

static struct list_head *bucket(uint64_t dev, uint64_t ino)
{
	int i;

	if (!buckets_ready) {
		for (i = 0; i < NBUCKETS; i++)
			list_init(&buckets[i]);
		buckets_ready = true;
	}
	return &buckets[(ino ^ (dev * 31)) % NBUCKETS];
}

bool inotify_watched(uint64_t dev, uint64_t ino)
{
	struct inotify_watch *w;

	if (!inotify_nwatches)
		return false;
	list_for_each_entry(w, bucket(dev, ino),
			    hlink) if (w->dev == dev && w->ino == ino) return true;
	return false;
}

static uint32_t padded_len(const char *name)
{
	return name ? (uint32_t)((strlen(name) + 1 + EVENT_HDR - 1) / EVENT_HDR * EVENT_HDR) : 0;
}

static void queue_event(struct inotify_inst *in, int wd, uint32_t mask, uint32_t cookie,
			const char *name)
{
	uint32_t len = padded_len(name);
	struct inotify_kevent *e, *last;

	if (in->nevents >= MAX_QUEUED_EVENTS) {
		if (in->overflow_queued)
			return;
		wd = -1;
		mask = IN_Q_OVERFLOW;
		cookie = 0;
		name = NULL;
		len = 0;
	} else if (!list_empty(&in->events)) {
		last = list_entry(in->events.prev, struct inotify_kevent, link);
		if (!(last->mask & IN_IGNORED) && last->mask == mask && last->wd == wd &&
		    last->len == len && (!len || strcmp(last->name, name) == 0))
			return;
	}
	e = calloc(1, sizeof(*e) + len);
	if (!e)
		return; /* lost, as an event past the queue's end */
	e->wd = wd;
	e->mask = mask;
	e->cookie = cookie;
	e->len = len;
	if (name)
		strcpy(e->name, name);
	if (mask == IN_Q_OVERFLOW)
		in->overflow_queued = true;
	list_add_tail(&e->link, &in->events);
	in->nevents++;
	in->bytes += EVENT_HDR + len;
	waitq_wake_all(&in->wait);
}

/* Ends a watch: IN_IGNORED is queued for it. */
static void watch_remove(struct inotify_watch *w)
{
	queue_event(w->in, w->wd, IN_IGNORED, 0, NULL);
	list_del(&w->ilink);
	list_del(&w->hlink);
	inotify_nwatches--;
	w->in->user->watches--;
	free(w);
}

void inotify_event(uint64_t dev, uint64_t ino, uint32_t mask, uint32_t cookie, const char *name,
		   bool child_unlinked)
{
	struct inotify_watch *w, *next;

	if (!inotify_nwatches)
		return;
	list_for_each_entry_safe(w, next, bucket(dev, ino), hlink)
	{
		if (w->dev != dev || w->ino != ino)
			continue;
		if (!(w->mask & mask & IN_ALL_EVENTS) && !(mask & IN_UNMOUNT))
			continue;
		if (child_unlinked && (w->mask & IN_EXCL_UNLINK))
			continue;
		queue_event(w->in, w->wd, mask, cookie, name);
		if (w->mask & IN_ONESHOT)
			watch_remove(w);
	}
}

void inotify_inode_gone(uint64_t dev, uint64_t ino)
{
	struct inotify_watch *w, *next;

	if (!inotify_nwatches)
		return;
	list_for_each_entry_safe(w, next, bucket(dev, ino), hlink)
	{
		if (w->dev == dev && w->ino == ino)
			watch_remove(w);
	}
}

void inotify_set_gone_pending(uint64_t dev, uint64_t ino)
{
	struct inotify_watch *w;

	if (!inotify_nwatches)
		return;
	list_for_each_entry(w, bucket(dev, ino), hlink) if (w->dev == dev && w->ino == ino)
		w->gone_pending = true;
}

bool inotify_gone_pending(uint64_t dev, uint64_t ino)
{
	struct inotify_watch *w;

	if (!inotify_nwatches)
		return false;
	list_for_each_entry(w, bucket(dev, ino), hlink) if (w->dev == dev && w->ino == ino &&
							    w->gone_pending) return true;
	return false;
}

/* Reads events into buf, of which the guest takes only the first ok bytes:
 * as Linux's inotify_read, an event is taken off the queue before its copy
 * out, so the one whose copy faults is lost (its bytes before the fault
 * arrive: *arrived says how many of buf's do), EFAULT if it was the first. */
static long inotify_do_read(struct file *f, void *buf, size_t n, size_t ok, size_t *arrived)
{
	struct inotify_inst *in = f->priv;
	size_t done = 0;

	*arrived = 0;
	for (;;) {
		if (!list_empty(&in->events)) {
			struct inotify_kevent *e =
				list_entry(in->events.next, struct inotify_kevent, link);
			size_t size = EVENT_HDR + e->len;
			char *dst = (char *)buf + done, *tmp = NULL;
			bool fault = size > ok - done;

			if (size > n - done)
				return done ? (long)done : -EINVAL;
			if (fault) {
				tmp = malloc(size);
				if (!tmp)
					return done ? (long)done : -ENOMEM;
				dst = tmp;
			}
			memcpy(dst, &e->wd, 4);
			memcpy(dst + 4, &e->mask, 4);
			memcpy(dst + 8, &e->cookie, 4);
			memcpy(dst + 12, &e->len, 4);
			memcpy(dst + EVENT_HDR, e->name, e->len);
			list_del(&e->link);
			in->nevents--;
			in->bytes -= size;
			if (e->mask == IN_Q_OVERFLOW)
				in->overflow_queued = false;
			free(e);
			if (fault) {
				memcpy((char *)buf + done, tmp, ok - done);
				free(tmp);
				*arrived = ok;
				return done ? (long)done : -EFAULT;
			}
			done += size;
			*arrived = done;
			continue;
		}
		if (done)
			return (long)done;
		if (f->flags & LINUX_O_NONBLOCK)
			return -EAGAIN;
		if (signal_pending(current))
			return -ERESTARTSYS;
		waitq_sleep(&in->wait);
	}
}

static long inotify_read(struct file *f, void *buf, size_t n)
{
	size_t arrived;

	return inotify_do_read(f, buf, n, n, &arrived);
}

static long inotify_read_fault(struct file *f, void *buf, size_t n, size_t ok, size_t *arrived)
{
	return inotify_do_read(f, buf, n, ok, arrived);
}

static unsigned inotify_poll(struct file *f, struct poll_table *pt)
{
	struct inotify_inst *in = f->priv;

	poll_wait(pt, &in->wait);
	return list_empty(&in->events) ? 0 : LINUX_POLLIN | LINUX_POLLRDNORM;
}

static long inotify_ioctl(struct file *f, struct task *t, unsigned cmd, uint64_t arg)
{
	struct inotify_inst *in = f->priv;
	int n = (int)in->bytes;

	if (cmd != LINUX_FIONREAD)
		return -ENOTTY;
	return copy_to_user(t->mm, arg, &n, sizeof(n));
}

static void inotify_release(struct file *f)
{
	struct inotify_inst *in = f->priv;
	struct inotify_watch *w, *wn;
	struct inotify_kevent *e, *en;

	list_for_each_entry_safe(w, wn, &in->watches, ilink)
	{
		list_del(&w->hlink);
		inotify_nwatches--;
		in->user->watches--;
		free(w);
	}
	list_for_each_entry_safe(e, en, &in->events, link) free(e);
	in->user->instances--;
	user_put(in->user);
	free(in);
}

static const struct file_ops inotify_ops = {
	.read = inotify_read,
	.read_fault = inotify_read_fault,
	.llseek = anon_inode_llseek,
	.stat = anon_inode_stat,
	.ioctl = inotify_ioctl,
	.poll = inotify_poll,
	.release = inotify_release,
	.anon_name = "inotify",
	.fasync = true,
};

static long do_inotify_init(struct task *t, int flags)
{
	struct inotify_inst *in;
	struct file *f;
	int fd;

	if (flags & ~(LINUX_O_NONBLOCK | LINUX_O_CLOEXEC))
		return -EINVAL;
	in = calloc(1, sizeof(*in));
	if (!in)
		return -ENOMEM;
	in->user = user_get(t->proc->cred.euid);
	if (!in->user) {
		free(in);
		return -ENOMEM;
	}
	if (in->user->instances >= INOTIFY_MAX_USER_INSTANCES) {
		user_put(in->user);
		free(in);
		return -EMFILE;
	}
	f = file_alloc(&inotify_ops, LINUX_O_RDONLY | (flags & LINUX_O_NONBLOCK), -1, NULL);
	if (!f) {
		user_put(in->user);
		free(in);
		return -ENFILE;
	}
	in->user->instances++;
	list_init(&in->watches);
	list_init(&in->events);
	waitq_init(&in->wait);
	f->priv = in;
	fd = fd_install(t->files, f, 0, flags & LINUX_O_CLOEXEC,
			(int)t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur);
	if (fd < 0)
		file_put(f);
	return fd;
}

long sys_inotify_init(struct task *t, const struct sysargs *a)
{
	(void)a;
	return do_inotify_init(t, 0);
}

long sys_inotify_init1(struct task *t, const struct sysargs *a)
{
	return do_inotify_init(t, sysarg_int(a, 0));
}

/* The instance behind fd: a reference in *fp, or -EBADF / -EINVAL. */
static int get_inst(struct task *t, int fd, struct file **fp)
{
	struct file *f = fdget_nopath(t->files, fd); /* O_PATH: EBADF, as Linux */

	if (!f)
		return -EBADF;
	if (f->ops != &inotify_ops) {
		file_put(f);
		return -EINVAL;
	}
	*fp = f;
	return 0;
}

static int add_watch(struct inotify_inst *in, uint64_t dev, uint64_t ino, uint32_t mask)
{
	struct inotify_watch *w;

	list_for_each_entry(w, &in->watches, ilink)
	{
		if (w->dev != dev || w->ino != ino)
			continue;
		if (mask & IN_MASK_CREATE)
			return -EEXIST;
		w->mask = (mask & USER_MASK) | ((mask & IN_MASK_ADD) ? w->mask : 0);
		return w->wd;
	}
	if (in->user->watches >= INOTIFY_MAX_USER_WATCHES)
		return -ENOSPC;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	in->user->watches++;
	w->in = in;
	w->wd = in->last_wd = in->last_wd == INT32_MAX ? 1 : in->last_wd + 1;
	w->dev = dev;
	w->ino = ino;
	w->mask = mask & USER_MASK;
	list_add_tail(&w->ilink, &in->watches);
	list_add_tail(&w->hlink, bucket(dev, ino));
	inotify_nwatches++;
	return w->wd;
}

long sys_inotify_add_watch(struct task *t, const struct sysargs *a)
{
	uint32_t mask = sysarg_uint(a, 2);
	struct file *f;
	struct path p;
	char *path;
	long ret;

	if (!(mask & ALL_INOTIFY_BITS))
		return -EINVAL;
	ret = get_inst(t, sysarg_int(a, 0), &f);
	if (ret < 0)
		return ret;
	ret = -EINVAL;
	if ((mask & IN_MASK_ADD) && (mask & IN_MASK_CREATE))
		goto out;
	ret = get_user_path(t, sysarg_uaddr(a, 1), &path);
	if (ret < 0)
		goto out;
	ret = path_lookupat(t, LINUX_AT_FDCWD, path,
			    ((mask & IN_DONT_FOLLOW) ? 0 : LOOKUP_FOLLOW) |
				    ((mask & IN_ONLYDIR) ? LOOKUP_DIRECTORY : 0),
			    &p);
	free(path);
	if (ret < 0)
		goto out;
	ret = inode_permission(t, p.dentry->inode, LINUX_R_OK);
	if (ret == 0)
		ret = add_watch(f->priv, p.dentry->inode->dev, p.dentry->inode->ino, mask);
	path_put(&p);
out:
	file_put(f);
	return ret;
}

long sys_inotify_rm_watch(struct task *t, const struct sysargs *a)
{
	int wd = sysarg_int(a, 1);
	struct inotify_inst *in;
	struct inotify_watch *w;
	struct file *f;
	long ret = get_inst(t, sysarg_int(a, 0), &f);

	if (ret < 0)
		return ret;
	in = f->priv;
	ret = -EINVAL;
	list_for_each_entry(w, &in->watches, ilink)
	{
		if (w->wd == wd) {
			watch_remove(w);
			ret = 0;
			break;
		}
	}
	file_put(f);
	return ret;
}
