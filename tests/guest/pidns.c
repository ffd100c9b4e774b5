/* PID namespaces (CLONE_NEWPID), as Linux has them. unshare(CLONE_NEWPID)
 * leaves the caller where it is (same getpid(), same /proc/self/ns/pid) and
 * changes only /proc/self/ns/pid_for_children, which cannot be followed
 * (ENOENT) until the namespace has an init; a second unshare before a fork
 * is EINVAL, and so is a thread then. The first child forked is the new
 * namespace's init: pid 1, ppid 0, its process group and session (outside)
 * read as 0 until setsid() makes them 1; its children are 2, 3, ... (a
 * thread takes a number too), and SIGCHLD's and waitid's si_pid name them
 * as it sees them, while the parent outside sees the pid fork gave it. An
 * orphan goes to the namespace's init. A pid not in the namespace is ESRCH.
 * The init ignores SIGTERM and SIGKILL from inside while they are SIG_DFL,
 * and SIGTERM from outside too, but takes a signal it has a handler for
 * (si_pid 0 when it comes from outside); SIGKILL from outside kills it.
 * When it dies the rest of the namespace is killed (a pipe's writer held
 * there goes), and then no process can be added to it (fork: ENOMEM).
 * An init's clone(CLONE_PARENT) is EINVAL. clone(CLONE_NEWPID) works as
 * unshare and fork; with CLONE_THREAD it is EINVAL. A proc mounted in the
 * namespace shows only its processes, by their numbers there (NSpid one
 * level); the outer /proc shows the init's NSpid with two levels, the last
 * 1. setns(CLONE_NEWPID) sets where the next child goes (the child's ppid
 * is then 0), and only into the caller's own namespace or a descendant;
 * NS_GET_PARENT gives the parent namespace, EPERM past the caller's own.
 * Numbers of the outer namespace are compared, never printed: natively
 * they are the host's. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#ifndef CLONE_NEWPID
#define CLONE_NEWPID 0x20000000
#endif
#ifndef CLONE_NEWNS
#define CLONE_NEWNS 0x00020000
#endif
#define NS_GET_PARENT 0xb702 /* _IO(0xb7, 0x2) */
#define NS_GET_NSTYPE 0xb703 /* _IO(0xb7, 0x3) */

#define TAP_FLUSH
#include "ns_util.h"

/* What the processes of a namespace saw, for the driver (outside) to
 * print: v[] starts at UNSET so that a value never written shows. */
#define UNSET (-999)
struct shared {
	volatile long v[32];
	char text[6][64];
};
static struct shared *S;

static void reset(void)
{
	int i;

	memset(S, 0, sizeof(*S));
	for (i = 0; i < 32; i++)
		S->v[i] = UNSET;
}

/* The safety net of a process in the namespace: its init ignores SIGALRM
 * while it is SIG_DFL (even the kernel's), so a handler ends it. */
static void on_alarm(int sig)
{
	(void)sig;
	_exit(99);
}

static void safety(unsigned secs)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	alarm(secs);
}

static unsigned long ino_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (unsigned long)st.st_ino : 0;
}

static unsigned long fd_ino(int fd)
{
	struct stat st;

	return fd >= 0 && fstat(fd, &st) == 0 ? (unsigned long)st.st_ino : 0;
}

/* Sleep in 10 ms steps until *what reaches want, 2 s at most. */
static void wait_for(volatile long *what, long want)
{
	int i;

	for (i = 0; i < 200 && *what < want; i++)
		usleep(10000);
}

/* unshare, the links and the errors before a fork; then the init and its
 * first child (and that one's thread), as each sees itself and the other. */

static void *thread_tid(void *arg)
{
	S->v[7] = syscall(SYS_gettid);
	return arg;
}

static int ready[2], go[2];

