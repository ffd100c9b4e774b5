/* Signals: handlers and siginfo, masks and pending sets, SA_RESETHAND,
 * SA_NODEFER, SA_RESTART, SA_ONSTACK, faults turned into signals (SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL, SIGTRAP) with their si_code/si_addr and the
 * ucontext, register and FPU state across a handler, sigtimedwait,
 * sigsuspend, SIGCHLD, SIGPIPE and interrupted system calls.
 *
 * Under skas this program is pid 1 of its pid namespace, which ignores
 * signals it has no handler for: every death by signal happens in a forked
 * child whose wait status the parent checks. Children never print. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "tap.h"
#include "wait_util.h"

/* check with a detail (two longs) printed only on failure */
static void checkf(int cond, const char *what, const char *fmt, long a, long b)
{
	if (cond) {
		printf("ok %d - %s\n", ++n, what);
	} else {
		printf("not ok %d - %s: ", ++n, what);
		printf(fmt, a, b);
		printf("\n");
	}
}

/* Wait (at most 10 s) until pid sleeps: its /proc/PID/stat state is S. A
 * child that signals its parent in a blocking call waits for this instead
 * of a fixed time, which a loaded machine can overrun before the parent
 * gets there (the signal then comes first and the call blocks for good).
 * Each caller's parent makes no other blocking call on its way. */
static void await_sleep(pid_t pid)
{
	int i;

	for (i = 0; i < 10000 && !proc_sleeps(pid); i++)
		sleep_ms(1);
}

static void no_core(void)
{
	struct rlimit rl = { 0, 0 };

	setrlimit(RLIMIT_CORE, &rl);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

/* Wait for pid for at most 5 s (then SIGKILL it): a broken child must not
 * hang the whole test. Returns the status, or -1. */
static int reap(pid_t pid)
{
	int status, i;
	pid_t r;

	for (i = 0; i < 5000; i++) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -1;
		sleep_ms(1);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

static pid_t xfork(void)
{
	fflush(stdout);
	return fork();
}

static int set_handler(int sig, void (*h)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = h;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, NULL);
}

static int set_action(int sig, void (*h)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = h;
	sa.sa_flags = flags | SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, NULL);
}

static void mask_op(int how, int sig)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(how, &s, NULL);
}

static int is_blocked(int sig)
{
	sigset_t cur;

	sigprocmask(SIG_SETMASK, NULL, &cur);
	return sigismember(&cur, sig);
}

static int is_pending(int sig)
{
	sigset_t p;

	sigemptyset(&p);
	sigpending(&p);
	return sigismember(&p, sig);
}

/* ---- plain handlers, siginfo ---- */

static volatile sig_atomic_t cnt_usr1, cnt_usr2, last_sig;

static void h_count(int sig)
{
	if (sig == SIGUSR1)
		cnt_usr1++;
	else if (sig == SIGUSR2)
		cnt_usr2++;
	last_sig = sig;
}

static volatile int info_signo, info_code, info_pid, info_uid, info_value, info_calls;

static void h_info(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	info_calls++;
	info_signo = si->si_signo;
	info_code = si->si_code;
	info_pid = si->si_pid;
	info_uid = si->si_uid;
	info_value = si->si_value.sival_int;
	last_sig = sig;
}

static void test_basic_handlers(void)
{
	struct sigaction old;

	check(set_handler(SIGUSR1, h_count, 0) == 0, "sigaction(SIGUSR1, handler)");
	check(set_handler(SIGUSR2, h_count, 0) == 0, "sigaction(SIGUSR2, handler)");
	cnt_usr1 = cnt_usr2 = 0;
	check(raise(SIGUSR1) == 0, "raise(SIGUSR1) returns 0");
	check(cnt_usr1 == 1 && cnt_usr2 == 0, "the SIGUSR1 handler ran once");
	check(kill(getpid(), SIGUSR2) == 0, "kill(getpid(), SIGUSR2) returns 0");
	check(cnt_usr1 == 1 && cnt_usr2 == 1, "the SIGUSR2 handler ran once");
	check(syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), SIGUSR1) == 0 && cnt_usr1 == 2,
	      "tgkill(self, SIGUSR1) runs the handler");
	check(kill(getpid(), 0) == 0 && cnt_usr1 == 2 && cnt_usr2 == 1,
	      "kill(getpid(), 0) succeeds and delivers nothing");

	memset(&old, 0, sizeof old);
	check(sigaction(SIGUSR1, NULL, &old) == 0 && old.sa_handler == h_count,
	      "sigaction reads back the installed handler");

	errno = 0;
	check(set_handler(SIGKILL, h_count, 0) == -1 && errno == EINVAL,
	      "sigaction(SIGKILL): EINVAL");
	errno = 0;
	check(set_handler(SIGSTOP, h_count, 0) == -1 && errno == EINVAL,
	      "sigaction(SIGSTOP): EINVAL");
	errno = 0;
	check(sigaction(0, NULL, &old) == -1 && errno == EINVAL, "sigaction(0): EINVAL");
	errno = 0;
	check(syscall(SYS_rt_sigaction, 65, NULL, &old, 8) == -1 && errno == EINVAL,
	      "rt_sigaction(65): EINVAL");
	errno = 0;
	check(kill(getpid(), 65) == -1 && errno == EINVAL, "kill with signal 65: EINVAL");

	/* siginfo */
	set_action(SIGUSR1, h_info, 0);
	info_calls = info_signo = info_code = info_pid = info_uid = info_value = 0;
	kill(getpid(), SIGUSR1);
	check(info_calls == 1, "SA_SIGINFO handler runs on kill");
	check(info_signo == SIGUSR1, "kill: si_signo SIGUSR1");
	checkf(info_code == SI_USER, "kill: si_code SI_USER", "si_code=%ld%.0ld", info_code, 0);
	check(info_pid == getpid(), "kill: si_pid is getpid()");
	check(info_uid == (int)getuid(), "kill: si_uid is getuid()");

	info_calls = info_signo = info_code = info_pid = info_uid = info_value = 0;
	raise(SIGUSR1);
	check(info_calls == 1, "SA_SIGINFO handler runs on raise");
	checkf(info_code == SI_TKILL, "raise: si_code SI_TKILL", "si_code=%ld%.0ld", info_code, 0);
	check(info_pid == getpid(), "raise: si_pid is getpid()");

	info_calls = info_signo = info_code = info_pid = info_uid = info_value = 0;
	{
		union sigval v;
		v.sival_int = 4242;
		check(sigqueue(getpid(), SIGUSR1, v) == 0, "sigqueue returns 0");
	}
	check(info_calls == 1, "SA_SIGINFO handler runs on sigqueue");
	checkf(info_code == SI_QUEUE, "sigqueue: si_code SI_QUEUE", "si_code=%ld%.0ld", info_code,
	       0);
	check(info_value == 4242, "sigqueue: si_value is passed");
	check(info_pid == getpid(), "sigqueue: si_pid is getpid()");
	set_handler(SIGUSR1, h_count, 0);
}

/* ---- masks ---- */

static volatile int in_mask_self, in_mask_other, in_mask_third;

