/* kernel/task.h: guest tasks (threads) and processes (thread groups).
 * A task has its own kernel stack and one host thread in the stub of its
 * address space; a process holds what its threads share: identity, family,
 * credentials, limits, signal dispositions. */
#ifndef KERNEL_TASK_H
#define KERNEL_TASK_H

#include <stdint.h>
#include <stdbool.h>

#include "kernel/sched.h"
#include "kernel/cred.h"
#include "kernel/cputime.h"
#include "kernel/ptrace.h"
#include "platform/platform.h"
#include "abi/linux/types.h"
#include "abi/linux/signal.h"
#include "vfs/vfs.h"
#include "mm/mm.h"

struct mm;
struct files;
struct fs_info;
struct nsproxy;
struct sigqueue;
struct ptrace_exit;
struct pids_css;

enum task_state {
	TASK_RUNNABLE, /* on the run queue */
	TASK_RUNNING,  /* on the CPU: current */
	TASK_USER,     /* its host thread runs guest code */
	TASK_SLEEPING, /* in the kernel, waiting */
	TASK_DEAD,
};

#define TASK_COMM_LEN 16
#define NRLIMITS      16
#define PID_MAX	      32768
#define TASK_CPUS_MAX 1024 /* the CPUs an affinity mask can name */
/* Signals 1 to 31 keep one siginfo each while pending; real-time ones
 * queue every instance (signal.c). */
#define NSIG_STANDARD (LINUX_SIGRTMIN - 1)

