/* kernel/seccomp.c: seccomp(2) for guests. Every guest system call
 * reaches the kernel, so a guest's filters are classic BPF programs the
 * kernel checks when they are installed (as Linux's bpf_check_classic and
 * seccomp_check_filter) and interprets at each call (syscall_enter). A
 * thread's filters are a chain, newest first, shared with the threads and
 * children that inherited them; the chain only grows. */
#include <stdlib.h>
#include <string.h>

#include "kernel/seccomp.h"
#include "lib/cbpf.h"
#include "kernel/seccomp_notify.h"
#include "kernel/task.h"
#include "kernel/userns.h"
#include "kernel/pidns.h"
#include "kernel/cred.h"
#include "kernel/log.h"
#include "kernel/ptrace.h"
#include "mm/usercopy.h"
#include "vfs/file.h"
#include "syscalls/dispatch.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"
#include "abi/linux/ptrace.h"
#include "abi/linux/seccomp.h"
#include "abi/linux/signal.h"

/* Linux's MAX_INSNS_PER_PATH: the instructions of a chain, counting 4 more
 * for each filter, over which a new filter is ENOMEM. */
#define MAX_INSNS_PER_PATH 32768
#define MAX_ERRNO	   4095

void seccomp_filter_put(struct seccomp_filter *f)
{
	while (f && --f->refcount == 0) {
		struct seccomp_filter *prev = f->prev;

		waitq_release(&f->wqh);
		free(f);
		f = prev;
	}
}

/* A task (or TSYNC) lets go of a chain: the filters nobody runs under any
 * more tell their listeners (Linux's __seccomp_filter_release). */
static void chain_release(struct seccomp_filter *f)
{
	struct seccomp_filter *w;

	for (w = f; w && --w->users == 0; w = w->prev)
		seccomp_filter_orphaned(w);
	seccomp_filter_put(f);
}

static void chain_get(struct seccomp_filter *f)
{
	if (f) {
		f->refcount++;
		f->users++;
	}
}

void task_seccomp_fork(struct task *child, const struct task *parent)
{
	child->seccomp_mode = parent->seccomp_mode;
	child->seccomp = parent->seccomp;
	chain_get(child->seccomp);
}

void task_seccomp_release(struct task *t)
{
	struct seccomp_filter *f = t->seccomp;

	t->seccomp = NULL;
	chain_release(f);
}

int task_seccomp_filters(const struct task *t)
{
	const struct seccomp_filter *f;
	int n = 0;

	for (f = t->seccomp; f; f = f->prev)
		n++;
	return n;
}

/* Is code one of the instructions a seccomp program may hold (after the
 * loads of struct seccomp_data, checked by the caller)? */
static bool insn_allowed(uint16_t code)
{
	switch (code) {
	case LINUX_BPF_RET | LINUX_BPF_K:
	case LINUX_BPF_RET | LINUX_BPF_A:
	case LINUX_BPF_ALU | LINUX_BPF_ADD | LINUX_BPF_K:
	case LINUX_BPF_ALU | LINUX_BPF_ADD | LINUX_BPF_X:
	case LINUX_BPF_ALU | LINUX_BPF_SUB | LINUX_BPF_K:
	case LINUX_BPF_ALU | LINUX_BPF_SUB | LINUX_BPF_X:
	case LINUX_BPF_ALU | LINUX_BPF_MUL | LINUX_BPF_K:
	case LINUX_BPF_ALU | LINUX_BPF_MUL | LINUX_BPF_X:
	case LINUX_BPF_ALU | LINUX_BPF_DIV | LINUX_BPF_K:
	case LINUX_BPF_ALU | LINUX_BPF_DIV | LINUX_BPF_X:
	case LINUX_BPF_ALU | LINUX_BPF_AND | LINUX_BPF_K:
	case LINUX_BPF_ALU | LINUX_BPF_AND | LINUX_BPF_X:
	case LINUX_BPF_ALU | LINUX_BPF_OR | LINUX_BPF_K:
	case LINUX_BPF_ALU | LINUX_BPF_OR | LINUX_BPF_X:
	case LINUX_BPF_ALU | LINUX_BPF_XOR | LINUX_BPF_K:
	case LINUX_BPF_ALU | LINUX_BPF_XOR | LINUX_BPF_X:
	case LINUX_BPF_ALU | LINUX_BPF_LSH | LINUX_BPF_K:
	case LINUX_BPF_ALU | LINUX_BPF_LSH | LINUX_BPF_X:
	case LINUX_BPF_ALU | LINUX_BPF_RSH | LINUX_BPF_K:
	case LINUX_BPF_ALU | LINUX_BPF_RSH | LINUX_BPF_X:
	case LINUX_BPF_ALU | LINUX_BPF_NEG:
	case LINUX_BPF_LD | LINUX_BPF_IMM:
	case LINUX_BPF_LDX | LINUX_BPF_IMM:
	case LINUX_BPF_MISC | LINUX_BPF_TAX:
	case LINUX_BPF_MISC | LINUX_BPF_TXA:
	case LINUX_BPF_LD | LINUX_BPF_MEM:
	case LINUX_BPF_LDX | LINUX_BPF_MEM:
	case LINUX_BPF_ST:
	case LINUX_BPF_STX:
	case LINUX_BPF_JMP | LINUX_BPF_JA:
	case LINUX_BPF_JMP | LINUX_BPF_JEQ | LINUX_BPF_K:
	case LINUX_BPF_JMP | LINUX_BPF_JEQ | LINUX_BPF_X:
	case LINUX_BPF_JMP | LINUX_BPF_JGE | LINUX_BPF_K:
	case LINUX_BPF_JMP | LINUX_BPF_JGE | LINUX_BPF_X:
	case LINUX_BPF_JMP | LINUX_BPF_JGT | LINUX_BPF_K:
	case LINUX_BPF_JMP | LINUX_BPF_JGT | LINUX_BPF_X:
	case LINUX_BPF_JMP | LINUX_BPF_JSET | LINUX_BPF_K:
	case LINUX_BPF_JMP | LINUX_BPF_JSET | LINUX_BPF_X:
		return true;
	}
	return false;
}

