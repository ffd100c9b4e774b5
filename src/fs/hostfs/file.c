/* fs/hostfs/file.c: open hostfs files: a host fd each, reopened from the
 * inode's O_PATH one or dup'ed from the host's stdio. A stream (a pipe,
 * tty, socket or device: the host's stdio) has a wait queue that edge
 * watches of its host fd wake at each readiness event (each write into a
 * host pipe), as a pipe's queue: epoll items, poll and blocking reads and
 * writes wait on it. The kernel's one host thread runs every guest task,
 * so no host read or write of a stream may block: a stream's host fd is a
 * description of our own with O_NONBLOCK (the host's stdio reopened
 * through /proc/self/fd at boot: the host's own description, shared with
 * the user's shell, keeps its flags), or a socket read and written with
 * MSG_DONTWAIT; a guest that must wait sleeps on the queue, as on a pipe. */
#include <stdlib.h>

#include "fs/hostfs/file.h"
#include "fs/hostfs/hostfs.h"
#include "vfs/file.h"
#include "vfs/devices.h"
#include "vfs/poll.h"
#include "host/host.h"
#include "kernel/sched.h"
#include "kernel/task.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/ioctl.h"
#include "abi/linux/poll.h"
#include "abi/linux/stat.h"

/* How a file's host fd is read and written without blocking the kernel. */
enum stream_io {
	IO_FILE,     /* not a stream: a regular file or a directory never waits */
	IO_NONBLOCK, /* a description of our own with O_NONBLOCK */
	IO_SOCKET,   /* a socket: MSG_DONTWAIT */
	/* The host's description, which could not be reopened (a FIFO's
	 * write side whose reader had gone, a pty master, a tty of another
	 * user): RWF_NOWAIT where the file has it (pipes), else IO_POLL. */
	IO_NOWAIT,
	/* Poll before each read or write, and write at most what the host
	 * surely takes: PIPE_BUF, a byte to a tty (POLLOUT says its room is
	 * not 0). Differs from Linux: a host process reading the same tty
	 * between the poll and the read, or a tty's room too small for the
	 * byte's output processing, still blocks the kernel. */
	IO_POLL,
};

#define PIPE_BUF 4096

struct hostfs_priv {
	enum stream_io io;
	bool tty;
	/* The host description is the inode's, shared with other files
	 * (hostfs_file_init_shared): f->pos is the position, the host's
	 * offset is nobody's, and release leaves the fd open. */
	bool shared;
	/* A stream's readiness (hostfs_watch, at the first wait): 0 not yet
	 * watched, 1 watched, -errno the host cannot (always ready). */
	int watch;
	struct waitq wq;	       /* woken with the host's POLL* bits */
	struct host_edge_watch rd, wr; /* reading and writing */
	int wr_fd;		       /* host fd of wr when both: a dup, or -1 */
};

static struct hostfs_priv *priv_alloc(enum stream_io io)
{
	struct hostfs_priv *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->io = io;
	waitq_init(&p->wq);
	p->rd.fd = p->wr.fd = p->wr_fd = -1;
	return p;
}

static void hostfs_ready(void *arg, unsigned events)
{
	struct hostfs_priv *p = arg;

	if (events & LINUX_POLLIN)
		events |= LINUX_POLLRDNORM;
	if (events & LINUX_POLLOUT)
		events |= LINUX_POLLWRNORM;
	waitq_wake(&p->wq, events);
}

static void hostfs_unwatch(struct hostfs_priv *p)
{
	host_evloop_edge_del(&p->rd);
	host_evloop_edge_del(&p->wr);
	if (p->wr_fd >= 0)
		host_close(p->wr_fd);
	p->wr_fd = -1;
}

/* From now on, p->wq hears of every readiness event of the stream's host
 * fd: one edge watch per direction the file is open for, so a wakeup's key
 * says which (a second host fd for writing, as the host keys its watches
 * by fd). Returns 0, or -errno if the host cannot watch the fd (a file
 * without a poll op there: always ready). */
static int hostfs_watch(struct file *f, struct hostfs_priv *p)
{
	int ret = 0, wfd = f->host_fd;

	if (p->watch)
		return p->watch < 0 ? p->watch : 0;
	p->rd.fn = p->wr.fn = hostfs_ready;
	p->rd.arg = p->wr.arg = p;
	if (file_readable(f))
		ret = host_evloop_edge_add(&p->rd, f->host_fd, false);
	if (ret == 0 && file_writable(f)) {
		if (file_readable(f))
			wfd = p->wr_fd = host_dup(f->host_fd);
		ret = wfd < 0 ? wfd : host_evloop_edge_add(&p->wr, wfd, true);
	}
	if (ret < 0)
		hostfs_unwatch(p);
	p->watch = ret < 0 ? ret : 1;
	return ret;
}

