/* vfs/lease.c: file leases, as Linux's fs/locks.c. A lease belongs to an
 * open file description of a regular file, kept per file identity (dev,
 * ino) as the locks are. A read lease needs the file open for writing by
 * nobody; a write lease, open by nobody but its holder, and no other lease.
 * An open that conflicts with a lease (for writing or a truncate(2): any
 * lease; read-only: a write lease) breaks it: the holder gets the lease's
 * signal (SIGIO, or F_SETSIG's with si_fd, POLL_MSG) and the opener waits
 * until the holder gives the lease up (or down, to read) or lease-break-time
 * passes, when the kernel does that itself, lazily: at the next look of a
 * breaker, F_GETLEASE or F_SETLEASE (Linux's time_out_leases). */
#include <stdio.h>
#include <stdlib.h>

#include "vfs/lease.h"
#include "vfs/denywrite.h"
#include "vfs/file.h"
#include "vfs/fown.h"
#include "vfs/namei.h"
#include "vfs/devices.h"
#include "kernel/cred.h"
#include "kernel/pidns.h"
#include "kernel/sched.h"
#include "kernel/task.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/signal.h"
#include "abi/linux/stat.h"

#define NS_PER_SEC 1000000000LL

int lease_break_time = 45;
int leases_enable = 1;

struct lease {
	struct list_head link; /* in lease_file.leases, oldest first */
	struct file *file;     /* its holder (no reference: it goes at the release) */
	int type;	       /* LINUX_F_RDLCK or LINUX_F_WRLCK */
	int fd;		       /* si_fd of its signal: the last F_SETLEASE's fd */
	int pid;	       /* who set it, for /proc/locks */
	/* A break asked for it to go, or to become a read lease, by then
	 * (monotonic ns; 0: never). As Linux, a time stays once set. */
	bool unlock_pending, downgrade_pending;
	int64_t break_ns, downgrade_ns;
};

/* An open or truncate waiting for leases to go: for /proc/locks, under
 * the lease it waits for (NULL once that one is freed, until the breaker
 * looks again). */
struct lease_breaker {
	struct list_head link;
	const struct lease *blocking;
	int type; /* LINUX_F_WRLCK: for writing; LINUX_F_RDLCK: read-only */
	int pid;
};

/* The leases of one file, and its breakers; freed when it has neither
 * and nobody holds it (waiters). */
struct lease_file {
	struct list_head link;
	uint64_t dev, ino;
	struct list_head leases, breakers;
	struct waitq wait; /* breakers sleep here; every lease change wakes it */
	int waiters;
};

static LIST_HEAD_DECL(lease_files);

static struct lease_file *lf_find(uint64_t dev, uint64_t ino, bool create)
{
	struct lease_file *lf;

	list_for_each_entry(lf, &lease_files, link) if (lf->dev == dev && lf->ino == ino) return lf;
	if (!create)
		return NULL;
	lf = calloc(1, sizeof(*lf));
	if (!lf)
		return NULL;
	lf->dev = dev;
	lf->ino = ino;
	list_init(&lf->leases);
	list_init(&lf->breakers);
	waitq_init(&lf->wait);
	list_add_tail(&lf->link, &lease_files);
	return lf;
}

static void lf_put(struct lease_file *lf)
{
	if (lf->waiters || !list_empty(&lf->leases) || !list_empty(&lf->breakers))
		return;
	list_del(&lf->link);
	free(lf);
}

/* The file a lease of f is kept under, NULL for a file with no path. */
static struct lease_file *lf_of(struct file *f, bool create)
{
	const struct inode *ino = f->path.dentry ? f->path.dentry->inode : NULL;

	return ino ? lf_find(ino->dev, ino->ino, create) : NULL;
}

static struct lease *lease_of(struct lease_file *lf, const struct file *f)
{
	struct lease *l;

	list_for_each_entry(l, &lf->leases, link) if (l->file == f) return l;
	return NULL;
}

/* Linux's target_leasetype: what F_GETLEASE and /proc/locks say. */
static int target_type(const struct lease *l)
{
	if (l->unlock_pending)
		return LINUX_F_UNLCK;
	if (l->downgrade_pending)
		return LINUX_F_RDLCK;
	return l->type;
}

/* Linux's lease_modify: l becomes type; F_UNLCK frees it and, as Linux,
 * takes the holder's owner and F_SETSIG signal with it. Breakers wake. */
static void lease_modify(struct lease_file *lf, struct lease *l, int type)
{
	struct lease_breaker *b;

	if (type == LINUX_F_UNLCK)
		l->unlock_pending = false;
	if (type == LINUX_F_UNLCK || type == LINUX_F_RDLCK)
		l->downgrade_pending = false;
	waitq_wake_all(&lf->wait);
	if (type != LINUX_F_UNLCK) {
		l->type = type;
		return;
	}
	l->file->owner_pid = 0;
	l->file->owner_type = LINUX_F_OWNER_PID;
	l->file->sigio_sig = 0;
	list_for_each_entry(b, &lf->breakers, link) if (b->blocking == l) b->blocking = NULL;
	list_del(&l->link);
	free(l);
}

