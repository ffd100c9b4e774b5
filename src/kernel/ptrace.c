/* kernel/ptrace.c: ptrace(2) inside the guest. A tracer is a thread (as
 * in Linux); its tracees are tasks of any process. A tracee stops in the
 * kernel, never in the guest: at signal delivery (signal.c asks here), at
 * syscall entry and exit (dispatch.c), at events (fork, exec, exit) and in
 * group stops, sleeping in ptrace_stop until the tracer resumes, detaches
 * or dies. wait4/waitid report the stops (exit.c asks ptrace_wait). This is
 * the kernel's own bookkeeping: skas's host ptrace of its stubs is another
 * layer, untouched here. */
#include <stdlib.h>
#include <string.h>

#include "kernel/ptrace.h"
#include "kernel/task.h"
#include "kernel/cgroup.h"
#include "kernel/userns.h"
#include "kernel/pidns.h"
#include "syscalls/dispatch.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"
#include "abi/linux/mman.h"
#include "abi/linux/ptrace.h"

enum ptrace_why {
	PT_SIGNAL,	  /* signal-delivery stop */
	PT_SYSCALL_ENTRY, /* msg 1 */
	PT_SYSCALL_EXIT,  /* msg 2 */
	PT_EVENT,
	PT_GROUP, /* group stop, PTRACE_INTERRUPT, LISTEN's trap */
};

#define EVENTMSG_SYSCALL_ENTRY 1
#define EVENTMSG_SYSCALL_EXIT  2
#define SIGBIT(sig)	       (1ULL << ((sig)-1))
/* x86-64 eflags a tracer may change (Linux's FLAG_MASK), TF included. */
#define EFLAGS_USER 0x54dd5UL
#define EFLAGS_TF   0x100UL
#define USER_CS	    0x33
#define USER_DS	    0x2b

/* The death of a tracee its tracer must hear of itself (not its child). */
struct ptrace_exit {
	struct list_head link;
	int pid, pgid, status;
	uint32_t uid;
	/* A leader whose tracer is not its parent: told once the whole
	 * process is gone (leader->zombie), with the process's status, and
	 * the parent hears of it only when the tracer has reaped it or is
	 * gone (Linux's delay_group_leader, and "a zombie ptracee is only
	 * visible to its ptracer"). NULL once the process is released. */
	struct process *leader;
	struct task *tracer;
	/* A thread's pids charge, held until the record goes (Linux
	 * releases a traced thread once its tracer has heard). */
	struct pids_css *pids;
};

void ptrace_task_init(struct task *t)
{
	list_init(&t->pt.link);
	list_init(&t->pt.tracees);
	list_init(&t->pt.exits);
}

static void pt_link(struct task *c, struct task *tracer)
{
	c->pt.tracer = tracer;
	list_add_tail(&c->pt.link, &tracer->pt.tracees);
}

/* c is no longer traced; a stopped c goes on with signal sig (detach). */
static void pt_unlink(struct task *c, int sig)
{
	list_del(&c->pt.link);
	list_init(&c->pt.link);
	c->pt.tracer = NULL;
	c->pt.opts = 0;
	c->pt.seized = c->pt.sys_trace = c->pt.trap_pending = c->pt.step = false;
	c->pt.sysemu = false;
	c->pt.listening = false;
	if (c->pt.stopped) {
		c->pt.resume_sig = sig;
		c->pt.stopped = false;
		sched_wake(c);
	}
}

/* The tracer hears of a stop or a death: SIGCHLD (unless SA_NOCLDSTOP
 * for a stop), and its wait wakes up. */
static void notify_tracer_proc(struct process *tp, int pid, uint32_t uid, int why, int status)
{
	struct linux_siginfo si;

	memset(&si, 0, sizeof(si));
	si.si_signo = LINUX_SIGCHLD;
	si.si_code = why;
	si.fields.sigchld.pid = pid_nr_ns(pid, pid_ns_of(tp->pid)); /* as the tracer sees it */
	si.fields.sigchld.uid = from_kuid_munged(cred_user_ns(&tp->cred), uid);
	si.fields.sigchld.status = status;
	if (why != LINUX_CLD_TRAPPED ||
	    !(tp->sigactions[LINUX_SIGCHLD - 1].flags & LINUX_SA_NOCLDSTOP))
		send_signal_info(tp, NULL, LINUX_SIGCHLD, &si);
	waitq_wake_all(&tp->wait_chld);
}

static void notify_tracer(struct task *t, int why, int status)
{
	notify_tracer_proc(t->pt.tracer->proc, t->tid, t->proc->cred.uid, why, status);
}

static void exit_status(int status, struct ptrace_wait *res)
{
	res->status = status;
	if ((status & 0x7f) == 0) {
		res->code = LINUX_CLD_EXITED;
		res->si_status = (status >> 8) & 0xff;
	} else {
		res->code = (status & 0x80) ? LINUX_CLD_DUMPED : LINUX_CLD_KILLED;
		res->si_status = status & 0x7f;
	}
}

/* A death told to a tracer: CLD_EXITED, KILLED or DUMPED by its status. */
static void notify_tracer_exit(struct process *tp, int pid, uint32_t uid, int status)
{
	struct ptrace_wait w;

	exit_status(status, &w);
	notify_tracer_proc(tp, pid, uid, w.code, w.si_status);
}

/* A record keeps its ids from being handed out again, or losing their
 * numbers in the tracer's pid namespace, until it is reaped. */
static void exit_record_unpin(struct ptrace_exit *e)
{
	pid_unpin(e->pid);
	pid_unpin(e->pgid);
}

/* A record is reaped (by a wait) or its tracer is gone: a leader's parent
 * now hears of its process's end (Linux's release of a traced zombie to
 * its real parent, at the tracer's wait or __ptrace_detach). */
static void exit_record_free(struct ptrace_exit *e, bool reaped)
{
	struct process *p = e->leader, *tp = e->tracer->proc;

	list_del(&e->link);
	exit_record_unpin(e);
	if (e->pids)
		cgroup_pids_unhold(e->pids);
	free(e);
	if (!p)
		return;
	p->tracer_exit = NULL;
	if (p->zombie)
		process_tracer_done(p, tp, reaped);
}

void ptrace_leader_released(struct process *p)
{
	struct ptrace_exit *e = p->tracer_exit;
	struct process *tp;

	if (!e)
		return;
	tp = e->tracer->proc;
	p->tracer_exit = NULL;
	list_del(&e->link);
	exit_record_unpin(e);
	free(e);
	waitq_wake_all(&tp->wait_chld); /* a wait for it may end with ECHILD */
}

bool ptrace_process_gone(struct process *p)
{
	struct ptrace_exit *e = p->tracer_exit;

	if (!e)
		return false;
	e->status = p->exit_code;
	notify_tracer_exit(e->tracer->proc, e->pid, e->uid, e->status);
	return true;
}

