/* rt_sigreturn's FPU and odd returns: a frame without FPU state (fpstate
 * NULL) returns with the FPU in its initial state; a frame whose
 * software bytes name only x87 and SSE restores those and puts AVX in its
 * initial state; a return to a stack with nothing mapped below it, and
 * one with TF set (a trap after the first instruction back), work as
 * Linux's; and signals from another process that land while the thread
 * is in and out of handlers of its own never cost it a register. A
 * handler on the alternate stack writes nothing below the pointer of the
 * stack it interrupted. A signal delivered as a handler returns, or two at
 * once, or one that lands while a handler starts or returns, find in their
 * frames what Linux puts there (the interrupted address is the program's
 * own code). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static int have_avx;
static volatile int mode;

/* xmm0, xmm1 and the upper half of ymm0 set, a raw kill of ourselves,
 * the three read back; then MXCSR. */
struct vals {
	uint64_t x0[2], x1[2], h0[2];
	uint32_t mxcsr;
};

__attribute__((noinline)) static void kill_self(const struct vals *in, struct vals *out)
{
	long pid = getpid();

	asm volatile("movdqu 0(%0), %%xmm0\n\t"
		     "movdqu 16(%0), %%xmm1\n\t"
		     "testl %3, %3\n\t"
		     "jz 1f\n\t"
		     "vinsertf128 $1, 32(%0), %%ymm0, %%ymm0\n"
		     "1:\n\t"
		     "ldmxcsr 48(%0)\n\t"
		     "mov %2, %%rdi\n\t"
		     "mov %4, %%eax\n\t"
		     "mov %5, %%esi\n\t"
		     "syscall\n\t"
		     "movdqu %%xmm0, 0(%1)\n\t"
		     "movdqu %%xmm1, 16(%1)\n\t"
		     "testl %3, %3\n\t"
		     "jz 2f\n\t"
		     "vextractf128 $1, %%ymm0, 32(%1)\n\t"
		     "vzeroupper\n"
		     "2:\n\t"
		     "stmxcsr 48(%1)\n\t"
		     :
		     : "r"(in), "r"(out), "r"(pid), "r"(have_avx), "i"(SYS_kill), "i"(SIGUSR1)
		     : "rax", "rcx", "rdx", "rsi", "rdi", "r11", "xmm0", "xmm1", "cc", "memory");
}

static void on_usr1(int sig, siginfo_t *si, void *p)
{
	ucontext_t *uc = p;
	unsigned char *fp = (unsigned char *)uc->uc_mcontext.fpregs;
	uint64_t x87_sse = 3;

	(void)sig;
	(void)si;
	if (mode == 1) {
		/* the handler's own FPU state is not what it returns with */
		unsigned mx = 0x9f80;

		asm volatile("pcmpeqd %%xmm0, %%xmm0\n\t"
			     "ldmxcsr %0" ::"m"(mx)
			     : "xmm0");
		uc->uc_mcontext.fpregs = NULL;
	} else if (mode == 2)
		memcpy(fp + 472, &x87_sse, 8); /* the software bytes' xfeatures */
}

static void fpu_cases(void)
{
	struct sigaction sa = { .sa_sigaction = on_usr1, .sa_flags = SA_SIGINFO };
	struct vals in = { { 0x1111, 0x2222 }, { 0x3333, 0x4444 }, { 0x5555, 0x6666 }, 0x3f80 };
	struct vals out;
	int i;

	sigaction(SIGUSR1, &sa, NULL);
	for (i = 0; i < 3; i++) {
		mode = i;
		memset(&out, 0xee, sizeof(out));
		kill_self(&in, &out);
		printf("mode %d: xmm0 %s, xmm1 %s, ymm0's upper half %s, MXCSR %#x\n", i,
		       out.x0[0] == in.x0[0] && out.x0[1] == in.x0[1] ? "kept"
		       : !out.x0[0] && !out.x0[1]		      ? "zero"
								      : "other",
		       out.x1[0] == in.x1[0] && out.x1[1] == in.x1[1] ? "kept"
		       : !out.x1[0] && !out.x1[1]		      ? "zero"
								      : "other",
		       !have_avx					? "(no AVX)"
		       : out.h0[0] == in.h0[0] && out.h0[1] == in.h0[1] ? "kept"
		       : !out.h0[0] && !out.h0[1]			? "zero"
									: "other",
		       out.mxcsr & 0xffbf);
	}
}

/* A return to a stack page with nothing mapped below it: the handler
 * sends the interrupted code to on_edge, on that page. */
static char *edge_page;
static volatile int edge_ran;
static sigjmp_buf back;

