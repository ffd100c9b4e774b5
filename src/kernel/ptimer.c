/* kernel/ptimer.c: POSIX timers: timer_create, timer_settime, timer_gettime,
 * timer_getoverrun, timer_delete. A timer belongs to a process (never
 * inherited by fork, deleted at exec and exit) and runs on a kernel timer
 * on the monotonic clock. At expiry it queues its signal (SI_TIMER, with
 * si_timerid and si_value) to the process or, with SIGEV_THREAD_ID, to one
 * of its threads; while that signal is still queued further expiries are
 * only counted, and the count becomes the signal's si_overrun when it is
 * taken (and timer_getoverrun's value), as in Linux. SIGEV_NONE timers
 * never fire: timer_gettime computes what is left. A signal still queued
 * when its timer is set again or deleted is dropped when it would be taken
 * (it stays in sigpending until then), as in Linux 6.13 and later.
 * Timers on CPU-time clocks (CLOCK_PROCESS_CPUTIME_ID,
 * CLOCK_THREAD_CPUTIME_ID, those of clock_getcpuclockid and
 * pthread_getcpuclockid) are checked by sampling their clock every
 * CPUTIMER_POLL_NS of wall time while one is armed (Linux checks them at
 * each tick of the CPU they run on).
 * Differs from Linux: absolute CLOCK_REALTIME/TAI deadlines are turned into
 * monotonic ones when set (a later change of the host's clock does not move
 * them); a CPU timer fires up to CPUTIMER_POLL_NS late, and one whose
 * thread or process is gone is disarmed; the
 * alarm clocks behave as their plain clocks; a timer's signal that is a
 * standard signal already pending from another sender merges with it (its
 * timer fields are lost); at most TIMERS_MAX timers per process. */
#include <stdlib.h>
#include <string.h>

#include "kernel/ktime.h"
#include "kernel/ptimer.h"
#include "kernel/task.h"
#include "kernel/timens.h"
#include "kernel/pidns.h"
#include "syscalls/dispatch.h"
#include "mm/usercopy.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"
#include "abi/linux/signal.h"
#include "abi/linux/types.h"

#define TIMERS_MAX     32768 /* per process: kernel memory */
#define CAP_WAKE_ALARM 35
#define TIMER_ID_MAX   INT32_MAX

struct ptimer {
	struct list_head link; /* in proc->ptimers */
	struct process *proc;
	int id;
	int clockid;
	int notify; /* LINUX_SIGEV_SIGNAL, _NONE, or _THREAD_ID */
	int signo;
	int tid; /* SIGEV_THREAD_ID: the thread */
	union linux_sigval value;
	bool armed;
	/* Its signal is queued: the kernel timer stays off until the signal
	 * is taken, which counts the periods since as overruns and re-arms
	 * it (Linux's posixtimer_rearm): a timer whose signal waits costs
	 * nothing however short its interval. */
	bool waiting;
	int64_t expires_ns;  /* monotonic (sched_now_ns) */
	int64_t interval_ns; /* 0: one-shot */
	uint64_t overrun;    /* expirations while its signal was queued */
	int overrun_last;    /* the last delivered signal's si_overrun */
	int gen;	     /* > 0; one more at each timer_settime */
	bool cpu;	     /* on a CPU-time clock: expires_ns is in its time */
	struct cpuclock clk;
	struct ktimer tm;
};

static struct ptimer *ptimer_find(struct process *p, int id)
{
	struct ptimer *pt;

	list_for_each_entry(pt, &p->ptimers, link)
	{
		if (pt->id == id)
			return pt;
	}
	return NULL;
}

/* Moves an armed timer past now: returns the expirations that were due
 * (0 if none); a one-shot timer that expired is disarmed. */
static uint64_t ptimer_forward(struct ptimer *pt, int64_t now)
{
	uint64_t n;

	if (!pt->armed || now < pt->expires_ns)
		return 0;
	n = 1;
	if (pt->interval_ns) {
		n += (uint64_t)(now - pt->expires_ns) / (uint64_t)pt->interval_ns;
		if (n > (uint64_t)KTIME_MAX / (uint64_t)pt->interval_ns)
			pt->expires_ns = KTIME_MAX;
		else
			pt->expires_ns = add_sat(pt->expires_ns, (int64_t)n * pt->interval_ns);
	} else {
		pt->armed = false;
	}
	return n;
}