void ptrace_process_release(struct process *p)
{
	if (p->tracer_exit)
		p->tracer_exit->leader = NULL;
	p->tracer_exit = NULL;
}

/* Sleeps in a ptrace stop with wait code code until the tracer resumes
 * it; returns the signal the tracer gave (0 when killed or untraced). */
static int ptrace_stop(struct task *t, int code, int why)
{
	if (t->killed || !t->pt.tracer)
		return 0;
	t->pt.code = code;
	t->pt.why = why;
	t->pt.reported = false;
	t->pt.resume_sig = 0;
	t->pt.stopped = true;
	notify_tracer(t, LINUX_CLD_TRAPPED, code & 0x7f);
	signal_stop_check(t->proc);    /* it may complete a group stop */
	cgroup_task_frozen_changed(t); /* or a freeze */
	while (t->pt.stopped && !t->killed) {
		t->state = TASK_SLEEPING;
		schedule();
	}
	t->pt.stopped = false;
	t->pt.has_si = false;
	cgroup_task_frozen_changed(t);
	return t->killed ? 0 : t->pt.resume_sig;
}

/* A stop whose siginfo says SIGTRAP with si_code code (syscall, event). */
static int trap_stop(struct task *t, int code, int why)
{
	memset(&t->pt.si, 0, sizeof(t->pt.si));
	t->pt.si.si_signo = LINUX_SIGTRAP;
	t->pt.si.si_code = code;
	t->pt.si.fields.kill.pid = pid_vnr(t, t->tid);
	t->pt.si.fields.kill.uid =
		from_kuid_munged(cred_user_ns(&t->proc->cred), t->proc->cred.uid);
	t->pt.has_si = true;
	return ptrace_stop(t, code, why);
}

int ptrace_signal(struct task *t, int sig, struct linux_siginfo *info)
{
	t->pt.si = *info;
	t->pt.has_si = true;
	sig = ptrace_stop(t, sig, PT_SIGNAL);
	if (!sig)
		return 0;
	/* The tracer may have set another siginfo (SETSIGINFO), or another
	 * signal: that one is from the tracer, as Linux's ptrace_signal. */
	*info = t->pt.si;
	if (info->si_signo != sig) {
		memset(info, 0, sizeof(*info));
		info->si_signo = sig;
		info->si_code = LINUX_SI_USER;
		if (t->pt.tracer) {
			info->fields.kill.pid = pid_vnr(t, t->pt.tracer->proc->pid);
			info->fields.kill.uid = from_kuid_munged(cred_user_ns(&t->proc->cred),
								 t->pt.tracer->proc->cred.uid);
		}
	}
	if (t->sigmask & SIGBIT(sig)) {
		/* Blocked: pending again, as Linux requeues it. */
		send_signal_info(t->proc, t, sig, info);
		return 0;
	}
	return sig;
}

bool ptrace_group_trap(struct task *t)
{
	struct process *p = t->proc;
	int sig, code;

	if (!t->pt.tracer || t->killed)
		return false;
	if (t->pt.listening) {
		if (p->stopped && !t->pt.trap_pending)
			return false; /* parks in the group stop */
		t->pt.listening = false;
		t->pt.trap_pending = true;
	}
	if (!t->pt.trap_pending && (!p->stopped || t->pt.group_done))
		return false;
	t->pt.trap_pending = false;
	sig = LINUX_SIGTRAP;
	if (p->stopped) {
		t->pt.group_done = true;
		sig = t->pt.group_sig ? t->pt.group_sig : LINUX_SIGSTOP;
	}
	if (t->pt.seized) {
		/* PTRACE_EVENT_STOP; SIGTRAP once the group stop is over. */
		code = sig | (LINUX_PTRACE_EVENT_STOP << 8);
		memset(&t->pt.si, 0, sizeof(t->pt.si));
		t->pt.si.si_signo = sig;
		t->pt.si.si_code = code;
		t->pt.si.fields.kill.pid = pid_vnr(t, t->tid);
		t->pt.si.fields.kill.uid =
			from_kuid_munged(cred_user_ns(&t->proc->cred), t->proc->cred.uid);
		t->pt.has_si = true;
		ptrace_stop(t, code, PT_GROUP);
		return true;
	}
	if (sig == LINUX_SIGTRAP)
		return false; /* old-style tracees have no interrupt trap */
	/* Old style: the stop signal, no siginfo (GETSIGINFO is EINVAL). */
	t->pt.has_si = false;
	ptrace_stop(t, sig, PT_GROUP);
	return true;
}

void ptrace_sigcont(struct process *p)
{
	struct task *t;

	/* Linux's ptrace_trap_notify, whether or not p was stopped: a
	 * tracee in a ptrace stop takes the trap once resumed. */
	list_for_each_entry(t, &p->threads, thread_link)
	{
		if (!t->pt.tracer || !t->pt.seized || t->killed)
			continue;
		t->pt.trap_pending = true;
		if (t->stop_parked)
			sched_wake(t);
		else if (!t->pt.stopped)
			task_kick(t);
	}
}

void ptrace_exec_killed(struct task *t)
{
	/* Linux's zapped thread has taken its SIGKILL from the queue when it
	 * stops: a kill from now on ends the stop. */
	if (!t->pt.tracer || !(t->pt.opts & LINUX_PTRACE_O_TRACEEXIT) || t->proc->exiting)
		return;
	t->killed = false;
	ptrace_event(t, LINUX_PTRACE_EVENT_EXIT, 0);
	t->killed = true;
}

/* A signal the tracer gave at a syscall stop is sent to the tracee, as
 * Linux's ptrace_report_syscall. */
static void inject(struct task *t, int sig)
{
	struct linux_siginfo si;

	if (!sig)
		return;
	memset(&si, 0, sizeof(si));
	si.si_signo = sig;
	si.si_code = LINUX_SI_KERNEL;
	send_signal_info(t->proc, t, sig, &si);
}

static int syscall_code(struct task *t)
{
	return LINUX_SIGTRAP | ((t->pt.opts & LINUX_PTRACE_O_TRACESYSGOOD) ? 0x80 : 0);
}

/* What Linux shows at a stop on syscall entry: the number in orig_rax,
 * rax -ENOSYS. */
static void entry_regs_show(struct task *t, uint64_t nr)
{
	struct pf_regs r;

	if (platform->get_regs(t->thread, &r) < 0)
		return;
	r.orig_rax = nr;
	r.rax = (uint64_t)-ENOSYS;
	platform->set_regs(t->thread, &r);
}

/* The call the tracer left at such a stop: orig_rax in *orig, the
 * argument registers in args, rax in *rax; false if they cannot be read. */