struct process {
	int pid, pgid, sid;
	/* A session leader whose terminal hung up: the foreground group
	 * then, which gets SIGHUP when the leader exits (Linux's
	 * tty_old_pgrp); 0 if none. */
	int tty_old_pgrp;
	struct process *parent;
	struct list_head children; /* struct process, by sibling */
	struct list_head sibling;
	struct list_head threads;  /* struct task, by thread_link */
	struct list_head all_link; /* task.c's list of registered processes, by pid */
	int nthreads;
	/* The leader's comm once it has exited: a zombie's name; and its
	 * audit login uid and session (a zombie's /proc/PID/loginuid). */
	char leader_comm[TASK_COMM_LEN];
	uint32_t leader_loginuid, leader_sessionid;
	int64_t start_ns; /* its first thread's start_ns: kept by exec */
	int exit_signal;  /* sent to the parent at death (SIGCHLD) */
	bool exiting;	  /* a group exit or fatal signal is under way */
	bool zombie;	  /* every thread is gone; waits for its parent */
	bool did_exec;
	bool subreaper;
	bool no_new_privs;
	/* /proc/PID/oom_score_adj (-1000..1000; -1000: never the OOM
	 * killer's), and the least a writer without CAP_SYS_RESOURCE may
	 * set (the last value one with it set): fork copies both. */
	short oom_score_adj, oom_score_adj_min;
	/* /proc/PID/coredump_filter: which mappings a core holds (Linux's
	 * MMF_DUMP_* bits, 0x33 at first); fork copies it, exec keeps it. */
	unsigned coredump_filter;
	/* A set*uid left the new user past RLIMIT_NPROC: execve is EAGAIN
	 * while it still is (Linux's PF_NPROC_EXCEEDED). */
	bool nproc_exceeded;
	/* Linux's dumpable is not SUID_DUMP_USER: set when euid, egid, fsuid
	 * or fsgid changes, by PR_SET_DUMPABLE 0, and at an exec with euid !=
	 * uid or egid != gid (cleared at other execs). /proc/PID is then
	 * root's and only CAP_SYS_PTRACE has ptrace access, and a core
	 * signal leaves no core bit in the wait status. */
	bool nondumpable;
	int exit_code;		  /* wait status */
	struct waitq wait_chld;	  /* wait4 sleeps here */
	struct waitq exit_wait;	  /* pidfds wait here for the death */
	struct waitq signalfd_wq; /* signalfd readers: woken as signals queue */
	int pidfd_refs;
	/* A SEM_UNDO semop made Linux's undo list (kcmp's KCMP_SYSVSEM
	 * compares it); unshare(CLONE_SYSVSEM) drops it. */
	bool sem_undo_list;
	bool reaped;
	struct task *exec_waiter; /* execve waits for the other threads to go */
	/* Its leader's death record at a tracer that is not its parent
	 * (kernel/ptrace.c): until that tracer reaps it, the parent neither
	 * hears of the end nor reaps it. */
	struct ptrace_exit *tracer_exit;
	/* A core dump in progress (kernel/coredump.c): the dumping thread,
	 * how many others have yet to stop at their exit, and where those
	 * that have wait for the dump's end. */
	struct task *core_dumper;
	int core_pending;
	struct waitq core_wait;
	struct cred cred;
	struct linux_rlimit rlim[NRLIMITS];
	unsigned umask;
	unsigned personality;
	/* The thread that is its parent (Linux's real_parent is a thread):
	 * when that thread goes, each thread's pdeath_signal is sent even if
	 * its process lives on, and another of its threads becomes the
	 * parent. */
	int parent_tid;
	uint64_t pending; /* process-directed signals not yet delivered */
	struct linux_siginfo siginfo[NSIG_STANDARD]; /* of pending standard signal sig at sig - 1 */
	struct linux_sigaction sigactions[64];
	/* signal.c: queued real-time signal instances (process-directed; a
	 * circular list by its last entry), and how many this process and its
	 * threads hold (RLIMIT_SIGPENDING). */
	struct sigqueue *rtqueue;
	int nqueued;
	/* Job control (signal.c, exit.c): a group stop is in effect; stop_code
	 * is the stop signal until wait reports it (Linux's group_exit_code),
	 * continued until wait reports the SIGCONT (SIGNAL_STOP_CONTINUED). */
	bool stopped;
	bool continued;
	int stop_code;
	int stop_sig; /* the signal of a group stop not yet complete */
	/* itimer.c: ITIMER_REAL; ITIMER_VIRTUAL and ITIMER_PROF as expiry
	 * and interval on the process's user (and system) time, 0: off. */
	struct ktimer it_real;
	int64_t it_real_interval_ns;
	int64_t it_cpu_expires[2], it_cpu_interval[2];
	int cpu_sig_tid; /* the thread that took the last CPU-time signal */
	/* ptimer.c: samples the CPU clocks while a timer runs on one. */
	struct ktimer cpu_poll;
	/* ptimer.c: POSIX timers (struct ptimer by link), their count and
	 * the next id to try. */
	struct list_head ptimers;
	int nptimers;
	int next_timer_id;
	/* cputime.c: the times of threads gone, of reaped children, the
	 * last split reported, the peak resident size of mms gone (kB). */
	struct host_cputime cpu_dead;
	uint64_t nvcsw_dead, nivcsw_dead; /* its threads gone's switches */
	struct cpu_usage cpu_children;
	struct cpu_prev cpu_prev;
	int64_t maxrss_kb;
	/* cputime.c: the read/write counts of its threads gone and of the
	 * children it reaped (Linux's signal->ioac). */
	struct task_io ioac;
	/* kernel/cgroup.c: its group (a reference, kept by a zombie), its
	 * link in the group's live processes (empty once it ended), the
	 * CPU times charged to groups so far, its live tasks charged to the
	 * group's pids css, and the charge its exited leader holds until
	 * the reap. */
	struct cgroup *cgroup;
	struct list_head cg_link;
	int64_t cg_user, cg_sys;
	int pids_live;
	struct pids_css *leader_pids;
};

