/* Partly accessible buffers, part two: the control data, names, msghdrs
 * and iovec arrays of sendmsg/recvmsg (SCM_RIGHTS with several fds,
 * SCM_CREDENTIALS) on AF_UNIX stream and datagram sockets, recvmmsg and
 * sendmmsg vectors (and recvmmsg's timeout) that fault part way, MSG_PEEK
 * into a faulting buffer, and splice, tee, vmsplice, sendfile and
 * copy_file_range with buffers or loff_t pointers that straddle the edge of
 * a mapped page. What Linux does: received fds are installed one by one
 * and those whose number reached the guest stay; a cmsg whose copy faults
 * keeps what its stores wrote (header fields, data 8/4/2/1 bytes at a
 * time); a recvmsg whose name or msg_flags copy faults has consumed the
 * message and installed its fds; recvmmsg returns the count done and
 * leaves EFAULT as the socket's error; vmsplice out of a pipe counts whole
 * buffers; the offset of splice and copy_file_range is read before and
 * written (copy_to_user: the bytes before the fault stay) after a transfer
 * that stays done when that write faults, sendfile's with put_user (all
 * or nothing). Every line printed is compared with native Linux: return
 * values, errno, flags, lengths, the bytes before the edge, fd counts,
 * what stays queued, file contents and positions. The source and target
 * of copy_file_range share a file system: across two, EXDEV or not
 * depends on the host's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>

#include "partial_fault.h"

/* a read-only page starts with offsets (and an iovec) of 0 */
#define edge_map(kind) edge_map_zeroed(kind, 16)

/* closes every fd above the n lowest ones that were open at the start:
 * the received fds whose numbers we may not have seen */
static int base_fds;

static void close_new_fds(int keep_below)
{
	int i;

	for (i = keep_below; i < 256; i++)
		close(i);
}

static int devnull;

/* n copies of devnull with the byte 'x', and credentials if cred */
static long send_fds(int s, int n, int cred, const char *data)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int) * 8) + CMSG_SPACE(sizeof(struct ucred))];
	} u;
	struct iovec iov = { (void *)data, strlen(data) };
	struct msghdr mh;
	struct cmsghdr *cm;
	int i, fds[8];
	size_t len = 0;

	memset(&u, 0, sizeof u);
	memset(&mh, 0, sizeof mh);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = u.b;
	mh.msg_controllen = sizeof u.b;
	cm = CMSG_FIRSTHDR(&mh);
	if (n) {
		for (i = 0; i < n; i++)
			fds[i] = devnull;
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(n * sizeof(int));
		memcpy(CMSG_DATA(cm), fds, n * sizeof(int));
		len += CMSG_SPACE(n * sizeof(int));
		cm = (struct cmsghdr *)(u.b + len);
	}
	if (cred) {
		struct ucred uc = { getpid(), getuid(), getgid() };
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_CREDENTIALS;
		cm->cmsg_len = CMSG_LEN(sizeof uc);
		memcpy(CMSG_DATA(cm), &uc, sizeof uc);
		len += CMSG_SPACE(sizeof uc);
	}
	mh.msg_controllen = len;
	if (!len)
		mh.msg_control = NULL;
	return sendmsg(s, &mh, 0);
}

/* recvmsg of 1 byte with the control buffer at ctl (clen bytes); prints
 * the result, the flags and length left, and how many new fds appeared */
static void recv_ctl_at(const char *label, int s, void *data, void *ctl, size_t clen, int flags)
{
	struct iovec iov = { data, 8 };
	struct msghdr mh;
	int before = count_fds();
	long r;

	memset(&mh, 0, sizeof mh);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = ctl;
	mh.msg_controllen = clen;
	errno = 0;
	r = syscall(SYS_recvmsg, s, &mh, flags | MSG_DONTWAIT);
	printf("%s: %s", label, res(r, errno));
	if (r >= 0)
		printf(" ctrunc %d controllen %zu", !!(mh.msg_flags & MSG_CTRUNC),
		       (size_t)mh.msg_controllen);
	printf(" new fds %d\n", count_fds() - before);
	close_new_fds(base_fds);
}

static void recv_ctl(const char *label, int s, void *ctl, size_t clen, int flags)
{
	unsigned char data[8];

	recv_ctl_at(label, s, data, ctl, clen, flags);
}

