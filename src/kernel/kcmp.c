/* kernel/kcmp.c: kcmp(2), Linux's kernel/kcmp.c. Two tasks (any thread
 * ids: ESRCH), which the caller may read as ptrace's READ with real
 * credentials (EPERM), share a resource when the kernel objects are the
 * same; the order of two different ones is that of their addresses mixed
 * with a secret per type, stable for the instance's life and saying
 * nothing of where they are: 0 equal, 1 less, 2 greater.
 * What skas keeps per process where Linux has a shared object:
 * KCMP_SIGHAND compares processes (a CLONE_SIGHAND child that is not a
 * thread has its own here: kernel/fork.c), KCMP_SYSVSEM compares the
 * process once a SEM_UNDO semop made its undo list. */
#include <stdint.h>

#include "kernel/task.h"
#include "kernel/pidns.h"
#include "kernel/cred.h"
#include "syscalls/dispatch.h"
#include "vfs/file.h"
#include "vfs/epoll.h"
#include "mm/usercopy.h"
#include "host/host.h"
#include "abi/linux/errno.h"

enum {
	KCMP_FILE,
	KCMP_VM,
	KCMP_FILES,
	KCMP_FS,
	KCMP_SIGHAND,
	KCMP_IO,
	KCMP_SYSVSEM,
	KCMP_EPOLL_TFD,
	KCMP_TYPES,
};

/* struct kcmp_epoll_slot: which target of an epoll to compare (12
 * bytes: a 64-bit toff read 4 bytes past it, garbage or a hole). */
struct kcmp_epoll_slot {
	uint32_t efd;
	uint32_t tfd;
	uint32_t toff;
};

static uint64_t cookies[KCMP_TYPES][2];

/* Linux's kptr_obfuscate: a bijection (the multiplier is odd), so equal
 * stays equal and different stays different. */
static uint64_t obfuscate(uint64_t v, int type)
{
	static bool ready;

	if (!ready) {
		int i;

		if (host_getrandom(cookies, sizeof(cookies)) < 0) {
			/* Any fixed mix still orders consistently. */
			for (i = 0; i < KCMP_TYPES; i++) {
				cookies[i][0] = 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1);
				cookies[i][1] = 0xBF58476D1CE4E5B9ULL;
			}
		}
		for (i = 0; i < KCMP_TYPES; i++)
			cookies[i][1] |= 1ULL << 63 | 1;
		ready = true;
	}
	return (v ^ cookies[type][0]) * cookies[type][1];
}

static long kcmp_id(uint64_t a, uint64_t b, int type)
{
	uint64_t x = obfuscate(a, type), y = obfuscate(b, type);

	return (x < y) | (x > y) << 1;
}

static long kcmp_ptr(const void *a, const void *b, int type)
{
	return kcmp_id((uint64_t)(uintptr_t)a, (uint64_t)(uintptr_t)b, type);
}

/* A task's file at fd (no reference kept: the comparison is of
 * addresses), or NULL; Linux takes the index as an unsigned int. */
static struct file *raw_file(struct task *t, unsigned long idx)
{
	struct file *f;

	if (!t->files || (uint32_t)idx > INT32_MAX)
		return NULL;
	f = fdget(t->files, (int)(uint32_t)idx);
	file_put(f);
	return f;
}

static bool may_read(struct task *t, struct task *target)
{
	return target->proc == t->proc ||
	       cred_ptrace_may_access(&t->proc->cred, target->proc, true);
}

static long epoll_target(struct task *t, struct task *t1, struct task *t2, unsigned long idx1,
			 uaddr_t uslot)
{
	struct kcmp_epoll_slot slot;
	struct file *f, *ep, *target;
	int err = 0;

	if (copy_from_user(t->mm, &slot, uslot, sizeof(slot)) < 0)
		return -EFAULT;
	f = raw_file(t1, idx1);
	if (!f)
		return -EBADF;
	ep = t2->files && slot.efd <= INT32_MAX ? fdget(t2->files, (int)slot.efd) : NULL;
	if (!ep)
		return -EBADF;
	target = epoll_item_file(ep, (int)slot.tfd, slot.toff, &err);
	file_put(ep);
	if (!target)
		return err;
	return kcmp_ptr(f, target, KCMP_FILE);
}

long sys_kcmp(struct task *t, const struct sysargs *a)
{
	struct task *t1 = task_by_vtid(t, sysarg_int(a, 0)),
		    *t2 = task_by_vtid(t, sysarg_int(a, 1));
	unsigned long idx1 = a->a[3], idx2 = a->a[4];
	struct file *f1, *f2;

	if (!t1 || !t2)
		return -ESRCH;
	if (!may_read(t, t1) || !may_read(t, t2))
		return -EPERM;
	switch (sysarg_int(a, 2)) {
	case KCMP_FILE:
		f1 = raw_file(t1, idx1);
		f2 = raw_file(t2, idx2);
		return f1 && f2 ? kcmp_ptr(f1, f2, KCMP_FILE) : -EBADF;
	case KCMP_VM:
		return kcmp_ptr(t1->mm, t2->mm, KCMP_VM);
	case KCMP_FILES:
		return kcmp_ptr(t1->files, t2->files, KCMP_FILES);
	case KCMP_FS:
		return kcmp_ptr(t1->fs, t2->fs, KCMP_FS);
	case KCMP_SIGHAND:
		return kcmp_ptr(t1->proc, t2->proc, KCMP_SIGHAND);
	case KCMP_IO:
		return kcmp_id(t1->ioc_id, t2->ioc_id, KCMP_IO);
	case KCMP_SYSVSEM:
		return kcmp_ptr(t1->proc->sem_undo_list ? t1->proc : NULL,
				t2->proc->sem_undo_list ? t2->proc : NULL, KCMP_SYSVSEM);
	case KCMP_EPOLL_TFD:
		return epoll_target(t, t1, t2, idx1, (uaddr_t)idx2);
	default:
		return -EINVAL;
	}
}
