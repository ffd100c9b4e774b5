/* fs/sysfs/sysfs.h: a minimal /sys. */
#ifndef FS_SYSFS_SYSFS_H
#define FS_SYSFS_SYSFS_H

struct super_block;
struct inode;

/* A new sysfs: *sb and a reference to its root in *root. */
int sysfs_mount(struct super_block **sb, struct inode **root);

#endif
