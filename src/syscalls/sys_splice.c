/* syscalls/sys_splice.c: sendfile(2), copy_file_range(2), splice(2),
 * tee(2), vmsplice(2): Linux's argument checks, in its order (fs/splice.c,
 * fs/read_write.c), and the offsets copied in and out; the transfers are in
 * vfs/splice.c and vfs/pipe.c. */
#include <stdlib.h>

#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "mm/usercopy.h"
#include "vfs/file.h"
#include "vfs/fsnotify.h"
#include "vfs/inotify.h"
#include "vfs/iov.h"
#include "vfs/pipe.h"
#include "vfs/splice.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/stat.h"
#include "abi/linux/types.h"

/* Linux's rw_verify_area: a count that is negative as ssize_t, a negative
 * offset or one that wraps with the count is EINVAL. */
static int rw_verify(const int64_t *pos, uint64_t count)
{
	if ((int64_t)count < 0)
		return -EINVAL;
	if (pos && (*pos < 0 || (int64_t)((uint64_t)*pos + count) < 0))
		return -EINVAL;
	return 0;
}

/* Reads and writes of f go through an offset (Linux's FMODE_PREAD and
 * FMODE_PWRITE: a file with a position), not a stream. */
static bool has_pread(struct file *f)
{
	return f->ops->pread && f->ops->llseek;
}

static bool has_pwrite(struct file *f)
{
	return f->ops->pwrite && f->ops->llseek;
}

static int64_t file_pos(struct file *f)
{
	return f->ops->llseek(f, 0, LINUX_SEEK_CUR);
}

static void set_file_pos(struct file *f, int64_t pos)
{
	f->ops->llseek(f, pos, LINUX_SEEK_SET);
}

/* Linux's do_splice_direct: to a file that is not a pipe, from a regular
 * file; the file's splice_write is its write (none: EINVAL). */
static long splice_direct_checked(struct file *in, int64_t *ipos, struct file *out, int64_t *opos,
				  size_t len)
{
	uint32_t type = file_type(in);

	if (out->flags & LINUX_O_APPEND)
		return -EINVAL;
	if ((type != LINUX_S_IFREG && type != LINUX_S_IFBLK) || !has_pread(in))
		return -EINVAL;
	if (out->ops->anon_name || (opos ? !out->ops->pwrite : !out->ops->write))
		return -EINVAL;
	return splice_direct(in, ipos, out, opos, len);
}

static void notify(struct file *in, struct file *out, long ret)
{
	if (ret > 0) {
		fsnotify_file(in, IN_ACCESS);
		fsnotify_file(out, IN_MODIFY);
	}
}

/* Linux's do_sendfile. ppos: the guest's offset, or NULL for in's
 * position. */
static long do_sendfile(struct task *t, int out_fd, int in_fd, int64_t *ppos, uint64_t count)
{
	struct file *in = fdget_nopath(t->files, in_fd), *out = NULL;
	struct pipe *opipe;
	int64_t pos = 0;
	long ret = -EBADF;

	if (!in)
		return -EBADF;
	if (!file_readable(in))
		goto out;
	ret = -ESPIPE;
	if (ppos) {
		if (!has_pread(in))
			goto out;
		pos = *ppos;
	} else if (has_pread(in)) {
		pos = file_pos(in);
	}
	ret = rw_verify(&pos, count);
	if (ret < 0)
		goto out;
	if (count > MAX_RW_COUNT)
		count = MAX_RW_COUNT;
	ret = -EBADF;
	out = fdget_nopath(t->files, out_fd);
	if (!out || !file_writable(out))
		goto out;
	opipe = pipe_of(out);
	if (opipe)
		ret = splice_file_to_pipe(in, has_pread(in) ? &pos : NULL, opipe, count,
					  out->flags & LINUX_O_NONBLOCK);
	else
		ret = splice_direct_checked(in, &pos, out, NULL, count);
	notify(in, out, ret);
	io_account(t, false, ret);
	io_account(t, true, ret);
	if (ret > 0) {
		if (ppos)
			*ppos = pos;
		else if (has_pread(in))
			set_file_pos(in, pos);
	}
out:
	if (out)
		file_put(out);
	file_put(in);
	return ret;
}

