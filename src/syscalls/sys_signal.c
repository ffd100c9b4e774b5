/* syscalls/sys_signal.c: the signal system calls: dispositions, the mask,
 * the alternate stack; kill, tkill, tgkill and the sigqueueinfo calls;
 * waiting (sigsuspend, pause, sigtimedwait). Sending and delivery are in
 * kernel/signal.c. */
#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "kernel/ptimer.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/signal.h"

#define UNBLOCKABLE ((1ULL << (LINUX_SIGKILL - 1)) | (1ULL << (LINUX_SIGSTOP - 1)))
#define DEFAULT_IGNORED(sig)                                                           \
	((sig) == LINUX_SIGCHLD || (sig) == LINUX_SIGURG || (sig) == LINUX_SIGWINCH || \
	 (sig) == LINUX_SIGCONT)

long sys_rt_sigaction(struct task *t, const struct sysargs *a)
{
	int sig = sysarg_int(a, 0);
	uaddr_t uact = sysarg_uaddr(a, 1), uold = sysarg_uaddr(a, 2);
	struct linux_sigaction act, old, *cur;

	if (sysarg_size(a, 3) != sizeof(uint64_t))
		return -EINVAL;
	if (sig < 1 || sig > LINUX_NSIG)
		return -EINVAL;
	if (uact && (sig == LINUX_SIGKILL || sig == LINUX_SIGSTOP))
		return -EINVAL;
	cur = &t->proc->sigactions[sig - 1];
	old = *cur;
	if (uact && copy_from_user(t->mm, &act, uact, sizeof(act)) < 0)
		return -EFAULT;
	if (uact) {
		act.mask &= ~UNBLOCKABLE;
		*cur = act;
		/* Now ignored: pending instances go (POSIX, as Linux). */
		if (act.handler == LINUX_SIG_IGN ||
		    (act.handler == LINUX_SIG_DFL && DEFAULT_IGNORED(sig)))
			signal_discard(t->proc, 1ULL << (sig - 1));
		else
			ptimer_sig_unignored(t->proc, sig); /* its timers run again */
	}
	/* As Linux: a fault here leaves the new action in place. */
	if (uold && copy_to_user(t->mm, uold, &old, sizeof(old)) < 0)
		return -EFAULT;
	return 0;
}

long sys_rt_sigprocmask(struct task *t, const struct sysargs *a)
{
	int how = sysarg_int(a, 0);
	uaddr_t uset = sysarg_uaddr(a, 1), uold = sysarg_uaddr(a, 2);
	uint64_t set, old = t->sigmask;

	if (sysarg_size(a, 3) != sizeof(uint64_t))
		return -EINVAL;
	if (uset) {
		if (copy_from_user(t->mm, &set, uset, sizeof(set)) < 0)
			return -EFAULT;
		switch (how) {
		case LINUX_SIG_BLOCK:
			t->sigmask |= set;
			break;
		case LINUX_SIG_UNBLOCK:
			t->sigmask &= ~set;
			break;
		case LINUX_SIG_SETMASK:
			t->sigmask = set;
			break;
		default:
			return -EINVAL;
		}
		t->sigmask &= ~UNBLOCKABLE;
	}
	/* As Linux: a fault here leaves the new mask in place. */
	if (uold && copy_to_user(t->mm, uold, &old, sizeof(old)) < 0)
		return -EFAULT;
	return 0;
}

long sys_sigaltstack(struct task *t, const struct sysargs *a)
{
	uaddr_t uss = sysarg_uaddr(a, 0), uold = sysarg_uaddr(a, 1);
	struct linux_stack_t ss, old = t->altstack;
	struct pf_regs r;
	bool on_stack;

	if (platform->get_regs(t->thread, &r) < 0)
		return -ESRCH;
	on_stack = signal_on_altstack(t, r.rsp);
	old.pad = 0;
	old.ss_flags &= (int32_t)LINUX_SS_AUTODISARM;
	if (old.ss_size == 0)
		old.ss_flags |= LINUX_SS_DISABLE;
	else if (on_stack)
		old.ss_flags |= LINUX_SS_ONSTACK;
	if (uss) {
		int ret;

		if (copy_from_user(t->mm, &ss, uss, sizeof(ss)) < 0)
			return -EFAULT;
		ret = signal_altstack_set(t, &ss, r.rsp);
		if (ret < 0)
			return ret;
	}
	if (uold && copy_to_user(t->mm, uold, &old, sizeof(old)) < 0)
		return -EFAULT;
	return 0;
}

/* kill and friends */

struct kill_ctx {
	struct task *from;
	const struct linux_siginfo *info; /* NULL: kill()'s */
	int sig, count, err;
	bool success;
};

static void kill_one(struct kill_ctx *k, struct process *p)
{
	int ret = send_signal_checked(k->from, p, NULL, k->sig, k->info);

	k->count++;
	k->success |= ret == 0;
	k->err = ret;
}

/* kill(-1): every process the caller's pid namespace sees but its init
 * and the caller; as Linux, 0 when some exist even if each one refused
 * (EPERM). Zombies count, as in Linux. */
static long kill_all(struct task *t, int sig)
{
	struct kill_ctx k = { .from = t, .sig = sig };
	struct process *p, *next;
	int ret = 0;

	for (p = process_next(NULL); p; p = next) {
		next = process_next(p);
		if (pid_vnr(t, p->pid) < 2 || p == t->proc)
			continue;
		kill_one(&k, p);
		if (k.err != -EPERM)
			ret = k.err;
	}
	return k.count ? ret : -ESRCH;
}

