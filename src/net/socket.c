/* net/socket.c: what every socket shares: its file (read, write, poll,
 * fstat, ioctl, close), creation by family, the SOL_SOCKET options and
 * sleeping under SO_RCVTIMEO/SO_SNDTIMEO. The families are AF_UNIX and
 * AF_INET/AF_INET6 on loopback (net/inet.c) and AF_NETLINK's
 * NETLINK_ROUTE (net/netlink.c); AF_PACKET and the rest are EAFNOSUPPORT,
 * as on a Linux built without them. The interface ioctls (SIOCGIFCONF,
 * SIOCGIFFLAGS...) work on every socket, as Linux's dev_ioctl.
 * Differs from Linux: timeouts are kept in jiffies of HZ=250 (the host's
 * value when this was written), so SO_RCVTIMEO reads back rounded the
 * same way; SO_SNDBUF/SO_RCVBUF are capped at Linux's default wmem_max and
 * rmem_max (212992), whatever the host's sysctls say. */
#include <stdlib.h>
#include <string.h>

#include "net/socket.h"
#include "net/inet.h"
#include "net/hostinet.h"
#include "net/netdev.h"
#include "net/netlink.h"
#include "net/netns.h"
#include "kernel/task.h"
#include "kernel/userns.h"
#include "kernel/pidns.h"
#include "kernel/cred.h"
#include "mm/usercopy.h"
#include "mm/commit.h"
#include "vfs/file.h"
#include "vfs/poll.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/ioctl.h"
#include "abi/linux/misc.h"
#include "abi/linux/poll.h"
#include "abi/linux/signal.h"
#include "abi/linux/stat.h"
#include "abi/linux/types.h"

#define HZ	       250
#define NSEC_PER_JIFFY (1000000000LL / HZ)
#define USEC_PER_SEC   1000000LL
#define SK_MEM_MAX     212992 /* net.core.{w,r}mem_{default,max} */

int sock_somaxconn = 4096; /* Linux's default since 5.4 */
#define SOCK_MIN_SNDBUF	  4608
#define SOCK_MIN_RCVBUF	  2304
#define CAP_NET_ADMIN	  12
#define CAP_NET_RAW	  13
#define MAX_SCHEDULE_SECS (INT64_MAX / HZ - 1)

/* Boolean options kept only to be read back. */
enum {
	OPT_DEBUG = 1 << 0,
	OPT_REUSEADDR = 1 << 1,
	OPT_DONTROUTE = 1 << 2,
	OPT_BROADCAST = 1 << 3,
	OPT_KEEPALIVE = 1 << 4,
	OPT_OOBINLINE = 1 << 5,
	OPT_LINGER = 1 << 6,
	OPT_REUSEPORT = 1 << 7,
};

static const struct file_ops socket_file_ops;
static uint64_t next_cookie = 1;
static uint64_t sockfs_dev;

void sock_init(struct socket *s, int family, int type, const struct proto_ops *ops)
{
	s->refcount = 1;
	s->family = family;
	s->type = type;
	s->ops = ops;
	s->state = SS_CLOSE;
	s->sndbuf = SK_MEM_MAX;
	s->rcvbuf = SK_MEM_MAX;
	s->rcvtimeo = SOCK_TIMEO_FOREVER;
	s->sndtimeo = SOCK_TIMEO_FOREVER;
	s->rcvlowat = 1;
	s->ino = vfs_next_ino();
	s->net = task_net(current);
	net_get(s->net);
	s->net->nr_socks++;
	if (current) {
		s->uid = current->proc->cred.fsuid;
		s->gid = current->proc->cred.fsgid;
	}
	waitq_init(&s->wq);
}

void sock_set_net(struct socket *s, const struct socket *of)
{
	net_get(of->net);
	of->net->nr_socks++;
	s->net->nr_socks--;
	net_put(s->net);
	s->net = of->net;
}

bool sock_reuseaddr(const struct socket *s)
{
	return s->optflags & OPT_REUSEADDR;
}

bool sock_reuseport(const struct socket *s)
{
	return s->optflags & OPT_REUSEPORT;
}

