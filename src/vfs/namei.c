/* vfs/namei.c: the path walk and the calls built on it. Every lookup goes
 * through the filesystems' inode_ops one component at a time: no string
 * path ever reaches the host, so no host symlink or ".." can lead out of a
 * filesystem's root (hostfs opens each component relative to its parent's
 * host fd, never following a host symlink). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vfs/namei.h"
#include "vfs/namespace.h"
#include "vfs/acl.h"
#include "vfs/file.h"
#include "vfs/devices.h"
#include "vfs/fsnotify.h"
#include "vfs/dcache.h"
#include "vfs/denywrite.h"
#include "vfs/lease.h"
#include "kernel/task.h"
#include "kernel/cred.h"
#include "kernel/userns.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/stat.h"
#include "abi/linux/types.h"

#define MAX_SYMLINKS 40

int fs_info_create(const struct path *root, const struct path *cwd, struct fs_info **out)
{
	struct fs_info *fs = calloc(1, sizeof(*fs));

	if (!fs)
		return -ENOMEM;
	fs->refcount = 1;
	fs->root = *root;
	path_get(root);
	fs->cwd = *cwd;
	path_get(cwd);
	*out = fs;
	return 0;
}

void fs_info_put(struct fs_info *fs)
{
	if (!fs || --fs->refcount > 0)
		return;
	path_put(&fs->root);
	path_put(&fs->cwd);
	free(fs);
}

int fs_info_dup(struct fs_info *src, struct fs_info **out)
{
	return fs_info_create(&src->root, &src->cwd, out);
}

int vfs_getattr(struct inode *ino, struct linux_stat *st)
{
	memset(st, 0, sizeof(*st));
	if (!ino->iop->getattr)
		return -EOPNOTSUPP;
	return ino->iop->getattr(ino, st);
}

bool inode_dead_dir(struct inode *dir)
{
	struct linux_stat st;

	return inode_is_dir(dir) && vfs_getattr(dir, &st) == 0 && st.st_nlink == 0;
}

int inode_permission(struct task *t, struct inode *ino, int mask)
{
	const struct cred *c = &t->proc->cred;
	struct linux_stat st;
	unsigned m, bits;
	int ret;

	if (!mask)
		return 0;
	/* nobody writes an immutable file */
	if ((mask & LINUX_W_OK) && (inode_iflags(ino) & INODE_IMMUTABLE))
		return -EPERM;
	/* Searching a directory as root: no need to ask the filesystem
	 * (the type bits are the inode's own). */
	if (mask == LINUX_X_OK && LINUX_S_ISDIR(ino->mode) &&
	    (capable(c, CAP_DAC_READ_SEARCH) || capable(c, CAP_DAC_OVERRIDE)))
		return 0;
	ret = vfs_getattr(ino, &st);
	if (ret < 0)
		return ret;
	m = st.st_mode;
	if (st.st_uid == c->fsuid) {
		bits = (m >> 6) & 7;
	} else if ((m & 070) && (ret = acl_permission(t, ino, &st, mask)) != -EAGAIN) {
		/* Linux's acl_permission_check: an ACL (whose mask the
		 * group bits are) decides for the others */
		if (ret == 0)
			return 0;
		bits = 0;
	} else if (in_group(c, st.st_gid)) {
		bits = (m >> 3) & 7;
	} else {
		bits = m & 7;
	}
	if ((bits & mask) == (unsigned)mask)
		return 0;
	/* root's overrides: read and write anything, search directories,
	 * execute what someone may execute. */
	if (capable_wrt_ids(c, st.st_uid, st.st_gid, CAP_DAC_OVERRIDE)) {
		if (!(mask & LINUX_X_OK) || LINUX_S_ISDIR(m) || (m & 0111))
			return 0;
	}
	if (capable_wrt_ids(c, st.st_uid, st.st_gid, CAP_DAC_READ_SEARCH) &&
	    (mask == LINUX_R_OK || (LINUX_S_ISDIR(m) && !(mask & LINUX_W_OK))))
		return 0;
	return -EACCES;
}

/* mknod of name in dir by t, with the mode less the umask, or as dir's
 * default ACL has it, and the ACLs that gives (vfs/acl.h). */
static int create_node(struct task *t, struct inode *dir, const char *name, uint32_t mode,
		       uint64_t dev, struct inode **out)
{
	struct inode *newi = NULL;
	struct acl_new na;
	int ret = acl_create_mode(t, dir, &mode, &na);

	if (ret < 0)
		return ret;
	/* the new inode only where it is wanted (hostfs looks it up) */
	ret = dir->iop->mknod(dir, name, mode, dev, &t->proc->cred,
			      out || acl_new_any(&na) ? &newi : NULL);
	if (ret == 0 && acl_new_any(&na)) {
		ret = acl_create_done(newi, &na);
		if (ret < 0) {
			dir->iop->unlink(dir, name, LINUX_S_ISDIR(mode));
			inode_put(newi);
			return ret;
		}
	}
	acl_create_done(NULL, &na);
	if (out)
		*out = newi;
	else if (newi)
		inode_put(newi);
	return ret;
}

struct walk {
	struct task *t;
	unsigned flags;
	unsigned resolve;   /* openat2's RESOLVE_* */
	struct path anchor; /* the dirfd, for RESOLVE_BENEATH and IN_ROOT */
	int nlinks;
	bool want_parent;
	char *last; /* want_parent: the final component (malloc'ed) */
	bool trailing_slash;
};

static const struct path *walk_root(struct walk *w)
{
	return (w->resolve & LINUX_RESOLVE_IN_ROOT) ? &w->anchor : &w->t->fs->root;
}

/* Up one level: stays at the root, crosses mount roots. */
static int follow_dotdot(struct walk *w, struct path *p)
{
	const struct path *root = walk_root(w);

	for (;;) {
		if (p->dentry == root->dentry && p->mnt == root->mnt)
			return (w->resolve & LINUX_RESOLVE_BENEATH) ? -EXDEV : 0;
		if ((w->resolve & LINUX_RESOLVE_BENEATH) && p->dentry == w->anchor.dentry &&
		    p->mnt == w->anchor.mnt)
			return -EXDEV;
		if (p->dentry != p->mnt->root)
			break;
		if (!p->mnt->parent)
			return 0;
		if (w->resolve & LINUX_RESOLVE_NO_XDEV)
			return -EXDEV;
		{
			struct dentry *d = dentry_get(p->mnt->mountpoint);
			struct mount *up = mnt_get(p->mnt->parent);

			path_put(p);
			p->dentry = d;
			p->mnt = up;
		}
	}
	if (p->dentry->parent) {
		struct dentry *d = dentry_get(p->dentry->parent);

		dentry_put(p->dentry);
		p->dentry = d;
	}
	return 0;
}

/* Down into whatever is mounted on p. */
static int follow_mounts(struct walk *w, struct path *p)
{
	struct mount *m;

	while ((m = mount_lookup(p->mnt, p->dentry->inode))) {
		struct dentry *d;

		if (w && (w->resolve & LINUX_RESOLVE_NO_XDEV))
			return -EXDEV;
		d = dentry_get(m->root);
		mnt_get(m);
		path_put(p);
		p->dentry = d;
		p->mnt = m;
	}
	return 0;
}

/* Where a walk starts: the root for an absolute name, else the cwd or the
 * directory at dirfd; for openat2, also the anchor of RESOLVE_BENEATH and
 * RESOLVE_IN_ROOT. */
static int start_path(struct walk *w, int dirfd, const char *name, struct path *p)
{
	struct task *t = w->t;
	struct file *f;

	if (dirfd == LINUX_AT_FDCWD) {
		w->anchor = t->fs->cwd;
	} else if (name[0] != '/' || w->resolve) {
		f = fdget(t->files, dirfd);
		if (!f)
			return -EBADF;
		if (!f->path.dentry) {
			file_put(f);
			return -ENOTDIR;
		}
		w->anchor = f->path;
		file_put(f);
		if (!inode_is_dir(w->anchor.dentry->inode))
			return -ENOTDIR;
	}
	if (name[0] == '/') {
		if (w->resolve & LINUX_RESOLVE_BENEATH)
			return -EXDEV;
		*p = *walk_root(w);
	} else {
		*p = w->anchor;
	}
	path_get(p);
	return 0;
}

static int lookup_child(struct walk *w, struct path *p, const char *comp, struct path *child)
{
	struct inode *ino;
	struct dentry *d;
	int ret;

	if (!p->dentry->inode->iop->lookup)
		return -ENOTDIR;
	ret = dcache_lookup(p->dentry, comp, &d);
	if (ret == -EAGAIN) {
		ret = p->dentry->inode->iop->lookup(p->dentry->inode, comp, &ino);
		if (ret == -ENOENT)
			dcache_add(p->dentry, comp, NULL);
		if (ret < 0)
			return ret;
		d = dentry_new(comp, p->dentry, ino);
		inode_put(ino);
		if (!d)
			return -ENOMEM;
		dcache_add(p->dentry, comp, d);
	} else if (ret < 0) {
		return ret;
	}
	child->mnt = mnt_get(p->mnt);
	child->dentry = d;
	ret = follow_mounts(w, child);
	if (ret < 0)
		path_put(child);
	return ret;
}

