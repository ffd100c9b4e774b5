/* net/netns.c: network namespaces (netns.h). */
#include "net/netns.h"
#include "kernel/task.h"
#include "kernel/userns.h"

/* Cookies in creation order, the initial namespace's 1 (net_alloc). */
static uint64_t next_cookie = 2;

struct net_ns init_net = {
	.ns = { .refcount = 1, .ino = NS_INO_NET, .type = NS_NET },
	.lo_up = true,
	.lo_was_up = true,
	.lo_has_v4 = true,
	.cookie = 1,
};

bool net_capable(const struct net_ns *net, int cap)
{
	return current && ns_capable(&current->proc->cred, ns_owner(&net->ns), cap);
}

struct net_ns *task_net(struct task *t)
{
	if (!t || !t->nsproxy)
		return &init_net;
	return (struct net_ns *)t->nsproxy->ns[NS_NET];
}

void net_get(struct net_ns *net)
{
	ns_get(&net->ns);
}

void net_put(struct net_ns *net)
{
	ns_put(&net->ns);
}

struct ns_common *net_ns_new(void)
{
	struct net_ns *net = ns_alloc(sizeof(*net), NS_NET, NULL);

	if (!net)
		return NULL;
	net->cookie = next_cookie++;
	return &net->ns;
}
