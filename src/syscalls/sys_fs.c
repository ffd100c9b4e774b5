/* syscalls/sys_fs.c: file system calls: argument checks and copies only;
 * the work is in vfs/ and the filesystems' file_ops. */
#include <stdlib.h>
#include <string.h>

#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "kernel/userns.h"
#include "kernel/log.h"
#include "mm/memfd.h"
#include "mm/usercopy.h"
#include "vfs/fileattr.h"
#include "vfs/file.h"
#include "vfs/fown.h"
#include "vfs/dnotify.h"
#include "vfs/iov.h"
#include "vfs/namei.h"
#include "vfs/pipe.h"
#include "vfs/locks.h"
#include "vfs/lease.h"
#include "vfs/fsnotify.h"
#include "net/socket.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/ioctl.h"
#include "abi/linux/stat.h"
#include "abi/linux/types.h"

#define RW_CHUNK       (1UL << 20)
#define XATTR_NAME_MAX 255
#define XATTR_SIZE_MAX 65536

/* Copied on the kernel stack first, so the string kept is only as long as
 * the path: a PATH_MAX allocation is one malloc can seldom hand out from
 * its small-size caches (malloc_consolidate and a bin search each time). */
int get_user_path(struct task *t, uaddr_t upath, char **out)
{
	char buf[LINUX_PATH_MAX];
	long n;

	*out = NULL;
	n = strncpy_from_user(t->mm, buf, upath, LINUX_PATH_MAX);
	if (n < 0)
		return (int)n;
	*out = malloc((size_t)n + 1);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, buf, (size_t)n + 1);
	return 0;
}

/* read/write's checks in Linux's order (vfs_read, vfs_write): the file's
 * mode (EBADF), a method for the way asked (EINVAL; pread and pwrite
 * check theirs first, ESPIPE), the buffer in the user half (EFAULT); then
 * *count is cut at MAX_RW_COUNT. A count of 0 is no shortcut: it goes on
 * to the file, which may refuse it (eventfd, timerfd and signalfd want at
 * least a record: EINVAL), as in Linux. */
static int rw_check(struct file *f, uaddr_t buf, uint64_t *count, bool read, int64_t pos)
{
	bool has_op = pos >= 0 ? (read ? !!f->ops->pread : !!f->ops->pwrite)
			       : (read ? !!f->ops->read : !!f->ops->write);

	if (!(read ? file_readable(f) : file_writable(f)))
		return -EBADF;
	if (!has_op)
		return pos >= 0 ? -ESPIPE : -EINVAL;
	if (!access_ok(buf, *count))
		return -EFAULT;
	if (*count > MAX_RW_COUNT)
		*count = MAX_RW_COUNT;
	return 0;
}

/* The file's own read or write (at pos, or its position if pos < 0) of n
 * kernel bytes; rw_check saw the method. */
static long file_read_op(struct file *f, void *kbuf, size_t n, int64_t pos)
{
	return pos >= 0 ? f->ops->pread(f, kbuf, n, pos) : f->ops->read(f, kbuf, n);
}

static long file_write_op(struct file *f, const void *kbuf, size_t n, int64_t pos)
{
	return pos >= 0 ? f->ops->pwrite(f, kbuf, n, pos) : f->ops->write(f, kbuf, n);
}

/* A kernel buffer for the accessible prefix of the guest's [buf, buf +
 * count), at most RW_CHUNK: its length, or -EFAULT (nothing accessible and
 * no fault method to ask, see struct file_ops) or -ENOMEM. to_user: the
 * guest buffer is to be written. */
static long bounce_buffer(struct task *t, uaddr_t buf, uint64_t count, bool to_user, bool fault_op,
			  void **kbuf)
{
	size_t avail = user_prefix(t->mm, buf, count, to_user);

	if (avail == 0 && !fault_op)
		return -EFAULT;
	if (avail > RW_CHUNK)
		avail = RW_CHUNK;
	*kbuf = malloc(avail ? avail : 1);
	return *kbuf ? (long)avail : -ENOMEM;
}

static uint64_t rw_want(uint64_t count)
{
	return count < RW_CHUNK ? count : RW_CHUNK;
}

/* Reads up to count bytes at pos (or the file position if pos < 0) into the
 * guest: as much as the guest buffer's accessible prefix takes, or what the
 * file's read_fault says when that is less. *checked (may be NULL): set
 * once the call is past rw_check (Linux's vfs_read counts it then in
 * /proc/PID/io, whatever it returns). */
static long kern_read(struct task *t, struct file *f, uaddr_t buf, uint64_t count, int64_t pos,
		      bool *checked)
{
	bool fault_op = pos < 0 && f->ops->read_fault;
	size_t avail, arrived;
	char none;
	void *kbuf;
	long n = rw_check(f, buf, &count, true, pos);

	if (n < 0)
		return n;
	if (checked)
		*checked = true;
	if (count == 0)
		return file_read_op(f, &none, 0, pos);
	n = bounce_buffer(t, buf, count, true, fault_op, &kbuf);
	if (n < 0)
		return n;
	avail = (size_t)n;
	if (fault_op && avail < rw_want(count)) {
		arrived = 0;
		n = f->ops->read_fault(f, kbuf, rw_want(count), avail, &arrived);
	} else {
		n = file_read_op(f, kbuf, avail, pos);
		arrived = n > 0 ? (size_t)n : 0;
	}
	if (arrived > 0 && copy_to_user(t->mm, buf, kbuf, arrived) < 0)
		n = -EFAULT;
	free(kbuf);
	if (n > 0)
		fsnotify_file(f, IN_ACCESS);
	return n;
}

/* One piece of a write, at most RW_CHUNK bytes through a kernel buffer, at
 * pos (or the file position if pos < 0). */
static long write_chunk(struct task *t, struct file *f, uaddr_t buf, uint64_t count, int64_t pos)
{
	bool fault_op = pos < 0 && f->ops->write_fault;
	void *kbuf;
	long n = bounce_buffer(t, buf, count, false, fault_op, &kbuf);
	size_t avail;

	if (n < 0)
		return n;
	avail = (size_t)n;
	if (copy_from_user(t->mm, kbuf, buf, avail) < 0)
		n = -EFAULT;
	else if (fault_op && avail < rw_want(count))
		n = f->ops->write_fault(f, kbuf, rw_want(count), avail);
	else
		n = file_write_op(f, kbuf, avail, pos);
	free(kbuf);
	return n;
}

/* A write in RW_CHUNK pieces (at pos, or the file position if pos < 0): the
 * next piece goes only if the last one was written whole (a blocking pipe
 * write of 2 MiB returns only when all of it is in, as Linux's); an error
 * after some bytes went returns their count. *checked: as kern_read's
 * (RLIMIT_FSIZE's EFBIG comes after it, as in Linux's write_iter). */
static long kern_write(struct task *t, struct file *f, uaddr_t buf, uint64_t count, int64_t pos,
		       bool *checked)
{
	uint64_t done = 0;
	long n = rw_check(f, buf, &count, false, pos);

	if (n == 0 && checked)
		*checked = true;
	if (n == 0)
		n = file_write_checks(f, pos, &count);
	if (n < 0)
		return n;
	if (count == 0)
		return file_write_op(f, "", 0, pos);
	for (;;) {
		uint64_t want = count - done < RW_CHUNK ? count - done : RW_CHUNK;

		n = write_chunk(t, f, buf + done, want, pos < 0 ? -1 : pos + (int64_t)done);
		if (n <= 0)
			break;
		done += (uint64_t)n;
		if (done == count || (uint64_t)n < want)
			break;
	}
	if (done > 0)
		fsnotify_file(f, IN_MODIFY);
	return done > 0 ? (long)done : n;
}

/* read/write on a socket: one recvmsg or sendmsg on the guest buffer
 * itself, as Linux's sock_read_iter/sock_write_iter: a write of 0 bytes
 * is an empty datagram, and a buffer that faults part way is EFAULT, not
 * a message cut at the fault (nor one cut in RW_CHUNK pieces). *checked:
 * as kern_read's. */