static void init_basic(void)
{
	sigset_t set;
	siginfo_t si;
	pid_t g;
	char c;
	int st;

	safety(5);
	/* the driver looks at its pid_for_children while this one lives */
	close(go[1]);
	if (read(go[0], &c, 1) != 0)
		_exit(1);
	S->v[0] = getpid();
	S->v[1] = getppid();
	S->v[2] = (long)ino_of("/proc/self/ns/pid");
	S->v[16] = (long)ino_of("/proc/self/ns/pid_for_children");
	S->v[3] = getpgrp();
	S->v[4] = getsid(0);
	errno = 0;
	S->v[5] = kill(30000, 0) == -1 ? errno : 0;
	/* SIGCHLD is blocked (the driver's mask): sigwaitinfo takes it */
	g = fork();
	if (g == 0) {
		pthread_t th;

		S->v[6] = (long)getpid() * 100 + getppid();
		S->v[8] = syscall(SYS_gettid) == getpid();
		if (pthread_create(&th, NULL, thread_tid, NULL) == 0)
			pthread_join(th, NULL);
		_exit(7);
	}
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	S->v[9] = g;
	if (sigwaitinfo(&set, &si) == SIGCHLD)
		S->v[10] = si.si_code == CLD_EXITED && si.si_status == 7 ? si.si_pid : -1;
	memset(&si, 0, sizeof(si));
	if (waitid(P_ALL, 0, &si, WEXITED) == 0)
		S->v[11] = si.si_pid;
	S->v[12] = waitpid(-1, &st, WNOHANG) == -1 && errno == ECHILD;
	S->v[13] = setsid();
	S->v[14] = getsid(0);
	S->v[15] = getpgrp();
	_exit(5);
}

static int clone_fn(void *arg)
{
	(void)arg;
	syscall(SYS_exit, 0);
	return 0;
}

static void basic(void)
{
	static char stack[16384] __attribute__((aligned(16)));
	unsigned long outer = ino_of("/proc/self/ns/pid"), kids;
	pid_t me = getpid(), pid;
	char buf[64], want[64];
	struct stat lst;
	sigset_t set;
	siginfo_t si;
	ssize_t k;
	int r, st;

	alarm(10);
	reset();
	if (pipe(go))
		return;
	check(unshare(CLONE_NEWPID) == 0, "unshare(CLONE_NEWPID)");
	check(getpid() == me, "getpid() is unchanged after it");
	check(outer != 0 && ino_of("/proc/self/ns/pid") == outer, "/proc/self/ns/pid is unchanged");
	/* Linux: the namespace is not reachable before it has an init */
	check(lstat("/proc/self/ns/pid_for_children", &lst) == 0 && S_ISLNK(lst.st_mode),
	      "/proc/self/ns/pid_for_children is still there (lstat)");
	check_err(stat("/proc/self/ns/pid_for_children", &lst), ENOENT, "ENOENT",
		  "stat pid_for_children before a child");
	check_err(readlink("/proc/self/ns/pid_for_children", buf, sizeof(buf)), ENOENT, "ENOENT",
		  "readlink pid_for_children before a child");
	check_err(open("/proc/self/ns/pid_for_children", O_RDONLY), ENOENT, "ENOENT",
		  "open pid_for_children before a child");
	check_err(unshare(CLONE_NEWPID), EINVAL, "EINVAL",
		  "a second unshare(CLONE_NEWPID) before a fork");
	r = clone(clone_fn, stack + sizeof(stack), CLONE_VM | CLONE_SIGHAND | CLONE_THREAD, NULL);
	check_err(r, EINVAL, "EINVAL", "a thread then (clone CLONE_THREAD)");

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	pid = fork();
	if (pid == 0)
		init_basic();
	check(pid > 0 && pid != 1, "fork: the parent gets the child's pid in its own namespace");
	close(go[0]);
	kids = ino_of("/proc/self/ns/pid_for_children");
	check(kids != 0 && kids != outer, "then pid_for_children is another namespace");
	k = readlink("/proc/self/ns/pid_for_children", buf, sizeof(buf) - 1);
	buf[k > 0 ? k : 0] = 0;
	snprintf(want, sizeof(want), "pid:[%lu]", kids);
	check(!strcmp(buf, want), "readlink pid_for_children: pid:[its inode]");
	check(ino_of("/proc/self/ns/pid") == outer, "and pid is unchanged");
	close(go[1]);
	memset(&si, 0, sizeof(si));
	check(sigwaitinfo(&set, &si) == SIGCHLD && si.si_pid == pid && si.si_code == CLD_EXITED,
	      "the parent's SIGCHLD: si_pid the pid fork gave");
	memset(&si, 0, sizeof(si));
	check(waitid(P_PID, pid, &si, WEXITED | WNOWAIT) == 0 && si.si_pid == pid &&
		      si.si_status == 5,
	      "waitid: si_pid the pid fork gave, the exit status");
	st = 0;
	check(wait4(-1, &st, 0, NULL) == pid && exited(st, 5), "wait4: that pid, exit status 5");
	check_eq(S->v[0], 1, "the child's getpid() is 1");
	check_eq(S->v[1], 0, "its getppid() is 0");
	check(S->v[2] == (long)kids && S->v[16] == (long)kids,
	      "its ns/pid and ns/pid_for_children: the new namespace");
	check_eq(S->v[3], 0, "its getpgrp() is 0 (the group is outside)");
	check_eq(S->v[4], 0, "its getsid(0) is 0 (the session is outside)");
	errno = (int)S->v[5];
	check_err(S->v[5] ? -1 : 0, ESRCH, "ESRCH", "kill(30000, 0) in the namespace");
	check_eq(S->v[9], 2, "the init's first child: fork gives it 2");
	check_eq(S->v[6], 201, "its getpid() is 2, getppid() 1");
	check(S->v[8] == 1, "its gettid() is its getpid()");
	check_eq(S->v[7], 3, "its thread's gettid() is 3");
	check_eq(S->v[10], 2, "the init's SIGCHLD: si_pid 2, CLD_EXITED, status 7");
	check_eq(S->v[11], 2, "the init's waitid: si_pid 2");
	check(S->v[12] == 1, "then the init has no child left (ECHILD)");
	check_eq(S->v[13], 1, "the init's setsid() gives 1");
	check_eq(S->v[14], 1, "then getsid(0) is 1");
	check_eq(S->v[15], 1, "and getpgrp() is 1");
}

