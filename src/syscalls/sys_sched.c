/* syscalls/sys_sched.c: scheduling policies and priorities:
 * sched_{set,get}{scheduler,param,attr}, sched_get_priority_{max,min},
 * sched_rr_get_interval, {get,set}priority. Linux's per-thread values,
 * checks and errors (CAP_SYS_NICE, RLIMIT_NICE, RLIMIT_RTPRIO, the same
 * owner). Differs from Linux: nothing reaches the host scheduler (the stub
 * threads keep the host's default); the values are bookkeeping that reads
 * back as Linux's. There is no SCHED_EXT (a Linux without sched_ext), no
 * utilization clamping (without CONFIG_UCLAMP_TASK: EOPNOTSUPP).
 * SCHED_DEADLINE has Linux's admission control: the deadline tasks'
 * bandwidths (runtime/period) may add up to sched_rt_runtime_us /
 * sched_rt_period_us (95%) of each of the guest's CPUs (EBUSY past it), and
 * a deadline task keeps every CPU in its affinity (EPERM, EBUSY) and
 * cannot fork (EAGAIN) but with SCHED_RESET_ON_FORK. */
#include <string.h>

#include "syscalls/dispatch.h"
#include "kernel/cpus.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "kernel/userns.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/types.h"

#define SCHED_RESET_ON_FORK	 0x40000000
#define SCHED_FLAG_RESET_ON_FORK 0x01
#define SCHED_FLAG_DL_FLAGS	 0x06 /* RECLAIM, DL_OVERRUN */
#define SCHED_FLAG_KEEP_POLICY	 0x08
#define SCHED_FLAG_KEEP_PARAMS	 0x10
#define SCHED_FLAG_UTIL_CLAMP	 0x60
#define SCHED_FLAG_ALL		 0x7f
#define SCHED_FLAG_SUGOV	 0x10000000
#define SCHED_ATTR_SIZE_VER0	 48
#define SETPARAM_POLICY		 (-1)
#define RR_TIMESLICE_NS		 100000000ULL /* Linux's RR_TIMESLICE, 100 ms */
#define HZ			 250	      /* for the jiffies a fair slice rounds down to */
#define PRIO_PROCESS		 0
#define PRIO_PGRP		 1
#define PRIO_USER		 2
#define BW_SHIFT		 20
#define DL_BW_PER_CPU		 ((950000ULL << BW_SHIFT) / 1000000) /* sched_rt_{runtime,period}_us */

/* The bandwidth admitted to deadline tasks, BW_SHIFT fixed point (Linux's
 * root domain dl_bw.total_bw). */
static uint64_t dl_total_bw;

/* Linux's struct sched_attr (VER1, 56 bytes). */
struct linux_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
	uint32_t sched_util_min, sched_util_max;
};
_Static_assert(sizeof(struct linux_sched_attr) == 56, "sched_attr");

static bool rt_policy(int policy)
{
	return policy == SCHED_POLICY_FIFO || policy == SCHED_POLICY_RR;
}

static bool fair_policy(int policy)
{
	return policy == SCHED_POLICY_OTHER || policy == SCHED_POLICY_BATCH;
}

static bool valid_policy(int policy)
{
	return fair_policy(policy) || rt_policy(policy) || policy == SCHED_POLICY_IDLE ||
	       policy == SCHED_POLICY_DEADLINE;
}

/* pid 0 is the caller; NULL: no such thread. */
static struct task *find_task(struct task *t, int pid)
{
	return pid ? task_by_vtid(t, pid) : t;
}

/* Linux's sysctl_sched_base_slice: 0.7 ms times 1 + log2(CPUs, at most 8). */
static uint64_t base_slice_ns(void)
{
	int ncpu = cpus_count(), factor = 1;

	for (ncpu = ncpu > 8 ? 8 : ncpu; ncpu > 1; ncpu >>= 1)
		factor++;
	return 700000ULL * (uint64_t)factor;
}

