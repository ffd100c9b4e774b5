/* kernel/sched.h: kernel stacks, the run queue, wait queues and timers.
 * One host thread runs all kernel code; a task that must wait sleeps and the
 * kernel switches stacks (xv6's sleep/wakeup). No locks. */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

#include "lib/list.h"

struct task;

struct kstack {
	uint64_t sp; /* saved rsp while switched away */
	void *base;
	size_t size;
	void *fake_stack; /* ASan's bookkeeping across switches */
	unsigned vg_id;	  /* valgrind's id for the stack (host_stack_register) */
	void (*fn)(void *);
	void *arg;
};

int kstack_init(struct kstack *ks, void (*fn)(void *), void *arg);

/* Changes at every kernel stack switch. Kernel code that reads the same
 * value twice ran with nothing in between: no other task, no guest code of
 * its own (a handler that sleeps, or returns to the guest, switches). */
extern uint64_t sched_stretch;
void kstack_free(struct kstack *ks);

/* A wait queue: tasks sleeping until somebody wakes them, and callbacks
 * (epoll items) run at each wakeup. A wakeup carries a key: the LINUX_POLL*
 * bits it concerns (POLLIN: data came; POLLOUT: room came), or 0 for any
 * change, as Linux's wake_up_poll and wake_up. As Linux's __wake_up_common,
 * a wakeup reaches every non-exclusive waiter and the exclusive ones in
 * queue order until one of them says it woke something (waitq_wake_all:
 * all of them). */
struct waitq {
	struct list_head waiters;
};

struct waiter {
	struct list_head link;
	struct task *task; /* woken, if func is NULL */
	/* Else called at each wakeup with its key; runs inside the waker, so
	 * it never sleeps; returns nonzero if it woke something. With
	 * WAKE_FREE the queue is about to be freed and func must leave it
	 * (list_del). */
	int (*func)(struct waiter *w, unsigned key);
	bool exclusive; /* counts against the wakeup's one (EPOLLEXCLUSIVE) */
};

#define WAKE_FREE 0x4000 /* Linux's POLLFREE */

void waitq_init(struct waitq *wq);
/* Sleeps the current task on wq once; the caller re-checks its condition. */
void waitq_sleep(struct waitq *wq);
/* Wakes the queue for key (0: any change): every non-exclusive waiter, and
 * exclusive ones until one wakes something. */
void waitq_wake(struct waitq *wq, unsigned key);
/* Wakes every waiter, exclusive or not. */
void waitq_wake_all(struct waitq *wq);
/* The same for a waker that goes on (a pipe's or socket's writer, its
 * reader): the tasks it wakes run once it blocks (sched_wake_sync). */
void waitq_wake_sync(struct waitq *wq, unsigned key);
/* The queue is being freed: wakes its tasks and empties it; callbacks get
 * WAKE_FREE. */
void waitq_release(struct waitq *wq);

/* Timers: fn(arg) runs in the scheduler when the monotonic clock passes
 * deadline_ns. */
struct ktimer {
	struct list_head link;
	int64_t deadline_ns;
	void (*fn)(void *arg);
	void *arg;
	bool armed;
};

void ktimer_arm(struct ktimer *tm, int64_t deadline_ns, void (*fn)(void *), void *arg);
void ktimer_cancel(struct ktimer *tm);
/* Sleeps the current task until deadline (monotonic ns). */
void sched_sleep_until(int64_t deadline_ns);

/* The load average (kernel/loadavg.c). loadavg_update folds the periods
 * due by now_ns with the count of threads that run or wait to run, plus
 * extra (the current task, asleep already but running until now); call
 * it before that count changes. loadavg_get: the three averages in FSHIFT
 * (11) fixed point, plus offset, shifted left by shift (sysinfo's 16-bit
 * point: 5). loadavg_format: "L1 L5 L15" as /proc/loadavg shows them. */
void loadavg_update(int64_t now_ns, int extra);
void loadavg_get(uint64_t loads[3], uint64_t offset, int shift);
int loadavg_format(char *buf, size_t size);

extern struct task *current;

void sched_add(struct task *t);
void sched_wake(struct task *t);
/* A wakeup by the current task, which goes on running: t runs when the
 * waker blocks or exits, or after a millisecond at most, as a task woken
 * with Linux's WF_SYNC on the waker's CPU does not preempt it. Where guest
 * threads share one host CPU (no --cpus, or 1), a reader then finds a
 * pipe's worth of data at once instead of each write's. */
void sched_wake_sync(struct task *t);
/* Leaves the current task's stack for the scheduler; returns when woken. */
void schedule(void);
/* Runs tasks until none is left. */
void sched_run(void);
int64_t sched_now_ns(void);

#endif
