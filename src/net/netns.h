/* net/netns.h: network namespaces. Each has its own loopback (lo, down in
 * a new one until `ip link set lo up`, as Linux's), its own port numbers,
 * abstract AF_UNIX names and netlink addresses, and its own view of
 * /proc/net and sock_diag. A socket belongs to the namespace of the task
 * that made it (an accepted connection to its listener's) for life. The
 * initial namespace is the instance's: with --net=host, its TCP and UDP
 * sockets are the host's; a new namespace has the loopback alone. One
 * table of ports and names serves all: each lookup compares the socket's
 * namespace. Differs from Linux: the SNMP and netstat counters are the
 * instance's, and /sys/class/net describes the initial namespace. */
#ifndef NET_NETNS_H
#define NET_NETNS_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/nsproxy.h"

struct task;

struct net_ns {
	struct ns_common ns;
	bool lo_up;	     /* IFF_UP: routes to and from the loopback's addresses */
	bool lo_was_up;	     /* it has been up (its qdisc is noqueue, not noop) */
	bool lo_has_v4;	     /* 127.0.0.1/8 was given to lo (at its first up) */
	uint64_t cookie;     /* SO_NETNS_COOKIE */
	int nr_socks;	     /* sockets allocated and not yet freed (sockstat) */
	uint16_t ping_rover; /* the last ICMP echo identifier given */
	/* icmp_global_allow's credit and its last refill (Linux >= 6.12:
	 * per namespace) */
	int64_t icmp_credit, icmp_last;
};

extern struct net_ns init_net;

/* t's network namespace (the initial one for NULL or a task without a set:
 * the kernel's own sockets). No reference. */
struct net_ns *task_net(struct task *t);
/* Has the current task cap over net (in its owning user namespace, as
 * Linux's ns_capable(net->user_ns, cap))? */
bool net_capable(const struct net_ns *net, int cap);
void net_get(struct net_ns *net);
void net_put(struct net_ns *net);
/* A new namespace (CLONE_NEWNET), lo down, or NULL. */
struct ns_common *net_ns_new(void);

#endif
