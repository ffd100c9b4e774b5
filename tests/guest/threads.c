/* Threads (pthreads over clone, futex, set_tid_address): mutexes, condition
 * variables, barriers, __thread, join/detach, return values, tids, futex
 * timeouts, signals to and within threads, cancellation, exit and fork and
 * execve from a thread (the last three in forked children). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "tap.h"

extern char **environ;

/* <linux/futex.h> is not in musl-gcc's include path */
#define FUTEX_WAIT_PRIVATE 128
#define FUTEX_WAKE_PRIVATE 129

static void checkf(int cond, const char *what, const char *fmt, long a, long b)
{
	if (cond) {
		printf("ok %d - %s\n", ++n, what);
	} else {
		printf("not ok %d - %s: ", ++n, what);
		printf(fmt, a, b);
		printf("\n");
	}
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static long gettid_(void)
{
	return syscall(SYS_gettid);
}

/* Wait for pid for at most 5 s (then SIGKILL it). Returns the status or -1. */
static int reap(pid_t pid)
{
	int status, i;
	pid_t r;

	for (i = 0; i < 5000; i++) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -1;
		sleep_ms(1);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

/* Spin (sleeping) until *flag is nonzero, at most 5 s. */
static int wait_flag(volatile int *flag)
{
	int i;

	for (i = 0; i < 5000 && !__atomic_load_n(flag, __ATOMIC_SEQ_CST); i++)
		sleep_ms(1);
	return __atomic_load_n(flag, __ATOMIC_SEQ_CST);
}

/* ---- mutex ---- */

static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void *inc_thread(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 10000; i++) {
		pthread_mutex_lock(&mtx);
		counter++;
		pthread_mutex_unlock(&mtx);
	}
	return NULL;
}

static void test_mutex(void)
{
	pthread_t t[4];
	int i, created = 0, joined = 0;

	counter = 0;
	for (i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, inc_thread, NULL) == 0)
			created++;
	check(created == 4, "pthread_create 4 threads");
	for (i = 0; i < created; i++)
		if (pthread_join(t[i], NULL) == 0)
			joined++;
	check(joined == 4, "pthread_join them");
	checkf(counter == 40000, "4 threads x 10000 increments under a mutex: 40000",
	       "counter=%ld%.0ld", counter, 0);
}

/* ---- condition variable ping-pong ---- */

static pthread_mutex_t pp_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pp_c = PTHREAD_COND_INITIALIZER;
static int pp_turn, pp_count[2];

static void *pingpong(void *arg)
{
	int me = (int)(intptr_t)arg, i;

	for (i = 0; i < 1000; i++) {
		pthread_mutex_lock(&pp_m);
		while (pp_turn != me)
			pthread_cond_wait(&pp_c, &pp_m);
		pp_count[me]++;
		pp_turn = !me;
		pthread_cond_broadcast(&pp_c);
		pthread_mutex_unlock(&pp_m);
	}
	return NULL;
}

static void test_condvar(void)
{
	pthread_t a, b;

	pp_turn = 0;
	pp_count[0] = pp_count[1] = 0;
	pthread_create(&a, NULL, pingpong, (void *)0);
	pthread_create(&b, NULL, pingpong, (void *)1);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	check(pp_count[0] == 1000 && pp_count[1] == 1000 && pp_turn == 0,
	      "condition variable ping-pong, 1000 round trips");
}

