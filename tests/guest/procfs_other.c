/* /proc/PID of other processes: what a uid-1000 process may see of a root
 * process (fd/, fdinfo/, environ, maps, cwd need ptrace access: EACCES;
 * stat, status, cmdline do not), of a root process that became uid 1000
 * (no longer dumpable: still EACCES, until PR_SET_DUMPABLE 1), and of a
 * zombie (mounts: EINVAL). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tap.h"

static const char *pp(int pid, const char *f)
{
	static char path[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, f);
	return path;
}

/* open and read: 0 if it gives bytes, else -errno (-1000: empty). */
static int rd(const char *path)
{
	char buf[512];
	int fd = open(path, O_RDONLY), e;
	ssize_t r;

	if (fd < 0)
		return -errno;
	r = read(fd, buf, sizeof(buf));
	e = errno;
	close(fd);
	return r > 0 ? 0 : r == 0 ? -1000 : -e;
}

static int od(const char *path)
{
	DIR *d = opendir(path);

	if (!d)
		return -errno;
	closedir(d);
	return 0;
}

static void as_user(int root_pid)
{
	if (setresgid(1000, 1000, 1000) < 0 || setresuid(1000, 1000, 1000) < 0) {
		check(0, "setresuid");
		return;
	}
	check(rd(pp(root_pid, "stat")) == 0, "uid 1000 reads a root process's stat");
	check(rd(pp(root_pid, "cmdline")) == 0, "and cmdline");
	check(rd(pp(root_pid, "environ")) == -EACCES, "not environ (EACCES)");
	check(rd(pp(root_pid, "maps")) == -EACCES, "not maps (EACCES)");
	check(od(pp(root_pid, "fd")) == -EACCES, "not fd/ (EACCES)");
	check(od(pp(root_pid, "fdinfo")) == -EACCES, "not fdinfo/ (EACCES)");
	check(rd(pp(root_pid, "fdinfo/0")) == -EACCES, "not fdinfo/0 (EACCES)");
	check(rd(pp(getpid(), "fdinfo/0")) == 0, "its own fdinfo/0");
	check(od(pp(getpid(), "fdinfo")) == 0, "its own fdinfo/");
}

/* The state letter of /proc/PID/<f> (stat: after the comm; status: its
 * State line), or '?'. */
static char state(int pid, const char *f)
{
	char path[64], buf[1024], *q;
	int fd;
	ssize_t r;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, f);
	fd = open(path, O_RDONLY);
	r = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (r <= 0)
		return '?';
	buf[r] = 0;
	if (strcmp(f, "status") == 0)
		return (q = strstr(buf, "State:\t")) ? q[7] : '?';
	return (q = strrchr(buf, ')')) ? q[2] : '?';
}

/* Field n (1-based) of /proc/PID/stat as a number, n == 2 its comm
 * compared with "zomb" (0 if equal); n == 0: 0 if the file f holds want,
 * else -1. */
static long field(int pid, const char *f, int n, const char *want)
{
	char buf[1024], *q;
	int fd = open(pp(pid, f), O_RDONLY), i;
	ssize_t r = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (r <= 0)
		return -1;
	buf[r] = 0;
	if (n == 0)
		return strstr(buf, want) ? 0 : -1;
	if (n == 2)
		return strncmp(strchr(buf, '(') ? strchr(buf, '(') : buf, "(zomb) ", 7) ? -1 : 0;
	q = strrchr(buf, ')');
	for (i = 2; q && i < n; i++)
		q = strchr(q + 1, ' ');
	return q ? strtol(q + 1, NULL, 10) : -1;
}

/* The number of entries of /proc/PID/<f> but . and .., or -errno. */
static int entries(int pid, const char *f)
{
	struct dirent *de;
	DIR *d = opendir(pp(pid, f));
	int n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
	closedir(d);
	return n;
}

/* readlink of /proc/PID/<f>: 0 if it names something, else -errno. */
static int lnk(int pid, const char *f)
{
	char buf[256];

	return readlink(pp(pid, f), buf, sizeof(buf)) > 0 ? 0 : -errno;
}

/* What Linux shows of a process whose leader has exited (a zombie, or
 * a zombie leader whose threads run on): the leader's mm, files, fs and
 * namespaces went with it; its pid and user namespaces, credentials and
 * audit ids stay. */