bool sock_oobinline(const struct socket *s)
{
	return s->optflags & OPT_OOBINLINE;
}

bool sock_broadcast(const struct socket *s)
{
	return s->optflags & OPT_BROADCAST;
}

bool sock_linger_zero(const struct socket *s)
{
	return (s->optflags & OPT_LINGER) && s->linger.l_linger == 0;
}

/* Queued buffers of every socket, in truesize bytes. */
static uint64_t sock_mem;
/* TCP senders that found it full (Linux's sk_stream_wait_memory): woken
 * as buffers go. */
static struct waitq sock_mem_wq = { LIST_HEAD_INIT(sock_mem_wq.waiters) };

bool sock_mem_charge(size_t bytes)
{
	/* an eighth of the instance's memory, about what Linux's tcp_mem
	 * and udp_mem allow of RAM, and counted in it (as a memory cgroup
	 * counts socket buffers) */
	if (sock_mem + bytes > mem_limit() / 8 || !mem_fits(bytes))
		return false;
	sock_mem += bytes;
	mem_account((int64_t)bytes);
	return true;
}

void sock_mem_uncharge(size_t bytes)
{
	sock_mem -= bytes;
	mem_account(-(int64_t)bytes);
	if (!list_empty(&sock_mem_wq.waiters))
		waitq_wake_all(&sock_mem_wq);
}

int sock_mem_wait(int64_t deadline)
{
	/* nothing queued anywhere: no buffer will go to make room */
	if (sock_mem == 0)
		return -ENOBUFS;
	return sock_wait(&sock_mem_wq, deadline);
}

void sock_get(struct socket *s)
{
	s->refcount++;
}

void sock_put(struct socket *s)
{
	struct net_ns *net = s->net;

	if (--s->refcount > 0)
		return;
	net->nr_socks--;
	free(s->filter);
	s->ops->destroy(s);
	net_put(net);
}

uint64_t sock_cookie(struct socket *s)
{
	if (!s->cookie)
		s->cookie = next_cookie++;
	return s->cookie;
}

int sock_create(struct task *t, int family, int type, int protocol, struct socket **out)
{
	/* --net=host: the initial namespace's sockets only */
	bool host = hostinet_enabled() && task_net(t) == &init_net;

	if (family < 0 || family >= LINUX_AF_MAX)
		return -EAFNOSUPPORT;
	if (type < 0 || type >= LINUX_SOCK_MAX)
		return -EINVAL;
	switch (family) {
	case LINUX_AF_UNIX:
		return unix_create(type, protocol, out);
	case LINUX_AF_INET:
	case LINUX_AF_INET6:
		/* --net=host: streams and datagrams are host sockets */
		if (host && (type == LINUX_SOCK_STREAM || type == LINUX_SOCK_DGRAM))
			return hostinet_create(family, type, protocol, out);
		/* --net=host: no raw sockets (the loopback's would see none of
		 * the host's traffic); EPERM, as the host has for its users */
		if (host && type == LINUX_SOCK_RAW)
			return protocol ? -EPERM : -EPROTONOSUPPORT;
		return inet_create(family, type, protocol, out);
	case LINUX_AF_NETLINK:
		return netlink_create(type, protocol, out);
	default:
		return -EAFNOSUPPORT;
	}
}

struct socket *sock_from_file(struct file *f)
{
	return f->ops == &socket_file_ops ? f->priv : NULL;
}

int sock_alloc_file(struct socket *s, unsigned flags, struct file **out)
{
	struct file *f =
		file_alloc(&socket_file_ops, LINUX_O_RDWR | (flags & LINUX_O_NONBLOCK), -1, NULL);

	if (!f)
		return file_alloc_error();
	f->priv = s;
	s->file = f;
	*out = f;
	return 0;
}

int sock_error(struct socket *s)
{
	int err = s->err;

	s->err = 0;
	return -err;
}

int64_t sock_deadline(int64_t timeo, bool nonblock)
{
	if (nonblock || timeo == 0)
		return 0;
	int64_t now = sched_now_ns();

	if (timeo == SOCK_TIMEO_FOREVER || timeo > (INT64_MAX - now) / NSEC_PER_JIFFY)
		return -1;
	return now + timeo * NSEC_PER_JIFFY;
}

