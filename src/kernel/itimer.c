/* kernel/itimer.c: alarm(2), setitimer(2), getitimer(2). ITIMER_REAL is one
 * kernel timer per process that sends SIGALRM and reloads its interval; as
 * in Linux it survives exec, is not inherited by fork and dies with the
 * process (itimer_exit).
 * ITIMER_VIRTUAL (user time, SIGVTALRM) and ITIMER_PROF (user and system
 * time, SIGPROF) count the process's CPU time (kernel/cputime.c), checked
 * every CPUTIMER_POLL_NS of wall time while one is armed (ptimer.c).
 * Differs from Linux: they fire up to CPUTIMER_POLL_NS late, and Linux
 * adds one tick to a value set. */
#include <string.h>

#include "kernel/task.h"
#include "kernel/ptimer.h"
#include "syscalls/dispatch.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"
#include "abi/linux/signal.h"
#include "abi/linux/types.h"

#define NSEC_PER_SEC  1000000000LL
#define NSEC_PER_USEC 1000LL
#define NSEC_MAX      (INT64_MAX / 4) /* far enough: deadlines cannot overflow */

static int64_t tv_to_ns(const struct linux_timeval *tv)
{
	if (tv->tv_sec >= NSEC_MAX / NSEC_PER_SEC)
		return NSEC_MAX;
	return tv->tv_sec * NSEC_PER_SEC + tv->tv_usec * NSEC_PER_USEC;
}

static struct linux_timeval ns_to_tv(int64_t ns)
{
	struct linux_timeval tv = { ns / NSEC_PER_SEC, (ns % NSEC_PER_SEC) / NSEC_PER_USEC };

	return tv;
}

static bool tv_valid(const struct linux_timeval *tv)
{
	return tv->tv_sec >= 0 && tv->tv_usec >= 0 && tv->tv_usec < 1000000;
}

/* ITIMER_REAL expired (in the scheduler): reload, then SIGALRM. */
static void it_real_fire(void *arg)
{
	struct process *p = arg;
	int64_t interval = p->it_real_interval_ns, next, now;
	struct linux_siginfo si;

	if (interval > 0) {
		/* The next period after now; missed ones are skipped, as
		 * Linux's hrtimer_forward does. */
		now = sched_now_ns();
		next = p->it_real.deadline_ns + interval;
		if (next <= now)
			next += ((now - next) / interval + 1) * interval;
		ktimer_arm(&p->it_real, next, it_real_fire, p);
	}
	memset(&si, 0, sizeof(si));
	si.si_signo = LINUX_SIGALRM;
	si.si_code = LINUX_SI_KERNEL;
	send_signal_info(p, NULL, LINUX_SIGALRM, &si);
}

/* Time left on ITIMER_REAL in ns: 0 if disarmed, at least 1 us if armed. */
static int64_t it_real_left(struct process *p)
{
	int64_t left;

	if (!p->it_real.armed)
		return 0;
	left = p->it_real.deadline_ns - sched_now_ns();
	return left > 0 ? left : NSEC_PER_USEC;
}

static void it_real_get(struct process *p, struct linux_itimerval *v)
{
	v->it_value = ns_to_tv(it_real_left(p));
	v->it_interval = ns_to_tv(p->it_real_interval_ns);
}

/* Sets ITIMER_REAL to value_ns (0: disarm) and interval_ns. */
static void it_real_set(struct process *p, int64_t value_ns, int64_t interval_ns)
{
	ktimer_cancel(&p->it_real);
	p->it_real_interval_ns = 0;
	if (value_ns == 0)
		return;
	p->it_real_interval_ns = interval_ns;
	ktimer_arm(&p->it_real, sched_now_ns() + value_ns, it_real_fire, p);
}

void itimer_exit(struct process *p)
{
	ktimer_cancel(&p->it_real);
	p->it_real_interval_ns = 0;
	p->it_cpu_expires[0] = p->it_cpu_expires[1] = 0;
	ktimer_cancel(&p->cpu_poll);
}

/* The process's CPU time for ITIMER_VIRTUAL or ITIMER_PROF (which - 1). */
static int64_t it_cpu_now(struct process *p, int i)
{
	struct cpuclock c = { false, p->pid, i == 0 ? CPUCLOCK_VIRT : CPUCLOCK_PROF };
	int64_t now = 0;

	cpuclock_read(&c, &now);
	return now;
}

static void it_cpu_get(struct process *p, int i, struct linux_itimerval *v)
{
	int64_t left = 0;

	if (p->it_cpu_expires[i]) {
		left = p->it_cpu_expires[i] - it_cpu_now(p, i);
		if (left < NSEC_PER_USEC)
			left = NSEC_PER_USEC; /* due: the signal is on its way */
	}
	v->it_value = ns_to_tv(left);
	v->it_interval = ns_to_tv(p->it_cpu_interval[i]);
}

static void it_cpu_set(struct process *p, int i, int64_t value_ns, int64_t interval_ns)
{
	p->it_cpu_expires[i] = 0;
	p->it_cpu_interval[i] = 0;
	if (value_ns == 0)
		return;
	p->it_cpu_expires[i] = it_cpu_now(p, i) + value_ns;
	p->it_cpu_interval[i] = interval_ns;
	cputimer_poll_start(p);
}

