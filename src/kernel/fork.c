/* kernel/fork.c: fork, vfork, clone, clone3. A new process gets a copy of
 * the address space by a host fork of its stub (the /proc/mm "copy"): the
 * host does copy-on-write. A new thread is one more host thread in the same
 * stub. vfork suspends the parent until the child execs or exits.
 * CLONE_NEWUTS, CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWNET, CLONE_NEWCGROUP,
 * CLONE_NEWPID, CLONE_NEWUSER and (clone3's) CLONE_NEWTIME give the child
 * new namespaces (kernel/nsproxy.c; a new user namespace,
 * kernel/userns.c, owns the others made with it); a child's pid comes
 * from its pid namespace (kernel/pidns.c), and what the caller gets back
 * is its number in the caller's. A new process enters its parent's time
 * namespace for children (kernel/timens.c), and its parent's cgroup or
 * clone3's CLONE_INTO_CGROUP one (kernel/cgroup.c). Refused: clone3's
 * set_tid (EINVAL). */
#include <stdlib.h>
#include <string.h>

#include "kernel/task.h"
#include "kernel/cgroup.h"
#include "kernel/nsproxy.h"
#include "kernel/pidns.h"
#include "kernel/userns.h"
#include "kernel/timens.h"
#include "kernel/ptimer.h"
#include "kernel/seccomp.h"
#include "mm/mempolicy.h"
#include "kernel/run.h"
#include "kernel/log.h"
#include "syscalls/dispatch.h"
#include "mm/mm.h"
#include "mm/usercopy.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "ipc/ipc.h"
#include "kernel/cred.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"
#include "abi/linux/ptrace.h"

#define CSIGNAL 0xff
#define CLONE_NS_FLAGS                                                                         \
	(LINUX_CLONE_NEWNS | LINUX_CLONE_NEWCGROUP | LINUX_CLONE_NEWUTS | LINUX_CLONE_NEWIPC | \
	 LINUX_CLONE_NEWUSER | LINUX_CLONE_NEWPID | LINUX_CLONE_NEWNET | LINUX_CLONE_NEWTIME)

struct clone_req {
	uint64_t flags;
	int exit_signal;
	uaddr_t stack, parent_tid, child_tid;
	uint64_t tls;
	uaddr_t pidfd; /* where CLONE_PIDFD puts the fd */
	int cgroup;    /* CLONE_INTO_CGROUP's directory fd */
	bool clone3;
};

static struct process *copy_process_struct(struct task *t, int pid, const struct clone_req *r)
{
	struct process *me = t->proc, *p = process_alloc(pid);

	if (!p)
		return NULL;
	p->pgid = me->pgid;
	p->sid = me->sid;
	p->cred = me->cred;
	cred_get_ns(&p->cred);
	p->cred.groups = NULL;
	if (me->cred.ngroups) {
		p->cred.groups = malloc(me->cred.ngroups * sizeof(uint32_t));
		if (!p->cred.groups) {
			cred_put_ns(&p->cred);
			free(p);
			return NULL;
		}
		memcpy(p->cred.groups, me->cred.groups, me->cred.ngroups * sizeof(uint32_t));
	}
	memcpy(p->rlim, me->rlim, sizeof(p->rlim));
	p->umask = me->umask;
	p->personality = me->personality;
	p->no_new_privs = me->no_new_privs;
	p->oom_score_adj = me->oom_score_adj;
	p->oom_score_adj_min = me->oom_score_adj_min;
	p->coredump_filter = me->coredump_filter;
	p->nproc_exceeded = me->nproc_exceeded;
	p->nondumpable = me->nondumpable;
	memcpy(p->sigactions, me->sigactions, sizeof(p->sigactions));
	p->exit_signal = r->exit_signal;
	p->parent = (r->flags & LINUX_CLONE_PARENT) ? me->parent : me;
	p->parent_tid = (r->flags & LINUX_CLONE_PARENT) ? me->parent_tid : t->tid;
	if (p->parent)
		list_add_tail(&p->sibling, &p->parent->children);
	return p;
}

