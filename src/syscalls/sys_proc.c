/* syscalls/sys_proc.c: identity, limits, exit, execve, arch_prctl and the
 * thread bookkeeping glibc and musl set up at start. */
#include <stdlib.h>
#include <string.h>

#include "kernel/cpus.h"
#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "kernel/cgroup.h"
#include "kernel/pidns.h"
#include "kernel/userns.h"
#include "kernel/seccomp.h"
#include "kernel/cred.h"
#include "kernel/ptimer.h"
#include "kernel/exec.h"
#include "kernel/log.h"
#include "kernel/uts.h"
#include "mm/usercopy.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/seccomp.h"
#include "abi/linux/misc.h"
#include "abi/linux/types.h"

#define MAX_ARG_STRLEN	(32 * 4096)
#define MAX_ARG_STRINGS 0x7fffffff
#define NR_OPEN		(1024 * 1024)
#define GETRANDOM_MAX	(32 * 1024 * 1024)

long sys_getpid(struct task *t, const struct sysargs *a)
{
	(void)a;
	return pid_vnr(t, t->proc->pid);
}

long sys_gettid(struct task *t, const struct sysargs *a)
{
	(void)a;
	return pid_vnr(t, t->tid);
}

long sys_getppid(struct task *t, const struct sysargs *a)
{
	(void)a;
	return t->proc->parent ? pid_vnr(t, t->proc->parent->pid) : 0;
}

long sys_getpgid(struct task *t, const struct sysargs *a)
{
	int pid = sysarg_int(a, 0);
	struct process *p = pid ? process_by_vpid(t, pid) : t->proc;

	if (pid < 0)
		return -ESRCH;
	return p ? pid_vnr(t, p->pgid) : -ESRCH; /* a zombie too, as Linux until it is reaped */
}

long sys_getpgrp(struct task *t, const struct sysargs *a)
{
	(void)a;
	return pid_vnr(t, t->proc->pgid);
}

long sys_getsid(struct task *t, const struct sysargs *a)
{
	int pid = sysarg_int(a, 0);
	struct process *p = pid ? process_by_vpid(t, pid) : t->proc;

	if (pid < 0)
		return -ESRCH;
	return p ? pid_vnr(t, p->sid) : -ESRCH; /* a zombie too */
}

struct pgrp_ctx {
	int pgid, sid;
	bool found;
};

static void pgrp_cb(struct process *p, void *arg)
{
	struct pgrp_ctx *c = arg;

	if (p->pgid == c->pgid && (c->sid < 0 || p->sid == c->sid))
		c->found = true;
}

long sys_setpgid(struct task *t, const struct sysargs *a)
{
	int pid = sysarg_int(a, 0), pgid = sysarg_int(a, 1);
	struct process *me = t->proc, *p;
	struct pgrp_ctx c;

	/* Linux's checks, in its order; a zombie child counts until reaped. */
	if (!pid)
		pid = pid_vnr(t, me->pid);
	if (!pgid)
		pgid = pid;
	if (pgid < 0)
		return -EINVAL;
	p = process_by_vpid(t, pid);
	if (!p) /* a thread, not a process */
		return task_by_vtid(t, pid) ? -EINVAL : -ESRCH;
	pgid = pid_from_nr(task_pid_ns(t), pgid); /* 0: none that it sees */
	if (p->parent == me) {
		if (p->sid != me->sid)
			return -EPERM;
		if (p->did_exec)
			return -EACCES;
	} else if (p != me) {
		return -ESRCH;
	}
	if (p->sid == p->pid)
		return -EPERM;
	if (pgid != p->pid) {
		c.pgid = pgid;
		c.sid = me->sid;
		c.found = false;
		for_each_process(pgrp_cb, &c);
		if (!c.found)
			return -EPERM;
	}
	process_set_pgrp(p, pgid, p->sid);
	return 0;
}

long sys_setsid(struct task *t, const struct sysargs *a)
{
	struct process *me = t->proc;
	struct pgrp_ctx c = { .pgid = me->pid, .sid = -1 };

	(void)a;
	for_each_process(pgrp_cb, &c);
	if (c.found)
		return -EPERM;
	process_set_pgrp(me, me->pid, me->pid);
	return pid_vnr(t, me->pid);
}

long sys_getuid(struct task *t, const struct sysargs *a)
{
	(void)a;
	return from_kuid_munged(cred_user_ns(&t->proc->cred), t->proc->cred.uid);
}

long sys_geteuid(struct task *t, const struct sysargs *a)
{
	(void)a;
	return from_kuid_munged(cred_user_ns(&t->proc->cred), t->proc->cred.euid);
}

long sys_getgid(struct task *t, const struct sysargs *a)
{
	(void)a;
	return from_kgid_munged(cred_user_ns(&t->proc->cred), t->proc->cred.gid);
}

long sys_getegid(struct task *t, const struct sysargs *a)
{
	(void)a;
	return from_kgid_munged(cred_user_ns(&t->proc->cred), t->proc->cred.egid);
}

long sys_set_tid_address(struct task *t, const struct sysargs *a)
{
	t->clear_child_tid = sysarg_uaddr(a, 0);
	return pid_vnr(t, t->tid);
}

long sys_set_robust_list(struct task *t, const struct sysargs *a)
{
	if (sysarg_size(a, 1) != sizeof(struct linux_robust_list_head))
		return -EINVAL;
	t->robust_list = sysarg_uaddr(a, 0);
	t->robust_len = sysarg_size(a, 1);
	return 0;
}

