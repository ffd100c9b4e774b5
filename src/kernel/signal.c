/* kernel/signal.c: sending and delivering signals. A signal is pending on
 * a thread or on its process: a standard signal once, a real-time signal
 * once per instance sent (FIFO, up to RLIMIT_SIGPENDING per process). Before
 * a task returns to the guest the lowest pending unblocked signal is taken:
 * its default action (terminate, core, ignore, stop) or an rt_sigframe on
 * the guest stack, laid out as Linux does, with the FPU/XSAVE state.
 * rt_sigreturn checks what the guest hands back. Job control: a stop signal
 * stops every thread of the process (each sleeps in handle_signals) until a
 * SIGCONT or SIGKILL; the parent hears of both (SIGCHLD, wait).
 * The parent is told of a stop once every thread has stopped; SIGTSTP,
 * SIGTTIN and SIGTTOU at their default action are discarded in an
 * orphaned process group (SIGSTOP is not). The instance's init has no
 * parent inside, so its own group is orphaned, as a container's is: a
 * shell's jobs in groups of their own are not. */
#include <stdlib.h>
#include <string.h>

#include "kernel/task.h"
#include "kernel/cgroup.h"
#include "kernel/userns.h"
#include "kernel/pidns.h"
#include "kernel/coredump.h"
#include "kernel/log.h"
#include "kernel/ptimer.h"
#include "syscalls/dispatch.h"
#include "mm/usercopy.h"
#include "stub/stub.h"
#include "abi/linux/errno.h"
#include "abi/linux/signal.h"
#include "abi/linux/ptrace.h"

#define SIGBIT(sig) (1ULL << ((sig)-1))
#define UNBLOCKABLE (SIGBIT(LINUX_SIGKILL) | SIGBIT(LINUX_SIGSTOP))
#define STOP_MASK                                                                \
	(SIGBIT(LINUX_SIGSTOP) | SIGBIT(LINUX_SIGTSTP) | SIGBIT(LINUX_SIGTTIN) | \
	 SIGBIT(LINUX_SIGTTOU))
/* Faults are taken before other signals, as Linux does. */
#define SYNCHRONOUS_MASK                                                       \
	(SIGBIT(LINUX_SIGSEGV) | SIGBIT(LINUX_SIGBUS) | SIGBIT(LINUX_SIGILL) | \
	 SIGBIT(LINUX_SIGTRAP) | SIGBIT(LINUX_SIGFPE) | SIGBIT(LINUX_SIGSYS))
#define SIGQUEUE_MAX	 65536 /* queued real-time signals per process, at most */
#define FPU_AREA_MAX	 16384
#define FIX_EFLAGS	 0x50dd5UL /* AC OF DF TF SF ZF AF PF CF RF */
#define USER_RSP_REDZONE 128

struct rt_sigframe {
	uint64_t pretcode;
	struct linux_ucontext uc;
	struct linux_siginfo info;
};
_Static_assert(offsetof(struct rt_sigframe, uc) == STUB_SIGFRAME_UC, "stub.S computes rdx");
_Static_assert(sizeof(struct rt_sigframe) == STUB_SIGFRAME_SIZE, "stub.S finds the handler");
_Static_assert(offsetof(struct rt_sigframe, info) == STUB_SIGFRAME_INFO, "stub.S computes rsi");
_Static_assert(STUB_SR_SIZE <= sizeof(struct rt_sigframe), "sigreturn's slots are in the frame");

/* One queued instance of a real-time signal. A queue is a circular list
 * reached by its last entry (NULL: empty), so adding is O(1) and the
 * first entry is last->next. */
struct sigqueue {
	struct sigqueue *next;
	int sig;
	struct linux_siginfo info;
};

/* The pending signals of a thread or of a process; owner counts the queued
 * instances against its RLIMIT_SIGPENDING. */
struct sigpending {
	struct process *owner;
	uint64_t *mask;
	struct linux_siginfo *info; /* standard signals: the one instance */
	struct sigqueue **last;	    /* real-time signals: every instance, FIFO */
};

static struct sigpending thread_pending(struct task *t)
{
	return (struct sigpending){ t->proc, &t->pending, t->siginfo, &t->rtqueue };
}

static struct sigpending process_pending(struct process *p)
{
	return (struct sigpending){ p, &p->pending, p->siginfo, &p->rtqueue };
}

static bool sig_default_ignored(int sig)
{
	return sig == LINUX_SIGCHLD || sig == LINUX_SIGURG || sig == LINUX_SIGWINCH ||
	       sig == LINUX_SIGCONT;
}

static bool sig_default_stops(int sig)
{
	return (SIGBIT(sig) & STOP_MASK) != 0;
}

static bool sig_default_core(int sig)
{
	switch (sig) {
	case LINUX_SIGQUIT:
	case LINUX_SIGILL:
	case LINUX_SIGTRAP:
	case LINUX_SIGABRT:
	case LINUX_SIGBUS:
	case LINUX_SIGFPE:
	case LINUX_SIGSEGV:
	case LINUX_SIGXCPU:
	case LINUX_SIGXFSZ:
	case LINUX_SIGSYS:
		return true;
	default:
		return false;
	}
}

/* Pending sets */

/* Adds one instance of sig. Past the queue limit a real-time signal is
 * -EAGAIN when the guest queued it (si_code < 0); from kill(2) or the
 * kernel it is pending without its siginfo, as in Linux.
 * Differs from Linux: the limit counts per process, not per user, and is
 * at most SIGQUEUE_MAX whatever RLIMIT_SIGPENDING says (kernel memory). */
static int sigpending_add(struct sigpending *sp, int sig, const struct linux_siginfo *info)
{
	uint64_t limit = sp->owner->rlim[LINUX_RLIMIT_SIGPENDING].rlim_cur;
	struct sigqueue *q = NULL, *last = *sp->last;

	if (sig < LINUX_SIGRTMIN) {
		if (!(*sp->mask & SIGBIT(sig)))
			sp->info[sig - 1] = *info;
		*sp->mask |= SIGBIT(sig);
		return 0;
	}
	if ((uint64_t)sp->owner->nqueued < limit && sp->owner->nqueued < SIGQUEUE_MAX)
		q = malloc(sizeof(*q));
	if (!q) {
		if (info->si_code < 0)
			return -EAGAIN;
		*sp->mask |= SIGBIT(sig);
		return 0;
	}
	q->sig = sig;
	q->info = *info;
	q->next = last ? last->next : q;
	if (last)
		last->next = q;
	*sp->last = q;
	sp->owner->nqueued++;
	*sp->mask |= SIGBIT(sig);
	return 0;
}

/* Unlinks q, which follows prev (prev == q: the only entry), and frees it. */
static void sigqueue_remove(struct sigpending *sp, struct sigqueue *prev, struct sigqueue *q)
{
	if (prev == q) {
		*sp->last = NULL;
	} else {
		prev->next = q->next;
		if (*sp->last == q)
			*sp->last = prev;
	}
	free(q);
	sp->owner->nqueued--;
}

/* The entry before the first instance of sig, or NULL if none. */
static struct sigqueue *sigqueue_find(struct sigpending *sp, int sig)
{
	struct sigqueue *last = *sp->last, *prev = last;

	if (!last)
		return NULL;
	do {
		if (prev->next->sig == sig)
			return prev;
		prev = prev->next;
	} while (prev != last);
	return NULL;
}

