/* kernel/oom.c: the OOM killer. The victim is the live process whose
 * address space commits the most memory (with what its MAP_NORESERVE
 * mappings last held resident), as Linux's badness score mostly is, moved
 * by its oom_score_adj (-1000: only if no other is left); while a victim is still dying nobody else is chosen (its memory is on
 * its way back). Pid 1 is eligible: its death ends the instance, as a
 * container's init. */
#include "kernel/oom.h"
#include "kernel/task.h"
#include "kernel/log.h"
#include "mm/commit.h"
#include "mm/mm.h"
#include "abi/linux/signal.h"

static int victim_pid; /* the last victim, while it dies */

struct oom_pick {
	struct process *p;
	int64_t points;
	bool any; /* -1000 too: nobody else is left */
};

static uint64_t process_committed(struct process *p)
{
	struct task *t;

	list_for_each_entry(t, &p->threads, thread_link) if (t->mm) return t->mm->committed +
		t->mm->resident;
	return 0;
}

/* Linux's oom_badness: the memory, moved by oom_score_adj thousandths of
 * the whole (--memory; below 0 for a negative one); INT64_MIN for never
 * (-1000, or no thread left). */
int64_t oom_badness(struct process *p)
{
	if (p->oom_score_adj <= -1000 || list_empty(&p->threads))
		return INT64_MIN;
	return (int64_t)process_committed(p) + p->oom_score_adj * (int64_t)(mem_limit() / 1000);
}

static void pick_cb(struct process *p, void *arg)
{
	struct oom_pick *pick = arg;
	int64_t points;

	if (p->exiting || list_empty(&p->threads))
		return;
	points = pick->any ? (int64_t)process_committed(p) : oom_badness(p);
	if (points == INT64_MIN)
		return;
	if (!pick->p || points > pick->points) {
		pick->p = p;
		pick->points = points;
	}
}

void oom_kill(const char *why)
{
	struct oom_pick pick = { NULL, 0, false };
	struct process *old = victim_pid ? process_by_pid(victim_pid) : NULL;
	struct task *t;

	if (old && old->exiting && !old->zombie)
		return;
	for_each_process(pick_cb, &pick);
	/* Differs from Linux, whose memory cgroup would stall the
	 * allocation: --memory holds even when every process asked never to
	 * be chosen (root in the guest may ask), so one of them goes. */
	if (!pick.p) {
		pick.any = true;
		for_each_process(pick_cb, &pick);
	}
	if (!pick.p)
		return;
	t = list_first_entry(&pick.p->threads, struct task, thread_link);
	klog(LOG_WARN, "Out of memory (%s): killed process %d (%s), %llu kB committed", why,
	     pick.p->pid, t->comm, (unsigned long long)(process_committed(pick.p) >> 10));
	victim_pid = pick.p->pid;
	process_kill(pick.p, LINUX_SIGKILL);
}
