/* /proc/sys/user/max_TYPE_namespaces and what they promise: where one is
 * 0, a new namespace of that type is ENOSPC; else unshare makes one (skas
 * once had one user, pid, network, cgroup and time namespace and read 0
 * for those; before that their flags were EINVAL, as from a Linux built
 * without them, yet /proc/self/ns/user was there: bwrap
 * --unshare-user-try took that to mean it could make one, and failed).
 * Natively (root, the host's limits) and under skas every type is made;
 * the lines printed are the same. Then the flag
 * checks that come first: CLONE_NEWUSER with CLONE_FS or CLONE_THREAD,
 * CLONE_NEWPID with CLONE_THREAD, CLONE_NEWIPC with CLONE_SYSVSEM (before
 * a network namespace is made or refused), unshare(CLONE_NEWUSER) in a
 * process of two threads: EINVAL. (Writes are not tried: natively they need
 * CAP_SYS_RESOURCE in the user namespace that owns the files, which the
 * test machines' root lacks: open for writing is EACCES there.) */
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
#include <sys/wait.h>

#define TAP_FLUSH
#include "tap.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x80
#endif

static const struct {
	const char *name;
	int flag;
} types[] = {
	{ "cgroup", CLONE_NEWCGROUP }, { "ipc", CLONE_NEWIPC }, { "mnt", CLONE_NEWNS },
	{ "net", CLONE_NEWNET },       { "pid", CLONE_NEWPID }, { "time", CLONE_NEWTIME },
	{ "user", CLONE_NEWUSER },     { "uts", CLONE_NEWUTS },
};

/* unshare(flag) in a child: 0 or its errno. */
static int unshare_in_child(int flag)
{
	int status;
	pid_t p = fork();

	if (p == 0)
		_exit(unshare(flag) == 0 ? 0 : errno);
	if (p < 0 || waitpid(p, &status, 0) != p || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void *idle(void *arg)
{
	pause();
	return arg;
}

int main(void)
{
	char path[96], buf[32], what[160];
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		long max = -1;
		int fd, err, len = 0;

		snprintf(path, sizeof(path), "/proc/sys/user/max_%s_namespaces", types[i].name);
		fd = open(path, O_RDONLY);
		if (fd >= 0) {
			len = (int)read(fd, buf, sizeof(buf) - 1);
			buf[len > 0 ? len : 0] = 0;
			max = strtol(buf, NULL, 10);
		}
		snprintf(what, sizeof(what), "%s: a number, mode 644", path);
		check(fd >= 0 && len > 1 && buf[len - 1] == '\n' && max >= 0 &&
			      stat(path, &st) == 0 && (st.st_mode & 07777) == 0644,
		      what);
		if (fd >= 0)
			close(fd);
		err = unshare_in_child(types[i].flag);
		snprintf(what, sizeof(what),
			 "unshare of a %s namespace: ENOSPC where the limit is 0", types[i].name);
		check(max == 0 ? err == ENOSPC : err == 0, what);
		if (max == 0 ? err != ENOSPC : err != 0)
			printf("# limit %ld, errno %d\n", max, err);
	}

	check(syscall(SYS_clone, CLONE_NEWUSER | CLONE_FS | SIGCHLD, 0, 0, 0, 0) == -1 &&
		      errno == EINVAL,
	      "clone(CLONE_NEWUSER|CLONE_FS): EINVAL");
	check(syscall(SYS_clone, CLONE_NEWUSER | CLONE_THREAD | CLONE_SIGHAND | CLONE_VM, 0, 0, 0,
		      0) == -1 &&
		      errno == EINVAL,
	      "clone(CLONE_NEWUSER|CLONE_THREAD): EINVAL");
	check(syscall(SYS_clone, CLONE_NEWPID | CLONE_THREAD | CLONE_SIGHAND | CLONE_VM, 0, 0, 0,
		      0) == -1 &&
		      errno == EINVAL,
	      "clone(CLONE_NEWPID|CLONE_THREAD): EINVAL");
	/* copy_namespaces: the SEM_UNDO list before any namespace is made */
	check(syscall(SYS_clone, CLONE_NEWNET | CLONE_NEWIPC | CLONE_SYSVSEM | SIGCHLD, 0, 0, 0,
		      0) == -1 &&
		      errno == EINVAL,
	      "clone(CLONE_NEWNET|CLONE_NEWIPC|CLONE_SYSVSEM): EINVAL");
	{
		pthread_t th;

		check(pthread_create(&th, NULL, idle, NULL) == 0 && unshare(CLONE_NEWUSER) == -1 &&
			      errno == EINVAL,
		      "unshare(CLONE_NEWUSER) with two threads: EINVAL");
	}
	return 0;
}
