/* net/tcp.c: TCP as applications see it on loopback. connect() finds the
 * listener by address and port and, as AF_UNIX stream connect does, makes
 * the server's end at once and queues it for accept(): the handshake is
 * instant, so a nonblocking connect says EINPROGRESS and is already
 * writable. Data, readiness, accept and the end of a connection are
 * AF_UNIX stream code (net/unix*.c); what differs is here: the errors of
 * unconnected sockets, that a close with nothing unread is a FIN (the
 * peer reads EOF and may still be written to... until it learns, here at
 * once: EPIPE) and one with data unread, or with SO_LINGER of 0, a reset
 * (ECONNRESET).
 * Differs from Linux: when the listener's queue is full a blocking
 * connect waits for room (Linux retries its SYN, which comes to the
 * same) and a nonblocking one is queued beyond the backlog; out-of-band
 * data (MSG_OOB) is EOPNOTSUPP; connect(AF_UNSPEC) on a connection
 * (tcp_disconnect) is EINVAL; SCM_RIGHTS is ignored, as Linux does. */
#include <stdlib.h>
#include <string.h>

#include "net/inet.h"
#include "kernel/task.h"
#include "abi/linux/errno.h"
#include "abi/linux/poll.h"

/* The listener for dst:port: one bound to that address before one bound
 * to a wildcard (Linux's lookup score). */
static struct inet_sock *find_listener(const uint8_t dst[16], uint16_t port)
{
	struct inet_sock *o, *best = NULL;

	list_for_each_entry(o, inet_table(LINUX_IPPROTO_TCP), port_link)
	{
		if (o->sport != port || o->u.sk.state != SS_LISTEN || !inet_covers(o, dst))
			continue;
		if (memcmp(o->saddr, dst, 16) == 0)
			return o;
		if (!best)
			best = o;
	}
	return best;
}

/* Waits for a listener with room: *out, not a reference (the caller
 * does not sleep again before using it). */
static int wait_listener(struct socket *s, const uint8_t dst[16], uint16_t port, int64_t deadline,
			 struct inet_sock **out)
{
	struct inet_sock *l;
	int ret;

	for (;;) {
		l = find_listener(dst, port);
		if (!l)
			return -ECONNREFUSED;
		if (!unix_recvq_full(&l->u) || deadline == 0) {
			*out = l;
			return 0;
		}
		sock_get(&l->u.sk);
		ret = sock_wait(&l->u.peer_wait, deadline);
		sock_put(&l->u.sk);
		if (ret < 0)
			return ret == -EAGAIN ? -ETIMEDOUT : ret;
		if (s->state != SS_CLOSE)
			return -EISCONN; /* another thread connected it meanwhile */
	}
}

/* A connection refused to a nonblocking connect: reported by poll
 * (POLLERR, POLLHUP) and SO_ERROR, as the reset that answers a SYN. */
static int refuse_later(struct socket *s)
{
	s->err = ECONNREFUSED;
	s->shutdown = SHUTDOWN_MASK;
	waitq_wake_all(&s->wq);
	return -EINPROGRESS;
}

static int tcp_connect(struct task *t, struct socket *s, const struct linux_sockaddr_storage *a,
		       int len, bool nonblock)
{
	struct inet_sock *in = inet_sk(s), *l, *child;
	uint8_t dst[16], src[16];
	uint16_t port;
	struct skb *skb;
	int ret;

	(void)t;
	if (len < (int)sizeof(a->ss_family))
		return -EINVAL;
	if (a->ss_family == LINUX_AF_UNSPEC)
		return s->state == SS_CLOSE ? 0 : -EINVAL; /* tcp_disconnect: not here */
	if (s->state != SS_CLOSE)
		return -EISCONN;
	ret = inet_dest(in, a, len, dst, &port);
	if (ret == 0)
		ret = inet_source(in, dst, src);
	if (ret == 0)
		ret = inet_autobind(in);
	if (ret < 0)
		return ret;
	ret = wait_listener(s, dst, port, sock_deadline(s->sndtimeo, nonblock), &l);
	if (ret < 0) {
		if (!in->port_locked)
			inet_unhash(in); /* an ephemeral port goes with the attempt */
		return ret == -ECONNREFUSED && nonblock ? refuse_later(s) : ret;
	}
	child = inet_alloc(l->u.sk.family, LINUX_SOCK_STREAM, LINUX_IPPROTO_TCP);
	skb = calloc(1, sizeof(*skb));
	if (!child || !skb) {
		if (child)
			sock_put(&child->u.sk);
		free(skb);
		return -ENOMEM;
	}
	inet_inherit(child, l);
	memcpy(child->saddr, dst, 16);
	child->sport = port; /* not in the port table: see inet.c */
	memcpy(child->daddr, src, 16);
	child->dport = in->sport;
	child->connected = true;
	if (!in->addr_locked)
		memcpy(in->saddr, src, 16);
	memcpy(in->daddr, dst, 16);
	in->dport = port;
	in->connected = true;
	s->shutdown = 0;
	s->err = 0;
	unix_queue_embryo(&in->u, &l->u, &child->u, skb);
	return nonblock ? -EINPROGRESS : 0;
}

