/* net/netdev.c: the guest's network devices (the loopback only) and the
 * interface ioctls that read them, as Linux's dev_ioctl, dev_ifconf and
 * devinet_ioctl answer on any socket.
 * Differs from Linux: nothing can be changed but whether lo is up. A
 * setter (SIOCSIF*) needs CAP_NET_ADMIN as on Linux (EPERM); with it,
 * `ifconfig lo up` and `ifconfig lo down` work, one that would change
 * nothing succeeds (the same MTU) and any other is EOPNOTSUPP: the
 * operation is not supported here, which a program can tell from a
 * permission it lacks. */
#include <string.h>

#include "net/netdev.h"
#include "net/netns.h"
#include "net/hostinet.h"
#include "kernel/task.h"
#include "kernel/cred.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/socket.h"

#define CAP_NET_ADMIN 12

static const struct netdev devs[] = {
	{
		.name = "lo",
		.ifindex = 1,
		.flags = LINUX_IFF_UP | LINUX_IFF_LOOPBACK | LINUX_IFF_RUNNING | LINUX_IFF_LOWER_UP,
		.type = LINUX_ARPHRD_LOOPBACK,
		.mtu = 65536,
		.txqlen = 1000,
		.v4 = { 127, 0, 0, 1 },
		.v4_prefix = 8,
		.v6 = { [15] = 1 },
		.v6_prefix = 128,
	},
};

#define NDEVS ((int)(sizeof(devs) / sizeof(devs[0])))

const struct netdev *netdev_by_index(int ifindex)
{
	return ifindex >= 1 && ifindex <= NDEVS ? &devs[ifindex - 1] : NULL;
}

const struct netdev *netdev_by_name(const char *name)
{
	for (int i = 0; i < NDEVS; i++)
		if (strcmp(devs[i].name, name) == 0)
			return &devs[i];
	return NULL;
}

#define IFF_UP_STATE (LINUX_IFF_UP | LINUX_IFF_RUNNING | LINUX_IFF_LOWER_UP)

unsigned netdev_flags(const struct netdev *d, const struct net_ns *net)
{
	return net->lo_up ? d->flags : d->flags & ~IFF_UP_STATE;
}

bool netdev_has_v4(const struct netdev *d, const struct net_ns *net)
{
	(void)d;
	return net->lo_has_v4;
}

bool netdev_has_v6(const struct netdev *d, const struct net_ns *net)
{
	(void)d;
	return net->lo_up;
}

/* Under --net=host the initial namespace's TCP and UDP are the host's,
 * which its lo does not carry: it stays as it is. */
static bool fixed(const struct net_ns *net)
{
	return net == &init_net && hostinet_enabled();
}

int netdev_change_flags(const struct netdev *d, struct net_ns *net, unsigned want)
{
	unsigned change = (want ^ netdev_flags(d, net)) & NETDEV_FLAGS_CHANGEABLE;

	if ((change & ~(unsigned)LINUX_IFF_UP) || (change && fixed(net)))
		return -EOPNOTSUPP;
	if (change) {
		enum lo_change what = !(want & LINUX_IFF_UP) ? LO_DOWN
				      : net->lo_was_up	     ? LO_UP
				      : net->lo_has_v4	     ? LO_FIRST_UP
							     : LO_FIRST_UP_NEW_ADDR;

		net->lo_up = want & LINUX_IFF_UP;
		net->lo_was_up |= net->lo_up;
		/* inetdev_event's NETDEV_UP of a loopback: 127.0.0.1/8 */
		net->lo_has_v4 |= net->lo_up;
		rtnl_lo_notify(net, d, what);
	}
	return 0;
}

int netdev_add_v4(const struct netdev *d, struct net_ns *net, const uint8_t addr[4])
{
	if (memcmp(addr, d->v4, 4) != 0)
		return -EOPNOTSUPP;
	if (netdev_has_v4(d, net))
		return -EEXIST;
	net->lo_has_v4 = true;
	rtnl_lo_notify(net, d, LO_ADDR);
	return 0;
}

