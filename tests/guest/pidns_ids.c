/* Pid numbers through the interfaces that take or give one, in a pid
 * namespace (CLONE_NEWPID), as Linux has them: each speaks the caller's
 * namespace. A process outside it reads as 0 there, and a number the
 * namespace does not have is ESRCH; a process outside sees the numbers of
 * its own namespace. Each part below starts a namespace afresh (so that its
 * numbers are 1, 2, 3 ...), and its processes report to the driver (its
 * parent, outside) through shared memory; the driver prints. Numbers of the
 * outer namespace are compared, never printed: natively they are the
 * host's. A number the driver learns for a process in the namespace is
 * checked against /proc/<it>/status: "NSpid: <it> <its number inside>".
 *
 * What is checked:
 * - SO_PEERCRED: a connection to a socket listening outside reads 0 inside,
 *   and the driver reads the init's pid as fork gave it; a socketpair made
 *   outside reads 0 inside; inside, the numbers there (1, 2).
 * - SCM_CREDENTIALS: what a receiver reads is the sender in the receiver's
 *   namespace (0 from outside); an explicit pid is the sender's namespace's
 *   (root may claim another live process), ESRCH if it has none such.
 * - F_SETOWN, F_SETOWN_EX, F_GETOWN, F_GETOWN_EX: in the caller's namespace,
 *   0 for an owner outside, ESRCH for an unknown pid or group.
 * - F_GETLK's l_pid: 0 for a holder outside, -1 for an OFD lock, the
 *   holder's number in the caller's namespace otherwise.
 * - SysV IPC: semctl(GETPID), msg_lspid and msg_lrpid, shm_cpid and
 *   shm_lpid, in the caller's namespace.
 * - kill(-1, sig) in the namespace: its processes but its init (and the
 *   sender), not those outside; ESRCH when there is none.
 * - getpgid, getsid, setpgid, setsid and kill(-pgrp): the outer group and
 *   session read as 0.
 * - pidfd_open, pidfd_send_signal, waitid(P_PIDFD); si_pid 0 for a signal
 *   from outside; a pidfd's fdinfo (Pid, NSpid; -1 once reaped).
 * - sched_{get,set}affinity, sched_getscheduler, sched_getparam,
 *   sched_rr_get_interval, {get,set}priority, prlimit, ioprio_get, capget,
 *   get_robust_list, kcmp, timer_create(SIGEV_THREAD_ID).
 * - process_vm_readv and process_vm_writev.
 * - tgkill, tkill, rt_sigqueueinfo, rt_tgsigqueueinfo, sigqueue: a user's
 *   si_pid is kept inside the namespace, 0 from outside.
 * - ptrace: PTRACE_GETEVENTMSG of a fork, the waits, in the tracer's
 *   namespace (inside, and from the driver outside).
 * - /proc/self/stat and status with a proc mounted in the namespace.
 * - Futexes: a robust list's owner tid is the namespace's (a pthread robust
 *   mutex, and a list by hand).
 * Not here: /proc/sys/kernel/ns_last_pid and the PI futex operations,
 * which skas does not have (ENOSYS).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>

#ifndef CLONE_NEWPID
#define CLONE_NEWPID 0x20000000
#endif
#ifndef CLONE_NEWNS
#define CLONE_NEWNS 0x00020000
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef P_PIDFD
#define P_PIDFD 3
#endif
#ifndef F_OFD_GETLK
#define F_OFD_GETLK 36
#define F_OFD_SETLK 37
#endif
#ifndef SIGEV_THREAD_ID
#define SIGEV_THREAD_ID 4
#endif
#define K_FILE	      0 /* KCMP_FILE */
#define K_VM	      1 /* KCMP_VM */
#define WHO_PROCESS   1 /* IOPRIO_WHO_PROCESS */
#define CAP_V3	      0x20080522
#define FX_WAITERS    0x80000000u
#define FX_OWNER_DIED 0x40000000u

#define TAP_FLUSH
#include "ns_util.h"

/* A robust list by hand: an entry and its futex word. */
struct rent {
	struct rent *next;
	unsigned word;
};

struct rhead {
	struct rent *list;
	long off;
	struct rent *pending;
};

/* What the processes of a namespace saw, for the driver to print: v[]
 * starts at UNSET so that a value never written shows. */
#define UNSET (-999)
struct shared {
	volatile long v[40];
	char text[2][64];
	pthread_mutex_t m;
	struct rent ent[3];
};
static struct shared *S;

/* The directory of the sockets and the lock file (mkdtemp). */
static char dir[64];

/* up: the init to the driver; down: the driver to the init; hold: the
 * processes of the namespace wait for its EOF where they must live on
 * while the driver looks at them. */
static int up[2], down[2], hold[2];

static void reset(void)
{
	int i;

	memset(S->text, 0, sizeof(S->text));
	for (i = 0; i < 40; i++)
		S->v[i] = UNSET;
}

static void on_alarm(int sig)
{
	(void)sig;
	_exit(99);
}

static void on_sig(int sig)
{
	(void)sig;
}

static void handle(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = SA_RESTART;
	sigaction(sig, &sa, NULL);
}

static void block(int sig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

static int pending(int sig)
{
	sigset_t set;

	sigemptyset(&set);
	return sigpending(&set) == 0 ? sigismember(&set, sig) : -1;
}

/* Start a namespace whose init runs fn (only if it is pid 1: kill(-1)
 * must never run outside one). alarm() is the driver's safety net; the
 * init's ignores SIGALRM while it is SIG_DFL, so a handler ends it. */
static pid_t start(void (*fn)(void))
{
	pid_t pid;

	alarm(10);
	reset();
	if (pipe(up) || pipe(down) || pipe(hold))
		abort();
	pid = unshare(CLONE_NEWPID) == 0 ? fork() : -1;
	if (pid == 0) {
		handle(SIGALRM, on_alarm);
		alarm(5);
		close(up[0]);
		close(down[1]);
		close(hold[1]);
		if (getpid() != 1)
			_exit(98);
		fn();
		_exit(0);
	}
	close(up[1]);
	close(down[0]);
	close(hold[0]);
	return pid;
}

/* The driver lets the namespace end. */
static void release(void)
{
	if (hold[1] >= 0)
		close(hold[1]);
	if (down[1] >= 0)
		close(down[1]);
	hold[1] = down[1] = -1;
}

/* ... and waits for its init: 1 if it exits 0. */
static int finish(pid_t pid)
{
	int st;

	release();
	st = pid > 0 ? reap(pid) : -1;
	close(up[0]);
	return exited(st, 0);
}

/* The line of a /proc file that starts with key, without the newline; ""
 * if none. */
static void status_line(const char *path, const char *key, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	char line[256];

	out[0] = 0;
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key))) {
			line[strcspn(line, "\n")] = 0;
			snprintf(out, size, "%s", line);
		}
	if (f)
		fclose(f);
}

/* Whether pid (outside) is the process the namespace numbers inner: its
 * NSpid is "pid inner". */
static int nspid_is(long pid, int inner)
{
	char path[64], line[96], want[96];

	if (pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	status_line(path, "NSpid:", line, sizeof(line));
	snprintf(want, sizeof(want), "NSpid:\t%ld\t%d", pid, inner);
	return !strcmp(line, want);
}

static void in_dir(char *out, size_t size, const char *name)
{
	snprintf(out, size, "%s/%s", dir, name);
}

/* SO_PEERCRED. */

static int sock_at(const char *name, int listening)
{
	struct sockaddr_un a;
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	in_dir(a.sun_path, sizeof(a.sun_path), name);
	if (fd < 0)
		return -1;
	if (listening ? bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 4)
		      : connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	return fd;
}

static long peer_pid(int fd)
{
	struct ucred uc;
	socklen_t len = sizeof(uc);

	return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) == 0 ? uc.pid : UNSET;
}

static int outer_sp[2];

static void init_peercred(void)
{
	int c, l, a, sp[2], ip[2];
	pid_t g;

	c = sock_at("s1", 0);
	S->v[0] = peer_pid(c);
	S->v[1] = peer_pid(outer_sp[1]);
	l = sock_at("s2", 1);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) || pipe(ip))
		_exit(1);
	S->v[2] = peer_pid(sp[0]);
	g = fork();
	if (g == 0) {
		S->v[3] = peer_pid(sp[1]);
		S->v[4] = peer_pid(sock_at("s2", 0));
		S->v[5] = peer_pid(sock_at("s1", 0));
		put(ip[1]);
		wait_eof(hold[0]);
		_exit(0);
	}
	a = accept(l, NULL, NULL);
	S->v[6] = peer_pid(a);
	S->v[7] = get(ip[0]);
	put(up[1]);
	wait_eof(hold[0]);
	S->v[8] = exited(reap(g), 0);
}

