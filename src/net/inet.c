/* net/inet.c: what TCP and UDP sockets share: creation, addresses (which
 * are local, what a destination means), the port tables with bind's
 * conflicts and ephemeral ports, getsockname/getpeername, shutdown and
 * the IPPROTO_IP/IPV6/TCP/UDP options. The whole instance is one network
 * namespace whose only interface is lo (127.0.0.1/8, ::1).
 * Differs from Linux: a connection taken by accept() holds no place in
 * the port table (Linux's shares the listener's port), and nothing waits
 * in TIME_WAIT, so a port is free again as soon as its sockets are closed
 * or its listener is; the options are kept and read back, not applied. */
#include <stdlib.h>
#include <string.h>

#include "net/inet.h"
#include "net/netdev.h"
#include "net/netns.h"
#include "kernel/task.h"
#include "kernel/cred.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/poll.h"
#include "kernel/random.h"

#define CAP_NET_BIND_SERVICE 10
#define CAP_NET_RAW	     13
#define PROT_SOCK	     1024 /* ports below need CAP_NET_BIND_SERVICE */
/* net.ipv4.ip_local_port_range (instance-wide here; Linux's is per
 * network namespace) */
static int ephemeral_low = 32768, ephemeral_high = 60999;
#define IPPROTO_MAX	    263 /* IPPROTO_MPTCP + 1 */
#define INET_ECN_MASK	    3	/* the ECN bits of IP_TOS and IPV6_TCLASS */
#define IP_FREEBIND	    15
#define IP_MULTICAST_IF	    32
#define IP_MULTICAST_TTL    33
#define IP_MULTICAST_LOOP   34
#define IPV6_MULTICAST_HOPS 18
#define UDPLITE_SEND_CSCOV  10
#define UDPLITE_RECV_CSCOV  11

/* The port tables: sockets by local port, hashed, so that a bind or an
 * ephemeral port costs a short chain, not every socket (a guest holding
 * all 28232 ephemeral ports must not make each pick quadratic). */
#define PORT_HASH 4096
static struct list_head tcp_table[PORT_HASH], udp_table[PORT_HASH], udplite_table[PORT_HASH],
	ping_table[PORT_HASH];

static const uint8_t v4_mapped_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
static const uint8_t v6_loopback[16] = { [15] = 1 };

struct list_head *inet_table(int proto, uint16_t port)
{
	static bool ready;
	int i;

	if (!ready) {
		for (i = 0; i < PORT_HASH; i++) {
			list_init(&tcp_table[i]);
			list_init(&udp_table[i]);
			list_init(&udplite_table[i]);
			list_init(&ping_table[i]);
		}
		ready = true;
	}
	if (proto == LINUX_IPPROTO_TCP)
		return &tcp_table[port % PORT_HASH];
	if (proto == LINUX_IPPROTO_UDPLITE)
		return &udplite_table[port % PORT_HASH];
	return proto == LINUX_IPPROTO_UDP ? &udp_table[port % PORT_HASH]
					  : &ping_table[port % PORT_HASH];
}

bool inet_is_v4(const uint8_t addr[16])
{
	return memcmp(addr, v4_mapped_prefix, 12) == 0;
}

static bool is_any6(const uint8_t addr[16])
{
	static const uint8_t zero[16];

	return memcmp(addr, zero, 16) == 0;
}

/* The IPv4 address in a mapped one, in host order. */
uint32_t inet_v4_of(const uint8_t addr[16])
{
	return (uint32_t)addr[12] << 24 | addr[13] << 16 | addr[14] << 8 | addr[15];
}

static void set_v4(uint8_t addr[16], uint32_t v4)
{
	memcpy(addr, v4_mapped_prefix, 12);
	addr[12] = v4 >> 24;
	addr[13] = v4 >> 16;
	addr[14] = v4 >> 8;
	addr[15] = v4;
}

static bool v4_is_loopback(uint32_t v4)
{
	return (v4 >> 24) == 127;
}

/* Multicast (224/4), the limited broadcast or the loopback's (its
 * 127.255.255.255): bind takes them (a receiver of a group), but nothing
 * is sent from them. */
static bool v4_is_group(uint32_t v4)
{
	return (v4 >> 28) == 0xe || v4 == 0xffffffff || v4 == 0x7fffffff;
}

bool inet_is_bcast(const uint8_t addr[16])
{
	return inet_is_v4(addr) && inet_v4_of(addr) == 0x7fffffff;
}

/* The options kept for getsockopt, one slot each (inet_sock.opts). */
struct inet_opt {
	int level, name;
	int def, min, max;
	bool boolean;
	int proto;	     /* 0: any socket; else only sockets of this protocol */
	bool minus1_default; /* -1 sets the default (IP_TTL, the hop limit, the class) */
};