long sys_get_robust_list(struct task *t, const struct sysargs *a)
{
	int pid = sysarg_int(a, 0);
	uint64_t len = sizeof(struct linux_robust_list_head);
	struct task *o = pid ? task_by_vtid(t, pid) : t;

	/* another thread's with ptrace's read access (real ids), as Linux */
	if (!o || o->state == TASK_DEAD)
		return -ESRCH;
	if (o->proc != t->proc && !cred_ptrace_may_access(&t->proc->cred, o->proc, true))
		return -EPERM;
	if (copy_to_user(t->mm, sysarg_uaddr(a, 2), &len, sizeof(len)) < 0)
		return -EFAULT;
	return copy_to_user(t->mm, sysarg_uaddr(a, 1), &o->robust_list, sizeof(uint64_t));
}

long sys_sched_yield(struct task *t, const struct sysargs *a)
{
	(void)t;
	(void)a;
	return 0;
}

long sys_umask(struct task *t, const struct sysargs *a)
{
	unsigned old = t->proc->umask;

	t->proc->umask = sysarg_uint(a, 0) & 0777;
	return old;
}

long sys_uname(struct task *t, const struct sysargs *a)
{
	struct linux_utsname u;
	int ret = host_uname(&u);

	if (ret < 0)
		return ret;
	memset(u.nodename, 0, sizeof(u.nodename));
	strcpy(u.nodename, uts_name(t, false));
	memset(u.domainname, 0, sizeof(u.domainname));
	strcpy(u.domainname, uts_name(t, true));
	return copy_to_user(t->mm, sysarg_uaddr(a, 0), &u, sizeof(u));
}

/* Linux's order: EPERM without CAP_SYS_ADMIN, EINVAL for a length out of
 * 0..64, EFAULT. */
static long set_uts(struct task *t, const struct sysargs *a, bool domain)
{
	char name[LINUX_UTS_LEN];
	int len = sysarg_int(a, 1);

	/* over the UTS namespace, in its owning user namespace */
	if (!ns_capable(&t->proc->cred, ns_owner(t->nsproxy->ns[NS_UTS]), CAP_SYS_ADMIN))
		return -EPERM;
	if (len < 0 || len > LINUX_UTS_LEN)
		return -EINVAL;
	if (copy_from_user(t->mm, name, sysarg_uaddr(a, 0), (size_t)len) < 0)
		return -EFAULT;
	return uts_set_name(t, domain, name, (size_t)len);
}

long sys_sethostname(struct task *t, const struct sysargs *a)
{
	return set_uts(t, a, false);
}

long sys_setdomainname(struct task *t, const struct sysargs *a)
{
	return set_uts(t, a, true);
}

int arch_prctl_fsgs(struct pf_regs *r, int code, uint64_t addr, uint64_t *get)
{
	switch (code) {
	case LINUX_ARCH_SET_FS:
	case LINUX_ARCH_SET_GS:
		if (addr >= TASK_SIZE)
			return -EPERM;
		if (code == LINUX_ARCH_SET_FS)
			r->fs_base = addr;
		else
			r->gs_base = addr;
		return 0;
	case LINUX_ARCH_GET_FS:
	case LINUX_ARCH_GET_GS:
		*get = code == LINUX_ARCH_GET_FS ? r->fs_base : r->gs_base;
		return 1;
	default:
		return -EINVAL;
	}
}

/* ARCH_REQ_XCOMP_PERM and _GUEST_PERM, as Linux's xstate_request_perm:
 * the one feature a thread asks for is AMX tile data. skas does not offer
 * it (the stubs neither ask the host for it nor save it): a host that has
 * it gets EOPNOTSUPP, logged once, as one without it does. */
static int xcomp_request(int code, uint64_t idx)
{
	uint64_t want = (1ULL << 17) | (1ULL << 18), supp, perm;
	int ret = host_xcomp(LINUX_ARCH_GET_XCOMP_SUPP, &supp);

	if (ret == 0)
		ret = host_xcomp(code == LINUX_ARCH_REQ_XCOMP_PERM
					 ? LINUX_ARCH_GET_XCOMP_PERM
					 : LINUX_ARCH_GET_XCOMP_GUEST_PERM,
				 &perm);
	if (ret < 0)
		return ret;
	if (idx >= LINUX_XFEATURE_MAX)
		return -EINVAL;
	if (idx != LINUX_XFEATURE_XTILE_DATA || (supp & want) != want)
		return -EOPNOTSUPP;
	if ((perm & want) == want)
		return 0;
	klog_once(LOG_WARN, "arch_prctl: AMX tile data (ARCH_REQ_XCOMP_PERM) is not offered: "
			    "EOPNOTSUPP");
	return -EOPNOTSUPP;
}

/* arch_prctl: the fs and gs bases, CPUID faulting (none), the XSAVE
 * features (the host's, AMX not offered). ARCH_MAP_VDSO_32 and _64 are
 * EEXIST while a vDSO is mapped, as Linux's; mapping one again once it
 * is gone (CRIU's restore) is not implemented: EINVAL, logged once. x32's,
 * shadow stacks and LAM are EINVAL, as on a Linux without them. */