static void peercred(void)
{
	char path[96];
	int l = sock_at("s1", 1), a1, a2, ok;
	long p1, p2;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, outer_sp))
		return;
	pid = start(init_peercred);
	/* the init connects, then its child */
	a1 = accept(l, NULL, NULL);
	a2 = accept(l, NULL, NULL);
	ok = get(up[0]);
	p1 = peer_pid(a1);
	p2 = peer_pid(a2);
	check(ok && nspid_is(p2, 2),
	      "SO_PEERCRED outside of child 2's connection: a pid whose NSpid is it then 2");
	check(finish(pid), "the init exits 0");
	check(pid > 0 && p1 == pid,
	      "SO_PEERCRED outside of the init's connection: the pid fork gave");
	check_eq(S->v[0], 0, "the init's SO_PEERCRED of a listener outside: pid 0");
	check_eq(S->v[1], 0, "the init's SO_PEERCRED of a socketpair made outside: pid 0");
	check_eq(S->v[2], 1, "the init's SO_PEERCRED of its own socketpair: pid 1");
	check_eq(S->v[3], 1, "child 2's SO_PEERCRED of the init's socketpair: pid 1");
	check_eq(S->v[6], 2, "the init's SO_PEERCRED of child 2's connection: pid 2");
	check_eq(S->v[4], 1, "child 2's SO_PEERCRED of the init's listener: pid 1");
	check_eq(S->v[5], 0, "child 2's SO_PEERCRED of the listener outside: pid 0");
	check(S->v[7] == 1 && S->v[8] == 1, "child 2 exits 0");
	close(l);
	in_dir(path, sizeof(path), "s1");
	unlink(path);
	in_dir(path, sizeof(path), "s2");
	unlink(path);
}

/* SCM_CREDENTIALS. */

#define NOCRED (-1)

/* Send a byte, with SCM_CREDENTIALS {pid, uid, gid} unless pid is NOCRED:
 * 0 or the errno. */
static long send_cred(int fd, long pid)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(struct ucred))];
	} u;
	struct ucred uc;
	struct cmsghdr *cm;
	struct msghdr mh;
	struct iovec iov;
	char b = 'x';

	memset(&mh, 0, sizeof(mh));
	memset(&u, 0, sizeof(u));
	iov.iov_base = &b;
	iov.iov_len = 1;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (pid != NOCRED) {
		uc.pid = (pid_t)pid;
		uc.uid = getuid();
		uc.gid = getgid();
		mh.msg_control = u.buf;
		mh.msg_controllen = sizeof(u.buf);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_CREDENTIALS;
		cm->cmsg_len = CMSG_LEN(sizeof(uc));
		memcpy(CMSG_DATA(cm), &uc, sizeof(uc));
	}
	return sendmsg(fd, &mh, 0) == 1 ? 0 : errno;
}

/* Receive a message: the pid of its SCM_CREDENTIALS, UNSET if none. */
static long recv_cred(int fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(struct ucred)) + 64];
	} u;
	struct ucred uc;
	struct cmsghdr *cm;
	struct msghdr mh;
	struct iovec iov;
	char b[8];

	memset(&mh, 0, sizeof(mh));
	iov.iov_base = b;
	iov.iov_len = sizeof(b);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = u.buf;
	mh.msg_controllen = sizeof(u.buf);
	if (recvmsg(fd, &mh, 0) < 0)
		return UNSET;
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_CREDENTIALS) {
			memcpy(&uc, CMSG_DATA(cm), sizeof(uc));
			return uc.pid;
		}
	return UNSET;
}

static int passcred(int fd)
{
	int one = 1;

	return setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one));
}

static int dp[2];

static void init_scm(void)
{
	int ip[2];
	pid_t g;

	passcred(dp[1]);
	S->v[0] = send_cred(dp[1], NOCRED);
	S->v[1] = send_cred(dp[1], 1);
	S->v[2] = recv_cred(dp[1]);
	S->v[3] = recv_cred(dp[1]);
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, ip) || passcred(ip[0]))
		_exit(1);
	g = fork();
	if (g == 0) {
		S->v[4] = send_cred(ip[1], NOCRED);
		S->v[5] = send_cred(ip[1], 2);
		S->v[6] = send_cred(ip[1], 1);
		S->v[7] = send_cred(ip[1], 30000);
		S->v[8] = send_cred(dp[1], NOCRED);
		wait_eof(hold[0]);
		_exit(0);
	}
	S->v[9] = recv_cred(ip[0]);
	S->v[10] = recv_cred(ip[0]);
	S->v[11] = recv_cred(ip[0]);
	put(up[1]);
	wait_eof(hold[0]);
	S->v[12] = exited(reap(g), 0);
}

static void scm(void)
{
	long a, b, e1, e2, f;
	pid_t pid;
	int ok;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, dp) || passcred(dp[0]))
		return;
	pid = start(init_scm);
	a = recv_cred(dp[0]);
	b = recv_cred(dp[0]);
	e1 = send_cred(dp[0], NOCRED);
	e2 = send_cred(dp[0], pid);
	f = recv_cred(dp[0]);
	ok = get(up[0]);
	check(ok && nspid_is(f, 2),
	      "SCM_CREDENTIALS: child 2's message outside: a pid whose NSpid is it then 2");
	check(finish(pid), "the init exits 0");
	check(pid > 0 && a == pid, "the init's message outside: the pid fork gave");
	check_ok(S->v[1], "the init's sendmsg claiming pid 1 (itself)");
	check(pid > 0 && b == pid, "read outside as the pid fork gave");
	check(S->v[0] == 0 && e1 == 0 && S->v[2] == 0,
	      "a message from outside: the init reads pid 0");
	check_ok(e2, "the driver's sendmsg claiming the init's pid (root)");
	check_eq(S->v[3], 1, "the init reads it as 1");
	check_eq(S->v[9], 2, "child 2's message: the init reads pid 2");
	check(S->v[4] == 0 && S->v[5] == 0 && S->v[10] == 2,
	      "child 2's sendmsg claiming pid 2: the init reads 2");
	check(S->v[6] == 0 && S->v[11] == 1,
	      "child 2's sendmsg claiming pid 1 (root): the init reads 1");
	check_errno(S->v[7], ESRCH, "ESRCH", "child 2's sendmsg claiming pid 30000");
	check(S->v[8] == 0 && S->v[12] == 1, "child 2 exits 0");
	close(dp[0]);
	close(dp[1]);
}

/* F_SETOWN and F_GETOWN. */

static int op[2];

/* F_GETOWN as the kernel gives it (libc's goes through F_GETOWN_EX). */
static long own_raw(int fd)
{
	return syscall(SYS_fcntl, fd, F_GETOWN);
}

/* F_GETOWN_EX: type * 100 + pid for the small numbers of the namespace. */
static long own_ex(int fd)
{
	struct f_owner_ex ex;

	memset(&ex, 0, sizeof(ex));
	return fcntl(fd, F_GETOWN_EX, &ex) == 0 ? ex.type * 100L + ex.pid : UNSET;
}

static long set_ex(int fd, int type, pid_t pid)
{
	struct f_owner_ex ex;

	ex.type = type;
	ex.pid = pid;
	return err_of(fcntl(fd, F_SETOWN_EX, &ex));
}

static void init_fowner(void)
{
	pid_t g;

	S->v[0] = fcntl(op[0], F_GETOWN);
	S->v[1] = own_raw(op[0]);
	S->v[2] = own_ex(op[0]);
	S->v[3] = err_of(fcntl(op[0], F_SETOWN, getpid()));
	S->v[4] = own_raw(op[0]);
	S->v[5] = own_ex(op[0]);
	put(up[1]);
	get(down[0]);
	S->v[6] = err_of(fcntl(op[0], F_SETOWN, 30000));
	S->v[7] = set_ex(op[0], F_OWNER_TID, 30000);
	S->v[8] = set_ex(op[0], F_OWNER_PGRP, 30000);
	S->v[9] = err_of(fcntl(op[0], F_SETOWN, -30000));
	g = fork();
	if (g == 0) {
		wait_eof(hold[0]);
		_exit(0);
	}
	S->v[10] = err_of(fcntl(op[0], F_SETOWN, 2));
	S->v[11] = own_raw(op[0]);
	S->v[12] = set_ex(op[0], F_OWNER_TID, 2);
	S->v[13] = own_ex(op[0]);
	S->v[14] = setsid();
	S->v[15] = err_of(fcntl(op[0], F_SETOWN, -1));
	S->v[16] = fcntl(op[0], F_GETOWN);
	S->v[17] = own_ex(op[0]);
	put(up[1]);
	get(down[0]);
}

