/*
 * Netlink and the network devices' interface as the x86-64 Linux kernel
 * takes them: struct sockaddr_nl, the message and attribute headers,
 * NETLINK_ROUTE's messages (ifinfomsg, ifaddrmsg, rtmsg) and attributes,
 * the SOL_NETLINK options, and struct ifreq / ifconf of the SIOCGIF*
 * ioctls.
 */
#ifndef ABI_LINUX_NETLINK_H
#define ABI_LINUX_NETLINK_H

#include <stdint.h>

#define LINUX_SOL_NETLINK 270

/* protocols */
#define LINUX_NETLINK_ROUTE	     0
#define LINUX_NETLINK_KOBJECT_UEVENT 15
#define LINUX_MAX_LINKS		     32

struct linux_sockaddr_nl {
	uint16_t nl_family;
	uint16_t nl_pad;
	uint32_t nl_pid;
	uint32_t nl_groups;
};

struct linux_nlmsghdr {
	uint32_t nlmsg_len;
	uint16_t nlmsg_type;
	uint16_t nlmsg_flags;
	uint32_t nlmsg_seq;
	uint32_t nlmsg_pid;
};

#define LINUX_NLMSG_ALIGN(len) (((len) + 3U) & ~3U)
#define LINUX_NLMSG_HDRLEN     ((unsigned)sizeof(struct linux_nlmsghdr))

/* nlmsg_flags */
#define LINUX_NLM_F_REQUEST	  0x01
#define LINUX_NLM_F_MULTI	  0x02
#define LINUX_NLM_F_ACK		  0x04
#define LINUX_NLM_F_ECHO	  0x08
#define LINUX_NLM_F_DUMP_INTR	  0x10
#define LINUX_NLM_F_DUMP_FILTERED 0x20
#define LINUX_NLM_F_ROOT	  0x100
#define LINUX_NLM_F_MATCH	  0x200
#define LINUX_NLM_F_DUMP	  (LINUX_NLM_F_ROOT | LINUX_NLM_F_MATCH)
#define LINUX_NLM_F_CAPPED	  0x100 /* in an NLMSG_ERROR */

/* the control messages' types */
#define LINUX_NLMSG_NOOP     1
#define LINUX_NLMSG_ERROR    2
#define LINUX_NLMSG_DONE     3
#define LINUX_NLMSG_MIN_TYPE 0x10

/* SOL_NETLINK options */
#define LINUX_NETLINK_ADD_MEMBERSHIP   1
#define LINUX_NETLINK_DROP_MEMBERSHIP  2
#define LINUX_NETLINK_PKTINFO	       3
#define LINUX_NETLINK_BROADCAST_ERROR  4
#define LINUX_NETLINK_NO_ENOBUFS       5
#define LINUX_NETLINK_RX_RING	       6
#define LINUX_NETLINK_TX_RING	       7
#define LINUX_NETLINK_LISTEN_ALL_NSID  8
#define LINUX_NETLINK_LIST_MEMBERSHIPS 9
#define LINUX_NETLINK_CAP_ACK	       10
#define LINUX_NETLINK_EXT_ACK	       11
#define LINUX_NETLINK_GET_STRICT_CHK   12

struct linux_nlattr {
	uint16_t nla_len;
	uint16_t nla_type;
};

#define LINUX_NLA_F_NESTED  0x8000
#define LINUX_NLA_TYPE_MASK 0x3fff

/* rtnetlink message types */
#define LINUX_RTM_BASE	   16
#define LINUX_RTM_NEWLINK  16
#define LINUX_RTM_GETLINK  18
#define LINUX_RTM_NEWADDR  20
#define LINUX_RTM_GETADDR  22
#define LINUX_RTM_NEWROUTE 24
#define LINUX_RTM_GETROUTE 26
#define LINUX_RTM_GETNEIGH 30
#define LINUX_RTM_NEWRULE  32
#define LINUX_RTM_GETRULE  34
#define LINUX_RTM_MAX	   127

