/* Processes: fork, wait4/waitpid/waitid (exit statuses, deaths by signal,
 * WNOHANG, WNOWAIT, ECHILD), copy-on-write, pipes between parent and child,
 * vfork, posix_spawn and the reparenting of orphans. Children never print:
 * they report through their exit status or a pipe. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "tap.h"

extern char **environ;

static void checkf(int cond, const char *what, const char *fmt, long a, long b)
{
	if (cond) {
		printf("ok %d - %s\n", ++n, what);
	} else {
		printf("not ok %d - %s: ", ++n, what);
		printf(fmt, a, b);
		printf("\n");
	}
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* A dying child must not leave a core file behind (natively). */
static void no_core(void)
{
	struct rlimit rl = { 0, 0 };

	setrlimit(RLIMIT_CORE, &rl);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

/* Block until pid (or any child for -1) is waited for, retrying on EINTR. */
static pid_t xwaitpid(pid_t pid, int *status, int flags)
{
	pid_t r;

	do
		r = waitpid(pid, status, flags);
	while (r < 0 && errno == EINTR);
	return r;
}

static void test_exit_code(int code)
{
	char what[80];
	int status = -1;
	pid_t pid, r;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(code);
	r = xwaitpid(pid, &status, 0);
	snprintf(what, sizeof what, "_exit(%d): waitpid returns the child", code);
	checkf(r == pid && pid > 0, what, "r=%ld errno=%ld", r == pid, errno);
	snprintf(what, sizeof what, "_exit(%d): WIFEXITED, WEXITSTATUS %d", code, code & 0xff);
	checkf(WIFEXITED(status) && WEXITSTATUS(status) == (code & 0xff), what, "status=%#lx%.0ld",
	       status, 0);
}

enum { BY_KILL, BY_ABORT, BY_NULL, BY_PARENT };

static void test_death(int how, int sig, const char *what)
{
	char buf[120];
	int status = -1;
	pid_t pid, r;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		no_core();
		switch (how) {
		case BY_KILL:
			kill(getpid(), SIGKILL);
			break;
		case BY_ABORT:
			abort();
			break;
		case BY_NULL: {
			volatile int *volatile p = NULL;
			*p = 1;
			break;
		}
		case BY_PARENT:
			for (;;)
				pause();
		}
		_exit(100);
	}
	if (how == BY_PARENT) {
		sleep_ms(10);
		kill(pid, sig);
	}
	r = xwaitpid(pid, &status, 0);
	snprintf(buf, sizeof buf, "%s: waitpid returns the child", what);
	check(r == pid, buf);
	snprintf(buf, sizeof buf, "%s: WIFSIGNALED, WTERMSIG %d", what, sig);
	checkf(WIFSIGNALED(status) && WTERMSIG(status) == sig && !WIFEXITED(status), buf,
	       "status=%#lx%.0ld", status, 0);
}

static void test_echild(void)
{
	int status;
	pid_t r;

	errno = 0;
	r = wait(&status);
	check(r == -1 && errno == ECHILD, "wait with no children: ECHILD");
	errno = 0;
	r = waitpid(-1, &status, WNOHANG);
	check(r == -1 && errno == ECHILD, "waitpid(-1, WNOHANG) with no children: ECHILD");
	errno = 0;
	r = waitpid(getpid(), &status, 0);
	check(r == -1 && errno == ECHILD, "waitpid(getpid()): ECHILD (not a child)");
}

static void test_fork_basics(void)
{
	volatile int x = 1;
	pid_t parent = getpid(), pid, r;
	int status = -1;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int bad = 0;
		if (getpid() == parent)
			bad |= 1;
		if (getppid() != parent)
			bad |= 2;
		if (x != 1)
			bad |= 4;
		x = 2;
		_exit(bad ? 100 + bad : x + 10);
	}
	check(pid > 0, "fork returns a positive pid in the parent");
	check(pid != parent, "the child's pid differs from the parent's");
	r = xwaitpid(pid, &status, 0);
	check(r == pid, "waitpid returns the child");
	checkf(WIFEXITED(status) && WEXITSTATUS(status) == 12,
	       "child: new pid, getppid == parent, memory copied then written", "status=%#lx%.0ld",
	       status, 0);
	check(x == 1, "the child's write is not seen by the parent (copy-on-write)");
}