/* File I/O on the reopened host fd. */

static bool is_stream(const struct hostfs_priv *p)
{
	return p && p->io != IO_FILE;
}

/* One read or write of a stream's host fd that never blocks: -EAGAIN
 * where a blocking one would wait. */
static long stream_read(struct hostfs_priv *p, int fd, void *buf, size_t n)
{
	long ret;

	switch (p->io) {
	case IO_SOCKET:
		return host_recv_nowait(fd, buf, n);
	case IO_NOWAIT:
		ret = host_read_nowait(fd, buf, n);
		if (ret != -EOPNOTSUPP)
			return ret;
		p->io = IO_POLL;
		/* fall through */
	case IO_POLL:
		if (!host_fd_readable(fd))
			return -EAGAIN;
		break;
	default:
		break;
	}
	return host_read(fd, buf, n);
}

static long stream_write(struct hostfs_priv *p, int fd, const void *buf, size_t n)
{
	long ret;

	switch (p->io) {
	case IO_SOCKET:
		return host_send_nowait(fd, buf, n);
	case IO_NOWAIT:
		ret = host_write_nowait(fd, buf, n);
		if (ret != -EOPNOTSUPP)
			return ret;
		p->io = IO_POLL;
		/* fall through */
	case IO_POLL:
		if (!(host_fd_poll(fd) & (LINUX_POLLOUT | LINUX_POLLERR | LINUX_POLLHUP)))
			return -EAGAIN;
		if (n > (p->tty ? 1 : PIPE_BUF))
			n = p->tty ? 1 : PIPE_BUF;
		break;
	default:
		break;
	}
	return host_write(fd, buf, n);
}

/* A read or write of the stream found nothing to do: sleeps until the
 * host fd has news (the caller tries again). 0, or -EAGAIN if f is
 * non-blocking, -ERESTARTSYS on a signal. */
static int stream_wait(struct file *f, struct hostfs_priv *p)
{
	if (f->flags & LINUX_O_NONBLOCK)
		return -EAGAIN;
	if (signal_pending(current))
		return -ERESTARTSYS;
	/* A change since the try wakes wq: the watch's first event if it
	 * starts now, a later one else. A host fd without a poll op there
	 * would not say EAGAIN; should one, it is looked at again soon. */
	if (hostfs_watch(f, p) < 0)
		sched_sleep_until(sched_now_ns() + 10000000);
	else
		waitq_sleep(&p->wq);
	return 0;
}

static long hostfs_read(struct file *f, void *buf, size_t n)
{
	struct hostfs_priv *p = f->priv;
	long ret;

	hostfs_touched();
	if (p->shared) {
		ret = host_pread(f->host_fd, buf, n, f->pos);
		if (ret > 0)
			f->pos += ret;
		return ret;
	}
	if (!is_stream(p))
		return host_read(f->host_fd, buf, n);
	for (;;) {
		ret = stream_read(p, f->host_fd, buf, n);
		if (ret != -EAGAIN)
			return ret;
		ret = stream_wait(f, p);
		if (ret < 0)
			return ret;
	}
}

/* As a pipe's write: a blocking one returns when all is written, or
 * with what was written when a signal comes (-ERESTARTSYS if nothing); a
 * non-blocking one writes what fits, -EAGAIN if nothing does. */
static long hostfs_write(struct file *f, const void *buf, size_t n)
{
	struct hostfs_priv *p = f->priv;
	size_t done = 0;
	long k;

	hostfs_touched();
	if (!is_stream(p))
		return host_write(f->host_fd, buf, n);
	while (done < n) {
		k = stream_write(p, f->host_fd, (const char *)buf + done, n - done);
		if (k == 0)
			break; /* nothing taken and no error: not a pipe's way */
		if (k > 0) {
			done += (size_t)k;
			continue;
		}
		if (k == -EPIPE)
			send_sigpipe();
		if (k == -EAGAIN)
			k = stream_wait(f, p);
		if (k < 0)
			return done ? (long)done : k;
	}
	return (long)done;
}

static long hostfs_pread(struct file *f, void *buf, size_t n, int64_t off)
{
	hostfs_touched();
	return host_pread(f->host_fd, buf, n, off);
}

