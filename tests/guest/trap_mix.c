/* One thread alone makes system calls of every kind back to back: calls
 * the kernel takes as notifications, calls that stop in ptrace (kill to
 * itself, the handler's rt_sigreturn, sigaltstack), faults, and a child's
 * exit meanwhile. Under skas's seccomp platform the kernel waits for a
 * lone thread's next call in NOTIF_RECV, and every other kind of trap
 * must end that wait (a SIGCHLD): a miss hangs here. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define ROUNDS 3000

static volatile sig_atomic_t usr1s, segvs;
static sigjmp_buf env;

static void on_usr1(int sig)
{
	(void)sig;
	usr1s++;
}

static void on_segv(int sig)
{
	(void)sig;
	segvs++;
	siglongjmp(env, 1);
}

int main(void)
{
	struct sigaction sa = { 0 };
	long calls = 0;
	int i, status, n = 0;
	pid_t pid = -1;
	stack_t ss;

	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_segv;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	for (i = 0; i < ROUNDS; i++) {
		calls += syscall(SYS_getppid) >= 0;
		kill(getpid(), SIGUSR1);
		if (sigaltstack(NULL, &ss) == 0)
			calls++;
		if (i % 10 == 0 && sigsetjmp(env, 0) == 0)
			*(volatile int *)8 = 1;
		if (i % 500 == 0) {
			pid = fork();
			if (pid == 0)
				_exit(i / 500);
		}
		if (i % 500 == 250 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		    WEXITSTATUS(status) == i / 500)
			calls++;
	}
	printf("%s %d - %d notified and traced calls\n", calls == 2 * ROUNDS + 6 ? "ok" : "not ok",
	       ++n, ROUNDS);
	printf("%s %d - %d handlers run\n", usr1s == ROUNDS ? "ok" : "not ok", ++n, ROUNDS);
	printf("%s %d - %d faults handled\n", segvs == ROUNDS / 10 ? "ok" : "not ok", ++n,
	       ROUNDS / 10);
	printf("1..%d\n", n);
	return 0;
}
