/* Signal edge cases: a SIGSEGV handler that mends the fault with mprotect
 * and returns (the write then happens), rt_sigreturn on a garbage frame
 * (the process dies of SIGSEGV; nothing else happens), and signals racing
 * with exit (kill and tgkill while the target's threads exit: no hang,
 * the status is the exit's). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "tap.h"
static char *page;
static volatile sig_atomic_t faults;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	faults++;
	if ((char *)si->si_addr >= page && (char *)si->si_addr < page + 4096 &&
	    si->si_code == SEGV_ACCERR)
		mprotect(page, 4096, PROT_READ | PROT_WRITE);
}

static int died_of(pid_t c, int sig)
{
	int st;

	return waitpid(c, &st, 0) == c && WIFSIGNALED(st) && WTERMSIG(st) == sig;
}

/* rt_sigreturn with rsp at a frame filled with byte b */
static void garbage_sigreturn(unsigned char b)
{
	static unsigned char frame[4096] __attribute__((aligned(16)));

	memset(frame, b, sizeof(frame));
	__asm__ volatile("mov %0, %%rsp\n\t"
			 "mov $15, %%eax\n\t"
			 "syscall\n\t"
			 "ud2"
			 :
			 : "r"(frame + 64)
			 : "memory", "rax");
}

static void *spin_exit(void *arg)
{
	(void)arg;
	usleep(1000);
	syscall(SYS_exit, 0);
	return NULL;
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* A handler that spoils its frame's segments: the return faults. */
static volatile int seg_mode;

static void bad_segments(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	uint16_t *seg = (uint16_t *)&uc->uc_mcontext.gregs[REG_CSGSFS]; /* cs gs fs ss */

	(void)sig;
	(void)si;
	if (seg_mode == 0)
		seg[0] = 0xffff; /* cs */
	else if (seg_mode == 1)
		seg[3] = 0xffff; /* ss, with UC_STRICT_RESTORE_SS set */
	else
		seg[1] = seg[2] = 0xffff; /* fs, gs: not restored */
}

static int sigreturn_with_segments(int mode)
{
	struct sigaction sa;
	pid_t c;
	int st;

	c = fork();
	if (c == 0) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = bad_segments;
		sa.sa_flags = SA_SIGINFO;
		seg_mode = mode;
		sigaction(SIGUSR2, &sa, NULL);
		raise(SIGUSR2);
		_exit(7);
	}
	if (waitpid(c, &st, 0) != c)
		return -1;
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
}

int main(void)
{
	struct sigaction sa;
	pid_t c;
	int i, ok;

	setvbuf(stdout, NULL, _IONBF, 0);
	alarm(30);

	/* 1: mend the fault and return */
	page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	*(volatile char *)(page + 100) = 42;
	check(faults == 1 && page[100] == 42,
	      "a SIGSEGV handler mprotects the page and returns: the write happens once");
	signal(SIGSEGV, SIG_DFL);

	/* 2, 3: garbage frames */
	c = fork();
	if (c == 0) {
		garbage_sigreturn(0);
		_exit(0);
	}
	check(died_of(c, SIGSEGV), "rt_sigreturn on a zeroed frame: the process dies of SIGSEGV");
	c = fork();
	if (c == 0) {
		garbage_sigreturn(0xff);
		_exit(0);
	}
	check(died_of(c, SIGSEGV), "rt_sigreturn on a 0xff frame: the process dies of SIGSEGV");

	check(sigreturn_with_segments(0) == 128 + SIGSEGV, "rt_sigreturn with a bad cs: SIGSEGV");
	check(sigreturn_with_segments(1) == 128 + SIGSEGV, "rt_sigreturn with a bad ss: SIGSEGV");
	check(sigreturn_with_segments(2) == 7, "fs and gs in the frame are not restored");

	/* 4: signals racing with exit, 50 times */
	ok = 1;
	for (i = 0; i < 50 && ok; i++) {
		int st;

		c = fork();
		if (c == 0) {
			pthread_t th[3];
			int k;

			signal(SIGUSR1, on_usr1);
			for (k = 0; k < 3; k++)
				pthread_create(&th[k], NULL, spin_exit, NULL);
			_exit(3);
		}
		/* kill succeeds until the child is reaped (a zombie takes
		 * signals too) */
		for (;;) {
			pid_t r;

			if (kill(c, SIGUSR1) < 0) {
				ok = 0;
				break;
			}
			r = waitpid(c, &st, WNOHANG);
			if (r == c)
				break;
			if (r < 0) {
				ok = 0;
				break;
			}
		}
		if (ok && !(WIFEXITED(st) && WEXITSTATUS(st) == 3)) {
			/* SIGUSR1 before the handler was set is a death by it */
			ok = WIFSIGNALED(st) && WTERMSIG(st) == SIGUSR1;
		}
	}
	check(ok, "kill in a loop while the target's threads exit: it succeeds until the reap, "
		  "which gives the status");
	check(kill(c, 0) == -1 && errno == ESRCH, "the reaped pid is gone");
	return 0;
}
