/* kernel/cgroup.c: the cgroup v2 hierarchy, as Linux's kernel/cgroup/cgroup.c
 * has it with no controller compiled in. Every process is in one group
 * (fork puts the child in its parent's, or CLONE_INTO_CGROUP's); a write
 * of a pid to a group's cgroup.procs moves the whole process, under
 * Linux's delegation rule: the writer (the file's opener) may write the
 * cgroup.procs of the common ancestor of the source and destination, and
 * with nsdelegate both lie in its cgroup namespace. A group is populated
 * while it or a descendant holds a live process (one with a thread left);
 * cgroup.events changes then. Removed groups stay (dying) while a zombie or
 * an open file holds them. The CPU time of a process is charged to the
 * group it was in while it ran (Linux's rstat), as its host threads' times
 * read at each move and at its end.
 *
 * The freezer (cgroup.freeze, Linux's kernel/cgroup/freezer.c): a group
 * freezes when it or an ancestor asks; each of its threads is kicked into
 * the kernel (a sleep ends as for a signal, and the call restarts later),
 * and parks where it would next return to its program, until the freeze
 * ends or SIGKILL comes. A group is frozen once every thread in it is
 * parked, stopped (job control, ptrace), waiting for a vfork child or
 * gone, and every descendant is
 * frozen; cgroup.events says so. A process moved into a freezing group
 * freezes, one moved out thaws; a child forked there parks at its start.
 *
 * The pids controller (Linux's kernel/cgroup/pids.c), the one controller:
 * "+pids" in a group's cgroup.subtree_control gives its children
 * pids.max, pids.current, pids.peak, pids.events and pids.events.local.
 * Every task (a thread; a process's leader until it is reaped) counts in
 * its group and every group above; a clone that would pass the pids.max
 * of one of them is EAGAIN, and the lowest such group's events count it.
 * A move is never refused for it (pids.current may pass pids.max). As a
 * threaded controller it leaves the no-internal-process rule half open:
 * a group with processes may give it to its children, and take processes
 * while it gives it, as long as no child is populated (Linux's
 * cgroup_can_be_thread_root); such a group is a thread root ("domain
 * threaded"), and the groups below it are invalid domains that take no
 * process (EOPNOTSUPP) until it has none.
 *
 * Differs from Linux: no other controller (cpu, memory, io, cpuset and the
 * rest: a name of one written to cgroup.subtree_control is EINVAL), so no
 * other limit; threaded groups are not made (cgroup.type takes no
 * "threaded": EINVAL), so a thread moves only where its process is;
 * the pressure files do not exist (as without CONFIG_PSI). */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "kernel/cgroup.h"
#include "fs/cgroupfs/cgroupfs.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "kernel/userns.h"
#include "kernel/cputime.h"
#include "mm/commit.h"
#include "kernel/log.h"
#include "vfs/fsnotify.h"
#include "vfs/file.h"
#include "abi/linux/errno.h"
#include "abi/linux/signal.h"
#include "abi/linux/stat.h"

static struct pids_css root_pids;
struct cgroup cgroup_root = {
	.refcount = 1,
	.name = "",
	.max_descendants = INT32_MAX,
	.max_depth = INT32_MAX,
	.pids = &root_pids,
};
struct cgroup_ns init_cgroup_ns = {
	.ns = { .refcount = 1, .ino = NS_INO_CGROUP, .type = NS_CGROUP },
	.root = &cgroup_root,
};
unsigned cgroup_root_flags;

static uint64_t next_ino = 1;

uint64_t cgroup_next_ino(void)
{
	return next_ino++;
}

/* Linux's cgroup_file_mode: 0444 for what only shows, 0644 for what is
 * written too, 0200 for cgroup.kill (written only). */
static const uint32_t file_modes[CGF_N] = {
	[CGF_DIR] = LINUX_S_IFDIR | 0755,
	[CGF_CONTROLLERS] = LINUX_S_IFREG | 0444,
	[CGF_EVENTS] = LINUX_S_IFREG | 0444,
	[CGF_FREEZE] = LINUX_S_IFREG | 0644,
	[CGF_KILL] = LINUX_S_IFREG | 0200,
	[CGF_MAX_DEPTH] = LINUX_S_IFREG | 0644,
	[CGF_MAX_DESCENDANTS] = LINUX_S_IFREG | 0644,
	[CGF_PROCS] = LINUX_S_IFREG | 0644,
	[CGF_STAT] = LINUX_S_IFREG | 0444,
	[CGF_SUBTREE_CONTROL] = LINUX_S_IFREG | 0644,
	[CGF_THREADS] = LINUX_S_IFREG | 0644,
	[CGF_TYPE] = LINUX_S_IFREG | 0644,
	[CGF_CPU_STAT] = LINUX_S_IFREG | 0444,
	[CGF_PIDS_CURRENT] = LINUX_S_IFREG | 0444,
	[CGF_PIDS_EVENTS] = LINUX_S_IFREG | 0444,
	[CGF_PIDS_EVENTS_LOCAL] = LINUX_S_IFREG | 0444,
	[CGF_PIDS_MAX] = LINUX_S_IFREG | 0644,
	[CGF_PIDS_PEAK] = LINUX_S_IFREG | 0444,
};