long sys_arch_prctl(struct task *t, const struct sysargs *a)
{
	int code = sysarg_int(a, 0);
	uint64_t addr = a->a[1], v;
	struct pf_regs r;
	int ret;

	switch (code) {
	case LINUX_ARCH_GET_CPUID:
		return 1;
	case LINUX_ARCH_SET_CPUID:
		return -ENODEV; /* no CPUID faulting, as on hosts without it */
	case LINUX_ARCH_GET_XCOMP_SUPP:
	case LINUX_ARCH_GET_XCOMP_PERM:
	case LINUX_ARCH_GET_XCOMP_GUEST_PERM:
		ret = host_xcomp(code, &v);
		return ret < 0 ? ret : copy_to_user(t->mm, addr, &v, sizeof(v));
	case LINUX_ARCH_REQ_XCOMP_PERM:
	case LINUX_ARCH_REQ_XCOMP_GUEST_PERM:
		return xcomp_request(code, addr);
	case LINUX_ARCH_MAP_VDSO_32:
	case LINUX_ARCH_MAP_VDSO_64:
		if (mm_has_vdso(t->mm))
			return -EEXIST; /* Linux's map_vdso_once */
		klog_once(LOG_WARN, "arch_prctl: ARCH_MAP_VDSO_* is not implemented: EINVAL");
		return -EINVAL;
	}
	ret = platform->get_regs(t->thread, &r);
	if (ret < 0)
		return ret;
	ret = arch_prctl_fsgs(&r, code, addr, &v);
	if (ret == 1)
		return copy_to_user(t->mm, addr, &v, sizeof(v));
	if (ret == 0) {
		r.rax = 0;
		platform->set_regs(t->thread, &r);
	}
	return ret;
}

static int check_rlimit(struct task *t, struct process *target, int res,
			const struct linux_rlimit *n)
{
	const struct linux_rlimit *old = &target->rlim[res];

	if (n->rlim_cur > n->rlim_max)
		return -EINVAL;
	if (n->rlim_max > old->rlim_max && t->proc->cred.euid != 0)
		return -EPERM;
	if (res == LINUX_RLIMIT_NOFILE && n->rlim_max > NR_OPEN)
		return -EPERM;
	return 0;
}

/* A finite RLIMIT_CPU is watched from now on (Linux's update_rlimit_cpu). */
static void set_rlimit(struct process *p, int res, const struct linux_rlimit *n)
{
	p->rlim[res] = *n;
	if (res == LINUX_RLIMIT_CPU && n->rlim_cur != LINUX_RLIM_INFINITY)
		cputimer_poll_start(p);
}

/* Linux's check_prlimit_permission: another process's limits need its
 * every uid and gid to be the caller's real ones, or CAP_SYS_RESOURCE. */
static bool prlimit_may(struct task *t, struct process *p)
{
	const struct cred *c = &t->proc->cred, *tc = &p->cred;

	if (p == t->proc)
		return true;
	if (c->uid == tc->euid && c->uid == tc->suid && c->uid == tc->uid && c->gid == tc->egid &&
	    c->gid == tc->sgid && c->gid == tc->gid)
		return true;
	return capable(c, CAP_SYS_RESOURCE);
}

/* Any process's limits (prlimit --pid), not only the caller's: skas said
 * ESRCH for every other pid. */
long sys_prlimit64(struct task *t, const struct sysargs *a)
{
	int pid = sysarg_int(a, 0), res = sysarg_int(a, 1);
	uaddr_t unew = sysarg_uaddr(a, 2), uold = sysarg_uaddr(a, 3);
	struct linux_rlimit n, old;
	struct process *p = t->proc;
	struct task *target;
	int ret;

	/* Linux's order: EFAULT, ESRCH, EPERM, then do_prlimit's EINVAL */
	if (unew && copy_from_user(t->mm, &n, unew, sizeof(n)) < 0)
		return -EFAULT;
	if (pid < 0)
		return -ESRCH;
	if (pid) {
		target = task_by_vtid(t, pid);
		if (!target)
			return -ESRCH;
		p = target->proc;
	}
	if (!prlimit_may(t, p))
		return -EPERM;
	if ((unsigned)res >= NRLIMITS)
		return -EINVAL;
	if (unew) {
		ret = check_rlimit(t, p, res, &n);
		if (ret < 0)
			return ret;
	}
	old = p->rlim[res];
	if (uold && copy_to_user(t->mm, uold, &old, sizeof(old)) < 0)
		return -EFAULT;
	if (unew)
		set_rlimit(p, res, &n);
	return 0;
}

long sys_getrlimit(struct task *t, const struct sysargs *a)
{
	int res = sysarg_int(a, 0);

	if ((unsigned)res >= NRLIMITS)
		return -EINVAL;
	return copy_to_user(t->mm, sysarg_uaddr(a, 1), &t->proc->rlim[res],
			    sizeof(struct linux_rlimit));
}

long sys_setrlimit(struct task *t, const struct sysargs *a)
{
	int res = sysarg_int(a, 0), ret;
	struct linux_rlimit n;

	if ((unsigned)res >= NRLIMITS)
		return -EINVAL;
	if (copy_from_user(t->mm, &n, sysarg_uaddr(a, 1), sizeof(n)) < 0)
		return -EFAULT;
	ret = check_rlimit(t, t->proc, res, &n);
	if (ret == 0)
		set_rlimit(t->proc, res, &n);
	return ret;
}

