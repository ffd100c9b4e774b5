/* platform/seccomp: the seccomp backend. Address spaces, batches and
 * thread creation are the ptrace backend's (ptrace/ptrace.h); what differs
 * is how a guest thread traps. Each guest thread installs its own filter
 * (STUB_GUEST_INIT) before any guest code runs: every system call becomes a
 * SECCOMP_RET_USER_NOTIF notification on the thread's listener, which the
 * kernel takes with pidfd_getfd and answers with NOTIF_SEND, so the common
 * call costs no ptrace stop and no register transfer. Calls that need the
 * registers (below) return SECCOMP_RET_TRACE instead and stop in ptrace as
 * under PTRACE_SYSEMU; a notified call whose registers the kernel wants
 * after all (a signal to deliver, a restart) is interrupted into a ptrace
 * stop. Threads run with PTRACE_CONT: faults and interrupts are ptrace
 * stops as before. No guest thread makes a host call of its own: the
 * stub's allowlist defaults to RET_TRACE, so the guest filter's
 * USER_NOTIF/TRACE wins. The one exception is the kernel's: a call whose
 * whole work is the one host op it queued, that very call, is let through
 * (let_through), which saves the control thread's round trip. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/ptrace.h>
#include <linux/seccomp.h>

#include "host/host.h"
#include "platform/platform.h"
#include "platform/ptrace/ptrace.h"
#include "stub/stub.h"

#define ERESTARTSYS 512

static int sc_epfd = -1;  /* every guest thread's listener, and sc_sigfd */
static int sc_sigfd = -1; /* SIGCHLD: a ptrace stop or an exit to reap */

/* The threads in SC_RUNNING, and the last one resumed: while it is the
 * only one, the next trap can only be its notification or a SIGCHLD, and
 * the wait needs no epoll (sc_wait). The count may be too high (a thread
 * that died running counts until put), never too low. */
static int sc_nrunning;
static struct pf_thread *sc_last;

static void set_state(struct pf_thread *th, enum sc_state state)
{
	sc_nrunning += (state == SC_RUNNING) - (th->state == SC_RUNNING);
	th->state = state;
	if (state == SC_RUNNING)
		sc_last = th;
}

/* The calls that stop in ptrace (RET_TRACE): the kernel reads or writes
 * their registers (or, for exit, lets the retired thread's exit through);
 * a signal to oneself (raise) is delivered right after its call, so it
 * saves the interrupt a notified call would need. */
static const unsigned short trace_nrs[] = {
	SYS_rt_sigreturn, SYS_clone,  SYS_fork,	      SYS_vfork, SYS_execve,
	SYS_execveat,	  SYS_clone3, SYS_arch_prctl, SYS_exit,	 SYS_sigaltstack,
	SYS_kill,	  SYS_tgkill, SYS_tkill,
};
#define NTRACE (sizeof(trace_nrs) / sizeof(trace_nrs[0]))

/* The guest threads' filter, written into the stubs' read-only payload:
 * trace_nrs stop in ptrace, everything else is a notification, another
 * architecture's calls (int 0x80) too: a notification says the arch, so a
 * trace stop is always x86-64's and its registers say all (handle_status
 * reads them once, with no PTRACE_GET_SYSCALL_INFO). */
static int write_guest_filter(void)
{
	struct sock_filter prog[NTRACE + 6];
	struct {
		unsigned short len;
		uint64_t filter;
	} *fprog = (void *)((char *)ptrace_stub_payload() + (STUB_GUEST_PROG - STUB_PAYLOAD));
	size_t i, n = 0;
	const size_t ret_notif = NTRACE + 3, ret_trace = NTRACE + 4;

	_Static_assert(sizeof(prog) + 16 <= STUB_GUEST_PROG_SIZE, "guest filter size");
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						 offsetof(struct seccomp_data, arch));
	prog[n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0,
					       ret_notif - n - 1);
	n++;
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						 offsetof(struct seccomp_data, nr));
	for (i = 0; i < NTRACE; i++, n++)
		prog[n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, trace_nrs[i],
						       ret_trace - n - 1, 0);
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE);
	if (n != ret_trace + 1)
		return -EINVAL;
	memcpy(fprog + 1, prog, n * sizeof(prog[0]));
	fprog->len = (unsigned short)n;
	fprog->filter = STUB_GUEST_PROG + sizeof(*fprog);
	return 0;
}

