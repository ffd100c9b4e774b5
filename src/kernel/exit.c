/* kernel/exit.c: threads and processes ending, zombies, reparenting and
 * wait4/waitid (exits, and stops and continues for WUNTRACED/WCONTINUED).
 * When pid 1 ends, every other process of the instance is killed and the
 * instance is over; reboot ends it so. The init of a child pid namespace
 * ends its namespace so (pid_ns_zap). */
#include <stdlib.h>
#include <string.h>

#include "kernel/task.h"
#include "kernel/cgroup.h"
#include "kernel/cpus.h"
#include "kernel/nsproxy.h"
#include "kernel/pidns.h"
#include "kernel/userns.h"
#include "kernel/log.h"
#include "kernel/futex.h"
#include "kernel/ptimer.h"
#include "kernel/coredump.h"
#include "syscalls/dispatch.h"
#include "mm/mm.h"
#include "mm/usercopy.h"
#include "vfs/file.h"
#include "vfs/iov.h"
#include "vfs/namei.h"
#include "tty/tty.h"
#include "ipc/ipc.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"
#include "abi/linux/types.h"
#include "abi/linux/ptrace.h"

extern int init_status;

void task_kick(struct task *t)
{
	if (t->state == TASK_USER && t->thread)
		platform->interrupt(t->thread);
	else if (t->state == TASK_SLEEPING)
		sched_wake(t);
}

void process_kill(struct process *p, int wait_status)
{
	struct task *t;

	if (p->exiting || p->zombie)
		return;
	p->exiting = true;
	p->exit_code = wait_status;
	list_for_each_entry(t, &p->threads, thread_link)
	{
		t->killed = true;
		if (t != current)
			task_kick(t);
	}
}

static void kill_all_cb(struct process *p, void *arg)
{
	(void)arg;
	if (p->pid != 1)
		process_kill(p, LINUX_SIGKILL);
}

static void release_process(struct process *p);

/* The closest ancestor in p's pid namespace that is a subreaper, else
 * that namespace's init (p itself when it is that init). */
static struct process *find_reaper(struct process *p)
{
	struct pid_ns *ns = pid_ns_of(p->pid);
	struct process *a;

	for (a = p->parent; a && pid_ns_of(a->pid) == ns; a = a->parent)
		if (a->subreaper && !a->exiting && !a->zombie)
			return a;
	return ns == &init_pid_ns ? process_by_pid(1) : ns->reaper;
}

/* Is anything of ns left but its init? */
static bool pid_ns_others(struct pid_ns *ns)
{
	struct process *q;

	for (q = process_next(NULL); q; q = process_next(q))
		if (q != ns->reaper && pid_ns_within(pid_ns_of(q->pid), ns))
			return true;
	return false;
}

/* The init p of a child pid namespace ends, as Linux's
 * zap_pid_ns_processes: no process can enter any more, everything in it
 * (and below) is killed, and p waits, reaping its children, until the
 * others' parents outside have reaped theirs: only then does p's parent
 * hear of its end. */
static void pid_ns_zap(struct process *p, struct pid_ns *ns)
{
	struct process *q, *n;
	struct cpu_usage ru;

	p->exiting = true; /* its exit code is final: a kill or an attach leaves it */
	ns->reaper_gone = true;
	for (q = process_next(NULL); q; q = process_next(q))
		if (q != p && pid_ns_within(pid_ns_of(q->pid), ns))
			process_kill(q, LINUX_SIGKILL);
	for (;;) {
		list_for_each_entry_safe(q, n, &p->children, sibling)
		{
			if (q->zombie && !q->tracer_exit) {
				cputime_reap(p, q, &ru);
				release_process(q);
			}
		}
		if (!pid_ns_others(ns))
			break;
		waitq_sleep(&p->wait_chld);
	}
}

