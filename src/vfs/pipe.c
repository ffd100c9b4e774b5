/* vfs/pipe.c: pipes, as Linux keeps them: a ring of page-sized buffers
 * (16 by default, F_SETPIPE_SZ changes it) shared by a read file and a
 * write file; readers and writers sleep on wait queues. A write merges into
 * the last buffer only when it fits there whole, so writes of at most
 * PIPE_BUF bytes are atomic and the capacity in bytes depends on the write
 * sizes exactly as on Linux. Packet mode (O_DIRECT, a per-buffer flag set by
 * the writer): every buffer is one packet, a read returns at most one and
 * discards what did not fit. Writing with no reader left is EPIPE and
 * SIGPIPE. */
#include <stdlib.h>
#include <string.h>

#include "vfs/pipe.h"
#include "vfs/file.h"
#include "vfs/poll.h"
#include "abi/linux/poll.h"
#include "kernel/task.h"
#include "kernel/cred.h"
#include "mm/commit.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/ioctl.h"
#include "abi/linux/stat.h"

#ifndef PAGE_SIZE
#define PAGE_SIZE 4096
#endif
#define PIPE_BUF      4096
#define PIPE_DEF_BUFS 16

struct pipe_buf {
	char *page; /* PAGE_SIZE bytes, or NULL when the slot is free */
	unsigned off, len;
	bool merge;  /* later writes may append (not a packet) */
	bool packet; /* written in packet mode */
};

struct pipe {
	struct pipe_buf *bufs;
	unsigned nslots;     /* ring size; a power of two */
	unsigned head, tail; /* free-running: slot = x & (nslots - 1) */
	int readers, writers;
	struct waitq rwait, wwait;
	uint64_t ino;
	bool fifo; /* owned by a named pipe's inode */
	/* A named pipe of a host file (fifo_open_host): on host_fifos by
	 * the file's host device and number, freed at its last close. */
	bool keyed;
	uint64_t key_dev, key_ino;
	struct list_head key_link;
	unsigned r_opens, w_opens; /* counts of opens, for fifo_open's waits */
	/* The task splicing between this pipe and a file that may sleep
	 * (Linux's pipe_lock held over splice_read or splice_write): others'
	 * reads and writes wait on lockq until it is done. */
	struct task *owner;
	struct waitq lockq;
};

unsigned pipe_max_size = 1048576; /* /proc/sys/fs/pipe-max-size */

static unsigned occupancy(const struct pipe *p)
{
	return p->head - p->tail;
}

static struct pipe_buf *slot(struct pipe *p, unsigned i)
{
	return &p->bufs[i & (p->nslots - 1)];
}

static size_t pipe_bytes(struct pipe *p)
{
	size_t n = 0;
	unsigned i;

	for (i = p->tail; i != p->head; i++)
		n += slot(p, i)->len;
	return n;
}

/* A pipe's pages are kernel memory the guest holds: counted against
 * --memory, as Linux's memcg charges them (__GFP_ACCOUNT); past it a write
 * is ENOMEM or short, as Linux's pipe_write when alloc_page fails. Before,
 * 2500 full pipes held 156 MiB under --memory=64M, uncounted. */
static char *page_alloc_over(bool over)
{
	char *page;

	if (over)
		mem_take_kernel_over(PAGE_SIZE);
	else if (!mem_take_kernel(PAGE_SIZE))
		return NULL;
	page = malloc(PAGE_SIZE);
	if (!page)
		mem_give_kernel(PAGE_SIZE);
	return page;
}

static char *page_alloc(void)
{
	return page_alloc_over(false);
}

static void page_free(char *page)
{
	if (page) {
		free(page);
		mem_give_kernel(PAGE_SIZE);
	}
}

static void drop_buf(struct pipe *p)
{
	struct pipe_buf *b = slot(p, p->tail);

	page_free(b->page);
	memset(b, 0, sizeof(*b));
	p->tail++;
}

/* Waits (not interruptibly, as Linux's mutex) while another task has the
 * pipe locked for a splice. */
static void wait_unlocked(struct pipe *p)
{
	while (p->owner && p->owner != current)
		waitq_sleep(&p->lockq);
}

/* RWF_NOWAIT's mutex_trylock: a transfer that would wait for a splice's
 * lock is EAGAIN (sys_fs.c's rwf_begin counts on it never sleeping). */
static bool nowait_locked(const struct pipe *p)
{
	return current && current->rwf_nowait && p->owner && p->owner != current;
}

/* Reads up to n bytes, of which the guest takes only the first ok: a
 * buffer that does not fit there whole is copied as far as it goes (*arrived
 * says how far) but neither counted nor consumed, as Linux's pipe_read when
 * copy_page_to_iter comes up short (EFAULT if nothing came before it). */