static void fowner(void)
{
	struct f_owner_ex ex;
	long o1, o2;
	pid_t pid;
	int ok1, ok2, ok3;

	if (pipe(op))
		return;
	ok1 = fcntl(op[0], F_SETOWN, getpid()) == 0;
	pid = start(init_fowner);
	ok2 = get(up[0]);
	o1 = fcntl(op[0], F_GETOWN);
	put(down[1]);
	ok3 = get(up[0]);
	o2 = fcntl(op[0], F_GETOWN);
	memset(&ex, 0, sizeof(ex));
	if (fcntl(op[0], F_GETOWN_EX, &ex))
		ex.type = -1;
	put(down[1]);
	check(finish(pid), "F_SETOWN: the init exits 0");
	check(ok1 && S->v[0] == 0, "the init's F_GETOWN of a file the driver owns: 0");
	check_eq(S->v[1], 0, "the same by the system call");
	check_eq(S->v[2], F_OWNER_PID * 100 + 0, "its F_GETOWN_EX: F_OWNER_PID, 0");
	check_ok(S->v[3], "the init's F_SETOWN(getpid())");
	check_eq(S->v[4], 1, "then F_GETOWN (the system call): 1");
	check_eq(S->v[5], F_OWNER_PID * 100 + 1, "F_GETOWN_EX: F_OWNER_PID, 1");
	check(ok2 && pid > 0 && o1 == pid, "the driver's F_GETOWN: the pid fork gave");
	check_errno(S->v[6], ESRCH, "ESRCH", "F_SETOWN(30000) in the namespace");
	check_errno(S->v[7], ESRCH, "ESRCH", "F_SETOWN_EX(F_OWNER_TID, 30000)");
	check_errno(S->v[8], ESRCH, "ESRCH", "F_SETOWN_EX(F_OWNER_PGRP, 30000)");
	check_errno(S->v[9], ESRCH, "ESRCH", "F_SETOWN(-30000)");
	check(S->v[10] == 0 && S->v[11] == 2, "F_SETOWN(2) of its child: F_GETOWN 2");
	check(S->v[12] == 0 && S->v[13] == F_OWNER_TID * 100 + 2,
	      "F_SETOWN_EX(F_OWNER_TID, 2): F_GETOWN_EX F_OWNER_TID, 2");
	check_eq(S->v[14], 1, "the init's setsid(): 1");
	check(S->v[15] == 0 && S->v[16] == -1, "F_SETOWN(-1), its group: F_GETOWN -1");
	check_eq(S->v[17], F_OWNER_PGRP * 100 + 1, "F_GETOWN_EX: F_OWNER_PGRP, 1");
	check(ok3 && pid > 0 && o2 == -pid, "the driver's F_GETOWN: minus the pid fork gave");
	check(ex.type == F_OWNER_PGRP && pid > 0 && ex.pid == pid,
	      "the driver's F_GETOWN_EX: F_OWNER_PGRP, the pid fork gave");
	close(op[0]);
	close(op[1]);
}

/* F_GETLK. */

static int lk_set(int fd, int cmd, off_t start)
{
	struct flock fl;

	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	fl.l_start = start;
	fl.l_len = 10;
	return fcntl(fd, cmd, &fl);
}

/* The l_pid F_GETLK (or F_OFD_GETLK) gives for a write lock of 10 bytes
 * at start; UNSET if it fails or finds none. */
static long lk_pid(int fd, int cmd, off_t start)
{
	struct flock fl;

	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	fl.l_start = start;
	fl.l_len = 10;
	if (fcntl(fd, cmd, &fl) || fl.l_type != F_WRLCK)
		return UNSET;
	return fl.l_pid;
}

static char lk_path[96];

static void init_getlk(void)
{
	int fd = open(lk_path, O_RDWR), ip[2];
	pid_t g;

	if (fd < 0 || pipe(ip))
		_exit(1);
	S->v[0] = lk_pid(fd, F_GETLK, 0);
	S->v[1] = lk_pid(fd, F_GETLK, 100);
	S->v[2] = lk_pid(fd, F_OFD_GETLK, 0);
	g = fork();
	if (g == 0) {
		S->v[3] = err_of(lk_set(fd, F_SETLK, 20));
		put(ip[1]);
		wait_eof(hold[0]);
		_exit(0);
	}
	get(ip[0]);
	S->v[4] = lk_pid(fd, F_GETLK, 20);
	S->v[5] = lk_pid(fd, F_OFD_GETLK, 20);
	put(up[1]);
	wait_eof(hold[0]);
	S->v[6] = exited(reap(g), 0);
}

static void getlk(void)
{
	int fd, fd2, ok;
	long p;
	pid_t pid;

	in_dir(lk_path, sizeof(lk_path), "lk");
	fd = open(lk_path, O_RDWR | O_CREAT, 0600);
	fd2 = open(lk_path, O_RDWR);
	check(fd >= 0 && fd2 >= 0 && lk_set(fd, F_SETLK, 0) == 0 &&
		      lk_set(fd2, F_OFD_SETLK, 100) == 0,
	      "F_GETLK: the driver takes a lock and an OFD lock");
	pid = start(init_getlk);
	ok = get(up[0]);
	p = lk_pid(fd, F_GETLK, 20);
	check(ok && nspid_is(p, 2),
	      "the driver's F_GETLK of child 2's lock: a pid whose NSpid is it then 2");
	check(finish(pid), "the init exits 0");
	check_eq(S->v[0], 0, "the init's F_GETLK of the driver's lock: l_pid 0");
	check_eq(S->v[1], -1, "the init's F_GETLK of the driver's OFD lock: l_pid -1");
	check_eq(S->v[2], 0, "the init's F_OFD_GETLK of the driver's lock: l_pid 0");
	check_ok(S->v[3], "child 2's F_SETLK");
	check_eq(S->v[4], 2, "the init's F_GETLK of child 2's lock: l_pid 2");
	check_eq(S->v[5], 2, "the init's F_OFD_GETLK of it: l_pid 2");
	check(S->v[6] == 1, "child 2 exits 0");
	close(fd);
	close(fd2);
	unlink(lk_path);
}

/* SysV IPC. */

struct msgbuf1 {
	long type;
	char text[4];
};

static long sem_pid(int id)
{
	return semctl(id, 0, GETPID);
}

/* The sender and the receiver of the last message: lspid * 10 + lrpid
 * inside; outside, one of them as which says. */
static long msg_pids(int id, int which)
{
	struct msqid_ds md;

	if (msgctl(id, IPC_STAT, &md))
		return UNSET;
	return which == 0   ? md.msg_lspid * 10L + md.msg_lrpid
	       : which == 1 ? md.msg_lspid
			    : md.msg_lrpid;
}

static long shm_pids(int id, int which)
{
	struct shmid_ds sd;

	if (shmctl(id, IPC_STAT, &sd))
		return UNSET;
	return which == 0   ? sd.shm_cpid * 10L + sd.shm_lpid
	       : which == 1 ? sd.shm_cpid
			    : sd.shm_lpid;
}

