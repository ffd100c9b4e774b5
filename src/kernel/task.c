/* kernel/task.c: the tables of tasks and processes by instance pid (the
 * numbers of the instance's pid namespace; child namespaces' numbers are
 * kernel/pidns.c's), and the first process. The first program is pid 1:
 * its parent is 0, its death ends the instance, and signals whose action
 * is the default do not reach it from inside (as for the init of a Linux
 * pid namespace). */
#include <stdlib.h>
#include <string.h>

#include "kernel/task.h"
#include "kernel/cgroup.h"
#include "kernel/coredump.h"
#include "kernel/nsproxy.h"
#include "kernel/pidns.h"
#include "kernel/seccomp.h"
#include "kernel/exec.h"
#include "kernel/run.h"
#include "kernel/sched.h"
#include "kernel/log.h"
#include "mm/mm.h"
#include "mm/memfd.h"
#include "mm/mempolicy.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "fs/hostfs/hostfs.h"
#include "tty/console.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/types.h"

static struct task *tasks[PID_MAX];	   /* by tid */
static struct process *processes[PID_MAX]; /* by pid, zombies included */
/* The same processes by all_link, in ascending pid order: what walks every
 * process (signals to a group, orphaned-group checks, /proc) goes through
 * the few processes there are, not the PID_MAX slots. */
static LIST_HEAD_DECL(all_processes);
static int ntasks;
static int pids_max = 4096;
/* How many registered processes (zombies included) have each id as their
 * process group and as their session: such an id is not handed out again.
 * Kept as processes come and go and change groups (pid_alloc was a scan of
 * every process per candidate). */
static uint32_t pgrp_refs[PID_MAX];
/* Other holders of an id (pid_pin): a tracer's record of a thread gone. */
static uint32_t pid_pins[PID_MAX];

static bool pid_in_use(int pid)
{
	/* A live process group or session keeps its id. */
	return tasks[pid] || processes[pid] || pgrp_refs[pid] || pid_pins[pid];
}

void pid_pin(int pid)
{
	if (pid > 0 && pid < PID_MAX)
		pid_pins[pid]++;
}

void pid_unpin(int pid)
{
	if (pid > 0 && pid < PID_MAX && pid_pins[pid] > 0) {
		pid_pins[pid]--;
		pid_release_unused(pid);
	}
}

void pid_release_unused(int pid)
{
	if (pid > 0 && pid < PID_MAX && !pid_in_use(pid))
		pidns_release(pid);
}

static void pgrp_ref_ids(int pgid, int sid, int delta)
{
	if (pgid > 0 && pgid < PID_MAX)
		pgrp_refs[pgid] += delta;
	if (sid > 0 && sid < PID_MAX)
		pgrp_refs[sid] += delta;
	if (delta < 0) {
		pid_release_unused(pgid);
		pid_release_unused(sid);
	}
}

static void pgrp_ref(struct process *p, int delta)
{
	pgrp_ref_ids(p->pgid, p->sid, delta);
}

void process_set_pgrp(struct process *p, int pgid, int sid)
{
	bool registered = process_by_pid(p->pid) == p;
	int old_pgid = p->pgid, old_sid = p->sid;

	p->pgid = pgid;
	p->sid = sid;
	/* the new ids held before the old let go: an id kept by p alone
	 * (its group, which it joins again) keeps its numbers */
	if (registered) {
		pgrp_ref(p, 1);
		pgrp_ref_ids(old_pgid, old_sid, -1);
	}
}
int init_status = -1;

int task_pids_max(void)
{
	return pids_max;
}

int task_count(void)
{
	return ntasks;
}

static int count_tasks(bool uninterruptible)
{
	struct process *p;
	struct task *t;
	int n = 0;

	for (p = process_next(NULL); p; p = process_next(p)) {
		list_for_each_entry(t, &p->threads, thread_link)
		{
			if (t->state != TASK_SLEEPING ? t->state != TASK_DEAD
						      : uninterruptible && t->vfork_waiting)
				n++;
		}
	}
	return n;
}