static void scm(int kind, int type)
{
	unsigned char *e = edge_map(kind);
	const char *tn = type == SOCK_STREAM ? "stream" : "dgram";
	char label[160];
	struct msghdr mh;
	struct iovec iov;
	int s[2], one = 1;

#define L(x) (snprintf(label, sizeof label, "%s %s %s", tn, kind_name[kind], x), label)
	socketpair(AF_UNIX, type, 0, s);
	base_fds = 0;
	while (fcntl(base_fds, F_GETFD) >= 0 || base_fds <= s[1])
		base_fds++;

	/* header and two fds fit before the edge, the third faults */
	send_fds(s[1], 3, 0, "a");
	recv_ctl(L("recvmsg 3 fds, control 32 at edge-24"), s[0], e - 24, 32, 0);
	show("header", e - 24, 8);
	drain(s[0], 1);
	/* the first fd's number faults: nothing installed, no header */
	send_fds(s[1], 3, 0, "b");
	memset(e - 24, '.', 24);
	recv_ctl(L("recvmsg 3 fds, control 32 at edge-16"), s[0], e - 16, 32, 0);
	show("header", e - 16, 8);
	drain(s[0], 1);
	/* the header itself straddles */
	send_fds(s[1], 2, 0, "c");
	memset(e - 24, '.', 24);
	recv_ctl(L("recvmsg 2 fds, control 32 at edge-8"), s[0], e - 8, 32, 0);
	show("header", e - 8, 8);
	drain(s[0], 1);
	/* the control buffer is the edge itself */
	send_fds(s[1], 2, 0, "d");
	recv_ctl(L("recvmsg 2 fds, control 32 at the edge"), s[0], e, 32, 0);
	drain(s[0], 1);
	/* room for two of three: the third is closed */
	{
		char ctl[64];
		send_fds(s[1], 3, 0, "e");
		recv_ctl(L("recvmsg 3 fds, control 24"), s[0], ctl, 24, 0);
		send_fds(s[1], 3, 0, "f");
		recv_ctl(L("recvmsg 3 fds, control 16"), s[0], ctl, 16, 0);
		send_fds(s[1], 3, 0, "g");
		recv_ctl(L("recvmsg 3 fds, control 10"), s[0], ctl, 10, 0);
		send_fds(s[1], 3, 0, "h");
		recv_ctl(L("recvmsg 3 fds, no control"), s[0], NULL, 0, 0);
		send_fds(s[1], 3, 0, "i");
		recv_ctl(L("recvmsg 3 fds, control 64 MSG_CMSG_CLOEXEC"), s[0], ctl, 64,
			 MSG_CMSG_CLOEXEC);
	}
	printf("  fds now %d\n", count_fds());

	/* the data's copy faults: a stream keeps the bytes and the fds, a
	 * datagram is lost with its fds (closed, not leaked) */
	{
		char ctl[64];
		send_fds(s[1], 2, 0, "zz");
		recv_ctl_at(L("recvmsg 2 fds, data at edge-1"), s[0], e - 1, ctl, sizeof ctl, 0);
		recv_ctl(L("then recvmsg"), s[0], ctl, sizeof ctl, 0);
		printf("  fds now %d\n", count_fds());
		/* a plain message, then one with fds whose copy faults */
		send(s[1], "ab", 2, 0);
		send_fds(s[1], 2, 0, "cd");
		memset(e - 3, '.', 3);
		recv_ctl_at(L("recvmsg 2 + (2 with 2 fds), data at edge-3"), s[0], e - 3, ctl,
			    sizeof ctl, 0);
		show("got", e - 3, 3);
		recv_ctl(L("then recvmsg"), s[0], ctl, sizeof ctl, 0);
		drain(s[0], 1);
	}

	/* MSG_PEEK into a faulting data buffer: nothing installed, all stays */
	{
		char ctl[64];
		struct msghdr pm;
		struct iovec piov = { e - 1, 10 };
		int before;
		long r;

		send_fds(s[1], 2, 0, "jk");
		memset(&pm, 0, sizeof pm);
		pm.msg_iov = &piov;
		pm.msg_iovlen = 1;
		pm.msg_control = ctl;
		pm.msg_controllen = sizeof ctl;
		before = count_fds();
		piov.iov_base = e;
		errno = 0;
		r = syscall(SYS_recvmsg, s[0], &pm, MSG_PEEK | MSG_DONTWAIT);
		printf("%s: %s", L("recvmsg MSG_PEEK at the edge"), res(r, errno));
		printf(" new fds %d\n", count_fds() - before);
		close_new_fds(base_fds);
		piov.iov_base = e - 1;
		pm.msg_controllen = sizeof ctl;
		errno = 0;
		r = syscall(SYS_recvmsg, s[0], &pm, MSG_PEEK | MSG_DONTWAIT);
		printf("%s: %s", L("recvmsg MSG_PEEK at edge-1"), res(r, errno));
		if (r >= 0)
			printf(" ctrunc %d controllen %zu", !!(pm.msg_flags & MSG_CTRUNC),
			       (size_t)pm.msg_controllen);
		printf(" new fds %d\n", count_fds() - before);
		close_new_fds(base_fds);
		recv_ctl(L("then recvmsg"), s[0], ctl, sizeof ctl, 0);
		drain(s[0], 1);
	}

	/* SCM_CREDENTIALS: the cmsg whose copy faults is not counted */
	setsockopt(s[0], SOL_SOCKET, SO_PASSCRED, &one, sizeof one);
	send_fds(s[1], 0, 1, "l");
	memset(e - 24, '.', 24);
	recv_ctl(L("recvmsg creds, control 32 at edge-16"), s[0], e - 16, 32, 0);
	show("header", e - 16, 16);
	send_fds(s[1], 0, 1, "l");
	memset(e - 24, '.', 24);
	recv_ctl(L("recvmsg creds, control 32 at edge-20"), s[0], e - 20, 32, 0);
	show("header", e - 20, 20);
	send_fds(s[1], 2, 1, "m");
	memset(e - 24, '.', 24);
	recv_ctl(L("recvmsg creds+2 fds, control 64 at edge-24"), s[0], e - 24, 64, 0);
	show("header", e - 24, 24);
	send_fds(s[1], 2, 1, "n");
	{
		unsigned char *c = e - 48;
		memset(e - 48, '.', 48);
		recv_ctl(L("recvmsg creds+2 fds, control 64 at edge-48"), s[0], c, 64, 0);
		printf("  first cmsg type %d len %d\n", ((struct cmsghdr *)c)->cmsg_type,
		       (int)((struct cmsghdr *)c)->cmsg_len);
		show("second header", c + 32, 16);
	}
	send_fds(s[1], 2, 1, "o");
	{
		char ctl[64];
		recv_ctl(L("recvmsg creds+2 fds, control 40"), s[0], ctl, 40, 0);
	}
	drain(s[0], 1);
	one = 0;
	setsockopt(s[0], SOL_SOCKET, SO_PASSCRED, &one, sizeof one);

	/* sendmsg whose control, iovec array or header straddles */
	{
		union {
			struct cmsghdr h;
			char b[CMSG_SPACE(8)];
		} u;
		int fds[2] = { devnull, devnull };

		memset(&mh, 0, sizeof mh);
		iov.iov_base = "p";
		iov.iov_len = 1;
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		u.h.cmsg_len = CMSG_LEN(8);
		u.h.cmsg_level = SOL_SOCKET;
		u.h.cmsg_type = SCM_RIGHTS;
		memcpy(CMSG_DATA(&u.h), fds, 8);
		memcpy(e - 16, u.b, 16);
		mh.msg_control = e - 16;
		mh.msg_controllen = CMSG_LEN(8);
		CALL(L("sendmsg control at edge-16"), syscall(SYS_sendmsg, s[1], &mh, 0));
		memcpy(e - 24, u.b, 24);
		mh.msg_control = e - 24;
		CALL(L("sendmsg control at edge-24 (fits)"), syscall(SYS_sendmsg, s[1], &mh, 0));
		mh.msg_control = NULL;
		mh.msg_controllen = 0;
		memcpy(e - 8, &iov, 8);
		mh.msg_iov = (struct iovec *)(e - 8);
		CALL(L("sendmsg iovec array at edge-8"), syscall(SYS_sendmsg, s[1], &mh, 0));
		mh.msg_iov = &iov;
		memcpy(e - 20, &mh, 20);
		CALL(L("sendmsg msghdr at edge-20"), syscall(SYS_sendmsg, s[1], e - 20, 0));
		recv_ctl(L("then recvmsg"), s[0], u.b, sizeof u.b, 0);
		drain(s[0], 1);
		/* fds with data that faults: neither goes */
		memcpy(e - 10, "0123456789", 10);
		iov.iov_base = e - 10;
		iov.iov_len = 100;
		mh.msg_iov = &iov;
		u.h.cmsg_len = CMSG_LEN(8);
		u.h.cmsg_level = SOL_SOCKET;
		u.h.cmsg_type = SCM_RIGHTS;
		memcpy(CMSG_DATA(&u.h), fds, 8);
		mh.msg_control = u.b;
		mh.msg_controllen = CMSG_LEN(8);
		CALL(L("sendmsg 2 fds, data 100 at edge-10"), syscall(SYS_sendmsg, s[1], &mh, 0));
		recv_ctl(L("then recvmsg"), s[0], u.b, sizeof u.b, 0);
		drain(s[0], 1);
	}
	/* recvmsg whose iovec array or header straddles: the data stays */
	send(s[1], "qrs", 3, 0);
	{
		unsigned char buf[8];
		iov.iov_base = buf;
		iov.iov_len = sizeof buf;
		memset(&mh, 0, sizeof mh);
		memcpy(e - 8, &iov, 8);
		mh.msg_iov = (struct iovec *)(e - 8);
		mh.msg_iovlen = 1;
		CALL(L("recvmsg iovec array at edge-8"),
		     syscall(SYS_recvmsg, s[0], &mh, MSG_DONTWAIT));
		mh.msg_iov = &iov;
		memcpy(e - 20, &mh, 20);
		CALL(L("recvmsg msghdr at edge-20"),
		     syscall(SYS_recvmsg, s[0], e - 20, MSG_DONTWAIT));
		drain(s[0], 1);
	}
	if (kind == 2) {
		/* msg_flags in the read-only page: the message is taken, its
		 * fds installed, and then the write of the flags faults */
		char ctl[64];
		unsigned char buf[8];
		struct msghdr *m = (struct msghdr *)(e - offsetof(struct msghdr, msg_flags));
		int before;
		long r;

		iov.iov_base = buf;
		iov.iov_len = sizeof buf;
		memset(m, 0, offsetof(struct msghdr, msg_flags));
		m->msg_iov = &iov;
		m->msg_iovlen = 1;
		m->msg_control = ctl;
		m->msg_controllen = sizeof ctl;
		send_fds(s[1], 2, 0, "uv");
		before = count_fds();
		errno = 0;
		r = syscall(SYS_recvmsg, s[0], m, MSG_DONTWAIT);
		printf("%s: %s", L("recvmsg, msg_flags in the read-only page"), res(r, errno));
		printf(" new fds %d controllen %zu\n", count_fds() - before,
		       (size_t)m->msg_controllen);
		close_new_fds(base_fds);
		drain(s[0], 1);
	}
	close(s[0]);
	close(s[1]);
	edge_unmap(e);
#undef L
}

