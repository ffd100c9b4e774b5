/* fs/overlay/overlay.c: overlayfs's rules on skas's own filesystems. A name
 * is looked up in the upper directory first; a whiteout there (a character
 * device 0/0) hides the lower one; an opaque upper directory hides the
 * whole lower directory. Writes, metadata changes, links and renames copy
 * the file (and its parents) up first; removing a lower name leaves a
 * whiteout; reading a directory merges both. A directory with lower
 * content moves as with overlayfs's redirect_dir=on: its upper copy keeps
 * its lower directory (a redirect), which a lookup of the new name merges
 * instead of the lower one of that name. The lower filesystem never
 * changes. */
#include <stdlib.h>
#include <string.h>

#include "fs/overlay/overlay.h"
#include "fs/tmpfs/tmpfs.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "vfs/pipe.h"
#include "vfs/acl.h"
#include "vfs/devices.h"
#include "kernel/cred.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/ioctl.h"
#include "abi/linux/poll.h"
#include "abi/linux/stat.h"

struct ovl_node {
	struct inode *upper, *lower; /* each owns a reference, or NULL */
	struct inode *parent;	     /* the overlay parent (a reference), NULL at root */
	char *name;
	struct list_head lower_only; /* on lower_only_nodes while lower && !upper */
};

/* Every overlay inode that has a lower inode and no upper one. Lookups of
 * one name made at different times (an open file, the cwd, a lookup after
 * the name cache was emptied) give different overlay inodes: when one is
 * copied up, the others of the same lower file at the same name take the
 * copy too, or they would go on reading the lower file and copy it up
 * again over the first copy. */
static LIST_HEAD_DECL(lower_only_nodes);

static const struct inode_ops ovl_iops;

static struct ovl_node *O(const struct inode *i)
{
	return i->priv;
}

static struct inode *real(const struct inode *i)
{
	return O(i)->upper ? O(i)->upper : O(i)->lower;
}

static bool is_whiteout(struct inode *i)
{
	struct linux_stat st;

	if (!LINUX_S_ISCHR(i->mode))
		return false;
	return vfs_getattr(i, &st) == 0 && st.st_rdev == 0;
}

static struct inode *ovl_inode(struct super_block *sb, struct inode *upper, struct inode *lower,
			       struct inode *parent, const char *name)
{
	struct ovl_node *n = calloc(1, sizeof(*n));
	struct inode *r = upper ? upper : lower, *ino;
	uint64_t dev = sb->dev, nr = upper ? upper->ino : 0;

	if (!n || !(n->name = strdup(name))) {
		free(n);
		return NULL;
	}

	/* A file's number is the lower one's, also once copied up (its
	 * origin), under every name: git's local clone links a lower file
	 * and checks that the new name shows the same device and number
	 * (the copy's own made it die: "hardlink different from source"). */
	if (lower) {
		dev = lower->dev;
		nr = lower->ino;
	} else if (!LINUX_S_ISDIR(upper->mode)) {
		tmpfs_origin(upper, &dev, &nr);
	}
	ino = inode_new(sb, nr, r->mode, &ovl_iops, n);
	if (!ino) {
		free(n->name);
		free(n);
		return NULL;
	}
	ino->dev = dev;
	n->upper = upper;
	n->lower = lower;
	n->parent = parent;
	if (parent)
		inode_get(parent);
	list_init(&n->lower_only);
	if (lower && !upper)
		list_add(&n->lower_only, &lower_only_nodes);
	return ino;
}

static bool same_inode(const struct inode *a, const struct inode *b)
{
	return a == b || (a && b && a->dev == b->dev && a->ino == b->ino);
}

/* n was just copied up: the other overlay inodes of its lower file at the
 * same name in the same directory share the copy. */
static void share_copy_up(struct ovl_node *n)
{
	struct ovl_node *m, *tmp;

	list_del(&n->lower_only);
	list_for_each_entry_safe(m, tmp, &lower_only_nodes, lower_only)
	{
		if (!same_inode(m->lower, n->lower) || strcmp(m->name, n->name) != 0 ||
		    !m->parent || !same_inode(O(m->parent)->lower, O(n->parent)->lower))
			continue;
		inode_get(n->upper);
		m->upper = n->upper;
		list_del(&m->lower_only);
	}
}

