/* vfs/splice.c: sendfile, copy_file_range, splice and vmsplice transfers,
 * as Linux's fs/splice.c does them but over the files' own read, write,
 * pread and pwrite: the data goes through a kernel buffer of at most
 * SPLICE_BUF bytes at a time, so a transfer costs the host what the same
 * reads and writes would. A pipe side is handled in place (vfs/pipe.c):
 * into a pipe goes what its free slots hold, laid out in buffers as
 * Linux's would be; out of a pipe goes what the other file took. While the
 * other file may sleep, the pipe is locked (Linux's pipe_lock), so that
 * what was looked at is what is consumed. */
#include <stdlib.h>
#include <string.h>

#include "vfs/splice.h"
#include "mm/commit.h"
#include "vfs/file.h"
#include "vfs/pipe.h"
#include "vfs/iov.h"
#include "kernel/task.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/stat.h"
#include "abi/linux/types.h"

#ifndef PAGE_SIZE
#define PAGE_SIZE 4096
#endif
#define SPLICE_BUF (1UL << 20)

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

uint32_t file_type(struct file *f)
{
	struct linux_stat st;

	if (f->inode)
		return f->inode->mode & LINUX_S_IFMT;
	if (file_stat(f, &st) < 0)
		return 0;
	return st.st_mode & LINUX_S_IFMT;
}

static long file_in(struct file *f, int64_t *pos, void *buf, size_t n)
{
	long r;

	if (!pos)
		return f->ops->read ? f->ops->read(f, buf, n) : -EINVAL;
	r = f->ops->pread ? f->ops->pread(f, buf, n, *pos) : -EINVAL;
	if (r > 0)
		*pos += r;
	return r;
}

/* Linux's iter_file_splice_write: a short write is followed by another
 * of the rest (after a write cut at RLIMIT_FSIZE, that one is EFBIG and
 * SIGXFSZ, as on Linux); the bytes written, or the first error. */
static long file_out(struct file *f, int64_t *pos, const void *buf, size_t n)
{
	size_t done = 0;
	long r = 0;

	while (done < n) {
		uint64_t want = n - done;
		const char *at = (const char *)buf + done;

		r = file_write_checks(f, pos ? *pos : -1, &want);
		if (r < 0)
			break;
		if (!pos)
			r = f->ops->write ? f->ops->write(f, at, want) : -EINVAL;
		else
			r = f->ops->pwrite ? f->ops->pwrite(f, at, want, *pos) : -EINVAL;
		if (r <= 0)
			break;
		if (pos)
			*pos += r;
		done += (size_t)r;
	}
	return done ? (long)done : r;
}

/* Linux's splice_direct_to_actor: a read, then a write of all of it; a
 * short write ends the call, and in is left just after what was written.
 * A pending signal ends it between pieces (Linux's splice_from_pipe_next). */
long splice_direct(struct file *in, int64_t *ipos, struct file *out, int64_t *opos, size_t len)
{
	size_t cap = min_size(len, SPLICE_BUF), done = 0;
	char *buf;
	long r = 0, w;

	if (len == 0)
		return 0;
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	while (done < len) {
		int64_t at = *ipos;

		if (signal_pending(current)) {
			r = -ERESTARTSYS;
			break;
		}
		r = in->ops->pread(in, buf, min_size(len - done, cap), at);
		if (r <= 0)
			break;
		w = file_out(out, opos, buf, (size_t)r);
		if (w <= 0) {
			r = w;
			break;
		}
		*ipos = at + w;
		done += (size_t)w;
		if (w < r)
			break;
	}
	free(buf);
	return done ? (long)done : r;
}

long splice_file_to_pipe(struct file *in, int64_t *ipos, struct pipe *p, size_t len, bool nonblock)
{
	uint64_t align = ipos ? (uint64_t)*ipos : 0;
	size_t room;
	char *buf;
	long r = pipe_wait_space(p, nonblock);

	if (r < 0)
		return r;
	/* Linux's do_splice_read: only a file with a splice_read. */
	if (file_is_pipe(in) || LINUX_S_ISDIR(file_type(in)) || in->ops->anon_name ||
	    (ipos ? !in->ops->pread : !in->ops->read))
		return -EINVAL;
	if (len == 0)
		return 0;
	/* A buffer per page of the file: the free slots hold this much, and
	 * --memory as many pages (what is read must all reach the pipe). */
	room = (size_t)r * PAGE_SIZE - (size_t)(align & (PAGE_SIZE - 1));
	len = min_size(min_size(len, room), SPLICE_BUF);
	while (len &&
	       !mem_fits(((align & (PAGE_SIZE - 1)) + len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1)))
		len = len > PAGE_SIZE ? len - PAGE_SIZE : 0;
	if (len == 0)
		return -ENOMEM;
	buf = malloc(len);
	if (!buf)
		return -ENOMEM;
	pipe_lock(p); /* the read may sleep: the slots stay free */
	r = file_in(in, ipos, buf, len);
	if (r > 0)
		pipe_push(p, buf, (size_t)r, align, true);
	pipe_unlock(p);
	free(buf);
	return r;
}