/* Takes the oldest instance of sig, which is pending in sp. */
static void sigpending_take(struct sigpending *sp, int sig, struct linux_siginfo *info)
{
	struct sigqueue *prev;

	if (sig < LINUX_SIGRTMIN) {
		*sp->mask &= ~SIGBIT(sig);
		*info = sp->info[sig - 1];
		return;
	}
	prev = sigqueue_find(sp, sig);
	if (!prev) {
		/* Sent past the queue limit: the siginfo was lost. */
		*sp->mask &= ~SIGBIT(sig);
		memset(info, 0, sizeof(*info));
		info->si_signo = sig;
		info->si_code = LINUX_SI_USER;
		return;
	}
	*info = prev->next->info;
	sigqueue_remove(sp, prev, prev->next);
	if (!sigqueue_find(sp, sig))
		*sp->mask &= ~SIGBIT(sig);
}

/* Throws away every instance of the signals in mask. */
static void sigpending_discard(struct sigpending *sp, uint64_t mask)
{
	struct sigqueue *prev, *q;
	struct linux_siginfo info;
	int sig;

	/* a POSIX timer's signal thrown away: its timer runs on */
	for (sig = 1; sig < LINUX_SIGRTMIN; sig++)
		if ((mask & *sp->mask & SIGBIT(sig)) && sp->info[sig - 1].si_code == LINUX_SI_TIMER)
			ptimer_discarded(sp->owner, &sp->info[sig - 1]);
	*sp->mask &= ~mask;
	for (sig = LINUX_SIGRTMIN; sig <= LINUX_NSIG; sig++) {
		if (!(mask & SIGBIT(sig)))
			continue;
		while ((prev = sigqueue_find(sp, sig))) {
			q = prev->next;
			info = q->info;
			sigqueue_remove(sp, prev, q);
			if (info.si_code == LINUX_SI_TIMER)
				ptimer_discarded(sp->owner, &info);
		}
	}
}

void signal_discard(struct process *p, uint64_t mask)
{
	struct sigpending sp = process_pending(p);
	struct task *t;

	sigpending_discard(&sp, mask);
	list_for_each_entry(t, &p->threads, thread_link)
	{
		sp = thread_pending(t);
		sigpending_discard(&sp, mask);
	}
}

void signal_flush_task(struct task *t)
{
	struct sigpending sp = thread_pending(t);

	sigpending_discard(&sp, ~0ULL);
}

void signal_flush_process(struct process *p)
{
	struct sigpending sp = process_pending(p);

	sigpending_discard(&sp, ~0ULL);
}

/* A traced thread its tracer let run on from its group-stop trap (as
 * Linux, it runs while the group stays stopped) is not interrupted by the
 * stop: its sleeps would end at once, for ever. */
bool signal_pending(struct task *t)
{
	return t->killed || (t->proc->stopped && !(t->pt.tracer && t->pt.group_done)) ||
	       t->pt.trap_pending || ((t->pending | t->proc->pending) & ~t->sigmask) ||
	       cgroup_task_freezing(t);
}

/* Is the signal thrown away at once? Ignored, or ignored by default, and
 * not blocked (a blocked signal stays: its action may change meanwhile).
 * A namespace's init (the instance's too) never gets SIGKILL or SIGSTOP
 * but forced (sig_forced: from the kernel, as a tracer's attach, or from
 * a namespace above), and gets other
 * signals only when it handles them (one sent to a thread of it is left
 * to handle_signals, which ignores all but faults). */
static bool sig_ignored(struct process *p, struct task *thread, int sig, bool force)
{
	const struct linux_sigaction *sa = &p->sigactions[sig - 1];
	bool init = process_is_ns_init(p) && !thread;
	struct task *t = thread;

	if (sig == LINUX_SIGKILL || sig == LINUX_SIGSTOP)
		return process_is_ns_init(p) && !force;
	if (!t && !list_empty(&p->threads))
		t = list_first_entry(&p->threads, struct task, thread_link);
	/* A tracer sees every signal, ignored ones too (Linux's sig_ignored). */
	if (t && t->pt.tracer)
		return false;
	if (t && (t->sigmask & SIGBIT(sig)))
		return false;
	if (sa->handler == LINUX_SIG_IGN)
		return true;
	return sa->handler == LINUX_SIG_DFL && (init || sig_default_ignored(sig));
}

/* Is a signal to p one a task sends from a pid namespace above p's,
 * where it has no number (Linux's send_signal_locked: no siginfo, or one
 * whose layout has a pid: kill's, the real-time and queued ones, not a
 * POSIX timer's or SIGIO's)? Its si_pid is then 0, and SIGKILL and
 * SIGSTOP reach a namespace's init. */
static bool sig_from_above(struct process *p, const struct linux_siginfo *info)
{
	if (info && (info->si_code > 0 || info->si_code == LINUX_SI_TIMER ||
		     info->si_code == LINUX_SI_SIGIO))
		return false;
	return current && current->proc && !pid_nr_ns(current->proc->pid, pid_ns_of(p->pid));
}

static bool wants(struct task *t, int sig)
{
	return !(t->sigmask & SIGBIT(sig)) || (t->sigwait_set & SIGBIT(sig));
}

/* Job control */

/* SIGCHLD with CLD_STOPPED or CLD_CONTINUED to the parent, unless it asked
 * for none (SA_NOCLDSTOP); its wait wakes up either way. */
static void notify_parent_cldstop(struct process *p, int why, int status)
{
	struct process *parent = p->parent;
	struct linux_siginfo si;

	if (!parent)
		return;
	if (!(parent->sigactions[LINUX_SIGCHLD - 1].flags & LINUX_SA_NOCLDSTOP)) {
		memset(&si, 0, sizeof(si));
		si.si_signo = LINUX_SIGCHLD;
		si.si_code = why;
		si.fields.sigchld.pid = pid_nr_ns(p->pid, pid_ns_of(parent->pid));
		si.fields.sigchld.uid = from_kuid_munged(cred_user_ns(&parent->cred), p->cred.uid);
		si.fields.sigchld.status = status;
		send_signal_info(parent, NULL, LINUX_SIGCHLD, &si);
	}
	waitq_wake_all(&parent->wait_chld);
}

/* What a stop or continue signal does as it is sent, whatever its action
 * or mask: a stop signal cancels a pending SIGCONT; SIGCONT cancels pending
 * stop signals and continues a stopped process. */
static void prepare_stop_cont(struct process *p, int sig)
{
	struct task *t;

	if (sig_default_stops(sig)) {
		signal_discard(p, SIGBIT(LINUX_SIGCONT));
		return;
	}
	if (sig != LINUX_SIGCONT)
		return;
	signal_discard(p, STOP_MASK);
	ptrace_sigcont(p);
	if (!p->stopped)
		return;
	p->stopped = false;
	p->stop_code = 0;
	p->stop_sig = 0;
	p->continued = true;
	list_for_each_entry(t, &p->threads, thread_link)
	{
		if (t->stop_parked)
			sched_wake(t);
	}
	notify_parent_cldstop(p, LINUX_CLD_CONTINUED, LINUX_SIGCONT);
}

/* t took a stop signal whose action is the default: the process stops. */
static void group_stop(struct task *t, int sig)
{
	struct process *p = t->proc;
	struct task *o;

	if (p->exiting)
		return;
	p->stopped = true;
	p->stop_sig = sig;
	p->continued = false;
	list_for_each_entry(o, &p->threads, thread_link)
	{
		/* Traced threads each take a trap for it (ptrace.c). */
		o->pt.group_done = false;
		o->pt.group_sig = sig;
		if (o != t)
			task_kick(o);
	}
}

/* A group stop is complete when every thread of the process that is not
 * dying sleeps in stop_park: then wait can report it and the parent hears
 * (as Linux's do_signal_stop, once). Called as threads park and exit. */
