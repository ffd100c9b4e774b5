/* kernel/futex_pi.c: the priority-inheritance futexes, as Linux's
 * kernel/futex/pi.c and requeue.c: FUTEX_LOCK_PI, LOCK_PI2, TRYLOCK_PI,
 * UNLOCK_PI, WAIT_REQUEUE_PI and CMP_REQUEUE_PI, and an owner's exit.
 * The word holds the owner's TID, FUTEX_WAITERS once the kernel may hold
 * waiters, FUTEX_OWNER_DIED once an owner died holding it; the guest's
 * threads run meanwhile, so the kernel changes it only by cmpxchg. A
 * contended futex has a struct futex_pi (Linux's pi_state) while it has
 * waiters: its owner, and its waiters in the order they get the lock.
 * Priority inheritance proper (boosting the owner to its top waiter's
 * priority) is bookkeeping for Linux's scheduler; the host schedules the
 * guest's threads here, so nothing is boosted: only the order follows
 * Linux's rt_mutex (deadline, then real-time priority, then arrival). */

#include <stdlib.h>

#include "kernel/futex.h"
#include "kernel/futex_internal.h"
#include "kernel/pidns.h"
#include "kernel/sched.h"
#include "kernel/task.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"

#define TID_MASK   LINUX_FUTEX_TID_MASK
#define WAITERS	   LINUX_FUTEX_WAITERS
#define OWNER_DIED LINUX_FUTEX_OWNER_DIED

#define MAX_LOCK_DEPTH 1024 /* Linux's max_lock_depth: a longer chain is EDEADLK */

struct futex_pi {
	struct list_head link; /* on pis */
	struct futex_key key;
	/* Who holds the lock. Never NULL: a dying owner hands it to the top
	 * waiter at once (Linux leaves it NULL until that waiter runs). */
	struct task *owner;
	struct list_head waiters; /* futex_waiter.link, the next owner first */
};

static LIST_HEAD_DECL(pis);

static struct futex_pi *pi_find(const struct futex_key *key)
{
	struct futex_pi *pi;

	list_for_each_entry(pi, &pis, link) if (futex_key_eq(&pi->key, key)) return pi;
	return NULL;
}

bool futex_pi_busy(const struct futex_key *key)
{
	return pi_find(key) != NULL;
}

/* A plain futex waiter (or a FUTEX_WAIT_REQUEUE_PI one not requeued yet)
 * queued at key: a PI operation there is EINVAL, as on Linux. */
static struct futex_waiter *plain_waiter(const struct futex_key *key)
{
	struct futex_waiter *w;

	list_for_each_entry(w, &futex_waiters, link)
	{
		if (futex_key_eq(&w->key, key) && !w->woken)
			return w;
	}
	return NULL;
}

static struct futex_pi *pi_new(const struct futex_key *key, struct task *owner)
{
	struct futex_pi *pi = calloc(1, sizeof(*pi));

	if (!pi)
		return NULL;
	pi->key = *key;
	pi->owner = owner;
	list_init(&pi->waiters);
	list_add(&pi->link, &pis);
	return pi;
}

/* A state lives while it has waiters (Linux's refcount). */
static void pi_put_if_empty(struct futex_pi *pi)
{
	if (pi && list_empty(&pi->waiters)) {
		list_del(&pi->link);
		free(pi);
	}
}

/* The PI futex task waits to own (Linux's pi_blocked_on), or NULL. */
static struct futex_pi *blocked_on(const struct task *task)
{
	struct futex_waiter *w;
	struct futex_pi *pi;

	list_for_each_entry(pi, &pis, link)
	{
		list_for_each_entry(w, &pi->waiters, link) if (w->task == task) return pi;
	}
	return NULL;
}

/* Linux's rt_mutex chain walk for a new waiter task on pi: -EDEADLK if
 * the owners, each waiting on the next lock, come back to task. */