long sys_getrandom(struct task *t, const struct sysargs *a)
{
	uaddr_t buf = sysarg_uaddr(a, 0);
	uint64_t len = sysarg_size(a, 1);
	unsigned flags = sysarg_uint(a, 2);
	size_t avail;
	char *k;
	long ret;

	if (flags & ~(LINUX_GRND_NONBLOCK | LINUX_GRND_RANDOM | LINUX_GRND_INSECURE))
		return -EINVAL;
	if ((flags & LINUX_GRND_RANDOM) && (flags & LINUX_GRND_INSECURE))
		return -EINVAL;
	if (len > GETRANDOM_MAX)
		len = GETRANDOM_MAX;
	if (len == 0)
		return 0;
	avail = user_prefix(t->mm, buf, len, true);
	if (avail == 0)
		return -EFAULT;
	k = malloc(avail);
	if (!k)
		return -ENOMEM;
	ret = host_getrandom(k, avail);
	if (ret == 0)
		ret = copy_to_user(t->mm, buf, k, avail) < 0 ? -EFAULT : (long)avail;
	free(k);
	return ret;
}

/* execve in a process with several threads: the others die, and the
 * execing thread takes the process's pid as its tid. */
static void de_thread(struct task *t)
{
	struct process *p = t->proc;
	struct task *o;

	list_for_each_entry(o, &p->threads, thread_link)
	{
		if (o == t)
			continue;
		o->killed = true;
		o->pt.exec_killed = true;
		task_kick(o);
	}
	p->exec_waiter = t;
	while (p->nthreads > 1) {
		t->state = TASK_SLEEPING;
		schedule();
	}
	p->exec_waiter = NULL;
	if (t->tid != p->pid) {
		/* the old leader's death record at a tracer goes silently,
		 * as Linux's de_thread releases a zombie leader */
		ptrace_leader_released(p);
		if (p->leader_pids) { /* the old leader's task is released */
			cgroup_pids_unhold(p->leader_pids);
			p->leader_pids = NULL;
		}
		children_take_tid(p, t->tid, p->pid);
		task_take_tid(t, p->pid);
	}
}

/* Copies a NULL-terminated array of guest strings (argv, envp) through
 * two read-ahead windows, one over the array and one over the strings
 * (they lie in different places, the strings close together): a few host
 * reads instead of two per string. */
static int get_strv(struct user_reader *r, uaddr_t uv, struct strv *sv)
{
	char *s = malloc(MAX_ARG_STRLEN);
	uint64_t p;
	int i, ret = 0;

	if (!s)
		return -ENOMEM;
	for (i = 0; uv; i++) {
		long n;

		if (user_reader_copy(&r[0], &p, uv + 8 * (uint64_t)i, sizeof(p)) < 0) {
			ret = -EFAULT;
			break;
		}
		if (!p)
			break;
		n = user_reader_strncpy(&r[1], s, p, MAX_ARG_STRLEN);
		if (n < 0) {
			ret = n == -ENAMETOOLONG ? -E2BIG : (int)n;
			break;
		}
		ret = strv_push(sv, s);
		if (ret < 0)
			break;
		/* Past any exec's limit (exec_load checks the real one):
		 * stop reading before a guest makes us hold more. */
		if (sv->bytes + (uint64_t)sv->n * sizeof(uint64_t) > EXEC_ARGS_MAX) {
			ret = -E2BIG;
			break;
		}
	}
	free(s);
	return ret;
}

/* execve, and execveat(dirfd, path, argv, envp, flags) with flags
 * AT_EMPTY_PATH (fexecve) and AT_SYMLINK_NOFOLLOW. */
