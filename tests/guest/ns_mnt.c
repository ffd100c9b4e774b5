/* Mount namespaces: unshare(CLONE_NEWNS) gives a private copy of the
 * mount tree (the cwd moves to its copy); mounts and unmounts in one are
 * not seen in the other, nor in /proc/PID/mounts of the other; an open
 * file keeps its mount after a lazy unmount; a namespace file keeps its
 * namespace after its last process, and setns into it makes its root the
 * root and cwd (EINVAL while the fs info is shared); clone with
 * CLONE_NEWNS|CLONE_FS is EINVAL. Natively every mount is made in a child
 * that unshared first, so the host's mounts never change. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "ns_util.h"
static char top[64];
static unsigned long host_mnt;

static const char *P(const char *rel)
{
	static char buf[4][128];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", top, rel);
	return buf[k];
}

static unsigned long mnt_ino(const char *who)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%s/ns/mnt", who);
	return stat(path, &st) == 0 ? (unsigned long)st.st_ino : 0;
}

/* Does /proc/<who>/mounts list a mount on dir? */
static int mounted(const char *who, const char *dir)
{
	char path[64], line[512], d[256];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/mounts", who);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %255s", d) == 1 && strcmp(d, dir) == 0)
			found = 1;
	if (f)
		fclose(f);
	return found;
}

static int exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* Runs fn in a child (its checks count as ours). */

static int to_b[2], to_a[2], ns_fd;

/* B: a namespace copied from A's. */
static void child_b(void)
{
	char cwd[128], c = 0;
	int fd;

	check(chdir(P("a")) == 0, "B: chdir into A's tmpfs");
	check(unshare(CLONE_NEWNS) == 0, "B: unshare(CLONE_NEWNS)");
	check(mnt_ino("self") != mnt_ino(".."), "B: a namespace other than A's");
	check(getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, P("a")), "B: the same cwd");
	check(exists("inA"), "B: the cwd is on the copy of A's tmpfs");
	check(mounted("self", P("a")), "B: its mounts list A's tmpfs");
	fd = open(P("a/inA"), O_RDONLY);
	check(fd >= 0, "B: open a file on it");
	check(chdir("/") == 0, "B: chdir /");
	check_err(umount(P("a")), EBUSY, "EBUSY", "B: umount with the file open");
	check(umount2(P("a"), MNT_DETACH) == 0, "B: umount2 MNT_DETACH");
	check(fd >= 0 && read(fd, &c, 1) == 1 && c == 'A', "B: the open file still reads");
	close(fd);
	check(!exists(P("a/inA")) && exists(P("a/under")), "B: the directory below shows again");
	check(!mounted("self", P("a")), "B: its mounts no longer list it");
	check(mount("x", P("b"), "tmpfs", 0, NULL) == 0, "B: mount a tmpfs on b");
	fd = open(P("b/inB"), O_CREAT | O_WRONLY, 0644);
	check(fd >= 0 && write(fd, "B", 1) == 1, "B: a file on it");
	close(fd);
	check(chdir(P("b")) == 0, "B: chdir into it");
	fflush(stdout);
	write(to_a[1], "x", 1);
	read(to_b[0], &c, 1);
}

static void child_c(void)
{
	char cwd[128];

	check(chdir(P("a")) == 0, "C: chdir somewhere");
	check(setns(ns_fd, CLONE_NEWNS) == 0, "C: setns into B's namespace (B has gone)");
	check(getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, "/"), "C: the cwd is its root");
	check(exists(P("b/inB")) && !exists(P("a/inA")), "C: B's mounts");
	check(mounted("self", P("b")) && !mounted("self", P("a")), "C: its mounts file");
}

static int shared_fs_child(void *arg)
{
	(void)arg;
	return setns(ns_fd, CLONE_NEWNS) == -1 && errno == EINVAL ? 0 : 1;
}

static char stack[65536] __attribute__((aligned(16)));

static void child_a(void)
{
	char who[32], c;
	pid_t b;
	int st, fd;

	check(unshare(CLONE_NEWNS) == 0, "A: unshare(CLONE_NEWNS)");
	check(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0,
	      "A: make every mount private (unshare(1)'s default)");
	check(mnt_ino("self") && mnt_ino("self") != host_mnt, "A: a namespace of its own");
	check(mount("x", P("a"), "tmpfs", 0, NULL) == 0, "A: mount a tmpfs on a");
	fd = open(P("a/inA"), O_CREAT | O_WRONLY, 0644);
	check(fd >= 0 && write(fd, "A", 1) == 1, "A: a file on it");
	close(fd);
	check(mounted("self", P("a")), "A: its mounts list it");

	pipe(to_b);
	pipe(to_a);
	fflush(stdout);
	b = fork();
	if (b == 0) {
		int before = n;

		child_b();
		fflush(stdout);
		_exit(n - before);
	}
	read(to_a[0], &c, 1);
	snprintf(who, sizeof(who), "%d", b);
	check(exists(P("a/inA")), "A: B's unmount is not seen");
	check(!exists(P("b/inB")), "A: nor B's mount");
	check(mounted("self", P("a")) && !mounted("self", P("b")), "A: its own mounts file");
	check(mounted(who, P("b")) && !mounted(who, P("a")), "A: B's mounts file shows B's");
	snprintf(who, sizeof(who), "/proc/%d/ns/mnt", b);
	ns_fd = open(who, O_RDONLY);
	check(ns_fd >= 0, "A: open B's ns/mnt");
	write(to_b[1], "x", 1);
	waitpid(b, &st, 0);
	n += WIFEXITED(st) ? WEXITSTATUS(st) : 0;

	in_child(child_c);
	check(clone(shared_fs_child, stack + sizeof(stack), CLONE_FS | SIGCHLD, NULL) > 0 &&
		      wait(&st) > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "A: setns(mnt) in a child sharing its fs info: EINVAL");
	check_err(syscall(SYS_clone, CLONE_NEWNS | CLONE_FS | SIGCHLD, 0, 0, 0, 0), EINVAL,
		  "EINVAL", "A: clone(CLONE_NEWNS|CLONE_FS)");
	check(exists(P("a/inA")), "A: still its own mounts");
	close(ns_fd);
}

static int clone_ns_child(void *arg)
{
	(void)arg;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return 1;
	if (mount("x", P("a"), "tmpfs", 0, NULL) != 0)
		return 2;
	return mnt_ino("self") != host_mnt && mounted("self", P("a")) ? 0 : 3;
}

int main(void)
{
	int fd, st;

	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(top, sizeof(top), "/tmp/ns_mnt.XXXXXX");
	if (!mkdtemp(top) || mkdir(P("a"), 0755) || mkdir(P("b"), 0755))
		return 1;
	fd = open(P("a/under"), O_CREAT | O_WRONLY, 0644);
	close(fd);
	host_mnt = mnt_ino("self");

	in_child(child_a);
	check(!exists(P("a/inA")) && !exists(P("b/inB")), "nothing of it in our namespace");
	check(!mounted("self", P("a")) && mnt_ino("self") == host_mnt, "our mounts unchanged");

	check(clone(clone_ns_child, stack + sizeof(stack), CLONE_NEWNS | SIGCHLD, NULL) > 0 &&
		      wait(&st) > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "clone(CLONE_NEWNS): a child that mounts in its own namespace");
	check(!mounted("self", P("a")), "not in ours");

	unlink(P("a/under"));
	rmdir(P("a"));
	rmdir(P("b"));
	check(rmdir(top) == 0, "cleaned up");
	return 0;
}
