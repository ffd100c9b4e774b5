/* vfs/locks.c: advisory locks (fcntl F_SETLK family, OFD locks, flock).
 * Locks live in the kernel, per file identity (dev, ino), so every open of
 * a file sees them whatever filesystem inode object it came through. POSIX
 * and OFD locks are byte ranges that share one space (they conflict with
 * each other); flock locks are a separate space, as on Linux's local
 * filesystems. Setting a range first cuts the owner's own locks out of it,
 * then inserts the new lock and merges it with adjacent ones of the same
 * type, which gives Linux's merging and splitting. Waiters sleep on the
 * file's wait queue and retry after every change; a POSIX waiter whose
 * chain of blockers leads back to itself gets EDEADLK. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vfs/locks.h"
#include "vfs/lease.h"
#include "vfs/file.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "mm/commit.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"

#define OFFSET_MAX	      INT64_MAX
#define MAX_DEADLK_ITERATIONS 10

enum { LK_POSIX, LK_OFD, LK_FLOCK };

struct file_lock {
	struct list_head link; /* in lock_file.locks, oldest first */
	int kind;	       /* LK_* */
	int type;	       /* LINUX_F_RDLCK or LINUX_F_WRLCK */
	int64_t start, end;    /* inclusive; end OFFSET_MAX: to EOF and beyond */
	const void *owner;     /* struct files * (POSIX) or struct file * */
	int pid;	       /* the locker, for F_GETLK and /proc/locks */
	uint64_t id;	       /* creation order, for /proc/locks */
};

/* The locks of one file. Freed when it has neither locks nor waiters. */
struct lock_file {
	struct list_head link;
	uint64_t dev, ino;
	struct list_head locks;
	struct waitq wait;
	int waiters;
};

/* A sleeping request: for deadlock detection (POSIX: the owners), and
 * for /proc/locks, which lists it under the lock it waits for (blocking:
 * NULL once that lock is freed, until the waiter runs and looks again). */
struct lock_waiter {
	struct list_head link;
	const void *owner, *blocker;
	const struct file_lock *blocking;
	struct file_lock want; /* kind, type, range and pid asked */
};

static LIST_HEAD_DECL(lock_files);
static LIST_HEAD_DECL(lock_waiters);
static uint64_t next_id = 1;

/* The identity of the file f is open on: the inode of its path; files
 * without one (pipes, sockets) are their own identity. */
static void file_key(struct file *f, uint64_t *dev, uint64_t *ino)
{
	if (f->path.dentry) {
		*dev = f->path.dentry->inode->dev;
		*ino = f->path.dentry->inode->ino;
	} else {
		*dev = UINT64_MAX;
		*ino = (uint64_t)(uintptr_t)(f->priv ? f->priv : (void *)f);
	}
}

static struct lock_file *lf_find(struct file *f, bool create)
{
	struct lock_file *lf;
	uint64_t dev, ino;

	file_key(f, &dev, &ino);
	list_for_each_entry(lf, &lock_files, link) if (lf->dev == dev && lf->ino == ino) return lf;
	if (!create)
		return NULL;
	lf = calloc(1, sizeof(*lf));
	if (!lf)
		return NULL;
	lf->dev = dev;
	lf->ino = ino;
	list_init(&lf->locks);
	waitq_init(&lf->wait);
	list_add_tail(&lf->link, &lock_files);
	return lf;
}

static void lf_put(struct lock_file *lf)
{
	if (lf->waiters || !list_empty(&lf->locks))
		return;
	list_del(&lf->link);
	free(lf);
}

static bool is_range_lock(const struct file_lock *l)
{
	return l->kind != LK_FLOCK;
}

static bool overlaps(const struct file_lock *l, int64_t start, int64_t end)
{
	return l->start <= end && start <= l->end;
}

/* The first lock of another owner that conflicts with the request. */
static struct file_lock *find_conflict(struct lock_file *lf, bool range, const void *owner,
				       int type, int64_t start, int64_t end)
{
	struct file_lock *l;

	list_for_each_entry(l, &lf->locks, link)
	{
		if (is_range_lock(l) != range || l->owner == owner)
			continue;
		if (range && !overlaps(l, start, end))
			continue;
		if (l->type == LINUX_F_WRLCK || type == LINUX_F_WRLCK)
			return l;
	}
	return NULL;
}

