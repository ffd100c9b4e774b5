/* Linux's native AIO (io_setup, io_submit, io_getevents, io_pgetevents,
 * io_cancel, io_destroy), as libaio's users make the calls (skas had none:
 * ENOSYS, and MariaDB fell back to its own threads). The ring: its header
 * (magic, size, head and tail) mapped as "/[aio] (deleted)", events read
 * from it and consumed by moving head, as libaio's and fio's user-space
 * reaping do. Requests: pwrite, pread, pwritev, preadv, fsync and fdsync
 * of a file, a read of a pipe, several at once, an eventfd told of each
 * completion (IOCB_FLAG_RESFD); the key written back; each check that
 * fails io_submit (EBADF, EINVAL, EOPNOTSUPP, EFAULT) and those of
 * io_setup, io_getevents and io_cancel; a timeout with nothing to wait
 * for; a ring that fills (EAGAIN); a forked child, which has no contexts;
 * aio_rw_flags (RWF_APPEND, RWF_NOWAIT on a pipe, the flags' errors);
 * io_destroy, after which the ring is gone. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <pthread.h>

#define TAP_ENAME
#include "tap.h"

struct iocb_ {
	uint64_t data;
	uint32_t key;
	int32_t rw_flags;
	uint16_t opcode;
	int16_t reqprio;
	uint32_t fd;
	uint64_t buf, nbytes;
	int64_t offset;
	uint64_t reserved2;
	uint32_t flags, resfd;
};

struct event_ {
	uint64_t data, obj;
	int64_t res, res2;
};

struct ring_ {
	uint32_t id, nr, head, tail, magic, compat, incompat, header_length;
	struct event_ ev[];
};

enum { PREAD, PWRITE, FSYNC, FDSYNC, PREADV = 7, PWRITEV = 8 };

static long io_setup_(unsigned n, uint64_t *ctx)
{
	return syscall(SYS_io_setup, n, ctx);
}

static long io_submit_(uint64_t ctx, long n, struct iocb_ **v)
{
	return syscall(SYS_io_submit, ctx, n, v);
}

static long io_getevents_(uint64_t ctx, long min, long n, struct event_ *ev, struct timespec *to)
{
	return syscall(SYS_io_getevents, ctx, min, n, ev, to);
}

static struct iocb_ make(int op, int fd, void *buf, uint64_t n, int64_t off, uint64_t data)
{
	struct iocb_ cb = { .data = data, .opcode = (uint16_t)op, .fd = (uint32_t)fd };

	cb.buf = (uint64_t)(uintptr_t)buf;
	cb.nbytes = n;
	cb.offset = off;
	return cb;
}

/* io_submit of one: 1, or -errno. */
static long submit1(uint64_t ctx, struct iocb_ *cb)
{
	struct iocb_ *v[1] = { cb };
	long r = io_submit_(ctx, 1, v);

	return r < 0 ? -errno : r;
}

/* One event, waited for: its res, or a negative errno of io_getevents. */
static int64_t reap1(uint64_t ctx, struct iocb_ *cb)
{
	struct event_ ev;
	long r = io_getevents_(ctx, 1, 1, &ev, NULL);

	if (r != 1)
		return r < 0 ? -errno : -1000;
	if (ev.obj != (uint64_t)(uintptr_t)cb || ev.data != cb->data || ev.res2 != 0)
		return -2000;
	return ev.res;
}

static uint64_t waiter_ctx;
static long waiter_ret, waiter_errno;

static void *waiter(void *arg)
{
	struct event_ ev;

	waiter_ret = io_getevents_(waiter_ctx, 1, 1, &ev, NULL);
	waiter_errno = errno;
	return arg;
}

static int maps_has_aio(void)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "/[aio] (deleted)") && strstr(line, " rw-s "))
			found = 1;
	if (f)
		fclose(f);
	return found;
}

