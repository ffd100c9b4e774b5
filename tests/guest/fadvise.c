/* fadvise64 / posix_fadvise: advice is accepted on files of every kind but
 * pipes and FIFOs (ESPIPE, even with bad arguments); EBADF for a closed fd,
 * -1 and an O_PATH fd; EINVAL for a negative len or an unknown advice; a
 * negative offset and huge ranges are fine. posix_fadvise returns the error
 * instead of setting errno. Runs in a private mkdtemp directory. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

static int n;

static const char *errname(int e)
{
	switch (e) {
	case 0:
		return "0";
	case EBADF:
		return "EBADF";
	case ESPIPE:
		return "ESPIPE";
	case EINVAL:
		return "EINVAL";
	default:
		return strerror(e);
	}
}

/* The raw call: 0 or the errno. */
static int fadv(int fd, long off, long len, int advice)
{
	errno = 0;
	if (syscall(SYS_fadvise64, fd, off, len, advice) == 0)
		return 0;
	return errno ? errno : -1;
}

static void want(int got, int exp, const char *what)
{
	if (got == exp)
		printf("ok %d - %s -> %s\n", ++n, what, errname(exp));
	else
		printf("not ok %d - %s: got %s, want %s\n", ++n, what, errname(got), errname(exp));
}

static void each_advice(int fd, const char *kind)
{
	char what[96];
	int adv;

	for (adv = POSIX_FADV_NORMAL; adv <= 5; adv++) {
		snprintf(what, sizeof(what), "%s: advice %d", kind, adv);
		want(fadv(fd, 0, 0, adv), 0, what);
	}
	snprintf(what, sizeof(what), "%s: advice 6", kind);
	want(fadv(fd, 0, 0, 6), EINVAL, what);
	snprintf(what, sizeof(what), "%s: advice -1", kind);
	want(fadv(fd, 0, 0, -1), EINVAL, what);
	snprintf(what, sizeof(what), "%s: len -1", kind);
	want(fadv(fd, 0, -1, POSIX_FADV_NORMAL), EINVAL, what);
}

int main(void)
{
	char dir[] = "/tmp/skasfadv.XXXXXX", path[64], fifo[64];
	int p[2], s[2], fd, pf, ff, ev, d, dn, wo;

	if (!mkdtemp(dir)) {
		printf("not ok 1 - mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/file", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);

	/* bad descriptors */
	want(fadv(999, 0, 0, POSIX_FADV_NORMAL), EBADF, "fd 999");
	want(fadv(-1, 0, 0, POSIX_FADV_NORMAL), EBADF, "fd -1");
	want(fadv(999, 0, -1, 99), EBADF, "fd 999 with bad len and advice: EBADF first");
	pf = open("/etc/passwd", O_PATH);
	want(fadv(pf, 0, 0, POSIX_FADV_NORMAL), EBADF, "an O_PATH fd");
	close(pf);

	/* a regular file on the guest's writable filesystem */
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (write(fd, "hello\n", 6) != 6)
		printf("# write failed\n");
	each_advice(fd, "tmp file");
	want(fadv(fd, -4096, 100, POSIX_FADV_WILLNEED), 0, "negative offset: accepted");
	want(fadv(fd, 0x7fffffffffffffffL, 0x7fffffffffffffffL, POSIX_FADV_DONTNEED), 0,
	     "a huge range");
	want(fadv(fd, 1L << 40, 0, POSIX_FADV_SEQUENTIAL), 0, "past the end");
	want(posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL), 0, "posix_fadvise: 0");
	want(posix_fadvise(fd, 0, 0, 77), EINVAL, "posix_fadvise returns EINVAL");
	close(fd);
	want(fadv(fd, 0, 0, POSIX_FADV_NORMAL), EBADF, "a closed fd");
	wo = open(path, O_WRONLY);
	want(fadv(wo, 0, 0, POSIX_FADV_DONTNEED), 0, "a write-only fd");
	close(wo);

	/* a file of the (host's) root and other kinds */
	fd = open("/etc/passwd", O_RDONLY);
	each_advice(fd, "/etc/passwd");
	close(fd);
	d = open(dir, O_RDONLY | O_DIRECTORY);
	want(fadv(d, 0, 0, POSIX_FADV_WILLNEED), 0, "a directory");
	close(d);
	dn = open("/dev/null", O_RDONLY);
	want(fadv(dn, 0, 0, POSIX_FADV_NORMAL), 0, "/dev/null");
	want(fadv(dn, 0, 0, 6), EINVAL, "/dev/null: advice 6");
	close(dn);
	ev = eventfd(0, 0);
	want(fadv(ev, 0, 0, POSIX_FADV_RANDOM), 0, "an eventfd");
	want(fadv(ev, 0, -5, POSIX_FADV_RANDOM), EINVAL, "an eventfd: len -5");
	close(ev);
	socketpair(AF_UNIX, SOCK_STREAM, 0, s);
	want(fadv(s[0], 0, 0, POSIX_FADV_NORMAL), 0, "a socket: 0 (not ESPIPE)");
	want(fadv(s[0], 0, 0, 9), EINVAL, "a socket: advice 9");
	close(s[0]);
	close(s[1]);

	/* pipes and FIFOs: ESPIPE before any other check */
	pipe(p);
	want(fadv(p[0], 0, 0, POSIX_FADV_NORMAL), ESPIPE, "a pipe's read end");
	want(fadv(p[1], 0, 0, POSIX_FADV_DONTNEED), ESPIPE, "a pipe's write end");
	want(fadv(p[0], 0, -1, 99), ESPIPE, "a pipe with bad len and advice");
	want(posix_fadvise(p[0], 0, 0, POSIX_FADV_NORMAL), ESPIPE, "posix_fadvise returns ESPIPE");
	close(p[0]);
	close(p[1]);
	if (mkfifo(fifo, 0600) < 0) {
		printf("not ok %d - mkfifo: %s\n", ++n, strerror(errno));
	} else {
		ff = open(fifo, O_RDWR);
		want(fadv(ff, 0, 0, POSIX_FADV_NORMAL), ESPIPE, "a FIFO");
		want(fadv(ff, 0, 0, 42), ESPIPE, "a FIFO with bad advice");
		close(ff);
		unlink(fifo);
	}

	unlink(path);
	rmdir(dir);
	printf("1..%d\n", n);
	return 0;
}
