/* Read-only file syscalls on the fixtures in tests/guest/data (cwd is the
 * repo root): open/openat/read/pread/readv/writev/lseek/fstat/newfstatat/
 * statx/readlink/access/faccessat/faccessat2/getcwd/close. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#define TAP_ERR_RET
#include "tap.h"
#include "statx.h"

#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif
#ifndef AT_EACCESS
#define AT_EACCESS 0x200
#endif

#define D "tests/guest/data/"

static const char hello[] = "Hello, world!\nThis is the skas test fixture.\n";
#define HLEN ((long)sizeof hello - 1)

int main(void)
{
	char buf[256], a[8], b[8], c[64], cwd[4096], longname[300];
	struct iovec iov[3];
	struct stat st, st2;
	struct xstatx sx;
	long r;
	int fd, fd2, dfd;

	/* --- open/read --- */
	fd = open(D "hello.txt", O_RDONLY);
	check(fd >= 0, "open hello.txt");
	memset(buf, 0, sizeof buf);
	r = read(fd, buf, sizeof buf);
	printf("ok %d - read returns %ld\n", ++n, r);
	check(r == HLEN && memcmp(buf, hello, HLEN) == 0, "read returns the file's contents");
	check(read(fd, buf, sizeof buf) == 0, "read at EOF returns 0");
	check(read(fd, buf, 0) == 0, "read of 0 bytes returns 0");

	/* --- lseek --- */
	check(lseek(fd, 0, SEEK_CUR) == HLEN, "lseek(0, SEEK_CUR) is at EOF");
	check(lseek(fd, 7, SEEK_SET) == 7, "lseek(7, SEEK_SET)");
	memset(buf, 0, sizeof buf);
	check(read(fd, buf, 5) == 5 && memcmp(buf, "world", 5) == 0, "read after lseek");
	check(lseek(fd, 2, SEEK_CUR) == 14, "lseek(2, SEEK_CUR)");
	check(lseek(fd, -5, SEEK_END) == HLEN - 5, "lseek(-5, SEEK_END)");
	memset(buf, 0, sizeof buf);
	check(read(fd, buf, 100) == 5 && memcmp(buf, "ure.\n", 5) == 0, "read the last 5 bytes");
	check(lseek(fd, 1000, SEEK_SET) == 1000, "lseek past EOF is allowed");
	check(read(fd, buf, 10) == 0, "read past EOF returns 0");
	errno = 0;
	check_err(lseek(fd, -1, SEEK_SET), EINVAL, "lseek to a negative offset");
	errno = 0;
	check_err(lseek(fd, -1000, SEEK_END), EINVAL, "lseek(-1000, SEEK_END)");
	errno = 0;
	check_err(lseek(fd, 0, 77), EINVAL, "lseek with a bad whence");
	check(lseek(fd, 0, SEEK_CUR) == 1000, "failed lseeks leave the offset alone");

	/* --- pread --- */
	lseek(fd, 3, SEEK_SET);
	memset(buf, 0, sizeof buf);
	check(pread(fd, buf, 5, 7) == 5 && memcmp(buf, "world", 5) == 0, "pread at offset 7");
	check(lseek(fd, 0, SEEK_CUR) == 3, "pread does not move the offset");
	check(pread(fd, buf, 10, HLEN) == 0, "pread at EOF returns 0");
	check(pread(fd, buf, 100, HLEN - 3) == 3, "pread near EOF is short");
	errno = 0;
	check_err(syscall(SYS_pread64, fd, buf, 5, -1L), EINVAL, "pread at a negative offset");

	/* --- readv --- */
	lseek(fd, 0, SEEK_SET);
	memset(a, 0, sizeof a);
	memset(b, 0, sizeof b);
	memset(c, 0, sizeof c);
	iov[0].iov_base = a;
	iov[0].iov_len = 5;
	iov[1].iov_base = b;
	iov[1].iov_len = 0;
	iov[2].iov_base = c;
	iov[2].iov_len = sizeof c;
	r = readv(fd, iov, 3);
	check(r == HLEN, "readv returns the whole file");
	check(memcmp(a, "Hello", 5) == 0 && memcmp(c, hello + 5, HLEN - 5) == 0,
	      "readv scatters the bytes in order");
	errno = 0;
	check_err(syscall(SYS_readv, fd, iov, -1), EINVAL, "readv with iovcnt -1");
	errno = 0;
	check_err(syscall(SYS_readv, fd, iov, 1025), EINVAL, "readv with iovcnt 1025");
	check(syscall(SYS_readv, fd, iov, 0) == 0, "readv with iovcnt 0 returns 0");

	/* --- writev to stdout --- */
	fflush(stdout);
	{
		char num[16];
		int len = snprintf(num, sizeof num, "%d", ++n);
		struct iovec w[4] = {
			{ "ok ", 3 },
			{ num, (size_t)len },
			{ "", 0 },
			{ " - writev to stdout\n", 20 },
		};
		r = writev(1, w, 4);
		if (r != 3 + len + 20)
			printf("not ok %d - writev returned %ld\n", ++n, r);
	}

	/* --- fstat / stat / lstat --- */
	check(fstat(fd, &st) == 0, "fstat");
	check(S_ISREG(st.st_mode), "fstat: regular file");
	printf("ok %d - fstat: size %ld\n", ++n, (long)st.st_size);
	check(st.st_nlink > 0, "fstat: nlink > 0");
	check(st.st_blksize > 0, "fstat: blksize > 0");
	check(stat(D "hello.txt", &st2) == 0 && st2.st_ino == st.st_ino &&
		      st2.st_dev == st.st_dev && st2.st_size == HLEN,
	      "stat agrees with fstat");
	check(stat(D "dir", &st2) == 0 && S_ISDIR(st2.st_mode), "stat of a directory: S_ISDIR");
	check(stat(D "link", &st2) == 0 && S_ISREG(st2.st_mode) && st2.st_ino == st.st_ino,
	      "stat follows the symlink");
	check(lstat(D "link", &st2) == 0 && S_ISLNK(st2.st_mode), "lstat of the symlink: S_ISLNK");
	printf("ok %d - lstat: symlink size %ld\n", ++n, (long)st2.st_size);
	check(fstatat(AT_FDCWD, D "link", &st2, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st2.st_mode),
	      "fstatat AT_SYMLINK_NOFOLLOW: S_ISLNK");
	check(fstatat(fd, "", &st2, AT_EMPTY_PATH) == 0 && st2.st_ino == st.st_ino,
	      "fstatat(fd, \"\", AT_EMPTY_PATH) is fstat");
	check(stat(".", &st2) == 0 && S_ISDIR(st2.st_mode), "stat(\".\")");
	errno = 0;
	check_err(stat(D "missing", &st2), ENOENT, "stat of a missing file");
	errno = 0;
	check_err(stat(D "hello.txt/x", &st2), ENOTDIR, "stat through a file");
	errno = 0;
	check_err(syscall(SYS_newfstatat, AT_FDCWD, "", &st2, 0), ENOENT, "stat(\"\")");
	errno = 0;
	check_err(syscall(SYS_fstat, 1000, &st2), EBADF, "fstat of a bad fd");
	errno = 0;
	check_err(syscall(SYS_newfstatat, AT_FDCWD, D "hello.txt", &st2, 0x4), EINVAL,
		  "newfstatat with bad flags");
	memset(longname, 'x', sizeof longname - 1);
	longname[sizeof longname - 1] = 0;
	errno = 0;
	check_err(stat(longname, &st2), ENAMETOOLONG, "stat of a 299-byte name");
	{
		/* Paths longer than the kernel's first read of a string: 600
		 * and 4000 bytes of "./" before hello.txt; 4096 bytes with the
		 * NUL is one too many. */
		static char lp[4200];
		size_t k, pre = strlen(D);
		int lens[] = { 600, 4000 };

		for (k = 0; k < 2; k++) {
			char what[64];
			int i;

			memcpy(lp, D, pre);
			for (i = 0; i < lens[k]; i += 2)
				memcpy(lp + pre + i, "./", 2);
			strcpy(lp + pre + lens[k], "hello.txt");
			snprintf(what, sizeof(what), "stat of a %zu-byte path", strlen(lp));
			check(stat(lp, &st2) == 0 && st2.st_ino == st.st_ino, what);
		}
		memset(lp, '/', 4095);
		lp[4095] = 0;
		check(stat(lp, &st2) == 0, "stat of 4095 slashes");
		lp[4095] = '/';
		lp[4096] = 0;
		errno = 0;
		check_err(stat(lp, &st2), ENAMETOOLONG, "stat of 4096 slashes");
	}

	/* --- statx --- */
	r = xstatx(AT_FDCWD, D "hello.txt", 0, XSTATX_SIZE | XSTATX_TYPE, &sx);
	check(r == 0, "statx");
	check((sx.mask & (XSTATX_SIZE | XSTATX_TYPE)) == (XSTATX_SIZE | XSTATX_TYPE),
	      "statx: mask has SIZE|TYPE");
	check(S_ISREG(sx.mode) && sx.size == (uint64_t)HLEN, "statx: regular, right size");
	r = xstatx(AT_FDCWD, D "link", AT_SYMLINK_NOFOLLOW, XSTATX_SIZE | XSTATX_TYPE, &sx);
	check(r == 0 && S_ISLNK(sx.mode) && sx.size == 9, "statx AT_SYMLINK_NOFOLLOW on the link");
	r = xstatx(AT_FDCWD, D "link", 0, XSTATX_SIZE | XSTATX_TYPE, &sx);
	check(r == 0 && S_ISREG(sx.mode) && sx.size == (uint64_t)HLEN, "statx follows the link");
	r = xstatx(fd, "", AT_EMPTY_PATH, XSTATX_INO | XSTATX_NLINK | XSTATX_TYPE, &sx);
	check(r == 0 && sx.ino == (uint64_t)st.st_ino && sx.nlink == (uint32_t)st.st_nlink,
	      "statx AT_EMPTY_PATH agrees with fstat");
	r = xstatx(AT_FDCWD, D "dir", 0, XSTATX_TYPE, &sx);
	check(r == 0 && S_ISDIR(sx.mode), "statx of a directory");
	errno = 0;
	check_err(xstatx(AT_FDCWD, D "missing", 0, XSTATX_TYPE, &sx), ENOENT,
		  "statx of a missing file");
	errno = 0;
	check_err(xstatx(AT_FDCWD, D "hello.txt", 0, XSTATX_RESERVED, &sx), EINVAL,
		  "statx with STATX__RESERVED");
	errno = 0;
	check_err(xstatx(AT_FDCWD, D "hello.txt", 0x1, XSTATX_TYPE, &sx), EINVAL,
		  "statx with bad flags");
	close(fd);

	/* --- readlink --- */
	memset(buf, 0, sizeof buf);
	r = readlink(D "link", buf, sizeof buf);
	check(r == 9 && memcmp(buf, "hello.txt", 9) == 0, "readlink returns \"hello.txt\" (9)");
	check(buf[9] == 0, "readlink does not NUL-terminate (buffer was zeroed)");
	memset(buf, 'z', sizeof buf);
	r = readlink(D "link", buf, 4);
	check(r == 4 && memcmp(buf, "hellz", 5) == 0, "readlink truncates to the buffer size");
	errno = 0;
	check_err(readlink(D "hello.txt", buf, sizeof buf), EINVAL, "readlink of a regular file");
	errno = 0;
	check_err(readlink(D "missing", buf, sizeof buf), ENOENT, "readlink of a missing file");
	errno = 0;
	check_err(syscall(SYS_readlink, D "link", buf, 0), EINVAL, "readlink with bufsiz 0");

	/* --- access / faccessat / faccessat2 --- */
	check(access(D "hello.txt", F_OK) == 0, "access F_OK");
	check(access(D "hello.txt", R_OK) == 0, "access R_OK");
	check(access(D "dir", R_OK | X_OK) == 0, "access R_OK|X_OK on a directory");
	errno = 0;
	check_err(access(D "hello.txt", X_OK), EACCES, "access X_OK on a file without x bits");
	errno = 0;
	check_err(access(D "missing", F_OK), ENOENT, "access of a missing file");
	errno = 0;
	check_err(syscall(SYS_access, D "hello.txt", 8), EINVAL, "access with a bad mode");
	check(faccessat(AT_FDCWD, D "link", R_OK, 0) == 0, "faccessat through the link");
	errno = 0;
	check_err(syscall(SYS_faccessat, AT_FDCWD, D "missing", F_OK), ENOENT,
		  "faccessat of a missing file");
	r = syscall(SYS_faccessat2, AT_FDCWD, D "link", F_OK, AT_SYMLINK_NOFOLLOW);
	check(r == 0, "faccessat2 AT_SYMLINK_NOFOLLOW");
	r = syscall(SYS_faccessat2, AT_FDCWD, D "hello.txt", R_OK, AT_EACCESS);
	check(r == 0, "faccessat2 AT_EACCESS");
	errno = 0;
	check_err(syscall(SYS_faccessat2, AT_FDCWD, D "hello.txt", F_OK, 0x1), EINVAL,
		  "faccessat2 with bad flags");

	/* --- open errors --- */
	errno = 0;
	check_err(open(D "missing", O_RDONLY), ENOENT, "open of a missing file");
	errno = 0;
	check_err(open(D "hello.txt", O_RDONLY | O_DIRECTORY), ENOTDIR, "O_DIRECTORY on a file");
	errno = 0;
	check_err(open(D "hello.txt/", O_RDONLY), ENOTDIR, "a trailing slash on a file");
	errno = 0;
	check_err(open(D "link", O_RDONLY | O_NOFOLLOW), ELOOP, "O_NOFOLLOW on a symlink");
	errno = 0;
	check_err(open("", O_RDONLY), ENOENT, "open(\"\")");
	errno = 0;
	check_err(open(D "dir", O_WRONLY), EISDIR, "open a directory for writing");
	fd = open(D "link", O_RDONLY);
	memset(buf, 0, sizeof buf);
	check(fd >= 0 && read(fd, buf, 5) == 5 && memcmp(buf, "Hello", 5) == 0,
	      "open follows the symlink");
	close(fd);

	/* --- fd numbers are reused lowest-first --- */
	fd = open(D "hello.txt", O_RDONLY);
	fd2 = open(D "hello.txt", O_RDONLY);
	check(fd >= 3 && fd2 > fd, "the next open gets a higher fd");
	close(fd);
	check(open(D "hello.txt", O_RDONLY) == fd, "a closed fd number is reused");
	close(fd);
	close(fd2);

	/* --- directories --- */
	dfd = open(D "dir", O_RDONLY | O_DIRECTORY);
	check(dfd >= 0, "open a directory with O_DIRECTORY");
	errno = 0;
	check_err(read(dfd, buf, sizeof buf), EISDIR, "read of a directory fd");
	errno = 0;
	check_err(pread(dfd, buf, sizeof buf, 0), EISDIR, "pread of a directory fd");
	check(fstat(dfd, &st2) == 0 && S_ISDIR(st2.st_mode), "fstat of a directory fd");
	fd = openat(dfd, "a.txt", O_RDONLY);
	memset(buf, 0, sizeof buf);
	check(fd >= 0 && read(fd, buf, sizeof buf) == 6 && strcmp(buf, "alpha\n") == 0,
	      "openat relative to a directory fd");
	close(fd);
	fd = openat(dfd, "sub/d.txt", O_RDONLY);
	check(fd >= 0, "openat of a path through a subdirectory");
	close(fd);
	fd = openat(dfd, "../hello.txt", O_RDONLY);
	check(fd >= 0, "openat with ..");
	close(fd);
	check(fstatat(dfd, "sub", &st2, 0) == 0 && S_ISDIR(st2.st_mode),
	      "fstatat relative to a directory fd");
	check(faccessat(dfd, "b.txt", R_OK, 0) == 0, "faccessat relative to a directory fd");
	errno = 0;
	check_err(openat(dfd, "missing", O_RDONLY), ENOENT, "openat of a missing file");
	close(dfd);
	errno = 0;
	check_err(openat(1000, "a.txt", O_RDONLY), EBADF, "openat with a bad dirfd");
	fd = open(D "hello.txt", O_RDONLY);
	errno = 0;
	check_err(openat(fd, "a.txt", O_RDONLY), ENOTDIR, "openat with a file as dirfd");

	/* --- bad fds --- */
	close(fd);
	errno = 0;
	check_err(close(fd), EBADF, "close of a closed fd");
	errno = 0;
	check_err(close(-1), EBADF, "close(-1)");
	errno = 0;
	check_err(read(fd, buf, 1), EBADF, "read of a closed fd");
	errno = 0;
	check_err(read(1000, buf, 1), EBADF, "read of fd 1000");
	errno = 0;
	check_err(write(1000, buf, 1), EBADF, "write to fd 1000");
	errno = 0;
	check_err(lseek(1000, 0, SEEK_SET), EBADF, "lseek of fd 1000");
	errno = 0;
	check_err(pread(1000, buf, 1, 0), EBADF, "pread of fd 1000");
	fd = open(D "hello.txt", O_RDONLY);
	errno = 0;
	check_err(write(fd, "x", 1), EBADF, "write to an O_RDONLY fd");
	close(fd);

	/* --- getcwd --- */
	memset(cwd, 0, sizeof cwd);
	r = syscall(SYS_getcwd, cwd, sizeof cwd);
	check(r > 1 && cwd[0] == '/', "getcwd returns an absolute path");
	check(r == (long)strlen(cwd) + 1, "getcwd returns the length including the NUL");
	check(stat(cwd, &st2) == 0 && S_ISDIR(st2.st_mode), "stat(getcwd()) is a directory");
	check(stat(".", &st) == 0 && st.st_ino == st2.st_ino && st.st_dev == st2.st_dev,
	      "getcwd() is \".\"");
	errno = 0;
	check_err(syscall(SYS_getcwd, cwd, 1), ERANGE, "getcwd with size 1");
	errno = 0;
	check_err(syscall(SYS_getcwd, cwd, r - 1), ERANGE, "getcwd one byte too small");
	memset(buf, 0, sizeof buf);
	if (strlen(cwd) + sizeof D "hello.txt" + 1 < sizeof cwd) {
		strcat(cwd, "/" D "hello.txt");
		fd = open(cwd, O_RDONLY);
		check(fd >= 0 && read(fd, buf, sizeof buf) == HLEN && memcmp(buf, hello, HLEN) == 0,
		      "open by absolute path getcwd()/tests/guest/data/hello.txt");
		close(fd);
		dfd = open(D "dir", O_RDONLY | O_DIRECTORY);
		fd = openat(dfd, cwd, O_RDONLY);
		check(fd >= 0, "openat with an absolute path ignores dirfd");
		close(fd);
		close(dfd);
	}
	return 0;
}
