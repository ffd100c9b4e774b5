/* net/inet.h: AF_INET and AF_INET6 sockets on the loopback network of the
 * instance, as a Linux network namespace with only `lo` up: 127.0.0.0/8
 * and ::1 are local, every other destination is unreachable. An inet
 * socket is a unix_sock (net/unix.h) with addresses: a TCP connection is
 * a pair of connected stream sockets, queued on the listener until
 * accept(), so the queues, sending, receiving and readiness are AF_UNIX
 * stream code; UDP has its own send and receive (udp.c) on the same
 * queues. Nothing reaches the host's network. Addresses are kept in the
 * IPv6 form (IPv4 as ::ffff:a.b.c.d), ports in host order. ICMP has
 * raw and "ping" sockets (icmp.c), and the stack answers echo requests. */
#ifndef NET_INET_H
#define NET_INET_H

#include "net/unix.h"

#define INET_NOPTS 33 /* the IPPROTO_* level options kept (inet.c) */

struct inet_sock {
	struct unix_sock u;
	int proto;		       /* IPPROTO_TCP, _UDP, _UDPLITE, _ICMP or _ICMPV6 */
	bool v6only;		       /* IPV6_V6ONLY */
	bool addr_locked, port_locked; /* set by bind(), not by connect() */
	bool port_named;	       /* bind() was given the port (SOCK_BINDPORT_LOCK) */
	uint8_t saddr[16], daddr[16];  /* local and remote addresses */
	uint16_t sport, dport;	       /* local port (0: unbound) and remote */
	bool connected;		       /* daddr/dport are the peer (UDP: connect()) */
	struct list_head port_link;    /* in the protocol's table while sport != 0 */
	size_t rmem;		       /* UDP: truesize of the datagrams queued */
	/* TCP: a connect() waiting for room in syn_to's queue, in its
	 * syn_queue (not references: each leaves the list when closed) */
	struct inet_sock *syn_to;
	struct list_head syn_link, syn_queue;
	/* UDP: the error queue (MSG_ERRQUEUE, IP_RECVERR): ICMP errors about
	 * datagrams it sent, as struct skb (udp.c), counted in rmem */
	struct list_head errq;
	/* connect() said EINPROGRESS (or was interrupted): the next one
	 * reports how it ended (Linux's SS_CONNECTING of struct socket) */
	bool in_progress;
	/* TCP: a FIN went out (shutdown SHUT_WR) and one came in (the
	 * peer's SHUT_WR or close): with both, or a reset (u.reset), the
	 * connection is TCP_CLOSE (TIME_WAIT, or LAST_ACK acked at once on
	 * loopback) and has no peer address */
	bool fin_sent, fin_rcvd;
	int opts[INET_NOPTS]; /* IPPROTO_TCP/IP/IPV6/UDP options, by slot */
	/* A raw ICMP socket's ICMP_FILTER (word 0) or ICMP6_FILTER: a set
	 * bit drops that type; IP_HDRINCL; where the kernel writes an ICMPv6
	 * checksum (IPV6_CHECKSUM; -1: it does not) */
	uint32_t icmp_filter[8];
	bool hdrincl;
	int csum_off;
	/* UDP-Lite (udplite(7)): the checksum coverage it sends
	 * (UDPLITE_SEND_CSCOV, 0: all) and the least it takes
	 * (UDPLITE_RECV_CSCOV), each in force once set */
	uint16_t pcslen, pcrlen;
	bool send_cc, recv_cc;
	/* IPv4 multicast (mcast.c): IP_MULTICAST_IF's device (0: none, else
	 * lo) and address (host order, 0: none); the groups joined on lo
	 * (malloc'd); IP_MULTICAST_ALL turned off */
	int mc_index;
	uint32_t mc_addr;
	uint32_t *mc_groups;
	int mc_count;
	bool mc_all_off;
	/* IPv6's: IPV6_MULTICAST_IF's index, the groups joined, and
	 * IPV6_MULTICAST_ALL turned off */
	int mc6_index;
	uint8_t (*mc6_groups)[16];
	int mc6_count;
	bool mc6_all_off;
};

