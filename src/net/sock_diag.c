/* net/sock_diag.c: NETLINK_SOCK_DIAG (`ss`), as Linux 6.18's sock_diag,
 * inet_diag, tcp_diag, udp_diag and unix_diag answer it in a network
 * namespace: SOCK_DIAG_BY_FAMILY of AF_INET and AF_INET6 (TCP, UDP and
 * UDP-Lite; a dump of the sockets matching the states mask, the id's ports
 * and the filter bytecode, audited as inet_diag_bc_audit; or the one socket
 * an id names) and of AF_UNIX (a dump by states, or the one socket of an
 * inode), the old TCPDIAG_GETSOCK request, and SOCK_DESTROY's checks.
 * A family or protocol Linux has no handler for is what Linux without the
 * module says: ENOENT (AF_NETLINK and AF_PACKET too, whose sockets skas
 * does not list: `ss -a` shows no "nl" or "p_raw" rows; IPPROTO_RAW,
 * SCTP, DCCP). TCPDIAG_GETSOCK's sibling DCCPDIAG_GETSOCK is EINVAL, DCCP
 * being gone from Linux.
 * Differs from Linux: a TCP socket's congestion control is "cubic" and
 * its struct tcp_info (INET_DIAG_INFO) is that of an idle loopback
 * connection: the state, the queue lengths, the window and segment sizes
 * Linux starts with; every counter and measured time is 0, as skas sends
 * no segments. No socket has a cgroup id (INET_DIAG_CGROUP_ID), as
 * without CONFIG_SOCK_CGROUP_DATA: skas has no cgroup2 file system to
 * name one in (`ss -e` would complain of it), and so the bytecode's
 * INET_DIAG_BC_CGROUP_COND is EINVAL. SOCK_DESTROY (`ss -K`) aborts a
 * TCP or UDP socket with ECONNABORTED (tcp_abort, udp_abort: net/tcp.c,
 * net/udp.c), given CAP_NET_ADMIN. A socket's memory
 * (MEMINFO, SKMEMINFO) counts skas's own buffers. The BPF storages of
 * INET_DIAG_REQ_SK_BPF_STORAGES are EINVAL once a map is named: skas has
 * no BPF maps. A dump is made whole at once, in datagrams of Linux's
 * first dump size (NLMSG_GOODSIZE), its NLMSG_DONE in one of its own. */
#include <stdlib.h>
#include <string.h>

#include "net/netlink.h"
#include "net/inet.h"
#include "kernel/task.h"
#include "kernel/cred.h"
#include "abi/linux/errno.h"
#include "abi/linux/sock_diag.h"

#define CAP_NET_ADMIN 12
#define CAP_SYS_ADMIN 21
#define CAP_BPF	      39
#define IPPROTO_UDPLT 136
#define IPPROTO_MPTCP 262
#define IPPROTO_MAX   263
#define GOODSIZE      3776 /* NLMSG_GOODSIZE: a page less skb_shared_info */
#define SOCK_BINDPORT 4	   /* SOCK_BINDPORT_LOCK of sk_userlocks */

#define TCPF(st) (1U << (st))

/* --- dumps: messages gathered into datagrams --- */

struct dump {
	struct nl_sock *s;
	const struct linux_nlmsghdr *req;
	struct nlbuf b;
};

/* A message is complete at start: past a datagram's size it goes into the
 * next one (Linux fills an skb until the next message does not fit). */
static void dump_msg_done(struct dump *d, size_t start)
{
	struct nlbuf next = { 0 };

	if (d->b.oom || d->b.len <= GOODSIZE || start == 0)
		return;
	next.data = malloc(d->b.len - start);
	if (!next.data) {
		d->b.oom = true;
		return;
	}
	next.len = next.cap = d->b.len - start;
	memcpy(next.data, d->b.data + start, next.len);
	d->b.len = start;
	netlink_send_kernel(d->s, &d->b);
	d->b = next;
}

/* The dump's end: its messages, then NLMSG_DONE with err in a datagram
 * of its own, as Linux's next pass sends it (alone when none came). */
static void dump_end(struct dump *d, int err)
{
	size_t start;

	if (d->b.len)
		netlink_send_kernel(d->s, &d->b);
	start = nlmsg_begin(&d->b, LINUX_NLMSG_DONE, LINUX_NLM_F_MULTI, d->req->nlmsg_seq,
			    d->s->portid, &err, sizeof(err));
	nlmsg_end(&d->b, start);
	netlink_send_kernel(d->s, &d->b);
}

static const uint8_t *payload(const struct linux_nlmsghdr *nlh)
{
	return (const uint8_t *)nlh + LINUX_NLMSG_HDRLEN;
}

static size_t payload_len(const struct linux_nlmsghdr *nlh)
{
	return nlh->nlmsg_len - LINUX_NLMSG_HDRLEN;
}

/* --- inet sockets as inet_diag sees them --- */

struct inet_req {
	struct linux_inet_diag_req_v2 r;
	int protocol; /* INET_DIAG_REQ_PROTOCOL's, else r.sdiag_protocol */
	const struct linux_nlattr *bc;
	uint16_t type; /* of the request, and so of the replies */
};

static bool net_admin(void)
{
	return capable(&current->proc->cred, CAP_NET_ADMIN);
}

/* An address as the socket's family keeps it: AF_INET's in the first
 * word, AF_INET6's whole (skas keeps both in the IPv6 form). */
static void put_addr(uint32_t out[4], const struct inet_sock *in, const uint8_t a[16])
{
	memset(out, 0, 16);
	if (in->u.sk.family == LINUX_AF_INET)
		memcpy(out, a + 12, 4);
	else
		memcpy(out, a, 16);
}

