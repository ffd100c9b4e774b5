/* tests/guest/caps.h: capget/capset for the guest tests that check what a
 * capability allows, as linux/capability.h has them (musl's headers lack
 * it): the structs, the capability numbers used, and helpers to read the
 * sets and to add or drop one capability. */
#ifndef TESTS_GUEST_CAPS_H
#define TESTS_GUEST_CAPS_H

#include <unistd.h>
#include <sys/syscall.h>

#define CAP_VERSION_3	       0x20080522
#define CAP_KILL	       5
#define CAP_SETPCAP	       8
#define CAP_NET_BIND_SERVICE   10
#define CAP_SYS_PTRACE	       19
#define CAP_SYS_ADMIN	       21
#define CAP_SYS_BOOT	       22
#define CAP_SYS_NICE	       23
#define CAP_SYS_RESOURCE       24
#define CAP_SYS_TIME	       25
#define CAP_SYSLOG	       34
#define CAP_CHECKPOINT_RESTORE 40
#define CAP_LAST	       40

struct cap_header {
	unsigned version;
	int pid;
};
struct cap_data {
	unsigned effective, permitted, inheritable;
};

static inline int caps_get(struct cap_data d[2])
{
	struct cap_header h = { CAP_VERSION_3, 0 };

	return (int)syscall(SYS_capget, &h, d);
}

/* Adds (on) or drops cap in the effective (else the inheritable) set. */
static inline int caps_change(int cap, int on, int effective)
{
	struct cap_header h = { CAP_VERSION_3, 0 };
	struct cap_data d[2];
	unsigned *w;

	if (syscall(SYS_capget, &h, d) < 0)
		return -1;
	w = effective ? &d[cap / 32].effective : &d[cap / 32].inheritable;
	if (on)
		*w |= 1u << (cap % 32);
	else
		*w &= ~(1u << (cap % 32));
	return (int)syscall(SYS_capset, &h, d);
}

static inline int caps_drop(int cap)
{
	return caps_change(cap, 0, 1);
}

/* Whether cap is effective: 1, 0, or -1. */
static inline int caps_has(int cap)
{
	struct cap_data d[2];

	if (caps_get(d) < 0)
		return -1;
	return (d[cap / 32].effective >> (cap % 32)) & 1;
}

#endif
