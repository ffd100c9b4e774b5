/* kernel/oom.c: the OOM killer. The victim is the live process whose
 * address space commits the most memory (with what its MAP_NORESERVE
 * mappings last held resident), as Linux's badness score mostly is; while a victim is still dying nobody else is chosen (its memory is on
 * its way back). Pid 1 is eligible: its death ends the instance, as a
 * container's init. */
#include "kernel/oom.h"
#include "kernel/task.h"
#include "kernel/log.h"
#include "mm/mm.h"
#include "abi/linux/signal.h"

static int victim_pid; /* the last victim, while it dies */

struct oom_pick {
	struct process *p;
	uint64_t bytes;
};

static uint64_t process_committed(struct process *p)
{
	struct task *t;

	list_for_each_entry(t, &p->threads, thread_link) if (t->mm) return t->mm->committed +
		t->mm->resident;
	return 0;
}

static void pick_cb(struct process *p, void *arg)
{
	struct oom_pick *pick = arg;
	uint64_t bytes;

	if (p->exiting || list_empty(&p->threads))
		return;
	bytes = process_committed(p);
	if (!pick->p || bytes > pick->bytes) {
		pick->p = p;
		pick->bytes = bytes;
	}
}

void oom_kill(const char *why)
{
	struct oom_pick pick = { NULL, 0 };
	struct process *old = victim_pid ? process_by_pid(victim_pid) : NULL;
	struct task *t;

	if (old && old->exiting && !old->zombie)
		return;
	for_each_process(pick_cb, &pick);
	if (!pick.p)
		return;
	t = list_first_entry(&pick.p->threads, struct task, thread_link);
	klog(LOG_WARN, "Out of memory (%s): killed process %d (%s), %llu kB committed", why,
	     pick.p->pid, t->comm, (unsigned long long)(pick.bytes >> 10));
	victim_pid = pick.p->pid;
	process_kill(pick.p, LINUX_SIGKILL);
}
