/* syscalls/sys_mm.c: mmap, munmap, mprotect, mremap, brk, madvise,
 * process_madvise, remap_file_pages, mseal, mlock, membarrier: Linux's
 * argument checks, in Linux's order, then mm/. */
#include <stdlib.h>

#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "kernel/cred.h"
#include "kernel/log.h"
#include "host/host.h"
#include "mm/commit.h"
#include "mm/memfd.h"
#include "mm/mm.h"
#include "mm/usercopy.h"
#include "vfs/file.h"
#include "vfs/iov.h"
#include "platform/platform.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/mman.h"

/* Linux's can_do_mlock: a memory lock limit, or CAP_IPC_LOCK. */
static bool can_do_mlock(struct task *t)
{
	return t->proc->rlim[LINUX_RLIMIT_MEMLOCK].rlim_cur != 0 ||
	       capable(&t->proc->cred, CAP_IPC_LOCK);
}

/* Linux's mlock_future_ok: may bytes more be locked (lock: VMA_LOCKED set
 * on the mapping to be)? */
static bool lock_future_ok(struct task *t, unsigned lock, uint64_t bytes)
{
	uint64_t pages;

	/* First: the count walks every VMA (it was on every mmap). */
	if (!(lock & VMA_LOCKED) || capable(&t->proc->cred, CAP_IPC_LOCK))
		return true;
	pages = (bytes >> 12) + (mm_locked_bytes(t->mm) >> 12);
	return pages <= t->proc->rlim[LINUX_RLIMIT_MEMLOCK].rlim_cur >> 12;
}

#define PROT_KNOWN (LINUX_PROT_READ | LINUX_PROT_WRITE | LINUX_PROT_EXEC | LINUX_PROT_SEM)

/* Flags MAP_SHARED_VALIDATE knows (Linux's LEGACY_MAP_MASK: not
 * MAP_FIXED_NOREPLACE, which is EOPNOTSUPP there); others are EOPNOTSUPP. */
#define MAP_KNOWN                                                                            \
	(LINUX_MAP_TYPE | LINUX_MAP_FIXED | LINUX_MAP_ANONYMOUS | LINUX_MAP_32BIT |          \
	 0x80 /* ABOVE4G */ | LINUX_MAP_GROWSDOWN | 0x0800 /* DENYWRITE */ |                 \
	 0x1000 /* EXECUTABLE */ | 0x2000 /* LOCKED */ | LINUX_MAP_NORESERVE |               \
	 LINUX_MAP_POPULATE | 0x10000 /* NONBLOCK */ | LINUX_MAP_STACK | LINUX_MAP_HUGETLB | \
	 0x4000000 /* UNINITIALIZED */ | 0x54000000 /* HUGE_2MB */ | 0x78000000 /* HUGE_1GB */)

