/* A fork, a vfork and a new thread (clone with CLONE_VM) start with the
 * FPU/SSE/AVX state of the thread that made them, as in Linux: xmm0-15,
 * the upper halves of ymm0-15, MXCSR and the x87 control word, set just
 * before a raw system call, are the same in the child as in the parent
 * after it. skas hands the state over in the stub that makes the new
 * host thread (the kernel's batch loads it there first). */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* xmm at 0, the upper ymm halves at 256, then MXCSR, the x87 control
 * word and the child's done flag. */
struct fvals {
	uint64_t x[16][2];
	uint64_t yh[16][2];
	uint32_t mxcsr;
	uint16_t fcw;
	uint16_t pad;
	volatile uint32_t done;
};

static int have_avx;

/* Loads in's state, makes the call (nr, a1, a2: clone's flags and stack),
 * and stores the state in child (then exits the thread or process with
 * exit(0), flagging done) or in parent. Returns the call's result. */
static long call_with_state(long nr, long a1, long a2, const struct fvals *in, struct fvals *parent,
			    struct fvals *child)
{
	long ret;
	register long r10 asm("r10") = 0;
	register long r8 asm("r8") = 0;
	register struct fvals *r12 asm("r12") = child;
	register struct fvals *r13 asm("r13") = parent;
	register long r14 asm("r14") = have_avx;
	const struct fvals *src = in;

