/* kernel/futex.h: waking futex waiters from elsewhere in the kernel. */
#ifndef KERNEL_FUTEX_H
#define KERNEL_FUTEX_H

#include "mm/mm.h"

/* Wakes up to n waiters on addr in mm; returns how many. */
long futex_wake_addr(struct mm *mm, uaddr_t addr, int n);

#endif