struct sock_sleep {
	struct task *task;
};

static void sock_timeout(void *arg)
{
	struct sock_sleep *ss = arg;

	sched_wake(ss->task);
}

int sock_wait(struct waitq *wq, int64_t deadline)
{
	struct sock_sleep ss = { current };
	struct ktimer tm = { .armed = false };

	if (deadline == 0)
		return -EAGAIN;
	if (signal_pending(current))
		return deadline < 0 ? -ERESTARTSYS : -EINTR;
	if (deadline > 0) {
		if (sched_now_ns() >= deadline)
			return -EAGAIN;
		ktimer_arm(&tm, deadline, sock_timeout, &ss);
	}
	waitq_sleep(wq);
	ktimer_cancel(&tm);
	return 0;
}

/* read(2) and write(2): recvmsg and sendmsg without flags or control. */
static long socket_read(struct file *f, void *buf, size_t n)
{
	struct socket *s = f->priv;
	struct kmsg m;
	long ret;

	memset(&m, 0, sizeof(m));
	iter_init_kernel(&m.iter, buf, n);
	ret = s->ops->recvmsg(current, s, &m,
			      (f->flags & LINUX_O_NONBLOCK) ? LINUX_MSG_DONTWAIT : 0);
	scm_destroy(&m.scm);
	return ret;
}

static long socket_write(struct file *f, const void *buf, size_t n)
{
	struct socket *s = f->priv;
	struct kmsg m;
	long ret;

	memset(&m, 0, sizeof(m));
	iter_init_kernel(&m.iter, (void *)buf, n);
	ret = s->ops->sendmsg(current, s, &m,
			      (f->flags & LINUX_O_NONBLOCK) ? LINUX_MSG_DONTWAIT : 0);
	scm_destroy(&m.scm);
	return ret;
}

long sock_rw_iov(struct task *t, struct file *f, const struct linux_iovec *iov, int cnt, bool write)
{
	struct socket *s = f->priv;
	unsigned flags = (f->flags & LINUX_O_NONBLOCK) ? LINUX_MSG_DONTWAIT : 0;
	struct kmsg m;
	long ret;

	memset(&m, 0, sizeof(m));
	ret = iter_from_iovec(t, iov, cnt, &m.iter);
	if (ret < 0)
		return ret;
	if (!write && !m.iter.count) {
		iter_free(&m.iter);
		return 0; /* an empty read never waits (sock_read_iter) */
	}
	ret = write ? s->ops->sendmsg(t, s, &m, flags) : s->ops->recvmsg(t, s, &m, flags);
	scm_destroy(&m.scm);
	iter_free(&m.iter);
	return ret;
}

static int64_t socket_llseek(struct file *f, int64_t off, int whence)
{
	(void)f;
	(void)off;
	(void)whence;
	return -ESPIPE;
}

static int socket_stat(struct file *f, struct linux_stat *st)
{
	struct socket *s = f->priv;

	if (!sockfs_dev)
		sockfs_dev = vfs_anon_dev();
	memset(st, 0, sizeof(*st));
	st->st_mode = LINUX_S_IFSOCK | 0777;
	st->st_nlink = 1;
	st->st_ino = s->ino;
	st->st_dev = sockfs_dev;
	st->st_blksize = 4096;
	st->st_uid = s->uid;
	st->st_gid = s->gid;
	return 0;
}

