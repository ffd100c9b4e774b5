/* The time left that select, pselect6 and ppoll write back to the
 * timeout (Linux's poll_select_finish): about zero after a timeout, most
 * of it after an early return, untouched for a zero timeout or in
 * read-only memory; select's microseconds past a second, and EINVAL when
 * they overflow the seconds. Raw system calls: glibc's pselect and ppoll
 * hand the kernel a copy. Times are checked against bounds only. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/syscall.h>

#include "tap.h"

int main(void)
{
	struct timeval tv, *rotv;
	struct timespec ts;
	fd_set rd;
	int p[2];
	long r;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (pipe(p) < 0)
		return 1;

	tv.tv_sec = 0;
	tv.tv_usec = 30000;
	r = syscall(SYS_select, 0, NULL, NULL, NULL, &tv);
	check(r == 0 && tv.tv_sec == 0 && tv.tv_usec == 0, "select: a timeout leaves 0");

	ts.tv_sec = 0;
	ts.tv_nsec = 30000000;
	r = syscall(SYS_pselect6, 0, NULL, NULL, NULL, &ts, NULL);
	check(r == 0 && ts.tv_sec == 0 && ts.tv_nsec == 0, "pselect6: a timeout leaves 0");

	ts.tv_sec = 0;
	ts.tv_nsec = 30000000;
	r = syscall(SYS_ppoll, NULL, 0, &ts, NULL, 8);
	check(r == 0 && ts.tv_sec == 0 && ts.tv_nsec == 0, "ppoll: a timeout leaves 0");

	if (write(p[1], "x", 1) != 1)
		return 1;
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	tv.tv_sec = 10;
	tv.tv_usec = 0;
	r = syscall(SYS_select, p[0] + 1, &rd, NULL, NULL, &tv);
	check(r == 1 && tv.tv_sec >= 8 && tv.tv_sec <= 9 && tv.tv_usec < 1000000,
	      "select: ready at once leaves most of 10 s");

	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	ts.tv_sec = 10;
	ts.tv_nsec = 0;
	r = syscall(SYS_pselect6, p[0] + 1, &rd, NULL, NULL, &ts, NULL);
	check(r == 1 && ts.tv_sec >= 8 && ts.tv_sec <= 9 && ts.tv_nsec < 1000000000,
	      "pselect6: ready at once leaves most of 10 s");

	{
		struct {
			int fd;
			short events, revents;
		} pf = { p[0], 1, 0 };

		ts.tv_sec = 10;
		ts.tv_nsec = 0;
		r = syscall(SYS_ppoll, &pf, 1, &ts, NULL, 8);
		check(r == 1 && ts.tv_sec >= 8 && ts.tv_sec <= 9,
		      "ppoll: ready at once leaves most of 10 s");
	}

	tv.tv_sec = 0;
	tv.tv_usec = 0;
	r = syscall(SYS_select, 0, NULL, NULL, NULL, &tv);
	check(r == 0 && tv.tv_sec == 0 && tv.tv_usec == 0, "select: a zero timeout stays zero");

	tv.tv_sec = 0;
	tv.tv_usec = 1030000;
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	r = syscall(SYS_select, p[0] + 1, &rd, NULL, NULL, &tv);
	check(r == 1 && tv.tv_sec == 1 && tv.tv_usec > 0 && tv.tv_usec <= 30000,
	      "select: 1030000 us is 1 s and 30000 us");

	tv.tv_sec = INT64_MAX;
	tv.tv_usec = 1000000;
	errno = 0;
	r = syscall(SYS_select, 0, NULL, NULL, NULL, &tv);
	check(r == -1 && errno == EINVAL, "select: microseconds overflowing the seconds -> EINVAL");

	rotv = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (rotv == MAP_FAILED)
		return 1;
	rotv->tv_sec = 0;
	rotv->tv_usec = 10000;
	mprotect(rotv, 4096, PROT_READ);
	r = syscall(SYS_select, 0, NULL, NULL, NULL, rotv);
	check(r == 0 && rotv->tv_usec == 10000, "select: a read-only timeout is not written");
	return 0;
}
