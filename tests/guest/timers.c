/* POSIX timers: timer_create's checks (clocks, sigevent, EFAULT), a
 * one-shot SIGEV_SIGNAL timer's siginfo (SI_TIMER, si_timerid, si_value,
 * si_overrun 0), timer_gettime before and after, the old value from
 * timer_settime, disarming, TIMER_ABSTIME (future and past), a periodic
 * timer whose blocked signal collects overruns (si_overrun and
 * timer_getoverrun agree), SIGEV_NONE, the default sigevent (SIGALRM with
 * the id), SIGEV_THREAD_ID to one thread, libc's SIGEV_THREAD, timers on
 * CPU-time clocks and the CPU itimers (ITIMER_PROF, ITIMER_VIRTUAL), and
 * timers not inherited by fork and gone after exec. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"

/* The raw calls: the kernel's timer ids, no libc wrapping. */
static long k_create(int clk, struct sigevent *ev, int *id)
{
	return syscall(SYS_timer_create, clk, ev, id);
}

static long k_settime(int id, int flags, const struct itimerspec *nv, struct itimerspec *old)
{
	return syscall(SYS_timer_settime, id, flags, nv, old);
}

static long k_gettime(int id, struct itimerspec *cur)
{
	return syscall(SYS_timer_gettime, id, cur);
}

static long k_getoverrun(int id)
{
	return syscall(SYS_timer_getoverrun, id);
}

static long k_delete(int id)
{
	return syscall(SYS_timer_delete, id);
}

/* sigev_notify_thread_id: the int after sigev_notify (offset 16 on
 * x86-64), which glibc and musl name differently. */
static void set_tid(struct sigevent *ev, int tid)
{
	memcpy((char *)ev + 16, &tid, sizeof(tid));
}

static int64_t ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static struct itimerspec its(long value_ms, long interval_ms)
{
	struct itimerspec v = { { interval_ms / 1000, (interval_ms % 1000) * 1000000L },
				{ value_ms / 1000, (value_ms % 1000) * 1000000L } };

	return v;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts_ns(&ts);
}

/* Waits up to 5 s for sig: the signal number or -1. */
static int wait_sig(int sig, siginfo_t *si)
{
	sigset_t m;
	struct timespec to = { 5, 0 };

	sigemptyset(&m);
	sigaddset(&m, sig);
	return sigtimedwait(&m, si, &to);
}

static void block(int sig)
{
	sigset_t m;

	sigemptyset(&m);
	sigaddset(&m, sig);
	sigprocmask(SIG_BLOCK, &m, NULL);
}

static void test_errors(void)
{
	struct sigevent ev;
	struct itimerspec v = its(10, 0);
	int id;

	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGUSR1;
	check_err(k_create(100, &ev, &id), EINVAL, "timer_create on clock 100");
	check_err(k_create(CLOCK_MONOTONIC_RAW, &ev, &id), EOPNOTSUPP,
		  "timer_create on CLOCK_MONOTONIC_RAW");
	check_err(k_create(CLOCK_MONOTONIC, (void *)8, &id), EFAULT, "sigevent at a bad address");
	ev.sigev_notify = 3;
	check_err(k_create(CLOCK_MONOTONIC, &ev, &id), EINVAL, "sigev_notify 3");
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = 0;
	check_err(k_create(CLOCK_MONOTONIC, &ev, &id), EINVAL, "signal 0");
	ev.sigev_signo = 65;
	check_err(k_create(CLOCK_MONOTONIC, &ev, &id), EINVAL, "signal 65");
	ev.sigev_signo = SIGUSR1;
	ev.sigev_notify = SIGEV_THREAD_ID;
	set_tid(&ev, 999999);
	check_err(k_create(CLOCK_MONOTONIC, &ev, &id), EINVAL, "SIGEV_THREAD_ID of no thread");
	ev.sigev_notify = SIGEV_NONE;
	check_err(k_create(CLOCK_MONOTONIC, &ev, (void *)8), EFAULT, "timer id at a bad address");
	check(k_create(CLOCK_MONOTONIC, &ev, &id) == 0, "timer_create SIGEV_NONE");
	check_err(k_settime(id, 0, NULL, NULL), EINVAL, "timer_settime NULL value");
	check_err(k_settime(id, 0, (void *)8, NULL), EFAULT, "timer_settime bad value");
	v.it_value.tv_nsec = 1000000000;
	check_err(k_settime(id, 0, &v, NULL), EINVAL, "tv_nsec 1e9");
	v = its(10, 0);
	v.it_interval.tv_sec = -1;
	check_err(k_settime(id, 0, &v, NULL), EINVAL, "negative interval");
	check_err(k_settime(id + 1000, 0, &v, NULL), EINVAL, "timer_settime of no timer");
	check_err(k_gettime(id + 1000, &v), EINVAL, "timer_gettime of no timer");
	check_err(k_gettime(id, (void *)8), EFAULT, "timer_gettime to a bad address");
	check_err(k_getoverrun(id + 1000), EINVAL, "timer_getoverrun of no timer");
	check(k_delete(id) == 0, "timer_delete");
	check_err(k_delete(id), EINVAL, "timer_delete again");
	check_err(k_gettime(id, &v), EINVAL, "timer_gettime after delete");
}