/* Nodes from..to-1 of cg made (kernfs_new_node: a new inode number, the
 * maker's fsuid and fsgid, now). */
static void nodes_make(struct cgroup *cg, int from, int to, uint32_t dir_mode, uint32_t uid,
		       uint32_t gid)
{
	struct linux_timespec now = vfs_now();
	int i;

	for (i = from; i < to; i++) {
		struct cg_node *nd = &cg->node[i];

		nd->mode = i == CGF_DIR ? LINUX_S_IFDIR | (dir_mode & 07777) : file_modes[i];
		nd->uid = uid;
		nd->gid = gid;
		nd->atime = nd->mtime = nd->ctime = now;
		nd->ino = i == CGF_DIR && cg == &cgroup_root ? 1 : cgroup_next_ino();
		nd->gen++;
	}
}

static void nodes_init(struct cgroup *cg, uint32_t dir_mode, uint32_t uid, uint32_t gid)
{
	nodes_make(cg, 0, CGF_N, dir_mode, uid, gid);
}

void cgroup_root_init(void)
{
	if (cgroup_root.node[CGF_DIR].ino)
		return;
	list_init(&cgroup_root.children);
	list_init(&cgroup_root.procs);
	waitq_init(&cgroup_root.events_wq);
	next_ino = 2;
	nodes_init(&cgroup_root, 0555, 0, 0);
	/* the root's ino is 1 (Linux's kernfs root); its files after */
	cgroup_root.node[CGF_DIR].ino = 1;
}

void cgroup_get(struct cgroup *cg)
{
	cg->refcount++;
}

static size_t cgroup_size(const struct cgroup *cg)
{
	return sizeof(*cg) + strlen(cg->name) + 1;
}

void cgroup_put(struct cgroup *cg)
{
	while (cg && --cg->refcount == 0 && cg != &cgroup_root) {
		struct cgroup *parent = cg->parent;

		waitq_release(&cg->events_wq);
		mem_free_kernel(cg, cgroup_size(cg));
		cg = parent;
	}
}

bool cgroup_is_descendant(const struct cgroup *cg, const struct cgroup *ancestor)
{
	while (cg && cg->level > ancestor->level)
		cg = cg->parent;
	return cg == ancestor;
}

/* The deepest group both a and b are in: one walk up, by levels (a guest
 * may nest groups tens of thousands deep). */
static const struct cgroup *common_ancestor(const struct cgroup *a, const struct cgroup *b)
{
	while (a->level > b->level)
		a = a->parent;
	while (b->level > a->level)
		b = b->parent;
	while (a != b) {
		a = a->parent;
		b = b->parent;
	}
	return a;
}

struct cgroup *task_cgroup_ns_root(const struct task *t)
{
	const struct cgroup_ns *ns = (const struct cgroup_ns *)t->nsproxy->ns[NS_CGROUP];

	return ns->root;
}

/* The next group of root's subtree after pos, pre-order (Linux's
 * css_next_descendant_pre): a loop, as a guest may nest groups deep. */
static struct cgroup *next_descendant(struct cgroup *pos, struct cgroup *root)
{
	if (!list_empty(&pos->children))
		return list_first_entry(&pos->children, struct cgroup, sibling);
	for (; pos != root; pos = pos->parent)
		if (pos->sibling.next != &pos->parent->children)
			return list_entry(pos->sibling.next, struct cgroup, sibling);
	return NULL;
}

struct cgroup *cgroup_child(struct cgroup *parent, const char *name)
{
	struct cgroup *c;

	list_for_each_entry(c, &parent->children, sibling)
	{
		if (strcmp(c->name, name) == 0)
			return c;
	}
	return NULL;
}

void cgroup_notify_file(struct cgroup *cg, enum cg_file which)
{
	cg->node[which].seq++;
	waitq_wake_all(&cg->events_wq);
	if (cg->node[which].inode)
		fsnotify_inode(cg->node[which].inode, IN_MODIFY);
}

/* cg's own live processes went from none to some (up) or back: it and
 * the ancestors whose state that changes hear (Linux's
 * cgroup_update_populated). */
static void populated_changed(struct cgroup *cg, bool up)
{
	struct cgroup *p;

	cgroup_notify_events(cg);
	for (p = cg->parent; p; cg = p, p = p->parent) {
		bool was = cgroup_populated(p);

		p->nr_populated_children += up ? 1 : -1;
		if (cgroup_populated(p) == was)
			break;
		cgroup_notify_events(p);
	}
}

