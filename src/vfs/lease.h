/* vfs/lease.h: file leases (fcntl F_SETLEASE, F_GETLEASE), as Linux's
 * fs/locks.c keeps them: per open file description, on a regular file,
 * broken by another open (and truncate(2)) that conflicts with them. */
#ifndef VFS_LEASE_H
#define VFS_LEASE_H

#include <stdbool.h>
#include <stdint.h>

struct file;
struct inode;
struct task;
struct pid_ns;

/* fs.lease-break-time (seconds a holder has before the kernel breaks the
 * lease itself; <= 0: never) and fs.leases-enable (0: no new lease). */
extern int lease_break_time;
extern int leases_enable;

/* F_SETLEASE on f, known to t as fd, with type arg: 0 or -errno. */
long lease_fcntl_set(struct task *t, struct file *f, int fd, int arg);
/* F_GETLEASE: the lease f holds, or the type a break asks it to become. */
long lease_fcntl_get(struct file *f);
/* An open of ino (for writing if want_write) or a truncate: the leases it
 * conflicts with are broken, and it waits until they are given up or the
 * kernel breaks them (Linux's __break_lease). -EWOULDBLOCK if nonblock,
 * -ERESTARTSYS on a signal. */
int lease_break(const struct inode *ino, bool want_write, bool nonblock);
/* The last reference to f is going: its lease goes. */
void lease_remove_file(struct file *f);
/* /proc/locks' lease lines (and the opens that wait for one), numbered on
 * from n, the lines before them. */
void lease_proc_show(const struct pid_ns *ns, void (*emit)(void *ctx, const char *line), void *ctx,
		     int n);

#endif
