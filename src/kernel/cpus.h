/* kernel/cpus.h: --cpus N: how many guest threads may run guest code at
 * once, and how many CPUs the guest sees (sched_getaffinity, getcpu,
 * /proc/cpuinfo). */
#ifndef KERNEL_CPUS_H
#define KERNEL_CPUS_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/list.h"

struct task;
struct pf_thread;

/* Held by a task while its thread runs guest code (on its kernel stack,
 * for the task's life: zeroed once). */
struct cpu_slot {
	struct list_head link; /* in the waiters, then the holders; or local */
	struct task *task;
	bool granted;
	int64_t since_ns;
	/* Without --cpus: the host thread moved off the kernel's CPU, or
	 * NULL (an exec may bring a new one, which starts on the kernel's
	 * CPU), and how many short runs it made there in a row. */
	bool local, told;
	struct pf_thread *spilled;
	int short_runs;
	/* The runs of guest code of the program now running (runs_mm: an
	 * exec starts it afresh), and the count at the last long one. */
	const void *runs_mm;
	bool long_seen;
	unsigned runs, long_at;
};

/* n == 0: no gate, and the guest sees the host's CPUs. */
void cpus_set(int n);
/* Whether guest threads share one host CPU (no --cpus, or --cpus=1). */
bool cpus_shared(void);
/* Whether t's thread runs guest code off the kernel's CPU now. */
bool cpus_spilled(const struct task *t);
/* t's host thread is about to be put (t runs): off the kernel's CPU, it
 * goes back there first, where a new thread starts (a backend may give
 * the same host thread to the next guest thread: platform thread_reused). */
void cpus_thread_put(struct task *t);
/* CPUs the guest sees. */
int cpus_count(void);
/* The guest's number for the host CPU t's thread last ran on. */
int cpus_current(const struct task *t);
/* Waits for a slot: 0 with it, -EINTR if woken for something else (a
 * signal, a kill: the caller looks and tries again). */
int cpu_get(struct cpu_slot *s);
/* Gives the slot back (if held) to the first waiter. */
void cpu_put(struct cpu_slot *s);

#endif