static const uint8_t *peer_addr(const struct inet_sock *in)
{
	static const uint8_t any[16];

	return in->connected ? in->daddr : any;
}

static uint16_t peer_port(const struct inet_sock *in)
{
	return in->connected ? in->dport : 0;
}

/* The state sock_diag reports (TCP_*): UDP's is ESTABLISHED when
 * connected, else CLOSE. */
static int diag_state(const struct inet_sock *in)
{
	if (in->proto == LINUX_IPPROTO_TCP)
		return tcp_sk_state(in);
	return in->connected ? LINUX_TCP_ESTABLISHED : LINUX_TCP_CLOSE;
}

static uint32_t ino_of(const struct socket *s)
{
	return s->file ? (uint32_t)s->ino : 0; /* sock_i_ino: 0 without a file */
}

/* sk_rmem_alloc: what the receive queue holds, in skas's buffer sizes. */
static uint32_t rmem_alloc(const struct inet_sock *in)
{
	const struct skb *skb;
	size_t n = 0;

	if (in->proto == LINUX_IPPROTO_UDP)
		return (uint32_t)in->rmem;
	if (in->u.sk.state == SS_LISTEN)
		return 0;
	list_for_each_entry(skb, &in->u.queue, link)
	{
		n += skb->truesize;
	}
	return (uint32_t)n;
}

static void put_skmeminfo(struct nlbuf *b, uint16_t type, struct socket *s, uint32_t rmem,
			  uint32_t wmem)
{
	uint32_t mem[LINUX_SK_MEMINFO_VARS] = { 0 };

	mem[0] = rmem; /* SK_MEMINFO_RMEM_ALLOC */
	mem[1] = (uint32_t)s->rcvbuf;
	mem[2] = wmem; /* WMEM_ALLOC; FWD_ALLOC, WMEM_QUEUED, OPTMEM, BACKLOG, DROPS 0 */
	mem[3] = (uint32_t)s->sndbuf;
	nla_put(b, type, mem, sizeof(mem));
}

/* inet_sk_diag_fill: one socket's message. bound_inactive: a TCP socket
 * found bound and closed, reported without the connection's part (no
 * icsk there). */
static void inet_fill(struct nlbuf *b, struct nl_sock *s, const struct inet_req *q,
		      struct inet_sock *in, uint16_t flags, uint32_t seq, bool bound_inactive)
{
	struct linux_inet_diag_msg r = { 0 };
	struct socket *sk = &in->u.sk;
	bool tcp = in->proto == LINUX_IPPROTO_TCP, v6 = sk->family == LINUX_AF_INET6;
	int state = diag_state(in), ext = q->r.idiag_ext;
	uint8_t sockopt[2] = { 0 };
	uint64_t cookie = sock_cookie(sk);
	size_t start;

	r.idiag_family = (uint8_t)sk->family;
	r.idiag_state = (uint8_t)state;
	r.id.idiag_sport = __builtin_bswap16(in->sport);
	r.id.idiag_dport = __builtin_bswap16(peer_port(in));
	put_addr(r.id.idiag_src, in, in->saddr);
	put_addr(r.id.idiag_dst, in, peer_addr(in));
	r.id.idiag_cookie[0] = (uint32_t)cookie;
	r.id.idiag_cookie[1] = (uint32_t)(cookie >> 32);
	r.idiag_uid = sk->uid;
	r.idiag_inode = ino_of(sk);
	if (state == LINUX_TCP_SYN_SENT) {
		r.idiag_timer = 1; /* the SYN's retransmission */
		r.idiag_expires = 1000;
	}
	/* tcp_diag_get_info, udp_diag_get_info */
	if (tcp && state == LINUX_TCP_LISTEN) {
		r.idiag_rqueue = (uint32_t)in->u.qlen;
		r.idiag_wqueue = (uint32_t)in->u.max_backlog;
	} else if (tcp) {
		r.idiag_rqueue = (uint32_t)in->u.inq;
		r.idiag_wqueue = 0; /* loopback acknowledges at once */
	} else {
		r.idiag_rqueue = (uint32_t)in->rmem;
	}
	start = nlmsg_begin(b, q->type, flags, seq, s->portid, &r, sizeof(r));
	/* inet_diag_msg_attrs_fill */
	nla_put_u8(b, LINUX_INET_DIAG_SHUTDOWN, (uint8_t)sk->shutdown);
	if (ext & (1 << (LINUX_INET_DIAG_TOS - 1)))
		nla_put_u8(b, LINUX_INET_DIAG_TOS, (uint8_t)inet_opt(in, LINUX_SOL_IP, 1));
	if (v6) {
		if (ext & (1 << (LINUX_INET_DIAG_TCLASS - 1)))
			nla_put_u8(b, LINUX_INET_DIAG_TCLASS,
				   (uint8_t)inet_opt(in, LINUX_SOL_IPV6, 67));
		if (state == LINUX_TCP_LISTEN || state == LINUX_TCP_CLOSE)
			nla_put_u8(b, LINUX_INET_DIAG_SKV6ONLY, in->v6only);
	}
	if (net_admin())
		nla_put_u32(b, LINUX_INET_DIAG_MARK, 0); /* no SO_MARK here */
	if (ext & (1 << (LINUX_INET_DIAG_TCLASS - 1)))
		nla_put_u32(b, LINUX_INET_DIAG_CLASS_ID, (uint32_t)sk->priority);
	if (inet_opt(in, LINUX_SOL_IP, 11) || inet_opt(in, LINUX_SOL_IPV6, 25))
		sockopt[0] |= LINUX_INET_DIAG_SOCKOPT_RECVERR;
	if (tcp)
		sockopt[0] |= LINUX_INET_DIAG_SOCKOPT_IS_ICSK;
	if (inet_opt(in, LINUX_SOL_IP, 15))
		sockopt[0] |= LINUX_INET_DIAG_SOCKOPT_FREEBIND;
	/* IP_MULTICAST_LOOP on, as it starts; IP_MULTICAST_ALL too but on
	 * an AF_INET6 socket (inet6_create leaves it clear) */
	sockopt[0] |= LINUX_INET_DIAG_SOCKOPT_MC_LOOP;
	if (!v6)
		sockopt[0] |= LINUX_INET_DIAG_SOCKOPT_MC_ALL;
	nla_put(b, LINUX_INET_DIAG_SOCKOPT, sockopt, sizeof(sockopt));
	/* inet_sk_diag_fill */
	if (ext & (1 << (LINUX_INET_DIAG_MEMINFO - 1))) {
		struct linux_inet_diag_meminfo m = { rmem_alloc(in), 0, 0, 0 };

		nla_put(b, LINUX_INET_DIAG_MEMINFO, &m, sizeof(m));
	}
	if (ext & (1 << (LINUX_INET_DIAG_SKMEMINFO - 1)))
		put_skmeminfo(b, LINUX_INET_DIAG_SKMEMINFO, sk, rmem_alloc(in), 0);
	if (tcp && !bound_inactive) {
		if (ext & (1 << (LINUX_INET_DIAG_INFO - 1))) {
			uint8_t info[TCP_INFO_SIZE];

			tcp_get_info(in, info);
			nla_put(b, LINUX_INET_DIAG_INFO, info, sizeof(info));
		}
		if (ext & (1 << (LINUX_INET_DIAG_CONG - 1)))
			nla_put(b, LINUX_INET_DIAG_CONG, "cubic", 6);
	}
	nlmsg_end(b, start);
}