/* names: a datagram from a bound sender, received with msg_name
 * straddling; a sendmsg whose msg_name straddles */
static void names(int kind)
{
	unsigned char *e = edge_map(kind);
	char label[160];
	struct sockaddr_un a, b;
	struct msghdr mh;
	struct iovec iov;
	unsigned char buf[16], ctl[64];
	int rs, ss, before;
	long r;

#define L(x) (snprintf(label, sizeof label, "%s %s", kind_name[kind], x), label)
	memset(&a, 0, sizeof a);
	a.sun_family = AF_UNIX;
	snprintf(a.sun_path + 1, sizeof a.sun_path - 1, "pf2r.%08d.%d", getpid(), kind);
	b = a;
	b.sun_path[1] = 'S';
	rs = socket(AF_UNIX, SOCK_DGRAM, 0);
	ss = socket(AF_UNIX, SOCK_DGRAM, 0);
	bind(rs, (struct sockaddr *)&a, sizeof a);
	bind(ss, (struct sockaddr *)&b, sizeof b);
	connect(ss, (struct sockaddr *)&a, sizeof a);
	base_fds = 0;
	while (fcntl(base_fds, F_GETFD) >= 0 || base_fds <= ss)
		base_fds++;
	send_fds(ss, 2, 0, "named");
	send(ss, "second", 6, 0);
	memset(&mh, 0, sizeof mh);
	iov.iov_base = buf;
	iov.iov_len = sizeof buf;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = ctl;
	mh.msg_controllen = sizeof ctl;
	mh.msg_name = e - 4;
	mh.msg_namelen = sizeof a;
	memset(e - 4, '.', 4);
	before = count_fds();
	errno = 0;
	r = syscall(SYS_recvmsg, rs, &mh, MSG_DONTWAIT);
	printf("%s: %s", L("dgram recvmsg name at edge-4"), res(r, errno));
	printf(" new fds %d\n", count_fds() - before);
	show("name", e - 4, 4);
	close_new_fds(base_fds);
	mh.msg_name = e - 4;
	mh.msg_namelen = 4;
	CALL(L("dgram recvmsg name at edge-4, namelen 4"),
	     syscall(SYS_recvmsg, rs, &mh, MSG_DONTWAIT));
	printf("  namelen %u\n", mh.msg_namelen);
	send(ss, "third", 5, 0);
	CALL(L("dgram recvfrom name at edge-4"),
	     syscall(SYS_recvfrom, rs, buf, sizeof buf, MSG_DONTWAIT, e - 4,
		     &(socklen_t){ sizeof a }));
	drain(rs, 1);

	/* sendmsg/sendto to a name that straddles */
	memcpy(e - 4, &a, 4);
	memset(&mh, 0, sizeof mh);
	iov.iov_base = "x";
	iov.iov_len = 1;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_name = e - 4;
	mh.msg_namelen = sizeof a;
	close(ss);
	ss = socket(AF_UNIX, SOCK_DGRAM, 0);
	CALL(L("dgram sendmsg name at edge-4"), syscall(SYS_sendmsg, ss, &mh, 0));
	CALL(L("dgram sendto name at edge-4"), syscall(SYS_sendto, ss, "y", 1, 0, e - 4, sizeof a));
	drain(rs, 1);
	close(ss);
	close(rs);
	edge_unmap(e);
#undef L
}

