/* net/netlink.c: AF_NETLINK sockets, SOCK_RAW or SOCK_DGRAM, of the
 * protocols there are: NETLINK_ROUTE (net/rtnetlink.c),
 * NETLINK_SOCK_DIAG (net/sock_diag.c) and NETLINK_KOBJECT_UEVENT (here:
 * no device comes or goes, so the kernel's group 1 carries only what a
 * process with CAP_SYS_ADMIN sends the kernel, as Linux's
 * uevent_net_rcv; udevd's group 2 is sockets' own). A request sent to
 * port 0 is answered before sendmsg returns: its replies are queued on
 * the sender as datagrams from port 0. Sockets can also send each other
 * datagrams, by port or by multicast group, as on Linux.
 * Differs from Linux: an automatically chosen port past the first (the
 * tgid) counts down from -4097 rather than from a random value; a dump
 * is made whole at once, so a second request never finds one running
 * (no EBUSY) and a dump larger than the receive buffer loses its rest
 * with ENOBUFS (none is: the guest has one device); no error carries
 * extended-ack attributes (NETLINK_EXT_ACK is kept and reads back). The
 * other protocols are EPROTONOSUPPORT, as on a Linux whose module for
 * one is not loaded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/netlink.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "kernel/cred.h"
#include "vfs/poll.h"
#include "abi/linux/errno.h"
#include "abi/linux/poll.h"
#include "abi/linux/sock_diag.h"

#define CAP_NET_ADMIN  12
#define NL_OVERHEAD    320 /* what a queued buffer costs beyond its data */
#define RTNL_NGROUPS   39  /* NETLINK_ROUTE's multicast groups (Linux 6.18) */
#define MIN_NGROUPS    32  /* a kernel socket's least (sock_diag's) */
#define AUTOBIND_FIRST (-4097)

struct nl_buf {
	struct list_head link;
	uint32_t portid; /* the sender's port (0: the kernel)... */
	uint32_t group;	 /* ...and the group it was sent to (0: none) */
	struct linux_ucred cred;
	size_t len;
	uint8_t data[];
};

static const struct proto_ops netlink_ops;
static LIST_HEAD_DECL(bound_socks);
static int32_t rover = AUTOBIND_FIRST;

static struct nl_sock *nl_sk(struct socket *s)
{
	return (struct nl_sock *)s;
}

#define CAP_SYS_ADMIN	   21
#define UEVENT_BUFFER_SIZE 2048 /* Linux's: a message with its SEQNUM */

static uint64_t uevent_seqnum;

static unsigned nl_ngroups(const struct nl_sock *s)
{
	return s->sk.protocol == LINUX_NETLINK_ROUTE ? RTNL_NGROUPS : MIN_NGROUPS;
}

/* netlink_allowed(NL_CFG_F_NONROOT_RECV): anyone may join NETLINK_ROUTE's
 * and the uevents' groups; sock_diag's (SOCK_DESTROY's notices) need
 * CAP_NET_ADMIN. */
static bool nl_may_join(const struct nl_sock *s)
{
	return s->sk.protocol == LINUX_NETLINK_ROUTE ||
	       s->sk.protocol == LINUX_NETLINK_KOBJECT_UEVENT ||
	       capable(&current->proc->cred, CAP_NET_ADMIN);
}

/* --- building messages --- */

static void *nlbuf_reserve(struct nlbuf *b, size_t n)
{
	size_t need = b->len + LINUX_NLMSG_ALIGN(n);
	void *p;

	if (b->oom)
		return NULL;
	if (need > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 1024;
		uint8_t *d;

		while (cap < need)
			cap *= 2;
		d = realloc(b->data, cap);
		if (!d) {
			b->oom = true;
			return NULL;
		}
		b->data = d;
		b->cap = cap;
	}
	p = b->data + b->len;
	memset(p, 0, LINUX_NLMSG_ALIGN(n));
	b->len = need;
	return p;
}

size_t nlmsg_begin(struct nlbuf *b, uint16_t type, uint16_t flags, uint32_t seq, uint32_t portid,
		   const void *fixed, size_t len)
{
	size_t start = b->len;
	struct linux_nlmsghdr h = { 0, type, flags, seq, portid };
	uint8_t *p = nlbuf_reserve(b, sizeof(h) + len);

	if (p) {
		memcpy(p, &h, sizeof(h));
		memcpy(p + sizeof(h), fixed, len);
	}
	return start;
}