static long socket_ioctl(struct file *f, struct task *t, unsigned cmd, uint64_t arg)
{
	struct socket *s = f->priv;
	long n;
	int v;

	switch (cmd) {
	case LINUX_SIOCINQ:
		n = s->ops->inq(s);
		break;
	case LINUX_SIOCOUTQ:
		if (s->family == LINUX_AF_NETLINK)
			return -ENOTTY; /* not one of netlink's */
		n = s->ops->ioctl ? s->ops->ioctl(s, cmd) : -ENOIOCTLCMD;
		if (n == -ENOIOCTLCMD)
			n = (long)s->wmem;
		break;
	case LINUX_SIOCATMARK:
		n = s->ops->ioctl ? s->ops->ioctl(s, cmd) : -ENOIOCTLCMD;
		if (n == -ENOIOCTLCMD)
			return -ENOTTY;
		break;
	default:
		/* what a protocol leaves goes to the devices (dev_ioctl) */
		if (netdev_is_ioctl(cmd))
			return netdev_ioctl(t, s->net, s->family, cmd, arg);
		return -ENOTTY;
	}
	if (n < 0)
		return n;
	v = (int)n;
	return copy_to_user(t->mm, arg, &v, sizeof(v)) < 0 ? -EFAULT : 0;
}

static unsigned socket_poll(struct file *f, struct poll_table *pt)
{
	struct socket *s = f->priv;

	return s->ops->poll(s, pt);
}

static void socket_release(struct file *f)
{
	struct socket *s = f->priv;

	s->file = NULL;
	s->ops->release(s);
	sock_put(s);
}

static const struct file_ops socket_file_ops = {
	.read = socket_read,
	.write = socket_write,
	.llseek = socket_llseek,
	.stat = socket_stat,
	.ioctl = socket_ioctl,
	.poll = socket_poll,
	.release = socket_release,
	.fasync = true,
};

/* SO_RCVTIMEO and SO_SNDTIMEO: a timeval, rounded up to jiffies. */
static int set_timeout(int64_t *timeo, const void *val, unsigned len)
{
	struct linux_timeval tv;

	if (len < sizeof(tv))
		return -EINVAL;
	memcpy(&tv, val, sizeof(tv));
	if (tv.tv_usec < 0 || tv.tv_usec >= USEC_PER_SEC)
		return -EDOM;
	if (tv.tv_sec < 0) {
		*timeo = 0;
		return 0;
	}
	*timeo = SOCK_TIMEO_FOREVER;
	if ((tv.tv_sec || tv.tv_usec) && tv.tv_sec < MAX_SCHEDULE_SECS)
		*timeo =
			tv.tv_sec * HZ + (tv.tv_usec + USEC_PER_SEC / HZ - 1) / (USEC_PER_SEC / HZ);
	return 0;
}

static void get_timeout(int64_t timeo, struct linux_timeval *tv)
{
	if (timeo == SOCK_TIMEO_FOREVER) {
		tv->tv_sec = tv->tv_usec = 0;
		return;
	}
	tv->tv_sec = timeo / HZ;
	tv->tv_usec = (timeo % HZ) * USEC_PER_SEC / HZ;
}

static unsigned opt_flag(int name)
{
	switch (name) {
	case LINUX_SO_DEBUG:
		return OPT_DEBUG;
	case LINUX_SO_REUSEADDR:
		return OPT_REUSEADDR;
	case LINUX_SO_DONTROUTE:
		return OPT_DONTROUTE;
	case LINUX_SO_BROADCAST:
		return OPT_BROADCAST;
	case LINUX_SO_KEEPALIVE:
		return OPT_KEEPALIVE;
	case LINUX_SO_OOBINLINE:
		return OPT_OOBINLINE;
	case LINUX_SO_REUSEPORT:
		return OPT_REUSEPORT;
	default:
		return 0;
	}
}

/* The buffer sizes: doubled, as Linux does, within its bounds. */
static int set_buf(struct socket *s, int name, int val)
{
	const struct cred *c = &current->proc->cred;
	bool force = name == LINUX_SO_SNDBUFFORCE || name == LINUX_SO_RCVBUFFORCE;
	bool snd = name == LINUX_SO_SNDBUF || name == LINUX_SO_SNDBUFFORCE;
	int64_t v;

	if (force && !capable(c, CAP_NET_ADMIN))
		return -EPERM;
	if (force)
		v = val < 0 ? 0 : val;
	else
		v = (uint32_t)val < SK_MEM_MAX ? (uint32_t)val : SK_MEM_MAX;
	if (v > INT32_MAX / 2)
		v = INT32_MAX / 2;
	v *= 2;
	if (snd) {
		s->sndbuf = v > SOCK_MIN_SNDBUF ? (int)v : SOCK_MIN_SNDBUF;
		s->sndbuf_locked = true;
		waitq_wake(&s->wq, LINUX_POLLOUT | LINUX_POLLWRNORM | LINUX_POLLWRBAND);
	} else {
		s->rcvbuf = v > SOCK_MIN_RCVBUF ? (int)v : SOCK_MIN_RCVBUF;
		s->rcvbuf_locked = true;
	}
	return 0;
}

