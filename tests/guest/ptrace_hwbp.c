/* The debug registers through PTRACE_PEEKUSER and POKEUSER (gdb's watch,
 * rwatch, awatch and hbreak): what a new tracee's read, Linux's checks of
 * what is written (EIO for DR4 and DR5, EINVAL for an address past user
 * space, an I/O or long exec breakpoint, an unaligned watch), values read
 * back as written, a watched write stopping the tracee with TRAP_HWBKPT
 * where the host's debug registers fire, an exec starting with none, and
 * a new thread having none (not its creator's, nor a thread's before it);
 * a breakpoint where the program never runs nor reads (high in user space,
 * where skas keeps its stub) never stops it; a fork's child whose DR0 is
 * written after the fork has it disabled, whatever DR7 it inherited; two
 * exec breakpoints on one instruction both show in DR6 at the hit.
 * skas refused to enable one in DR7 (EIO), so gdb's watch failed with
 * "Couldn't write debug register". */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ENAME
#include "tap.h"

#define DR(i) offsetof(struct user, u_debugreg[i])
/* DR7: breakpoint i enabled (Li), a write watch of 8 bytes. */
#define DR7_W8_N(i) (1UL << 2 * (i) | 1UL << (16 + 4 * (i)) | 2UL << (18 + 4 * (i)))
#define DR7_W8	    DR7_W8_N(0)

static volatile long var;

static long peek_dr(pid_t pid, int i)
{
	errno = 0;
	return ptrace(PTRACE_PEEKUSER, pid, DR(i), 0);
}

static long poke_dr(pid_t pid, int i, unsigned long v)
{
	return ptrace(PTRACE_POKEUSER, pid, DR(i), v);
}

static void *thread_fn(void *arg)
{
	return arg;
}

/* The tracee of the thread part: two threads one after the other. */
static void threads_child(void)
{
	pthread_t th;

	ptrace(PTRACE_TRACEME, 0, 0, 0);
	raise(SIGSTOP);
	for (int i = 0; i < 2; i++) {
		if (pthread_create(&th, NULL, thread_fn, NULL) != 0)
			_exit(1);
		pthread_join(th, NULL);
	}
	_exit(0);
}

/* Waits for the next clone event of pid and the new thread's first stop:
 * the new thread's tid, or -1. Both stay stopped. */
static pid_t next_thread(pid_t pid)
{
	unsigned long msg = 0;
	int st;
	pid_t w;

	for (;;) {
		w = waitpid(-1, &st, __WALL);
		if (w < 0)
			return -1;
		if (w == pid && WIFSTOPPED(st) && st >> 16 == PTRACE_EVENT_CLONE) {
			ptrace(PTRACE_GETEVENTMSG, pid, 0, &msg);
			break;
		}
		if (WIFSTOPPED(st))
			ptrace(PTRACE_CONT, w, 0, 0);
		else if (w == pid)
			return -1;
	}
	/* Its first stop (SIGSTOP), unless it was reported before. */
	waitpid((pid_t)msg, &st, __WALL);
	return (pid_t)msg;
}

static void check_threads(void)
{
	char what[96];
	pid_t pid, t1, t2;
	int st;

	pid = fork();
	if (pid == 0)
		threads_child();
	waitpid(pid, &st, 0);
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACECLONE);
	check(poke_dr(pid, 0, (unsigned long)&var) == 0 && poke_dr(pid, 7, DR7_W8) == 0,
	      "the main thread watches var");
	ptrace(PTRACE_CONT, pid, 0, 0);
	t1 = next_thread(pid);
	check(t1 > 0 && peek_dr(t1, 0) == 0 && errno == 0,
	      "a new thread has none of its creator's breakpoints");
	/* Linux's copy_thread keeps the last DR7 written (ptrace_dr7), with
	 * no breakpoint behind it. */
	snprintf(what, sizeof(what), "its DR7 reads %#lx, DR6 %#lx", peek_dr(t1, 7),
		 peek_dr(t1, 6));
	check(1, what);
	check(poke_dr(t1, 1, (unsigned long)&var) == 0 && poke_dr(t1, 7, DR7_W8_N(1)) == 0 &&
		      poke_dr(t1, 6, 0x4002) == 0,
	      "the new thread watches var with DR1 and has its own DR6");
	check(peek_dr(pid, 7) == (long)DR7_W8 && peek_dr(pid, 1) == 0,
	      "the main thread's registers are its own");
	ptrace(PTRACE_CONT, t1, 0, 0);
	ptrace(PTRACE_CONT, pid, 0, 0);
	t2 = next_thread(pid);
	check(t2 > 0 && peek_dr(t2, 1) == 0 && peek_dr(t2, 0) == 0,
	      "a thread after it has none of the first thread's breakpoints");
	snprintf(what, sizeof(what), "nor its DR6: DR7 reads %#lx, DR6 %#lx", peek_dr(t2, 7),
		 peek_dr(t2, 6));
	check(1, what);
	ptrace(PTRACE_CONT, t2, 0, 0);
	ptrace(PTRACE_CONT, pid, 0, 0);
	/* To the end: every stop let go, every exit reaped. */
	for (;;) {
		pid_t w = waitpid(-1, &st, __WALL);

		if (w < 0)
			break;
		if (WIFSTOPPED(st))
			ptrace(PTRACE_CONT, w, 0, 0);
		else if (w == pid)
			break;
	}
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the tracee ran its threads to the end");
}

