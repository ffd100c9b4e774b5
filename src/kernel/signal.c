/* kernel/signal.c: sending signals. Until the signals issue brings
 * delivery, a signal acts by its disposition at send time: SIGKILL and a
 * default action of terminate or core kill the process; default-ignore and
 * SIG_IGN do nothing; a handler leaves the signal pending, undelivered
 * (logged once). Stop and continue are not implemented yet (ignored).
 * pid 1 gets only the signals it has handlers for, as the init of a Linux
 * pid namespace. */
#include "kernel/task.h"
#include "kernel/log.h"
#include "syscalls/dispatch.h"
#include "abi/linux/errno.h"
#include "abi/linux/signal.h"

static bool default_ignored(int sig)
{
	return sig == LINUX_SIGCHLD || sig == LINUX_SIGURG || sig == LINUX_SIGWINCH ||
	       sig == LINUX_SIGCONT;
}

static bool default_stops(int sig)
{
	return sig == LINUX_SIGSTOP || sig == LINUX_SIGTSTP || sig == LINUX_SIGTTIN ||
	       sig == LINUX_SIGTTOU;
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

int send_signal(struct task *from, struct process *p, int sig)
{
	const struct linux_sigaction *sa;
	static bool warned;

	if (p->zombie)
		return 0;
	if (!may_signal(from, p))
		return -EPERM;
	if (sig == 0 || p->exiting)
		return 0;
	sa = &p->sigactions[sig - 1];
	if (p->pid == 1 && sa->handler == LINUX_SIG_DFL)
		return 0; /* init is protected from what it does not handle */
	if (sig == LINUX_SIGKILL) {
		process_kill(p, LINUX_SIGKILL);
		return 0;
	}
	if (sa->handler == LINUX_SIG_IGN)
		return 0;
	if (sa->handler != LINUX_SIG_DFL) {
		p->pending |= 1ULL << (sig - 1);
		if (!warned) {
			warned = true;
			klog(LOG_INFO, "signal %d to pid %d has a handler: delivery to handlers "
				       "is not implemented yet, left pending",
			     sig, p->pid);
		}
		return 0;
	}
	if (sig == LINUX_SIGSTOP || default_stops(sig) || default_ignored(sig))
		return 0;
	process_kill(p, sig);
	return 0;
}

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
	struct task *target;

	if (tid <= 0 || sig < 0 || sig > LINUX_NSIG)
		return -EINVAL;
	target = task_by_tid(tid);
	if (!target || (tgid > 0 && target->proc->pid != tgid))
		return -ESRCH;
	/* Differs from Linux: thread-directed signals act on the process. */
	return send_signal(t, target->proc, sig);
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