static const struct inet_opt inet_opts[INET_NOPTS] = {
	{ LINUX_SOL_TCP, 1, 0, 0, 0, true, LINUX_IPPROTO_TCP, false },	       /* TCP_NODELAY */
	{ LINUX_SOL_TCP, 2, 536, 88, 32767, false, LINUX_IPPROTO_TCP, false }, /* TCP_MAXSEG */
	{ LINUX_SOL_TCP, 3, 0, 0, 0, true, LINUX_IPPROTO_TCP, false },	       /* TCP_CORK */
	{ LINUX_SOL_TCP, 4, 7200, 1, 32767, false, LINUX_IPPROTO_TCP, false }, /* TCP_KEEPIDLE */
	{ LINUX_SOL_TCP, 5, 75, 1, 32767, false, LINUX_IPPROTO_TCP, false },   /* TCP_KEEPINTVL */
	{ LINUX_SOL_TCP, 6, 9, 1, 127, false, LINUX_IPPROTO_TCP, false },      /* TCP_KEEPCNT */
	{ LINUX_SOL_TCP, 7, 6, 1, 127, false, LINUX_IPPROTO_TCP, false },      /* TCP_SYNCNT */
	{ LINUX_SOL_TCP, 9, 0, 0, INT32_MAX, false, LINUX_IPPROTO_TCP,
	  false },							/* TCP_DEFER_ACCEPT */
	{ LINUX_SOL_TCP, 12, 1, 0, 0, true, LINUX_IPPROTO_TCP, false }, /* TCP_QUICKACK */
	{ LINUX_SOL_TCP, 18, 0, 0, INT32_MAX, false, LINUX_IPPROTO_TCP,
	  false }, /* TCP_USER_TIMEOUT */
	{ LINUX_SOL_TCP, 23, 0, 0, INT32_MAX, false, LINUX_IPPROTO_TCP, false }, /* TCP_FASTOPEN */
	{ LINUX_SOL_IP, 1, 0, INT32_MIN, INT32_MAX, false, 0, false }, /* IP_TOS (a byte) */
	{ LINUX_SOL_IP, 2, 64, 1, 255, false, 0, true },	       /* IP_TTL */
	{ LINUX_SOL_IP, 10, 1, 0, 5, false, 0, false },		       /* IP_MTU_DISCOVER */
	{ LINUX_SOL_IP, 11, 0, 0, 0, true, 0, false },		       /* IP_RECVERR */
	{ LINUX_SOL_IP, 15, 0, 0, 0, true, 0, false },		       /* IP_FREEBIND */
	{ LINUX_SOL_IP, 12, 0, 0, 0, true, 0, false },		       /* IP_RECVTTL */
	{ LINUX_SOL_IP, 13, 0, 0, 0, true, 0, false },		       /* IP_RECVTOS */
	/* IP_RECVOPTS, IP_RETOPTS: no packet here has IP options to report */
	{ LINUX_SOL_IP, 6, 0, 0, 0, true, 0, false },
	{ LINUX_SOL_IP, 7, 0, 0, 0, true, 0, false },
	{ LINUX_SOL_IPV6, 51, 0, 0, 0, true, 0, false },    /* IPV6_RECVHOPLIMIT */
	{ LINUX_SOL_IPV6, 66, 0, 0, 0, true, 0, false },    /* IPV6_RECVTCLASS */
	{ LINUX_SOL_IPV6, 16, 64, 0, 255, false, 0, true }, /* IPV6_UNICAST_HOPS */
	{ LINUX_SOL_IPV6, 25, 0, 0, 0, true, 0, false },    /* IPV6_RECVERR */
	{ LINUX_SOL_IPV6, 23, 1, 0, 5, false, 0, false },   /* IPV6_MTU_DISCOVER */
	/* the multicast TTL, hop limit and loop: kept (no multicast here) */
	{ LINUX_SOL_IP, 33, 1, 0, 255, false, 0, true },	       /* IP_MULTICAST_TTL */
	{ LINUX_SOL_IP, 34, 1, 0, 0, true, 0, false },		       /* IP_MULTICAST_LOOP */
	{ LINUX_SOL_IPV6, 18, 1, 0, 255, false, 0, true },	       /* IPV6_MULTICAST_HOPS */
	{ LINUX_SOL_IPV6, 19, 1, 0, 1, false, 0, false },	       /* IPV6_MULTICAST_LOOP */
	{ LINUX_SOL_IP, 8, 0, 0, 0, true, 0, false },		       /* IP_PKTINFO */
	{ LINUX_SOL_IPV6, 49, 0, 0, 0, true, 0, false },	       /* IPV6_RECVPKTINFO */
	{ LINUX_SOL_IPV6, 67, 0, 0, 255, false, 0, true },	       /* IPV6_TCLASS */
	{ LINUX_SOL_UDP, 1, 0, 0, 0, true, LINUX_IPPROTO_UDP, false }, /* UDP_CORK */
};

#define IPV6_V6ONLY 26

struct inet_sock *inet_alloc(int family, int type, int proto)
{
	const struct proto_ops *ops = proto == LINUX_IPPROTO_TCP ? &tcp_ops
				      : proto == LINUX_IPPROTO_UDP || proto == LINUX_IPPROTO_UDPLITE
					      ? &udp_ops
					      : &icmp_ops;
	struct unix_sock *u = unix_sock_alloc(sizeof(struct inet_sock), family, type, ops);
	struct inet_sock *in = (struct inet_sock *)u;
	int i;

	if (!u)
		return NULL;
	u->sk.protocol = proto;
	in->proto = proto;
	if (proto == LINUX_IPPROTO_TCP)
		tcp_init_buffers(&u->sk);
	list_init(&in->port_link);
	list_init(&in->syn_link);
	list_init(&in->syn_queue);
	list_init(&in->errq);
	if (family == LINUX_AF_INET)
		set_v4(in->saddr, 0);
	for (i = 0; i < INET_NOPTS; i++)
		in->opts[i] = inet_opts[i].def;
	return in;
}

