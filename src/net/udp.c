/* net/udp.c: UDP and UDP-Lite on loopback (each its own ports; a
 * UDP-Lite receiver that asked for a checksum coverage drops datagrams
 * sent with less). A datagram goes straight into the receive
 * queue of the socket bound to its destination (one bound to the address
 * before one on a wildcard; a connected socket takes only its peer's), as
 * a buffer whose first bytes are the source address. Readiness and
 * SIOCINQ are the AF_UNIX datagram code's.
 * Differs from Linux: the sender is never charged for a datagram (as on
 * loopback, where it is freed on transmit) and the receiver's queue is
 * bounded by SO_RCVBUF counted in payload plus a fixed overhead; a queue
 * past it drops the datagram, as Linux does. A datagram to a port nobody
 * has bound is answered by an ICMP port unreachable (icmp.c), which comes
 * back here as Linux's __udp4_lib_err and __udp6_lib_err take it: the
 * sender's next call says ECONNREFUSED if it is connected or asked for
 * errors (IP_RECVERR, IPV6_RECVERR), and then its error queue holds the
 * datagram's payload for recvmsg(MSG_ERRQUEUE). A datagram to the
 * broadcast address (127.255.255.255) goes to every socket of its port
 * that takes it (udp_bcast), and so does one to an IPv4 multicast group
 * joined on lo (net/mcast.c), to the sockets that take the group. */
#include <stdlib.h>
#include <string.h>

#include "net/inet.h"
#include "net/ip.h"
#include "kernel/task.h"
#include "abi/linux/errno.h"
#include "abi/linux/poll.h"

#define UDP_MAX_V4	   65507 /* 65535 less the IPv4 and UDP headers */
#define UDP_MAX_V6	   65527 /* 65535 less the UDP header (no jumbograms) */
#define UDP_OVERHEAD	   768	 /* what Linux's truesize adds to a small datagram */
#define SO_EE_ORIGIN_ICMP  2
#define SO_EE_ORIGIN_ICMP6 3

/* The source of a queued datagram, at the start of its buffer, and what
 * its IP header said: IPv4 or 6, the TTL (hop limit) and the TOS (traffic
 * class), for IP_RECVTTL and the like. */
struct udp_src {
	uint8_t addr[16], dst[16];
	uint16_t port;
	bool v4;
	uint8_t ttl, tos;
	int proto;	/* IPPROTO_UDP or _UDPLITE */
	uint16_t cscov; /* UDP-Lite: its checksum coverage, 0: all of it */
};

/* to's socket filter, on the datagram in skb sent to port dport
 * (udp_queue_rcv_one_skb's sk_filter_trim_cap: it reads the IP and UDP
 * headers, keeps at least the latter): false if it drops it, else skb is
 * cut to what it keeps. */
static bool udp_filter(struct inet_sock *to, struct skb *skb, uint16_t dport)
{
	struct udp_src h;
	size_t len = skb->len - sizeof(h), hl, keep;
	uint8_t *pkt;
	bool kept;

	if (!to->u.sk.filter)
		return true;
	memcpy(&h, skb->data, sizeof(h));
	hl = h.v4 ? 20 : 40;
	pkt = malloc(hl + 8 + len);
	if (!pkt)
		return false; /* dropped, as the filter may have */
	/* identification 0: differs from Linux, whose is a hash of the
	 * addresses (ip_select_ident) */
	ip_udp_packet(pkt, h.v4, h.proto, h.cscov, h.addr, h.port, h.dst, dport,
		      (const uint8_t *)skb->data + sizeof(h), len, h.ttl, h.tos, 0);
	kept = ip_filter(&to->u.sk, h.v4, pkt, hl + 8 + len, hl, 8, &keep);
	free(pkt);
	if (kept)
		skb->len = sizeof(h) + keep - 8;
	return kept;
}