/* Linux's seccomp_check_filter after the checks of every classic program
 * (lib/cbpf.h): the instructions above only, loads of aligned words inside
 * struct seccomp_data; LEN loads become immediates. 0, -EINVAL or
 * -ENOMEM. */
int seccomp_check_filter(struct linux_sock_filter *p, unsigned len)
{
	unsigned pc;
	int ret = cbpf_check(p, len);

	for (pc = 0; ret == 0 && pc < len; pc++) {
		struct linux_sock_filter *i = &p[pc];

		switch (i->code) {
		case LINUX_BPF_LD | LINUX_BPF_W | LINUX_BPF_ABS:
			if (i->k >= sizeof(struct linux_seccomp_data) || (i->k & 3))
				ret = -EINVAL;
			break;
		case LINUX_BPF_LD | LINUX_BPF_W | LINUX_BPF_LEN:
			i->code = LINUX_BPF_LD | LINUX_BPF_IMM;
			i->k = sizeof(struct linux_seccomp_data);
			break;
		case LINUX_BPF_LDX | LINUX_BPF_W | LINUX_BPF_LEN:
			i->code = LINUX_BPF_LDX | LINUX_BPF_IMM;
			i->k = sizeof(struct linux_seccomp_data);
			break;
		default:
			if (!insn_allowed(i->code))
				ret = -EINVAL;
		}
	}
	return ret;
}

uint32_t seccomp_run_filter(const struct linux_sock_filter *insns,
			    const struct linux_seccomp_data *d)
{
	const struct cbpf_pkt pkt = { .head = (const uint8_t *)d,
				      .head_len = sizeof(*d),
				      .len = sizeof(*d),
				      .net_off = -1,
				      .ll_off = -1,
				      .host_order = true };

	return cbpf_run(insns, &pkt);
}

/* The action of the whole chain: each filter runs, the strongest action
 * wins (KILL_PROCESS, KILL_THREAD, TRAP, ERRNO, USER_NOTIF, TRACE, LOG,
 * ALLOW), the newest filter's among equals. *match: the filter it came
 * from. */
static uint32_t run_filters(const struct task *t, const struct linux_seccomp_data *d,
			    struct seccomp_filter **match)
{
	uint32_t ret = LINUX_SECCOMP_RET_ALLOW, cur;
	struct seccomp_filter *f;

	*match = NULL;
	for (f = t->seccomp; f; f = f->prev) {
		cur = seccomp_run_filter(f->insns, d);
		if ((int32_t)(cur & LINUX_SECCOMP_RET_ACTION_FULL) <
		    (int32_t)(ret & LINUX_SECCOMP_RET_ACTION_FULL)) {
			ret = cur;
			*match = f;
		}
	}
	return ret;
}

/* Strict mode: read, write, exit and rt_sigreturn (the i386 numbers for
 * the i386 ABI); anything else ends the thread with SIGKILL. */
