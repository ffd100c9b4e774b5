/* vfs/locks.h: advisory file locks, kept in the kernel per file identity
 * (st_dev, st_ino): POSIX record locks (owned by an fd table, as Linux's
 * fl_owner = current->files), open-file-description locks (F_OFD_*) and
 * flock(2) locks (both owned by the struct file). */
#ifndef VFS_LOCKS_H
#define VFS_LOCKS_H

#include <stdbool.h>
#include <stdint.h>

#include "abi/linux/fcntl.h"

struct file;
struct files;
struct task;
struct sbuf;

/* fcntl F_GETLK/F_SETLK/F_SETLKW/F_OFD_GETLK/F_OFD_SETLK/F_OFD_SETLKW on f
 * by t; fl is read and (for GETLK) written back. May sleep. */
int locks_fcntl(struct task *t, struct file *f, int cmd, struct linux_flock *fl);
/* flock(2): op is LOCK_SH/LOCK_EX/LOCK_UN, optionally | LOCK_NB. */
int locks_flock(struct file *f, int op);
/* An fd of f in table fs is being closed: fs's POSIX locks on the file go. */
void locks_remove_posix(struct file *f, struct files *fs);
/* The last reference to f is going: its OFD and flock locks go. */
void locks_remove_file(struct file *f);
/* /proc/locks: one line per lock, as Linux prints them, with the pids of
 * the proc mount's namespace ns (locks of processes it cannot see are left
 * out). */
struct pid_ns;
void locks_proc_show(const struct pid_ns *ns, void (*emit)(void *ctx, const char *line), void *ctx);

#endif