static long sock_read_write(struct task *t, struct file *f, uaddr_t buf, uint64_t count, bool write,
			    bool *checked)
{
	struct linux_iovec iov = { .iov_base = buf, .iov_len = count };

	if (!(write ? file_writable(f) : file_readable(f)))
		return -EBADF;
	if (!access_ok(buf, count))
		return -EFAULT;
	*checked = true;
	if (count > MAX_RW_COUNT)
		iov.iov_len = MAX_RW_COUNT;
	return sock_rw_iov(t, f, &iov, 1, write);
}

static long read_write(struct task *t, const struct sysargs *a, bool write)
{
	struct file *f = fdget(t->files, sysarg_int(a, 0));
	uaddr_t buf = sysarg_uaddr(a, 1);
	uint64_t count = sysarg_size(a, 2);
	bool counts = false;
	long ret;

	if (!f)
		return -EBADF;
	if (sock_from_file(f))
		ret = sock_read_write(t, f, buf, count, write, &counts);
	else
		ret = write ? kern_write(t, f, buf, count, -1, &counts)
			    : kern_read(t, f, buf, count, -1, &counts);
	if (counts)
		io_account(t, write, ret);
	file_put(f);
	return ret;
}

long sys_read(struct task *t, const struct sysargs *a)
{
	return read_write(t, a, false);
}

long sys_write(struct task *t, const struct sysargs *a)
{
	return read_write(t, a, true);
}

/* Linux gives every file FMODE_PREAD and FMODE_PWRITE but streams (pipes,
 * sockets, terminals), so a file with either method is positional: a
 * pwrite to a directory (pread only) is EBADF or EISDIR, not ESPIPE. */
static bool file_positional(const struct file *f)
{
	return f->ops->pread || f->ops->pwrite;
}

/* pread64 and pwrite64 (Linux's ksys_pread64): a negative offset is
 * EINVAL before the fd is looked at, and a file without an offset (a pipe,
 * a socket, an eventfd) is ESPIPE before its access mode. */

static long do_pread(struct task *t, const struct sysargs *a, bool write)
{
	int64_t pos = sysarg_long(a, 3);
	uaddr_t buf = sysarg_uaddr(a, 1);
	uint64_t count = sysarg_size(a, 2);
	struct file *f;
	long ret;

	if (pos < 0)
		return -EINVAL;
	f = fdget_nopath(t->files, sysarg_int(a, 0));
	if (!f)
		return -EBADF;
	if (!file_positional(f)) {
		ret = -ESPIPE;
	} else {
		bool counts = false;

		ret = write ? kern_write(t, f, buf, count, pos, &counts)
			    : kern_read(t, f, buf, count, pos, &counts);
		if (counts)
			io_account(t, write, ret);
	}
	file_put(f);
	return ret;
}

long sys_pwrite64(struct task *t, const struct sysargs *a)
{
	return do_pread(t, a, true);
}

long sys_pread64(struct task *t, const struct sysargs *a)
{
	return do_pread(t, a, false);
}

/* F_SETFL's, FIONBIO's and the RWF_ flags' change of a file's flags to
 * nfl: a file whose host description acts on them follows first (setfl). */
static long file_set_flags(struct file *f, unsigned nfl)
{
	long ret = f->ops->setfl && nfl != f->flags ? f->ops->setfl(f, nfl) : 0;

	if (ret == 0)
		f->flags = nfl;
	return ret;
}

/* Whether RWF_NOWAIT may ask f not to wait, as Linux's FMODE_NOWAIT and
 * read_iter/write_iter: pipe(2)'s ends (not a FIFO opened by its path),
 * sockets, and the kinds whose ops say so for the direction. */
static bool file_nowait(struct file *f, bool write)
{
	if (sock_from_file(f))
		return true;
	if (file_is_pipe(f))
		return !f->path.dentry;
	return f->ops->nowait & (write ? FILE_NOWAIT_WRITE : FILE_NOWAIT_READ);
}

long rwf_check(struct file *f, unsigned rwf, bool write)
{
	if (rwf & ~LINUX_RWF_SUPPORTED)
		return -EOPNOTSUPP;
	if ((rwf & LINUX_RWF_APPEND) && (rwf & LINUX_RWF_NOAPPEND))
		return -EINVAL;
	if ((rwf & LINUX_RWF_NOWAIT) && !file_nowait(f, write))
		return -EOPNOTSUPP;
	if (rwf & (LINUX_RWF_ATOMIC | LINUX_RWF_DONTCACHE))
		return -EOPNOTSUPP;
	if ((rwf & LINUX_RWF_NOAPPEND) && (f->flags & LINUX_O_APPEND) && f->path.dentry &&
	    (inode_iflags(f->path.dentry->inode) & INODE_APPEND))
		return -EPERM;
	return 0;
}

long rwf_begin(struct task *t, struct file *f, unsigned rwf, bool write, struct rwf_call *rc)
{
	unsigned fl = f->flags;
	long ret = rwf_check(f, rwf, write);

	if (ret < 0)
		return ret;
	/* O_APPEND decides only where a write to a regular file lands */
	if (write && f->path.dentry && LINUX_S_ISREG(f->path.dentry->inode->mode)) {
		if (rwf & LINUX_RWF_NOAPPEND)
			fl &= ~LINUX_O_APPEND;
		if (rwf & LINUX_RWF_APPEND)
			fl |= LINUX_O_APPEND;
	}
	if (rwf & LINUX_RWF_NOWAIT)
		fl |= LINUX_O_NONBLOCK;
	if (fl != f->flags) {
		rc->saved = f->flags & (LINUX_O_APPEND | LINUX_O_NONBLOCK);
		rc->applied = fl & (LINUX_O_APPEND | LINUX_O_NONBLOCK);
		ret = file_set_flags(f, fl);
		if (ret < 0)
			return ret;
	}
	if ((rwf & LINUX_RWF_NOWAIT) && !t->rwf_nowait)
		rc->nowait = t->rwf_nowait = true;
	if ((rwf & LINUX_RWF_NOSIGNAL) && !t->no_sigpipe)
		rc->nosignal = t->no_sigpipe = true;
	return 0;
}

/* Each flag rwf_begin changed goes back, if it still holds what it set
 * (none if it changed none, or its change failed: f->flags is saved). */
void rwf_end(struct task *t, struct file *f, const struct rwf_call *rc)
{
	unsigned changed = (rc->saved ^ rc->applied) & ~(rc->applied ^ f->flags);

	if (changed)
		file_set_flags(f, (f->flags & ~changed) | (rc->saved & changed));
	if (rc->nowait)
		t->rwf_nowait = false;
	if (rc->nosignal)
		t->no_sigpipe = false;
}

/* readv or writev at the position of a file with fault methods (a pipe,
 * an eventfd) whose vector faults within the first RW_CHUNK bytes: one
 * transfer of the whole, as Linux's one iov_iter, so the piece that
 * straddles the fault is judged whole (a pipe buffer of which only part
 * fits is neither counted nor consumed), not segment by segment. False
 * when the vector does not fault there (the caller goes segment by
 * segment); else true with the result in *res. */
static bool rw_vec_fault(struct task *t, struct file *f, const struct linux_iovec *iov, int cnt,
			 uint64_t total, bool write, long *res)
{
	uint64_t want = rw_want(total), ok = iovec_user_prefix(t->mm, iov, cnt, want, !write);
	size_t arrived = 0;
	char *kbuf;

	if (ok >= want)
		return false;
	kbuf = malloc(ok ? ok : 1);
	if (!kbuf) {
		*res = -ENOMEM;
		return true;
	}
	if (write) {
		*res = iovec_from_user(t->mm, iov, cnt, kbuf, ok) < ok
			       ? -EFAULT
			       : f->ops->write_fault(f, kbuf, want, ok);
	} else {
		*res = f->ops->read_fault(f, kbuf, want, ok, &arrived);
		if (iovec_to_user(t->mm, iov, cnt, kbuf, arrived) < arrived)
			*res = -EFAULT;
	}
	free(kbuf);
	if (*res > 0)
		fsnotify_file(f, write ? IN_MODIFY : IN_ACCESS);
	return true;
}

