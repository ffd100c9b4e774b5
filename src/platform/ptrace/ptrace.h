/* platform/ptrace/ptrace.h: the stub processes and the ptrace control of
 * their threads, shared by the ptrace and seccomp backends (platform/ only).
 * An address space is a stub forked from the zygote; the kernel runs host
 * calls in its control thread in batches; guest threads are further host
 * threads of the stub, traced by the kernel. */
#ifndef PLATFORM_PTRACE_PTRACE_H
#define PLATFORM_PTRACE_PTRACE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "lib/list.h"
#include "platform/platform.h"
#include "stub/stub.h"
#include "platform/stub_image.h"

struct stub_op {
	int64_t nr;
	uint64_t arg[6];
	uint64_t child_ip; /* a clone's new thread starts here (stub.h); 0: none */
};
_Static_assert(sizeof(struct stub_op) == STUB_OP_SIZE, "stub op layout");

/* The recvmsg scratch in each stub's data page. */
struct stub_data {
	struct msghdr msg;
	struct iovec iov;
	char byte;
	char pad[7];
	char control[64];
};

/* Ops reserved at the end of a batch: recvmsg+mmap+close for one fd map. */
#define MAX_QUEUED_OPS (STUB_MAX_OPS - 4)
#define MAX_QUEUED_FDS 16

struct pf_mm {
	int ctl_pid; /* the stub's main thread: runs batches, never guest code */
	struct pf_mm *hash_next;
	int nops;
	int nfds;
	int fds[MAX_QUEUED_FDS]; /* dup'ed host fds, sent at flush */
	unsigned fds_borrowed;	 /* bit i: fds[i] is not ours to close (page_fd) */
	/* The queued ops leave the last fd received at the stub's fd 1 open
	 * for more maps of it: the kernel's host fd + 1 it copies (0: none). */
	int fd1_of;
	bool dead;
	bool op_failure_logged; /* ptrace_flush_queued said so once */
	/* The stub's own ops page (STUB_OPS_SIZE, the kernel's mapping of its
	 * memfd): no stub sees another's batches. A stub fresh from a fork
	 * still has its parent's page until its first batch maps its own:
	 * that batch is written to both (boot_page, then NULL). */
	struct stub_op *page, *boot_page;
	/* Where the batch last run ended on page (its end marker's index):
	 * a stub forked there runs on from it, so its first batch is put at
	 * boot_next, its fork's batch_end (if it fits; else at 0, and the
	 * stub is pointed at it). */
	int batch_end, boot_next;
	int page_fd; /* page's memfd, kept to hand the page on (pool) */
	/* The control thread waits in the doorbell loop (stub.h STUB_BELL),
	 * running from ptrace's view; else it is in a ptrace stop: at a
	 * batch's int3 (continued, it enters the loop), or, before its first
	 * batch, where the stub was born (the zygote: _start's int3). */
	bool bell;
	bool doomed;	  /* mm_doom: threads put from now on are not retired */
	bool killed;	  /* SIGKILL sent: a doomed stub whose last thread went, or a new
		      * stub whose first batch failed */
	int threads_made; /* guest threads the stub has had (mm_reap) */
	int sc_threads;	  /* seccomp backend: its guest threads, made and not put */
	uint32_t sr_used; /* bit i: STUB_SR_SLOTS slot i is a thread's (sr_slot) */
	/* Host threads whose guest thread went, kept stopped for the next
	 * one (spares, ptrace.c). */
	struct pf_thread *spares;
	int nspares;
	/* sigsys backend: the slots in use (the kernel's view of the slot
	 * area follows the ops page in page's mapping), and how many from the
	 * first were ever used (cleared before the page is pooled). */
	uint64_t slot_used[(STUB_MAX_SLOTS + 63) / 64];
	int slots_hwm;
	struct stub_op ops[STUB_MAX_OPS]; /* last: not cleared at allocation (fork_stub) */
};