static void release_process(struct process *p)
{
	struct pid_ns *ns;

	/* a dying init of a namespace above waits for p to go; a dead init
	 * is no reaper any more (its number may outlive it as a group's) */
	for (ns = pid_ns_of(p->pid); ns->level; ns = ns->parent)
		if (ns->reaper == p)
			ns->reaper = NULL;
		else if (ns->reaper_gone && ns->reaper)
			waitq_wake_all(&ns->reaper->wait_chld);
	ptrace_process_release(p);
	itimer_exit(p);
	ptimer_exit(p);
	signal_flush_process(p);
	list_del(&p->sibling);
	pid_free(p->pid);
	cgroup_release(p); /* release_task's: its charge, its group */
	p->reaped = true;
	waitq_wake_all(&p->exit_wait);
	/* Signalfd items of epolls outside hang on it (Linux's
	 * signalfd_cleanup). */
	waitq_release(&p->signalfd_wq);
	if (p->pidfd_refs > 0)
		return; /* the last pidfd frees it */
	process_free(p);
}

void process_free(struct process *p)
{
	cgroup_release(p);
	free(p->cred.groups);
	cred_put_ns(&p->cred);
	free(p);
}

void process_pidfd_put(struct process *p)
{
	if (--p->pidfd_refs == 0 && p->reaped)
		process_free(p);
}

/* Tells the parent; a parent that ignores SIGCHLD reaps at once. */
static void notify_parent(struct process *p)
{
	struct process *parent = p->parent;
	const struct linux_sigaction *sa;

	if (!parent) {
		release_process(p);
		return;
	}
	sa = &parent->sigactions[LINUX_SIGCHLD - 1];
	if (p->exit_signal == LINUX_SIGCHLD &&
	    (sa->handler == LINUX_SIG_IGN || (sa->flags & LINUX_SA_NOCLDWAIT))) {
		release_process(p);
		waitq_wake_all(&parent->wait_chld);
		return;
	}
	if (p->exit_signal > 0) {
		struct linux_siginfo si;
		struct cpu_usage u;

		memset(&si, 0, sizeof(si));
		si.si_signo = p->exit_signal;
		/* as the parent sees it */
		si.fields.sigchld.pid = pid_nr_ns(p->pid, pid_ns_of(parent->pid));
		si.fields.sigchld.uid = from_kuid_munged(cred_user_ns(&parent->cred), p->cred.uid);
		cputime_process(p, &u); /* in clock ticks (USER_HZ 100) */
		si.fields.sigchld.utime = u.utime / 10000000;
		si.fields.sigchld.stime = u.stime / 10000000;
		if ((p->exit_code & 0x7f) == 0) {
			si.si_code = LINUX_CLD_EXITED;
			si.fields.sigchld.status = (p->exit_code >> 8) & 0xff;
		} else {
			si.si_code = (p->exit_code & 0x80) ? LINUX_CLD_DUMPED : LINUX_CLD_KILLED;
			si.fields.sigchld.status = p->exit_code & 0x7f;
		}
		send_signal_info(parent, NULL, p->exit_signal, &si);
	}
	waitq_wake_all(&parent->wait_chld);
}

static void pgrp_signal_cb(struct process *p, void *arg)
{
	const int *pgid = arg;

	if (p->pgid == *pgid && !p->exiting) {
		send_signal(NULL, p, LINUX_SIGHUP);
		send_signal(NULL, p, LINUX_SIGCONT);
	}
}

/* POSIX: a process group that becomes orphaned with a stopped member gets
 * SIGHUP then SIGCONT (nobody in its session could continue it any more).
 * As Linux's kill_orphaned_pgrp: p's exit may orphan its own group (p's
 * parent is in another group of the session: p is left out of the count),
 * or a child's group (p was the child's link outside it: counted after the
 * child has its new parent). */
static void orphaned_pgrp_check(struct process *p, struct process *member)
{
	struct process *parent = member == p ? p->parent : p;
	bool stopped;
	int pgid = member->pgid;

	if (!parent || parent->pgid == pgid || parent->sid != member->sid)
		return;
	if (!pgrp_is_orphaned(pgid, member == p ? p : NULL, &stopped) || !stopped)
		return;
	for_each_process(pgrp_signal_cb, &pgid);
}

/* A thread of p to be its children's parent thread: one not on its way
 * out (Linux's find_alive_thread), else 0. */
