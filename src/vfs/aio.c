/* vfs/aio.c: Linux's native asynchronous I/O: io_setup, io_submit,
 * io_getevents, io_pgetevents, io_cancel and io_destroy, as libaio and the
 * databases on it (MariaDB's InnoDB) use them.
 *
 * A context's completion ring lives in a memfd that the kernel keeps and
 * maps into the guest, as Linux's "[aio]" pages: the header (struct
 * aio_ring: size, head, tail, magic), then the events. The guest may read
 * events there itself and move head, as libaio's and fio's user-space
 * reaping do; the kernel keeps its own tail and reads head from the ring,
 * taken modulo the size (a guest that writes nonsense there harms only
 * itself). The kernel reads and writes the ring through the memfd, so a
 * guest that unmaps it loses only its own view, as with Linux's pinned
 * pages.
 *
 * Each read, write or sync runs when io_submit reaches it, to the end, as
 * Linux's buffered ones do (io_submit blocks meanwhile: a pipe with nothing
 * to read blocks it, as on Linux); its result is an event at once.
 * Partial: IOCB_CMD_POLL, the one request that waits for something
 * outside, is EINVAL; so io_cancel never finds a request in flight
 * (EINVAL); and a ring the guest moves with mremap keeps its old address
 * as the context's id (Linux follows it). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "vfs/aio.h"
#include "vfs/file.h"
#include "vfs/eventfd.h"
#include "vfs/iov.h"
#include "vfs/poll.h"
#include "kernel/task.h"
#include "kernel/sched.h"
#include "kernel/cpus.h"
#include "kernel/ktime.h"
#include "mm/mm.h"
#include "mm/usercopy.h"
#include "host/host.h"
#include "platform/platform.h"
#include "syscalls/dispatch.h"
#include "abi/linux/aio.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/mman.h"
#include "abi/linux/stat.h"
#include "abi/linux/types.h"

struct aio_ctx {
	struct aio_ctx *next; /* the address space's others */
	uaddr_t id;	      /* where the ring was mapped: the guest's handle */
	uint32_t index;	      /* the ring's id field: its slot among them */
	uint32_t nr;	      /* ring slots */
	uint32_t max_reqs;    /* io_setup's count, as fs.aio-nr counts it */
	uint32_t tail;	      /* the kernel's: the guest's copy is not read */
	/* Requests running (a read may block): each holds its event's
	 * slot, as Linux's aio_get_req. */
	uint32_t inflight;
	struct file *ring; /* the ring's memory (a reference) */
	struct waitq wq;   /* io_getevents sleepers */
	/* The list's reference, and one for each call that may sleep with
	 * it (io_getevents; io_submit, whose reads may block): io_destroy
	 * from another thread leaves it dead, not freed, under them. */
	int refs;
	bool dead;
};

/* The ring's pages: the memfd, shared by the context and the mappings. */
struct aio_ring_mem {
	int memfd;
	uint64_t size;
};

static uint64_t aio_nr, aio_max = 65536;

uint64_t aio_nr_now(void)
{
	return aio_nr;
}

uint64_t aio_max_nr(void)
{
	return aio_max;
}

int aio_set_max_nr(uint64_t n)
{
	aio_max = n;
	return 0;
}

static int ring_fd(const struct aio_ctx *c)
{
	return ((struct aio_ring_mem *)c->ring->priv)->memfd;
}

static int ring_mmap_fd(struct file *f)
{
	return ((struct aio_ring_mem *)f->priv)->memfd;
}

static void ring_release(struct file *f)
{
	struct aio_ring_mem *m = f->priv;

	host_close(m->memfd);
	free(m);
}

static int ring_stat(struct file *f, struct linux_stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_mode = LINUX_S_IFREG | 0600;
	st->st_nlink = 1;
	st->st_size = (int64_t)((struct aio_ring_mem *)f->priv)->size;
	st->st_blksize = PAGE_SIZE;
	return 0;
}

/* As Linux's ring file, unlinked from its internal mount at once. */
static char *ring_maps_name(struct file *f)
{
	(void)f;
	return strdup("/[aio] (deleted)");
}

static const struct file_ops aio_ring_ops = {
	.stat = ring_stat,
	.mmap_fd = ring_mmap_fd,
	.release = ring_release,
	.maps_name = ring_maps_name,
};