/* The seccomp backend's view of a guest thread (platform/seccomp). */
enum sc_state {
	SC_STOPPED,  /* in a ptrace stop: registers at hand */
	SC_RUNNING,  /* resumed: guest code or a system call on its way to us */
	SC_NOTIFIED, /* blocked in a system call we took from its listener */
};

struct pf_thread {
	int tid;
	struct pf_mm *mm;
	void *owner;
	bool regs_valid, regs_dirty, has_result;
	bool running;	/* resumed, and no event taken since */
	bool want_stop; /* interrupt asked for */
	/* Kept for another guest thread (on mm->spares), or taken from
	 * there: the host thread ran one before. */
	bool spare, reused;
	bool debugregs; /* the host's debug registers were written (debugreg) */
	struct pf_thread *spare_next;
	long result;
	struct pf_regs regs;
	struct pf_thread *hash_next;
	int sr_slot; /* 1 + its STUB_SR_SLOTS slot in mm's page; 0: none yet */
	/* seccomp backend only */
	enum sc_state state;
	bool at_syscall;   /* stopped at a system call's entry: skip it on resume */
	int listener;	   /* the kernel's fd of the thread's USER_NOTIF listener */
	uint64_t notif_id; /* SC_NOTIFIED: the notification to answer */
	/* SC_NOTIFIED: the call, for seccomp.c's let_through (an x86-64
	 * call's number and first arguments; notif_nr -1 for another arch) */
	long notif_nr;
	uint64_t notif_args[3];
	/* sigsys backend only (platform/sigsys) */
	int slot;		   /* its slot in the stub */
	char *box;		   /* the kernel's view of the slot */
	struct list_head run_link; /* on the running list while running */
	struct list_head all_link; /* on the list of every thread */
	char *frame_uc;		   /* the kernel's view of the trap's ucontext */
	uint64_t trap_fs, trap_gs; /* fs and gs base at the trap */
	int64_t stop_asked_ns;	   /* when the interrupt was sent */
	/* hwbp_fd[i]: the perf event of hardware breakpoint i, where bit i
	 * of hwbp_mask is set (sg_hwbp_arm) */
	int hwbp_fd[4];
	unsigned hwbp_mask;
	uint64_t hwbp_count[4]; /* each event's count at its last hit */
};

/* Starts the zygote and boxes it under the allowlist of mode (under the
 * seccomp and sigsys backends its default is SECCOMP_RET_TRACE, so that a
 * guest thread's own filter decides). sigsys: wake_fd is the kernel's
 * eventfd, global_fd the memfd of the page every stub shares
 * (STUB_GLOBAL), and every stub's ops memfd carries its slots. */
int ptrace_stubs_init(enum stub_mode mode, int wake_fd, int global_fd);
/* The kernel's writable view of the payload area (STUB_PAYLOAD). */
void *ptrace_stub_payload(void);

void ptrace_queue_op(struct pf_mm *mm, long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
		     uint64_t a4, uint64_t a5);
int ptrace_reserve_ops(struct pf_mm *mm, int nops, int nfds);
int ptrace_run_batch(struct pf_mm *mm, int *new_pid);
/* Runs the ops still queued, before the stub's memory is read or written
 * or a thread of it resumes. The guest calls that queued them have
 * returned, so a failing op has no one to tell: it is logged, once per
 * address space (the guest's memory then differs from its map). Returns
 * -ESRCH if the stub is gone, else 0. */
int ptrace_flush_queued(struct pf_mm *mm);
int ptrace_park_thread(int tid);
int ptrace_wait_pid(int pid, int *status);
const struct pf_vdso *ptrace_vdso(void);
/* The register cache both backends keep for a stopped thread. */
int ptrace_set_regs(struct pf_thread *th, const struct pf_regs *regs);
void ptrace_set_result(struct pf_thread *th, long ret);
int ptrace_thread_host_tid(struct pf_thread *th);
/* A new host thread in mm, made with clone flags (THREAD_CLONE_FLAGS or
 * NOTIF_THREAD_CLONE_FLAGS: the allowlist's), in the thread hash, stopped
 * at its first stop (PTRACE_EVENT_STOP); continued, it runs from entry (a
 * stub address; 0: on in the batch, so it must be given registers first). */