static int ovl_lookup(struct inode *dir, const char *name, struct inode **out)
{
	struct ovl_node *d = O(dir);
	struct inode *u = NULL, *l = NULL;
	int lret = -ENOENT;

	if (d->upper && d->upper->iop->lookup(d->upper, name, &u) == 0 && is_whiteout(u)) {
		inode_put(u);
		return -ENOENT;
	}
	if (u && LINUX_S_ISDIR(u->mode) && tmpfs_redirect(u)) {
		l = tmpfs_redirect(u); /* a moved directory's own lower one */
		inode_get(l);
	} else if ((!u || (LINUX_S_ISDIR(u->mode) && !tmpfs_is_opaque(u))) && d->lower &&
		   LINUX_S_ISDIR(d->lower->mode) &&
		   (lret = d->lower->iop->lookup(d->lower, name, &l)) == 0) {
		if (u && !LINUX_S_ISDIR(l->mode)) {
			inode_put(l);
			l = NULL;
		}
	}
	/* The kernel out of host fds is not "no such file". */
	if (!u && !l)
		return lret == -EMFILE || lret == -ENFILE ? -ENFILE : -ENOENT;
	*out = ovl_inode(dir->sb, u, l, dir, name);
	if (!*out) {
		inode_put(u);
		inode_put(l);
		return -ENOMEM;
	}
	return 0;
}

static int ovl_getattr(struct inode *ino, struct linux_stat *st)
{
	int ret = vfs_getattr(real(ino), st);

	if (ret == 0) {
		st->st_dev = ino->dev;
		st->st_ino = ino->ino;
		/* Every directory is the overlay's, as Linux's overlayfs
		 * says, so that find -xdev, du -x and df go on into
		 * directories made inside (which had the upper tmpfs's
		 * device, under lower ones with the host's: find / -xdev
		 * skipped them, df . called one a mount point). */
		if (LINUX_S_ISDIR(st->st_mode))
			st->st_dev = ino->sb->dev;
	}
	return ret;
}

/* Linux's ovl_getattr: the real file's (its statx, as its stat). */
static void ovl_getattr_x(struct inode *ino, unsigned mask, struct linux_statx *stx)
{
	struct inode *r = real(ino);

	if (r->iop->getattr_x)
		r->iop->getattr_x(r, mask, stx);
}

static long ovl_readlink(struct inode *ino, char *buf, size_t n)
{
	struct inode *r = real(ino);

	return r->iop->readlink ? r->iop->readlink(r, buf, n) : -EINVAL;
}

/* Copies a lower file's bytes into a new upper file. */
static int copy_data(struct inode *from, struct inode *to, uint64_t size)
{
	struct file *src = file_alloc(NULL, LINUX_O_RDONLY, -1, NULL);
	struct file *dst = file_alloc(NULL, LINUX_O_WRONLY, -1, NULL);
	char *buf = malloc(1 << 16);
	uint64_t off = 0;
	int ret = -ENOMEM;

	if (!src || !dst || !buf) {
		ret = !src || !dst ? file_alloc_error() : -ENOMEM;
		goto out;
	}
	src->inode = from;
	inode_get(from);
	dst->inode = to;
	inode_get(to);
	ret = from->iop->open(from, src);
	if (ret == 0)
		ret = to->iop->open(to, dst);
	while (ret == 0 && off < size) {
		long n = src->ops->pread(src, buf, 1 << 16, (int64_t)off);

		if (n <= 0) {
			ret = (int)n;
			break;
		}
		n = dst->ops->pwrite(dst, buf, (size_t)n, (int64_t)off);
		if (n <= 0) {
			ret = n < 0 ? (int)n : -EIO;
			break;
		}
		off += (uint64_t)n;
	}
out:
	free(buf);
	if (src) {
		if (!src->ops)
			src->ops = &path_file_ops;
		file_put(src);
	}
	if (dst) {
		if (!dst->ops)
			dst->ops = &path_file_ops;
		file_put(dst);
	}
	return ret;
}

