/* kernel/futex.c: futex wait and wake. A waiter sleeps on its kernel stack
 * under a key, as Linux keys futexes: a private futex (FUTEX_PRIVATE_FLAG,
 * or any futex in private memory) by (address space, address); a shared
 * one in a MAP_SHARED file mapping by (device, inode, file offset), and in
 * a shared anonymous mapping by (the mapping's identity, offset), which
 * fork keeps, so waiters in different processes meet.
 * The PI operations are in futex_pi.c. futex_waitv (Linux
 * 5.16) waits on up to 128 futexes at once, and futex_wake, futex_wait and
 * futex_requeue (Linux 6.7) are the same operations with futex2's flags.
 * Partial: futex2's FUTEX2_NUMA and FUTEX2_MPOL are EINVAL. */

#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "kernel/timens.h"
#include "kernel/log.h"
#include "mm/usercopy.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"
#include "abi/linux/types.h"
#include "kernel/futex.h"
#include "kernel/futex_internal.h"
#include "vfs/file.h"
#include "vfs/vfs.h"

#define ANON_DEV UINT64_MAX	  /* shared anonymous memory */
#define FILE_DEV (UINT64_MAX - 1) /* a file with no inode: its pages' host fd */

LIST_HEAD_DECL(futex_waiters);

bool futex_key_eq(const struct futex_key *a, const struct futex_key *b)
{
	return a->mm == b->mm && a->dev == b->dev && a->ino == b->ino && a->off == b->off;
}

/* A shared futex needs its mapping, as on Linux; a private one does not. */
int futex_get_key(struct mm *mm, uaddr_t addr, bool private, struct futex_key *key)
{
	struct vma *v;

	*key = (struct futex_key){ .mm = mm, .off = addr };
	if (addr > TASK_SIZE - sizeof(uint32_t))
		return -EFAULT; /* Linux's access_ok */
	if (private)
		return 0;
	v = mm_find_vma(mm, addr);
	if (!v || v->start > addr)
		return -EFAULT;
	if (!(v->flags & VMA_SHARED))
		return 0;
	key->mm = NULL;
	key->off = v->off + (addr - v->start);
	if (v->anon_id) {
		key->dev = ANON_DEV;
		key->ino = v->anon_id;
	} else if (v->file && v->file->inode) {
		key->dev = v->file->inode->dev;
		key->ino = v->file->inode->ino;
	} else {
		/* No inode (a SysV shm segment): the host fd of its pages
		 * names them, whichever file maps them. */
		int fd = v->file && v->file->ops->mmap_fd ? v->file->ops->mmap_fd(v->file) : -1;

		key->dev = FILE_DEV;
		key->ino = fd >= 0 ? (uint64_t)fd : (uint64_t)(uintptr_t)v->file;
	}
	return 0;
}

void futex_timeout(void *arg)
{
	struct futex_waiter *w = arg;

	w->timed_out = true;
	sched_wake(w->task);
}

static long futex_wait_restart(struct task *t);

/* deadline_ns: monotonic, or -1 for none. A timed wait interrupted with
 * no handler run goes on to the same end (Linux's futex_wait_restart);
 * an untimed one is ERESTARTSYS. */
static long futex_wait(struct task *t, uaddr_t addr, bool private, uint32_t val,
		       int64_t deadline_ns, uint32_t bitset)
{
	struct futex_waiter w = { .bitset = bitset, .task = t };
	struct ktimer tm = { .armed = false };
	uint32_t cur;

	if (futex_get_key(t->mm, addr, private, &w.key) < 0)
		return -EFAULT;
	if (copy_from_user(t->mm, &cur, addr, sizeof(cur)) < 0)
		return -EFAULT;
	if (cur != val)
		return -EAGAIN;
	if (deadline_ns >= 0 && deadline_ns <= sched_now_ns())
		return -ETIMEDOUT;
	list_add_tail(&w.link, &futex_waiters);
	if (deadline_ns >= 0)
		ktimer_arm(&tm, deadline_ns, futex_timeout, &w);
	while (!w.woken && !w.timed_out && !signal_pending(t)) {
		t->state = TASK_SLEEPING;
		schedule();
	}
	ktimer_cancel(&tm);
	list_del(&w.link);
	if (w.woken)
		return 0;
	if (w.timed_out)
		return -ETIMEDOUT;
	if (deadline_ns < 0)
		return -ERESTARTSYS;
	t->restart_fn = futex_wait_restart;
	t->restart_urem = addr;
	t->restart_deadline = deadline_ns;
	t->restart_args[0] = val | (uint64_t) private << 32;
	t->restart_args[1] = bitset;
	return -ERESTART_RESTARTBLOCK;
}