static int pi_chain_check(struct futex_pi *pi, const struct task *task)
{
	int depth = 0;

	for (; pi; pi = blocked_on(pi->owner)) {
		if (pi->owner == task || ++depth > MAX_LOCK_DEPTH)
			return -EDEADLK;
	}
	return 0;
}

/* Its place among the waiters (Linux's rt_mutex waiter order; every
 * fair-policy task ranks the same, DEFAULT_PRIO). */
static unsigned waiter_rank(const struct task *task)
{
	if (task->sched_policy == SCHED_POLICY_DEADLINE)
		return 100;
	if (task->sched_policy == SCHED_POLICY_FIFO || task->sched_policy == SCHED_POLICY_RR)
		return task->sched_rt_priority;
	return 0;
}

/* Queues w to own pi, after every waiter of its rank or above. */
static int pi_enqueue(struct futex_pi *pi, struct futex_waiter *w)
{
	unsigned rank = waiter_rank(w->task);
	struct futex_waiter *o;
	struct list_head *at = &pi->waiters;

	if (pi_chain_check(pi, w->task) < 0)
		return -EDEADLK;
	list_for_each_entry(o, &pi->waiters, link)
	{
		if (waiter_rank(o->task) < rank) {
			at = &o->link;
			break;
		}
	}
	list_add_tail(&w->link, at); /* before at */
	w->pi = pi;
	return 0;
}

/* w leaves pi's queue without the lock (a timeout, a signal). */
static void pi_leave(struct futex_waiter *w)
{
	struct futex_pi *pi = w->pi;

	list_del(&w->link);
	w->pi = NULL;
	pi_put_if_empty(pi);
}

/* The lock goes to w, pi's top waiter; the word says so already. */
static void pi_handoff(struct futex_pi *pi, struct futex_waiter *w)
{
	pi->owner = w->task;
	w->acquired = true;
	pi_leave(w);
	sched_wake(w->task);
}

/* Linux retries a word that changed under it after a cond_resched; here
 * one kernel thread runs every task, and a guest thread rewriting the word
 * without pause must not hold it there. Every RETRY_BURST tries the caller
 * sleeps RETRY_PAUSE_NS (other tasks and the host's events run), and a
 * signal restarts the call (nothing has changed yet). 0: try again. */
#define RETRY_BURST    4
#define RETRY_PAUSE_NS 100000

static int pi_retry(struct task *t, int *tries)
{
	if (++*tries % RETRY_BURST)
		return 0;
	sched_sleep_until(sched_now_ns() + RETRY_PAUSE_NS);
	return signal_pending(t) ? -ERESTARTNOINTR : 0;
}

/* The word goes from uval to newval: 0, -EAGAIN if it was not uval any
 * more (the caller starts over), -EFAULT. Linux's lock_pi_update_atomic. */
static int word_update(struct mm *mm, uaddr_t addr, uint32_t uval, uint32_t newval)
{
	uint32_t cur;
	int ret = cmpxchg_user32(mm, addr, uval, newval, &cur);

	if (ret < 0)
		return ret;
	return cur == uval ? 0 : -EAGAIN;
}

/* A waiter's look at an existing state (Linux's attach_to_pi_state): the
 * word must name its owner, or be ownerless with OWNER_DIED set. */
static int attach_to_pi(struct task *t, uint32_t uval, struct futex_pi *pi)
{
	uint32_t pid = uval & TID_MASK;

	if ((uval & OWNER_DIED) && !pid)
		return 0;
	return pid == (uint32_t)pid_vnr(t, pi->owner->tid) ? 0 : -EINVAL;
}

/* The first waiter: a state for the owner the word names (Linux's
 * attach_to_pi_owner). A TID that names no thread, or one that is gone
 * (its futexes let go), is ESRCH, unless the word changed meanwhile (a
 * dying owner's robust list set OWNER_DIED): then start over. */
static int attach_to_owner(struct task *t, uaddr_t addr, uint32_t uval, const struct futex_key *key,
			   struct futex_pi **pip)
{
	struct task *owner = task_by_vtid(t, (int)(uval & TID_MASK));
	uint32_t now;

