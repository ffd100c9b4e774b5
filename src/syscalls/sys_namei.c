/* syscalls/sys_namei.c: the calls that change names and attributes:
 * mkdir, mknod, unlink, rmdir, rename, link, symlink, chmod, chown,
 * truncate, utimes, statfs, chroot, sync, xattr setters. */
#include <stdlib.h>
#include <string.h>

#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "kernel/userns.h"
#include "mm/usercopy.h"
#include "vfs/denywrite.h"
#include "vfs/lease.h"
#include "vfs/acl.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "vfs/fsnotify.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/stat.h"
#include "abi/linux/types.h"

#define UTIME_NOW  ((1L << 30) - 1)
#define UTIME_OMIT ((1L << 30) - 2)

static long do_mknodat(struct task *t, int dirfd, uaddr_t upath, uint32_t mode, uint64_t dev)
{
	char *path;
	int ret = get_user_path(t, upath, &path);

	if (ret < 0)
		return ret;
	ret = vfs_mknodat(t, dirfd, path, mode, dev);
	free(path);
	return ret;
}

static long check_mknod(struct task *t, uint32_t mode)
{
	uint32_t type = mode & LINUX_S_IFMT;

	if (type == 0)
		return LINUX_S_IFREG;
	if (type == LINUX_S_IFDIR)
		return -EPERM;
	if ((type == LINUX_S_IFCHR || type == LINUX_S_IFBLK) &&
	    !capable(&t->proc->cred, 27 /* CAP_MKNOD */))
		return -EPERM;
	if (type != LINUX_S_IFREG && type != LINUX_S_IFCHR && type != LINUX_S_IFBLK &&
	    type != LINUX_S_IFIFO && type != LINUX_S_IFSOCK)
		return -EINVAL;
	return type;
}

long sys_mknodat(struct task *t, const struct sysargs *a)
{
	uint32_t mode = sysarg_uint(a, 2);
	long type = check_mknod(t, mode);

	if (type < 0)
		return type;
	mode = (uint32_t)type | (mode & 07777); /* the umask: vfs_mknodat's */
	return do_mknodat(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), mode, sysarg_uint(a, 3));
}

long sys_mknod(struct task *t, const struct sysargs *a)
{
	uint32_t mode = sysarg_uint(a, 1);
	long type = check_mknod(t, mode);

	if (type < 0)
		return type;
	mode = (uint32_t)type | (mode & 07777);
	return do_mknodat(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0), mode, sysarg_uint(a, 2));
}

long sys_mkdirat(struct task *t, const struct sysargs *a)
{
	return do_mknodat(t, sysarg_int(a, 0), sysarg_uaddr(a, 1),
			  LINUX_S_IFDIR | (sysarg_uint(a, 2) & 07777), 0);
}

long sys_mkdir(struct task *t, const struct sysargs *a)
{
	return do_mknodat(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0),
			  LINUX_S_IFDIR | (sysarg_uint(a, 1) & 07777), 0);
}

static long do_unlinkat(struct task *t, int dirfd, uaddr_t upath, bool rmdir)
{
	char *path;
	int ret = get_user_path(t, upath, &path);

	if (ret < 0)
		return ret;
	ret = vfs_unlinkat(t, dirfd, path, rmdir);
	free(path);
	return ret;
}

long sys_unlink(struct task *t, const struct sysargs *a)
{
	return do_unlinkat(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0), false);
}

long sys_rmdir(struct task *t, const struct sysargs *a)
{
	return do_unlinkat(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0), true);
}

long sys_unlinkat(struct task *t, const struct sysargs *a)
{
	int flags = sysarg_int(a, 2);

	if (flags & ~LINUX_AT_REMOVEDIR)
		return -EINVAL;
	return do_unlinkat(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), flags & LINUX_AT_REMOVEDIR);
}

static long do_rename(struct task *t, int od, uaddr_t uo, int nd, uaddr_t un, unsigned flags)
{
	char *o, *n;
	int ret = get_user_path(t, uo, &o);

	if (ret < 0)
		return ret;
	ret = get_user_path(t, un, &n);
	if (ret == 0)
		ret = vfs_renameat2(t, od, o, nd, n, flags);
	free(o);
	free(n);
	return ret;
}

