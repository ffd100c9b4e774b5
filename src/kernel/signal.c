/* kernel/signal.c: sending and delivering signals. A signal is pending on
 * a thread or on its process; before a task returns to the guest the lowest
 * pending unblocked signal is taken: its default action (terminate, core,
 * ignore) or an rt_sigframe on the guest stack, laid out as Linux does, with
 * the FPU/XSAVE state. rt_sigreturn checks what the guest hands back.
 * Differs from Linux (until the signals issue is done): real-time signals
 * do not queue (one pending instance per signal number); stop and continue
 * are not implemented (ignored). */
#include <stdlib.h>
#include <string.h>

#include "kernel/task.h"
#include "kernel/log.h"
#include "syscalls/dispatch.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/signal.h"

#define SIGBIT(sig)	 (1ULL << ((sig)-1))
#define UNBLOCKABLE	 (SIGBIT(LINUX_SIGKILL) | SIGBIT(LINUX_SIGSTOP))
#define FPU_AREA_MAX	 16384
#define FIX_EFLAGS	 0x50dd5UL /* AC OF DF TF SF ZF AF PF CF RF */
#define USER_RSP_REDZONE 128

struct rt_sigframe {
	uint64_t pretcode;
	struct linux_ucontext uc;
	struct linux_siginfo info;
};

static bool sig_default_ignored(int sig)
{
	return sig == LINUX_SIGCHLD || sig == LINUX_SIGURG || sig == LINUX_SIGWINCH ||
	       sig == LINUX_SIGCONT;
}