void nlmsg_end(struct nlbuf *b, size_t start)
{
	uint32_t len = (uint32_t)(b->len - start);

	if (!b->oom)
		memcpy(b->data + start, &len, sizeof(len));
}

void nla_put(struct nlbuf *b, uint16_t type, const void *data, size_t len)
{
	struct linux_nlattr a = { (uint16_t)(sizeof(a) + len), type };
	uint8_t *p = nlbuf_reserve(b, sizeof(a) + len);

	if (p) {
		memcpy(p, &a, sizeof(a));
		if (len)
			memcpy(p + sizeof(a), data, len);
	}
}

void nla_put_u32(struct nlbuf *b, uint16_t type, uint32_t v)
{
	nla_put(b, type, &v, sizeof(v));
}

void nla_put_u8(struct nlbuf *b, uint16_t type, uint8_t v)
{
	nla_put(b, type, &v, sizeof(v));
}

size_t nla_nest_begin(struct nlbuf *b, uint16_t type)
{
	size_t start = b->len;

	nla_put(b, type, NULL, 0);
	return start;
}

void nla_nest_end(struct nlbuf *b, size_t start)
{
	uint16_t len = (uint16_t)(b->len - start);

	if (!b->oom)
		memcpy(b->data + start, &len, sizeof(len));
}

/* --- queues --- */

/* Queues a datagram on s, as much of it as s's filter keeps: false when
 * its queue is past SO_RCVBUF (checked before adding, as
 * netlink_attachskb: the first always goes in) or the instance's socket
 * memory is used up. */
static bool nl_queue(struct nl_sock *s, const void *data, size_t len, uint32_t portid,
		     uint32_t group, const struct linux_ucred *cred)
{
	struct nl_buf *nb;

	/* Its filter first (sk_filter): what it drops is no loss. */
	if (!sock_filter_data(&s->sk, data, len, &len))
		return true;
	if (s->rmem > (size_t)s->sk.rcvbuf || !sock_mem_charge(len + NL_OVERHEAD))
		return false;
	nb = malloc(sizeof(*nb) + len);
	if (!nb) {
		sock_mem_uncharge(len + NL_OVERHEAD);
		return false;
	}
	nb->portid = portid;
	nb->group = group;
	nb->cred = *cred;
	nb->len = len;
	memcpy(nb->data, data, len);
	list_add_tail(&nb->link, &s->queue);
	s->rmem += len + NL_OVERHEAD;
	waitq_wake(&s->sk.wq, LINUX_POLLIN | LINUX_POLLRDNORM);
	return true;
}

static void nl_buf_free(struct nl_sock *s, struct nl_buf *nb)
{
	list_del(&nb->link);
	s->rmem -= nb->len + NL_OVERHEAD;
	sock_mem_uncharge(nb->len + NL_OVERHEAD);
	free(nb);
}

/* netlink_overrun: the receiver learns of a lost datagram. */
static void nl_overrun(struct nl_sock *s)
{
	if (s->nlflags & NLF_NO_ENOBUFS)
		return;
	s->sk.err = ENOBUFS;
	waitq_wake_all(&s->sk.wq);
}

void netlink_send_kernel(struct nl_sock *s, struct nlbuf *b)
{
	static const struct linux_ucred kernel_cred; /* pid, uid and gid 0 */

	if (!b->oom && b->len && !nl_queue(s, b->data, b->len, 0, 0, &kernel_cred))
		nl_overrun(s);
	free(b->data);
	memset(b, 0, sizeof(*b));
}

