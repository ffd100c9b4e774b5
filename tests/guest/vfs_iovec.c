/* The iovec rules every vectored call shares (Linux's import_iovec):
 * readv, writev, preadv, sendmsg, recvmsg and vmsplice, through the raw
 * system calls. More than UIO_MAXIOV (1024) segments is EINVAL (sendmsg
 * and recvmsg: EMSGSIZE, their own check first); 0 segments is fine with
 * any array; an unreadable array is EFAULT; a length negative as ssize_t
 * is EINVAL, before a segment outside the user half (even an empty one) is
 * EFAULT; those checks come before anything moves. The total is cut at
 * MAX_RW_COUNT (seen through preadv's offset check). An unmapped buffer in
 * the user half faults only when a regular file's copy reaches it: a short
 * count after some bytes. The count is 32 bits wide (readv, writev,
 * vmsplice). Only what is the same from Linux 5.10 on is checked (pipes
 * that fault part way differ between versions: not checked). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "tap.h"

#define MAX_RW_COUNT 0x7ffff000L
static char buf[4096];
static void *const KADDR = (void *)0xffff800000000000UL;

static const char *ename(int e)
{
	switch (e) {
	case EINVAL:
		return "EINVAL";
	case EFAULT:
		return "EFAULT";
	case EMSGSIZE:
		return "EMSGSIZE";
	case EBADF:
		return "EBADF";
	case ESPIPE:
		return "ESPIPE";
	default:
		return strerror(e);
	}
}

/* r (a raw syscall's result) is the failure e, or the count want (e 0). */
static void expect(long r, int e, long want, const char *what)
{
	int err = errno;

	if (e ? (r == -1 && err == e) : r == want) {
		check(1, what);
		return;
	}
	printf("# %s: got %ld (%s), want %ld (%s)\n", what, r, r < 0 ? ename(err) : "-",
	       e ? -1 : want, e ? ename(e) : "-");
	check(0, what);
}

/* Bytes waiting in a non-blocking pipe, drained. */
static long drain(int fd)
{
	char b[8192];
	long r, total = 0;

	while ((r = read(fd, b, sizeof(b))) > 0)
		total += r;
	return total;
}

static struct iovec v[1100];

static void counts(int dn, int p[2])
{
	expect(syscall(SYS_writev, dn, v, 1025), EINVAL, 0, "writev of 1025 segments: EINVAL");
	expect(syscall(SYS_writev, dn, v, 1024), 0, 1024, "writev of 1024 segments");
	expect(syscall(SYS_writev, dn, NULL, 0), 0, 0, "writev of 0 segments, NULL array: 0");
	expect(syscall(SYS_readv, p[0], NULL, 0), 0, 0, "readv of 0 segments, NULL array: 0");
	expect(syscall(SYS_writev, dn, v, -1), EINVAL, 0, "writev of -1 segments: EINVAL");
	expect(syscall(SYS_writev, dn, v, (1UL << 32) | 1), 0, 1,
	       "writev's count is 32 bits: 1<<32 | 1 is 1");
	expect(write(p[1], "abcd", 4), 0, 4, "4 bytes into the pipe");
	expect(syscall(SYS_readv, p[0], v, (1UL << 32) | 2), 0, 2,
	       "readv's count is 32 bits: 1<<32 | 2 is 2");
	drain(p[0]);
	expect(syscall(SYS_preadv, p[0], v, 1025, 0, 0), ESPIPE, 0,
	       "preadv of a pipe: ESPIPE before the count");
	expect(syscall(SYS_vmsplice, p[1], v, 1025, 0), EINVAL, 0, "vmsplice of 1025: EINVAL");
	expect(syscall(SYS_vmsplice, p[1], NULL, 0, 0), 0, 0, "vmsplice of 0 segments: 0");
	expect(syscall(SYS_vmsplice, p[1], v, (1UL << 32) | 1, 0), 0, 1,
	       "vmsplice's count is 32 bits: 1<<32 | 1 is 1");
	drain(p[0]);
}