static long do_execveat(struct task *t, int dirfd, uaddr_t upath, uaddr_t uargv, uaddr_t uenvp,
			int atflags)
{
	struct strv argv = { 0 }, envp = { 0 };
	struct file *file = NULL;
	char path[4096];
	struct pf_regs regs;
	struct pf_thread *th;
	struct user_reader *rd;
	struct cred nc;
	struct mm *mm;
	long ret;
	bool loaded;
	/* PTRACE_EVENT_EXEC's message, taken before de_thread lets the
	 * number go */
	int old_tid = ptrace_tracer_nr(t, t->tid);

	if (atflags & ~(LINUX_AT_EMPTY_PATH | LINUX_AT_SYMLINK_NOFOLLOW))
		return -EINVAL;
	rd = malloc(2 * sizeof(*rd));
	if (!rd)
		return -ENOMEM;
	user_reader_init(&rd[0], t->mm);
	user_reader_init(&rd[1], t->mm);
	user_reader_pair(&rd[0], &rd[1]);
	/* The caller's path, argv and its strings usually lie close together
	 * (its stack): the window over argv, read first, often holds the rest
	 * too, one host read for all. The path is still taken first (its
	 * error comes before argv's, as Linux's getname). */
	if (uargv)
		user_reader_prefetch(&rd[0], uargv);
	ret = user_reader_strncpy(&rd[1], path, upath, sizeof(path));
	if (ret == 0 && !(atflags & LINUX_AT_EMPTY_PATH))
		ret = -ENOENT;
	if (ret < 0) {
		free(rd);
		return ret;
	}
	/* A set*uid past RLIMIT_NPROC fails here while the user still is
	 * past it (Linux's PF_NPROC_EXCEEDED); below it, no longer. */
	if (t->proc->nproc_exceeded &&
	    nproc_count(t->proc->cred.uid) > t->proc->rlim[LINUX_RLIMIT_NPROC].rlim_cur) {
		free(rd);
		return -EAGAIN;
	}
	t->proc->nproc_exceeded = false;
	/* The file before argv and envp, as Linux 6.8 on (alloc_bprm opens
	 * it): a missing or non-executable file's error comes first. */
	ret = vfs_open_exec(t, dirfd, path, atflags, &file);
	if (ret == 0)
		ret = get_strv(rd, uargv, &argv);
	if (ret == 0)
		ret = get_strv(rd, uenvp, &envp);
	/* An empty argv gets "" (Linux 5.18 on): argc is never 0. */
	if (ret == 0 && argv.n == 0)
		ret = strv_push(&argv, "");
	free(rd);
	if (ret == 0) {
		ret = exec_load(t, dirfd, path, atflags, file, &argv, &envp, &mm, &th, &regs, &nc);
		file = NULL;
	}
	file_put(file);
	/* Also when the leader is gone already: the thread takes its pid. */
	if (ret == 0 && (t->proc->nthreads > 1 || t->tid != t->proc->pid))
		de_thread(t);
	loaded = ret == 0;
	if (loaded)
		ret = exec_switch(t, mm, th, &regs);
	if (ret == EXEC_FATAL) {
		strv_free(&argv);
		strv_free(&envp);
		process_exit(t, LINUX_SIGSEGV);
	}
	if (loaded) {
		if (ret < 0) {
			/* The old thread and address space are still ours. */
			mm_put(mm);
		} else {
			/* fexecve: the file's own name (Linux 6.14 on), read
			 * before its fd may close */
			struct file *f = path[0] ? NULL : fdget(t->files, dirfd);

			set_comm(t, f && f->path.dentry ? f->path.dentry->name : path);
			if (f)
				file_put(f);
			files_close_on_exec(t->files);
			ptimer_exit(t->proc); /* POSIX timers end at exec, as Linux */
			/* Handlers go back to the default; ignored stays ignored. */
			for (int i = 0; i < 64; i++)
				if (t->proc->sigactions[i].handler != LINUX_SIG_IGN)
					memset(&t->proc->sigactions[i], 0,
					       sizeof(t->proc->sigactions[i]));
			/* As Linux: no stack; the flags stay as they were. */
			t->altstack.ss_sp = 0;
			t->altstack.ss_size = 0;
			t->robust_list = 0;
			t->clear_child_tid = 0;
			t->no_result = true;
			t->proc->did_exec = true;
			nc.groups = t->proc->cred.groups;
			nc.ngroups = t->proc->cred.ngroups;
			cred_exec_commit(t, &nc);
			vfork_release(t);
			ptrace_exec(t, old_tid);
		}
	}
	strv_free(&argv);
	strv_free(&envp);
	return ret;
}

long sys_execve(struct task *t, const struct sysargs *a)
{
	return do_execveat(t, LINUX_AT_FDCWD, sysarg_uaddr(a, 0), sysarg_uaddr(a, 1),
			   sysarg_uaddr(a, 2), 0);
}

long sys_execveat(struct task *t, const struct sysargs *a)
{
	return do_execveat(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_uaddr(a, 2),
			   sysarg_uaddr(a, 3), sysarg_int(a, 4));
}

/* The securebits Linux has (6.14's EXEC_RESTRICT_FILE and
 * EXEC_DENY_INTERACTIVE included), and their locks; of them skas keeps
 * keep-caps (PR_SET_SECUREBITS with another bit is EINVAL, said in the
 * log). */
/* Linux's cap_task_prctl: CAP_SETPCAP; a locked bit does not change,
 * a lock does not go, no bit Linux 6.18 lacks. */
static long set_securebits(struct task *t, uint64_t bits)
{
	struct cred *c = &t->proc->cred;
	unsigned old = c->securebits;

	if ((((old & SECURE_ALL_LOCKS) >> 1) & (old ^ bits)) || (old & SECURE_ALL_LOCKS & ~bits) ||
	    (bits & ~(uint64_t)(SECURE_ALL_BITS | SECURE_ALL_LOCKS)) ||
	    !ns_capable(c, cred_user_ns(c), CAP_SETPCAP))
		return -EPERM;
	c->securebits = (unsigned)bits;
	return 0;
}

/* PR_CAP_AMBIENT (Linux's cap_task_prctl): IS_SET, RAISE (a capability
 * both permitted and inheritable), LOWER, CLEAR_ALL. */
static long cap_ambient(struct task *t, uint64_t op, uint64_t cap, uint64_t rest)
{
	struct cred *c = &t->proc->cred;

	if (op == 4 /* CLEAR_ALL */) {
		if (cap | rest)
			return -EINVAL;
		c->cap_ambient = 0;
		return 0;
	}
	if (cap > CAP_LAST_CAP || rest)
		return -EINVAL;
	switch (op) {
	case 1: /* IS_SET */
		return (c->cap_ambient >> cap) & 1;
	case 2: /* RAISE */
		if (!((c->cap_permitted & c->cap_inheritable) >> cap & 1) ||
		    (c->securebits & SECBIT_NO_CAP_AMBIENT_RAISE))
			return -EPERM;
		c->cap_ambient |= 1ULL << cap;
		return 0;
	case 3: /* LOWER */
		c->cap_ambient &= ~(1ULL << cap);
		return 0;
	default:
		return -EINVAL;
	}
}

