/* The registers a signal handler starts with, seen by a handler written in
 * assembly before anything can change them: rdi the signal, rdx the
 * frame's ucontext just above the return address, rsi its siginfo after
 * the ucontext, rax 0, rsp 8 off a 16-byte boundary, DF and TF clear, the
 * other flags and the general registers as at the interruption (here a
 * kill system call), and the FPU in its initial state: x87 control word
 * 0x37f, MXCSR 0x1f80, xmm0-15 zero, the upper halves of ymm0-15 zero.
 * After the handler, the interrupted code has all of its own back. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

/* What the handler saw (filled by entry_handler), at fixed offsets. */
struct seen {
	uint64_t gpr[16];   /* 0: rax rbx rcx rdx rsi rdi rbp rsp r8-r15 */
	uint64_t flags;	    /* 128 */
	uint64_t signo;	    /* 136: the siginfo's si_signo */
	uint64_t saved_rip; /* 144: the ucontext's rip */
	uint32_t mxcsr;	    /* 152 */
	uint16_t fcw;	    /* 156 */
	uint16_t pad;
	uint64_t xmm[32];  /* 160 */
	uint64_t ymmh[32]; /* 416 */
	uint64_t calls;	   /* 672 */
};
struct seen seen __attribute__((visibility("hidden")));
int have_avx __attribute__((visibility("hidden")));

void entry_handler(int, siginfo_t *, void *);
__asm__(".text\n"
	".globl entry_handler\n"
	".type entry_handler, @function\n"
	"entry_handler:\n"
	"	mov %rax, seen+0(%rip)\n"
	"	mov %rbx, seen+8(%rip)\n"
	"	mov %rcx, seen+16(%rip)\n"
	"	mov %rdx, seen+24(%rip)\n"
	"	mov %rsi, seen+32(%rip)\n"
	"	mov %rdi, seen+40(%rip)\n"
	"	mov %rbp, seen+48(%rip)\n"
	"	mov %rsp, seen+56(%rip)\n"
	"	mov %r8, seen+64(%rip)\n"
	"	mov %r9, seen+72(%rip)\n"
	"	mov %r10, seen+80(%rip)\n"
	"	mov %r11, seen+88(%rip)\n"
	"	mov %r12, seen+96(%rip)\n"
	"	mov %r13, seen+104(%rip)\n"
	"	mov %r14, seen+112(%rip)\n"
	"	mov %r15, seen+120(%rip)\n"
	"	pushfq\n"
	"	pop %rax\n"
	"	mov %rax, seen+128(%rip)\n"
	"	movslq (%rsi), %rax\n"
	"	mov %rax, seen+136(%rip)\n"
	"	mov 40+128(%rdx), %rax\n"
	"	mov %rax, seen+144(%rip)\n"
	"	stmxcsr seen+152(%rip)\n"
	"	fnstcw seen+156(%rip)\n"
	"	movdqu %xmm0, seen+160(%rip)\n"
	"	movdqu %xmm1, seen+176(%rip)\n"
	"	movdqu %xmm2, seen+192(%rip)\n"
	"	movdqu %xmm3, seen+208(%rip)\n"
	"	movdqu %xmm4, seen+224(%rip)\n"
	"	movdqu %xmm5, seen+240(%rip)\n"
	"	movdqu %xmm6, seen+256(%rip)\n"
	"	movdqu %xmm7, seen+272(%rip)\n"
	"	movdqu %xmm8, seen+288(%rip)\n"
	"	movdqu %xmm9, seen+304(%rip)\n"
	"	movdqu %xmm10, seen+320(%rip)\n"
	"	movdqu %xmm11, seen+336(%rip)\n"
	"	movdqu %xmm12, seen+352(%rip)\n"
	"	movdqu %xmm13, seen+368(%rip)\n"
	"	movdqu %xmm14, seen+384(%rip)\n"
	"	movdqu %xmm15, seen+400(%rip)\n"
	"	cmpl $0, have_avx(%rip)\n"
	"	je 1f\n"
	"	vextractf128 $1, %ymm0, seen+416(%rip)\n"
	"	vextractf128 $1, %ymm1, seen+432(%rip)\n"
	"	vextractf128 $1, %ymm2, seen+448(%rip)\n"
	"	vextractf128 $1, %ymm3, seen+464(%rip)\n"
	"	vextractf128 $1, %ymm4, seen+480(%rip)\n"
	"	vextractf128 $1, %ymm5, seen+496(%rip)\n"
	"	vextractf128 $1, %ymm6, seen+512(%rip)\n"
	"	vextractf128 $1, %ymm7, seen+528(%rip)\n"
	"	vextractf128 $1, %ymm8, seen+544(%rip)\n"
	"	vextractf128 $1, %ymm9, seen+560(%rip)\n"
	"	vextractf128 $1, %ymm10, seen+576(%rip)\n"
	"	vextractf128 $1, %ymm11, seen+592(%rip)\n"
	"	vextractf128 $1, %ymm12, seen+608(%rip)\n"
	"	vextractf128 $1, %ymm13, seen+624(%rip)\n"
	"	vextractf128 $1, %ymm14, seen+640(%rip)\n"
	"	vextractf128 $1, %ymm15, seen+656(%rip)\n"
	/* the handler's own mess, for the interrupted code not to see */
	"	vpcmpeqd %ymm0, %ymm0, %ymm0\n"
	"	vpcmpeqd %ymm9, %ymm9, %ymm9\n"
	"1:	pcmpeqd %xmm3, %xmm3\n"
	"	pcmpeqd %xmm15, %xmm15\n"
	"	mov $-1, %rbx\n"
	"	mov $-1, %r12\n"
	"	addq $1, seen+672(%rip)\n"
	"	ret\n"
	".size entry_handler, .-entry_handler\n");

