/* net/proc.c: /proc/net's files in Linux's formats: dev, dev_mcast,
 * if_inet6, igmp and igmp6 (the devices of net/netdev.c), tcp, tcp6, udp, udp6 (the inet sockets, by
 * family as Linux lists them: an AF_INET6 socket's IPv4 peers appear in
 * tcp6 as ::ffff:a.b.c.d), raw, raw6 (raw ICMP sockets), icmp, icmp6
 * (ping sockets) and unix.
 * Differs from Linux: no counter of traffic (dev's are 0); kernel
 * pointers print as 0 (Linux hashes them); udp's first column is the
 * port (raw: the protocol; icmp: the identifier) where Linux gives a hash
 * bucket that depends on a per-namespace random value; TCP's timers and congestion values are those of an idle
 * loopback connection; a TCP connection that has closed is not listed
 * (Linux keeps it in TIME_WAIT for a minute, in another format). Each
 * file lists what belongs to the reader's network namespace, but the
 * counters of snmp, snmp6 and netstat, which are the instance's. */
#include <stdio.h>
#include <string.h>

#include "net/proc.h"
#include "net/netdev.h"
#include "net/netns.h"
#include "net/inet.h"
#include "abi/linux/socket.h"
#include "abi/linux/sock_diag.h"

/* Linux pads the lines of tcp to 149 characters and of udp to 127. */
#define TCP_WIDTH 149
#define UDP_WIDTH 127

/* The namespace whose file net_proc_show is making. */
static const struct net_ns *view;

enum {
	TCP_ESTABLISHED = LINUX_TCP_ESTABLISHED,
	TCP_CLOSE = LINUX_TCP_CLOSE,
	TCP_LISTEN = LINUX_TCP_LISTEN,
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

		if (!netdev_has_v6(d, view))
			continue;
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

