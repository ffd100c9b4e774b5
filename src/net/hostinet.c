/* net/hostinet.c: AF_INET and AF_INET6 stream and datagram sockets of
 * --net=host, as gVisor's hostinet: each is a host socket the kernel owns
 * (host/hostnet.c), non-blocking on the host, so the host's TCP/IP does
 * the protocol and answers for addresses, ports, routes and most errnos.
 * What the guest sees as blocking is the kernel's: a call that would
 * block sleeps on the socket's wait queue, which an edge watch on the
 * host fd (host_evloop_edge_add_rw) wakes at each readiness change, so
 * signals (ERESTARTSYS, or EINTR under a timeout), SO_RCVTIMEO and
 * SO_SNDTIMEO are as for any socket and the kernel never waits on one.
 * The guest's data, addresses and option values reach the host only as
 * kernel copies, its options only from an allowlist.
 * Differs from Linux: SO_LINGER with a time is kept, not passed on (a
 * lingering close would block the kernel): only the abortive close of a
 * zero time reaches the host; SO_RCVLOWAT is the host's readiness, so a
 * blocking recv that finds fewer bytes returns them (tcp_recvmsg would
 * wait for the rest); sendmsg's control messages are the
 * IP-level four of net/msg.h (IP_TTL, IP_TOS, IPV6_HOPLIMIT, IPV6_TCLASS),
 * recvmsg's the host's own from an allowlist (hostnet.c: those and
 * SO_TIMESTAMP*, IP_PKTINFO, IPV6_PKTINFO, the original destinations);
 * and MSG_ERRQUEUE's IP_RECVERR/IPV6_RECVERR; the options that would ask
 * for others (SO_TIMESTAMPING, IP_OPTIONS...) are ENOPROTOOPT. */
#include <stdlib.h>
#include <string.h>

#include "net/hostinet.h"
#include "net/socket.h"
#include "kernel/task.h"
#include "kernel/cred.h"
#include "host/host.h"
#include "host/hostnet.h"
#include "vfs/poll.h"
#include "abi/linux/errno.h"
#include "abi/linux/poll.h"
#include "abi/linux/socket.h"

#define CAP_NET_ADMIN 12
#define STREAM_CHUNK  (256 << 10) /* the most one host call moves */
#define DGRAM_MAX     65536	  /* above any IP datagram's payload */
#define HOST_OPT_MAX  512	  /* sys_getsockopt's buffer (Linux 6.18's TCP_INFO is 280) */

_Static_assert(SCM_IP_TTL == HOST_NET_TTL && SCM_IP_TOS == HOST_NET_TOS &&
		       SCM_IPV6_HOPS == HOST_NET_HOPS && SCM_IPV6_TCLASS == HOST_NET_TCLASS,
	       "the IP-level control bits are one set");

static bool host_mode;

void hostinet_enable(void)
{
	host_mode = true;
}

bool hostinet_enabled(void)
{
	return host_mode;
}

struct host_sock {
	struct socket sk;
	int host_fd;
	/* The edge watch of host_fd, from the first wait or poll on (0 not
	 * yet, 1 watching, -errno the host would not). */
	int watching;
	struct host_edge_watch ew;
};

static struct host_sock *hsk(struct socket *s)
{
	return (struct host_sock *)s;
}

static const struct proto_ops hostinet_ops;

static void hs_ready(void *arg, unsigned events)
{
	struct host_sock *hs = arg;

	if (events & LINUX_POLLIN)
		events |= LINUX_POLLRDNORM | LINUX_POLLRDHUP;
	if (events & LINUX_POLLOUT)
		events |= LINUX_POLLWRNORM | LINUX_POLLWRBAND;
	waitq_wake(&hs->sk.wq, events);
}

static int hs_watch(struct host_sock *hs)
{
	if (hs->watching)
		return hs->watching < 0 ? hs->watching : 0;
	hs->ew.fn = hs_ready;
	hs->ew.arg = hs;
	hs->watching = host_evloop_edge_add_rw(&hs->ew, hs->host_fd);
	if (hs->watching == 0)
		hs->watching = 1;
	return hs->watching < 0 ? hs->watching : 0;
}

/* A try said EAGAIN: sleeps until the host fd changes (the caller tries
 * again), or -EAGAIN past the deadline, -ERESTARTSYS/-EINTR on a signal. */
