/* kernel/cgroup.h: control groups, version 2 (Linux's cgroup v2 core and
 * its pids controller): a tree of groups, each process in exactly one,
 * moved by a write of its pid to a group's cgroup.procs (fs/cgroupfs shows
 * the tree as the cgroup2 filesystem). A group knows whether it or a
 * descendant holds a live process (populated), its limits on descendants,
 * the CPU time its processes used while in it and the tasks in it and
 * below, which pids.max bounds. A cgroup namespace is rooted at its
 * maker's group. */
#ifndef KERNEL_CGROUP_H
#define KERNEL_CGROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/list.h"
#include "kernel/nsproxy.h"
#include "kernel/sched.h"
#include "abi/linux/types.h"

struct process;
struct task;
struct cred;
struct inode;

/* A group's directory and interface files, in the order a listing gives
 * them (kernfs sorts by name). */
enum cg_file {
	CGF_DIR,
	CGF_CONTROLLERS,
	CGF_EVENTS, /* not on the root */
	CGF_FREEZE, /* not on the root */
	CGF_KILL,   /* not on the root */
	CGF_MAX_DEPTH,
	CGF_MAX_DESCENDANTS,
	CGF_PROCS,
	CGF_STAT,
	CGF_SUBTREE_CONTROL,
	CGF_THREADS,
	CGF_TYPE, /* not on the root */
	CGF_CPU_STAT,
	/* the pids controller's: where the parent's cgroup.subtree_control
	 * has "pids" (never on the root) */
	CGF_PIDS_CURRENT,
	CGF_PIDS_EVENTS,
	CGF_PIDS_EVENTS_LOCAL,
	CGF_PIDS_MAX,
	CGF_PIDS_PEAK,
	CGF_N,
};

/* Controllers (cgroup.controllers, cgroup.subtree_control): pids alone. */
#define CGC_PIDS 1u
/* pids.max's "max": Linux's PIDS_MAX, PID_MAX_LIMIT + 1. */
#define PIDS_MAX (4 * 1024 * 1024 + 1)

/* One node of the filesystem: kernfs's attributes, which chmod, chown and
 * utimensat change (delegation chowns a group's directory and files). */
struct cg_node {
	uint32_t mode, uid, gid; /* uid and gid: the instance's ids */
	struct linux_timespec atime, mtime, ctime;
	uint64_t ino;
	struct inode *inode; /* fs/cgroupfs's while one exists; no reference */
	/* kernfs's event count: each notification (cgroup.events, pids.events)
	 * makes the file's open descriptors poll POLLPRI until read again */
	uint64_t seq;
	/* a controller's file is made again each time the controller is
	 * given to the group: descriptors of an earlier one read ENODEV */
	uint32_t gen;
};

/* A group's pids controller state (Linux's pids_cgroup, a css): made when
 * the parent gives the controller, offline when it takes it back or the
 * group is removed, freed when nothing holds it. Tasks are charged to
 * their group's css, or the nearest above. */
struct pids_css {
	struct pids_css *parent; /* a reference; NULL for the root's */
	struct cgroup *cg;	 /* a reference */
	/* its group's while online, its children's, and one for each
	 * charge held by a task gone but not yet released (a zombie leader,
	 * a traced thread's exit record) */
	int refs;
	bool dying; /* offline (its group's pids is no more it) and held */
	/* tasks charged to it and below (not kept for the root's), the
	 * limit (PIDS_MAX: none), the most it held, and its events */
	int64_t count, max, peak, events, events_local, forkfail;
};