static uint64_t task_slice_ns(const struct task *p)
{
	return p->sched_slice_ns ? p->sched_slice_ns : base_slice_ns();
}

/* Linux's is_nice_reduction: within p's RLIMIT_NICE (20 - nice). */
static bool nice_allowed(const struct task *p, int nice)
{
	return (uint64_t)(20 - nice) <= p->proc->rlim[LINUX_RLIMIT_NICE].rlim_cur;
}

static bool same_owner(const struct task *t, const struct task *p)
{
	const struct cred *c = &t->proc->cred, *pc = &p->proc->cred;

	return c->euid == pc->euid || c->euid == pc->uid;
}

/* Linux's get_params: what sched_getattr (and SCHED_FLAG_KEEP_PARAMS)
 * reads of p's policy. */
static void get_params(const struct task *p, struct linux_sched_attr *a)
{
	if (p->sched_policy == SCHED_POLICY_DEADLINE) { /* __getparam_dl */
		a->sched_priority = p->sched_rt_priority;
		a->sched_runtime = p->dl_runtime;
		a->sched_deadline = p->dl_deadline;
		a->sched_period = p->dl_period;
		a->sched_flags = (a->sched_flags & ~(uint64_t)SCHED_FLAG_DL_FLAGS) | p->dl_flags;
		return;
	}
	if (rt_policy(p->sched_policy)) {
		a->sched_priority = p->sched_rt_priority;
		return;
	}
	a->sched_nice = p->nice;
	a->sched_runtime = task_slice_ns(p);
}

/* Linux's user_check_sched_setscheduler. */
static int may_set(struct task *t, struct task *p, int policy, const struct linux_sched_attr *a,
		   bool reset)
{
	uint64_t rtprio = p->proc->rlim[LINUX_RLIMIT_RTPRIO].rlim_cur;

	if (fair_policy(policy) && a->sched_nice < p->nice && !nice_allowed(p, a->sched_nice))
		goto priv;
	if (rt_policy(policy)) {
		if (policy != p->sched_policy && !rtprio)
			goto priv;
		if (a->sched_priority > p->sched_rt_priority && a->sched_priority > rtprio)
			goto priv;
	}
	if (policy == SCHED_POLICY_DEADLINE)
		goto priv;
	/* SCHED_IDLE counts as nice 20. */
	if (p->sched_policy == SCHED_POLICY_IDLE && policy != SCHED_POLICY_IDLE &&
	    !nice_allowed(p, p->nice))
		goto priv;
	if (!same_owner(t, p))
		goto priv;
	if (p->sched_reset_on_fork && !reset)
		goto priv;
	return 0;
priv:
	return capable(&t->proc->cred, CAP_SYS_NICE) ? 0 : -EPERM;
}

/* Linux's __checkparam_dl: runtime <= deadline <= period, the period
 * within sched_deadline_period_{min,max}_us (100 us, 4194304 us). */
static bool dl_params_ok(const struct linux_sched_attr *a)
{
	uint64_t period = a->sched_period ? a->sched_period : a->sched_deadline;

	if (a->sched_deadline == 0 || a->sched_runtime < 1024)
		return false;
	if ((a->sched_deadline | a->sched_period) & (1ULL << 63))
		return false;
	if (period < a->sched_deadline || a->sched_deadline < a->sched_runtime)
		return false;
	return period >= 100000ULL && period <= 4194304000ULL;
}

void sched_dl_release(struct task *t)
{
	dl_total_bw -= t->dl_bw;
	t->dl_bw = 0;
}

/* Linux's to_ratio: runtime over period, BW_SHIFT fixed point. */
static uint64_t dl_ratio(const struct linux_sched_attr *a)
{
	uint64_t period = a->sched_period ? a->sched_period : a->sched_deadline;

	return period ? (a->sched_runtime << BW_SHIFT) / period : 0;
}

/* Linux's sched_dl_overflow: p takes policy with a's bandwidth if the
 * total stays within the guest's CPUs' share; leaving is always fine. */
