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

/* Before the sandbox (a reopen needs the host user that started skas):
 * host stdio fd fd (0-2), if a pipe, FIFO, tty or mem device, gets a
 * description of our own with O_NONBLOCK for hostfs_stdio. */
void hostfs_stdio_prepare(int fd);
/* A guest file for the host's stdio fd fd (0-2), with a host fd of its
 * own; -EBADF if fd is closed on the host. */
int hostfs_stdio(int fd, struct file **out);
/* The kernel may keep about host_fds host fds for hostfs's cache of
 * lookups (128 to 1024; 128 until this is called). */
void hostfs_set_cache_max(long host_fds);
/* skas is about to read, write or change a host file: what hostfs has
 * heard of any host file's attributes must be asked again. */
void hostfs_touched(void);

#endif