/* The CPU time p used since it was last charged goes to its group. */
static void charge(struct process *p)
{
	struct cpu_usage u;

	cputime_process(p, &u);
	p->cgroup->usage_user += u.utime - p->cg_user;
	p->cgroup->usage_sys += u.stime - p->cg_sys;
	p->cg_user = u.utime;
	p->cg_sys = u.stime;
}

/* A removed group that nothing holds any more (no zombie of its own, no
 * dying child: Linux's css refs) is dying no more, and so on up. */
static void dying_check(struct cgroup *cg)
{
	struct cgroup *a;

	for (; cg && cg->dying && cg->nr_proc_refs == 0 && cg->nr_dying_descendants == 0;
	     cg = cg->parent) {
		cg->dying = false;
		for (a = cg->parent; a; a = a->parent)
			a->nr_dying_descendants--;
	}
}

/* A process's reference on cg goes (its move, its reap). */
static void proc_ref_put(struct cgroup *cg)
{
	--cg->nr_proc_refs;
	dying_check(cg);
}

/* The pids controller. */

bool cgroup_thread_root(const struct cgroup *cg)
{
	return cg->nr_procs > 0 && (cg->subtree_control & CGC_PIDS);
}

bool cgroup_valid_domain(const struct cgroup *cg)
{
	for (cg = cg->parent; cg && cg->parent; cg = cg->parent)
		if (cgroup_thread_root(cg))
			return false;
	return true;
}

static struct pids_css root_pids = {
	.cg = &cgroup_root,
	.refs = 1,
	.max = PIDS_MAX,
};

/* The css cg's tasks are charged to: its own, or its nearest ancestor's. */
static struct pids_css *css_of(struct cgroup *cg)
{
	while (!cg->pids)
		cg = cg->parent;
	return cg->pids;
}

static void css_put(struct pids_css *css)
{
	while (css && --css->refs == 0) {
		struct pids_css *parent = css->parent;
		struct cgroup *a;

		if (css->dying)
			for (a = css->cg; a; a = a->parent)
				a->nr_dying_pids--;
		cgroup_put(css->cg);
		free(css);
		css = parent;
	}
}

/* n tasks more or fewer in css and those above it, the root's left out
 * (Linux's pids_charge and pids_uncharge; the peak as it rises). */
static void charge_chain(struct pids_css *css, int64_t n)
{
	for (; css->parent; css = css->parent) {
		css->count += n;
		if (css->count > css->peak)
			css->peak = css->count;
	}
}

/* n live tasks move from css from to css to (Linux's pids_can_attach, a
 * task at a time: charged to the new, then uncharged from the old, so the
 * groups above both see one more for a moment: their peaks). */
static void move_charges(struct pids_css *from, struct pids_css *to, int64_t n)
{
	if (from == to)
		return;
	while (n-- > 0) {
		charge_chain(to, 1);
		charge_chain(from, -1);
	}
}

/* Linux's pids_event: a fork charged to forking refused at over's limit. */
static void pids_event(struct pids_css *forking, struct pids_css *over)
{
	struct pids_css *a;

	if (++forking->forkfail == 1) {
		char *path = cgroup_path_from(forking->cg, &cgroup_root);

		klog(LOG_INFO, "cgroup: fork rejected by pids controller in %s", path ? path : "?");
		free(path);
	}
	if (cgroup_root_flags & CGRP_PIDS_LOCAL_EVENTS) {
		/* pids_localevents: both files count the refused forks */
		cgroup_notify_file(forking->cg, CGF_PIDS_EVENTS_LOCAL);
		cgroup_notify_file(forking->cg, CGF_PIDS_EVENTS);
		return;
	}
	over->events_local++;
	cgroup_notify_file(over->cg, CGF_PIDS_EVENTS_LOCAL);
	for (a = over; a->parent; a = a->parent) {
		a->events++;
		cgroup_notify_file(a->cg, CGF_PIDS_EVENTS);
	}
}

int cgroup_pids_try_charge(struct cgroup *cg)
{
	struct pids_css *css = css_of(cg), *a, *b;

	/* Linux's pids_try_charge: each level charged on the way up, its
	 * peak raised once it has passed */
	for (a = css; a->parent; a = a->parent) {
		if (++a->count > a->max) {
			for (b = css; b != a; b = b->parent)
				b->count--;
			a->count--;
			pids_event(css, a);
			return -EAGAIN;
		}
		if (a->count > a->peak)
			a->peak = a->count;
	}
	return 0;
}

void cgroup_pids_thread(struct process *p)
{
	p->pids_live++;
}

void cgroup_pids_exit(struct process *p)
{
	p->pids_live--;
	charge_chain(css_of(p->cgroup), -1);
}

struct pids_css *cgroup_pids_hold(struct process *p)
{
	struct pids_css *css = css_of(p->cgroup);

	p->pids_live--;
	css->refs++;
	return css;
}

void cgroup_pids_unhold(struct pids_css *css)
{
	charge_chain(css, -1);
	css_put(css);
}