long sys_mmap(struct task *t, const struct sysargs *a)
{
	uaddr_t addr = sysarg_uaddr(a, 0);
	uint64_t len = sysarg_size(a, 1), off = a->a[5];
	int prot = sysarg_int(a, 2), flags = sysarg_int(a, 3), fd = sysarg_int(a, 4);
	struct mm *mm = t->mm;
	struct file *f = NULL;
	unsigned vflags = 0;
	long ret;

	if (off & (PAGE_SIZE - 1))
		return -EINVAL;
	if (!(flags & LINUX_MAP_ANONYMOUS)) {
		f = fdget(t->files, fd);
		if (!f || (f->flags & LINUX_O_PATH)) {
			file_put(f);
			return -EBADF;
		}
	} else if (flags & LINUX_MAP_HUGETLB) {
		int log = ((unsigned)flags >> LINUX_MAP_HUGE_SHIFT) & LINUX_MAP_HUGE_MASK;

		/* A size x86-64 has no huge pages of is EINVAL (flags of -1
		 * among them), as Linux's hstate lookup. Differs from Linux:
		 * no huge pages; as on a host without any. */
		if (log != 0 && log != 21 && log != 30)
			return -EINVAL;
		return -ENOMEM;
	}
	ret = -EINVAL;
	if (len == 0)
		goto out;
	ret = -ENOMEM;
	len = PAGE_ALIGN(len);
	if (len == 0 || len > TASK_SIZE)
		goto out;
	ret = -EOVERFLOW;
	if ((off >> 12) + (len >> 12) < (off >> 12))
		goto out;
	if (flags & (LINUX_MAP_FIXED | LINUX_MAP_FIXED_NOREPLACE)) {
		ret = -ENOMEM;
		if (addr > TASK_SIZE - len)
			goto out;
		ret = -EINVAL;
		if (addr & (PAGE_SIZE - 1))
			goto out;
		ret = -EPERM;
		if (addr < MMAP_MIN_ADDR)
			goto out;
		ret = -EEXIST;
		if (!(flags & LINUX_MAP_FIXED) && mm_range_used(mm, addr, addr + len))
			goto out;
	} else {
		ret = mm_unmapped_area(mm, addr, len);
		if (ret < 0)
			goto out;
		addr = (uaddr_t)ret;
	}
	/* As Linux (file_mmap_ok): the file's last byte must fit an loff_t. */
	ret = -EOVERFLOW;
	if (f && (len > INT64_MAX || off > (uint64_t)INT64_MAX - len))
		goto out;
	vflags |= mm->def_lock;
	if (flags & LINUX_MAP_LOCKED) {
		ret = -EPERM;
		if (!can_do_mlock(t))
			goto out;
		vflags |= VMA_LOCKED;
	}
	ret = -EAGAIN;
	if (!lock_future_ok(t, vflags, len))
		goto out;
	switch (flags & LINUX_MAP_TYPE) {
	case LINUX_MAP_SHARED:
	case LINUX_MAP_SHARED_VALIDATE:
		ret = -EINVAL;
		if (!f && (flags & LINUX_MAP_TYPE) == LINUX_MAP_SHARED_VALIDATE)
			goto out;
		ret = -EOPNOTSUPP;
		if ((flags & LINUX_MAP_TYPE) == LINUX_MAP_SHARED_VALIDATE && (flags & ~MAP_KNOWN))
			goto out;
		vflags |= VMA_SHARED;
		if (f) {
			ret = -EACCES;
			if ((prot & LINUX_PROT_WRITE) && !file_writable(f))
				goto out;
			/* an append-only file open for writing is not
			 * shared, lest it be written inside */
			if (file_writable(f) && f->path.dentry &&
			    (inode_iflags(f->path.dentry->inode) & INODE_APPEND))
				goto out;
		}
		if (!f || file_writable(f))
			vflags |= VMA_MAYWRITE;
		/* fallthrough */
	case LINUX_MAP_PRIVATE:
		ret = -EACCES;
		if (f && !file_readable(f))
			goto out;
		ret = -EPERM; /* a file of a noexec mount (Linux's path_noexec) */
		if (f && (prot & LINUX_PROT_EXEC) && f->path.mnt &&
		    (f->path.mnt->flags & MNT_NOEXEC))
			goto out;
		break;
	default:
		ret = -EINVAL;
		goto out;
	}
	/* /dev/zero: anonymous memory, shared memory for MAP_SHARED, as
	 * Linux's mmap_zero. Differs from Linux: a private one has no name
	 * in /proc/PID/maps (Linux shows /dev/zero's). */
	if (f && f->ops->mmap_anon) {
		file_put(f);
		f = NULL;
	}
	ret = -ENODEV;
	if (f && !f->ops->mmap_fd)
		goto out;
	if (f && (vflags & VMA_SHARED)) {
		ret = memfd_check_seals_mmap(f, prot, &vflags);
		if (ret < 0)
			goto out;
	}
	ret = -EINVAL; /* a file mapping never grows down */
	if (f && (flags & LINUX_MAP_GROWSDOWN))
		goto out;
	if (flags & LINUX_MAP_GROWSDOWN)
		vflags |= VMA_GROWSDOWN;
	/* As Linux's VM_NORESERVE, decided once at mmap. Differs from Linux:
	 * a shared anonymous mapping counts whole whatever the flag. */
	if ((flags & LINUX_MAP_NORESERVE) && !(vflags & VMA_SHARED) &&
	    mem_overcommit() != MEM_OVERCOMMIT_NEVER)
		vflags |= VMA_NORESERVE;
	ret = mm_deny_write_exec(mm, prot, prot)
		      ? -EACCES
		      : mm_map(mm, addr, len, prot & PROT_KNOWN, vflags, f, off);
	if (ret == 0 && f)
		file_accessed(f); /* shmem_mmap's */
	if (ret == 0)
		ret = platform->mm_flush(mm->pf);
	if (ret == 0)
		ret = (long)addr;
	else if (ret != -ENODEV && ret != -EACCES && ret != -EINVAL && ret != -EPERM)
		ret = -ENOMEM; /* EINVAL: over part of the vDSO, EPERM: sealed, as Linux */
out:
	file_put(f);
	return ret;
}