static int alive_tid(struct process *p)
{
	struct task *o;

	list_for_each_entry(o, &p->threads, thread_link)
	{
		if (!o->killed)
			return o->tid;
	}
	return 0;
}

/* c's parent thread is gone: each of c's threads that asked for a
 * parent-death signal sends it to c, as Linux's forget_original_parent. */
static void send_pdeath_signals(struct process *c)
{
	struct task *ct;

	if (c->zombie)
		return;
	list_for_each_entry(ct, &c->threads, thread_link)
	{
		if (ct->pdeath_signal)
			send_signal(NULL, c, ct->pdeath_signal);
	}
}

/* Thread t of a process that lives on exits: the children it forked get
 * another of its threads as their parent, and their death signal
 * (PR_SET_PDEATHSIG is about the parent thread, as in Linux). */
static void reparent_to_thread(struct task *t)
{
	struct process *c, *p = t->proc;
	int tid = alive_tid(p);

	list_for_each_entry(c, &p->children, sibling)
	{
		if (c->parent_tid != t->tid)
			continue;
		/* the whole process is going: process_finish signals once */
		c->parent_tid =
			tid ? tid : list_first_entry(&p->threads, struct task, thread_link)->tid;
		if (tid)
			send_pdeath_signals(c);
	}
}

void children_take_tid(struct process *p, int old_tid, int tid)
{
	struct process *c;

	list_for_each_entry(c, &p->children, sibling)
	{
		if (c->parent_tid == old_tid)
			c->parent_tid = tid;
	}
}

/* The last thread of p is gone. */
static void process_finish(struct process *p)
{
	struct process *c, *n, *reaper;
	struct pid_ns *ns = pid_ns_of(p->pid);
	int reaper_tid;

	if (ns->level && ns->reaper == p)
		pid_ns_zap(p, ns);
	orphaned_pgrp_check(p, p);

	if (p->sid == p->pid)
		tty_session_leader_exit(p); /* its terminal's foreground: SIGHUP */
	p->zombie = true;
	cgroup_exit(p);		       /* its group is populated no more by it */
	waitq_wake_all(&p->exit_wait); /* pidfds poll readable */
	itimer_exit(p);		       /* an alarm pending now never fires */
	ptimer_exit(p);
	signal_flush_process(p);
	if (p->pid == 1) {
		init_status = p->exit_code;
		for_each_process(kill_all_cb, NULL);
	}
	reaper = find_reaper(p);
	reaper_tid = reaper && reaper != p ? alive_tid(reaper) : 0;
	if (reaper && !reaper_tid)
		reaper_tid = reaper->pid;
	list_for_each_entry_safe(c, n, &p->children, sibling)
	{
		list_del(&c->sibling);
		if (!reaper || reaper == p) {
			c->parent = NULL;
			if (c->zombie)
				release_process(c);
			continue;
		}
		c->parent = reaper;
		c->parent_tid = reaper_tid;
		list_add_tail(&c->sibling, &reaper->children);
		if (c->zombie && !c->tracer_exit)
			notify_parent(c);
		else if (!c->zombie)
			orphaned_pgrp_check(p, c);
		send_pdeath_signals(c);
	}
	if (!ptrace_process_gone(p))
		notify_parent(p);
}

void process_tracer_done(struct process *p, struct process *tracer, bool reaped)
{
	struct cpu_usage u;

	/* The tracer is its parent by now (a subreaper took it in): its wait
	 * was the reap (Linux's wait_task_zombie, not ptrace_reparented);
	 * its tracing thread gone, its other threads find the zombie. */
	if (p->parent && p->parent == tracer) {
		if (reaped) {
			cputime_reap(p->parent, p, &u);
			release_process(p);
		} else {
			waitq_wake_all(&tracer->wait_chld);
		}
		return;
	}
	notify_parent(p);
}

static void clear_child_tid(struct task *t)
{
	uint32_t zero = 0;

	if (!t->clear_child_tid || !t->mm || t->mm->refcount <= 1)
		return;
	if (copy_to_user(t->mm, t->clear_child_tid, &zero, sizeof(zero)) == 0)
		futex_wake_addr(t->mm, t->clear_child_tid, 1);
}

