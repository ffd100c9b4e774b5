/* fs/tmpfs/tmpfs.h: a filesystem in memory. File data lives in kernel
 * pages, or in a memfd of the file's own once it is mapped or big, so
 * read/write and mmap see the same pages. */
#ifndef FS_TMPFS_TMPFS_H
#define FS_TMPFS_TMPFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct file;
struct inode;
struct super_block;

/* A new tmpfs of at most size_limit bytes of file data and the default
 * inode space (2^20 inodes: skas's own mounts, the root's upper layer,
 * /tmp, /dev/shm); root mode. */
/* Linux's shmem_default_max_inodes, for a tmpfs a guest mounts without
 * nr_inodes=: half the memory's pages (MemTotal), at least one. */
uint64_t tmpfs_default_nr_inodes(void);
int tmpfs_mount(uint64_t size_limit, uint32_t root_mode, struct super_block **sb,
		struct inode **root);
/* The same with nr_inodes= (0: no limit; the root takes one). */
int tmpfs_mount_inodes(uint64_t size_limit, uint64_t nr_inodes, uint32_t root_mode,
		       struct super_block **sb, struct inode **root);
/* remount's size= and nr_inodes= (NULL: not given; a size of UINT64_MAX
 * and 0 inodes are no limit): EINVAL, nothing changed, for a limit on
 * what had none or below what is held (Linux's shmem_reconfigure), or if
 * sb is no tmpfs. */
int tmpfs_reconfigure(struct super_block *sb, const uint64_t *size_limit,
		      const uint64_t *nr_inodes);
/* mpol=: the NUMA policy files made from now on start with (the
 * reference passes; NULL for none). */
struct mempolicy;
void tmpfs_set_mpol(struct super_block *sb, struct mempolicy *p);
/* Numbers the inodes made from now on from ino (if higher). */
void tmpfs_set_next_ino(struct super_block *sb, uint64_t ino);
bool is_tmpfs(const struct inode *ino);
/* The tree is sysfs's, built: no name is added, removed or moved (EPERM;
 * a regular file's create EACCES, O_TMPFILE EOPNOTSUPP), a file without a
 * write bit does not open for writing, even for root (EACCES), a write to
 * one with it is EINVAL and a truncation is ignored, as kernfs answers a
 * sysfs mounted read-write. chmod, chown and times still change. */
void tmpfs_freeze(struct super_block *sb);
/* overlay's whiteouts and opaque directories live in the upper tmpfs. */
bool tmpfs_is_opaque(const struct inode *dir);
void tmpfs_set_opaque(struct inode *dir, bool opaque);
/* A moved overlay directory's lower directory (overlayfs's
 * trusted.overlay.redirect, kept as the inode itself: the upper layer
 * lives no longer than the instance); takes a reference on lower. Its
 * host fd counts as an open file (-ENFILE at the cap). */
int tmpfs_set_redirect(struct inode *dir, struct inode *lower);
/* It, or NULL (borrowed). */
struct inode *tmpfs_redirect(const struct inode *dir);
/* The overlay's copy-up origin of an upper file (overlayfs's
 * trusted.overlay.origin): the device and inode number the lower file had,
 * which every name of the copy goes on showing. False if none. */
void tmpfs_set_origin(struct inode *ino, uint64_t dev, uint64_t nr);
bool tmpfs_origin(const struct inode *ino, uint64_t *dev, uint64_t *nr);
/* Would one more inode fit in dir's tmpfs (its inode space, --memory)?
 * For the overlay, which must know its whiteout will fit before it
 * changes anything. */
bool tmpfs_can_create(const struct inode *dir);
/* A regular file name in dir (owned by root) holding len bytes of data:
 * for filesystems built on tmpfs at mount time (sysfs). */
int tmpfs_add_file(struct inode *dir, const char *name, uint32_t mode, const void *data,
		   size_t len);
/* An empty regular file ino filled with len bytes of data (the kernel's
 * own files: --init's program). */
int tmpfs_fill(struct inode *ino, const void *data, size_t len);
/* The host fd of a regular file's data (created if needed: the data moves
 * there from kernel memory for good), or -errno (-ENOSPC past the
 * instance's memfds). */
int tmpfs_data_fd(struct inode *ino);
/* The seals of f (F_SEAL_*, changed by mm/memfd.c; the write paths here
 * enforce them), or NULL if f is not a regular file opened on a tmpfs of
 * its own (a file of the root overlay's upper, of sysfs): EINVAL for
 * F_GET_SEALS, as on Linux's non-shmem files. */
unsigned *tmpfs_file_seals(struct file *f);
/* The seals that stop writes (and new writable shared mappings). */
#define SEALS_WRITE (LINUX_F_SEAL_WRITE | LINUX_F_SEAL_FUTURE_WRITE)
/* The most tmpfs files with a memfd in the instance (mapped or big files;
 * each holds a host fd). */
void tmpfs_set_max_files(long n);

#endif
