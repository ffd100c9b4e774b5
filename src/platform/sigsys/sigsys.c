/* platform/sigsys: the SIGSYS backend. Address spaces and batches are the
 * ptrace backend's (ptrace/ptrace.h); guest threads are not traced at all.
 * Each runs under a filter that makes every system call a SIGSYS (but the
 * few the stub's own code makes, each from its one address), and the
 * stub's handler takes SIGSYS, the faults and the kernel's interrupt
 * signal on the thread's slot: a page of mailbox and signal stack that the
 * kernel maps too (stub.h). The handler posts the signal's frame, spins a
 * few µs for the answer, then sleeps on the mailbox word; the kernel reads
 * and edits the registers and the FPU state in the frame in place, and
 * the handler returns to them with rt_sigreturn. While guest code runs the
 * idle kernel spins on the mailboxes before it sleeps; asleep, it is woken
 * by the eventfd every stub holds. A trap then costs no host context
 * switch when the kernel and the thread are on different CPUs: guest
 * threads may run on every CPU, while the kernel and the stubs' control
 * threads stay on the kernel's.
 *
 * Measured (bench/, 2 vCPUs): getppid 2.6-3.3 µs against 6 under the
 * seccomp backend, signals 4x faster; but fork+exit and the busybox loop
 * are slower (a sleeping handler's wakeup often crosses CPUs, 30-100 µs
 * on these VMs), so seccomp stays the default.
 *
 * Unlike the other backends, a guest thread can make a few host calls:
 * those of the stub's own code (write_guest_filter says which and what
 * they can reach: nothing beyond the thread itself and its stub).
 * Everything in a slot is written by guest-writable memory: the kernel
 * copies what it reads and checks every pointer against the slot. A guest
 * that forges its own frame or signal stack harms only itself (the host
 * checks the frame at rt_sigreturn; a handler off its slot kills the
 * stub). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <asm/prctl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/ptrace.h>
#include <linux/seccomp.h>

#include "abi/linux/signal.h"
#include "host/host.h"
#include "platform/platform.h"
#include "platform/ptrace/ptrace.h"
#include "platform/sigsys/hwbp.h"
#include "stub/stub.h"

#ifndef HWCAP2_FSGSBASE
#define HWCAP2_FSGSBASE (1 << 1)
#endif

/* How long the idle kernel looks at the mailboxes of running threads
 * before it sleeps: adaptive, between MIN and MAX (a spin that found a
 * trap doubles the next, one that did not halves it: threads that compute
 * for long cost the kernel's CPU little), and how long a handler looks at
 * its own before it sleeps. While fewer guest threads run than skas has
 * CPUs, one is spare for the kernel and its spin may grow to SPARE: a
 * thread that calls every few hundred microseconds (a compiler) then finds
 * the kernel awake on the other CPU, instead of waking it across CPUs
 * (30-100 us on a VM) for every call. */
#define KERNEL_SPIN_MIN_NS   4000
#define KERNEL_SPIN_MAX_NS   64000
#define KERNEL_SPIN_SPARE_NS 1000000
#define SPIN_YIELD_NS	     20000
#define HANDLER_SPIN_NS	     20000
/* How often the sleeping kernel looks whether a running thread has left
 * (exited() has no wakeup of its own). */
#define WATCHDOG_MS 100
/* A thread that has not trapped this long after an interrupt has blocked
 * the signal (a forged sigreturn can): its stub dies. */
#define DEAF_NS 1000000000LL

static int sg_epfd = -1;	   /* the eventfd and sg_sigfd */
static int sg_sigfd = -1;	   /* SIGCHLD: a control thread's stop or exit */
static bool sigchld_ready;	   /* sg_wait's epoll saw sg_sigfd ready */
static int64_t last_sigfd_ns;	   /* the last read of sg_sigfd */
static int sg_evfd = -1;	   /* a stub's handler wakes the sleeping kernel */
static volatile uint32_t *g_sleep; /* the kernel's view of STUB_G_SLEEP */
static bool armed;		   /* g_sleep is set */
static int64_t spin_ns = KERNEL_SPIN_MAX_NS;
static int host_cpus = 1;	/* the CPUs guest threads may run on */
static bool sg_fsgs;		/* the host has FSGSBASE (sg_probe) */
static LIST_HEAD_DECL(running); /* threads running guest code */
static LIST_HEAD_DECL(threads); /* every thread */

static uint32_t *state_word(struct pf_thread *th)
{
	return (uint32_t *)(th->box + STUB_SLOT_STATE);
}

/* The kernel's view of mm's slot i: its slots follow the ops page. */
static char *slot_box(struct pf_mm *mm, int i)
{
	return (char *)mm->page + STUB_OPS_SIZE + (size_t)i * STUB_SLOT_SIZE;
}

static uint64_t slot_addr(int slot)
{
	return STUB_SLOTS + (uint64_t)slot * STUB_SLOT_SIZE;
}

/* The guest threads' filter, in the stubs' read-only payload: the stub's
 * own calls (stub.h STUB_SYS_*) pass from their own instruction and with
 * their own arguments only (the allowlist checks them again); any other
 * call of any architecture is a SIGSYS. So all a guest thread can reach
 * by running stub code is what the handler does: return from a signal
 * (its own registers and mask), wait on its stub's slots, wake the kernel
 * (a spurious wakeup), or end its own host thread (the kernel sees it
 * gone). */