static bool entry_regs_take(struct task *t, int64_t *orig, uint64_t *args, long *rax)
{
	struct pf_regs r;

	if (platform->get_regs(t->thread, &r) < 0)
		return false;
	*orig = (int64_t)r.orig_rax;
	args[0] = r.rdi, args[1] = r.rsi, args[2] = r.rdx;
	args[3] = r.r10, args[4] = r.r8, args[5] = r.r9;
	*rax = (long)r.rax;
	return true;
}

bool ptrace_syscall_entry(struct task *t, int *nr, struct sysargs *a)
{
	bool emu = t->pt.sysemu;
	int64_t orig;
	long rax;
	int sig;

	if (!t->pt.tracer || !(t->pt.sys_trace || emu))
		return true;
	entry_regs_show(t, t->ev.nr);
	t->pt.msg = EVENTMSG_SYSCALL_ENTRY;
	sig = trap_stop(t, syscall_code(t), PT_SYSCALL_ENTRY);
	if (t->killed)
		return false;
	inject(t, sig);
	/* The tracer may have changed the call or its arguments. */
	if (!entry_regs_take(t, &orig, a->a, &rax))
		return false;
	*nr = (int)(uint32_t)orig;
	/* orig_rax -1 skips the call, and PTRACE_SYSEMU at the time of the
	 * stop (however the tracer resumed it) does: rax is what the tracer
	 * left there. */
	return orig != -1 && !emu;
}

bool ptrace_seccomp_stop(struct task *t, uint32_t data, int *nr, uint64_t *args, long *ret)
{
	int64_t orig;

	entry_regs_show(t, (uint64_t)(int64_t)*nr);
	ptrace_event(t, LINUX_PTRACE_EVENT_SECCOMP, data);
	if (t->killed || !entry_regs_take(t, &orig, args, ret)) {
		*ret = -ENOSYS;
		return false;
	}
	if (orig < 0 || orig > INT32_MAX)
		return false; /* skipped: *ret is the tracer's rax */
	*nr = (int)orig;
	return true;
}

void ptrace_syscall_exit(struct task *t)
{
	if (!t->pt.tracer || t->killed)
		return;
	/* Stepping over a syscall instruction: a SIGTRAP once it is done
	 * instead of the exit stop, as Linux's user_single_step_report (the
	 * host's TF trap would come an instruction later). Not under
	 * SYSEMU_SINGLESTEP: its syscall stop was the step's, and the next
	 * trap is the host's, after the next instruction (Linux's
	 * report_single_step). */
	if (t->pt.step && !t->pt.sysemu) {
		force_signal(t, LINUX_SIGTRAP, LINUX_TRAP_BRKPT, t->ev.ip);
		return;
	}
	if (!t->pt.sys_trace)
		return;
	t->pt.msg = EVENTMSG_SYSCALL_EXIT;
	inject(t, trap_stop(t, syscall_code(t), PT_SYSCALL_EXIT));
}

int ptrace_tracer_nr(const struct task *t, int pid)
{
	return t->pt.tracer ? pid_nr_ns(pid, pid_ns_of(t->pt.tracer->proc->pid)) : 0;
}

void ptrace_event(struct task *t, int event, uint64_t msg)
{
	/* PTRACE_O_TRACE<event> is 1 << event. */
	if (!t->pt.tracer || !(t->pt.opts & (1u << event)))
		return;
	t->pt.msg = msg;
	trap_stop(t, LINUX_SIGTRAP | (event << 8), PT_EVENT);
}

void ptrace_signal_stepped(struct task *t)
{
	if (!t->pt.tracer || !t->pt.step || t->killed)
		return;
	t->pt.step = false;
	trap_stop(t, LINUX_SIGTRAP, PT_EVENT);
}

void ptrace_step_prepare(struct task *t)
{
	bool want = t->pt.step && t->pt.tracer;
	struct pf_regs r;

	/* Looked at each time while stepping: a sigreturn or a signal
	 * frame may have put other flags there. */
	if (!t->thread || platform->get_regs(t->thread, &r) < 0)
		return;
	t->pt.tf_set = want;
	if (want == !!(r.eflags & EFLAGS_TF))
		return;
	if (want)
		r.eflags |= EFLAGS_TF;
	else
		r.eflags &= ~EFLAGS_TF;
	platform->set_regs(t->thread, &r);
}

int ptrace_clone_event(uint64_t clone_flags, int exit_signal)
{
	if (clone_flags & LINUX_CLONE_UNTRACED)
		return 0;
	if (clone_flags & LINUX_CLONE_VFORK)
		return LINUX_PTRACE_EVENT_VFORK;
	return exit_signal == LINUX_SIGCHLD ? LINUX_PTRACE_EVENT_FORK : LINUX_PTRACE_EVENT_CLONE;
}

void ptrace_clone_attach(struct task *parent, struct task *child, int event, bool clone_ptrace)
{
	struct linux_siginfo si;

	if (!parent->pt.tracer)
		return;
	if (!clone_ptrace && (!event || !(parent->pt.opts & (1u << event))))
		return;
	pt_link(child, parent->pt.tracer);
	child->pt.opts = parent->pt.opts;
	child->pt.seized = parent->pt.seized;
	if (child->pt.seized) {
		child->pt.trap_pending = true; /* PTRACE_EVENT_STOP first */
		return;
	}
	/* Old style: it starts with SIGSTOP pending, as Linux. */
	memset(&si, 0, sizeof(si));
	si.si_signo = LINUX_SIGSTOP;
	si.si_code = LINUX_SI_KERNEL;
	signal_queue_thread(child, LINUX_SIGSTOP, &si);
}

static void hwbp_sync(struct task *c);

void ptrace_exec(struct task *t, int old_tid)
{
	struct linux_siginfo si;

	/* The new program starts with no hardware breakpoint, as Linux's
	 * (flush_ptrace_hw_breakpoint), traced or not: a thread kept for it
	 * (mm_create_recycled) still has a tracer's, a new one has none. */
	if (t->pt.debugregs) {
		if (platform->debugreg_clear && t->thread)
			platform->debugreg_clear(t->thread);
		memset(t->pt.debugreg, 0, sizeof(t->pt.debugreg));
		t->pt.dr_registered = t->pt.dr_enabled = 0;
		t->pt.dr7_inherited = false;
		t->pt.debugregs = false;
		hwbp_sync(t);
	}
	if (!t->pt.tracer)
		return;
	t->pt.tf_set = false; /* the new registers have no TF */
	if (t->pt.opts & LINUX_PTRACE_O_TRACEEXEC) {
		ptrace_event(t, LINUX_PTRACE_EVENT_EXEC, (uint64_t)old_tid);
		return;
	}
	if (t->pt.seized)
		return;
	memset(&si, 0, sizeof(si));
	si.si_signo = LINUX_SIGTRAP;
	si.si_code = LINUX_SI_USER;
	si.fields.kill.pid = pid_vnr(t, t->proc->pid);
	si.fields.kill.uid = from_kuid_munged(cred_user_ns(&t->proc->cred), t->proc->cred.uid);
	signal_queue_thread(t, LINUX_SIGTRAP, &si);
}

