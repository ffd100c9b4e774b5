/* vfs/denywrite.h: Linux's i_writecount for regular files, by file
 * identity (st_dev, st_ino: an overlay's file keeps its across a copy-up):
 * how many descriptors have one open for writing, and how many running
 * images (and execs under way) deny that. An open for writing or a
 * truncate of a file that runs is ETXTBSY, and so is an exec of a file
 * open for writing; the program keeps running unharmed (a write would
 * have truncated its image under it: SIGBUS). Beside them, Linux's
 * i_readcount: how many have it open read-only, which a write lease
 * (vfs/lease.c) asks. */
#ifndef VFS_DENYWRITE_H
#define VFS_DENYWRITE_H

#include <stdint.h>

struct inode;

/* get_write_access: -ETXTBSY while it is denied. */
int write_access_get(const struct inode *ino);
void write_access_put(uint64_t dev, uint64_t ino);
/* deny_write_access: -ETXTBSY while it is open for writing. */
int write_access_deny(const struct inode *ino);
void write_access_allow(uint64_t dev, uint64_t ino);
/* i_readcount_inc and _dec: an open read-only (-ENOMEM without memory). */
int read_access_get(const struct inode *ino);
void read_access_put(uint64_t dev, uint64_t ino);
/* The three counts of the file dev/ino. */
void access_counts(uint64_t dev, uint64_t ino, int *writers, int *readers, int *deniers);

#endif
