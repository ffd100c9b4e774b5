/* PTRACE_SYSEMU and PTRACE_SYSEMU_SINGLESTEP (what a ptrace-based
 * sandbox or user-mode kernel uses): a stop at syscall entry (SIGTRAP|0x80
 * with TRACESYSGOOD, rax -ENOSYS, orig_rax the number, GET_SYSCALL_INFO's
 * op ENTRY), the call never runs, its result is the rax the tracer left,
 * and there is no exit stop (one only if the tracer resumed with
 * PTRACE_SYSCALL); SYSEMU_SINGLESTEP also steps the other instructions.
 * skas answered EIO to both. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>

#ifndef PTRACE_SYSEMU
#define PTRACE_SYSEMU 31
#endif
#ifndef PTRACE_SYSEMU_SINGLESTEP
#define PTRACE_SYSEMU_SINGLESTEP 32
#endif
#define OP_NONE	 0
#define OP_ENTRY 1
#define OP_EXIT	 2

#include "syscall_info.h"
#include "tap.h"

static long raw3(long nr, long a, long b, long c)
{
	long r;

	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return r;
}

/* Stops by a raw kill: no libc call (raise's masks) runs after it. */
static void stop_self(void)
{
	raw3(SYS_kill, raw3(SYS_getpid, 0, 0, 0), SIGSTOP, 0);
}

static int wait_stop(pid_t pid)
{
	int st = 0;

	if (waitpid(pid, &st, __WALL) != pid)
		return -1;
	return st;
}

static int syscall_op(pid_t pid, struct syscall_info *info)
{
	memset(info, 0, sizeof(*info));
	if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(*info), info) <= 0)
		return -1;
	return info->op;
}

/* The child: getpid and a write to a pipe, both emulated by the tracer;
 * it reports what they returned on the result pipe. */
static void sysemu_child(int data_w, int res_w)
{
	long r[2];

	ptrace(PTRACE_TRACEME, 0, 0, 0);
	stop_self();
	r[0] = raw3(SYS_getpid, 0, 0, 0);
	r[1] = raw3(SYS_write, data_w, (long)"x", 1);
	write(res_w, r, sizeof(r));
	_exit(0);
}

static void test_sysemu(void)
{
	int data[2], res[2], st;
	struct user_regs_struct regs;
	struct syscall_info info;
	siginfo_t si;
	long r[2] = { 0, 0 };
	char c;
	pid_t pid;

	pipe(data);
	pipe(res);
	pid = fork();
	if (pid == 0)
		sysemu_child(data[1], res[1]);
	close(res[1]);
	st = wait_stop(pid);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, "the child stops itself");
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD);
	check(ptrace(PTRACE_SYSEMU, pid, 0, NSIG + 1) == -1 && errno == EIO,
	      "SYSEMU with a bad signal: EIO");
	check(ptrace(PTRACE_SYSEMU, pid, 0, 0) == 0, "PTRACE_SYSEMU");

	st = wait_stop(pid);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == (SIGTRAP | 0x80), "getpid: a SIGTRAP|0x80 stop");
	ptrace(PTRACE_GETREGS, pid, 0, &regs);
	check(regs.orig_rax == SYS_getpid, "orig_rax is getpid's number");
	check(regs.rax == (unsigned long)-ENOSYS, "rax is -ENOSYS");
	check(ptrace(PTRACE_GETSIGINFO, pid, 0, &si) == 0 && si.si_signo == SIGTRAP &&
		      si.si_code == (SIGTRAP | 0x80),
	      "GETSIGINFO: SIGTRAP, si_code SIGTRAP|0x80");
	check(syscall_op(pid, &info) == OP_ENTRY && info.entry.nr == SYS_getpid,
	      "GET_SYSCALL_INFO: op ENTRY, nr getpid");
	regs.rax = 12345;
	ptrace(PTRACE_SETREGS, pid, 0, &regs);
	ptrace(PTRACE_SYSEMU, pid, 0, 0);

	/* No exit stop: the next stop is the write's entry. */
	st = wait_stop(pid);
	ptrace(PTRACE_GETREGS, pid, 0, &regs);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == (SIGTRAP | 0x80) && regs.orig_rax == SYS_write,
	      "no exit stop: the next stop is write's entry");
	check(regs.rdi == (unsigned long)data[1] && regs.rdx == 1, "its arguments");
	/* Resumed with PTRACE_SYSCALL: the call is still not run, but an
	 * exit stop comes, with rax as left. */
	ptrace(PTRACE_SYSCALL, pid, 0, 0);
	st = wait_stop(pid);
	ptrace(PTRACE_GETREGS, pid, 0, &regs);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == (SIGTRAP | 0x80), "SYSCALL after it: an exit stop");
	check(syscall_op(pid, &info) == OP_EXIT && info.exit.rval == -ENOSYS && info.exit.is_error,
	      "GET_SYSCALL_INFO: op EXIT, -ENOSYS");
	check(regs.rax == (unsigned long)-ENOSYS, "rax still -ENOSYS");
	ptrace(PTRACE_CONT, pid, 0, 0);

	check(read(res[0], r, sizeof(r)) == sizeof(r), "the child reports");
	check(r[0] == 12345, "getpid returned the tracer's rax");
	check(r[1] == -ENOSYS, "write returned -ENOSYS");
	st = wait_stop(pid);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child exits 0");
	fcntl(data[0], F_SETFL, O_NONBLOCK);
	check(read(data[0], &c, 1) == -1 && errno == EAGAIN, "the write never ran");
	close(data[0]);
	close(data[1]);
	close(res[0]);
}