void signal_stop_check(struct process *p)
{
	struct task *o;

	if (!p->stopped || !p->stop_sig || p->exiting)
		return;
	list_for_each_entry(o, &p->threads, thread_link)
	{
		/* A tracee in a ptrace stop, or one its tracer let run
		 * after its group-stop trap, counts as stopped. */
		if (!o->stop_parked && !o->killed && o->state != TASK_DEAD && !o->pt.stopped &&
		    !(o->pt.tracer && o->pt.group_done))
			return;
	}
	p->stop_code = p->stop_sig;
	p->stop_sig = 0;
	notify_parent_cldstop(p, LINUX_CLD_STOPPED, p->stop_code);
}

/* A stopped task sleeps here until SIGCONT or SIGKILL. A traced one
 * takes a ptrace trap instead, and runs on once its tracer says so
 * (unless PTRACE_LISTEN keeps it in the group stop). */
static void stop_park(struct task *t)
{
	for (;;) {
		if (t->killed)
			break;
		if (ptrace_group_trap(t))
			continue;
		if (!t->proc->stopped || (t->pt.tracer && !t->pt.listening))
			break;
		if (!t->stop_parked) {
			t->stop_parked = true;
			cgroup_task_frozen_changed(t); /* a stop is frozen too */
		}
		signal_stop_check(t->proc);
		t->state = TASK_SLEEPING;
		schedule();
	}
	if (t->stop_parked) {
		t->stop_parked = false;
		cgroup_task_frozen_changed(t);
	}
}

/* A thread of a frozen cgroup sleeps here until the freeze ends or it is
 * killed (Linux's do_freezer_trap). true: it left, still frozen, for a
 * ptrace trap, which handle_signals takes before it parks again. */
static bool freeze_park(struct task *t)
{
	/* a ptrace trap (PTRACE_INTERRUPT, a listen's end) is taken first,
	 * and the trap's stop counts as frozen */
	while (cgroup_task_freezing(t) && !(t->pt.trap_pending && t->pt.tracer)) {
		if (!t->freeze_parked) {
			t->freeze_parked = true;
			cgroup_task_frozen_changed(t);
		}
		t->state = TASK_SLEEPING;
		schedule();
	}
	if (t->freeze_parked) {
		t->freeze_parked = false;
		cgroup_task_frozen_changed(t);
	}
	return cgroup_task_freezing(t) && t->pt.trap_pending && t->pt.tracer;
}

/* Sending */

/* A signal whose default action ends the process (not with a core: that
 * goes through delivery), not blocked by a thread that may take it,
 * ends the whole process at once, as Linux's complete_signal: every
 * thread is killed wherever it sleeps (in a vfork wait, say, which only
 * a kill ends). Not while the process is stopped: there, as in Linux,
 * it stays pending until SIGCONT. */
static bool sig_fatal_now(struct process *p, struct task *thread, int sig)
{
	const struct linux_sigaction *sa = &p->sigactions[sig - 1];
	struct task *t;

	if (sa->handler != LINUX_SIG_DFL || sig_default_ignored(sig) || sig_default_stops(sig) ||
	    sig_default_core(sig) || sig == LINUX_SIGCONT || p->stopped || process_is_ns_init(p) ||
	    ptrace_traced_by(p, NULL))
		return false;
	if (thread)
		return !(thread->sigmask & SIGBIT(sig)) && !thread->killed;
	list_for_each_entry(t, &p->threads, thread_link)
	{
		if (!(t->sigmask & SIGBIT(sig)) && !t->killed)
			return true;
	}
	return false;
}

/* thread NULL: process-directed, taken first by prefer if it will (else
 * by the first thread that will), as Linux's complete_signal tries the
 * thread in whose context the signal was raised. */
static int send_signal_to(struct process *p, struct task *thread, struct task *prefer, int sig,
			  const struct linux_siginfo *info)
{
	struct linux_siginfo own;
	struct sigpending sp;
	struct task *t;
	bool above;
	int ret;

	if (p->zombie || p->exiting)
		return 0;
	prepare_stop_cont(p, sig);
	above = sig_from_above(p, info);
	if (above && info && info->fields.kill.pid) {
		own = *info;
		own.fields.kill.pid = 0;
		info = &own;
	}
	if (sig_ignored(p, thread, sig, above || (info && info->si_code == LINUX_SI_KERNEL)))
		return 0;
	if (sig == LINUX_SIGKILL) {
		process_kill(p, LINUX_SIGKILL);
		return 0;
	}
	if (sig_fatal_now(p, thread, sig)) {
		process_kill(p, sig);
		return 0;
	}
	sp = thread ? thread_pending(thread) : process_pending(p);
	ret = sigpending_add(&sp, sig, info);
	if (ret < 0)
		return ret;
	waitq_wake_all(&p->signalfd_wq);
	if (thread) {
		if (wants(thread, sig))
			task_kick(thread);
		return 0;
	}
	if (prefer && prefer->proc == p && prefer->state != TASK_DEAD && wants(prefer, sig)) {
		task_kick(prefer);
		return 0;
	}
	list_for_each_entry(t, &p->threads, thread_link)
	{
		if (wants(t, sig)) {
			task_kick(t);
			break;
		}
	}
	return 0;
}

int send_signal_info(struct process *p, struct task *thread, int sig,
		     const struct linux_siginfo *info)
{
	return send_signal_to(p, thread, NULL, sig, info);
}

/* Linux raises a CPU-time timer's signal from the tick of the thread that
 * used the time, so a thread on a CPU takes it: a profiler's SIGPROF
 * samples the thread that burns the CPU, not one asleep in a join. skas
 * has no tick: it takes a thread that is not waiting (running guest code,
 * or in the kernel on its way back to it) and will take sig, the next one
 * after the last taken (so that several share it), else Linux's usual
 * choice. */
int send_signal_cpu(struct process *p, int sig, const struct linux_siginfo *info)
{
	struct task *t, *first = NULL, *pick = NULL;

	list_for_each_entry(t, &p->threads, thread_link)
	{
		if (t->state == TASK_SLEEPING || t->state == TASK_DEAD || !wants(t, sig))
			continue;
		if (!first)
			first = t;
		if (!pick && t->tid > p->cpu_sig_tid)
			pick = t;
	}
	if (!pick)
		pick = first;
	if (pick)
		p->cpu_sig_tid = pick->tid;
	return send_signal_to(p, NULL, pick, sig, info);
}

void send_sig_self(int sig)
{
	struct linux_siginfo si;

	memset(&si, 0, sizeof(si));
	si.si_signo = sig;
	si.si_code = LINUX_SI_USER;
	si.fields.kill.pid = pid_vnr(current, current->proc->pid);
	si.fields.kill.uid =
		from_kuid_munged(cred_user_ns(&current->proc->cred), current->proc->cred.uid);
	send_signal_info(current->proc, current, sig, &si);
}

void send_sigpipe(void)
{
	if (!current->no_sigpipe)
		send_sig_self(LINUX_SIGPIPE);
}

bool signal_may_send(struct task *from, struct process *p, int sig)
{
	const struct cred *c;

	if (!from || from->proc == p)
		return true;
	if (sig == LINUX_SIGCONT && p->sid == from->proc->sid)
		return true;
	/* Linux's kill_ok_by_cred: the uids, or CAP_KILL (not euid 0) */
	c = &from->proc->cred;
	return c->euid == p->cred.suid || c->euid == p->cred.uid || c->uid == p->cred.suid ||
	       c->uid == p->cred.uid || ns_capable(c, cred_user_ns(&p->cred), CAP_KILL);
}

/* kill()'s siginfo from from to p: the sender's pid as p's namespace
 * sees it (0 from one above). */
