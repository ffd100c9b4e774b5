/* bench/pread.c: 4 KiB pread at offset 0 of PATH (must be >= 4 KiB; the page
 * cache is warm after the warm-up round, so this is copy + syscall cost).
 * With VMAS, that many single-page mappings are made first (alternately
 * PROT_READ and PROT_NONE, so none merge) and the reads alternate between
 * a buffer in .bss and one on the stack, above them all: what finding a
 * buffer's VMA costs in a big process.
 * usage: pread PATH [N [R [VMAS]]]   (default 200000, 7, 0) */
#include "bench.h"
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: pread PATH [N [R]]\n");
		return 2;
	}
	long n;
	int r;
	bench_args(argc, argv, 2, 200000, &n, &r);
	static char sbuf[4096];
	char stack_buf[4096], *buf = sbuf, *other = sbuf;
	long i, vmas = argc > 4 ? atol(argv[4]) : 0;

	for (i = 0; i < vmas; i++) {
		if (mmap(NULL, 4096, i & 1 ? PROT_READ : PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			 0) == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		other = stack_buf;
	}
	int fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	if (pread(fd, buf, 4096, 0) != 4096) {
		fprintf(stderr, "pread: %s is shorter than 4 KiB or unreadable\n", argv[1]);
		return 1;
	}
	int bad = 0, flip = 0;
	BENCH_LOOP("pread4k", n, r, bad |= pread(fd, (flip ^= 1) ? other : buf, 4096, 0) != 4096);
	close(fd);
	if (bad) {
		fprintf(stderr, "pread: a short read\n");
		return 1;
	}
	return 0;
}
