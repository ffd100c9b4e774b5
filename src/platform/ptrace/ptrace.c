/* platform/ptrace: the ptrace backend of the host-support interface.
 * Every address space is a stub process forked from a zygote stub; its main
 * thread is the control thread, which runs batches of host calls (map, unmap,
 * protect, clone) for the kernel and never runs guest code. Guest threads are
 * further host threads in the stub, run with PTRACE_SYSEMU so that none of
 * their system calls reaches the host. The stubs, batches, threads' creation
 * and FPU state serve the seccomp backend too (ptrace.h). See
 * ../shared/DESIGN.md. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <linux/futex.h>
#include <linux/ptrace.h>
#include <linux/seccomp.h>
#include <elf.h>
#include <cpuid.h>

#include "host/host.h"
#include "kernel/log.h"
#include "platform/platform.h"
#include "platform/stub_image.h"
#include "stub/stub.h"
#include "platform/ptrace/ptrace.h"

static struct stub_op *shared_ops; /* the zygote's ops page (and the payload template) */
static int sock_kernel = -1;	   /* our end of the fd-passing socket */
static int sock_stub = -1;	   /* the stubs' end, kept to drain it */
static struct pf_mm *zygote;
static enum stub_mode stub_mode;
/* The size of a stub's ops memfd: its ops page, and under the sigsys
 * backend its slots after it. */
static size_t ops_file_size = STUB_OPS_SIZE;

#define THREAD_HASH 256
static struct pf_thread *thread_hash[THREAD_HASH];

static struct pf_mm *mm_hash[THREAD_HASH];

static struct pf_mm **mm_slot(struct pf_mm *mm)
{
	struct pf_mm **p;

	for (p = &mm_hash[(unsigned)mm->ctl_pid % THREAD_HASH]; *p; p = &(*p)->hash_next)
		if (*p == mm)
			return p;
	return NULL;
}

static void mm_hash_add(struct pf_mm *mm)
{
	mm->hash_next = mm_hash[(unsigned)mm->ctl_pid % THREAD_HASH];
	mm_hash[(unsigned)mm->ctl_pid % THREAD_HASH] = mm;
}

static void mm_hash_del(struct pf_mm *mm)
{
	struct pf_mm **p = mm_slot(mm);

	if (p)
		*p = mm->hash_next;
}

/* The stub's main thread was reaped: its pid may be reused from now on. */
void ptrace_mm_reaped(int pid)
{
	struct pf_mm *mm;

	for (mm = mm_hash[(unsigned)pid % THREAD_HASH]; mm; mm = mm->hash_next) {
		if (mm->ctl_pid == pid) {
			mm_hash_del(mm);
			mm->dead = true;
			mm->ctl_pid = -1;
			return;
		}
	}
}

struct pf_mm *ptrace_mm_lookup(int pid)
{
	struct pf_mm *mm;

	for (mm = mm_hash[(unsigned)pid % THREAD_HASH]; mm; mm = mm->hash_next)
		if (mm->ctl_pid == pid)
			return mm;
	return NULL;
}

void ptrace_stray_stop(int pid, int status)
{
	struct pf_mm *mm = ptrace_mm_lookup(pid);

	if (mm && mm->bell && WIFSTOPPED(status) && status >> 16 != PTRACE_EVENT_SECCOMP)
		ptrace(PTRACE_CONT, pid, 0, 0);
}

struct pf_thread *ptrace_thread_lookup(int tid)
{
	struct pf_thread *th;

	for (th = thread_hash[(unsigned)tid % THREAD_HASH]; th; th = th->hash_next)
		if (th->tid == tid)
			return th;
	return NULL;
}

void ptrace_thread_hash_add(struct pf_thread *th)
{
	th->hash_next = thread_hash[(unsigned)th->tid % THREAD_HASH];
	thread_hash[(unsigned)th->tid % THREAD_HASH] = th;
}

void ptrace_thread_hash_del(struct pf_thread *th)
{
	struct pf_thread **p;

	if (th->tid <= 0)
		return;
	for (p = &thread_hash[(unsigned)th->tid % THREAD_HASH]; *p; p = &(*p)->hash_next) {
		if (*p == th) {
			*p = th->hash_next;
			return;
		}
	}
}

/* A wait for one pid blocks SIGCHLD first: left unblocked by seccomp's
 * lone-thread wait, each stop would run the handler (a signal delivery and
 * an rt_sigreturn: 7.6 per fork + exit + wait, now 2); the next such wait
 * unblocks it again. */
int ptrace_wait_pid(int pid, int *status)
{
	int r;

	host_sigchld_block();
	do
		r = waitpid(pid, status, __WALL);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

static void queue_op(struct pf_mm *mm, long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
		     uint64_t a4, uint64_t a5)
{
	struct stub_op *op = &mm->ops[mm->nops++];

	op->nr = nr;
	op->arg[0] = a0;
	op->arg[1] = a1;
	op->arg[2] = a2;
	op->arg[3] = a3;
	op->arg[4] = a4;
	op->arg[5] = a5;
	op->child_ip = 0;
}

/* Ends the sharing of the stub's fd 1 by consecutive maps (mm_map). */
static void close_fd1(struct pf_mm *mm)
{
	if (mm->fd1_of) {
		queue_op(mm, SYS_close, 1, 0, 0, 0, 0, 0);
		mm->fd1_of = 0;
	}
}

void ptrace_queue_op(struct pf_mm *mm, long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
		     uint64_t a4, uint64_t a5)
{
	close_fd1(mm);
	queue_op(mm, nr, a0, a1, a2, a3, a4, a5);
}

static void drain_sock(void)
{
	char buf[1], control[CMSG_SPACE(sizeof(int) * 8)];
	struct iovec iov = { buf, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;

	for (;;) {
		msg.msg_control = control;
		msg.msg_controllen = sizeof(control);
		if (recvmsg(sock_stub, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) < 0)
			return;
		for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
			int *fds = (int *)CMSG_DATA(c);
			size_t i, n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);

			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
				for (i = 0; i < n; i++)
					close(fds[i]);
		}
	}
}