struct cgroup {
	int refcount; /* its parent's link while alive, children, processes, inodes, namespaces */
	struct cgroup *parent;	   /* a reference; NULL for the root */
	struct list_head children; /* live children, by sibling */
	struct list_head sibling;
	struct list_head procs; /* its live processes, by cg_link */
	char *name;		/* stored after the struct */
	int level;
	int nr_procs;		   /* live processes in it */
	int nr_populated_children; /* children that are populated */
	int nr_descendants, nr_dying_descendants;
	int max_descendants, max_depth; /* INT32_MAX: "max" */
	bool dead;			/* removed (rmdir) */
	/* Processes (zombies too) whose group it is: a removed group is
	 * dying (cgroup.stat) while one is left, as their css_set pins
	 * Linux's. */
	int nr_proc_refs;
	bool dying;
	/* The freezer: cgroup.freeze's value, how many of it and its
	 * ancestors ask (Linux's e_freeze), and whether every thread in it
	 * and every descendant is frozen (cgroup.events' "frozen"). */
	int freeze, e_freeze;
	bool frozen;
	/* CPU time charged to it: of processes that left it (exit or a
	 * move) and of removed children (Linux's rstat flushes those). */
	int64_t usage_user, usage_sys;
	/* Controllers given to its children (CGC_*). */
	unsigned subtree_control;
	/* Its pids css while it has the controller (a reference), and the
	 * dying ones (offline, still held) of it and below
	 * (cgroup.stat's nr_dying_subsys_pids). */
	struct pids_css *pids;
	int nr_dying_pids;
	/* its files' pollers (cg_node.seq says which were notified) */
	struct waitq events_wq;
	struct cg_node node[CGF_N];
};

struct cgroup_ns {
	struct ns_common ns;
	struct cgroup *root; /* a reference */
};

extern struct cgroup cgroup_root;
extern struct cgroup_ns init_cgroup_ns;

/* cgroup2's mount options (Linux's CGRP_ROOT_* of the default root); only
 * nsdelegate changes what skas does, the others name controllers' rules
 * and, with no controller, are shown and nothing else. */
enum {
	CGRP_NSDELEGATE = 1 << 0,
	CGRP_FAVOR_DYNMODS = 1 << 1,
	CGRP_MEMORY_LOCAL_EVENTS = 1 << 2,
	CGRP_MEMORY_RECURSIVE_PROT = 1 << 3,
	CGRP_MEMORY_HUGETLB_ACCOUNTING = 1 << 4,
	CGRP_PIDS_LOCAL_EVENTS = 1 << 5,
	CGRP_NFLAGS = 6,
};
/* Their names as mount takes and shows them, by bit. */
extern const char *const cgroup_flag_names[CGRP_NFLAGS];
extern unsigned cgroup_root_flags;
/* A mount or remount's options (Linux's apply_cgroup_root_flags): they
 * replace the hierarchy's when given from the initial cgroup namespace. */
void cgroup_apply_root_flags(struct task *t, unsigned flags);
/* ",nsdelegate,..." as /proc/PID/mounts shows them. */
void cgroup_show_flags(char *buf, size_t n);

/* The root group's nodes (once). */
void cgroup_root_init(void);
void cgroup_get(struct cgroup *cg);
void cgroup_put(struct cgroup *cg);
static inline bool cgroup_populated(const struct cgroup *cg)
{
	return cg->nr_procs > 0 || cg->nr_populated_children > 0;
}
bool cgroup_is_descendant(const struct cgroup *cg, const struct cgroup *ancestor);
/* The group t's cgroup namespace is rooted at. */
struct cgroup *task_cgroup_ns_root(const struct task *t);

/* A new child name of parent made by cred (its directory mode given):
 * -EAGAIN past a limit of an ancestor, -ENODEV if parent was removed,
 * -ENOMEM. */
int cgroup_mkdir(struct cgroup *parent, const char *name, uint32_t mode, const struct cred *c,
		 struct cgroup **out);
/* rmdir: -EBUSY while populated or with children. */
int cgroup_rmdir(struct cgroup *cg);
struct cgroup *cgroup_child(struct cgroup *parent, const char *name);

/* Linux's cgroup_is_thread_root: processes in it, and a threaded
 * controller (pids) given to its children. */
bool cgroup_thread_root(const struct cgroup *cg);
/* Linux's cgroup_is_valid_domain: no thread root above it (but the
 * root): it may hold processes ("domain invalid" otherwise). */
bool cgroup_valid_domain(const struct cgroup *cg);
/* Linux's pids_can_fork: a task to start in cg charged, or -EAGAIN when
 * it or a group above would pass its pids.max (the events count it). */
int cgroup_pids_try_charge(struct cgroup *cg);
/* A new process in cg (fork, or CLONE_INTO_CGROUP's group), its first
 * task charged already. */
void cgroup_fork(struct process *child, struct cgroup *cg);
/* A thread of p made (charged already), or one gone that leaves nothing
 * behind: its charge goes. */
