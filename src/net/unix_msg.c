/* net/unix_msg.c: sending and receiving on AF_UNIX sockets. A stream send
 * is cut into buffers of at most half the send buffer; a datagram or
 * seqpacket send is one buffer, read whole or cut (MSG_TRUNC). Files
 * passed with SCM_RIGHTS ride in the first buffer; a stream read stops
 * after a buffer that carries files, and (with SO_PASSCRED) never glues
 * buffers of different senders. Buffers are charged to their sender with
 * Linux's sizes (sk_buff, head and pages), so SO_SNDBUF limits the same
 * amount of data as on Linux. Every buffer is also charged to the
 * instance's socket memory (sock_mem_charge): a guest with many sockets,
 * or with SO_SNDBUFFORCE/SO_RCVBUFFORCE, still cannot hold more than that
 * in queues; a send past it is ENOBUFS (UDP: dropped). */
#include <stdlib.h>
#include <string.h>

#include "net/unix.h"
#include "vfs/fown.h"
#include "kernel/task.h"
#include "abi/linux/errno.h"
#include "abi/linux/poll.h"

#define SKB_STRUCT	  256  /* SKB_TRUESIZE's sk_buff part */
#define SKB_SHINFO	  320  /* skb_shared_info, aligned */
#define SKB_PAGE	  4096 /* PAGE_SIZE */
#define SKB_MAX_HEAD0	  (SKB_PAGE - SKB_SHINFO)
#define SKB_MAX_ALLOC	  ((SKB_PAGE << 2) - SKB_SHINFO)
#define UNIX_SKB_FRAGS_SZ 32768
#define MAX_SKB_FRAGS	  17

static size_t align_up(size_t n, size_t a)
{
	return (n + a - 1) & ~(a - 1);
}

/* What kmalloc hands out for n bytes. */
static size_t kmalloc_size(size_t n)
{
	static const size_t sizes[] = { 8,   16,  32,	64,   96,   128, 192,
					256, 512, 1024, 2048, 4096, 8192 };
	size_t i, p;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (n <= sizes[i])
			return sizes[i];
	for (p = 16384; p < n; p <<= 1)
		;
	return p;
}

static size_t truesize(size_t head, size_t frags)
{
	return SKB_STRUCT + kmalloc_size(align_up(head, 64) + SKB_SHINFO) + frags;
}

static struct skb *skb_alloc(struct unix_sock *u, size_t len, size_t true_size)
{
	struct skb *skb;

	if (!sock_mem_charge(true_size))
		return NULL;
	skb = malloc(sizeof(*skb) + (len ? len : 1));
	if (!skb) {
		sock_mem_uncharge(true_size);
		return NULL;
	}
	memset(skb, 0, sizeof(*skb));
	skb->len = len;
	skb->truesize = true_size;
	skb->sender = u;
	unix_get(u);
	u->sk.wmem += true_size;
	return skb;
}

void skb_free(struct skb *skb)
{
	struct unix_sock *from = skb->sender;
	size_t true_size = skb->truesize;

	if (skb->fds_counted)
		unix_skbs_with_fds--;
	scm_destroy(&skb->scm);
	free(skb);
	sock_mem_uncharge(true_size); /* every skb is charged its truesize */
	if (from) {
		from->sk.wmem -= true_size;
		/* The sender's write space (Linux's unix_write_space). */
		waitq_wake_sync(&from->sk.wq, LINUX_POLLOUT | LINUX_POLLWRNORM | LINUX_POLLWRBAND);
		unix_put(from);
	}
}

/* sock_alloc_send_pskb's wait: until u may put more in flight. */
static int wait_wmem(struct unix_sock *u, int64_t deadline)
{
	int ret;

	for (;;) {
		ret = sock_error(&u->sk);
		if (ret < 0)
			return ret;
		if (u->sk.shutdown & SEND_SHUTDOWN)
			return -EPIPE;
		if (u->sk.wmem < (size_t)u->sk.sndbuf)
			return 0;
		ret = sock_wait(&u->sk.wq, deadline);
		if (ret < 0)
			return ret;
	}
}

/* Credentials go with the data when either end asked for them, or the
 * receiver is not accepted yet (unix_maybe_add_creds). */
