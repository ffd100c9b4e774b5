/* kernel/cputime.c: CPU accounting. Each guest thread is a host thread in a
 * stub; the host counts its run time (precise) and splits it into user and
 * system time by ticks. A task keeps the times of the host threads it had
 * before (exec gives it a new one); a process keeps those of its threads
 * that are gone; a parent adds a child's times (and its children's) when
 * it reaps it with wait, as Linux does. Reports scale the precise run time
 * by the tick split and never go backwards (Linux's cputime_adjust).
 * Differs from Linux: time skas spends handling a guest's system calls is
 * not counted (it is the kernel's own host process); system time is what
 * the host spent on the stub thread (its traps) and, for a process whose
 * stub ends with it (cputime_task_exit_reap), on the stub's control
 * thread too (its mappings, its teardown); ru_nvcsw counts the sleeps
 * in the kernel, ru_nivcsw the preemptions skas made (--cpus's slices),
 * not the host's of the stub threads; ru_inblock, ru_oublock are 0; ru_maxrss is the peak resident size of the
 * stub process, which holds the guest's memory.
 *
 * /proc/stat's CPU times: each thread's run time is credited, split as
 * its ticks are, to the guest CPU it was last seen on (cpus_current)
 * whenever it is sampled there (at each /proc/stat read, which samples
 * every thread) or its host thread goes. A CPU's idle time grows by the
 * time between two reads less what was credited to it meanwhile (not
 * below 0). Differs from Linux: a thread that moved between CPUs since
 * the last read is credited all to the last; no iowait, irq or steal. */
#include <stdlib.h>
#include <string.h>

#include "kernel/cputime.h"
#include "kernel/task.h"
#include "kernel/cpus.h"
#include "kernel/pidns.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"
#include "abi/linux/types.h"

#define NSEC_PER_USEC 1000LL
#define NSEC_PER_SEC  1000000000LL

static void raw_add(struct host_cputime *acc, const struct host_cputime *v)
{
	acc->rt_ns += v->rt_ns;
	acc->uticks += v->uticks;
	acc->sticks += v->sticks;
	acc->minflt += v->minflt;
	acc->majflt += v->majflt;
}

/* v less base, each count at least 0. */
static void raw_sub(struct host_cputime *v, const struct host_cputime *base)
{
	v->rt_ns = v->rt_ns > base->rt_ns ? v->rt_ns - base->rt_ns : 0;
	v->uticks = v->uticks > base->uticks ? v->uticks - base->uticks : 0;
	v->sticks = v->sticks > base->sticks ? v->sticks - base->sticks : 0;
	v->minflt = v->minflt > base->minflt ? v->minflt - base->minflt : 0;
	v->majflt = v->majflt > base->majflt ? v->majflt - base->majflt : 0;
}

static bool can_sample(struct task *t)
{
	return t->thread && t->mm && platform->thread_host_tid;
}

/* The host's figures for t's current host thread (zeros if none); last:
 * that host thread is about to go; maxrss_kb (may be NULL): its stub's
 * peak resident size too, read in the same host calls (-1 if unknown). */
static void sample_thread(struct task *t, bool last, struct host_cputime *out, long *maxrss_kb)
{
	memset(out, 0, sizeof(*out));
	if (maxrss_kb)
		*maxrss_kb = -1;
	if (!can_sample(t))
		return;
	if (host_thread_cputime(platform->mm_host_pid(t->mm->pf),
				platform->thread_host_tid(t->thread), last, out, maxrss_kb) == 0)
		raw_sub(out, &t->cpu_base);
}

void cputime_thread_new(struct task *t)
{
	memset(&t->cpu_base, 0, sizeof(t->cpu_base));
	if (can_sample(t) && platform->thread_reused && platform->thread_reused(t->thread))
		host_thread_cputime(platform->mm_host_pid(t->mm->pf),
				    platform->thread_host_tid(t->thread), false, &t->cpu_base,
				    NULL);
}

/* t's times: its earlier host threads' and its current one's (and its
 * stub's peak resident size, as sample_thread). */