struct linux_rtgenmsg {
	uint8_t rtgen_family;
};

struct linux_ifinfomsg {
	uint8_t ifi_family;
	uint8_t pad;
	uint16_t ifi_type;
	int32_t ifi_index;
	uint32_t ifi_flags;
	uint32_t ifi_change;
};

struct linux_ifaddrmsg {
	uint8_t ifa_family;
	uint8_t ifa_prefixlen;
	uint8_t ifa_flags;
	uint8_t ifa_scope;
	uint32_t ifa_index;
};

struct linux_rtmsg {
	uint8_t rtm_family;
	uint8_t rtm_dst_len;
	uint8_t rtm_src_len;
	uint8_t rtm_tos;
	uint8_t rtm_table;
	uint8_t rtm_protocol;
	uint8_t rtm_scope;
	uint8_t rtm_type;
	uint32_t rtm_flags;
};

/* IFLA_* (struct ifinfomsg's attributes) */
#define LINUX_IFLA_ADDRESS		      1
#define LINUX_IFLA_BROADCAST		      2
#define LINUX_IFLA_IFNAME		      3
#define LINUX_IFLA_MTU			      4
#define LINUX_IFLA_QDISC		      6
#define LINUX_IFLA_STATS		      7
#define LINUX_IFLA_TXQLEN		      13
#define LINUX_IFLA_MAP			      14
#define LINUX_IFLA_OPERSTATE		      16
#define LINUX_IFLA_LINKMODE		      17
#define LINUX_IFLA_STATS64		      23
#define LINUX_IFLA_AF_SPEC		      26
#define LINUX_IFLA_GROUP		      27
#define LINUX_IFLA_EXT_MASK		      29
#define LINUX_IFLA_PROMISCUITY		      30
#define LINUX_IFLA_NUM_TX_QUEUES	      31
#define LINUX_IFLA_NUM_RX_QUEUES	      32
#define LINUX_IFLA_CARRIER		      33
#define LINUX_IFLA_CARRIER_CHANGES	      35
#define LINUX_IFLA_PROTO_DOWN		      39
#define LINUX_IFLA_GSO_MAX_SEGS		      40
#define LINUX_IFLA_GSO_MAX_SIZE		      41
#define LINUX_IFLA_XDP			      43
#define LINUX_IFLA_CARRIER_UP_COUNT	      47
#define LINUX_IFLA_CARRIER_DOWN_COUNT	      48
#define LINUX_IFLA_MIN_MTU		      50
#define LINUX_IFLA_MAX_MTU		      51
#define LINUX_IFLA_GRO_MAX_SIZE		      58
#define LINUX_IFLA_TSO_MAX_SIZE		      59
#define LINUX_IFLA_TSO_MAX_SEGS		      60
#define LINUX_IFLA_ALLMULTI		      61
#define LINUX_IFLA_DEVLINK_PORT		      62
#define LINUX_IFLA_GSO_IPV4_MAX_SIZE	      63
#define LINUX_IFLA_GRO_IPV4_MAX_SIZE	      64
#define LINUX_IFLA_DPLL_PIN		      65
#define LINUX_IFLA_MAX_PACING_OFFLOAD_HORIZON 66
#define LINUX_IFLA_NETNS_IMMUTABLE	      67
#define LINUX_IFLA_HEADROOM		      68
#define LINUX_IFLA_TAILROOM		      69
#define LINUX_IFLA_XDP_ATTACHED		      2

/* IFLA_EXT_MASK's bits */
#define LINUX_RTEXT_FILTER_SKIP_STATS (1 << 3)

/* IFA_* (struct ifaddrmsg's attributes) and flags */
#define LINUX_IFA_ADDRESS	1
#define LINUX_IFA_LOCAL		2
#define LINUX_IFA_LABEL		3
#define LINUX_IFA_CACHEINFO	6
#define LINUX_IFA_FLAGS		8
#define LINUX_IFA_PROTO		11
#define LINUX_IFA_F_PERMANENT	0x80
#define LINUX_IFAPROT_KERNEL_LO 1

