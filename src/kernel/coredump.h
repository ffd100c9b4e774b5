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
/* kernel.core_pattern: the text, or a new one (-EINVAL: a pipe, or too
 * long). */
const char *coredump_pattern(void);
int coredump_set_pattern(const char *s, size_t len);

#endif