static long pipe_read_fault(struct file *f, void *buf, size_t n, size_t ok, size_t *arrived)
{
	struct pipe *p = f->priv;
	size_t done = 0;

	*arrived = 0;
	if (n == 0)
		return 0; /* Linux's pipe_read: before any wait */
	if (nowait_locked(p))
		return -EAGAIN;
	for (;;) {
		wait_unlocked(p);
		if (p->head != p->tail) {
			struct pipe_buf *b = slot(p, p->tail);
			size_t chunk = b->len < n - done ? b->len : n - done;
			bool packet = b->packet;

			if (chunk > ok - done) {
				memcpy((char *)buf + done, b->page + b->off, ok - done);
				*arrived = ok;
				return done ? (long)done : -EFAULT;
			}
			memcpy((char *)buf + done, b->page + b->off, chunk);
			done += chunk;
			b->off += chunk;
			b->len -= chunk;
			if (packet)
				b->len = 0; /* the rest of the packet is discarded */
			/* Writers hear of room only when a full pipe gets a
			 * free slot, as Linux (was_full). */
			if (b->len == 0) {
				bool was_full = occupancy(p) >= p->nslots;

				drop_buf(p);
				if (was_full)
					waitq_wake_sync(&p->wwait,
							LINUX_POLLOUT | LINUX_POLLWRNORM);
			}
			if (done == n || packet)
				break;
			if (p->head != p->tail)
				continue;
		}
		if (p->writers == 0 || done)
			break;
		if (f->flags & LINUX_O_NONBLOCK)
			return -EAGAIN;
		if (signal_pending(current))
			return -ERESTARTSYS;
		waitq_sleep(&p->rwait);
	}
	*arrived = done;
	return (long)done;
}

static long pipe_read(struct file *f, void *buf, size_t n)
{
	size_t arrived;

	return pipe_read_fault(f, buf, n, n, &arrived);
}

/* Writes n bytes of which the guest gives only the first ok: as Linux's
 * pipe_write, a piece (the tail merged into the last buffer, or a page)
 * that cannot be copied whole is not written (no empty buffer is left in
 * the ring); EFAULT if nothing was written before it. */
static long pipe_write_fault(struct file *f, const void *buf, size_t n, size_t ok)
{
	struct pipe *p = f->priv;
	bool packet = f->flags & LINUX_O_DIRECT;
	size_t done = 0, chars = n & (PAGE_SIZE - 1);

	if (n == 0)
		return 0; /* Linux's pipe_write: no SIGPIPE, no wait */
	if (nowait_locked(p))
		return -EAGAIN;
	wait_unlocked(p);
	if (p->readers == 0) {
		send_sigpipe();
		return -EPIPE;
	}
	/* The tail of the write joins the last buffer if it fits there whole. */
	if (p->head != p->tail && chars) {
		struct pipe_buf *b = slot(p, p->head - 1);

		if (b->merge && b->off + b->len + chars <= PAGE_SIZE) {
			if (chars > ok)
				return -EFAULT;
			memcpy(b->page + b->off + b->len, buf, chars);
			b->len += chars;
			done = chars;
			waitq_wake_sync(&p->rwait, LINUX_POLLIN | LINUX_POLLRDNORM);
			if (done == n)
				return (long)done;
		}
	}
	for (;;) {
		wait_unlocked(p);
		if (p->readers == 0) {
			send_sigpipe();
			return done ? (long)done : -EPIPE;
		}
		if (occupancy(p) < p->nslots) {
			struct pipe_buf *b = slot(p, p->head);
			size_t chunk = n - done < PAGE_SIZE ? n - done : PAGE_SIZE;

			if (chunk > ok - done)
				return done ? (long)done : -EFAULT;
			b->page = page_alloc();
			if (!b->page)
				return done ? (long)done : -ENOMEM;
			memcpy(b->page, (const char *)buf + done, chunk);
			b->off = 0;
			b->len = (unsigned)chunk;
			b->packet = packet;
			b->merge = !packet;
			p->head++;
			done += chunk;
			waitq_wake_sync(&p->rwait, LINUX_POLLIN | LINUX_POLLRDNORM);
			if (done == n)
				break;
			continue;
		}
		if (f->flags & LINUX_O_NONBLOCK)
			return done ? (long)done : -EAGAIN;
		if (signal_pending(current))
			return done ? (long)done : -ERESTARTSYS;
		waitq_sleep(&p->wwait);
	}
	return (long)done;
}