		if (u->sk.family != family || u->dead || u->sk.net != view)
			continue;
		in = (struct inet_sock *)u;
		if (in->proto != proto || !in->sport)
			continue;
		st = tcp ? tcp_sk_state(in) : (in->connected ? TCP_ESTABLISHED : TCP_CLOSE);
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

/* raw_seq_show and ping_v4_seq_show (IPv4), ip6_dgram_sock_seq_show
 * (IPv6): the raw sockets (the local port is the protocol) or the ping
 * sockets with an identifier (their port). */
static void show_icmp(bool raw, bool v6, void (*emit)(void *, const char *), void *arg)
{
	static const uint8_t any[16];
	struct unix_sock *u;
	char line[256];

	if (v6)
		emit(arg,
		     "  sl  local_address                         remote_address                "
		     "        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref "
		     "pointer drops\n");
	else if (raw)
		emit(arg, "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when "
			  "retrnsmt   uid  timeout inode ref pointer drops\n");
	else
		snprintf(line, sizeof(line), "%s",
			 "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when "
			 "retrnsmt   uid  timeout inode ref pointer drops"),
			emit_padded(emit, arg, line, sizeof(line), UDP_WIDTH);
	/* newest first, as a hash chain lists them */
	list_for_each_entry_reverse(u, &unix_every_sock, all_link)
	{
		struct inet_sock *in = (struct inet_sock *)u;
		int n;

		if (u->sk.family != (v6 ? LINUX_AF_INET6 : LINUX_AF_INET) || u->dead ||
		    u->sk.net != view || in->proto == LINUX_IPPROTO_TCP || inet_is_udp(in) ||
		    (u->sk.type == LINUX_SOCK_RAW) != raw || !in->sport)
			continue;
		n = snprintf(line, sizeof(line), v6 || !raw ? "%5d: " : "%4d: ", in->sport);
		n += put_addr(line + n, sizeof(line) - n, in->saddr, v6);
		n += snprintf(line + n, sizeof(line) - n, ":%04X ", in->sport);
		n += put_addr(line + n, sizeof(line) - n, in->connected ? in->daddr : any, v6);
		snprintf(line + n, sizeof(line) - n,
			 ":0000 %02X %08X:%08lX 00:00000000 00000000 %5u %8d %lu 2 "
			 "0000000000000000 0",
			 in->connected ? TCP_ESTABLISHED : TCP_CLOSE, 0, (unsigned long)in->rmem,
			 u->sk.uid, 0, (unsigned long)u->sk.ino);
		if (v6 || raw)
			strcat(line, "\n"), emit(arg, line);
		else
			emit_padded(emit, arg, line, sizeof(line), UDP_WIDTH);
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

		if (u->sk.family != LINUX_AF_UNIX || u->dead || u->sk.net != view)
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

/* --- sockstat, snmp, netstat, snmp6 --- */

struct sock_counts {
	/* [0]: AF_INET, [1]: AF_INET6 */
	int tcp_inuse[2], udp_inuse[2], udplite_inuse[2], raw_inuse[2];
	int tcp_alloc, tcp_estab;
	size_t tcp_bytes, udp_bytes;
};

/* What the sockets of the namespace hold: in use (Linux's hashed ones:
 * a TCP socket listening or connected, a UDP one with a port), and
 * allocated (TCP's, of both families, from creation to free). */
static void count_socks(struct sock_counts *c)
{
	struct unix_sock *u;

	memset(c, 0, sizeof(*c));
	list_for_each_entry(u, &unix_every_sock, all_link)
	{
		struct inet_sock *in = (struct inet_sock *)u;
		int v6 = u->sk.family == LINUX_AF_INET6, st;

		if ((u->sk.family != LINUX_AF_INET && !v6) || u->dead || u->sk.net != view)
			continue;
		if (in->proto == LINUX_IPPROTO_UDP) {
			if (in->sport)
				c->udp_inuse[v6]++;
			c->udp_bytes += in->rmem;
			continue;
		}
		if (in->proto == LINUX_IPPROTO_UDPLITE) {
			c->udplite_inuse[v6] += in->sport != 0;
			continue;
		}
		if (in->proto != LINUX_IPPROTO_TCP) {
			/* ICMP: raw sockets count as RAW, ping sockets nowhere */
			c->raw_inuse[v6] += u->sk.type == LINUX_SOCK_RAW;
			continue;
		}
		c->tcp_alloc++;
		st = tcp_sk_state(in);
		if (st != TCP_CLOSE)
			c->tcp_inuse[v6]++;
		if (st == LINUX_TCP_ESTABLISHED || st == LINUX_TCP_CLOSE_WAIT)
			c->tcp_estab++; /* TCP_MIB_CURRESTAB */
		c->tcp_bytes += u->inq;
	}
}

static long pages(size_t bytes)
{
	return (long)((bytes + 4095) / 4096);
}

/* sockstat_seq_show. "used" counts every socket of the namespace; orphans
 * and TIME_WAIT sockets are 0 (a closed TCP connection is gone at once
 * here); mem is the pages of data queued; no raw sockets or fragments. */
static void show_sockstat(void (*emit)(void *, const char *), void *arg)
{
	struct sock_counts c;
	char line[160];

	count_socks(&c);
	snprintf(line, sizeof(line), "sockets: used %d\n", view->nr_socks);
	emit(arg, line);
	snprintf(line, sizeof(line), "TCP: inuse %d orphan %d tw %d alloc %d mem %ld\n",
		 c.tcp_inuse[0], 0, 0, c.tcp_alloc, pages(c.tcp_bytes));
	emit(arg, line);
	snprintf(line, sizeof(line), "UDP: inuse %d mem %ld\n", c.udp_inuse[0], pages(c.udp_bytes));
	emit(arg, line);
	snprintf(line, sizeof(line), "UDPLITE: inuse %d\nRAW: inuse %d\nFRAG: inuse 0 memory 0\n",
		 c.udplite_inuse[0], c.raw_inuse[0]);
	emit(arg, line);
}

static void show_sockstat6(void (*emit)(void *, const char *), void *arg)
{
	struct sock_counts c;
	char line[160];

	count_socks(&c);
	snprintf(line, sizeof(line), "TCP6: inuse %d\nUDP6: inuse %d\n", c.tcp_inuse[1],
		 c.udp_inuse[1]);
	emit(arg, line);
	snprintf(line, sizeof(line),
		 "UDPLITE6: inuse %d\nRAW6: inuse %d\nFRAG6: inuse 0 memory 0\n",
		 c.udplite_inuse[1], c.raw_inuse[1]);
	emit(arg, line);
}

/* Two lines as snmp_seq_show and netstat_seq_show print a group: its
 * names, then a value for each (vals, or 0 past nvals). */
static void show_mib(void (*emit)(void *, const char *), void *arg, const char *names,
		     const long *vals, int nvals)
{
	size_t plen = strcspn(names, ":");
	char num[32];
	int n = 0;

	emit(arg, names);
	emit(arg, "\n");
	snprintf(num, sizeof(num), "%.*s:", (int)plen, names);
	emit(arg, num);
	for (const char *p = names + plen + 1; *p; p++) {
		if (*p != ' ')
			continue;
		snprintf(num, sizeof(num), " %ld", n < nvals ? vals[n] : 0L);
		emit(arg, num);
		n++;
	}
	emit(arg, "\n");
}

/* The counters of Linux 6.18, by name. skas counts what it can without
 * packets: Ip's forwarding (2: off) and TTL, Tcp's constants, its opens,
 * failed attempts and established connections. Every other counter
 * (segments, datagrams, ICMP, the TcpExt/IpExt/MPTcpExt and IPv6 ones)
 * is 0: skas sends no packets to count. */
static const char snmp_ip[] =
	"Ip: Forwarding DefaultTTL InReceives InHdrErrors InAddrErrors ForwDatagrams"
	" InUnknownProtos InDiscards InDelivers OutRequests OutDiscards OutNoRoutes ReasmTimeout"
	" ReasmReqds ReasmOKs ReasmFails FragOKs FragFails FragCreates OutTransmits";
static const char snmp_icmp[] =
	"Icmp: InMsgs InErrors InCsumErrors InDestUnreachs InTimeExcds InParmProbs InSrcQuenchs"
	" InRedirects InEchos InEchoReps InTimestamps InTimestampReps InAddrMasks InAddrMaskReps"
	" OutMsgs OutErrors OutRateLimitGlobal OutRateLimitHost OutDestUnreachs OutTimeExcds"
	" OutParmProbs OutSrcQuenchs OutRedirects OutEchos OutEchoReps OutTimestamps"
	" OutTimestampReps OutAddrMasks OutAddrMaskReps";
static const char snmp_tcp[] =
	"Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets"
	" CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors";
static const char snmp_udp[] =
	"Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors"
	" IgnoredMulti MemErrors";
static const char snmp_udplite[] =
	"UdpLite: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors"
	" IgnoredMulti MemErrors";

static void show_snmp(void (*emit)(void *, const char *), void *arg)
{
	long ip[] = { 2, 64 }, tcp[] = { 1, 200, 120000, -1, 0, 0, 0, 0, 0 };
	struct sock_counts c;

	count_socks(&c);
	tcp[4] = (long)tcp_mib.active_opens;
	tcp[5] = (long)tcp_mib.passive_opens;
	tcp[6] = (long)tcp_mib.attempt_fails;
	tcp[8] = c.tcp_estab;
	show_mib(emit, arg, snmp_ip, ip, 2);
	show_mib(emit, arg, snmp_icmp, NULL, 0);
	show_mib(emit, arg, snmp_tcp, tcp, (int)(sizeof(tcp) / sizeof(tcp[0])));
	show_mib(emit, arg, snmp_udp, NULL, 0);
	show_mib(emit, arg, snmp_udplite, NULL, 0);
}

static const char netstat_tcpext[] =
	"TcpExt: SyncookiesSent SyncookiesRecv SyncookiesFailed EmbryonicRsts PruneCalled RcvPruned"
	" OfoPruned OutOfWindowIcmps LockDroppedIcmps ArpFilter TW TWRecycled TWKilled PAWSActive"
	" PAWSEstab BeyondWindow TSEcrRejected PAWSOldAck PAWSTimewait DelayedACKs DelayedACKLocked"
	" DelayedACKLost ListenOverflows ListenDrops TCPHPHits TCPPureAcks TCPHPAcks"
	" TCPRenoRecovery TCPSackRecovery TCPSACKReneging TCPSACKReorder TCPRenoReorder"
	" TCPTSReorder TCPFullUndo TCPPartialUndo TCPDSACKUndo TCPLossUndo TCPLostRetransmit"
	" TCPRenoFailures TCPSackFailures TCPLossFailures TCPFastRetrans TCPSlowStartRetrans"
	" TCPTimeouts TCPLossProbes TCPLossProbeRecovery TCPRenoRecoveryFail TCPSackRecoveryFail"
	" TCPRcvCollapsed TCPBacklogCoalesce TCPDSACKOldSent TCPDSACKOfoSent TCPDSACKRecv"
	" TCPDSACKOfoRecv TCPAbortOnData TCPAbortOnClose TCPAbortOnMemory TCPAbortOnTimeout"
	" TCPAbortOnLinger TCPAbortFailed TCPMemoryPressures TCPMemoryPressuresChrono"
	" TCPSACKDiscard TCPDSACKIgnoredOld TCPDSACKIgnoredNoUndo TCPSpuriousRTOs TCPMD5NotFound"
	" TCPMD5Unexpected TCPMD5Failure TCPSackShifted TCPSackMerged TCPSackShiftFallback"
	" TCPBacklogDrop PFMemallocDrop TCPMinTTLDrop TCPDeferAcceptDrop IPReversePathFilter"
	" TCPTimeWaitOverflow TCPReqQFullDoCookies TCPReqQFullDrop TCPRetransFail TCPRcvCoalesce"
	" TCPOFOQueue TCPOFODrop TCPOFOMerge TCPChallengeACK TCPSYNChallenge TCPFastOpenActive"
	" TCPFastOpenActiveFail TCPFastOpenPassive TCPFastOpenPassiveFail TCPFastOpenListenOverflow"
	" TCPFastOpenCookieReqd TCPFastOpenBlackhole TCPSpuriousRtxHostQueues BusyPollRxPackets"
	" TCPAutoCorking TCPFromZeroWindowAdv TCPToZeroWindowAdv TCPWantZeroWindowAdv TCPSynRetrans"
	" TCPOrigDataSent TCPHystartTrainDetect TCPHystartTrainCwnd TCPHystartDelayDetect"
	" TCPHystartDelayCwnd TCPACKSkippedSynRecv TCPACKSkippedPAWS TCPACKSkippedSeq"
	" TCPACKSkippedFinWait2 TCPACKSkippedTimeWait TCPACKSkippedChallenge TCPWinProbe"
	" TCPKeepAlive TCPMTUPFail TCPMTUPSuccess TCPDelivered TCPDeliveredCE TCPAckCompressed"
	" TCPZeroWindowDrop TCPRcvQDrop TCPWqueueTooBig TCPFastOpenPassiveAltKey TcpTimeoutRehash"
	" TcpDuplicateDataRehash TCPDSACKRecvSegs TCPDSACKIgnoredDubious TCPMigrateReqSuccess"
	" TCPMigrateReqFailure TCPPLBRehash TCPAORequired TCPAOBad TCPAOKeyNotFound TCPAOGood"
	" TCPAODroppedIcmps";
static const char netstat_ipext[] =
	"IpExt: InNoRoutes InTruncatedPkts InMcastPkts OutMcastPkts InBcastPkts OutBcastPkts"
	" InOctets OutOctets InMcastOctets OutMcastOctets InBcastOctets OutBcastOctets InCsumErrors"
	" InNoECTPkts InECT1Pkts InECT0Pkts InCEPkts ReasmOverlaps";
static const char netstat_mptcpext[] =
	"MPTcpExt: MPCapableSYNRX MPCapableSYNTX MPCapableSYNACKRX MPCapableACKRX"
	" MPCapableFallbackACK MPCapableFallbackSYNACK MPCapableSYNTXDrop MPCapableSYNTXDisabled"
	" MPCapableEndpAttempt MPFallbackTokenInit MPTCPRetrans MPJoinNoTokenFound MPJoinSynRx"
	" MPJoinSynBackupRx MPJoinSynAckRx MPJoinSynAckBackupRx MPJoinSynAckHMacFailure MPJoinAckRx"
	" MPJoinAckHMacFailure MPJoinRejected MPJoinSynTx MPJoinSynTxCreatSkErr MPJoinSynTxBindErr"
	" MPJoinSynTxConnectErr DSSNotMatching DSSCorruptionFallback DSSCorruptionReset"
	" InfiniteMapTx InfiniteMapRx DSSNoMatchTCP DataCsumErr OFOQueueTail OFOQueue OFOMerge"
	" NoDSSInWindow DuplicateData AddAddr AddAddrTx AddAddrTxDrop EchoAdd EchoAddTx"
	" EchoAddTxDrop PortAdd AddAddrDrop MPJoinPortSynRx MPJoinPortSynAckRx MPJoinPortAckRx"
	" MismatchPortSynRx MismatchPortAckRx RmAddr RmAddrDrop RmAddrTx RmAddrTxDrop RmSubflow"
	" MPPrioTx MPPrioRx MPFailTx MPFailRx MPFastcloseTx MPFastcloseRx MPRstTx MPRstRx"
	" SubflowStale SubflowRecover SndWndShared RcvWndShared RcvWndConflictUpdate RcvWndConflict"
	" MPCurrEstab Blackhole MPCapableDataFallback MD5SigFallback DssFallback"
	" SimultConnectFallback FallbackFailed WinProbe";

static void show_netstat(void (*emit)(void *, const char *), void *arg)
{
	show_mib(emit, arg, netstat_tcpext, NULL, 0);
	show_mib(emit, arg, netstat_ipext, NULL, 0);
	show_mib(emit, arg, netstat_mptcpext, NULL, 0);
}

static const char snmp6_names[] =
	"Ip6InReceives Ip6InHdrErrors Ip6InTooBigErrors Ip6InNoRoutes Ip6InAddrErrors"
	" Ip6InUnknownProtos Ip6InTruncatedPkts Ip6InDiscards Ip6InDelivers Ip6OutForwDatagrams"
	" Ip6OutRequests Ip6OutDiscards Ip6OutNoRoutes Ip6ReasmTimeout Ip6ReasmReqds Ip6ReasmOKs"
	" Ip6ReasmFails Ip6FragOKs Ip6FragFails Ip6FragCreates Ip6InMcastPkts Ip6OutMcastPkts"
	" Ip6InOctets Ip6OutOctets Ip6InMcastOctets Ip6OutMcastOctets Ip6InBcastOctets"
	" Ip6OutBcastOctets Ip6InNoECTPkts Ip6InECT1Pkts Ip6InECT0Pkts Ip6InCEPkts Ip6OutTransmits"
	" Icmp6InMsgs Icmp6InErrors Icmp6OutMsgs Icmp6OutErrors Icmp6InCsumErrors"
	" Icmp6OutRateLimitHost Icmp6InDestUnreachs Icmp6InPktTooBigs Icmp6InTimeExcds"
	" Icmp6InParmProblems Icmp6InEchos Icmp6InEchoReplies Icmp6InGroupMembQueries"
	" Icmp6InGroupMembResponses Icmp6InGroupMembReductions Icmp6InRouterSolicits"
	" Icmp6InRouterAdvertisements Icmp6InNeighborSolicits Icmp6InNeighborAdvertisements"
	" Icmp6InRedirects Icmp6InMLDv2Reports Icmp6OutDestUnreachs Icmp6OutPktTooBigs"
	" Icmp6OutTimeExcds Icmp6OutParmProblems Icmp6OutEchos Icmp6OutEchoReplies"
	" Icmp6OutGroupMembQueries Icmp6OutGroupMembResponses Icmp6OutGroupMembReductions"
	" Icmp6OutRouterSolicits Icmp6OutRouterAdvertisements Icmp6OutNeighborSolicits"
	" Icmp6OutNeighborAdvertisements Icmp6OutRedirects Icmp6OutMLDv2Reports Udp6InDatagrams"
	" Udp6NoPorts Udp6InErrors Udp6OutDatagrams Udp6RcvbufErrors Udp6SndbufErrors"
	" Udp6InCsumErrors Udp6IgnoredMulti Udp6MemErrors UdpLite6InDatagrams UdpLite6NoPorts"
	" UdpLite6InErrors UdpLite6OutDatagrams UdpLite6RcvbufErrors UdpLite6SndbufErrors"
	" UdpLite6InCsumErrors UdpLite6MemErrors";

/* snmp6_seq_show: a name and its value a line, all 0 (see above). */
static void show_snmp6(void (*emit)(void *, const char *), void *arg)
{
	const char *p = snmp6_names;
	char line[64];

	while (*p) {
		size_t n = strcspn(p, " ");

		snprintf(line, sizeof(line), "%-32.*s\t%lu\n", (int)n, p, 0UL);
		emit(arg, line);
		p += n;
		p += *p == ' ';
	}
}

void net_proc_show(enum net_proc_file which, const struct net_ns *net,
		   void (*emit)(void *arg, const char *line), void *arg)
{
	view = net;
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
	case NET_PROC_UDPLITE:
		show_inet(LINUX_IPPROTO_UDPLITE, LINUX_AF_INET, emit, arg);
		break;
	case NET_PROC_UDPLITE6:
		show_inet(LINUX_IPPROTO_UDPLITE, LINUX_AF_INET6, emit, arg);
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
	case NET_PROC_ROUTE:
		/* the main table: empty (a namespace's only routes are the
		 * loopback's, in the local table, which this file does not
		 * show; none can be added), its header as fib_route_seq_show
		 * pads it to 127 columns */
		emit(arg,
		     "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU"
		     "\tWindow\tIRTT                                                       \n");
		break;
	case NET_PROC_ARP: /* the loopback has no neighbours */
		emit(arg, "IP address       HW type     Flags       HW address            Mask     "
			  "Device\n");
		break;
	case NET_PROC_SOCKSTAT:
		show_sockstat(emit, arg);
		break;
	case NET_PROC_SOCKSTAT6:
		show_sockstat6(emit, arg);
		break;
	case NET_PROC_SNMP:
		show_snmp(emit, arg);
		break;
	case NET_PROC_SNMP6:
		show_snmp6(emit, arg);
		break;
	case NET_PROC_NETSTAT:
		show_netstat(emit, arg);
		break;
	case NET_PROC_RAW:
	case NET_PROC_RAW6:
		show_icmp(true, which == NET_PROC_RAW6, emit, arg);
		break;
	case NET_PROC_ICMP:
	case NET_PROC_ICMP6:
		show_icmp(false, which == NET_PROC_ICMP6, emit, arg);
		break;
	}
}
