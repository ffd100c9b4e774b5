/* A tracer that attaches to a process busy with signal handlers, and
 * stops it at any moment (PTRACE_SEIZE + PTRACE_INTERRUPT, then
 * PTRACE_DETACH), finds it where Linux would have it: in the program's
 * own code (a handler's first instruction, the code a handler returned
 * to), never in code of the kernel's making; and the process goes on
 * with its handlers unharmed. The same for a core-less stop seen through
 * a SIGSTOP and PTRACE_ATTACH. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>

extern char __executable_start[], etext[];

struct shared {
	volatile int stop;
	volatile long handled;
	volatile long raised;
};

static struct shared *sh;

static void on_usr1(int sig)
{
	(void)sig;
	sh->handled++;
}

/* kill(getpid(), SIGUSR1) with no libc wrapper: the handler runs as the
 * call returns. */
static void raise_raw(long pid)
{
	long ret;

	asm volatile("syscall"
		     : "=a"(ret)
		     : "0"((long)SYS_kill), "D"(pid), "S"((long)SIGUSR1)
		     : "rcx", "r11", "memory");
	(void)ret;
}

static void child(void)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	long pid = getpid();

	sigaction(SIGUSR1, &sa, NULL);
	while (!sh->stop) {
		raise_raw(pid);
		sh->raised++;
	}
	_exit(sh->handled == sh->raised ? 0 : 3);
}

static int outside(uint64_t rip)
{
	return rip < (uintptr_t)__executable_start || rip >= (uintptr_t)etext;
}

/* Waits for the stop the tracer asked for (event is PTRACE_EVENT_STOP for
 * an interrupt, 0 for the SIGSTOP of an attach); signal-delivery stops on
 * the way are checked too and their signal delivered. Returns the number
 * of stops whose address was outside the program, or -1. */
static int wait_stop(pid_t pid, int event, int *stops)
{
	struct user_regs_struct r;
	int st, bad = 0;

	for (;;) {
		if (waitpid(pid, &st, __WALL) != pid || !WIFSTOPPED(st))
			return -1;
		if (ptrace(PTRACE_GETREGS, pid, 0, &r) < 0)
			return -1;
		(*stops)++;
		bad += outside(r.rip);
		if (event == PTRACE_EVENT_STOP && st >> 16 == PTRACE_EVENT_STOP)
			return bad;
		if (event == 0 && WSTOPSIG(st) == SIGSTOP)
			return bad;
		/* SIGUSR1 on its way to the handler: delivered */
		if (ptrace(PTRACE_CONT, pid, 0, (void *)(long)WSTOPSIG(st)) < 0)
			return -1;
	}
}

int main(void)
{
	int i, st, seize_bad = 0, attach_bad = 0, stops = 0, fails = 0;
	pid_t pid;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	pid = fork();
	if (pid == 0)
		child();
	/* let it get going */
	while (sh->handled < 100)
		usleep(1000);
	for (i = 0; i < 400; i++) {
		int n;

		if (ptrace(PTRACE_SEIZE, pid, 0, 0) < 0 ||
		    ptrace(PTRACE_INTERRUPT, pid, 0, 0) < 0) {
			fails++;
			break;
		}
		n = wait_stop(pid, PTRACE_EVENT_STOP, &stops);
		if (n < 0 || ptrace(PTRACE_DETACH, pid, 0, 0) < 0) {
			fails++;
			break;
		}
		seize_bad += n;
	}
	for (i = 0; i < 100 && !fails; i++) {
		int n;

		if (ptrace(PTRACE_ATTACH, pid, 0, 0) < 0) {
			fails++;
			break;
		}
		n = wait_stop(pid, 0, &stops);
		if (n < 0 || ptrace(PTRACE_DETACH, pid, 0, 0) < 0) {
			fails++;
			break;
		}
		attach_bad += n;
	}
	sh->stop = 1;
	if (waitpid(pid, &st, 0) != pid)
		fails++;
	printf("tracer requests that failed: %d\n", fails);
	printf("seize + interrupt: stops outside the program: %d\n", seize_bad);
	printf("attach: stops outside the program: %d\n", attach_bad);
	printf("every stop checked: %s\n", stops >= 500 ? "yes" : "no");
	printf("the child's handlers ran once per raise: %s\n",
	       WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "yes" : "no");
	return 0;
}
