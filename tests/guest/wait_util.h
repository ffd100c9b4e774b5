/* tests/guest/wait_util.h: what the tests of blocking calls share:
 * sleep_ms; proc_sleeps, whether another process sleeps (its
 * /proc/PID/stat state is S: blocked in the call it makes next, a lock,
 * a msgrcv, an open a lease holds); and wait_blocked, which waits for
 * that whatever the load on the machine. */
#ifndef TESTS_GUEST_WAIT_UTIL_H
#define TESTS_GUEST_WAIT_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static inline int proc_sleeps(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY);
	r = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[r > 0 ? r : 0] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

/* Waits (up to 3 s) until process pid sleeps, then 20 ms more. */
static inline void wait_blocked(pid_t pid)
{
	int i;

	for (i = 0; i < 300 && !proc_sleeps(pid); i++)
		sleep_ms(10);
	sleep_ms(20);
}

#endif
