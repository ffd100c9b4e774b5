/* /proc/stat's CPU lines count time: a thread that spins half a second
 * adds about as much to the user and system columns (top, vmstat, mpstat
 * read their deltas); every CPU's columns together grow at most as fast
 * as the clock (idle is what was not used); the first line is the other
 * lines' sum; /proc/uptime's idle field grows too. skas showed every CPU
 * idle all the time: top said 100% idle under load. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

#define MAXCPU 64

struct cpu {
	unsigned long long f[10];
};

/* The first line and the per-CPU ones; how many of those. */
static int read_stat(struct cpu *all, struct cpu *per)
{
	char line[512];
	int n = 0;
	FILE *f = fopen("/proc/stat", "r");

	while (f && fgets(line, sizeof(line), f)) {
		struct cpu c;
		char name[16];

		if (strncmp(line, "cpu", 3) != 0)
			break;
		memset(&c, 0, sizeof(c));
		if (sscanf(line, "%15s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", name,
			   &c.f[0], &c.f[1], &c.f[2], &c.f[3], &c.f[4], &c.f[5], &c.f[6], &c.f[7],
			   &c.f[8], &c.f[9]) < 5)
			break;
		if (strcmp(name, "cpu") == 0)
			*all = c;
		else if (n < MAXCPU)
			per[n++] = c;
	}
	if (f)
		fclose(f);
	return n;
}

/* user + nice + system, and all but guest time (counted in user) */
static unsigned long long busy(const struct cpu *c)
{
	return c->f[0] + c->f[1] + c->f[2];
}

static unsigned long long total(const struct cpu *c)
{
	unsigned long long t = 0;

	for (int i = 0; i < 8; i++)
		t += c->f[i];
	return t;
}

static double now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double uptime_idle(void)
{
	double up = -1, idle = -1;
	FILE *f = fopen("/proc/uptime", "r");

	if (f && fscanf(f, "%lf %lf", &up, &idle) != 2)
		idle = -1;
	if (f)
		fclose(f);
	return idle;
}

int main(void)
{
	struct cpu a0, a1, p0[MAXCPU], p1[MAXCPU], sum;
	int n0, n1, i, j;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double t0, t1, cpu0, idle0, idle1;
	volatile unsigned long spin = 0;

	n0 = read_stat(&a0, p0);
	check(n0 == ncpu, "a cpuN line per online CPU");
	idle0 = uptime_idle();
	t0 = now(CLOCK_MONOTONIC);
	cpu0 = now(CLOCK_PROCESS_CPUTIME_ID);
	while (now(CLOCK_PROCESS_CPUTIME_ID) - cpu0 < 0.5)
		spin++;
	t1 = now(CLOCK_MONOTONIC);
	n1 = read_stat(&a1, p1);
	idle1 = uptime_idle();
	check(n1 == n0, "as many lines");
	check(busy(&a1) >= busy(&a0) + 40,
	      "half a second spun: user+nice+system grew by 0.4 s at least");
	if (busy(&a1) < busy(&a0) + 40)
		printf("# busy %llu -> %llu\n", busy(&a0), busy(&a1));
	/* every column together: about the CPUs' count times the clock (two
	 * ticks of rounding a CPU, and the reads' own time) */
	check(total(&a1) - total(&a0) <=
		      (unsigned long long)((t1 - t0 + 0.1) * 100 * ncpu) + 2 * ncpu,
	      "all columns grow no faster than the clock on each CPU");
	check(total(&a1) - total(&a0) + 10 * ncpu >=
		      (unsigned long long)((t1 - t0) * 100 * ncpu) / 2,
	      "nor much slower");
	memset(&sum, 0, sizeof(sum));
	for (i = 0; i < n1; i++)
		for (j = 0; j < 10; j++)
			sum.f[j] += p1[i].f[j];
	for (j = 0, i = 1; j < 10; j++)
		if (sum.f[j] > a1.f[j] + (unsigned long long)n1 ||
		    sum.f[j] + (unsigned long long)n1 < a1.f[j])
			i = 0;
	check(i, "the first line is the sum of the others");
	check(idle0 >= 0 && idle1 >= idle0, "/proc/uptime's idle time does not go back");
	return 0;
}
