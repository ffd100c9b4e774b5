/* tests/fuzz/fuzz_cbpf.c: libFuzzer over classic BPF's checks and its
 * interpreter as socket filters run them (lib/cbpf.c) on a guest's
 * datagram. The input is a byte n, n instructions (8 bytes each), then
 * the packet; a program the checks accept must run to a return on any
 * packet, with its headers placed anywhere in it, without a fault, a hang
 * or undefined behaviour (ASan, UBSan): each is a finding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cbpf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct linux_sock_filter *p;
	struct cbpf_pkt pkt;
	size_t n, plen;
	uint8_t *buf;

	if (size < 1)
		return 0;
	n = data[0];
	if (size < 1 + n * sizeof(*p))
		return 0;
	plen = size - 1 - n * sizeof(*p);
	p = malloc(n * sizeof(*p) + 1);
	buf = malloc(plen + 1); /* a copy of its own: reads past it are ASan's */
	if (!p || !buf)
		goto out;
	memcpy(p, data + 1, n * sizeof(*p));
	memcpy(buf, data + 1 + n * sizeof(*p), plen);
	if (cbpf_check(p, (unsigned)n) != 0)
		goto out;
	/* no headers: AF_UNIX and netlink */
	memset(&pkt, 0, sizeof(pkt));
	pkt.head = buf;
	pkt.head_len = (uint32_t)plen;
	pkt.len = (uint32_t)plen;
	pkt.ll_off = -1;
	cbpf_run(p, &pkt);
	/* link and network headers before the data, a device */
	if (plen >= 2) {
		pkt.ll_off = 0;
		pkt.net_off = buf[0] % plen;
		pkt.data_off = pkt.net_off + buf[1] % (plen - pkt.net_off);
		pkt.len = (uint32_t)(plen - pkt.data_off);
		pkt.has_dev = true;
		pkt.protocol = 0x800;
		pkt.ifindex = 1;
		pkt.hatype = 772;
		cbpf_run(p, &pkt);
	}
out:
	free(p);
	free(buf);
	return 0;
}
