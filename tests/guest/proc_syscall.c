/* /proc/PID/syscall and /proc/PID/task/TID/syscall: the system call a
 * thread is in, as Linux's proc_pid_syscall (skas had no such file). A
 * thread asleep in a call shows "NR 0xARG1 ... 0xARG6 0xSP 0xPC"; the
 * reader's own thread its read; one stopped outside a call "-1 0xSP 0xPC";
 * one that runs "running"; a zombie "-1 0x0 0x0". Mode 0400; the read
 * needs ptrace access (EPERM). Only what the test knows is printed: the
 * numbers, the arguments it passed, that PC follows a syscall instruction
 * (or is the ud2 that stopped the thread) and that SP is on its stack. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ENAME
#include "tap.h"

#define FUTEX_WAIT 0

/* One read of a syscall file: its text and fields. */
struct call {
	int err; /* errno of the open or read, else 0 */
	char text[512];
	int nf; /* fields parsed: 9 in a call, 3 outside one, 0 "running" */
	long nr;
	unsigned long v[8]; /* the arguments, SP, PC (or SP, PC) */
};

static void read_call(const char *path, struct call *c)
{
	int fd;
	ssize_t r;

	memset(c, 0, sizeof(*c));
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		c->err = errno;
		return;
	}
	r = read(fd, c->text, sizeof(c->text) - 1);
	if (r < 0)
		c->err = errno;
	close(fd);
	if (r <= 0)
		return;
	c->nf = sscanf(c->text, "%ld %lx %lx %lx %lx %lx %lx %lx %lx", &c->nr, &c->v[0], &c->v[1],
		       &c->v[2], &c->v[3], &c->v[4], &c->v[5], &c->v[6], &c->v[7]);
	if (c->nf < 0)
		c->nf = 0;
}

/* The text is exactly Linux's format for what was parsed. */
static int well_formed(const struct call *c)
{
	char want[512];

	if (c->nf == 9)
		snprintf(want, sizeof(want),
			 "%ld 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx\n", c->nr, c->v[0],
			 c->v[1], c->v[2], c->v[3], c->v[4], c->v[5], c->v[6], c->v[7]);
	else if (c->nf == 3 && c->nr < 0)
		snprintf(want, sizeof(want), "%ld 0x%lx 0x%lx\n", c->nr, c->v[0], c->v[1]);
	else
		return 0;
	return strcmp(want, c->text) == 0;
}

static void pid_path(char *buf, size_t len, pid_t pid, pid_t tid)
{
	if (tid)
		snprintf(buf, len, "/proc/%d/task/%d/syscall", pid, tid);
	else
		snprintf(buf, len, "/proc/%d/syscall", pid);
}

/* Waits (5 s at most) until the file shows call nr: a thread may be on
 * its way there yet. Gives the last read. */
static int wait_call(pid_t pid, pid_t tid, long nr, struct call *c)
{
	char path[64];
	int i;

	pid_path(path, sizeof(path), pid, tid);
	for (i = 0; i < 500; i++) {
		read_call(path, c);
		if (c->err == ENOENT || (c->nf == 9 && c->nr == nr))
			break;
		usleep(10000);
	}
	return c->nf == 9 && c->nr == nr;
}

