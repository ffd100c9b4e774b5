/* fs/procfs/pid.c: /proc/PID and /proc/PID/task/TID: what a process is
 * (stat, status, statm), what it runs (cmdline, environ, comm, exe), its
 * memory (maps), files (fd/, fdinfo/, cwd, root), mounts and limits, in
 * the formats of Linux's fs/proc/array.c and base.c. CPU times and page
 * faults come from kernel/cputime.c; numbers the kernel does not keep
 * (resident pages) are an estimate from the VMAs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cpus.h"
#include "fs/procfs/internal.h"
#include "fs/tmpfs/tmpfs.h"
#include "kernel/task.h"
#include "kernel/cgroup.h"
#include "kernel/pidns.h"
#include "kernel/userns.h"
#include "kernel/timens.h"
#include "kernel/cred.h"
#include "kernel/coredump.h"
#include "kernel/oom.h"
#include "kernel/seccomp.h"
#include "mm/commit.h"
#include "tty/tty.h"
#include "mm/mm.h"
#include "mm/usercopy.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "host/host.h"
#include "mm/mempolicy.h"
#include "platform/platform.h"
#include "net/proc.h"
#include "net/netns.h"
#include "fs/nsfs/nsfs.h"
#include "vfs/namespace.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/mman.h"
#include "abi/linux/signal.h"
#include "abi/linux/stat.h"

#define PF_RANDOMIZE 0x00400000

static struct process *proc_of(const struct pnode *n)
{
	return procfs_process(n);
}

/* The thread's mm, or NULL for a zombie and a zombie leader (stat's
 * sizes 0, no Vm lines, cmdline and maps empty). */
static struct mm *mm_of(const struct pnode *n)
{
	struct task *t = procfs_own_task(n);

	return t ? t->mm : NULL;
}

/* The comm n names (read and written by /proc/PID/comm): a thread's own,
 * or for the process its leader's, kept once the leader has exited (a
 * zombie's: ps shows "[sleep] <defunct>"; and while other threads, which
 * may have other names, run on); NULL if n has none. */
static char *comm_ptr(const struct pnode *n)
{
	struct process *p = proc_of(n);
	struct task *t;

	if (p && (!n->tid || n->tid == p->pid)) {
		t = task_by_tid(p->pid);
		return t && t->proc == p && t->state != TASK_DEAD ? t->comm : p->leader_comm;
	}
	t = procfs_task(n);
	return t ? t->comm : NULL;
}

static const char *comm_of(const struct pnode *n)
{
	const char *c = comm_ptr(n);

	return c ? c : "";
}

/* Linux's signal->nr_threads: the live threads and an exited leader,
 * counted until the reap (a zombie has 1). */
static int nr_threads(const struct pnode *n)
{
	struct process *p = proc_of(n);
	struct task *l = task_by_tid(p->pid);

	return p->nthreads + (!l || l->proc != p || l->state == TASK_DEAD ? 1 : 0);
}

static char state_of(const struct pnode *n)
{
	struct process *p = proc_of(n);
	struct task *t = procfs_task(n);

	/* The process's state is its leader's: Z once the leader has
	 * exited, even while other threads run on (Linux's zombie leader). */
	if (p && !n->tid) {
		struct task *l = task_by_tid(p->pid);

		if (!l || l->state == TASK_DEAD || l->proc != p)
			return 'Z';
	}

	/* no live thread: a zombie, or the directory of a leader that has
	 * exited while its threads run on (Linux's zombie leader) */
	if (!t)
		return p ? 'Z' : 'X';
	/* In a group stop (ps, and shells' job tables by it, showed a
	 * stopped job as sleeping). */
	if (t->stop_parked) /* a tracee's group stop is a ptrace stop */
		return t->pt.tracer ? 't' : 'T';
	if (t->pt.stopped)
		return 't';
	/* wait_for_vfork_done sleeps TASK_KILLABLE: uninterruptible */
	if (t->vfork_waiting && t->state == TASK_SLEEPING)
		return 'D';
	switch (t->state) {
	case TASK_SLEEPING:
		return 'S';
	case TASK_DEAD:
		return 'X';
	default:
		return 'R';
	}
}

static const char *state_name(char c)
{
	switch (c) {
	case 'R':
		return "R (running)";
	case 'S':
		return "S (sleeping)";
	case 'D':
		return "D (disk sleep)";
	case 'T':
		return "T (stopped)";
	case 't':
		return "t (tracing stop)";
	case 'Z':
		return "Z (zombie)";
	default:
		return "X (dead)";
	}
}

static uint64_t sig_ignored(struct process *p)
{
	uint64_t m = 0;
	int i;

	for (i = 0; i < 64; i++)
		if (p->sigactions[i].handler == LINUX_SIG_IGN)
			m |= 1ULL << i;
	return m;
}

static uint64_t sig_caught(struct process *p)
{
	uint64_t m = 0;
	int i;

	for (i = 0; i < 64; i++)
		if (p->sigactions[i].handler != LINUX_SIG_IGN &&
		    p->sigactions[i].handler != LINUX_SIG_DFL)
			m |= 1ULL << i;
	return m;
}

static bool vma_is_exe(struct mm *mm, struct vma *v)
{
	return v->file && mm->exe.dentry && v->file->path.dentry &&
	       v->file->path.dentry->inode == mm->exe.dentry->inode;
}

/* Sizes in bytes. Resident memory is not known (the host keeps the pages):
 * it is estimated as every accessible mapping, the stack counting only
 * what exec put on it plus 128 KiB. */
void procfs_mm_sizes(struct mm *mm, struct mm_sizes *s)
{
	struct host_rss rss;
	struct vma *v;

	memset(s, 0, sizeof(*s));
	if (!mm)
		return;
	list_for_each_entry(v, &mm->vmas, link)
	{
		uint64_t len = v->end - v->start;

		if (v->flags & VMA_STUB)
			continue;
		s->vsize += len;
		if (v->flags & VMA_STACK)
			s->stack += len;
		else if ((v->prot & LINUX_PROT_WRITE) && !(v->flags & VMA_SHARED))
			s->data += len;
		if ((v->prot & LINUX_PROT_EXEC) && v->file) {
			if (vma_is_exe(mm, v))
				s->exe += len;
			else
				s->lib += len;
		}
	}
	if (host_proc_rss(platform->mm_host_pid(mm->pf), &rss) < 0)
		return;
	s->rss_anon = (uint64_t)rss.anon_kb << 10;
	s->rss_file = (uint64_t)rss.file_kb << 10;
	s->rss_shmem = (uint64_t)rss.shmem_kb << 10;
	s->hwm = (uint64_t)rss.hwm_kb << 10;
}

/* starttime: ticks from the instance's boot to start_ns, with the reader's
 * boottime offset (Linux's timens_add_boottime_ns). */
static uint64_t starttime(int64_t start_ns)
{
	int64_t ns = start_ns - procfs_boot_mono_ns;

	if (current)
		ns = timens_to_task(current, LINUX_CLOCK_BOOTTIME, ns);
	return ns > 0 ? (uint64_t)ns / (1000000000 / USER_HZ) : 0;
}

/* /proc/PID/stat: 52 fields, as fs/proc/array.c do_task_stat. */
static int gen_stat(const struct pnode *n, struct sbuf *b)
{
	struct process *p = proc_of(n);
	struct task *t = procfs_task(n);
	struct mm *mm = mm_of(n);
	struct mm_sizes sz;
	bool show = current && procfs_may_access(current, p);
	uint64_t pending = 0, blocked = 0;
	int tpgid;
	struct cpu_usage u, c;

	procfs_mm_sizes(mm, &sz);
	tpgid = tty_proc_tpgid(p);
	if (t) {
		pending = t->pending | p->pending;
		blocked = t->sigmask;
	}
	if (!show || !mm)
		mm = NULL;
	sb_printf(b, "%d (%s) %c %d %d %d %d %d %u ", procfs_nr(n, n->tid ? n->tid : p->pid),
		  comm_of(n), state_of(n), p->parent ? procfs_nr(n, p->parent->pid) : 0,
		  procfs_nr(n, p->pgid), procfs_nr(n, p->sid), tty_proc_nr(p),
		  tpgid > 0 ? procfs_nr(n, tpgid) : tpgid,
		  (mm_of(n) && mm_of(n)->randomize) ? PF_RANDOMIZE : 0);
	/* minflt cminflt majflt cmajflt utime stime cutime cstime (ticks) */
	if (n->tid && t)
		cputime_task(t, &u);
	else
		cputime_process(p, &u);
	cputime_children(p, &c);
	sb_printf(b, "%llu %llu %llu %llu %lld %lld %lld %lld ", (unsigned long long)u.minflt,
		  (unsigned long long)c.minflt, (unsigned long long)u.majflt,
		  (unsigned long long)c.majflt, (long long)(u.utime / 10000000),
		  (long long)(u.stime / 10000000), (long long)(c.utime / 10000000),
		  (long long)(c.stime / 10000000));
	sb_printf(b, "%d %d %d 0 %llu %llu %llu %llu ", t ? task_prio(t) : 20, t ? t->nice : 0,
		  nr_threads(n),
		  (unsigned long long)starttime(n->tid && t ? t->start_ns : p->start_ns),
		  (unsigned long long)sz.vsize,
		  (unsigned long long)((sz.rss_anon + sz.rss_file + sz.rss_shmem) / PAGE_SIZE),
		  (unsigned long long)p->rlim[LINUX_RLIMIT_RSS].rlim_cur);
	sb_printf(b, "%llu %llu %llu 0 0 ", (unsigned long long)(mm ? mm->start_code : 0),
		  (unsigned long long)(mm ? mm->end_code : 0),
		  (unsigned long long)(mm ? mm->start_stack : 0));
	/* signal blocked sigignore sigcatch wchan nswap cnswap exit_signal
	 * processor rt_priority policy delayacct_blkio_ticks guest_time
	 * cguest_time */
	sb_printf(b, "%llu %llu %llu %llu 0 0 0 %d 0 %u %d 0 0 0 ", (unsigned long long)pending,
		  (unsigned long long)blocked, (unsigned long long)sig_ignored(p),
		  (unsigned long long)sig_caught(p), p->exit_signal, t ? t->sched_rt_priority : 0,
		  t ? t->sched_policy : 0);
	sb_printf(b, "%llu %llu %llu %llu %llu %llu %llu %d\n",
		  (unsigned long long)(mm ? mm->start_data : 0),
		  (unsigned long long)(mm ? mm->end_data : 0),
		  (unsigned long long)(mm ? mm->start_brk : 0),
		  (unsigned long long)(mm ? mm->arg_start : 0),
		  (unsigned long long)(mm ? mm->arg_end : 0),
		  (unsigned long long)(mm ? mm->env_start : 0),
		  (unsigned long long)(mm ? mm->env_end : 0), p->zombie ? p->exit_code : 0);
	return 0;
}

