/* tests/guest/caps.h: one capability on or off in the calling thread's
 * effective set, through the raw capget/capset calls (musl has no
 * libcap): for tests that compare what root may do with and without it,
 * natively and under skas. */
#ifndef TESTS_GUEST_CAPS_H
#define TESTS_GUEST_CAPS_H

#include <stdint.h>
#include <unistd.h>
#include <sys/syscall.h>

/* on 1: raise it (from the permitted set), 0: drop it, -1: only ask.
 * Returns whether it was in the effective set (0 or 1), or -1. */
static inline int cap_effective(int cap, int on)
{
	struct {
		uint32_t version;
		int pid;
	} h = { 0x20080522 /* _LINUX_CAPABILITY_VERSION_3 */, 0 };
	struct {
		uint32_t effective, permitted, inheritable;
	} d[2];
	uint32_t bit = 1u << (cap % 32);
	int was;

	if (syscall(SYS_capget, &h, d) != 0)
		return -1;
	was = (d[cap / 32].effective & bit) != 0;
	if (on < 0)
		return was;
	if (on)
		d[cap / 32].effective |= bit;
	else
		d[cap / 32].effective &= ~bit;
	return syscall(SYS_capset, &h, d) == 0 ? was : -1;
}

#endif
