/* UTS namespaces and setns: a child's unshare(CLONE_NEWUTS) or
 * clone(CLONE_NEWUTS) gives it a copy of the names that it may change
 * while its parent keeps its own (uname, /proc/sys/kernel/hostname and
 * the ns link follow); its children share it; a thread's unshare leaves
 * its process's other threads alone; setns with the namespace file or a
 * pidfd enters it, also after its last process is gone (the file keeps
 * it); EPERM without CAP_SYS_ADMIN; EINVAL for a mismatched type, the
 * caller's own user namespace, a pidfd with no flags; EUSERS for a time
 * namespace with two threads. The host's names never change: only
 * children that unshared first set one. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "caps.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x80
#endif

#include "ns_util.h"

static unsigned long ns_ino(const char *who, const char *type)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%s/ns/%s", who, type);
	return stat(path, &st) == 0 ? (unsigned long)st.st_ino : 0;
}

static int nodename_is(const char *want)
{
	struct utsname u;

	return uname(&u) == 0 && strcmp(u.nodename, want) == 0;
}

static char host_name[65];
static unsigned long host_uts;

static void child_unshare(void)
{
	char buf[80];
	int fd, k, p[2], st;
	pid_t pid;

	check(unshare(CLONE_NEWUTS) == 0, "unshare(CLONE_NEWUTS)");
	check(ns_ino("self", "uts") && ns_ino("self", "uts") != host_uts,
	      "a new namespace: another number");
	check(nodename_is(host_name), "with the names it had");
	check(sethostname("ns-child", 8) == 0 && nodename_is("ns-child"), "sethostname in it");
	fd = open("/proc/sys/kernel/hostname", O_RDONLY);
	k = fd >= 0 ? (int)read(fd, buf, sizeof(buf)) : -1;
	check(k == 9 && !memcmp(buf, "ns-child\n", 9), "/proc/sys/kernel/hostname has it");
	close(fd);
	check(setdomainname("ns-dom", 6) == 0, "setdomainname in it");
	pipe(p);
	pid = fork();
	if (pid == 0) {
		struct utsname u;

		uname(&u);
		_exit(ns_ino("self", "uts") == ns_ino("..", "uts") ? 1 : 0);
	}
	waitpid(pid, &st, 0);
	pid = fork();
	if (pid == 0)
		_exit(nodename_is("ns-child") && ns_ino("self", "uts") != host_uts ? 0 : 1);
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "its child shares the namespace");
}

static int clone_fn(void *arg)
{
	(void)arg;
	if (sethostname("ns-clone", 8) != 0)
		return 1;
	return nodename_is("ns-clone") && ns_ino("self", "uts") != host_uts ? 0 : 2;
}

static char stack[65536] __attribute__((aligned(16)));

static void *thread_unshare(void *arg)
{
	(void)arg;
	if (unshare(CLONE_NEWUTS) == 0 && sethostname("ns-thread", 9) == 0 &&
	    nodename_is("ns-thread"))
		return (void *)1;
	return NULL;
}

static void thread_child(void)
{
	pthread_t th;
	void *r = NULL;

	pthread_create(&th, NULL, thread_unshare, NULL);
	pthread_join(th, &r);
	check(r == (void *)1, "a thread's unshare(CLONE_NEWUTS) and sethostname");
	check(nodename_is(host_name), "the other thread keeps the process's names");
}

/* Holds a UTS namespace named name until its stdin closes. */
static pid_t holder(const char *name, int *wr)
{
	int p[2], q[2];
	pid_t pid;
	char c;

	pipe(p);
	pipe(q);
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		close(q[0]);
		if (unshare(CLONE_NEWUTS) || sethostname(name, strlen(name)))
			_exit(1);
		write(q[1], "x", 1);
		read(p[0], &c, 1);
		_exit(0);
	}
	close(p[0]);
	close(q[1]);
	read(q[0], &c, 1);
	close(q[0]);
	*wr = p[1];
	return pid;
}

static int ns_fd, pid_fd;

static void setns_child(void)
{
	struct utsname u;

	check_err(setns(ns_fd, CLONE_NEWNS), EINVAL, "EINVAL", "setns(uts file, CLONE_NEWNS)");
	check_err(setns(ns_fd, CLONE_NEWNET), EINVAL, "EINVAL", "setns(uts file, CLONE_NEWNET)");
	check(setns(ns_fd, CLONE_NEWUTS) == 0 && nodename_is("ns-held"),
	      "setns(uts file, CLONE_NEWUTS): its names");
	check(uname(&u) == 0 && !strcmp(u.domainname, "(none)"), "its domain name");
	check(sethostname("ns-held2", 8) == 0, "sethostname there");
}