/* /proc/PID/statm: pages. */
static int gen_statm(const struct pnode *n, struct sbuf *b)
{
	struct mm_sizes sz;

	procfs_mm_sizes(mm_of(n), &sz);
	sb_printf(b, "%llu %llu %llu %llu 0 %llu 0\n", (unsigned long long)(sz.vsize / PAGE_SIZE),
		  (unsigned long long)((sz.rss_anon + sz.rss_file + sz.rss_shmem) / PAGE_SIZE),
		  (unsigned long long)((sz.rss_file + sz.rss_shmem) / PAGE_SIZE),
		  (unsigned long long)(sz.exe / PAGE_SIZE),
		  (unsigned long long)((sz.data + sz.stack) / PAGE_SIZE));
	return 0;
}

static void kb_line(struct sbuf *b, const char *name, uint64_t bytes)
{
	sb_printf(b, "%s:\t%8llu kB\n", name, (unsigned long long)(bytes >> 10));
}

static bool cpu_in(const uint64_t *mask, int i)
{
	return (mask[i / 64] >> (i % 64)) & 1;
}

/* Cpus_allowed as Linux's %*pb (hex, ncpu bits, a comma every 32) and
 * Cpus_allowed_list as its %*pbl (ranges). A zombie has every CPU. */
static void cpus_allowed(struct sbuf *b, const struct task *t, int ncpu)
{
	uint64_t mask[TASK_CPUS_MAX / 64];
	const char *sep = "";
	int i, j;

	task_affinity(t, mask);
	sb_printf(b, "Cpus_allowed:\t");
	for (i = (ncpu - 1) / 4; i >= 0; i--) {
		sb_printf(b, "%x", (unsigned)(mask[i / 16] >> (i % 16 * 4)) & 0xf);
		if (i && i % 8 == 0)
			sb_printf(b, ",");
	}
	sb_printf(b, "\nCpus_allowed_list:\t");
	for (i = 0; i < ncpu; i = j) {
		if (!cpu_in(mask, i)) {
			j = i + 1;
			continue;
		}
		for (j = i + 1; j < ncpu && cpu_in(mask, j);)
			j++;
		if (j - 1 > i)
			sb_printf(b, "%s%d-%d", sep, i, j - 1);
		else
			sb_printf(b, "%s%d", sep, i);
		sep = ",";
	}
	sb_printf(b, "\n");
}

/* /proc/PID/status, as fs/proc/array.c proc_pid_status. */
/* id's number in each pid namespace from level first down to the one
 * process own (its pid) is in, each after a tab. */
static void ns_nrs(struct sbuf *b, int first, int id, int own)
{
	struct pid_ns *levels[PIDNS_LEVEL_MAX + 1], *ns;
	int g;

	for (ns = pid_ns_of(own); ns; ns = ns->parent)
		levels[ns->level] = ns;
	for (g = first; g <= pid_ns_of(own)->level; g++)
		sb_printf(b, "\t%d", pid_nr_ns(id, levels[g]));
}

/* Linux's NS* lines of status: from the mount's namespace down. */
static void ns_ids(struct sbuf *b, const struct pnode *n, const char *name, int id, int own)
{
	sb_printf(b, "\n%s:", name);
	ns_nrs(b, n->ns->level, id, own);
}

static int gen_status(const struct pnode *n, struct sbuf *b)
{
	struct process *p = proc_of(n);
	struct task *t = procfs_task(n);
	struct mm *mm = mm_of(n);
	const struct cred *c = &p->cred;
	const struct user_ns *rns = current ? cred_user_ns(&current->proc->cred) : &init_user_ns;
	struct mm_sizes sz;
	int ncpu = cpus_count(), i, queued = 0;
	const char *s;

	sb_printf(b, "Name:\t");
	for (s = comm_of(n); *s; s++) {
		if (*s == '\n')
			sb_printf(b, "\\n");
		else if (*s == '\\')
			sb_printf(b, "\\\\");
		else
			sb_put(b, s, 1);
	}
	sb_printf(b, "\nUmask:\t%04o\nState:\t%s\n", p->umask, state_name(state_of(n)));
	sb_printf(b, "Tgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\nTracerPid:\t%d\n",
		  procfs_nr(n, p->pid), procfs_nr(n, n->tid ? n->tid : p->pid),
		  p->parent ? procfs_nr(n, p->parent->pid) : 0, procfs_nr(n, ptrace_tracer_pid(t)));
	/* the ids as the reader's user namespace sees them */
	sb_printf(b, "Uid:\t%u\t%u\t%u\t%u\nGid:\t%u\t%u\t%u\t%u\n", from_kuid_munged(rns, c->uid),
		  from_kuid_munged(rns, c->euid), from_kuid_munged(rns, c->suid),
		  from_kuid_munged(rns, c->fsuid), from_kgid_munged(rns, c->gid),
		  from_kgid_munged(rns, c->egid), from_kgid_munged(rns, c->sgid),
		  from_kgid_munged(rns, c->fsgid));
	sb_printf(b, "FDSize:\t%d\nGroups:\t", t && t->files && t->files->max ? t->files->max : 64);
	for (i = 0; i < c->ngroups; i++)
		sb_printf(b, "%s%u", i ? " " : "", from_kgid_munged(rns, c->groups[i]));
	sb_put(b, " ", 1);
	ns_ids(b, n, "NStgid", p->pid, p->pid);
	ns_ids(b, n, "NSpid", n->tid ? n->tid : p->pid, p->pid);
	ns_ids(b, n, "NSpgid", p->pgid, p->pid);
	ns_ids(b, n, "NSsid", p->sid, p->pid);
	sb_printf(b, "\nKthread:\t0\n");
	if (mm) {
		procfs_mm_sizes(mm, &sz);
		kb_line(b, "VmPeak", sz.vsize);
		kb_line(b, "VmSize", sz.vsize);
		kb_line(b, "VmLck", mm_locked_bytes(mm));
		kb_line(b, "VmPin", 0);
		kb_line(b, "VmHWM", sz.hwm);
		kb_line(b, "VmRSS", sz.rss_anon + sz.rss_file + sz.rss_shmem);
		kb_line(b, "RssAnon", sz.rss_anon);
		kb_line(b, "RssFile", sz.rss_file);
		kb_line(b, "RssShmem", sz.rss_shmem);
		kb_line(b, "VmData", sz.data);
		kb_line(b, "VmStk", sz.stack);
		kb_line(b, "VmExe", sz.exe);
		kb_line(b, "VmLib", sz.lib);
		kb_line(b, "VmPTE", 0);
		kb_line(b, "VmSwap", 0);
		kb_line(b, "HugetlbPages", 0);
		sb_printf(b, "CoreDumping:\t0\nTHP_enabled:\t%d\n", mm->thp != THP_OFF);
	}
	for (i = 0; i < 64; i++) {
		queued += (p->pending >> i) & 1;
		if (t)
			queued += (t->pending >> i) & 1;
	}
	sb_printf(b, "Threads:\t%d\nSigQ:\t%d/%llu\n", nr_threads(n), queued,
		  (unsigned long long)p->rlim[LINUX_RLIMIT_SIGPENDING].rlim_cur);
	sb_printf(b, "SigPnd:\t%016llx\nShdPnd:\t%016llx\nSigBlk:\t%016llx\n",
		  (unsigned long long)(t ? t->pending : 0), (unsigned long long)p->pending,
		  (unsigned long long)(t ? t->sigmask : 0));
	sb_printf(b, "SigIgn:\t%016llx\nSigCgt:\t%016llx\n", (unsigned long long)sig_ignored(p),
		  (unsigned long long)sig_caught(p));
	sb_printf(b, "CapInh:\t%016llx\nCapPrm:\t%016llx\nCapEff:\t%016llx\n",
		  (unsigned long long)c->cap_inheritable, (unsigned long long)c->cap_permitted,
		  (unsigned long long)c->cap_effective);
	sb_printf(b, "CapBnd:\t%016llx\nCapAmb:\t%016llx\n", (unsigned long long)c->cap_bset,
		  (unsigned long long)c->cap_ambient);
	sb_printf(b, "NoNewPrivs:\t%d\nSeccomp:\t%d\nSeccomp_filters:\t%d\n", p->no_new_privs,
		  t ? t->seccomp_mode : 0, t ? task_seccomp_filters(t) : 0);
	sb_printf(b, "Speculation_Store_Bypass:\tthread vulnerable\n");
	sb_printf(b, "SpeculationIndirectBranch:\tconditional enabled\n");
	if (ncpu < 1)
		ncpu = 1;
	if (ncpu > TASK_CPUS_MAX)
		ncpu = TASK_CPUS_MAX;
	cpus_allowed(b, t, ncpu);
	/* Node 0 of MAX_NUMNODES, in words of 32 bits from the highest. */
	sb_printf(b, "Mems_allowed:\t");
	for (i = MAX_NUMNODES / 32 - 1; i > 0; i--)
		sb_printf(b, "00000000,");
	sb_printf(b, "00000001\nMems_allowed_list:\t0\n");
	sb_printf(b, "voluntary_ctxt_switches:\t%llu\nnonvoluntary_ctxt_switches:\t%llu\n",
		  (unsigned long long)(t ? t->nvcsw : 0), (unsigned long long)(t ? t->nivcsw : 0));
	return 0;
}

/* Bytes [start, end) of the guest's memory, as far as they can be read. */
static void put_user_range(struct sbuf *b, struct mm *mm, uaddr_t start, uaddr_t end)
{
	char chunk[4096];

	while (mm && start < end) {
		size_t n = end - start < sizeof(chunk) ? end - start : sizeof(chunk);

		if (n > PAGE_SIZE - (start & (PAGE_SIZE - 1)))
			n = PAGE_SIZE - (start & (PAGE_SIZE - 1));
		if (copy_from_user(mm, chunk, start, n) < 0)
			break;
		sb_put(b, chunk, n);
		start += n;
	}
}

/* Linux's get_mm_cmdline: the arguments; but when the last byte of
 * their area is no longer a NUL (setproctitle wrote over it, maybe on
 * into the environment's area that follows), the string from their start
 * to its NUL, within a page (get_mm_proctitle). */
static int gen_cmdline(const struct pnode *n, struct sbuf *b)
{
	struct mm *mm = mm_of(n);
	struct sbuf t = { 0 };
	uaddr_t end;
	size_t len;
	char c;

	if (!mm || mm->arg_start >= mm->arg_end)
		return 0;
	if (copy_from_user(mm, &c, mm->arg_end - 1, 1) < 0 || c == 0) {
		put_user_range(b, mm, mm->arg_start, mm->arg_end);
		return 0;
	}
	end = mm->env_start == mm->arg_end && mm->env_end >= mm->env_start ? mm->env_end
									   : mm->arg_end;
	if (end - mm->arg_start > PAGE_SIZE)
		end = mm->arg_start + PAGE_SIZE;
	put_user_range(&t, mm, mm->arg_start, end);
	if (t.oom) {
		free(t.buf);
		return -ENOMEM;
	}
	len = t.buf ? strnlen(t.buf, t.len) : 0;
	if (len < t.len)
		len++; /* its NUL */
	sb_put(b, t.buf, len);
	free(t.buf);
	return 0;
}

static int gen_environ(const struct pnode *n, struct sbuf *b)
{
	struct mm *mm = mm_of(n);

	/* Linux's __mem_open: no mm (a zombie, a zombie leader) is ESRCH,
	 * before any access check */
	if (!mm)
		return -ESRCH;
	if (!current || !procfs_may_access(current, proc_of(n)))
		return -EACCES;
	if (mm)
		put_user_range(b, mm, mm->env_start, mm->env_end);
	return 0;
}