static void user_info(struct linux_siginfo *si, struct task *from, struct process *p, int sig,
		      int code)
{
	memset(si, 0, sizeof(*si));
	si->si_signo = sig;
	si->si_code = code;
	if (from) {
		si->fields.kill.pid = pid_nr_ns(from->proc->pid, pid_ns_of(p->pid));
		si->fields.kill.uid =
			from_kuid_munged(cred_user_ns(&p->cred), from->proc->cred.uid);
	}
}

int send_sig_from_current(struct process *p, int sig)
{
	struct linux_siginfo si;

	user_info(&si, current, p, sig, LINUX_SI_USER);
	return send_signal_info(p, NULL, sig, &si);
}

int send_signal_checked(struct task *from, struct process *p, struct task *thread, int sig,
			const struct linux_siginfo *info)
{
	struct linux_siginfo si;

	if (sig < 0 || sig > LINUX_NSIG)
		return -EINVAL;
	/* a zombie is asked too, and takes the signal to drop it */
	if (!signal_may_send(from, p, sig))
		return -EPERM;
	if (sig == 0 || p->zombie)
		return 0;
	if (!info) {
		user_info(&si, from, p, sig,
			  !from	   ? LINUX_SI_KERNEL
			  : thread ? LINUX_SI_TKILL
				   : LINUX_SI_USER);
		info = &si;
	}
	return send_signal_info(p, thread, sig, info);
}

int send_signal(struct task *from, struct process *p, int sig)
{
	return send_signal_checked(from, p, NULL, sig, NULL);
}

int send_signal_tkill(struct task *from, struct task *target, int sig)
{
	return send_signal_checked(from, target->proc, target, sig, NULL);
}

/* A signal to skas from the host (SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1,
 * SIGUSR2) goes to the instance's init as if sent from outside its pid
 * namespace: si_pid 0, delivered when init handles or blocks it, dropped
 * when it ignores it. Left at the default action it ends the instance as
 * if init had died of it (so `timeout -s INT` on skas gives 130), where
 * Linux would leave a namespace's init alone: a user who signals skas
 * wants it to stop unless the guest said otherwise, as with a container
 * runtime's --init. SIGTERM, the host's "please stop", also ends it when
 * init ignores it (an interactive shell does); one init handles is the
 * guest's to act on. */
void signal_from_host(int sig)
{
	struct process *p = process_by_pid(1);
	const struct linux_sigaction *sa;
	struct linux_siginfo si;
	struct task *t;

	if (!p || p->zombie || p->exiting || sig < 1 || sig > LINUX_NSIG)
		return;
	sa = &p->sigactions[sig - 1];
	t = list_empty(&p->threads) ? NULL
				    : list_first_entry(&p->threads, struct task, thread_link);
	if ((sa->handler == LINUX_SIG_DFL && !(t && (t->sigmask & SIGBIT(sig)))) ||
	    (sig == LINUX_SIGTERM && sa->handler == LINUX_SIG_IGN)) {
		klog(LOG_INFO, "host signal %d ends the instance", sig);
		process_kill(p, sig);
		return;
	}
	user_info(&si, NULL, p, sig, LINUX_SI_USER);
	send_signal_info(p, NULL, sig, &si);
}

void signal_queue_thread(struct task *t, int sig, const struct linux_siginfo *info)
{
	struct sigpending sp = thread_pending(t);

	sigpending_add(&sp, sig, info);
}

void force_signal_info(struct task *t, const struct linux_siginfo *si)
{
	int sig = si->si_signo;
	struct linux_sigaction *sa = &t->proc->sigactions[sig - 1];
	struct sigpending sp = thread_pending(t);

	if (sa->handler == LINUX_SIG_IGN || (t->sigmask & SIGBIT(sig))) {
		sa->handler = LINUX_SIG_DFL;
		t->sigmask &= ~SIGBIT(sig);
	}
	sigpending_add(&sp, sig, si);
	waitq_wake_all(&t->proc->signalfd_wq);
}

void force_signal(struct task *t, int sig, int code, uint64_t addr)
{
	struct linux_siginfo si;

	memset(&si, 0, sizeof(si));
	si.si_signo = sig;
	si.si_code = code;
	si.fields.sigfault.addr = addr;
	force_signal_info(t, &si);
}

void force_signal_fatal(struct task *t, int sig)
{
	t->proc->sigactions[sig - 1].handler = LINUX_SIG_DFL;
	t->sigmask &= ~SIGBIT(sig);
	force_signal(t, sig, LINUX_SI_KERNEL, 0);
}

/* The lowest signal in ready, faults first. */
static int next_signal(uint64_t ready)
{
	if (ready & SYNCHRONOUS_MASK)
		ready &= SYNCHRONOUS_MASK;
	return __builtin_ctzll(ready) + 1;
}

int signal_dequeue(struct task *t, uint64_t allowed, struct linux_siginfo *info)
{
	struct sigpending sp;
	int sig;

	for (;;) {
		sp = thread_pending(t);
		if (!(t->pending & allowed))
			sp = process_pending(t->proc);
		if (!(*sp.mask & allowed))
			return 0;
		sig = next_signal(*sp.mask & allowed);
		sigpending_take(&sp, sig, info);
		/* A POSIX timer's signal from before its timer was set again or
		 * deleted is dropped here, as Linux 6.13+ does. */
		if (info->si_code != LINUX_SI_TIMER || ptimer_dequeued(t->proc, info))
			return sig;
	}
}

int signal_timer_queued(struct process *p, struct task *thread, int sig, int id, int gen)
{
	struct sigpending sp = thread ? thread_pending(thread) : process_pending(p);
	struct sigqueue *last = *sp.last, *q;
	struct linux_siginfo *info = NULL;

	if (!(*sp.mask & SIGBIT(sig)))
		return 0;
	if (sig < LINUX_SIGRTMIN) {
		info = &sp.info[sig - 1];
	} else if (last) {
		q = last;
		do {
			q = q->next;
			if (q->sig == sig && q->info.si_code == LINUX_SI_TIMER &&
			    q->info.fields.timer.tid == id && q->info.fields.timer.sys_private) {
				info = &q->info;
				break;
			}
		} while (q != last);
	}
	if (!info || info->si_code != LINUX_SI_TIMER || info->fields.timer.tid != id ||
	    !info->fields.timer.sys_private)
		return 0;
	if (info->fields.timer.sys_private == gen)
		return 1;
	info->fields.timer.sys_private = gen; /* a stale one stands for this expiry */
	return 2;
}

/* Delivery */

/* As Linux: never on an SS_AUTODISARM stack (it was disarmed when the
 * handler started on it). */
bool signal_on_altstack(const struct task *t, uint64_t sp)
{
	if (t->altstack.ss_flags & (int32_t)LINUX_SS_AUTODISARM)
		return false;
	return sp > t->altstack.ss_sp && sp - t->altstack.ss_sp <= t->altstack.ss_size;
}

int signal_altstack_set(struct task *t, const struct linux_stack_t *ss, uint64_t sp)
{
	unsigned mode = (unsigned)ss->ss_flags & ~LINUX_SS_AUTODISARM;

	if (signal_on_altstack(t, sp))
		return -EPERM;
	if (mode != LINUX_SS_DISABLE && mode != LINUX_SS_ONSTACK && mode != 0)
		return -EINVAL;
	if (mode != LINUX_SS_DISABLE && ss->ss_size < LINUX_MINSIGSTKSZ)
		return -ENOMEM;
	t->altstack = *ss;
	if (mode == LINUX_SS_DISABLE) {
		t->altstack.ss_sp = 0;
		t->altstack.ss_size = 0;
	}
	return 0;
}

/* The handler starts with the FPU in its initial state, as in Linux: x87
 * control word 0x37f, MXCSR 0x1f80, registers zero, the XSAVE components
 * beyond x87/SSE in their init state. fpu holds the saved state, size its
 * length without the magic2 trailer. */