long sys_rename(struct task *t, const struct sysargs *a)
{
	return do_rename(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0), LINUX_AT_FDCWD, sysarg_uaddr(a, 1),
			 0);
}

long sys_renameat(struct task *t, const struct sysargs *a)
{
	return do_rename(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_int(a, 2),
			 sysarg_uaddr(a, 3), 0);
}

long sys_renameat2(struct task *t, const struct sysargs *a)
{
	return do_rename(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_int(a, 2),
			 sysarg_uaddr(a, 3), sysarg_uint(a, 4));
}

static long do_link(struct task *t, int od, uaddr_t uo, int nd, uaddr_t un, int flags)
{
	char *o, *n;
	int ret;

	if (flags & ~(LINUX_AT_SYMLINK_FOLLOW | LINUX_AT_EMPTY_PATH))
		return -EINVAL;
	ret = get_user_path(t, uo, &o);
	if (ret < 0)
		return ret;
	ret = get_user_path(t, un, &n);
	if (ret == 0)
		ret = vfs_linkat(t, od, o, nd, n, flags);
	free(o);
	free(n);
	return ret;
}

long sys_link(struct task *t, const struct sysargs *a)
{
	return do_link(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0), LINUX_AT_FDCWD, sysarg_uaddr(a, 1),
		       0);
}

long sys_linkat(struct task *t, const struct sysargs *a)
{
	return do_link(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_int(a, 2),
		       sysarg_uaddr(a, 3), sysarg_int(a, 4));
}

static long do_symlink(struct task *t, uaddr_t utarget, int dirfd, uaddr_t upath)
{
	char *target, *path;
	int ret = get_user_path(t, utarget, &target);

	if (ret < 0)
		return ret;
	ret = get_user_path(t, upath, &path);
	if (ret == 0)
		ret = vfs_symlinkat(t, target, dirfd, path);
	free(target);
	free(path);
	return ret;
}

long sys_symlink(struct task *t, const struct sysargs *a)
{
	return do_symlink(t, sysarg_uaddr(a, 0), LINUX_AT_FDCWD, sysarg_uaddr(a, 1));
}

long sys_symlinkat(struct task *t, const struct sysargs *a)
{
	return do_symlink(t, sysarg_uaddr(a, 0), sysarg_int(a, 1), sysarg_uaddr(a, 2));
}

/* Attribute changes by path or by fd. */
static long setattr_path(struct task *t, int dirfd, uaddr_t upath, int atflags, struct iattr *ia)
{
	char *path;
	int ret = get_user_path(t, upath, &path);

	if (ret < 0)
		return ret;
	ret = vfs_setattr_at(t, dirfd, path, atflags, ia);
	free(path);
	return ret;
}

static long setattr_fd(struct task *t, int fd, struct iattr *ia, bool need_write)
{
	struct file *f = fdget(t->files, fd);
	long ret;

	if (!f)
		return -EBADF;
	if (f->flags & LINUX_O_PATH)
		ret = -EBADF; /* an O_PATH file changes nothing */
	else if (!f->path.dentry)
		ret = -EINVAL;
	else if (need_write && (!file_writable(f)))
		ret = -EINVAL;
	else
		ret = vfs_setattr_inode(t, &f->path, ia);
	file_put(f);
	return ret;
}

long sys_chmod(struct task *t, const struct sysargs *a)
{
	struct iattr ia = { .valid = ATTR_MODE, .mode = sysarg_uint(a, 1) & 07777 };

	return setattr_path(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0), 0, &ia);
}

long sys_fchmodat(struct task *t, const struct sysargs *a)
{
	struct iattr ia = { .valid = ATTR_MODE, .mode = sysarg_uint(a, 2) & 07777 };

	return setattr_path(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), 0, &ia);
}

/* fchmodat2 (Linux 6.6): fchmodat with AT_SYMLINK_NOFOLLOW (a symlink's
 * own mode cannot change: EOPNOTSUPP) and AT_EMPTY_PATH. */
long sys_fchmodat2(struct task *t, const struct sysargs *a)
{
	struct iattr ia = { .valid = ATTR_MODE, .mode = sysarg_uint(a, 2) & 07777 };
	int flags = sysarg_int(a, 3);

	if (flags & ~(LINUX_AT_SYMLINK_NOFOLLOW | LINUX_AT_EMPTY_PATH))
		return -EINVAL;
	return setattr_path(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), flags, &ia);
}

