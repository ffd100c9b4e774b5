/* kernel/cputime.h: CPU accounting of guest threads and processes, from
 * the host's accounting of the host threads that run them. */
#ifndef KERNEL_CPUTIME_H
#define KERNEL_CPUTIME_H

#include <stdbool.h>
#include <stdint.h>

#include "host/host.h"

struct task;
struct process;
struct mm;

/* The last user/system split reported (Linux's prev_cputime): reports
 * never go backwards. */
struct cpu_prev {
	int64_t utime, stime;
};

/* What getrusage, times and wait4 report (times in ns). */
struct cpu_usage {
	int64_t utime, stime;
	uint64_t minflt, majflt;
	int64_t maxrss_kb;
	uint64_t nvcsw, nivcsw; /* context switches: blocking, preempted */
};

/* Reads and writes (Linux's task_io_accounting, /proc/PID/io): bytes
 * that read-like and write-like calls moved and how many such calls got
 * past their checks. Storage I/O (read_bytes, write_bytes) is not
 * counted: tmpfs has none, and a host file's is the host's. */
struct task_io {
	uint64_t rchar, wchar, syscr, syscw;
};

/* A call of t's that read (write: wrote) ret bytes, or failed (< 0). */
void io_account(struct task *t, bool write, long ret);
/* t's counts, or its process's (whole: its threads', those gone, its
 * reaped children's). */
void io_task(struct task *t, struct task_io *out);
void io_process(struct process *p, struct task_io *out);

/* A CPU-time clock: a clock id that is CLOCK_PROCESS_CPUTIME_ID,
 * CLOCK_THREAD_CPUTIME_ID, or negative: a pid or tid (~id >> 3, 0: the
 * caller), a per-thread bit (4) and which time (the low 2 bits): PROF
 * (user+system), VIRT (user) or SCHED (run time), as Linux's CPUCLOCK_*. */
#define CPUCLOCK_PERTHREAD 4
#define CPUCLOCK_PROF	   0
#define CPUCLOCK_VIRT	   1
#define CPUCLOCK_SCHED	   2

struct cpuclock {
	bool thread; /* id is a tid of the caller's process, else a pid */
	int id;
	int which; /* CPUCLOCK_PROF, _VIRT or _SCHED */
};

bool cpuclock_is(int clk);
/* Linux's lookup_task(): a thread of the caller's process, or a process
 * by its pid (or by the caller's own tid); -EINVAL if none. */
int cpuclock_lookup(struct task *t, int clk, struct cpuclock *c);
/* The clock's value in ns; -EINVAL once its thread or process is gone. */
int cpuclock_read(const struct cpuclock *c, int64_t *ns);

/* Run time in ns of a thread, or of all threads of a process (the dead
 * ones included): the CPU-time clocks. */
int64_t cputime_task_ns(struct task *t);
int64_t cputime_process_ns(struct process *p);
/* RUSAGE_THREAD, RUSAGE_SELF, RUSAGE_CHILDREN. */
void cputime_task(struct task *t, struct cpu_usage *u);
void cputime_process(struct process *p, struct cpu_usage *u);
void cputime_children(struct process *p, struct cpu_usage *u);
/* t has a new host thread (clone): one that ran another guest thread
 * before (platform thread_reused) counts from now on. */
void cputime_thread_new(struct task *t);
/* t's host thread is about to go (exec gives it a new one): keep its
 * times with the task; with_mm: its address space goes too (or t leaves
 * it), its peak resident size stays with the process (as Linux keeps the
 * old mm's at exec and exit). One sample of both: the fewest host calls. */
void cputime_thread_retire(struct task *t, bool with_mm);
/* t leaves (with_mm: the last of its process): its times and read/write
 * counts move to its process. */
void cputime_task_exit(struct task *t, bool with_mm);
/* t, the last of its process, leaves with its address space, whose stub
 * ends with it: when the stub never had another guest thread and holds
 * little private memory (at most 16 MiB committed), it is ended
 * and reaped now (platform mm_reap: t->thread is put, NULL) and its whole
 * count moves to the process, instead of a cputime_task_exit's reads:
 * true. false: nothing done. */
bool cputime_task_exit_reap(struct task *t);
/* parent reaps the zombie child: the child's times and its children's
 * are added to parent's children, its read/write counts to parent's own (u: what the reap reports, may be NULL). */
void cputime_reap(struct process *parent, struct process *child, struct cpu_usage *u);
/* /proc/stat's CPU lines (Linux's kcpustat) for n guest CPUs, in ns:
 * user (of threads whose nice is above 0: nice), system and idle time
 * of each (per, n entries; may be NULL) and their sums, at uptime_ns of
 * the instance. */
struct cpu_stat {
	int64_t user, nice, system, idle;
};
void cputime_cpu_stat(int n, int64_t uptime_ns, struct cpu_stat *per, struct cpu_stat *sum);
/* Context switches since boot, every thread's (/proc/stat's ctxt). */
extern uint64_t cputime_ctxt;
/* A cpu_usage as getrusage's struct (struct linux_rusage *). */
void cputime_to_rusage(const struct cpu_usage *u, void *ru);

#endif
