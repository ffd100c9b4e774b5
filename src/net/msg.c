/* net/msg.c: the data and control data of socket calls. Guest iovec
 * arrays and control buffers are copied once, checked as Linux checks them
 * (import_iovec, __scm_send), and from then on read only from the copy. */
#include <stdlib.h>
#include <string.h>

#include "net/msg.h"
#include "kernel/task.h"
#include "kernel/userns.h"
#include "kernel/pidns.h"
#include "kernel/cred.h"
#include "mm/usercopy.h"
#include "vfs/file.h"
#include "vfs/iov.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"

#define INVALID_ID 0xffffffffU

void iter_init_kernel(struct msg_iter *it, void *buf, size_t n)
{
	memset(it, 0, sizeof(*it));
	it->kbuf = buf;
	it->count = n;
}

/* Takes over iov (checked and cut by iovec_import). */
static void iter_init_user(struct task *t, struct linux_iovec *iov, int nr, uint64_t total,
			   struct msg_iter *it)
{
	it->mm = t->mm;
	it->iov = iov;
	it->nr_segs = nr;
	it->count = total;
}

int iter_import(struct task *t, uaddr_t uiov, uint64_t nr, struct msg_iter *it)
{
	struct linux_iovec *iov;
	long total;

	memset(it, 0, sizeof(*it));
	if (nr > LINUX_UIO_MAXIOV) /* __copy_msghdr's own check, before import_iovec's */
		return -EMSGSIZE;
	total = iovec_import(t, uiov, (uint32_t)nr, &iov);
	if (total < 0)
		return (int)total;
	iter_init_user(t, iov, (int)nr, (uint64_t)total, it);
	return 0;
}

int iter_from_iovec(struct task *t, const struct linux_iovec *kiov, int nr, struct msg_iter *it)
{
	struct linux_iovec *iov = NULL;

	memset(it, 0, sizeof(*it));
	if (nr > 0) {
		iov = malloc(nr * sizeof(*iov));
		if (!iov)
			return -ENOMEM;
		memcpy(iov, kiov, nr * sizeof(*iov));
	}
	iter_init_user(t, iov, nr > 0 ? nr : 0, iovec_total(kiov, nr), it);
	return 0;
}

int iter_import_buf(struct task *t, uaddr_t buf, uint64_t len, struct msg_iter *it)
{
	struct linux_iovec *iov;

	memset(it, 0, sizeof(*it));
	if (len > MAX_RW_COUNT)
		len = MAX_RW_COUNT;
	if (!access_ok(buf, len))
		return -EFAULT;
	iov = malloc(sizeof(*iov));
	if (!iov)
		return -ENOMEM;
	iov->iov_base = buf;
	iov->iov_len = len;
	it->mm = t->mm;
	it->iov = iov;
	it->nr_segs = 1;
	it->count = len;
	return 0;
}

void iter_free(struct msg_iter *it)
{
	free(it->iov);
	it->iov = NULL;
}

/* Moves n bytes between buf and the data; to_iter says which way. */
static int iter_copy(struct msg_iter *it, void *buf, size_t n, bool to_iter)
{
	char *p = buf;

	if (n > it->count)
		return -EFAULT;
	it->count -= n;
	if (!it->mm) {
		if (to_iter)
			memcpy(it->kbuf, p, n);
		else
			memcpy(p, it->kbuf, n);
		it->kbuf += n;
		return 0;
	}
	while (n > 0) {
		struct linux_iovec *v = &it->iov[it->seg];
		size_t chunk = v->iov_len - it->seg_off;
		uaddr_t at = v->iov_base + it->seg_off;
		int ret;

		if (chunk == 0) {
			it->seg++;
			it->seg_off = 0;
			continue;
		}
		if (chunk > n)
			chunk = n;
		ret = to_iter ? copy_to_user(it->mm, at, p, chunk)
			      : copy_from_user(it->mm, p, at, chunk);
		if (ret < 0) {
			/* Linux's copy_to_iter stops at the fault, not before:
			 * the bytes up to it reach the guest all the same. */
			if (to_iter)
				copy_to_user_partial(it->mm, at, p, chunk);
			return -EFAULT;
		}
		p += chunk;
		n -= chunk;
		it->seg_off += chunk;
	}
	return 0;
}