/* The one of the four timestamp options s has on (its control
 * message's type), or 0. */
static int sock_ts_name(const struct socket *s)
{
	bool ns = s->tstamp & SOCK_TS_NS, nw = s->tstamp & SOCK_TS_NEW;

	if (!(s->tstamp & SOCK_TS_RCV))
		return 0;
	if (ns)
		return nw ? LINUX_SO_TIMESTAMPNS_NEW : LINUX_SO_TIMESTAMPNS_OLD;
	return nw ? LINUX_SO_TIMESTAMP_NEW : LINUX_SO_TIMESTAMP_OLD;
}

int64_t sock_tstamp_now(const struct socket *s)
{
	return s->tstamp ? host_clock_ns(LINUX_CLOCK_REALTIME) : 0;
}

void sock_recv_timestamp(const struct socket *s, int64_t tstamp_ns, struct scm *scm)
{
	scm->ts_type = sock_ts_name(s);
	if (scm->ts_type)
		scm->tstamp_ns = tstamp_ns ? tstamp_ns : host_clock_ns(LINUX_CLOCK_REALTIME);
}

/* sock_bindtoindex_locked: changing a binding wants CAP_NET_RAW. Every
 * socket is on lo, so the binding is kept, not applied. */
static int bind_to_index(struct socket *s, int ifindex)
{
	if (s->bound_dev_if && !capable(&current->proc->cred, CAP_NET_RAW))
		return -EPERM;
	if (ifindex < 0)
		return -EINVAL;
	s->bound_dev_if = ifindex;
	return 0;
}

/* SO_ATTACH_FILTER (Linux's sk_attach_filter): a locked filter stays
 * (EPERM) before the program is looked at. Filters run on AF_UNIX
 * datagrams, netlink messages, and UDP datagrams and ICMP packets as
 * loopback carries them (net/ip.c); none on AF_UNIX streams, as on
 * Linux; on --net=host sockets the host runs them. Differs from Linux:
 * the loopback's TCP sockets refuse one with EINVAL (their stream has no
 * segments for it to read). */
int sock_filter_prepare(struct socket *s, const void *optval, unsigned len,
			struct sock_filter_prog **out)
{
	struct linux_sock_fprog fprog;
	struct sock_filter_prog *f;
	int ret;

	if (len != sizeof(fprog))
		return -EINVAL;
	memcpy(&fprog, optval, sizeof(fprog));
	if (s->filter_locked)
		return -EPERM;
	if (!fprog.filter || fprog.len == 0 || fprog.len > LINUX_BPF_MAXINSNS)
		return -EINVAL;
	f = malloc(sizeof(*f) + fprog.len * sizeof(f->insns[0]));
	if (!f)
		return -ENOMEM;
	f->len = fprog.len;
	ret = copy_from_user(current->mm, f->insns, fprog.filter, f->len * sizeof(f->insns[0]));
	if (ret == 0)
		ret = cbpf_check(f->insns, f->len);
	if (ret == 0 && (s->family == LINUX_AF_INET || s->family == LINUX_AF_INET6) &&
	    s->type == LINUX_SOCK_STREAM && !s->ops->sol_socket)
		ret = -EINVAL;
	if (ret < 0) {
		free(f);
		return ret;
	}
	*out = f;
	return 0;
}

void sock_filter_install(struct socket *s, struct sock_filter_prog *f)
{
	free(s->filter);
	s->filter = f;
}

bool sock_filter_run(struct socket *s, const struct cbpf_pkt *pkt, uint32_t cap, uint32_t *keep)
{
	uint32_t n;

	*keep = pkt->len;
	if (!s->filter)
		return true;
	n = cbpf_run(s->filter->insns, pkt);
	if (n == 0)
		return false;
	if (n < cap)
		n = cap;
	if (n < pkt->len)
		*keep = n;
	return true;
}