static long futex_wait_restart(struct task *t)
{
	return futex_wait(t, t->restart_urem, (t->restart_args[0] >> 32) & 1,
			  (uint32_t)t->restart_args[0], t->restart_deadline,
			  (uint32_t)t->restart_args[1]);
}

/* One waiter wakes even when n is 0 or negative, as Linux's FUTEX_WAKE;
 * strict (futex2's): none for 0. */
static long futex_wake_n(struct mm *mm, uaddr_t addr, bool private, int n, uint32_t bitset,
			 bool strict)
{
	struct futex_waiter *w;
	struct futex_key key;
	long woken = 0;

	if (futex_get_key(mm, addr, private, &key) < 0)
		return -EFAULT;
	if (strict && n == 0)
		return 0;
	/* As Linux: a PI futex's waiters, or FUTEX_WAIT_REQUEUE_PI's, are
	 * not a plain wake's to wake. */
	if (futex_pi_busy(&key))
		return -EINVAL;
	list_for_each_entry(w, &futex_waiters, link)
	{
		if (!futex_key_eq(&w->key, &key) || w->woken || !(w->bitset & bitset))
			continue;
		if (w->requeue_pi)
			return -EINVAL;
		w->woken = true;
		sched_wake(w->task);
		if (++woken >= n)
			break;
	}
	return woken;
}

static long futex_wake(struct mm *mm, uaddr_t addr, bool private, int n, uint32_t bitset)
{
	return futex_wake_n(mm, addr, private, n, bitset, false);
}

long futex_wake_addr(struct mm *mm, uaddr_t addr, int n)
{
	return futex_wake(mm, addr, false, n, LINUX_FUTEX_BITSET_MATCH_ANY);
}

/* Moves up to n waiters from addr to addr2 after waking nwake. */
static long futex_requeue(struct mm *mm, uaddr_t addr, bool private, uaddr_t addr2, bool private2,
			  int nwake, int nreq)
{
	struct futex_waiter *w;
	struct futex_key key, key2;
	long done = 0;
	int moved = 0;

	if (futex_get_key(mm, addr, private, &key) < 0 ||
	    futex_get_key(mm, addr2, private2, &key2) < 0)
		return -EFAULT;
	list_for_each_entry(w, &futex_waiters, link)
	{
		if (!futex_key_eq(&w->key, &key) || w->woken)
			continue;
		if (w->requeue_pi)
			return -EINVAL; /* FUTEX_CMP_REQUEUE_PI's to move */
		if (done < nwake) {
			w->woken = true;
			sched_wake(w->task);
			done++;
		} else if (moved < nreq) {
			w->key = key2;
			moved++;
		} else {
			break;
		}
	}
	return done + moved;
}

/* FUTEX_WAKE_OP: *addr2 = op(*addr2, oparg); wake on addr; maybe on addr2.
 * The stub does the operation in place, atomically as on Linux: guest
 * threads and other processes sharing the page run meanwhile. */
static long futex_wake_op(struct task *t, uaddr_t addr, uaddr_t addr2, bool private, int nwake,
			  int nwake2, uint32_t encoded)
{
	int op = (encoded >> 28) & 7, cmp = (encoded >> 24) & 15;
	int32_t oparg = (int32_t)(encoded << 8) >> 20, cmparg = (int32_t)(encoded << 20) >> 20;
	int32_t old;
	struct futex_key key;
	uint32_t cur;
	long ret;
	bool hit;

	/* As Linux: both keys first (a shared futex needs its mapping), then
	 * a bad operation, before the word is touched. */
	ret = futex_get_key(t->mm, addr, private, &key);
	if (ret == 0)
		ret = futex_get_key(t->mm, addr2, private, &key);
	if (ret < 0)
		return ret;
	if (op > LINUX_FUTEX_OP_XOR)
		return -ENOSYS;
	if ((encoded >> 28) & 8)
		/* as Linux, which only logs a bad shift; unsigned, as 1 << 31
		 * overflows an int (UBSan under trinity) */
		oparg = (int32_t)(1U << (oparg & 31));
	/* As Linux: the operation is done before the comparison is looked at
	 * (a bad one is ENOSYS with *addr2 changed). */
	ret = futex_op_user32(t->mm, addr2, op, (uint32_t)oparg, &cur);
	if (ret < 0)
		return ret;
	old = (int32_t)cur;
	switch (cmp) {
	case 0:
		hit = old == cmparg;
		break;
	case 1:
		hit = old != cmparg;
		break;
	case 2:
		hit = old < cmparg;
		break;
	case 3:
		hit = old <= cmparg;
		break;
	case 4:
		hit = old > cmparg;
		break;
	case 5:
		hit = old >= cmparg;
		break;
	default:
		return -ENOSYS;
	}
	ret = futex_wake(t->mm, addr, private, nwake, LINUX_FUTEX_BITSET_MATCH_ANY);
	if (ret >= 0 && hit) {
		long ret2 = futex_wake(t->mm, addr2, private, nwake2, LINUX_FUTEX_BITSET_MATCH_ANY);

		ret = ret2 < 0 ? ret2 : ret + ret2;
	}
	return ret;
}