static void on_edge(void)
{
	edge_ran = 1;
	siglongjmp(back, 1);
}

static void on_usr2(int sig, siginfo_t *si, void *p)
{
	ucontext_t *uc = p;

	(void)sig;
	(void)si;
	uc->uc_mcontext.gregs[REG_RSP] = (greg_t)(uintptr_t)(edge_page + 2048 - 8);
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)on_edge;
}

static void edge_case(void)
{
	struct sigaction sa = { .sa_sigaction = on_usr2, .sa_flags = SA_SIGINFO };
	char *m = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	munmap(m, 4096);
	edge_page = m + 4096;
	sigaction(SIGUSR2, &sa, NULL);
	if (!sigsetjmp(back, 1))
		raise(SIGUSR2);
	printf("a return to a stack with nothing mapped 4 KiB below: %s\n",
	       edge_ran ? "ran" : "did not run");
	munmap(m + 4096, 2 * 4096);
}

/* kill(self, SIGUSR1) as a bare syscall instruction, then two nops: a
 * handler's frame for it holds after_kill, a trap after the first
 * instruction back comes at after_kill_nop. */
extern char after_kill[], after_kill_nop[];

__attribute__((noinline)) static void raw_kill_usr1(void)
{
	long pid = getpid();

	asm volatile("mov %0, %%rdi\n\t"
		     "mov %1, %%eax\n\t"
		     "mov %2, %%esi\n\t"
		     "syscall\n"
		     ".globl after_kill\n"
		     "after_kill:\n\t"
		     "nop\n"
		     ".globl after_kill_nop\n"
		     "after_kill_nop:\n\t"
		     "nop\n\t"
		     :
		     : "r"(pid), "i"(SYS_kill), "i"(SIGUSR1)
		     : "rax", "rcx", "rdx", "rsi", "rdi", "r11", "cc", "memory");
}

/* A signal taken on the alternate stack while the code runs on a small
 * stack of its own (as green threads do): nothing below that stack's
 * pointer is written, neither at the handler's start nor at its return. */
static void on_alt(int sig)
{
	(void)sig;
}

static void altstack_case(void)
{
	static char alt[64 * 1024];
	stack_t ss = { .ss_sp = alt, .ss_size = sizeof(alt) };
	struct sigaction sa = { .sa_handler = on_alt, .sa_flags = SA_ONSTACK };
	char *small = malloc(3 * 4096), *top;
	long pid = getpid();
	int i, touched = 0;

	sigaltstack(&ss, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	memset(small, 0x5a, 3 * 4096);
	top = small + 3 * 4096 - 64;
	top -= (uintptr_t)top & 15;
	asm volatile("mov %%rsp, %%r12\n\t"
		     "mov %[top], %%rsp\n\t"
		     "mov %[pid], %%rdi\n\t"
		     "mov %[nr], %%eax\n\t"
		     "mov %[sig], %%esi\n\t"
		     "syscall\n\t"
		     "mov %%r12, %%rsp\n\t"
		     :
		     : [top] "r"(top), [pid] "r"(pid), [nr] "i"(SYS_kill), [sig] "i"(SIGUSR1)
		     : "rax", "rcx", "rdx", "rsi", "rdi", "r11", "r12", "cc", "memory");
	for (i = 0; i < top - small; i++)
		if ((unsigned char)small[i] != 0x5a)
			touched++;
	printf("a handler on the alternate stack wrote %d bytes below a small stack's pointer\n",
	       touched);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	free(small);
}

/* TF in the frame: the first instruction back runs, then SIGTRAP. */
static volatile uintptr_t trap_rip;
static volatile int traps;

static void on_tf_usr1(int sig, siginfo_t *si, void *p)
{
	ucontext_t *uc = p;

	(void)sig;
	(void)si;
	uc->uc_mcontext.gregs[REG_EFL] |= 0x100;
}

static void on_trap(int sig, siginfo_t *si, void *p)
{
	ucontext_t *uc = p;

	(void)sig;
	(void)si;
	traps++;
	trap_rip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	uc->uc_mcontext.gregs[REG_EFL] &= ~0x100;
}

static void tf_case(void)
{
	struct sigaction sa = { .sa_sigaction = on_tf_usr1, .sa_flags = SA_SIGINFO };
	struct sigaction st = { .sa_sigaction = on_trap, .sa_flags = SA_SIGINFO };

	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGTRAP, &st, NULL);
	raw_kill_usr1();
	printf("TF in the frame: %d trap%s, %s\n", traps, traps == 1 ? "" : "s",
	       trap_rip == (uintptr_t)after_kill_nop ? "after the first instruction back"
	       : trap_rip == (uintptr_t)after_kill   ? "before it"
						     : "elsewhere");
}