static void fpu_reset(struct task *t, char *fpu, long size)
{
	uint16_t fcw = 0x37f;
	uint32_t mxcsr = 0x1f80;
	uint64_t xfeatures = 3; /* x87 and SSE, as set below */

	memset(fpu, 0, 24);	       /* fcw fsw ftw fop rip rdp */
	memset(fpu + 32, 0, 416 - 32); /* st0-7, xmm0-15 */
	memcpy(fpu, &fcw, sizeof(fcw));
	memcpy(fpu + 24, &mxcsr, sizeof(mxcsr));
	if (size > LINUX_FXSAVE_SIZE)
		memcpy(fpu + LINUX_FXSAVE_SIZE, &xfeatures, sizeof(xfeatures));
	platform->fpu_set(t->thread, fpu, size);
}

/* The initial state is the same for every thread: it is made once from
 * the first thread's (the layout and size are the host's), and from then
 * on set without reading the thread's own first (one host call less per
 * exec). fpu_reset leaves no component but x87 and SSE in the image's
 * XSAVE header, so nothing of that first thread's state carries over. */
int fpu_init_state(struct task *t)
{
	static char fpu[FPU_AREA_MAX] __attribute__((aligned(64)));
	static long size;

	if (size == 0) {
		long n = platform->fpu_get(t->thread, fpu, sizeof(fpu));

		if (n < LINUX_FXSAVE_SIZE)
			return -ESRCH;
		fpu_reset(t, fpu, n);
		size = n;
		return 0;
	}
	return platform->fpu_set(t->thread, fpu, size) < 0 ? -ESRCH : 0;
}

/* The size of the last signal frame written with its FPU state (from the
 * frame's start to the FPU area's end): sigreturn reads that much at once,
 * one host copy instead of three, and falls back to reading piece by
 * piece when the frame is not laid out that way. */
static size_t last_frame_span;

bool xsave_header_ok(const char *img, uint64_t xcr0)
{
	uint64_t hdr[8];
	int i;

	memcpy(hdr, img + LINUX_FXSAVE_SIZE, sizeof(hdr));
	if (hdr[0] & ~xcr0)
		return false;
	for (i = 1; i < 8; i++)
		if (hdr[i])
			return false;
	return true;
}

uint32_t fpu_mxcsr_mask(const char *view)
{
	uint32_t mask;

	memcpy(&mask, view + 28, sizeof(mask));
	return mask ? mask : 0xffbf; /* the default MXCSR_MASK, as Linux's */
}

/* The XSAVE area guest threads have, as the host's ptrace shows one (its
 * size, the XCR0 in its software bytes, the MXCSR mask), read once from
 * the first thread that takes a signal: what the stub's xsave and xrstor
 * work with. Not the kernel process's own CPUID, which a tool such as
 * valgrind fakes (there an 832-byte area against the CPU's 2432 had the
 * stub's xsave write past the frame). */
static struct {
	long size; /* 0: not read yet; -1: no XSAVE area */
	uint64_t xcr0;
	uint32_t mxcsr_mask;
} xs;

static bool xsave_geometry(struct task *t)
{
	static char buf[FPU_AREA_MAX] __attribute__((aligned(64)));
	long n;

	if (xs.size)
		return xs.size > 0;
	n = platform->fpu_get(t->thread, buf, sizeof(buf));
	if (n < 0)
		return false; /* the thread is gone: the next one tells */
	/* fpu_get's view has the XCR0 first in the software bytes */
	memcpy(&xs.xcr0, buf + LINUX_FPX_SW_BYTES_OFFSET, sizeof(xs.xcr0));
	xs.mxcsr_mask = fpu_mxcsr_mask(buf);
	xs.size = n > LINUX_FXSAVE_SIZE && xs.xcr0 ? n : -1;
	return xs.size > 0;
}

/* A thread stopped inside the stub's handler entry or rt_sigreturn end
 * (a signal, a stop or a tracer came before it left them) is taken where
 * the stub was taking it, here: the frame's FPU area filled if the xsave
 * had not run, the FPU state reset or restored if the xrstor had not, and
 * the registers the stub would have loaded. So the next frame, a tracer
 * and a core dump see what Linux's would (the handler's entry, the
 * context returned to), not the stub's address. Guest memory that cannot
 * be read leaves the thread as it is (its own doing: the stub then
 * finishes it, or faults). */
void signal_settle_stub(struct task *t)
{
	static char img[FPU_AREA_MAX] __attribute__((aligned(64)));
	uint64_t slot[STUB_SR_SIZE / 8], gap[2];
	struct pf_regs regs, *r = &regs;

	/* no stub sequence has run before the first frame (xs unread) */
	if (!platform->handler_regs || xs.size <= 0 || !t->thread ||
	    platform->get_regs(t->thread, r) < 0)
		return;
	if (r->rip >= STUB_SIG_START && r->rip < STUB_SIG_END) {
		/* gap: the handler's address, the FPU area's */
		if (copy_from_user(t->mm, gap, r->rsp + STUB_SIGFRAME_SIZE, sizeof(gap)) < 0)
			return;
		if (r->rip <= STUB_SIG_XSAVE) {
			/* the area but its software bytes, which are ours */
			long n = platform->fpu_get(t->thread, img, (size_t)xs.size);

			if (n != xs.size ||
			    copy_to_user(t->mm, gap[1], img, LINUX_FPX_SW_BYTES_OFFSET) < 0 ||
			    copy_to_user(t->mm, gap[1] + LINUX_FXSAVE_SIZE, img + LINUX_FXSAVE_SIZE,
					 (size_t)n - LINUX_FXSAVE_SIZE) < 0)
				return;
		}
		fpu_init_state(t);
		r->rip = gap[0];
		r->rax = 0;
		r->rdx = r->rsp + STUB_SIGFRAME_UC;
		r->rsi = r->rsp + STUB_SIGFRAME_INFO;
	} else if (r->rip >= STUB_SIGRET && r->rip < STUB_SIGRET_END) {
		/* the slots: at the frame, or in the stub's page (sigreturn_slots):
		 * one of its places, not any stub address the guest's rsp names */
		if (r->rsp >= STUB_BASE && r->rsp < STUB_END) {
			if (r->rsp < STUB_SR_SLOTS ||
			    r->rsp >=
				    STUB_SR_SLOTS + (uint64_t)STUB_SR_NSLOTS * STUB_SR_SLOT_SIZE ||
			    (r->rsp - STUB_SR_SLOTS) % STUB_SR_SLOT_SIZE)
				return;
			if (platform->mm_read(t->mm->pf, slot, r->rsp, sizeof(slot)) !=
			    (long)sizeof(slot))
				return;
		} else if (copy_from_user(t->mm, slot, r->rsp, sizeof(slot)) < 0) {
			return;
		}
		if (r->rip <= STUB_SIGRET_XRSTOR) {
			uint64_t at = slot[STUB_SR_IMAGE / 8];

			if (at == STUB_FPU_INIT)
				fpu_init_state(t);
			else if (copy_from_user(t->mm, img, at, (size_t)xs.size) < 0 ||
				 platform->fpu_set(t->thread, img, (size_t)xs.size) < 0)
				return;
		}
		r->rip = slot[STUB_SR_RIP / 8];
		r->eflags = slot[STUB_SR_RFLAGS / 8];
		r->rsp = slot[STUB_SR_RSP / 8];
		r->rax = slot[STUB_SR_RAX / 8];
		r->rdx = slot[STUB_SR_RDX / 8];
		r->rcx = slot[STUB_SR_RCX / 8];
	} else {
		return;
	}
	platform->set_regs(t->thread, r);
}