/* Waits for th's next ptrace stop; any stop will do. Returns the status or
 * -ESRCH if the thread died (it is then gone from the hash). */
static int wait_stop(struct pf_thread *th)
{
	int status;

	if (ptrace_wait_pid(th->tid, &status) < 0 || !WIFSTOPPED(status)) {
		ptrace_thread_hash_del(th);
		th->tid = -1;
		return -ESRCH;
	}
	return status;
}

/* A thread we took a notification from is in a ptrace stop now (its call
 * was interrupted): it looks as it would at a SYSEMU stop, the call's
 * result or -ENOSYS in rax; on resume the call is skipped. */
static int notified_to_stopped(struct pf_thread *th)
{
	if (ptrace(PTRACE_GETREGS, th->tid, 0, &th->regs) < 0)
		return -ESRCH;
	th->regs.rax = th->has_result ? (uint64_t)th->result : (uint64_t)-ENOSYS;
	th->has_result = false;
	th->regs_valid = th->regs_dirty = true;
	th->at_syscall = true;
	set_state(th, SC_STOPPED);
	th->running = false;
	th->want_stop = false;
	return 0;
}

/* Brings a notified thread into a ptrace stop (PTRACE_INTERRUPT ends its
 * wait for our answer). */
static int stop_notified(struct pf_thread *th)
{
	int status;

	if (th->tid <= 0)
		return -ESRCH;
	ptrace(PTRACE_INTERRUPT, th->tid, 0, 0);
	status = wait_stop(th);
	if (status < 0)
		return status;
	return notified_to_stopped(th);
}

static void sc_thread_put(struct pf_thread *th);

/* Runs STUB_GUEST_INIT in a new thread (its entry), to its int3. The
 * listener is then at BOX_LISTENER_FD of the thread's fd table if, and
 * only if, its seccomp call made it: fd 0 is the socket, nothing else is
 * open there (fd 1 was closed before the clone: ptrace_queue_op), and no
 * other code ran in the thread or, under a shared table, in the control
 * thread (stopped at its batch's int3) meanwhile. So the fd, not the
 * call's result, tells whether the box is on (no PEEKUSER). */
#define BOX_LISTENER_FD 1

static int box_thread(struct pf_thread *th)
{
	int status;

	if (ptrace(PTRACE_CONT, th->tid, 0, 0) < 0)
		return -ESRCH;
	for (;;) {
		status = wait_stop(th);
		if (status < 0)
			return status;
		if (WSTOPSIG(status) == SIGTRAP && status >> 16 == 0)
			return 0;
		if (ptrace(PTRACE_CONT, th->tid, 0, 0) < 0)
			return -ESRCH;
	}
}

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL /* Linux 6.9 uapi: a pidfd of one thread */
#endif

/* Whether the host has PIDFD_THREAD: then each guest thread has its own
 * fd table (NOTIF_THREAD_CLONE_FLAGS) and the kernel takes the listener
 * from there, so the stub's own table never holds it; else the thread
 * shares the control thread's and the listener is closed there in the
 * next batch (one round trip to the control thread more per thread). */
static bool sc_own_files;

/* The kernel's copy of th's listener, from the thread's table (own) or
 * the stub's. */
static int fetch_listener(struct pf_thread *th)
{
	int pidfd, fd;

	if (sc_own_files)
		pidfd = (int)syscall(SYS_pidfd_open, th->tid, PIDFD_THREAD);
	else
		pidfd = (int)syscall(SYS_pidfd_open, th->mm->ctl_pid, 0);
	if (pidfd < 0)
		return -errno;
	fd = (int)syscall(SYS_pidfd_getfd, pidfd, BOX_LISTENER_FD, 0);
	if (fd < 0)
		fd = -errno;
	close(pidfd);
	return fd;
}