struct task {
	int tid;
	enum task_state state;
	struct process *proc;
	struct list_head thread_link;
	struct mm *mm;	     /* owns a reference */
	struct files *files; /* owns a reference */
	struct fs_info *fs;  /* owns a reference */
	/* Its namespaces (kernel/nsproxy.c): a reference; NULL once it has
	 * exited (a zombie's /proc/PID/ns links are gone). */
	struct nsproxy *nsproxy;
	struct pf_thread *thread;
	struct kstack kstack;
	struct list_head run_link;
	/* A sync wakeup waiting for its waker to block (kernel/sched.c). */
	struct task *defer_waker;
	struct cpu_slot *cpu_slot; /* its task_main's (kernel/cpus.c), or NULL */
	struct core_thread *core;  /* its registers for a core dump, while parked */
	int64_t defer_until_ns;
	struct pf_event ev;	   /* the trap that woke the task */
	bool no_result;		   /* the handler set all registers itself */
	bool killed;		   /* must leave at the next check: group exit, kill */
	struct task *vfork_parent; /* sleeps until this task execs or exits */
	bool vfork_done;
	char comm[TASK_COMM_LEN];
	uint64_t clear_child_tid;
	/* PR_SET_PDEATHSIG: per thread, as Linux; 0 in a new thread or
	 * process, cleared by a change of its effective or fs ids. */
	int pdeath_signal;
	uint64_t robust_list, robust_len;
	/* Its futexes let go at its exit (Linux's FUTEX_STATE_DEAD): a PI
	 * futex naming it is not attached to it any more (kernel/futex_pi.c). */
	bool futex_exited;
	uint64_t sigmask;
	uint64_t pending;			     /* thread-directed signals */
	struct linux_siginfo siginfo[NSIG_STANDARD]; /* as the process's */
	uint64_t saved_sigmask;			     /* sigsuspend: the mask to go back to */
	bool restore_sigmask;
	bool no_sigpipe;      /* pwritev2's RWF_NOSIGNAL: an EPIPE raises no SIGPIPE */
	bool rwf_nowait;      /* preadv2's RWF_NOWAIT: a pipe a splice holds is EAGAIN */
	uint64_t sigwait_set; /* rt_sigtimedwait: these wake it too */
	long restart_ret;     /* a syscall's ERESTART* code, until signals are handled */
	long (*restart_fn)(struct task *t); /* restart_syscall(2) continues here */
	int64_t restart_deadline;	    /* its state: nanosleep's deadline */
	uaddr_t restart_urem;		    /* the user address (rem, ufds, uaddr) */
	uint64_t restart_args[2];	    /* poll's nfds; futex's value, bitset */
	struct linux_stack_t altstack;
	char *trace_buf; /* --strace: the entry of the current call */
	/* signal.c: queued real-time signals for this thread; stop_parked
	 * while it sleeps in handle_signals because its process is stopped. */
	struct sigqueue *rtqueue;
	bool stop_parked;
	/* Parked by the cgroup freezer (signal.c, kernel/cgroup.c), or
	 * waiting for a vfork child, which counts as frozen too (Linux's
	 * wait_for_vfork_done enters the frozen state). */
	bool freeze_parked, vfork_waiting;
	/* Its pids charge went to a ptrace exit record (kernel/cgroup.h). */
	bool pids_held;
	/* cputime.c: the times of its earlier host threads (before exec),
	 * the last split reported for RUSAGE_THREAD. */
	struct host_cputime cpu_gone;
	/* Its reads and writes (/proc/PID/io; syscalls/sys_fs.c counts). */
	struct task_io ioac;
	/* The host's counts of its host thread when it took it over from
	 * another guest thread (platform thread_reused), else zeros. */
	struct host_cputime cpu_base;
	struct cpu_prev cpu_prev;
	/* Its times /proc/stat's CPU lines have counted (cputime.c), and
	 * the CPU it was on then. */
	struct host_cputime stat_seen;
	int16_t stat_cpu;
	/* Its context switches (Linux's nvcsw, nivcsw): each sleep in the
	 * kernel (a blocking call, a stop), each time its slice ended
	 * under --cpus while others waited (kernel/sched.c, cpus.c). */
	uint64_t nvcsw, nivcsw;
	/* syscalls/sys_sched.c: Linux's per-thread scheduling parameters, kept
	 * and checked as Linux does but not applied: the host schedules the
	 * stub threads as it sees fit. A fair policy's own slice (sched_attr's
	 * sched_runtime), 0 for the default. Inherited by clone. */
	int sched_policy;
	unsigned sched_rt_priority;
	int nice;
	int64_t start_ns; /* when it was made, sched_now_ns (/proc/PID/stat) */
	bool sched_reset_on_fork;
	uint64_t sched_slice_ns;
	/* SCHED_DEADLINE's runtime, deadline and period (ns), its flags
	 * (RECLAIM, DL_OVERRUN) and its bandwidth (runtime/period << 20),
	 * counted in the instance's total while the policy holds
	 * (sched_dl_release gives it back). */
	uint64_t dl_runtime, dl_deadline, dl_period, dl_bw;
	unsigned dl_flags;
	/* ioprio_set's value (class << 13 | hints << 3 | level), 0 if never
	 * set (class NONE: the I/O priority follows nice). Kept, not applied:
	 * the host does the I/O. Inherited by clone when its class is not
	 * NONE, as Linux copies a set io_context (CLONE_IO's sharing is a
	 * copy here). */
	uint16_t ioprio;
	/* The io_context kcmp's KCMP_IO compares (an id, 0 for none): Linux
	 * makes one at the first ioprio_set, shares it with a CLONE_IO child
	 * and gives any other child its own when the class is not NONE. */
	uint64_t ioc_id;
	/* prctl PR_SET_TIMERSLACK: this thread's slack, and the one 0 sets
	 * back (its parent's at clone). Kept, not applied: the host's timers
	 * fire the guest's. */
	uint64_t timer_slack_ns, default_timer_slack_ns;
	/* /proc/PID/loginuid's audit login uid (an instance uid) and the
	 * session its setting made (Linux's loginuid and sessionid):
	 * INVALID_ID both until a write, inherited by clone. */
	uint32_t loginuid, sessionid;
	/* prctl's per-thread flags, inherited by clone (Linux's PF_*):
	 * PR_MCE_KILL's policy (PR_MCE_KILL_LATE, _EARLY, or _DEFAULT; kept,
	 * skas sees no machine-check) and PR_SET_IO_FLUSHER's mark. */
	uint8_t mce_kill;
	bool io_flusher;
	/* sched_setaffinity's mask of the guest's CPUs (TASK_CPUS_MAX at
	 * most); every CPU while !affinity_set. Kept, not applied (see
	 * sys_sched_setaffinity). Inherited by clone. */
	bool affinity_set;
	uint64_t affinity[TASK_CPUS_MAX / 64];
	/* set_mempolicy's NUMA policy (mm/mempolicy.h; a reference), NULL
	 * for the default. Inherited by clone, kept by exec. */
	struct mempolicy *mempolicy;
	/* seccomp (kernel/seccomp.c): LINUX_SECCOMP_MODE_*, and in filter
	 * mode the chain (a reference). Inherited by clone, kept by exec. */
	int seccomp_mode;
	struct seccomp_filter *seccomp;
	struct ptrace_state pt; /* kernel/ptrace.c */
	/* prctl PR_SET_SYSCALL_USER_DISPATCH (syscalls/sys_proc.c): calls
	 * from outside [offset, offset + len) are a SIGSYS while the selector
	 * byte (none: always) says BLOCK. Not inherited; exec clears it. */
	struct {
		bool on;
		uint64_t offset, len;
		uaddr_t selector;
	} sud;
};