void ptrace_task_exit(struct task *t, int status)
{
	struct process *p = t->proc;
	struct ptrace_exit *e, *en;
	struct task *c, *n;
	struct task *tracer = t->pt.tracer;

	/* Its tracees go free (Linux's exit_ptrace); EXITKILL kills them. */
	list_for_each_entry_safe(c, n, &t->pt.tracees, pt.link)
	{
		if (c->pt.opts & LINUX_PTRACE_O_EXITKILL)
			process_kill(c->proc, LINUX_SIGKILL);
		pt_unlink(c, 0);
	}
	list_for_each_entry_safe(e, en, &t->pt.exits, link) exit_record_free(e, false);
	if (!tracer)
		return;
	pt_unlink(t, 0);
	/* The parent that waits for the process hears of it as ever, once,
	 * when the whole process is gone: a leader traced by its parent
	 * leaves no record of its own, even with other threads still running
	 * (Linux's delay_group_leader; a record would report the process
	 * dead before its threads, with none of their times, and again at
	 * the reap). The old leader an exec by another thread kills goes
	 * silently (Linux releases it so): its record would tell the tracer
	 * the process had exited, under the pid the exec takes. Other
	 * threads it kills die as of an exit 0 (Linux's do_group_exit for
	 * group_exec_task). */
	if ((t->tid == p->pid && p->parent == tracer->proc) ||
	    (p->exec_waiter && p->exec_waiter != t && t->tid == p->pid))
		return;
	if (t->pt.exec_killed && !p->exiting)
		status = 0;
	e = calloc(1, sizeof(*e));
	if (!e)
		return;
	e->pid = t->tid;
	e->pgid = p->pgid;
	pid_pin(e->pid);
	pid_pin(e->pgid);
	e->uid = p->cred.uid;
	e->status = status;
	e->tracer = tracer;
	list_add_tail(&e->link, &tracer->pt.exits);
	/* A leader traced by another: its record waits for the process's
	 * end (ptrace_process_gone tells the tracer then). */
	if (t->tid == p->pid) {
		e->leader = p;
		p->tracer_exit = e;
		return;
	}
	e->pids = cgroup_pids_hold(p);
	t->pids_held = true;
	notify_tracer_exit(tracer->proc, e->pid, e->uid, status);
}

bool ptrace_traced_by(const struct process *p, const struct process *tracer)
{
	const struct task *o;

	list_for_each_entry(o, &p->threads, thread_link)
	{
		if (o->pt.tracer && (!tracer || o->pt.tracer->proc == tracer))
			return true;
	}
	return false;
}

static bool pt_matches(int which, int id, int pid, int pgid, const struct process *me)
{
	switch (which) {
	case LINUX_P_PID:
		return pid == id;
	case LINUX_P_PGID:
		return pgid == (id ? id : me->pgid);
	default:
		return true;
	}
}

/* One tracer thread's tracees and their deaths. */
static int wait_thread(struct task *o, int which, int id, int options, struct ptrace_wait *res)
{
	struct process *me = o->proc;
	struct ptrace_exit *e;
	struct task *c;
	int any = -1;

	list_for_each_entry(e, &o->pt.exits, link)
	{
		if (!pt_matches(which, id, e->pid, e->pgid, me))
			continue;
		any = 0;
		if (!(options & LINUX_WEXITED) || (e->leader && !e->leader->zombie))
			continue;
		res->pid = e->pid;
		res->uid = e->uid;
		exit_status(e->status, res);
		if (!(options & LINUX_WNOWAIT))
			exit_record_free(e, true);
		return 1;
	}
	list_for_each_entry(c, &o->pt.tracees, pt.link)
	{
		if (!pt_matches(which, id, c->tid, c->proc->pgid, me))
			continue;
		any = 0;
		/* Reported whatever WSTOPPED says, as Linux's ptrace waits. */
		if (!c->pt.stopped || c->pt.reported || !c->pt.code)
			continue;
		res->pid = c->tid;
		res->uid = c->proc->cred.uid;
		res->status = (c->pt.code << 8) | 0x7f;
		res->code = LINUX_CLD_TRAPPED;
		res->si_status = c->pt.code;
		if (!(options & LINUX_WNOWAIT))
			c->pt.reported = true;
		return 1;
	}
	return any;
}

int ptrace_wait(struct task *me, int which, int id, int options, struct ptrace_wait *res)
{
	struct task *o;
	int any = -1, r;

	/* __WNOTHREAD: only the tracees of the calling thread. */
	if (options & LINUX_WNOTHREAD)
		return wait_thread(me, which, id, options, res);
	list_for_each_entry(o, &me->proc->threads, thread_link)
	{
		r = wait_thread(o, which, id, options, res);
		if (r == 1)
			return 1;
		if (r == 0)
			any = 0;
	}
	return any;
}

int ptrace_tracer_pid(const struct task *t)
{
	return t && t->pt.tracer ? t->pt.tracer->proc->pid : 0;
}

/* The requests */

static long pt_traceme(struct task *t)
{
	struct process *parent = t->proc->parent;
	struct task *tracer;

	if (t->pt.tracer || !parent || list_empty(&parent->threads))
		return -EPERM;
	/* The parent thread that forked it (Linux's real_parent). */
	tracer = task_by_tid(t->proc->parent_tid);
	if (!tracer || tracer->proc != parent)
		tracer = list_first_entry(&parent->threads, struct task, thread_link);
	pt_link(t, tracer);
	return 0;
}

static long pt_attach(struct task *t, struct task *c, bool seize, uint64_t addr, uint64_t data)
{
	if (seize && (addr || (data & ~(uint64_t)LINUX_PTRACE_O_MASK)))
		return -EIO;
	if (c->proc == t->proc)
		return -EPERM;
	if (!cred_ptrace_may_access(&t->proc->cred, c->proc, true))
		return -EPERM;
	/* !c->thread: past task_exit's release (a namespace's init waiting
	 * for its namespace to empty) */
	if (c->pt.tracer || c->killed || c->proc->exiting || c->state == TASK_DEAD || !c->thread)
		return -EPERM;
	pt_link(c, t);
	c->pt.seized = seize;
	c->pt.opts = seize ? (unsigned)data : 0;
	if (!seize) {
		struct linux_siginfo si;

		memset(&si, 0, sizeof(si));
		si.si_signo = LINUX_SIGSTOP;
		si.si_code = LINUX_SI_KERNEL;
		send_signal_info(c->proc, c, LINUX_SIGSTOP, &si);
	}
	/* Already in a group stop: it traps at once (a parked task wakes). */
	if (c->proc->stopped) {
		c->pt.trap_pending = true;
		c->pt.group_done = false;
		if (c->stop_parked)
			sched_wake(c);
	}
	return 0;
}