static void test_wait4_rusage(void)
{
	struct rusage ru;
	int status = -1;
	pid_t pid, r;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(17);
	memset(&ru, 0xff, sizeof ru);
	r = wait4(pid, &status, 0, &ru);
	check(r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 17,
	      "wait4 with a rusage pointer returns the child, status 17");
	check(ru.ru_utime.tv_usec >= 0 && ru.ru_utime.tv_usec < 1000000 &&
		      ru.ru_stime.tv_usec >= 0 && ru.ru_stime.tv_usec < 1000000,
	      "wait4 fills in the rusage times");
}

static void test_wnohang(void)
{
	int p[2], status = -1;
	pid_t pid, r;

	if (pipe(p) < 0) {
		check(0, "pipe");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char c;
		ssize_t k;
		close(p[1]);
		do
			k = read(p[0], &c, 1);
		while (k < 0 && errno == EINTR);
		_exit(k == 0 ? 9 : 99);
	}
	close(p[0]);
	r = waitpid(-1, &status, WNOHANG);
	check(r == 0, "waitpid(-1, WNOHANG) with a running child returns 0");
	r = waitpid(pid, &status, WNOHANG);
	check(r == 0, "waitpid(pid, WNOHANG) with a running child returns 0");
	{
		siginfo_t si;
		int k;
		memset(&si, 0, sizeof si);
		si.si_pid = 12345;
		k = waitid(P_PID, pid, &si, WEXITED | WNOHANG);
		check(k == 0 && si.si_pid == 0,
		      "waitid(WNOHANG) with a running child: 0 and si_pid 0");
	}
	errno = 0;
	r = waitpid(getpid(), &status, WNOHANG);
	check(r == -1 && errno == ECHILD, "waitpid for a non-child while a child runs: ECHILD");
	close(p[1]);
	r = xwaitpid(-1, &status, 0);
	check(r == pid, "after closing the pipe, waitpid(-1) returns the child");
	checkf(WIFEXITED(status) && WEXITSTATUS(status) == 9, "the child saw EOF and exited 9",
	       "status=%#lx%.0ld", status, 0);
	errno = 0;
	r = waitpid(pid, &status, 0);
	check(r == -1 && errno == ECHILD, "waiting for it again: ECHILD");
}

static void test_waitid(void)
{
	siginfo_t si;
	int status = -1, k;
	pid_t pid, r;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(7);
	memset(&si, 0, sizeof si);
	k = waitid(P_PID, pid, &si, WEXITED);
	check(k == 0, "waitid(P_PID, WEXITED) returns 0");
	check(si.si_pid == pid, "waitid: si_pid is the child");
	check(si.si_signo == SIGCHLD, "waitid: si_signo SIGCHLD");
	checkf(si.si_code == CLD_EXITED, "waitid: si_code CLD_EXITED", "si_code=%ld%.0ld",
	       si.si_code, 0);
	checkf(si.si_status == 7, "waitid: si_status 7", "si_status=%ld%.0ld", si.si_status, 0);
	check(si.si_uid == getuid(), "waitid: si_uid is our uid");

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		kill(getpid(), SIGKILL);
		_exit(100);
	}
	memset(&si, 0, sizeof si);
	k = waitid(P_ALL, 0, &si, WEXITED);
	check(k == 0 && si.si_pid == pid, "waitid(P_ALL) returns the killed child");
	checkf(si.si_code == CLD_KILLED && si.si_status == SIGKILL,
	       "waitid: CLD_KILLED, si_status SIGKILL", "si_code=%ld si_status=%ld", si.si_code,
	       si.si_status);

	/* WNOWAIT leaves the zombie waitable. */
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(5);
	memset(&si, 0, sizeof si);
	k = waitid(P_PID, pid, &si, WEXITED | WNOWAIT);
	check(k == 0 && si.si_pid == pid && si.si_code == CLD_EXITED && si.si_status == 5,
	      "waitid(WNOWAIT) reports the exit, status 5");
	check(kill(pid, 0) == 0, "the zombie still exists: kill(pid, 0) succeeds");
	memset(&si, 0, sizeof si);
	k = waitid(P_PID, pid, &si, WEXITED | WNOWAIT);
	check(k == 0 && si.si_pid == pid && si.si_status == 5,
	      "a second waitid(WNOWAIT) reports it again");
	r = xwaitpid(pid, &status, 0);
	check(r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 5,
	      "waitpid then reaps it, status 5");
	errno = 0;
	check(kill(pid, 0) == -1 && errno == ESRCH, "after reaping: kill(pid, 0) is ESRCH");
	errno = 0;
	r = waitpid(pid, &status, 0);
	check(r == -1 && errno == ECHILD, "and it is no longer waitable: ECHILD");
	errno = 0;
	k = waitid(P_PID, pid, &si, WEXITED);
	check(k == -1 && errno == ECHILD, "waitid for it: ECHILD");
	errno = 0;
	k = waitid(P_PID, pid, &si, 0);
	check(k == -1 && errno == EINVAL, "waitid with no WEXITED/WSTOPPED/WCONTINUED: EINVAL");
}