static void test_oneshot(void)
{
	struct sigevent ev;
	struct itimerspec v = its(100, 0), cur, old;
	siginfo_t si;
	int id;

	block(SIGUSR1);
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGUSR1;
	ev.sigev_value.sival_ptr = (void *)0x1234567890UL;
	check(k_create(CLOCK_MONOTONIC, &ev, &id) == 0, "timer_create SIGUSR1");
	check(k_gettime(id, &cur) == 0 && ts_ns(&cur.it_value) == 0 && ts_ns(&cur.it_interval) == 0,
	      "new timer: disarmed");
	check(k_settime(id, 0, &v, &old) == 0 && ts_ns(&old.it_value) == 0,
	      "armed for 100 ms; old value 0");
	check(k_gettime(id, &cur) == 0 && ts_ns(&cur.it_value) > 50000000 &&
		      ts_ns(&cur.it_value) <= 100000000,
	      "timer_gettime: between 50 and 100 ms left");
	check(wait_sig(SIGUSR1, &si) == SIGUSR1, "SIGUSR1 arrives");
	check(si.si_code == SI_TIMER && si.si_timerid == id && si.si_overrun == 0,
	      "SI_TIMER, si_timerid, si_overrun 0");
	check(si.si_value.sival_ptr == (void *)0x1234567890UL, "si_value is sigev_value");
	check(k_gettime(id, &cur) == 0 && ts_ns(&cur.it_value) == 0, "expired: 0 left");
	check(k_getoverrun(id) == 0, "timer_getoverrun 0");
	/* re-arm, then disarm: old value returned, nothing arrives */
	v = its(5000, 1000);
	k_settime(id, 0, &v, NULL);
	v = its(0, 0);
	check(k_settime(id, 0, &v, &old) == 0 && ts_ns(&old.it_value) > 4000000000LL &&
		      ts_ns(&old.it_interval) == 1000000000LL,
	      "disarm: old value and interval");
	check(k_gettime(id, &cur) == 0 && ts_ns(&cur.it_value) == 0 && ts_ns(&cur.it_interval) == 0,
	      "disarmed");
	/* absolute: 50 ms ahead on CLOCK_MONOTONIC, then in the past */
	clock_gettime(CLOCK_MONOTONIC, &v.it_value);
	v.it_value.tv_nsec += 50000000;
	if (v.it_value.tv_nsec >= 1000000000) {
		v.it_value.tv_nsec -= 1000000000;
		v.it_value.tv_sec++;
	}
	check(k_settime(id, TIMER_ABSTIME, &v, NULL) == 0 && wait_sig(SIGUSR1, &si) == SIGUSR1 &&
		      si.si_code == SI_TIMER,
	      "TIMER_ABSTIME 50 ms ahead fires");
	v = its(0, 0);
	v.it_value.tv_sec = 1;
	check(k_settime(id, TIMER_ABSTIME, &v, NULL) == 0 && wait_sig(SIGUSR1, &si) == SIGUSR1,
	      "TIMER_ABSTIME in the past fires at once");
	k_delete(id);
}

static void test_realtime_abs(void)
{
	struct sigevent ev;
	struct itimerspec v = its(0, 0);
	siginfo_t si;
	int id;

	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGUSR1;
	check(k_create(CLOCK_REALTIME, &ev, &id) == 0, "timer_create CLOCK_REALTIME");
	clock_gettime(CLOCK_REALTIME, &v.it_value);
	v.it_value.tv_sec += 1;
	v.it_value.tv_nsec = 0;
	check(k_settime(id, TIMER_ABSTIME, &v, NULL) == 0 && wait_sig(SIGUSR1, &si) == SIGUSR1 &&
		      si.si_timerid == id,
	      "CLOCK_REALTIME: the next whole second");
	k_delete(id);
}