static struct inet_sock *udp_lookup(const struct net_ns *net, int proto, const uint8_t dst[16],
				    uint16_t dport, const uint8_t src[16], uint16_t sport)
{
	struct inet_sock *o, *best = NULL;
	int best_score = -1;

	list_for_each_entry(o, inet_table(proto, dport), port_link)
	{
		int score = 0;

		if (o->sport != dport || o->u.sk.net != net || !inet_covers(o, dst) || o->u.dead)
			continue;
		if (o->connected) {
			if (o->dport != sport || memcmp(o->daddr, src, 16) != 0)
				continue;
			score += 2;
		}
		if (memcmp(o->saddr, dst, 16) == 0)
			score++;
		if (score > best_score) {
			best = o;
			best_score = score;
		}
	}
	return best;
}

/* An error queued (linux/errqueue.h's struct sock_extended_err, then
 * where it came from and what it was about), before the payload. */
struct udp_serr {
	uint32_t ee_errno;
	uint8_t ee_origin, ee_type, ee_code, ee_pad;
	uint32_t ee_info, ee_data;
	uint8_t offender[16], dst[16];
	uint16_t dport;
	uint8_t ttl, tos;
};

void udp_err(const struct udp_icmp_err *e)
{
	struct inet_sock *in = udp_lookup(e->net, e->proto, e->src, e->sport, e->dst, e->dport);
	struct udp_serr h;
	struct skb *skb;
	size_t size;

	if (!in)
		return;
	/* a path MTU error for a socket that does not discover it */
	if (e->err == EMSGSIZE && !inet_opt(in, e->v4 ? LINUX_SOL_IP : LINUX_SOL_IPV6,
					    e->v4 ? IP_MTU_DISCOVER : IPV6_MTU_DISCOVER))
		return;
	if (!inet_opt(in, e->v4 ? LINUX_SOL_IP : LINUX_SOL_IPV6,
		      e->v4 ? IP_RECVERR : IPV6_RECVERR)) {
		if (!e->hard || !in->connected)
			return;
	} else {
		/* ip_icmp_error, ipv6_icmp_error: queued within SO_RCVBUF */
		size = sizeof(h) + e->len;
		memset(&h, 0, sizeof(h));
		h.ee_errno = (uint32_t)e->err;
		h.ee_origin = e->v4 ? SO_EE_ORIGIN_ICMP : SO_EE_ORIGIN_ICMP6;
		h.ee_type = (uint8_t)e->type;
		h.ee_code = (uint8_t)e->code;
		h.ee_info = e->info;
		memcpy(h.offender, e->offender, 16);
		memcpy(h.dst, e->dst, 16);
		h.dport = e->dport;
		h.ttl = e->ttl;
		h.tos = e->tos;
		skb = NULL;
		if (in->rmem + e->len + UDP_OVERHEAD < (size_t)in->u.sk.rcvbuf &&
		    sock_mem_charge(e->len + UDP_OVERHEAD)) {
			skb = malloc(sizeof(*skb) + size);
			if (!skb)
				sock_mem_uncharge(e->len + UDP_OVERHEAD);
		}
		if (skb) {
			memset(skb, 0, sizeof(*skb));
			skb->len = size;
			skb->consumed = sizeof(h);
			skb->truesize = e->len + UDP_OVERHEAD;
			skb->tstamp = sock_tstamp_now(&in->u.sk);
			memcpy(skb->data, &h, sizeof(h));
			memcpy(skb->data + sizeof(h), e->payload, e->len);
			in->rmem += skb->truesize;
			list_add_tail(&skb->link, &in->errq);
		}
	}
	in->u.sk.err = e->err;
	waitq_wake_all(&in->u.sk.wq); /* sk_error_report */
}

void udp_purge_errq(struct inet_sock *in)
{
	struct skb *skb, *next;

	list_for_each_entry_safe(skb, next, &in->errq, link)
	{
		list_del(&skb->link);
		in->rmem -= skb->truesize;
		skb_free(skb);
	}
}

/* ip_recv_error, ipv6_recv_error: the oldest error, its payload, the
 * datagram's destination as the name, its control message after the IP
 * level's (an AF_INET6 socket's: IPV6_RECVERR, an IPv4 address mapped);
 * the next error's errno becomes the pending one. MSG_PEEK is ignored. */