static void setns_zero_child(void)
{
	check(setns(ns_fd, 0) == 0 && nodename_is("ns-held2"),
	      "setns(uts file, 0) from another process: the name set there");
}

static void setns_pidfd_child(void)
{
	check_err(setns(pid_fd, 0), EINVAL, "EINVAL", "setns(pidfd, 0)");
	check_err(setns(pid_fd, 1 << 1), EINVAL, "EINVAL", "setns(pidfd, not a CLONE_NEW* flag)");
	check_err(setns(pid_fd, CLONE_NEWUSER), EINVAL, "EINVAL",
		  "setns(pidfd, CLONE_NEWUSER): our own user namespace");
	check(nodename_is(host_name), "nothing entered");
	check(setns(pid_fd, CLONE_NEWUTS) == 0 && nodename_is("ns-pidfd"),
	      "setns(pidfd, CLONE_NEWUTS)");
	check(setns(pid_fd, CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET) == 0,
	      "setns(pidfd, UTS|IPC|NET) (the same IPC and network)");
}

static void *idle(void *arg)
{
	pause();
	return arg;
}

static void others_child(void)
{
	static const char *const own[] = { "ipc", "net", "pid", "cgroup" };
	char path[64];
	pthread_t th;
	size_t i;
	int fd;

	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		snprintf(path, sizeof(path), "/proc/self/ns/%s", own[i]);
		fd = open(path, O_RDONLY);
		snprintf(path, sizeof(path), "setns to our own %s namespace", own[i]);
		check(fd >= 0 && setns(fd, 0) == 0, path);
		close(fd);
	}
	fd = open("/proc/self/ns/user", O_RDONLY);
	check_err(setns(fd, 0), EINVAL, "EINVAL", "setns to our own user namespace");
	close(fd);
	fd = open("/proc/self/ns/time", O_RDONLY);
	pthread_create(&th, NULL, idle, NULL);
	check_err(setns(fd, 0), EUSERS, "EUSERS", "setns to a time namespace, two threads");
	close(fd);
	fd = open("/proc/self/ns/uts", O_RDONLY);
	check(caps_drop(CAP_SYS_ADMIN) == 0, "drop CAP_SYS_ADMIN");
	check_err(setns(fd, 0), EPERM, "EPERM", "setns(uts) without CAP_SYS_ADMIN");
	check_err(syscall(SYS_clone, CLONE_NEWUTS | SIGCHLD, 0, 0, 0, 0), EPERM, "EPERM",
		  "clone(CLONE_NEWUTS) without it");
	{
		/* clone3's first version: flags, pidfd, child_tid, parent_tid,
		 * exit_signal, stack, stack_size, tls */
		unsigned long long args[8] = { CLONE_NEWTIME, 0, 0, 0, SIGCHLD, 0, 0, 0 };

		check_err(syscall(435 /* clone3 */, args, sizeof(args)), EPERM, "EPERM",
			  "clone3(CLONE_NEWTIME) without it");
	}
}

int main(void)
{
	struct utsname u;
	pid_t pid;
	int wr, st;

	setvbuf(stdout, NULL, _IOLBF, 0);
	uname(&u);
	strcpy(host_name, u.nodename);
	host_uts = ns_ino("self", "uts");

	in_child(child_unshare);
	check(nodename_is(host_name) && ns_ino("self", "uts") == host_uts,
	      "the parent keeps its names and namespace");

	pid = clone(clone_fn, stack + sizeof(stack), CLONE_NEWUTS | SIGCHLD, NULL);
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "clone(CLONE_NEWUTS): a child with its own names");
	check(nodename_is(host_name), "still ours");

	in_child(thread_child);

	/* a namespace file keeps its namespace after its last process */
	pid = holder("ns-held", &wr);
	{
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/ns/uts", pid);
		ns_fd = open(path, O_RDONLY);
	}
	check(ns_fd >= 0, "open another process's ns/uts");
	close(wr);
	waitpid(pid, &st, 0);
	in_child(setns_child);
	in_child(setns_zero_child);
	check(nodename_is(host_name), "our names are unchanged");
	close(ns_fd);

	pid = holder("ns-pidfd", &wr);
	pid_fd = (int)syscall(SYS_pidfd_open, pid, 0);
	check(pid_fd >= 0, "pidfd_open of a process in another UTS namespace");
	in_child(setns_pidfd_child);
	close(wr);
	waitpid(pid, &st, 0);
	check_err(setns(pid_fd, CLONE_NEWUTS), ESRCH, "ESRCH", "setns(pidfd of a reaped process)");
	close(pid_fd);

	in_child(others_child);
	check(nodename_is(host_name), "our names are still unchanged");
	return 0;
}
