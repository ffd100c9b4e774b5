/* kernel/run.c: a task's loop on its own kernel stack. The platform runs
 * the guest until it traps; the trap comes back here as an event. */
#include "kernel/run.h"
#include "kernel/task.h"
#include "kernel/log.h"
#include "kernel/cpus.h"
#include "kernel/ptrace.h"
#include "syscalls/dispatch.h"
#include "abi/linux/signal.h"
#include "abi/linux/mman.h"
#include "mm/mm.h"

/* The kind of access that faulted. ptrace gives no x86 error code, so
 * (differs from Linux's own knowledge) it is inferred: at the ip it was an
 * instruction fetch; a denied access to a readable page that is not
 * writable was a write; to a PROT_NONE page, a read. */
static enum pf_access fault_access(struct task *t)
{
	struct vma *v;

	if (t->ev.access != PF_ACCESS_UNKNOWN)
		return t->ev.access;
	if (t->ev.addr == t->ev.ip)
		return PF_ACCESS_EXEC;
	if (t->ev.signo != LINUX_SIGSEGV || t->ev.code != LINUX_SEGV_ACCERR || !t->mm)
		return PF_ACCESS_UNKNOWN;
	v = mm_find_vma(t->mm, t->ev.addr);
	if (!v || v->start > t->ev.addr)
		return PF_ACCESS_UNKNOWN;
	if (v->prot == LINUX_PROT_NONE)
		return PF_ACCESS_READ;
	return (v->prot & LINUX_PROT_WRITE) ? PF_ACCESS_UNKNOWN : PF_ACCESS_WRITE;
}

static void handle_fault(struct task *t)
{
	static const char *const kind[] = { "access", "read", "write", "exec" };

	/* Just below the stack: it grows, and the access runs again. */
	if (t->ev.signo == LINUX_SIGSEGV && t->ev.code == LINUX_SEGV_MAPERR && t->mm &&
	    mm_grow_stack(t->mm, t->ev.addr) == 0)
		return;
	if (t->ev.signo == LINUX_SIGTRAP && t->ev.code == LINUX_TRAP_HWBKPT && t->ev.dr6)
		ptrace_hwbp_hit(t, t->ev.dr6);
	t->ev.access = fault_access(t);
	klog_ratelimited(LOG_INFO, "pid %d (%s): signal %d (code %d), %s at %#llx, ip %#llx",
			 t->proc->pid, t->comm, t->ev.signo, t->ev.code, kind[t->ev.access],
			 (unsigned long long)t->ev.addr, (unsigned long long)t->ev.ip);
	force_signal(t, t->ev.signo, t->ev.code, t->ev.addr);
}

void task_main(void *arg)
{
	struct task *t = arg;
	struct cpu_slot slot = { 0 };

	t->cpu_slot = &slot;
	for (;;) {
		if (t->killed)
			task_exit(t, t->proc->exit_code);
		handle_signals(t);
		if (t->killed)
			task_exit(t, t->proc->exit_code);
		if (t->pt.regs_set)
			ptrace_regs_restart(t);
		if (t->pt.step || t->pt.tf_set)
			ptrace_step_prepare(t);
		if (cpu_get(&slot) < 0)
			continue; /* woken by a signal or a kill while waiting (--cpus) */
		if (platform->resume(t->thread) < 0) {
			cpu_put(&slot);
			process_exit(t, LINUX_SIGKILL);
		}
		t->state = TASK_USER;
		schedule();
		cpu_put(&slot);
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
			signal_settle_stub(t);
			break;
		case PF_EV_GONE:
			klog(LOG_WARN, "pid %d (%s): stub lost", t->proc->pid, t->comm);
			/* Put, not just dropped: the platform's hold on it (a
			 * seccomp listener in the epoll set, which reports
			 * EPOLLHUP for ever once the thread is reaped) goes too. */
			platform->thread_put(t->thread);
			t->thread = NULL;
			process_exit(t, LINUX_SIGKILL);
		}
	}
}
