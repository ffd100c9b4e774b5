/* kernel/ptrace.h: ptrace(2) between guest tasks: the kernel's own
 * bookkeeping (a guest tracer never touches host ptrace). A traced task
 * stops in the kernel (signal delivery, syscall entry and exit, events,
 * group stops) and sleeps there until its tracer resumes it. */
#ifndef KERNEL_PTRACE_H
#define KERNEL_PTRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/list.h"
#include "abi/linux/signal.h"

struct task;
struct process;
struct sysargs;

/* Per task; all zero (after ptrace_task_init) while nobody traces it. */
struct ptrace_state {
	struct task *tracer;	  /* the tracing thread, or NULL */
	struct list_head link;	  /* on tracer->pt.tracees while traced */
	struct list_head tracees; /* the tasks this thread traces, by link */
	struct list_head exits;	  /* struct ptrace_exit: deaths to report */
	unsigned opts;		  /* PTRACE_O_* */
	bool seized;
	bool stopped;	   /* sleeps in a ptrace stop */
	bool reported;	   /* wait has reported the stop */
	bool sys_trace;	   /* PTRACE_SYSCALL: stop at syscall entry and exit */
	bool sysemu;	   /* PTRACE_SYSEMU(_SINGLESTEP): entry stop, call not run */
	bool step;	   /* PTRACE_SINGLESTEP */
	bool tf_set;	   /* the kernel set TF in its eflags for step */
	bool regs_set;	   /* the tracer wrote its registers since the call */
	bool rax_eintr;	   /* ... and -EINTR in rax while a restart was due */
	bool trap_pending; /* PTRACE_INTERRUPT, a seize of a stopped task */
	bool listening;	   /* PTRACE_LISTEN: stays in the group stop */
	bool group_done;   /* took its trap for the current group stop */
	bool exec_killed;  /* killed by another thread's execve (de_thread) */
	bool has_si;	   /* si is the stop's siginfo (GETSIGINFO) */
	int group_sig;	   /* the signal of the current group stop */
	int code;	   /* the stop's wait code: sig | event << 8 */
	int why;	   /* enum ptrace_why */
	int resume_sig;	   /* the data of the request that resumed it */
	uint64_t msg;	   /* PTRACE_GETEVENTMSG */
	bool debugregs;	   /* a tracer wrote the thread's debug registers */
	/* Without platform debugreg (ptrace.c debugreg_set): kept here, and
	 * armed by the platform's hwbp_arm where it has one. DR6 as Linux's
	 * virtual_dr6 (xor DR6_RESERVED); each of the four breakpoints
	 * registered or not, and its DR7 length and type. */
	uint64_t debugreg[8];
	uint8_t dr_registered;
	/* ...enabled by the last DR7 write (Linux's per-breakpoint
	 * disabled flag: one registered by a DR0-3 write starts disabled,
	 * whatever DR7 says, as after a fork) */
	uint8_t dr_enabled;
	uint8_t dr_lt[4];
	bool dr7_inherited; /* with platform debugreg: DR7 reads debugreg[7] */
	struct linux_siginfo si;
};

void ptrace_task_init(struct task *t);
/* A new task c of t's: no breakpoint, but DR7 reads as t's last write
 * (Linux's copy_thread keeps ptrace_dr7) until its tracer writes one. */
void ptrace_debugregs_fork(struct task *c, struct task *t);
/* A hit of a breakpoint the platform's hwbp_arm armed: its DR6 bits. */
void ptrace_hwbp_hit(struct task *t, unsigned dr6);
/* Before the signal the task dequeued is acted on: the tracer sees it
 * and says which to deliver (0: none). info may be replaced. */
int ptrace_signal(struct task *t, int sig, struct linux_siginfo *info);
/* A traced task in a group stop (or with a trap pending) takes its trap
 * instead of parking; true if it did, or the tracer lets it run. */