static int send_fd(int fd)
{
	char byte = 0, control[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;

	memset(control, 0, sizeof(control));
	msg.msg_control = control;
	msg.msg_controllen = sizeof(control);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	if (sendmsg(sock_kernel, &msg, 0) < 0)
		return -errno;
	return 0;
}

/* The stub writes its recvmsg header itself (stub.h STUB_MSG_*). */
_Static_assert(offsetof(struct stub_data, iov) == STUB_MSG_IOV, "stub msghdr");
_Static_assert(offsetof(struct stub_data, byte) == STUB_MSG_BYTE, "stub msghdr");
_Static_assert(offsetof(struct stub_data, control) == STUB_MSG_CONTROL, "stub msghdr");
_Static_assert(sizeof(((struct stub_data *)0)->control) == STUB_MSG_CONTROL_LEN, "stub msghdr");
_Static_assert(sizeof(struct msghdr) == STUB_MSG_IOV, "stub msghdr");

static void close_queued_fds(struct pf_mm *mm)
{
	int i;

	for (i = 0; i < mm->nfds; i++)
		if (!(mm->fds_borrowed & 1u << i))
			close(mm->fds[i]);
	mm->nfds = 0;
	mm->fds_borrowed = 0;
	mm->fd1_of = 0;
}

static void mark_dead(struct pf_mm *mm)
{
	mm->dead = true;
	close_queued_fds(mm);
	mm->nops = 0;
}

/* Reports of doorbell batches that no one waits for any more (their stub
 * died after sending): dropped, so that none is taken for another's. */
static ssize_t recv_report(int flags)
{
	char byte;
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	return recvmsg(sock_kernel, &msg, flags | MSG_TRUNC);
}

static void drain_reports(void)
{
	while (recv_report(MSG_DONTWAIT) >= 0)
		;
}

/* The stub was reaped by a wait of ours (not the event loop's): its pid
 * may be reused from now on, so nothing may name it any more. */
static void stub_reaped(struct pf_mm *mm)
{
	mm_hash_del(mm);
	mm->ctl_pid = -1;
	mm->killed = true;
	mm->dead = true;
}

void ptrace_stub_kill(struct pf_mm *mm)
{
	if (mm->ctl_pid > 0 && !mm->killed) {
		kill(mm->ctl_pid, SIGKILL);
		mm->killed = true;
	}
}

/* A control thread's state letter from /proc (0 if it cannot be read for
 * want of resources: no verdict). */
static char ctl_state(int pid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ESRCH ? 'X' : 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n == 0 || errno == ESRCH ? 'X' : 0;
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* Whether a control thread we wait for is gone. It may also sit in a
 * ptrace stop: one not yet reported is looked at (a call off its allowlist
 * kills the stub, as everywhere), one the event loop took and dropped (a
 * stray signal) is let go on. */
/* A control thread stopped by a fault: STUB_OP_CMPXCHG's goes on at
 * STUB_CMPXCHG_FAULT and STUB_OP_FUTEX_OP's at STUB_FUTEX_OP_FAULT
 * (stub.h), true; any other's is a broken stub, false (the caller kills
 * it). Not a fault: true, nothing to do. */
static bool stub_fault_fixup(int pid)
{
	struct user_regs_struct regs;
	siginfo_t si;

	if (ptrace(PTRACE_GETSIGINFO, pid, 0, &si) < 0 || si.si_code <= 0 ||
	    (si.si_signo != SIGSEGV && si.si_signo != SIGBUS && si.si_signo != SIGILL &&
	     si.si_signo != SIGFPE))
		return true;
	if (si.si_signo == SIGILL || si.si_signo == SIGFPE ||
	    ptrace(PTRACE_GETREGS, pid, 0, &regs) < 0)
		return false;
	if (regs.rip >= STUB_CMPXCHG && regs.rip < STUB_CMPXCHG_FAULT)
		regs.rip = STUB_CMPXCHG_FAULT;
	else if (regs.rip >= STUB_FUTEX_OP && regs.rip < STUB_FUTEX_OP_FAULT)
		regs.rip = STUB_FUTEX_OP_FAULT;
	else
		return false;
	return ptrace(PTRACE_SETREGS, pid, 0, &regs) == 0;
}

bool ptrace_stub_gone(struct pf_mm *mm)
{
	int status;
	char s = ctl_state(mm->ctl_pid);

	if (s == 'Z' || s == 'X' || s == 'x')
		return true;
	if (s != 't')
		return false;
	if (waitpid(mm->ctl_pid, &status, __WALL | WNOHANG) == mm->ctl_pid) {
		if (!WIFSTOPPED(status)) {
			stub_reaped(mm); /* by that wait */
			return true;
		}
		if (status >> 16 == PTRACE_EVENT_SECCOMP) {
			ptrace_stub_kill(mm);
			return true;
		}
	}
	/* (the stop may have been waited for by another wait: asked of
	 * the thread, not of the status) */
	if (!stub_fault_fixup(mm->ctl_pid)) {
		ptrace_stub_kill(mm);
		return true;
	}
	ptrace(PTRACE_CONT, mm->ctl_pid, 0, 0);
	return false;
}

bool ptrace_stub_exited(struct pf_mm *mm)
{
	char s = mm->ctl_pid > 0 ? ctl_state(mm->ctl_pid) : 'X';

	return s == 'Z' || s == 'X' || s == 'x';
}

/* A stub whose batch we gave up on: killed, and its report (if it sent one
 * before it died) dropped, so that none is taken for another's. */
static void bell_lost(struct pf_mm *mm)
{
	int i;

	if (mm->ctl_pid <= 0) { /* reaped (ptrace_stub_gone) */
		drain_reports();
		return;
	}
	ptrace_stub_kill(mm);
	for (i = 0; i < 100; i++) {
		char s = ctl_state(mm->ctl_pid);

		if (s == 'Z' || s == 'X' || s == 'x')
			break;
		usleep(1000);
	}
	drain_reports();
}

/* Rings mm's doorbell for the ops on its page: a control thread stopped
 * at a batch's int3 is continued into the loop (no register to set), one
 * waiting in it is woken. report: the batch ends with the report, else
 * with an int3 (stub.h STUB_BELL_REPORT). */
static int ring_bell(struct pf_mm *mm, bool report)
{
	uint32_t *bell = (uint32_t *)((char *)mm->page + (STUB_BELL_WORD - STUB_OPS));
	uint32_t seq = *bell + 1;

	if (seq == 0)
		seq = 1; /* the loop starts with 0 as the value last run */
	bell[1] = report;
	__atomic_store_n(bell, seq, __ATOMIC_RELEASE);
	if (!mm->bell) {
		if (ptrace(PTRACE_CONT, mm->ctl_pid, 0, 0) < 0)
			return -ESRCH;
	} else {
		/* All waiters: a stub killed while waiting on a pooled page's
		 * word may still be one. */
		syscall(SYS_futex, bell, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	}
	mm->bell = report;
	return 0;
}

/*
 * Runs the queued ops through the doorbell: no ptrace stop, two host
 * context switches. The stub's report is a datagram's length (stub.h);
 * sock_kernel's receive timeout lets us look whether the stub died.
 */
static int run_bell(struct pf_mm *mm)
{
	uint32_t *bell = (uint32_t *)((char *)mm->page + (STUB_BELL_WORD - STUB_OPS));
	ssize_t n;

	if (ring_bell(mm, true) < 0)
		return -ESRCH;
	for (;;) {
		n = recv_report(0);
		if (n > 0)
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && !ptrace_stub_gone(mm)) {
			syscall(SYS_futex, bell, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
			continue;
		}
		bell_lost(mm);
		return -ESRCH;
	}
	if (n == 1)
		return 0;
	return n <= 4096 ? -(int)(n - 1) : -EIO;
}

/*
 * Runs the queued ops in mm's control thread and waits for its int3.
 * A fork or clone op reports the new host pid in *new_pid. Returns 0, the
 * -errno of the first failing op, or -ESRCH if the stub is gone.
 */
int ptrace_run_batch(struct pf_mm *mm, int *new_pid)
{
	struct user_regs_struct regs;
	int i, status, ret = 0, nops, base = 0;
	bool had_fds = mm->nfds > 0, use_bell, first = mm->boot_page != NULL, reaped = false;

	close_fd1(mm);
	nops = mm->nops;
	if (mm->dead) {
		mm->nops = 0;
		close_queued_fds(mm);
		return -ESRCH;
	}
	if (nops == 0)
		return 0;
	/* A clone's new pid comes from the control thread's registers, and a
	 * stub's first batch maps its own page: those end in a ptrace stop.
	 * Any other batch ends with the doorbell's report. */
	use_bell = mm != zygote && !new_pid && !first && mm->ops[nops - 1].nr != SYS_clone;
	/* A new stub's first batch goes where its fork's left off: it runs
	 * on from there, needing no register set. */
	if (first && mm->boot_next + nops < STUB_MAX_OPS)
		base = mm->boot_next;
	memcpy(mm->page + base, mm->ops, nops * sizeof(struct stub_op));
	mm->page[base + nops].nr = -1;
	mm->batch_end = base + nops;
	if (mm->boot_page) {
		memcpy(mm->boot_page + base, mm->page + base, (nops + 1) * sizeof(struct stub_op));
		mm->boot_page = NULL;
	}
	mm->nops = 0;
	if (mm->nfds) {
		for (i = 0; i < mm->nfds && ret == 0; i++)
			ret = send_fd(mm->fds[i]);
		close_queued_fds(mm);
		if (ret < 0) {
			drain_sock();
			/* As a failed first batch below: a new stub would run
			 * on into its parent's page and wait for these fds. */
			if (first) {
				ptrace_stub_kill(mm);
				mark_dead(mm);
			}
			return ret;
		}
	}
	if (use_bell) {
		ret = run_bell(mm);
		if (ret == -ESRCH)
			goto lost;
		if (ret < 0) {
			drain_sock();
			if (had_fds) {
				ptrace_queue_op(mm, SYS_close_range, 1, 1, 0, 0, 0, 0);
				if (ptrace_run_batch(mm, NULL) < 0)
					mark_dead(mm);
			}
		}
		return ret;
	}
	/* A new stub is continued from its first stop (PTRACE_EVENT_STOP);
	 * it runs on in its fork's batch, unless its first did not fit after
	 * that: then, as the zygote (at no batch's int3, nor in the doorbell
	 * loop), it is pointed at the batch. */
	if ((mm == zygote || (first && !base)) &&
	    ptrace(PTRACE_POKEUSER, mm->ctl_pid, offsetof(struct user_regs_struct, rip),
		   STUB_BATCH) < 0)
		goto lost;
	if (mm == zygote || first) {
		if (ptrace(PTRACE_CONT, mm->ctl_pid, 0, 0) < 0)
			goto lost;
	} else if (ring_bell(mm, false) < 0) {
		goto lost;
	}
	for (;;) {
		if (ptrace_wait_pid(mm->ctl_pid, &status) < 0 || !WIFSTOPPED(status)) {
			reaped = true;
			goto lost;
		}
		/* A call off the stub's allowlist (its filter's default is
		 * RET_TRACE under the seccomp backend): never let it through;
		 * the stub dies (it is not reaped yet, so the pid is its). */
		if (status >> 16 == PTRACE_EVENT_SECCOMP)
			goto lost;
		if (WSTOPSIG(status) == SIGTRAP && status >> 16 == 0)
			break;
		if (!stub_fault_fixup(mm->ctl_pid) || ptrace(PTRACE_CONT, mm->ctl_pid, 0, 0) < 0)
			goto lost;
	}
	if (ptrace(PTRACE_GETREGS, mm->ctl_pid, 0, &regs) < 0)
		goto lost;
	i = (int)((regs.rbx - STUB_OPS) / STUB_OP_SIZE) - base;
	if (i >= nops && new_pid)
		*new_pid = (int)regs.r15; /* the last op was the clone */
	if (i < nops) {
		drain_sock();
		ret = (long)regs.rax < 0 ? (int)regs.rax : -EIO;
		/* A new stub whose first batch failed may still read its
		 * parent's page (its own not mapped): no bell of its own would
		 * reach it. It is of no further use. */
		if (first) {
			ptrace_stub_kill(mm);
			mark_dead(mm);
			return ret;
		}
		/* An op failed between receiving an fd and closing it: close
		 * every fd but the socket, so the next one arrives at 1 again. */
		if (had_fds) {
			ptrace_queue_op(mm, SYS_close_range, 1, 1, 0, 0, 0, 0);
			if (ptrace_run_batch(mm, NULL) < 0)
				mark_dead(mm);
		}
	}
	return ret;
lost:
	/* A stub reaped here: its pid may be reused, so nothing names it
	 * any more. One that is not (a call off its allowlist, a request
	 * refused: it is not where we thought) may still run, and its ops
	 * page goes back to the pool: it must not live on to run another
	 * stub's ops. */
	if (reaped)
		stub_reaped(mm);
	else
		ptrace_stub_kill(mm);
	mark_dead(mm);
	drain_sock();
	return -ESRCH;
}

int ptrace_event_fds(int *epfd, int *sigfd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = NULL };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	*sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	*epfd = epoll_create1(EPOLL_CLOEXEC);
	if (*sigfd < 0 || *epfd < 0)
		return -errno;
	return epoll_ctl(*epfd, EPOLL_CTL_ADD, *sigfd, &ev) < 0 ? -errno : 0;
}

bool ptrace_sigchld(int sigfd, bool read_fd)
{
	static unsigned evloop_sigchlds;
	struct signalfd_siginfo si;
	bool got = false;

	/* One read: SIGCHLD is pending once at most. */
	if (read_fd && read(sigfd, &si, sizeof(si)) > 0)
		got = true;
	if (host_evloop_sigchld_count() != evloop_sigchlds) {
		evloop_sigchlds = host_evloop_sigchld_count();
		got = true;
	}
	return got;
}

/* Waits for a new stub thread's first stop (PTRACE_EVENT_STOP, in the
 * stub code right after its clone): it stays there until the kernel points
 * it somewhere (a batch, the guest's registers) and resumes it. */
int ptrace_park_thread(int tid)
{
	int status;

	if (ptrace_wait_pid(tid, &status) < 0 || !WIFSTOPPED(status))
		return -ESRCH;
	return 0;
}

/* Ops pages of stubs gone, kept for the next (making one is a memfd, a
 * truncate and a mapping: a fifth of a fork's cost), their ops cleared. */
#define OPS_POOL 16
static struct stub_op *pool_page[OPS_POOL];
static int pool_fd[OPS_POOL], npool;

/* An ops page and its memfd (*fd, the kernel's), with the payload (filter
 * programs) of the zygote's. */
static struct stub_op *new_ops_page(int *fd)
{
	struct stub_op *page;

	if (npool > 0) {
		npool--;
		*fd = pool_fd[npool];
		memset(pool_page[npool], 0, STUB_PAYLOAD - STUB_OPS);
		return pool_page[npool];
	}
	*fd = memfd_create("skas-ops", MFD_CLOEXEC);
	if (*fd < 0)
		return NULL;
	if (ftruncate(*fd, (off_t)ops_file_size) < 0 ||
	    (page = mmap(NULL, ops_file_size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0)) ==
		    MAP_FAILED) {
		close(*fd);
		return NULL;
	}
	memcpy((char *)page + (STUB_PAYLOAD - STUB_OPS),
	       (char *)shared_ops + (STUB_PAYLOAD - STUB_OPS),
	       STUB_OPS_SIZE - (STUB_PAYLOAD - STUB_OPS));
	return page;
}

/* slots_hwm: the slots (sigsys) a stub used: their mailboxes are cleared
 * for the next. */
static void put_ops_page(struct stub_op *page, int fd, int slots_hwm)
{
	int i;

	if (npool < OPS_POOL) {
		/* what the last stub's threads returned to is not the next's */
		memset((char *)page + (STUB_SR_SLOTS - STUB_OPS), 0,
		       STUB_SR_NSLOTS * STUB_SR_SLOT_SIZE);
		for (i = 0; i < slots_hwm; i++)
			memset((char *)page + STUB_OPS_SIZE + (size_t)i * STUB_SLOT_SIZE, 0,
			       STUB_SLOT_STACK);
		pool_page[npool] = page;
		pool_fd[npool++] = fd;
		return;
	}
	munmap(page, ops_file_size);
	close(fd);
}

/* A zeroed pf_mm but for its op queue (8 KiB), which is written before it
 * is read: queue_op fills ops[nops++]. */
static struct pf_mm *mm_struct_alloc(void)
{
	struct pf_mm *mm = malloc(sizeof(*mm));

	if (mm)
		memset(mm, 0, offsetof(struct pf_mm, ops));
	return mm;
}

static int fork_stub(struct pf_mm *src, struct pf_mm **out)
{
	struct stub_op *page;
	struct pf_mm *mm;
	int pid = -1, ret, fd;

	if (src->nops > MAX_QUEUED_OPS) {
		ret = ptrace_run_batch(src, NULL);
		if (ret < 0)
			return ret;
	}
	page = new_ops_page(&fd);
	if (!page)
		return -ENOMEM;
	ptrace_queue_op(src, SYS_clone, FORK_CLONE_FLAGS, 0, 0, 0, 0, 0);
	ret = ptrace_run_batch(src, &pid);
	if (ret == 0 && pid <= 0)
		ret = -EIO;
	mm = ret == 0 ? mm_struct_alloc() : NULL;
	if (!mm) {
		if (ret == 0)
			kill(pid, SIGKILL);
		put_ops_page(page, fd, 0);
		return ret < 0 ? ret : -ENOMEM;
	}
	mm->ctl_pid = pid;
	mm->page = page;
	mm->page_fd = fd;
	mm_hash_add(mm);
	ret = ptrace_park_thread(pid);
	if (ret < 0) { /* gone, and reaped by that wait: no kill */
		mm_hash_del(mm);
		put_ops_page(page, fd, 0);
		free(mm);
		return ret;
	}
	/* Its first batch maps its own page over its parent's: the ops up to
	 * that mmap are read from the parent's page, the rest from its own
	 * (both get the whole list). That batch runs before the parent can
	 * go: a fork adds the child's thread at once, an exec maps the new
	 * program (the zygote never goes). The fd arrives as fd 1 (nothing
	 * else is open in a stub). */
	mm->boot_page = src->page;
	mm->boot_next = src->batch_end; /* the op after the fork's clone */
	/* The page's own fd, sent as it is (no copy to close after). */
	mm->fds_borrowed |= 1u << mm->nfds;
	mm->fds[mm->nfds++] = mm->page_fd;
	ptrace_queue_op(mm, SYS_recvmsg, STUB_SOCK_FD, STUB_DATA, 0, 0, 0, 0);
	ptrace_queue_op(mm, SYS_mmap, STUB_OPS, STUB_OPS_SIZE, PROT_READ, MAP_SHARED | MAP_FIXED, 1,
			0);
	/* sigsys: its own slots too (a fork's are its parent's till now) */
	if (stub_mode == STUB_MODE_SIGSYS)
		ptrace_queue_op(mm, SYS_mmap, STUB_SLOTS, STUB_SLOTS_SIZE, PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_FIXED, 1, STUB_OPS_SIZE);
	ptrace_queue_op(mm, SYS_close, 1, 0, 0, 0, 0, 0);
	*out = mm;
	return 0;
}

int ptrace_mm_new(struct pf_mm **out)
{
	return fork_stub(zygote, out);
}

int ptrace_mm_flush(struct pf_mm *mm)
{
	return ptrace_run_batch(mm, NULL);
}

int ptrace_mm_copy(struct pf_mm *src, struct pf_mm **out)
{
	return fork_stub(src, out);
}

static void spares_drop(struct pf_mm *mm);

void ptrace_mm_put(struct pf_mm *mm)
{
	if (!mm)
		return;
	spares_drop(mm);
	close_queued_fds(mm);
	/* The kernel is the stub's parent: its pid cannot be reused before we
	 * reap it, and a reaped stub's ctl_pid is -1. */
	ptrace_stub_kill(mm);
	mm_hash_del(mm);
	/* Only a reaped stub's page goes back to the pool: the threads of
	 * one killed a moment ago may still wait on its words (a wake of
	 * one would wake them first) and clear their tid words as they exit
	 * (the next stub's slots). */
	if (mm->page && mm->page != shared_ops) {
		if (mm->ctl_pid <= 0) {
			put_ops_page(mm->page, mm->page_fd, mm->slots_hwm);
		} else {
			munmap(mm->page, ops_file_size);
			close(mm->page_fd);
		}
	}
	free(mm);
}

/* Makes room for n more ops, flushing what is queued if needed. */
int ptrace_reserve_ops(struct pf_mm *mm, int nops, int nfds)
{
	if (mm->nops + nops > MAX_QUEUED_OPS || mm->nfds + nfds > MAX_QUEUED_FDS)
		return ptrace_run_batch(mm, NULL);
	return 0;
}

int ptrace_mm_map(struct pf_mm *mm, uint64_t addr, uint64_t len, int prot, int flags, int host_fd,
		  uint64_t off)
{
	int ret, fd;

	if (host_fd < 0) {
		ret = ptrace_reserve_ops(mm, 1, 0);
		if (ret < 0)
			return ret;
		ptrace_queue_op(mm, SYS_mmap, addr, len, prot, flags | MAP_FIXED, -1, off);
		return 0;
	}
	ret = ptrace_reserve_ops(mm, 3, 1);
	if (ret < 0)
		return ret;
	/* Consecutive maps of one host fd (an ELF's segments) share one copy
	 * in the stub, kept at fd 1 until another op or the batch's end. The
	 * number is still that file's: the last map's VMA holds the file, and
	 * removing it queues another op. */
	if (mm->fd1_of == host_fd + 1) {
		queue_op(mm, SYS_mmap, addr, len, prot, flags | MAP_FIXED, 1, off);
		return 0;
	}
	fd = fcntl(host_fd, F_DUPFD_CLOEXEC, 3);
	if (fd < 0)
		return -errno;
	close_fd1(mm);
	mm->fds[mm->nfds++] = fd;
	/* Nothing else is open in a stub, so the fd arrives as fd 1. */
	queue_op(mm, SYS_recvmsg, STUB_SOCK_FD, STUB_DATA, 0, 0, 0, 0);
	queue_op(mm, SYS_mmap, addr, len, prot, flags | MAP_FIXED, 1, off);
	mm->fd1_of = host_fd + 1;
	return 0;
}

int ptrace_mm_unmap(struct pf_mm *mm, uint64_t addr, uint64_t len)
{
	int ret = ptrace_reserve_ops(mm, 1, 0);

	if (ret == 0)
		ptrace_queue_op(mm, SYS_munmap, addr, len, 0, 0, 0, 0);
	return ret;
}

int ptrace_mm_recycle(struct pf_mm *mm, uint64_t keep, uint64_t keep_len)
{
	int ret = ptrace_reserve_ops(mm, 4, 0);

	if (ret < 0)
		return ret;
	/* The stub's own guest-writable scratch page (its bss: private
	 * anonymous memory) is cleared first in the batch, before any
	 * recvmsg op writes its header there: what the old image wrote does
	 * not survive its exec (security.sh), and no host write of its own
	 * is needed. Guests may map above the stub too. */
	ptrace_queue_op(mm, SYS_madvise, STUB_DATA, 4096, MADV_DONTNEED, 0, 0, 0);
	ptrace_queue_op(mm, SYS_munmap, STUB_END, STUB_TASK_TOP - STUB_END, 0, 0, 0, 0);
	if (keep_len == 0 || keep + keep_len > STUB_BASE || keep % 4096 || keep_len % 4096) {
		ptrace_queue_op(mm, SYS_munmap, 0, STUB_BASE, 0, 0, 0, 0);
		return 0;
	}
	if (keep > 0)
		ptrace_queue_op(mm, SYS_munmap, 0, keep, 0, 0, 0, 0);
	if (keep + keep_len < STUB_BASE)
		ptrace_queue_op(mm, SYS_munmap, keep + keep_len, STUB_BASE - keep - keep_len, 0, 0,
				0, 0);
	return 0;
}

int ptrace_mm_protect(struct pf_mm *mm, uint64_t addr, uint64_t len, int prot)
{
	int ret = ptrace_reserve_ops(mm, 1, 0);

	if (ret == 0)
		ptrace_queue_op(mm, SYS_mprotect, addr, len, prot, 0, 0, 0);
	return ret;
}

int ptrace_mm_advise(struct pf_mm *mm, uint64_t addr, uint64_t len, int advice)
{
	int ret = ptrace_reserve_ops(mm, 1, 0);

	if (ret == 0)
		ptrace_queue_op(mm, SYS_madvise, addr, len, advice, 0, 0, 0);
	return ret;
}

int ptrace_mm_move(struct pf_mm *mm, uint64_t old_addr, uint64_t old_len, uint64_t new_len,
		   uint64_t new_addr)
{
	int ret = ptrace_reserve_ops(mm, 1, 0);

	/* At the same address: a resize in place, which moves nothing. */
	if (ret == 0 && new_addr == old_addr)
		ptrace_queue_op(mm, SYS_mremap, old_addr, old_len, new_len, 0, 0, 0);
	else if (ret == 0)
		ptrace_queue_op(mm, SYS_mremap, old_addr, old_len, new_len,
				MREMAP_MAYMOVE | MREMAP_FIXED, new_addr, 0);
	return ret;
}

int ptrace_flush_queued(struct pf_mm *mm)
{
	int ret;

	if (!mm->nops)
		return 0;
	ret = ptrace_run_batch(mm, NULL);
	if (ret == -ESRCH)
		return ret;
	if (ret < 0 && !mm->op_failure_logged) {
		mm->op_failure_logged = true;
		klog(LOG_INFO,
		     "stub %d: a queued host mapping op failed (%s); the guest's memory differs "
		     "from its map",
		     mm->ctl_pid, strerror(-ret));
	}
	return 0;
}

long ptrace_mm_read(struct pf_mm *mm, void *dst, uint64_t src, size_t n)
{
	struct iovec local = { dst, n };
	struct iovec remote = { (void *)src, n };
	ssize_t r;

	if (ptrace_flush_queued(mm) == -ESRCH)
		return -EFAULT;
	r = process_vm_readv(mm->ctl_pid, &local, 1, &remote, 1, 0);
	return r < 0 ? -EFAULT : r;
}

long ptrace_mm_write(struct pf_mm *mm, uint64_t dst, const void *src, size_t n)
{
	struct iovec local = { (void *)src, n };
	struct iovec remote = { (void *)dst, n };
	ssize_t r;

	if (ptrace_flush_queued(mm) == -ESRCH)
		return -EFAULT;
	r = process_vm_writev(mm->ctl_pid, &local, 1, &remote, 1, 0);
	return r < 0 ? -EFAULT : r;
}

int ptrace_mm_writev(struct pf_mm *mm, const struct pf_iov *v, int n)
{
	struct iovec local[PF_WRITEV_MAX], remote[PF_WRITEV_MAX];
	size_t total = 0;
	int i;

	if (n < 0 || n > PF_WRITEV_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		local[i].iov_base = (void *)v[i].src;
		remote[i].iov_base = (void *)v[i].addr;
		local[i].iov_len = remote[i].iov_len = v[i].len;
		total += v[i].len;
	}
	if (ptrace_flush_queued(mm) == -ESRCH)
		return -EFAULT;
	/* A short count: the remote ranges are written in order, and one
	 * failed part way. */
	return process_vm_writev(mm->ctl_pid, local, n, remote, n, 0) == (ssize_t)total ? 0
											: -EFAULT;
}

/* One STUB_OP_CMPXCHG batch of its own, the ops queued before it run
 * first. Its failure is the answer, not a broken batch: a stub's first
 * batch that fails kills it, but a stub a guest thread runs in has run
 * its first long ago. */
int ptrace_mm_cmpxchg32(struct pf_mm *mm, uint64_t addr, uint32_t old, uint32_t new)
{
	int ret;

	if (ptrace_flush_queued(mm) == -ESRCH || mm->boot_page)
		return -EFAULT;
	ptrace_queue_op(mm, STUB_OP_CMPXCHG, addr, old, new, 0, 0, 0);
	ret = ptrace_run_batch(mm, NULL);
	return ret == 0 || ret == -EAGAIN ? ret : -EFAULT;
}

/* One STUB_OP_FUTEX_OP batch of its own, ended in a stop so that its
 * result, the old value, is read from the control thread's registers (as a
 * clone's new pid). */
int ptrace_mm_futex_op(struct pf_mm *mm, uint64_t addr, int op, uint32_t arg, uint32_t *old)
{
	int ret, res = 0;

	if (ptrace_flush_queued(mm) == -ESRCH || mm->boot_page)
		return -EFAULT;
	ptrace_queue_op(mm, STUB_OP_FUTEX_OP, addr, (uint64_t)op, arg, 0, 0, 0);
	ret = ptrace_run_batch(mm, &res);
	if (ret < 0)
		return -EFAULT;
	*old = (uint32_t)res;
	return 0;
}

void ptrace_mm_doom(struct pf_mm *mm)
{
	mm->doomed = true;
}

/* Waits until the host task pid (ours to reap: a stub's main thread or,
 * traced, one of its threads) is gone; a stop on its way out is passed. */
static int reap_task(int pid, struct rusage *ru)
{
	int status, r;

	host_sigchld_block(); /* as ptrace_wait_pid */
	for (;;) {
		r = wait4(pid, &status, __WALL, ru);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (WIFEXITED(status) || WIFSIGNALED(status))
			return 0;
	}
}

static uint64_t rusage_ticks(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 100 + (uint64_t)tv->tv_usec / 10000;
}

/* The stub dies now instead of in the background: the kernel waits for
 * its teardown, which the same CPU would run anyway, and in exchange the
 * host's count of the whole stub comes with the wait4 that reaps it, in
 * place of three /proc files read before the kill (8 host calls). */
int ptrace_mm_reap(struct pf_mm *mm, struct pf_thread *th, struct host_cputime *out,
		   long *maxrss_kb)
{
	struct rusage ru;
	int pid = mm->ctl_pid, tid = th->tid, ret;

	if (mm->dead || !mm->doomed || mm->threads_made != 1 || th->mm != mm || tid <= 0)
		return -EBUSY;
	memset(out, 0, sizeof(*out));
	*maxrss_kb = -1;
	/* SIGCHLD blocked before the kill (reap_task would block it only
	 * after): the thread's and the stub's ends, which the waits below
	 * take, would each run the handler (seccomp's lone-thread wait leaves
	 * it unblocked); blocked, they are one pending signal at most. */
	host_sigchld_block();
	platform->thread_put(th);
	ptrace_stub_kill(mm);
	/* A thread group's leader is reported once its other threads are
	 * gone, and those are ours to reap (traced). */
	reap_task(tid, NULL);
	ret = reap_task(pid, &ru);
	stub_reaped(mm);
	if (ret < 0)
		return 0; /* no one else reaps it: cannot happen; nothing counted */
	out->rt_ns = ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
		     ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
	out->uticks = rusage_ticks(&ru.ru_utime);
	out->sticks = rusage_ticks(&ru.ru_stime);
	out->minflt = (uint64_t)ru.ru_minflt;
	out->majflt = (uint64_t)ru.ru_majflt;
	*maxrss_kb = ru.ru_maxrss;
	return 0;
}

int ptrace_mm_host_pid(struct pf_mm *mm)
{
	return mm->ctl_pid;
}

int ptrace_thread_host_tid(struct pf_thread *th)
{
	return th->tid;
}

/*
 * Spares. A guest thread's host thread that the kernel puts while it is in
 * a ptrace stop stays there, in its stub (under seccomp with its filter and
 * listener; under sigsys, whose threads are not traced, waiting in its
 * handler with its slot), for the stub's next guest thread: up to
 * SPARES_PER_MM a stub, SPARES_MAX in all. Taking one costs a register set
 * and an FPU copy; a new one costs a clone batch and two ptrace stops
 * (under seccomp and sigsys also its filter's install: the host compiles
 * every filter, ~100 us on a PVM host), and retiring one stops of its own.
 * A spare carries nothing of the guest thread it ran: its registers and
 * FPU state are set whole before it runs again, and the rest of its host
 * state (signal mask, fd table, filter) is the stub's, which no guest code
 * can change. Under ptrace and seccomp it stays in the thread hash: its
 * end (its stub killed) is reaped as any thread's, so its tid is not
 * reused unseen.
 */
#define SPARES_PER_MM 8
#define SPARES_MAX    64
static int nspares_all;
static void (*spare_free)(struct pf_thread *th);
#define DR6_RESERVED 0xffff0ff0L
static long fresh_dr6; /* a new thread's DR6, once fresh_dr6_known */
static bool fresh_dr6_known;

void ptrace_spares_init(void (*free_fn)(struct pf_thread *))
{
	spare_free = free_fn;
}

bool ptrace_spare_park(struct pf_thread *th)
{
	struct pf_mm *mm = th->mm;

	if (th->tid <= 0 || th->running || mm->dead || mm->doomed || mm->nspares >= SPARES_PER_MM ||
	    nspares_all >= SPARES_MAX)
		return false;
	/* A new thread has no hardware breakpoint (Linux's copy_thread). */
	if (th->debugregs && ptrace_debugreg_clear(th) < 0)
		return false;
	th->spare = true;
	th->owner = NULL;
	th->want_stop = false;
	th->regs_valid = th->regs_dirty = th->has_result = false;
	th->spare_next = mm->spares;
	mm->spares = th;
	mm->nspares++;
	nspares_all++;
	return true;
}

struct pf_thread *ptrace_spare_take(struct pf_mm *mm, void *owner)
{
	struct pf_thread *th = mm->spares;

	if (!th)
		return NULL;
	mm->spares = th->spare_next;
	mm->nspares--;
	nspares_all--;
	th->spare_next = NULL;
	th->spare = false;
	th->reused = true;
	th->owner = owner;
	return th;
}

int ptrace_spare_take_fpu(struct pf_mm *mm, void *owner, struct pf_thread *src,
			  struct pf_thread **out)
{
	struct pf_thread *th = ptrace_spare_take(mm, owner);
	int ret = ptrace_copy_fpu(th, src);

	if (ret == 0) {
		*out = th;
		return 0;
	}
	/* Not parked again: it may be the one that is gone (it then dies
	 * with its stub, reaped as a stranger). */
	ptrace_thread_hash_del(th);
	spare_free(th);
	return ret;
}

void ptrace_spare_drop(struct pf_thread *th)
{
	struct pf_thread **p;

	for (p = &th->mm->spares; *p; p = &(*p)->spare_next) {
		if (*p == th) {
			*p = th->spare_next;
			th->mm->nspares--;
			nspares_all--;
			break;
		}
	}
	ptrace_thread_hash_del(th);
	spare_free(th);
}

static void spares_drop(struct pf_mm *mm)
{
	if (!mm->spares)
		return;
	ptrace_stub_kill(mm);
	while (mm->spares)
		ptrace_spare_drop(mm->spares);
}

bool ptrace_thread_reused(struct pf_thread *th)
{
	return th->reused;
}

static void thread_free(struct pf_thread *th)
{
	ptrace_sr_slot_put(th);
	free(th);
}

int ptrace_thread_create(struct pf_mm *mm, void *owner, uint64_t entry, unsigned long flags,
			 struct pf_thread **out)
{
	struct pf_thread *th;
	int tid = -1, ret;

	ret = ptrace_reserve_ops(mm, 1, 0);
	if (ret < 0)
		return ret;
	ptrace_queue_op(mm, SYS_clone, flags, 0, 0, 0, 0, 0);
	mm->ops[mm->nops - 1].child_ip = entry;
	ret = ptrace_run_batch(mm, &tid);
	if (ret < 0)
		return ret;
	if (tid <= 0)
		return -EIO;
	mm->threads_made++; /* every host thread the stub had, even one that failed */
	ret = ptrace_park_thread(tid);
	if (ret < 0)
		return ret;
	th = calloc(1, sizeof(*th));
	if (!th) {
		syscall(SYS_tgkill, mm->ctl_pid, tid, SIGKILL);
		return -ENOMEM;
	}
	th->tid = tid;
	th->mm = mm;
	th->owner = owner;
	ptrace_thread_hash_add(th);
	*out = th;
	return 0;
}

static int ptrace_thread_new(struct pf_mm *mm, void *owner, struct pf_thread **out)
{
	struct pf_thread *th = ptrace_spare_take(mm, owner);

	if (th) {
		*out = th;
		return 0;
	}
	return ptrace_thread_create(mm, owner, 0, THREAD_CLONE_FLAGS, out);
}

/* src's XSAVE area, the host's own image (an XRSTOR takes it as it is),
 * in a buffer of ours: its size, or -1. */
static long xstate_read(struct pf_thread *src, char **out)
{
	static char buf[16384] __attribute__((aligned(64)));
	struct iovec iov = { buf, sizeof(buf) };

	if (ptrace(PTRACE_GETREGSET, src->tid, NT_X86_XSTATE, &iov) < 0)
		return -1;
	*out = buf;
	return (long)iov.iov_len;
}

int ptrace_prime_fpu(struct pf_mm *mm, struct pf_thread *src)
{
	char *buf;
	long n = xstate_read(src, &buf);
	int ret;

	if (n <= 512 || n > (long)STUB_FPU_IMAGE_MAX)
		return -EOPNOTSUPP;
	ret = ptrace_reserve_ops(mm, 2, 0);
	if (ret < 0)
		return ret;
	memcpy((char *)mm->page + (STUB_FPU_IMAGE - STUB_OPS), buf, (size_t)n);
	ptrace_queue_op(mm, STUB_OP_XRSTOR, STUB_FPU_IMAGE, 0, 0, 0, 0, 0);
	return 0;
}

static int ptrace_thread_new_fpu(struct pf_mm *mm, void *owner, struct pf_thread *src,
				 struct pf_thread **out)
{
	int ret;

	if (mm->spares)
		return ptrace_spare_take_fpu(mm, owner, src, out);
	ret = ptrace_prime_fpu(mm, src);
	return ret < 0 ? ret : ptrace_thread_new(mm, owner, out);
}

/* A guest thread leaves by running exit(0) in the stub itself: a host
 * SIGKILL would take the whole stub (and its other threads) with it. */
static void ptrace_thread_put(struct pf_thread *th)
{
	int status;

	if (!th || ptrace_spare_park(th))
		return;
	ptrace_thread_hash_del(th);
	if (th->tid > 0 && !th->mm->dead && !th->mm->doomed) {
		if (th->running) {
			ptrace(PTRACE_INTERRUPT, th->tid, 0, 0);
			do {
				if (ptrace_wait_pid(th->tid, &status) < 0)
					goto out;
			} while (!WIFSTOPPED(status) && !WIFEXITED(status) && !WIFSIGNALED(status));
			if (!WIFSTOPPED(status))
				goto out;
		}
		if (ptrace(PTRACE_POKEUSER, th->tid, offsetof(struct user_regs_struct, rip),
			   STUB_EXIT_THREAD) == 0)
			ptrace(PTRACE_CONT, th->tid, 0, 0);
	}
out:
	free(th);
}

static int ptrace_interrupt(struct pf_thread *th)
{
	if (!th->running || th->want_stop)
		return 0;
	th->want_stop = true;
	return ptrace(PTRACE_INTERRUPT, th->tid, 0, 0) < 0 ? -ESRCH : 0;
}

long ptrace_fpu_get(struct pf_thread *th, void *buf, size_t size)
{
	struct iovec iov = { buf, size };

	if (ptrace(PTRACE_GETREGSET, th->tid, NT_X86_XSTATE, &iov) == 0)
		return (long)iov.iov_len;
	if (size < sizeof(struct user_fpregs_struct))
		return -EINVAL;
	if (ptrace(PTRACE_GETFPREGS, th->tid, 0, buf) < 0)
		return -ESRCH;
	return sizeof(struct user_fpregs_struct);
}

int ptrace_debugreg(struct pf_thread *th, int n, uint64_t *val, bool write)
{
	long off = (long)(offsetof(struct user, u_debugreg) + (size_t)n * 8), v;

	if (th->tid <= 0 || th->running || n < 0 || n > 7)
		return -ESRCH;
	if (!fresh_dr6_known) {
		/* Before the first write anywhere: what a new thread's DR6
		 * reads, for ptrace_debugreg_clear. Linux 5.11 on flips
		 * DR6_RESERVED in (only a step's or a hit's bits besides),
		 * before it reads 0 (or those bits). */
		errno = 0;
		v = ptrace(PTRACE_PEEKUSER, th->tid, offsetof(struct user, u_debugreg[6]), 0);
		if (v == -1 && errno)
			return -errno;
		fresh_dr6 = (v & DR6_RESERVED) == DR6_RESERVED ? DR6_RESERVED : 0;
		fresh_dr6_known = true;
	}
	if (write) {
		if (ptrace(PTRACE_POKEUSER, th->tid, off, *val) < 0)
			return -errno;
		th->debugregs = true;
		return 0;
	}
	errno = 0;
	v = ptrace(PTRACE_PEEKUSER, th->tid, off, 0);
	if (v == -1 && errno)
		return -errno;
	*val = (uint64_t)v;
	return 0;
}

int ptrace_debugreg_clear(struct pf_thread *th)
{
	static const int order[] = { 7, 0, 1, 2, 3, 6 };
	uint64_t v;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		v = order[i] == 6 ? (uint64_t)fresh_dr6 : 0;
		ret = ptrace_debugreg(th, order[i], &v, true);
		if (ret < 0)
			return ret;
	}
	th->debugregs = false;
	return 0;
}

int ptrace_fpu_set(struct pf_thread *th, const void *buf, size_t size)
{
	struct iovec iov = { (void *)buf, size };

	if (size > 512 && ptrace(PTRACE_SETREGSET, th->tid, NT_X86_XSTATE, &iov) == 0)
		return 0;
	if (size < sizeof(struct user_fpregs_struct))
		return -EINVAL;
	if (ptrace(PTRACE_SETFPREGS, th->tid, 0, (void *)buf) < 0)
		return -EINVAL;
	return 0;
}

int ptrace_copy_fpu(struct pf_thread *dst, struct pf_thread *src)
{
	struct user_fpregs_struct fp;
	char *buf = NULL;
	long n = xstate_read(src, &buf);
	struct iovec iov = { buf, n > 0 ? (size_t)n : 0 };

	if (n > 0 && ptrace(PTRACE_SETREGSET, dst->tid, NT_X86_XSTATE, &iov) == 0)
		return 0;
	if (ptrace(PTRACE_GETFPREGS, src->tid, 0, &fp) < 0 ||
	    ptrace(PTRACE_SETFPREGS, dst->tid, 0, &fp) < 0)
		return -ESRCH;
	return 0;
}

static int ptrace_get_regs(struct pf_thread *th, struct pf_regs *regs)
{
	_Static_assert(sizeof(struct pf_regs) == sizeof(struct user_regs_struct), "regs");
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

int ptrace_set_regs(struct pf_thread *th, const struct pf_regs *regs)
{
	th->regs = *regs;
	th->regs_valid = true;
	th->regs_dirty = true;
	th->has_result = false;
	return 0;
}

/* Whether the host's user code may XRSTOR (CPUID.1:ECX OSXSAVE): then a
 * thread's FPU is reset by the stub's STUB_EXEC_START, not with a
 * PTRACE_SETREGSET of the whole XSAVE area. */
static bool host_xrstor(void)
{
	static int ok = -1;
	unsigned a, b, c, d;

	if (ok < 0)
		ok = __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 27));
	return ok;
}