int ptrace_thread_create(struct pf_mm *mm, void *owner, uint64_t entry, unsigned long flags,
			 struct pf_thread **out);
/* Spares (ptrace.c): init names the backend's free of a thread (its
 * listener, its slot); park keeps th, put while stopped, for mm's next
 * guest thread (false: it is not kept); take gives one (NULL: none),
 * take_fpu one with src's FPU state (mm has one); drop ends one (its end
 * reaped); mm_put ends all of mm's, the stub killed first; reused: whether
 * th came from there. */
void ptrace_spares_init(void (*free_fn)(struct pf_thread *));
bool ptrace_spare_park(struct pf_thread *th);
struct pf_thread *ptrace_spare_take(struct pf_mm *mm, void *owner);
int ptrace_spare_take_fpu(struct pf_mm *mm, void *owner, struct pf_thread *src,
			  struct pf_thread **out);
void ptrace_spare_drop(struct pf_thread *th);
bool ptrace_thread_reused(struct pf_thread *th);
struct pf_thread *ptrace_thread_lookup(int tid);
void ptrace_thread_hash_add(struct pf_thread *th);
void ptrace_thread_hash_del(struct pf_thread *th);
void ptrace_mm_reaped(int pid);
/* The SIGCHLD signalfd and an epoll set holding it (data.ptr NULL), which
 * the seccomp and sigsys backends wait on and the event loop watches. */
int ptrace_event_fds(int *epfd, int *sigfd);
/* Whether a SIGCHLD came since the last look: read from sigfd (if
 * read_fd: the caller knows it is ready, or looks anyway), or taken by the
 * event loop meanwhile. Without one there is nothing to reap. */
bool ptrace_sigchld(int sigfd, bool read_fd);
/* The stub whose control thread is pid, or NULL. */
struct pf_mm *ptrace_mm_lookup(int pid);
/* Whether mm's control thread is gone (reads /proc: a slow path); one in
 * a ptrace stop that is no call off its allowlist is continued. */
bool ptrace_stub_gone(struct pf_mm *mm);
/* Whether mm's control thread has exited, without touching it. */
bool ptrace_stub_exited(struct pf_mm *mm);
/* SIGKILL to mm's stub, once, and never once a wait has reaped it (its
 * ctl_pid is -1 then: no kill(-1)). */
void ptrace_stub_kill(struct pf_mm *mm);
/* A stop of a thread that is no guest thread: a control thread stopped in
 * its doorbell loop (a stray signal) is let go on. */
void ptrace_stray_stop(int pid, int status);
bool ptrace_is_fault(const siginfo_t *si);
/* Fills ev for a signal-delivery stop of th (a fault or another signal). */
void ptrace_signal_event(struct pf_thread *th, int status, struct pf_event *ev);

int ptrace_mm_new(struct pf_mm **out);
int ptrace_mm_copy(struct pf_mm *src, struct pf_mm **out);
void ptrace_mm_put(struct pf_mm *mm);
int ptrace_mm_map(struct pf_mm *mm, uint64_t addr, uint64_t len, int prot, int flags, int host_fd,
		  uint64_t off);
int ptrace_mm_unmap(struct pf_mm *mm, uint64_t addr, uint64_t len);
int ptrace_mm_recycle(struct pf_mm *mm, uint64_t keep, uint64_t keep_len);
int ptrace_mm_protect(struct pf_mm *mm, uint64_t addr, uint64_t len, int prot);
int ptrace_mm_advise(struct pf_mm *mm, uint64_t addr, uint64_t len, int advice);
int ptrace_mm_move(struct pf_mm *mm, uint64_t old_addr, uint64_t old_len, uint64_t new_len,
		   uint64_t new_addr);
