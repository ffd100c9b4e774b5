/* A call interrupted under a tracer waits for its restart in rax as
 * -ERESTARTSYS (-512), as Linux shows it, and what the tracer leaves in
 * the registers decides: left alone, the call restarts; orig_rax -1 skips
 * the restart with rax as the result; another rax is the result. Checked
 * at a PTRACE_INTERRUPT stop of a blocking read, at the signal-delivery
 * stop of a caught signal (EINTR, or a restart under SA_RESTART; -EINTR
 * written there by the tracer is EINTR even under SA_RESTART), and at the
 * syscall-exit stop PTRACE_SYSCALL makes before it. A gdb-style call of a
 * function in the stopped tracee (orig_rax -1, rip elsewhere, then the
 * saved registers put back at its int3) still restarts the read. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>

#include "tap.h"

static void on_usr1(int sig)
{
	(void)sig;
}

/* The child: blocks in read(fd) once and exits with a code that says
 * what the read returned: 1 the byte, 2 EINTR, 3 the tracer's 42, 4 7. */
static int child(int fd, int restart)
{
	struct sigaction sa;
	char c;
	long r;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = restart ? SA_RESTART : 0;
	sigaction(SIGUSR1, &sa, NULL);
	r = syscall(SYS_read, fd, &c, 1);
	if (r == 1)
		return 1;
	if (r == -1 && errno == EINTR)
		return 2;
	return r == 42 ? 3 : r == 7 ? 4 : 9;
}

/* how: 0 leave, 1 skip (orig_rax -1, rax 42), 2 rax 7. At an interrupt
 * stop; the byte is then written. Returns the child's code. */