static long pipe_write(struct file *f, const void *buf, size_t n)
{
	return pipe_write_fault(f, buf, n, n);
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
	int n = (int)pipe_bytes(f->priv);

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
		if (p->head != p->tail)
			mask |= LINUX_POLLIN | LINUX_POLLRDNORM;
		/* A FIFO opened nonblocking without a writer hangs up only
		 * once a writer has come (Linux's f_pipe). */
		if (!p->writers && f->pipe_seen != p->w_opens + 1)
			mask |= LINUX_POLLHUP;
	}
	if (file_writable(f)) {
		poll_wait(pt, &p->wwait);
		if (occupancy(p) < p->nslots)
			mask |= LINUX_POLLOUT | LINUX_POLLWRNORM;
		if (!p->readers)
			mask |= LINUX_POLLERR;
	}
	return mask;
}

static void pipe_empty(struct pipe *p)
{
	while (p->head != p->tail)
		drop_buf(p);
}

static void pipe_free(struct pipe *p)
{
	pipe_empty(p);
	free(p->bufs);
	free(p);
}

static void fifo_reset_size(struct pipe *p)
{
	struct pipe_buf *bufs;

	if (p->nslots == PIPE_DEF_BUFS || !(bufs = calloc(PIPE_DEF_BUFS, sizeof(*bufs))))
		return;
	free(p->bufs);
	p->bufs = bufs;
	p->nslots = PIPE_DEF_BUFS;
	p->head = p->tail = 0;
}

