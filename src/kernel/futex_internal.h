/* kernel/futex_internal.h: what futex.c (wait and wake) and futex_pi.c
 * (the priority-inheritance futexes) share: keys, waiters, timeouts. */
#ifndef KERNEL_FUTEX_INTERNAL_H
#define KERNEL_FUTEX_INTERNAL_H

#include "kernel/task.h"
#include "lib/list.h"

struct futex_key {
	const struct mm *mm; /* private; NULL for shared */
	uint64_t dev, ino;   /* shared: the file, or ANON_DEV and the mapping */
	uint64_t off;	     /* private: the address; shared: the offset */
};

struct futex_pi;

/* A task waiting in a futex call, on its kernel stack. A plain waiter
 * and a FUTEX_WAIT_REQUEUE_PI one not yet requeued are on futex_waiters;
 * one waiting to own a PI futex is on that futex's list (futex_pi.c). */
struct futex_waiter {
	struct list_head link;
	struct futex_key key;
	uint32_t bitset;
	struct task *task;
	bool woken, timed_out;
	/* PI: requeue_pi for FUTEX_WAIT_REQUEUE_PI, whose PI futex is key2;
	 * pi once it waits on one; acquired once the lock was handed to it
	 * (the word names it already). */
	bool requeue_pi, acquired;
	struct futex_key key2;
	struct futex_pi *pi;
	uaddr_t pi_addr; /* its address of the PI futex, in its own mm */
};

extern struct list_head futex_waiters;

bool futex_key_eq(const struct futex_key *a, const struct futex_key *b);
/* The key of the futex at addr: 0 or -EFAULT where nothing is mapped. */
int futex_get_key(struct mm *mm, uaddr_t addr, bool private, struct futex_key *key);
/* A ktimer callback: the waiter arg timed out. */
void futex_timeout(void *arg);

/* futex_pi.c */
long futex_lock_pi(struct task *t, uaddr_t addr, bool private, int64_t deadline_ns, bool trylock);
long futex_unlock_pi(struct task *t, uaddr_t addr, bool private);
long futex_wait_requeue_pi(struct task *t, uaddr_t addr, bool private, uint32_t val,
			   int64_t deadline_ns, uaddr_t addr2);
long futex_cmp_requeue_pi(struct task *t, uaddr_t addr, uaddr_t addr2, bool private, int nwake,
			  int nreq, uint32_t cmpval);
/* Whether a PI futex has its state at key (waiters): a plain wake or
 * requeue there is EINVAL, as on Linux. */
bool futex_pi_busy(const struct futex_key *key);

#endif