/* A dying thread's robust futex (Linux's handle_futex_death): one it
 * holds gets OWNER_DIED (its FUTEX_WAITERS kept), by cmpxchg as the other
 * threads run; a plain one's waiter is woken, a PI one's gets the lock
 * from futex_pi_release. A pending plain one already unlocked (TID 0)
 * wakes a waiter too: the unlocker may have died before its wake.
 * -EFAULT for a word it cannot reach (misaligned, unmapped), which ends
 * the list's walk. */
static int futex_death(struct task *t, uaddr_t uaddr, bool pi, bool pending)
{
	uint32_t val, cur, nv;
	int tries, ret;

	for (tries = 0; tries < 16; tries++) {
		if ((uaddr & 3) || copy_from_user(t->mm, &val, uaddr, sizeof(val)) < 0)
			return -EFAULT;
		if (pending && !pi && !(val & LINUX_FUTEX_TID_MASK)) {
			futex_wake_addr(t->mm, uaddr, 1);
			return 0;
		}
		/* the guest's number for it */
		if ((val & LINUX_FUTEX_TID_MASK) != (uint32_t)pid_vnr(t, t->tid))
			return 0;
		nv = (val & LINUX_FUTEX_WAITERS) | LINUX_FUTEX_OWNER_DIED;
		ret = cmpxchg_user32(t->mm, uaddr, val, nv, &cur);
		if (ret == -EFAULT)
			return ret;
		if (ret == 0 && cur == val)
			break;
	}
	if (tries < 16 && !pi && (val & LINUX_FUTEX_WAITERS))
		futex_wake_addr(t->mm, uaddr, 1);
	return 0;
}

/* Whether a write to t's memory could still be seen once t is gone:
 * another user of its mm (a thread, a vfork child, CLONE_VM), or a shared
 * mapping (a robust futex there is other processes' too). Else its
 * robust list is not read at all (a host call at each exit). */
static bool mm_outlives(struct task *t)
{
	struct vma *v;

	if (t->mm->refcount > 1)
		return true;
	list_for_each_entry(v, &t->mm->vmas, link) if (v->flags & VMA_SHARED) return true;
	return false;
}

static void exit_robust_list(struct task *t)
{
	struct linux_robust_list_head head;
	uint64_t entry, next, pending, mark;
	int limit = 2048, power = 1, steps = 0;
	bool pi;

	if (!t->robust_list || !t->mm || !mm_outlives(t) ||
	    copy_from_user(t->mm, &head, t->robust_list, sizeof(head)) < 0)
		return;
	/* Each pointer's low bit says the futex it leads to is PI. */
	pending = head.list_op_pending & ~1ULL;
	entry = head.list_next & ~1ULL;
	pi = head.list_next & 1;
	/* A list that loops without coming back to its head: Linux walks
	 * it to the limit, each entry after its first visit a word no longer
	 * the thread's (nothing done). Each step here is a host call, so the
	 * walk ends once it is back at an entry it has seen (Brent's cycle
	 * finding: mark moves to the walk's place at each power of two; a
	 * meeting is one whole turn of the loop). A self-loop of stress-ng's
	 * cost 4096 host calls a thread exit. */
	mark = entry;
	/* As Linux: an entry whose next cannot be read is still done, and a
	 * fault on either ends the walk, the pending one left as it is. */
	while (entry != t->robust_list && limit-- > 0) {
		bool bad_next = copy_from_user(t->mm, &next, entry, sizeof(next)) < 0;

		if (entry != pending && futex_death(t, entry + head.futex_offset, pi, false) < 0)
			return;
		if (bad_next)
			return;
		entry = next & ~1ULL;
		pi = next & 1;
		if (entry == mark)
			break;
		if (++steps == power) {
			mark = entry;
			power *= 2;
			steps = 0;
		}
	}
	if (pending)
		futex_death(t, pending + head.futex_offset, head.list_op_pending & 1, true);
}

