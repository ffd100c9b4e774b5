/* net/unix.c: AF_UNIX sockets: names (a socket node in the filesystem,
 * the abstract namespace, autobind), connections (socketpair, listen,
 * connect, accept, shutdown, close) and readiness. Sending and receiving
 * are in unix_msg.c. As in Linux, connect() makes the server's end at once
 * and queues it on the listener, so a client may write before accept().
 * A socket bound to a path is found by its node's (dev, ino): connect()
 * walks the path as any lookup and asks the name table for that inode.
 * Sockets passed in each other's queues can form cycles that no process
 * holds: unix_gc.c frees them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/unix.h"
#include "kernel/task.h"
#include "host/host.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "vfs/poll.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/poll.h"
#include "abi/linux/stat.h"

#define SUN_PATH_OFF	   2  /* offsetof(struct sockaddr_un, sun_path) */
#define DGRAM_QLEN_DEFAULT 10 /* net.unix.max_dgram_qlen */
#define AUTOBIND_LEN	   (SUN_PATH_OFF + 6)

/* Every socket that has a name others can find it by. */
static LIST_HEAD_DECL(bound_socks);
/* Every AF_UNIX socket, for the garbage collector. */
LIST_HEAD_DECL(unix_every_sock);

static const struct proto_ops unix_stream_ops;
static const struct proto_ops unix_dgram_ops;
static const struct proto_ops unix_seqpacket_ops;

void unix_fill_cred(struct linux_ucred *uc)
{
	uc->pid = current->proc->pid;
	uc->uid = current->proc->cred.euid;
	uc->gid = current->proc->cred.egid;
}

struct unix_sock *unix_sock_alloc(size_t size, int family, int type, const struct proto_ops *ops)
{
	struct unix_sock *u = calloc(1, size);

	if (!u)
		return NULL;
	sock_init(&u->sk, family, type, ops);
	list_init(&u->queue);
	list_init(&u->bound_link);
	list_add_tail(&u->all_link, &unix_every_sock);
	waitq_init(&u->peer_wait);
	u->max_backlog = DGRAM_QLEN_DEFAULT;
	u->peercred.uid = u->peercred.gid = (uint32_t)-1;
	return u;
}

static struct unix_sock *unix_alloc(int type)
{
	const struct proto_ops *ops = type == LINUX_SOCK_STREAM	 ? &unix_stream_ops
				      : type == LINUX_SOCK_DGRAM ? &unix_dgram_ops
								 : &unix_seqpacket_ops;

	return unix_sock_alloc(sizeof(struct unix_sock), LINUX_AF_UNIX, type, ops);
}

int unix_create(int type, int protocol, struct socket **out)
{
	struct unix_sock *u;

	if (protocol && protocol != LINUX_AF_UNIX)
		return -EPROTONOSUPPORT;
	switch (type) {
	case LINUX_SOCK_RAW:
		type = LINUX_SOCK_DGRAM; /* as BSD and Linux */
		break;
	case LINUX_SOCK_STREAM:
	case LINUX_SOCK_DGRAM:
	case LINUX_SOCK_SEQPACKET:
		break;
	default:
		return -ESOCKTNOSUPPORT;
	}
	u = unix_alloc(type);
	if (!u)
		return -ENOMEM;
	*out = &u->sk;
	return 0;
}

void unix_destroy(struct socket *s)
{
	struct unix_sock *u = unix_sk(s);

	unix_purge_queue(u);
	/* Nothing may stay queued on a socket being freed. */
	waitq_release(&s->wq);
	waitq_release(&u->peer_wait);
	list_del(&u->all_link);
	free(u);
}

void unix_release_sock(struct unix_sock *u, bool embryo)
{
	bool unread = !list_empty(&u->queue);
	struct unix_sock *pair = u->peer;

	list_del(&u->bound_link);
	u->sk.shutdown = SHUTDOWN_MASK;
	u->sk.state = SS_CLOSE;
	u->dead = true;
	u->peer = NULL;
	waitq_wake_all(&u->peer_wait);
	waitq_wake_all(&u->sk.wq);
	if (pair) {
		if (unix_connection_based(u)) {
			pair->sk.shutdown = SHUTDOWN_MASK;
			if (unread || embryo) {
				pair->sk.err = ECONNRESET;
				pair->reset = true;
			}
			waitq_wake_all(&pair->sk.wq);
		}
		unix_put(pair);
	}
	unix_purge_queue(u);
	path_put(&u->path);
}