static void test_pgrp_wait(void)
{
	int p[2], status = -1;
	pid_t pid, r;

	if (pipe(p) < 0) {
		check(0, "pipe");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char c;
		close(p[1]);
		setpgid(0, 0);
		while (read(p[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(21);
	}
	close(p[0]);
	check(setpgid(pid, pid) == 0 || errno == EACCES, "setpgid(child, child)");
	check(getpgid(pid) == pid, "the child leads its own process group");
	errno = 0;
	r = waitpid(0, &status, WNOHANG);
	check(r == -1 && errno == ECHILD,
	      "waitpid(0) with the only child in another group: ECHILD");
	r = waitpid(-pid, &status, WNOHANG);
	check(r == 0, "waitpid(-pgid, WNOHANG) with it running: 0");
	close(p[1]);
	r = xwaitpid(-pid, &status, 0);
	check(r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 21,
	      "waitpid(-pgid) returns it, status 21");
}

/* A zombie is still in its process group: getpgid, getsid and setpgid
 * see it until it is reaped. setpgid of a child in another session is
 * EPERM even after an exec. PR_SET_DUMPABLE 0 reads back 0, is
 * inherited, and means no core (no WCOREDUMP) whatever RLIMIT_CORE. */
static void test_zombie_pgrp_dumpable(void)
{
	siginfo_t si;
	int p[2], status = -1;
	char c;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(0);
	waitid(P_PID, pid, &si, WEXITED | WNOWAIT); /* a zombie now */
	check(getpgid(pid) == getpgid(0) && getsid(pid) == getsid(0),
	      "getpgid and getsid of a zombie child");
	check(setpgid(pid, pid) == 0 && getpgid(pid) == pid, "setpgid of a zombie child");
	xwaitpid(pid, &status, 0);
	errno = 0;
	check(getpgid(pid) == -1 && errno == ESRCH, "reaped: ESRCH");

	if (pipe2(p, O_CLOEXEC) < 0) {
		check(0, "pipe2");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		setsid();
		execl("/bin/sleep", "sleep", "5", (char *)NULL);
		_exit(1);
	}
	close(p[1]);
	while (read(p[0], &c, 1) < 0 && errno == EINTR)
		; /* EOF: the child has exec'd */
	close(p[0]);
	errno = 0;
	check(setpgid(pid, pid) == -1 && errno == EPERM,
	      "setpgid of a child in another session that exec'd: EPERM");
	kill(pid, SIGKILL);
	xwaitpid(pid, &status, 0);

	check(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 1, "PR_GET_DUMPABLE: 1");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct rlimit rl = { 1 << 20, 1 << 20 };
		pid_t g;

		if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 ||
		    prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0)
			_exit(1);
		setrlimit(RLIMIT_CORE, &rl);
		g = fork();
		if (g == 0) {
			if (prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0)
				_exit(2);
			abort();
		}
		if (xwaitpid(g, &status, 0) != g)
			_exit(3);
		if (WIFEXITED(status))
			_exit(10 + WEXITSTATUS(status));
		_exit(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT && !WCOREDUMP(status) ? 0
											       : 4);
	}
	xwaitpid(pid, &status, 0);
	checkf(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "PR_SET_DUMPABLE 0: reads back, inherited, no core bit", "status %#lx %ld", status,
	       0);
}

static void test_many_children(void)
{
	pid_t pids[20];
	int i, status, sum = 0, got = 0, seen_all = 1;
	unsigned long mask = 0;

	fflush(stdout);
	for (i = 0; i < 20; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(i + 1);
		if (pids[i] < 0)
			break;
	}
	for (;;) {
		pid_t r = xwaitpid(-1, &status, 0);
		if (r < 0)
			break;
		got++;
		if (WIFEXITED(status)) {
			sum += WEXITSTATUS(status);
			for (i = 0; i < 20; i++)
				if (pids[i] == r && WEXITSTATUS(status) == i + 1)
					mask |= 1UL << i;
		}
	}
	for (i = 0; i < 20; i++)
		if (!(mask & (1UL << i)))
			seen_all = 0;
	check(got == 20, "20 children: waitpid(-1) returns 20 times then ECHILD");
	check(sum == 210 && seen_all, "each pid came with its own exit status");
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t k = write(fd, p, len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		len -= k;
	}
	return 0;
}

static ssize_t read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t k = read(fd, p + got, len - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			break;
		got += k;
	}
	return got;
}

