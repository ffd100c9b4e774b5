/* net/tcp.c: TCP as applications see it on loopback. connect() finds the
 * listener by address and port and, as AF_UNIX stream connect does, makes
 * the server's end at once and queues it for accept(): the handshake is
 * instant, so a nonblocking connect says EINPROGRESS and is already
 * writable. Data, readiness, accept and the end of a connection are
 * AF_UNIX stream code (net/unix*.c); what differs is here: the errors of
 * unconnected sockets, that a close with nothing unread is a FIN (the
 * peer reads EOF and may still be written to: the first write after the
 * peer's close is taken, as Linux sends it and hears the reset, and the
 * ones after it are EPIPE) and one with data unread, or with SO_LINGER of 0, a reset
 * (ECONNRESET). When the listener's queue is full (Linux drops the SYN
 * and the client sends it again) the connect waits, SS_CONNECTING, in
 * the listener's syn_queue until an accept makes room: never past the
 * backlog, so clients cannot grow a listener's queue without bound.
 * Differs from Linux: a waiting connect gets in as soon as there is room
 * (Linux: at its next SYN) and waits forever (Linux gives up after its
 * retries, ETIMEDOUT); connect(AF_UNSPEC) on a connection
 * (tcp_disconnect) is EINVAL; SCM_RIGHTS is ignored, as Linux does.
 * Out-of-band data (MSG_OOB) is Linux's urgent byte: the last byte of
 * such a send, which the reader takes with recv(MSG_OOB) (or inline,
 * SO_OOBINLINE), where reads stop, SIGURG, POLLPRI and SIOCATMARK say it
 * is there, and a newer one makes the older plain data. */
#include <stdlib.h>
#include <string.h>

#include "net/inet.h"
#include "abi/linux/sock_diag.h"
#include "kernel/task.h"
#include "abi/linux/errno.h"
#include "abi/linux/poll.h"
#include "vfs/fown.h"

/* The listener for dst:port: one bound to that address before one bound
 * to a wildcard (Linux's lookup score). */
static struct inet_sock *find_listener(const struct net_ns *net, const uint8_t dst[16],
				       uint16_t port)
{
	struct inet_sock *o, *best = NULL;

	list_for_each_entry(o, inet_table(LINUX_IPPROTO_TCP, port), port_link)
	{
		if (o->sport != port || o->u.sk.net != net || o->u.sk.state != SS_LISTEN ||
		    !inet_covers(o, dst))
			continue;
		if (memcmp(o->saddr, dst, 16) == 0)
			return o;
		if (!best)
			best = o;
	}
	return best;
}

struct tcp_mib tcp_mib;

int tcp_sk_state(const struct inet_sock *in)
{
	if (in->u.sk.state == SS_LISTEN)
		return LINUX_TCP_LISTEN;
	if (in->u.sk.state == SS_CONNECTING)
		return LINUX_TCP_SYN_SENT;
	if (!in->connected || tcp_closed(in))
		return LINUX_TCP_CLOSE;
	if (in->fin_sent)
		return LINUX_TCP_FIN_WAIT2; /* the FIN is acknowledged at once */
	if (in->fin_rcvd)
		return LINUX_TCP_CLOSE_WAIT;
	return LINUX_TCP_ESTABLISHED;
}

/* struct tcp_info of an idle loopback connection (tcp_get_info): the
 * fields skas knows, the rest 0. */
void tcp_get_info(const struct inet_sock *in, uint8_t *p)
{
	int state = tcp_sk_state(in);
	uint32_t w[24] = { 0 };

	memset(p, 0, TCP_INFO_SIZE);
	p[0] = (uint8_t)state;
	if (state == LINUX_TCP_LISTEN) {
		w[4] = (uint32_t)in->u.qlen;	    /* tcpi_unacked: the accept queue */
		w[5] = (uint32_t)in->u.max_backlog; /* tcpi_sacked: its limit */
	} else {
		w[0] = state == LINUX_TCP_SYN_SENT ? 1000000 : 204000; /* tcpi_rto, us */
		w[2] = 32768;					       /* tcpi_snd_mss */
		w[3] = 536;					       /* tcpi_rcv_mss */
		w[13] = 65535;					       /* tcpi_pmtu */
		w[14] = 65483;					       /* tcpi_rcv_ssthresh */
		w[17] = 0x7fffffff; /* tcpi_snd_ssthresh: TCP_INFINITE_SSTHRESH */
		w[19] = 65483;	    /* tcpi_advmss */
		w[22] = 65483;	    /* tcpi_rcv_space */
		if (state != LINUX_TCP_SYN_SENT) {
			p[5] = 7;    /* TCPI_OPT_TIMESTAMPS | SACK | WSCALE */
			p[6] = 0xaa; /* window scales 10 and 10 */
		}
	}
	w[18] = 10; /* tcpi_snd_cwnd: TCP_INIT_CWND */
	w[20] = 3;  /* tcpi_reordering */
	memcpy(p + 8, w, sizeof(w));
}