void netlink_rcv_skb(struct nl_sock *s, const uint8_t *data, size_t len, netlink_msg_fn msg,
		     const void *arg)
{
	while (len >= LINUX_NLMSG_HDRLEN) {
		const struct linux_nlmsghdr *nlh = (const struct linux_nlmsghdr *)data;
		size_t msglen;
		int err = 0;

		if (nlh->nlmsg_len < LINUX_NLMSG_HDRLEN || len < nlh->nlmsg_len)
			return;
		if ((nlh->nlmsg_flags & LINUX_NLM_F_REQUEST) &&
		    nlh->nlmsg_type >= LINUX_NLMSG_MIN_TYPE)
			err = msg(s, nlh, len, arg);
		if (err != NETLINK_DUMPED && ((nlh->nlmsg_flags & LINUX_NLM_F_ACK) || err))
			netlink_ack(s, nlh, err);
		msglen = LINUX_NLMSG_ALIGN(nlh->nlmsg_len);
		if (msglen > len)
			msglen = len;
		data += msglen;
		len -= msglen;
	}
}

void netlink_ack(struct nl_sock *s, const struct linux_nlmsghdr *nlh, int err)
{
	/* an error echoes the whole request unless NETLINK_CAP_ACK; an
	 * acknowledgment only its header (NLM_F_CAPPED) */
	bool capped = !err || (s->nlflags & NLF_CAP_ACK);
	size_t echo = capped ? sizeof(*nlh) : nlh->nlmsg_len;
	struct nlbuf b = { 0 };
	size_t start = nlmsg_begin(&b, LINUX_NLMSG_ERROR, capped ? LINUX_NLM_F_CAPPED : 0,
				   nlh->nlmsg_seq, s->portid, &err, sizeof(err));
	uint8_t *p = nlbuf_reserve(&b, echo);

	if (p)
		memcpy(p, nlh, echo);
	nlmsg_end(&b, start);
	netlink_send_kernel(s, &b);
}

/* --- ports --- */

/* Ports are per network namespace. */
static struct nl_sock *nl_lookup(const struct net_ns *net, int protocol, uint32_t portid)
{
	struct nl_sock *o;

	list_for_each_entry(o, &bound_socks, bound_link)
	{
		if (o->sk.protocol == protocol && o->portid == portid && o->sk.net == net)
			return o;
	}
	return NULL;
}

static int nl_insert(struct nl_sock *s, uint32_t portid)
{
	if (nl_lookup(s->sk.net, s->sk.protocol, portid))
		return -EADDRINUSE;
	s->portid = portid;
	s->bound = true;
	list_add_tail(&s->bound_link, &bound_socks);
	return 0;
}

/* netlink_autobind: the tgid first, then negative numbers. */
static int nl_autobind(struct nl_sock *s)
{
	uint32_t portid = (uint32_t)pid_vnr(current, current->proc->pid);

	if (s->bound)
		return 0;
	while (nl_lookup(s->sk.net, s->sk.protocol, portid)) {
		portid = (uint32_t)rover;
		rover = rover == INT32_MIN ? AUTOBIND_FIRST : rover - 1;
	}
	return nl_insert(s, portid);
}

static int nl_check_addr(const struct linux_sockaddr_storage *a, int len)
{
	if (len < (int)sizeof(struct linux_sockaddr_nl) || a->ss_family != LINUX_AF_NETLINK)
		return -EINVAL;
	return 0;
}

static int netlink_bind(struct task *t, struct socket *sk, const struct linux_sockaddr_storage *a,
			int len)
{
	struct nl_sock *s = nl_sk(sk);
	struct linux_sockaddr_nl nl;
	int ret = nl_check_addr(a, len);

	(void)t;
	if (ret < 0)
		return ret;
	memcpy(&nl, a, sizeof(nl));
	if (nl.nl_groups && !nl_may_join(s))
		return -EPERM;
	if (s->bound && nl.nl_pid != s->portid)
		return -EINVAL;
	if (!s->bound) {
		ret = nl.nl_pid ? nl_insert(s, nl.nl_pid) : nl_autobind(s);
		if (ret < 0)
			return ret;
	}
	/* the groups of the address replace the first 32 (netlink_bind) */
	s->groups = (s->groups & ~(uint64_t)0xffffffff) | nl.nl_groups;
	return 0;
}