static int hs_wait(struct host_sock *hs, int64_t deadline)
{
	int ret;

	if (deadline == 0)
		return -EAGAIN;
	ret = hs_watch(hs);
	if (ret < 0)
		return ret;
	return sock_wait(&hs->sk.wq, deadline);
}

static struct host_sock *hs_alloc(int family, int type, int protocol, int host_fd)
{
	struct host_sock *hs = calloc(1, sizeof(*hs));

	if (!hs)
		return NULL;
	sock_init(&hs->sk, family, type, &hostinet_ops);
	hs->sk.protocol = protocol;
	hs->host_fd = host_fd;
	hs->ew.fd = -1;
	return hs;
}

/* The host's own lack of fds is the instance's: ENFILE, as at the cap. */
static int fd_errno(int err)
{
	return err == -EMFILE ? -ENFILE : err;
}

int hostinet_create(int family, int type, int protocol, struct socket **out)
{
	struct host_sock *hs;
	int fd;

	if (type != LINUX_SOCK_STREAM && type != LINUX_SOCK_DGRAM)
		return -ESOCKTNOSUPPORT; /* the caller sends only these */
	/* TCP, UDP and ICMP echo ("ping") datagrams, as the host allows
	 * them to the user skas runs as; SCTP, UDP-Lite, MPTCP...: not. */
	if (protocol != 0 && !(type == LINUX_SOCK_STREAM && protocol == LINUX_IPPROTO_TCP) &&
	    !(type == LINUX_SOCK_DGRAM && protocol == LINUX_IPPROTO_UDP) &&
	    !(type == LINUX_SOCK_DGRAM && family == LINUX_AF_INET &&
	      protocol == LINUX_IPPROTO_ICMP) &&
	    !(type == LINUX_SOCK_DGRAM && family == LINUX_AF_INET6 &&
	      protocol == LINUX_IPPROTO_ICMPV6))
		return -EPROTONOSUPPORT;
	fd = host_net_socket(family, type, protocol);
	if (fd < 0)
		return fd_errno(fd);
	hs = hs_alloc(family, type,
		      protocol			  ? protocol
		      : type == LINUX_SOCK_STREAM ? LINUX_IPPROTO_TCP
						  : LINUX_IPPROTO_UDP,
		      fd);
	if (!hs) {
		host_close(fd);
		return -ENOMEM;
	}
	*out = &hs->sk;
	return 0;
}

static int hs_bind(struct task *t, struct socket *s, const struct linux_sockaddr_storage *a,
		   int len)
{
	(void)t;
	return host_net_bind(hsk(s)->host_fd, a, len);
}

/* connect: the host's answer at once, or for a blocking one in progress
 * the wait for its end (Linux's inet_wait_for_connect): a restarted or
 * repeated one waits on (the host's EALREADY), one past SO_SNDTIMEO is
 * EINPROGRESS, as Linux. At the end a second host connect says how it
 * went and leaves the host socket as a blocking one would (connected: a
 * third is EISCONN; refused: a new connect starts afresh). */
static int hs_connect(struct task *t, struct socket *s, const struct linux_sockaddr_storage *a,
		      int len, bool nonblock)
{
	struct host_sock *hs = hsk(s);
	int64_t deadline = sock_deadline(s->sndtimeo, nonblock);
	int ret, first, w;

	(void)t;
	first = ret = host_net_connect(hs->host_fd, a, len);
	if (ret == -EINPROGRESS)
		s->state = SS_CONNECTING;
	if (ret != -EINPROGRESS && !(ret == -EALREADY && s->state == SS_CONNECTING))
		return ret;
	if (nonblock)
		return ret;
	for (;;) {
		if (host_net_poll(hs->host_fd) & (LINUX_POLLOUT | LINUX_POLLERR | LINUX_POLLHUP)) {
			ret = host_net_connect(hs->host_fd, a, len);
			if (ret != -EALREADY && ret != -EINPROGRESS)
				break;
		}
		w = hs_wait(hs, deadline);
		if (w == -EAGAIN)
			return first;
		if (w < 0)
			return w;
	}
	s->state = SS_CLOSE;
	return ret;
}

