/* lib/cbpf.h: classic BPF, as Linux checks and runs it for seccomp
 * programs and socket filters (net/core/filter.c): the checks every
 * program passes, and an interpreter over a packet. */
#ifndef LIB_CBPF_H
#define LIB_CBPF_H

#include <stdbool.h>
#include <stdint.h>

#include "abi/linux/filter.h"

/* Linux's bpf_check_classic: known instructions (ancillary loads among
 * them), no division or modulo by a constant 0 nor shift by 32 or more,
 * scratch words in range and stored before they are loaded on every path,
 * jumps forward and inside, a return last. 0, -EINVAL or -ENOMEM. */
int cbpf_check(const struct linux_sock_filter *p, unsigned len);

/* What a program runs on. Loads at offsets from 0 read the len bytes at
 * data; SKF_NET_OFF's read from net_off and SKF_LL_OFF's from ll_off
 * (offsets into head, -1: no such header: the load fails), as far as
 * head_len; the ancillary loads read the rest. A load that fails ends
 * the program with 0. */
struct cbpf_pkt {
	const uint8_t *head;
	uint32_t head_len;
	uint32_t data_off, len;
	int32_t net_off, ll_off;
	/* Ancillary values: the packet's protocol (ETH_P_*, host order),
	 * kind (PACKET_*), mark; its device's index and type (ARPHRD_*), if
	 * it came through one (has_dev: else a load of either ends the
	 * program, returning A, as Linux's with no skb->dev). */
	uint16_t protocol;
	uint32_t pkttype, mark, ifindex, hatype;
	bool has_dev;
	/* Loads in the host's byte order (seccomp's struct seccomp_data),
	 * not the network's. */
	bool host_order;
};

/* Runs a checked program: what it returns (0 when a load fails or it
 * divides by an X of 0). */
uint32_t cbpf_run(const struct linux_sock_filter *p, const struct cbpf_pkt *pkt);

#endif
