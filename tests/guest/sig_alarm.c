/* alarm(2), setitimer(2), getitimer(2): alarm's rounded remaining seconds,
 * ITIMER_REAL with an interval (ticks counted with sigsuspend), reading it
 * back, the old value, bad arguments, ITIMER_VIRTUAL keeping its value,
 * no inheritance across fork, survival across exec, a child killed by
 * SIGALRM's default action, and a timer pending at exit that never fires.
 *
 * Under skas this program is pid 1: SIGALRM's default action is tested in
 * children. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/time.h>
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

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static pid_t xfork(void)
{
	fflush(stdout);
	return fork();
}

static volatile int ticks;

static void on_alrm(int sig)
{
	(void)sig;
	ticks++;
}

static void alarm_values(void)
{
	unsigned r;

	r = alarm(1);
	checkf(r == 0, "alarm(1) with none pending returns 0", r, 0);
	r = alarm(0);
	checkf(r == 1, "alarm(0) returns the seconds left, rounded (1)", r, 0);
	r = alarm(0);
	checkf(r == 0, "then none is pending", r, 0);
	alarm(5);
	sleep_ms(100);
	r = alarm(3);
	checkf(r == 5, "4.9 s left rounds to 5", r, 0);
	r = alarm(0);
	checkf(r == 3, "alarm(3) replaced it", r, 0);
}

static void interval(void)
{
	struct itimerval it, cur, old;
	sigset_t block, wait_mask;
	int ret;

	signal(SIGALRM, on_alrm);
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	sigprocmask(SIG_BLOCK, &block, &wait_mask);
	sigdelset(&wait_mask, SIGALRM);
	ticks = 0;
	memset(&it, 0, sizeof(it));
	it.it_value.tv_usec = 20000;
	it.it_interval.tv_usec = 20000;
	ret = setitimer(ITIMER_REAL, &it, NULL);
	check(ret == 0, "setitimer(ITIMER_REAL, 20 ms, every 20 ms)");
	ret = getitimer(ITIMER_REAL, &cur);
	check(ret == 0, "getitimer(ITIMER_REAL)");
	checkf(cur.it_interval.tv_sec == 0 && cur.it_interval.tv_usec == 20000,
	       "it reads back the interval", cur.it_interval.tv_sec, cur.it_interval.tv_usec);
	checkf(cur.it_value.tv_sec == 0 && cur.it_value.tv_usec > 0 &&
		       cur.it_value.tv_usec <= 20000,
	       "and a value left of at most 20 ms", cur.it_value.tv_sec, cur.it_value.tv_usec);
	while (ticks < 3)
		sigsuspend(&wait_mask);
	checkf(ticks == 3, "a handler counted three ticks with sigsuspend", ticks, 0);
	ret = getitimer(ITIMER_REAL, &cur);
	checkf(ret == 0 && cur.it_value.tv_sec == 0 && cur.it_value.tv_usec > 0,
	       "still armed after the ticks (reloaded)", cur.it_value.tv_sec, cur.it_value.tv_usec);

	/* blocked: ticks go on, one SIGALRM stays pending */
	sleep_ms(70);
	sigpending(&block);
	check(sigismember(&block, SIGALRM), "blocked: SIGALRM is pending");
	memset(&it, 0, sizeof(it));
	ret = setitimer(ITIMER_REAL, &it, &old);
	check(ret == 0, "setitimer with zero disarms");
	checkf(old.it_interval.tv_usec == 20000 && old.it_value.tv_sec == 0 &&
		       old.it_value.tv_usec <= 20000,
	       "and gives the old value", old.it_interval.tv_usec, old.it_value.tv_usec);
	ticks = 0;
	sigprocmask(SIG_SETMASK, &wait_mask, NULL);
	checkf(ticks == 1, "unblocked: the pending ones come as one", ticks, 0);
	ret = getitimer(ITIMER_REAL, &cur);
	check(ret == 0 && cur.it_value.tv_sec == 0 && cur.it_value.tv_usec == 0 &&
		      cur.it_interval.tv_sec == 0 && cur.it_interval.tv_usec == 0,
	      "getitimer after disarming: zero");
	sleep_ms(50);
	checkf(ticks == 1, "no tick after disarming", ticks, 0);

	/* a one-shot timer fires once */
	it.it_value.tv_usec = 10000;
	setitimer(ITIMER_REAL, &it, NULL);
	sleep_ms(60);
	checkf(ticks == 2, "a one-shot timer fires once", ticks, 0);
	getitimer(ITIMER_REAL, &cur);
	check(cur.it_value.tv_usec == 0 && cur.it_value.tv_sec == 0, "and is then disarmed");
	signal(SIGALRM, SIG_DFL);
}