int iter_copy_from(struct msg_iter *it, void *dst, size_t n)
{
	return iter_copy(it, dst, n, false);
}

size_t iter_writable(const struct msg_iter *it, size_t n)
{
	size_t done = 0, off = it->seg_off;
	int seg;

	if (!it->mm)
		return n;
	for (seg = it->seg; seg < it->nr_segs && done < n; seg++, off = 0) {
		size_t len = it->iov[seg].iov_len - off, want = n - done < len ? n - done : len,
		       ok = want ? user_prefix(it->mm, it->iov[seg].iov_base + off, want, true) : 0;

		done += ok;
		if (ok < want)
			break;
	}
	return done;
}

int iter_copy_to(struct msg_iter *it, const void *src, size_t n)
{
	return iter_copy(it, (void *)src, n, true);
}

void scm_destroy(struct scm *scm)
{
	int i;

	for (i = 0; i < scm->nfds; i++)
		file_put(scm->fds[i]);
	free(scm->fds);
	scm->fds = NULL;
	scm->nfds = 0;
	free(scm->raw);
	scm->raw = NULL;
	scm->raw_len = 0;
}

int scm_dup(const struct scm *scm, struct scm *out)
{
	int i;

	*out = *scm;
	out->fds = NULL;
	out->nfds = 0;
	if (!scm->nfds)
		return 0;
	out->fds = malloc(scm->nfds * sizeof(*out->fds));
	if (!out->fds)
		return -ENOMEM;
	for (i = 0; i < scm->nfds; i++) {
		out->fds[i] = scm->fds[i];
		file_get(out->fds[i]);
	}
	out->nfds = scm->nfds;
	return 0;
}

/* SCM_RIGHTS: takes a reference on each file (Linux's scm_fp_copy). */
static int scm_fp_copy(struct task *t, const struct linux_cmsghdr *cm, struct scm *scm)
{
	const char *data = (const char *)(cm + 1);
	int num = (int)((cm->cmsg_len - sizeof(*cm)) / sizeof(int));
	struct file **fds;
	int i;

	if (num <= 0)
		return 0;
	if (num > LINUX_SCM_MAX_FD || scm->nfds + num > LINUX_SCM_MAX_FD)
		return -EINVAL;
	fds = realloc(scm->fds, (scm->nfds + num) * sizeof(*fds));
	if (!fds)
		return -ENOMEM;
	scm->fds = fds;
	for (i = 0; i < num; i++) {
		struct file *f;
		int fd;

		memcpy(&fd, data + i * sizeof(int), sizeof(fd));
		f = fdget(t->files, fd);
		if (!f)
			return -EBADF;
		scm->fds[scm->nfds++] = f;
	}
	return 0;
}

/* SCM_CREDENTIALS: the sender may claim its own ids (real, effective or
 * saved) and its own pid; capabilities allow more (scm_check_creds). */
static int scm_check_creds(struct task *t, const struct linux_cmsghdr *cm, struct scm *scm)
{
	const struct cred *c = &t->proc->cred;
	struct linux_ucred uc;
	bool pid_ok, uid_ok, gid_ok;
	int vpid;

	if (cm->cmsg_len != LINUX_CMSG_LEN(sizeof(uc)))
		return -EINVAL;
	memcpy(&uc, cm + 1, sizeof(uc));
	/* the ids in the sender's user namespace, the pid in its pid
	 * namespace; carried as the instance's */
	uc.uid = make_kuid(cred_user_ns(c), uc.uid);
	uc.gid = make_kgid(cred_user_ns(c), uc.gid);
	if (uc.uid == INVALID_ID || uc.gid == INVALID_ID)
		return -EINVAL;
	vpid = pid_vnr(t, t->proc->pid);
	pid_ok = uc.pid == vpid || ns_capable(c, ns_owner(&task_pid_ns(t)->ns), CAP_SYS_ADMIN);
	uid_ok = uc.uid == c->uid || uc.uid == c->euid || uc.uid == c->suid ||
		 ns_capable(c, cred_user_ns(c), CAP_SETUID);
	gid_ok = uc.gid == c->gid || uc.gid == c->egid || uc.gid == c->sgid ||
		 ns_capable(c, cred_user_ns(c), CAP_SETGID);
	if (!pid_ok || !uid_ok || !gid_ok)
		return -EPERM;
	if (uc.pid != vpid && !process_by_vpid(t, uc.pid))
		return -ESRCH;
	uc.pid = pid_from_nr(task_pid_ns(t), uc.pid);
	scm->has_cred = true;
	scm->cred = uc;
	return 0;
}