#define BULK 200000

static void test_pipes(void)
{
	int down[2], up[2], status = -1;
	static unsigned char big[BULK];
	char buf[16];
	unsigned long sum = 0, want = 0, got = 0;
	ssize_t k;
	pid_t pid, r;
	int i;

	if (pipe(down) < 0 || pipe(up) < 0) {
		check(0, "pipe");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		unsigned long s = 0;
		char m[5];
		close(down[1]);
		close(up[0]);
		/* ping -> PING */
		if (read_all(down[0], m, 4) != 4)
			_exit(50);
		for (i = 0; i < 4; i++)
			m[i] -= 'a' - 'A';
		if (write_all(up[1], m, 4) < 0)
			_exit(51);
		/* BULK bytes down, their sum back */
		if (read_all(down[0], big, BULK) != BULK)
			_exit(52);
		for (i = 0; i < BULK; i++)
			s += big[i];
		if (write_all(up[1], &s, sizeof s) < 0)
			_exit(53);
		/* BULK bytes up */
		for (i = 0; i < BULK; i++)
			big[i] = (unsigned char)(i * 7 + 3);
		if (write_all(up[1], big, BULK) < 0)
			_exit(54);
		/* then EOF down */
		if (read(down[0], m, 1) != 0)
			_exit(55);
		_exit(0);
	}
	close(down[0]);
	close(up[1]);
	check(write_all(down[1], "ping", 4) == 0, "parent writes ping");
	memset(buf, 0, sizeof buf);
	k = read_all(up[0], buf, 4);
	check(k == 4 && memcmp(buf, "PING", 4) == 0, "parent reads the child's PING");
	for (i = 0; i < BULK; i++) {
		big[i] = (unsigned char)(i * 13 + 1);
		want += big[i];
	}
	check(write_all(down[1], big, BULK) == 0,
	      "parent writes 200000 bytes (more than a pipe holds)");
	k = read_all(up[0], &sum, sizeof sum);
	check(k == sizeof sum && sum == want, "child got them all (checksum comes back)");
	memset(big, 0, sizeof big);
	k = read_all(up[0], big, BULK);
	check(k == BULK, "parent reads 200000 bytes from the child");
	want = 0;
	for (i = 0; i < BULK; i++) {
		want += (unsigned char)(i * 7 + 3);
		got += big[i];
	}
	check(got == want && big[BULK - 1] == (unsigned char)((BULK - 1) * 7 + 3),
	      "their contents are right");
	close(down[1]);
	k = read(up[0], buf, 1);
	check(k == 0, "EOF once the child has closed its end");
	close(up[0]);
	r = xwaitpid(pid, &status, 0);
	checkf(r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "the child exits 0 after seeing EOF", "status=%#lx%.0ld", status, 0);
}

static volatile int vfork_flag;

static void test_vfork(void)
{
	int status = -1;
	pid_t pid, r;
	char *argv_true[] = { "true", NULL };
	char *argv_false[] = { "false", NULL };
	char *argv_none[] = { "nonexistent", NULL };

	fflush(stdout);
	vfork_flag = 0;
	pid = vfork();
	if (pid == 0) {
		vfork_flag = 1;
		_exit(3);
	}
	r = xwaitpid(pid, &status, 0);
	check(r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 3,
	      "vfork + _exit(3): status 3");
	check(vfork_flag == 1, "the vfork child shared the parent's memory");

	pid = vfork();
	if (pid == 0) {
		execve("/bin/true", argv_true, environ);
		_exit(127);
	}
	r = xwaitpid(pid, &status, 0);
	checkf(r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "vfork + execve(/bin/true): status 0", "status=%#lx%.0ld", status, 0);

	pid = vfork();
	if (pid == 0) {
		execve("/bin/false", argv_false, environ);
		_exit(127);
	}
	r = xwaitpid(pid, &status, 0);
	checkf(r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 1,
	       "vfork + execve(/bin/false): status 1", "status=%#lx%.0ld", status, 0);

	pid = vfork();
	if (pid == 0) {
		execve("/nonexistent/program", argv_none, environ);
		_exit(errno == ENOENT ? 40 : 41);
	}
	r = xwaitpid(pid, &status, 0);
	checkf(r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 40,
	       "vfork + execve of a missing file: ENOENT in the child", "status=%#lx%.0ld", status,
	       0);
}