int ptrace_exec_regs_prep(const struct pf_regs *regs, struct pf_regs *out)
{
	if (!host_xrstor() || regs->rcx)
		return -EOPNOTSUPP;
	*out = *regs;
	out->rcx = regs->rip;
	out->rip = STUB_EXEC_START;
	return 0;
}

static int ptrace_exec_regs(struct pf_thread *th, const struct pf_regs *regs)
{
	struct pf_regs r;
	int ret = ptrace_exec_regs_prep(regs, &r);

	return ret < 0 ? ret : ptrace_set_regs(th, &r);
}

int ptrace_fpu_stub_prep(const struct pf_regs *regs, uint64_t entry, struct pf_regs *out)
{
	if (!host_xrstor())
		return -EOPNOTSUPP;
	*out = *regs;
	out->rip = entry;
	return 0;
}

static int ptrace_handler_regs(struct pf_thread *th, const struct pf_regs *regs)
{
	struct pf_regs r;
	int ret = ptrace_fpu_stub_prep(regs, STUB_SIG_START, &r);

	return ret < 0 ? ret : ptrace_set_regs(th, &r);
}

_Static_assert(STUB_SR_NSLOTS >= 1 && STUB_SR_NSLOTS <= 32 && STUB_SR_SIZE <= STUB_SR_SLOT_SIZE,
	       "sigreturn slots");