static long udp_recv_error(struct socket *s, struct kmsg *m)
{
	struct inet_sock *in = inet_sk(s);
	bool v6sock = s->family == LINUX_AF_INET6;
	struct skb *skb, *next;
	struct linux_sockaddr_storage off;
	struct udp_serr h;
	size_t size = m->iter.count, dlen;
	long ret;
	int alen;

	if (list_empty(&in->errq))
		return -EAGAIN;
	skb = list_first_entry(&in->errq, struct skb, link);
	list_del(&skb->link);
	in->rmem -= skb->truesize;
	memcpy(&h, skb->data, sizeof(h));
	s->err = 0;
	if (!list_empty(&in->errq)) {
		struct udp_serr nh;

		next = list_first_entry(&in->errq, struct skb, link);
		memcpy(&nh, next->data, sizeof(nh));
		s->err = (int)nh.ee_errno;
	}
	dlen = skb->len - skb->consumed;
	if (size > dlen)
		size = dlen;
	else if (size < dlen)
		m->flags |= LINUX_MSG_TRUNC;
	if (iter_copy_to(&m->iter, skb->data + skb->consumed, size) < 0) {
		skb_free(skb);
		return -EFAULT;
	}
	ret = (long)size;
	if (m->want_name)
		m->namelen = inet_fill_addr(s->family, h.dst, h.dport, &m->name);
	sock_recv_timestamp(s, skb->tstamp, &m->scm);
	inet_recv_ip(in, h.ee_origin == SO_EE_ORIGIN_ICMP, h.ttl, h.tos, NULL, &m->scm);
	alen = inet_fill_addr(s->family, h.offender, 0, &off);
	m->scm.serr_level = v6sock ? LINUX_SOL_IPV6 : LINUX_SOL_IP;
	m->scm.serr_type = v6sock ? IPV6_RECVERR : IP_RECVERR;
	m->scm.serr_len = 16 + (unsigned)alen;
	memcpy(m->scm.serr, &h, 16);
	memcpy(m->scm.serr + 16, &off, (size_t)alen);
	m->flags |= LINUX_MSG_ERRQUEUE;
	skb_free(skb);
	return ret;
}

/* UDP-Lite's coverage: what a socket sends (a partial coverage, 0 for
 * all of a datagram of len bytes of data), and whether one that set
 * UDPLITE_RECV_CSCOV takes a partial one (udp_queue_rcv_one_skb: not
 * below the coverage it asked for, none if it asked for all). */
static uint16_t udplite_cscov(const struct inet_sock *in, size_t len)
{
	if (in->proto != LINUX_IPPROTO_UDPLITE || !in->send_cc || in->pcslen == 0 ||
	    in->pcslen >= 8 + len)
		return 0;
	return in->pcslen;
}

static bool udplite_takes(const struct inet_sock *to, uint16_t cscov)
{
	return !cscov || !to->recv_cc || (to->pcrlen && cscov >= to->pcrlen);
}

/* __udp4_lib_mcast_deliver: a broadcast goes to every socket of the port
 * that takes it (bound to any address or to the broadcast one, and if
 * connected, connected to the sender), each within its SO_RCVBUF; to
 * none, no ICMP. So does a datagram to a multicast group, if lo joined it
 * (ip_check_mc_rcu), to the sockets that take the group (ip_mc_sf_allow).
 * skb is used up. */