	if (!owner || owner->futex_exited) {
		if (copy_from_user(t->mm, &now, addr, sizeof(now)) < 0)
			return -EFAULT;
		return now != uval ? -EAGAIN : -ESRCH;
	}
	*pip = pi_new(key, owner);
	return *pip ? 0 : -ENOMEM;
}

/* Linux's futex_lock_pi_atomic, for task (t itself, or the waiter a
 * requeue takes the lock for), TIDs as t sees them. 1: task owns the
 * futex (a state made for it if set_waiters); 0: *pip is the state to
 * wait on; -EAGAIN: the word changed, start over; else -errno. */
static int lock_pi_atomic(struct task *t, uaddr_t addr, const struct futex_key *key,
			  struct task *task, bool set_waiters, struct futex_pi **pip)
{
	uint32_t uval, newval, vpid = (uint32_t)pid_vnr(t, task->tid);
	struct futex_pi *pi;
	int ret;

	*pip = NULL;
	if (copy_from_user(t->mm, &uval, addr, sizeof(uval)) < 0)
		return -EFAULT;
	if ((uval & TID_MASK) == vpid)
		return -EDEADLK;
	pi = pi_find(key);
	if (pi) {
		ret = attach_to_pi(t, uval, pi);
		*pip = ret == 0 ? pi : NULL;
		return ret;
	}
	if (plain_waiter(key))
		return -EINVAL; /* PI and plain futex ops mixed on one word */
	if (!(uval & TID_MASK)) {
		/* No owner: taken, OWNER_DIED kept (the new owner sees it) */
		newval = (uval & OWNER_DIED) | vpid | (set_waiters ? WAITERS : 0);
		ret = word_update(t->mm, addr, uval, newval);
		if (ret < 0)
			return ret;
		if (set_waiters && !(*pip = pi_new(key, task)))
			return -ENOMEM;
		return 1;
	}
	/* The first waiter: FUTEX_WAITERS first, so the owner's unlock comes
	 * to the kernel; it stays set even if the owner turns out gone. */
	ret = word_update(t->mm, addr, uval, uval | WAITERS);
	if (ret < 0)
		return ret;
	return attach_to_owner(t, addr, uval | WAITERS, key, pip);
}

/* w (t's) waits until the lock is its own, its deadline (monotonic ns,
 * or -1), or a signal; the caller takes it off its queue if not. */
static void pi_wait(struct task *t, struct futex_waiter *w, int64_t deadline_ns)
{
	struct ktimer tm = { .armed = false };

	if (deadline_ns >= 0 && deadline_ns <= sched_now_ns())
		w->timed_out = true;
	else if (deadline_ns >= 0)
		ktimer_arm(&tm, deadline_ns, futex_timeout, w);
	while (!w->acquired && !w->timed_out && !signal_pending(t)) {
		t->state = TASK_SLEEPING;
		schedule();
	}
	ktimer_cancel(&tm);
}

long futex_lock_pi(struct task *t, uaddr_t addr, bool private, int64_t deadline_ns, bool trylock)
{
	struct futex_waiter w = { .bitset = LINUX_FUTEX_BITSET_MATCH_ANY, .task = t };
	struct futex_pi *pi;
	int tries = 0;
	long ret;

	if (futex_get_key(t->mm, addr, private, &w.key) < 0)
		return -EFAULT;
	while ((ret = lock_pi_atomic(t, addr, &w.key, t, false, &pi)) == -EAGAIN)
		if (pi_retry(t, &tries) < 0)
			return -ERESTARTNOINTR;
	if (ret != 0)
		return ret == 1 ? 0 : ret;
	/* Linux's trylock takes the lock only from an owner that let it go
	 * in the kernel; here the state always has one. */
	if (trylock) {
		pi_put_if_empty(pi);
		return -EWOULDBLOCK;
	}
	w.pi_addr = addr;
	ret = pi_enqueue(pi, &w);
	if (ret < 0) {
		pi_put_if_empty(pi);
		return ret;
	}
	pi_wait(t, &w, deadline_ns);
	if (w.acquired)
		return 0; /* even if the deadline passed meanwhile, as Linux */
	pi_leave(&w);
	/* a signal: the same call again (its deadline is absolute) */
	return w.timed_out ? -ETIMEDOUT : -ERESTARTNOINTR;
}

