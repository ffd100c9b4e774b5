/* mremap of an address where nothing is mapped is EFAULT whatever the
 * lengths, as Linux 6.18's check_prep_vma has it: a shrink and a
 * same-size call too (older kernels returned the address for those, and
 * so did skas), a grow, a move, a duplicate (old_size 0) and a fixed
 * move; a shrink from a length past the user range too (the EFAULT comes
 * first), and at the top of the user range, where skas keeps its stub,
 * nothing is mapped as far as mremap can tell. Only the start must be mapped: a shrink whose range crosses a
 * hole works, one that starts in a hole is EFAULT, and the mapping after
 * the hole loses the tail. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>

#define TAP_ENAME
#include "tap.h"

#define PG 4096UL

static int remap_err(void *old, size_t old_len, size_t new_len, int flags, void *to)
{
	void *r = mremap(old, old_len, new_len, flags, to);

	return r == MAP_FAILED ? -1 : 0;
}

int main(void)
{
	char *p = mmap(NULL, 8 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *hole, *r;

	check(p != MAP_FAILED, "mmap 8 pages");
	munmap(p, 8 * PG);
	check_err(remap_err(p, 2 * PG, PG, 0, NULL), EFAULT, "shrink of an unmapped address");
	check_err(remap_err(p, PG, PG, 0, NULL), EFAULT, "same size at an unmapped address");
	check_err(remap_err(p, PG, 2 * PG, 0, NULL), EFAULT, "grow of an unmapped address");
	check_err(remap_err(p, PG, 2 * PG, MREMAP_MAYMOVE, NULL), EFAULT,
		  "grow with MREMAP_MAYMOVE of an unmapped address");
	check_err(remap_err(p, 0, PG, MREMAP_MAYMOVE, NULL), EFAULT,
		  "duplicate (old_size 0) of an unmapped address");
	check_err(remap_err(p, PG, PG, MREMAP_MAYMOVE | MREMAP_FIXED, p + 6 * PG), EFAULT,
		  "fixed move of an unmapped address");
	check_err(remap_err(p, (size_t)-8192, PG, 0, NULL), EFAULT,
		  "shrink of an unmapped address from a length past the user range");
	{
		/* where skas's stub may be: nothing the guest can see */
		static const unsigned long high[] = { 0x7ffffe000000UL, 0x7fffff000000UL };
		unsigned char vec;
		int ok = 1;

		for (int i = 0; i < 2; i++) {
			void *a = (void *)high[i];

			if (mincore(a, PG, &vec) == 0 || errno != ENOMEM)
				continue; /* something of ours is there */
			ok &= mremap(a, PG, PG, 0) == MAP_FAILED && errno == EFAULT;
		}
		check(ok, "same size at an address near the top with nothing mapped: EFAULT");
	}

	hole = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(hole != MAP_FAILED, "mmap 3 pages");
	munmap(hole + PG, PG);
	hole[2 * PG] = 1;
	r = mremap(hole, 3 * PG, PG, 0);
	check(r == hole, "a shrink across a hole, from a mapped start");
	check(mremap(hole + 2 * PG, PG, PG, 0) == MAP_FAILED && errno == EFAULT,
	      "the page after the hole went with the tail");
	munmap(hole, PG);

	hole = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(hole, PG);
	check_err(remap_err(hole, 3 * PG, PG, 0, NULL), EFAULT, "a shrink that starts in a hole");
	check(mremap(hole + PG, 2 * PG, 2 * PG, 0) == hole + PG, "and nothing after it went");
	munmap(hole + PG, 2 * PG);
	return 0;
}
