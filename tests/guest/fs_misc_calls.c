/* Calls that act on fds and files beside read/write: creat,
 * close_range, preadv/pwritev/preadv2/pwritev2, readahead,
 * sync_file_range, the old getdents, and sethostname/setdomainname (in a
 * UTS namespace of its own when the host has them: the native run must
 * not rename the host). Files live in a private mkdtemp directory. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "tap.h"

#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE 2
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC 4
#endif
#ifndef RWF_HIPRI
#define RWF_HIPRI 1
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

static const char *ename(int e)
{
	switch (e) {
	case 0:
		return "0";
	case EPERM:
		return "EPERM";
	case EBADF:
		return "EBADF";
	case EFAULT:
		return "EFAULT";
	case EINVAL:
		return "EINVAL";
	case ESPIPE:
		return "ESPIPE";
	case ENOTDIR:
		return "ENOTDIR";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	case ENOSYS:
		return "ENOSYS";
	default:
		return "other";
	}
}

static void check_err(long r, int want, const char *what)
{
	int e = r < 0 ? errno : 0;

	if (r < 0 && e == want)
		printf("ok %d - %s -> %s\n", ++n, what, ename(want));
	else
		printf("not ok %d - %s: ret %ld, errno %s (want %s)\n", ++n, what, r, ename(e),
		       ename(want));
}

/* raw: musl has no preadv2 */
static long preadv2_(int fd, const struct iovec *iov, int cnt, long pos, int flags)
{
	return syscall(SYS_preadv2, fd, iov, cnt, pos, 0, flags);
}

static long pwritev2_(int fd, const struct iovec *iov, int cnt, long pos, int flags)
{
	return syscall(SYS_pwritev2, fd, iov, cnt, pos, 0, flags);
}

static int is_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

/* the old struct linux_dirent: d_type is the record's last byte */
struct old_dirent {
	unsigned long d_ino, d_off;
	unsigned short d_reclen;
	char d_name[];
};

static char dir[] = "/tmp/skasmisc.XXXXXX";

