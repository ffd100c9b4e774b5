/* kernel/random.c: random bytes from a pool refilled by one host
 * getrandom every so often (an exec takes ~7 draws); bytes are used
 * once. */
#include <string.h>

#include "kernel/random.h"
#include "host/host.h"

void get_random_bytes(void *buf, size_t n)
{
	static unsigned char pool[512];
	static size_t left;

	if (n > left) {
		if (host_getrandom(pool, sizeof(pool)) < 0) {
			host_getrandom(buf, n);
			return;
		}
		left = sizeof(pool);
	}
	left -= n;
	memcpy(buf, pool + left, n);
	memset(pool + left, 0, n);
}

uint64_t get_random_u64(void)
{
	uint64_t r = 0;

	get_random_bytes(&r, sizeof(r));
	return r;
}