/* Gives ino, whose parent has one, an upper copy. */
static int copy_up_one(struct inode *ino)
{
	struct ovl_node *n = O(ino);
	struct inode *pu, *u = NULL;
	struct linux_stat st, pst;
	struct iattr ia;
	bool named = true;
	int ret;

	pu = O(n->parent)->upper;
	ret = vfs_getattr(n->lower, &st);
	if (ret == 0)
		ret = vfs_getattr(pu, &pst);
	if (ret < 0)
		return ret;
	/* The name taken in the upper layer (a whiteout, or a new file) means
	 * this inode's name was removed since its lookup (an open file, the
	 * cwd): a regular file is copied up unnamed, as an unlinked file;
	 * anything else is gone. */
	if (pu->iop->lookup(pu, n->name, &u) == 0) {
		inode_put(u);
		u = NULL;
		if (!LINUX_S_ISREG(st.st_mode) || !pu->iop->tmpfile)
			return -ENOENT;
		named = false;
		ret = pu->iop->tmpfile(pu, st.st_mode, NULL, false, &u);
		if (ret == 0 && st.st_size > 0)
			ret = copy_data(n->lower, u, (uint64_t)st.st_size);
	} else if (LINUX_S_ISLNK(st.st_mode)) {
		char target[4097];
		long len = n->lower->iop->readlink(n->lower, target, sizeof(target) - 1);

		if (len < 0)
			return (int)len;
		target[len] = 0;
		ret = pu->iop->symlink(pu, n->name, target, NULL);
		if (ret == 0)
			ret = pu->iop->lookup(pu, n->name, &u);
	} else {
		ret = pu->iop->mknod(pu, n->name, st.st_mode, st.st_rdev, NULL, &u);
		if (ret == 0 && LINUX_S_ISDIR(st.st_mode))
			tmpfs_set_opaque(u, false);
		if (ret == 0 && LINUX_S_ISREG(st.st_mode) && st.st_size > 0)
			ret = copy_data(n->lower, u, (uint64_t)st.st_size);
	}
	if (ret < 0) {
		inode_put(u);
		return ret;
	}
	memset(&ia, 0, sizeof(ia));
	ia.valid = ATTR_UID | ATTR_GID | ATTR_ATIME | ATTR_MTIME |
		   (LINUX_S_ISLNK(st.st_mode) ? 0 : ATTR_MODE);
	ia.mode = st.st_mode;
	ia.uid = st.st_uid;
	ia.gid = st.st_gid;
	ia.atime.tv_sec = st.st_atime_sec;
	ia.atime.tv_nsec = st.st_atime_nsec;
	ia.mtime.tv_sec = st.st_mtime_sec;
	ia.mtime.tv_nsec = st.st_mtime_nsec;
	u->iop->setattr(u, &ia);
	/* The parent's times stay (Linux's ovl_set_timestamps after a
	 * copy-up): the name was there before, as far as anyone sees. */
	if (named) {
		memset(&ia, 0, sizeof(ia));
		ia.valid = ATTR_ATIME | ATTR_MTIME;
		ia.atime.tv_sec = pst.st_atime_sec;
		ia.atime.tv_nsec = pst.st_atime_nsec;
		ia.mtime.tv_sec = pst.st_mtime_sec;
		ia.mtime.tv_nsec = pst.st_mtime_nsec;
		pu->iop->setattr(pu, &ia);
	}
	if (!LINUX_S_ISDIR(st.st_mode))
		tmpfs_set_origin(u, n->lower->dev, n->lower->ino);
	n->upper = u;
	share_copy_up(n);
	return 0;
}

/* Gives ino an upper copy, its parents first: from the one nearest the
 * root that has none, down. A loop, not a recursion, so a deep host tree
 * costs no kernel stack. */
static int copy_up(struct inode *ino)
{
	for (;;) {
		struct inode *top = ino;
		int ret;

		if (O(ino)->upper)
			return 0;
		while (O(top)->parent && !O(O(top)->parent)->upper)
			top = O(top)->parent;
		if (!O(top)->parent)
			return -EROFS;
		ret = copy_up_one(top);
		if (ret < 0)
			return ret;
	}
}

static int ovl_setattr(struct inode *ino, const struct iattr *ia)
{
	int ret = copy_up(ino);

	if (ret < 0)
		return ret;
	return O(ino)->upper->iop->setattr(O(ino)->upper, ia);
}

/* A regular file opened read-only while its name has no upper file
 * reads through the lower file until the name is copied up (an open for
 * writing, a chmod, a link, by anyone); then through the copy, from the
 * same position: Linux's overlayfs file (ovl_real_fdget, since 4.19),
 * where a descriptor opened before the copy-up sees the writes made
 * after it. Its mappings, made before or after, map the lower file
 * (ovl_mmap maps the file the open made). */
struct ovl_file {
	struct file *lower; /* opened with it (a reference) */
	struct file *upper; /* opened once the name was copied up, or NULL */
	struct inode *ovl;  /* the overlay inode (a reference) */
};

static const struct file_ops ovl_file_ops;
static const struct file_ops ovl_no_ops;

/* *out: f's real file opened afresh on the real inode r, with f's
 * flags and path. */
static int open_real(struct file *f, struct inode *r, struct file **out)
{
	struct file *n = file_alloc_backing(
		f->flags & ~(LINUX_O_CREAT | LINUX_O_EXCL | LINUX_O_TRUNC), &f->path);
	int ret;

	if (!n)
		return -ENOMEM;
	inode_get(r);
	inode_put(n->inode);
	n->inode = r;
	ret = r->iop->open(r, n);
	if (ret < 0) {
		n->ops = &ovl_no_ops;
		n->priv = NULL;
		file_put(n);
		return ret;
	}
	*out = n;
	return 0;
}

static int open_lower(struct inode *ino, struct file *f)
{
	struct ovl_file *of = calloc(1, sizeof(*of));
	struct inode *r = O(ino)->lower;
	int ret;

	if (!of)
		return -ENOMEM;
	ret = open_real(f, r, &of->lower);
	if (ret < 0) {
		free(of);
		return ret;
	}
	/* the lower file holds the host fd and may outlive f in mappings:
	 * it is the one --nofile counts */
	file_pass_count(f, of->lower);
	of->ovl = ino;
	inode_get(ino);
	inode_get(r);
	inode_put(f->inode);
	f->inode = r;
	f->ops = &ovl_file_ops;
	f->priv = of;
	return 0;
}