struct linux_ifa_cacheinfo {
	uint32_t ifa_prefered;
	uint32_t ifa_valid;
	uint32_t cstamp;
	uint32_t tstamp;
};

/* RTA_* (struct rtmsg's attributes) and the values of its fields */
#define LINUX_RTA_DST		1
#define LINUX_RTA_OIF		4
#define LINUX_RTA_PRIORITY	6
#define LINUX_RTA_PREFSRC	7
#define LINUX_RTA_CACHEINFO	12
#define LINUX_RTA_TABLE		15
#define LINUX_RTA_PREF		20
#define LINUX_RT_TABLE_MAIN	254
#define LINUX_RT_TABLE_LOCAL	255
#define LINUX_RTPROT_KERNEL	2
#define LINUX_RT_SCOPE_UNIVERSE 0
#define LINUX_RT_SCOPE_LINK	253
#define LINUX_RT_SCOPE_HOST	254
#define LINUX_RTN_LOCAL		2
#define LINUX_RTN_BROADCAST	3
#define LINUX_RTM_F_CLONED	0x200

/* struct rta_cacheinfo, all zero for the guest's routes */
#define LINUX_RTA_CACHEINFO_SIZE 32

/* device flags (IFF_*) and types (ARPHRD_*) */
#define LINUX_IFF_UP	      0x1
#define LINUX_IFF_LOOPBACK    0x8
#define LINUX_IFF_RUNNING     0x40
#define LINUX_IFF_LOWER_UP    0x10000
#define LINUX_ARPHRD_LOOPBACK 772

#define LINUX_IFNAMSIZ 16

/* the interface ioctls (on any socket) */
#define LINUX_SIOCGIFNAME    0x8910
#define LINUX_SIOCGIFCONF    0x8912
#define LINUX_SIOCGIFFLAGS   0x8913
#define LINUX_SIOCSIFFLAGS   0x8914
#define LINUX_SIOCGIFADDR    0x8915
#define LINUX_SIOCSIFADDR    0x8916
#define LINUX_SIOCGIFDSTADDR 0x8917
#define LINUX_SIOCSIFDSTADDR 0x8918
#define LINUX_SIOCGIFBRDADDR 0x8919
#define LINUX_SIOCSIFBRDADDR 0x891a
#define LINUX_SIOCGIFNETMASK 0x891b
#define LINUX_SIOCSIFNETMASK 0x891c
#define LINUX_SIOCGIFMETRIC  0x891d
#define LINUX_SIOCSIFMETRIC  0x891e
#define LINUX_SIOCGIFMTU     0x8921
#define LINUX_SIOCSIFMTU     0x8922
#define LINUX_SIOCSIFNAME    0x8923
#define LINUX_SIOCSIFHWADDR  0x8924
#define LINUX_SIOCGIFHWADDR  0x8927
#define LINUX_SIOCGIFINDEX   0x8933
#define LINUX_SIOCSIFTXQLEN  0x8943
#define LINUX_SIOCGIFTXQLEN  0x8942
#define LINUX_SIOCGIFMAP     0x8970
#define LINUX_SIOCSIFMAP     0x8971

/* struct ifreq: a name and a union of 24 bytes */
struct linux_ifreq {
	char ifr_name[LINUX_IFNAMSIZ];
	union {
		struct {
			uint16_t sa_family;
			uint8_t sa_data[14];
		} addr;
		int16_t flags;
		int32_t ivalue; /* ifindex, metric, mtu, qlen */
		uint8_t pad[24];
	} u;
};

/* struct ifconf: a length and a pointer to ifreqs */
struct linux_ifconf {
	int32_t ifc_len;
	int32_t pad;
	uint64_t ifc_buf;
};

#endif
