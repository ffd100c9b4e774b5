/* net/rtnetlink.c: NETLINK_ROUTE's requests, answered from the devices of
 * net/netdev.h as Linux's rtnetlink, devinet, addrconf and fib code would
 * in a namespace holding only the loopback: RTM_GETLINK (a dump, or one
 * device by index or name), RTM_GETADDR and RTM_GETROUTE dumps (the
 * local table's routes of 127.0.0.1/8 and ::1; main is empty),
 * RTM_GETROUTE of one destination, the RTM_GETRULE dump (the rules a
 * namespace starts with) and an empty RTM_GETNEIGH dump; and the
 * notifications of lo's changes to the link, address and route groups.
 * NETLINK_GET_STRICT_CHK's checks and filters are those of Linux 6.18,
 * and a dump's error comes in its NLMSG_DONE as there.
 * Each network namespace sees its own lo: its flags, and while it is down
 * no IPv6 address or route, and before its first up no IPv4 address nor
 * local table.
 * Differs from Linux: nothing can change but whether lo is up. A request
 * to (NEW, DEL, SET) needs CAP_NET_ADMIN as on Linux (EPERM); with it,
 * RTM_NEWLINK setting lo up or down (`ip link set lo up`) or asking for
 * what a device already is, and RTM_NEWADDR giving lo its own 127.0.0.1/8,
 * succeed, and any other is EOPNOTSUPP: the
 * operation is not supported here, which a program can tell from a
 * permission it lacks. The other requests Linux
 * knows (qdiscs, neighbour tables, nexthops...) are EOPNOTSUPP too. A
 * link's counters are all 0. */
#include <string.h>

#include "net/netlink.h"
#include "net/netdev.h"
#include "net/netns.h"
#include "kernel/task.h"
#include "kernel/cred.h"
#include "abi/linux/errno.h"
#include "abi/linux/socket.h"

#define CAP_NET_ADMIN	    12
#define IF_OPER_DOWN	    2
#define RTM_DELADDR	    21
#define RTM_DELROUTE	    25
#define RTNLGRP_LINK	    1
#define RTNLGRP_IPV4_IFADDR 5
#define RTNLGRP_IPV4_ROUTE  7
#define RTNLGRP_IPV6_IFADDR 9
#define RTNLGRP_IPV6_ROUTE  11
#define DUMPED		    NETLINK_DUMPED

#define IFLA_MASTER	       10
#define IFLA_LINKINFO	       18
#define IFLA_TARGET_NETNSID    46
#define IFLA_ALT_IFNAME	       53
#define IFA_TARGET_NETNSID     10
#define RTM_F_PREFIX	       0x800
#define NLM_F_REPLACE	       0x100
#define NLM_F_EXCL	       0x200
#define NLM_F_CREATE	       0x400
#define RTA_SRC		       2
#define RTA_UID		       25
#define RTCF_LOCAL	       0x80000000u
#define FRA_PRIORITY	       6
#define FRA_SUPPRESS_PREFIXLEN 14
#define FRA_TABLE	       15
#define FRA_PROTOCOL	       21

/* The attributes of a request, the last of each type (nla_parse). */
#define MAX_ATTR 64
struct attrs {
	const struct linux_nlattr *a[MAX_ATTR + 1];
	bool other; /* one of a type past MAX_ATTR */
};

/* Parses the attributes after a fixed part of hdrlen bytes: -EINVAL for a
 * malformed one, or (strict) trailing bytes. */
static int parse_attrs(const struct linux_nlmsghdr *nlh, size_t hdrlen, bool strict,
		       struct attrs *at)
{
	const uint8_t *p = (const uint8_t *)nlh + LINUX_NLMSG_HDRLEN + LINUX_NLMSG_ALIGN(hdrlen);
	size_t msglen = nlh->nlmsg_len - LINUX_NLMSG_HDRLEN;
	size_t rem = msglen > LINUX_NLMSG_ALIGN(hdrlen) ? msglen - LINUX_NLMSG_ALIGN(hdrlen) : 0;

	memset(at, 0, sizeof(*at));
	if (msglen < hdrlen)
		return -EINVAL;
	while (rem >= sizeof(struct linux_nlattr)) {
		const struct linux_nlattr *a = (const struct linux_nlattr *)p;
		uint16_t type = a->nla_type & LINUX_NLA_TYPE_MASK;

		if (a->nla_len < sizeof(*a) || a->nla_len > rem)
			break;
		if (type <= MAX_ATTR)
			at->a[type] = a;
		else
			at->other = true;
		if (LINUX_NLMSG_ALIGN(a->nla_len) >= rem) {
			rem = 0;
			break;
		}
		p += LINUX_NLMSG_ALIGN(a->nla_len);
		rem -= LINUX_NLMSG_ALIGN(a->nla_len);
	}
	if (rem && strict)
		return -EINVAL; /* NL_VALIDATE_TRAILING */
	return 0;
}

static size_t nla_payload(const struct linux_nlattr *a)
{
	return a->nla_len - sizeof(*a);
}

static bool attr_u32(const struct linux_nlattr *a, uint32_t *v)
{
	if (!a || nla_payload(a) < sizeof(*v))
		return false;
	memcpy(v, a + 1, sizeof(*v));
	return true;
}

/* Whether attributes other than those of the mask (bits by type) came. */
static bool attrs_beyond(const struct attrs *at, uint64_t allowed)
{
	if (at->other)
		return true;
	for (int i = 1; i <= MAX_ATTR; i++)
		if (at->a[i] && !(i < 64 && (allowed & (1ULL << i))))
			return true;
	return false;
}

/* A device name attribute (NLA_STRING of at most IFNAMSIZ-1): -ERANGE when
 * longer, as the policy check says. */
static int attr_name(const struct linux_nlattr *a, char name[LINUX_IFNAMSIZ])
{
	size_t n = nla_payload(a);
	const char *s = (const char *)(a + 1);

	if (n && s[n - 1] == 0)
		n--;
	if (n > LINUX_IFNAMSIZ - 1)
		return -ERANGE;
	memset(name, 0, LINUX_IFNAMSIZ);
	memcpy(name, s, n);
	return 0;
}

/* --- the messages --- */