struct own_check {
	unsigned off;	/* in struct seccomp_data, a 32-bit word */
	uint32_t mask;	/* 0: all bits */
	uint32_t value; /* after the mask */
};

#define LO(v)  ((uint32_t)(uint64_t)(v))
#define HI(v)  ((uint32_t)((uint64_t)(v) >> 32))
#define ARG(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#define IP     offsetof(struct seccomp_data, instruction_pointer)
#define CHECK64(o, v)             \
	{ (o), 0, LO(v) },        \
	{                         \
		(o) + 4, 0, HI(v) \
	}
#define MAX_CHECKS 10

struct own_call {
	unsigned nr;
	int nchecks;
	struct own_check check[MAX_CHECKS];
};

#define NOWN 6

static int write_guest_filter(void)
{
	/* Addresses in the stub's place, chosen at start (stub_place). */
	const struct own_call own_calls[NOWN] = {
		{ SYS_write,
		  8,
		  { CHECK64(IP, STUB_SYS_WAKE + 2), CHECK64(ARG(0), STUB_WAKE_FD),
		    CHECK64(ARG(1), STUB_G_ONE), CHECK64(ARG(2), 8) } },
		{ SYS_futex,
		  8,
		  { CHECK64(IP, STUB_SYS_WAIT + 2),
		    { ARG(0), ~0x3fffffU, LO(STUB_SLOTS) & ~0x3fffffU },
		    { ARG(0) + 4, 0, HI(STUB_SLOTS) },
		    CHECK64(ARG(1), FUTEX_WAIT),
		    CHECK64(ARG(3), 0) } },
		{ SYS_rt_sigreturn, 2, { CHECK64(IP, STUB_SYS_RETURN + 2) } },
		{ SYS_exit, 2, { CHECK64(IP, STUB_SYS_EXIT + 2) } },
		/* without FSGSBASE only (nown stops short of these) */
		{ SYS_arch_prctl,
		  4,
		  { CHECK64(IP, STUB_SYS_ARCH_PRCTL + 2), CHECK64(ARG(0), ARCH_SET_FS) } },
		{ SYS_arch_prctl,
		  4,
		  { CHECK64(IP, STUB_SYS_ARCH_PRCTL + 2), CHECK64(ARG(0), ARCH_SET_GS) } },
	};
	size_t nown = sg_fsgs ? NOWN - 2 : NOWN;
	/* per call: its test, two or three instructions per check, ALLOW */
	struct sock_filter prog[4 + NOWN * (2 + 3 * MAX_CHECKS)];
	struct {
		unsigned short len;
		uint64_t filter;
	} *fprog = (void *)((char *)ptrace_stub_payload() + (STUB_GUEST_PROG - STUB_PAYLOAD));
	size_t i, n = 0, arch_test;
	int c;

	_Static_assert(sizeof(prog) + 16 <= STUB_GUEST_PROG_SIZE, "guest filter size");
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						 offsetof(struct seccomp_data, arch));
	arch_test = n;
	prog[n++] =
		(struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 0);
	for (i = 0; i < nown; i++) {
		size_t fails[MAX_CHECKS + 1];
		int nfails = 0;

		prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
							 offsetof(struct seccomp_data, nr));
		fails[nfails++] = n;
		prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, own_calls[i].nr,
							 0, 0);
		for (c = 0; c < own_calls[i].nchecks; c++) {
			const struct own_check *k = &own_calls[i].check[c];

			prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, k->off);
			if (k->mask)
				prog[n++] = (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K,
									 k->mask);
			fails[nfails++] = n;
			prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
								 k->value, 0, 0);
		}
		prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
		/* Another number, or a failed check: the next call's test (a
		 * call may have more than one entry: arch_prctl), at n. */
		for (c = 0; c < nfails; c++)
			prog[fails[c]].jf = (uint8_t)(n - fails[c] - 1);
	}
	prog[arch_test].jf = (uint8_t)(n - arch_test - 1); /* another architecture: the trap */
	prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
	memcpy(fprog + 1, prog, n * sizeof(prog[0]));
	fprog->len = (unsigned short)n;
	fprog->filter = STUB_GUEST_PROG + sizeof(*fprog);
	return 0;
}

/* The kernel's view of [uaddr, uaddr + len) if it lies in th's signal
 * stack, else NULL. */
static char *in_slot(struct pf_thread *th, uint64_t uaddr, size_t len)
{
	uint64_t lo = slot_addr(th->slot) + STUB_SLOT_STACK,
		 hi = slot_addr(th->slot) + STUB_SLOT_SIZE;

	if (uaddr < lo || uaddr > hi || len > hi - uaddr)
		return NULL;
	return th->box + (uaddr - slot_addr(th->slot));
}

static struct linux_sigcontext *frame_sc(struct pf_thread *th)
{
	return &((struct linux_ucontext *)th->frame_uc)->uc_mcontext;
}