/* IP_PKTINFO (struct in_pktinfo: exactly its 12 bytes) and IPV6_PKTINFO
 * (struct in6_pktinfo: at least its 20): the interface and the source
 * address (in_pktinfo's ipi_spec_dst), for the protocol to check. */
static void pktinfo_cmsg(bool v6, size_t dlen, const char *data, struct scm *scm)
{
	int32_t ifindex;

	if (v6 ? dlen < 20 : dlen != 12) {
		scm->ip_bad = true;
		return;
	}
	memset(scm->pkt_addr, 0, 16);
	if (v6) {
		memcpy(scm->pkt_addr, data, 16);
		memcpy(&ifindex, data + 16, 4);
	} else {
		memcpy(&ifindex, data, 4);
		scm->pkt_addr[10] = scm->pkt_addr[11] = 0xff;
		memcpy(scm->pkt_addr + 12, data + 4, 4);
	}
	scm->pkt_ifindex = ifindex;
	scm->ip_given |= v6 ? SCM_IPV6_PKTINFO : SCM_IP_PKTINFO;
}

/* The IP-level messages UDP takes (ip_cmsg_send, ip6_datagram_send_ctl):
 * an int each (IP_TOS a byte too); IP_TTL 1-255, IP_TOS 0-255, the IPv6
 * ones -1-255; and the pktinfo ones. Others are ignored, as AF_UNIX and
 * TCP do. */
static void ip_cmsg(const struct linux_cmsghdr *cm, const char *data, struct scm *scm)
{
	size_t dlen = cm->cmsg_len - sizeof(*cm);
	bool v6 = cm->cmsg_level == LINUX_SOL_IPV6;
	int v = 0, bit, lo = v6 ? -1 : 0;
	int *to;

	if (cm->cmsg_type == (v6 ? IPV6_PKTINFO : IP_PKTINFO)) {
		pktinfo_cmsg(v6, dlen, data, scm);
		return;
	}
	if (!v6 && cm->cmsg_type == IP_TTL) {
		bit = SCM_IP_TTL, to = &scm->ttl, lo = 1;
	} else if (!v6 && cm->cmsg_type == IP_TOS) {
		bit = SCM_IP_TOS, to = &scm->tos;
	} else if (v6 && cm->cmsg_type == IPV6_HOPLIMIT) {
		bit = SCM_IPV6_HOPS, to = &scm->hops;
	} else if (v6 && cm->cmsg_type == IPV6_TCLASS) {
		bit = SCM_IPV6_TCLASS, to = &scm->tclass;
	} else {
		return;
	}
	if (dlen == sizeof(int))
		memcpy(&v, data, sizeof(v));
	else if (dlen == 1 && bit == SCM_IP_TOS)
		v = (unsigned char)data[0];
	else
		v = lo - 1;
	if (v < lo || v > 255) {
		scm->ip_bad = true;
		return;
	}
	/* -1: the socket's hop limit; but a class of -1 is sent as it is,
	 * 255, as Linux 6 does (ipcm6_init_sk took the socket's first) */
	if (v == -1 && bit == SCM_IPV6_HOPS)
		return;
	*to = v & 0xff;
	scm->ip_given |= bit;
}

