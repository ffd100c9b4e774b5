/* Real-time signals queue; standard signals do not. sigqueue's values in
 * order, a standard signal sent three times delivered once, the order of
 * delivery (lowest number first, several instances of one real-time signal
 * in the order sent; handlers unblocked together nest, the last set up runs
 * first), thread and process pending sets, RLIMIT_SIGPENDING (EAGAIN, and
 * kill's silent loss of the siginfo), SIG_IGN discarding pending signals,
 * rt_sigqueueinfo/rt_tgsigqueueinfo checks (no forged si_code for another
 * process).
 *
 * Under skas this program is pid 1: everything here has a handler or is
 * blocked and taken with sigwaitinfo, and other processes are children. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "tap.h"

static void checkf(int cond, const char *what, long a, long b)
{
	if (cond)
		printf("ok %d - %s\n", ++n, what);
	else
		printf("not ok %d - %s: %ld %ld\n", ++n, what, a, b);
}

static void mask_op(int how, int sig)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(how, &s, NULL);
}

static int is_pending(int sig)
{
	sigset_t p;

	sigemptyset(&p);
	sigpending(&p);
	return sigismember(&p, sig);
}

/* What the handler saw, in order: signal (relative to SIGRTMIN for the
 * real-time ones, as glibc and musl place SIGRTMIN differently) and value. */
static struct {
	int sig, value, code, pid;
} seen[16];
static volatile int nseen;

static int rel(int sig)
{
	return sig >= SIGRTMIN ? 100 + sig - SIGRTMIN : sig;
}

static void record(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (nseen < 16) {
		seen[nseen].sig = rel(sig);
		seen[nseen].value = si->si_value.sival_int;
		seen[nseen].code = si->si_code;
		seen[nseen].pid = si->si_pid;
	}
	nseen++;
}

static void set_record(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = record;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static int queue(int sig, int value)
{
	union sigval v;

	v.sival_int = value;
	return sigqueue(getpid(), sig, v);
}

static void rt_queue(void)
{
	int ok, i;

	set_record(SIGRTMIN);
	mask_op(SIG_BLOCK, SIGRTMIN);
	nseen = 0;
	ok = queue(SIGRTMIN, 1) == 0 && queue(SIGRTMIN, 2) == 0 && queue(SIGRTMIN, 3) == 0;
	check(ok, "sigqueue SIGRTMIN three times while blocked");
	check(is_pending(SIGRTMIN), "SIGRTMIN is pending");
	check(nseen == 0, "no handler ran while blocked");
	mask_op(SIG_UNBLOCK, SIGRTMIN);
	checkf(nseen == 3, "the handler ran three times", nseen, 0);
	for (i = 0; i < 3 && i < nseen; i++) {
		checkf(seen[i].value == i + 1, "values in the order sent", seen[i].value, i + 1);
		checkf(seen[i].code == SI_QUEUE, "si_code SI_QUEUE", seen[i].code, 0);
	}
	check(nseen > 0 && seen[0].pid == getpid(), "si_pid is the sender");
	check(!is_pending(SIGRTMIN), "nothing left pending");
}

static void std_once(void)
{
	set_record(SIGUSR1);
	mask_op(SIG_BLOCK, SIGUSR1);
	nseen = 0;
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR1);
	queue(SIGUSR1, 5);
	mask_op(SIG_UNBLOCK, SIGUSR1);
	checkf(nseen == 1, "a standard signal sent three times is delivered once", nseen, 0);
	checkf(seen[0].code == SI_USER, "the first one's siginfo is kept", seen[0].code, 0);

	/* one pending for the process, one for the thread: two deliveries */
	mask_op(SIG_BLOCK, SIGUSR1);
	nseen = 0;
	kill(getpid(), SIGUSR1);
	syscall(SYS_tgkill, getpid(), (pid_t)syscall(SYS_gettid), SIGUSR1);
	mask_op(SIG_UNBLOCK, SIGUSR1);
	checkf(nseen == 2, "process and thread pending sets each hold one", nseen, 0);
}

/* Handlers unblocked together: frames nest, so the last set up runs first;
 * they are set up lowest number first. */