/* Follows the symlink at child: p becomes where its target leads. */
static int follow_link(struct walk *w, struct path *p, struct path *child, char **bufp,
		       char **restp)
{
	struct inode *ino = child->dentry->inode;
	char target[LINUX_PATH_MAX], *nbuf; /* on the stack: see get_user_path */
	size_t tl, rl;
	long n;

	/* pick_link: none on a nosymfollow mount; a link followed is read
	 * (touch_atime) */
	if (++w->nlinks > MAX_SYMLINKS || (w->resolve & LINUX_RESOLVE_NO_SYMLINKS) ||
	    (child->mnt->flags & MNT_NOSYMFOLLOW))
		return -ELOOP;
	path_accessed(child);
	if (ino->iop->get_link_path) {
		struct path to;
		int ret = ino->iop->get_link_path(ino, w->t, &to);

		if (ret == 0 && (w->resolve & (LINUX_RESOLVE_NO_MAGICLINKS | LINUX_RESOLVE_BENEATH |
					       LINUX_RESOLVE_IN_ROOT))) {
			path_put(&to);
			return -ELOOP;
		}
		if (ret == 0) {
			path_put(p);
			*p = to;
			return 1; /* a magic link: p is the target itself */
		}
	}
	if (!ino->iop->readlink)
		return -EINVAL;
	n = ino->iop->readlink(ino, target, LINUX_PATH_MAX - 1);
	if (n < 0)
		return (int)n;
	if (n == 0)
		return -ENOENT;
	target[n] = 0;
	tl = (size_t)n;
	rl = strlen(*restp);
	nbuf = malloc(tl + rl + 2);
	if (!nbuf)
		return -ENOMEM;
	memcpy(nbuf, target, tl);
	nbuf[tl] = '/';
	memcpy(nbuf + tl + 1, *restp, rl + 1);
	if (rl == 0)
		nbuf[tl] = 0;
	free(*bufp);
	*bufp = nbuf;
	*restp = nbuf;
	if (nbuf[0] == '/') {
		if (w->resolve & LINUX_RESOLVE_BENEATH)
			return -EXDEV;
		path_put(p);
		*p = *walk_root(w);
		path_get(p);
	}
	return 0;
}

/* Walks name from *p (which it consumes and replaces with the result). */
static int walk(struct walk *w, struct path *p, const char *name)
{
	char *buf = strdup(name), *rest, *comp;
	struct path child;
	int ret = 0;

	if (!buf) {
		path_put(p);
		return -ENOMEM;
	}
	rest = buf;
	for (;;) {
		size_t len;
		bool last, slash;

		while (*rest == '/')
			rest++;
		if (!*rest) {
			/* Nothing (left): the path itself; for want_parent, the
			 * last name is "." */
			if (w->want_parent && !w->last)
				w->last = strdup(".");
			break;
		}
		comp = rest;
		len = strcspn(comp, "/");
		if (len > LINUX_NAME_MAX) {
			ret = -ENAMETOOLONG;
			break;
		}
		rest = comp + len;
		slash = *rest == '/';
		if (slash)
			*rest++ = 0;
		{
			char *r = rest;

			while (*r == '/')
				r++;
			last = !*r;
		}
		if (!inode_is_dir(p->dentry->inode)) {
			ret = -ENOTDIR;
			break;
		}
		ret = inode_permission(w->t, p->dentry->inode, LINUX_X_OK);
		if (ret < 0)
			break;
		if (last && w->want_parent) {
			w->last = strdup(comp);
			w->trailing_slash = slash;
			if (!w->last)
				ret = -ENOMEM;
			break;
		}
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			ret = follow_dotdot(w, p);
			if (ret < 0)
				break;
			continue;
		}
		ret = lookup_child(w, p, comp, &child);
		if (ret < 0)
			break;
		if (LINUX_S_ISLNK(child.dentry->inode->mode) &&
		    (!last || slash || (w->flags & LOOKUP_FOLLOW))) {
			ret = follow_link(w, p, &child, &buf, &rest);
			path_put(&child);
			if (ret < 0)
				break;
			if (ret == 1 && last) {
				/* a magic link to a non-directory, with a
				 * trailing slash (/proc/self/exe/) */
				if (slash && !inode_is_dir(p->dentry->inode))
					ret = -ENOTDIR;
				break;
			}
			ret = 0;
			continue;
		}
		path_put(p);
		*p = child;
		if (last && slash && !inode_is_dir(p->dentry->inode)) {
			ret = -ENOTDIR;
			break;
		}
	}
	free(buf);
	if (ret < 0)
		path_put(p);
	return ret;
}

int path_lookupat(struct task *t, int dirfd, const char *name, unsigned flags, struct path *out)
{
	return path_lookup_resolve(t, dirfd, name, flags, 0, out);
}

int path_lookup_resolve(struct task *t, int dirfd, const char *name, unsigned flags,
			unsigned resolve, struct path *out)
{
	struct walk w = { .t = t, .flags = flags, .resolve = resolve };
	int ret;

	if (!name[0]) {
		if (!(flags & LOOKUP_EMPTY))
			return -ENOENT;
		if (dirfd == LINUX_AT_FDCWD) {
			*out = t->fs->cwd;
			path_get(out);
			return 0;
		}
		{
			struct file *f = fdget(t->files, dirfd);

			if (!f)
				return -EBADF;
			if (!f->path.dentry) {
				file_put(f);
				return -ENOTDIR; /* a pipe or socket has no path */
			}
			*out = f->path;
			path_get(out);
			file_put(f);
			return 0;
		}
	}
	ret = start_path(&w, dirfd, name, out);
	if (ret < 0)
		return ret;
	ret = walk(&w, out, name);
	if (ret < 0)
		return ret;
	if ((flags & LOOKUP_DIRECTORY) && !inode_is_dir(out->dentry->inode)) {
		path_put(out);
		return -ENOTDIR;
	}
	return 0;
}

static int path_parent_resolve(struct task *t, int dirfd, const char *name, unsigned resolve,
			       struct path *parent, char **last, bool *trailing_slash);

/* The parent directory of name and its last component. */
static int path_parentat(struct task *t, int dirfd, const char *name, struct path *parent,
			 char **last, bool *trailing_slash)
{
	return path_parent_resolve(t, dirfd, name, 0, parent, last, trailing_slash);
}

static int path_parent_resolve(struct task *t, int dirfd, const char *name, unsigned resolve,
			       struct path *parent, char **last, bool *trailing_slash)
{
	struct walk w = { .t = t, .flags = LOOKUP_FOLLOW, .want_parent = true, .resolve = resolve };
	int ret;

	if (!name[0])
		return -ENOENT;
	ret = start_path(&w, dirfd, name, parent);
	if (ret < 0)
		return ret;
	ret = walk(&w, parent, name);
	if (ret < 0) {
		free(w.last);
		return ret;
	}
	if (!w.last) {
		path_put(parent);
		return -ENOMEM;
	}
	if (!inode_is_dir(parent->dentry->inode)) {
		free(w.last);
		path_put(parent);
		return -ENOTDIR;
	}
	*last = w.last;
	if (trailing_slash)
		*trailing_slash = w.trailing_slash;
	return 0;
}

static bool is_dots(const char *n)
{
	return strcmp(n, ".") == 0 || strcmp(n, "..") == 0;
}

/* May t create or remove entries in dir? */
static int may_change_dir(struct task *t, struct path *dir)
{
	if (path_rdonly(dir))
		return -EROFS;
	return inode_permission(t, dir->dentry->inode, LINUX_W_OK | LINUX_X_OK);
}

/* The sticky bit: only the owner of the file or the directory (or root)
 * removes or renames in a sticky directory. */
static int check_sticky(struct task *t, struct inode *dir, struct inode *victim)
{
	const struct cred *c = &t->proc->cred;
	struct linux_stat ds, vs;

	if (vfs_getattr(dir, &ds) < 0 || !(ds.st_mode & 01000))
		return 0;
	if (vfs_getattr(victim, &vs) < 0)
		return 0;
	if (vs.st_uid == c->fsuid || ds.st_uid == c->fsuid ||
	    capable_wrt_ids(c, vs.st_uid, vs.st_gid, CAP_FOWNER))
		return 0;
	return -EPERM;
}

/* May victim's name in dir go (an unlink, rmdir, rename from or over
 * it)? Linux's may_delete after its permission check: not from an
 * append-only directory, nor a sticky one's file of another, nor an
 * immutable or append-only file. */
static int may_delete(struct task *t, struct inode *dir, struct inode *victim)
{
	if (inode_iflags(dir) & INODE_APPEND)
		return -EPERM;
	if (inode_iflags(victim) & (INODE_IMMUTABLE | INODE_APPEND))
		return -EPERM;
	return check_sticky(t, dir, victim);
}

/* May a new entry last be made in dir? Linux's filename_create: an
 * existing name is EEXIST; a missing one named with a trailing slash is
 * ENOENT unless a directory is being made. */
static int may_create_name(struct inode *dir, const char *last, bool slash, bool is_dir)
{
	struct inode *old;
	int ret;

	if (is_dots(last))
		return -EEXIST;
	ret = dir->iop->lookup ? dir->iop->lookup(dir, last, &old) : -ENOENT;
	if (ret == 0) {
		inode_put(old);
		return -EEXIST;
	}
	if (ret != -ENOENT)
		return ret;
	if (inode_dead_dir(dir))
		return -ENOENT; /* removed while a cwd or fd held it (may_create) */
	return slash && !is_dir ? -ENOENT : 0;
}

