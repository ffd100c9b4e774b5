/* prctl(PR_SET_SYSCALL_USER_DISPATCH) (Linux 5.11): a system call made
 * from outside the allowed range while the selector byte says BLOCK does
 * not run: SIGSYS (si_code SYS_USER_DISPATCH, si_call_addr after the
 * syscall instruction, si_syscall, si_arch) with rax back to the call's
 * number; ALLOW lets it run; from inside the range it always runs; a
 * selector of another value kills with SIGSYS, an unreadable one with
 * SIGSEGV; the prctl's own argument checks; a fork child does not have
 * it. (Wine uses it for programs that make system calls themselves.) A
 * host before 5.11 says EINVAL to all: the lines then say so. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tap.h"

#define PR_SET_SUD	       59
#define SUD_OFF		       0
#define SUD_ON		       1
#define SYS_USER_DISPATCH_CODE 2

static volatile char selector;
static volatile int got_sig, got_code, got_nr, got_arch;
static volatile uint64_t got_addr, got_rax, got_rdi;
static volatile int in_sigsys;

static void on_sigsys(int sig, siginfo_t *si, void *ucp)
{
	ucontext_t *uc = ucp;

	got_sig = sig;
	got_code = si->si_code;
	got_nr = si->si_syscall;
	got_arch = (int)si->si_arch;
	got_addr = (uint64_t)si->si_call_addr;
	got_rax = uc->uc_mcontext.gregs[REG_RAX];
	got_rdi = uc->uc_mcontext.gregs[REG_RDI];
	uc->uc_mcontext.gregs[REG_RAX] = 4242; /* the emulated result */
	selector = 0;			       /* ALLOW: rt_sigreturn must run */
	in_sigsys++;
}

/* a raw getppid whose syscall instruction's end is at sud_after */
extern char sud_after[];
static long raw_getppid(void)
{
	long r;

	__asm__ volatile("mov $110, %%eax\n\tsyscall\n\t.globl sud_after\nsud_after:"
			 : "=a"(r)
			 :
			 : "rcx", "r11", "memory");
	return r;
}

static long sud(unsigned long mode, unsigned long off, unsigned long len, void *sel)
{
	return syscall(SYS_prctl, PR_SET_SUD, mode, off, len, sel);
}

int main(void)
{
	struct sigaction sa;
	long r;
	int st, old;
	pid_t c;

	setvbuf(stdout, NULL, _IONBF, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSYS, &sa, NULL);

	r = sud(SUD_OFF, 1, 0, NULL);
	old = r == -1 && errno == EINVAL && sud(SUD_OFF, 0, 0, NULL) == -1;
	check(r == -1 && errno == EINVAL, "OFF with an offset: EINVAL");
	check(old || (sud(SUD_OFF, 0, 0, (void *)&selector) == -1 && errno == EINVAL),
	      "OFF with a selector: EINVAL");
	check(old || (sud(SUD_ON, 0x1000, (unsigned long)-0x1000, NULL) == -1 && errno == EINVAL),
	      "ON with a range that wraps: EINVAL");
	check(old || (sud(5, 0, 0, NULL) == -1 && errno == EINVAL), "another mode: EINVAL");
	check(old || (sud(SUD_ON, 0, 0, (void *)0xffffffffffff0000UL) == -1 && errno == EFAULT),
	      "a selector past user space: EFAULT");
	if (old) {
		printf("# no syscall user dispatch on this host\n");
		return 0;
	}

	/* The range is this program's text below main: libc's calls are
	 * outside it, and so is raw_getppid's (placed after it). */
	selector = 0;
	check(sud(SUD_ON, 0, 1, (void *)&selector) == 0, "ON, the range one byte at 0");
	check(getpid() > 0, "ALLOW: a call runs");
	selector = 1;
	r = raw_getppid();
	check(in_sigsys == 1 && got_sig == SIGSYS && got_code == SYS_USER_DISPATCH_CODE,
	      "BLOCK: SIGSYS, si_code SYS_USER_DISPATCH");
	check(got_nr == 110 && got_arch == 0xc000003e && got_addr == (uint64_t)sud_after,
	      "si_syscall, si_arch, si_call_addr (after the syscall instruction)");
	check(got_rax == 110, "the handler sees rax back at the call's number");
	check(r == 4242, "the call did not run: rax is what the handler left");
	selector = 0;
	c = fork();
	if (c == 0) {
		selector = 1;
		raw_getppid();
		_exit(in_sigsys);
	}
	check(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 1,
	      "a fork child does not have it");
	check(sud(SUD_ON, (unsigned long)raw_getppid, 4096, (void *)&selector) == 0,
	      "ON, the range over raw_getppid");
	selector = 1;
	r = raw_getppid();
	selector = 0;
	check(in_sigsys == 1 && r == getppid(), "BLOCK, from inside the range: it runs");
	check(sud(SUD_OFF, 0, 0, NULL) == 0, "OFF");
	selector = 1;
	check(raw_getppid() == getppid() && in_sigsys == 1, "OFF: nothing is dispatched");

	c = fork();
	if (c == 0) {
		sud(SUD_ON, 0, 1, (void *)&selector);
		selector = 7;
		raw_getppid();
		_exit(0);
	}
	check(waitpid(c, &st, 0) == c && WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS,
	      "a selector neither ALLOW nor BLOCK: killed by SIGSYS");
	c = fork();
	if (c == 0) {
		char *gone = (char *)sbrk(0) + (1 << 20);

		sud(SUD_ON, 0, 1, gone);
		raw_getppid();
		_exit(0);
	}
	check(waitpid(c, &st, 0) == c && WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	      "an unreadable selector: killed by SIGSEGV");
	c = fork();
	if (c == 0) {
		sigset_t m;

		sigemptyset(&m);
		sigaddset(&m, SIGSYS);
		sigprocmask(SIG_BLOCK, &m, NULL);
		sud(SUD_ON, 0, 1, NULL);
		raw_getppid();
		_exit(0);
	}
	check(waitpid(c, &st, 0) == c && WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS,
	      "no selector (always BLOCK), SIGSYS blocked: killed by SIGSYS");
	return 0;
}
