/* CPU accounting: getrusage (SELF, CHILDREN, THREAD, errors), the CPU-time
 * clocks (process, thread, pthread_getcpuclockid, clock_getcpuclockid, a
 * pid or tid that is not ours), times(), wait4's rusage, /proc/self/stat's
 * utime and stime, and times kept across exec; the context switches
 * (voluntary: each sleep) in getrusage, wait4, /proc/self/status and
 * /proc/stat's ctxt (skas said 0). Only facts are printed ("at least 40
 * ms after spinning 50 ms of CPU"), never raw times. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <sys/wait.h>

#include "tap.h"

static void check_err(long r, int want, const char *what)
{
	int e = errno;

	if (r == -1 && e == want)
		printf("ok %d - %s -> %s\n", ++n, what, want == EINVAL ? "EINVAL" : "EFAULT");
	else
		printf("not ok %d - %s: got %ld (errno %d), want errno %d\n", ++n, what, r,
		       r == -1 ? e : 0, want);
}

static int64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	if (clock_gettime(c, &ts) < 0)
		return -1;
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int64_t tv_ns(const struct timeval *tv)
{
	return tv->tv_sec * 1000000000LL + tv->tv_usec * 1000LL;
}

/* Burns ms of this thread's CPU time (at most 10 s of wall time). */
static void spin_cpu(long ms)
{
	int64_t start = clock_ns(CLOCK_THREAD_CPUTIME_ID), wall = clock_ns(CLOCK_MONOTONIC);
	volatile uint64_t x = 0;

	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) - start < ms * 1000000LL &&
	       clock_ns(CLOCK_MONOTONIC) - wall < 10000000000LL)
		for (int i = 0; i < 3000000; i++) /* a clock read (a trap under skas) per ~2 ms */
			x += (uint64_t)i;
}

static int64_t ru_cpu(int who)
{
	struct rusage ru;

	if (getrusage(who, &ru) < 0)
		return -1;
	return tv_ns(&ru.ru_utime) + tv_ns(&ru.ru_stime);
}

static void test_errors(void)
{
	struct rusage ru;

	check_err(getrusage(5, &ru), EINVAL, "getrusage(5)");
	check_err(getrusage(-2, &ru), EINVAL, "getrusage(-2)");
	check_err(syscall(SYS_getrusage, RUSAGE_SELF, (void *)8), EFAULT,
		  "getrusage to a bad address");
	check_err(syscall(SYS_times, (void *)8), EFAULT, "times to a bad address");
	check(syscall(SYS_times, NULL) != -1, "times(NULL)");
}

static void test_self(void)
{
	struct rusage ru;
	struct tms tms;
	struct timespec res;
	int64_t p0, p1, t1, r;

	check(ru_cpu(RUSAGE_CHILDREN) == 0, "no children reaped yet: 0");
	p0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	spin_cpu(50);
	p1 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	t1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	check(p1 - p0 >= 50000000, "process CPU clock: 50 ms more after spinning 50 ms");
	check(p1 <= clock_ns(CLOCK_PROCESS_CPUTIME_ID), "the process CPU clock never goes back");
	check(t1 >= 50000000 && t1 <= p1 + 1000000, "thread CPU clock: at least 50 ms");
	check(getrusage(RUSAGE_SELF, &ru) == 0, "getrusage(RUSAGE_SELF)");
	r = tv_ns(&ru.ru_utime) + tv_ns(&ru.ru_stime);
	check(r >= 49000000, "user+system at least 49 ms");
	check(tv_ns(&ru.ru_utime) > tv_ns(&ru.ru_stime), "mostly user time");
	check(ru.ru_maxrss > 0, "ru_maxrss > 0");
	check(ru.ru_minflt > 0, "ru_minflt > 0");
	check(ru_cpu(RUSAGE_SELF) >= r, "a second getrusage: not less");
	check(ru_cpu(RUSAGE_THREAD) >= 49000000, "RUSAGE_THREAD: at least 49 ms");
	check(times(&tms) != (clock_t)-1 && tms.tms_utime + tms.tms_stime >= 4,
	      "times(): at least 4 ticks");
	check(tms.tms_cutime == 0 && tms.tms_cstime == 0, "times(): no children yet");
	check(clock_getres(CLOCK_PROCESS_CPUTIME_ID, &res) == 0 && res.tv_sec == 0 &&
		      res.tv_nsec == 1,
	      "clock_getres(CLOCK_PROCESS_CPUTIME_ID): 1 ns");
	check(clock_getres(CLOCK_THREAD_CPUTIME_ID, &res) == 0 && res.tv_nsec == 1,
	      "clock_getres(CLOCK_THREAD_CPUTIME_ID): 1 ns");
}