int scm_send(struct task *t, const void *ctl, size_t len, struct scm *scm)
{
	const char *base = ctl;
	size_t off = 0;
	int ret = 0;

	memset(scm, 0, sizeof(*scm));
	while (len - off >= sizeof(struct linux_cmsghdr)) {
		struct linux_cmsghdr cm;

		memcpy(&cm, base + off, sizeof(cm));
		/* CMSG_OK: the header's length covers itself and stays inside */
		if (cm.cmsg_len < sizeof(cm) || cm.cmsg_len > len - off) {
			ret = -EINVAL;
			break;
		}
		if (cm.cmsg_level == LINUX_SOL_IP || cm.cmsg_level == LINUX_SOL_IPV6)
			ip_cmsg(&cm, base + off + sizeof(cm), scm);
		if (cm.cmsg_level == LINUX_SOL_SOCKET) {
			/* cm's data follows it in the buffer; pass the header in place */
			const struct linux_cmsghdr *in = (const void *)(base + off);

			if (cm.cmsg_type == LINUX_SCM_RIGHTS)
				ret = scm_fp_copy(t, in, scm);
			else if (cm.cmsg_type == LINUX_SCM_CREDENTIALS)
				ret = scm_check_creds(t, in, scm);
			else
				ret = -EINVAL;
			if (ret < 0)
				break;
		}
		if (LINUX_CMSG_ALIGN(cm.cmsg_len) > len - off)
			break;
		off += LINUX_CMSG_ALIGN(cm.cmsg_len);
	}
	if (ret < 0)
		scm_destroy(scm);
	return ret;
}

/* What Linux's put_cmsg leaves when its copy faults with ok bytes
 * writable: the header's fields one put_user each (len, level, type), then
 * the data 8, 4, 2 and 1 bytes at a time (unsafe_copy_to_user), up to the
 * first store that does not fit. */
static size_t put_cmsg_prefix(size_t ok, size_t cmlen)
{
	size_t done = sizeof(struct linux_cmsghdr), left = cmlen - done, step;

	if (ok < done)
		return ok < 8 ? 0 : ok < 12 ? 8 : 12;
	for (step = 8; step; step /= 2) {
		while (left >= step) {
			if (done + step > ok)
				return done;
			done += step;
			left -= step;
		}
	}
	return done;
}

/* put_cmsg: one control message, cut to what is left (MSG_CTRUNC). One
 * whose copy faults is not counted (Linux's put_cmsg returns EFAULT, which
 * its callers ignore), but what it wrote before the fault stays. */
static void put_cmsg(struct task *t, int level, int type, const void *data, size_t dlen,
		     uaddr_t *ctl, uint64_t *left, unsigned *flags)
{
	struct {
		struct linux_cmsghdr h;
		char data[64];
	} buf;
	size_t cmlen = LINUX_CMSG_LEN(dlen);

	if (!*ctl || *left < sizeof(struct linux_cmsghdr)) {
		*flags |= LINUX_MSG_CTRUNC;
		return;
	}
	if (*left < cmlen) {
		*flags |= LINUX_MSG_CTRUNC;
		cmlen = *left;
	}
	buf.h.cmsg_len = cmlen;
	buf.h.cmsg_level = level;
	buf.h.cmsg_type = type;
	memcpy(buf.data, data, dlen);
	if (copy_to_user(t->mm, *ctl, &buf, cmlen) < 0) {
		size_t w = put_cmsg_prefix(user_prefix(t->mm, *ctl, cmlen, true), cmlen);

		if (w)
			copy_to_user(t->mm, *ctl, &buf, w);
		return;
	}
	cmlen = LINUX_CMSG_SPACE(dlen) < *left ? LINUX_CMSG_SPACE(dlen) : *left;
	*ctl += cmlen;
	*left -= cmlen;
}

struct rights {
	struct linux_cmsghdr h;
	int fds[LINUX_SCM_MAX_FD];
};

/* An SCM_RIGHTS header and the n numbers after it at ctl, in one copy
 * when all of it is writable (whole). Else the numbers go first, as Linux
 * writes them: 0, or -EFAULT if the header could not follow (the fds stay
 * installed; only the header is missing, as on Linux). */
static int put_rights(struct task *t, uaddr_t ctl, const struct rights *r, int n, bool whole)
{
	if (whole)
		return copy_to_user(t->mm, ctl, r, sizeof(r->h) + n * sizeof(int));
	if (copy_to_user(t->mm, ctl + sizeof(r->h), r->fds, n * sizeof(int)) < 0)
		return -EFAULT;
	return copy_to_user(t->mm, ctl, &r->h, sizeof(r->h));
}