struct init_config {
	const char *path;
	char *const *argv;
	char *const *envp;
	const struct path *root; /* the instance's / */
	const char *cwd;	 /* the guest's starting directory */
	uint32_t uid, gid;
	int pids_max;
	int nofile; /* RLIMIT_NOFILE, soft and hard (--nofile); 0: the default */
	/* The program's image, not a file of the root: run from a sealed
	 * memfd, path its name (--init's, init_blob); NULL: path. */
	const void *image;
	size_t image_len;
};

/* --init's program (init/init.c), linked into skas (platform/stub_blob.S). */
extern const char init_blob[], init_blob_end[];

/* Starts the first process (pid 1). Returns 0 or -errno (ENOENT, EACCES,
 * ENOEXEC...) without starting anything. */
int task_start_init(const struct init_config *cfg);
void set_comm(struct task *t, const char *path);

/* Lookups in the instance's pid namespace; NULL if none. */
struct task *task_by_tid(int tid);
struct process *process_by_pid(int pid);
/* Calls fn for every live process (zombies left out), by ascending pid;
 * fn may release the process it is given, not others. */
void for_each_process(void (*fn)(struct process *p, void *arg), void *arg);
/* The registered process after p (NULL: the first), zombies included, by
 * ascending pid; NULL after the last. */