static int dl_admit(struct task *p, int policy, const struct linux_sched_attr *a)
{
	uint64_t new_bw = policy == SCHED_POLICY_DEADLINE ? dl_ratio(a) : 0;
	uint64_t cap = DL_BW_PER_CPU * (uint64_t)cpus_count();

	if (policy != SCHED_POLICY_DEADLINE)
		return 0;
	if (dl_total_bw - p->dl_bw + new_bw > cap)
		return -EBUSY;
	return 0;
}

/* Linux's dl_param_changed. */
static bool dl_changed(const struct task *p, const struct linux_sched_attr *a)
{
	uint64_t period = a->sched_period ? a->sched_period : a->sched_deadline;

	return p->dl_runtime != a->sched_runtime || p->dl_deadline != a->sched_deadline ||
	       p->dl_period != period || p->dl_flags != (a->sched_flags & SCHED_FLAG_DL_FLAGS);
}

/* Linux's __sched_setscheduler, from a user (policy SETPARAM_POLICY keeps
 * p's). */
static long sched_set(struct task *t, struct task *p, const struct linux_sched_attr *a)
{
	int policy = (int)a->sched_policy, ret;
	bool reset;

	if (policy < 0) {
		reset = p->sched_reset_on_fork;
		policy = p->sched_policy;
	} else {
		reset = a->sched_flags & SCHED_FLAG_RESET_ON_FORK;
		if (!valid_policy(policy))
			return -EINVAL;
	}
	if (a->sched_flags & ~(uint64_t)(SCHED_FLAG_ALL | SCHED_FLAG_SUGOV))
		return -EINVAL;
	if (a->sched_priority > 99)
		return -EINVAL;
	if ((policy == SCHED_POLICY_DEADLINE && !dl_params_ok(a)) ||
	    rt_policy(policy) != (a->sched_priority != 0))
		return -EINVAL;
	ret = may_set(t, p, policy, a, reset);
	if (ret < 0)
		return ret;
	if (a->sched_flags & SCHED_FLAG_SUGOV)
		return -EINVAL;
	if (a->sched_flags & SCHED_FLAG_UTIL_CLAMP)
		return -EOPNOTSUPP;
	/* nothing to change: no further check */
	if (policy == p->sched_policy && policy == SCHED_POLICY_DEADLINE && !dl_changed(p, a)) {
		p->sched_reset_on_fork = reset;
		return 0;
	}
	if (policy == SCHED_POLICY_DEADLINE) {
		uint64_t all[TASK_CPUS_MAX / 64], mine[TASK_CPUS_MAX / 64];

		task_affinity(NULL, all);
		task_affinity(p, mine);
		if (memcmp(all, mine, sizeof(all)) != 0)
			return -EPERM; /* not the whole root domain */
		ret = dl_admit(p, policy, a);
		if (ret < 0)
			return ret;
		sched_dl_release(p);
		p->dl_runtime = a->sched_runtime;
		p->dl_deadline = a->sched_deadline;
		p->dl_period = a->sched_period ? a->sched_period : a->sched_deadline;
		p->dl_flags = (unsigned)(a->sched_flags & SCHED_FLAG_DL_FLAGS);
		p->dl_bw = dl_ratio(a);
		dl_total_bw += p->dl_bw;
	} else if (p->sched_policy == SCHED_POLICY_DEADLINE) {
		sched_dl_release(p);
		p->dl_runtime = p->dl_deadline = p->dl_period = 0;
		p->dl_flags = 0;
	}
	p->sched_policy = policy;
	/* Linux 6.x: a real-time thread has no timer slack; back to another
	 * policy, it gets its default again */
	if (rt_policy(policy))
		p->timer_slack_ns = 0;
	else if (p->timer_slack_ns == 0)
		p->timer_slack_ns = p->default_timer_slack_ns;
	if (fair_policy(policy)) {
		p->nice = a->sched_nice;
		p->sched_slice_ns = a->sched_runtime;
		if (p->sched_slice_ns && p->sched_slice_ns < 100000)
			p->sched_slice_ns = 100000;
		if (p->sched_slice_ns > 100000000)
			p->sched_slice_ns = 100000000;
	}
	p->sched_rt_priority = a->sched_priority;
	p->sched_reset_on_fork = reset;
	return 0;
}

