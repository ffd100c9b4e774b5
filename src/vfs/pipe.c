/* vfs/pipe.c: pipes. One ring buffer shared by a read file and a write
 * file; readers and writers sleep on wait queues. Writes of at most
 * PIPE_BUF bytes are atomic. Writing with no reader left is EPIPE and
 * SIGPIPE. Differs from Linux (until the VFS issue): O_DIRECT packet mode
 * and F_SETPIPE_SZ are not implemented; the capacity is 64 KiB. */
#include <stdlib.h>
#include <string.h>

#include "vfs/pipe.h"
#include "vfs/file.h"
#include "vfs/poll.h"
#include "abi/linux/poll.h"
#include "kernel/task.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/ioctl.h"
#include "abi/linux/stat.h"

#define PIPE_SIZE 65536
#define PIPE_BUF  4096

struct pipe {
	char *buf;
	size_t head, len; /* data at buf[head .. head+len) modulo PIPE_SIZE */
	int readers, writers;
	struct waitq rwait, wwait;
	uint64_t ino;
	int64_t ctime_ns;
	bool fifo;		   /* owned by a named pipe's inode */
	unsigned r_opens, w_opens; /* counts of opens, for fifo_open's waits */
};

static uint64_t next_ino = 1;

static long pipe_read(struct file *f, void *buf, size_t n)
{
	struct pipe *p = f->priv;
	size_t done = 0;

	while (p->len == 0) {
		if (p->writers == 0)
			return 0;
		if (f->flags & LINUX_O_NONBLOCK)
			return -EAGAIN;
		if (signal_pending(current))
			return -ERESTARTSYS;
		waitq_sleep(&p->rwait);
	}
	while (done < n && p->len > 0) {
		size_t chunk = PIPE_SIZE - p->head;

		if (chunk > p->len)
			chunk = p->len;
		if (chunk > n - done)
			chunk = n - done;
		memcpy((char *)buf + done, p->buf + p->head, chunk);
		p->head = (p->head + chunk) % PIPE_SIZE;
		p->len -= chunk;
		done += chunk;
	}
	waitq_wake_all(&p->wwait);
	return (long)done;
}

static long pipe_write(struct file *f, const void *buf, size_t n)
{
	struct pipe *p = f->priv;
	size_t done = 0;

	while (done < n) {
		size_t room, need = n - done <= PIPE_BUF ? n - done : 1;

		if (p->readers == 0) {
			struct linux_siginfo si;

			memset(&si, 0, sizeof(si));
			si.si_signo = LINUX_SIGPIPE;
			si.si_code = LINUX_SI_USER;
			si.fields.kill.pid = current->proc->pid;
			si.fields.kill.uid = current->proc->cred.uid;
			send_signal_info(current->proc, current, LINUX_SIGPIPE, &si);
			return done ? (long)done : -EPIPE;
		}
		room = PIPE_SIZE - p->len;
		if (room < need) {
			if (f->flags & LINUX_O_NONBLOCK)
				return done ? (long)done : -EAGAIN;
			if (signal_pending(current))
				return done ? (long)done : -ERESTARTSYS;
			waitq_sleep(&p->wwait);
			continue;
		}
		while (room > 0 && done < n) {
			size_t tail = (p->head + p->len) % PIPE_SIZE;
			size_t chunk = PIPE_SIZE - tail;

			if (chunk > room)
				chunk = room;
			if (chunk > n - done)
				chunk = n - done;
			memcpy(p->buf + tail, (const char *)buf + done, chunk);
			p->len += chunk;
			room -= chunk;
			done += chunk;
		}
		waitq_wake_all(&p->rwait);
	}
	return (long)done;
}

static int pipe_stat(struct file *f, struct linux_stat *st)
{
	struct pipe *p = f->priv;

	memset(st, 0, sizeof(*st));
	st->st_mode = LINUX_S_IFIFO | 0600;
	st->st_nlink = 1;
	st->st_ino = p->ino;
	st->st_blksize = PIPE_BUF;
	st->st_dev = 0xc;
	st->st_uid = current ? current->proc->cred.euid : 0;
	st->st_gid = current ? current->proc->cred.egid : 0;
	return 0;
}

static long pipe_ioctl(struct file *f, struct task *t, unsigned cmd, uint64_t arg)
{
	struct pipe *p = f->priv;
	int n = (int)p->len;

	if (cmd != LINUX_FIONREAD)
		return -ENOTTY;
	return copy_to_user(t->mm, arg, &n, sizeof(n));
}

