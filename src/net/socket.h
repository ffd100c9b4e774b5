/* net/socket.h: sockets, whatever their family. A socket file's priv is a
 * struct socket; its family's proto_ops do the work. A socket can outlive
 * its file (a peer, or a buffer it sent, still refers to it) and can exist
 * before it has one (a connection not yet accepted). The options every
 * family shares (SOL_SOCKET) and the sleeping with SO_RCVTIMEO and
 * SO_SNDTIMEO are here. */
#ifndef NET_SOCKET_H
#define NET_SOCKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/sched.h"
#include "lib/cbpf.h"
#include "mm/mm.h"
#include "net/msg.h"
#include "abi/linux/socket.h"

struct file;
struct task;
struct poll_table;
struct socket;
struct net_ns;

/* SS_CONNECTING: a TCP connect() waiting for room in a listener's queue */
enum sock_state { SS_CLOSE, SS_LISTEN, SS_ESTABLISHED, SS_CONNECTING };

enum { RCV_SHUTDOWN = 1, SEND_SHUTDOWN = 2, SHUTDOWN_MASK = 3 };

#define SOCK_TIMEO_FOREVER INT64_MAX

struct proto_ops {
	int (*bind)(struct task *t, struct socket *s, const struct linux_sockaddr_storage *a,
		    int len);
	int (*connect)(struct task *t, struct socket *s, const struct linux_sockaddr_storage *a,
		       int len, bool nonblock);
	int (*socketpair)(struct task *t, struct socket *a, struct socket *b);
	int (*listen)(struct task *t, struct socket *s, int backlog);
	/* *out: the new connection, holding the reference its file takes. */
	int (*accept)(struct socket *s, bool nonblock, struct socket **out);
	/* The address (peer: the peer's) into a; returns its length. */
	int (*getname)(struct socket *s, struct linux_sockaddr_storage *a, bool peer);
	/* Consume m's data and scm; return bytes sent or -errno. */
	long (*sendmsg)(struct task *t, struct socket *s, struct kmsg *m, unsigned flags);
	/* Fill m's data, name and scm; return bytes or -errno. */
	long (*recvmsg)(struct task *t, struct socket *s, struct kmsg *m, unsigned flags);
	int (*shutdown)(struct socket *s, int how);
	unsigned (*poll)(struct socket *s, struct poll_table *pt);
	/* SIOCINQ: bytes readable, or -errno. */
	long (*inq)(struct socket *s);
	/* SIOCOUTQ, SIOCATMARK: the count, or -ENOIOCTLCMD for the common
	 * answer; NULL: none. */
	long (*ioctl)(struct socket *s, unsigned cmd);
	int (*peercred)(struct socket *s, struct linux_ucred *uc);
	/* Options at the protocol's levels (not SOL_SOCKET); NULL: none.
	 * getsockopt's *len: the buffer's size in, the size to copy out. */
	int (*setsockopt)(struct socket *s, int level, int name, const void *val, unsigned len);
	int (*getsockopt)(struct socket *s, int level, int name, void *val, int *len);
	/* setsockopt and getsockopt take SOL_SOCKET too (host sockets,
	 * whose options are the host's), else sock_setsockopt does */
	bool sol_socket;
	/* The file is closed: tear the connection down. */
	void (*release)(struct socket *s);
	/* The last reference is gone: free. */
	void (*destroy)(struct socket *s);
};

struct socket {
	int refcount;
	int family, type, protocol;
	const struct proto_ops *ops;
	struct file *file;  /* not a reference; NULL before accept and after close */
	struct net_ns *net; /* a reference: its maker's, or its listener's */
	enum sock_state state;
	unsigned shutdown; /* RCV_SHUTDOWN | SEND_SHUTDOWN */
	int err;	   /* pending error for SO_ERROR and the next call (positive) */
	int sndbuf, rcvbuf;
	/* Set by SO_SNDBUF or SO_RCVBUF (Linux's SOCK_SNDBUF_LOCK and
	 * SOCK_RCVBUF_LOCK): TCP no longer sizes it itself. */
	bool sndbuf_locked, rcvbuf_locked;
	int64_t rcvtimeo, sndtimeo; /* in jiffies; SOCK_TIMEO_FOREVER */
	size_t wmem;		    /* truesize of buffers sent and not yet consumed */
	int rcvlowat;
	bool passcred;
	int bound_dev_if; /* SO_BINDTODEVICE, SO_BINDTOIFINDEX: 0 none */
	/* SO_TIMESTAMP and SO_TIMESTAMPNS, _OLD or _NEW (Linux's
	 * SOCK_RCVTSTAMP, SOCK_RCVTSTAMPNS, SOCK_TSTAMP_NEW): SOCK_TS_* */
	unsigned tstamp;
	unsigned optflags; /* SO_DEBUG, SO_REUSEADDR... kept for getsockopt */
	int priority;
	struct linux_linger linger;
	uint64_t ino;
	uint64_t cookie; /* SO_COOKIE, sock_diag's: made at first use (0: not yet) */
	uint32_t uid, gid;
	struct waitq wq; /* readers, writers, accept, poll: woken on every change */
	/* SO_ATTACH_FILTER's checked program (NULL: none), and
	 * SO_LOCK_FILTER: it can no longer change. */
	struct sock_filter_prog *filter;
	bool filter_locked;
};

/* A socket filter: its instructions as the guest gave them. */
struct sock_filter_prog {
	unsigned len;
	struct linux_sock_filter insns[];
};

/* Sets up the common part of a new socket (one reference), in the current
 * task's network namespace. */