long sys_munmap(struct task *t, const struct sysargs *a)
{
	uaddr_t addr = sysarg_uaddr(a, 0);
	uint64_t len = sysarg_size(a, 1);

	if ((addr & (PAGE_SIZE - 1)) || len == 0)
		return -EINVAL;
	len = PAGE_ALIGN(len);
	if (len == 0 || len > TASK_SIZE || addr > TASK_SIZE - len)
		return -EINVAL;
	return mm_unmap(t->mm, addr, len);
}

/* remap_file_pages: Linux's emulation of it (3.16 on), a new shared
 * mapping of the VMA's file at page pgoff over [start, start + size), the
 * range inside one VMA or adjacent ones of the same file and flags, with
 * their protection; prot must be 0 and flags but MAP_NONBLOCK are
 * ignored. A shared mapping of a file open read-only is not VM_SHARED in
 * Linux: EINVAL. Partial: a shared anonymous mapping, whose pages the host
 * keeps rather than a file of skas's, is EINVAL. */
long sys_remap_file_pages(struct task *t, const struct sysargs *a)
{
	uaddr_t start = sysarg_uaddr(a, 0) & PAGE_MASK;
	uint64_t size = sysarg_size(a, 1) & PAGE_MASK, pgoff = a->a[3];
	struct mm *mm = t->mm;
	struct vma *v, *n;
	struct file *f;
	unsigned vflags;
	int prot;
	long ret;

	if (a->a[2] || start + size <= start || pgoff + (size >> PAGE_SHIFT) < pgoff)
		return -EINVAL;
	v = mm_find_vma(mm, start);
	if (!v || v->start > start || !(v->flags & VMA_SHARED) || !v->file ||
	    !file_writable(v->file))
		return -EINVAL;
	for (n = v; start + size > n->end;) {
		struct vma *next = list_entry(n->link.next, struct vma, link);

		if (&next->link == &mm->vmas || next->start != n->end || next->file != v->file ||
		    next->flags != v->flags || next->prot != v->prot)
			return -EINVAL;
		n = next;
	}
	/* The new mapping is mmap's (do_mmap): a locked VMA's within
	 * RLIMIT_MEMLOCK, the last byte fitting an loff_t, not executable on a
	 * noexec mount, and the file's seals. */
	vflags = (v->flags & (VMA_SHARED | VMA_MAYWRITE | VMA_LOCKED)) | mm->def_lock;
	prot = v->prot;
	f = v->file;
	if ((vflags & VMA_LOCKED) && !lock_future_ok(t, vflags, size))
		return -EAGAIN;
	if (pgoff > ((uint64_t)INT64_MAX - size) >> PAGE_SHIFT)
		return -EOVERFLOW;
	if ((prot & LINUX_PROT_EXEC) && f->path.mnt && (f->path.mnt->flags & MNT_NOEXEC))
		return -EPERM;
	ret = memfd_check_seals_mmap(f, prot, &vflags);
	if (ret < 0)
		return ret;
	file_get(f);
	ret = mm_map(mm, start, size, prot, vflags, f, pgoff << PAGE_SHIFT);
	if (ret == 0)
		ret = platform->mm_flush(mm->pf);
	file_put(f);
	return ret;
}

/* mseal(2), Linux 6.10's: seals every VMA of the range for good (a fork
 * keeps it, an exec ends it). flags must be 0; the range is page-aligned
 * at its start and rounded up at its end, and must be mapped whole
 * (ENOMEM). */
long sys_mseal(struct task *t, const struct sysargs *a)
{
	uaddr_t start = sysarg_uaddr(a, 0);
	uint64_t len_in = sysarg_size(a, 1), len = PAGE_ALIGN(len_in);

	if (a->a[2] || (start & (PAGE_SIZE - 1)) || (len_in && !len) || start + len < start)
		return -EINVAL;
	if (len == 0)
		return 0;
	return mm_seal(t->mm, start, len);
}

/* Linux's do_mprotect_pkey, its checks in its order: the growth flags,
 * the address, an empty range (done), a wrap (ENOMEM), then the
 * protection (an unsigned long: bits past 31 are unknown too) and the key
 * (only -1, none given: see sys_pkey_alloc). */