static void init_sysv(void)
{
	struct sembuf sop = { 0, 1, 0 };
	struct msgbuf1 msg = { 1, "abc" };
	int sem, msq, shm, ip[2];
	void *at;
	pid_t g;

	S->v[0] = sem = semget(IPC_PRIVATE, 1, 0600 | IPC_CREAT);
	S->v[1] = msq = msgget(IPC_PRIVATE, 0600 | IPC_CREAT);
	S->v[2] = shm = shmget(IPC_PRIVATE, 4096, 0600 | IPC_CREAT);
	if (sem < 0 || msq < 0 || shm < 0 || pipe(ip))
		_exit(1);
	at = shmat(shm, NULL, 0);
	S->v[3] = sem_pid(sem);
	S->v[4] = shm_pids(shm, 0);
	g = fork();
	if (g == 0) {
		S->v[5] = semop(sem, &sop, 1) == 0 && msgsnd(msq, &msg, sizeof(msg.text), 0) == 0 &&
			  shmat(shm, NULL, 0) != (void *)-1;
		put(ip[1]);
		wait_eof(hold[0]);
		_exit(0);
	}
	get(ip[0]);
	S->v[6] = sem_pid(sem);
	S->v[7] = msg_pids(msq, 0);
	S->v[8] = shm_pids(shm, 0);
	put(up[1]);
	get(down[0]);
	S->v[9] = msgrcv(msq, &msg, sizeof(msg.text), 0, IPC_NOWAIT) == (ssize_t)sizeof(msg.text);
	S->v[10] = msg_pids(msq, 0);
	S->v[11] = semop(sem, &sop, 1) == 0 ? sem_pid(sem) : UNSET;
	put(up[1]);
	get(down[0]);
	if (at != (void *)-1)
		shmdt(at);
}

static void sysv(void)
{
	long p = UNSET, lspid = UNSET, cpid = UNSET, lpid = UNSET, lrpid = UNSET, spid = UNSET;
	pid_t pid;
	int ok1, ok2;

	pid = start(init_sysv);
	ok1 = get(up[0]);
	if (ok1) {
		p = sem_pid((int)S->v[0]);
		lspid = msg_pids((int)S->v[1], 1);
		cpid = shm_pids((int)S->v[2], 1);
		lpid = shm_pids((int)S->v[2], 2);
	}
	check(ok1 && nspid_is(p, 2), "SysV: the driver's semctl(GETPID) after child 2's semop: a "
				     "pid whose NSpid is it then 2");
	put(down[1]);
	ok2 = get(up[0]);
	if (ok2) {
		lrpid = msg_pids((int)S->v[1], 2);
		spid = sem_pid((int)S->v[0]);
	}
	put(down[1]);
	check(finish(pid), "the init exits 0");
	check(lspid != UNSET && lspid == p,
	      "the driver's msg_lspid after child 2's msgsnd: the same");
	check(cpid != UNSET && cpid == pid, "the driver's shm_cpid: the pid fork gave the init");
	check(lpid != UNSET && lpid == p, "the driver's shm_lpid after child 2's shmat: child 2's");
	check(ok2 && pid > 0 && lrpid == pid,
	      "the driver's msg_lrpid after the init's msgrcv: the init's");
	check(ok2 && pid > 0 && spid == pid,
	      "the driver's semctl(GETPID) after the init's semop: the init's");
	check_eq(S->v[3], 0, "the init's semctl(GETPID) before any semop: 0");
	check_eq(S->v[4], 11, "the init's shm_cpid and shm_lpid after its shmat: 1, 1");
	check(S->v[5] == 1, "child 2's semop, msgsnd and shmat");
	check_eq(S->v[6], 2, "the init's semctl(GETPID) then: 2");
	check_eq(S->v[7], 20, "the init's msg_lspid and msg_lrpid: 2, 0");
	check_eq(S->v[8], 12, "the init's shm_cpid and shm_lpid: 1, 2");
	check(S->v[9] == 1, "the init's msgrcv");
	check_eq(S->v[10], 21, "then msg_lspid and msg_lrpid: 2, 1");
	check_eq(S->v[11], 1, "the init's semop: semctl(GETPID) 1");
	check(S->v[0] >= 0 && semctl((int)S->v[0], 0, IPC_RMID) == 0 && S->v[1] >= 0 &&
		      msgctl((int)S->v[1], IPC_RMID, NULL) == 0 && S->v[2] >= 0 &&
		      shmctl((int)S->v[2], IPC_RMID, NULL) == 0,
	      "the driver removes them");
}

/* kill(-1, sig). */

static void init_killall(void)
{
	int go[2], rd[2];
	pid_t a, b, c, d;
	sigset_t set;
	siginfo_t si;

	/* SIGUSR1 is blocked (the driver's mask): sigwaitinfo takes it, and
	 * a signal that reached the init stays pending */
	handle(SIGUSR1, on_sig);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (pipe(go) || pipe(rd))
		_exit(1);
	a = fork();
	if (a == 0) {
		if (!get(go[0]) || getpid() != 2)
			_exit(1);
		S->v[0] = err_of(kill(-1, 0));
		S->v[1] = err_of(kill(-1, SIGUSR1));
		_exit(0);
	}
	b = fork();
	if (b == 0) {
		put(rd[1]);
		memset(&si, 0, sizeof(si));
		if (sigwaitinfo(&set, &si) == SIGUSR1)
			S->v[2] = si.si_pid * 10 + (si.si_code == SI_USER);
		_exit(0);
	}
	S->v[3] = a * 10 + b;
	get(rd[0]);
	put(go[1]);
	S->v[4] = exited(reap(a), 0);
	S->v[5] = pending(SIGUSR1);
	S->v[6] = exited(reap(b), 0);
	put(up[1]);
	get(down[0]);
	S->v[7] = err_of(kill(-1, 0));
	c = fork();
	if (c == 0) {
		S->v[8] = err_of(kill(-1, 0));
		_exit(0);
	}
	S->v[9] = c * 10 + exited(reap(c), 0);
	d = fork();
	if (d == 0) {
		memset(&si, 0, sizeof(si));
		if (sigwaitinfo(&set, &si) == SIGUSR1)
			S->v[10] = si.si_pid;
		_exit(0);
	}
	S->v[11] = err_of(kill(-1, SIGUSR1));
	S->v[12] = d * 10 + exited(reap(d), 0);
	S->v[13] = pending(SIGUSR1);
}

static void killall(void)
{
	pid_t pid;
	int ok, p1, p2;

	handle(SIGUSR1, on_sig);
	block(SIGUSR1);
	pid = start(init_killall);
	ok = get(up[0]);
	p1 = pending(SIGUSR1);
	put(down[1]);
	check(finish(pid), "kill(-1): the init exits 0");
	p2 = pending(SIGUSR1);
	check_eq(S->v[3], 23, "the init's children are 2 and 3");
	check_ok(S->v[0], "child 2's kill(-1, 0)");
	check_ok(S->v[1], "child 2's kill(-1, SIGUSR1)");
	check_eq(S->v[2], 21, "reaches child 3: si_pid 2, SI_USER");
	check(S->v[4] == 1 && S->v[6] == 1, "children 2 and 3 exit 0");
	check_eq(S->v[5], 0, "not the init (kill(-1) leaves a namespace's init out)");
	check(ok && p1 == 0, "nor the driver outside");
	check_errno(S->v[7], ESRCH, "ESRCH", "the init alone: kill(-1, 0)");
	check_eq(S->v[9], 41, "its next child is 4");
	check_errno(S->v[8], ESRCH, "ESRCH", "child 4 alone with the init: kill(-1, 0)");
	check_ok(S->v[11], "the init's kill(-1, SIGUSR1)");
	check_eq(S->v[10], 1, "reaches its child 5: si_pid 1");
	check_eq(S->v[12], 51, "which exits 0");
	check_eq(S->v[13], 0, "not the init itself");
	check(p2 == 0, "nor the driver outside");
}

/* Process groups and sessions. */

static void init_pgrp(void)
{
	int ip[2], jp[2];
	pid_t a, b;

	if (pipe(ip) || pipe(jp))
		_exit(1);
	S->v[0] = getpgid(0);
	S->v[1] = getsid(0);
	S->v[2] = err_of(getpgid(30000));
	S->v[3] = err_of(getsid(30000));
	S->v[4] = err_of(setpgid(0, 30000));
	S->v[5] = err_of(setpgid(30000, 0));
	S->v[6] = err_of(kill(-30000, 0));
	S->v[7] = err_of(setpgid(0, 0));
	S->v[8] = getpgrp() * 10 + getpgid(0);
	S->v[9] = getsid(0);
	S->v[10] = err_of(setsid());
	put(up[1]);
	get(down[0]);
	a = fork();
	if (a == 0) {
		S->v[11] = getpgrp();
		S->v[12] = err_of(setpgid(0, 0));
		S->v[13] = getpgrp();
		S->v[14] = err_of(setpgid(0, 1));
		S->v[15] = getpgrp();
		put(ip[1]);
		wait_eof(hold[0]);
		_exit(0);
	}
	get(ip[0]);
	S->v[16] = err_of(setpgid(2, 2));
	S->v[17] = getpgid(2);
	S->v[18] = getsid(2);
	S->v[19] = err_of(kill(-2, 0));
	b = fork();
	if (b == 0) {
		S->v[20] = setsid();
		S->v[21] = getpgrp() * 10 + getsid(0);
		S->v[22] = err_of(setpgid(0, 1));
		put(jp[1]);
		wait_eof(hold[0]);
		_exit(0);
	}
	get(jp[0]);
	S->v[23] = getsid(3);
	S->v[24] = err_of(setpgid(3, 1));
	S->v[25] = err_of(setpgid(2, 3));
	put(up[1]);
}

