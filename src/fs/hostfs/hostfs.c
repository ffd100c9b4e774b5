/* fs/hostfs/hostfs.c: host files seen by the guest. Lookups open an O_PATH
 * fd relative to the parent's, with O_NOFOLLOW: the VFS follows symlinks
 * itself, so a host symlink or ".." never leads out. What procfs, sysfs and
 * the like hold is hidden; host block devices, fifos and sockets cannot be
 * opened. A stream (a pipe, tty or socket: the host's stdio) has a wait
 * queue that edge watches of its host fd wake at each readiness event (each
 * write into a host pipe), as a pipe's queue: epoll items, poll and
 * blocking reads wait on it. */
#include <stdlib.h>
#include <string.h>

#include "fs/hostfs/hostfs.h"
#include "vfs/file.h"
#include "vfs/devices.h"
#include "vfs/namei.h"
#include "vfs/poll.h"
#include "vfs/readdir.h"
#include "host/host.h"
#include "kernel/sched.h"
#include "kernel/task.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/ioctl.h"
#include "abi/linux/poll.h"
#include "abi/linux/stat.h"

struct hostfs_inode {
	int fd; /* O_PATH */
	bool io_ok, writable_dev;
	struct linux_stat st; /* as the lookup of walk st_gen saw it */
	uint64_t st_gen;
};

struct hostfs_priv {
	bool stream; /* a pipe, tty or socket: reads may have to wait */
	bool tty;
	/* A stream's readiness (hostfs_watch, at the first wait): 0 not yet
	 * watched, 1 watched, -errno the host cannot (always ready). */
	int watch;
	struct waitq wq;	       /* woken with the host's POLL* bits */
	struct host_edge_watch rd, wr; /* reading and writing */
	int wr_fd;		       /* host fd of wr when both: a dup, or -1 */
};

static struct hostfs_priv *priv_alloc(bool stream)
{
	struct hostfs_priv *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->stream = stream;
	waitq_init(&p->wq);
	p->rd.fd = p->wr.fd = p->wr_fd = -1;
	return p;
}

static void hostfs_ready(void *arg, unsigned events)
{
	struct hostfs_priv *p = arg;

	if (events & LINUX_POLLIN)
		events |= LINUX_POLLRDNORM;
	if (events & LINUX_POLLOUT)
		events |= LINUX_POLLWRNORM;
	waitq_wake(&p->wq, events);
}

static void hostfs_unwatch(struct hostfs_priv *p)
{
	host_evloop_edge_del(&p->rd);
	host_evloop_edge_del(&p->wr);
	if (p->wr_fd >= 0)
		host_close(p->wr_fd);
	p->wr_fd = -1;
}

/* From now on, p->wq hears of every readiness event of the stream's host
 * fd: one edge watch per direction the file is open for, so a wakeup's key
 * says which (a second host fd for writing, as the host keys its watches
 * by fd). Returns 0, or -errno if the host cannot watch the fd (a file
 * without a poll op there: always ready). */
static int hostfs_watch(struct file *f, struct hostfs_priv *p)
{
	int ret = 0, wfd = f->host_fd;

	if (p->watch)
		return p->watch < 0 ? p->watch : 0;
	p->rd.fn = p->wr.fn = hostfs_ready;
	p->rd.arg = p->wr.arg = p;
	if (file_readable(f))
		ret = host_evloop_edge_add(&p->rd, f->host_fd, false);
	if (ret == 0 && file_writable(f)) {
		if (file_readable(f))
			wfd = p->wr_fd = host_dup(f->host_fd);
		ret = wfd < 0 ? wfd : host_evloop_edge_add(&p->wr, wfd, true);
	}
	if (ret < 0)
		hostfs_unwatch(p);
	p->watch = ret < 0 ? ret : 1;
	return ret;
}

static const struct inode_ops hostfs_iops;

static int hfd(struct inode *ino)
{
	return ((struct hostfs_inode *)ino->priv)->fd;
}

/* File I/O on the reopened host fd. */