/* Would owner waiting for a lock held by blocker close a cycle? */
static bool deadlock(const void *owner, const void *blocker)
{
	int i;

	for (i = 0; i < MAX_DEADLK_ITERATIONS; i++) {
		struct lock_waiter *w, *found = NULL;

		list_for_each_entry(w, &lock_waiters, link) if (w->owner == blocker) found = w;
		if (!found)
			return false;
		blocker = found->blocker;
		if (blocker == owner)
			return true;
	}
	return false;
}

/* What a lock holds (Linux charges its file_lock to the memcg): counted
 * against --memory, as a process can hold a lock per byte of a file
 * (every other byte locked: none merge), kernel memory nothing else
 * bounded. Past it, taking one is ENOLCK, as Linux's locks_alloc_lock. */
#define LOCK_CHARGE 128
_Static_assert(sizeof(struct file_lock) <= LOCK_CHARGE, "LOCK_CHARGE");

/* l's LOCK_CHARGE was taken with its allocation; lock_free gives it
 * back. */
static void lock_add(struct lock_file *lf, struct file_lock *l)
{
	list_add_tail(&l->link, &lf->locks);
}

static void lock_free(struct file_lock *l)
{
	struct lock_waiter *w;

	/* Its waiters are no longer its (Linux's __locks_delete_block): the
	 * memory may be the next lock's, on another file, before they run. */
	list_for_each_entry(w, &lock_waiters, link) if (w->blocking == l) w->blocking = NULL;
	list_del(&l->link);
	free(l);
	mem_give_kernel(LOCK_CHARGE);
}

/* The spares apply_range left (NULL: it used that one), with their
 * charge. */
static void spares_put(struct file_lock *spare[2])
{
	for (int i = 0; i < 2; i++) {
		if (spare[i]) {
			free(spare[i]);
			mem_give_kernel(LOCK_CHARGE);
			spare[i] = NULL;
		}
	}
}

/* The two spare locks set_range may use, charged from now on (a waiter's
 * too): false (ENOLCK), with none, past --memory or out of host memory.
 * An unlock takes at most one lock more (a hole cut in the middle): never
 * refused for --memory, as Linux's whole-file unlock allocates nothing. */
static bool spares_get(struct file_lock *spare[2], bool unlock)
{
	if (unlock)
		mem_take_kernel_over(2 * LOCK_CHARGE);
	else if (!mem_take_kernel(2 * LOCK_CHARGE))
		return false;
	spare[0] = calloc(1, sizeof(**spare));
	spare[1] = calloc(1, sizeof(**spare));
	if (spare[0] && spare[1])
		return true;
	for (int i = 0; i < 2; i++) {
		if (!spare[i]) /* its charge, spares_put gives the other's */
			mem_give_kernel(LOCK_CHARGE);
	}
	spares_put(spare);
	return false;
}

/* Sets [start, end] of owner's range locks to type (F_UNLCK: removes).
 * Never fails once the two spare locks are there. */
static void apply_range(struct lock_file *lf, int kind, const void *owner, int pid, int type,
			int64_t start, int64_t end, struct file_lock *spare[2])
{
	struct file_lock *l, *next, *nl;

	/* Cut the range out of the owner's locks. */
	list_for_each_entry_safe(l, next, &lf->locks, link)
	{
		if (!is_range_lock(l) || l->owner != owner || !overlaps(l, start, end))
			continue;
		if (l->start < start && l->end > end) {
			nl = spare[0];
			spare[0] = NULL;
			*nl = *l;
			nl->start = end + 1;
			l->end = start - 1;
			lock_add(lf, nl);
		} else if (l->start < start) {
			l->end = start - 1;
		} else if (l->end > end) {
			l->start = end + 1;
		} else {
			lock_free(l);
		}
	}
	if (type == LINUX_F_UNLCK)
		return;
	/* Merge with the owner's adjacent locks of the same type. */
	list_for_each_entry_safe(l, next, &lf->locks, link)
	{
		if (!is_range_lock(l) || l->owner != owner || l->type != type)
			continue;
		if (l->end == start - 1 || (end != OFFSET_MAX && l->start == end + 1)) {
			if (l->start < start)
				start = l->start;
			if (l->end > end)
				end = l->end;
			lock_free(l);
		}
	}
	nl = spare[1];
	spare[1] = NULL;
	nl->kind = kind;
	nl->type = type;
	nl->start = start;
	nl->end = end;
	nl->owner = owner;
	nl->pid = pid;
	nl->id = next_id++;
	lock_add(lf, nl);
}

