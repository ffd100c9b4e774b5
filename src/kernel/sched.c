/* kernel/sched.c: the scheduler on the host thread's own stack. It runs
 * runnable tasks on their kernel stacks; when none is runnable it waits once
 * for every event source: platform traps, host fds and timers. */
#include <stdlib.h>

#include "kernel/sched.h"
#include "kernel/cputime.h"
#include "kernel/task.h"
#include "kernel/log.h"
#include "kernel/cpus.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define KSTACK_SIZE (1024 * 1024)
#else
#define KSTACK_SIZE (128 * 1024)
#endif

void kswitch(uint64_t *from_sp, uint64_t *to_sp);
void kstack_trampoline(void);

struct task *current;
static LIST_HEAD_DECL(runqueue);
static LIST_HEAD_DECL(timers);

static struct kstack sched_stack; /* the host thread's own stack */
uint64_t sched_stretch;

/* Where a new kernel stack starts (called by kstack_trampoline). */
static void kstack_start(void *p)
{
	struct kstack *ks = p;

#if defined(__SANITIZE_ADDRESS__)
	const void *bottom;
	size_t size;

	__sanitizer_finish_switch_fiber(NULL, &bottom, &size);
	sched_stack.base = (void *)bottom;
	sched_stack.size = size;
#endif
	ks->fn(ks->arg);
}

/* Freed kernel stacks, kept for the next task: a new one costs three host
 * calls (host_stack_alloc's map and guard, and the unmap at its end). */
#define KSTACK_POOL 64
static void *kstack_pool[KSTACK_POOL];
static int kstack_pooled;

int kstack_init(struct kstack *ks, void (*fn)(void *), void *arg)
{
	uint64_t *sp;

	ks->size = KSTACK_SIZE;
	ks->base = kstack_pooled ? kstack_pool[--kstack_pooled] : host_stack_alloc(ks->size);
	if (!ks->base)
		return -ENOMEM;
#if defined(__SANITIZE_ADDRESS__)
	/* A task that died left its frames' redzones poisoned */
	ASAN_UNPOISON_MEMORY_REGION(ks->base, ks->size);
#endif
	ks->fake_stack = NULL;
	ks->vg_id = host_stack_register(ks->base, ks->size);
	ks->fn = fn;
	ks->arg = arg;
	sp = (uint64_t *)((char *)ks->base + ks->size);
	/* kswitch's ret lands in the trampoline with rsp at the 16-aligned top,
	 * so the entry function starts with the ABI's alignment. */
	*--sp = (uint64_t)kstack_trampoline;
	*--sp = 0;			/* rbp */
	*--sp = 0;			/* rbx */
	*--sp = (uint64_t)ks;		/* r12 */
	*--sp = (uint64_t)kstack_start; /* r13 */
	*--sp = 0;			/* r14 */
	*--sp = 0;			/* r15 */
	ks->sp = (uint64_t)sp;
	return 0;
}

void kstack_free(struct kstack *ks)
{
	host_stack_deregister(ks->vg_id);
	if (!ks->base)
		return; /* never made (a task that failed to start) */
	if (kstack_pooled < KSTACK_POOL)
		kstack_pool[kstack_pooled++] = ks->base;
	else
		host_stack_free(ks->base, ks->size);
	ks->base = NULL;
}

static void switch_to(struct kstack *from, struct kstack *to)
{
	sched_stretch++;
#if defined(__SANITIZE_ADDRESS__)
	__sanitizer_start_switch_fiber(&from->fake_stack, to->base, to->size);
	kswitch(&from->sp, &to->sp);
	__sanitizer_finish_switch_fiber(from->fake_stack, NULL, NULL);
#else
	kswitch(&from->sp, &to->sp);
#endif
}

void sched_add(struct task *t)
{
	/* From sleep, or new: the tasks that run are one more (a task back
	 * from guest code was one of them). */
	if (t->state != TASK_USER)
		loadavg_update(sched_now_ns(), 0);
	t->state = TASK_RUNNABLE;
	list_add_tail(&t->run_link, &runqueue);
}

void sched_wake(struct task *t)
{
	if (t->state == TASK_SLEEPING || t->state == TASK_USER)
		sched_add(t);
}

/* Sync wakeups waiting for their waker (runnable, on this list instead of
 * the run queue). */
static LIST_HEAD_DECL(deferred);
#define DEFER_NS 1000000

void sched_wake_sync(struct task *t)
{
	if (t->state != TASK_SLEEPING || !current || current == t || !cpus_shared() ||
	    cpus_spilled(current)) {
		sched_wake(t);
		return;
	}
	loadavg_update(sched_now_ns(), 0);
	t->state = TASK_RUNNABLE;
	t->defer_waker = current;
	t->defer_until_ns = sched_now_ns() + DEFER_NS;
	list_add_tail(&t->run_link, &deferred);
}

