/* vfs/readdir.h: getdents64 for every directory. The first call (and any
 * after a rewind) takes a snapshot of the entries through the inode's
 * iterate op; positions are indexes into it, so a merged overlay
 * directory or a synthetic procfs one reads like any other. */
#ifndef VFS_READDIR_H
#define VFS_READDIR_H

#include <stddef.h>
#include <stdint.h>

struct file;

long dir_getdents64(struct file *f, void *buf, size_t n);
int64_t dir_llseek(struct file *f, int64_t off, int whence);
void dir_snapshot_free(struct file *f);
/* read(2) of a directory: EISDIR. */
long dir_read(struct file *f, void *buf, size_t n);
long dir_pread(struct file *f, void *buf, size_t n, int64_t off);

#endif
