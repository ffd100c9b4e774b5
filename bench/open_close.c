/* bench/open_close.c: open(PATH, O_RDONLY) + close, one op = both calls.
 * usage: open_close [N [R [PATH]]]   (default 200000, 7, /etc/passwd) */
#include "bench.h"
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n;
	int r;
	bench_args(argc, argv, 1, 200000, &n, &r);
	const char *path = argc > 3 ? argv[3] : "/etc/passwd";
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	close(fd);
	int bad = 0;
	BENCH_LOOP("open_close", n, r, {
		int f = open(path, O_RDONLY);
		bad |= f < 0;
		close(f);
	});
	if (bad) {
		fprintf(stderr, "open_close: an open failed\n");
		return 1;
	}
	return 0;
}
