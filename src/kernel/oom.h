/* kernel/oom.h: the OOM killer: when the instance's memory is over its
 * limit anyway (--memory; tmpfs data), the process with the most committed
 * memory is killed with SIGKILL and a line in the kernel log. */
#ifndef KERNEL_OOM_H
#define KERNEL_OOM_H

void oom_kill(const char *why);

#endif
