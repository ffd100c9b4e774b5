/* kernel/pidns.h: pid namespaces (Linux's pid_namespace). Inside, the
 * kernel names a process or thread by its instance pid: the number in the
 * instance's namespace, which every task has. A task made in a child
 * namespace also has a number in that one and in each between, from 1
 * there; those are what the guest sees and gives when it lives in one
 * (pid_vnr, process_by_vpid), and /proc mounted there shows. */
#ifndef KERNEL_PIDNS_H
#define KERNEL_PIDNS_H

#include <stdbool.h>

#include "kernel/nsproxy.h"

struct task;
struct process;

#define PIDNS_LEVEL_MAX 32 /* Linux's MAX_PID_NS_LEVEL */

/* Numbers below it are not handed out again once the numbers have passed
 * it (Linux's RESERVED_PIDS: daemons started early keep theirs). */
#define RESERVED_PIDS 300

struct pid_ns {
	struct ns_common ns;
	struct pid_ns *parent; /* a reference; NULL for the instance's */
	int level;	       /* 0 for the instance's */
	int last;	       /* the number handed out last */
	int *map;	       /* number -> instance pid, 0 if free */
	int map_size;	       /* numbers map covers (grown as needed) */
	int nr_pids;	       /* numbers in use */
	/* Its init (number 1) while it lives; reaper_gone once it has died:
	 * then no number is handed out any more (fork is ENOMEM). */
	struct process *reaper;
	bool reaper_gone;
};

extern struct pid_ns init_pid_ns;

/* A new namespace whose parent is for_children (the caller's
 * pid_for_children), as Linux's copy_pid_ns: -EINVAL unless that is the
 * caller's own active one (active), -ENOSPC past PIDNS_LEVEL_MAX levels,
 * -ENOMEM. */
int pid_ns_new(struct ns_common *for_children, struct pid_ns *active, struct ns_common **out);
/* Numbers for the new instance pid pid in ns and each namespace between
 * it and the instance's: 0, -ENOMEM (ns's init is gone) or -EAGAIN (no
 * free number). */
int pidns_assign(int pid, struct pid_ns *ns);
/* pid is no longer used by a task, process, group or session: its
 * numbers go back. */
void pidns_release(int pid);
/* The namespace pid was made in (the deepest that numbers it). */
struct pid_ns *pid_ns_of(int pid);
/* pid's number in ns; 0 if ns does not see it (pid made in an ancestor
 * or a namespace beside it, or 0 itself). */
int pid_nr_ns(int pid, const struct pid_ns *ns);
/* The instance pid of number nr in ns; 0 if none. */
int pid_from_nr(const struct pid_ns *ns, int nr);
/* Is ns the same as or a descendant of anc? */
bool pid_ns_within(const struct pid_ns *ns, const struct pid_ns *anc);

/* t's active namespace (its own pid's; not pid_for_children). */
struct pid_ns *task_pid_ns(const struct task *t);
/* pid as t sees it (0: outside its namespace). */
int pid_vnr(const struct task *t, int pid);
/* What t names nr in its namespace; NULL if none. */
struct process *process_by_vpid(const struct task *t, int nr);
struct task *task_by_vtid(const struct task *t, int nr);
/* Is p its namespace's init, which signals from inside reach only through
 * a handler (Linux's SIGNAL_UNKILLABLE)? */
bool process_is_ns_init(const struct process *p);

#endif