/* A writev to a file that takes the vector whole (write_whole): gathered
 * into one buffer (at most RW_CHUNK: more is EINVAL, far past /dev/kmsg's
 * record), EFAULT if any of it is not readable (copy_from_iter_full),
 * then one write. */
static long write_gathered(struct task *t, struct file *f, const struct linux_iovec *iov, int cnt)
{
	uint64_t total = iovec_total(iov, cnt);
	long n;
	char *kbuf;

	if (total > RW_CHUNK)
		return -EINVAL;
	kbuf = malloc(total ? total : 1);
	if (!kbuf)
		return -ENOMEM;
	n = iovec_from_user(t->mm, iov, cnt, kbuf, total) < total ? -EFAULT
								  : f->ops->write(f, kbuf, total);
	free(kbuf);
	if (n > 0)
		fsnotify_file(f, IN_MODIFY);
	return n;
}

/* readv/writev, and at pos (>= 0) preadv/pwritev: a file without pread
 * (a pipe, a socket) is ESPIPE there, before its access mode is looked
 * at, as Linux's FMODE_PREAD check comes first. The RWF_ flags are
 * looked at last, and not at all for a transfer of 0 bytes (Linux's
 * order). */
static long do_readv(struct task *t, int fd, uaddr_t uiov, int cnt, bool write, int64_t pos,
		     unsigned rwf)
{
	struct file *f = fdget(t->files, fd);
	struct linux_iovec *iov = NULL;
	struct rwf_call rc = { 0, 0, false, false };
	long total = 0, n = 0, ret;
	int i;

	if (!f) {
		io_account(t, write, -EBADF); /* Linux's do_readv counts any */
		return -EBADF;
	}
	if (pos >= 0 && (f->flags & LINUX_O_PATH)) {
		n = -EBADF;
		goto out;
	}
	if (pos >= 0 && !file_positional(f)) {
		n = -ESPIPE;
		goto out;
	}
	if (write ? !file_writable(f) : !file_readable(f)) {
		n = -EBADF;
		goto out;
	}
	n = iovec_import(t, uiov, (uint32_t)cnt, &iov);
	if (n < 0)
		goto out;
	/* Linux's rw_verify_area on the whole (cut) count */
	if (pos >= 0 && n && (int64_t)((uint64_t)pos + (uint64_t)n) < 0) {
		n = -EINVAL;
		goto out;
	}
	/* Linux's FMODE_CAN_READ/WRITE comes first: a file without the
	 * method fails EINVAL below, whatever the flags */
	if (rwf && (sock_from_file(f) ||
		    (write ? f->ops->write || f->ops->pwrite : f->ops->read || f->ops->pread))) {
		for (i = 0; i < cnt && !iov[i].iov_len; i++)
			;
		if (i == cnt) { /* nothing to move: no flag is looked at */
			n = 0;
			goto out;
		}
		ret = rwf_begin(t, f, rwf, write, &rc);
		if (ret < 0) {
			n = ret;
			goto out;
		}
	}
	if (write) { /* RLIMIT_FSIZE on the whole, as Linux's write_iter */
		uint64_t count = (uint64_t)n;

		n = file_write_checks(f, pos, &count);
		if (n < 0)
			goto out;
		iovec_truncate(iov, cnt, count);
	}
	if (sock_from_file(f)) { /* one message, not one per segment */
		n = sock_rw_iov(t, f, iov, cnt, write);
		goto out;
	}
	if (pos < 0 && (write ? !!f->ops->write_fault : !!f->ops->read_fault) &&
	    rw_vec_fault(t, f, iov, cnt, iovec_total(iov, cnt), write, &n))
		goto out;
	if (write && pos < 0 && f->ops->write_whole) {
		n = write_gathered(t, f, iov, cnt);
		goto out;
	}
	/* Segment by segment; a short transfer ends the call. */
	for (i = 0; i < cnt; i++) {
		if (iov[i].iov_len == 0)
			continue;
		n = write ? kern_write(t, f, iov[i].iov_base, iov[i].iov_len,
				       pos < 0 ? -1 : pos + total, NULL)
			  : kern_read(t, f, iov[i].iov_base, iov[i].iov_len,
				      pos < 0 ? -1 : pos + total, NULL);
		if (n < 0)
			break;
		total += n;
		if ((uint64_t)n < iov[i].iov_len)
			break;
	}
	if (total > 0)
		n = total;
	else if (n > 0)
		n = 0;
out:
	rwf_end(t, f, &rc);
	free(iov);
	file_put(f);
	io_account(t, write, n);
	return n;
}

long sys_readv(struct task *t, const struct sysargs *a)
{
	return do_readv(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_int(a, 2), false, -1, 0);
}

long sys_writev(struct task *t, const struct sysargs *a)
{
	return do_readv(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_int(a, 2), true, -1, 0);
}

/* preadv and pwritev: on x86-64 the position is the fourth argument (the
 * fifth, its high half, is shifted out); a negative one is EINVAL before
 * the fd is looked at. */
static long do_preadv(struct task *t, const struct sysargs *a, bool write)
{
	int64_t pos = sysarg_long(a, 3);

	if (pos < 0)
		return -EINVAL;
	return do_readv(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_int(a, 2), write, pos, 0);
}

long sys_preadv(struct task *t, const struct sysargs *a)
{
	return do_preadv(t, a, false);
}

long sys_pwritev(struct task *t, const struct sysargs *a)
{
	return do_preadv(t, a, true);
}

/* preadv2 and pwritev2: a position of -1 is the file's own. */
static long do_preadv2(struct task *t, const struct sysargs *a, bool write)
{
	int64_t pos = sysarg_long(a, 3);

	if (pos < -1)
		return -EINVAL;
	return do_readv(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_int(a, 2), write, pos,
			sysarg_uint(a, 5));
}

long sys_preadv2(struct task *t, const struct sysargs *a)
{
	return do_preadv2(t, a, false);
}

long sys_pwritev2(struct task *t, const struct sysargs *a)
{
	return do_preadv2(t, a, true);
}

long sys_lseek(struct task *t, const struct sysargs *a)
{
	struct file *f = fdget(t->files, sysarg_int(a, 0));
	int whence = sysarg_int(a, 2);
	long ret;

	if (!f)
		return -EBADF;
	if ((unsigned)whence > LINUX_SEEK_HOLE)
		ret = -EINVAL;
	else if (f->flags & LINUX_O_PATH)
		ret = -EBADF;
	else
		ret = file_op_llseek(f, sysarg_long(a, 1), whence);
	file_put(f);
	return ret;
}

/* fadvise64(2): advice only; nothing here keeps a page cache of its own
 * (host-backed files have the host's), so a valid call does nothing. The
 * checks are Linux's generic_fadvise: EBADF (O_PATH too), ESPIPE for a
 * pipe or FIFO (not a socket), EINVAL for len < 0 or an unknown advice.
 * A negative offset is accepted, as Linux does. */
long sys_fadvise64(struct task *t, const struct sysargs *a)
{
	struct file *f = fdget(t->files, sysarg_int(a, 0));
	int64_t len = sysarg_long(a, 2);
	int advice = sysarg_int(a, 3);
	long ret = 0;

	if (!f)
		return -EBADF;
	if (f->flags & LINUX_O_PATH)
		ret = -EBADF;
	else if (file_is_pipe(f))
		ret = -ESPIPE;
	else if (len < 0 || advice < LINUX_POSIX_FADV_NORMAL || advice > LINUX_POSIX_FADV_NOREUSE)
		ret = -EINVAL;
	file_put(f);
	return ret;
}

/* Linux's vfs_fallocate (6.11 on): the checks every filesystem shares, in
 * its order, then the file's own (tmpfs and hostfs files have one). One
 * mode at most, with KEEP_SIZE where the mode takes it. */