/* f's real file for reads and the rest: the upper one once the name has
 * been copied up, opened then at the position the lower one had; the
 * lower one until then, or if that open fails (no memory). */
static struct file *real_file(struct file *f)
{
	struct ovl_file *of = f->priv;
	struct inode *up = O(of->ovl)->upper;
	struct file *lo = of->lower, *n;
	int64_t pos;

	if (of->upper)
		return of->upper;
	if (!up)
		return lo;
	pos = lo->ops->llseek ? lo->ops->llseek(lo, 0, LINUX_SEEK_CUR) : lo->pos;
	if (open_real(f, up, &n) < 0)
		return lo;
	if (pos > 0 && n->ops->llseek)
		n->ops->llseek(n, pos, LINUX_SEEK_SET);
	else if (pos > 0)
		n->pos = pos;
	of->upper = n;
	inode_get(up);
	inode_put(f->inode);
	f->inode = up;
	return n;
}

static long ovl_f_read(struct file *f, void *buf, size_t n)
{
	return file_op_read(real_file(f), buf, n);
}

static long ovl_f_write(struct file *f, const void *buf, size_t n)
{
	return file_op_write(real_file(f), buf, n);
}

static long ovl_f_pread(struct file *f, void *buf, size_t n, int64_t off)
{
	return file_op_pread(real_file(f), buf, n, off);
}

static long ovl_f_pwrite(struct file *f, const void *buf, size_t n, int64_t off)
{
	return file_op_pwrite(real_file(f), buf, n, off);
}

static int64_t ovl_f_llseek(struct file *f, int64_t off, int whence)
{
	return file_op_llseek(real_file(f), off, whence);
}

static int ovl_f_stat(struct file *f, struct linux_stat *st)
{
	return file_stat(real_file(f), st);
}

static long ovl_f_ioctl(struct file *f, struct task *t, unsigned cmd, uint64_t arg)
{
	return file_op_ioctl(real_file(f), t, cmd, arg);
}

static unsigned ovl_f_poll(struct file *f, struct poll_table *pt)
{
	return file_op_poll(real_file(f), pt);
}

static int ovl_f_mmap_fd(struct file *f)
{
	return file_op_mmap_fd(((struct ovl_file *)f->priv)->lower);
}

static struct file *ovl_f_mmap_file(struct file *f)
{
	return ((struct ovl_file *)f->priv)->lower;
}

static int ovl_f_setfl(struct file *f, unsigned flags)
{
	struct ovl_file *of = f->priv;
	struct file *r = real_file(f);
	int ret = r->ops->setfl ? r->ops->setfl(r, flags) : 0;

	if (ret == 0)
		of->lower->flags = r->flags = flags;
	return ret;
}

static long ovl_f_fallocate(struct file *f, int mode, int64_t off, int64_t len)
{
	struct file *r = real_file(f);

	return r->ops->fallocate ? r->ops->fallocate(r, mode, off, len) : -EOPNOTSUPP;
}

static void ovl_f_release(struct file *f)
{
	struct ovl_file *of = f->priv;

	if (!of)
		return;
	file_put(of->upper);
	file_put(of->lower);
	inode_put(of->ovl);
	free(of);
}

static const struct file_ops ovl_file_ops = {
	.read = ovl_f_read,
	.write = ovl_f_write,
	.pread = ovl_f_pread,
	.pwrite = ovl_f_pwrite,
	.llseek = ovl_f_llseek,
	.stat = ovl_f_stat,
	.ioctl = ovl_f_ioctl,
	.poll = ovl_f_poll,
	.mmap_fd = ovl_f_mmap_fd,
	.mmap_file = ovl_f_mmap_file,
	.release = ovl_f_release,
	.setfl = ovl_f_setfl,
	.fallocate = ovl_f_fallocate,
};

static int ovl_open(struct inode *ino, struct file *f)
{
	unsigned acc = f->flags & LINUX_O_ACCMODE;
	struct inode *r;
	int ret;

	/* A host FIFO's pipe is the instance's one of that host file, also
	 * once copied up (chmod, rename): as Linux's overlay inode's pipe, it
	 * does not change with the layer (hostfs_open). One made inside has
	 * only its tmpfs inode's. */
	if (LINUX_S_ISFIFO(ino->mode)) {
		uint64_t dev, nr;

		if (O(ino)->lower)
			return fifo_open_host(O(ino)->lower->dev, O(ino)->lower->ino, f);
		if (tmpfs_origin(O(ino)->upper, &dev, &nr))
			return fifo_open_host(dev, nr, f);
	}
	if ((acc != LINUX_O_RDONLY || (f->flags & LINUX_O_TRUNC)) && !LINUX_S_ISDIR(ino->mode) &&
	    !LINUX_S_ISFIFO(ino->mode)) {
		ret = copy_up(ino);
		if (ret < 0)
			return ret;
	}
	if (LINUX_S_ISDIR(ino->mode))
		return O(ino)->upper ? O(ino)->upper->iop->open(O(ino)->upper, f)
				     : O(ino)->lower->iop->open(O(ino)->lower, f);
	if (!O(ino)->upper && LINUX_S_ISREG(ino->mode))
		return open_lower(ino, f);
	/* The file works on the real inode from now on. */
	r = real(ino);
	inode_get(r);
	inode_put(f->inode);
	f->inode = r;
	return r->iop->open(r, f);
}

