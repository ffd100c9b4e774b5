/* syscalls/sys_time.c: clocks, sleeping and CPU accounting (getrusage,
 * times). The CPU-time clocks (CLOCK_PROCESS_CPUTIME_ID,
 * CLOCK_THREAD_CPUTIME_ID and the clocks named by pid or tid that
 * clock_getcpuclockid and pthread_getcpuclockid make) read kernel/cputime.c.
 * Differs from Linux: times() returns CLOCK_BOOTTIME in ticks (Linux: its
 * jiffies counter, which starts 5 minutes below 2^32); adjtimex and
 * clock_adjtime only read, and settimeofday and clock_settime set nothing
 * (any setting is EPERM: the guest may not set the host's clock). */
#include <string.h>

#include "mm/commit.h"
#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "kernel/ktime.h"
#include "kernel/timens.h"
#include "kernel/sched.h"
#include "mm/usercopy.h"
#include "host/host.h"
#include "kernel/cputime.h"
#include "fs/procfs/procfs.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"
#include "abi/linux/types.h"

static int clock_host_id(struct task *t, int clk)
{
	switch (clk) {
	case LINUX_CLOCK_REALTIME:
	case LINUX_CLOCK_MONOTONIC:
	case LINUX_CLOCK_MONOTONIC_RAW:
	case LINUX_CLOCK_REALTIME_COARSE:
	case LINUX_CLOCK_MONOTONIC_COARSE:
	case LINUX_CLOCK_BOOTTIME:
	case LINUX_CLOCK_TAI:
		return clk;
	default:
		(void)t;
		return -EINVAL;
	}
}

long sys_clock_gettime(struct task *t, const struct sysargs *a)
{
	int clk = sysarg_int(a, 0), id;
	struct linux_timespec ts;
	struct cpuclock c;
	int64_t ns;

	if (cpuclock_is(clk)) {
		int ret = cpuclock_lookup(t, clk, &c);

		if (ret == 0)
			ret = cpuclock_read(&c, &ns);
		if (ret < 0)
			return ret;
		ts = ns_to_ts(ns);
		return copy_to_user(t->mm, sysarg_uaddr(a, 1), &ts, sizeof(ts));
	}
	id = clock_host_id(t, clk);
	if (id == -EINVAL)
		return -EINVAL;
	ns = host_clock_ns(id);
	if (ns < 0)
		return ns;
	ts = ns_to_ts(timens_to_task(t, clk, ns));
	return copy_to_user(t->mm, sysarg_uaddr(a, 1), &ts, sizeof(ts));
}

long sys_clock_getres(struct task *t, const struct sysargs *a)
{
	int clk = sysarg_int(a, 0), id;
	struct linux_timespec ts;
	struct cpuclock c;
	int64_t res;
	int ret;

	if (cpuclock_is(clk)) {
		ret = cpuclock_lookup(t, clk, &c);
		if (ret < 0)
			return ret;
		/* As Linux: 1 ns for run time, a tick for the others (the
		 * host's own PROF clock says how long one is). */
		res = 1;
		if (c.which != CPUCLOCK_SCHED && host_clock_res_ns(-8 /* own PROF */, &res) < 0)
			res = 10000000;
		(void)id;
	} else {
		id = clock_host_id(t, clk);
		if (id == -EINVAL)
			return -EINVAL;
		ret = host_clock_res_ns(id, &res);
	}
	if (ret < 0)
		return ret;
	if (!sysarg_uaddr(a, 1))
		return 0;
	ts = ns_to_ts(res);
	return copy_to_user(t->mm, sysarg_uaddr(a, 1), &ts, sizeof(ts));
}

long sys_gettimeofday(struct task *t, const struct sysargs *a)
{
	int64_t ns = host_clock_ns(LINUX_CLOCK_REALTIME);
	struct linux_timeval tv = { ns / NSEC_PER_SEC, (ns % NSEC_PER_SEC) / 1000 };
	int32_t tz[2] = { 0, 0 };

	if (sysarg_uaddr(a, 0) && copy_to_user(t->mm, sysarg_uaddr(a, 0), &tv, sizeof(tv)) < 0)
		return -EFAULT;
	if (sysarg_uaddr(a, 1) && copy_to_user(t->mm, sysarg_uaddr(a, 1), tz, sizeof(tz)) < 0)
		return -EFAULT;
	return 0;
}

long sys_time(struct task *t, const struct sysargs *a)
{
	int64_t s = host_clock_ns(LINUX_CLOCK_REALTIME) / NSEC_PER_SEC;

	if (sysarg_uaddr(a, 0) && copy_to_user(t->mm, sysarg_uaddr(a, 0), &s, sizeof(s)) < 0)
		return -EFAULT;
	return s;
}

static int get_timespec(struct task *t, uaddr_t u, int64_t *ns)
{
	struct linux_timespec ts;

	if (copy_from_user(t->mm, &ts, u, sizeof(ts)) < 0)
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;
	if (ts.tv_sec > INT64_MAX / NSEC_PER_SEC - 1)
		*ns = INT64_MAX / 2;
	else
		*ns = ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
	return 0;
}