/* Sleeps once on lf for the lock c (held by blocker, for POSIX's deadlock
 * detection); want: the request. -ERESTARTSYS on a signal. */
static int lock_wait(struct lock_file *lf, const void *owner, const void *blocker,
		     const struct file_lock *c, const struct file_lock *want)
{
	struct lock_waiter w = { .owner = owner, .blocker = blocker, .blocking = c, .want = *want };

	if (signal_pending(current))
		return -ERESTARTSYS;
	list_add_tail(&w.link, &lock_waiters);
	lf->waiters++;
	waitq_sleep(&lf->wait);
	lf->waiters--;
	list_del(&w.link);
	return 0;
}

static int set_range(struct file *f, int kind, const void *owner, int pid, int type, int64_t start,
		     int64_t end, bool wait)
{
	struct file_lock *spare[2] = { NULL, NULL }, want;
	struct lock_file *lf = lf_find(f, type != LINUX_F_UNLCK);
	int ret = 0;

	if (!lf)
		return type == LINUX_F_UNLCK ? 0 : -ENOLCK;
	if (!spares_get(spare, type == LINUX_F_UNLCK)) {
		ret = -ENOLCK;
		goto out_lf;
	}
	for (;;) {
		struct file_lock *c = type == LINUX_F_UNLCK
					      ? NULL
					      : find_conflict(lf, true, owner, type, start, end);

		if (!c)
			break;
		ret = -EAGAIN;
		if (!wait)
			goto out_lf;
		ret = -EDEADLK;
		if (kind == LK_POSIX && c->kind == LK_POSIX && deadlock(owner, c->owner))
			goto out_lf;
		want.kind = kind;
		want.type = type;
		want.start = start;
		want.end = end;
		want.pid = pid;
		ret = lock_wait(lf, owner, c->kind == LK_POSIX ? c->owner : NULL, c, &want);
		if (ret < 0)
			goto out_lf;
	}
	apply_range(lf, kind, owner, pid, type, start, end, spare);
	waitq_wake_all(&lf->wait);
out_lf:
	spares_put(spare);
	lf_put(lf);
	return ret;
}

/* struct flock to an inclusive range, as Linux's flock64_to_posix_lock. */
static int flock_range(struct file *f, const struct linux_flock *fl, int64_t *startp, int64_t *endp)
{
	int64_t base, start;

	switch (fl->l_whence) {
	case LINUX_SEEK_SET:
		base = 0;
		break;
	case LINUX_SEEK_CUR:
		base = f->ops->llseek ? f->ops->llseek(f, 0, LINUX_SEEK_CUR) : 0;
		if (base < 0)
			base = 0;
		break;
	case LINUX_SEEK_END: {
		struct linux_stat st;

		base = file_stat(f, &st) == 0 ? st.st_size : 0;
		break;
	}
	default:
		return -EINVAL;
	}
	if (fl->l_start > OFFSET_MAX - base)
		return -EOVERFLOW;
	start = base + fl->l_start;
	if (start < 0)
		return -EINVAL;
	if (fl->l_len > 0) {
		if (fl->l_len - 1 > OFFSET_MAX - start)
			return -EOVERFLOW;
		*startp = start;
		*endp = start + fl->l_len - 1;
	} else if (fl->l_len < 0) {
		if (start + fl->l_len < 0)
			return -EINVAL;
		*startp = start + fl->l_len;
		*endp = start - 1;
	} else {
		*startp = start;
		*endp = OFFSET_MAX;
	}
	if (fl->l_type != LINUX_F_RDLCK && fl->l_type != LINUX_F_WRLCK &&
	    fl->l_type != LINUX_F_UNLCK)
		return -EINVAL;
	return 0;
}