long splice_pipe_to_file(struct pipe *p, struct file *out, int64_t *opos, size_t len, bool nonblock)
{
	size_t cap, done = 0;
	char *buf;
	long r = pipe_wait_data(p, nonblock);

	if (r <= 0)
		return r;
	cap = min_size(min_size(len, pipe_len(p)), SPLICE_BUF);
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	pipe_lock(p); /* the write may sleep: the data stays */
	while (done < len) {
		size_t n;
		long w;

		if (signal_pending(current)) {
			r = -ERESTARTSYS;
			break;
		}
		n = pipe_peek(p, buf, min_size(len - done, cap));
		if (n == 0)
			break;
		w = file_out(out, opos, buf, n);
		if (w <= 0) {
			r = w;
			break;
		}
		pipe_consume(p, (size_t)w);
		done += (size_t)w;
		if ((size_t)w < n)
			break;
	}
	pipe_unlock(p);
	free(buf);
	return done ? (long)done : r;
}

/* Linux's iter_to_pipe: a buffer per user page, while slots are free; a
 * segment that is not readable ends it (EFAULT if nothing went). */
static long user_to_pipe(struct task *t, struct pipe *p, const struct linux_iovec *iov, int cnt)
{
	size_t done = 0;
	long r = 0;
	int i;

	for (i = 0; i < cnt; i++) {
		uaddr_t addr = iov[i].iov_base;
		size_t left = iov[i].iov_len;

		while (left) {
			unsigned slots = pipe_free_slots(p);
			size_t room = (size_t)slots * PAGE_SIZE - (addr & (PAGE_SIZE - 1));
			size_t n, got;
			char *buf;

			if (slots == 0)
				goto out;
			n = user_prefix(t->mm, addr, min_size(min_size(left, room), SPLICE_BUF),
					false);
			if (n == 0) {
				r = -EFAULT;
				goto out;
			}
			buf = malloc(n);
			if (!buf) {
				r = -ENOMEM;
				goto out;
			}
			if (copy_from_user(t->mm, buf, addr, n) < 0) {
				free(buf);
				r = -EFAULT;
				goto out;
			}
			got = pipe_push(p, buf, n, addr, false);
			free(buf);
			done += got;
			addr += got;
			left -= got;
			if (got < n) {
				if (got == 0)
					r = -ENOMEM; /* no page fits --memory */
				goto out;
			}
		}
	}
out:
	return done ? (long)done : r;
}

/* Linux's vmsplice_to_user: what the pipe holds, up to the iovecs, one
 * buffer at a time (pipe_to_user). A buffer whose copy faults is copied as
 * far as the fault but neither counted nor consumed: EFAULT if it was the
 * first. */
static long pipe_to_user(struct task *t, struct pipe *p, const struct linux_iovec *iov, int cnt)
{
	size_t n, off, whole;
	char *buf;

	n = min_size(iovec_total(iov, cnt), min_size(pipe_len(p), SPLICE_BUF));
	buf = malloc(n ? n : 1);
	if (!buf)
		return -ENOMEM;
	n = pipe_peek(p, buf, n);
	off = iovec_to_user(t->mm, iov, cnt, buf, iovec_user_prefix(t->mm, iov, cnt, n, true));
	free(buf);
	whole = pipe_whole(p, n, off);
	pipe_consume(p, whole);
	if (whole == 0 && off < n)
		return -EFAULT;
	return (long)whole;
}

long vmsplice_pipe(struct task *t, struct pipe *p, const struct linux_iovec *iov, int cnt,
		   bool to_pipe, bool nonblock)
{
	long r;

	if (to_pipe) {
		r = pipe_wait_space(p, nonblock);
		if (r < 0)
			return r;
		return user_to_pipe(t, p, iov, cnt);
	}
	r = pipe_wait_data(p, nonblock);
	if (r <= 0)
		return r;
	return pipe_to_user(t, p, iov, cnt);
}