static long sleep_ns(struct task *t, int64_t deadline_mono, uaddr_t urem);

static long sleep_restart(struct task *t)
{
	return sleep_ns(t, t->restart_deadline, t->restart_urem);
}

/* Sleeps the task; the kernel goes on with others meanwhile. A signal ends
 * the sleep: EINTR with the time left in *urem if a handler runs, else
 * restart_syscall(2) sleeps on to the same deadline. */
static long sleep_ns(struct task *t, int64_t deadline_mono, uaddr_t urem)
{
	int64_t now;

	while ((now = sched_now_ns()) < deadline_mono) {
		if (signal_pending(t)) {
			struct linux_timespec rem = ns_to_ts(deadline_mono - now);

			if (urem && copy_to_user(t->mm, urem, &rem, sizeof(rem)) < 0)
				return -EFAULT;
			t->restart_fn = sleep_restart;
			t->restart_deadline = deadline_mono;
			t->restart_urem = urem;
			return -ERESTART_RESTARTBLOCK;
		}
		sched_sleep_until(deadline_mono);
	}
	return 0;
}

long sys_nanosleep(struct task *t, const struct sysargs *a)
{
	int64_t ns;
	int ret = get_timespec(t, sysarg_uaddr(a, 0), &ns);

	if (ret < 0)
		return ret;
	return sleep_ns(t, add_sat(sched_now_ns(), ns), sysarg_uaddr(a, 1));
}

long sys_clock_nanosleep(struct task *t, const struct sysargs *a)
{
	int clk = sysarg_int(a, 0), flags = sysarg_int(a, 1);
	int64_t ns, now;
	int ret;

	switch (clk) {
	case LINUX_CLOCK_REALTIME:
	case LINUX_CLOCK_MONOTONIC:
	case LINUX_CLOCK_BOOTTIME:
	case LINUX_CLOCK_TAI:
		break;
	case LINUX_CLOCK_THREAD_CPUTIME_ID:
		return -EINVAL;
	case LINUX_CLOCK_PROCESS_CPUTIME_ID:
		return -ENOTSUP;
	case LINUX_CLOCK_MONOTONIC_RAW:
	case LINUX_CLOCK_REALTIME_COARSE:
	case LINUX_CLOCK_MONOTONIC_COARSE:
		return -EOPNOTSUPP; /* clocks one cannot sleep on, as Linux */
	default:
		return -EINVAL;
	}
	ret = get_timespec(t, sysarg_uaddr(a, 2), &ns);
	if (ret < 0)
		return ret;
	if (flags & LINUX_TIMER_ABSTIME) {
		now = timens_to_task(t, clk, host_clock_ns(clk));
		/* Differs from Linux: an absolute sleep does not follow later
		 * changes of CLOCK_REALTIME. */
		return sleep_ns(t, add_sat(sched_now_ns(), ns > now ? ns - now : 0), 0);
	}
	return sleep_ns(t, add_sat(sched_now_ns(), ns), sysarg_uaddr(a, 3));
}

/* sysinfo: the instance's uptime, task count and load average; memory as
 * /proc/meminfo shows it (the --memory limit); no swap. */
long sys_sysinfo(struct task *t, const struct sysargs *a)
{
	struct linux_sysinfo si;
	int ret;

	memset(&si, 0, sizeof(si));
	si.uptime = procfs_uptime_ns(t) / NSEC_PER_SEC; /* /proc/uptime's (it was the host's) */
	ret = mem_meminfo(&si.totalram, &si.freeram, &si.sharedram, &si.bufferram);
	if (ret < 0)
		return ret;
	si.procs = (uint16_t)task_count();
	loadavg_update(sched_now_ns(), 0);
	loadavg_get(si.loads, 0, 16 - 11); /* SI_LOAD_SHIFT, FSHIFT */
	si.mem_unit = 1;
	return copy_to_user(t->mm, sysarg_uaddr(a, 0), &si, sizeof(si));
}

/* getrusage(2) */
long sys_getrusage(struct task *t, const struct sysargs *a)
{
	struct linux_rusage ru;
	struct cpu_usage u;

	switch (sysarg_int(a, 0)) {
	case LINUX_RUSAGE_SELF:
		cputime_process(t->proc, &u);
		break;
	case LINUX_RUSAGE_CHILDREN:
		cputime_children(t->proc, &u);
		break;
	case LINUX_RUSAGE_THREAD:
		cputime_task(t, &u);
		break;
	default:
		return -EINVAL;
	}
	cputime_to_rusage(&u, &ru);
	return copy_to_user(t->mm, sysarg_uaddr(a, 1), &ru, sizeof(ru));
}

#define TICK_NS (NSEC_PER_SEC / 100) /* USER_HZ */