long futex_unlock_pi(struct task *t, uaddr_t addr, bool private)
{
	uint32_t uval, cur, vpid = (uint32_t)pid_vnr(t, t->tid);
	struct futex_waiter *top;
	struct futex_key key;
	struct futex_pi *pi;
	int ret, tries = 0;

	for (;;) {
		if (copy_from_user(t->mm, &uval, addr, sizeof(uval)) < 0)
			return -EFAULT;
		if ((uval & TID_MASK) != vpid)
			return -EPERM; /* only its owner unlocks a futex */
		if (futex_get_key(t->mm, addr, private, &key) < 0)
			return -EFAULT;
		pi = pi_find(&key);
		if (!pi && plain_waiter(&key))
			return -EINVAL;
		if (!pi) {
			/* No waiters: free, neither bit kept. A word changed
			 * under us is the guest's to sort out. */
			ret = cmpxchg_user32(t->mm, addr, uval, 0, &cur);
			if (ret == -EAGAIN)
				goto again;
			if (ret < 0)
				return ret;
			return cur == uval ? 0 : -EAGAIN;
		}
		if (pi->owner != t)
			return -EINVAL; /* the word was forged */
		/* To the top waiter, FUTEX_WAITERS kept while a state is
		 * around (its unlock comes here to find the rest or none). */
		top = list_first_entry(&pi->waiters, struct futex_waiter, link);
		ret = cmpxchg_user32(t->mm, addr, uval,
				     WAITERS | (uint32_t)pid_vnr(t, top->task->tid), &cur);
		if (ret == -EAGAIN)
			goto again;
		if (ret < 0)
			return ret;
		if (cur != uval) {
			/* a waiter set FUTEX_WAITERS after we read it: again */
			if ((cur & TID_MASK) == uval)
				goto again;
			return -EINVAL;
		}
		pi_handoff(pi, top);
		return 0;
again:
		if (pi_retry(t, &tries) < 0)
			return -ERESTARTNOINTR;
	}
}

/* t is gone (exit) or lets go of its memory (exec): each PI futex it
 * holds with waiters goes to the top one, as Linux's exit_pi_state_list
 * and the fixup the new owner makes. Its word: the new owner's TID with
 * FUTEX_WAITERS and FUTEX_OWNER_DIED, whether or not a robust list said
 * so first. The new owner is asleep, so its memory is there to write. */
void futex_pi_release(struct task *t, bool exiting)
{
	struct futex_pi *pi, *next;
	struct futex_waiter *top;
	uint32_t uval, cur, tid;
	int tries, ret;

	list_for_each_entry_safe(pi, next, &pis, link)
	{
		if (pi->owner != t)
			continue;
		top = list_first_entry(&pi->waiters, struct futex_waiter, link);
		tid = (uint32_t)pid_vnr(top->task, top->task->tid) | WAITERS | OWNER_DIED;
		for (tries = 0; tries < 16; tries++) {
			if (copy_from_user(top->task->mm, &uval, top->pi_addr, sizeof(uval)) < 0)
				break;
			ret = cmpxchg_user32(top->task->mm, top->pi_addr, uval, tid, &cur);
			if (ret == -EFAULT || (ret == 0 && cur == uval))
				break;
		}
		pi_handoff(pi, top);
	}
	if (exiting)
		t->futex_exited = true;
}