bool sock_filter_data(struct socket *s, const void *data, size_t len, size_t *keep)
{
	struct cbpf_pkt pkt = { .head = data,
				.head_len = (uint32_t)len,
				.len = (uint32_t)len,
				.net_off = 0,
				.ll_off = -1 };
	uint32_t n;

	*keep = len;
	if (!s->filter)
		return true;
	if (!sock_filter_run(s, &pkt, 1, &n))
		return false;
	*keep = n;
	return true;
}

int sock_get_filter(struct task *t, struct socket *s, uaddr_t uval, int *len)
{
	struct sock_filter_prog *f = s->filter;

	if (*len < 0)
		return -EINVAL;
	if (!f) {
		*len = 0;
		return 0;
	}
	if (*len != 0) {
		if ((unsigned)*len < f->len)
			return -EINVAL;
		if (copy_to_user(t->mm, uval, f->insns, f->len * sizeof(f->insns[0])) < 0)
			return -EFAULT;
	}
	*len = (int)f->len;
	return 0;
}

int sock_setsockopt(struct socket *s, int level, int name, const void *optval, unsigned len)
{
	const struct cred *c = &current->proc->cred;
	int val;

	if (level != LINUX_SOL_SOCKET)
		return -EOPNOTSUPP;
	if (name == LINUX_SO_BINDTODEVICE) {
		/* sock_setbindtodevice: up to IFNAMSIZ - 1 bytes of a name;
		 * none unbinds */
		char dev[16] = "";
		const struct netdev *d;

		memcpy(dev, optval, len < sizeof(dev) - 1 ? len : sizeof(dev) - 1);
		if (!dev[0])
			return bind_to_index(s, 0);
		d = netdev_by_name(dev);
		return d ? bind_to_index(s, d->ifindex) : -ENODEV;
	}
	if (len < sizeof(int))
		return -EINVAL;
	memcpy(&val, optval, sizeof(val));
	switch (name) {
	case LINUX_SO_DEBUG:
		if (val && !capable(c, CAP_NET_ADMIN))
			return -EACCES;
		/* fallthrough */
	case LINUX_SO_REUSEADDR:
	case LINUX_SO_DONTROUTE:
	case LINUX_SO_BROADCAST:
	case LINUX_SO_KEEPALIVE:
	case LINUX_SO_OOBINLINE:
		s->optflags = val ? s->optflags | opt_flag(name) : s->optflags & ~opt_flag(name);
		return 0;
	case LINUX_SO_REUSEPORT:
		if (val && s->family != LINUX_AF_INET && s->family != LINUX_AF_INET6)
			return -EOPNOTSUPP; /* only inet sockets take it */
		s->optflags = val ? s->optflags | OPT_REUSEPORT : s->optflags & ~OPT_REUSEPORT;
		return 0;
	case LINUX_SO_SNDBUF:
	case LINUX_SO_RCVBUF:
	case LINUX_SO_SNDBUFFORCE:
	case LINUX_SO_RCVBUFFORCE:
		return set_buf(s, name, val);
	case LINUX_SO_PRIORITY:
		if ((val < 0 || val > 6) && !capable(c, CAP_NET_ADMIN) && !capable(c, CAP_NET_RAW))
			return -EPERM;
		s->priority = val;
		return 0;
	case LINUX_SO_LINGER:
		if (len < sizeof(struct linux_linger))
			return -EINVAL;
		{
			struct linux_linger l;

			memcpy(&l, optval, sizeof(l));
			/* a negative time is Linux's MAX_SCHEDULE_TIMEOUT, read
			 * back in seconds cut to an int */
			if (l.l_onoff)
				s->linger.l_linger =
					l.l_linger < 0 ? (int)(INT64_MAX / HZ) : l.l_linger;
			s->optflags =
				l.l_onoff ? s->optflags | OPT_LINGER : s->optflags & ~OPT_LINGER;
			return 0;
		}
	case LINUX_SO_TIMESTAMP_OLD:
	case LINUX_SO_TIMESTAMPNS_OLD:
	case LINUX_SO_TIMESTAMP_NEW:
	case LINUX_SO_TIMESTAMPNS_NEW:
		/* sock_set_timestamp */
		if (!val) {
			s->tstamp = 0;
			return 0;
		}
		s->tstamp = SOCK_TS_RCV;
		if (name == LINUX_SO_TIMESTAMPNS_OLD || name == LINUX_SO_TIMESTAMPNS_NEW)
			s->tstamp |= SOCK_TS_NS;
		if (name == LINUX_SO_TIMESTAMP_NEW || name == LINUX_SO_TIMESTAMPNS_NEW)
			s->tstamp |= SOCK_TS_NEW;
		return 0;
	case LINUX_SO_BINDTOIFINDEX:
		return bind_to_index(s, val);
	case LINUX_SO_PASSCRED:
		/* Only sockets that carry credentials (Linux 6.16's
		 * sk_may_scm_recv): a TCP or UDP one is EOPNOTSUPP. */
		if (s->family != LINUX_AF_UNIX && s->family != LINUX_AF_NETLINK)
			return -EOPNOTSUPP;
		s->passcred = val != 0;
		return 0;
	case LINUX_SO_RCVTIMEO_OLD:
	case LINUX_SO_RCVTIMEO_NEW:
		return set_timeout(&s->rcvtimeo, optval, len);
	case LINUX_SO_SNDTIMEO_OLD:
	case LINUX_SO_SNDTIMEO_NEW:
		return set_timeout(&s->sndtimeo, optval, len);
	case LINUX_SO_RCVLOWAT:
		if (val < 0)
			val = INT32_MAX;
		s->rcvlowat = val ? val : 1;
		return 0;
	case LINUX_SO_ATTACH_FILTER: {
		struct sock_filter_prog *f;
		int ret = sock_filter_prepare(s, optval, len, &f);

		if (ret == 0)
			sock_filter_install(s, f);
		return ret;
	}
	case LINUX_SO_DETACH_FILTER:
		if (s->filter_locked)
			return -EPERM;
		if (!s->filter)
			return -ENOENT;
		free(s->filter);
		s->filter = NULL;
		return 0;
	case LINUX_SO_LOCK_FILTER:
		if (s->filter_locked && !val)
			return -EPERM;
		s->filter_locked = val != 0;
		return 0;
	default:
		return -ENOPROTOOPT;
	}
}