/* An allocation that grows the file checks RLIMIT_FSIZE (ext4's and
 * shmem's inode_newsize_ok): not one with KEEP_SIZE (tmpfs checks those
 * itself, as shmem does), nor holes, collapses and inserts. */
static int fallocate_newsize_ok(struct file *f, int mode, int64_t end)
{
	const int keeps = LINUX_FALLOC_FL_KEEP_SIZE | LINUX_FALLOC_FL_PUNCH_HOLE |
			  LINUX_FALLOC_FL_COLLAPSE_RANGE | LINUX_FALLOC_FL_INSERT_RANGE;
	struct linux_stat st;
	int ret;

	if (mode & keeps)
		return 0;
	ret = file_stat(f, &st);
	return ret < 0 ? ret : file_newsize_ok(st.st_size, (uint64_t)end);
}

long sys_fallocate(struct task *t, const struct sysargs *a)
{
	int mode = sysarg_int(a, 1);
	int64_t off = sysarg_long(a, 2), len = sysarg_long(a, 3);
	const int modes = LINUX_FALLOC_FL_PUNCH_HOLE | LINUX_FALLOC_FL_COLLAPSE_RANGE |
			  LINUX_FALLOC_FL_ZERO_RANGE | LINUX_FALLOC_FL_INSERT_RANGE |
			  LINUX_FALLOC_FL_UNSHARE_RANGE | LINUX_FALLOC_FL_WRITE_ZEROES;
	bool keep = mode & LINUX_FALLOC_FL_KEEP_SIZE;
	struct file *f = fdget_nopath(t->files, sysarg_int(a, 0));
	unsigned ftype;
	long ret;

	if (!f)
		return -EBADF;
	ret = -EINVAL;
	if (off < 0 || len <= 0)
		goto out;
	ret = -EOPNOTSUPP;
	if (mode & ~(modes | LINUX_FALLOC_FL_KEEP_SIZE))
		goto out;
	switch (mode & modes) {
	case 0:
	case LINUX_FALLOC_FL_UNSHARE_RANGE:
	case LINUX_FALLOC_FL_ZERO_RANGE:
		break;
	case LINUX_FALLOC_FL_PUNCH_HOLE:
		if (!keep)
			goto out;
		break;
	case LINUX_FALLOC_FL_COLLAPSE_RANGE:
	case LINUX_FALLOC_FL_INSERT_RANGE:
	case LINUX_FALLOC_FL_WRITE_ZEROES:
		if (keep)
			goto out;
		break;
	default:
		goto out;
	}
	ret = -EBADF;
	if (!file_writable(f))
		goto out;
	/* an append-only file only grows; an immutable one not at all */
	ret = -EPERM;
	if (f->path.dentry && (inode_iflags(f->path.dentry->inode) &
			       ((mode & ~LINUX_FALLOC_FL_KEEP_SIZE) ? INODE_APPEND | INODE_IMMUTABLE
								    : INODE_IMMUTABLE)))
		goto out;
	ftype = f->inode ? f->inode->mode & LINUX_S_IFMT : 0;
	if (file_is_pipe(f) || ftype == LINUX_S_IFIFO)
		ret = -ESPIPE;
	else if (ftype == LINUX_S_IFDIR)
		ret = -EISDIR;
	else if (ftype != LINUX_S_IFREG)
		ret = -ENODEV;
	else if (off > INT64_MAX - len)
		ret = -EFBIG;
	else if (!f->ops->fallocate)
		ret = -EOPNOTSUPP;
	else
		ret = fallocate_newsize_ok(f, mode, off + len);
	if (ret == 0)
		ret = f->ops->fallocate(f, mode, off, len);
	if (ret == 0)
		fsnotify_file(f, IN_MODIFY);
out:
	file_put(f);
	return ret;
}

/* getdents's struct linux_dirent has the same record lengths as
 * linux_dirent64 (d_type moves from before the name to the record's last
 * byte), so a getdents64 buffer is rewritten in place. */
static void dirents_to_old(char *buf, long n)
{
	long off = 0;

	while (off < n) {
		struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
		uint16_t reclen = d->d_reclen;
		uint8_t type = d->d_type;

		/* the name, one byte down over d_type, then the type last */
		memmove(buf + off + 18, d->d_name, strnlen(d->d_name, reclen - 19) + 1);
		buf[off + reclen - 1] = (char)type;
		off += reclen;
	}
}

static long do_getdents(struct task *t, const struct sysargs *a, bool old)
{
	struct file *f = fdget_nopath(t->files, sysarg_int(a, 0));
	uaddr_t buf = sysarg_uaddr(a, 1);
	uint64_t count = sysarg_uint(a, 2);
	size_t avail;
	void *kbuf;
	long n;

	if (!f)
		return -EBADF;
	/* No check of the whole buffer: Linux's filldir checks each entry
	 * as it writes it (a bad buffer is EFAULT below, for the first entry
	 * that does not fit in its accessible part). */
	n = -ENOTDIR;
	if (!f->ops->getdents64)
		goto out;
	/* Linux's getdents_callback keeps the count in an int: above
	 * INT_MAX it is negative and no entry fits (EINVAL, 0 at the end). */
	avail = count > INT32_MAX ? 0 : user_prefix(t->mm, buf, count, true);
	if (avail > RW_CHUNK)
		avail = RW_CHUNK;
	n = -ENOMEM;
	kbuf = malloc(avail ? avail : 1);
	if (!kbuf)
		goto out;
	n = f->ops->getdents64(f, kbuf, avail);
	if (n >= 0)
		fsnotify_file(f, IN_ACCESS);
	if (n > 0 && old)
		dirents_to_old(kbuf, n);
	if (n > 0 && copy_to_user(t->mm, buf, kbuf, n) < 0)
		n = -EFAULT;
	else if (n == -EINVAL && avail < count && count <= INT32_MAX)
		n = -EFAULT;
	free(kbuf);
out:
	file_put(f);
	return n;
}

long sys_getdents64(struct task *t, const struct sysargs *a)
{
	return do_getdents(t, a, false);
}

long sys_getdents(struct task *t, const struct sysargs *a)
{
	return do_getdents(t, a, true);
}

/* What do_sys_openat2 checks before it opens: the flags and the path,
 * then a free fd and a file slot (so a failure touches no file). */
static int open_room(struct task *t, const char *path, unsigned flags)
{
	int ret = vfs_open_precheck(path, flags);

	return ret < 0 ? ret : fd_open_room(t->files, task_nofile(t));
}

static long do_openat(struct task *t, int dirfd, uaddr_t upath, unsigned flags, unsigned mode)
{
	struct file *f;
	char *path;
	int ret;

	ret = get_user_path(t, upath, &path);
	if (ret < 0)
		return ret;
	if (flags & LINUX_O_PATH)
		flags &= VFS_O_PATH_FLAGS; /* build_open_how */
	ret = open_room(t, path, flags);
	if (ret == 0)
		ret = vfs_openat(t, dirfd, path, flags, mode & 07777, &f); /* umask: the VFS's */
	free(path);
	if (ret < 0)
		return ret;
	ret = fd_install(t->files, f, 0, flags & LINUX_O_CLOEXEC, task_nofile(t));
	if (ret < 0)
		file_put(f);
	return ret;
}

long sys_open(struct task *t, const struct sysargs *a)
{
	return do_openat(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0), sysarg_uint(a, 1),
			 sysarg_uint(a, 2));
}

long sys_openat(struct task *t, const struct sysargs *a)
{
	return do_openat(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_uint(a, 2),
			 sysarg_uint(a, 3));
}

long sys_creat(struct task *t, const struct sysargs *a)
{
	return do_openat(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0),
			 LINUX_O_CREAT | LINUX_O_WRONLY | LINUX_O_TRUNC, sysarg_uint(a, 1));
}

long sys_close(struct task *t, const struct sysargs *a)
{
	return fd_close(t->files, sysarg_int(a, 0));
}