long sys_fchmod(struct task *t, const struct sysargs *a)
{
	struct iattr ia = { .valid = ATTR_MODE, .mode = sysarg_uint(a, 1) & 07777 };

	return setattr_fd(t, sysarg_int(a, 0), &ia, false);
}

/* The ids in the caller's user namespace to the instance's: -EINVAL
 * for one with no mapping there (Linux's chown_common). */
static int chown_attr(struct task *t, struct iattr *ia, uint32_t uid, uint32_t gid)
{
	const struct user_ns *ns = cred_user_ns(&t->proc->cred);

	ia->valid = 0;
	if (uid != (uint32_t)-1) {
		ia->valid |= ATTR_UID;
		ia->uid = make_kuid(ns, uid);
		if (ia->uid == INVALID_ID)
			return -EINVAL;
	}
	if (gid != (uint32_t)-1) {
		ia->valid |= ATTR_GID;
		ia->gid = make_kgid(ns, gid);
		if (ia->gid == INVALID_ID)
			return -EINVAL;
	}
	return 0;
}

long sys_chown(struct task *t, const struct sysargs *a)
{
	struct iattr ia;

	if (chown_attr(t, &ia, sysarg_uint(a, 1), sysarg_uint(a, 2)) < 0)
		return -EINVAL;
	return setattr_path(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0), 0, &ia);
}

long sys_lchown(struct task *t, const struct sysargs *a)
{
	struct iattr ia;

	if (chown_attr(t, &ia, sysarg_uint(a, 1), sysarg_uint(a, 2)) < 0)
		return -EINVAL;
	return setattr_path(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0), LINUX_AT_SYMLINK_NOFOLLOW, &ia);
}

long sys_fchown(struct task *t, const struct sysargs *a)
{
	struct iattr ia;

	if (chown_attr(t, &ia, sysarg_uint(a, 1), sysarg_uint(a, 2)) < 0)
		return -EINVAL;
	return setattr_fd(t, sysarg_int(a, 0), &ia, false);
}

long sys_fchownat(struct task *t, const struct sysargs *a)
{
	int flags = sysarg_int(a, 4);
	struct iattr ia;

	if (flags & ~(LINUX_AT_SYMLINK_NOFOLLOW | LINUX_AT_EMPTY_PATH))
		return -EINVAL;
	if (chown_attr(t, &ia, sysarg_uint(a, 2), sysarg_uint(a, 3)) < 0)
		return -EINVAL;
	return setattr_path(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), flags, &ia);
}

long sys_truncate(struct task *t, const struct sysargs *a)
{
	struct iattr ia = { .valid = ATTR_SIZE | ATTR_MTIME, .size = a->a[1] };
	char *path;
	struct path p;
	int ret;

	if ((int64_t)a->a[1] < 0)
		return -EINVAL;
	ia.mtime = vfs_now();
	ret = get_user_path(t, sysarg_uaddr(a, 0), &path);
	if (ret < 0)
		return ret;
	ret = path_lookupat(t, LINUX_AT_FDCWD, path, LOOKUP_FOLLOW, &p);
	free(path);
	if (ret < 0)
		return ret;
	ret = inode_permission(t, p.dentry->inode, LINUX_W_OK);
	/* do_sys_truncate's get_write_access: ETXTBSY for a program that
	 * runs; then the leases it breaks */
	if (ret == 0 && LINUX_S_ISREG(p.dentry->inode->mode)) {
		ret = write_access_get(p.dentry->inode);
		if (ret == 0) {
			/* vfs_truncate's break_lease, as an open for writing */
			ret = lease_break(p.dentry->inode, true, false);
			if (ret == 0)
				ret = vfs_setattr_inode(t, &p, &ia);
			write_access_put(p.dentry->inode->dev, p.dentry->inode->ino);
		}
	} else if (ret == 0) {
		ret = vfs_setattr_inode(t, &p, &ia);
	}
	path_put(&p);
	return ret;
}

long sys_ftruncate(struct task *t, const struct sysargs *a)
{
	struct iattr ia = { .valid = ATTR_SIZE | ATTR_MTIME, .size = a->a[1] };

	if ((int64_t)a->a[1] < 0)
		return -EINVAL;
	ia.mtime = vfs_now();
	return setattr_fd(t, sysarg_int(a, 0), &ia, true);
}

