/* net/proc.c: /proc/net's files in Linux's formats: dev, dev_mcast,
 * if_inet6, igmp and igmp6 (the devices of net/netdev.c), tcp, tcp6, udp, udp6 (the inet sockets, by
 * family as Linux lists them: an AF_INET6 socket's IPv4 peers appear in
 * tcp6 as ::ffff:a.b.c.d) and unix.
 * Differs from Linux: no counter of traffic (dev's are 0); kernel
 * pointers print as 0 (Linux hashes them); udp's first column is the
 * port where Linux gives a hash bucket that depends on a per-namespace
 * random value; TCP's timers and congestion values are those of an idle
 * loopback connection; a TCP connection that has closed is not listed
 * (Linux keeps it in TIME_WAIT for a minute, in another format). */
#include <stdio.h>
#include <string.h>

#include "net/proc.h"
#include "net/netdev.h"
#include "net/inet.h"
#include "abi/linux/socket.h"

/* Linux pads the lines of tcp to 149 characters and of udp to 127. */
#define TCP_WIDTH 149
#define UDP_WIDTH 127

enum {
	TCP_ESTABLISHED = 1,
	TCP_SYN_SENT = 2,
	TCP_FIN_WAIT2 = 5,
	TCP_CLOSE = 7,
	TCP_CLOSE_WAIT = 8,
	TCP_LISTEN = 10,
};

static void emit_padded(void (*emit)(void *, const char *), void *arg, char *line, size_t cap,
			int width)
{
	size_t n = strlen(line);

	while ((int)n < width && n + 2 < cap)
		line[n++] = ' ';
	line[n++] = '\n';
	line[n] = 0;
	emit(arg, line);
}