/* Before the call: xmm i = in[2i..2i+1], the upper ymm halves = hin,
 * MXCSR and FCW changed, CF and DF set, the general registers gin. After
 * it, all read back. */
struct block {
	uint64_t xin[32];	/* 0 */
	uint64_t xout[32];	/* 256 */
	uint64_t hin[32];	/* 512 */
	uint64_t hout[32];	/* 768 */
	uint64_t gin[8];	/* 1024: rbx r8 r9 r10 r12 r13 r14 r15 */
	uint64_t gout[8];	/* 1088 */
	uint32_t mx_in, mx_out; /* 1152 */
	uint16_t cw_in, cw_out; /* 1160 */
	uint32_t pad;
	uint64_t after; /* 1168: the address after the syscall */
	uint64_t pid;	/* 1176 */
};
struct block blk __attribute__((visibility("hidden")));

__attribute__((noinline)) static void kill_self(void)
{
	asm volatile("movdqu blk+0(%%rip), %%xmm0\n\t"
		     "movdqu blk+16(%%rip), %%xmm1\n\t"
		     "movdqu blk+32(%%rip), %%xmm2\n\t"
		     "movdqu blk+48(%%rip), %%xmm3\n\t"
		     "movdqu blk+64(%%rip), %%xmm4\n\t"
		     "movdqu blk+80(%%rip), %%xmm5\n\t"
		     "movdqu blk+96(%%rip), %%xmm6\n\t"
		     "movdqu blk+112(%%rip), %%xmm7\n\t"
		     "movdqu blk+128(%%rip), %%xmm8\n\t"
		     "movdqu blk+144(%%rip), %%xmm9\n\t"
		     "movdqu blk+160(%%rip), %%xmm10\n\t"
		     "movdqu blk+176(%%rip), %%xmm11\n\t"
		     "movdqu blk+192(%%rip), %%xmm12\n\t"
		     "movdqu blk+208(%%rip), %%xmm13\n\t"
		     "movdqu blk+224(%%rip), %%xmm14\n\t"
		     "movdqu blk+240(%%rip), %%xmm15\n\t"
		     "cmpl $0, have_avx(%%rip)\n\t"
		     "je 1f\n\t"
		     "vinsertf128 $1, blk+512(%%rip), %%ymm0, %%ymm0\n\t"
		     "vinsertf128 $1, blk+528(%%rip), %%ymm3, %%ymm3\n\t"
		     "vinsertf128 $1, blk+544(%%rip), %%ymm9, %%ymm9\n\t"
		     "vinsertf128 $1, blk+560(%%rip), %%ymm15, %%ymm15\n"
		     "1:\n\t"
		     "ldmxcsr blk+1152(%%rip)\n\t"
		     "fldcw blk+1160(%%rip)\n\t"
		     "lea 2f(%%rip), %%rax\n\t"
		     "mov %%rax, blk+1168(%%rip)\n\t"
		     "mov blk+1024(%%rip), %%rbx\n\t"
		     "mov blk+1032(%%rip), %%r8\n\t"
		     "mov blk+1040(%%rip), %%r9\n\t"
		     "mov blk+1048(%%rip), %%r10\n\t"
		     "mov blk+1056(%%rip), %%r12\n\t"
		     "mov blk+1064(%%rip), %%r13\n\t"
		     "mov blk+1072(%%rip), %%r14\n\t"
		     "mov blk+1080(%%rip), %%r15\n\t"
		     "mov blk+1176(%%rip), %%rdi\n\t"
		     "mov %[nr], %%eax\n\t"
		     "mov %[sig], %%esi\n\t"
		     "std\n\t"
		     "stc\n\t"
		     "syscall\n"
		     "2:\n\t"
		     "cld\n\t"
		     "mov %%rbx, blk+1088(%%rip)\n\t"
		     "mov %%r8, blk+1096(%%rip)\n\t"
		     "mov %%r9, blk+1104(%%rip)\n\t"
		     "mov %%r10, blk+1112(%%rip)\n\t"
		     "mov %%r12, blk+1120(%%rip)\n\t"
		     "mov %%r13, blk+1128(%%rip)\n\t"
		     "mov %%r14, blk+1136(%%rip)\n\t"
		     "mov %%r15, blk+1144(%%rip)\n\t"
		     "stmxcsr blk+1156(%%rip)\n\t"
		     "fnstcw blk+1162(%%rip)\n\t"
		     "movdqu %%xmm0, blk+256(%%rip)\n\t"
		     "movdqu %%xmm1, blk+272(%%rip)\n\t"
		     "movdqu %%xmm2, blk+288(%%rip)\n\t"
		     "movdqu %%xmm3, blk+304(%%rip)\n\t"
		     "movdqu %%xmm4, blk+320(%%rip)\n\t"
		     "movdqu %%xmm5, blk+336(%%rip)\n\t"
		     "movdqu %%xmm6, blk+352(%%rip)\n\t"
		     "movdqu %%xmm7, blk+368(%%rip)\n\t"
		     "movdqu %%xmm8, blk+384(%%rip)\n\t"
		     "movdqu %%xmm9, blk+400(%%rip)\n\t"
		     "movdqu %%xmm10, blk+416(%%rip)\n\t"
		     "movdqu %%xmm11, blk+432(%%rip)\n\t"
		     "movdqu %%xmm12, blk+448(%%rip)\n\t"
		     "movdqu %%xmm13, blk+464(%%rip)\n\t"
		     "movdqu %%xmm14, blk+480(%%rip)\n\t"
		     "movdqu %%xmm15, blk+496(%%rip)\n\t"
		     "cmpl $0, have_avx(%%rip)\n\t"
		     "je 3f\n\t"
		     "vextractf128 $1, %%ymm0, blk+768(%%rip)\n\t"
		     "vextractf128 $1, %%ymm3, blk+784(%%rip)\n\t"
		     "vextractf128 $1, %%ymm9, blk+800(%%rip)\n\t"
		     "vextractf128 $1, %%ymm15, blk+816(%%rip)\n\t"
		     "vzeroupper\n"
		     "3:\n\t"
		     :
		     : [nr] "i"(SYS_kill), [sig] "i"(SIGUSR1)
		     : "rax", "rbx", "rdi", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "r12",
		       "r13", "r14", "r15", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		       "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
		       "cc", "memory");
}

