/* host/hostnet.h: host sockets for --net=host (host/hostnet.c). The
 * kernel creates and owns them, always non-blocking and close-on-exec;
 * each call returns -errno and never waits (a would-block is -EAGAIN).
 * Addresses and data are kernel buffers, never guest pointers; flags and
 * option numbers are Linux's (the host's). */
#ifndef HOST_HOSTNET_H
#define HOST_HOSTNET_H

#include <stdbool.h>
#include <stddef.h>

/* The IP-level control data of one datagram: the values given to send
 * (given: HOST_NET_* bits) or reported by recv (same bits). */
struct host_net_cmsg {
	unsigned bits;
	int ttl, tos, hops, tclass;
	/* recv: the control messages the host gave that are on the
	 * allowlist (timestamps, IP_TTL, IP_TOS, IP_PKTINFO, the original
	 * destination, IPV6_HOPLIMIT, IPV6_TCLASS, IPV6_PKTINFO), each with
	 * its exact size, as Linux cmsghdrs in the host's order */
	unsigned char raw[256];
	unsigned raw_len;
};
#define HOST_NET_TTL	1 /* as net/msg.h's SCM_IP_* */
#define HOST_NET_TOS	2
#define HOST_NET_HOPS	4
#define HOST_NET_TCLASS 8

int host_net_socket(int family, int type, int protocol);
int host_net_bind(int fd, const void *addr, int len);
int host_net_connect(int fd, const void *addr, int len);
int host_net_listen(int fd, int backlog);
/* A new connection's host fd (non-blocking); *len in: addr's size. */
int host_net_accept(int fd, void *addr, int *len);
int host_net_name(int fd, void *addr, int *len, bool peer);
int host_net_shutdown(int fd, int how);
int host_net_setsockopt(int fd, int level, int name, const void *val, int len);
int host_net_getsockopt(int fd, int level, int name, void *val, int *len);
/* One sendmsg of buf (MSG_DONTWAIT | MSG_NOSIGNAL added); name may be
 * NULL; c may be NULL. */
long host_net_send(int fd, const void *buf, size_t n, const void *name, int namelen,
		   const struct host_net_cmsg *c, unsigned flags);
/* One recvmsg into buf (MSG_DONTWAIT added); *namelen in: name's size
 * (0: none wanted), out: the source's length; *msg_flags the host's. */
long host_net_recv(int fd, void *buf, size_t n, void *name, int *namelen, struct host_net_cmsg *c,
		   unsigned flags, unsigned *msg_flags);
/* FIONREAD/SIOCINQ, SIOCOUTQ or SIOCATMARK: the count, or -errno. */
long host_net_ioctl(int fd, unsigned cmd);
/* The fd's readiness now: Linux's POLL* bits, RDHUP included. */
unsigned host_net_poll(int fd);

#endif