static int hs_listen(struct task *t, struct socket *s, int backlog)
{
	(void)t;
	return host_net_listen(hsk(s)->host_fd, backlog);
}

static int hs_accept(struct socket *s, bool nonblock, struct socket **out)
{
	struct host_sock *hs = hsk(s), *nhs;
	int64_t deadline = sock_deadline(s->rcvtimeo, nonblock);
	struct sock_filter_prog *filter = NULL;
	struct linux_sockaddr_storage a;
	int fd, len, ret;

	for (;;) {
		len = sizeof(a);
		fd = host_net_accept(hs->host_fd, &a, &len);
		if (fd != -EAGAIN)
			break;
		ret = hs_wait(hs, deadline);
		if (ret < 0)
			return ret;
	}
	if (fd < 0)
		return fd_errno(fd);
	/* the host's accepted socket has the listener's filter and lock (as
	 * Linux's sk_clone_lock): so does ours, for SO_GET_FILTER */
	if (s->filter) {
		size_t size = sizeof(*s->filter) + s->filter->len * sizeof(s->filter->insns[0]);

		filter = malloc(size);
		if (!filter) {
			host_close(fd);
			return -ENOMEM;
		}
		memcpy(filter, s->filter, size);
	}
	nhs = hs_alloc(s->family, s->type, s->protocol, fd);
	if (!nhs) {
		free(filter);
		host_close(fd);
		return -ENOMEM;
	}
	sock_set_net(&nhs->sk, s);
	nhs->sk.rcvtimeo = s->rcvtimeo;
	nhs->sk.sndtimeo = s->sndtimeo;
	nhs->sk.filter = filter;
	nhs->sk.filter_locked = s->filter_locked;
	*out = &nhs->sk;
	return 0;
}

static int hs_getname(struct socket *s, struct linux_sockaddr_storage *a, bool peer)
{
	int len = sizeof(*a);
	int ret;

	memset(a, 0, sizeof(*a));
	ret = host_net_name(hsk(s)->host_fd, a, &len, peer);
	return ret < 0 ? ret : len;
}

/* The flags passed on; the kernel does MSG_DONTWAIT and MSG_WAITALL. */
#define SEND_FLAGS \
	(LINUX_MSG_OOB | LINUX_MSG_DONTROUTE | LINUX_MSG_EOR | LINUX_MSG_MORE | LINUX_MSG_CONFIRM)
#define RECV_FLAGS (LINUX_MSG_OOB | LINUX_MSG_PEEK | LINUX_MSG_TRUNC)

static long send_error(long err, unsigned flags)
{
	if (err == -EPIPE && !(flags & LINUX_MSG_NOSIGNAL))
		send_sigpipe();
	return err;
}

/* A datagram: one host call with the whole of it. */
static long hs_send_dgram(struct host_sock *hs, struct kmsg *m, unsigned flags)
{
	struct socket *s = &hs->sk;
	int64_t deadline = sock_deadline(s->sndtimeo, flags & LINUX_MSG_DONTWAIT);
	struct host_net_cmsg c = { .bits = m->scm.ip_given,
				   .ttl = m->scm.ttl,
				   .tos = m->scm.tos,
				   .hops = m->scm.hops,
				   .tclass = m->scm.tclass };
	size_t n = m->iter.count;
	char *buf;
	long ret;

	/* sendto's address of length 0: UDP and ping say EINVAL (sendmsg's
	 * empty name is none: EDESTADDRREQ), where the host's sendmsg would
	 * drop it. */
	if (m->has_name && m->namelen == 0)
		return -EINVAL;

	if (m->scm.ip_bad)
		return -EINVAL; /* ip_cmsg_send */
	if (n > DGRAM_MAX)
		return -EMSGSIZE;
	buf = malloc(n ? n : 1);
	if (!buf)
		return -ENOBUFS;
	ret = iter_copy_from(&m->iter, buf, n);
	while (ret == 0) {
		ret = host_net_send(hs->host_fd, buf, n, m->has_name ? &m->name : NULL, m->namelen,
				    &c, flags & SEND_FLAGS);
		if (ret != -EAGAIN)
			break;
		ret = hs_wait(hs, deadline);
	}
	free(buf);
	return ret < 0 ? send_error(ret, flags) : ret;
}