static void regs_from_frame(struct pf_thread *th, const struct linux_sigcontext *sc, uint64_t orig)
{
	struct pf_regs *r = &th->regs;

	memset(r, 0, sizeof(*r));
	r->r8 = sc->r8, r->r9 = sc->r9, r->r10 = sc->r10, r->r11 = sc->r11;
	r->r12 = sc->r12, r->r13 = sc->r13, r->r14 = sc->r14, r->r15 = sc->r15;
	r->rdi = sc->rdi, r->rsi = sc->rsi, r->rbp = sc->rbp, r->rbx = sc->rbx;
	r->rdx = sc->rdx, r->rax = sc->rax, r->rcx = sc->rcx, r->rsp = sc->rsp;
	r->rip = sc->rip, r->eflags = sc->eflags;
	r->cs = sc->cs, r->ss = sc->ss;
	r->orig_rax = orig;
	r->fs_base = th->trap_fs;
	r->gs_base = th->trap_gs;
	th->regs_valid = true;
	th->regs_dirty = false;
}

static void regs_to_frame(struct pf_thread *th)
{
	struct linux_sigcontext *sc = frame_sc(th);
	const struct pf_regs *r = &th->regs;
	uint32_t set = 0;

	sc->r8 = r->r8, sc->r9 = r->r9, sc->r10 = r->r10, sc->r11 = r->r11;
	sc->r12 = r->r12, sc->r13 = r->r13, sc->r14 = r->r14, sc->r15 = r->r15;
	sc->rdi = r->rdi, sc->rsi = r->rsi, sc->rbp = r->rbp, sc->rbx = r->rbx;
	sc->rdx = r->rdx, sc->rax = r->rax, sc->rcx = r->rcx, sc->rsp = r->rsp;
	sc->rip = r->rip, sc->eflags = r->eflags;
	sc->cs = (uint16_t)r->cs, sc->ss = (uint16_t)r->ss;
	if (r->fs_base != th->trap_fs) {
		memcpy(th->box + STUB_SLOT_SETFS, &r->fs_base, 8);
		set |= 1;
	}
	if (r->gs_base != th->trap_gs) {
		memcpy(th->box + STUB_SLOT_SETGS, &r->gs_base, 8);
		set |= 2;
	}
	memcpy(th->box + STUB_SLOT_SET, &set, 4);
	/* Without FSGSBASE the handler's arch_prctl makes them so. */
	if (!sg_fsgs) {
		th->trap_fs = r->fs_base;
		th->trap_gs = r->gs_base;
	}
}

/* The kernel is done with th's frame: the handler, spinning or asleep,
 * returns to it. */