static long hostfs_pwrite(struct file *f, const void *buf, size_t n, int64_t off)
{
	hostfs_touched();
	return host_pwrite(f->host_fd, buf, n, off);
}

static int64_t hostfs_llseek(struct file *f, int64_t off, int whence)
{
	struct hostfs_priv *p = f->priv;
	int64_t ret;

	if (!p->shared)
		return host_lseek(f->host_fd, off, whence);
	/* The host checks the result against its file size limits, on the
	 * shared description's offset, which no read uses. */
	if (whence == LINUX_SEEK_CUR) {
		if (off == 0)
			return f->pos;
		if (__builtin_add_overflow(off, f->pos, &off))
			return -EINVAL;
		whence = LINUX_SEEK_SET;
	}
	ret = host_lseek(f->host_fd, off, whence);
	if (ret >= 0)
		f->pos = ret;
	return ret;
}

static int hostfs_fstat(struct file *f, struct linux_stat *st)
{
	return host_fstat(f->host_fd, st);
}

static long hostfs_ioctl(struct file *f, struct task *t, unsigned cmd, uint64_t arg)
{
	struct hostfs_priv *p = f->priv;
	union {
		struct linux_termios tio;
		struct linux_winsize ws;
	} u;
	size_t size;
	int ret;

	if (!p || !p->tty)
		return -ENOTTY;
	switch (cmd) {
	case LINUX_TCGETS:
		size = sizeof(u.tio);
		break;
	case LINUX_TIOCGWINSZ:
		size = sizeof(u.ws);
		break;
	default:
		return -ENOTTY;
	}
	ret = host_ioctl_tty(f->host_fd, cmd, &u, size);
	if (ret < 0)
		return ret;
	return copy_to_user(t->mm, arg, &u, size);
}

static unsigned hostfs_poll(struct file *f, struct poll_table *pt)
{
	struct hostfs_priv *p = f->priv;
	unsigned mask;

	if (!is_stream(p))
		return LINUX_POLLIN | LINUX_POLLOUT | LINUX_POLLRDNORM | LINUX_POLLWRNORM;
	if (pt) {
		int ret = hostfs_watch(f, p);

		if (ret == 0) {
			/* A new epoll item hears of data from now on only. */
			if (pt->qproc)
				host_evloop_edge_flush();
			poll_wait(pt, &p->wq);
		} else if (ret != -EPERM) {
			pt->failed = true;
		}
	}
	mask = host_fd_poll(f->host_fd);
	if (mask & LINUX_POLLIN)
		mask |= LINUX_POLLRDNORM;
	if (mask & LINUX_POLLOUT)
		mask |= LINUX_POLLWRNORM;
	return mask;
}

static int hostfs_mmap_fd(struct file *f)
{
	struct hostfs_priv *p = f->priv;

	if (is_stream(p))
		return -ENODEV;
	return f->host_fd;
}

static void hostfs_release(struct file *f)
{
	struct hostfs_priv *p = f->priv;

	if (p) {
		hostfs_unwatch(p);
		waitq_release(&p->wq);
	}
	if (f->host_fd >= 0 && !(p && p->shared))
		host_close(f->host_fd);
	free(p);
}

/* A regular file's writes go through its host description, whose
 * O_APPEND decides where they land (a shared read-only one never
 * writes). Streams keep their O_NONBLOCK: the kernel decides waits. */
static int hostfs_setfl(struct file *f, unsigned flags)
{
	struct hostfs_priv *p = f->priv;

	if (is_stream(p) || p->shared || f->host_fd < 0)
		return 0;
	if (!(flags & LINUX_O_APPEND) == !(f->flags & LINUX_O_APPEND))
		return 0;
	return host_fd_set_append(f->host_fd, flags & LINUX_O_APPEND);
}

/* A host file open for writing (--rw, -v): the host decides the modes
 * its filesystem has. */
static long hostfs_fallocate(struct file *f, int mode, int64_t off, int64_t len)
{
	struct hostfs_priv *p = f->priv;

	if (is_stream(p) || p->shared || f->host_fd < 0)
		return -ENODEV;
	hostfs_touched();
	return host_fallocate(f->host_fd, mode, off, len);
}

static const struct file_ops hostfs_file_ops = {
	.read = hostfs_read,
	.write = hostfs_write,
	.pread = hostfs_pread,
	.pwrite = hostfs_pwrite,
	.llseek = hostfs_llseek,
	.stat = hostfs_fstat,
	.ioctl = hostfs_ioctl,
	.poll = hostfs_poll,
	.mmap_fd = hostfs_mmap_fd,
	.release = hostfs_release,
	.setfl = hostfs_setfl,
	.fallocate = hostfs_fallocate,
};