uint64_t ptrace_sigreturn_slots(struct pf_thread *th, const void *slots, size_t size)
{
	struct pf_mm *mm = th->mm;
	int i;

	/* A stub maps its own page with its first batch (boot_page) */
	if (size > STUB_SR_SLOT_SIZE || mm->dead || mm->boot_page || !mm->page ||
	    mm->page == shared_ops)
		return 0;
	if (!th->sr_slot) {
		for (i = 0; i < (int)STUB_SR_NSLOTS && (mm->sr_used & (1u << i)); i++)
			;
		if (i == (int)STUB_SR_NSLOTS)
			return 0;
		mm->sr_used |= 1u << i;
		th->sr_slot = i + 1;
	}
	i = th->sr_slot - 1;
	memcpy((char *)mm->page + (STUB_SR_SLOTS - STUB_OPS) + i * STUB_SR_SLOT_SIZE, slots, size);
	return STUB_SR_SLOTS + (uint64_t)i * STUB_SR_SLOT_SIZE;
}

void ptrace_sr_slot_put(struct pf_thread *th)
{
	if (th->sr_slot)
		th->mm->sr_used &= ~(1u << (th->sr_slot - 1));
	th->sr_slot = 0;
}

static int ptrace_sigreturn_regs(struct pf_thread *th, const struct pf_regs *regs)
{
	struct pf_regs r;
	int ret = ptrace_fpu_stub_prep(regs, STUB_SIGRET, &r);

	return ret < 0 ? ret : ptrace_set_regs(th, &r);
}