static int ring_read(const struct aio_ctx *c, void *buf, size_t n, uint64_t off)
{
	return host_pread(ring_fd(c), buf, n, (int64_t)off) == (long)n ? 0 : -EIO;
}

static int ring_write(const struct aio_ctx *c, const void *buf, size_t n, uint64_t off)
{
	return host_pwrite(ring_fd(c), buf, n, (int64_t)off) == (long)n ? 0 : -EIO;
}

/* The guest's head, within the ring. */
static uint32_t ring_head(const struct aio_ctx *c)
{
	uint32_t head = 0;

	ring_read(c, &head, sizeof(head), offsetof(struct linux_aio_ring, head));
	return head % c->nr;
}

static struct aio_ctx *lookup(struct mm *mm, uint64_t id)
{
	struct aio_ctx *c;

	for (c = mm->aio; c; c = c->next)
		if (c->id == id && !c->dead)
			return c;
	return NULL;
}

static void ctx_put(struct aio_ctx *c)
{
	if (--c->refs > 0)
		return;
	waitq_release(&c->wq);
	file_put(c->ring);
	free(c);
}

/* Linux's kill_ioctx: out of the list and of fs.aio-nr, its sleepers
 * woken to find it dead (EINVAL), the list's reference dropped. */
static void ctx_kill(struct mm *mm, struct aio_ctx *c)
{
	struct aio_ctx **p;

	for (p = &mm->aio; *p; p = &(*p)->next)
		if (*p == c) {
			*p = c->next;
			break;
		}
	c->dead = true;
	aio_nr -= c->max_reqs;
	waitq_wake_all(&c->wq);
	ctx_put(c);
}

void aio_exit(struct mm *mm)
{
	while (mm->aio)
		ctx_kill(mm, mm->aio);
}

/* Linux's ioctx_alloc and aio_setup_ring: the ring's size from the count
 * asked (at least 4 per CPU, doubled), its pages mapped shared, read and
 * write, where mmap would put them. */
static long ctx_new(struct task *t, uint32_t nr_events, struct aio_ctx **out)
{
	uint32_t max_reqs = nr_events, ncpu4 = (uint32_t)cpus_count() * 4, idx = 0, n;
	char *used;
	struct linux_aio_ring hdr;
	struct aio_ring_mem *m;
	struct aio_ctx *c, *o;
	uint64_t size;
	long addr;
	int ret;

	if (nr_events < ncpu4)
		nr_events = ncpu4;
	nr_events *= 2; /* may wrap to 0, as Linux's unsigned int */
	if (nr_events > 0x10000000U / sizeof(struct linux_io_event))
		return -EINVAL;
	if (!nr_events || max_reqs > aio_max)
		return -EAGAIN;
	/* "1 is required, 2 for good luck" (aio_setup_ring) */
	size = PAGE_ALIGN(sizeof(hdr) + ((uint64_t)nr_events + 2) * sizeof(struct linux_io_event));
	c = calloc(1, sizeof(*c));
	m = calloc(1, sizeof(*m));
	if (!c || !m) {
		free(c);
		free(m);
		return -ENOMEM;
	}
	m->size = size;
	m->memfd = host_memfd("skas-aio-ring");
	if (m->memfd < 0 || host_ftruncate(m->memfd, size) < 0) {
		if (m->memfd >= 0)
			host_close(m->memfd);
		free(m);
		free(c);
		return -ENOMEM;
	}
	/* an open file of the instance's (ENFILE at its cap), as Linux's
	 * aio_private_file: that bounds the memfds too */
	c->ring = file_alloc(&aio_ring_ops, LINUX_O_RDWR, -1, NULL);
	if (!c->ring) {
		host_close(m->memfd);
		free(m);
		free(c);
		return file_alloc_error();
	}
	c->ring->priv = m;
	c->refs = 1;
	waitq_init(&c->wq);
	c->nr = (uint32_t)((size - sizeof(hdr)) / sizeof(struct linux_io_event));
	c->max_reqs = max_reqs;
	addr = mm_unmapped_area(t->mm, 0, size);
	ret = addr < 0 ? (int)addr
		       : mm_map(t->mm, (uaddr_t)addr, size, LINUX_PROT_READ | LINUX_PROT_WRITE,
				VMA_SHARED | VMA_MAYWRITE, c->ring, 0);
	if (ret == 0)
		ret = platform->mm_flush(t->mm->pf);
	if (ret < 0) {
		if (addr >= 0)
			mm_unmap(t->mm, (uaddr_t)addr, size);
		file_put(c->ring);
		free(c);
		return -ENOMEM;
	}
	c->id = (uaddr_t)addr;
	/* the first slot no live context of this address space has, found
	 * in one pass over them, as Linux's ioctx_add_table */
	for (o = t->mm->aio, n = 0; o; o = o->next)
		n++;
	used = calloc(n + 1, 1);
	for (o = t->mm->aio; used && o; o = o->next)
		if (o->index <= n)
			used[o->index] = 1;
	while (used && used[idx])
		idx++;
	c->index = used ? idx : n; /* (no memory to look: past them all) */
	free(used);
	hdr = (struct linux_aio_ring){ .id = c->index,
				       .nr = c->nr,
				       .magic = LINUX_AIO_RING_MAGIC,
				       .compat_features = LINUX_AIO_RING_COMPAT_FEATURES,
				       .header_length = sizeof(hdr) };
	/* fs.aio-nr, checked once the ring is there, as Linux */
	if (ring_write(c, &hdr, sizeof(hdr), 0) < 0)
		ret = -ENOMEM;
	else if (aio_nr + max_reqs > aio_max || aio_nr + max_reqs < aio_nr)
		ret = -EAGAIN;
	if (ret < 0) {
		mm_unmap(t->mm, c->id, size);
		file_put(c->ring);
		free(c);
		return ret;
	}
	aio_nr += max_reqs;
	c->next = t->mm->aio;
	t->mm->aio = c;
	*out = c;
	return 0;
}