static long pt_resume(struct task *c, long request, uint64_t data)
{
	if (data > LINUX_NSIG)
		return -EIO;
	c->pt.sys_trace = request == LINUX_PTRACE_SYSCALL;
	c->pt.sysemu = request == LINUX_PTRACE_SYSEMU || request == LINUX_PTRACE_SYSEMU_SINGLESTEP;
	c->pt.step =
		request == LINUX_PTRACE_SINGLESTEP || request == LINUX_PTRACE_SYSEMU_SINGLESTEP;
	c->pt.resume_sig = (int)data;
	c->pt.stopped = false;
	sched_wake(c);
	return 0;
}

/* The tracee's registers as the tracer sees them: without the TF the
 * kernel set for a step (Linux's TIF_FORCED_TF). */
static int pt_getregs(struct task *c, struct pf_regs *r)
{
	if (!c->thread || platform->get_regs(c->thread, r) < 0)
		return -ESRCH;
	if (c->pt.tf_set)
		r->eflags &= ~EFLAGS_TF;
	/* An interrupted call awaits its restart or EINTR (signal.c's
	 * finish_restart, which then reads what the tracer left): Linux
	 * shows its -ERESTART* code in rax meanwhile. */
	if (c->restart_ret && (int64_t)r->orig_rax >= 0 && r->rax == (uint64_t)-EINTR)
		r->rax = (uint64_t)c->restart_ret;
	return 0;
}

/* Linux's putreg checks: bad selectors and bases are EIO. Differs from
 * Linux: cs and ss stay the 64-bit user segments, ds/es/fs/gs keep their
 * values. */
static int pt_setregs(struct task *c, const struct pf_regs *in)
{
	struct pf_regs r, old;

	if (pt_getregs(c, &old) < 0)
		return -ESRCH;
	r = *in;
	if ((r.cs | 3) != USER_CS || (r.ss | 3) != USER_DS || r.fs_base >= TASK_SIZE ||
	    r.gs_base >= TASK_SIZE)
		return -EIO;
	r.cs = old.cs, r.ss = old.ss;
	r.ds = old.ds, r.es = old.es, r.fs = old.fs, r.gs = old.gs;
	r.eflags = (old.eflags & ~EFLAGS_USER) | (r.eflags & EFLAGS_USER);
	/* A TF the tracer sets is its own: no longer the step's to clear;
	 * one it leaves out while stepping is set again at the resume. */
	if (c->pt.tf_set && (r.eflags & EFLAGS_TF))
		c->pt.tf_set = false;
	else if (c->pt.tf_set)
		r.eflags |= EFLAGS_TF;
	c->pt.regs_set = true;
	/* -EINTR written while a restart is due is the tracer's own answer
	 * (the platform's rax holds -EINTR then: pt_getregs) */
	c->pt.rax_eintr = c->restart_ret && r.rax == (uint64_t)-EINTR;
	return platform->set_regs(c->thread, &r) < 0 ? -ESRCH : 0;
}

#define DEBUGREG_END (LINUX_USER_DEBUGREG_OFF + 64)
#define DR6_RESERVED 0xffff0ff0UL /* what a new thread's DR6 reads */

/*
 * The debug registers are the host thread's own (platform debugreg): the
 * host arms them and checks what is written as Linux does, and a hit is
 * the thread's SIGTRAP. Where the platform has none (the sigsys backend:
 * its threads are not traced), they are kept as Linux's ptrace keeps them,
 * with its checks, and each change is handed to the platform's hwbp_arm
 * (sigsys: a host perf event per breakpoint), whose hit sets DR6 here.
 * Where the host cannot arm them (no perf events for this user, or older
 * than Linux 5.13) they are kept but never fire: differs from Linux.
 */

/* Linux's checks of one breakpoint (x86 arch_build_bp_info,
 * hw_breakpoint_arch_parse): lt is its 4 bits of DR7, length above type. */
static int dr_check(uint64_t addr, unsigned lt)
{
	static const uint64_t bytes[] = { 1, 2, 8, 4 };
	uint64_t len = bytes[lt >> 2];

	if ((lt & 3) == 2 || ((lt & 3) == 0 && lt != 0)) /* I/O; a long exec */
		return -EINVAL;
	if ((addr & (len - 1)) || addr >= TASK_SIZE || addr + len - 1 >= TASK_SIZE)
		return -EINVAL;
	return 0;
}

/* A write to DR7 (Linux's ptrace_write_dr7): each breakpoint enabled, or
 * registered before, takes its new length and type; if one is refused,
 * those before it are put back, the newly registered ones as a disabled
 * byte-long exec breakpoint (what the old DR7 says of them). */
static int dr7_write(struct task *c, uint64_t v)
{
	unsigned lt[4];
	int i, j;

	for (i = 0; i < 4; i++) {
		lt[i] = (unsigned)(v >> (16 + 4 * i)) & 0xf;
		if (!(c->pt.dr_registered & (1u << i)) && !((v >> (2 * i)) & 3))
			continue;
		if (dr_check(c->pt.debugreg[i], lt[i]) == 0)
			continue;
		for (j = 0; j < i; j++)
			if (!(c->pt.dr_registered & (1u << j)) && ((v >> (2 * j)) & 3)) {
				c->pt.dr_registered |= 1u << j;
				c->pt.dr_lt[j] = 0;
			}
		return -EINVAL;
	}
	for (i = 0; i < 4; i++)
		if ((c->pt.dr_registered & (1u << i)) || ((v >> (2 * i)) & 3)) {
			c->pt.dr_registered |= 1u << i;
			c->pt.dr_lt[i] = (uint8_t)lt[i];
			if ((v >> (2 * i)) & 3)
				c->pt.dr_enabled |= 1u << i;
			else
				c->pt.dr_enabled &= ~(1u << i);
		}
	c->pt.debugreg[7] = v;
	return 0;
}

static int debugreg_get(struct task *c, int dr, uint64_t *v)
{
	if (platform->debugreg && dr == 7 && c->pt.dr7_inherited) {
		*v = c->pt.debugreg[7];
		return 0;
	}
	if (platform->debugreg)
		return c->thread ? platform->debugreg(c->thread, dr, v, false) : -ESRCH;
	if (dr < 4)
		*v = (c->pt.dr_registered & (1u << dr)) ? c->pt.debugreg[dr] : 0;
	else if (dr == 6)
		*v = c->pt.debugreg[6] ^ DR6_RESERVED;
	else
		*v = dr == 7 ? c->pt.debugreg[7] : 0;
	return 0;
}

void ptrace_debugregs_fork(struct task *c, struct task *t)
{
	uint64_t v = 0;

	if (!t->pt.debugregs && !t->pt.dr7_inherited)
		return;
	if (debugreg_get(t, 7, &v) < 0 || v == 0)
		return;
	c->pt.debugregs = true;
	c->pt.debugreg[7] = v;
	c->pt.dr7_inherited = platform->debugreg != NULL;
}

