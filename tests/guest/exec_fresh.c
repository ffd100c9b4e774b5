/* What an exec leaves of the old program: nothing. The program re-execs
 * itself (/proc/self/exe) through stages: a page it mapped at a fixed
 * address is gone, the FPU/SSE control state is back to its initial
 * values (MXCSR 0x1f80, x87 control word 0x37f, the x87 stack empty; at
 * the first exec and at one after it), a vDSO the old program
 * patched is not the new one's, memory at the top of the range is gone,
 * the vDSO works after a chain of execs and after the old program
 * unmapped its own, and /proc/self/maps names no second [vdso]. skas keeps a
 * single-threaded process's stub and host thread across an exec
 * (mm_create_recycled): these are what that must wipe. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define TAP_FLUSH
#include "tap.h"

#define MARK_ADDR ((void *)0x5a5a0000000UL)
#define TOP_ADDR  ((void *)0x7fffff800000UL)

/* The checks go on counting from where the last image stopped. */
static void reexec(const char *stage)
{
	char count[16];
	char *argv[] = { "exec_fresh", (char *)stage, count, NULL };

	snprintf(count, sizeof(count), "%d", n);
	execv("/proc/self/exe", argv);
	perror("execv");
	exit(1);
}

static uint32_t get_mxcsr(void)
{
	uint32_t v;

	__asm__ volatile("stmxcsr %0" : "=m"(v));
	return v;
}

static uint16_t get_fcw(void)
{
	uint16_t v;

	__asm__ volatile("fnstcw %0" : "=m"(v));
	return v;
}

/* The x87 stack's top (FSW bits 11-13): 0 when empty. */
static unsigned get_x87_top(void)
{
	uint16_t v;

	__asm__ volatile("fnstsw %0" : "=m"(v));
	return (v >> 11) & 7;
}

/* Round toward zero, all exceptions unmasked but the precision one; x87
 * at single precision, a value left on its stack. */
static void set_fpu_modes(void)
{
	uint32_t mx = 0x6000 | 0x1000;
	uint16_t cw = 0x007f;

	__asm__ volatile("ldmxcsr %0" ::"m"(mx));
	__asm__ volatile("fldcw %0" ::"m"(cw));
	__asm__ volatile("fld1" ::: "st");
}

/* [vdso] is whole and clock_gettime agrees with the syscall. */
static int vdso_ok(void)
{
	struct timespec a, b;

	if (!getauxval(AT_SYSINFO_EHDR))
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &a);
	b = a;
	return clock_gettime(CLOCK_MONOTONIC, &b) == 0 &&
	       (b.tv_sec > a.tv_sec || (b.tv_sec == a.tv_sec && b.tv_nsec >= a.tv_nsec));
}

/* Lines of /proc/self/maps naming [vdso] (the old one must not stay). */
static int count_maps(const char *name)
{
	char line[512];
	int c = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, name))
			c++;
	fclose(f);
	return c;
}

static void unmap_vdso(void)
{
	char line[512];
	unsigned long lo, hi;
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f))
		if ((strstr(line, "[vdso]") || strstr(line, "[vvar")) &&
		    sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			munmap((void *)lo, hi - lo);
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	const char *stage = argc > 1 ? argv[1] : "start";
	int top_mapped;
	void *p;

	if (argc > 2)
		n = atoi(argv[2]);
	if (strcmp(stage, "start") == 0) {
		p = mmap(MARK_ADDR, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		if (p != MARK_ADDR)
			return 1;
		memcpy(p, "old image", 10);
		set_fpu_modes();
		/* A byte of the vDSO's ELF padding patched through a writable
		 * mapping of it; memory at the very top of the range (where
		 * skas's stub lives below), if it is free here. */
		char *vdso = (char *)getauxval(AT_SYSINFO_EHDR);

		if (vdso && mprotect(vdso, 4096, PROT_READ | PROT_WRITE | PROT_EXEC) == 0) {
			vdso[10] = 0x5a;
			mprotect(vdso, 4096, PROT_READ | PROT_EXEC);
		}
		p = mmap(TOP_ADDR, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | 0x100000, -1, 0);
		top_mapped = p == TOP_ADDR;
		if (top_mapped)
			memcpy(p, "old image", 10);
		reexec(top_mapped ? "second-top" : "second");
	}
	if (strncmp(stage, "second", 6) == 0) {
		char *vdso = (char *)getauxval(AT_SYSINFO_EHDR);

		check(!vdso || vdso[10] == 0, "the vDSO is the pristine one, not the patched one");
		if (strcmp(stage, "second-top") == 0) {
			p = mmap(TOP_ADDR, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | 0x100000,
				 -1, 0);
			check(p == TOP_ADDR, "memory the old image had at the top is gone");
		} else {
			check(1,
			      "memory the old image had at the top is gone (none was free there)");
		}
		p = mmap(MARK_ADDR, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | 0x100000, -1, 0);
		check(p == MARK_ADDR, "a page the old image mapped is gone (MAP_FIXED_NOREPLACE)");
		check(p == MARK_ADDR && memcmp(p, "old image", 10) != 0,
		      "and it reads as fresh zeroes");
		check(get_mxcsr() == 0x1f80, "MXCSR back to 0x1f80");
		check(get_fcw() == 0x37f, "x87 control word back to 0x37f");
		check(get_x87_top() == 0, "the x87 stack empty");
		check(vdso_ok() && count_maps("[vdso]") == 1, "one working vDSO after an exec");
		/* Again, for an exec that is not the first: the FPU's initial
		 * state is not the previous exec's alone. */
		set_fpu_modes();
		reexec("third");
	}
	if (strcmp(stage, "third") == 0) {
		check(vdso_ok() && count_maps("[vdso]") == 1, "one working vDSO after two execs");
		check(get_mxcsr() == 0x1f80, "MXCSR back to 0x1f80 at a second exec");
		check(get_fcw() == 0x37f, "x87 control word back to 0x37f at a second exec");
		check(get_x87_top() == 0, "the x87 stack empty at a second exec");
		unmap_vdso();
		check(count_maps("[vdso]") == 0, "the program unmapped its vDSO");
		reexec("fourth");
	}
	if (strcmp(stage, "fourth") == 0) {
		check(vdso_ok() && count_maps("[vdso]") == 1,
		      "a working vDSO again after an exec from a program without one");
		return 0;
	}
	return 1;
}
