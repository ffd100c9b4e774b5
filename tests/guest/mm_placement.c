/* Where mmap puts a mapping without a hint: Linux's top-down first fit
 * below the mmap base, the same with many VMAs in the way (skas keeps a
 * hint past packed ranges, mm_unmapped_area), after holes open and after
 * mappings that failed. Addresses differ from run to run (ASLR), so only
 * relations between them are printed. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "tap.h"

#define PG 4096UL

static char *map(size_t len, int prot)
{
	char *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

int main(void)
{
	enum { PACKED = 3000 };
	static char *pages[PACKED];
	char *a, *b, *c, *d, *e, *lowest;
	struct rlimit old, rl;
	int i, fails = 0;

	setvbuf(stdout, NULL, _IONBF, 0);

	/* Single pages that do not merge: packed top-down, each right
	 * below the one before (once the holes the loader left above are
	 * filled: the first 64 may go there). */
	for (i = 0; i < PACKED; i++)
		pages[i] = map(PG, i & 1 ? PROT_READ : PROT_NONE);
	for (i = 65; i < PACKED; i++)
		if (!pages[i] || pages[i] != pages[i - 1] - PG)
			break;
	check(i == PACKED, "single pages are placed top-down, packed");
	lowest = pages[PACKED - 1];

	a = map(16 * PG, PROT_READ | PROT_WRITE);
	check(a == lowest - 16 * PG, "the next mapping goes right below them");
	check(munmap(a, 16 * PG) == 0, "munmap");
	b = map(16 * PG, PROT_READ | PROT_WRITE);
	check(b == a, "the same size again gets the same address back");
	munmap(b, 16 * PG);

	/* A hole in the packed range, two pages wide: a two-page mapping
	 * fills it (the highest fit), a larger one goes below everything. */
	munmap(pages[100], PG);
	munmap(pages[101], PG);
	c = map(2 * PG, PROT_READ);
	check(c == pages[101], "a hole inside the packed range is filled first");
	d = map(4 * PG, PROT_READ);
	check(d == lowest - 4 * PG, "a larger mapping skips the too-small holes");
	munmap(c, 2 * PG);
	munmap(d, 4 * PG);
	munmap(pages[102], PG);
	e = map(3 * PG, PROT_READ);
	check(e == pages[102], "a hole grown by a munmap is found again");
	munmap(e, 3 * PG);

	/* Mappings that fail (over RLIMIT_AS) leave no trace: afterwards a
	 * mapping goes where it would have. */
	getrlimit(RLIMIT_AS, &old);
	rl = old;
	rl.rlim_cur = 1UL << 36;
	if (setrlimit(RLIMIT_AS, &rl) != 0) {
		perror("setrlimit");
		return 1;
	}
	for (i = 0; i < 200; i++)
		if (mmap(NULL, 1UL << 37, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) ==
			    MAP_FAILED &&
		    errno == ENOMEM)
			fails++;
	check(fails == 200, "mappings over RLIMIT_AS fail with ENOMEM");
	setrlimit(RLIMIT_AS, &old);
	a = map(16 * PG, PROT_READ | PROT_WRITE);
	check(a == lowest - 16 * PG, "after them a mapping goes where it would have");
	/* (Linux 6.7+ aligns it to 2 MiB, so not always right below.) */
	b = map(1UL << 30, PROT_NONE);
	check(b && b + (1UL << 30) <= a && b + (1UL << 30) > a - (2UL << 20),
	      "a large one below it");
	munmap(a, 16 * PG);
	munmap(b, 1UL << 30);

	/* A range freed above the packed pages: found first again. */
	for (i = 0; i < 10; i++)
		munmap(pages[i], PG);
	a = map(10 * PG, PROT_READ);
	check(a == pages[9], "the freed range at the top is reused");
	return 0;
}
