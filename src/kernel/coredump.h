/* kernel/coredump.h: ELF core files of guest processes killed by a signal
 * whose default action dumps core. */
#ifndef KERNEL_COREDUMP_H
#define KERNEL_COREDUMP_H

#include <stdbool.h>
#include <stddef.h>

struct task;
struct linux_siginfo;

/* t's process dies of info's signal: writes its core file if RLIMIT_CORE
 * and dumpability allow, as kernel.core_pattern names it. True if one was
 * written (the wait status then has WCOREDUMP). */
bool coredump(struct task *t, const struct linux_siginfo *info);
/* Before coredump: t's process is killed with sig and t waits until its
 * other threads stopped at their exits (coredump_park), with their
 * registers, or a time limit passed. False if a dump is already under
 * way or the process is exiting: then there is none. */
bool coredump_wait(struct task *t, int sig);
/* After the dump: the parked threads go on exiting. */
void coredump_done(struct task *t);
/* In task_exit of a thread whose process is dumping: keeps its registers
 * for the dump and waits for its end. */
void coredump_park(struct task *t);
/* /proc/PID/coredump_filter's bits (Linux's MMF_DUMP_*): which mappings
 * a core holds. */
#define COREDUMP_ANON_PRIVATE	0x01
#define COREDUMP_ANON_SHARED	0x02
#define COREDUMP_MAPPED_PRIVATE 0x04
#define COREDUMP_MAPPED_SHARED	0x08
#define COREDUMP_ELF_HEADERS	0x10
#define COREDUMP_FILTER_MASK	0x1ff /* with the hugetlb and DAX bits */
#define COREDUMP_FILTER_DEFAULT 0x33

/* kernel.core_pattern: the text, or a new one (-EINVAL: a pipe, or too
 * long). */
const char *coredump_pattern(void);
int coredump_set_pattern(const char *s, size_t len);

#endif