/* The same bad arrays for writev (to /dev/null and a pipe) and readv. */
static void arrays(int dn, int p[2])
{
	struct iovec a[3];

	expect(syscall(SYS_writev, dn, NULL, 1), EFAULT, 0, "writev, NULL array of 1: EFAULT");
	expect(syscall(SYS_writev, dn, NULL, 2), EFAULT, 0, "writev, NULL array of 2: EFAULT");
	expect(syscall(SYS_readv, p[0], NULL, 2), EFAULT, 0, "readv, NULL array: EFAULT");
	a[0] = (struct iovec){ buf, 5 };
	a[1] = (struct iovec){ buf, (size_t)-1 };
	expect(syscall(SYS_writev, dn, a, 2), EINVAL, 0, "writev, a negative length: EINVAL");
	expect(syscall(SYS_readv, p[0], a, 2), EINVAL, 0, "readv, a negative length: EINVAL");
	a[0] = (struct iovec){ buf, (size_t)-1 };
	expect(syscall(SYS_writev, dn, a, 1), EINVAL, 0, "writev, one negative length: EINVAL");
	a[0] = (struct iovec){ KADDR, 5 };
	a[1] = (struct iovec){ buf, (size_t)-1 };
	expect(syscall(SYS_writev, dn, a, 2), EINVAL, 0,
	       "writev, a kernel address then a negative length: EINVAL first");
	a[0] = (struct iovec){ buf, 5 };
	a[1] = (struct iovec){ KADDR, 5 };
	expect(syscall(SYS_writev, p[1], a, 2), EFAULT, 0,
	       "writev to a pipe, good then kernel address: EFAULT");
	expect(drain(p[0]), 0, 0, "... and nothing was written");
	expect(syscall(SYS_writev, dn, a, 2), EFAULT, 0,
	       "writev to /dev/null, good then kernel address: EFAULT");
	expect(write(p[1], "abcdefg", 7), 0, 7, "7 bytes into the pipe");
	a[0] = (struct iovec){ buf, 2 };
	expect(syscall(SYS_readv, p[0], a, 2), EFAULT, 0,
	       "readv, good then kernel address: EFAULT");
	expect(drain(p[0]), 0, 7, "... and nothing was read");
	a[0] = (struct iovec){ buf, 0 };
	a[1] = (struct iovec){ KADDR, 0 };
	expect(syscall(SYS_writev, dn, a, 2), EFAULT, 0,
	       "writev, an empty segment at a kernel address: EFAULT");
	a[0] = (struct iovec){ buf, INT64_MAX };
	a[1] = (struct iovec){ buf, INT64_MAX };
	expect(syscall(SYS_writev, dn, a, 2), EFAULT, 0,
	       "writev, two SSIZE_MAX lengths: EFAULT (their range), not EINVAL");
	a[0] = (struct iovec){ buf, MAX_RW_COUNT - 10 };
	a[1] = (struct iovec){ buf, 100 };
	a[2] = (struct iovec){ KADDR, 100 };
	expect(syscall(SYS_writev, dn, a, 3), EFAULT, 0,
	       "writev, a kernel address past the cut: still EFAULT");
}

/* The kernel's msghdr (musl's has an int msg_iovlen and padding). */
struct kmsghdr {
	void *msg_name;
	int msg_namelen;
	struct iovec *msg_iov;
	size_t msg_iovlen;
	void *msg_control;
	size_t msg_controllen;
	int msg_flags;
};

static long sendmsg_(int fd, struct kmsghdr *mh)
{
	return syscall(SYS_sendmsg, fd, mh, 0);
}