/* A stream: as much as fits at each try; a blocking send goes on until
 * all is sent, returning what was when a signal or SO_SNDTIMEO stops it.
 * The data left unsent stays in m's iterator (sendmmsg looks). */
static long hs_send_stream(struct host_sock *hs, struct kmsg *m, unsigned flags)
{
	struct socket *s = &hs->sk;
	int64_t deadline = sock_deadline(s->sndtimeo, flags & LINUX_MSG_DONTWAIT);
	size_t done = 0, cap = m->iter.count < STREAM_CHUNK ? m->iter.count : STREAM_CHUNK;
	char *buf = malloc(cap ? cap : 1);
	long ret = 0;

	if (!buf)
		return -ENOBUFS;
	do {
		struct msg_iter at = m->iter;
		size_t n = m->iter.count < cap ? m->iter.count : cap;

		ret = iter_copy_from(&m->iter, buf, n);
		if (ret < 0)
			break;
		ret = host_net_send(hs->host_fd, buf, n, NULL, 0, NULL, flags & SEND_FLAGS);
		if (ret >= 0 && (size_t)ret < n) {
			/* back to the first byte not taken */
			m->iter = at;
			iter_copy_from(&m->iter, buf, (size_t)ret);
		} else if (ret < 0) {
			m->iter = at;
		}
		if (ret > 0)
			done += (size_t)ret;
		if (ret == -EAGAIN || (ret >= 0 && (size_t)ret < n)) {
			ret = hs_wait(hs, deadline);
			if (ret == 0)
				continue;
		}
	} while (ret >= 0 && m->iter.count);
	free(buf);
	if (done)
		return (long)done;
	return ret < 0 ? send_error(ret, flags) : 0;
}

static long hs_sendmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags)
{
	long err = sock_error(s);

	(void)t;
	if (err < 0)
		return err;
	/* No SCM_RIGHTS or credentials over IP: dropped, as tcp/udp.c */
	m->scm.has_cred = false;
	if (s->type == LINUX_SOCK_DGRAM)
		return hs_send_dgram(hsk(s), m, flags);
	/* As Linux with net.ipv4.tcp_fastopen's client bit off: a connect
	 * inside a send would need its own wait (tcp_sendmsg_fastopen). */
	if (flags & LINUX_MSG_FASTOPEN)
		return -EOPNOTSUPP;
	/* TCP reads no address (without MSG_FASTOPEN) */
	return hs_send_stream(hsk(s), m, flags);
}

/* The host's control messages for recvmsg (scm_recv writes them). */
static void take_cmsg(struct kmsg *m, const struct host_net_cmsg *c)
{
	free(m->scm.raw);
	m->scm.raw = NULL;
	m->scm.raw_len = 0;
	if (!c->raw_len)
		return;
	m->scm.raw = malloc(c->raw_len);
	if (!m->scm.raw) {
		m->flags |= LINUX_MSG_CTRUNC;
		return;
	}
	memcpy(m->scm.raw, c->raw, c->raw_len);
	m->scm.raw_len = c->raw_len;
}

static long hs_recv_dgram(struct host_sock *hs, struct kmsg *m, unsigned flags)
{
	struct socket *s = &hs->sk;
	int64_t deadline = sock_deadline(s->rcvtimeo, flags & LINUX_MSG_DONTWAIT);
	size_t n = m->iter.count < DGRAM_MAX ? m->iter.count : DGRAM_MAX;
	char *buf = malloc(n ? n : 1);
	struct host_net_cmsg c;
	unsigned hflags;
	long ret;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		m->namelen = sizeof(m->name);
		/* MSG_TRUNC always: the datagram's own length comes back */
		ret = host_net_recv(hs->host_fd, buf, n, &m->name, &m->namelen, &c,
				    (flags & RECV_FLAGS) | LINUX_MSG_TRUNC, &hflags);
		if (ret != -EAGAIN)
			break;
		ret = hs_wait(hs, deadline);
		if (ret < 0)
			break;
	}
	if (ret >= 0) {
		size_t got = (size_t)ret < n ? (size_t)ret : n;

		take_cmsg(m, &c);
		m->flags |= hflags & LINUX_MSG_TRUNC;
		if (iter_copy_to(&m->iter, buf, got) < 0)
			ret = -EFAULT;
		else if (!(flags & LINUX_MSG_TRUNC))
			ret = (long)got;
	} else {
		m->namelen = 0;
	}
	free(buf);
	return ret;
}

