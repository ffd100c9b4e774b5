/* A thread made after another has ended starts afresh, as in Linux, even
 * where skas runs it on the host thread the other one had (the seccomp
 * backend keeps those for the stub's next guest thread): its CPU-time
 * clock, RUSAGE_THREAD and /proc/thread-self/stat times start near zero,
 * the process's total does not count the old one twice, and its MXCSR and
 * x87 control word are its creator's, not the old thread's. Then many
 * short threads one after the other, and a signal to one of them. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>

static int64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* MXCSR and the x87 control word, read or set together. */
static void fpu_ctl_get(uint32_t *mxcsr, uint16_t *fcw)
{
	__asm__ volatile("stmxcsr %0\n\tfnstcw %1" : "=m"(*mxcsr), "=m"(*fcw));
}

static void fpu_ctl_set(uint32_t mxcsr, uint16_t fcw)
{
	__asm__ volatile("ldmxcsr %0\n\tfldcw %1" : : "m"(mxcsr), "m"(fcw));
}

/* The first thread: another MXCSR and control word, xmm registers full,
 * and 200 ms of CPU. */
static void *burn(void *arg)
{
	int64_t end = clock_ns(CLOCK_THREAD_CPUTIME_ID) + 200000000;
	volatile uint64_t x = 0;

	(void)arg;
	fpu_ctl_set(0x1f80 | 0x2000, 0x37f); /* round down, extended precision */
	__asm__ volatile("pcmpeqd %%xmm0, %%xmm0\n\tpcmpeqd %%xmm7, %%xmm7" : : : "xmm0", "xmm7");
	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		x++;
	return NULL;
}

struct second {
	int64_t before_ns; /* the process's CPU time before it was made */
	uint32_t mxcsr;
	uint16_t fcw;
	int64_t thread_ns, rusage_ns, stat_ticks, process_ns;
};

/* utime + stime of /proc/thread-self/stat, in ticks (-1 if unreadable). */
static long stat_ticks(void)
{
	char buf[1024], *p;
	unsigned long u, s;
	FILE *f = fopen("/proc/thread-self/stat", "r");
	int i;

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	p = strrchr(buf, ')');
	for (i = 0; p && i < 12; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%lu %lu", &u, &s) != 2)
		return -1;
	return (long)(u + s);
}

static void *second(void *arg)
{
	struct second *s = arg;
	struct rusage ru;

	s->thread_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	fpu_ctl_get(&s->mxcsr, &s->fcw);
	getrusage(RUSAGE_THREAD, &ru);
	s->rusage_ns = ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
		       ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
	s->stat_ticks = stat_ticks();
	s->process_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - s->before_ns;
	return NULL;
}

static void *nothing(void *arg)
{
	return arg;
}

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	(void)sig;
	got = 1;
}

static void *wait_signal(void *arg)
{
	sigset_t none;

	(void)arg;
	sigemptyset(&none);
	while (!got)
		sigsuspend(&none);
	return (void *)(long)syscall(SYS_gettid);
}

int main(void)
{
	struct second s;
	pthread_t t;
	void *ret;
	int i, ok;
	sigset_t usr1;

	pthread_create(&t, NULL, burn, NULL);
	pthread_join(t, NULL);

	memset(&s, 0, sizeof(s));
	fpu_ctl_set(0x1f80 | 0x6000, 0x27f); /* round toward zero, double precision */
	s.before_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	pthread_create(&t, NULL, second, &s);
	pthread_join(t, NULL);
	printf("the second thread's CPU clock starts near zero: %s\n",
	       s.thread_ns < 50000000 ? "yes" : "no");
	printf("its RUSAGE_THREAD too: %s\n", s.rusage_ns < 50000000 ? "yes" : "no");
	printf("its /proc/thread-self/stat times too: %s\n",
	       s.stat_ticks >= 0 && s.stat_ticks < 5 ? "yes" : "no");
	printf("the process's CPU time grew by little meanwhile: %s\n",
	       s.process_ns < 50000000 ? "yes" : "no");
	printf("its MXCSR is its creator's: %s\n", s.mxcsr == (0x1f80 | 0x6000) ? "yes" : "no");
	printf("its x87 control word is its creator's: %s\n", s.fcw == 0x27f ? "yes" : "no");
	fpu_ctl_set(0x1f80, 0x37f);

	ok = 1;
	for (i = 0; i < 200 && ok; i++) {
		ret = NULL;
		ok = pthread_create(&t, NULL, nothing, (void *)(long)(i + 1)) == 0 &&
		     pthread_join(t, &ret) == 0 && ret == (void *)(long)(i + 1);
	}
	printf("200 threads one after the other: %s\n", ok ? "ok" : "not ok");

	signal(SIGUSR1, on_usr1);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	pthread_create(&t, NULL, wait_signal, NULL);
	pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);
	while (!got) {
		pthread_kill(t, SIGUSR1);
		usleep(1000);
	}
	pthread_join(t, &ret);
	printf("a signal reaches a later thread: %s\n",
	       ret && (long)ret != getpid() ? "yes" : "no");
	return 0;
}