static void h_mask(int sig)
{
	(void)sig;
	in_mask_self = is_blocked(SIGUSR1);
	in_mask_other = is_blocked(SIGUSR2);
	in_mask_third = is_blocked(SIGTERM);
	cnt_usr1++;
}

static void test_masks(void)
{
	sigset_t s, cur, all;
	struct sigaction sa;

	set_handler(SIGUSR1, h_count, 0);
	cnt_usr1 = 0;
	mask_op(SIG_BLOCK, SIGUSR1);
	check(is_blocked(SIGUSR1), "SIG_BLOCK: SIGUSR1 is in the mask");
	raise(SIGUSR1);
	check(cnt_usr1 == 0, "a blocked signal's handler does not run");
	check(is_pending(SIGUSR1), "sigpending shows it");
	raise(SIGUSR1);
	raise(SIGUSR1);
	check(cnt_usr1 == 0, "raising it twice more: still not run");
	mask_op(SIG_UNBLOCK, SIGUSR1);
	check(cnt_usr1 == 1, "unblocking runs the handler exactly once");
	check(!is_pending(SIGUSR1), "nothing pending afterwards");
	check(!is_blocked(SIGUSR1), "SIG_UNBLOCK: SIGUSR1 is out of the mask");

	/* Linux keeps a thread's pending set (raise/tgkill) apart from the
	 * process's (kill): a standard signal can be pending in both. */
	cnt_usr1 = 0;
	mask_op(SIG_BLOCK, SIGUSR1);
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR1);
	check(is_pending(SIGUSR1) && cnt_usr1 == 0, "kill twice while blocked: pending");
	raise(SIGUSR1);
	raise(SIGUSR1);
	mask_op(SIG_UNBLOCK, SIGUSR1);
	check(cnt_usr1 == 2,
	      "pending both process-wide (kill) and per thread (raise): delivered twice");
	check(!is_pending(SIGUSR1), "nothing pending afterwards");

	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &s);
	sigprocmask(SIG_SETMASK, NULL, &cur);
	check(!sigismember(&cur, SIGKILL) && !sigismember(&cur, SIGSTOP),
	      "SIGKILL and SIGSTOP cannot be blocked");
	check(sigismember(&cur, SIGUSR1) && sigismember(&cur, SIGRTMAX - 1),
	      "a full mask blocks the others, real-time ones included");
	sigprocmask(SIG_SETMASK, &s, NULL);
	sigprocmask(SIG_SETMASK, NULL, &cur);
	check(!sigismember(&cur, SIGUSR1) && !sigismember(&cur, SIGTERM),
	      "SIG_SETMASK restores the old mask");
	errno = 0;
	check(sigprocmask(12345, &s, NULL) == -1 && errno == EINVAL,
	      "sigprocmask with a bad how: EINVAL");

	/* the mask inside a handler: its own signal plus sa_mask */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = h_mask;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	sigaction(SIGUSR1, &sa, NULL);
	cnt_usr1 = 0;
	raise(SIGUSR1);
	check(cnt_usr1 == 1, "handler with sa_mask ran");
	check(in_mask_self, "inside the handler its own signal is blocked");
	check(in_mask_other, "inside the handler sa_mask's signal is blocked");
	check(!in_mask_third, "inside the handler other signals are not blocked");
	check(!is_blocked(SIGUSR1) && !is_blocked(SIGUSR2),
	      "after the handler the mask is restored");
	set_handler(SIGUSR1, h_count, 0);
}

/* Several pending signals released at once. */
static volatile int order[8], norder;

static void h_order(int sig)
{
	if (norder < 8)
		order[norder++] = sig;
}

static void test_order(void)
{
	struct sigaction sa;
	sigset_t s;
	char buf[120];

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = h_order;
	sigfillset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigaddset(&s, SIGUSR2);
	sigaddset(&s, SIGTERM);
	sigprocmask(SIG_BLOCK, &s, NULL);
	norder = 0;
	raise(SIGTERM);
	raise(SIGUSR2);
	raise(SIGUSR1);
	check(norder == 0, "three blocked signals: no handler ran");
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	check(norder == 3, "unblocking them runs three handlers");
	snprintf(buf, sizeof buf,
		 "handlers that block everything run lowest signal first: %d,%d,%d", order[0],
		 order[1], order[2]);
	check(order[0] == SIGUSR1 && order[1] == SIGUSR2 && order[2] == SIGTERM, buf);
	set_handler(SIGUSR1, h_count, 0);
	set_handler(SIGUSR2, h_count, 0);
	set_handler(SIGTERM, SIG_DFL, 0);
}

/* ---- SA_RESETHAND, SA_NODEFER ---- */

static void test_resethand(void)
{
	struct sigaction old;
	int status;
	pid_t pid;

	pid = xfork();
	if (pid == 0) {
		no_core();
		cnt_usr1 = 0;
		set_handler(SIGUSR1, h_count, SA_RESETHAND);
		raise(SIGUSR1);
		if (cnt_usr1 != 1)
			_exit(10);
		sigaction(SIGUSR1, NULL, &old);
		if (old.sa_handler != SIG_DFL)
			_exit(11);
		raise(SIGUSR1);
		_exit(12);
	}
	status = reap(pid);
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGUSR1,
	      "SA_RESETHAND: the handler runs once, then the default action kills");
	if (!WIFSIGNALED(status))
		printf("# child exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static volatile int depth, maxdepth, nested_calls;

static void h_nested(int sig)
{
	depth++;
	if (depth > maxdepth)
		maxdepth = depth;
	nested_calls++;
	if (nested_calls == 1)
		raise(sig);
	depth--;
}

static void test_nodefer(void)
{
	depth = maxdepth = nested_calls = 0;
	set_handler(SIGUSR1, h_nested, 0);
	raise(SIGUSR1);
	check(nested_calls == 2, "handler re-raising its signal: runs twice");
	check(maxdepth == 1, "without SA_NODEFER the second run waits (depth 1)");

	depth = maxdepth = nested_calls = 0;
	set_handler(SIGUSR1, h_nested, SA_NODEFER);
	raise(SIGUSR1);
	check(nested_calls == 2, "with SA_NODEFER: runs twice");
	check(maxdepth == 2, "with SA_NODEFER the second run nests (depth 2)");
	set_handler(SIGUSR1, h_count, 0);
}

/* ---- faults ---- */

static sigjmp_buf jb;
static volatile int f_sig, f_code, f_calls;
static void *volatile f_addr;

static void h_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	f_calls++;
	f_sig = sig;
	f_code = si->si_code;
	f_addr = si->si_addr;
	siglongjmp(jb, 1);
}

