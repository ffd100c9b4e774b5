/* mremap of anonymous memory that was moved, then grown in place, then
 * moved again (glibc's realloc of a big buffer does it: shuf reading
 * 300000 lines from a pipe). skas mapped the in-place growth as a second
 * host mapping beside the moved one; their page offsets do not continue
 * each other, so the host kept two mappings, and the next move of both
 * failed on the host: the guest's memory was gone and shuf died of
 * SIGSEGV. Each step's contents must survive. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>

#define TAP_FLUSH
#include "tap.h"

#define PG 4096UL

static void fill(unsigned char *p, size_t len, int v)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(v + i / PG);
}

static int holds(const unsigned char *p, size_t len, int v)
{
	for (size_t i = 0; i < len; i += 512)
		if (p[i] != (unsigned char)(v + i / PG))
			return 0;
	return 1;
}

int main(void)
{
	size_t a = 4 * PG, b = 8 * PG, c = 16 * PG, d = 64 * PG;
	unsigned char *base, *p, *q, *r, *s;
	int round;

	for (round = 0; round < 3; round++) {
		base = mmap(NULL, 8 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		check(base != MAP_FAILED, "reserve a range");
		munmap(base, 8 << 20);
		/* p with a page right after it: growing p must move it */
		p = mmap(base, a, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
			 -1, 0);
		mmap(base + a, PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		fill(p, a, 1);
		q = mremap(p, a, b, MREMAP_MAYMOVE | MREMAP_FIXED, base + (1 << 20));
		check(q == base + (1 << 20) && holds(q, a, 1), "moved with its contents");
		fill(q, b, 2);
		r = mremap(q, b, c, MREMAP_MAYMOVE);
		check(r == q && holds(r, b, 2), "grown in place with its contents");
		fill(r, c, 3);
		mmap(r + c, PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		s = mremap(r, c, d, MREMAP_MAYMOVE);
		check(s != MAP_FAILED && s != r, "the grown mapping moves whole");
		check(holds(s, c, 3), "and keeps the contents of both parts");
		fill(s, d, 4);
		check(holds(s, d, 4), "its new part is writable");
		/* and back down, then in place again */
		s = mremap(s, d, b, 0);
		check(holds(s, b, 4), "shrunk in place");
		munmap(s, b);
		munmap(base, 2 << 20);
	}
	return 0;
}