static int netlink_connect(struct task *t, struct socket *sk,
			   const struct linux_sockaddr_storage *a, int len, bool nonblock)
{
	struct nl_sock *s = nl_sk(sk);
	struct linux_sockaddr_nl nl;
	int ret;

	(void)t;
	(void)nonblock;
	if (len < (int)sizeof(a->ss_family))
		return -EINVAL;
	if (a->ss_family == LINUX_AF_UNSPEC) {
		sk->state = SS_CLOSE;
		s->dst_portid = 0;
		s->dst_group = 0;
		return 0;
	}
	ret = nl_check_addr(a, len);
	if (ret < 0)
		return ret;
	memcpy(&nl, a, sizeof(nl));
	if ((nl.nl_groups || nl.nl_pid) && !capable(&current->proc->cred, CAP_NET_ADMIN))
		return -EPERM; /* as sendmsg's, below */
	ret = nl_autobind(s);
	if (ret < 0)
		return ret;
	sk->state = SS_ESTABLISHED;
	s->dst_portid = nl.nl_pid;
	s->dst_group = nl.nl_groups ? (uint32_t)__builtin_ffs((int)nl.nl_groups) : 0;
	return 0;
}

static int netlink_socketpair(struct task *t, struct socket *a, struct socket *b)
{
	(void)t;
	(void)a;
	(void)b;
	return -EOPNOTSUPP;
}

static int netlink_shutdown(struct socket *s, int how)
{
	(void)s;
	(void)how;
	return -EOPNOTSUPP; /* sock_no_shutdown */
}

/* getsockname: the port (0 before any bind) and the first 32 groups;
 * getpeername: connect()'s, even unconnected (never ENOTCONN). */
static int netlink_getname(struct socket *sk, struct linux_sockaddr_storage *a, bool peer)
{
	struct nl_sock *s = nl_sk(sk);
	struct linux_sockaddr_nl nl = { LINUX_AF_NETLINK, 0, 0, 0 };

	if (peer) {
		nl.nl_pid = s->dst_portid;
		nl.nl_groups = s->dst_group && s->dst_group <= 32 ? 1U << (s->dst_group - 1) : 0;
	} else {
		nl.nl_pid = s->portid;
		nl.nl_groups = (uint32_t)s->groups;
	}
	memset(a, 0, sizeof(*a));
	memcpy(a, &nl, sizeof(nl));
	return sizeof(nl);
}

/* A datagram from port portid of protocol's to the sockets of net in
 * group (1-based) but from. */
static void nl_multicast(const struct net_ns *net, struct nl_sock *from, int protocol,
			 uint32_t portid, uint32_t group, const void *data, size_t len,
			 const struct linux_ucred *cred)
{
	struct nl_sock *o;

	list_for_each_entry(o, &bound_socks, bound_link)
	{
		if (o == from || o->sk.net != net || o->sk.protocol != protocol || group > 64 ||
		    !(o->groups & (1ULL << (group - 1))))
			continue;
		if (!nl_queue(o, data, len, portid, group, cred))
			nl_overrun(o);
	}
}

static void nl_broadcast(struct nl_sock *from, uint32_t group, const void *data, size_t len,
			 const struct linux_ucred *cred)
{
	nl_multicast(from->sk.net, from, from->sk.protocol, from->portid, group, data, len, cred);
}

/* From the kernel (port 0) to every socket of the group in net. */
static void nl_group_send(const struct net_ns *net, int protocol, uint32_t group, const void *data,
			  size_t len, const struct linux_ucred *cred)
{
	nl_multicast(net, NULL, protocol, 0, group, data, len, cred);
}

void netlink_multicast_kernel(const struct net_ns *net, int protocol, uint32_t group,
			      struct nlbuf *b)
{
	static const struct linux_ucred kernel_cred; /* pid, uid and gid 0 */

	if (!b->oom && b->len)
		nl_group_send(net, protocol, group, b->data, b->len, &kernel_cred);
	free(b->data);
	memset(b, 0, sizeof(*b));
}

/* uevent_net_rcv_skb: a request from CAP_SYS_ADMIN goes to group 1 as an
 * event of the kernel's (port 0, the sender's credentials, cred): from past its
 * header to the datagram's end (any messages after it too, as Linux's
 * copy of the rest), and "SEQNUM=N" with its NUL after that. */
