/* fs/cgroupfs/cgroupfs.h: the cgroup2 filesystem (kernel/cgroup.h's tree). */
#ifndef FS_CGROUPFS_CGROUPFS_H
#define FS_CGROUPFS_CGROUPFS_H

struct task;
struct file;
struct inode;
struct super_block;
struct cgroup;

/* A mount of cgroup2 by t (NULL: the instance's, at boot): the one super block, rooted at the group of t's
 * cgroup namespace. *root gets a reference. */
int cgroupfs_mount(struct task *t, struct super_block **sb, struct inode **root);
/* The hierarchy's options changed: its mounts show them. */
void cgroupfs_show_flags(void);
/* The group whose directory f is open on (an O_PATH fd too), or NULL. */
struct cgroup *cgroupfs_file_cgroup(struct file *f);

#endif