static void errors(uint64_t ctx, int fd, int rdonly)
{
	char buf[16];
	struct iocb_ cb;
	struct iocb_ *v[1] = { &cb };

	cb = make(PREAD, 1000, buf, 4, 0, 1);
	check(submit1(ctx, &cb) == -EBADF, "io_submit: a closed fd: EBADF");
	cb = make(PWRITE, rdonly, buf, 4, 0, 1);
	check(submit1(ctx, &cb) == -EBADF, "io_submit: a write to a read-only fd: EBADF");
	cb = make(99, fd, buf, 4, 0, 1);
	check(submit1(ctx, &cb) == -EINVAL, "io_submit: an unknown opcode: EINVAL");
	cb = make(PREAD, fd, buf, 4, 0, 1);
	cb.reserved2 = 1;
	check(submit1(ctx, &cb) == -EINVAL, "io_submit: aio_reserved2 set: EINVAL");
	cb = make(PREAD, fd, buf, 4, -1, 1);
	check(submit1(ctx, &cb) == -EINVAL, "io_submit: a negative offset: EINVAL");
	cb = make(PREAD, fd, buf, (uint64_t)-1, 0, 1);
	check(submit1(ctx, &cb) == -EINVAL, "io_submit: a negative length: EINVAL");
	cb = make(PREAD, fd, buf, 4, 0, 1);
	cb.rw_flags = 0x10000000;
	check(submit1(ctx, &cb) == -EOPNOTSUPP, "io_submit: an unknown RWF_ flag: EOPNOTSUPP");
	cb = make(FSYNC, fd, buf, 0, 0, 1);
	check(submit1(ctx, &cb) == -EINVAL, "io_submit: fsync with a buffer: EINVAL");
	cb = make(PREAD, fd, buf, 4, 0, 1);
	cb.flags = 1; /* IOCB_FLAG_RESFD */
	cb.resfd = (uint32_t)fd;
	check(submit1(ctx, &cb) == -EINVAL, "io_submit: RESFD not an eventfd: EINVAL");
	cb = make(PREAD, fd, buf, 4, 0, 1);
	cb.flags = 2; /* IOCB_FLAG_IOPRIO */
	cb.reqprio = 7 << 13;
	check(submit1(ctx, &cb) == -EINVAL, "io_submit: IOCB_FLAG_IOPRIO of class 7: EINVAL");
	cb = make(PREADV, fd, buf, 1025, 0, 1);
	check(submit1(ctx, &cb) == -EINVAL, "io_submit: preadv of 1025 vectors: EINVAL");
	cb = make(PREADV, fd, (void *)8, 1, 0, 1);
	check(submit1(ctx, &cb) == -EFAULT, "io_submit: preadv of an unmapped vector: EFAULT");
	{
		int opath = open("/tmp", O_PATH);

		cb = make(FSYNC, opath, NULL, 0, 0, 1);
		check(submit1(ctx, &cb) == -EBADF, "io_submit: fsync of an O_PATH fd: EBADF");
		close(opath);
	}
	check(submit1(ctx, (struct iocb_ *)8) == -EFAULT, "io_submit: a bad iocb: EFAULT");
	check_err(io_submit_(ctx, 1, (struct iocb_ **)8), EFAULT, "io_submit: a bad array");
	check_err(io_submit_(ctx, -1, v), EINVAL, "io_submit: a negative count");
	check_err(io_submit_(ctx + 4096, 1, v), EINVAL, "io_submit: no such context");
	check(io_submit_(ctx, 0, v) == 0, "io_submit of none: 0");
	check_err(io_getevents_(ctx, 2, 1, NULL, NULL), EINVAL, "io_getevents: min_nr > nr");
	check_err(io_getevents_(ctx, -1, 1, NULL, NULL), EINVAL, "io_getevents: min_nr < 0");
	check_err(io_getevents_(0, 0, 1, NULL, NULL), EINVAL, "io_getevents: no such context");
}