/* close_range(first, last, flags): CLOSE_RANGE_UNSHARE first gives the
 * task a table of its own (unshare(CLONE_FILES)); CLOSE_RANGE_CLOEXEC
 * marks the fds close-on-exec instead of closing them. */
long sys_close_range(struct task *t, const struct sysargs *a)
{
	unsigned first = sysarg_uint(a, 0), last = sysarg_uint(a, 1), flags = sysarg_uint(a, 2);
	uint64_t fd;

	if (flags & ~(LINUX_CLOSE_RANGE_UNSHARE | LINUX_CLOSE_RANGE_CLOEXEC) || first > last)
		return -EINVAL;
	if ((flags & LINUX_CLOSE_RANGE_UNSHARE) && t->files->refcount > 1) {
		struct files *own;
		int ret = files_dup(t->files, &own);

		if (ret < 0)
			return ret;
		files_put(t->files);
		t->files = own;
	}
	for (fd = first; fd <= last && fd < (uint64_t)t->files->max; fd++) {
		if (!t->files->fd[fd])
			continue;
		if (flags & LINUX_CLOSE_RANGE_CLOEXEC)
			t->files->cloexec[fd] = 1;
		else
			fd_close(t->files, (int)fd);
	}
	return 0;
}

/* readahead: Linux's checks (EBADF unless open for reading, EINVAL unless
 * a regular file); the host's page cache reads ahead by itself. */
long sys_readahead(struct task *t, const struct sysargs *a)
{
	struct file *f = fdget_nopath(t->files, sysarg_int(a, 0));
	long ret = 0;

	if (!f)
		return -EBADF;
	if (!file_readable(f))
		ret = -EBADF;
	else if (!f->inode || !LINUX_S_ISREG(f->inode->mode))
		ret = -EINVAL;
	file_put(f);
	return ret;
}

/* sync_file_range: Linux's checks in its order. Data reaches the host's
 * page cache at each write (tmpfs data is memory), so nothing is left to
 * start or wait for. */
long sys_sync_file_range(struct task *t, const struct sysargs *a)
{
	struct file *f = fdget_nopath(t->files, sysarg_int(a, 0));
	int64_t off = sysarg_long(a, 1), nbytes = sysarg_long(a, 2);
	unsigned flags = sysarg_uint(a, 3), ftype;
	long ret = -EINVAL;

	if (!f)
		return -EBADF;
	if ((flags & ~7u) || off < 0 || nbytes < 0 || off > INT64_MAX - nbytes)
		goto out;
	ftype = f->inode ? f->inode->mode & LINUX_S_IFMT : 0;
	ret = (ftype == LINUX_S_IFREG || ftype == LINUX_S_IFDIR || ftype == LINUX_S_IFLNK ||
	       ftype == LINUX_S_IFBLK)
		      ? 0
		      : -ESPIPE;
out:
	file_put(f);
	return ret;
}

long sys_fstat(struct task *t, const struct sysargs *a)
{
	struct file *f = fdget(t->files, sysarg_int(a, 0));
	struct linux_stat st;
	int ret;

	if (!f)
		return -EBADF;
	ret = file_stat(f, &st);
	file_put(f);
	if (ret < 0)
		return ret;
	stat_ids_for(t, &st.st_uid, &st.st_gid);
	return copy_to_user(t->mm, sysarg_uaddr(a, 1), &st, sizeof(st));
}

static long do_fstatat(struct task *t, int dirfd, uaddr_t upath, uaddr_t ubuf, int flags)
{
	struct linux_stat st;
	char *path;
	int ret;

	/* Linux's vfs_statx takes statx's sync flags from fstatat too */
	if (flags & ~(LINUX_AT_SYMLINK_NOFOLLOW | LINUX_AT_EMPTY_PATH | LINUX_AT_NO_AUTOMOUNT |
		      LINUX_AT_STATX_SYNC_TYPE))
		return -EINVAL;
	flags &= ~LINUX_AT_STATX_SYNC_TYPE;
	ret = get_user_path(t, upath, &path);
	if (ret < 0)
		return ret;
	ret = vfs_fstatat(t, dirfd, path, flags, &st);
	free(path);
	if (ret < 0)
		return ret;
	stat_ids_for(t, &st.st_uid, &st.st_gid);
	return copy_to_user(t->mm, ubuf, &st, sizeof(st));
}

long sys_stat(struct task *t, const struct sysargs *a)
{
	return do_fstatat(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0), sysarg_uaddr(a, 1), 0);
}

long sys_lstat(struct task *t, const struct sysargs *a)
{
	return do_fstatat(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0), sysarg_uaddr(a, 1),
			  LINUX_AT_SYMLINK_NOFOLLOW);
}

long sys_newfstatat(struct task *t, const struct sysargs *a)
{
	return do_fstatat(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_uaddr(a, 2),
			  sysarg_int(a, 3));
}

long sys_statx(struct task *t, const struct sysargs *a)
{
	int flags = sysarg_int(a, 2);
	unsigned mask = sysarg_uint(a, 3);
	struct linux_statx stx;
	char *path;
	int ret;

	if (flags & ~(LINUX_AT_SYMLINK_NOFOLLOW | LINUX_AT_EMPTY_PATH | LINUX_AT_NO_AUTOMOUNT |
		      LINUX_AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if ((flags & LINUX_AT_STATX_SYNC_TYPE) == LINUX_AT_STATX_SYNC_TYPE)
		return -EINVAL;
	if (mask & LINUX_STATX_RESERVED)
		return -EINVAL;
	ret = get_user_path(t, sysarg_uaddr(a, 1), &path);
	if (ret < 0)
		return ret;
	memset(&stx, 0, sizeof(stx));
	ret = vfs_statx(t, sysarg_int(a, 0), path, flags, mask, &stx);
	free(path);
	if (ret < 0)
		return ret;
	stat_ids_for(t, &stx.stx_uid, &stx.stx_gid);
	return copy_to_user(t->mm, sysarg_uaddr(a, 4), &stx, sizeof(stx));
}

static long do_readlinkat(struct task *t, int dirfd, uaddr_t upath, uaddr_t ubuf, int size)
{
	char *path, buf[LINUX_PATH_MAX]; /* on the stack: see get_user_path */
	long n;

	if (size <= 0)
		return -EINVAL;
	n = get_user_path(t, upath, &path);
	if (n < 0)
		return n;
	if (size > LINUX_PATH_MAX)
		size = LINUX_PATH_MAX;
	n = vfs_readlinkat(t, dirfd, path, buf, size);
	if (n > 0 && copy_to_user(t->mm, ubuf, buf, n) < 0)
		n = -EFAULT;
	free(path);
	return n;
}

long sys_readlink(struct task *t, const struct sysargs *a)
{
	return do_readlinkat(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0), sysarg_uaddr(a, 1),
			     sysarg_int(a, 2));
}

long sys_readlinkat(struct task *t, const struct sysargs *a)
{
	return do_readlinkat(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_uaddr(a, 2),
			     sysarg_int(a, 3));
}

static long do_faccessat(struct task *t, int dirfd, uaddr_t upath, int mode, int flags)
{
	char *path;
	int ret;

	if (flags & ~(LINUX_AT_EACCESS | LINUX_AT_SYMLINK_NOFOLLOW | LINUX_AT_EMPTY_PATH))
		return -EINVAL;
	ret = get_user_path(t, upath, &path);
	if (ret < 0)
		return ret;
	ret = vfs_faccessat(t, dirfd, path, mode, flags);
	free(path);
	return ret;
}

long sys_access(struct task *t, const struct sysargs *a)
{
	return do_faccessat(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0), sysarg_int(a, 1), 0);
}

long sys_faccessat(struct task *t, const struct sysargs *a)
{
	return do_faccessat(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_int(a, 2), 0);
}

long sys_faccessat2(struct task *t, const struct sysargs *a)
{
	return do_faccessat(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_int(a, 2),
			    sysarg_int(a, 3));
}

