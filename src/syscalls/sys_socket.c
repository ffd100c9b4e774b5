/* syscalls/sys_socket.c: the socket calls: argument checks and copies
 * only (addresses, msghdr, iovecs, control buffers, options, each copied
 * once and checked as Linux's net/socket.c does); the work is in net/. */
#include <stdlib.h>
#include <string.h>

#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "mm/usercopy.h"
#include "net/socket.h"
#include "vfs/file.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/socket.h"
#include "abi/linux/types.h"

#define OPTMEM_MAX 131072 /* net.core.optmem_max: the largest control buffer */
#define INT_MAX_   0x7fffffff
/* the largest option value: a --net=host socket's TCP_INFO (Linux 6.18's
 * struct tcp_info is 280 bytes), else a sockaddr (SO_PEERNAME) */
#define OPT_MAX 512

/* The socket at fd: *fp holds a reference to its file. */
static struct socket *sockfd_get(struct task *t, int fd, struct file **fp, long *err)
{
	struct file *f = fdget_nopath(t->files, fd); /* O_PATH: EBADF, as Linux */
	struct socket *s;

	if (!f) {
		*err = -EBADF;
		return NULL;
	}
	s = sock_from_file(f);
	if (!s) {
		file_put(f);
		*err = -ENOTSOCK;
		return NULL;
	}
	*fp = f;
	return s;
}

static int move_addr_to_kernel(struct task *t, uaddr_t uaddr, int len,
			       struct linux_sockaddr_storage *a)
{
	memset(a, 0, sizeof(*a));
	if (len < 0 || len > (int)sizeof(*a))
		return -EINVAL;
	if (len == 0)
		return 0;
	return copy_from_user(t->mm, a, uaddr, len) < 0 ? -EFAULT : 0;
}

/* Copies an address out: at most *ulen bytes (those before a fault
 * arrive), then the full length. */
static int move_addr_to_user(struct task *t, const void *a, int klen, uaddr_t uaddr, uaddr_t ulen)
{
	int len;

	if (copy_from_user(t->mm, &len, ulen, sizeof(len)) < 0)
		return -EFAULT;
	if (len > klen)
		len = klen;
	if (len < 0)
		return -EINVAL;
	if (len && copy_to_user_upto(t->mm, uaddr, a, len) < 0)
		return -EFAULT;
	return copy_to_user(t->mm, ulen, &klen, sizeof(klen)) < 0 ? -EFAULT : 0;
}

/* socket(2)'s type word: the type and SOCK_CLOEXEC | SOCK_NONBLOCK. */
static int split_type(int *type, unsigned *flags)
{
	unsigned f = (unsigned)*type & ~LINUX_SOCK_TYPE_MASK;

	if (f & ~(LINUX_SOCK_CLOEXEC | LINUX_SOCK_NONBLOCK))
		return -EINVAL;
	*type &= LINUX_SOCK_TYPE_MASK;
	*flags = f;
	return 0;
}

/* Gives s a file and an fd; consumes the caller's reference. */
static long install_socket(struct task *t, struct socket *s, unsigned flags)
{
	struct file *f;
	long fd;
	int ret = sock_alloc_file(s, flags & LINUX_SOCK_NONBLOCK ? LINUX_O_NONBLOCK : 0, &f);

	if (ret < 0) {
		s->ops->release(s);
		sock_put(s);
		return ret;
	}
	fd = fd_install(t->files, f, 0, flags & LINUX_SOCK_CLOEXEC, task_nofile(t));
	if (fd < 0)
		file_put(f);
	return fd;
}

long sys_socket(struct task *t, const struct sysargs *a)
{
	int type = sysarg_int(a, 1);
	struct socket *s;
	unsigned flags;
	int ret = split_type(&type, &flags);

	if (ret < 0)
		return ret;
	ret = sock_create(t, sysarg_int(a, 0), type, sysarg_int(a, 2), &s);
	if (ret < 0)
		return ret;
	return install_socket(t, s, flags);
}