static int check_flags(struct task *t, const struct clone_req *r)
{
	uint64_t f = r->flags;

	/* A new mount or user namespace needs a root and cwd of its own, a
	 * new user or pid namespace a process of its own. */
	if ((f & (LINUX_CLONE_NEWNS | LINUX_CLONE_NEWUSER)) && (f & LINUX_CLONE_FS))
		return -EINVAL;
	if ((f & (LINUX_CLONE_NEWUSER | LINUX_CLONE_NEWPID)) && (f & LINUX_CLONE_THREAD))
		return -EINVAL;
	/* check_thread_pid_ns: a thread's tid is in its process's namespace,
	 * so not after an unshare or setns changed pid_for_children */
	if ((f & LINUX_CLONE_THREAD) && &task_pid_ns(t)->ns != t->nsproxy->ns[NS_PID])
		return -EINVAL;
	if ((f & LINUX_CLONE_THREAD) && !(f & LINUX_CLONE_SIGHAND))
		return -EINVAL;
	if ((f & LINUX_CLONE_SIGHAND) && !(f & LINUX_CLONE_VM))
		return -EINVAL;
	if ((f & LINUX_CLONE_PARENT) && process_is_ns_init(t->proc))
		return -EINVAL; /* an init cannot have siblings */
	/* CLONE_DETACHED is otherwise ignored, but Linux keeps it from
	 * CLONE_PIDFD (to reuse it one day) */
	if ((f & LINUX_CLONE_PIDFD) && ((f & (LINUX_CLONE_THREAD | LINUX_CLONE_DETACHED)) ||
					(!r->clone3 && (f & LINUX_CLONE_PARENT_SETTID))))
		return -EINVAL;
	if ((f & LINUX_CLONE_THREAD) && r->exit_signal)
		return -EINVAL;
	if (r->exit_signal < 0 || r->exit_signal > LINUX_NSIG)
		return -EINVAL;
	return 0;
}

/* The namespace checks, in Linux's order: after the task limits
 * (copy_process's EAGAIN), copy_creds's and copy_namespaces's
 * (ns_flags_check; the child's user namespace is made once it exists),
 * then a SEM_UNDO list that cannot go into another IPC namespace, whose
 * sets it could not name (EINVAL). */
static int check_ns_flags(struct task *t, uint64_t f)
{
	int ret = ns_flags_check(t, f);

	if (ret == 0 && (f & LINUX_CLONE_NEWIPC) && (f & LINUX_CLONE_SYSVSEM))
		ret = -EINVAL;
	return ret;
}

struct nproc_count {
	uint32_t uid;
	uint64_t n;
};

static void nproc_cb(struct process *p, void *arg)
{
	struct nproc_count *c = arg;

	if (p->cred.uid == c->uid)
		c->n += (uint64_t)p->nthreads;
}

uint64_t nproc_count(uint32_t uid)
{
	struct nproc_count count = { uid, 0 };

	for_each_process(nproc_cb, &count);
	return count.n;
}

/* RLIMIT_NPROC: the threads of every process whose real uid is the
 * caller's, as Linux counts them per user; root, CAP_SYS_RESOURCE and
 * CAP_SYS_ADMIN go past it (Linux's copy_process). */
static bool nproc_exceeded(struct task *t)
{
	const struct cred *c = &t->proc->cred;
	uint64_t max = t->proc->rlim[LINUX_RLIMIT_NPROC].rlim_cur;

	if (max == LINUX_RLIM_INFINITY || c->uid == 0 || capable(c, CAP_SYS_RESOURCE) ||
	    capable(c, CAP_SYS_ADMIN))
		return false;
	return nproc_count(c->uid) >= max;
}