/* --- the filter bytecode --- */

struct bc_entry {
	int family;
	const uint32_t *saddr, *daddr; /* in the socket family's form */
	uint16_t sport, dport;
	unsigned userlocks;
};

static bool bitstring_match(const uint32_t *a1, const uint32_t *a2, int bits)
{
	int words = bits >> 5;

	bits &= 0x1f;
	if (words && memcmp(a1, a2, (size_t)words << 2))
		return false;
	if (bits) {
		uint32_t mask = __builtin_bswap32(0xffffffffU << (32 - bits));

		if ((a1[words] ^ a2[words]) & mask)
			return false;
	}
	return true;
}

/* inet_diag_bc_run over audited bytecode: whether the socket passes. */
static bool bc_run(const uint8_t *bc, int len, const struct bc_entry *e)
{
	while (len > 0) {
		struct linux_inet_diag_bc_op op, arg;
		bool yes = true;

		memcpy(&op, bc, sizeof(op));
		switch (op.code) {
		case LINUX_INET_DIAG_BC_NOP:
			break;
		case LINUX_INET_DIAG_BC_JMP:
			yes = false;
			break;
		case LINUX_INET_DIAG_BC_S_EQ:
		case LINUX_INET_DIAG_BC_S_GE:
		case LINUX_INET_DIAG_BC_S_LE:
		case LINUX_INET_DIAG_BC_D_EQ:
		case LINUX_INET_DIAG_BC_D_GE:
		case LINUX_INET_DIAG_BC_D_LE: {
			bool src = op.code == LINUX_INET_DIAG_BC_S_EQ ||
				   op.code == LINUX_INET_DIAG_BC_S_GE ||
				   op.code == LINUX_INET_DIAG_BC_S_LE;
			uint16_t port = src ? e->sport : e->dport;

			memcpy(&arg, bc + sizeof(op), sizeof(arg));
			if (op.code == LINUX_INET_DIAG_BC_S_EQ ||
			    op.code == LINUX_INET_DIAG_BC_D_EQ)
				yes = port == arg.no;
			else if (op.code == LINUX_INET_DIAG_BC_S_GE ||
				 op.code == LINUX_INET_DIAG_BC_D_GE)
				yes = port >= arg.no;
			else
				yes = port <= arg.no;
			break;
		}
		case LINUX_INET_DIAG_BC_AUTO:
			yes = !(e->userlocks & SOCK_BINDPORT);
			break;
		case LINUX_INET_DIAG_BC_S_COND:
		case LINUX_INET_DIAG_BC_D_COND: {
			struct linux_inet_diag_hostcond cond;
			uint32_t caddr[4] = { 0 };
			const uint32_t *addr;
			bool s = op.code == LINUX_INET_DIAG_BC_S_COND;

			memcpy(&cond, bc + sizeof(op), sizeof(cond));
			memcpy(caddr, bc + sizeof(op) + sizeof(cond),
			       cond.family == LINUX_AF_INET6  ? 16
			       : cond.family == LINUX_AF_INET ? 4
							      : 0);
			if (cond.port != -1 && cond.port != (s ? e->sport : e->dport)) {
				yes = false;
				break;
			}
			addr = s ? e->saddr : e->daddr;
			if (cond.family != LINUX_AF_UNSPEC && cond.family != e->family) {
				/* an IPv4 condition takes an IPv6 socket's
				 * v4-mapped address */
				if (e->family == LINUX_AF_INET6 && cond.family == LINUX_AF_INET &&
				    addr[0] == 0 && addr[1] == 0 &&
				    addr[2] == __builtin_bswap32(0xffff) &&
				    bitstring_match(addr + 3, caddr, cond.prefix_len))
					break;
				yes = false;
				break;
			}
			if (cond.prefix_len == 0)
				break;
			yes = bitstring_match(addr, caddr, cond.prefix_len);
			break;
		}
		case LINUX_INET_DIAG_BC_DEV_COND: {
			uint32_t ifindex;

			memcpy(&ifindex, bc + sizeof(op), sizeof(ifindex));
			yes = ifindex == 0; /* no socket is bound to a device */
			break;
		}
		case LINUX_INET_DIAG_BC_MARK_COND: {
			struct linux_inet_diag_markcond m;

			memcpy(&m, bc + sizeof(op), sizeof(m));
			yes = (0 & m.mask) == m.mark; /* every mark is 0 */
			break;
		}
		}
		if (yes) {
			len -= op.yes;
			bc += op.yes;
		} else {
			len -= op.no;
			bc += op.no;
		}
	}
	return len == 0;
}