static void sample_task(struct task *t, struct host_cputime *acc, long *maxrss_kb)
{
	struct host_cputime v;

	sample_thread(t, false, &v, maxrss_kb);
	raw_add(acc, &t->cpu_gone);
	raw_add(acc, &v);
}

/* The stub's peak size comes with the first thread's sample that can
 * read it: the threads share the address space. */
static void sample_process(struct process *p, struct host_cputime *acc, long *maxrss_kb)
{
	struct task *t;

	*acc = p->cpu_dead;
	*maxrss_kb = -1;
	list_for_each_entry(t, &p->threads, thread_link)
		sample_task(t, acc, *maxrss_kb < 0 ? maxrss_kb : NULL);
}

/* Linux's cputime_adjust(): the run time split as the ticks are. */
static void adjust(struct cpu_prev *prev, const struct host_cputime *raw, struct cpu_usage *u)
{
	int64_t rt = raw->rt_ns, stime, utime;

	if (prev->utime + prev->stime < rt) {
		if (raw->sticks == 0)
			stime = 0;
		else if (raw->uticks == 0)
			stime = rt;
		else
			stime = (int64_t)((unsigned __int128)raw->sticks * (uint64_t)rt /
					  (raw->uticks + raw->sticks));
		if (stime < prev->stime)
			stime = prev->stime;
		utime = rt - stime;
		if (utime < prev->utime) {
			utime = prev->utime;
			stime = rt - utime;
		}
		prev->utime = utime;
		prev->stime = stime;
	}
	u->utime = prev->utime;
	u->stime = prev->stime;
	u->minflt = raw->minflt;
	u->majflt = raw->majflt;
}

/* The run time of t's earlier host threads and of its current one (the
 * CPU-time clocks read only this: cheaper than a full sample). */
int64_t cputime_task_ns(struct task *t)
{
	int64_t ns = t->cpu_gone.rt_ns, now;

	if (can_sample(t)) {
		now = host_thread_runtime_ns(platform->mm_host_pid(t->mm->pf),
					     platform->thread_host_tid(t->thread));
		if (now > t->cpu_base.rt_ns)
			ns += now - t->cpu_base.rt_ns;
	}
	return ns;
}

int64_t cputime_process_ns(struct process *p)
{
	int64_t ns = p->cpu_dead.rt_ns;
	struct task *t;

	list_for_each_entry(t, &p->threads, thread_link) ns += cputime_task_ns(t);
	return ns;
}

/* p's peak resident size: of its address spaces gone, and kb of its
 * current one (read with a sample; < 0: read here, if it has one). */
static int64_t maxrss_now(struct process *p, long kb)
{
	int64_t rss = p->maxrss_kb;
	struct task *t;

	if (kb < 0) {
		list_for_each_entry(t, &p->threads, thread_link)
		{
			if (t->mm) {
				kb = host_proc_maxrss_kb(platform->mm_host_pid(t->mm->pf));
				break; /* threads share the address space */
			}
		}
	}
	return kb > rss ? kb : rss;
}

uint64_t cputime_ctxt;

void cputime_task(struct task *t, struct cpu_usage *u)
{
	struct host_cputime v;
	long kb;

	memset(&v, 0, sizeof(v));
	sample_task(t, &v, &kb);
	adjust(&t->cpu_prev, &v, u);
	u->maxrss_kb = maxrss_now(t->proc, kb);
	u->nvcsw = t->nvcsw;
	u->nivcsw = t->nivcsw;
}

void cputime_process(struct process *p, struct cpu_usage *u)
{
	struct host_cputime v;
	struct task *t;
	long kb;

	sample_process(p, &v, &kb);
	adjust(&p->cpu_prev, &v, u);
	u->maxrss_kb = maxrss_now(p, kb);
	u->nvcsw = p->nvcsw_dead;
	u->nivcsw = p->nivcsw_dead;
	list_for_each_entry(t, &p->threads, thread_link)
	{
		u->nvcsw += t->nvcsw;
		u->nivcsw += t->nivcsw;
	}
}