static unsigned pipe_poll(struct file *f, struct poll_table *pt)
{
	struct pipe *p = f->priv;
	unsigned mask = 0;

	if (file_readable(f)) {
		poll_wait(pt, &p->rwait);
		if (p->len)
			mask |= LINUX_POLLIN | LINUX_POLLRDNORM;
		if (!p->writers)
			mask |= LINUX_POLLHUP;
	} else {
		poll_wait(pt, &p->wwait);
		if (PIPE_SIZE - p->len >= PIPE_BUF)
			mask |= LINUX_POLLOUT | LINUX_POLLWRNORM;
		if (!p->readers)
			mask |= LINUX_POLLERR;
	}
	return mask;
}

static void pipe_release(struct file *f)
{
	struct pipe *p = f->priv;

	if (file_readable(f))
		p->readers--;
	if (file_writable(f))
		p->writers--;
	waitq_wake_all(&p->rwait);
	waitq_wake_all(&p->wwait);
	if (p->readers == 0 && p->writers == 0) {
		if (p->fifo) {
			p->head = p->len = 0; /* a named pipe forgets its data */
			return;
		}
		free(p->buf);
		free(p);
	}
}

static int64_t pipe_llseek(struct file *f, int64_t off, int whence)
{
	(void)f;
	(void)off;
	(void)whence;
	return -ESPIPE;
}

static const struct file_ops pipe_ops = {
	.read = pipe_read,
	.write = pipe_write,
	.llseek = pipe_llseek,
	.stat = pipe_stat,
	.ioctl = pipe_ioctl,
	.poll = pipe_poll,
	.release = pipe_release,
};

int pipe_create(unsigned flags, struct file **rd, struct file **wr)
{
	struct pipe *p = calloc(1, sizeof(*p));
	unsigned fl = flags & LINUX_O_NONBLOCK;

	if (!p)
		return -ENOMEM;
	p->buf = malloc(PIPE_SIZE);
	*rd = file_alloc(&pipe_ops, LINUX_O_RDONLY | fl, -1, NULL);
	*wr = file_alloc(&pipe_ops, LINUX_O_WRONLY | fl, -1, NULL);
	if (!p->buf || !*rd || !*wr) {
		int err = p->buf ? file_alloc_error() : -ENOMEM;

		free(p->buf);
		free(p);
		file_discard(*rd);
		file_discard(*wr);
		return err;
	}
	waitq_init(&p->rwait);
	waitq_init(&p->wwait);
	p->readers = p->writers = 1;
	p->ino = next_ino++;
	(*rd)->priv = p;
	(*wr)->priv = p;
	return 0;
}

/* Named pipes: the pipe lives with the inode (*pp, made on first open).
 * Opening for reading waits for a writer and the other way round, unless
 * O_NONBLOCK: then a reader goes on at once and a writer without a reader
 * gets ENXIO. O_RDWR never waits. */
int fifo_open(void **pp, struct file *f)
{
	struct pipe *p = *pp;
	bool rd = file_readable(f), wr = file_writable(f);
	unsigned seen;

	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p || !(p->buf = malloc(PIPE_SIZE))) {
			free(p);
			return -ENOMEM;
		}
		waitq_init(&p->rwait);
		waitq_init(&p->wwait);
		p->fifo = true;
		p->ino = next_ino++;
		*pp = p;
	}
	if (wr && !rd && (f->flags & LINUX_O_NONBLOCK) && p->readers == 0)
		return -ENXIO;
	f->ops = &pipe_ops;
	f->priv = p;
	if (rd) {
		p->readers++;
		p->r_opens++;
	}
	if (wr) {
		p->writers++;
		p->w_opens++;
	}
	waitq_wake_all(&p->rwait);
	waitq_wake_all(&p->wwait);
	if (rd && wr)
		return 0;
	if (rd && !(f->flags & LINUX_O_NONBLOCK)) {
		seen = p->w_opens;
		while (p->writers == 0 && p->w_opens == seen) {
			if (signal_pending(current)) {
				p->readers--;
				f->ops = NULL;
				return -ERESTARTSYS;
			}
			waitq_sleep(&p->rwait);
		}
	} else if (wr) {
		seen = p->r_opens;
		while (p->readers == 0 && p->r_opens == seen) {
			if (signal_pending(current)) {
				p->writers--;
				f->ops = NULL;
				return -ERESTARTSYS;
			}
			waitq_sleep(&p->wwait);
		}
	}
	return 0;
}

void fifo_free(void *fifo)
{
	struct pipe *p = fifo;

	if (!p)
		return;
	if (p->readers || p->writers) {
		p->fifo = false; /* the last close frees it */
		return;
	}
	free(p->buf);
	free(p);
}
