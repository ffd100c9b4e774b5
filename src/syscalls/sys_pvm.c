/* syscalls/sys_pvm.c: process_vm_readv and process_vm_writev, Linux's
 * checks in Linux's order (mm/process_vm_access.c): flags, the local
 * iovecs (EINVAL past IOV_MAX or for a negative length, EFAULT for one not
 * in user space; a total of 0 is done), the remote ones, the process
 * (ESRCH, none or gone), the right to its memory (ptrace's ATTACH with
 * real credentials: EPERM), then the bytes in order until either side
 * faults. What moved is the result; EFAULT only if nothing did. */
#include <stdlib.h>

#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "kernel/cred.h"
#include "mm/mm.h"
#include "mm/usercopy.h"
#include "platform/platform.h"
#include "vfs/file.h"
#include "abi/linux/errno.h"

#define PVM_IOV_MAX    1024
#define CAP_SYS_PTRACE 19
#define PVM_CHUNK      65536

struct pvm_iov {
	uint64_t base, len;
};

/* Reads n iovecs from the guest into a new array (*out, freed by the
 * caller). */
static long get_iovs(struct task *t, uaddr_t u, uint64_t n, struct pvm_iov **out)
{
	struct pvm_iov *v;

	*out = NULL;
	if (n > PVM_IOV_MAX)
		return -EINVAL;
	if (n == 0)
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (copy_from_user(t->mm, v, u, n * sizeof(*v)) < 0) {
		free(v);
		return -EFAULT;
	}
	*out = v;
	return 0;
}

/* Linux's mm_access with PTRACE_MODE_ATTACH_REALCREDS: the caller's own
 * memory, the same process, or the caller's real uid and gid are all of the target's ids,
 * or CAP_SYS_PTRACE; a target that is not dumpable needs the capability
 * too. */
static bool may_attach(struct task *t, struct task *target)
{
	const struct process *p = target->proc;
	const struct cred *c = &t->proc->cred, *pc = &p->cred;
	bool cap = capable(c, CAP_SYS_PTRACE);

	if (t->proc == p || t->mm == target->mm) /* mm_access: one's own memory */
		return true;
	if (!cap && !(c->uid == pc->uid && c->uid == pc->euid && c->uid == pc->suid &&
		      c->gid == pc->gid && c->gid == pc->egid && c->gid == pc->sgid))
		return false;
	return !p->nondumpable || cap;
}

/* The part of [addr, addr + n) of mm that can be read (or written) from
 * its start: 0 where the first byte cannot. */
static size_t reachable(struct mm *mm, uaddr_t addr, size_t n, bool write)
{
	if (addr >= TASK_SIZE || n > TASK_SIZE - addr)
		n = addr >= TASK_SIZE ? 0 : TASK_SIZE - addr;
	return n ? user_prefix(mm, addr, n, write) : 0;
}

static long move(struct mm *from, uaddr_t src, struct mm *to, uaddr_t dst, size_t n, char *buf)
{
	size_t a = reachable(from, src, n, false), b = reachable(to, dst, n, true), k;
	long r;

	k = a < b ? a : b;
	if (k == 0)
		return 0;
	r = platform->mm_read(from->pf, buf, src, k);
	if (r <= 0)
		return 0;
	r = platform->mm_write(to->pf, dst, buf, (size_t)r);
	return r < 0 ? 0 : r;
}

static long pvm(struct task *t, const struct sysargs *a, bool write)
{
	struct pvm_iov *lv = NULL, *rv = NULL;
	uint64_t ln = a->a[2], rn = a->a[4], total = 0, done = 0, i, li = 0, loff = 0;
	struct task *target;
	struct mm *rmm;
	char *buf = NULL;
	long ret;

	if (a->a[5] != 0)
		return -EINVAL;
	ret = get_iovs(t, sysarg_uaddr(a, 1), ln, &lv);
	if (ret < 0)
		return ret;
	for (i = 0; i < ln; i++) {
		if ((int64_t)lv[i].len < 0) {
			ret = -EINVAL;
			goto out;
		}
		if (lv[i].base > TASK_SIZE || lv[i].len > TASK_SIZE - lv[i].base) {
			ret = -EFAULT; /* access_ok, on the length as given */
			goto out;
		}
		if (lv[i].len > MAX_RW_COUNT - total)
			lv[i].len = MAX_RW_COUNT - total;
		total += lv[i].len;
	}
	ret = 0;
	if (total == 0)
		goto out;
	ret = get_iovs(t, sysarg_uaddr(a, 3), rn, &rv);
	if (ret < 0)
		goto out;
	for (i = 0; i < rn; i++) {
		if ((int64_t)rv[i].len < 0) {
			ret = -EINVAL;
			goto out;
		}
	}
	for (i = 0; i < rn && rv[i].len == 0; i++)
		;
	if (i == rn)
		goto out; /* nothing to move: 0, whatever the pid */
	target = task_by_tid(sysarg_int(a, 0));
	if (!target || target->state == TASK_DEAD || !target->mm || target->proc->zombie) {
		ret = -ESRCH;
		goto out;
	}
	if (!may_attach(t, target)) {
		ret = -EPERM;
		goto out;
	}
	rmm = target->mm;
	buf = malloc(PVM_CHUNK);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < rn && li < ln; i++) {
		uint64_t roff = 0;

		while (roff < rv[i].len && li < ln) {
			uint64_t n = rv[i].len - roff, lleft = lv[li].len - loff;
			uaddr_t raddr = rv[i].base + roff, laddr = lv[li].base + loff;
			long k;

			if (lleft == 0) {
				li++;
				loff = 0;
				continue;
			}
			if (n > lleft)
				n = lleft;
			if (n > PVM_CHUNK)
				n = PVM_CHUNK;
			k = write ? move(t->mm, laddr, rmm, raddr, n, buf)
				  : move(rmm, raddr, t->mm, laddr, n, buf);
			done += (uint64_t)k;
			if ((uint64_t)k < n)
				goto faulted;
			roff += n;
			loff += n;
		}
	}
	ret = (long)done;
	goto out;
faulted:
	ret = done ? (long)done : -EFAULT;
out:
	free(buf);
	free(lv);
	free(rv);
	return ret;
}

long sys_process_vm_readv(struct task *t, const struct sysargs *a)
{
	return pvm(t, a, false);
}

long sys_process_vm_writev(struct task *t, const struct sysargs *a)
{
	return pvm(t, a, true);
}