#define IFLA_PROTINFO		 12
#define IFLA_INET_CONF		 1
#define IFLA_INET6_FLAGS	 1
#define IFLA_INET6_CONF		 2
#define IFLA_INET6_STATS	 3
#define IFLA_INET6_CACHEINFO	 5
#define IFLA_INET6_ICMP6STATS	 6
#define IFLA_INET6_TOKEN	 7
#define IFLA_INET6_ADDR_GEN_MODE 8
#define IF_READY		 0x80000000u

/* The loopback's IPv4 and IPv6 settings (net.ipv4.conf.lo.*,
 * net.ipv6.conf.lo.*) in a new namespace, as Linux 6.18 reports them by
 * number (IPV4_DEVCONF_* less 1, DEVCONF_*). */
static const int32_t inet_devconf[33] = {
	0, 0, 0, 1, 1, 1, 1, 0, 1, 0,	  0,	0, 0, 0, 1, 1, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 10000, 1000, 0, 0, 0, 0, 1,
};
static const int32_t inet6_devconf[60] = {
	0,     64,   65536, 1, 1, 1,	 1, -1,	  4000, 1000,  -1, 604800, 86400, 3,	   600,
	16,    0,    1,	    1, 1, 60000, 0, 0,	  0,	0,     0,  0,	   -1,	  0,	   0,
	10000, 1000, 1,	    0, 0, 1,	 0, 0,	  1,	0,     0,  0,	   0,	  3600000, 0,
	0,     1,    0,	    0, 0, 0,	 0, 1024, 0,	65535, -1, 1,	   0,	  0,	   0,
};

/* inet6_fill_ifla6_attrs: IPv6's part of a link. The counters are 0 but
 * for their own number (38 and 7), which leads each array; the
 * reachable time is BASE_REACHABLE_TIME where Linux draws it at random
 * around it. RTEXT_FILTER_SKIP_STATS leaves the counters out. */
static void fill_inet6(struct nlbuf *b, uint32_t ext_mask)
{
	static const uint64_t stats[38] = { 38 }, icmp6[7] = { 7 };
	static const uint32_t cacheinfo[4] = { 65535, 0, 30000, 1000 };
	static const uint8_t token[16];

	nla_put_u32(b, IFLA_INET6_FLAGS, IF_READY);
	nla_put(b, IFLA_INET6_CACHEINFO, cacheinfo, sizeof(cacheinfo));
	nla_put(b, IFLA_INET6_CONF, inet6_devconf, sizeof(inet6_devconf));
	if (!(ext_mask & LINUX_RTEXT_FILTER_SKIP_STATS)) {
		nla_put(b, IFLA_INET6_STATS, stats, sizeof(stats));
		nla_put(b, IFLA_INET6_ICMP6STATS, icmp6, sizeof(icmp6));
	}
	nla_put(b, IFLA_INET6_TOKEN, token, sizeof(token));
	nla_put_u8(b, IFLA_INET6_ADDR_GEN_MODE, 0); /* IN6_ADDR_GEN_MODE_EUI64 */
}

/* inet6_fill_ifinfo: a link as IPv6 dumps it (RTM_GETLINK of AF_INET6). */
static void fill_link6(struct nlbuf *b, const struct netdev *d, const struct net_ns *net,
		       uint32_t seq, uint32_t portid)
{
	struct linux_ifinfomsg ifi = { 0 };
	static const uint8_t zero[6];
	size_t start, nest;

	ifi.ifi_family = LINUX_AF_INET6;
	ifi.ifi_type = d->type;
	ifi.ifi_index = d->ifindex;
	ifi.ifi_flags = netdev_flags(d, net);
	start = nlmsg_begin(b, LINUX_RTM_NEWLINK, LINUX_NLM_F_MULTI, seq, portid, &ifi,
			    sizeof(ifi));
	nla_put(b, LINUX_IFLA_IFNAME, d->name, strlen(d->name) + 1);
	nla_put(b, LINUX_IFLA_ADDRESS, zero, 6);
	nla_put_u32(b, LINUX_IFLA_MTU, d->mtu);
	nla_put_u8(b, LINUX_IFLA_OPERSTATE, net->lo_up ? 0 : IF_OPER_DOWN);
	nest = nla_nest_begin(b, IFLA_PROTINFO);
	fill_inet6(b, 0);
	nla_nest_end(b, nest);
	nlmsg_end(b, start);
}