long sys_io_setup(struct task *t, const struct sysargs *a)
{
	uaddr_t uctx = sysarg_uaddr(a, 1);
	struct aio_ctx *c = NULL;
	uint64_t old;
	long ret;

	if (copy_from_user(t->mm, &old, uctx, sizeof(old)) < 0)
		return -EFAULT;
	if (old || sysarg_uint(a, 0) == 0)
		return -EINVAL;
	ret = ctx_new(t, sysarg_uint(a, 0), &c);
	if (ret < 0 || !c)
		return ret < 0 ? ret : -ENOMEM;
	if (copy_to_user(t->mm, uctx, &c->id, sizeof(c->id)) < 0) {
		/* Linux's kill_ioctx: gone again, ring and all */
		mm_unmap(t->mm, c->id, ((struct aio_ring_mem *)c->ring->priv)->size);
		ctx_kill(t->mm, c);
		return -EFAULT;
	}
	return 0;
}

long sys_io_destroy(struct task *t, const struct sysargs *a)
{
	struct aio_ctx *c = lookup(t->mm, a->a[0]);

	if (!c)
		return -EINVAL;
	mm_unmap(t->mm, c->id, ((struct aio_ring_mem *)c->ring->priv)->size);
	ctx_kill(t->mm, c);
	return 0;
}

/* The event of a request done: into the ring at the kernel's tail, the
 * header's tail after it; then the eventfd of IOCB_FLAG_RESFD, then the
 * sleepers (Linux's aio_complete). */
static void complete(struct aio_ctx *c, const struct linux_iocb *cb, uaddr_t obj, int64_t res,
		     struct file *resfd)
{
	struct linux_io_event ev = { .data = cb->aio_data, .obj = obj, .res = res, .res2 = 0 };
	uint32_t tail = c->tail;

	/* a read a signal broke off: EINTR, never a restart (aio_rw_done) */
	if (res == -ERESTARTSYS || res == -ERESTARTNOINTR || res == -ERESTARTNOHAND ||
	    res == -ERESTART_RESTARTBLOCK)
		ev.res = -EINTR;
	c->inflight--;

	ring_write(c, &ev, sizeof(ev), sizeof(struct linux_aio_ring) + (uint64_t)tail * sizeof(ev));
	tail = (tail + 1) % c->nr;
	c->tail = tail;
	ring_write(c, &tail, sizeof(tail), offsetof(struct linux_aio_ring, tail));
	if (resfd)
		eventfd_signal_file(resfd);
	waitq_wake_all(&c->wq);
}