static int get_deadline(struct task *t, uaddr_t uts, bool absolute, bool realtime, int64_t *out)
{
	struct linux_timespec ts;
	int64_t ns;

	*out = -1;
	if (!uts)
		return 0;
	if (copy_from_user(t->mm, &ts, uts, sizeof(ts)) < 0)
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000)
		return -EINVAL;
	/* Past ~126 years, "forever" (the product would overflow: trinity). */
	ns = ts.tv_sec > 4000000000LL ? INT64_MAX / 4 : ts.tv_sec * 1000000000LL + ts.tv_nsec;
	if (!absolute)
		*out = sched_now_ns() + ns;
	else if (realtime)
		*out = sched_now_ns() + (ns - host_clock_ns(LINUX_CLOCK_REALTIME));
	else
		*out = timens_to_host(t, LINUX_CLOCK_MONOTONIC, ns);
	/* A deadline long past (before boot) has passed all the same: a
	 * negative one would mean none. */
	if (*out < 0)
		*out = 0;
	return 0;
}

long sys_futex(struct task *t, const struct sysargs *a)
{
	uaddr_t addr = sysarg_uaddr(a, 0), uts = sysarg_uaddr(a, 3);
	int op = sysarg_int(a, 1), cmd = op & LINUX_FUTEX_CMD_MASK;
	bool realtime = op & LINUX_FUTEX_CLOCK_REALTIME;
	bool private = op & LINUX_FUTEX_PRIVATE_FLAG;
	uint32_t val = sysarg_uint(a, 2), bitset = sysarg_uint(a, 5);
	int64_t deadline;
	int ret;

	/* As Linux: FUTEX_CLOCK_REALTIME only for the absolute waits that
	 * may choose their clock (FUTEX_LOCK_PI's is CLOCK_REALTIME always). */
	if (realtime && cmd != LINUX_FUTEX_WAIT_BITSET && cmd != LINUX_FUTEX_WAIT_REQUEUE_PI &&
	    cmd != LINUX_FUTEX_LOCK_PI2)
		return -ENOSYS;
	if (addr & 3)
		return -EINVAL;
	switch (cmd) {
	case LINUX_FUTEX_WAIT:
		bitset = LINUX_FUTEX_BITSET_MATCH_ANY;
		/* fallthrough */
	case LINUX_FUTEX_WAIT_BITSET:
		if (!bitset)
			return -EINVAL;
		ret = get_deadline(t, uts, cmd == LINUX_FUTEX_WAIT_BITSET, realtime, &deadline);
		if (ret < 0)
			return ret;
		return futex_wait(t, addr, private, val, deadline, bitset);
	case LINUX_FUTEX_WAKE:
		bitset = LINUX_FUTEX_BITSET_MATCH_ANY;
		/* fallthrough */
	case LINUX_FUTEX_WAKE_BITSET:
		if (!bitset)
			return -EINVAL;
		return futex_wake(t->mm, addr, private, (int)val, bitset);
	case LINUX_FUTEX_REQUEUE:
	case LINUX_FUTEX_CMP_REQUEUE: {
		uaddr_t addr2 = sysarg_uaddr(a, 4);
		int nreq = (int)uts; /* the timeout argument carries the count */
		uint32_t cur;

		if ((addr2 & 3) || (int)val < 0 || nreq < 0)
			return -EINVAL;
		if (cmd == LINUX_FUTEX_CMP_REQUEUE) {
			if (copy_from_user(t->mm, &cur, addr, sizeof(cur)) < 0)
				return -EFAULT;
			if (cur != sysarg_uint(a, 5))
				return -EAGAIN;
		}
		return futex_requeue(t->mm, addr, private, addr2, private, (int)val, nreq);
	}
	case LINUX_FUTEX_WAKE_OP: {
		uaddr_t addr2 = sysarg_uaddr(a, 4);

		if (addr2 & 3)
			return -EINVAL;
		return futex_wake_op(t, addr, addr2, private, (int)val, (int)uts,
				     sysarg_uint(a, 5));
	}
	case LINUX_FUTEX_LOCK_PI:
	case LINUX_FUTEX_LOCK_PI2:
		/* absolute: FUTEX_LOCK_PI's on CLOCK_REALTIME (and, as Linux,
		 * not moved by a time namespace), FUTEX_LOCK_PI2's on
		 * CLOCK_MONOTONIC unless FUTEX_CLOCK_REALTIME says otherwise */
		ret = get_deadline(t, uts, true, cmd == LINUX_FUTEX_LOCK_PI || realtime, &deadline);
		if (ret < 0)
			return ret;
		return futex_lock_pi(t, addr, private, deadline, false);
	case LINUX_FUTEX_TRYLOCK_PI:
		return futex_lock_pi(t, addr, private, -1, true); /* no timeout read */
	case LINUX_FUTEX_UNLOCK_PI:
		return futex_unlock_pi(t, addr, private);
	case LINUX_FUTEX_WAIT_REQUEUE_PI:
		ret = get_deadline(t, uts, true, realtime, &deadline);
		if (ret < 0)
			return ret;
		return futex_wait_requeue_pi(t, addr, private, val, deadline, sysarg_uaddr(a, 4));
	case LINUX_FUTEX_CMP_REQUEUE_PI:
		/* the timeout argument carries the count to requeue */
		return futex_cmp_requeue_pi(t, addr, sysarg_uaddr(a, 4), private, (int)val,
					    (int)uts, sysarg_uint(a, 5));
	default:
		klog_ratelimited(LOG_INFO, "futex op %d is not implemented: ENOSYS", cmd);
		return -ENOSYS;
	}
}