static int open_inode(struct task *t, struct path *p, unsigned flags, struct file **out)
{
	struct inode *ino = p->dentry->inode;
	struct file *f;
	int ret;

	(void)t;
	f = file_alloc(NULL, flags, -1, p);
	if (!f)
		return file_alloc_error();
	if (flags & LINUX_O_PATH) {
		f->ops = &path_file_ops;
		*out = f;
		return 0;
	}
	if ((LINUX_S_ISCHR(ino->mode) || LINUX_S_ISBLK(ino->mode)) && p->mnt &&
	    (p->mnt->flags & MNT_NODEV)) {
		ret = -EACCES; /* Linux's may_open on a nodev mount */
	} else if (LINUX_S_ISCHR(ino->mode) || LINUX_S_ISBLK(ino->mode)) {
		struct linux_stat st;

		ret = vfs_getattr(ino, &st);
		if (ret == 0)
			ret = device_open(ino, st.st_rdev, f);
	} else if (LINUX_S_ISSOCK(ino->mode)) {
		ret = -ENXIO;
	} else if (!ino->iop->open) {
		ret = -EOPNOTSUPP;
	} else {
		ret = ino->iop->open(ino, f);
	}
	if (ret < 0) {
		f->ops = &path_file_ops;
		f->priv = NULL;
		file_put(f);
		return ret;
	}
	f->flags &= ~LINUX_O_NOCTTY; /* a terminal's open has seen it */
	*out = f;
	return 0;
}

int vfs_open_path(struct path *p, unsigned flags, struct file **out)
{
	*out = NULL;
	return open_inode(NULL, p, flags, out);
}

/* O_CREAT through a dangling symlink creates its target, as Linux does:
 * the target is opened afresh, relative to the link's directory. Its
 * path (*full, malloc'ed) for vfs_openat2's next round: a loop, not a
 * recursion, so a chain of links costs no kernel stack. */
#define OPEN_REDIRECT 1

static int link_target_path(struct task *t, struct path *dir, struct path *link, char **full)
{
	struct inode *ino = link->dentry->inode;
	char *target, *base;
	long n;

	if (!ino->iop->readlink)
		return -ELOOP;
	target = malloc(LINUX_PATH_MAX);
	if (!target)
		return -ENOMEM;
	n = ino->iop->readlink(ino, target, LINUX_PATH_MAX - 1);
	if (n <= 0) {
		free(target);
		return n < 0 ? (int)n : -ENOENT;
	}
	target[n] = 0;
	if (target[0] == '/') {
		*full = target;
		return 0;
	}
	base = path_name(dir, &t->fs->root);
	*full = base ? malloc(strlen(base) + n + 2) : NULL;
	if (*full)
		sprintf(*full, "%s/%s", strcmp(base, "/") ? base : "", target);
	free(base);
	free(target);
	return *full ? 0 : -ENOMEM;
}

/* f, open for writing on the regular file ino, holds a write access to
 * it (write_access_get's, given back at its release) and counts as a
 * writer of its mount and filesystem (Linux's FMODE_WRITER). */
static void file_set_writer(struct file *f, const struct inode *ino)
{
	f->write_access = 1;
	f->wa_dev = ino->dev;
	f->wa_ino = ino->ino;
	f->mnt_writer = true;
	f->path.mnt->writers++;
	f->path.mnt->sb->writers++;
}

/* O_TMPFILE: an unnamed regular file in the directory name, open for
 * writing. Without O_EXCL, linkat can give it a name later. The file's path
 * is a dentry "#INO" under the directory that no lookup finds. */
static int open_tmpfile(struct task *t, int dirfd, const char *name, unsigned flags, unsigned mode,
			unsigned resolve, struct file **out)
{
	unsigned acc = flags & LINUX_O_ACCMODE;
	struct path dir, p;
	struct inode *ino, *dino;
	char tag[32];
	int ret;

	if ((flags & (LINUX_O_TMPFILE | LINUX_O_CREAT)) != LINUX_O_TMPFILE || acc == LINUX_O_RDONLY)
		return -EINVAL;
	ret = path_lookup_resolve(t, dirfd, name, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, resolve, &dir);
	if (ret < 0)
		return ret;
	dino = dir.dentry->inode;
	ret = path_rdonly(&dir) ? -EROFS : inode_permission(t, dino, LINUX_W_OK | LINUX_X_OK);
	if (ret == 0 && !dino->iop->tmpfile)
		ret = -EOPNOTSUPP;
	if (ret == 0) {
		struct acl_new na;
		uint32_t m = LINUX_S_IFREG | (mode & 07777);

		ret = acl_create_mode(t, dino, &m, &na);
		if (ret == 0)
			ret = dino->iop->tmpfile(dino, m & 07777, &t->proc->cred,
						 !(flags & LINUX_O_EXCL), &ino);
		if (ret == 0 && acl_new_any(&na)) {
			ret = acl_create_done(ino, &na);
			if (ret < 0)
				inode_put(ino); /* no name: it goes */
		}
		acl_create_done(NULL, &na);
	}
	if (ret < 0) {
		path_put(&dir);
		return ret;
	}
	snprintf(tag, sizeof(tag), "#%llu", (unsigned long long)ino->ino);
	p.mnt = mnt_get(dir.mnt);
	p.dentry = dentry_new(tag, dir.dentry, ino);
	if (p.dentry) /* never a name: "#INO (deleted)", as Linux's d_tmpfile */
		dentry_unlinked(dir.dentry->inode, tag, ino);
	inode_put(ino);
	path_put(&dir);
	if (!p.dentry) {
		mnt_put(p.mnt);
		return -ENOMEM;
	}
	ret = open_inode(t, &p, flags & ~(LINUX_O_EXCL | LINUX_O_CLOEXEC), out);
	if (ret == 0 && write_access_get(p.dentry->inode) == 0) /* a new file: none denies */
		file_set_writer(*out, p.dentry->inode);
	if (ret == 0)
		fsnotify_open(*out);
	path_put(&p);
	return ret;
}

int vfs_openat(struct task *t, int dirfd, const char *name, unsigned flags, unsigned mode,
	       struct file **out)
{
	return vfs_openat2(t, dirfd, name, flags, mode, 0, out);
}

/* The open of a path found (or just made: created): the checks of Linux's
 * do_open and may_open, O_TRUNC, then the file. p stays the caller's. */
static int open_found(struct task *t, struct path *p, unsigned flags, bool created,
		      struct file **out)
{
	unsigned acc = flags & LINUX_O_ACCMODE;
	bool want_write = acc != LINUX_O_RDONLY || (flags & LINUX_O_TRUNC);
	bool truncated = false, writer = false, reader = false;
	struct inode *ino;
	int ret;

	ino = p->dentry->inode;
	ret = 0;
	if (LINUX_S_ISLNK(ino->mode) && !(flags & LINUX_O_PATH))
		ret = -ELOOP;
	else if ((flags & LINUX_O_DIRECTORY) && !inode_is_dir(ino))
		ret = -ENOTDIR;
	else if (inode_is_dir(ino) && (want_write || (flags & LINUX_O_CREAT)))
		ret = -EISDIR; /* may_open: MAY_WRITE, which O_TRUNC asks too */
	else if (!(flags & LINUX_O_PATH) && !created) {
		int mask = (acc != LINUX_O_WRONLY ? LINUX_R_OK : 0) | (want_write ? LINUX_W_OK : 0);

		if (acc == 3)
			mask = LINUX_R_OK | LINUX_W_OK;
		ret = inode_permission(t, ino, mask);
		/* may_open: an append-only file is opened for writing with
		 * O_APPEND, and never truncated */
		if (ret == 0 && (inode_iflags(ino) & INODE_APPEND) &&
		    ((acc != LINUX_O_RDONLY && !(flags & LINUX_O_APPEND)) ||
		     (flags & LINUX_O_TRUNC)))
			ret = -EPERM;
		if (ret == 0 && want_write && path_rdonly(p) &&
		    (LINUX_S_ISREG(ino->mode) || inode_is_dir(ino) || LINUX_S_ISLNK(ino->mode)))
			ret = -EROFS;
	}
	/* do_dentry_open's get_write_access, before O_TRUNC's truncation:
	 * ETXTBSY for a program that runs */
	if (ret == 0 && !(flags & LINUX_O_PATH) && LINUX_S_ISREG(ino->mode) &&
	    (acc == LINUX_O_WRONLY || acc == LINUX_O_RDWR)) {
		ret = write_access_get(ino);
		writer = ret == 0;
	}
	/* do_dentry_open's i_readcount of a read-only open, then its
	 * break_lease: an open that conflicts with a lease waits for it
	 * (O_NONBLOCK: EWOULDBLOCK), counted as what it opens for already */
	if (ret == 0 && !(flags & LINUX_O_PATH) && LINUX_S_ISREG(ino->mode)) {
		if (acc == LINUX_O_RDONLY) {
			ret = read_access_get(ino);
			reader = ret == 0;
		}
		if (ret == 0)
			ret = lease_break(ino, acc != LINUX_O_RDONLY, flags & LINUX_O_NONBLOCK);
	}
	/* handle_truncate's own get_write_access: O_RDONLY|O_TRUNC of a
	 * program that runs is ETXTBSY too */
	if (ret == 0 && (flags & LINUX_O_TRUNC) && LINUX_S_ISREG(ino->mode) && !created &&
	    !(flags & LINUX_O_PATH) && (writer || (ret = write_access_get(ino)) == 0)) {
		struct iattr ia = { .valid = ATTR_SIZE | ATTR_MTIME | ATTR_CTIME, .size = 0 };

		ia.mtime = vfs_now();
		ret = ino->iop->setattr ? ino->iop->setattr(ino, &ia) : -EROFS;
		truncated = ret == 0;
		if (!writer)
			write_access_put(ino->dev, ino->ino);
	}
	if (ret == 0)
		ret = open_inode(
			t, p,
			flags & ~(LINUX_O_CREAT | LINUX_O_EXCL | LINUX_O_TRUNC | LINUX_O_CLOEXEC),
			out);
	if (ret == 0 && writer) {
		file_set_writer(*out, ino);
	} else if (writer) {
		write_access_put(ino->dev, ino->ino);
	}
	if (ret == 0 && reader) {
		(*out)->read_access = true;
		(*out)->wa_dev = ino->dev;
		(*out)->wa_ino = ino->ino;
	} else if (reader) {
		read_access_put(ino->dev, ino->ino);
	}
	if (ret == 0 && !(flags & LINUX_O_PATH)) {
		fsnotify_open(*out);
		if (truncated)
			fsnotify_dentry(p->dentry, IN_MODIFY);
	}
	return ret;
}