/* recvmmsg and sendmmsg whose vector faults part way */
static void mmsg(int kind, int type)
{
	unsigned char *e = edge_map(kind);
	const char *tn = type == SOCK_STREAM ? "stream" : "dgram";
	char label[160];
	struct mmsghdr *v;
	struct iovec iov[3];
	unsigned char buf[3][8];
	int s[2], i, err;
	socklen_t el = sizeof err;

#define L(x) (snprintf(label, sizeof label, "%s %s %s", tn, kind_name[kind], x), label)
	socketpair(AF_UNIX, type, 0, s);
	/* the third entry straddles the edge */
	v = (struct mmsghdr *)(e - 2 * sizeof *v - 8);
	memset(v, 0, 2 * sizeof *v + 8);
	for (i = 0; i < 3; i++) {
		iov[i].iov_base = buf[i];
		iov[i].iov_len = type == SOCK_STREAM ? 2 : sizeof buf[i];
	}
	for (i = 0; i < 2; i++) {
		v[i].msg_hdr.msg_iov = &iov[i];
		v[i].msg_hdr.msg_iovlen = 1;
	}
	send(s[1], "d1", 2, 0);
	send(s[1], "d2", 2, 0);
	send(s[1], "d3", 2, 0);
	CALL(L("recvmmsg 3, the third entry at edge-8"),
	     syscall(SYS_recvmmsg, s[0], v, 3, MSG_DONTWAIT, NULL));
	printf("  lens %u %u\n", v[0].msg_len, v[1].msg_len);
	getsockopt(s[0], SOL_SOCKET, SO_ERROR, &err, &el);
	printf("  SO_ERROR %s\n", ename(err));
	drain(s[0], 1);
	send(s[1], "d4", 2, 0);
	send(s[1], "d5", 2, 0);
	send(s[1], "d6", 2, 0);
	CALL(L("recvmmsg 3, the third entry at edge-8, again"),
	     syscall(SYS_recvmmsg, s[0], v, 3, MSG_DONTWAIT, NULL));
	CALL(L("then recvmmsg"), syscall(SYS_recvmmsg, s[0], v, 1, MSG_DONTWAIT, NULL));
	CALL(L("then recv"), syscall(SYS_recvfrom, s[0], buf[0], 8, MSG_DONTWAIT, NULL, NULL));
	drain(s[0], 1);

	/* the second entry's data buffer faults */
	{
		struct mmsghdr w[3];
		struct iovec bad = { e - 1, 8 };
		memset(w, 0, sizeof w);
		for (i = 0; i < 3; i++) {
			w[i].msg_hdr.msg_iov = &iov[i];
			w[i].msg_hdr.msg_iovlen = 1;
		}
		w[1].msg_hdr.msg_iov = &bad;
		send(s[1], "e1", 2, 0);
		send(s[1], "e2", 2, 0);
		send(s[1], "e3", 2, 0);
		CALL(L("recvmmsg 3, the second's data at edge-1"),
		     syscall(SYS_recvmmsg, s[0], w, 3, MSG_DONTWAIT, NULL));
		CALL(L("then recv"),
		     syscall(SYS_recvfrom, s[0], buf[0], 8, MSG_DONTWAIT, NULL, NULL));
		drain(s[0], 1);
		memset(buf, 0, sizeof buf);
		memcpy(buf[0], "h1", 2);
		memcpy(buf[2], "h3", 2);
		CALL(L("sendmmsg 3, the second's data at edge-1"),
		     syscall(SYS_sendmmsg, s[1], w, 3, 0));
		drain(s[0], 1);
		bad.iov_base = e;
		CALL(L("sendmmsg 3, the second's data at the edge"),
		     syscall(SYS_sendmmsg, s[1], w, 3, 0));
		drain(s[0], 1);
	}
	/* the second entry's msg_len is past the edge: its message is done
	 * but not counted */
	v = (struct mmsghdr *)(e - sizeof(struct msghdr) - sizeof *v);
	memset(v, 0, sizeof *v + sizeof(struct msghdr));
	for (i = 0; i < 2; i++) {
		v[i].msg_hdr.msg_iov = &iov[i];
		v[i].msg_hdr.msg_iovlen = 1;
	}
	memcpy(buf[0], "f1", 2);
	memcpy(buf[1], "f2", 2);
	iov[0].iov_len = iov[1].iov_len = 2;
	CALL(L("sendmmsg 2, the second's msg_len at the edge"),
	     syscall(SYS_sendmmsg, s[1], v, 2, 0));
	printf("  len %u\n", v[0].msg_len);
	drain(s[0], 1);
	/* and the third entry straddling */
	v = (struct mmsghdr *)(e - 2 * sizeof *v - 8);
	memset(v, 0, 2 * sizeof *v + 8);
	for (i = 0; i < 2; i++) {
		v[i].msg_hdr.msg_iov = &iov[i];
		v[i].msg_hdr.msg_iovlen = 1;
	}
	CALL(L("sendmmsg 3, the third entry at edge-8"), syscall(SYS_sendmmsg, s[1], v, 3, 0));
	drain(s[0], 1);
	send(s[1], "g1", 2, 0);
	send(s[1], "g2", 2, 0);
	v = (struct mmsghdr *)(e - sizeof(struct msghdr) - sizeof *v);
	memset(v, 0, sizeof *v + sizeof(struct msghdr));
	for (i = 0; i < 2; i++) {
		v[i].msg_hdr.msg_iov = &iov[i];
		v[i].msg_hdr.msg_iovlen = 1;
	}
	CALL(L("recvmmsg 2, the second's msg_len at the edge"),
	     syscall(SYS_recvmmsg, s[0], v, 2, MSG_DONTWAIT, NULL));
	getsockopt(s[0], SOL_SOCKET, SO_ERROR, &err, &el);
	printf("  SO_ERROR %s\n", ename(err));
	drain(s[0], 1);
	/* the timeout: read before, the time left written after */
	send(s[1], "t1", 2, 0);
	send(s[1], "t2", 2, 0);
	memset(e - 8, 0, 8);
	CALL(L("recvmmsg 2, timeout at edge-8"),
	     syscall(SYS_recvmmsg, s[0], v, 2, MSG_DONTWAIT, e - 8));
	if (kind == 2) {
		/* { 0, 0 }: one message, then the write of what is left faults */
		CALL(L("recvmmsg 2, timeout in the read-only page"),
		     syscall(SYS_recvmmsg, s[0], v, 2, MSG_DONTWAIT, e));
		getsockopt(s[0], SOL_SOCKET, SO_ERROR, &err, &el);
		printf("  SO_ERROR %s\n", ename(err));
	}
	drain(s[0], 1);
	CALL(L("recvmmsg, the vector at edge-8"),
	     syscall(SYS_recvmmsg, s[0], e - 8, 2, MSG_DONTWAIT, NULL));
	CALL(L("sendmmsg, the vector at edge-8"), syscall(SYS_sendmmsg, s[1], e - 8, 2, 0));
	drain(s[0], 1);
	close(s[0]);
	close(s[1]);
	edge_unmap(e);
#undef L
}