static long hostfs_read(struct file *f, void *buf, size_t n)
{
	struct hostfs_priv *p = f->priv;

	if (p && p->stream && !(f->flags & LINUX_O_NONBLOCK)) {
		while (!host_fd_readable(f->host_fd)) {
			int ret;

			if (signal_pending(current))
				return -ERESTARTSYS;
			/* Data since the look wakes wq: the watch's first
			 * event if it starts now, a later one else. */
			ret = hostfs_watch(f, p);
			if (ret < 0)
				return ret;
			waitq_sleep(&p->wq);
		}
	}
	return host_read(f->host_fd, buf, n);
}

static long hostfs_write(struct file *f, const void *buf, size_t n)
{
	return host_write(f->host_fd, buf, n);
}

static long hostfs_pread(struct file *f, void *buf, size_t n, int64_t off)
{
	return host_pread(f->host_fd, buf, n, off);
}

static long hostfs_pwrite(struct file *f, const void *buf, size_t n, int64_t off)
{
	return host_pwrite(f->host_fd, buf, n, off);
}

static int64_t hostfs_llseek(struct file *f, int64_t off, int whence)
{
	return host_lseek(f->host_fd, off, whence);
}

static int hostfs_fstat(struct file *f, struct linux_stat *st)
{
	return host_fstat(f->host_fd, st);
}

static long hostfs_ioctl(struct file *f, struct task *t, unsigned cmd, uint64_t arg)
{
	struct hostfs_priv *p = f->priv;
	union {
		struct linux_termios tio;
		struct linux_winsize ws;
	} u;
	size_t size;
	int ret;

	if (!p || !p->tty)
		return -ENOTTY;
	switch (cmd) {
	case LINUX_TCGETS:
		size = sizeof(u.tio);
		break;
	case LINUX_TIOCGWINSZ:
		size = sizeof(u.ws);
		break;
	default:
		return -ENOTTY;
	}
	ret = host_ioctl_tty(f->host_fd, cmd, &u, size);
	if (ret < 0)
		return ret;
	return copy_to_user(t->mm, arg, &u, size);
}

static unsigned hostfs_poll(struct file *f, struct poll_table *pt)
{
	struct hostfs_priv *p = f->priv;
	unsigned mask;

	if (!p || !p->stream)
		return LINUX_POLLIN | LINUX_POLLOUT | LINUX_POLLRDNORM | LINUX_POLLWRNORM;
	if (pt) {
		int ret = hostfs_watch(f, p);

		if (ret == 0) {
			/* A new epoll item hears of data from now on only. */
			if (pt->qproc)
				host_evloop_edge_flush();
			poll_wait(pt, &p->wq);
		} else if (ret != -EPERM) {
			pt->failed = true;
		}
	}
	mask = host_fd_poll(f->host_fd);
	if (mask & LINUX_POLLIN)
		mask |= LINUX_POLLRDNORM;
	if (mask & LINUX_POLLOUT)
		mask |= LINUX_POLLWRNORM;
	return mask;
}

static int hostfs_mmap_fd(struct file *f)
{
	struct hostfs_priv *p = f->priv;

	if (p && p->stream)
		return -ENODEV;
	return f->host_fd;
}

static void hostfs_release(struct file *f)
{
	struct hostfs_priv *p = f->priv;

	if (p) {
		hostfs_unwatch(p);
		waitq_release(&p->wq);
	}
	if (f->host_fd >= 0)
		host_close(f->host_fd);
	free(p);
}

static const struct file_ops hostfs_file_ops = {
	.read = hostfs_read,
	.write = hostfs_write,
	.pread = hostfs_pread,
	.pwrite = hostfs_pwrite,
	.llseek = hostfs_llseek,
	.stat = hostfs_fstat,
	.ioctl = hostfs_ioctl,
	.poll = hostfs_poll,
	.mmap_fd = hostfs_mmap_fd,
	.release = hostfs_release,
};

static int dir_stat(struct file *f, struct linux_stat *st)
{
	return vfs_getattr(f->inode, st);
}

static void hostfs_dir_release(struct file *f)
{
	if (f->host_fd >= 0)
		host_close(f->host_fd);
}