static void ptimer_fire(void *arg);

static void ptimer_arm(struct ptimer *pt)
{
	if (!pt->armed || pt->notify == LINUX_SIGEV_NONE)
		return;
	if (pt->cpu)
		cputimer_poll_start(pt->proc);
	else
		ktimer_arm(&pt->tm, pt->expires_ns, ptimer_fire, pt);
}

/* The time now on the timer's clock: monotonic, or its CPU clock (-1 if
 * that thread or process is gone). */
static int64_t ptimer_now(struct ptimer *pt)
{
	int64_t now;

	if (!pt->cpu)
		return sched_now_ns();
	return cpuclock_read(&pt->clk, &now) < 0 ? -1 : now;
}

/* n expirations are due: queue the signal, or count overruns if the last
 * one is still queued. True if its signal is queued now. */
static bool ptimer_expired(struct ptimer *pt, uint64_t n)
{
	struct process *p = pt->proc;
	struct task *thread = NULL;
	struct linux_siginfo si;

	if (pt->notify == LINUX_SIGEV_THREAD_ID) {
		thread = task_by_tid(pt->tid);
		if (!thread || thread->proc != p || thread->state == TASK_DEAD)
			return false; /* the thread is gone: nobody to tell */
	}
	switch (signal_timer_queued(p, thread, pt->signo, pt->id, pt->gen)) {
	case 1:
		pt->overrun += n;
		return true;
	case 2:
		pt->overrun += n - 1;
		return true;
	}
	pt->overrun += n - 1; /* periods the scheduler passed over */
	memset(&si, 0, sizeof(si));
	si.si_signo = pt->signo;
	si.si_code = LINUX_SI_TIMER;
	si.fields.timer.tid = pt->id;
	si.fields.timer.sigval = pt->value;
	si.fields.timer.sys_private = pt->gen; /* queued by this setting of the timer */
	if (!thread && pt->cpu && !pt->clk.thread && pt->clk.id == p->pid)
		send_signal_cpu(p, pt->signo, &si); /* the process's own CPU clock */
	else
		send_signal_info(p, thread, pt->signo, &si);
	/* not if ignored, or the process is going */
	return signal_timer_queued(p, thread, pt->signo, pt->id, pt->gen) == 1;
}

/* Its signal goes nowhere: ignored by the process (SIG_IGN, or a default
 * that ignores), or its thread is gone. */
static bool ptimer_unheard(struct ptimer *pt)
{
	const struct linux_sigaction *sa = &pt->proc->sigactions[pt->signo - 1];
	struct task *thread;

	if (pt->notify == LINUX_SIGEV_THREAD_ID) {
		thread = task_by_tid(pt->tid);
		if (!thread || thread->proc != pt->proc || thread->state == TASK_DEAD)
			return true;
	}
	return sa->handler == LINUX_SIG_IGN ||
	       (sa->handler == LINUX_SIG_DFL &&
		(pt->signo == LINUX_SIGCHLD || pt->signo == LINUX_SIGURG ||
		 pt->signo == LINUX_SIGWINCH || pt->signo == LINUX_SIGCONT));
}

/* The kernel timer ran out (in the scheduler). */
static void ptimer_fire(void *arg)
{
	struct ptimer *pt = arg;
	uint64_t n = ptimer_forward(pt, sched_now_ns());
	bool queued = n && ptimer_expired(pt, n);

	/* Not armed again while its signal is queued, nor while the signal
	 * goes nowhere (ignored: until a sigaction takes it again; the
	 * thread gone: until set again), as Linux 6.13's ignored timers. */
	if (n && pt->armed && (queued || ptimer_unheard(pt)))
		pt->waiting = true;
	else
		ptimer_arm(pt);
}

/* Every CPUTIMER_POLL_NS while a CPU timer is armed (in the scheduler):
 * samples their clocks and fires those that are due. */