/* sendfile(2) (x86-64's is Linux's sendfile64): the offset is read before
 * and written back after, whatever happened, with put_user (a store that
 * faults writes nothing; splice's and copy_file_range's copy_to_user
 * writes the bytes before the fault). */
long sys_sendfile(struct task *t, const struct sysargs *a)
{
	uaddr_t uoff = sysarg_uaddr(a, 2);
	int64_t pos;
	long ret;

	if (!uoff)
		return do_sendfile(t, sysarg_int(a, 0), sysarg_int(a, 1), NULL, sysarg_size(a, 3));
	if (copy_from_user(t->mm, &pos, uoff, sizeof(pos)) < 0)
		return -EFAULT;
	ret = do_sendfile(t, sysarg_int(a, 0), sysarg_int(a, 1), &pos, sysarg_size(a, 3));
	if (copy_to_user(t->mm, uoff, &pos, sizeof(pos)) < 0)
		return -EFAULT;
	return ret;
}

/* Linux's generic_copy_file_checks (after generic_file_rw_checks) and
 * rw_verify_area for both sides: *len is cut at in's EOF. */
static long copy_checks(struct file *in, int64_t pos_in, struct file *out, int64_t pos_out,
			uint64_t *len)
{
	uint32_t tin = file_type(in), tout = file_type(out);
	struct linux_stat st;
	uint64_t count = *len;
	int ret;

	if (LINUX_S_ISDIR(tin) || LINUX_S_ISDIR(tout))
		return -EISDIR;
	if (tin != LINUX_S_IFREG || tout != LINUX_S_IFREG)
		return -EINVAL;
	if (!file_readable(in) || !file_writable(out) || (out->flags & LINUX_O_APPEND))
		return -EBADF;
	/* Linux 5.19 on: across superblocks only for filesystems with a
	 * copy_file_range of their own (none here); 5.3 to 5.11 copied. */
	if (in->inode && out->inode && in->inode->sb != out->inode->sb)
		return -EXDEV;
	if ((uint64_t)pos_in + count < (uint64_t)pos_in ||
	    (uint64_t)pos_out + count < (uint64_t)pos_out)
		return -EOVERFLOW;
	ret = file_stat(in, &st);
	if (ret < 0)
		return ret;
	if (pos_in >= st.st_size)
		count = 0;
	else if (count > (uint64_t)st.st_size - (uint64_t)pos_in)
		count = (uint64_t)st.st_size - (uint64_t)pos_in;
	/* Linux's generic_write_check_limits, even with nothing to copy */
	if (pos_out >= 0) {
		ret = file_write_limits(pos_out, &count);
		if (ret < 0)
			return ret;
	}
	if (in->inode && in->inode == out->inode && pos_out + (int64_t)count > pos_in &&
	    pos_out < pos_in + (int64_t)count)
		return -EINVAL;
	ret = rw_verify(&pos_in, count);
	if (ret == 0)
		ret = rw_verify(&pos_out, count);
	*len = count;
	return ret;
}

/* copy_file_range(2): Linux's do_splice_direct between two regular files
 * of one filesystem (what it does when the filesystem has no copy of its
 * own), at most MAX_RW_COUNT bytes a call. */
