/* vfs/fileattr.h: chattr's file attributes (FS_IOC_GETFLAGS, SETFLAGS,
 * FSGETXATTR, FSSETXATTR) and what the VFS does for immutable and
 * append-only inodes. */
#ifndef VFS_FILEATTR_H
#define VFS_FILEATTR_H

#include <stdbool.h>
#include <stdint.h>

struct file;
struct task;

/* Is cmd one of the four? */
bool fileattr_ioctl_cmd(unsigned cmd);
/* One of them on f: -ENOIOCTLCMD if f's inode has no attributes (the
 * file's own ioctl answers). */
long vfs_fileattr_ioctl(struct task *t, struct file *f, unsigned cmd, uint64_t arg);

#endif
