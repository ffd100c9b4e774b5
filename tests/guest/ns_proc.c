/* /proc/PID/ns and namespace files: the ten links and their names
 * ("uts:[N]"), what opening one gives (fstat: S_IFREG 0444, st_ino the
 * number the link names; fstatfs: nsfs), the NS_GET_* ioctls for the
 * initial namespaces, a child and a thread sharing their parent's, the
 * link's permission (ptrace's read check: EACCES for another user's
 * process) and a zombie's (gone); the file is immutable and has no read
 * and no xattrs. Numbers are compared, never printed:
 * natively they are the host's. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#define NS_GET_USERNS	 0xb701
#define NS_GET_PARENT	 0xb702
#define NS_GET_NSTYPE	 0xb703
#define NS_GET_OWNER_UID 0xb704
#define NSFS_MAGIC	 0x6e736673
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x80
#endif

#include "ns_util.h"

static const struct {
	const char *name, *type;
	int flag;
} nss[] = {
	{ "cgroup", "cgroup", CLONE_NEWCGROUP }, { "ipc", "ipc", CLONE_NEWIPC },
	{ "mnt", "mnt", CLONE_NEWNS },		 { "net", "net", CLONE_NEWNET },
	{ "pid", "pid", CLONE_NEWPID },		 { "pid_for_children", "pid", CLONE_NEWPID },
	{ "time", "time", CLONE_NEWTIME },	 { "time_for_children", "time", CLONE_NEWTIME },
	{ "user", "user", CLONE_NEWUSER },	 { "uts", "uts", CLONE_NEWUTS },
};
#define NNS (int)(sizeof(nss) / sizeof(nss[0]))

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The number readlink gives for /proc/<who>/ns/<name>, 0 if it is not
 * "type:[N]". */
static unsigned long link_ino(const char *who, int i)
{
	char path[128], buf[64], want[32];
	unsigned long ino;
	ssize_t k;

	snprintf(path, sizeof(path), "/proc/%s/ns/%s", who, nss[i].name);
	k = readlink(path, buf, sizeof(buf) - 1);
	if (k <= 0)
		return 0;
	buf[k] = 0;
	snprintf(want, sizeof(want), "%s:[", nss[i].type);
	if (strncmp(buf, want, strlen(want)) || buf[k - 1] != ']')
		return 0;
	ino = strtoul(buf + strlen(want), NULL, 10);
	return ino;
}

static unsigned long stat_ino(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (unsigned long)st.st_ino : 0;
}

static void listing(void)
{
	DIR *d = opendir("/proc/self/ns");
	char *names[32];
	struct dirent *e;
	int k = 0, i, same = 1;
	struct stat st;

	check(d != NULL, "opendir /proc/self/ns");
	while (d && (e = readdir(d)) && k < 32)
		if (e->d_name[0] != '.')
			names[k++] = strdup(e->d_name);
	if (d)
		closedir(d);
	qsort(names, (size_t)k, sizeof(names[0]), cmp);
	for (i = 0; i < k && i < NNS; i++)
		same &= !strcmp(names[i], nss[i].name);
	check(k == NNS && same, "it lists the ten namespaces");
	for (i = 0; i < k; i++)
		free(names[i]);
	check(stat("/proc/self/ns", &st) == 0 && (st.st_mode & 07777) == 0511,
	      "the directory is dr-x--x--x");
}

static void links(void)
{
	unsigned long ino[NNS];
	int i, j, fmt = 1, same = 1, lnk = 1, distinct = 1;

	for (i = 0; i < NNS; i++) {
		char path[64];
		struct stat st;

		ino[i] = link_ino("self", i);
		fmt &= ino[i] != 0;
		snprintf(path, sizeof(path), "/proc/self/ns/%s", nss[i].name);
		same &= stat_ino(path) == ino[i];
		lnk &= lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && (st.st_mode & 0777) == 0777;
	}
	check(fmt, "readlink gives type:[N] for each");
	check(same, "stat through each gives st_ino N");
	check(lnk, "each is a symlink, lrwxrwxrwx");
	check(ino[4] == ino[5], "pid_for_children is pid's");
	check(ino[6] == ino[7], "time_for_children is time's");
	for (i = 0; i < NNS; i++)
		for (j = i + 1; j < NNS; j++)
			if (strcmp(nss[i].type, nss[j].type) && ino[i] == ino[j])
				distinct = 0;
	check(distinct, "the types have distinct numbers");
}

