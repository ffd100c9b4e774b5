/* openat2 (raw syscall 437 with struct open_how): RESOLVE_BENEATH,
 * RESOLVE_IN_ROOT, RESOLVE_NO_SYMLINKS, RESOLVE_NO_XDEV and the checks of
 * the struct itself (size, trailing bytes, unknown bits, mode). Works in a
 * directory made with mkdtemp("/tmp/skasvfs.XXXXXX"), removed at the end. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "tap.h"

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

struct xopen_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};

#define XRESOLVE_NO_XDEV       0x01
#define XRESOLVE_NO_MAGICLINKS 0x02
#define XRESOLVE_NO_SYMLINKS   0x04
#define XRESOLVE_BENEATH       0x08
#define XRESOLVE_IN_ROOT       0x10
static char dir[64];

static const char *ename(int e)
{
	switch (e) {
	case 0:
		return "0";
	case EPERM:
		return "EPERM";
	case ENOENT:
		return "ENOENT";
	case EBADF:
		return "EBADF";
	case EACCES:
		return "EACCES";
	case EFAULT:
		return "EFAULT";
	case EEXIST:
		return "EEXIST";
	case EXDEV:
		return "EXDEV";
	case ENOTDIR:
		return "ENOTDIR";
	case EISDIR:
		return "EISDIR";
	case EINVAL:
		return "EINVAL";
	case E2BIG:
		return "E2BIG";
	case EAGAIN:
		return "EAGAIN";
	case ENAMETOOLONG:
		return "ENAMETOOLONG";
	case ENOSYS:
		return "ENOSYS";
	case ELOOP:
		return "ELOOP";
	default:
		return "E?";
	}
}

static void check_err(long r, int want, const char *what)
{
	int e = errno;

	if (r == -1 && e == want)
		printf("ok %d - %s -> %s\n", ++n, what, ename(want));
	else
		printf("not ok %d - %s: ret %ld, errno %s (want %s)\n", ++n, what, r,
		       ename(r == -1 ? e : 0), ename(want));
	if (r >= 0)
		close((int)r);
}

/* Linux fails a RESOLVE_BENEATH/RESOLVE_IN_ROOT walk through ".." with
 * EAGAIN when any rename or mount on the host raced with it (openat2(2):
 * "the caller may choose to retry"); natively, beside other tests, that
 * happens. Retry as the man page says; the results checked are the same. */
static long openat2(int dfd, const char *path, uint64_t flags, uint64_t mode, uint64_t resolve)
{
	struct xopen_how how = { flags, mode, resolve };
	long r;
	int tries = 0;

	do
		r = syscall(SYS_openat2, dfd, path, &how, sizeof how);
	while (r == -1 && errno == EAGAIN && ++tries < 100);
	return r;
}

/* the fd's contents (at most 63 bytes), closing it; or "<errno>" */
static const char *slurp(long fd)
{
	static char buf[64];
	ssize_t r;

	if (fd < 0) {
		snprintf(buf, sizeof buf, "<%s>", ename(errno));
		return buf;
	}
	r = read((int)fd, buf, sizeof buf - 1);
	close((int)fd);
	buf[r < 0 ? 0 : r] = 0;
	return buf;
}

static const char *P(const char *name)
{
	static char bufs[4][256];
	static int i;
	char *b = bufs[i++ & 3];

	snprintf(b, 256, "%s/%s", dir, name);
	return b;
}

static void write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd >= 0) {
		if (write(fd, s, strlen(s)) < 0)
			perror("write");
		close(fd);
	}
}