static bool strict_allows(int nr, bool compat)
{
	static const int native[] = { 0, 1, 60, 15 }, i386[] = { 3, 4, 1, 173 };
	const int *ok = compat ? i386 : native;
	int i;

	for (i = 0; i < 4; i++)
		if (nr == ok[i])
			return true;
	return false;
}

static bool filter_call(struct task *t, int *nr, uint64_t *args, bool compat, long *ret,
			bool recheck)
{
	struct seccomp_filter *match;
	struct linux_seccomp_data d;
	struct linux_siginfo si;
	uint32_t action, data;
	int i;

	d.nr = *nr;
	d.arch = compat ? LINUX_AUDIT_ARCH_I386 : LINUX_AUDIT_ARCH_X86_64;
	d.instruction_pointer = t->ev.ip;
	for (i = 0; i < 6; i++)
		d.args[i] = compat ? (uint32_t)args[i] : args[i];
	action = run_filters(t, &d, &match);
	data = action & LINUX_SECCOMP_RET_DATA;
	switch (action & LINUX_SECCOMP_RET_ACTION_FULL) {
	case LINUX_SECCOMP_RET_ALLOW:
		return true;
	case LINUX_SECCOMP_RET_LOG:
		klog_ratelimited(LOG_INFO, "pid %d (%s): seccomp logs system call %d", t->proc->pid,
				 t->comm, *nr);
		return true;
	case LINUX_SECCOMP_RET_ERRNO:
		*ret = -(long)(data > MAX_ERRNO ? MAX_ERRNO : data);
		return false;
	case LINUX_SECCOMP_RET_TRAP:
		/* The handler sees the registers of the call: rax its number. */
		memset(&si, 0, sizeof(si));
		si.si_signo = LINUX_SIGSYS;
		si.si_errno = (int32_t)data;
		si.si_code = LINUX_SYS_SECCOMP;
		si.fields.sigsys.call_addr = t->ev.ip;
		si.fields.sigsys.syscall = *nr;
		si.fields.sigsys.arch = d.arch;
		force_signal_info(t, &si);
		*ret = *nr;
		return false;
	case LINUX_SECCOMP_RET_TRACE:
		/* After the tracer's stop the call is filtered again, where
		 * TRACE lets it go (Linux's recheck_after_trace). */
		if (recheck)
			return true;
		if (!t->pt.tracer || !(t->pt.opts & LINUX_PTRACE_O_TRACESECCOMP)) {
			*ret = -ENOSYS; /* no tracer asked for the event */
			return false;
		}
		if (!ptrace_seccomp_stop(t, data, nr, args, ret))
			return false;
		return filter_call(t, nr, args, compat, ret, true);
	case LINUX_SECCOMP_RET_USER_NOTIF:
		/* CONTINUE: the call runs as if the filters had let it */
		return seccomp_user_notif(t, match, &d, ret);
	case LINUX_SECCOMP_RET_KILL_THREAD:
		if (match && match->log)
			klog_ratelimited(LOG_INFO,
					 "pid %d (%s): seccomp kills the thread at system call %d",
					 t->proc->pid, t->comm, *nr);
		task_exit(t, LINUX_SIGSYS);
	default: /* KILL_PROCESS, and any unknown action */
		klog_ratelimited(LOG_INFO,
				 "pid %d (%s): seccomp kills the process at system call %d",
				 t->proc->pid, t->comm, *nr);
		process_exit(t, LINUX_SIGSYS);
	}
}

bool task_seccomp_allows(struct task *t, int *nr, uint64_t *args, bool compat, long *ret)
{
	if (t->seccomp_mode == LINUX_SECCOMP_MODE_DISABLED)
		return true;
	if (t->seccomp_mode == LINUX_SECCOMP_MODE_STRICT) {
		if (strict_allows(*nr, compat))
			return true;
		klog_ratelimited(LOG_INFO,
				 "pid %d (%s): system call %d in seccomp strict mode: killed",
				 t->proc->pid, t->comm, *nr);
		task_exit(t, LINUX_SIGKILL);
	}
	return filter_call(t, nr, args, compat, ret, false);
}

static bool may_assign_mode(const struct task *t, int mode)
{
	return t->seccomp_mode == LINUX_SECCOMP_MODE_DISABLED || t->seccomp_mode == mode;
}

static long set_mode_strict(struct task *t, unsigned flags, uint64_t uargs)
{
	if (flags || uargs)
		return -EINVAL;
	if (!may_assign_mode(t, LINUX_SECCOMP_MODE_STRICT))
		return -EINVAL;
	t->seccomp_mode = LINUX_SECCOMP_MODE_STRICT;
	return 0;
}