static void handler_order(void)
{
	static const int want[][2] = {
		{ 101, 10 }, { 101, 11 }, { 100, 20 }, { SIGUSR2, 0 }, { SIGUSR1, 0 }
	};
	sigset_t set;
	int i;

	set_record(SIGUSR1);
	set_record(SIGUSR2);
	set_record(SIGRTMIN);
	set_record(SIGRTMIN + 1);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGRTMIN);
	sigaddset(&set, SIGRTMIN + 1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	nseen = 0;
	queue(SIGRTMIN + 1, 10);
	kill(getpid(), SIGUSR2);
	queue(SIGRTMIN, 20);
	kill(getpid(), SIGUSR1);
	queue(SIGRTMIN + 1, 11);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	checkf(nseen == 5, "five deliveries", nseen, 0);
	for (i = 0; i < 5 && i < nseen; i++) {
		int ok = seen[i].sig == want[i][0] &&
			 (want[i][0] < 100 || seen[i].value == want[i][1]);

		checkf(ok, "handler order", seen[i].sig * 100 + seen[i].value,
		       want[i][0] * 100 + want[i][1]);
	}
}

static int take(const sigset_t *set, siginfo_t *si)
{
	struct timespec zero = { 0, 0 };

	memset(si, 0, sizeof(*si));
	return sigtimedwait(set, si, &zero);
}