int vfs_open_precheck(const char *path, unsigned flags)
{
	if ((flags & (LINUX_O_DIRECTORY | LINUX_O_CREAT)) == (LINUX_O_DIRECTORY | LINUX_O_CREAT))
		return -EINVAL;
	if ((flags & 020000000 /* __O_TMPFILE */) &&
	    ((flags & (LINUX_O_TMPFILE | LINUX_O_CREAT)) != LINUX_O_TMPFILE ||
	     (flags & LINUX_O_ACCMODE) == LINUX_O_RDONLY))
		return -EINVAL;
	return path[0] ? 0 : -ENOENT;
}

/* One round of vfs_openat2: OPEN_REDIRECT with *redirect set where O_CREAT
 * met a dangling symlink. */
static int openat2_once(struct task *t, int dirfd, const char *name, unsigned flags, unsigned mode,
			unsigned resolve, struct file **out, char **redirect)
{
	bool created = false;
	struct path p;
	int ret;

	if (flags & LINUX_O_PATH)
		flags &= VFS_O_PATH_FLAGS;
	/* Linux 6.4 on: O_DIRECTORY | O_CREAT once made a regular file */
	if ((flags & (LINUX_O_DIRECTORY | LINUX_O_CREAT)) == (LINUX_O_DIRECTORY | LINUX_O_CREAT))
		return -EINVAL;
	if (flags & 020000000 /* __O_TMPFILE */)
		return open_tmpfile(t, dirfd, name, flags, mode, resolve, out);
	if (flags & LINUX_O_CREAT) {
		struct path parent, child;
		bool slash;
		char *last;

		ret = path_parent_resolve(t, dirfd, name, resolve, &parent, &last, &slash);
		if (ret < 0)
			return ret;
		if (is_dots(last) || slash) {
			free(last);
			path_put(&parent);
			return -EISDIR;
		}
		/* Linux's lookup_open: nothing is made in a removed directory */
		if (inode_dead_dir(parent.dentry->inode)) {
			free(last);
			path_put(&parent);
			return -ENOENT;
		}
		ret = lookup_child(&(struct walk){ .t = t, .resolve = resolve }, &parent, last,
				   &child);
		if (ret == 0) {
			if (flags & LINUX_O_EXCL) {
				ret = -EEXIST;
			} else if (LINUX_S_ISLNK(child.dentry->inode->mode)) {
				ret = (flags & LINUX_O_NOFOLLOW)
					      ? -ELOOP
					      : path_lookup_resolve(t, dirfd, name, LOOKUP_FOLLOW,
								    resolve, &p);
				bool made = false;

				if (ret == -ENOENT && !resolve) {
					ret = link_target_path(t, &parent, &child, redirect);
					made = ret == 0;
				}
				path_put(&child);
				child.dentry = NULL; /* put: not again below */
				if (made) {
					free(last);
					path_put(&parent);
					return OPEN_REDIRECT;
				}
				if (ret == 0)
					child = p;
			}
			if (ret < 0) {
				/* O_EXCL's EEXIST, or the link's target made
				 * meanwhile on the host (EEXIST again) */
				if (child.dentry)
					path_put(&child);
				free(last);
				path_put(&parent);
				return ret;
			}
			p = child;
		} else if (ret == -ENOENT) {
			struct inode *newi;

			ret = may_change_dir(t, &parent);
			if (ret == 0 && !parent.dentry->inode->iop->mknod)
				ret = -EROFS;
			if (ret == 0)
				ret = create_node(t, parent.dentry->inode, last,
						  LINUX_S_IFREG | (mode & 07777), 0, &newi);
			if (ret < 0) {
				free(last);
				path_put(&parent);
				return ret;
			}
			p.mnt = mnt_get(parent.mnt);
			p.dentry = dentry_new(last, parent.dentry, newi);
			inode_put(newi);
			created = true;
			dcache_invalidate_absent();
			fsnotify_create(parent.dentry->inode, last, false);
			if (!p.dentry) {
				mnt_put(p.mnt);
				free(last);
				path_put(&parent);
				return -ENOMEM;
			}
		} else {
			free(last);
			path_put(&parent);
			return ret;
		}
		free(last);
		path_put(&parent);
	} else {
		ret = path_lookup_resolve(t, dirfd, name,
					  (flags & LINUX_O_NOFOLLOW) ? 0 : LOOKUP_FOLLOW, resolve,
					  &p);
		if (ret < 0)
			return ret;
	}
	ret = open_found(t, &p, flags, created, out);
	path_put(&p);
	return ret;
}

/* As Linux's file_open_root(path, "", flags): open_by_handle_at's open of
 * the path a handle gave, with openat's flag checks. O_CREAT finds the file
 * there (O_EXCL: EEXIST). */
int vfs_open_found(struct task *t, struct path *p, unsigned flags, struct file **out)
{
	*out = NULL;
	if ((flags & (LINUX_O_DIRECTORY | LINUX_O_CREAT)) == (LINUX_O_DIRECTORY | LINUX_O_CREAT))
		return -EINVAL;
	if (flags & LINUX_O_PATH)
		flags &= LINUX_O_PATH | LINUX_O_CLOEXEC | LINUX_O_DIRECTORY | LINUX_O_NOFOLLOW;
	/* Differs from Linux: O_TMPFILE on a directory's handle, which makes
	 * an unnamed file in it there, is refused. */
	if (flags & 020000000 /* __O_TMPFILE */)
		return -EOPNOTSUPP;
	if ((flags & (LINUX_O_CREAT | LINUX_O_EXCL)) == (LINUX_O_CREAT | LINUX_O_EXCL))
		return -EEXIST;
	return open_found(t, p, flags, false, out);
}

int vfs_openat2(struct task *t, int dirfd, const char *name, unsigned flags, unsigned mode,
		unsigned resolve, struct file **out)
{
	char *path = NULL, *next = NULL;
	int depth = 0, ret;

	for (;;) {
		ret = openat2_once(t, dirfd, path ? path : name, flags, mode, resolve, out, &next);
		free(path);
		if (ret != OPEN_REDIRECT)
			return ret;
		/* Linux's limit on the links followed in one open */
		if (++depth > MAX_SYMLINKS) {
			free(next);
			return -ELOOP;
		}
		path = next;
		next = NULL;
		dirfd = LINUX_AT_FDCWD;
	}
}

/* The lookup flags of an *at call's AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH. */
static unsigned at_lookup_flags(int atflags)
{
	return ((atflags & LINUX_AT_SYMLINK_NOFOLLOW) ? 0 : LOOKUP_FOLLOW) |
	       ((atflags & LINUX_AT_EMPTY_PATH) ? LOOKUP_EMPTY : 0);
}

/* execve's open (Linux's do_open_execat): name relative to dirfd, or
 * with AT_EMPTY_PATH and "" the file at dirfd itself; a symbolic link
 * under AT_SYMLINK_NOFOLLOW is ELOOP. Search-execute permission is what is
 * checked, not read: an execute-only binary runs. */
int vfs_open_exec(struct task *t, int dirfd, const char *name, int atflags, struct file **out)
{
	struct path p;
	int ret = path_lookupat(t, dirfd, name, at_lookup_flags(atflags), &p);

	if (ret < 0)
		return ret;
	ret = vfs_open_exec_found(t, &p, out);
	path_put(&p);
	return ret;
}