/* net/mcast.c: IPv4 multicast on lo. The options at SOL_IP
 * (IP_MULTICAST_IF, IP_ADD/DROP_MEMBERSHIP, MCAST_JOIN/LEAVE_GROUP,
 * IP_MULTICAST_ALL): -ENOPROTOOPT for any other name. */
int inet_mc_setsockopt(struct inet_sock *in, int name, const void *val, unsigned len);
int inet_mc_getsockopt(struct inet_sock *in, int name, int *v);
/* The same at SOL_IPV6 (IPV6_MULTICAST_IF, IPV6_ADD/DROP_MEMBERSHIP,
 * MCAST_JOIN/LEAVE_GROUP, IPV6_MULTICAST_ALL). */
int inet_mc6_setsockopt(struct inet_sock *in, int name, const void *val, unsigned len);
int inet_mc6_getsockopt(struct inet_sock *in, int name, int *v);
bool inet_mc_is_group(const uint8_t addr[16]);
/* A datagram to a group leaves (IP_MULTICAST_IF named lo). */
bool inet_mc_routed(const struct inet_sock *in);
/* Some socket of net joined group on lo: a datagram to it comes in. */
bool inet_mc_joined(const struct net_ns *net, const uint8_t group[16]);
/* A socket of the group's port takes it (joined, or IP_MULTICAST_ALL). */
bool inet_mc_takes(const struct inet_sock *in, const uint8_t group[16]);
/* Its memberships go (close). */
void inet_mc_release(struct inet_sock *in);

/* UDP and UDP-Lite: one code, each its own ports. */
static inline bool inet_is_udp(const struct inet_sock *in)
{
	return in->proto == LINUX_IPPROTO_UDP || in->proto == LINUX_IPPROTO_UDPLITE;
}

static inline struct inet_sock *inet_sk(struct socket *s)
{
	return (struct inet_sock *)s;
}

/* A TCP connection that has ended (Linux's TCP_CLOSE). */
static inline bool tcp_closed(const struct inet_sock *in)
{
	return in->connected && (in->u.reset || (in->fin_sent && in->fin_rcvd));
}

/* The state Linux would give a TCP socket (TCP_LISTEN, TCP_SYN_SENT...,
 * abi/linux/sock_diag.h's numbers): a connect() waiting for room is
 * SYN_SENT, a FIN sent FIN_WAIT2 (acknowledged at once), one received
 * CLOSE_WAIT; bound only, or ended, CLOSE. */
int tcp_sk_state(const struct inet_sock *in);
/* TCP_INFO and sock_diag's INET_DIAG_INFO: Linux 6.18's struct tcp_info
 * (TCP_INFO_SIZE bytes at p) of the connection. */
#define TCP_INFO_SIZE 280
void tcp_get_info(const struct inet_sock *in, uint8_t *p);
/* A new TCP socket's buffer sizes (Linux's tcp_init_sock). */
void tcp_init_buffers(struct socket *s);

int inet_create(int family, int type, int protocol, struct socket **out);
/* The value of a kept option (inet_opts' level and name), 0 if none. */
int inet_opt(const struct inet_sock *in, int level, int name);

/* inet.c, for tcp.c and udp.c */
struct inet_sock *inet_alloc(int family, int type, int proto);
/* A guest sockaddr of the socket's family (or an AF_INET one): the
 * address in its IPv6 form and the port; -EINVAL/-EAFNOSUPPORT. bind
 * takes AF_UNSPEC only with INADDR_ANY. */
int inet_parse_addr(const struct inet_sock *in, const struct linux_sockaddr_storage *a, int len,
		    bool bind, uint8_t addr[16], uint16_t *port);
int inet_parse_v4(const struct linux_sockaddr_storage *a, int len, bool bind, uint8_t addr[16],
		  uint16_t *port);
/* A destination made concrete (0.0.0.0 and :: are this host), or
 * -ENETUNREACH off loopback. */