static int times_attr(struct task *t, uaddr_t uts, struct iattr *ia)
{
	struct linux_timespec ts[2];
	int i;

	ia->valid = 0;
	if (!uts) {
		ia->valid = ATTR_ATIME | ATTR_MTIME | ATTR_TOUCH;
		ia->atime = ia->mtime = vfs_now();
		return 0;
	}
	if (copy_from_user(t->mm, ts, uts, sizeof(ts)) < 0)
		return -EFAULT;
	if (ts[0].tv_nsec == UTIME_OMIT && ts[1].tv_nsec == UTIME_OMIT)
		return 0; /* nothing to do: not even the name is looked at */
	ia->valid = ts[0].tv_nsec == UTIME_NOW && ts[1].tv_nsec == UTIME_NOW ? ATTR_TOUCH
									     : ATTR_TIMES_SET;
	for (i = 0; i < 2; i++) {
		struct linux_timespec *dst = i ? &ia->mtime : &ia->atime;

		if (ts[i].tv_nsec == UTIME_OMIT)
			continue;
		if (ts[i].tv_nsec == UTIME_NOW)
			*dst = vfs_now();
		else if (ts[i].tv_nsec < 0 || ts[i].tv_nsec >= 1000000000)
			return -EINVAL;
		else
			*dst = ts[i];
		ia->valid |= i ? ATTR_MTIME : ATTR_ATIME;
	}
	return 0;
}

long sys_utimensat(struct task *t, const struct sysargs *a)
{
	int dirfd = sysarg_int(a, 0), flags = sysarg_int(a, 3);
	struct iattr ia;
	int ret;

	if (flags & ~(LINUX_AT_SYMLINK_NOFOLLOW | LINUX_AT_EMPTY_PATH))
		return -EINVAL;
	ret = times_attr(t, sysarg_uaddr(a, 2), &ia);
	if (ret < 0)
		return ret;
	if (!(ia.valid & (ATTR_ATIME | ATTR_MTIME)))
		return 0;
	if (!sysarg_uaddr(a, 1)) {
		/* Linux's do_utimes: no name is the file at dirfd, which
		 * takes no flags; with AT_FDCWD it is a bad name. */
		if (dirfd == LINUX_AT_FDCWD)
			return -EFAULT;
		return flags ? -EINVAL : setattr_fd(t, dirfd, &ia, false);
	}
	return setattr_path(t, dirfd, sysarg_uaddr(a, 1), flags, &ia);
}

/* utimes and futimesat: struct timeval[2], NULL for now. */
static int timevals_attr(struct task *t, uaddr_t utv, struct iattr *ia)
{
	struct linux_timeval tv[2];

	ia->valid = ATTR_ATIME | ATTR_MTIME;
	if (!utv) {
		ia->valid |= ATTR_TOUCH;
		ia->atime = ia->mtime = vfs_now();
		return 0;
	}
	if (copy_from_user(t->mm, tv, utv, sizeof(tv)) < 0)
		return -EFAULT;
	if (tv[0].tv_usec < 0 || tv[0].tv_usec >= 1000000 || tv[1].tv_usec < 0 ||
	    tv[1].tv_usec >= 1000000)
		return -EINVAL;
	ia->valid |= ATTR_TIMES_SET;
	ia->atime.tv_sec = tv[0].tv_sec;
	ia->atime.tv_nsec = tv[0].tv_usec * 1000;
	ia->mtime.tv_sec = tv[1].tv_sec;
	ia->mtime.tv_nsec = tv[1].tv_usec * 1000;
	return 0;
}

long sys_utimes(struct task *t, const struct sysargs *a)
{
	struct iattr ia;
	int ret = timevals_attr(t, sysarg_uaddr(a, 1), &ia);

	return ret < 0 ? ret : setattr_path(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0), 0, &ia);
}

/* futimesat(dirfd, path, tv): no name is the file at dirfd, as for
 * utimensat. */
long sys_futimesat(struct task *t, const struct sysargs *a)
{
	int dirfd = sysarg_int(a, 0);
	struct iattr ia;
	int ret = timevals_attr(t, sysarg_uaddr(a, 2), &ia);

	if (ret < 0)
		return ret;
	if (!sysarg_uaddr(a, 1))
		return dirfd == LINUX_AT_FDCWD ? -EFAULT : setattr_fd(t, dirfd, &ia, false);
	return setattr_path(t, dirfd, sysarg_uaddr(a, 1), 0, &ia);
}