/* Linux's time_out_leases: the breaks whose time has passed are done. */
static void time_out_leases(struct lease_file *lf)
{
	struct lease *l, *next;
	int64_t now = sched_now_ns();

	list_for_each_entry_safe(l, next, &lf->leases, link)
	{
		if (l->downgrade_ns && now > l->downgrade_ns)
			lease_modify(lf, l, LINUX_F_RDLCK);
		if (l->break_ns && now > l->break_ns)
			lease_modify(lf, l, LINUX_F_UNLCK);
	}
}

/* Does an open for writing (or read-only) conflict with l as it is now? */
static bool conflicts(const struct lease *l, bool want_write)
{
	return want_write || l->type == LINUX_F_WRLCK;
}

static bool any_conflict(struct lease_file *lf, bool want_write)
{
	struct lease *l;

	list_for_each_entry(l, &lf->leases, link) if (conflicts(l, want_write)) return true;
	return false;
}

/* Linux's check_conflicting_open: a read lease wants no writer; a write
 * lease, no opener but f (and no running image that denies writes). */
static int open_conflict(struct file *f, int type)
{
	const struct inode *ino = f->path.dentry->inode;
	int writers, readers, deniers;

	access_counts(ino->dev, ino->ino, &writers, &readers, &deniers);
	if (type == LINUX_F_RDLCK)
		return writers > 0 ? -EAGAIN : 0;
	if (deniers || writers != (f->write_access > 0) || readers != f->read_access)
		return -EAGAIN;
	return 0;
}

/* Linux's generic_add_lease: a new lease, or f's own changed. */
static long lease_add(struct task *t, struct file *f, int fd, int type)
{
	struct lease_file *lf = lf_of(f, true);
	struct lease *l, *mine = NULL;
	long ret;

	if (!lf)
		return -ENOMEM;
	time_out_leases(lf);
	ret = open_conflict(f, type);
	if (ret < 0)
		goto out;
	ret = -EAGAIN;
	list_for_each_entry(l, &lf->leases, link)
	{
		if (l->file == f)
			mine = l;
		else if (type == LINUX_F_WRLCK || l->unlock_pending)
			goto out;
	}
	if (mine) {
		lease_modify(lf, mine, type);
	} else {
		ret = -EINVAL;
		if (!leases_enable)
			goto out;
		ret = -ENOMEM;
		mine = calloc(1, sizeof(*mine));
		if (!mine)
			goto out;
		mine->file = f;
		mine->type = type;
		mine->pid = t->proc->pid;
		list_add_tail(&mine->link, &lf->leases);
	}
	/* Linux's lease_setup: the signal names this fd; the caller owns
	 * the file unless someone does */
	mine->fd = fd;
	fown_set_default(t, f);
	ret = 0;
out:
	lf_put(lf);
	return ret;
}

/* F_SETLEASE, in Linux's order: the type, the owner (or CAP_LEASE), a
 * regular file. Differs from Linux: a file with no inode here (a pipe, a
 * socket) is EINVAL without the owner's check (Linux: EACCES for one the
 * caller did not make). */
long lease_fcntl_set(struct task *t, struct file *f, int fd, int arg)
{
	const struct cred *c = &t->proc->cred;
	struct lease_file *lf;
	struct lease *l;
	struct linux_stat st;
	int ret;

	if (arg != LINUX_F_RDLCK && arg != LINUX_F_WRLCK && arg != LINUX_F_UNLCK)
		return -EINVAL;
	if (!f->path.dentry)
		return -EINVAL;
	ret = vfs_getattr(f->path.dentry->inode, &st);
	if (ret < 0)
		return ret;
	if (st.st_uid != c->fsuid && !capable(c, CAP_LEASE))
		return -EACCES;
	if (!LINUX_S_ISREG(f->path.dentry->inode->mode))
		return -EINVAL;
	if (arg != LINUX_F_UNLCK)
		return lease_add(t, f, fd, arg);
	/* Linux's generic_delete_lease: EAGAIN for no lease */
	lf = lf_of(f, false);
	l = lf ? lease_of(lf, f) : NULL;
	if (!l)
		return -EAGAIN;
	lease_modify(lf, l, LINUX_F_UNLCK);
	lf_put(lf);
	return 0;
}

long lease_fcntl_get(struct file *f)
{
	struct lease_file *lf = lf_of(f, false);
	struct lease *l;
	int type = LINUX_F_UNLCK;

	if (!lf)
		return type;
	time_out_leases(lf);
	l = lease_of(lf, f);
	if (l)
		type = target_type(l);
	lf_put(lf);
	return type;
}

/* Marks the leases an opener conflicts with and signals their holders,
 * once each (Linux's __break_lease before it waits). */