/* Start a namespace: unshare, then fork its init, which runs fn. */
static pid_t new_ns(void (*fn)(void))
{
	pid_t pid;

	alarm(10);
	reset();
	if (unshare(CLONE_NEWPID) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		safety(5);
		fn();
		_exit(0);
	}
	return pid;
}

/* Orphans: A (2) forks B (3) and exits once B has looked at its parent; B's
 * parent becomes the init, which waits for it. */
static void init_orphan(void)
{
	int p[2], st;
	pid_t a, b;
	char c;

	if (pipe(p))
		_exit(1);
	a = fork();
	if (a == 0) {
		b = fork();
		if (b == 0) {
			close(p[0]);
			S->v[1] = getppid();
			if (write(p[1], "x", 1) != 1)
				_exit(1);
			close(p[1]);
			/* S->v[2] counts the polls: an upper bound, not printed */
			for (S->v[2] = 0; getppid() != 1 && S->v[2] < 200; S->v[2]++)
				usleep(10000);
			S->v[3] = getppid();
			_exit(9);
		}
		close(p[1]);
		S->v[0] = b;
		_exit(read(p[0], &c, 1) == 1 ? 0 : 1);
	}
	close(p[0]);
	close(p[1]);
	st = reap(a);
	S->v[4] = a * 10 + exited(st, 0);
	b = wait(&st);
	S->v[5] = b;
	S->v[6] = exited(st, 9);
}

static void orphan(void)
{
	pid_t pid = new_ns(init_orphan);

	check(exited(reap(pid), 0), "orphans: the init exits 0");
	check_eq(S->v[4], 21, "the init's child A is 2 and exits 0");
	check_eq(S->v[0], 3, "A's child B is 3");
	check_eq(S->v[1], 2, "B's getppid() is 2 while A lives");
	check_eq(S->v[3], 1, "then 1: B went to the namespace's init");
	check_eq(S->v[5], 3, "the init's wait() gets B");
	check(S->v[6] == 1, "with B's exit status 9");
}

/* Signals to the init, from inside and from outside. */
static volatile long usr1_count;

static void on_usr1(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	if (usr1_count < 8)
		S->v[8 + usr1_count] = si->si_pid;
	usr1_count++;
}