static void bad_args(void)
{
	struct itimerval it, cur;
	int ret;

	memset(&it, 0, sizeof(it));
	it.it_value.tv_usec = 1000000;
	ret = setitimer(ITIMER_REAL, &it, NULL);
	checkf(ret < 0 && errno == EINVAL, "tv_usec 1000000: EINVAL", ret, errno);
	it.it_value.tv_usec = -1;
	ret = setitimer(ITIMER_REAL, &it, NULL);
	checkf(ret < 0 && errno == EINVAL, "tv_usec -1: EINVAL", ret, errno);
	it.it_value.tv_usec = 0;
	it.it_interval.tv_sec = -1;
	ret = setitimer(ITIMER_REAL, &it, NULL);
	checkf(ret < 0 && errno == EINVAL, "negative interval: EINVAL", ret, errno);
	memset(&it, 0, sizeof(it));
	ret = setitimer(5, &it, NULL);
	checkf(ret < 0 && errno == EINVAL, "setitimer(5): EINVAL", ret, errno);
	ret = getitimer(5, &cur);
	checkf(ret < 0 && errno == EINVAL, "getitimer(5): EINVAL", ret, errno);
}

static void cpu_timers(void)
{
	struct itimerval it, cur;
	int ret;

	memset(&it, 0, sizeof(it));
	it.it_value.tv_sec = 100;
	it.it_interval.tv_sec = 7;
	ret = setitimer(ITIMER_VIRTUAL, &it, NULL);
	check(ret == 0, "setitimer(ITIMER_VIRTUAL, 100 s)");
	ret = getitimer(ITIMER_VIRTUAL, &cur);
	checkf(ret == 0 && cur.it_value.tv_sec >= 99 && cur.it_value.tv_sec <= 100,
	       "getitimer(ITIMER_VIRTUAL) reads it back", ret, cur.it_value.tv_sec);
	checkf(cur.it_interval.tv_sec == 7 && cur.it_interval.tv_usec == 0, "with its interval",
	       cur.it_interval.tv_sec, cur.it_interval.tv_usec);
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_VIRTUAL, &it, NULL);
	getitimer(ITIMER_VIRTUAL, &cur);
	check(cur.it_value.tv_sec == 0 && cur.it_value.tv_usec == 0, "ITIMER_VIRTUAL disarmed");
	ret = getitimer(ITIMER_PROF, &cur);
	check(ret == 0 && cur.it_value.tv_sec == 0 && cur.it_value.tv_usec == 0,
	      "ITIMER_PROF starts disarmed");
}

static void children(const char *self)
{
	struct itimerval it;
	int st;
	pid_t pid;

	/* SIGALRM's default action kills */
	pid = xfork();
	if (pid == 0) {
		alarm(1);
		for (;;)
			pause();
	}
	waitpid(pid, &st, 0);
	check(WIFSIGNALED(st), "a child with alarm(1) dies of a signal");
	checkf(WTERMSIG(st) == SIGALRM, "of SIGALRM (14)", WTERMSIG(st), 0);

	/* not inherited across fork */
	memset(&it, 0, sizeof(it));
	it.it_value.tv_sec = 10;
	setitimer(ITIMER_REAL, &it, NULL);
	pid = xfork();
	if (pid == 0) {
		struct itimerval cur;

		getitimer(ITIMER_REAL, &cur);
		_exit(cur.it_value.tv_sec == 0 && cur.it_value.tv_usec == 0 ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a forked child has no timer");
	alarm(0);

	/* kept across exec */
	pid = xfork();
	if (pid == 0) {
		it.it_value.tv_sec = 0;
		it.it_value.tv_usec = 50000;
		setitimer(ITIMER_REAL, &it, NULL);
		execl(self, self, "pause", (char *)NULL);
		_exit(99);
	}
	waitpid(pid, &st, 0);
	checkf(WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM, "the timer survives exec", st, 0);

	/* pending at exit: never fires; the zombie's status stays the exit */
	pid = xfork();
	if (pid == 0) {
		it.it_value.tv_sec = 0;
		it.it_value.tv_usec = 20000;
		setitimer(ITIMER_REAL, &it, NULL);
		_exit(5);
	}
	sleep_ms(100);
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 5, "a timer pending at exit does not fire");
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "pause") == 0) {
		for (;;)
			pause();
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	alarm_values();
	interval();
	bad_args();
	cpu_timers();
	children(argv[0]);
	printf("1..%d\n", n);
	return 0;
}