static long do_setscheduler(struct task *t, int pid, int policy, uaddr_t uparam)
{
	struct linux_sched_attr a = { 0 };
	int prio;
	struct task *p;

	if (!uparam || pid < 0)
		return -EINVAL;
	if (copy_from_user(t->mm, &prio, uparam, sizeof(prio)) < 0)
		return -EFAULT;
	p = find_task(t, pid);
	if (!p)
		return -ESRCH;
	a.sched_policy = (uint32_t)policy;
	a.sched_priority = (uint32_t)prio;
	a.sched_nice = p->nice;
	if (policy != SETPARAM_POLICY && (policy & SCHED_RESET_ON_FORK)) {
		a.sched_flags = SCHED_FLAG_RESET_ON_FORK;
		a.sched_policy = (uint32_t)(policy & ~SCHED_RESET_ON_FORK);
	}
	return sched_set(t, p, &a);
}

long sys_sched_setscheduler(struct task *t, const struct sysargs *a)
{
	int policy = sysarg_int(a, 1);

	if (policy < 0)
		return -EINVAL;
	return do_setscheduler(t, sysarg_int(a, 0), policy, sysarg_uaddr(a, 2));
}

long sys_sched_setparam(struct task *t, const struct sysargs *a)
{
	return do_setscheduler(t, sysarg_int(a, 0), SETPARAM_POLICY, sysarg_uaddr(a, 1));
}

long sys_sched_getscheduler(struct task *t, const struct sysargs *a)
{
	int pid = sysarg_int(a, 0);
	struct task *p;

	if (pid < 0)
		return -EINVAL;
	p = find_task(t, pid);
	if (!p)
		return -ESRCH;
	return p->sched_policy | (p->sched_reset_on_fork ? SCHED_RESET_ON_FORK : 0);
}

long sys_sched_getparam(struct task *t, const struct sysargs *a)
{
	int pid = sysarg_int(a, 0), prio = 0;
	uaddr_t uparam = sysarg_uaddr(a, 1);
	struct task *p;

	if (!uparam || pid < 0)
		return -EINVAL;
	p = find_task(t, pid);
	if (!p)
		return -ESRCH;
	if (rt_policy(p->sched_policy))
		prio = (int)p->sched_rt_priority;
	return copy_to_user(t->mm, uparam, &prio, sizeof(prio)) < 0 ? -EFAULT : 0;
}

/* Linux's sched_copy_attr: a size of 0 is VER0's; a size Linux does not
 * take is E2BIG, with Linux's own size written back. */
static long copy_attr(struct task *t, uaddr_t uattr, struct linux_sched_attr *a)
{
	uint32_t size, ksize = sizeof(*a);
	unsigned char tail[256];

	memset(a, 0, sizeof(*a));
	if (copy_from_user(t->mm, &size, uattr, sizeof(size)) < 0)
		return -EFAULT;
	if (!size)
		size = SCHED_ATTR_SIZE_VER0;
	if (size < SCHED_ATTR_SIZE_VER0 || size > PAGE_SIZE)
		goto too_big;
	if (copy_from_user(t->mm, a, uattr, size < ksize ? size : ksize) < 0)
		return -EFAULT;
	/* copy_struct_from_user: what we do not know must be zero. */
	for (uint32_t at = ksize; at < size;) {
		uint32_t n = size - at < sizeof(tail) ? size - at : sizeof(tail), i;

		if (copy_from_user(t->mm, tail, uattr + at, n) < 0)
			return -EFAULT;
		for (i = 0; i < n; i++)
			if (tail[i])
				goto too_big;
		at += n;
	}
	a->size = size;
	if ((a->sched_flags & SCHED_FLAG_UTIL_CLAMP) && size < ksize)
		return -EINVAL;
	if (a->sched_nice < -20)
		a->sched_nice = -20;
	if (a->sched_nice > 19)
		a->sched_nice = 19;
	return 0;
too_big:
	if (copy_to_user(t->mm, uattr, &ksize, sizeof(ksize)) < 0)
		return -EFAULT;
	return -E2BIG;
}