/* The platform's breakpoints as c's kept debug registers now say: each
 * registered one the last DR7 write enabled. Where the platform cannot
 * arm them, they are kept and never fire (it says so in the log). */
static void hwbp_sync(struct task *c)
{
	if (platform->hwbp_arm && c->thread)
		platform->hwbp_arm(c->thread, c->pt.dr_registered & c->pt.dr_enabled,
				   c->pt.debugreg, c->pt.dr_lt);
}

void ptrace_hwbp_hit(struct task *t, unsigned dr6)
{
	/* Linux's virtual DR6: the hit's bits alone (exc_debug_user
	 * starts it afresh, ptrace_triggered adds the breakpoint's). */
	if (!platform->debugreg)
		t->pt.debugreg[6] = dr6;
}

static int debugreg_set(struct task *c, int dr, uint64_t v)
{
	int ret;

	c->pt.debugregs = true;
	if (platform->debugreg) {
		if (!c->thread)
			return -ESRCH;
		ret = platform->debugreg(c->thread, dr, &v, true);
		if (ret == 0 && dr == 7)
			c->pt.dr7_inherited = false;
		return ret;
	}
	if (dr < 4) {
		/* A new one is registered as a disabled byte-long write one. */
		ret = dr_check(v, (c->pt.dr_registered & (1u << dr)) ? c->pt.dr_lt[dr] : 1);
		if (ret < 0)
			return ret;
		if (!(c->pt.dr_registered & (1u << dr))) {
			c->pt.dr_lt[dr] = 1;
			c->pt.dr_enabled &= ~(1u << dr);
		}
		c->pt.dr_registered |= 1u << dr;
		c->pt.debugreg[dr] = v;
		hwbp_sync(c);
		return 0;
	}
	if (dr == 6) {
		c->pt.debugreg[6] = v ^ DR6_RESERVED;
		return 0;
	}
	if (dr != 7)
		return -EIO;
	ret = dr7_write(c, v);
	if (ret == 0)
		hwbp_sync(c);
	return ret;
}

static long pt_peekuser(struct task *t, struct task *c, uint64_t off, uaddr_t data)
{
	struct pf_regs r;
	uint64_t v = 0;
	int ret;

	if ((off & 7) || off >= LINUX_USER_SIZE)
		return -EIO;
	if (off < LINUX_USER_REGS_SIZE) {
		if (pt_getregs(c, &r) < 0)
			return -ESRCH;
		memcpy(&v, (char *)&r + off, 8);
	} else if (off >= LINUX_USER_DEBUGREG_OFF && off < DEBUGREG_END) {
		ret = debugreg_get(c, (int)(off - LINUX_USER_DEBUGREG_OFF) / 8, &v);
		if (ret < 0)
			return ret;
	}
	return copy_to_user(t->mm, data, &v, 8) < 0 ? -EFAULT : 0;
}

/* The rest of struct user past the registers is ignored. */
static long pt_pokeuser(struct task *c, uint64_t off, uint64_t v)
{
	struct pf_regs r;

	if ((off & 7) || off >= LINUX_USER_SIZE)
		return -EIO;
	if (off >= LINUX_USER_DEBUGREG_OFF && off < DEBUGREG_END)
		return debugreg_set(c, (int)(off - LINUX_USER_DEBUGREG_OFF) / 8, v);
	if (off >= LINUX_USER_REGS_SIZE)
		return 0;
	if (pt_getregs(c, &r) < 0)
		return -ESRCH;
	memcpy((char *)&r + off, &v, 8);
	return pt_setregs(c, &r);
}

static long pt_peekdata(struct task *t, struct task *c, uaddr_t addr, uaddr_t data)
{
	uint64_t v;

	if (!c->mm || copy_from_user(c->mm, &v, addr, 8) < 0)
		return -EIO;
	return copy_to_user(t->mm, data, &v, 8) < 0 ? -EFAULT : 0;
}

static long pt_pokedata(struct task *c, uaddr_t addr, uint64_t v)
{
	if (!c->mm)
		return -EIO;
	return mm_write_force(c->mm, addr, &v, 8) < 0 ? -EIO : 0;
}

static long pt_syscall_info(struct task *t, struct task *c, uint64_t size, uaddr_t data)
{
	struct linux_ptrace_syscall_info info;
	struct pf_regs r;
	size_t n = offsetof(struct linux_ptrace_syscall_info, entry);

	if (pt_getregs(c, &r) < 0)
		return -ESRCH;
	memset(&info, 0, sizeof(info));
	info.arch = LINUX_AUDIT_ARCH_X86_64;
	info.instruction_pointer = r.rip;
	info.stack_pointer = r.rsp;
	if (c->pt.has_si &&
	    c->pt.si.si_code == (LINUX_SIGTRAP | (LINUX_PTRACE_EVENT_SECCOMP << 8))) {
		/* The entry's fields, and the filter's data (the message). */
		info.op = LINUX_PTRACE_SYSCALL_INFO_SECCOMP;
		info.seccomp.nr = r.orig_rax;
		info.seccomp.args[0] = r.rdi, info.seccomp.args[1] = r.rsi;
		info.seccomp.args[2] = r.rdx, info.seccomp.args[3] = r.r10;
		info.seccomp.args[4] = r.r8, info.seccomp.args[5] = r.r9;
		info.seccomp.ret_data = (uint32_t)c->pt.msg;
		n = offsetof(struct linux_ptrace_syscall_info, seccomp.ret_data) + 4;
	} else if (c->pt.has_si && c->pt.si.si_code == (LINUX_SIGTRAP | 0x80)) {
		if (c->pt.msg == EVENTMSG_SYSCALL_ENTRY) {
			info.op = LINUX_PTRACE_SYSCALL_INFO_ENTRY;
			info.entry.nr = r.orig_rax;
			info.entry.args[0] = r.rdi, info.entry.args[1] = r.rsi;
			info.entry.args[2] = r.rdx, info.entry.args[3] = r.r10;
			info.entry.args[4] = r.r8, info.entry.args[5] = r.r9;
			n += sizeof(info.entry);
		} else if (c->pt.msg == EVENTMSG_SYSCALL_EXIT) {
			info.op = LINUX_PTRACE_SYSCALL_INFO_EXIT;
			info.exit.rval = (int64_t)r.rax;
			info.exit.is_error = r.rax >= (uint64_t)-4095;
			n = offsetof(struct linux_ptrace_syscall_info, exit.is_error) + 1;
		}
	}
	if (copy_to_user(t->mm, data, &info, size < n ? size : n) < 0)
		return -EFAULT;
	return (long)n;
}