static int tcp_listen(struct task *t, struct socket *s, int backlog)
{
	struct inet_sock *in = inet_sk(s);
	int ret;

	(void)t;
	if (s->state != SS_CLOSE && s->state != SS_LISTEN)
		return -EINVAL;
	if (s->state == SS_CLOSE) {
		ret = inet_listen_port(in);
		if (ret < 0)
			return ret;
	}
	if (backlog > in->u.max_backlog)
		waitq_wake_all(&in->u.peer_wait);
	in->u.max_backlog = backlog;
	s->shutdown = 0;
	s->state = SS_LISTEN;
	return 0;
}

static long tcp_sendmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags)
{
	int err;

	/* TCP reads no address (without MSG_FASTOPEN) and no SCM_RIGHTS. */
	m->namelen = 0;
	scm_destroy(&m->scm);
	m->scm.has_cred = false;
	if (s->state != SS_ESTABLISHED) {
		err = sock_error(s);
		if (err < 0)
			return err;
		if (!(flags & LINUX_MSG_NOSIGNAL))
			send_sigpipe();
		return -EPIPE; /* sk_stream_wait_connect */
	}
	return unix_stream_sendmsg(t, s, m, flags);
}

static long tcp_recvmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags)
{
	int err;

	if (flags & LINUX_MSG_ERRQUEUE)
		return -EAGAIN; /* the error queue is always empty */
	if (s->state != SS_ESTABLISHED) {
		if (s->state == SS_LISTEN)
			return -ENOTCONN;
		err = sock_error(s);
		if (err < 0)
			return err;
		return (s->shutdown & RCV_SHUTDOWN) ? 0 : -ENOTCONN;
	}
	return unix_stream_recvmsg(t, s, m, flags);
}

static void tcp_release(struct socket *s)
{
	struct inet_sock *in = inet_sk(s);
	struct unix_sock *pair = in->u.peer;
	/* data unread, or SO_LINGER of 0: a reset, else a FIN */
	bool reset = (!list_empty(&in->u.queue) || sock_linger_zero(s)) && s->state != SS_LISTEN;
	unsigned old = 0;

	if (pair) {
		unix_get(pair);
		old = pair->sk.shutdown;
	}
	inet_unhash(in);
	unix_release_sock(&in->u, false);
	if (pair) {
		/* A FIN: the peer reads what is left, then EOF (no POLLHUP);
		 * a reset: what is left, then ECONNRESET. */
		if (!pair->dead && !reset)
			pair->sk.shutdown = old | RCV_SHUTDOWN;
		else if (!pair->dead)
			pair->sk.err = ECONNRESET;
		unix_put(pair);
	}
}

const struct proto_ops tcp_ops = {
	.bind = inet_bind,
	.connect = tcp_connect,
	.socketpair = inet_socketpair,
	.listen = tcp_listen,
	.accept = unix_accept,
	.getname = inet_getname,
	.sendmsg = tcp_sendmsg,
	.recvmsg = tcp_recvmsg,
	.shutdown = inet_shutdown,
	.poll = unix_poll,
	.inq = unix_inq,
	.peercred = unix_peercred,
	.setsockopt = inet_setsockopt,
	.getsockopt = inet_getsockopt,
	.release = tcp_release,
	.destroy = inet_destroy,
};
