/* kernel/cpus.c: the --cpus gate. A task takes a slot before its thread
 * runs guest code and gives it back at the next trap; at most N hold one.
 * Waiters queue in order, and while anyone waits the holder that has run
 * longest is interrupted after a time slice, so they take turns, as a
 * host scheduler would with N CPUs. The stubs are also confined to N host
 * CPUs (main.c, host_set_cpus).
 *
 * Without --cpus there is no gate, and every guest thread starts on the
 * kernel's CPU: a trap that crosses CPUs costs 34-130 µs on some
 * machines (~9 µs more than on one CPU on others), against ~5-12 µs on
 * one. A thread that has run guest code for SPILL_NS while another also
 * runs guest code there is spilled, moved to the host's other CPUs (a
 * compiler's passes next to a make -j2 sibling), if its program has made
 * such a long run before, within its last SPILL_RECENT runs, and
 * SPILL_WARMUP runs in all since its fork or exec: not the short-lived
 * children of a shell, whose runs are long with the host's page faults
 * after a fork or an exec (copies on write, the loader's first touches),
 * for a few dozen calls. Any thread is after SPILL_ANY_NS (a loop that
 * never traps). It comes back at a trap once nothing else runs guest code
 * on the kernel's CPU, or after two runs shorter than UNSPILL_NS in a row
 * (it has turned to system calls). On a 2-vCPU VM, against a 4 ms spill
 * for any thread and 1 ms runs to come back: make -j2 of bench/'s small
 * project 0.86 -> 0.78 s, two gcc -O2 at once 0.69 -> 0.66 s, a shell
 * loop unchanged. */
#include "kernel/cpus.h"
#include "kernel/cputime.h"
#include "kernel/sched.h"
#include "kernel/task.h"
#include "kernel/log.h"
#include "host/host.h"
#include "platform/platform.h"
#include "abi/linux/errno.h"

#define CPU_SLICE_NS (10 * 1000 * 1000LL)
#define SPILL_NS     (200 * 1000LL)
#define UNSPILL_NS   (50 * 1000LL)
#define SPILL_RECENT 16
#define SPILL_WARMUP 64
#define SPILL_ANY_NS (4 * 1000 * 1000LL)

static int ncpus;
static int busy;
static LIST_HEAD_DECL(waiters);
static LIST_HEAD_DECL(holders); /* oldest first */
static struct ktimer slice;
static bool spill_off;	      /* the host cannot (one CPU, not pinned) */
static LIST_HEAD_DECL(local); /* slots in guest code on the kernel's CPU, oldest first */
static int nlocal;
static struct ktimer spill_timer;

void cpus_set(int n)
{
	ncpus = n;
}

bool cpus_shared(void)
{
	return ncpus <= 1;
}

int cpus_count(void)
{
	static int host_n; /* the host's, read once (sysconf reads /sys) */

	if (ncpus)
		return ncpus;
	if (!host_n)
		host_n = host_ncpus();
	return host_n;
}

int cpus_current(const struct task *t)
{
	int cpu = -1;

	/* Off the kernel's CPU: the host says where it last ran. */
	if (t && t->mm && cpus_spilled(t))
		cpu = host_thread_cpu(platform->mm_host_pid(t->mm->pf),
				      platform->thread_host_tid(t->thread));
	if (cpu < 0)
		cpu = host_current_cpu();
	return cpu % cpus_count();
}

static void grant(struct cpu_slot *s)
{
	busy++;
	s->granted = true;
	s->since_ns = sched_now_ns();
	list_add_tail(&s->link, &holders);
}

/* While threads wait: the longest holder in guest code, past its slice,
 * is stopped (it comes back through cpu_put and queues again). */
static void slice_end(void *arg)
{
	int64_t now = sched_now_ns();
	struct cpu_slot *h;

	(void)arg;
	if (list_empty(&waiters))
		return;
	list_for_each_entry(h, &holders, link)
	{
		if (now - h->since_ns < CPU_SLICE_NS)
			break;
		if (h->task->state == TASK_USER && h->task->thread) {
			platform->interrupt(h->task->thread);
			h->task->nivcsw++; /* preempted: Linux's nivcsw */
			cputime_ctxt++;
			h->since_ns = now; /* once per slice */
			break;
		}
	}
	ktimer_arm(&slice, now + CPU_SLICE_NS / 2, slice_end, NULL);
}

bool cpus_spilled(const struct task *t)
{
	return t->thread && t->cpu_slot && t->cpu_slot->spilled == t->thread;
}

static int spill(struct cpu_slot *s, bool out)
{
	struct pf_thread *th = s->task->thread;
	int tid = th && platform->thread_host_tid ? platform->thread_host_tid(th) : -1;
	int ret = tid > 0 ? host_thread_spill(tid, out) : -ESRCH;

	/* One CPU, or the host refuses (EPERM, EINVAL): no more tries. */
	if (ret < 0 && ret != -ESRCH)
		spill_off = true;
	if (ret == 0)
		s->spilled = out ? th : NULL;
	if (ret == 0 && out && !s->told) {
		s->told = true;
		klog(LOG_INFO, "pid %d (%s): guest code runs on the other CPUs too", s->task->tid,
		     s->task->comm);
	}
	s->short_runs = 0;
	return ret;
}

