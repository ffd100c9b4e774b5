/* /proc/sys/kernel/ns_last_pid (CRIU's way to pick the next pid): mode
 * 0666; in a new pid namespace it reads the number handed out last (1,
 * its init); a write by root of the namespace sets it and the next fork
 * takes the number after it; a value below 0 or not a number is EINVAL,
 * white space around one is taken; a writer without CAP_SYS_ADMIN or
 * CAP_CHECKPOINT_RESTORE over the namespace gets EPERM, whatever it
 * writes (pid_ns_ctl_handler). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ENAME
#include "tap.h"

#define FILE_ "/proc/sys/kernel/ns_last_pid"

static int rd(void)
{
	char b[32] = { 0 };
	int fd = open(FILE_, O_RDONLY);

	if (fd < 0 || read(fd, b, sizeof(b) - 1) < 0)
		return -1;
	close(fd);
	return atoi(b);
}

/* The write's result, or -1 with errno. */
static long wr(const char *s)
{
	int fd = open(FILE_, O_WRONLY), e;
	long r;

	if (fd < 0)
		return -1;
	r = write(fd, s, strlen(s));
	e = errno;
	close(fd);
	errno = e;
	return r;
}

static void in_ns(void)
{
	pid_t c;
	int st;

	check(getpid() == 1 && rd() == 1, "a new namespace's init reads 1");
	check(wr("100") == 3, "write 100");
	check(rd() == 100, "... reads 100");
	c = fork();
	if (c == 0)
		_exit(0);
	waitpid(c, NULL, 0);
	check(c == 101 && rd() == 101, "the next fork is 101, and 101 is the last");
	check_err((int)wr("-1"), EINVAL, "write -1");
	check_err((int)wr("x"), EINVAL, "write x");
	check(wr("") == 0, "write nothing: 0");
	check(wr("010") == 3 && rd() == 8, "write 010: octal 8");
	check(wr("0x10") == 4 && rd() == 16, "write 0x10: 16");
	check(wr("-0") == 2 && rd() == 0, "write -0: 0");
	check_err((int)wr("5\r"), EINVAL, "write 5\\r (only space, tab, newline may follow)");
	check(wr("7 8") == 2 && rd() == 7, "write \"7 8\": 2 bytes taken, 7 set");
	{
		int fd = open(FILE_, O_WRONLY);

		check(fd >= 0 && write(fd, "40", 2) == 2 && write(fd, "50", 2) == 2 && rd() == 40,
		      "two writes on one fd: the second, past offset 0, changes nothing");
		check(fd >= 0 && pwrite(fd, "60", 2, 5) == 2 && rd() == 40,
		      "pwrite at offset 5: taken, changes nothing");
		if (fd >= 0)
			close(fd);
	}
	check(wr(" 200 \n") == 6 && rd() == 200, "write \" 200 \\n\": taken");
	c = fork();
	if (c == 0) {
		if (setresuid(65534, 65534, 65534) != 0)
			_exit(2);
		_exit(wr("5") == -1 && errno == EPERM && wr("x") == -1 && errno == EPERM &&
				      wr("") == -1 && errno == EPERM
			      ? 0
			      : 1);
	}
	waitpid(c, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "nobody: EPERM, before the value is read, for nothing too");
	check(rd() == 201, "the last is that child's, 201");
	{
		char b[32] = { 0 };
		int fd = open("/proc/sys/kernel/pid_max", O_RDONLY);
		long max = fd >= 0 && read(fd, b, sizeof(b) - 1) > 0 ? atol(b) : 0;

		if (fd >= 0)
			close(fd);
		snprintf(b, sizeof(b), "%ld", max - 1);
		check(max > 400 && wr(b) == (long)strlen(b), "write pid_max - 1");
		c = fork();
		if (c == 0)
			_exit(0);
		waitpid(c, NULL, 0);
		check(c == 300, "the next fork wraps to 300 (RESERVED_PIDS), not 2");
	}
}

int main(void)
{
	struct stat s;
	pid_t p;
	int st;

	check(stat(FILE_, &s) == 0 && (s.st_mode & 07777) == 0666, "mode 0666");
	if (unshare(CLONE_NEWPID) != 0) {
		check(0, "unshare(CLONE_NEWPID)");
		return 1;
	}
	fflush(stdout);
	p = fork();
	if (p == 0) {
		in_ns();
		fflush(stdout);
		_exit(0);
	}
	waitpid(p, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
