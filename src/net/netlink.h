/* net/netlink.h: AF_NETLINK sockets (net/netlink.c) and what their
 * protocols share: building messages and sending them to a socket as the
 * kernel (port 0). NETLINK_ROUTE's requests are net/rtnetlink.c's. */
#ifndef NET_NETLINK_H
#define NET_NETLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/list.h"
#include "net/socket.h"
#include "abi/linux/netlink.h"

/* The flags of SOL_NETLINK's boolean options. */
enum {
	NLF_BROADCAST_ERROR = 1 << 0,
	NLF_NO_ENOBUFS = 1 << 1,
	NLF_LISTEN_ALL_NSID = 1 << 2,
	NLF_CAP_ACK = 1 << 3,
	NLF_EXT_ACK = 1 << 4,
	NLF_STRICT_CHK = 1 << 5,
};

struct nl_sock {
	struct socket sk;
	uint32_t portid; /* valid once bound */
	bool bound;
	uint64_t groups;	     /* multicast groups joined: bit g-1 for group g */
	uint32_t dst_portid;	     /* connect()'s peer */
	uint32_t dst_group;	     /* and group (a number, 0: none) */
	unsigned nlflags;	     /* NLF_* */
	struct list_head queue;	     /* struct nl_buf, by link */
	size_t rmem;		     /* their truesize, against SO_RCVBUF */
	struct list_head bound_link; /* in the table of bound sockets */
};

/* One message being built: a growing buffer of whole netlink messages
 * (one datagram). On allocation failure oom is set and puts do nothing. */
struct nlbuf {
	uint8_t *data;
	size_t len, cap;
	bool oom;
};

/* Starts a message of the given header and fixed part; returns its offset
 * for nlmsg_end, which sets its length. */
size_t nlmsg_begin(struct nlbuf *b, uint16_t type, uint16_t flags, uint32_t seq, uint32_t portid,
		   const void *fixed, size_t len);
void nlmsg_end(struct nlbuf *b, size_t start);
/* An attribute (padded to 4 bytes). */
void nla_put(struct nlbuf *b, uint16_t type, const void *data, size_t len);
void nla_put_u32(struct nlbuf *b, uint16_t type, uint32_t v);
void nla_put_u8(struct nlbuf *b, uint16_t type, uint8_t v);
/* A nested attribute: nla_nest_end closes what nla_nest_begin opened. */
size_t nla_nest_begin(struct nlbuf *b, uint16_t type);
void nla_nest_end(struct nlbuf *b, size_t start);

/* Queues b's messages on s as one datagram from the kernel, and frees b.
 * A full receive queue drops it and gives s ENOBUFS, as Linux's
 * netlink_overrun (unless NETLINK_NO_ENOBUFS). */
void netlink_send_kernel(struct nl_sock *s, struct nlbuf *b);
/* Sends b's messages as one datagram from the kernel to the sockets of
 * net's protocol in group, and frees b. */
void netlink_multicast_kernel(const struct net_ns *net, int protocol, uint32_t group,
			      struct nlbuf *b);
/* An NLMSG_ERROR for the request nlh (err 0: an acknowledgment). */
void netlink_ack(struct nl_sock *s, const struct linux_nlmsghdr *nlh, int err);

int netlink_create(int type, int protocol, struct socket **out);

/* Linux's netlink_rcv_skb: each whole message of the datagram data in
 * turn goes to msg, with the bytes from it to the datagram's end (rest,
 * as Linux's skb at that point) and arg; msg returns 0, NETLINK_DUMPED (a
 * dump answered: no acknowledgment) or -errno. A short or overlong header
 * ends the datagram silently. */
#define NETLINK_DUMPED 1
typedef int (*netlink_msg_fn)(struct nl_sock *s, const struct linux_nlmsghdr *nlh, size_t rest,
			      const void *arg);
void netlink_rcv_skb(struct nl_sock *s, const uint8_t *data, size_t len, netlink_msg_fn msg,
		     const void *arg);
/* NETLINK_ROUTE (net/rtnetlink.c): the requests in data, from s. */
void rtnetlink_rcv(struct nl_sock *s, const uint8_t *data, size_t len);
/* NETLINK_SOCK_DIAG (net/sock_diag.c). */
void sock_diag_rcv(struct nl_sock *s, const uint8_t *data, size_t len);

#endif