/* MSG_ERRQUEUE (IP_RECVERR): the host's queued error, never a wait
 * (EAGAIN when there is none), its message and the data that caused it. */
static long hs_recv_errqueue(struct host_sock *hs, struct kmsg *m, unsigned flags)
{
	size_t n = m->iter.count < DGRAM_MAX ? m->iter.count : DGRAM_MAX;
	char *buf = malloc(n ? n : 1);
	struct host_net_cmsg c;
	unsigned hflags;
	long ret;

	if (!buf)
		return -ENOMEM;
	m->namelen = sizeof(m->name);
	ret = host_net_recv(hs->host_fd, buf, n, &m->name, &m->namelen, &c,
			    LINUX_MSG_ERRQUEUE | (flags & LINUX_MSG_PEEK), &hflags);
	if (ret >= 0) {
		take_cmsg(m, &c);
		m->flags |= hflags & (LINUX_MSG_TRUNC | LINUX_MSG_ERRQUEUE | LINUX_MSG_CTRUNC);
		if (iter_copy_to(&m->iter, buf, (size_t)ret < n ? (size_t)ret : n) < 0)
			ret = -EFAULT;
	} else {
		m->namelen = 0;
	}
	free(buf);
	return ret;
}

/* A stream: what is there, or with MSG_WAITALL all that was asked (short
 * at EOF, a signal or SO_RCVTIMEO). */
static long hs_recv_stream(struct host_sock *hs, struct kmsg *m, unsigned flags)
{
	struct socket *s = &hs->sk;
	int64_t deadline = sock_deadline(s->rcvtimeo, flags & LINUX_MSG_DONTWAIT);
	size_t done = 0, cap = m->iter.count < STREAM_CHUNK ? m->iter.count : STREAM_CHUNK;
	/* MSG_TRUNC: the data is dropped, not copied (tcp_recvmsg) */
	bool trunc = flags & LINUX_MSG_TRUNC;
	bool all = (flags & LINUX_MSG_WAITALL) && !(flags & (LINUX_MSG_PEEK | LINUX_MSG_TRUNC));
	char *buf = malloc(cap ? cap : 1);
	struct host_net_cmsg c;
	unsigned hflags;
	long ret;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		size_t n = m->iter.count < cap ? m->iter.count : cap;
		int nolen = 0;

		/* No more than the guest can take: bytes taken from the host
		 * and then not copied would be lost. Where the copy would
		 * fault (more is queued than the buffer's good part holds),
		 * EFAULT with nothing taken, as Linux's copy of a segment that
		 * faults part way leaves it queued. */
		if (!trunc && n) {
			size_t w = iter_writable(&m->iter, n);

			if (w < n) {
				long avail = host_net_ioctl(hs->host_fd, LINUX_SIOCINQ);

				if (w == 0 || avail < 0 || (size_t)avail > w) {
					ret = -EFAULT;
					break;
				}
			}
			n = w;
		}
		ret = host_net_recv(hs->host_fd, buf, n, NULL, &nolen, &c, flags & RECV_FLAGS,
				    &hflags);
		if (ret > 0 && trunc) {
			done = (size_t)ret;
			break;
		}
		if (ret > 0)
			take_cmsg(m, &c); /* timestamps */
		if (ret > 0) {
			if (iter_copy_to(&m->iter, buf, (size_t)ret) < 0) {
				ret = -EFAULT;
				break;
			}
			done += (size_t)ret;
			if (!all || !m->iter.count)
				break;
			continue;
		}
		/* MSG_OOB never waits (tcp_recv_urg: EAGAIN while the urgent
		 * byte is yet to come). */
		if (ret != -EAGAIN || (done && !all) || (flags & LINUX_MSG_OOB))
			break;
		ret = hs_wait(hs, deadline);
		if (ret < 0)
			break;
	}
	free(buf);
	m->namelen = 0;
	if (done)
		return (long)done;
	return ret;
}

static long hs_recvmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags)
{
	long err = sock_error(s);

	(void)t;
	if (flags & LINUX_MSG_ERRQUEUE)
		return hs_recv_errqueue(hsk(s), m, flags);
	if (err < 0)
		return err;
	if (s->type == LINUX_SOCK_DGRAM)
		return hs_recv_dgram(hsk(s), m, flags);
	return hs_recv_stream(hsk(s), m, flags);
}

