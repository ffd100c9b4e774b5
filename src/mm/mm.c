/* mm/mm.c: VMAs of a guest address space and the changes to them. Each
 * change updates the VMA list first and queues the matching host operation
 * for the stub (platform/), which runs it before the guest runs again. */
#include <stdlib.h>
#include <string.h>

#include "mm/mm.h"
#include "mm/commit.h"
#include "mm/internal.h"
#include "mm/mempolicy.h"
#include "mm/usercopy.h"
#include "platform/platform.h"
#include "stub/stub.h"
#include "vfs/denywrite.h"
#include "vfs/file.h"
#include "vfs/aio.h"
#include "vfs/namei.h"
#include "kernel/cred.h"
#include "kernel/log.h"
#include "kernel/sched.h"
#include "kernel/userns.h"
#include "kernel/task.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/misc.h"
#include "abi/linux/mman.h"

static uint64_t next_anon_id;	/* shared anonymous mappings made so far */
static uint64_t next_mm_serial; /* address spaces made so far */

/* A shared anonymous object: its size is counted once (mm/commit.h). */
struct anon_shared {
	int refcount;
	uint64_t bytes;
	struct shared_policy policy; /* mbind's, for every mapping of it */
};

static struct anon_shared *anon_shared_new(uint64_t bytes)
{
	struct anon_shared *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->refcount = 1;
	a->bytes = bytes;
	mem_account((int64_t)bytes);
	return a;
}

static void anon_shared_put(struct anon_shared *a)
{
	if (!a || --a->refcount > 0)
		return;
	mem_account(-(int64_t)a->bytes);
	mpol_shared_free(&a->policy);
	free(a);
}

struct shared_policy *vma_shared_policy(struct vma *v)
{
	if (v->shared)
		return &v->shared->policy;
	return v->file && v->file->ops->shared_policy ? v->file->ops->shared_policy(v->file) : NULL;
}

/* Bytes of v that are committed memory: private and writable. */
static uint64_t vma_committed(const struct vma *v)
{
	if (v->flags & (VMA_SHARED | VMA_STUB | VMA_NORESERVE) || !(v->prot & LINUX_PROT_WRITE))
		return 0;
	return v->end - v->start;
}

/* Bytes of the VMAs in [start, end) that counts says count (prot: its
 * argument, a protection to come). */
static uint64_t range_bytes(struct mm *mm, uaddr_t start, uaddr_t end,
			    bool (*counts)(const struct vma *v, int prot), int prot)
{
	uint64_t sum = 0;
	struct vma *v;

	for (v = mm_find_vma(mm, start); v && &v->link != &mm->vmas && v->start < end;
	     v = list_entry(v->link.next, struct vma, link)) {
		if (counts(v, prot))
			sum += (v->end < end ? v->end : end) -
			       (v->start > start ? v->start : start);
	}
	return sum;
}

static bool is_committed(const struct vma *v, int prot)
{
	(void)prot;
	return vma_committed(v) != 0;
}

/* Committed bytes of the VMAs in [start, end). */
static uint64_t range_committed(struct mm *mm, uaddr_t start, uaddr_t end)
{
	return range_bytes(mm, start, end, is_committed, 0);
}

/* Can [start, end) become committed (want bytes) in mm? */
static bool commit_fits(struct mm *mm, uaddr_t start, uaddr_t end, uint64_t want)
{
	uint64_t have = range_committed(mm, start, end);

	return want <= have || mem_fits(want - have);
}

/* Address spaces with VMA_NORESERVE memory: what their stubs hold is not
 * committed, so the host is asked how much anonymous memory each stub has
 * resident, and what it has past its committed bytes counts against
 * --memory (mm/commit.h) until the next sample. Counted from RssAnon, so
 * pages a fork left shared count in both stubs, as committed memory does.
 * Sampled every SAMPLE_NS, or less often when sampling takes longer, so
 * that it costs the kernel at most 1/SAMPLE_COST of its time. */
#define SAMPLE_NS   100000000LL
#define SAMPLE_COST 50
static LIST_HEAD_DECL(sampled);
static struct ktimer sample_timer;

static void sample_resident(void *arg)
{
	int64_t start = sched_now_ns(), took;
	uint64_t total = 0;
	struct host_rss rss;
	struct mm *mm;
	uint64_t anon;

	(void)arg;
	list_for_each_entry(mm, &sampled, sample_link)
	{
		host_proc_rss(platform->mm_host_pid(mm->pf), &rss);
		anon = rss.anon_kb > 0 ? (uint64_t)rss.anon_kb << 10 : 0;
		mm->resident = anon > mm->committed ? anon - mm->committed : 0;
		total += mm->resident;
	}
	took = sched_now_ns() - start;
	if (!list_empty(&sampled))
		ktimer_arm(
			&sample_timer,
			start + (took * SAMPLE_COST > SAMPLE_NS ? took * SAMPLE_COST : SAMPLE_NS),
			sample_resident, NULL);
	mem_set_resident(total);
}

/* mm joins or leaves the sampled list as it gains or loses its last
 * VMA_NORESERVE memory (or goes). */
static void sample_track(struct mm *mm, bool on)
{
	struct mm *o;
	uint64_t total = 0;

	if (on == !list_empty(&mm->sample_link))
		return;
	if (on) {
		/* Before the stub maps it (the host op is queued): the host
		 * would count it against the stub's RLIMIT_DATA backstop. */
		host_stub_data_unlimit(platform->mm_host_pid(mm->pf));
		list_add_tail(&mm->sample_link, &sampled);
		if (!sample_timer.armed)
			ktimer_arm(&sample_timer, sched_now_ns() + SAMPLE_NS, sample_resident,
				   NULL);
		return;
	}
	list_del(&mm->sample_link);
	list_init(&mm->sample_link);
	mm->resident = 0;
	list_for_each_entry(o, &sampled, sample_link) total += o->resident;
	mem_set_resident(total);
	if (list_empty(&sampled))
		ktimer_cancel(&sample_timer);
}

/* Linux's is_data_mapping: private, writable, not a stack. */
static bool is_data(unsigned flags, int prot)
{
	return (prot & LINUX_PROT_WRITE) &&
	       !(flags & (VMA_SHARED | VMA_STACK | VMA_GROWSDOWN | VMA_STUB));
}

/* Linux's may_expand_vm: may mm map npages more pages of a mapping with
 * flags and prot under the calling process's RLIMIT_AS and RLIMIT_DATA
 * (as Linux reads current's: exec builds the new address space under the
 * caller's limits too)? */
static bool may_expand(const struct mm *mm, unsigned flags, int prot, uint64_t npages)
{
	uint64_t as, data;

	if (!current || !current->proc)
		return true;
	as = current->proc->rlim[LINUX_RLIMIT_AS].rlim_cur >> PAGE_SHIFT;
	data = current->proc->rlim[LINUX_RLIMIT_DATA].rlim_cur >> PAGE_SHIFT;
	if (mm->total_vm + npages > as)
		return false;
	return !is_data(flags, prot) || mm->data_vm + npages <= data;
}

static bool is_mapped(const struct vma *v, int prot)
{
	(void)prot;
	return !(v->flags & VMA_STUB);
}

/* Pages of the VMAs in [start, end) (the stub's are never in a range). */
static uint64_t range_pages(struct mm *mm, uaddr_t start, uaddr_t end)
{
	return range_bytes(mm, start, end, is_mapped, 0) >> PAGE_SHIFT;
}

/* v's part of mm's sums, added (sign 1) or taken out (-1): around every
 * change of a listed VMA's range, protection or flags, so that mm_recount
 * needs no walk (it cost O(VMAs) per mmap, mprotect and munmap: 166 us a
 * call at 10000 VMAs). */
static void vma_tally(struct mm *mm, const struct vma *v, int sign)
{
	uint64_t len = v->end - v->start;

	mm->t_committed += (uint64_t)sign * vma_committed(v);
	if (v->flags & VMA_NORESERVE)
		mm->t_noreserve += (uint64_t)sign * len;
	if (v->flags & VMA_STUB)
		return;
	mm->t_total += (uint64_t)sign * len;
	if (is_data(v->flags, v->prot))
		mm->t_data += (uint64_t)sign * len;
}