static void unix_release(struct socket *s)
{
	unix_release_sock(unix_sk(s), false);
	unix_gc();
}

void unix_purge_queue(struct unix_sock *u)
{
	while (!list_empty(&u->queue)) {
		struct skb *skb = list_first_entry(&u->queue, struct skb, link);

		list_del(&skb->link);
		u->qlen--;
		if (skb->embryo) {
			unix_release_sock(skb->embryo, true);
			unix_put(skb->embryo);
			skb->embryo = NULL;
		}
		skb_free(skb);
	}
	u->inq = 0;
	u->oob_skb = NULL;
}

int unix_validate_addr(const struct linux_sockaddr_storage *a, int len)
{
	if (len <= SUN_PATH_OFF || len > (int)sizeof(struct linux_sockaddr_un))
		return -EINVAL;
	if (a->ss_family != LINUX_AF_UNIX)
		return -EINVAL;
	return 0;
}

/* A filesystem name: sun_path cut at len and at its first NUL. Returns
 * the address length Linux keeps (with the NUL). */
static int mkname_bsd(const struct linux_sockaddr_un *sun, int len, char *name)
{
	memcpy(name, sun->sun_path, len - SUN_PATH_OFF);
	name[len - SUN_PATH_OFF] = 0;
	return (int)strlen(name) + SUN_PATH_OFF + 1;
}

/* Abstract names are per network namespace; filesystem names are the
 * mount namespace's to reach. */
static struct unix_sock *find_abstract(const struct socket *s, const struct linux_sockaddr_un *sun,
				       int len)
{
	struct unix_sock *u;

	list_for_each_entry(u, &bound_socks, bound_link)
	{
		if (!u->path.dentry && u->sk.type == s->type && u->sk.net == s->net &&
		    u->addrlen == len && memcmp(&u->addr, sun, len) == 0)
			return u;
	}
	return NULL;
}

static struct unix_sock *find_bsd(uint64_t dev, uint64_t ino)
{
	struct unix_sock *u;

	list_for_each_entry(u, &bound_socks, bound_link)
	{
		if (u->path.dentry && u->bound_dev == dev && u->bound_ino == ino)
			return u;
	}
	return NULL;
}

int unix_find_other(struct task *t, const struct linux_sockaddr_un *sun, int len,
		    const struct socket *s, struct unix_sock **out)
{
	struct unix_sock *u = NULL;
	int ret;

	if (sun->sun_path[0]) {
		char name[LINUX_UNIX_PATH_MAX + 1];
		struct inode *ino;
		struct path p;

		mkname_bsd(sun, len, name);
		ret = path_lookupat(t, LINUX_AT_FDCWD, name, LOOKUP_FOLLOW, &p);
		if (ret < 0)
			return ret;
		ino = p.dentry->inode;
		ret = inode_permission(t, ino, LINUX_W_OK);
		if (ret == 0) {
			ret = -ECONNREFUSED;
			if (LINUX_S_ISSOCK(ino->mode))
				u = find_bsd(ino->dev, ino->ino);
			if (u)
				ret = u->sk.type == s->type ? 0 : -EPROTOTYPE;
		}
		path_put(&p);
	} else {
		u = find_abstract(s, sun, len);
		ret = u ? 0 : -ECONNREFUSED;
	}
	if (ret < 0)
		return ret;
	unix_get(u);
	*out = u;
	return 0;
}

static void set_name(struct unix_sock *u, const void *sun, int len)
{
	memset(&u->addr, 0, sizeof(u->addr));
	memcpy(&u->addr, sun, len);
	u->addrlen = len;
	list_add_tail(&u->bound_link, &bound_socks);
}

