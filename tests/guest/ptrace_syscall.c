/* ptrace(2) syscall stops and registers: PTRACE_SYSCALL stops at entry
 * (orig_rax the number, rax -ENOSYS) and exit (rax the result), with
 * TRACESYSGOOD's SIGTRAP|0x80; the tracer changes a call's number and
 * arguments at entry, skips one (orig_rax -1) and changes a result at exit;
 * GETREGS/SETREGS, PEEKUSER/POKEUSER, GETREGSET NT_PRSTATUS,
 * PTRACE_GET_SYSCALL_INFO, PEEKDATA/POKEDATA and process_vm_readv of the
 * stopped tracee. skas answered ENOSYS to every request. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>

#include "syscall_info.h"
#include "tap.h"

static volatile long magic = 0x1234;

/* The tracee: each result says whether the tracer's change took. */
static void child(void)
{
	int bits = 0;

	ptrace(PTRACE_TRACEME, 0, 0, 0);
	raise(SIGSTOP);
	if (syscall(SYS_getpid) > 0)
		bits |= 1;
	if (syscall(SYS_getuid) == 4242) /* skipped, result set */
		bits |= 2;
	if (syscall(SYS_getppid) == syscall(SYS_gettid)) /* became getpid */
		bits |= 4;
	if (syscall(SYS_dup, 100) >= 0) /* its argument became 0 */
		bits |= 8;
	if (magic == 0x5678) /* POKEDATA */
		bits |= 16;
	syscall(SYS_close, -1);
	_exit(bits);
}

static int entry_checks(pid_t pid, struct user_regs_struct *r)
{
	struct syscall_info si;
	struct user_regs_struct r2;
	struct iovec iov = { &r2, sizeof(r2) };
	long v, got;
	struct iovec local = { &got, sizeof(got) }, remote = { (void *)&magic, sizeof(magic) };

	check((long)r->rax == -ENOSYS, "entry: rax is -ENOSYS");
	errno = 0;
	v = ptrace(PTRACE_PEEKUSER, pid, offsetof(struct user, regs.orig_rax), 0);
	check(v == SYS_getpid && errno == 0, "PEEKUSER orig_rax");
	check(ptrace(PTRACE_PEEKUSER, pid, 3, 0) == -1 && errno == EIO,
	      "PEEKUSER at a misaligned offset is EIO");
	/* the kernel's struct user (928 bytes: error_code and fault_address
	 * after the debug registers), longer than glibc's */
	check(ptrace(PTRACE_PEEKUSER, pid, 920, 0) == 0, "PEEKUSER of fault_address");
	check(ptrace(PTRACE_PEEKUSER, pid, 928, 0) == -1 && errno == EIO,
	      "PEEKUSER past struct user is EIO");
	memset(&si, 0xff, sizeof(si));
	check(ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(si), &si) ==
			      (long)offsetof(struct syscall_info, entry.args[6]) &&
		      si.op == 1 && si.arch == 0xc000003e && si.entry.nr == SYS_getpid &&
		      si.ip == r->rip && si.sp == r->rsp,
	      "GET_SYSCALL_INFO at entry");
	check(ptrace(PTRACE_GETREGSET, pid, NT_PRSTATUS, &iov) == 0 && iov.iov_len == sizeof(r2) &&
		      r2.orig_rax == SYS_getpid && r2.rip == r->rip,
	      "GETREGSET NT_PRSTATUS");
	errno = 0;
	v = ptrace(PTRACE_PEEKDATA, pid, &magic, 0);
	check(v == 0x1234 && errno == 0, "PEEKDATA");
	check(ptrace(PTRACE_POKEDATA, pid, &magic, 0x5678) == 0, "POKEDATA");
	check(ptrace(PTRACE_PEEKDATA, pid, 8, 0) == -1 && errno == EIO,
	      "PEEKDATA of an unmapped address is EIO");
	check(process_vm_readv(pid, &local, 1, &remote, 1, 0) == sizeof(got) && got == 0x5678,
	      "process_vm_readv of the tracee sees the POKEDATA");
	return 0;
}