/* Under the sanitizers the sums are checked against a walk at every use. */
static void tally_check(struct mm *mm)
{
#if defined(__SANITIZE_ADDRESS__)
	uint64_t sum = 0, noreserve = 0, total = 0, data = 0;
	struct vma *v;

	list_for_each_entry(v, &mm->vmas, link)
	{
		sum += vma_committed(v);
		if (v->flags & VMA_NORESERVE)
			noreserve += v->end - v->start;
		if (v->flags & VMA_STUB)
			continue;
		total += v->end - v->start;
		if (is_data(v->flags, v->prot))
			data += v->end - v->start;
	}
	if (sum != mm->t_committed || noreserve != mm->t_noreserve || total != mm->t_total ||
	    data != mm->t_data)
		panic("mm: VMA sums %llu/%llu/%llu/%llu, walk %llu/%llu/%llu/%llu",
		      (unsigned long long)mm->t_committed, (unsigned long long)mm->t_noreserve,
		      (unsigned long long)mm->t_total, (unsigned long long)mm->t_data,
		      (unsigned long long)sum, (unsigned long long)noreserve,
		      (unsigned long long)total, (unsigned long long)data);
#else
	(void)mm;
#endif
}

/* Brings mm->committed and the instance's count in line with the VMAs. */
static void mm_recount(struct mm *mm)
{
	uint64_t sum = mm->t_committed, noreserve = mm->t_noreserve;

	tally_check(mm);
	mm->total_vm = mm->t_total >> PAGE_SHIFT;
	mm->data_vm = mm->t_data >> PAGE_SHIFT;
	mem_account((int64_t)sum - (int64_t)mm->committed);
	mm->committed = sum;
	mm->noreserve = noreserve;
	sample_track(mm, noreserve != 0);
}

/* VMAs freed, kept for the next: a fork copies and an exit frees dozens at
 * once, past what malloc keeps at hand per size (7), so they went through
 * its bins each time (~100 VMAs per fork, exec and exit of a small
 * program). Linked by link.next. Not under ASan, which is to see every use
 * after a free. */
#if defined(__SANITIZE_ADDRESS__)
#define VMA_POOL_MAX 0
#else
#define VMA_POOL_MAX 512
#endif
static struct vma *vma_pool;
static int vma_pool_n;

/* What a VMA holds: ours, and the host's for the stub's mapping (Linux's
 * vm_area_struct is ~200 bytes, charged to the memcg): counted against
 * --memory, so that the VMAs of many processes at vm.max_map_count (4096
 * x 65530) are not kernel memory nothing bounds. */
#define VMA_CHARGE 256
_Static_assert(sizeof(struct vma) <= VMA_CHARGE, "VMA_CHARGE");

/* over: counted even past --memory (a split that frees memory: munmap
 * must not fail for want of the 256 bytes it gives back at once). */
static struct vma *vma_new_over(uaddr_t start, uaddr_t end, int prot, unsigned flags,
				struct file *file, uint64_t off, bool over)
{
	struct vma *v = vma_pool;

	if (over)
		mem_take_kernel_over(VMA_CHARGE);
	else if (!mem_take_kernel(VMA_CHARGE))
		return NULL;
	if (v) {
		vma_pool = (struct vma *)v->link.next;
		vma_pool_n--;
		*v = (struct vma){ 0 };
	} else {
		v = calloc(1, sizeof(*v));
		if (!v) {
			mem_give_kernel(VMA_CHARGE);
			return NULL;
		}
	}
	v->start = start;
	v->end = end;
	v->prot = prot;
	v->flags = flags;
	v->file = file;
	v->off = off;
	if (file) {
		file_get(file);
		v->opened = end - start;
		if (file->ops->vma_open)
			file->ops->vma_open(file, v->opened);
	}
	return v;
}

static struct vma *vma_new(uaddr_t start, uaddr_t end, int prot, unsigned flags, struct file *file,
			   uint64_t off)
{
	return vma_new_over(start, end, prot, flags, file, off, false);
}

/* A VMA from vma_new that never went on the list (or has left it). */
static void vma_discard(struct vma *v)
{
	if (v->file && v->file->ops->vma_close)
		v->file->ops->vma_close(v->file, v->opened);
	file_put(v->file);
	anon_shared_put(v->shared);
	mpol_put(v->policy);
	mem_give_kernel(VMA_CHARGE);
	if (vma_pool_n < VMA_POOL_MAX) {
		v->link.next = (struct list_head *)vma_pool;
		vma_pool = v;
		vma_pool_n++;
		return;
	}
	free(v);
}

/* The index beside the list (mm.h): the list walk mm_find_vma did cost
 * ~15 us a call at 10000 VMAs, since a buffer on the stack is in the
 * list's last VMA. Starts never change while a VMA is listed (a split
 * lists a new one, a merge unlists one), so the array stays sorted. */