static void init_signals(void)
{
	struct sigaction sa;
	sigset_t pend;
	pid_t g;

	close(ready[0]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGTERM, SIG_DFL);
	g = fork();
	if (g == 0) {
		S->v[0] = kill(1, SIGTERM);
		S->v[1] = kill(1, SIGKILL);
		S->v[2] = kill(1, SIGUSR1);
		_exit(0);
	}
	S->v[3] = exited(reap(g), 0);
	wait_for(&usr1_count, 1);
	sigpending(&pend);
	S->v[4] = sigismember(&pend, SIGTERM) || sigismember(&pend, SIGKILL);
	if (write(ready[1], "x", 1) != 1)
		_exit(1);
	wait_for(&usr1_count, 2);
	S->v[5] = usr1_count;
	if (write(ready[1], "y", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

static void signals(void)
{
	pid_t pid;
	char c = 0;
	int st;

	if (pipe(ready))
		return;
	pid = new_ns(init_signals);
	close(ready[1]);
	check(read(ready[0], &c, 1) == 1 && c == 'x',
	      "signals: the init lives after kill(1, SIGTERM) and kill(1, SIGKILL) from inside");
	check(S->v[0] == 0 && S->v[1] == 0 && S->v[2] == 0, "those kill()s return 0");
	check(S->v[3] == 1, "the sender exits 0");
	check(S->v[4] == 0, "SIGTERM and SIGKILL are not left pending: ignored");
	check_eq(S->v[8], 2, "SIGUSR1 from inside reaches the init's handler, si_pid 2");
	check(kill(pid, SIGTERM) == 0, "kill(init, SIGTERM) from outside returns 0");
	check(kill(pid, SIGUSR1) == 0, "then kill(init, SIGUSR1)");
	c = 0;
	check(read(ready[0], &c, 1) == 1 && c == 'y',
	      "the init lives on: SIGTERM from outside ignored too");
	check_eq(S->v[5], 2, "SIGUSR1 from outside reaches the handler");
	check_eq(S->v[9], 0, "with si_pid 0");
	check(kill(pid, SIGKILL) == 0, "kill(init, SIGKILL) from outside");
	st = reap(pid);
	check(st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "kills it: WTERMSIG SIGKILL");
	close(ready[0]);
}

/* The init exits: the namespace's other processes are killed. */
static void init_zap(void)
{
	pid_t g;

	close(ready[0]);
	g = fork();
	if (g == 0) {
		safety(5);
		for (;;)
			pause();
	}
	S->v[0] = g;
	close(ready[1]);
	_exit(3);
}

static void zap(void)
{
	struct pollfd pfd;
	pid_t pid;
	char c;

	if (pipe(ready))
		return;
	pid = new_ns(init_zap);
	close(ready[1]);
	check(exited(reap(pid), 3), "the init exits 3 with a child alive");
	check_eq(S->v[0], 2, "that child is 2");
	pfd.fd = ready[0];
	pfd.events = POLLIN;
	check(poll(&pfd, 1, 5000) == 1 && read(ready[0], &c, 1) == 0,
	      "a pipe's writer it held is gone: EOF (the namespace was killed)");
	close(ready[0]);
}

/* Once the init is gone, fork into the namespace is ENOMEM. */
static void init_exit(void)
{
	long r = syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0);

	if (r == 0)
		_exit(0);
	S->v[0] = r == -1 ? errno : 0;
	_exit(0);
}

static void dead(void)
{
	pid_t pid = new_ns(init_exit), p2;

	check(exited(reap(pid), 0), "an init that exits at once");
	errno = (int)S->v[0];
	check_err(S->v[0] ? -1 : 0, EINVAL, "EINVAL",
		  "its clone(CLONE_PARENT) (no siblings for an init)");
	p2 = fork();
	if (p2 == 0)
		_exit(0);
	if (p2 > 0)
		reap(p2);
	check_err(p2, ENOMEM, "ENOMEM", "then fork() into its namespace");
}

/* clone(CLONE_NEWPID) itself. */
static void clone_newpid(void)
{
	long r;
	int st;

	alarm(10);
	r = syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, 0, 0, 0, 0);
	if (r == 0)
		_exit(syscall(SYS_getpid) * 10 + syscall(SYS_getppid));
	st = r > 0 ? reap((pid_t)r) : -1;
	check(r > 1 && exited(st, 10),
	      "clone(CLONE_NEWPID|SIGCHLD): the child's getpid() 1, getppid() 0");
	check(ino_of("/proc/self/ns/pid") == ino_of("/proc/self/ns/pid_for_children"),
	      "the caller's pid_for_children is unchanged");
	r = syscall(SYS_clone, CLONE_NEWPID | CLONE_THREAD | CLONE_SIGHAND | CLONE_VM, 0, 0, 0, 0);
	check_err(r, EINVAL, "EINVAL", "clone(CLONE_NEWPID|CLONE_THREAD|CLONE_SIGHAND|CLONE_VM)");
}

/* A proc mounted in the namespace, and the outer one. */
static int numcmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The numeric entries of /proc, sorted, as "1 2". */
static void proc_pids(char *out, size_t size)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int pids[64], k = 0, i;
	size_t len = 0;

	out[0] = 0;
	while (d && (e = readdir(d)) && k < 64)
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' &&
		    strspn(e->d_name, "0123456789") == strlen(e->d_name))
			pids[k++] = atoi(e->d_name);
	if (d)
		closedir(d);
	qsort(pids, (size_t)k, sizeof(pids[0]), numcmp);
	for (i = 0; i < k && len < size; i++)
		len += (size_t)snprintf(out + len, size - len, "%s%d", i ? " " : "", pids[i]);
}

