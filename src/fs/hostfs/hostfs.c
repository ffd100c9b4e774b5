/* fs/hostfs/hostfs.c: host files seen by the guest. Lookups open an O_PATH
 * fd relative to the parent's, with O_NOFOLLOW: the VFS follows symlinks
 * itself, so a host symlink or ".." never leads out. What procfs, sysfs and
 * the like hold is hidden; host block devices and sockets cannot be
 * opened, a host FIFO opens a named pipe of the instance's own (no open
 * waits for the host's other side). Open files, and the
 * host's stdio as guest files, are in file.c. */
#include <stdlib.h>
#include <string.h>

#include "fs/hostfs/hostfs.h"
#include "fs/hostfs/file.h"
#include "vfs/file.h"
#include "vfs/devices.h"
#include "vfs/namei.h"
#include "vfs/pipe.h"
#include "vfs/readdir.h"
#include "host/host.h"
#include "kernel/sched.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/stat.h"

struct hostfs_inode {
	int fd;	   /* O_PATH */
	int rd_fd; /* O_RDONLY, shared by its read-only files (hostfs_open), or -1 */
	bool io_ok, writable_dev;
	struct linux_stat st; /* as the host said at epoch st_epoch */
	uint64_t st_epoch;
	/* What the host's statx said besides, at the same time: its birth
	 * time (if its filesystem keeps one) and its filesystem's attributes
	 * (hostfs_getattr_x). */
	struct linux_statx_timestamp btime;
	bool has_btime;
	uint64_t attrs, attrs_mask;
	/* A symlink's target, once read: fd names that host symlink, whose
	 * target cannot change (a new one at the name is a new inode). */
	char *link;
	size_t link_len;
};

static const struct inode_ops hostfs_iops;

static int hfd(struct inode *ino)
{
	return ((struct hostfs_inode *)ino->priv)->fd;
}

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

/* What the host said of a file (its attributes, that a name leads to it)
 * holds for the rest of the stretch of kernel work that asked
 * (sched_stretch), until skas itself does something to a host file
 * (hostfs_touched): nothing else ran in between, so the guest cannot tell
 * it from a fresh answer (a host change made meanwhile is one made just
 * after). The epoch numbers those spans; 0 is none. */
static uint64_t epoch = 1, epoch_stretch;

static uint64_t attr_epoch(void)
{
	if (epoch_stretch != sched_stretch) {
		epoch_stretch = sched_stretch;
		epoch++;
	}
	return epoch;
}

void hostfs_touched(void)
{
	epoch++;
}

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

/* The statx attributes a host filesystem has of its own (not the host's
 * mounts', which are not the guest's). */
#define HOST_FS_ATTRS                                                                         \
	(LINUX_STATX_ATTR_COMPRESSED | LINUX_STATX_ATTR_IMMUTABLE | LINUX_STATX_ATTR_APPEND | \
	 LINUX_STATX_ATTR_NODUMP | LINUX_STATX_ATTR_ENCRYPTED | LINUX_STATX_ATTR_VERITY)

/* The host's statx of fd (one host call, as an fstat): stat's fields in
 * *st; its birth time and attributes in hi if it is not NULL. */
static int host_attrs(int fd, struct linux_stat *st, struct hostfs_inode *hi)
{
	struct linux_statx stx;
	int ret = host_statx(fd, LINUX_STATX_BASIC_STATS | LINUX_STATX_BTIME, &stx);

	if (ret < 0)
		return ret;
	statx_to_stat(&stx, st);
	if (hi) {
		hi->has_btime = stx.stx_mask & LINUX_STATX_BTIME;
		hi->btime = stx.stx_btime;
		hi->attrs = stx.stx_attributes & HOST_FS_ATTRS;
		hi->attrs_mask = stx.stx_attributes_mask & HOST_FS_ATTRS;
	}
	return 0;
}

/* An inode for the O_PATH host fd (taken over). dir_dev is the parent's
 * st_dev: a file on the same host filesystem as its allowed parent needs
 * no filesystem check, which saves two host calls per path component. */
static int make_inode(struct super_block *sb, int fd, const uint64_t *dir_dev, struct inode **out)
{
	struct hostfs_inode *hi, x;
	struct linux_stat st;
	struct inode *ino;
	bool io_ok, wdev;
	int ret;

	ret = host_attrs(fd, &st, &x);
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
	hi->rd_fd = -1;
	hi->io_ok = io_ok;
	hi->writable_dev = wdev;
	hi->st = st;
	hi->st_epoch = attr_epoch();
	hi->has_btime = x.has_btime;
	hi->btime = x.btime;
	hi->attrs = x.attrs;
	hi->attrs_mask = x.attrs_mask;
	ino->dev = st.st_dev;
	*out = ino;
	return 0;
}

/* A cache of recent lookups: (superblock, directory, name) to the inode,
 * so that a walk costs one host call per component (an fstatat that checks
 * the name still leads to the same host file; none if that was seen in the
 * same epoch) instead of three (open, fstat, close). A changed or removed
 * host file fails the check and is looked up again: the guest still sees
 * the host as it is now. At most hc_max inodes (each an O_PATH host fd)
 * are kept, least recently used first out: enough that what the dcache
 * above lets go after its second (a compiler's headers and libraries)
 * comes back at one fstatat, not an openat, an fstat and a close. */