/* MSG_PEEK of two stream skbs into a buffer that faults in the second */
static void peek(int kind)
{
	unsigned char *e = edge_map(kind);
	char label[160];
	int s[2];

#define L(x) (snprintf(label, sizeof label, "%s %s", kind_name[kind], x), label)
	socketpair(AF_UNIX, SOCK_STREAM, 0, s);
	send(s[1], "ABCDE", 5, 0);
	send(s[1], "FGHIJKLMNOPQRST", 15, 0);
	CALL(L("stream MSG_PEEK 100 at edge-10"),
	     syscall(SYS_recvfrom, s[0], e - 10, 100, MSG_PEEK | MSG_DONTWAIT, NULL, NULL));
	show("got", e - 10, 10);
	CALL(L("stream MSG_PEEK 100 at edge-3"),
	     syscall(SYS_recvfrom, s[0], e - 3, 100, MSG_PEEK | MSG_DONTWAIT, NULL, NULL));
	show("got", e - 3, 3);
	drain(s[0], 1);
	close(s[0]);
	close(s[1]);
	socketpair(AF_UNIX, SOCK_SEQPACKET, 0, s);
	send(s[1], "abcdefghijklmnopqrst", 20, 0);
	memset(e - 10, '.', 10);
	CALL(L("seqpacket MSG_PEEK 100 at edge-10"),
	     syscall(SYS_recvfrom, s[0], e - 10, 100, MSG_PEEK | MSG_DONTWAIT, NULL, NULL));
	show("got", e - 10, 10);
	drain(s[0], 1);
	close(s[0]);
	close(s[1]);
	edge_unmap(e);
#undef L
}

