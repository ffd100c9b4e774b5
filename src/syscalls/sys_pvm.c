/* syscalls/sys_pvm.c: process_vm_readv and process_vm_writev, Linux's
 * checks in Linux's order (mm/process_vm_access.c): flags, the local
 * iovecs (iovec_import: as readv's), a zero total is done, the remote
 * ones (EINVAL past IOV_MAX or for a negative length, EFAULT for an
 * unreadable array), the process (ESRCH, none or gone), the right to its
 * memory (ptrace's ATTACH with real credentials: EPERM), then the bytes in
 * order until either side faults. What moved is the result; EFAULT only
 * if nothing did. */
#include <stdlib.h>

#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "kernel/cred.h"
#include "mm/mm.h"
#include "mm/usercopy.h"
#include "platform/platform.h"
#include "vfs/iov.h"
#include "abi/linux/errno.h"

#define PVM_IOV_MAX 1024
#define PVM_CHUNK   65536

/* The remote iovecs (Linux's iovec_from_user: no range check, no cap):
 * *out malloc'ed, the caller's to free. */
static long remote_iovs(struct task *t, uaddr_t u, uint64_t n, struct linux_iovec **out)
{
	struct linux_iovec *v;
	uint64_t i;

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
	for (i = 0; i < n; i++) {
		if ((int64_t)v[i].iov_len < 0) {
			free(v);
			return -EINVAL;
		}
	}
	*out = v;
	return 0;
}

/* Moves up to n bytes from src in one address space to dst in another,
 * as far as both VMAs allow from their start; returns what moved. */
static long move(struct mm *from, uaddr_t src, struct mm *to, uaddr_t dst, size_t n, char *buf)
{
	size_t a = user_prefix(from, src, n, false), b = user_prefix(to, dst, n, true), k;
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
	struct linux_iovec *lv = NULL, *rv = NULL;
	uint64_t ln = (uint32_t)a->a[2], rn = a->a[4], done = 0, i, li = 0, loff = 0;
	struct task *target;
	struct mm *rmm;
	char *buf = NULL;
	long ret;

	if (a->a[5] != 0)
		return -EINVAL;
	ret = iovec_import(t, sysarg_uaddr(a, 1), (uint32_t)ln, &lv);
	if (ret <= 0) {
		free(lv); /* an error (NULL), or nothing to move: 0 */
		return ret;
	}
	ret = remote_iovs(t, sysarg_uaddr(a, 3), rn, &rv);
	if (ret < 0)
		goto out;
	for (i = 0; i < rn && rv[i].iov_len == 0; i++)
		;
	if (i == rn)
		goto out; /* nothing to move: 0, whatever the pid */
	target = task_by_vtid(t, sysarg_int(a, 0));
	if (!target || target->state == TASK_DEAD || !target->mm || target->proc->zombie) {
		ret = -ESRCH;
		goto out;
	}
	/* mm_access: one's own memory (a CLONE_VM child's too), else ptrace */
	if (t->proc != target->proc && t->mm != target->mm &&
	    !cred_ptrace_may_access(&t->proc->cred, target->proc, true)) {
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

		while (roff < rv[i].iov_len && li < ln) {
			uint64_t n = rv[i].iov_len - roff, lleft = lv[li].iov_len - loff;
			uaddr_t raddr = rv[i].iov_base + roff, laddr = lv[li].iov_base + loff;
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
			if ((uint64_t)k < n) {
				ret = done ? (long)done : -EFAULT;
				goto out;
			}
			roff += n;
			loff += n;
		}
	}
	ret = (long)done;
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