static long do_clone(struct task *t, const struct clone_req *r)
{
	uint64_t f = r->flags;
	struct ns_common *new_pid_ns = NULL;
	struct pid_ns *child_ns;
	struct task *c;
	struct pf_regs regs;
	int tid, vtid, ctid, ret, event, pfd = -1;
	struct cgroup *cg;
	bool fpu_copied;

	ret = check_flags(t, r);
	if (ret < 0)
		return ret;
	if (tasks_limit_reached() || nproc_exceeded(t))
		return -EAGAIN;
	/* sched_fork: a deadline task's bandwidth is its own, no child
	 * shares it (unless SCHED_RESET_ON_FORK makes the child a fair one) */
	if (t->sched_policy == SCHED_POLICY_DEADLINE && !t->sched_reset_on_fork)
		return -EAGAIN;
	ret = check_ns_flags(t, f);
	if (ret < 0)
		return ret;
	/* The child's pid comes from its pid namespace: a new one, or the
	 * caller's pid_for_children (a thread's is the caller's own: see
	 * check_thread_pid_ns). */
	if (f & LINUX_CLONE_NEWPID) {
		ret = pid_ns_new(t->nsproxy->ns[NS_PID], task_pid_ns(t), &new_pid_ns);
		if (ret < 0)
			return ret;
	}
	child_ns = (struct pid_ns *)(new_pid_ns ? new_pid_ns : t->nsproxy->ns[NS_PID]);
	tid = pid_alloc(child_ns);
	if (tid < 0) {
		if (new_pid_ns)
			ns_put(new_pid_ns);
		return tid;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		pid_release_unused(tid);
		if (new_pid_ns)
			ns_put(new_pid_ns);
		return -ENOMEM;
	}
	c->tid = tid;
	c->state = TASK_SLEEPING;
	list_init(&c->run_link);
	ptrace_task_init(c);
	if (f & LINUX_CLONE_THREAD) {
		c->proc = t->proc;
	} else {
		c->proc = copy_process_struct(t, tid, r);
		if (!c->proc) {
			free(c);
			pid_release_unused(tid);
			if (new_pid_ns)
				ns_put(new_pid_ns);
			return -ENOMEM;
		}
	}
	list_add_tail(&c->thread_link, &c->proc->threads);
	c->proc->nthreads++;
	task_register(c);
	memcpy(c->comm, t->comm, sizeof(c->comm));
	c->loginuid = t->loginuid;
	c->sessionid = t->sessionid;
	c->mce_kill = t->mce_kill;
	c->io_flusher = t->io_flusher;
	sched_fork_params(c, t, f & LINUX_CLONE_IO);
	task_seccomp_fork(c, t);
	mpol_task_fork(c, t);
	ptrace_debugregs_fork(c, t);
	/* Linux's copy_semundo makes the list that CLONE_SYSVSEM shares. */
	if (f & LINUX_CLONE_SYSVSEM)
		t->proc->sem_undo_list = c->proc->sem_undo_list = true;
	c->sigmask = t->sigmask;
	if (!(f & LINUX_CLONE_VM) || (f & LINUX_CLONE_VFORK))
		c->altstack = t->altstack;
	else
		c->altstack.ss_flags = LINUX_SS_DISABLE;

	if (f & LINUX_CLONE_VM) {
		mm_get(t->mm);
		c->mm = t->mm;
	} else {
		ret = mm_fork(t->mm, &c->mm);
		if (ret < 0)
			goto fail;
	}
	if (f & LINUX_CLONE_FILES) {
		t->files->refcount++;
		c->files = t->files;
	} else {
		ret = files_dup(t->files, &c->files);
		if (ret < 0)
			goto fail;
	}
	if (f & LINUX_CLONE_FS) {
		t->fs->refcount++;
		c->fs = t->fs;
	} else {
		ret = fs_info_dup(t->fs, &c->fs);
		if (ret < 0)
			goto fail;
	}
	if (f & LINUX_CLONE_NEWUSER) {
		ret = user_ns_new(t, &c->proc->cred);
		if (ret < 0)
			goto fail;
	}
	ret = nsproxy_copy(t->nsproxy, f, c->fs, new_pid_ns, &cred_user_ns(&c->proc->cred)->ns,
			   &c->nsproxy);
	if (ret < 0)
		goto fail;
	/* Linux's timens_on_fork: a new process enters the time namespace
	 * for children; one that shares the address space (a thread, a
	 * vfork child) stays in the caller's, as its vDSO does, until an
	 * exec. */
	if (!(f & LINUX_CLONE_VM)) {
		ret = timens_enter_children(c, false);
		if (ret < 0)
			goto fail;
	}
	/* As arch_prctl(ARCH_SET_FS) in Linux's copy_thread. */
	if ((f & LINUX_CLONE_SETTLS) && r->tls >= TASK_SIZE) {
		ret = -EPERM;
		goto fail;
	}
	ret = platform->thread_new_fpu
		      ? platform->thread_new_fpu(c->mm->pf, c, t->thread, &c->thread)
		      : -EOPNOTSUPP;
	fpu_copied = ret == 0;
	if (ret == -EOPNOTSUPP)
		ret = platform->thread_new(c->mm->pf, c, &c->thread);
	if (ret < 0)
		goto fail;
	cputime_thread_new(c);
	ret = platform->get_regs(t->thread, &regs);
	if (ret < 0)
		goto fail;
	regs.rax = 0;
	if (r->stack)
		regs.rsp = r->stack;
	if (f & LINUX_CLONE_SETTLS)
		regs.fs_base = r->tls;
	platform->set_regs(c->thread, &regs);
	ret = fpu_copied ? 0 : platform->copy_fpu(c->thread, t->thread);
	if (ret < 0)
		goto fail;
	vtid = pid_vnr(t, tid);
	if (f & LINUX_CLONE_PIDFD) {
		pfd = pidfd_create(t, c->proc, 0);
		if (pfd < 0) {
			ret = pfd;
			goto fail;
		}
		if (copy_to_user(t->mm, r->pidfd, &pfd, sizeof(pfd)) < 0) {
			ret = -EFAULT;
			goto fail;
		}
	}
	ret = kstack_init(&c->kstack, task_main, c);
	if (ret < 0)
		goto fail;
	/* Linux's cgroup_can_fork, after copy_thread and the pidfd: the group
	 * to start in, checked as a move there (a thread stays in its
	 * process's), then its pids limits; the last step that may fail. */
	cg = t->proc->cgroup;
	if (f & LINUX_CLONE_INTO_CGROUP) {
		ret = cgroup_clone_target(t, r->cgroup, f & LINUX_CLONE_THREAD, &cg);
		if (ret < 0)
			goto fail;
	}
	ret = cgroup_pids_try_charge(cg);
	if (ret == 0 && !(f & LINUX_CLONE_THREAD))
		cgroup_fork(c->proc, cg);
	else if (ret == 0)
		cgroup_pids_thread(c->proc);
	if (ret == 0 && (f & LINUX_CLONE_INTO_CGROUP) && (f & LINUX_CLONE_NEWCGROUP))
		cgroup_ns_set_root(c->nsproxy->ns[NS_CGROUP], cg);
	if (f & LINUX_CLONE_INTO_CGROUP)
		cgroup_put(cg);
	if (ret < 0)
		goto fail;
	/* As Linux's kernel_clone and schedule_tail, once the clone cannot
	 * fail: a store that faults is not the clone's failure. */
	if (f & LINUX_CLONE_PARENT_SETTID)
		(void)copy_to_user(t->mm, r->parent_tid, &vtid, sizeof(vtid));
	ctid = pid_nr_ns(tid, child_ns);
	if (f & LINUX_CLONE_CHILD_SETTID)
		(void)copy_to_user(c->mm, r->child_tid, &ctid, sizeof(ctid));
	if (f & LINUX_CLONE_CHILD_CLEARTID)
		c->clear_child_tid = r->child_tid;
	if (f & LINUX_CLONE_VFORK) {
		c->vfork_parent = t;
		t->vfork_done = false;
	}
	/* A tracer that asked for this event traces the child too. */
	event = ptrace_clone_event(f, r->exit_signal);
	ptrace_clone_attach(t, c, event, f & LINUX_CLONE_PTRACE);
	sched_add(c);
	t->proc->nproc_exceeded = false; /* as Linux's copy_process */
	/* A new process goes on with its parent's RLIMIT_CPU. */
	if (!(f & LINUX_CLONE_THREAD) &&
	    c->proc->rlim[LINUX_RLIMIT_CPU].rlim_cur != LINUX_RLIM_INFINITY)
		cputimer_poll_start(c->proc);
	/* The parent's event stop: the child may run (and exit) meanwhile. */
	ptrace_event(t, event, (uint64_t)ptrace_tracer_nr(t, tid));
	if (f & LINUX_CLONE_VFORK) {
		/* Killable, as Linux's wait_for_vfork_done: a parent killed
		 * (SIGKILL, exit_group, an exec by another of its threads)
		 * goes at once, and the child no longer points at it. Else an
		 * exec waiting for this thread to die and a child waiting for
		 * the new image (a pipe) never end. c is still there: its exit
		 * or exec would have set vfork_done. */
		t->vfork_waiting = true;
		cgroup_task_frozen_changed(t);
		while (!t->vfork_done && !t->killed) {
			t->state = TASK_SLEEPING;
			schedule();
		}
		t->vfork_waiting = false;
		cgroup_task_frozen_changed(t);
		if (!t->vfork_done)
			c->vfork_parent = NULL;
		else
			ptrace_event(t, LINUX_PTRACE_EVENT_VFORK_DONE,
				     (uint64_t)ptrace_tracer_nr(t, tid));
	}
	if (new_pid_ns)
		ns_put(new_pid_ns);
	return vtid;
fail:
	/* The child never ran: undo it as if it had exited at once. */
	if (pfd >= 0)
		fd_close(t->files, pfd);
	list_del(&c->thread_link);
	c->proc->nthreads--;
	if (c->proc != t->proc) {
		list_del(&c->proc->sibling);
		pid_free(c->proc->pid);
		process_free(c->proc);
	}
	c->proc = NULL;
	task_free(c);
	if (new_pid_ns)
		ns_put(new_pid_ns);
	return ret;
}

