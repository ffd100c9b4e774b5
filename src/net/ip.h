/* net/ip.h: IP packets as the loopback device carries them, for what reads
 * them whole: raw sockets and ICMP's quotes (net/icmp.c), and socket
 * filters (SO_ATTACH_FILTER) of UDP and ICMP sockets. Addresses are
 * 16 bytes (IPv4 mapped, its 4 at offset 12); multi-byte fields are in
 * network order. */
#ifndef NET_IP_H
#define NET_IP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct socket;

uint32_t ip_csum_add(uint32_t sum, const uint8_t *p, size_t n);
/* The ones' complement of the folded sum: the checksum field's value. */
uint16_t ip_csum_fold(uint32_t sum);
/* The sum of an IPv6 pseudo-header for len bytes of proto. */
uint32_t ip_csum_v6_pseudo(const uint8_t src[16], const uint8_t dst[16], size_t len,
			   unsigned proto);
void ip_put16(uint8_t *p, unsigned v);
/* Writes the checksum at off of the n-byte message p (its field first 0). */
void ip_set_csum(uint8_t *p, size_t n, size_t off, uint32_t pseudo);
/* The next IPv4 identification (one counter for every packet made). */
uint16_t ip_next_id(void);
/* A 20-byte IPv4 header for len bytes of proto after it, identification
 * id, and a 40-byte IPv6 one. */
void ip4_header(uint8_t *h, size_t len, const uint8_t src[16], const uint8_t dst[16], uint8_t ttl,
		uint8_t tos, unsigned frag, unsigned proto, uint16_t id);
void ip6_header(uint8_t *h, size_t len, const uint8_t src[16], const uint8_t dst[16], uint8_t hops,
		uint8_t tclass, unsigned proto);
/* A UDP datagram as it went out on loopback, at out: its IP header (20
 * or 40 bytes; IPv4's with DF and identification id), UDP header (the
 * checksum left partial, as loopback leaves it: the pseudo-header's sum)
 * and len bytes of data. Its length. proto: IPPROTO_UDP, or
 * IPPROTO_UDPLITE, whose length field is the checksum coverage cscov
 * (0: all, the length). */
size_t ip_udp_packet(uint8_t *out, bool v4, int proto, uint16_t cscov, const uint8_t src[16],
		     uint16_t sport, const uint8_t dst[16], uint16_t dport, const uint8_t *data,
		     size_t len, uint8_t ttl, uint8_t tos, uint16_t id);
/* Runs s's socket filter on an IP packet arriving on lo (len bytes from
 * its IP header at pkt): the filter's data starts data_off bytes in, the
 * network header's loads read the IP header, the link layer's lo's
 * Ethernet header. False if it drops the packet; else *keep is how many
 * bytes from data_off on it keeps (cap at least). Out of memory, it
 * drops it. */
bool ip_filter(struct socket *s, bool v4, const uint8_t *pkt, size_t len, size_t data_off,
	       uint32_t cap, size_t *keep);

#endif
