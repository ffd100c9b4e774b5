/* ptrace's corners around job control and death: ATTACH and SEIZE of a
 * zombie are EPERM; a
 * seized tracee hears of SIGCONT with a PTRACE_EVENT_STOP (SIGTRAP),
 * LISTENing, stopped in its group-stop trap or running; the threads an
 * execve by another thread kills stop in PTRACE_EVENT_EXIT first (message
 * 0) and report their death as an exit 0. */
/* skas-test: timeout: 30 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tap.h"

static int wait_tid(pid_t tid)
{
	int st = 0;

	if (waitpid(tid, &st, __WALL) != tid)
		return -1;
	return st;
}

/* "sig" or "sig/event" of a stop, "exit N", "killed N". */
static const char *describe(int st)
{
	static char s[64];

	if (st == -1)
		snprintf(s, sizeof(s), "no status (%s)", strerror(errno));
	else if (WIFEXITED(st))
		snprintf(s, sizeof(s), "exit %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(s, sizeof(s), "killed %d", WTERMSIG(st));
	else if (st >> 16)
		snprintf(s, sizeof(s), "stop %d event %d", WSTOPSIG(st), st >> 16);
	else
		snprintf(s, sizeof(s), "stop %d", WSTOPSIG(st));
	return s;
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void test_zombie(void)
{
	siginfo_t si;
	pid_t pid;
	int st;

	pid = fork();
	if (pid == 0)
		_exit(3);
	waitid(P_PID, pid, &si, WEXITED | WNOWAIT);
	errno = 0;
	check(ptrace(PTRACE_ATTACH, pid, 0, 0) == -1 && errno == EPERM,
	      "ATTACH of a zombie: EPERM");
	errno = 0;
	check(ptrace(PTRACE_SEIZE, pid, 0, 0) == -1 && errno == EPERM, "SEIZE of a zombie: EPERM");
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 3,
	      "it is reaped as ever");
}

/* SIGCONT to a seized tracee: a PTRACE_EVENT_STOP with SIGTRAP, then its
 * signal-delivery stop. */
static void cont_stops(pid_t pid, const char *how)
{
	int st;

	st = wait_tid(pid);
	printf("# %s: %s\n", how, describe(st));
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP && (st >> 16) == PTRACE_EVENT_STOP,
	      "SIGCONT: PTRACE_EVENT_STOP, SIGTRAP");
	ptrace(PTRACE_CONT, pid, 0, 0);
	st = wait_tid(pid);
	printf("# %s, then: %s\n", how, describe(st));
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGCONT && (st >> 16) == 0,
	      "then SIGCONT's signal-delivery stop");
	ptrace(PTRACE_CONT, pid, 0, 0);
}

/* SIGSTOP, delivered: the group-stop trap (PTRACE_EVENT_STOP, SIGSTOP). */
static void group_stop(pid_t pid)
{
	int st;

	kill(pid, SIGSTOP);
	st = wait_tid(pid);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP && (st >> 16) == 0,
	      "SIGSTOP's signal-delivery stop");
	ptrace(PTRACE_CONT, pid, 0, SIGSTOP);
	st = wait_tid(pid);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP && (st >> 16) == PTRACE_EVENT_STOP,
	      "the group-stop trap: PTRACE_EVENT_STOP, SIGSTOP");
}

static void test_sigcont(void)
{
	pid_t pid;
	int st;

	pid = fork();
	if (pid == 0)
		sleeper(NULL);
	check(ptrace(PTRACE_SEIZE, pid, 0, 0) == 0, "SEIZE");

	group_stop(pid);
	check(ptrace(PTRACE_LISTEN, pid, 0, 0) == 0, "LISTEN");
	kill(pid, SIGCONT);
	cont_stops(pid, "listening");

	group_stop(pid);
	kill(pid, SIGCONT);
	check(waitpid(pid, &st, __WALL | WNOHANG) == 0, "in its trap: nothing new yet");
	ptrace(PTRACE_CONT, pid, 0, 0);
	cont_stops(pid, "continued from its trap");

	kill(pid, SIGCONT);
	cont_stops(pid, "running");

	kill(pid, SIGKILL);
	st = wait_tid(pid);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "killed");
}

static int started[2];

static void *started_sleeper(void *arg)
{
	write(started[1], "x", 1);
	return sleeper(arg);
}

/* The child: a thread that sleeps, then execve by the leader once the
 * thread runs (past its first stop). */
static void exec_child(int go)
{
	pthread_t th;
	char c;

	read(go, &c, 1);
	pipe(started);
	pthread_create(&th, NULL, started_sleeper, NULL);
	read(started[0], &c, 1); /* the thread runs */
	execl("/proc/self/exe", "ptrace_jobctl", "exec", (char *)NULL);
	_exit(127);
}

static void test_exec_exit(void)
{
	unsigned long msg = 99;
	int go[2], st;
	pid_t pid, tid;

	pipe(go);
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		exec_child(go[0]);
	}
	close(go[0]);
	check(ptrace(PTRACE_SEIZE, pid, 0,
		     PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXIT | PTRACE_O_TRACEEXEC) == 0,
	      "SEIZE with TRACECLONE, TRACEEXIT, TRACEEXEC");
	write(go[1], "x", 1);
	close(go[1]);
	st = wait_tid(pid);
	check(WIFSTOPPED(st) && (st >> 16) == PTRACE_EVENT_CLONE, "the CLONE event");
	ptrace(PTRACE_GETEVENTMSG, pid, 0, &msg);
	tid = (pid_t)msg;
	ptrace(PTRACE_CONT, pid, 0, 0);
	st = wait_tid(tid);
	check(WIFSTOPPED(st) && (st >> 16) == PTRACE_EVENT_STOP, "the thread's first stop");
	ptrace(PTRACE_CONT, tid, 0, 0);

	st = wait_tid(tid);
	printf("# the thread, at the exec: %s\n", describe(st));
	check(WIFSTOPPED(st) && (st >> 16) == PTRACE_EVENT_EXIT, "the thread: PTRACE_EVENT_EXIT");
	msg = 99;
	ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg);
	check(msg == 0, "its message: 0");
	ptrace(PTRACE_CONT, tid, 0, 0);
	st = wait_tid(tid);
	printf("# the thread, then: %s\n", describe(st));
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "its death: an exit 0");

	st = wait_tid(pid);
	check(WIFSTOPPED(st) && (st >> 16) == PTRACE_EVENT_EXEC, "the leader: the EXEC event");
	ptrace(PTRACE_CONT, pid, 0, 0);
	st = wait_tid(pid);
	check(WIFSTOPPED(st) && (st >> 16) == PTRACE_EVENT_EXIT, "the new program's exit event");
	ptrace(PTRACE_CONT, pid, 0, 0);
	st = wait_tid(pid);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "it exits 0");
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "exec") == 0)
		return 0;
	setvbuf(stdout, NULL, _IONBF, 0);
	alarm(20); /* a stop that never comes fails the test, not hangs it */
	test_zombie();
	test_sigcont();
	test_exec_exit();
	return 0;
}