/* prctl: the options below; others are EINVAL, said once in the log
 * (those past Linux's numbering, as Yama's PR_SET_PTRACER, once for
 * all). */
static unsigned char prctl_reported[128 / 8];

/* Linux's task_set_syscall_user_dispatch: mode OFF (0) or ON (1). */
#define PR_SET_SYSCALL_USER_DISPATCH  59
#define SYSCALL_DISPATCH_FILTER_ALLOW 0
#define SYSCALL_DISPATCH_FILTER_BLOCK 1
#define SYS_USER_DISPATCH	      2 /* SIGSYS's si_code */

static long set_sud(struct task *t, uint64_t mode, uint64_t offset, uint64_t len, uint64_t sel)
{
	switch (mode) {
	case 0:
		if (offset || len || sel)
			return -EINVAL;
		break;
	case 1:
		if (offset && offset + len <= offset)
			return -EINVAL;
		if (sel && sel >= TASK_SIZE)
			return -EFAULT;
		break;
	default:
		return -EINVAL;
	}
	t->sud.on = mode == 1;
	t->sud.offset = offset;
	t->sud.len = len;
	t->sud.selector = sel;
	return 0;
}

/* Linux's syscall_user_dispatch, before ptrace and seccomp see the call:
 * the handler finds the registers of the call (rax its number). */
bool sud_dispatch(struct task *t, int nr)
{
	struct linux_siginfo si;
	uint8_t state;

	if (t->ev.ip - t->sud.offset < t->sud.len)
		return false;
	if (t->sud.selector) {
		if (copy_from_user(t->mm, &state, t->sud.selector, 1) < 0) {
			force_signal_fatal(t, LINUX_SIGSEGV);
			return true;
		}
		if (state == SYSCALL_DISPATCH_FILTER_ALLOW)
			return false;
		if (state != SYSCALL_DISPATCH_FILTER_BLOCK) {
			force_signal_fatal(t, LINUX_SIGSYS);
			return true;
		}
	}
	memset(&si, 0, sizeof(si));
	si.si_signo = LINUX_SIGSYS;
	si.si_code = SYS_USER_DISPATCH;
	si.fields.sigsys.call_addr = t->ev.ip;
	si.fields.sigsys.syscall = nr;
	si.fields.sigsys.arch = LINUX_AUDIT_ARCH_X86_64;
	force_signal_info(t, &si);
	return true;
}

/* Linux 6.18's prctl_set_thp_disable: flags only when disabling. */
static long set_thp_disable(struct mm *mm, uint64_t off, uint64_t flags, uint64_t rest)
{
	if (rest || (!off && flags) || (flags & ~(uint64_t)LINUX_PR_THP_DISABLE_EXCEPT_ADVISED))
		return -EINVAL;
	mm->thp = !off ? THP_ON : flags ? THP_OFF_EXCEPT_ADVISED : THP_OFF;
	return 0;
}

/* PR_GET_AUXV (Linux 6.4, prctl_get_auxv): the vector exec gave, as
 * Linux keeps it (mm->saved_auxv: 28 pairs in Linux 6.18, those past
 * AT_NULL zero), its first len bytes; returns the whole array's size. */
#define SAVED_AUXV_SIZE 448

static long get_auxv(struct mm *mm, uaddr_t buf, uint64_t len)
{
	uint64_t v[SAVED_AUXV_SIZE / 8] = { 0 };
	int n = mm->nauxv < SAVED_AUXV_SIZE / 8 ? mm->nauxv : SAVED_AUXV_SIZE / 8;

	memcpy(v, mm->saved_auxv, (size_t)n * sizeof(v[0]));
	if (len > sizeof(v))
		len = sizeof(v);
	if (len && copy_to_user(mm, buf, v, len) < 0)
		return -EFAULT;
	return sizeof(v);
}