static void show_file(const char *label, int fd)
{
	unsigned char buf[128];
	long r = pread(fd, buf, sizeof buf, 0);

	show(label, buf, r > 0 ? r : 0);
}

static void splices(int kind, const char *fs, const char *tpath)
{
	unsigned char *e = edge_map(kind);
	char label[160], spath[96];
	struct iovec iov[2];
	unsigned char small[8];
	int p[2], q[2], in, out, i;
	long long *off;

#define L(x) (snprintf(label, sizeof label, "%s %s %s", fs, kind_name[kind], x), label)
	pipe2(p, O_NONBLOCK);
	pipe2(q, O_NONBLOCK);
	/* vmsplice into the pipe: what is before the edge goes in */
	memcpy(e - 10, "0123456789", 10);
	iov[0].iov_base = e - 10;
	iov[0].iov_len = 100;
	CALL(L("vmsplice to pipe 100 from edge-10"), syscall(SYS_vmsplice, p[1], iov, 1, 0));
	drain(p[0], 0);
	CALL(L("vmsplice to pipe 100 from edge-10 SPLICE_F_GIFT"),
	     syscall(SYS_vmsplice, p[1], iov, 1, SPLICE_F_GIFT));
	drain(p[0], 0);
	iov[0].iov_base = e;
	CALL(L("vmsplice to pipe 100 from the edge"), syscall(SYS_vmsplice, p[1], iov, 1, 0));
	drain(p[0], 0);
	iov[0].iov_base = "ab";
	iov[0].iov_len = 2;
	iov[1].iov_base = e - 3;
	iov[1].iov_len = 50;
	CALL(L("vmsplice to pipe 2 + 50 from edge-3"), syscall(SYS_vmsplice, p[1], iov, 2, 0));
	drain(p[0], 0);
	memcpy(e - 8, iov, 8);
	CALL(L("vmsplice iovec array at edge-8"), syscall(SYS_vmsplice, p[1], e - 8, 1, 0));
	drain(p[0], 0);

	/* vmsplice out of the pipe: whole buffers count, the rest stays */
	write(p[1], "abcdefghijklmnopqrst", 20);
	memset(e - 10, '.', 10);
	iov[0].iov_base = e - 10;
	iov[0].iov_len = 100;
	CALL(L("vmsplice from pipe 100 to edge-10"), syscall(SYS_vmsplice, p[0], iov, 1, 0));
	show("got", e - 10, 10);
	drain(p[0], 0);
	{
		static char page[PG];
		memset(page, 'p', PG);
		write(p[1], page, PG);
		write(p[1], "yyyyyyyyyyzzzzzzzzzz", 20);
		memset(e - 10, '.', 10);
		iov[0].iov_base = e - PG - 10;
		iov[0].iov_len = 5000;
		CALL(L("vmsplice from pipe 5000 to edge-4106, two buffers"),
		     syscall(SYS_vmsplice, p[0], iov, 1, 0));
		show("got", e - 10, 10);
		drain(p[0], 0);
	}
	write(p[1], "abcdefghijklmnopqrst", 20);
	iov[0].iov_base = small;
	iov[0].iov_len = 4;
	iov[1].iov_base = e - 6;
	iov[1].iov_len = 50;
	CALL(L("vmsplice from pipe 4 + 50 to edge-6"), syscall(SYS_vmsplice, p[0], iov, 2, 0));
	drain(p[0], 0);

	/* tee copies the buffers; a faulting vmsplice of the copy leaves both */
	write(p[1], "teedata", 7);
	CALL(L("tee 100"), syscall(SYS_tee, p[0], q[1], 100, SPLICE_F_NONBLOCK));
	iov[0].iov_base = e - 3;
	iov[0].iov_len = 7;
	CALL(L("vmsplice from tee'd pipe 7 to edge-3"), syscall(SYS_vmsplice, q[0], iov, 1, 0));
	drain(q[0], 0);
	drain(p[0], 0);

	/* splice with an offset pointer that straddles */
	/* the source beside the destination: copy_file_range between file
	 * systems is EXDEV or not depending on the host's */
	snprintf(spath, sizeof spath, "%s.src", tpath);
	in = open(spath, O_RDWR | O_CREAT | O_TRUNC, 0600);
	write(in, "Hello, world!\n", 14);
	lseek(in, 0, SEEK_SET);
	out = open(tpath, O_RDWR | O_CREAT | O_TRUNC, 0600);
	off = (long long *)(e - 4);
	memset(e - 4, 0, 4);
	CALL(L("splice file to pipe, off_in at edge-4"),
	     syscall(SYS_splice, in, off, p[1], NULL, 5, 0));
	drain(p[0], 0);
	off = (long long *)(e - 8);
	*off = 7;
	CALL(L("splice file to pipe, off_in at edge-8"),
	     syscall(SYS_splice, in, off, p[1], NULL, 5, 0));
	printf("  off %lld pos %ld\n", *off, (long)lseek(in, 0, SEEK_CUR));
	drain(p[0], 0);
	if (kind == 2) {
		/* read-only: the offset is read, the data moves, its write faults */
		off = (long long *)e;
		CALL(L("splice file to pipe, off_in in the read-only page"),
		     syscall(SYS_splice, in, off, p[1], NULL, 5, 0));
		printf("  off %lld pos %ld\n", *off, (long)lseek(in, 0, SEEK_CUR));
		drain(p[0], 0);
		write(p[1], "spliced", 7);
		CALL(L("splice pipe to file, off_out in the read-only page"),
		     syscall(SYS_splice, p[0], NULL, out, off, 100, 0));
		printf("  pos %ld\n", (long)lseek(out, 0, SEEK_CUR));
		show_file("file", out);
		drain(p[0], 0);
	}
	write(p[1], "spliced", 7);
	off = (long long *)(e - 4);
	CALL(L("splice pipe to file, off_out at edge-4"),
	     syscall(SYS_splice, p[0], NULL, out, off, 100, 0));
	drain(p[0], 0);
	CALL(L("splice pipe to file, both offsets at edge-4"),
	     syscall(SYS_splice, p[0], off, out, off, 100, 0));
	show_file("file", out);

	/* sendfile: the offset is written back whatever happened */
	lseek(in, 0, SEEK_SET);
	off = (long long *)(e - 4);
	show("off", e - 4, 4);
	CALL(L("sendfile, offset at edge-4"), syscall(SYS_sendfile, out, in, off, 5));
	show("off", e - 4, 4); /* put_user: a store that faults writes nothing */
	CALL(L("sendfile, offset at edge-4, bad out fd"), syscall(SYS_sendfile, 999, in, off, 5));
	off = (long long *)(e - 8);
	*off = 3;
	CALL(L("sendfile, offset at edge-8"), syscall(SYS_sendfile, out, in, off, 5));
	printf("  off %lld pos %ld\n", *off, (long)lseek(in, 0, SEEK_CUR));
	if (kind == 2) {
		off = (long long *)e;
		CALL(L("sendfile, offset in the read-only page"),
		     syscall(SYS_sendfile, out, in, off, 5));
		printf("  off %lld pos %ld\n", *off, (long)lseek(in, 0, SEEK_CUR));
		CALL(L("sendfile, offset in the read-only page, bad out fd"),
		     syscall(SYS_sendfile, 999, in, off, 5));
		CALL(L("sendfile, offset in the read-only page, to a pipe"),
		     syscall(SYS_sendfile, p[1], in, off, 5));
		drain(p[0], 0);
	}
	show_file("file", out);
	printf("  out pos %ld\n", (long)lseek(out, 0, SEEK_CUR));

	/* copy_file_range: fds first, then the offsets; positions written
	 * back after the copy */
	off = (long long *)(e - 4);
	CALL(L("copy_file_range, off_in at edge-4"),
	     syscall(SYS_copy_file_range, in, off, out, NULL, 5, 0));
	CALL(L("copy_file_range, off_out at edge-4"),
	     syscall(SYS_copy_file_range, in, NULL, out, off, 5, 0));
	CALL(L("copy_file_range, off_in at edge-4, bad fd"),
	     syscall(SYS_copy_file_range, 999, off, out, NULL, 5, 0));
	CALL(L("copy_file_range, off_in at edge-4, bad flags"),
	     syscall(SYS_copy_file_range, in, off, out, NULL, 5, 1));
	if (kind == 2) {
		off = (long long *)e;
		lseek(in, 0, SEEK_SET);
		CALL(L("copy_file_range, off_in in the read-only page"),
		     syscall(SYS_copy_file_range, in, off, out, NULL, 5, 0));
		printf("  off %lld in pos %ld out pos %ld\n", *off, (long)lseek(in, 0, SEEK_CUR),
		       (long)lseek(out, 0, SEEK_CUR));
		CALL(L("copy_file_range, off_out in the read-only page"),
		     syscall(SYS_copy_file_range, in, NULL, out, off, 5, 0));
		printf("  off %lld in pos %ld out pos %ld\n", *off, (long)lseek(in, 0, SEEK_CUR),
		       (long)lseek(out, 0, SEEK_CUR));
		CALL(L("copy_file_range, both in the read-only page"),
		     syscall(SYS_copy_file_range, in, off, out, off, 5, 0));
		printf("  in pos %ld out pos %ld\n", (long)lseek(in, 0, SEEK_CUR),
		       (long)lseek(out, 0, SEEK_CUR));
		show_file("file", out);
	}
	/* nothing to move: splice and tee return 0 before they look at the
	 * offsets, copy_file_range reads them, sendfile reads and writes back */
	off = (long long *)(e - 4);
	CALL(L("splice len 0, off_in at edge-4"), syscall(SYS_splice, in, off, p[1], NULL, 0, 0));
	CALL(L("tee len 0"), syscall(SYS_tee, p[0], q[1], 0, 0));
	CALL(L("copy_file_range len 0, off_in at edge-4"),
	     syscall(SYS_copy_file_range, in, off, out, NULL, 0, 0));
	CALL(L("sendfile count 0, offset at edge-4"), syscall(SYS_sendfile, out, in, off, 0));
	iov[0].iov_base = e;
	iov[0].iov_len = 0;
	CALL(L("vmsplice 0 bytes at the edge, to an empty pipe"),
	     syscall(SYS_vmsplice, p[1], iov, 1, 0));
	CALL(L("vmsplice 0 bytes at the edge, from an empty pipe"),
	     syscall(SYS_vmsplice, p[0], iov, 1, 0));
	if (kind == 2) {
		off = (long long *)e;
		CALL(L("copy_file_range len 0, off_in in the read-only page"),
		     syscall(SYS_copy_file_range, in, off, out, NULL, 0, 0));
		CALL(L("sendfile count 0, offset in the read-only page"),
		     syscall(SYS_sendfile, out, in, off, 0));
		CALL(L("splice len 0, off_in in the read-only page"),
		     syscall(SYS_splice, in, off, p[1], NULL, 0, 0));
	}
	for (i = 0; i < 2; i++) {
		close(p[i]);
		close(q[i]);
	}
	close(in);
	close(out);
	unlink(tpath);
	unlink(spath);
	edge_unmap(e);
#undef L
}

int main(void)
{
	char tpath[64], spath[64];
	int kind;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# partial_fault2\n");
	devnull = open("/dev/null", O_RDWR);
	snprintf(tpath, sizeof tpath, "/tmp/partial_fault2.%d", getpid());
	snprintf(spath, sizeof spath, "/dev/shm/partial_fault2.%d", getpid());
	for (kind = 0; kind < 3; kind++) {
		scm(kind, SOCK_STREAM);
		scm(kind, SOCK_DGRAM);
		names(kind);
		mmsg(kind, SOCK_DGRAM);
		mmsg(kind, SOCK_STREAM);
		peek(kind);
		splices(kind, "tmp", tpath);
		splices(kind, "shm", spath);
	}
	printf("ok - done\n");
	return 0;
}