static volatile int thread_done;

static void *spinner(void *arg)
{
	(void)arg;
	spin_cpu(60);
	thread_done = 1;
	while (thread_done != 2)
		usleep(1000);
	return NULL;
}

static void test_thread(void)
{
	pthread_t th;
	clockid_t c;
	int64_t before = ru_cpu(RUSAGE_SELF), mine;

	pthread_create(&th, NULL, spinner, NULL);
	while (!thread_done)
		usleep(1000);
	check(pthread_getcpuclockid(th, &c) == 0, "pthread_getcpuclockid");
	check(clock_ns(c) >= 60000000, "the thread's clock: at least 60 ms");
	mine = ru_cpu(RUSAGE_THREAD);
	check(ru_cpu(RUSAGE_SELF) - before >= 59000000, "RUSAGE_SELF counts the other thread");
	check(mine < ru_cpu(RUSAGE_SELF), "RUSAGE_THREAD: only this thread");
	thread_done = 2;
	pthread_join(th, NULL);
	check(ru_cpu(RUSAGE_SELF) - before >= 59000000, "a joined thread's time stays");
}

static void test_children(void)
{
	struct rusage ru;
	struct tms tms;
	clockid_t c;
	int st;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		spin_cpu(50);
		_exit(0);
	}
	check(clock_getcpuclockid(pid, &c) == 0, "clock_getcpuclockid of the child");
	check(syscall(SYS_clock_gettime, (clockid_t)((~(unsigned)pid << 3) | 6),
		      &(struct timespec){ 0, 0 }) == -1 &&
		      errno == EINVAL,
	      "its pid as a thread clock: EINVAL (not our thread)");
	check(wait4(pid, &st, 0, &ru) == pid, "wait4 with rusage");
	check(tv_ns(&ru.ru_utime) + tv_ns(&ru.ru_stime) >= 49000000,
	      "wait4's rusage: at least 49 ms");
	check(ru_cpu(RUSAGE_CHILDREN) >= 49000000, "RUSAGE_CHILDREN: at least 49 ms");
	check(times(&tms) != (clock_t)-1 && tms.tms_cutime + tms.tms_cstime >= 4,
	      "times(): children at least 4 ticks");
	check(syscall(SYS_clock_gettime, (clockid_t)((~(unsigned)999999 << 3) | 2),
		      &(struct timespec){ 0, 0 }) == -1 &&
		      errno == EINVAL,
	      "the CPU clock of no process: EINVAL");
	check(syscall(SYS_clock_gettime, (clockid_t)((~0u << 3) | 3), &(struct timespec){ 0, 0 }) ==
			      -1 &&
		      errno == EINVAL,
	      "CPU clock kind 3: EINVAL");
	/* a grandchild reaped by the child counts for the child's parent */
	pid = fork();
	if (pid == 0) {
		int64_t before = ru_cpu(RUSAGE_CHILDREN);
		pid_t g = fork();

		if (g == 0) {
			spin_cpu(30);
			_exit(0);
		}
		waitpid(g, &st, 0);
		_exit(ru_cpu(RUSAGE_CHILDREN) - before >= 29000000 ? 0 : 1);
	}
	{
		int64_t before = ru_cpu(RUSAGE_CHILDREN);

		waitpid(pid, &st, 0);
		check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child saw its child's time");
		check(ru_cpu(RUSAGE_CHILDREN) - before >= 29000000,
		      "and the grandchild's time reaches us");
	}
}