static void fill_link(struct nlbuf *b, const struct netdev *d, const struct net_ns *net,
		      uint16_t flags, uint32_t seq, uint32_t portid, uint32_t ext_mask)
{
	struct linux_ifinfomsg ifi = { 0 };
	static const uint8_t zero[204];
	size_t start, nest, spec;

	ifi.ifi_type = d->type;
	ifi.ifi_index = d->ifindex;
	ifi.ifi_flags = netdev_flags(d, net);
	start = nlmsg_begin(b, LINUX_RTM_NEWLINK, flags, seq, portid, &ifi, sizeof(ifi));
	/* rtnl_fill_ifinfo's order */
	nla_put(b, LINUX_IFLA_IFNAME, d->name, strlen(d->name) + 1);
	nla_put_u32(b, LINUX_IFLA_TXQLEN, d->txqlen);
	/* IF_OPER_UNKNOWN, as a loopback's, while up */
	nla_put_u8(b, LINUX_IFLA_OPERSTATE, net->lo_up ? 0 : IF_OPER_DOWN);
	nla_put_u8(b, LINUX_IFLA_LINKMODE, 0);
	nla_put_u8(b, LINUX_IFLA_NETNS_IMMUTABLE, 1); /* a loopback stays */
	nla_put_u32(b, LINUX_IFLA_MTU, d->mtu);
	nla_put_u32(b, LINUX_IFLA_MIN_MTU, 0);
	nla_put_u32(b, LINUX_IFLA_MAX_MTU, 0);
	nla_put_u32(b, LINUX_IFLA_GROUP, 0);
	nla_put_u32(b, LINUX_IFLA_PROMISCUITY, 0);
	nla_put_u32(b, LINUX_IFLA_ALLMULTI, 0);
	nla_put_u32(b, LINUX_IFLA_NUM_TX_QUEUES, 1);
	nla_put_u32(b, LINUX_IFLA_GSO_MAX_SEGS, 65535);
	nla_put_u32(b, LINUX_IFLA_GSO_MAX_SIZE, 65536);
	nla_put_u32(b, LINUX_IFLA_GRO_MAX_SIZE, 65536);
	nla_put_u32(b, LINUX_IFLA_GSO_IPV4_MAX_SIZE, 65536);
	nla_put_u32(b, LINUX_IFLA_GRO_IPV4_MAX_SIZE, 65536);
	nla_put_u32(b, LINUX_IFLA_TSO_MAX_SIZE, 524280);
	nla_put_u32(b, LINUX_IFLA_TSO_MAX_SEGS, 65535);
	nla_put_u32(b, LINUX_IFLA_MAX_PACING_OFFLOAD_HORIZON, 0);
	nla_put_u32(b, LINUX_IFLA_NUM_RX_QUEUES, 1);
	nla_put_u8(b, LINUX_IFLA_CARRIER, 1);
	nla_put_u32(b, LINUX_IFLA_CARRIER_CHANGES, 0);
	nla_put_u32(b, LINUX_IFLA_CARRIER_UP_COUNT, 0);
	nla_put_u32(b, LINUX_IFLA_CARRIER_DOWN_COUNT, 0);
	nla_put(b, LINUX_IFLA_HEADROOM, zero, 2);
	nla_put(b, LINUX_IFLA_TAILROOM, zero, 2);
	nla_put_u8(b, LINUX_IFLA_PROTO_DOWN, 0);
	nla_put(b, LINUX_IFLA_ADDRESS, zero, 6);
	nla_put(b, LINUX_IFLA_BROADCAST, zero, 6);
	/* rtnl_link_stats64 (25 u64: 200 bytes) and the 32-bit
	 * rtnl_link_stats (24 u32), all 0 */
	nla_put(b, LINUX_IFLA_STATS64, zero, 200);
	nla_put(b, LINUX_IFLA_STATS, zero, 96);
	nest = nla_nest_begin(b, LINUX_IFLA_XDP);
	nla_put_u8(b, LINUX_IFLA_XDP_ATTACHED, 0);
	nla_nest_end(b, nest);
	/* noop_qdisc until the first up attaches noqueue (dev_activate) */
	if (net->lo_was_up)
		nla_put(b, LINUX_IFLA_QDISC, "noqueue", 8);
	else
		nla_put(b, LINUX_IFLA_QDISC, "noop", 5);
	nest = nla_nest_begin(b, LINUX_IFLA_AF_SPEC);
	spec = nla_nest_begin(b, LINUX_AF_INET);
	nla_put(b, IFLA_INET_CONF, inet_devconf, sizeof(inet_devconf));
	nla_nest_end(b, spec);
	spec = nla_nest_begin(b, LINUX_AF_INET6);
	fill_inet6(b, ext_mask);
	nla_nest_end(b, spec);
	nla_nest_end(b, nest);
	nla_put(b, LINUX_IFLA_MAP, zero, 32);
	nla_put(b, LINUX_IFLA_DEVLINK_PORT | LINUX_NLA_F_NESTED, NULL, 0);
	nla_put(b, LINUX_IFLA_DPLL_PIN | LINUX_NLA_F_NESTED, NULL, 0);
	nlmsg_end(b, start);
}

static void fill_addr(struct nlbuf *b, uint16_t type, const struct netdev *d, bool v6,
		      uint16_t flags, uint32_t seq, uint32_t portid)
{
	struct linux_ifaddrmsg ifa = { 0 };
	struct linux_ifa_cacheinfo ci = { 0xffffffff, 0xffffffff, 0, 0 };
	size_t start;

	ifa.ifa_family = v6 ? LINUX_AF_INET6 : LINUX_AF_INET;
	ifa.ifa_prefixlen = (uint8_t)(v6 ? d->v6_prefix : d->v4_prefix);
	ifa.ifa_flags = LINUX_IFA_F_PERMANENT;
	ifa.ifa_scope = LINUX_RT_SCOPE_HOST;
	ifa.ifa_index = (uint32_t)d->ifindex;
	start = nlmsg_begin(b, type, flags, seq, portid, &ifa, sizeof(ifa));
	if (v6) { /* inet6_fill_ifaddr's order */
		nla_put(b, LINUX_IFA_ADDRESS, d->v6, 16);
		nla_put(b, LINUX_IFA_CACHEINFO, &ci, sizeof(ci));
		nla_put_u32(b, LINUX_IFA_FLAGS, LINUX_IFA_F_PERMANENT);
		nla_put_u8(b, LINUX_IFA_PROTO, LINUX_IFAPROT_KERNEL_LO);
	} else { /* inet_fill_ifaddr's */
		nla_put(b, LINUX_IFA_ADDRESS, d->v4, 4);
		nla_put(b, LINUX_IFA_LOCAL, d->v4, 4);
		nla_put(b, LINUX_IFA_LABEL, d->name, strlen(d->name) + 1);
		nla_put_u32(b, LINUX_IFA_FLAGS, LINUX_IFA_F_PERMANENT);
		nla_put(b, LINUX_IFA_CACHEINFO, &ci, sizeof(ci));
	}
	nlmsg_end(b, start);
}

/* A route of the local table (the only one with routes: those the
 * kernel makes for the devices' addresses). */
struct route {
	bool v6;
	uint8_t dst_len, scope, type;
	uint8_t dst[16];
	const struct netdev *dev;
};

/* The routes of d while it is up, in Linux's dump order: IPv4's local
 * table (the prefix, the address, the prefix's broadcast), then IPv6's. */
static void up_routes(const struct netdev *d, struct route r[4])
{
	uint32_t host = 0xffffffffU >> d->v4_prefix;

	memset(r, 0, 4 * sizeof(*r));
	r[0] = (struct route){
		false, (uint8_t)d->v4_prefix, LINUX_RT_SCOPE_HOST, LINUX_RTN_LOCAL, { 0 }, d
	};
	memcpy(r[0].dst, d->v4, 4);
	for (int i = 0; i < 4; i++) /* the prefix's network */
		r[0].dst[i] &= (uint8_t) ~(host >> (24 - 8 * i));
	r[1] = (struct route){ false, 32, LINUX_RT_SCOPE_HOST, LINUX_RTN_LOCAL, { 0 }, d };
	memcpy(r[1].dst, d->v4, 4);
	r[2] = (struct route){ false, 32, LINUX_RT_SCOPE_LINK, LINUX_RTN_BROADCAST, { 0 }, d };
	memcpy(r[2].dst, r[0].dst, 4);
	for (int i = 0; i < 4; i++)
		r[2].dst[i] |= (uint8_t)(host >> (24 - 8 * i));
	r[3] = (struct route){
		true, (uint8_t)d->v6_prefix, LINUX_RT_SCOPE_UNIVERSE, LINUX_RTN_LOCAL, { 0 }, d
	};
	memcpy(r[3].dst, d->v6, 16);
}