static void files(void)
{
	char path[64], a[64], b[64];
	int i, types = 1, mode = 1, fd;
	struct statfs sf;
	struct stat st;
	ssize_t k1, k2;
	char c;

	for (i = 0; i < NNS; i++) {
		snprintf(path, sizeof(path), "/proc/self/ns/%s", nss[i].name);
		fd = open(path, O_RDONLY);
		types &= fd >= 0 && ioctl(fd, NS_GET_NSTYPE) == nss[i].flag;
		mode &= fd >= 0 && fstat(fd, &st) == 0 && st.st_mode == (S_IFREG | 0444) &&
			st.st_nlink == 1 && st.st_size == 0 && st.st_uid == 0 &&
			st.st_ino == link_ino("self", i);
		if (fd >= 0)
			close(fd);
	}
	check(types, "NS_GET_NSTYPE gives each its CLONE_NEW* flag");
	check(mode, "fstat: a regular file, 0444, one link, empty, root's, st_ino N");

	fd = open("/proc/self/ns/uts", O_RDONLY);
	check(fd >= 0 && fstatfs(fd, &sf) == 0 && sf.f_type == NSFS_MAGIC, "fstatfs: nsfs");
	check_err(read(fd, &c, 1), EINVAL, "EINVAL", "read");
	check_err(write(fd, "x", 1), EBADF, "EBADF", "write (opened read-only)");
	check_err(ioctl(fd, NS_GET_PARENT), EINVAL, "EINVAL", "NS_GET_PARENT of uts");
	check_err(ioctl(fd, NS_GET_OWNER_UID, &i), EINVAL, "EINVAL", "NS_GET_OWNER_UID of uts");
	check_err(ioctl(fd, 0x5401 /* TCGETS */), ENOTTY, "ENOTTY", "another ioctl");
	check_err(pread(fd, &c, 1, 0), EINVAL, "EINVAL", "pread");
	check_err(lseek(fd, 0, SEEK_SET), ESPIPE, "ESPIPE", "lseek");
	check_err(fchdir(fd), ENOTDIR, "ENOTDIR", "fchdir");
	/* Linux's namespace inodes are immutable */
	check_err(open("/proc/self/ns/uts", O_RDWR), EPERM, "EPERM", "open O_RDWR as root");
	check_err(open("/proc/self/ns/uts", O_WRONLY), EPERM, "EPERM", "open O_WRONLY as root");
	check_err(open("/proc/self/ns/uts", O_RDONLY | O_TRUNC), EPERM, "EPERM", "open O_TRUNC");
	check_err(fchmod(fd, 0644), EPERM, "EPERM", "fchmod");
	/* nsfs has no xattrs at all (no IOP_XATTR): EOPNOTSUPP, not ENODATA;
	 * a list is empty; a set is EPERM (immutable) */
	check_err(fgetxattr(fd, "user.x", &c, 1), EOPNOTSUPP, "EOPNOTSUPP", "fgetxattr");
	check_err(fgetxattr(fd, "security.selinux", &c, 1), EOPNOTSUPP, "EOPNOTSUPP",
		  "fgetxattr security.*");
	check_err(getxattr("/proc/self/ns/uts", "user.x", &c, 1), EOPNOTSUPP, "EOPNOTSUPP",
		  "getxattr");
	check(flistxattr(fd, a, sizeof(a)) == 0, "flistxattr: none");
	check(listxattr("/proc/self/ns/uts", a, sizeof(a)) == 0, "listxattr: none");
	check_err(fsetxattr(fd, "user.x", "v", 1, 0), EPERM, "EPERM", "fsetxattr");
	check_err(fremovexattr(fd, "user.x"), EPERM, "EPERM", "fremovexattr");
	check_err(stat("/proc/self/ns/uts/", &st), ENOTDIR, "ENOTDIR", "the link with a slash");
	check_err(stat("/proc/self/exe/", &st), ENOTDIR, "ENOTDIR", "/proc/self/exe/ too");
	check_err(openat(fd, "..", O_RDONLY), ENOTDIR, "ENOTDIR", "openat(nsfd, \"..\")");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	k1 = readlink(path, a, sizeof(a));
	k2 = readlink("/proc/self/ns/uts", b, sizeof(b));
	check(k1 > 0 && k1 == k2 && !memcmp(a, b, (size_t)k1), "/proc/self/fd/N names it so too");
	i = ioctl(fd, NS_GET_USERNS);
	check(i >= 0 && fstat(i, &st) == 0 && st.st_ino == stat_ino("/proc/self/ns/user") &&
		      fcntl(i, F_GETFD) == FD_CLOEXEC,
	      "NS_GET_USERNS: an O_CLOEXEC fd of our user namespace");
	check(i >= 0 && ioctl(i, NS_GET_NSTYPE) == CLONE_NEWUSER, "which is a user namespace");
	check_err(ioctl(i, NS_GET_USERNS), EPERM, "EPERM", "NS_GET_USERNS of the user namespace");
	check_err(ioctl(i, NS_GET_PARENT), EPERM, "EPERM", "NS_GET_PARENT of the user namespace");
	{
		unsigned uid = 12345;

		check(ioctl(i, NS_GET_OWNER_UID, &uid) == 0 && uid == 0,
		      "NS_GET_OWNER_UID of the user namespace: 0");
		check_err(ioctl(i, NS_GET_OWNER_UID, (void *)8), EFAULT, "EFAULT",
			  "NS_GET_OWNER_UID to a bad pointer");
	}
	close(i);
	close(fd);
	fd = open("/proc/self/ns/pid", O_RDONLY);
	check_err(ioctl(fd, NS_GET_PARENT), EPERM, "EPERM", "NS_GET_PARENT of the pid namespace");
	close(fd);
	fd = open("/proc/self/ns/net", O_RDONLY);
	check(fd >= 0 && ioctl(fd, NS_GET_NSTYPE) == CLONE_NEWNET, "a net namespace file");
	close(fd);
}