/* The merged view of a directory: upper names (less whiteouts), then the
 * lower names the upper does not have. */
struct merge {
	dir_emit_fn emit;
	void *ctx;
	char **seen;
	size_t n, max;
	struct inode *upper;
	bool lower_pass;
};

static bool seen(struct merge *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (strcmp(m->seen[i], name) == 0)
			return true;
	return false;
}

static int merge_emit(void *ctx, const char *name, uint64_t ino, unsigned type)
{
	struct merge *m = ctx;

	if (m->lower_pass)
		return seen(m, name) ? 0 : m->emit(m->ctx, name, ino, type);
	if (m->n == m->max) {
		size_t max = m->max ? m->max * 2 : 64;
		char **s = realloc(m->seen, max * sizeof(char *));

		if (!s)
			return -ENOMEM;
		m->seen = s;
		m->max = max;
	}
	m->seen[m->n] = strdup(name);
	if (!m->seen[m->n])
		return -ENOMEM;
	m->n++;
	if (type == LINUX_DT_CHR) {
		struct inode *u;

		if (m->upper->iop->lookup(m->upper, name, &u) == 0) {
			bool wo = is_whiteout(u);

			inode_put(u);
			if (wo)
				return 0;
		}
	}
	return m->emit(m->ctx, name, ino, type);
}

static int ovl_iterate(struct inode *dir, dir_emit_fn emit, void *ctx)
{
	struct ovl_node *d = O(dir);
	struct merge m = { .emit = emit, .ctx = ctx, .upper = d->upper };
	int ret = 0;
	size_t i;

	if (d->upper)
		ret = d->upper->iop->iterate(d->upper, merge_emit, &m);
	if (ret == 0 && d->lower && LINUX_S_ISDIR(d->lower->mode) &&
	    !(d->upper && tmpfs_is_opaque(d->upper))) {
		m.lower_pass = true;
		ret = d->lower->iop->iterate(d->lower, merge_emit, &m);
	}
	for (i = 0; i < m.n; i++)
		free(m.seen[i]);
	free(m.seen);
	return ret;
}

/* Removes a whiteout of name from the upper dir; true if there was one. */
static bool drop_whiteout(struct inode *pu, const char *name)
{
	struct inode *u;
	bool wo;

	if (pu->iop->lookup(pu, name, &u) < 0)
		return false;
	wo = is_whiteout(u);
	inode_put(u);
	if (wo)
		pu->iop->unlink(pu, name, false);
	return wo;
}

static bool lower_has(struct inode *dir, const char *name)
{
	struct inode *l;

	if (!O(dir)->lower || !LINUX_S_ISDIR(O(dir)->lower->mode) ||
	    (O(dir)->upper && tmpfs_is_opaque(O(dir)->upper)))
		return false;
	if (O(dir)->lower->iop->lookup(O(dir)->lower, name, &l) < 0)
		return false;
	inode_put(l);
	return true;
}

static int ovl_mknod(struct inode *dir, const char *name, uint32_t mode, uint64_t rdev,
		     const struct cred *c, struct inode **out)
{
	struct inode *pu, *u;
	bool was_whiteout;
	int ret = copy_up(dir);

	if (ret < 0)
		return ret;
	pu = O(dir)->upper;
	was_whiteout = drop_whiteout(pu, name);
	ret = pu->iop->mknod(pu, name, mode, rdev, c, &u);
	if (ret < 0)
		return ret;
	/* A new directory where a lower one was removed must hide it. */
	if (LINUX_S_ISDIR(mode) && (was_whiteout || lower_has(dir, name)))
		tmpfs_set_opaque(u, true);
	if (out) {
		*out = ovl_inode(dir->sb, u, NULL, dir, name);
		if (!*out) {
			inode_put(u);
			return -ENOMEM;
		}
	} else {
		inode_put(u);
	}
	return 0;
}

static int ovl_symlink(struct inode *dir, const char *name, const char *target,
		       const struct cred *c)
{
	struct inode *pu;
	int ret = copy_up(dir);

	if (ret < 0)
		return ret;
	pu = O(dir)->upper;
	drop_whiteout(pu, name);
	return pu->iop->symlink(pu, name, target, c);
}

/* O_TMPFILE: an unnamed file in the upper directory. */
static int ovl_tmpfile(struct inode *dir, uint32_t mode, const struct cred *c, bool linkable,
		       struct inode **out)
{
	struct inode *pu, *u;
	int ret = copy_up(dir);