long sys_prctl(struct task *t, const struct sysargs *a)
{
	int option = sysarg_int(a, 0);
	uint64_t arg2 = a->a[1];
	char name[LINUX_TASK_COMM_LEN];
	long n;

	switch (option) {
	case PR_SET_SYSCALL_USER_DISPATCH:
		return set_sud(t, arg2, a->a[2], a->a[3], a->a[4]);
	case LINUX_PR_SET_NAME:
		n = strncpy_from_user(t->mm, name, arg2, sizeof(name));
		if (n == -EFAULT)
			return -EFAULT;
		name[sizeof(name) - 1] = 0;
		memcpy(t->comm, name, sizeof(t->comm));
		return 0;
	case LINUX_PR_GET_NAME:
		return copy_to_user(t->mm, arg2, t->comm, sizeof(t->comm));
	case LINUX_PR_GET_DUMPABLE:
		return !t->proc->nondumpable;
	case LINUX_PR_SET_DUMPABLE:
		if (arg2 > 1)
			return -EINVAL;
		t->proc->nondumpable = arg2 == 0;
		return 0;
	case LINUX_PR_SET_NO_NEW_PRIVS:
		if (arg2 != 1 || a->a[2] || a->a[3] || a->a[4])
			return -EINVAL;
		t->proc->no_new_privs = true;
		return 0;
	case LINUX_PR_GET_NO_NEW_PRIVS:
		if (arg2 || a->a[2] || a->a[3] || a->a[4])
			return -EINVAL;
		return t->proc->no_new_privs;
	case LINUX_PR_SET_CHILD_SUBREAPER:
		t->proc->subreaper = arg2 != 0;
		return 0;
	case LINUX_PR_GET_CHILD_SUBREAPER:
		return copy_to_user(t->mm, arg2, &(int){ t->proc->subreaper }, sizeof(int));
	case LINUX_PR_SET_PDEATHSIG:
		if (arg2 > LINUX_NSIG)
			return -EINVAL;
		t->pdeath_signal = (int)arg2;
		return 0;
	case LINUX_PR_GET_PDEATHSIG:
		return copy_to_user(t->mm, arg2, &t->pdeath_signal, sizeof(int));
	case LINUX_PR_GET_KEEPCAPS:
		return !!(t->proc->cred.securebits & SECBIT_KEEP_CAPS);
	case LINUX_PR_SET_KEEPCAPS:
		if (arg2 > 1)
			return -EINVAL;
		if (t->proc->cred.securebits & (SECBIT_KEEP_CAPS << 1)) /* locked */
			return -EPERM;
		if (arg2)
			t->proc->cred.securebits |= SECBIT_KEEP_CAPS;
		else
			t->proc->cred.securebits &= ~(unsigned)SECBIT_KEEP_CAPS;
		return 0;
	case LINUX_PR_GET_SECUREBITS:
		return t->proc->cred.securebits;
	case LINUX_PR_SET_SECUREBITS:
		return set_securebits(t, arg2);
	case LINUX_PR_CAP_AMBIENT:
		return cap_ambient(t, arg2, a->a[2], a->a[3] | a->a[4]);
	case LINUX_PR_CAPBSET_READ:
		return arg2 <= CAP_LAST_CAP ? (long)(t->proc->cred.cap_bset >> arg2 & 1) : -EINVAL;
	case LINUX_PR_CAPBSET_DROP:
		if (!ns_capable(&t->proc->cred, cred_user_ns(&t->proc->cred), CAP_SETPCAP))
			return -EPERM;
		if (arg2 > CAP_LAST_CAP)
			return -EINVAL;
		t->proc->cred.cap_bset &= ~(1ULL << arg2);
		return 0;
	case LINUX_PR_GET_SECCOMP:
		return t->seccomp_mode;
	case LINUX_PR_SET_SECCOMP:
		return task_seccomp_prctl(t, arg2, a->a[2]);
	case LINUX_PR_GET_TIMERSLACK:
		return (long)t->timer_slack_ns;
	case LINUX_PR_SET_TIMERSLACK:
		/* Linux 6.x: a real-time or deadline thread's slack stays 0 */
		if (t->sched_policy == SCHED_POLICY_FIFO || t->sched_policy == SCHED_POLICY_RR ||
		    t->sched_policy == SCHED_POLICY_DEADLINE)
			return 0;
		t->timer_slack_ns = arg2 ? arg2 : t->default_timer_slack_ns;
		return 0;
	case LINUX_PR_GET_TIMING: /* statistical, the only kind */
		return 0;
	case LINUX_PR_SET_TIMING:
		return arg2 == 0 ? 0 : -EINVAL;
	case LINUX_PR_GET_TSC: {
		/* Partial: the TSC is always readable; PR_TSC_SIGSEGV (2) to
		 * PR_SET_TSC is EINVAL (the stub's rdtsc cannot be trapped) */
		uint32_t v = 1; /* PR_TSC_ENABLE */

		return copy_to_user(t->mm, arg2, &v, sizeof(v));
	}
	case LINUX_PR_SET_TSC:
		return arg2 == 1 ? 0 : -EINVAL;
	case LINUX_PR_TASK_PERF_EVENTS_DISABLE: /* no perf events here */
	case LINUX_PR_TASK_PERF_EVENTS_ENABLE:
		return 0;
	case LINUX_PR_MCE_KILL: /* CLEAR (0) with 0, or SET (1) LATE, EARLY or DEFAULT */
		if (a->a[3] | a->a[4])
			return -EINVAL;
		if (arg2 == 0 && a->a[2] == 0)
			t->mce_kill = 2;
		else if (arg2 == 1 && a->a[2] <= 2)
			t->mce_kill = (uint8_t)a->a[2];
		else
			return -EINVAL;
		return 0;
	case LINUX_PR_MCE_KILL_GET:
		return arg2 | a->a[2] | a->a[3] | a->a[4] ? -EINVAL : t->mce_kill;
	case LINUX_PR_SET_IO_FLUSHER:
		if (!capable(&t->proc->cred, CAP_SYS_RESOURCE))
			return -EPERM;
		if ((a->a[2] | a->a[3] | a->a[4]) || arg2 > 1)
			return -EINVAL;
		t->io_flusher = arg2 == 1;
		return 0;
	case LINUX_PR_GET_IO_FLUSHER:
		if (!capable(&t->proc->cred, CAP_SYS_RESOURCE))
			return -EPERM;
		return arg2 | a->a[2] | a->a[3] | a->a[4] ? -EINVAL : t->io_flusher;
	case LINUX_PR_GET_TID_ADDRESS:
		return copy_to_user(t->mm, arg2, &t->clear_child_tid, sizeof(uint64_t));
	case LINUX_PR_GET_AUXV:
		return a->a[3] | a->a[4] ? -EINVAL : get_auxv(t->mm, arg2, a->a[2]);
	case LINUX_PR_SET_THP_DISABLE:
		return set_thp_disable(t->mm, arg2, a->a[2], a->a[3] | a->a[4]);
	case LINUX_PR_SET_MDWE: /* prctl_set_mdwe: once set, for good */
		if (a->a[2] | a->a[3] | a->a[4])
			return -EINVAL;
		if (arg2 & ~(uint64_t)(LINUX_PR_MDWE_REFUSE_EXEC_GAIN | LINUX_PR_MDWE_NO_INHERIT))
			return -EINVAL;
		if ((arg2 & LINUX_PR_MDWE_NO_INHERIT) && !(arg2 & LINUX_PR_MDWE_REFUSE_EXEC_GAIN))
			return -EINVAL;
		if (t->mm->mdwe && t->mm->mdwe != arg2)
			return -EPERM;
		t->mm->mdwe = (unsigned char)arg2;
		return 0;
	case LINUX_PR_GET_MDWE:
		if (arg2 || a->a[2] || a->a[3] || a->a[4])
			return -EINVAL;
		return t->mm->mdwe;
	case LINUX_PR_GET_THP_DISABLE:
		if (arg2 || a->a[2] || a->a[3] || a->a[4])
			return -EINVAL;
		return t->mm->thp == THP_ON    ? 0
		       : t->mm->thp == THP_OFF ? 1
					       : 1 | LINUX_PR_THP_DISABLE_EXCEPT_ADVISED;
	default: {
		/* the bit of the option, or the last one for all past 126 */
		unsigned bit = option >= 0 && option < 127 ? (unsigned)option : 127;

		if (!(prctl_reported[bit / 8] & (1 << bit % 8))) {
			prctl_reported[bit / 8] |= (unsigned char)(1 << bit % 8);
			klog(LOG_INFO, "prctl option %#x is not implemented: EINVAL", option);
		}
		return -EINVAL;
	}
	}
}