int inet_create(int family, int type, int protocol, struct socket **out)
{
	struct inet_sock *in;
	int proto;

	if (protocol < 0 || protocol >= IPPROTO_MAX)
		return -EINVAL;
	switch (type) {
	case LINUX_SOCK_STREAM:
		proto = LINUX_IPPROTO_TCP;
		break;
	case LINUX_SOCK_DGRAM:
		if (protocol ==
		    (family == LINUX_AF_INET ? LINUX_IPPROTO_ICMP : LINUX_IPPROTO_ICMPV6))
			return icmp_create(family, type, protocol, out);
		/* UDP-Lite: UDP's datagrams with a checksum coverage of
		 * their own (udplite(7)), and ports apart */
		proto = protocol == LINUX_IPPROTO_UDPLITE ? LINUX_IPPROTO_UDPLITE
							  : LINUX_IPPROTO_UDP;
		break;
	case LINUX_SOCK_RAW:
		return icmp_create(family, type, protocol, out);
	default:
		return -ESOCKTNOSUPPORT;
	}
	/* SCTP, DCCP...: not here. */
	if (protocol && protocol != proto)
		return -EPROTONOSUPPORT;
	in = inet_alloc(family, type, proto);
	if (!in)
		return -ENOMEM;
	*out = &in->u.sk;
	return 0;
}

void inet_inherit(struct inet_sock *child, const struct inet_sock *parent)
{
	const struct socket *ps = &parent->u.sk;
	struct socket *cs = &child->u.sk;

	memcpy(child->opts, parent->opts, sizeof(child->opts));
	child->v6only = parent->v6only;
	child->port_named = parent->port_named; /* sk_userlocks */
	cs->optflags = ps->optflags;
	cs->tstamp = ps->tstamp;
	cs->bound_dev_if = ps->bound_dev_if;
	cs->sndbuf = ps->sndbuf;
	cs->rcvbuf = ps->rcvbuf;
	cs->sndbuf_locked = ps->sndbuf_locked;
	cs->rcvbuf_locked = ps->rcvbuf_locked;
	cs->rcvtimeo = ps->rcvtimeo;
	cs->sndtimeo = ps->sndtimeo;
	cs->rcvlowat = ps->rcvlowat;
	cs->priority = ps->priority;
	cs->linger = ps->linger;
}

int inet_parse_v4(const struct linux_sockaddr_storage *a, int len, bool bind, uint8_t addr[16],
		  uint16_t *port)
{
	struct linux_sockaddr_in sin;

	if (len < (int)sizeof(sin))
		return -EINVAL;
	memcpy(&sin, a, sizeof(sin));
	if (sin.sin_family != LINUX_AF_INET &&
	    !(sin.sin_family == LINUX_AF_UNSPEC && (bind ? sin.sin_addr == 0 : true)))
		return -EAFNOSUPPORT;
	set_v4(addr, __builtin_bswap32(sin.sin_addr));
	*port = __builtin_bswap16(sin.sin_port);
	return 0;
}

/* A guest sockaddr for socket in: the address in its IPv6 form and the
 * port. bind takes AF_UNSPEC with INADDR_ANY on an AF_INET socket. */
int inet_parse_addr(const struct inet_sock *in, const struct linux_sockaddr_storage *a, int len,
		    bool bind, uint8_t addr[16], uint16_t *port)
{
	if (in->u.sk.family == LINUX_AF_INET)
		return inet_parse_v4(a, len, bind, addr, port);
	struct linux_sockaddr_in6 sin6;

	if (len < LINUX_SIN6_LEN_RFC2133)
		return -EINVAL;
	memset(&sin6, 0, sizeof(sin6));
	memcpy(&sin6, a, LINUX_SIN6_LEN_RFC2133);
	if (sin6.sin6_family != LINUX_AF_INET6)
		return -EAFNOSUPPORT;
	memcpy(addr, sin6.sin6_addr, 16);
	*port = __builtin_bswap16(sin6.sin6_port);
	return 0;
}

int inet_route(const struct inet_sock *in, uint8_t addr[16])
{
	if (!in->u.sk.net->lo_up)
		return -ENETUNREACH; /* lo down: no route at all */
	if (is_any6(addr)) {
		/* :: means this host: 127.0.0.1 for a socket bound to an IPv4
		 * address (tcp_v6_connect, udpv6_sendmsg), else ::1 */
		if (inet_is_v4(in->saddr) && !is_any6(in->saddr))
			set_v4(addr, 0x7f000001);
		else
			memcpy(addr, v6_loopback, 16);
	}
	if (inet_is_v4(addr)) {
		uint32_t v4 = inet_v4_of(addr);

		if (in->u.sk.family == LINUX_AF_INET6 && in->v6only)
			return -ENETUNREACH;
		if (v4 == 0) /* INADDR_ANY: the source address, or loopback */
			v4 = inet_v4_of(in->saddr) && inet_is_v4(in->saddr) &&
					     !v4_is_group(inet_v4_of(in->saddr))
				     ? inet_v4_of(in->saddr)
				     : 0x7f000001;
		/* a group: through IP_MULTICAST_IF's device (no route) */
		if (inet_mc_is_group(addr))
			return inet_mc_routed(in) ? 0 : -ENETUNREACH;
		if (!v4_is_loopback(v4))
			return -ENETUNREACH;
		set_v4(addr, v4);
		return 0;
	}
	return memcmp(addr, v6_loopback, 16) == 0 ? 0 : -ENETUNREACH;
}