/* utime(path, struct utimbuf { actime, modtime }): whole seconds. */
long sys_utime(struct task *t, const struct sysargs *a)
{
	int64_t ub[2];
	struct iattr ia = { .valid = ATTR_ATIME | ATTR_MTIME };

	if (sysarg_uaddr(a, 1)) {
		if (copy_from_user(t->mm, ub, sysarg_uaddr(a, 1), sizeof(ub)) < 0)
			return -EFAULT;
		ia.valid |= ATTR_TIMES_SET;
		ia.atime.tv_sec = ub[0];
		ia.mtime.tv_sec = ub[1];
	} else {
		ia.valid |= ATTR_TOUCH;
		ia.atime = ia.mtime = vfs_now();
	}
	return setattr_path(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0), 0, &ia);
}

long sys_statfs(struct task *t, const struct sysargs *a)
{
	struct linux_statfs st;
	char *path;
	int ret = get_user_path(t, sysarg_uaddr(a, 0), &path);

	if (ret < 0)
		return ret;
	ret = vfs_statfs_at(t, LINUX_AT_FDCWD, path, 0, &st);
	free(path);
	if (ret < 0)
		return ret;
	return copy_to_user(t->mm, sysarg_uaddr(a, 1), &st, sizeof(st));
}

long sys_fstatfs(struct task *t, const struct sysargs *a)
{
	struct linux_statfs st;
	int ret = vfs_statfs_at(t, sysarg_int(a, 0), "", LINUX_AT_EMPTY_PATH, &st);

	if (ret == -ENOTDIR)
		ret = -EINVAL; /* pipes and sockets: Linux reports pipefs; we do not */
	if (ret < 0)
		return ret;
	return copy_to_user(t->mm, sysarg_uaddr(a, 1), &st, sizeof(st));
}

long sys_chroot(struct task *t, const struct sysargs *a)
{
	char *path;
	int ret = get_user_path(t, sysarg_uaddr(a, 0), &path);

	if (ret < 0)
		return ret;
	ret = vfs_chroot(t, path);
	free(path);
	return ret;
}

/* Data lives in host memory or host files: nothing to flush to a disk of
 * our own. The fd must still be valid, and not O_PATH. */
static long check_fd(struct task *t, int fd)
{
	struct file *f = fdget(t->files, fd);
	long ret;

	if (!f)
		return -EBADF;
	ret = (f->flags & LINUX_O_PATH) ? -EBADF : 0;
	file_put(f);
	return ret;
}

long sys_fsync(struct task *t, const struct sysargs *a)
{
	return check_fd(t, sysarg_int(a, 0));
}

long sys_fdatasync(struct task *t, const struct sysargs *a)
{
	return check_fd(t, sysarg_int(a, 0));
}

long sys_syncfs(struct task *t, const struct sysargs *a)
{
	return check_fd(t, sysarg_int(a, 0));
}

long sys_sync(struct task *t, const struct sysargs *a)
{
	(void)t;
	(void)a;
	return 0;
}

