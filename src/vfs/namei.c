/* vfs/namei.c: guest paths to host lookups, for the read-only host root.
 * The path is not normalized here: hostfs resolves "..", "." and symlinks
 * beneath the root on the host, so a stale lexical guess cannot escape. */
#include <stdlib.h>
#include <string.h>

#include "vfs/namei.h"
#include "vfs/file.h"
#include "fs/hostfs/hostfs.h"
#include "host/host.h"
#include "kernel/task.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/stat.h"
#include "abi/linux/types.h"

static int permission(const struct cred *c, const struct linux_stat *st, int mode);

int fs_info_create(const char *host_root, const char *cwd, struct fs_info **out)
{
	struct fs_info *fs = calloc(1, sizeof(*fs));

	if (!fs)
		return -ENOMEM;
	fs->refcount = 1;
	fs->root_host_fd = host_open_root(host_root);
	fs->cwd = strdup(cwd);
	fs->host_root = host_realpath(host_root);
	if (fs->root_host_fd < 0 || !fs->cwd || !fs->host_root) {
		int ret = fs->root_host_fd < 0 ? fs->root_host_fd : -ENOMEM;

		fs_info_put(fs);
		return ret;
	}
	*out = fs;
	return 0;
}

void fs_info_put(struct fs_info *fs)
{
	if (!fs || --fs->refcount > 0)
		return;
	if (fs->root_host_fd >= 0)
		host_close(fs->root_host_fd);
	free(fs->cwd);
	free(fs->host_root);
	free(fs);
}

int fs_info_dup(struct fs_info *src, struct fs_info **out)
{
	struct fs_info *fs = calloc(1, sizeof(*fs));

	if (!fs)
		return -ENOMEM;
	fs->refcount = 1;
	fs->root_host_fd = host_dup(src->root_host_fd);
	fs->cwd = strdup(src->cwd);
	fs->host_root = strdup(src->host_root);
	if (fs->root_host_fd < 0 || !fs->cwd || !fs->host_root) {
		fs_info_put(fs);
		return -ENOMEM;
	}
	*out = fs;
	return 0;
}

int vfs_chdir(struct task *t, int dirfd, const char *path)
{
	struct file *f;
	char *hp, *cwd;
	size_t rl;
	int ret;

	if (!path[0] && dirfd == LINUX_AT_FDCWD)
		return -ENOENT;
	if (path[0]) {
		ret = vfs_openat(t, dirfd, path, LINUX_O_PATH | LINUX_O_DIRECTORY, 0, &f);
	} else {
		f = fdget(t->files, dirfd);
		ret = f ? 0 : -EBADF;
	}
	if (ret < 0)
		return ret;
	if (f->host_fd < 0 || !f->ops->stat) {
		file_put(f);
		return -ENOTDIR;
	}
	{
		struct linux_stat st;

		ret = f->ops->stat(f, &st);
		if (ret == 0 && !LINUX_S_ISDIR(st.st_mode))
			ret = -ENOTDIR;
		if (ret == 0 && permission(&t->proc->cred, &st, LINUX_X_OK) < 0)
			ret = -EACCES;
	}
	hp = ret == 0 ? host_fd_path(f->host_fd) : NULL;
	file_put(f);
	if (ret < 0)
		return ret;
	if (!hp)
		return -ENOENT;
	/* The host path of what we opened beneath the root, made guest. */
	rl = strcmp(t->fs->host_root, "/") == 0 ? 0 : strlen(t->fs->host_root);
	if (strncmp(hp, t->fs->host_root, rl) != 0 || (hp[rl] != '/' && hp[rl] != 0)) {
		free(hp);
		return -ENOENT;
	}
	cwd = strdup(hp[rl] ? hp + rl : "/");
	free(hp);
	if (!cwd)
		return -ENOMEM;
	free(t->fs->cwd);
	t->fs->cwd = cwd;
	return 0;
}

static char *join(const char *base, const char *path, int *err)
{
	size_t bl = strlen(base), pl = strlen(path);
	char *s;

	if (bl + 1 + pl >= LINUX_PATH_MAX) {
		*err = -ENAMETOOLONG;
		return NULL;
	}
	s = malloc(bl + pl + 2);
	if (!s) {
		*err = -ENOMEM;
		return NULL;
	}
	memcpy(s, base, bl);
	s[bl] = '/';
	memcpy(s + bl + 1, path, pl + 1);
	return s;
}

char *vfs_abs_path(struct task *t, int dirfd, const char *path, int *err)
{
	struct linux_stat st;
	struct file *f;
	char *s;

	if (path[0] == '/')
		return join("", path + 1, err);
	if (dirfd == LINUX_AT_FDCWD)
		return join(t->fs->cwd, path, err);
	f = fdget(t->files, dirfd);
	if (!f) {
		*err = -EBADF;
		return NULL;
	}
	if (!f->path || !f->ops->stat || f->ops->stat(f, &st) < 0 || !LINUX_S_ISDIR(st.st_mode)) {
		file_put(f);
		*err = -ENOTDIR;
		return NULL;
	}
	s = join(f->path, path, err);
	file_put(f);
	return s;
}

int vfs_openat(struct task *t, int dirfd, const char *path, unsigned flags, unsigned mode,
	       struct file **out)
{
	int err = 0;
	char *abs;