static bool is_ancestor(const struct seccomp_filter *parent, const struct seccomp_filter *child)
{
	if (!parent)
		return true;
	for (; child; child = child->prev)
		if (child == parent)
			return true;
	return false;
}

#define FILTER_FLAGS_KNOWN                                                               \
	(LINUX_SECCOMP_FILTER_FLAG_TSYNC | LINUX_SECCOMP_FILTER_FLAG_LOG |               \
	 LINUX_SECCOMP_FILTER_FLAG_SPEC_ALLOW | LINUX_SECCOMP_FILTER_FLAG_NEW_LISTENER | \
	 LINUX_SECCOMP_FILTER_FLAG_TSYNC_ESRCH | LINUX_SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV)

/* NEW_LISTENER: one listener in a chain (Linux's has_duplicate_listener). */
static bool chain_has_listener(const struct seccomp_filter *f)
{
	for (; f; f = f->prev)
		if (f->notif)
			return true;
	return false;
}

/* The flag combinations Linux refuses before it reads the program: TSYNC
 * names a thread on failure where NEW_LISTENER returns an fd, so the two
 * need TSYNC_ESRCH; WAIT_KILLABLE_RECV needs a listener. */
static bool filter_flags_ok(unsigned flags)
{
	if (flags & ~FILTER_FLAGS_KNOWN)
		return false;
	if ((flags & LINUX_SECCOMP_FILTER_FLAG_TSYNC) &&
	    (flags & LINUX_SECCOMP_FILTER_FLAG_NEW_LISTENER) &&
	    !(flags & LINUX_SECCOMP_FILTER_FLAG_TSYNC_ESRCH))
		return false;
	return !(flags & LINUX_SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV) ||
	       (flags & LINUX_SECCOMP_FILTER_FLAG_NEW_LISTENER);
}

/* A checked filter from the guest's struct sock_fprog at uargs (Linux's
 * seccomp_prepare_user_filter): 0 or -errno. */
static long prepare_filter(struct task *t, unsigned flags, uint64_t uargs,
			   struct seccomp_filter **out)
{
	struct linux_sock_fprog prog;
	struct seccomp_filter *f;
	long ret;

	if (copy_from_user(t->mm, &prog, uargs, sizeof(prog)) < 0)
		return -EFAULT;
	if (prog.len == 0 || prog.len > LINUX_BPF_MAXINSNS)
		return -EINVAL;
	if (!t->proc->no_new_privs &&
	    !ns_capable(&t->proc->cred, cred_user_ns(&t->proc->cred), CAP_SYS_ADMIN))
		return -EACCES;
	if (!prog.filter) /* bpf_check_basics_ok */
		return -EINVAL;
	f = calloc(1, sizeof(*f) + prog.len * sizeof(f->insns[0]));
	if (!f)
		return -ENOMEM;
	f->refcount = 1;
	f->users = 1;
	f->log = flags & LINUX_SECCOMP_FILTER_FLAG_LOG;
	f->wait_killable_recv = flags & LINUX_SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV;
	waitq_init(&f->wqh);
	f->len = prog.len;
	if (copy_from_user(t->mm, f->insns, prog.filter, prog.len * sizeof(f->insns[0])) < 0) {
		free(f);
		return -EFAULT;
	}
	ret = seccomp_check_filter(f->insns, f->len);
	if (ret < 0) {
		free(f);
		return ret;
	}
	*out = f;
	return 0;
}

/* TSYNC: every other thread must run under an ancestor of this thread's
 * chain and not in strict mode, else the first that does not is named
 * (its tid), or ESRCH with TSYNC_ESRCH. */
static long tsync_check(struct task *t, unsigned flags)
{
	struct task *o;

	list_for_each_entry(o, &t->proc->threads, thread_link)
	{
		if (o == t)
			continue;
		if (o->seccomp_mode == LINUX_SECCOMP_MODE_STRICT ||
		    !is_ancestor(o->seccomp, t->seccomp))
			return (flags & LINUX_SECCOMP_FILTER_FLAG_TSYNC_ESRCH) ? -ESRCH
									       : pid_vnr(t, o->tid);
	}
	return 0;
}

static void tsync_apply(struct task *t, struct seccomp_filter *f)
{
	struct seccomp_filter *old;
	struct task *o;

	list_for_each_entry(o, &t->proc->threads, thread_link)
	{
		if (o == t)
			continue;
		old = o->seccomp;
		chain_get(f);
		o->seccomp = f;
		o->seccomp_mode = LINUX_SECCOMP_MODE_FILTER;
		chain_release(old);
	}
}