/* A name in the abstract namespace: NUL and five hex digits. */
int unix_autobind(struct unix_sock *u)
{
	struct linux_sockaddr_un sun;
	uint32_t ordernum = 0, last;
	char digits[8];

	if (u->addrlen)
		return 0;
	if (host_getrandom(&ordernum, sizeof(ordernum)) < 0)
		ordernum = (uint32_t)sched_now_ns();
	ordernum &= 0xfffff;
	last = ordernum;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = LINUX_AF_UNIX;
	for (;;) {
		ordernum = (ordernum + 1) & 0xfffff;
		snprintf(digits, sizeof(digits), "%05x", ordernum);
		memcpy(sun.sun_path + 1, digits, 5);
		if (!find_abstract(&u->sk, &sun, AUTOBIND_LEN))
			break;
		if (ordernum == last)
			return -ENOSPC;
	}
	set_name(u, &sun, AUTOBIND_LEN);
	return 0;
}

/* bind to a path: the socket node is made first (EADDRINUSE if the name
 * exists), as Linux does, then the socket takes it. */
static int bind_bsd(struct task *t, struct unix_sock *u, const struct linux_sockaddr_un *sun,
		    int len)
{
	/* less the umask here too, as Linux's unix_bind_bsd: a default ACL
	 * of the directory masks it then */
	uint32_t mode = LINUX_S_IFSOCK | (0777 & ~t->proc->umask);
	char name[LINUX_UNIX_PATH_MAX + 1];
	struct linux_sockaddr_storage named;
	struct path p;
	int ret;

	len = mkname_bsd(sun, len, name);
	ret = vfs_mknodat(t, LINUX_AT_FDCWD, name, mode, 0);
	if (ret < 0)
		return ret == -EEXIST ? -EADDRINUSE : ret;
	if (u->addrlen) {
		vfs_unlinkat(t, LINUX_AT_FDCWD, name, false);
		return -EINVAL;
	}
	ret = path_lookupat(t, LINUX_AT_FDCWD, name, 0, &p);
	if (ret < 0)
		return ret;
	u->path = p;
	u->bound_dev = p.dentry->inode->dev;
	u->bound_ino = p.dentry->inode->ino;
	memset(&named, 0, sizeof(named));
	named.ss_family = LINUX_AF_UNIX;
	memcpy(named.data, name, len - SUN_PATH_OFF);
	set_name(u, &named, len);
	return 0;
}

static int unix_bind(struct task *t, struct socket *s, const struct linux_sockaddr_storage *a,
		     int len)
{
	struct unix_sock *u = unix_sk(s);
	struct linux_sockaddr_un sun;
	int ret;

	if (len == SUN_PATH_OFF && a->ss_family == LINUX_AF_UNIX)
		return unix_autobind(u);
	ret = unix_validate_addr(a, len);
	if (ret < 0)
		return ret;
	memset(&sun, 0, sizeof(sun));
	memcpy(&sun, a, len);
	if (sun.sun_path[0])
		return bind_bsd(t, u, &sun, len);
	if (u->addrlen)
		return -EINVAL;
	if (find_abstract(s, &sun, len))
		return -EADDRINUSE;
	set_name(u, &sun, len);
	return 0;
}

static int unix_listen(struct task *t, struct socket *s, int backlog)
{
	struct unix_sock *u = unix_sk(s);

	(void)t;
	if (!unix_connection_based(u))
		return -EOPNOTSUPP;
	if (!u->addrlen)
		return -EINVAL;
	if (s->state != SS_CLOSE && s->state != SS_LISTEN)
		return -EINVAL;
	if (backlog > u->max_backlog)
		waitq_wake_all(&u->peer_wait);
	u->max_backlog = backlog;
	s->state = SS_LISTEN;
	unix_fill_cred(&u->peercred);
	return 0;
}

/* Waits for a listener with room in its queue: *other holds a reference. */
static int find_listener(struct task *t, struct socket *s, const struct linux_sockaddr_un *sun,
			 int len, int64_t deadline, struct unix_sock **out)
{
	struct unix_sock *other;
	int ret;

	for (;;) {
		ret = unix_find_other(t, sun, len, s, &other);
		if (ret < 0)
			return ret;
		if (other->sk.state != SS_LISTEN || (other->sk.shutdown & RCV_SHUTDOWN)) {
			unix_put(other);
			return -ECONNREFUSED;
		}
		if (!unix_recvq_full(other)) {
			*out = other;
			return 0;
		}
		ret = sock_wait(&other->peer_wait, deadline);
		unix_put(other);
		if (ret < 0)
			return ret;
	}
}

