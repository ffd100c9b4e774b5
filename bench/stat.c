/* bench/stat.c: stat(PATH) (newfstatat on x86-64 glibc).
 * usage: stat [N [R [PATH]]]   (default 200000, 7, /etc/passwd) */
#include "bench.h"
#include <sys/stat.h>

int main(int argc, char **argv)
{
	long n;
	int r;
	bench_args(argc, argv, 1, 200000, &n, &r);
	const char *path = argc > 3 ? argv[3] : "/etc/passwd";
	struct stat st;
	if (stat(path, &st) != 0) {
		perror(path);
		return 1;
	}
	int bad = 0;
	BENCH_LOOP("stat", n, r, bad |= stat(path, &st) != 0);
	if (bad) {
		fprintf(stderr, "stat: a call failed\n");
		return 1;
	}
	return 0;
}