long sys_getcwd(struct task *t, const struct sysargs *a)
{
	char buf[LINUX_PATH_MAX];
	long len = vfs_getcwd(t, buf,
			      sysarg_size(a, 1) < sizeof(buf) ? sysarg_size(a, 1) : sizeof(buf));

	if (len < 0)
		return len;
	if (copy_to_user(t->mm, sysarg_uaddr(a, 0), buf, len) < 0)
		return -EFAULT;
	return len;
}

/* FIOASYNC, as Linux's ioctl_fioasync: O_ASYNC on or off; ENOTTY for a
 * file whose kind sends no O_ASYNC signals. */
static long ioctl_fioasync(struct task *t, struct file *f, int fd, uaddr_t arg)
{
	bool on;
	long ret;
	int v;

	if (copy_from_user(t->mm, &v, arg, sizeof(v)) < 0)
		return -EFAULT;
	on = v != 0;
	if (on == !!(f->flags & LINUX_O_ASYNC))
		return 0;
	ret = fown_fasync(f, fd, on);
	if (ret < 0)
		return ret;
	f->flags = on ? f->flags | LINUX_O_ASYNC : f->flags & ~LINUX_O_ASYNC;
	return 0;
}

/* FIONBIO, for every file as in Linux's do_vfs_ioctl: O_NONBLOCK on or
 * off (through setfl, for a host fd's own flag). */
static long ioctl_fionbio(struct task *t, struct file *f, uaddr_t arg)
{
	int on;

	if (copy_from_user(t->mm, &on, arg, sizeof(on)) < 0)
		return -EFAULT;
	return file_set_flags(f, on ? f->flags | LINUX_O_NONBLOCK : f->flags & ~LINUX_O_NONBLOCK);
}

/* FIONREAD of a regular file, as Linux's do_vfs_ioctl answers it before
 * the file's own ioctl: the bytes past the position, cut to an int.
 * -ENOTTY for any other file (only an opened path is looked at: a pipe or
 * a socket costs no getattr). */
static long ioctl_fionread_reg(struct task *t, struct file *f, uaddr_t arg)
{
	struct linux_stat st;
	int64_t pos;
	int v;

	if (!f->path.dentry || file_stat(f, &st) < 0 || !LINUX_S_ISREG(st.st_mode))
		return -ENOTTY;
	pos = f->ops->llseek ? f->ops->llseek(f, 0, LINUX_SEEK_CUR) : f->pos;
	if (pos < 0)
		return pos;
	v = (int)((int64_t)st.st_size - pos);
	return copy_to_user(t->mm, arg, &v, sizeof(v));
}

/* FICLONE and FICLONERANGE (Linux's ioctl_file_clone and
 * vfs_clone_file_range): the checks, then EOPNOTSUPP, as no filesystem
 * here shares extents (tmpfs has no remap_file_range either). */
static long ioctl_file_clone(struct task *t, struct file *dst, unsigned cmd, uaddr_t arg)
{
	struct {
		int64_t src_fd;
		uint64_t src_offset, src_length, dest_offset;
	} r = { 0 };
	struct file *src;
	long ret;

	if (cmd == LINUX_FICLONERANGE) {
		if (copy_from_user(t->mm, &r, arg, sizeof(r)) < 0)
			return -EFAULT;
	} else {
		r.src_fd = (int)arg;
	}
	src = fdget(t->files, (int)r.src_fd);
	if (!src || (src->flags & LINUX_O_PATH)) {
		if (src)
			file_put(src);
		return -EBADF;
	}
	if (!src->path.dentry || !dst->path.dentry || src->path.mnt != dst->path.mnt ||
	    src->path.dentry->inode->sb != dst->path.dentry->inode->sb)
		ret = -EXDEV;
	else if (inode_is_dir(src->path.dentry->inode) || inode_is_dir(dst->path.dentry->inode))
		ret = -EISDIR;
	else if (!LINUX_S_ISREG(src->path.dentry->inode->mode) ||
		 !LINUX_S_ISREG(dst->path.dentry->inode->mode))
		ret = -EINVAL;
	else if (!file_readable(src) || !file_writable(dst) || (dst->flags & LINUX_O_APPEND))
		ret = -EBADF;
	else
		ret = -EOPNOTSUPP;
	file_put(src);
	return ret;
}

long sys_ioctl(struct task *t, const struct sysargs *a)
{
	int fd = sysarg_int(a, 0);
	unsigned cmd = sysarg_uint(a, 1);
	struct file *f = fdget(t->files, fd);
	long ret;

	if (!f)
		return -EBADF;
	if (f->flags & LINUX_O_PATH) {
		file_put(f);
		return -EBADF;
	}
	switch (cmd) {
	case LINUX_FIOCLEX:
	case LINUX_FIONCLEX:
		t->files->cloexec[fd] = cmd == LINUX_FIOCLEX;
		ret = 0;
		break;
	case LINUX_FIONBIO:
		ret = ioctl_fionbio(t, f, sysarg_uaddr(a, 2));
		break;
	case LINUX_FIOASYNC:
		ret = ioctl_fioasync(t, f, fd, sysarg_uaddr(a, 2));
		break;
	case LINUX_FICLONE:
	case LINUX_FICLONERANGE:
		ret = ioctl_file_clone(t, f, cmd, sysarg_uaddr(a, 2));
		break;
	case LINUX_FIONREAD:
		ret = ioctl_fionread_reg(t, f, sysarg_uaddr(a, 2));
		if (ret != -ENOTTY)
			break;
		ret = file_op_ioctl(f, t, cmd, sysarg_uaddr(a, 2));
		break;
	default:
		ret = fileattr_ioctl_cmd(cmd) ? vfs_fileattr_ioctl(t, f, cmd, sysarg_uaddr(a, 2))
					      : -ENOIOCTLCMD;
		if (ret == -ENOIOCTLCMD)
			ret = file_op_ioctl(f, t, cmd, sysarg_uaddr(a, 2));
	}
	file_put(f);
	return ret;
}

/* dup, F_DUPFD: the lowest free fd >= min, EMFILE with none below the
 * limit (F_DUPFD's own EINVAL for a min at or past it is its caller's) */
static long do_dup(struct task *t, int oldfd, int min, bool cloexec)
{
	struct file *f = fdget(t->files, oldfd);
	long ret;

	if (!f)
		return -EBADF;
	ret = fd_install(t->files, f, min, cloexec, task_nofile(t));
	if (ret < 0)
		file_put(f);
	return ret;
}

long sys_dup(struct task *t, const struct sysargs *a)
{
	return do_dup(t, sysarg_int(a, 0), 0, false);
}

static long do_dup3(struct task *t, int oldfd, int newfd, unsigned flags)
{
	struct file *f;

	if (flags & ~LINUX_O_CLOEXEC)
		return -EINVAL;
	if (newfd < 0 || (uint64_t)newfd >= t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur)
		return -EBADF;
	f = fdget(t->files, oldfd);
	if (!f)
		return -EBADF;
	return fd_install_at(t->files, newfd, f, flags & LINUX_O_CLOEXEC);
}

long sys_dup2(struct task *t, const struct sysargs *a)
{
	int oldfd = sysarg_int(a, 0), newfd = sysarg_int(a, 1);

	if (oldfd == newfd) {
		struct file *f = fdget(t->files, oldfd);

		if (!f)
			return -EBADF;
		file_put(f);
		return newfd;
	}
	return do_dup3(t, oldfd, newfd, 0);
}

long sys_dup3(struct task *t, const struct sysargs *a)
{
	if (sysarg_int(a, 0) == sysarg_int(a, 1))
		return -EINVAL;
	return do_dup3(t, sysarg_int(a, 0), sysarg_int(a, 1), sysarg_uint(a, 2));
}

static long do_fcntl_lock(struct task *t, struct file *f, int cmd, uaddr_t ufl)
{
	struct linux_flock fl;
	long ret;

	if (copy_from_user(t->mm, &fl, ufl, sizeof(fl)) < 0)
		return -EFAULT;
	ret = locks_fcntl(t, f, cmd, &fl);
	if (ret == 0 && (cmd == LINUX_F_GETLK || cmd == LINUX_F_OFD_GETLK))
		ret = copy_to_user(t->mm, ufl, &fl, sizeof(fl));
	return ret;
}

