/* A CPU-time timer's signal goes to a thread that is using the CPU, as
 * Linux raises it from that thread's tick: with the main thread asleep in
 * a join and one thread spinning, ITIMER_PROF's SIGPROF (what profilers
 * sample with: gperftools, Go's runtime for threads it did not make) and
 * ITIMER_VIRTUAL's SIGVTALRM land in the spinner, and so does a POSIX
 * timer on the process's CPU clock. Two spinners share them. The handler
 * counts per thread; counts only, no timing. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

#define WANT 40
static pid_t spinners[2];
static volatile int hits[3], total; /* per spinner, then any other thread */
static volatile int stop;

static void on_sig(int sig)
{
	pid_t me = (pid_t)syscall(SYS_gettid);

	(void)sig;
	hits[me == spinners[0] ? 0 : me == spinners[1] ? 1 : 2]++;
	if (++total >= WANT)
		stop = 1;
}

static void *spin(void *arg)
{
	int i = (int)(long)arg;
	volatile unsigned long x = 0;

	spinners[i] = (pid_t)syscall(SYS_gettid);
	while (!stop)
		x++;
	return NULL;
}

/* how: 0 ITIMER_PROF, 1 ITIMER_VIRTUAL, 2 timer_create on the process's
 * CPU clock; with nspin spinners. */
static void run(int how, int nspin, const char *what)
{
	static const int sigs[3] = { SIGPROF, SIGVTALRM, SIGPROF };
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	struct sigevent sev;
	struct itimerspec its = { { 0, 2000000 }, { 0, 2000000 } };
	struct sigaction sa;
	pthread_t th[2];
	timer_t tm;
	char line[160];
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sa.sa_flags = SA_RESTART;
	sigaction(sigs[how], &sa, NULL);
	hits[0] = hits[1] = hits[2] = total = 0;
	stop = 0;
	spinners[0] = spinners[1] = -1;
	for (i = 0; i < nspin; i++)
		pthread_create(&th[i], NULL, spin, (void *)(long)i);
	if (how == 2) {
		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_SIGNAL;
		sev.sigev_signo = SIGPROF;
		if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &sev, &tm) < 0 ||
		    timer_settime(tm, 0, &its, NULL) < 0)
			check(0, "timer_create");
	} else {
		setitimer(how == 0 ? ITIMER_PROF : ITIMER_VIRTUAL, &it, NULL);
	}
	for (i = 0; i < nspin; i++)
		pthread_join(th[i], NULL);
	if (how == 2)
		timer_delete(tm);
	else
		setitimer(how == 0 ? ITIMER_PROF : ITIMER_VIRTUAL, &off, NULL);
	/* all but a few in the spinners (the main thread only joins) */
	snprintf(line, sizeof(line), "%s: %d signals, at most 2 outside the spinners", what, WANT);
	check(total >= WANT && hits[2] <= 2, line);
	if (nspin == 2) {
		snprintf(line, sizeof(line), "%s: each spinner takes some", what);
		check(hits[0] > 0 && hits[1] > 0, line);
	}
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	run(0, 1, "ITIMER_PROF, one spinner");
	run(1, 1, "ITIMER_VIRTUAL, one spinner");
	run(2, 1, "timer on CLOCK_PROCESS_CPUTIME_ID, one spinner");
	run(0, 2, "ITIMER_PROF, two spinners");
	return 0;
}