long sys_sched_setattr(struct task *t, const struct sysargs *a)
{
	int pid = sysarg_int(a, 0);
	uaddr_t uattr = sysarg_uaddr(a, 1);
	struct linux_sched_attr attr;
	struct task *p;
	long ret;

	if (!uattr || pid < 0 || sysarg_uint(a, 2))
		return -EINVAL;
	ret = copy_attr(t, uattr, &attr);
	if (ret < 0)
		return ret;
	if ((int)attr.sched_policy < 0)
		return -EINVAL;
	if (attr.sched_flags & SCHED_FLAG_KEEP_POLICY)
		attr.sched_policy = (uint32_t)SETPARAM_POLICY;
	p = find_task(t, pid);
	if (!p)
		return -ESRCH;
	if (attr.sched_flags & SCHED_FLAG_KEEP_PARAMS)
		get_params(p, &attr);
	return sched_set(t, p, &attr);
}

long sys_sched_getattr(struct task *t, const struct sysargs *a)
{
	int pid = sysarg_int(a, 0);
	uaddr_t uattr = sysarg_uaddr(a, 1);
	unsigned usize = sysarg_uint(a, 2);
	static const unsigned char zero[256];
	struct linux_sched_attr attr = { 0 };
	unsigned at, n;
	struct task *p;

	if (!uattr || pid < 0 || usize > PAGE_SIZE || usize < SCHED_ATTR_SIZE_VER0 ||
	    sysarg_uint(a, 3))
		return -EINVAL;
	p = find_task(t, pid);
	if (!p)
		return -ESRCH;
	attr.sched_policy = (uint32_t)p->sched_policy;
	if (p->sched_reset_on_fork)
		attr.sched_flags = SCHED_FLAG_RESET_ON_FORK;
	get_params(p, &attr);
	/* Linux's copy_struct_to_user: a bigger buffer's tail is zeroed (since
	 * Linux 6.13; before, it was left alone). */
	attr.size = usize < sizeof(attr) ? usize : sizeof(attr);
	if (copy_to_user(t->mm, uattr, &attr, attr.size) < 0)
		return -EFAULT;
	for (at = attr.size; at < usize; at += n) {
		n = usize - at < sizeof(zero) ? usize - at : sizeof(zero);
		if (copy_to_user(t->mm, uattr + at, zero, n) < 0)
			return -EFAULT;
	}
	return 0;
}

/* A policy's priority bound: rt for the real-time ones, 0 for the rest. */
static long priority_bound(int policy, long rt)
{
	if (rt_policy(policy))
		return rt;
	return valid_policy(policy) ? 0 : -EINVAL;
}

long sys_sched_get_priority_max(struct task *t, const struct sysargs *a)
{
	(void)t;
	return priority_bound(sysarg_int(a, 0), 99);
}

long sys_sched_get_priority_min(struct task *t, const struct sysargs *a)
{
	(void)t;
	return priority_bound(sysarg_int(a, 0), 1);
}

/* SCHED_RR: 100 ms; SCHED_FIFO and SCHED_DEADLINE: 0; the fair policies:
 * their slice in whole jiffies (Linux's get_rr_interval_fair). */