/* Without TRACESYSGOOD: a plain SIGTRAP stop, and GET_SYSCALL_INFO says
 * none (it goes by the si_code). */
static void test_sysemu_plain(void)
{
	struct syscall_info info;
	struct user_regs_struct regs;
	int st;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		stop_self();
		_exit(raw3(SYS_getppid, 0, 0, 0) == 42 ? 0 : 1);
	}
	wait_stop(pid);
	ptrace(PTRACE_SYSEMU, pid, 0, 0);
	st = wait_stop(pid);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP, "no TRACESYSGOOD: SIGTRAP");
	check(syscall_op(pid, &info) == OP_NONE, "GET_SYSCALL_INFO: op NONE");
	ptrace(PTRACE_GETREGS, pid, 0, &regs);
	check(regs.orig_rax == SYS_getppid && regs.rax == (unsigned long)-ENOSYS,
	      "orig_rax getppid, rax -ENOSYS");
	regs.rax = 42;
	ptrace(PTRACE_SETREGS, pid, 0, &regs);
	ptrace(PTRACE_CONT, pid, 0, 0);
	st = wait_stop(pid);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "getppid returned the tracer's 42");
}

/* SYSEMU_SINGLESTEP over: mov, syscall (getpid), nop, mov, ret. */
extern char ss[], ss_1[], ss_2[], ss_3[], ss_4[];
__asm__(".text\n"
	"ss:\n"
	"	mov $39, %eax\n"
	"ss_1:\n"
	"	syscall\n"
	"ss_2:\n"
	"	nop\n"
	"ss_3:\n"
	"	mov %rax, %rdx\n"
	"ss_4:\n"
	"	ret\n");

static long run_ss(void)
{
	long r;

	__asm__ volatile("call ss" : "=a"(r) : : "rcx", "rdx", "r11", "memory");
	return r;
}

static const char *where(unsigned long ip)
{
	if (ip == (uintptr_t)ss)
		return "ss";
	if (ip == (uintptr_t)ss_1)
		return "ss_1";
	if (ip == (uintptr_t)ss_2)
		return "ss_2";
	if (ip == (uintptr_t)ss_3)
		return "ss_3";
	if (ip == (uintptr_t)ss_4)
		return "ss_4";
	return "elsewhere";
}

static void test_sysemu_singlestep(void)
{
	struct user_regs_struct regs;
	siginfo_t si;
	long word;
	int st, i;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		stop_self();
		_exit(run_ss() == 777 ? 0 : 1);
	}
	wait_stop(pid);
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD);
	/* Run to ss with a breakpoint there. */
	word = ptrace(PTRACE_PEEKTEXT, pid, ss, 0);
	ptrace(PTRACE_POKETEXT, pid, ss, (word & ~0xffL) | 0xcc);
	ptrace(PTRACE_CONT, pid, 0, 0);
	wait_stop(pid);
	ptrace(PTRACE_POKETEXT, pid, ss, word);
	ptrace(PTRACE_GETREGS, pid, 0, &regs);
	regs.rip = (uintptr_t)ss;
	ptrace(PTRACE_SETREGS, pid, 0, &regs);

	for (i = 0; i < 4; i++) {
		check(ptrace(PTRACE_SYSEMU_SINGLESTEP, pid, 0, 0) == 0, "SYSEMU_SINGLESTEP");
		st = wait_stop(pid);
		ptrace(PTRACE_GETREGS, pid, 0, &regs);
		memset(&si, 0, sizeof(si));
		ptrace(PTRACE_GETSIGINFO, pid, 0, &si);
		printf("# step %d: stop sig %#x, at %s, si_code %#x\n", i,
		       WIFSTOPPED(st) ? WSTOPSIG(st) : -1, where(regs.rip), si.si_code);
		check(WIFSTOPPED(st), "a stop");
		if (WIFSTOPPED(st) && WSTOPSIG(st) == (SIGTRAP | 0x80)) {
			check(regs.orig_rax == SYS_getpid && regs.rax == (unsigned long)-ENOSYS,
			      "the syscall stop: orig_rax getpid, rax -ENOSYS");
			regs.rax = 777;
			ptrace(PTRACE_SETREGS, pid, 0, &regs);
		}
	}
	ptrace(PTRACE_CONT, pid, 0, 0);
	st = wait_stop(pid);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "getpid returned the tracer's 777");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_sysemu();
	test_sysemu_plain();
	test_sysemu_singlestep();
	return 0;
}
