/* fs/hostfs/hostfs.h: a host directory passed through. Each inode holds an
 * O_PATH host fd opened one component at a time relative to its parent's
 * (never following a host symlink), so nothing a guest names can lead
 * outside the host directory. Host uids and gids show as they are. */
#ifndef FS_HOSTFS_HOSTFS_H
#define FS_HOSTFS_HOSTFS_H

#include <stdbool.h>

struct file;
struct inode;
struct super_block;

/* Mounts host_dir: *root gets a reference to its root inode. */
int hostfs_mount(const char *host_dir, bool rdonly, struct super_block **sb, struct inode **root);

/* A guest file for one of the host's stdio fds (dup'ed; the file owns it). */
int hostfs_stdio(int host_fd, unsigned flags, struct file **out);

#endif
