/* GETREGSET/SETREGSET NT_X86_XSTATE: the tracee's whole XSAVE area in
 * the standard format (as big as CPUID leaf 0xd says for XCR0, the XCR0
 * at byte 464, xcomp_bv 0), the iovec's length clamped to it (and a
 * length that is no multiple of 8 EINVAL, for every regset); SETREGSET
 * takes only the whole area (EFAULT otherwise), refuses a bad header or
 * MXCSR (EINVAL, nothing changed), and sets the tracee's registers, a
 * component left out of xstate_bv in its init state. skas had no
 * NT_X86_XSTATE (EINVAL). */
#define _GNU_SOURCE
#include <cpuid.h>
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>

#include "tap.h"

#ifndef NT_X86_XSTATE
#define NT_X86_XSTATE 0x202
#endif

/* xs_run(pid, out): puts xs_val's 32 bytes in ymm7, stops itself (a raw
 * kill), stores ymm7 at out, stops again, stores it at out + 32. */
extern void xs_run(long pid, void *out);
uint64_t xs_val[4] = { 0x1111111111111111, 0x2222222222222222, 0x3333333333333333,
		       0x4444444444444444 };
__asm__(".text\n"
	"xs_run:\n"
	"	mov %rsi, %r8\n"
	"	mov %rdi, %r9\n"
	"	vmovdqu xs_val(%rip), %ymm7\n"
	"	mov $19, %esi\n"
	"	mov $62, %eax\n"
	"	syscall\n"
	"	vmovdqu %ymm7, (%r8)\n"
	"	mov %r9, %rdi\n"
	"	mov $19, %esi\n"
	"	mov $62, %eax\n"
	"	syscall\n"
	"	vmovdqu %ymm7, 32(%r8)\n"
	"	vzeroupper\n"
	"	ret\n");

static char buf[65536] __attribute__((aligned(64)));
static char orig[65536] __attribute__((aligned(64)));

static long regset(int req, pid_t pid, int type, void *base, size_t len, size_t *out_len)
{
	struct iovec iov = { base, len };
	long r = ptrace(req, pid, type, &iov);

	if (out_len)
		*out_len = iov.iov_len;
	return r;
}

static int has_avx(uint64_t *xcr0)
{
	unsigned a, b, c, d;
	uint32_t lo, hi;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)) || !(c & (1u << 28)))
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	*xcr0 = ((uint64_t)hi << 32) | lo;
	return (*xcr0 & 6) == 6;
}

#define XMM7 (160 + 7 * 16)

static int errno_of(long r)
{
	return r == -1 ? errno : 0;
}

/* The header and MXCSR checks: each refused, nothing changed. */
static void test_bad_sets(pid_t pid, size_t size, uint64_t xcr0)
{
	uint64_t *hdr = (uint64_t *)(buf + 512);
	uint32_t mxcsr;
	size_t len;
	int bit;

	memcpy(orig, buf, size);
	check(errno_of(regset(PTRACE_SETREGSET, pid, NT_X86_XSTATE, buf, size - 64, NULL)) ==
		      EFAULT,
	      "SETREGSET of less than the whole area: EFAULT");
	for (bit = 2; bit < 63 && (xcr0 >> bit & 1); bit++)
		;
	hdr[0] |= 1ULL << bit;
	check(errno_of(regset(PTRACE_SETREGSET, pid, NT_X86_XSTATE, buf, size, NULL)) == EINVAL,
	      "xstate_bv with a feature XCR0 lacks: EINVAL");
	memcpy(buf, orig, size);
	hdr[1] = 1;
	check(errno_of(regset(PTRACE_SETREGSET, pid, NT_X86_XSTATE, buf, size, NULL)) == EINVAL,
	      "xcomp_bv set (compacted): EINVAL");
	memcpy(buf, orig, size);
	buf[512 + 63] = 1;
	check(errno_of(regset(PTRACE_SETREGSET, pid, NT_X86_XSTATE, buf, size, NULL)) == EINVAL,
	      "a reserved header byte: EINVAL");
	memcpy(buf, orig, size);
	memcpy(&mxcsr, buf + 24, 4);
	mxcsr |= 1u << 31;
	memcpy(buf + 24, &mxcsr, 4);
	check(errno_of(regset(PTRACE_SETREGSET, pid, NT_X86_XSTATE, buf, size, NULL)) == EINVAL,
	      "a reserved MXCSR bit: EINVAL");
	memset(buf, 0, size);
	check(regset(PTRACE_GETREGSET, pid, NT_X86_XSTATE, buf, size, &len) == 0 &&
		      memcmp(buf, orig, size) == 0,
	      "nothing changed");
}