int ptrace_mm_flush(struct pf_mm *mm);
long ptrace_mm_read(struct pf_mm *mm, void *dst, uint64_t src, size_t n);
long ptrace_mm_write(struct pf_mm *mm, uint64_t dst, const void *src, size_t n);
int ptrace_mm_writev(struct pf_mm *mm, const struct pf_iov *v, int n);
int ptrace_mm_cmpxchg32(struct pf_mm *mm, uint64_t addr, uint32_t old, uint32_t new);
int ptrace_mm_futex_op(struct pf_mm *mm, uint64_t addr, int op, uint32_t arg, uint32_t *old);
int ptrace_mm_host_pid(struct pf_mm *mm);
void ptrace_mm_doom(struct pf_mm *mm);
int ptrace_mm_reap(struct pf_mm *mm, struct pf_thread *th, struct host_cputime *out,
		   long *maxrss_kb);
/* The platform_ops entries every backend takes from the stubs: address
 * spaces, the vDSO, host tids. */
#define PTRACE_STUB_OPS                                                                            \
	.mm_new = ptrace_mm_new, .mm_copy = ptrace_mm_copy, .mm_put = ptrace_mm_put,               \
	.mm_map = ptrace_mm_map, .mm_unmap = ptrace_mm_unmap, .mm_recycle = ptrace_mm_recycle,     \
	.mm_protect = ptrace_mm_protect, .mm_advise = ptrace_mm_advise, .mm_move = ptrace_mm_move, \
	.mm_flush = ptrace_mm_flush, .mm_read = ptrace_mm_read, .mm_write = ptrace_mm_write,       \
	.mm_writev = ptrace_mm_writev, .mm_cmpxchg32 = ptrace_mm_cmpxchg32,                        \
	.mm_futex_op = ptrace_mm_futex_op, .mm_host_pid = ptrace_mm_host_pid,                      \
	.mm_doom = ptrace_mm_doom, .mm_reap = ptrace_mm_reap, .vdso = ptrace_vdso,                 \
	.thread_host_tid = ptrace_thread_host_tid

/* exec_regs: the registers that start regs' program at STUB_EXEC_START
 * (its FPU reset there), or -EOPNOTSUPP. */
int ptrace_exec_regs_prep(const struct pf_regs *regs, struct pf_regs *out);
/* handler_regs and sigreturn_regs: the same at entry, STUB_SIG_START or
 * STUB_SIGRET (their FPU work is the stub's xsave and xrstor). */
int ptrace_fpu_stub_prep(const struct pf_regs *regs, uint64_t entry, struct pf_regs *out);
/* sigreturn_slots (platform.h), in th's own place in its stub's page;
 * sr_slot_put gives the place back as th is freed. */
uint64_t ptrace_sigreturn_slots(struct pf_thread *th, const void *slots, size_t size);
void ptrace_sr_slot_put(struct pf_thread *th);
long ptrace_fpu_get(struct pf_thread *th, void *buf, size_t size);
int ptrace_fpu_set(struct pf_thread *th, const void *buf, size_t size);
/* debugreg, on a thread in a ptrace stop. */
int ptrace_debugreg(struct pf_thread *th, int n, uint64_t *val, bool write);
int ptrace_debugreg_clear(struct pf_thread *th);
int ptrace_copy_fpu(struct pf_thread *dst, struct pf_thread *src);
/* The thread mm's batch creates next starts with src's FPU state (src
 * stopped under ptrace): its image goes in mm's ops page and an
 * STUB_OP_XRSTOR op in the queue. -EOPNOTSUPP if the image does not fit
 * (then copy_fpu). */
int ptrace_prime_fpu(struct pf_mm *mm, struct pf_thread *src);

#endif