/* execve at its point of no return lets go of the old memory as Linux's
 * exec_mm_release: its robust futexes are released as at an exit
 * (futex_exec_release), so a process waiting on one in shared memory gets
 * EOWNERDEAD; and where the memory lives on (a CLONE_VM child's exec) the
 * clear_child_tid word is zeroed and its waiter woken. */
void exec_mm_release(struct task *t)
{
	exit_robust_list(t);
	futex_pi_release(t, false);
	t->robust_list = 0;
	clear_child_tid(t);
	t->clear_child_tid = 0;
}

void vfork_release(struct task *t)
{
	struct task *parent = t->vfork_parent;

	if (!parent)
		return;
	t->vfork_parent = NULL;
	parent->vfork_done = true;
	sched_wake(parent);
}

void task_exit(struct task *t, int code)
{
	struct process *p = t->proc;

	if (p->core_dumper && p->core_dumper != t)
		coredump_park(t);
	if (t->pt.exec_killed)
		ptrace_exec_killed(t);
	exit_robust_list(t);
	futex_pi_release(t, true);
	clear_child_tid(t);
	vfork_release(t);
	ptrace_task_exit(t, p->exiting ? p->exit_code : code);
	signal_flush_task(t);
	if (p->nthreads > 1 || !cputime_task_exit_reap(t))
		cputime_task_exit(t, p->nthreads == 1);
	if (t->thread) {
		mm_last_thread(t->mm);
		cpus_thread_put(t);
		platform->thread_put(t->thread);
		t->thread = NULL;
	}
	list_del(&t->thread_link);
	p->nthreads--;
	if (t->tid == p->pid) {
		memcpy(p->leader_comm, t->comm, sizeof(p->leader_comm));
		p->leader_loginuid = t->loginuid;
		p->leader_sessionid = t->sessionid;
	}
	/* a thread's task is released now (but for a tracer's record of
	 * it); the leader's at the reap */
	if (t->pids_held)
		;
	else if (t->tid == p->pid)
		p->leader_pids = cgroup_pids_hold(p);
	else
		cgroup_pids_exit(p);
	mm_put(t->mm);
	t->mm = NULL;
	files_put(t->files);
	t->files = NULL;
	fs_info_put(t->fs);
	t->fs = NULL;
	nsproxy_put(t->nsproxy);
	t->nsproxy = NULL;
	sched_dl_release(t);
	if (p->nthreads == 0) {
		sem_exit(p->pid); /* SEM_UNDO, before the parent hears of it */
		if (!p->exiting)
			p->exit_code = code;
		process_finish(p);
	} else {
		reparent_to_thread(t);
		if (p->exec_waiter && p->nthreads == 1)
			sched_wake(p->exec_waiter);
		signal_stop_check(p);	       /* it may have been the last running */
		cgroup_task_frozen_changed(t); /* or the last unfrozen */
	}
	t->state = TASK_DEAD;
	schedule();
	panic("a dead task ran again");
}

void process_exit(struct task *t, int wait_status)
{
	process_kill(t->proc, wait_status);
	task_exit(t, wait_status);
}

long sys_exit(struct task *t, const struct sysargs *a)
{
	ptrace_event(t, LINUX_PTRACE_EVENT_EXIT, (uint64_t)(sysarg_int(a, 0) & 0xff) << 8);
	strace_noreturn(t, 60, a);
	task_exit(t, (sysarg_int(a, 0) & 0xff) << 8);
}

long sys_exit_group(struct task *t, const struct sysargs *a)
{
	ptrace_event(t, LINUX_PTRACE_EVENT_EXIT, (uint64_t)(sysarg_int(a, 0) & 0xff) << 8);
	strace_noreturn(t, 231, a);
	process_exit(t, (sysarg_int(a, 0) & 0xff) << 8);
}

/* reboot: as in a PID namespace, which the instance is (its init is pid
 * 1), and as in a child one, whose init it kills so: RESTART and RESTART2 end the instance as if SIGHUP had killed init,
 * HALT and POWER_OFF as if SIGINT had (skas exits 129 or 130: what a
 * container's runtime sees), and the calling thread exits; the other
 * commands are EINVAL, as Linux gives them in a child namespace. */