static void free_thread(struct pf_thread *th)
{
	set_state(th, SC_STOPPED);
	if (sc_last == th)
		sc_last = NULL;
	if (th->listener >= 0) {
		epoll_ctl(sc_epfd, EPOLL_CTL_DEL, th->listener, NULL);
		close(th->listener);
	}
	ptrace_sr_slot_put(th);
	free(th);
}

/* A spare (ptrace.c) keeps its filter and listener; only a thread in a
 * ptrace stop is one. */
static bool park_spare(struct pf_thread *th)
{
	if (th->state != SC_STOPPED || !ptrace_spare_park(th))
		return false;
	if (sc_last == th)
		sc_last = NULL;
	return true;
}

static int sc_thread_new(struct pf_mm *mm, void *owner, struct pf_thread **out)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct pf_thread *th;
	int ret;

	th = ptrace_spare_take(mm, owner);
	if (th) {
		mm->sc_threads++;
		*out = th;
		return 0;
	}
	ret = ptrace_thread_create(mm, owner, STUB_GUEST_INIT,
				   sc_own_files ? NOTIF_THREAD_CLONE_FLAGS : THREAD_CLONE_FLAGS,
				   &th);
	if (ret < 0)
		return ret;
	mm->sc_threads++; /* sc_thread_put counts it off, on failure too */
	th->listener = -1;
	set_state(th, SC_STOPPED);
	ret = box_thread(th);
	if (ret < 0)
		goto fail;
	ret = fetch_listener(th);
	/* A shared table keeps no fd but the socket: the close runs with
	 * the next batch, before this thread (or any other) runs guest code
	 * again. close_range, not close: no failing op if the box made none. */
	if (!sc_own_files)
		ptrace_queue_op(mm, SYS_close_range, BOX_LISTENER_FD, BOX_LISTENER_FD, 0, 0, 0, 0);
	if (ret < 0)
		goto fail;
	th->listener = ret;
	ev.data.ptr = th;
	if (epoll_ctl(sc_epfd, EPOLL_CTL_ADD, th->listener, &ev) < 0) {
		ret = -errno;
		goto fail;
	}
	*out = th;
	return 0;
fail:
	sc_thread_put(th);
	return ret;
}

/* A retired thread leaves by running exit(0) at STUB_EXIT_THREAD, the one
 * host call a guest thread is let make (a host SIGKILL would take the whole
 * stub); its listener is closed only once it can no longer run guest code. */
static void sc_thread_put(struct pf_thread *th)
{
	int status;

	if (!th)
		return;
	th->mm->sc_threads--;
	if (park_spare(th))
		return;
	ptrace_thread_hash_del(th);
	/* A doomed stub dies first: closing the listener of a thread blocked
	 * in a notification would let it run on (every call -ENOSYS). */
	if (th->mm->doomed)
		ptrace_stub_kill(th->mm);
	if (th->tid <= 0 || th->mm->dead || th->mm->doomed)
		goto out;
	if (th->state == SC_RUNNING || th->state == SC_NOTIFIED) {
		ptrace(PTRACE_INTERRUPT, th->tid, 0, 0);
		if (wait_stop(th) < 0)
			goto out;
	}
	if (ptrace(PTRACE_POKEUSER, th->tid, offsetof(struct user_regs_struct, orig_rax), -1) < 0 ||
	    ptrace(PTRACE_POKEUSER, th->tid, offsetof(struct user_regs_struct, rip),
		   STUB_EXIT_THREAD) < 0 ||
	    ptrace(PTRACE_CONT, th->tid, 0, 0) < 0)
		goto out;
	for (;;) {
		status = wait_stop(th);
		if (status < 0)
			goto out;
		if (status >> 16 == PTRACE_EVENT_SECCOMP) {
			long nr = ptrace(PTRACE_PEEKUSER, th->tid,
					 offsetof(struct user_regs_struct, orig_rax), 0);

			if (nr != SYS_exit) {
				/* Not our exit: the stub is not what we think. */
				ptrace_stub_kill(th->mm);
				goto out;
			}
			ptrace(PTRACE_CONT, th->tid, 0, 0);
			break;
		}
		if (ptrace(PTRACE_CONT, th->tid, 0, 0) < 0)
			goto out;
	}
out:
	free_thread(th);
}