bool ptrace_group_trap(struct task *t);
/* SIGCONT was sent to p: each seized tracee of it takes a
 * PTRACE_EVENT_STOP (SIGTRAP), stopped, running or listening. */
void ptrace_sigcont(struct process *p);
/* t, killed by another thread's execve, is about to exit: the EXIT event
 * first (message 0), if its tracer asked for it. */
void ptrace_exec_killed(struct task *t);
/* Syscall stops around the dispatcher: entry may change nr and args
 * (from the registers the tracer set); false: skip the call (always
 * under PTRACE_SYSEMU). */
bool ptrace_syscall_entry(struct task *t, int *nr, struct sysargs *a);
void ptrace_syscall_exit(struct task *t);
/* seccomp's RET_TRACE for a tracer that asked for PTRACE_EVENT_SECCOMP:
 * the stop (event message data), with the entry registers shown; then the
 * call the tracer left in *nr and args, or false if it skipped it (*ret
 * its rax) or the task is killed. */
bool ptrace_seccomp_stop(struct task *t, uint32_t data, int *nr, uint64_t *args, long *ret);
/* Before t returns to the guest: TF on while single-stepping, off after
 * (a trap of the CPU's comes as SIGTRAP, TRAP_TRACE). */
void ptrace_step_prepare(struct task *t);
/* Before t returns to the guest after its tracer wrote its registers:
 * registers that still say an interrupted call (orig_rax >= 0, rax an
 * -ERESTART* code, as a tracer restores them after running code of its
 * own in the tracee, gdb's inferior calls) restart it, as Linux decides
 * at every return to user mode when no handler runs. */
void ptrace_regs_restart(struct task *t);
/* A signal's frame was just set up for t while its tracer single-stepped
 * it: as Linux's signal_setup_done, stepping stops and t reports a
 * SIGTRAP stop at the handler's first instruction. */
void ptrace_signal_stepped(struct task *t);
/* PTRACE_EVENT_* stops, if the tracer asked for the event. */
void ptrace_event(struct task *t, int event, uint64_t msg);
/* pid (an instance pid) as t's tracer's pid namespace sees it, for an
 * event's message (Linux's ptrace_event_pid); 0 untraced. */
int ptrace_tracer_nr(const struct task *t, int pid);
/* clone: child is traced too when the parent's tracer asked for the
 * event (strace -f), or by CLONE_PTRACE; the parent then stops with the
 * event (if asked for). */
int ptrace_clone_event(uint64_t clone_flags, int exit_signal);
void ptrace_clone_attach(struct task *parent, struct task *child, int event, bool clone_ptrace);
/* A successful exec: the EXEC event, or a SIGTRAP for an old-style tracee. */
void ptrace_exec(struct task *t, int old_tid);
/* The task ends with wait status: its tracees are let go and its tracer
 * hears (when it is not the parent that waits for the process). */
void ptrace_task_exit(struct task *t, int status);
/* p's last thread is gone: true if a tracer other than its parent has
 * its leader's record to reap first (the parent hears of it later, from
 * process_tracer_done); ptrace_process_release when p is freed. */
bool ptrace_process_gone(struct process *p);
/* An exec by another thread takes the gone leader's pid: its record at
 * a tracer goes without a report. */
void ptrace_leader_released(struct process *p);
void ptrace_process_release(struct process *p);
/* Is p traced (by a thread of tracer, if not NULL)? */
bool ptrace_traced_by(const struct process *p, const struct process *tracer);
/* wait4/waitid over me's tracees: 1 and fills the out fields if one had
 * something to report, 0 if some matched, -1 if none did. */
struct ptrace_wait {
	int pid, status, code, si_status;
	uint32_t uid;
};
int ptrace_wait(struct task *me, int which, int id, int options, struct ptrace_wait *res);
/* /proc/PID/status's TracerPid. */
int ptrace_tracer_pid(const struct task *t);

#endif
