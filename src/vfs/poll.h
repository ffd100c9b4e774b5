/* vfs/poll.h: waiting for several files at once (poll, select, epoll). A
 * file's poll op adds what can wake it to a poll_table; the waiter sleeps
 * once on all of them. An epoll item instead hangs a callback on each wait
 * queue for as long as it lives (qproc). */
#ifndef VFS_POLL_H
#define VFS_POLL_H

#include <stdbool.h>

#include "kernel/sched.h"

struct poll_entry {
	struct waiter w; /* on a wait queue, or */
	int host_fd;	 /* a host fd in the event loop (-1 if not) */
};

struct poll_table {
	struct task *task;
	struct poll_entry *e;
	int n, max;
	bool failed;
	/* If set, poll_wait and poll_wait_host_fd call these instead of
	 * queueing task (epoll's item registration). */
	void (*qproc)(struct poll_table *pt, struct waitq *wq);
	void (*qproc_host)(struct poll_table *pt, int host_fd, bool write);
};

void poll_wait(struct poll_table *pt, struct waitq *wq);
/* A host fd whose readiness is the file's; ready: it is ready now, so a
 * task need not wait for it (an epoll item notes it all the same). */
void poll_wait_host_fd(struct poll_table *pt, int host_fd, bool write, bool ready);
/* Leaves every wait queue and host fd of pt. */
void poll_table_free(struct poll_table *pt);

#endif