int inet_pktinfo_source(const struct scm *scm, bool v4, uint8_t src[16])
{
	if (!(scm->ip_given & (v4 ? SCM_IP_PKTINFO : SCM_IPV6_PKTINFO)))
		return 0;
	if (scm->pkt_ifindex && !netdev_by_index(scm->pkt_ifindex))
		return -ENODEV;
	if (v4 && inet_v4_of(scm->pkt_addr)) {
		/* ip_route_output_key_hash_rcu: a group or zeronet source is
		 * EINVAL, one no device has no route */
		if (v4_is_group(inet_v4_of(scm->pkt_addr)) || !(inet_v4_of(scm->pkt_addr) >> 24))
			return -EINVAL;
		if (!v4_is_loopback(inet_v4_of(scm->pkt_addr)))
			return -ENETUNREACH;
		memcpy(src, scm->pkt_addr, 16);
	} else if (!v4 && !is_any6(scm->pkt_addr)) {
		if (memcmp(scm->pkt_addr, v6_loopback, 16) != 0)
			return -EINVAL; /* ip6_datagram_send_ctl: not ours */
		memcpy(src, scm->pkt_addr, 16);
	}
	return 0;
}

/* recvmsg of a datagram (v4: IPv4) sent to dst: IP_PKTINFO's and
 * IPV6_PKTINFO's messages, if in asked for them, into scm. */
static void inet_pktinfo_report(const struct inet_sock *in, bool v4, const uint8_t dst[16],
				struct scm *scm)
{
	bool v6sock = in->u.sk.family == LINUX_AF_INET6;

	scm->pkt_ifindex = 1; /* lo */
	memcpy(scm->pkt_addr, dst, 16);
	memcpy(scm->pkt_spec_dst, dst, 16);
	if (inet_is_bcast(dst))
		set_v4(scm->pkt_spec_dst, 0x7f000001); /* fib_compute_spec_dst */
	if (v6sock && inet_opt(in, LINUX_SOL_IPV6, IPV6_RECVPKTINFO))
		scm->ip_report |= SCM_IPV6_PKTINFO;
	if (v4 && inet_opt(in, LINUX_SOL_IP, IP_PKTINFO))
		scm->ip_report |= SCM_IP_PKTINFO;
}

void inet_send_ip(const struct inet_sock *in, const struct scm *scm, bool v4, uint8_t *ttl,
		  uint8_t *tos)
{
	if (v4) {
		*ttl = (uint8_t)((scm->ip_given & SCM_IP_TTL) ? scm->ttl
							      : inet_opt(in, LINUX_SOL_IP, IP_TTL));
		*tos = (uint8_t)((scm->ip_given & SCM_IP_TOS) ? scm->tos
							      : inet_opt(in, LINUX_SOL_IP, IP_TOS));
	} else {
		*ttl = (uint8_t)((scm->ip_given & SCM_IPV6_HOPS)
					 ? scm->hops
					 : inet_opt(in, LINUX_SOL_IPV6, IPV6_UNICAST_HOPS));
		*tos = (uint8_t)((scm->ip_given & SCM_IPV6_TCLASS)
					 ? scm->tclass
					 : inet_opt(in, LINUX_SOL_IPV6, IPV6_TCLASS));
	}
}

void inet_recv_ip(const struct inet_sock *in, bool v4, uint8_t ttl, uint8_t tos, const uint8_t *dst,
		  struct scm *scm)
{
	scm->ttl = scm->hops = ttl;
	scm->tos = scm->tclass = tos;
	if (dst)
		inet_pktinfo_report(in, v4, dst, scm);
	if (v4) {
		if (inet_opt(in, LINUX_SOL_IP, IP_RECVTTL))
			scm->ip_report |= SCM_IP_TTL;
		if (inet_opt(in, LINUX_SOL_IP, IP_RECVTOS))
			scm->ip_report |= SCM_IP_TOS;
	} else {
		if (inet_opt(in, LINUX_SOL_IPV6, IPV6_RECVHOPLIMIT))
			scm->ip_report |= SCM_IPV6_HOPS;
		if (inet_opt(in, LINUX_SOL_IPV6, IPV6_RECVTCLASS))
			scm->ip_report |= SCM_IPV6_TCLASS;
	}
}

int inet_dgram_wait(struct inet_sock *in, unsigned flags, struct skb **out)
{
	struct socket *s = &in->u.sk;
	int64_t deadline = sock_deadline(s->rcvtimeo, flags & LINUX_MSG_DONTWAIT);
	int err;

	*out = NULL;
	for (;;) {
		err = sock_error(s);
		if (err < 0)
			return err;
		if (!list_empty(&in->u.queue)) {
			*out = list_first_entry(&in->u.queue, struct skb, link);
			return 0;
		}
		if (deadline == 0)
			return -EAGAIN; /* before the end of data, as __skb_recv_udp */
		if (s->shutdown & RCV_SHUTDOWN)
			return 0;
		err = sock_wait(&s->wq, deadline);
		if (err < 0)
			return err;
	}
}

long inet_dgram_copy(struct inet_sock *in, struct skb *skb, struct kmsg *m, unsigned flags)
{
	size_t size = m->iter.count, dlen = skb->len - skb->consumed;
	long ret;

	if (size > dlen)
		size = dlen;
	else if (size < dlen)
		m->flags |= LINUX_MSG_TRUNC;
	ret = iter_copy_to(&m->iter, skb->data + skb->consumed, size) < 0 ? -EFAULT : (long)size;
	if (!(flags & LINUX_MSG_PEEK)) {
		list_del(&skb->link);
		in->u.qlen--;
		in->u.inq -= skb->len;
		in->rmem -= skb->truesize;
		skb_free(skb);
	}
	return ret;
}