static void hand_back(struct pf_thread *th)
{
	/* All waiters: the slots are in a pooled ops page, and a thread of a
	 * stub killed a moment ago may still wait on this word, ahead of the
	 * thread the answer is for. */
	if (__atomic_exchange_n(state_word(th), STUB_SLOT_ANSWER, __ATOMIC_SEQ_CST) ==
	    STUB_SLOT_SLEEP)
		syscall(SYS_futex, state_word(th), FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* Hands the frame back with the registers the kernel set. */
static void answer(struct pf_thread *th)
{
	if (th->regs_dirty)
		regs_to_frame(th);
	else
		memset(th->box + STUB_SLOT_SET, 0, 4);
	th->regs_valid = th->regs_dirty = false;
	th->running = true;
	list_add_tail(&th->run_link, &running);
	hand_back(th);
}

static bool sig_is_fault(int signo, int code)
{
	switch (signo) {
	case SIGSEGV:
	case SIGBUS:
	case SIGILL:
	case SIGFPE:
	case SIGTRAP:
		return code > 0;
	default:
		return false;
	}
}

/* A posted trap of th (taken off the running list): its event in *ev.
 * Returns 1 with an event, 0 if the trap was ours alone (a late
 * interrupt: answered at once), -1 if the slot is not a frame the handler
 * could have written (the guest wrote it: the stub dies). */
static int take(struct pf_thread *th, struct pf_event *ev)
{
	struct linux_ucontext uc;
	siginfo_t si;
	uint64_t uc_addr, info_addr;
	uint32_t signo;
	char *ucp, *infop;

	list_del(&th->run_link);
	th->running = false;
	memcpy(&signo, th->box + STUB_SLOT_SIGNO, 4);
	memcpy(&uc_addr, th->box + STUB_SLOT_UC, 8);
	memcpy(&info_addr, th->box + STUB_SLOT_INFO, 8);
	if (sg_fsgs) {
		memcpy(&th->trap_fs, th->box + STUB_SLOT_FSBASE, 8);
		memcpy(&th->trap_gs, th->box + STUB_SLOT_GSBASE, 8);
	}
	ucp = in_slot(th, uc_addr, sizeof(uc));
	infop = in_slot(th, info_addr, sizeof(si));
	if (!ucp || !infop)
		return -1;
	th->frame_uc = ucp;
	memcpy(&uc, ucp, sizeof(uc));
	memcpy(&si, infop, sizeof(si));
	memset(ev, 0, sizeof(*ev));
	if (signo == SIGSYS && si.si_signo == SIGSYS && si.si_code == 1 /* SYS_SECCOMP */) {
		const struct linux_sigcontext *sc = &uc.uc_mcontext;

		regs_from_frame(th, sc, (uint64_t)(unsigned)si.si_syscall);
		th->regs.rax = (uint64_t)-ENOSYS; /* as at a SYSEMU stop: not run */
		ev->kind = PF_EV_SYSCALL;
		ev->nr = (unsigned)si.si_syscall;
		ev->compat = si.si_arch != AUDIT_ARCH_X86_64;
		if (ev->compat) {
			ev->args[0] = (uint32_t)sc->rbx, ev->args[1] = (uint32_t)sc->rcx;
			ev->args[2] = (uint32_t)sc->rdx, ev->args[3] = (uint32_t)sc->rsi;
			ev->args[4] = (uint32_t)sc->rdi, ev->args[5] = (uint32_t)sc->rbp;
		} else {
			ev->args[0] = sc->rdi, ev->args[1] = sc->rsi, ev->args[2] = sc->rdx;
			ev->args[3] = sc->r10, ev->args[4] = sc->r8, ev->args[5] = sc->r9;
		}
		ev->ip = sc->rip;
		ev->sp = sc->rsp;
		return 1;
	}
	regs_from_frame(th, &uc.uc_mcontext, (uint64_t)-1);
	if (signo == STUB_SIG_INTERRUPT && si.si_signo == STUB_SIG_INTERRUPT) {
		if (!th->want_stop) {
			answer(th); /* asked for before its last trap: spent */
			return 0;
		}
		th->want_stop = false;
		ev->kind = PF_EV_INTERRUPT;
		return 1;
	}
	ev->signo = si.si_signo;
	ev->code = si.si_code;
	ev->kind = sig_is_fault(si.si_signo, si.si_code) ? PF_EV_FAULT : PF_EV_SIGNAL;
	ev->addr = (uint64_t)si.si_addr;
	if (si.si_signo == SIGTRAP && si.si_code == LINUX_TRAP_PERF) {
		/* One of sg_hwbp_arm's breakpoints: Linux's TRAP_HWBKPT,
		 * at the ip (send_sigtrap), the event's sig_data its number.
		 * One the host could not deliver at once (TRAP_PERF_FLAG_ASYNC:
		 * the stub's handler, signals blocked, tripped it) or left
		 * from events closed since is no hit of the guest's: dropped. */
		struct linux_siginfo lsi;

		_Static_assert(sizeof(lsi) == sizeof(si), "siginfo size");
		memcpy(&lsi, &si, sizeof(lsi));
		if (!th->hwbp_mask || (lsi.fields.sigfault.perf.flags & 1)) {
			answer(th);
			return 0;
		}
		ev->code = LINUX_TRAP_HWBKPT;
		ev->addr = uc.uc_mcontext.rip;
		ev->dr6 = sg_hwbp_hits(th, 1u << (lsi.fields.sigfault.perf.data & 3));
	}
	ev->ip = uc.uc_mcontext.rip;
	ev->sp = uc.uc_mcontext.rsp;
	ev->access = PF_ACCESS_UNKNOWN;
	if (si.si_signo == SIGSEGV && uc.uc_mcontext.trapno == 14)
		ev->access = uc.uc_mcontext.err & 16  ? PF_ACCESS_EXEC
			     : uc.uc_mcontext.err & 2 ? PF_ACCESS_WRITE
						      : PF_ACCESS_READ;
	return 1;
}

static bool posted(struct pf_thread *th)
{
	uint32_t s = __atomic_load_n(state_word(th), __ATOMIC_ACQUIRE);

	return s == STUB_SLOT_POSTED || s == STUB_SLOT_SLEEP;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A guest thread can end its own host thread (it may run the stub's
 * exit(0), as a retired thread does): the host then clears its tid word. */
static bool exited(struct pf_thread *th)
{
	uint32_t tid;

	memcpy(&tid, th->box + STUB_SLOT_TID, 4);
	return tid == 0;
}

/* Delivers the traps posted by running threads, and the end of those that
 * left. The events are taken
 * first and delivered after: the callback may resume or interrupt
 * threads. */
static int scan(pf_event_fn fn)
{
	struct pf_thread *th, *tmp, *ready[64];
	struct pf_event evs[64];
	int i, k = 0, r;

	list_for_each_entry_safe(th, tmp, &running, run_link)
	{
		if (!posted(th)) {
			if (th->want_stop && now_ns() - th->stop_asked_ns > DEAF_NS)
				ptrace_stub_kill(th->mm); /* it blocked the interrupt */
			if (!exited(th))
				continue;
			list_del(&th->run_link);
			th->running = false;
			th->tid = -1;
			memset(&evs[k], 0, sizeof(evs[k]));
			evs[k].kind = PF_EV_GONE;
			ready[k++] = th;
			if (k == 64)
				break;
			continue;
		}
		r = take(th, &evs[k]);
		if (r < 0)
			ptrace_stub_kill(th->mm); /* its GONE comes with the reaping */
		else if (r > 0)
			ready[k++] = th;
		if (k == 64)
			break;
	}
	for (i = 0; i < k; i++)
		fn(ready[i]->owner, &evs[i]);
	return k;
}

/* mm's stub is gone: so are its threads. */
static int stub_died(struct pf_mm *mm, pf_event_fn fn)
{
	struct pf_thread *th, *tmp;
	struct pf_event ev;
	int n = 0;

	memset(&ev, 0, sizeof(ev));
	ev.kind = PF_EV_GONE;
	list_for_each_entry_safe(th, tmp, &threads, all_link)
	{
		if (th->mm != mm || th->tid <= 0)
			continue;
		if (th->running)
			list_del(&th->run_link);
		th->running = false;
		th->tid = -1;
		fn(th->owner, &ev);
		n++;
	}
	return n;
}

static int reap(pf_event_fn fn)
{
	int64_t now = now_ns();
	int pid, status, n = 0;
	bool sigchld;

	/* The signalfd is read after the epoll wait said so, or once a
	 * millisecond: not on every pass of the idle loop (a host call). */
	sigchld = ptrace_sigchld(sg_sigfd, sigchld_ready || now - last_sigfd_ns > 1000000);
	if (sigchld_ready || now - last_sigfd_ns > 1000000)
		last_sigfd_ns = now;
	sigchld_ready = false;
	while (sigchld && (pid = waitpid(-1, &status, __WALL | WNOHANG)) > 0) {
		struct pf_mm *mm = ptrace_mm_lookup(pid);

		if (WIFSTOPPED(status)) {
			if (status >> 16 == PTRACE_EVENT_SECCOMP)
				kill(pid, SIGKILL); /* a control thread's call off its allowlist */
			else
				ptrace_stray_stop(pid, status);
			continue;
		}
		if (mm)
			n += stub_died(mm, fn);
		ptrace_mm_reaped(pid);
	}
	return n;
}

static void disarm(void)
{
	uint64_t v;

	if (!armed)
		return;
	__atomic_store_n(g_sleep, 0, __ATOMIC_RELAXED);
	armed = false;
	if (read(sg_evfd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return;
}

static int sg_poll(pf_event_fn fn)
{
	disarm();
	return reap(fn) + scan(fn);
}

/* Looks at the running threads' mailboxes for a while; if none traps, the
 * next trap wakes the event loop (the eventfd is in it). */
static int sg_spin(pf_event_fn fn, int64_t *timeout_ns)
{
	struct pf_thread *th;
	int64_t end, cap = KERNEL_SPIN_SPARE_NS;
	int n = 0, i;

	list_for_each_entry(th, &running, run_link)
	{
		if (++n >= host_cpus) {
			cap = KERNEL_SPIN_MAX_NS; /* no CPU spare */
			break;
		}
	}
	if (spin_ns > cap)
		spin_ns = cap;
	if (!list_empty(&running)) {
		int64_t now = now_ns(), next_yield = now + SPIN_YIELD_NS;

		end = now + (*timeout_ns >= 0 && *timeout_ns < spin_ns ? *timeout_ns : spin_ns);
		do {
			for (i = 0; i < 32; i++) {
				n = scan(fn);
				if (n > 0) {
					if (spin_ns < cap)
						spin_ns *= 2;
					return n;
				}
				__builtin_ia32_pause();
			}
			now = now_ns();
			/* A long spin gives way to a guest thread the host
			 * placed on the kernel's CPU. */
			if (spin_ns > KERNEL_SPIN_MAX_NS && now >= next_yield) {
				sched_yield();
				next_yield = now + SPIN_YIELD_NS;
			}
		} while (now < end);
		if (spin_ns > KERNEL_SPIN_MIN_NS)
			spin_ns /= 2;
	}
	if (!list_empty(&running) && (*timeout_ns < 0 || *timeout_ns > WATCHDOG_MS * 1000000LL))
		*timeout_ns = WATCHDOG_MS * 1000000LL;
	armed = true;
	__atomic_store_n(g_sleep, 1, __ATOMIC_SEQ_CST);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return scan(fn);
}

static int sg_wait(pf_event_fn fn)
{
	struct epoll_event ev;
	int64_t timeout_ns;
	unsigned seen;
	int n;

	for (;;) {
		seen = host_wake_seen();
		timeout_ns = -1;
		n = sg_poll(fn);
		if (n > 0)
			return n;
		n = sg_spin(fn, &timeout_ns);
		if (n > 0)
			return n;
		/* A host signal to skas (EINTR) ends the wait: the idle loop
		 * passes it on. */
		if (host_signals_pending())
			return 0;
		n = (int)host_epoll_wait_unless(sg_epfd, &ev, 1, timeout_ns, seen);
		if (n < 0)
			return n == -EINTR ? 0 : n;
		if (n > 0 && ev.data.ptr == NULL)
			sigchld_ready = true;
	}
}

/* ns in TSC ticks, the handler's clock: measured over 50 us at start-up
 * (two clock reads of tens of ns: well under 1% off); one tick per ns if
 * the measure fails. */
static uint64_t tsc_ticks(int64_t ns)
{
	int64_t t0 = now_ns(), t1;
	uint64_t c0 = __builtin_ia32_rdtsc(), c1;

	while ((t1 = now_ns()) - t0 < 50000)
		__builtin_ia32_pause();
	c1 = __builtin_ia32_rdtsc();
	if (c1 <= c0 || (c1 - c0) / (uint64_t)(t1 - t0) > 100)
		return (uint64_t)ns;
	return (uint64_t)((double)ns * (double)(c1 - c0) / (double)(t1 - t0));
}

static int alloc_slot(struct pf_mm *mm)
{
	int i;

	for (i = 0; i < STUB_MAX_SLOTS; i++) {
		uint32_t tid;

		if (mm->slot_used[i / 64] & (1ULL << (i % 64)))
			continue;
		/* A retired thread's slot is free once the host has cleared
		 * its tid word (it exited). */
		memcpy(&tid, slot_box(mm, i) + STUB_SLOT_TID, 4);
		if (tid != 0 && i < mm->slots_hwm)
			continue;
		mm->slot_used[i / 64] |= 1ULL << (i % 64);
		if (i >= mm->slots_hwm)
			mm->slots_hwm = i + 1;
		return i;
	}
	return -EAGAIN;
}

static void free_slot(struct pf_mm *mm, int slot)
{
	mm->slot_used[slot / 64] &= ~(1ULL << (slot % 64));
}

/* Waits up to timeout_ns for th to trap; false if it does not, if its stub
 * has gone, or (born: it has run, so its tid word is set) if it has left. */
static bool wait_trap(struct pf_thread *th, int64_t timeout_ns, bool born)
{
	int64_t start = now_ns();
	int i;

	for (i = 0;; i++) {
		if (posted(th))
			return true;
		if (born && exited(th))
			return false;
		if (i < 100) {
			__builtin_ia32_pause();
			continue;
		}
		if (now_ns() - start > timeout_ns || ((i & 63) == 0 && ptrace_stub_exited(th->mm)))
			return false;
		sched_yield();
	}
}

/* Waits for a new thread's first trap (STUB_SIGSYS_INIT's). */
static int first_trap(struct pf_thread *th)
{
	struct pf_event ev;

	if (!wait_trap(th, 2000000000LL, false))
		return -EAGAIN;
	list_add_tail(&th->run_link, &running); /* take() takes it off */
	th->running = true;
	if (take(th, &ev) <= 0 || ev.kind != PF_EV_SYSCALL)
		return -EIO;
	return 0;
}

static void sg_thread_put(struct pf_thread *th);

/* Spares (ptrace.c): a thread put while it waits in its handler for the
 * kernel's answer keeps its slot and stays there; the stub's next thread
 * is set up by editing that frame, as a new thread's first trap's is. */
static bool park_spare(struct pf_thread *th)
{
	if (!th->frame_uc || th->mm->killed || !ptrace_spare_park(th))
		return false;
	list_del(&th->all_link);
	return true;
}

/* Its slot is taken again only once the host has cleared its tid word. */
static void free_spare(struct pf_thread *th)
{
	free_slot(th->mm, th->slot);
	free(th);
}

static int sg_thread_new(struct pf_mm *mm, void *owner, struct pf_thread **out)
{
	struct pf_thread *th;
	uint64_t base;
	int ret, tid = -1, slot;

	if (mm->dead)
		return -ESRCH;
	th = ptrace_spare_take(mm, owner);
	if (th) {
		list_add_tail(&th->all_link, &threads);
		*out = th;
		return 0;
	}
	ret = ptrace_reserve_ops(mm, 1, 0);
	if (ret < 0)
		return ret;
	slot = alloc_slot(mm);
	if (slot < 0)
		return slot;
	th = calloc(1, sizeof(*th));
	if (!th) {
		free_slot(mm, slot);
		return -ENOMEM;
	}
	th->mm = mm;
	th->owner = owner;
	th->slot = slot;
	th->box = slot_box(mm, slot);
	th->tid = -1;
	memset(th->box, 0, STUB_SLOT_STACK);
	base = slot_addr(slot);
	ptrace_queue_op(mm, SYS_clone, SIGSYS_THREAD_CLONE_FLAGS, base + STUB_SLOT_SIZE, 0,
			base + STUB_SLOT_TID, 0, 0);
	mm->ops[mm->nops - 1].child_ip = STUB_SIGSYS_INIT;
	ret = ptrace_run_batch(mm, &tid);
	if (ret == 0 && tid <= 0)
		ret = -EIO;
	if (ret < 0) {
		free_slot(mm, slot);
		free(th);
		return ret;
	}
	mm->threads_made++;
	th->tid = tid;
	list_add_tail(&th->all_link, &threads);
	ret = first_trap(th);
	if (ret < 0) {
		/* A thread that never trapped is of no use, nor its stub. */
		ptrace_stub_kill(mm);
		sg_thread_put(th);
		return ret == -EAGAIN ? -ESRCH : ret;
	}
	*out = th;
	return 0;
}

/* A retired thread leaves by exit(0) at STUB_EXIT_THREAD with every
 * signal blocked (a late interrupt must not bring it back to the
 * handler); the host then clears its slot's tid word. */
static void sg_thread_put(struct pf_thread *th)
{
	struct pf_mm *mm;

	if (!th)
		return;
	sg_hwbp_close(th);
	if (park_spare(th))
		return;
	mm = th->mm;
	list_del(&th->all_link);
	if (th->running) {
		list_del(&th->run_link);
		th->running = false;
		if (th->tid > 0 && !mm->dead && !mm->doomed && !mm->killed) {
			struct pf_event ev;

			if (!th->want_stop) {
				th->want_stop = true;
				th->stop_asked_ns = now_ns();
				syscall(SYS_tgkill, mm->ctl_pid, th->tid, STUB_SIG_INTERRUPT);
			}
			if (!wait_trap(th, 200000000LL, true)) {
				ptrace_stub_kill(mm);
				goto out;
			}
			list_add_tail(&th->run_link, &running);
			th->running = true;
			if (take(th, &ev) < 0) {
				ptrace_stub_kill(mm);
				goto out;
			}
			if (th->running) { /* answered as spent: once more */
				list_del(&th->run_link);
				th->running = false;
				ptrace_stub_kill(mm);
				goto out;
			}
		}
	}
	if (mm->doomed)
		ptrace_stub_kill(mm);
	if (th->tid > 0 && !mm->dead && !mm->doomed && !mm->killed && th->frame_uc) {
		struct linux_ucontext *uc = (struct linux_ucontext *)th->frame_uc;

		uc->uc_sigmask = ~0ULL;
		uc->uc_mcontext.rip = STUB_EXIT_THREAD;
		th->regs_dirty = false;
		memset(th->box + STUB_SLOT_SET, 0, 4);
		hand_back(th);
	}
out:
	free_slot(mm, th->slot);
	free(th);
}

static int sg_get_regs(struct pf_thread *th, struct pf_regs *regs)
{
	if (th->running || !th->regs_valid)
		return -ESRCH;
	*regs = th->regs;
	return 0;
}

static int sg_set_regs(struct pf_thread *th, const struct pf_regs *regs)
{
	if (th->running || !th->frame_uc)
		return -ESRCH;
	th->regs = *regs;
	th->regs_valid = th->regs_dirty = true;
	return 0;
}

static void sg_set_result(struct pf_thread *th, long ret)
{
	th->regs.rax = (uint64_t)ret;
	th->regs_dirty = true;
}

static int sg_resume(struct pf_thread *th)
{
	if (th->tid <= 0 || th->mm->dead)
		return -ESRCH;
	if (ptrace_flush_queued(th->mm) == -ESRCH)
		return -ESRCH;
	if (th->running)
		return 0;
	if (!th->frame_uc)
		return -ESRCH;
	answer(th);
	return 0;
}

static int sg_interrupt(struct pf_thread *th)
{
	if (!th->running || th->want_stop)
		return 0;
	th->want_stop = true;
	th->stop_asked_ns = now_ns();
	if (syscall(SYS_tgkill, th->mm->ctl_pid, th->tid, STUB_SIG_INTERRUPT) < 0)
		return -ESRCH;
	return 0;
}

/* The frame's FPU area: its kernel view and the size of the state in it
 * (512: FXSAVE only), or NULL (none, or the thread runs). */
static char *frame_fpu(struct pf_thread *th, size_t *size)
{
	struct linux_fpx_sw_bytes sw;
	uint64_t fp;
	char *p;

	if (th->running || !th->frame_uc)
		return NULL;
	fp = frame_sc(th)->fpstate;
	p = in_slot(th, fp, LINUX_FXSAVE_SIZE);
	if (!p || fp % 16)
		return NULL;
	memcpy(&sw, p + LINUX_FPX_SW_BYTES_OFFSET, sizeof(sw));
	*size = LINUX_FXSAVE_SIZE;
	if (sw.magic1 == LINUX_FP_XSTATE_MAGIC1 && sw.xstate_size > LINUX_FXSAVE_SIZE + 64 &&
	    in_slot(th, fp, sw.xstate_size))
		*size = sw.xstate_size;
	return p;
}

static long sg_fpu_get(struct pf_thread *th, void *buf, size_t size)
{
	size_t n;
	char *p;

	p = frame_fpu(th, &n);
	if (!p)
		return -ESRCH;
	if (size < n)
		n = size < LINUX_FXSAVE_SIZE ? 0 : LINUX_FXSAVE_SIZE;
	if (!n)
		return -EINVAL;
	memcpy(buf, p, n);
	/* Bytes 464-511 are the signal frame's (its magic and sizes); the
	 * ptrace view, which debuggers and core files carry, has the XCR0
	 * there and zeros (Linux's xstate_fx_sw_bytes): gdb read the magic
	 * as the XCR0 and gave up on a core ("format not supported"). */
	{
		struct linux_fpx_sw_bytes sw;
		uint64_t view[6] = { 0 };

		memcpy(&sw, p + LINUX_FPX_SW_BYTES_OFFSET, sizeof(sw));
		if (sw.magic1 == LINUX_FP_XSTATE_MAGIC1)
			view[0] = sw.xfeatures;
		memcpy((char *)buf + LINUX_FPX_SW_BYTES_OFFSET, view, sizeof(view));
	}
	return (long)n;
}

/* The host checks the state at rt_sigreturn and kills a thread whose
 * state it refuses: checked here first as ptrace's SETREGSET would. The
 * frame keeps its own software bytes (464-511), which the host reads. */
static int sg_fpu_set(struct pf_thread *th, const void *buf, size_t size)
{
	const char *in = buf;
	uint32_t mxcsr, mask;
	uint64_t hdr[8], own_features;
	size_t n, i;
	char *p;

	p = frame_fpu(th, &n);
	if (!p)
		return -ESRCH;
	if (size < LINUX_FXSAVE_SIZE)
		return -EINVAL;
	memcpy(&mxcsr, in + 24, 4);
	memcpy(&mask, p + 28, 4);
	if (!mask)
		mask = 0xffbf;
	if (mxcsr & ~mask)
		return -EINVAL;
	if (n > LINUX_FXSAVE_SIZE && size > LINUX_FXSAVE_SIZE) {
		if (size < LINUX_FXSAVE_SIZE + sizeof(hdr))
			return -EINVAL;
		memcpy(hdr, in + LINUX_FXSAVE_SIZE, sizeof(hdr));
		memcpy(&own_features, p + LINUX_FPX_SW_BYTES_OFFSET + 8, 8);
		if (hdr[0] & ~own_features)
			return -EINVAL;
		for (i = 1; i < 8; i++)
			if (hdr[i])
				return -EINVAL;
		/* Components beyond what was given are left in their init
		 * state (the header says which are there). */
		if (size < n)
			hdr[0] &= 3;
	}
	memcpy(p, in, LINUX_FPX_SW_BYTES_OFFSET);
	if (n > LINUX_FXSAVE_SIZE) {
		if (size > LINUX_FXSAVE_SIZE) {
			size_t m = size < n ? size : n;

			memcpy(p + LINUX_FXSAVE_SIZE, in + LINUX_FXSAVE_SIZE,
			       m - LINUX_FXSAVE_SIZE);
			memcpy(p + LINUX_FXSAVE_SIZE, hdr, 8);
		} else {
			uint64_t legacy = 3;

			memcpy(p + LINUX_FXSAVE_SIZE, &legacy, 8);
		}
	}
	return 0;
}

static int sg_copy_fpu(struct pf_thread *dst, struct pf_thread *src)
{
	static char buf[16384] __attribute__((aligned(64)));
	long n = sg_fpu_get(src, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return sg_fpu_set(dst, buf, (size_t)n);
}

/* The host must have seccomp's RET_TRAP. Where it lets user code run
 * rdfsbase/wrfsbase (FSGSBASE, Linux 5.9) the handler uses them; without,
 * the guest cannot change its bases but through the kernel, and the
 * handler sets one the kernel changed with arch_prctl (stub.h STUB_G_FSGS;
 * a PVM guest, or an older host). */
static int sg_probe(void)
{
	unsigned int action = SECCOMP_RET_TRAP;

	sg_fsgs = (getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE) != 0;
	if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) < 0)
		return -ENOSYS;
	return 0;
}

static int sg_init(void)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &sg_evfd };
	uint64_t spin_ticks, one = 1;
	char *global;
	int ret, gfd;

	ret = sg_probe();
	if (ret < 0)
		return ret;
	sg_evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	gfd = memfd_create("skas-global", MFD_CLOEXEC);
	if (sg_evfd < 0 || gfd < 0 || ftruncate(gfd, 4096) < 0)
		return -errno;
	global = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, gfd, 0);
	if (global == MAP_FAILED)
		return -errno;
	g_sleep = (volatile uint32_t *)(global + (STUB_G_SLEEP - STUB_GLOBAL));
	/* Guest threads get the CPUs the kernel has now (every one skas was
	 * given: main.c); the stubs, started pinned with the kernel, keep
	 * their control threads on its CPU. */
	{
		cpu_set_t cpus;

		_Static_assert(sizeof(cpus) <= STUB_G_CPUS_SIZE, "cpu set size");
		if (sched_getaffinity(0, sizeof(cpus), &cpus) < 0)
			return -errno;
		host_cpus = CPU_COUNT(&cpus);
		memcpy(global + (STUB_G_CPUS - STUB_GLOBAL), &cpus, sizeof(cpus));
		host_pin_cpu();
	}
	spin_ticks = tsc_ticks(HANDLER_SPIN_NS);
	memcpy(global + (STUB_G_SPIN - STUB_GLOBAL), &spin_ticks, 8);
	memcpy(global + (STUB_G_ONE - STUB_GLOBAL), &one, 8);
	memcpy(global + (STUB_G_FSGS - STUB_GLOBAL), &(uint32_t){ sg_fsgs }, 4);
	ptrace_spares_init(free_spare);
	host_sandbox_allow_perf();
	ret = ptrace_stubs_init(STUB_MODE_SIGSYS, sg_evfd, gfd);
	close(gfd);
	if (ret < 0)
		return ret;
	ret = write_guest_filter();
	if (ret < 0)
		return ret;
	ret = ptrace_event_fds(&sg_epfd, &sg_sigfd);
	if (ret < 0)
		return ret;
	if (epoll_ctl(sg_epfd, EPOLL_CTL_ADD, sg_evfd, &ev) < 0)
		return -errno;
	return host_evloop_watch_platform(sg_epfd);
}

const struct platform_ops platform_sigsys = {
	.name = "sigsys",
	.probe = sg_probe,
	.init = sg_init,
	PTRACE_STUB_OPS,
	.thread_new = sg_thread_new,
	.thread_put = sg_thread_put,
	.thread_reused = ptrace_thread_reused,
	.get_regs = sg_get_regs,
	.set_regs = sg_set_regs,
	.set_result = sg_set_result,
	.resume = sg_resume,
	.interrupt = sg_interrupt,
	.copy_fpu = sg_copy_fpu,
	.fpu_get = sg_fpu_get,
	.fpu_set = sg_fpu_set,
	.hwbp_arm = sg_hwbp_arm,
	.poll = sg_poll,
	.wait = sg_wait,
	.spin = sg_spin,
	.threads_apart = true,
};