static int uevent_msg(struct nl_sock *s, const struct linux_nlmsghdr *nlh, size_t rest,
		      const void *cred)
{
	size_t n;
	char seq[32];
	uint8_t *ev;

	if (!capable(&current->proc->cred, CAP_SYS_ADMIN))
		return -EPERM;
	n = (size_t)snprintf(seq, sizeof(seq), "SEQNUM=%llu", (unsigned long long)++uevent_seqnum) +
	    1;
	if (rest + n > UEVENT_BUFFER_SIZE)
		return -EINVAL;
	ev = malloc(rest - LINUX_NLMSG_HDRLEN + n);
	if (!ev)
		return -ENOMEM;
	memcpy(ev, (const uint8_t *)nlh + LINUX_NLMSG_HDRLEN, rest - LINUX_NLMSG_HDRLEN);
	memcpy(ev + rest - LINUX_NLMSG_HDRLEN, seq, n);
	nl_group_send(s->sk.net, s->sk.protocol, 1, ev, rest - LINUX_NLMSG_HDRLEN + n, cred);
	free(ev);
	return 0;
}

static void uevent_rcv(struct nl_sock *s, const uint8_t *data, size_t len,
		       const struct linux_ucred *cred)
{
	netlink_rcv_skb(s, data, len, uevent_msg, cred);
}

static long netlink_sendmsg(struct task *t, struct socket *sk, struct kmsg *m, unsigned flags)
{
	struct nl_sock *s = nl_sk(sk);
	const struct cred *c = &t->proc->cred;
	size_t len = m->iter.count;
	uint32_t dst_portid = s->dst_portid, dst_group = s->dst_group;
	struct linux_ucred uc;
	uint8_t *data;
	long ret;

	if (flags & LINUX_MSG_OOB)
		return -EOPNOTSUPP;
	if (len == 0)
		return -ENODATA;
	if (m->scm.has_cred) {
		uc = m->scm.cred;
	} else {
		uc.pid = t->proc->pid;
		uc.uid = c->uid;
		uc.gid = c->gid;
	}
	scm_destroy(&m->scm); /* files passed go nowhere */
	if (m->has_name) {
		struct linux_sockaddr_nl nl;

		ret = nl_check_addr(&m->name, m->namelen);
		if (ret < 0)
			return ret;
		memcpy(&nl, &m->name, sizeof(nl));
		dst_portid = nl.nl_pid;
		dst_group = nl.nl_groups ? (uint32_t)__builtin_ffs((int)nl.nl_groups) : 0;
		/* only the kernel may be sent to without CAP_NET_ADMIN
		 * (NETLINK_ROUTE has no NL_CFG_F_NONROOT_SEND) */
		if ((dst_group || dst_portid) && !capable(c, CAP_NET_ADMIN))
			return -EPERM;
	}
	ret = nl_autobind(s);
	if (ret < 0)
		return ret;
	if (len > (size_t)sk->sndbuf - 32)
		return -EMSGSIZE;
	data = malloc(len);
	if (!data)
		return -ENOMEM;
	if (iter_copy_from(&m->iter, data, len) < 0) {
		free(data);
		return -EFAULT;
	}
	if (dst_group)
		nl_broadcast(s, dst_group, data, len, &uc);
	if (dst_portid == 0) {
		if (sk->protocol == LINUX_NETLINK_ROUTE)
			rtnetlink_rcv(s, data, len);
		else if (sk->protocol == LINUX_NETLINK_KOBJECT_UEVENT)
			uevent_rcv(s, data, len, &uc);
		else
			sock_diag_rcv(s, data, len);
	} else {
		struct nl_sock *to = nl_lookup(sk->net, sk->protocol, dst_portid);

		if (!to)
			ret = -ECONNREFUSED;
		else if (!nl_queue(to, data, len, s->portid, 0, &uc))
			ret = (flags & LINUX_MSG_DONTWAIT) ? -EAGAIN : -ENOBUFS;
	}
	free(data);
	return ret < 0 ? ret : (long)len;
}