int vfs_open_exec_found(struct task *t, struct path *p, struct file **out)
{
	struct inode *ino = p->dentry->inode;
	int ret;

	/* Linux's may_open for MAY_EXEC: anything but a regular file is
	 * EACCES before it is opened (a FIFO's open would wait for a
	 * writer, a socket's is ENXIO). */
	if (LINUX_S_ISLNK(ino->mode))
		ret = -ELOOP;
	else if (!LINUX_S_ISREG(ino->mode) || (p->mnt->flags & MNT_NOEXEC))
		ret = -EACCES;
	else
		ret = inode_permission(t, ino, LINUX_X_OK);
	/* do_dentry_open's break_lease: an exec reads the file */
	if (ret == 0)
		ret = lease_break(ino, false, false);
	if (ret == 0)
		ret = open_inode(t, p, LINUX_O_RDONLY, out);
	/* do_open_execat's deny_write_access: ETXTBSY for a file open for
	 * writing; the file denies writes until it is released */
	if (ret == 0 && (ret = write_access_deny(ino)) < 0) {
		file_put(*out);
		*out = NULL;
	} else if (ret == 0) {
		(*out)->write_access = -1;
		(*out)->wa_dev = ino->dev;
		(*out)->wa_ino = ino->ino;
	}
	if (ret == 0)
		fsnotify_open(*out);
	return ret;
}

int vfs_fstatat(struct task *t, int dirfd, const char *name, int atflags, struct linux_stat *st)
{
	struct path p;
	int ret;

	if (!name[0] && (atflags & LINUX_AT_EMPTY_PATH) && dirfd != LINUX_AT_FDCWD) {
		struct file *f = fdget(t->files, dirfd);

		if (!f)
			return -EBADF;
		ret = file_stat(f, st);
		file_put(f);
		return ret;
	}
	ret = path_lookupat(t, dirfd, name, at_lookup_flags(atflags), &p);
	if (ret < 0)
		return ret;
	ret = vfs_getattr(p.dentry->inode, st);
	path_put(&p);
	return ret;
}

void stat_to_statx(const struct linux_stat *st, struct linux_statx *stx)
{
	memset(stx, 0, sizeof(*stx));
	stx->stx_mask = LINUX_STATX_BASIC_STATS;
	stx->stx_blksize = (uint32_t)st->st_blksize;
	stx->stx_nlink = (uint32_t)st->st_nlink;
	stx->stx_uid = st->st_uid;
	stx->stx_gid = st->st_gid;
	stx->stx_mode = (uint16_t)st->st_mode;
	stx->stx_ino = st->st_ino;
	stx->stx_size = (uint64_t)st->st_size;
	stx->stx_blocks = (uint64_t)st->st_blocks;
	stx->stx_atime.tv_sec = st->st_atime_sec;
	stx->stx_atime.tv_nsec = (uint32_t)st->st_atime_nsec;
	stx->stx_mtime.tv_sec = st->st_mtime_sec;
	stx->stx_mtime.tv_nsec = (uint32_t)st->st_mtime_nsec;
	stx->stx_ctime.tv_sec = st->st_ctime_sec;
	stx->stx_ctime.tv_nsec = (uint32_t)st->st_ctime_nsec;
	stx->stx_rdev_major =
		(uint32_t)(((st->st_rdev >> 32) & 0xfffff000) | ((st->st_rdev >> 8) & 0xfff));
	stx->stx_rdev_minor = (uint32_t)(((st->st_rdev >> 12) & 0xffffff00) | (st->st_rdev & 0xff));
	stx->stx_dev_major =
		(uint32_t)(((st->st_dev >> 32) & 0xfffff000) | ((st->st_dev >> 8) & 0xfff));
	stx->stx_dev_minor = (uint32_t)(((st->st_dev >> 12) & 0xffffff00) | (st->st_dev & 0xff));
}

static uint64_t encode_dev(uint32_t major, uint32_t minor)
{
	return ((uint64_t)(major & 0xfffff000) << 32) | ((uint64_t)(major & 0xfff) << 8) |
	       ((uint64_t)(minor & 0xffffff00) << 12) | (minor & 0xff);
}

/* stat's fields of a statx (the host's). */
void statx_to_stat(const struct linux_statx *stx, struct linux_stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_dev = encode_dev(stx->stx_dev_major, stx->stx_dev_minor);
	st->st_ino = stx->stx_ino;
	st->st_nlink = stx->stx_nlink;
	st->st_mode = stx->stx_mode;
	st->st_uid = stx->stx_uid;
	st->st_gid = stx->stx_gid;
	st->st_rdev = encode_dev(stx->stx_rdev_major, stx->stx_rdev_minor);
	st->st_size = (int64_t)stx->stx_size;
	st->st_blksize = stx->stx_blksize;
	st->st_blocks = (int64_t)stx->stx_blocks;
	st->st_atime_sec = (uint64_t)stx->stx_atime.tv_sec;
	st->st_atime_nsec = stx->stx_atime.tv_nsec;
	st->st_mtime_sec = (uint64_t)stx->stx_mtime.tv_sec;
	st->st_mtime_nsec = stx->stx_mtime.tv_nsec;
	st->st_ctime_sec = (uint64_t)stx->stx_ctime.tv_sec;
	st->st_ctime_nsec = stx->stx_ctime.tv_nsec;
}

/* Linux's vfs_statx on a path: the filesystem's fields, then the
 * mount's (its id, whether the path is its root). */
static int statx_path(const struct path *p, unsigned mask, struct linux_statx *stx)
{
	struct inode *ino = p->dentry->inode;
	struct linux_stat st;
	int ret = vfs_getattr(ino, &st);

	if (ret < 0)
		return ret;
	stat_to_statx(&st, stx);
	if (ino->iop->getattr_x)
		ino->iop->getattr_x(ino, mask, stx);
	/* the unique id when asked for, else the mountinfo one */
	if (mask & LINUX_STATX_MNT_ID_UNIQUE) {
		stx->stx_mask |= LINUX_STATX_MNT_ID_UNIQUE;
		stx->stx_mnt_id = mount_unique_id(p->mnt);
	} else {
		stx->stx_mask |= LINUX_STATX_MNT_ID;
		stx->stx_mnt_id = (uint64_t)p->mnt->id;
	}
	stx->stx_attributes_mask |=
		LINUX_STATX_ATTR_AUTOMOUNT | LINUX_STATX_ATTR_DAX | LINUX_STATX_ATTR_MOUNT_ROOT;
	if (p->dentry == p->mnt->root)
		stx->stx_attributes |= LINUX_STATX_ATTR_MOUNT_ROOT;
	return 0;
}

/* Partial: STATX_DIOALIGN is not given (a caller
 * that asks sees them missing from stx_mask, as on an older Linux), nor a
 * mount id for files that have no path (pipes, sockets: Linux gives its
 * internal pipefs/sockfs mount's). */
int vfs_statx(struct task *t, int dirfd, const char *name, int atflags, unsigned mask,
	      struct linux_statx *stx)
{
	struct linux_stat st;
	struct path p;
	int ret;

	if (!name[0] && (atflags & LINUX_AT_EMPTY_PATH) && dirfd != LINUX_AT_FDCWD) {
		struct file *f = fdget(t->files, dirfd);

		if (!f)
			return -EBADF;
		if (f->path.dentry) {
			ret = statx_path(&f->path, mask, stx);
		} else {
			ret = file_stat(f, &st);
			if (ret == 0)
				stat_to_statx(&st, stx);
		}
		file_put(f);
		return ret;
	}
	ret = path_lookupat(
		t, dirfd, name,
		at_lookup_flags(atflags & (LINUX_AT_SYMLINK_NOFOLLOW | LINUX_AT_EMPTY_PATH)), &p);
	if (ret < 0)
		return ret;
	ret = statx_path(&p, mask, stx);
	path_put(&p);
	return ret;
}

long vfs_readlinkat(struct task *t, int dirfd, const char *name, char *buf, size_t n)
{
	struct path p;
	long ret = path_lookupat(t, dirfd, name, LOOKUP_EMPTY, &p);

	if (ret < 0)
		return ret;
	if (!LINUX_S_ISLNK(p.dentry->inode->mode))
		ret = name[0] ? -EINVAL : -ENOENT; /* "" names no link: as Linux */
	else if (p.dentry->inode->iop->readlink) {
		ret = p.dentry->inode->iop->readlink(p.dentry->inode, buf, n);
		if (ret >= 0)
			path_accessed(&p); /* do_readlinkat's touch_atime */
	} else if (p.dentry->inode->iop->get_link_path) {
		struct path to;

		ret = p.dentry->inode->iop->get_link_path(p.dentry->inode, t, &to);
		if (ret == 0) {
			char *s = path_name_d(&to, &t->fs->root);

			ret = s ? (long)strlen(s) : -ENOMEM;
			if (s && (size_t)ret > n)
				ret = (long)n;
			if (s)
				memcpy(buf, s, ret);
			free(s);
			path_put(&to);
		}
	} else {
		ret = -EINVAL;
	}
	path_put(&p);
	return ret;
}

int vfs_faccessat(struct task *t, int dirfd, const char *name, int mode, int atflags)
{
	struct path p;
	int ret;

	if (mode & ~(LINUX_R_OK | LINUX_W_OK | LINUX_X_OK))
		return -EINVAL;
	ret = path_lookupat(t, dirfd, name, at_lookup_flags(atflags), &p);
	if (ret < 0)
		return ret;
	ret = inode_permission(t, p.dentry->inode, mode);
	if (ret == 0 && (mode & LINUX_W_OK) && path_rdonly(&p) &&
	    (LINUX_S_ISREG(p.dentry->inode->mode) || inode_is_dir(p.dentry->inode)))
		ret = -EROFS;
	path_put(&p);
	return ret;
}