static int sc_get_regs(struct pf_thread *th, struct pf_regs *regs)
{
	if (th->state == SC_NOTIFIED) {
		int ret = stop_notified(th);

		if (ret < 0)
			return ret;
	}
	if (th->state != SC_STOPPED)
		return -ESRCH;
	if (!th->regs_valid) {
		if (ptrace(PTRACE_GETREGS, th->tid, 0, &th->regs) < 0)
			return -ESRCH;
		th->regs_valid = true;
		if (th->has_result) {
			th->regs.rax = th->result;
			th->has_result = false;
			th->regs_dirty = true;
		}
	}
	*regs = th->regs;
	return 0;
}

/* The FPU state is the ptrace backend's, from a ptrace stop. */
static long sc_fpu_get(struct pf_thread *th, void *buf, size_t size)
{
	if (th->state == SC_NOTIFIED && stop_notified(th) < 0)
		return -ESRCH;
	return ptrace_fpu_get(th, buf, size);
}

static int sc_fpu_set(struct pf_thread *th, const void *buf, size_t size)
{
	if (th->state == SC_NOTIFIED && stop_notified(th) < 0)
		return -ESRCH;
	return ptrace_fpu_set(th, buf, size);
}

static int sc_debugreg(struct pf_thread *th, int n, uint64_t *val, bool write)
{
	if (th->state == SC_NOTIFIED && stop_notified(th) < 0)
		return -ESRCH;
	return ptrace_debugreg(th, n, val, write);
}

static int sc_debugreg_clear(struct pf_thread *th)
{
	if (th->state == SC_NOTIFIED && stop_notified(th) < 0)
		return -ESRCH;
	return ptrace_debugreg_clear(th);
}

static int sc_thread_new_fpu(struct pf_mm *mm, void *owner, struct pf_thread *src,
			     struct pf_thread **out)
{
	int ret;

	if (src->state == SC_NOTIFIED && stop_notified(src) < 0)
		return -ESRCH;
	if (mm->spares) {
		ret = ptrace_spare_take_fpu(mm, owner, src, out);
		if (ret == 0)
			mm->sc_threads++;
		return ret;
	}
	ret = ptrace_prime_fpu(mm, src);
	return ret < 0 ? ret : sc_thread_new(mm, owner, out);
}

static int sc_copy_fpu(struct pf_thread *dst, struct pf_thread *src)
{
	if ((src->state == SC_NOTIFIED && stop_notified(src) < 0) ||
	    (dst->state == SC_NOTIFIED && stop_notified(dst) < 0))
		return -ESRCH;
	return ptrace_copy_fpu(dst, src);
}

static int sc_set_regs(struct pf_thread *th, const struct pf_regs *regs)
{
	if (th->state == SC_NOTIFIED && stop_notified(th) < 0)
		return -ESRCH;
	return ptrace_set_regs(th, regs);
}

static int sc_exec_regs(struct pf_thread *th, const struct pf_regs *regs)
{
	struct pf_regs r;
	int ret = ptrace_exec_regs_prep(regs, &r);

	return ret < 0 ? ret : sc_set_regs(th, &r);
}

static int sc_handler_regs(struct pf_thread *th, const struct pf_regs *regs)
{
	struct pf_regs r;
	int ret = ptrace_fpu_stub_prep(regs, STUB_SIG_START, &r);

	return ret < 0 ? ret : sc_set_regs(th, &r);
}

static int sc_sigreturn_regs(struct pf_thread *th, const struct pf_regs *regs)
{
	struct pf_regs r;
	int ret = ptrace_fpu_stub_prep(regs, STUB_SIGRET, &r);

	return ret < 0 ? ret : sc_set_regs(th, &r);
}