static void maybe_add_creds(struct task *t, struct skb *skb, struct unix_sock *u,
			    struct unix_sock *other)
{
	if (skb->scm.has_cred)
		return;
	if (u->sk.passcred || other->sk.passcred || !other->sk.file) {
		skb->scm.has_cred = true;
		skb->scm.cred.pid = t->proc->pid;
		skb->scm.cred.uid = t->proc->cred.uid;
		skb->scm.cred.gid = t->proc->cred.gid;
	}
}

void unix_queue_skb(struct unix_sock *other, struct skb *skb)
{
	list_add_tail(&skb->link, &other->queue);
	if (skb->scm.nfds) {
		skb->fds_counted = true;
		unix_skbs_with_fds++;
	}
	other->qlen++;
	skb->tstamp = sock_tstamp_now(&other->sk);
	other->inq += skb->len;
	other->rcvd += skb->len;
	/* Data for the reader (Linux's sock_def_readable). */
	waitq_wake_sync(&other->sk.wq,
			LINUX_POLLIN | LINUX_POLLPRI | LINUX_POLLRDNORM | LINUX_POLLRDBAND);
}

static void copy_addr(struct kmsg *m, struct unix_sock *from)
{
	if (m->want_name && from && from->addrlen) {
		memcpy(&m->name, &from->addr, from->addrlen);
		m->namelen = from->addrlen;
	}
}

/* One stream buffer of size bytes: its head and pages. */
static struct skb *stream_skb(struct unix_sock *u, size_t size)
{
	size_t data_len = size > SKB_MAX_HEAD0 ? align_up(size - SKB_MAX_HEAD0, SKB_PAGE) : 0;

	if (data_len > size)
		data_len = size;
	return skb_alloc(u, size, truesize(size - data_len, data_len));
}

long unix_stream_sendmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags)
{
	struct unix_sock *u = unix_sk(s), *other = u->peer;
	int64_t deadline = sock_deadline(s->sndtimeo, flags & LINUX_MSG_DONTWAIT);
	size_t len = m->iter.count, sent = 0;
	bool fds_sent = false, oob = flags & LINUX_MSG_OOB;
	long err = 0;

	/* MSG_OOB (AF_UNIX's, Linux 5.15): the last byte goes in a buffer
	 * of its own, the reader's out-of-band byte (unix_oob below). */
	if (oob && !len)
		return -EOPNOTSUPP;
	if (m->namelen)
		return s->state == SS_ESTABLISHED ? -EISCONN : -EOPNOTSUPP;
	if (!other)
		return -ENOTCONN;
	if (s->shutdown & SEND_SHUTDOWN)
		goto out_pipe;
	unix_get(other);
	while (sent < len) {
		size_t size = len - sent, max = (size_t)(s->sndbuf >> 1) - 64;
		struct skb *skb;

		if (size > max)
			size = max;
		if (size > SKB_MAX_HEAD0 + UNIX_SKB_FRAGS_SZ)
			size = SKB_MAX_HEAD0 + UNIX_SKB_FRAGS_SZ;
		if (oob && sent + size == len && size > 1)
			size--; /* the out-of-band byte in the next one */
		err = wait_wmem(u, deadline);
		if (err < 0)
			break;
		skb = stream_skb(u, size);
		if (!skb && s->protocol == LINUX_IPPROTO_TCP) {
			/* TCP waits for memory where AF_UNIX's sends fail */
			err = sock_mem_wait(deadline);
			if (err < 0)
				break;
			continue;
		}
		if (!skb) {
			err = -ENOBUFS; /* sock_alloc_send_pskb's */
			break;
		}
		/* Files go with the first buffer only; credentials with each. */
		skb->scm.has_cred = m->scm.has_cred;
		skb->scm.cred = m->scm.cred;
		if (!fds_sent) {
			skb->scm.fds = m->scm.fds;
			skb->scm.nfds = m->scm.nfds;
			m->scm.fds = NULL;
			m->scm.nfds = 0;
			fds_sent = true;
		}
		maybe_add_creds(t, skb, u, other);
		if (iter_copy_from(&m->iter, skb->data, size) < 0) {
			skb_free(skb);
			err = -EFAULT;
			break;
		}
		/* A TCP receiver's own SHUT_RD does not stop its peer (the
		 * data is still read), an AF_UNIX one's does. */
		if (other->dead ||
		    ((other->sk.shutdown & RCV_SHUTDOWN) && other->sk.family == LINUX_AF_UNIX)) {
			skb_free(skb);
			unix_put(other);
			goto out_pipe;
		}
		unix_queue_skb(other, skb);
		sent += size;
		if (oob && sent == len) {
			other->oob_skb = skb;
			if (other->sk.file)
				fown_send_sigurg(other->sk.file);
		}
	}
	unix_put(other);
	return sent ? (long)sent : err;
out_pipe:
	if (!sent && !(flags & LINUX_MSG_NOSIGNAL))
		send_sigpipe();
	return sent ? (long)sent : -EPIPE;
}