static void test_timeouts(void)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec ts, t0, t1;
	int r, e, word = 1;
	long el;

	pthread_mutex_lock(&m);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 20000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	r = pthread_cond_timedwait(&c, &m, &ts);
	checkf(r == ETIMEDOUT, "pthread_cond_timedwait (20 ms) times out: ETIMEDOUT", "r=%ld%.0ld",
	       r, 0);
	pthread_mutex_unlock(&m);

	r = syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
	check(r == -1 && errno == EAGAIN, "futex WAIT with a stale value: EAGAIN");
	r = syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	check(r == 0, "futex WAKE with no waiters: 0");
	ts.tv_sec = 0;
	ts.tv_nsec = 20000000;
	/* A timer never ends early, but a loaded machine may leave the waiter
	 * off the CPU past it (a native read with a 0.2 s timer once took
	 * 1.8 s beside other suites): a slow wait is tried again, up to 3
	 * times in all; one that is late every time still fails. */
	for (int i = 0;; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		errno = 0;
		r = syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, &ts, NULL, 0);
		e = errno;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		el = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
		if (r != -1 || e != ETIMEDOUT || el < 2000 || i == 2)
			break;
	}
	errno = e;
	check(r == -1 && errno == ETIMEDOUT, "futex WAIT with a 20 ms timeout: ETIMEDOUT");
	check(el >= 19 && el < 2000, "and it waited about 20 ms");
}

/* ---- __thread ---- */

static __thread int tv = 5;
static __thread char tbuf[64];
static pthread_barrier_t tls_bar;

static void *tls_thread(void *arg)
{
	int me = (int)(intptr_t)arg, ok = 1;

	if (tv != 5 || tbuf[0] != 0)
		ok = 0; /* a new thread starts from the initial image */
	tv = me * 100;
	memset(tbuf, 'a' + me, sizeof tbuf);
	pthread_barrier_wait(&tls_bar); /* everybody has written theirs */
	if (tv != me * 100 || tbuf[0] != 'a' + me || tbuf[63] != 'a' + me)
		ok = 0;
	return (void *)(intptr_t)ok;
}

static void test_tls(void)
{
	pthread_t t[3];
	void *ret;
	int i, ok = 1;

	tv = 77;
	pthread_barrier_init(&tls_bar, NULL, 3);
	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, tls_thread, (void *)(intptr_t)(i + 1));
	for (i = 0; i < 3; i++) {
		ret = NULL;
		pthread_join(t[i], &ret);
		if (ret != (void *)1)
			ok = 0;
	}
	pthread_barrier_destroy(&tls_bar);
	check(ok, "__thread variables: initial value in each thread, then private");
	check(tv == 77 && tbuf[0] == 0, "the main thread's __thread values are untouched");
}

/* ---- ids ---- */

static long tids[3], pids[3];
static pthread_t selves[3];

static void *id_thread(void *arg)
{
	int i = (int)(intptr_t)arg;

	tids[i] = gettid_();
	pids[i] = getpid();
	selves[i] = pthread_self();
	return NULL;
}

static void test_ids(void)
{
	pthread_t t[3];
	long main_tid = gettid_(), pid = getpid();
	int i, j, distinct = 1, samepid = 1, self_ok = 1;

	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, id_thread, (void *)(intptr_t)i);
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 3; i++) {
		if (pids[i] != pid)
			samepid = 0;
		if (tids[i] == main_tid || tids[i] <= 0)
			distinct = 0;
		for (j = 0; j < i; j++)
			if (tids[i] == tids[j])
				distinct = 0;
		if (!pthread_equal(selves[i], t[i]))
			self_ok = 0;
	}
	check(main_tid == pid, "the main thread's tid is the pid");
	check(samepid, "getpid is the same in every thread");
	check(distinct, "gettid differs between threads");
	check(self_ok, "pthread_self matches what pthread_create returned");
}

/* ---- return values, detach, many threads ---- */

static void *ret_thread(void *arg)
{
	if ((intptr_t)arg == 2)
		pthread_exit((void *)(intptr_t)222);
	return (void *)((intptr_t)arg * 10 + 1);
}

static volatile int det_go, det_done, others_done;