	asm volatile("ldmxcsr 512(%%rsi)\n\t"
		     "fldcw 516(%%rsi)\n\t"
		     "movdqu 0(%%rsi), %%xmm0\n\t"
		     "movdqu 16(%%rsi), %%xmm1\n\t"
		     "movdqu 32(%%rsi), %%xmm2\n\t"
		     "movdqu 48(%%rsi), %%xmm3\n\t"
		     "movdqu 64(%%rsi), %%xmm4\n\t"
		     "movdqu 80(%%rsi), %%xmm5\n\t"
		     "movdqu 96(%%rsi), %%xmm6\n\t"
		     "movdqu 112(%%rsi), %%xmm7\n\t"
		     "movdqu 128(%%rsi), %%xmm8\n\t"
		     "movdqu 144(%%rsi), %%xmm9\n\t"
		     "movdqu 160(%%rsi), %%xmm10\n\t"
		     "movdqu 176(%%rsi), %%xmm11\n\t"
		     "movdqu 192(%%rsi), %%xmm12\n\t"
		     "movdqu 208(%%rsi), %%xmm13\n\t"
		     "movdqu 224(%%rsi), %%xmm14\n\t"
		     "movdqu 240(%%rsi), %%xmm15\n\t"
		     "test %%r14, %%r14\n\t"
		     "jz 1f\n\t"
		     "vinsertf128 $1, 256(%%rsi), %%ymm0, %%ymm0\n\t"
		     "vinsertf128 $1, 272(%%rsi), %%ymm1, %%ymm1\n\t"
		     "vinsertf128 $1, 288(%%rsi), %%ymm2, %%ymm2\n\t"
		     "vinsertf128 $1, 304(%%rsi), %%ymm3, %%ymm3\n\t"
		     "vinsertf128 $1, 320(%%rsi), %%ymm4, %%ymm4\n\t"
		     "vinsertf128 $1, 336(%%rsi), %%ymm5, %%ymm5\n\t"
		     "vinsertf128 $1, 352(%%rsi), %%ymm6, %%ymm6\n\t"
		     "vinsertf128 $1, 368(%%rsi), %%ymm7, %%ymm7\n\t"
		     "vinsertf128 $1, 384(%%rsi), %%ymm8, %%ymm8\n\t"
		     "vinsertf128 $1, 400(%%rsi), %%ymm9, %%ymm9\n\t"
		     "vinsertf128 $1, 416(%%rsi), %%ymm10, %%ymm10\n\t"
		     "vinsertf128 $1, 432(%%rsi), %%ymm11, %%ymm11\n\t"
		     "vinsertf128 $1, 448(%%rsi), %%ymm12, %%ymm12\n\t"
		     "vinsertf128 $1, 464(%%rsi), %%ymm13, %%ymm13\n\t"
		     "vinsertf128 $1, 480(%%rsi), %%ymm14, %%ymm14\n\t"
		     "vinsertf128 $1, 496(%%rsi), %%ymm15, %%ymm15\n\t"
		     "1:\n\t"
		     "mov %[a1], %%rdi\n\t"
		     "mov %[a2], %%rsi\n\t"
		     "xor %%edx, %%edx\n\t"
		     "syscall\n\t"
		     "test %%rax, %%rax\n\t"
		     "jnz 3f\n\t"
		     "movdqu %%xmm0, 0(%%r12)\n\t"
		     "movdqu %%xmm1, 16(%%r12)\n\t"
		     "movdqu %%xmm2, 32(%%r12)\n\t"
		     "movdqu %%xmm3, 48(%%r12)\n\t"
		     "movdqu %%xmm4, 64(%%r12)\n\t"
		     "movdqu %%xmm5, 80(%%r12)\n\t"
		     "movdqu %%xmm6, 96(%%r12)\n\t"
		     "movdqu %%xmm7, 112(%%r12)\n\t"
		     "movdqu %%xmm8, 128(%%r12)\n\t"
		     "movdqu %%xmm9, 144(%%r12)\n\t"
		     "movdqu %%xmm10, 160(%%r12)\n\t"
		     "movdqu %%xmm11, 176(%%r12)\n\t"
		     "movdqu %%xmm12, 192(%%r12)\n\t"
		     "movdqu %%xmm13, 208(%%r12)\n\t"
		     "movdqu %%xmm14, 224(%%r12)\n\t"
		     "movdqu %%xmm15, 240(%%r12)\n\t"
		     "test %%r14, %%r14\n\t"
		     "jz 2f\n\t"
		     "vextractf128 $1, %%ymm0, 256(%%r12)\n\t"
		     "vextractf128 $1, %%ymm1, 272(%%r12)\n\t"
		     "vextractf128 $1, %%ymm2, 288(%%r12)\n\t"
		     "vextractf128 $1, %%ymm3, 304(%%r12)\n\t"
		     "vextractf128 $1, %%ymm4, 320(%%r12)\n\t"
		     "vextractf128 $1, %%ymm5, 336(%%r12)\n\t"
		     "vextractf128 $1, %%ymm6, 352(%%r12)\n\t"
		     "vextractf128 $1, %%ymm7, 368(%%r12)\n\t"
		     "vextractf128 $1, %%ymm8, 384(%%r12)\n\t"
		     "vextractf128 $1, %%ymm9, 400(%%r12)\n\t"
		     "vextractf128 $1, %%ymm10, 416(%%r12)\n\t"
		     "vextractf128 $1, %%ymm11, 432(%%r12)\n\t"
		     "vextractf128 $1, %%ymm12, 448(%%r12)\n\t"
		     "vextractf128 $1, %%ymm13, 464(%%r12)\n\t"
		     "vextractf128 $1, %%ymm14, 480(%%r12)\n\t"
		     "vextractf128 $1, %%ymm15, 496(%%r12)\n\t"
		     "2:\n\t"
		     "stmxcsr 512(%%r12)\n\t"
		     "fnstcw 516(%%r12)\n\t"
		     "movl $1, 520(%%r12)\n\t"
		     "mov $60, %%eax\n\t"
		     "xor %%edi, %%edi\n\t"
		     "syscall\n\t"
		     "hlt\n"
		     "3:\n\t"
		     "movdqu %%xmm0, 0(%%r13)\n\t"
		     "movdqu %%xmm1, 16(%%r13)\n\t"
		     "movdqu %%xmm2, 32(%%r13)\n\t"
		     "movdqu %%xmm3, 48(%%r13)\n\t"
		     "movdqu %%xmm4, 64(%%r13)\n\t"
		     "movdqu %%xmm5, 80(%%r13)\n\t"
		     "movdqu %%xmm6, 96(%%r13)\n\t"
		     "movdqu %%xmm7, 112(%%r13)\n\t"
		     "movdqu %%xmm8, 128(%%r13)\n\t"
		     "movdqu %%xmm9, 144(%%r13)\n\t"
		     "movdqu %%xmm10, 160(%%r13)\n\t"
		     "movdqu %%xmm11, 176(%%r13)\n\t"
		     "movdqu %%xmm12, 192(%%r13)\n\t"
		     "movdqu %%xmm13, 208(%%r13)\n\t"
		     "movdqu %%xmm14, 224(%%r13)\n\t"
		     "movdqu %%xmm15, 240(%%r13)\n\t"
		     "test %%r14, %%r14\n\t"
		     "jz 4f\n\t"
		     "vextractf128 $1, %%ymm0, 256(%%r13)\n\t"
		     "vextractf128 $1, %%ymm1, 272(%%r13)\n\t"
		     "vextractf128 $1, %%ymm2, 288(%%r13)\n\t"
		     "vextractf128 $1, %%ymm3, 304(%%r13)\n\t"
		     "vextractf128 $1, %%ymm4, 320(%%r13)\n\t"
		     "vextractf128 $1, %%ymm5, 336(%%r13)\n\t"
		     "vextractf128 $1, %%ymm6, 352(%%r13)\n\t"
		     "vextractf128 $1, %%ymm7, 368(%%r13)\n\t"
		     "vextractf128 $1, %%ymm8, 384(%%r13)\n\t"
		     "vextractf128 $1, %%ymm9, 400(%%r13)\n\t"
		     "vextractf128 $1, %%ymm10, 416(%%r13)\n\t"
		     "vextractf128 $1, %%ymm11, 432(%%r13)\n\t"
		     "vextractf128 $1, %%ymm12, 448(%%r13)\n\t"
		     "vextractf128 $1, %%ymm13, 464(%%r13)\n\t"
		     "vextractf128 $1, %%ymm14, 480(%%r13)\n\t"
		     "vextractf128 $1, %%ymm15, 496(%%r13)\n\t"
		     "vzeroupper\n"
		     "4:\n\t"
		     "stmxcsr 512(%%r13)\n\t"
		     "fnstcw 516(%%r13)\n\t"
		     "ldmxcsr mxcsr_default(%%rip)\n\t"
		     "fninit\n\t"
		     : "=a"(ret), "+S"(src)
		     : "0"(nr), [a1] "r"(a1), [a2] "r"(a2), "r"(r10), "r"(r8), "r"(r12), "r"(r13),
		       "r"(r14)
		     : "rdi", "rdx", "rcx", "r11", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",
		       "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
		       "xmm14", "xmm15", "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)",
		       "st(7)");
	return ret;
}