static void leader_gone(int pid, const char *what)
{
	char m[128];

#define GONE(cond, text) (snprintf(m, sizeof(m), "%s: %s", what, text), check(cond, m))
	GONE(rd(pp(pid, "environ")) == -ESRCH, "environ's open: ESRCH");
	GONE(rd(pp(pid, "auxv")) == -ESRCH, "auxv's open: ESRCH");
	GONE(rd(pp(pid, "smaps_rollup")) == -ESRCH, "smaps_rollup's open: ESRCH");
	GONE(rd(pp(pid, "smaps")) == -1000, "smaps: empty");
	GONE(lnk(pid, "cwd") == -ENOENT, "cwd: ENOENT");
	GONE(lnk(pid, "root") == -ENOENT, "root: ENOENT");
	GONE(lnk(pid, "exe") == -ENOENT, "exe: ENOENT");
	GONE(entries(pid, "fd") == 0, "fd/ is empty");
	GONE(entries(pid, "fdinfo") == 0, "fdinfo/ is empty");
	GONE(lnk(pid, "ns/pid") == 0, "ns/pid names its namespace");
	GONE(lnk(pid, "ns/user") == 0, "ns/user names its namespace");
	GONE(lnk(pid, "ns/net") == -ENOENT, "ns/net: ENOENT");
	GONE(lnk(pid, "ns/mnt") == -ENOENT, "ns/mnt: ENOENT");
	GONE(rd(pp(pid, "loginuid")) == 0, "loginuid reads");
	GONE(rd(pp(pid, "sessionid")) == 0, "sessionid reads");
#undef GONE
}

static int hold[2];

/* Waits for the parent's close; then, its leader gone, renames the
 * process by /proc/self/comm (the exited leader's name, as Linux's) and
 * reads it back: exit status 3 if that is not the new name. */
static void *waiter(void *arg)
{
	char c, buf[32] = "";
	int fd;

	if (read(hold[0], &c, 1) < 0)
		return arg;
	fd = open("/proc/self/comm", O_RDWR);
	if (fd < 0 || write(fd, "renamed", 7) != 7 || pread(fd, buf, sizeof(buf) - 1, 0) < 0 ||
	    strcmp(buf, "renamed\n") != 0)
		_exit(3);
	close(fd);
	return arg;
}

/* A leader that exits while another thread runs on is a zombie: the
 * process's stat and status say Z, as its task/PID/stat. */
static void zombie_leader(void)
{
	char task[32];
	pthread_t t;
	int st, i;
	pid_t p;

	if (pipe(hold) < 0)
		return;
	p = fork();
	if (p == 0) {
		close(hold[1]); /* the parent's close ends the waiter's read */
		pthread_create(&t, NULL, waiter, NULL);
		prctl(PR_SET_NAME, "lead"); /* the waiter keeps the name before */
		syscall(SYS_exit, 0);
	}
	snprintf(task, sizeof(task), "task/%d/stat", p);
	for (i = 0; i < 500 && state(p, task) != 'Z'; i++) /* at most 5 s */
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	check(state(p, task) == 'Z', "an exited leader's task/PID/stat: Z");
	check(state(p, "stat") == 'Z', "its process's stat: Z while a thread runs on");
	check(state(p, "status") == 'Z', "its status: Z (zombie)");
	check(field(p, "status", 0, "Threads:\t2\n") == 0,
	      "its status: Threads: 2 (the exited leader counts until the reap)");
	check(field(p, "stat", 20, NULL) == 2, "its stat: 2 threads");
	check(field(p, "comm", 0, "lead\n") == 0, "its comm: the exited leader's name");
	check(field(p, "status", 0, "Name:\tlead\n") == 0, "its status: Name: the leader's");
	/* the exited leader has no mm (Linux's get_task_mm of the leader):
	 * its memory is shown as a zombie's, though a thread runs on */
	check(field(p, "stat", 23, NULL) == 0, "its stat: vsize 0");
	check(field(p, "stat", 24, NULL) == 0, "its stat: rss 0");
	check(field(p, "status", 0, "VmSize:") == -1, "its status: no VmSize line");
	check(field(p, "statm", 0, "0 0 0 0 0 0 0") == 0, "its statm: all 0");
	check(rd(pp(p, "cmdline")) == -1000, "its cmdline: empty");
	check(rd(pp(p, "maps")) == -1000, "its maps: empty");
	snprintf(task, sizeof(task), "task/%d/maps", p);
	check(rd(pp(p, task)) == -1000, "its leader's task/PID/maps: empty");
	leader_gone(p, "a zombie leader");
	close(hold[1]);
	waitpid(p, &st, 0);
	check(!WIFEXITED(st) || WEXITSTATUS(st) != 3,
	      "a thread's write of /proc/self/comm names the process (the exited leader)");
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the process ends with its last thread");
	close(hold[0]);
}

