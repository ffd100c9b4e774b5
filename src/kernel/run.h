/* kernel/run.h: the life of a task on its kernel stack: back to the guest,
 * wait for its trap, handle it (system call, fault, signal), repeat. */
#ifndef KERNEL_RUN_H
#define KERNEL_RUN_H

struct task;

/* The entry of every task's kernel stack. */
void task_main(void *arg);

#endif
