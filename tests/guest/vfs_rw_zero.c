/* read(2) and write(2) of 0 bytes reach the file: Linux has no shortcut
 * for a count of 0 (only readv/writev return 0 for an empty total before
 * the file sees it). eventfd, timerfd and signalfd want a whole record
 * (EINVAL), a file without a read or write method is EINVAL whatever the
 * count (and before the buffer is looked at), an inotify instance says
 * EAGAIN or EINVAL, pipes and regular files return 0 at once (a pipe
 * without readers: no SIGPIPE), /dev/full is ENOSPC. pread and pwrite:
 * a negative offset is EINVAL before the fd, a file without an offset
 * ESPIPE before its access mode. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/uio.h>

#include "tap.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
static char buf[4096];
static void *const KADDR = (void *)0xffff800000000000UL;
static volatile sig_atomic_t sigpipes;

/* r is the failure e, or the count want (e 0). */
static void expect(long r, int e, long want, const char *what)
{
	int err = errno;

	if (e ? (r == -1 && err == e) : r == want) {
		check(1, what);
		return;
	}
	printf("# %s: got %ld (%s), want %ld (%s)\n", what, r, r < 0 ? strerror(err) : "-",
	       e ? -1 : want, e ? strerror(e) : "-");
	check(0, what);
}

static void on_sigpipe(int sig)
{
	(void)sig;
	sigpipes++;
}

static void records(void)
{
	sigset_t ss;
	int e = eventfd(0, EFD_NONBLOCK), tf = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK), sf;

	sigemptyset(&ss);
	sigaddset(&ss, SIGUSR1);
	sf = signalfd(-1, &ss, SFD_NONBLOCK);
	expect(read(e, buf, 0), EINVAL, 0, "read of 0 bytes from an eventfd: EINVAL");
	expect(write(e, buf, 0), EINVAL, 0, "write of 0 bytes to an eventfd: EINVAL");
	expect(read(e, NULL, 0), EINVAL, 0, "... with a NULL buffer: EINVAL");
	expect(read(e, KADDR, 0), EFAULT, 0, "... with a kernel buffer: EFAULT first");
	expect(read(e, buf, 7), EINVAL, 0, "read of 7 bytes from an eventfd: EINVAL");
	expect(write(e, buf, 7), EINVAL, 0, "write of 7 bytes to an eventfd: EINVAL");
	expect(read(e, buf, 8), EAGAIN, 0, "read of 8 from an empty eventfd: EAGAIN");
	expect(syscall(SYS_readv, e, NULL, 0), 0, 0, "readv of 0 segments from an eventfd: 0");
	expect(readv(e, (struct iovec[]){ { buf, 0 } }, 1), 0, 0,
	       "readv of an empty segment from an eventfd: 0");
	expect(writev(e, NULL, 0), 0, 0, "writev of 0 segments to an eventfd: 0");
	expect(pread(e, buf, 0, 0), ESPIPE, 0, "pread of 0 bytes from an eventfd: ESPIPE");
	expect(pwrite(e, buf, 8, 0), ESPIPE, 0, "pwrite to an eventfd: ESPIPE");
	expect(read(tf, buf, 0), EINVAL, 0, "read of 0 bytes from a timerfd: EINVAL");
	expect(write(tf, buf, 0), EINVAL, 0, "write of 0 bytes to a timerfd: EINVAL");
	expect(write(tf, buf, 8), EINVAL, 0, "write of 8 bytes to a timerfd: EINVAL");
	expect(read(sf, buf, 0), EINVAL, 0, "read of 0 bytes from a signalfd: EINVAL");
	expect(read(sf, buf, sizeof(struct signalfd_siginfo) - 1), EINVAL, 0,
	       "read of a record less one from a signalfd: EINVAL");
	expect(write(sf, buf, 0), EINVAL, 0, "write of 0 bytes to a signalfd: EINVAL");
	expect(syscall(SYS_readv, sf, NULL, 0), 0, 0, "readv of 0 segments from a signalfd: 0");
	close(e);
	close(tf);
	close(sf);
}

