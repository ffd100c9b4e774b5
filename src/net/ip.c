/* net/ip.c: IP packets as the loopback device carries them (net/ip.h). */
#include <stdlib.h>
#include <string.h>

#include "net/ip.h"
#include "net/socket.h"
#include "abi/linux/socket.h"

#define IP_DF		0x4000
#define ETH_HLEN	14
#define ETH_P_IP	0x0800
#define ETH_P_IPV6	0x86dd
#define ARPHRD_LOOPBACK 772

static uint16_t next_ip_id;

uint16_t ip_next_id(void)
{
	return ++next_ip_id;
}

uint32_t ip_csum_add(uint32_t sum, const uint8_t *p, size_t n)
{
	for (; n > 1; n -= 2, p += 2)
		sum += (uint32_t)(p[0] << 8 | p[1]);
	if (n)
		sum += (uint32_t)p[0] << 8;
	return sum;
}

uint16_t ip_csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

uint32_t ip_csum_v6_pseudo(const uint8_t src[16], const uint8_t dst[16], size_t len, unsigned proto)
{
	uint32_t sum = ip_csum_add(0, src, 16);

	sum = ip_csum_add(sum, dst, 16);
	return sum + (uint32_t)(len >> 16) + (uint32_t)(len & 0xffff) + proto;
}

void ip_put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

void ip_set_csum(uint8_t *p, size_t n, size_t off, uint32_t pseudo)
{
	p[off] = p[off + 1] = 0;
	ip_put16(p + off, ip_csum_fold(ip_csum_add(pseudo, p, n)));
}

void ip4_header(uint8_t *h, size_t len, const uint8_t src[16], const uint8_t dst[16], uint8_t ttl,
		uint8_t tos, unsigned frag, unsigned proto, uint16_t id)
{
	memset(h, 0, 20);
	h[0] = 0x45;
	h[1] = tos;
	ip_put16(h + 2, (unsigned)(len + 20));
	ip_put16(h + 4, id);
	ip_put16(h + 6, frag);
	h[8] = ttl;
	h[9] = (uint8_t)proto;
	memcpy(h + 12, src + 12, 4);
	memcpy(h + 16, dst + 12, 4);
	ip_set_csum(h, 20, 10, 0);
}

void ip6_header(uint8_t *h, size_t len, const uint8_t src[16], const uint8_t dst[16], uint8_t hops,
		uint8_t tclass, unsigned proto)
{
	memset(h, 0, 40);
	h[0] = (uint8_t)(0x60 | (tclass >> 4));
	h[1] = (uint8_t)(tclass << 4);
	ip_put16(h + 4, (unsigned)len);
	h[6] = (uint8_t)proto;
	h[7] = hops;
	memcpy(h + 8, src, 16);
	memcpy(h + 24, dst, 16);
}

size_t ip_udp_packet(uint8_t *out, bool v4, int proto, uint16_t cscov, const uint8_t src[16],
		     uint16_t sport, const uint8_t dst[16], uint16_t dport, const uint8_t *data,
		     size_t len, uint8_t ttl, uint8_t tos, uint16_t id)
{
	size_t hl = v4 ? 20 : 40;
	uint8_t *u = out + hl;
	uint32_t sum;

	ip_put16(u, sport);
	ip_put16(u + 2, dport);
	ip_put16(u + 4, (unsigned)(cscov ? cscov : 8 + len));
	memcpy(u + 8, data, len);
	if (v4) {
		ip4_header(out, 8 + len, src, dst, ttl, tos, IP_DF, (uint8_t)proto, id);
		sum = ip_csum_add(0, src + 12, 4);
		sum = ip_csum_add(sum, dst + 12, 4) + (uint32_t)proto + (uint32_t)(8 + len);
	} else {
		ip6_header(out, 8 + len, src, dst, ttl, tos, (uint8_t)proto);
		sum = ip_csum_v6_pseudo(src, dst, 8 + len, (uint8_t)proto);
	}
	/* loopback leaves the checksum partial (CHECKSUM_PARTIAL, for the
	 * device to finish): the pseudo-header's sum only */
	ip_put16(u + 6, (uint16_t)~ip_csum_fold(sum));
	return hl + 8 + len;
}

bool ip_filter(struct socket *s, bool v4, const uint8_t *pkt, size_t len, size_t data_off,
	       uint32_t cap, size_t *keep)
{
	struct cbpf_pkt p = { .data_off = (uint32_t)(ETH_HLEN + data_off),
			      .len = (uint32_t)(len - data_off),
			      .net_off = ETH_HLEN,
			      .ll_off = 0,
			      .protocol = v4 ? ETH_P_IP : ETH_P_IPV6,
			      .ifindex = 1,
			      .hatype = ARPHRD_LOOPBACK,
			      .has_dev = true };
	uint8_t *buf;
	uint32_t n;
	bool kept;

	*keep = len - data_off;
	if (!s->filter)
		return true;
	/* lo's Ethernet header: both addresses 0, then the protocol. With
	 * no memory for it the packet is dropped, as a filter may have. */
	buf = calloc(1, ETH_HLEN + len);
	if (!buf)
		return false;
	ip_put16(buf + 12, p.protocol);
	memcpy(buf + ETH_HLEN, pkt, len);
	p.head = buf;
	p.head_len = (uint32_t)(ETH_HLEN + len);
	kept = sock_filter_run(s, &p, cap, &n);
	free(buf);
	*keep = n;
	return kept;
}