/* The routes of d in net now (the first of up_routes'). */
static int dev_routes(const struct netdev *d, const struct net_ns *net, struct route r[4])
{
	if (!net->lo_has_v4)
		return 0; /* no address: no local table yet */
	up_routes(d, r);
	if (!net->lo_was_up) { /* given 127.0.0.1 before any up: its /32 */
		r[0] = r[1];
		return 1;
	}
	/* down again: fib_disable_ip keeps the loopback's local routes,
	 * addrconf_ifdown takes ::1 */
	return net->lo_up ? 4 : 2;
}

static void fill_route(struct nlbuf *b, uint16_t type, const struct route *r, uint16_t flags,
		       uint32_t seq, uint32_t portid)
{
	struct linux_rtmsg rtm = { 0 };
	static const uint8_t zero[LINUX_RTA_CACHEINFO_SIZE];
	size_t start;

	rtm.rtm_family = r->v6 ? LINUX_AF_INET6 : LINUX_AF_INET;
	rtm.rtm_dst_len = r->dst_len;
	rtm.rtm_table = LINUX_RT_TABLE_LOCAL;
	rtm.rtm_protocol = LINUX_RTPROT_KERNEL;
	rtm.rtm_scope = r->scope;
	rtm.rtm_type = r->type;
	start = nlmsg_begin(b, type, flags, seq, portid, &rtm, sizeof(rtm));
	nla_put_u32(b, LINUX_RTA_TABLE, LINUX_RT_TABLE_LOCAL);
	if (r->v6) { /* rt6_fill_node's */
		nla_put(b, LINUX_RTA_DST, r->dst, 16);
		nla_put_u32(b, LINUX_RTA_PRIORITY, 0);
		nla_put_u32(b, LINUX_RTA_OIF, (uint32_t)r->dev->ifindex);
		nla_put(b, LINUX_RTA_CACHEINFO, zero, sizeof(zero));
		nla_put_u8(b, LINUX_RTA_PREF, 0);
	} else { /* fib_dump_info's */
		nla_put(b, LINUX_RTA_DST, r->dst, 4);
		nla_put(b, LINUX_RTA_PREFSRC, r->dev->v4, 4);
		nla_put_u32(b, LINUX_RTA_OIF, (uint32_t)r->dev->ifindex);
	}
	nlmsg_end(b, start);
}

/* NLMSG_DONE, carrying the dump's error (0 or -errno). */
static void put_done(struct nlbuf *b, const struct linux_nlmsghdr *nlh, uint32_t portid, int err,
		     bool filtered)
{
	size_t start = nlmsg_begin(b, LINUX_NLMSG_DONE,
				   LINUX_NLM_F_MULTI | (filtered ? LINUX_NLM_F_DUMP_FILTERED : 0),
				   nlh->nlmsg_seq, portid, &err, sizeof(err));

	nlmsg_end(b, start);
}

/* A dump that failed its checks: only its NLMSG_DONE. */
static void dump_error(struct nl_sock *s, const struct linux_nlmsghdr *nlh, int err, bool filtered)
{
	struct nlbuf b = { 0 };

	put_done(&b, nlh, s->portid, err, filtered);
	netlink_send_kernel(s, &b);
}

/* A dump's messages in one datagram, then NLMSG_DONE in another, as
 * Linux's dumps answer the first read and end on the next (done_inline:
 * one that ends in its first pass, as IPv6's, has its DONE beside). */
static void dump_finish(struct nl_sock *s, const struct linux_nlmsghdr *nlh, struct nlbuf *b,
			bool done_inline, bool filtered)
{
	if (done_inline || !b->len) {
		put_done(b, nlh, s->portid, 0, filtered);
		netlink_send_kernel(s, b);
		return;
	}
	netlink_send_kernel(s, b);
	dump_error(s, nlh, 0, filtered);
}

static const uint8_t *payload(const struct linux_nlmsghdr *nlh)
{
	return (const uint8_t *)nlh + LINUX_NLMSG_HDRLEN;
}

static size_t payload_len(const struct linux_nlmsghdr *nlh)
{
	return nlh->nlmsg_len - LINUX_NLMSG_HDRLEN;
}

/* --- RTM_GETLINK --- */

static int getlink(struct nl_sock *s, const struct linux_nlmsghdr *nlh)
{
	bool strict = s->nlflags & NLF_STRICT_CHK;
	struct linux_ifinfomsg ifi;
	const struct netdev *d = NULL;
	uint32_t ext_mask = 0;
	struct nlbuf b = { 0 };
	struct attrs at;
	int ret;

	if (payload_len(nlh) < sizeof(ifi))
		return -EINVAL;
	memcpy(&ifi, payload(nlh), sizeof(ifi));
	ret = parse_attrs(nlh, sizeof(ifi), strict, &at);
	if (ret < 0)
		return ret;
	if (strict &&
	    (ifi.pad || ifi.ifi_type || ifi.ifi_flags || ifi.ifi_change ||
	     attrs_beyond(&at, 1ULL << LINUX_IFLA_IFNAME | 1ULL << IFLA_ALT_IFNAME |
				       1ULL << LINUX_IFLA_EXT_MASK | 1ULL << IFLA_TARGET_NETNSID)))
		return -EINVAL; /* rtnl_valid_getlink_req */
	attr_u32(at.a[LINUX_IFLA_EXT_MASK], &ext_mask);
	if (ifi.ifi_index > 0) {
		d = netdev_by_index(ifi.ifi_index);
	} else if (at.a[LINUX_IFLA_IFNAME] || at.a[IFLA_ALT_IFNAME]) {
		char name[LINUX_IFNAMSIZ];

		ret = attr_name(at.a[LINUX_IFLA_IFNAME] ? at.a[LINUX_IFLA_IFNAME]
							: at.a[IFLA_ALT_IFNAME],
				name);
		if (ret < 0)
			return ret;
		d = netdev_by_name(name);
	} else {
		return -EINVAL;
	}
	if (!d)
		return -ENODEV;
	fill_link(&b, d, s->sk.net, 0, nlh->nlmsg_seq, s->portid, ext_mask);
	netlink_send_kernel(s, &b);
	return 0;
}

