/* PTRACE_SINGLESTEP with a signal whose handler runs: the tracee stops
 * (SIGTRAP) at the handler's first instruction, stepping off, and the
 * frame's saved flags hold no trap flag of the tracer's, so the sigreturn
 * does not step on (skas saved the TF in the frame: every instruction
 * after the handler trapped, and gdb, stepping over a breakpoint while a
 * SIGURG came, stopped with a stray SIGTRAP in Go's asyncPreempt). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>

#include "tap.h"
static volatile int saw_tf = -1;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	saw_tf = (((ucontext_t *)uc)->uc_mcontext.gregs[REG_EFL] & 0x100) != 0;
}

int main(void)
{
	struct user_regs_struct r;
	siginfo_t si;
	int st, stops = 0;
	pid_t p;

	setvbuf(stdout, NULL, _IONBF, 0);
	p = fork();
	if (p == 0) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_usr1;
		sa.sa_flags = SA_SIGINFO;
		sigaction(SIGUSR1, &sa, NULL);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		/* not raise(): musl's blocks signals around its kill */
		syscall(SYS_kill, getpid(), SIGSTOP);
		for (volatile int i = 0; i < 1000; i++)
			;
		_exit(saw_tf == 0 ? 0 : saw_tf == 1 ? 1 : 2);
	}
	waitpid(p, &st, 0);
	ptrace(PTRACE_SINGLESTEP, p, 0, 0);
	waitpid(p, &st, 0);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP, "a step: SIGTRAP");
	ptrace(PTRACE_SINGLESTEP, p, 0, SIGUSR1);
	waitpid(p, &st, 0);
	ptrace(PTRACE_GETREGS, p, 0, &r);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP,
	      "a step with SIGUSR1 and a handler: a SIGTRAP stop");
	check(r.rip == (unsigned long)on_usr1, "at the handler's first instruction");
	check(!(r.eflags & 0x100), "with no trap flag showing");
	check(ptrace(PTRACE_GETSIGINFO, p, 0, &si) == 0 && si.si_signo == SIGTRAP,
	      "its siginfo says SIGTRAP");
	for (;;) {
		ptrace(PTRACE_CONT, p, 0, 0);
		waitpid(p, &st, 0);
		if (!WIFSTOPPED(st))
			break;
		stops++;
	}
	check(stops == 0, "continued: no more stops (no step after the sigreturn)");
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the frame's flags had no TF");
	return 0;
}
