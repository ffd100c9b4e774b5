/* kernel/oom.h: the OOM killer: when the instance's memory is over its
 * limit anyway (--memory; tmpfs data), the process with the most committed
 * memory is killed with SIGKILL and a line in the kernel log. */
#ifndef KERNEL_OOM_H
#define KERNEL_OOM_H

#include <stdint.h>

struct process;

void oom_kill(const char *why);
/* Its score for the OOM killer (the most is killed), INT64_MIN for never. */
int64_t oom_badness(struct process *p);

#endif
