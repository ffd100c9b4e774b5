/* kernel/ptimer.h: POSIX per-process timers (timer_create and friends). */
#ifndef KERNEL_PTIMER_H
#define KERNEL_PTIMER_H

#include <stdbool.h>

struct process;
struct linux_siginfo;

/* Deletes every timer of p: at exec and when the process ends. */
void ptimer_exit(struct process *p);
/* A signal with si_code SI_TIMER is being taken from p's queues: fills in
 * its si_overrun from the timer, as Linux's dequeue does, and clears the
 * kernel-private field. false: the signal is stale (its timer was set
 * again or deleted since) and must be dropped. */
bool ptimer_dequeued(struct process *p, struct linux_siginfo *info);

#endif