static long do_setxattr(struct task *t, const struct sysargs *a, int mode)
{
	char name[256], *path = NULL;
	size_t size = sysarg_size(a, 3);
	int flags = sysarg_int(a, 4);
	struct path p;
	void *val;
	long n;

	if (flags & ~3)
		return -EINVAL;
	n = strncpy_from_user(t->mm, name, sysarg_uaddr(a, 1), sizeof(name));
	if (n == -ENAMETOOLONG || n == 0)
		return -ERANGE;
	if (n < 0)
		return n;
	if (size > 65536)
		return -E2BIG;
	val = malloc(size ? size : 1);
	if (!val)
		return -ENOMEM;
	if (copy_from_user(t->mm, val, sysarg_uaddr(a, 2), size) < 0) {
		free(val);
		return -EFAULT;
	}
	if (mode == 2) {
		struct file *f = fdget(t->files, sysarg_int(a, 0));

		n = f && !(f->flags & LINUX_O_PATH) ? 0 : -EBADF;
		if (n == 0 && !f->path.dentry) {
			n = xattr_fileless(t, f, name, true); /* a pipe, a socket */
			file_put(f);
			goto out;
		}
		if (n == 0) {
			p = f->path;
			path_get(&p);
		}
		file_put(f);
	} else {
		n = get_user_path(t, sysarg_uaddr(a, 0), &path);
		if (n == 0)
			n = path_lookupat(t, LINUX_AT_FDCWD, path, mode == 1 ? 0 : LOOKUP_FOLLOW,
					  &p);
		free(path);
	}
	if (n == 0) {
		struct inode *ino = p.dentry->inode;
		int kind = acl_route(ino, name);

		/* cap_convert_nscap, first: a file capability is a revision
		 * 2 (20 bytes) or 3 (24) one */
		if (size && strcmp(name, "security.capability") == 0) {
			uint32_t magic = 0;

			memcpy(&magic, val, size < 4 ? size : 4);
			if (!((size == 20 && (magic & 0xff000000u) == 0x02000000u) ||
			      (size == 24 && (magic & 0xff000000u) == 0x03000000u))) {
				path_put(&p);
				n = -EINVAL;
				goto out;
			}
		}
		/* an ACL: Linux's do_set_acl (the flags are not looked at) */
		n = path_rdonly(&p) ? -EROFS
		    : kind > 0	    ? acl_set(t, ino, kind, val, size)
		    : kind < 0	    ? kind
				    : xattr_permission(t, ino, name, true);
		if (n == 0 && !kind)
			n = ino->iop->setxattr ? ino->iop->setxattr(ino, name, val, size, flags)
					       : -EOPNOTSUPP;
		if (n == 0)
			fsnotify_dentry(p.dentry, IN_ATTRIB);
		path_put(&p);
	}
out:
	free(val);
	return n;
}

long sys_setxattr(struct task *t, const struct sysargs *a)
{
	return do_setxattr(t, a, 0);
}

long sys_lsetxattr(struct task *t, const struct sysargs *a)
{
	return do_setxattr(t, a, 1);
}

long sys_fsetxattr(struct task *t, const struct sysargs *a)
{
	return do_setxattr(t, a, 2);
}

static long do_removexattr(struct task *t, const struct sysargs *a, int mode)
{
	char name[256], *path = NULL;
	struct path p;
	long n;

	n = strncpy_from_user(t->mm, name, sysarg_uaddr(a, 1), sizeof(name));
	if (n == -ENAMETOOLONG || n == 0)
		return -ERANGE;
	if (n < 0)
		return n;
	if (mode == 2) {
		struct file *f = fdget(t->files, sysarg_int(a, 0));

		n = f && !(f->flags & LINUX_O_PATH) ? 0 : -EBADF;
		if (n == 0 && !f->path.dentry) {
			n = xattr_fileless(t, f, name, true); /* a pipe, a socket */
			file_put(f);
			goto out;
		}
		if (n == 0) {
			p = f->path;
			path_get(&p);
		}
		file_put(f);
	} else {
		n = get_user_path(t, sysarg_uaddr(a, 0), &path);
		if (n == 0)
			n = path_lookupat(t, LINUX_AT_FDCWD, path, mode == 1 ? 0 : LOOKUP_FOLLOW,
					  &p);
		free(path);
	}
	if (n == 0) {
		struct inode *ino = p.dentry->inode;
		int kind = acl_route(ino, name);

		/* an ACL: Linux's vfs_remove_acl */
		n = path_rdonly(&p) ? -EROFS
		    : kind > 0	    ? acl_set(t, ino, kind, NULL, 0)
		    : kind < 0	    ? kind
				    : xattr_permission(t, ino, name, true);
		if (n == 0 && !kind)
			n = ino->iop->removexattr ? ino->iop->removexattr(ino, name) : -EOPNOTSUPP;
		if (n == 0)
			fsnotify_dentry(p.dentry, IN_ATTRIB);
		path_put(&p);
	}
out:
	return n;
}

long sys_removexattr(struct task *t, const struct sysargs *a)
{
	return do_removexattr(t, a, 0);
}

long sys_lremovexattr(struct task *t, const struct sysargs *a)
{
	return do_removexattr(t, a, 1);
}

long sys_fremovexattr(struct task *t, const struct sysargs *a)
{
	return do_removexattr(t, a, 2);
}