/* A tracee that makes system calls, then writes var: with an exec
 * breakpoint at addr (DR7 1), and stopped nowhere else, it exits 0. */
static void check_far(unsigned long addr, const char *what)
{
	pid_t pid = fork();
	int st, stops = 0;

	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		for (int i = 0; i < 100; i++)
			getppid();
		var = 9;
		_exit(0);
	}
	waitpid(pid, &st, 0);
	if (poke_dr(pid, 0, addr) < 0 || poke_dr(pid, 7, 1) < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		check(0, what);
		return;
	}
	ptrace(PTRACE_CONT, pid, 0, 0);
	while (waitpid(pid, &st, 0) == pid && WIFSTOPPED(st) && stops < 5) {
		stops++;
		ptrace(PTRACE_CONT, pid, 0, 0);
	}
	if (stops >= 5) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
	}
	check(stops == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0, what);
}

__attribute__((noinline)) static int twice_watched(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

/* DR0 and DR1 both exec breakpoints on twice_watched: one stop, DR6 with
 * both bits (a host whose debug registers do not fire: none, as
 * natively there). */
static void check_two_bits(void)
{
	char what[128];
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		_exit(twice_watched(1) == 2 ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	poke_dr(pid, 0, (unsigned long)&twice_watched);
	poke_dr(pid, 1, (unsigned long)&twice_watched);
	poke_dr(pid, 7, 1UL | 1UL << 2);
	ptrace(PTRACE_CONT, pid, 0, 0);
	waitpid(pid, &st, 0);
	if (WIFSTOPPED(st)) {
		snprintf(what, sizeof(what),
			 "two breakpoints on one instruction: DR6 low bits %#lx",
			 peek_dr(pid, 6) & 0xf);
		check(WSTOPSIG(st) == SIGTRAP && (peek_dr(pid, 6) & 0xf) == 3, what);
		poke_dr(pid, 7, 0);
		ptrace(PTRACE_CONT, pid, 0, 0);
		waitpid(pid, &st, 0);
	} else {
		check(1,
		      "two breakpoints on one instruction: no debug register fires on this host");
	}
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "that tracee exits");
}

/* The child of a traced fork inherits DR7's value but no breakpoint: its
 * DR0 written (a write watch of var) stays disabled until DR7 is. */
static void check_fork_dr0(void)
{
	pid_t pid = fork(), child = 0;
	unsigned long msg = 0;
	int st, stops = 0;

	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		if (fork() == 0) {
			var = 5;
			_exit(0);
		}
		wait(NULL);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACEFORK);
	poke_dr(pid, 0, (unsigned long)&check_far);
	poke_dr(pid, 7, 1);
	ptrace(PTRACE_CONT, pid, 0, 0);
	waitpid(pid, &st, 0);
	if (WIFSTOPPED(st) && st >> 8 == (SIGTRAP | PTRACE_EVENT_FORK << 8) &&
	    ptrace(PTRACE_GETEVENTMSG, pid, 0, &msg) == 0)
		child = (pid_t)msg;
	if (child > 0) {
		waitpid(child, &st, __WALL);
		poke_dr(child, 0, (unsigned long)&var);
		ptrace(PTRACE_CONT, child, 0, 0);
		while (waitpid(child, &st, __WALL) == child && WIFSTOPPED(st) && stops < 5) {
			stops++;
			ptrace(PTRACE_CONT, child, 0, 0);
		}
	}
	ptrace(PTRACE_CONT, pid, 0, 0);
	waitpid(pid, NULL, 0);
	check(child > 0 && stops == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a fork's child with DR0 written, DR7 inherited: no stop");
}

static void check_exec(const char *self)
{
	unsigned long fresh;
	pid_t pid;
	int st;

	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		execl(self, self, "exit", (char *)NULL);
		_exit(1);
	}
	waitpid(pid, &st, 0);
	fresh = (unsigned long)peek_dr(pid, 6);
	check(poke_dr(pid, 0, (unsigned long)&var) == 0 && poke_dr(pid, 7, DR7_W8) == 0 &&
		      poke_dr(pid, 6, 0x4001) == 0,
	      "DR0, DR7 and DR6 set before an exec");
	ptrace(PTRACE_CONT, pid, 0, 0);
	waitpid(pid, &st, 0);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP, "the exec's SIGTRAP");
	check(peek_dr(pid, 0) == 0 && peek_dr(pid, 7) == 0,
	      "the new program starts with no breakpoint");
	check((unsigned long)peek_dr(pid, 6) == fresh, "and DR6 as a new tracee's");
	ptrace(PTRACE_CONT, pid, 0, 0);
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the new program exits");
}