long sys_socketpair(struct task *t, const struct sysargs *a)
{
	int family = sysarg_int(a, 0), type = sysarg_int(a, 1), fds[2];
	struct socket *s1, *s2;
	unsigned flags;
	int ret = split_type(&type, &flags);

	if (ret < 0)
		return ret;
	if (family == LINUX_AF_INET || family == LINUX_AF_INET6)
		return -EOPNOTSUPP; /* their sockets do not pair, on Linux either */
	ret = sock_create(t, family, type, sysarg_int(a, 2), &s1);
	if (ret < 0)
		return ret;
	ret = sock_create(t, family, type, sysarg_int(a, 2), &s2);
	if (ret < 0) {
		sock_put(s1);
		return ret;
	}
	s1->ops->socketpair(t, s1, s2);
	fds[0] = (int)install_socket(t, s1, flags);
	if (fds[0] < 0) {
		s2->ops->release(s2);
		sock_put(s2);
		return fds[0];
	}
	fds[1] = (int)install_socket(t, s2, flags);
	if (fds[1] < 0) {
		fd_close(t->files, fds[0]);
		return fds[1];
	}
	if (copy_to_user(t->mm, sysarg_uaddr(a, 3), fds, sizeof(fds)) < 0) {
		fd_close(t->files, fds[0]);
		fd_close(t->files, fds[1]);
		return -EFAULT;
	}
	return 0;
}

long sys_bind(struct task *t, const struct sysargs *a)
{
	struct linux_sockaddr_storage addr;
	struct file *f;
	long ret;
	struct socket *s = sockfd_get(t, sysarg_int(a, 0), &f, &ret);

	if (!s)
		return ret;
	ret = move_addr_to_kernel(t, sysarg_uaddr(a, 1), sysarg_int(a, 2), &addr);
	if (ret == 0)
		ret = s->ops->bind(t, s, &addr, sysarg_int(a, 2));
	file_put(f);
	return ret;
}

long sys_connect(struct task *t, const struct sysargs *a)
{
	struct linux_sockaddr_storage addr;
	struct file *f;
	long ret;
	struct socket *s = sockfd_get(t, sysarg_int(a, 0), &f, &ret);

	if (!s)
		return ret;
	ret = move_addr_to_kernel(t, sysarg_uaddr(a, 1), sysarg_int(a, 2), &addr);
	if (ret == 0)
		ret = s->ops->connect(t, s, &addr, sysarg_int(a, 2), f->flags & LINUX_O_NONBLOCK);
	file_put(f);
	return ret;
}

long sys_listen(struct task *t, const struct sysargs *a)
{
	int backlog = sysarg_int(a, 1);
	struct file *f;
	long ret;
	struct socket *s = sockfd_get(t, sysarg_int(a, 0), &f, &ret);

	if (!s)
		return ret;
	if ((unsigned)backlog > (unsigned)sock_somaxconn)
		backlog = sock_somaxconn;
	ret = s->ops->listen(t, s, backlog);
	file_put(f);
	return ret;
}

/* Differs from Linux: the fd is allocated after the connection is taken
 * from the queue, so EMFILE (or EFAULT on the address) closes that
 * connection rather than leaving it queued. */
