/* mm/mm.h: a guest address space: its VMAs (the truth for placement,
 * permission checks and /proc/PID/maps) and the stub that holds its pages.
 * The host keeps the page tables; skas tells the stub what to map. */
#ifndef MM_MM_H
#define MM_MM_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

#include "lib/list.h"
#include "vfs/vfs.h"

typedef uint64_t uaddr_t; /* a guest address: never a C pointer */

#define PAGE_SIZE	4096UL
#define PAGE_SHIFT	12
#define PAGE_MASK	(~(PAGE_SIZE - 1))
#define PAGE_ALIGN(x)	(((x) + PAGE_SIZE - 1) & PAGE_MASK)
#define PAGE_ALIGNED(x) (((x) & (PAGE_SIZE - 1)) == 0)
#define TASK_SIZE	0x7ffffffff000UL
#define MMAP_MIN_ADDR	4096UL

struct file;
struct pf_mm;
struct anon_shared;

enum {
	VMA_SHARED = 1 << 0,
	VMA_ANON = 1 << 1,
	VMA_STACK = 1 << 2,
	VMA_HEAP = 1 << 3,
	VMA_STUB = 1 << 4,	  /* the stub's pages: hidden, immovable */
	VMA_MAYWRITE = 1 << 5,	  /* shared, and may be made writable (its file is) */
	VMA_VDSO = 1 << 6,	  /* the host's vDSO code: [vdso] */
	VMA_VVAR = 1 << 7,	  /* its data pages: [vvar], never writable */
	VMA_VVAR_VCLOCK = 1 << 8, /* [vvar_vclock], likewise */
	/* Mapped MAP_GROWSDOWN: mprotect(PROT_GROWSDOWN) takes it as a stack.
	 * Differs from Linux: only the main stack grows on a fault. */
	VMA_GROWSDOWN = 1 << 9,
	/* mlock (mm/mlock.c): Linux's VM_LOCKED and VM_LOCKONFAULT. */
	VMA_LOCKED = 1 << 10,
	VMA_LOCKONFAULT = 1 << 11,
	/* Private, mapped MAP_NORESERVE while vm.overcommit_memory was not 2
	 * (Linux's VM_NORESERVE): not committed memory (mm/commit.h). */
	VMA_NORESERVE = 1 << 12,
	/* mseal (Linux's VM_SEALED): no unmap, move, resize, mapping over,
	 * protection change or discard of read-only anonymous memory. */
	VMA_SEALED = 1 << 13,
};

#define VMA_LOCK_MASK (VMA_LOCKED | VMA_LOCKONFAULT)

struct vma {
	struct list_head link; /* in mm->vmas, by address */
	uaddr_t start, end;
	int prot;	   /* LINUX_PROT_* */
	unsigned flags;	   /* VMA_* */
	struct file *file; /* owns a reference, or NULL */
	uint64_t off;	   /* file offset of start (shared anonymous: from its first page) */
	uint64_t anon_id;  /* a shared anonymous mapping's identity, kept by fork and
			    * splits (futex keys); 0 for others */
	/* Shared anonymous memory: the object it belongs to, counted once
	 * against --memory while any VMA holds it (owns a reference). */
	struct anon_shared *shared;
	uint64_t opened; /* the length file->ops->vma_open was told */
	/* mbind's NUMA policy (mm/mempolicy.h; a reference), NULL for the
	 * default: kept by splits, fork and mremap; merges need it equal. */
	struct mempolicy *policy;
};