struct process *process_next(struct process *p);
/* Is process group pgid orphaned (no member, ignore left out, has a parent
 * in another group of its session)? *stopped (may be NULL): has it a
 * stopped member. */
bool pgrp_is_orphaned(int pgid, const struct process *ignore, bool *stopped);
struct pid_ns;
/* A new pid, numbered in ns and each namespace above it (kernel/pidns.c):
 * the instance pid, or -EAGAIN, -ENOMEM. */
int pid_alloc(struct pid_ns *ns);
/* A pid that pid_alloc gave but no task, process, group or session uses
 * (any more): its namespaces' numbers go back. */
void pid_release_unused(int pid);
/* pid is held by something else than a task, process, group or session
 * (a tracer's record of an exit): not handed out, its numbers kept. */
void pid_pin(int pid);
void pid_unpin(int pid);
struct process *process_alloc(int pid);
/* Frees a process that nothing refers to any more (reaped, or a fork that
 * failed): its group, credentials and memory. */
void process_free(struct process *p);
void pid_free(int pid);
/* Moves p to another process group and session (setpgid, setsid). */
void process_set_pgrp(struct process *p, int pgid, int sid);
bool tasks_limit_reached(void);
/* The threads of the processes whose real uid is uid (RLIMIT_NPROC's
 * count). */
uint64_t nproc_count(uint32_t uid);
void task_register(struct task *t);
/* execve by a non-leader thread: it becomes the leader, with tid == pid. */
void task_take_tid(struct task *t, int tid);
void exec_mm_release(struct task *t);
/* Children whose parent thread was old_tid now have tid's (exec). */
void children_take_tid(struct process *p, int old_tid, int tid);

/* The current thread leaves (exit). Last thread: the process dies with
 * wait status code unless a group exit set one. Never returns. */
void task_exit(struct task *t, int code) __attribute__((noreturn));
/* The whole process of t ends with a wait status (exit_group, fatal
 * signal); never returns. */
void process_exit(struct task *t, int wait_status) __attribute__((noreturn));
/* Makes every thread of p leave with wait status code (a fatal signal). */
void process_kill(struct process *p, int wait_status);
/* A zombie's leader record was reaped by its tracer's wait (reaped) or
 * the tracing thread is gone: the parent hears of the end now, or, if
 * the tracer is its parent by now, that wait was the reap. */
void process_tracer_done(struct process *p, struct process *tracer, bool reaped);
/* Wakes or interrupts t so that it notices t->killed or a signal. */
void task_kick(struct task *t);
/* Should a sleeping task give up and return -EINTR? */
bool signal_pending(struct task *t);
/* A vfork child execs or exits: its parent goes on. */
void vfork_release(struct task *t);
/* pidfds (kernel/pidfd.c). */
struct process *pidfd_process(struct task *t, int fd);
/* The process of an open pidfd, NULL for another file. */
struct process *pidfd_file_process(struct file *f);
int pidfd_create(struct task *t, struct process *p, unsigned flags);
/* The address space of the process pidfd fd names, as Linux's
 * pidfd_get_task then mm_access(PTRACE_MODE_READ_FSCREDS): -EBADF for no
 * pidfd, -ESRCH once it has exited, -EACCES without ptrace access. */
int pidfd_mm(struct task *t, int fd, struct mm **out);
void process_pidfd_put(struct process *p);
/* Frees a dead task once the scheduler has left its stack. */
void task_free(struct task *t);
int task_count(void);
/* The threads that run guest code, run in the kernel or wait to run. */
int task_nr_active(void);
/* What the load average counts (Linux's nr_active): those and the tasks
 * in an uninterruptible sleep (a vfork parent waiting for its child, the
 * one skas has). */