static long do_mprotect_pkey(struct task *t, uaddr_t addr, uint64_t len, uint64_t prot, int pkey)
{
	uint64_t grows = prot & (LINUX_PROT_GROWSDOWN | LINUX_PROT_GROWSUP);

	prot &= ~grows;
	if (grows == (LINUX_PROT_GROWSDOWN | LINUX_PROT_GROWSUP))
		return -EINVAL;
	if (addr & (PAGE_SIZE - 1))
		return -EINVAL;
	if (len == 0)
		return 0;
	len = PAGE_ALIGN(len);
	if (len == 0 || addr + len <= addr)
		return -ENOMEM;
	if (prot & ~(uint64_t)PROT_KNOWN)
		return -EINVAL;
	if (pkey != -1)
		return -EINVAL;
	if (grows) {
		struct vma *v = mm_find_vma(t->mm, addr);

		/* As Linux: GROWSUP needs a VMA that grows up (none on
		 * x86-64); GROWSDOWN one that grows down (the stack), and
		 * then reaches down to its start. */
		if (!v || v->start >= addr + len)
			return -ENOMEM;
		if (grows & LINUX_PROT_GROWSUP)
			return v->start > addr ? -ENOMEM : -EINVAL;
		if (!(v->flags & (VMA_STACK | VMA_GROWSDOWN)))
			return -EINVAL;
		len += addr - v->start;
		addr = v->start;
	}
	return mm_protect(t->mm, addr, len, (int)prot);
}

long sys_mprotect(struct task *t, const struct sysargs *a)
{
	return do_mprotect_pkey(t, sysarg_uaddr(a, 0), sysarg_size(a, 1), a->a[2], -1);
}

/* Memory protection keys, as on a Linux whose CPU has none (an x86 kernel
 * without OSPKE, as these hosts'): skas gives no key, since a guest's key
 * would have to be the host's on the stub's pages. As there, an address
 * space's first pkey_alloc that passes the argument checks is EINVAL
 * (mm_pkey_alloc takes key 0, arch_set_user_pkey_access refuses it, and
 * the key stays taken: fork keeps that, exec starts afresh), every later
 * one ENOSPC; pkey_free is EINVAL; pkey_mprotect is mprotect for key -1
 * and EINVAL for any other. Differs from Linux on a host whose CPU has
 * keys: the guest sees OSPKE in CPUID but gets none. */
long sys_pkey_alloc(struct task *t, const struct sysargs *a)
{
	if (a->a[0] || (a->a[1] & ~(uint64_t)LINUX_PKEY_ACCESS_MASK))
		return -EINVAL;
	if (t->mm->pkey0_taken)
		return -ENOSPC;
	t->mm->pkey0_taken = true;
	return -EINVAL;
}

long sys_pkey_free(struct task *t, const struct sysargs *a)
{
	(void)t;
	(void)a;
	return -EINVAL; /* mm_pkey_is_allocated: no key ever is */
}

long sys_pkey_mprotect(struct task *t, const struct sysargs *a)
{
	return do_mprotect_pkey(t, sysarg_uaddr(a, 0), sysarg_size(a, 1), a->a[2],
				sysarg_int(a, 3));
}