static int unix_stream_connect(struct task *t, struct socket *s,
			       const struct linux_sockaddr_storage *a, int len, bool nonblock)
{
	struct unix_sock *u = unix_sk(s), *newu, *other;
	struct linux_sockaddr_un sun;
	struct skb *skb;
	int ret = unix_validate_addr(a, len);

	if (ret < 0)
		return ret;
	memset(&sun, 0, sizeof(sun));
	memcpy(&sun, a, len);
	if (s->passcred && !u->addrlen && (ret = unix_autobind(u)) < 0)
		return ret;
	newu = unix_alloc(s->type);
	skb = calloc(1, sizeof(*skb));
	if (!newu || !skb) {
		if (newu)
			unix_put(newu);
		free(skb);
		return -ENOMEM;
	}
	/* the server's end is in the connecting socket's namespace, as
	 * Linux's unix_create1(sock_net(sk)) */
	sock_set_net(&newu->sk, s);
	ret = find_listener(t, s, &sun, len, sock_deadline(s->sndtimeo, nonblock), &other);
	if (ret == 0 && s->state != SS_CLOSE) {
		ret = s->state == SS_ESTABLISHED ? -EISCONN : -EINVAL;
		unix_put(other);
	}
	if (ret < 0) {
		unix_put(newu);
		free(skb);
		return ret;
	}
	/* The server's end: connected to us, named as the listener. */
	unix_fill_cred(&newu->peercred);
	newu->addr = other->addr;
	newu->addrlen = other->addrlen;
	/* and the listener's file, as sock_diag shows it (Linux's newsk
	 * holds the path too; here it does not, so no lookup finds it) */
	newu->bound_dev = other->bound_dev;
	newu->bound_ino = other->bound_ino;
	u->peercred = other->peercred;
	unix_queue_embryo(u, other, newu, skb);
	unix_put(other);
	return 0;
}

void unix_queue_embryo(struct unix_sock *u, struct unix_sock *listener, struct unix_sock *newu,
		       struct skb *skb)
{
	newu->peer = u;
	unix_get(u);
	newu->sk.state = SS_ESTABLISHED;
	newu->sk.passcred = listener->sk.passcred;
	u->sk.state = SS_ESTABLISHED;
	u->peer = newu;
	unix_get(newu);
	skb->embryo = newu; /* takes newu's own reference */
	list_add_tail(&skb->link, &listener->queue);
	listener->qlen++;
	waitq_wake(&listener->sk.wq,
		   LINUX_POLLIN | LINUX_POLLPRI | LINUX_POLLRDNORM | LINUX_POLLRDBAND);
}

int unix_accept(struct socket *s, bool nonblock, struct socket **out)
{
	struct unix_sock *u = unix_sk(s), *newu;
	int64_t deadline = sock_deadline(s->rcvtimeo, nonblock);
	struct skb *skb;
	int ret;

	if (!unix_connection_based(u))
		return -EOPNOTSUPP;
	if (s->state != SS_LISTEN)
		return -EINVAL;
	for (;;) {
		ret = sock_error(s);
		if (ret < 0)
			return ret;
		if (!list_empty(&u->queue))
			break;
		/* shut down: EINVAL, but only for a caller that would wait */
		if (deadline == 0)
			return -EAGAIN;
		if (s->shutdown & RCV_SHUTDOWN)
			return -EINVAL;
		ret = sock_wait(&s->wq, deadline);
		if (ret < 0)
			return ret;
		if (s->state != SS_LISTEN)
			return -EINVAL;
	}
	skb = list_first_entry(&u->queue, struct skb, link);
	list_del(&skb->link);
	u->qlen--;
	newu = skb->embryo;
	skb->embryo = NULL;
	skb_free(skb);
	waitq_wake_all(&u->peer_wait);
	*out = &newu->sk;
	return 0;
}

static int unix_socketpair(struct task *t, struct socket *a, struct socket *b)
{
	struct unix_sock *ua = unix_sk(a), *ub = unix_sk(b);

	(void)t;
	ua->peer = ub;
	unix_get(ub);
	ub->peer = ua;
	unix_get(ua);
	unix_fill_cred(&ua->peercred);
	unix_fill_cred(&ub->peercred);
	a->state = b->state = SS_ESTABLISHED;
	return 0;
}