int task_nr_load(void);
/* Syscall user dispatch: true if t's call nr does not run (a SIGSYS is
 * on its way, or the process is being killed). */
bool sud_dispatch(struct task *t, int nr);
/* --pids-max: the most tasks the instance may hold. */
/* An I/O priority as ioprio_set and IOCB_FLAG_IOPRIO take it (Linux's
 * ioprio_check_cap): 0, -EPERM (the RT class without CAP_SYS_NICE or
 * CAP_SYS_ADMIN) or -EINVAL. */
int ioprio_check(const struct task *t, int v);
int task_pids_max(void);
/* The wait status of the first process once everything has ended. */
int task_init_status(void);
struct pf_regs;
/* arch_prctl's FS and GS codes on r (Linux's do_arch_prctl_64, for a
 * thread itself or its tracer): 0 (r changed), 1 (*get holds the base
 * asked for), -EPERM (past the user range) or -EINVAL (another code). */
int arch_prctl_fsgs(struct pf_regs *r, int code, uint64_t addr, uint64_t *get);
/* Sends sig to a process as kill(2) does; returns 0 or -errno. */
int send_signal(struct task *from, struct process *p, int sig);
/* The same to process p (thread NULL) or one of its threads, with the
 * siginfo info, else kill()'s (SI_USER) or tkill()'s (SI_TKILL) from
 * from: Linux's check_kill_permission, then the signal (0: only the
 * check; a zombie takes and drops it). */
int send_signal_checked(struct task *from, struct process *p, struct task *thread, int sig,
			const struct linux_siginfo *info);
/* kill(-pgrp, sig) (syscalls/sys_signal.c), with the siginfo info if not
 * NULL: 0 if one member took it, else the last error (ESRCH: none). */
long kill_pgrp_info(struct task *t, int pgrp, int sig, const struct linux_siginfo *info);
/* Sends sig with info to process p (thread NULL) or to one thread;
 * 0, or -EAGAIN when the guest queues past RLIMIT_SIGPENDING. */
int send_signal_info(struct process *p, struct task *thread, int sig,
		     const struct linux_siginfo *info);
/* A process CPU-time timer's signal (ITIMER_VIRTUAL/PROF, SIGXCPU, a
 * timer on the process's CPU clock), as send_signal_info(p, NULL, ...)
 * but taken by a thread that is not waiting (signal.c). */
int send_signal_cpu(struct process *p, int sig, const struct linux_siginfo *info);
/* sig to p as Linux's send_sig(sig, p, 0): SI_USER from the current
 * thread, with no permission check; a namespace's init takes SIGKILL or
 * SIGSTOP only from a namespace above (cgroup.kill). */
int send_sig_from_current(struct process *p, int sig);
/* sig to the current thread, as from kill by itself (Linux's send_sig(sig,
 * current, 0)): SIGXFSZ past RLIMIT_FSIZE. */
void send_sig_self(int sig);
/* SIGPIPE so: a write to a pipe or socket that no one reads any more
 * (EPIPE). */
void send_sigpipe(void);
/* Adds sig to t's own pending set, nothing else (no stop or continue
 * side effect, no wakeup): a new task's first signal. */
void signal_queue_thread(struct task *t, int sig, const struct linux_siginfo *info);
/* A synchronous fault: delivered to t even if blocked or ignored. */
void force_signal(struct task *t, int sig, int code, uint64_t addr);
/* The same with a whole siginfo (seccomp's SIGSYS). */
void force_signal_info(struct task *t, const struct linux_siginfo *si);
/* sig (SI_KERNEL) that kills whatever the handler and mask say (Linux's
 * force_exit_sig). */
void force_signal_fatal(struct task *t, int sig);
/* t's FPU, SSE and AVX state back to their initial values (a handler's
 * start, an exec that keeps the thread). */