#define HCACHE_MAX     1024
#define HCACHE_BUCKETS 256
static int hc_max = 128;

struct hcache_ent {
	struct list_head lru, hlink;
	struct super_block *sb;
	uint64_t dir_dev, dir_ino;
	char *name;
	struct inode *ino; /* owns a reference */
	uint64_t epoch;	   /* when name was last seen to lead to ino */
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
	if (hc_count >= hc_max)
		hc_drop(list_entry(hc_lru.prev, struct hcache_ent, lru));
	e->sb = dir->sb;
	e->dir_dev = dir->dev;
	e->dir_ino = dir->ino;
	e->ino = ino;
	e->epoch = attr_epoch();
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
		struct hostfs_inode *hi = e->ino->priv;

		if (e->epoch == attr_epoch() ||
		    (host_stat_at(hfd(dir), name, &st) == 0 && st.st_dev == e->ino->dev &&
		     st.st_ino == e->ino->ino &&
		     (st.st_mode & LINUX_S_IFMT) == (e->ino->mode & LINUX_S_IFMT))) {
			list_del(&e->lru);
			list_add(&e->lru, &hc_lru);
			if (e->epoch != attr_epoch()) {
				hi->st = st;
				hi->st_epoch = e->epoch = attr_epoch();
			}
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

/* What the host said in this epoch, if it said it: a walk checks each
 * directory's permissions right after its lookup, and the call then looks
 * at the file it found (stat, open's permission check, execve's). */
static int hostfs_getattr(struct inode *ino, struct linux_stat *st)
{
	struct hostfs_inode *hi = ino->priv;
	int ret;

	if (hi->st_epoch == attr_epoch()) {
		*st = hi->st;
		return 0;
	}
	ret = host_attrs(hfd(ino), st, hi);
	if (ret == 0) {
		hi->st = *st;
		hi->st_epoch = attr_epoch();
	}
	return ret;
}

/* What getattr's host call said (statx_path calls getattr first). */
static void hostfs_getattr_x(struct inode *ino, unsigned mask, struct linux_statx *stx)
{
	struct hostfs_inode *hi = ino->priv;

	if ((mask & LINUX_STATX_BTIME) && hi->has_btime) {
		stx->stx_mask |= LINUX_STATX_BTIME;
		stx->stx_btime = hi->btime;
	}
	stx->stx_attributes |= hi->attrs;
	stx->stx_attributes_mask |= hi->attrs_mask;
}

static long hostfs_readlink(struct inode *ino, char *buf, size_t n)
{
	struct hostfs_inode *hi = ino->priv;
	char target[LINUX_PATH_MAX];
	long r;

	if (!hi->link) {
		hostfs_touched(); /* the link's atime */
		r = host_readlink_fd(hi->fd, target, sizeof(target));
		if (r < 0 || (size_t)r >= sizeof(target))
			return r < 0 ? r : host_readlink_fd(hi->fd, buf, n);
		hi->link = malloc((size_t)r ? (size_t)r : 1);
		if (!hi->link) {
			if ((size_t)r > n)
				r = (long)n;
			memcpy(buf, target, (size_t)r);
			return r;
		}
		memcpy(hi->link, target, (size_t)r);
		hi->link_len = (size_t)r;
	}
	r = (long)(hi->link_len < n ? hi->link_len : n);
	memcpy(buf, hi->link, (size_t)r);
	return r;
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
	hostfs_touched(); /* the directory's atime */
	ret = emit_host_dir(fd, emit, ctx);
	host_close(fd);
	return ret;
}

/* Read-only opens of a regular file share one host description, kept
 * with the inode: the file keeps its position itself (file.c), so a
 * second open and every close cost no host call (a reopen through
 * /proc/self/fd is ~3.5 µs here, a close ~0.5). Flags that change how
 * the host reads (O_DIRECT, O_NOATIME) get a description of their own.
 * At most SHARED_MAX inodes hold one, so that cached inodes do not
 * double the kernel's host fds. */
#define SHARED_MAX 256
static int nshared;

/* The inode's shared fd for an open with flags: 1 with it in *fd, 0 if
 * the open gets a description of its own, or -errno. A failure is never
 * kept: the next open asks the host again. */
static int shared_fd(struct inode *ino, unsigned flags, int *fd)
{
	struct hostfs_inode *hi = ino->priv;
	int nfd;

	if (!LINUX_S_ISREG(ino->mode) || (flags & LINUX_O_ACCMODE) != LINUX_O_RDONLY ||
	    (flags & (LINUX_O_DIRECT | LINUX_O_NOATIME)))
		return 0;
	if (hi->rd_fd < 0) {
		if (nshared >= SHARED_MAX)
			return 0;
		nfd = host_reopen(hi->fd, LINUX_O_RDONLY);
		if (nfd < 0)
			return nfd;
		hi->rd_fd = nfd;
		nshared++;
	}
	*fd = hi->rd_fd;
	return 1;
}

static int hostfs_open(struct inode *ino, struct file *f)
{
	struct hostfs_inode *hi = ino->priv;
	int fd, ret;

	/* A host FIFO is a named pipe of the instance's own: its processes
	 * talk through it, a host process at the host's pipe is not reached
	 * (nothing of the guest goes out by it, no open waits on the host),
	 * as a FIFO of Linux's overlayfs has the overlay inode's pipe. */
	if (LINUX_S_ISFIFO(ino->mode))
		return fifo_open_host(ino->dev, ino->ino, f);
	if (!hi->io_ok)
		return -EACCES;
	if (LINUX_S_ISDIR(ino->mode)) {
		f->ops = &hostfs_dir_ops;
		return 0;
	}
	ret = shared_fd(ino, f->flags, &fd);
	if (ret < 0)
		return ret;
	if (ret > 0)
		return hostfs_file_init_shared(f, fd);
	/* O_DIRECTORY too; a device (null, zero, random, urandom) is a stream
	 * with a description of our own. */
	fd = host_reopen(hi->fd, (f->flags & ~LINUX_O_TMPFILE) |
					 (LINUX_S_ISREG(ino->mode) ? 0 : LINUX_O_NONBLOCK));
	if (fd < 0)
		return fd;
	ret = hostfs_file_init(f, fd, !LINUX_S_ISREG(ino->mode));
	if (ret < 0)
		host_close(fd);
	return ret;
}

static long hostfs_getxattr(struct inode *ino, const char *name, void *buf, size_t n)
{
	return host_fgetxattr(hfd(ino), LINUX_S_ISLNK(ino->mode), name, buf, n);
}

/* A host file's chattr flags, for reading only: a host file is not made
 * immutable or append-only from inside (FS_IOC_SETFLAGS is ENOTTY), and
 * the host enforces its own flags on its files. */
static int hostfs_fileattr_get(struct inode *ino, uint32_t *flags)
{
	int ret;

	if (!LINUX_S_ISREG(ino->mode) && !LINUX_S_ISDIR(ino->mode))
		return -ENOIOCTLCMD;
	ret = host_getflags(hfd(ino), flags);
	return ret == -ENOTTY ? -ENOIOCTLCMD : ret;
}

static int hostfs_fileattr_set(struct inode *ino, uint32_t flags)
{
	(void)ino;
	(void)flags;
	return -ENOIOCTLCMD;
}

static long hostfs_listxattr(struct inode *ino, char *buf, size_t n)
{
	return host_flistxattr(hfd(ino), LINUX_S_ISLNK(ino->mode), buf, n);
}

static int hostfs_setxattr(struct inode *ino, const char *name, const void *val, size_t n,
			   int flags)
{
	if (ino->sb->rdonly)
		return -EROFS;
	hostfs_touched();
	return (int)host_fsetxattr(hfd(ino), LINUX_S_ISLNK(ino->mode), name, val, n, flags);
}

static int hostfs_removexattr(struct inode *ino, const char *name)
{
	if (ino->sb->rdonly)
		return -EROFS;
	hostfs_touched();
	return (int)host_fremovexattr(hfd(ino), LINUX_S_ISLNK(ino->mode), name);
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
	hostfs_touched();
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
	hostfs_touched();
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
	hostfs_touched();
	return host_symlink_at(target, hfd(dir), name);
}

static int hostfs_link(struct inode *dir, const char *name, struct inode *old)
{
	if (dir->sb->rdonly)
		return -EROFS;
	hostfs_touched();
	if (old->iop != &hostfs_iops)
		return -EXDEV;
	return host_link_at(hfd(old), hfd(dir), name);
}

static int hostfs_unlink(struct inode *dir, const char *name, bool is_dir)
{
	if (dir->sb->rdonly)
		return -EROFS;
	hostfs_touched();
	hc_forget(dir, name);
	return host_unlink_at(hfd(dir), name, is_dir);
}

static int hostfs_rename(struct inode *odir, const char *oname, struct inode *ndir,
			 const char *nname, unsigned flags)
{
	if (odir->sb->rdonly)
		return -EROFS;
	hostfs_touched();
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
	hostfs_touched();
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

	if (hi->rd_fd >= 0) {
		host_close(hi->rd_fd);
		nshared--;
	}
	host_close(hi->fd);
	free(hi->link);
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
	.getattr_x = hostfs_getattr_x,
	.setattr = hostfs_setattr,
	.iterate = hostfs_iterate,
	.open = hostfs_open,
	.getxattr = hostfs_getxattr,
	.fileattr_get = hostfs_fileattr_get,
	.fileattr_set = hostfs_fileattr_set,
	.setxattr = hostfs_setxattr,
	.listxattr = hostfs_listxattr,
	.removexattr = hostfs_removexattr,
	.statfs = hostfs_statfs,
	.release = hostfs_inode_release,
};

void hostfs_set_cache_max(long host_fds)
{
	hc_max = host_fds < 128 ? 128 : host_fds > HCACHE_MAX ? HCACHE_MAX : (int)host_fds;
}

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