static bool xattr_prefix(const char *name, const char *prefix)
{
	return strncmp(name, prefix, strlen(prefix)) == 0;
}

/* Linux's xattr_permission and, for security.*, commoncap's
 * cap_inode_setxattr/removexattr: what is decided before the filesystem.
 * mode is the inode's (or a file's) type and permission bits; ino NULL
 * for a file with no inode of ours (then no permission bits to check). */
static int xattr_check(struct task *t, const struct inode *ino, uint32_t mode, uint32_t uid,
		       const char *name, bool write)
{
	const struct cred *c = &t->proc->cred;

	if (xattr_prefix(name, "security.")) {
		/* security.capability wants CAP_SETFCAP, the rest CAP_SYS_ADMIN */
		if (write && !capable(c, strcmp(name, "security.capability") == 0 ? CAP_SETFCAP
										  : CAP_SYS_ADMIN))
			return -EPERM;
		return 0;
	}
	/* system.*: the filesystem's to judge; an ACL only once the writer
	 * is the file's owner or has CAP_FOWNER (Linux's set_posix_acl) */
	if (xattr_prefix(name, "system.")) {
		if (write && xattr_prefix(name, "system.posix_acl_") && c->fsuid != uid &&
		    !capable(c, CAP_FOWNER))
			return -EPERM;
		return 0;
	}
	if (xattr_prefix(name, "trusted.")) {
		if (!capable(c, CAP_SYS_ADMIN))
			return write ? -EPERM : -ENODATA;
		return 0;
	}
	if (xattr_prefix(name, "user.")) {
		if (!LINUX_S_ISREG(mode) && !LINUX_S_ISDIR(mode))
			return write ? -EPERM : -ENODATA;
		/* a sticky directory's: its owner's or CAP_FOWNER's to write */
		if (LINUX_S_ISDIR(mode) && (mode & LINUX_S_ISVTX) && write && c->fsuid != uid &&
		    !capable(c, CAP_FOWNER))
			return -EPERM;
	}
	return ino ? inode_permission(t, (struct inode *)ino, write ? LINUX_W_OK : LINUX_R_OK) : 0;
}

int xattr_permission(struct task *t, const struct inode *ino, const char *name, bool write)
{
	struct linux_stat st = { .st_mode = ino->mode };

	/* an immutable or append-only file's xattrs stay */
	if (write && (inode_iflags((struct inode *)ino) & (INODE_IMMUTABLE | INODE_APPEND)))
		return -EPERM;
	/* the permission bits and owner (a sticky directory's, an ACL's) */
	if (write && (xattr_prefix(name, "system.posix_acl_") ||
		      (LINUX_S_ISDIR(ino->mode) && xattr_prefix(name, "user."))))
		vfs_getattr((struct inode *)ino, &st);
	return xattr_check(t, ino, st.st_mode, st.st_uid, name, write);
}

long xattr_get(struct task *t, struct inode *ino, const char *name, void *buf, size_t n)
{
	int ret = xattr_permission(t, ino, name, false);

	if (ret < 0)
		return ret;
	ret = acl_route(ino, name);
	if (ret)
		return ret < 0 ? ret : acl_get(t, ino, ret, buf, n); /* Linux's do_get_acl */
	if (!ino->iop->getxattr)
		return -EOPNOTSUPP;
	/* a name in no namespace has no handler (Linux's xattr_resolve_name) */
	if (!xattr_prefix(name, "user.") && !xattr_prefix(name, "trusted.") &&
	    !xattr_prefix(name, "security.") && !xattr_prefix(name, "system."))
		return -EOPNOTSUPP;
	return ino->iop->getxattr(ino, name, buf, n);
}

long xattr_list(struct task *t, struct inode *ino, char *buf, size_t n)
{
	size_t out = 0, l;
	char *all;
	long len, i;

	if (!ino->iop->listxattr)
		return 0;
	if (capable(&t->proc->cred, CAP_SYS_ADMIN))
		return ino->iop->listxattr(ino, buf, n);
	/* trusted.* names are listed only to CAP_SYS_ADMIN (Linux's
	 * simple_xattr_list): the filesystem's list, less those */
	all = malloc(65536); /* XATTR_LIST_MAX */
	if (!all)
		return -ENOMEM;
	len = ino->iop->listxattr(ino, all, 65536);
	for (i = 0; len > 0 && i < len; i += (long)l) {
		l = strnlen(all + i, (size_t)(len - i)) + 1;
		if (xattr_prefix(all + i, "trusted."))
			continue;
		if (n && out + l > n) {
			len = -ERANGE;
			break;
		}
		if (n)
			memcpy(buf + out, all + i, l);
		out += l;
	}
	free(all);
	return len < 0 ? len : (long)out;
}

long xattr_fileless(struct task *t, struct file *f, const char *name, bool write)
{
	struct linux_stat st;
	int ret = file_stat(f, &st) == 0 ? xattr_check(t, NULL, st.st_mode, st.st_uid, name, write)
					 : 0;

	return ret < 0 ? ret : -EOPNOTSUPP;
}

long vfs_getxattr(struct task *t, const char *name, bool nofollow, const char *attr, void *buf,
		  size_t n)
{
	struct path p;
	long ret = path_lookupat(t, LINUX_AT_FDCWD, name, nofollow ? 0 : LOOKUP_FOLLOW, &p);

	if (ret < 0)
		return ret;
	ret = xattr_get(t, p.dentry->inode, attr, buf, n);
	path_put(&p);
	return ret;
}

long vfs_listxattr(struct task *t, const char *name, bool nofollow, char *buf, size_t n)
{
	struct path p;
	long ret = path_lookupat(t, LINUX_AT_FDCWD, name, nofollow ? 0 : LOOKUP_FOLLOW, &p);

	if (ret < 0)
		return ret;
	ret = xattr_list(t, p.dentry->inode, buf, n);
	path_put(&p);
	return ret;
}

int vfs_chdir(struct task *t, int dirfd, const char *name)
{
	struct path p;
	int ret =
		path_lookupat(t, dirfd, name, LOOKUP_FOLLOW | LOOKUP_DIRECTORY | LOOKUP_EMPTY, &p);

	if (ret < 0)
		return ret;
	/* fchdir: LOOKUP_DIRECTORY does not look at an empty name's start,
	 * and Linux's ENOTDIR comes before the permission check */
	ret = LINUX_S_ISDIR(p.dentry->inode->mode)
		      ? inode_permission(t, p.dentry->inode, LINUX_X_OK)
		      : -ENOTDIR;
	if (ret < 0) {
		path_put(&p);
		return ret;
	}
	path_put(&t->fs->cwd);
	t->fs->cwd = p;
	return 0;
}

int vfs_chroot(struct task *t, const char *name)
{
	struct path p;
	int ret;

	if (!ns_capable(&t->proc->cred, cred_user_ns(&t->proc->cred), 18 /* CAP_SYS_CHROOT */))
		return -EPERM;
	ret = path_lookupat(t, LINUX_AT_FDCWD, name, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &p);
	if (ret < 0)
		return ret;
	ret = inode_permission(t, p.dentry->inode, LINUX_X_OK);
	if (ret < 0) {
		path_put(&p);
		return ret;
	}
	path_put(&t->fs->root);
	t->fs->root = p;
	return 0;
}

/* A cwd outside the root (chroot, or its mount detached) is named from
 * the real root with "(unreachable)" before it, as Linux's getcwd: no
 * absolute path, so libc's getcwd gives ENOENT. */
long vfs_getcwd(struct task *t, char *buf, size_t n)
{
	static const char unreachable[] = "(unreachable)";
	size_t len, pre;
	bool reached;
	char *s;

	if (inode_dead_dir(t->fs->cwd.dentry->inode))
		return -ENOENT; /* Linux: the cwd was removed (d_unlinked) */
	s = path_name_reach(&t->fs->cwd, &t->fs->root, &reached);
	if (!s)
		return -ENAMETOOLONG;
	pre = reached ? 0 : sizeof(unreachable) - 1;
	len = pre + strlen(s) + 1;
	if (len > LINUX_PATH_MAX) {
		free(s);
		return -ENAMETOOLONG; /* Linux's page holds no more */
	}
	if (len > n) {
		free(s);
		return -ERANGE;
	}
	memcpy(buf, unreachable, pre);
	memcpy(buf + pre, s, len - pre);
	free(s);
	return (long)len;
}

int vfs_mknodat(struct task *t, int dirfd, const char *name, uint32_t mode, uint64_t dev)
{
	struct path parent;
	struct inode *dir;
	char *last;
	bool slash;
	int ret = path_parentat(t, dirfd, name, &parent, &last, &slash);

	if (ret < 0)
		return ret;
	dir = parent.dentry->inode;
	ret = may_create_name(dir, last, slash, LINUX_S_ISDIR(mode));
	if (ret == 0)
		ret = may_change_dir(t, &parent);
	if (ret == 0 && !dir->iop->mknod)
		ret = -EPERM;
	if (ret == 0)
		ret = create_node(t, dir, last, mode, dev, NULL);
	if (ret == 0) {
		dcache_invalidate_absent();
		fsnotify_create(dir, last, LINUX_S_ISDIR(mode));
	}
	free(last);
	path_put(&parent);
	return ret;
}

