/* kernel/futex.c: futex wait and wake. A waiter sleeps on its kernel stack
 * keyed by (address space, address), or, for a shared futex in a shared
 * file mapping (SysV shm, tmpfs files such as /dev/shm), by (the host fd
 * of the pages, offset), so that it wakes across processes.
 * Differs from Linux: a shared futex in shared anonymous memory is keyed
 * like a private one and does not wake across processes yet; the PI
 * operations are -ENOSYS,
 * said in the log. */
#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "kernel/log.h"
#include "mm/usercopy.h"
#include "vfs/file.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"
#include "abi/linux/types.h"
#include "kernel/futex.h"

/* mm and addr, or (obj >= 0) the host fd of a shared mapping's pages and
 * the offset in them. */
struct futex_key {
	struct mm *mm;
	uint64_t addr;
	int obj;
};

struct futex_waiter {
	struct list_head link;
	struct futex_key key;
	uint32_t bitset;
	struct task *task;
	bool woken, timed_out;
};

static LIST_HEAD_DECL(waiters);

static struct futex_key futex_key(struct mm *mm, uaddr_t addr, bool shared)
{
	struct futex_key k = { .mm = mm, .addr = addr, .obj = -1 };
	struct vma *v;
	int fd;

	if (!shared)
		return k;
	v = mm_find_vma(mm, addr);
	if (!v || v->start > addr || !(v->flags & VMA_SHARED) || !v->file || !v->file->ops->mmap_fd)
		return k;
	fd = v->file->ops->mmap_fd(v->file);
	if (fd < 0)
		return k;
	k.mm = NULL;
	k.obj = fd;
	k.addr = v->off + (addr - v->start);
	return k;
}

static bool key_eq(const struct futex_key *a, const struct futex_key *b)
{
	return a->mm == b->mm && a->addr == b->addr && a->obj == b->obj;
}

static void futex_timeout(void *arg)
{
	struct futex_waiter *w = arg;

	w->timed_out = true;
	sched_wake(w->task);
}

/* deadline_ns: monotonic, or -1 for none. */
static long futex_wait(struct task *t, uaddr_t addr, bool shared, uint32_t val, int64_t deadline_ns,
		       uint32_t bitset)
{
	struct futex_waiter w = { .key = futex_key(t->mm, addr, shared),
				  .bitset = bitset,
				  .task = t };
	struct ktimer tm = { .armed = false };
	uint32_t cur;

	if (copy_from_user(t->mm, &cur, addr, sizeof(cur)) < 0)
		return -EFAULT;
	if (cur != val)
		return -EAGAIN;
	if (deadline_ns >= 0 && deadline_ns <= sched_now_ns())
		return -ETIMEDOUT;
	list_add_tail(&w.link, &waiters);
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
	return w.timed_out ? -ETIMEDOUT : -ERESTARTSYS;
}

static long futex_wake(struct futex_key k, int n, uint32_t bitset)
{
	struct futex_waiter *w;
	long woken = 0;

	list_for_each_entry(w, &waiters, link)
	{
		if (woken >= n)
			break;
		if (!key_eq(&w->key, &k) || w->woken || !(w->bitset & bitset))
			continue;
		w->woken = true;
		sched_wake(w->task);
		woken++;
	}
	return woken;
}

long futex_wake_addr(struct mm *mm, uaddr_t addr, int n)
{
	return futex_wake(futex_key(mm, addr, true), n, LINUX_FUTEX_BITSET_MATCH_ANY);
}

/* Moves up to n waiters from addr to addr2 after waking nwake. */
static long futex_requeue(struct futex_key k, struct futex_key k2, int nwake, int nreq)
{
	struct futex_waiter *w;
	long done = 0;
	int moved = 0;

	list_for_each_entry(w, &waiters, link)
	{
		if (!key_eq(&w->key, &k) || w->woken)
			continue;
		if (done < nwake) {
			w->woken = true;
			sched_wake(w->task);
			done++;
		} else if (moved < nreq) {
			w->key = k2;
			moved++;
		} else {
			break;
		}
	}
	return done + moved;
}