/* Linux's TCP buffer sizes: a new socket's are net.ipv4.tcp_wmem[1] and
 * tcp_rmem[1] (tcp_init_sock); once connected, tcp_sndbuf_expand sizes
 * the send buffer for ten segments of loopback's 64 KiB MSS (each taking
 * 128 KiB of skb head and a 256-byte sk_buff), twice over (cubic's
 * factor): 2626560, below tcp_wmem[2]. So a connection on loopback holds
 * some 2.5 MiB that no one reads yet (it held 208 KiB here: a program
 * that wrote a large request before reading its peer's blocked). Not
 * modelled: the receive buffer's growth as the reader keeps up
 * (tcp_rcv_space_adjust), and BBR's factor of 3. */
#define CLOSE_WAIT_TAKES  (512 << 10)
#define TCP_WMEM_DEFAULT  16384
#define TCP_RMEM_DEFAULT  131072
#define TCP_SNDBUF_EXPAND (2 * 10 * (131072 + 256))

void tcp_init_buffers(struct socket *s)
{
	s->sndbuf = TCP_WMEM_DEFAULT;
	s->rcvbuf = TCP_RMEM_DEFAULT;
}

/* tcp_init_buffer_space's, at the connection's start. */
static void sndbuf_expand(struct socket *s)
{
	if (!s->sndbuf_locked && s->sndbuf < TCP_SNDBUF_EXPAND) {
		s->sndbuf = TCP_SNDBUF_EXPAND;
		waitq_wake(&s->wq, LINUX_POLLOUT | LINUX_POLLWRNORM | LINUX_POLLWRBAND);
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

/* in (its daddr:dport set) connects to l, which has room: l's end is
 * made and queued for accept, as the handshake would. */
static int establish(struct inet_sock *in, struct inet_sock *l)
{
	struct inet_sock *child = inet_alloc(l->u.sk.family, LINUX_SOCK_STREAM, LINUX_IPPROTO_TCP);
	struct skb *skb = calloc(1, sizeof(*skb));

	if (!child || !skb) {
		if (child)
			sock_put(&child->u.sk);
		free(skb);
		return -ENOMEM;
	}
	inet_inherit(child, l);
	sock_set_net(&child->u.sk, &l->u.sk);
	memcpy(child->saddr, in->daddr, 16);
	child->sport = in->dport; /* not in the port table: see inet.c */
	memcpy(child->daddr, in->saddr, 16);
	child->dport = in->sport;
	child->connected = true;
	in->connected = true;
	sndbuf_expand(&child->u.sk);
	sndbuf_expand(&in->u.sk);
	tcp_mib.passive_opens++; /* tcp_create_openreq_child */
	in->u.sk.shutdown = 0;
	in->u.sk.err = 0;
	unix_queue_embryo(&in->u, &l->u, &child->u, skb);
	waitq_wake_all(&in->u.sk.wq);
	return 0;
}

/* The end of a connect() that waited (syn_to): err 0 made it, else the
 * socket is closed with err pending. */
static void finish_waiting(struct inet_sock *in, int err)
{
	struct socket *s = &in->u.sk;

	list_del(&in->syn_link);
	in->syn_to = NULL;
	s->state = SS_CLOSE;
	if (err) {
		s->err = err;
		s->shutdown = SHUTDOWN_MASK;
		if (!in->port_locked)
			inet_unhash(in);
	}
	waitq_wake_all(&s->wq);
}

/* Room in l's queue (an accept, a larger backlog): the connections that
 * wait get in, oldest first, as a retransmitted SYN would find it. */
static void admit_waiting(struct inet_sock *l)
{
	while (!list_empty(&l->syn_queue) && l->u.sk.state == SS_LISTEN &&
	       !unix_recvq_full(&l->u)) {
		struct inet_sock *c = list_first_entry(&l->syn_queue, struct inet_sock, syn_link);

		finish_waiting(c, 0);
		if (establish(c, l) < 0)
			finish_waiting(c, ENOMEM);
	}
}

void tcp_refuse_waiting(struct inet_sock *l)
{
	while (!list_empty(&l->syn_queue)) {
		tcp_mib.attempt_fails++;
		finish_waiting(list_first_entry(&l->syn_queue, struct inet_sock, syn_link),
			       ECONNREFUSED);
	}
}

void tcp_abort_waiting(struct inet_sock *in)
{
	finish_waiting(in, ECONNRESET);
	if (!in->addr_locked) {
		memset(in->saddr, 0, 16);
		if (in->u.sk.family == LINUX_AF_INET)
			in->saddr[10] = in->saddr[11] = 0xff; /* 0.0.0.0 */
	}
}

/* inet_wait_for_connect: until the connection is made or refused. A
 * timeout (SO_SNDTIMEO) leaves it waiting, EINPROGRESS, as a signal
 * does with EINTR; the next connect() reports. */
static int connect_wait(struct inet_sock *in, int64_t deadline)
{
	struct socket *s = &in->u.sk;
	int ret;

	while (s->state == SS_CONNECTING) {
		ret = sock_wait(&s->wq, deadline);
		if (ret == -EAGAIN)
			return -EINPROGRESS;
		if (ret < 0)
			return ret;
	}
	in->in_progress = false;
	if (s->state == SS_ESTABLISHED)
		return 0;
	ret = sock_error(s);
	return ret < 0 ? ret : -ECONNABORTED;
}

/* A listener whose queue is full drops the SYN and the client sends it
 * again: here the connect() waits in the listener's syn_queue (bounded
 * by the clients' own fds) until an accept makes room, and never adds
 * to the accept queue beyond the backlog. */
static int tcp_connect(struct task *t, struct socket *s, const struct linux_sockaddr_storage *a,
		       int len, bool nonblock)
{
	struct inet_sock *in = inet_sk(s), *l;
	uint8_t dst[16], src[16];
	uint16_t port;
	int ret;

	(void)t;
	if (len < (int)sizeof(a->ss_family))
		return -EINVAL;
	if (a->ss_family == LINUX_AF_UNSPEC) {
		/* tcp_disconnect, but not of a connection (see above) */
		if (s->state == SS_CONNECTING)
			tcp_abort_waiting(in);
		else if (s->state == SS_LISTEN)
			inet_shutdown(s, LINUX_SHUT_RD);
		else if (s->state != SS_CLOSE)
			return -EINVAL;
		return 0;
	}
	if (s->state == SS_CONNECTING)
		return nonblock ? -EALREADY : connect_wait(in, sock_deadline(s->sndtimeo, false));
	if (in->in_progress) {
		/* the attempt that said EINPROGRESS ended: this call says how */
		in->in_progress = false;
		if (s->state == SS_ESTABLISHED)
			return 0;
		if (s->state == SS_CLOSE) {
			ret = sock_error(s);
			return ret < 0 ? ret : -ECONNABORTED;
		}
	}
	if (s->state != SS_CLOSE)
		return -EISCONN;
	ret = inet_dest(in, a, len, dst, &port);
	if (ret == 0 && inet_is_bcast(dst))
		ret = -ENETUNREACH; /* tcp_v4_connect: RTCF_BROADCAST */
	if (ret == 0)
		ret = inet_source(in, dst, src);
	if (ret == 0 && inet_autobind(in) < 0)
		ret = -EADDRNOTAVAIL; /* __inet_hash_connect: the range is used up */
	if (ret < 0)
		return ret;
	tcp_mib.active_opens++; /* tcp_connect: the SYN goes out */
	l = find_listener(in->u.sk.net, dst, port);
	if (!l) {
		tcp_mib.attempt_fails++; /* the RST ends SYN_SENT: tcp_done */
		if (!in->port_locked)
			inet_unhash(in); /* an ephemeral port goes with the attempt */
		if (!nonblock)
			return -ECONNREFUSED;
		in->in_progress = true;
		return refuse_later(s);
	}
	if (!in->addr_locked)
		memcpy(in->saddr, src, 16);
	memcpy(in->daddr, dst, 16);
	in->dport = port;
	if (!unix_recvq_full(&l->u)) {
		ret = establish(in, l);
		if (ret < 0)
			return ret;
		in->in_progress = nonblock;
		return nonblock ? -EINPROGRESS : 0;
	}
	s->state = SS_CONNECTING;
	s->err = 0;
	s->shutdown = 0;
	in->syn_to = l;
	list_add_tail(&in->syn_link, &l->syn_queue);
	in->in_progress = true;
	if (nonblock)
		return -EINPROGRESS;
	return connect_wait(in, sock_deadline(s->sndtimeo, false));
}

/* sk_stream_wait_connect: a send or receive on a connection not made
 * yet waits for it (EAGAIN when it may not). */
static int wait_connect_io(struct socket *s, int64_t deadline)
{
	int ret;

	while (s->state == SS_CONNECTING) {
		ret = sock_wait(&s->wq, deadline);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int tcp_accept(struct socket *s, bool nonblock, struct socket **out)
{
	int ret = unix_accept(s, nonblock, out);

	if (ret == 0)
		admit_waiting(inet_sk(s));
	return ret;
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
	in->u.max_backlog = backlog;
	s->shutdown = 0;
	s->state = SS_LISTEN;
	admit_waiting(in); /* a larger backlog has room */
	return 0;
}

static void tcp_urgent(struct unix_sock *other);

static long tcp_sendmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags)
{
	struct unix_sock *u = &inet_sk(s)->u;
	long n;
	int err;

	/* TCP reads no address (without MSG_FASTOPEN) and no SCM_RIGHTS. */
	m->namelen = 0;
	scm_destroy(&m->scm);
	m->scm.has_cred = false;
	err = wait_connect_io(s, sock_deadline(s->sndtimeo, flags & LINUX_MSG_DONTWAIT));
	if (err < 0)
		return err;
	if (s->state != SS_ESTABLISHED) {
		err = sock_error(s);
		if (err < 0)
			return err;
		if (!(flags & LINUX_MSG_NOSIGNAL))
			send_sigpipe();
		return -EPIPE; /* sk_stream_wait_connect */
	}
	if (s->err || (s->shutdown & SEND_SHUTDOWN)) {
		/* tcp_sendmsg_locked's do_error: a pending error is taken
		 * (a reset's ECONNRESET: no SIGPIPE), else EPIPE, which
		 * raises SIGPIPE (sk_stream_error). */
		err = sock_error(s);
		if (err == 0)
			err = -EPIPE;
		if (err == -EPIPE && !(flags & LINUX_MSG_NOSIGNAL))
			send_sigpipe();
		return err;
	}
	if (u->peer && u->peer->dead && m->iter.count) {
		/* The peer closed with a FIN (CLOSE_WAIT): Linux sends this
		 * write, and the peer's reset ends the connection before the
		 * next one (tcp_reset: EPIPE, tcp_done: both ways shut). The
		 * reset stops it partway: as much is taken as the send
		 * buffer holds, at most 512 KiB (Linux 6.18 on loopback, of a
		 * 1 MB write), and the rest is EPIPE. */
		size_t len = m->iter.count;

		if (len > (size_t)s->sndbuf)
			len = (size_t)s->sndbuf;
		if (len > CLOSE_WAIT_TAKES)
			len = CLOSE_WAIT_TAKES;

		s->err = EPIPE;
		s->shutdown = SHUTDOWN_MASK;
		u->reset = true;
		waitq_wake_all(&s->wq);
		return (long)len;
	}
	if (!(flags & LINUX_MSG_OOB))
		return unix_stream_sendmsg(t, s, m, flags);
	n = unix_stream_sendmsg(t, s, m, flags & ~LINUX_MSG_OOB);
	if (n > 0 && u->peer)
		tcp_urgent(u->peer);
	return n;
}

/* The peer's last byte sent was urgent (MSG_OOB): it becomes other's
 * urgent byte unless read already or one later is known (tcp_check_urg,
 * tcp_urg; on loopback it arrives with its pointer). An urgent byte at
 * the read position and not inline is passed over: only the newest one
 * is out of band, as in Linux. */
static void tcp_urgent(struct unix_sock *other)
{
	uint64_t ptr = other->rcvd - 1, copied = unix_read_pos(other);
	struct skb *skb;

	if (other->dead || list_empty(&other->queue) || copied > ptr ||
	    (other->urg_data && ptr <= other->urg_seq))
		return;
	if (other->sk.file)
		fown_send_sigurg(other->sk.file);
	if (other->urg_data && other->urg_seq == copied && !sock_oobinline(&other->sk) &&
	    copied != other->rcvd) {
		skb = unix_next_skb(other, NULL);
		skb->consumed++;
		other->inq--;
		if (skb->consumed == skb->len)
			unix_unlink_skb(other, skb);
	}
	skb = list_entry(other->queue.prev, struct skb, link); /* the last */
	other->urg_data = UNIX_URG_VALID | (uint8_t)skb->data[skb->len - 1];
	other->urg_seq = ptr;
	waitq_wake_sync(&other->sk.wq, LINUX_POLLPRI | LINUX_POLLRDBAND);
}

/* recv(MSG_OOB): the urgent byte, once (tcp_recv_urg). */
static long tcp_recv_urgent(struct socket *s, struct kmsg *m, unsigned flags)
{
	struct unix_sock *u = unix_sk(s);
	char c = (char)u->urg_data;

	if (sock_oobinline(s) || !u->urg_data || (u->urg_data & UNIX_URG_READ))
		return -EINVAL;
	if (!(flags & LINUX_MSG_PEEK))
		u->urg_data = UNIX_URG_READ;
	m->flags |= LINUX_MSG_OOB;
	if (!m->iter.count) {
		m->flags |= LINUX_MSG_TRUNC;
		return 0;
	}
	if (!(flags & LINUX_MSG_TRUNC) && iter_copy_to(&m->iter, &c, 1) < 0)
		return -EFAULT;
	return 1;
}

static long tcp_recvmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags)
{
	int err;

	if (flags & LINUX_MSG_ERRQUEUE)
		return -EAGAIN; /* the error queue is always empty */
	err = wait_connect_io(s, sock_deadline(s->rcvtimeo, flags & LINUX_MSG_DONTWAIT));
	if (err < 0)
		return err;
	if (s->state != SS_ESTABLISHED) {
		if (s->state == SS_LISTEN)
			return -ENOTCONN;
		err = sock_error(s);
		if (err < 0)
			return err;
		return (s->shutdown & RCV_SHUTDOWN) ? 0 : -ENOTCONN;
	}
	if (flags & LINUX_MSG_OOB)
		return tcp_recv_urgent(s, m, flags);
	/* tcp_recvmsg_locked: with nothing to read, the peer's FIN
	 * (SOCK_DONE) is the end of the stream before a pending error (a
	 * reset that came after it) */
	if (inet_sk(s)->fin_rcvd && !unix_sk(s)->inq)
		return 0;
	return unix_stream_recvmsg(t, s, m, flags);
}

/* The error a reset leaves at the peer of a connection (tcp_reset): EPIPE
 * once it had the FIN (CLOSE_WAIT), ECONNRESET before; 0 when it had
 * closed both ways (its socket was already in TIME_WAIT, which Linux's
 * full socket leaves as TCP_CLOSE: the reset is ignored). */
static int tcp_reset_err(struct unix_sock *pair)
{
	const struct inet_sock *in = inet_sk(&pair->sk);

	if (in->fin_rcvd && in->fin_sent)
		return 0;
	return in->fin_rcvd ? EPIPE : ECONNRESET;
}

/* At the urgent byte, without SO_OOBINLINE, it is not data to read. */
static bool at_urgent(struct socket *s)
{
	struct unix_sock *u = unix_sk(s);

	return u->urg_data && u->urg_seq == unix_read_pos(u) && !sock_oobinline(s);
}

/* unix_poll, with the urgent byte: POLLPRI while it is unread, and not
 * readable for the byte alone (tcp_poll). */
static unsigned tcp_poll(struct socket *s, struct poll_table *pt)
{
	struct unix_sock *u = unix_sk(s);
	unsigned mask = unix_poll(s, pt);

	if (u->urg_data & UNIX_URG_VALID)
		mask |= LINUX_POLLPRI;
	if (at_urgent(s) && u->inq <= 1 && !(s->shutdown & RCV_SHUTDOWN))
		mask &= ~(unsigned)(LINUX_POLLIN | LINUX_POLLRDNORM);
	return mask;
}

/* SIOCINQ: the bytes before the urgent one, while it is ahead (tcp_inq). */
static long tcp_inq(struct socket *s)
{
	struct unix_sock *u = unix_sk(s);
	uint64_t copied = unix_read_pos(u);

	if (s->state != SS_LISTEN && u->urg_data && !sock_oobinline(s) && u->urg_seq >= copied &&
	    u->urg_seq < u->rcvd)
		return (long)(u->urg_seq - copied);
	return unix_inq(s);
}

/* SIOCATMARK: whether the next byte is the urgent one. */
static long tcp_ioctl(struct socket *s, unsigned cmd)
{
	struct unix_sock *u = unix_sk(s);

	if (cmd != LINUX_SIOCATMARK)
		return -ENOIOCTLCMD;
	return u->urg_data && u->urg_seq == unix_read_pos(u);
}

void tcp_abort(struct inet_sock *in, int err)
{
	struct socket *s = &in->u.sk;
	struct unix_sock *pair = in->u.peer;

	if (in->u.dead)
		return;
	if (s->state == SS_CONNECTING) {
		finish_waiting(in, err); /* no reset for a SYN_SENT */
		return;
	}
	if (s->state == SS_LISTEN) {
		/* inet_csk_listen_stop: the connections not accepted are
		 * reset, those waiting refused; the port goes unless bind()
		 * named it (tcp_set_state's inet_put_port) */
		unix_purge_queue(&in->u);
		tcp_refuse_waiting(in);
		s->state = SS_CLOSE;
		if (!in->port_named)
			inet_unhash(in);
	} else if (in->connected && !tcp_closed(in)) {
		/* tcp_send_active_reset: the peer reads what is left, then
		 * ECONNRESET, as when it is closed with data unread */
		if (pair && !pair->dead && tcp_reset_err(pair)) {
			pair->sk.err = tcp_reset_err(pair);
			pair->sk.shutdown = SHUTDOWN_MASK; /* tcp_done: then EOF */
			pair->reset = true;
			waitq_wake_all(&pair->sk.wq);
			waitq_wake_all(&pair->peer_wait);
		}
		in->u.reset = true;
	}
	s->err = err;
	s->shutdown = SHUTDOWN_MASK;
	waitq_wake_all(&s->wq);
	waitq_wake_all(&in->u.peer_wait);
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
	inet_mc_release(in); /* MCAST_JOIN_GROUP takes a TCP socket too */
	list_del(&in->syn_link);
	tcp_refuse_waiting(in);
	unix_release_sock(&in->u, false);
	if (pair) {
		/* A FIN: the peer reads what is left, then EOF (no POLLHUP);
		 * a reset: what is left, then ECONNRESET. */
		if (!pair->dead && !reset) {
			pair->sk.shutdown = old | RCV_SHUTDOWN;
			inet_sk(&pair->sk)->fin_rcvd = true;
		} else if (!pair->dead && tcp_reset_err(pair)) {
			pair->sk.err = tcp_reset_err(pair);
			pair->reset = true;
		}
		unix_put(pair);
	}
}

const struct proto_ops tcp_ops = {
	.bind = inet_bind,
	.connect = tcp_connect,
	.socketpair = inet_socketpair,
	.listen = tcp_listen,
	.accept = tcp_accept,
	.getname = inet_getname,
	.sendmsg = tcp_sendmsg,
	.recvmsg = tcp_recvmsg,
	.shutdown = inet_shutdown,
	.poll = tcp_poll,
	.inq = tcp_inq,
	.ioctl = tcp_ioctl,
	.peercred = unix_peercred,
	.setsockopt = inet_setsockopt,
	.getsockopt = inet_getsockopt,
	.release = tcp_release,
	.destroy = inet_destroy,
};
