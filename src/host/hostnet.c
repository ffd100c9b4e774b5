/* host/hostnet.c: the host calls of --net=host sockets (net/hostinet.c).
 * Every socket is non-blocking on the host, so no call here waits: the
 * guest's blocking is the kernel's, on its wait queues. The calls get
 * only kernel copies of the guest's addresses, data and option values;
 * the control data is built here from vetted values (hostnet.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <netinet/in.h>
#include <linux/errqueue.h>
#include <linux/sockios.h>

#include "host/hostnet.h"

#define RETRY(expr)                               \
	({                                        \
		long _r;                          \
		do                                \
			_r = (long)(expr);        \
		while (_r < 0 && errno == EINTR); \
		_r < 0 ? -errno : _r;             \
	})

int host_net_socket(int family, int type, int protocol)
{
	if (family != AF_INET && family != AF_INET6)
		return -EAFNOSUPPORT;
	return (int)RETRY(socket(family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, protocol));
}

int host_net_bind(int fd, const void *addr, int len)
{
	return (int)RETRY(bind(fd, addr, (socklen_t)len));
}

/* Not retried: a connect interrupted goes on in the background, and a
 * second one would say EALREADY. The fd is non-blocking: EINPROGRESS. */
int host_net_connect(int fd, const void *addr, int len)
{
	return connect(fd, addr, (socklen_t)len) < 0 ? -errno : 0;
}

int host_net_listen(int fd, int backlog)
{
	return (int)RETRY(listen(fd, backlog));
}

int host_net_accept(int fd, void *addr, int *len)
{
	socklen_t l = (socklen_t)*len;
	long ret = RETRY(accept4(fd, addr, &l, SOCK_NONBLOCK | SOCK_CLOEXEC));

	*len = (int)l;
	return (int)ret;
}

int host_net_name(int fd, void *addr, int *len, bool peer)
{
	socklen_t l = (socklen_t)*len;
	long ret = peer ? RETRY(getpeername(fd, addr, &l)) : RETRY(getsockname(fd, addr, &l));

	*len = (int)l;
	return (int)ret;
}

int host_net_shutdown(int fd, int how)
{
	return (int)RETRY(shutdown(fd, how));
}

int host_net_setsockopt(int fd, int level, int name, const void *val, int len)
{
	return (int)RETRY(setsockopt(fd, level, name, val, (socklen_t)len));
}

int host_net_getsockopt(int fd, int level, int name, void *val, int *len)
{
	socklen_t l = (socklen_t)*len;
	long ret = RETRY(getsockopt(fd, level, name, val, &l));

	*len = (int)l;
	return (int)ret;
}

/* Room for the four IP-level messages, each an int at most. */
#define CMSG_ROOM (4 * CMSG_SPACE(sizeof(int)))

static void put_int_cmsg(struct msghdr *mh, struct cmsghdr **cm, int level, int type, int v,
			 size_t len)
{
	unsigned char b = (unsigned char)v;

	if (!*cm)
		return;
	(*cm)->cmsg_level = level;
	(*cm)->cmsg_type = type;
	(*cm)->cmsg_len = CMSG_LEN(len);
	if (len == 1)
		memcpy(CMSG_DATA(*cm), &b, 1);
	else
		memcpy(CMSG_DATA(*cm), &v, sizeof(v));
	mh->msg_controllen += CMSG_SPACE(len);
	*cm = CMSG_NXTHDR(mh, *cm);
}

long host_net_send(int fd, const void *buf, size_t n, const void *name, int namelen,
		   const struct host_net_cmsg *c, unsigned flags)
{
	union {
		char buf[CMSG_ROOM];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = n };
	struct msghdr mh = { .msg_name = (void *)name,
			     .msg_namelen = name ? (socklen_t)namelen : 0,
			     .msg_iov = &iov,
			     .msg_iovlen = 1 };
	struct cmsghdr *cm;

	memset(&ctl, 0, sizeof(ctl));
	if (c && c->bits) {
		mh.msg_control = ctl.buf;
		mh.msg_controllen = sizeof(ctl.buf);
		cm = CMSG_FIRSTHDR(&mh);
		mh.msg_controllen = 0;
		if (c->bits & HOST_NET_TTL)
			put_int_cmsg(&mh, &cm, IPPROTO_IP, IP_TTL, c->ttl, sizeof(int));
		if (c->bits & HOST_NET_TOS)
			put_int_cmsg(&mh, &cm, IPPROTO_IP, IP_TOS, c->tos, 1);
		if (c->bits & HOST_NET_HOPS)
			put_int_cmsg(&mh, &cm, IPPROTO_IPV6, IPV6_HOPLIMIT, c->hops, sizeof(int));
		if (c->bits & HOST_NET_TCLASS)
			put_int_cmsg(&mh, &cm, IPPROTO_IPV6, IPV6_TCLASS, c->tclass, sizeof(int));
	}
	return RETRY(sendmsg(fd, &mh, (int)(flags | MSG_DONTWAIT | MSG_NOSIGNAL)));
}