void sock_init(struct socket *s, int family, int type, const struct proto_ops *ops);
/* Moves a new socket to the namespace of the one it is a connection of. */
void sock_set_net(struct socket *s, const struct socket *of);
/* listen and accept of a protocol without connections (Linux's
 * sock_no_listen, sock_no_accept): EOPNOTSUPP. */
int sock_no_listen(struct task *t, struct socket *s, int backlog);
/* net.core.somaxconn: listen's backlog is cut to it (instance-wide here;
 * Linux's is per network namespace). */
extern int sock_somaxconn;
int sock_no_accept(struct socket *s, bool nonblock, struct socket **out);
void sock_get(struct socket *s);
void sock_put(struct socket *s);
/* The socket's cookie (SO_COOKIE, sock_diag): a number no other socket of
 * the instance has, made at first use as Linux's sock_gen_cookie. */
uint64_t sock_cookie(struct socket *s);

/* SO_ATTACH_FILTER's program from optval, checked (0 or -errno), and
 * its installing in place of s's filter (a --net=host socket's once the
 * host took it too). */
int sock_filter_prepare(struct socket *s, const void *optval, unsigned len,
			struct sock_filter_prog **out);
void sock_filter_install(struct socket *s, struct sock_filter_prog *f);
/* Runs s's filter on a packet arriving (Linux's sk_filter_trim_cap):
 * false if it drops it, else *keep is how many of pkt's len bytes it
 * keeps (cap at least; all of them if s has no filter). */
bool sock_filter_run(struct socket *s, const struct cbpf_pkt *pkt, uint32_t cap, uint32_t *keep);
/* The same for a packet of len bytes at data that has no headers below it
 * (AF_UNIX, netlink: the network header is data's start; no device). */
bool sock_filter_data(struct socket *s, const void *data, size_t len, size_t *keep);
/* getsockopt(SO_GET_FILTER): the program's length in instructions when
 * *len is 0, else the program copied to uval if *len (in instructions)
 * holds it (EINVAL if not); *len becomes its length. 0 with no filter. */
int sock_get_filter(struct task *t, struct socket *s, uaddr_t uval, int *len);

/* socket(2) without the fd: family, type (without flags) and protocol. */
int sock_create(struct task *t, int family, int type, int protocol, struct socket **out);
/* A file for s, taking over the caller's reference: flags O_NONBLOCK. */
int sock_alloc_file(struct socket *s, unsigned flags, struct file **out);
/* The socket behind a file, or NULL if it is not one. */
struct socket *sock_from_file(struct file *f);

/* readv/writev on a socket file: one recvmsg or sendmsg (one datagram). */
long sock_rw_iov(struct task *t, struct file *f, const struct linux_iovec *iov, int cnt,
		 bool write);

/* sock_error: the pending error, cleared (negative), or 0. */
int sock_error(struct socket *s);
/* When a blocking call gives up: 0 (do not wait), -1 (never) or a
 * monotonic deadline in ns, from a SO_*TIMEO value. */
int64_t sock_deadline(int64_t timeo, bool nonblock);
/* Sleeps once on wq: 0 after a wakeup (the caller checks again); -EAGAIN
 * when it may not wait or the deadline passed; -ERESTARTSYS, or -EINTR
 * with a timeout, on a signal. */
int sock_wait(struct waitq *wq, int64_t deadline);

int sock_setsockopt(struct socket *s, int level, int name, const void *val, unsigned len);
/* *len: the guest's buffer size in, the size to copy out on return. */
int sock_getsockopt(struct socket *s, int level, int name, void *val, int *len);

/* Every queued buffer's truesize (net/unix_msg.c, net/udp.c): false when
 * the instance's socket memory is used up (a send is ENOBUFS, a datagram
 * dropped), so no number of sockets or SO_*BUFFORCE holds more. */
bool sock_mem_charge(size_t bytes);
void sock_mem_uncharge(size_t bytes);
/* A TCP sender's wait for the socket memory to have room (as sock_wait:
 * 0 to try again, -EAGAIN, -EINTR...), or -ENOBUFS if no buffer is
 * queued anywhere to make room. */
int sock_mem_wait(int64_t deadline);

/* AF_UNIX (net/unix.c). */
int unix_create(int type, int protocol, struct socket **out);
/* SO_REUSEADDR and SO_REUSEPORT, for the inet port table. */
bool sock_reuseaddr(const struct socket *s);
bool sock_reuseport(const struct socket *s);
/* SO_LINGER on with a time of 0: TCP's close is a reset. */
bool sock_linger_zero(const struct socket *s);
/* SO_OOBINLINE: the urgent byte stays in the stream. */
bool sock_oobinline(const struct socket *s);
/* SO_BROADCAST: datagrams may go to a broadcast address. */
bool sock_broadcast(const struct socket *s);

enum { SOCK_TS_RCV = 1, SOCK_TS_NS = 2, SOCK_TS_NEW = 4 };
/* The arrival time of a buffer queued on s now: CLOCK_REALTIME in ns if s
 * asked for times (SO_TIMESTAMP...), else 0. */
int64_t sock_tstamp_now(const struct socket *s);
/* recvmsg of a datagram stamped tstamp_ns (0: none, now is taken): the
 * receive time s asked for, if it did, into scm for scm_recv. UDP, ICMP,
 * TCP (the last buffer read's), AF_UNIX datagram and seqpacket sockets
 * report it, as Linux's; AF_UNIX streams not. */
void sock_recv_timestamp(const struct socket *s, int64_t tstamp_ns, struct scm *scm);

#endif