/* flock(2): per open file description. */
long sys_flock(struct task *t, const struct sysargs *a)
{
	struct file *f = fdget(t->files, sysarg_int(a, 0));
	long ret;

	if (!f)
		return -EBADF;
	ret = (f->flags & LINUX_O_PATH) ? -EBADF : locks_flock(f, sysarg_int(a, 1));
	file_put(f);
	return ret;
}

/* F_GET_RW_HINT and F_SET_RW_HINT: the inode's write-lifetime hint, a
 * u64 at arg, RWH_WRITE_LIFE_NOT_SET (0) to RWH_WRITE_LIFE_EXTREME (5);
 * setting it is the owner's or CAP_FOWNER's. Partial: a file with no
 * inode here (a pipe, a socket, host stdio) is EINVAL. */
#define RWH_WRITE_LIFE_EXTREME 5

static long fcntl_rw_hint(struct task *t, struct file *f, bool set, uaddr_t arg)
{
	const struct cred *c = &t->proc->cred;
	struct linux_stat st;
	uint64_t hint;
	int ret;

	if (!f->inode)
		return -EINVAL;
	if (!set) {
		hint = f->inode->write_hint;
		return copy_to_user(t->mm, arg, &hint, sizeof(hint));
	}
	ret = vfs_getattr(f->inode, &st);
	if (ret < 0)
		return ret;
	if (st.st_uid != c->fsuid && !capable(c, CAP_FOWNER))
		return -EPERM;
	if (copy_from_user(t->mm, &hint, arg, sizeof(hint)) < 0)
		return -EFAULT;
	if (hint > RWH_WRITE_LIFE_EXTREME)
		return -EINVAL;
	f->inode->write_hint = (uint8_t)hint;
	return 0;
}

/* fcntl: descriptor flags, status flags, dup, locks, leases (vfs/lease.c),
 * pipe sizes, seals, the owner and its signal (vfs/fown.c), dnotify and
 * write hints. */
/* fcntl commands of Linux's that skas does not have: EINVAL (what a Linux
 * without them says), logged once each. */
static void fcntl_unimplemented(int cmd)
{
	static const struct {
		int cmd;
		const char *name;
	} known[] = { { 1028 /* Linux 6.12 */, "F_CREATED_QUERY" } };
	static unsigned said;
	unsigned i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (known[i].cmd == cmd && !(said & (1u << i))) {
			said |= 1u << i;
			klog(LOG_INFO, "fcntl %s is not implemented: EINVAL", known[i].name);
		}
	}
}

long sys_fcntl(struct task *t, const struct sysargs *a)
{
	int fd = sysarg_int(a, 0), cmd = sysarg_int(a, 1);
	uint64_t arg = a->a[2];
	struct file *f = fdget(t->files, fd);
	long ret;

	if (!f)
		return -EBADF;
	if ((f->flags & LINUX_O_PATH) && cmd != LINUX_F_DUPFD && cmd != LINUX_F_DUPFD_CLOEXEC &&
	    cmd != LINUX_F_DUPFD_QUERY && cmd != LINUX_F_GETFD && cmd != LINUX_F_SETFD &&
	    cmd != LINUX_F_GETFL) {
		file_put(f);
		return -EBADF;
	}
	switch (cmd) {
	case LINUX_F_DUPFD:
	case LINUX_F_DUPFD_CLOEXEC:
		/* f_dupfd: the int arg, unsigned, at or past RLIMIT_NOFILE */
		if ((uint32_t)arg >= t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur)
			ret = -EINVAL;
		else
			ret = do_dup(t, fd, (int)arg, cmd == LINUX_F_DUPFD_CLOEXEC);
		break;
	case LINUX_F_GETFD:
		ret = fd_is_cloexec(t->files, fd) ? LINUX_FD_CLOEXEC : 0;
		break;
	case LINUX_F_SETFD:
		t->files->cloexec[fd] = arg & LINUX_FD_CLOEXEC;
		ret = 0;
		break;
	case LINUX_F_GETFL:
		/* O_LARGEFILE is open()'s (Linux's force_o_largefile): not an
		 * O_PATH's, nor a pipe's, socket's or other anonymous file's */
		ret = f->flags |
		      (f->path.dentry && !(f->flags & LINUX_O_PATH) ? LINUX_O_LARGEFILE : 0);
		break;
	case LINUX_F_SETFL:
		if (f->flags & LINUX_O_PATH) {
			ret = -EBADF;
			break;
		}
		{
			/* A pipe's O_DIRECT is its packet mode, as Linux lets it change. */
			unsigned mask = LINUX_O_APPEND | LINUX_O_NONBLOCK | LINUX_O_ASYNC |
					(file_is_pipe(f) ? LINUX_O_DIRECT : 0);
			bool async = arg & LINUX_O_ASYNC;

			/* an append-only file stays O_APPEND (setfl) */
			if (((arg ^ f->flags) & LINUX_O_APPEND) && f->path.dentry &&
			    (inode_iflags(f->path.dentry->inode) & INODE_APPEND)) {
				ret = -EPERM;
				break;
			}
			/* A file whose kind sends no O_ASYNC signals does
			 * not keep the flag (as Linux 6.x: F_GETFL then lacks
			 * it); the F_SETFL still succeeds. */
			if (async != !!(f->flags & LINUX_O_ASYNC)) {
				ret = fown_fasync(f, fd, async);
				if (ret == -ENOTTY)
					arg &= ~(uint64_t)LINUX_O_ASYNC;
				else if (ret < 0)
					break;
			}
			async = arg & LINUX_O_ASYNC;
			ret = file_set_flags(f, (f->flags & ~mask) | ((unsigned)arg & mask));
			if (ret < 0 && async != !!(f->flags & LINUX_O_ASYNC))
				fown_fasync(f, fd, !async);
		}
		break;
	case LINUX_F_GETLK:
	case LINUX_F_SETLK:
	case LINUX_F_SETLKW:
	case LINUX_F_OFD_GETLK:
	case LINUX_F_OFD_SETLK:
	case LINUX_F_OFD_SETLKW:
		ret = do_fcntl_lock(t, f, cmd, arg);
		break;
	case LINUX_F_SETLEASE:
		ret = lease_fcntl_set(t, f, fd, (int)arg);
		break;
	case LINUX_F_GETLEASE:
		ret = lease_fcntl_get(f);
		break;
	case LINUX_F_GETPIPE_SZ:
	case LINUX_F_SETPIPE_SZ:
		ret = pipe_fcntl_size(f, cmd == LINUX_F_SETPIPE_SZ, arg);
		break;
	case LINUX_F_ADD_SEALS:
	case LINUX_F_GET_SEALS:
		ret = memfd_fcntl(f, cmd, (unsigned)arg);
		break;
	case LINUX_F_SETOWN:
	case LINUX_F_GETOWN:
	case LINUX_F_SETOWN_EX:
	case LINUX_F_GETOWN_EX:
	case LINUX_F_SETSIG:
	case LINUX_F_GETSIG:
		ret = fown_fcntl(t, f, cmd, arg);
		break;
	case LINUX_F_NOTIFY:
		ret = dnotify_fcntl(t, f, fd, arg);
		break;
	case LINUX_F_GET_RW_HINT:
	case LINUX_F_SET_RW_HINT:
		ret = fcntl_rw_hint(t, f, cmd == LINUX_F_SET_RW_HINT, arg);
		break;
	case LINUX_F_DUPFD_QUERY: {
		/* Linux 6.10: is fd arg the same open file? (O_PATH ones too) */
		struct file *g = fdget(t->files, (int)arg); /* an int, as Linux's */

		ret = g ? g == f : -EBADF;
		file_put(g);
		break;
	}
	default:
		fcntl_unimplemented(cmd);
		ret = -EINVAL;
	}
	file_put(f);
	return ret;
}