/* futex2 (Linux 5.16 and 6.7) */

#define FUTEX2_SIZE_MASK 0x03
#define FUTEX2_SIZE_U32	 0x02
#define FUTEX2_NUMA	 0x04
#define FUTEX2_MPOL	 0x08
#define FUTEX2_PRIVATE	 128
#define FUTEX2_VALID	 (FUTEX2_SIZE_MASK | FUTEX2_NUMA | FUTEX2_MPOL | FUTEX2_PRIVATE)
#define FUTEX_WAITV_MAX	 128

struct futex_waitv {
	uint64_t val, uaddr;
	uint32_t flags, reserved;
};

/* futex2's flags and the value or mask they go with (Linux's
 * futex_flags_valid and futex_validate_input): only 32-bit futexes, and a
 * value that fits them; *private from FUTEX2_PRIVATE. */
static int futex2_check(uint64_t flags, uint64_t val, bool *private)
{
	if ((flags & ~(uint64_t)FUTEX2_VALID) || (flags & FUTEX2_SIZE_MASK) != FUTEX2_SIZE_U32)
		return -EINVAL;
	if (flags & (FUTEX2_NUMA | FUTEX2_MPOL))
		return -EINVAL; /* partial: no NUMA futexes */
	if (val >> 32)
		return -EINVAL;
	*private = flags & FUTEX2_PRIVATE;
	return 0;
}

/* futex2's timeouts are absolute, on CLOCK_MONOTONIC or CLOCK_REALTIME. */
static int futex2_deadline(struct task *t, uaddr_t uts, int clockid, int64_t *out)
{
	*out = -1;
	if (!uts)
		return 0;
	if (clockid != LINUX_CLOCK_MONOTONIC && clockid != LINUX_CLOCK_REALTIME)
		return -EINVAL;
	return get_deadline(t, uts, true, clockid == LINUX_CLOCK_REALTIME, out);
}

/* The n entries of a futex_waitv array, checked (futex_parse_waitv). */
static int get_waitv(struct task *t, uaddr_t uv, unsigned n, struct futex_waitv *v, bool *private)
{
	for (unsigned i = 0; i < n; i++) {
		if (copy_from_user(t->mm, &v[i], uv + i * sizeof(*v), sizeof(*v)) < 0)
			return -EFAULT;
		if (v[i].reserved || futex2_check(v[i].flags, v[i].val, &private[i]) < 0)
			return -EINVAL;
	}
	return 0;
}

