/* /proc/PID/stat fields 7 (tty_nr) and 8 (tpgid): 0 and -1 without a
 * controlling terminal; the pty slave's device number (as
 * new_encode_dev) and the foreground group with one, also as seen by the
 * parent through /proc/CHILD/stat. Children report through their exit
 * status. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "tap.h"

/* Fields 7 and 8 of /proc/PID/stat (pid 0: self). */
static int tty_fields(int pid, long *tty_nr, long *tpgid)
{
	char path[64], buf[1024], *p;
	int fd;
	ssize_t r;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/stat");
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return -1;
	buf[r] = 0;
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	/* ") S ppid pgrp session tty_nr tpgid" */
	if (sscanf(p + 2, "%*c %*d %*d %*d %ld %ld", tty_nr, tpgid) != 2)
		return -1;
	return 0;
}

static long encode(dev_t d)
{
	unsigned ma = major(d), mi = minor(d);

	return (long)((mi & 0xff) | (ma << 8) | ((mi & ~0xffU) << 12));
}

int main(void)
{
	int pipefd[2], st;
	long nr, pg;
	pid_t pid;
	char c;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (pipe(pipefd) < 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		int m, s;
		struct stat sst;

		close(pipefd[0]);
		if (setsid() < 0)
			_exit(10);
		if (tty_fields(0, &nr, &pg) < 0 || nr != 0 || pg != -1)
			_exit(11);
		m = posix_openpt(O_RDWR | O_NOCTTY);
		if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0)
			_exit(12);
		s = open(ptsname(m), O_RDWR); /* becomes the controlling terminal */
		if (s < 0 || fstat(s, &sst) < 0)
			_exit(13);
		if (major(sst.st_rdev) != 136)
			_exit(14);
		if (tty_fields(0, &nr, &pg) < 0)
			_exit(15);
		if (nr != encode(sst.st_rdev))
			_exit(16);
		if (pg != getpgrp() || pg != tcgetpgrp(s))
			_exit(17);
		write(pipefd[1], "x", 1);
		pause();
		_exit(0);
	}
	close(pipefd[1]);
	check(read(pipefd[0], &c, 1) == 1, "child set up its terminal");
	check(tty_fields(pid, &nr, &pg) == 0 && (nr >> 8) == 136 && pg == pid,
	      "parent sees the child's tty_nr (major 136) and tpgid");
	check(tty_fields(0, &nr, &pg) == 0, "own stat parses");
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "child ran until killed");
	return 0;
}