void unix_unlink_skb(struct unix_sock *u, struct skb *skb)
{
	if (u->oob_skb == skb)
		u->oob_skb = NULL;
	u->inq -= skb->len - skb->consumed;
	list_del(&skb->link);
	u->qlen--;
	skb_free(skb);
}

/*
 * AF_UNIX's out-of-band byte (Linux's manage_oob), where a stream read
 * comes to skb: the buffer to read from, or NULL to stop (with something
 * read) or to wait. A read stops before the byte; one that starts there
 * passes over it (reads it, SO_OOBINLINE) and it is out of band no more.
 * A byte read out of band leaves an empty buffer, passed over too.
 * FIONREAD stops counting a byte passed over, as kernels before 6.16 sum
 * the buffers (6.18's own count keeps it).
 */
static struct skb *unix_oob(struct unix_sock *u, struct skb *skb, bool peek, size_t copied)
{
	struct skb *next;

	if (skb->consumed < skb->len && skb != u->oob_skb)
		return skb;
	if (skb->consumed == skb->len) {
		if (copied && (!u->oob_skb || skb == u->oob_skb))
			return NULL;
		next = unix_next_skb(u, skb);
		if (!peek)
			unix_unlink_skb(u, skb);
		skb = next;
		if (!skb)
			return NULL;
	}
	if (skb != u->oob_skb)
		return skb;
	if (copied)
		return NULL;
	if (sock_oobinline(&u->sk)) {
		if (!peek)
			u->oob_skb = NULL;
		return skb;
	}
	next = unix_next_skb(u, skb);
	if (!peek)
		unix_unlink_skb(u, skb);
	return next;
}

/* recv(MSG_OOB) on an AF_UNIX stream (unix_stream_recv_urg). */
static long unix_recv_oob(struct unix_sock *u, struct kmsg *m, unsigned flags)
{
	struct skb *oob = u->oob_skb, *before;

	if (sock_oobinline(&u->sk) || !oob)
		return -EINVAL;
	if (!(flags & LINUX_MSG_PEEK)) {
		u->oob_skb = NULL;
		/* An empty buffer before it (one read out of band) goes. */
		before = oob->link.prev == &u->queue ? NULL
						     : list_entry(oob->link.prev, struct skb, link);
		if (before && before->consumed == before->len)
			unix_unlink_skb(u, before);
	}
	/* A buffer of 0 bytes takes nothing, as Linux's copy. */
	if (iter_copy_to(&m->iter, oob->data + oob->consumed, m->iter.count ? 1 : 0) < 0)
		return -EFAULT;
	if (!(flags & LINUX_MSG_PEEK)) {
		oob->consumed++;
		u->inq--;
	}
	m->flags |= LINUX_MSG_OOB;
	return 1;
}

static bool same_creds(const struct skb *skb, const struct scm *scm)
{
	if (skb->scm.has_cred != scm->has_cred)
		return false;
	return !scm->has_cred || memcmp(&skb->scm.cred, &scm->cred, sizeof(scm->cred)) == 0;
}

/* Waits for stream data: 0 to look again, 1 to stop with what was read,
 * or -errno. */
static int stream_wait(struct socket *s, int64_t deadline)
{
	int ret = sock_error(s);

	if (ret < 0)
		return ret;
	if (s->shutdown & RCV_SHUTDOWN)
		return 1;
	return sock_wait(&s->wq, deadline);
}