static const struct file_ops hostfs_dir_ops = {
	.read = dir_read,
	.pread = dir_pread,
	.getdents64 = dir_getdents64,
	.llseek = dir_llseek,
	.stat = dir_stat,
	.release = hostfs_dir_release,
};

/* Inodes. */

/* What host_fd_allowed says of a file on an allowed filesystem, from its
 * stat alone: block devices, sockets and fifos are not opened; of the
 * character devices only the mem driver's null, zero, random, urandom. */
static void io_rules(const struct linux_stat *st, bool *io_ok, bool *wdev)
{
	unsigned mi = MINOR(st->st_rdev);

	*io_ok = true;
	*wdev = false;
	if (LINUX_S_ISBLK(st->st_mode) || LINUX_S_ISSOCK(st->st_mode) ||
	    LINUX_S_ISFIFO(st->st_mode)) {
		*io_ok = false;
	} else if (LINUX_S_ISCHR(st->st_mode)) {
		*io_ok = MAJOR(st->st_rdev) == 1 && (mi == 3 || mi == 5 || mi == 8 || mi == 9);
		*wdev = *io_ok && (mi == 3 || mi == 5);
	}
}

/* An inode for the O_PATH host fd (taken over). dir_dev is the parent's
 * st_dev: a file on the same host filesystem as its allowed parent needs
 * no filesystem check, which saves two host calls per path component. */
static int make_inode(struct super_block *sb, int fd, const uint64_t *dir_dev, struct inode **out)
{
	struct hostfs_inode *hi;
	struct linux_stat st;
	struct inode *ino;
	bool io_ok, wdev;
	int ret;

	ret = host_fstat(fd, &st);
	if (ret == 0 && dir_dev && st.st_dev == *dir_dev)
		io_rules(&st, &io_ok, &wdev);
	else if (ret == 0)
		ret = host_fd_allowed(fd, &io_ok, &wdev);
	if (ret < 0) {
		host_close(fd);
		return ret;
	}
	hi = calloc(1, sizeof(*hi));
	ino = hi ? inode_new(sb, st.st_ino, st.st_mode, &hostfs_iops, hi) : NULL;
	if (!ino) {
		free(hi);
		host_close(fd);
		return -ENOMEM;
	}
	hi->fd = fd;
	hi->io_ok = io_ok;
	hi->writable_dev = wdev;
	hi->st = st;
	hi->st_gen = vfs_walk_gen;
	ino->dev = st.st_dev;
	*out = ino;
	return 0;
}

/* A cache of recent lookups: (superblock, directory, name) to the inode,
 * so that a walk costs one host call per component (an fstatat that checks
 * the name still leads to the same host file) instead of three (open,
 * fstat, close). A changed or removed host file fails the check and is
 * looked up again: the guest still sees the host as it is now. At most
 * HCACHE_MAX inodes (each an O_PATH host fd) are kept, least recently used
 * first out. */
#define HCACHE_MAX     128
#define HCACHE_BUCKETS 64

struct hcache_ent {
	struct list_head lru, hlink;
	struct super_block *sb;
	uint64_t dir_dev, dir_ino;
	char *name;
	struct inode *ino; /* owns a reference */
};

static struct list_head hc_buckets[HCACHE_BUCKETS];
static LIST_HEAD_DECL(hc_lru);
static int hc_count;

static struct list_head *hc_bucket(const struct inode *dir, const char *name)
{
	uint64_t h = dir->ino * 31 + dir->dev;
	int i;

	if (!hc_buckets[0].next)
		for (i = 0; i < HCACHE_BUCKETS; i++)
			list_init(&hc_buckets[i]);
	while (*name)
		h = h * 131 + (unsigned char)*name++;
	return &hc_buckets[h % HCACHE_BUCKETS];
}

static struct hcache_ent *hc_find(struct inode *dir, const char *name)
{
	struct hcache_ent *e;

