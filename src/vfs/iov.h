/* vfs/iov.h: guest iovec arrays, copied in and checked once as Linux's
 * import_iovec (lib/iov_iter.c) checks them. Every caller goes through
 * iovec_import: readv and writev (and their p- and 2 forms), sendmsg and
 * recvmsg, vmsplice; from then on only the kernel copy is read. */
#ifndef VFS_IOV_H
#define VFS_IOV_H

#include <stdbool.h>
#include <stdint.h>

#include "mm/mm.h"
#include "abi/linux/types.h"

struct task;

/* Linux's access_ok: the range lies in the user half at all (whether it
 * is mapped is found out by the copy that reaches it). */
static inline bool access_ok(uaddr_t addr, uint64_t size)
{
	return size <= TASK_SIZE && addr <= TASK_SIZE - size;
}

/* Copies nr_segs guest iovecs from uiov into *out (malloc'ed, the
 * caller's to free; NULL when nr_segs is 0) and checks them, in Linux's
 * order: more than UIO_MAXIOV segments is -EINVAL (0 is fine, whatever
 * uiov is); an unreadable array -EFAULT, but a length negative as ssize_t
 * in the readable part before it -EINVAL; then a segment outside the user
 * half (even an empty one) -EFAULT. Buffers are not looked up: a bad one
 * faults when the transfer reaches it. The total is cut at MAX_RW_COUNT:
 * the segment that crosses it is cut, the later ones become empty (one
 * segment alone is cut before its range is checked, as Linux 6.x's
 * import_ubuf). nr_segs is 32 bits wide as Linux's import_iovec takes it:
 * a wider argument is cut to it. Returns the total, or -errno (then *out
 * is NULL). */
long iovec_import(struct task *t, uaddr_t uiov, uint32_t nr_segs, struct linux_iovec **out);

/* The total bytes of cnt segments. */
uint64_t iovec_total(const struct linux_iovec *iov, int cnt);
/* Cuts the segments to a total of at most max bytes (the later ones
 * become empty). */
void iovec_truncate(struct linux_iovec *iov, int cnt, uint64_t max);

/* The bytes of the segments the guest can give (or take, to_user), in
 * order, up to the first that faults, at most max. The VMAs say: no host
 * call. */
uint64_t iovec_user_prefix(struct mm *mm, const struct linux_iovec *iov, int cnt, uint64_t max,
			   bool to_user);
/* The first n bytes of the segments from or to a kernel buffer, one copy
 * per segment: the bytes moved, less than n if a copy failed (then none
 * of that segment's). */
size_t iovec_to_user(struct mm *mm, const struct linux_iovec *iov, int cnt, const void *src,
		     size_t n);
size_t iovec_from_user(struct mm *mm, const struct linux_iovec *iov, int cnt, void *dst, size_t n);

#endif