/* Puts the wakeups of waker (NULL: none) and those past their time on the
 * run queue; returns ns until the next one is due, or -1. */
static int64_t release_deferred(const struct task *waker)
{
	struct task *t, *n;
	int64_t now, next = -1;

	if (list_empty(&deferred))
		return -1;
	now = sched_now_ns();
	list_for_each_entry_safe(t, n, &deferred, run_link)
	{
		if (t->defer_waker == waker || t->defer_until_ns <= now) {
			t->defer_waker = NULL;
			list_del(&t->run_link);
			list_add_tail(&t->run_link, &runqueue);
		} else if (next < 0 || t->defer_until_ns - now < next) {
			next = t->defer_until_ns - now;
		}
	}
	return next;
}

void schedule(void)
{
	struct task *t = current;

	/* Blocking or dying (not back to guest code): its wakeups go, and
	 * the tasks that run are one fewer (it ran until now). */
	if (t->state != TASK_USER && t->state != TASK_RUNNABLE) {
		loadavg_update(sched_now_ns(), 1);
		release_deferred(t);
	}
	if (t->state == TASK_SLEEPING) { /* a voluntary switch (Linux's nvcsw) */
		t->nvcsw++;
		cputime_ctxt++;
	}
	switch_to(&t->kstack, &sched_stack);
}

int64_t sched_now_ns(void)
{
	return host_clock_ns(LINUX_CLOCK_MONOTONIC);
}

void waitq_init(struct waitq *wq)
{
	list_init(&wq->waiters);
}

void waitq_sleep(struct waitq *wq)
{
	struct waiter w = { .task = current, .func = NULL };

	list_add_tail(&w.link, &wq->waiters);
	current->state = TASK_SLEEPING;
	schedule();
	list_del(&w.link);
}

/* Linux's __wake_up_common: nr_exclusive exclusive waiters that woke
 * something end it (0: none does); sync: sched_wake_sync for tasks. */
static void wake_common(struct waitq *wq, unsigned key, int nr_exclusive, bool sync)
{
	struct waiter *w, *tmp;
	bool exclusive_done = false;

	list_for_each_entry_safe(w, tmp, &wq->waiters, link)
	{
		bool exclusive = w->exclusive;
		int woke;

		if (exclusive && exclusive_done)
			continue;
		if (w->func) {
			woke = w->func(w, key);
		} else {
			woke = w->task->state == TASK_SLEEPING;
			if (sync)
				sched_wake_sync(w->task);
			else
				sched_wake(w->task);
		}
		if (woke && exclusive && nr_exclusive && !--nr_exclusive)
			exclusive_done = true;
	}
}

void waitq_wake(struct waitq *wq, unsigned key)
{
	wake_common(wq, key, 1, false);
}

void waitq_wake_sync(struct waitq *wq, unsigned key)
{
	wake_common(wq, key, 1, true);
}

void waitq_wake_all(struct waitq *wq)
{
	wake_common(wq, 0, 0, false);
}

void waitq_release(struct waitq *wq)
{
	while (!list_empty(&wq->waiters)) {
		struct waiter *w = list_first_entry(&wq->waiters, struct waiter, link);

		if (w->func)
			w->func(w, WAKE_FREE);
		else
			sched_wake(w->task);
		list_del(&w->link);
	}
}

void ktimer_arm(struct ktimer *tm, int64_t deadline_ns, void (*fn)(void *), void *arg)
{
	struct ktimer *pos;

	if (tm->armed)
		ktimer_cancel(tm);
	tm->deadline_ns = deadline_ns;
	tm->fn = fn;
	tm->arg = arg;
	tm->armed = true;
	/* Sorted by deadline, equal ones in the order armed; looked for from
	 * the end, where a new deadline mostly goes. */
	list_for_each_entry_reverse(pos, &timers, link)
	{
		if (pos->deadline_ns <= deadline_ns) {
			list_add(&tm->link, &pos->link);
			return;
		}
	}
	list_add(&tm->link, &timers);
}

void ktimer_cancel(struct ktimer *tm)
{
	if (tm->armed) {
		list_del(&tm->link);
		tm->armed = false;
	}
}

static void wake_task_cb(void *arg)
{
	sched_wake(arg);
}

void sched_sleep_until(int64_t deadline_ns)
{
	struct ktimer tm = { .armed = false };

	ktimer_arm(&tm, deadline_ns, wake_task_cb, current);
	current->state = TASK_SLEEPING;
	schedule();
	ktimer_cancel(&tm);
}

/* Runs the timers due when it starts; returns ns until the next one (0:
 * due already), or -1. One look at the clock: a timer that its callback
 * arms again, due before the pass ends (a guest's many periodic timers
 * of 1 us), waits for the next pass, after the tasks have run. */