/* Takes what a consumed buffer carried into scm; true if it carried files. */
static bool take_fds(struct skb *skb, struct scm *scm, bool peek)
{
	if (!skb->scm.nfds)
		return false;
	if (peek) {
		struct scm dup;

		if (scm_dup(&skb->scm, &dup) == 0) {
			scm->fds = dup.fds;
			scm->nfds = dup.nfds;
		}
		return true;
	}
	scm->fds = skb->scm.fds;
	scm->nfds = skb->scm.nfds;
	skb->scm.fds = NULL;
	skb->scm.nfds = 0;
	if (skb->fds_counted) {
		skb->fds_counted = false;
		unix_skbs_with_fds--;
	}
	return true;
}

long unix_stream_recvmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags)
{
	struct unix_sock *u = unix_sk(s);
	bool peek = flags & LINUX_MSG_PEEK, check_creds = false;
	int64_t deadline = sock_deadline(s->rcvtimeo, flags & LINUX_MSG_DONTWAIT);
	size_t size = m->iter.count, copied = 0, target;
	struct skb *skb, *prev = NULL;
	uint64_t pos; /* the stream's count of the next byte looked at */
	bool passed = false, oob_wait;
	int64_t tstamp = 0;
	struct scm scm;
	long err = 0;

	(void)t;
	if (s->state != SS_ESTABLISHED)
		return -EINVAL;
	if (flags & LINUX_MSG_OOB)
		return unix_recv_oob(u, m, flags); /* TCP's: tcp.c */
	target = (flags & LINUX_MSG_WAITALL)  ? size
		 : (size_t)s->rcvlowat < size ? (size_t)s->rcvlowat
					      : size;
	if (!target)
		target = 1;
	memset(&scm, 0, sizeof(scm));
	pos = unix_read_pos(u);
	for (;;) {
		size_t chunk, off;

		/* A read stops at TCP's urgent byte, or does not begin while
		 * a signal (SIGURG's handler) may want it (tcp_recvmsg). */
		if (u->urg_data && u->urg_seq == pos) {
			if (copied)
				break;
			if (signal_pending(current)) {
				scm_destroy(&scm);
				return deadline == 0  ? -EAGAIN
				       : deadline < 0 ? -ERESTARTSYS
						      : -EINTR;
			}
		}
		skb = unix_next_skb(u, prev);
		oob_wait = false;
		if (skb && s->family == LINUX_AF_UNIX &&
		    (skb->consumed == skb->len || skb == u->oob_skb)) {
			skb = unix_oob(u, skb, peek, copied);
			if (!skb && copied)
				break;
			oob_wait = !skb;
		}
		if (!skb) {
			/* A peek ends at the queue's end, unless all it saw
			 * was an urgent byte passed over (or an AF_UNIX
			 * out-of-band byte stopped it): then it waits, and
			 * looks again from the start. */
			if (!oob_wait && ((prev && (copied || !passed)) || copied >= target))
				break;
			prev = NULL;
			pos = unix_read_pos(u);
			err = stream_wait(s, deadline);
			if (err == 0)
				continue;
			if (err == -ERESTARTSYS || err == -EINTR) {
				/* a signal: what was read stays, files do not */
				scm_destroy(&scm);
				return copied ? (long)copied : err;
			}
			if (err == 1)
				err = 0; /* end of data */
			break;
		}
		if (check_creds) {
			if (!same_creds(skb, &scm))
				break; /* never glue data of different writers */
		} else if (s->passcred) {
			scm.has_cred = skb->scm.has_cred;
			scm.cred = skb->scm.cred;
			check_creds = true;
		}
		copy_addr(m, skb->sender);
		off = skb->consumed;
		/* At the urgent byte: passed over without SO_OOBINLINE by a
		 * read of 1 byte or more, whether it was read out of band or
		 * not. Before it: read up to it. */
		if (u->urg_data && u->urg_seq == pos && size && !sock_oobinline(s)) {
			passed = true;
			pos++;
			off++;
			if (!peek) {
				skb->consumed++;
				u->inq--;
			}
		}
		chunk = skb->len - off;
		if (chunk > size)
			chunk = size;
		if (u->urg_data && u->urg_seq > pos && u->urg_seq - pos < chunk)
			chunk = (size_t)(u->urg_seq - pos);
		if (iter_copy_to(&m->iter, skb->data + off, chunk) < 0) {
			if (!copied)
				err = -EFAULT;
			break;
		}
		copied += chunk;
		size -= chunk;
		pos += chunk;
		if (skb->tstamp)
			tstamp = skb->tstamp;
		/* Past it: no urgent byte any more. */
		if (u->urg_data && !peek && pos > u->urg_seq)
			u->urg_data = 0;
		if (peek) {
			if (take_fds(skb, &scm, true))
				break;
			prev = skb;
			/* AF_UNIX's peek goes on to the next buffer even when
			 * full (where an out-of-band byte may stop it). */
			if (!size && s->family == LINUX_AF_UNIX)
				continue;
		} else {
			bool fds;

			skb->consumed += chunk;
			u->inq -= chunk;
			fds = take_fds(skb, &scm, false);
			if (skb->consumed < skb->len)
				break;
			unix_unlink_skb(u, skb);
			if (fds)
				break;
		}
		if (!size)
			break;
	}
	m->scm = scm;
	/* tcp_recv_timestamp: the last buffer read's time, if it has one
	 * (AF_UNIX streams report none) */
	if (copied && tstamp && s->family != LINUX_AF_UNIX)
		sock_recv_timestamp(s, tstamp, &m->scm);
	return copied ? (long)copied : err;
}