static int get_lock(struct file *f, int kind, const void *owner, struct linux_flock *fl)
{
	struct lock_file *lf;
	struct file_lock *c;
	int64_t start, end;
	int ret;

	if (fl->l_type != LINUX_F_RDLCK && fl->l_type != LINUX_F_WRLCK)
		return -EINVAL;
	ret = flock_range(f, fl, &start, &end);
	if (ret < 0)
		return ret;
	if (kind == LK_OFD && fl->l_pid != 0)
		return -EINVAL;
	lf = lf_find(f, false);
	c = lf ? find_conflict(lf, true, owner, fl->l_type, start, end) : NULL;
	if (!c) {
		fl->l_type = LINUX_F_UNLCK;
		return 0;
	}
	fl->l_type = (int16_t)c->type;
	fl->l_whence = LINUX_SEEK_SET;
	fl->l_start = c->start;
	fl->l_len = c->end == OFFSET_MAX ? 0 : c->end - c->start + 1;
	fl->l_pid = c->kind == LK_OFD ? -1 : pid_vnr(current, c->pid);
	return 0;
}

int locks_fcntl(struct task *t, struct file *f, int cmd, struct linux_flock *fl)
{
	bool ofd =
		cmd == LINUX_F_OFD_GETLK || cmd == LINUX_F_OFD_SETLK || cmd == LINUX_F_OFD_SETLKW;
	int kind = ofd ? LK_OFD : LK_POSIX;
	const void *owner = ofd ? (const void *)f : (const void *)t->files;
	int64_t start, end;
	int ret;

	if (cmd == LINUX_F_GETLK || cmd == LINUX_F_OFD_GETLK)
		return get_lock(f, kind, owner, fl);
	ret = flock_range(f, fl, &start, &end);
	if (ret < 0)
		return ret;
	if ((fl->l_type == LINUX_F_RDLCK && !file_readable(f)) ||
	    (fl->l_type == LINUX_F_WRLCK && !file_writable(f)))
		return -EBADF;
	if (ofd && fl->l_pid != 0)
		return -EINVAL;
	return set_range(f, kind, owner, t->proc->pid, fl->l_type, start, end,
			 cmd == LINUX_F_SETLKW || cmd == LINUX_F_OFD_SETLKW);
}

int locks_flock(struct file *f, int op)
{
	int type, ret = 0;
	struct lock_file *lf;
	struct file_lock *l, *c, *mine = NULL;

	switch (op & ~LINUX_LOCK_NB) {
	case LINUX_LOCK_SH:
		type = LINUX_F_RDLCK;
		break;
	case LINUX_LOCK_EX:
		type = LINUX_F_WRLCK;
		break;
	case LINUX_LOCK_UN:
		type = LINUX_F_UNLCK;
		break;
	default:
		return -EINVAL;
	}
	lf = lf_find(f, type != LINUX_F_UNLCK);
	if (!lf)
		return type == LINUX_F_UNLCK ? 0 : -ENOLCK;
	list_for_each_entry(l, &lf->locks, link) if (l->kind == LK_FLOCK && l->owner == f) mine = l;
	if (mine && mine->type == type)
		goto out;
	/* A conversion drops the old lock first, as Linux: not atomic. */
	if (mine) {
		lock_free(mine);
		waitq_wake_all(&lf->wait);
	}
	if (type == LINUX_F_UNLCK)
		goto out;
	while ((c = find_conflict(lf, false, f, type, 0, 0))) {
		struct file_lock want = { .kind = LK_FLOCK,
					  .type = type,
					  .end = OFFSET_MAX,
					  .pid = current ? current->proc->pid : 0 };

		ret = -EWOULDBLOCK;
		if (op & LINUX_LOCK_NB)
			goto out;
		ret = lock_wait(lf, f, NULL, c, &want);
		if (ret < 0)
			goto out;
	}
	ret = -ENOLCK;
	if (!mem_take_kernel(LOCK_CHARGE))
		goto out;
	l = calloc(1, sizeof(*l));
	if (!l) {
		mem_give_kernel(LOCK_CHARGE);
		goto out;
	}
	ret = 0;
	l->kind = LK_FLOCK;
	l->type = type;
	l->end = OFFSET_MAX;
	l->owner = f;
	l->pid = current ? current->proc->pid : 0;
	l->id = next_id++;
	lock_add(lf, l);
out:
	lf_put(lf);
	return ret;
}

