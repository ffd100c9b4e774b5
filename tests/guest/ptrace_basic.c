/* ptrace(2) between guest processes, the first part: TRACEME, ATTACH,
 * SEIZE, INTERRUPT, CONT, DETACH, KILL; the permission and state errors;
 * signal-delivery stops (the tracer picks the signal delivered), group
 * stops, stops seen by waitpid and waitid, a tracee that is not the
 * tracer's child, the tracer's exit (detach, or EXITKILL), /proc's
 * TracerPid and 't' state. skas answered ENOSYS to every request. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <time.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>

#define TAP_FLUSH
#include "tap.h"

static char stat_state(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t len;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

static int status_field(pid_t pid, const char *key)
{
	char path[64], line[256];
	FILE *f;
	int v = -1;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, strlen(key)) == 0)
			v = atoi(line + strlen(key));
	fclose(f);
	return v;
}

static long err(long r)
{
	return r < 0 ? errno : 0;
}

static volatile sig_atomic_t got;

static void on_sig(int sig)
{
	got = sig;
}

/* A child that waits for a byte on fd, then exits with code. */
static pid_t sleeper(int fd, int code)
{
	pid_t pid = fork();
	char c;

	if (pid == 0) {
		while (read(fd, &c, 1) < 0 && errno == EINTR)
			;
		_exit(code);
	}
	return pid;
}

static void test_traceme(void)
{
	int st;
	siginfo_t si;
	pid_t pid = fork();

	if (pid == 0) {
		int e;

		ptrace(PTRACE_TRACEME, 0, 0, 0);
		e = err(ptrace(PTRACE_TRACEME, 0, 0, 0));
		kill(getpid(), SIGUSR1);
		_exit(e == EPERM ? 7 : 8);
	}
	check(waitpid(pid, &st, 0) == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGUSR1,
	      "TRACEME: a signal stops the tracee, waitpid reports it");
	check(stat_state(pid) == 't', "/proc/PID/stat says t (tracing stop)");
	check(status_field(pid, "TracerPid:") == getpid(), "TracerPid is the tracer");
	check(ptrace(PTRACE_GETSIGINFO, pid, 0, &si) == 0 && si.si_signo == SIGUSR1 &&
		      si.si_code == SI_USER && si.si_pid == pid,
	      "GETSIGINFO gives the signal's siginfo");
	check(err(ptrace(PTRACE_CONT, pid, 0, 100)) == EIO, "CONT with a bad signal is EIO");
	check(err(ptrace(12345, pid, 0, 0)) == EIO, "an unknown request is EIO");
	check(err(ptrace(PTRACE_SETOPTIONS, pid, 0, 0x80000000)) == EINVAL,
	      "SETOPTIONS with an unknown option is EINVAL");
	check(ptrace(PTRACE_CONT, pid, 0, 0) == 0, "CONT with 0 suppresses the signal");
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 7,
	      "the tracee ran on (a second TRACEME was EPERM) and its exit is reported");
	check(err(ptrace(PTRACE_CONT, pid, 0, 0)) == ESRCH,
	      "a request to a reaped tracee is ESRCH");
}

/* The tracer decides which signal is delivered. */
static void test_inject(void)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		signal(SIGUSR1, on_sig);
		signal(SIGUSR2, on_sig);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGUSR1);
		_exit(got == SIGUSR2 ? 20 : got == SIGUSR1 ? 10 : 0);
	}
	waitpid(pid, &st, 0);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGUSR1, "a handled signal stops the tracee too");
	ptrace(PTRACE_CONT, pid, 0, SIGUSR2);
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 20, "CONT's signal is the one delivered");
}

/* An ignored signal and a fatal one both stop first. */
static void test_fatal(void)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		signal(SIGUSR2, SIG_IGN);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGUSR2);
		raise(SIGTERM);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGUSR2, "an ignored signal stops the tracee");
	ptrace(PTRACE_CONT, pid, 0, SIGUSR2);
	waitpid(pid, &st, 0);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTERM, "a fatal signal stops it first");
	ptrace(PTRACE_CONT, pid, 0, SIGTERM);
	waitpid(pid, &st, 0);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "and kills it once let through");
}

