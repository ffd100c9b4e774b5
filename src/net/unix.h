/* net/unix.h: AF_UNIX sockets, shared by unix.c (names, connections,
 * readiness) and unix_msg.c (sending and receiving). A socket's receive
 * queue holds buffers (struct skb) that its peers sent; a listening
 * socket's holds the connections not yet accepted. The sender of a buffer
 * pays for it in its wmem until it is read, so SO_SNDBUF bounds what one
 * socket has in flight, as in Linux. */
#ifndef NET_UNIX_H
#define NET_UNIX_H

#include "net/socket.h"
#include "vfs/vfs.h"
#include "lib/list.h"

struct unix_sock;

struct skb {
	struct list_head link;	  /* in the receiver's queue */
	struct unix_sock *sender; /* a reference; its wmem holds truesize (NULL: none) */
	struct unix_sock *embryo; /* a listener's queue: the connection (its own reference) */
	size_t truesize;
	size_t len, consumed; /* data[consumed..len) is unread */
	bool fds_counted;     /* counted in unix_skbs_with_fds */
	int64_t tstamp;	      /* when it was queued (sock_tstamp_now), or 0 */
	struct scm scm;	      /* SCM_RIGHTS files (references) and the credentials */
	char data[];
};

struct unix_sock {
	struct socket sk;
	struct unix_sock *peer; /* a reference, or NULL */
	struct list_head queue; /* struct skb, by link */
	int qlen;		/* buffers (or connections) queued */
	size_t inq;		/* stream: bytes unread */
	uint64_t rcvd;		/* stream: bytes ever queued (TCP's rcv_nxt) */
	/* TCP's urgent byte (MSG_OOB): its place in the stream (counted as
	 * rcvd), and Linux's urg_data: 0 (none), UNIX_URG_VALID | the byte
	 * (not read out of band), or UNIX_URG_READ. Reads stop at it and,
	 * without SO_OOBINLINE, skip it. */
	uint64_t urg_seq;
	unsigned urg_data;
	/* AF_UNIX stream: the buffer of the out-of-band byte (MSG_OOB), in
	 * queue (not a reference), or NULL */
	struct skb *oob_skb;
	int max_backlog;	/* listen's backlog, or the datagram queue limit */
	struct waitq peer_wait; /* senders and connect() waiting for room in queue */
	/* the name (addrlen 0: none); a sun_path of 108 bytes without a NUL
	 * is kept with one, so addrlen can be 111, past a sockaddr_un */
	struct linux_sockaddr_storage addr;
	int addrlen;
	struct path path;	       /* bound in the filesystem (owns a reference), or none */
	uint64_t bound_dev, bound_ino; /* the socket node it is found by (with path),
					* or its listener's (accepted) */
	struct list_head bound_link;   /* in the name table while it can be found */
	struct linux_ucred peercred;   /* SO_PEERCRED */
	bool dead;		       /* released: no more traffic */
	bool reset;		       /* connection: the peer reset it (TCP: TCP_CLOSE) */
	struct list_head all_link;     /* in unix_every_sock */
	int gc_inflight;	       /* unix_gc: references to our file in queues */
	bool gc_candidate, gc_alive;
};

#define UNIX_URG_VALID 0x100
#define UNIX_URG_READ  0x200

static inline struct unix_sock *unix_sk(struct socket *s)
{
	return (struct unix_sock *)s;
}

static inline void unix_get(struct unix_sock *u)
{
	sock_get(&u->sk);
}

static inline void unix_put(struct unix_sock *u)
{
	sock_put(&u->sk);
}

static inline bool unix_connection_based(const struct unix_sock *u)
{
	return u->sk.type == LINUX_SOCK_STREAM || u->sk.type == LINUX_SOCK_SEQPACKET;
}

static inline bool unix_recvq_full(const struct unix_sock *u)
{
	return u->qlen > u->max_backlog;
}

/* unix.c */
/* A new socket of size bytes (a struct that begins with a unix_sock):
 * other families (net/inet.c) reuse the queues, send and receive. */
struct unix_sock *unix_sock_alloc(size_t size, int family, int type, const struct proto_ops *ops);
/* connect's end: links u and newu (the server's end) as peers, both
 * established, and queues newu on the listener in skb, for accept. */
void unix_queue_embryo(struct unix_sock *u, struct unix_sock *listener, struct unix_sock *newu,
		       struct skb *skb);
/* The file is closed (or, embryo, the listener went before accepting):
 * the peer sees the end, the queue is thrown away, the name freed. The
 * caller drops the owner's reference afterwards. */
void unix_release_sock(struct unix_sock *u, bool embryo);
void unix_destroy(struct socket *s);
int unix_accept(struct socket *s, bool nonblock, struct socket **out);
unsigned unix_poll(struct socket *s, struct poll_table *pt);
unsigned unix_dgram_poll(struct socket *s, struct poll_table *pt);
int unix_peercred(struct socket *s, struct linux_ucred *uc);
int unix_autobind(struct unix_sock *u);
/* The socket a sockaddr_un names, for socket s (its type, and its network
 * namespace for an abstract name): a reference. */
int unix_find_other(struct task *t, const struct linux_sockaddr_un *a, int len,
		    const struct socket *s, struct unix_sock **out);
int unix_validate_addr(const struct linux_sockaddr_storage *a, int len);
/* A datagram socket drops what its old peer sent (connect, peer death). */
void unix_dgram_disconnected(struct unix_sock *u, struct unix_sock *other);
void unix_fill_cred(struct linux_ucred *uc);

/* Every AF_UNIX socket, by all_link. */
extern struct list_head unix_every_sock;
/* Queued buffers that carry files: unix_gc has work only then. */
extern int unix_skbs_with_fds;
/* unix_gc.c: frees cycles of sockets only queues hold (a socket was closed). */
void unix_gc(void);

/* A stream's count of the bytes read (TCP's copied_seq): where the next
 * read starts. */
static inline uint64_t unix_read_pos(const struct unix_sock *u)
{
	return u->rcvd - u->inq;
}

/* The buffer a stream read looks at after prev (NULL: the first), or
 * NULL at the queue's end. */
static inline struct skb *unix_next_skb(struct unix_sock *u, struct skb *prev)
{
	struct list_head *n = prev ? prev->link.next : u->queue.next;

	return n == &u->queue ? NULL : list_entry(n, struct skb, link);
}

/* unix_msg.c */
void skb_free(struct skb *skb);
/* Takes skb off u's queue and frees it, with what it had unread. */
void unix_unlink_skb(struct unix_sock *u, struct skb *skb);
/* Queues skb on other's receive queue and wakes its readers. */
void unix_queue_skb(struct unix_sock *other, struct skb *skb);
void unix_purge_queue(struct unix_sock *u);
long unix_stream_sendmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags);
long unix_stream_recvmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags);
long unix_dgram_sendmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags);
long unix_dgram_recvmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags);
long unix_seqpacket_sendmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags);
long unix_seqpacket_recvmsg(struct task *t, struct socket *s, struct kmsg *m, unsigned flags);
long unix_inq(struct socket *s);

#endif
