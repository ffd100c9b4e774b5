/* File positions of read-only opens of one file: each open has its own
 * position, which read, lseek (SEEK_SET, SEEK_CUR, SEEK_END, SEEK_DATA,
 * SEEK_HOLE) and readv move and pread does not; a dup and a fork share it;
 * /proc/self/fdinfo shows it; a mapping sees the same bytes; a write
 * through another open of the file is seen at once. Under skas read-only
 * opens of a host file share one host description (fs/hostfs), so the
 * position is the kernel's own. The file read is the test's own
 * executable (a host file in skas's default root); the written one is in a
 * private mkdtemp directory. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>

static int n;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++n, what);
}

static const char *errname(int e)
{
	switch (e) {
	case EINVAL:
		return "EINVAL";
	case ENXIO:
		return "ENXIO";
	case EBADF:
		return "EBADF";
	case EOVERFLOW:
		return "EOVERFLOW";
	default:
		return strerror(e);
	}
}

static long long pos(int fd)
{
	return (long long)lseek(fd, 0, SEEK_CUR);
}

static void want_pos(int fd, long long exp, const char *what)
{
	long long got = pos(fd);

	if (got == exp)
		printf("ok %d - %s: position %lld\n", ++n, what, exp);
	else
		printf("not ok %d - %s: position %lld, want %lld\n", ++n, what, got, exp);
}

static void want_err(long long ret, int exp, const char *what)
{
	if (ret == -1 && errno == exp)
		printf("ok %d - %s fails with %s\n", ++n, what, errname(exp));
	else
		printf("not ok %d - %s: %lld (%s), want %s\n", ++n, what, ret,
		       ret < 0 ? errname(errno) : "no error", errname(exp));
}

static long long fdinfo_pos(int fd)
{
	char path[64], line[128];
	long long p = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -2;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "pos: %lld", &p) == 1)
			break;
	fclose(f);
	return p;
}

static void read_only(const char *file)
{
	static char whole[1 << 16], buf[1 << 16];
	int a = open(file, O_RDONLY), b = open(file, O_RDONLY), c, fds[40], i, st;
	struct iovec iov[2];
	struct stat sb;
	long long size;
	void *map;

	if (a < 0 || b < 0 || fstat(a, &sb) < 0) {
		printf("not ok %d - open %s: %s\n", ++n, file, strerror(errno));
		return;
	}
	size = sb.st_size;
	ok(size > 4096 &&
		   pread(a, whole, sizeof(whole), 0) ==
			   (size < (long long)sizeof(whole) ? size : (long long)sizeof(whole)),
	   "pread of the whole start");
	want_pos(a, 0, "pread leaves the position");

	ok(read(a, buf, 100) == 100 && memcmp(buf, whole, 100) == 0,
	   "read 100 from the first open");
	want_pos(a, 100, "first open");
	want_pos(b, 0, "second open, untouched");
	ok(read(b, buf, 50) == 50 && memcmp(buf, whole, 50) == 0, "the second open reads from 0");
	want_pos(a, 100, "first open after the second read");
	ok(read(a, buf, 10) == 10 && memcmp(buf, whole + 100, 10) == 0, "the first goes on at 100");

	ok(lseek(a, 10, SEEK_CUR) == 120, "SEEK_CUR +10");
	want_err(lseek(a, -200, SEEK_CUR), EINVAL, "SEEK_CUR before the start");
	want_pos(a, 120, "after a failed SEEK_CUR");
	want_err(lseek(a, -1, SEEK_SET), EINVAL, "SEEK_SET -1");
	want_err(lseek(a, 0, 7), EINVAL, "whence 7");
	ok(lseek(a, 0, SEEK_END) == size, "SEEK_END 0 is the size");
	ok(read(a, buf, 10) == 0, "read at the end gives 0");
	ok(lseek(a, -10, SEEK_END) == size - 10, "SEEK_END -10");
	ok(read(a, buf, 100) == 10, "read 10 before the end gives 10");
	ok(lseek(a, size + 100, SEEK_SET) == size + 100, "SEEK_SET past the end");
	ok(read(a, buf, 10) == 0, "read past the end gives 0");
	ok(lseek(a, 0, SEEK_DATA) == 0, "SEEK_DATA 0");
	want_err(lseek(a, size + 1, SEEK_DATA), ENXIO, "SEEK_DATA past the end");
	ok(lseek(a, 0, SEEK_HOLE) == size, "SEEK_HOLE 0 is the size");
	want_pos(a, size, "after SEEK_HOLE");
	errno = 0;
	{
		long long r = lseek(a, 1LL << 62, SEEK_SET);

		printf("ok %d - SEEK_SET 2^62: %s\n", ++n, r < 0 ? errname(errno) : "taken");
	}
	ok(lseek(a, 0x7fffffffffffff00LL, SEEK_SET) < 0 || lseek(a, 0x200, SEEK_CUR) < 0,
	   "SEEK_CUR overflowing fails");

	ok(lseek(a, 1000, SEEK_SET) == 1000, "SEEK_SET 1000");
	c = dup(a);
	ok(read(c, buf, 24) == 24 && memcmp(buf, whole + 1000, 24) == 0, "a dup reads on");
	want_pos(a, 1024, "the dup moved the shared position");
	ok(fdinfo_pos(a) == 1024, "fdinfo pos");
	iov[0] = (struct iovec){ buf, 8 };
	iov[1] = (struct iovec){ buf + 8, 8 };
	ok(readv(a, iov, 2) == 16 && memcmp(buf, whole + 1024, 16) == 0, "readv");
	want_pos(a, 1040, "after readv");
	if (fork() == 0) {
		_exit(read(a, buf, 60) == 60 ? 0 : 1);
	}
	wait(&st);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a child reads 60");
	want_pos(a, 1100, "the child moved the parent's position");
	close(c);

	map = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, b, 0);
	ok(map != MAP_FAILED && memcmp(map, whole, 4096) == 0, "a mapping sees the same bytes");
	if (map != MAP_FAILED)
		munmap(map, 4096);
	want_pos(b, 50, "mmap leaves the position");

	/* Many opens at once, each at its own place. */
	for (i = 0; i < 40; i++) {
		fds[i] = open(file, O_RDONLY);
		if (fds[i] < 0 || read(fds[i], buf, (size_t)i) != i)
			break;
	}
	ok(i == 40, "40 opens, each read i bytes");
	for (st = 1, i = 0; i < 40; i++)
		st &= pos(fds[i]) == i;
	ok(st, "each at its own position");
	for (i = 0; i < 40; i++)
		close(fds[i]);
	close(a);
	want_err(lseek(a, 0, SEEK_CUR), EBADF, "lseek of a closed fd");
	want_pos(b, 50, "second open, after the first closed");
	ok(read(b, buf, 50) == 50 && memcmp(buf, whole + 50, 50) == 0, "second open reads on");
	close(b);
}