#define REBOOT_MAGIC1	     0xfee1dead
#define REBOOT_CMD_RESTART   0x01234567
#define REBOOT_CMD_RESTART2  0xa1b2c3d4
#define REBOOT_CMD_HALT	     0xcdef0123
#define REBOOT_CMD_POWER_OFF 0x4321fedc

long sys_reboot(struct task *t, const struct sysargs *a)
{
	uint32_t magic1 = sysarg_uint(a, 0), magic2 = sysarg_uint(a, 1), cmd = sysarg_uint(a, 2);
	struct process *init;
	struct pid_ns *ns;
	int sig;

	/* over the caller's pid namespace (reboot_pid_ns) */
	if (!ns_capable(&t->proc->cred, ns_owner(&task_pid_ns(t)->ns), CAP_SYS_BOOT))
		return -EPERM;
	/* the second magic: Linus's and his daughters' birthdays */
	if (magic1 != REBOOT_MAGIC1 || (magic2 != 0x28121969 && magic2 != 0x05121996 &&
					magic2 != 0x16041998 && magic2 != 0x20112000))
		return -EINVAL;
	if (cmd == REBOOT_CMD_RESTART || cmd == REBOOT_CMD_RESTART2)
		sig = LINUX_SIGHUP;
	else if (cmd == REBOOT_CMD_HALT || cmd == REBOOT_CMD_POWER_OFF)
		sig = LINUX_SIGINT;
	else
		return -EINVAL;
	/* in a child pid namespace, that namespace's init (Linux's
	 * reboot_pid_ns) */
	ns = task_pid_ns(t);
	init = ns->reaper;
	if (!ns->level) {
		klog(LOG_INFO, "reboot by pid %d: the instance ends (init killed by signal %d)",
		     t->proc->pid, sig);
		init = process_by_pid(1);
	}
	if (init)
		process_kill(init, sig);
	strace_noreturn(t, 169, a);
	task_exit(t, 0);
}

/* wait4 and waitid */

struct wait_result {
	int pid;
	int status;    /* wait4's */
	int code;      /* waitid's si_code: CLD_* */
	int si_status; /* waitid's si_status */
	uint32_t uid;
	struct cpu_usage ru; /* the child's times (and its children's) */
};

static bool wait_matches(struct process *c, int which, int id, int options, struct process *me)
{
	bool clone_child = c->exit_signal != LINUX_SIGCHLD;

	if (!(options & LINUX_WALL) && clone_child != !!(options & LINUX_WCLONE))
		return false;
	switch (which) {
	case LINUX_P_PID:
		return c->pid == id;
	case LINUX_P_PGID:
		return c->pgid == (id ? id : me->pgid);
	default:
		return true;
	}
}

static void exit_result(struct process *c, struct wait_result *res)
{
	res->status = c->exit_code;
	if ((c->exit_code & 0x7f) == 0) {
		res->code = LINUX_CLD_EXITED;
		res->si_status = (c->exit_code >> 8) & 0xff;
	} else {
		res->code = (c->exit_code & 0x80) ? LINUX_CLD_DUMPED : LINUX_CLD_KILLED;
		res->si_status = c->exit_code & 0x7f;
	}
}

/* Is there something to report about c? A zombie, a stop or a continue
 * not yet reported (once each, unless WNOWAIT); fills res. */