/* A signal that becomes deliverable as a handler returns (its mask let
 * it through) and two delivered at once: each frame holds what Linux puts
 * there, the context returned to and the first handler's entry. */
static volatile uintptr_t usr2_rip, usr1_rip;
static volatile int stacked;

static void on_pend_usr1(int sig, siginfo_t *si, void *p)
{
	ucontext_t *uc = p;

	(void)sig;
	(void)si;
	usr1_rip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	if (!stacked)
		raise(SIGUSR2); /* blocked here (sa_mask): pending at the return */
}

static void on_pend_usr2(int sig, siginfo_t *si, void *p)
{
	ucontext_t *uc = p;

	(void)sig;
	(void)si;
	usr2_rip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
}

static void pending_case(void)
{
	struct sigaction s1 = { .sa_sigaction = on_pend_usr1, .sa_flags = SA_SIGINFO };
	struct sigaction s2 = { .sa_sigaction = on_pend_usr2, .sa_flags = SA_SIGINFO };
	sigset_t both, old;

	sigemptyset(&s1.sa_mask);
	sigaddset(&s1.sa_mask, SIGUSR2);
	sigaction(SIGUSR1, &s1, NULL);
	sigaction(SIGUSR2, &s2, NULL);
	raw_kill_usr1();
	printf("a signal let through by a handler's return: its frame %s\n",
	       usr2_rip == (uintptr_t)after_kill ? "holds the context returned to"
						 : "holds something else");

	/* both pending, then let through at once: SIGUSR1's frame first,
	 * SIGUSR2's on top of it (its handler runs first) */
	stacked = 1;
	usr1_rip = usr2_rip = 0;
	s1.sa_mask = (sigset_t){ 0 };
	sigemptyset(&s1.sa_mask);
	sigaction(SIGUSR1, &s1, NULL);
	sigemptyset(&both);
	sigaddset(&both, SIGUSR1);
	sigaddset(&both, SIGUSR2);
	sigprocmask(SIG_BLOCK, &both, &old);
	raise(SIGUSR1);
	raise(SIGUSR2);
	sigprocmask(SIG_SETMASK, &old, NULL);
	printf("two let through at once: the second frame %s\n",
	       usr2_rip == (uintptr_t)on_pend_usr1 ? "holds the first handler's entry"
						   : "holds something else");
}

/* Signals from another process while the thread raises its own: its
 * registers across each raise stay its own. */
static volatile int storm_hits;

extern char __executable_start[], etext[];
static volatile int foreign;

static void on_storm(int sig, siginfo_t *si, void *p)
{
	ucontext_t *uc = p;
	uintptr_t rip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];

	(void)sig;
	(void)si;
	/* interrupted in this program's own code: it calls no vDSO here */
	if (rip < (uintptr_t)__executable_start || rip >= (uintptr_t)etext)
		foreign++;
	storm_hits++;
	asm volatile("pcmpeqd %%xmm0, %%xmm0\n\t"
		     "pcmpeqd %%xmm1, %%xmm1\n\t"
		     "mov $-1, %%r12\n\t" ::
			     : "xmm0", "xmm1", "r12");
}

static void storm_case(void)
{
	struct sigaction sa = { .sa_sigaction = on_storm, .sa_flags = SA_RESTART | SA_SIGINFO };
	struct vals in = { { 0x1234, 0x5678 }, { 0x9abc, 0xdef0 }, { 0x1357, 0x2468 }, 0x1f80 };
	struct vals out;
	int i, bad = 0, st;
	pid_t parent = getpid(), c;

	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	c = fork();
	if (c == 0) {
		for (i = 0; i < 3000; i++)
			kill(parent, SIGUSR2);
		_exit(0);
	}
	for (i = 0; i < 3000; i++) {
		kill_self(&in, &out);
		if (memcmp(&in, &out, sizeof(in.x0) * 2) != 0 || (out.mxcsr & 0xffbf) != in.mxcsr ||
		    (have_avx && memcmp(in.h0, out.h0, sizeof(in.h0)) != 0))
			bad++;
	}
	waitpid(c, &st, 0);
	printf("3000 raises among another process's signals: %d lost a register\n", bad);
	printf("handlers that saw an interrupted address outside the program: %d\n", foreign);
}

int main(void)
{
	uint32_t a, b, c, d, lo = 0, hi = 0;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	if (c & (1u << 27))
		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	have_avx = (c & (1u << 28)) && (lo & 6) == 6;
	fpu_cases();
	edge_case();
	altstack_case();
	pending_case();
	tf_case();
	storm_case();
	return 0;
}