static void dump_links(struct nl_sock *s, const struct linux_nlmsghdr *nlh)
{
	bool strict = s->nlflags & NLF_STRICT_CHK, filtered = false;
	size_t plen = payload_len(nlh);
	struct linux_ifinfomsg ifi = { 0 };
	uint32_t ext_mask = 0;
	struct nlbuf b = { 0 };
	struct attrs at;
	int ret;

	if (strict) { /* rtnl_valid_dump_ifinfo_req */
		if (plen < sizeof(ifi))
			return dump_error(s, nlh, -EINVAL, false);
		memcpy(&ifi, payload(nlh), sizeof(ifi));
		if (ifi.pad || ifi.ifi_type || ifi.ifi_flags || ifi.ifi_change || ifi.ifi_index)
			return dump_error(s, nlh, -EINVAL, false);
		ret = parse_attrs(nlh, sizeof(ifi), true, &at);
		if (ret == 0 &&
		    attrs_beyond(&at, 1ULL << LINUX_IFLA_EXT_MASK | 1ULL << IFLA_MASTER |
					      1ULL << IFLA_LINKINFO | 1ULL << IFLA_TARGET_NETNSID))
			ret = -EINVAL;
		if (ret < 0)
			return dump_error(s, nlh, ret, false);
	} else if (parse_attrs(nlh, plen < sizeof(ifi) ? 1 : sizeof(ifi), false, &at) < 0) {
		memset(&at, 0, sizeof(at));
	}
	attr_u32(at.a[LINUX_IFLA_EXT_MASK], &ext_mask);
	/* a master or a kind asked for: the loopback has neither */
	if (at.a[IFLA_MASTER] || at.a[IFLA_LINKINFO])
		filtered = true;
	if (plen >= 1 && payload(nlh)[0] == LINUX_AF_INET6) {
		/* IPv6's own dump of links (inet6_dump_ifinfo) */
		for (int i = 1; netdev_by_index(i); i++)
			fill_link6(&b, netdev_by_index(i), s->sk.net, nlh->nlmsg_seq, s->portid);
		return dump_finish(s, nlh, &b, true, false);
	}
	for (int i = 1; !filtered && netdev_by_index(i); i++)
		fill_link(&b, netdev_by_index(i), s->sk.net, LINUX_NLM_F_MULTI, nlh->nlmsg_seq,
			  s->portid, ext_mask);
	dump_finish(s, nlh, &b, false, filtered);
}

/* --- RTM_GETADDR --- */

static void dump_addrs(struct nl_sock *s, const struct linux_nlmsghdr *nlh)
{
	bool strict = s->nlflags & NLF_STRICT_CHK, filtered = false;
	int family = payload(nlh)[0];
	bool v4 = family != LINUX_AF_INET6, v6 = family != LINUX_AF_INET;
	struct linux_ifaddrmsg ifa = { 0 };
	uint16_t flags = LINUX_NLM_F_MULTI;
	const struct netdev *only = NULL;
	struct nlbuf b = { 0 };
	struct attrs at;

	if (strict) { /* inet_valid_dump_ifaddr_req, and IPv6's */
		int ret = 0;

		if (payload_len(nlh) < sizeof(ifa))
			return dump_error(s, nlh, -EINVAL, false);
		memcpy(&ifa, payload(nlh), sizeof(ifa));
		if (ifa.ifa_prefixlen || ifa.ifa_flags || ifa.ifa_scope)
			return dump_error(s, nlh, -EINVAL, false);
		ret = parse_attrs(nlh, sizeof(ifa), true, &at);
		if (ret == 0 && attrs_beyond(&at, 1ULL << IFA_TARGET_NETNSID))
			ret = -EINVAL;
		if (ret < 0)
			return dump_error(s, nlh, ret, false);
		if (ifa.ifa_index) {
			filtered = true;
			flags |= LINUX_NLM_F_DUMP_FILTERED;
			only = netdev_by_index((int)ifa.ifa_index);
			if (!only)
				return dump_error(s, nlh, -ENODEV, true);
		}
	}
	for (int i = 1; v4 && netdev_by_index(i); i++)
		if ((!only || only == netdev_by_index(i)) &&
		    netdev_has_v4(netdev_by_index(i), s->sk.net))
			fill_addr(&b, LINUX_RTM_NEWADDR, netdev_by_index(i), false, flags,
				  nlh->nlmsg_seq, s->portid);
	for (int i = 1; v6 && netdev_by_index(i); i++)
		if ((!only || only == netdev_by_index(i)) &&
		    netdev_has_v6(netdev_by_index(i), s->sk.net))
			fill_addr(&b, LINUX_RTM_NEWADDR, netdev_by_index(i), true, flags,
				  nlh->nlmsg_seq, s->portid);
	dump_finish(s, nlh, &b, !v4, filtered);
}

/* --- RTM_GETROUTE --- */