static int64_t run_timers(void)
{
	int64_t now = sched_now_ns(), left;

	while (!list_empty(&timers)) {
		struct ktimer *tm = list_first_entry(&timers, struct ktimer, link);

		if (tm->deadline_ns > now) {
			left = tm->deadline_ns - sched_now_ns();
			return left > 0 ? left : 0;
		}
		ktimer_cancel(tm);
		tm->fn(tm->arg);
	}
	return -1;
}

/* The platform hands each trap to its task, which becomes runnable. */
static void platform_event(void *owner, const struct pf_event *ev)
{
	struct task *t = owner;

	/* A stub lost under a task that waits in the kernel (a read of the
	 * console, a wait4): the wait must end, or nothing ever wakes it. */
	if (ev->kind == PF_EV_GONE && t->state == TASK_SLEEPING)
		process_kill(t->proc, LINUX_SIGKILL);
	t->ev = *ev;
	sched_wake(t);
}

/* Host signals to skas since the last look go to the guest. */
static bool host_signals(void)
{
	uint64_t sigs = host_signals_take();

	while (sigs) {
		int sig = __builtin_ctzll(sigs) + 1;

		sigs &= sigs - 1;
		signal_from_host(sig);
	}
	return !list_empty(&runqueue);
}

static int64_t last_look_ns; /* the idle loop's last look at timers and host fds */

/* Whether the idle loop looks for traps before it waits: worth it while
 * the look finds some (seccomp's synchronous wakeups: the answered thread
 * has trapped again before the kernel idles). Where it finds none (ptrace:
 * kernel and stubs share one CPU, the thread just resumed has not run yet)
 * it is a host call per trap for nothing: from the third miss in a row the
 * loop skips looks, 1, 2, 4 ... up to 32 passes between two. */
static unsigned poll_misses;	  /* looks in a row that found nothing (up to 8) */
static unsigned poll_skip_passes; /* passes to go before the next look */

static bool poll_first(void)
{
	if (poll_skip_passes == 0)
		return true;
	poll_skip_passes--;
	return false;
}

static void poll_first_found(int n)
{
	if (n > 0) {
		poll_misses = 0;
		return;
	}
	if (poll_misses < 8)
		poll_misses++;
	if (poll_misses >= 3)
		poll_skip_passes = 1u << (poll_misses - 3);
}

static void idle_wait(void)
{
	int64_t timeout_ns, due_ns;

	if (host_signals())
		return;
	/* Nothing but traps to wait for (no timer, no deferred wakeup, no
	 * host fd): the platform's wait, which returns at once if a trap is
	 * pending; a look first would save nothing. */
	if (list_empty(&timers) && list_empty(&deferred) && !host_evloop_busy()) {
		platform->wait(platform_event);
		return;
	}
	if (platform->spin || poll_first()) {
		int n = platform->poll(platform_event);

		poll_first_found(n);
		if (n > 0) {
			/* Busy with traps: still look at timers and host fds
			 * (the console's ^C) every millisecond, without
			 * waiting. */
			int64_t now = sched_now_ns();

			if (now - last_look_ns < 1000000)
				return;
			last_look_ns = now;
			run_timers();
			release_deferred(NULL);
			/* A SIGCHLD this takes is reaped here: the next
			 * pass may wait without a look first. */
			if (host_evloop_busy() && host_evloop_wait(0) > 0)
				platform->poll(platform_event);
			return;
		}
	}
	last_look_ns = sched_now_ns();
	timeout_ns = run_timers();
	due_ns = release_deferred(NULL);
	if (!list_empty(&runqueue))
		return;
	if (due_ns >= 0 && (timeout_ns < 0 || due_ns < timeout_ns))
		timeout_ns = due_ns;
	if (timeout_ns < 0 && !host_evloop_busy()) {
		platform->wait(platform_event);
		return;
	}
	if (timeout_ns != 0 && platform->spin && platform->spin(platform_event, &timeout_ns) > 0)
		return;
	/* Only traps and a time: one wait, not the event loop's and a look. */
	if (platform->wait_for && !host_evloop_busy()) {
		platform->wait_for(platform_event, timeout_ns);
		run_timers();
		return;
	}
	host_evloop_wait(timeout_ns);
	platform->poll(platform_event);
	run_timers();
}

void sched_run(void)
{
	for (;;) {
		while (!list_empty(&runqueue)) {
			struct task *t = list_first_entry(&runqueue, struct task, run_link);

			list_del(&t->run_link);
			t->state = TASK_RUNNING;
			current = t;
			switch_to(&sched_stack, &t->kstack);
			current = NULL;
			if (t->state == TASK_DEAD)
				task_free(t);
		}
		if (task_count() == 0)
			return;
		idle_wait();
	}
}
