/* net/mcast.c: IPv4 multicast on the loopback, as Linux gives it in a
 * network namespace with only `lo` up. lo has no multicast route, so a
 * group is joined on lo by naming it (IP_ADD_MEMBERSHIP with a loopback
 * address or ifindex 1; INADDR_ANY asks the route: ENODEV), and a
 * datagram to a group leaves only through a device IP_MULTICAST_IF named
 * (else ENETUNREACH); it then comes back in on lo, whatever
 * IP_MULTICAST_LOOP says, if some socket of the namespace joined the
 * group there, to every socket of its port that takes it (udp.c): one that
 * joined it, or any while IP_MULTICAST_ALL is on (ip_mc_sf_allow).
 * The options are do_ip_setsockopt's and ip_mc_join_group's, with their
 * errnos and the igmp_max_memberships of 20 per socket. IPv6 groups are
 * joined on lo too (ipv6_sock_mc_join), but no datagram leaves for one:
 * lo has no IPv6 multicast route (ENETUNREACH, as Linux, even with
 * IPV6_MULTICAST_IF). Differs from Linux: no source filters
 * (IP_ADD_SOURCE_MEMBERSHIP, IP_MSFILTER, MCAST_JOIN_SOURCE_GROUP:
 * ENOPROTOOPT), and no /proc/net/igmp or igmp6. */
#include <stdlib.h>
#include <string.h>

#include "net/inet.h"
#include "net/netns.h"
#include "abi/linux/errno.h"

#define IP_MULTICAST_IF	     32
#define IP_ADD_MEMBERSHIP    35
#define IP_DROP_MEMBERSHIP   36
#define MCAST_JOIN_GROUP     42
#define MCAST_LEAVE_GROUP    45
#define IP_MULTICAST_ALL     49
#define IGMP_MAX_MEMBERS     20 /* net.ipv4.igmp_max_memberships */
#define IPV6_MULTICAST_IF    17
#define IPV6_ADD_MEMBERSHIP  20
#define IPV6_DROP_MEMBERSHIP 21
#define IPV6_MULTICAST_ALL   29
/* What optmem_max (128 KiB) holds of ipv6_mc_socklist: past it, ENOMEM */
#define MLD_MAX_MEMBERS 1024
#define LO_IFINDEX	1

/* Groups joined on lo, per network namespace, with how many sockets
 * joined each (the device's membership list, ip_mc_inc_group). */
struct mc_dev_group {
	const struct net_ns *net;
	uint32_t group;
	int refs;
};
static struct mc_dev_group *dev_groups;
static size_t n_dev_groups;

static bool is_multicast(uint32_t a)
{
	return (a >> 28) == 0xe;
}

bool inet_mc_is_group(const uint8_t addr[16])
{
	return inet_is_v4(addr) && is_multicast(inet_v4_of(addr));
}

static struct mc_dev_group *dev_group(const struct net_ns *net, uint32_t group)
{
	size_t i;

	for (i = 0; i < n_dev_groups; i++)
		if (dev_groups[i].net == net && dev_groups[i].group == group)
			return &dev_groups[i];
	return NULL;
}