asm(".section .rodata\n"
    "mxcsr_default: .long 0x1f80\n"
    ".text\n");

static void fill(struct fvals *v, unsigned seed)
{
	int i;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < 16; i++) {
		v->x[i][0] = 0x0101010101010101ULL * (seed + i) ^ 0x1234;
		v->x[i][1] = 0x1111111111111111ULL * (i + 1) + seed;
		v->yh[i][0] = 0xa5a5a5a5a5a5a5a5ULL ^ ((uint64_t)i << 8) ^ seed;
		v->yh[i][1] = 0x5a5a5a5a5a5a5a5aULL + i * 77 + seed;
	}
	v->mxcsr = 0x1f80 | 0x6000 | 0x8040; /* round toward zero, FTZ, DAZ */
	v->fcw = 0x27f;			     /* double precision */
}

static const char *same(const struct fvals *a, const struct fvals *b)
{
	int i;

	for (i = 0; i < 16; i++)
		if (memcmp(a->x[i], b->x[i], 16) != 0)
			return "an xmm register differs";
	if (have_avx)
		for (i = 0; i < 16; i++)
			if (memcmp(a->yh[i], b->yh[i], 16) != 0)
				return "an upper ymm half differs";
	if (a->mxcsr != b->mxcsr)
		return "MXCSR differs";
	if (a->fcw != b->fcw)
		return "the x87 control word differs";
	return "the same";
}

int main(void)
{
	uint32_t a, b, c, d, lo = 0, hi = 0;
	struct fvals in, parent, *child;
	char *stack;
	long ret;
	int st, round, k;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	if (c & (1u << 27))
		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	have_avx = (c & (1u << 28)) && (lo & 6) == 6;
	child = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	stack = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (child == MAP_FAILED || stack == MAP_FAILED)
		return 1;

	for (round = 0; round < 3; round++) {
		for (k = 0; k < 2; k++) {
			const char *name = k ? "vfork" : "fork";

			fill(&in, 3 + 40 * k + round);
			memset(child, 0, sizeof(*child));
			ret = call_with_state(k ? SYS_vfork : SYS_fork, 0, 0, &in, &parent, child);
			if (ret < 0 || waitpid((pid_t)ret, &st, 0) != ret) {
				printf("%s failed\n", name);
				return 1;
			}
			printf("%s %d: the parent's state after it: %s\n", name, round,
			       same(&in, &parent));
			printf("%s %d: the child's: %s\n", name, round,
			       child->done ? same(&in, child) : "none");
		}

		fill(&in, 90 + round);
		memset(child, 0, sizeof(*child));
		ret = call_with_state(SYS_clone,
				      CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
					      CLONE_THREAD | CLONE_SYSVSEM,
				      (long)(stack + 65536 - 64), &in, &parent, child);
		if (ret < 0) {
			printf("clone failed\n");
			return 1;
		}
		while (!child->done)
			sched_yield();
		printf("thread %d: the parent's state after it: %s\n", round, same(&in, &parent));
		printf("thread %d: the new thread's: %s\n", round, same(&in, child));
	}
	return 0;
}