/* Differs from Linux: MREMAP_DONTUNMAP is rejected with EINVAL. */
long sys_mremap(struct task *t, const struct sysargs *a)
{
	uaddr_t addr = sysarg_uaddr(a, 0), new_addr = sysarg_uaddr(a, 4);
	uint64_t old_len = sysarg_size(a, 1), new_len = sysarg_size(a, 2);
	unsigned flags = sysarg_uint(a, 3);
	struct vma *v;

	if (flags & ~(LINUX_MREMAP_MAYMOVE | LINUX_MREMAP_FIXED | LINUX_MREMAP_DONTUNMAP))
		return -EINVAL;
	if ((flags & LINUX_MREMAP_FIXED) && !(flags & LINUX_MREMAP_MAYMOVE))
		return -EINVAL;
	if (flags & LINUX_MREMAP_DONTUNMAP)
		return -EINVAL;
	if (addr & (PAGE_SIZE - 1))
		return -EINVAL;
	old_len = PAGE_ALIGN(old_len);
	new_len = PAGE_ALIGN(new_len);
	if (new_len == 0)
		return -EINVAL;
	if ((flags & LINUX_MREMAP_FIXED) && (new_addr & (PAGE_SIZE - 1)))
		return -EINVAL;
	/* Growing a locked mapping: Linux's vma_to_resize. */
	v = mm_find_vma(t->mm, addr);
	/* A new length past the user range (-4096 is not 0 after PAGE_ALIGN):
	 * Linux's check_mremap_params. */
	if (new_len > TASK_SIZE)
		return -EINVAL;
	/* A fixed target inside the user range, apart from the source. */
	if ((flags & LINUX_MREMAP_FIXED) &&
	    (new_addr > TASK_SIZE - new_len ||
	     (new_addr < addr + old_len && addr < new_addr + new_len)))
		return -EINVAL;
	/* Linux 6.18's check_prep_vma: a mapping at addr, whatever the
	 * lengths (a shrink or a same-size call on an unmapped address
	 * returned it before) */
	if (!v || v->start > addr || (v->flags & VMA_STUB))
		return -EFAULT;
	/* A sealed VMA (mseal) neither moves nor changes size. */
	if (v->flags & VMA_SEALED)
		return -EPERM;
	/* An old length past the user range: the munmap of the tail
	 * (shrink_vma) rejects a shrink from one. */
	if (old_len >= new_len && old_len > TASK_SIZE)
		return -EINVAL;
	if (old_len && old_len <= v->end - addr && new_len > old_len &&
	    !lock_future_ok(t, v->flags, new_len - old_len))
		return -EAGAIN;
	if (old_len == 0) {
		/* Only a shared mapping can be duplicated this way. */
		if (!(v->flags & VMA_SHARED))
			return -EINVAL;
		/* Differs from Linux: duplicating a shared mapping is not
		 * supported yet. */
		return -EINVAL;
	}
	return mm_remap(t->mm, addr, old_len, new_len, flags, new_addr);
}

long sys_brk(struct task *t, const struct sysargs *a)
{
	struct mm *mm = t->mm;
	uaddr_t want = sysarg_uaddr(a, 0), old_end, new_end;
	struct vma *next;

	if (want < mm->start_brk)
		return (long)mm->brk;
	old_end = PAGE_ALIGN(mm->brk);
	new_end = PAGE_ALIGN(want);
	if (new_end < want || new_end > TASK_SIZE)
		return (long)mm->brk;
	/* Linux's check_data_rlimit: the heap and the data segment. */
	if (t->proc->rlim[LINUX_RLIMIT_DATA].rlim_cur != LINUX_RLIM_INFINITY &&
	    (want - mm->start_brk) + (mm->end_data - mm->start_data) >
		    t->proc->rlim[LINUX_RLIMIT_DATA].rlim_cur)
		return (long)mm->brk;
	if (new_end < old_end) {
		if (mm_unmap(mm, new_end, old_end - new_end) < 0)
			return (long)mm->brk;
	} else if (new_end > old_end) {
		if (!lock_future_ok(t, mm->def_lock, new_end - old_end))
			return (long)mm->brk;
		/* Linux keeps a guard page between the heap and what follows. */
		next = mm_find_vma(mm, old_end);
		if (next && next->start < new_end + PAGE_SIZE)
			return (long)mm->brk;
		if (mm_map(mm, old_end, new_end - old_end, LINUX_PROT_READ | LINUX_PROT_WRITE,
			   VMA_HEAP | mm->def_lock, NULL, 0) < 0 ||
		    platform->mm_flush(mm->pf) < 0)
			return (long)mm->brk;
	}
	mm->brk = want;
	return (long)want;
}

/* msync: Linux's checks (mm/msync.c); a gap in the range is ENOMEM.
 * A shared file mapping is the host's mapping of the file itself, so its
 * writes are in the file (the host's page cache) already; MS_SYNC then
 * does what fsync does here, no more. Differs from Linux: MS_INVALIDATE of
 * a locked mapping is not EBUSY. */
long sys_msync(struct task *t, const struct sysargs *a)
{
	uaddr_t start = sysarg_uaddr(a, 0), end;
	uint64_t len = sysarg_size(a, 1);
	int flags = sysarg_int(a, 2);

	if ((flags & ~(LINUX_MS_ASYNC | LINUX_MS_INVALIDATE | LINUX_MS_SYNC)) ||
	    (start & (PAGE_SIZE - 1)) || ((flags & LINUX_MS_ASYNC) && (flags & LINUX_MS_SYNC)))
		return -EINVAL;
	len = PAGE_ALIGN(len);
	end = start + len;
	if (end < start)
		return -ENOMEM;
	if (end == start)
		return 0;
	/* Nothing to do per mapping: the walk is madvise's, for its holes. */
	return mm_advise(t->mm, start, len, 0, false);
}