int inet_route(const struct inet_sock *in, uint8_t addr[16]);
/* A guest address for connect or sendto: *addr and *port, the destination
 * made concrete (0.0.0.0 and :: are loopback); -ENETUNREACH off loopback. */
int inet_dest(struct inet_sock *in, const struct linux_sockaddr_storage *a, int len,
	      uint8_t addr[16], uint16_t *port);
/* sendmsg's IP_PKTINFO or IPV6_PKTINFO (for a datagram of IPv4 if v4):
 * the interface must be lo (else ENODEV) and a source address given
 * local (IPv4: ENETUNREACH, a group EINVAL; IPv6: EINVAL); then *src is
 * it, whatever the socket is bound to. */
int inet_pktinfo_source(const struct scm *scm, bool v4, uint8_t src[16]);
/* sendmsg: a datagram's TTL and TOS (IPv6: hop limit and class), the
 * message's (IP_TTL, IP_TOS, IPV6_HOPLIMIT, IPV6_TCLASS) or else the
 * socket's options (IP_TTL's default is 64, the loopback route's). */
void inet_send_ip(const struct inet_sock *in, const struct scm *scm, bool v4, uint8_t *ttl,
		  uint8_t *tos);
/* recvmsg: a datagram's IP-level values (ttl: TTL or hop limit, tos: TOS
 * or class) into scm, reported as in asked (IP_RECVTTL, IP_RECVTOS,
 * IPV6_RECVHOPLIMIT, IPV6_RECVTCLASS, and with dst, the address it went
 * to, IP_PKTINFO and IPV6_RECVPKTINFO), by the datagram's version (v4):
 * an AF_INET6 socket hears an IPv4 one's through the IPv4 options. */
void inet_recv_ip(const struct inet_sock *in, bool v4, uint8_t ttl, uint8_t tos, const uint8_t *dst,
		  struct scm *scm);
/* A datagram socket's receive (UDP's, ICMP's). inet_dgram_wait: the first
 * datagram queued (skb_recv_datagram), waited for within SO_RCVTIMEO:
 * 0 and *out, or 0 and no datagram at the end of data (SHUT_RD), or a
 * pending error, EAGAIN, a signal. inet_dgram_copy: its data from
 * skb->consumed into m (MSG_TRUNC if cut), then, unless peeking, it is
 * gone (also when the copy faults, as udp_recvmsg frees it): the bytes
 * copied, or -EFAULT. */
int inet_dgram_wait(struct inet_sock *in, unsigned flags, struct skb **out);
long inet_dgram_copy(struct inet_sock *in, struct skb *skb, struct kmsg *m, unsigned flags);
/* The source address for a destination: the bound one, or loopback. */
int inet_source(struct inet_sock *in, const uint8_t dst[16], uint8_t src[16]);
/* An ephemeral port for an unbound socket (connect, sendto, listen):
 * -EADDRINUSE when the range is used up. */
int inet_autobind(struct inet_sock *in);
void inet_unhash(struct inet_sock *in);
/* Puts in in proto's port table at port. */
void inet_hash_port(struct inet_sock *in, uint16_t port);
/* listen(): an ephemeral port if unbound, else EADDRINUSE if another
 * socket listens on an overlapping address without SO_REUSEPORT. */
int inet_listen_port(struct inet_sock *in);
/* Does in's local address take packets sent to dst? */
bool inet_covers(const struct inet_sock *in, const uint8_t dst[16]);
/* The chain of proto's port table that holds the sockets bound to port
 * (and others: check sport), by port_link. */
struct list_head *inet_table(int proto, uint16_t port);
/* addr:port as a sockaddr of family; returns its length. */
int inet_fill_addr(int family, const uint8_t addr[16], uint16_t port,
		   struct linux_sockaddr_storage *a);
bool inet_is_v4(const uint8_t addr[16]);
/* An IPv4 (v4-mapped) address's four bytes as a number, host order. */
uint32_t inet_v4_of(const uint8_t addr[16]);
/* The loopback's broadcast address, 127.255.255.255 (RTN_BROADCAST):
 * datagrams to it want SO_BROADCAST (EACCES), TCP cannot go there. */
