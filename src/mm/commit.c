/* mm/commit.c: the instance's memory limit (--memory) and what counts
 * against it. mm.c counts each address space's committed memory after every
 * change to its VMAs; tmpfs counts file data. Over the limit, mmap, brk,
 * mremap, mprotect and fork get ENOMEM; data that is already there (tmpfs
 * writes) wakes the OOM killer (kernel/oom.c) instead. */
#include <stdlib.h>

#include "mm/commit.h"
#include "kernel/oom.h"
#include "host/host.h"
#include "kernel/log.h"
#include "abi/linux/errno.h"

static uint64_t limit = UINT64_MAX;
static uint64_t committed; /* private writable + shared anonymous */
static uint64_t data;	   /* tmpfs file data */
static uint64_t kmem;	   /* kernel memory held for the guest (mem_take_kernel) */
static uint64_t resident;  /* resident past what is committed (mm.c samples it) */
static int overcommit = MEM_OVERCOMMIT_GUESS;

void mem_set_limit(uint64_t bytes)
{
	limit = bytes;
}

uint64_t mem_limit(void)
{
	return limit;
}

uint64_t mem_used(void)
{
	return committed + data + kmem + resident;
}

void mem_set_resident(uint64_t bytes)
{
	resident = bytes;
	if (mem_used() > limit)
		oom_kill("resident memory");
}

int mem_overcommit(void)
{
	return overcommit;
}

int mem_set_overcommit(int mode)
{
	/* Not MEM_OVERCOMMIT_ALWAYS: with nothing refused up front the
	 * limit would rest on the sampling alone. */
	if (mode != MEM_OVERCOMMIT_GUESS && mode != MEM_OVERCOMMIT_NEVER)
		return -EINVAL;
	overcommit = mode;
	return 0;
}

uint64_t mem_committed(void)
{
	return committed;
}

bool mem_fits(uint64_t bytes)
{
	uint64_t used = mem_used();

	return used <= limit && bytes <= limit - used;
}

void mem_account(int64_t delta)
{
	if (delta < 0 && (uint64_t)-delta > committed)
		panic("memory accounting: %llu committed, %lld released",
		      (unsigned long long)committed, (long long)delta);
	committed += (uint64_t)delta;
}

void mem_account_data(int64_t delta)
{
	if (delta < 0 && (uint64_t)-delta > data)
		panic("memory accounting: %llu of file data, %lld released",
		      (unsigned long long)data, (long long)delta);
	data += (uint64_t)delta;
	if (delta > 0 && mem_used() > limit)
		oom_kill("tmpfs data");
}

bool mem_take_kernel(uint64_t bytes)
{
	if (!mem_fits(bytes))
		return false;
	kmem += bytes;
	return true;
}

void mem_take_kernel_over(uint64_t bytes)
{
	kmem += bytes;
}

void mem_give_kernel(uint64_t bytes)
{
	if (bytes > kmem)
		panic("memory accounting: %llu of kernel memory, %llu given back",
		      (unsigned long long)kmem, (unsigned long long)bytes);
	kmem -= bytes;
}

void *mem_zalloc_kernel(size_t size)
{
	void *p;

	if (!mem_take_kernel(size))
		return NULL;
	p = calloc(1, size);
	if (!p)
		mem_give_kernel(size);
	return p;
}

void mem_free_kernel(void *p, size_t size)
{
	if (p) {
		mem_give_kernel(size);
		free(p);
	}
}

int mem_meminfo(uint64_t *total, uint64_t *free, uint64_t *shared, uint64_t *buffers)
{
	uint64_t used = mem_used(), left = used < limit ? limit - used : 0;
	int ret = host_meminfo(total, free, shared, buffers);

	if (ret < 0)
		return ret;
	if (limit < *total)
		*total = limit;
	if (left < *free)
		*free = left;
	*shared = data;
	*buffers = 0;
	return 0;
}