static long do_accept4(struct task *t, int fd, uaddr_t uaddr, uaddr_t ulen, unsigned flags)
{
	struct linux_sockaddr_storage addr;
	struct socket *s, *ns;
	struct file *f, *nf;
	long ret;

	if (flags & ~(LINUX_SOCK_CLOEXEC | LINUX_SOCK_NONBLOCK))
		return -EINVAL;
	s = sockfd_get(t, fd, &f, &ret);
	if (!s)
		return ret;
	ret = s->ops->accept(s, f->flags & LINUX_O_NONBLOCK, &ns);
	file_put(f);
	if (ret < 0)
		return ret;
	/* Its inode is made now, by the accepting process. */
	ns->uid = t->proc->cred.fsuid;
	ns->gid = t->proc->cred.fsgid;
	ret = sock_alloc_file(ns, flags & LINUX_SOCK_NONBLOCK ? LINUX_O_NONBLOCK : 0, &nf);
	if (ret < 0) {
		ns->ops->release(ns);
		sock_put(ns);
		return ret;
	}
	if (uaddr) {
		int len = ns->ops->getname(ns, &addr, true);

		ret = len < 0 ? -ECONNABORTED : move_addr_to_user(t, &addr, len, uaddr, ulen);
		if (ret < 0) {
			file_put(nf);
			return ret;
		}
	}
	ret = fd_install(t->files, nf, 0, flags & LINUX_SOCK_CLOEXEC, task_nofile(t));
	if (ret < 0)
		file_put(nf);
	return ret;
}

long sys_accept(struct task *t, const struct sysargs *a)
{
	return do_accept4(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_uaddr(a, 2), 0);
}

long sys_accept4(struct task *t, const struct sysargs *a)
{
	return do_accept4(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_uaddr(a, 2),
			  sysarg_uint(a, 3));
}

static long do_getname(struct task *t, const struct sysargs *a, bool peer)
{
	struct linux_sockaddr_storage addr;
	struct file *f;
	long ret;
	struct socket *s = sockfd_get(t, sysarg_int(a, 0), &f, &ret);

	if (!s)
		return ret;
	ret = s->ops->getname(s, &addr, peer);
	if (ret >= 0)
		ret = move_addr_to_user(t, &addr, (int)ret, sysarg_uaddr(a, 1), sysarg_uaddr(a, 2));
	file_put(f);
	return ret;
}

long sys_getsockname(struct task *t, const struct sysargs *a)
{
	return do_getname(t, a, false);
}

long sys_getpeername(struct task *t, const struct sysargs *a)
{
	return do_getname(t, a, true);
}

long sys_shutdown(struct task *t, const struct sysargs *a)
{
	struct file *f;
	long ret;
	struct socket *s = sockfd_get(t, sysarg_int(a, 0), &f, &ret);

	if (!s)
		return ret;
	ret = s->ops->shutdown(s, sysarg_int(a, 1));
	file_put(f);
	return ret;
}

/* The IPv4 and IPv6 options whose value is a structure (net/mcast.c's),
 * and the most of it Linux reads: ip_mreqn's 12 bytes, ipv6_mreq's 20,
 * group_req's 136. 0 for an int option. */
static int ip_struct_opt(int level, int name)
{
	if (name == 42 || name == 45) /* MCAST_JOIN_GROUP, MCAST_LEAVE_GROUP */
		return level == LINUX_SOL_IP || level == LINUX_SOL_IPV6 ? 136 : 0;
	if (level == LINUX_SOL_IP && (name == 32 || name == 35 || name == 36))
		return 12; /* IP_MULTICAST_IF, IP_ADD_MEMBERSHIP, IP_DROP_MEMBERSHIP */
	if (level == LINUX_SOL_IPV6 && (name == 20 || name == 21))
		return 20; /* IPV6_ADD_MEMBERSHIP, IPV6_DROP_MEMBERSHIP */
	return 0;
}