static void no_method(void)
{
	int ep = epoll_create1(0), pf = (int)syscall(SYS_pidfd_open, getpid(), 0);
	int in = inotify_init1(IN_NONBLOCK);

	expect(read(ep, buf, 0), EINVAL, 0, "read of 0 bytes from an epoll fd: EINVAL");
	expect(write(ep, buf, 0), EINVAL, 0, "write of 0 bytes to an epoll fd: EINVAL");
	expect(read(ep, KADDR, 1), EINVAL, 0, "read from an epoll fd, kernel buffer: EINVAL first");
	if (pf >= 0) {
		expect(read(pf, buf, 0), EINVAL, 0, "read of 0 bytes from a pidfd: EINVAL");
		expect(write(pf, buf, 0), EINVAL, 0, "write of 0 bytes to a pidfd: EINVAL");
	} else {
		check(1, "# no pidfd_open");
		check(1, "# no pidfd_open");
	}
	expect(read(in, buf, 0), EAGAIN, 0, "read of 0 bytes from an empty inotify: EAGAIN");
	inotify_add_watch(in, "/tmp", IN_CREATE);
	close(open("/tmp", O_TMPFILE | O_RDWR, 0600)); /* no event: nameless */
	{
		char name[] = "/tmp/rwzeroXXXXXX";
		int fd = mkstemp(name);

		close(fd);
		unlink(name);
	}
	expect(read(in, buf, 0), EINVAL, 0,
	       "read of 0 bytes from an inotify with an event: EINVAL");
	expect(write(in, buf, 0), EBADF, 0, "write of 0 bytes to an inotify (read-only): EBADF");
	close(ep);
	close(in);
	if (pf >= 0)
		close(pf);
}

static void streams(void)
{
	char name[] = "/tmp/rwzeroXXXXXX";
	int p[2], fd = mkstemp(name), full = open("/dev/full", O_WRONLY), ro;

	if (pipe(p) < 0 || fd < 0 || full < 0) {
		check(0, "set-up");
		return;
	}
	signal(SIGPIPE, on_sigpipe);
	expect(read(p[0], buf, 0), 0, 0, "read of 0 bytes from an empty blocking pipe: 0 at once");
	expect(write(p[1], buf, 0), 0, 0, "write of 0 bytes to a pipe: 0");
	expect(read(p[0], NULL, 0), 0, 0, "... and it holds nothing (a read with NULL: 0)");
	close(p[0]);
	expect(write(p[1], buf, 0), 0, 0, "write of 0 bytes to a pipe without readers: 0");
	check(sigpipes == 0, "... and no SIGPIPE");
	expect(write(p[1], buf, 1), EPIPE, 0, "write of 1 byte there: EPIPE");
	check(sigpipes == 1, "... and SIGPIPE");
	close(p[1]);
	expect(write(fd, buf, 0), 0, 0, "write of 0 bytes to a regular file: 0");
	expect(read(fd, buf, 0), 0, 0, "read of 0 bytes from a regular file: 0");
	expect(pwrite(fd, buf, 0, 100), 0, 0, "pwrite of 0 bytes at 100: 0");
	expect(lseek(fd, 0, SEEK_END), 0, 0, "... the file is still empty");
	{
		int ap = open(name, O_RDWR | O_APPEND);

		expect(write(ap, "0123456789", 10), 0, 10, "10 bytes appended");
		expect(lseek(ap, 3, SEEK_SET), 0, 3, "seek to 3");
		expect(write(ap, buf, 0), 0, 0, "write of 0 bytes with O_APPEND: 0");
		expect(lseek(ap, 0, SEEK_CUR), 0, 3, "... the position stays at 3");
		close(ap);
	}
	expect(write(full, buf, 0), ENOSPC, 0, "write of 0 bytes to /dev/full: ENOSPC");
	expect(pread(-1, buf, 1, -1), EINVAL, 0, "pread at -1 of a closed fd: EINVAL first");
	expect(pwrite(-1, buf, 1, -1), EINVAL, 0, "pwrite at -1 of a closed fd: EINVAL first");
	expect(pwrite(p[1] + 100, buf, 1, 0), EBADF, 0, "pwrite of a closed fd: EBADF");
	ro = open(name, O_RDONLY);
	expect(pwrite(ro, buf, 0, 0), EBADF, 0, "pwrite of 0 bytes to a read-only file: EBADF");
	if (pipe(p) == 0) {
		expect(pwrite(p[0], buf, 1, 0), ESPIPE, 0,
		       "pwrite to a pipe's read end: ESPIPE before EBADF");
		expect(pread(p[1], buf, 0, 0), ESPIPE, 0,
		       "pread of 0 bytes from a pipe's write end: ESPIPE");
		close(p[0]);
		close(p[1]);
	}
	close(ro);
	close(fd);
	close(full);
	unlink(name);
}

int main(void)
{
	records();
	no_method();
	streams();
	printf("1..%d\n", n);
	return 0;
}