void ptrace_set_result(struct pf_thread *th, long ret)
{
	if (th->regs_valid) {
		th->regs.rax = ret;
		th->regs_dirty = true;
	} else {
		th->result = ret;
		th->has_result = true;
	}
}

static int ptrace_resume(struct pf_thread *th)
{
	struct pf_mm *mm = th->mm;

	if (ptrace_flush_queued(mm) == -ESRCH)
		return -ESRCH;
	if (th->regs_dirty) {
		if (ptrace(PTRACE_SETREGS, th->tid, 0, &th->regs) < 0)
			return -ESRCH;
	} else if (th->has_result) {
		if (ptrace(PTRACE_POKEUSER, th->tid, offsetof(struct user_regs_struct, rax),
			   th->result) < 0)
			return -ESRCH;
	}
	th->regs_valid = th->regs_dirty = th->has_result = false;
	if (ptrace(PTRACE_SYSEMU, th->tid, 0, 0) < 0)
		return -ESRCH;
	th->running = true;
	return 0;
}

bool ptrace_is_fault(const siginfo_t *si)
{
	switch (si->si_signo) {
	case SIGSEGV:
	case SIGBUS:
	case SIGILL:
	case SIGFPE:
	case SIGTRAP:
		return si->si_code > 0;
	default:
		return false;
	}
}