long sys_setsockopt(struct task *t, const struct sysargs *a)
{
	int level = sysarg_int(a, 1), name = sysarg_int(a, 2), optlen = sysarg_int(a, 4);
	int raw_max = level == LINUX_SOL_RAW ? 4 : 32;
	char val[OPT_MAX];
	struct file *f;
	long ret;
	struct socket *s = sockfd_get(t, sysarg_int(a, 0), &f, &ret);

	if (!s)
		return ret;
	ret = 0;
	memset(val, 0, sizeof(val));
	if (level != LINUX_SOL_SOCKET && !s->ops->setsockopt)
		ret = -EOPNOTSUPP; /* before any copy, as Linux */
	else if (optlen < 0)
		ret = -EINVAL;
	else if (level == LINUX_SOL_SOCKET && name == LINUX_SO_BINDTODEVICE && optlen > 0 &&
		 copy_from_user(t->mm, val, sysarg_uaddr(a, 3), optlen < 15 ? (size_t)optlen : 15) <
			 0)
		ret = -EFAULT; /* a device name: IFNAMSIZ - 1 bytes at most */
	else if (level == LINUX_SOL_SOCKET && name != LINUX_SO_BINDTODEVICE &&
		 optlen >= (int)sizeof(int) &&
		 copy_from_user(t->mm, val, sysarg_uaddr(a, 3),
				optlen < (int)sizeof(struct linux_timeval)
					? (size_t)optlen
					: sizeof(struct linux_timeval)) < 0)
		ret = -EFAULT;
	else if ((level == LINUX_SOL_RAW || level == LINUX_SOL_ICMPV6) && optlen > 0 &&
		 copy_from_user(t->mm, val, sysarg_uaddr(a, 3),
				(size_t)(optlen < raw_max ? optlen : raw_max)) < 0)
		ret = -EFAULT; /* ICMP_FILTER, ICMP6_FILTER: up to their 4 or 32 bytes */
	else if (ip_struct_opt(level, name) && optlen > 0 &&
		 copy_from_user(t->mm, val, sysarg_uaddr(a, 3),
				(size_t)(optlen < ip_struct_opt(level, name)
						 ? optlen
						 : ip_struct_opt(level, name))) < 0)
		ret = -EFAULT;
	else if (level != LINUX_SOL_SOCKET && level != LINUX_SOL_RAW && level != LINUX_SOL_ICMPV6 &&
		 optlen >= (int)sizeof(int) &&
		 copy_from_user(t->mm, val, sysarg_uaddr(a, 3), sizeof(int)) < 0)
		ret = -EFAULT; /* the other protocols' options are ints */
	else if (level == LINUX_SOL_IP && optlen > 0 && optlen < (int)sizeof(int) &&
		 s->ops->setsockopt && copy_from_user(t->mm, val, sysarg_uaddr(a, 3), 1) < 0)
		ret = -EFAULT; /* ...but IPv4's may be a byte */
	if (ret == 0 && level == LINUX_SOL_SOCKET && !s->ops->sol_socket)
		ret = sock_setsockopt(s, level, name, val, (unsigned)optlen);
	else if (ret == 0)
		ret = s->ops->setsockopt(s, level, name, val, (unsigned)optlen);
	file_put(f);
	return ret;
}

long sys_getsockopt(struct task *t, const struct sysargs *a)
{
	int level = sysarg_int(a, 1), name = sysarg_int(a, 2), len;
	uaddr_t uval = sysarg_uaddr(a, 3), ulen = sysarg_uaddr(a, 4);
	char val[OPT_MAX];
	struct file *f;
	long ret;
	struct socket *s = sockfd_get(t, sysarg_int(a, 0), &f, &ret);

	if (!s)
		return ret;
	if (level != LINUX_SOL_SOCKET && !s->ops->getsockopt) {
		ret = -EOPNOTSUPP;
	} else if (copy_from_user(t->mm, &len, ulen, sizeof(len)) < 0) {
		ret = -EFAULT;
	} else if (level == LINUX_SOL_SOCKET && name == LINUX_SO_ATTACH_FILTER) {
		/* SO_GET_FILTER: lengths in instructions, a buffer of any size */
		ret = sock_get_filter(t, s, uval, &len);
		if (ret == 0 && copy_to_user(t->mm, ulen, &len, sizeof(len)) < 0)
			ret = -EFAULT;
	} else {
		ret = level == LINUX_SOL_SOCKET && !s->ops->sol_socket
			      ? sock_getsockopt(s, level, name, val, &len)
			      : s->ops->getsockopt(s, level, name, val, &len);
		if (ret == 0 && (copy_to_user(t->mm, uval, val, len) < 0 ||
				 copy_to_user(t->mm, ulen, &len, sizeof(len)) < 0))
			ret = -EFAULT;
	}
	file_put(f);
	return ret;
}