#define FXSAVE_SIZE  512
#define XSTATE_MAX   16384
#define XSAVE_HDR    512 /* the XSAVE header: xstate_bv, xcomp_bv, 48 reserved */
#define SW_BYTES     464 /* ptrace's view: the XCR0 there, then zeros */
#define XFEATURES_FP 0x7 /* x87, SSE, AVX: those that need MXCSR valid */

/* The tracee's FPU state in ptrace's XSAVE view: its size (512: FXSAVE
 * only) or -ESRCH. */
static long pt_fpu(struct task *c, char *buf)
{
	long size;

	if (!c->thread)
		return -ESRCH;
	size = platform->fpu_get(c->thread, buf, XSTATE_MAX);
	return size < FXSAVE_SIZE ? -ESRCH : size;
}

static long pt_getfpregs(struct task *t, struct task *c, uaddr_t data, size_t n)
{
	static char buf[XSTATE_MAX] __attribute__((aligned(64)));

	if (pt_fpu(c, buf) < 0)
		return -ESRCH;
	return copy_to_user(t->mm, data, buf, n < FXSAVE_SIZE ? n : FXSAVE_SIZE) < 0 ? -EFAULT : 0;
}

static long pt_setfpregs(struct task *t, struct task *c, uaddr_t data)
{
	static char buf[XSTATE_MAX] __attribute__((aligned(64)));
	long size = pt_fpu(c, buf);

	if (size < 0)
		return size;
	if (copy_from_user(t->mm, buf, data, FXSAVE_SIZE) < 0)
		return -EFAULT;
	return platform->fpu_set(c->thread, buf, (size_t)size) < 0 ? -EINVAL : 0;
}

/* NT_X86_XSTATE, n bytes of it (the iovec's length, clamped to the
 * area's size): GETREGSET copies that much; SETREGSET takes only the
 * whole area (EFAULT, as Linux's xstateregs_set) and checks it as
 * Linux's copy_uabi_to_xstate: no feature XCR0 lacks, the standard
 * format (xcomp_bv 0), the reserved header bytes zero, no MXCSR bit
 * outside the CPU's mask. A component left out of xstate_bv goes to its
 * init state (the host's XRSTOR). *n becomes what was copied. */
static long pt_xstate(struct task *t, struct task *c, bool set, uaddr_t data, size_t *n)
{
	static char cur[XSTATE_MAX] __attribute__((aligned(64)));
	static char in[XSTATE_MAX] __attribute__((aligned(64)));
	uint64_t xcr0, bv;
	uint32_t mxcsr;
	long size = pt_fpu(c, cur);

	if (size < 0)
		return size;
	if (size == FXSAVE_SIZE)
		return -ENODEV; /* no XSAVE: Linux's regset is empty then */
	if (*n > (size_t)size)
		*n = (size_t)size;
	if (!set)
		return copy_to_user(t->mm, data, cur, *n) < 0 ? -EFAULT : 0;
	if (*n != (size_t)size || copy_from_user(t->mm, in, data, *n) < 0)
		return -EFAULT;
	memcpy(&xcr0, cur + SW_BYTES, sizeof(xcr0));
	if (!xsave_header_ok(in, xcr0))
		return -EINVAL;
	memcpy(&bv, in + XSAVE_HDR, sizeof(bv));
	memcpy(&mxcsr, in + 24, sizeof(mxcsr));
	if ((bv & XFEATURES_FP) && (mxcsr & ~fpu_mxcsr_mask(cur)))
		return -EINVAL;
	/* The software bytes are not the tracer's to set (Linux ignores
	 * them): the platform's own go back. */
	memcpy(in + SW_BYTES, cur + SW_BYTES, XSAVE_HDR - SW_BYTES);
	return platform->fpu_set(c->thread, in, (size_t)size) < 0 ? -EINVAL : 0;
}

/* GETREGSET/SETREGSET: NT_PRSTATUS (the general registers), NT_PRFPREG
 * (FXSAVE) and NT_X86_XSTATE; others are EINVAL, as is a length that is
 * no multiple of 8 (their element size, Linux's ptrace_regset). The
 * iovec's length becomes what was copied. */
static long pt_regset(struct task *t, struct task *c, bool set, uint64_t type, uaddr_t uiov)
{
	struct {
		uint64_t base, len;
	} iov;
	struct pf_regs r;
	size_t n;
	long ret;

	if (copy_from_user(t->mm, &iov, uiov, sizeof(iov)) < 0)
		return -EFAULT;
	if (iov.len % 8)
		return -EINVAL;
	if (type == LINUX_NT_PRFPREG) {
		n = iov.len < FXSAVE_SIZE ? iov.len : FXSAVE_SIZE;
		if (set && n < FXSAVE_SIZE)
			return -EINVAL;
		ret = set ? pt_setfpregs(t, c, iov.base) : pt_getfpregs(t, c, iov.base, n);
	} else if (type == LINUX_NT_X86_XSTATE) {
		n = iov.len < XSTATE_MAX ? iov.len : XSTATE_MAX;
		ret = pt_xstate(t, c, set, iov.base, &n);
	} else if (type == LINUX_NT_PRSTATUS) {
		n = iov.len < sizeof(r) ? iov.len : sizeof(r);
		if (pt_getregs(c, &r) < 0)
			return -ESRCH;
		if (!set)
			ret = copy_to_user(t->mm, iov.base, &r, n) < 0 ? -EFAULT : 0;
		else if (copy_from_user(t->mm, &r, iov.base, n) < 0)
			ret = -EFAULT;
		else
			ret = pt_setregs(c, &r);
	} else {
		return -EINVAL;
	}
	if (ret < 0)
		return ret;
	iov.len = n;
	return copy_to_user(t->mm, uiov + 8, &iov.len, 8) < 0 ? -EFAULT : 0;
}

/* GETSIGMASK/SETSIGMASK: the mask a sigsuspend will restore, if in one
 * (Linux's saved_sigmask); addr is the set's size. */
static long pt_sigmask(struct task *t, struct task *c, bool set, uint64_t size, uaddr_t data)
{
	uint64_t mask;

	if (size != sizeof(mask))
		return -EINVAL;
	if (!set) {
		mask = c->restore_sigmask ? c->saved_sigmask : c->sigmask;
		return copy_to_user(t->mm, data, &mask, sizeof(mask)) < 0 ? -EFAULT : 0;
	}
	if (copy_from_user(t->mm, &mask, data, sizeof(mask)) < 0)
		return -EFAULT;
	c->sigmask = mask & ~(SIGBIT(LINUX_SIGKILL) | SIGBIT(LINUX_SIGSTOP));
	c->restore_sigmask = false;
	return 0;
}

/* PTRACE_ARCH_PRCTL: arch_prctl(code, addr) for the tracee, FS and GS
 * bases only (the CPUID ones are EINVAL here). */