static int dev_group_get(const struct net_ns *net, uint32_t group)
{
	struct mc_dev_group *g = dev_group(net, group), *n;

	if (g) {
		g->refs++;
		return 0;
	}
	n = realloc(dev_groups, (n_dev_groups + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	dev_groups = n;
	dev_groups[n_dev_groups++] = (struct mc_dev_group){ net, group, 1 };
	return 0;
}

static void dev_group_put(const struct net_ns *net, uint32_t group)
{
	struct mc_dev_group *g = dev_group(net, group);

	if (g && --g->refs == 0)
		*g = dev_groups[--n_dev_groups];
}

bool inet_mc_joined(const struct net_ns *net, const uint8_t group[16])
{
	return dev_group(net, inet_v4_of(group)) != NULL;
}

bool inet_mc_takes(const struct inet_sock *in, const uint8_t group[16])
{
	uint32_t g = inet_v4_of(group);
	int i;

	for (i = 0; i < in->mc_count; i++)
		if (in->mc_groups[i] == g)
			return true;
	return !in->mc_all_off;
}

/* ip_mc_find_dev: the device an ip_mreqn names, by index, else by a local
 * address, else (neither) by the route to the group, which a namespace
 * with only lo lacks. true: lo. */
static bool find_dev(uint32_t addr, int ifindex)
{
	if (ifindex)
		return ifindex == LO_IFINDEX;
	return addr && (addr >> 24) == 127;
}

/* The ip_mreqn in val (an ip_mreq's fields, or a bare in_addr's for
 * IP_MULTICAST_IF): group, interface address and index, in host order. */
struct mreqn {
	uint32_t group, addr;
	int ifindex;
};

static int get_mreqn(const void *val, unsigned len, unsigned least, struct mreqn *r)
{
	uint32_t w[3] = { 0, 0, 0 };

	if (len < least)
		return -EINVAL;
	memcpy(w, val, len >= 12 ? 12 : len >= 8 ? 8 : 4);
	r->group = __builtin_bswap32(w[0]);
	r->addr = __builtin_bswap32(w[1]);
	r->ifindex = len >= 12 ? (int)w[2] : 0;
	return 0;
}

static int join(struct inet_sock *in, const struct mreqn *r)
{
	uint32_t *n;
	int i, ret;

	if (!is_multicast(r->group))
		return -EINVAL;
	if (!find_dev(r->addr, r->ifindex))
		return -ENODEV;
	for (i = 0; i < in->mc_count; i++)
		if (in->mc_groups[i] == r->group)
			return -EADDRINUSE;
	if (in->mc_count >= IGMP_MAX_MEMBERS)
		return -ENOBUFS;
	n = realloc(in->mc_groups, (size_t)(in->mc_count + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	in->mc_groups = n;
	ret = dev_group_get(in->u.sk.net, r->group);
	if (ret < 0)
		return ret;
	in->mc_groups[in->mc_count++] = r->group;
	return 0;
}

/* ip_mc_leave_group: no device and none named is ENODEV; a group not
 * joined (on lo) EADDRNOTAVAIL. */
static int leave(struct inet_sock *in, const struct mreqn *r)
{
	int i;

	if (!find_dev(r->addr, r->ifindex) && !r->addr && !r->ifindex)
		return -ENODEV;
	for (i = 0; i < in->mc_count; i++) {
		if (in->mc_groups[i] != r->group)
			continue;
		if ((r->ifindex && r->ifindex != LO_IFINDEX) ||
		    (!r->ifindex && r->addr && (r->addr >> 24) != 127))
			break;
		in->mc_groups[i] = in->mc_groups[--in->mc_count];
		dev_group_put(in->u.sk.net, r->group);
		return 0;
	}
	return -EADDRNOTAVAIL;
}

/* struct group_req: the interface index, then a sockaddr_storage (at 8)
 * whose family must be AF_INET here. */
#define GROUP_REQ_SIZE 136

static int group_req(const void *val, unsigned len, struct mreqn *r)
{
	const uint8_t *p = val;
	uint16_t family;
	uint32_t ifindex, group;

	if (len < GROUP_REQ_SIZE)
		return -EINVAL;
	memcpy(&ifindex, p, 4);
	memcpy(&family, p + 8, 2);
	if (family != LINUX_AF_INET)
		return -EINVAL;
	memcpy(&group, p + 12, 4);
	r->group = __builtin_bswap32(group);
	r->addr = 0;
	r->ifindex = (int)ifindex;
	return 0;
}

int inet_mc_setsockopt(struct inet_sock *in, int name, const void *val, unsigned len)
{
	struct mreqn r;
	int ret, v;

	switch (name) {
	case IP_MULTICAST_IF:
		if (in->u.sk.type == LINUX_SOCK_STREAM)
			return -EINVAL;
		ret = get_mreqn(val, len, 4, &r);
		if (ret < 0)
			return ret;
		if (len < 8)
			r.addr = r.group; /* a bare in_addr: the interface's */
		if (!r.ifindex && !r.addr) {
			in->mc_addr = 0;
			in->mc_index = 0;
			return 0;
		}
		if (!find_dev(r.addr, r.ifindex))
			return -EADDRNOTAVAIL;
		in->mc_index = LO_IFINDEX;
		in->mc_addr = r.addr;
		return 0;
	case IP_ADD_MEMBERSHIP:
	case IP_DROP_MEMBERSHIP:
	case MCAST_JOIN_GROUP:
	case MCAST_LEAVE_GROUP:
		/* TCP: EPROTO for the ip_mreq forms (is_icsk); the group_req
		 * ones have no such check */
		if (in->u.sk.type == LINUX_SOCK_STREAM &&
		    (name == IP_ADD_MEMBERSHIP || name == IP_DROP_MEMBERSHIP))
			return -EPROTO;
		ret = name == MCAST_JOIN_GROUP || name == MCAST_LEAVE_GROUP
			      ? group_req(val, len, &r)
			      : get_mreqn(val, len, 8, &r);
		if (ret < 0)
			return ret;
		return name == IP_ADD_MEMBERSHIP || name == MCAST_JOIN_GROUP ? join(in, &r)
									     : leave(in, &r);
	case IP_MULTICAST_ALL:
		if (len < 1)
			return -EINVAL;
		v = 0;
		memcpy(&v, val, len >= 4 ? 4 : 1);
		if (v != 0 && v != 1)
			return -EINVAL;
		in->mc_all_off = v == 0;
		return 0;
	default:
		return -ENOPROTOOPT;
	}
}

int inet_mc_getsockopt(struct inet_sock *in, int name, int *v)
{
	switch (name) {
	case IP_MULTICAST_IF: /* an in_addr: the caller gives at most 4 bytes */
		*v = (int)__builtin_bswap32(in->mc_addr);
		return 0;
	case IP_MULTICAST_ALL:
		*v = !in->mc_all_off;
		return 0;
	default:
		return -ENOPROTOOPT;
	}
}

bool inet_mc_routed(const struct inet_sock *in)
{
	return in->mc_index != 0;
}

/* ipv6_sock_mc_join: a multicast address (ff00::/8), not joined yet on
 * that index (0 stands for any), then the device: the index's, or for 0
 * the route's, which lo lacks. */
static int join6(struct inet_sock *in, int ifindex, const uint8_t group[16])
{
	uint8_t(*n)[16];
	int i;

	if (group[0] != 0xff)
		return -EINVAL;
	for (i = 0; i < in->mc6_count; i++)
		if (!memcmp(in->mc6_groups[i], group, 16))
			return -EADDRINUSE; /* every group here is lo's */
	if (ifindex != LO_IFINDEX)
		return -ENODEV;
	if (in->mc6_count >= MLD_MAX_MEMBERS)
		return -ENOMEM;
	n = realloc(in->mc6_groups, (size_t)(in->mc6_count + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	in->mc6_groups = n;
	memcpy(in->mc6_groups[in->mc6_count++], group, 16);
	return 0;
}

static int leave6(struct inet_sock *in, int ifindex, const uint8_t group[16])
{
	int i;

	if (group[0] != 0xff)
		return -EINVAL;
	for (i = 0; i < in->mc6_count; i++) {
		if (memcmp(in->mc6_groups[i], group, 16) || (ifindex && ifindex != LO_IFINDEX))
			continue;
		memcpy(in->mc6_groups[i], in->mc6_groups[--in->mc6_count], 16);
		return 0;
	}
	return -EADDRNOTAVAIL;
}

int inet_mc6_setsockopt(struct inet_sock *in, int name, const void *val, unsigned len)
{
	const uint8_t *p = val;
	uint16_t family;
	int v = 0;

	switch (name) {
	case IPV6_MULTICAST_IF:
		if (in->u.sk.type == LINUX_SOCK_STREAM)
			return -ENOPROTOOPT;
		if (len < 4)
			return -EINVAL;
		memcpy(&v, val, 4);
		if (v && v != LO_IFINDEX)
			return -ENODEV;
		in->mc6_index = v;
		return 0;
	case IPV6_ADD_MEMBERSHIP:
	case IPV6_DROP_MEMBERSHIP:
		if (len < 20)
			return -EINVAL;
		if (in->u.sk.type == LINUX_SOCK_STREAM)
			return -EPROTO;
		memcpy(&v, p + 16, 4);
		return name == IPV6_ADD_MEMBERSHIP ? join6(in, v, p) : leave6(in, v, p);
	case MCAST_JOIN_GROUP:
	case MCAST_LEAVE_GROUP:
		if (len < GROUP_REQ_SIZE)
			return -EINVAL;
		memcpy(&family, p + 8, 2);
		if (family != LINUX_AF_INET6)
			return -EADDRNOTAVAIL;
		memcpy(&v, p, 4); /* gr_interface; the address at sin6_addr */
		return name == MCAST_JOIN_GROUP ? join6(in, v, p + 16) : leave6(in, v, p + 16);
	case IPV6_MULTICAST_ALL:
		if (len < 4)
			return -EINVAL;
		memcpy(&v, val, 4);
		in->mc6_all_off = v == 0;
		return 0;
	default:
		return -ENOPROTOOPT;
	}
}

int inet_mc6_getsockopt(struct inet_sock *in, int name, int *v)
{
	switch (name) {
	case IPV6_MULTICAST_IF:
		*v = in->mc6_index;
		return 0;
	case IPV6_MULTICAST_ALL:
		*v = !in->mc6_all_off;
		return 0;
	default:
		return -ENOPROTOOPT;
	}
}

void inet_mc_release(struct inet_sock *in)
{
	int i;

	for (i = 0; i < in->mc_count; i++)
		dev_group_put(in->u.sk.net, in->mc_groups[i]);
	free(in->mc_groups);
	in->mc_groups = NULL;
	in->mc_count = 0;
	free(in->mc6_groups);
	in->mc6_groups = NULL;
	in->mc6_count = 0;
}