/* The tasks that run in cg and below (live, as Linux's migrations move). */
static int64_t live_tasks_below(struct cgroup *cg)
{
	struct cgroup *pos;
	struct process *p;
	int64_t n = 0;

	for (pos = cg; pos; pos = next_descendant(pos, cg))
		list_for_each_entry(p, &pos->procs, cg_link)
		{
			n += p->pids_live;
		}
	return n;
}

/* cg gets a pids css (kernfs makes its files for c): no limit, no
 * events; the live tasks in it and below move to it from its parent's
 * (Linux's migration to the new css: the peak is their count), those a
 * zombie holds stay where they were charged. */
static void css_attach(struct cgroup *cg, struct pids_css *css)
{
	css->parent = cg->parent->pids;
	css->parent->refs++;
	css->cg = cg;
	cgroup_get(cg);
	css->refs = 1;
	css->max = PIDS_MAX;
	cg->pids = css;
}

static void pids_css_online(struct cgroup *cg, struct pids_css *css, const struct cred *c)
{
	int64_t n;

	css_attach(cg, css);
	n = live_tasks_below(cg);
	move_charges(css->parent, css, n);
	nodes_make(cg, CGF_PIDS_CURRENT, CGF_PIDS_PEAK + 1, 0, c->fsuid, c->fsgid);
}

/* cg's pids css goes (the controller taken back, or the group removed):
 * its live tasks move to the parent's, its files go (open ones read
 * ENODEV), and it is dying while a zombie holds a charge in it. */
static void pids_css_offline(struct cgroup *cg)
{
	struct pids_css *css = cg->pids;
	struct cgroup *a;
	int64_t n;
	int i;

	if (!css)
		return;
	n = live_tasks_below(cg);
	move_charges(css, css->parent, n);
	cg->pids = NULL;
	for (i = CGF_PIDS_CURRENT; i <= CGF_PIDS_PEAK; i++)
		cg->node[i].gen++;
	if (css->refs > 1) {
		css->dying = true;
		for (a = cg; a; a = a->parent)
			a->nr_dying_pids++;
	}
	css_put(css);
}

int cgroup_nr_subsys_pids(struct cgroup *cg)
{
	struct cgroup *pos;
	int n = 0;

	if (!cg->pids)
		return 0;
	for (pos = cg; pos; pos = next_descendant(pos, cg))
		n += pos->pids != NULL;
	return n;
}

static void add_proc(struct process *p, struct cgroup *cg)
{
	bool was = cgroup_populated(cg);

	p->cgroup = cg;
	cg->nr_proc_refs++;
	list_add_tail(&p->cg_link, &cg->procs);
	cg->nr_procs++;
	if (!was)
		populated_changed(cg, true);
}

static void del_proc(struct process *p)
{
	struct cgroup *cg = p->cgroup;

	list_del(&p->cg_link);
	list_init(&p->cg_link);
	if (--cg->nr_procs == 0 && !cgroup_populated(cg))
		populated_changed(cg, false);
}

/* The freezer. */

bool cgroup_task_freezing(const struct task *t)
{
	const struct cgroup *cg = t->proc->cgroup;

	return cg && cg->e_freeze > 0 && !t->killed && !t->proc->exiting;
}

/* Does t count as frozen (Linux: parked in the freezer, or in a stop)? */
static bool task_frozen(const struct task *t)
{
	return t->freeze_parked || t->vfork_waiting || t->stop_parked || t->pt.stopped ||
	       t->state == TASK_DEAD;
}

/* Is every thread of cg and every live child frozen? */
static bool all_frozen(const struct cgroup *cg)
{
	const struct process *p;
	const struct cgroup *c;
	const struct task *t;

	list_for_each_entry(p, &cg->procs, cg_link)
	{
		list_for_each_entry(t, &p->threads, thread_link)
		{
			if (!task_frozen(t))
				return false;
		}
	}
	list_for_each_entry(c, &cg->children, sibling)
	{
		if (!c->frozen)
			return false;
	}
	return true;
}

/* cg's frozen state again, and its ancestors' while it changes. */
static void refresh_frozen(struct cgroup *cg)
{
	for (; cg; cg = cg->parent) {
		bool frozen = cg->e_freeze > 0 && !cg->dead && all_frozen(cg);

		if (frozen == cg->frozen)
			return;
		cg->frozen = frozen;
		cgroup_notify_events(cg);
	}
}

void cgroup_task_frozen_changed(struct task *t)
{
	if (t->proc->cgroup && (t->proc->cgroup->e_freeze > 0 || t->proc->cgroup->frozen))
		refresh_frozen(t->proc->cgroup);
}

/* The threads of p freeze (kicked into the kernel, where they park) or go
 * on (the parked ones woken: they look again). */
static void freeze_process(struct process *p, bool freeze)
{
	struct task *t;

	list_for_each_entry(t, &p->threads, thread_link)
	{
		if (freeze && t != current)
			task_kick(t);
		else if (!freeze && t->freeze_parked)
			sched_wake(t);
	}
}