static void pgrp(void)
{
	long g = UNSET, s = UNSET;
	pid_t pid;
	int ok;

	pid = start(init_pgrp);
	if (get(up[0])) {
		g = getpgid(pid);
		s = getsid(pid);
	}
	put(down[1]);
	ok = get(up[0]);
	check(finish(pid) && ok, "groups: the init exits 0");
	check_eq(S->v[0], 0, "the init's getpgid(0): 0 (its group is outside)");
	check_eq(S->v[1], 0, "its getsid(0): 0");
	check_errno(S->v[2], ESRCH, "ESRCH", "getpgid(30000)");
	check_errno(S->v[3], ESRCH, "ESRCH", "getsid(30000)");
	check_errno(S->v[4], EPERM, "EPERM", "setpgid(0, 30000)");
	check_errno(S->v[5], ESRCH, "ESRCH", "setpgid(30000, 0)");
	check_errno(S->v[6], ESRCH, "ESRCH", "kill(-30000, 0)");
	check_ok(S->v[7], "the init's setpgid(0, 0)");
	check_eq(S->v[8], 11, "then getpgrp() and getpgid(0): 1");
	check_eq(S->v[9], 0, "getsid(0) still 0");
	check_errno(S->v[10], EPERM, "EPERM", "setsid() of a group leader");
	check(pid > 0 && g == pid, "the driver's getpgid(init): the pid fork gave");
	check(s != UNSET && s == getsid(0), "the driver's getsid(init): its own session");
	check_eq(S->v[11], 1, "child 2's getpgrp(): 1");
	check_ok(S->v[12], "its setpgid(0, 0)");
	check_eq(S->v[13], 2, "then getpgrp(): 2");
	check_ok(S->v[14], "its setpgid(0, 1) (the same session)");
	check_eq(S->v[15], 1, "then getpgrp(): 1");
	check_ok(S->v[16], "the init's setpgid(2, 2)");
	check_eq(S->v[17], 2, "then getpgid(2): 2");
	check_eq(S->v[18], 0, "getsid(2): 0 (the session is outside)");
	check_ok(S->v[19], "kill(-2, 0)");
	check_eq(S->v[20], 3, "child 3's setsid(): 3");
	check_eq(S->v[21], 33, "then its getpgrp() and getsid(0): 3");
	check_errno(S->v[22], EPERM, "EPERM", "its setpgid(0, 1) (a session leader)");
	check_eq(S->v[23], 3, "the init's getsid(3): 3");
	check_errno(S->v[24], EPERM, "EPERM", "the init's setpgid(3, 1) (another session)");
	check_errno(S->v[25], EPERM, "EPERM",
		    "the init's setpgid(2, 3) (a group of another session)");
}

/* pidfd. */

static void init_pidfd(void)
{
	sigset_t set;
	siginfo_t si;
	pid_t g;
	long pfd;

	handle(SIGUSR1, on_sig);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	memset(&si, 0, sizeof(si));
	if (sigwaitinfo(&set, &si) == SIGUSR1)
		S->v[0] = si.si_pid * 10 + (si.si_code == SI_USER);
	g = fork();
	if (g == 0) {
		memset(&si, 0, sizeof(si));
		if (sigwaitinfo(&set, &si) == SIGUSR1)
			S->v[1] = si.si_pid * 10 + (si.si_code == SI_USER);
		_exit(3);
	}
	pfd = syscall(SYS_pidfd_open, 2, 0);
	S->v[2] = g * 10 + (pfd >= 0);
	S->v[3] = err_of(syscall(SYS_pidfd_open, 30000, 0));
	S->v[4] = err_of(syscall(SYS_pidfd_send_signal, pfd, SIGUSR1, NULL, 0));
	memset(&si, 0, sizeof(si));
	S->v[5] = waitid((idtype_t)P_PIDFD, (id_t)pfd, &si, WEXITED) == 0
			  ? si.si_pid * 10 + si.si_status
			  : UNSET;
}

/* A pidfd's fdinfo lines Pid and NSpid: whether they read "Pid:\tpid" and
 * "NSpid:\tpid[\tinner]". */
static int pidfd_info_is(long pfd, long pid, int inner)
{
	char path[64], line[96], want[96];
	int ok;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%ld", pfd);
	status_line(path, "Pid:", line, sizeof(line));
	snprintf(want, sizeof(want), "Pid:\t%ld", pid);
	ok = !strcmp(line, want);
	status_line(path, "NSpid:", line, sizeof(line));
	if (inner)
		snprintf(want, sizeof(want), "NSpid:\t%ld\t%d", pid, inner);
	else
		snprintf(want, sizeof(want), "NSpid:\t%ld", pid);
	return ok && !strcmp(line, want);
}

static void pidfds(void)
{
	siginfo_t si;
	long pfd, e;
	pid_t pid;
	int w, info, info_gone;

	handle(SIGUSR1, on_sig);
	block(SIGUSR1);
	pid = start(init_pidfd);
	pfd = syscall(SYS_pidfd_open, pid, 0);
	e = err_of(syscall(SYS_pidfd_send_signal, pfd, SIGUSR1, NULL, 0));
	info = pidfd_info_is(pfd, pid, 1);
	release();
	memset(&si, 0, sizeof(si));
	w = waitid((idtype_t)P_PIDFD, (id_t)pfd, &si, WEXITED | WNOWAIT) == 0 && si.si_pid == pid &&
	    si.si_code == CLD_EXITED && si.si_status == 0;
	check(finish(pid), "pidfd: the init exits 0");
	info_gone = pidfd_info_is(pfd, -1, 0);
	check(pfd >= 0 && e == 0, "the driver's pidfd_open(init) and pidfd_send_signal(SIGUSR1)");
	check(info, "its fdinfo: Pid the pid fork gave, NSpid that and 1");
	check(info_gone, "once reaped: Pid -1, NSpid -1");
	check_eq(S->v[0], 1, "the init reads si_pid 0 (the sender is outside), SI_USER");
	check(w, "the driver's waitid(P_PIDFD): si_pid the pid fork gave");
	check_eq(S->v[2], 21, "the init's pidfd_open(2) of its child 2");
	check_errno(S->v[3], ESRCH, "ESRCH", "pidfd_open(30000)");
	check_ok(S->v[4], "pidfd_send_signal(SIGUSR1) to child 2");
	check_eq(S->v[1], 11, "child 2 reads si_pid 1, SI_USER");
	check_eq(S->v[5], 23, "the init's waitid(P_PIDFD): si_pid 2, status 3");
	if (pfd >= 0)
		close((int)pfd);
}

/* Scheduling, priorities, limits, capabilities and the like of a pid. */

struct caphdr {
	unsigned version;
	int pid;
};

struct capdat {
	unsigned eff, perm, inh;
};

static long cap_of(int pid)
{
	struct caphdr h = { CAP_V3, pid };
	struct capdat d[2];

	return err_of(syscall(SYS_capget, &h, d));
}

struct ksigev {
	union sigval value;
	int signo;
	int notify;
	union {
		int tid;
		char pad[64 - 2 * sizeof(int) - sizeof(union sigval)];
	} u;
};

/* timer_create(CLOCK_MONOTONIC) signalling thread tid: 0 or the errno. */
static long timer_tid(int tid)
{
	struct ksigev ev;
	int id = -1;
	long r;

	memset(&ev, 0, sizeof(ev));
	ev.signo = SIGUSR2;
	ev.notify = SIGEV_THREAD_ID;
	ev.u.tid = tid;
	r = syscall(SYS_timer_create, CLOCK_MONOTONIC, &ev, &id);
	if (r == 0)
		syscall(SYS_timer_delete, id);
	return err_of(r);
}

struct lim64 {
	unsigned long long cur, max;
};