	if (!path[0])
		return -ENOENT;
	abs = vfs_abs_path(t, dirfd, path, &err);
	if (!abs)
		return err;
	return hostfs_open(t->fs->root_host_fd, abs, flags, mode, out);
}

/* For AT_EMPTY_PATH with "": the file at dirfd itself. */
static struct file *empty_path_file(struct task *t, int dirfd, int *err)
{
	struct file *f;

	if (dirfd == LINUX_AT_FDCWD) {
		*err = vfs_openat(t, LINUX_AT_FDCWD, ".", LINUX_O_PATH, 0, &f);
		return *err < 0 ? NULL : f;
	}
	f = fdget(t->files, dirfd);
	if (!f)
		*err = -EBADF;
	return f;
}

int vfs_fstatat(struct task *t, int dirfd, const char *path, int atflags, struct linux_stat *st)
{
	int err = 0;
	char *abs;

	if (!path[0]) {
		struct file *f;

		if (!(atflags & LINUX_AT_EMPTY_PATH))
			return -ENOENT;
		f = empty_path_file(t, dirfd, &err);
		if (!f)
			return err;
		err = f->ops->stat ? f->ops->stat(f, st) : -EBADF;
		file_put(f);
		return err;
	}
	abs = vfs_abs_path(t, dirfd, path, &err);
	if (!abs)
		return err;
	err = hostfs_stat(t->fs->root_host_fd, abs, atflags & LINUX_AT_SYMLINK_NOFOLLOW, st);
	free(abs);
	return err;
}

int vfs_statx(struct task *t, int dirfd, const char *path, int atflags, unsigned mask,
	      struct linux_statx *stx)
{
	int err = 0;
	char *abs;

	if (!path[0]) {
		struct file *f;

		if (!(atflags & LINUX_AT_EMPTY_PATH))
			return -ENOENT;
		f = empty_path_file(t, dirfd, &err);
		if (!f)
			return err;
		err = f->ops->statx ? f->ops->statx(f, mask, stx) : -EBADF;
		file_put(f);
		return err;
	}
	abs = vfs_abs_path(t, dirfd, path, &err);
	if (!abs)
		return err;
	err = hostfs_statx(t->fs->root_host_fd, abs, atflags & LINUX_AT_SYMLINK_NOFOLLOW, mask,
			   stx);
	free(abs);
	return err;
}

long vfs_readlinkat(struct task *t, int dirfd, const char *path, char *buf, size_t n)
{
	int err = 0;
	char *abs;
	long ret;

	if (!path[0])
		return -ENOENT;
	abs = vfs_abs_path(t, dirfd, path, &err);
	if (!abs)
		return err;
	ret = hostfs_readlink(t->fs->root_host_fd, abs, buf, n);
	free(abs);
	return ret;
}

/* Permission by mode bits with the guest's credentials; root passes reads
 * and writes, and execution when any x bit is set (or a directory). */
static int permission(const struct cred *c, const struct linux_stat *st, int mode)
{
	unsigned m = st->st_mode, bits;

	if (capable(c, CAP_DAC_OVERRIDE)) {
		if ((mode & LINUX_X_OK) && !LINUX_S_ISDIR(m) &&
		    !(m & (LINUX_S_IXUSR | LINUX_S_IXGRP | LINUX_S_IXOTH)))
			return -EACCES;
		return 0;
	}
	if (st->st_uid == c->fsuid)
		bits = (m >> 6) & 7;
	else if (in_group(c, st->st_gid))
		bits = (m >> 3) & 7;
	else
		bits = m & 7;
	return (bits & mode) == (unsigned)mode ? 0 : -EACCES;
}

int vfs_faccessat(struct task *t, int dirfd, const char *path, int mode, int atflags)
{
	struct linux_stat st;
	int ret;

	if (mode & ~(LINUX_R_OK | LINUX_W_OK | LINUX_X_OK))
		return -EINVAL;
	ret = vfs_fstatat(t, dirfd, path,
			  atflags & (LINUX_AT_SYMLINK_NOFOLLOW | LINUX_AT_EMPTY_PATH), &st);
	if (ret < 0)
		return ret;
	if (mode == LINUX_F_OK)
		return 0;
	ret = permission(&t->proc->cred, &st, mode);
	if (ret < 0)
		return ret;
	/* Differs from Linux: /dev/null and /dev/zero are writable devices on
	 * the read-only root; access() still says EROFS for them. */
	if ((mode & LINUX_W_OK) && !LINUX_S_ISCHR(st.st_mode))
		return -EROFS;
	return 0;
}

long vfs_getxattr(struct task *t, const char *path, bool nofollow, const char *name, void *buf,
		  size_t n)
{
	int err = 0;
	char *abs = vfs_abs_path(t, LINUX_AT_FDCWD, path, &err);
	long ret;

	if (!abs)
		return err;
	ret = hostfs_getxattr(t->fs->root_host_fd, abs, nofollow, name, buf, n);
	free(abs);
	return ret;
}

long vfs_listxattr(struct task *t, const char *path, bool nofollow, char *buf, size_t n)
{
	int err = 0;
	char *abs = vfs_abs_path(t, LINUX_AT_FDCWD, path, &err);
	long ret;

	if (!abs)
		return err;
	ret = hostfs_listxattr(t->fs->root_host_fd, abs, nofollow, buf, n);
	free(abs);
	return ret;
}