	if (ret < 0)
		return ret;
	pu = O(dir)->upper;
	if (!pu->iop->tmpfile)
		return -EOPNOTSUPP;
	ret = pu->iop->tmpfile(pu, mode, c, linkable, &u);
	if (ret < 0)
		return ret;
	*out = ovl_inode(dir->sb, u, NULL, dir, "");
	if (!*out) {
		inode_put(u);
		return -ENOMEM;
	}
	return 0;
}

static int ovl_link(struct inode *dir, const char *name, struct inode *old)
{
	struct inode *pu;
	int ret;

	if (old->iop != &ovl_iops)
		return -EXDEV;
	ret = copy_up(old);
	if (ret == 0)
		ret = copy_up(dir);
	if (ret < 0)
		return ret;
	pu = O(dir)->upper;
	drop_whiteout(pu, name);
	return pu->iop->link(pu, name, O(old)->upper);
}

static int count_entry(void *ctx, const char *name, uint64_t ino, unsigned type)
{
	(void)ino;
	(void)type;
	if (strcmp(name, ".") && strcmp(name, ".."))
		++*(int *)ctx;
	return 0;
}

struct wo_list {
	char **names;
	int n;
};

static int collect_names(void *ctx, const char *name, uint64_t ino, unsigned type)
{
	struct wo_list *l = ctx;
	char **s;

	(void)ino;
	if (type != LINUX_DT_CHR)
		return 0;
	s = realloc(l->names, (l->n + 1) * sizeof(char *));
	if (!s)
		return -ENOMEM;
	l->names = s;
	l->names[l->n] = strdup(name);
	if (!l->names[l->n])
		return -ENOMEM;
	l->n++;
	return 0;
}

static int remove_whiteouts(struct inode *u)
{
	struct wo_list l = { NULL, 0 };
	int i, ret = u->iop->iterate(u, collect_names, &l);

	for (i = 0; i < l.n; i++) {
		if (ret == 0)
			drop_whiteout(u, l.names[i]);
		free(l.names[i]);
	}
	free(l.names);
	return ret;
}

static int ovl_unlink(struct inode *dir, const char *name, bool is_dir)
{
	struct inode *c, *pu;
	bool lower;
	int ret = ovl_lookup(dir, name, &c);

	if (ret < 0)
		return ret;
	if (is_dir) {
		int entries = 0;

		ret = ovl_iterate(c, count_entry, &entries);
		if (ret == 0 && entries)
			ret = -ENOTEMPTY;
	}
	if (ret == 0)
		ret = copy_up(dir);
	if (ret < 0) {
		inode_put(c);
		return ret;
	}
	pu = O(dir)->upper;
	/* Not O(c)->lower: a copied-up file is looked up as upper only, and
	 * its lower one must stay hidden. */
	lower = lower_has(dir, name);
	/* The whiteout must fit before the upper name goes (overlayfs makes
	 * it first): else ENOSPC left the lower file showing again, the
	 * guest's copy lost. */
	if (lower && !tmpfs_can_create(pu))
		ret = -ENOSPC;
	if (ret == 0 && O(c)->upper) {
		if (is_dir)
			remove_whiteouts(O(c)->upper);
		ret = pu->iop->unlink(pu, name, is_dir);
	}
	if (ret == 0 && lower)
		ret = pu->iop->mknod(pu, name, LINUX_S_IFCHR, 0, NULL, NULL);
	inode_put(c);
	return ret;
}

/* A directory about to move (copied up): one with lower content keeps it
 * through a redirect: 1, or 0 for anything else. -EXDEV when the redirect
 * cannot be kept (the instance's open-file cap, which its lower
 * directory's host fd counts against), as overlayfs says when it cannot
 * set one: mv and shutil.move copy instead. */
static int redirect_dir(struct inode *c)
{
	if (!LINUX_S_ISDIR(c->mode) || !O(c)->lower)
		return 0;
	return tmpfs_set_redirect(O(c)->upper, O(c)->lower) < 0 ? -EXDEV : 1;
}

/* A directory without lower content that landed on dir's name, which
 * the lower layer has: opaque, so that it hides the lower one. */
static void hide_lower(struct inode *dir, const char *name, struct inode *upper_dir)
{
	struct inode *u;

	if (lower_has(dir, name) && upper_dir->iop->lookup(upper_dir, name, &u) == 0) {
		tmpfs_set_opaque(u, true);
		inode_put(u);
	}
}

/* RENAME_EXCHANGE: both names are copied up and their upper entries swap.
 * A directory with lower content keeps it (redirect_dir); one without that
 * lands on a name the lower layer has becomes opaque. */