long futex_wait_requeue_pi(struct task *t, uaddr_t addr, bool private, uint32_t val,
			   int64_t deadline_ns, uaddr_t addr2)
{
	struct futex_waiter w = {
		.bitset = LINUX_FUTEX_BITSET_MATCH_ANY,
		.task = t,
		.requeue_pi = true,
		.pi_addr = addr2,
	};
	uint32_t cur;

	if (addr == addr2 || (addr2 & 3))
		return -EINVAL;
	if (futex_get_key(t->mm, addr2, private, &w.key2) < 0 ||
	    futex_get_key(t->mm, addr, private, &w.key) < 0)
		return -EFAULT;
	if (copy_from_user(t->mm, &cur, addr, sizeof(cur)) < 0)
		return -EFAULT;
	if (cur != val)
		return -EWOULDBLOCK;
	if (futex_key_eq(&w.key, &w.key2))
		return -EINVAL; /* one shared futex by two addresses */
	/* On the plain futex until FUTEX_CMP_REQUEUE_PI takes the lock for
	 * it or moves it to the PI futex's waiters (w.pi set). */
	list_add_tail(&w.link, &futex_waiters);
	pi_wait(t, &w, deadline_ns);
	if (w.acquired)
		return 0;
	if (w.pi) {
		/* requeued: a signal is EWOULDBLOCK, as Linux (a restart
		 * would find the value changed) */
		pi_leave(&w);
		return w.timed_out ? -ETIMEDOUT : -EWOULDBLOCK;
	}
	list_del(&w.link);
	return w.timed_out ? -ETIMEDOUT : -ERESTARTNOINTR;
}

long futex_cmp_requeue_pi(struct task *t, uaddr_t addr, uaddr_t addr2, bool private, int nwake,
			  int nreq, uint32_t cmpval)
{
	struct futex_waiter *w, *next, *top;
	struct futex_key key1, key2;
	struct futex_pi *pi = NULL;
	uint32_t cur;
	long count = 0;
	int ret, tries = 0;

	if (nwake < 0 || nreq < 0 || addr == addr2 || nwake != 1 || (addr2 & 3))
		return -EINVAL;
	if (futex_get_key(t->mm, addr, private, &key1) < 0 ||
	    futex_get_key(t->mm, addr2, private, &key2) < 0)
		return -EFAULT;
	if (futex_key_eq(&key1, &key2))
		return -EINVAL;
	do {
		if (copy_from_user(t->mm, &cur, addr, sizeof(cur)) < 0)
			return -EFAULT;
		if (cur != cmpval)
			return -EAGAIN;
		/* The top waiter takes the PI futex if it is free (Linux's
		 * futex_proxy_trylock_atomic); FUTEX_WAITERS forced if more
		 * are to follow. */
		top = plain_waiter(&key1);
		if (!top)
			return 0;
		if (!top->requeue_pi || !futex_key_eq(&top->key2, &key2))
			return -EINVAL;
		ret = lock_pi_atomic(t, addr2, &key2, top->task, nreq > 0, &pi);
	} while (ret == -EAGAIN && pi_retry(t, &tries) == 0);
	if (ret == -EAGAIN)
		return -ERESTARTNOINTR;
	if (ret < 0)
		return ret;
	if (ret == 1) {
		list_del(&top->link);
		top->acquired = true;
		sched_wake(top->task);
		count = 1;
	}
	/* The rest (or all, the top one too, if the futex was not free) go
	 * to the PI futex's waiters: nreq of them, one more if none woke. */
	ret = 0;
	list_for_each_entry_safe(w, next, &futex_waiters, link)
	{
		if (count - nwake >= nreq || !pi)
			break;
		if (!futex_key_eq(&w->key, &key1) || w->woken)
			continue;
		if (!w->requeue_pi || !futex_key_eq(&w->key2, &key2)) {
			ret = -EINVAL;
			break;
		}
		if (pi_chain_check(pi, w->task) < 0) {
			ret = -EDEADLK; /* it stays on the plain futex */
			break;
		}
		list_del(&w->link);
		w->key = key2;
		pi_enqueue(pi, w);
		count++;
	}
	pi_put_if_empty(pi);
	return ret < 0 ? ret : count;
}