struct mm {
	int refcount;
	uint64_t serial; /* unique for the instance's life (/proc/PID/mem) */
	struct pf_mm *pf;
	struct list_head vmas;
	int nvmas;
	/* The same VMAs by address in an array, for mm_find_vma's binary
	 * search (vidx_n of vidx_cap used); vidx_off once an allocation for
	 * it failed: the list walk serves from then on. */
	struct vma **vidx;
	int vidx_n, vidx_cap;
	bool vidx_off;
	/* The VMAs' sums that mm_recount applies, kept as VMAs come, go and
	 * change (vma_tally): committed, NORESERVE, mapped and data bytes. */
	uint64_t t_committed, t_noreserve, t_total, t_data;
	/* mm_unmapped_area's hint: below mmap_base down to gap_addr (0: no
	 * hint) no free gap is larger than gap_max bytes, so a search for
	 * more starts at gap_addr instead of walking down through them. */
	uaddr_t gap_addr;
	uint64_t gap_max;
	/* The last search's answer and the gaps it passed (gap_pend 0: none
	 * pending): the hint moves there only once a VMA is listed at that
	 * address and of that length, so a search whose mapping then fails
	 * moves nothing. */
	uaddr_t gap_pend, gap_pend_end;
	uint64_t gap_pend_max;
	/* The VMA mm_find_vma found last (a system call's copies look up the
	 * same few), or NULL; cleared when that VMA is freed. */
	struct vma *vma_cache;
	bool randomize;
	/* A vDSO part was ever mprotected (it may hold writes now): an exec
	 * does not recycle this stub (mm_create_recycled). Kept by fork. */
	bool vdso_dirty;
	/* Its vDSO's code is the copy whose clock_gettime makes the system
	 * call (mm_vdso_syscalls). Kept by fork. */
	bool vdso_syscalls;
	uaddr_t mmap_base;
	uaddr_t stack_top, start_stack;
	uint64_t stack_max; /* the most the stack VMA may grow to (RLIMIT_STACK at exec) */
	uaddr_t start_brk, brk;
	uaddr_t start_code, end_code, start_data, end_data;
	uaddr_t arg_start, arg_end, env_start, env_end;
	/* The auxiliary vector exec gave (/proc/PID/auxv, as Linux's
	 * saved_auxv: what the guest does to its copy does not show). */
	uint64_t saved_auxv[64];
	int nauxv;	 /* words in saved_auxv, AT_NULL's pair included */
	struct path exe; /* the executable (/proc/PID/exe), a reference */
	/* Private writable bytes, counted against --memory (mm/commit.h);
	 * recounted after every change to the VMAs. */
	uint64_t committed;
	/* Bytes of VMA_NORESERVE VMAs; while there are some, the mm is on the
	 * list whose stubs' resident memory is sampled, and resident is what
	 * the last sample found past committed. */
	uint64_t noreserve, resident;
	struct list_head sample_link;
	/* Pages mapped, and of them private writable ones that are not a
	 * stack (Linux's total_vm and data_vm): RLIMIT_AS and RLIMIT_DATA
	 * bound them. Recounted with committed. */
	uint64_t total_vm, data_vm;
	/* mlockall(MCL_FUTURE): the VMA_LOCK_MASK bits new mappings and the
	 * heap take (Linux's def_flags); not kept by fork or exec. */
	unsigned def_lock;
	/* membarrier registrations (MEMBARRIER_CMD_REGISTER_* bits, Linux's
	 * membarrier_state): kept by fork, not by exec. */
	unsigned membarrier_registered;
	unsigned membarrier_ready; /* those the commands may use */
	/* pkey_alloc took key 0 and could not give it (sys_pkey_alloc):
	 * kept by fork, not by exec. */
	bool pkey0_taken;
	/* PR_SET_THP_DISABLE: THP_ON, THP_OFF or THP_OFF_EXCEPT_ADVISED;
	 * kept by fork and exec (Linux's MMF_INIT_MASK). skas asks the host
	 * for no huge page for guest memory (madvise hints are not passed
	 * on), so every value holds; a host whose policy is "always" may
	 * still back it with huge pages. */
	unsigned char thp;
	/* PR_SET_MDWE's LINUX_PR_MDWE_* bits, set for good: with
	 * REFUSE_EXEC_GAIN no mapping is made or turned writable and
	 * executable, nor one turned executable (Linux's
	 * map_deny_write_exec); kept by fork and exec unless NO_INHERIT. */
	unsigned char mdwe;
	/* io_setup's contexts (vfs/aio.c): not kept by fork or exec. */
	struct aio_ctx *aio;
};

