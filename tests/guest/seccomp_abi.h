/* tests/guest/seccomp_abi.h: the seccomp(2) and classic BPF ABI the
 * seccomp and socket filter tests build their programs with (musl has no
 * linux/ headers): the program and data structs, BPF_STMT/BPF_JUMP, the
 * instruction fields, and the call's number. */
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
#define BPF_LD	 0x00
#define BPF_LDX	 0x01
#define BPF_ST	 0x02
#define BPF_STX	 0x03
#define BPF_ALU	 0x04
#define BPF_JMP	 0x05
#define BPF_RET	 0x06
#define BPF_MISC 0x07
#define BPF_W	 0x00
#define BPF_H	 0x08
#define BPF_B	 0x10
#define BPF_IMM	 0x00
#define BPF_ABS	 0x20
#define BPF_IND	 0x40
#define BPF_MEM	 0x60
#define BPF_LEN	 0x80
#define BPF_MSH	 0xa0
#define BPF_ADD	 0x00
#define BPF_SUB	 0x10
#define BPF_MUL	 0x20
#define BPF_DIV	 0x30
#define BPF_OR	 0x40
#define BPF_AND	 0x50
#define BPF_LSH	 0x60
#define BPF_RSH	 0x70
#define BPF_NEG	 0x80
#define BPF_MOD	 0x90
#define BPF_XOR	 0xa0
#define BPF_JA	 0x00
#define BPF_JEQ	 0x10
#define BPF_JGT	 0x20
#define BPF_JGE	 0x30
#define BPF_JSET 0x40
#define BPF_K	 0x00
#define BPF_X	 0x08
#define BPF_A	 0x10
#define BPF_TAX	 0x00
#define BPF_TXA	 0x80

#define AUDIT_ARCH_X86_64 0xc000003eU
#ifndef SYS_seccomp
#define SYS_seccomp 317
#endif

#endif