static void test_proc_stat(void)
{
	char buf[1024], *p;
	unsigned long long v[13];
	FILE *f = fopen("/proc/self/stat", "r");
	int i;

	check(f && fgets(buf, sizeof(buf), f), "read /proc/self/stat");
	if (f)
		fclose(f);
	p = strrchr(buf, ')');
	p = p ? p + 4 : buf;
	for (i = 0; i < 13; i++)
		v[i] = strtoull(p, &p, 10);
	check(v[10] + v[11] >= 10, "utime+stime: at least 10 ticks");
	check(v[6] > 0, "minflt > 0");
}

/* Touches len bytes of fresh memory, a byte a page. */
static void touch(size_t len)
{
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t i;

	if (m == MAP_FAILED)
		return;
	for (i = 0; i < len; i += 4096)
		((volatile char *)m)[i] = 1;
	munmap(m, len);
}

/* Each report is of now, not of the first (skas keeps the host's files it
 * reads them from open): the peak size and faults grow between two
 * getrusage, and a child's figures at its end are those after its last
 * getrusage. */
static void test_fresh(void)
{
	struct rusage r0, r1, rc;
	int st;
	pid_t pid;

	getrusage(RUSAGE_SELF, &r0);
	touch(32 << 20);
	getrusage(RUSAGE_SELF, &r1);
	check(r1.ru_maxrss >= r0.ru_maxrss + 30000, "ru_maxrss: 30 MB more after touching 32 MB");
	check(r1.ru_minflt > r0.ru_minflt, "ru_minflt: more after touching 32 MB");
	pid = fork();
	if (pid == 0) {
		getrusage(RUSAGE_SELF, &r0);
		spin_cpu(20);
		touch(64 << 20);
		_exit(0);
	}
	check(wait4(pid, &st, 0, &rc) == pid, "wait4 of a child that grew after its getrusage");
	check(rc.ru_maxrss >= 60000, "its ru_maxrss: at least 60 MB");
	check(rc.ru_minflt > 0, "its ru_minflt > 0");
	check(tv_ns(&rc.ru_utime) + tv_ns(&rc.ru_stime) >= 19000000, "its time: at least 19 ms");
	check(getrusage(RUSAGE_CHILDREN, &rc) == 0 && rc.ru_maxrss >= 60000,
	      "RUSAGE_CHILDREN's ru_maxrss: at least 60 MB");
}

static long status_switches(void)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/thread-self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

static unsigned long long stat_ctxt(void)
{
	char line[256];
	unsigned long long v = 0;
	FILE *f = fopen("/proc/stat", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "ctxt %llu", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

static void test_switches(void)
{
	struct rusage a, b, c;
	struct timespec ts = { 0, 2000000 };
	unsigned long long ctxt0 = stat_ctxt();
	long s0 = status_switches();
	int i, st;
	pid_t pid;

	getrusage(RUSAGE_THREAD, &a);
	for (i = 0; i < 5; i++)
		nanosleep(&ts, NULL);
	getrusage(RUSAGE_THREAD, &b);
	check(b.ru_nvcsw >= a.ru_nvcsw + 5, "five sleeps: five voluntary switches at least");
	getrusage(RUSAGE_SELF, &c);
	check(c.ru_nvcsw >= b.ru_nvcsw, "the process's count holds the thread's");
	check(status_switches() >= s0 + 5,
	      "/proc/thread-self/status's voluntary_ctxt_switches too");
	check(stat_ctxt() >= ctxt0 + 5, "/proc/stat's ctxt grew");
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < 3; i++)
			nanosleep(&ts, NULL);
		_exit(0);
	}
	check(wait4(pid, &st, 0, &a) == pid && a.ru_nvcsw >= 3, "wait4: the child's switches");
	getrusage(RUSAGE_CHILDREN, &b);
	check(b.ru_nvcsw >= 3, "RUSAGE_CHILDREN: the reaped child's");
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--after-exec") == 0)
		return ru_cpu(RUSAGE_SELF) >= 49000000 ? 0 : 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_errors();
	test_self();
	test_thread();
	test_children();
	test_proc_stat();
	test_fresh();
	{
		int st;
		pid_t pid = fork();

		if (pid == 0) {
			spin_cpu(50);
			execl("/proc/self/exe", "rusage", "--after-exec", (char *)NULL);
			_exit(2);
		}
		waitpid(pid, &st, 0);
		check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "exec keeps the times spent before");
	}
	test_switches();
	return 0;
}