static int hs_shutdown(struct socket *s, int how)
{
	int ret = host_net_shutdown(hsk(s)->host_fd, how);

	if (ret == 0)
		waitq_wake_all(&s->wq);
	return ret;
}

static unsigned hs_poll(struct socket *s, struct poll_table *pt)
{
	struct host_sock *hs = hsk(s);
	unsigned mask;

	poll_wait(pt, &s->wq);
	/* without a watch (the host's epoll out of memory) no wakeup would
	 * come: the error says so rather than a wait forever */
	if (hs_watch(hs) < 0)
		return LINUX_POLLERR;
	mask = host_net_poll(hs->host_fd);
	if (s->err)
		mask |= LINUX_POLLERR;
	return mask;
}

static long hs_inq(struct socket *s)
{
	return host_net_ioctl(hsk(s)->host_fd, LINUX_SIOCINQ);
}

static long hs_ioctl(struct socket *s, unsigned cmd)
{
	if (cmd != LINUX_SIOCOUTQ && cmd != LINUX_SIOCATMARK)
		return -ENOIOCTLCMD;
	return host_net_ioctl(hsk(s)->host_fd, cmd);
}

static int hs_peercred(struct socket *s, struct linux_ucred *uc)
{
	(void)s;
	uc->pid = 0; /* an IP peer has no credentials (cred_to_ucred) */
	uc->uid = uc->gid = (uint32_t)-1;
	return 0;
}

/* The options passed on to the host, ints all (or a byte at SOL_IP):
 * level, name, and whether only getsockopt takes it. */
