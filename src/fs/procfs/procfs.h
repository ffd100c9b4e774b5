/* fs/procfs/procfs.h: /proc, the guest's view of its own kernel: one
 * directory per process of the instance's pid namespace (never the host's),
 * and the system-wide files programs read (meminfo, stat, uptime...).
 * Every file's content is made when it is opened, from the kernel's state
 * at that moment. Read-only. procfs registers itself with vfs_mount_root
 * (procfs_mount_hook) from a constructor. */
#ifndef FS_PROCFS_PROCFS_H
#define FS_PROCFS_PROCFS_H

struct super_block;
struct inode;

/* The procfs super block (one per instance) and a new reference to its
 * root directory. */
int procfs_mount(struct super_block **sb, struct inode **root);

#endif