int main(void)
{
	pid_t root_child, zombie, user;
	int st;

	setvbuf(stdout, NULL, _IONBF, 0);
	root_child = fork();
	if (root_child == 0) {
		pause();
		_exit(0);
	}
	user = fork();
	if (user == 0) {
		as_user(root_child);
		_exit(0);
	}
	waitpid(user, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the uid-1000 child exits");
	kill(root_child, SIGKILL);
	waitpid(root_child, &st, 0);

	/* A root process that drops to uid 1000 is not dumpable any more. */
	int ready[2], go[2];
	char c = 0;

	if (pipe(ready) < 0 || pipe(go) < 0)
		return 1;
	root_child = fork();
	if (root_child == 0) {
		if (setresgid(1000, 1000, 1000) < 0 || setresuid(1000, 1000, 1000) < 0)
			_exit(1);
		c = prctl(PR_GET_DUMPABLE) != 1;
		write(ready[1], &c, 1);
		read(go[0], &c, 1);
		prctl(PR_SET_DUMPABLE, 1);
		write(ready[1], &c, 1);
		pause();
		_exit(0);
	}
	read(ready[0], &c, 1);
	check(c == 1, "setresuid from root: PR_GET_DUMPABLE is no longer 1");
	user = fork();
	if (user == 0) {
		if (setresgid(1000, 1000, 1000) < 0 || setresuid(1000, 1000, 1000) < 0)
			_exit(1);
		check(rd(pp(root_child, "environ")) == -EACCES,
		      "uid 1000 and a non-dumpable uid-1000 process: environ EACCES");
		check(od(pp(root_child, "fd")) == -EACCES, "fd/ EACCES (root's directory)");
		_exit(0);
	}
	waitpid(user, &st, 0);
	write(go[1], &c, 1);
	read(ready[0], &c, 1);
	user = fork();
	if (user == 0) {
		if (setresgid(1000, 1000, 1000) < 0 || setresuid(1000, 1000, 1000) < 0)
			_exit(1);
		check(rd(pp(root_child, "environ")) == 0, "after PR_SET_DUMPABLE 1: environ");
		check(od(pp(root_child, "fd")) == 0, "and fd/");
		_exit(0);
	}
	waitpid(user, &st, 0);
	kill(root_child, SIGKILL);
	waitpid(root_child, &st, 0);

	zombie = fork();
	if (zombie == 0) {
		prctl(PR_SET_NAME, "zomb");
		_exit(3);
	}
	/* a zombie once waitid with WNOWAIT says it exited */
	waitid(P_PID, zombie, NULL, WEXITED | WNOWAIT);
	check(rd(pp(zombie, "stat")) == 0, "a zombie's stat");
	/* its name and thread count are its leader's, kept until the reap
	 * (ps's "[zomb] <defunct>") */
	check(field(zombie, "stat", 2, NULL) == 0, "a zombie's stat: its comm (zomb)");
	check(field(zombie, "stat", 20, NULL) == 1, "a zombie's stat: 1 thread");
	check(field(zombie, "status", 0, "Name:\tzomb\n") == 0, "a zombie's status: Name: zomb");
	check(field(zombie, "status", 0, "Threads:\t1\n") == 0, "a zombie's status: Threads: 1");
	check(field(zombie, "comm", 0, "zomb\n") == 0, "a zombie's comm: zomb");
	check(rd(pp(zombie, "mounts")) == -EINVAL, "a zombie's mounts: EINVAL");
	check(rd(pp(zombie, "mountinfo")) == -EINVAL, "a zombie's mountinfo: EINVAL");
	check(rd(pp(zombie, "maps")) == -1000, "a zombie's maps: empty");
	leader_gone(zombie, "a zombie");
	{
		/* its leader's thread directory stays until the reap (Linux
		 * keeps the exited leader), listed, its state Z */
		char path[64], buf[512], name[16];
		struct dirent *de;
		int fd, listed = 0;
		ssize_t r;
		DIR *d;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", zombie, zombie);
		fd = open(path, O_RDONLY);
		r = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
		if (fd >= 0)
			close(fd);
		buf[r > 0 ? r : 0] = 0;
		check(r > 0 && strstr(buf, ") Z ") != NULL, "a zombie's task/PID/stat: state Z");
		snprintf(name, sizeof(name), "%d", zombie);
		d = opendir(pp(zombie, "task"));
		while (d && (de = readdir(d)))
			listed += strcmp(de->d_name, name) == 0;
		if (d)
			closedir(d);
		check(listed == 1, "a zombie's task/ lists its leader");
	}
	waitpid(zombie, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 3, "the zombie is reaped");
	zombie_leader();
	return 0;
}