long sys_sched_rr_get_interval(struct task *t, const struct sysargs *a)
{
	int pid = sysarg_int(a, 0);
	struct linux_timespec ts = { 0 };
	uint64_t ns = 0;
	struct task *p;

	if (pid < 0)
		return -EINVAL;
	p = find_task(t, pid);
	if (!p)
		return -ESRCH;
	if (p->sched_policy == SCHED_POLICY_RR)
		ns = RR_TIMESLICE_NS;
	else if (!rt_policy(p->sched_policy) && p->sched_policy != SCHED_POLICY_DEADLINE)
		ns = task_slice_ns(p) / (1000000000ULL / HZ) * (1000000000ULL / HZ);
	ts.tv_sec = (int64_t)(ns / 1000000000ULL);
	ts.tv_nsec = (int64_t)(ns % 1000000000ULL);
	return copy_to_user(t->mm, sysarg_uaddr(a, 1), &ts, sizeof(ts)) < 0 ? -EFAULT : 0;
}

/* getpriority and setpriority, ioprio_get and ioprio_set: over one
 * thread, a process group's threads or a user's (real uid). */
struct prio_walk {
	struct task *caller;
	int which, who;
	int nice; /* setpriority's value */
	long ret; /* -ESRCH until a thread matches */
	bool set;
	bool io;	 /* ioprio_get/ioprio_set */
	uint16_t ioprio; /* ioprio_set's value */
};

/* Linux's set_one_prio. */
static void set_one(struct prio_walk *w, struct task *p)
{
	const struct cred *c = &w->caller->proc->cred, *pc = &p->proc->cred;

	if (pc->uid != c->euid && pc->euid != c->euid && !capable(c, CAP_SYS_NICE)) {
		w->ret = -EPERM;
		return;
	}
	if (w->nice < p->nice && !nice_allowed(p, w->nice) && !capable(c, CAP_SYS_NICE)) {
		w->ret = -EACCES;
		return;
	}
	if (w->ret == -ESRCH)
		w->ret = 0;
	p->nice = w->nice;
}

#define IOPRIO_CLASS(v) (((v) >> 13) & 7)
enum { IOPRIO_CLASS_NONE, IOPRIO_CLASS_RT, IOPRIO_CLASS_BE, IOPRIO_CLASS_IDLE };

/* The I/O priority p's I/O gets (Linux's __get_task_ioprio): a set one,
 * else the class of its policy at the level of its nice. */
static int ioprio_effective(const struct task *p)
{
	int class = IOPRIO_CLASS_BE;

	if (IOPRIO_CLASS(p->ioprio) != IOPRIO_CLASS_NONE)
		return p->ioprio;
	if (p->sched_policy == SCHED_POLICY_IDLE)
		class = IOPRIO_CLASS_IDLE;
	else if (rt_policy(p->sched_policy))
		class = IOPRIO_CLASS_RT;
	return class << 13 | (p->nice + 20) / 5;
}

/* Linux's set_task_ioprio and ioprio_get's walk: a set stops at the first
 * thread it may not change; a get of one thread is its raw value, of
 * several the best (lowest) effective one. */
static void ioprio_one(struct prio_walk *w, struct task *p)
{
	const struct cred *c = &w->caller->proc->cred;
	long v;

	if (w->set) {
		if (w->ret < 0 && w->ret != -ESRCH)
			return;
		if (p->proc->cred.uid != c->euid && p->proc->cred.uid != c->uid &&
		    !capable(c, CAP_SYS_NICE)) {
			w->ret = -EPERM;
			return;
		}
		p->ioprio = w->ioprio;
		if (!p->ioc_id)
			p->ioc_id = ioc_new_id();
		w->ret = 0;
		return;
	}
	v = w->which == PRIO_PROCESS ? p->ioprio : ioprio_effective(p);
	if (w->ret == -ESRCH || v < w->ret)
		w->ret = v;
}

static void prio_one(struct prio_walk *w, struct task *p)
{
	if (w->io)
		ioprio_one(w, p);
	else if (w->set)
		set_one(w, p);
	else if (20 - p->nice > w->ret)
		w->ret = 20 - p->nice;
}