/* Builds the rt_sigframe and points the registers at the handler. */
static int setup_frame(struct task *t, int sig, const struct linux_siginfo *info,
		       const struct linux_sigaction *sa, uint64_t oldmask)
{
	static char fpu[FPU_AREA_MAX + LINUX_FP_XSTATE_MAGIC2_SIZE] __attribute__((aligned(64)));
	/* The frame, the alignment gap below the FPU area (the handler's
	 * address and the area's for STUB_SIG_START first) and the area: one
	 * copy to the guest (the gap is dead stack, below the red zone). */
	static char out[sizeof(struct rt_sigframe) + 16 + 64 + 16 + sizeof(fpu)];
	struct rt_sigframe frame;
	struct linux_sigcontext *sc = &frame.uc.uc_mcontext;
	struct pf_regs r;
	uint64_t sp, fp_addr;
	size_t span;
	long fpsize, hw_size;
	bool xstate;
	/* The stub (handler_regs) saves the thread's FPU state into the
	 * frame itself, with an xsave on its way to the handler, then resets
	 * it: the kernel neither reads nor writes the state with ptrace. Not
	 * for a traced task, whose tracer may stop or step it before the
	 * handler, nor where the host has no XSAVE. A frame that goes on top
	 * of this one at once finds the thread at the stub's entry, and
	 * handle_signals has taken it to the handler's first
	 * (signal_settle_stub). */
	bool stub = platform->handler_regs && !t->pt.tracer;

	if (!(sa->flags & LINUX_SA_RESTORER))
		return -EFAULT; /* x86-64 has no default restorer */
	if (platform->get_regs(t->thread, &r) < 0)
		return -ESRCH;
	if (stub && xsave_geometry(t)) {
		/* What XSAVE leaves alone: the header past XSTATE_BV (zero)
		 * and the software bytes, set below. */
		memset(fpu, 0, (size_t)xs.size);
		memcpy(fpu + LINUX_FPX_SW_BYTES_OFFSET + 8, &xs.xcr0, sizeof(xs.xcr0));
		fpsize = xs.size;
	} else {
		stub = false;
		fpsize = platform->fpu_get(t->thread, fpu, FPU_AREA_MAX);
	}
	if (fpsize < LINUX_FXSAVE_SIZE)
		return -EFAULT;
	hw_size = fpsize;
	xstate = fpsize > LINUX_FXSAVE_SIZE;
	if (xstate) {
		struct linux_fpx_sw_bytes sw;
		uint32_t magic2 = LINUX_FP_XSTATE_MAGIC2;

		memcpy(&sw, fpu + LINUX_FPX_SW_BYTES_OFFSET, sizeof(sw));
		/* ptrace's view has the XCR0 first there (Linux's frame
		 * says the same: fpu_user_cfg.max_features). */
		if (!stub && sw.magic1 != LINUX_FP_XSTATE_MAGIC1) {
			memcpy(&sw.xfeatures, fpu + LINUX_FPX_SW_BYTES_OFFSET, 8);
			if (!sw.xfeatures)
				sw.xfeatures = *(uint64_t *)(fpu + 512);
		}
		sw.magic1 = LINUX_FP_XSTATE_MAGIC1;
		sw.extended_size = (uint32_t)fpsize + LINUX_FP_XSTATE_MAGIC2_SIZE;
		sw.xstate_size = (uint32_t)fpsize;
		memcpy(fpu + LINUX_FPX_SW_BYTES_OFFSET, &sw, sizeof(sw));
		memcpy(fpu + fpsize, &magic2, sizeof(magic2));
		fpsize += LINUX_FP_XSTATE_MAGIC2_SIZE;
	}

	sp = r.rsp;
	if ((sa->flags & LINUX_SA_ONSTACK) && t->altstack.ss_size && !signal_on_altstack(t, sp))
		sp = t->altstack.ss_sp + t->altstack.ss_size;
	else
		sp -= USER_RSP_REDZONE;
	fp_addr = (sp - fpsize) & ~63UL;
	sp = fp_addr - sizeof(frame) - 16; /* the gap: the handler, fp_addr */
	sp = ((sp + 8) & ~15UL) - 8;

	memset(&frame, 0, sizeof(frame));
	frame.pretcode = sa->restorer;
	frame.info = *info;
	frame.uc.uc_flags = LINUX_UC_SIGCONTEXT_SS | LINUX_UC_STRICT_RESTORE_SS |
			    (xstate ? LINUX_UC_FP_XSTATE : 0);
	frame.uc.uc_stack.ss_sp = t->altstack.ss_sp;
	frame.uc.uc_stack.ss_size = t->altstack.ss_size;
	frame.uc.uc_stack.ss_flags = t->altstack.ss_flags; /* as set, as Linux */
	frame.uc.uc_sigmask = oldmask;
	sc->r8 = r.r8, sc->r9 = r.r9, sc->r10 = r.r10, sc->r11 = r.r11;
	sc->r12 = r.r12, sc->r13 = r.r13, sc->r14 = r.r14, sc->r15 = r.r15;
	sc->rdi = r.rdi, sc->rsi = r.rsi, sc->rbp = r.rbp, sc->rbx = r.rbx;
	sc->rdx = r.rdx, sc->rax = r.rax, sc->rcx = r.rcx, sc->rsp = r.rsp;
	/* A TF the kernel set for a tracer's step is not the guest's: Linux
	 * turns the step off before it saves the flags (signal_setup_done's
	 * user_disable_single_step), so a sigreturn does not step on. */
	sc->rip = r.rip, sc->eflags = r.eflags & ~(t->pt.tf_set ? 0x100UL : 0);
	sc->cs = (uint16_t)r.cs, sc->ss = (uint16_t)r.ss;
	sc->oldmask = oldmask;
	if (sig == LINUX_SIGSEGV || sig == LINUX_SIGBUS) {
		sc->cr2 = info->fields.sigfault.addr;
		sc->trapno = 14;
	}
	sc->fpstate = fp_addr;
	span = (size_t)(fp_addr - sp) + (size_t)fpsize;
	memcpy(out, &frame, sizeof(frame));
	memset(out + sizeof(frame), 0, (size_t)(fp_addr - sp) - sizeof(frame));
	memcpy(out + sizeof(frame), &sa->handler, 8);
	memcpy(out + sizeof(frame) + 8, &fp_addr, 8);
	memcpy(out + (fp_addr - sp), fpu, (size_t)fpsize);
	if (copy_to_user(t->mm, sp, out, span) < 0)
		return -EFAULT;
	last_frame_span = span;

	r.rip = sa->handler;
	r.rsp = sp;
	r.rdi = sig;
	r.rsi = sp + offsetof(struct rt_sigframe, info);
	r.rdx = sp + offsetof(struct rt_sigframe, uc);
	r.rax = 0;
	r.eflags &= ~(0x400UL | 0x100UL | 0x40000UL); /* DF, TF, AC */
	r.orig_rax = (uint64_t)-1;
	if (stub) {
		if (platform->handler_regs(t->thread, &r) < 0)
			return -ESRCH; /* its thread is gone */
	} else {
		platform->set_regs(t->thread, &r);
		fpu_reset(t, fpu, hw_size);
	}
	if (t->altstack.ss_flags & LINUX_SS_AUTODISARM) {
		t->altstack.ss_sp = 0;
		t->altstack.ss_size = 0;
		t->altstack.ss_flags = LINUX_SS_DISABLE;
	}
	return 0;
}

/* The syscall the task trapped on runs again. */
/* The interrupted call runs again: itself, or restart_syscall(2) for the
 * calls that keep their state in t->restart (ERESTART_RESTARTBLOCK). */
static void rewind_call(struct pf_regs *r, bool block)
{
	r->rax = block ? 219 /* restart_syscall */ : r->orig_rax;
	r->rip -= 2;
}

