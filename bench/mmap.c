/* bench/mmap.c: an anonymous 64 KiB mmap, an mprotect of its first page and
 * its munmap (malloc's pattern for large blocks). With VMAS, that many
 * single-page mappings are made first (alternately PROT_READ and PROT_NONE,
 * so none merge), packed below the new mapping's place: what placing and
 * counting a mapping costs in a big process.
 * usage: mmap [N [R [VMAS]]]   (default 100000, 7, 0) */
#include "bench.h"
#include <sys/mman.h>

int main(int argc, char **argv)
{
	long n, i, vmas = argc > 3 ? atol(argv[3]) : 0;
	int r, bad = 0;

	bench_args(argc, argv, 1, 100000, &n, &r);
	for (i = 0; i < vmas; i++) {
		if (mmap(NULL, 4096, i & 1 ? PROT_READ : PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			 0) == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
	}
	BENCH_LOOP("mmap64k", n, r, {
		char *p = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			       0);
		bad |= p == MAP_FAILED || mprotect(p, 4096, PROT_READ) != 0 ||
		       munmap(p, 65536) != 0;
	});
	if (bad) {
		fprintf(stderr, "mmap: a call failed\n");
		return 1;
	}
	return 0;
}