/* times(2): the process's and its reaped children's times in ticks. */
long sys_times(struct task *t, const struct sysargs *a)
{
	uaddr_t ubuf = sysarg_uaddr(a, 0);
	struct cpu_usage u, c;
	struct linux_tms tms;

	if (ubuf) {
		cputime_process(t->proc, &u);
		cputime_children(t->proc, &c);
		tms.tms_utime = u.utime / TICK_NS;
		tms.tms_stime = u.stime / TICK_NS;
		tms.tms_cutime = c.utime / TICK_NS;
		tms.tms_cstime = c.stime / TICK_NS;
		if (copy_to_user(t->mm, ubuf, &tms, sizeof(tms)) < 0)
			return -EFAULT;
	}
	return host_clock_ns(LINUX_CLOCK_BOOTTIME) / TICK_NS;
}

/* adjtimex and clock_adjtime on CLOCK_REALTIME: read-only. Linux's checks
 * first (ADJ_ADJTIME needs ADJ_OFFSET_SINGLESHOT), then any mode that
 * would set something is EPERM: the guest may not change the host's
 * clock (differs from Linux for a guest with CAP_SYS_TIME). */
static long do_adjtime(struct task *t, uaddr_t ubuf)
{
	struct linux_timex tx;
	int ret;

	if (copy_from_user(t->mm, &tx, ubuf, sizeof(tx)) < 0)
		return -EFAULT;
	if (tx.modes & LINUX_ADJ_ADJTIME) {
		if (!(tx.modes & LINUX_ADJ_OFFSET_SINGLESHOT))
			return -EINVAL;
		/* adjtime(2)'s mode: only the offset counts */
		if (!(tx.modes & LINUX_ADJ_OFFSET_READONLY))
			return -EPERM;
		tx.modes = LINUX_ADJ_OFFSET_SS_READ;
	} else if (tx.modes != 0) {
		return -EPERM;
	}
	ret = host_adjtime_read(tx.modes, &tx);
	if (ret < 0)
		return ret;
	if (copy_to_user(t->mm, ubuf, &tx, sizeof(tx)) < 0)
		return -EFAULT;
	return ret;
}

long sys_adjtimex(struct task *t, const struct sysargs *a)
{
	return do_adjtime(t, sysarg_uaddr(a, 0));
}

long sys_clock_adjtime(struct task *t, const struct sysargs *a)
{
	int clk = sysarg_int(a, 0);

	if (clk == LINUX_CLOCK_REALTIME)
		return do_adjtime(t, sysarg_uaddr(a, 1));
	/* As Linux's clockid_to_kclock: the other clocks, CPU-time clocks
	 * included (whatever pid they name), cannot be adjusted; there are no
	 * dynamic (fd) clocks. */
	if ((clk < 0 && (clk & 7) != 3) ||
	    (clk >= 0 && clk <= LINUX_CLOCK_TAI && clk != LINUX_CLOCK_SGI_CYCLE))
		return -EOPNOTSUPP;
	return -EINVAL;
}

/* settimeofday and clock_settime: Linux's checks in Linux's order, then
 * EPERM where Linux would set the clock: the guest may not set the host's
 * clock, and skas keeps none of its own (the vDSO reads the host's), so
 * root inside is as root in a container without CAP_SYS_TIME. A valid
 * time is what Linux accepts (timespec64_valid_settod): not negative, and
 * 30 years short of where ktime_t overflows. */
#define SETTOD_SEC_MAX (9223372036LL - 30LL * 365 * 24 * 3600)

static bool settod_valid(int64_t sec, int64_t nsec)
{
	return sec >= 0 && sec < SETTOD_SEC_MAX && nsec >= 0 && nsec < NSEC_PER_SEC;
}

long sys_settimeofday(struct task *t, const struct sysargs *a)
{
	uaddr_t utv = sysarg_uaddr(a, 0), utz = sysarg_uaddr(a, 1);
	struct linux_timeval tv;
	int32_t tz[2];

	if (utv) {
		if (copy_from_user(t->mm, &tv, utv, sizeof(tv)) < 0)
			return -EFAULT;
		if (tv.tv_usec >= 1000000 || tv.tv_usec < 0)
			return -EINVAL;
	}
	if (utz && copy_from_user(t->mm, tz, utz, sizeof(tz)) < 0)
		return -EFAULT;
	if (utv && !settod_valid(tv.tv_sec, 0))
		return -EINVAL;
	return -EPERM;
}

long sys_clock_settime(struct task *t, const struct sysargs *a)
{
	int clk = sysarg_int(a, 0);
	struct linux_timespec ts;
	struct cpuclock c;

	/* Of the numbered clocks only CLOCK_REALTIME can be set; a CPU-time
	 * clock named by pid or tid, or a dynamic (fd) clock, can be tried */
	if (clk >= 0 && clk != LINUX_CLOCK_REALTIME)
		return -EINVAL;
	if (copy_from_user(t->mm, &ts, sysarg_uaddr(a, 1), sizeof(ts)) < 0)
		return -EFAULT;
	if (clk == LINUX_CLOCK_REALTIME)
		return settod_valid(ts.tv_sec, ts.tv_nsec) ? -EPERM : -EINVAL;
	if ((clk & 7) == 3)
		return -EINVAL; /* an fd clock: skas has none */
	/* A CPU-time clock is never set: EPERM once it names a live thread
	 * or process */
	return cpuclock_lookup(t, clk, &c) < 0 ? -EINVAL : -EPERM;
}
