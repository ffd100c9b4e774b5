/* skas-test: netns: lo */
/* NETLINK_SOCK_DIAG (what `ss` asks), natively in a network namespace of
 * lo only: TCP listeners, connections (one accepted with unread data, one
 * still in the accept queue), a socket bound only, UDP and UDP6 sockets,
 * AF_UNIX listeners, connections, a socketpair and an abstract datagram
 * socket, found by dumps (states masks, the id's ports, filter bytecode)
 * and by exact lookups, with the attributes idiag_ext and udiag_show ask
 * for; bad bytecode and bad requests with Linux's errors; the counts of
 * /proc/net/sockstat, sockstat6 and snmp. What Linux leaves to chance is
 * not printed: inodes and cookies are compared with fstat and SO_COOKIE,
 * ports with the sockets' own, rows are sorted; timers, the host's
 * congestion control (its CONG and VEGAS/BBR/DCTCP info), buffer sizes
 * in flight and the cgroup id are left out. */
#include "inet_util.h"
#include "netlink_util.h"

#include <stdint.h>
#include <stdlib.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>

#define NETLINK_SOCK_DIAG   4
#define SOCK_DIAG_BY_FAMILY 20
#define SOCK_DESTROY	    21
#define TCPDIAG_GETSOCK	    18
#define DCCPDIAG_GETSOCK    19
#define SO_COOKIE_	    57
#define NOCOOKIE	    0xffffffffU
#define ALL_STATES	    0xfff

enum { EST = 1, SYN_SENT, SYN_RECV, FIN1, FIN2, TW, CLOSE, CLOSE_WAIT, LAST_ACK, LISTEN };

struct sockid {
	uint16_t sport, dport;
	uint32_t src[4], dst[4];
	uint32_t ifindex;
	uint32_t cookie[2];
};

struct req_v2 {
	uint8_t family, protocol, ext, pad;
	uint32_t states;
	struct sockid id;
};

struct req_v1 {
	uint8_t family, src_len, dst_len, ext;
	struct sockid id;
	uint32_t states, dbs;
};

struct diag_msg {
	uint8_t family, state, timer, retrans;
	struct sockid id;
	uint32_t expires, rqueue, wqueue, uid, inode;
};

struct unix_req {
	uint8_t family, protocol;
	uint16_t pad;
	uint32_t states, ino, show, cookie[2];
};

struct unix_msg {
	uint8_t family, type, state, pad;
	uint32_t ino, cookie[2];
};

struct bc_op {
	uint8_t code, yes;
	uint16_t no;
};

/* the sockets of this test, by inode */
#define MAXS 24
static struct {
	unsigned long ino;
	const char *name;
	int fd;
} socks[MAXS];
static int nsocks;
static uint16_t lport, lport6, uport, bport; /* host order */

static unsigned long ino_of(int fd)
{
	struct stat st;

	fstat(fd, &st);
	return st.st_ino;
}

static void track(int fd, const char *name)
{
	socks[nsocks].ino = ino_of(fd);
	socks[nsocks].name = name;
	socks[nsocks].fd = fd;
	nsocks++;
}

static int by_ino(unsigned long ino)
{
	for (int i = 0; i < nsocks; i++)
		if (socks[i].ino == ino)
			return i;
	return -1;
}

static const char *port_name(uint16_t p)
{
	static char buf[4][16];
	static int k;

	k = (k + 1) % 4;
	if (p == 0)
		return "0";
	if (p == lport)
		return "L";
	if (p == lport6)
		return "L6";
	if (p == uport)
		return "U";
	if (p == bport)
		return "B";
	snprintf(buf[k], sizeof(buf[k]), "eph");
	return buf[k];
}

static uint64_t cookie_of(int fd)
{
	uint64_t c = 0;
	socklen_t len = sizeof(c);

	getsockopt(fd, SOL_SOCKET, SO_COOKIE_, &c, &len);
	return c;
}

static int nl_open(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_SOCK_DIAG);

	if (fd < 0)
		printf("socket(NETLINK_SOCK_DIAG): %s\n", ename(errno));
	return fd;
}

/* Sends one request: header, fixed part and attributes (raw bytes). */
static void nl_send(int fd, uint16_t type, uint16_t flags, const void *body, size_t len)
{
	static uint32_t seq = 100;
	char buf[1024];
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };

	memset(buf, 0, sizeof(buf));
	h->nlmsg_len = NLMSG_LENGTH(len);
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = ++seq;
	memcpy(NLMSG_DATA(h), body, len);
	sendto(fd, buf, h->nlmsg_len, 0, (struct sockaddr *)&to, sizeof(to));
}

/* A request with an attribute after the fixed part. */
static size_t with_attr(void *out, const void *fixed, size_t flen, uint16_t type, const void *data,
			size_t dlen)
{
	struct rtattr *a = (struct rtattr *)((char *)out + NLMSG_ALIGN(flen));

	memcpy(out, fixed, flen);
	a->rta_len = RTA_LENGTH(dlen);
	a->rta_type = type;
	memcpy(RTA_DATA(a), data, dlen);
	return NLMSG_ALIGN(flen) + RTA_ALIGN(a->rta_len);
}

/* The replies of one request: every message to fn, until NLMSG_DONE or
 * NLMSG_ERROR (or a reply that is neither, when not a dump). Returns the
 * error (0 for a DONE or ACK) or 1 when a non-dump reply came alone. */
static int nl_recv(int fd, void (*fn)(struct nlmsghdr *, void *), void *arg, int *nmsgs)
{
	static char buf[65536];

	*nmsgs = 0;
	for (;;) {
		int len = (int)recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		struct nlmsghdr *h;

		if (len < 0)
			return 1; /* nothing more: a lookup's reply without ACK */
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_type == NLMSG_DONE)
				return *(int *)NLMSG_DATA(h);
			if (h->nlmsg_type == NLMSG_ERROR)
				return *(int *)NLMSG_DATA(h);
			(*nmsgs)++;
			if (fn)
				fn(h, arg);
		}
	}
}