void cputime_children(struct process *p, struct cpu_usage *u)
{
	*u = p->cpu_children;
}

static void mm_retire(struct process *p, struct mm *mm)
{
	long kb;

	if (!mm || !mm->pf)
		return;
	kb = host_proc_maxrss_kb(platform->mm_host_pid(mm->pf));
	if (kb > p->maxrss_kb)
		p->maxrss_kb = kb;
}

/* The last figures of t's host thread, and its stub's peak size (kb < 0:
 * none), kept with t. */
static struct cpu_stat *cstat;	 /* per guest CPU */
static int64_t *cstat_busy_seen; /* each one's busy time at the last read */
static int cstat_n;
static int64_t cstat_seen_ns; /* the uptime at the last read */

static bool cstat_ready(void)
{
	int n;

	if (cstat)
		return true;
	n = cpus_count(); /* (without --cpus, a host read) */
	if (n < 1)
		n = 1;
	cstat = calloc((size_t)n, sizeof(*cstat));
	cstat_busy_seen = calloc((size_t)n, sizeof(*cstat_busy_seen));
	if (!cstat || !cstat_busy_seen) {
		free(cstat);
		free(cstat_busy_seen);
		cstat = NULL;
		cstat_busy_seen = NULL;
		return false;
	}
	cstat_n = n;
	return true;
}

/* Credits what t ran since its last credit (total: its times now) to
 * the CPU it runs on (look: ask where, which costs a host read for a
 * thread off the kernel's CPU; else the one it was on at the last
 * credit: a thread's exit reads nothing more). */
static void cstat_credit(struct task *t, const struct host_cputime *total, bool look)
{
	int64_t rt = total->rt_ns - t->stat_seen.rt_ns, sys;
	uint64_t du = total->uticks - t->stat_seen.uticks, ds = total->sticks - t->stat_seen.sticks;
	int cpu = look ? cpus_current(t) : t->stat_cpu;

	if (total->rt_ns < t->stat_seen.rt_ns || !cstat_ready()) {
		t->stat_seen = *total;
		return;
	}
	if (du + ds == 0) { /* too short for a tick: as the thread's whole */
		du = total->uticks;
		ds = total->sticks;
	}
	sys = du + ds ? (int64_t)((unsigned __int128)ds * (uint64_t)rt / (du + ds)) : 0;
	if (cpu < 0 || cpu >= cstat_n)
		cpu = 0;
	t->stat_cpu = (int16_t)cpu;
	cstat[cpu].system += sys;
	if (t->nice > 0)
		cstat[cpu].nice += rt - sys;
	else
		cstat[cpu].user += rt - sys;
	t->stat_seen = *total;
}

/* Reads closer together than this share one sample of every thread
 * (top reads /proc/stat and /proc/uptime at each refresh). */
#define CSTAT_FRESH_NS 10000000LL

void cputime_cpu_stat(int n, int64_t uptime_ns, struct cpu_stat *per, struct cpu_stat *sum)
{
	struct host_cputime acc;
	struct process *p;
	struct task *t;
	bool fresh;
	int i;

	if (per)
		memset(per, 0, (size_t)n * sizeof(*per));
	memset(sum, 0, sizeof(*sum));
	if (!cstat_ready())
		return;
	fresh = uptime_ns - cstat_seen_ns < CSTAT_FRESH_NS;
	for (p = fresh ? NULL : process_next(NULL); p; p = process_next(p))
		list_for_each_entry(t, &p->threads, thread_link)
		{
			if (!can_sample(t))
				continue;
			memset(&acc, 0, sizeof(acc));
			sample_task(t, &acc, NULL);
			cstat_credit(t, &acc, true);
		}
	for (i = 0; i < cstat_n; i++) {
		int64_t busy = cstat[i].user + cstat[i].nice + cstat[i].system,
			idle = uptime_ns - cstat_seen_ns - (busy - cstat_busy_seen[i]);

		if (!fresh) {
			cstat[i].idle += idle > 0 ? idle : 0;
			cstat_busy_seen[i] = busy;
		}
		if (i >= n)
			continue;
		if (per)
			per[i] = cstat[i];
		sum->user += cstat[i].user;
		sum->nice += cstat[i].nice;
		sum->system += cstat[i].system;
		sum->idle += cstat[i].idle;
	}
	if (!fresh)
		cstat_seen_ns = uptime_ns;
}