static long netlink_recvmsg(struct task *t, struct socket *sk, struct kmsg *m, unsigned flags)
{
	struct nl_sock *s = nl_sk(sk);
	int64_t deadline = sock_deadline(sk->rcvtimeo, flags & LINUX_MSG_DONTWAIT);
	size_t size = m->iter.count;
	struct nl_buf *nb;
	long ret;

	(void)t;
	if (flags & LINUX_MSG_OOB)
		return -EOPNOTSUPP;
	for (;;) {
		ret = sock_error(sk);
		if (ret < 0)
			return ret;
		if (!list_empty(&s->queue))
			break;
		ret = sock_wait(&sk->wq, deadline);
		if (ret < 0)
			return ret;
	}
	nb = list_first_entry(&s->queue, struct nl_buf, link);
	if (size > nb->len)
		size = nb->len;
	else if (size < nb->len)
		m->flags |= LINUX_MSG_TRUNC;
	if (m->want_name) {
		struct linux_sockaddr_nl nl = { LINUX_AF_NETLINK, 0, nb->portid,
						nb->group && nb->group <= 32 ? 1U << (nb->group - 1)
									     : 0 };

		memset(&m->name, 0, sizeof(m->name));
		memcpy(&m->name, &nl, sizeof(nl));
		m->namelen = sizeof(nl);
	}
	m->scm.has_cred = true;
	m->scm.cred = nb->cred;
	/* a copy that faults loses the datagram, as skb_free_datagram */
	if (iter_copy_to(&m->iter, nb->data, size) < 0)
		ret = -EFAULT;
	else
		ret = (flags & LINUX_MSG_TRUNC) ? (long)nb->len : (long)size;
	if (!(flags & LINUX_MSG_PEEK))
		nl_buf_free(s, nb);
	return ret;
}

static unsigned netlink_poll(struct socket *sk, struct poll_table *pt)
{
	struct nl_sock *s = nl_sk(sk);
	unsigned mask = LINUX_POLLOUT | LINUX_POLLWRNORM | LINUX_POLLWRBAND;

	poll_wait(pt, &sk->wq);
	if (sk->err)
		mask |= LINUX_POLLERR;
	if (!list_empty(&s->queue))
		mask |= LINUX_POLLIN | LINUX_POLLRDNORM;
	return mask;
}

static long netlink_inq(struct socket *s)
{
	(void)s;
	return -ENOTTY; /* netlink has no SIOCINQ: not a socket ioctl there */
}

/* No peer: pid 0 and the overflow ids, as an unset sk_peer_cred. */
static int netlink_peercred(struct socket *s, struct linux_ucred *uc)
{
	(void)s;
	uc->pid = 0;
	uc->uid = uc->gid = (uint32_t)-1;
	return 0;
}

static unsigned opt_flag(int name)
{
	switch (name) {
	case LINUX_NETLINK_BROADCAST_ERROR:
		return NLF_BROADCAST_ERROR;
	case LINUX_NETLINK_NO_ENOBUFS:
		return NLF_NO_ENOBUFS;
	case LINUX_NETLINK_LISTEN_ALL_NSID:
		return NLF_LISTEN_ALL_NSID;
	case LINUX_NETLINK_CAP_ACK:
		return NLF_CAP_ACK;
	case LINUX_NETLINK_EXT_ACK:
		return NLF_EXT_ACK;
	case LINUX_NETLINK_GET_STRICT_CHK:
		return NLF_STRICT_CHK;
	default:
		return 0;
	}
}

/* netlink_setsockopt: the value is an int, 0 when shorter. NETLINK_PKTINFO
 * is ENOPROTOOPT: its control message is not made here, and saying so is
 * better than taking the option and never delivering it; the rings went
 * from Linux itself (ENOPROTOOPT there too). */
static int netlink_setsockopt(struct socket *sk, int level, int name, const void *optval,
			      unsigned len)
{
	struct nl_sock *s = nl_sk(sk);
	int val = 0;

	if (level != LINUX_SOL_NETLINK)
		return -ENOPROTOOPT;
	if (len >= sizeof(int))
		memcpy(&val, optval, sizeof(val));
	switch (name) {
	case LINUX_NETLINK_ADD_MEMBERSHIP:
	case LINUX_NETLINK_DROP_MEMBERSHIP:
		if (!nl_may_join(s))
			return -EPERM;
		if (!val || (unsigned)val - 1 >= nl_ngroups(s))
			return -EINVAL;
		if (name == LINUX_NETLINK_ADD_MEMBERSHIP) {
			int ret = nl_autobind(s);

			if (ret < 0)
				return ret;
			s->groups |= 1ULL << (val - 1);
		} else {
			s->groups &= ~(1ULL << (val - 1));
		}
		return 0;
	case LINUX_NETLINK_BROADCAST_ERROR:
	case LINUX_NETLINK_NO_ENOBUFS:
	case LINUX_NETLINK_LISTEN_ALL_NSID:
	case LINUX_NETLINK_CAP_ACK:
	case LINUX_NETLINK_EXT_ACK:
	case LINUX_NETLINK_GET_STRICT_CHK:
		s->nlflags = val ? s->nlflags | opt_flag(name) : s->nlflags & ~opt_flag(name);
		if (name == LINUX_NETLINK_NO_ENOBUFS && val)
			waitq_wake_all(&sk->wq); /* netlink_rcv_wake */
		return 0;
	default:
		return -ENOPROTOOPT;
	}
}