void cgroup_set_freeze(struct cgroup *cg, int freeze)
{
	struct cgroup *pos, **order = NULL;
	struct process *p;
	size_t n = 0, cap = 0, i;

	if (cg->freeze == freeze)
		return;
	cg->freeze = freeze;
	for (pos = cg; pos; pos = next_descendant(pos, cg)) {
		pos->e_freeze += freeze ? 1 : -1;
		if (pos->e_freeze == (freeze ? 1 : 0))
			list_for_each_entry(p, &pos->procs, cg_link)
			{
				freeze_process(p, freeze);
			}
		if (n == cap) {
			struct cgroup **grown =
				realloc(order, (cap ? 2 * cap : 16) * sizeof(*order));

			if (grown) {
				order = grown;
				cap = cap ? 2 * cap : 16;
			}
		}
		if (n < cap)
			order[n++] = pos;
	}
	/* the states from the leaves up (pre-order backwards), then above */
	for (i = n; i-- > 0;) {
		bool frozen = order[i]->e_freeze > 0 && all_frozen(order[i]);

		if (frozen != order[i]->frozen) {
			order[i]->frozen = frozen;
			cgroup_notify_events(order[i]);
		}
	}
	free(order);
	refresh_frozen(cg->parent);
}

void cgroup_fork(struct process *child, struct cgroup *cg)
{
	cgroup_root_init();
	cgroup_get(cg);
	add_proc(child, cg);
	child->pids_live = 1; /* cgroup_pids_try_charge's */
}

void cgroup_exit(struct process *p)
{
	if (!p->cgroup || list_empty(&p->cg_link))
		return;
	charge(p);
	del_proc(p);
	refresh_frozen(p->cgroup);
}

void cgroup_release(struct process *p)
{
	if (p->cgroup) {
		if (p->leader_pids) {
			cgroup_pids_unhold(p->leader_pids);
			p->leader_pids = NULL;
		}
		if (p->pids_live) {
			charge_chain(css_of(p->cgroup), -p->pids_live);
			p->pids_live = 0;
		}
		if (!list_empty(&p->cg_link))
			del_proc(p);
		proc_ref_put(p->cgroup);
		cgroup_put(p->cgroup);
		p->cgroup = NULL;
	}
}

static void attach(struct process *p, struct cgroup *dst)
{
	struct cgroup *src = p->cgroup;

	if (src == dst)
		return;
	charge(p);
	cgroup_get(dst);
	/* pids_attach: the live tasks, with no limit (an exited leader's
	 * charge stays where it was: Linux moves no exiting task) */
	move_charges(css_of(src), css_of(dst), p->pids_live);
	del_proc(p);
	proc_ref_put(src);
	add_proc(p, dst);
	if ((src->e_freeze > 0) != (dst->e_freeze > 0))
		freeze_process(p, dst->e_freeze > 0);
	refresh_frozen(src);
	refresh_frozen(dst);
	cgroup_put(src);
}

int cgroup_mkdir(struct cgroup *parent, const char *name, uint32_t mode, const struct cred *c,
		 struct cgroup **out)
{
	struct pids_css *css = NULL;
	struct cgroup *cg, *a;
	int level = 0;

	cgroup_root_init();
	if (strchr(name, '\n'))
		return -EINVAL; /* /proc/PID/cgroup must stay a line */
	if (parent->dead)
		return -ENODEV;
	/* Linux's cgroup_check_hierarchy_limits */
	for (a = parent; a; a = a->parent, level++)
		if (a->nr_descendants >= a->max_descendants || level >= a->max_depth)
			return -EAGAIN;
	if ((parent->subtree_control & CGC_PIDS) && !(css = calloc(1, sizeof(*css))))
		return -ENOMEM;
	cg = mem_zalloc_kernel(sizeof(*cg) + strlen(name) + 1);
	if (!cg) {
		free(css);
		return -ENOMEM;
	}
	cg->name = (char *)(cg + 1); /* the name lives after it */
	strcpy(cg->name, name);
	cg->refcount = 1; /* the hierarchy's, until rmdir */
	cg->parent = parent;
	cgroup_get(parent);
	cg->level = parent->level + 1;
	cg->max_descendants = cg->max_depth = INT32_MAX;
	cg->e_freeze = parent->e_freeze; /* empty: frozen at once if so */
	cg->frozen = cg->e_freeze > 0;
	list_init(&cg->children);
	list_init(&cg->procs);
	waitq_init(&cg->events_wq);
	nodes_init(cg, mode, c->fsuid, c->fsgid);
	list_add_tail(&cg->sibling, &parent->children);
	for (a = parent; a; a = a->parent)
		a->nr_descendants++;
	if (css)
		css_attach(cg, css); /* the parent gives pids */
	*out = cg;
	return 0;
}