static bool valid_cc(const uint8_t *bc, int len, int cc)
{
	while (len >= 0) {
		struct linux_inet_diag_bc_op op;

		if (cc > len)
			return false;
		if (cc == len)
			return true;
		memcpy(&op, bc, sizeof(op));
		if (op.yes < 4 || (op.yes & 3))
			return false;
		len -= op.yes;
		bc += op.yes;
	}
	return false;
}

/* inet_diag_bc_audit: every operation whole, every jump forward onto an
 * operation's start or just past the end. */
static int bc_audit(const struct linux_nlattr *a)
{
	const uint8_t *bytecode = (const uint8_t *)(a + 1), *bc = bytecode;
	int bytecode_len = a->nla_len - (int)sizeof(*a), len = bytecode_len;

	if (bytecode_len < (int)sizeof(struct linux_inet_diag_bc_op))
		return -EINVAL;
	while (len > 0) {
		int min_len = sizeof(struct linux_inet_diag_bc_op);
		struct linux_inet_diag_bc_op op;

		if (len < (int)sizeof(op))
			return -EINVAL; /* Linux reads past here; nothing valid follows */
		memcpy(&op, bc, sizeof(op));
		switch (op.code) {
		case LINUX_INET_DIAG_BC_S_COND:
		case LINUX_INET_DIAG_BC_D_COND: {
			struct linux_inet_diag_hostcond cond;
			int alen;

			min_len += sizeof(cond);
			if (len < min_len)
				return -EINVAL;
			memcpy(&cond, bc + sizeof(op), sizeof(cond));
			if (cond.family == LINUX_AF_UNSPEC)
				alen = 0;
			else if (cond.family == LINUX_AF_INET)
				alen = 4;
			else if (cond.family == LINUX_AF_INET6)
				alen = 16;
			else
				return -EINVAL;
			min_len += alen;
			if (len < min_len || cond.prefix_len > 8 * alen)
				return -EINVAL;
			break;
		}
		case LINUX_INET_DIAG_BC_DEV_COND:
			min_len += 4;
			if (len < min_len)
				return -EINVAL;
			break;
		case LINUX_INET_DIAG_BC_S_EQ:
		case LINUX_INET_DIAG_BC_S_GE:
		case LINUX_INET_DIAG_BC_S_LE:
		case LINUX_INET_DIAG_BC_D_EQ:
		case LINUX_INET_DIAG_BC_D_GE:
		case LINUX_INET_DIAG_BC_D_LE:
			min_len += sizeof(op);
			if (len < min_len)
				return -EINVAL;
			break;
		case LINUX_INET_DIAG_BC_MARK_COND:
			if (!net_admin())
				return -EPERM;
			min_len += sizeof(struct linux_inet_diag_markcond);
			if (len < min_len)
				return -EINVAL;
			break;
		case LINUX_INET_DIAG_BC_AUTO:
		case LINUX_INET_DIAG_BC_JMP:
		case LINUX_INET_DIAG_BC_NOP:
			break;
		default:
			return -EINVAL;
		}
		if (op.code != LINUX_INET_DIAG_BC_NOP) {
			if (op.no < min_len || op.no > len + 4 || (op.no & 3))
				return -EINVAL;
			if (op.no < len && !valid_cc(bytecode, bytecode_len, len - op.no))
				return -EINVAL;
		}
		if (op.yes < min_len || op.yes > len + 4 || (op.yes & 3))
			return -EINVAL;
		bc += op.yes;
		len -= op.yes;
	}
	return len == 0 ? 0 : -EINVAL;
}

static bool bc_passes(const struct inet_req *q, const struct inet_sock *in)
{
	uint32_t saddr[4], daddr[4];
	struct bc_entry e;

	if (!q->bc)
		return true;
	put_addr(saddr, in, in->saddr);
	put_addr(daddr, in, peer_addr(in));
	e.family = in->u.sk.family;
	e.saddr = saddr;
	e.daddr = daddr;
	e.sport = in->sport;
	e.dport = peer_port(in);
	e.userlocks = in->port_named ? SOCK_BINDPORT : 0;
	return bc_run((const uint8_t *)(q->bc + 1), q->bc->nla_len - (int)sizeof(*q->bc), &e);
}