static int ovl_exchange(struct inode *odir, const char *oname, struct inode *ndir,
			const char *nname, struct inode *c, struct inode *d)
{
	struct inode *ou, *nu;
	int ret = 0, rc, rd;

	ret = copy_up(c);
	if (ret == 0)
		ret = copy_up(d);
	if (ret < 0)
		return ret;
	ou = O(odir)->upper;
	nu = O(ndir)->upper;
	rc = redirect_dir(c);
	rd = rc < 0 ? rc : redirect_dir(d);
	if (rc < 0 || rd < 0)
		return -EXDEV;
	ret = ou->iop->rename(ou, oname, nu, nname, 2);
	if (ret < 0)
		return ret;
	if (LINUX_S_ISDIR(c->mode) && !rc)
		hide_lower(ndir, nname, nu);
	if (LINUX_S_ISDIR(d->mode) && !rd)
		hide_lower(odir, oname, ou);
	return 0;
}

/* flags: RENAME_NOREPLACE, RENAME_EXCHANGE; RENAME_WHITEOUT is EINVAL, as
 * overlayfs gives. */
static int ovl_rename(struct inode *odir, const char *oname, struct inode *ndir, const char *nname,
		      unsigned flags)
{
	struct inode *c, *d = NULL, *u;
	bool lower;
	int ret;

	if (ndir->iop != &ovl_iops)
		return -EXDEV;
	if (flags & 4)
		return -EINVAL;
	ret = ovl_lookup(odir, oname, &c);
	if (ret < 0)
		return ret;
	if (flags & 2) {
		ret = ovl_lookup(ndir, nname, &d);
		if (ret == 0)
			ret = copy_up(odir);
		if (ret == 0)
			ret = copy_up(ndir);
		if (ret == 0)
			ret = ovl_exchange(odir, oname, ndir, nname, c, d);
		inode_put(c);
		inode_put(d);
		return ret;
	}
	lower = lower_has(odir, oname);
	if (ovl_lookup(ndir, nname, &d) == 0) {
		if (LINUX_S_ISDIR(d->mode)) {
			int entries = 0;

			ovl_iterate(d, count_entry, &entries);
			if (entries)
				ret = -ENOTEMPTY;
		}
	} else {
		d = NULL;
	}
	if (ret == 0)
		ret = copy_up(c);
	if (ret == 0)
		ret = copy_up(ndir);
	if (ret == 0)
		ret = copy_up(odir);
	if (ret == 0) {
		struct inode *ou = O(odir)->upper, *nu = O(ndir)->upper;
		bool dropped, hide, moved_lower;

		/* The source's whiteout must fit before anything moves. */
		if (lower && !tmpfs_can_create(ou)) {
			inode_put(c);
			inode_put(d);
			return -ENOSPC;
		}
		/* First what may fail and leaves nothing changed. */
		ret = redirect_dir(c);
		if (ret < 0) {
			inode_put(c);
			inode_put(d);
			return ret;
		}
		moved_lower = ret > 0;
		/* An empty directory replaced: its whiteouts go with it (its
		 * upper copy must be empty to be renamed over). */
		ret = d && LINUX_S_ISDIR(d->mode) && O(d)->upper ? remove_whiteouts(O(d)->upper)
								 : 0;
		dropped = drop_whiteout(nu, nname);
		hide = LINUX_S_ISDIR(c->mode) && (dropped || lower_has(ndir, nname));
		if (ret == 0)
			ret = ou->iop->rename(ou, oname, nu, nname, flags);
		/* A lower file at the target is now hidden by the moved upper
		 * one; a lower directory there by the moved one's redirect, or
		 * by making one without lower content opaque; a lower file at
		 * the source needs a whiteout. */
		if (ret == 0 && hide && !moved_lower && nu->iop->lookup(nu, nname, &u) == 0) {
			tmpfs_set_opaque(u, true);
			inode_put(u);
		}
		if (ret == 0 && lower)
			ret = ou->iop->mknod(ou, oname, LINUX_S_IFCHR, 0, NULL, NULL);
	}
	inode_put(c);
	inode_put(d);
	return ret;
}

static long ovl_getxattr(struct inode *ino, const char *name, void *buf, size_t n)
{
	struct inode *r = real(ino);

	return r->iop->getxattr ? r->iop->getxattr(r, name, buf, n) : -ENODATA;
}

static long ovl_listxattr(struct inode *ino, char *buf, size_t n)
{
	struct inode *r = real(ino);

	return r->iop->listxattr ? r->iop->listxattr(r, buf, n) : 0;
}

static int ovl_setxattr(struct inode *ino, const char *name, const void *val, size_t n, int flags)
{
	int ret = copy_up(ino);

	if (ret < 0)
		return ret;
	return O(ino)->upper->iop->setxattr(O(ino)->upper, name, val, n, flags);
}

/* A lower file has none (the host's are not looked at). */
static unsigned ovl_acl_kinds(struct inode *ino)
{
	struct inode *u = O(ino)->upper;

	if (!u)
		return ACL_KIND_LOWER;
	return u->iop->acl_kinds ? u->iop->acl_kinds(u) : 0;
}

