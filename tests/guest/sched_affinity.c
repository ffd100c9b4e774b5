/* sched_setaffinity's mask is what sched_getaffinity, /proc/self/status
 * and a child (fork, a thread) see afterwards; an empty mask, or one of
 * CPUs that do not exist only, is EINVAL. skas once checked the mask and
 * forgot it (CPython's test_posix test_sched_setaffinity). The mask set is
 * the last CPU alone, so the test means the same on any number of CPUs. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "tap.h"

/* The Cpus_allowed_list line of /proc/self/status. */
static void allowed_list(char *out, size_t len)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];

	out[0] = 0;
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "Cpus_allowed_list:\t", 19) == 0)
			snprintf(out, len, "%s", line + 19);
	if (f)
		fclose(f);
}

static int only(const cpu_set_t *s, int cpu)
{
	return CPU_COUNT(s) == 1 && CPU_ISSET(cpu, s);
}

static int last;

static void *thread_mask(void *arg)
{
	cpu_set_t s;

	(void)arg;
	return (void *)(long)(sched_getaffinity(0, sizeof(s), &s) == 0 && only(&s, last));
}

int main(void)
{
	cpu_set_t all, one, got, none;
	char list[256], want[64];
	pthread_t th;
	void *res;
	pid_t c;
	int st, i;

	setvbuf(stdout, NULL, _IONBF, 0);
	check(sched_getaffinity(0, sizeof(all), &all) == 0 && CPU_COUNT(&all) >= 1,
	      "sched_getaffinity: at least one CPU");
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &all))
			last = i;
	CPU_ZERO(&one);
	CPU_SET(last, &one);
	check(sched_setaffinity(0, sizeof(one), &one) == 0, "set the last CPU alone");
	check(sched_getaffinity(0, sizeof(got), &got) == 0 && only(&got, last),
	      "sched_getaffinity gives it back");
	allowed_list(list, sizeof(list));
	snprintf(want, sizeof(want), "%d\n", last);
	check(strcmp(list, want) == 0, "/proc/self/status Cpus_allowed_list shows it");

	c = fork();
	if (c == 0)
		_exit(sched_getaffinity(0, sizeof(got), &got) == 0 && only(&got, last) ? 0 : 1);
	check(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a forked child has the mask");
	check(pthread_create(&th, NULL, thread_mask, NULL) == 0 && pthread_join(th, &res) == 0 &&
		      res == (void *)1L,
	      "a new thread has the mask");

	CPU_ZERO(&none);
	errno = 0;
	check(sched_setaffinity(0, sizeof(none), &none) == -1 && errno == EINVAL,
	      "an empty mask: EINVAL");
	CPU_ZERO(&none);
	CPU_SET(CPU_SETSIZE - 1, &none);
	errno = 0;
	check(sched_setaffinity(0, sizeof(none), &none) == -1 && errno == EINVAL,
	      "only a CPU that does not exist: EINVAL");
	check(sched_getaffinity(0, sizeof(got), &got) == 0 && only(&got, last),
	      "the failed calls left the mask");
	errno = 0;
	check(sched_setaffinity(0x3fffffff, sizeof(all), &all) == -1 && errno == ESRCH,
	      "no such thread: ESRCH");

	check(sched_setaffinity(0, sizeof(all), &all) == 0, "every CPU again");
	check(sched_getaffinity(0, sizeof(got), &got) == 0 && CPU_EQUAL(&got, &all),
	      "sched_getaffinity gives them all");
	return 0;
}