long sys_futex_waitv(struct task *t, const struct sysargs *a)
{
	unsigned n = sysarg_uint(a, 1);
	uaddr_t uv = sysarg_uaddr(a, 0);
	struct futex_waitv v[FUTEX_WAITV_MAX];
	struct futex_waiter w[FUTEX_WAITV_MAX];
	bool private[FUTEX_WAITV_MAX];
	struct ktimer tm = { .armed = false };
	int64_t deadline;
	long ret, woken;
	unsigned i, queued = 0;

	_Static_assert(sizeof(struct futex_waitv) == 24, "struct futex_waitv");
	if (sysarg_uint(a, 2) || n == 0 || n > FUTEX_WAITV_MAX || !uv)
		return -EINVAL;
	ret = futex2_deadline(t, sysarg_uaddr(a, 3), sysarg_int(a, 4), &deadline);
	if (ret == 0)
		ret = get_waitv(t, uv, n, v, private);
	if (ret < 0)
		return ret;
	/* Every key, then every value, each queued as it passes (Linux's
	 * futex_wait_multiple_setup). */
	for (i = 0; i < n; i++) {
		w[i] = (struct futex_waiter){ .bitset = LINUX_FUTEX_BITSET_MATCH_ANY, .task = t };
		if (v[i].uaddr & 3)
			return -EINVAL;
		if (futex_get_key(t->mm, v[i].uaddr, private[i], &w[i].key) < 0)
			return -EFAULT;
	}
	for (ret = 0; queued < n; queued++) {
		uint32_t cur;

		if (copy_from_user(t->mm, &cur, v[queued].uaddr, sizeof(cur)) < 0) {
			ret = -EFAULT;
			break;
		}
		if (cur != (uint32_t)v[queued].val) {
			ret = -EAGAIN;
			break;
		}
		list_add_tail(&w[queued].link, &futex_waiters);
	}
	if (ret == 0 && deadline >= 0 && deadline <= sched_now_ns())
		ret = -ETIMEDOUT;
	if (ret == 0 && deadline >= 0)
		ktimer_arm(&tm, deadline, futex_timeout, &w[0]);
	while (ret == 0 && !signal_pending(t) && !w[0].timed_out) {
		for (i = 0; i < queued && !w[i].woken; i++)
			;
		if (i < queued)
			break;
		t->state = TASK_SLEEPING;
		schedule();
	}
	ktimer_cancel(&tm);
	/* The last one woken is the answer, as Linux's futex_unqueue_multiple;
	 * none: the timeout or a signal. */
	woken = -1;
	for (i = 0; i < queued; i++) {
		list_del(&w[i].link);
		if (w[i].woken)
			woken = (long)i;
	}
	if (woken >= 0)
		return woken;
	if (ret == 0)
		ret = w[0].timed_out ? -ETIMEDOUT : -ERESTARTSYS;
	return ret;
}

long sys_futex_wake(struct task *t, const struct sysargs *a)
{
	uaddr_t addr = sysarg_uaddr(a, 0);
	uint64_t mask = a->a[1];
	bool private;

	if (futex2_check(sysarg_uint(a, 3), mask, &private) < 0 || !mask)
		return -EINVAL;
	if (addr & 3)
		return -EINVAL;
	return futex_wake_n(t->mm, addr, private, sysarg_int(a, 2), (uint32_t)mask, true);
}

long sys_futex_wait(struct task *t, const struct sysargs *a)
{
	uaddr_t addr = sysarg_uaddr(a, 0);
	uint64_t val = a->a[1], mask = a->a[2];
	int64_t deadline;
	bool private;
	long ret;

	if (futex2_check(sysarg_uint(a, 3), val, &private) < 0 ||
	    futex2_check(sysarg_uint(a, 3), mask, &private) < 0)
		return -EINVAL;
	ret = futex2_deadline(t, sysarg_uaddr(a, 4), sysarg_int(a, 5), &deadline);
	if (ret < 0)
		return ret;
	if (!mask || (addr & 3))
		return -EINVAL;
	return futex_wait(t, addr, private, (uint32_t)val, deadline, (uint32_t)mask);
}

long sys_futex_requeue(struct task *t, const struct sysargs *a)
{
	struct futex_waitv v[2];
	bool private[2];
	int nwake = sysarg_int(a, 2), nreq = sysarg_int(a, 3);
	uint32_t cur;
	long ret;

	if (sysarg_uint(a, 1) || !sysarg_uaddr(a, 0))
		return -EINVAL;
	ret = get_waitv(t, sysarg_uaddr(a, 0), 2, v, private);
	if (ret < 0)
		return ret;
	if (nwake < 0 || nreq < 0 || (v[0].uaddr & 3) || (v[1].uaddr & 3))
		return -EINVAL;
	if (copy_from_user(t->mm, &cur, v[0].uaddr, sizeof(cur)) < 0)
		return -EFAULT;
	if (cur != (uint32_t)v[0].val)
		return -EAGAIN;
	return futex_requeue(t->mm, v[0].uaddr, private[0], v[1].uaddr, private[1], nwake, nreq);
}