static int get_xattr_name(struct task *t, uaddr_t uname, char *name)
{
	long n = strncpy_from_user(t->mm, name, uname, XATTR_NAME_MAX + 1);

	if (n == -ENAMETOOLONG || n == 0)
		return -ERANGE;
	return n < 0 ? (int)n : 0;
}

static long xattr_out(struct task *t, long n, void *kbuf, uaddr_t ubuf, size_t size)
{
	if (n > 0 && size > 0 && copy_to_user(t->mm, ubuf, kbuf, n) < 0)
		n = -EFAULT;
	free(kbuf);
	return n;
}

static long do_getxattr(struct task *t, const struct sysargs *a, int mode)
{
	char name[XATTR_NAME_MAX + 1], *path = NULL;
	size_t size = sysarg_size(a, 3);
	void *kbuf;
	long n;

	n = get_xattr_name(t, sysarg_uaddr(a, 1), name);
	if (n < 0)
		return n;
	if (size > XATTR_SIZE_MAX)
		size = XATTR_SIZE_MAX;
	kbuf = malloc(size ? size : 1);
	if (!kbuf)
		return -ENOMEM;
	if (mode == 2) {
		/* an O_PATH fd is EBADF, as Linux's fdget */
		struct file *f = fdget_nopath(t->files, sysarg_int(a, 0));

		struct inode *ino = f && f->path.dentry ? f->path.dentry->inode : NULL;

		n = !f	  ? -EBADF
		    : ino ? xattr_get(t, ino, name, kbuf, size)
			  : xattr_fileless(t, f, name, false);
		file_put(f);
	} else {
		n = get_user_path(t, sysarg_uaddr(a, 0), &path);
		if (n == 0)
			n = vfs_getxattr(t, path, mode == 1, name, kbuf, size);
		free(path);
	}
	return xattr_out(t, n, kbuf, sysarg_uaddr(a, 2), size);
}

long sys_getxattr(struct task *t, const struct sysargs *a)
{
	return do_getxattr(t, a, 0);
}

long sys_lgetxattr(struct task *t, const struct sysargs *a)
{
	return do_getxattr(t, a, 1);
}

long sys_fgetxattr(struct task *t, const struct sysargs *a)
{
	return do_getxattr(t, a, 2);
}

static long do_listxattr(struct task *t, const struct sysargs *a, int mode)
{
	size_t size = sysarg_size(a, 2);
	char *kbuf, *path = NULL;
	long n;

	if (size > XATTR_SIZE_MAX)
		size = XATTR_SIZE_MAX;
	kbuf = malloc(size ? size : 1);
	if (!kbuf)
		return -ENOMEM;
	if (mode == 2) {
		/* an O_PATH fd is EBADF, as Linux's fdget */
		struct file *f = fdget_nopath(t->files, sysarg_int(a, 0));

		struct inode *ino = f && f->path.dentry ? f->path.dentry->inode : NULL;

		n = !f ? -EBADF : ino ? xattr_list(t, ino, kbuf, size) : 0;
		file_put(f);
	} else {
		n = get_user_path(t, sysarg_uaddr(a, 0), &path);
		if (n == 0)
			n = vfs_listxattr(t, path, mode == 1, kbuf, size);
		free(path);
	}
	return xattr_out(t, n, kbuf, sysarg_uaddr(a, 1), size);
}

long sys_listxattr(struct task *t, const struct sysargs *a)
{
	return do_listxattr(t, a, 0);
}

long sys_llistxattr(struct task *t, const struct sysargs *a)
{
	return do_listxattr(t, a, 1);
}

long sys_flistxattr(struct task *t, const struct sysargs *a)
{
	return do_listxattr(t, a, 2);
}

static long do_pipe2(struct task *t, uaddr_t ufds, unsigned flags)
{
	struct file *rd, *wr;
	int fds[2], limit = (int)t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur;
	long ret;

	if (flags & ~(LINUX_O_CLOEXEC | LINUX_O_NONBLOCK | LINUX_O_DIRECT))
		return -EINVAL;
	ret = pipe_create(flags, &rd, &wr);
	if (ret < 0)
		return ret;
	fds[0] = fd_install(t->files, rd, 0, flags & LINUX_O_CLOEXEC, limit);
	if (fds[0] < 0) {
		file_put(rd);
		file_put(wr);
		return fds[0];
	}
	fds[1] = fd_install(t->files, wr, 0, flags & LINUX_O_CLOEXEC, limit);
	if (fds[1] < 0) {
		fd_close(t->files, fds[0]);
		file_put(wr);
		return fds[1];
	}
	if (copy_to_user(t->mm, ufds, fds, sizeof(fds)) < 0) {
		fd_close(t->files, fds[0]);
		fd_close(t->files, fds[1]);
		return -EFAULT;
	}
	return 0;
}

long sys_pipe(struct task *t, const struct sysargs *a)
{
	return do_pipe2(t, sysarg_uaddr(a, 0), 0);
}

long sys_pipe2(struct task *t, const struct sysargs *a)
{
	return do_pipe2(t, sysarg_uaddr(a, 0), sysarg_uint(a, 1));
}

long sys_chdir(struct task *t, const struct sysargs *a)
{
	char *path;
	int ret = get_user_path(t, sysarg_uaddr(a, 0), &path);

	if (ret < 0)
		return ret;
	ret = vfs_chdir(t, LINUX_AT_FDCWD, path);
	free(path);
	return ret;
}

long sys_fchdir(struct task *t, const struct sysargs *a)
{
	if (sysarg_int(a, 0) == LINUX_AT_FDCWD)
		return -EBADF;
	return vfs_chdir(t, sysarg_int(a, 0), "");
}

long sys_openat2(struct task *t, const struct sysargs *a)
{
	struct linux_open_how how;
	uint64_t size = sysarg_size(a, 3);
	struct file *f;
	char *path;
	int ret;

	if (size < sizeof(how))
		return -EINVAL;
	if (size > 4096)
		return -E2BIG;
	if (copy_from_user(t->mm, &how, sysarg_uaddr(a, 2), sizeof(how)) < 0)
		return -EFAULT;
	if (size > sizeof(how)) {
		char tail[64];
		uint64_t off;
		size_t i;

		for (off = sizeof(how); off < size; off += sizeof(tail)) {
			size_t n = size - off < sizeof(tail) ? size - off : sizeof(tail);

			if (copy_from_user(t->mm, tail, sysarg_uaddr(a, 2) + off, n) < 0)
				return -EFAULT;
			for (i = 0; i < n; i++)
				if (tail[i])
					return -E2BIG;
		}
	}
	if (how.flags >> 32 || (how.flags & ~0x3fffffULL))
		return -EINVAL;
	if (how.resolve & ~0x3fULL)
		return -EINVAL;
	if (how.mode & ~07777ULL || (how.mode && !(how.flags & (LINUX_O_CREAT | 020000000))))
		return -EINVAL;
	if ((how.resolve & LINUX_RESOLVE_BENEATH) && (how.resolve & LINUX_RESOLVE_IN_ROOT))
		return -EINVAL;
	/* openat2 is strict where open and openat drop the rest */
	if ((how.flags & LINUX_O_PATH) && (how.flags & ~(uint64_t)VFS_O_PATH_FLAGS))
		return -EINVAL;
	if (how.resolve & LINUX_RESOLVE_CACHED)
		return -EAGAIN; /* as Linux when the lookup is not all in its caches */
	ret = get_user_path(t, sysarg_uaddr(a, 1), &path);
	if (ret < 0)
		return ret;
	ret = open_room(t, path, (unsigned)how.flags);
	if (ret == 0)
		ret = vfs_openat2(t, sysarg_int(a, 0), path, (unsigned)how.flags,
				  (unsigned)how.mode, (unsigned)how.resolve, &f);
	free(path);
	if (ret < 0)
		return ret;
	ret = fd_install(t->files, f, 0, how.flags & LINUX_O_CLOEXEC, task_nofile(t));
	if (ret < 0)
		file_put(f);
	return ret;
}