bool netdev_is_ioctl(unsigned cmd)
{
	switch (cmd) {
	case LINUX_SIOCGIFNAME:
	case LINUX_SIOCGIFCONF:
	case LINUX_SIOCGIFFLAGS:
	case LINUX_SIOCSIFFLAGS:
	case LINUX_SIOCGIFADDR:
	case LINUX_SIOCSIFADDR:
	case LINUX_SIOCGIFDSTADDR:
	case LINUX_SIOCSIFDSTADDR:
	case LINUX_SIOCGIFBRDADDR:
	case LINUX_SIOCSIFBRDADDR:
	case LINUX_SIOCGIFNETMASK:
	case LINUX_SIOCSIFNETMASK:
	case LINUX_SIOCGIFMETRIC:
	case LINUX_SIOCSIFMETRIC:
	case LINUX_SIOCGIFMTU:
	case LINUX_SIOCSIFMTU:
	case LINUX_SIOCSIFNAME:
	case LINUX_SIOCSIFHWADDR:
	case LINUX_SIOCGIFHWADDR:
	case LINUX_SIOCGIFINDEX:
	case LINUX_SIOCGIFTXQLEN:
	case LINUX_SIOCSIFTXQLEN:
	case LINUX_SIOCGIFMAP:
	case LINUX_SIOCSIFMAP:
		return true;
	default:
		return false;
	}
}

/* The IPv4 address ioctls, AF_INET's alone (devinet_ioctl). */
static bool inet_only(unsigned cmd)
{
	switch (cmd) {
	case LINUX_SIOCGIFADDR:
	case LINUX_SIOCSIFADDR:
	case LINUX_SIOCGIFDSTADDR:
	case LINUX_SIOCSIFDSTADDR:
	case LINUX_SIOCGIFBRDADDR:
	case LINUX_SIOCSIFBRDADDR:
	case LINUX_SIOCGIFNETMASK:
	case LINUX_SIOCSIFNETMASK:
		return true;
	default:
		return false;
	}
}

/* Each getter writes only its field: the rest of the guest's ifreq comes
 * back as it was (the copy out is of the whole struct, as Linux's). */
static void put_sin(struct linux_ifreq *ifr, const uint8_t a[4])
{
	memset(&ifr->u, 0, 16); /* a struct sockaddr_in */
	ifr->u.addr.sa_family = LINUX_AF_INET;
	memcpy(ifr->u.addr.sa_data + 2, a, 4); /* sin_port stays 0 */
}

static void prefix_mask(int prefix, uint8_t m[4])
{
	uint32_t v = prefix ? ~0U << (32 - prefix) : 0;

	m[0] = (uint8_t)(v >> 24);
	m[1] = (uint8_t)(v >> 16);
	m[2] = (uint8_t)(v >> 8);
	m[3] = (uint8_t)v;
}

/* SIOCGIFCONF: an ifreq per IPv4 address, as many as fit whole; a NULL
 * buffer asks for the size (dev_ifconf, inet_gifconf). */
static long ifconf(struct task *t, const struct net_ns *net, uint64_t arg)
{
	struct linux_ifconf ifc;
	int done = 0;

	if (copy_from_user(t->mm, &ifc, arg, sizeof(ifc)) < 0)
		return -EFAULT;
	for (int i = 0; i < NDEVS; i++) {
		struct linux_ifreq ifr;

		if (!netdev_has_v4(&devs[i], net))
			continue;
		if (!ifc.ifc_buf) {
			done += sizeof(ifr);
			continue;
		}
		if (ifc.ifc_len - done < (int)sizeof(ifr))
			break;
		memset(&ifr, 0, sizeof(ifr));
		strncpy(ifr.ifr_name, devs[i].name, sizeof(ifr.ifr_name) - 1);
		put_sin(&ifr, devs[i].v4);
		if (copy_to_user(t->mm, ifc.ifc_buf + (uint64_t)done, &ifr, sizeof(ifr)) < 0)
			return -EFAULT;
		done += sizeof(ifr);
	}
	ifc.ifc_len = done;
	return copy_to_user(t->mm, arg, &ifc, sizeof(ifc)) < 0 ? -EFAULT : 0;
}

/* A setter that has CAP_NET_ADMIN: 0 when it changes nothing (or only
 * whether the device is up, or gives lo its own address). */