void ptrace_signal_event(struct pf_thread *th, int status, struct pf_event *ev)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	ptrace(PTRACE_GETSIGINFO, th->tid, 0, &si);
	ev->signo = WSTOPSIG(status);
	ev->code = si.si_code;
	ev->kind = ptrace_is_fault(&si) ? PF_EV_FAULT : PF_EV_SIGNAL;
	ev->addr = (uint64_t)si.si_addr;
	if (ev->kind == PF_EV_FAULT)
		ev->ip = (uint64_t)ptrace(PTRACE_PEEKUSER, th->tid,
					  offsetof(struct user_regs_struct, rip), 0);
	ev->access = PF_ACCESS_UNKNOWN;
}

static void handle_status(int tid, int status, pf_event_fn fn)
{
	struct pf_thread *th = ptrace_thread_lookup(tid);
	struct pf_event ev;

	if (!th) {
		/* A stub thread we already dropped, or a stub's main thread. */
		if (!WIFSTOPPED(status))
			ptrace_mm_reaped(tid);
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
	th->running = false;
	if (!WIFSTOPPED(status)) {
		ptrace_thread_hash_del(th);
		th->tid = -1;
		ev.kind = PF_EV_GONE;
		fn(th->owner, &ev);
		return;
	}
	if (WSTOPSIG(status) == (SIGTRAP | 0x80)) {
		/* Zeroed: valgrind does not know this request fills it. */
		struct ptrace_syscall_info info = { 0 };

		if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, sizeof(info), &info) <= 0 ||
		    info.op != PTRACE_SYSCALL_INFO_ENTRY) {
			ptrace(PTRACE_SYSEMU, tid, 0, 0);
			th->running = true;
			return;
		}
		ev.kind = PF_EV_SYSCALL;
		ev.nr = info.entry.nr;
		ev.compat = info.arch != AUDIT_ARCH_X86_64;
		memcpy(ev.args, info.entry.args, sizeof(ev.args));
		ev.ip = info.instruction_pointer;
		ev.sp = info.stack_pointer;
		fn(th->owner, &ev);
		return;
	}
	if (status >> 16 == PTRACE_EVENT_STOP && th->want_stop) {
		th->want_stop = false;
		ev.kind = PF_EV_INTERRUPT;
		fn(th->owner, &ev);
		return;
	}
	if (status >> 16 != 0) {
		/* A ptrace event stop (group stop, stray event): not the guest's. */
		ptrace(PTRACE_SYSEMU, tid, 0, 0);
		th->running = true;
		return;
	}
	ptrace_signal_event(th, status, &ev);
	fn(th->owner, &ev);
}