/* FUTEX_WAKE_OP: *addr2 = op(*addr2, oparg); wake on addr; maybe on addr2. */
static long futex_wake_op(struct task *t, uaddr_t addr, uaddr_t addr2, bool shared, int nwake,
			  int nwake2, uint32_t encoded)
{
	int op = (encoded >> 28) & 7, cmp = (encoded >> 24) & 15;
	int32_t oparg = (int32_t)(encoded << 8) >> 20, cmparg = (int32_t)(encoded << 20) >> 20;
	int32_t old, nv;
	long ret;
	bool hit;

	if ((encoded >> 28) & 8) {
		if (oparg < 0 || oparg > 31)
			return -EINVAL;
		oparg = 1 << oparg;
	}
	if (copy_from_user(t->mm, &old, addr2, sizeof(old)) < 0)
		return -EFAULT;
	switch (op) {
	case LINUX_FUTEX_OP_SET:
		nv = oparg;
		break;
	case LINUX_FUTEX_OP_ADD:
		nv = (int32_t)((uint32_t)old + (uint32_t)oparg);
		break;
	case LINUX_FUTEX_OP_OR:
		nv = old | oparg;
		break;
	case LINUX_FUTEX_OP_ANDN:
		nv = old & ~oparg;
		break;
	case LINUX_FUTEX_OP_XOR:
		nv = old ^ oparg;
		break;
	default:
		return -ENOSYS;
	}
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
	if (copy_to_user(t->mm, addr2, &nv, sizeof(nv)) < 0)
		return -EFAULT;
	ret = futex_wake(futex_key(t->mm, addr, shared), nwake, LINUX_FUTEX_BITSET_MATCH_ANY);
	if (hit)
		ret += futex_wake(futex_key(t->mm, addr2, shared), nwake2,
				  LINUX_FUTEX_BITSET_MATCH_ANY);
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
	ns = ts.tv_sec > 4000000000LL ? INT64_MAX / 4 : ts.tv_sec * 1000000000LL + ts.tv_nsec;
	if (!absolute)
		*out = sched_now_ns() + ns;
	else if (realtime)
		*out = sched_now_ns() + (ns - host_clock_ns(LINUX_CLOCK_REALTIME));
	else
		*out = ns;
	return 0;
}

long sys_futex(struct task *t, const struct sysargs *a)
{
	uaddr_t addr = sysarg_uaddr(a, 0), uts = sysarg_uaddr(a, 3);
	int op = sysarg_int(a, 1), cmd = op & LINUX_FUTEX_CMD_MASK;
	bool realtime = op & LINUX_FUTEX_CLOCK_REALTIME;
	bool shared = !(op & LINUX_FUTEX_PRIVATE_FLAG);
	uint32_t val = sysarg_uint(a, 2), bitset = sysarg_uint(a, 5);
	int64_t deadline;
	int ret;

	if (realtime && cmd != LINUX_FUTEX_WAIT_BITSET && cmd != LINUX_FUTEX_WAIT)
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
		return futex_wait(t, addr, shared, val, deadline, bitset);
	case LINUX_FUTEX_WAKE:
		bitset = LINUX_FUTEX_BITSET_MATCH_ANY;
		/* fallthrough */
	case LINUX_FUTEX_WAKE_BITSET:
		if (!bitset)
			return -EINVAL;
		return futex_wake(futex_key(t->mm, addr, shared), (int)val, bitset);
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
		return futex_requeue(futex_key(t->mm, addr, shared),
				     futex_key(t->mm, addr2, shared), (int)val, nreq);
	}
	case LINUX_FUTEX_WAKE_OP: {
		uaddr_t addr2 = sysarg_uaddr(a, 4);

		if (addr2 & 3)
			return -EINVAL;
		return futex_wake_op(t, addr, addr2, shared, (int)val, (int)uts, sysarg_uint(a, 5));
	}
	default:
		klog(LOG_INFO, "futex op %d is not implemented: ENOSYS", cmd);
		return -ENOSYS;
	}
}