int inet_dest(struct inet_sock *in, const struct linux_sockaddr_storage *a, int len,
	      uint8_t addr[16], uint16_t *port)
{
	int ret = inet_parse_addr(in, a, len, false, addr, port);

	return ret < 0 ? ret : inet_route(in, addr);
}

int inet_source(struct inet_sock *in, const uint8_t dst[16], uint8_t src[16])
{
	bool v4 = inet_is_v4(dst);

	if (in->addr_locked && !is_any6(in->saddr) &&
	    !(inet_is_v4(in->saddr) && !inet_v4_of(in->saddr))) {
		if (inet_is_v4(in->saddr) != v4)
			return -ENETUNREACH;
		memcpy(src, in->saddr, 16);
		return 0;
	}
	if (v4)
		set_v4(src, 0x7f000001);
	else
		memcpy(src, v6_loopback, 16);
	if (inet_mc_is_group(dst) && in->mc_addr) /* IP_MULTICAST_IF's address */
		set_v4(src, in->mc_addr);
	return 0;
}

bool inet_covers(const struct inet_sock *in, const uint8_t dst[16])
{
	const uint8_t *l = in->saddr;

	if (inet_is_v4(dst)) {
		if (is_any6(l))
			return !in->v6only; /* an AF_INET6 socket on :: */
		return inet_is_v4(l) && (inet_v4_of(l) == 0 || inet_v4_of(l) == inet_v4_of(dst));
	}
	if (in->u.sk.family == LINUX_AF_INET)
		return false;
	return is_any6(l) || memcmp(l, dst, 16) == 0;
}

/* The addresses a bound socket takes, per version: none, all, or one. */
enum { SET_NONE, SET_ALL, SET_ONE };

static int addr_set(const struct inet_sock *in, bool v4)
{
	const uint8_t *l = in->saddr;

	if (is_any6(l))
		return v4 ? (in->v6only ? SET_NONE : SET_ALL) : SET_ALL;
	if (inet_is_v4(l))
		return !v4 ? SET_NONE : inet_v4_of(l) ? SET_ONE : SET_ALL;
	return v4 ? SET_NONE : SET_ONE;
}

static bool addrs_overlap(const struct inet_sock *a, const struct inet_sock *b)
{
	int v;

	for (v = 0; v < 2; v++) {
		int sa = addr_set(a, v), sb = addr_set(b, v);

		if (sa == SET_NONE || sb == SET_NONE)
			continue;
		if (sa == SET_ALL || sb == SET_ALL || memcmp(a->saddr, b->saddr, 16) == 0)
			return true;
	}
	return false;
}

/* Would in, bound to port, clash with other (inet_csk_bind_conflict and
 * udp_lib_lport_inuse)? listening: the check listen() makes again. */
static bool bind_conflict(const struct inet_sock *in, const struct inet_sock *other, bool listening)
{
	const struct socket *s = &in->u.sk, *o = &other->u.sk;

	if (other == in || !addrs_overlap(in, other))
		return false;
	if (sock_reuseport(s) && sock_reuseport(o) && s->uid == o->uid)
		return false;
	if (listening)
		return o->state == SS_LISTEN;
	if (sock_reuseaddr(s) && sock_reuseaddr(o))
		return in->proto == LINUX_IPPROTO_TCP && o->state == SS_LISTEN;
	return true;
}

static bool port_in_use(const struct inet_sock *in, uint16_t port, bool listening)
{
	struct inet_sock *o;

	list_for_each_entry(o, inet_table(in->proto, port), port_link)
	{
		if (o->sport == port && o->u.sk.net == in->u.sk.net &&
		    bind_conflict(in, o, listening))
			return true;
	}
	return false;
}

static bool port_taken(const struct net_ns *net, int proto, uint16_t port)
{
	struct inet_sock *o;

	list_for_each_entry(o, inet_table(proto, port), port_link)
	{
		if (o->sport == port && o->u.sk.net == net)
			return true;
	}
	return false;
}

void inet_hash_port(struct inet_sock *in, uint16_t port)
{
	in->sport = port;
	list_add_tail(&in->port_link, inet_table(in->proto, port));
}

void inet_unhash(struct inet_sock *in)
{
	list_del(&in->port_link);
	in->sport = 0;
}

/* An ICMP echo identifier no ping socket of net holds: the one after the
 * last net gave, never 0 (ping_get_port). */
static int pick_ident(struct net_ns *net)
{
	uint32_t i;

	for (i = 0; i < 0x10000; i++) {
		if (++net->ping_rover == 0)
			net->ping_rover++;
		if (!port_taken(net, LINUX_IPPROTO_ICMP, net->ping_rover))
			return net->ping_rover;
	}
	return -EADDRINUSE;
}

/* A port of the ephemeral range that no socket of net and the protocol
 * holds (ping sockets: an identifier). Each search starts at a random
 * place, as Linux's (inet_csk_find_open_port, __inet_hash_connect): the
 * next port is not the last one plus one, which another guest could
 * guess. */
static int pick_port(struct net_ns *net, int proto)
{
	uint32_t range = (uint32_t)(ephemeral_high - ephemeral_low + 1), i,
		 start = (uint32_t)(get_random_u64() % range);

	if (proto == LINUX_IPPROTO_ICMP || proto == LINUX_IPPROTO_ICMPV6)
		return pick_ident(net);
	for (i = 0; i < range; i++) {
		uint16_t port = (uint16_t)(ephemeral_low + (int)((start + i) % range));

		if (!port_taken(net, proto, port))
			return port;
	}
	return -EADDRINUSE;
}