/* inet_diag_parse_attrs: the request's attributes after hdrlen bytes. */
static int inet_parse(const struct linux_nlmsghdr *nlh, size_t hdrlen, struct inet_req *q,
		      const struct linux_nlattr **stg)
{
	size_t off = LINUX_NLMSG_ALIGN(hdrlen), len = payload_len(nlh);

	*stg = NULL;
	while (off + sizeof(struct linux_nlattr) <= len) {
		const struct linux_nlattr *a = (const void *)(payload(nlh) + off);
		int type = a->nla_type & LINUX_NLA_TYPE_MASK;

		if (a->nla_len < sizeof(*a) || a->nla_len > len - off)
			break;
		if (type == LINUX_INET_DIAG_REQ_PROTOCOL) {
			uint32_t proto;

			if (a->nla_len - sizeof(*a) != sizeof(uint32_t))
				return -EINVAL;
			memcpy(&proto, a + 1, sizeof(proto));
			q->protocol = proto > INT32_MAX ? -1 : (int)proto;
		} else if (type == LINUX_INET_DIAG_REQ_BYTECODE) {
			q->bc = a;
		} else if (type == LINUX_INET_DIAG_REQ_SK_BPF_STORAGES) {
			*stg = a;
		}
		off += LINUX_NLMSG_ALIGN(a->nla_len);
	}
	return 0;
}

/* bpf_sk_storage_diag_alloc: the maps to report, none of which can exist
 * here. */
static int bpf_storages(const struct linux_nlattr *a)
{
	const struct cred *c = &current->proc->cred;
	size_t off = sizeof(*a);

	if (!capable(c, CAP_BPF) && !capable(c, CAP_SYS_ADMIN))
		return -EPERM;
	while (off + sizeof(*a) <= a->nla_len) {
		const struct linux_nlattr *n = (const void *)((const uint8_t *)a + off);

		if (n->nla_len < sizeof(*n) || n->nla_len > a->nla_len - off)
			break;
		if ((n->nla_type & LINUX_NLA_TYPE_MASK) == LINUX_SK_DIAG_BPF_STORAGE_REQ_MAP_FD)
			return -EINVAL; /* no BPF map here: not implemented */
		off += LINUX_NLMSG_ALIGN(n->nla_len);
	}
	return 0;
}

/* The protocols Linux has a handler for: TCP and UDP (ours), UDP-Lite
 * and MPTCP (no such socket here: their tables are empty). */
static bool inet_handler(int protocol)
{
	return protocol == LINUX_IPPROTO_TCP || protocol == LINUX_IPPROTO_UDP ||
	       protocol == IPPROTO_UDPLT || protocol == IPPROTO_MPTCP;
}

static bool family_ok(const struct inet_req *q, const struct inet_sock *in)
{
	return q->r.sdiag_family == LINUX_AF_UNSPEC || in->u.sk.family == q->r.sdiag_family;
}

static void put_one(struct dump *d, const struct inet_req *q, struct inet_sock *in,
		    bool bound_inactive)
{
	size_t start = d->b.len;

	inet_fill(&d->b, d->s, q, in, LINUX_NLM_F_MULTI, d->req->nlmsg_seq, bound_inactive);
	dump_msg_done(d, start);
}

/* inet_diag_dump_icsk: listeners, then (when asked) sockets bound and
 * closed, then the rest by state; udp_dump: every socket with a port. */
static void inet_dump(struct dump *d, const struct inet_req *q)
{
	uint32_t states = q->r.idiag_states;
	uint16_t sport = __builtin_bswap16(q->r.id.idiag_sport);
	uint16_t dport = __builtin_bswap16(q->r.id.idiag_dport);
	struct unix_sock *u;

	if (q->protocol != LINUX_IPPROTO_TCP && q->protocol != LINUX_IPPROTO_UDP)
		return;
	if (q->protocol == LINUX_IPPROTO_UDP) {
		list_for_each_entry(u, &unix_every_sock, all_link)
		{
			struct inet_sock *in = (struct inet_sock *)u;

			if (u->dead || u->sk.net != d->s->sk.net ||
			    (u->sk.family != LINUX_AF_INET && u->sk.family != LINUX_AF_INET6))
				continue;
			if (in->proto != LINUX_IPPROTO_UDP || !in->sport ||
			    !(states & TCPF(diag_state(in))) || !family_ok(q, in) ||
			    (sport && sport != in->sport) || (dport && dport != peer_port(in)) ||
			    !bc_passes(q, in))
				continue;
			put_one(d, q, in, false);
		}
		return;
	}
	if (states & TCPF(LINUX_TCP_SYN_RECV))
		states |= TCPF(LINUX_TCP_NEW_SYN_RECV);
	for (int pass = 0; pass < 3; pass++) {
		if (pass == 0 && (!(states & TCPF(LINUX_TCP_LISTEN)) || dport))
			continue;
		if (pass == 1 && !(states & TCPF(LINUX_TCP_BOUND_INACTIVE)))
			continue;
		if (pass == 2 && !(states & ~TCPF(LINUX_TCP_LISTEN)))
			continue;
		list_for_each_entry(u, &unix_every_sock, all_link)
		{
			struct inet_sock *in = (struct inet_sock *)u;
			int st;

			if (u->dead || u->sk.net != d->s->sk.net ||
			    (u->sk.family != LINUX_AF_INET && u->sk.family != LINUX_AF_INET6))
				continue;
			if (in->proto != LINUX_IPPROTO_TCP || !family_ok(q, in))
				continue;
			st = tcp_sk_state(in);
			if (pass == 0 && (st != LINUX_TCP_LISTEN || (sport && sport != in->sport)))
				continue;
			if (pass == 1 && (st != LINUX_TCP_CLOSE || in->connected || !in->sport))
				continue;
			if (pass == 2 && (st == LINUX_TCP_LISTEN || st == LINUX_TCP_CLOSE ||
					  !(states & TCPF(st)) || (sport && sport != in->sport) ||
					  (dport && dport != peer_port(in))))
				continue;
			if (!bc_passes(q, in))
				continue;
			put_one(d, q, in, pass == 1);
		}
	}
}

