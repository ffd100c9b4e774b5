/* sendfile(2), copy_file_range(2), splice(2), tee(2), vmsplice(2), through
 * the raw system calls, on files in a private directory (mkdtemp under
 * /tmp), pipes and a unix socketpair: file to pipe, pipe to file, file to
 * socket, file to file, pipe to pipe, offsets and file positions, EOF,
 * partial transfers into a full pipe, and the argument errors in Linux's
 * order. Only results that are the same from Linux 5.10 on are checked:
 * - sendfile into a blocking pipe: 5.10 writes it as write(2) would (blocks
 *   until all is in), later kernels fill what the pipe holds and return;
 *   only a non-blocking pipe is filled here (65536 bytes on both).
 * - a file read into a pipe from an offset that is not page aligned: the
 *   pipe takes a buffer per file page on later kernels, but 5.10's
 *   sendfile merges through write(2): only aligned offsets are filled.
 * - copy_file_range across filesystems: copies on 5.3 to 5.11, EXDEV from
 *   5.12 (and 5.19 on for filesystems of different types): not checked.
 * - splice to or from files without splice ops (eventfd...): EINVAL from
 *   5.10, not checked.
 * Blocked calls that a signal interrupts are EINTR (a handler without
 * SA_RESTART) on every version. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>

#include "tap.h"

#ifndef SYS_copy_file_range
#define SYS_copy_file_range 326
#endif
#ifndef SPLICE_F_NONBLOCK
#define SPLICE_F_NONBLOCK 2
#endif
#ifndef F_SETPIPE_SZ
#define F_SETPIPE_SZ 1031
#endif

#define SMALL 10000
#define BIG   200000
static char dir[64];
static unsigned char pattern[BIG];
static void *const BADPTR = (void *)16;

static const char *ename(int e)
{
	switch (e) {
	case 0:
		return "0";
	case EBADF:
		return "EBADF";
	case EINVAL:
		return "EINVAL";
	case EFAULT:
		return "EFAULT";
	case ESPIPE:
		return "ESPIPE";
	case EISDIR:
		return "EISDIR";
	case EAGAIN:
		return "EAGAIN";
	case EPIPE:
		return "EPIPE";
	case EXDEV:
		return "EXDEV";
	case EOVERFLOW:
		return "EOVERFLOW";
	case EINTR:
		return "EINTR";
	case ENOSYS:
		return "ENOSYS";
	default:
		return "other";
	}
}

/* A call's result: the count, or the errno's name. */
static void expect(long r, long want, const char *what)
{
	int e = r < 0 ? errno : 0;

	if (want < 0 ? (r == -1 && e == -want) : r == want)
		printf("ok %d - %s -> %ld %s\n", ++n, what, r, ename(e));
	else
		printf("not ok %d - %s: %ld %s (want %ld %s)\n", ++n, what, r, ename(e), want,
		       ename(want < 0 ? (int)-want : 0));
}

static long sendfile_(int out, int in, int64_t *off, size_t count)
{
	return syscall(SYS_sendfile, out, in, off, count);
}

static long cfr(int in, int64_t *oin, int out, int64_t *oout, size_t len, unsigned flags)
{
	return syscall(SYS_copy_file_range, in, oin, out, oout, len, flags);
}

static long splice_(int in, int64_t *oin, int out, int64_t *oout, size_t len, unsigned flags)
{
	return syscall(SYS_splice, in, oin, out, oout, len, flags);
}

static long tee_(int in, int out, size_t len, unsigned flags)
{
	return syscall(SYS_tee, in, out, len, flags);
}

static long vmsplice_(int fd, const struct iovec *iov, unsigned long nr, unsigned flags)
{
	return syscall(SYS_vmsplice, fd, iov, nr, flags);
}

/* Reads exactly len bytes (or to EOF) from fd. */
static long read_all(int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		long r = read(fd, (char *)buf + done, len - done);

		if (r <= 0)
			return r < 0 && done == 0 ? r : (long)done;
		done += (size_t)r;
	}
	return (long)done;
}

