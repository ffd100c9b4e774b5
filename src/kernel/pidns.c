/* kernel/pidns.c: pid namespaces. The kernel's tables (kernel/task.c) are
 * by instance pid; a pid made in a child namespace also has a chain here:
 * its deepest namespace and its number at each level. Each child
 * namespace maps its numbers back to instance pids. A pid of the
 * instance's namespace has no chain, so translating it (the common case:
 * a guest that never makes a namespace) is a pointer test. */
#include <stdlib.h>
#include <string.h>

#include "kernel/pidns.h"
#include "kernel/task.h"
#include "abi/linux/errno.h"

struct pid_chain {
	struct pid_ns *ns; /* the deepest (a reference) */
	int nr[];	   /* by level, 1..ns->level (nr[0] unused) */
};

struct pid_ns init_pid_ns = {
	.ns = { .refcount = 1, .ino = NS_INO_PID, .type = NS_PID },
};

static struct pid_chain *chains[PID_MAX];

static void pid_ns_free(struct ns_common *common)
{
	struct pid_ns *ns = (struct pid_ns *)common;

	free(ns->map);
	ns_ino_free(common->ino);
	if (ns->parent)
		ns_put(&ns->parent->ns);
	free(ns);
}

int pid_ns_new(struct ns_common *for_children, struct pid_ns *active, struct ns_common **out)
{
	struct pid_ns *parent = (struct pid_ns *)for_children, *ns;

	if (parent != active)
		return -EINVAL;
	if (parent->level >= PIDNS_LEVEL_MAX)
		return -ENOSPC;
	ns = ns_alloc(sizeof(*ns), NS_PID, pid_ns_free);
	if (!ns)
		return -ENOMEM;
	ns->level = parent->level + 1;
	ns->parent = parent;
	ns_get(&parent->ns);
	*out = &ns->ns;
	return 0;
}

/* The next free number after ns->last, wrapping to RESERVED_PIDS once
 * the numbers have passed it, else to 2 (Linux's alloc_pid); 1 for the
 * first (its init), or again when the fork that took 1 failed (as Linux
 * resets its cursor). */
static int nr_alloc(struct pid_ns *ns)
{
	int i, nr = ns->last, wrap = ns->last + 1 > RESERVED_PIDS ? RESERVED_PIDS : 2;

	if (ns->nr_pids == 0)
		return 1;
	for (i = 1; i < PID_MAX; i++) {
		nr = nr + 1 >= PID_MAX ? wrap : nr + 1;
		if (nr >= ns->map_size || !ns->map[nr])
			return nr;
	}
	return -EAGAIN;
}

/* ns->map covers nr: it grows as numbers are handed out, so a namespace
 * that holds few processes costs little. */
static int map_cover(struct pid_ns *ns, int nr)
{
	int size = ns->map_size ? ns->map_size : 64, *map;

	if (nr < ns->map_size)
		return 0;
	while (size <= nr)
		size *= 2;
	if (size > PID_MAX)
		size = PID_MAX;
	map = realloc(ns->map, size * sizeof(*map));
	if (!map)
		return -ENOMEM;
	memset(map + ns->map_size, 0, (size - ns->map_size) * sizeof(*map));
	ns->map = map;
	ns->map_size = size;
	return 0;
}

int pidns_assign(int pid, struct pid_ns *ns)
{
	struct pid_chain *c;
	struct pid_ns *n;

	if (ns == &init_pid_ns)
		return 0;
	c = malloc(sizeof(*c) + (ns->level + 1) * sizeof(int));
	if (!c)
		return -ENOMEM;
	c->nr[0] = ns->level + 1;
	for (n = ns; n->level > 0; n = n->parent) {
		/* none into a namespace whose init is gone, at any level */
		int nr = n->reaper_gone ? -ENOMEM : nr_alloc(n);

		if (nr > 0 && map_cover(n, nr) < 0)
			nr = -ENOMEM;
		if (nr < 0) {
			for (n = ns; n->level >= c->nr[0]; n = n->parent)
				n->map[c->nr[n->level]] = 0, n->nr_pids--;
			free(c);
			return nr;
		}
		c->nr[n->level] = nr;
		c->nr[0] = n->level; /* the lowest level filled so far */
		n->map[nr] = pid;
		n->last = nr;
		n->nr_pids++;
	}
	c->ns = ns;
	ns_get(&ns->ns);
	chains[pid] = c;
	return 0;
}

void pidns_release(int pid)
{
	struct pid_chain *c = pid > 0 && pid < PID_MAX ? chains[pid] : NULL;
	struct pid_ns *n;

	if (!c)
		return;
	chains[pid] = NULL;
	for (n = c->ns; n->level > 0; n = n->parent) {
		n->map[c->nr[n->level]] = 0;
		n->nr_pids--;
		if (c->nr[n->level] == 1)
			n->reaper = NULL;
	}
	ns_put(&c->ns->ns);
	free(c);
}

struct pid_ns *pid_ns_of(int pid)
{
	struct pid_chain *c = pid > 0 && pid < PID_MAX ? chains[pid] : NULL;

	return c ? c->ns : &init_pid_ns;
}

int pid_nr_ns(int pid, const struct pid_ns *ns)
{
	struct pid_chain *c;
	struct pid_ns *n;

	if (ns == &init_pid_ns || pid <= 0 || pid >= PID_MAX)
		return pid > 0 ? pid : 0;
	c = chains[pid];
	if (!c || c->ns->level < ns->level)
		return 0;
	for (n = c->ns; n->level > ns->level; n = n->parent)
		;
	return n == ns ? c->nr[ns->level] : 0;
}

int pid_from_nr(const struct pid_ns *ns, int nr)
{
	if (nr <= 0 || nr >= PID_MAX)
		return 0;
	if (ns == &init_pid_ns)
		return nr;
	return nr < ns->map_size ? ns->map[nr] : 0;
}

bool pid_ns_within(const struct pid_ns *ns, const struct pid_ns *anc)
{
	while (ns && ns->level > anc->level)
		ns = ns->parent;
	return ns == anc;
}

struct pid_ns *task_pid_ns(const struct task *t)
{
	return pid_ns_of(t->proc->pid);
}

int pid_vnr(const struct task *t, int pid)
{
	return pid_nr_ns(pid, task_pid_ns(t));
}

struct process *process_by_vpid(const struct task *t, int nr)
{
	return process_by_pid(pid_from_nr(task_pid_ns(t), nr));
}

struct task *task_by_vtid(const struct task *t, int nr)
{
	return task_by_tid(pid_from_nr(task_pid_ns(t), nr));
}

bool process_is_ns_init(const struct process *p)
{
	return p->pid == 1 || pid_ns_of(p->pid)->reaper == p;
}