static void written(void)
{
	char dir[] = "/tmp/fileposXXXXXX", path[64], buf[64];
	int w, r;

	if (!mkdtemp(dir)) {
		printf("not ok %d - mkdtemp: %s\n", ++n, strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/f", dir);
	w = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	ok(w >= 0 && write(w, "hello", 5) == 5, "create and write");
	r = open(path, O_RDONLY);
	ok(r >= 0 && read(r, buf, sizeof(buf)) == 5 && memcmp(buf, "hello", 5) == 0,
	   "a read-only open reads it");
	ok(write(w, " world", 6) == 6, "write more");
	ok(read(r, buf, sizeof(buf)) == 6 && memcmp(buf, " world", 6) == 0,
	   "the read-only open sees the new bytes");
	ok(ftruncate(w, 2) == 0 && read(r, buf, sizeof(buf)) == 0 && lseek(r, 0, SEEK_END) == 2,
	   "and the truncation");
	want_err(write(r, "x", 1), EBADF, "write to the read-only open");
	want_pos(r, 2, "after the failed write");
	close(w);
	close(r);
	unlink(path);
	rmdir(dir);
}

int main(int argc, char **argv)
{
	(void)argc;
	read_only("/proc/self/exe");
	read_only(argv[0]);
	written();
	printf("1..%d\n", n);
	return 0;
}