static void test_segv(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p;
	volatile char *vp;
	volatile int x;
	int i, ok = 1;
	char buf[100];

	set_action(SIGSEGV, h_fault, 0);

	p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(p, pg);
	vp = p + 100;
	f_calls = 0;
	if (sigsetjmp(jb, 1) == 0) {
		x = *vp;
		(void)x;
		check(0, "reading an unmapped page faults");
	}
	check(f_calls == 1 && f_sig == SIGSEGV, "reading an unmapped page: SIGSEGV caught");
	checkf(f_code == SEGV_MAPERR, "unmapped page: si_code SEGV_MAPERR", "si_code=%ld%.0ld",
	       f_code, 0);
	check(f_addr == p + 100, "unmapped page: si_addr is the faulting address");
	check(!is_blocked(SIGSEGV), "siglongjmp out of the handler restored the mask");

	p = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	vp = p + 123;
	f_calls = 0;
	if (sigsetjmp(jb, 1) == 0) {
		*vp = 1;
		check(0, "writing a PROT_READ page faults");
	}
	check(f_calls == 1 && f_sig == SIGSEGV, "writing a PROT_READ page: SIGSEGV caught");
	checkf(f_code == SEGV_ACCERR, "PROT_READ page: si_code SEGV_ACCERR", "si_code=%ld%.0ld",
	       f_code, 0);
	check(f_addr == p + 123, "PROT_READ page: si_addr is the faulting address");
	check(*vp == 0, "the page still reads 0");
	munmap(p, pg);

	/* faulting again and again works (the mask was restored each time) */
	for (i = 0; i < 5; i++) {
		f_calls = 0;
		vp = (volatile char *)(uintptr_t)(16 + i);
		if (sigsetjmp(jb, 1) == 0) {
			x = *vp;
			ok = 0;
		}
		if (f_calls != 1 || f_addr != (void *)(uintptr_t)(16 + i) || f_code != SEGV_MAPERR)
			ok = 0;
	}
	snprintf(buf, sizeof buf, "five NULL-page reads in a row: each caught, si_addr right");
	check(ok, buf);
	set_handler(SIGSEGV, SIG_DFL, 0);
}

static void test_segv_blocked(void)
{
	int status;
	pid_t pid = xfork();

	if (pid == 0) {
		volatile int *volatile p = NULL;
		no_core();
		set_action(SIGSEGV, h_fault, 0);
		mask_op(SIG_BLOCK, SIGSEGV);
		*p = 1;
		_exit(20);
	}
	status = reap(pid);
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
	      "a fault with SIGSEGV blocked kills even with a handler");
}

static void test_sigbus(const char *self)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct stat st;
	char *p;
	volatile char *vp;
	volatile char x;
	size_t len;
	int fd;

	fd = open(self, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		check(0, "open the test binary to map it");
		return;
	}
	len = (st.st_size + pg - 1) / pg * pg;
	p = mmap(NULL, len + pg, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		check(0, "mmap the test binary");
		return;
	}
	check(p[1] == 'E' && p[2] == 'L' && p[3] == 'F', "the mapped file reads ELF");
	set_action(SIGBUS, h_fault, 0);
	vp = p + len + 8;
	f_calls = 0;
	if (sigsetjmp(jb, 1) == 0) {
		x = *vp;
		(void)x;
		check(0, "reading a mapping past the end of its file faults");
	}
	check(f_calls == 1 && f_sig == SIGBUS, "reading past the end of a mapped file: SIGBUS");
	checkf(f_code == BUS_ADRERR, "SIGBUS: si_code BUS_ADRERR", "si_code=%ld%.0ld", f_code, 0);
	check(f_addr == p + len + 8, "SIGBUS: si_addr is the faulting address");
	munmap(p, len + pg);
	set_handler(SIGBUS, SIG_DFL, 0);
}

static void test_sigfpe(void)
{
	volatile int a = 7, b = 0, c = 0;

	set_action(SIGFPE, h_fault, 0);
	f_calls = 0;
	if (sigsetjmp(jb, 1) == 0) {
		c = a / b;
		check(0, "integer division by zero faults");
	}
	(void)c;
	check(f_calls == 1 && f_sig == SIGFPE, "integer division by zero: SIGFPE");
	checkf(f_code == FPE_INTDIV, "SIGFPE: si_code FPE_INTDIV", "si_code=%ld%.0ld", f_code, 0);
	set_handler(SIGFPE, SIG_DFL, 0);
}

extern char ud2_insn[], after_int3[];

static volatile int ill_calls, ill_code, ill_rip_ok;
static void *volatile ill_addr;

static void h_ill_skip(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig;
	ill_calls++;
	ill_code = si->si_code;
	ill_addr = si->si_addr;
	ill_rip_ok = uc->uc_mcontext.gregs[REG_RIP] == (greg_t)(uintptr_t)ud2_insn;
	if (ill_calls > 3)
		siglongjmp(jb, 1);
	uc->uc_mcontext.gregs[REG_RIP] += 2; /* skip the ud2 */
}

__attribute__((noinline)) static int do_ud2(int v)
{
	asm volatile(".globl ud2_insn\nud2_insn: ud2\n" : : : "memory");
	return v + 1;
}

static volatile int trap_calls, trap_code, trap_rip_ok;

static void h_trap(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig;
	trap_calls++;
	trap_code = si->si_code;
	trap_rip_ok = uc->uc_mcontext.gregs[REG_RIP] == (greg_t)(uintptr_t)after_int3;
	if (uc->uc_mcontext.gregs[REG_RAX] == 1234)
		uc->uc_mcontext.gregs[REG_RAX] = 5678;
}

__attribute__((noinline)) static long do_int3(long v)
{
	long out;

	asm volatile("mov %1, %%rax\n\tint3\n"
		     ".globl after_int3\nafter_int3:\n\t"
		     "mov %%rax, %0"
		     : "=r"(out)
		     : "r"(v)
		     : "rax", "memory");
	return out;
}

static void test_ill_trap(void)
{
	int r;
	long l;

	set_action(SIGILL, h_fault, 0);
	f_calls = 0;
	if (sigsetjmp(jb, 1) == 0) {
		__builtin_trap();
	}
	check(f_calls == 1 && f_sig == SIGILL, "__builtin_trap (ud2): SIGILL caught");
	checkf(f_code == ILL_ILLOPN, "SIGILL: si_code ILL_ILLOPN", "si_code=%ld%.0ld", f_code, 0);

	set_action(SIGILL, h_ill_skip, 0);
	ill_calls = 0;
	if (sigsetjmp(jb, 1) == 0) {
		r = do_ud2(41);
		check(r == 42, "a handler moving RIP past the ud2 resumes after it");
	} else {
		check(0, "a handler moving RIP past the ud2 resumes after it");
	}
	check(ill_calls == 1, "the SIGILL handler ran once");
	checkf(ill_code == ILL_ILLOPN, "ud2: si_code ILL_ILLOPN", "si_code=%ld%.0ld", ill_code, 0);
	check(ill_addr == (void *)ud2_insn, "ud2: si_addr is the instruction's address");
	check(ill_rip_ok, "ud2: the ucontext's RIP is the instruction's address");
	set_handler(SIGILL, SIG_DFL, 0);

	set_action(SIGTRAP, h_trap, 0);
	trap_calls = 0;
	l = do_int3(7);
	check(trap_calls == 1, "int3: the SIGTRAP handler ran once");
	checkf(trap_code == SI_KERNEL, "int3: si_code SI_KERNEL", "si_code=%#lx%.0ld", trap_code,
	       0);
	check(trap_rip_ok, "int3: the ucontext's RIP is just after the int3");
	check(l == 7, "returning from the handler continues after the int3");
	l = do_int3(1234);
	check(trap_calls == 2 && l == 5678,
	      "a register changed in the ucontext is seen after the handler");
	set_handler(SIGTRAP, SIG_DFL, 0);
}