static void thread_gone(struct task *t, const struct host_cputime *v, long kb)
{
	raw_add(&t->cpu_gone, v);
	cstat_credit(t, &t->cpu_gone, false);
	memset(&t->cpu_base, 0, sizeof(t->cpu_base));
	if (kb > t->proc->maxrss_kb)
		t->proc->maxrss_kb = kb;
}

/* t ends: its times move to its process. */
static void io_add(struct task_io *acc, const struct task_io *v)
{
	acc->rchar += v->rchar;
	acc->wchar += v->wchar;
	acc->syscr += v->syscr;
	acc->syscw += v->syscw;
}

void io_account(struct task *t, bool write, long ret)
{
	if (write) {
		t->ioac.wchar += ret > 0 ? (uint64_t)ret : 0;
		t->ioac.syscw++;
	} else {
		t->ioac.rchar += ret > 0 ? (uint64_t)ret : 0;
		t->ioac.syscr++;
	}
}

void io_task(struct task *t, struct task_io *out)
{
	*out = t->ioac;
}

void io_process(struct process *p, struct task_io *out)
{
	struct task *t;

	*out = p->ioac;
	list_for_each_entry(t, &p->threads, thread_link) io_add(out, &t->ioac);
}

static void task_gone(struct task *t)
{
	t->proc->nvcsw_dead += t->nvcsw;
	t->proc->nivcsw_dead += t->nivcsw;
	t->nvcsw = t->nivcsw = 0;
	raw_add(&t->proc->cpu_dead, &t->cpu_gone);
	memset(&t->cpu_gone, 0, sizeof(t->cpu_gone));
	io_add(&t->proc->ioac, &t->ioac);
	memset(&t->ioac, 0, sizeof(t->ioac));
}

void cputime_thread_retire(struct task *t, bool with_mm)
{
	struct host_cputime v;
	long kb = -1;

	if (with_mm && !can_sample(t)) {
		mm_retire(t->proc, t->mm);
		with_mm = false;
	}
	sample_thread(t, true, &v, with_mm ? &kb : NULL);
	thread_gone(t, &v, with_mm ? kb : -1);
}

/* The kernel waits for the stub's teardown, which frees its memory: only
 * for a small one (about a millisecond's work at most), so that guests on
 * other CPUs (a spilled thread, --cpus) are not held up long. */
#define REAP_MAX_COMMITTED (16ULL << 20)

bool cputime_task_exit_reap(struct task *t)
{
	struct host_cputime v;
	long kb;
	int pid, tid;

	if (!can_sample(t) || !platform->mm_reap || t->mm->refcount != 1 ||
	    t->mm->committed > REAP_MAX_COMMITTED)
		return false;
	pid = platform->mm_host_pid(t->mm->pf);
	tid = platform->thread_host_tid(t->thread);
	mm_last_thread(t->mm);
	if (platform->mm_reap(t->mm->pf, t->thread, &v, &kb) < 0)
		return false;
	t->thread = NULL;
	host_cputime_forget(pid, tid);
	thread_gone(t, &v, kb);
	task_gone(t);
	return true;
}

void cputime_task_exit(struct task *t, bool with_mm)
{
	cputime_thread_retire(t, with_mm);
	task_gone(t);
}