static void init_ids(void)
{
	struct lim64 l1, l2;
	cpu_set_t mine, its;
	struct sched_param sp;
	struct timespec ts;
	void *head;
	size_t len;
	int fd;
	pid_t g;

	fd = open("/dev/null", O_RDONLY);
	g = fork();
	if (g == 0) {
		wait_eof(hold[0]);
		_exit(0);
	}
	S->v[0] = g;
	CPU_ZERO(&mine);
	CPU_ZERO(&its);
	S->v[1] = sched_getaffinity(0, sizeof(mine), &mine) == 0 &&
		  sched_getaffinity(2, sizeof(its), &its) == 0 && CPU_EQUAL(&mine, &its);
	S->v[2] = err_of(sched_getaffinity(30000, sizeof(its), &its));
	S->v[3] = err_of(sched_setaffinity(2, sizeof(mine), &mine));
	S->v[4] = err_of(sched_setaffinity(30000, sizeof(mine), &mine));
	S->v[5] = syscall(SYS_sched_getscheduler, 2) == syscall(SYS_sched_getscheduler, 0);
	S->v[6] = err_of(syscall(SYS_sched_getscheduler, 30000));
	S->v[7] = err_of(syscall(SYS_sched_getparam, 30000, &sp));
	S->v[8] = err_of(syscall(SYS_sched_rr_get_interval, 30000, &ts));
	S->v[9] = err_of(setpriority(PRIO_PROCESS, 2, 7));
	errno = 0;
	S->v[10] = getpriority(PRIO_PROCESS, 2) * 10 + (errno == 0);
	S->v[11] = err_of(getpriority(PRIO_PROCESS, 30000));
	S->v[12] = err_of(getpriority(PRIO_PGRP, 30000));
	S->v[13] = err_of(setpriority(PRIO_PROCESS, 30000, 7));
	S->v[14] = syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &l1) == 0 &&
		   syscall(SYS_prlimit64, 2, RLIMIT_NOFILE, NULL, &l2) == 0 && l1.cur == l2.cur &&
		   l1.max == l2.max;
	S->v[15] = err_of(syscall(SYS_prlimit64, 30000, RLIMIT_NOFILE, NULL, &l2));
	S->v[16] = syscall(SYS_ioprio_get, WHO_PROCESS, 2) >= 0;
	S->v[17] = err_of(syscall(SYS_ioprio_get, WHO_PROCESS, 30000));
	S->v[18] = cap_of(2);
	S->v[19] = cap_of(30000);
	S->v[20] = err_of(syscall(SYS_get_robust_list, 2, &head, &len));
	S->v[21] = err_of(syscall(SYS_get_robust_list, 30000, &head, &len));
	S->v[22] = syscall(SYS_kcmp, 1, 2, K_FILE, fd, fd);
	S->v[23] = syscall(SYS_kcmp, 1, 1, K_VM, 0, 0);
	S->v[24] = syscall(SYS_kcmp, 1, 2, K_VM, 0, 0) > 0;
	S->v[25] = err_of(syscall(SYS_kcmp, 1, 30000, K_VM, 0, 0));
	S->v[26] = timer_tid(1);
	S->v[27] = timer_tid(2);
	S->v[28] = timer_tid(30000);
	put(up[1]);
}

static void ids(void)
{
	pid_t pid = start(init_ids);
	int ok;

	ok = get(up[0]);
	check(finish(pid) && ok, "ids: the init exits 0");
	check_eq(S->v[0], 2, "its child is 2");
	check(S->v[1] == 1, "sched_getaffinity(2): the init's own mask");
	check_errno(S->v[2], ESRCH, "ESRCH", "sched_getaffinity(30000)");
	check_ok(S->v[3], "sched_setaffinity(2)");
	check_errno(S->v[4], ESRCH, "ESRCH", "sched_setaffinity(30000)");
	check(S->v[5] == 1, "sched_getscheduler(2): the init's own policy");
	check_errno(S->v[6], ESRCH, "ESRCH", "sched_getscheduler(30000)");
	check_errno(S->v[7], ESRCH, "ESRCH", "sched_getparam(30000)");
	check_errno(S->v[8], ESRCH, "ESRCH", "sched_rr_get_interval(30000)");
	check_ok(S->v[9], "setpriority(PRIO_PROCESS, 2, 7)");
	check_eq(S->v[10], 71, "getpriority(PRIO_PROCESS, 2): 7");
	check_errno(S->v[11], ESRCH, "ESRCH", "getpriority(PRIO_PROCESS, 30000)");
	check_errno(S->v[12], ESRCH, "ESRCH", "getpriority(PRIO_PGRP, 30000)");
	check_errno(S->v[13], ESRCH, "ESRCH", "setpriority(PRIO_PROCESS, 30000)");
	check(S->v[14] == 1, "prlimit(2, RLIMIT_NOFILE): the init's own");
	check_errno(S->v[15], ESRCH, "ESRCH", "prlimit(30000)");
	check(S->v[16] == 1, "ioprio_get(IOPRIO_WHO_PROCESS, 2)");
	check_errno(S->v[17], ESRCH, "ESRCH", "ioprio_get(IOPRIO_WHO_PROCESS, 30000)");
	check_ok(S->v[18], "capget of pid 2");
	check_errno(S->v[19], ESRCH, "ESRCH", "capget of pid 30000");
	check_ok(S->v[20], "get_robust_list(2)");
	check_errno(S->v[21], ESRCH, "ESRCH", "get_robust_list(30000)");
	check_eq(S->v[22], 0, "kcmp(1, 2, KCMP_FILE) of an inherited fd: 0 (the same file)");
	check_eq(S->v[23], 0, "kcmp(1, 1, KCMP_VM): 0");
	check(S->v[24] == 1, "kcmp(1, 2, KCMP_VM): not the same");
	check_errno(S->v[25], ESRCH, "ESRCH", "kcmp(1, 30000)");
	check_ok(S->v[26], "timer_create(SIGEV_THREAD_ID, 1) by the init");
	check_errno(S->v[27], EINVAL, "EINVAL",
		    "timer_create(SIGEV_THREAD_ID, 2) (another process)");
	check_errno(S->v[28], EINVAL, "EINVAL", "timer_create(SIGEV_THREAD_ID, 30000)");
}

/* process_vm_readv and process_vm_writev. */

static volatile long marker = 5;

static void init_vm(void)
{
	long val = 0, nv = 333;
	struct iovec l, r;
	int ip[2], jp[2];
	pid_t g;

	if (pipe(ip) || pipe(jp))
		_exit(1);
	g = fork();
	if (g == 0) {
		marker = 222;
		put(ip[1]);
		get(jp[0]);
		S->v[0] = marker;
		_exit(0);
	}
	get(ip[0]);
	r.iov_base = (void *)&marker;
	r.iov_len = sizeof(marker);
	l.iov_base = &val;
	l.iov_len = sizeof(val);
	S->v[1] = syscall(SYS_process_vm_readv, 2, &l, 1, &r, 1, 0);
	S->v[2] = val;
	l.iov_base = &nv;
	S->v[3] = syscall(SYS_process_vm_writev, 2, &l, 1, &r, 1, 0);
	S->v[4] = err_of(syscall(SYS_process_vm_readv, 30000, &l, 1, &r, 1, 0));
	S->v[5] = err_of(syscall(SYS_process_vm_writev, 30000, &l, 1, &r, 1, 0));
	put(jp[1]);
	S->v[6] = g * 10 + exited(reap(g), 0);
	S->v[7] = marker;
	put(up[1]);
	get(down[0]);
}

static void vm(void)
{
	struct iovec l, r;
	long val = 0, got = UNSET;
	pid_t pid;

	pid = start(init_vm);
	marker = 6;
	if (get(up[0])) {
		l.iov_base = &val;
		l.iov_len = sizeof(val);
		r.iov_base = (void *)&marker;
		r.iov_len = sizeof(marker);
		got = syscall(SYS_process_vm_readv, pid, &l, 1, &r, 1, 0);
	}
	put(down[1]);
	check(finish(pid), "process_vm: the init exits 0");
	check(S->v[1] == (long)sizeof(long) && S->v[2] == 222,
	      "the init's process_vm_readv(2): its child's variable");
	check(S->v[3] == (long)sizeof(long), "the init's process_vm_writev(2)");
	check_eq(S->v[0], 333, "child 2 reads what it wrote");
	check_errno(S->v[4], ESRCH, "ESRCH", "process_vm_readv(30000)");
	check_errno(S->v[5], ESRCH, "ESRCH", "process_vm_writev(30000)");
	check_eq(S->v[6], 21, "child 2 exits 0");
	check_eq(S->v[7], 5, "the init's own variable is unchanged");
	check(got == (long)sizeof(long) && val == 5,
	      "the driver's process_vm_readv(init): the init's");
}

