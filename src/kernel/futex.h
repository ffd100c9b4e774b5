/* kernel/futex.h: waking futex waiters from elsewhere in the kernel. */
#ifndef KERNEL_FUTEX_H
#define KERNEL_FUTEX_H

#include "mm/mm.h"

/* Wakes up to n waiters on addr in mm; returns how many. */
long futex_wake_addr(struct mm *mm, uaddr_t addr, int n);
/* t lets go of the PI futexes it holds (kernel/futex_pi.c): its exit
 * (exiting: and no new waiter attaches to it after) or its exec. */
struct task;
void futex_pi_release(struct task *t, bool exiting);

#endif