static unsigned long thread_ino;

static void *thread_fn(void *arg)
{
	char path[64];

	(void)arg;
	snprintf(path, sizeof(path), "/proc/self/task/%ld/ns/uts", (long)syscall(SYS_gettid));
	thread_ino = stat_ino(path);
	return NULL;
}

static void sharing(void)
{
	int p[2], st, i, same = 1;
	char who[32], c;
	pthread_t th;
	pid_t pid;

	check(pipe(p) == 0, "pipe");
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		read(p[0], &c, 1);
		_exit(0);
	}
	close(p[0]);
	snprintf(who, sizeof(who), "%d", pid);
	for (i = 0; i < NNS; i++)
		same &= link_ino(who, i) == link_ino("self", i) && link_ino(who, i);
	check(same, "a child has its parent's namespaces");
	close(p[1]);
	waitpid(pid, &st, 0);

	pthread_create(&th, NULL, thread_fn, NULL);
	pthread_join(th, NULL);
	check(thread_ino && thread_ino == stat_ino("/proc/self/ns/uts"),
	      "a thread has its process's");

	/* a zombie's are gone */
	pid = fork();
	if (pid == 0)
		_exit(0);
	check(waitid(P_PID, (id_t)pid, NULL, WEXITED | WNOWAIT) == 0, "a child exits");
	snprintf(who, sizeof(who), "/proc/%d/ns/uts", pid);
	{
		char buf[64];

		check_err(readlink(who, buf, sizeof(buf)), ENOENT, "ENOENT", "a zombie's readlink");
		check_err(open(who, O_RDONLY), ENOENT, "ENOENT", "a zombie's open");
	}
	waitpid(pid, &st, 0);
}

/* Another user's process: EACCES (ptrace_may_access, read mode). */
static void permission(void)
{
	pid_t parent = getpid(), pid = fork();
	int st;

	if (pid == 0) {
		char path[64], buf[64];

		if (setgid(65534) || setuid(65534))
			_exit(1);
		snprintf(path, sizeof(path), "/proc/%d/ns/uts", parent);
		check_err(readlink(path, buf, sizeof(buf)), EACCES, "EACCES",
			  "readlink of root's process's link as nobody");
		check_err(open(path, O_RDONLY), EACCES, "EACCES", "open of it");
		check(readlink("/proc/self/ns/uts", buf, sizeof(buf)) > 0, "our own: readable");
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	n += 3;
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the nobody child ran");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	listing();
	links();
	files();
	sharing();
	permission();
	return 0;
}