/* The request's I/O, as the synchronous call would do it, its RWF_ flags
 * (aio_rw_flags, sys_fs.c's rwf_begin) applied: its result. */
static long run_rw(struct task *t, const struct linux_iocb *cb, struct file *f, bool write,
		   bool vec)
{
	bool positional = f->ops->pread || f->ops->pwrite;
	struct sysargs sa = { { cb->aio_fildes, cb->aio_buf, cb->aio_nbytes,
				(uint64_t)cb->aio_offset, 0, 0 } };
	struct rwf_call rc = { 0, 0, false, false };
	long ret = rwf_begin(t, f, cb->aio_rw_flags, write, &rc);

	if (ret < 0)
		return ret;
	if (vec && positional)
		ret = write ? sys_pwritev(t, &sa) : sys_preadv(t, &sa);
	else if (vec)
		ret = write ? sys_writev(t, &sa) : sys_readv(t, &sa);
	else if (positional)
		ret = write ? sys_pwrite64(t, &sa) : sys_pread64(t, &sa);
	else
		ret = write ? sys_write(t, &sa) : sys_read(t, &sa);
	rwf_end(t, f, &rc);
	return ret;
}

/* Linux's aio_prep_rw, then aio_read's or aio_write's checks, and
 * aio_setup_rw's (the buffer, or the vector as the call would import it)
 * and rw_verify_area's, in their order: 0 or what fails io_submit. */
static long prep_rw(struct task *t, const struct linux_iocb *cb, struct file *f, bool write,
		    bool vec)
{
	struct linux_iovec *iov = NULL;
	long ret;

	if (cb->aio_flags & LINUX_IOCB_FLAG_IOPRIO) {
		ret = ioprio_check(t, cb->aio_reqprio);
		if (ret < 0)
			return ret;
	}
	/* kiocb_set_rw_flags, before the file's mode */
	ret = rwf_check(f, cb->aio_rw_flags, write);
	if (ret < 0)
		return ret;
	if (write ? !file_writable(f) : !file_readable(f))
		return -EBADF;
	if (f->path.dentry && LINUX_S_ISDIR(f->path.dentry->inode->mode))
		return -EINVAL; /* no read_iter */
	if (vec) {
		ret = iovec_import(t, cb->aio_buf, (uint32_t)cb->aio_nbytes, &iov);
		free(iov);
		if (ret < 0)
			return ret;
	} else if (!access_ok(cb->aio_buf,
			      cb->aio_nbytes < MAX_RW_COUNT ? cb->aio_nbytes : MAX_RW_COUNT)) {
		return -EFAULT;
	}
	return cb->aio_offset < 0 ? -EINVAL : 0;
}

/* Linux's io_submit_one: the checks that fail the call, then the request
 * runs and its result is the event's. */