/* /proc/PID/auxv: the vector exec gave (Linux's saved_auxv; a debugger
 * finds a PIE's load address by its AT_ENTRY): readable with ptrace
 * access, as environ. */
static int gen_auxv(const struct pnode *n, struct sbuf *b)
{
	struct mm *mm = mm_of(n);

	/* Linux's __mem_open: no mm (a zombie, a zombie leader) is ESRCH,
	 * before any access check */
	if (!mm)
		return -ESRCH;
	if (!current || !procfs_may_access(current, proc_of(n)))
		return -EACCES;
	if (mm)
		sb_put(b, mm->saved_auxv, mm->nauxv * sizeof(uint64_t));
	return 0;
}

/* /proc/PID/mem: the process's memory at the file offset, read and
 * written as Linux's mem_rw (a page at a time; a private mapping the
 * guest may not write is written all the same, as a debugger's
 * FOLL_FORCE), through the address space it had at open: after its exec
 * or exit nothing is read. The file holds no reference to the address
 * space (which would keep its stub alive past the process): each access
 * finds it again by the process and the address space's serial, and
 * holds it for the access. Open needs ptrace access to the process.
 * Differs from Linux: a page the guest may not read (PROT_NONE) is not
 * read. */
struct mem_file {
	int pid;
	uint64_t serial;
};

static struct mm *mem_mm(const struct mem_file *m)
{
	struct process *p = process_by_pid(m->pid);
	struct task *t;

	if (!p || p->zombie)
		return NULL;
	list_for_each_entry(t, &p->threads, thread_link)
	{
		if (t->mm)
			return t->mm->serial == m->serial ? t->mm : NULL;
	}
	return NULL;
}

static long mem_rw(struct file *f, void *buf, size_t n, int64_t off, bool write)
{
	struct mm *mm = mem_mm(f->priv);
	size_t done = 0, k;
	uaddr_t addr = (uaddr_t)off;
	int ret;

	if (!mm)
		return 0; /* the process has gone or exec'd */
	mm_get(mm);
	while (done < n) {
		k = PAGE_SIZE - ((addr + done) & (PAGE_SIZE - 1));
		if (k > n - done)
			k = n - done;
		ret = write ? mm_write_force(mm, addr + done, (const char *)buf + done, k)
			    : copy_from_user(mm, (char *)buf + done, addr + done, k);
		if (ret < 0)
			break;
		done += k;
	}
	mm_put(mm);
	return done ? (long)done : -EIO;
}

static long mem_pread(struct file *f, void *buf, size_t n, int64_t off)
{
	return mem_rw(f, buf, n, off, false);
}

static long mem_pwrite(struct file *f, const void *buf, size_t n, int64_t off)
{
	return mem_rw(f, (void *)buf, n, off, true);
}

/* Any offset (an address; those past 2^63 come out negative, as Linux's
 * force_successful_syscall_return lets them). */
static int64_t mem_llseek(struct file *f, int64_t off, int whence)
{
	if (whence == LINUX_SEEK_CUR)
		off = (int64_t)((uint64_t)off + (uint64_t)f->pos);
	else if (whence != LINUX_SEEK_SET)
		return -EINVAL;
	return f->pos = off;
}

static void mem_release(struct file *f)
{
	free(f->priv);
	f->priv = NULL;
}

static const struct file_ops mem_fops = {
	.read = file_read_at_pos,
	.write = file_write_at_pos,
	.pread = mem_pread,
	.pwrite = mem_pwrite,
	.llseek = mem_llseek,
	.release = mem_release,
};

