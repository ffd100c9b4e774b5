/* ptrace(2) odds and ends: GETSIGMASK/SETSIGMASK (the size argument,
 * SIGKILL and SIGSTOP never blocked), ARCH_PRCTL (the FS base, as the
 * registers say), CLONE_PTRACE (the child is traced without any option,
 * starting with a SIGSTOP stop, and the parent has no event stop). skas
 * had no ptrace. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>

#include "tap.h"

#ifndef PTRACE_GETSIGMASK
#define PTRACE_GETSIGMASK 0x420a
#define PTRACE_SETSIGMASK 0x420b
#endif
#ifndef PTRACE_ARCH_PRCTL
#define PTRACE_ARCH_PRCTL 30
#endif
/* asm/prctl.h's, which musl's build lacks */
#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003

#define BIT(sig) (1ULL << ((sig)-1))

static void test_sigmask_fs(void)
{
	struct user_regs_struct r;
	uint64_t mask = 0, fs = 0;
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		sigset_t s;

		sigemptyset(&s);
		sigaddset(&s, SIGUSR1);
		sigprocmask(SIG_BLOCK, &s, NULL);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		/* not raise: musl's puts the old mask back after the stop */
		syscall(SYS_kill, getpid(), SIGSTOP);
		sigprocmask(SIG_BLOCK, NULL, &s);
		_exit(sigismember(&s, SIGUSR2) && !sigismember(&s, SIGUSR1) ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	check(ptrace(PTRACE_GETSIGMASK, pid, 4, &mask) == -1 && errno == EINVAL,
	      "GETSIGMASK with a bad size is EINVAL");
	check(ptrace(PTRACE_GETSIGMASK, pid, 8, &mask) == 0 && (mask & BIT(SIGUSR1)),
	      "GETSIGMASK: the tracee's mask");
	mask = BIT(SIGUSR2) | BIT(SIGKILL) | BIT(SIGSTOP);
	check(ptrace(PTRACE_SETSIGMASK, pid, 8, &mask) == 0, "SETSIGMASK");
	check(ptrace(PTRACE_GETSIGMASK, pid, 8, &mask) == 0 &&
		      (mask & (BIT(SIGKILL) | BIT(SIGSTOP))) == 0 && (mask & BIT(SIGUSR2)),
	      "never SIGKILL or SIGSTOP");
	ptrace(PTRACE_GETREGS, pid, 0, &r);
	check(ptrace(PTRACE_ARCH_PRCTL, pid, &fs, ARCH_GET_FS) == 0 && fs == r.fs_base && fs != 0,
	      "ARCH_PRCTL ARCH_GET_FS: the FS base");
	check(ptrace(PTRACE_ARCH_PRCTL, pid, &fs, 12345) == -1 && errno == EINVAL,
	      "ARCH_PRCTL with a bad code is EINVAL");
	check(ptrace(PTRACE_ARCH_PRCTL, pid, fs, ARCH_SET_FS) == 0, "ARCH_SET_FS (the same base)");
	ptrace(PTRACE_CONT, pid, 0, 0);
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the tracee runs with the mask set");
}

static void test_clone_ptrace(void)
{
	int st, got_stop = 0, got_exit = 0, other = 0;
	pid_t pid = fork(), w, c = 0;

	if (pid == 0) {
		pid_t k;

		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		k = syscall(SYS_clone, CLONE_PTRACE | SIGCHLD, 0, 0, 0, 0);
		if (k == 0)
			_exit(4);
		if (waitpid(k, &st, 0) != k)
			_exit(1);
		_exit(WIFEXITED(st) && WEXITSTATUS(st) == 4 ? 0 : 2);
	}
	waitpid(pid, &st, 0);
	ptrace(PTRACE_CONT, pid, 0, 0);
	for (;;) {
		w = waitpid(-1, &st, __WALL);
		if (w < 0 || (w == pid && !WIFSTOPPED(st)))
			break;
		if (w == pid) {
			/* its SIGCHLD only: no event stop without options */
			if (!(WSTOPSIG(st) == SIGCHLD && st >> 16 == 0))
				other = 1;
			ptrace(PTRACE_CONT, pid, 0, WSTOPSIG(st));
			continue;
		}
		c = w;
		if (WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP && !got_stop) {
			got_stop = 1;
			ptrace(PTRACE_CONT, w, 0, 0);
		} else if (WIFEXITED(st)) {
			got_exit = WEXITSTATUS(st) == 4;
		} else if (WIFSTOPPED(st)) {
			other = 1;
			ptrace(PTRACE_CONT, w, 0, 0);
		}
	}
	check(got_stop && c > 0, "CLONE_PTRACE: the child is traced, SIGSTOP first");
	check(got_exit, "its exit is reported to the tracer");
	check(!other, "no event stop in the parent");
	check(w == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0, "the parent saw its child's exit");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_sigmask_fs();
	test_clone_ptrace();
	return 0;
}