bool inet_is_bcast(const uint8_t addr[16]);
int inet_shutdown(struct socket *s, int how);
int inet_setsockopt(struct socket *s, int level, int name, const void *val, unsigned len);
int inet_getsockopt(struct socket *s, int level, int name, void *val, int *len);
int inet_getname(struct socket *s, struct linux_sockaddr_storage *a, bool peer);
int inet_bind(struct task *t, struct socket *s, const struct linux_sockaddr_storage *a, int len);
int inet_socketpair(struct task *t, struct socket *a, struct socket *b);
void inet_destroy(struct socket *s);

/* The counters of /proc/net/snmp's Tcp line that skas keeps (tcp.c). */
struct tcp_mib {
	unsigned long active_opens, passive_opens, attempt_fails;
};
extern struct tcp_mib tcp_mib;

/* tcp.c, udp.c and icmp.c */
extern const struct proto_ops tcp_ops;
extern const struct proto_ops udp_ops;
extern const struct proto_ops icmp_ops;
/* connect() of a datagram socket (UDP's; ICMP sockets share it). */
int udp_connect(struct task *t, struct socket *s, const struct linux_sockaddr_storage *a, int len,
		bool nonblock);
/* An ICMP error about a UDP datagram (src:sport to dst:dport), from
 * offender: the sending socket hears of it as err (hard: a connected one
 * without IP_RECVERR too), with the quoted payload in its error queue if
 * it asked (IP_RECVERR, or IPV6_RECVERR for an IPv6 error). ttl and tos
 * are the ICMP packet's (IP_RECVTTL...). */
struct udp_icmp_err {
	const struct net_ns *net;
	int proto; /* of the datagram quoted: IPPROTO_UDP or _UDPLITE */
	bool v4, hard;
	int err, type, code;
	uint32_t info;
	const uint8_t *src, *dst, *offender;
	uint16_t sport, dport;
	uint8_t ttl, tos;
	const uint8_t *payload;
	size_t len;
};
void udp_err(const struct udp_icmp_err *e);
/* Drops the errors queued (a socket's IP_RECVERR turned off, its end). */
void udp_purge_errq(struct inet_sock *in);
/* The stack's answer to a datagram for a port nobody holds: an ICMP port
 * unreachable (rate-limited as Linux's icmp_global_allow) quoting it. */
void icmp_port_unreach(struct net_ns *net, bool v4, int proto, uint16_t cscov,
		       const uint8_t src[16], uint16_t sport, const uint8_t dst[16], uint16_t dport,
		       const uint8_t *data, size_t len, uint8_t ttl, uint8_t tos);
/* A raw (CAP_NET_RAW) or ping (net.ipv4.ping_group_range) ICMP socket. */
int icmp_create(int family, int type, int protocol, struct socket **out);
/* net.ipv4.ping_group_range: the groups that may open ping sockets. */
void icmp_ping_range(uint32_t range[2]);
/* net.ipv4.ip_local_port_range: the ports a bind to port 0 or a connect
 * picks from; the set is -EINVAL unless 1 <= low <= high <= 65535. */
void inet_local_port_range(int range[2]);
int inet_set_local_port_range(int low, int high);
int icmp_set_ping_range(long lo, long hi);
/* SOCK_DESTROY (tcp_abort, udp_abort): the socket's end with err. A TCP
 * connection's peer hears a reset, a listener stops, a connect() that
 * waits ends; a UDP socket is disconnected. */
void tcp_abort(struct inet_sock *in, int err);
void udp_abort(struct inet_sock *in, int err);
/* A listener stops: the connections waiting for its queue are refused. */
void tcp_refuse_waiting(struct inet_sock *l);
/* A connect() that waits for a listener gives up (shutdown, AF_UNSPEC). */
void tcp_abort_waiting(struct inet_sock *in);
/* The listener's settings a new connection starts with. */
void inet_inherit(struct inet_sock *child, const struct inet_sock *parent);

#endif