int task_nr_active(void)
{
	return count_tasks(false);
}

int task_nr_load(void)
{
	return count_tasks(true);
}

int task_init_status(void)
{
	return init_status;
}

bool tasks_limit_reached(void)
{
	return ntasks >= pids_max;
}

struct task *task_by_tid(int tid)
{
	return tid > 0 && tid < PID_MAX ? tasks[tid] : NULL;
}

struct process *process_by_pid(int pid)
{
	return pid > 0 && pid < PID_MAX ? processes[pid] : NULL;
}

void for_each_process(void (*fn)(struct process *p, void *arg), void *arg)
{
	struct process *p, *n;

	list_for_each_entry_safe(p, n, &all_processes, all_link)
	{
		if (!p->zombie)
			fn(p, arg);
	}
}

struct process *process_next(struct process *p)
{
	struct list_head *next = p ? p->all_link.next : all_processes.next;

	return next == &all_processes ? NULL : list_entry(next, struct process, all_link);
}

/* Into all_processes by pid: new pids are mostly the highest, so the walk
 * from the tail is short. */
static void all_processes_add(struct process *p)
{
	struct list_head *pos = all_processes.prev;

	while (pos != &all_processes && list_entry(pos, struct process, all_link)->pid > p->pid)
		pos = pos->prev;
	list_add(&p->all_link, pos);
}

struct pgrp_scan {
	int pgid;
	const struct process *ignore;
	bool orphaned, stopped;
};

static void pgrp_scan_cb(struct process *p, void *arg)
{
	struct pgrp_scan *c = arg;
	struct process *parent = p->parent;

	if (p->pgid != c->pgid || p->exiting || p == c->ignore)
		return;
	if (p->stopped)
		c->stopped = true;
	if (parent && parent != c->ignore && parent->pgid != c->pgid && parent->sid == p->sid)
		c->orphaned = false;
}

/* Orphaned (POSIX): no member, leaving out ignore, has a parent in another
 * group of the same session. *stopped: has it a stopped member. */
bool pgrp_is_orphaned(int pgid, const struct process *ignore, bool *stopped)
{
	struct pgrp_scan c = { pgid, ignore, true, false };

	for_each_process(pgrp_scan_cb, &c);
	if (stopped)
		*stopped = c.stopped;
	return c.orphaned;
}

int pid_alloc(struct pid_ns *ns)
{
	int i, pid = init_pid_ns.last, ret;
	int wrap = pid + 1 > RESERVED_PIDS ? RESERVED_PIDS : 2; /* Linux's alloc_pid */

	for (i = 1; i < PID_MAX; i++) {
		pid = pid + 1 >= PID_MAX ? wrap : pid + 1;
		if (!pid_in_use(pid) && pid_ns_of(pid) == &init_pid_ns) {
			ret = pidns_assign(pid, ns);
			if (ret < 0)
				return ret;
			init_pid_ns.last = pid;
			return pid;
		}
	}
	return -EAGAIN;
}

void pid_free(int pid)
{
	if (pid > 0 && pid < PID_MAX && processes[pid]) {
		struct process *p = processes[pid];

		processes[pid] = NULL;
		list_del(&p->all_link);
		pgrp_ref(p, -1);
		pid_release_unused(pid);
	}
}

void task_take_tid(struct task *t, int tid)
{
	int old = t->tid;

	if (tasks[old] == t)
		tasks[old] = NULL;
	t->tid = tid;
	tasks[tid] = t;
	pid_release_unused(old);
}

