/* vhangup(2) (skas had it as ENOSYS; login, agetty and sulogin call it):
 * hangs up the caller's controlling terminal, as TIOCVHANGUP does. It
 * needs CAP_SYS_TTY_CONFIG (EPERM); without a controlling terminal it is
 * 0 and does nothing. After it the session leader has had SIGHUP and
 * SIGCONT, the terminal is nobody's controlling terminal (/dev/tty is
 * ENXIO), a descriptor opened before reads end of file and writes EIO,
 * and a new open of the terminal works. The foreground process group is
 * not signalled then, but when the leader exits (skas had signalled it at
 * the hangup). TIOCVHANGUP (CAP_SYS_ADMIN) does the same to the terminal
 * it is called on. Each case runs in a child of its own, in a session of
 * its own. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ENAME
#include "tap.h"

static volatile sig_atomic_t hups, conts;

static void on_sig(int sig)
{
	if (sig == SIGHUP)
		hups++;
	else
		conts++;
}

/* A new pty in a new session, its slave the controlling terminal: the
 * slave's fd, or -1. *mfd gets the master, name the slave's path. */
static int pty_ctty(int *mfd, char *name, size_t len)
{
	int s;

	if (setsid() < 0)
		return -1;
	*mfd = posix_openpt(O_RDWR | O_NOCTTY);
	if (*mfd < 0 || grantpt(*mfd) < 0 || unlockpt(*mfd) < 0 || ptsname_r(*mfd, name, len))
		return -1;
	s = open(name, O_RDWR);
	return s;
}

/* fn in a child, which goes on with the numbering and hands it back as
 * its exit status. */
static void run(void (*fn)(void))
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		fn();
		exit(n);
	}
	if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) > n)
		n = WEXITSTATUS(st);
	else
		check(0, "child ran");
}

static void unprivileged(void)
{
	if (setresuid(1000, 1000, 1000) != 0)
		return;
	check_err(syscall(SYS_vhangup), EPERM, "vhangup as another user");
}

static void no_ctty(void)
{
	setsid();
	check(syscall(SYS_vhangup) == 0, "vhangup with no controlling terminal: 0");
}

/* hang: the hangup to make, on the slave s. */
static void hangup_case(const char *what, int (*hang)(int s))
{
	struct sigaction sa;
	char name[64], line[128], c;
	int m, s, s2, fd;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGCONT, &sa, NULL);
	s = pty_ctty(&m, name, sizeof(name));
	fd = open("/dev/tty", O_RDWR);
	snprintf(line, sizeof(line), "%s: the pty is the controlling terminal", what);
	check(s >= 0 && fd >= 0, line);
	close(fd);
	snprintf(line, sizeof(line), "%s: 0", what);
	check(hang(s) == 0, line);
	snprintf(line, sizeof(line), "%s: the leader had SIGHUP and SIGCONT", what);
	check(hups == 1 && conts == 1, line);
	snprintf(line, sizeof(line), "%s: /dev/tty", what);
	check_err(open("/dev/tty", O_RDWR), ENXIO, line);
	snprintf(line, sizeof(line), "%s: an old fd reads end of file", what);
	check(read(s, &c, 1) == 0, line);
	snprintf(line, sizeof(line), "%s: an old fd's write", what);
	check_err(write(s, "x", 1), EIO, line);
	s2 = open(name, O_RDWR | O_NOCTTY);
	snprintf(line, sizeof(line), "%s: a new open writes", what);
	check(s2 >= 0 && write(s2, "y", 1) == 1, line);
	snprintf(line, sizeof(line), "%s: the master reads it", what);
	check(read(m, &c, 1) == 1 && c == 'y', line);
}

static int hup_fd = -1;

static void hup_to_pipe(int sig)
{
	(void)sig;
	if (write(hup_fd, "H", 1) < 0)
		_exit(3);
	_exit(0);
}

/* Whether a byte is in the pipe within ms milliseconds: the byte, or 0. */
static char pipe_byte(int fd, int ms)
{
	char c;

	for (int i = 0; i < ms; i++) {
		if (read(fd, &c, 1) == 1)
			return c;
		usleep(1000);
	}
	return 0;
}

/* A leader (SIGHUP ignored) makes a child's group the foreground, calls
 * vhangup and exits; the child tells through a pipe when SIGHUP comes. */
static void foreground_group(void)
{
	int pfd[2], st;
	pid_t l;

	if (pipe2(pfd, O_NONBLOCK) < 0)
		return;
	hup_fd = pfd[1];
	l = fork();
	if (l == 0) {
		char name[64];
		int m, s = (signal(SIGHUP, SIG_IGN), pty_ctty(&m, name, sizeof(name)));
		pid_t ch = fork();

		if (ch == 0) {
			signal(SIGHUP, hup_to_pipe);
			setpgid(0, 0);
			alarm(5);
			if (write(pfd[1], "r", 1) < 0)
				_exit(3);
			for (;;)
				pause();
		}
		setpgid(ch, ch);
		if (s < 0 || pipe_byte(pfd[0], 2000) != 'r' || tcsetpgrp(s, ch) < 0 ||
		    syscall(SYS_vhangup) < 0)
			_exit(2);
		_exit(pipe_byte(pfd[0], 200) ? 1 : 0); /* a SIGHUP now is early */
	}
	check(l > 0 && waitpid(l, &st, 0) == l && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "vhangup does not signal the foreground group");
	check(pipe_byte(pfd[0], 3000) == 'H', "the leader's exit does: SIGHUP");
}

static int by_vhangup(int s)
{
	(void)s;
	return (int)syscall(SYS_vhangup);
}

static int by_ioctl(int s)
{
	return ioctl(s, TIOCVHANGUP);
}

static void ctty_vhangup(void)
{
	hangup_case("vhangup", by_vhangup);
}

static void ctty_ioctl(void)
{
	hangup_case("TIOCVHANGUP", by_ioctl);
}

static void ioctl_unprivileged(void)
{
	char name[64];
	int m, s = pty_ctty(&m, name, sizeof(name));

	if (setresuid(1000, 1000, 1000) != 0)
		return;
	check_err(ioctl(s, TIOCVHANGUP), EPERM, "TIOCVHANGUP as another user");
}

int main(void)
{
	run(unprivileged);
	run(no_ctty);
	run(ctty_vhangup);
	run(ctty_ioctl);
	run(ioctl_unprivileged);
	run(foreground_group);
	return 0;
}
