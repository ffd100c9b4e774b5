/* Sparse shmem files cost the pages they hold, not their size: memfds
 * truncated to 1 TiB, written at offsets of hundreds of GiB (pwrite,
 * lseek + write, pwritev) and mapped one page at a time, while fork and
 * anonymous memory go on working. skas once counted each tmpfs file's
 * size against --memory: trinity's writes at 4 GiB offsets into a few
 * memfds used up the instance's memory and its forks failed ENOMEM. The
 * block counts are Linux's shmem's (4 KiB pages); with large folios a
 * native write would hold more than a page, so those checks accept any
 * count below a MiB. SEEK_DATA and SEEK_HOLE find the pages held. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "tap.h"

#define TIB    (1ULL << 40)
#define GIB    (1ULL << 30)
#define NFILES 32

static long long blocks(int fd)
{
	struct stat st;

	return fstat(fd, &st) < 0 ? -1 : (long long)st.st_blocks;
}

/* Some pages, but far less than the size (at most a MiB). */
static int small(long long b)
{
	return b > 0 && b <= 2048;
}

static int forks_ok(void)
{
	int status;
	pid_t p = fork();

	if (p < 0)
		return 0;
	if (p == 0) {
		/* anonymous memory in the child too */
		char *m = mmap(NULL, 16 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);

		if (m == MAP_FAILED)
			_exit(2);
		memset(m, 1, 16 << 20);
		_exit(0);
	}
	return waitpid(p, &status, 0) == p && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(void)
{
	int fds[NFILES], i, ok_trunc = 1, ok_write = 1, ok_blocks = 1;
	char c = 'x', buf[8];
	struct iovec iov = { &c, 1 };
	char *m;

	for (i = 0; i < NFILES; i++) {
		fds[i] = memfd_create("sparse", 0);
		if (fds[i] < 0 || ftruncate(fds[i], (off_t)TIB) < 0)
			ok_trunc = 0;
	}
	check(ok_trunc, "32 memfds truncated to 1 TiB");
	check(blocks(fds[0]) == 0, "a truncated memfd holds no blocks");
	check(forks_ok(), "fork and 16 MiB of anonymous memory after the truncates");

	for (i = 0; i < NFILES; i++) {
		if (pwrite(fds[i], &c, 1, (off_t)(512 * GIB)) != 1 ||
		    lseek(fds[i], (off_t)(768 * GIB), SEEK_SET) != (off_t)(768 * GIB) ||
		    write(fds[i], &c, 1) != 1 || pwritev(fds[i], &iov, 1, (off_t)(900 * GIB)) != 1)
			ok_write = 0;
		if (!small(blocks(fds[i])))
			ok_blocks = 0;
	}
	check(ok_write, "pwrite, lseek+write and pwritev hundreds of GiB in");
	check(ok_blocks, "each file holds a few pages");
	check(forks_ok(), "fork after the writes");

	/* past the end: the size grows, the gap stays a hole */
	check(pwrite(fds[0], &c, 1, (off_t)(3 * TIB)) == 1, "a write at 3 TiB");
	struct stat st;
	check(fstat(fds[0], &st) == 0 && st.st_size == (off_t)(3 * TIB + 1), "its size");
	check(small(st.st_blocks), "still a few pages");
	check(pread(fds[0], buf, 1, (off_t)(2 * TIB)) == 1 && buf[0] == 0, "a hole reads zero");

	/* a page mapped out of the middle; written through the mapping */
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fds[1], (off_t)(100 * GIB));
	check(m != MAP_FAILED, "one page of a 1 TiB file mapped shared");
	if (m != MAP_FAILED) {
		m[0] = 'y';
		check(forks_ok(), "fork with the mapping");
		check(munmap(m, 4096) == 0, "munmap");
		check(pread(fds[1], buf, 1, (off_t)(100 * GIB)) == 1 && buf[0] == 'y',
		      "the mapping's write is in the file");
	}
	check(small(blocks(fds[1])), "still a few pages after the mapping");

	/* a punched hole gives its page back */
	long long before = blocks(fds[2]);
	check(fallocate(fds[2], FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)(512 * GIB),
			4096) == 0,
	      "punch the page at 512 GiB");
	check(blocks(fds[2]) < before, "fewer blocks after the punch");
	/* a cut frees the pages past it */
	check(ftruncate(fds[3], (off_t)GIB) == 0 && blocks(fds[3]) == 0, "cut to 1 GiB: no blocks");

	/* SEEK_DATA and SEEK_HOLE see the pages a file holds, and both are
	 * ENXIO at the end (test_posix's test_fs_holes: skas's SEEK_HOLE
	 * at the size gave the size) */
	int d = memfd_create("dense", 0);

	check(d >= 0 && write(d, "hello", 5) == 5, "a 5-byte memfd");
	check(lseek(d, 4, SEEK_DATA) == 4 && lseek(d, 4, SEEK_HOLE) == 5, "data at 4, hole at 5");
	errno = 0;
	check(lseek(d, 5, SEEK_HOLE) < 0 && errno == ENXIO, "SEEK_HOLE at the size: ENXIO");
	errno = 0;
	check(lseek(d, 5, SEEK_DATA) < 0 && errno == ENXIO, "SEEK_DATA at the size: ENXIO");
	check(lseek(d, 0, SEEK_CUR) == 5, "the failed seeks leave the position");
	close(d);
	check(lseek(fds[4], 0, SEEK_DATA) == (off_t)(512 * GIB), "SEEK_DATA skips the hole");
	check(lseek(fds[4], 0, SEEK_HOLE) == 0, "SEEK_HOLE at a hole is where it is");
	check(lseek(fds[4], (off_t)(512 * GIB), SEEK_HOLE) == (off_t)(512 * GIB + 4096),
	      "SEEK_HOLE after the page written");
	check(lseek(fds[4], (off_t)(900 * GIB + 4096), SEEK_DATA) < 0 && errno == ENXIO,
	      "no data after the last page: ENXIO");

	for (i = 0; i < NFILES; i++)
		close(fds[i]);
	check(forks_ok(), "fork at the end");
	return 0;
}