long sys_copy_file_range(struct task *t, const struct sysargs *a)
{
	uaddr_t uoff_in = sysarg_uaddr(a, 1), uoff_out = sysarg_uaddr(a, 3);
	uint64_t len = sysarg_size(a, 4);
	unsigned flags = sysarg_uint(a, 5);
	struct file *in = fdget_nopath(t->files, sysarg_int(a, 0)), *out;
	int64_t pos_in, pos_out, opos;
	long ret = -EBADF;

	if (!in)
		return -EBADF;
	out = fdget_nopath(t->files, sysarg_int(a, 2));
	if (!out)
		goto out_in;
	ret = -EFAULT;
	if (uoff_in) {
		if (copy_from_user(t->mm, &pos_in, uoff_in, sizeof(pos_in)) < 0)
			goto out;
	} else {
		pos_in = has_pread(in) ? file_pos(in) : 0;
	}
	if (uoff_out) {
		if (copy_from_user(t->mm, &pos_out, uoff_out, sizeof(pos_out)) < 0)
			goto out;
	} else {
		pos_out = has_pwrite(out) ? file_pos(out) : 0;
	}
	ret = -EINVAL;
	if (flags != 0)
		goto out;
	ret = copy_checks(in, pos_in, out, pos_out, &len);
	if (ret < 0 || len == 0)
		goto out;
	if (!has_pread(in) || !has_pwrite(out)) {
		ret = -EINVAL;
		goto out;
	}
	opos = pos_out;
	ret = splice_direct(in, &pos_in, out, &opos, len < MAX_RW_COUNT ? len : MAX_RW_COUNT);
	notify(in, out, ret);
	io_account(t, false, ret);
	io_account(t, true, ret);
	if (ret > 0) {
		pos_out = opos;
		if (uoff_in) {
			if (copy_to_user_upto(t->mm, uoff_in, &pos_in, sizeof(pos_in)) < 0)
				ret = -EFAULT;
		} else {
			set_file_pos(in, pos_in);
		}
		if (uoff_out) {
			if (copy_to_user_upto(t->mm, uoff_out, &pos_out, sizeof(pos_out)) < 0)
				ret = -EFAULT;
		} else {
			set_file_pos(out, pos_out);
		}
	}
out:
	file_put(out);
out_in:
	file_put(in);
	return ret;
}

/* Linux's do_splice, after __do_splice's ESPIPE and offset copies. */
static long do_splice(struct file *in, int64_t *off_in, struct file *out, int64_t *off_out,
		      uint64_t len, unsigned flags)
{
	struct pipe *ipipe = pipe_of(in), *opipe = pipe_of(out);
	bool nonblock = flags & LINUX_SPLICE_F_NONBLOCK;
	int64_t offset;
	long ret;

	if (!file_readable(in) || !file_writable(out))
		return -EBADF;
	if (ipipe && opipe) {
		if (ipipe == opipe)
			return -EINVAL;
		if ((in->flags | out->flags) & LINUX_O_NONBLOCK)
			nonblock = true;
		return pipe_to_pipe(ipipe, opipe, len, nonblock, false);
	}
	if (ipipe) {
		bool positional = off_out || has_pwrite(out);

		if (off_out && !has_pwrite(out))
			return -EINVAL;
		offset = off_out ? *off_out : positional ? file_pos(out) : 0;
		if (out->flags & LINUX_O_APPEND)
			return -EINVAL;
		ret = rw_verify(&offset, len);
		if (ret < 0)
			return ret;
		if (in->flags & LINUX_O_NONBLOCK)
			nonblock = true;
		if (out->ops->anon_name || !out->ops->write || LINUX_S_ISDIR(file_type(out)))
			return -EINVAL;
		if (len > MAX_RW_COUNT)
			len = MAX_RW_COUNT;
		ret = splice_pipe_to_file(ipipe, out, positional ? &offset : NULL, len, nonblock);
		if (off_out)
			*off_out = offset;
		else if (positional)
			set_file_pos(out, offset);
		if (ret > 0)
			fsnotify_file(out, IN_MODIFY);
		return ret;
	}
	if (opipe) {
		bool positional = off_in || has_pread(in);

		if (off_in && !has_pread(in))
			return -EINVAL;
		offset = off_in ? *off_in : positional ? file_pos(in) : 0;
		ret = rw_verify(&offset, len);
		if (ret < 0)
			return ret;
		if (out->flags & LINUX_O_NONBLOCK)
			nonblock = true;
		if (len > MAX_RW_COUNT)
			len = MAX_RW_COUNT;
		ret = splice_file_to_pipe(in, positional ? &offset : NULL, opipe, len, nonblock);
		if (off_in)
			*off_in = offset;
		else if (positional)
			set_file_pos(in, offset);
		if (ret > 0)
			fsnotify_file(in, IN_ACCESS);
		return ret;
	}
	return -EINVAL;
}

