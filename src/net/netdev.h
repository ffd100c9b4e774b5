/* net/netdev.h: the network devices a guest sees. Each network namespace
 * (net/netns.h) has one, the loopback: up in the initial namespace, as
 * after `unshare --net` and `ip link set lo up`; down in a new one until
 * it is brought up. Being up or down is all that can change about it.
 * rtnetlink, the SIOCGIF* ioctls and /proc/net describe it from here. */
#ifndef NET_NETDEV_H
#define NET_NETDEV_H

#include <stdbool.h>
#include <stdint.h>

#include "abi/linux/netlink.h"

struct task;
struct net_ns;

struct netdev {
	const char *name;
	int ifindex;
	unsigned flags; /* IFF_*, as RTM_NEWLINK reports them */
	uint16_t type;	/* ARPHRD_* */
	uint32_t mtu, txqlen;
	uint8_t v4[4];	/* its IPv4 address (network order)... */
	int v4_prefix;	/* ...and prefix */
	uint8_t v6[16]; /* its IPv6 address... */
	int v6_prefix;
};

/* The IFF_* flags a caller may set (dev_change_flags): UP, DEBUG,
 * NOTRAILERS, NOARP, PROMISC, ALLMULTI, MULTICAST, PORTSEL, AUTOMEDIA and
 * DYNAMIC; the others are the device's to say. */
#define NETDEV_FLAGS_CHANGEABLE 0xf3a5u

/* The devices are indexed from 1 with no gap: NULL past the last. */
const struct netdev *netdev_by_index(int ifindex);
const struct netdev *netdev_by_name(const char *name);
/* d's IFF_* flags in net: without UP, RUNNING and LOWER_UP while down. */
unsigned netdev_flags(const struct netdev *d, const struct net_ns *net);
/* Whether d has its IPv4 address in net (given at its first up, kept
 * after) and its IPv6 one (only while up). */
bool netdev_has_v4(const struct netdev *d, const struct net_ns *net);
bool netdev_has_v6(const struct netdev *d, const struct net_ns *net);
/* A change of d's flags to want by a caller with CAP_NET_ADMIN
 * (dev_change_flags): IFF_UP sets it up or down; 0, or -EOPNOTSUPP for a
 * change of any other flag. */
int netdev_change_flags(const struct netdev *d, struct net_ns *net, unsigned want);
/* What changed about lo, for rtnetlink's notifications (rtnl_lo_notify):
 * its address (before any up), up again, up the first time (and given
 * its address by that), down. */
enum lo_change { LO_ADDR, LO_UP, LO_FIRST_UP, LO_FIRST_UP_NEW_ADDR, LO_DOWN };
void rtnl_lo_notify(struct net_ns *net, const struct netdev *d, enum lo_change what);
/* Gives d its IPv4 address addr (network order) in net: 0, -EEXIST if it
 * has it, -EOPNOTSUPP for another address (only lo's own can be). */
int netdev_add_v4(const struct netdev *d, struct net_ns *net, const uint8_t addr[4]);

/* Whether cmd is one of the interface ioctls every socket takes; then
 * netdev_ioctl does it, for a socket of the given family (the address
 * ones are AF_INET's, as Linux's inet_ioctl). */
bool netdev_is_ioctl(unsigned cmd);
long netdev_ioctl(struct task *t, struct net_ns *net, int family, unsigned cmd, uint64_t arg);

#endif