static void cputimer_poll(void *arg)
{
	struct process *p = arg;
	struct ptimer *pt, *next;
	bool again = false;
	int64_t now;
	uint64_t n;

	list_for_each_entry_safe(pt, next, &p->ptimers, link)
	{
		if (!pt->cpu || !pt->armed || pt->notify == LINUX_SIGEV_NONE)
			continue;
		now = ptimer_now(pt);
		if (now < 0) {
			pt->armed = false; /* its thread or process is gone */
			continue;
		}
		n = ptimer_forward(pt, now);
		if (n)
			ptimer_expired(pt, n);
		again |= pt->armed;
	}
	again |= itimer_cpu_check(p);
	if (again && !p->zombie)
		ktimer_arm(&p->cpu_poll, sched_now_ns() + CPUTIMER_POLL_NS, cputimer_poll, p);
}

void cputimer_poll_start(struct process *p)
{
	if (!p->cpu_poll.armed && !p->zombie)
		ktimer_arm(&p->cpu_poll, sched_now_ns() + CPUTIMER_POLL_NS, cputimer_poll, p);
}

/* The timer of a queued signal (NULL: a stale one, or not a timer's). */
static struct ptimer *ptimer_of(struct process *p, const struct linux_siginfo *info)
{
	int gen = info->fields.timer.sys_private;
	struct ptimer *pt;

	if (!gen)
		return NULL;
	pt = ptimer_find(p, info->fields.timer.tid);
	return pt && pt->gen == gen ? pt : NULL;
}

/* Its signal is taken or thrown away: a waiting timer runs on, the
 * periods since its expiry counted as overruns. */
static void ptimer_rearm(struct ptimer *pt)
{
	if (!pt->waiting)
		return;
	pt->waiting = false;
	pt->overrun += ptimer_forward(pt, sched_now_ns());
	ptimer_arm(pt);
}

void ptimer_sig_unignored(struct process *p, int sig)
{
	struct ptimer *pt;

	list_for_each_entry(pt, &p->ptimers, link)
	{
		if (pt->waiting && pt->signo == sig && pt->notify != LINUX_SIGEV_NONE &&
		    signal_timer_queued(p, NULL, sig, pt->id, pt->gen) != 1)
			ptimer_rearm(pt);
	}
}

void ptimer_discarded(struct process *p, const struct linux_siginfo *info)
{
	struct ptimer *pt = ptimer_of(p, info);

	if (pt)
		ptimer_rearm(pt);
}

bool ptimer_dequeued(struct process *p, struct linux_siginfo *info)
{
	bool mine = info->fields.timer.sys_private != 0;
	struct ptimer *pt = ptimer_of(p, info);

	info->fields.timer.sys_private = 0;
	if (!mine)
		return true; /* sent by rt_sigqueueinfo, not by a timer */
	if (!pt)
		return false;
	ptimer_rearm(pt);
	pt->overrun_last = pt->overrun > INT32_MAX ? INT32_MAX : (int)pt->overrun;
	pt->overrun = 0;
	info->fields.timer.overrun = pt->overrun_last;
	return true;
}

static void ptimer_free(struct ptimer *pt)
{
	ktimer_cancel(&pt->tm);
	list_del(&pt->link);
	pt->proc->nptimers--;
	free(pt);
}

void ptimer_exit(struct process *p)
{
	while (!list_empty(&p->ptimers))
		ptimer_free(list_first_entry(&p->ptimers, struct ptimer, link));
	if (p->zombie)
		ktimer_cancel(&p->cpu_poll); /* at exec the CPU itimers go on */
}

/* Linux's good_sigevent(): 0 or -EINVAL. */
static int check_sigevent(struct task *t, const struct linux_sigevent *ev)
{
	struct task *target;

	switch (ev->sigev_notify) {
	case LINUX_SIGEV_SIGNAL | LINUX_SIGEV_THREAD_ID:
		target = task_by_vtid(t, ev->un.tid);
		if (!target || target->proc != t->proc || target->state == TASK_DEAD)
			return -EINVAL;
		/* fall through */
	case LINUX_SIGEV_SIGNAL:
	case LINUX_SIGEV_THREAD:
		if (ev->sigev_signo <= 0 || ev->sigev_signo > LINUX_SIGRTMAX)
			return -EINVAL;
		return 0;
	case LINUX_SIGEV_NONE:
		return 0;
	default:
		return -EINVAL;
	}
}