void cputime_reap(struct process *parent, struct process *child, struct cpu_usage *u)
{
	const struct cpu_usage *cc = &child->cpu_children;
	struct cpu_usage self, *c;
	struct task_io io;

	cputime_process(child, &self);
	if (u) {
		*u = self;
		u->utime += cc->utime;
		u->stime += cc->stime;
		u->minflt += cc->minflt;
		u->majflt += cc->majflt;
		u->nvcsw += cc->nvcsw;
		u->nivcsw += cc->nivcsw;
		if (cc->maxrss_kb > u->maxrss_kb)
			u->maxrss_kb = cc->maxrss_kb;
	}
	if (!parent)
		return;
	io_process(child, &io);
	io_add(&parent->ioac, &io);
	c = &parent->cpu_children;
	c->utime += self.utime + cc->utime;
	c->stime += self.stime + cc->stime;
	c->minflt += self.minflt + cc->minflt;
	c->majflt += self.majflt + cc->majflt;
	c->nvcsw += self.nvcsw + cc->nvcsw;
	c->nivcsw += self.nivcsw + cc->nivcsw;
	if (self.maxrss_kb > c->maxrss_kb)
		c->maxrss_kb = self.maxrss_kb;
	if (cc->maxrss_kb > c->maxrss_kb)
		c->maxrss_kb = cc->maxrss_kb;
}

void cputime_to_rusage(const struct cpu_usage *u, void *out)
{
	struct linux_rusage *ru = out;

	memset(ru, 0, sizeof(*ru));
	ru->ru_utime.tv_sec = u->utime / NSEC_PER_SEC;
	ru->ru_utime.tv_usec = (u->utime % NSEC_PER_SEC) / NSEC_PER_USEC;
	ru->ru_stime.tv_sec = u->stime / NSEC_PER_SEC;
	ru->ru_stime.tv_usec = (u->stime % NSEC_PER_SEC) / NSEC_PER_USEC;
	ru->ru_maxrss = u->maxrss_kb;
	ru->ru_minflt = (int64_t)u->minflt;
	ru->ru_majflt = (int64_t)u->majflt;
	ru->ru_nvcsw = (int64_t)u->nvcsw;
	ru->ru_nivcsw = (int64_t)u->nivcsw;
}

bool cpuclock_is(int clk)
{
	return clk < 0 || clk == LINUX_CLOCK_PROCESS_CPUTIME_ID ||
	       clk == LINUX_CLOCK_THREAD_CPUTIME_ID;
}

int cpuclock_lookup(struct task *t, int clk, struct cpuclock *c)
{
	struct process *p;
	int pid;

	memset(c, 0, sizeof(*c));
	if (clk == LINUX_CLOCK_PROCESS_CPUTIME_ID || clk == LINUX_CLOCK_THREAD_CPUTIME_ID) {
		c->thread = clk == LINUX_CLOCK_THREAD_CPUTIME_ID;
		c->id = c->thread ? t->tid : t->proc->pid;
		c->which = CPUCLOCK_SCHED;
		return 0;
	}
	c->which = clk & 3;
	if (c->which == 3)
		return -EINVAL;
	pid = ~(clk >> 3);
	if (clk & CPUCLOCK_PERTHREAD) {
		struct task *o = pid ? task_by_vtid(t, pid) : t;

		if (!o || o->proc != t->proc || o->state == TASK_DEAD)
			return -EINVAL;
		c->thread = true;
		c->id = o->tid;
		return 0;
	}
	if (pid == 0 || pid == pid_vnr(t, t->tid)) {
		c->id = t->proc->pid;
		return 0;
	}
	p = process_by_vpid(t, pid);
	if (!p || p->zombie)
		return -EINVAL;
	c->id = p->pid;
	return 0;
}

int cpuclock_read(const struct cpuclock *c, int64_t *ns)
{
	struct task *t = NULL;
	struct process *p = NULL;
	struct cpu_usage u;

	if (c->thread) {
		t = task_by_tid(c->id);
		if (!t || t->state == TASK_DEAD)
			return -EINVAL;
	} else {
		p = process_by_pid(c->id);
		if (!p)
			return -EINVAL;
	}
	if (c->which == CPUCLOCK_SCHED) {
		*ns = t ? cputime_task_ns(t) : cputime_process_ns(p);
		return 0;
	}
	if (t)
		cputime_task(t, &u);
	else
		cputime_process(p, &u);
	*ns = c->which == CPUCLOCK_VIRT ? u.utime : u.utime + u.stime;
	return 0;
}