static void say(int ok, const char *what)
{
	printf("%s: %s\n", what, ok ? "yes" : "no");
}

int main(void)
{
	struct sigaction sa;
	uint32_t a, bx, c, d, lo = 0, hi = 0;
	int i, ok;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(bx), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	if (c & (1u << 27)) /* OSXSAVE: xgetbv says whether YMM state is on */
		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	have_avx = (c & (1u << 28)) && (lo & 6) == 6;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = entry_handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	for (i = 0; i < 32; i++) {
		blk.xin[i] = 0x0123456789abcdefULL * (i + 1) ^ ((uint64_t)i << 56);
		blk.hin[i] = 0x5a5a5a5a00000000ULL + (uint64_t)i;
	}
	for (i = 0; i < 8; i++)
		blk.gin[i] = 0xfedcba9876543210ULL + (uint64_t)i * 0x1111;
	blk.mx_in = 0x1f80 | 0x4000; /* round down */
	blk.cw_in = 0x077f;	     /* x87 round down */
	blk.pid = (uint64_t)getpid();
	kill_self();

	say(seen.calls == 1, "the handler ran once");
	say(seen.gpr[0] == 0, "rax is 0");
	say(seen.gpr[5] == SIGUSR1, "rdi is the signal");
	say(seen.gpr[3] == seen.gpr[7] + 8, "rdx is the ucontext, above the return address");
	say(seen.gpr[4] == seen.gpr[3] + 304, "rsi is the siginfo, after the ucontext");
	say(seen.signo == SIGUSR1, "the siginfo says the signal");
	say(seen.saved_rip == blk.after, "the ucontext's rip is after the syscall");
	say(seen.gpr[7] % 16 == 8, "rsp is 8 off a 16-byte boundary");
	ok = seen.gpr[1] == blk.gin[0] && seen.gpr[8] == blk.gin[1] && seen.gpr[9] == blk.gin[2] &&
	     seen.gpr[10] == blk.gin[3];
	for (i = 4; i < 8; i++)
		ok &= seen.gpr[8 + i] == blk.gin[i];
	say(ok, "rbx, r8-r10 and r12-r15 are the interrupted code's");
	say(seen.flags & 1, "CF is as it was");
	say(!(seen.flags & 0x400), "DF is clear");
	say(!(seen.flags & 0x100), "TF is clear");
	say((seen.mxcsr & 0xffbf) == 0x1f80, "MXCSR is 0x1f80");
	say(seen.fcw == 0x37f, "the x87 control word is 0x37f");
	ok = 1;
	for (i = 0; i < 32; i++)
		ok &= seen.xmm[i] == 0;
	say(ok, "xmm0-15 are zero");
	ok = 1;
	for (i = 0; i < 32; i++)
		ok &= seen.ymmh[i] == 0;
	say(ok, "the upper halves of ymm0-15 are zero (or there is no AVX)");

	ok = 1;
	for (i = 0; i < 32; i++)
		ok &= blk.xout[i] == blk.xin[i];
	say(ok, "after it: xmm0-15 are back");
	ok = 1;
	for (i = 0; i < 8 && have_avx; i++)
		ok &= blk.hout[i] == blk.hin[i];
	say(ok, "after it: the upper halves of ymm0, 3, 9, 15 are back (or there is no AVX)");
	ok = 1;
	for (i = 0; i < 8; i++)
		ok &= blk.gout[i] == blk.gin[i];
	say(ok, "after it: rbx, r8-r10 and r12-r15 are back");
	say((blk.mx_out & 0xffbf) == blk.mx_in, "after it: MXCSR is back");
	say(blk.cw_out == blk.cw_in, "after it: the x87 control word is back");
	return 0;
}
