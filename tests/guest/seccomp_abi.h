/* tests/guest/seccomp_abi.h: the seccomp(2) ABI the seccomp tests build
 * their classic BPF filters with (musl has no linux/ headers): the
 * program and data structs, BPF_STMT/BPF_JUMP, and the call's number. */
#ifndef TESTS_GUEST_SECCOMP_ABI_H
#define TESTS_GUEST_SECCOMP_ABI_H

#include <stdint.h>

struct sock_filter {
	unsigned short code;
	unsigned char jt, jf;
	unsigned k;
};
struct sock_fprog {
	unsigned short len;
	struct sock_filter *filter;
};
struct seccomp_data {
	int nr;
	unsigned arch;
	uint64_t instruction_pointer;
	uint64_t args[6];
};
#define BPF_STMT(code, k)                       \
	{                                       \
		(unsigned short)(code), 0, 0, k \
	}
#define BPF_JUMP(code, k, jt, jf)                 \
	{                                         \
		(unsigned short)(code), jt, jf, k \
	}
#define AUDIT_ARCH_X86_64 0xc000003eU
#ifndef SYS_seccomp
#define SYS_seccomp 317
#endif

#endif