int hostfs_file_init(struct file *f, int host_fd, bool stream)
{
	struct hostfs_priv *p = priv_alloc(stream ? IO_NONBLOCK : IO_FILE);

	if (!p)
		return -ENOMEM;
	f->host_fd = host_fd;
	f->priv = p;
	f->ops = &hostfs_file_ops;
	return 0;
}

int hostfs_file_init_shared(struct file *f, int host_fd)
{
	int ret = hostfs_file_init(f, host_fd, false);

	if (ret == 0)
		((struct hostfs_priv *)f->priv)->shared = true;
	return ret;
}

/* The host's stdio fds (0-2) that are pipes, FIFOs, ttys or mem devices
 * reopened at boot with O_NONBLOCK (hostfs_stdio_prepare), or -1. Kept for
 * the kernel's life, as its own fds 0-2 are. */
static int stdio_nb[3] = { -1, -1, -1 };

/* How the guest's file for a host stdio fd (st its stat) does its I/O
 * before a reopen: block devices never wait. */
static enum stream_io stdio_io(const struct linux_stat *st)
{
	if (LINUX_S_ISREG(st->st_mode) || LINUX_S_ISDIR(st->st_mode) || LINUX_S_ISBLK(st->st_mode))
		return IO_FILE;
	return LINUX_S_ISSOCK(st->st_mode) ? IO_SOCKET : IO_NOWAIT;
}

/* May a reopen of st through /proc/self/fd give another description of
 * the same file? A pipe or FIFO, a tty, a mem device; not a pty master
 * (opening /dev/ptmx makes a new pty) nor another device whose open may
 * do more than open. */
static bool reopen_ok(int fd, const struct linux_stat *st)
{
	unsigned ma = MAJOR(st->st_rdev), mi = MINOR(st->st_rdev);

	if (LINUX_S_ISFIFO(st->st_mode))
		return true;
	if (!LINUX_S_ISCHR(st->st_mode) || ma == 2 || (ma == 5 && mi == 2))
		return false;
	return ma == 1 || host_fd_is_tty(fd);
}

void hostfs_stdio_prepare(int fd)
{
	struct linux_stat st, nst;
	int nfd;

	if (fd < 0 || fd > 2 || host_fstat(fd, &st) < 0 || stdio_io(&st) != IO_NOWAIT ||
	    !reopen_ok(fd, &st))
		return;
	nfd = host_reopen(fd, (host_fd_flags(fd) & LINUX_O_ACCMODE) | LINUX_O_NONBLOCK);
	if (nfd >= 0 && nfd < 3) { /* a stdio fd closed on the host stays so */
		int high = host_dup(nfd);

		host_close(nfd);
		nfd = high;
	}
	if (nfd < 0)
		return; /* a FIFO's write side without a reader, no /proc: IO_NOWAIT */
	if (host_fstat(nfd, &nst) < 0 || nst.st_dev != st.st_dev || nst.st_ino != st.st_ino ||
	    nst.st_rdev != st.st_rdev) {
		host_close(nfd);
		return;
	}
	stdio_nb[fd] = nfd;
}

int hostfs_stdio(int fd, struct file **out)
{
	struct hostfs_priv *p;
	struct linux_stat st;
	enum stream_io io;
	struct file *f;
	unsigned flags;
	int hfd, nfd;

	hfd = host_dup_stdio(fd);
	if (hfd < 0)
		return -EBADF;
	flags = host_fd_flags(hfd);
	if (host_fstat(hfd, &st) < 0) {
		host_close(hfd);
		return -EBADF;
	}
	io = stdio_io(&st);
	if (io == IO_NOWAIT && stdio_nb[fd] >= 0 && (nfd = host_dup(stdio_nb[fd])) >= 0) {
		host_close(hfd);
		hfd = nfd;
		io = IO_NONBLOCK;
	}
	p = priv_alloc(io);
	if (!p) {
		host_close(hfd);
		return -ENOMEM;
	}
	p->tty = host_fd_is_tty(hfd);
	f = file_alloc(&hostfs_file_ops, flags, hfd, NULL);
	if (!f) {
		host_close(hfd);
		free(p);
		return file_alloc_error();
	}
	f->priv = p;
	*out = f;
	return 0;
}