static void test_posix_spawn(void)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = { "echo", "hi", NULL };
	char buf[16];
	int p[2], status = -1, e;
	ssize_t k;
	pid_t pid = -1, r;

	if (pipe(p) < 0) {
		check(0, "pipe");
		return;
	}
	fflush(stdout);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addclose(&fa, p[0]);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addclose(&fa, p[1]);
	e = posix_spawn(&pid, "/bin/echo", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	check(e == 0 && pid > 0, "posix_spawn(/bin/echo hi) succeeds");
	close(p[1]);
	memset(buf, 0, sizeof buf);
	k = read_all(p[0], buf, sizeof buf - 1);
	close(p[0]);
	check(k == 3 && strcmp(buf, "hi\n") == 0, "its output through the pipe is \"hi\\n\"");
	r = xwaitpid(pid, &status, 0);
	check(r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the spawned echo exits 0");

	pid = -1;
	e = posix_spawn(&pid, "/nonexistent/program", NULL, NULL, argv, environ);
	if (e == 0) {
		/* older libcs report the exec failure as exit status 127 */
		r = xwaitpid(pid, &status, 0);
		check(r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 127,
		      "posix_spawn of a missing program fails");
	} else {
		check(e == ENOENT, "posix_spawn of a missing program fails");
	}
}

/* Last: the orphaned grandchild may become our child (under skas we are the
 * namespace's init), which would disturb tests that wait for any child. */
static void test_orphan(void)
{
	int p[2], q[2], status = -1;
	char c = '?';
	ssize_t k;
	pid_t pid, r;

	if (pipe(p) < 0 || pipe(q) < 0) {
		check(0, "pipe");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		pid_t me = getpid(), g;
		close(p[0]);
		g = fork();
		if (g == 0) {
			int i;
			char res = 'n';
			if (getppid() != me)
				res = 'e';   /* not our parent to begin with */
			write(q[1], "c", 1); /* the middle child may go now */
			for (i = 0; res == 'n' && i < 5000; i++) {
				if (getppid() != me)
					res = 'y';
				else
					sleep_ms(1);
			}
			write(p[1], &res, 1);
			_exit(0);
		}
		/* Leave only once the grandchild has checked its parent (it
		 * says so: a fixed 20 ms was a race with a slow grandchild). */
		close(q[1]);
		if (g > 0)
			while (read(q[0], &c, 1) < 0 && errno == EINTR)
				;
		_exit(g > 0 ? 0 : 1);
	}
	close(p[1]);
	close(q[0]);
	close(q[1]);
	r = xwaitpid(pid, &status, 0);
	check(r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the middle child forked and exited");
	do
		k = read(p[0], &c, 1);
	while (k < 0 && errno == EINTR);
	close(p[0]);
	check(k == 1 && c != 'e', "the grandchild's getppid was its parent");
	check(k == 1 && c == 'y',
	      "after its parent died, the grandchild's getppid changed (reparented)");
	/* Reap it if it was reparented to us. */
	for (k = 0; k < 100; k++) {
		r = waitpid(-1, &status, WNOHANG);
		if (r != 0)
			break;
		sleep_ms(5);
	}
}

int main(void)
{
	struct sigaction sa;
	sigset_t none;

	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	test_echild();
	test_fork_basics();
	test_exit_code(0);
	test_exit_code(1);
	test_exit_code(42);
	test_exit_code(255);
	test_exit_code(256);
	test_death(BY_KILL, SIGKILL, "child kills itself with SIGKILL");
	test_death(BY_ABORT, SIGABRT, "child calls abort");
	test_death(BY_NULL, SIGSEGV, "child writes through NULL");
	test_death(BY_PARENT, SIGTERM, "parent sends SIGTERM to a pausing child");
	test_wait4_rusage();
	test_wnohang();
	test_waitid();
	test_pgrp_wait();
	test_zombie_pgrp_dumpable();
	test_many_children();
	test_pipes();
	test_vfork();
	test_posix_spawn();
	test_orphan();
	return 0;
}
