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
/* sig is no longer ignored by p: its timers that stopped while it was
 * (their signal went nowhere) run again. */
void ptimer_sig_unignored(struct process *p, int sig);
/* A timer's signal was thrown away unseen (ignored, a flush): its
 * timer, waiting for it to be taken, runs on. */
void ptimer_discarded(struct process *p, const struct linux_siginfo *info);
bool ptimer_dequeued(struct process *p, struct linux_siginfo *info);

/* CPU-time timers (POSIX timers on CPU clocks, ITIMER_VIRTUAL/PROF) are
 * checked every CPUTIMER_POLL_NS of wall time while one is armed. */
#define CPUTIMER_POLL_NS 10000000LL
void cputimer_poll_start(struct process *p);
/* itimer.c: fires the CPU itimers that are due; true if one is armed. */
bool itimer_cpu_check(struct process *p);

#endif
