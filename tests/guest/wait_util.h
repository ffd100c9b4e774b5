/* tests/guest/wait_util.h: what the tests of blocking calls share:
 * sleep_ms, and wait_blocked, which waits until another process sleeps
 * (blocked in the call it makes next: a lock, an open a lease holds),
 * whatever the load on the machine. */
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

/* Waits (up to 3 s) until process pid's state is S, then 20 ms more. */
static inline void wait_blocked(pid_t pid)
{
	char path[64], buf[256], *p;
	int i, fd;
	ssize_t r;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (i = 0; i < 300; i++) {
		fd = open(path, O_RDONLY);
		r = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		if (fd >= 0)
			close(fd);
		buf[r > 0 ? r : 0] = 0;
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'S')
			break;
		sleep_ms(10);
	}
	sleep_ms(20);
}

#endif