int main(void)
{
	unsigned char big[64];
	struct xopen_how how;
	struct stat st;
	long r;
	int dfd, rootfd;

	setvbuf(stdout, NULL, _IOFBF, 0);
	umask(022);
	strcpy(dir, "/tmp/skasvfs.XXXXXX");
	if (!mkdtemp(dir)) {
		printf("not ok 1 - mkdtemp: errno %s\n", ename(errno));
		return 1;
	}
	check(mkdir(P("sub"), 0755) == 0, "mkdir sub");
	write_file(P("sub/file"), "inside");
	check(symlink("/sub/file", P("abs")) == 0, "symlink abs -> /sub/file");
	check(symlink("sub/file", P("rel")) == 0, "symlink rel -> sub/file");
	check(symlink("sub", P("sl")) == 0, "symlink sl -> sub");
	check(symlink("../..", P("sub/up")) == 0, "symlink sub/up -> ../..");
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	check(dfd >= 0, "open the directory");

	/* --- plain openat2 --- */
	check(strcmp(slurp(openat2(dfd, "sub/file", O_RDONLY, 0, 0)), "inside") == 0,
	      "openat2 with no resolve flags reads sub/file");

	/* --- RESOLVE_BENEATH --- */
	check(strcmp(slurp(openat2(dfd, "sub/file", O_RDONLY, 0, XRESOLVE_BENEATH)), "inside") == 0,
	      "RESOLVE_BENEATH: sub/file");
	check(strcmp(slurp(openat2(dfd, "sub/../sub/file", O_RDONLY, 0, XRESOLVE_BENEATH)),
		     "inside") == 0,
	      "RESOLVE_BENEATH: sub/../sub/file stays beneath");
	check(strcmp(slurp(openat2(dfd, "rel", O_RDONLY, 0, XRESOLVE_BENEATH)), "inside") == 0,
	      "RESOLVE_BENEATH: a relative symlink inside");
	errno = 0;
	check_err(openat2(dfd, "../x", O_RDONLY, 0, XRESOLVE_BENEATH), EXDEV,
		  "RESOLVE_BENEATH: ../x");
	errno = 0;
	check_err(openat2(dfd, "sub/../../x", O_RDONLY, 0, XRESOLVE_BENEATH), EXDEV,
		  "RESOLVE_BENEATH: sub/../../x");
	errno = 0;
	check_err(openat2(dfd, "/etc/passwd", O_RDONLY, 0, XRESOLVE_BENEATH), EXDEV,
		  "RESOLVE_BENEATH: /etc/passwd");
	errno = 0;
	check_err(openat2(dfd, "abs", O_RDONLY, 0, XRESOLVE_BENEATH), EXDEV,
		  "RESOLVE_BENEATH: an absolute symlink");
	errno = 0;
	check_err(openat2(dfd, "sub/up/etc/passwd", O_RDONLY, 0, XRESOLVE_BENEATH), EXDEV,
		  "RESOLVE_BENEATH: a symlink to ../..");
	r = openat2(dfd, "created", O_WRONLY | O_CREAT | O_EXCL, 0640, XRESOLVE_BENEATH);
	check(r >= 0, "RESOLVE_BENEATH with O_CREAT creates a file");
	if (r >= 0)
		close((int)r);
	check(stat(P("created"), &st) == 0 && (st.st_mode & 07777) == 0640,
	      "the created file has mode 0640");

	/* --- RESOLVE_IN_ROOT --- */
	check(strcmp(slurp(openat2(dfd, "abs", O_RDONLY, 0, XRESOLVE_IN_ROOT)), "inside") == 0,
	      "RESOLVE_IN_ROOT: abs -> /sub/file resolves inside the directory");
	check(strcmp(slurp(openat2(dfd, "/sub/file", O_RDONLY, 0, XRESOLVE_IN_ROOT)), "inside") ==
		      0,
	      "RESOLVE_IN_ROOT: /sub/file is the directory's sub/file");
	check(strcmp(slurp(openat2(dfd, "../../../sub/file", O_RDONLY, 0, XRESOLVE_IN_ROOT)),
		     "inside") == 0,
	      "RESOLVE_IN_ROOT: .. stops at the directory");
	check(strcmp(slurp(openat2(dfd, "sub/up/sub/file", O_RDONLY, 0, XRESOLVE_IN_ROOT)),
		     "inside") == 0,
	      "RESOLVE_IN_ROOT: a symlink to ../.. stops at the directory");
	errno = 0;
	check_err(openat2(dfd, "/etc/passwd", O_RDONLY, 0, XRESOLVE_IN_ROOT), ENOENT,
		  "RESOLVE_IN_ROOT: /etc/passwd is not there");
	errno = 0;
	check_err(openat2(dfd, "x", O_RDONLY, 0, XRESOLVE_IN_ROOT | XRESOLVE_BENEATH), EINVAL,
		  "RESOLVE_IN_ROOT|RESOLVE_BENEATH");

	/* --- RESOLVE_NO_SYMLINKS --- */
	check(strcmp(slurp(openat2(dfd, "sub/file", O_RDONLY, 0, XRESOLVE_NO_SYMLINKS)),
		     "inside") == 0,
	      "RESOLVE_NO_SYMLINKS: a path without symlinks");
	errno = 0;
	check_err(openat2(dfd, "rel", O_RDONLY, 0, XRESOLVE_NO_SYMLINKS), ELOOP,
		  "RESOLVE_NO_SYMLINKS: a symlink as the last component");
	errno = 0;
	check_err(openat2(dfd, "sl/file", O_RDONLY, 0, XRESOLVE_NO_SYMLINKS), ELOOP,
		  "RESOLVE_NO_SYMLINKS: a symlink in the middle");
	r = openat2(dfd, "rel", O_RDONLY | O_PATH | O_NOFOLLOW, 0, XRESOLVE_NO_SYMLINKS);
	check(r >= 0, "RESOLVE_NO_SYMLINKS: O_PATH|O_NOFOLLOW of the symlink itself");
	if (r >= 0)
		close((int)r);
	check(strcmp(slurp(openat2(dfd, "rel", O_RDONLY, 0, XRESOLVE_NO_MAGICLINKS)), "inside") ==
		      0,
	      "RESOLVE_NO_MAGICLINKS follows an ordinary symlink");

	/* --- RESOLVE_NO_XDEV --- */
	rootfd = open("/", O_RDONLY | O_DIRECTORY);
	errno = 0;
	check_err(openat2(rootfd, "dev/null", O_RDONLY, 0, XRESOLVE_NO_XDEV), EXDEV,
		  "RESOLVE_NO_XDEV: / to dev/null crosses a mount");
	r = openat2(rootfd, "etc", O_RDONLY | O_DIRECTORY, 0, XRESOLVE_NO_XDEV);
	check(r >= 0, "RESOLVE_NO_XDEV: / to etc does not");
	if (r >= 0)
		close((int)r);
	close(rootfd);
	check(strcmp(slurp(openat2(dfd, "sub/file", O_RDONLY, 0, XRESOLVE_NO_XDEV)), "inside") == 0,
	      "RESOLVE_NO_XDEV: within the directory");

	/* --- the struct --- */
	errno = 0;
	check_err(openat2(dfd, "sub/file", O_RDONLY, 0, 1ULL << 10), EINVAL,
		  "unknown resolve bits");
	errno = 0;
	check_err(openat2(dfd, "sub/file", O_RDONLY, 0, 1ULL << 63), EINVAL, "resolve bit 63");
	errno = 0;
	check_err(openat2(dfd, "sub/file", O_RDONLY | (1ULL << 40), 0, 0), EINVAL, "flags bit 40");
	errno = 0;
	check_err(openat2(dfd, "sub/file", O_RDONLY, 0644, 0), EINVAL, "mode without O_CREAT");
	errno = 0;
	check_err(openat2(dfd, "new", O_WRONLY | O_CREAT, 010000, 0), EINVAL,
		  "mode with bits above 07777");
	memset(&how, 0, sizeof how);
	errno = 0;
	check_err(syscall(SYS_openat2, dfd, "sub/file", &how, 16), EINVAL, "size 16");
	errno = 0;
	check_err(syscall(SYS_openat2, dfd, "sub/file", &how, 0), EINVAL, "size 0");
	memset(big, 0, sizeof big);
	r = syscall(SYS_openat2, dfd, "sub/file", big, sizeof big);
	check(strcmp(slurp(r), "inside") == 0, "a 64-byte struct with zero trailing bytes works");
	big[40] = 1;
	errno = 0;
	check_err(syscall(SYS_openat2, dfd, "sub/file", big, sizeof big), E2BIG,
		  "a 64-byte struct with a nonzero trailing byte");
	errno = 0;
	check_err(syscall(SYS_openat2, dfd, "sub/file", (void *)8, sizeof how), EFAULT,
		  "a bad struct address");
	errno = 0;
	check_err(openat2(dfd, "missing", O_RDONLY, 0, XRESOLVE_BENEATH), ENOENT,
		  "RESOLVE_BENEATH: a missing name");

	/* --- cleanup --- */
	close(dfd);
	unlink(P("created"));
	unlink(P("sub/up"));
	unlink(P("sub/file"));
	unlink(P("abs"));
	unlink(P("rel"));
	unlink(P("sl"));
	rmdir(P("sub"));
	check(rmdir(dir) == 0, "the directory is removed");
	return 0;
}