static void restart_syscall(struct task *t, bool block)
{
	struct pf_regs r;

	if (platform->get_regs(t->thread, &r) < 0)
		return;
	rewind_call(&r, block);
	platform->set_regs(t->thread, &r);
}

/* ptrace.h: a tracer's registers that still say an interrupted call. */
void ptrace_regs_restart(struct task *t)
{
	struct pf_regs r;
	int64_t rax;

	t->pt.regs_set = t->pt.rax_eintr = false;
	if (!t->thread || platform->get_regs(t->thread, &r) < 0 || (int64_t)r.orig_rax < 0)
		return;
	rax = (int64_t)r.rax;
	if (rax > -ERESTARTSYS || rax < -ERESTART_RESTARTBLOCK || rax == -ENOIOCTLCMD)
		return;
	rewind_call(&r, rax == -ERESTART_RESTARTBLOCK);
	platform->set_regs(t->thread, &r);
}

static void finish_restart(struct task *t, bool handler, const struct linux_sigaction *sa)
{
	long ret = t->restart_ret;

	if (!ret)
		return;
	t->restart_ret = 0;
	/* A tracer that wrote the registers in a stop meanwhile (it saw ret
	 * in rax: ptrace.c's pt_getregs) decides, as Linux decides from the
	 * registers: orig_rax -1 skips the restart, another rax is the
	 * call's result (rax -EINTR: untouched, ret stands, unless the
	 * tracer wrote that -EINTR itself). */
	if (t->pt.regs_set) {
		struct pf_regs r;
		int64_t rax;

		t->pt.regs_set = false;
		if (platform->get_regs(t->thread, &r) < 0 || (int64_t)r.orig_rax < 0)
			return;
		rax = (int64_t)r.rax;
		if (rax == -EINTR && t->pt.rax_eintr)
			return; /* the tracer's own EINTR */
		if (rax != -EINTR &&
		    (rax > -ERESTARTSYS || rax < -ERESTART_RESTARTBLOCK || rax == -ENOIOCTLCMD))
			return;
		if (rax != -EINTR)
			ret = (long)rax;
	}
	switch (ret) {
	case -ERESTARTNOHAND:
	case -ERESTART_RESTARTBLOCK:
		if (handler) {
			platform->set_result(t->thread, -EINTR);
			return;
		}
		break;
	case -ERESTARTSYS:
		if (handler && !(sa->flags & LINUX_SA_RESTART)) {
			platform->set_result(t->thread, -EINTR);
			return;
		}
		break;
	default: /* -ERESTARTNOINTR */
		break;
	}
	restart_syscall(t, ret == -ERESTART_RESTARTBLOCK);
}

long sys_restart_syscall(struct task *t, const struct sysargs *a)
{
	long (*fn)(struct task *) = t->restart_fn;

	(void)a;
	t->restart_fn = NULL;
	return fn ? fn(t) : -EINTR;
}

void handle_signals(struct task *t)
{
	struct linux_siginfo info;
	struct linux_sigaction *sa, ka;
	uint64_t oldmask;
	int sig;

	for (;;) {
		stop_park(t);
		if (freeze_park(t))
			continue;
		if (t->killed)
			return;
		sig = signal_dequeue(t, ~t->sigmask, &info);
		if (!sig)
			break;
		/* A frame built a moment ago and not yet entered (a thread
		 * that waited for a CPU, more signals at once): the tracer's
		 * stop, the core dump and the next frame see its handler's
		 * entry. */
		signal_settle_stub(t);
		/* Signal-delivery stop: the tracer says what is delivered. */
		if (t->pt.tracer) {
			sig = ptrace_signal(t, sig, &info);
			if (!sig)
				continue;
		}
		sa = &t->proc->sigactions[sig - 1];
		if (sa->handler == LINUX_SIG_IGN)
			continue;
		if (sa->handler == LINUX_SIG_DFL) {
			if (sig_default_ignored(sig))
				continue;
			/* init dies only of a fault (forced, si_code > 0); a
			 * SIGSTOP here came from the kernel (sig_ignored) */
			if (process_is_ns_init(t->proc) && sig != LINUX_SIGSTOP &&
			    !((SIGBIT(sig) & SYNCHRONOUS_MASK) && info.si_code > 0))
				continue;
			if (sig_default_stops(sig)) {
				/* POSIX: job-control stops are discarded in an
				 * orphaned group (nobody could continue it). */
				if (sig != LINUX_SIGSTOP &&
				    pgrp_is_orphaned(t->proc->pgid, NULL, NULL))
					continue;
				group_stop(t, sig);
				continue;
			}
			/* The core bit says a core file was written; a tracer
			 * hears of the exit after the dump, as in Linux. The
			 * other threads are stopped for it first. */
			if (sig_default_core(sig) && coredump_wait(t, sig)) {
				if (coredump(t, &info)) {
					sig |= 0x80;
					t->proc->exit_code = sig;
				}
				coredump_done(t);
			}
			ptrace_event(t, LINUX_PTRACE_EVENT_EXIT, (uint64_t)sig);
			process_exit(t, sig);
		}
		ka = *sa;
		finish_restart(t, true, &ka);
		oldmask = t->restore_sigmask ? t->saved_sigmask : t->sigmask;
		t->restore_sigmask = false;
		if (ka.flags & LINUX_SA_RESETHAND)
			sa->handler = LINUX_SIG_DFL;
		if (setup_frame(t, sig, &info, &ka, oldmask) < 0) {
			/* No room for the frame: as Linux, SIGSEGV by force. */
			if (sig == LINUX_SIGSEGV)
				process_exit(t, LINUX_SIGSEGV);
			force_signal(t, LINUX_SIGSEGV, LINUX_SI_KERNEL, 0);
			continue;
		}
		t->sigmask =
			(oldmask | ka.mask | ((ka.flags & LINUX_SA_NODEFER) ? 0 : SIGBIT(sig))) &
			~UNBLOCKABLE;
		ptrace_signal_stepped(t);
		/* As Linux: every signal the new mask lets through gets its
		 * frame now, each on top of the last (the last one runs first). */
	}
	finish_restart(t, false, NULL);
	if (t->restore_sigmask) {
		t->restore_sigmask = false;
		t->sigmask = t->saved_sigmask;
	}
}

#define USER_CS 0x33 /* Linux's __USER_CS */
#define USER_DS 0x2b /* __USER_DS */

/* n bytes of the guest's frame or FPU area at addr: from what sigreturn
 * read at once (got bytes of the frame at frame, in buf) when they lie
 * within it, else from the guest. */
static int frame_read(struct task *t, void *dst, uint64_t addr, size_t n, const char *buf,
		      uint64_t frame, size_t got)
{
	if (addr >= frame && addr - frame <= got && got - (addr - frame) >= n) {
		memcpy(dst, buf + (addr - frame), n);
		return 0;
	}
	return copy_from_user(t->mm, dst, addr, n) < 0 ? -EFAULT : 0;
}

/* The FPU image of a frame as STUB_SIGRET's xrstor may take it: the
 * host's whole standard-form area, with nothing in its header or MXCSR
 * that would make the XRSTOR fault (then the host's check of a ptrace
 * write decides, as Linux's of the frame). */
static bool stub_can_restore(const char *img, size_t size)
{
	uint32_t mxcsr;

	if (xs.size <= 0 || (long)size != xs.size)
		return false;
	/* XRSTOR loads MXCSR whatever XSTATE_BV says */
	memcpy(&mxcsr, img + 24, sizeof(mxcsr));
	return xsave_header_ok(img, xs.xcr0) && !(mxcsr & ~xs.mxcsr_mask);
}