int vfs_unlinkat(struct task *t, int dirfd, const char *name, bool is_rmdir)
{
	struct path parent, child;
	bool slash;
	char *last;
	int ret = path_parentat(t, dirfd, name, &parent, &last, &slash);

	if (ret < 0)
		return ret;
	if (is_rmdir && !name[strspn(name, "/")]) {
		ret = -EBUSY; /* the root */
		goto out;
	}
	if (is_dots(last)) {
		ret = !is_rmdir ? -EISDIR : strcmp(last, ".") == 0 ? -EINVAL : -ENOTEMPTY;
		goto out;
	}
	/* mnt_want_write, before the name is looked up */
	if (path_rdonly(&parent)) {
		ret = -EROFS;
		goto out;
	}
	ret = lookup_child(&(struct walk){ .t = t }, &parent, last, &child);
	if (ret < 0)
		goto out;
	if (child.mnt != parent.mnt || child.dentry->inode->ino == 0 ||
	    mount_is_local_mountpoint(task_mnt_ns(t), child.dentry->inode)) {
		ret = -EBUSY; /* a mount point (reached through another mount too) */
	} else if (is_rmdir && !inode_is_dir(child.dentry->inode)) {
		ret = -ENOTDIR;
	} else if (!is_rmdir && inode_is_dir(child.dentry->inode)) {
		ret = -EISDIR;
	} else if (!is_rmdir && slash) {
		ret = -ENOTDIR;
	} else {
		struct linux_stat st = { .st_nlink = 1 };

		ret = may_change_dir(t, &parent);
		if (ret == 0)
			ret = may_delete(t, parent.dentry->inode, child.dentry->inode);
		if (ret == 0)
			vfs_getattr(child.dentry->inode, &st);
		if (ret == 0)
			ret = parent.dentry->inode->iop->unlink
				      ? parent.dentry->inode->iop->unlink(parent.dentry->inode,
									  last, is_rmdir)
				      : -EPERM;
		if (ret == 0) {
			dcache_invalidate();
			mount_detach_on(parent.dentry->inode, last, child.dentry->inode);
			dentry_unlinked(parent.dentry->inode, last, child.dentry->inode);
			fsnotify_unlink(parent.dentry->inode, last, child.dentry->inode,
					(unsigned)st.st_nlink);
		}
	}
	path_put(&child);
out:
	free(last);
	path_put(&parent);
	return ret;
}

int vfs_symlinkat(struct task *t, const char *target, int dirfd, const char *name)
{
	struct path parent;
	struct inode *dir;
	char *last;
	bool slash;
	int ret;

	if (!target[0])
		return -ENOENT;
	ret = path_parentat(t, dirfd, name, &parent, &last, &slash);
	if (ret < 0)
		return ret;
	dir = parent.dentry->inode;
	ret = may_create_name(dir, last, slash, false);
	if (ret == 0)
		ret = may_change_dir(t, &parent);
	if (ret == 0)
		ret = dir->iop->symlink ? dir->iop->symlink(dir, last, target, &t->proc->cred)
					: -EPERM;
	if (ret == 0) {
		dcache_invalidate_absent();
		fsnotify_create(dir, last, false);
	}
	free(last);
	path_put(&parent);
	return ret;
}

/* link/linkat. Linux's order: the old name, then the new one (EEXIST, or
 * ENOENT for a trailing slash), EXDEV, permission, and only then EPERM for
 * a directory. */
int vfs_linkat(struct task *t, int odirfd, const char *oname, int ndirfd, const char *nname,
	       int flags)
{
	struct path old, parent;
	struct inode *dir;
	char *last;
	bool slash;
	int ret;

	ret = path_lookupat(t, odirfd, oname,
			    ((flags & LINUX_AT_SYMLINK_FOLLOW) ? LOOKUP_FOLLOW : 0) |
				    ((flags & LINUX_AT_EMPTY_PATH) ? LOOKUP_EMPTY : 0),
			    &old);
	if (ret < 0)
		return ret;
	ret = path_parentat(t, ndirfd, nname, &parent, &last, &slash);
	if (ret < 0) {
		path_put(&old);
		return ret;
	}
	dir = parent.dentry->inode;
	ret = may_create_name(dir, last, slash, false);
	if (ret == 0 && old.mnt != parent.mnt)
		ret = -EXDEV;
	if (ret == 0)
		ret = may_change_dir(t, &parent);
	if (ret == 0 && inode_is_dir(old.dentry->inode))
		ret = -EPERM;
	if (ret == 0 && (inode_iflags(old.dentry->inode) & (INODE_IMMUTABLE | INODE_APPEND)))
		ret = -EPERM;
	if (ret == 0)
		ret = dir->iop->link ? dir->iop->link(dir, last, old.dentry->inode) : -EPERM;
	if (ret == 0) {
		dcache_invalidate_absent();
		fsnotify_link(dir, last, old.dentry->inode);
	}
	free(last);
	path_put(&parent);
	path_put(&old);
	return ret;
}

/* Is a an ancestor of (or the same as) b? */
static bool is_ancestor(struct dentry *a, struct dentry *b)
{
	for (; b; b = b->parent)
		if (b->inode == a->inode ||
		    (b->inode->dev == a->inode->dev && b->inode->ino == a->inode->ino))
			return true;
	return false;
}

/* rename/renameat/renameat2. flags: RENAME_NOREPLACE (1), RENAME_EXCHANGE
 * (2: both must exist, any types), RENAME_WHITEOUT (4: the filesystem
 * leaves a whiteout at the old name; as Linux since 5.8, no CAP_MKNOD is
 * needed). The filesystem's rename does the work. */
int vfs_renameat2(struct task *t, int odirfd, const char *oname, int ndirfd, const char *nname,
		  unsigned flags)
{
	struct path op, np, src, dst = { NULL, NULL };
	char *olast = NULL, *nlast = NULL;
	bool exch = flags & 2, oslash, nslash;
	struct linux_stat dst_st = { .st_nlink = 1 };
	int ret;

	if (flags & ~(1U /* NOREPLACE */ | 2U /* EXCHANGE */ | 4U /* WHITEOUT */))
		return -EINVAL;
	if (exch && (flags & 5))
		return -EINVAL;
	ret = path_parentat(t, odirfd, oname, &op, &olast, &oslash);
	if (ret < 0)
		return ret;
	ret = path_parentat(t, ndirfd, nname, &np, &nlast, &nslash);
	if (ret < 0)
		goto out_op;
	/* Linux's do_renameat2: EXDEV, then "." or ".." as the old name
	 * EBUSY, then as the new one EEXIST for RENAME_NOREPLACE, else EBUSY;
	 * EROFS. */
	if (op.mnt != np.mnt) {
		ret = -EXDEV;
		goto out;
	}
	if (is_dots(olast) || is_dots(nlast)) {
		ret = !is_dots(olast) && (flags & 1) ? -EEXIST : -EBUSY;
		goto out;
	}
	/* then mnt_want_write, before the names are looked up */
	if (path_rdonly(&op)) {
		ret = -EROFS;
		goto out;
	}
	ret = lookup_child(&(struct walk){ .t = t }, &op, olast, &src);
	if (ret < 0)
		goto out;
	ret = lookup_child(&(struct walk){ .t = t }, &np, nlast, &dst);
	if (ret < 0) {
		dst.dentry = NULL;
		if (exch || ret != -ENOENT)
			goto out_src;
	}
	ret = 0;
	/* A trailing slash names a directory: on a non-directory source (or,
	 * but for an exchange, its target) it is ENOTDIR. */
	if (dst.dentry && (flags & 1))
		ret = -EEXIST;
	else if (exch && nslash && !inode_is_dir(dst.dentry->inode))
		ret = -ENOTDIR;
	else if (!inode_is_dir(src.dentry->inode) && (oslash || (!exch && nslash)))
		ret = -ENOTDIR;
	/* source should not be an ancestor of the target, nor the target of
	 * the source */
	else if (inode_is_dir(src.dentry->inode) && is_ancestor(src.dentry, np.dentry))
		ret = -EINVAL;
	else if (dst.dentry && inode_is_dir(dst.dentry->inode) &&
		 is_ancestor(dst.dentry, op.dentry))
		ret = exch ? -EINVAL : -ENOTEMPTY;
	if (ret == 0 && dst.dentry && src.dentry->inode->dev == dst.dentry->inode->dev &&
	    src.dentry->inode->ino == dst.dentry->inode->ino)
		goto out_dst; /* the same file: nothing to do */
	if (ret == 0)
		ret = may_change_dir(t, &op);
	if (ret == 0)
		ret = may_change_dir(t, &np);
	if (ret == 0)
		ret = may_delete(t, op.dentry->inode, src.dentry->inode);
	if (ret == 0 && dst.dentry) {
		if (flags & 1)
			ret = -EEXIST;
		else if (!exch && inode_is_dir(src.dentry->inode) &&
			 !inode_is_dir(dst.dentry->inode))
			ret = -ENOTDIR;
		else if (!exch && !inode_is_dir(src.dentry->inode) &&
			 inode_is_dir(dst.dentry->inode))
			ret = -EISDIR;
		else
			ret = may_delete(t, np.dentry->inode, dst.dentry->inode);
	}
	/* A mount point on either side (the walk crossed into its mount):
	 * Linux's is_local_mountpoint, after the permission checks. */
	if (ret == 0 &&
	    (src.mnt != op.mnt || (dst.dentry && dst.mnt != np.mnt) ||
	     mount_is_local_mountpoint(task_mnt_ns(t), src.dentry->inode) ||
	     (dst.dentry && mount_is_local_mountpoint(task_mnt_ns(t), dst.dentry->inode))))
		ret = -EBUSY;
	if (ret == 0 && !dst.dentry && inode_dead_dir(np.dentry->inode))
		ret = -ENOENT; /* a new name in a removed directory */
	if (ret == 0 && dst.dentry)
		vfs_getattr(dst.dentry->inode, &dst_st);
	if (ret == 0)
		ret = op.dentry->inode->iop->rename
			      ? op.dentry->inode->iop->rename(op.dentry->inode, olast,
							      np.dentry->inode, nlast, flags)
			      : -EPERM;
	if (ret == 0) {
		dcache_invalidate();
		/* The names the open files and working directories show
		 * follow (Linux's d_move, d_exchange, and d_delete of a
		 * replaced target). */
		if (exch) {
			dentry_exchanged(op.dentry->inode, olast, src.dentry->inode, op.dentry,
					 np.dentry->inode, nlast, dst.dentry->inode, np.dentry);
		} else {
			if (dst.dentry) {
				mount_detach_on(np.dentry->inode, nlast, dst.dentry->inode);
				dentry_unlinked(np.dentry->inode, nlast, dst.dentry->inode);
			}
			dentry_renamed(op.dentry->inode, olast, src.dentry->inode, np.dentry,
				       nlast);
		}
	}
	if (ret == 0)
		fsnotify_rename(op.dentry->inode, olast, np.dentry->inode, nlast, src.dentry->inode,
				dst.dentry ? dst.dentry->inode : NULL, (unsigned)dst_st.st_nlink,
				exch);
out_dst:
	if (dst.dentry)
		path_put(&dst);
out_src:
	path_put(&src);
out:
	free(nlast);
	path_put(&np);
out_op:
	free(olast);
	path_put(&op);
	return ret;
}