int main(int argc, char **argv)
{
	char what[160];
	siginfo_t si;
	pid_t pid;
	long v;
	int st;

	if (argc > 1 && strcmp(argv[1], "exit") == 0)
		return 0;
	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		var = 5;
		_exit(3);
	}
	waitpid(pid, &st, 0);
	for (int i = 0; i < 8; i++) {
		v = peek_dr(pid, i);
		snprintf(what, sizeof(what), "DR%d of a new tracee reads %#lx", i, v);
		check(errno == 0 && (i == 6 || v == 0), what);
	}
	check_err(poke_dr(pid, 4, 1), EIO, "DR4 does not exist");
	check_err(poke_dr(pid, 5, 0), EIO, "nor DR5");
	check(poke_dr(pid, 6, 0x1234) == 0 && peek_dr(pid, 6) == 0x1234,
	      "DR6 reads back as written");
	check(poke_dr(pid, 6, 0) == 0 && peek_dr(pid, 6) == 0, "DR6 0");
	check_err(poke_dr(pid, 0, 0x7ffffffff000UL), EINVAL, "DR0 at the end of user space");
	check_err(poke_dr(pid, 0, 0xffff800000000000UL), EINVAL, "DR0 in kernel space");
	check(peek_dr(pid, 0) == 0, "a refused address is not kept");
	check(poke_dr(pid, 0, (unsigned long)&var + 1) == 0, "DR0 at an odd address");
	check_err(poke_dr(pid, 7, DR7_W8), EINVAL, "an 8-byte watch there");
	check(peek_dr(pid, 7) == 0, "a refused DR7 is not kept");
	check(poke_dr(pid, 0, (unsigned long)&var) == 0, "DR0 at var");
	check_err(poke_dr(pid, 7, 1UL | 2UL << 16), EINVAL, "an I/O breakpoint");
	check_err(poke_dr(pid, 7, 1UL | 1UL << 18), EINVAL, "an exec breakpoint 2 bytes long");
	check(poke_dr(pid, 7, 1UL) == 0 && peek_dr(pid, 7) == 1, "an exec breakpoint on var");
	check(poke_dr(pid, 0, (unsigned long)&var + 1) == 0,
	      "an exec breakpoint moves to an odd address");
	check_err(poke_dr(pid, 7, 2UL | 3UL << 16 | 3UL << 18), EINVAL, "a 4-byte watch there");
	check(peek_dr(pid, 7) == 1, "DR7 as before");
	check(poke_dr(pid, 0, (unsigned long)&var) == 0 &&
		      poke_dr(pid, 7, 2UL | 3UL << 16 | 3UL << 18) == 0,
	      "a 4-byte read/write watch of var (G0)");
	check_err(poke_dr(pid, 0, (unsigned long)&var + 2), EINVAL,
		  "it cannot move to an unaligned address");
	check(peek_dr(pid, 0) == (long)&var, "DR0 keeps its address");
	check(poke_dr(pid, 0, (unsigned long)&var) == 0 &&
		      poke_dr(pid, 7, DR7_W8 | 0x2100UL | 0xffffffff00000000UL) == 0 &&
		      peek_dr(pid, 7) == (long)(DR7_W8 | 0x2100UL | 0xffffffff00000000UL),
	      "DR7 reads back as written, its other bits too");
	check(poke_dr(pid, 7, DR7_W8) == 0 && peek_dr(pid, 0) == (long)&var,
	      "an 8-byte write watch of var");
	ptrace(PTRACE_CONT, pid, 0, 0);
	waitpid(pid, &st, 0);
	if (WIFSTOPPED(st)) {
		memset(&si, 0, sizeof(si));
		ptrace(PTRACE_GETSIGINFO, pid, 0, &si);
		v = peek_dr(pid, 6);
		snprintf(what, sizeof(what),
			 "the watched write stops the tracee: signal %d code %d, DR6 low bits %#lx",
			 WSTOPSIG(st), si.si_code, v & 0xf);
		check(WSTOPSIG(st) == SIGTRAP && si.si_code == TRAP_HWBKPT && (v & 1), what);
		ptrace(PTRACE_CONT, pid, 0, 0);
		waitpid(pid, &st, 0);
	} else {
		/* The host's debug registers do not fire (some VMs): natively
		 * too, so this line is the same in both runs. */
		check(1, "the watched write runs on: no debug register fires on this host");
	}
	check(WIFEXITED(st) && WEXITSTATUS(st) == 3, "the tracee exits");
	check_exec(argv[0]);
	check_threads();
	check_far(0x7fffff000400UL, "an exec breakpoint high in user space, never run: no stop");
	check_fork_dr0();
	check_two_bits();
	return 0;
}