/* rt_sigreturn's FPU restore in the guest thread itself, on its way back
 * (platform sigreturn_regs, stub.h STUB_SIGRET), instead of a ptrace
 * write of the whole state, the dearest host call of a signal: the slots
 * go where the platform keeps them for the thread with no host call
 * (sigreturn_slots), else in the first bytes of the frame returned from,
 * dead now; the image is the frame's own where the stub can take it
 * (img_addr, checked in img), or the stub's initial one (img NULL).
 * Nothing is written outside the frame. Not for a task a tracer may look
 * at or step. False if it cannot: the caller writes the state. */
static bool sigreturn_in_stub(struct task *t, uint64_t frame, const struct pf_regs *r,
			      const char *img, uint64_t img_addr, size_t size)
{
	uint64_t slot[STUB_SR_SIZE / 8];
	struct pf_regs sr;

	/* A signal the restored mask lets through is delivered now, and
	 * signal_settle_stub would undo the stub's way at once (reading back what
	 * was just written): the ptrace way costs less then. */
	if (!platform->sigreturn_regs || t->pt.tracer || signal_pending(t))
		return false;
	if (img &&
	    ((img_addr & 63) || img_addr < frame + STUB_SR_SIZE || !stub_can_restore(img, size)))
		return false;
	slot[STUB_SR_RIP / 8] = r->rip;
	slot[STUB_SR_CS / 8] = r->cs;
	slot[STUB_SR_RFLAGS / 8] = r->eflags;
	slot[STUB_SR_RSP / 8] = r->rsp;
	slot[STUB_SR_SS / 8] = r->ss;
	slot[STUB_SR_RAX / 8] = r->rax;
	slot[STUB_SR_RDX / 8] = r->rdx;
	slot[STUB_SR_RCX / 8] = r->rcx;
	slot[STUB_SR_IMAGE / 8] = img ? img_addr : STUB_FPU_INIT;
	sr = *r;
	sr.rsp = platform->sigreturn_slots
			 ? platform->sigreturn_slots(t->thread, slot, sizeof(slot))
			 : 0;
	if (!sr.rsp) {
		if (copy_to_user(t->mm, frame, slot, sizeof(slot)) < 0)
			return false;
		sr.rsp = frame;
	}
	sr.eflags &= ~0x100UL; /* the stub's own steps are not traced: iretq sets TF */
	return platform->sigreturn_regs(t->thread, &sr) == 0;
}

long sys_rt_sigreturn(struct task *t, const struct sysargs *a)
{
	static char fpu[FPU_AREA_MAX + LINUX_FP_XSTATE_MAGIC2_SIZE] __attribute__((aligned(64)));
	static char in[sizeof(struct rt_sigframe) + 64 + 16 + sizeof(fpu)];
	struct linux_ucontext uc;
	struct linux_sigcontext *sc = &uc.uc_mcontext;
	struct pf_regs r;
	uint64_t frame;
	size_t got = 0;

	(void)a;
	t->no_result = true;
	t->restart_fn = NULL; /* a restart_syscall after a handler is EINTR */
	if (platform->get_regs(t->thread, &r) < 0)
		return 0;
	frame = r.rsp - 8;
	/* As the last frame was laid out, all at once; else piece by piece. */
	if (last_frame_span > sizeof(struct rt_sigframe) && last_frame_span <= sizeof(in) &&
	    copy_from_user(t->mm, in, frame, last_frame_span) == 0)
		got = last_frame_span;
	if (frame_read(t, &uc, frame + offsetof(struct rt_sigframe, uc), sizeof(uc), in, frame,
		       got) < 0)
		goto bad;
	t->sigmask = uc.uc_sigmask & ~UNBLOCKABLE;
	if (sc->rip >= TASK_SIZE)
		goto bad;
	/* Linux returns to the frame's cs and ss (RPL 3 forced), and the
	 * IRET faults on a bad one: only the 64-bit user code segment runs
	 * here (differs from Linux: no 32-bit one), and the user data segment
	 * is the only valid ss (without UC_STRICT_RESTORE_SS Linux puts it). */
	if ((sc->cs | 3) != USER_CS ||
	    ((uc.uc_flags & LINUX_UC_STRICT_RESTORE_SS) && (sc->ss | 3) != USER_DS))
		goto bad;
	r.r8 = sc->r8, r.r9 = sc->r9, r.r10 = sc->r10, r.r11 = sc->r11;
	r.r12 = sc->r12, r.r13 = sc->r13, r.r14 = sc->r14, r.r15 = sc->r15;
	r.rdi = sc->rdi, r.rsi = sc->rsi, r.rbp = sc->rbp, r.rbx = sc->rbx;
	r.rdx = sc->rdx, r.rax = sc->rax, r.rcx = sc->rcx, r.rsp = sc->rsp;
	r.rip = sc->rip;
	r.eflags = (r.eflags & ~FIX_EFLAGS) | (sc->eflags & FIX_EFLAGS);
	r.orig_rax = (uint64_t)-1;
	if (sc->fpstate) {
		struct linux_fpx_sw_bytes sw;
		size_t size = LINUX_FXSAVE_SIZE;
		uint32_t magic2;
		bool in_place = false;

		if (frame_read(t, fpu, sc->fpstate, LINUX_FXSAVE_SIZE, in, frame, got) < 0)
			goto bad;
		memcpy(&sw, fpu + LINUX_FPX_SW_BYTES_OFFSET, sizeof(sw));
		if ((uc.uc_flags & LINUX_UC_FP_XSTATE) && sw.magic1 == LINUX_FP_XSTATE_MAGIC1 &&
		    sw.xstate_size > LINUX_FXSAVE_SIZE && sw.xstate_size <= FPU_AREA_MAX &&
		    sw.extended_size == sw.xstate_size + LINUX_FP_XSTATE_MAGIC2_SIZE &&
		    frame_read(t, fpu, sc->fpstate, sw.extended_size, in, frame, got) == 0) {
			memcpy(&magic2, fpu + sw.xstate_size, sizeof(magic2));
			if (magic2 == LINUX_FP_XSTATE_MAGIC2)
				size = sw.xstate_size;
		}
		if (size > LINUX_FXSAVE_SIZE) {
			/* The components the software bytes leave out go
			 * to their initial state (Linux's restore_fpregs_
			 * from_user): out of XSTATE_BV, so does XRSTOR. The
			 * guest's image then differs from ours: not for
			 * the stub. */
			uint64_t bv, keep;

			memcpy(&bv, fpu + LINUX_FXSAVE_SIZE, sizeof(bv));
			keep = bv & sw.xfeatures;
			memcpy(fpu + LINUX_FXSAVE_SIZE, &keep, sizeof(keep));
			in_place = keep == bv;
		}
		if (!in_place || !sigreturn_in_stub(t, frame, &r, fpu, sc->fpstate, size)) {
			if (platform->fpu_set(t->thread, fpu, size) < 0)
				goto bad;
			platform->set_regs(t->thread, &r);
		}
	} else if (!sigreturn_in_stub(t, frame, &r, NULL, 0, 0)) {
		/* No FPU state in the frame: Linux's fpu__restore_sig puts
		 * the FPU in its initial state. */
		fpu_init_state(t);
		platform->set_regs(t->thread, &r);
	}
	/* The alternate stack as it was, as sigaltstack(2) would set it at
	 * the restored rsp (errors ignored, as in Linux). */
	(void)signal_altstack_set(t, &uc.uc_stack, r.rsp);
	return 0;
bad:
	/* A forged or damaged frame: the guest dies of SIGSEGV, never us. */
	force_signal(t, LINUX_SIGSEGV, LINUX_SI_KERNEL, 0);
	return 0;
}