static void dump_routes(struct nl_sock *s, const struct linux_nlmsghdr *nlh)
{
	bool strict = s->nlflags & NLF_STRICT_CHK, filter_set = false;
	int family = payload(nlh)[0];
	bool v4 = family != LINUX_AF_INET6, v6 = family != LINUX_AF_INET, none = false;
	struct linux_rtmsg rtm = { 0 };
	uint16_t flags = LINUX_NLM_F_MULTI;
	const struct netdev *oif = NULL;
	uint32_t table = 0;
	struct nlbuf b = { 0 };
	struct route r[4];
	struct attrs at;

	if (payload_len(nlh) >= sizeof(rtm))
		memcpy(&rtm, payload(nlh), sizeof(rtm));
	if (strict) { /* ip_valid_fib_dump_req */
		uint32_t v;
		int ret;

		if (payload_len(nlh) < sizeof(rtm))
			return dump_error(s, nlh, -EINVAL, false);
		if (rtm.rtm_dst_len || rtm.rtm_src_len || rtm.rtm_tos || rtm.rtm_scope ||
		    (rtm.rtm_flags & ~(LINUX_RTM_F_CLONED | RTM_F_PREFIX)))
			return dump_error(s, nlh, -EINVAL, false);
		ret = parse_attrs(nlh, sizeof(rtm), true, &at);
		if (ret == 0 && attrs_beyond(&at, 1ULL << LINUX_RTA_TABLE | 1ULL << LINUX_RTA_OIF))
			ret = -EINVAL;
		if (ret < 0)
			return dump_error(s, nlh, ret, false);
		table = rtm.rtm_table;
		if (attr_u32(at.a[LINUX_RTA_TABLE], &v))
			table = v;
		if (attr_u32(at.a[LINUX_RTA_OIF], &v)) {
			oif = netdev_by_index((int)v);
			if (!oif)
				return dump_error(s, nlh, -ENODEV, false);
		}
		filter_set = table || rtm.rtm_protocol || rtm.rtm_type || oif ||
			     (rtm.rtm_flags & LINUX_RTM_F_CLONED);
		/* every route of a strict dump says it was filtered */
		flags |= LINUX_NLM_F_DUMP_FILTERED;
		if ((table && table != LINUX_RT_TABLE_LOCAL) ||
		    (rtm.rtm_protocol && rtm.rtm_protocol != LINUX_RTPROT_KERNEL))
			none = true;
	}
	/* inet_dump_fib: IPv4's local table is made at lo's first up */
	if (strict && family == LINUX_AF_INET && table == LINUX_RT_TABLE_LOCAL &&
	    !s->sk.net->lo_has_v4)
		return dump_error(s, nlh, -ENOENT, false);
	/* RTM_F_CLONED asks for the cached exceptions, of which there are
	 * none; only a strict dump heeds it */
	if (strict && (rtm.rtm_flags & LINUX_RTM_F_CLONED))
		none = true;
	for (int i = 1; !none && netdev_by_index(i); i++) {
		int n = dev_routes(netdev_by_index(i), s->sk.net, r);

		for (int j = 0; j < n; j++) {
			if ((r[j].v6 ? !v6 : !v4) || (oif && r[j].dev != oif) ||
			    (strict && rtm.rtm_type && rtm.rtm_type != r[j].type))
				continue;
			fill_route(&b, LINUX_RTM_NEWROUTE, &r[j], flags, nlh->nlmsg_seq, s->portid);
		}
	}
	dump_finish(s, nlh, &b, !v4, filter_set);
}

/* RTM_GETROUTE of one destination (inet_rtm_getroute, inet6_rtm_getroute):
 * the loopback's own addresses route to it; IPv4's whole 127.0.0.0/8 and
 * 0.0.0.0 are local too; anything else is unreachable. */
static int getroute(struct nl_sock *s, const struct linux_nlmsghdr *nlh)
{
	static const uint8_t any[16];
	bool strict = s->nlflags & NLF_STRICT_CHK;
	const struct netdev *d = netdev_by_index(1);
	uint32_t cacheinfo[8] = { 2 }; /* rta_clntref: the route and the lookup */
	struct linux_rtmsg rtm, out = { 0 };
	uint8_t dst[16] = { 0 };
	struct nlbuf b = { 0 };
	struct attrs at;
	bool v6;
	size_t start, alen;
	int ret;

	if (payload_len(nlh) < sizeof(rtm))
		return -EINVAL;
	memcpy(&rtm, payload(nlh), sizeof(rtm));
	if (rtm.rtm_family != LINUX_AF_INET && rtm.rtm_family != LINUX_AF_INET6)
		return -EOPNOTSUPP; /* no family's doit: rtnetlink_rcv_msg */
	v6 = rtm.rtm_family == LINUX_AF_INET6;
	alen = v6 ? 16 : 4;
	ret = parse_attrs(nlh, sizeof(rtm), strict, &at);
	if (ret < 0)
		return ret;
	if (strict && ((rtm.rtm_src_len && rtm.rtm_src_len != alen * 8) ||
		       (rtm.rtm_dst_len && rtm.rtm_dst_len != alen * 8) || rtm.rtm_tos ||
		       rtm.rtm_table || rtm.rtm_protocol || rtm.rtm_scope || rtm.rtm_type))
		return -EINVAL; /* inet_rtm_valid_getroute_req */
	if (at.a[LINUX_RTA_DST]) {
		if (nla_payload(at.a[LINUX_RTA_DST]) < alen)
			return -EINVAL;
		memcpy(dst, at.a[LINUX_RTA_DST] + 1, alen);
	}
	if (v6 ? !s->sk.net->lo_up || memcmp(dst, d->v6, 16) != 0
	       : !s->sk.net->lo_has_v4 || !(dst[0] == 127 || !memcmp(dst, any, 4)))
		return -ENETUNREACH;
	out.rtm_family = rtm.rtm_family;
	out.rtm_dst_len = (uint8_t)(alen * 8);
	out.rtm_type = LINUX_RTN_LOCAL;
	if (v6) { /* rt6_fill_node of the local table's route */
		out.rtm_src_len = 128;
		out.rtm_table = LINUX_RT_TABLE_LOCAL;
		out.rtm_protocol = LINUX_RTPROT_KERNEL;
		start = nlmsg_begin(&b, LINUX_RTM_NEWROUTE, 0, nlh->nlmsg_seq, s->portid, &out,
				    sizeof(out));
		nla_put_u32(&b, LINUX_RTA_TABLE, LINUX_RT_TABLE_LOCAL);
		nla_put(&b, LINUX_RTA_DST, dst, 16);
		nla_put(&b, RTA_SRC, any, 16);
		nla_put(&b, LINUX_RTA_PREFSRC, d->v6, 16);
		nla_put_u32(&b, LINUX_RTA_PRIORITY, 0);
		nla_put_u32(&b, LINUX_RTA_OIF, (uint32_t)d->ifindex);
		nla_put(&b, LINUX_RTA_CACHEINFO, cacheinfo, sizeof(cacheinfo));
		nla_put_u8(&b, LINUX_RTA_PREF, 0);
	} else { /* rt_fill_info of a cached local route */
		/* the main table, even for RTM_F_LOOKUP_TABLE: a local
		 * destination's lookup names none */
		uint32_t table = LINUX_RT_TABLE_MAIN;
		const struct linux_nlattr *src = at.a[RTA_SRC];

		/* a source asked for must be one of ours, and is the
		 * route's source then (no RTA_PREFSRC) */
		if (src && nla_payload(src) < 4)
			return -EINVAL;
		if (src && ((const uint8_t *)(src + 1))[0] != 127)
			return -ENETUNREACH;
		out.rtm_table = (uint8_t)table;
		out.rtm_src_len = src ? 32 : 0;
		out.rtm_flags = RTCF_LOCAL | LINUX_RTM_F_CLONED;
		start = nlmsg_begin(&b, LINUX_RTM_NEWROUTE, 0, nlh->nlmsg_seq, s->portid, &out,
				    sizeof(out));
		nla_put_u32(&b, LINUX_RTA_TABLE, table);
		nla_put(&b, LINUX_RTA_DST, dst, 4);
		if (src)
			nla_put(&b, RTA_SRC, src + 1, 4);
		nla_put_u32(&b, LINUX_RTA_OIF, (uint32_t)d->ifindex);
		if (!src)
			nla_put(&b, LINUX_RTA_PREFSRC, d->v4, 4);
		nla_put_u32(&b, RTA_UID, current->proc->cred.uid);
		nla_put(&b, LINUX_RTA_CACHEINFO, cacheinfo, sizeof(cacheinfo));
	}
	nlmsg_end(&b, start);
	netlink_send_kernel(s, &b);
	return 0;
}