	list_for_each_entry(e, hc_bucket(dir, name),
			    hlink) if (e->sb == dir->sb && e->dir_dev == dir->dev &&
				       e->dir_ino == dir->ino &&
				       strcmp(e->name, name) == 0) return e;
	return NULL;
}

static void hc_drop(struct hcache_ent *e)
{
	list_del(&e->lru);
	list_del(&e->hlink);
	inode_put(e->ino);
	free(e->name);
	free(e);
	hc_count--;
}

static void hc_add(struct inode *dir, const char *name, struct inode *ino)
{
	struct hcache_ent *e = calloc(1, sizeof(*e));

	if (!e || !(e->name = strdup(name))) {
		free(e);
		return; /* not cached: only slower */
	}
	if (hc_count >= HCACHE_MAX)
		hc_drop(list_entry(hc_lru.prev, struct hcache_ent, lru));
	e->sb = dir->sb;
	e->dir_dev = dir->dev;
	e->dir_ino = dir->ino;
	e->ino = ino;
	inode_get(ino);
	list_add(&e->lru, &hc_lru);
	list_add(&e->hlink, hc_bucket(dir, name));
	hc_count++;
}

/* name of dir changes through us: its cached inode goes. */
static void hc_forget(struct inode *dir, const char *name)
{
	struct hcache_ent *e = hc_find(dir, name);

	if (e)
		hc_drop(e);
}

static int hostfs_lookup(struct inode *dir, const char *name, struct inode **out)
{
	struct hcache_ent *e = hc_find(dir, name);
	struct linux_stat st;
	int fd, ret;

	if (e) {
		if (host_stat_at(hfd(dir), name, &st) == 0 && st.st_dev == e->ino->dev &&
		    st.st_ino == e->ino->ino &&
		    (st.st_mode & LINUX_S_IFMT) == (e->ino->mode & LINUX_S_IFMT)) {
			struct hostfs_inode *hi = e->ino->priv;

			list_del(&e->lru);
			list_add(&e->lru, &hc_lru);
			hi->st = st;
			hi->st_gen = vfs_walk_gen;
			inode_get(e->ino);
			*out = e->ino;
			return 0;
		}
		hc_drop(e);
	}
	fd = host_lookup_at(hfd(dir), name);
	if (fd < 0)
		return fd == -ELOOP ? -ENOENT : fd;
	ret = make_inode(dir->sb, fd, &dir->dev, out);
	if (ret == 0)
		hc_add(dir, name, *out);
	return ret;
}

/* Within the walk that looked the inode up, what the lookup saw (the walk
 * checks each directory's permissions right after finding it). */
static int hostfs_getattr(struct inode *ino, struct linux_stat *st)
{
	struct hostfs_inode *hi = ino->priv;

	if (vfs_walk_gen && hi->st_gen == vfs_walk_gen) {
		*st = hi->st;
		return 0;
	}
	return host_fstat(hfd(ino), st);
}

static long hostfs_readlink(struct inode *ino, char *buf, size_t n)
{
	return host_readlink_fd(hfd(ino), buf, n);
}

static int emit_host_dir(int fd, dir_emit_fn emit, void *ctx)
{
	char buf[8192];
	long n;
	int ret;

	while ((n = host_getdents64(fd, buf, sizeof(buf))) > 0) {
		long off = 0;

		while (off < n) {
			struct linux_dirent64 d;

			memcpy(&d, buf + off, offsetof(struct linux_dirent64, d_name));
			ret = emit(ctx, buf + off + offsetof(struct linux_dirent64, d_name),
				   d.d_ino, d.d_type);
			if (ret)
				return ret < 0 ? ret : 0;
			off += d.d_reclen;
		}
	}
	return n < 0 ? (int)n : 0;
}

static int hostfs_iterate(struct inode *dir, dir_emit_fn emit, void *ctx)
{
	int fd = host_reopen(hfd(dir), LINUX_O_RDONLY | LINUX_O_DIRECTORY), ret;

	if (fd < 0)
		return fd;
	ret = emit_host_dir(fd, emit, ctx);
	host_close(fd);
	return ret;
}

