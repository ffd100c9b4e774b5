/* syscalls/sys_time.c: clocks and sleeping. Differs from Linux (until the
 * time issue): the CPU-time clocks of a process and of its thread read the
 * stub's host process clock; clocks named by pid (negative ids) are EINVAL. */
#include <string.h>

#include "mm/commit.h"
#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "mm/usercopy.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"
#include "abi/linux/types.h"

#define NSEC_PER_SEC 1000000000LL

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
	case LINUX_CLOCK_PROCESS_CPUTIME_ID:
	case LINUX_CLOCK_THREAD_CPUTIME_ID:
		/* A process CPU clock of the stub: (~pid << 3) | CPUCLOCK_SCHED. */
		return (int)((~(unsigned)platform->mm_host_pid(t->mm->pf) << 3) | 2);
	default:
		return -EINVAL;
	}
}

static struct linux_timespec ns_to_ts(int64_t ns)
{
	struct linux_timespec ts = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };

	return ts;
}

long sys_clock_gettime(struct task *t, const struct sysargs *a)
{
	int id = clock_host_id(t, sysarg_int(a, 0));
	struct linux_timespec ts;
	int64_t ns;

	if (id == -EINVAL)
		return -EINVAL;
	ns = host_clock_ns(id);
	if (ns < 0)
		return ns;
	ts = ns_to_ts(ns);
	return copy_to_user(t->mm, sysarg_uaddr(a, 1), &ts, sizeof(ts));
}

long sys_clock_getres(struct task *t, const struct sysargs *a)
{
	int id = clock_host_id(t, sysarg_int(a, 0));
	struct linux_timespec ts;
	int64_t res;
	int ret;

	if (id == -EINVAL)
		return -EINVAL;
	ret = host_clock_res_ns(id, &res);
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
	return sleep_ns(t, sched_now_ns() + ns, sysarg_uaddr(a, 1));
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
	default:
		return -EINVAL;
	}
	ret = get_timespec(t, sysarg_uaddr(a, 2), &ns);
	if (ret < 0)
		return ret;
	if (flags & LINUX_TIMER_ABSTIME) {
		now = host_clock_ns(clk);
		/* Differs from Linux: an absolute sleep does not follow later
		 * changes of CLOCK_REALTIME. */
		return sleep_ns(t, sched_now_ns() + (ns > now ? ns - now : 0), 0);
	}
	return sleep_ns(t, sched_now_ns() + ns, sysarg_uaddr(a, 3));
}

/* sysinfo: the instance's uptime and task count; memory as /proc/meminfo
 * shows it (the --memory limit); no swap; loads 0 (differs from
 * Linux: no load average is kept yet). */
long sys_sysinfo(struct task *t, const struct sysargs *a)
{
	struct linux_sysinfo si;
	int ret;

	memset(&si, 0, sizeof(si));
	si.uptime = host_clock_ns(LINUX_CLOCK_BOOTTIME) / NSEC_PER_SEC;
	ret = mem_meminfo(&si.totalram, &si.freeram, &si.sharedram, &si.bufferram);
	if (ret < 0)
		return ret;
	si.procs = (uint16_t)task_count();
	si.mem_unit = 1;
	return copy_to_user(t->mm, sysarg_uaddr(a, 0), &si, sizeof(si));
}