/* The line of a /proc status file that starts with key, without the
 * newline; "" if none. */
static void status_line(const char *path, const char *key, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	char line[256];

	out[0] = 0;
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key))) {
			line[strcspn(line, "\n")] = 0;
			line[size - 1 < sizeof(line) - 1 ? size - 1 : sizeof(line) - 1] = 0;
			strcpy(out, line);
		}
	if (f)
		fclose(f);
}

/* Field 4 (ppid) of a /proc stat file, -1 if unreadable. */
static long stat_ppid(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[512], *p;
	long ppid = -1;

	if (f && fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
		if (sscanf(p + 1, " %*c %ld", &ppid) != 1)
			ppid = -1;
	if (f)
		fclose(f);
	return ppid;
}

static int tabs(const char *s)
{
	int k = 0;

	while ((s = strchr(s, '\t')))
		k++, s++;
	return k;
}

static void init_proc(void)
{
	char buf[64];
	ssize_t k;
	pid_t g;
	char c;

	close(ready[0]);
	S->v[0] = unshare(CLONE_NEWNS) == 0 &&
		  mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
		  mount("proc", "/proc", "proc", 0, NULL) == 0;
	k = readlink("/proc/self", buf, sizeof(buf) - 1);
	buf[k > 0 ? k : 0] = 0;
	snprintf(S->text[0], sizeof(S->text[0]), "%s", buf);
	g = fork();
	if (g == 0) {
		safety(5);
		for (;;)
			pause();
	}
	S->v[1] = g;
	proc_pids(S->text[1], sizeof(S->text[1]));
	status_line("/proc/1/status", "NSpid:", S->text[2], sizeof(S->text[2]));
	status_line("/proc/2/status", "PPid:", S->text[3], sizeof(S->text[3]));
	S->v[2] = stat_ppid("/proc/1/stat");
	S->v[3] = stat_ppid("/proc/2/stat");
	kill(g, SIGKILL);
	S->v[4] = reap(g);
	proc_pids(S->text[4], sizeof(S->text[4]));
	if (write(ready[1], "x", 1) != 1)
		_exit(1);
	/* live until the driver has looked at the outer /proc */
	close(go[1]);
	S->v[5] = read(go[0], &c, 1);
}

static void proc(void)
{
	char path[64], line[64], *last;
	pid_t pid;
	char c;

	if (pipe(ready) || pipe(go))
		return;
	pid = new_ns(init_proc);
	close(ready[1]);
	close(go[0]);
	check(read(ready[0], &c, 1) == 1, "proc: the init mounted a proc of its own");
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	status_line(path, "NSpid:", line, sizeof(line));
	last = strrchr(line, '\t');
	check(!strncmp(line, "NSpid:\t", 7) && tabs(line) == 2 && !strcmp(last, "\t1"),
	      "the outer /proc: the init's NSpid has two numbers, the second 1");
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	check(stat_ppid(path) == getpid(), "the outer /proc: the init's ppid is its parent's pid");
	close(go[1]);
	check(exited(reap(pid), 0), "the init exits 0");
	close(ready[0]);
	check(S->v[0] == 1, "unshare(CLONE_NEWNS), / private, mount proc on /proc");
	check_str(S->text[0], "1", "readlink /proc/self: 1");
	check_eq(S->v[1], 2, "its child is 2");
	check_str(S->text[1], "1 2", "the numeric entries of /proc: 1 2");
	check_str(S->text[2], "NSpid:\t1", "/proc/1/status: NSpid is 1 (one level)");
	check_str(S->text[3], "PPid:\t1", "/proc/2/status: PPid is 1");
	check_eq(S->v[2], 0, "/proc/1/stat: ppid 0");
	check_eq(S->v[3], 1, "/proc/2/stat: ppid 1");
	check(S->v[4] != -1 && WIFSIGNALED(S->v[4]) && WTERMSIG(S->v[4]) == SIGKILL,
	      "the child is killed and reaped");
	check_str(S->text[4], "1", "then /proc lists 1 only");
	check_eq(S->v[5], 0, "the init reads EOF when the driver is done");
}

/* setns(CLONE_NEWPID) and NS_GET_PARENT. */
static void init_wait(void)
{
	char c;

	close(go[1]);
	S->v[0] = read(go[0], &c, 1);
}

static void setns_pid(void)
{
	unsigned long outer = ino_of("/proc/self/ns/pid"), inner;
	int outerfd = open("/proc/self/ns/pid", O_RDONLY), nsfd, pfd;
	char path[64];
	pid_t pid, x;
	int st;

	if (pipe(go))
		return;
	pid = new_ns(init_wait);
	close(go[0]);
	inner = ino_of("/proc/self/ns/pid_for_children");
	check(outerfd >= 0 && setns(outerfd, CLONE_NEWPID) == 0 &&
		      ino_of("/proc/self/ns/pid_for_children") == outer,
	      "setns: back to its own pid namespace for its children");
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)pid);
	nsfd = open(path, O_RDONLY);
	check(nsfd >= 0 && fd_ino(nsfd) == inner, "/proc/<init>/ns/pid: the namespace it unshared");
	check(setns(nsfd, CLONE_NEWPID) == 0 && ino_of("/proc/self/ns/pid_for_children") == inner &&
		      ino_of("/proc/self/ns/pid") == outer,
	      "setns(its file, CLONE_NEWPID): pid_for_children only");
	x = fork();
	if (x == 0) {
		S->v[1] = getpid();
		S->v[2] = getppid();
		S->v[3] = ino_of("/proc/self/ns/pid") == inner;
		S->v[4] = setns(outerfd, CLONE_NEWPID) == -1 ? errno : 0;
		S->v[5] = setns(nsfd, CLONE_NEWPID) == 0;
		pfd = ioctl(nsfd, NS_GET_PARENT);
		S->v[6] = pfd == -1 ? errno : 0;
		_exit(0);
	}
	st = x > 0 ? reap(x) : -1;
	check(exited(st, 0), "a child forked then: its parent reaps it");
	check_eq(S->v[1], 2, "its getpid() is 2 (after the init)");
	check_eq(S->v[2], 0, "its getppid() is 0: the parent is outside");
	check(S->v[3] == 1, "its ns/pid is the init's");
	errno = (int)S->v[4];
	check_err(S->v[4] ? -1 : 0, EINVAL, "EINVAL",
		  "its setns to the outer namespace (an ancestor)");
	check(S->v[5] == 1, "its setns to its own namespace");
	errno = (int)S->v[6];
	check_err(S->v[6] ? -1 : 0, EPERM, "EPERM", "its NS_GET_PARENT of its own namespace");
	pfd = ioctl(nsfd, NS_GET_PARENT);
	check(pfd >= 0 && fd_ino(pfd) == outer,
	      "NS_GET_PARENT of the child namespace: the outer one");
	if (pfd >= 0)
		close(pfd);
	check_err(ioctl(outerfd, NS_GET_PARENT), EPERM, "EPERM", "NS_GET_PARENT of its own");
	check_eq(ioctl(nsfd, NS_GET_NSTYPE), CLONE_NEWPID, "NS_GET_NSTYPE: CLONE_NEWPID");
	close(go[1]);
	check(exited(reap(pid), 0), "the init exits 0");
	check_eq(S->v[0], 0, "having read EOF");
	close(nsfd);
	close(outerfd);
}

int main(void)
{
	FILE *f;
	long max = -1;

	S = mmap(NULL, sizeof(*S), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (S == MAP_FAILED)
		return 1;
	in_child(basic);
	in_child(orphan);
	in_child(signals);
	in_child(zap);
	in_child(dead);
	in_child(clone_newpid);
	in_child(proc);
	in_child(setns_pid);
	f = fopen("/proc/sys/user/max_pid_namespaces", "r");
	if (f) {
		if (fscanf(f, "%ld", &max) != 1)
			max = -1;
		fclose(f);
	}
	check(max > 0, "/proc/sys/user/max_pid_namespaces is > 0");
	return 0;
}