static void test_periodic(void)
{
	struct sigevent ev;
	struct itimerspec v = its(10, 10), cur;
	siginfo_t si;
	int64_t t0;
	int id, ov;

	block(SIGRTMIN);
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGRTMIN;
	ev.sigev_value.sival_int = 7;
	check(k_create(CLOCK_MONOTONIC, &ev, &id) == 0, "timer_create SIGRTMIN");
	t0 = mono_ns();
	k_settime(id, 0, &v, NULL);
	sleep_ms(120);
	check(k_gettime(id, &cur) == 0 && ts_ns(&cur.it_value) > 0 &&
		      ts_ns(&cur.it_value) <= 10000000 && ts_ns(&cur.it_interval) == 10000000,
	      "periodic: next expiry within the interval");
	check(wait_sig(SIGRTMIN, &si) == SIGRTMIN && si.si_code == SI_TIMER &&
		      si.si_value.sival_int == 7,
	      "one SIGRTMIN queued");
	ov = si.si_overrun;
	/* At most the expirations since the timer was set (but the queued
	 * one): 12 with one to spare when the sleep ends on time; a loaded
	 * machine's late wakeup adds expirations (over 12 seen, natively
	 * too, with two busy loops on two CPUs). */
	check(ov >= 5 && ov <= (mono_ns() - t0) / 10000000,
	      "si_overrun counts the expirations while it was queued (5..elapsed/10 ms)");
	check(k_getoverrun(id) == ov, "timer_getoverrun agrees");
	v = its(0, 0);
	k_settime(id, 0, &v, NULL);
	check(wait_sig(SIGRTMIN, &si) == -1 || si.si_overrun >= 0, "no flood of signals");
	k_delete(id);
}

/* A signal still queued when its timer is set again or deleted is
 * dropped when taken (Linux 6.13+), though sigpending still shows it. */
static void test_stale(void)
{
	struct sigevent ev;
	struct itimerspec v = its(10, 0), z = its(0, 0);
	struct timespec zero = { 0, 0 };
	siginfo_t si;
	sigset_t m, p;
	int id;

	block(SIGUSR1);
	sigemptyset(&m);
	sigaddset(&m, SIGUSR1);
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGUSR1;
	k_create(CLOCK_MONOTONIC, &ev, &id);
	k_settime(id, 0, &v, NULL);
	sleep_ms(40);
	sigpending(&p);
	check(sigismember(&p, SIGUSR1), "expired: SIGUSR1 pending");
	k_settime(id, 0, &z, NULL);
	check(sigtimedwait(&m, &si, &zero) == -1 && errno == EAGAIN,
	      "disarmed: the queued signal is dropped when taken");
	k_settime(id, 0, &v, NULL);
	sleep_ms(40);
	k_settime(id, 0, &v, NULL);
	check(wait_sig(SIGUSR1, &si) == SIGUSR1 && si.si_timerid == id,
	      "set again: the stale signal goes, the new expiry's comes");
	k_settime(id, 0, &v, NULL);
	sleep_ms(40);
	k_delete(id);
	check(sigtimedwait(&m, &si, &zero) == -1 && errno == EAGAIN,
	      "deleted: its queued signal is dropped");
}

static void test_none(void)
{
	struct sigevent ev;
	struct itimerspec v = its(30, 0), cur;
	int id;

	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_NONE;
	check(k_create(CLOCK_BOOTTIME, &ev, &id) == 0, "SIGEV_NONE on CLOCK_BOOTTIME");
	k_settime(id, 0, &v, NULL);
	check(k_gettime(id, &cur) == 0 && ts_ns(&cur.it_value) > 0, "counting down");
	sleep_ms(50);
	check(k_gettime(id, &cur) == 0 && ts_ns(&cur.it_value) == 0, "expired: 0");
	v = its(10, 20);
	k_settime(id, 0, &v, NULL);
	sleep_ms(45);
	check(k_gettime(id, &cur) == 0 && ts_ns(&cur.it_value) > 0 &&
		      ts_ns(&cur.it_value) <= 20000000,
	      "periodic SIGEV_NONE: within the interval");
	check(k_getoverrun(id) == 0, "timer_getoverrun 0");
	k_delete(id);
}

static void test_default(void)
{
	struct itimerspec v = its(20, 0);
	siginfo_t si;
	int id;

	block(SIGALRM);
	check(k_create(CLOCK_MONOTONIC, NULL, &id) == 0, "timer_create without a sigevent");
	k_settime(id, 0, &v, NULL);
	check(wait_sig(SIGALRM, &si) == SIGALRM && si.si_code == SI_TIMER &&
		      si.si_value.sival_int == id && si.si_timerid == id,
	      "SIGALRM with sival_int = the timer id");
	k_delete(id);
}

