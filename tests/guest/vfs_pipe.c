/* Pipe sizes and packet mode: F_GETPIPE_SZ/F_SETPIPE_SZ (rounding to a
 * power of two of pages, one page at least, EBUSY below the content, EPERM
 * above /proc/sys/fs/pipe-max-size without CAP_SYS_RESOURCE, EBADF on a
 * non-pipe), the capacity in buffers as Linux counts it, and pipe2(O_DIRECT)
 * packets, FIONBIO, a FIFO's POLLHUP and size across opens. Children report through their exit status. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"

static void check_val(long got, long want, const char *what)
{
	if (got == want)
		printf("ok %d - %s = %ld\n", ++n, what, want);
	else
		printf("not ok %d - %s: got %ld (errno %s), want %ld\n", ++n, what, got,
		       ename(errno), want);
}

/* Writes chunk-byte writes until EAGAIN; returns how many went in. */
static int fill(int fd, size_t chunk)
{
	static char buf[8192];
	int count = 0;

	while (write(fd, buf, chunk) == (ssize_t)chunk)
		count++;
	return errno == EAGAIN ? count : -1;
}

static void sizes(void)
{
	int p[2], fd;
	char buf[4096];

	if (pipe2(p, O_NONBLOCK) < 0)
		return;
	check_val(fcntl(p[0], F_GETPIPE_SZ), 65536, "default size");
	check_val(fcntl(p[1], F_GETPIPE_SZ), 65536, "default size, write end");
	check_val(fcntl(p[1], F_SETPIPE_SZ, 0), 4096, "size 0 rounds to one page");
	check_val(fcntl(p[0], F_GETPIPE_SZ), 4096, "the other end sees it");
	check_val(fcntl(p[1], F_SETPIPE_SZ, 5000), 8192, "5000 rounds to 8192");
	check_val(fcntl(p[1], F_SETPIPE_SZ, 65537), 131072, "65537 rounds to 131072");
	check_val(fcntl(p[1], F_SETPIPE_SZ, 1 << 20), 1 << 20, "1 MiB");
	check_err(fcntl(p[1], F_SETPIPE_SZ, (1UL << 31) + 1), EINVAL, "over 2 GiB");
	check_err(fcntl(p[1], F_SETPIPE_SZ, 2 << 20), EPERM, "over pipe-max-size");
	check_val(fcntl(p[1], F_SETPIPE_SZ, 16384), 16384, "shrink to 4 pages");
	check_val(fill(p[1], 3000), 4, "3000-byte writes: one buffer each, 4 fit");
	check_err(fcntl(p[1], F_SETPIPE_SZ, 8192), EBUSY, "shrink below the content");
	check_val(fcntl(p[1], F_GETPIPE_SZ), 16384, "size unchanged");
	while (read(p[0], buf, sizeof(buf)) > 0)
		;
	check_val(fill(p[1], 1000), 16, "1000-byte writes merge: 16 in 4 pages");
	while (read(p[0], buf, sizeof(buf)) > 0)
		;
	check_val(write(p[1], buf, 100), 100, "write 100");
	check_val(fcntl(p[1], F_SETPIPE_SZ, 4096), 4096, "shrink to one page with one buffer");
	check_val(fill(p[1], 1), 3996, "1-byte writes fill the page");
	{
		struct pollfd pf = { .fd = p[1], .events = POLLOUT };

		check_val(poll(&pf, 1, 0), 0, "full: no POLLOUT");
	}
	check_val(read(p[0], buf, 4096), 4096, "read it all");
	{
		struct pollfd pf = { .fd = p[1], .events = POLLOUT };

		check_val(poll(&pf, 1, 0), 1, "empty: POLLOUT");
	}
	close(p[0]);
	close(p[1]);

	fd = open("/dev/null", O_RDONLY);
	check_err(fcntl(fd, F_GETPIPE_SZ), EBADF, "F_GETPIPE_SZ on /dev/null");
	check_err(fcntl(fd, F_SETPIPE_SZ, 4096), EBADF, "F_SETPIPE_SZ on /dev/null");
	close(fd);

	fd = open("/proc/sys/fs/pipe-max-size", O_RDONLY);
	if (fd >= 0) {
		ssize_t r = read(fd, buf, sizeof(buf) - 1);

		buf[r > 0 ? r : 0] = 0;
		check(strcmp(buf, "1048576\n") == 0, "/proc/sys/fs/pipe-max-size is 1048576");
		close(fd);
	} else {
		check(0, "/proc/sys/fs/pipe-max-size opens");
	}
}

/* As an unprivileged user: 1 MiB is allowed, 2 MiB is EPERM, shrinking
 * is always allowed. */
static void unprivileged(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		int p[2];

		if (pipe(p) < 0 || setgid(65534) < 0 || setuid(65534) < 0)
			_exit(10);
		if (fcntl(p[0], F_SETPIPE_SZ, 1 << 20) != 1 << 20)
			_exit(11);
		if (fcntl(p[0], F_SETPIPE_SZ, 2 << 20) != -1 || errno != EPERM)
			_exit(12);
		if (fcntl(p[0], F_SETPIPE_SZ, 4096) != 4096)
			_exit(13);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	check_val(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 0,
		  "unprivileged: 1 MiB ok, 2 MiB EPERM, shrink ok");
}