static char stat_state(pid_t pid)
{
	char path[64], buf[512], *p;
	int fd;
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return '?';
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return '?';
	buf[len] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

static int wait_state(pid_t pid, char want)
{
	int i;

	for (i = 0; i < 500 && stat_state(pid) != want; i++)
		usleep(10000);
	return stat_state(pid) == want;
}

/* pc follows a syscall instruction (0f 05) of this program's text, which
 * a forked child shares. */
static int after_syscall(unsigned long pc)
{
	const unsigned char *p = (const unsigned char *)pc;

	return pc > 2 && p[-2] == 0x0f && p[-1] == 0x05;
}

/* sp within 64 KiB of a local: on the stack of the reader (which a
 * forked child shares) or of a thread. */
static int near(unsigned long sp, const void *local)
{
	unsigned long l = (unsigned long)local;

	return sp < l + 65536 && sp + 65536 > l;
}

static char rbuf[16];
static struct timespec nap = { 100, 0 };

static void __attribute__((noinline)) spin(volatile unsigned long *counter)
{
	for (;;)
		++*counter;
}

/* Threads of this process: one in a read, one in a futex wait. */
static int tpipe[2];
static volatile pid_t read_tid, futex_tid;
static int futex_word;
static char tbuf[8];
static volatile unsigned long thread_sp;

static void *read_thread(void *arg)
{
	int local;

	(void)arg;
	thread_sp = (unsigned long)&local;
	read_tid = (pid_t)syscall(SYS_gettid);
	return (void *)(long)read(tpipe[0], tbuf, 3);
}

static void *futex_thread(void *arg)
{
	(void)arg;
	futex_tid = (pid_t)syscall(SYS_gettid);
	return (void *)syscall(SYS_futex, &futex_word, FUTEX_WAIT, 0, NULL, NULL, 0);
}

/* A process whose leader has exited while a thread reads on. */
static int zpipe[2];
static volatile int *zombie_tid;

static void *zombie_thread(void *arg)
{
	(void)arg;
	*zombie_tid = (int)syscall(SYS_gettid);
	read(zpipe[0], tbuf, 1);
	_exit(0);
}

static void drop_to_nobody(void)
{
	if (setresgid(65534, 65534, 65534) < 0 || setresuid(65534, 65534, 65534) < 0)
		_exit(99);
	prctl(PR_SET_DUMPABLE, 1); /* the uid change made it nondumpable */
}

int main(int argc, char **argv)
{
	char path[64], path2[64];
	struct call c, c2;
	struct stat st;
	int fd, p[2], q[2], status, i, ok, local;
	pid_t pid, pid2;
	pthread_t th, th2;
	ssize_t r;
	volatile unsigned long *counter;
	int *res;
	volatile int *shared;

	if (argc > 1) /* the exec of the churn below */
		return 0;

	/* the file and its mode */
	check(stat("/proc/self/syscall", &st) == 0 && st.st_mode == (S_IFREG | 0400),
	      "/proc/self/syscall: a regular file, mode 0400");
	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", getpid());
	check(stat(path, &st) == 0 && st.st_mode == (S_IFREG | 0400),
	      "/proc/self/task/TID/syscall: mode 0400");

	/* the reader's own thread: its read */
	fd = open("/proc/self/syscall", O_RDONLY);
	memset(&c, 0, sizeof(c));
	r = read(fd, c.text, 300);
	check(r > 0, "reading /proc/self/syscall");
	c.text[r > 0 ? r : 0] = 0;
	c.nf = sscanf(c.text, "%ld %lx %lx %lx %lx %lx %lx %lx %lx", &c.nr, &c.v[0], &c.v[1],
		      &c.v[2], &c.v[3], &c.v[4], &c.v[5], &c.v[6], &c.v[7]);
	check(c.nf == 9 && well_formed(&c), "own: nine fields, in Linux's format");
	check(c.nf == 9 && c.nr == SYS_read, "own: the read's number (0)");
	check(c.v[0] == (unsigned long)fd && c.v[1] == (unsigned long)c.text && c.v[2] == 300,
	      "own: the read's fd, buffer and count");
	check(near(c.v[6], &local), "own: SP on the reader's stack");
	check(after_syscall(c.v[7]), "own: PC after a syscall instruction");
	close(fd);

	/* a child asleep in a pipe read */
	if (pipe(p) < 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		for (;;)
			if (read(p[0], rbuf, 5) <= 0)
				_exit(0);
	}
	check(wait_call(pid, 0, SYS_read, &c), "child in read: its number");
	check(well_formed(&c), "child in read: Linux's format");
	check(c.v[0] == (unsigned long)p[0] && c.v[1] == (unsigned long)rbuf && c.v[2] == 5,
	      "child in read: fd, buffer and count");
	check(near(c.v[6], &local), "child in read: SP on its stack");
	check(after_syscall(c.v[7]), "child in read: PC after a syscall instruction");
	pid_path(path, sizeof(path), pid, pid);
	read_call(path, &c2);
	check(c2.nf == 9 && strcmp(c.text, c2.text) == 0, "/proc/PID/task/PID/syscall: the same");
	/* stopped by SIGSTOP: the interrupted call's registers still */
	kill(pid, SIGSTOP);
	check(waitpid(pid, &status, WUNTRACED) == pid && WIFSTOPPED(status), "child stopped");
	pid_path(path, sizeof(path), pid, 0);
	read_call(path, &c2);
	check(c2.nf == 9 && strcmp(c.text, c2.text) == 0,
	      "stopped in its read: the read, as before");
	kill(pid, SIGCONT);
	check(waitpid(pid, &status, WCONTINUED) == pid && WIFCONTINUED(status), "child continued");
	/* back in its read (restarted): the same again */
	for (i = 0; i < 500; i++) {
		read_call(path, &c2);
		if (strcmp(c.text, c2.text) == 0)
			break;
		usleep(10000);
	}
	check(c2.nf == 9 && strcmp(c.text, c2.text) == 0, "continued, back in its read: the same");
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	close(p[0]);
	close(p[1]);

	/* pause and nanosleep */
	pid = fork();
	if (pid == 0) {
		syscall(SYS_pause);
		_exit(0);
	}
	check(wait_call(pid, 0, SYS_pause, &c), "child in pause: its number (34)");
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	pid = fork();
	if (pid == 0) {
		syscall(SYS_nanosleep, &nap, NULL);
		_exit(0);
	}
	check(wait_call(pid, 0, SYS_nanosleep, &c), "child in nanosleep: its number (35)");
	check(c.v[0] == (unsigned long)&nap && c.v[1] == 0, "child in nanosleep: its arguments");
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);

	/* a child that runs: "running"; stopped there, outside any call */
	counter = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counter == MAP_FAILED)
		return 1;
	pid = fork();
	if (pid == 0)
		spin(counter);
	for (i = 0; i < 500 && !*counter; i++)
		usleep(10000);
	check(*counter != 0, "child spinning");
	pid_path(path, sizeof(path), pid, 0);
	read_call(path, &c);
	check(c.err == 0 && strcmp(c.text, "running\n") == 0, "child spinning: \"running\"");
	kill(pid, SIGSTOP);
	check(waitpid(pid, &status, WUNTRACED) == pid && WIFSTOPPED(status),
	      "spinning child stopped");
	read_call(path, &c);
	check(c.nf == 3 && c.nr == -1 && well_formed(&c), "stopped outside a call: -1 SP PC");
	check(c.v[1] >= (unsigned long)spin && c.v[1] < (unsigned long)spin + 64,
	      "stopped outside a call: PC in its loop");
	check(near(c.v[0], &local), "stopped outside a call: SP on its stack");
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);

	/* a tracee: stopped at a ud2's SIGILL (outside a call); at a call's
	 * entry and exit (the call's number and arguments) */
	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		kill(getpid(), SIGSTOP);
		syscall(SYS_dup3, 1000, 1001, 0);
		__builtin_trap();
	}
	check(waitpid(pid, &status, 0) == pid && WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP,
	      "tracee: its SIGSTOP");
	pid_path(path, sizeof(path), pid, 0);
	ok = 0;
	for (i = 0; i < 20; i++) {
		if (ptrace(PTRACE_SYSCALL, pid, 0, 0) < 0 || waitpid(pid, &status, 0) != pid ||
		    !WIFSTOPPED(status) || WSTOPSIG(status) != SIGTRAP)
			break;
		read_call(path, &c);
		if (c.nf == 9 && c.nr == SYS_dup3) {
			ok = 1;
			break;
		}
	}
	check(ok, "tracee at dup3's entry: its number");
	check(ok && c.v[0] == 1000 && c.v[1] == 1001 && c.v[2] == 0 && after_syscall(c.v[7]),
	      "tracee at dup3's entry: its arguments, PC");
	check(ptrace(PTRACE_SYSCALL, pid, 0, 0) == 0 && waitpid(pid, &status, 0) == pid &&
		      WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP,
	      "tracee at dup3's exit");
	read_call(path, &c2);
	check(c2.nf == 9 && strcmp(c.text, c2.text) == 0, "tracee at dup3's exit: the same");
	check(ptrace(PTRACE_CONT, pid, 0, 0) == 0 && waitpid(pid, &status, 0) == pid &&
		      WIFSTOPPED(status) && WSTOPSIG(status) == SIGILL,
	      "tracee: its SIGILL (ud2)");
	read_call(path, &c);
	check(c.nf == 3 && c.nr == -1 && well_formed(&c), "tracee at the SIGILL: -1 SP PC");
	check(c.nf == 3 && ((unsigned char *)c.v[1])[0] == 0x0f &&
		      ((unsigned char *)c.v[1])[1] == 0x0b,
	      "tracee at the SIGILL: PC at the ud2");
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);

	/* a zombie */
	pid = fork();
	if (pid == 0)
		_exit(0);
	check(wait_state(pid, 'Z'), "a zombie");
	pid_path(path, sizeof(path), pid, 0);
	read_call(path, &c);
	check(c.err == 0 && strcmp(c.text, "-1 0x0 0x0\n") == 0, "zombie: \"-1 0x0 0x0\"");
	pid_path(path, sizeof(path), pid, pid);
	read_call(path, &c);
	check(c.err == 0 && strcmp(c.text, "-1 0x0 0x0\n") == 0,
	      "zombie's task/PID/syscall: \"-1 0x0 0x0\"");
	waitpid(pid, &status, 0);
	pid_path(path, sizeof(path), pid, 0);
	read_call(path, &c);
	check(c.err == ENOENT, "reaped: ENOENT");

	/* a leader gone while its thread reads on: the leader is a zombie */
	if (pipe(zpipe) < 0)
		return 1;
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return 1;
	pid = fork();
	if (pid == 0) {
		zombie_tid = shared;
		pthread_create(&th, NULL, zombie_thread, NULL);
		pthread_exit(NULL);
	}
	check(wait_state(pid, 'Z'), "leader gone, a thread left: Z");
	for (i = 0; i < 500 && !*shared; i++)
		usleep(10000);
	check(wait_call(pid, *shared, SYS_read, &c) && c.v[0] == (unsigned long)zpipe[0],
	      "leader gone: the thread's task/TID/syscall, its read");
	pid_path(path, sizeof(path), pid, 0);
	read_call(path, &c);
	check(c.err == 0 && strcmp(c.text, "-1 0x0 0x0\n") == 0,
	      "leader gone: /proc/PID/syscall \"-1 0x0 0x0\"");
	pid_path(path, sizeof(path), pid, pid);
	read_call(path, &c);
	check(c.err == 0 && strcmp(c.text, "-1 0x0 0x0\n") == 0,
	      "leader gone: task/PID/syscall \"-1 0x0 0x0\"");
	write(zpipe[1], "x", 1);
	waitpid(pid, &status, 0);
	close(zpipe[0]);
	close(zpipe[1]);

	/* threads of this process */
	if (pipe(tpipe) < 0)
		return 1;
	pthread_create(&th, NULL, read_thread, NULL);
	pthread_create(&th2, NULL, futex_thread, NULL);
	for (i = 0; i < 500 && (!read_tid || !futex_tid); i++)
		usleep(10000);
	check(wait_call(getpid(), read_tid, SYS_read, &c), "thread in read: task/TID/syscall");
	check(c.v[0] == (unsigned long)tpipe[0] && c.v[1] == (unsigned long)tbuf && c.v[2] == 3,
	      "thread in read: fd, buffer and count");
	check(near(c.v[6], (const void *)thread_sp) && after_syscall(c.v[7]),
	      "thread in read: SP on its stack, PC after a syscall instruction");
	check(wait_call(getpid(), futex_tid, SYS_futex, &c), "thread in futex: its number (202)");
	check(c.v[0] == (unsigned long)&futex_word && c.v[1] == FUTEX_WAIT && c.v[2] == 0,
	      "thread in futex: address, op and value");
	pid_path(path, sizeof(path), getpid(), getpid());
	read_call(path, &c);
	check(c.nf == 9 && c.nr == SYS_read, "own thread's task/TID/syscall: its read");
	write(tpipe[1], "abc", 3);
	pthread_join(th, NULL);
	futex_word = 1;
	syscall(SYS_futex, &futex_word, 1 /* FUTEX_WAKE */, 1, NULL, NULL, 0);
	pthread_join(th2, NULL);

	/* ptrace access: another user's process is 0400 to us (EACCES at
	 * open); one of ours that turns nondumpable: EPERM at the read */
	res = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED || pipe(q) < 0)
		return 1;
	/* the reader is the target's parent: Yama's ptrace_scope 1 (where a
	 * host has it) lets only an ancestor attach, and the read needs that */
	pid2 = fork();
	if (pid2 == 0) {
		char path3[64];
		struct stat s3;
		char b[512];

		drop_to_nobody();
		if (pipe(p) < 0)
			_exit(1);
		pid = fork();
		if (pid == 0) {
			char b1;

			close(p[1]);
			read(p[0], &b1, 1); /* the reader is ready */
			prctl(PR_SET_DUMPABLE, 0);
			read(p[0], &b1, 1);
			_exit(0);
		}
		pid_path(path3, sizeof(path3), getppid(), 0);
		res[0] = open(path3, O_RDONLY) < 0 ? errno : 0;
		res[1] = wait_call(pid, 0, SYS_read, &c) && c.v[0] == (unsigned long)p[0];
		pid_path(path3, sizeof(path3), pid, 0);
		fd = open(path3, O_RDONLY);
		res[2] = fd < 0 ? errno : 0;
		write(p[1], "x", 1);
		/* nondumpable: its files are root's (not /proc/PID itself,
		 * 0555: Linux's task_dump_owner leaves it) */
		for (i = 0; i < 500; i++) {
			if (stat(path3, &s3) == 0 && s3.st_uid == 0)
				break;
			usleep(10000);
		}
		res[6] = i < 500;
		res[3] = pread(fd, b, sizeof(b), 0) < 0 ? errno : 0;
		close(fd);
		pid_path(path3, sizeof(path3), pid, 0);
		res[4] = open(path3, O_RDONLY) < 0 ? errno : 0;
		read_call("/proc/self/syscall", &c);
		res[5] = c.nf == 9 && c.nr == SYS_read;
		write(p[1], "x", 1);
		waitpid(pid, NULL, 0);
		_exit(0);
	}
	waitpid(pid2, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "an unprivileged reader");
	errno = res[0];
	check_err(res[0] ? -1 : 0, EACCES, "nobody opens root's /proc/PID/syscall");
	check(res[1], "nobody reads nobody's: its read");
	check(res[2] == 0, "nobody opens nobody's");
	check(res[6], "nondumpable: its syscall file is root's");
	errno = res[3];
	check_err(res[3] ? -1 : 0, EPERM, "read once it is nondumpable");
	errno = res[4];
	check_err(res[4] ? -1 : 0, EACCES, "open once it is nondumpable");
	check(res[5], "nobody reads its own");

	/* reads while processes fork, exec and exit, threads come and go:
	 * a text, or ENOENT/ESRCH for one gone */
	ok = 1;
	futex_word = 0;
	for (i = 0; i < 40; i++) {
		pid = fork();
		if (pid == 0) {
			if (i % 2)
				execl("/proc/self/exe", argv[0], "exit", (char *)NULL);
			_exit(0);
		}
		pthread_create(&th, NULL, futex_thread, NULL);
		pid_path(path, sizeof(path), pid, 0);
		pid_path(path2, sizeof(path2), getpid(), futex_tid);
		do {
			read_call(path, &c);
			if (c.err && c.err != ENOENT && c.err != ESRCH)
				ok = 0;
			if (!c.err && !well_formed(&c) && strcmp(c.text, "running\n") != 0)
				ok = 0;
			read_call(path2, &c2);
			if (c2.err && c2.err != ENOENT && c2.err != ESRCH)
				ok = 0;
		} while (waitpid(pid, &status, WNOHANG) == 0);
		futex_word = 1;
		syscall(SYS_futex, &futex_word, 1, 1, NULL, NULL, 0);
		pthread_join(th, NULL);
		futex_word = 0;
	}
	check(ok, "reads during forks, execs, exits: a text or ENOENT/ESRCH");
	return 0;
}