static int get_peername(struct socket *s, void *optval, int *len)
{
	struct linux_sockaddr_storage a;
	int lv = s->ops->getname(s, &a, true);

	if (lv < 0)
		return -ENOTCONN;
	if (lv < *len)
		return -EINVAL;
	memcpy(optval, &a, *len);
	return 0;
}

int sock_getsockopt(struct socket *s, int level, int name, void *optval, int *len)
{
	union {
		int val;
		uint64_t val64;
		struct linux_linger ling;
		struct linux_timeval tv;
		struct linux_ucred uc;
	} v;
	int lv = sizeof(int);

	if (level != LINUX_SOL_SOCKET)
		return -EOPNOTSUPP;
	if (*len < 0)
		return -EINVAL;
	memset(&v, 0, sizeof(v));
	switch (name) {
	case LINUX_SO_DEBUG:
	case LINUX_SO_REUSEADDR:
	case LINUX_SO_DONTROUTE:
	case LINUX_SO_BROADCAST:
	case LINUX_SO_KEEPALIVE:
	case LINUX_SO_OOBINLINE:
	case LINUX_SO_REUSEPORT:
		v.val = !!(s->optflags & opt_flag(name));
		break;
	case LINUX_SO_TYPE:
		v.val = s->type;
		break;
	case LINUX_SO_LOCK_FILTER:
		v.val = s->filter_locked;
		break;
	case LINUX_SO_PROTOCOL:
		v.val = s->protocol;
		break;
	case LINUX_SO_DOMAIN:
		v.val = s->family;
		break;
	case LINUX_SO_ERROR:
		v.val = -sock_error(s);
		break;
	case LINUX_SO_SNDBUF:
		v.val = s->sndbuf;
		break;
	case LINUX_SO_RCVBUF:
		v.val = s->rcvbuf;
		break;
	case LINUX_SO_PRIORITY:
		v.val = s->priority;
		break;
	case LINUX_SO_LINGER:
		lv = sizeof(v.ling);
		v.ling.l_onoff = !!(s->optflags & OPT_LINGER);
		v.ling.l_linger = s->linger.l_linger;
		break;
	case LINUX_SO_PASSCRED:
		v.val = s->passcred;
		break;
	case LINUX_SO_BINDTOIFINDEX:
		v.val = s->bound_dev_if;
		break;
	case LINUX_SO_BINDTODEVICE: {
		/* sock_getbindtodevice: the name and its NUL, in a buffer of
		 * IFNAMSIZ at least; nothing when unbound */
		const struct netdev *d = netdev_by_index(s->bound_dev_if);

		if (!s->bound_dev_if) {
			*len = 0;
			return 0;
		}
		if (*len < 16)
			return -EINVAL;
		if (!d)
			return -ENODEV;
		*len = (int)strlen(d->name) + 1;
		memcpy(optval, d->name, (size_t)*len);
		return 0;
	}
	case LINUX_SO_TIMESTAMP_OLD:
	case LINUX_SO_TIMESTAMPNS_OLD:
		v.val = sock_ts_name(s) == name;
		break;
	case LINUX_SO_TIMESTAMP_NEW: /* on with SO_TIMESTAMPNS_NEW too */
		v.val = (s->tstamp & (SOCK_TS_RCV | SOCK_TS_NEW)) == (SOCK_TS_RCV | SOCK_TS_NEW);
		break;
	case LINUX_SO_TIMESTAMPNS_NEW:
		v.val = sock_ts_name(s) == name;
		break;
	case LINUX_SO_PEERCRED:
		s->ops->peercred(s, &v.uc);
		v.uc.pid = pid_vnr(current, v.uc.pid);
		if (v.uc.uid != INVALID_ID) { /* -1: no peer (cred_to_ucred) */
			v.uc.uid = from_kuid_munged(cred_user_ns(&current->proc->cred), v.uc.uid);
			v.uc.gid = from_kgid_munged(cred_user_ns(&current->proc->cred), v.uc.gid);
		}
		lv = sizeof(v.uc);
		break;
	case LINUX_SO_PEERNAME:
		return get_peername(s, optval, len);
	case LINUX_SO_RCVTIMEO_OLD:
	case LINUX_SO_RCVTIMEO_NEW:
		get_timeout(s->rcvtimeo, &v.tv);
		lv = sizeof(v.tv);
		break;
	case LINUX_SO_SNDTIMEO_OLD:
	case LINUX_SO_SNDTIMEO_NEW:
		get_timeout(s->sndtimeo, &v.tv);
		lv = sizeof(v.tv);
		break;
	case LINUX_SO_RCVLOWAT:
		v.val = s->rcvlowat;
		break;
	case LINUX_SO_SNDLOWAT:
		v.val = 1;
		break;
	case LINUX_SO_ACCEPTCONN:
		v.val = s->state == SS_LISTEN;
		break;
	case LINUX_SO_COOKIE:
		lv = sizeof(v.val64);
		if (*len < lv)
			return -EINVAL;
		v.val64 = sock_cookie(s);
		break;
	case LINUX_SO_NETNS_COOKIE:
		lv = sizeof(v.val64);
		if (*len != lv)
			return -EINVAL;
		v.val64 = s->net->cookie;
		break;
	default:
		return -ENOPROTOOPT;
	}
	if (*len > lv)
		*len = lv;
	memcpy(optval, &v, *len);
	return 0;
}

int sock_no_listen(struct task *t, struct socket *s, int backlog)
{
	(void)t;
	(void)s;
	(void)backlog;
	return -EOPNOTSUPP;
}

int sock_no_accept(struct socket *s, bool nonblock, struct socket **out)
{
	(void)s;
	(void)nonblock;
	(void)out;
	return -EOPNOTSUPP;
}
