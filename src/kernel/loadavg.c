/* kernel/loadavg.c: the load average, as Linux's kernel/sched/loadavg.c.
 * Every LOAD_FREQ the number of guest threads that run or wait to run
 * folds into three exponentially decaying averages (1, 5 and 15 minutes)
 * in FSHIFT fixed point, with Linux's constants and rounding, so
 * /proc/loadavg, sysinfo(2) and uptime read as on Linux.
 *
 * skas has no tick: the count changes only where a task goes to sleep,
 * exits, wakes or starts (kernel/sched.c), and loadavg_update, called
 * there first, folds the periods that fell due since with the count as it
 * was. A task's trap back into the kernel changes nothing: it counts
 * while it runs guest code too. A vfork parent waiting for its child
 * counts, as Linux's uninterruptible sleeps do; skas has no other. */
#include <stdio.h>

#include "kernel/sched.h"
#include "kernel/task.h"

#define FSHIFT	     11
#define FIXED_1	     (1UL << FSHIFT)
#define EXP_1	     1884	  /* 1/exp(5s/1min) in fixed point */
#define EXP_5	     2014	  /* 1/exp(5s/5min) */
#define EXP_15	     2037	  /* 1/exp(5s/15min) */
#define LOAD_FREQ_NS 5004000000LL /* 5 s and a tick: Linux's 5*HZ+1 at HZ 250 */
/* After this many periods every average has reached the count (15
 * minutes' decays by 2^-16 in 4.5 hours): a longer gap folds as this. */
#define MAX_FOLD 4096

static uint64_t avenrun[3];
static int64_t next_ns; /* when the next period is due; 0 until the first look */

static uint64_t calc_load(uint64_t load, uint64_t exp, uint64_t active)
{
	uint64_t newload = load * exp + active * (FIXED_1 - exp);

	if (active >= load)
		newload += FIXED_1 - 1;
	return newload / FIXED_1;
}

/* x^n in FSHIFT fixed point, rounding each step (Linux's fixed_power_int). */
static uint64_t fixed_power(uint64_t x, unsigned n)
{
	uint64_t result = FIXED_1;

	while (n) {
		if (n & 1)
			result = (result * x + (FIXED_1 >> 1)) >> FSHIFT;
		n >>= 1;
		if (n)
			x = (x * x + (FIXED_1 >> 1)) >> FSHIFT;
	}
	return result;
}

void loadavg_update(int64_t now_ns, int extra)
{
	static const uint64_t exps[3] = { EXP_1, EXP_5, EXP_15 };
	uint64_t active;
	int64_t periods;

	if (now_ns < next_ns)
		return;
	if (next_ns == 0) {
		next_ns = now_ns + LOAD_FREQ_NS;
		return;
	}
	periods = (now_ns - next_ns) / LOAD_FREQ_NS + 1;
	next_ns += periods * LOAD_FREQ_NS;
	if (periods > MAX_FOLD)
		periods = MAX_FOLD;
	active = (uint64_t)(task_nr_load() + extra) * FIXED_1;
	for (int i = 0; i < 3; i++)
		avenrun[i] = calc_load(avenrun[i], fixed_power(exps[i], (unsigned)periods), active);
}

void loadavg_get(uint64_t loads[3], uint64_t offset, int shift)
{
	for (int i = 0; i < 3; i++)
		loads[i] = (avenrun[i] + offset) << shift;
}

int loadavg_format(char *buf, size_t size)
{
	uint64_t l[3];
	int n = 0;

	loadavg_get(l, FIXED_1 / 200, 0);
	for (int i = 0; i < 3 && n >= 0 && (size_t)n < size; i++)
		n += snprintf(buf + n, size - (size_t)n, "%s%u.%02u", i ? " " : "",
			      (unsigned)(l[i] >> FSHIFT),
			      (unsigned)(((l[i] & (FIXED_1 - 1)) * 100) >> FSHIFT));
	return n;
}