int main(void)
{
	char path[] = "/tmp/aio.XXXXXX", buf[64] = { 0 }, a[8] = { 0 }, b[8] = { 0 };
	struct iovec iov[2] = { { a, 5 }, { b, 6 } };
	struct timespec zero = { 0, 0 }, ms = { 0, 2000000 };
	struct iocb_ cb, cb2, *v[2] = { &cb, &cb2 };
	struct event_ ev[4];
	struct ring_ *ring;
	uint64_t ctx = 0, ctx2 = 5, cnt;
	int fd, rdonly, efd, p[2], n;
	pid_t pid;
	long r;

	setvbuf(stdout, NULL, _IONBF, 0);
	fd = mkstemp(path);
	rdonly = open(path, O_RDONLY);
	if (fd < 0 || rdonly < 0)
		return 1;
	unlink(path);

	check_err(io_setup_(0, &ctx), EINVAL, "io_setup of 0 events");
	check_err(io_setup_(8, &ctx2), EINVAL, "io_setup into a nonzero context");
	check_err(io_setup_(8, (uint64_t *)8), EFAULT, "io_setup into a bad pointer");
	check(io_setup_(8, &ctx) == 0 && ctx != 0, "io_setup of 8 events");
	ring = (struct ring_ *)(uintptr_t)ctx;
	check(ring->magic == 0xa10a10a1 && ring->nr >= 16 && ring->head == 0 && ring->tail == 0 &&
		      ring->compat == 1 && ring->incompat == 0 && ring->header_length == 32,
	      "the ring's header at the context");
	check(maps_has_aio(), "/proc/self/maps: /[aio] (deleted), rw-s");
	{
		uint64_t c63 = 0;

		/* 63 events: 126 slots, 2 more "for good luck": a second page */
		check(io_setup_(63, &c63) == 0 && ((struct ring_ *)(uintptr_t)c63)->nr == 255 &&
			      syscall(SYS_io_destroy, c63) == 0,
		      "io_setup of 63 events: a ring of 255");
	}
	{
		FILE *f = fopen("/proc/sys/fs/aio-max-nr", "r");
		unsigned long max = 0;

		check(f && fscanf(f, "%lu", &max) == 1 && max > 0, "fs.aio-max-nr");
		if (f)
			fclose(f);
	}

	cb = make(PWRITE, fd, "hello world", 11, 0, 42);
	cb.key = 123;
	check(submit1(ctx, &cb) == 1 && cb.key == 0, "pwrite submitted; its key set to 0");
	check(reap1(ctx, &cb) == 11, "its event: 11 bytes, the iocb and its data");
	check(ring->head == ring->tail, "the ring's head caught up with its tail");
	cb = make(PREAD, fd, buf, 5, 6, 43);
	check(submit1(ctx, &cb) == 1 && reap1(ctx, &cb) == 5 && memcmp(buf, "world", 5) == 0,
	      "pread at 6: world");
	cb = make(PREADV, fd, iov, 2, 0, 44);
	check(submit1(ctx, &cb) == 1 && reap1(ctx, &cb) == 11 && memcmp(a, "hello", 5) == 0 &&
		      memcmp(b, " world", 6) == 0,
	      "preadv of two vectors");
	cb = make(PWRITEV, fd, iov, 2, 11, 45);
	check(submit1(ctx, &cb) == 1 && reap1(ctx, &cb) == 11 && pread(fd, buf, 22, 0) == 22 &&
		      memcmp(buf, "hello worldhello world", 22) == 0,
	      "pwritev at 11");
	cb = make(PREAD, fd, buf, 10, 100, 46);
	check(submit1(ctx, &cb) == 1 && reap1(ctx, &cb) == 0, "pread past the end: 0");
	cb = make(PREAD, fd, (void *)8, 4, 0, 47);
	check(submit1(ctx, &cb) == 1 && reap1(ctx, &cb) == -EFAULT,
	      "pread into an unmapped buffer: the event's EFAULT");
	cb = make(FSYNC, fd, NULL, 0, 0, 48);
	cb2 = make(FDSYNC, fd, NULL, 0, 0, 49);
	check(io_submit_(ctx, 2, v) == 2, "fsync and fdsync in one io_submit");
	r = io_getevents_(ctx, 2, 4, ev, NULL);
	check(r == 2 && ev[0].res == 0 && ev[1].res == 0 && ev[0].data + ev[1].data == 97,
	      "both events at once");

	pipe(p);
	write(p[1], "piped", 5);
	cb = make(PREAD, p[0], buf, 64, 12345, 50);
	check(submit1(ctx, &cb) == 1 && reap1(ctx, &cb) == 5 && memcmp(buf, "piped", 5) == 0,
	      "pread of a pipe (its offset unused)");

	efd = eventfd(0, EFD_NONBLOCK);
	cb = make(PREAD, fd, buf, 4, 0, 51);
	cb.flags = 1;
	cb.resfd = (uint32_t)efd;
	check(submit1(ctx, &cb) == 1 && read(efd, &cnt, 8) == 8 && cnt == 1 && reap1(ctx, &cb) == 4,
	      "IOCB_FLAG_RESFD: the eventfd counts the completion");

	errors(ctx, fd, rdonly);

	/* user-space reaping: the event read from the ring, head moved */
	cb = make(PREAD, fd, buf, 3, 0, 52);
	check(submit1(ctx, &cb) == 1 && ring->tail == (ring->head + 1) % ring->nr &&
		      ring->ev[ring->head].data == 52 && ring->ev[ring->head].res == 3,
	      "the event in the ring at head");
	ring->head = (ring->head + 1) % ring->nr;
	check(io_getevents_(ctx, 0, 4, ev, &zero) == 0, "consumed by moving head: none left");
	check(io_getevents_(ctx, 1, 4, ev, &ms) == 0, "io_getevents waits out its timeout: 0");
	{
		struct timespec more = { 0, 1002000000 };
		struct timespec t0, t1;

		/* Linux does not check it: 1.002 s as nanoseconds waits so */
		clock_gettime(CLOCK_MONOTONIC, &t0);
		r = io_getevents_(ctx, 1, 4, ev, &more);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		check(r == 0 && (t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec) >=
					1000000000L,
		      "a timeout of 1002000000 ns: waits it out, 0");
	}
	{
		sigset_t m;
		struct {
			sigset_t *m;
			size_t len;
		} sig = { &m, 8 };

		sigemptyset(&m);
		check(syscall(SYS_io_pgetevents, ctx, 1, 4, ev, &ms, &sig) == 0,
		      "io_pgetevents with a mask, timed out: 0");
		sig.len = 4;
		check_err(syscall(SYS_io_pgetevents, ctx, 1, 4, ev, &ms, &sig), EINVAL,
			  "io_pgetevents with a mask of 4 bytes");
	}

	check_err(syscall(SYS_io_cancel, ctx, &cb, ev), EINVAL, "io_cancel of a finished request");
	cb.key = 7;
	check_err(syscall(SYS_io_cancel, ctx, &cb, ev), EINVAL, "io_cancel with a wrong key");

	/* a ring that fills: EAGAIN, then room again once reaped */
	for (n = 0, r = 1; n < 100000; n++) {
		cb = make(PREAD, fd, buf, 1, 0, 60);
		r = submit1(ctx, &cb);
		if (r != 1)
			break;
	}
	check(n >= 8 && r == -EAGAIN, "a full ring: EAGAIN");
	while (io_getevents_(ctx, 0, 4, ev, &zero) > 0)
		;
	check(submit1(ctx, &cb) == 1 && reap1(ctx, &cb) == 1, "room again once reaped");

	pid = fork();
	if (pid == 0) {
		long rr = submit1(ctx, &cb);
		uint64_t own = 0;

		/* and one of its own, left to its exit */
		_exit(rr == -EINVAL && ring->magic == 0xa10a10a1 && io_setup_(4, &own) == 0 &&
				      submit1(own, &cb) == 1
			      ? 0
			      : 1);
	}
	check(pid > 0 && waitpid(pid, &n, 0) == pid && WIFEXITED(n) && WEXITSTATUS(n) == 0,
	      "a forked child: the ring mapped, no context (EINVAL); one of its own at exit");

	/* aio_rw_flags: preadv2's RWF_ flags (kiocb_set_rw_flags) */
	{
		int q[2];
		off_t end = lseek(fd, 0, SEEK_END);

		cb = make(PWRITE, fd, "AP", 2, 0, 60);
		cb.rw_flags = 0x10; /* RWF_APPEND */
		check(submit1(ctx, &cb) == 1 && reap1(ctx, &cb) == 2 &&
			      pread(fd, buf, 2, end) == 2 && memcmp(buf, "AP", 2) == 0,
		      "pwrite at 0 with RWF_APPEND: at the end");
		check(fcntl(fd, F_GETFL) == fcntl(rdonly, F_GETFL) + 2,
		      "the fd is not O_APPEND after");
		cb.rw_flags = 0x30; /* RWF_APPEND | RWF_NOAPPEND */
		check(submit1(ctx, &cb) == -EINVAL, "io_submit: RWF_APPEND|RWF_NOAPPEND: EINVAL");
		cb = make(PREAD, fd, buf, 4, 0, 61);
		cb.rw_flags = 0x40; /* RWF_ATOMIC on a read */
		check(submit1(ctx, &cb) == -EOPNOTSUPP, "io_submit: RWF_ATOMIC read: EOPNOTSUPP");
		check(pipe(q) == 0, "a pipe");
		cb = make(PREAD, q[0], buf, 4, 0, 62);
		cb.rw_flags = 0x8; /* RWF_NOWAIT */
		check(submit1(ctx, &cb) == 1 && reap1(ctx, &cb) == -EAGAIN,
		      "RWF_NOWAIT read of an empty pipe: its event says EAGAIN");
		check(fcntl(q[0], F_GETFL) == O_RDONLY, "the pipe stays blocking");
		close(q[0]);
		close(q[1]);
	}

	check(syscall(SYS_io_destroy, ctx) == 0, "io_destroy");
	check(!maps_has_aio(), "the ring unmapped");
	check_err(syscall(SYS_io_destroy, ctx), EINVAL, "io_destroy again");
	check_err(io_getevents_(ctx, 0, 1, ev, &zero), EINVAL, "io_getevents after it");

	/* a thread waiting in io_getevents while another destroys it */
	{
		pthread_t th;

		check(io_setup_(4, &waiter_ctx) == 0 &&
			      pthread_create(&th, NULL, waiter, NULL) == 0,
		      "a second context, a thread waiting on it");
		usleep(100000);
		check(syscall(SYS_io_destroy, waiter_ctx) == 0 && pthread_join(th, NULL) == 0 &&
			      waiter_ret == -1 && waiter_errno == EINVAL,
		      "io_destroy ends its wait: EINVAL");
	}
	return 0;
}
