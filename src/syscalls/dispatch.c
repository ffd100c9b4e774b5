/* syscalls/dispatch.c: the system call table. Every x86-64 number is named
 * (syscall_table.h); a number without a handler is -ENOSYS, reported once
 * in the kernel log with its name. */
#include <stddef.h>

#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "kernel/seccomp.h"
#include "kernel/log.h"
#include "abi/linux/errno.h"

typedef long (*syscall_fn)(struct task *t, const struct sysargs *a);

#define SC(nr, name, nargs, fmt) \
	long sys_##name(struct task *t, const struct sysargs *a) __attribute__((weak));
#include "syscalls/syscall_table.h"
#undef SC

#define NR_SYSCALLS 512

struct syscall_desc {
	const char *name;
	syscall_fn fn;
};

static const struct syscall_desc table[NR_SYSCALLS] = {
#define SC(nr, name, nargs, fmt) [nr] = { #name, sys_##name },
#include "syscalls/syscall_table.h"
#undef SC
};

static unsigned char reported[NR_SYSCALLS];

static long nosys(struct task *t, int nr)
{
	if (nr >= 0 && nr < NR_SYSCALLS) {
		if (!reported[nr]) {
			reported[nr] = 1;
			klog(LOG_INFO, "%s (%d) is not implemented: ENOSYS (first caller: %s)",
			     table[nr].name ? table[nr].name : "unknown", nr, t->comm);
		}
	}
	return -ENOSYS;
}

void syscall_enter(struct task *t)
{
	/* Linux looks at the low 32 bits only. */
	int nr = (int)(uint32_t)t->ev.nr;
	struct sysargs a;
	long ret;
	int i;

	for (i = 0; i < 6; i++)
		a.a[i] = t->ev.args[i];
	t->no_result = false;
	if (t->ev.compat) {
		/* int 0x80 and the i386 numbers: skas has no 32-bit ABI, as a
		 * Linux without IA32_EMULATION. */
		klog_once(LOG_INFO,
			  "32-bit system calls (int 0x80) are not implemented: ENOSYS "
			  "(first caller: %s)",
			  t->comm);
		if (task_seccomp_allows(t, &nr, a.a, true, &ret))
			ret = -ENOSYS;
		platform->set_result(t->thread, ret);
		return;
	}
	/* Syscall user dispatch first, as Linux's syscall_trace_enter: a
	 * dispatched call has no ptrace stop, no seccomp, and its rax stays
	 * the call's number for the SIGSYS handler. */
	if (t->sud.on && sud_dispatch(t, nr)) {
		platform->set_result(t->thread, nr);
		return;
	}
	/* A guest tracer's syscall-entry stop may change or skip the call
	 * (then rax is what it left there); PTRACE_SYSEMU skips it always,
	 * and seccomp's filters with it, as Linux's syscall_trace_enter. */
	if ((t->pt.sys_trace || t->pt.sysemu) && !ptrace_syscall_entry(t, &nr, &a)) {
		ptrace_syscall_exit(t);
		return;
	}
	if (strace_on)
		strace_enter(t, nr, &a);
	/* A guest's seccomp filter may stop the call: what it returns is the
	 * result as it is (no restart code is turned into EINTR; a user
	 * notification a signal withdrew set t->restart_ret itself). */
	if (!task_seccomp_allows(t, &nr, a.a, false, &ret)) {
		if (strace_on)
			strace_exit(t, nr, &a, ret);
		platform->set_result(t->thread, ret);
		if (t->pt.tracer)
			ptrace_syscall_exit(t);
		return;
	}
	if (nr >= 0 && nr < NR_SYSCALLS && table[nr].fn)
		ret = table[nr].fn(t, &a);
	else
		ret = nosys(t, nr);
	if (strace_on)
		strace_exit(t, nr, &a, ret);
	if (t->no_result) {
		if (t->pt.tracer)
			ptrace_syscall_exit(t);
		return;
	}
	/* An interrupted call: handle_signals restarts it or makes it EINTR. */
	if (ret <= -ERESTARTSYS && ret >= -ERESTART_RESTARTBLOCK && ret != -ENOIOCTLCMD) {
		t->restart_ret = ret;
		ret = -EINTR;
	}
	platform->set_result(t->thread, ret);
	if (t->pt.tracer)
		ptrace_syscall_exit(t);
}

const char *syscall_name(int nr)
{
	return nr >= 0 && nr < NR_SYSCALLS ? table[nr].name : NULL;
}