void unix_dgram_disconnected(struct unix_sock *u, struct unix_sock *other)
{
	if (list_empty(&u->queue))
		return;
	unix_purge_queue(u);
	waitq_wake_all(&u->peer_wait);
	if (!other->dead && other->peer == u) {
		other->sk.err = ECONNRESET;
		waitq_wake_all(&other->sk.wq);
	}
}

static int unix_dgram_connect(struct task *t, struct socket *s,
			      const struct linux_sockaddr_storage *a, int len, bool nonblock)
{
	struct unix_sock *u = unix_sk(s), *other = NULL, *old;
	int ret;

	(void)nonblock;
	if (len < (int)sizeof(a->ss_family))
		return -EINVAL;
	if (a->ss_family != LINUX_AF_UNSPEC) {
		struct linux_sockaddr_un sun;

		ret = unix_validate_addr(a, len);
		if (ret < 0)
			return ret;
		memset(&sun, 0, sizeof(sun));
		memcpy(&sun, a, len);
		if (s->passcred && !u->addrlen && (ret = unix_autobind(u)) < 0)
			return ret;
		ret = unix_find_other(t, &sun, len, s, &other);
		if (ret < 0)
			return ret;
		if (other->peer && other->peer != u) {
			unix_put(other);
			return -EPERM;
		}
		s->state = SS_ESTABLISHED;
		other->sk.state = SS_ESTABLISHED;
	}
	old = u->peer;
	u->peer = other; /* takes find's reference */
	if (!old)
		return 0;
	if (!other)
		s->state = SS_CLOSE;
	waitq_wake_all(&s->wq);
	if (other != old) {
		unix_dgram_disconnected(u, old);
		if (!old->peer)
			old->sk.state = SS_CLOSE;
	}
	unix_put(old);
	return 0;
}

static int unix_getname(struct socket *s, struct linux_sockaddr_storage *a, bool peer)
{
	struct unix_sock *u = unix_sk(s);

	if (peer) {
		u = u->peer;
		if (!u)
			return -ENOTCONN;
	}
	memset(a, 0, sizeof(*a));
	if (!u->addrlen) {
		a->ss_family = LINUX_AF_UNIX;
		return SUN_PATH_OFF;
	}
	memcpy(a, &u->addr, u->addrlen);
	return u->addrlen;
}

static int unix_shutdown(struct socket *s, int how)
{
	struct unix_sock *u = unix_sk(s), *other = u->peer;
	unsigned mode, peer_mode = 0;

	if (how < LINUX_SHUT_RD || how > LINUX_SHUT_RDWR)
		return -EINVAL;
	mode = (unsigned)how + 1; /* SHUT_RD -> RCV_SHUTDOWN, SHUT_WR -> SEND_SHUTDOWN */
	s->shutdown |= mode;
	waitq_wake_all(&s->wq);
	waitq_wake_all(&u->peer_wait);
	if (other && unix_connection_based(u)) {
		if (mode & RCV_SHUTDOWN)
			peer_mode |= SEND_SHUTDOWN;
		if (mode & SEND_SHUTDOWN)
			peer_mode |= RCV_SHUTDOWN;
		other->sk.shutdown |= peer_mode;
		waitq_wake_all(&other->sk.wq);
		waitq_wake_all(&other->peer_wait);
	}
	return 0;
}

static bool unix_writable(struct socket *s)
{
	return s->state != SS_LISTEN && s->state != SS_CONNECTING &&
	       (s->wmem + 1) * 4 <= (size_t)s->sndbuf;
}

#define POLL_IN	 (LINUX_POLLIN | LINUX_POLLRDNORM)
#define POLL_OUT (LINUX_POLLOUT | LINUX_POLLWRNORM | LINUX_POLLWRBAND)

unsigned unix_poll(struct socket *s, struct poll_table *pt)
{
	struct unix_sock *u = unix_sk(s);
	unsigned mask = 0;

	poll_wait(pt, &s->wq);
	if (s->err)
		mask |= LINUX_POLLERR;
	if (s->shutdown == SHUTDOWN_MASK)
		mask |= LINUX_POLLHUP;
	if (s->shutdown & RCV_SHUTDOWN)
		mask |= LINUX_POLLRDHUP | POLL_IN;
	if (!list_empty(&u->queue))
		mask |= POLL_IN;
	if (u->oob_skb)
		mask |= LINUX_POLLPRI;
	if (s->state == SS_CLOSE)
		mask |= LINUX_POLLHUP;
	if (unix_writable(s))
		mask |= POLL_OUT;
	return mask;
}