/* The control messages passed on, each with its data's one size. */
static const struct {
	int level, type;
	size_t len;
} recv_cmsgs[] = {
	{ SOL_SOCKET, SO_TIMESTAMP_OLD, sizeof(struct timeval) },
	{ SOL_SOCKET, SO_TIMESTAMPNS_OLD, sizeof(struct timespec) },
	{ SOL_SOCKET, SO_TIMESTAMP_NEW, 16 },	/* __kernel_sock_timeval */
	{ SOL_SOCKET, SO_TIMESTAMPNS_NEW, 16 }, /* __kernel_timespec */
	{ IPPROTO_IP, IP_PKTINFO, sizeof(struct in_pktinfo) },
	{ IPPROTO_IP, IP_TTL, sizeof(int) },
	{ IPPROTO_IP, IP_TOS, 1 },
	{ IPPROTO_IP, IP_ORIGDSTADDR, sizeof(struct sockaddr_in) },
	{ IPPROTO_IPV6, IPV6_PKTINFO, sizeof(struct in6_pktinfo) },
	{ IPPROTO_IPV6, IPV6_HOPLIMIT, sizeof(int) },
	{ IPPROTO_IPV6, IPV6_TCLASS, sizeof(int) },
	{ IPPROTO_IPV6, IPV6_ORIGDSTADDR, sizeof(struct sockaddr_in6) },
	/* MSG_ERRQUEUE's: the error and the address of who reported it */
	{ IPPROTO_IP, IP_RECVERR, sizeof(struct sock_extended_err) + sizeof(struct sockaddr_in) },
	{ IPPROTO_IPV6, IPV6_RECVERR,
	  sizeof(struct sock_extended_err) + sizeof(struct sockaddr_in6) },
};

/* The messages of one recvmsg that are on the list, copied as they are:
 * plain values and addresses the host made, no fd or pointer among them.
 * Any other is dropped (the options asking for them are not passed on). */
static void take_cmsgs(struct msghdr *mh, struct host_net_cmsg *c)
{
	struct cmsghdr *cm;
	size_t i;

	c->raw_len = 0;
	for (cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm)) {
		size_t dlen = cm->cmsg_len - CMSG_LEN(0);

		for (i = 0; i < sizeof(recv_cmsgs) / sizeof(recv_cmsgs[0]); i++)
			if (recv_cmsgs[i].level == cm->cmsg_level &&
			    recv_cmsgs[i].type == cm->cmsg_type && recv_cmsgs[i].len == dlen)
				break;
		if (i == sizeof(recv_cmsgs) / sizeof(recv_cmsgs[0]) ||
		    c->raw_len + CMSG_SPACE(dlen) > sizeof(c->raw))
			continue;
		memcpy(c->raw + c->raw_len, cm, CMSG_LEN(dlen));
		memset(c->raw + c->raw_len + CMSG_LEN(dlen), 0, CMSG_SPACE(dlen) - CMSG_LEN(dlen));
		c->raw_len += CMSG_SPACE(dlen);
	}
}

long host_net_recv(int fd, void *buf, size_t n, void *name, int *namelen, struct host_net_cmsg *c,
		   unsigned flags, unsigned *msg_flags)
{
	union {
		char buf[512];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = buf, .iov_len = n };
	struct msghdr mh = { .msg_name = *namelen ? name : NULL,
			     .msg_namelen = (socklen_t)*namelen,
			     .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = ctl.buf,
			     .msg_controllen = sizeof(ctl.buf) };
	long ret = RETRY(recvmsg(fd, &mh, (int)(flags | MSG_DONTWAIT | MSG_CMSG_CLOEXEC)));

	*namelen = mh.msg_name ? (int)mh.msg_namelen : 0;
	*msg_flags = ret < 0 ? 0 : (unsigned)mh.msg_flags;
	c->bits = 0;
	c->raw_len = 0;
	if (ret >= 0)
		take_cmsgs(&mh, c);
	return ret;
}

long host_net_ioctl(int fd, unsigned cmd)
{
	int v = 0;
	long ret;

	if (cmd != FIONREAD && cmd != SIOCOUTQ && cmd != SIOCATMARK)
		return -ENOTTY;
	ret = RETRY(ioctl(fd, cmd, &v));
	return ret < 0 ? ret : v;
}

unsigned host_net_poll(int fd)
{
	struct pollfd p = { .fd = fd,
			    .events = POLLIN | POLLPRI | POLLOUT | POLLRDNORM | POLLRDBAND |
				      POLLWRNORM | POLLWRBAND | POLLRDHUP };

	if (poll(&p, 1, 0) <= 0)
		return 0;
	return (unsigned)p.revents;
}