static void test_xstate(void)
{
	uint64_t xcr0 = 0, out[8], zero[6] = { 0 }, v[2];
	unsigned a, size = 0, ymm_off = 0, c, d;
	int res[2], st;
	size_t len;
	pid_t pid;

	if (!has_avx(&xcr0)) {
		printf("# no AVX: skipped\n");
		return;
	}
	__cpuid_count(0xd, 0, a, size, c, d);
	__cpuid_count(0xd, 2, a, ymm_off, c, d);
	(void)c;
	pipe(res);
	pid = fork();
	if (pid == 0) {
		close(res[0]);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		xs_run(getpid(), out);
		write(res[1], out, sizeof(out));
		_exit(0);
	}
	close(res[1]);
	st = 0;
	waitpid(pid, &st, 0);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, "the child stops with ymm7 set");

	check(regset(PTRACE_GETREGSET, pid, NT_X86_XSTATE, buf, sizeof(buf), &len) == 0,
	      "GETREGSET NT_X86_XSTATE");
	check(len == size, "its length: CPUID 0xd's size for XCR0");
	check(memcmp(buf + 464, &xcr0, 8) == 0, "byte 464: XCR0");
	check(memcmp(buf + 472, zero, 40) == 0, "bytes 472-511: zero");
	memcpy(v, buf + 512, 16);
	check((v[0] & ~xcr0) == 0 && (v[0] & 6) == 6, "xstate_bv: SSE and AVX in use, within XCR0");
	check(v[1] == 0, "xcomp_bv 0: the standard format");
	check(memcmp(buf + XMM7, &xs_val[0], 16) == 0, "xmm7 as the child set it");
	check(memcmp(buf + ymm_off + 7 * 16, &xs_val[2], 16) == 0,
	      "ymm7's upper half as the child set it");

	memset(orig, 0, sizeof(orig));
	check(regset(PTRACE_GETREGSET, pid, NT_X86_XSTATE, orig, 520, &len) == 0 && len == 520 &&
		      memcmp(orig, buf, 520) == 0 && orig[520] == 0,
	      "a shorter iovec: that much");
	check(errno_of(regset(PTRACE_GETREGSET, pid, NT_X86_XSTATE, orig, 13, NULL)) == EINVAL,
	      "a length no multiple of 8: EINVAL");
	check(errno_of(regset(PTRACE_GETREGSET, pid, NT_PRFPREG, orig, 12, NULL)) == EINVAL,
	      "NT_PRFPREG too: EINVAL");
	check(errno_of(regset(PTRACE_GETREGSET, pid, NT_PRSTATUS, orig, 20, NULL)) == EINVAL,
	      "NT_PRSTATUS too: EINVAL");

	test_bad_sets(pid, size, xcr0);

	/* New values for both halves, with a longer iovec (clamped). */
	v[0] = 0x5555555555555555, v[1] = 0x6666666666666666;
	memcpy(buf + XMM7, v, 16);
	v[0] = 0x7777777777777777, v[1] = 0x8888888888888888;
	memcpy(buf + ymm_off + 7 * 16, v, 16);
	check(regset(PTRACE_SETREGSET, pid, NT_X86_XSTATE, buf, sizeof(buf), &len) == 0 &&
		      len == size,
	      "SETREGSET with a longer iovec: the whole area, length clamped");
	memset(orig, 0, sizeof(orig));
	regset(PTRACE_GETREGSET, pid, NT_X86_XSTATE, orig, sizeof(orig), &len);
	check(memcmp(orig + XMM7, buf + XMM7, 16) == 0 &&
		      memcmp(orig + ymm_off + 7 * 16, buf + ymm_off + 7 * 16, 16) == 0,
	      "GETREGSET reads them back");
	ptrace(PTRACE_CONT, pid, 0, 0);
	st = 0;
	waitpid(pid, &st, 0);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, "the second stop");

	/* Without AVX in xstate_bv: the upper halves go to their init state. */
	regset(PTRACE_GETREGSET, pid, NT_X86_XSTATE, buf, sizeof(buf), &len);
	memcpy(v, buf + 512, 8);
	v[0] &= ~4ULL;
	memcpy(buf + 512, v, 8);
	v[0] = 0x9999999999999999, v[1] = 0xaaaaaaaaaaaaaaaa;
	memcpy(buf + XMM7, v, 16);
	check(regset(PTRACE_SETREGSET, pid, NT_X86_XSTATE, buf, size, NULL) == 0,
	      "SETREGSET without AVX in xstate_bv");
	ptrace(PTRACE_CONT, pid, 0, 0);
	memset(out, 0, sizeof(out));
	check(read(res[0], out, sizeof(out)) == sizeof(out), "the child reports");
	check(out[0] == 0x5555555555555555 && out[1] == 0x6666666666666666 &&
		      out[2] == 0x7777777777777777 && out[3] == 0x8888888888888888,
	      "the child's ymm7 after the first SETREGSET");
	check(out[4] == 0x9999999999999999 && out[5] == 0xaaaaaaaaaaaaaaaa && out[6] == 0 &&
		      out[7] == 0,
	      "after the second: the xmm7 set, the upper half zero");
	st = 0;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child exits 0");
	close(res[0]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_xstate();
	return 0;
}