enum { THP_ON, THP_OFF, THP_OFF_EXCEPT_ADVISED };

/* A fresh address space holding only the stub; *out owns one reference. */
int mm_create(struct mm **out);
void mm_get(struct mm *mm);
/* A copy-on-write copy of src (fork): the host forks src's stub; -ENOMEM
 * if its committed memory does not fit under --memory. */
int mm_fork(struct mm *src, struct mm **out);
/* mseal(2) of [addr, addr + len), page-aligned and not empty: -ENOMEM if
 * a page of it is not mapped, else every VMA in it is sealed for good. */
int mm_seal(struct mm *mm, uaddr_t addr, size_t len);
void mm_put(struct mm *mm);
/* The calling thread, about to be put, is mm's last user: the stub need not
 * retire it first (platform mm_doom). */
void mm_last_thread(struct mm *mm);

struct vma *mm_find_vma(struct mm *mm, uaddr_t addr); /* first with end > addr */
/* Does any VMA intersect [start, end)? */
bool mm_range_used(struct mm *mm, uaddr_t start, uaddr_t end);
/* A free range of len bytes: hint if free and sane, else top-down from
 * mmap_base; -ENOMEM if none. */
long mm_unmapped_area(struct mm *mm, uaddr_t hint, size_t len);

/* Maps [addr, addr+len) replacing what is there (MAP_FIXED semantics).
 * file (may be NULL) gains a reference. vflags: VMA_*; host_flags for the
 * stub: MAP_SHARED/PRIVATE. Returns 0 or -errno. */
/* Linux's map_deny_write_exec: under MDWE, no new mapping (old_prot
 * prot) both writable and executable, and no mapping made executable
 * that was not. Asked where Linux's mmap_region and mprotect ask: mmap,
 * shmat, exec's segments, mprotect; not a stack's growth or mremap. */
bool mm_deny_write_exec(const struct mm *mm, int old_prot, int prot);
int mm_map(struct mm *mm, uaddr_t addr, size_t len, int prot, unsigned vflags, struct file *file,
	   uint64_t off);
int mm_unmap(struct mm *mm, uaddr_t addr, size_t len);
int mm_protect(struct mm *mm, uaddr_t addr, size_t len, int prot);
/* Moves/resizes the VMA at addr (mremap's core). */
long mm_remap(struct mm *mm, uaddr_t addr, size_t old_len, size_t new_len, unsigned flags,
	      uaddr_t new_addr);
/* The NUMA policies of the shared memory object v maps (a tmpfs file,
 * SysV shm or shared anonymous memory; mm/mempolicy.h), or NULL. */
struct shared_policy *vma_shared_policy(struct vma *v);

/* Places the host's vDSO that a fresh address space holds (platform's
 * vdso; a recycled one's at from, else 0) at a free range, as Linux's exec
 * does, with its VMAs; *ehdr: the address for AT_SYSINFO_EHDR, 0 if there
 * is none. */
int mm_map_vdso(struct mm *mm, uaddr_t *ehdr, uaddr_t from);
/* A task of mm's is in a time namespace (kernel/timens.h): the code of
 * its vDSO, if it has one whole, becomes a private copy whose
 * clock_gettime makes the system call (host_vdso_clock_syscall). Once;
 * nothing is done (a log line) where that copy cannot be made. */