long sys_sendto(struct task *t, const struct sysargs *a)
{
	unsigned flags = sysarg_uint(a, 3);
	int alen = sysarg_int(a, 5);
	uaddr_t uaddr = sysarg_uaddr(a, 4);
	struct file *f;
	struct kmsg m;
	long ret;
	struct socket *s = sockfd_get(t, sysarg_int(a, 0), &f, &ret);

	if (!s)
		return ret;
	memset(&m, 0, sizeof(m));
	ret = iter_import_buf(t, sysarg_uaddr(a, 1), sysarg_size(a, 2), &m.iter);
	if (ret == 0 && uaddr) {
		ret = move_addr_to_kernel(t, uaddr, alen, &m.name);
		m.namelen = alen;
		m.has_name = true;
	}
	if (ret == 0) {
		if (f->flags & LINUX_O_NONBLOCK)
			flags |= LINUX_MSG_DONTWAIT;
		ret = s->ops->sendmsg(t, s, &m, flags);
	}
	iter_free(&m.iter);
	file_put(f);
	return ret;
}

long sys_recvfrom(struct task *t, const struct sysargs *a)
{
	unsigned flags = sysarg_uint(a, 3);
	uaddr_t uaddr = sysarg_uaddr(a, 4);
	struct file *f;
	struct kmsg m;
	long ret;
	struct socket *s = sockfd_get(t, sysarg_int(a, 0), &f, &ret);

	if (!s)
		return ret;
	memset(&m, 0, sizeof(m));
	ret = iter_import_buf(t, sysarg_uaddr(a, 1), sysarg_size(a, 2), &m.iter);
	if (ret == 0) {
		m.want_name = uaddr != 0;
		if (f->flags & LINUX_O_NONBLOCK)
			flags |= LINUX_MSG_DONTWAIT;
		ret = s->ops->recvmsg(t, s, &m, flags);
		scm_destroy(&m.scm);
	}
	if (ret >= 0 && uaddr) {
		long err = move_addr_to_user(t, &m.name, m.namelen, uaddr, sysarg_uaddr(a, 5));

		if (err < 0)
			ret = err;
	}
	iter_free(&m.iter);
	file_put(f);
	return ret;
}

/* The data and name of a guest msghdr, copied and checked (__copy_msghdr). */
static int get_msghdr(struct task *t, uaddr_t umsg, struct linux_msghdr *mh, struct kmsg *m,
		      bool copy_name)
{
	memset(m, 0, sizeof(*m));
	if (copy_from_user(t->mm, mh, umsg, sizeof(*mh)) < 0)
		return -EFAULT;
	m->namelen = mh->msg_name ? mh->msg_namelen : 0;
	if (m->namelen < 0)
		return -EINVAL;
	if (m->namelen > (int)sizeof(m->name))
		m->namelen = sizeof(m->name);
	if (copy_name && m->namelen &&
	    copy_from_user(t->mm, &m->name, mh->msg_name, m->namelen) < 0)
		return -EFAULT;
	if (!copy_name)
		m->namelen = 0;
	m->has_name = m->namelen > 0; /* __copy_msghdr drops an empty name */
	return iter_import(t, mh->msg_iov, mh->msg_iovlen, &m->iter);
}