void task_register(struct task *t)
{
	tasks[t->tid] = t;
	t->start_ns = sched_now_ns();
	if (t->proc->pid == t->tid && processes[t->tid] != t->proc) {
		struct pid_ns *ns = pid_ns_of(t->tid);

		t->proc->start_ns = t->start_ns;
		processes[t->tid] = t->proc;
		all_processes_add(t->proc);
		pgrp_ref(t->proc, 1);
		if (ns->level && pid_nr_ns(t->tid, ns) == 1)
			ns->reaper = t->proc; /* the first of a new namespace: its init */
	}
	ntasks++;
}

/* Called by the scheduler once it has left t's stack for good. */
void task_free(struct task *t)
{
	if (t->thread)
		platform->thread_put(t->thread);
	mm_put(t->mm);
	files_put(t->files);
	fs_info_put(t->fs);
	nsproxy_put(t->nsproxy);
	kstack_free(&t->kstack);
	if (tasks[t->tid] == t) {
		tasks[t->tid] = NULL;
		pid_release_unused(t->tid);
	}
	free(t->trace_buf);
	task_seccomp_release(t);
	mpol_put(t->mempolicy);
	free(t);
	ntasks--;
}

static struct process *process_new(int pid)
{
	struct process *p = calloc(1, sizeof(*p));
	int i;

	if (!p)
		return NULL;
	p->pid = p->pgid = p->sid = pid;
	list_init(&p->children);
	list_init(&p->sibling);
	list_init(&p->threads);
	list_init(&p->all_link);
	list_init(&p->cg_link);
	waitq_init(&p->wait_chld);
	waitq_init(&p->exit_wait);
	waitq_init(&p->core_wait);
	waitq_init(&p->signalfd_wq);
	list_init(&p->ptimers);
	p->exit_signal = LINUX_SIGCHLD;
	p->umask = 022;
	p->coredump_filter = COREDUMP_FILTER_DEFAULT;
	for (i = 0; i < NRLIMITS; i++)
		p->rlim[i].rlim_cur = p->rlim[i].rlim_max = LINUX_RLIM_INFINITY;
	p->rlim[LINUX_RLIMIT_STACK].rlim_cur = 8UL << 20;
	p->rlim[LINUX_RLIMIT_NOFILE].rlim_cur = 1024;
	p->rlim[LINUX_RLIMIT_NOFILE].rlim_max = 1024 * 1024;
	p->rlim[LINUX_RLIMIT_CORE].rlim_cur = 0;
	p->rlim[LINUX_RLIMIT_NPROC].rlim_cur = p->rlim[LINUX_RLIMIT_NPROC].rlim_max = pids_max;
	p->rlim[LINUX_RLIMIT_SIGPENDING].rlim_cur = p->rlim[LINUX_RLIMIT_SIGPENDING].rlim_max =
		4096;
	p->rlim[LINUX_RLIMIT_MEMLOCK].rlim_cur = p->rlim[LINUX_RLIMIT_MEMLOCK].rlim_max = 8UL << 20;
	p->rlim[LINUX_RLIMIT_MSGQUEUE].rlim_cur = p->rlim[LINUX_RLIMIT_MSGQUEUE].rlim_max = 819200;
	p->rlim[LINUX_RLIMIT_NICE].rlim_cur = p->rlim[LINUX_RLIMIT_NICE].rlim_max = 0;
	p->rlim[LINUX_RLIMIT_RTPRIO].rlim_cur = p->rlim[LINUX_RLIMIT_RTPRIO].rlim_max = 0;
	return p;
}

struct process *process_alloc(int pid)
{
	return process_new(pid);
}

/* Guest fds 0, 1, 2 are the host's (hostfs_stdio: the kernel keeps its
 * own), or the console (tty/console.c), which becomes the controlling terminal
 * of t's session. */