/* scm_detach_fds: as many new fds as fit, then SCM_RIGHTS. Linux writes
 * each new fd's number before it installs the fd and stops at the first
 * whose number faults; those installed stay (the guest may not know their
 * numbers), with a header if it can be written. The VMAs say beforehand
 * how many slots are writable: no fd is installed only to be closed. */
static void detach_fds(struct task *t, struct scm *scm, uaddr_t *ctl, uint64_t *left,
		       unsigned *flags)
{
	int limit = (int)t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur;
	bool cloexec = *flags & LINUX_MSG_CMSG_CLOEXEC;
	int fdmax = 0, nslots, i, n = 0;
	struct rights out;
	const size_t hlen = sizeof(out.h);
	size_t need;
	bool whole;

	if (*left > hlen)
		fdmax = (int)((*left - hlen) / sizeof(int) < (uint64_t)scm->nfds
				      ? (*left - hlen) / sizeof(int)
				      : (uint64_t)scm->nfds);
	if (fdmax > LINUX_SCM_MAX_FD) /* scm_fp_copy's limit: never, out.fds holds that many */
		fdmax = LINUX_SCM_MAX_FD;
	need = hlen + fdmax * sizeof(int);
	whole = fdmax > 0 && user_prefix(t->mm, *ctl, need, true) == need;
	nslots = whole ? fdmax
		       : (int)(user_prefix(t->mm, *ctl + hlen, fdmax * sizeof(int), true) /
			       sizeof(int));
	for (i = 0; i < nslots; i++) {
		int fd = fd_install(t->files, scm->fds[i], 0, cloexec, limit);

		if (fd < 0)
			break;
		scm->fds[i] = NULL; /* the table holds the reference now */
		out.fds[n++] = fd;
	}
	if (n > 0) {
		out.h.cmsg_len = LINUX_CMSG_LEN(n * sizeof(int));
		out.h.cmsg_level = LINUX_SOL_SOCKET;
		out.h.cmsg_type = LINUX_SCM_RIGHTS;
		if (put_rights(t, *ctl, &out, n, whole) == 0) {
			uint64_t space = LINUX_CMSG_SPACE(n * sizeof(int));

			space = space < *left ? space : *left;
			*ctl += space;
			*left -= space;
		}
	}
	if (n < scm->nfds || (scm->nfds && fdmax <= 0))
		*flags |= LINUX_MSG_CTRUNC;
	for (i = 0; i < scm->nfds; i++)
		if (scm->fds[i])
			file_put(scm->fds[i]);
	free(scm->fds);
	scm->fds = NULL;
	scm->nfds = 0;
}

/* The host's control messages (scm->raw), in its order: each a cmsghdr
 * whose data hostnet.c checked against the allowlist's size. */
static void put_raw(struct task *t, const struct scm *scm, uaddr_t *ctl, uint64_t *left,
		    unsigned *flags)
{
	unsigned off = 0;

	while (off + sizeof(struct linux_cmsghdr) <= scm->raw_len) {
		struct linux_cmsghdr h;

		memcpy(&h, scm->raw + off, sizeof(h));
		if (h.cmsg_len < sizeof(h) || h.cmsg_len > scm->raw_len - off)
			break;
		put_cmsg(t, h.cmsg_level, h.cmsg_type, scm->raw + off + sizeof(h),
			 h.cmsg_len - sizeof(h), ctl, left, flags);
		off += LINUX_CMSG_SPACE(h.cmsg_len - sizeof(h));
	}
}