long sys_clone(struct task *t, const struct sysargs *a)
{
	struct clone_req r = {
		.flags = a->a[0] & ~(uint64_t)CSIGNAL & 0xffffffffULL,
		.exit_signal = (int)(a->a[0] & CSIGNAL),
		.stack = sysarg_uaddr(a, 1),
		.parent_tid = sysarg_uaddr(a, 2),
		.child_tid = sysarg_uaddr(a, 3),
		.tls = a->a[4],
		.pidfd = sysarg_uaddr(a, 2),
	};

	return do_clone(t, &r);
}

long sys_fork(struct task *t, const struct sysargs *a)
{
	struct clone_req r = { .exit_signal = LINUX_SIGCHLD };

	(void)a;
	return do_clone(t, &r);
}

long sys_vfork(struct task *t, const struct sysargs *a)
{
	struct clone_req r = { .flags = LINUX_CLONE_VM | LINUX_CLONE_VFORK,
			       .exit_signal = LINUX_SIGCHLD };

	(void)a;
	return do_clone(t, &r);
}

long sys_clone3(struct task *t, const struct sysargs *a)
{
	struct linux_clone_args ca;
	uint64_t size = sysarg_size(a, 1);
	struct clone_req r = { 0 };

	if (size > 4096) /* Linux: E2BIG first, past a page */
		return -E2BIG;
	if (size < LINUX_CLONE_ARGS_SIZE_VER0)
		return -EINVAL;
	memset(&ca, 0, sizeof(ca));
	if (copy_from_user(t->mm, &ca, sysarg_uaddr(a, 0), size < sizeof(ca) ? size : sizeof(ca)) <
	    0)
		return -EFAULT;
	if (size > sizeof(ca)) {
		/* Unknown trailing fields must be zero. */
		char tail[64];
		uint64_t off;

		for (off = sizeof(ca); off < size; off += sizeof(tail)) {
			size_t n = size - off < sizeof(tail) ? size - off : sizeof(tail);
			size_t i;

			if (copy_from_user(t->mm, tail, sysarg_uaddr(a, 0) + off, n) < 0)
				return -EFAULT;
			for (i = 0; i < n; i++)
				if (tail[i])
					return -E2BIG;
		}
	}
	if (ca.flags & ~(0xffffffffULL | LINUX_CLONE_CLEAR_SIGHAND | LINUX_CLONE_INTO_CGROUP))
		return -EINVAL;
	/* CLONE_NEWTIME shares its bit with the exit signal of clone(2):
	 * clone3 alone can ask for it */
	if (ca.flags & (CSIGNAL & ~(uint64_t)LINUX_CLONE_NEWTIME))
		return -EINVAL;
	if (ca.exit_signal > LINUX_NSIG)
		return -EINVAL;
	if ((ca.flags & LINUX_CLONE_INTO_CGROUP) &&
	    (ca.cgroup > INT32_MAX || size < LINUX_CLONE_ARGS_SIZE_VER2))
		return -EINVAL;
	if (ca.set_tid || ca.set_tid_size)
		return -EINVAL;
	if ((ca.stack == 0) != (ca.stack_size == 0))
		return -EINVAL;
	r.flags = ca.flags & ~LINUX_CLONE_CLEAR_SIGHAND;
	r.exit_signal = (int)ca.exit_signal;
	r.stack = ca.stack ? ca.stack + ca.stack_size : 0;
	r.parent_tid = ca.parent_tid;
	r.child_tid = ca.child_tid;
	r.tls = ca.tls;
	r.pidfd = ca.pidfd;
	r.cgroup = (int)ca.cgroup;
	r.clone3 = true;
	if (ca.flags & LINUX_CLONE_CLEAR_SIGHAND) {
		long ret;
		int i;

		if (ca.flags & LINUX_CLONE_SIGHAND)
			return -EINVAL;
		ret = do_clone(t, &r);
		if (ret > 0) {
			struct process *p = process_by_vpid(t, (int)ret);

			for (i = 0; p && i < 64; i++)
				if (p->sigactions[i].handler != LINUX_SIG_IGN)
					memset(&p->sigactions[i], 0, sizeof(p->sigactions[i]));
		}
		return ret;
	}
	return do_clone(t, &r);
}