static long submit_one(struct task *t, struct aio_ctx *c, uaddr_t uiocb)
{
	static const uint32_t key = LINUX_KIOCB_KEY;
	struct file *f = NULL, *resfd = NULL;
	struct linux_iocb cb;
	bool write = false, vec = false;
	long ret;

	if (copy_from_user(t->mm, &cb, uiocb, sizeof(cb)) < 0)
		return -EFAULT;
	if (cb.aio_reserved2 || (int64_t)cb.aio_nbytes < 0)
		return -EINVAL;
	/* a free slot for the event (Linux's reqs_available), those of the
	 * requests running taken */
	if ((c->tail + c->nr - ring_head(c)) % c->nr + c->inflight >= c->nr - 1)
		return -EAGAIN;
	f = fdget_nopath(t->files, (int)cb.aio_fildes);
	if (!f)
		return -EBADF;
	ret = 0;
	if (cb.aio_flags & LINUX_IOCB_FLAG_RESFD) {
		resfd = fdget(t->files, (int)cb.aio_resfd);
		if (!resfd)
			ret = -EBADF;
		else if (!is_eventfd(resfd))
			ret = -EINVAL;
	}
	if (ret == 0 && copy_to_user(t->mm, uiocb + offsetof(struct linux_iocb, aio_key), &key,
				     sizeof(key)) < 0)
		ret = -EFAULT;
	if (ret < 0)
		goto out;
	switch (cb.aio_lio_opcode) {
	case LINUX_IOCB_CMD_PWRITEV:
		vec = true;
		/* fallthrough */
	case LINUX_IOCB_CMD_PWRITE:
		write = true;
		/* fallthrough */
	case LINUX_IOCB_CMD_PREAD:
	case LINUX_IOCB_CMD_PREADV:
		if (cb.aio_lio_opcode == LINUX_IOCB_CMD_PREADV)
			vec = true;
		ret = prep_rw(t, &cb, f, write, vec);
		if (ret == 0) {
			c->inflight++;
			complete(c, &cb, uiocb, run_rw(t, &cb, f, write, vec), resfd);
		}
		break;
	case LINUX_IOCB_CMD_FSYNC:
	case LINUX_IOCB_CMD_FDSYNC:
		/* Linux's aio_fsync: no buffer, offset or flags; a file with
		 * an fsync (not a pipe or socket). skas's data is where
		 * fsync would put it (sys_fsync), so the event says 0. */
		if (cb.aio_buf || cb.aio_offset || cb.aio_nbytes || cb.aio_rw_flags ||
		    !(f->ops->pread || f->ops->pwrite || f->ops->getdents64)) {
			ret = -EINVAL;
		} else {
			c->inflight++;
			complete(c, &cb, uiocb, 0, resfd);
		}
		break;
	default: /* IOCB_CMD_POLL among them: see above */
		ret = -EINVAL;
	}
out:
	file_put(resfd);
	file_put(f);
	return ret;
}

long sys_io_submit(struct task *t, const struct sysargs *a)
{
	int64_t nr = (int64_t)a->a[1], i;
	uaddr_t iocbpp = sysarg_uaddr(a, 2);
	struct aio_ctx *c;
	long ret = 0;

	if (nr < 0)
		return -EINVAL;
	c = lookup(t->mm, a->a[0]);
	if (!c)
		return -EINVAL;
	if (nr > c->nr)
		nr = c->nr;
	c->refs++;
	for (i = 0; i < nr; i++) {
		uint64_t uiocb;

		if (copy_from_user(t->mm, &uiocb, iocbpp + (uint64_t)i * 8, sizeof(uiocb)) < 0) {
			ret = -EFAULT;
			break;
		}
		ret = submit_one(t, c, uiocb);
		if (ret < 0)
			break;
		if (c->dead) { /* destroyed by another thread meanwhile */
			i++;
			break;
		}
	}
	ctx_put(c);
	return i ? i : ret;
}

/* Linux's aio_read_events_ring: what the ring holds from head, up to n
 * events, copied to the guest at uev; head moves past them. Their count,
 * or -EFAULT (head stays) if the copy fails. */
static long read_ring(struct task *t, struct aio_ctx *c, uaddr_t uev, long n)
{
	uint32_t head = ring_head(c);
	long got = 0;

	while (got < n && head != c->tail) {
		struct linux_io_event ev[16];
		uint32_t run = (head < c->tail ? c->tail : c->nr) - head;
		long k = run < 16 ? (long)run : 16;

		if (k > n - got)
			k = n - got;
		if (ring_read(c, ev, (size_t)k * sizeof(ev[0]),
			      sizeof(struct linux_aio_ring) + (uint64_t)head * sizeof(ev[0])) < 0)
			break;
		if (copy_to_user(t->mm, uev + (uint64_t)got * sizeof(ev[0]), ev,
				 (size_t)k * sizeof(ev[0])) < 0) {
			if (got == 0)
				return -EFAULT;
			break;
		}
		got += k;
		head = (head + (uint32_t)k) % c->nr;
	}
	if (got)
		ring_write(c, &head, sizeof(head), offsetof(struct linux_aio_ring, head));
	return got;
}

static void getevents_timeout(void *arg)
{
	sched_wake(arg);
}

/* Linux's do_io_getevents and read_events: at least min_nr events, at most
 * nr, waiting until the deadline (monotonic ns; -1 none, 0 no wait). */