/* Answers the notification (through: lets the call run on the host, as
 * let_through says); 1 if the thread's wait was interrupted under us (it
 * is then in a ptrace stop), 0 if it runs, -ESRCH if it is gone. */
static int answer(struct pf_thread *th, bool through)
{
	struct seccomp_notif_resp resp;
	int r;

	memset(&resp, 0, sizeof(resp));
	resp.id = th->notif_id;
	if (through)
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	else
		resp.val = th->has_result ? th->result : -ENOSYS;
	/* EINTR: a SIGCHLD (unblocked to wait_one's handler) while the
	 * listener's lock was contended; the answer has not been given. */
	while ((r = ioctl(th->listener, SECCOMP_IOCTL_NOTIF_SEND, &resp)) < 0 && errno == EINTR)
		;
	if (r == 0) {
		th->has_result = false;
		set_state(th, SC_RUNNING);
		th->running = true;
		return 0;
	}
	if (errno != ENOENT)
		return -ESRCH;
	if (wait_stop(th) < 0)
		return -ESRCH;
	return notified_to_stopped(th) < 0 ? -ESRCH : 1;
}

/* Whether th's notified call may run on the host as it is, in place of
 * the batch queued for it: the call succeeded (0), and its whole work is
 * the one op queued in th's address space, that very call (munmap or
 * mprotect with the same arguments: the guest's registers, which nothing
 * changes while it waits). The host's call then does in th what the
 * control thread would have, before th runs guest code again, and
 * returns what we would have (0), saving the doorbell's round trip: two
 * host context switches and two host calls. Only for th alone in its
 * address space: no other guest thread of it may trap and have ops run
 * before th's own has (a munmap done after the map that reused its
 * place). Calls with an fd, a clone or more to do take the batch. */
static bool let_through(const struct pf_thread *th)
{
	const struct pf_mm *mm = th->mm;
	const struct stub_op *op = &mm->ops[0];
	int nargs;

	if (!th->has_result || th->result != 0 || mm->nops != 1 || mm->nfds || mm->fd1_of ||
	    mm->boot_page || mm->dead || mm->sc_threads != 1 || op->nr != th->notif_nr)
		return false;
	if (op->nr == SYS_munmap)
		nargs = 2;
	else if (op->nr == SYS_mprotect)
		nargs = 3;
	else
		return false;
	return memcmp(op->arg, th->notif_args, nargs * sizeof(op->arg[0])) == 0;
}

static int sc_resume(struct pf_thread *th)
{
	int ret;

	if (th->tid <= 0)
		return -ESRCH;
	if (th->state == SC_NOTIFIED && let_through(th)) {
		ret = answer(th, true);
		if (ret == 0)
			th->mm->nops = 0; /* the thread runs it */
		if (ret <= 0)
			return ret;
		/* Interrupted: a ptrace stop, which skips the call; the op
		 * runs in the batch, as any other. */
	}
	if (ptrace_flush_queued(th->mm) == -ESRCH)
		return -ESRCH;
	if (th->state == SC_NOTIFIED) {
		ret = answer(th, false);
		if (ret <= 0)
			return ret;
	}
	if (th->state != SC_STOPPED)
		return -ESRCH;
	/* At a call's entry (a trace stop, or an interrupted notification),
	 * orig_rax = -1 skips the call: it never reaches the host. */
	if (th->regs_dirty) {
		if (th->at_syscall)
			th->regs.orig_rax = (uint64_t)-1;
		if (ptrace(PTRACE_SETREGS, th->tid, 0, &th->regs) < 0)
			return -ESRCH;
	} else {
		if (th->at_syscall && ptrace(PTRACE_POKEUSER, th->tid,
					     offsetof(struct user_regs_struct, orig_rax), -1) < 0)
			return -ESRCH;
		if (th->has_result &&
		    ptrace(PTRACE_POKEUSER, th->tid, offsetof(struct user_regs_struct, rax),
			   th->result) < 0)
			return -ESRCH;
	}
	th->regs_valid = th->regs_dirty = th->has_result = th->at_syscall = false;
	if (ptrace(PTRACE_CONT, th->tid, 0, 0) < 0)
		return -ESRCH;
	set_state(th, SC_RUNNING);
	th->running = true;
	return 0;
}