static long pt_arch_prctl(struct task *t, struct task *c, uint64_t addr, uint64_t code)
{
	struct pf_regs r;
	uint64_t v;
	int ret;

	if (pt_getregs(c, &r) < 0)
		return -ESRCH;
	ret = arch_prctl_fsgs(&r, code > INT32_MAX ? -1 : (int)code, addr, &v);
	if (ret == 1)
		return copy_to_user(t->mm, addr, &v, sizeof(v)) < 0 ? -EFAULT : 0;
	if (ret == 0)
		return platform->set_regs(c->thread, &r) < 0 ? -ESRCH : 0;
	return ret;
}

/* The requests that need a tracee stopped for us (ptrace_check_attach). */
static long pt_stopped_request(struct task *t, struct task *c, long req, uint64_t addr,
			       uint64_t data)
{
	struct pf_regs r;

	switch (req) {
	case LINUX_PTRACE_PEEKTEXT:
	case LINUX_PTRACE_PEEKDATA:
		return pt_peekdata(t, c, addr, data);
	case LINUX_PTRACE_POKETEXT:
	case LINUX_PTRACE_POKEDATA:
		return pt_pokedata(c, addr, data);
	case LINUX_PTRACE_PEEKUSR:
		return pt_peekuser(t, c, addr, data);
	case LINUX_PTRACE_POKEUSR:
		return pt_pokeuser(c, addr, data);
	case LINUX_PTRACE_CONT:
	case LINUX_PTRACE_SYSCALL:
	case LINUX_PTRACE_SINGLESTEP:
	case LINUX_PTRACE_SYSEMU:
	case LINUX_PTRACE_SYSEMU_SINGLESTEP:
		return pt_resume(c, req, data);
	case LINUX_PTRACE_DETACH:
		if (data > LINUX_NSIG)
			return -EIO;
		pt_unlink(c, (int)data);
		return 0;
	case LINUX_PTRACE_GETREGS:
		if (pt_getregs(c, &r) < 0)
			return -ESRCH;
		return copy_to_user(t->mm, data, &r, sizeof(r)) < 0 ? -EFAULT : 0;
	case LINUX_PTRACE_SETREGS:
		if (copy_from_user(t->mm, &r, data, sizeof(r)) < 0)
			return -EFAULT;
		return pt_setregs(c, &r);
	case LINUX_PTRACE_GETFPREGS:
		return pt_getfpregs(t, c, data, FXSAVE_SIZE);
	case LINUX_PTRACE_SETFPREGS:
		return pt_setfpregs(t, c, data);
	case LINUX_PTRACE_GETREGSET:
	case LINUX_PTRACE_SETREGSET:
		return pt_regset(t, c, req == LINUX_PTRACE_SETREGSET, addr, data);
	case LINUX_PTRACE_SETOPTIONS:
		if (data & ~(uint64_t)LINUX_PTRACE_O_MASK)
			return -EINVAL;
		c->pt.opts = (unsigned)data;
		return 0;
	case LINUX_PTRACE_GETEVENTMSG:
		return copy_to_user(t->mm, data, &c->pt.msg, 8) < 0 ? -EFAULT : 0;
	case LINUX_PTRACE_GETSIGINFO:
		if (!c->pt.has_si)
			return -EINVAL;
		return copy_to_user(t->mm, data, &c->pt.si, sizeof(c->pt.si)) < 0 ? -EFAULT : 0;
	case LINUX_PTRACE_SETSIGINFO:
		if (!c->pt.has_si)
			return -EINVAL;
		return copy_from_user(t->mm, &c->pt.si, data, sizeof(c->pt.si)) < 0 ? -EFAULT : 0;
	case LINUX_PTRACE_LISTEN:
		if (!c->pt.seized || !c->pt.has_si ||
		    (c->pt.si.si_code >> 8) != LINUX_PTRACE_EVENT_STOP)
			return -EIO;
		c->pt.listening = true;
		return pt_resume(c, LINUX_PTRACE_CONT, 0);
	case LINUX_PTRACE_GET_SYSCALL_INFO:
		return pt_syscall_info(t, c, addr, data);
	case LINUX_PTRACE_GETSIGMASK:
	case LINUX_PTRACE_SETSIGMASK:
		return pt_sigmask(t, c, req == LINUX_PTRACE_SETSIGMASK, addr, data);
	case LINUX_PTRACE_ARCH_PRCTL:
		return pt_arch_prctl(t, c, addr, data);
	default:
		/* Not implemented (EIO, as Linux for an unknown request):
		 * SINGLEBLOCK, the 32-bit
		 * GETFPXREGS/SETFPXREGS, PEEKSIGINFO,
		 * SECCOMP_GET_FILTER/METADATA, GET_THREAD_AREA/SET_THREAD_AREA,
		 * GET_RSEQ_CONFIGURATION,
		 * SET/GET_SYSCALL_USER_DISPATCH_CONFIG. */
		return -EIO;
	}
}

/* ptrace(2) */
long sys_ptrace(struct task *t, const struct sysargs *a)
{
	long req = sysarg_long(a, 0);
	int pid = sysarg_int(a, 1);
	uint64_t addr = a->a[2], data = a->a[3];
	struct task *c;

	if (req == LINUX_PTRACE_TRACEME)
		return pt_traceme(t);
	c = pid > 0 ? task_by_vtid(t, pid) : NULL;
	if (req == LINUX_PTRACE_ATTACH || req == LINUX_PTRACE_SEIZE) {
		/* Linux looks the task up first (ESRCH), then SEIZE's flags */
		if ((!c || c->state == TASK_DEAD) && !process_by_vpid(t, pid))
			return -ESRCH;
		if (req == LINUX_PTRACE_SEIZE && (addr || (data & ~(uint64_t)LINUX_PTRACE_O_MASK)))
			return -EIO;
		/* A zombie (or a process whose leader has ended) is there
		 * but cannot be traced: EPERM, as Linux's exit_state check. */
		if ((!c || c->state == TASK_DEAD) && process_by_vpid(t, pid))
			return -EPERM;
	}
	if (!c || c->state == TASK_DEAD)
		return -ESRCH;
	if (req == LINUX_PTRACE_ATTACH || req == LINUX_PTRACE_SEIZE)
		return pt_attach(t, c, req == LINUX_PTRACE_SEIZE, addr, data);
	/* Traced by this very thread, and stopped unless KILL or INTERRUPT. */
	if (c->pt.tracer != t)
		return -ESRCH;
	if (req == LINUX_PTRACE_KILL) {
		process_kill(c->proc, LINUX_SIGKILL);
		return 0;
	}
	if (req == LINUX_PTRACE_INTERRUPT) {
		if (!c->pt.seized || addr || data)
			return -EIO;
		c->pt.trap_pending = true;
		if (c->pt.stopped)
			return 0; /* traps once resumed */
		if (c->stop_parked)
			sched_wake(c);
		else
			task_kick(c);
		return 0;
	}
	if (!c->pt.stopped)
		return -ESRCH;
	return pt_stopped_request(t, c, req, addr, data);
}
