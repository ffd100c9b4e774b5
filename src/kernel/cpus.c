/* kernel/cpus.c: the --cpus gate. A task takes a slot before its thread
 * runs guest code and gives it back at the next trap; at most N hold one.
 * Waiters queue in order, and while anyone waits the holder that has run
 * longest is interrupted after a time slice, so they take turns, as a
 * host scheduler would with N CPUs. The stubs are also confined to N host
 * CPUs (main.c, host_set_cpus).
 *
 * Without --cpus there is no gate, and every guest thread starts on the
 * kernel's CPU: a trap that crosses CPUs costs 34-130 µs on these
 * machines, against ~5 µs on one. A thread that has run guest code for
 * SPILL_NS while another also runs guest code there is spilled: moved to
 * the host's other CPUs (a compiler's long pass next to a make -j2
 * sibling). It comes back at a trap once nothing else runs guest code on
 * the kernel's CPU, or after two runs shorter than UNSPILL_NS in a row
 * (it has turned to system calls). */
#include "kernel/cpus.h"
#include "kernel/sched.h"
#include "kernel/task.h"
#include "kernel/log.h"
#include "host/host.h"
#include "platform/platform.h"
#include "abi/linux/errno.h"

#define CPU_SLICE_NS (10 * 1000 * 1000LL)
#define SPILL_NS     (4 * 1000 * 1000LL)
#define UNSPILL_NS   (1000 * 1000LL)

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
	return ncpus ? ncpus : host_ncpus();
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

/* Of two or more threads in guest code on the kernel's CPU, the one
 * there longest goes once it has run SPILL_NS. */
static void spill_check(void *arg)
{
	int64_t now = sched_now_ns();
	struct cpu_slot *s;

	(void)arg;
	if (nlocal < 2 || spill_off)
		return;
	s = list_first_entry(&local, struct cpu_slot, link);
	if (now - s->since_ns >= SPILL_NS && s->task->state == TASK_USER && spill(s, true) == 0) {
		list_del(&s->link);
		s->local = false;
		nlocal--;
		if (nlocal < 2)
			return;
		s = list_first_entry(&local, struct cpu_slot, link);
	}
	ktimer_arm(&spill_timer, (s->since_ns + SPILL_NS > now ? s->since_ns : now) + SPILL_NS,
		   spill_check, NULL);
}

static void local_get(struct cpu_slot *s)
{
	s->since_ns = sched_now_ns();
	if (platform->threads_apart)
		return; /* never on the kernel's CPU alone */
	/* An exec that made a new host thread (a fresh stub) starts it on
	 * the kernel's CPU: the old one's pointer goes. */
	if (s->spilled != s->task->thread)
		s->spilled = NULL;
	if (s->spilled)
		return;
	s->local = true;
	list_add_tail(&s->link, &local);
	if (++nlocal == 2 && !spill_off && !spill_timer.armed)
		ktimer_arm(&spill_timer,
			   list_first_entry(&local, struct cpu_slot, link)->since_ns + SPILL_NS,
			   spill_check, NULL);
}

static void local_put(struct cpu_slot *s)
{
	if (s->local) {
		list_del(&s->link);
		s->local = false;
		if (--nlocal < 2)
			ktimer_cancel(&spill_timer);
		return;
	}
	if (!cpus_spilled(s->task))
		return;
	if (sched_now_ns() - s->since_ns < UNSPILL_NS)
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