long sys_personality(struct task *t, const struct sysargs *a)
{
	unsigned old = t->proc->personality, p = sysarg_uint(a, 0);

	if (p != 0xffffffff)
		t->proc->personality = p;
	return old;
}

long sys_sched_getaffinity(struct task *t, const struct sysargs *a)
{
	/* Linux's len is an unsigned int, and len * 8 wraps in one. */
	uint32_t size = sysarg_uint(a, 1);
	uint64_t mask[TASK_CPUS_MAX / 64];
	int pid = sysarg_int(a, 0), ncpu = cpus_count();
	struct task *p = pid ? task_by_vtid(t, pid) : t;

	if (size * 8u < (uint32_t)ncpu || (size & 7))
		return -EINVAL;
	if (pid < 0 || !p)
		return -ESRCH;
	task_affinity(p, mask);
	size = 8 * (uint64_t)((ncpu + 63) / 64);
	if (copy_to_user(t->mm, sysarg_uaddr(a, 2), mask, size) < 0)
		return -EFAULT;
	return (long)size;
}

/* Affinity (policies and priorities: sys_sched.c): the guest sees
 * cpus_count() CPUs (--cpus N, else the host's). A thread's mask is kept
 * (sched_getaffinity, /proc/PID/status and clone see it), checked as Linux
 * does: the CPUs past the guest's are dropped, none left is EINVAL, another
 * owner's thread wants CAP_SYS_NICE. Differs from Linux: it is not applied:
 * the host scheduler decides where guest threads run (the stubs run on the
 * kernel's CPU, or on N CPUs with --cpus); getcpu reports that CPU's
 * number modulo the guest's CPUs. */
long sys_sched_setaffinity(struct task *t, const struct sysargs *a)
{
	uint64_t size = sysarg_size(a, 1), mask[TASK_CPUS_MAX / 64] = { 0 },
		 all[TASK_CPUS_MAX / 64];
	int pid = sysarg_int(a, 0), i;
	struct task *p = pid ? task_by_vtid(t, pid) : t;
	const struct cred *c = &t->proc->cred;
	bool any = false;

	if (size > sizeof(mask))
		size = sizeof(mask);
	if (copy_from_user(t->mm, mask, sysarg_uaddr(a, 2), size) < 0)
		return -EFAULT;
	if (pid < 0 || !p)
		return -ESRCH;
	if (c->euid != p->proc->cred.euid && c->euid != p->proc->cred.uid &&
	    !capable(c, CAP_SYS_NICE))
		return -EPERM;
	task_affinity(NULL, all);
	for (i = 0; i < TASK_CPUS_MAX / 64; i++) {
		mask[i] &= all[i];
		any |= mask[i] != 0;
	}
	/* dl_task_check_affinity, before the empty mask's EINVAL: a deadline
	 * task keeps every CPU of its root domain (its bandwidth was
	 * admitted against all of them) */
	if (p->sched_policy == SCHED_POLICY_DEADLINE && memcmp(mask, all, sizeof(mask)) != 0)
		return -EBUSY;
	if (!any)
		return -EINVAL;
	p->affinity_set = true;
	memcpy(p->affinity, mask, sizeof(mask));
	return 0;
}

long sys_getcpu(struct task *t, const struct sysargs *a)
{
	unsigned cpu = (unsigned)cpus_current(t), node = 0;

	if (sysarg_uaddr(a, 0) && copy_to_user(t->mm, sysarg_uaddr(a, 0), &cpu, sizeof(cpu)) < 0)
		return -EFAULT;
	if (sysarg_uaddr(a, 1) && copy_to_user(t->mm, sysarg_uaddr(a, 1), &node, sizeof(node)) < 0)
		return -EFAULT;
	return 0;
}
