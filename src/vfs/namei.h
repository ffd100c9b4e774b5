/* vfs/namei.h: from a guest (dirfd, path) to a file, a stat, a link. Until
 * the VFS issue: every path is made absolute against the cwd or the dirfd's
 * path and handed to hostfs beneath the instance's root. */
#ifndef VFS_NAMEI_H
#define VFS_NAMEI_H

#include <stdbool.h>
#include <stddef.h>

struct task;
struct file;
struct linux_stat;
struct linux_statx;

#define LINUX_PATH_MAX 4096

struct fs_info {
	int refcount;
	int root_host_fd; /* the instance's root on the host (O_PATH) */
	char *cwd;	  /* absolute guest path */
	char *host_root;  /* the root's canonical host path, for chdir */
};

int fs_info_create(const char *host_root, const char *cwd, struct fs_info **out);
void fs_info_put(struct fs_info *fs);
int fs_info_dup(struct fs_info *src, struct fs_info **out);
/* chdir: the cwd becomes the directory at path (canonical). */
int vfs_chdir(struct task *t, int dirfd, const char *path);

/* Makes path absolute: against the cwd (dirfd AT_FDCWD) or the directory
 * open at dirfd. Returns a malloc'ed string or NULL with *err set. */
char *vfs_abs_path(struct task *t, int dirfd, const char *path, int *err);

int vfs_openat(struct task *t, int dirfd, const char *path, unsigned flags, unsigned mode,
	       struct file **out);
/* atflags: AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH. */
int vfs_fstatat(struct task *t, int dirfd, const char *path, int atflags, struct linux_stat *st);
int vfs_statx(struct task *t, int dirfd, const char *path, int atflags, unsigned mask,
	      struct linux_statx *stx);
long vfs_readlinkat(struct task *t, int dirfd, const char *path, char *buf, size_t n);
int vfs_faccessat(struct task *t, int dirfd, const char *path, int mode, int atflags);
long vfs_getxattr(struct task *t, const char *path, bool nofollow, const char *name, void *buf,
		  size_t n);
long vfs_listxattr(struct task *t, const char *path, bool nofollow, char *buf, size_t n);

#endif