static int vidx_upper(const struct mm *mm, uaddr_t addr)
{
	int lo = 0, hi = mm->vidx_n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (mm->vidx[mid]->start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo; /* the first with start > addr */
}

static void vidx_add(struct mm *mm, struct vma *v)
{
	int i;

	if (mm->vidx_off)
		return;
	if (mm->vidx_n == mm->vidx_cap) {
		int cap = mm->vidx_cap ? mm->vidx_cap * 2 : 32;
		struct vma **n = realloc(mm->vidx, (size_t)cap * sizeof(*n));

		if (!n) {
			free(mm->vidx);
			mm->vidx = NULL;
			mm->vidx_n = mm->vidx_cap = 0;
			mm->vidx_off = true;
			return;
		}
		mm->vidx = n;
		mm->vidx_cap = cap;
	}
	i = vidx_upper(mm, v->start);
	memmove(&mm->vidx[i + 1], &mm->vidx[i], (size_t)(mm->vidx_n - i) * sizeof(*mm->vidx));
	mm->vidx[i] = v;
	mm->vidx_n++;
}

static void vidx_del(struct mm *mm, struct vma *v)
{
	int i;

	if (mm->vidx_off)
		return;
	i = vidx_upper(mm, v->start) - 1;
	if (i < 0 || mm->vidx[i] != v)
		panic("mm: VMA %#llx-%#llx not in the index", (unsigned long long)v->start,
		      (unsigned long long)v->end);
	memmove(&mm->vidx[i], &mm->vidx[i + 1], (size_t)(mm->vidx_n - i - 1) * sizeof(*mm->vidx));
	mm->vidx_n--;
}

/* v leaves the list: the free gap around it (with its neighbours' ends)
 * may lie in mm_unmapped_area's hinted range. One reaching below the
 * range shrinks the range to above it; one inside raises gap_max. */
static void gap_opened(struct mm *mm, const struct vma *v)
{
	const struct vma *p = list_entry(v->link.prev, struct vma, link);
	const struct vma *n = list_entry(v->link.next, struct vma, link);
	uaddr_t lo = &p->link != &mm->vmas ? p->end : 0;
	uaddr_t hi = &n->link != &mm->vmas ? n->start : TASK_SIZE;

	mm->gap_pend = 0; /* its search did not see this gap */
	if (!mm->gap_addr || lo >= mm->mmap_base || hi <= mm->gap_addr || lo >= hi)
		return;
	if (hi > mm->mmap_base)
		hi = mm->mmap_base;
	if (lo < mm->gap_addr)
		mm->gap_addr = hi < mm->mmap_base ? hi : 0;
	else if (hi - lo > mm->gap_max)
		mm->gap_max = hi - lo;
}

static void vma_free(struct mm *mm, struct vma *v)
{
	if (mm->vma_cache == v)
		mm->vma_cache = NULL;
	gap_opened(mm, v);
	vidx_del(mm, v);
	vma_tally(mm, v, -1);
	list_del(&v->link);
	mm->nvmas--;
	vma_discard(v);
}

/* tail continues v: its shared anonymous object, if any, and its NUMA
 * policy. */
static void vma_share(struct vma *tail, const struct vma *v)
{
	tail->shared = v->shared;
	if (v->shared)
		v->shared->refcount++;
	tail->policy = v->policy;
	mpol_get(v->policy);
}

static void vma_insert(struct mm *mm, struct vma *v)
{
	struct vma *pos = mm_find_vma(mm, v->start);

	mm->nvmas++;
	vidx_add(mm, v);
	vma_tally(mm, v, 1);
	if (mm->gap_pend && v->start == mm->gap_pend && v->end == mm->gap_pend_end) {
		mm->gap_addr = mm->gap_pend;
		mm->gap_max = mm->gap_pend_max;
		mm->gap_pend = 0;
	}
	/* Before the first VMA that ends above its start (none overlaps). */
	list_add_tail(&v->link, pos ? &pos->link : &mm->vmas);
}

/* A new mm on pf (taken over), with the stub's VMA. */
static int mm_alloc(struct pf_mm *pf, struct mm **out)
{
	struct mm *mm = calloc(1, sizeof(*mm));
	struct vma *stub;

	if (!mm)
		return -ENOMEM;
	mm->refcount = 1;
	mm->serial = ++next_mm_serial;
	list_init(&mm->vmas);
	list_init(&mm->sample_link);
	mm->pf = pf;
	stub = vma_new(STUB_BASE, STUB_END, LINUX_PROT_READ | LINUX_PROT_EXEC, VMA_STUB, NULL, 0);
	if (!stub) {
		free(mm);
		return -ENOMEM;
	}
	vma_insert(mm, stub);
	*out = mm;
	return 0;
}

int mm_create(struct mm **out)
{
	struct pf_mm *pf;
	int ret = platform->mm_new(&pf);

	if (ret < 0)
		return ret;
	ret = mm_alloc(pf, out);
	if (ret < 0)
		platform->mm_put(pf);
	return ret;
}

bool mm_has_vdso(struct mm *mm)
{
	struct vma *v;

	list_for_each_entry(v, &mm->vmas, link)
	{
		if (v->flags & (VMA_VDSO | VMA_VVAR | VMA_VVAR_VCLOCK))
			return true;
	}
	return false;
}

/* Where mm's vDSO is, if it is whole as an exec placed it (the guest may
 * have unmapped or moved parts of it): 0 and *base, else -ENOENT. */
static int vdso_whole(struct mm *mm, const struct pf_vdso *vd, uaddr_t *base)
{
	struct vma *v;
	uaddr_t b = 0;
	int i;

	list_for_each_entry(v, &mm->vmas, link)
	{
		if (v->flags & VMA_VDSO) {
			b = v->start - vd->ehdr_off;
			break;
		}
	}
	if (!b)
		return -ENOENT;
	for (i = 0; i < vd->nparts; i++) {
		v = mm_find_vma(mm, b + vd->part[i].off);
		if (!v || v->start != b + vd->part[i].off ||
		    v->end != b + vd->part[i].off + vd->part[i].len ||
		    !(v->flags & (VMA_VVAR | VMA_VVAR_VCLOCK | VMA_VDSO)))
			return -ENOENT;
	}
	*base = b;
	return 0;
}

int mm_create_recycled(struct mm *old, struct mm **out, uaddr_t *vdso_from)
{
	const struct pf_vdso *vd = platform->vdso ? platform->vdso() : NULL;
	uaddr_t base = 0;
	int ret;

	if (old->refcount != 1 || !old->pf || !platform->mm_recycle || old->vdso_dirty ||
	    (vd && vdso_whole(old, vd, &base) < 0))
		return -EAGAIN;
	ret = mm_alloc(old->pf, out);
	if (ret < 0)
		return ret;
	ret = platform->mm_recycle(old->pf, base, vd ? vd->size : 0);
	if (ret < 0) {
		(*out)->pf = NULL;
		mm_put(*out);
		return ret;
	}
	old->pf = NULL; /* mm_put(old) leaves the stub alone */
	*vdso_from = base;
	return 0;
}

void mm_get(struct mm *mm)
{
	mm->refcount++;
}

void mm_last_thread(struct mm *mm)
{
	if (mm->refcount == 1 && platform->mm_doom)
		platform->mm_doom(mm->pf);
}

void mm_put(struct mm *mm)
{
	struct vma *v, *n;

	if (!mm || --mm->refcount > 0)
		return;
	aio_exit(mm);
	/* No index to keep while all go (O(VMAs^2) moves otherwise). */
	free(mm->vidx);
	mm->vidx = NULL;
	mm->vidx_n = mm->vidx_cap = 0;
	mm->vidx_off = true;
	list_for_each_entry_safe(v, n, &mm->vmas, link) vma_free(mm, v);
	mem_account(-(int64_t)mm->committed);
	sample_track(mm, false);
	if (mm->exe.dentry) /* its image runs no more */
		write_access_allow(mm->exe.dentry->inode->dev, mm->exe.dentry->inode->ino);
	path_put(&mm->exe);
	platform->mm_put(mm->pf);
	free(mm);
}

/* The first VMA that ends above addr. VMAs are sorted and disjoint, so a
 * VMA that holds addr is that one. */
struct vma *mm_find_vma(struct mm *mm, uaddr_t addr)
{
	struct vma *v = mm->vma_cache;
	int i;

	if (v && v->start <= addr && addr < v->end)
		return v;
	if (!mm->vidx_off) {
		i = vidx_upper(mm, addr);
		if (i > 0 && mm->vidx[i - 1]->end > addr)
			i--; /* holds addr */
		if (i == mm->vidx_n)
			return NULL;
		v = mm->vidx[i];
		if (v->start <= addr)
			mm->vma_cache = v;
		return v;
	}
	list_for_each_entry(v, &mm->vmas, link)
	{
		if (v->end > addr) {
			if (v->start <= addr)
				mm->vma_cache = v;
			return v;
		}
	}
	return NULL;
}

bool mm_range_used(struct mm *mm, uaddr_t start, uaddr_t end)
{
	struct vma *v = mm_find_vma(mm, start);

	return v && v->start < end;
}

static bool range_ok(uaddr_t addr, size_t len)
{
	return addr >= MMAP_MIN_ADDR && len <= TASK_SIZE && addr <= TASK_SIZE - len;
}

/* The top-down search chose addr, passing over gaps of at most seen
 * bytes above it: from there to mmap_base is the new hinted range once
 * a VMA is listed at addr (vma_insert). */
static long unmapped_found(struct mm *mm, uaddr_t addr, size_t len, uint64_t seen)
{
	mm->gap_pend = addr;
	mm->gap_pend_end = addr + len;
	mm->gap_pend_max = seen;
	return (long)addr;
}

long mm_unmapped_area(struct mm *mm, uaddr_t hint, size_t len)
{
	uaddr_t high = mm->mmap_base, gap_end, gap_start;
	uint64_t seen;
	struct vma *v;

	if (len > TASK_SIZE - MMAP_MIN_ADDR)
		return -ENOMEM;
	if (hint) {
		hint = PAGE_ALIGN(hint);
		if (range_ok(hint, len) && !mm_range_used(mm, hint, hint + len))
			return (long)hint;
	}
	/* Top-down below mmap_base, as Linux's default layout; from the hint
	 * (mm.h) when every gap above it is too small: a walk down through
	 * 10000 VMAs cost ~100 us per mmap. */
	gap_end = high;
	seen = 0;
	if (mm->gap_addr && mm->gap_addr <= high && len > mm->gap_max) {
		gap_end = mm->gap_addr;
		seen = mm->gap_max;
	}
	if (!mm->vidx_off) {
		int i = vidx_upper(mm, gap_end - 1);

		v = i > 0 ? mm->vidx[i - 1] : list_entry(&mm->vmas, struct vma, link);
	} else {
		v = list_entry(mm->vmas.prev, struct vma, link);
	}
	for (; &v->link != &mm->vmas; v = list_entry(v->link.prev, struct vma, link)) {
		if (v->start >= gap_end)
			continue;
		gap_start = v->end;
		if (gap_start < gap_end && gap_end - gap_start >= len)
			return unmapped_found(mm, gap_end - len, len, seen);
		if (gap_start < gap_end && gap_end - gap_start > seen)
			seen = gap_end - gap_start;
		gap_end = v->start;
	}
	if (gap_end >= MMAP_MIN_ADDR + len)
		return unmapped_found(mm, gap_end - len, len, seen);
	/* Then bottom-up above mmap_base. */
	gap_start = PAGE_ALIGN(high);
	list_for_each_entry(v, &mm->vmas, link)
	{
		if (v->end <= gap_start)
			continue;
		if (v->start >= gap_start && v->start - gap_start >= len)
			return (long)gap_start;
		gap_start = v->end;
	}
	if (gap_start <= TASK_SIZE - len)
		return (long)gap_start;
	return -ENOMEM;
}

/* Linux's vm.max_map_count (/proc/sys/vm/max_map_count, 65530): more
 * VMAs would be kernel memory and list walks a guest could grow at will. */
static int max_map_count = 65530;

int mm_max_map_count(void)
{
	return max_map_count;
}

void mm_set_max_map_count(int n)
{
	max_map_count = n;
}

/* Splits v at addr (inside it): v keeps [start, addr), a new VMA the rest;
 * over: vma_new_over's. */
static int vma_split_over(struct mm *mm, struct vma *v, uaddr_t addr, bool over)
{
	/* The vDSO's parts are the host's special mappings, which never
	 * split (Linux's special_mapping_split): a partial munmap, mprotect,
	 * mremap or MAP_FIXED over one is EINVAL, in the kernel as on the
	 * host, and both keep the whole mapping. */
	if (v->flags & (VMA_VDSO | VMA_VVAR | VMA_VVAR_VCLOCK))
		return -EINVAL;
	if (mm->nvmas >= max_map_count)
		return -ENOMEM;
	struct vma *tail =
		vma_new_over(addr, v->end, v->prot, v->flags, v->file,
			     v->file || v->anon_id ? v->off + (addr - v->start) : 0, over);

	if (!tail)
		return -ENOMEM;
	tail->anon_id = v->anon_id;
	vma_share(tail, v);
	vma_tally(mm, v, -1);
	v->end = addr;
	vma_tally(mm, v, 1);
	list_add(&tail->link, &v->link);
	vidx_add(mm, tail);
	vma_tally(mm, tail, 1);
	mm->nvmas++;
	return 0;
}

int vma_split(struct mm *mm, struct vma *v, uaddr_t addr)
{
	return vma_split_over(mm, v, addr, false);
}

int vma_isolate(struct mm *mm, struct vma **v, uaddr_t start, uaddr_t end)
{
	int ret;

	if ((*v)->start < start) {
		ret = vma_split(mm, *v, start);
		if (ret < 0)
			return ret;
		*v = list_entry((*v)->link.next, struct vma, link);
	}
	return (*v)->end > end ? vma_split(mm, *v, end) : 0;
}

/* Splits the VMAs straddling start and end, so that each VMA is then wholly
 * inside or outside [start, end); over: vma_new_over's. */
static int vmas_split_edges(struct mm *mm, uaddr_t start, uaddr_t end, bool over)
{
	struct vma *v = mm_find_vma(mm, start);
	int ret;

	if (v && v->start < start) {
		ret = vma_split_over(mm, v, start, over);
		if (ret < 0)
			return ret;
	}
	v = mm_find_vma(mm, end);
	if (v && v->start < end && v->end > end)
		return vma_split_over(mm, v, end, over);
	return 0;
}

/* Removes [start, end) from the VMA list. The index loses the range's
 * entries in one move, not one each (each removal moved the rest: a
 * munmap or exit of 60000 VMAs held the kernel for up to a second). */
static int vmas_remove(struct mm *mm, uaddr_t start, uaddr_t end)
{
	struct vma *v, *n;
	int ret = vmas_split_edges(mm, start, end, true), i0 = 0, i1 = 0;
	bool idx = !mm->vidx_off;

	if (ret < 0)
		return ret;
	v = mm_find_vma(mm, start); /* with the index, before it is set aside */
	if (idx) {
		i0 = start ? vidx_upper(mm, start - 1) : 0;
		i1 = vidx_upper(mm, end - 1);
		mm->vidx_off = true;
	}
	for (; v && &v->link != &mm->vmas && v->start < end; v = n) {
		n = list_entry(v->link.next, struct vma, link);
		if (v->start >= start)
			vma_free(mm, v);
	}
	if (idx) {
		memmove(&mm->vidx[i0], &mm->vidx[i1],
			(size_t)(mm->vidx_n - i1) * sizeof(*mm->vidx));
		mm->vidx_n -= i1 - i0;
		mm->vidx_off = false;
	}
	return 0;
}

static bool overlaps_stub(uaddr_t start, uaddr_t end)
{
	return start < STUB_END && end > STUB_BASE;
}

/* A VMA in [start, end) is sealed (mseal): what would unmap, replace or
 * move it is EPERM, before anything changes. */
static bool range_sealed(struct mm *mm, uaddr_t start, uaddr_t end)
{
	struct vma *v;

	for (v = mm_find_vma(mm, start); v && &v->link != &mm->vmas && v->start < end;
	     v = list_entry(v->link.next, struct vma, link))
		if (v->flags & VMA_SEALED)
			return true;
	return false;
}

static int host_prot(int prot)
{
	return prot & (LINUX_PROT_READ | LINUX_PROT_WRITE | LINUX_PROT_EXEC);
}

bool vma_continues(const struct vma *a, const struct vma *b)
{
	return a->end == b->start && a->prot == b->prot && a->flags == b->flags &&
	       a->file == b->file && a->anon_id == b->anon_id && a->shared == b->shared &&
	       mpol_equal(a->policy, b->policy) &&
	       (!(a->file || a->anon_id) || b->off == a->off + (a->end - a->start)) &&
	       !(a->flags & VMA_STUB);
}

/* Merges v with its neighbours when they continue each other (never
 * VMAs whose file counts them, as Linux never merges those). */
void vma_try_merge(struct mm *mm, struct vma *v)
{
	struct vma *p = list_entry(v->link.prev, struct vma, link);
	struct vma *n = list_entry(v->link.next, struct vma, link);

	if (v->file && v->file->ops->vma_close)
		return;
	if (&n->link != &mm->vmas && vma_continues(v, n)) {
		vma_tally(mm, v, -1);
		v->end = n->end;
		vma_tally(mm, v, 1);
		vma_free(mm, n);
	}
	if (&p->link != &mm->vmas && vma_continues(p, v)) {
		vma_tally(mm, p, -1);
		p->end = v->end;
		vma_tally(mm, p, 1);
		vma_free(mm, v);
	}
}

static int do_map(struct mm *mm, uaddr_t addr, size_t len, int prot, unsigned vflags,
		  struct file *file, uint64_t off)
{
	struct anon_shared *shared = NULL;
	struct vma *v;
	int host_fd = -1, flags, ret;

	if (!range_ok(addr, len) || overlaps_stub(addr, addr + len))
		return -ENOMEM;
	if (file && file->ops->mmap_file)
		file = file->ops->mmap_file(file);
	if (file) {
		host_fd = file_op_mmap_fd(file);
		if (host_fd < 0)
			return host_fd;
	}
	if (mm->nvmas >= max_map_count)
		return -ENOMEM;
	/* A sealed VMA (mseal) is not mapped over. */
	if (range_sealed(mm, addr, addr + len))
		return -EPERM;
	/* RLIMIT_AS, RLIMIT_DATA: the pages it adds to what is there. */
	if (!may_expand(mm, vflags, prot, (len >> PAGE_SHIFT) - range_pages(mm, addr, addr + len)))
		return -ENOMEM;
	/* Over --memory: ENOMEM before anything changes. */
	if (!commit_fits(mm, addr, addr + len,
			 ((vflags & (VMA_SHARED | VMA_NORESERVE)) ? 0
			  : (prot & LINUX_PROT_WRITE)		  ? len
								  : 0) +
				 ((vflags & VMA_SHARED) && !file ? len : 0)))
		return -ENOMEM;
	if ((vflags & VMA_SHARED) && !file) {
		shared = anon_shared_new(len);
		if (!shared)
			return -ENOMEM;
	}
	/* The new VMA before the old ones go: a failure leaves the range as
	 * it was, in the kernel and on the host alike. */
	v = vma_new(addr, addr + len, prot, vflags | (file ? 0 : VMA_ANON), file, file ? off : 0);
	if (!v) {
		anon_shared_put(shared);
		return -ENOMEM;
	}
	v->shared = shared;
	ret = vmas_remove(mm, addr, addr + len);
	if (ret < 0) {
		vma_discard(v);
		return ret;
	}
	if (!file && (vflags & VMA_SHARED))
		v->anon_id = ++next_anon_id;
	vma_insert(mm, v);
	flags = (vflags & VMA_SHARED) ? LINUX_MAP_SHARED : LINUX_MAP_PRIVATE;
	if (!file)
		flags |= LINUX_MAP_ANONYMOUS;
	flags |= LINUX_MAP_NORESERVE;
	ret = platform->mm_map(mm->pf, addr, len, host_prot(prot), flags, host_fd, off);
	if (ret < 0)
		return ret;
	vma_try_merge(mm, v);
	return 0;
}

bool mm_deny_write_exec(const struct mm *mm, int old_prot, int prot)
{
	if (!(mm->mdwe & LINUX_PR_MDWE_REFUSE_EXEC_GAIN) || !(prot & LINUX_PROT_EXEC))
		return false;
	return (prot & LINUX_PROT_WRITE) || !(old_prot & LINUX_PROT_EXEC);
}

int mm_map(struct mm *mm, uaddr_t addr, size_t len, int prot, unsigned vflags, struct file *file,
	   uint64_t off)
{
	int ret = do_map(mm, addr, len, prot, vflags, file, off);

	mm_recount(mm);
	return ret;
}

int mm_unmap(struct mm *mm, uaddr_t addr, size_t len)
{
	int ret;

	/* A sealed VMA anywhere in the range: nothing goes (an empty or
	 * wrapping range has none). */
	if (range_sealed(mm, addr, addr + len))
		return -EPERM;
	/* The stub's range is no part of the guest's address space: an
	 * unmap across it unmaps what lies either side, as Linux unmaps a
	 * range with holes (a stub of skas inside skas clears everything
	 * above its own place so, the outer stub's range included). */
	if (overlaps_stub(addr, addr + len)) {
		uaddr_t end = addr + len;

		if (len == 0 || end < addr)
			return -EINVAL;
		ret = addr < STUB_BASE ? mm_unmap(mm, addr, STUB_BASE - addr) : 0;
		if (ret == 0 && end > STUB_END)
			ret = mm_unmap(mm, STUB_END, end - STUB_END);
		return ret;
	}
	if (!mm_range_used(mm, addr, addr + len))
		return 0;
	ret = vmas_remove(mm, addr, addr + len);
	mm_recount(mm);
	if (ret < 0)
		return ret;
	return platform->mm_unmap(mm->pf, addr, len);
}

static int do_protect(struct mm *mm, uaddr_t addr, size_t len, int prot);

static bool turns_data(const struct vma *v, int prot)
{
	return !is_data(v->flags, v->prot) && is_data(v->flags, prot);
}

/* Pages of [start, end) that are not data now and would be with prot. */
static uint64_t data_turning(struct mm *mm, uaddr_t start, uaddr_t end, int prot)
{
	return range_bytes(mm, start, end, turns_data, prot) >> PAGE_SHIFT;
}

int mm_protect(struct mm *mm, uaddr_t addr, size_t len, int prot)
{
	int ret = do_protect(mm, addr, len, prot);

	mm_recount(mm);
	return ret;
}

static int do_protect(struct mm *mm, uaddr_t addr, size_t len, int prot)
{
	bool vdso = false;
	uint64_t want = 0;
	uaddr_t end = addr + len, at = addr;
	struct vma *v;
	int ret;

	if (overlaps_stub(addr, end))
		return -ENOMEM;
	/* Every page must be mapped, and a shared one allowed to become writable. */
	for (v = mm_find_vma(mm, addr); at < end; v = list_entry(v->link.next, struct vma, link)) {
		if (!v || &v->link == &mm->vmas || v->start > at)
			return -ENOMEM;
		if ((prot & LINUX_PROT_WRITE) && (v->flags & VMA_SHARED) &&
		    !(v->flags & VMA_MAYWRITE))
			return -EACCES;
		/* The vDSO's data pages are read-only for good, as in Linux. */
		if ((prot & (LINUX_PROT_WRITE | LINUX_PROT_EXEC)) &&
		    (v->flags & (VMA_VVAR | VMA_VVAR_VCLOCK)))
			return -EACCES;
		if ((prot & LINUX_PROT_WRITE) && !(v->flags & (VMA_SHARED | VMA_NORESERVE)))
			want += (v->end < end ? v->end : end) - (v->start > at ? v->start : at);
		/* Differs from Linux, which changes the VMAs before a
		 * sealed one (or one MDWE refuses): nothing changes. */
		if (v->flags & VMA_SEALED)
			return -EPERM;
		if (mm_deny_write_exec(mm, v->prot, prot))
			return -EACCES;
		if (v->flags & (VMA_VDSO | VMA_VVAR | VMA_VVAR_VCLOCK))
			vdso = true;
		at = v->end;
	}
	/* Differs from Linux: a private mapping made read-only stops counting
	 * (Linux keeps VM_ACCOUNT once set). */
	if (!commit_fits(mm, addr, end, want))
		return -ENOMEM;
	/* What becomes data must fit RLIMIT_DATA (Linux's mprotect_fixup). */
	if (!may_expand(mm, 0, prot, data_turning(mm, addr, end, prot)))
		return -ENOMEM;
	/* The vDSO is the host's special mapping: the host says whether it
	 * may change (a sealed one may not), at once. */
	if (vdso) {
		ret = platform->mm_protect(mm->pf, addr, len, host_prot(prot));
		if (ret == 0)
			ret = platform->mm_flush(mm->pf);
		if (ret < 0)
			return ret;
		mm->vdso_dirty = true;
	}
	/* As Linux, a VMA that keeps its protection is not split (the vDSO's
	 * parts cannot be). */
	v = mm_find_vma(mm, addr);
	if (v && v->start < addr && v->prot != prot) {
		ret = vma_split(mm, v, addr);
		if (ret < 0)
			return ret;
	}
	v = mm_find_vma(mm, end);
	if (v && v->start < end && v->end > end && v->prot != prot) {
		ret = vma_split(mm, v, end);
		if (ret < 0)
			return ret;
	}
	for (v = mm_find_vma(mm, addr); v && &v->link != &mm->vmas && v->start < end;
	     v = list_entry(v->link.next, struct vma, link)) {
		if (v->start >= addr) {
			vma_tally(mm, v, -1);
			v->prot = prot;
			vma_tally(mm, v, 1);
		}
	}
	ret = vdso ? 0 : platform->mm_protect(mm->pf, addr, len, host_prot(prot));
	if (ret < 0)
		return ret;
	v = mm_find_vma(mm, addr);
	if (v)
		vma_try_merge(mm, v);
	return 0;
}

#define STACK_GUARD_GAP (256 * PAGE_SIZE) /* Linux's stack_guard_gap */
#define STACK_CHUNK	(64UL << 10)	  /* grown at least this much: fewer traps */

/* The VMA at at was mapped to continue the one at from (a stack's new
 * chunk, an mremap's extension): it takes that one's NUMA policy, as
 * Linux's VMA keeps its own when it grows, and they merge if they can. */
static void vma_take_policy(struct mm *mm, uaddr_t from, uaddr_t at)
{
	struct vma *src = mm_find_vma(mm, from), *n = mm_find_vma(mm, at);

	if (!src || !n || src == n || src->start > from || n->start > at ||
	    mpol_equal(src->policy, n->policy))
		return;
	mpol_get(src->policy);
	mpol_put(n->policy);
	n->policy = src->policy;
	vma_try_merge(mm, n);
}

int mm_grow_stack(struct mm *mm, uaddr_t addr)
{
	struct vma *v = mm_find_vma(mm, addr), *prev;
	uaddr_t floor, start, lowest, top;
	int ret;

	if (!v || !(v->flags & VMA_STACK) || v->start <= addr || addr >= TASK_SIZE)
		return -EFAULT;
	floor = mm->stack_top > mm->stack_max + MMAP_MIN_ADDR ? mm->stack_top - mm->stack_max
							      : MMAP_MIN_ADDR;
	prev = list_entry(v->link.prev, struct vma, link);
	if (&prev->link != &mm->vmas && prev->end + STACK_GUARD_GAP > floor)
		floor = prev->end + STACK_GUARD_GAP;
	start = addr & PAGE_MASK;
	if (start < floor)
		return -EFAULT;
	lowest = v->start > floor + STACK_CHUNK ? v->start - STACK_CHUNK : floor;
	top = v->start;
	if (lowest < start &&
	    mm_map(mm, lowest, v->start - lowest, v->prot, v->flags & ~VMA_ANON, NULL, 0) == 0) {
		vma_take_policy(mm, top, lowest);
		return 0;
	}
	/* Without the chunk (RLIMIT_AS may leave room for the page only). */
	ret = mm_map(mm, start, v->start - start, v->prot, v->flags & ~VMA_ANON, NULL, 0);
	if (ret == 0)
		vma_take_policy(mm, top, start);
	return ret;
}

bool mm_maps_writable(struct mm *mm, const struct inode *ino)
{
	struct vma *v;

	list_for_each_entry(v, &mm->vmas, link)
	{
		if (v->file && v->file->inode == ino &&
		    (v->flags & (VMA_SHARED | VMA_MAYWRITE)) == (VMA_SHARED | VMA_MAYWRITE))
			return true;
	}
	return false;
}

size_t mm_accessible(struct mm *mm, uaddr_t addr, size_t len, bool write)
{
	uaddr_t at = addr, end;
	struct vma *v;

	if (addr >= TASK_SIZE)
		return 0;
	if (len > TASK_SIZE - addr)
		len = TASK_SIZE - addr;
	end = addr + len;
	for (v = mm_find_vma(mm, addr); v && &v->link != &mm->vmas && at < end;
	     v = list_entry(v->link.next, struct vma, link)) {
		if (v->start > at || (v->flags & VMA_STUB))
			break;
		if (write ? !(v->prot & LINUX_PROT_WRITE) : v->prot == LINUX_PROT_NONE)
			break;
		at = v->end;
	}
	return at >= end ? len : at - addr;
}

/* mincore of n pages of v from at into vec, as Linux's mincore_pte_range:
 * a page mapped in the page tables is resident (a private copy, or the
 * file's own page); one not mapped is, in a file mapping, if the file's
 * page is in the page cache (mincore_page: for memfds and tmpfs files,
 * shmem's pages). The page tables are the stub's on the host (pagemap,
 * opened into *pm on first use); the page cache is the host's, asked
 * through the file's host fd. The vDSO and vvar read as resident, as on
 * Linux. Where the host cannot tell (no pagemap, an fd it will not map),
 * resident, as Linux answers a file it will not tell of (can_do_mincore):
 * one the caller neither owns nor could open for writing, and every file
 * of a host directory (the host tells skas, an unprivileged host user,
 * nothing of its page cache, which keeps that cache from being a side
 * channel into the instance). Differs from Linux: a page of shared
 * anonymous memory that only another process (after fork) has touched
 * reads as not resident. */
static bool can_do_mincore(const struct vma *v)
{
	struct inode *ino = v->file->inode;
	struct linux_stat st;

	if (!ino || !current)
		return true;
	/* inode_owner_or_capable, or file_permission(MAY_WRITE) */
	if (vfs_getattr(ino, &st) == 0 &&
	    (st.st_uid == current->proc->cred.fsuid ||
	     capable_wrt_ids(&current->proc->cred, st.st_uid, st.st_gid, CAP_FOWNER)))
		return true;
	return inode_permission(current, ino, LINUX_W_OK) == 0;
}

static void vma_mincore(struct mm *mm, struct vma *v, uaddr_t at, size_t n, unsigned char *vec,
			int *pm)
{
	size_t i;
	int fd;

	if (v->flags & (VMA_VDSO | VMA_VVAR | VMA_VVAR_VCLOCK)) {
		memset(vec, 1, n);
		return;
	}
	if (*pm < 0)
		*pm = mm_pagemap_open(mm);
	if (*pm < 0 || host_pagemap_classes(*pm, at, at + n * PAGE_SIZE, vec) < 0) {
		memset(vec, 1, n);
		return;
	}
	for (i = 0; i < n; i++)
		vec[i] = vec[i] != 0; /* the zero page too */
	if (!v->file)
		return;
	if (!can_do_mincore(v)) {
		memset(vec, 1, n);
		return;
	}
	fd = file_op_mmap_fd(v->file);
	if (fd < 0 || host_fd_mincore(fd, v->off + (at - v->start), n, vec) < 0)
		memset(vec, 1, n);
}

long mm_mincore(struct mm *mm, uaddr_t addr, size_t pages, unsigned char *vec)
{
	struct vma *v = mm_find_vma(mm, addr);
	size_t done = 0, n;
	int pm = -1;

	while (done < pages) {
		uaddr_t at = addr + done * PAGE_SIZE;

		if (!v || &v->link == &mm->vmas || v->start > at || (v->flags & VMA_STUB))
			break;
		n = (v->end - at) / PAGE_SIZE;
		if (n > pages - done)
			n = pages - done;
		vma_mincore(mm, v, at, n, vec + done, &pm);
		done += n;
		v = list_entry(v->link.next, struct vma, link);
	}
	if (pm >= 0)
		host_close(pm);
	return (long)done;
}

int mm_pagemap_open(struct mm *mm)
{
	int ret = platform->mm_flush(mm->pf);

	return ret < 0 ? ret : host_pagemap_open(platform->mm_host_pid(mm->pf));
}

long mm_pages_present(struct mm *mm, uaddr_t start, uaddr_t end, long max)
{
	int fd = mm_pagemap_open(mm);
	long ret;

	if (fd < 0)
		return fd;
	ret = host_pagemap_present(fd, start, end, max);
	host_close(fd);
	return ret;
}

/* The advice that drops pages or keeps them from a child (Linux's
 * is_discard). */
static bool advise_discards(int advice)
{
	switch (advice) {
	case LINUX_MADV_FREE:
	case LINUX_MADV_DONTNEED:
	case LINUX_MADV_DONTNEED_LOCKED:
	case LINUX_MADV_REMOVE:
	case LINUX_MADV_DONTFORK:
	case LINUX_MADV_WIPEONFORK:
		return true;
	default:
		return false;
	}
}

int mm_advise(struct mm *mm, uaddr_t addr, size_t len, int advice, bool host)
{
	uaddr_t end = addr + len, at = addr;
	bool hole = false, queued = false;
	struct vma *v;
	int ret;

	for (v = mm_find_vma(mm, addr); v && &v->link != &mm->vmas && v->start < end;
	     v = list_entry(v->link.next, struct vma, link)) {
		uaddr_t s = v->start > at ? v->start : at, e = v->end < end ? v->end : end;

		if (v->start > at || (v->flags & VMA_STUB))
			hole = true;
		at = v->end;
		/* A sealed VMA of read-only private anonymous memory may not
		 * lose its pages (Linux's can_madvise_modify): EPERM, the VMAs
		 * before it advised. */
		if ((v->flags & VMA_SEALED) && advise_discards(advice) && !v->file &&
		    !(v->flags & VMA_SHARED) && !(v->prot & LINUX_PROT_WRITE)) {
			ret = queued ? platform->mm_flush(mm->pf) : 0;
			return ret < 0 ? ret : -EPERM;
		}
		if (!host || (v->flags & VMA_STUB))
			continue;
		ret = platform->mm_advise(mm->pf, s, e - s, advice);
		if (ret < 0)
			return ret;
		queued = true;
	}
	if (at < end)
		hole = true;
	if (queued) {
		ret = platform->mm_flush(mm->pf);
		if (ret < 0)
			return ret;
	}
	return hole ? -ENOMEM : 0;
}

/* Moves [addr, addr+old_len), inside one VMA, to new_addr with new_len. */
static long vma_move(struct mm *mm, struct vma *v, uaddr_t addr, size_t old_len, size_t new_len,
		     uaddr_t new_addr)
{
	struct vma *nv;
	int ret;

	/* The old range's edges first (the ranges never overlap): a split
	 * refused at the map-count limit is ENOMEM before anything changed,
	 * and removing the old range below splits nothing, so cannot fail. */
	ret = vmas_split_edges(mm, addr, addr + old_len, false);
	if (ret < 0)
		return ret;
	v = mm_find_vma(mm, addr); /* now starts at addr */
	/* The new VMA before the target range is cleared: a failure leaves
	 * it as it was, in the kernel and on the host alike. */
	nv = vma_new(new_addr, new_addr + new_len, v->prot, v->flags, v->file,
		     v->file || v->anon_id ? v->off + (addr - v->start) : 0);
	if (!nv)
		return -ENOMEM;
	ret = vmas_remove(mm, new_addr, new_addr + new_len);
	if (ret < 0) {
		vma_discard(nv);
		return ret;
	}
	nv->anon_id = v->anon_id;
	vma_share(nv, v);
	vmas_remove(mm, addr, addr + old_len);
	vma_insert(mm, nv);
	ret = platform->mm_move(mm->pf, addr, old_len, new_len, new_addr);
	if (ret < 0)
		return ret;
	return (long)new_addr;
}

static long do_remap(struct mm *mm, uaddr_t addr, size_t old_len, size_t new_len, unsigned flags,
		     uaddr_t new_addr);

long mm_remap(struct mm *mm, uaddr_t addr, size_t old_len, size_t new_len, unsigned flags,
	      uaddr_t new_addr)
{
	long ret = do_remap(mm, addr, old_len, new_len, flags, new_addr);

	mm_recount(mm);
	return ret;
}

/* Grows private anonymous memory in place as Linux does, by growing its
 * host mapping, so that the range stays one host mapping: an extension
 * mapped on its own stays a second host mapping wherever the first had
 * been moved before (their page offsets do not continue each other), and
 * a later move of both was the host's EFAULT, which left the guest's
 * memory unmapped (shuf reading a pipe, whose realloc moves, grows, then
 * moves its buffer, died of SIGSEGV). False (nothing changed) when the
 * host cannot: the caller maps the extension instead. */
static bool grow_host_in_place(struct mm *mm, struct vma *v, uaddr_t addr, size_t old_len,
			       size_t new_len)
{
	if (v->file || v->anon_id || v->shared || (v->flags & VMA_LOCK_MASK))
		return false;
	if (platform->mm_flush(mm->pf) < 0 ||
	    platform->mm_move(mm->pf, addr, old_len, new_len, addr) < 0 ||
	    platform->mm_flush(mm->pf) < 0)
		return false;
	vma_tally(mm, v, -1);
	v->end = addr + new_len;
	vma_tally(mm, v, 1);
	vma_try_merge(mm, v);
	return true;
}

static long do_remap(struct mm *mm, uaddr_t addr, size_t old_len, size_t new_len, unsigned flags,
		     uaddr_t new_addr)
{
	struct vma *v = mm_find_vma(mm, addr);
	int ret;

	/* sys_mremap has refused an unmapped or sealed source and a fixed
	 * target that overlaps the source or leaves the user range.
	 * Shrinking in place unmaps the tail, whatever is mapped there:
	 * munmap's checks. */
	if (!(flags & LINUX_MREMAP_FIXED) && new_len <= old_len) {
		if (new_len < old_len) {
			if (old_len > TASK_SIZE || addr > TASK_SIZE - old_len)
				return -EINVAL;
			ret = mm_unmap(mm, addr + new_len, old_len - new_len);
			if (ret < 0)
				return ret;
		}
		return (long)addr;
	}
	if (!v || v->start > addr || (v->flags & VMA_STUB) || old_len > v->end - addr)
		return -EFAULT;
	/* The vDSO's parts never grow (Linux: VM_DONTEXPAND). */
	if (new_len > old_len && (v->flags & (VMA_VDSO | VMA_VVAR | VMA_VVAR_VCLOCK)))
		return -EFAULT;
	/* RLIMIT_AS and RLIMIT_DATA (Linux's vma_to_resize). Differs from
	 * Linux: what a fixed target replaces is not taken off first. */
	if (new_len > old_len &&
	    !may_expand(mm, v->flags, v->prot, (new_len - old_len) >> PAGE_SHIFT))
		return -ENOMEM;
	/* Growing committed memory (checked as if nothing at a fixed target
	 * were committed before). */
	if (vma_committed(v) && new_len > old_len && !mem_fits(new_len - old_len))
		return -ENOMEM;
	if (flags & LINUX_MREMAP_FIXED) {
		if (!range_ok(new_addr, new_len) || overlaps_stub(new_addr, new_addr + new_len))
			return -EINVAL;
		if (range_sealed(mm, new_addr, new_addr + new_len))
			return -EPERM;
		return vma_move(mm, v, addr, old_len, new_len, new_addr);
	}
	if (new_len <= old_len) {
		if (new_len < old_len) {
			ret = mm_unmap(mm, addr + new_len, old_len - new_len);
			if (ret < 0)
				return ret;
		}
		return (long)addr;
	}
	/* Grow in place when the VMA ends there and the space after it is free. */
	if (addr + old_len == v->end && range_ok(addr, new_len) &&
	    !overlaps_stub(addr, addr + new_len) &&
	    !mm_range_used(mm, addr + old_len, addr + new_len)) {
		if (grow_host_in_place(mm, v, addr, old_len, new_len))
			return (long)addr;
		ret = mm_map(mm, addr + old_len, new_len - old_len, v->prot, v->flags & ~VMA_ANON,
			     v->file, v->file ? v->off + (v->end - v->start) : 0);
		if (ret < 0)
			return ret;
		vma_take_policy(mm, addr + old_len - 1, addr + old_len);
		return (long)addr;
	}
	if (!(flags & LINUX_MREMAP_MAYMOVE))
		return -ENOMEM;
	new_addr = mm_unmapped_area(mm, 0, new_len);
	if ((long)new_addr < 0)
		return (long)new_addr;
	return vma_move(mm, v, addr, old_len, new_len, new_addr);
}

int mm_seal(struct mm *mm, uaddr_t addr, size_t len)
{
	uaddr_t end = addr + len, at = addr;
	struct vma *v;
	int ret;

	/* Every page mapped, first (Linux's range_contains_unmapped). */
	for (v = mm_find_vma(mm, addr); v && &v->link != &mm->vmas && v->start < end;
	     v = list_entry(v->link.next, struct vma, link)) {
		if (v->start > at || (v->flags & VMA_STUB))
			return -ENOMEM;
		at = v->end;
	}
	if (at < end)
		return -ENOMEM;
	/* A VMA sealed already stays whole; another is cut to the range. */
	v = mm_find_vma(mm, addr);
	if (v->start < addr && !(v->flags & VMA_SEALED)) {
		ret = vma_split(mm, v, addr);
		if (ret < 0)
			return ret;
	}
	v = mm_find_vma(mm, end - 1);
	if (v->end > end && !(v->flags & VMA_SEALED)) {
		ret = vma_split(mm, v, end);
		if (ret < 0)
			return ret;
	}
	for (v = mm_find_vma(mm, addr); v && &v->link != &mm->vmas && v->start < end;
	     v = list_entry(v->link.next, struct vma, link))
		v->flags |= VMA_SEALED;
	for (at = addr; at < end; at = v->end) {
		vma_try_merge(mm, mm_find_vma(mm, at));
		v = mm_find_vma(mm, at);
	}
	return 0;
}

int mm_fork(struct mm *src, struct mm **out)
{
	struct mm *mm = calloc(1, sizeof(*mm));
	struct vma *v, *nv;
	int ret;

	if (!mm)
		return -ENOMEM;
	if (!mem_fits(src->committed)) {
		free(mm);
		return -ENOMEM;
	}
	*mm = *src;
	mm->refcount = 1;
	mm->serial = ++next_mm_serial;
	mm->committed = 0;
	mm->noreserve = mm->resident = 0;
	list_init(&mm->sample_link);
	if (mm->exe.dentry) {
		path_get(&mm->exe);
		/* dup_mm_exe_file: the child's image denies writes too (it
		 * cannot fail: the parent's denies them already) */
		(void)write_access_deny(mm->exe.dentry->inode);
	}
	mm->nvmas = 0;
	mm->vma_cache = NULL;
	mm->vidx = NULL;
	mm->vidx_n = mm->vidx_cap = 0;
	mm->vidx_off = false;
	mm->t_committed = mm->t_noreserve = mm->t_total = mm->t_data = 0;
	mm->def_lock = 0;			 /* as Linux: a child inherits no memory locks */
	if (mm->mdwe & LINUX_PR_MDWE_NO_INHERIT) /* mmf_init_flags */
		mm->mdwe = 0;
	mm->aio = NULL; /* nor AIO contexts (the rings stay mapped) */
	list_init(&mm->vmas);
	ret = platform->mm_copy(src->pf, &mm->pf);
	if (ret < 0) {
		if (mm->exe.dentry)
			write_access_allow(mm->exe.dentry->inode->dev, mm->exe.dentry->inode->ino);
		path_put(&mm->exe);
		free(mm);
		return ret;
	}
	list_for_each_entry(v, &src->vmas, link)
	{
		nv = vma_new(v->start, v->end, v->prot, v->flags & ~VMA_LOCK_MASK, v->file, v->off);
		if (!nv) {
			mm_recount(mm);
			mm_put(mm);
			return -ENOMEM;
		}
		nv->anon_id = v->anon_id;
		vma_share(nv, v);
		list_add_tail(&nv->link, &mm->vmas);
		vidx_add(mm, nv);
		vma_tally(mm, nv, 1);
		mm->nvmas++;
	}
	mm_recount(mm);
	*out = mm;
	return 0;
}

int mm_map_vdso(struct mm *mm, uaddr_t *ehdr, uaddr_t from)
{
	static const unsigned kinds[] = { [PF_VDSO_VVAR] = VMA_VVAR,
					  [PF_VDSO_VVAR_VCLOCK] = VMA_VVAR_VCLOCK,
					  [PF_VDSO_CODE] = VMA_VDSO };
	const struct pf_vdso *vd = platform->vdso ? platform->vdso() : NULL;
	struct vma *v;
	long addr;
	int i, ret = 0;

	*ehdr = 0;
	if (!vd)
		return 0;
	if (!from)
		from = vd->base;
	addr = mm_unmapped_area(mm, 0, vd->size);
	if (addr < 0)
		goto fail;
	/* Part by part (mremap moves one host mapping at a time), in the
	 * order that never lands a part on one not yet moved. */
	for (i = 0; i < vd->nparts && (uint64_t)addr != from; i++) {
		int k = (uint64_t)addr < from ? i : vd->nparts - 1 - i;

		ret = platform->mm_move(mm->pf, from + vd->part[k].off, vd->part[k].len,
					vd->part[k].len, (uint64_t)addr + vd->part[k].off);
		if (ret < 0)
			goto fail;
	}
	for (i = 0; i < vd->nparts; i++) {
		v = vma_new((uint64_t)addr + vd->part[i].off,
			    (uint64_t)addr + vd->part[i].off + vd->part[i].len, vd->part[i].prot,
			    kinds[vd->part[i].kind], NULL, 0);
		if (!v)
			return -ENOMEM;
		vma_insert(mm, v);
	}
	*ehdr = (uint64_t)addr + vd->ehdr_off;
	return 0;
fail:
	/* No vDSO then: none of it may stay behind unseen. */
	platform->mm_unmap(mm->pf, from, vd->size);
	klog(LOG_INFO, "vdso: cannot place it (%ld): none for this program", addr < 0 ? addr : ret);
	return 0;
}

void mm_vdso_syscalls(struct mm *mm)
{
	const struct pf_vdso *vd = platform->vdso ? platform->vdso() : NULL;
	const void *img;
	struct vma *v;
	uaddr_t base;
	uint64_t len;
	int i, ret;

	if (mm->vdso_syscalls || !vd || vdso_whole(mm, vd, &base) < 0)
		return;
	for (i = 0; i < vd->nparts && vd->part[i].kind != PF_VDSO_CODE; i++)
		;
	len = vd->part[i].len;
	v = mm_find_vma(mm, base + vd->part[i].off);
	img = host_vdso_clock_syscall(len);
	if (!img) {
		klog_once(LOG_INFO, "vdso: cannot make the time namespace's copy: clock_gettime "
				    "reads the host's clocks there");
		return;
	}
	/* Written while writable, then given the VMA's protection. */
	ret = platform->mm_map(mm->pf, v->start, len, LINUX_PROT_READ | LINUX_PROT_WRITE,
			       LINUX_MAP_PRIVATE | LINUX_MAP_ANONYMOUS, -1, 0);
	if (ret == 0)
		ret = platform->mm_write(mm->pf, v->start, img, len) == (long)len ? 0 : -EFAULT;
	if (ret == 0)
		ret = platform->mm_protect(mm->pf, v->start, len, host_prot(v->prot));
	if (ret == 0)
		ret = platform->mm_flush(mm->pf);
	mm->vdso_dirty = true; /* its pages are no longer the host's */
	if (ret < 0) {
		klog(LOG_INFO, "vdso: the time namespace's copy failed (%d)", ret);
		return;
	}
	mm->vdso_syscalls = true;
}

/* As Linux's FOLL_FORCE, a private mapping the guest may not write (its
 * text: a breakpoint) is written all the same: its host pages are made
 * writable for the copy (copy-on-write: the file and other processes keep
 * theirs), then put back. A shared mapping the guest may not write is
 * not (EIO), nor (differs from Linux) the host's vDSO. */
int mm_write_force(struct mm *mm, uaddr_t addr, const void *src, size_t n)
{
	struct vma *vma;
	uint64_t start, len;
	int ret;

	if (copy_to_user(mm, addr, src, n) == 0)
		return 0;
	vma = mm_find_vma(mm, addr);
	if (!vma || vma->start > addr || vma->end - addr < n ||
	    (vma->flags & (VMA_SHARED | VMA_VDSO | VMA_VVAR | VMA_VVAR_VCLOCK | VMA_STUB)))
		return -EIO;
	start = addr & PAGE_MASK;
	len = PAGE_ALIGN(addr + n) - start;
	if (platform->mm_protect(mm->pf, start, len,
				 host_prot(vma->prot | LINUX_PROT_READ | LINUX_PROT_WRITE)) < 0 ||
	    platform->mm_flush(mm->pf) < 0)
		return -EIO;
	ret = poke_user(mm, addr, src, n);
	platform->mm_protect(mm->pf, start, len, host_prot(vma->prot));
	platform->mm_flush(mm->pf);
	return ret < 0 ? -EIO : 0;
}