static const char *P(const char *name)
{
	static char buf[2][128];
	static int k;

	k ^= 1;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static void calls_creat_preadv(void)
{
	char a[4] = { 0 }, b[5] = { 0 }, big[16];
	struct iovec iov[2] = { { a, 3 }, { b, 4 } };
	struct stat st;
	int fd, ro, p[2];

	fd = creat(P("c"), 0640);
	check(fd >= 0, "creat makes a file");
	check(fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0640,
	      "mode 0640");
	check(fcntl(fd, F_GETFL) >= 0 && (fcntl(fd, F_GETFL) & O_ACCMODE) == O_WRONLY,
	      "creat opens write-only");
	check(write(fd, "0123456789", 10) == 10, "write 10 bytes");
	close(fd);
	fd = creat(P("c"), 0600);
	check(fd >= 0 && fstat(fd, &st) == 0 && st.st_size == 0, "creat truncates");
	check(write(fd, "abcdefghij", 10) == 10, "write 10 again");
	close(fd);

	fd = open(P("c"), O_RDWR);
	check(lseek(fd, 1, SEEK_SET) == 1, "position 1");
	check(preadv(fd, iov, 2, 2) == 7 && !memcmp(a, "cde", 3) && !memcmp(b, "fghi", 4),
	      "preadv at 2 fills both iovecs");
	check(lseek(fd, 0, SEEK_CUR) == 1, "preadv leaves the position");
	iov[0].iov_base = "XY";
	iov[0].iov_len = 2;
	iov[1].iov_base = "Z";
	iov[1].iov_len = 1;
	check(pwritev(fd, iov, 2, 8) == 3, "pwritev 3 bytes at 8");
	check(pread(fd, big, 16, 0) == 11 && !memcmp(big, "abcdefghXYZ", 11),
	      "the file grew to 11: abcdefghXYZ");
	check(lseek(fd, 0, SEEK_CUR) == 1, "pwritev leaves the position");
	/* rw_verify_area on the whole count: the last segment's end wraps */
	check_err(pwritev(fd, iov, 2, INT64_MAX - 2), EINVAL, "pwritev ending past INT64_MAX");
	check_err(preadv(fd, iov, 2, INT64_MAX - 2), EINVAL, "preadv ending past INT64_MAX");
	iov[0].iov_base = a;
	iov[0].iov_len = 3;
	check(preadv2_(fd, iov, 1, -1, 0) == 3 && !memcmp(a, "bcd", 3) &&
		      lseek(fd, 0, SEEK_CUR) == 4,
	      "preadv2 at -1 reads at the position and moves it");
	check(preadv2_(fd, iov, 1, 0, RWF_HIPRI) == 3 && !memcmp(a, "abc", 3),
	      "preadv2 with RWF_HIPRI");
	iov[0].iov_base = "Q";
	iov[0].iov_len = 1;
	check(pwritev2_(fd, iov, 1, -1, 0) == 1 && lseek(fd, 0, SEEK_CUR) == 5,
	      "pwritev2 at -1 writes at the position");
	check(pread(fd, big, 16, 0) == 11 && !memcmp(big, "abcdQfghXYZ", 11),
	      "the file reads abcdQfghXYZ");
	iov[0].iov_base = a;
	check_err(preadv(fd, iov, 1, -1), EINVAL, "preadv at -1");
	check_err(preadv2_(fd, iov, 1, -2, 0), EINVAL, "preadv2 at -2");
	check_err(preadv2_(fd, iov, 1, 0, 0x40000000), EOPNOTSUPP, "preadv2 with an unknown flag");
	iov[0].iov_len = 0;
	check(preadv2_(fd, iov, 1, 0, 0x40000000) == 0, "an unknown flag with nothing to read: 0");
	iov[0].iov_len = 3;
	check_err(syscall(SYS_preadv, fd, iov, -1, 0L, 0L), EINVAL, "preadv with -1 iovecs");
	check_err(syscall(SYS_preadv, fd, 8L, 1, 0L, 0L), EFAULT, "preadv with a bad iovec array");
	check_err(preadv(-1, iov, 1, 0), EBADF, "preadv of fd -1");
	check_err(syscall(SYS_readv, fd, iov, 1025), EINVAL, "readv of 1025 segments");
	check_err(preadv(-1, iov, 1, -1), EINVAL, "preadv of fd -1 at -1: EINVAL first");
	ro = open(P("c"), O_RDONLY);
	check_err(pwritev(ro, iov, 1, 0), EBADF, "pwritev to a read-only fd");
	close(ro);
	check(pipe(p) == 0, "a pipe");
	check_err(preadv(p[0], iov, 1, 0), ESPIPE, "preadv of a pipe");
	check_err(pwritev(p[0], iov, 1, 0), ESPIPE, "pwritev to a pipe's read end: ESPIPE first");
	iov[0].iov_base = "pp";
	iov[0].iov_len = 2;
	check(pwritev2_(p[1], iov, 1, -1, 0) == 2 && read(p[0], big, 16) == 2,
	      "pwritev2 at -1 writes to a pipe");
	close(p[0]);
	close(p[1]);

	/* readahead and sync_file_range */
	check(readahead(fd, 0, 4096) == 0, "readahead of a file");
	check(sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE) == 0, "sync_file_range");
	check_err(sync_file_range(fd, 0, 0, 8), EINVAL, "sync_file_range with flag 8");
	check_err(sync_file_range(fd, -1, 0, 0), EINVAL, "sync_file_range at -1");
	check_err(sync_file_range(fd, 0, -1, 0), EINVAL, "sync_file_range of -1 bytes");
	check_err(sync_file_range(-1, 0, 0, 0), EBADF, "sync_file_range of fd -1");
	check(pipe(p) == 0, "a pipe");
	check_err(readahead(p[0], 0, 10), EINVAL, "readahead of a pipe");
	check_err(sync_file_range(p[0], 0, 0, 0), ESPIPE, "sync_file_range of a pipe");
	close(p[1]);
	check_err(readahead(p[1], 0, 10), EBADF, "readahead of a closed fd");
	close(p[0]);
	ro = open(P("c"), O_WRONLY);
	check_err(readahead(ro, 0, 10), EBADF, "readahead of a write-only fd");
	close(ro);
	close(fd);
}

static void calls_close_range(void)
{
	int base = open("/dev/null", O_RDONLY), i, st;
	pid_t pid;

	check(base >= 0, "open /dev/null");
	for (i = 1; i <= 5; i++)
		check(dup2(base, base + i) == base + i, "dup2 a run of fds");
	check(syscall(SYS_close_range, base + 1, base + 2, 0) == 0, "close_range two fds");
	check(!is_open(base + 1) && !is_open(base + 2) && is_open(base + 3),
	      "those two closed, the next open");
	check(syscall(SYS_close_range, base + 3, base + 4, CLOSE_RANGE_CLOEXEC) == 0,
	      "close_range CLOEXEC");
	check(is_open(base + 3) && fcntl(base + 3, F_GETFD) == FD_CLOEXEC &&
		      fcntl(base + 5, F_GETFD) == 0,
	      "marked close-on-exec, still open; the next unmarked");
	check_err(syscall(SYS_close_range, 5, 4, 0), EINVAL, "first > last");
	check_err(syscall(SYS_close_range, 0, 1, 1), EINVAL, "flag 1");
	check(syscall(SYS_close_range, base + 100, ~0U, 0) == 0, "a range of unopened fds");
	/* a thread-like child sharing the table: UNSHARE closes only its own */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (syscall(SYS_close_range, base, ~0U, CLOSE_RANGE_UNSHARE) != 0)
			_exit(1);
		_exit(is_open(base) ? 2 : 0);
	}
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "close_range UNSHARE to the end in a child");
	check(is_open(base) && is_open(base + 5), "the parent's fds stay open");
	check(syscall(SYS_close_range, base, base + 5, 0) == 0 && !is_open(base) &&
		      !is_open(base + 5),
	      "close_range the rest");
}