/* tgkill, tkill and queued signals. */

static void queue_info(siginfo_t *si, int sig, int spid, int val)
{
	memset(si, 0, sizeof(*si));
	si->si_signo = sig;
	si->si_code = SI_QUEUE;
	si->si_pid = spid;
	si->si_uid = getuid();
	si->si_value.sival_int = val;
}

/* Take n signals sig, at v[base + their value - 1]: si_pid * 10 + whether
 * si_code is SI_QUEUE (the order they come in is not the order sent). */
static void take(int sig, int count, int base)
{
	sigset_t set;
	siginfo_t si;
	int i;

	sigemptyset(&set);
	sigaddset(&set, sig);
	for (i = 0; i < count; i++) {
		memset(&si, 0, sizeof(si));
		if (sigwaitinfo(&set, &si) == sig && si.si_value.sival_int >= 1 &&
		    si.si_value.sival_int <= 3)
			S->v[base + si.si_value.sival_int - 1] =
				si.si_pid * 10L + (si.si_code == SI_QUEUE);
	}
}

static void init_sigq(void)
{
	int sig = SIGRTMIN + 1, ip[2];
	union sigval sv;
	siginfo_t si;
	pid_t g;

	handle(sig, on_sig);
	take(sig, 2, 0);
	if (pipe(ip))
		_exit(1);
	g = fork();
	if (g == 0) {
		take(sig, 3, 2);
		put(ip[1]);
		wait_eof(hold[0]);
		_exit(0);
	}
	S->v[5] = err_of(syscall(SYS_tgkill, 1, 1, 0));
	S->v[6] = err_of(syscall(SYS_tgkill, 2, 2, 0));
	S->v[7] = err_of(syscall(SYS_tgkill, 1, 2, 0));
	S->v[8] = err_of(syscall(SYS_tgkill, 1, 30000, 0));
	S->v[9] = err_of(syscall(SYS_tkill, 2, 0));
	S->v[10] = err_of(syscall(SYS_tkill, 30000, 0));
	queue_info(&si, sig, 4242, 1);
	S->v[11] = err_of(syscall(SYS_rt_sigqueueinfo, 2, sig, &si));
	sv.sival_int = 2;
	S->v[12] = err_of(sigqueue(2, sig, sv));
	queue_info(&si, sig, 4343, 3);
	S->v[13] = err_of(syscall(SYS_rt_tgsigqueueinfo, 2, 2, sig, &si));
	S->v[14] = err_of(syscall(SYS_rt_tgsigqueueinfo, 1, 2, sig, &si));
	S->v[15] = err_of(syscall(SYS_rt_sigqueueinfo, 30000, sig, &si));
	S->v[16] = get(ip[0]);
}

static void sigq(void)
{
	int sig = SIGRTMIN + 1;
	union sigval sv;
	siginfo_t si;
	long e1, e2;
	pid_t pid;

	handle(sig, on_sig);
	block(sig);
	pid = start(init_sigq);
	queue_info(&si, sig, 4242, 1);
	e1 = err_of(syscall(SYS_rt_sigqueueinfo, pid, sig, &si));
	sv.sival_int = 2;
	e2 = err_of(sigqueue(pid, sig, sv));
	check(finish(pid), "signals: the init exits 0");
	check_ok(e1, "the driver's rt_sigqueueinfo(init, SI_QUEUE, si_pid 4242)");
	check_eq(S->v[0], 1, "the init reads si_pid 0 (the sender is outside), SI_QUEUE");
	check_ok(e2, "the driver's sigqueue(init)");
	check_eq(S->v[1], 1, "the init reads si_pid 0, SI_QUEUE");
	check_ok(S->v[5], "the init's tgkill(1, 1, 0)");
	check_ok(S->v[6], "tgkill(2, 2, 0)");
	check_errno(S->v[7], ESRCH, "ESRCH", "tgkill(1, 2, 0) (2 is not the init's thread)");
	check_errno(S->v[8], ESRCH, "ESRCH", "tgkill(1, 30000, 0)");
	check_ok(S->v[9], "tkill(2, 0)");
	check_errno(S->v[10], ESRCH, "ESRCH", "tkill(30000, 0)");
	check_ok(S->v[11], "rt_sigqueueinfo(2, SI_QUEUE, si_pid 4242)");
	check_eq(S->v[2], 42421, "child 2 reads si_pid 4242 (as given), SI_QUEUE");
	check_ok(S->v[12], "sigqueue(2)");
	check_eq(S->v[3], 11, "child 2 reads si_pid 1, SI_QUEUE");
	check_ok(S->v[13], "rt_tgsigqueueinfo(2, 2, SI_QUEUE, si_pid 4343)");
	check_eq(S->v[4], 43431, "child 2 reads si_pid 4343, SI_QUEUE");
	check_errno(S->v[14], ESRCH, "ESRCH", "rt_tgsigqueueinfo(1, 2)");
	check_errno(S->v[15], ESRCH, "ESRCH", "rt_sigqueueinfo(30000)");
	check(S->v[16] == 1, "child 2 took its three signals");
}

/* ptrace. */

#define EVENT(st, ev) ((st) >> 8 == (SIGTRAP | ((ev) << 8)))

static void init_ptrace(void)
{
	unsigned long msg = 0;
	int ip[2], st = 0;
	pid_t g, h;

	if (pipe(ip))
		_exit(1);
	/* the driver traces the init's first fork */
	get(down[0]);
	g = fork();
	if (g == 0) {
		/* the init attaches to it meanwhile */
		get(ip[0]);
		h = fork();
		if (h == 0)
			_exit(4);
		S->v[0] = h * 10 + exited(reap(h), 4);
		_exit(0);
	}
	S->v[1] = g;
	S->v[2] = err_of(ptrace(PTRACE_ATTACH, 2, NULL, NULL));
	S->v[3] = waitpid(2, &st, 0) == 2 && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP;
	S->v[4] = err_of(ptrace(PTRACE_SETOPTIONS, 2, NULL, (void *)(long)PTRACE_O_TRACEFORK));
	S->v[5] = err_of(ptrace(PTRACE_CONT, 2, NULL, NULL));
	put(ip[1]);
	st = 0;
	S->v[6] = waitpid(2, &st, 0) == 2 && EVENT(st, PTRACE_EVENT_FORK);
	S->v[7] = ptrace(PTRACE_GETEVENTMSG, 2, NULL, &msg) == 0 ? (long)msg : UNSET;
	st = 0;
	S->v[8] = waitpid(3, &st, __WALL) == 3 && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP;
	S->v[9] = err_of(ptrace(PTRACE_ATTACH, 30000, NULL, NULL));
	S->v[10] = err_of(ptrace(PTRACE_DETACH, 3, NULL, NULL));
	S->v[11] = err_of(ptrace(PTRACE_DETACH, 2, NULL, NULL));
	S->v[12] = exited(reap(2), 0);
}