static void test_attach(void)
{
	int st, p[2];
	pid_t pid;
	siginfo_t si;

	if (pipe(p) < 0)
		return;
	pid = sleeper(p[0], 5);
	check(err(ptrace(PTRACE_ATTACH, getpid(), 0, 0)) == EPERM, "ATTACH to oneself is EPERM");
	check(err(ptrace(PTRACE_GETREGS, pid, 0, 0)) == ESRCH,
	      "a request to an untraced task is ESRCH");
	check(ptrace(PTRACE_ATTACH, pid, 0, 0) == 0, "ATTACH");
	check(waitpid(pid, &st, 0) == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP,
	      "ATTACH stops the tracee with SIGSTOP");
	check(err(ptrace(PTRACE_ATTACH, pid, 0, 0)) == EPERM, "ATTACH to a traced task is EPERM");
	check(err(ptrace(PTRACE_INTERRUPT, pid, 0, 0)) == EIO,
	      "INTERRUPT of an ATTACHed task is EIO");
	memset(&si, 0, sizeof(si));
	check(ptrace(PTRACE_GETSIGINFO, pid, 0, &si) == 0 && si.si_signo == SIGSTOP &&
		      si.si_code == SI_KERNEL,
	      "the SIGSTOP is from the kernel");
	check(ptrace(PTRACE_DETACH, pid, 0, 0) == 0, "DETACH");
	check(status_field(pid, "TracerPid:") == 0, "TracerPid is 0 again");
	check(err(ptrace(PTRACE_CONT, pid, 0, 0)) == ESRCH, "a request after DETACH is ESRCH");
	check(write(p[1], "x", 1) == 1, "wake it");
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 5,
	      "the detached task ran on (its read restarted)");
	close(p[0]);
	close(p[1]);
}

static void test_seize(void)
{
	int st, p[2];
	pid_t pid;
	siginfo_t si;
	idtype_t id = P_PID;

	if (pipe(p) < 0)
		return;
	pid = sleeper(p[0], 6);
	check(err(ptrace(PTRACE_SEIZE, pid, 1, 0)) == EIO, "SEIZE with an address is EIO");
	check(err(ptrace(PTRACE_SEIZE, pid, 0, 0x80000000)) == EIO,
	      "SEIZE with a bad option is EIO");
	check(err(ptrace(PTRACE_SEIZE, 4000000, 1, 0x80000000)) == ESRCH,
	      "SEIZE of no task is ESRCH before its flags are looked at");
	check(ptrace(PTRACE_SEIZE, pid, 0, PTRACE_O_TRACESYSGOOD) == 0, "SEIZE");
	check(waitpid(pid, &st, WNOHANG) == 0, "SEIZE does not stop the tracee");
	check(err(ptrace(PTRACE_CONT, pid, 0, 0)) == ESRCH, "CONT of a running tracee is ESRCH");
	check(ptrace(PTRACE_INTERRUPT, pid, 0, 0) == 0, "INTERRUPT");
	memset(&si, 0, sizeof(si));
	check(waitid(id, pid, &si, WEXITED | WNOWAIT) == 0 && si.si_code == CLD_TRAPPED &&
		      si.si_pid == pid && si.si_status == (SIGTRAP | PTRACE_EVENT_STOP << 8),
	      "waitid (WEXITED only) reports the trap as CLD_TRAPPED");
	check(waitpid(pid, &st, 0) == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP &&
		      st >> 16 == PTRACE_EVENT_STOP,
	      "it stops with PTRACE_EVENT_STOP and SIGTRAP");
	check(waitpid(pid, &st, WNOHANG) == 0, "a stop is reported once");
	check(ptrace(PTRACE_GETSIGINFO, pid, 0, &si) == 0 && si.si_signo == SIGTRAP,
	      "GETSIGINFO at the interrupt stop");
	check(stat_state(pid) == 't', "/proc says t");
	check(ptrace(PTRACE_CONT, pid, 0, 0) == 0, "CONT");
	check(write(p[1], "x", 1) == 1, "wake it");
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 6,
	      "the interrupted read went on and the tracee exits");
	close(p[0]);
	close(p[1]);
}

/* A SIGSTOP let through: the group stop is a second stop (no siginfo). */
static void test_group_stop(void)
{
	int st;
	siginfo_t si;
	pid_t pid = fork();

	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		_exit(9);
	}
	waitpid(pid, &st, 0);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, "raise(SIGSTOP) stops the tracee");
	ptrace(PTRACE_CONT, pid, 0, SIGSTOP);
	check(waitpid(pid, &st, 0) == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP,
	      "let through, it becomes a group stop");
	check(err(ptrace(PTRACE_GETSIGINFO, pid, 0, &si)) == EINVAL,
	      "GETSIGINFO in a group stop is EINVAL");
	check(stat_state(pid) == 't', "still t");
	check(ptrace(PTRACE_CONT, pid, 0, 0) == 0, "CONT from the group stop");
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 9,
	      "the tracee runs on");
}

/* Let run from its group-stop trap, the tracee runs while its group stays
 * stopped, and a call of its sleeps as ever: one entry and one exit stop
 * for its read (skas interrupted the sleep for ever: the read restarted
 * again and again, each time with its stops). */
