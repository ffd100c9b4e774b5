/* net/proc.h: the files of /proc/PID/net (/proc/net), written by the
 * network code: each show calls emit once per line (with its newline). */
#ifndef NET_PROC_H
#define NET_PROC_H

enum net_proc_file {
	NET_PROC_DEV,
	NET_PROC_IF_INET6,
	NET_PROC_TCP,
	NET_PROC_TCP6,
	NET_PROC_UDP,
	NET_PROC_UDP6,
	NET_PROC_UNIX,
	NET_PROC_IGMP,
	NET_PROC_IGMP6,
	NET_PROC_DEV_MCAST,
	NET_PROC_ROUTE,
	NET_PROC_ARP,
	NET_PROC_SOCKSTAT,
	NET_PROC_SOCKSTAT6,
	NET_PROC_SNMP,
	NET_PROC_SNMP6,
	NET_PROC_NETSTAT,
	NET_PROC_RAW,
	NET_PROC_RAW6,
	NET_PROC_ICMP,
	NET_PROC_ICMP6,
	NET_PROC_UDPLITE,
	NET_PROC_UDPLITE6,
};

struct net_ns;

/* The file's lines as a task of network namespace net sees them. */
void net_proc_show(enum net_proc_file which, const struct net_ns *net,
		   void (*emit)(void *arg, const char *line), void *arg);

#endif