static void *detached_thread(void *arg)
{
	(void)arg;
	wait_flag(&det_go);
	__atomic_store_n(&det_done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void *busy_thread(void *arg)
{
	volatile long x = 0;
	int i;

	(void)arg;
	for (i = 0; i < 2000000; i++)
		x += i;
	wait_flag(&det_done);
	sleep_ms(10);
	return (void *)(intptr_t)(x == 1999999000000L);
}

static void *empty_thread(void *arg)
{
	return arg;
}

static void test_lifecycle(void)
{
	pthread_t t[3], d, b;
	pthread_attr_t attr;
	void *ret;
	int i, ok = 1, r;

	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, ret_thread, (void *)(intptr_t)i);
	for (i = 0; i < 3; i++) {
		ret = NULL;
		pthread_join(t[i], &ret);
		if (ret != (void *)(intptr_t)(i == 2 ? 222 : i * 10 + 1))
			ok = 0;
	}
	check(ok, "pthread_join returns the thread's return value / pthread_exit value");

	det_go = det_done = 0;
	pthread_create(&b, NULL, busy_thread, NULL);
	r = pthread_create(&d, NULL, detached_thread, NULL);
	check(r == 0 && pthread_detach(d) == 0, "pthread_detach a running thread");
	__atomic_store_n(&det_go, 1, __ATOMIC_SEQ_CST);
	check(wait_flag(&det_done), "the detached thread ran to its end");
	ret = NULL;
	pthread_join(b, &ret);
	check(ret == (void *)1, "a thread running meanwhile finished its work");

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	ok = 1;
	for (i = 0; i < 20; i++)
		if (pthread_create(&d, &attr, empty_thread, NULL) != 0)
			ok = 0;
	pthread_attr_destroy(&attr);
	check(ok, "20 threads created detached");

	ok = 1;
	for (i = 0; i < 200; i++) {
		ret = NULL;
		if (pthread_create(&t[0], NULL, empty_thread, (void *)(intptr_t)(i + 1)) != 0 ||
		    pthread_join(t[0], &ret) != 0 || ret != (void *)(intptr_t)(i + 1)) {
			ok = 0;
			break;
		}
	}
	check(ok, "200 threads created and joined one after another");
}

/* ---- barrier ---- */

static pthread_barrier_t bar;
static int bar_arrived, bar_serial[5], bar_bad;
static pthread_mutex_t bar_m = PTHREAD_MUTEX_INITIALIZER;

static void *bar_thread(void *arg)
{
	int round, r, seen;

	(void)arg;
	for (round = 0; round < 5; round++) {
		pthread_mutex_lock(&bar_m);
		bar_arrived++;
		pthread_mutex_unlock(&bar_m);
		r = pthread_barrier_wait(&bar);
		pthread_mutex_lock(&bar_m);
		seen = bar_arrived;
		if (r == PTHREAD_BARRIER_SERIAL_THREAD)
			bar_serial[round]++;
		else if (r != 0)
			bar_bad++;
		pthread_mutex_unlock(&bar_m);
		if (seen < 3 * (round + 1))
			bar_bad++;
		pthread_barrier_wait(&bar);
	}
	return NULL;
}

static void test_barrier(void)
{
	pthread_t t[3];
	int i, serial_ok = 1;

	pthread_barrier_init(&bar, NULL, 3);
	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, bar_thread, NULL);
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&bar);
	for (i = 0; i < 5; i++)
		if (bar_serial[i] != 1)
			serial_ok = 0;
	check(bar_arrived == 15 && bar_bad == 0,
	      "barrier with 3 threads, 5 rounds: nobody passes early");
	check(serial_ok, "exactly one PTHREAD_BARRIER_SERIAL_THREAD per round");
}

/* ---- big stack frame in a thread ---- */

static void *stack_thread(void *arg)
{
	volatile char big[64 * 1024];
	long s = 0;
	unsigned i;

	(void)arg;
	for (i = 0; i < sizeof big; i++)
		big[i] = (char)i;
	for (i = 0; i < sizeof big; i += 4096)
		s += big[i + 1];
	return (void *)s;
}