static int sc_interrupt(struct pf_thread *th)
{
	if (th->state != SC_RUNNING || th->want_stop)
		return 0;
	th->want_stop = true;
	return ptrace(PTRACE_INTERRUPT, th->tid, 0, 0) < 0 ? -ESRCH : 0;
}

/* An interrupt stop of a thread whose call was cut short before we took
 * it: make it look interrupted just before the syscall instruction. */
static void unwind_cancelled_call(struct pf_thread *th)
{
	if (ptrace(PTRACE_GETREGS, th->tid, 0, &th->regs) < 0)
		return;
	th->regs_valid = true;
	if ((int64_t)th->regs.orig_rax >= 0 && th->regs.rax == (uint64_t)-ERESTARTSYS) {
		th->regs.rax = th->regs.orig_rax;
		th->regs.orig_rax = (uint64_t)-1;
		th->regs.rip -= 2;
		th->regs_dirty = true;
	}
}

static void handle_status(int tid, int status, pf_event_fn fn)
{
	struct pf_thread *th = ptrace_thread_lookup(tid);
	struct pf_event ev;

	if (!th) {
		if (!WIFSTOPPED(status))
			ptrace_mm_reaped(tid);
		else if (status >> 16 == PTRACE_EVENT_SECCOMP)
			kill(tid, SIGKILL); /* a control thread's call off its allowlist */
		else
			ptrace_stray_stop(tid, status);
		return;
	}
	if (th->spare) {
		/* A spare stays in its stop: only its end is news. */
		if (!WIFSTOPPED(status))
			ptrace_spare_drop(th);
		return;
	}
	memset(&ev, 0, sizeof(ev));
	if (!WIFSTOPPED(status)) {
		ptrace_thread_hash_del(th);
		th->tid = -1;
		th->running = false;
		ev.kind = PF_EV_GONE;
		fn(th->owner, &ev);
		return;
	}
	if (th->state == SC_NOTIFIED) {
		/* Our interrupt cut its wait for the answer short: the kernel
		 * is still handling the call. */
		notified_to_stopped(th);
		return;
	}
	set_state(th, SC_STOPPED);
	th->running = false;
	if (status >> 16 == PTRACE_EVENT_SECCOMP) {
		/* Only x86-64 calls stop here (write_guest_filter): the
		 * registers are the call, and most traced calls need them
		 * anyway (rt_sigreturn, clone, a signal to oneself). */
		struct pf_regs *r = &th->regs;

		th->at_syscall = true;
		th->regs_dirty = th->has_result = false;
		if (ptrace(PTRACE_GETREGS, tid, 0, r) < 0) {
			/* Skipped with -ENOSYS rather than let through. */
			ptrace_set_result(th, -ENOSYS);
			if (sc_resume(th) < 0)
				ptrace_stub_kill(th->mm);
			return;
		}
		th->regs_valid = true;
		ev.kind = PF_EV_SYSCALL;
		ev.nr = r->orig_rax; /* dispatch looks at the low 32 bits */
		ev.args[0] = r->rdi;
		ev.args[1] = r->rsi;
		ev.args[2] = r->rdx;
		ev.args[3] = r->r10;
		ev.args[4] = r->r8;
		ev.args[5] = r->r9;
		ev.ip = r->rip;
		ev.sp = r->rsp;
		fn(th->owner, &ev);
		return;
	}
	if (status >> 16 == PTRACE_EVENT_STOP && th->want_stop) {
		th->want_stop = false;
		unwind_cancelled_call(th);
		ev.kind = PF_EV_INTERRUPT;
		fn(th->owner, &ev);
		return;
	}
	if (status >> 16 != 0) {
		/* A stray interrupt or group stop: not the guest's. */
		if (ptrace(PTRACE_CONT, tid, 0, 0) == 0) {
			set_state(th, SC_RUNNING);
			th->running = true;
		}
		return;
	}
	ptrace_signal_event(th, status, &ev);
	fn(th->owner, &ev);
}