long kill_pgrp_info(struct task *t, int pgrp, int sig, const struct linux_siginfo *info)
{
	struct kill_ctx k = { .from = t, .info = info, .sig = sig, .err = -ESRCH };
	struct process *p, *next;

	for (p = process_next(NULL); p; p = next) {
		next = process_next(p);
		if (p->pgid == pgrp)
			kill_one(&k, p);
	}
	return k.success ? 0 : k.err;
}

/* The process of a pid or of a thread id in t's namespace; NULL if none. */
static struct process *find_process(struct task *t, int pid)
{
	struct process *p = process_by_vpid(t, pid);
	struct task *th;

	if (p)
		return p;
	th = task_by_vtid(t, pid);
	return th ? th->proc : NULL;
}

long sys_kill(struct task *t, const struct sysargs *a)
{
	int pid = sysarg_int(a, 0), sig = sysarg_int(a, 1);
	struct process *p;

	if (pid > 0) {
		p = find_process(t, pid);
		return p ? send_signal(t, p, sig) : -ESRCH;
	}
	if (pid == INT32_MIN)
		return -ESRCH;
	if (pid == -1)
		return kill_all(t, sig);
	pid = pid == 0 ? t->proc->pgid : pid_from_nr(task_pid_ns(t), -pid);
	return pid ? kill_pgrp_info(t, pid, sig, NULL) : -ESRCH;
}

static long do_tkill(struct task *t, int tgid, int tid, int sig)
{
	struct task *target;

	if (tid <= 0)
		return -EINVAL;
	target = task_by_vtid(t, tid);
	if (!target || (tgid > 0 && pid_vnr(t, target->proc->pid) != tgid))
		return -ESRCH;
	return send_signal_tkill(t, target, sig);
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

/* rt_sigqueueinfo and rt_tgsigqueueinfo take the guest's siginfo, but not
 * even root may pose as the kernel or as kill()/tkill() (si_code >= 0 or
 * SI_TKILL) towards another task than itself. */
static bool forged_info(struct task *t, struct linux_siginfo *si, int target)
{
	/* A guest's SI_TIMER is not a POSIX timer's (kernel/ptimer.c tells
	 * them by this field). */
	if (si->si_code == LINUX_SI_TIMER)
		si->fields.timer.sys_private = 0;
	return (si->si_code >= 0 || si->si_code == LINUX_SI_TKILL) && target != pid_vnr(t, t->tid);
}

long sys_rt_sigqueueinfo(struct task *t, const struct sysargs *a)
{
	int pid = sysarg_int(a, 0), sig = sysarg_int(a, 1);
	struct linux_siginfo si;
	struct process *p;

	if (copy_from_user(t->mm, &si, sysarg_uaddr(a, 2), sizeof(si)) < 0)
		return -EFAULT;
	si.si_signo = sig;
	if (forged_info(t, &si, pid))
		return -EPERM;
	p = pid > 0 ? find_process(t, pid) : NULL;
	if (!p)
		return -ESRCH;
	if (sig < 0 || sig > LINUX_NSIG)
		return -EINVAL;
	if (!signal_may_send(t, p, sig))
		return -EPERM;
	if (sig == 0 || p->zombie)
		return 0;
	return send_signal_info(p, NULL, sig, &si);
}

long sys_rt_tgsigqueueinfo(struct task *t, const struct sysargs *a)
{
	int tgid = sysarg_int(a, 0), tid = sysarg_int(a, 1), sig = sysarg_int(a, 2);
	struct linux_siginfo si;
	struct task *target;

	if (copy_from_user(t->mm, &si, sysarg_uaddr(a, 3), sizeof(si)) < 0)
		return -EFAULT;
	si.si_signo = sig;
	if (tgid <= 0 || tid <= 0)
		return -EINVAL;
	if (forged_info(t, &si, tid))
		return -EPERM;
	target = task_by_vtid(t, tid);
	if (!target || pid_vnr(t, target->proc->pid) != tgid)
		return -ESRCH;
	if (sig < 0 || sig > LINUX_NSIG)
		return -EINVAL;
	if (!signal_may_send(t, target->proc, sig))
		return -EPERM;
	if (sig == 0)
		return 0;
	return send_signal_info(target->proc, target, sig, &si);
}

/* Waiting for signals */

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
	sig = signal_dequeue(t, set, &info);
	if (!sig && !(uts && ts.tv_sec == 0 && ts.tv_nsec == 0)) {
		t->sigwait_set = set;
		if (uts)
			ktimer_arm(&tm,
				   sched_now_ns() +
					   (ts.tv_sec > 1000000000LL ? 1000000000LL : ts.tv_sec) *
						   1000000000LL +
					   ts.tv_nsec,
				   sigwait_timeout, t);
		while (t->sigwait_set && !signal_pending(t) &&
		       !((t->pending | t->proc->pending) & set)) {
			t->state = TASK_SLEEPING;
			schedule();
		}
		ktimer_cancel(&tm);
		t->sigwait_set = 0;
		sig = signal_dequeue(t, set, &info);
	}
	if (!sig)
		return signal_pending(t) ? -EINTR : -EAGAIN;
	if (uinfo && copy_to_user(t->mm, uinfo, &info, sizeof(info)) < 0)
		return -EFAULT;
	return sig;
}