/* --- RTM_GETRULE: the policy routing rules a namespace starts with --- */

struct fib_rule_hdr {
	uint8_t family, dst_len, src_len, tos, table, res1, res2, action;
	uint32_t flags;
};

static void dump_rules(struct nl_sock *s, const struct linux_nlmsghdr *nlh)
{
	/* IPv4: local (preference 0), main (32766), default (32767); IPv6
	 * the first two */
	static const struct {
		uint8_t table;
		uint32_t pref;
	} rules[] = { { LINUX_RT_TABLE_LOCAL, 0 }, { LINUX_RT_TABLE_MAIN, 32766 }, { 253, 32767 } };
	bool strict = s->nlflags & NLF_STRICT_CHK;
	int family = payload(nlh)[0];
	struct fib_rule_hdr frh = { 0 };
	struct nlbuf b = { 0 };

	if (strict) { /* fib_valid_dumprule_req */
		struct attrs at;

		if (payload_len(nlh) < sizeof(frh))
			return dump_error(s, nlh, -EINVAL, false);
		memcpy(&frh, payload(nlh), sizeof(frh));
		if (frh.dst_len || frh.src_len || frh.tos || frh.table || frh.res1 || frh.res2 ||
		    frh.action || frh.flags || parse_attrs(nlh, sizeof(frh), true, &at) < 0 ||
		    attrs_beyond(&at, 0))
			return dump_error(s, nlh, -EINVAL, false);
	}
	for (int f = 0; f < 2; f++) {
		bool v6 = f == 1;

		if ((family == LINUX_AF_INET && v6) || (family == LINUX_AF_INET6 && !v6))
			continue;
		for (int i = 0; i < (v6 ? 2 : 3); i++) {
			struct fib_rule_hdr r = { 0 };
			size_t start;

			r.family = v6 ? LINUX_AF_INET6 : LINUX_AF_INET;
			r.table = rules[i].table;
			r.action = 1; /* FR_ACT_TO_TBL */
			start = nlmsg_begin(&b, LINUX_RTM_NEWRULE, LINUX_NLM_F_MULTI,
					    nlh->nlmsg_seq, s->portid, &r, sizeof(r));
			nla_put_u32(&b, FRA_TABLE, rules[i].table);
			nla_put_u32(&b, FRA_SUPPRESS_PREFIXLEN, 0xffffffff);
			nla_put_u8(&b, FRA_PROTOCOL, LINUX_RTPROT_KERNEL);
			if (rules[i].pref)
				nla_put_u32(&b, FRA_PRIORITY, rules[i].pref);
			nlmsg_end(&b, start);
		}
	}
	dump_finish(s, nlh, &b, true, false);
}

/* --- changes --- */

static int newlink(struct nl_sock *s, const struct linux_nlmsghdr *nlh)
{
	struct linux_ifinfomsg ifi;
	const struct netdev *d = NULL;
	struct attrs at;
	unsigned want, cur;
	int ret;

	if (payload_len(nlh) < sizeof(ifi))
		return -EINVAL;
	memcpy(&ifi, payload(nlh), sizeof(ifi));
	ret = parse_attrs(nlh, sizeof(ifi), s->nlflags & NLF_STRICT_CHK, &at);
	if (ret < 0)
		return ret;
	if (ifi.ifi_index > 0) {
		d = netdev_by_index(ifi.ifi_index);
	} else if (at.a[LINUX_IFLA_IFNAME]) {
		char name[LINUX_IFNAMSIZ];

		ret = attr_name(at.a[LINUX_IFLA_IFNAME], name);
		if (ret < 0)
			return ret;
		d = netdev_by_name(name);
	}
	/* only a request about an existing device that changes nothing:
	 * no attribute but its name, and flags it already has */
	if (!d || (nlh->nlmsg_flags & NLM_F_CREATE) ||
	    attrs_beyond(&at, 1ULL << LINUX_IFLA_IFNAME | 1ULL << LINUX_IFLA_EXT_MASK))
		return -EOPNOTSUPP;
	cur = netdev_flags(d, s->sk.net);
	want = ifi.ifi_change ? (ifi.ifi_flags & ifi.ifi_change) | (cur & ~ifi.ifi_change)
			      : ifi.ifi_flags;
	if (!ifi.ifi_flags && !ifi.ifi_change)
		want = cur;
	return netdev_change_flags(d, s->sk.net, want);
}

/* RTM_NEWADDR (inet_rtm_newaddr): lo's own 127.0.0.1/8, which bwrap and
 * the like give a new namespace's lo before they bring it up; EEXIST once
 * it has it (but with NLM_F_REPLACE alone). Any other address, and IPv6's
 * (::1 comes with up), is EOPNOTSUPP. */