static bool wait_event(struct process *c, int options, struct wait_result *res)
{
	bool keep = options & LINUX_WNOWAIT;

	if (c->zombie) {
		/* only its tracer sees it until that reaps its leader */
		if (!(options & LINUX_WEXITED) || c->tracer_exit)
			return false;
		exit_result(c, res);
		/* Reaped: the parent's children times grow, as Linux. */
		cputime_reap(keep ? NULL : c->parent, c, &res->ru);
		if (!keep)
			release_process(c);
		return true;
	}
	if ((options & LINUX_WSTOPPED) && c->stopped && c->stop_code) {
		res->status = (c->stop_code << 8) | 0x7f;
		res->code = LINUX_CLD_STOPPED;
		res->si_status = c->stop_code;
		if (!keep)
			c->stop_code = 0;
		cputime_reap(NULL, c, &res->ru);
		return true;
	}
	if ((options & LINUX_WCONTINUED) && c->continued) {
		res->status = 0xffff;
		res->code = LINUX_CLD_CONTINUED;
		res->si_status = LINUX_SIGCONT;
		if (!keep)
			c->continued = false;
		cputime_reap(NULL, c, &res->ru);
		return true;
	}
	return false;
}

/* Stops and deaths of tracees (kernel/ptrace.c): 1 if one was reported. */
static int wait_ptrace(struct task *t, int which, int id, int options, struct wait_result *res,
		       bool *any)
{
	struct ptrace_wait pw;
	int r = ptrace_wait(t, which, id, options, &pw);

	if (r < 0)
		return 0;
	*any = true;
	if (r == 0)
		return 0;
	memset(res, 0, sizeof(*res));
	res->pid = pid_vnr(t, pw.pid);
	res->status = pw.status;
	res->code = pw.code;
	res->si_status = pw.si_status;
	res->uid = pw.uid;
	return 1;
}

static long do_wait(struct task *t, int which, int id, int options, struct wait_result *res)
{
	struct process *me = t->proc, *c;

	/* The id in the caller's namespace to the instance's (-1: one it
	 * does not see, which no child matches). */
	if ((which == LINUX_P_PID || which == LINUX_P_PGID) && id > 0)
		id = pid_from_nr(task_pid_ns(t), id) ?: -1;
	for (;;) {
		bool any = false;

		/* Tracees' stops and deaths first: a traced thread that has
		 * exited keeps its process from being reported (Linux's
		 * delay_group_leader, as the zombie thread stays in its group
		 * until its tracer reaps it), so its record comes before the
		 * process's own end. */
		if (wait_ptrace(t, which, id, options, res, &any))
			return res->pid;
		list_for_each_entry(c, &me->children, sibling)
		{
			int opts = options;

			if (!wait_matches(c, which, id, options, me))
				continue;
			any = true;
			res->pid = pid_vnr(t, c->pid);
			res->uid = c->cred.uid;
			/* A child we trace reports its ptrace stops instead. */
			if (ptrace_traced_by(c, me))
				opts &= ~LINUX_WSTOPPED;
			if (wait_event(c, opts, res))
				return res->pid;
		}
		if (!any)
			return -ECHILD;
		if (options & LINUX_WNOHANG)
			return 0;
		if (signal_pending(t))
			return -ERESTARTSYS;
		waitq_sleep(&me->wait_chld);
	}
}

long sys_wait4(struct task *t, const struct sysargs *a)
{
	int pid = sysarg_int(a, 0), options = sysarg_int(a, 2), which, id;
	uaddr_t ustatus = sysarg_uaddr(a, 1), urusage = sysarg_uaddr(a, 3);
	struct wait_result res = { 0 };
	long ret;

	if (options & ~(LINUX_WNOHANG | LINUX_WUNTRACED | LINUX_WCONTINUED | LINUX_WNOTHREAD |
			LINUX_WCLONE | LINUX_WALL))
		return -EINVAL;
	if (pid == -1) {
		which = LINUX_P_ALL;
		id = 0;
	} else if (pid < 0) {
		if (pid == INT32_MIN)
			return -ESRCH;
		which = LINUX_P_PGID;
		id = -pid;
	} else if (pid == 0) {
		which = LINUX_P_PGID;
		id = 0;
	} else {
		which = LINUX_P_PID;
		id = pid;
	}
	ret = do_wait(t, which, id, options | LINUX_WEXITED, &res);
	if (ret <= 0)
		return ret;
	if (ustatus && copy_to_user(t->mm, ustatus, &res.status, sizeof(int)) < 0)
		return -EFAULT;
	if (urusage) {
		struct linux_rusage ru;

		cputime_to_rusage(&res.ru, &ru);
		if (copy_to_user(t->mm, urusage, &ru, sizeof(ru)) < 0)
			return -EFAULT;
	}
	return ret;
}