/* madvise of [addr, addr + len_in) in mm, as Linux's madvise_do_behavior
 * with its checks (madvise_should_skip). */
static long madvise_range(struct mm *mm, uaddr_t addr, uint64_t len_in, int advice)
{
	uint64_t len;
	bool host = false;
	uaddr_t end;

	switch (advice) {
	/* These change what the guest sees, or what a fork gives the child
	 * (the host's fork of the stub makes the copy): the host does them. */
	case LINUX_MADV_DONTNEED:
	case LINUX_MADV_DONTNEED_LOCKED:
	case LINUX_MADV_FREE:
	case LINUX_MADV_WIPEONFORK:
	case LINUX_MADV_KEEPONFORK:
	case LINUX_MADV_POPULATE_READ:
	case LINUX_MADV_POPULATE_WRITE:
		host = true;
		break;
	/* Hints. Differs from Linux: DONTFORK/DOFORK are accepted and
	 * ignored until the processes issue brings fork. */
	case LINUX_MADV_NORMAL:
	case LINUX_MADV_RANDOM:
	case LINUX_MADV_SEQUENTIAL:
	case LINUX_MADV_WILLNEED:
	case LINUX_MADV_DONTFORK:
	case LINUX_MADV_DOFORK:
	case LINUX_MADV_MERGEABLE:
	case LINUX_MADV_UNMERGEABLE:
	case LINUX_MADV_HUGEPAGE:
	case LINUX_MADV_NOHUGEPAGE:
	case LINUX_MADV_DONTDUMP:
	case LINUX_MADV_DODUMP:
	case LINUX_MADV_COLD:
	case LINUX_MADV_PAGEOUT:
		break;
	default:
		return -EINVAL;
	}
	if (addr & (PAGE_SIZE - 1))
		return -EINVAL;
	len = PAGE_ALIGN(len_in);
	if (len_in && !len) /* rounded up from near -1 */
		return -EINVAL;
	end = addr + len;
	if (end < addr)
		return -EINVAL;
	if (end == addr)
		return 0;
	return mm_advise(mm, addr, len, advice, host);
}

long sys_madvise(struct task *t, const struct sysargs *a)
{
	return madvise_range(t->mm, sysarg_uaddr(a, 0), sysarg_size(a, 1), sysarg_int(a, 2));
}

/* process_madvise(2), as Linux 6.13's: the advice for each range of the
 * iovec array in the address space of the process the pidfd names, in
 * order up to the first that fails; the bytes advised, or that failure if
 * none. flags must be 0. Another process's memory takes only the hints
 * that change nothing it sees (MADV_COLD, MADV_PAGEOUT, MADV_WILLNEED;
 * else EINVAL), needs ptrace read access (EACCES) and CAP_SYS_NICE
 * (EPERM). Differs from Linux: no MADV_COLLAPSE (skas has no huge pages
 * to make), as madvise. */
long sys_process_madvise(struct task *t, const struct sysargs *a)
{
	struct linux_iovec *iov = NULL;
	int advice = sysarg_int(a, 3);
	uint64_t done = 0;
	struct mm *mm = NULL;
	long ret, n;
	uint32_t i;

	if (sysarg_uint(a, 4))
		return -EINVAL;
	n = iovec_import(t, sysarg_uaddr(a, 1), (uint32_t)a->a[2], &iov);
	if (n < 0)
		return n;
	ret = pidfd_mm(t, sysarg_int(a, 0), &mm);
	if (ret == 0 && mm != t->mm) {
		if (advice != LINUX_MADV_COLD && advice != LINUX_MADV_PAGEOUT &&
		    advice != LINUX_MADV_WILLNEED)
			ret = -EINVAL;
		else if (!capable(&t->proc->cred, CAP_SYS_NICE))
			ret = -EPERM;
	}
	for (i = 0; ret == 0 && i < (uint32_t)a->a[2]; i++) {
		ret = madvise_range(mm, iov[i].iov_base, iov[i].iov_len, advice);
		if (ret == 0)
			done += iov[i].iov_len;
	}
	free(iov);
	return done ? (long)done : ret;
}