static const struct {
	int level, name;
	bool get_only;
} host_opts[] = {
	{ LINUX_SOL_SOCKET, LINUX_SO_REUSEADDR, false },
	{ LINUX_SOL_SOCKET, LINUX_SO_REUSEPORT, false },
	{ LINUX_SOL_SOCKET, LINUX_SO_KEEPALIVE, false },
	{ LINUX_SOL_SOCKET, LINUX_SO_BROADCAST, false },
	{ LINUX_SOL_SOCKET, LINUX_SO_DONTROUTE, false },
	{ LINUX_SOL_SOCKET, LINUX_SO_OOBINLINE, false },
	{ LINUX_SOL_SOCKET, LINUX_SO_SNDBUF, false },
	{ LINUX_SOL_SOCKET, LINUX_SO_RCVBUF, false },
	{ LINUX_SOL_SOCKET, LINUX_SO_RCVLOWAT, false },
	{ LINUX_SOL_SOCKET, LINUX_SO_PRIORITY, false },
	{ LINUX_SOL_SOCKET, LINUX_SO_TYPE, true },
	{ LINUX_SOL_SOCKET, LINUX_SO_PROTOCOL, true },
	{ LINUX_SOL_SOCKET, LINUX_SO_DOMAIN, true },
	{ LINUX_SOL_SOCKET, LINUX_SO_ACCEPTCONN, true },
	{ LINUX_SOL_SOCKET, LINUX_SO_ERROR, true },
	{ LINUX_SOL_SOCKET, 29, false }, /* SO_TIMESTAMP */
	{ LINUX_SOL_SOCKET, 35, false }, /* SO_TIMESTAMPNS */
	{ LINUX_SOL_SOCKET, 63, false }, /* SO_TIMESTAMP_NEW */
	{ LINUX_SOL_SOCKET, 64, false }, /* SO_TIMESTAMPNS_NEW */
	{ LINUX_SOL_TCP, 1, false },	 /* TCP_NODELAY */
	{ LINUX_SOL_TCP, 2, false },	 /* TCP_MAXSEG */
	{ LINUX_SOL_TCP, 3, false },	 /* TCP_CORK */
	{ LINUX_SOL_TCP, 4, false },	 /* TCP_KEEPIDLE */
	{ LINUX_SOL_TCP, 5, false },	 /* TCP_KEEPINTVL */
	{ LINUX_SOL_TCP, 6, false },	 /* TCP_KEEPCNT */
	{ LINUX_SOL_TCP, 7, false },	 /* TCP_SYNCNT */
	{ LINUX_SOL_TCP, 8, false },	 /* TCP_LINGER2 */
	{ LINUX_SOL_TCP, 9, false },	 /* TCP_DEFER_ACCEPT */
	{ LINUX_SOL_TCP, 10, false },	 /* TCP_WINDOW_CLAMP */
	{ LINUX_SOL_TCP, 11, true },	 /* TCP_INFO */
	{ LINUX_SOL_TCP, 12, false },	 /* TCP_QUICKACK */
	{ LINUX_SOL_TCP, 13, true },	 /* TCP_CONGESTION (a name: read only) */
	{ LINUX_SOL_TCP, 18, false },	 /* TCP_USER_TIMEOUT */
	{ LINUX_SOL_TCP, 23, false },	 /* TCP_FASTOPEN */
	{ LINUX_SOL_TCP, 25, false },	 /* TCP_NOTSENT_LOWAT */
	{ LINUX_SOL_IP, 1, false },	 /* IP_TOS */
	{ LINUX_SOL_IP, 2, false },	 /* IP_TTL */
	{ LINUX_SOL_IP, 8, false },	 /* IP_PKTINFO */
	{ LINUX_SOL_IP, 10, false },	 /* IP_MTU_DISCOVER */
	{ LINUX_SOL_IP, 11, false },	 /* IP_RECVERR */
	{ LINUX_SOL_IP, 12, false },	 /* IP_RECVTTL */
	{ LINUX_SOL_IP, 13, false },	 /* IP_RECVTOS */
	{ LINUX_SOL_IP, 14, true },	 /* IP_MTU */
	{ LINUX_SOL_IP, 15, false },	 /* IP_FREEBIND */
	{ LINUX_SOL_IP, 20, false },	 /* IP_RECVORIGDSTADDR */
	{ LINUX_SOL_IP, 24, false },	 /* IP_BIND_ADDRESS_NO_PORT */
	{ LINUX_SOL_IP, 33, false },	 /* IP_MULTICAST_TTL */
	{ LINUX_SOL_IP, 34, false },	 /* IP_MULTICAST_LOOP */
	{ LINUX_SOL_IPV6, 16, false },	 /* IPV6_UNICAST_HOPS */
	{ LINUX_SOL_IPV6, 18, false },	 /* IPV6_MULTICAST_HOPS */
	{ LINUX_SOL_IPV6, 19, false },	 /* IPV6_MULTICAST_LOOP */
	{ LINUX_SOL_IPV6, 23, false },	 /* IPV6_MTU_DISCOVER */
	{ LINUX_SOL_IPV6, 24, true },	 /* IPV6_MTU */
	{ LINUX_SOL_IPV6, 25, false },	 /* IPV6_RECVERR */
	{ LINUX_SOL_IPV6, 26, false },	 /* IPV6_V6ONLY */
	{ LINUX_SOL_IPV6, 49, false },	 /* IPV6_RECVPKTINFO */
	{ LINUX_SOL_IPV6, 51, false },	 /* IPV6_RECVHOPLIMIT */
	{ LINUX_SOL_IPV6, 74, false },	 /* IPV6_RECVORIGDSTADDR */
	{ LINUX_SOL_IPV6, 66, false },	 /* IPV6_RECVTCLASS */
	{ LINUX_SOL_IPV6, 67, false },	 /* IPV6_TCLASS */
	{ LINUX_SOL_UDP, 1, false },	 /* UDP_CORK */
};

static int host_opt(int level, int name, bool set)
{
	size_t i;

	for (i = 0; i < sizeof(host_opts) / sizeof(host_opts[0]); i++)
		if (host_opts[i].level == level && host_opts[i].name == name)
			return set && host_opts[i].get_only ? -1 : 1;
	return 0;
}

/* The value sys_setsockopt copied: the guest's length, but no more than
 * it copied (a timeval at SOL_SOCKET, an int elsewhere). */
static int copied_len(int level, unsigned len)
{
	unsigned max = level == LINUX_SOL_SOCKET ? sizeof(struct linux_timeval) : sizeof(int);

	return (int)(len < max ? len : max);
}

