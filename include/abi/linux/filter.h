/*
 * Classic BPF as the x86-64 kernel ABI defines it (linux/filter.h,
 * linux/bpf_common.h): struct sock_fprog and struct sock_filter, the
 * instruction fields, and the special load offsets of socket filters.
 */
#ifndef ABI_LINUX_FILTER_H
#define ABI_LINUX_FILTER_H

#include <stdint.h>

/* struct sock_fprog as a 64-bit caller passes it. */
struct linux_sock_fprog {
	uint16_t len;
	uint16_t pad[3];
	uint64_t filter; /* guest address of len struct linux_sock_filter */
};

struct linux_sock_filter {
	uint16_t code;
	uint8_t jt, jf;
	uint32_t k;
};

#define LINUX_BPF_MAXINSNS 4096
#define LINUX_BPF_MEMWORDS 16

/* Instruction classes and fields (linux/bpf_common.h, linux/filter.h). */
#define LINUX_BPF_CLASS(c) ((c)&0x07)
#define LINUX_BPF_LD	   0x00
#define LINUX_BPF_LDX	   0x01
#define LINUX_BPF_ST	   0x02
#define LINUX_BPF_STX	   0x03
#define LINUX_BPF_ALU	   0x04
#define LINUX_BPF_JMP	   0x05
#define LINUX_BPF_RET	   0x06
#define LINUX_BPF_MISC	   0x07
#define LINUX_BPF_W	   0x00
#define LINUX_BPF_H	   0x08
#define LINUX_BPF_B	   0x10
#define LINUX_BPF_IMM	   0x00
#define LINUX_BPF_ABS	   0x20
#define LINUX_BPF_IND	   0x40
#define LINUX_BPF_MEM	   0x60
#define LINUX_BPF_LEN	   0x80
#define LINUX_BPF_MSH	   0xa0
#define LINUX_BPF_ADD	   0x00
#define LINUX_BPF_SUB	   0x10
#define LINUX_BPF_MUL	   0x20
#define LINUX_BPF_DIV	   0x30
#define LINUX_BPF_OR	   0x40
#define LINUX_BPF_AND	   0x50
#define LINUX_BPF_LSH	   0x60
#define LINUX_BPF_RSH	   0x70
#define LINUX_BPF_NEG	   0x80
#define LINUX_BPF_MOD	   0x90
#define LINUX_BPF_XOR	   0xa0
#define LINUX_BPF_JA	   0x00
#define LINUX_BPF_JEQ	   0x10
#define LINUX_BPF_JGT	   0x20
#define LINUX_BPF_JGE	   0x30
#define LINUX_BPF_JSET	   0x40
#define LINUX_BPF_K	   0x00
#define LINUX_BPF_X	   0x08
#define LINUX_BPF_A	   0x10
#define LINUX_BPF_TAX	   0x00
#define LINUX_BPF_TXA	   0x80

/* Negative load offsets: from the network header, from the link layer's;
 * and the ancillary loads (SKF_AD_OFF + SKF_AD_*), linux/filter.h. */
#define LINUX_SKF_AD_OFF	      (-0x1000)
#define LINUX_SKF_NET_OFF	      (-0x100000)
#define LINUX_SKF_LL_OFF	      (-0x200000)
#define LINUX_SKF_AD_PROTOCOL	      0
#define LINUX_SKF_AD_PKTTYPE	      4
#define LINUX_SKF_AD_IFINDEX	      8
#define LINUX_SKF_AD_NLATTR	      12
#define LINUX_SKF_AD_NLATTR_NEST      16
#define LINUX_SKF_AD_MARK	      20
#define LINUX_SKF_AD_QUEUE	      24
#define LINUX_SKF_AD_HATYPE	      28
#define LINUX_SKF_AD_RXHASH	      32
#define LINUX_SKF_AD_CPU	      36
#define LINUX_SKF_AD_ALU_XOR_X	      40
#define LINUX_SKF_AD_VLAN_TAG	      44
#define LINUX_SKF_AD_VLAN_TAG_PRESENT 48
#define LINUX_SKF_AD_PAY_OFFSET	      52
#define LINUX_SKF_AD_RANDOM	      56
#define LINUX_SKF_AD_VLAN_TPID	      60
#define LINUX_SKF_AD_MAX	      64

#endif /* ABI_LINUX_FILTER_H */