void inet_local_port_range(int range[2])
{
	range[0] = ephemeral_low;
	range[1] = ephemeral_high;
}

int inet_set_local_port_range(int low, int high)
{
	/* ipv4_local_port_range: within 1..65535, low not above high */
	if (low < 1 || high > 65535 || low > high)
		return -EINVAL;
	ephemeral_low = low;
	ephemeral_high = high;
	return 0;
}

int inet_autobind(struct inet_sock *in)
{
	int port;

	if (in->sport)
		return 0;
	port = pick_port(in->u.sk.net, in->proto);
	if (port < 0)
		return port; /* the caller says what a used-up range means */
	inet_hash_port(in, (uint16_t)port);
	return 0;
}

/* A local address to bind: 0 or -EADDRNOTAVAIL/-EINVAL. */
static int check_local(const struct inet_sock *in, const uint8_t addr[16])
{
	const struct net_ns *net = in->u.sk.net;

	/* ::1 is lo's while it is up (addrconf_ifdown takes it) */
	if (in->u.sk.family == LINUX_AF_INET6 && !inet_is_v4(addr))
		return is_any6(addr) || (net->lo_up && memcmp(addr, v6_loopback, 16) == 0)
			       ? 0
			       : -EADDRNOTAVAIL;
	if (in->u.sk.family == LINUX_AF_INET6 && in->v6only)
		return -EINVAL;
	/* A namespace whose lo was never up has no local table yet, and
	 * Linux's __inet_dev_addr_type then calls every address broadcast,
	 * which bind takes (CONFIG_IP_MULTIPLE_TABLES, as Debian's) */
	if (!net->lo_has_v4)
		return 0;
	return inet_v4_of(addr) == 0 || v4_is_loopback(inet_v4_of(addr)) ||
			       v4_is_group(inet_v4_of(addr))
		       ? 0
		       : -EADDRNOTAVAIL;
}

int inet_bind(struct task *t, struct socket *s, const struct linux_sockaddr_storage *a, int len)
{
	struct inet_sock *in = inet_sk(s);
	uint8_t addr[16];
	uint16_t port;
	int ret = inet_parse_addr(in, a, len, true, addr, &port);

	(void)t; /* the capability counts over the socket's namespace */
	if (ret < 0)
		return ret;
	ret = check_local(in, addr);
	if (ret < 0)
		return ret;
	if (port && port < PROT_SOCK && !net_capable(s->net, CAP_NET_BIND_SERVICE))
		return -EACCES;
	if (s->state != SS_CLOSE || in->sport)
		return -EINVAL;
	memcpy(in->saddr, addr, 16);
	in->port_named = port != 0;
	if (port && port_in_use(in, port, false)) {
		ret = -EADDRINUSE;
	} else if (!port) {
		ret = pick_port(in->u.sk.net, in->proto);
		port = (uint16_t)ret;
	}
	if (ret < 0) {
		memset(in->saddr, 0, 16);
		if (s->family == LINUX_AF_INET)
			set_v4(in->saddr, 0);
		return ret;
	}
	inet_hash_port(in, port);
	/* a group address is only received on: the source stays free */
	in->addr_locked = !is_any6(addr) && !(inet_is_v4(addr) &&
					      (!inet_v4_of(addr) || v4_is_group(inet_v4_of(addr))));
	in->port_locked = true;
	return 0;
}

/* listen() checks its port again against the other listeners. */
int inet_listen_port(struct inet_sock *in)
{
	if (!in->sport)
		return inet_autobind(in) < 0 ? -EADDRINUSE : 0; /* inet_csk_listen_start */
	return port_in_use(in, in->sport, true) ? -EADDRINUSE : 0;
}

int inet_fill_addr(int family, const uint8_t addr[16], uint16_t port,
		   struct linux_sockaddr_storage *a)
{
	memset(a, 0, sizeof(*a));
	if (family == LINUX_AF_INET) {
		struct linux_sockaddr_in sin = { .sin_family = LINUX_AF_INET };

		sin.sin_port = __builtin_bswap16(port);
		sin.sin_addr = __builtin_bswap32(inet_v4_of(addr));
		memcpy(a, &sin, sizeof(sin));
		return sizeof(sin);
	}
	struct linux_sockaddr_in6 sin6 = { .sin6_family = LINUX_AF_INET6 };

	sin6.sin6_port = __builtin_bswap16(port);
	memcpy(sin6.sin6_addr, addr, 16);
	memcpy(a, &sin6, sizeof(sin6));
	return sizeof(sin6);
}

int inet_getname(struct socket *s, struct linux_sockaddr_storage *a, bool peer)
{
	struct inet_sock *in = inet_sk(s);

	if (peer) {
		/* inet_getname: a peer has a port, and is gone in TCP_CLOSE
		 * (ssl.py tells data sent before a reset by this) */
		if (!in->connected || !in->dport ||
		    (in->proto == LINUX_IPPROTO_TCP && tcp_closed(in)))
			return -ENOTCONN;
		return inet_fill_addr(s->family, in->daddr, in->dport, a);
	}
	return inet_fill_addr(s->family, in->saddr, in->sport, a);
}

/* inet_shutdown: an unconnected socket says ENOTCONN but is shut down all
 * the same (a way to wake its blocked readers); SHUT_RD on a listener
 * stops it; SHUT_WR on a connection is the peer's end of data. */
