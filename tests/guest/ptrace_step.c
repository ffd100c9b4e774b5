/* PTRACE_SINGLESTEP: each step runs one instruction and stops with
 * SIGTRAP (si_code TRAP_TRACE); a step over a syscall instruction stops
 * right after it (TRAP_BRKPT) with the call done; the tracer never sees
 * the TF the kernel sets; CONT afterwards runs freely. Also the debug
 * registers a debugger clears in a new child (POKEUSER of DR7 0). skas
 * had no ptrace. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>

#include "tap.h"

/* Three one-instruction steps, then getpid by its syscall instruction. */
extern char steps[], steps_1[], steps_2[], steps_3[], steps_4[];
__asm__(".text\n"
	"steps:\n"
	"	mov $1, %eax\n"
	"steps_1:\n"
	"	add $2, %eax\n"
	"steps_2:\n"
	"	mov $39, %eax\n" /* SYS_getpid */
	"steps_3:\n"
	"	syscall\n"
	"steps_4:\n"
	"	ret\n");

static long run_steps(void)
{
	long r;

	__asm__ volatile("call steps" : "=a"(r) : : "rcx", "r11", "memory");
	return r;
}

int main(void)
{
	struct user_regs_struct r;
	siginfo_t si;
	int st, ok = 1;
	pid_t pid;
	unsigned long dr7;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		_exit(run_steps() == getpid() ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	errno = 0;
	dr7 = ptrace(PTRACE_PEEKUSER, pid, offsetof(struct user, u_debugreg[7]), 0);
	check(errno == 0 && dr7 == 0, "PEEKUSER DR7: none armed");
	check(ptrace(PTRACE_POKEUSER, pid, offsetof(struct user, u_debugreg[7]), 0) == 0,
	      "POKEUSER DR7 0 (a debugger clears them)");
	/* Run to the first instruction of steps with a breakpoint there. */
	{
		long word = ptrace(PTRACE_PEEKTEXT, pid, steps, 0);

		ptrace(PTRACE_POKETEXT, pid, steps, (word & ~0xffL) | 0xcc);
		ptrace(PTRACE_CONT, pid, 0, 0);
		waitpid(pid, &st, 0);
		ptrace(PTRACE_POKETEXT, pid, steps, word);
		ptrace(PTRACE_GETREGS, pid, 0, &r);
		r.rip = (uintptr_t)steps;
		ptrace(PTRACE_SETREGS, pid, 0, &r);
	}
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP, "at the start of the steps");
	{
		char *want[] = { steps_1, steps_2, steps_3 };

		for (int i = 0; i < 3; i++) {
			ptrace(PTRACE_SINGLESTEP, pid, 0, 0);
			waitpid(pid, &st, 0);
			ptrace(PTRACE_GETREGS, pid, 0, &r);
			ptrace(PTRACE_GETSIGINFO, pid, 0, &si);
			ok = ok && WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP &&
			     r.rip == (uintptr_t)want[i] && si.si_code == TRAP_TRACE &&
			     !(r.eflags & 0x100);
		}
	}
	check(ok, "three steps: one instruction each, SIGTRAP TRAP_TRACE, no TF shown");
	check(r.rax == 39, "the steps ran (rax is SYS_getpid)");
	ptrace(PTRACE_SINGLESTEP, pid, 0, 0);
	waitpid(pid, &st, 0);
	ptrace(PTRACE_GETREGS, pid, 0, &r);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP && r.rip == (uintptr_t)steps_4,
	      "a step over the syscall instruction stops right after it");
	check((pid_t)r.rax == pid, "with the call done");
	ptrace(PTRACE_CONT, pid, 0, 0);
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "CONT: the tracee runs to its end without another stop");
	return 0;
}