static int ptrace_poll(pf_event_fn fn)
{
	int status, tid, n = 0;

	while ((tid = waitpid(-1, &status, __WALL | WNOHANG)) > 0) {
		handle_status(tid, status, fn);
		n++;
	}
	return n;
}

static int ptrace_wait(pf_event_fn fn)
{
	unsigned seen = host_wake_seen();
	int status, tid;

	/* Not wait_pid: a host signal to skas (EINTR, or one since the idle
	 * loop's look) ends the wait, so the idle loop can pass it on. */
	if (host_signals_pending())
		return 0;
	tid = (int)host_wait4_unless(-1, &status, __WALL, seen);
	if (tid < 0)
		return tid == -EINTR ? 0 : tid;
	handle_status(tid, status, fn);
	/* Others pending are taken by the idle loop's next poll, which it
	 * makes before it would wait again: no second waitpid here. */
	return 1;
}

/* The host's vDSO in the zygote, as found at its exec stop. */
static struct pf_vdso zygote_vdso;

const struct pf_vdso *ptrace_vdso(void)
{
	return zygote_vdso.size ? &zygote_vdso : NULL;
}

/* At the zygote's exec stop: finds [vvar], [vvar_vclock] and [vdso] in its
 * maps and, if they are contiguous, tells _start to keep them (r12, r13).
 * Without them the guests simply get no vDSO. */
static void keep_vdso(int pid)
{
	static const struct {
		const char *name;
		enum pf_vdso_kind kind;
	} names[] = { { "[vvar]", PF_VDSO_VVAR },
		      { "[vvar_vclock]", PF_VDSO_VVAR_VCLOCK },
		      { "[vdso]", PF_VDSO_CODE } };
	struct pf_vdso v = { 0 };
	struct user_regs_struct regs;
	char path[64], line[256];
	unsigned long lo, hi, end = 0;
	bool code = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char perms[8], *name = strchr(line, '[');
		size_t i;

		if (!name || sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3)
			continue;
		name[strcspn(name, "\n")] = 0;
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strcmp(name, names[i].name) == 0)
				break;
		if (i == sizeof(names) / sizeof(names[0]))
			continue;
		if (v.nparts == 4 || (v.nparts && lo != end))
			goto out; /* not one contiguous range: no vDSO */
		if (!v.nparts)
			v.base = lo;
		v.part[v.nparts].off = lo - v.base;
		v.part[v.nparts].len = hi - lo;
		v.part[v.nparts].prot = (perms[0] == 'r' ? PROT_READ : 0) |
					(perms[1] == 'w' ? PROT_WRITE : 0) |
					(perms[2] == 'x' ? PROT_EXEC : 0);
		v.part[v.nparts].kind = names[i].kind;
		if (names[i].kind == PF_VDSO_CODE) {
			v.ehdr_off = lo - v.base;
			code = true;
		}
		v.nparts++;
		end = hi;
	}
	if (!code || end > STUB_BASE || ptrace(PTRACE_GETREGS, pid, 0, &regs) < 0)
		goto out;
	regs.r12 = v.base;
	regs.r13 = end;
	if (ptrace(PTRACE_SETREGS, pid, 0, &regs) < 0)
		goto out;
	v.size = end - v.base;
	zygote_vdso = v;
out:
	fclose(f);
}

