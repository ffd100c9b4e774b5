/* Ptys past the first 256: slave N is device (136, N) as on Linux (one
 * major, a 20-bit minor), its node opens, and a session's tty_nr in
 * /proc/PID/stat encodes it as Linux's new_encode_dev. skas gave
 * (136 + N / 256, N % 256) and could not open pts 2048 and above. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "tap.h"

#define NPTY 300

int main(void)
{
	static int m[NPTY];
	int i, bad = 0, last = -1, idx = -1, s, st;
	struct stat sb;
	char name[64];
	pid_t c;

	setvbuf(stdout, NULL, _IONBF, 0);
	for (i = 0; i < NPTY; i++) {
		m[i] = posix_openpt(O_RDWR | O_NOCTTY);
		if (m[i] < 0 || grantpt(m[i]) || unlockpt(m[i]) ||
		    ioctl(m[i], TIOCGPTN, &idx) != 0) {
			bad++;
			continue;
		}
		if (idx >= 256)
			last = i;
	}
	check(bad == 0 && last >= 0, "300 ptys, one numbered 256 or more");
	if (last < 0)
		return 0;
	ioctl(m[last], TIOCGPTN, &idx);
	snprintf(name, sizeof(name), "/dev/pts/%d", idx);
	check(stat(name, &sb) == 0 && S_ISCHR(sb.st_mode) && major(sb.st_rdev) == 136 &&
		      minor(sb.st_rdev) == (unsigned)idx,
	      "its slave node is device (136, N)");
	s = open(name, O_RDWR | O_NOCTTY);
	check(s >= 0, "its slave opens");
	check(fstat(s, &sb) == 0 && major(sb.st_rdev) == 136 && minor(sb.st_rdev) == (unsigned)idx,
	      "fstat of the open slave: (136, N)");
	check(fstat(m[last], &sb) == 0 && major(sb.st_rdev) == 5 && minor(sb.st_rdev) == 2,
	      "the master is /dev/ptmx's device (5, 2)");
	c = fork();
	if (c == 0) {
		char buf[512], *p;
		unsigned long nr = 0;
		FILE *f;

		setsid();
		if (ioctl(s, TIOCSCTTY, 0) != 0)
			_exit(1);
		f = fopen("/proc/self/stat", "r");
		if (!f || !fgets(buf, sizeof(buf), f))
			_exit(2);
		p = strrchr(buf, ')');
		/* ") S ppid pgrp session tty_nr" */
		if (!p || sscanf(p + 2, "%*c %*d %*d %*d %lu", &nr) != 1)
			_exit(3);
		_exit(nr == ((idx & 0xffUL) | (136UL << 8) | ((idx & ~0xffUL) << 12)) ? 0 : 4);
	}
	check(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a session's tty_nr encodes (136, N)");
	return 0;
}
