/* kernel/prio.c: a task's scheduling parameters (policy, real-time
 * priority, nice; syscalls/sys_sched.c sets them) across clone, and as
 * /proc/PID/stat shows them. Bookkeeping only: the host schedules. */
#include <string.h>

#include "kernel/cpus.h"
#include "kernel/task.h"

uint64_t ioc_new_id(void)
{
	static uint64_t last;

	return ++last;
}

void sched_fork_params(struct task *c, const struct task *parent, bool clone_io)
{
	c->sched_policy = parent->sched_policy;
	c->sched_rt_priority = parent->sched_rt_priority;
	c->nice = parent->nice;
	c->sched_slice_ns = parent->sched_slice_ns;
	c->dl_runtime = c->dl_deadline = c->dl_period = c->dl_bw = 0;
	c->dl_flags = 0;
	c->ioprio = (parent->ioprio >> 13) != 0 ? parent->ioprio : 0;
	if (clone_io)
		c->ioc_id = parent->ioc_id;
	else
		c->ioc_id = parent->ioc_id && c->ioprio ? ioc_new_id() : 0;
	c->timer_slack_ns = c->default_timer_slack_ns = parent->timer_slack_ns;
	c->affinity_set = parent->affinity_set;
	memcpy(c->affinity, parent->affinity, sizeof(c->affinity));
	c->sched_reset_on_fork = false;
	if (!parent->sched_reset_on_fork)
		return;
	/* Linux's sched_fork: a real-time or deadline parent's child is
	 * SCHED_OTHER at nice 0; any other keeps its policy, a negative nice
	 * becomes 0; the flag has done its work. */
	if (parent->sched_policy == SCHED_POLICY_FIFO || parent->sched_policy == SCHED_POLICY_RR ||
	    parent->sched_policy == SCHED_POLICY_DEADLINE) {
		c->sched_policy = SCHED_POLICY_OTHER;
		c->sched_rt_priority = 0;
		c->nice = 0;
	} else if (c->nice < 0) {
		c->nice = 0;
	}
	c->sched_slice_ns = 0;
}

void task_affinity(const struct task *t, uint64_t mask[TASK_CPUS_MAX / 64])
{
	int ncpu = cpus_count(), i;

	memset(mask, 0, TASK_CPUS_MAX / 8);
	for (i = 0; i < ncpu && i < TASK_CPUS_MAX; i++)
		if (!t || !t->affinity_set || (t->affinity[i / 64] & (1ULL << (i % 64))))
			mask[i / 64] |= 1ULL << (i % 64);
}

int task_prio(const struct task *t)
{
	switch (t->sched_policy) {
	case SCHED_POLICY_FIFO:
	case SCHED_POLICY_RR:
		return -1 - (int)t->sched_rt_priority;
	case SCHED_POLICY_DEADLINE:
		return -101;
	default:
		return 20 + t->nice;
	}
}