static void test_stack(void)
{
	pthread_t t;
	void *ret = NULL;

	pthread_create(&t, NULL, stack_thread, NULL);
	pthread_join(t, &ret);
	check(ret == (void *)16, "a thread uses 64 KiB of its stack");
}

/* ---- signals and threads ---- */

static volatile long sig_tid;
static volatile int sig_calls;

static void h_tid(int sig)
{
	(void)sig;
	sig_tid = gettid_();
	sig_calls++;
}

static volatile int ready;
static volatile long thr_tid;

static void *suspend_thread(void *arg)
{
	sigset_t empty;

	(void)arg;
	thr_tid = gettid_();
	sigemptyset(&empty);
	__atomic_store_n(&ready, 1, __ATOMIC_SEQ_CST);
	sigsuspend(&empty);
	return (void *)(intptr_t)(sig_tid == gettid_());
}

static void *spin_thread(void *arg)
{
	sigset_t s;
	int i;

	(void)arg;
	thr_tid = gettid_();
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	__atomic_store_n(&ready, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < 5000 && !sig_calls; i++)
		sleep_ms(1);
	return (void *)(intptr_t)(sig_calls == 1 && sig_tid == gettid_());
}

static void *sigwait_thread(void *arg)
{
	sigset_t s;
	int sig = 0;

	(void)arg;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	__atomic_store_n(&ready, 1, __ATOMIC_SEQ_CST);
	if (sigwait(&s, &sig) != 0)
		return NULL;
	return (void *)(intptr_t)sig;
}

static void *pause_thread(void *arg)
{
	(void)arg;
	__atomic_store_n(&ready, 1, __ATOMIC_SEQ_CST);
	for (;;)
		pause();
	return NULL;
}

static void test_thread_signals(void)
{
	struct sigaction sa;
	sigset_t s, old, cur;
	pthread_t t;
	void *ret;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = h_tid;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);

	/* a process-directed signal goes to the thread that does not block it */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &s, &old);
	ready = 0;
	sig_tid = 0;
	sig_calls = 0;
	pthread_create(&t, NULL, suspend_thread, NULL);
	wait_flag(&ready);
	kill(getpid(), SIGUSR1);
	ret = NULL;
	pthread_join(t, &ret);
	check(ret == (void *)1,
	      "kill(getpid()) is handled by the one thread not blocking the signal");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	check(sig_calls == 1, "it was delivered once (not also to the main thread)");

	/* pthread_kill targets one thread */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &s, &old);
	ready = 0;
	sig_tid = 0;
	sig_calls = 0;
	pthread_create(&t, NULL, spin_thread, NULL);
	wait_flag(&ready);
	check(pthread_kill(t, SIGUSR2) == 0, "pthread_kill returns 0");
	ret = NULL;
	pthread_join(t, &ret);
	check(ret == (void *)1, "pthread_kill: the handler ran in the target thread");
	pthread_sigmask(SIG_SETMASK, NULL, &cur);
	check(sigismember(&cur, SIGUSR2),
	      "a thread's pthread_sigmask does not change the main thread's mask");
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	/* sigwait in a thread gets a process-directed signal */
	pthread_sigmask(SIG_BLOCK, &s, &old);
	ready = 0;
	sig_calls = 0;
	pthread_create(&t, NULL, sigwait_thread, NULL);
	wait_flag(&ready);
	sleep_ms(10);
	kill(getpid(), SIGUSR2);
	ret = NULL;
	pthread_join(t, &ret);
	check(ret == (void *)(intptr_t)SIGUSR2, "sigwait in a thread receives kill(getpid())");
	check(sig_calls == 0, "no handler ran for it");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	check(sig_calls == 0, "nothing left pending");

	/* cancellation (an internal real-time signal, sent with tgkill) */
	ready = 0;
	pthread_create(&t, NULL, pause_thread, NULL);
	wait_flag(&ready);
	sleep_ms(10);
	check(pthread_cancel(t) == 0, "pthread_cancel a thread blocked in pause");
	ret = NULL;
	pthread_join(t, &ret);
	check(ret == PTHREAD_CANCELED, "join returns PTHREAD_CANCELED");

	sa.sa_handler = SIG_DFL;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
}