/* unshare: Linux's checks and order (ksys_unshare). What a task can stop
 * sharing is its fd table (CLONE_FILES), its root and working directory
 * (CLONE_FS, also implied by CLONE_NEWNS), its SEM_UNDO adjustments
 * (CLONE_SYSVSEM, also implied by CLONE_NEWIPC: they are applied, as at
 * exit), its UTS and mount namespaces (CLONE_NEWUTS, CLONE_NEWNS:
 * copies of the current ones), its IPC namespace (CLONE_NEWIPC: an
 * empty one), its network namespace (CLONE_NEWNET: a new one, lo down),
 * its cgroup namespace (CLONE_NEWCGROUP: rooted at the one cgroup), its
 * pid namespace for the children it makes next (CLONE_NEWPID) and its user
 * namespace (CLONE_NEWUSER, first: the others are then its). CLONE_THREAD,
 * CLONE_SIGHAND and CLONE_VM succeed only when there is nothing to
 * unshare, as in Linux; CLONE_NEWTIME makes the time namespace of the
 * children it makes next (and of its next exec). Partial: SEM_UNDO
 * adjustments are kept per process, so CLONE_SYSVSEM in a process of
 * several threads is EINVAL; and signal handlers are per process, so
 * CLONE_SIGHAND in a CLONE_VM|CLONE_SIGHAND child that is not a thread
 * succeeds (Linux: EINVAL, the handlers being shared). */
