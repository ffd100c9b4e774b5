/* kernel/cpus.c: the --cpus gate. A task takes a slot before its thread
 * runs guest code and gives it back at the next trap; at most N hold one.
 * Waiters queue in order, and while anyone waits the holder that has run
 * longest is interrupted after a time slice, so they take turns, as a
 * host scheduler would with N CPUs. The stubs are also confined to N host
 * CPUs (main.c, host_set_cpus). Without --cpus there is no gate. */
#include "kernel/cpus.h"
#include "kernel/sched.h"
#include "kernel/task.h"
#include "host/host.h"
#include "platform/platform.h"
#include "abi/linux/errno.h"

#define CPU_SLICE_NS (10 * 1000 * 1000LL)

static int ncpus;
static int busy;
static LIST_HEAD_DECL(waiters);
static LIST_HEAD_DECL(holders); /* oldest first */
static struct ktimer slice;

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

int cpus_current(void)
{
	return host_current_cpu() % cpus_count();
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

int cpu_get(struct cpu_slot *s)
{
	s->task = current;
	s->granted = false;
	if (!ncpus)
		return 0;
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