/* mincore(2), one page of the vector at a time as Linux. */
long sys_mincore(struct task *t, const struct sysargs *a)
{
	static unsigned char vec[PAGE_SIZE];
	uaddr_t addr = sysarg_uaddr(a, 0), uvec = sysarg_uaddr(a, 2);
	uint64_t len = sysarg_size(a, 1), pages;

	if (addr & (PAGE_SIZE - 1))
		return -EINVAL;
	if (len > TASK_SIZE || addr > TASK_SIZE - len)
		return -ENOMEM;
	pages = (len >> 12) + ((len & (PAGE_SIZE - 1)) != 0);
	if (pages > TASK_SIZE || uvec > TASK_SIZE - pages)
		return -EFAULT;
	while (pages) {
		long got = mm_mincore(t->mm, addr, pages < PAGE_SIZE ? pages : PAGE_SIZE, vec);

		if (got <= 0)
			return -ENOMEM;
		if (copy_to_user(t->mm, uvec, vec, (size_t)got) < 0)
			return -EFAULT;
		pages -= (uint64_t)got;
		uvec += (uint64_t)got;
		addr += (uint64_t)got * PAGE_SIZE;
	}
	return 0;
}

/* mlock and mlock2: Linux's do_mlock. The limit is checked on the pages
 * locked already plus the range, less what of the range is locked already. */
static long do_mlock(struct task *t, uaddr_t start, uint64_t len, unsigned lock)
{
	uint64_t limit = t->proc->rlim[LINUX_RLIMIT_MEMLOCK].rlim_cur >> 12, locked;
	bool cap = capable(&t->proc->cred, CAP_IPC_LOCK);
	struct vma *v;
	long ret;

	if (!can_do_mlock(t))
		return -EPERM;
	len = PAGE_ALIGN(len + (start & (PAGE_SIZE - 1)));
	start &= PAGE_MASK;
	locked = (len >> 12) + (mm_locked_bytes(t->mm) >> 12);
	if (locked > limit && !cap)
		locked -= mm_locked_in(t->mm, start, len) >> 12;
	if (locked > limit && !cap)
		return -ENOMEM;
	ret = mm_lock_range(t->mm, start, start + len, lock);
	if (ret < 0 || (lock & VMA_LOCKONFAULT))
		return ret;
	/* Linux locks the range, then faults it in, which fails on a
	 * PROT_NONE VMA: mlock's EFAULT from there is ENOMEM (the range
	 * stays locked). */
	for (v = mm_find_vma(t->mm, start); v && &v->link != &t->mm->vmas && v->start < start + len;
	     v = list_entry(v->link.next, struct vma, link))
		if (v->prot == LINUX_PROT_NONE)
			return -ENOMEM;
	return 0;
}

long sys_mlock(struct task *t, const struct sysargs *a)
{
	return do_mlock(t, sysarg_uaddr(a, 0), sysarg_size(a, 1), VMA_LOCKED);
}

long sys_mlock2(struct task *t, const struct sysargs *a)
{
	int flags = sysarg_int(a, 2);

	if (flags & ~LINUX_MLOCK_ONFAULT)
		return -EINVAL;
	return do_mlock(t, sysarg_uaddr(a, 0), sysarg_size(a, 1),
			VMA_LOCKED | (flags & LINUX_MLOCK_ONFAULT ? VMA_LOCKONFAULT : 0));
}

long sys_munlock(struct task *t, const struct sysargs *a)
{
	uaddr_t start = sysarg_uaddr(a, 0);
	uint64_t len = PAGE_ALIGN(sysarg_size(a, 1) + (start & (PAGE_SIZE - 1)));

	start &= PAGE_MASK;
	return mm_lock_range(t->mm, start, start + len, 0);
}

/* mlockall: MCL_CURRENT checks the whole address space (Linux's total_vm)
 * against the limit; MCL_FUTURE alone checks nothing until mmap and brk. */
long sys_mlockall(struct task *t, const struct sysargs *a)
{
	int flags = sysarg_int(a, 0);
	unsigned lock = VMA_LOCKED;

	if (!flags || (flags & ~(LINUX_MCL_CURRENT | LINUX_MCL_FUTURE | LINUX_MCL_ONFAULT)) ||
	    flags == LINUX_MCL_ONFAULT)
		return -EINVAL;
	if (!can_do_mlock(t))
		return -EPERM;
	if ((flags & LINUX_MCL_CURRENT) && !capable(&t->proc->cred, CAP_IPC_LOCK) &&
	    mm_total_bytes(t->mm) >> 12 > t->proc->rlim[LINUX_RLIMIT_MEMLOCK].rlim_cur >> 12)
		return -ENOMEM;
	if (flags & LINUX_MCL_ONFAULT)
		lock |= VMA_LOCKONFAULT;
	if (!(flags & LINUX_MCL_CURRENT)) {
		t->mm->def_lock = lock; /* the mappings there are keep theirs */
		return 0;
	}
	mm_lock_all(t->mm, lock, flags & LINUX_MCL_FUTURE ? lock : 0);
	return 0;
}