int vfs_setattr_inode(struct task *t, struct path *p, struct iattr *ia)
{
	const struct cred *c = &t->proc->cred;
	struct inode *ino = p->dentry->inode;
	struct linux_stat st;
	unsigned valid;
	bool owner;
	int ret;

	/* (any type: Linux's chmod_common and chown_common want the mount
	 * writable; skas once let a character device through) */
	if (path_rdonly(p))
		return -EROFS;
	/* A symlink's mode does not change (Linux 6.6's notify_change, before
	 * any permission check); fchmodat2 with AT_SYMLINK_NOFOLLOW asks it */
	if ((ia->valid & ATTR_MODE) && LINUX_S_ISLNK(ino->mode))
		return -EOPNOTSUPP;
	/* notify_change: an immutable or append-only file keeps its mode,
	 * owners and times (an immutable one even the time of now), and
	 * an append-only one its size (do_sys_truncate, do_ftruncate) */
	if ((ia->valid & (ATTR_MODE | ATTR_UID | ATTR_GID | ATTR_TIMES_SET)) &&
	    (inode_iflags(ino) & (INODE_IMMUTABLE | INODE_APPEND)))
		return -EPERM;
	if ((ia->valid & ATTR_SIZE) && (inode_iflags(ino) & INODE_APPEND))
		return -EPERM;
	if ((ia->valid & ATTR_TOUCH) && (inode_iflags(ino) & INODE_IMMUTABLE))
		return -EPERM;
	ret = vfs_getattr(ino, &st);
	if (ret < 0)
		return ret;
	/* inode_owner_or_capable */
	owner = st.st_uid == c->fsuid || capable_wrt_ids(c, st.st_uid, st.st_gid, CAP_FOWNER);
	if (ia->valid & ATTR_MODE) {
		if (!owner)
			return -EPERM;
		/* Without CAP_FSETID the set-group-ID bit needs the group. */
		if (!in_group(c, (ia->valid & ATTR_GID) ? ia->gid : st.st_gid) &&
		    !capable_wrt_ids(c, st.st_uid, st.st_gid, 4 /* CAP_FSETID */))
			ia->mode &= ~02000;
	}
	/* Linux's notify_change and setattr_prepare: times set to now need
	 * the owner or write access, other times the owner. */
	if ((ia->valid & ATTR_TIMES_SET) && !owner)
		return -EPERM;
	if ((ia->valid & ATTR_TOUCH) && !owner) {
		ret = inode_permission(t, ino, LINUX_W_OK);
		if (ret < 0)
			return ret;
	}
	if (ia->valid & (ATTR_UID | ATTR_GID)) {
		bool chown_ok = capable_wrt_ids(c, st.st_uid, st.st_gid, CAP_CHOWN);

		if ((ia->valid & ATTR_UID) && ia->uid != st.st_uid && !chown_ok)
			return -EPERM;
		if ((ia->valid & ATTR_GID) && ia->gid != st.st_gid && !chown_ok &&
		    (st.st_uid != c->fsuid || !in_group(c, ia->gid)))
			return -EPERM;
		/* chown clears set-user-ID and set-group-ID on non-directories */
		if (!inode_is_dir(ino) && (st.st_mode & 06000)) {
			ia->valid |= ATTR_MODE;
			ia->mode = st.st_mode & 07777 & ~((st.st_mode & 010) ? 06000 : 04000);
		}
	}
	if (ia->valid & ATTR_SIZE) {
		if (inode_is_dir(ino))
			return -EISDIR;
		if (!LINUX_S_ISREG(ino->mode))
			return -EINVAL;
		ret = file_newsize_ok(st.st_size, ia->size); /* setattr_prepare */
		if (ret < 0)
			return ret;
	}
	if (!ino->iop->setattr)
		return -EPERM;
	valid = ia->valid;
	ia->valid |= ATTR_CTIME;
	ret = ino->iop->setattr(ino, ia);
	if (ret == 0 && (valid & ATTR_MODE))
		acl_chmod(ino, ia->mode); /* its access ACL follows */
	if (ret == 0)
		fsnotify_change(p->dentry, valid);
	return ret;
}

int vfs_setattr_at(struct task *t, int dirfd, const char *name, int atflags, struct iattr *ia)
{
	struct path p;
	int ret = path_lookupat(t, dirfd, name, at_lookup_flags(atflags), &p);

	if (ret < 0)
		return ret;
	ret = vfs_setattr_inode(t, &p, ia);
	path_put(&p);
	return ret;
}

/* statfs's f_flags for a mount's own flags (Linux's flags_by_mnt). */
static int64_t statfs_mnt_flags(const struct mount *m)
{
	static const struct {
		unsigned mnt;
		int64_t st;
	} map[] = { { MNT_NOSUID, LINUX_ST_NOSUID },	      { MNT_NODEV, LINUX_ST_NODEV },
		    { MNT_NOEXEC, LINUX_ST_NOEXEC },	      { MNT_NOATIME, LINUX_ST_NOATIME },
		    { MNT_NODIRATIME, LINUX_ST_NODIRATIME },  { MNT_RELATIME, LINUX_ST_RELATIME },
		    { MNT_NOSYMFOLLOW, LINUX_ST_NOSYMFOLLOW } };
	int64_t f = LINUX_ST_VALID;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (m->flags & map[i].mnt)
			f |= map[i].st;
	return f;
}

int vfs_statfs_at(struct task *t, int dirfd, const char *name, int atflags, struct linux_statfs *st)
{
	struct path p;
	int ret = path_lookupat(
		t, dirfd, name,
		LOOKUP_FOLLOW | ((atflags & LINUX_AT_EMPTY_PATH) ? LOOKUP_EMPTY : 0), &p);

	if (ret < 0)
		return ret;
	memset(st, 0, sizeof(*st));
	if (p.dentry->inode->iop->statfs) {
		ret = p.dentry->inode->iop->statfs(p.dentry->inode, st);
	} else {
		st->f_type = (int64_t)p.dentry->inode->sb->magic;
		st->f_bsize = 4096;
		st->f_namelen = LINUX_NAME_MAX;
		st->f_frsize = 4096;
	}
	/* Linux's simple_statfs and shmem_statfs give every filesystem an
	 * fsid (the device's, or a tmpfs's uuid's); the host's is kept. */
	if (!st->f_fsid[0] && !st->f_fsid[1])
		st->f_fsid[0] = (int32_t)new_encode_dev(p.dentry->inode->sb->dev);
	/* As Linux's calculate_f_flags, the flags come from the mount whatever
	 * the filesystem said, with ST_VALID: glibc's statvfs takes f_flag from
	 * them only when ST_VALID is set (else it guesses from /proc/mounts). */
	st->f_flags = statfs_mnt_flags(p.mnt);
	if (p.mnt->sb->sflags & LINUX_MS_SYNCHRONOUS) /* flags_by_sb */
		st->f_flags |= LINUX_ST_SYNCHRONOUS;
	if (p.mnt->sb->sflags & LINUX_MS_MANDLOCK)
		st->f_flags |= LINUX_ST_MANDLOCK;
	if (path_rdonly(&p))
		st->f_flags |= LINUX_ST_RDONLY;
	path_put(&p);
	return ret;
}