/* th's notification req, received: the event. */
static void notified(struct pf_thread *th, const struct seccomp_notif *req, pf_event_fn fn)
{
	struct pf_event ev;

	set_state(th, SC_NOTIFIED);
	th->running = false;
	th->notif_id = req->id;
	th->notif_nr = req->data.arch == AUDIT_ARCH_X86_64 ? req->data.nr : -1;
	memcpy(th->notif_args, req->data.args, sizeof(th->notif_args));
	th->regs_valid = th->regs_dirty = th->has_result = th->at_syscall = false;
	memset(&ev, 0, sizeof(ev));
	ev.kind = PF_EV_SYSCALL;
	ev.nr = req->data.nr;
	ev.compat = req->data.arch != AUDIT_ARCH_X86_64;
	memcpy(ev.args, req->data.args, sizeof(ev.args));
	ev.ip = req->data.instruction_pointer;
	fn(th->owner, &ev);
}

/* Takes th's pending notification, if it still is. */
static int take_notification(struct pf_thread *th, pf_event_fn fn)
{
	struct seccomp_notif req;

	if (th->state != SC_RUNNING)
		return 0;
	memset(&req, 0, sizeof(req));
	if (ioctl(th->listener, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0)
		return 0; /* ENOENT: interrupted meanwhile */
	notified(th, &req, fn);
	return 1;
}

/* Reaps what a SIGCHLD announced: every stop and exit since. */
static int reap(pf_event_fn fn)
{
	int tid, status, n = 0;

	while ((tid = waitpid(-1, &status, __WALL | WNOHANG)) > 0) {
		handle_status(tid, status, fn);
		n++;
	}
	return n;
}

/* What an epoll wait on sc_epfd returned: SIGCHLD first, then reap (a stop
 * after the reaping raises it again); then the notifications. Without a
 * SIGCHLD (here or in the event loop) there is nothing to reap, and the
 * common call saves a wait4. */
static int sc_events(const struct epoll_event *evs, int k, pf_event_fn fn)
{
	int i, n = 0;
	bool sigchld = false;

	for (i = 0; i < k; i++)
		if (evs[i].data.ptr == NULL)
			sigchld = true;
	if (ptrace_sigchld(sc_sigfd, sigchld) || sigchld)
		n += reap(fn);
	for (i = 0; i < k; i++) {
		struct pf_thread *th = evs[i].data.ptr;

		if (th && (evs[i].events & EPOLLIN) && ptrace_thread_lookup(th->tid) == th)
			n += take_notification(th, fn);
	}
	return n;
}

static int sc_poll(pf_event_fn fn)
{
	struct epoll_event evs[32];
	int k = epoll_wait(sc_epfd, evs, 32, 0);

	return sc_events(evs, k < 0 ? 0 : k, fn);
}

/* The wait when one thread runs: its notification or a SIGCHLD (its
 * ptrace stop or exit, or another stub's end) is all that can come, and
 * the wait is NOTIF_RECV itself, SIGCHLD unblocked to end it, one host
 * call per trap fewer than an epoll wait and the RECV after it. Returns
 * 1 with the event taken, 0 if the idle loop should look again (a SIGCHLD
 * counted, a host signal), -1 if the epoll wait should run. */
static int wait_one(struct pf_thread *th, pf_event_fn fn)
{
	struct seccomp_notif req;
	unsigned seen;
	long r;

	if (host_sigchld_unblock() < 0)
		return -1;
	seen = host_wake_seen();
	if (ptrace_sigchld(sc_sigfd, false))
		return reap(fn) > 0 ? 1 : 0;
	memset(&req, 0, sizeof(req));
	if (host_signals_pending())
		return 0;
	r = host_ioctl_unless(th->listener, SECCOMP_IOCTL_NOTIF_RECV, &req, seen);
	if (r == 0) {
		notified(th, &req, fn);
		return 1;
	}
	return r == -EINTR ? 0 : -1;
}

/* timeout_ns: -1 for none (then the lone thread's wait may be its RECV). */
static int sc_wait_for(pf_event_fn fn, int64_t timeout_ns)
{
	struct epoll_event evs[32];
	struct pf_thread *th = sc_last;
	int k, n;

	if (timeout_ns < 0 && sc_nrunning == 1 && th && th->state == SC_RUNNING && th->tid > 0) {
		n = wait_one(th, fn);
		if (n >= 0)
			return n;
	}
	/* SIGCHLD back to the signalfd, in the epoll set. */
	host_sigchld_block();
	for (;;) {
		unsigned seen = host_wake_seen();

		/* A SIGCHLD the event loop or the handler took shows only in
		 * its count; the wait returns at once if a listener or
		 * sc_sigfd is ready, and its events are the look: no
		 * epoll_wait(0) before or after. */
		if (ptrace_sigchld(sc_sigfd, false)) {
			n = reap(fn);
			if (n > 0)
				return n;
		}
		/* A host signal to skas (EINTR) ends the wait: the idle loop
		 * passes it on. */
		if (host_signals_pending())
			return 0;
		k = (int)host_epoll_wait_unless(sc_epfd, evs, 32, timeout_ns, seen);
		if (k < 0)
			return k == -EINTR ? 0 : k;
		n = sc_events(evs, k, fn);
		/* With a timeout, events that delivered nothing end the wait
		 * too: the idle loop counts the time left afresh (a timer is
		 * never put off by readiness that brings no trap). */
		if (n > 0 || k == 0 || timeout_ns >= 0)
			return n;
	}
}

static int sc_wait(pf_event_fn fn)
{
	return sc_wait_for(fn, -1);
}

/* The host must have what the backend uses: USER_NOTIF (5.0) and
 * pidfd_getfd (5.6). */
static int sc_probe(void)
{
	unsigned int action = SECCOMP_RET_USER_NOTIF;
	int pidfd, fd;

	if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) < 0)
		return -ENOSYS;
	pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (pidfd < 0)
		return -ENOSYS;
	fd = (int)syscall(SYS_pidfd_getfd, pidfd, pidfd, 0);
	close(pidfd);
	if (fd < 0)
		return -ENOSYS;
	close(fd);
	pidfd = (int)syscall(SYS_pidfd_open, gettid(), PIDFD_THREAD);
	sc_own_files = pidfd >= 0;
	if (pidfd >= 0)
		close(pidfd);
	return 0;
}

