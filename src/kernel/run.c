/* kernel/run.c: a task's loop on its own kernel stack. The platform runs
 * the guest until it traps; the trap comes back here as an event. */
#include "kernel/run.h"
#include "kernel/task.h"
#include "kernel/log.h"
#include "syscalls/dispatch.h"
#include "abi/linux/signal.h"

static void handle_fault(struct task *t)
{
	klog(LOG_INFO, "pid %d (%s): signal %d (code %d) at %#llx, ip %#llx", t->proc->pid, t->comm,
	     t->ev.signo, t->ev.code, (unsigned long long)t->ev.addr, (unsigned long long)t->ev.ip);
	force_signal(t, t->ev.signo, t->ev.code, t->ev.addr);
}

void task_main(void *arg)
{
	struct task *t = arg;

	for (;;) {
		if (t->killed)
			task_exit(t, t->proc->exit_code);
		handle_signals(t);
		if (t->killed)
			task_exit(t, t->proc->exit_code);
		if (platform->resume(t->thread) < 0)
			process_exit(t, LINUX_SIGKILL);
		t->state = TASK_USER;
		schedule();
		if (t->killed)
			task_exit(t, t->proc->exit_code);
		switch (t->ev.kind) {
		case PF_EV_SYSCALL:
			syscall_enter(t);
			break;
		case PF_EV_FAULT:
			handle_fault(t);
			break;
		case PF_EV_SIGNAL:
		case PF_EV_INTERRUPT:
			/* A host signal to the stub thread, or our own interrupt. */
			break;
		case PF_EV_GONE:
			klog(LOG_WARN, "pid %d (%s): stub lost", t->proc->pid, t->comm);
			t->thread = NULL;
			process_exit(t, LINUX_SIGKILL);
		}
	}
}
