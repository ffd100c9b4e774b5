/* vfs/poll.h: waiting for several files at once (poll, select). A file's
 * poll op adds what can wake it to a poll_table; the waiter sleeps once on
 * all of them. */
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
};

void poll_wait(struct poll_table *pt, struct waitq *wq);
void poll_wait_host_fd(struct poll_table *pt, int host_fd, bool write);

#endif