/* One sendmsg: *left says whether data stayed unsent (sendmmsg stops). */
static long sendmsg_one(struct task *t, struct file *f, struct socket *s, uaddr_t umsg,
			unsigned flags, bool *left)
{
	struct linux_msghdr mh;
	struct kmsg m;
	void *ctl = NULL;
	long ret = get_msghdr(t, umsg, &mh, &m, true);

	if (ret < 0)
		goto out;
	if (mh.msg_controllen > INT_MAX_) {
		ret = -ENOBUFS;
		goto out;
	}
	if (mh.msg_controllen) {
		ret = -ENOBUFS;
		if (mh.msg_controllen >= OPTMEM_MAX || !(ctl = malloc(mh.msg_controllen)))
			goto out;
		ret = -EFAULT;
		if (copy_from_user(t->mm, ctl, mh.msg_control, mh.msg_controllen) < 0)
			goto out;
		ret = scm_send(t, ctl, mh.msg_controllen, &m.scm);
		if (ret < 0)
			goto out;
	}
	if (f->flags & LINUX_O_NONBLOCK)
		flags |= LINUX_MSG_DONTWAIT;
	ret = s->ops->sendmsg(t, s, &m, flags);
	if (left)
		*left = m.iter.count > 0;
out:
	scm_destroy(&m.scm);
	iter_free(&m.iter);
	free(ctl);
	return ret;
}

static long recvmsg_one(struct task *t, struct file *f, struct socket *s, uaddr_t umsg,
			unsigned flags)
{
	struct linux_msghdr mh;
	uint64_t ctllen;
	struct kmsg m;
	long len, ret = get_msghdr(t, umsg, &mh, &m, false);

	if (ret < 0)
		goto out;
	m.want_name = mh.msg_name != 0;
	m.flags = flags & LINUX_MSG_CMSG_CLOEXEC;
	if (f->flags & LINUX_O_NONBLOCK)
		flags |= LINUX_MSG_DONTWAIT;
	len = s->ops->recvmsg(t, s, &m, flags);
	if (len < 0) {
		ret = len;
		goto out;
	}
	ctllen = mh.msg_controllen;
	scm_recv(t, &m.scm, s->passcred && !m.no_dgram, mh.msg_control, &ctllen, &m.flags);
	if (mh.msg_name) {
		ret = move_addr_to_user(t, &m.name, m.namelen, mh.msg_name,
					umsg + offsetof(struct linux_msghdr, msg_namelen));
		if (ret < 0)
			goto out;
	}
	ret = -EFAULT;
	if (copy_to_user(t->mm, umsg + offsetof(struct linux_msghdr, msg_flags), &m.flags,
			 sizeof(m.flags)) < 0 ||
	    copy_to_user(t->mm, umsg + offsetof(struct linux_msghdr, msg_controllen), &ctllen,
			 sizeof(ctllen)) < 0)
		goto out;
	ret = len;
out:
	scm_destroy(&m.scm);
	iter_free(&m.iter);
	return ret;
}

long sys_sendmsg(struct task *t, const struct sysargs *a)
{
	unsigned flags = sysarg_uint(a, 2);
	struct file *f;
	struct socket *s;
	long ret;

	if (flags & LINUX_MSG_CMSG_COMPAT)
		return -EINVAL;
	s = sockfd_get(t, sysarg_int(a, 0), &f, &ret);
	if (!s)
		return ret;
	ret = sendmsg_one(t, f, s, sysarg_uaddr(a, 1), flags, NULL);
	file_put(f);
	return ret;
}

long sys_recvmsg(struct task *t, const struct sysargs *a)
{
	unsigned flags = sysarg_uint(a, 2);
	struct file *f;
	struct socket *s;
	long ret;

	if (flags & LINUX_MSG_CMSG_COMPAT)
		return -EINVAL;
	s = sockfd_get(t, sysarg_int(a, 0), &f, &ret);
	if (!s)
		return ret;
	ret = recvmsg_one(t, f, s, sysarg_uaddr(a, 1), flags);
	file_put(f);
	return ret;
}