void cgroup_pids_thread(struct process *p);
void cgroup_pids_exit(struct process *p);
/* A task of p gone that stays until it is released (the leader, until
 * the reap or an exec by another thread; a traced thread, until its
 * tracer hears): its charge stays in its css, which the holder keeps
 * until cgroup_pids_unhold. Moves and controller changes leave it. */
struct pids_css *cgroup_pids_hold(struct process *p);
void cgroup_pids_unhold(struct pids_css *css);
/* The last thread of p is gone: it leaves its group's live processes. */
void cgroup_exit(struct process *p);
/* p is freed: its reference goes. */
void cgroup_release(struct process *p);
/* CLONE_INTO_CGROUP: the group of directory fd fd, checked as a move of
 * the caller's process (a thread: of the thread alone) into it; *out gets
 * a reference. */
int cgroup_clone_target(struct task *t, int fd, bool thread, struct cgroup **out);

/* A write of pid (threadgroup: to cgroup.procs; else a tid to
 * cgroup.threads) to dst's file, opened with credentials c in the cgroup
 * namespace rooted at root (Linux checks those, not the writer's: an fd
 * handed to another lends no more than its opener had). */
int cgroup_procs_write(struct task *t, const struct cred *c, const struct cgroup *root,
		       struct cgroup *dst, const char *buf, bool threadgroup);
/* Linux's kstrtoint(strstrip(buf), 0): -EINVAL or -ERANGE. */
int cgroup_parse_int(const char *buf, int *out);
/* cgroup.freeze's write (0 or 1): the threads of cg and its descendants
 * stop where they would next return to their program, or go on. */
void cgroup_set_freeze(struct cgroup *cg, int freeze);
/* Is t's group frozen, so that t parks (signal.c) and its sleeps end? */
bool cgroup_task_freezing(const struct task *t);
/* t parked or left the freezer's park, stopped or ended: its group's
 * frozen state is looked at again. */
void cgroup_task_frozen_changed(struct task *t);
/* cgroup.kill: SIGKILL to every process of cg and its descendants. */
void cgroup_kill(struct cgroup *cg);
/* cpu.stat's times of cg and its descendants (ns). */
void cgroup_cpu_usage(struct cgroup *cg, int64_t *user, int64_t *sys);
/* Calls fn for each live process of cg. */
void cgroup_for_each_proc(struct cgroup *cg, void (*fn)(struct process *p, void *arg), void *arg);

/* The path of cg as a task whose namespace is rooted at root sees it
 * ("/", "/a/b", "/../sib"): Linux's kernfs_path_from_node. malloc'ed,
 * NULL without memory. */
char *cgroup_path_from(const struct cgroup *cg, const struct cgroup *root);

/* A new cgroup namespace rooted at t's group (unshare, clone). */
struct ns_common *cgroup_ns_new(struct task *t);
/* clone3 with CLONE_NEWCGROUP and CLONE_INTO_CGROUP: the child's new
 * namespace is rooted at its group (Linux's cgroup_post_fork). */
void cgroup_ns_set_root(struct ns_common *ns, struct cgroup *cg);

/* A file of cg changed (kernfs_notify): its pollers and inotify watches
 * hear. */
void cgroup_notify_file(struct cgroup *cg, enum cg_file which);
static inline void cgroup_notify_events(struct cgroup *cg)
{
	cgroup_notify_file(cg, CGF_EVENTS);
}
/* cgroup.subtree_control's write by c: "+pids" or "-pids" tokens. */
int cgroup_subtree_control_write(struct cgroup *cg, char *buf, const struct cred *c);
/* pids.max's write: "max" or 0 to PIDS_MAX - 1. */
int cgroup_pids_max_write(struct cgroup *cg, char *buf);
/* cgroup.stat's nr_subsys_pids: cg's live pids csses, its own included
 * (0 without the controller). */
int cgroup_nr_subsys_pids(struct cgroup *cg);
/* A limit file's write: 1 for "max" (white space around), else 0 and
 * kstrtoll's number in *out, or -EINVAL or -ERANGE. */
int cgroup_parse_max(char *buf, int64_t *out);
/* Linux's kstrtoll(buf, 0) of a stripped buffer: -EINVAL or -ERANGE. */
int cgroup_parse_s64(const char *buf, int64_t *out);
/* Linux's strstrip, in place. */
char *cgroup_strip(char *s);
/* The next inode number of the cgroup2 filesystem. */
uint64_t cgroup_next_ino(void);

#endif