static int install_stdio(struct task *t)
{
	struct files *files = t->files;
	int fd, ret;

	for (fd = 0; fd < 3; fd++) {
		struct file *f;

		if (console_is_stdio(fd)) {
			ret = console_stdio_file(t, &f);
			if (ret == 0)
				ret = fd_install_at(files, fd, f, false);
			if (ret < 0)
				return ret;
			continue;
		}
		ret = hostfs_stdio(fd, &f);
		if (ret == -EBADF)
			continue; /* closed on the host: closed in the guest */
		if (ret < 0)
			return ret;
		ret = fd_install_at(files, fd, f, false);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int task_start_init(const struct init_config *cfg)
{
	struct strv argv = { 0 }, envp = { 0 };
	struct pf_regs regs;
	struct pf_thread *th;
	struct file *image = NULL;
	struct mm *mm = NULL;
	struct task *t;
	int i, ret;

	if (cfg->pids_max > 0)
		pids_max = cfg->pids_max < PID_MAX - 1 ? cfg->pids_max : PID_MAX - 1;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->tid = 1;
	init_pid_ns.last = 1;
	t->state = TASK_SLEEPING;
	t->timer_slack_ns = t->default_timer_slack_ns = 50000; /* Linux's init_task */
	t->loginuid = t->sessionid = 0xffffffffU;	       /* unset */
	t->mce_kill = 2;				       /* PR_MCE_KILL_DEFAULT */
	list_init(&t->run_link);
	ptrace_task_init(t);
	t->proc = process_new(1);
	if (!t->proc) {
		free(t);
		return -ENOMEM;
	}
	list_add_tail(&t->thread_link, &t->proc->threads);
	t->proc->nthreads = 1;
	cgroup_root_init();
	(void)cgroup_pids_try_charge(&cgroup_root); /* the root's: no limit */
	cgroup_fork(t->proc, &cgroup_root);
	if (cfg->nofile > 0)
		t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur =
			t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_max = (uint64_t)cfg->nofile;
	task_register(t);
	cred_init(&t->proc->cred, cfg->uid, cfg->gid);
	t->nsproxy = nsproxy_initial();
	ret = fs_info_create(cfg->root, cfg->root, &t->fs);
	if (ret < 0)
		goto fail;
	vfs_chdir(t, LINUX_AT_FDCWD, cfg->cwd); /* stays at / if it cannot */
	ret = files_create(&t->files);
	if (ret < 0)
		goto fail;
	ret = install_stdio(t);
	if (ret < 0)
		goto fail;
	for (i = 0; cfg->argv[i]; i++)
		if ((ret = strv_push(&argv, cfg->argv[i])) < 0)
			goto fail;
	for (i = 0; cfg->envp[i]; i++)
		if ((ret = strv_push(&envp, cfg->envp[i])) < 0)
			goto fail;
	if (cfg->image) {
		struct path img;

		ret = memfd_image(t, cfg->path, cfg->image, cfg->image_len, &img);
		if (ret == 0) {
			ret = vfs_open_exec_found(t, &img, &image);
			path_put(&img);
		}
		if (ret < 0)
			goto fail;
	}
	ret = exec_load(t, LINUX_AT_FDCWD, cfg->path, 0, image, &argv, &envp, &mm, &th, &regs,
			&t->proc->cred);
	if (ret == EXEC_FATAL) /* mapped, then failed: no image to kill */
		ret = -ENOEXEC;
	if (ret < 0)
		goto fail;
	ret = exec_switch(t, mm, th, &regs);
	if (ret < 0) {
		mm_put(mm);
		goto fail;
	}
	set_comm(t, cfg->path);
	ret = kstack_init(&t->kstack, task_main, t);
	if (ret < 0)
		goto fail;
	strv_free(&argv);
	strv_free(&envp);
	sched_add(t);
	return 0;
fail:
	strv_free(&argv);
	strv_free(&envp);
	pid_free(1);
	cgroup_release(t->proc); /* the next try starts its own */
	free(t->proc);
	task_free(t);
	return ret;
}

void set_comm(struct task *t, const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	memset(t->comm, 0, sizeof(t->comm));
	strncpy(t->comm, base, sizeof(t->comm) - 1);
}
