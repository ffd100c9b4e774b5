/* Hostile user pointers: each syscall below gets NULL, (void *)1, a kernel
 * address, the first address above the user range, buffers that run from a
 * mapped page into an unmapped one, and pages whose protection forbids the
 * access. The results (errno name or return value) are what native Linux
 * does; a straddling read or write may succeed short instead of failing.
 *
 * The straddling write goes to stdout, so its partial effect shows up in the
 * output; the runner always sends stdout to a regular file. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#define TAP_FLUSH
#include "tap.h"

#define PG	    4096UL
#define ARCH_GET_FS 0x1003
#define D	    "tests/guest/data/"

static const char *ename(int e)
{
	switch (e) {
	case EFAULT:
		return "EFAULT";
	case EINVAL:
		return "EINVAL";
	case ENOENT:
		return "ENOENT";
	case EBADF:
		return "EBADF";
	case ENOTDIR:
		return "ENOTDIR";
	case ERANGE:
		return "ERANGE";
	case ENAMETOOLONG:
		return "ENAMETOOLONG";
	case ENOSYS:
		return "ENOSYS";
	case EPERM:
		return "EPERM";
	default:
		return "E?";
	}
}

/* r/errno of a raw call against the expected outcome: an errno name or a
 * decimal return value */
static void expect(long r, const char *want, const char *what)
{
	int e = errno;
	char got[32];

	if (r == -1)
		snprintf(got, sizeof got, "%s", ename(e));
	else
		snprintf(got, sizeof got, "%ld", r);
	if (strcmp(got, want) == 0)
		printf("ok %d - %s -> %s\n", ++n, what, got);
	else
		printf("not ok %d - %s -> %s (want %s)\n", ++n, what, got, want);
	fflush(stdout);
}

/* want0: the result of a 0-byte read/write there. Linux still range-checks
 * a 0-length buffer: only addresses outside the user range fail. */
struct bad {
	unsigned long p;
	const char *name;
	const char *want0;
};

static const struct bad bads[] = {
	{ 0, "NULL", "0" },
	{ 1, "(void *)1", "0" },
	{ 0xffff800000000000UL, "kernel address", "EFAULT" },
	{ 0x7ffffffff000UL, "0x7ffffffff000 (end of user range)", "0" },
	{ 0xfffffffffffff000UL, "-4096", "EFAULT" },
};
#define NBAD (sizeof bads / sizeof bads[0])