/* ---- registers and FPU state across a handler ---- */

static volatile unsigned h_mxcsr, h_fcw;
static volatile int clobber_calls;

static void h_clobber(int sig)
{
	unsigned mx = 0x7f80 | 0x6000; /* all masked, round toward zero */
	unsigned short cw = 0x0c7f;    /* x87: round toward zero */
	unsigned m;
	unsigned short c;
	volatile double d = 3.0;

	(void)sig;
	clobber_calls++;
	asm volatile("stmxcsr %0" : "=m"(m));
	asm volatile("fnstcw %0" : "=m"(c));
	h_mxcsr = m;
	h_fcw = c;
	d = d / 7.0 + d * 1.5;
	(void)d;
	asm volatile("pcmpeqd %%xmm0, %%xmm0\n\t"
		     "pcmpeqd %%xmm1, %%xmm1\n\t"
		     "pcmpeqd %%xmm2, %%xmm2\n\t"
		     "pcmpeqd %%xmm3, %%xmm3\n\t"
		     "pcmpeqd %%xmm4, %%xmm4\n\t"
		     "pcmpeqd %%xmm5, %%xmm5\n\t"
		     "pcmpeqd %%xmm6, %%xmm6\n\t"
		     "pcmpeqd %%xmm7, %%xmm7\n\t"
		     "pcmpeqd %%xmm8, %%xmm8\n\t"
		     "pcmpeqd %%xmm9, %%xmm9\n\t"
		     "pcmpeqd %%xmm10, %%xmm10\n\t"
		     "pcmpeqd %%xmm11, %%xmm11\n\t"
		     "pcmpeqd %%xmm12, %%xmm12\n\t"
		     "pcmpeqd %%xmm13, %%xmm13\n\t"
		     "pcmpeqd %%xmm14, %%xmm14\n\t"
		     "pcmpeqd %%xmm15, %%xmm15\n\t"
		     "mov $-1, %%rdx\n\t"
		     "mov $-1, %%r8\n\t"
		     "mov $-1, %%r9\n\t"
		     "mov $-1, %%r10\n\t"
		     "mov $-1, %%r11\n\t"
		     "mov $-1, %%rsi\n\t"
		     "mov $-1, %%rdi\n\t"
		     "mov $-1, %%r12\n\t"
		     "mov $-1, %%r13\n\t"
		     "mov $-1, %%r14\n\t"
		     "mov $-1, %%r15\n\t"
		     "ldmxcsr %0\n\t"
		     "fldcw %1\n\t"
		     :
		     : "m"(mx), "m"(cw)
		     : "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
		       "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
		       "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "memory");
}

struct regblk {
	uint64_t xin[32];  /* 0 */
	uint64_t xout[32]; /* 256 */
	uint64_t gin[8];   /* 512: rdx r8 r9 r10 r12 r13 r14 r15 */
	uint64_t gout[10]; /* 576: same, then rdi, rax */
};

/* Load known values into xmm0-15 and most general registers, send ourselves
 * SIGUSR1 with a raw kill syscall (the handler runs on its return, between
 * two instructions), then store the registers back. */
__attribute__((noinline)) static void regs_across_signal(struct regblk *b, long pid)
{
	asm volatile("movdqu 0(%%rbx), %%xmm0\n\t"
		     "movdqu 16(%%rbx), %%xmm1\n\t"
		     "movdqu 32(%%rbx), %%xmm2\n\t"
		     "movdqu 48(%%rbx), %%xmm3\n\t"
		     "movdqu 64(%%rbx), %%xmm4\n\t"
		     "movdqu 80(%%rbx), %%xmm5\n\t"
		     "movdqu 96(%%rbx), %%xmm6\n\t"
		     "movdqu 112(%%rbx), %%xmm7\n\t"
		     "movdqu 128(%%rbx), %%xmm8\n\t"
		     "movdqu 144(%%rbx), %%xmm9\n\t"
		     "movdqu 160(%%rbx), %%xmm10\n\t"
		     "movdqu 176(%%rbx), %%xmm11\n\t"
		     "movdqu 192(%%rbx), %%xmm12\n\t"
		     "movdqu 208(%%rbx), %%xmm13\n\t"
		     "movdqu 224(%%rbx), %%xmm14\n\t"
		     "movdqu 240(%%rbx), %%xmm15\n\t"
		     "mov 512(%%rbx), %%rdx\n\t"
		     "mov 520(%%rbx), %%r8\n\t"
		     "mov 528(%%rbx), %%r9\n\t"
		     "mov 536(%%rbx), %%r10\n\t"
		     "mov 544(%%rbx), %%r12\n\t"
		     "mov 552(%%rbx), %%r13\n\t"
		     "mov 560(%%rbx), %%r14\n\t"
		     "mov 568(%%rbx), %%r15\n\t"
		     "mov %[nr], %%eax\n\t"
		     "mov %[sig], %%esi\n\t"
		     "syscall\n\t"
		     "movdqu %%xmm0, 256(%%rbx)\n\t"
		     "movdqu %%xmm1, 272(%%rbx)\n\t"
		     "movdqu %%xmm2, 288(%%rbx)\n\t"
		     "movdqu %%xmm3, 304(%%rbx)\n\t"
		     "movdqu %%xmm4, 320(%%rbx)\n\t"
		     "movdqu %%xmm5, 336(%%rbx)\n\t"
		     "movdqu %%xmm6, 352(%%rbx)\n\t"
		     "movdqu %%xmm7, 368(%%rbx)\n\t"
		     "movdqu %%xmm8, 384(%%rbx)\n\t"
		     "movdqu %%xmm9, 400(%%rbx)\n\t"
		     "movdqu %%xmm10, 416(%%rbx)\n\t"
		     "movdqu %%xmm11, 432(%%rbx)\n\t"
		     "movdqu %%xmm12, 448(%%rbx)\n\t"
		     "movdqu %%xmm13, 464(%%rbx)\n\t"
		     "movdqu %%xmm14, 480(%%rbx)\n\t"
		     "movdqu %%xmm15, 496(%%rbx)\n\t"
		     "mov %%rdx, 576(%%rbx)\n\t"
		     "mov %%r8, 584(%%rbx)\n\t"
		     "mov %%r9, 592(%%rbx)\n\t"
		     "mov %%r10, 600(%%rbx)\n\t"
		     "mov %%r12, 608(%%rbx)\n\t"
		     "mov %%r13, 616(%%rbx)\n\t"
		     "mov %%r14, 624(%%rbx)\n\t"
		     "mov %%r15, 632(%%rbx)\n\t"
		     "mov %%rdi, 640(%%rbx)\n\t"
		     "mov %%rax, 648(%%rbx)\n\t"
		     :
		     : "b"(b), "D"(pid), [nr] "i"(SYS_kill), [sig] "i"(SIGUSR1)
		     : "rax", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "r12", "r13", "r14",
		       "r15", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
		       "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
		       "memory");
}

__attribute__((noinline)) static double compute(int raise_at)
{
	volatile double seed = 1.0;
	double x = seed, y = 0.5, z = 2.0;
	int i;

	for (i = 0; i < 1000; i++) {
		x = x * 1.0000001 + y / (i + 1);
		z = z * 0.999 + x * 1e-3;
		if (i == raise_at)
			raise(SIGUSR1);
		y = y + z * 1e-4;
	}
	return x + y * 3 + z * 7;
}

static void test_fpu(void)
{
	static struct regblk b;
	unsigned mx_main = 0x1f80 | 0x4000, mx_save, mx_after; /* round down */
	unsigned short cw_main = 0x077f, cw_save, cw_after;    /* x87 round down */
	double ref, got;
	int i, xok = 1, gok = 1;

	set_handler(SIGUSR1, h_clobber, 0);
	for (i = 0; i < 32; i++)
		b.xin[i] = 0x0123456789abcdefULL * (i + 1) ^ ((uint64_t)i << 56);
	for (i = 0; i < 8; i++)
		b.gin[i] = 0xfedcba9876543210ULL + (uint64_t)i * 0x1111;
	asm volatile("stmxcsr %0" : "=m"(mx_save));
	asm volatile("fnstcw %0" : "=m"(cw_save));
	asm volatile("ldmxcsr %0" : : "m"(mx_main));
	asm volatile("fldcw %0" : : "m"(cw_main));
	clobber_calls = 0;
	regs_across_signal(&b, getpid());
	asm volatile("stmxcsr %0" : "=m"(mx_after));
	asm volatile("fnstcw %0" : "=m"(cw_after));
	asm volatile("ldmxcsr %0" : : "m"(mx_save));
	asm volatile("fldcw %0" : : "m"(cw_save));
	check(clobber_calls == 1, "the register-clobbering handler ran");
	for (i = 0; i < 32; i++)
		if (b.xout[i] != b.xin[i])
			xok = 0;
	check(xok, "xmm0-xmm15 are intact after the handler");
	for (i = 0; i < 8; i++)
		if (b.gout[i] != b.gin[i])
			gok = 0;
	check(gok, "rdx, r8-r10, r12-r15 are intact after the handler");
	check(b.gout[8] == (uint64_t)getpid() && b.gout[9] == 0,
	      "rdi (an argument) and rax (kill's result 0) are intact");
	checkf((mx_after & 0xffbf) == mx_main, "MXCSR is restored after the handler", "%#lx%.0ld",
	       mx_after, 0);
	checkf(cw_after == cw_main, "the x87 control word is restored after the handler",
	       "%#lx%.0ld", cw_after, 0);
	checkf((h_mxcsr & 0xffbf) == 0x1f80, "the handler starts with the default MXCSR",
	       "%#lx%.0ld", h_mxcsr, 0);
	checkf(h_fcw == 0x37f, "the handler starts with the default x87 control word", "%#lx%.0ld",
	       h_fcw, 0);

	clobber_calls = 0;
	ref = compute(-1);
	got = compute(500);
	check(clobber_calls == 1, "a signal raised inside a double computation was handled");
	check(got == ref, "the computation's double results are intact");
	set_handler(SIGUSR1, h_count, 0);
}

/* A handler that edits the FPU state in its frame: MXCSR in place, or in a
 * copy of the whole area that the frame is pointed at; sigreturn installs
 * the edited state either way. */
static unsigned char fp_copy[16384] __attribute__((aligned(64)));
static volatile int fp_mode;

static void h_fpedit(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	unsigned char *fp = (unsigned char *)uc->uc_mcontext.fpregs;
	unsigned mx = 0x1f80 | 0x6000; /* round toward zero */
	uint32_t magic1, ext = 512;

	(void)sig;
	(void)si;
	if (fp_mode == 2) {
		memcpy(&magic1, fp + 464, 4);
		if (magic1 == 0x46505853U) /* FP_XSTATE_MAGIC1: extended_size follows */
			memcpy(&ext, fp + 468, 4);
		if (ext > sizeof(fp_copy))
			ext = 512;
		memcpy(fp_copy, fp, ext);
		fp = fp_copy;
		uc->uc_mcontext.fpregs = (void *)fp_copy;
	}
	memcpy(fp + 24, &mx, sizeof(mx));
}

static void test_fpu_frame(void)
{
	unsigned save, after;
	int mode;

	set_action(SIGUSR2, h_fpedit, 0);
	for (mode = 1; mode <= 2; mode++) {
		fp_mode = mode;
		asm volatile("stmxcsr %0" : "=m"(save));
		syscall(SYS_kill, getpid(), SIGUSR2);
		asm volatile("stmxcsr %0" : "=m"(after));
		asm volatile("ldmxcsr %0" : : "m"(save));
		checkf((after & 0x6000) == 0x6000,
		       mode == 1 ? "MXCSR edited in the frame is installed by sigreturn"
				 : "MXCSR edited in a copy of the FPU area the frame points at is "
				   "installed",
		       "%#lx%.0ld", after, 0);
	}
	set_handler(SIGUSR2, SIG_DFL, 0);
}

/* ---- sigaltstack ---- */

#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1U << 31)
#endif
#define ALTSZ (64 * 1024)
static char altbuf[ALTSZ] __attribute__((aligned(16)));
static volatile int alt_on, alt_flags, alt_calls;

static void h_alt(int sig)
{
	char local;
	stack_t cur;

	(void)sig;
	alt_calls++;
	alt_on = &local >= altbuf && &local < altbuf + ALTSZ;
	memset(&cur, 0, sizeof cur);
	sigaltstack(NULL, &cur);
	alt_flags = cur.ss_flags;
}

static volatile int alt_uc_flags;

static void h_alt_uc(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	alt_uc_flags = ((ucontext_t *)uc)->uc_stack.ss_flags;
	h_alt(sig);
}

static void test_altstack(void)
{
	stack_t ss, old;

	memset(&old, 0, sizeof old);
	check(sigaltstack(NULL, &old) == 0 && (old.ss_flags & SS_DISABLE),
	      "initially no alternate stack (SS_DISABLE)");
	ss.ss_sp = altbuf;
	ss.ss_size = 1024;
	ss.ss_flags = 0;
	errno = 0;
	check(sigaltstack(&ss, NULL) == -1 && errno == ENOMEM,
	      "sigaltstack smaller than MINSIGSTKSZ: ENOMEM");
	ss.ss_size = ALTSZ;
	check(sigaltstack(&ss, NULL) == 0, "sigaltstack(64 KiB) succeeds");
	memset(&old, 0, sizeof old);
	sigaltstack(NULL, &old);
	check(old.ss_sp == altbuf && old.ss_size == ALTSZ && old.ss_flags == 0,
	      "sigaltstack reads it back");

	set_handler(SIGUSR1, h_alt, SA_ONSTACK);
	alt_calls = 0;
	raise(SIGUSR1);
	check(alt_calls == 1, "SA_ONSTACK handler ran");
	check(alt_on, "it ran on the alternate stack");
	check(alt_flags == SS_ONSTACK, "sigaltstack inside it reports SS_ONSTACK");

	set_handler(SIGUSR1, h_alt, 0);
	alt_calls = 0;
	raise(SIGUSR1);
	check(alt_calls == 1 && !alt_on && alt_flags == 0,
	      "a handler without SA_ONSTACK runs on the normal stack");

	ss.ss_flags = SS_DISABLE;
	check(sigaltstack(&ss, NULL) == 0, "SS_DISABLE succeeds");
	set_handler(SIGUSR1, h_alt, SA_ONSTACK);
	alt_calls = 0;
	raise(SIGUSR1);
	check(alt_calls == 1 && !alt_on, "SA_ONSTACK without an alternate stack: normal stack");

	/* SS_AUTODISARM: the handler starts with the stack disarmed
	 * (SS_DISABLE, no SS_AUTODISARM) and its return re-arms it with the
	 * flags as set; the frame's uc_stack holds those flags. */
	ss.ss_size = ALTSZ;
	ss.ss_flags = (int)SS_AUTODISARM;
	check(sigaltstack(&ss, NULL) == 0, "SS_AUTODISARM succeeds");
	set_action(SIGUSR1, h_alt_uc, SA_ONSTACK);
	alt_calls = 0;
	raise(SIGUSR1);
	check(alt_calls == 1 && alt_on && alt_flags == SS_DISABLE,
	      "SS_AUTODISARM: on the stack, which reads as SS_DISABLE inside");
	check(alt_uc_flags == (int)SS_AUTODISARM, "the frame's uc_stack has SS_AUTODISARM");
	memset(&old, 0, sizeof old);
	sigaltstack(NULL, &old);
	check(old.ss_flags == (int)SS_AUTODISARM && old.ss_size == ALTSZ,
	      "after the handler: re-armed, still SS_AUTODISARM");
	alt_calls = 0;
	raise(SIGUSR1);
	check(alt_calls == 1 && alt_on && alt_flags == SS_DISABLE &&
		      alt_uc_flags == (int)SS_AUTODISARM,
	      "a second signal: the same");
	ss.ss_flags = SS_ONSTACK; /* musl's sigaltstack refuses it */
	syscall(SYS_sigaltstack, &ss, NULL);
	raise(SIGUSR1);
	check(alt_uc_flags == SS_ONSTACK, "set with SS_ONSTACK: uc_stack shows SS_ONSTACK");
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	set_handler(SIGUSR1, h_count, 0);
}

static volatile int rec_limit = 1 << 30;

__attribute__((noinline)) static int recurse(int d)
{
	volatile char buf[1024];

	buf[0] = (char)d;
	buf[1023] = (char)d;
	if (d > rec_limit)
		return 0;
	return recurse(d + 1) + buf[d & 1023];
}

static void h_overflow(int sig, siginfo_t *si, void *uc)
{
	char local;

	(void)sig;
	(void)si;
	(void)uc;
	alt_on = &local >= altbuf && &local < altbuf + ALTSZ;
	siglongjmp(jb, 1);
}

static void test_overflow(void)
{
	int status;
	pid_t pid = xfork();

	if (pid == 0) {
		stack_t ss;
		struct rlimit rl;
		no_core();
		if (getrlimit(RLIMIT_STACK, &rl) == 0 &&
		    (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 8 << 20)) {
			rl.rlim_cur = 8 << 20;
			setrlimit(RLIMIT_STACK, &rl);
		}
		ss.ss_sp = altbuf;
		ss.ss_size = ALTSZ;
		ss.ss_flags = 0;
		if (sigaltstack(&ss, NULL) < 0)
			_exit(30);
		set_action(SIGSEGV, h_overflow, SA_ONSTACK);
		alt_on = 0;
		if (sigsetjmp(jb, 1) == 0) {
			recurse(0);
			_exit(31);
		}
		_exit(alt_on ? 32 : 33);
	}
	status = reap(pid);
	checkf(WIFEXITED(status) && WEXITSTATUS(status) == 32,
	       "stack overflow: SIGSEGV caught on the alternate stack", "status=%#lx%.0ld", status,
	       0);
}

/* ---- sigtimedwait, sigsuspend, pause ---- */

static void test_sigtimedwait(void)
{
	struct timespec zero = { 0, 0 }, ten = { 0, 10000000 }, five = { 5, 0 };
	sigset_t s, empty;
	siginfo_t si;
	pid_t pid;
	int r, sig;

	set_handler(SIGUSR1, h_count, 0);
	set_handler(SIGUSR2, h_count, 0);
	mask_op(SIG_BLOCK, SIGUSR1);
	mask_op(SIG_BLOCK, SIGUSR2);
	cnt_usr1 = cnt_usr2 = 0;

	raise(SIGUSR1);
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	memset(&si, 0, sizeof si);
	/* the raw call: glibc's sigtimedwait turns SI_TKILL into SI_USER */
	r = syscall(SYS_rt_sigtimedwait, &s, &si, &zero, 8);
	check(r == SIGUSR1, "rt_sigtimedwait with SIGUSR1 pending returns it at once");
	checkf(si.si_signo == SIGUSR1 && si.si_code == SI_TKILL && si.si_pid == getpid(),
	       "rt_sigtimedwait fills in the siginfo (SI_TKILL, our pid)", "si_code=%ld%.0ld",
	       si.si_code, 0);
	raise(SIGUSR1);
	memset(&si, 0, sizeof si);
	r = sigtimedwait(&s, &si, &zero);
	check(r == SIGUSR1 && si.si_signo == SIGUSR1 && si.si_pid == getpid(),
	      "libc sigtimedwait returns it too, with our pid");
	check(cnt_usr1 == 0, "the handler did not run");
	check(!is_pending(SIGUSR1), "the signal is no longer pending");

	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	errno = 0;
	r = sigtimedwait(&s, &si, &ten);
	check(r == -1 && errno == EAGAIN, "sigtimedwait for an absent signal, 10 ms: EAGAIN");
	sigemptyset(&empty);
	errno = 0;
	r = sigtimedwait(&empty, &si, &ten);
	check(r == -1 && errno == EAGAIN, "sigtimedwait with an empty set, 10 ms: EAGAIN");
	errno = 0;
	r = sigtimedwait(&s, &si, &zero);
	check(r == -1 && errno == EAGAIN, "sigtimedwait with a zero timeout: EAGAIN");

	kill(getpid(), SIGUSR1);
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	r = sigwaitinfo(&s, &si);
	check(r == SIGUSR1 && si.si_code == SI_USER, "sigwaitinfo returns a pending SIGUSR1");
	raise(SIGUSR2);
	sigaddset(&s, SIGUSR2);
	sig = 0;
	check(sigwait(&s, &sig) == 0 && sig == SIGUSR2, "sigwait returns a pending SIGUSR2");

	pid = xfork();
	if (pid == 0) {
		sleep_ms(20);
		kill(getppid(), SIGUSR2);
		_exit(0);
	}
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	memset(&si, 0, sizeof si);
	r = sigtimedwait(&s, &si, &five);
	check(r == SIGUSR2, "sigtimedwait gets a SIGUSR2 sent later by a child");
	check(si.si_pid == pid && si.si_code == SI_USER, "its siginfo names the child, SI_USER");
	reap(pid);
	check(cnt_usr1 == 0 && cnt_usr2 == 0, "no handler ran during all that");
	mask_op(SIG_UNBLOCK, SIGUSR1);
	mask_op(SIG_UNBLOCK, SIGUSR2);
	check(cnt_usr1 == 0 && cnt_usr2 == 0, "and nothing was left pending");
}

static void test_sigsuspend(void)
{
	sigset_t empty;
	pid_t pid;
	int r;

	set_handler(SIGUSR1, h_count, 0);
	mask_op(SIG_BLOCK, SIGUSR1);
	cnt_usr1 = 0;
	pid = xfork();
	if (pid == 0) {
		sleep_ms(20);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	sigemptyset(&empty);
	errno = 0;
	r = sigsuspend(&empty);
	check(r == -1 && errno == EINTR, "sigsuspend returns -1 EINTR");
	check(cnt_usr1 == 1, "the handler ran during sigsuspend");
	check(is_blocked(SIGUSR1), "sigsuspend restored the mask (SIGUSR1 blocked)");
	reap(pid);

	/* a signal already pending and blocked: sigsuspend returns at once */
	raise(SIGUSR1);
	cnt_usr1 = 0;
	r = sigsuspend(&empty);
	check(r == -1 && cnt_usr1 == 1, "sigsuspend with the signal already pending returns");
	mask_op(SIG_UNBLOCK, SIGUSR1);

	cnt_usr1 = 0;
	pid = xfork();
	if (pid == 0) {
		await_sleep(getppid());
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	errno = 0;
	r = pause();
	check(r == -1 && errno == EINTR && cnt_usr1 == 1,
	      "pause returns -1 EINTR after the handler ran");
	reap(pid);
}

/* ---- SIGCHLD ---- */

static volatile int chld_calls, chld_code, chld_pid, chld_status;

static void h_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	chld_calls++;
	chld_code = si->si_code;
	chld_pid = si->si_pid;
	chld_status = si->si_status;
}

static void test_sigchld(void)
{
	int i, status, ok_info = 1;
	pid_t pid, r;

	set_action(SIGCHLD, h_chld, SA_RESTART);
	chld_calls = 0;
	for (i = 0; i < 3; i++) {
		pid = xfork();
		if (pid == 0)
			_exit(60 + i);
		do
			r = waitpid(pid, &status, 0);
		while (r < 0 && errno == EINTR);
		if (chld_calls != i + 1 || chld_code != CLD_EXITED || chld_pid != pid ||
		    chld_status != 60 + i)
			ok_info = 0;
	}
	checkf(chld_calls == 3, "SIGCHLD handler ran once per exited child", "calls=%ld%.0ld",
	       chld_calls, 0);
	check(ok_info, "SIGCHLD siginfo: CLD_EXITED, the child's pid and status");

	pid = xfork();
	if (pid == 0) {
		kill(getpid(), SIGKILL);
		_exit(0);
	}
	do
		r = waitpid(pid, &status, 0);
	while (r < 0 && errno == EINTR);
	check(chld_calls == 4 && chld_code == CLD_KILLED && chld_status == SIGKILL,
	      "SIGCHLD for a killed child: CLD_KILLED, SIGKILL");

	/* SIGCHLD ignored: children are reaped automatically */
	set_handler(SIGCHLD, SIG_IGN, 0);
	pid = xfork();
	if (pid == 0)
		_exit(3);
	errno = 0;
	do
		r = waitpid(pid, &status, 0);
	while (r < 0 && errno == EINTR);
	check(r == -1 && errno == ECHILD, "with SIGCHLD ignored the child is not a zombie: ECHILD");
	set_handler(SIGCHLD, SIG_DFL, 0);
}

/* ---- SIGPIPE ---- */

static volatile int pipe_calls;

static void h_pipe(int sig)
{
	if (sig == SIGPIPE)
		pipe_calls++;
}

static void test_sigpipe(void)
{
	int p[2], status;
	ssize_t k;
	pid_t pid;

	set_handler(SIGPIPE, SIG_IGN, 0);
	pipe(p);
	close(p[0]);
	errno = 0;
	k = write(p[1], "x", 1);
	check(k == -1 && errno == EPIPE, "SIGPIPE ignored: writing to a readerless pipe: EPIPE");
	close(p[1]);

	set_handler(SIGPIPE, h_pipe, 0);
	pipe_calls = 0;
	pipe(p);
	close(p[0]);
	errno = 0;
	k = write(p[1], "x", 1);
	check(k == -1 && errno == EPIPE && pipe_calls == 1,
	      "SIGPIPE handled: the handler runs and write fails with EPIPE");
	close(p[1]);
	set_handler(SIGPIPE, SIG_IGN, 0);

	pid = xfork();
	if (pid == 0) {
		set_handler(SIGPIPE, SIG_DFL, 0);
		pipe(p);
		close(p[0]);
		write(p[1], "x", 1);
		_exit(40);
	}
	status = reap(pid);
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE,
	      "SIGPIPE default: the writer dies of SIGPIPE");
}

/* ---- interrupted system calls ---- */

static void test_eintr(void)
{
	int p[2], go[2];
	char c = 0;
	ssize_t k;
	pid_t pid;
	struct timespec req = { 5, 0 }, rem = { 0, 0 };
	int r;

	/* without SA_RESTART: read fails with EINTR */
	set_handler(SIGUSR1, h_count, 0);
	cnt_usr1 = 0;
	pipe(p);
	pipe(go);
	pid = xfork();
	if (pid == 0) {
		/* the data comes once the parent has had its EINTR: before
		 * it, the read would take the data instead */
		close(p[0]);
		await_sleep(getppid());
		kill(getppid(), SIGUSR1);
		read(go[0], &c, 1);
		write(p[1], "a", 1);
		_exit(0);
	}
	close(p[1]);
	errno = 0;
	k = read(p[0], &c, 1);
	checkf(k == -1 && errno == EINTR, "a blocking pipe read interrupted by a handler: EINTR",
	       "read=%ld errno=%ld", k, errno);
	check(cnt_usr1 == 1, "the handler ran once");
	write(go[1], "g", 1);
	close(go[0]);
	close(go[1]);
	k = read(p[0], &c, 1);
	check(k == 1 && c == 'a', "reading again gets the data");
	close(p[0]);
	reap(pid);

	/* with SA_RESTART: read is restarted and returns the data */
	set_handler(SIGUSR1, h_count, SA_RESTART);
	cnt_usr1 = 0;
	pipe(p);
	pid = xfork();
	if (pid == 0) {
		close(p[0]);
		sleep_ms(100);
		kill(getppid(), SIGUSR1);
		sleep_ms(50);
		write(p[1], "b", 1);
		_exit(0);
	}
	close(p[1]);
	c = 0;
	errno = 0;
	k = read(p[0], &c, 1);
	checkf(k == 1 && c == 'b', "with SA_RESTART the read is restarted and gets the data",
	       "read=%ld errno=%ld", k, errno);
	check(cnt_usr1 == 1, "the handler ran once");
	close(p[0]);
	reap(pid);

	/* nanosleep */
	set_handler(SIGUSR1, h_count, 0);
	cnt_usr1 = 0;
	pid = xfork();
	if (pid == 0) {
		/* and then 50 ms: natively the remaining time counts from the
		 * timer's latest expiry (5 s plus the timer slack), so a signal
		 * within 50 us of the sleep's start leaves more than 5 s */
		await_sleep(getppid());
		sleep_ms(50);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	errno = 0;
	r = nanosleep(&req, &rem);
	check(r == -1 && errno == EINTR, "nanosleep(5 s) interrupted by a handler: EINTR");
	check(cnt_usr1 == 1, "the handler ran once");
	check(rem.tv_sec < 5 && (rem.tv_sec > 0 || rem.tv_nsec > 0) && rem.tv_sec >= 3,
	      "nanosleep reports the remaining time");
	reap(pid);

	/* nanosleep with SA_RESTART is still EINTR (it is never restarted) */
	set_handler(SIGUSR1, h_count, SA_RESTART);
	cnt_usr1 = 0;
	pid = xfork();
	if (pid == 0) {
		await_sleep(getppid());
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	errno = 0;
	r = nanosleep(&req, &rem);
	check(r == -1 && errno == EINTR && cnt_usr1 == 1,
	      "nanosleep with SA_RESTART is still interrupted: EINTR");
	reap(pid);
	set_handler(SIGUSR1, h_count, 0);
}

/* ---- default actions (in children) ---- */

static void test_defaults(void)
{
	static const int sigs[] = { SIGTERM, SIGUSR1, SIGHUP, SIGINT, SIGQUIT, SIGALRM };
	static const char *names[] = { "SIGTERM", "SIGUSR1", "SIGHUP",
				       "SIGINT",  "SIGQUIT", "SIGALRM" };
	char what[80];
	unsigned i;
	int status;
	pid_t pid;

	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		pid = xfork();
		if (pid == 0) {
			no_core();
			set_handler(sigs[i], SIG_DFL, 0);
			raise(sigs[i]);
			_exit(50);
		}
		status = reap(pid);
		snprintf(what, sizeof what, "default action of %s kills the process", names[i]);
		check(WIFSIGNALED(status) && WTERMSIG(status) == sigs[i], what);
	}

	pid = xfork();
	if (pid == 0) {
		set_handler(SIGCHLD, SIG_DFL, 0);
		set_handler(SIGURG, SIG_DFL, 0);
		set_handler(SIGWINCH, SIG_DFL, 0);
		raise(SIGCHLD);
		raise(SIGURG);
		raise(SIGWINCH);
		_exit(51);
	}
	status = reap(pid);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 51,
	      "SIGCHLD, SIGURG, SIGWINCH are ignored by default");

	pid = xfork();
	if (pid == 0) {
		set_handler(SIGTERM, SIG_IGN, 0);
		raise(SIGTERM);
		kill(getpid(), SIGTERM);
		_exit(52);
	}
	status = reap(pid);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 52, "an ignored SIGTERM does nothing");

	pid = xfork();
	if (pid == 0) {
		set_handler(SIGTERM, SIG_DFL, 0);
		mask_op(SIG_BLOCK, SIGTERM);
		raise(SIGTERM);
		sleep_ms(10);
		set_handler(SIGTERM, SIG_IGN, 0);
		mask_op(SIG_UNBLOCK, SIGTERM);
		_exit(53);
	}
	status = reap(pid);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 53,
	      "a blocked pending signal set to SIG_IGN is discarded");

	pid = xfork();
	if (pid == 0) {
		pid_t self = getpid();
		set_handler(SIGTERM, SIG_DFL, 0);
		mask_op(SIG_BLOCK, SIGTERM);
		raise(SIGTERM);
		if (getpid() != self)
			_exit(55);
		mask_op(SIG_UNBLOCK, SIGTERM);
		_exit(54);
	}
	status = reap(pid);
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
	      "a blocked SIGTERM kills once unblocked");
}

