/* syscalls/sys_signal.c: signal bookkeeping that programs do at start:
 * dispositions, the mask, the alternate stack. Differs from Linux (until
 * the signals issue): nothing delivers signals yet; a fault kills. */
#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/signal.h"

#define UNBLOCKABLE ((1ULL << (LINUX_SIGKILL - 1)) | (1ULL << (LINUX_SIGSTOP - 1)))

long sys_rt_sigaction(struct task *t, const struct sysargs *a)
{
	int sig = sysarg_int(a, 0);
	uaddr_t uact = sysarg_uaddr(a, 1), uold = sysarg_uaddr(a, 2);
	struct linux_sigaction act, *cur;

	if (sysarg_size(a, 3) != sizeof(uint64_t))
		return -EINVAL;
	if (sig < 1 || sig > LINUX_NSIG)
		return -EINVAL;
	if (uact && (sig == LINUX_SIGKILL || sig == LINUX_SIGSTOP))
		return -EINVAL;
	cur = &t->proc->sigactions[sig - 1];
	if (uact && copy_from_user(t->mm, &act, uact, sizeof(act)) < 0)
		return -EFAULT;
	if (uold && copy_to_user(t->mm, uold, cur, sizeof(*cur)) < 0)
		return -EFAULT;
	if (uact) {
		act.mask &= ~UNBLOCKABLE;
		*cur = act;
	}
	return 0;
}

long sys_rt_sigprocmask(struct task *t, const struct sysargs *a)
{
	int how = sysarg_int(a, 0);
	uaddr_t uset = sysarg_uaddr(a, 1), uold = sysarg_uaddr(a, 2);
	uint64_t set, old = t->sigmask;

	if (sysarg_size(a, 3) != sizeof(uint64_t))
		return -EINVAL;
	if (uset) {
		if (copy_from_user(t->mm, &set, uset, sizeof(set)) < 0)
			return -EFAULT;
		switch (how) {
		case LINUX_SIG_BLOCK:
			t->sigmask |= set;
			break;
		case LINUX_SIG_UNBLOCK:
			t->sigmask &= ~set;
			break;
		case LINUX_SIG_SETMASK:
			t->sigmask = set;
			break;
		default:
			return -EINVAL;
		}
		t->sigmask &= ~UNBLOCKABLE;
	}
	if (uold && copy_to_user(t->mm, uold, &old, sizeof(old)) < 0) {
		t->sigmask = old;
		return -EFAULT;
	}
	return 0;
}

long sys_sigaltstack(struct task *t, const struct sysargs *a)
{
	uaddr_t uss = sysarg_uaddr(a, 0), uold = sysarg_uaddr(a, 1);
	struct linux_stack_t ss, old = t->altstack;

	if (old.ss_size == 0)
		old.ss_flags = LINUX_SS_DISABLE;
	if (uss) {
		unsigned mode;

		if (copy_from_user(t->mm, &ss, uss, sizeof(ss)) < 0)
			return -EFAULT;
		mode = (unsigned)ss.ss_flags & ~LINUX_SS_AUTODISARM;
		if (mode != LINUX_SS_DISABLE && mode != LINUX_SS_ONSTACK && mode != 0)
			return -EINVAL;
		if (mode == LINUX_SS_DISABLE) {
			ss.ss_size = 0;
			ss.ss_sp = 0;
		} else if (ss.ss_size < LINUX_MINSIGSTKSZ) {
			return -ENOMEM;
		}
	}
	if (uold && copy_to_user(t->mm, uold, &old, sizeof(old)) < 0)
		return -EFAULT;
	if (uss) {
		ss.ss_flags &= ~LINUX_SS_ONSTACK;
		t->altstack = ss;
	}
	return 0;
}