/* Returns 0, or with NEW_LISTENER the listener's fd (always
 * close-on-exec, as Linux's). */
static long set_mode_filter(struct task *t, unsigned flags, uint64_t uargs)
{
	struct seccomp_filter *f, *w;
	struct file *listener = NULL;
	unsigned total;
	int fd = -1;
	long ret;

	if (!filter_flags_ok(flags))
		return -EINVAL;
	ret = prepare_filter(t, flags, uargs, &f);
	if (ret < 0)
		return ret;
	if (flags & LINUX_SECCOMP_FILTER_FLAG_NEW_LISTENER) {
		ret = seccomp_listener_create(f, &listener);
		if (ret < 0) {
			free(f);
			return ret;
		}
		fd = fd_install(t->files, listener, 0, true,
				(int)t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur);
		if (fd < 0) {
			ret = fd;
			seccomp_listener_abort(f, listener);
			file_put(listener);
			free(f);
			return ret;
		}
	}
	ret = -EINVAL;
	if (!may_assign_mode(t, LINUX_SECCOMP_MODE_FILTER))
		goto fail;
	ret = -EBUSY;
	if (listener && chain_has_listener(t->seccomp))
		goto fail;
	total = f->len;
	for (w = t->seccomp; w; w = w->prev)
		total += w->len + 4;
	ret = -ENOMEM;
	if (total > MAX_INSNS_PER_PATH)
		goto fail;
	if (flags & LINUX_SECCOMP_FILTER_FLAG_TSYNC) {
		ret = tsync_check(t, flags);
		if (ret)
			goto fail;
	}
	f->prev = t->seccomp; /* takes over t's reference */
	t->seccomp = f;
	t->seccomp_mode = LINUX_SECCOMP_MODE_FILTER;
	if (flags & LINUX_SECCOMP_FILTER_FLAG_TSYNC)
		tsync_apply(t, f);
	return listener ? fd : 0;
fail:
	if (listener) {
		seccomp_listener_abort(f, listener);
		fd_close(t->files, fd);
	}
	free(f);
	return ret;
}

static long get_action_avail(struct task *t, unsigned flags, uint64_t uargs)
{
	uint32_t action;

	if (flags)
		return -EINVAL;
	if (copy_from_user(t->mm, &action, uargs, sizeof(action)) < 0)
		return -EFAULT;
	switch (action) {
	case LINUX_SECCOMP_RET_KILL_PROCESS:
	case LINUX_SECCOMP_RET_KILL_THREAD:
	case LINUX_SECCOMP_RET_TRAP:
	case LINUX_SECCOMP_RET_ERRNO:
	case LINUX_SECCOMP_RET_TRACE:
	case LINUX_SECCOMP_RET_USER_NOTIF:
	case LINUX_SECCOMP_RET_LOG:
	case LINUX_SECCOMP_RET_ALLOW:
		return 0;
	}
	return -EOPNOTSUPP;
}

static long get_notif_sizes(struct task *t, unsigned flags, uint64_t uargs)
{
	struct linux_seccomp_notif_sizes s = { 80, 24, sizeof(struct linux_seccomp_data) };

	if (flags)
		return -EINVAL;
	return copy_to_user(t->mm, uargs, &s, sizeof(s)) < 0 ? -EFAULT : 0;
}

long sys_seccomp(struct task *t, const struct sysargs *a)
{
	unsigned op = sysarg_uint(a, 0), flags = sysarg_uint(a, 1);
	uint64_t uargs = sysarg_uaddr(a, 2);

	switch (op) {
	case LINUX_SECCOMP_SET_MODE_STRICT:
		return set_mode_strict(t, flags, uargs);
	case LINUX_SECCOMP_SET_MODE_FILTER:
		return set_mode_filter(t, flags, uargs);
	case LINUX_SECCOMP_GET_ACTION_AVAIL:
		return get_action_avail(t, flags, uargs);
	case LINUX_SECCOMP_GET_NOTIF_SIZES:
		return get_notif_sizes(t, flags, uargs);
	}
	return -EINVAL;
}

long task_seccomp_prctl(struct task *t, unsigned long mode, uint64_t filter)
{
	switch (mode) {
	case LINUX_SECCOMP_MODE_STRICT:
		return set_mode_strict(t, 0, 0);
	case LINUX_SECCOMP_MODE_FILTER:
		return set_mode_filter(t, 0, filter);
	}
	return -EINVAL;
}
