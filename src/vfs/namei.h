/* vfs/namei.h: from a guest (dirfd, path) to an inode, a file, a change.
 * The walk goes one component at a time from the root or the cwd, asks each
 * filesystem for the next name, crosses mounts, follows symlinks itself
 * (ELOOP after 40) and checks search permission with the guest's
 * credentials; ".." stops at the process's root. */
#ifndef VFS_NAMEI_H
#define VFS_NAMEI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfs/vfs.h"

struct task;
struct file;
struct cred;
struct linux_stat;
struct linux_statx;
struct linux_statfs;

#define LINUX_PATH_MAX 4096
#define LINUX_NAME_MAX 255

struct fs_info {
	int refcount;
	struct path root; /* the process's root (chroot) */
	struct path cwd;
};

int fs_info_create(const struct path *root, const struct path *cwd, struct fs_info **out);
void fs_info_put(struct fs_info *fs);
int fs_info_dup(struct fs_info *src, struct fs_info **out);

enum { LOOKUP_FOLLOW = 1, LOOKUP_DIRECTORY = 2, LOOKUP_EMPTY = 4 };

/* The path name (relative to dirfd) leads to: *out gets a reference. */
int path_lookupat(struct task *t, int dirfd, const char *name, unsigned flags, struct path *out);
int path_lookup_resolve(struct task *t, int dirfd, const char *name, unsigned flags,
			unsigned resolve, struct path *out);
int inode_permission(struct task *t, struct inode *ino, int mask);

/* The kernel's own open of p's inode (no permission check, no path
 * walk): 0 with *out, or -errno. */
int vfs_open_path(struct path *p, unsigned flags, struct file **out);
int vfs_openat(struct task *t, int dirfd, const char *path, unsigned flags, unsigned mode,
	       struct file **out);
/* openat2: resolve holds RESOLVE_* flags. */
int vfs_open_exec(struct task *t, int dirfd, const char *name, int atflags, struct file **out);
/* Its open of p (kept by the caller), as if a walk had found it. */
int vfs_open_exec_found(struct task *t, struct path *p, struct file **out);
/* What Linux's build_open_flags and getname refuse before an open takes
 * its file descriptor: O_CREAT with O_DIRECTORY, O_TMPFILE without
 * O_DIRECTORY or write access (EINVAL), an empty path (ENOENT). flags
 * as the open will see them (open and openat keep only O_PATH_FLAGS of
 * an O_PATH open; openat2 refuses the others). */
int vfs_open_precheck(const char *path, unsigned flags);
/* The flags an O_PATH open keeps (Linux's O_PATH_FLAGS). */
#define VFS_O_PATH_FLAGS (LINUX_O_PATH | LINUX_O_CLOEXEC | LINUX_O_DIRECTORY | LINUX_O_NOFOLLOW)
int vfs_openat2(struct task *t, int dirfd, const char *path, unsigned flags, unsigned mode,
		unsigned resolve, struct file **out);
/* The open of p (kept by the caller) with openat's checks, as if a walk
 * had found it: open_by_handle_at's. */
int vfs_open_found(struct task *t, struct path *p, unsigned flags, struct file **out);
int vfs_fstatat(struct task *t, int dirfd, const char *path, int atflags, struct linux_stat *st);
int vfs_statx(struct task *t, int dirfd, const char *path, int atflags, unsigned mask,
	      struct linux_statx *stx);
int vfs_getattr(struct inode *ino, struct linux_stat *st);
/* A directory removed while a cwd or an open fd still holds it (its link
 * count is 0): Linux's IS_DEADDIR. Nothing can be made or listed in it. */
bool inode_dead_dir(struct inode *dir);
void stat_to_statx(const struct linux_stat *st, struct linux_statx *stx);
void statx_to_stat(const struct linux_statx *stx, struct linux_stat *st);
long vfs_readlinkat(struct task *t, int dirfd, const char *path, char *buf, size_t n);
int vfs_faccessat(struct task *t, int dirfd, const char *path, int mode, int atflags);
/* Linux's xattr_permission (and commoncap's for security.*), what is
 * decided before the filesystem: security.* writes want CAP_SYS_ADMIN
 * (security.capability CAP_SETFCAP), trusted.* CAP_SYS_ADMIN (else EPERM
 * to write, ENODATA to read), user.* lives on regular files and
 * directories only (else EPERM, ENODATA) and a sticky directory's is its
 * owner's to write; user.* and other names then want the file's read or
 * write permission. 0 or -errno. */
int xattr_permission(struct task *t, const struct inode *ino, const char *name, bool write);
/* An inode's getxattr for t: after xattr_permission, its filesystem's, or
 * EOPNOTSUPP for a filesystem without extended attributes (procfs,
 * sysfs...) or a name in no namespace. */
long xattr_get(struct task *t, struct inode *ino, const char *name, void *buf, size_t n);
/* An inode's listxattr for t: trusted.* names only for CAP_SYS_ADMIN. */
long xattr_list(struct task *t, struct inode *ino, char *buf, size_t n);
/* The same checks for a file with no inode of ours (a pipe, a socket),
 * by its type: their -errno, else EOPNOTSUPP (no extended attributes). */
long xattr_fileless(struct task *t, struct file *f, const char *name, bool write);
long vfs_getxattr(struct task *t, const char *path, bool nofollow, const char *name, void *buf,
		  size_t n);
long vfs_listxattr(struct task *t, const char *path, bool nofollow, char *buf, size_t n);
int vfs_chdir(struct task *t, int dirfd, const char *path);
int vfs_chroot(struct task *t, const char *path);
long vfs_getcwd(struct task *t, char *buf, size_t n);
int vfs_mknodat(struct task *t, int dirfd, const char *path, uint32_t mode, uint64_t dev);
int vfs_unlinkat(struct task *t, int dirfd, const char *path, bool rmdir);
int vfs_symlinkat(struct task *t, const char *target, int dirfd, const char *path);
int vfs_linkat(struct task *t, int odirfd, const char *opath, int ndirfd, const char *npath,
	       int flags);
int vfs_renameat2(struct task *t, int odirfd, const char *opath, int ndirfd, const char *npath,
		  unsigned flags);
int vfs_setattr_at(struct task *t, int dirfd, const char *path, int atflags, struct iattr *ia);
int vfs_setattr_inode(struct task *t, struct path *p, struct iattr *ia);
int vfs_statfs_at(struct task *t, int dirfd, const char *path, int atflags,
		  struct linux_statfs *st);

#endif