static bool addr_eq(const struct inet_sock *in, const uint8_t a[16], const uint32_t w[4])
{
	uint32_t mine[4];

	put_addr(mine, in, a);
	return !memcmp(mine, w, 16);
}

static bool addr_any(const struct inet_sock *in, const uint8_t a[16])
{
	static const uint32_t zero[4];

	return addr_eq(in, a, zero);
}

/* An id's address in the family of a socket: a v4-mapped IPv6 one
 * matches an AF_INET socket (inet_diag_find_one_icsk's inet_lookup). */
static bool id_addr(const struct inet_req *q, const struct inet_sock *in, const uint32_t w[4],
		    uint32_t out[4])
{
	memset(out, 0, 16);
	if (q->r.sdiag_family == in->u.sk.family) {
		memcpy(out, w, 16);
		return true;
	}
	if (q->r.sdiag_family == LINUX_AF_INET6 && in->u.sk.family == LINUX_AF_INET && w[0] == 0 &&
	    w[1] == 0 && w[2] == __builtin_bswap32(0xffff)) {
		out[0] = w[3];
		return true;
	}
	return false;
}

/* The socket an id names. TCP (inet_lookup): the connection of that
 * local and remote address and port, else the listener on the local
 * port whose address covers the local one. UDP (__udp4_lib_lookup, with
 * its swapped arguments: the id's destination is the local end): the
 * best match as compute_score ranks them. Only net's sockets. */
static struct inet_sock *inet_find(const struct net_ns *net, const struct inet_req *q, bool destroy)
{
	uint16_t sport = __builtin_bswap16(q->r.id.idiag_sport);
	uint16_t dport = __builtin_bswap16(q->r.id.idiag_dport);
	const uint32_t *idsrc = q->r.id.idiag_src, *iddst = q->r.id.idiag_dst;
	struct inet_sock *best = NULL;
	int best_score = -1;
	struct unix_sock *u;

	if (q->protocol == LINUX_IPPROTO_UDP && destroy) {
		/* __udp_diag_destroy looks the id up the right way round:
		 * the source is the local end */
		uint16_t p = sport;

		idsrc = q->r.id.idiag_dst;
		iddst = q->r.id.idiag_src;
		sport = dport;
		dport = p;
	}

	list_for_each_entry(u, &unix_every_sock, all_link)
	{
		struct inet_sock *in = (struct inet_sock *)u;
		uint32_t src[4], dst[4];
		int score = 0, st;

		if (u->dead || u->sk.net != net ||
		    (u->sk.family != LINUX_AF_INET && u->sk.family != LINUX_AF_INET6))
			continue;
		if (in->proto != q->protocol || !in->sport)
			continue;
		if (!id_addr(q, in, idsrc, src) || !id_addr(q, in, iddst, dst))
			continue;
		if (q->protocol == LINUX_IPPROTO_UDP) {
			/* local: dst:dport; remote: src:sport */
			if (in->sport != dport || !family_ok(q, in))
				continue;
			score = in->u.sk.family == LINUX_AF_INET ? 2 : 1;
			if (!addr_any(in, in->saddr)) {
				if (!addr_eq(in, in->saddr, dst))
					continue;
				score += 4;
			}
			if (in->connected) {
				if (!addr_eq(in, in->daddr, src) || in->dport != sport)
					continue;
				score += 8;
			}
		} else {
			st = tcp_sk_state(in);
			if (in->sport != sport)
				continue;
			if (st != LINUX_TCP_LISTEN && st != LINUX_TCP_CLOSE && in->connected) {
				if (!addr_eq(in, in->saddr, src) || !addr_eq(in, in->daddr, dst) ||
				    in->dport != dport)
					continue;
				return in; /* the established table comes first */
			}
			if (st != LINUX_TCP_LISTEN)
				continue;
			if (!addr_any(in, in->saddr)) {
				if (!addr_eq(in, in->saddr, src))
					continue;
				score = 4;
			}
			score += in->u.sk.family == LINUX_AF_INET ? 2 : 1;
		}
		if (score > best_score) {
			best = in;
			best_score = score;
		}
	}
	return best;
}

static bool cookie_ok(struct socket *sk, const uint32_t cookie[2])
{
	uint64_t c = sock_cookie(sk);

	if (cookie[0] == LINUX_INET_DIAG_NOCOOKIE && cookie[1] == LINUX_INET_DIAG_NOCOOKIE)
		return true;
	return (uint32_t)c == cookie[0] && (uint32_t)(c >> 32) == cookie[1];
}

/* inet_diag_cmd_exact: the one socket, or destroying it (tcp_diag_destroy,
 * udp_diag_destroy). */
static int inet_exact(struct nl_sock *s, const struct linux_nlmsghdr *nlh, const struct inet_req *q,
		      int cmd)
{
	struct nlbuf b = { 0 };
	struct inet_sock *in;

	if (q->protocol < 0 || q->protocol >= IPPROTO_MAX || !inet_handler(q->protocol))
		return -ENOENT;
	if (cmd == LINUX_SOCK_DESTROY && q->protocol == IPPROTO_MPTCP)
		return -EOPNOTSUPP; /* mptcp_diag has no destroy */
	if (q->r.sdiag_family != LINUX_AF_INET && q->r.sdiag_family != LINUX_AF_INET6)
		return -EINVAL;
	if (q->protocol != LINUX_IPPROTO_TCP && q->protocol != LINUX_IPPROTO_UDP)
		return -ENOENT;
	in = inet_find(s->sk.net, q, cmd == LINUX_SOCK_DESTROY);
	if (!in || !cookie_ok(&in->u.sk, q->r.id.idiag_cookie))
		return -ENOENT;
	if (cmd == LINUX_SOCK_DESTROY) { /* sock_diag_destroy */
		if (!net_admin())
			return -EPERM;
		if (q->protocol == LINUX_IPPROTO_TCP)
			tcp_abort(in, ECONNABORTED);
		else
			udp_abort(in, ECONNABORTED);
		return 0;
	}
	inet_fill(&b, s, q, in, 0, nlh->nlmsg_seq, false);
	netlink_send_kernel(s, &b);
	return 0;
}