static int hostfs_open(struct inode *ino, struct file *f)
{
	struct hostfs_inode *hi = ino->priv;
	struct hostfs_priv *p;
	int fd;

	if (!hi->io_ok)
		return -EACCES;
	if (LINUX_S_ISDIR(ino->mode)) {
		f->ops = &hostfs_dir_ops;
		return 0;
	}
	fd = host_reopen(hi->fd, f->flags & ~LINUX_O_TMPFILE); /* O_DIRECTORY too */
	if (fd < 0)
		return fd;
	p = priv_alloc(!LINUX_S_ISREG(ino->mode));
	if (!p) {
		host_close(fd);
		return -ENOMEM;
	}
	f->host_fd = fd;
	f->priv = p;
	f->ops = &hostfs_file_ops;
	return 0;
}

static long hostfs_getxattr(struct inode *ino, const char *name, void *buf, size_t n)
{
	return host_fgetxattr(hfd(ino), name, buf, n);
}

static long hostfs_listxattr(struct inode *ino, char *buf, size_t n)
{
	return host_flistxattr(hfd(ino), buf, n);
}

static int hostfs_setxattr(struct inode *ino, const char *name, const void *val, size_t n,
			   int flags)
{
	if (ino->sb->rdonly)
		return -EROFS;
	return (int)host_fsetxattr(hfd(ino), name, val, n, flags);
}

static int hostfs_removexattr(struct inode *ino, const char *name)
{
	if (ino->sb->rdonly)
		return -EROFS;
	return (int)host_fremovexattr(hfd(ino), name);
}

static int hostfs_statfs(struct inode *ino, struct linux_statfs *st)
{
	return host_fstatfs(hfd(ino), st);
}

static int hostfs_mknod(struct inode *dir, const char *name, uint32_t mode, uint64_t rdev,
			const struct cred *c, struct inode **out)
{
	int ret;

	(void)c;
	if (dir->sb->rdonly)
		return -EROFS;
	if (LINUX_S_ISREG(mode)) {
		ret = host_create_at(hfd(dir), name, mode & 07777);
		if (ret >= 0)
			host_close(ret);
	} else if (LINUX_S_ISDIR(mode)) {
		ret = host_mkdir_at(hfd(dir), name, mode & 07777);
	} else {
		ret = host_mknod_at(hfd(dir), name, mode, rdev);
	}
	if (ret < 0)
		return ret;
	return out ? hostfs_lookup(dir, name, out) : 0;
}

/* O_TMPFILE: the host's own unnamed file (its fd, read-write, stands for
 * the inode); the host says EOPNOTSUPP if its filesystem cannot. */
static int hostfs_tmpfile(struct inode *dir, uint32_t mode, const struct cred *c, bool linkable,
			  struct inode **out)
{
	int fd;

	(void)c;
	if (dir->sb->rdonly)
		return -EROFS;
	fd = host_tmpfile_at(hfd(dir), mode & 07777, !linkable);
	if (fd < 0)
		return fd;
	return make_inode(dir->sb, fd, &dir->dev, out);
}

static int hostfs_symlink(struct inode *dir, const char *name, const char *target,
			  const struct cred *c)
{
	(void)c;
	if (dir->sb->rdonly)
		return -EROFS;
	return host_symlink_at(target, hfd(dir), name);
}

static int hostfs_link(struct inode *dir, const char *name, struct inode *old)
{
	if (dir->sb->rdonly)
		return -EROFS;
	if (old->iop != &hostfs_iops)
		return -EXDEV;
	return host_link_at(hfd(old), hfd(dir), name);
}

static int hostfs_unlink(struct inode *dir, const char *name, bool is_dir)
{
	if (dir->sb->rdonly)
		return -EROFS;
	hc_forget(dir, name);
	return host_unlink_at(hfd(dir), name, is_dir);
}

static int hostfs_rename(struct inode *odir, const char *oname, struct inode *ndir,
			 const char *nname, unsigned flags)
{
	if (odir->sb->rdonly)
		return -EROFS;
	if (ndir->iop != &hostfs_iops)
		return -EXDEV;
	hc_forget(odir, oname);
	hc_forget(ndir, nname);
	return host_rename_at(hfd(odir), oname, hfd(ndir), nname, flags);
}