static void pipe_release(struct file *f)
{
	struct pipe *p = f->priv;

	if (file_readable(f))
		p->readers--;
	if (file_writable(f))
		p->writers--;
	/* The last reader or writer but not both: the other side sees HUP or
	 * ERR (a wakeup for any change, as Linux). */
	if (!p->readers != !p->writers) {
		waitq_wake_all(&p->rwait);
		waitq_wake_all(&p->wwait);
	}
	if (p->readers == 0 && p->writers == 0) {
		if (p->keyed) {
			list_del(&p->key_link);
			pipe_free(p);
			return;
		}
		if (p->fifo) {
			/* A named pipe forgets its data and size: Linux frees
			 * it and the next open makes a new one. */
			pipe_empty(p);
			fifo_reset_size(p);
			return;
		}
		pipe_free(p);
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
	.read_fault = pipe_read_fault,
	.write_fault = pipe_write_fault,
	.llseek = pipe_llseek,
	.stat = pipe_stat,
	.ioctl = pipe_ioctl,
	.poll = pipe_poll,
	.release = pipe_release,
	.fasync = true,
};

static struct pipe *pipe_new(void)
{
	struct pipe *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->nslots = PIPE_DEF_BUFS;
	p->bufs = calloc(p->nslots, sizeof(*p->bufs));
	if (!p->bufs) {
		free(p);
		return NULL;
	}
	waitq_init(&p->rwait);
	waitq_init(&p->wwait);
	waitq_init(&p->lockq);
	p->ino = vfs_next_ino();
	return p;
}

int pipe_create(unsigned flags, struct file **rd, struct file **wr)
{
	struct pipe *p = pipe_new();
	unsigned fl = flags & (LINUX_O_NONBLOCK | LINUX_O_DIRECT);

	/* As Linux: only the write end carries O_DIRECT. */
	*rd = file_alloc(&pipe_ops, LINUX_O_RDONLY | (fl & LINUX_O_NONBLOCK), -1, NULL);
	*wr = file_alloc(&pipe_ops, LINUX_O_WRONLY | fl, -1, NULL);
	if (!p || !*rd || !*wr) {
		int err = p ? file_alloc_error() : -ENOMEM;

		if (p)
			pipe_free(p);
		file_discard(*rd);
		file_discard(*wr);
		return err;
	}
	p->readers = p->writers = 1;
	(*rd)->priv = p;
	(*wr)->priv = p;
	return 0;
}

static struct pipe *file_pipe(struct file *f)
{
	return f->ops == &pipe_ops ? f->priv : NULL;
}

bool file_is_pipe(struct file *f)
{
	return file_pipe(f) != NULL;
}

long pipe_fcntl_size(struct file *f, bool set, unsigned long arg)
{
	struct pipe *p = file_pipe(f);
	unsigned size, nslots, i, n;
	struct pipe_buf *bufs;

	if (!p)
		return -EBADF;
	if (!set)
		return (long)p->nslots * PAGE_SIZE;
	wait_unlocked(p); /* a splice counts on the slots it saw free */
	/* As Linux's round_pipe_size: a power of two of pages, at least one. */
	arg = (unsigned)arg;
	if (arg > (1UL << 31))
		return -EINVAL;
	for (size = PAGE_SIZE; size < arg; size <<= 1)
		;
	nslots = size / PAGE_SIZE;
	if (nslots > p->nslots && size > pipe_max_size &&
	    !capable(&current->proc->cred, CAP_SYS_RESOURCE))
		return -EPERM;
	n = occupancy(p);
	if (nslots < n)
		return -EBUSY;
	bufs = calloc(nslots, sizeof(*bufs));
	if (!bufs)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		bufs[i] = *slot(p, p->tail + i);
	free(p->bufs);
	p->bufs = bufs;
	p->nslots = nslots;
	p->tail = 0;
	p->head = n;
	waitq_wake_all(&p->wwait);
	return (long)size;
}

/* f becomes one more reader and/or writer of p (its access mode), and
 * whoever waits for the other side looks again. */
static void pipe_attach(struct pipe *p, struct file *f)
{
	f->ops = &pipe_ops;
	f->priv = p;
	if (file_readable(f)) {
		p->readers++;
		p->r_opens++;
	}
	if (file_writable(f)) {
		p->writers++;
		p->w_opens++;
	}
	waitq_wake_all(&p->rwait);
	waitq_wake_all(&p->wwait);
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
		p = pipe_new();
		if (!p)
			return -ENOMEM;
		p->fifo = true;
		*pp = p;
	}
	if (wr && !rd && (f->flags & LINUX_O_NONBLOCK) && p->readers == 0)
		return -ENXIO;
	pipe_attach(p, f);
	if (rd && wr)
		return 0;
	if (rd && p->writers == 0 && (f->flags & LINUX_O_NONBLOCK))
		f->pipe_seen = p->w_opens + 1;
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

/* The named pipes of host files being open, by host device and number. */
static LIST_HEAD_DECL(host_fifos);

int fifo_open_host(uint64_t dev, uint64_t ino, struct file *f)
{
	struct pipe *p;
	void *slot;
	int ret;

	list_for_each_entry(p, &host_fifos,
			    key_link) if (p->key_dev == dev && p->key_ino == ino) break;
	if (&p->key_link == &host_fifos) {
		p = pipe_new();
		if (!p)
			return -ENOMEM;
		p->fifo = p->keyed = true;
		p->key_dev = dev;
		p->key_ino = ino;
		list_add(&p->key_link, &host_fifos);
	}
	slot = p;
	ret = fifo_open(&slot, f);
	if (ret < 0 && p->readers == 0 && p->writers == 0) { /* ENXIO, a signal */
		list_del(&p->key_link);
		pipe_free(p);
	}
	return ret;
}

/* As Linux's fifo_open of a pipefs inode: no wait for the other side,
 * and a writer with no reader is no ENXIO. */
int pipe_reopen(struct file *orig, struct file *f)
{
	struct pipe *p = file_pipe(orig);

	if (!p)
		return -ENXIO;
	pipe_attach(p, f);
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
	pipe_free(p);
}

/* Splicing (vfs/splice.c): Linux's fs/splice.c moves pipe buffers; here
 * the data is copied, a page at most per buffer, into buffers laid out as
 * Linux's would be, so that how much fits in a pipe is the same. */

struct pipe *pipe_of(struct file *f)
{
	return file_pipe(f);
}

void pipe_lock(struct pipe *p)
{
	wait_unlocked(p);
	p->owner = current;
}

void pipe_unlock(struct pipe *p)
{
	p->owner = NULL;
	waitq_wake_all(&p->lockq);
}

/* Linux's ipipe_prep and splice_from_pipe_next. */
int pipe_wait_data(struct pipe *p, bool nonblock)
{
	for (;;) {
		wait_unlocked(p);
		if (p->head != p->tail)
			return 1;
		if (p->writers == 0)
			return 0;
		if (nonblock)
			return -EAGAIN;
		if (signal_pending(current))
			return -ERESTARTSYS;
		waitq_sleep(&p->rwait);
	}
}

/* Linux's opipe_prep and wait_for_space. */
long pipe_wait_space(struct pipe *p, bool nonblock)
{
	for (;;) {
		wait_unlocked(p);
		if (p->readers == 0) {
			send_sigpipe();
			return -EPIPE;
		}
		if (occupancy(p) < p->nslots)
			return p->nslots - occupancy(p);
		if (nonblock)
			return -EAGAIN;
		if (signal_pending(current))
			return -ERESTARTSYS;
		waitq_sleep(&p->wwait);
	}
}

size_t pipe_len(struct pipe *p)
{
	return pipe_bytes(p);
}

unsigned pipe_free_slots(struct pipe *p)
{
	return p->nslots - occupancy(p);
}

size_t pipe_peek(struct pipe *p, void *buf, size_t n)
{
	size_t done = 0;
	unsigned i;

	for (i = p->tail; i != p->head && done < n; i++) {
		struct pipe_buf *b = slot(p, i);
		size_t chunk = b->len < n - done ? b->len : n - done;

		memcpy((char *)buf + done, b->page + b->off, chunk);
		done += chunk;
	}
	return done;
}

size_t pipe_whole(struct pipe *p, size_t n, size_t ok)
{
	size_t done = 0;
	unsigned i;

	for (i = p->tail; i != p->head && done < n; i++) {
		struct pipe_buf *b = slot(p, i);
		size_t chunk = b->len < n - done ? b->len : n - done;

		if (chunk > ok - done)
			break;
		done += chunk;
	}
	return done;
}

void pipe_consume(struct pipe *p, size_t n)
{
	bool was_full = occupancy(p) >= p->nslots;

	while (n && p->head != p->tail) {
		struct pipe_buf *b = slot(p, p->tail);
		size_t chunk = b->len < n ? b->len : n;

		b->off += chunk;
		b->len -= chunk;
		n -= chunk;
		if (b->len == 0)
			drop_buf(p);
	}
	if (was_full && occupancy(p) < p->nslots)
		waitq_wake_sync(&p->wwait, LINUX_POLLOUT | LINUX_POLLWRNORM);
}

/* A new buffer holding n <= PAGE_SIZE bytes at the head: false if out of
 * memory. The caller made sure of a free slot. */
static bool push_buf(struct pipe *p, const void *buf, size_t n, bool merge, bool packet, bool over)
{
	struct pipe_buf *b = slot(p, p->head);

	b->page = page_alloc_over(over);
	if (!b->page)
		return false;
	memcpy(b->page, buf, n);
	b->off = 0;
	b->len = (unsigned)n;
	b->merge = merge;
	b->packet = packet;
	p->head++;
	return true;
}

size_t pipe_push(struct pipe *p, const void *buf, size_t n, uint64_t align, bool over)
{
	size_t done = 0;

	while (done < n && occupancy(p) < p->nslots) {
		size_t room = PAGE_SIZE - (size_t)((align + done) & (PAGE_SIZE - 1));
		size_t chunk = n - done < room ? n - done : room;

		if (!push_buf(p, (const char *)buf + done, chunk, false, false, over))
			break;
		done += chunk;
	}
	if (done)
		waitq_wake_sync(&p->rwait, LINUX_POLLIN | LINUX_POLLRDNORM);
	return done;
}

/* Linux's splice_pipe_to_pipe (keep false) and link_pipe (tee, keep
 * true), after ipipe_prep and opipe_prep: whole buffers while len takes
 * them (moved), then a part of one (copied). */
long pipe_to_pipe(struct pipe *in, struct pipe *out, size_t len, bool nonblock, bool keep)
{
	long ret;
	size_t done = 0;
	unsigned i;

retry:
	ret = pipe_wait_data(in, nonblock);
	if (ret <= 0)
		return ret;
	ret = pipe_wait_space(out, nonblock);
	if (ret < 0)
		return ret;
	if ((in->owner && in->owner != current) || (out->owner && out->owner != current))
		goto retry; /* locked while we slept for room */
	i = in->tail;
	while (len) {
		struct pipe_buf *ib;
		size_t n;

		if (out->readers == 0) {
			send_sigpipe();
			if (!done)
				return -EPIPE;
			break;
		}
		if (i == in->head || occupancy(out) >= out->nslots) {
			if (done || keep)
				break;
			if (i == in->head && in->writers == 0)
				break;
			if (nonblock)
				return -EAGAIN;
			goto retry;
		}
		ib = slot(in, i);
		n = ib->len < len ? ib->len : len;
		if (!keep && n == ib->len) {
			*slot(out, out->head) = *ib;
			memset(ib, 0, sizeof(*ib));
			in->tail++;
			out->head++;
			i = in->tail;
		} else {
			if (!push_buf(out, ib->page + ib->off, n, false, ib->packet, false)) {
				if (!done)
					return -ENOMEM;
				break;
			}
			if (keep) {
				i++;
			} else {
				ib->off += n;
				ib->len -= n;
			}
		}
		done += n;
		len -= n;
	}
	if (done) {
		if (!keep)
			waitq_wake_sync(&in->wwait, LINUX_POLLOUT | LINUX_POLLWRNORM);
		waitq_wake_sync(&out->rwait, LINUX_POLLIN | LINUX_POLLRDNORM);
	}
	return (long)done;
}