/* inet_diag_handler_cmd and the compat TCPDIAG_GETSOCK: hdrlen is the
 * size of the request's fixed part. */
static int inet_cmd(struct nl_sock *s, const struct linux_nlmsghdr *nlh, struct inet_req *q,
		    size_t hdrlen, bool dump)
{
	const struct linux_nlattr *stg;
	struct dump d = { s, nlh, { 0 } };
	int ret;

	q->protocol = q->r.sdiag_protocol;
	q->bc = NULL;
	ret = inet_parse(nlh, hdrlen, q, &stg);
	if (ret < 0)
		return ret;
	if (!dump)
		return inet_exact(s, nlh, q,
				  nlh->nlmsg_type == LINUX_SOCK_DESTROY
					  ? LINUX_SOCK_DESTROY
					  : LINUX_SOCK_DIAG_BY_FAMILY);
	/* inet_diag_dump_start: the bytecode audited and the maps found
	 * before anything is sent */
	if (q->bc) {
		ret = bc_audit(q->bc);
		if (ret < 0)
			return ret;
	}
	if (stg) {
		ret = bpf_storages(stg);
		if (ret < 0)
			return ret;
	}
	if (q->protocol < 0 || q->protocol >= IPPROTO_MAX || !inet_handler(q->protocol)) {
		dump_end(&d, -ENOENT);
		return 1;
	}
	inet_dump(&d, q);
	dump_end(&d, 0);
	return 1;
}

static int inet_diag(struct nl_sock *s, const struct linux_nlmsghdr *nlh)
{
	struct inet_req q;
	bool dump = nlh->nlmsg_type == LINUX_SOCK_DIAG_BY_FAMILY &&
		    (nlh->nlmsg_flags & LINUX_NLM_F_DUMP);

	if (payload_len(nlh) < sizeof(q.r))
		return -EINVAL;
	memcpy(&q.r, payload(nlh), sizeof(q.r));
	q.type = nlh->nlmsg_type;
	return inet_cmd(s, nlh, &q, sizeof(q.r), dump);
}

/* inet_diag_rcv_msg_compat: TCPDIAG_GETSOCK's inet_diag_req, as a v2
 * request of TCP (of both families when a dump). */
static int inet_diag_compat(struct nl_sock *s, const struct linux_nlmsghdr *nlh)
{
	struct linux_inet_diag_req rc;
	struct inet_req q;
	bool dump = nlh->nlmsg_flags & LINUX_NLM_F_DUMP;

	if (payload_len(nlh) < sizeof(rc))
		return -EINVAL;
	memcpy(&rc, payload(nlh), sizeof(rc));
	memset(&q.r, 0, sizeof(q.r));
	q.r.sdiag_family = dump ? LINUX_AF_UNSPEC : rc.idiag_family;
	q.r.sdiag_protocol = LINUX_IPPROTO_TCP;
	q.r.idiag_ext = rc.idiag_ext;
	q.r.idiag_states = rc.idiag_states;
	q.r.id = rc.id;
	q.type = nlh->nlmsg_type;
	return inet_cmd(s, nlh, &q, sizeof(rc), dump);
}

/* --- AF_UNIX: unix_diag --- */

static int unix_state(const struct unix_sock *u)
{
	if (u->sk.state == SS_LISTEN)
		return LINUX_TCP_LISTEN;
	return u->sk.state == SS_ESTABLISHED ? LINUX_TCP_ESTABLISHED : LINUX_TCP_CLOSE;
}

/* s_dev as the kernel keeps it (MKDEV), from stat's encoding. */
static uint32_t kdev(uint64_t dev)
{
	uint32_t major = (uint32_t)((dev >> 8) & 0xfff);
	uint32_t minor = (uint32_t)((dev & 0xff) | ((dev >> 12) & 0xfff00));

	return major << 20 | minor;
}

static void unix_fill(struct nlbuf *b, struct nl_sock *s, const struct linux_unix_diag_req *req,
		      struct unix_sock *u, uint16_t flags, uint32_t seq)
{
	struct linux_unix_diag_msg r = { 0 };
	uint64_t cookie = sock_cookie(&u->sk);
	unsigned show = req->udiag_show;
	size_t start;