static void udp_bcast(const struct net_ns *net, int proto, struct skb *skb, const uint8_t dst[16],
		      uint16_t dport, const uint8_t src[16], uint16_t sport, uint16_t cscov)
{
	bool group = inet_mc_is_group(dst);
	struct inet_sock *o;

	if (group && !inet_mc_joined(net, dst)) {
		skb_free(skb);
		return;
	}
	list_for_each_entry(o, inet_table(proto, dport), port_link)
	{
		struct skb *c;

		if (o->sport != dport || o->u.sk.net != net || o->u.dead || !inet_covers(o, dst) ||
		    (group && !inet_mc_takes(o, dst)) ||
		    (o->connected && (o->dport != sport || memcmp(o->daddr, src, 16) != 0)) ||
		    !udplite_takes(o, cscov) || o->rmem > (size_t)o->u.sk.rcvbuf ||
		    !sock_mem_charge(skb->truesize))
			continue;
		c = malloc(sizeof(*c) + skb->len);
		if (!c) {
			sock_mem_uncharge(skb->truesize);
			continue;
		}
		memcpy(c, skb, sizeof(*c) + skb->len);
		if (!udp_filter(o, c, dport)) {
			skb_free(c);
			continue;
		}
		o->rmem += c->truesize;
		unix_queue_skb(&o->u, c);
	}
	skb_free(skb);
}

static void reset_saddr(struct inet_sock *in)
{
	memset(in->saddr, 0, 16);
	if (in->u.sk.family == LINUX_AF_INET) {
		in->saddr[10] = in->saddr[11] = 0xff;
	}
}

/* __udp_disconnect: what connect() chose is given back. */
static void udp_disconnect(struct inet_sock *in)
{
	in->connected = false;
	in->u.sk.state = SS_CLOSE;
	in->u.sk.bound_dev_if = 0;
	if (!in->addr_locked)
		reset_saddr(in);
	if (!in->port_locked)
		inet_unhash(in);
}

void udp_abort(struct inet_sock *in, int err)
{
	if (in->u.dead)
		return;
	in->u.sk.err = err;
	udp_disconnect(in);
	waitq_wake_all(&in->u.sk.wq); /* sk_error_report */
}

int udp_connect(struct task *t, struct socket *s, const struct linux_sockaddr_storage *a, int len,
		bool nonblock)
{
	struct inet_sock *in = inet_sk(s);
	uint8_t dst[16], src[16];
	uint16_t port;
	int ret;

	(void)t;
	(void)nonblock;
	if (len < (int)sizeof(a->ss_family))
		return -EINVAL;
	if (a->ss_family == LINUX_AF_UNSPEC) {
		udp_disconnect(in);
		return 0;
	}
	/* inet_dgram_connect: the port comes before the address's checks */
	if (inet_autobind(in) < 0)
		return -EAGAIN;
	if (s->family == LINUX_AF_INET6 && a->ss_family == LINUX_AF_INET) {
		/* __ip6_datagram_connect: an IPv4 address goes to the IPv4
		 * code (glibc's getaddrinfo sorts destinations this way) */
		if (in->v6only)
			return -EAFNOSUPPORT;
		ret = inet_parse_v4(a, len, false, dst, &port);
		if (ret == 0)
			ret = inet_route(in, dst);
	} else {
		ret = inet_dest(in, a, len, dst, &port);
	}
	if (ret == 0 && inet_is_bcast(dst) && !sock_broadcast(s))
		ret = -EACCES; /* ip4_datagram_connect */
	if (ret == 0)
		ret = inet_source(in, dst, src);
	if (ret < 0)
		return ret;
	if (!in->addr_locked)
		memcpy(in->saddr, src, 16);
	memcpy(in->daddr, dst, 16);
	in->dport = port;
	in->connected = true;
	s->state = SS_ESTABLISHED;
	return 0;
}

/* sendto's destination, checked in the order of udp_sendmsg and
 * udpv6_sendmsg: an AF_INET6 socket takes AF_UNSPEC as no address and an
 * AF_INET one (or a v4-mapped destination) through the IPv4 code, whose
 * checks (size, MSG_OOB) come before the address's. A name of length 0
 * from sendto is EINVAL. Returns 0 with *v4 set, or -errno. */