int scm_recv(struct task *t, struct scm *scm, bool passcred, uaddr_t ctl, uint64_t *ctllen,
	     unsigned *msg_flags)
{
	uint64_t left = *ctllen;
	uaddr_t at = ctl;

	if (!ctl) {
		if (passcred || scm->nfds || scm->ip_report || scm->raw_len || scm->ts_type ||
		    scm->serr_len)
			*msg_flags |= LINUX_MSG_CTRUNC;
		scm_destroy(scm);
		*ctllen = 0;
		return 0;
	}
	if (scm->raw_len)
		put_raw(t, scm, &at, &left, msg_flags);
	if (scm->ts_type) {
		/* __sock_recv_timestamp's, before the IP level's: seconds and
		 * micro- or nanoseconds, 64-bit each in every variant */
		bool ns = scm->ts_type == LINUX_SO_TIMESTAMPNS_OLD ||
			  scm->ts_type == LINUX_SO_TIMESTAMPNS_NEW;
		int64_t tv[2] = { scm->tstamp_ns / 1000000000,
				  scm->tstamp_ns % 1000000000 / (ns ? 1 : 1000) };

		put_cmsg(t, LINUX_SOL_SOCKET, scm->ts_type, tv, sizeof(tv), &at, &left, msg_flags);
	}
	/* UDP's and ICMP's, in Linux's order (IPV6_PKTINFO of
	 * ip6_datagram_recv_common_ctl, ip_cmsg_recv_offset, then
	 * ip6_datagram_recv_specific_ctl); IP_TOS is one byte. */
	if (scm->ip_report & SCM_IPV6_PKTINFO) {
		unsigned char pi[20]; /* struct in6_pktinfo */

		memcpy(pi, scm->pkt_addr, 16);
		memcpy(pi + 16, &scm->pkt_ifindex, 4);
		put_cmsg(t, LINUX_SOL_IPV6, IPV6_PKTINFO, pi, sizeof(pi), &at, &left, msg_flags);
	}
	if (scm->ip_report & SCM_IP_PKTINFO) {
		unsigned char pi[12]; /* struct in_pktinfo */

		memcpy(pi, &scm->pkt_ifindex, 4);
		memcpy(pi + 4, scm->pkt_spec_dst + 12, 4);
		memcpy(pi + 8, scm->pkt_addr + 12, 4);
		put_cmsg(t, LINUX_SOL_IP, IP_PKTINFO, pi, sizeof(pi), &at, &left, msg_flags);
	}
	if (scm->ip_report & SCM_IP_TTL)
		put_cmsg(t, LINUX_SOL_IP, IP_TTL, &scm->ttl, sizeof(int), &at, &left, msg_flags);
	if (scm->ip_report & SCM_IP_TOS) {
		unsigned char tos = (unsigned char)scm->tos;

		put_cmsg(t, LINUX_SOL_IP, IP_TOS, &tos, 1, &at, &left, msg_flags);
	}
	if (scm->ip_report & SCM_IPV6_HOPS)
		put_cmsg(t, LINUX_SOL_IPV6, IPV6_HOPLIMIT, &scm->hops, sizeof(int), &at, &left,
			 msg_flags);
	if (scm->ip_report & SCM_IPV6_TCLASS)
		put_cmsg(t, LINUX_SOL_IPV6, IPV6_TCLASS, &scm->tclass, sizeof(int), &at, &left,
			 msg_flags);
	if (scm->serr_len)
		put_cmsg(t, scm->serr_level, scm->serr_type, scm->serr, scm->serr_len, &at, &left,
			 msg_flags);
	if (passcred) {
		struct linux_ucred uc = scm->cred;

		if (!scm->has_cred) {
			/* no credentials travelled: Linux reports the overflow ids */
			uc.pid = 0;
			uc.uid = overflowuid;
			uc.gid = overflowgid;
		}
		/* as the receiver's namespaces see them */
		uc.pid = pid_vnr(t, uc.pid);
		if (scm->has_cred) {
			uc.uid = from_kuid_munged(cred_user_ns(&t->proc->cred), uc.uid);
			uc.gid = from_kgid_munged(cred_user_ns(&t->proc->cred), uc.gid);
		}
		put_cmsg(t, LINUX_SOL_SOCKET, LINUX_SCM_CREDENTIALS, &uc, sizeof(uc), &at, &left,
			 msg_flags);
	}
	if (scm->nfds)
		detach_fds(t, scm, &at, &left, msg_flags);
	*ctllen = at - ctl;
	return 0;
}
