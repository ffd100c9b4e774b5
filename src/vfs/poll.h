/* vfs/poll.h: waiting for several files at once (poll, select, epoll). A
 * file's poll op adds what can wake it to a poll_table; the waiter sleeps
 * once on all of them. An epoll item instead hangs a callback on each wait
 * queue for as long as it lives (qproc). */
#ifndef VFS_POLL_H
#define VFS_POLL_H

#include <stdbool.h>
#include <stdint.h>

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
/* ppoll, pselect6 and io_pgetevents install a signal mask for the wait, as
 * sigsuspend (umask 0: none; size must be 8): 0 or -errno. Then, at the
 * wait's end with its result, the old mask is back, unless ret is
 * -ERESTARTNOHAND: handle_signals puts it back once the signal's frame is
 * built. */
int set_wait_mask(struct task *t, uint64_t umask, uint64_t size);
/* The same from pselect6's and io_pgetevents's argument: the guest's
 * {mask pointer, size} at usig (0: none; unreadable: -EFAULT). */
int set_wait_mask_indirect(struct task *t, uint64_t usig);
void end_wait_mask(struct task *t, long ret);

#endif