int cgroup_rmdir(struct cgroup *cg)
{
	struct cgroup *a;

	if (cg == &cgroup_root || cg->dead)
		return -ENOENT;
	if (cgroup_populated(cg) || !list_empty(&cg->children))
		return -EBUSY;
	cg->dead = true;
	list_del(&cg->sibling);
	/* dying while a zombie or a dying child holds it */
	cg->dying = cg->nr_proc_refs > 0 || cg->nr_dying_descendants > 0;
	for (a = cg->parent; a; a = a->parent) {
		a->nr_descendants--;
		a->nr_dying_descendants += cg->dying;
	}
	pids_css_offline(cg);
	/* its CPU time stays counted above it */
	cg->parent->usage_user += cg->usage_user;
	cg->parent->usage_sys += cg->usage_sys;
	cg->usage_user = cg->usage_sys = 0;
	/* open cgroup.events files poll as removed */
	cgroup_notify_events(cg);
	refresh_frozen(cg->parent); /* it may have been the last unfrozen */
	cgroup_put(cg);
	return 0;
}

/* May c write nd (generic_permission's write check on a kernfs node: no
 * ACLs there)? */
static bool may_write(const struct cg_node *nd, const struct cred *c)
{
	uint32_t bits;

	if (nd->uid == c->fsuid)
		bits = nd->mode >> 6;
	else if (in_group(c, nd->gid))
		bits = nd->mode >> 3;
	else
		bits = nd->mode;
	return (bits & 2) || capable_wrt_ids(c, nd->uid, nd->gid, CAP_DAC_OVERRIDE);
}

/* Linux's cgroup_attach_permissions with the groups' only domain kind:
 * credentials c, in the cgroup namespace rooted at root. */
static int attach_permissions(const struct cred *c, const struct cgroup *root, struct cgroup *src,
			      struct cgroup *dst, bool threadgroup)
{
	const struct cgroup *com = common_ancestor(src, dst);

	if (!may_write(&com->node[CGF_PROCS], c))
		return -EACCES;
	if ((cgroup_root_flags & CGRP_NSDELEGATE) &&
	    (!cgroup_is_descendant(src, root) || !cgroup_is_descendant(dst, root)))
		return -ENOENT;
	/* cgroup_migrate_vet_dst: not below a thread root; no processes
	 * beside populated children where controllers are given (pids, a
	 * threaded one, allows them while no child is populated) */
	if (!cgroup_valid_domain(dst))
		return -EOPNOTSUPP;
	if (dst != &cgroup_root && dst->subtree_control && dst->nr_populated_children > 0)
		return -EBUSY;
	if (!threadgroup && src != dst)
		return -EOPNOTSUPP; /* a thread stays in its process's domain */
	return 0;
}

static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

char *cgroup_strip(char *s)
{
	char *e = s + strlen(s);

	while (e > s && is_space(e[-1]))
		*--e = 0;
	while (is_space(*s))
		s++;
	return s;
}

/* Linux's kstrtoll(strstrip(buf), 0): white space around, one sign ('+'
 * or '-'), C's notation (0x hex, 0 octal), nothing else; ERANGE past 64
 * bits or a long long, found before any junk after the digits. */