static int timer_clock_ok(struct task *t, int clockid)
{
	struct cpuclock c;

	if (clockid < 0 && (clockid & 7) == 3)
		return -EOPNOTSUPP; /* a dynamic (fd) clock: they have no timers */
	if (cpuclock_is(clockid))
		return cpuclock_lookup(t, clockid, &c);
	switch (clockid) {
	case LINUX_CLOCK_REALTIME:
	case LINUX_CLOCK_MONOTONIC:
	case LINUX_CLOCK_BOOTTIME:
	case LINUX_CLOCK_TAI:
		return 0;
	case LINUX_CLOCK_REALTIME_ALARM:
	case LINUX_CLOCK_BOOTTIME_ALARM:
		return capable(&t->proc->cred, CAP_WAKE_ALARM) ? 0 : -EPERM;
	case LINUX_CLOCK_MONOTONIC_RAW:
	case LINUX_CLOCK_REALTIME_COARSE:
	case LINUX_CLOCK_MONOTONIC_COARSE:
		return -EOPNOTSUPP; /* clocks without timers, as Linux */
	default:
		return -EINVAL;
	}
}

static int alloc_id(struct process *p)
{
	int tries;

	for (tries = 0; tries < TIMERS_MAX + 1; tries++) {
		int id = p->next_timer_id;

		p->next_timer_id = id == TIMER_ID_MAX ? 0 : id + 1;
		if (!ptimer_find(p, id))
			return id;
	}
	return -EAGAIN;
}

long sys_timer_create(struct task *t, const struct sysargs *a)
{
	int clockid = sysarg_int(a, 0);
	uaddr_t uev = sysarg_uaddr(a, 1), uid = sysarg_uaddr(a, 2);
	struct process *p = t->proc;
	struct linux_sigevent ev;
	struct ptimer *pt;
	int ret, id;

	if (uev && copy_from_user(t->mm, &ev, uev, sizeof(ev)) < 0)
		return -EFAULT;
	ret = timer_clock_ok(t, clockid);
	if (ret < 0)
		return ret;
	if (uev) {
		ret = check_sigevent(t, &ev);
		if (ret < 0)
			return ret;
	}
	if ((uint64_t)p->nptimers >= p->rlim[LINUX_RLIMIT_SIGPENDING].rlim_cur ||
	    p->nptimers >= TIMERS_MAX)
		return -EAGAIN;
	id = alloc_id(p);
	if (id < 0)
		return id;
	pt = calloc(1, sizeof(*pt));
	if (!pt)
		return -ENOMEM;
	pt->proc = p;
	pt->id = id;
	pt->gen = 1;
	pt->clockid = clockid;
	if (cpuclock_is(clockid)) {
		pt->cpu = true;
		cpuclock_lookup(t, clockid, &pt->clk);
	}
	if (uev) {
		pt->notify = ev.sigev_notify == LINUX_SIGEV_THREAD ? LINUX_SIGEV_SIGNAL
								   : ev.sigev_notify;
		if (pt->notify & LINUX_SIGEV_THREAD_ID)
			pt->notify = LINUX_SIGEV_THREAD_ID;
		pt->signo = ev.sigev_signo;
		pt->tid = pid_from_nr(task_pid_ns(t), ev.un.tid); /* the instance's */
		pt->value = ev.sigev_value;
	} else {
		/* No sigevent: SIGALRM with the timer id as its value. */
		pt->notify = LINUX_SIGEV_SIGNAL;
		pt->signo = LINUX_SIGALRM;
		pt->value.sival_ptr = 0;
		pt->value.sival_int = id;
	}
	list_add_tail(&pt->link, &p->ptimers);
	p->nptimers++;
	if (copy_to_user(t->mm, uid, &id, sizeof(id)) < 0) {
		ptimer_free(pt);
		return -EFAULT;
	}
	return 0;
}