long unix_dgram_sendmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags)
{
	struct unix_sock *u = unix_sk(s), *other = NULL;
	int64_t deadline = sock_deadline(s->sndtimeo, flags & LINUX_MSG_DONTWAIT);
	size_t len = m->iter.count, head = len, data_len = 0;
	struct linux_sockaddr_un sun;
	struct skb *skb;
	long err;

	if (flags & LINUX_MSG_OOB)
		return -EOPNOTSUPP;
	if (m->namelen) {
		err = unix_validate_addr(&m->name, m->namelen);
		if (err < 0)
			return err;
		memset(&sun, 0, sizeof(sun));
		memcpy(&sun, &m->name, m->namelen);
	}
	if (s->passcred && !u->addrlen && (err = unix_autobind(u)) < 0)
		return err;
	if (len > (size_t)s->sndbuf - 32)
		return -EMSGSIZE;
	err = wait_wmem(u, deadline);
	if (err < 0)
		return err;
	if (len > SKB_MAX_ALLOC) {
		data_len = len - SKB_MAX_ALLOC;
		if (data_len > MAX_SKB_FRAGS * SKB_PAGE)
			data_len = MAX_SKB_FRAGS * SKB_PAGE;
		data_len = align_up(data_len, SKB_PAGE);
		head = len - data_len;
	}
	skb = skb_alloc(u, len, truesize(head, data_len));
	if (!skb)
		return -ENOBUFS;
	skb->scm = m->scm;
	memset(&m->scm, 0, sizeof(m->scm));
	if (iter_copy_from(&m->iter, skb->data, len) < 0) {
		err = -EFAULT;
		goto out_free;
	}
	if (m->namelen) {
		err = unix_find_other(t, &sun, m->namelen, s, &other);
		if (err < 0)
			goto out_free;
	} else {
		other = u->peer;
		if (!other) {
			err = -ENOTCONN;
			goto out_free;
		}
		unix_get(other);
	}
	maybe_add_creds(t, skb, u, other);
	/* The receiver's filter (sk_filter): a datagram it drops is tossed
	 * with no error to the sender. */
	if (!sock_filter_data(&other->sk, skb->data, skb->len, &skb->len)) {
		err = (long)len;
		goto out_put;
	}
	for (;;) {
		if (other->peer && other->peer != u) {
			err = -EPERM;
			goto out_put;
		}
		if (other->dead) {
			if (s->type == LINUX_SOCK_SEQPACKET) {
				err = -EPIPE;
			} else if (u->peer == other) {
				/* our peer died: the first send says so, then ENOTCONN */
				u->peer = NULL;
				s->state = SS_CLOSE;
				unix_dgram_disconnected(u, other);
				unix_put(other);
				err = -ECONNREFUSED;
			} else {
				err = m->namelen ? -ECONNREFUSED : -ECONNRESET;
			}
			goto out_put;
		}
		if (other->sk.shutdown & RCV_SHUTDOWN) {
			err = -EPIPE;
			goto out_put;
		}
		/* a receiver not connected back to us takes max_dgram_qlen */
		if (other == u || other->peer == u || !unix_recvq_full(other))
			break;
		err = sock_wait(&other->peer_wait, deadline);
		if (err < 0)
			goto out_put;
	}
	unix_queue_skb(other, skb);
	unix_put(other);
	return (long)len;
out_put:
	unix_put(other);
out_free:
	skb_free(skb);
	return err;
}

