/* vfs/devices.h: character devices by number, wherever their node lives
 * (devfs, tmpfs, a host directory): null, zero, full, random, urandom, and
 * the terminals: tty (5,0), console (5,1), ptmx (5,2), pts (136+). */
#ifndef VFS_DEVICES_H
#define VFS_DEVICES_H

#include <stdint.h>

struct file;
struct inode;

#define MKDEV(ma, mi)                                                             \
	((((uint64_t)(ma)&0xfffff000ULL) << 32) | (((uint64_t)(ma)&0xfff) << 8) | \
	 (((uint64_t)(mi)&0xffffff00ULL) << 12) | ((uint64_t)(mi)&0xff))
#define MAJOR(d) ((unsigned)((((d) >> 32) & 0xfffff000) | (((d) >> 8) & 0xfff)))
#define MINOR(d) ((unsigned)((((d) >> 12) & 0xffffff00) | ((d)&0xff)))

/* Opens the device rdev into f (ops, priv); -ENXIO if there is none. */
int device_open(struct inode *ino, uint64_t rdev, struct file *f);

/* A file opened with O_PATH: only fstat, fchdir, *at() and close work. */
extern const struct file_ops path_file_ops;

#endif