static void ptraced(void)
{
	int seized, st = 0, ev = 0, kid = 0, nsp = 0, dk = 0, di = 0;
	unsigned long msg = 0;
	pid_t pid, p = -1;

	pid = start(init_ptrace);
	seized = pid > 0 && ptrace(PTRACE_SEIZE, pid, NULL, (void *)(long)PTRACE_O_TRACEFORK) == 0;
	put(down[1]);
	if (seized) {
		ev = waitpid(pid, &st, 0) == pid && EVENT(st, PTRACE_EVENT_FORK);
		if (ev && ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg) == 0)
			p = (pid_t)msg;
		st = 0;
		kid = p > 0 && waitpid(p, &st, __WALL) == p && WIFSTOPPED(st) &&
		      st >> 16 == PTRACE_EVENT_STOP;
		nsp = nspid_is(p, 2);
		dk = p > 0 && ptrace(PTRACE_DETACH, p, NULL, NULL) == 0;
		di = ptrace(PTRACE_DETACH, pid, NULL, NULL) == 0;
	}
	check(finish(pid), "ptrace: the init exits 0");
	check(seized, "the driver's PTRACE_SEIZE(init, PTRACE_O_TRACEFORK)");
	check(ev, "the init's fork: PTRACE_EVENT_FORK");
	check(nsp, "PTRACE_GETEVENTMSG: a pid whose NSpid is it then 2");
	check(kid, "waitpid of it: its PTRACE_EVENT_STOP");
	check(dk && di, "the driver detaches both");
	check_eq(S->v[1], 2, "the init's fork gave 2");
	check_ok(S->v[2], "the init's PTRACE_ATTACH(2)");
	check(S->v[3] == 1, "waitpid(2): stopped by SIGSTOP");
	check(S->v[4] == 0 && S->v[5] == 0, "PTRACE_SETOPTIONS(PTRACE_O_TRACEFORK), PTRACE_CONT");
	check(S->v[6] == 1, "child 2's fork: PTRACE_EVENT_FORK");
	check_eq(S->v[7], 3, "PTRACE_GETEVENTMSG: 3");
	check(S->v[8] == 1, "waitpid(3, __WALL): stopped by SIGSTOP");
	check_errno(S->v[9], ESRCH, "ESRCH", "PTRACE_ATTACH(30000)");
	check(S->v[10] == 0 && S->v[11] == 0, "PTRACE_DETACH of 3 and 2");
	check_eq(S->v[0], 31, "child 2's fork gave 3, which exits 4");
	check(S->v[12] == 1, "child 2 exits 0");
}

/* /proc/self/stat with a proc mounted in the namespace. */

/* Fields 1 and 4 to 8 of a stat file: pid, ppid, pgrp, session, tty_nr,
 * tpgid. */
static void stat_fields(const char *path, long f[6])
{
	FILE *fp = fopen(path, "r");
	char buf[512], *p;
	int i;

	for (i = 0; i < 6; i++)
		f[i] = UNSET;
	if (fp && fgets(buf, sizeof(buf), fp) && (p = strrchr(buf, ')'))) {
		f[0] = atol(buf);
		if (sscanf(p + 1, " %*c %ld %ld %ld %ld %ld", &f[1], &f[2], &f[3], &f[4], &f[5]) !=
		    5)
			f[1] = UNSET;
	}
	if (fp)
		fclose(fp);
}

static void init_proc(void)
{
	long f[6];
	int ip[2];
	pid_t g;

	S->v[0] = unshare(CLONE_NEWNS) == 0 &&
		  mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
		  mount("proc", "/proc", "proc", 0, NULL) == 0;
	stat_fields("/proc/self/stat", f);
	S->v[1] = f[0];
	S->v[2] = f[1];
	S->v[3] = f[2];
	S->v[4] = f[3];
	status_line("/proc/self/status", "NSpgid:", S->text[0], sizeof(S->text[0]));
	S->v[5] = setsid();
	stat_fields("/proc/self/stat", f);
	S->v[6] = f[2];
	S->v[7] = f[3];
	S->v[8] = f[5];
	status_line("/proc/self/status", "NSsid:", S->text[1], sizeof(S->text[1]));
	if (pipe(ip))
		_exit(1);
	g = fork();
	if (g == 0) {
		put(ip[1]);
		wait_eof(hold[0]);
		_exit(0);
	}
	get(ip[0]);
	stat_fields("/proc/2/stat", f);
	S->v[9] = f[0] * 1000 + f[1] * 100 + f[2] * 10 + f[3];
	put(up[1]);
	wait_eof(hold[0]);
}

static void proc(void)
{
	char path[64], line[96], want[96];
	pid_t pid;
	int ok;

	pid = start(init_proc);
	ok = get(up[0]);
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	status_line(path, "NSsid:", line, sizeof(line));
	snprintf(want, sizeof(want), "NSsid:\t%d\t1", (int)pid);
	check(ok && !strcmp(line, want),
	      "proc: the outer /proc: the init's NSsid is its pid, then 1");
	check(finish(pid), "the init exits 0");
	check(S->v[0] == 1, "the init mounts a proc of its own (in a mount namespace of its own)");
	check_eq(S->v[1], 1, "its /proc/self/stat: pid 1");
	check_eq(S->v[2], 0, "ppid 0");
	check_eq(S->v[3], 0, "pgrp 0");
	check_eq(S->v[4], 0, "session 0");
	check(!strcmp(S->text[0], "NSpgid:\t0"), "its /proc/self/status: NSpgid 0");
	check_eq(S->v[5], 1, "its setsid(): 1");
	check_eq(S->v[6], 1, "then /proc/self/stat: pgrp 1");
	check_eq(S->v[7], 1, "session 1");
	check_eq(S->v[8], -1, "tpgid -1 (no terminal)");
	check(!strcmp(S->text[1], "NSsid:\t1"), "/proc/self/status: NSsid 1");
	check_eq(S->v[9], 2111, "/proc/2/stat: pid 2, ppid 1, pgrp 1, session 1");
}

/* Futexes: robust lists. */

static void init_futex(void)
{
	pthread_mutexattr_t a;
	pid_t g;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&S->m, &a);
	pthread_mutexattr_destroy(&a);
	g = fork();
	if (g == 0) {
		S->v[0] = pthread_mutex_lock(&S->m);
		_exit(0);
	}
	S->v[1] = g * 10 + exited(reap(g), 0);
	S->v[2] = pthread_mutex_lock(&S->m);
	S->v[3] = pthread_mutex_consistent(&S->m) == 0 && pthread_mutex_unlock(&S->m) == 0;
	g = fork();
	if (g == 0) {
		static struct rhead head;
		unsigned me = (unsigned)syscall(SYS_gettid);

		S->ent[0].word = me;
		S->ent[1].word = me | FX_WAITERS;
		S->ent[2].word = 1;
		S->ent[0].next = &S->ent[1];
		S->ent[1].next = &S->ent[2];
		S->ent[2].next = (struct rent *)&head;
		head.list = &S->ent[0];
		head.off = offsetof(struct rent, word);
		head.pending = NULL;
		S->v[4] = me;
		S->v[5] = err_of(syscall(SYS_set_robust_list, &head, sizeof(head)));
		_exit(0);
	}
	S->v[6] = g * 10 + exited(reap(g), 0);
	S->v[7] = S->ent[0].word;
	S->v[8] = S->ent[1].word;
	S->v[9] = S->ent[2].word;
	put(up[1]);
}

static void futexes(void)
{
	pid_t pid = start(init_futex);
	int ok;

	ok = get(up[0]);
	check(finish(pid) && ok, "futex: the init exits 0");
	check_ok(S->v[0], "child 2's pthread_mutex_lock of a robust mutex, shared");
	check_eq(S->v[1], 21, "child 2 exits holding it");
	check_errno(S->v[2], EOWNERDEAD, "EOWNERDEAD", "the init's pthread_mutex_lock");
	check(S->v[3] == 1, "pthread_mutex_consistent, pthread_mutex_unlock");
	check_eq(S->v[4], 3, "child 3's gettid(): 3");
	check_ok(S->v[5], "its set_robust_list of three entries");
	check_eq(S->v[6], 31, "it exits 0");
	check_eq(S->v[7], (long)FX_OWNER_DIED, "an entry holding 3: FUTEX_OWNER_DIED");
	check_eq(S->v[8], (long)(FX_OWNER_DIED | FX_WAITERS),
		 "3 with FUTEX_WAITERS: FUTEX_OWNER_DIED|FUTEX_WAITERS");
	check_eq(S->v[9], 1, "an entry holding 1: left alone");
}

int main(void)
{
	static const char *const names[] = { "s1", "s2", "lk" };
	char path[96];
	unsigned i;

	S = mmap(NULL, sizeof(*S), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (S == MAP_FAILED)
		return 1;
	/* a driver writing to an init that died fails, it is not killed */
	signal(SIGPIPE, SIG_IGN);
	snprintf(dir, sizeof(dir), "/tmp/pidns_ids.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	in_child(peercred);
	in_child(scm);
	in_child(fowner);
	in_child(getlk);
	in_child(sysv);
	in_child(killall);
	in_child(pgrp);
	in_child(pidfds);
	in_child(ids);
	in_child(vm);
	in_child(sigq);
	in_child(ptraced);
	in_child(proc);
	in_child(futexes);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		in_dir(path, sizeof(path), names[i]);
		unlink(path);
	}
	check(rmdir(dir) == 0, "the directory is removed");
	return 0;
}