int fpu_init_state(struct task *t);
/* Checks of an FPU image in standard XSAVE form against what a thread has
 * (view: its platform fpu_get image, the XCR0 first in the software
 * bytes): a header XRSTOR takes (no feature the XCR0 lacks, xcomp_bv and
 * the reserved bytes zero), and the MXCSR bits the CPU allows. */
bool xsave_header_ok(const char *img, uint64_t xcr0);
uint32_t fpu_mxcsr_mask(const char *view);
/* Is sp on t's alternate signal stack (never while it is SS_AUTODISARM)? */
bool signal_on_altstack(const struct task *t, uint64_t sp);
/* sigaltstack(2)'s change of t's alternate stack, the stack pointer being
 * sp: 0, -EPERM (sp on it), -EINVAL (bad flags) or -ENOMEM (too small).
 * The flags are kept as given, as Linux does (a signal frame shows them). */
int signal_altstack_set(struct task *t, const struct linux_stack_t *ss, uint64_t sp);
/* Before t returns to the guest: sleep while the process is stopped,
 * restart or fail an interrupted call, deliver one pending signal (a frame,
 * or its default action). */
void handle_signals(struct task *t);
/* After t stopped at the kernel's interrupt or a host signal, before
 * anything reads its registers: a thread caught inside the stub's handler
 * entry or rt_sigreturn end is first taken where the stub was taking it,
 * so a tracer, a stop or a core dump sees what Linux would. */
void signal_settle_stub(struct task *t);
/* tkill/tgkill: sig (0: only the checks) to one thread; 0 or -errno. */
int send_signal_tkill(struct task *from, struct task *target, int sig);
/* May from send sig to p (kill(2)'s permission rule)? */
bool signal_may_send(struct task *from, struct process *p, int sig);
/* A group stop of p completes once all its threads have stopped. */
void signal_stop_check(struct process *p);
/* A host signal to skas, for the instance (see signal.c). */
void signal_from_host(int sig);
/* Takes the lowest pending signal in allowed (thread's first, then the
 * process's; real-time instances in the order sent); 0 if none. */
int signal_dequeue(struct task *t, uint64_t allowed, struct linux_siginfo *info);
/* Is a signal of POSIX timer id (SI_TIMER) still queued on thread, or on
 * p if thread is NULL? 0: no; 1: yes, of generation gen; 2: one of an
 * older generation was, and now stands for gen. */
int signal_timer_queued(struct process *p, struct task *thread, int sig, int id, int gen);
/* Throws away pending instances of the signals in mask (process and threads). */
void signal_discard(struct process *p, uint64_t mask);
/* Frees the signals still queued on a thread or process that goes away. */
void signal_flush_task(struct task *t);
void signal_flush_process(struct process *p);
/* Scheduling policies (Linux's SCHED_*). */
#define SCHED_POLICY_OTHER    0
#define SCHED_POLICY_FIFO     1
#define SCHED_POLICY_RR	      2
#define SCHED_POLICY_BATCH    3
#define SCHED_POLICY_IDLE     5
#define SCHED_POLICY_DEADLINE 6
/* kernel/prio.c: clone's copy of the scheduling parameters (with
 * SCHED_RESET_ON_FORK's reset); the priority /proc/PID/stat shows. */
void sched_fork_params(struct task *c, const struct task *parent, bool clone_io);
/* t leaves SCHED_DEADLINE (its exit, or another policy): its bandwidth goes
 * back to the admission control's pool (sys_sched.c). */
void sched_dl_release(struct task *t);
/* The CPUs t may run on, as sched_getaffinity reports them: its mask
 * within the guest's CPUs, all of them if never set (or t is NULL). */
void task_affinity(const struct task *t, uint64_t mask[TASK_CPUS_MAX / 64]);
/* A new io_context id (kcmp's KCMP_IO). */
uint64_t ioc_new_id(void);
int task_prio(const struct task *t);
/* The process is gone: its interval timers never fire again (itimer.c). */
void itimer_exit(struct process *p);

/* The fd limit of t's process (RLIMIT_NOFILE's soft limit): its new fds
 * are below it. */
static inline int task_nofile(const struct task *t)
{
	return (int)t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur;
}

#endif