int main(void)
{
	char what[160], buf[512], *edge, *ro, *none;
	unsigned char *base;
	struct iovec iov[2];
	unsigned long i, fs;
	int fd, dfd;
	long r;

	printf("# efault\n");
	fflush(stdout);

	fd = open(D "hello.txt", O_RDONLY);
	dfd = open(D "dir", O_RDONLY | O_DIRECTORY);
	check(fd >= 0 && dfd >= 0, "open the fixtures");

	for (i = 0; i < NBAD; i++) {
		void *p = (void *)bads[i].p;
		const char *nm = bads[i].name;

#define T(call, want, fmt)                            \
	do {                                          \
		snprintf(what, sizeof what, fmt, nm); \
		errno = 0;                            \
		r = (call);                           \
		expect(r, want, what);                \
	} while (0)

		lseek(fd, 0, SEEK_SET);
		T(syscall(SYS_read, fd, p, 10), "EFAULT", "read into %s");
		check(lseek(fd, 0, SEEK_CUR) == 0, "the failed read left the offset at 0");
		T(syscall(SYS_read, fd, p, 0), bads[i].want0, "read 0 bytes into %s");
		T(syscall(SYS_pread64, fd, p, 10, 0), "EFAULT", "pread into %s");
		T(syscall(SYS_write, 1, p, 10), "EFAULT", "write from %s");
		T(syscall(SYS_write, 1, p, 0), bads[i].want0, "write 0 bytes from %s");
		iov[0].iov_base = p;
		iov[0].iov_len = 10;
		T(syscall(SYS_readv, fd, iov, 1), "EFAULT", "readv into iov_base %s");
		T(syscall(SYS_readv, fd, p, 1), "EFAULT", "readv with the iovec array at %s");
		T(syscall(SYS_writev, 1, iov, 1), "EFAULT", "writev from iov_base %s");
		T(syscall(SYS_writev, 1, p, 1), "EFAULT", "writev with the iovec array at %s");
		T(syscall(SYS_open, p, O_RDONLY), "EFAULT", "open(%s)");
		T(syscall(SYS_openat, AT_FDCWD, p, O_RDONLY), "EFAULT", "openat(AT_FDCWD, %s)");
		T(syscall(SYS_newfstatat, AT_FDCWD, p, buf, 0), "EFAULT", "newfstatat path %s");
		T(syscall(SYS_newfstatat, AT_FDCWD, D "hello.txt", p, 0), "EFAULT",
		  "newfstatat statbuf %s");
		T(syscall(SYS_fstat, fd, p), "EFAULT", "fstat into %s");
		T(syscall(SYS_statx, AT_FDCWD, D "hello.txt", 0, 0x7ff, p), "EFAULT",
		  "statx into %s");
		T(syscall(SYS_statx, AT_FDCWD, p, 0, 0x7ff, buf), "EFAULT", "statx path %s");
		T(syscall(SYS_access, p, F_OK), "EFAULT", "access(%s)");
		T(syscall(SYS_faccessat, AT_FDCWD, p, F_OK), "EFAULT", "faccessat(%s)");
		T(syscall(SYS_readlink, p, buf, sizeof buf), "EFAULT", "readlink path %s");
		T(syscall(SYS_readlink, D "link", p, 100), "EFAULT", "readlink into %s");
		lseek(dfd, 0, SEEK_SET);
		T(syscall(SYS_getdents64, dfd, p, 4096), "EFAULT", "getdents64 into %s");
		T(syscall(SYS_uname, p), "EFAULT", "uname(%s)");
		T(syscall(SYS_getcwd, p, 4096), "EFAULT", "getcwd into %s");
		T(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, p), "EFAULT",
		  "clock_gettime into %s");
		T(syscall(SYS_getrandom, p, 16, 0), "EFAULT", "getrandom into %s");
		T(syscall(SYS_arch_prctl, ARCH_GET_FS, p), "EFAULT", "arch_prctl(ARCH_GET_FS, %s)");
		if (p)
			T(syscall(SYS_gettimeofday, p, NULL), "EFAULT", "gettimeofday(%s)");
#undef T
	}

	/* --- a mapped page followed by an unmapped one --- */
	base = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(base != MAP_FAILED, "mmap 2 pages");
	check(munmap(base + PG, PG) == 0, "munmap the second one");
	edge = (char *)base + PG; /* first unmapped byte */

	/* read of the file into [edge-10, edge+90) */
	memset(edge - 10, '.', 10);
	lseek(fd, 0, SEEK_SET);
	errno = 0;
	r = syscall(SYS_read, fd, edge - 10, 100);
	expect(r, "10", "read of 100 bytes into a buffer 10 bytes before an unmapped page");
	check(memcmp(edge - 10, "Hello, wor", 10) == 0,
	      "the 10 mapped bytes hold the file's first 10 bytes");
	expect(lseek(fd, 0, SEEK_CUR), "10", "the file offset moved by what was copied");
	errno = 0;
	expect(syscall(SYS_read, fd, edge, 100), "EFAULT", "read into the unmapped page itself");
	memset(edge - 10, '.', 10);
	errno = 0;
	expect(syscall(SYS_pread64, fd, edge - 10, 100, 7), "10",
	       "pread of 100 bytes 10 bytes before the edge");
	check(memcmp(edge - 10, "world!\nThi", 10) == 0, "pread copied the file's bytes 7..16");

	/* readv: a good iovec then one that runs off the edge */
	lseek(fd, 0, SEEK_SET);
	memset(buf, 0, sizeof buf);
	iov[0].iov_base = buf;
	iov[0].iov_len = 5;
	iov[1].iov_base = edge - 3;
	iov[1].iov_len = 100;
	errno = 0;
	expect(syscall(SYS_readv, fd, iov, 2), "8",
	       "readv with the second iovec running off the edge");
	check(memcmp(buf, "Hello", 5) == 0 && memcmp(edge - 3, ", w", 3) == 0,
	      "readv copied 5 + 3 bytes");
	/* the iovec array itself running off the edge */
	{
		struct iovec *piov = (struct iovec *)(edge - sizeof(struct iovec));
		piov[0].iov_base = buf;
		piov[0].iov_len = 5;
		lseek(fd, 0, SEEK_SET);
		errno = 0;
		expect(syscall(SYS_readv, fd, piov, 2), "EFAULT",
		       "readv whose iovec array runs off the edge");
		check(lseek(fd, 0, SEEK_CUR) == 0, "nothing was read");
	}

	/* write to stdout from [edge-10, edge+90): the 10 mapped bytes are a
	 * TAP comment line, so a partial write shows up as "#straddle" */
	memcpy(edge - 10, "#straddle\n", 10);
	fflush(stdout);
	errno = 0;
	r = syscall(SYS_write, 1, edge - 10, 100);
	expect(r, "10", "write of 100 bytes from 10 bytes before an unmapped page");
	errno = 0;
	expect(syscall(SYS_write, 1, edge, 10), "EFAULT", "write from the unmapped page itself");

	/* paths that run into the edge */
	{
		static const char path[] = D "hello.txt";
		char *p = edge - sizeof path; /* NUL is the last mapped byte */
		memcpy(p, path, sizeof path);
		errno = 0;
		r = syscall(SYS_open, p, O_RDONLY);
		check(r >= 0, "open of a path whose NUL is the last mapped byte works");
		if (r >= 0)
			close(r);
		memcpy(edge - (sizeof path - 1), path, sizeof path - 1); /* no NUL */
		errno = 0;
		expect(syscall(SYS_open, edge - (sizeof path - 1), O_RDONLY), "EFAULT",
		       "open of a path that runs into the unmapped page");
		errno = 0;
		expect(syscall(SYS_newfstatat, AT_FDCWD, edge - (sizeof path - 1), buf, 0),
		       "EFAULT", "newfstatat of a path that runs into the unmapped page");
		errno = 0;
		expect(syscall(SYS_access, edge - (sizeof path - 1), F_OK), "EFAULT",
		       "access of a path that runs into the unmapped page");
	}

	/* structures that straddle the edge */
	errno = 0;
	expect(syscall(SYS_fstat, fd, edge - 64), "EFAULT",
	       "fstat into a struct stat straddling the edge");
	errno = 0;
	expect(syscall(SYS_statx, AT_FDCWD, D "hello.txt", 0, 0x7ff, edge - 64), "EFAULT",
	       "statx into a struct straddling the edge");
	errno = 0;
	expect(syscall(SYS_uname, edge - 100), "EFAULT", "uname into a struct straddling the edge");
	errno = 0;
	expect(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, edge - 8), "EFAULT",
	       "clock_gettime into a timespec straddling the edge");
	errno = 0;
	expect(syscall(SYS_gettimeofday, edge - 8, NULL), "EFAULT",
	       "gettimeofday into a timeval straddling the edge");
	errno = 0;
	expect(syscall(SYS_getcwd, edge - 1, 4096), "EFAULT", "getcwd into 1 byte before the edge");
	errno = 0;
	expect(syscall(SYS_readlink, D "link", edge - 4, 100), "EFAULT",
	       "readlink into 4 bytes before the edge");
	lseek(dfd, 0, SEEK_SET);
	errno = 0;
	expect(syscall(SYS_getdents64, dfd, edge - 20, 4096), "EFAULT",
	       "getdents64 into 20 bytes before the edge (no entry fits)");
	errno = 0;
	expect(syscall(SYS_getrandom, edge - 10, 100, 0), "10",
	       "getrandom of 100 bytes 10 bytes before the edge");
	errno = 0;
	expect(syscall(SYS_arch_prctl, ARCH_GET_FS, edge - 4), "EFAULT",
	       "arch_prctl(ARCH_GET_FS) straddling the edge");

	/* --- protection: the kernel honours PROT_READ and PROT_NONE --- */
	ro = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	none = mmap(NULL, PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memcpy(ro, "#ro-page\n", 9);
	mprotect(ro, PG, PROT_READ);
	lseek(fd, 0, SEEK_SET);
	errno = 0;
	expect(syscall(SYS_read, fd, ro, 10), "EFAULT", "read into a PROT_READ page");
	check(memcmp(ro, "#ro-page\n", 9) == 0, "the PROT_READ page is unchanged");
	errno = 0;
	expect(syscall(SYS_uname, ro), "EFAULT", "uname into a PROT_READ page");
	errno = 0;
	expect(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, ro), "EFAULT",
	       "clock_gettime into a PROT_READ page");
	fflush(stdout);
	errno = 0;
	expect(syscall(SYS_write, 1, ro, 9), "9", "write from a PROT_READ page works");
	errno = 0;
	expect(syscall(SYS_open, ro + 1, O_RDONLY), "ENOENT",
	       "open of a path in a PROT_READ page works (ENOENT)");
	lseek(fd, 0, SEEK_SET);
	errno = 0;
	expect(syscall(SYS_read, fd, none, 10), "EFAULT", "read into a PROT_NONE page");
	errno = 0;
	expect(syscall(SYS_write, 1, none, 10), "EFAULT", "write from a PROT_NONE page");
	errno = 0;
	expect(syscall(SYS_open, none, O_RDONLY), "EFAULT", "open of a path in a PROT_NONE page");
	errno = 0;
	expect(syscall(SYS_getrandom, none, 16, 0), "EFAULT", "getrandom into a PROT_NONE page");

	/* the process is still fine */
	fs = 0;
	check(syscall(SYS_arch_prctl, ARCH_GET_FS, &fs) == 0 && fs != 0, "still alive, FS intact");
	return 0;
}