long sys_munlockall(struct task *t, const struct sysargs *a)
{
	(void)a;
	mm_lock_all(t->mm, 0, 0);
	return 0;
}

/* membarrier: Linux's commands as a Linux built without rseq (QUERY leaves
 * the RSEQ ones out, they are EINVAL), and as the host's Linux otherwise:
 * a command the host's QUERY lacks (GLOBAL under nohz_full,
 * GET_REGISTRATIONS before 6.3) is EINVAL here too, and with no membarrier
 * on the host the call is ENOSYS, as on a Linux without CONFIG_MEMBARRIER.
 *
 * The barrier: a guest thread is a host thread of its mm's stub, which the
 * kernel process cannot reach with the host's PRIVATE_EXPEDITED (that
 * covers the caller's own host mm) nor GLOBAL_EXPEDITED (only processes
 * registered from inside, and the stubs do not register). So every barrier
 * is the host's MEMBARRIER_CMD_GLOBAL: each host CPU passes a full barrier
 * (a context switch or an interrupt, both core serializing on x86-64, so it
 * also gives SYNC_CORE's guarantee) before it returns. Differs from Linux:
 * the expedited commands take as long as GLOBAL (an RCU grace period)
 * instead of a round of IPIs. A thread in the kernel (trapped) passed one
 * already; an mm with one user needs none (Linux's mm_users == 1 too). */
#define MEMBARRIER_RSEQ                                \
	(LINUX_MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ | \
	 LINUX_MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ)

static int membarrier_cmds(void)
{
	static int cmds = -1;

	if (cmds == -1) {
		cmds = host_membarrier(LINUX_MEMBARRIER_CMD_QUERY);
		if (cmds >= 0)
			cmds &= ~MEMBARRIER_RSEQ;
	}
	return cmds;
}

static long membarrier_sync(void)
{
	return host_membarrier(LINUX_MEMBARRIER_CMD_GLOBAL);
}

/* The PRIVATE_EXPEDITED commands: registered (ready) first. */
static long membarrier_private(struct mm *mm, unsigned reg)
{
	if (!(mm->membarrier_ready & reg))
		return -EPERM;
	return mm->refcount > 1 ? membarrier_sync() : 0;
}

/* Linux's membarrier_register_*: the SYNC_CORE registration marks the
 * plain one as registered (GET_REGISTRATIONS shows both) without making
 * PRIVATE_EXPEDITED usable. */
static long membarrier_register(struct mm *mm, unsigned reg)
{
	mm->membarrier_registered |= reg;
	if (reg == LINUX_MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE)
		mm->membarrier_registered |= LINUX_MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED;
	mm->membarrier_ready |= reg;
	return 0;
}

long sys_membarrier(struct task *t, const struct sysargs *a)
{
	int cmd = sysarg_int(a, 0), cmds = membarrier_cmds();
	unsigned flags = sysarg_uint(a, 1);

	if (cmds < 0)
		return -ENOSYS;
	if (cmd == LINUX_MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ) {
		if (flags && flags != LINUX_MEMBARRIER_CMD_FLAG_CPU)
			return -EINVAL;
	} else if (flags) {
		return -EINVAL;
	}
	if (cmd == LINUX_MEMBARRIER_CMD_QUERY)
		return cmds;
	if (cmd < 0 || (cmd & (cmd - 1)) || !(cmd & cmds))
		return -EINVAL;
	switch (cmd) {
	case LINUX_MEMBARRIER_CMD_GLOBAL:
	case LINUX_MEMBARRIER_CMD_GLOBAL_EXPEDITED:
		return membarrier_sync();
	case LINUX_MEMBARRIER_CMD_PRIVATE_EXPEDITED:
		return membarrier_private(t->mm, LINUX_MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED);
	case LINUX_MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE:
		return membarrier_private(
			t->mm, LINUX_MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE);
	case LINUX_MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED:
	case LINUX_MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED:
	case LINUX_MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE:
		return membarrier_register(t->mm, (unsigned)cmd);
	case LINUX_MEMBARRIER_CMD_GET_REGISTRATIONS:
		return t->mm->membarrier_registered;
	default:
		return -EINVAL;
	}
}