static int hostfs_setattr(struct inode *ino, const struct iattr *ia)
{
	int ret = 0;

	if (ino->sb->rdonly)
		return -EROFS;
	if (ia->valid & ATTR_MODE)
		ret = host_chmod_fd(hfd(ino), ia->mode & 07777);
	if (ret == 0 && (ia->valid & (ATTR_UID | ATTR_GID)))
		ret = host_chown_fd(hfd(ino), (ia->valid & ATTR_UID) ? ia->uid : (uint32_t)-1,
				    (ia->valid & ATTR_GID) ? ia->gid : (uint32_t)-1);
	if (ret == 0 && (ia->valid & ATTR_SIZE))
		ret = host_truncate_fd(hfd(ino), ia->size);
	if (ret == 0 && (ia->valid & (ATTR_ATIME | ATTR_MTIME))) {
		struct linux_timespec ts[2] = { ia->atime, ia->mtime };

		if (!(ia->valid & ATTR_ATIME))
			ts[0].tv_nsec = (1L << 30) - 2; /* UTIME_OMIT */
		if (!(ia->valid & ATTR_MTIME))
			ts[1].tv_nsec = (1L << 30) - 2;
		ret = host_utimens_fd(hfd(ino), ts);
	}
	return ret;
}

static void hostfs_inode_release(struct inode *ino)
{
	struct hostfs_inode *hi = ino->priv;

	host_close(hi->fd);
	free(hi);
}

static const struct inode_ops hostfs_iops = {
	.lookup = hostfs_lookup,
	.mknod = hostfs_mknod,
	.symlink = hostfs_symlink,
	.tmpfile = hostfs_tmpfile,
	.link = hostfs_link,
	.unlink = hostfs_unlink,
	.rename = hostfs_rename,
	.readlink = hostfs_readlink,
	.getattr = hostfs_getattr,
	.setattr = hostfs_setattr,
	.iterate = hostfs_iterate,
	.open = hostfs_open,
	.getxattr = hostfs_getxattr,
	.setxattr = hostfs_setxattr,
	.listxattr = hostfs_listxattr,
	.removexattr = hostfs_removexattr,
	.statfs = hostfs_statfs,
	.release = hostfs_inode_release,
};

static void hostfs_put_super(struct super_block *sb)
{
	struct hcache_ent *e, *n;

	list_for_each_entry_safe(e, n, &hc_lru, lru) if (e->sb == sb) hc_drop(e);
	free(sb);
}

int hostfs_mount(const char *host_dir, bool rdonly, struct super_block **sbp, struct inode **root)
{
	struct super_block *sb = calloc(1, sizeof(*sb));
	int fd, ret;

	if (!sb)
		return -ENOMEM;
	sb->fstype = "hostfs";
	sb->rdonly = rdonly;
	sb->put_super = hostfs_put_super;
	sb->magic = 0x00c0ffee;
	fd = host_open_root(host_dir);
	if (fd < 0) {
		free(sb);
		return fd;
	}
	ret = make_inode(sb, fd, NULL, root);
	if (ret < 0) {
		free(sb);
		return ret;
	}
	sb->dev = (*root)->dev;
	*sbp = sb;
	return 0;
}

int hostfs_stdio(int host_fd, unsigned flags, struct file **out)
{
	struct hostfs_priv *p;
	struct linux_stat st;
	struct file *f;

	if (host_fstat(host_fd, &st) < 0)
		return -EBADF;
	p = priv_alloc(!LINUX_S_ISREG(st.st_mode) && !LINUX_S_ISDIR(st.st_mode));
	if (!p)
		return -ENOMEM;
	p->tty = host_fd_is_tty(host_fd);
	f = file_alloc(&hostfs_file_ops, flags, host_fd, NULL);
	if (!f) {
		free(p);
		return file_alloc_error();
	}
	f->priv = p;
	*out = f;
	return 0;
}