/* RLIMIT_CPU (seconds of user and system time), as Linux's
 * check_process_timers: at the hard limit SIGKILL; at the soft limit
 * SIGXCPU, and the soft limit grows by a second so that the next comes a
 * second later. prof: the process's PROF time if already read, else -1.
 * True while a limit is set. */
static bool rlimit_cpu_check(struct process *p, int64_t prof)
{
	struct linux_rlimit *rl = &p->rlim[LINUX_RLIMIT_CPU];
	struct linux_siginfo si;
	int64_t now;

	if (rl->rlim_cur == LINUX_RLIM_INFINITY)
		return false;
	now = prof >= 0 ? prof : it_cpu_now(p, 1);
	if (rl->rlim_max != LINUX_RLIM_INFINITY && rl->rlim_max <= INT64_MAX / NSEC_PER_SEC &&
	    now >= (int64_t)rl->rlim_max * NSEC_PER_SEC) {
		process_kill(p, LINUX_SIGKILL);
		return false;
	}
	if (rl->rlim_cur <= INT64_MAX / NSEC_PER_SEC &&
	    now >= (int64_t)rl->rlim_cur * NSEC_PER_SEC) {
		memset(&si, 0, sizeof(si));
		si.si_signo = LINUX_SIGXCPU;
		si.si_code = LINUX_SI_KERNEL;
		send_signal_cpu(p, LINUX_SIGXCPU, &si);
		if (rl->rlim_cur < rl->rlim_max)
			rl->rlim_cur++;
	}
	return true;
}

bool itimer_cpu_check(struct process *p)
{
	static const int signo[2] = { LINUX_SIGVTALRM, LINUX_SIGPROF };
	struct linux_siginfo si;
	bool armed = false;
	int64_t now, prof = -1;
	int i;

	for (i = 0; i < 2; i++) {
		if (!p->it_cpu_expires[i])
			continue;
		now = it_cpu_now(p, i);
		if (i == 1)
			prof = now;
		if (now >= p->it_cpu_expires[i]) {
			if (p->it_cpu_interval[i]) {
				int64_t iv = p->it_cpu_interval[i];

				p->it_cpu_expires[i] +=
					((now - p->it_cpu_expires[i]) / iv + 1) * iv;
			} else {
				p->it_cpu_expires[i] = 0;
			}
			memset(&si, 0, sizeof(si));
			si.si_signo = signo[i];
			si.si_code = LINUX_SI_KERNEL;
			send_signal_cpu(p, signo[i], &si);
		}
		armed |= p->it_cpu_expires[i] != 0;
	}
	/* One read of the PROF clock serves ITIMER_PROF and RLIMIT_CPU. */
	return rlimit_cpu_check(p, prof) || armed;
}

long sys_getitimer(struct task *t, const struct sysargs *a)
{
	int which = sysarg_int(a, 0);
	struct linux_itimerval v;

	switch (which) {
	case LINUX_ITIMER_REAL:
		it_real_get(t->proc, &v);
		break;
	case LINUX_ITIMER_VIRTUAL:
	case LINUX_ITIMER_PROF:
		it_cpu_get(t->proc, which - 1, &v);
		break;
	default:
		return -EINVAL;
	}
	if (copy_to_user(t->mm, sysarg_uaddr(a, 1), &v, sizeof(v)) < 0)
		return -EFAULT;
	return 0;
}

long sys_setitimer(struct task *t, const struct sysargs *a)
{
	int which = sysarg_int(a, 0);
	uaddr_t uval = sysarg_uaddr(a, 1), uold = sysarg_uaddr(a, 2);
	struct linux_itimerval v, old;
	struct process *p = t->proc;

	memset(&v, 0, sizeof(v)); /* a NULL value disarms, as Linux allows */
	if (uval) {
		if (copy_from_user(t->mm, &v, uval, sizeof(v)) < 0)
			return -EFAULT;
		if (!tv_valid(&v.it_value) || !tv_valid(&v.it_interval))
			return -EINVAL;
	}
	switch (which) {
	case LINUX_ITIMER_REAL:
		it_real_get(p, &old);
		it_real_set(p, tv_to_ns(&v.it_value), tv_to_ns(&v.it_interval));
		break;
	case LINUX_ITIMER_VIRTUAL:
	case LINUX_ITIMER_PROF:
		it_cpu_get(p, which - 1, &old);
		it_cpu_set(p, which - 1, tv_to_ns(&v.it_value), tv_to_ns(&v.it_interval));
		break;
	default:
		return -EINVAL;
	}
	if (uold && copy_to_user(t->mm, uold, &old, sizeof(old)) < 0)
		return -EFAULT;
	return 0;
}

/* alarm(2): ITIMER_REAL in whole seconds. The seconds left are rounded to
 * the nearest, and never 0 while an alarm is pending, as in Linux. */
long sys_alarm(struct task *t, const struct sysargs *a)
{
	unsigned seconds = sysarg_uint(a, 0);
	int64_t left = it_real_left(t->proc);
	int64_t secs = left / NSEC_PER_SEC, rem = left % NSEC_PER_SEC;

	it_real_set(t->proc, (int64_t)seconds * NSEC_PER_SEC, 0);
	if ((secs == 0 && rem > 0) || rem >= NSEC_PER_SEC / 2)
		secs++;
	return secs;
}