static void wait_order(void)
{
	static const int want[][2] = {
		{ SIGUSR1, 0 }, { SIGUSR2, 0 }, { 100, 20 }, { 101, 10 }, { 101, 11 }
	};
	sigset_t set;
	siginfo_t si;
	int i, sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGRTMIN);
	sigaddset(&set, SIGRTMIN + 1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	queue(SIGRTMIN + 1, 10);
	kill(getpid(), SIGUSR2);
	queue(SIGRTMIN, 20);
	kill(getpid(), SIGUSR1);
	queue(SIGRTMIN + 1, 11);
	for (i = 0; i < 5; i++) {
		sig = take(&set, &si);
		checkf(sig > 0 && rel(sig) == want[i][0] &&
			       (want[i][0] < 100 || si.si_value.sival_int == want[i][1]),
		       "sigtimedwait takes the lowest first, queued ones in order",
		       sig > 0 ? rel(sig) * 100 + si.si_value.sival_int : sig,
		       want[i][0] * 100 + want[i][1]);
	}
	sig = take(&set, &si);
	checkf(sig < 0 && errno == EAGAIN, "then none is left", sig, errno);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/* RLIMIT_SIGPENDING counts per user on Linux (other processes' queued
 * signals too) and per process in skas: how many fit under 4 is not fixed
 * (maybe none, when other processes of the user hold some), only that the
 * limit holds. */
static void limit(void)
{
	struct rlimit old, rl;
	int sig = SIGRTMIN + 2, i, ret, count, queued = 0, in_order = 1;
	sigset_t set;
	siginfo_t si;

	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_BLOCK, &set, NULL);
	getrlimit(RLIMIT_SIGPENDING, &old);
	rl = old;
	rl.rlim_cur = 4;
	setrlimit(RLIMIT_SIGPENDING, &rl);
	for (i = 0; i < 10; i++) {
		ret = queue(sig, i);
		if (ret < 0)
			break;
		queued++;
	}
	checkf(queued <= 4, "sigqueue stops at RLIMIT_SIGPENDING", queued, 0);
	checkf(ret < 0 && errno == EAGAIN, "past it: EAGAIN", ret, errno);
	ret = kill(getpid(), sig);
	checkf(ret == 0, "kill past the limit succeeds", ret, errno);
	for (count = 0; take(&set, &si) == sig; count++)
		if (si.si_value.sival_int != count)
			in_order = 0;
	check(in_order, "they came in order");
	/* kill's instance is lost, unless nothing was pending at all */
	checkf(count == (queued ? queued : 1), "as many came as were queued", count, queued);

	rl.rlim_cur = 0;
	setrlimit(RLIMIT_SIGPENDING, &rl);
	ret = kill(getpid(), sig);
	checkf(ret == 0 && is_pending(sig), "with a zero limit kill still makes it pending", ret,
	       errno);
	ret = take(&set, &si);
	checkf(ret == sig && si.si_code == SI_USER && si.si_pid == 0,
	       "its siginfo is lost (SI_USER, no pid)", si.si_code, si.si_pid);
	ret = queue(sig, 1);
	checkf(ret < 0 && errno == EAGAIN, "sigqueue with a zero limit: EAGAIN", ret, errno);
	setrlimit(RLIMIT_SIGPENDING, &old);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

static void ignore_discards(void)
{
	int sig = SIGRTMIN + 3;

	set_record(sig);
	mask_op(SIG_BLOCK, sig);
	queue(sig, 1);
	queue(sig, 2);
	check(is_pending(sig), "queued while blocked");
	signal(sig, SIG_IGN);
	check(!is_pending(sig), "SIG_IGN throws the pending instances away");
	check(queue(sig, 3) == 0 && is_pending(sig), "blocked: still queued though ignored");
	signal(sig, SIG_IGN);
	set_record(sig);
	nseen = 0;
	mask_op(SIG_UNBLOCK, sig);
	checkf(nseen == 0, "nothing delivered after the handler came back", nseen, 0);
	queue(sig, 4);
	checkf(nseen == 1 && seen[0].value == 4, "a new one is", nseen, seen[0].value);
}

static void sigqueueinfo_checks(void)
{
	int sig = SIGRTMIN + 4, ret;
	sigset_t set;
	siginfo_t si, got;
	pid_t pid;

	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_BLOCK, &set, NULL);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct timespec ts = { 5, 0 };

		ret = sigtimedwait(&set, &got, &ts);
		_exit(ret == sig && got.si_value.sival_int == 77 && got.si_code == SI_QUEUE ? 0
											    : 1);
	}
	memset(&si, 0, sizeof(si));
	si.si_code = SI_USER;
	si.si_value.sival_int = 1;
	ret = syscall(SYS_rt_sigqueueinfo, pid, sig, &si);
	checkf(ret < 0 && errno == EPERM, "forged SI_USER to another process: EPERM", ret, errno);
	si.si_code = SI_KERNEL;
	ret = syscall(SYS_rt_sigqueueinfo, pid, sig, &si);
	checkf(ret < 0 && errno == EPERM, "forged SI_KERNEL: EPERM", ret, errno);
	si.si_code = SI_TKILL;
	ret = syscall(SYS_rt_sigqueueinfo, pid, sig, &si);
	checkf(ret < 0 && errno == EPERM, "forged SI_TKILL: EPERM", ret, errno);
	si.si_code = SI_TKILL;
	ret = syscall(SYS_rt_tgsigqueueinfo, pid, pid, sig, &si);
	checkf(ret < 0 && errno == EPERM, "rt_tgsigqueueinfo, forged SI_TKILL: EPERM", ret, errno);
	si.si_code = SI_QUEUE;
	si.si_value.sival_int = 77;
	si.si_pid = getpid();
	si.si_uid = getuid();
	ret = syscall(SYS_rt_sigqueueinfo, pid, sig, &si);
	checkf(ret == 0, "SI_QUEUE to another process", ret, errno);
	waitpid(pid, &ret, 0);
	checkf(WIFEXITED(ret) && WEXITSTATUS(ret) == 0, "the child took it with its value", ret, 0);

	ret = syscall(SYS_rt_sigqueueinfo, pid, sig, &si);
	checkf(ret < 0 && errno == ESRCH, "to a reaped process: ESRCH", ret, errno);
	ret = syscall(SYS_rt_sigqueueinfo, getpid(), 65, &si);
	checkf(ret < 0 && errno == EINVAL, "signal 65: EINVAL", ret, errno);
	ret = syscall(SYS_rt_tgsigqueueinfo, getpid(), 0, sig, &si);
	checkf(ret < 0 && errno == EINVAL, "rt_tgsigqueueinfo tid 0: EINVAL", ret, errno);
	ret = syscall(SYS_rt_tgsigqueueinfo, getpid() + 1000, (pid_t)syscall(SYS_gettid), sig, &si);
	checkf(ret < 0 && errno == ESRCH, "rt_tgsigqueueinfo wrong tgid: ESRCH", ret, errno);

	/* to oneself anything goes, even SI_USER */
	si.si_code = SI_USER;
	si.si_value.sival_int = 88;
	ret = syscall(SYS_rt_tgsigqueueinfo, getpid(), (pid_t)syscall(SYS_gettid), sig, &si);
	checkf(ret == 0, "rt_tgsigqueueinfo SI_USER to oneself", ret, errno);
	ret = take(&set, &got);
	checkf(ret == sig && got.si_code == SI_USER && got.si_value.sival_int == 88,
	       "it came with the given siginfo", got.si_code, got.si_value.sival_int);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	rt_queue();
	std_once();
	handler_order();
	wait_order();
	limit();
	ignore_discards();
	sigqueueinfo_checks();
	printf("1..%d\n", n);
	return 0;
}