static int netlink_getsockopt(struct socket *sk, int level, int name, void *optval, int *len)
{
	struct nl_sock *s = nl_sk(sk);
	int val;

	if (level != LINUX_SOL_NETLINK)
		return -ENOPROTOOPT;
	if (*len < 0)
		return -EINVAL;
	switch (name) {
	case LINUX_NETLINK_LIST_MEMBERSHIPS: {
		/* as many of the u32 words as fit, and the size of all */
		uint32_t words[2] = { (uint32_t)s->groups, (uint32_t)(s->groups >> 32) };
		int all = (int)(nl_ngroups(s) + 31) / 32 * 4;

		/* Linux reports the whole bitmap's size even when fewer
		 * words fit; here the size is what was copied then */
		*len = *len < all ? *len / 4 * 4 : all;
		memcpy(optval, words, (size_t)*len);
		return 0;
	}
	case LINUX_NETLINK_BROADCAST_ERROR:
	case LINUX_NETLINK_NO_ENOBUFS:
	case LINUX_NETLINK_LISTEN_ALL_NSID:
	case LINUX_NETLINK_CAP_ACK:
	case LINUX_NETLINK_EXT_ACK:
	case LINUX_NETLINK_GET_STRICT_CHK:
		if (*len < (int)sizeof(int))
			return -EINVAL;
		val = !!(s->nlflags & opt_flag(name));
		memcpy(optval, &val, sizeof(val));
		*len = sizeof(int);
		return 0;
	default:
		return -ENOPROTOOPT;
	}
}

static void netlink_release(struct socket *sk)
{
	struct nl_sock *s = nl_sk(sk);

	if (s->bound) {
		list_del(&s->bound_link);
		s->bound = false;
	}
	while (!list_empty(&s->queue))
		nl_buf_free(s, list_first_entry(&s->queue, struct nl_buf, link));
}

static void netlink_destroy(struct socket *sk)
{
	netlink_release(sk);
	free(nl_sk(sk));
}

static const struct proto_ops netlink_ops = {
	.bind = netlink_bind,
	.connect = netlink_connect,
	.socketpair = netlink_socketpair,
	.listen = sock_no_listen,
	.accept = sock_no_accept,
	.getname = netlink_getname,
	.sendmsg = netlink_sendmsg,
	.recvmsg = netlink_recvmsg,
	.shutdown = netlink_shutdown,
	.poll = netlink_poll,
	.inq = netlink_inq,
	.peercred = netlink_peercred,
	.setsockopt = netlink_setsockopt,
	.getsockopt = netlink_getsockopt,
	.release = netlink_release,
	.destroy = netlink_destroy,
};

int netlink_create(int type, int protocol, struct socket **out)
{
	struct nl_sock *s;

	if (type != LINUX_SOCK_RAW && type != LINUX_SOCK_DGRAM)
		return -ESOCKTNOSUPPORT;
	if (protocol < 0 || protocol >= LINUX_MAX_LINKS)
		return -EPROTONOSUPPORT;
	if (protocol != LINUX_NETLINK_ROUTE && protocol != LINUX_NETLINK_SOCK_DIAG &&
	    protocol != LINUX_NETLINK_KOBJECT_UEVENT)
		return -EPROTONOSUPPORT;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	sock_init(&s->sk, LINUX_AF_NETLINK, type, &netlink_ops);
	s->sk.protocol = protocol;
	list_init(&s->queue);
	list_init(&s->bound_link);
	*out = &s->sk;
	return 0;
}