static const char *err_name(int err)
{
	if (err == -ENOENT)
		return "ENOENT";
	if (err == -ESTALE)
		return "ESTALE";
	return err == 1 ? "reply" : err > 0 ? "?" : ename(-err);
}

static char rows[64][512];
static int nrows;

static int cmp(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

static void flush_rows(void)
{
	qsort(rows, nrows, sizeof(rows[0]), cmp);
	for (int i = 0; i < nrows; i++)
		printf("  %s\n", rows[i]);
	nrows = 0;
}

static void addr_str(char *out, size_t cap, int family, const uint32_t *a)
{
	inet_ntop(family, a, out, cap);
}

/* One inet_diag_msg: its fields and attributes as far as they do not
 * depend on chance. */
static void inet_row(struct nlmsghdr *h, void *arg)
{
	struct diag_msg *m = NLMSG_DATA(h);
	struct rtattr *a;
	int alen = (int)h->nlmsg_len - NLMSG_LENGTH(sizeof(*m)), i = by_ino(m->inode), n;
	char src[64], dst[64], *p;
	uint64_t cookie;

	(void)arg;
	if (i < 0 && m->inode)
		return; /* not ours */
	if (nrows == 64)
		return;
	addr_str(src, sizeof(src), m->family, m->id.src);
	addr_str(dst, sizeof(dst), m->family, m->id.dst);
	cookie = (uint64_t)m->id.cookie[1] << 32 | m->id.cookie[0];
	p = rows[nrows];
	n = snprintf(p, 512, "%s fam %d st %d %s:%s -> %s:%s rq %u wq %u uid %u if %u cookie %s",
		     i < 0 ? "(no file)" : socks[i].name, m->family, m->state, src,
		     port_name(ntohs(m->id.sport)), dst, port_name(ntohs(m->id.dport)), m->rqueue,
		     m->wqueue, m->uid, m->id.ifindex,
		     i < 0				? "-"
		     : cookie == cookie_of(socks[i].fd) ? "=SO_COOKIE"
							: "differs");
	n += snprintf(p + n, 512 - n, " h.type %d flags %#x attrs:", h->nlmsg_type, h->nlmsg_flags);
	for (a = (struct rtattr *)((char *)m + NLMSG_ALIGN(sizeof(*m))); RTA_OK(a, alen) && n < 480;
	     a = RTA_NEXT(a, alen)) {
		unsigned char *d = RTA_DATA(a);
		int t = a->rta_type;

		/* the host's congestion control's own, its name, the cgroup */
		if (t == 3 || t == 4 || t == 9 || t == 16 || t == 21)
			continue;
		n += snprintf(p + n, 512 - n, " %d/%d", t, RTA_PAYLOAD(a));
		if (t == 5 || t == 6 || t == 8 || t == 11) /* TOS TCLASS SHUTDOWN V6ONLY */
			n += snprintf(p + n, 512 - n, "=%u", d[0]);
		if (t == 15 || t == 17) /* MARK CLASS_ID */
			n += snprintf(p + n, 512 - n, "=%u", *(uint32_t *)d);
		if (t == 22) /* SOCKOPT */
			n += snprintf(p + n, 512 - n, "=%02x%02x", d[0], d[1]);
		if (t == 2) /* INFO: the state and the listener's queue */
			n += snprintf(p + n, 512 - n, "(state %u%s)", d[0], "");
		if (t == 7 && i >= 0) { /* SKMEMINFO: the buffers' sizes */
			int rcv = 0, snd = 0;
			socklen_t l = sizeof(rcv);

			getsockopt(socks[i].fd, SOL_SOCKET, SO_RCVBUF, &rcv, &l);
			getsockopt(socks[i].fd, SOL_SOCKET, SO_SNDBUF, &snd, &l);
			n += snprintf(p + n, 512 - n, "(bufs %s)",
				      ((uint32_t *)d)[1] == (uint32_t)rcv &&
						      ((uint32_t *)d)[3] == (uint32_t)snd
					      ? "=SO_RCVBUF,SO_SNDBUF"
					      : "differ");
		}
	}
	nrows++;
}

static void inet_query(int fd, const char *what, uint16_t type, uint16_t flags, const void *body,
		       size_t len)
{
	int err, nmsgs;

	nl_send(fd, type, flags, body, len);
	err = nl_recv(fd, inet_row, NULL, &nmsgs);
	printf("%s: %s\n", what, err_name(err));
	flush_rows();
}

static struct req_v2 inet_req(int family, int proto, uint32_t states, int ext)
{
	struct req_v2 r;

	memset(&r, 0, sizeof(r));
	r.family = (uint8_t)family;
	r.protocol = (uint8_t)proto;
	r.states = states;
	r.ext = (uint8_t)ext;
	return r;
}

static void dump(int fd, const char *what, struct req_v2 r)
{
	inet_query(fd, what, SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, &r, sizeof(r));
}

/* A dump filtered by bytecode of len bytes. */
static void dump_bc(int fd, const char *what, struct req_v2 r, const void *bc, size_t len)
{
	char body[512];
	size_t n = with_attr(body, &r, sizeof(r), 1, bc, len);

	inet_query(fd, what, SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, body, n);
}

static void error_of(int fd, const char *what, uint16_t type, uint16_t flags, const void *body,
		     size_t len)
{
	int nmsgs, err;

	nl_send(fd, type, flags, body, len);
	err = nl_recv(fd, NULL, NULL, &nmsgs);
	printf("%s: %s (%d messages)\n", what, err_name(err), nmsgs);
}

static void inet_tests(int fd)
{
	struct req_v2 r = inet_req(AF_INET, IPPROTO_TCP, ALL_STATES, 0);
	struct req_v2 l;
	char body[512];
	size_t n;
	uint32_t proto;

	dump(fd, "TCP dump, all states", r);
	dump(fd, "TCP dump, all ext", inet_req(AF_INET, IPPROTO_TCP, ALL_STATES, 0xff));
	dump(fd, "TCP dump, LISTEN", inet_req(AF_INET, IPPROTO_TCP, 1 << LISTEN, 0));
	dump(fd, "TCP dump, ESTABLISHED", inet_req(AF_INET, IPPROTO_TCP, 1 << EST, 0));
	dump(fd, "TCP dump, bound inactive", inet_req(AF_INET, IPPROTO_TCP, 1 << 13, 0));
	dump(fd, "TCP dump, CLOSE", inet_req(AF_INET, IPPROTO_TCP, 1 << CLOSE, 0));
	dump(fd, "TCP6 dump, all ext", inet_req(AF_INET6, IPPROTO_TCP, ALL_STATES, 0xff));
	dump(fd, "UDP dump", inet_req(AF_INET, IPPROTO_UDP, ALL_STATES, 0xff));
	dump(fd, "UDP6 dump", inet_req(AF_INET6, IPPROTO_UDP, ALL_STATES, 0xff));
	dump(fd, "UDP dump, ESTABLISHED", inet_req(AF_INET6, IPPROTO_UDP, 1 << EST, 0));
	r.id.sport = htons(lport);
	dump(fd, "TCP dump, id sport L", r);
	r.id.sport = 0;
	r.id.dport = htons(lport);
	dump(fd, "TCP dump, id dport L", r);
	dump(fd, "UDP-Lite dump", inet_req(AF_INET, 136, ALL_STATES, 0));
	dump(fd, "RAW dump", inet_req(AF_INET, IPPROTO_RAW, ALL_STATES, 0));
	dump(fd, "SCTP dump", inet_req(AF_INET, 132, ALL_STATES, 0));
	r = inet_req(AF_INET, IPPROTO_RAW, ALL_STATES, 0);
	proto = IPPROTO_TCP;
	n = with_attr(body, &r, sizeof(r), 3, &proto, sizeof(proto));
	inet_query(fd, "INET_DIAG_REQ_PROTOCOL TCP over RAW", SOCK_DIAG_BY_FAMILY,
		   NLM_F_REQUEST | NLM_F_DUMP, body, n);
	n = with_attr(body, &r, sizeof(r), 3, &proto, 2);
	error_of(fd, "INET_DIAG_REQ_PROTOCOL of 2 bytes", SOCK_DIAG_BY_FAMILY,
		 NLM_F_REQUEST | NLM_F_DUMP, body, n);

	/* bytecode as ss makes it */
	{
		struct bc_op sport_eq[2] = { { 11, 8, 12 }, { 0, 0, 0 } };
		struct {
			struct bc_op op;
			uint8_t family, prefix_len;
			uint16_t pad;
			int32_t port;
			uint32_t addr;
		} __attribute__((packed)) dst = { { 8, 16, 20 }, AF_INET, 32, 0, -1, 0 };
		struct bc_op sge[4] = { { 2, 8, 20 }, { 0, 0, 0 }, { 3, 8, 12 }, { 0, 0, 0 } };
		struct bc_op aut[1] = { { 6, 4, 8 } };
		struct bc_op bad[2] = { { 99, 8, 12 }, { 0, 0, 0 } };
		struct bc_op odd[2] = { { 11, 6, 12 }, { 0, 0, 0 } };
		struct bc_op far[2] = { { 11, 8, 24 }, { 0, 0, 0 } };
		struct bc_op shortop[1] = { { 11, 4, 8 } };
		struct bc_op nop[1] = { { 0, 4, 0 } };
		struct bc_op jmp[2] = { { 1, 4, 8 }, { 0, 4, 0 } };
		struct {
			struct bc_op op;
			uint8_t family, prefix_len;
			uint16_t pad;
			int32_t port;
		} __attribute__((packed)) badfam = { { 7, 12, 16 }, 99, 0, 0, -1 };
		struct {
			struct bc_op op;
			uint8_t family, prefix_len;
			uint16_t pad;
			int32_t port;
			uint32_t addr;
		} __attribute__((packed)) badlen = { { 7, 16, 20 }, AF_INET, 33, 0, -1, 0 };
		struct {
			struct bc_op op;
			uint32_t mark, mask;
		} mark = { { 10, 12, 16 }, 0, 0 };

		r = inet_req(AF_INET, IPPROTO_TCP, ALL_STATES, 0);
		sport_eq[1].no = lport;
		dump_bc(fd, "bytecode sport = :L", r, sport_eq, sizeof(sport_eq));
		dst.addr = htonl(INADDR_LOOPBACK);
		dump_bc(fd, "bytecode dst 127.0.0.1", r, &dst, sizeof(dst));
		dst.addr = htonl(0x7f000002);
		dump_bc(fd, "bytecode dst 127.0.0.2", r, &dst, sizeof(dst));
		dst.prefix_len = 8;
		dump_bc(fd, "bytecode dst 127.0.0.2/8", r, &dst, sizeof(dst));
		dst.op.code = 7;
		dst.port = lport;
		dst.prefix_len = 0;
		dump_bc(fd, "bytecode src *:L", r, &dst, sizeof(dst));
		sge[1].no = lport;
		sge[3].no = lport;
		dump_bc(fd, "bytecode sport >= L and <= L", r, sge, sizeof(sge));
		dump_bc(fd, "bytecode autobound", r, aut, sizeof(aut));
		dump_bc(fd, "bytecode nop", r, nop, sizeof(nop));
		dump_bc(fd, "bytecode jmp", r, jmp, sizeof(jmp));
		dump_bc(fd, "bytecode mark 0/0 (root)", r, &mark, sizeof(mark));
		r = inet_req(AF_INET6, IPPROTO_TCP, ALL_STATES, 0);
		dst.op.code = 7;
		dst.addr = htonl(INADDR_LOOPBACK);
		dst.port = -1;
		dst.prefix_len = 32;
		dump_bc(fd, "TCP6 bytecode src 127.0.0.1 (v4-mapped)", r, &dst, sizeof(dst));
		r = inet_req(AF_INET, IPPROTO_TCP, ALL_STATES, 0);
		dump_bc(fd, "bytecode unknown op", r, bad, sizeof(bad));
		dump_bc(fd, "bytecode yes not a multiple of 4", r, odd, sizeof(odd));
		dump_bc(fd, "bytecode no past the end", r, far, sizeof(far));
		dump_bc(fd, "bytecode op without its port", r, shortop, sizeof(shortop));
		dump_bc(fd, "bytecode hostcond of family 99", r, &badfam, sizeof(badfam));
		dump_bc(fd, "bytecode prefix 33 of IPv4", r, &badlen, sizeof(badlen));
		dump_bc(fd, "bytecode of 2 bytes", r, nop, 2);
		dump_bc(fd, "bytecode empty", r, nop, 0);
	}

	/* exact lookups */
	l = inet_req(AF_INET, IPPROTO_TCP, 0, 0);
	l.id.src[0] = htonl(INADDR_LOOPBACK);
	l.id.sport = htons(lport);
	l.id.cookie[0] = l.id.cookie[1] = NOCOOKIE;
	inet_query(fd, "lookup listener", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &l, sizeof(l));
	inet_query(fd, "lookup listener, ACK", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_ACK, &l,
		   sizeof(l));
	{
		uint64_t c = cookie_of(socks[0].fd);

		l.id.cookie[0] = (uint32_t)c;
		l.id.cookie[1] = (uint32_t)(c >> 32);
		inet_query(fd, "lookup listener by its cookie", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST,
			   &l, sizeof(l));
		l.id.cookie[0] = (uint32_t)c + 1000;
		inet_query(fd, "lookup listener, another cookie", SOCK_DIAG_BY_FAMILY,
			   NLM_F_REQUEST, &l, sizeof(l));
		l.id.cookie[0] = l.id.cookie[1] = 0;
		inet_query(fd, "lookup listener, cookie 0", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &l,
			   sizeof(l));
		l.id.cookie[0] = l.id.cookie[1] = NOCOOKIE;
	}
	l.id.src[0] = 0;
	inet_query(fd, "lookup listener from 0.0.0.0", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &l,
		   sizeof(l));
	l.id.sport = htons(bport);
	l.id.src[0] = htonl(INADDR_LOOPBACK);
	inet_query(fd, "lookup bound socket", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &l, sizeof(l));
	l.ext = 0xff;
	l.id.sport = htons(lport);
	inet_query(fd, "lookup listener, all ext", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &l,
		   sizeof(l));
	{
		struct sockaddr_in a;
		socklen_t alen = sizeof(a);

		getsockname(socks[1].fd, (struct sockaddr *)&a, &alen); /* the client */
		l = inet_req(AF_INET, IPPROTO_TCP, 0, 0);
		l.id.cookie[0] = l.id.cookie[1] = NOCOOKIE;
		l.id.src[0] = htonl(INADDR_LOOPBACK);
		l.id.dst[0] = htonl(INADDR_LOOPBACK);
		l.id.sport = htons(lport);
		l.id.dport = a.sin_port;
		inet_query(fd, "lookup accepted connection", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &l,
			   sizeof(l));
		l.id.sport = a.sin_port;
		l.id.dport = htons(lport);
		inet_query(fd, "lookup client connection", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &l,
			   sizeof(l));
		l.id.dport = htons(lport + 1);
		inet_query(fd, "lookup a connection that is not", SOCK_DIAG_BY_FAMILY,
			   NLM_F_REQUEST, &l, sizeof(l));
		error_of(fd, "SOCK_DESTROY of no socket", SOCK_DESTROY, NLM_F_REQUEST, &l,
			 sizeof(l));
		l.family = AF_INET6;
		memset(l.id.src, 0, 16);
		memset(l.id.dst, 0, 16);
		l.id.src[2] = l.id.dst[2] = htonl(0xffff);
		l.id.src[3] = l.id.dst[3] = htonl(INADDR_LOOPBACK);
		l.id.sport = htons(lport);
		l.id.dport = a.sin_port;
		inet_query(fd, "lookup accepted connection by v4-mapped id", SOCK_DIAG_BY_FAMILY,
			   NLM_F_REQUEST, &l, sizeof(l));
	}
	l = inet_req(AF_INET6, IPPROTO_TCP, 0, 0);
	l.id.cookie[0] = l.id.cookie[1] = NOCOOKIE;
	l.id.src[3] = htonl(1);
	l.id.sport = htons(lport6);
	inet_query(fd, "lookup TCP6 listener", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &l, sizeof(l));
	/* UDP's lookup takes the id's destination as the local end */
	l = inet_req(AF_INET, IPPROTO_UDP, 0, 0);
	l.id.cookie[0] = l.id.cookie[1] = NOCOOKIE;
	l.id.dst[0] = htonl(INADDR_LOOPBACK);
	l.id.dport = htons(uport);
	inet_query(fd, "lookup UDP by destination", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &l,
		   sizeof(l));
	l.id.src[0] = htonl(INADDR_LOOPBACK);
	l.id.sport = htons(uport);
	l.id.dst[0] = 0;
	l.id.dport = 0;
	inet_query(fd, "lookup UDP by source", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &l, sizeof(l));
	l = inet_req(AF_INET, IPPROTO_RAW, 0, 0);
	inet_query(fd, "lookup RAW", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &l, sizeof(l));
	l = inet_req(AF_INET, 136, 0, 0);
	l.id.cookie[0] = l.id.cookie[1] = NOCOOKIE;
	inet_query(fd, "lookup UDP-Lite", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &l, sizeof(l));

	/* TCPDIAG_GETSOCK: both families */
	{
		struct req_v1 v1;

		memset(&v1, 0, sizeof(v1));
		v1.family = AF_INET;
		v1.states = 1 << LISTEN;
		inet_query(fd, "TCPDIAG_GETSOCK dump of listeners", TCPDIAG_GETSOCK,
			   NLM_F_REQUEST | NLM_F_DUMP, &v1, sizeof(v1));
		v1.id.src[0] = htonl(INADDR_LOOPBACK);
		v1.id.sport = htons(lport);
		v1.id.cookie[0] = v1.id.cookie[1] = NOCOOKIE;
		inet_query(fd, "TCPDIAG_GETSOCK lookup", TCPDIAG_GETSOCK, NLM_F_REQUEST, &v1,
			   sizeof(v1));
		error_of(fd, "TCPDIAG_GETSOCK short", TCPDIAG_GETSOCK, NLM_F_REQUEST | NLM_F_DUMP,
			 &v1, sizeof(v1) - 4);
		error_of(fd, "DCCPDIAG_GETSOCK", DCCPDIAG_GETSOCK, NLM_F_REQUEST | NLM_F_DUMP, &v1,
			 sizeof(v1));
		v1.family = 99;
		error_of(fd, "TCPDIAG_GETSOCK lookup of family 99", TCPDIAG_GETSOCK, NLM_F_REQUEST,
			 &v1, sizeof(v1));
	}
}

/* --- AF_UNIX --- */

static char dir[] = "/tmp/sockdiag.XXXXXX";

static void unix_row(struct nlmsghdr *h, void *arg)
{
	struct unix_msg *m = NLMSG_DATA(h);
	int alen = (int)h->nlmsg_len - NLMSG_LENGTH(sizeof(*m)), i = by_ino(m->ino), n;
	struct rtattr *a;
	char *p;

	(void)arg;
	if (i < 0 || nrows == 64)
		return;
	p = rows[nrows];
	n = snprintf(p, 512, "%s type %d st %d cookie %s flags %#x:", socks[i].name, m->type,
		     m->state,
		     ((uint64_t)m->cookie[1] << 32 | m->cookie[0]) == cookie_of(socks[i].fd)
			     ? "=SO_COOKIE"
			     : "differs",
		     h->nlmsg_flags);
	for (a = (struct rtattr *)((char *)m + NLMSG_ALIGN(sizeof(*m))); RTA_OK(a, alen) && n < 460;
	     a = RTA_NEXT(a, alen)) {
		uint32_t *w = RTA_DATA(a);
		char *d = RTA_DATA(a);

		n += snprintf(p + n, 512 - n, " %d/%d", a->rta_type, RTA_PAYLOAD(a));
		switch (a->rta_type) {
		case 0: /* NAME */
			if (d[0] == 0)
				n += snprintf(p + n, 512 - n, "=@%.*s", RTA_PAYLOAD(a) - 1, d + 1);
			else if (!strncmp(d, dir, strlen(dir)))
				n += snprintf(p + n, 512 - n, "=DIR%s", d + strlen(dir));
			break;
		case 1: { /* VFS: the bound file's inode and device */
			struct stat st;
			char path[128];

			snprintf(path, sizeof(path), "%s/sock", dir);
			stat(path, &st);
			/* the inode number is Linux's u32 */
			n += snprintf(
				p + n, 512 - n, "=%s",
				w[0] == (uint32_t)st.st_ino &&
						w[1] == (major(st.st_dev) << 20 | minor(st.st_dev))
					? "stat"
					: "differs");
			break;
		}
		case 2: /* PEER */
		case 3: /* ICONS */
			for (int k = 0; k < RTA_PAYLOAD(a) / 4; k++) {
				int j = by_ino(w[k]);

				n += snprintf(p + n, 512 - n, "%s%s", k ? "," : "=",
					      j < 0 ? (w[k] ? "?" : "0") : socks[j].name);
			}
			break;
		case 4: /* RQLEN: the listener's queue and backlog; else what is unread */
			n += snprintf(p + n, 512 - n, "=%u", w[0]);
			if (m->state == LISTEN)
				n += snprintf(p + n, 512 - n, ",%u", w[1]);
			break;
		case 6: /* SHUTDOWN */
			n += snprintf(p + n, 512 - n, "=%u", (unsigned char)d[0]);
			break;
		case 7: /* UID */
			n += snprintf(p + n, 512 - n, "=%u", w[0]);
			break;
		}
	}
	nrows++;
}

static void unix_query(int fd, const char *what, uint16_t type, uint16_t flags,
		       const struct unix_req *r, size_t len)
{
	int err, nmsgs;

	nl_send(fd, type, flags, r, len);
	err = nl_recv(fd, unix_row, NULL, &nmsgs);
	printf("%s: %s\n", what, err_name(err));
	flush_rows();
}

static void unix_tests(int fd)
{
	struct unix_req r;
	uint64_t c;
	int i;

	memset(&r, 0, sizeof(r));
	r.family = AF_UNIX;
	r.states = ALL_STATES;
	r.show = 0x7f;
	unix_query(fd, "unix dump, everything", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, &r,
		   sizeof(r));
	r.show = 0;
	unix_query(fd, "unix dump, nothing shown", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP,
		   &r, sizeof(r));
	r.states = 1 << LISTEN;
	r.show = 0x18;
	unix_query(fd, "unix dump, LISTEN", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, &r,
		   sizeof(r));
	r.states = 1 << EST;
	r.show = 0x04;
	unix_query(fd, "unix dump, ESTABLISHED", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP,
		   &r, sizeof(r));
	i = by_ino(ino_of(socks[nsocks - 1].fd));
	r.states = 0;
	r.show = 0x7f;
	r.ino = (uint32_t)socks[i].ino;
	r.cookie[0] = r.cookie[1] = NOCOOKIE;
	unix_query(fd, "unix lookup", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &r, sizeof(r));
	c = cookie_of(socks[i].fd);
	r.cookie[0] = (uint32_t)c;
	r.cookie[1] = (uint32_t)(c >> 32);
	unix_query(fd, "unix lookup by its cookie", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_ACK,
		   &r, sizeof(r));
	r.cookie[0]++;
	unix_query(fd, "unix lookup, another cookie", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &r,
		   sizeof(r));
	r.ino = 0;
	unix_query(fd, "unix lookup of inode 0", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &r, sizeof(r));
	r.ino = 0xfffffff0;
	unix_query(fd, "unix lookup of no socket", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &r,
		   sizeof(r));
	unix_query(fd, "unix request short", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, &r,
		   sizeof(r) - 4);
	unix_query(fd, "unix SOCK_DESTROY", SOCK_DESTROY, NLM_F_REQUEST, &r, sizeof(r));
	/* Linux's sock_diag finds unix_diag has no destroy before unix_diag
	 * would look at the length */
	unix_query(fd, "unix SOCK_DESTROY short", SOCK_DESTROY, NLM_F_REQUEST, &r, sizeof(r) - 4);
	unix_query(fd, "unix SOCK_DESTROY of 2 bytes", SOCK_DESTROY, NLM_F_REQUEST, &r, 2);
}

static void bad_requests(int fd)
{
	unsigned char b[64] = { 0 };
	struct req_v2 r = inet_req(AF_INET, IPPROTO_TCP, ALL_STATES, 0);

	b[0] = AF_INET;
	error_of(fd, "one byte", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, b, 1);
	error_of(fd, "inet request of 20 bytes", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP,
		 &r, 20);
	error_of(fd, "inet lookup of 20 bytes", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &r, 20);
	b[0] = 46;
	error_of(fd, "family AF_MAX", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, b, 24);
	b[0] = 40;
	error_of(fd, "family AF_VSOCK (no module)", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP,
		 b, 24);
	b[0] = 44;
	error_of(fd, "family AF_XDP (no module)", SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP,
		 b, 24);
	b[0] = 44;
	error_of(fd, "family AF_XDP, ACK", SOCK_DIAG_BY_FAMILY,
		 NLM_F_REQUEST | NLM_F_DUMP | NLM_F_ACK, b, 24);
	error_of(fd, "type 25", 25, NLM_F_REQUEST, &r, sizeof(r));
	error_of(fd, "not a request", SOCK_DIAG_BY_FAMILY, NLM_F_DUMP, &r, sizeof(r));
	error_of(fd, "NLMSG_NOOP with ACK", NLMSG_NOOP, NLM_F_REQUEST | NLM_F_ACK, &r, sizeof(r));
}

/* /proc/net's counts of this test's sockets */
static void counts(void)
{
	char line[512];
	int inuse, orphan, tw;
	FILE *f;

	f = fopen("/proc/net/sockstat", "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *alloc = strstr(line, " alloc");

		if (!strncmp(line, "sockets:", 8))
			continue; /* the namespace's every socket, some RCU-freed later */
		if (alloc)
			strcpy(alloc, "\n"); /* alloc and mem: the host's, natively */
		/* Linux's orphan count is the host's too (one
		 * tcp_orphan_count for every namespace): only that it is
		 * one */
		if (sscanf(line, "TCP: inuse %d orphan %d tw %d", &inuse, &orphan, &tw) == 3)
			snprintf(line, sizeof(line), "TCP: inuse %d orphan %s tw %d\n", inuse,
				 orphan >= 0 ? "N" : "negative", tw);
		if (!strncmp(line, "UDP: ", 5))
			*strstr(line, " mem") = 0, strcat(line, "\n");
		printf("sockstat: %s", line);
	}
	if (f)
		fclose(f);
	f = fopen("/proc/net/sockstat6", "r");
	while (f && fgets(line, sizeof(line), f))
		printf("sockstat6: %s", line);
	if (f)
		fclose(f);
	f = fopen("/proc/net/snmp", "r");
	while (f && fgets(line, sizeof(line), f)) {
		long v[16];

		/* the Tcp line's constants, opens, failures and connections
		 * (segments depend on the timing of acknowledgments) */
		if (sscanf(line, "Tcp: %ld %ld %ld %ld %ld %ld %ld %ld %ld", v, v + 1, v + 2, v + 3,
			   v + 4, v + 5, v + 6, v + 7, v + 8) == 9)
			printf("snmp Tcp: %ld %ld %ld %ld active %ld passive %ld fails %ld resets "
			       "%ld estab %ld\n",
			       v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
		else if (!strncmp(line, "Ip: 2", 5) || !strncmp(line, "Ip: 1", 5))
			printf("snmp Ip: forwarding %c ttl %.2s\n", line[4], line + 6);
		else if (strchr(line, ':') && !strchr(line, '0'))
			printf("snmp %.*s\n", (int)(strchr(line, ' ') - line), line);
	}
	if (f)
		fclose(f);
}

/* Bytecode made at random (a fixed seed), mostly well formed and now and
 * then not: how many programs the audit takes and refuses, and how many
 * sockets the ones it takes let through, natively and here (CGROUP_COND
 * is left out: skas has no cgroup ids). */
static unsigned seed = 12345;

static unsigned rnd(unsigned n)
{
	seed = seed * 1103515245 + 12345;
	return (seed >> 16) % n;
}

static void bytecode_fuzz(int fd)
{
	unsigned counts[4] = { 0 }, rows_total = 0;
	struct req_v2 r = inet_req(AF_INET, IPPROTO_TCP, ALL_STATES, 0);

	for (int i = 0; i < 1500; i++) {
		uint8_t bc[160];
		int len = 0, nops = 1 + (int)rnd(5), starts[8], err, nmsgs;
		char body[256];
		size_t n;

		for (int k = 0; k < nops; k++) {
			int code = (int)rnd(13), size = 4;
			uint8_t *op = bc + len;

			memset(op, 0, 28);
			starts[k] = len;
			op[0] = (uint8_t)code;
			if (code >= 2 && code <= 5) /* S_GE..D_LE */
				size = 8;
			else if (code == 11 || code == 12) /* S_EQ, D_EQ */
				size = 8;
			else if (code == 7 || code == 8) { /* S_COND, D_COND */
				int fam = (int)rnd(4);
				int32_t port = rnd(3) == 0 ? -1 : rnd(2) ? lport : 80;

				op[4] = (uint8_t)(fam == 0 ? 0 : fam == 1 ? 2 : fam == 2 ? 10 : 7);
				op[5] = (uint8_t)(fam == 1   ? rnd(34)
						  : fam == 2 ? 90 + rnd(40)
							     : rnd(2));
				memcpy(op + 8, &port, 4);
				size = 12 + (fam == 1 ? 4 : fam == 2 ? 16 : 0);
				if (fam == 1)
					op[12] = 127, op[15] = (uint8_t)(1 + rnd(2));
				if (fam == 2)
					op[22] = op[23] = 0xff, op[24] = 127, op[27] = 1;
			} else if (code == 9) /* DEV_COND */
				size = 8, op[4] = (uint8_t)rnd(2);
			else if (code == 10) /* MARK_COND */
				size = 12, op[8] = (uint8_t)rnd(2);
			if (size == 8 && code != 9) {
				/* ephemeral ports differ from run to run: only
				 * comparisons whose outcome they do not change */
				static const uint16_t bounds[] = { 0, 1023, 65535 };
				uint16_t port = code >= 11 && rnd(2) ? lport : bounds[rnd(3)];

				memcpy(op + 6, &port, 2);
			}
			op[1] = (uint8_t)size;
			len += size;
		}
		starts[nops] = len;
		for (int k = 0; k < nops; k++) {
			uint8_t *op = bc + starts[k];
			int target = starts[k + 1 + (int)rnd((unsigned)(nops - k))];
			uint16_t no = (uint16_t)(target - starts[k] + (rnd(3) == 0 ? 4 : 0));

			if (rnd(12) == 0) /* corrupt it */
				no = (uint16_t)(no + (uint16_t)rnd(7) - 3);
			if (rnd(20) == 0)
				op[1] = (uint8_t)(op[1] + rnd(9) - 4);
			memcpy(op + 2, &no, 2);
		}
		if (rnd(20) == 0)
			len -= (int)rnd(6);
		if (len < 0)
			len = 0;
		n = with_attr(body, &r, sizeof(r), 1, bc, (size_t)len);
		nl_send(fd, SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, body, n);
		err = nl_recv(fd, NULL, NULL, &nmsgs);
		counts[err == 0 ? 0 : err == -EINVAL ? 1 : err == -EPERM ? 2 : 3]++;
		rows_total += (unsigned)nmsgs;
	}
	printf("bytecode fuzz: %u taken (%u sockets through), %u EINVAL, %u EPERM, %u other\n",
	       counts[0], rows_total, counts[1], counts[2], counts[3]);
}

static int sock_err(int fd)
{
	int e = 0;
	socklen_t l = sizeof(e);

	getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &l);
	return e;
}

static const char *io_result(long r)
{
	static char buf[4][32];
	static int k;

	k = (k + 1) % 4;
	if (r < 0)
		snprintf(buf[k], sizeof(buf[k]), "%s",
			 errno == ECONNABORTED ? "ECONNABORTED"
			 : errno == ESTALE     ? "ESTALE"
					       : ename(errno));
	else
		snprintf(buf[k], sizeof(buf[k]), "%ld", r);
	return buf[k];
}

/* SOCK_DESTROY as root (`ss -K`): a connection aborted, its peer reset, a
 * UDP socket disconnected, a listener stopped. */
static void destroy_tests(int fd)
{
	struct sockaddr_in a = sin4("127.0.0.1", 0), b, cb;
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	socklen_t len = sizeof(b);
	int l = socket(AF_INET, SOCK_STREAM, 0), c, s, u;
	struct req_v2 r = inet_req(AF_INET, IPPROTO_TCP, 0, 0);
	char buf[16];
	uint16_t port;

	bind(l, (struct sockaddr *)&a, sizeof(a));
	listen(l, 4);
	getsockname(l, (struct sockaddr *)&b, &len);
	port = b.sin_port;
	c = socket(AF_INET, SOCK_STREAM, 0);
	connect(c, (struct sockaddr *)&b, sizeof(b));
	s = accept(l, NULL, NULL);
	write(s, "data", 4);
	len = sizeof(cb);
	getsockname(c, (struct sockaddr *)&cb, &len);
	r.id.cookie[0] = r.id.cookie[1] = NOCOOKIE;
	r.id.src[0] = r.id.dst[0] = htonl(INADDR_LOOPBACK);
	r.id.sport = cb.sin_port;
	r.id.dport = port;
	error_of(fd, "SOCK_DESTROY of a connection", SOCK_DESTROY, NLM_F_REQUEST | NLM_F_ACK, &r,
		 sizeof(r));
	printf("aborted: SO_ERROR %s\n",
	       sock_err(c) == ECONNABORTED ? "ECONNABORTED" : ename(sock_err(c)));
	printf("aborted: read %s", io_result(read(c, buf, sizeof(buf))));
	printf(", then %s\n", io_result(read(c, buf, sizeof(buf))));
	printf("aborted: write %s\n", io_result(send(c, "x", 1, MSG_NOSIGNAL)));
	printf("peer: read %s", io_result(recv(s, buf, sizeof(buf), MSG_DONTWAIT)));
	printf(", then %s\n", io_result(recv(s, buf, sizeof(buf), MSG_DONTWAIT)));
	error_of(fd, "SOCK_DESTROY of it again", SOCK_DESTROY, NLM_F_REQUEST | NLM_F_ACK, &r,
		 sizeof(r));

	u = socket(AF_INET6, SOCK_DGRAM, 0);
	bind(u, (struct sockaddr *)&a6, sizeof(a6));
	len = sizeof(a6);
	getsockname(u, (struct sockaddr *)&a6, &len);
	connect(u, (struct sockaddr *)&a6, sizeof(a6));
	r = inet_req(AF_INET6, IPPROTO_UDP, 0, 0);
	r.id.cookie[0] = r.id.cookie[1] = NOCOOKIE;
	memcpy(r.id.src, &a6.sin6_addr, 16);
	memcpy(r.id.dst, &a6.sin6_addr, 16);
	r.id.sport = r.id.dport = a6.sin6_port;
	error_of(fd, "SOCK_DESTROY of a UDP6 socket", SOCK_DESTROY, NLM_F_REQUEST | NLM_F_ACK, &r,
		 sizeof(r));
	len = sizeof(a6);
	printf("udp: SO_ERROR %s, getpeername %s\n",
	       sock_err(u) == ECONNABORTED ? "ECONNABORTED" : ename(sock_err(u)),
	       io_result(getpeername(u, (struct sockaddr *)&a6, &len)));

	r = inet_req(AF_INET, IPPROTO_TCP, 0, 0);
	r.id.cookie[0] = r.id.cookie[1] = NOCOOKIE;
	r.id.src[0] = htonl(INADDR_LOOPBACK);
	r.id.sport = port;
	error_of(fd, "SOCK_DESTROY of a listener", SOCK_DESTROY, NLM_F_REQUEST | NLM_F_ACK, &r,
		 sizeof(r));
	printf("listener: SO_ERROR %s, SO_ACCEPTCONN %d\n",
	       sock_err(l) == ECONNABORTED ? "ECONNABORTED" : ename(sock_err(l)), ({
		       int v = -1;
		       socklen_t vl = sizeof(v);
		       getsockopt(l, SOL_SOCKET, SO_ACCEPTCONN, &v, &vl);
		       v;
	       }));
	error_of(fd, "SOCK_DESTROY of it again", SOCK_DESTROY, NLM_F_REQUEST | NLM_F_ACK, &r,
		 sizeof(r));
	close(c);
	close(s);
	close(l);
	close(u);
}

int main(void)
{
	struct sockaddr_in a = sin4("127.0.0.1", 0), b;
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	socklen_t len = sizeof(b);
	int l, c, s, c2, bd, l6, u, u6, x, xc, xs, xe, xa, sp[2], fd, refused, one = 1;

	setvbuf(stdout, NULL, _IONBF, 0);
	fd = nl_open();
	if (fd < 0)
		return 1;
	check(socket(AF_NETLINK, SOCK_DGRAM, NETLINK_SOCK_DIAG) >= 0, "SOCK_DGRAM too");

	l = socket(AF_INET, SOCK_STREAM, 0);
	bind(l, (struct sockaddr *)&a, sizeof(a));
	listen(l, 5);
	getsockname(l, (struct sockaddr *)&b, &len);
	lport = ntohs(b.sin_port);
	track(l, "listener");
	c = socket(AF_INET, SOCK_STREAM, 0);
	connect(c, (struct sockaddr *)&b, sizeof(b));
	track(c, "client");
	s = accept(l, NULL, NULL);
	track(s, "accepted");
	write(c, "hello", 5);
	c2 = socket(AF_INET, SOCK_STREAM, 0);
	connect(c2, (struct sockaddr *)&b, sizeof(b));
	track(c2, "client2"); /* not accepted: its other end has no file */
	setsockopt(c2, IPPROTO_IP, IP_TOS, &(int){ 0x10 }, sizeof(int));
	bd = socket(AF_INET, SOCK_STREAM, 0);
	bind(bd, (struct sockaddr *)&a, sizeof(a));
	len = sizeof(b);
	getsockname(bd, (struct sockaddr *)&b, &len);
	bport = ntohs(b.sin_port);
	track(bd, "bound");
	refused = socket(AF_INET, SOCK_STREAM, 0);
	connect(refused, (struct sockaddr *)&b, sizeof(b)); /* ECONNREFUSED: AttemptFails */
	track(refused, "refused");
	l6 = socket(AF_INET6, SOCK_STREAM, 0);
	setsockopt(l6, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	setsockopt(l6, IPPROTO_IPV6, IPV6_TCLASS, &(int){ 0x20 }, sizeof(int));
	bind(l6, (struct sockaddr *)&a6, sizeof(a6));
	listen(l6, 3);
	len = sizeof(a6);
	getsockname(l6, (struct sockaddr *)&a6, &len);
	lport6 = ntohs(a6.sin6_port);
	track(l6, "listener6");
	u = socket(AF_INET, SOCK_DGRAM, 0);
	bind(u, (struct sockaddr *)&a, sizeof(a));
	len = sizeof(b);
	getsockname(u, (struct sockaddr *)&b, &len);
	uport = ntohs(b.sin_port);
	track(u, "udp");
	u6 = socket(AF_INET6, SOCK_DGRAM, 0);
	a6.sin6_port = 0;
	bind(u6, (struct sockaddr *)&a6, sizeof(a6));
	len = sizeof(a6);
	getsockname(u6, (struct sockaddr *)&a6, &len);
	connect(u6, (struct sockaddr *)&a6, sizeof(a6));
	track(u6, "udp6");

	if (!mkdtemp(dir))
		return 1;
	x = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/sock", dir);
	bind(x, (struct sockaddr *)&un, sizeof(un));
	listen(x, 4);
	track(x, "ulistener");
	xc = socket(AF_UNIX, SOCK_STREAM, 0);
	connect(xc, (struct sockaddr *)&un, sizeof(un));
	track(xc, "uclient");
	xs = accept(x, NULL, NULL);
	track(xs, "uaccepted");
	write(xc, "abc", 3);
	shutdown(xs, SHUT_RD);
	xe = socket(AF_UNIX, SOCK_STREAM, 0);
	connect(xe, (struct sockaddr *)&un, sizeof(un));
	track(xe, "uwaiting");
	socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sp);
	track(sp[0], "pair0");
	track(sp[1], "pair1");
	xa = socket(AF_UNIX, SOCK_DGRAM, 0);
	memset(un.sun_path, 0, sizeof(un.sun_path));
	memcpy(un.sun_path, "\0sockdiag\0x", 11);
	bind(xa, (struct sockaddr *)&un, offsetof(struct sockaddr_un, sun_path) + 11);
	track(xa, "uabstract");

	inet_tests(fd);
	unix_tests(fd);
	bad_requests(fd);
	counts();
	bytecode_fuzz(fd);
	destroy_tests(fd);

	snprintf(un.sun_path, sizeof(un.sun_path), "%s/sock", dir);
	unlink(un.sun_path);
	rmdir(dir);
	return 0;
}
