/* mm/mlock.c: mlock's bookkeeping on the VMAs: VMA_LOCKED and
 * VMA_LOCKONFAULT per VMA, as Linux's VM_LOCKED and VM_LOCKONFAULT (kept
 * by splits, mprotect and mremap, dropped in a fork child), and the counts
 * RLIMIT_MEMLOCK and VmLck read. Differs from Linux: nothing is pinned or
 * faulted in on the host (an unprivileged host process cannot lock pages);
 * the guest sees Linux's flags, counts and errors. */
#include "mm/mm.h"
#include "mm/internal.h"
#include "abi/linux/errno.h"

/* The vDSO's parts are special mappings, which mlock leaves alone
 * (Linux's VM_SPECIAL check in mlock_fixup); the stub is not the guest's. */
static bool vma_lockable(const struct vma *v)
{
	return !(v->flags & (VMA_VDSO | VMA_VVAR | VMA_VVAR_VCLOCK | VMA_STUB));
}

uint64_t mm_locked_bytes(struct mm *mm)
{
	uint64_t sum = 0;
	struct vma *v;

	list_for_each_entry(v, &mm->vmas, link)
	{
		if (v->flags & VMA_LOCKED)
			sum += v->end - v->start;
	}
	return sum;
}

uint64_t mm_total_bytes(struct mm *mm)
{
	uint64_t sum = 0;
	struct vma *v;

	list_for_each_entry(v, &mm->vmas, link)
	{
		if (!(v->flags & VMA_STUB))
			sum += v->end - v->start;
	}
	return sum;
}

uint64_t mm_locked_in(struct mm *mm, uaddr_t start, uint64_t len)
{
	uaddr_t end = len > UINT64_MAX - start ? UINT64_MAX : start + len;
	uint64_t sum = 0;
	struct vma *v;

	list_for_each_entry(v, &mm->vmas, link)
	{
		if (v->start >= end)
			break;
		if (v->end <= start || !(v->flags & VMA_LOCKED))
			continue;
		sum += (v->end < end ? v->end : end) - (v->start > start ? v->start : start);
	}
	return sum;
}

/* Gives [start, end), inside v, the lock bits lock (Linux's mlock_fixup):
 * splits v at the edges first. */
static int vma_set_lock(struct mm *mm, struct vma *v, uaddr_t start, uaddr_t end, unsigned lock)
{
	int ret;

	if ((v->flags & VMA_LOCK_MASK) == lock || !vma_lockable(v))
		return 0;
	ret = vma_isolate(mm, &v, start, end);
	if (ret < 0)
		return ret;
	v->flags = (v->flags & ~VMA_LOCK_MASK) | lock;
	vma_try_merge(mm, v);
	return 0;
}

int mm_lock_range(struct mm *mm, uaddr_t start, uaddr_t end, unsigned lock)
{
	uaddr_t at = start, e;
	struct vma *v;
	int ret;

	if (end < start)
		return -EINVAL;
	while (at < end) {
		v = mm_find_vma(mm, at);
		if (!v || v->start > at || (v->flags & VMA_STUB))
			return -ENOMEM;
		e = v->end < end ? v->end : end;
		ret = vma_set_lock(mm, v, at, e, lock);
		if (ret < 0)
			return ret;
		at = e;
	}
	return 0;
}

void mm_lock_all(struct mm *mm, unsigned current, unsigned future)
{
	uaddr_t at = 0;
	struct vma *v;

	mm->def_lock = future;
	/* By address: a merge may free the VMA just changed. */
	while ((v = mm_find_vma(mm, at)) != NULL) {
		at = v->end;
		vma_set_lock(mm, v, v->start, v->end, current);
	}
}