static volatile int thread_got, thread_code, thread_tid_ok;
static int thread_timer;

static void *sigthread(void *arg)
{
	siginfo_t si;

	(void)arg;
	thread_tid_ok = 1;
	if (wait_sig(SIGUSR2, &si) == SIGUSR2) {
		thread_got = 1;
		thread_code = si.si_code == SI_TIMER && si.si_timerid == thread_timer;
	}
	return NULL;
}

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static volatile pid_t worker_tid;

static void *tidthread(void *arg)
{
	(void)arg;
	worker_tid = gettid_();
	return sigthread(NULL);
}

static void test_thread_id(void)
{
	struct sigevent ev;
	struct itimerspec v = its(30, 0);
	pthread_t th;
	int id;

	block(SIGUSR2);
	pthread_create(&th, NULL, tidthread, NULL);
	while (!worker_tid)
		sleep_ms(1);
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = SIGUSR2;
	set_tid(&ev, worker_tid);
	check(k_create(CLOCK_MONOTONIC, &ev, &id) == 0, "SIGEV_THREAD_ID of a thread");
	thread_timer = id;
	k_settime(id, 0, &v, NULL);
	pthread_join(th, NULL);
	check(thread_got && thread_code, "that thread takes the SI_TIMER signal");
	k_delete(id);
}

static int pipefd[2];

static void notify(union sigval v)
{
	char c = (char)v.sival_int;

	write(pipefd[1], &c, 1);
}

static void test_sigev_thread(void)
{
	struct sigevent ev;
	struct itimerspec v = its(20, 0);
	timer_t tm;
	char c = 0;

	pipe(pipefd);
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD;
	ev.sigev_notify_function = notify;
	ev.sigev_value.sival_int = 'T';
	check(timer_create(CLOCK_MONOTONIC, &ev, &tm) == 0, "libc timer_create SIGEV_THREAD");
	check(timer_settime(tm, 0, &v, NULL) == 0, "libc timer_settime");
	check(read(pipefd[0], &c, 1) == 1 && c == 'T', "the function ran in a thread");
	check(timer_delete(tm) == 0, "libc timer_delete");
	close(pipefd[0]);
	close(pipefd[1]);
}

static int64_t cpu_now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts_ns(&ts);
}

/* Burns CPU until cond() or ms of process CPU time (10 s wall at most). */
static void spin_until(int (*cond)(void), long ms)
{
	int64_t start = cpu_now(CLOCK_PROCESS_CPUTIME_ID), wall = cpu_now(CLOCK_MONOTONIC);
	volatile uint64_t x = 0;

	while (!(cond && cond()) && cpu_now(CLOCK_PROCESS_CPUTIME_ID) - start < ms * 1000000LL &&
	       cpu_now(CLOCK_MONOTONIC) - wall < 10000000000LL)
		for (int i = 0; i < 300000; i++)
			x += (uint64_t)i;
}

static int usr1_pending(void)
{
	sigset_t p;

	sigpending(&p);
	return sigismember(&p, SIGUSR1);
}

static volatile int nprof, nvtalrm;

static void on_itimer(int sig)
{
	if (sig == SIGPROF)
		nprof++;
	else
		nvtalrm++;
}

