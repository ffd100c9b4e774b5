/* Many periodic timers with a 1 us interval must not starve everything
 * else: 256 timerfds nobody reads and 256 POSIX timers whose signal is
 * blocked, then a 100 ms sleep ends and the process goes on (skas's
 * scheduler fired the timerfds for ever: the guest hung). A timer whose
 * signal waits counts the periods as overruns and fires again once the
 * signal is taken, and again after its pending signal was thrown away
 * by SIG_IGN; one whose signal is ignored goes quiet and fires again
 * once the signal is no longer ignored. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/timerfd.h>

#include "tap.h"

#define N 256

int main(void)
{
	struct itimerspec it = { .it_value = { 0, 1000 }, .it_interval = { 0, 1000 } };
	struct timespec one_s = { 1, 0 };
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN };
	int fds[N], bad = 0, i, got, over;
	timer_t tids[N];
	uint64_t ticks = 0;
	siginfo_t si;
	sigset_t set;

	setvbuf(stdout, NULL, _IONBF, 0);
	for (i = 0; i < N; i++) {
		fds[i] = timerfd_create(CLOCK_MONOTONIC, 0);
		if (fds[i] < 0 || timerfd_settime(fds[i], 0, &it, NULL) != 0)
			bad++;
	}
	check(!bad, "256 timerfds every 1 us");
	usleep(100000);
	check(1, "a 100 ms sleep ends beside them");
	check(read(fds[0], &ticks, sizeof(ticks)) == sizeof(ticks) && ticks > 1,
	      "one of them counted its periods");
	for (i = 0; i < N; i++)
		close(fds[i]);

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &set, NULL);
	for (i = 0; i < N; i++) {
		ev.sigev_value.sival_int = i;
		if (timer_create(CLOCK_MONOTONIC, &ev, &tids[i]) != 0 ||
		    timer_settime(tids[i], 0, &it, NULL) != 0)
			bad++;
	}
	check(!bad, "256 POSIX timers every 1 us, their signal blocked");
	usleep(100000);
	check(1, "a 100 ms sleep ends beside them");
	for (i = 1; i < N; i++)
		timer_delete(tids[i]);
	/* the first timer's signals (the others' were dropped with them) */
	got = 0;
	over = 0;
	while (got < 3 && sigtimedwait(&set, &si, &one_s) == SIGRTMIN) {
		if (si.si_code != SI_TIMER || si.si_value.sival_int != 0)
			continue;
		got++;
		if (si.si_overrun > 0)
			over++;
		usleep(1000);
	}
	check(got == 3, "its signal comes again each time it is taken");
	check(over >= 2, "with the periods between as overruns");
	signal(SIGRTMIN, SIG_IGN); /* throws the pending one away */
	signal(SIGRTMIN, SIG_DFL);
	usleep(1000);
	check(sigtimedwait(&set, &si, &one_s) == SIGRTMIN && si.si_code == SI_TIMER,
	      "and after its pending signal was thrown away by SIG_IGN");
	timer_delete(tids[0]);

	/* Its signal ignored, a timer goes quiet; taken again, it fires. */
	signal(SIGRTMIN, SIG_IGN);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	ev.sigev_value.sival_int = 9;
	check(timer_create(CLOCK_MONOTONIC, &ev, &tids[0]) == 0 &&
		      timer_settime(tids[0], 0, &it, NULL) == 0,
	      "a timer every 1 us whose signal is ignored");
	usleep(100000);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGRTMIN, SIG_DFL); /* blocked: waits to be taken */
	check(sigtimedwait(&set, &si, &one_s) == SIGRTMIN && si.si_code == SI_TIMER &&
		      si.si_value.sival_int == 9,
	      "once no longer ignored, its signal comes");
	timer_delete(tids[0]);
	return 0;
}