static int hs_setsockopt(struct socket *s, int level, int name, const void *val, unsigned len)
{
	struct host_sock *hs = hsk(s);
	int opt = host_opt(level, name, true), ret;

	if (level == LINUX_SOL_SOCKET && opt <= 0) {
		if (name == LINUX_SO_SNDBUFFORCE || name == LINUX_SO_RCVBUFFORCE) {
			/* the host user has no CAP_NET_ADMIN: its ceiling */
			if (!capable(&current->proc->cred, CAP_NET_ADMIN))
				return -EPERM;
			name = name == LINUX_SO_SNDBUFFORCE ? LINUX_SO_SNDBUF : LINUX_SO_RCVBUF;
			return host_net_setsockopt(hs->host_fd, level, name, val,
						   copied_len(level, len));
		}
		/* a socket filter, checked and kept for SO_GET_FILTER, runs
		 * on the host's socket: the host takes it first */
		if (name == LINUX_SO_ATTACH_FILTER) {
			struct sock_filter_prog *f;
			struct linux_sock_fprog fp;

			ret = sock_filter_prepare(s, val, len, &f);
			if (ret < 0)
				return ret;
			fp = (struct linux_sock_fprog){ .len = (uint16_t)f->len,
							.filter = (uint64_t)(uintptr_t)f->insns };
			ret = host_net_setsockopt(hs->host_fd, level, name, &fp, sizeof(fp));
			if (ret < 0)
				free(f);
			else
				sock_filter_install(s, f);
			return ret;
		}
		/* the kernel's own: timeouts, SO_LINGER, SO_PASSCRED... */
		ret = sock_setsockopt(s, level, name, val, len);
		if (ret == 0 && (name == LINUX_SO_DETACH_FILTER || name == LINUX_SO_LOCK_FILTER))
			ret = host_net_setsockopt(hs->host_fd, level, name, val,
						  copied_len(level, len));
		if (ret == 0 && name == LINUX_SO_LINGER) {
			struct linux_linger l = { 0, 0 };

			if (sock_linger_zero(s))
				l.l_onoff = 1; /* the reset of an abortive close */
			ret = host_net_setsockopt(hs->host_fd, level, name, &l, sizeof(l));
		}
		return ret;
	}
	if (opt <= 0)
		return -ENOPROTOOPT;
	return host_net_setsockopt(hs->host_fd, level, name, val, copied_len(level, len));
}

static int hs_getsockopt(struct socket *s, int level, int name, void *val, int *len)
{
	int opt = host_opt(level, name, false);

	if (level == LINUX_SOL_SOCKET && name == LINUX_SO_ERROR && s->err) {
		int err = -sock_error(s);

		if (*len < 0)
			return -EINVAL;
		if (*len > (int)sizeof(err))
			*len = sizeof(err);
		memcpy(val, &err, *len);
		return 0;
	}
	if (level == LINUX_SOL_SOCKET && opt == 0)
		return sock_getsockopt(s, level, name, val, len);
	if (opt == 0)
		return -ENOPROTOOPT;
	if (*len < 0)
		return -EINVAL;
	if (*len > HOST_OPT_MAX)
		*len = HOST_OPT_MAX; /* sys_getsockopt's buffer */
	return host_net_getsockopt(hsk(s)->host_fd, level, name, val, len);
}

static void hs_release(struct socket *s)
{
	struct host_sock *hs = hsk(s);

	host_evloop_edge_del(&hs->ew);
	if (hs->host_fd >= 0)
		host_close(hs->host_fd);
	hs->host_fd = -1;
	waitq_wake_all(&s->wq);
}

static void hs_destroy(struct socket *s)
{
	struct host_sock *hs = hsk(s);

	if (hs->host_fd >= 0)
		hs_release(s);
	waitq_release(&s->wq);
	free(hs);
}

static const struct proto_ops hostinet_ops = {
	.bind = hs_bind,
	.connect = hs_connect,
	.listen = hs_listen,
	.accept = hs_accept,
	.getname = hs_getname,
	.sendmsg = hs_sendmsg,
	.recvmsg = hs_recvmsg,
	.shutdown = hs_shutdown,
	.poll = hs_poll,
	.inq = hs_inq,
	.ioctl = hs_ioctl,
	.peercred = hs_peercred,
	.setsockopt = hs_setsockopt,
	.getsockopt = hs_getsockopt,
	.sol_socket = true,
	.release = hs_release,
	.destroy = hs_destroy,
};