static void test_syscall_stops(void)
{
	struct user_regs_struct r;
	struct syscall_info si;
	int st, in = 0, seen = 0;
	long last = -1;
	pid_t pid = fork();

	if (pid == 0)
		child();
	waitpid(pid, &st, 0);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, "the tracee stopped itself");
	check(ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL) == 0,
	      "SETOPTIONS TRACESYSGOOD");
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, 0, 0) < 0 || waitpid(pid, &st, 0) != pid)
			break;
		if (!WIFSTOPPED(st))
			break;
		if (WSTOPSIG(st) != (SIGTRAP | 0x80))
			continue;
		in = !in;
		ptrace(PTRACE_GETREGS, pid, 0, &r);
		if (in)
			last = (long)r.orig_rax;
		if (last == SYS_getpid && in) {
			seen |= 1;
			entry_checks(pid, &r);
		} else if (last == SYS_getpid) {
			check((pid_t)r.rax == pid, "exit: rax is the result");
			memset(&si, 0, sizeof(si));
			check(ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(si), &si) ==
					      (long)offsetof(struct syscall_info, exit.is_error) +
						      1 &&
				      si.op == 2 && si.exit.rval == pid && !si.exit.is_error,
			      "GET_SYSCALL_INFO at exit");
		} else if (last == SYS_getuid && in) {
			seen |= 2;
			r.orig_rax = -1;
			check(ptrace(PTRACE_SETREGS, pid, 0, &r) == 0, "SETREGS orig_rax -1");
		} else if (last == SYS_getuid) {
			check((long)r.rax == -ENOSYS && (long)r.orig_rax == -1,
			      "a skipped call's exit stop: rax -ENOSYS");
			check(ptrace(PTRACE_POKEUSER, pid, offsetof(struct user, regs.rax), 4242) ==
				      0,
			      "POKEUSER rax at exit");
		} else if (last == SYS_getppid && in) {
			seen |= 4;
			r.orig_rax = SYS_getpid;
			ptrace(PTRACE_SETREGS, pid, 0, &r);
		} else if (last == SYS_dup && in) {
			seen |= 8;
			r.rdi = 0;
			ptrace(PTRACE_SETREGS, pid, 0, &r);
		} else if (last == SYS_close && !in && (int)r.rdi == -1) {
			seen |= 16;
			memset(&si, 0, sizeof(si));
			ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(si), &si);
			check(si.op == 2 && si.exit.rval == -EBADF && si.exit.is_error,
			      "GET_SYSCALL_INFO of a failed call: is_error");
			r.cs = 0x1234;
			check(ptrace(PTRACE_SETREGS, pid, 0, &r) == -1 && errno == EIO,
			      "SETREGS with a bad cs is EIO");
		}
	}
	check(seen == 31, "every marker call was seen at its stops");
	check(WIFEXITED(st) && WEXITSTATUS(st) == 31,
	      "the tracee saw each change (result, skip, number, argument, memory)");
}

/* PTRACE_CONT at the entry stop: no exit stop for that call. */
static void test_cont_no_exit_stop(void)
{
	int st, stops = 0;
	pid_t pid = fork();

	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		syscall(SYS_getpid);
		raise(SIGUSR1);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD);
	/* to the first syscall entry (the rest of raise's, or getpid) */
	ptrace(PTRACE_SYSCALL, pid, 0, 0);
	waitpid(pid, &st, 0);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == (SIGTRAP | 0x80), "a syscall stop");
	ptrace(PTRACE_CONT, pid, 0, 0);
	while (waitpid(pid, &st, 0) == pid && WIFSTOPPED(st)) {
		if (WSTOPSIG(st) == (SIGTRAP | 0x80))
			stops++;
		ptrace(PTRACE_CONT, pid, 0, WSTOPSIG(st) == SIGUSR1 ? 0 : WSTOPSIG(st));
	}
	check(stops == 0 && WIFEXITED(st), "after CONT, no syscall stop and only SIGUSR1's stop");
}

/* Without TRACESYSGOOD the stops are plain SIGTRAP. */
static void test_plain_sigtrap(void)
{
	int st;
	siginfo_t si;
	pid_t pid = fork();

	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		syscall(SYS_getpid);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	ptrace(PTRACE_SYSCALL, pid, 0, 0);
	waitpid(pid, &st, 0);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP, "without TRACESYSGOOD: SIGTRAP");
	check(ptrace(PTRACE_GETSIGINFO, pid, 0, &si) == 0 && si.si_signo == SIGTRAP &&
		      si.si_code == SIGTRAP,
	      "its siginfo: SIGTRAP, si_code SIGTRAP");
	ptrace(PTRACE_DETACH, pid, 0, 0);
	waitpid(pid, &st, 0);
	check(WIFEXITED(st), "DETACH at a syscall stop: the tracee runs on");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_syscall_stops();
	test_cont_no_exit_stop();
	test_plain_sigtrap();
	return 0;
}
