/* Netlink and rtnetlink definitions of the guest tests, written out here
 * because musl's include path has no <linux/netlink.h>: the names and
 * values of Linux's uapi headers. */
#ifndef NETLINK_UTIL_H
#define NETLINK_UTIL_H

#include <stdint.h>
#include <sys/socket.h>

#define NETLINK_ROUTE 0
#define SOL_NETLINK_  270

#define NETLINK_ADD_MEMBERSHIP	 1
#define NETLINK_DROP_MEMBERSHIP	 2
#define NETLINK_BROADCAST_ERROR	 4
#define NETLINK_NO_ENOBUFS	 5
#define NETLINK_RX_RING		 6
#define NETLINK_LISTEN_ALL_NSID	 8
#define NETLINK_LIST_MEMBERSHIPS 9
#define NETLINK_CAP_ACK		 10
#define NETLINK_EXT_ACK		 11
#define NETLINK_GET_STRICT_CHK	 12

struct sockaddr_nl {
	unsigned short nl_family;
	unsigned short nl_pad;
	uint32_t nl_pid;
	uint32_t nl_groups;
};

struct nlmsghdr {
	uint32_t nlmsg_len;
	uint16_t nlmsg_type;
	uint16_t nlmsg_flags;
	uint32_t nlmsg_seq;
	uint32_t nlmsg_pid;
};

#define NLM_F_REQUEST 0x01
#define NLM_F_MULTI   0x02
#define NLM_F_ACK     0x04
#define NLM_F_ROOT    0x100
#define NLM_F_MATCH   0x200
#define NLM_F_CREATE  0x400
#define NLM_F_DUMP    (NLM_F_ROOT | NLM_F_MATCH)

#define NLMSG_NOOP  1
#define NLMSG_ERROR 2
#define NLMSG_DONE  3

#define NLMSG_ALIGNTO	  4U
#define NLMSG_ALIGN(len)  (((len) + NLMSG_ALIGNTO - 1) & ~(NLMSG_ALIGNTO - 1))
#define NLMSG_HDRLEN	  ((int)NLMSG_ALIGN(sizeof(struct nlmsghdr)))
#define NLMSG_LENGTH(len) ((len) + NLMSG_HDRLEN)
#define NLMSG_DATA(nlh)	  ((void *)(((char *)nlh) + NLMSG_HDRLEN))
#define NLMSG_NEXT(nlh, len)                     \
	((len) -= NLMSG_ALIGN((nlh)->nlmsg_len), \
	 (struct nlmsghdr *)(((char *)(nlh)) + NLMSG_ALIGN((nlh)->nlmsg_len)))
#define NLMSG_OK(nlh, len)                                                                       \
	((len) >= (int)sizeof(struct nlmsghdr) && (nlh)->nlmsg_len >= sizeof(struct nlmsghdr) && \
	 (nlh)->nlmsg_len <= (unsigned)(len))

struct rtattr {
	unsigned short rta_len;
	unsigned short rta_type;
};

#define NLA_F_NESTED   0x8000
#define NLA_TYPE_MASK  0x3fff
#define RTA_ALIGN(len) (((len) + 3U) & ~3U)
#define RTA_OK(rta, len)                                                                   \
	((len) >= (int)sizeof(struct rtattr) && (rta)->rta_len >= sizeof(struct rtattr) && \
	 (rta)->rta_len <= (len))
#define RTA_NEXT(rta, attrlen)                   \
	((attrlen) -= RTA_ALIGN((rta)->rta_len), \
	 (struct rtattr *)(((char *)(rta)) + RTA_ALIGN((rta)->rta_len)))
#define RTA_LENGTH(len)	 (RTA_ALIGN(sizeof(struct rtattr)) + (len))
#define RTA_DATA(rta)	 ((void *)(((char *)(rta)) + RTA_LENGTH(0)))
#define RTA_PAYLOAD(rta) ((int)((rta)->rta_len) - (int)RTA_LENGTH(0))

#define RTM_NEWLINK  16
#define RTM_GETLINK  18
#define RTM_NEWADDR  20
#define RTM_GETADDR  22
#define RTM_NEWROUTE 24
#define RTM_GETROUTE 26
#define RTM_GETNEIGH 30

struct rtgenmsg {
	unsigned char rtgen_family;
};

struct ifinfomsg {
	unsigned char ifi_family;
	unsigned char __ifi_pad;
	unsigned short ifi_type;
	int ifi_index;
	unsigned ifi_flags;
	unsigned ifi_change;
};

struct ifaddrmsg {
	uint8_t ifa_family;
	uint8_t ifa_prefixlen;
	uint8_t ifa_flags;
	uint8_t ifa_scope;
	uint32_t ifa_index;
};

struct rtmsg {
	unsigned char rtm_family;
	unsigned char rtm_dst_len;
	unsigned char rtm_src_len;
	unsigned char rtm_tos;
	unsigned char rtm_table;
	unsigned char rtm_protocol;
	unsigned char rtm_scope;
	unsigned char rtm_type;
	unsigned rtm_flags;
};

struct ifa_cacheinfo {
	uint32_t ifa_prefered;
	uint32_t ifa_valid;
	uint32_t cstamp;
	uint32_t tstamp;
};

#define IFLA_IFNAME	   3
#define IFLA_QDISC	   6
#define IFLA_AF_SPEC	   26
#define IFA_ADDRESS	   1
#define IFA_LOCAL	   2
#define IFA_LABEL	   3
#define IFA_CACHEINFO	   6
#define RTA_DST		   1
#define RTA_PREFSRC	   7
#define RT_TABLE_MAIN	   254
#define RT_TABLE_LOCAL	   255
#define RT_SCOPE_HOST	   254
#define RTM_F_CLONED	   0x200
#define RTMGRP_LINK	   1
#define RTMGRP_IPV4_IFADDR 0x10

#define IFLA_PROTINFO		12
#define IFLA_EXT_MASK		29
#define RTEXT_FILTER_SKIP_STATS (1 << 3)
#define IFLA_INET6_CACHEINFO	5
#define RTM_NEWRULE		32
#define RTM_GETRULE		34
#define RTA_SRC			2
#define RTA_CACHEINFO		12

#endif