/* fd's next len bytes are pattern[from...]. */
static int holds(int fd, size_t from, size_t len)
{
	unsigned char *buf = malloc(len + 1);
	long r = read_all(fd, buf, len);
	int ok = r == (long)len && memcmp(buf, pattern + from, len) == 0;

	free(buf);
	return ok;
}

/* The file at path is exactly pattern[from..from+len). */
static int file_is(const char *path, size_t from, size_t len)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	int ok = fd >= 0 && fstat(fd, &st) == 0 && st.st_size == (off_t)len && holds(fd, from, len);

	if (fd >= 0)
		close(fd);
	return ok;
}

static off_t pos(int fd)
{
	return lseek(fd, 0, SEEK_CUR);
}

static void make_file(const char *path, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, pattern, len) != (ssize_t)len) {
		perror(path);
		exit(1);
	}
	close(fd);
}

static int pipe_nb(int p[2])
{
	return pipe2(p, O_NONBLOCK);
}

static void drain(int fd)
{
	char buf[4096];
	int fl = fcntl(fd, F_GETFL);

	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	fcntl(fd, F_SETFL, fl);
}

static char srcp[128], bigp[128], dstp[128], appp[128];

static void t_sendfile(void)
{
	int src = open(srcp, O_RDONLY), big = open(bigp, O_RDONLY);
	int dst = open(dstp, O_RDWR | O_CREAT | O_TRUNC, 0644);
	int wr = open(dstp, O_WRONLY), app = open(appp, O_WRONLY | O_CREAT | O_APPEND, 0644);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	int p[2], q[2], sv[2];
	int64_t off;

	if (pipe(p) || pipe(q) || socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		exit(1);

	/* file to pipe, the file position */
	expect(sendfile_(p[1], src, NULL, 3000), 3000, "sendfile file to pipe, no offset");
	check(pos(src) == 3000, "sendfile advanced the position");
	check(holds(p[0], 0, 3000), "the pipe holds the file's first 3000 bytes");
	off = 5000;
	expect(sendfile_(p[1], src, &off, 1000), 1000, "sendfile file to pipe at offset 5000");
	check(off == 6000, "the offset is advanced");
	check(pos(src) == 3000, "the position is untouched");
	check(holds(p[0], 5000, 1000), "the pipe holds bytes 5000..6000");

	/* file to file, to EOF */
	expect(sendfile_(dst, src, NULL, 100000), SMALL - 3000, "sendfile file to file: to EOF");
	check(pos(src) == SMALL && pos(dst) == SMALL - 3000, "both positions advanced");
	expect(sendfile_(dst, src, NULL, 100), 0, "sendfile at EOF");
	check(file_is(dstp, 3000, SMALL - 3000), "the copy is the file's tail");
	off = 0;
	expect(sendfile_(dst, src, &off, (size_t)1 << 40), SMALL, "sendfile of 2^40 bytes");
	check(off == SMALL, "the offset is at EOF");
	off = SMALL + 10;
	expect(sendfile_(dst, src, &off, 10), 0, "sendfile from past EOF");
	check(off == SMALL + 10, "the offset stays");
	expect(sendfile_(dst, src, &off, 0), 0, "sendfile count 0");

	/* file to socket */
	off = 100;
	expect(sendfile_(sv[0], src, &off, 4000), 4000, "sendfile file to socket");
	check(holds(sv[1], 100, 4000), "the socket carried bytes 100..4100");

	/* partial: a non-blocking pipe takes 16 pages */
	{
		int nb[2];

		if (pipe_nb(nb))
			exit(1);
		off = 0;
		expect(sendfile_(nb[1], big, &off, BIG), 65536,
		       "sendfile into an empty pipe: 64 KiB");
		check(off == 65536, "the offset moved by what went");
		expect(sendfile_(nb[1], big, &off, BIG), -EAGAIN,
		       "sendfile into a full O_NONBLOCK pipe");
		check(off == 65536, "the offset stays");
		check(holds(nb[0], 0, 65536), "the pipe holds the first 64 KiB");
		off = 8192;
		expect(sendfile_(nb[1], big, &off, 10000), 10000, "sendfile at a page boundary");
		check(holds(nb[0], 8192, 10000), "the pipe holds bytes 8192..18192");
		close(nb[0]);
		signal(SIGPIPE, SIG_IGN);
		expect(sendfile_(nb[1], big, &off, 10), -EPIPE,
		       "sendfile into a pipe with no reader");
		close(nb[1]);
	}

	/* errors */
	expect(sendfile_(p[1], 999, NULL, 10), -EBADF, "sendfile: in not open");
	expect(sendfile_(999, src, NULL, 10), -EBADF, "sendfile: out not open");
	expect(sendfile_(p[1], wr, NULL, 10), -EBADF, "sendfile: in open for writing only");
	expect(sendfile_(src, src, NULL, 10), -EBADF, "sendfile: out open for reading only");
	if (write(q[1], "abc", 3) != 3)
		exit(1);
	expect(sendfile_(dst, q[0], NULL, 3), -EINVAL, "sendfile: in a pipe");
	off = 0;
	expect(sendfile_(dst, q[0], &off, 3), -ESPIPE, "sendfile: in a pipe with an offset");
	expect(sendfile_(dst, sv[1], NULL, 3), -EINVAL, "sendfile: in a socket, out a file");
	expect(sendfile_(dst, dfd, NULL, 3), -EINVAL, "sendfile: in a directory");
	expect(sendfile_(app, src, &off, 3), -EINVAL, "sendfile: out O_APPEND");
	expect(sendfile_(dst, src, BADPTR, 3), -EFAULT, "sendfile: offset pointer bad");
	off = -1;
	expect(sendfile_(dst, src, &off, 3), -EINVAL, "sendfile: offset negative");
	off = 0;
	expect(sendfile_(dst, src, &off, (size_t)-1), -EINVAL,
	       "sendfile: count negative as ssize_t");
	drain(q[0]);

	close(src);
	close(big);
	close(dst);
	close(wr);
	close(app);
	close(dfd);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
	close(sv[0]);
	close(sv[1]);
}

static void t_copy_file_range(void)
{
	int src = open(srcp, O_RDONLY), dst = open(dstp, O_RDWR | O_CREAT | O_TRUNC, 0644);
	int wr = open(srcp, O_WRONLY), app = open(appp, O_WRONLY | O_APPEND);
	int rw = open(dstp, O_RDWR), dfd = open(dir, O_RDONLY | O_DIRECTORY);
	int p[2];
	int64_t oi, oo;

	if (pipe(p))
		exit(1);
	expect(cfr(src, NULL, dst, NULL, 4000, 0), 4000, "copy_file_range, no offsets");
	check(pos(src) == 4000 && pos(dst) == 4000, "both positions advanced");
	expect(cfr(src, NULL, dst, NULL, 100000, 0), SMALL - 4000, "copy_file_range to EOF");
	check(file_is(dstp, 0, SMALL), "the copy is the same");
	expect(cfr(src, NULL, dst, NULL, 100, 0), 0, "copy_file_range at EOF");
	oi = 100;
	oo = 20000;
	expect(cfr(src, &oi, dst, &oo, 50, 0), 50, "copy_file_range at offsets");
	check(oi == 150 && oo == 20050, "the offsets advanced");
	check(pos(src) == SMALL && pos(dst) == SMALL, "the positions are untouched");
	{
		unsigned char buf[50];

		check(pread(dst, buf, 50, 20000) == 50 && memcmp(buf, pattern + 100, 50) == 0,
		      "the bytes landed at the out offset");
	}
	oi = 0;
	expect(cfr(src, &oi, dst, NULL, 0, 0), 0, "copy_file_range len 0");
	oi = 5000;
	oo = 0;
	expect(cfr(rw, &oi, rw, &oo, 100, 0), 100, "copy_file_range within a file, apart");
	oi = 0;
	oo = 100;
	expect(cfr(rw, &oi, rw, &oo, 200, 0), -EINVAL,
	       "copy_file_range within a file, overlapping");

	/* errors */
	expect(cfr(999, NULL, dst, NULL, 10, 0), -EBADF, "copy_file_range: in not open");
	expect(cfr(src, NULL, 999, NULL, 10, 0), -EBADF, "copy_file_range: out not open");
	expect(cfr(src, NULL, dst, NULL, 10, 1), -EINVAL, "copy_file_range: flags 1");
	expect(cfr(dfd, NULL, dst, NULL, 10, 0), -EISDIR, "copy_file_range: in a directory");
	expect(cfr(p[0], NULL, dst, NULL, 10, 0), -EINVAL, "copy_file_range: in a pipe");
	expect(cfr(src, NULL, p[1], NULL, 10, 0), -EINVAL, "copy_file_range: out a pipe");
	expect(cfr(wr, NULL, dst, NULL, 10, 0), -EBADF, "copy_file_range: in write-only");
	oi = 0;
	expect(cfr(src, &oi, src, NULL, 10, 0), -EBADF, "copy_file_range: out read-only");
	expect(cfr(src, &oi, app, NULL, 10, 0), -EBADF, "copy_file_range: out O_APPEND");
	{
		int opath = open(dir, O_PATH);

		expect(cfr(opath, NULL, dst, NULL, 10, 0), -EBADF,
		       "copy_file_range: in an O_PATH fd");
		expect(splice_(opath, NULL, p[1], NULL, 10, 0), -EBADF, "splice: in an O_PATH fd");
		close(opath);
	}
	oi = 0;
	oo = INT64_MAX;
	expect(cfr(src, &oi, dst, &oo, 10, 0), -EFBIG,
	       "copy_file_range: out offset at the largest file size: EFBIG");
	oi = SMALL;
	expect(cfr(src, &oi, dst, &oo, 10, 0), -EFBIG,
	       "copy_file_range: the same with nothing to copy: EFBIG");
	expect(cfr(src, BADPTR, dst, NULL, 10, 0), -EFAULT,
	       "copy_file_range: in offset pointer bad");
	expect(cfr(src, NULL, dst, BADPTR, 10, 0), -EFAULT,
	       "copy_file_range: out offset pointer bad");

	close(src);
	close(dst);
	close(wr);
	close(app);
	close(rw);
	close(dfd);
	close(p[0]);
	close(p[1]);
}

static void t_splice(void)
{
	int src = open(srcp, O_RDONLY), big = open(bigp, O_RDONLY);
	int dst = open(dstp, O_RDWR | O_CREAT | O_TRUNC, 0644),
	    app = open(appp, O_WRONLY | O_APPEND);
	int p[2], q[2], sv[2];
	int64_t off;
	char buf[64];

	if (pipe(p) || pipe(q) || socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		exit(1);

	/* file to pipe */
	expect(splice_(src, NULL, p[1], NULL, 2000, 0), 2000, "splice file to pipe, no offset");
	check(pos(src) == 2000, "the position advanced");
	check(holds(p[0], 0, 2000), "the pipe holds the first 2000 bytes");
	off = 4096;
	expect(splice_(src, &off, p[1], NULL, 1000, 0), 1000, "splice file to pipe at an offset");
	check(off == 5096 && pos(src) == 2000, "the offset advanced, the position did not");
	check(holds(p[0], 4096, 1000), "the pipe holds bytes 4096..5096");
	off = SMALL;
	expect(splice_(src, &off, p[1], NULL, 10, 0), 0, "splice file to pipe at EOF");

	/* pipe to file */
	if (write(p[1], pattern, 300) != 300)
		exit(1);
	off = 50;
	expect(splice_(p[0], NULL, dst, &off, 1000, 0), 300,
	       "splice pipe to file: what the pipe holds");
	check(off == 350 && pos(dst) == 0, "the offset advanced, the position did not");
	if (write(p[1], pattern + 300, 200) != 200)
		exit(1);
	expect(splice_(p[0], NULL, dst, NULL, 150, 0), 150, "splice pipe to file, no offset");
	check(pos(dst) == 150, "the position advanced");
	expect(splice_(p[0], NULL, dst, NULL, 150, 0), 50, "splice pipe to file: the rest");
	check(pread(dst, buf, 50, 150) == 50 && memcmp(buf, pattern + 450, 50) == 0,
	      "the file holds the pipe's bytes in order");
	expect(splice_(p[0], NULL, dst, NULL, 10, SPLICE_F_NONBLOCK), -EAGAIN,
	       "splice from an empty pipe, SPLICE_F_NONBLOCK");

	/* pipe to pipe, socket */
	if (write(p[1], "0123456789", 10) != 10)
		exit(1);
	expect(splice_(p[0], NULL, q[1], NULL, 4, 0), 4, "splice pipe to pipe, part");
	expect(splice_(p[0], NULL, q[1], NULL, 100, 0), 6, "splice pipe to pipe, the rest");
	check(read(q[0], buf, 64) == 10 && memcmp(buf, "0123456789", 10) == 0,
	      "the bytes moved in order");
	if (write(p[1], "socket", 6) != 6)
		exit(1);
	expect(splice_(p[0], NULL, sv[0], NULL, 100, 0), 6, "splice pipe to socket");
	check(read(sv[1], buf, 64) == 6 && memcmp(buf, "socket", 6) == 0,
	      "the socket carried them");
	if (write(sv[0], "back", 4) != 4)
		exit(1);
	expect(splice_(sv[1], NULL, p[1], NULL, 100, 0), 4, "splice socket to pipe");
	check(read(p[0], buf, 64) == 4 && memcmp(buf, "back", 4) == 0, "the pipe holds them");

	/* partial: what the pipe's free slots hold */
	{
		int nb[2];

		if (pipe_nb(nb))
			exit(1);
		off = 0;
		expect(splice_(big, &off, nb[1], NULL, BIG, 0), 65536,
		       "splice into an empty pipe: 64 KiB");
		expect(splice_(big, &off, nb[1], NULL, BIG, 0), -EAGAIN,
		       "splice into a full O_NONBLOCK pipe");
		expect(fcntl(q[1], F_SETPIPE_SZ, 16384), 16384, "a pipe of 4 pages");
		expect(splice_(nb[0], NULL, q[1], NULL, BIG, 0), 16384,
		       "splice pipe to a smaller pipe");
		check(holds(q[0], 0, 16384), "the smaller pipe holds the first 16 KiB");
		expect(splice_(nb[0], NULL, dst, &off, BIG, 0), 65536 - 16384,
		       "splice the rest to a file");
		close(nb[1]);
		expect(splice_(nb[0], NULL, dst, NULL, 10, 0), 0,
		       "splice from a pipe with no writer");
		expect(splice_(nb[0], NULL, q[1], NULL, 10, 0), 0,
		       "splice pipe to pipe, no writer");
		close(nb[0]);
	}
	{
		int r[2];

		if (pipe(r))
			exit(1);
		close(r[0]);
		off = 0;
		expect(splice_(src, &off, r[1], NULL, 10, 0), -EPIPE,
		       "splice to a pipe with no reader");
		close(r[1]);
	}

	/* errors */
	expect(splice_(999, NULL, 998, NULL, 0, 0), 0, "splice len 0, fds not open");
	expect(splice_(src, NULL, p[1], NULL, 10, 0x10), -EINVAL, "splice: unknown flag");
	expect(splice_(999, NULL, p[1], NULL, 10, 0), -EBADF, "splice: in not open");
	expect(splice_(src, NULL, 999, NULL, 10, 0), -EBADF, "splice: out not open");
	expect(splice_(src, NULL, dst, NULL, 10, 0), -EINVAL, "splice: no pipe");
	off = 0;
	expect(splice_(p[0], &off, dst, NULL, 10, 0), -ESPIPE, "splice: offset for the pipe in");
	expect(splice_(src, NULL, p[1], &off, 10, 0), -ESPIPE, "splice: offset for the pipe out");
	expect(splice_(p[0], NULL, p[1], NULL, 10, 0), -EINVAL, "splice: a pipe to itself");
	expect(splice_(src, BADPTR, p[1], NULL, 10, 0), -EFAULT, "splice: offset pointer bad");
	off = -1;
	expect(splice_(src, &off, p[1], NULL, 10, 0), -EINVAL, "splice: offset negative");
	expect(splice_(p[1], NULL, dst, NULL, 10, 0), -EBADF, "splice: in a write end");
	expect(splice_(src, NULL, p[0], NULL, 10, 0), -EBADF, "splice: out a read end");
	if (write(p[1], "x", 1) != 1)
		exit(1);
	expect(splice_(p[0], NULL, app, NULL, 1, 0), -EINVAL, "splice: out O_APPEND");
	expect(splice_(p[0], NULL, sv[0], &off, 1, 0), -EINVAL, "splice: offset for a socket");
	drain(p[0]);

	close(src);
	close(big);
	close(dst);
	close(app);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
	close(sv[0]);
	close(sv[1]);
}

static void t_tee(void)
{
	int p[2], q[2], src = open(srcp, O_RDONLY);
	char buf[64];

	if (pipe(p) || pipe(q))
		exit(1);
	if (write(p[1], "hello world", 11) != 11)
		exit(1);
	expect(tee_(p[0], q[1], 100, 0), 11, "tee");
	expect(tee_(p[0], q[1], 5, 0), 5, "tee part");
	check(read(q[0], buf, 64) == 16 && memcmp(buf, "hello worldhello", 16) == 0,
	      "the out pipe holds copies");
	check(read(p[0], buf, 64) == 11 && memcmp(buf, "hello world", 11) == 0,
	      "the in pipe still holds its bytes");
	expect(tee_(p[0], q[1], 10, SPLICE_F_NONBLOCK), -EAGAIN,
	       "tee from an empty pipe, NONBLOCK");
	expect(tee_(p[0], q[1], 0, 0), 0, "tee len 0");
	expect(tee_(p[0], q[1], 10, 0x10), -EINVAL, "tee: unknown flag");
	expect(tee_(p[0], p[1], 10, 0), -EINVAL, "tee: a pipe to itself");
	expect(tee_(src, q[1], 10, 0), -EINVAL, "tee: in a file");
	expect(tee_(999, q[1], 10, 0), -EBADF, "tee: in not open");
	expect(tee_(p[1], q[1], 10, 0), -EBADF, "tee: in a write end");
	close(p[1]);
	expect(tee_(p[0], q[1], 10, 0), 0, "tee from a pipe with no writer");
	close(p[0]);
	close(q[0]);
	close(q[1]);
	close(src);
}

static void t_vmsplice(void)
{
	int p[2], q[2], src = open(srcp, O_RDONLY);
	char a[8], b[16];
	struct iovec iov[2] = { { "abc", 3 }, { "defg", 4 } };
	static struct iovec many[1025];
	unsigned char *pages = aligned_alloc(4096, 10 * 4096);

	if (pipe(p) || !pages)
		exit(1);
	expect(vmsplice_(p[1], iov, 2, 0), 7, "vmsplice to a pipe");
	check(read(p[0], b, 16) == 7 && memcmp(b, "abcdefg", 7) == 0, "the pipe holds the iovecs");
	if (write(p[1], "0123456789", 10) != 10)
		exit(1);
	iov[0] = (struct iovec){ a, 4 };
	iov[1] = (struct iovec){ b, 16 };
	expect(vmsplice_(p[0], iov, 2, 0), 10, "vmsplice from a pipe");
	check(memcmp(a, "0123", 4) == 0 && memcmp(b, "456789", 6) == 0,
	      "the iovecs hold the bytes");
	expect(vmsplice_(p[0], iov, 2, SPLICE_F_NONBLOCK), -EAGAIN, "vmsplice from an empty pipe");
	expect(vmsplice_(p[1], iov, 0, 0), 0, "vmsplice of no iovecs");
	expect(vmsplice_(p[1], many, 1025, 0), -EINVAL, "vmsplice: 1025 iovecs");
	expect(vmsplice_(p[1], BADPTR, 1, 0), -EFAULT, "vmsplice: iovec array pointer bad");
	iov[0] = (struct iovec){ BADPTR, 4 };
	expect(vmsplice_(p[1], iov, 1, 0), -EFAULT, "vmsplice: buffer pointer bad");
	iov[0] = (struct iovec){ a, (size_t)-1 };
	expect(vmsplice_(p[1], iov, 1, 0), -EINVAL, "vmsplice: length negative");
	iov[0] = (struct iovec){ a, 4 };
	expect(vmsplice_(src, iov, 1, 0), -EBADF, "vmsplice: a file");
	expect(vmsplice_(999, iov, 1, 0), -EBADF, "vmsplice: fd not open");
	expect(vmsplice_(p[1], iov, 1, 0x10), -EINVAL, "vmsplice: unknown flag");

	/* a page per buffer: a 4-page pipe takes 4 pages */
	if (pipe(q))
		exit(1);
	memcpy(pages, pattern, 10 * 4096);
	expect(fcntl(q[1], F_SETPIPE_SZ, 16384), 16384, "a pipe of 4 pages");
	iov[0] = (struct iovec){ pages, 10 * 4096 };
	expect(vmsplice_(q[1], iov, 1, SPLICE_F_NONBLOCK), 16384, "vmsplice 10 pages to it");
	expect(vmsplice_(q[1], iov, 1, SPLICE_F_NONBLOCK), -EAGAIN, "vmsplice to the full pipe");
	check(holds(q[0], 0, 16384), "the pipe holds the first 4 pages");
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
	close(src);
	free(pages);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* A blocked call that a signal interrupts (handler without SA_RESTART):
 * EINTR, nothing moved. */
static void t_eintr(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { 0, 50000 } };
	int p[2], q[2], src = open(srcp, O_RDONLY);
	int64_t off = 0;
	struct iovec iov = { pattern, 100 };

	sigaction(SIGALRM, &sa, NULL);
	if (pipe(p) || pipe(q))
		exit(1);
	setitimer(ITIMER_REAL, &it, NULL);
	expect(splice_(p[0], NULL, q[1], NULL, 10, 0), -EINTR,
	       "splice from an empty pipe, signalled");
	setitimer(ITIMER_REAL, &it, NULL);
	expect(tee_(p[0], q[1], 10, 0), -EINTR, "tee from an empty pipe, signalled");
	setitimer(ITIMER_REAL, &it, NULL);
	expect(vmsplice_(p[0], &iov, 1, 0), -EINTR, "vmsplice from an empty pipe, signalled");
	expect(fcntl(q[1], F_SETPIPE_SZ, 4096), 4096, "a pipe of one page");
	expect(splice_(src, &off, q[1], NULL, 4096, 0), 4096, "splice a page into it");
	setitimer(ITIMER_REAL, &it, NULL);
	expect(sendfile_(q[1], src, &off, 10), -EINTR, "sendfile into the full pipe, signalled");
	check(off == 4096, "the offset stays");
	setitimer(ITIMER_REAL, &it, NULL);
	expect(splice_(src, &off, q[1], NULL, 10, 0), -EINTR,
	       "splice into the full pipe, signalled");
	setitimer(ITIMER_REAL, &it, NULL);
	expect(vmsplice_(q[1], &iov, 1, 0), -EINTR, "vmsplice into the full pipe, signalled");
	setitimer(ITIMER_REAL, &it, NULL);
	expect(splice_(p[0], NULL, q[1], NULL, 10, 0), -EINTR,
	       "splice from an empty pipe to a full one, signalled");
	check(holds(q[0], 0, 4096), "the full pipe holds its page");
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
	close(src);
}

int main(void)
{
	size_t i;

	setvbuf(stdout, NULL, _IONBF, 0);
	for (i = 0; i < BIG; i++)
		pattern[i] = (unsigned char)(i * 7 + i / 251);
	strcpy(dir, "/tmp/vfs_splice.XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(srcp, sizeof(srcp), "%s/src", dir);
	snprintf(bigp, sizeof(bigp), "%s/big", dir);
	snprintf(dstp, sizeof(dstp), "%s/dst", dir);
	snprintf(appp, sizeof(appp), "%s/app", dir);
	make_file(srcp, SMALL);
	make_file(bigp, BIG);

	t_sendfile();
	t_copy_file_range();
	t_splice();
	t_tee();
	t_vmsplice();
	t_eintr();

	check(unlink(srcp) == 0 && unlink(bigp) == 0 && unlink(dstp) == 0 && unlink(appp) == 0 &&
		      rmdir(dir) == 0,
	      "clean up");
	printf("1..%d\n", n);
	return 0;
}