static int send_dest(struct inet_sock *in, struct kmsg *m, size_t len, unsigned flags,
		     uint8_t dst[16], uint16_t *port, bool *v4)
{
	struct linux_sockaddr_storage a = m->name;
	bool named = m->has_name, parsed = false, v6 = in->u.sk.family == LINUX_AF_INET6;
	int ret;

	*v4 = !v6;
	if (v6) {
		if (named && m->namelen < (int)sizeof(a.ss_family))
			return -EINVAL;
		if (named && a.ss_family == LINUX_AF_UNSPEC) {
			named = false;
		} else if (named && a.ss_family == LINUX_AF_INET) {
			*v4 = true;
		} else if (named && a.ss_family != LINUX_AF_INET6) {
			return -EINVAL;
		} else if (named) {
			ret = inet_parse_addr(in, &a, m->namelen, false, dst, port);
			if (ret < 0)
				return ret;
			parsed = true;
		}
		if (!named) {
			if (!in->connected)
				return -EDESTADDRREQ;
			memcpy(dst, in->daddr, 16);
			*port = in->dport;
		}
		if ((named && !parsed) || inet_is_v4(dst))
			*v4 = true;
		if (*v4 && in->v6only)
			return -ENETUNREACH;
	}
	if (*v4) {
		if (len > 0xffff)
			return -EMSGSIZE;
		if (flags & LINUX_MSG_OOB)
			return -EOPNOTSUPP; /* only the IPv4 code says so */
		if (named && !parsed) {
			ret = inet_parse_v4(&a, m->namelen, false, dst, port);
			if (ret < 0)
				return ret;
		} else if (!named && !v6) {
			if (!in->connected)
				return -EDESTADDRREQ;
			memcpy(dst, in->daddr, 16);
			*port = in->dport;
		}
	}
	if (named && *port == 0)
		return -EINVAL;
	m->has_name = named;
	return inet_route(in, dst);
}

static long udp_sendmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags)
{
	struct inet_sock *in = inet_sk(s), *to;
	size_t len = m->iter.count, size;
	uint8_t dst[16], src[16];
	struct udp_src hdr;
	struct skb *skb;
	uint16_t port;
	bool v4;
	long err;

	(void)t;
	scm_destroy(&m->scm);
	/* inet_send_prepare: the port comes first, whatever fails after */
	if (inet_autobind(in) < 0)
		return -EAGAIN;
	err = send_dest(in, m, len, flags, dst, &port, &v4);
	if (err == 0 && m->scm.ip_bad)
		err = -EINVAL; /* ip_cmsg_send, once the address is known */
	if (err == 0 && inet_is_bcast(dst) && !sock_broadcast(s))
		err = -EACCES; /* RTCF_BROADCAST without SO_BROADCAST */
	if (err == 0)
		err = inet_source(in, dst, src);
	if (err == 0)
		err = inet_pktinfo_source(&m->scm, v4, src);
	if (err < 0)
		return err;
	if (len > (v4 ? UDP_MAX_V4 : UDP_MAX_V6))
		return -EMSGSIZE;
	/* sock_alloc_send_pskb's checks */
	err = sock_error(s);
	if (err < 0)
		return err;
	if (s->shutdown & SEND_SHUTDOWN)
		return -EPIPE; /* without SIGPIPE */
	/* The data is copied first: the receiver is looked up after the
	 * last point where the guest's memory is read. */
	size = sizeof(hdr) + len;
	if (!sock_mem_charge(len + UDP_OVERHEAD))
		return (long)len; /* dropped, as past udp_mem */
	skb = malloc(sizeof(*skb) + size);
	if (!skb) {
		sock_mem_uncharge(len + UDP_OVERHEAD);
		return -ENOMEM;
	}
	memset(skb, 0, sizeof(*skb));
	skb->len = size;
	skb->consumed = sizeof(hdr);
	skb->truesize = len + UDP_OVERHEAD;
	memcpy(hdr.addr, src, 16);
	memcpy(hdr.dst, dst, 16);
	hdr.port = in->sport;
	hdr.v4 = v4;
	hdr.proto = in->proto;
	hdr.cscov = udplite_cscov(in, len);
	inet_send_ip(in, &m->scm, v4, &hdr.ttl, &hdr.tos);
	/* __ip_make_skb: to a group, IP_MULTICAST_TTL unless a cmsg said */
	if (inet_mc_is_group(dst) && !(m->scm.ip_given & SCM_IP_TTL))
		hdr.ttl = (uint8_t)inet_opt(in, LINUX_SOL_IP, 33 /* IP_MULTICAST_TTL */);
	memcpy(skb->data, &hdr, sizeof(hdr));
	if (iter_copy_from(&m->iter, skb->data + sizeof(hdr), len) < 0) {
		skb_free(skb);
		return -EFAULT;
	}
	if (inet_is_bcast(dst) || inet_mc_is_group(dst)) {
		udp_bcast(in->u.sk.net, in->proto, skb, dst, port, src, in->sport, hdr.cscov);
		return (long)len;
	}
	to = udp_lookup(in->u.sk.net, in->proto, dst, port, src, in->sport);
	if (!to) {
		icmp_port_unreach(in->u.sk.net, v4, in->proto, hdr.cscov, src, in->sport, dst, port,
				  (const uint8_t *)skb->data + sizeof(hdr), len, hdr.ttl, hdr.tos);
		skb_free(skb);
		return (long)len;
	}
	/* __udp_enqueue_schedule_skb: a queue already past SO_RCVBUF drops
	 * the datagram (so one larger than the buffer still gets into an
	 * empty queue); the receiver's SHUT_RD does not stop it. */
	if (!udplite_takes(to, hdr.cscov) || !udp_filter(to, skb, port) ||
	    to->rmem > (size_t)to->u.sk.rcvbuf) {
		skb_free(skb);
		return (long)len;
	}
	to->rmem += skb->truesize;
	unix_queue_skb(&to->u, skb);
	return (long)len;
}