static void calls_getdents(void)
{
	char buf[4096];
	int fd = open(dir, O_RDONLY | O_DIRECTORY), found = 0, dots = 0;
	long k, off;

	check(fd >= 0, "open the directory");
	for (;;) {
		k = syscall(SYS_getdents, fd, buf, sizeof(buf));
		if (k <= 0)
			break;
		for (off = 0; off < k;) {
			struct old_dirent *d = (struct old_dirent *)(buf + off);
			char type = buf[off + d->d_reclen - 1];

			if (!strcmp(d->d_name, "c") && type == DT_REG)
				found++;
			if ((!strcmp(d->d_name, ".") || !strcmp(d->d_name, "..")) && type == DT_DIR)
				dots++;
			off += d->d_reclen;
		}
	}
	check(k == 0, "getdents to the end");
	check(found == 1 && dots == 2, "c as DT_REG, . and .. as DT_DIR in the last byte");
	/* A count above INT_MAX is a negative int to Linux: no entry fits. */
	check(syscall(SYS_getdents, fd, buf, 0x80000000UL) == 0,
	      "getdents of 2^31 bytes at the end: 0");
	lseek(fd, 0, SEEK_SET);
	check_err(syscall(SYS_getdents, fd, buf, 0x80000000UL), EINVAL, "getdents of 2^31 bytes");
	check_err(syscall(SYS_getdents64, fd, buf, 0xffffffffUL), EINVAL,
		  "getdents64 of 2^32-1 bytes");
	close(fd);
	fd = open(P("c"), O_RDONLY);
	check_err(syscall(SYS_getdents, fd, buf, sizeof(buf)), ENOTDIR, "getdents of a file");
	close(fd);
	check_err(syscall(SYS_getdents, -1, buf, sizeof(buf)), EBADF, "getdents of fd -1");
}

static void calls_uts(void)
{
	int st;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct utsname u;
		char s[80];
		int fd, k, n0 = n;

		/* a UTS namespace of the child's own, so that the
		 * host's name never changes */
		if (unshare(CLONE_NEWUTS) < 0)
			_exit(255);
		check(sethostname("guest-1", 7) == 0, "sethostname");
		check(uname(&u) == 0 && !strcmp(u.nodename, "guest-1"), "uname has it");
		fd = open("/proc/sys/kernel/hostname", O_RDONLY);
		k = fd >= 0 ? read(fd, s, sizeof(s) - 1) : -1;
		check(k == 8 && !memcmp(s, "guest-1\n", 8), "/proc/sys/kernel/hostname has it");
		close(fd);
		fd = open("/proc/sys/kernel/hostname", O_WRONLY);
		check(fd >= 0 && write(fd, "guest-2\nrest", 12) == 12, "write the proc file");
		close(fd);
		check(uname(&u) == 0 && !strcmp(u.nodename, "guest-2"),
		      "the name is the first line written");
		check(sethostname(
			      "0123456789012345678901234567890123456789012345678901234567890123",
			      64) == 0 &&
			      uname(&u) == 0 && strlen(u.nodename) == 64,
		      "a 64-byte name");
		check_err(syscall(SYS_sethostname, "x", 65), EINVAL, "65 bytes");
		check_err(syscall(SYS_sethostname, "x", -1), EINVAL, "a negative length");
		check_err(syscall(SYS_sethostname, 8L, 4), EFAULT, "a bad pointer");
		check(setdomainname("example", 7) == 0 && uname(&u) == 0 &&
			      !strcmp(u.domainname, "example"),
		      "setdomainname");
		fd = open("/proc/sys/kernel/domainname", O_RDONLY);
		k = fd >= 0 ? read(fd, s, sizeof(s) - 1) : -1;
		check(k == 8 && !memcmp(s, "example\n", 8), "/proc/sys/kernel/domainname has it");
		close(fd);
		if (setresuid(1000, 1000, 1000) < 0)
			_exit(254);
		check_err(sethostname("x", 1), EPERM, "sethostname as uid 1000");
		check_err(setdomainname("x", 1), EPERM, "setdomainname as uid 1000");
		fflush(stdout);
		_exit(n - n0);
	}
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 13,
	      "the child made its 13 checks");
	n += 13;
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	calls_creat_preadv();
	calls_close_range();
	calls_getdents();
	calls_uts();
	unlink(P("c"));
	rmdir(dir);
	return 0;
}
