/* Cgroup namespaces: unshare(CLONE_NEWCGROUP) gives the caller a namespace
 * of its own (another /proc/self/ns/cgroup inode) whose root is its own
 * cgroup, so /proc/self/cgroup's unified line reads "0::/" there; a
 * child forked then is in it too; setns(fd, CLONE_NEWCGROUP) with the old
 * namespace's file goes back (the same inode again), and with the file of
 * another type is EINVAL; without CAP_SYS_ADMIN the unshare is EPERM. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ENAME
#include "tap.h"

#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif
#ifndef CLONE_NEWUTS
#define CLONE_NEWUTS 0x04000000
#endif

static ino_t ns_ino(void)
{
	struct stat st;

	return stat("/proc/self/ns/cgroup", &st) == 0 ? st.st_ino : 0;
}

/* The path of /proc/self/cgroup's cgroup v2 line ("0::PATH"), or "". */
static void unified(char *out, size_t size)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	char line[512];

	snprintf(out, size, "%s", "");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "0::", 3) == 0) {
			line[strcspn(line, "\n")] = 0;
			snprintf(out, size, "%s", line + 3);
		}
	fclose(f);
}

int main(void)
{
	char path[512];
	ino_t first = ns_ino(), second;
	int old = open("/proc/self/ns/cgroup", O_RDONLY), uts = open("/proc/self/ns/uts", O_RDONLY);
	pid_t pid;
	int st;

	check(first != 0 && old >= 0 && uts >= 0, "/proc/self/ns/cgroup and ns/uts open");
	check(unshare(CLONE_NEWCGROUP) == 0, "unshare(CLONE_NEWCGROUP)");
	second = ns_ino();
	check(second != 0 && second != first, "/proc/self/ns/cgroup: another namespace");
	unified(path, sizeof(path));
	check(strcmp(path, "/") == 0, "/proc/self/cgroup: 0::/ from the new namespace's root");
	pid = fork();
	if (pid == 0)
		_exit(ns_ino() == second ? 0 : 1);
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a child forked now is in it");
	check_err(setns(uts, CLONE_NEWCGROUP), EINVAL, "setns(the uts file, CLONE_NEWCGROUP)");
	check(setns(old, CLONE_NEWCGROUP) == 0 && ns_ino() == first,
	      "setns(the old file, CLONE_NEWCGROUP): back");
	pid = fork();
	if (pid == 0) {
		if (setuid(65534) != 0)
			_exit(2);
		_exit(unshare(CLONE_NEWCGROUP) == -1 && errno == EPERM ? 0 : 1);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "unprivileged: EPERM");
	return 0;
}