static void test_cpu(void)
{
	struct sigevent ev;
	struct itimerspec v = its(30, 0), cur;
	struct itimerval iv = { { 0, 20000 }, { 0, 20000 } }, got;
	struct sigaction sa;
	siginfo_t si;
	clockid_t c;
	int64_t start;
	int id, id2;

	block(SIGUSR1);
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGUSR1;
	check(k_create(CLOCK_PROCESS_CPUTIME_ID, &ev, &id) == 0,
	      "timer_create(CLOCK_PROCESS_CPUTIME_ID)");
	check(k_create(CLOCK_THREAD_CPUTIME_ID, &ev, &id2) == 0 && k_delete(id2) == 0,
	      "timer_create(CLOCK_THREAD_CPUTIME_ID)");
	check(pthread_getcpuclockid(pthread_self(), &c) == 0 && k_create(c, &ev, &id2) == 0 &&
		      k_delete(id2) == 0,
	      "timer_create on pthread_getcpuclockid's clock");
	check_err(k_create((clockid_t)((~999999u << 3) | 2), &ev, &id2), EINVAL,
		  "timer_create on the CPU clock of no process");
	check_err(k_create((clockid_t)((~0u << 3) | 7), &ev, &id2), EINVAL,
		  "timer_create on thread CPU clock kind 3");
	check_err(k_create((clockid_t)((~0u << 3) | 3), &ev, &id2), EOPNOTSUPP,
		  "timer_create on a dynamic (fd) clock");
	start = cpu_now(CLOCK_PROCESS_CPUTIME_ID);
	k_settime(id, 0, &v, NULL);
	check(k_gettime(id, &cur) == 0 && ts_ns(&cur.it_value) > 20000000 &&
		      ts_ns(&cur.it_value) <= 30000000,
	      "armed for 30 ms of CPU: 20..30 ms left");
	spin_until(usr1_pending, 2000);
	check(usr1_pending(), "it fires while the process spins");
	check(cpu_now(CLOCK_PROCESS_CPUTIME_ID) - start >= 30000000, "after 30 ms of CPU time");
	check(wait_sig(SIGUSR1, &si) == SIGUSR1 && si.si_code == SI_TIMER && si.si_timerid == id,
	      "SI_TIMER from the CPU timer");
	check(k_gettime(id, &cur) == 0 && ts_ns(&cur.it_value) == 0, "one-shot: 0 left");
	v = its(0, 0);
	v.it_value.tv_sec = 1000;
	check(k_settime(id, TIMER_ABSTIME, &v, NULL) == 0 && k_gettime(id, &cur) == 0 &&
		      cur.it_value.tv_sec >= 998,
	      "TIMER_ABSTIME on a CPU clock: 1000 s of CPU is far away");
	k_delete(id);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_itimer;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGPROF, &sa, NULL);
	sigaction(SIGVTALRM, &sa, NULL);
	check(setitimer(ITIMER_PROF, &iv, NULL) == 0 && setitimer(ITIMER_VIRTUAL, &iv, NULL) == 0,
	      "setitimer ITIMER_PROF and ITIMER_VIRTUAL, 20 ms");
	check(getitimer(ITIMER_PROF, &got) == 0 && got.it_interval.tv_usec == 20000 &&
		      got.it_value.tv_sec == 0 && got.it_value.tv_usec > 0 &&
		      got.it_value.tv_usec <= 30000,
	      "getitimer(ITIMER_PROF): interval 20 ms, value left");
	spin_until(NULL, 200);
	check(nprof >= 3, "SIGPROF came at least 3 times in 200 ms of CPU");
	check(nvtalrm >= 3, "SIGVTALRM came at least 3 times");
	memset(&iv, 0, sizeof(iv));
	setitimer(ITIMER_PROF, &iv, NULL);
	setitimer(ITIMER_VIRTUAL, &iv, &got);
	check(got.it_interval.tv_usec == 20000, "disarm: old interval back");
	check(getitimer(ITIMER_VIRTUAL, &got) == 0 && got.it_value.tv_usec == 0 &&
		      got.it_value.tv_sec == 0,
	      "disarmed");
}

static void test_fork_exec(const char *self)
{
	struct sigevent ev;
	struct itimerspec v = its(10000, 0), cur;
	char arg[32];
	int id, st;
	pid_t pid;

	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_NONE;
	k_create(CLOCK_MONOTONIC, &ev, &id);
	k_settime(id, 0, &v, NULL);
	pid = fork();
	if (pid == 0)
		_exit(k_gettime(id, &cur) == -1 && errno == EINVAL ? 0 : 1);
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "fork: the child has no timers");
	check(k_gettime(id, &cur) == 0 && ts_ns(&cur.it_value) > 0, "the parent's timer runs on");
	snprintf(arg, sizeof(arg), "%d", id);
	pid = fork();
	if (pid == 0) {
		execl(self, self, "--after-exec", arg, (char *)NULL);
		_exit(3);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "exec: the timers are gone");
	k_delete(id);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--after-exec") == 0) {
		struct itimerspec cur;
		struct sigevent ev;
		int id = atoi(argv[2]), id2;

		if (k_gettime(id, &cur) != -1 || errno != EINVAL)
			return 1;
		/* the exec'ed process can create its own */
		memset(&ev, 0, sizeof(ev));
		ev.sigev_notify = SIGEV_NONE;
		return k_create(CLOCK_MONOTONIC, &ev, &id2) == 0 ? 0 : 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_errors();
	test_oneshot();
	test_realtime_abs();
	test_periodic();
	test_stale();
	test_none();
	test_default();
	test_thread_id();
	test_sigev_thread();
	test_cpu();
	test_fork_exec("/proc/self/exe");
	return 0;
}