long unix_dgram_recvmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags)
{
	struct unix_sock *u = unix_sk(s);
	int64_t deadline = sock_deadline(s->rcvtimeo, flags & LINUX_MSG_DONTWAIT);
	bool peek = flags & LINUX_MSG_PEEK;
	size_t size = m->iter.count;
	struct skb *skb = NULL;
	long err;

	(void)t;
	if (flags & LINUX_MSG_OOB)
		return -EOPNOTSUPP;
	for (;;) {
		err = sock_error(s);
		if (err < 0)
			break;
		if (!list_empty(&u->queue)) {
			skb = list_first_entry(&u->queue, struct skb, link);
			break;
		}
		err = -EAGAIN;
		if (deadline == 0)
			break;
		if (s->shutdown & RCV_SHUTDOWN) {
			err = 0;
			break;
		}
		if (unix_connection_based(u) && s->state != SS_ESTABLISHED &&
		    s->state != SS_LISTEN) {
			err = -ENOTCONN;
			break;
		}
		err = sock_wait(&s->wq, deadline);
		if (err < 0)
			break;
	}
	if (!skb) {
		/* EOF on a disconnected nonblocking seqpacket socket */
		if (s->type == LINUX_SOCK_SEQPACKET && err == -EAGAIN &&
		    (s->shutdown & RCV_SHUTDOWN))
			err = 0;
		/* an end of file carries no credentials (Linux returns before
		 * scm_recv): crashpad's handler takes a message with them for
		 * a truncated one ("incorrect payload size 0") */
		m->no_dgram = err == 0;
		return err;
	}
	if (!peek) {
		list_del(&skb->link);
		u->qlen--;
		u->inq -= skb->len;
	}
	waitq_wake_sync(&u->peer_wait, LINUX_POLLOUT | LINUX_POLLWRNORM | LINUX_POLLWRBAND);
	copy_addr(m, skb->sender);
	sock_recv_timestamp(s, skb->tstamp, &m->scm);
	if (size > skb->len)
		size = skb->len;
	else if (size < skb->len)
		m->flags |= LINUX_MSG_TRUNC;
	if (iter_copy_to(&m->iter, skb->data, size) < 0) {
		err = -EFAULT;
		goto out;
	}
	m->scm.has_cred = skb->scm.has_cred;
	m->scm.cred = skb->scm.cred;
	take_fds(skb, &m->scm, peek);
	err = (flags & LINUX_MSG_TRUNC) ? (long)skb->len : (long)size;
out:
	if (!peek)
		skb_free(skb);
	return err;
}

long unix_seqpacket_sendmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags)
{
	int err = sock_error(s);

	if (err < 0)
		return err;
	if (s->state != SS_ESTABLISHED)
		return -ENOTCONN;
	m->namelen = 0;
	return unix_dgram_sendmsg(t, s, m, flags);
}

long unix_seqpacket_recvmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags)
{
	if (s->state != SS_ESTABLISHED)
		return -ENOTCONN;
	return unix_dgram_recvmsg(t, s, m, flags);
}

long unix_inq(struct socket *s)
{
	struct unix_sock *u = unix_sk(s);
	struct skb *skb;
	long n = 0;

	if (s->state == SS_LISTEN)
		return -EINVAL;
	if (s->type == LINUX_SOCK_STREAM)
		return (long)u->inq;
	list_for_each_entry(skb, &u->queue, link)
	{
		n += (long)(skb->len - skb->consumed);
		if (s->type == LINUX_SOCK_DGRAM)
			break;
	}
	return n;
}
