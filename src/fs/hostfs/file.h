/* fs/hostfs/file.h: open hostfs files (file.c), for hostfs.c. */
#ifndef FS_HOSTFS_FILE_H
#define FS_HOSTFS_FILE_H

#include <stdbool.h>

struct file;

/* Makes f an open file of host_fd (taken over on success): a regular
 * file, or a stream whose host fd was opened with O_NONBLOCK (a device);
 * 0 or -ENOMEM. */
int hostfs_file_init(struct file *f, int host_fd, bool stream);
/* Makes f a read-only open file of a regular file's shared host
 * description (its inode's, not taken over: f's reference on the inode
 * keeps it); f keeps its own position. 0 or -ENOMEM. */
int hostfs_file_init_shared(struct file *f, int host_fd);

#endif