static int ovl_removexattr(struct inode *ino, const char *name)
{
	int ret = copy_up(ino);

	if (ret < 0)
		return ret;
	return O(ino)->upper->iop->removexattr(O(ino)->upper, name);
}

static int ovl_statfs(struct inode *ino, struct linux_statfs *st)
{
	struct inode *u = O(ino)->upper;
	int ret;

	while (!u && O(ino)->parent) {
		ino = O(ino)->parent;
		u = O(ino)->upper;
	}
	ret = u && u->iop->statfs ? u->iop->statfs(u, st) : 0;
	st->f_type = LINUX_OVERLAYFS_SUPER_MAGIC;
	return ret;
}

static void ovl_release(struct inode *ino)
{
	struct ovl_node *n = O(ino);

	list_del(&n->lower_only);
	inode_put(n->upper);
	inode_put(n->lower);
	inode_put(n->parent);
	free(n->name);
	free(n);
}

/* chattr's flags: the real inode's; a set copies the name up first and
 * sets the copy's, as Linux's ovl_fileattr_set. Differs: flags of the
 * lower file's own filesystem that the upper tmpfs cannot keep (ext4's
 * extents, 'e') are dropped, where Linux with a tmpfs upper layer fails
 * the set (EOPNOTSUPP): chattr +i of a root file works, as it does in a
 * container whose upper layer is on the host's disk. */
static int ovl_fileattr_get(struct inode *ino, uint32_t *flags)
{
	struct inode *r = real(ino);

	return r->iop->fileattr_get ? r->iop->fileattr_get(r, flags) : -ENOIOCTLCMD;
}

static int ovl_fileattr_set(struct inode *ino, uint32_t flags)
{
	struct inode *lo = O(ino)->lower, *u;
	uint32_t lf = 0;
	int ret;

	if (lo && lo->iop->fileattr_get && lo->iop->fileattr_get(lo, &lf) == 0)
		flags &= ~(lf & ~(uint32_t)(LINUX_FS_SYNC_FL | LINUX_FS_IMMUTABLE_FL |
					    LINUX_FS_APPEND_FL | LINUX_FS_NODUMP_FL |
					    LINUX_FS_NOATIME_FL | LINUX_FS_DAX_FL |
					    LINUX_FS_PROJINHERIT_FL));
	ret = copy_up(ino);
	if (ret < 0)
		return ret;
	u = O(ino)->upper;
	return u->iop->fileattr_set ? u->iop->fileattr_set(u, flags) : -ENOIOCTLCMD;
}

/* the upper file's; a lower file's access time is the host's */
static void ovl_touch_atime(struct inode *ino, bool relatime)
{
	struct inode *u = O(ino)->upper;

	if (u && u->iop->touch_atime)
		u->iop->touch_atime(u, relatime);
}

static unsigned ovl_iflags(struct inode *ino)
{
	return inode_iflags(real(ino));
}

static const struct inode_ops ovl_iops = {
	.lookup = ovl_lookup,
	.mknod = ovl_mknod,
	.symlink = ovl_symlink,
	.tmpfile = ovl_tmpfile,
	.link = ovl_link,
	.unlink = ovl_unlink,
	.rename = ovl_rename,
	.readlink = ovl_readlink,
	.getattr = ovl_getattr,
	.getattr_x = ovl_getattr_x,
	.setattr = ovl_setattr,
	.iterate = ovl_iterate,
	.open = ovl_open,
	.getxattr = ovl_getxattr,
	.setxattr = ovl_setxattr,
	.listxattr = ovl_listxattr,
	.removexattr = ovl_removexattr,
	.acl_kinds = ovl_acl_kinds,
	.statfs = ovl_statfs,
	.fileattr_get = ovl_fileattr_get,
	.fileattr_set = ovl_fileattr_set,
	.iflags = ovl_iflags,
	.touch_atime = ovl_touch_atime,
	.release = ovl_release,
};

int overlay_mount(struct inode *upper, struct inode *lower, struct super_block **sbp,
		  struct inode **root)
{
	struct super_block *sb = calloc(1, sizeof(*sb));

	if (!sb)
		return -ENOMEM;
	sb->fstype = "overlay";
	sb->cache_lookups = true;
	sb->dev = vfs_anon_dev();
	sb->magic = LINUX_OVERLAYFS_SUPER_MAGIC;
	/* A directory only in the upper layer has the upper inode's number,
	 * one from the lower layer the host's, both on the overlay's device:
	 * numbered apart (host filesystems' are below 2^32 in practice), or
	 * the upper directory numbered 2 was its own ancestor "/" to find. */
	if (is_tmpfs(upper))
		tmpfs_set_next_ino(upper->sb, 1ULL << 32);
	*root = ovl_inode(sb, upper, lower, NULL, "/");
	if (!*root) {
		free(sb);
		return -ENOMEM;
	}
	*sbp = sb;
	return 0;
}