static void remove_owned(struct file *f, const void *owner, bool range_posix)
{
	struct lock_file *lf;
	struct file_lock *l, *next;
	bool changed = false;

	if (list_empty(&lock_files))
		return;
	lf = lf_find(f, false);
	if (!lf)
		return;
	list_for_each_entry_safe(l, next, &lf->locks, link)
	{
		if (l->owner != owner || (l->kind == LK_POSIX) != range_posix)
			continue;
		lock_free(l);
		changed = true;
	}
	if (changed)
		waitq_wake_all(&lf->wait);
	lf_put(lf);
}

void locks_remove_posix(struct file *f, struct files *fs)
{
	remove_owned(f, fs, true);
}

void locks_remove_file(struct file *f)
{
	remove_owned(f, f, false);
}

/* One line of /proc/locks (Linux's lock_get_status, as 6.18 prints it:
 * "READ" unpadded, older kernels padded it to WRITE's width): l of the file
 * (dev, ino), numbered n; pfx "-> " for a waiter. False if its owner has
 * no number in ns (left out, as Linux's locks_show). */
static bool lock_line(const struct pid_ns *ns, const struct file_lock *l, uint64_t dev,
		      uint64_t ino, int n, const char *pfx, char *line, size_t size)
{
	int pid = l->kind == LK_OFD ? -1 : pid_nr_ns(l->pid, ns);
	unsigned major = (unsigned)(((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfffULL));
	unsigned minor = (unsigned)((dev & 0xff) | ((dev >> 12) & ~0xffULL));
	char end[24];

	if (!pid)
		return false;
	if (l->end == OFFSET_MAX)
		snprintf(end, sizeof(end), "EOF");
	else
		snprintf(end, sizeof(end), "%lld", (long long)l->end);
	snprintf(line, size, "%d: %s%s ADVISORY  %s %d %02x:%02x:%llu %lld %s\n", n, pfx,
		 l->kind == LK_POSIX ? "POSIX "
		 : l->kind == LK_OFD ? "OFDLCK"
				     : "FLOCK ",
		 l->type == LINUX_F_WRLCK ? "WRITE" : "READ", pid, major, minor,
		 (unsigned long long)ino, (long long)l->start, end);
	return true;
}

/* Every lock, each followed by the requests that wait for it ("N: -> ",
 * Linux's blocked requests of a lock, numbered as it), then the leases
 * (vfs/lease.c). */
void locks_proc_show(const struct pid_ns *ns, void (*emit)(void *ctx, const char *line), void *ctx)
{
	struct lock_file *lf;
	struct file_lock *l;
	struct lock_waiter *w;
	char line[160];
	int n = 0;

	list_for_each_entry(lf, &lock_files, link) list_for_each_entry(l, &lf->locks, link)
	{
		n++; /* a line's number counts those left out, as Linux's */
		if (!lock_line(ns, l, lf->dev, lf->ino, n, "", line, sizeof(line)))
			continue; /* its owner is not the mount's to see (locks_show) */
		emit(ctx, line);
		list_for_each_entry(w, &lock_waiters,
				    link) if (w->blocking == l &&
					      lock_line(ns, &w->want, lf->dev, lf->ino, n, "-> ",
							line, sizeof(line))) emit(ctx, line);
	}
	lease_proc_show(ns, emit, ctx, n);
}