/* timer_gettime's view: time to the next expiry and the interval. A
 * periodic timer is always in the future; an expired one-shot gives 0. */
static void ptimer_get(struct ptimer *pt, struct linux_itimerspec *cur)
{
	int64_t now = ptimer_now(pt), left = 0;

	if (now < 0)
		pt->armed = false;
	else if (pt->notify == LINUX_SIGEV_NONE)
		ptimer_forward(pt, now);
	else if (pt->waiting)
		pt->overrun += ptimer_forward(pt, now); /* still waiting */
	if (pt->armed) {
		left = pt->expires_ns - now;
		if (left <= 0)
			left = 1; /* due: the signal is on its way */
	}
	cur->it_value = ns_to_ts(left);
	cur->it_interval = ns_to_ts(pt->interval_ns);
}

static int base_clock(int clockid)
{
	switch (clockid) {
	case LINUX_CLOCK_REALTIME_ALARM:
		return LINUX_CLOCK_REALTIME;
	case LINUX_CLOCK_BOOTTIME_ALARM:
		return LINUX_CLOCK_BOOTTIME;
	default:
		return clockid;
	}
}

long sys_timer_settime(struct task *t, const struct sysargs *a)
{
	int flags = sysarg_int(a, 1);
	uaddr_t unew = sysarg_uaddr(a, 2), uold = sysarg_uaddr(a, 3);
	struct linux_itimerspec nv, old;
	struct ptimer *pt;
	int64_t now, value;

	if (!unew)
		return -EINVAL;
	if (copy_from_user(t->mm, &nv, unew, sizeof(nv)) < 0)
		return -EFAULT;
	if (!ts_valid(&nv.it_value) || !ts_valid(&nv.it_interval))
		return -EINVAL;
	pt = ptimer_find(t->proc, sysarg_int(a, 0));
	if (!pt)
		return -EINVAL;
	ptimer_get(pt, &old);
	ktimer_cancel(&pt->tm);
	pt->armed = pt->waiting = false;
	pt->overrun = 0;
	pt->overrun_last = 0;
	pt->gen = pt->gen == INT32_MAX ? 1 : pt->gen + 1; /* queued signals are stale */
	pt->interval_ns = 0;
	value = ts_to_ns(&nv.it_value);
	now = ptimer_now(pt);
	if (value && now >= 0) {
		pt->interval_ns = ts_to_ns(&nv.it_interval);
		if (pt->cpu) {
			/* CPU time: absolute values are on that clock itself */
			pt->expires_ns =
				(flags & LINUX_TIMER_ABSTIME) ? value : add_sat(now, value);
		} else if (flags & LINUX_TIMER_ABSTIME) {
			int64_t clk = host_clock_ns(base_clock(pt->clockid));

			value = timens_to_host(t, pt->clockid, value);
			pt->expires_ns = value > clk ? add_sat(now, value - clk) : now;
		} else {
			pt->expires_ns = add_sat(now, value);
		}
		pt->armed = true;
		ptimer_arm(pt);
	}
	if (uold && copy_to_user(t->mm, uold, &old, sizeof(old)) < 0)
		return -EFAULT;
	return 0;
}

long sys_timer_gettime(struct task *t, const struct sysargs *a)
{
	struct linux_itimerspec cur;
	struct ptimer *pt = ptimer_find(t->proc, sysarg_int(a, 0));

	if (!pt)
		return -EINVAL;
	ptimer_get(pt, &cur);
	return copy_to_user(t->mm, sysarg_uaddr(a, 1), &cur, sizeof(cur));
}

long sys_timer_getoverrun(struct task *t, const struct sysargs *a)
{
	struct ptimer *pt = ptimer_find(t->proc, sysarg_int(a, 0));

	if (!pt)
		return -EINVAL;
	return pt->overrun_last;
}

long sys_timer_delete(struct task *t, const struct sysargs *a)
{
	struct ptimer *pt = ptimer_find(t->proc, sysarg_int(a, 0));

	if (!pt)
		return -EINVAL;
	ptimer_free(pt);
	return 0;
}