void mm_vdso_syscalls(struct mm *mm);
/* Whether any part of a vDSO (its code or data) is mapped in mm. */
bool mm_has_vdso(struct mm *mm);
/* An exec's new mm on the stub of old, its only user (refcount 1, one
 * thread): the stub is emptied but for its vDSO (*vdso_from, for
 * mm_map_vdso; 0 if the host has none) and keeps its thread; old is left
 * without a stub. -EAGAIN if old cannot give its stub (shared, or its
 * vDSO no longer whole): the caller makes a new one. */
int mm_create_recycled(struct mm *old, struct mm **out, uaddr_t *vdso_from);
/* A fault (or a kernel access) at addr just below the stack VMA: grows
 * the stack down over it, as Linux does, within stack_max and a guard gap
 * above the VMA below. 0 if it grew; -EFAULT if addr is no stack address;
 * -ENOMEM over --memory. */
int mm_grow_stack(struct mm *mm, uaddr_t addr);

/* mlock (mm/mlock.c). Differs from Linux: the host pages are not pinned
 * (an unprivileged host process cannot) nor faulted in; the VMAs keep the
 * flags and the counts that the guest sees (VmLck, RLIMIT_MEMLOCK). */
/* Bytes of locked VMAs (Linux's locked_vm); all VMAs the guest sees
 * (total_vm). */
uint64_t mm_locked_bytes(struct mm *mm);
uint64_t mm_total_bytes(struct mm *mm);
/* Locked bytes in [start, start+len) (len may reach past the end). */
uint64_t mm_locked_in(struct mm *mm, uaddr_t start, uint64_t len);
/* Linux's apply_vma_lock_flags: lock (0 or VMA_LOCK_MASK bits) on every
 * VMA of [start, end), page aligned: 0, -EINVAL if end < start, -ENOMEM at
 * the first page not mapped (the VMAs before it done), or -ENOMEM when a
 * split is over vm.max_map_count. The vDSO's parts are never locked. */
int mm_lock_range(struct mm *mm, uaddr_t start, uaddr_t end, unsigned lock);
/* mlockall's and munlockall's apply_mlockall_flags: def_lock becomes
 * future, and every VMA takes current (failures to split are ignored). */
void mm_lock_all(struct mm *mm, unsigned current, unsigned future);

/* vm.max_map_count: more VMAs in one address space are ENOMEM. */
int mm_max_map_count(void);
void mm_set_max_map_count(int n);

/* Does a shared mapping of ino that may be made writable (VMA_MAYWRITE)
 * exist in mm? (F_SEAL_WRITE's EBUSY: Linux's i_mmap_writable.) */
bool mm_maps_writable(struct mm *mm, const struct inode *ino);

/* How many bytes from addr on are mapped with the access asked for. */
size_t mm_accessible(struct mm *mm, uaddr_t addr, size_t len, bool write);
/* madvise(2) over the VMAs in [addr, addr+len), on the host if host (never
 * on the stub's pages): 0; -ENOMEM when part of the range is not mapped
 * (the rest advised, as Linux); or the host's error. */
int mm_advise(struct mm *mm, uaddr_t addr, size_t len, int advice, bool host);
/* mincore(2) for pages pages from addr: fills vec up to the first page not
 * mapped and returns how many it filled. */
long mm_mincore(struct mm *mm, uaddr_t addr, size_t pages, unsigned char *vec);
/* How many pages of [start, end) are present in mm's stub, up to max (0:
 * all), its pending changes applied first (host_pagemap_present: the
 * zero page is not one where the host can tell), or -errno.
 * mm_pagemap_open gives a host fd (closed with host_close) for many
 * questions at once (host_pagemap_*), after a flush. */
long mm_pages_present(struct mm *mm, uaddr_t start, uaddr_t end, long max);
int mm_pagemap_open(struct mm *mm);

/* Writes n bytes of src at addr in mm, a private mapping the guest may
 * not write too (Linux's FOLL_FORCE: a debugger's breakpoint): 0 or
 * -EIO. */
int mm_write_force(struct mm *mm, uaddr_t addr, const void *src, size_t n);

#endif