static bool sig_default_stops(int sig)
{
	return sig == LINUX_SIGSTOP || sig == LINUX_SIGTSTP || sig == LINUX_SIGTTIN ||
	       sig == LINUX_SIGTTOU;
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

bool signal_pending(struct task *t)
{
	return t->killed || ((t->pending | t->proc->pending) & ~t->sigmask);
}

/* Is the signal thrown away at once (ignored, or ignored by default)? */
static bool sig_discarded(struct process *p, int sig)
{
	const struct linux_sigaction *sa = &p->sigactions[sig - 1];

	if (sig == LINUX_SIGKILL || sig == LINUX_SIGSTOP)
		return false;
	if (sa->handler == LINUX_SIG_IGN)
		return true;
	return sa->handler == LINUX_SIG_DFL && (sig_default_ignored(sig) || sig_default_stops(sig));
}

static bool wants(struct task *t, int sig)
{
	return !(t->sigmask & SIGBIT(sig)) || (t->sigwait_set & SIGBIT(sig));
}

int send_signal_info(struct process *p, struct task *thread, int sig,
		     const struct linux_siginfo *info)
{
	struct task *t;

	if (p->zombie || p->exiting)
		return 0;
	if (p->pid == 1 && p->sigactions[sig - 1].handler == LINUX_SIG_DFL && !thread)
		return 0; /* the instance's init gets only what it handles */
	if (sig == LINUX_SIGKILL) {
		process_kill(p, LINUX_SIGKILL);
		return 0;
	}
	if (sig_discarded(p, sig))
		return 0;
	if (thread) {
		thread->pending |= SIGBIT(sig);
		thread->siginfo[sig - 1] = *info;
		if (wants(thread, sig))
			task_kick(thread);
		return 0;
	}
	p->pending |= SIGBIT(sig);
	p->siginfo[sig - 1] = *info;
	list_for_each_entry(t, &p->threads, thread_link)
	{
		if (wants(t, sig)) {
			task_kick(t);
			break;
		}
	}
	return 0;
}

static bool may_signal(struct task *from, struct process *p)
{
	const struct cred *c;

	if (!from)
		return true;
	c = &from->proc->cred;
	return c->euid == 0 || c->euid == p->cred.suid || c->euid == p->cred.uid ||
	       c->uid == p->cred.suid || c->uid == p->cred.uid;
}

static void user_info(struct linux_siginfo *si, struct task *from, int sig, int code)
{
	memset(si, 0, sizeof(*si));
	si->si_signo = sig;
	si->si_code = code;
	if (from) {
		si->fields.kill.pid = from->proc->pid;
		si->fields.kill.uid = from->proc->cred.uid;
	}
}

int send_signal(struct task *from, struct process *p, int sig)
{
	struct linux_siginfo si;

	if (p->zombie)
		return 0;
	if (!may_signal(from, p))
		return -EPERM;
	if (sig == 0)
		return 0;
	user_info(&si, from, sig, from ? LINUX_SI_USER : LINUX_SI_KERNEL);
	return send_signal_info(p, NULL, sig, &si);
}

void force_signal(struct task *t, int sig, int code, uint64_t addr)
{
	struct linux_sigaction *sa = &t->proc->sigactions[sig - 1];
	struct linux_siginfo si;

	memset(&si, 0, sizeof(si));
	si.si_signo = sig;
	si.si_code = code;
	si.fields.sigfault.addr = addr;
	if (sa->handler == LINUX_SIG_IGN || (t->sigmask & SIGBIT(sig))) {
		sa->handler = LINUX_SIG_DFL;
		t->sigmask &= ~SIGBIT(sig);
	}
	t->pending |= SIGBIT(sig);
	t->siginfo[sig - 1] = si;
}

/* Takes the lowest pending signal t does not block; 0 if none. */
static int dequeue(struct task *t, uint64_t allowed, struct linux_siginfo *info)
{
	uint64_t ready = t->pending & allowed;
	int sig;

	if (ready) {
		sig = __builtin_ctzll(ready) + 1;
		t->pending &= ~SIGBIT(sig);
		*info = t->siginfo[sig - 1];
		return sig;
	}
	ready = t->proc->pending & allowed;
	if (!ready)
		return 0;
	sig = __builtin_ctzll(ready) + 1;
	t->proc->pending &= ~SIGBIT(sig);
	*info = t->proc->siginfo[sig - 1];
	return sig;
}

static bool on_altstack(const struct task *t, uint64_t sp)
{
	return t->altstack.ss_size && sp > t->altstack.ss_sp &&
	       sp - t->altstack.ss_sp <= t->altstack.ss_size;
}

/* Builds the rt_sigframe and points the registers at the handler. */
static int setup_frame(struct task *t, int sig, const struct linux_siginfo *info,
		       const struct linux_sigaction *sa, uint64_t oldmask)
{
	static char fpu[FPU_AREA_MAX + LINUX_FP_XSTATE_MAGIC2_SIZE] __attribute__((aligned(64)));
	struct rt_sigframe frame;
	struct linux_sigcontext *sc = &frame.uc.uc_mcontext;
	struct pf_regs r;
	uint64_t sp, fp_addr;
	long fpsize;
	bool xstate;

	if (!(sa->flags & LINUX_SA_RESTORER))
		return -EFAULT; /* x86-64 has no default restorer */
	if (platform->get_regs(t->thread, &r) < 0)
		return -ESRCH;
	fpsize = platform->fpu_get(t->thread, fpu, FPU_AREA_MAX);
	if (fpsize < LINUX_FXSAVE_SIZE)
		return -EFAULT;
	xstate = fpsize > LINUX_FXSAVE_SIZE;
	if (xstate) {
		struct linux_fpx_sw_bytes sw;
		uint32_t magic2 = LINUX_FP_XSTATE_MAGIC2;

		memcpy(&sw, fpu + LINUX_FPX_SW_BYTES_OFFSET, sizeof(sw));
		if (sw.magic1 != LINUX_FP_XSTATE_MAGIC1)
			sw.xfeatures = *(uint64_t *)(fpu + 512);
		sw.magic1 = LINUX_FP_XSTATE_MAGIC1;
		sw.extended_size = (uint32_t)fpsize + LINUX_FP_XSTATE_MAGIC2_SIZE;
		sw.xstate_size = (uint32_t)fpsize;
		memcpy(fpu + LINUX_FPX_SW_BYTES_OFFSET, &sw, sizeof(sw));
		memcpy(fpu + fpsize, &magic2, sizeof(magic2));
		fpsize += LINUX_FP_XSTATE_MAGIC2_SIZE;
	}

	sp = r.rsp;
	if ((sa->flags & LINUX_SA_ONSTACK) && t->altstack.ss_size && !on_altstack(t, sp))
		sp = t->altstack.ss_sp + t->altstack.ss_size;
	else
		sp -= USER_RSP_REDZONE;
	fp_addr = (sp - fpsize) & ~63UL;
	sp = fp_addr - sizeof(frame);
	sp = ((sp + 8) & ~15UL) - 8;

	memset(&frame, 0, sizeof(frame));
	frame.pretcode = sa->restorer;
	frame.info = *info;
	frame.uc.uc_flags = LINUX_UC_SIGCONTEXT_SS | LINUX_UC_STRICT_RESTORE_SS |
			    (xstate ? LINUX_UC_FP_XSTATE : 0);
	frame.uc.uc_stack.ss_sp = t->altstack.ss_sp;
	frame.uc.uc_stack.ss_size = t->altstack.ss_size;
	frame.uc.uc_stack.ss_flags =
		t->altstack.ss_size ? (on_altstack(t, r.rsp) ? 1 : 0) : LINUX_SS_DISABLE;
	frame.uc.uc_sigmask = oldmask;
	sc->r8 = r.r8, sc->r9 = r.r9, sc->r10 = r.r10, sc->r11 = r.r11;
	sc->r12 = r.r12, sc->r13 = r.r13, sc->r14 = r.r14, sc->r15 = r.r15;
	sc->rdi = r.rdi, sc->rsi = r.rsi, sc->rbp = r.rbp, sc->rbx = r.rbx;
	sc->rdx = r.rdx, sc->rax = r.rax, sc->rcx = r.rcx, sc->rsp = r.rsp;
	sc->rip = r.rip, sc->eflags = r.eflags;
	sc->cs = (uint16_t)r.cs, sc->ss = (uint16_t)r.ss;
	sc->oldmask = oldmask;
	if (sig == LINUX_SIGSEGV || sig == LINUX_SIGBUS) {
		sc->cr2 = info->fields.sigfault.addr;
		sc->trapno = 14;
	}
	sc->fpstate = fp_addr;
	if (copy_to_user(t->mm, fp_addr, fpu, fpsize) < 0 ||
	    copy_to_user(t->mm, sp, &frame, sizeof(frame)) < 0)
		return -EFAULT;

	r.rip = sa->handler;
	r.rsp = sp;
	r.rdi = sig;
	r.rsi = sp + offsetof(struct rt_sigframe, info);
	r.rdx = sp + offsetof(struct rt_sigframe, uc);
	r.rax = 0;
	r.eflags &= ~(0x400UL | 0x100UL | 0x40000UL); /* DF, TF, AC */
	r.orig_rax = (uint64_t)-1;
	platform->set_regs(t->thread, &r);
	if (t->altstack.ss_flags & LINUX_SS_AUTODISARM) {
		t->altstack.ss_sp = 0;
		t->altstack.ss_size = 0;
	}
	return 0;
}

/* The syscall the task trapped on runs again. */
static void restart_syscall(struct task *t)
{
	struct pf_regs r;

	if (platform->get_regs(t->thread, &r) < 0)
		return;
	r.rax = r.orig_rax;
	r.rip -= 2;
	platform->set_regs(t->thread, &r);
}

static void finish_restart(struct task *t, bool handler, const struct linux_sigaction *sa)
{
	long ret = t->restart_ret;

	if (!ret)
		return;
	t->restart_ret = 0;
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
	restart_syscall(t);
}

void handle_signals(struct task *t)
{
	struct linux_siginfo info;
	struct linux_sigaction *sa, ka;
	uint64_t oldmask;
	int sig;

	for (;;) {
		sig = dequeue(t, ~t->sigmask, &info);
		if (!sig)
			break;
		sa = &t->proc->sigactions[sig - 1];
		if (sa->handler == LINUX_SIG_IGN)
			continue;
		if (sa->handler == LINUX_SIG_DFL) {
			if (sig_default_ignored(sig) || sig_default_stops(sig))
				continue;
			if (t->proc->pid == 1 && sig != LINUX_SIGKILL && info.si_code <= 0)
				continue;
			/* Differs from Linux: no core file is written; the core
			 * bit says one would have been (RLIMIT_CORE > 0). */
			if (sig_default_core(sig) && t->proc->rlim[LINUX_RLIMIT_CORE].rlim_cur > 0)
				process_exit(t, sig | 0x80);
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
		return;
	}
	finish_restart(t, false, NULL);
	if (t->restore_sigmask) {
		t->restore_sigmask = false;
		t->sigmask = t->saved_sigmask;
	}
}

long sys_rt_sigreturn(struct task *t, const struct sysargs *a)
{
	static char fpu[FPU_AREA_MAX + LINUX_FP_XSTATE_MAGIC2_SIZE] __attribute__((aligned(64)));
	struct linux_ucontext uc;
	struct linux_sigcontext *sc = &uc.uc_mcontext;
	struct pf_regs r;
	uint64_t frame;

	(void)a;
	t->no_result = true;
	if (platform->get_regs(t->thread, &r) < 0)
		return 0;
	frame = r.rsp - 8;
	if (copy_from_user(t->mm, &uc, frame + offsetof(struct rt_sigframe, uc), sizeof(uc)) < 0)
		goto bad;
	t->sigmask = uc.uc_sigmask & ~UNBLOCKABLE;
	if (sc->rip >= TASK_SIZE)
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

		if (copy_from_user(t->mm, fpu, sc->fpstate, LINUX_FXSAVE_SIZE) < 0)
			goto bad;
		memcpy(&sw, fpu + LINUX_FPX_SW_BYTES_OFFSET, sizeof(sw));
		if ((uc.uc_flags & LINUX_UC_FP_XSTATE) && sw.magic1 == LINUX_FP_XSTATE_MAGIC1 &&
		    sw.xstate_size > LINUX_FXSAVE_SIZE && sw.xstate_size <= FPU_AREA_MAX &&
		    sw.extended_size == sw.xstate_size + LINUX_FP_XSTATE_MAGIC2_SIZE &&
		    copy_from_user(t->mm, fpu, sc->fpstate, sw.extended_size) == 0) {
			memcpy(&magic2, fpu + sw.xstate_size, sizeof(magic2));
			if (magic2 == LINUX_FP_XSTATE_MAGIC2)
				size = sw.xstate_size;
		}
		if (platform->fpu_set(t->thread, fpu, size) < 0)
			goto bad;
	}
	platform->set_regs(t->thread, &r);
	/* The alternate stack as it was (errors ignored, as in Linux). */
	if (!on_altstack(t, r.rsp) && (uc.uc_stack.ss_flags & LINUX_SS_DISABLE) == 0 &&
	    uc.uc_stack.ss_size >= LINUX_MINSIGSTKSZ) {
		t->altstack.ss_sp = uc.uc_stack.ss_sp;
		t->altstack.ss_size = uc.uc_stack.ss_size;
		t->altstack.ss_flags = uc.uc_stack.ss_flags & (int32_t)LINUX_SS_AUTODISARM;
	}
	return 0;
bad:
	/* A forged or damaged frame: the guest dies of SIGSEGV, never us. */
	force_signal(t, LINUX_SIGSEGV, LINUX_SI_KERNEL, 0);
	return 0;
}

/* kill and friends */

struct kill_ctx {
	struct task *from;
	int sig, pgrp, count, err;
	bool all;
};

static void kill_cb(struct process *p, void *arg)
{
	struct kill_ctx *k = arg;
	int ret;

	if (k->all ? (p->pid == 1 || p == k->from->proc) : p->pgid != k->pgrp)
		return;
	ret = send_signal(k->from, p, k->sig);
	if (ret == 0)
		k->count++;
	else
		k->err = ret;
}

long sys_kill(struct task *t, const struct sysargs *a)
{
	int pid = sysarg_int(a, 0), sig = sysarg_int(a, 1);
	struct kill_ctx k = { .from = t, .sig = sig, .err = -ESRCH };
	struct process *p;

	if (sig < 0 || sig > LINUX_NSIG)
		return -EINVAL;
	if (pid > 0) {
		p = process_by_pid(pid);
		if (!p) {
			struct task *th = task_by_tid(pid);

			p = th ? th->proc : NULL;
		}
		return p ? send_signal(t, p, sig) : -ESRCH;
	}
	if (pid == INT32_MIN)
		return -ESRCH;
	if (pid == -1)
		k.all = true;
	else
		k.pgrp = pid == 0 ? t->proc->pgid : -pid;
	for_each_process(kill_cb, &k);
	return k.count ? 0 : k.err;
}

static long do_tkill(struct task *t, int tgid, int tid, int sig)
{
	struct linux_siginfo si;
	struct task *target;

	if (tid <= 0 || sig < 0 || sig > LINUX_NSIG)
		return -EINVAL;
	target = task_by_tid(tid);
	if (!target || (tgid > 0 && target->proc->pid != tgid))
		return -ESRCH;
	if (!may_signal(t, target->proc))
		return -EPERM;
	if (sig == 0)
		return 0;
	user_info(&si, t, sig, LINUX_SI_TKILL);
	return send_signal_info(target->proc, target, sig, &si);
}

long sys_tkill(struct task *t, const struct sysargs *a)
{
	return do_tkill(t, -1, sysarg_int(a, 0), sysarg_int(a, 1));
}

long sys_tgkill(struct task *t, const struct sysargs *a)
{
	if (sysarg_int(a, 0) <= 0)
		return -EINVAL;
	return do_tkill(t, sysarg_int(a, 0), sysarg_int(a, 1), sysarg_int(a, 2));
}

long sys_rt_sigsuspend(struct task *t, const struct sysargs *a)
{
	uint64_t mask;

	if (sysarg_size(a, 1) != sizeof(uint64_t))
		return -EINVAL;
	if (copy_from_user(t->mm, &mask, sysarg_uaddr(a, 0), sizeof(mask)) < 0)
		return -EFAULT;
	t->saved_sigmask = t->sigmask;
	t->restore_sigmask = true;
	t->sigmask = mask & ~UNBLOCKABLE;
	while (!signal_pending(t)) {
		t->state = TASK_SLEEPING;
		schedule();
	}
	return -ERESTARTNOHAND;
}

long sys_pause(struct task *t, const struct sysargs *a)
{
	(void)a;
	while (!signal_pending(t)) {
		t->state = TASK_SLEEPING;
		schedule();
	}
	return -ERESTARTNOHAND;
}

long sys_rt_sigpending(struct task *t, const struct sysargs *a)
{
	uint64_t set = (t->pending | t->proc->pending) & t->sigmask;

	if (sysarg_size(a, 1) > sizeof(uint64_t))
		return -EINVAL;
	return copy_to_user(t->mm, sysarg_uaddr(a, 0), &set, sysarg_size(a, 1));
}

static void sigwait_timeout(void *arg)
{
	struct task *t = arg;

	t->sigwait_set = 0;
	sched_wake(t);
}

long sys_rt_sigtimedwait(struct task *t, const struct sysargs *a)
{
	uaddr_t uset = sysarg_uaddr(a, 0), uinfo = sysarg_uaddr(a, 1), uts = sysarg_uaddr(a, 2);
	struct ktimer tm = { .armed = false };
	struct linux_siginfo info;
	struct linux_timespec ts;
	uint64_t set;
	int sig;

	if (sysarg_size(a, 3) != sizeof(uint64_t))
		return -EINVAL;
	if (copy_from_user(t->mm, &set, uset, sizeof(set)) < 0)
		return -EFAULT;
	set &= ~UNBLOCKABLE;
	if (uts) {
		if (copy_from_user(t->mm, &ts, uts, sizeof(ts)) < 0)
			return -EFAULT;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000)
			return -EINVAL;
	}
	sig = dequeue(t, set, &info);
	if (!sig && !(uts && ts.tv_sec == 0 && ts.tv_nsec == 0)) {
		t->sigwait_set = set;
		if (uts)
			ktimer_arm(&tm, sched_now_ns() + ts.tv_sec * 1000000000LL + ts.tv_nsec,
				   sigwait_timeout, t);
		while (t->sigwait_set && !signal_pending(t) &&
		       !((t->pending | t->proc->pending) & set)) {
			t->state = TASK_SLEEPING;
			schedule();
		}
		ktimer_cancel(&tm);
		t->sigwait_set = 0;
		sig = dequeue(t, set, &info);
	}
	if (!sig)
		return signal_pending(t) ? -EINTR : -EAGAIN;
	if (uinfo && copy_to_user(t->mm, uinfo, &info, sizeof(info)) < 0)
		return -EFAULT;
	return sig;
}