long sys_sendmmsg(struct task *t, const struct sysargs *a)
{
	unsigned vlen = sysarg_uint(a, 2), flags = sysarg_uint(a, 3), n = 0;
	uaddr_t entry = sysarg_uaddr(a, 1);
	struct file *f;
	struct socket *s;
	long ret = 0;

	if (flags & LINUX_MSG_CMSG_COMPAT)
		return -EINVAL;
	s = sockfd_get(t, sysarg_int(a, 0), &f, &ret);
	if (!s)
		return ret;
	if (vlen > LINUX_UIO_MAXIOV)
		vlen = LINUX_UIO_MAXIOV;
	while (n < vlen) {
		bool left = false;
		uint32_t len;

		ret = sendmsg_one(t, f, s, entry, flags, &left);
		if (ret < 0)
			break;
		len = (uint32_t)ret;
		if (copy_to_user(t->mm, entry + offsetof(struct linux_mmsghdr, msg_len), &len,
				 sizeof(len)) < 0) {
			ret = -EFAULT;
			break;
		}
		entry += sizeof(struct linux_mmsghdr);
		n++;
		if (left)
			break;
	}
	file_put(f);
	return n ? (long)n : ret;
}

static int get_deadline(struct task *t, uaddr_t uts, struct linux_timespec *ts, int64_t *end)
{
	if (copy_from_user(t->mm, ts, uts, sizeof(*ts)) < 0)
		return -EFAULT;
	if (ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= 1000000000)
		return -EINVAL;
	*end = sched_now_ns() +
	       (ts->tv_sec > 1000000000LL ? 1000000000LL : ts->tv_sec) * 1000000000LL + ts->tv_nsec;
	return 0;
}

/* recvmmsg: as Linux, the timeout is looked at only after each datagram,
 * and vlen is not cut at UIO_MAXIOV (sendmmsg's is). */
static long do_recvmmsg(struct task *t, struct file *f, struct socket *s, uaddr_t entry,
			unsigned vlen, unsigned flags, struct linux_timespec *ts, int64_t end)
{
	unsigned n = 0;
	long ret;

	if (!(flags & LINUX_MSG_ERRQUEUE) && (ret = sock_error(s)) < 0)
		return ret;
	ret = 0;
	while (n < vlen) {
		uint32_t len;

		ret = recvmsg_one(t, f, s, entry, flags & ~LINUX_MSG_WAITFORONE);
		if (ret < 0)
			break;
		len = (uint32_t)ret;
		if (copy_to_user(t->mm, entry + offsetof(struct linux_mmsghdr, msg_len), &len,
				 sizeof(len)) < 0) {
			ret = -EFAULT;
			break;
		}
		entry += sizeof(struct linux_mmsghdr);
		n++;
		ret = 0;
		if (flags & LINUX_MSG_WAITFORONE)
			flags |= LINUX_MSG_DONTWAIT;
		if (ts) {
			int64_t rem = end - sched_now_ns();

			if (rem < 0)
				rem = 0;
			ts->tv_sec = rem / 1000000000LL;
			ts->tv_nsec = rem % 1000000000LL;
			if (rem == 0)
				break;
		}
	}
	if (ret == 0 || n == 0)
		return n ? (long)n : ret;
	/* an error after some datagrams: kept for the next call */
	if (ret != -EAGAIN)
		s->err = (int)-ret;
	return n;
}

long sys_recvmmsg(struct task *t, const struct sysargs *a)
{
	unsigned flags = sysarg_uint(a, 3);
	uaddr_t uts = sysarg_uaddr(a, 4);
	struct linux_timespec ts;
	int64_t end = 0;
	struct file *f;
	struct socket *s;
	long ret;

	if (flags & LINUX_MSG_CMSG_COMPAT)
		return -EINVAL;
	if (uts && (ret = get_deadline(t, uts, &ts, &end)) < 0)
		return ret;
	s = sockfd_get(t, sysarg_int(a, 0), &f, &ret);
	if (!s)
		return ret;
	ret = do_recvmmsg(t, f, s, sysarg_uaddr(a, 1), sysarg_uint(a, 2), flags, uts ? &ts : NULL,
			  end);
	file_put(f);
	if (ret > 0 && uts && copy_to_user(t->mm, uts, &ts, sizeof(ts)) < 0)
		ret = -EFAULT;
	return ret;
}