static long prio_walk(struct prio_walk *w)
{
	struct process *proc = NULL;
	struct task *p;

	w->ret = -ESRCH;
	if (w->which == PRIO_PROCESS) {
		p = find_task(w->caller, w->who);
		if (p)
			prio_one(w, p);
		return w->ret;
	}
	if (!w->who)
		w->who = w->which == PRIO_PGRP ? w->caller->proc->pgid
					       : (int)w->caller->proc->cred.uid;
	else if (w->which == PRIO_PGRP) /* the caller's pid namespace's number */
		w->who = pid_from_nr(task_pid_ns(w->caller), w->who) ?: -1;
	else /* a uid of the caller's user namespace (none: no process) */
		w->who = (int)make_kuid(cred_user_ns(&w->caller->proc->cred), (uint32_t)w->who);
	while ((proc = process_next(proc)) != NULL) {
		if (w->which == PRIO_PGRP ? proc->pgid != w->who
					  : proc->cred.uid != (uint32_t)w->who)
			continue;
		/* as Linux's task_pid_vnr(p): only those the caller sees */
		if (!pid_vnr(w->caller, proc->pid))
			continue;
		list_for_each_entry(p, &proc->threads, thread_link) prio_one(w, p);
	}
	return w->ret;
}

/* ioprio_set's value (Linux's ioprio_check_cap): classes RT (which needs
 * CAP_SYS_NICE or CAP_SYS_ADMIN), BE and IDLE at any level and hints;
 * NONE only at level 0; the other classes are EINVAL. */
int ioprio_check(const struct task *t, int v)
{
	const struct cred *c = &t->proc->cred;

	switch (IOPRIO_CLASS(v)) {
	case IOPRIO_CLASS_RT:
		if (!capable(c, CAP_SYS_NICE) && !capable(c, CAP_SYS_ADMIN))
			return -EPERM;
		return 0;
	case IOPRIO_CLASS_BE:
	case IOPRIO_CLASS_IDLE:
		return 0;
	case IOPRIO_CLASS_NONE:
		return (v & 7) ? -EINVAL : 0;
	default:
		return -EINVAL;
	}
}

long sys_ioprio_set(struct task *t, const struct sysargs *a)
{
	struct prio_walk w = { .caller = t,
			       .which = sysarg_int(a, 0),
			       .who = sysarg_int(a, 1),
			       .ioprio = (uint16_t)sysarg_int(a, 2),
			       .set = true,
			       .io = true };
	int ret = ioprio_check(t, sysarg_int(a, 2));

	if (ret < 0)
		return ret;
	if (w.which < 1 || w.which > 3)
		return -EINVAL;
	w.which--; /* IOPRIO_WHO_PROCESS is 1, PRIO_PROCESS 0 */
	return prio_walk(&w);
}

long sys_ioprio_get(struct task *t, const struct sysargs *a)
{
	struct prio_walk w = {
		.caller = t, .which = sysarg_int(a, 0), .who = sysarg_int(a, 1), .io = true
	};

	if (w.which < 1 || w.which > 3)
		return -EINVAL;
	w.which--; /* IOPRIO_WHO_PROCESS is 1, PRIO_PROCESS 0 */
	return prio_walk(&w);
}

long sys_getpriority(struct task *t, const struct sysargs *a)
{
	struct prio_walk w = { .caller = t, .which = sysarg_int(a, 0), .who = sysarg_int(a, 1) };

	if (w.which < PRIO_PROCESS || w.which > PRIO_USER)
		return -EINVAL;
	return prio_walk(&w);
}

long sys_setpriority(struct task *t, const struct sysargs *a)
{
	struct prio_walk w = { .caller = t,
			       .which = sysarg_int(a, 0),
			       .who = sysarg_int(a, 1),
			       .nice = sysarg_int(a, 2),
			       .set = true };

	if (w.which < PRIO_PROCESS || w.which > PRIO_USER)
		return -EINVAL;
	if (w.nice < -20)
		w.nice = -20;
	if (w.nice > 19)
		w.nice = 19;
	return prio_walk(&w);
}