static void sockets(void)
{
	struct kmsghdr mh;
	struct iovec a[2];
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) {
		check(0, "socketpair");
		return;
	}
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = v;
	mh.msg_iovlen = 1025;
	expect(sendmsg_(sv[0], &mh), EMSGSIZE, 0, "sendmsg, 1025 segments: EMSGSIZE");
	expect(syscall(SYS_recvmsg, sv[1], &mh, 0), EMSGSIZE, 0,
	       "recvmsg, 1025 segments: EMSGSIZE");
	mh.msg_iovlen = (1UL << 32) | 1;
	expect(sendmsg_(sv[0], &mh), EMSGSIZE, 0,
	       "sendmsg, msg_iovlen 1<<32 | 1: EMSGSIZE (not cut)");
	mh.msg_iovlen = 1024;
	expect(sendmsg_(sv[0], &mh), 0, 1024, "sendmsg, 1024 segments");
	expect(drain(sv[1]), 0, 1024, "... all arrived");
	mh.msg_iov = a;
	mh.msg_iovlen = 2;
	a[0] = (struct iovec){ buf, 5 };
	a[1] = (struct iovec){ KADDR, 5 };
	expect(sendmsg_(sv[0], &mh), EFAULT, 0, "sendmsg, good then kernel address: EFAULT");
	a[1] = (struct iovec){ buf, (size_t)-1 };
	expect(sendmsg_(sv[0], &mh), EINVAL, 0, "sendmsg, a negative length: EINVAL");
	expect(drain(sv[1]), 0, 0, "... nothing arrived");
	mh.msg_iov = NULL;
	expect(sendmsg_(sv[0], &mh), EFAULT, 0, "sendmsg, NULL array of 2: EFAULT");
	mh.msg_iovlen = 0;
	expect(sendmsg_(sv[0], &mh), 0, 0, "sendmsg, NULL array of 0: 0");
	close(sv[0]);
	close(sv[1]);
}

static void splices(int p[2])
{
	struct iovec a[2];

	a[0] = (struct iovec){ buf, 5 };
	a[1] = (struct iovec){ KADDR, 5 };
	expect(syscall(SYS_vmsplice, p[1], a, 2, 0), EFAULT, 0,
	       "vmsplice, good then kernel address: EFAULT");
	a[1] = (struct iovec){ buf, (size_t)-1 };
	expect(syscall(SYS_vmsplice, p[1], a, 2, 0), EINVAL, 0,
	       "vmsplice, a negative length: EINVAL");
	expect(syscall(SYS_vmsplice, p[1], NULL, 2, 0), EFAULT, 0,
	       "vmsplice, NULL array of 2: EFAULT");
	a[0] = (struct iovec){ buf, 0 };
	a[1] = (struct iovec){ buf, 0 };
	expect(syscall(SYS_vmsplice, p[1], a, 2, 0), 0, 0, "vmsplice of 0 bytes: 0");
	expect(drain(p[0]), 0, 0, "... the pipe is empty");
}

/* A regular file: the cut total in preadv's offset check, and buffers
 * that fault part way. */
static void files(void)
{
	char dir[] = "/tmp/iovecXXXXXX", path[64];
	struct iovec a[2];
	void *unm;
	int fd;

	if (!mkdtemp(dir)) {
		check(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	unm = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(unm, 8192);
	a[0] = (struct iovec){ buf, MAX_RW_COUNT };
	a[1] = (struct iovec){ buf, 100 };
	expect(preadv(fd, a, 2, INT64_MAX - MAX_RW_COUNT), 0, 0,
	       "preadv: the total is cut at MAX_RW_COUNT before the offset check");
	expect(preadv(fd, a, 2, INT64_MAX - MAX_RW_COUNT + 1), EINVAL, 0,
	       "preadv: one more byte of offset wraps: EINVAL");
	a[0] = (struct iovec){ buf, 5 };
	a[1] = (struct iovec){ unm, 5 };
	expect(writev(fd, a, 2), 0, 5, "writev, good then unmapped: short count 5");
	a[0] = (struct iovec){ unm, 5 };
	a[1] = (struct iovec){ buf, 5 };
	expect(writev(fd, a, 2), EFAULT, 0, "writev, unmapped first: EFAULT");
	expect(lseek(fd, 0, SEEK_END), 0, 5, "the file has the 5 bytes");
	a[0] = (struct iovec){ buf, 2 };
	a[1] = (struct iovec){ unm, 5 };
	expect(preadv(fd, a, 2, 0), 0, 2, "preadv, good then unmapped: short count 2");
	close(fd);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	int dn = open("/dev/null", O_WRONLY), p[2], i;

	for (i = 0; i < 1100; i++)
		v[i] = (struct iovec){ buf, 1 };
	if (dn < 0 || pipe2(p, O_NONBLOCK) < 0) {
		check(0, "set-up");
		return 1;
	}
	counts(dn, p);
	arrays(dn, p);
	sockets();
	splices(p);
	files();
	printf("1..%d\n", n);
	return 0;
}