static int at_interrupt(int how, long *seen)
{
	struct user_regs_struct r;
	int pfd[2], st;
	pid_t p;

	if (pipe(pfd) < 0)
		return -1;
	p = fork();
	if (p == 0)
		_exit(child(pfd[0], 0));
	ptrace(PTRACE_SEIZE, p, 0, 0);
	/* until it sleeps in its read: a stop there shows orig_rax 0 (at
	 * most 500 tries) */
	for (int i = 0; i < 500; i++) {
		usleep(10000);
		ptrace(PTRACE_INTERRUPT, p, 0, 0);
		waitpid(p, &st, 0);
		ptrace(PTRACE_GETREGS, p, 0, &r);
		if (r.orig_rax == SYS_read)
			break;
		ptrace(PTRACE_CONT, p, 0, 0);
	}
	*seen = (long)r.rax;
	if (how == 1) {
		r.orig_rax = (unsigned long long)-1;
		r.rax = 42;
	} else if (how == 2) {
		r.rax = 7;
	}
	if (how)
		ptrace(PTRACE_SETREGS, p, 0, &r);
	if (write(pfd[1], "x", 1) != 1)
		return -1;
	ptrace(PTRACE_CONT, p, 0, 0);
	waitpid(p, &st, 0);
	close(pfd[0]);
	close(pfd[1]);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A SIGUSR1 while the child sleeps in read, under PTRACE_SYSCALL: the
 * exit stop's rax, the signal-delivery stop's rax, then the outcome. */
static int at_signal(int restart, long *exit_rax, long *sig_rax)
{
	struct user_regs_struct r;
	int pfd[2], st, stops = 0;
	pid_t p;

	*exit_rax = *sig_rax = 0;
	if (pipe(pfd) < 0)
		return -1;
	p = fork();
	if (p == 0) {
		raise(SIGSTOP);
		_exit(child(pfd[0], restart));
	}
	waitpid(p, &st, WUNTRACED);
	ptrace(PTRACE_SEIZE, p, 0, PTRACE_O_TRACESYSGOOD);
	kill(p, SIGCONT);
	/* run to the read's entry stop */
	for (;;) {
		ptrace(PTRACE_SYSCALL, p, 0, 0);
		waitpid(p, &st, 0);
		if (!WIFSTOPPED(st))
			return -1;
		if (WSTOPSIG(st) == (SIGTRAP | 0x80)) {
			ptrace(PTRACE_GETREGS, p, 0, &r);
			if (r.orig_rax == SYS_read && (long)r.rax == -ENOSYS)
				break;
		}
	}
	ptrace(PTRACE_SYSCALL, p, 0, 0);
	usleep(50000); /* asleep in the read (either way the signal ends it) */
	kill(p, SIGUSR1);
	for (;;) {
		waitpid(p, &st, 0);
		if (!WIFSTOPPED(st))
			break;
		ptrace(PTRACE_GETREGS, p, 0, &r);
		if (WSTOPSIG(st) == (SIGTRAP | 0x80) && stops++ == 0 && r.orig_rax == SYS_read)
			*exit_rax = (long)r.rax;
		if (WSTOPSIG(st) == SIGUSR1) {
			*sig_rax = (long)r.rax;
			if (write(pfd[1], "x", 1) != 1)
				return -1;
			ptrace(PTRACE_DETACH, p, 0, SIGUSR1);
			continue;
		}
		ptrace(PTRACE_SYSCALL, p, 0, 0);
	}
	close(pfd[0]);
	close(pfd[1]);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The function a gdb-style inferior call runs: it ends in a breakpoint. */
static void called(void)
{
	__asm__ volatile("int3");
}

/* how 0: at the SIGUSR1 stop (SA_RESTART handler) the tracer writes rax
 * -EINTR; 1: it runs called() in the tracee first (the signal dropped)
 * and puts the registers back at its int3. The child's code. */
static int tracer_edits(int how)
{
	struct user_regs_struct saved, r;
	int pfd[2], st;
	pid_t p;

	if (pipe(pfd) < 0)
		return -1;
	p = fork();
	if (p == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		syscall(SYS_kill, getpid(), SIGSTOP);
		_exit(child(pfd[0], 1));
	}
	waitpid(p, &st, 0);
	ptrace(PTRACE_CONT, p, 0, 0);
	usleep(50000); /* asleep in the read (either way the signal ends it) */
	kill(p, SIGUSR1);
	waitpid(p, &st, 0);
	ptrace(PTRACE_GETREGS, p, 0, &saved);
	if (how == 0) {
		r = saved;
		r.rax = (unsigned long long)-EINTR;
		ptrace(PTRACE_SETREGS, p, 0, &r);
		ptrace(PTRACE_CONT, p, 0, SIGUSR1);
	} else {
		r = saved;
		r.orig_rax = (unsigned long long)-1;
		r.rip = (unsigned long)called;
		r.rsp = ((saved.rsp - 256) & ~15ULL) - 8;
		ptrace(PTRACE_SETREGS, p, 0, &r);
		ptrace(PTRACE_CONT, p, 0, 0);
		waitpid(p, &st, 0); /* its int3 */
		ptrace(PTRACE_SETREGS, p, 0, &saved);
		ptrace(PTRACE_CONT, p, 0, 0);
	}
	if (write(pfd[1], "x", 1) != 1)
		return -1;
	waitpid(p, &st, 0);
	close(pfd[0]);
	close(pfd[1]);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(void)
{
	long a, b;
	int r;

	setvbuf(stdout, NULL, _IONBF, 0);
	r = at_interrupt(0, &a);
	check(a == -512, "an interrupt stop in a blocking read shows rax -ERESTARTSYS");
	check(r == 1, "left alone, the read restarts and gets the byte");
	r = at_interrupt(1, &a);
	check(r == 3, "orig_rax -1 and rax 42: no restart, the read returns 42");
	r = at_interrupt(2, &a);
	check(r == 4, "rax 7: no restart, the read returns 7");
	r = at_signal(0, &a, &b);
	check(a == -512, "PTRACE_SYSCALL: the interrupted read's exit stop shows -ERESTARTSYS");
	check(b == -512, "the signal-delivery stop shows it too");
	check(r == 2, "a handler without SA_RESTART: EINTR");
	r = at_signal(1, &a, &b);
	check(b == -512, "SA_RESTART: the signal-delivery stop shows -ERESTARTSYS");
	check(r == 1, "SA_RESTART: the read restarts and gets the byte");
	check(tracer_edits(0) == 2, "SA_RESTART, rax -EINTR written by the tracer: EINTR");
	check(tracer_edits(1) == 1, "an inferior call, the registers put back: the read restarts");
	return 0;
}
