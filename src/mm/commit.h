/* mm/commit.h: the instance's memory (--memory). Committed memory is
 * counted as Linux's vm.overcommit_memory=2 counts it: private writable
 * mappings (heap, stacks, data) per address space, shared anonymous memory
 * once per object, and tmpfs file data once. vm.overcommit_memory says
 * whether MAP_NORESERVE mappings count too: under 2 they do, under 0 (the
 * default, as Linux's) they do not, and what they hold is found by sampling
 * the stubs' resident memory instead (mm.c): past the limit the OOM killer
 * runs. */
#ifndef MM_COMMIT_H
#define MM_COMMIT_H

#include <stdbool.h>
#include <stdint.h>

/* vm.overcommit_memory's values. */
enum { MEM_OVERCOMMIT_GUESS = 0, MEM_OVERCOMMIT_ALWAYS = 1, MEM_OVERCOMMIT_NEVER = 2 };

void mem_set_limit(uint64_t bytes);
uint64_t mem_limit(void);
/* Everything counted: committed memory, tmpfs data, and resident memory
 * past what its address spaces commit (MAP_NORESERVE's, last sampled). */
uint64_t mem_used(void);
uint64_t mem_committed(void);
/* Would bytes more still fit under the limit? */
bool mem_fits(uint64_t bytes);
/* Counts (or stops counting) bytes; the caller checked mem_fits first. */
void mem_account(int64_t delta);
/* tmpfs file data: counted even over the limit (the data is already in
 * memory), then, if over, the OOM killer picks a process. */
void mem_account_data(int64_t delta);
/* Kernel memory a guest's objects hold (tmpfs inodes and xattrs, pipe
 * pages, VMAs, epoll items, file locks, System V messages and semaphore
 * sets), as Linux's memcg charges their slab and pages. mem_take_kernel
 * counts bytes if they fit under the limit, else counts nothing and is
 * false (the caller's ENOMEM, ENOSPC or ENOLCK); the caller takes before
 * it allocates, and gives the bytes back if the allocation then fails.
 * mem_take_kernel_over counts them even past the limit, for what must not
 * fail (a munmap's split, an unlock). mem_give_kernel stops counting. */
bool mem_take_kernel(uint64_t bytes);
void mem_take_kernel_over(uint64_t bytes);
void mem_give_kernel(uint64_t bytes);
/* size zeroed bytes taken as the kernel's (calloc after mem_take_kernel),
 * or NULL; mem_free_kernel frees them and gives them back. */
void *mem_zalloc_kernel(size_t size);
void mem_free_kernel(void *p, size_t size);
/* /proc/meminfo and sysinfo: the limit is the total; free is what is left
 * of it (or the host's free memory, if less). */
/* The last sample of resident memory past what is committed (all address
 * spaces); past the limit the OOM killer runs. */
void mem_set_resident(uint64_t bytes);
/* vm.overcommit_memory: MEM_OVERCOMMIT_GUESS or _NEVER; setting
 * MEM_OVERCOMMIT_ALWAYS (or anything else) is -EINVAL. */
int mem_overcommit(void);
int mem_set_overcommit(int mode);
int mem_meminfo(uint64_t *total, uint64_t *free, uint64_t *shared, uint64_t *buffers);

#endif