	r.udiag_family = LINUX_AF_UNIX;
	r.udiag_type = (uint8_t)u->sk.type;
	r.udiag_state = (uint8_t)unix_state(u);
	r.udiag_ino = ino_of(&u->sk);
	r.udiag_cookie[0] = (uint32_t)cookie;
	r.udiag_cookie[1] = (uint32_t)(cookie >> 32);
	start = nlmsg_begin(b, LINUX_SOCK_DIAG_BY_FAMILY, flags, seq, s->portid, &r, sizeof(r));
	if ((show & LINUX_UDIAG_SHOW_NAME) && u->addrlen)
		nla_put(b, LINUX_UNIX_DIAG_NAME, (const uint8_t *)&u->addr + 2,
			(size_t)u->addrlen - 2);
	if ((show & LINUX_UDIAG_SHOW_VFS) && (u->path.dentry || u->bound_ino)) {
		struct linux_unix_diag_vfs v = { (uint32_t)u->bound_ino, kdev(u->bound_dev) };

		nla_put(b, LINUX_UNIX_DIAG_VFS, &v, sizeof(v));
	}
	if ((show & LINUX_UDIAG_SHOW_PEER) && u->peer)
		nla_put_u32(b, LINUX_UNIX_DIAG_PEER, ino_of(&u->peer->sk));
	if ((show & LINUX_UDIAG_SHOW_ICONS) && u->sk.state == SS_LISTEN) {
		/* the connections waiting for accept: their peers' inodes */
		uint32_t *icons = calloc((size_t)u->qlen + 1, sizeof(*icons));
		struct skb *skb;
		int n = 0;

		if (!icons) {
			b->oom = true;
		} else {
			list_for_each_entry(skb, &u->queue, link)
			{
				if (n < u->qlen)
					icons[n++] = skb->embryo && skb->embryo->peer
							     ? ino_of(&skb->embryo->peer->sk)
							     : 0;
			}
			nla_put(b, LINUX_UNIX_DIAG_ICONS, icons, (size_t)n * sizeof(*icons));
			free(icons);
		}
	}
	if (show & LINUX_UDIAG_SHOW_RQLEN) {
		struct linux_unix_diag_rqlen rq;

		if (u->sk.state == SS_LISTEN) {
			rq.udiag_rqueue = (uint32_t)u->qlen;
			rq.udiag_wqueue = (uint32_t)u->max_backlog;
		} else {
			rq.udiag_rqueue = (uint32_t)unix_inq(&u->sk);
			rq.udiag_wqueue = (uint32_t)u->sk.wmem;
		}
		nla_put(b, LINUX_UNIX_DIAG_RQLEN, &rq, sizeof(rq));
	}
	if (show & LINUX_UDIAG_SHOW_MEMINFO)
		put_skmeminfo(b, LINUX_UNIX_DIAG_MEMINFO, &u->sk, 0, (uint32_t)u->sk.wmem);
	nla_put_u8(b, LINUX_UNIX_DIAG_SHUTDOWN, (uint8_t)u->sk.shutdown);
	if (show & LINUX_UDIAG_SHOW_UID)
		nla_put_u32(b, LINUX_UNIX_DIAG_UID, u->sk.uid);
	nlmsg_end(b, start);
}

static int unix_diag(struct nl_sock *s, const struct linux_nlmsghdr *nlh)
{
	struct linux_unix_diag_req req;
	struct unix_sock *u;

	/* unix_diag has no destroy: __sock_diag_cmd says so before the
	 * handler would check the length */
	if (nlh->nlmsg_type == LINUX_SOCK_DESTROY)
		return -EOPNOTSUPP;
	if (payload_len(nlh) < sizeof(req))
		return -EINVAL;
	memcpy(&req, payload(nlh), sizeof(req));
	if (nlh->nlmsg_flags & LINUX_NLM_F_DUMP) {
		struct dump d = { s, nlh, { 0 } };

		list_for_each_entry(u, &unix_every_sock, all_link)
		{
			size_t start = d.b.len;

			if (u->sk.family != LINUX_AF_UNIX || u->dead || u->sk.net != s->sk.net ||
			    !ino_of(&u->sk) || !(req.udiag_states & (1U << unix_state(u))))
				continue;
			unix_fill(&d.b, s, &req, u, LINUX_NLM_F_MULTI, nlh->nlmsg_seq);
			dump_msg_done(&d, start);
		}
		dump_end(&d, 0);
		return 1;
	}
	if (req.udiag_ino == 0)
		return -EINVAL;
	list_for_each_entry(u, &unix_every_sock, all_link)
	{
		struct nlbuf b = { 0 };

		if (u->sk.family != LINUX_AF_UNIX || u->dead || u->sk.net != s->sk.net ||
		    ino_of(&u->sk) != req.udiag_ino)
			continue;
		if (!cookie_ok(&u->sk, req.udiag_cookie))
			return -ESTALE;
		unix_fill(&b, s, &req, u, 0, nlh->nlmsg_seq);
		netlink_send_kernel(s, &b);
		return 0;
	}
	return -ENOENT;
}

/* --- dispatch --- */

/* sock_diag_rcv_msg: 0, 1 (a dump, answered) or -errno. */
static int sock_diag_msg(struct nl_sock *s, const struct linux_nlmsghdr *nlh, size_t rest,
			 const void *arg)
{
	struct linux_sock_diag_req req;

	(void)rest;
	(void)arg;
	switch (nlh->nlmsg_type) {
	case LINUX_TCPDIAG_GETSOCK:
		return inet_diag_compat(s, nlh);
	case LINUX_SOCK_DIAG_BY_FAMILY:
	case LINUX_SOCK_DESTROY:
		break;
	default:
		return -EINVAL; /* DCCPDIAG_GETSOCK too: DCCP is gone */
	}
	if (payload_len(nlh) < sizeof(req))
		return -EINVAL;
	memcpy(&req, payload(nlh), sizeof(req));
	if (req.sdiag_family >= LINUX_AF_MAX)
		return -EINVAL;
	switch (req.sdiag_family) {
	case LINUX_AF_INET:
	case LINUX_AF_INET6:
		return inet_diag(s, nlh);
	case LINUX_AF_UNIX:
		return unix_diag(s, nlh);
	default:
		return -ENOENT; /* no handler: netlink_diag, packet_diag... not loaded */
	}
}

void sock_diag_rcv(struct nl_sock *s, const uint8_t *data, size_t len)
{
	netlink_rcv_skb(s, data, len, sock_diag_msg, NULL);
}