int inet_shutdown(struct socket *s, int how)
{
	struct inet_sock *in = inet_sk(s);
	struct unix_sock *peer = in->u.peer;
	unsigned mode;
	int ret = 0;

	if (how < LINUX_SHUT_RD || how > LINUX_SHUT_RDWR)
		return -EINVAL;
	mode = (unsigned)how + 1;
	if (s->state == SS_LISTEN) {
		if (mode & RCV_SHUTDOWN) {
			/* tcp_disconnect: the pending connections are reset */
			unix_purge_queue(&in->u);
			tcp_refuse_waiting(in);
			s->state = SS_CLOSE;
		}
		waitq_wake_all(&s->wq);
		return 0;
	}
	if (s->state == SS_CONNECTING) {
		tcp_abort_waiting(in); /* SYN_SENT: tcp_disconnect */
		return 0;
	}
	if (s->state != SS_ESTABLISHED)
		ret = -ENOTCONN;
	s->shutdown |= mode;
	waitq_wake_all(&s->wq);
	waitq_wake_all(&in->u.peer_wait);
	if (peer && (mode & SEND_SHUTDOWN) && in->proto == LINUX_IPPROTO_TCP) {
		in->fin_sent = true;
		inet_sk(&peer->sk)->fin_rcvd = true;
		peer->sk.shutdown |= RCV_SHUTDOWN;
		waitq_wake_all(&peer->sk.wq);
	}
	return ret;
}

static int find_opt(const struct inet_sock *in, int level, int name)
{
	int i;

	for (i = 0; i < INET_NOPTS; i++) {
		const struct inet_opt *o = &inet_opts[i];

		if (o->level == level && o->name == name &&
		    (!o->proto || o->proto == (inet_is_udp(in) ? LINUX_IPPROTO_UDP : in->proto)))
			return i;
	}
	return -1;
}

int inet_opt(const struct inet_sock *in, int level, int name)
{
	int slot = find_opt(in, level, name);

	return slot < 0 ? 0 : in->opts[slot];
}

/* A level this socket answers at: ENOPROTOOPT for an option it does not
 * know, EOPNOTSUPP... as Linux's per-level handlers say. */
static bool level_ok(const struct inet_sock *in, int level)
{
	switch (level) {
	case LINUX_SOL_IP:
		return true;
	case LINUX_SOL_IPV6:
		return in->u.sk.family == LINUX_AF_INET6;
	case LINUX_SOL_TCP:
		return in->proto == LINUX_IPPROTO_TCP;
	case LINUX_SOL_UDP:
	case LINUX_SOL_UDPLITE: /* udp_setsockopt takes either on either */
		return inet_is_udp(in);
	default:
		return false;
	}
}

/* The length rules of each level: TCP and UDP want an int before
 * anything else; IPv6 an int once the option is known; IPv4 takes a
 * byte (or nothing, as 0) for its int options, but IP_TTL and
 * IP_FREEBIND want at least the byte (do_ip_setsockopt). */
/* udp_lib_setsockopt's UDPLITE_SEND_CSCOV and UDPLITE_RECV_CSCOV: a
 * coverage below the header's 8 bytes is 8 (0 stays: all), one past
 * 65535 is 65535; a UDP socket has neither (ENOPROTOOPT). */
static int udplite_setsockopt(struct inet_sock *in, int name, int v)
{
	if (in->proto != LINUX_IPPROTO_UDPLITE)
		return -ENOPROTOOPT;
	if (v != 0 && v < 8)
		v = 8;
	else if (v > 0xffff)
		v = 0xffff;
	if (name == UDPLITE_SEND_CSCOV) {
		in->pcslen = (uint16_t)v;
		in->send_cc = true;
	} else {
		in->pcrlen = (uint16_t)v;
		in->recv_cc = true;
	}
	return 0;
}