static void show_dev(void (*emit)(void *, const char *), void *arg)
{
	char line[256];

	emit(arg, "Inter-|   Receive                                                |  Transmit\n");
	emit(arg, " face |bytes    packets errs drop fifo frame compressed multicast|bytes    "
		  "packets errs drop fifo colls carrier compressed\n");
	for (int i = 1; netdev_by_index(i); i++) {
		snprintf(line, sizeof(line),
			 "%6s: %7d %7d %4d %4d %4d %5d %10d %9d %8d %7d %4d %4d %4d %5d %7d %10d\n",
			 netdev_by_index(i)->name, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
		emit(arg, line);
	}
}

static void show_if_inet6(void (*emit)(void *, const char *), void *arg)
{
	char line[128];

	for (int i = 1; netdev_by_index(i); i++) {
		const struct netdev *d = netdev_by_index(i);
		int n = 0;

		for (int j = 0; j < 16; j++)
			n += snprintf(line + n, sizeof(line) - n, "%02x", d->v6[j]);
		/* the scope is IFA_HOST (0x10), the flags IFA_F_PERMANENT */
		snprintf(line + n, sizeof(line) - n, " %02x %02x %02x %02x %8s\n", d->ifindex,
			 d->v6_prefix, 0x10, LINUX_IFA_F_PERMANENT, d->name);
		emit(arg, line);
	}
}

/* An address as /proc/net/{tcp,udp}[6] print it: the 32-bit words in
 * the host's order. */
static int put_addr(char *p, size_t cap, const uint8_t a[16], bool v6)
{
	int n = 0;

	for (int w = v6 ? 0 : 3; w < 4; w++) {
		uint32_t v;

		memcpy(&v, a + 4 * w, 4);
		n += snprintf(p + n, cap - n, "%08X", v);
	}
	return n;
}

static int tcp_state(const struct inet_sock *in)
{
	if (in->u.sk.state == SS_LISTEN)
		return TCP_LISTEN;
	if (in->u.sk.state == SS_CONNECTING)
		return TCP_SYN_SENT;
	if (!in->connected || tcp_closed(in))
		return TCP_CLOSE;
	if (in->fin_sent)
		return TCP_FIN_WAIT2; /* the FIN is acknowledged at once */
	if (in->fin_rcvd)
		return TCP_CLOSE_WAIT;
	return TCP_ESTABLISHED;
}

static void show_inet(int proto, int family, void (*emit)(void *, const char *), void *arg)
{
	bool v6 = family == LINUX_AF_INET6, tcp = proto == LINUX_IPPROTO_TCP;
	static const uint8_t any[16];
	struct unix_sock *u;
	char line[256];
	int sl = 0;

	if (tcp && !v6)
		snprintf(line, sizeof(line), "%s",
			 "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when "
			 "retrnsmt   uid  timeout inode");
	else if (!v6)
		snprintf(line, sizeof(line), "%s",
			 "   sl  local_address rem_address   st tx_queue rx_queue tr tm->when "
			 "retrnsmt   uid  timeout inode ref pointer drops");
	else
		snprintf(line, sizeof(line),
			 "  sl  local_address                         remote_address               "
			 "  "
			 "       st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode%s",
			 tcp ? "" : " ref pointer drops");
	if (v6)
		strcat(line, "\n"), emit(arg, line);
	else
		emit_padded(emit, arg, line, sizeof(line), tcp ? TCP_WIDTH : UDP_WIDTH);
	list_for_each_entry(u, &unix_every_sock, all_link)
	{
		struct inet_sock *in = (struct inet_sock *)u;
		int st, n;

		if (u->sk.family != family || u->dead)
			continue;
		in = (struct inet_sock *)u;
		if (in->proto != proto || !in->sport)
			continue;
		st = tcp ? tcp_state(in) : (in->connected ? TCP_ESTABLISHED : TCP_CLOSE);
		if (tcp && st == TCP_CLOSE)
			continue; /* bound only, or closed: in neither of Linux's tables */
		n = tcp ? snprintf(line, sizeof(line), "%4d: ", sl++)
			: snprintf(line, sizeof(line), "%5d: ", in->sport);
		n += put_addr(line + n, sizeof(line) - n, in->saddr, v6);
		n += snprintf(line + n, sizeof(line) - n, ":%04X ", in->sport);
		n += put_addr(line + n, sizeof(line) - n, in->connected ? in->daddr : any, v6);
		n += snprintf(line + n, sizeof(line) - n, ":%04X %02X ",
			      in->connected ? in->dport : 0, st);
		if (tcp) {
			/* a listener's queue is its accept backlog; the rest
			 * an idle loopback connection's RTO, ATO, cwnd... */
			long rx = st == TCP_LISTEN ? u->qlen : (long)u->inq;

			snprintf(
				line + n, sizeof(line) - n,
				"%08X:%08lX 00:00000000 00000000 %5u %8d %lu 1 0000000000000000 %s",
				0, rx, u->sk.uid, 0, (unsigned long)u->sk.ino,
				st == TCP_LISTEN ? "100 0 0 10 0" : "20 4 0 10 -1");
		} else {
			snprintf(line + n, sizeof(line) - n,
				 "%08X:%08lX 00:00000000 00000000 %5u %8d %lu 2 0000000000000000 0",
				 0, (unsigned long)in->rmem, u->sk.uid, 0,
				 (unsigned long)u->sk.ino);
		}
		if (v6)
			strcat(line, "\n"), emit(arg, line);
		else
			emit_padded(emit, arg, line, sizeof(line), tcp ? TCP_WIDTH : UDP_WIDTH);
	}
}

/* unix_seq_show: a named socket's path, or '@' and the abstract name
 * with its NULs as '@'. */
static void show_unix(void (*emit)(void *, const char *), void *arg)
{
	struct unix_sock *u;
	char line[512];

	emit(arg, "Num       RefCount Protocol Flags    Type St Inode Path\n");
	list_for_each_entry(u, &unix_every_sock, all_link)
	{
		bool est = u->sk.state == SS_ESTABLISHED;
		int n, st;

		if (u->sk.family != LINUX_AF_UNIX || u->dead)
			continue;
		/* SS_CONNECTED, SS_UNCONNECTED; without a file (not yet
		 * accepted) SS_CONNECTING, SS_DISCONNECTING */
		st = u->sk.file ? (est ? 3 : 1) : (est ? 2 : 4);
		n = snprintf(line, sizeof(line), "0000000000000000: %08X %08X %08X %04X %02X %5lu",
			     (unsigned)u->sk.refcount + 1, 0,
			     u->sk.state == SS_LISTEN ? 0x10000 : 0, u->sk.type, st,
			     (unsigned long)u->sk.ino);
		if (u->addrlen) {
			const char *p = (const char *)&u->addr + 2;
			int len = u->addrlen - 2, i = 0;

			line[n++] = ' ';
			if (p[0]) {
				len = (int)strnlen(p, len);
			} else {
				line[n++] = '@';
				i++;
			}
			for (; i < len && n < (int)sizeof(line) - 2; i++)
				line[n++] = p[i] ? p[i] : '@';
		}
		line[n++] = '\n';
		line[n] = 0;
		emit(arg, line);
	}
}

/* The multicast groups the loopback is in (as a fresh namespace's: the
 * all-hosts group of IPv4, the IPv6 all-nodes ones; no link-layer ones),
 * for `ip maddr`. */
static void show_igmp(bool v6, void (*emit)(void *, const char *), void *arg)
{
	char line[128];

	if (!v6)
		emit(arg, "Idx\tDevice    : Count Querier\tGroup    Users Timer\tReporter\n");
	for (int i = 1; netdev_by_index(i); i++) {
		const struct netdev *d = netdev_by_index(i);

		if (!v6) {
			snprintf(line, sizeof(line), "%d\t%-10s: %5d %7s\n", d->ifindex, d->name, 1,
				 "V3");
			emit(arg, line);
			emit(arg, "\t\t\t\t010000E0     1 0:00000000\t\t0\n");
			continue;
		}
		/* igmp6_mc_seq_show: index, name, group, users, flags, timer */
		snprintf(line, sizeof(line), "%-4d %-15s %s %5d %08X %ld\n", d->ifindex, d->name,
			 "ff020000000000000000000000000001", 1, 0xc, 0L);
		emit(arg, line);
		snprintf(line, sizeof(line), "%-4d %-15s %s %5d %08X %ld\n", d->ifindex, d->name,
			 "ff010000000000000000000000000001", 1, 0x8, 0L);
		emit(arg, line);
	}
}

void net_proc_show(enum net_proc_file which, void (*emit)(void *arg, const char *line), void *arg)
{
	switch (which) {
	case NET_PROC_DEV:
		show_dev(emit, arg);
		break;
	case NET_PROC_IF_INET6:
		show_if_inet6(emit, arg);
		break;
	case NET_PROC_TCP:
		show_inet(LINUX_IPPROTO_TCP, LINUX_AF_INET, emit, arg);
		break;
	case NET_PROC_TCP6:
		show_inet(LINUX_IPPROTO_TCP, LINUX_AF_INET6, emit, arg);
		break;
	case NET_PROC_UDP:
		show_inet(LINUX_IPPROTO_UDP, LINUX_AF_INET, emit, arg);
		break;
	case NET_PROC_UDP6:
		show_inet(LINUX_IPPROTO_UDP, LINUX_AF_INET6, emit, arg);
		break;
	case NET_PROC_UNIX:
		show_unix(emit, arg);
		break;
	case NET_PROC_IGMP:
	case NET_PROC_IGMP6:
		show_igmp(which == NET_PROC_IGMP6, emit, arg);
		break;
	case NET_PROC_DEV_MCAST: /* no link-layer group on a loopback */
		break;
	}
}