/* waitid's checks and wait: the child's count (1), 0 or -errno. */
static long waitid_wait(struct task *t, int which, int id, int options, struct wait_result *res)
{
	if (options & ~(LINUX_WNOHANG | LINUX_WNOWAIT | LINUX_WEXITED | LINUX_WSTOPPED |
			LINUX_WCONTINUED | LINUX_WNOTHREAD | LINUX_WCLONE | LINUX_WALL))
		return -EINVAL;
	if (!(options & (LINUX_WEXITED | LINUX_WSTOPPED | LINUX_WCONTINUED)))
		return -EINVAL;
	switch (which) {
	case LINUX_P_ALL:
		id = 0;
		break;
	case LINUX_P_PID:
		if (id <= 0)
			return -EINVAL;
		break;
	case LINUX_P_PGID:
		if (id < 0)
			return -EINVAL;
		break;
	case LINUX_P_PIDFD: {
		struct process *pp;

		if (id < 0)
			return -EINVAL;
		pp = pidfd_process(t, id);
		if (!pp)
			return -EBADF;
		if (pp->reaped)
			return -ECHILD;
		which = LINUX_P_PID;
		id = pid_vnr(t, pp->pid); /* do_wait takes the caller's numbers */
		if (!id)
			return -ECHILD;
		break;
	}
	default:
		return -EINVAL;
	}
	return do_wait(t, which, id, options, res);
}

/* Linux puts infop's fields one by one after checking the range whole:
 * signo, errno, code, then pid, uid, status (the 4 bytes after code are
 * padding it never writes, nor anything past status); the fields before a
 * fault are written. One host call for both pieces. */
static int put_waitid_info(struct mm *mm, uaddr_t u, const struct linux_siginfo *si)
{
	struct user_pokes pk = { .mm = mm };
	size_t ok;

	if (!access_ok(u, sizeof(*si)))
		return -EFAULT;
	ok = user_prefix(mm, u, 28, true) & ~(size_t)3;
	if (ok)
		poke_user_add(&pk, u, si, ok < 12 ? ok : 12);
	if (ok > 16)
		poke_user_add(&pk, u + 16, (const char *)si + 16, ok - 16);
	if (poke_user_flush(&pk) < 0 || ok < 28)
		return -EFAULT;
	return 0;
}

long sys_waitid(struct task *t, const struct sysargs *a)
{
	uaddr_t uinfo = sysarg_uaddr(a, 2);
	struct wait_result res = { 0 };
	struct linux_siginfo si;
	long ret = waitid_wait(t, sysarg_int(a, 0), sysarg_int(a, 1), sysarg_int(a, 3), &res);

	memset(&si, 0, sizeof(si));
	if (ret < 0) {
		/* Linux writes infop's fields (all 0) whatever the error, so
		 * a bad infop turns ECHILD or EINVAL into EFAULT. */
		if (uinfo && put_waitid_info(t->mm, uinfo, &si) < 0)
			return -EFAULT;
		return ret;
	}
	/* Linux's order: the rusage (only of a child found), then infop. */
	if (ret > 0 && sysarg_uaddr(a, 4)) {
		struct linux_rusage ru;

		memset(&ru, 0, sizeof(ru));
		cputime_to_rusage(&res.ru, &ru);
		if (copy_to_user(t->mm, sysarg_uaddr(a, 4), &ru, sizeof(ru)) < 0)
			return -EFAULT;
	}
	if (ret > 0) {
		si.si_signo = LINUX_SIGCHLD;
		si.fields.sigchld.pid = res.pid;
		si.fields.sigchld.uid = from_kuid_munged(cred_user_ns(&t->proc->cred), res.uid);
		si.si_code = res.code;
		si.fields.sigchld.status = res.si_status;
	}
	if (uinfo && put_waitid_info(t->mm, uinfo, &si) < 0)
		return -EFAULT;
	return 0;
}