/* SIOCATMARK of a stream: the next byte to read is the out-of-band one
 * (an empty buffer, one read out of band, before it or alone counts);
 * EOPNOTSUPP for the other types. */
static long unix_ioctl(struct socket *s, unsigned cmd)
{
	struct unix_sock *u = unix_sk(s);
	struct skb *skb, *next;

	if (cmd != LINUX_SIOCATMARK)
		return -ENOIOCTLCMD;
	if (s->type != LINUX_SOCK_STREAM)
		return -EOPNOTSUPP;
	if (list_empty(&u->queue))
		return 0;
	skb = unix_next_skb(u, NULL);
	next = unix_next_skb(u, skb);
	return skb == u->oob_skb ||
	       (skb->consumed == skb->len && (!u->oob_skb || next == u->oob_skb));
}

unsigned unix_dgram_poll(struct socket *s, struct poll_table *pt)
{
	struct unix_sock *u = unix_sk(s), *other = u->peer;
	unsigned mask = 0;
	bool writable;

	poll_wait(pt, &s->wq);
	if (s->err)
		mask |= LINUX_POLLERR;
	if (s->shutdown & RCV_SHUTDOWN)
		mask |= LINUX_POLLRDHUP | POLL_IN;
	if (s->shutdown == SHUTDOWN_MASK)
		mask |= LINUX_POLLHUP;
	if (!list_empty(&u->queue))
		mask |= POLL_IN;
	if (s->type == LINUX_SOCK_SEQPACKET && s->state == SS_CLOSE)
		mask |= LINUX_POLLHUP;
	writable = unix_writable(s);
	/* A peer not connected back to us takes only max_dgram_qlen. */
	if (writable && other && other->peer != u && unix_recvq_full(other) && !other->dead) {
		poll_wait(pt, &other->peer_wait);
		writable = false;
	}
	if (writable)
		mask |= POLL_OUT;
	return mask;
}

int unix_peercred(struct socket *s, struct linux_ucred *uc)
{
	*uc = unix_sk(s)->peercred;
	return 0;
}

static const struct proto_ops unix_stream_ops = {
	.bind = unix_bind,
	.connect = unix_stream_connect,
	.socketpair = unix_socketpair,
	.listen = unix_listen,
	.accept = unix_accept,
	.getname = unix_getname,
	.sendmsg = unix_stream_sendmsg,
	.recvmsg = unix_stream_recvmsg,
	.shutdown = unix_shutdown,
	.poll = unix_poll,
	.inq = unix_inq,
	.ioctl = unix_ioctl,
	.peercred = unix_peercred,
	.release = unix_release,
	.destroy = unix_destroy,
};

static const struct proto_ops unix_dgram_ops = {
	.bind = unix_bind,
	.connect = unix_dgram_connect,
	.socketpair = unix_socketpair,
	.listen = unix_listen,
	.accept = unix_accept,
	.getname = unix_getname,
	.sendmsg = unix_dgram_sendmsg,
	.recvmsg = unix_dgram_recvmsg,
	.shutdown = unix_shutdown,
	.poll = unix_dgram_poll,
	.inq = unix_inq,
	.ioctl = unix_ioctl,
	.peercred = unix_peercred,
	.release = unix_release,
	.destroy = unix_destroy,
};

static const struct proto_ops unix_seqpacket_ops = {
	.bind = unix_bind,
	.connect = unix_stream_connect,
	.socketpair = unix_socketpair,
	.listen = unix_listen,
	.accept = unix_accept,
	.getname = unix_getname,
	.sendmsg = unix_seqpacket_sendmsg,
	.recvmsg = unix_seqpacket_recvmsg,
	.shutdown = unix_shutdown,
	.poll = unix_dgram_poll,
	.inq = unix_inq,
	.ioctl = unix_ioctl,
	.peercred = unix_peercred,
	.release = unix_release,
	.destroy = unix_destroy,
};
