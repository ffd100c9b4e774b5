/* fallocate(2) and posix_fallocate(3) on a file in a private directory
 * (mkdtemp under /tmp): the modes every Linux filesystem has (allocate,
 * KEEP_SIZE, PUNCH_HOLE|KEEP_SIZE) and the argument checks the VFS makes
 * before any filesystem is asked, in Linux's order. (COLLAPSE_RANGE or
 * INSERT_RANGE with another mode bit is EINVAL before Linux 6.11 and
 * EOPNOTSUPP from it, as skas has it: not checked, so that the test's
 * native run passes on either.) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "tap.h"

#ifndef FALLOC_FL_KEEP_SIZE
#define FALLOC_FL_KEEP_SIZE 0x01
#endif
#ifndef FALLOC_FL_PUNCH_HOLE
#define FALLOC_FL_PUNCH_HOLE 0x02
#endif
#ifndef FALLOC_FL_ZERO_RANGE
#define FALLOC_FL_ZERO_RANGE 0x10
#endif

static const char *ename(int e)
{
	switch (e) {
	case 0:
		return "0";
	case EBADF:
		return "EBADF";
	case EINVAL:
		return "EINVAL";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	case ESPIPE:
		return "ESPIPE";
	case ENODEV:
		return "ENODEV";
	case EFBIG:
		return "EFBIG";
	case ENOSYS:
		return "ENOSYS";
	default:
		return "other";
	}
}

/* the raw call, so that no libc emulation stands in */
static void expect(int fd, int mode, long off, long len, int want, const char *what)
{
	long r = syscall(SYS_fallocate, fd, mode, off, len);
	int e = r < 0 ? errno : 0;

	if (e == want && (want || r == 0))
		printf("ok %d - %s -> %s\n", ++n, what, ename(want));
	else
		printf("not ok %d - %s: %s (want %s)\n", ++n, what, ename(e), ename(want));
}

static off_t size_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? st.st_size : -1;
}

int main(void)
{
	char dir[] = "/tmp/skasfalloc.XXXXXX", path[64], buf[8192];
	int fd, ro, p[2], sv[2], opath, i, zeros;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0, "create f");

	/* allocate: the size grows to off + len */
	expect(fd, 0, 0, 8192, 0, "fallocate(0, 8192)");
	check(size_of(fd) == 8192, "the size is 8192");
	check(pread(fd, buf, sizeof(buf), 0) == 8192 && buf[0] == 0 && buf[8191] == 0,
	      "the new bytes read as zeros");
	expect(fd, 0, 4096, 100, 0, "fallocate inside the size");
	check(size_of(fd) == 8192, "the size stays 8192");
	expect(fd, FALLOC_FL_KEEP_SIZE, 8192, 65536, 0, "KEEP_SIZE beyond the size");
	check(size_of(fd) == 8192, "KEEP_SIZE leaves the size at 8192");
	check(posix_fallocate(fd, 0, 20000) == 0 && size_of(fd) == 20000,
	      "posix_fallocate(0, 20000): size 20000");

	/* punch a hole: zeros, the size unchanged */
	memset(buf, 'x', sizeof(buf));
	check(pwrite(fd, buf, sizeof(buf), 0) == (ssize_t)sizeof(buf), "write 8192 x");
	expect(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 4096, 4096, 0,
	       "PUNCH_HOLE|KEEP_SIZE of the second page");
	memset(buf, 1, sizeof(buf));
	check(pread(fd, buf, sizeof(buf), 0) == 8192, "read it back");
	for (i = 0, zeros = 0; i < 8192; i++)
		zeros += buf[i] == 0;
	check(buf[0] == 'x' && buf[4095] == 'x' && zeros == 4096,
	      "the first page is x, the second zeros");
	check(size_of(fd) == 20000, "the size stays 20000");
	expect(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 100000, 4096, 0,
	       "a hole beyond the size");
	check(size_of(fd) == 20000, "the size still 20000");

	/* the VFS's checks, in its order */
	expect(fd, 0, -1, 10, EINVAL, "a negative offset");
	expect(fd, 0, 0, 0, EINVAL, "a zero length");
	expect(fd, 0, 0, -5, EINVAL, "a negative length");
	expect(fd, 0x1000, 0, 10, EOPNOTSUPP, "an unknown mode bit");
	expect(fd, FALLOC_FL_PUNCH_HOLE, 0, 10, EOPNOTSUPP, "PUNCH_HOLE without KEEP_SIZE");
	expect(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE, 0, 10,
	       EOPNOTSUPP, "PUNCH_HOLE with ZERO_RANGE");
	expect(fd, 0x04, 0, 10, EOPNOTSUPP, "NO_HIDE_STALE");
	expect(fd, 0, INT64_MAX - 10, 100, EFBIG, "offset + length past the largest size");
	expect(fd, 0, -1, 0, EINVAL, "a negative offset before the mode's checks");
	expect(-1, 0, 0, 10, EBADF, "fd -1");
	expect(999, 0, 0, 10, EBADF, "a closed fd");
	ro = open(path, O_RDONLY);
	expect(ro, 0, 0, 10, EBADF, "a read-only fd");
	expect(ro, 0, -1, 10, EINVAL, "a read-only fd, a negative offset (EINVAL first)");
	close(ro);
	opath = open(path, O_PATH);
	expect(opath, 0, 0, 10, EBADF, "an O_PATH fd");
	close(opath);
	check(pipe(p) == 0, "a pipe");
	expect(p[1], 0, 0, 10, ESPIPE, "the write end of a pipe");
	expect(p[0], 0, 0, 10, EBADF, "the read end of a pipe");
	close(p[0]);
	close(p[1]);
	check(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "a socketpair");
	expect(sv[0], 0, 0, 10, ENODEV, "a socket");
	close(sv[0]);
	close(sv[1]);
	check(size_of(fd) == 20000, "the file is still 20000 bytes");
	close(fd);
	check(unlink(path) == 0 && rmdir(dir) == 0, "clean up");
	return 0;
}