static void packets(void)
{
	int p[2], avail = -1;
	char buf[8192];

	if (pipe2(p, O_DIRECT | O_NONBLOCK) < 0) {
		check(0, "pipe2(O_DIRECT)");
		return;
	}
	check(!(fcntl(p[0], F_GETFL) & O_DIRECT) && (fcntl(p[1], F_GETFL) & O_DIRECT),
	      "the write end has O_DIRECT");
	check_val(write(p[1], "abc", 3), 3, "packet 1");
	check_val(write(p[1], "defgh", 5), 5, "packet 2");
	check_val(write(p[1], "xyz", 3), 3, "packet 3");
	ioctl(p[0], FIONREAD, &avail);
	check_val(avail, 11, "FIONREAD counts all bytes");
	check_val(read(p[0], buf, sizeof(buf)), 3, "a read returns one packet");
	check(memcmp(buf, "abc", 3) == 0, "its bytes");
	check_val(read(p[0], buf, 2), 2, "a short read takes part of a packet");
	check(memcmp(buf, "de", 2) == 0, "its bytes");
	check_val(read(p[0], buf, sizeof(buf)), 3, "the rest of it was discarded");
	check(memcmp(buf, "xyz", 3) == 0, "next packet's bytes");
	check_err(read(p[0], buf, sizeof(buf)), EAGAIN, "empty");
	memset(buf, 'q', sizeof(buf));
	check_val(write(p[1], buf, 5000), 5000, "a 5000-byte write");
	check_val(read(p[0], buf, sizeof(buf)), 4096, "is a 4096-byte packet");
	check_val(read(p[0], buf, sizeof(buf)), 904, "and a 904-byte one");
	check_val(fill(p[1], 1), 16, "1-byte packets: 16 fit");
	check_val(fcntl(p[1], F_SETPIPE_SZ, 65536 * 2), 131072, "grow");
	check_val(fill(p[1], 1), 16, "16 more");
	close(p[0]);
	close(p[1]);
	check_err(pipe2(p, O_SYNC), EINVAL, "pipe2 with a bad flag");
	if (pipe2(p, O_NONBLOCK) < 0)
		return;
	check(fcntl(p[1], F_SETFL, O_NONBLOCK | O_DIRECT) == 0 && (fcntl(p[1], F_GETFL) & O_DIRECT),
	      "F_SETFL turns packet mode on");
	write(p[1], "ab", 2);
	write(p[1], "cd", 2);
	check_val(read(p[0], buf, sizeof(buf)), 2, "packets");
	check(fcntl(p[1], F_SETFL, O_NONBLOCK) == 0 && !(fcntl(p[1], F_GETFL) & O_DIRECT),
	      "and off");
	write(p[1], "ef", 2);
	write(p[1], "gh", 2);
	check_val(read(p[0], buf, sizeof(buf)), 2, "the queued packet is still one");
	check_val(read(p[0], buf, sizeof(buf)), 4, "new writes merge");
	close(p[0]);
	close(p[1]);
}

/* FIONBIO is for every file (Linux's do_vfs_ioctl), not only sockets and
 * terminals: it sets and clears O_NONBLOCK. */
static void fionbio(void)
{
	int p[2], on = 1, off = 0;
	char c;

	if (pipe(p) < 0)
		return;
	check_val(ioctl(p[0], FIONBIO, &on), 0, "FIONBIO 1 on a pipe");
	check_val(fcntl(p[0], F_GETFL) & O_NONBLOCK, O_NONBLOCK, "it sets O_NONBLOCK");
	check_err(read(p[0], &c, 1), EAGAIN, "an empty pipe's read then");
	check_val(ioctl(p[0], FIONBIO, &off), 0, "FIONBIO 0");
	check_val(fcntl(p[0], F_GETFL) & O_NONBLOCK, 0, "it clears O_NONBLOCK");
	check_err(ioctl(p[1], FIONBIO, NULL), EFAULT, "FIONBIO with a bad pointer");
	close(p[0]);
	close(p[1]);
}

/* A FIFO opened for reading with O_NONBLOCK and no writer does not poll
 * POLLHUP until a writer has come and gone (Linux's f_pipe); when its last
 * file closes it forgets its size, as Linux frees the pipe. */
static void fifos(void)
{
	char dir[] = "/tmp/skaspipe.XXXXXX", path[64];
	struct pollfd pf;
	int r, w;

	if (!mkdtemp(dir))
		return;
	snprintf(path, sizeof(path), "%s/f", dir);
	if (mkfifo(path, 0600) < 0) {
		rmdir(dir);
		return;
	}
	r = open(path, O_RDONLY | O_NONBLOCK);
	pf = (struct pollfd){ r, POLLIN, 0 };
	check_val(poll(&pf, 1, 0), 0, "a FIFO reader before any writer: no POLLHUP");
	w = open(path, O_WRONLY | O_NONBLOCK);
	check_val(fcntl(w, F_SETPIPE_SZ, 8192), 8192, "F_SETPIPE_SZ on a FIFO");
	close(w);
	check_val(poll(&pf, 1, 0) == 1 ? pf.revents : 0, POLLHUP, "after its writer went: POLLHUP");
	close(r);
	r = open(path, O_RDONLY | O_NONBLOCK);
	check_val(fcntl(r, F_GETPIPE_SZ), 65536, "reopened after the last close: the default size");
	pf.fd = r;
	check_val(poll(&pf, 1, 0), 0, "and no POLLHUP again");
	close(r);
	unlink(path);
	rmdir(dir);
}

/* The test runs without CAP_SYS_RESOURCE (the host's root here lacks it
 * too), so pipe-max-size applies. */
static void drop_sys_resource(void)
{
	struct {
		unsigned version;
		int pid;
	} hdr = { 0x20080522, 0 };
	struct {
		unsigned eff, perm, inh;
	} data[2];

	if (syscall(SYS_capget, &hdr, data) < 0)
		return;
	data[0].eff &= ~(1U << 24);
	data[0].perm &= ~(1U << 24);
	if (syscall(SYS_capset, &hdr, data) < 0)
		printf("# capset failed\n");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	drop_sys_resource();
	sizes();
	unprivileged();
	packets();
	fionbio();
	fifos();
	return 0;
}