static int newaddr(struct nl_sock *s, const struct linux_nlmsghdr *nlh)
{
	struct linux_ifaddrmsg ifa;
	const struct linux_nlattr *local, *addr;
	const struct netdev *d;
	struct attrs at;
	int ret;

	if (payload_len(nlh) < sizeof(ifa))
		return -EINVAL;
	memcpy(&ifa, payload(nlh), sizeof(ifa));
	ret = parse_attrs(nlh, sizeof(ifa), s->nlflags & NLF_STRICT_CHK, &at);
	if (ret < 0)
		return ret;
	if (ifa.ifa_family != LINUX_AF_INET)
		return -EOPNOTSUPP;
	local = at.a[LINUX_IFA_LOCAL];
	addr = at.a[LINUX_IFA_ADDRESS] ? at.a[LINUX_IFA_ADDRESS] : local;
	/* ifa_ipv4_policy: NLA_U32s */
	if ((local && nla_payload(local) < 4) || (addr && nla_payload(addr) < 4))
		return -ERANGE;
	if (ifa.ifa_prefixlen > 32 || !local)
		return -EINVAL; /* inet_rtm_to_ifa */
	d = netdev_by_index((int)ifa.ifa_index);
	if (!d)
		return -ENODEV;
	if (ifa.ifa_prefixlen != d->v4_prefix || memcmp(addr + 1, local + 1, 4) != 0)
		return -EOPNOTSUPP;
	ret = netdev_add_v4(d, s->sk.net, (const uint8_t *)(local + 1));
	if (ret == -EEXIST && (nlh->nlmsg_flags & NLM_F_REPLACE) &&
	    !(nlh->nlmsg_flags & NLM_F_EXCL))
		return 0;
	return ret;
}

/* --- notifications --- */

/* One message to the sockets of net in group, as a datagram of its own. */
static void notify(const struct net_ns *net, uint32_t group, struct nlbuf *b)
{
	netlink_multicast_kernel(net, LINUX_NETLINK_ROUTE, group, b);
}

static void notify_addr(struct net_ns *net, const struct netdev *d, bool v6, uint16_t type)
{
	struct nlbuf b = { 0 };

	fill_addr(&b, type, d, v6, 0, 0, 0);
	notify(net, v6 ? RTNLGRP_IPV6_IFADDR : RTNLGRP_IPV4_IFADDR, &b);
}

/* Route i of up_routes'. */
static void notify_route(struct net_ns *net, const struct netdev *d, int i, uint16_t type)
{
	struct route r[4];
	struct nlbuf b = { 0 };

	up_routes(d, r);
	fill_route(&b, type, &r[i], 0, 0, 0);
	notify(net, r[i].v6 ? RTNLGRP_IPV6_ROUTE : RTNLGRP_IPV4_ROUTE, &b);
}

void rtnl_lo_notify(struct net_ns *net, const struct netdev *d, enum lo_change what)
{
	struct nlbuf b = { 0 };

	/* Linux's order, as `ip monitor` shows it in a new namespace */
	if (what != LO_ADDR) {
		fill_link(&b, d, net, 0, 0, 0, 0);
		notify(net, RTNLGRP_LINK, &b);
	}
	if (what == LO_ADDR || what == LO_FIRST_UP_NEW_ADDR) {
		notify_addr(net, d, false, LINUX_RTM_NEWADDR);
		notify_route(net, d, 1, LINUX_RTM_NEWROUTE); /* 127.0.0.1/32 */
	}
	if (what == LO_FIRST_UP || what == LO_FIRST_UP_NEW_ADDR)
		notify_route(net, d, 0, LINUX_RTM_NEWROUTE); /* 127.0.0.0/8 */
	if (what == LO_UP || what == LO_FIRST_UP || what == LO_FIRST_UP_NEW_ADDR) {
		notify_route(net, d, 2, LINUX_RTM_NEWROUTE); /* the broadcast */
		notify_addr(net, d, true, LINUX_RTM_NEWADDR);
		notify_route(net, d, 3, LINUX_RTM_NEWROUTE); /* ::1 */
	}
	if (what == LO_DOWN) {
		notify_route(net, d, 3, RTM_DELROUTE);
		notify_addr(net, d, true, RTM_DELADDR);
	}
}

/* One request (rtnetlink_rcv_msg): 0, DUMPED or -errno. */
static int rtnl_msg(struct nl_sock *s, const struct linux_nlmsghdr *nlh, size_t rest,
		    const void *arg)
{
	int type = nlh->nlmsg_type;
	bool dump = nlh->nlmsg_flags & LINUX_NLM_F_DUMP;

	(void)rest;
	(void)arg;
	if (type > LINUX_RTM_MAX)
		return -EOPNOTSUPP;
	if (payload_len(nlh) < sizeof(struct linux_rtgenmsg))
		return 0;			  /* "all the messages must have at least 1 byte" */
	if (((type - LINUX_RTM_BASE) & 3) != 2) { /* NEW, DEL, SET */
		if (!net_capable(s->sk.net, CAP_NET_ADMIN))
			return -EPERM;
		if (type == LINUX_RTM_NEWADDR)
			return newaddr(s, nlh);
		return type == LINUX_RTM_NEWLINK ? newlink(s, nlh) : -EOPNOTSUPP;
	}
	if (!dump) {
		if (type == LINUX_RTM_GETROUTE)
			return getroute(s, nlh);
		return type == LINUX_RTM_GETLINK ? getlink(s, nlh) : -EOPNOTSUPP;
	}
	switch (type) {
	case LINUX_RTM_GETLINK:
		dump_links(s, nlh);
		return DUMPED;
	case LINUX_RTM_GETADDR:
		dump_addrs(s, nlh);
		return DUMPED;
	case LINUX_RTM_GETROUTE:
		dump_routes(s, nlh);
		return DUMPED;
	case LINUX_RTM_GETRULE:
		dump_rules(s, nlh);
		return DUMPED;
	case LINUX_RTM_GETNEIGH: { /* a loopback has no neighbours */
		struct nlbuf b = { 0 };

		dump_finish(s, nlh, &b, true, false);
		return DUMPED;
	}
	default:
		return -EOPNOTSUPP;
	}
}

void rtnetlink_rcv(struct nl_sock *s, const uint8_t *data, size_t len)
{
	netlink_rcv_skb(s, data, len, rtnl_msg, NULL);
}