#define UNSHARE_FLAGS                                                                 \
	(LINUX_CLONE_THREAD | LINUX_CLONE_FS | LINUX_CLONE_SIGHAND | LINUX_CLONE_VM | \
	 LINUX_CLONE_FILES | LINUX_CLONE_SYSVSEM | CLONE_NS_FLAGS)

long sys_unshare(struct task *t, const struct sysargs *a)
{
	uint64_t f = a->a[0];
	struct fs_info *fs = NULL;
	struct files *files = NULL;
	struct nsproxy *nsp = NULL;
	struct cred nc;
	bool alone = t->proc->nthreads == 1;
	int ret;

	if (f & LINUX_CLONE_NEWUSER)
		f |= LINUX_CLONE_THREAD | LINUX_CLONE_FS;
	if (f & LINUX_CLONE_VM)
		f |= LINUX_CLONE_SIGHAND;
	if (f & LINUX_CLONE_SIGHAND)
		f |= LINUX_CLONE_THREAD;
	if (f & LINUX_CLONE_NEWNS)
		f |= LINUX_CLONE_FS;
	if (f & LINUX_CLONE_NEWIPC)
		f |= LINUX_CLONE_SYSVSEM;
	if (f & ~(uint64_t)UNSHARE_FLAGS)
		return -EINVAL;
	if ((f & LINUX_CLONE_THREAD) && !alone)
		return -EINVAL;
	if ((f & LINUX_CLONE_VM) && t->mm->refcount > 1)
		return -EINVAL; /* another process shares the address space */
	ret = ns_flags_check(t, f);
	if (ret < 0)
		return ret;
	if ((f & LINUX_CLONE_SYSVSEM) && !alone)
		return -EINVAL; /* adjustments per process: see above */
	if ((f & LINUX_CLONE_FS) && t->fs->refcount > 1) {
		ret = fs_info_dup(t->fs, &fs);
		if (ret < 0)
			return ret;
	}
	if ((f & LINUX_CLONE_FILES) && t->files->refcount > 1) {
		ret = files_dup(t->files, &files);
		if (ret < 0)
			goto fail;
	}
	/* Last, as Linux's unshare_nsproxy_namespaces: a new mount
	 * namespace moves the root and cwd of the fs info the task will
	 * have. */
	if (f & NS_CLONE_SUPPORTED) {
		struct ns_common *pid_ns = NULL;

		/* the new credentials on a copy until nothing can fail */
		nc = t->proc->cred;
		cred_get_ns(&nc);
		if (f & LINUX_CLONE_NEWUSER) {
			ret = user_ns_new(t, &nc);
			if (ret < 0) {
				cred_put_ns(&nc);
				goto fail;
			}
		}
		if (f & LINUX_CLONE_NEWPID) {
			ret = pid_ns_new(t->nsproxy->ns[NS_PID], task_pid_ns(t), &pid_ns);
			if (ret < 0) {
				cred_put_ns(&nc);
				goto fail;
			}
		}
		ret = nsproxy_copy(t->nsproxy, f, fs ? fs : t->fs, pid_ns, &cred_user_ns(&nc)->ns,
				   &nsp);
		if (pid_ns)
			ns_put(pid_ns);
		if (ret < 0) {
			cred_put_ns(&nc);
			goto fail;
		}
	}
	if (fs) {
		fs_info_put(t->fs);
		t->fs = fs;
	}
	if (files) {
		files_put(t->files);
		t->files = files;
	}
	if (nsp) {
		nsproxy_put(t->nsproxy);
		t->nsproxy = nsp;
		/* the old namespace's reference goes, nc's stays */
		cred_put_ns(&t->proc->cred);
		t->proc->cred = nc; /* the same groups: only the namespace and
				     * capabilities may differ */
	}
	if (f & LINUX_CLONE_SYSVSEM) {
		sem_exit(t->proc->pid);
		t->proc->sem_undo_list = false;
	}
	return 0;
fail:
	if (fs)
		fs_info_put(fs);
	if (files)
		files_put(files);
	return ret;
}