int cgroup_parse_s64(const char *buf, int64_t *out)
{
	const char *s = buf, *e;
	unsigned base = 10;
	uint64_t v = 0;
	bool neg = false, overflow = false, junk = false;

	while (is_space(*s))
		s++;
	for (e = s + strlen(s); e > s && is_space(e[-1]);)
		e--;
	if (s < e && *s == '-')
		neg = true, s++;
	else if (s < e && *s == '+')
		s++;
	if (e - s >= 3 && s[0] == '0' && (s[1] | 0x20) == 'x') {
		char c = (char)(s[2] | 0x20);

		if ((s[2] >= '0' && s[2] <= '9') || (c >= 'a' && c <= 'f')) {
			base = 16;
			s += 2;
		} else {
			base = 8;
		}
	} else if (s < e && s[0] == '0') {
		base = 8;
	}
	if (s == e)
		return -EINVAL;
	for (; s < e; s++) {
		unsigned d = *s >= '0' && *s <= '9' ? (unsigned)(*s - '0')
			     : (*s | 0x20) >= 'a' && (*s | 0x20) <= 'f'
				     ? (unsigned)((*s | 0x20) - 'a' + 10)
				     : 99;

		if (d >= base) {
			junk = true;
			break;
		}
		if (v > (UINT64_MAX - d) / base)
			overflow = true;
		v = v * base + d;
	}
	if (overflow)
		return -ERANGE;
	if (junk)
		return -EINVAL;
	if (neg ? v > (uint64_t)INT64_MAX + 1 : v > INT64_MAX)
		return -ERANGE;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

int cgroup_parse_max(char *buf, int64_t *out)
{
	buf = cgroup_strip(buf);
	return strcmp(buf, "max") == 0 ? 1 : cgroup_parse_s64(buf, out);
}

/* Linux's kstrtoint(strstrip(buf), 0): kstrtoll's, then ERANGE past an
 * int. */
int cgroup_parse_int(const char *buf, int *out)
{
	int64_t v;
	int ret = cgroup_parse_s64(buf, &v);

	if (ret < 0)
		return ret;
	if (v < INT32_MIN || v > INT32_MAX)
		return -ERANGE;
	*out = (int)v;
	return 0;
}

int cgroup_procs_write(struct task *t, const struct cred *c, const struct cgroup *root,
		       struct cgroup *dst, const char *buf, bool threadgroup)
{
	struct process *p = NULL;
	struct task *target = NULL;
	int pid, ret;

	if (dst->dead)
		return -ENODEV;
	/* cgroup_procs_write_start: any bad number is EINVAL */
	if (cgroup_parse_int(buf, &pid) < 0 || pid < 0)
		return -EINVAL;
	/* any thread's id names it (a thread's, its process for
	 * cgroup.procs), a leader's even once it has exited */
	target = pid ? task_by_vtid(t, pid) : t;
	if (target)
		p = target->proc;
	else if (threadgroup)
		p = process_by_vpid(t, pid);
	if (!p || !p->cgroup)
		return -ESRCH;
	ret = attach_permissions(c, root, p->cgroup, dst, threadgroup);
	if (ret < 0)
		return ret;
	/* an exiting process is left where it is (cgroup_migrate_add_task) */
	if (!p->zombie && !p->exiting && !list_empty(&p->cg_link))
		attach(p, dst);
	return 0;
}

int cgroup_clone_target(struct task *t, int fd, bool thread, struct cgroup **out)
{
	struct file *f = fdget(t->files, fd);
	struct cgroup *dst;
	int ret;

	if (!f)
		return -EBADF;
	dst = cgroupfs_file_cgroup(f);
	if (!dst) {
		file_put(f);
		return -EBADF;
	}
	if (dst->dead) {
		file_put(f);
		return -ENOENT; /* css_tryget_online_from_dir */
	}
	/* cgroup_css_set_fork: the destination's cgroup.procs too */
	ret = may_write(&dst->node[CGF_PROCS], &t->proc->cred) ? 0 : -EACCES;
	if (ret == 0)
		ret = attach_permissions(&t->proc->cred, task_cgroup_ns_root(t), t->proc->cgroup,
					 dst, !thread);
	file_put(f);
	if (ret < 0)
		return ret;
	cgroup_get(dst);
	*out = dst;
	return 0;
}

void cgroup_for_each_proc(struct cgroup *cg, void (*fn)(struct process *p, void *arg), void *arg)
{
	struct process *p, *n;

	list_for_each_entry_safe(p, n, &cg->procs, cg_link)
	{
		fn(p, arg);
	}
}

void cgroup_kill(struct cgroup *cg)
{
	struct cgroup *pos;
	int *pids = NULL, npids = 0, cap = 0, i;
	struct process *p;

	/* the pids first: a signal may end a process, and its group's list */
	for (pos = cg; pos; pos = next_descendant(pos, cg)) {
		list_for_each_entry(p, &pos->procs, cg_link)
		{
			if (npids == cap) {
				int *grown =
					realloc(pids, (size_t)(cap ? 2 * cap : 16) * sizeof(*pids));

				if (!grown)
					break;
				pids = grown;
				cap = cap ? 2 * cap : 16;
			}
			pids[npids++] = p->pid;
		}
	}
	/* as Linux's send_sig(SIGKILL, task, 0): from the writer, whose
	 * permission is the file's, so a namespace's init survives it
	 * unless the writer is above that namespace */
	for (i = 0; i < npids; i++) {
		p = process_by_pid(pids[i]);
		if (p && !p->zombie && !p->exiting)
			send_sig_from_current(p, LINUX_SIGKILL);
	}
	free(pids);
}

void cgroup_cpu_usage(struct cgroup *cg, int64_t *user, int64_t *sys)
{
	struct cgroup *pos;
	struct process *p;

	*user = *sys = 0;
	for (pos = cg; pos; pos = next_descendant(pos, cg)) {
		*user += pos->usage_user;
		*sys += pos->usage_sys;
		list_for_each_entry(p, &pos->procs, cg_link)
		{
			struct cpu_usage u;

			cputime_process(p, &u);
			*user += u.utime - p->cg_user;
			*sys += u.stime - p->cg_sys;
		}
	}
}

/* Linux's cgroup_subtree_control_write with its one controller: tokens
 * "+pids" and "-pids" (the last for it wins); another name, or none, is
 * EINVAL; one not in the group's cgroup.controllers is ENOENT; taking it
 * back while a child gives it on is EBUSY; giving it is EBUSY where the
 * group has processes and a populated child
 * (cgroup_vet_subtree_control_enable). */
int cgroup_subtree_control_write(struct cgroup *cg, char *buf, const struct cred *c)
{
	unsigned enable = 0, disable = 0;
	struct pids_css **csses = NULL;
	struct cgroup *child;
	size_t n = 0, i;
	char *tok;

	buf = cgroup_strip(buf);
	while ((tok = strsep(&buf, " ")) != NULL) {
		if (!*tok)
			continue;
		if (strcmp(tok + 1, "pids") != 0 || (*tok != '+' && *tok != '-'))
			return -EINVAL;
		if (*tok == '+') {
			enable |= CGC_PIDS;
			disable &= ~CGC_PIDS;
		} else {
			disable |= CGC_PIDS;
			enable &= ~CGC_PIDS;
		}
	}
	if (cg->dead)
		return -ENODEV;
	enable &= ~cg->subtree_control;
	disable &= cg->subtree_control;
	if ((enable & CGC_PIDS) && !cg->pids)
		return -ENOENT;
	if (disable)
		list_for_each_entry(child, &cg->children, sibling)
		{
			if (child->subtree_control & disable)
				return -EBUSY;
		}
	if (!enable && !disable)
		return 0;
	if (enable && !cgroup_valid_domain(cg))
		return -EOPNOTSUPP;
	if (enable && cg != &cgroup_root && cg->nr_populated_children > 0 && cg->nr_procs > 0)
		return -EBUSY;
	if (enable) {
		/* every child's css first: ENOMEM changes nothing */
		list_for_each_entry(child, &cg->children, sibling)
		{
			n++;
		}
		csses = calloc(n ? n : 1, sizeof(*csses));
		for (i = 0; csses && i < n; i++)
			if (!(csses[i] = calloc(1, sizeof(**csses))))
				break;
		if (!csses || i < n) {
			while (csses && i-- > 0)
				free(csses[i]);
			free(csses);
			return -ENOMEM;
		}
	}
	cg->subtree_control = (cg->subtree_control | enable) & ~disable;
	i = 0;
	list_for_each_entry(child, &cg->children, sibling)
	{
		if (enable)
			pids_css_online(child, csses[i++], c);
		else
			pids_css_offline(child);
	}
	free(csses);
	return 0;
}

/* Linux's pids_max_write. */
int cgroup_pids_max_write(struct cgroup *cg, char *buf)
{
	int64_t v;
	int ret = cgroup_parse_max(buf, &v);

	if (ret < 0)
		return ret;
	if (ret)
		v = PIDS_MAX;
	else if (v < 0 || v >= PIDS_MAX)
		return -EINVAL;
	if (!cg->pids)
		return -ENODEV;
	cg->pids->max = v;
	return 0;
}

char *cgroup_path_from(const struct cgroup *cg, const struct cgroup *root)
{
	const struct cgroup *com = common_ancestor(cg, root), *a;
	size_t len = 0, at;
	char *buf;

	for (a = root; a != com; a = a->parent)
		len += 3;
	for (a = cg; a != com; a = a->parent)
		len += 1 + strlen(a->name);
	buf = malloc(len + 2);
	if (!buf)
		return NULL;
	if (len == 0) {
		strcpy(buf, "/");
		return buf;
	}
	for (at = 0, a = root; a != com; a = a->parent, at += 3)
		memcpy(buf + at, "/..", 3);
	buf[len] = 0;
	for (a = cg, at = len; a != com; a = a->parent) {
		size_t n = strlen(a->name);

		at -= n;
		memcpy(buf + at, a->name, n);
		buf[--at] = '/';
	}
	return buf;
}

static void cgroup_ns_free(struct ns_common *ns)
{
	struct cgroup_ns *cns = (struct cgroup_ns *)ns;

	cgroup_put(cns->root);
	ns_ino_free(ns->ino);
	free(cns);
}

struct ns_common *cgroup_ns_new(struct task *t)
{
	struct cgroup_ns *cns = ns_alloc(sizeof(*cns), NS_CGROUP, cgroup_ns_free);

	if (!cns)
		return NULL;
	cgroup_root_init();
	cns->root = t->proc->cgroup ? t->proc->cgroup : &cgroup_root;
	cgroup_get(cns->root);
	return &cns->ns;
}

void cgroup_ns_set_root(struct ns_common *ns, struct cgroup *cg)
{
	struct cgroup_ns *cns = (struct cgroup_ns *)ns;

	cgroup_get(cg);
	cgroup_put(cns->root);
	cns->root = cg;
}

void cgroup_apply_root_flags(struct task *t, unsigned flags)
{
	if (t->nsproxy->ns[NS_CGROUP] == &init_cgroup_ns.ns)
		cgroup_root_flags = flags;
}

const char *const cgroup_flag_names[CGRP_NFLAGS] = {
	"nsdelegate",
	"favordynmods",
	"memory_localevents",
	"memory_recursiveprot",
	"memory_hugetlb_accounting",
	"pids_localevents",
};

void cgroup_show_flags(char *buf, size_t n)
{
	size_t at = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < CGRP_NFLAGS; i++)
		if ((cgroup_root_flags & (1u << i)) && at < n)
			at += (size_t)snprintf(buf + at, n - at, ",%s", cgroup_flag_names[i]);
}
