/* bench/pread.c: 4 KiB pread at offset 0 of PATH (must be >= 4 KiB; the page
 * cache is warm after the warm-up round, so this is copy + syscall cost).
 * usage: pread PATH [N [R]]   (default 200000, 7) */
#include "bench.h"
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: pread PATH [N [R]]\n");
		return 2;
	}
	long n;
	int r;
	bench_args(argc, argv, 2, 200000, &n, &r);
	static char buf[4096];
	int fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	if (pread(fd, buf, sizeof buf, 0) != (ssize_t)sizeof buf) {
		fprintf(stderr, "pread: %s is shorter than 4 KiB or unreadable\n", argv[1]);
		return 1;
	}
	int bad = 0;
	BENCH_LOOP("pread4k", n, r, bad |= pread(fd, buf, sizeof buf, 0) != (ssize_t)sizeof buf);
	close(fd);
	if (bad) {
		fprintf(stderr, "pread: a short read\n");
		return 1;
	}
	return 0;
}
