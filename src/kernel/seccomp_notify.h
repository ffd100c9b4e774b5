/* kernel/seccomp_notify.h: what kernel/seccomp.c (filters) and
 * kernel/seccomp_notify.c (user notification: the listener file and the
 * calls waiting on it) share. Not for other subsystems. */
#ifndef KERNEL_SECCOMP_NOTIFY_H
#define KERNEL_SECCOMP_NOTIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/sched.h"
#include "abi/linux/seccomp.h"

struct task;
struct file;
struct seccomp_listener;

/* One filter of a chain, as Linux's: refcount keeps it (each task under
 * it, the filter installed after it on top of it, its listener file);
 * users counts the tasks and later filters only, so that 0 means no task
 * can make a call it filters any more (the listener's POLLHUP). */
struct seccomp_filter {
	int refcount;
	int users;
	struct seccomp_filter *prev;
	bool log;		 /* SECCOMP_FILTER_FLAG_LOG */
	bool wait_killable_recv; /* SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV */
	/* NEW_LISTENER's state while its file is open, else NULL (a
	 * USER_NOTIF of this filter is then ENOSYS); and where RECV and
	 * poll of the listener wait. */
	struct seccomp_listener *notif;
	struct waitq wqh;
	unsigned len;
	struct linux_sock_filter insns[];
};

/* Drops a reference (and those it held along the chain). */
void seccomp_filter_put(struct seccomp_filter *f);

/* NEW_LISTENER: f's listener state and a file for it (O_RDWR, a
 * reference on f). 0 or -ENOMEM/-ENFILE. */
int seccomp_listener_create(struct seccomp_filter *f, struct file **out);
/* The installation failed after seccomp_listener_create: the file lets
 * go of f (its release does nothing; the caller closes it), and f's
 * listener goes with the reference the file held. */
void seccomp_listener_abort(struct seccomp_filter *f, struct file *file);
/* A call of t whose verdict is USER_NOTIF from match, with the data the
 * filters saw: waits for the supervisor's answer. False: *ret is the
 * call's result (the answer, ENOSYS without a listener, or -EINTR with
 * t->restart_ret set when a signal withdrew it). True: CONTINUE, the
 * call runs. */
bool seccomp_user_notif(struct task *t, struct seccomp_filter *match,
			const struct linux_seccomp_data *d, long *ret);
/* f's users fell to 0: its listener's readers and pollers see HUP. */
void seccomp_filter_orphaned(struct seccomp_filter *f);

#endif