/* Starts the zygote: a fork that execs the stub image with the socket at fd 0
 * and the ops memfd at fd 1, seized before it execs. */
static int start_zygote(int ops_fd, int wake_fd)
{
	int sync[2], status, pid, image_fd;
	/* No TRACEFORK/TRACECLONE: stubs and threads are made with
	 * CLONE_PTRACE (ptrace.h). */
	long opts = PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL | PTRACE_O_TRACEEXEC |
		    PTRACE_O_TRACESECCOMP;
	struct user_regs_struct regs;
	char go;

	image_fd = stub_image_fd();
	if (image_fd < 0)
		return image_fd;
	if (pipe2(sync, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		char *argv[] = { "skas-stub", NULL }, *envp[] = { NULL };

		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (read(sync[0], &go, 1) != 1)
			_exit(127);
		/* The host user, namespaces, an empty root (host/sandbox.c). */
		if (host_sandbox_child() < 0)
			_exit(127);
		/* fd 3 (the image) is close-on-exec: the stub keeps fds 0
		 * and 1, and under the sigsys backend the eventfd at 2. */
		if ((wake_fd >= 0 && dup2(wake_fd, STUB_WAKE_FD) < 0) ||
		    dup2(sock_stub, STUB_SOCK_FD) < 0 || dup2(ops_fd, STUB_OPS_FD) < 0 ||
		    dup3(image_fd, 3, O_CLOEXEC) < 0)
			_exit(127);
		if (wake_fd < 0)
			close(2);
		syscall(SYS_close_range, 4, ~0U, 0);
		/* From now on a stub holds at most fd 0 (and 2) and the one
		 * fd handed in. */
		if (setrlimit(RLIMIT_NOFILE,
			      &(struct rlimit){ 2 + (wake_fd >= 0), 2 + (wake_fd >= 0) }) < 0 &&
		    !host_under_valgrind()) /* valgrind keeps fds of its own */
			_exit(127);
		personality(ADDR_NO_RANDOMIZE);
		syscall(SYS_execveat, 3, "", argv, envp, AT_EMPTY_PATH);
		if (host_under_valgrind()) /* valgrind 3.19 refuses the empty path */
			execve("/proc/self/fd/3", argv, envp);
		_exit(127);
	}
	close(sync[0]);
	close(image_fd);
	if (ptrace(PTRACE_SEIZE, pid, 0, opts) < 0) {
		status = -errno;
		kill(pid, SIGKILL);
		close(sync[1]);
		return status;
	}
	go = 1;
	if (write(sync[1], &go, 1) != 1)
		return -EIO;
	close(sync[1]);
	for (;;) {
		if (ptrace_wait_pid(pid, &status) < 0 || !WIFSTOPPED(status))
			return -ECHILD;
		if (WSTOPSIG(status) == SIGTRAP && status >> 16 == 0)
			break;
		if (status >> 16 == PTRACE_EVENT_EXEC)
			keep_vdso(pid);
		/* A signal (a crash before exec) is delivered, not swallowed:
		 * swallowing a fault would rerun it forever. */
		if (ptrace(PTRACE_CONT, pid, 0, status >> 16 ? 0 : WSTOPSIG(status)) < 0)
			return -ECHILD;
	}
	if (ptrace(PTRACE_GETREGS, pid, 0, &regs) < 0 || regs.rax != STUB_OPS) {
		kill(pid, SIGKILL);
		return -EIO;
	}
	zygote = calloc(1, sizeof(*zygote));
	if (!zygote)
		return -ENOMEM;
	zygote->ctl_pid = pid;
	zygote->page = shared_ops;
	return 0;
}

/* Boxes the zygote (and so every stub): no new privileges, the allowlist. */
#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000 /* the kernel's: glibc does not export it */
#endif

/* sigsys: the handler for the guest threads' signals, and the page every
 * stub shares, before the allowlist. */
static int sigsys_zygote(int global_fd)
{
	static const int sigs[] = { SIGSYS,  SIGSEGV,		SIGBUS, SIGFPE, SIGILL,
				    SIGTRAP, STUB_SIG_INTERRUPT };
	struct {
		uint64_t handler, flags, restorer, mask;
	} act = { STUB_SIGSYS_HANDLER, SA_SIGINFO | SA_ONSTACK | SA_RESTORER, STUB_SYS_RETURN,
		  ~0ULL };
	size_t i;
	int ret;

	memcpy((char *)shared_ops + (STUB_SIGACTION - STUB_OPS), &act, sizeof(act));
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		ptrace_queue_op(zygote, SYS_rt_sigaction, sigs[i], STUB_SIGACTION, 0, 8, 0, 0);
	ret = ptrace_run_batch(zygote, NULL);
	if (ret < 0)
		return ret;
	ret = ptrace_mm_map(zygote, STUB_GLOBAL, 4096, PROT_READ, MAP_SHARED, global_fd, 0);
	if (ret < 0)
		return ret;
	return ptrace_run_batch(zygote, NULL);
}

static int box_zygote(enum stub_mode mode)
{
	struct sock_fprog_stub {
		unsigned short len;
		uint64_t filter;
	} * prog;
	size_t len;
	int ret;

	prog = (void *)((char *)shared_ops + (STUB_PAYLOAD - STUB_OPS));
	ret = stub_filter_build((char *)(prog + 1), STUB_SIGACTION - STUB_PAYLOAD - sizeof(*prog),
				mode, &len);
	if (ret < 0)
		return ret;
	prog->len = len / 8;
	prog->filter = STUB_PAYLOAD + sizeof(*prog);
	ptrace_queue_op(zygote, SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0);
	ptrace_queue_op(zygote, SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, STUB_PAYLOAD, 0, 0, 0);
	return ptrace_run_batch(zygote, NULL);
}

void *ptrace_stub_payload(void)
{
	return (char *)shared_ops + (STUB_PAYLOAD - STUB_OPS);
}

int ptrace_stubs_init(enum stub_mode mode, int wake_fd, int global_fd)
{
	int sv[2], ops_fd, ret;

	struct timeval tmo = { .tv_usec = 50000 };

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	sock_kernel = sv[0];
	sock_stub = sv[1];
	/* Waiting for a doorbell batch's report, look every 50 ms whether the
	 * stub is still there. */
	if (setsockopt(sock_kernel, SOL_SOCKET, SO_RCVTIMEO, &tmo, sizeof(tmo)) < 0)
		return -errno;
	ops_fd = memfd_create("skas-ops", MFD_CLOEXEC);
	if (ops_fd < 0)
		return -errno;
	if (ftruncate(ops_fd, STUB_OPS_SIZE) < 0) {
		close(ops_fd);
		return -errno;
	}
	shared_ops = mmap(NULL, STUB_OPS_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, ops_fd, 0);
	if (shared_ops == MAP_FAILED) {
		close(ops_fd);
		return -errno;
	}
	stub_mode = mode;
	if (mode == STUB_MODE_SIGSYS)
		ops_file_size = STUB_OPS_SIZE + STUB_SLOTS_SIZE;
	ret = start_zygote(ops_fd, mode == STUB_MODE_SIGSYS ? wake_fd : -1);
	close(ops_fd);
	if (ret < 0)
		return ret;
	if (mode == STUB_MODE_SIGSYS) {
		ret = sigsys_zygote(global_fd);
		if (ret < 0)
			return ret;
	}
	return box_zygote(mode);
}

static int ptrace_init(void)
{
	ptrace_spares_init(thread_free);
	return ptrace_stubs_init(STUB_MODE_PTRACE, -1, -1);
}

const struct platform_ops platform_ptrace = {
	.name = "ptrace",
	.init = ptrace_init,
	PTRACE_STUB_OPS,
	.thread_new = ptrace_thread_new,
	.thread_put = ptrace_thread_put,
	.thread_reused = ptrace_thread_reused,
	.get_regs = ptrace_get_regs,
	.set_regs = ptrace_set_regs,
	.exec_regs = ptrace_exec_regs,
	.handler_regs = ptrace_handler_regs,
	.sigreturn_regs = ptrace_sigreturn_regs,
	.sigreturn_slots = ptrace_sigreturn_slots,
	.set_result = ptrace_set_result,
	.resume = ptrace_resume,
	.interrupt = ptrace_interrupt,
	.thread_new_fpu = ptrace_thread_new_fpu,
	.copy_fpu = ptrace_copy_fpu,
	.fpu_get = ptrace_fpu_get,
	.fpu_set = ptrace_fpu_set,
	.debugreg = ptrace_debugreg,
	.debugreg_clear = ptrace_debugreg_clear,
	.poll = ptrace_poll,
	.wait = ptrace_wait,
};