long sys_splice(struct task *t, const struct sysargs *a)
{
	uaddr_t uoff_in = sysarg_uaddr(a, 1), uoff_out = sysarg_uaddr(a, 3);
	uint64_t len = sysarg_size(a, 4);
	unsigned flags = sysarg_uint(a, 5);
	struct file *in, *out;
	int64_t off_in, off_out;
	long ret = -EBADF;

	if (len == 0)
		return 0;
	if (flags & ~LINUX_SPLICE_F_ALL)
		return -EINVAL;
	in = fdget_nopath(t->files, sysarg_int(a, 0));
	if (!in)
		return -EBADF;
	out = fdget_nopath(t->files, sysarg_int(a, 2));
	if (!out)
		goto out_in;
	ret = -ESPIPE;
	if ((pipe_of(in) && uoff_in) || (pipe_of(out) && uoff_out))
		goto out;
	ret = -EFAULT;
	if (uoff_out && copy_from_user(t->mm, &off_out, uoff_out, sizeof(off_out)) < 0)
		goto out;
	if (uoff_in && copy_from_user(t->mm, &off_in, uoff_in, sizeof(off_in)) < 0)
		goto out;
	ret = do_splice(in, uoff_in ? &off_in : NULL, out, uoff_out ? &off_out : NULL, len, flags);
	if (ret < 0)
		goto out;
	if (uoff_out && copy_to_user_upto(t->mm, uoff_out, &off_out, sizeof(off_out)) < 0)
		ret = -EFAULT;
	else if (uoff_in && copy_to_user_upto(t->mm, uoff_in, &off_in, sizeof(off_in)) < 0)
		ret = -EFAULT;
out:
	file_put(out);
out_in:
	file_put(in);
	return ret;
}

long sys_tee(struct task *t, const struct sysargs *a)
{
	uint64_t len = sysarg_size(a, 2);
	unsigned flags = sysarg_uint(a, 3);
	struct file *in, *out;
	struct pipe *ipipe, *opipe;
	long ret = -EBADF;

	if (flags & ~LINUX_SPLICE_F_ALL)
		return -EINVAL;
	if (len == 0)
		return 0;
	in = fdget_nopath(t->files, sysarg_int(a, 0));
	if (!in)
		return -EBADF;
	out = fdget_nopath(t->files, sysarg_int(a, 1));
	if (!out)
		goto out_in;
	ipipe = pipe_of(in);
	opipe = pipe_of(out);
	if (!file_readable(in) || !file_writable(out))
		ret = -EBADF;
	else if (!ipipe || !opipe || ipipe == opipe)
		ret = -EINVAL;
	else
		ret = pipe_to_pipe(ipipe, opipe, len,
				   (flags & LINUX_SPLICE_F_NONBLOCK) ||
					   ((in->flags | out->flags) & LINUX_O_NONBLOCK),
				   true);
	file_put(out);
out_in:
	file_put(in);
	return ret;
}

long sys_vmsplice(struct task *t, const struct sysargs *a)
{
	/* import_iovec takes the count's low 32 bits */
	uint32_t cnt = (uint32_t)sysarg_size(a, 2);
	unsigned flags = sysarg_uint(a, 3);
	struct linux_iovec *iov = NULL;
	struct file *f;
	struct pipe *p;
	bool to_pipe;
	long ret;

	if (flags & ~LINUX_SPLICE_F_ALL)
		return -EINVAL;
	f = fdget_nopath(t->files, sysarg_int(a, 0));
	if (!f)
		return -EBADF;
	ret = -EBADF;
	if (file_writable(f))
		to_pipe = true;
	else if (file_readable(f))
		to_pipe = false;
	else
		goto out;
	ret = iovec_import(t, sysarg_uaddr(a, 1), cnt, &iov);
	if (ret <= 0)
		goto out;
	p = pipe_of(f);
	if (!p)
		ret = -EBADF;
	else
		ret = vmsplice_pipe(t, p, iov, (int)cnt, to_pipe, flags & LINUX_SPLICE_F_NONBLOCK);
	if (ret > 0)
		fsnotify_file(f, to_pipe ? IN_MODIFY : IN_ACCESS);
out:
	free(iov);
	file_put(f);
	return ret;
}