static long set_same(const struct netdev *d, struct net_ns *net, unsigned cmd,
		     const struct linux_ifreq *ifr)
{
	int ret;

	switch (cmd) {
	case LINUX_SIOCSIFFLAGS:
		/* the short, sign-extended as dev_ifsioc does */
		return netdev_change_flags(d, net, (unsigned)(int)ifr->u.flags);
	case LINUX_SIOCSIFADDR:
		/* devinet_ioctl: the address it has already is no change;
		 * busybox's `ifconfig lo 127.0.0.1 up` sets it first */
		if (ifr->u.addr.sa_family != LINUX_AF_INET)
			return -EINVAL;
		ret = netdev_add_v4(d, net, (const uint8_t *)ifr->u.addr.sa_data + 2);
		return ret == -EEXIST ? 0 : ret;
	case LINUX_SIOCSIFMTU:
		if (ifr->u.ivalue == (int32_t)d->mtu)
			return 0;
		break;
	case LINUX_SIOCSIFTXQLEN:
		if (ifr->u.ivalue == (int32_t)d->txqlen)
			return 0;
		break;
	}
	return -EOPNOTSUPP;
}

long netdev_ioctl(struct task *t, struct net_ns *net, int family, unsigned cmd, uint64_t arg)
{
	struct linux_ifreq ifr;
	const struct netdev *d;
	uint8_t mask[4];

	if (cmd == LINUX_SIOCGIFCONF)
		return ifconf(t, net, arg);
	if (inet_only(cmd) && family != LINUX_AF_INET)
		return -ENOTTY;
	if (copy_from_user(t->mm, &ifr, arg, sizeof(ifr)) < 0)
		return -EFAULT;
	if (cmd == LINUX_SIOCGIFNAME) {
		d = netdev_by_index(ifr.u.ivalue);
		if (!d)
			return -ENODEV;
		strcpy(ifr.ifr_name, d->name);
		goto out;
	}
	ifr.ifr_name[LINUX_IFNAMSIZ - 1] = 0;
	switch (cmd) {
	case LINUX_SIOCSIFFLAGS:
	case LINUX_SIOCSIFADDR:
	case LINUX_SIOCSIFDSTADDR:
	case LINUX_SIOCSIFBRDADDR:
	case LINUX_SIOCSIFNETMASK:
	case LINUX_SIOCSIFMETRIC:
	case LINUX_SIOCSIFMTU:
	case LINUX_SIOCSIFNAME:
	case LINUX_SIOCSIFHWADDR:
	case LINUX_SIOCSIFTXQLEN:
	case LINUX_SIOCSIFMAP:
		if (!net_capable(net, CAP_NET_ADMIN))
			return -EPERM;
		break;
	}
	d = netdev_by_name(ifr.ifr_name);
	if (!d)
		return -ENODEV;
	/* devinet_ioctl: no IPv4 address on the device (SIOCSIFADDR would
	 * give it one) */
	if (inet_only(cmd) && cmd != LINUX_SIOCSIFADDR && !netdev_has_v4(d, net))
		return -EADDRNOTAVAIL;
	switch (cmd) {
	case LINUX_SIOCGIFFLAGS:
		ifr.u.flags = (int16_t)(netdev_flags(d, net) & 0xffff);
		break;
	case LINUX_SIOCGIFADDR:
	case LINUX_SIOCGIFDSTADDR: /* not point-to-point: the local address */
		put_sin(&ifr, d->v4);
		break;
	case LINUX_SIOCGIFBRDADDR: /* a loopback has none: 0.0.0.0 */
		put_sin(&ifr, (const uint8_t[4]){ 0 });
		break;
	case LINUX_SIOCGIFNETMASK:
		prefix_mask(d->v4_prefix, mask);
		put_sin(&ifr, mask);
		break;
	case LINUX_SIOCGIFMETRIC:
		ifr.u.ivalue = 0;
		break;
	case LINUX_SIOCGIFMTU:
		ifr.u.ivalue = (int32_t)d->mtu;
		break;
	case LINUX_SIOCGIFHWADDR: /* the type and its 6-byte all-zero address */
		ifr.u.addr.sa_family = d->type;
		memset(ifr.u.addr.sa_data, 0, 6);
		break;
	case LINUX_SIOCGIFINDEX:
		ifr.u.ivalue = d->ifindex;
		break;
	case LINUX_SIOCGIFTXQLEN:
		ifr.u.ivalue = (int32_t)d->txqlen;
		break;
	case LINUX_SIOCGIFMAP: /* no memory, irq or port: struct ifmap's 21 bytes */
		memset(&ifr.u, 0, 21);
		break;
	default:
		return set_same(d, net, cmd, &ifr);
	}
out:
	return copy_to_user(t->mm, arg, &ifr, sizeof(ifr)) < 0 ? -EFAULT : 0;
}