static int mem_open(const struct pnode *n, struct file *f)
{
	struct process *p = proc_of(n);
	struct task *t = procfs_task(n);
	struct mm *mm = mm_of(n);
	struct mem_file *m;

	if (!current || !p || !t || !mm)
		return -ESRCH;
	if (p != current->proc && !cred_ptrace_may_access(&current->proc->cred, p, false))
		return -EACCES;
	m = malloc(sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->pid = p->pid;
	m->serial = mm->serial;
	f->priv = m;
	f->ops = &mem_fops;
	return 0;
}

static int gen_comm(const struct pnode *n, struct sbuf *b)
{
	sb_printf(b, "%s\n", comm_of(n));
	return 0;
}

/* Linux's comm_write: a thread of the writer's own process only (others
 * EINVAL); the first 15 bytes as they are, a newline included. */
/* Sets the comm comm_of reads (Linux's comm_write sets the task of the
 * directory, a zombie leader's too); only its own process's. */
static long put_comm(const struct pnode *n, const char *buf, size_t len)
{
	struct process *p = proc_of(n);
	char *comm = comm_ptr(n);
	size_t k = len < 15 ? len : 15;

	if (!p || !comm || !current || p != current->proc)
		return -EINVAL;
	memset(comm, 0, TASK_COMM_LEN);
	memcpy(comm, buf, k);
	return (long)len;
}

/* uid_map, gid_map and setgroups: the process's user namespace's
 * (kernel/userns.c), the maps' lower ids as the reader sees them. */
static struct user_ns *userns_of(const struct pnode *n)
{
	struct process *p = proc_of(n);

	return p ? cred_user_ns(&p->cred) : NULL;
}

static int gen_idmap(const struct pnode *n, struct sbuf *b, bool gid)
{
	struct user_ns *ns = userns_of(n);
	struct id_extent e;
	int i;

	if (!ns || !current)
		return -ESRCH;
	for (i = 0; user_ns_map_extent(ns, gid, cred_user_ns(&current->proc->cred), i, &e); i++)
		sb_printf(b, "%10u %10u %10u\n", e.first, e.lower, e.count);
	return 0;
}

static int gen_uid_map(const struct pnode *n, struct sbuf *b)
{
	return gen_idmap(n, b, false);
}

static int gen_gid_map(const struct pnode *n, struct sbuf *b)
{
	return gen_idmap(n, b, true);
}

/* Linux's proc_uid_map_write and map_write: judged by the opener and
 * the writer both. */
static long put_idmap(const struct pnode *n, const struct cred *opener, const char *buf, size_t len,
		      int64_t off, bool gid)
{
	struct user_ns *ns = userns_of(n);
	int ret;

	if (!ns || !current)
		return -ESRCH;
	ret = user_ns_map_write(opener, &current->proc->cred, ns, gid, buf, len, off);
	return ret < 0 ? ret : (long)len;
}

static long put_uid_map(const struct pnode *n, const struct cred *opener, const char *buf,
			size_t len, int64_t off)
{
	return put_idmap(n, opener, buf, len, off, false);
}

static long put_gid_map(const struct pnode *n, const struct cred *opener, const char *buf,
			size_t len, int64_t off)
{
	return put_idmap(n, opener, buf, len, off, true);
}

static int gen_setgroups(const struct pnode *n, struct sbuf *b)
{
	struct user_ns *ns = userns_of(n);

	if (!ns)
		return -ESRCH;
	sb_printf(b, "%s\n", ns->setgroups_deny ? "deny" : "allow");
	return 0;
}

/* Linux's proc_setgroups_write: the opener's CAP_SYS_ADMIN over the
 * namespace. */
static long put_setgroups(const struct pnode *n, const struct cred *opener, const char *buf,
			  size_t len, int64_t off)
{
	struct user_ns *ns = userns_of(n);
	int ret;

	if (!ns)
		return -ESRCH;
	ret = user_ns_setgroups_write(opener, ns, buf, len, off);
	return ret < 0 ? ret : (long)len;
}

/* timens_offsets: those of the time namespace the process's children go
 * into (kernel/timens.c). */
static struct time_ns *timens_of(const struct pnode *n)
{
	struct task *t = procfs_task(n);

	return t && t->nsproxy ? (struct time_ns *)t->nsproxy->ns[NS_TIME] : NULL;
}

static int gen_timens_offsets(const struct pnode *n, struct sbuf *b)
{
	struct time_ns *ns = timens_of(n);

	if (!ns)
		return 0; /* a zombie's: nothing (Linux's show gets no task) */
	sb_printf(b, "%-10s %10lld %9ld\n", "monotonic", (long long)ns->mono.tv_sec,
		  (long)ns->mono.tv_nsec);
	sb_printf(b, "%-10s %10lld %9ld\n", "boottime", (long long)ns->boot.tv_sec,
		  (long)ns->boot.tv_nsec);
	return 0;
}

static long put_timens_offsets(const struct pnode *n, const struct cred *opener, const char *buf,
			       size_t len, int64_t off)
{
	return timens_offsets_write(opener, timens_of(n), buf, len, off);
}

/* oom_score_adj and the legacy oom_adj (-17..15, kept as its scaled
 * oom_score_adj), as Linux's. */
#define OOM_ADJ_MIN   (-17)
#define OOM_ADJ_MAX   15
#define OOM_SCORE_MAX 1000

static int gen_oom_score_adj(const struct pnode *n, struct sbuf *b)
{
	struct process *p = proc_of(n);

	sb_printf(b, "%d\n", p ? p->oom_score_adj : 0);
	return 0;
}

static int gen_oom_adj(const struct pnode *n, struct sbuf *b)
{
	struct process *p = proc_of(n);
	int adj = p ? p->oom_score_adj : 0;

	sb_printf(b, "%d\n",
		  adj == OOM_SCORE_MAX ? OOM_ADJ_MAX : adj * -OOM_ADJ_MIN / OOM_SCORE_MAX);
	return 0;
}

/* /proc/PID/personality: for whoever may ptrace it (Linux's lock_trace,
 * EPERM at the read). */
static int gen_personality(const struct pnode *n, struct sbuf *b)
{
	if (!current || !procfs_may_access(current, proc_of(n)))
		return -EPERM;
	sb_printf(b, "%08x\n", proc_of(n)->personality);
	return 0;
}

/* /proc/PID/io (the process: its threads, those gone and its reaped
 * children) and /proc/PID/task/TID/io (the thread), for whoever may read
 * it as ptrace would (Linux's do_io_accounting). */
static int gen_io(const struct pnode *n, struct sbuf *b)
{
	struct task *t = procfs_task(n);
	struct task_io io = { 0 };

	if (!current || !procfs_may_access(current, proc_of(n)))
		return -EACCES;
	if (!n->tid)
		io_process(proc_of(n), &io);
	else if (t)
		io_task(t, &io);
	else
		return -ESRCH; /* the thread is gone */
	sb_printf(b,
		  "rchar: %llu\nwchar: %llu\nsyscr: %llu\nsyscw: %llu\nread_bytes: 0\n"
		  "write_bytes: 0\ncancelled_write_bytes: 0\n",
		  (unsigned long long)io.rchar, (unsigned long long)io.wchar,
		  (unsigned long long)io.syscr, (unsigned long long)io.syscw);
	return 0;
}

/* /proc/PID/oom_score: Linux's (1000 + badness in thousandths of the
 * memory) * 2 / 3 (0..1333), 0 for one the OOM killer never takes. */
static int gen_oom_score(const struct pnode *n, struct sbuf *b)
{
	struct process *p = proc_of(n);
	int64_t points = p ? oom_badness(p) : INT64_MIN, limit = (int64_t)mem_limit();

	if (points != INT64_MIN && limit > 0)
		points = (1000 + (int64_t)((double)points * 1000 / (double)limit)) * 2 / 3;
	else
		points = 0;
	sb_printf(b, "%lld\n", (long long)points);
	return 0;
}

/* Linux's kstrtoull_from_user(buf, len, 10): the first 63 bytes, a '+'
 * at most before the digits and one newline after them; -EINVAL or
 * -ERANGE. */
static int parse_proc_u64(const char *buf, size_t len, uint64_t *out)
{
	char s[64], *p = s;
	size_t k = len < sizeof(s) - 1 ? len : sizeof(s) - 1;
	uint64_t v = 0;

	memcpy(s, buf, k);
	s[k] = 0;
	if (*p == '+')
		p++;
	if (!(*p >= '0' && *p <= '9'))
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	*out = v;
	return 0;
}

/* /proc/PID/loginuid and sessionid, Linux's audit ones: the login uid a
 * write set for the thread (the reader's user namespace's view of it,
 * no newline) and the session that write began; unset is 4294967295. */
/* The directory's task's login uid and session: a process's are its
 * leader's, kept once it has exited (a zombie's too); -ESRCH if none. */
static int audit_ids(const struct pnode *n, uint32_t *loginuid, uint32_t *sessionid)
{
	struct process *p = proc_of(n);
	struct task *t = procfs_own_task(n);

	if (t) {
		*loginuid = t->loginuid;
		*sessionid = t->sessionid;
	} else if (p && !n->tid) {
		*loginuid = p->leader_loginuid;
		*sessionid = p->leader_sessionid;
	} else {
		return -ESRCH;
	}
	return 0;
}

static int gen_loginuid(const struct pnode *n, struct sbuf *b)
{
	uint32_t uid, session;

	if (!current || audit_ids(n, &uid, &session) < 0)
		return -ESRCH;
	sb_printf(b, "%u",
		  uid == INVALID_ID ? INVALID_ID
				    : from_kuid(cred_user_ns(&current->proc->cred), uid));
	return 0;
}

static int gen_sessionid(const struct pnode *n, struct sbuf *b)
{
	uint32_t uid, session;

	if (audit_ids(n, &uid, &session) < 0)
		return -ESRCH;
	sb_printf(b, "%u", session);
	return 0;
}

/* Linux's proc_loginuid_write and audit_set_loginuid: only the thread
 * itself, in one write at offset 0, of a uid of the opener's user
 * namespace or 4294967295 to unset it. Setting it the first time needs
 * nothing; changing a set one needs CAP_AUDIT_CONTROL in the instance's
 * user namespace. Each setting begins a new session. */
static long put_loginuid(const struct pnode *n, const struct cred *opener, const char *buf,
			 size_t len, int64_t off)
{
	static uint32_t last_session;
	struct task *t = procfs_task(n);
	uint64_t v;
	uint32_t kuid = INVALID_ID;
	int ret;

	if (!t || t != current)
		return -EPERM;
	if (off != 0)
		return -EINVAL;
	ret = parse_proc_u64(buf, len, &v);
	if (ret < 0)
		return ret;
	if (v > UINT32_MAX)
		return -ERANGE;
	if (v != INVALID_ID) {
		kuid = make_kuid(cred_user_ns(opener), (uint32_t)v);
		if (kuid == INVALID_ID)
			return -EINVAL;
	}
	if (t->loginuid != INVALID_ID &&
	    !ns_capable(&t->proc->cred, &init_user_ns, CAP_AUDIT_CONTROL))
		return -EPERM;
	t->sessionid = INVALID_ID;
	if (kuid != INVALID_ID && (t->sessionid = ++last_session) == INVALID_ID)
		t->sessionid = ++last_session;
	t->loginuid = kuid;
	return (long)len;
}

/* /proc/PID/timerslack_ns: the process's first thread's PR_SET_TIMERSLACK
 * slack (another one's, if it has exited). Another process's (or another thread's reading the first's)
 * needs CAP_SYS_NICE in the process's user namespace, at the read or the
 * write; a real-time thread's is 0 whatever is written, and 0 is its
 * default (Linux's timerslack_ns_show and _write). */
static int timerslack_target(const struct pnode *n, struct task **out)
{
	struct process *p = proc_of(n);
	struct task *t = procfs_task(n);

	if (!p || !t || !current)
		return -ESRCH;
	if (t != current && !ns_capable(&current->proc->cred, cred_user_ns(&p->cred), CAP_SYS_NICE))
		return -EPERM;
	*out = t;
	return 0;
}

static int gen_timerslack_ns(const struct pnode *n, struct sbuf *b)
{
	struct task *t;
	int ret = timerslack_target(n, &t);

	if (ret < 0)
		return ret;
	sb_printf(b, "%llu\n", (unsigned long long)t->timer_slack_ns);
	return 0;
}

static long put_timerslack_ns(const struct pnode *n, const char *buf, size_t len)
{
	struct task *t;
	uint64_t v;
	int ret = parse_proc_u64(buf, len, &v);

	if (ret == 0)
		ret = timerslack_target(n, &t);
	if (ret < 0)
		return ret;
	if (t->sched_policy == SCHED_POLICY_FIFO || t->sched_policy == SCHED_POLICY_RR ||
	    t->sched_policy == SCHED_POLICY_DEADLINE)
		v = 0;
	else if (v == 0)
		v = t->default_timer_slack_ns;
	t->timer_slack_ns = v;
	return (long)len;
}

/* Linux's isspace: its Latin-1 table counts NBSP (0xa0) too. */
static bool kspace(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (unsigned char)c == 0xa0;
}

/* The number written: up to 12 bytes, blanks around it, base 0 (kstrtoint
 * of strstrip, as Linux); -EINVAL if it is not one, -ERANGE past an int. */
static int parse_proc_int(const char *buf, size_t len, long *out)
{
	char s[13], *end, *p = s;
	size_t k = len < 12 ? len : 12;

	memcpy(s, buf, k);
	s[k] = 0;
	k = strlen(s); /* a NUL ends it */
	while (k > 0 && kspace(s[k - 1]))
		s[--k] = 0;
	while (kspace(*p))
		p++;
	if (*p == 0)
		return -EINVAL;
	errno = 0;
	*out = strtol(p, &end, 0);
	if (*end)
		return -EINVAL;
	return errno || *out < INT32_MIN || *out > INT32_MAX ? -ERANGE : 0;
}

static int gen_coredump_filter(const struct pnode *n, struct sbuf *b)
{
	struct process *p = proc_of(n);

	if (p && !list_empty(&p->threads)) /* a zombie's: nothing, as Linux */
		sb_printf(b, "%08x\n", p->coredump_filter);
	return 0;
}

/* Linux's kstrtouint of what was written (base 0, one newline after it
 * at most), its dump bits kept. */
static long put_coredump_filter(const struct pnode *n, const char *buf, size_t len)
{
	struct process *p = proc_of(n);
	char s[24], *end, *q = s;
	unsigned long v;
	size_t k = len;

	if (!p || list_empty(&p->threads))
		return -ESRCH;
	if (k >= sizeof(s))
		return -EINVAL;
	memcpy(s, buf, k);
	s[k] = 0;
	if (k > 0 && s[k - 1] == '\n')
		s[--k] = 0;
	if (*q == '+')
		q++;
	if (*q < '0' || *q > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(q, &end, 0);
	if (*end || errno || v > UINT32_MAX)
		return *end ? -EINVAL : -ERANGE;
	p->coredump_filter = (unsigned)v & COREDUMP_FILTER_MASK;
	return (long)len;
}

/* Linux's __set_oom_adj: below the process's floor (the legacy file: below
 * its value) needs CAP_SYS_RESOURCE, which also moves the floor (not
 * through the legacy file). */
static long set_oom_adj(const struct pnode *n, long adj, bool legacy, size_t len)
{
	struct process *p = proc_of(n);
	bool cap = current && capable(&current->proc->cred, CAP_SYS_RESOURCE);

	if (!p)
		return -ESRCH;
	if (adj < (legacy ? p->oom_score_adj : p->oom_score_adj_min) && !cap)
		return -EACCES;
	p->oom_score_adj = (short)adj;
	if (!legacy && cap)
		p->oom_score_adj_min = (short)adj;
	return (long)len;
}

/* What Linux reads of a write (PROC_NUMBUF - 1 bytes) is what it says it
 * took. */
static long put_oom_score_adj(const struct pnode *n, const char *buf, size_t len)
{
	long v;
	int ret = parse_proc_int(buf, len, &v);

	if (ret < 0)
		return ret;
	if (v < -OOM_SCORE_MAX || v > OOM_SCORE_MAX)
		return -EINVAL;
	return set_oom_adj(n, v, false, len < 12 ? len : 12);
}

static long put_oom_adj(const struct pnode *n, const char *buf, size_t len)
{
	long v;
	int ret = parse_proc_int(buf, len, &v);

	if (ret < 0)
		return ret;
	if (v < OOM_ADJ_MIN || v > OOM_ADJ_MAX)
		return -EINVAL;
	v = v == OOM_ADJ_MAX ? OOM_SCORE_MAX : v * OOM_SCORE_MAX / -OOM_ADJ_MIN;
	return set_oom_adj(n, v, true, len < 12 ? len : 12);
}

static unsigned dev_major(uint64_t dev)
{
	return (unsigned)(((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfffULL));
}

static unsigned dev_minor(uint64_t dev)
{
	return (unsigned)((dev & 0xff) | ((dev >> 12) & ~0xffULL));
}

/* The name of the file v maps as maps and numa_maps give it (malloc'd),
 * or NULL: its path from the reader's root, or a file's own name (SysV
 * shm's "/SYSVKEY (deleted)"). */
static char *vma_file_name(const struct vma *v)
{
	if (!v->file)
		return NULL;
	if (v->file->path.dentry && current->fs)
		return path_name_seq(&v->file->path, &current->fs->root);
	return v->file->ops->maps_name ? v->file->ops->maps_name(v->file) : NULL;
}

/* A line of /proc/PID/maps: "start-end perms offset dev inode", then the
 * name at column 73 (fs/proc/task_mmu.c). */
static void maps_line(struct sbuf *b, const struct vma *v)
{
	struct linux_stat st;
	size_t start = b->len;
	char *name = NULL;
	const char *label = NULL;

	memset(&st, 0, sizeof(st));
	if (v->file) {
		file_stat(v->file, &st);
		name = vma_file_name(v);
	} else if (v->flags & VMA_HEAP) {
		label = "[heap]";
	} else if (v->flags & VMA_STACK) {
		label = "[stack]";
	} else if (v->flags & VMA_VDSO) {
		label = "[vdso]";
	} else if (v->flags & VMA_VVAR) {
		label = "[vvar]";
	} else if (v->flags & VMA_VVAR_VCLOCK) {
		label = "[vvar_vclock]";
	} else if (v->flags & VMA_SHARED) {
		label = "/dev/zero (deleted)";
	}
	sb_printf(b, "%08llx-%08llx %c%c%c%c %08llx %02x:%02x %llu ", (unsigned long long)v->start,
		  (unsigned long long)v->end, (v->prot & LINUX_PROT_READ) ? 'r' : '-',
		  (v->prot & LINUX_PROT_WRITE) ? 'w' : '-', (v->prot & LINUX_PROT_EXEC) ? 'x' : '-',
		  (v->flags & VMA_SHARED) ? 's' : 'p', (unsigned long long)(v->file ? v->off : 0),
		  v->file ? dev_major(st.st_dev) : 0, v->file ? dev_minor(st.st_dev) : 0,
		  (unsigned long long)(v->file ? st.st_ino : 0));
	if (name || label) {
		const char *s = name ? name : label;

		while (b->len - start < 72 && !b->oom)
			sb_put(b, " ", 1);
		sb_put(b, " ", 1);
		for (; *s; s++) /* seq_file_path's escape of "\n" */
			if (*s == '\n')
				sb_put(b, "\\012", 4);
			else
				sb_put(b, s, 1);
	}
	sb_put(b, "\n", 1);
	free(name);
}

/* /proc/PID/maps. The stub's pages are not shown. */
static int gen_maps(const struct pnode *n, struct sbuf *b)
{
	struct mm *mm = mm_of(n);
	struct vma *v;

	if (!mm)
		return 0;
	if (!current || !procfs_may_access(current, proc_of(n)))
		return -EACCES;
	list_for_each_entry(v, &mm->vmas, link)
	{
		if (!(v->flags & VMA_STUB))
			maps_line(b, v);
	}
	return 0;
}

static void smaps_kb(struct sbuf *b, const char *name, uint64_t kb)
{
	char label[32];

	snprintf(label, sizeof(label), "%s:", name);
	sb_printf(b, "%-16s%8llu kB\n", label, (unsigned long long)kb);
}

/* The host's counts for [start, end): the stub's mappings there (from
 * *i on, both lists by address), whole when inside the range, in
 * proportion to the overlap when the host merged the range with a
 * neighbour the guest keeps apart. */
static void smaps_sum(const struct host_smap *h, long nh, long *i, uint64_t start, uint64_t end,
		      uint64_t *kb)
{
	long j;
	int k;

	memset(kb, 0, HOST_SM_N * sizeof(*kb));
	while (*i < nh && h[*i].end <= start)
		(*i)++;
	for (j = *i; j < nh && h[j].start < end; j++) {
		uint64_t lo = h[j].start > start ? h[j].start : start;
		uint64_t hi = h[j].end < end ? h[j].end : end, len = h[j].end - h[j].start;

		for (k = 0; k < HOST_SM_N; k++)
			kb[k] += (lo == h[j].start && hi == h[j].end)
					 ? h[j].kb[k]
					 : (uint64_t)((unsigned __int128)h[j].kb[k] * (hi - lo) /
						      len);
	}
}

/* The counts from KSM to Locked, the same in smaps and smaps_rollup. */
static void smaps_tail(struct sbuf *b, const uint64_t *kb)
{
	smaps_kb(b, "KSM", 0);
	smaps_kb(b, "LazyFree", kb[HOST_SM_LAZYFREE]);
	smaps_kb(b, "AnonHugePages", kb[HOST_SM_ANONHUGE]);
	smaps_kb(b, "ShmemPmdMapped", 0);
	smaps_kb(b, "FilePmdMapped", 0);
	smaps_kb(b, "Shared_Hugetlb", 0);
	smaps_kb(b, "Private_Hugetlb", 0);
	smaps_kb(b, "Swap", kb[HOST_SM_SWAP]);
	smaps_kb(b, "SwapPss", kb[HOST_SM_SWAPPSS]);
	smaps_kb(b, "Locked", kb[HOST_SM_LOCKED]);
}

/* VmFlags: the ones skas's VMAs carry. */
static void smaps_vmflags(struct sbuf *b, const struct vma *v)
{
	bool shared = v->flags & VMA_SHARED;

	sb_printf(b, "VmFlags:");
	if (v->prot & LINUX_PROT_READ)
		sb_printf(b, " rd");
	if (v->prot & LINUX_PROT_WRITE)
		sb_printf(b, " wr");
	if (v->prot & LINUX_PROT_EXEC)
		sb_printf(b, " ex");
	if (shared)
		sb_printf(b, " sh");
	sb_printf(b, " mr");
	if (!shared || (v->flags & VMA_MAYWRITE))
		sb_printf(b, " mw");
	sb_printf(b, " me");
	if (shared)
		sb_printf(b, " ms");
	if (v->flags & (VMA_GROWSDOWN | VMA_STACK))
		sb_printf(b, " gd");
	if (v->flags & VMA_LOCKED)
		sb_printf(b, " lo");
	if (!shared && (v->prot & LINUX_PROT_WRITE) && !(v->flags & VMA_NORESERVE))
		sb_printf(b, " ac");
	if (v->flags & VMA_NORESERVE)
		sb_printf(b, " nr");
	if (v->flags & VMA_SEALED)
		sb_printf(b, " sl");
	sb_printf(b, " \n");
}

/* /proc/PID/smaps and smaps_rollup: maps' lines with the host's counts of
 * the stub's pages in each range (the stub's own pages left out). */
static int gen_smaps_any(const struct pnode *n, struct sbuf *b, bool rollup)
{
	static const int per_vma[] = { HOST_SM_RSS,	      HOST_SM_PSS,
				       HOST_SM_PSS_DIRTY,     HOST_SM_SHARED_CLEAN,
				       HOST_SM_SHARED_DIRTY,  HOST_SM_PRIVATE_CLEAN,
				       HOST_SM_PRIVATE_DIRTY, HOST_SM_REFERENCED,
				       HOST_SM_ANONYMOUS };
	struct mm *mm = mm_of(n);
	struct host_smap *h = NULL;
	uint64_t kb[HOST_SM_N], sum[HOST_SM_N] = { 0 }, pss_anon = 0, pss_file = 0, pss_shmem = 0;
	uint64_t lo = 0, hi = 0;
	long nh, i = 0;
	struct vma *v;
	size_t k;

	/* smaps is empty without an mm; smaps_rollup's open is ESRCH, as
	 * Linux's (it takes the mm at open) */
	if (!mm)
		return rollup ? -ESRCH : 0;
	if (!current || !procfs_may_access(current, proc_of(n)))
		return -EACCES;
	nh = host_proc_smaps(platform->mm_host_pid(mm->pf), &h);
	if (nh < 0)
		nh = 0;
	list_for_each_entry(v, &mm->vmas, link)
	{
		if (v->flags & VMA_STUB)
			continue;
		smaps_sum(h, nh, &i, v->start, v->end, kb);
		if (!lo)
			lo = v->start;
		hi = v->end;
		for (k = 0; k < HOST_SM_N; k++)
			sum[k] += kb[k];
		/* Pss_Anon: a range's Pss in the share its anonymous pages
		 * have of its resident ones (exact when every page is mapped
		 * as often: copies written in a private file mapping count).
		 * Shmem: tmpfs files, shared anonymous memory and SysV shm
		 * (a file with no inode). */
		if ((v->file && (!v->file->inode || is_tmpfs(v->file->inode))) ||
		    (!v->file && (v->flags & VMA_SHARED))) {
			pss_shmem += kb[HOST_SM_PSS];
		} else {
			uint64_t a = kb[HOST_SM_RSS] ? kb[HOST_SM_PSS] * kb[HOST_SM_ANONYMOUS] /
							       kb[HOST_SM_RSS]
						     : 0;

			pss_anon += a;
			pss_file += kb[HOST_SM_PSS] - a;
		}
		if (rollup)
			continue;
		maps_line(b, v);
		smaps_kb(b, "Size", (v->end - v->start) >> 10);
		smaps_kb(b, "KernelPageSize", 4);
		smaps_kb(b, "MMUPageSize", 4);
		for (k = 0; k < sizeof(per_vma) / sizeof(per_vma[0]); k++)
			smaps_kb(b, host_smap_name(per_vma[k]), kb[per_vma[k]]);
		smaps_tail(b, kb);
		sb_printf(b, "%-16s%8d\n", "THPeligible:", 0);
		smaps_vmflags(b, v);
	}
	free(h);
	if (!rollup)
		return 0;
	k = b->len;
	sb_printf(b, "%08llx-%08llx ---p 00000000 00:00 0 ", (unsigned long long)lo,
		  (unsigned long long)hi);
	while (b->len - k < 72 && !b->oom)
		sb_put(b, " ", 1);
	sb_printf(b, " [rollup]\n");
	smaps_kb(b, "Rss", sum[HOST_SM_RSS]);
	smaps_kb(b, "Pss", sum[HOST_SM_PSS]);
	smaps_kb(b, "Pss_Dirty", sum[HOST_SM_PSS_DIRTY]);
	smaps_kb(b, "Pss_Anon", pss_anon);
	smaps_kb(b, "Pss_File", pss_file);
	smaps_kb(b, "Pss_Shmem", pss_shmem);
	for (k = 3; k < sizeof(per_vma) / sizeof(per_vma[0]); k++)
		smaps_kb(b, host_smap_name(per_vma[k]), sum[per_vma[k]]);
	smaps_tail(b, sum);
	return 0;
}

/* A numa_maps name: seq_path's escapes of "\n\t= " as octal. */
static void numa_name(struct sbuf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n' || *s == '\t' || *s == '=' || *s == ' ')
			sb_printf(b, "\\%03o", (unsigned char)*s);
		else
			sb_put(b, s, 1);
	}
}

/* /proc/PID/numa_maps (fs/proc/task_mmu.c's show_numa_map): each VMA's
 * start, its policy (the VMA's own, else the thread's), what it maps and
 * the host's counts of its pages, every one on node 0. Where the host
 * keeps two of the guest's VMAs as one mapping, each has its share. */
static int gen_numa_maps(const struct pnode *n, struct sbuf *b)
{
	struct task *t = procfs_task(n);
	struct mm *mm = mm_of(n);
	struct host_numa *h = NULL;
	long nh, i = 0;
	int pm;
	struct vma *v;

	if (!mm)
		return 0;
	if (!current || !procfs_may_access(current, proc_of(n)))
		return -EACCES;
	pm = mm_pagemap_open(mm); /* the stub's changes flushed first */
	nh = host_proc_numa_maps(platform->mm_host_pid(mm->pf), &h);
	if (nh < 0)
		nh = 0;
	list_for_each_entry(v, &mm->vmas, link)
	{
		uint64_t c[HOST_NUMA_N] = { 0 }, pages = 0;
		char pol[64], *name = NULL;
		struct mempolicy *pl;
		long j;
		int k;

		if (v->flags & VMA_STUB)
			continue;
		pl = mpol_vma_at(v, v->start);
		mpol_to_str(pol, sizeof(pol), pl ? pl : t->mempolicy);
		sb_printf(b, "%08llx %s", (unsigned long long)v->start, pol);
		name = vma_file_name(v);
		if (name || (!v->file && (v->flags & VMA_SHARED))) {
			sb_printf(b, " file=");
			numa_name(b, name ? name : "/dev/zero (deleted)");
		} else if (v->flags & VMA_HEAP) {
			sb_printf(b, " heap");
		} else if ((v->flags & VMA_STACK) && v->start <= mm->start_stack &&
			   v->end >= mm->start_stack) {
			sb_printf(b, " stack"); /* Linux's vma_is_initial_stack */
		}
		free(name);
		/* The host's mappings in v, by address as v's list. */
		while (i < nh && h[i].end <= v->start)
			i++;
		for (j = i; j < nh && h[j].start < v->end; j++) {
			uint64_t lo = h[j].start > v->start ? h[j].start : v->start;
			uint64_t hi = h[j].end < v->end ? h[j].end : v->end, part;
			bool whole = lo == h[j].start && hi == h[j].end;

			if (hi <= lo)
				continue;
			/* Part of a host mapping: its counts in the share of
			 * its pages present in the part. */
			if (whole) {
				part = h[j].pages;
			} else {
				long pr = pm >= 0 ? host_pagemap_present(pm, lo, hi, 0) : 0;

				part = pr > 0 ? (uint64_t)pr : 0;
				if (part > h[j].pages)
					part = h[j].pages;
			}
			for (k = 0; k < HOST_NUMA_N; k++) {
				if (k == HOST_NUMA_MAPMAX)
					c[k] = h[j].count[k] > c[k] ? h[j].count[k] : c[k];
				else
					c[k] += whole || !h[j].pages
							? h[j].count[k]
							: h[j].count[k] * part / h[j].pages;
			}
			pages += part;
		}
		if (pages) {
			if (c[HOST_NUMA_ANON])
				sb_printf(b, " anon=%llu", (unsigned long long)c[HOST_NUMA_ANON]);
			if (c[HOST_NUMA_DIRTY])
				sb_printf(b, " dirty=%llu", (unsigned long long)c[HOST_NUMA_DIRTY]);
			if (pages != c[HOST_NUMA_ANON] && pages != c[HOST_NUMA_DIRTY])
				sb_printf(b, " mapped=%llu", (unsigned long long)pages);
			if (c[HOST_NUMA_MAPMAX] > 1)
				sb_printf(b, " mapmax=%llu",
					  (unsigned long long)c[HOST_NUMA_MAPMAX]);
			if (c[HOST_NUMA_SWAPCACHE])
				sb_printf(b, " swapcache=%llu",
					  (unsigned long long)c[HOST_NUMA_SWAPCACHE]);
			if (c[HOST_NUMA_ACTIVE] < pages)
				sb_printf(b, " active=%llu",
					  (unsigned long long)c[HOST_NUMA_ACTIVE]);
			if (c[HOST_NUMA_WRITEBACK])
				sb_printf(b, " writeback=%llu",
					  (unsigned long long)c[HOST_NUMA_WRITEBACK]);
			sb_printf(b, " N0=%llu kernelpagesize_kB=4", (unsigned long long)pages);
		}
		sb_put(b, "\n", 1);
	}
	free(h);
	if (pm >= 0)
		host_close(pm);
	return 0;
}

static int gen_smaps(const struct pnode *n, struct sbuf *b)
{
	return gen_smaps_any(n, b, false);
}

static int gen_smaps_rollup(const struct pnode *n, struct sbuf *b)
{
	return gen_smaps_any(n, b, true);
}

/* Mounts as the process sees them: those under its root. */

static bool mount_visible(struct mount *m, const struct path *root)
{
	struct mount *mnt = m;
	struct dentry *d = m->root;

	for (;;) {
		if (d == root->dentry && mnt == root->mnt)
			return true;
		if (d == mnt->root) {
			if (!mnt->parent)
				return false;
			d = mnt->mountpoint;
			mnt = mnt->parent;
		} else if (d->parent) {
			d = d->parent;
		} else {
			return false;
		}
	}
}

/* The superblock's flags as Linux's show_sb_opts writes them. */
static void sb_opts(struct sbuf *b, const struct super_block *sb)
{
	static const struct {
		unsigned flag;
		const char *name;
	} opts[] = { { LINUX_MS_SYNCHRONOUS, ",sync" },
		     { LINUX_MS_DIRSYNC, ",dirsync" },
		     { LINUX_MS_MANDLOCK, ",mand" },
		     { LINUX_MS_LAZYTIME, ",lazytime" } };
	size_t i;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (sb->sflags & opts[i].flag)
			sb_printf(b, "%s", opts[i].name);
}

/* The mount's flags as Linux's show_mnt_opts writes them. */
static void mnt_opts(struct sbuf *b, const struct mount *m)
{
	static const struct {
		unsigned flag;
		const char *name;
	} opts[] = { { MNT_NOSUID, ",nosuid" },		 { MNT_NODEV, ",nodev" },
		     { MNT_NOEXEC, ",noexec" },		 { MNT_NOATIME, ",noatime" },
		     { MNT_NODIRATIME, ",nodiratime" },	 { MNT_RELATIME, ",relatime" },
		     { MNT_NOSYMFOLLOW, ",nosymfollow" } };
	size_t i;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (m->flags & opts[i].flag)
			sb_printf(b, "%s", opts[i].name);
}

/* mountinfo's root: the mount's root inside its filesystem ("/" but for
 * a bind mount of a directory below the filesystem's root). */
static void mnt_root_name(struct sbuf *b, const struct mount *m)
{
	const struct dentry *d;
	const char *names[64];
	int n = 0;

	for (d = m->root; d && d->parent && n < 64; d = d->parent)
		names[n++] = d->name;
	if (!n)
		sb_put(b, "/", 1);
	while (n > 0) {
		sb_put(b, "/", 1);
		sb_escaped(b, names[--n]);
	}
}

static int mounts_root(const struct pnode *n, struct path *root)
{
	struct task *t = procfs_own_task(n);

	if (!t || !t->fs)
		return -ESRCH;
	*root = t->fs->root;
	return 0;
}

static int gen_mounts(const struct pnode *n, struct sbuf *b)
{
	struct path root;
	struct mount *m;
	int ret = mounts_root(n, &root);

	if (ret < 0)
		return -EINVAL; /* no namespaces left: Linux's mounts_open_common */
	list_for_each_entry(m, &mounts, link)
	{
		struct path p = { m, m->root };
		char *dir;

		if (!mount_visible(m, &root))
			continue;
		dir = path_name(&p, &root);
		if (!dir)
			continue;
		sb_escaped(b, m->source);
		sb_put(b, " ", 1);
		sb_escaped(b, dir);
		sb_printf(b, " %s %s", m->sb->fstype, (m->rdonly || m->sb->rdonly) ? "ro" : "rw");
		sb_opts(b, m->sb);
		mnt_opts(b, m);
		sb_printf(b, "%s 0 0\n", m->sb->opts);
		free(dir);
	}
	return 0;
}

static int gen_mountinfo(const struct pnode *n, struct sbuf *b)
{
	struct path root;
	struct mount *m;
	int ret = mounts_root(n, &root);

	if (ret < 0)
		return -EINVAL; /* no namespaces left: Linux's mounts_open_common */
	list_for_each_entry(m, &mounts, link)
	{
		struct path p = { m, m->root };
		char *dir;

		if (!mount_visible(m, &root))
			continue;
		dir = path_name(&p, &root);
		if (!dir)
			continue;
		sb_printf(b, "%d %d %u:%u ", m->id, m->parent ? m->parent->id : 1,
			  dev_major(m->sb->dev), dev_minor(m->sb->dev));
		mnt_root_name(b, m);
		sb_put(b, " ", 1);
		sb_escaped(b, dir);
		sb_printf(b, " %s", m->rdonly ? "ro" : "rw");
		mnt_opts(b, m);
		sb_printf(b, " - %s ", m->sb->fstype);
		sb_escaped(b, m->source);
		sb_printf(b, " %s", m->sb->rdonly ? "ro" : "rw");
		sb_opts(b, m->sb);
		sb_printf(b, "%s\n", m->sb->opts);
		free(dir);
	}
	return 0;
}

static int gen_limits(const struct pnode *n, struct sbuf *b)
{
	static const struct {
		const char *name, *unit;
	} names[NRLIMITS] = {
		{ "Max cpu time", "seconds" },	   { "Max file size", "bytes" },
		{ "Max data size", "bytes" },	   { "Max stack size", "bytes" },
		{ "Max core file size", "bytes" }, { "Max resident set", "bytes" },
		{ "Max processes", "processes" },  { "Max open files", "files" },
		{ "Max locked memory", "bytes" },  { "Max address space", "bytes" },
		{ "Max file locks", "locks" },	   { "Max pending signals", "signals" },
		{ "Max msgqueue size", "bytes" },  { "Max nice priority", NULL },
		{ "Max realtime priority", NULL }, { "Max realtime timeout", "us" },
	};
	struct process *p = proc_of(n);
	int i;

	sb_printf(b, "%-25s %-20s %-20s %-10s\n", "Limit", "Soft Limit", "Hard Limit", "Units");
	for (i = 0; i < NRLIMITS; i++) {
		const struct linux_rlimit *r = &p->rlim[i];

		if (r->rlim_cur == LINUX_RLIM_INFINITY)
			sb_printf(b, "%-25s %-20s ", names[i].name, "unlimited");
		else
			sb_printf(b, "%-25s %-20llu ", names[i].name,
				  (unsigned long long)r->rlim_cur);
		if (r->rlim_max == LINUX_RLIM_INFINITY)
			sb_printf(b, "%-20s ", "unlimited");
		else
			sb_printf(b, "%-20llu ", (unsigned long long)r->rlim_max);
		if (names[i].unit)
			sb_printf(b, "%-10s\n", names[i].unit);
		else
			sb_put(b, "\n", 1);
	}
	return 0;
}

/* The one hierarchy's line: the group's path from the reader's cgroup
 * namespace root, " (deleted)" once removed (Linux's proc_cgroup_show). */
static int gen_cgroup(const struct pnode *n, struct sbuf *b)
{
	struct process *p = procfs_process(n);
	char *path;

	if (!p)
		return -ESRCH;
	if (!p->cgroup || !current) {
		sb_printf(b, "0::/\n");
		return 0;
	}
	path = cgroup_path_from(p->cgroup, task_cgroup_ns_root(current));
	if (!path)
		return -ENOMEM;
	if (strlen(path) >= 4096) { /* cgroup_path_ns into a PATH_MAX buffer */
		free(path);
		return -ENAMETOOLONG;
	}
	sb_printf(b, "0::%s%s\n", path, p->cgroup->dead ? " (deleted)" : "");
	free(path);
	return 0;
}

static int gen_wchan(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "0");
	return 0;
}

/* /proc/PID/syscall: the call the thread is in, from its registers as
 * Linux's proc_pid_syscall and task_current_syscall: its number
 * (orig_rax), six arguments, stack pointer and pc for a thread in a call;
 * "-1 sp pc" for one stopped or asleep outside a call (a fault, a stop
 * after an interrupt); "running" for one that runs (guest code, or in
 * the kernel on its way), or whose registers cannot be had. The reader's
 * own thread shows its read. A leader or thread that has exited (a
 * zombie) has no stack: "-1 0x0 0x0". The read needs ptrace access
 * (lock_trace: EPERM). Differs from Linux: a thread that waits for a
 * --cpus slot shows the call it returns from, not "running" (as its
 * stat shows it asleep). */
static int gen_syscall(const struct pnode *n, struct sbuf *b)
{
	struct process *p = proc_of(n);
	struct task *t = task_by_tid(n->tid ? n->tid : n->pid);
	struct pf_regs r;
	int nr;

	if (!p || !current)
		return -ESRCH;
	if (!procfs_may_access(current, p))
		return -EPERM;
	if (!t || t->proc != p || t->state == TASK_DEAD) {
		sb_printf(b, "-1 0x0 0x0\n");
		return 0;
	}
	if ((t != current && t->state != TASK_SLEEPING) || !t->thread ||
	    platform->get_regs(t->thread, &r) < 0) {
		sb_printf(b, "running\n");
		return 0;
	}
	nr = (int)r.orig_rax; /* syscall_get_nr: an int */
	if (nr < 0)
		sb_printf(b, "%d 0x%llx 0x%llx\n", nr, (unsigned long long)r.rsp,
			  (unsigned long long)r.rip);
	else
		sb_printf(b, "%d 0x%llx 0x%llx 0x%llx 0x%llx 0x%llx 0x%llx 0x%llx 0x%llx\n", nr,
			  (unsigned long long)r.rdi, (unsigned long long)r.rsi,
			  (unsigned long long)r.rdx, (unsigned long long)r.r10,
			  (unsigned long long)r.r8, (unsigned long long)r.r9,
			  (unsigned long long)r.rsp, (unsigned long long)r.rip);
	return 0;
}

static int gen_fdinfo(const struct pnode *n, struct sbuf *b)
{
	struct task *t = procfs_task(n);
	struct file *f = procfs_fd_file(n);
	struct process *p;
	unsigned flags;
	struct linux_stat st;
	int64_t pos = 0;

	if (!f)
		return -ENOENT;
	/* Linux's proc_fdinfo_access_allowed: ptrace read access. */
	if (!current || !procfs_may_access(current, proc_of(n))) {
		file_put(f);
		return -EACCES;
	}
	if (f->inode && LINUX_S_ISDIR(f->inode->mode))
		pos = f->pos;
	else if (f->ops->llseek)
		pos = f->ops->llseek(f, 0, LINUX_SEEK_CUR);
	if (pos < 0)
		pos = 0;
	flags = f->flags;
	if (f->path.dentry)
		flags |= LINUX_O_LARGEFILE;
	if (t && t->files && fd_is_cloexec(t->files, n->fd))
		flags |= LINUX_O_CLOEXEC;
	memset(&st, 0, sizeof(st));
	file_stat(f, &st);
	sb_printf(b, "pos:\t%lld\nflags:\t0%o\nmnt_id:\t%d\nino:\t%llu\n", (long long)pos, flags,
		  f->path.mnt ? f->path.mnt->id : 0, (unsigned long long)st.st_ino);
	p = pidfd_file_process(f);
	if (p) {
		/* Linux's pidfd_show_fdinfo: in the mount's numbers, and each
		 * level below; -1 once reaped, 0 outside the namespace */
		int nr = p->reaped ? -1 : procfs_nr(n, p->pid);

		sb_printf(b, "Pid:\t%d\nNSpid:\t%d", nr, nr);
		if (nr > 0)
			ns_nrs(b, n->ns->level + 1, p->pid, p->pid);
		sb_put(b, "\n", 1);
	}
	file_put(f);
	return 0;
}

/* Magic links. */

static int link_cwd(const struct pnode *n, struct task *caller, struct path *out)
{
	struct task *t = procfs_own_task(n);

	(void)caller;
	if (!t || !t->fs)
		return -ENOENT;
	*out = t->fs->cwd;
	path_get(out);
	return 0;
}

static int link_root(const struct pnode *n, struct task *caller, struct path *out)
{
	struct task *t = procfs_own_task(n);

	(void)caller;
	if (!t || !t->fs)
		return -ENOENT;
	*out = t->fs->root;
	path_get(out);
	return 0;
}

static int link_exe(const struct pnode *n, struct task *caller, struct path *out)
{
	struct mm *mm = mm_of(n);

	(void)caller;
	if (!mm || !mm->exe.dentry)
		return -ENOENT;
	*out = mm->exe;
	path_get(out);
	return 0;
}

/* Filled in by procfs.c's magic link code for fd/N. */
static int link_fd(const struct pnode *n, struct task *caller, struct path *out)
{
	(void)n;
	(void)caller;
	(void)out;
	return -ENOENT;
}

#define DIR_R  (LINUX_S_IFDIR | 0555)
#define DIR_X  (LINUX_S_IFDIR | 0500)
#define FILE_R (LINUX_S_IFREG | 0444)
#define FILE_W (LINUX_S_IFREG | 0644)
#define FILE_P (LINUX_S_IFREG | 0400)
#define LINK   (LINUX_S_IFLNK | 0777)

/* Ids of the entries under /proc/PID (their own number space). */
enum {
	I_PIDDIR = 1,
	I_TIDDIR,
	I_TASK,
	I_FD,
	I_FDINFO,
	I_FDLINK,
	I_FDINFOFILE,
	I_CWD,
	I_ROOT,
	I_EXE,
	I_ENVIRON,
	I_AUXV,
	I_CMDLINE,
	I_COMM,
	I_TIMENS_OFFSETS,
	I_UID_MAP,
	I_GID_MAP,
	I_SETGROUPS,
	I_STAT,
	I_STATM,
	I_STATUS,
	I_MAPS,
	I_MOUNTS,
	I_MOUNTINFO,
	I_LIMITS,
	I_CGROUP,
	I_COREDUMP_FILTER,
	I_OOM_ADJ,
	I_OOM_SCORE,
	I_OOM_SCORE_ADJ,
	I_WCHAN,
	I_MEM,
	I_SMAPS,
	I_SMAPS_ROLLUP,
	I_NUMA_MAPS,
	I_NET,
	I_NET_DEV,
	I_NET_ROUTE,
	I_NET_ARP,
	I_NET_IF_INET6,
	I_NET_TCP,
	I_NET_TCP6,
	I_NET_UDP,
	I_NET_UDP6,
	I_NET_UNIX,
	I_NET_IGMP,
	I_NET_IGMP6,
	I_NET_DEV_MCAST,
	I_NET_SOCKSTAT,
	I_NET_SOCKSTAT6,
	I_NET_SNMP,
	I_NET_SNMP6,
	I_NET_NETSTAT,
	I_NET_RAW,
	I_NET_RAW6,
	I_NET_ICMP,
	I_NET_ICMP6,
	I_NET_UDPLITE,
	I_NET_UDPLITE6,
	I_NS,
	I_NS_CGROUP,
	I_NS_IPC,
	I_NS_MNT,
	I_NS_NET,
	I_NS_PID,
	I_NS_PID_CHILDREN,
	I_NS_TIME,
	I_NS_TIME_CHILDREN,
	I_NS_USER,
	I_NS_UTS,
	I_IO,
	I_PERSONALITY,
	I_LOGINUID,
	I_SESSIONID,
	I_TIMERSLACK_NS,
	I_SYSCALL,
};

/* /proc/PID/ns: the thread's namespaces (pid and time: the ones it is
 * in). Gone with its exit, as Linux's. */
static struct ns_common *ns_of(const struct pnode *n)
{
	static const enum ns_type types[] = {
		[I_NS_CGROUP - I_NS_CGROUP] = NS_CGROUP,
		[I_NS_IPC - I_NS_CGROUP] = NS_IPC,
		[I_NS_MNT - I_NS_CGROUP] = NS_MNT,
		[I_NS_NET - I_NS_CGROUP] = NS_NET,
		[I_NS_PID - I_NS_CGROUP] = NS_PID,
		[I_NS_PID_CHILDREN - I_NS_CGROUP] = NS_PID,
		[I_NS_TIME - I_NS_CGROUP] = NS_TIME,
		[I_NS_TIME_CHILDREN - I_NS_CGROUP] = NS_TIME,
		[I_NS_USER - I_NS_CGROUP] = NS_USER,
		[I_NS_UTS - I_NS_CGROUP] = NS_UTS,
	};
	struct task *t = procfs_own_task(n);
	struct process *p = proc_of(n);
	struct pid_ns *pns;

	/* A zombie (or zombie leader) keeps its pid and credentials, so its
	 * pid and user namespaces (Linux's task_active_pid_ns and cred);
	 * the others were its nsproxy's, gone with it: ENOENT. */
	if ((!t || !t->nsproxy) && p && n->e->id == I_NS_PID)
		return &pid_ns_of(p->pid)->ns;
	if ((!t || !t->nsproxy) && p && n->e->id == I_NS_USER)
		return &cred_user_ns(&p->cred)->ns;
	if (!t || !t->nsproxy)
		return NULL;
	if (n->e->id == I_NS_PID)
		return &task_pid_ns(t)->ns;
	if (n->e->id == I_NS_TIME)
		return t->nsproxy->time;
	if (n->e->id == I_NS_PID_CHILDREN) {
		/* none until its init exists (pidns_for_children_get) */
		pns = (struct pid_ns *)t->nsproxy->ns[NS_PID];
		return pns->level && !pns->reaper && !pns->reaper_gone ? NULL : &pns->ns;
	}
	return t->nsproxy->ns[types[n->e->id - I_NS_CGROUP]];
}

static int link_ns(const struct pnode *n, struct task *caller, struct path *out)
{
	struct ns_common *ns = ns_of(n);

	(void)caller;
	if (!ns)
		return -ENOENT;
	return nsfs_path(ns, out);
}

/* readlink's text ("uts:[4026531838]"); the caller's access is checked. */
static int target_ns(const struct pnode *n, struct sbuf *b)
{
	struct ns_common *ns = ns_of(n);
	char name[32];

	if (!ns)
		return -ENOENT;
	nsfs_name(ns, name, sizeof(name));
	sb_printf(b, "%s", name);
	return 0;
}

#define NS_LINK(nm, i)                                                                  \
	{                                                                               \
		.name = nm, .id = i, .mode = LINK, .link = link_ns, .target = target_ns \
	}

/* In Linux's order (fs/proc/namespaces.c's ns_entries). */
static const struct pentry ns_children[] = {
	NS_LINK("net", I_NS_NET),
	NS_LINK("uts", I_NS_UTS),
	NS_LINK("ipc", I_NS_IPC),
	NS_LINK("pid", I_NS_PID),
	NS_LINK("pid_for_children", I_NS_PID_CHILDREN),
	NS_LINK("user", I_NS_USER),
	NS_LINK("mnt", I_NS_MNT),
	NS_LINK("cgroup", I_NS_CGROUP),
	NS_LINK("time", I_NS_TIME),
	NS_LINK("time_for_children", I_NS_TIME_CHILDREN),
	{ 0 },
};

static void sb_emit(void *arg, const char *line)
{
	sb_put(arg, line, strlen(line));
}

/* /proc/PID/net: the network namespace of the process (of its thread
 * under /proc/PID/task/TID), whoever asks. */
static int gen_net(const struct pnode *n, struct sbuf *b)
{
	static const enum net_proc_file files[] = {
		[I_NET_DEV - I_NET_DEV] = NET_PROC_DEV,
		[I_NET_ROUTE - I_NET_DEV] = NET_PROC_ROUTE,
		[I_NET_ARP - I_NET_DEV] = NET_PROC_ARP,
		[I_NET_IF_INET6 - I_NET_DEV] = NET_PROC_IF_INET6,
		[I_NET_TCP - I_NET_DEV] = NET_PROC_TCP,
		[I_NET_TCP6 - I_NET_DEV] = NET_PROC_TCP6,
		[I_NET_UDP - I_NET_DEV] = NET_PROC_UDP,
		[I_NET_UDP6 - I_NET_DEV] = NET_PROC_UDP6,
		[I_NET_UDPLITE - I_NET_DEV] = NET_PROC_UDPLITE,
		[I_NET_UDPLITE6 - I_NET_DEV] = NET_PROC_UDPLITE6,
		[I_NET_UNIX - I_NET_DEV] = NET_PROC_UNIX,
		[I_NET_IGMP - I_NET_DEV] = NET_PROC_IGMP,
		[I_NET_IGMP6 - I_NET_DEV] = NET_PROC_IGMP6,
		[I_NET_DEV_MCAST - I_NET_DEV] = NET_PROC_DEV_MCAST,
		[I_NET_SOCKSTAT - I_NET_DEV] = NET_PROC_SOCKSTAT,
		[I_NET_SOCKSTAT6 - I_NET_DEV] = NET_PROC_SOCKSTAT6,
		[I_NET_SNMP - I_NET_DEV] = NET_PROC_SNMP,
		[I_NET_SNMP6 - I_NET_DEV] = NET_PROC_SNMP6,
		[I_NET_NETSTAT - I_NET_DEV] = NET_PROC_NETSTAT,
		[I_NET_RAW - I_NET_DEV] = NET_PROC_RAW,
		[I_NET_RAW6 - I_NET_DEV] = NET_PROC_RAW6,
		[I_NET_ICMP - I_NET_DEV] = NET_PROC_ICMP,
		[I_NET_ICMP6 - I_NET_DEV] = NET_PROC_ICMP6,
	};

	struct task *t = procfs_task(n);

	if (!procfs_process(n) || !t)
		return -ESRCH;
	net_proc_show(files[n->e->id - I_NET_DEV], task_net(t), sb_emit, b);
	return 0;
}

static const struct pentry net_children[] = {
	{ .name = "arp", .id = I_NET_ARP, .mode = FILE_R, .gen = gen_net },
	{ .name = "dev", .id = I_NET_DEV, .mode = FILE_R, .gen = gen_net },
	{ .name = "dev_mcast", .id = I_NET_DEV_MCAST, .mode = FILE_R, .gen = gen_net },
	{ .name = "icmp", .id = I_NET_ICMP, .mode = FILE_R, .gen = gen_net },
	{ .name = "icmp6", .id = I_NET_ICMP6, .mode = FILE_R, .gen = gen_net },
	{ .name = "igmp", .id = I_NET_IGMP, .mode = FILE_R, .gen = gen_net },
	{ .name = "igmp6", .id = I_NET_IGMP6, .mode = FILE_R, .gen = gen_net },
	{ .name = "if_inet6", .id = I_NET_IF_INET6, .mode = FILE_R, .gen = gen_net },
	{ .name = "netstat", .id = I_NET_NETSTAT, .mode = FILE_R, .gen = gen_net },
	{ .name = "raw", .id = I_NET_RAW, .mode = FILE_R, .gen = gen_net },
	{ .name = "raw6", .id = I_NET_RAW6, .mode = FILE_R, .gen = gen_net },
	{ .name = "route", .id = I_NET_ROUTE, .mode = FILE_R, .gen = gen_net },
	{ .name = "snmp", .id = I_NET_SNMP, .mode = FILE_R, .gen = gen_net },
	{ .name = "snmp6", .id = I_NET_SNMP6, .mode = FILE_R, .gen = gen_net },
	{ .name = "sockstat", .id = I_NET_SOCKSTAT, .mode = FILE_R, .gen = gen_net },
	{ .name = "sockstat6", .id = I_NET_SOCKSTAT6, .mode = FILE_R, .gen = gen_net },
	{ .name = "tcp", .id = I_NET_TCP, .mode = FILE_R, .gen = gen_net },
	{ .name = "tcp6", .id = I_NET_TCP6, .mode = FILE_R, .gen = gen_net },
	{ .name = "udp", .id = I_NET_UDP, .mode = FILE_R, .gen = gen_net },
	{ .name = "udp6", .id = I_NET_UDP6, .mode = FILE_R, .gen = gen_net },
	{ .name = "udplite", .id = I_NET_UDPLITE, .mode = FILE_R, .gen = gen_net },
	{ .name = "udplite6", .id = I_NET_UDPLITE6, .mode = FILE_R, .gen = gen_net },
	{ .name = "unix", .id = I_NET_UNIX, .mode = FILE_R, .gen = gen_net },
	{ 0 },
};

const struct pentry procfs_pid_children[] = {
	{ .name = "task", .id = I_TASK, .mode = DIR_R, .dyn = PD_TASKS, .tgid_only = true },
	{ .name = "fd", .id = I_FD, .mode = DIR_X, .dyn = PD_FDS },
	{ .name = "fdinfo", .id = I_FDINFO, .mode = DIR_R, .dyn = PD_FDINFO },
	{ .name = "cwd", .id = I_CWD, .mode = LINK, .link = link_cwd },
	{ .name = "root", .id = I_ROOT, .mode = LINK, .link = link_root },
	{ .name = "exe", .id = I_EXE, .mode = LINK, .link = link_exe },
	{ .name = "environ",
	  .id = I_ENVIRON,
	  .mode = FILE_P,
	  .gen = gen_environ,
	  .mem_open = true },
	{ .name = "auxv", .id = I_AUXV, .mode = FILE_P, .gen = gen_auxv, .mem_open = true },
	{ .name = "mem", .id = I_MEM, .mode = LINUX_S_IFREG | 0600, .open = mem_open },
	{ .name = "cmdline", .id = I_CMDLINE, .mode = FILE_R, .gen = gen_cmdline },
	{ .name = "timens_offsets",
	  .id = I_TIMENS_OFFSETS,
	  .mode = FILE_W,
	  .gen = gen_timens_offsets,
	  .put_opener = put_timens_offsets,
	  .seq = true,
	  .tgid_only = true },
	{ .name = "comm",
	  .id = I_COMM,
	  .mode = FILE_W,
	  .gen = gen_comm,
	  .put = put_comm,
	  .seq = true },
	{ .name = "stat", .id = I_STAT, .mode = FILE_R, .gen = gen_stat },
	{ .name = "statm", .id = I_STATM, .mode = FILE_R, .gen = gen_statm },
	{ .name = "status", .id = I_STATUS, .mode = FILE_R, .gen = gen_status },
	{ .name = "maps", .id = I_MAPS, .mode = FILE_R, .gen = gen_maps },
	{ .name = "smaps", .id = I_SMAPS, .mode = FILE_R, .gen = gen_smaps },
	{ .name = "smaps_rollup",
	  .id = I_SMAPS_ROLLUP,
	  .mode = FILE_R,
	  .gen = gen_smaps_rollup,
	  .mem_open = true },
	{ .name = "numa_maps", .id = I_NUMA_MAPS, .mode = FILE_R, .gen = gen_numa_maps },
	{ .name = "mounts", .id = I_MOUNTS, .mode = FILE_R, .gen = gen_mounts },
	{ .name = "mountinfo", .id = I_MOUNTINFO, .mode = FILE_R, .gen = gen_mountinfo },
	{ .name = "limits", .id = I_LIMITS, .mode = FILE_R, .gen = gen_limits },
	{ .name = "cgroup", .id = I_CGROUP, .mode = FILE_R, .gen = gen_cgroup },
	{ .name = "coredump_filter",
	  .id = I_COREDUMP_FILTER,
	  .mode = FILE_W,
	  .gen = gen_coredump_filter,
	  .put = put_coredump_filter,
	  .tgid_only = true },
	{ .name = "io", .id = I_IO, .mode = FILE_P, .gen = gen_io, .gen_at_read = true },
	{ .name = "personality",
	  .id = I_PERSONALITY,
	  .mode = FILE_P,
	  .gen = gen_personality,
	  .gen_at_read = true },
	{ .name = "loginuid",
	  .id = I_LOGINUID,
	  .mode = LINUX_S_IFREG | 0644,
	  .gen = gen_loginuid,
	  .put_opener = put_loginuid,
	  .gen_at_read = true },
	{ .name = "sessionid",
	  .id = I_SESSIONID,
	  .mode = FILE_R,
	  .gen = gen_sessionid,
	  .gen_at_read = true },
	{ .name = "timerslack_ns",
	  .id = I_TIMERSLACK_NS,
	  .mode = LINUX_S_IFREG | 0666,
	  .gen = gen_timerslack_ns,
	  .put = put_timerslack_ns,
	  .seq = true,
	  .gen_at_read = true,
	  .tgid_only = true },
	{ .name = "oom_adj",
	  .id = I_OOM_ADJ,
	  .mode = FILE_W,
	  .gen = gen_oom_adj,
	  .put = put_oom_adj },
	{ .name = "oom_score", .id = I_OOM_SCORE, .mode = FILE_R, .gen = gen_oom_score },
	{ .name = "oom_score_adj",
	  .id = I_OOM_SCORE_ADJ,
	  .mode = FILE_W,
	  .gen = gen_oom_score_adj,
	  .put = put_oom_score_adj },
	{ .name = "wchan", .id = I_WCHAN, .mode = FILE_R, .gen = gen_wchan },
	{ .name = "syscall",
	  .id = I_SYSCALL,
	  .mode = FILE_P,
	  .gen = gen_syscall,
	  .gen_at_read = true },
	{ .name = "uid_map",
	  .id = I_UID_MAP,
	  .mode = FILE_W,
	  .gen = gen_uid_map,
	  .put_opener = put_uid_map,
	  .seq = true },
	{ .name = "gid_map",
	  .id = I_GID_MAP,
	  .mode = FILE_W,
	  .gen = gen_gid_map,
	  .put_opener = put_gid_map,
	  .seq = true },
	{ .name = "setgroups",
	  .id = I_SETGROUPS,
	  .mode = FILE_W,
	  .gen = gen_setgroups,
	  .put_opener = put_setgroups,
	  .seq = true },
	{ .name = "net", .id = I_NET, .mode = DIR_R, .children = net_children },
	{ .name = "ns", .id = I_NS, .mode = LINUX_S_IFDIR | 0511, .children = ns_children },
	{ 0 },
};

const struct pentry procfs_pid_entry = {
	.name = "PID", .id = I_PIDDIR, .mode = DIR_R, .children = procfs_pid_children
};
const struct pentry procfs_tid_entry = {
	.name = "TID", .id = I_TIDDIR, .mode = DIR_R, .children = procfs_pid_children
};
const struct pentry procfs_fd_entry = {
	.name = "N", .id = I_FDLINK, .mode = LINUX_S_IFLNK | 0700, .link = link_fd
};
const struct pentry procfs_fdinfo_entry = {
	.name = "N", .id = I_FDINFOFILE, .mode = FILE_R, .gen = gen_fdinfo
};
