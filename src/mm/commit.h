/* mm/commit.h: the instance's memory (--memory). Committed memory is
 * counted as Linux's vm.overcommit_memory=2 counts it: private writable
 * mappings (heap, stacks, data, MAP_NORESERVE too) per address space, shared
 * anonymous memory once per object, and tmpfs file data once. */
#ifndef MM_COMMIT_H
#define MM_COMMIT_H

#include <stdbool.h>
#include <stdint.h>

void mem_set_limit(uint64_t bytes);
uint64_t mem_limit(void);
/* Everything counted: committed memory and tmpfs data. */
uint64_t mem_used(void);
uint64_t mem_committed(void);
/* Would bytes more still fit under the limit? */
bool mem_fits(uint64_t bytes);
/* Counts (or stops counting) bytes; the caller checked mem_fits first. */
void mem_account(int64_t delta);
/* tmpfs file data: counted even over the limit (the data is already in
 * memory), then, if over, the OOM killer picks a process. */
void mem_account_data(int64_t delta);
/* /proc/meminfo and sysinfo: the limit is the total; free is what is left
 * of it (or the host's free memory, if less). */
int mem_meminfo(uint64_t *total, uint64_t *free, uint64_t *shared, uint64_t *buffers);

#endif
