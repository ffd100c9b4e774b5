/* kernel/random.h: random bytes for the kernel's own choices (exec's
 * layout and AT_RANDOM, ephemeral ports), Linux's get_random_bytes. */
#ifndef KERNEL_RANDOM_H
#define KERNEL_RANDOM_H

#include <stddef.h>
#include <stdint.h>

void get_random_bytes(void *buf, size_t n);
uint64_t get_random_u64(void);

#endif
