/* brk semantics through the raw syscall: brk(0) reports the break, growing
 * maps zeroed writable memory, shrinking unmaps it, and an impossible request
 * leaves the break unchanged and returns it. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "tap.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define PG 4096UL
/* stdout gets a static buffer so that printf never mallocs (glibc's malloc
 * uses brk and would not expect us to move the break behind its back). */
static char outbuf[1 << 16];

static unsigned long sbrk_raw(unsigned long addr)
{
	return (unsigned long)syscall(SYS_brk, addr);
}

static int all_zero(const unsigned char *p, unsigned long len)
{
	unsigned long i;

	for (i = 0; i < len; i++)
		if (p[i])
			return 0;
	return 1;
}

int main(void)
{
	unsigned long cur, top, want, r, i, pages;
	unsigned char *p;
	int ok;
	void *m;

	setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);

	cur = sbrk_raw(0);
	check(cur != 0 && cur != (unsigned long)-1, "brk(0) returns the current break");
	check(sbrk_raw(0) == cur, "brk(0) is stable");

	/* the break need not be page-aligned; whole pages above it are fresh */
	top = (cur + PG - 1) & ~(PG - 1);
	want = top + 4 * PG + 123;
	r = sbrk_raw(want);
	check(r == want, "growing returns exactly the requested (unaligned) break");
	check(sbrk_raw(0) == want, "brk(0) reports the new break");
	p = (unsigned char *)top;
	check(all_zero(p, 4 * PG + 123), "new brk memory is zero");
	memset(p, 0xa5, 4 * PG + 123);
	ok = 1;
	for (i = 0; i < 4 * PG + 123; i++)
		if (p[i] != 0xa5)
			ok = 0;
	check(ok, "new brk memory is writable");
	/* the rest of the last page is usable too (brk maps whole pages) */
	p[4 * PG + PG - 1] = 1;
	check(p[4 * PG + PG - 1] == 1, "the tail of the last brk page is writable");

	/* shrink by two pages: the freed pages are unmapped */
	want = top + 2 * PG;
	r = sbrk_raw(want);
	check(r == want, "shrinking returns the new break");
	errno = 0;
	check(mprotect(p + 3 * PG, PG, PROT_READ | PROT_WRITE) == -1 && errno == ENOMEM,
	      "pages above the shrunk break are unmapped (mprotect -> ENOMEM)");
	check(p[PG] == 0xa5, "memory below the shrunk break is kept");

	/* grow again: the re-grown pages are zero, not the old contents */
	want = top + 5 * PG;
	r = sbrk_raw(want);
	check(r == want, "growing again works");
	check(all_zero(p + 2 * PG, 3 * PG), "re-grown pages are zero");
	check(p[PG] == 0xa5, "memory below the old break still kept");

	/* absurd requests: the break stays and is returned */
	cur = sbrk_raw(0);
	check(sbrk_raw(1UL << 47) == cur, "brk(1<<47) returns the old break");
	check(sbrk_raw(0) == cur, "break unchanged after brk(1<<47)");
	check(sbrk_raw(0xffff800000000000UL) == cur, "brk(kernel address) returns the old break");
	check(sbrk_raw(1) == cur, "brk(1) (below the start) returns the old break");
	check(sbrk_raw(0) == cur, "break unchanged after brk(1)");
	check(sbrk_raw(cur - (1UL << 40)) == cur, "brk far below the start returns the old break");

	/* a mapping right above the break blocks growing into it */
	top = (cur + PG - 1) & ~(PG - 1);
	m = mmap((void *)(top + 16 * PG), PG, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	check(m == (void *)(top + 16 * PG), "mmap a page 16 pages above the break");
	if (m != MAP_FAILED) {
		check(sbrk_raw(top + 32 * PG) == cur,
		      "brk across an existing mapping fails (returns the old break)");
		/* Linux keeps a one-page gap between the break and the next
		 * mapping: growing right up to the mapping fails too. */
		check(sbrk_raw(top + 16 * PG) == cur,
		      "brk up to the mapping's start fails (guard page)");
		check(sbrk_raw(top + 15 * PG) == top + 15 * PG,
		      "brk to one page below the mapping works");
		check(sbrk_raw(top + 15 * PG + 1) == top + 15 * PG, "brk one byte further fails");
		check(sbrk_raw(cur) == cur, "brk back down works");
		munmap(m, PG);
	}

	/* many small steps up and back down */
	ok = 1;
	for (pages = 1; pages <= 64; pages++) {
		want = cur + pages * 1000;
		if (sbrk_raw(want) != want)
			ok = 0;
		((volatile char *)want)[-1] = 1;
	}
	check(ok, "64 small growth steps each succeed and are writable");
	check(sbrk_raw(cur) == cur, "back to the starting break");
	check(sbrk_raw(0) == cur, "brk(0) agrees");
	return 0;
}
