/* The load average: /proc/loadavg's three averages, running/total threads
 * and last pid, and sysinfo(2)'s loads, the same fixed-point values (16
 * bits of fraction against Linux's 11, /proc rounding to hundredths).
 * skas had 0.00 for good; a thread that runs through a sampling period
 * (every 5 s and a tick) must raise the 1-minute average by at least
 * 1 - exp(-5/60), 0.08, whatever it was: it spins until it has, for 12 s
 * at most. */
/* skas-test: timeout: 30 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/sysinfo.h>

#include "tap.h"

struct avg {
	unsigned l[3][2]; /* integer part, hundredths */
	int running, total, last;
};

static int read_loadavg(struct avg *a)
{
	FILE *f = fopen("/proc/loadavg", "r");
	int n;

	if (!f)
		return 0;
	n = fscanf(f, "%u.%2u %u.%2u %u.%2u %d/%d %d", &a->l[0][0], &a->l[0][1], &a->l[1][0],
		   &a->l[1][1], &a->l[2][0], &a->l[2][1], &a->running, &a->total, &a->last);
	fclose(f);
	return n == 9;
}

static double secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(void)
{
	struct avg a, b;
	struct sysinfo si;
	volatile unsigned long spin = 0;
	int same = 0, tries, ok = 1;
	double until;

	check(read_loadavg(&a), "/proc/loadavg: three averages, running/total, last pid");
	check(a.running >= 1 && a.total >= a.running && a.last >= 1,
	      "this thread runs; total at least that; a last pid");
	for (int i = 0; i < 3; i++)
		ok &= a.l[i][1] < 100;
	check(ok, "hundredths below 100");

	/* sysinfo's loads are /proc's before rounding: the same when no
	 * period falls between two reads of /proc. */
	for (tries = 0; tries < 10 && !same; tries++) {
		read_loadavg(&a);
		sysinfo(&si);
		read_loadavg(&b);
		same = !memcmp(a.l, b.l, sizeof(a.l));
	}
	ok = same;
	for (int i = 0; i < 3 && same; i++) {
		unsigned long x = si.loads[i] >> 5; /* back to 11 bits of fraction */

		ok &= (si.loads[i] & 31) == 0 && ((x + 10) >> 11) == a.l[i][0] &&
		      ((((x + 10) & 2047) * 100) >> 11) == a.l[i][1];
	}
	check(ok, "sysinfo's loads are /proc/loadavg's, unrounded");

	/* Run through a sampling period. */
	until = secs() + 12;
	do {
		double next = secs() + 0.05;

		while (secs() < next)
			for (int i = 0; i < 10000; i++)
				spin++;
		ok = read_loadavg(&a) && (a.l[0][0] > 0 || a.l[0][1] >= 8);
	} while (!ok && secs() < until);
	check(ok, "running, the 1-minute average reaches 0.08 within 12 s");

	/* sysinfo's uptime is /proc/uptime's (skas gave the host's) */
	{
		double up = -1;
		FILE *f = fopen("/proc/uptime", "r");

		if (f && fscanf(f, "%lf", &up) != 1)
			up = -1;
		if (f)
			fclose(f);
		sysinfo(&si);
		check(up >= 0 && si.uptime >= (long)up - 1 && si.uptime <= (long)up + 1,
		      "sysinfo's uptime is /proc/uptime's");
	}
	return 0;
}