static void break_leases(struct lease_file *lf, bool want_write)
{
	int64_t when = 0;
	struct lease *l;

	if (lease_break_time > 0)
		when = sched_now_ns() + lease_break_time * NS_PER_SEC;
	list_for_each_entry(l, &lf->leases, link)
	{
		if (!conflicts(l, want_write))
			continue;
		if (want_write) {
			if (l->unlock_pending)
				continue;
			l->unlock_pending = true;
			l->break_ns = when;
		} else {
			if (l->unlock_pending || l->downgrade_pending)
				continue;
			l->downgrade_pending = true;
			l->downgrade_ns = when;
		}
		fown_send_sigio(l->file, l->fd, LINUX_POLL_MSG);
	}
}

/* The earliest time a pending break of lf's leases is due (0: none): a
 * time kept from a break done (a downgrade's, as Linux keeps it) is no
 * reason to wake. */
static int64_t next_due(struct lease_file *lf)
{
	int64_t due = 0;
	struct lease *l;

	list_for_each_entry(l, &lf->leases, link)
	{
		if (l->unlock_pending && l->break_ns && (!due || l->break_ns < due))
			due = l->break_ns;
		if (l->downgrade_pending && l->downgrade_ns && (!due || l->downgrade_ns < due))
			due = l->downgrade_ns;
	}
	return due;
}

static void breaker_timeout(void *arg)
{
	sched_wake(arg);
}

/* Sleeps once on lf, until a lease changes or the next break is due (a
 * moment past it, as Linux's time_after). */
static int breaker_wait(struct lease_file *lf, struct lease_breaker *b)
{
	struct ktimer tm = { .armed = false };
	int64_t due = next_due(lf);

	if (signal_pending(current))
		return -ERESTARTSYS;
	b->blocking = list_first_entry(&lf->leases, struct lease, link);
	if (due)
		ktimer_arm(&tm, due + 1, breaker_timeout, current);
	waitq_sleep(&lf->wait);
	ktimer_cancel(&tm);
	b->blocking = NULL;
	return 0;
}

int lease_break(const struct inode *ino, bool want_write, bool nonblock)
{
	struct lease_breaker b = { .type = want_write ? LINUX_F_WRLCK : LINUX_F_RDLCK };
	struct lease_file *lf;
	int ret = 0;

	if (list_empty(&lease_files))
		return 0;
	lf = lf_find(ino->dev, ino->ino, false);
	if (!lf)
		return 0;
	lf->waiters++;
	time_out_leases(lf);
	if (!any_conflict(lf, want_write))
		goto out;
	break_leases(lf, want_write);
	if (nonblock) {
		ret = -EWOULDBLOCK;
		goto out;
	}
	/* Differs from Linux: a breaker that conflicts with an earlier one
	 * is listed under the lease too, not nested under that breaker. */
	b.pid = current ? current->proc->pid : 0;
	list_add_tail(&b.link, &lf->breakers);
	while (any_conflict(lf, want_write)) {
		ret = breaker_wait(lf, &b);
		if (ret < 0)
			break;
		time_out_leases(lf);
	}
	list_del(&b.link);
out:
	lf->waiters--;
	lf_put(lf);
	return ret;
}

void lease_remove_file(struct file *f)
{
	struct lease_file *lf = list_empty(&lease_files) ? NULL : lf_of(f, false);
	struct lease *l;

	if (!lf)
		return;
	l = lease_of(lf, f);
	if (l)
		lease_modify(lf, l, LINUX_F_UNLCK);
	lf_put(lf);
}

static const char *type_name(int type)
{
	return type == LINUX_F_WRLCK ? "WRITE" : type == LINUX_F_RDLCK ? "READ" : "UNLCK";
}

/* As Linux's lock_get_status prints a lease ("ACTIVE", or "BREAKING" with
 * the type it is to become) and a breaker (no file: "<none>:0"). A lease
 * whose setter the namespace cannot see is left out with its breakers, as
 * Linux's locks_show; a breaker's unseen pid is 0. */
void lease_proc_show(const struct pid_ns *ns, void (*emit)(void *ctx, const char *line), void *ctx,
		     int n)
{
	struct lease_file *lf;
	struct lease_breaker *b;
	struct lease *l;
	char line[160];
	int pid;

	list_for_each_entry(lf, &lease_files, link) list_for_each_entry(l, &lf->leases, link)
	{
		n++;
		pid = pid_nr_ns(l->pid, ns);
		if (!pid)
			continue;
		snprintf(line, sizeof(line), "%d: LEASE  %s %s %d %02x:%02x:%llu 0 EOF\n", n,
			 l->unlock_pending || l->downgrade_pending ? "BREAKING " : "ACTIVE   ",
			 type_name(target_type(l)), pid, MAJOR(lf->dev), MINOR(lf->dev),
			 (unsigned long long)lf->ino);
		emit(ctx, line);
		list_for_each_entry(b, &lf->breakers, link)
		{
			if (b->blocking != l)
				continue;
			snprintf(line, sizeof(line),
				 "%d: -> LEASE  BREAKER   %s %d <none>:0 0 EOF\n", n,
				 type_name(b->type), pid_nr_ns(b->pid, ns));
			emit(ctx, line);
		}
	}
}
