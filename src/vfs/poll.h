/* vfs/poll.h: waiting for several files at once (poll, select, epoll). A
 * file's poll op adds what can wake it to a poll_table; the waiter sleeps
 * once on all of them. An epoll item instead hangs a callback on each wait
 * queue for as long as it lives (qproc). */
#ifndef VFS_POLL_H
#define VFS_POLL_H

#include <stdbool.h>

#include "kernel/sched.h"

struct poll_entry {
	struct waiter w; /* on a wait queue */
};

struct poll_table {
	struct task *task;
	struct poll_entry *e;
	int n, max;
	bool failed;
	/* If set, poll_wait calls it instead of queueing task (epoll's item
	 * registration). */
	void (*qproc)(struct poll_table *pt, struct waitq *wq);
};

void poll_wait(struct poll_table *pt, struct waitq *wq);
/* Leaves every wait queue of pt. */
void poll_table_free(struct poll_table *pt);

#endif