static long udp_recvmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags)
{
	struct inet_sock *in = inet_sk(s);
	struct skb *skb;
	struct udp_src hdr;
	size_t dlen;
	long err;

	(void)t;
	/* MSG_OOB is ignored, as udp_recvmsg does */
	if (flags & LINUX_MSG_ERRQUEUE)
		return udp_recv_error(s, m);
	err = inet_dgram_wait(in, flags, &skb);
	if (!skb)
		return err;
	memcpy(&hdr, skb->data, sizeof(hdr));
	dlen = skb->len - skb->consumed;
	if (m->want_name)
		m->namelen = inet_fill_addr(s->family, hdr.addr, hdr.port, &m->name);
	sock_recv_timestamp(s, skb->tstamp, &m->scm);
	inet_recv_ip(in, hdr.v4, hdr.ttl, hdr.tos, hdr.dst, &m->scm);
	err = inet_dgram_copy(in, skb, m, flags);
	return err >= 0 && (flags & LINUX_MSG_TRUNC) ? (long)dlen : err;
}

static void udp_release(struct socket *s)
{
	struct inet_sock *in = inet_sk(s);

	inet_unhash(in);
	udp_purge_errq(in);
	inet_mc_release(in);
	unix_release_sock(&in->u, false);
	in->rmem = 0;
}

/* datagram_poll: an error queued is POLLERR too. */
static unsigned udp_poll(struct socket *s, struct poll_table *pt)
{
	return unix_dgram_poll(s, pt) | (list_empty(&inet_sk(s)->errq) ? 0 : LINUX_POLLERR);
}

const struct proto_ops udp_ops = {
	.bind = inet_bind,
	.connect = udp_connect,
	.socketpair = inet_socketpair,
	.listen = sock_no_listen,
	.accept = sock_no_accept,
	.getname = inet_getname,
	.sendmsg = udp_sendmsg,
	.recvmsg = udp_recvmsg,
	.shutdown = inet_shutdown,
	.poll = udp_poll,
	.inq = unix_inq,
	.peercred = unix_peercred,
	.setsockopt = inet_setsockopt,
	.getsockopt = inet_getsockopt,
	.release = udp_release,
	.destroy = inet_destroy,
};
