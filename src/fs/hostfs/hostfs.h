/* fs/hostfs/hostfs.h: a host directory passed through, read-only for now,
 * confined beneath its root (openat2 RESOLVE_IN_ROOT: no host symlink or
 * ".." leads out, no magic links), and the host's stdio fds. */
#ifndef FS_HOSTFS_HOSTFS_H
#define FS_HOSTFS_HOSTFS_H

#include <stdbool.h>

struct file;
struct linux_stat;
struct linux_statx;

/* Opens abs_path (a guest absolute path) beneath the host root fd.
 * flags are LINUX_O_*; the caller owns *out (which takes over abs_path). */
int hostfs_open(int root_fd, char *abs_path, unsigned flags, unsigned mode, struct file **out);
/* stat/statx/readlink of a path, without following a final symlink when
 * nofollow. */
int hostfs_stat(int root_fd, const char *abs_path, bool nofollow, struct linux_stat *st);
int hostfs_statx(int root_fd, const char *abs_path, bool nofollow, unsigned mask,
		 struct linux_statx *stx);
long hostfs_readlink(int root_fd, const char *abs_path, char *buf, unsigned long n);
long hostfs_getxattr(int root_fd, const char *abs_path, bool nofollow, const char *name, void *buf,
		     unsigned long n);
long hostfs_listxattr(int root_fd, const char *abs_path, bool nofollow, char *buf, unsigned long n);

/* A guest file for one of the host's stdio fds (dup'ed; the file owns it). */
int hostfs_stdio(int host_fd, unsigned flags, struct file **out);

#endif