static void test_run_in_group_stop(void)
{
	struct timespec ts = { 0, 100000000 };
	int st, p[2];
	long ret = 0;
	pid_t pid;
	char c;

	if (pipe(p) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		_exit(read(p[0], &c, 1) == 1 ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	ptrace(PTRACE_CONT, pid, 0, SIGSTOP);
	waitpid(pid, &st, 0);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, "the group stop's trap");
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD);
	/* to read's entry (raise's return first) */
	do {
		ptrace(PTRACE_SYSCALL, pid, 0, 0);
		waitpid(pid, &st, 0);
	} while (WIFSTOPPED(st) &&
		 ptrace(PTRACE_PEEKUSER, pid, offsetof(struct user_regs_struct, orig_rax), 0) !=
			 SYS_read);
	ptrace(PTRACE_SYSCALL, pid, 0, 0);
	nanosleep(&ts, NULL); /* time for a wrongly woken read to come back */
	check(write(p[1], "x", 1) == 1, "wake it");
	/* the next stop: read's exit with its byte (a wrongly woken read
	 * would have stopped at its exit with -EINTR, then again and again) */
	if (waitpid(pid, &st, 0) == pid && WIFSTOPPED(st))
		ret = ptrace(PTRACE_PEEKUSER, pid, offsetof(struct user_regs_struct, rax), 0);
	check(ret == 1, "its read slept: its exit stop has the byte");
	ptrace(PTRACE_CONT, pid, 0, 0);
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0, "and it exits");
	close(p[0]);
	close(p[1]);
}

static void test_kill(void)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGUSR1);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	check(ptrace(PTRACE_KILL, pid, 0, 0) == 0, "PTRACE_KILL");
	check(waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
	      "kills the tracee");
}

/* The tracer is a sibling: it waits for a task that is not its child,
 * hears of its exit, and its own exit lets its tracees go (or kills them
 * with EXITKILL). */
static void test_sibling(int exitkill)
{
	int st, p[2], q[2], r[2];
	pid_t victim, tracer;
	char c = 0;

	if (pipe(p) < 0 || pipe(q) < 0 || pipe(r) < 0)
		return;
	victim = sleeper(p[0], 3);
	tracer = fork();
	if (tracer == 0) {
		int ok = ptrace(PTRACE_SEIZE, victim, 0, exitkill ? PTRACE_O_EXITKILL : 0) == 0;

		ok = ok && ptrace(PTRACE_INTERRUPT, victim, 0, 0) == 0;
		ok = ok && waitpid(victim, &st, 0) == victim && st >> 16 == PTRACE_EVENT_STOP;
		ok = ok && err(waitpid(victim, &st, WNOHANG)) == 0;
		ok = ok && ptrace(PTRACE_CONT, victim, 0, 0) == 0;
		c = ok ? 'y' : 'n';
		if (write(q[1], &c, 1) != 1)
			_exit(1);
		if (exitkill) {
			while (read(r[0], &c, 1) < 0 && errno == EINTR)
				;
			_exit(0);
		}
		/* Its exit is reported to us, not being our child. */
		ok = waitpid(victim, &st, __WALL) == victim && WIFEXITED(st) &&
		     WEXITSTATUS(st) == 3;
		_exit(ok ? 0 : 2);
	}
	check(read(q[0], &c, 1) == 1 && c == 'y', "a sibling seizes, interrupts and waits for it");
	check(status_field(victim, "TracerPid:") == tracer, "TracerPid is the sibling");
	if (!exitkill) {
		check(write(p[1], "x", 1) == 1, "wake the tracee");
		check(waitpid(tracer, &st, 0) == tracer && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "the tracer heard of the tracee's exit");
		check(waitpid(victim, &st, 0) == victim && WIFEXITED(st) && WEXITSTATUS(st) == 3,
		      "and so does its parent");
	} else {
		check(write(r[1], "x", 1) == 1, "tell the tracer to exit");
		check(waitpid(tracer, &st, 0) == tracer && WIFEXITED(st), "the tracer exits");
		check(waitpid(victim, &st, 0) == victim && WIFSIGNALED(st) &&
			      WTERMSIG(st) == SIGKILL,
		      "EXITKILL: its tracee is killed");
	}
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
	close(r[0]);
	close(r[1]);
}

/* A tracer's exit without EXITKILL: the tracee is detached and runs on. */
static void test_tracer_exit(void)
{
	int st, p[2], q[2];
	pid_t victim, tracer;
	char c = 0;

	if (pipe(p) < 0 || pipe(q) < 0)
		return;
	victim = sleeper(p[0], 4);
	tracer = fork();
	if (tracer == 0) {
		int ok = ptrace(PTRACE_ATTACH, victim, 0, 0) == 0 &&
			 waitpid(victim, &st, __WALL) == victim && WIFSTOPPED(st);

		c = ok ? 'y' : 'n';
		if (write(q[1], &c, 1) != 1)
			_exit(1);
		_exit(0); /* the tracee is in its SIGSTOP stop */
	}
	check(read(q[0], &c, 1) == 1 && c == 'y', "a sibling attaches");
	waitpid(tracer, &st, 0);
	check(status_field(victim, "TracerPid:") == 0, "its exit detached the tracee");
	check(write(p[1], "x", 1) == 1, "wake the tracee");
	check(waitpid(victim, &st, 0) == victim && WIFEXITED(st) && WEXITSTATUS(st) == 4,
	      "which runs on");
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_traceme();
	test_inject();
	test_fatal();
	test_attach();
	test_seize();
	test_group_stop();
	test_run_in_group_stop();
	test_kill();
	test_sibling(0);
	test_sibling(1);
	test_tracer_exit();
	return 0;
}