/* The order of a call's checks and effects, as Linux: rt_sigaction and
 * rt_sigprocmask make the change before a fault writing the old value
 * (EFAULT); kill and tkill look for the target before checking the
 * signal number (ESRCH, then EINVAL). */
static void test_errno_order(void)
{
	struct sigaction sa, cur;
	sigset_t set, got;
	pid_t c = xfork();

	if (c == 0)
		_exit(0);
	reap(c); /* c is a pid that names nobody now */
	set_handler(SIGUSR2, SIG_IGN, 0);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = h_count;
	errno = 0;
	check(syscall(SYS_rt_sigaction, SIGUSR2, &sa, (void *)1, 8) == -1 && errno == EFAULT,
	      "rt_sigaction with a bad oldact: EFAULT");
	sigaction(SIGUSR2, NULL, &cur);
	check(cur.sa_handler == h_count, "... and the new action is in place");
	set_handler(SIGUSR2, h_count, 0);

	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	errno = 0;
	check(syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, (void *)1, 8) == -1 && errno == EFAULT,
	      "rt_sigprocmask with a bad oldset: EFAULT");
	sigprocmask(SIG_SETMASK, NULL, &got);
	check(sigismember(&got, SIGUSR2), "... and the new mask is in place");
	mask_op(SIG_UNBLOCK, SIGUSR2);

	errno = 0;
	check(kill(c, 100) == -1 && errno == ESRCH, "kill(no such pid, bad signal): ESRCH");
	errno = 0;
	check(kill(-c, 100) == -1 && errno == ESRCH, "kill(no such group, bad signal): ESRCH");
	errno = 0;
	check(kill(getpid(), 100) == -1 && errno == EINVAL, "kill(self, bad signal): EINVAL");
	errno = 0;
	check(syscall(SYS_tkill, c, 100) == -1 && errno == ESRCH,
	      "tkill(no such tid, bad signal): ESRCH");
	errno = 0;
	check(syscall(SYS_tgkill, getpid(), getpid(), -1) == -1 && errno == EINVAL,
	      "tgkill(self, bad signal): EINVAL");
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	sigset_t none;
	int i;

	(void)argc;
	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	for (i = 1; i < 32; i++)
		if (i != SIGKILL && i != SIGSTOP)
			sigaction(i, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	test_basic_handlers();
	test_masks();
	test_order();
	test_resethand();
	test_nodefer();
	test_segv();
	test_segv_blocked();
	test_sigbus(argv[0]);
	test_sigfpe();
	test_ill_trap();
	test_fpu();
	test_fpu_frame();
	test_altstack();
	test_overflow();
	test_sigtimedwait();
	test_sigsuspend();
	test_sigchld();
	test_sigpipe();
	test_eintr();
	test_defaults();
	test_errno_order();
	return 0;
}
