/* vfs/iov.c: the one importer of guest iovec arrays (Linux's
 * import_iovec and iovec_from_user). */
#include <stdlib.h>

#include "vfs/iov.h"
#include "vfs/file.h"
#include "kernel/task.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"

/* The array did not copy in whole: Linux reads it element by element and
 * stops at the first negative length (-EINVAL) or at the fault (-EFAULT). */
static long import_fault(struct task *t, uaddr_t uiov, uint32_t nr_segs, struct linux_iovec *iov)
{
	size_t readable = user_prefix(t->mm, uiov, (size_t)nr_segs * sizeof(*iov), false);
	size_t i, whole = readable / sizeof(*iov);

	if (whole && copy_from_user(t->mm, iov, uiov, whole * sizeof(*iov)) == 0)
		for (i = 0; i < whole; i++)
			if ((int64_t)iov[i].iov_len < 0)
				return -EINVAL;
	return -EFAULT;
}

long iovec_import(struct task *t, uaddr_t uiov, uint32_t nr_segs, struct linux_iovec **out)
{
	struct linux_iovec *iov;
	uint64_t total = 0;
	long ret = 0;
	uint32_t i;

	*out = NULL;
	if (nr_segs == 0)
		return 0;
	if (nr_segs > LINUX_UIO_MAXIOV)
		return -EINVAL;
	iov = malloc(nr_segs * sizeof(*iov));
	if (!iov)
		return -ENOMEM;
	if (copy_from_user(t->mm, iov, uiov, nr_segs * sizeof(*iov)) < 0) {
		ret = import_fault(t, uiov, nr_segs, iov);
		goto fail;
	}
	for (i = 0; i < nr_segs; i++) {
		if ((int64_t)iov[i].iov_len < 0) {
			ret = -EINVAL;
			goto fail;
		}
	}
	for (i = 0; i < nr_segs; i++) {
		uint64_t len = iov[i].iov_len;

		if (nr_segs == 1 && len > MAX_RW_COUNT)
			len = MAX_RW_COUNT;
		if (!access_ok(iov[i].iov_base, len)) {
			ret = -EFAULT;
			goto fail;
		}
		if (len > MAX_RW_COUNT - total)
			len = MAX_RW_COUNT - total;
		iov[i].iov_len = len;
		total += len;
	}
	*out = iov;
	return (long)total;
fail:
	free(iov);
	return ret;
}

uint64_t iovec_total(const struct linux_iovec *iov, int cnt)
{
	uint64_t total = 0;
	int i;

	for (i = 0; i < cnt; i++)
		total += iov[i].iov_len;
	return total;
}

void iovec_truncate(struct linux_iovec *iov, int cnt, uint64_t max)
{
	int i;

	for (i = 0; i < cnt; i++) {
		if (iov[i].iov_len > max)
			iov[i].iov_len = max;
		max -= iov[i].iov_len;
	}
}

uint64_t iovec_user_prefix(struct mm *mm, const struct linux_iovec *iov, int cnt, uint64_t max,
			   bool to_user)
{
	uint64_t ok = 0;
	int i;

	for (i = 0; i < cnt && ok < max; i++) {
		uint64_t want = iov[i].iov_len < max - ok ? iov[i].iov_len : max - ok;
		size_t got = want ? user_prefix(mm, iov[i].iov_base, want, to_user) : 0;

		ok += got;
		if (got < want)
			break;
	}
	return ok;
}

/* One copy per segment, in order, until n bytes or a copy that fails. */
static size_t iovec_copy(struct mm *mm, const struct linux_iovec *iov, int cnt, char *kbuf,
			 size_t n, bool to_user)
{
	size_t off = 0, chunk;
	int i;

	for (i = 0; i < cnt && off < n; i++, off += chunk) {
		chunk = iov[i].iov_len < n - off ? iov[i].iov_len : n - off;
		if (chunk == 0)
			continue;
		if (to_user ? copy_to_user(mm, iov[i].iov_base, kbuf + off, chunk) < 0
			    : copy_from_user(mm, kbuf + off, iov[i].iov_base, chunk) < 0)
			break;
	}
	return off;
}

size_t iovec_to_user(struct mm *mm, const struct linux_iovec *iov, int cnt, const void *src,
		     size_t n)
{
	return iovec_copy(mm, iov, cnt, (char *)src, n, true);
}

size_t iovec_from_user(struct mm *mm, const struct linux_iovec *iov, int cnt, void *dst, size_t n)
{
	return iovec_copy(mm, iov, cnt, dst, n, false);
}