/* ---- exit, fork, execve from threads (in forked children) ---- */

static void *exit_thread(void *arg)
{
	sleep_ms(20);
	_exit((int)(intptr_t)arg);
	return NULL;
}

static void *block_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void *fork_thread(void *arg)
{
	pid_t pid;
	int status;

	(void)arg;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		pthread_t t;
		void *r = NULL;
		/* the child has only this thread; it can make new ones */
		if (pthread_create(&t, NULL, empty_thread, (void *)9) != 0 ||
		    pthread_join(t, &r) != 0 || r != (void *)9)
			_exit(90);
		_exit(8);
	}
	status = reap(pid);
	return (void *)(intptr_t)(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static void *exec_thread(void *arg)
{
	char *argv[] = { "true", NULL };

	(void)arg;
	sleep_ms(10);
	execve("/bin/true", argv, environ);
	_exit(99);
	return NULL;
}

static const char *self_path;

static pid_t spawn_self(const char *mode)
{
	char *argv[3];
	pid_t pid;

	argv[0] = (char *)self_path;
	argv[1] = (char *)mode;
	argv[2] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execve(self_path, argv, environ);
		_exit(98);
	}
	return pid;
}

/* The modes run by spawn_self: they print nothing. */
static int child_mode(const char *mode)
{
	pthread_t t;

	if (strcmp(mode, "main-exits-other-exits-7") == 0) {
		pthread_create(&t, NULL, exit_thread, (void *)7);
		pthread_exit(NULL);
	}
	if (strcmp(mode, "main-exits-last") == 0) {
		pthread_create(&t, NULL, empty_thread, NULL);
		pthread_detach(t);
		pthread_exit(NULL);
	}
	return 97;
}

static void test_exit_fork_exec(void)
{
	pthread_t t;
	void *ret;
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		pthread_t b;
		pthread_create(&b, NULL, block_thread, NULL);
		pthread_create(&t, NULL, exit_thread, (void *)5);
		for (;;)
			pause();
	}
	status = reap(pid);
	checkf(WIFEXITED(status) && WEXITSTATUS(status) == 5,
	       "_exit(5) in one thread ends the whole process, status 5", "status=%#lx%.0ld",
	       status, 0);

	/* The main thread's pthread_exit is tried in a freshly executed copy
	 * of this program: musl 1.2.3 cannot do it in a forked child (fork
	 * leaves the kernel no clear_child_tid to unlock its thread list). */
	pid = spawn_self("main-exits-other-exits-7");
	status = reap(pid);
	checkf(WIFEXITED(status) && WEXITSTATUS(status) == 7,
	       "the main thread pthread_exits; another thread's _exit(7) is the status",
	       "status=%#lx%.0ld", status, 0);

	pid = spawn_self("main-exits-last");
	status = reap(pid);
	checkf(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "the last thread's pthread_exit ends the process with status 0", "status=%#lx%.0ld",
	       status, 0);

	ret = NULL;
	pthread_create(&t, NULL, fork_thread, NULL);
	pthread_join(t, &ret);
	check(ret == (void *)8, "fork from a thread: the child runs (and makes threads)");

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		pthread_t b;
		pthread_create(&b, NULL, block_thread, NULL);
		pthread_create(&t, NULL, exec_thread, NULL);
		for (;;)
			pause();
	}
	status = reap(pid);
	checkf(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "execve(/bin/true) from a non-main thread replaces the whole process",
	       "status=%#lx%.0ld", status, 0);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return child_mode(argv[1]);
	self_path = argv[0];
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_mutex();
	test_condvar();
	test_timeouts();
	test_tls();
	test_ids();
	test_lifecycle();
	test_barrier();
	test_stack();
	test_thread_signals();
	test_exit_fork_exec();
	return 0;
}