void cpus_thread_put(struct task *t)
{
	if (cpus_spilled(t))
		spill(t->cpu_slot, false);
}

/* When s's thread, running guest code on the kernel's CPU, may be
 * spilled: after SPILL_NS if its program has made a long run lately, else
 * after SPILL_ANY_NS. */
static int64_t spill_deadline(const struct cpu_slot *s)
{
	bool recent =
		s->runs >= SPILL_WARMUP && s->long_seen && s->runs - s->long_at < SPILL_RECENT;

	return s->since_ns + (recent ? SPILL_NS : SPILL_ANY_NS);
}

static void spill_check(void *arg);

/* The spill timer, at the first deadline of the threads on the kernel's
 * CPU to come, while two or more run guest code there. */
static void spill_arm(void)
{
	int64_t now = sched_now_ns(), next = INT64_MAX, d;
	struct cpu_slot *s;

	if (nlocal >= 2 && !spill_off)
		list_for_each_entry(s, &local, link)
		{
			/* one that is past it and still here could not go
			 * (not in guest code, the host refused): later */
			d = spill_deadline(s);
			if (d <= now)
				d = now + SPILL_NS;
			if (d < next)
				next = d;
		}
	if (next == INT64_MAX)
		ktimer_cancel(&spill_timer);
	else
		ktimer_arm(&spill_timer, next, spill_check, NULL);
}

/* Of two or more threads in guest code on the kernel's CPU, one past its
 * deadline goes. */
static void spill_check(void *arg)
{
	int64_t now = sched_now_ns();
	struct cpu_slot *s;

	(void)arg;
	if (nlocal < 2 || spill_off)
		return;
	list_for_each_entry(s, &local, link)
	{
		if (now >= spill_deadline(s) && s->task->state == TASK_USER &&
		    spill(s, true) == 0) {
			list_del(&s->link);
			s->local = false;
			nlocal--;
			break;
		}
	}
	spill_arm();
}

/* One more run of s's program, of run_ns. */
static void count_run(struct cpu_slot *s, int64_t run_ns)
{
	s->runs++;
	if (run_ns >= SPILL_NS) {
		s->long_seen = true;
		s->long_at = s->runs;
	}
}

static void local_get(struct cpu_slot *s)
{
	s->since_ns = sched_now_ns();
	if (platform->threads_apart)
		return; /* never on the kernel's CPU alone */
	if (s->runs_mm != s->task->mm) {
		s->runs_mm = s->task->mm; /* a new program: no run yet */
		s->long_seen = false;
		s->runs = 0;
	}
	/* An exec that made a new host thread (a fresh stub) starts it on
	 * the kernel's CPU: the old one's pointer goes. */
	if (s->spilled != s->task->thread)
		s->spilled = NULL;
	if (s->spilled)
		return;
	s->local = true;
	list_add_tail(&s->link, &local);
	/* The timer only comes sooner: no walk of every thread at each
	 * trap, but when a second one joins. */
	if (++nlocal == 2)
		spill_arm();
	else if (nlocal > 2 && !spill_off &&
		 (!spill_timer.armed || spill_deadline(s) < spill_timer.deadline_ns))
		ktimer_arm(&spill_timer, spill_deadline(s), spill_check, NULL);
}

static void local_put(struct cpu_slot *s)
{
	int64_t run_ns = sched_now_ns() - s->since_ns;

	if (platform->threads_apart)
		return;
	count_run(s, run_ns);
	if (s->local) {
		list_del(&s->link);
		s->local = false;
		/* else a timer that was its finds nothing to do, and
		 * spill_check sets the next */
		if (--nlocal < 2)
			ktimer_cancel(&spill_timer);
		return;
	}
	if (!cpus_spilled(s->task))
		return;
	if (run_ns < UNSPILL_NS)
		s->short_runs++;
	else
		s->short_runs = 0;
	if (nlocal == 0 || s->short_runs >= 2)
		spill(s, false);
}

int cpu_get(struct cpu_slot *s)
{
	s->task = current;
	s->granted = false;
	if (!ncpus) {
		local_get(s);
		return 0;
	}
	if (busy < ncpus && list_empty(&waiters)) {
		grant(s);
		return 0;
	}
	list_add_tail(&s->link, &waiters);
	if (!slice.armed)
		ktimer_arm(&slice, sched_now_ns() + CPU_SLICE_NS / 2, slice_end, NULL);
	current->state = TASK_SLEEPING;
	schedule();
	if (s->granted)
		return 0;
	list_del(&s->link);
	return -EINTR;
}

void cpu_put(struct cpu_slot *s)
{
	struct cpu_slot *w;

	if (!ncpus) {
		local_put(s);
		return;
	}
	if (!s->granted)
		return;
	list_del(&s->link);
	s->granted = false;
	busy--;
	if (list_empty(&waiters)) {
		ktimer_cancel(&slice);
		return;
	}
	w = list_first_entry(&waiters, struct cpu_slot, link);
	list_del(&w->link);
	grant(w);
	sched_wake(w->task);
}