int inet_setsockopt(struct socket *s, int level, int name, const void *val, unsigned len)
{
	struct inet_sock *in = inet_sk(s);
	const struct inet_opt *o;
	int v = 0, slot;

	if (!level_ok(in, level))
		return -ENOPROTOOPT;
	if ((level == LINUX_SOL_TCP || level == LINUX_SOL_UDP || level == LINUX_SOL_UDPLITE) &&
	    len < sizeof(int))
		return -EINVAL;
	if (level == LINUX_SOL_UDPLITE)
		level = LINUX_SOL_UDP;
	if (len >= sizeof(int))
		memcpy(&v, val, sizeof(v));
	else if (len >= 1 && level == LINUX_SOL_IP)
		v = *(const unsigned char *)val; /* sys_setsockopt copied the byte */
	if (level == LINUX_SOL_UDP && (name == UDPLITE_SEND_CSCOV || name == UDPLITE_RECV_CSCOV))
		return udplite_setsockopt(in, name, v);
	if (level == LINUX_SOL_IPV6 && name == IPV6_V6ONLY) {
		if (len < sizeof(int) || in->sport)
			return -EINVAL; /* only before bind */
		in->v6only = v != 0;
		return 0;
	}
	if (level == LINUX_SOL_IP || level == LINUX_SOL_IPV6) {
		int ret = level == LINUX_SOL_IP ? inet_mc_setsockopt(in, name, val, len)
						: inet_mc6_setsockopt(in, name, val, len);

		if (ret != -ENOPROTOOPT || (level == LINUX_SOL_IPV6 && name == 17))
			return ret;
	}
	slot = find_opt(in, level, name);
	if (slot < 0)
		return -ENOPROTOOPT;
	/* a stream has no multicast TTL: EINVAL for IPv4, ENOPROTOOPT for
	 * IPv6 (the loop flags it keeps) */
	if (in->u.sk.type == LINUX_SOCK_STREAM && level == LINUX_SOL_IPV6 &&
	    name == IPV6_MULTICAST_HOPS)
		return -ENOPROTOOPT;
	if (level == LINUX_SOL_IPV6 && len < sizeof(int))
		return -EINVAL;
	if (in->u.sk.type == LINUX_SOCK_STREAM && level == LINUX_SOL_IP && name == IP_MULTICAST_TTL)
		return -EINVAL;
	if (level == LINUX_SOL_IP && len < 1 &&
	    (name == IP_TTL || name == IP_FREEBIND || name == IP_MULTICAST_TTL ||
	     name == IP_MULTICAST_LOOP))
		return -EINVAL;
	o = &inet_opts[slot];
	if (o->boolean)
		v = v != 0;
	else if (v == -1 && o->minus1_default)
		v = o->def;
	else if (v < o->min || v > o->max)
		return -EINVAL;
	if (level == LINUX_SOL_IP && name == IP_TOS)
		v &= 0xff; /* inet->tos is a byte */
	/* TCP keeps the ECN bits its own (__ip_sock_set_tos, IPV6_TCLASS) */
	if (in->proto == LINUX_IPPROTO_TCP && ((level == LINUX_SOL_IP && name == IP_TOS) ||
					       (level == LINUX_SOL_IPV6 && name == IPV6_TCLASS)))
		v = (v & ~INET_ECN_MASK) | (in->opts[slot] & INET_ECN_MASK);
	in->opts[slot] = v;
	/* IP_RECVERR, IPV6_RECVERR off: the queued errors go */
	if (!v && ((level == LINUX_SOL_IP && name == IP_RECVERR) ||
		   (level == LINUX_SOL_IPV6 && name == IPV6_RECVERR)))
		udp_purge_errq(in);
	if (level == LINUX_SOL_IP && name == IP_TOS) {
		/* __ip_sock_set_tos: the priority follows the TOS bits
		 * (rt_tos2priority: best effort, bulk, interactive,
		 * interactive bulk; SO_PRIORITY reads it back) */
		static const uint8_t tos2prio[16] = {
			0, 0, 0, 0, 2, 2, 2, 2, 6, 6, 6, 6, 4, 4, 4, 4
		};

		s->priority = tos2prio[(v & 0x1e) >> 1];
	}
	return 0;
}

/* As Linux's handlers: a level an AF_INET socket does not have is
 * EOPNOTSUPP (ip_getsockopt), an AF_INET6 one's ENOPROTOOPT
 * (ipv6_getsockopt); IPv6 takes a negative length as 4 (min_t
 * unsigned), IPv4 answers a short buffer with one byte. */
int inet_getsockopt(struct socket *s, int level, int name, void *val, int *len)
{
	struct inet_sock *in = inet_sk(s);
	int v, slot;

	if (!level_ok(in, level))
		return s->family == LINUX_AF_INET6 ? -ENOPROTOOPT : -EOPNOTSUPP;
	if (*len < 0 && level != LINUX_SOL_IPV6)
		return -EINVAL;
	if (level == LINUX_SOL_UDPLITE)
		level = LINUX_SOL_UDP;
	if (level == LINUX_SOL_IPV6 && name == IPV6_V6ONLY) {
		v = in->v6only;
	} else if (level == LINUX_SOL_UDP && name == UDPLITE_SEND_CSCOV) {
		v = in->pcslen; /* 0 on a UDP socket: all of it, as UDP's */
	} else if (level == LINUX_SOL_UDP && name == UDPLITE_RECV_CSCOV) {
		v = in->pcrlen;
	} else if (level == LINUX_SOL_IPV6 && inet_mc6_getsockopt(in, name, &v) == 0) {
		/* an int, as the table's */
	} else if (level == LINUX_SOL_IP && inet_mc_getsockopt(in, name, &v) == 0) {
		if (name == IP_MULTICAST_IF) { /* an in_addr, never one byte */
			if (*len < 0 || *len > (int)sizeof(v))
				*len = sizeof(v);
			memcpy(val, &v, (size_t)*len);
			return 0;
		}
	} else if (level == LINUX_SOL_TCP && name == 11) { /* TCP_INFO */
		uint8_t info[TCP_INFO_SIZE];

		tcp_get_info(in, info);
		if (*len > TCP_INFO_SIZE)
			*len = TCP_INFO_SIZE;
		memcpy(val, info, (size_t)*len);
		return 0;
	} else {
		slot = find_opt(in, level, name);
		if (slot < 0)
			return -ENOPROTOOPT;
		v = in->opts[slot];
	}
	if (*len < 0 || *len > (int)sizeof(v))
		*len = sizeof(v);
	if (level == LINUX_SOL_IP && *len > 0 && *len < (int)sizeof(v) && v >= 0 && v <= 255)
		*len = 1;
	memcpy(val, &v, *len);
	return 0;
}

int inet_socketpair(struct task *t, struct socket *a, struct socket *b)
{
	(void)t;
	(void)a;
	(void)b;
	return -EOPNOTSUPP; /* not reached: sys_socketpair refuses inet first */
}

void inet_destroy(struct socket *s)
{
	list_del(&inet_sk(s)->syn_link);
	inet_unhash(inet_sk(s));
	unix_destroy(s);
}