static int sc_init(void)
{
	int ret;

	ret = sc_probe();
	if (ret < 0)
		return ret;
	ptrace_spares_init(free_thread);
	ret = ptrace_stubs_init(STUB_MODE_NOTIF, -1, -1);
	if (ret < 0)
		return ret;
	ret = write_guest_filter();
	if (ret < 0)
		return ret;
	ret = ptrace_event_fds(&sc_epfd, &sc_sigfd);
	if (ret < 0)
		return ret;
	return host_evloop_watch_platform(sc_epfd);
}

const struct platform_ops platform_seccomp = {
	.name = "seccomp",
	.probe = sc_probe,
	.init = sc_init,
	PTRACE_STUB_OPS,
	.thread_new = sc_thread_new,
	.thread_put = sc_thread_put,
	.thread_reused = ptrace_thread_reused,
	.get_regs = sc_get_regs,
	.set_regs = sc_set_regs,
	.exec_regs = sc_exec_regs,
	.handler_regs = sc_handler_regs,
	.sigreturn_regs = sc_sigreturn_regs,
	.sigreturn_slots = ptrace_sigreturn_slots,
	.set_result = ptrace_set_result,
	.resume = sc_resume,
	.interrupt = sc_interrupt,
	.thread_new_fpu = sc_thread_new_fpu,
	.copy_fpu = sc_copy_fpu,
	.fpu_get = sc_fpu_get,
	.fpu_set = sc_fpu_set,
	.debugreg = sc_debugreg,
	.debugreg_clear = sc_debugreg_clear,
	.poll = sc_poll,
	.wait = sc_wait,
	.wait_for = sc_wait_for,
};