static long do_getevents(struct task *t, uint64_t id, int64_t min_nr, int64_t nr, uaddr_t uev,
			 int64_t deadline)
{
	struct ktimer tm = { .armed = false };
	struct aio_ctx *c;
	long got = 0, r;

	if (min_nr > nr || min_nr < 0 || nr < 0)
		return -EINVAL;
	c = lookup(t->mm, id);
	if (!c)
		return -EINVAL;
	c->refs++;
	for (;;) {
		r = read_ring(t, c, uev + (uint64_t)got * sizeof(struct linux_io_event), nr - got);
		if (r < 0) { /* EFAULT: what came before it, if any */
			got = got ? got : r;
			break;
		}
		got += r;
		if (c->dead) {
			got = got ? got : -EINVAL;
			break;
		}
		if (got >= min_nr || deadline == 0 || (deadline > 0 && sched_now_ns() >= deadline))
			break;
		if (signal_pending(t)) {
			got = got ? got : -EINTR;
			break;
		}
		if (deadline > 0 && !tm.armed)
			ktimer_arm(&tm, deadline, getevents_timeout, t);
		waitq_sleep(&c->wq);
	}
	ktimer_cancel(&tm);
	ctx_put(c);
	/* nothing, and a signal came meanwhile: EINTR, whatever the timeout */
	return got == 0 && signal_pending(t) ? -EINTR : got;
}

static int get_deadline(struct task *t, uaddr_t uts, int64_t *deadline)
{
	struct linux_timespec ts;
	int64_t len;

	*deadline = -1;
	if (!uts)
		return 0;
	if (copy_from_user(t->mm, &ts, uts, sizeof(ts)) < 0)
		return -EFAULT;
	/* Linux takes it unchecked, as a length of time (timespec64_to_ktime):
	 * nanoseconds past a second add up, 0 is no wait, and a negative one
	 * never ends (seen on Linux 6.18: it waits for a signal) */
	if (ts.tv_sec >= KTIME_MAX / NSEC_PER_SEC) {
		*deadline = -1;
		return 0;
	}
	if (ts.tv_sec < -(KTIME_MAX / NSEC_PER_SEC))
		ts.tv_sec = -(KTIME_MAX / NSEC_PER_SEC);
	len = ts.tv_sec * NSEC_PER_SEC;
	len = ts.tv_nsec > 0 ? add_sat(len, ts.tv_nsec)
			     : (len < INT64_MIN - ts.tv_nsec ? INT64_MIN : len + ts.tv_nsec);
	*deadline = len == 0 ? 0 : len < 0 ? -1 : add_sat(sched_now_ns(), len);
	return 0;
}

long sys_io_getevents(struct task *t, const struct sysargs *a)
{
	int64_t deadline;
	int ret = get_deadline(t, sysarg_uaddr(a, 4), &deadline);

	if (ret < 0)
		return ret;
	return do_getevents(t, a->a[0], (int64_t)a->a[1], (int64_t)a->a[2], sysarg_uaddr(a, 3),
			    deadline);
}

/* io_pgetevents: a signal mask for the wait, as pselect6's ({mask pointer,
 * size}). */
long sys_io_pgetevents(struct task *t, const struct sysargs *a)
{
	int64_t deadline;
	long ret = get_deadline(t, sysarg_uaddr(a, 4), &deadline);

	if (ret < 0)
		return ret;
	ret = set_wait_mask_indirect(t, sysarg_uaddr(a, 5));
	if (ret < 0)
		return ret;
	ret = do_getevents(t, a->a[0], (int64_t)a->a[1], (int64_t)a->a[2], sysarg_uaddr(a, 3),
			   deadline);
	if (ret == -EINTR)
		ret = -ERESTARTNOHAND; /* Linux's io_pgetevents, unlike io_getevents */
	end_wait_mask(t, ret);
	return ret;
}

/* io_cancel: the iocb's key must be KIOCB_KEY and the context the caller's;
 * then no request is ever in flight here (each is done at io_submit), so
 * there is none to cancel: EINVAL, as Linux's for one not found. */
long sys_io_cancel(struct task *t, const struct sysargs *a)
{
	uint32_t key;

	if (copy_from_user(t->mm, &key, sysarg_uaddr(a, 1) + offsetof(struct linux_iocb, aio_key),
			   sizeof(key)) < 0)
		return -EFAULT;
	if (key != LINUX_KIOCB_KEY || !lookup(t->mm, a->a[0]))
		return -EINVAL;
	return -EINVAL;
}
