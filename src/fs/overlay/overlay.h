/* fs/overlay/overlay.h: a writable upper filesystem (tmpfs) over a lower
 * one (hostfs, read-only): the default root. */
#ifndef FS_OVERLAY_OVERLAY_H
#define FS_OVERLAY_OVERLAY_H

struct inode;
struct super_block;

/* Takes over the references to upper and lower; *root gets one. */
int overlay_mount(struct inode *upper, struct inode *lower, struct super_block **sb,
		  struct inode **root);

#endif
