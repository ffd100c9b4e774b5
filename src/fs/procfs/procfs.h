/* fs/procfs/procfs.h: /proc, the guest's view of its own kernel: one
 * directory per process of the instance's pid namespace (never the host's),
 * and the system-wide files programs read (meminfo, stat, uptime...).
 * A file's content is made when it is opened (or, for those Linux shows
 * at the read, by a read from offset 0), from the kernel's state at that
 * moment. procfs registers itself with vfs_mount_root (procfs_mount_hook)
 * from a constructor. */
#ifndef FS_PROCFS_PROCFS_H
#define FS_PROCFS_PROCFS_H

struct super_block;
struct inode;
struct file;
struct process;
struct task;

/* The procfs super block (one per instance) and a new reference to its
 * root directory. */
int procfs_mount(struct super_block **sb, struct inode **root);

/* The process (zombies too) of a /proc/PID directory open in f, which
 * pidfd_send_signal takes as a pidfd (Linux's tgid_pidfd_to_pid): 0 and
 * *pp; -EBADF if f is not one (/proc/PID/task/TID is not), -ESRCH if the
 * process has been reaped. */
int procfs_pid_dir_process(struct file *f, struct process **pp);

/* The instance's uptime as t reads it in /proc/uptime (its time
 * namespace's boottime offset added), for sysinfo too. */
int64_t procfs_uptime_ns(struct task *t);

#endif
