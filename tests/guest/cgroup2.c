/* The cgroup v2 filesystem with no controllers relied on, core interface
 * files only: a fresh "cgroup2" mount on a directory of /tmp (in a private
 * mount namespace where one may be had), and under it a test cgroup T made
 * in the test's own cgroup (the "0::" line of /proc/self/cgroup).
 *
 * mkdir's mode (umask applied) and owner, the interface files' modes
 * (cgroup.procs 0644, cgroup.events 0444, cgroup.kill 0200, ...), owners
 * and sizes, st_nlink of a cgroup directory; what cgroup.type,
 * cgroup.max.depth, cgroup.max.descendants, cgroup.events, cgroup.procs,
 * cgroup.threads, cgroup.stat, cpu.stat, cgroup.subtree_control and
 * cgroup.controllers read in a new cgroup; root opening cgroup.kill for
 * reading and cgroup.events for writing (both open; read and write EINVAL);
 * moving into T through cgroup.procs (a pid, or "0" for the writer), as
 * /proc/self/cgroup, cgroup.procs, cgroup.events and the parent's
 * cgroup.procs show it, a forked child starting in T, a thread's tid in
 * cgroup.threads and not cgroup.procs, a thread's tid written to
 * cgroup.procs moving the whole process; the errors: EINVAL for "abc" and
 * "-1" and "\n" to cgroup.procs (a write of 0 bytes is 0 and does nothing),
 * ESRCH for no such pid, EINVAL for a name with a
 * newline, EEXIST for mkdir over an interface file, EPERM for unlink,
 * rename and symlink, EACCES for creating a file, EINVAL for an unknown
 * controller in cgroup.subtree_control (an empty write succeeds), ERANGE
 * for -1 to cgroup.max.depth and cgroup.max.descendants, EINVAL for
 * anything but "threaded" to cgroup.type, ENODEV for a write to a removed
 * cgroup's cgroup.procs, EBUSY for rmdir of a populated cgroup or one with
 * a child; cgroup.max.depth and cgroup.max.descendants (EAGAIN) and
 * nr_descendants; cgroup.kill (a cgroup and its child cgroup killed,
 * ERANGE for a value other than 1); poll(POLLPRI) (POLLPRI|POLLERR) and
 * inotify (IN_MODIFY) on cgroup.events as populated changes; a cgroup
 * namespace's view ("/", "/..", "/../ns2"); clone3's CLONE_INTO_CGROUP
 * (EBADF for a directory that is no cgroup, a file or a closed fd, EINVAL
 * for a version-1 size or an fd past INT_MAX, EOPNOTSUPP (x86_64) for CLONE_THREAD
 * into another domain cgroup); delegation to uid 1000 (mkdir in its cgroup,
 * the new cgroup's files its own, a move needing write on the common
 * ancestor's cgroup.procs, a root process in the delegated subtree moved by
 * it, EACCES otherwise, CLONE_INTO_CGROUP EACCES into a subgroup whose
 * cgroup.procs it may not write); cgroup.threads' EOPNOTSUPP across domain
 * cgroups; CLONE_INTO_CGROUP with CLONE_NEWCGROUP rooting the namespace at
 * the new group; cgroup.kill written by a pid namespace's init (it lives,
 * its child dies); cgroup.freeze (no cgroup.freeze in the root, "frozen 1"
 * once a busy child stops running, a child cgroup frozen with its parent,
 * a new cgroup below a frozen one frozen at once, wait reporting no stop,
 * ERANGE and EINVAL, the thaw, SIGKILL of a frozen process, a process
 * asleep in read(2) frozen and its read going on after the thaw).
 *
 * Mounting cgroup2 in the initial cgroup namespace sets the hierarchy's
 * mount options (nsdelegate, ...) to the new mount's: the options of the
 * host's cgroup2 mount, if there is one, are passed on so that the host
 * keeps them. The checks of the cgroup namespace and of delegation assume
 * a hierarchy without nsdelegate. No pid, inode number or path of the host
 * is printed. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <grp.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ENAME
#include "tap.h"

#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif
#define CG_CLONE_INTO_CGROUP 0x200000000ULL
#define CG_SYS_clone3	     435
#define CGROUP2_MAGIC	     0x63677270
#define CLONE_ARGS_SIZE_VER1 80
#define CLONE_ARGS_SIZE_VER2 88

struct cg_clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	uint64_t set_tid, set_tid_size, cgroup;
};

static char dir[64];   /* the mount point */
static char orig[600]; /* our own cgroup's directory under it */
static char T[700];    /* the test cgroup's directory */
static char rel[600];  /* T as /proc/self/cgroup names it */
static int *sh;	       /* a child's n, for its parent */
static char big[1 << 20];

/* T followed by the formatted suffix, in one of 8 rotating buffers. */
static const char *P(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *P(const char *fmt, ...)
{
	static char buf[8][1024];
	static int i;
	va_list ap;
	int k;

	i = (i + 1) % 8;
	k = snprintf(buf[i], sizeof(buf[i]), "%s", T);
	va_start(ap, fmt);
	vsnprintf(buf[i] + k, sizeof(buf[i]) - k, fmt, ap);
	va_end(ap);
	return buf[i];
}

/* rel followed by suffix. */
static const char *R(const char *suffix)
{
	static char buf[4][1024];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s%s", rel, suffix);
	return buf[i];
}

/* The whole file, NUL-terminated, in buf; its length, or -1 (errno). */
static ssize_t rd(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t len = 0, k;

	buf[0] = 0;
	if (fd < 0)
		return -1;
	while (len < (ssize_t)size - 1 && (k = read(fd, buf + len, size - 1 - len)) > 0)
		len += k;
	buf[len] = 0;
	close(fd);
	return len;
}

/* Is the file's content exactly want? */
static int is(const char *path, const char *want)
{
	char buf[4096];

	return rd(path, buf, sizeof(buf)) >= 0 && strcmp(buf, want) == 0;
}

/* write(2) of s to the file: its result (-1 with errno of open or write). */
static ssize_t wr(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), e;
	ssize_t r;

	if (fd < 0)
		return -1;
	r = write(fd, s, strlen(s));
	e = errno;
	close(fd);
	errno = e;
	return r;
}

static int wr_ok(const char *path, const char *s)
{
	return wr(path, s) == (ssize_t)strlen(s);
}

/* Does buf have the line (without its newline)? */
static int has_line(const char *buf, const char *line)
{
	size_t len = strlen(line);
	const char *p = buf;

	while (*p) {
		if (strncmp(p, line, len) == 0 && (p[len] == '\n' || p[len] == 0))
			return 1;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return 0;
}

static int file_has_line(const char *path, const char *line)
{
	return rd(path, big, sizeof(big)) >= 0 && has_line(big, line);
}

static const char *num(long v)
{
	static char buf[4][32];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%ld", v);
	return buf[i];
}

/* The path of the "0::" line of a /proc/PID/cgroup file, or "". */
static const char *cg_of(const char *procfile)
{
	static char out[1024];
	char buf[8192], *p;

	out[0] = 0;
	if (rd(procfile, buf, sizeof(buf)) < 0)
		return out;
	for (p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, "0::", 3) == 0) {
			snprintf(out, sizeof(out), "%.*s", (int)strcspn(p + 3, "\n"), p + 3);
			break;
		}
	return out;
}

static const char *cg_pid(pid_t pid)
{
	char f[64];

	snprintf(f, sizeof(f), "/proc/%d/cgroup", (int)pid);
	return cg_of(f);
}

static int populated(const char *events, int want)
{
	char line[32];

	snprintf(line, sizeof(line), "populated %d", want);
	return file_has_line(events, line);
}

/* Wait up to 3 s for the cgroup.events file to say populated want. */
static int wait_populated(const char *events, int want)
{
	int i;

	for (i = 0; i < 300; i++) {
		if (populated(events, want))
			return 1;
		usleep(10000);
	}
	return 0;
}

/* Wait for a child: did it finish normally (status 0)? Its checks count. */
static int reap(pid_t pid)
{
	int st;

	if (pid <= 0 || waitpid(pid, &st, 0) != pid)
		return 0;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		n = *sh;
		return 1;
	}
	return 0;
}

static void child_done(void)
{
	*sh = n;
	_exit(0);
}

/* Remove the cgroup directory path and all below it, killing what is in
 * them first (all our own processes). */
static void rm_cg(const char *path)
{
	char sub[1024];
	struct dirent *d;
	DIR *dp = opendir(path);
	int i;

	if (!dp)
		return;
	while ((d = readdir(dp)))
		if (d->d_type == DT_DIR && strcmp(d->d_name, ".") && strcmp(d->d_name, "..")) {
			snprintf(sub, sizeof(sub), "%s/%s", path, d->d_name);
			rm_cg(sub);
		}
	closedir(dp);
	snprintf(sub, sizeof(sub), "%s/cgroup.events", path);
	if (!populated(sub, 0)) {
		snprintf(sub, sizeof(sub), "%s/cgroup.kill", path);
		wr(sub, "1");
		snprintf(sub, sizeof(sub), "%s/cgroup.events", path);
		wait_populated(sub, 0);
	}
	for (i = 0; i < 100 && rmdir(path) == -1 && errno == EBUSY; i++)
		usleep(10000);
}

/* 1, 2: a new cgroup's directory, files and what they read. */
static void new_cgroup(void)
{
	static const struct {
		const char *name;
		unsigned mode;
	} files[] = {
		{ "cgroup.procs", 0644 },
		{ "cgroup.threads", 0644 },
		{ "cgroup.controllers", 0444 },
		{ "cgroup.subtree_control", 0644 },
		{ "cgroup.events", 0444 },
		{ "cgroup.kill", 0200 },
		{ "cgroup.stat", 0444 },
		{ "cpu.stat", 0444 },
		{ "cgroup.type", 0644 },
		{ "cgroup.max.depth", 0644 },
		{ "cgroup.max.descendants", 0644 },
	};
	char buf[4096], what[128];
	struct stat st;
	unsigned i;
	int fd;

	check(stat(T, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 07777) == 0755,
	      "T: a directory, mode 0755 (mkdir 0777, umask 022)");
	check(st.st_uid == 0 && st.st_gid == 0, "T: owned by its creator (root)");
	check(st.st_nlink == 2, "T: st_nlink 2");
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(what, sizeof(what), "%s: regular, mode %04o, size 0, root's",
			 files[i].name, files[i].mode);
		check(stat(P("/%s", files[i].name), &st) == 0 && S_ISREG(st.st_mode) &&
			      (st.st_mode & 07777) == files[i].mode && st.st_size == 0 &&
			      st.st_uid == 0 && st.st_gid == 0,
		      what);
	}
	check(is(P("/cgroup.type"), "domain\n"), "cgroup.type: \"domain\"");
	check(is(P("/cgroup.max.depth"), "max\n"), "cgroup.max.depth: \"max\"");
	check(is(P("/cgroup.max.descendants"), "max\n"), "cgroup.max.descendants: \"max\"");
	rd(P("/cgroup.events"), buf, sizeof(buf));
	check(strncmp(buf, "populated 0\n", 12) == 0 && has_line(buf, "frozen 0"),
	      "cgroup.events: \"populated 0\" first, and \"frozen 0\"");
	check(is(P("/cgroup.procs"), ""), "cgroup.procs: empty");
	check(is(P("/cgroup.threads"), ""), "cgroup.threads: empty");
	rd(P("/cgroup.stat"), buf, sizeof(buf));
	check(has_line(buf, "nr_descendants 0") && has_line(buf, "nr_dying_descendants 0"),
	      "cgroup.stat: nr_descendants 0, nr_dying_descendants 0");
	rd(P("/cpu.stat"), buf, sizeof(buf));
	check(strncmp(buf, "usage_usec ", 11) == 0 && strstr(buf, "\nuser_usec ") &&
		      strstr(buf, "\nsystem_usec "),
	      "cpu.stat: usage_usec first, user_usec, system_usec");
	check(is(P("/cgroup.subtree_control"), ""), "cgroup.subtree_control: empty");
	check(mkdir(P("/a"), 0777) == 0, "mkdir T/a");
	check(is(P("/a/cgroup.controllers"), ""), "T/a/cgroup.controllers: empty (T enables none)");
	check(stat(T, &st) == 0 && st.st_nlink == 3, "T: st_nlink 3 with a child");
	check(rmdir(P("/a")) == 0, "rmdir T/a");
	check(mkdir(P("/m"), 0700) == 0 && stat(P("/m"), &st) == 0 && (st.st_mode & 07777) == 0700,
	      "mkdir T/m 0700: mode 0700");
	rmdir(P("/m"));
	fd = open(P("/cgroup.kill"), O_RDONLY);
	check(fd >= 0, "open cgroup.kill O_RDONLY as root");
	check_err(read(fd, buf, sizeof(buf)), EINVAL, "read cgroup.kill");
	close(fd);
	fd = open(P("/cgroup.events"), O_WRONLY);
	check(fd >= 0, "open cgroup.events O_WRONLY as root");
	check_err(write(fd, "1", 1), EINVAL, "write cgroup.events");
	close(fd);
}

/* 4: errors. */
static void errors(void)
{
	pid_t none = 4000000;
	int fd;

	check_err(wr(P("/cgroup.procs"), "abc"), EINVAL, "write \"abc\" to cgroup.procs");
	check_err(wr(P("/cgroup.procs"), "-1"), EINVAL, "write \"-1\" to cgroup.procs");
	while (none > 2 && !(kill(none, 0) == -1 && errno == ESRCH))
		none--;
	errno = 0;
	check(wr(P("/cgroup.procs"), num(none)) == -1 && errno == ESRCH,
	      "write a pid that does not exist to cgroup.procs -> ESRCH");
	check(wr(P("/cgroup.procs"), "") == 0 && is(P("/cgroup.procs"), ""),
	      "write of 0 bytes to cgroup.procs: 0, nothing moved");
	check_err(wr(P("/cgroup.procs"), "\n"), EINVAL, "write \"\\n\" to cgroup.procs");
	check_err(mkdir(P("/a\nb"), 0755), EINVAL, "mkdir of a name with a newline");
	check_err(mkdir(P("/cgroup.procs"), 0755), EEXIST, "mkdir T/cgroup.procs");
	check_err(unlink(P("/cgroup.procs")), EPERM, "unlink T/cgroup.procs");
	check(mkdir(P("/r"), 0755) == 0, "mkdir T/r");
	check_err(rename(P("/r"), P("/r2")), EPERM, "rename T/r to T/r2");
	check_err(rename(P("/cgroup.procs"), P("/x")), EPERM, "rename T/cgroup.procs to T/x");
	check_err(rmdir(P("/cgroup.procs")), ENOTDIR, "rmdir T/cgroup.procs");
	check_err(symlink("r", P("/l")), EPERM, "symlink in T");
	fd = open(P("/f"), O_WRONLY | O_CREAT | O_EXCL, 0644);
	check_err(fd, EACCES, "creat of a regular file in T");
	if (fd >= 0)
		close(fd);
	check_err(wr(P("/cgroup.subtree_control"), "+nosuchctl"), EINVAL,
		  "write \"+nosuchctl\" to cgroup.subtree_control");
	check_err(wr(P("/cgroup.subtree_control"), "nosuchctl"), EINVAL,
		  "write \"nosuchctl\" (no sign) to cgroup.subtree_control");
	check(wr(P("/cgroup.subtree_control"), "") == 0,
	      "write of 0 bytes to cgroup.subtree_control: 0");
	check(wr(P("/cgroup.subtree_control"), "\n") == 1,
	      "write \"\\n\" to cgroup.subtree_control: 1");
	check_err(wr(P("/cgroup.max.depth"), "-1"), ERANGE, "write \"-1\" to cgroup.max.depth");
	check_err(wr(P("/cgroup.max.depth"), "abc"), EINVAL, "write \"abc\" to cgroup.max.depth");
	check_err(wr(P("/cgroup.max.descendants"), "-1"), ERANGE,
		  "write \"-1\" to cgroup.max.descendants");
	check_err(wr(P("/cgroup.type"), "xyz"), EINVAL, "write \"xyz\" to cgroup.type");
	check_err(wr(P("/cgroup.type"), "domain"), EINVAL, "write \"domain\" to cgroup.type");
	check(is(P("/cgroup.type"), "domain\n"), "cgroup.type: still \"domain\"");
	fd = open(P("/r/cgroup.procs"), O_WRONLY);
	check(fd >= 0 && rmdir(P("/r")) == 0, "rmdir T/r with its cgroup.procs open");
	check_err(write(fd, "0", 1), ENODEV, "write to the removed cgroup's cgroup.procs");
	close(fd);
}

/* 5, 6: limits, children and rmdir. */
static void limits(void)
{
	check(wr_ok(P("/cgroup.max.depth"), "0"), "cgroup.max.depth: write 0");
	check(is(P("/cgroup.max.depth"), "0\n"), "cgroup.max.depth: reads \"0\"");
	check_err(mkdir(P("/a"), 0755), EAGAIN, "mkdir T/a at depth 0");
	check(wr_ok(P("/cgroup.max.depth"), "1\n"), "cgroup.max.depth: write 1");
	check(mkdir(P("/a"), 0755) == 0, "mkdir T/a at depth 1");
	check_err(mkdir(P("/a/c"), 0755), EAGAIN, "mkdir T/a/c: past T's depth 1");
	check(wr_ok(P("/cgroup.max.depth"), "max"), "cgroup.max.depth: write max");
	check(is(P("/cgroup.max.depth"), "max\n"), "cgroup.max.depth: reads \"max\"");
	check(rmdir(P("/a")) == 0, "rmdir T/a");

	check(wr_ok(P("/cgroup.max.descendants"), "1"), "cgroup.max.descendants: write 1");
	check(is(P("/cgroup.max.descendants"), "1\n"), "cgroup.max.descendants: reads \"1\"");
	check(mkdir(P("/a"), 0755) == 0, "mkdir T/a: the first descendant");
	check_err(mkdir(P("/b"), 0755), EAGAIN, "mkdir T/b: a second one");
	check_err(mkdir(P("/a/c"), 0755), EAGAIN, "mkdir T/a/c: a second one");
	check(file_has_line(P("/cgroup.stat"), "nr_descendants 1"),
	      "cgroup.stat: nr_descendants 1");
	check(wr_ok(P("/cgroup.max.descendants"), "max"), "cgroup.max.descendants: write max");
	check(is(P("/cgroup.max.descendants"), "max\n"), "cgroup.max.descendants: reads \"max\"");
	check(mkdir(P("/a/c"), 0755) == 0, "mkdir T/a/c now");
	check(file_has_line(P("/cgroup.stat"), "nr_descendants 2") &&
		      file_has_line(P("/a/cgroup.stat"), "nr_descendants 1"),
	      "cgroup.stat: nr_descendants 2 in T, 1 in T/a");

	check_err(rmdir(T), EBUSY, "rmdir T with a child");
	check_err(rmdir(P("/a")), EBUSY, "rmdir T/a with a child");
	check(rmdir(P("/a/c")) == 0 && rmdir(P("/a")) == 0, "rmdir T/a/c, then T/a");
	check_err(access(P("/a"), F_OK), ENOENT, "T/a is gone");
	check(file_has_line(P("/cgroup.stat"), "nr_descendants 0"),
	      "cgroup.stat: nr_descendants 0 again");
}

static int tpipe[2], tgo[2];
static volatile pid_t thread_tid;

static void *thread_fn(void *arg)
{
	char c;

	(void)arg;
	thread_tid = syscall(SYS_gettid);
	if (write(tpipe[1], "t", 1) != 1)
		return NULL;
	if (read(tgo[0], &c, 1) != 1)
		return NULL;
	return NULL;
}

/* 3, 12: membership. */
static void membership(void)
{
	char me[32], line[32], buf[4096];
	int p[2], i;
	pthread_t th;
	pid_t pid;
	char c;

	snprintf(me, sizeof(me), "%d\n", (int)getpid());
	snprintf(line, sizeof(line), "%d", (int)getpid());
	check(wr_ok(P("/cgroup.procs"), me), "write our pid to T/cgroup.procs");
	check(strcmp(cg_of("/proc/self/cgroup"), R("")) == 0,
	      "/proc/self/cgroup: 0:: line is T's path");
	check(is(P("/cgroup.procs"), me), "T/cgroup.procs: exactly our pid");
	check(populated(P("/cgroup.events"), 1), "T/cgroup.events: populated 1");
	check(rd(strcat(strcpy(buf, orig), "/cgroup.procs"), big, sizeof(big)) >= 0 &&
		      !has_line(big, line),
	      "the parent cgroup's cgroup.procs: not us");
	check_err(rmdir(T), EBUSY, "rmdir T while populated");

	check(mkdir(P("/a"), 0755) == 0 && wr_ok(P("/a/cgroup.procs"), "0"),
	      "write \"0\" to T/a/cgroup.procs");
	check(strcmp(cg_of("/proc/self/cgroup"), R("/a")) == 0, "/proc/self/cgroup: T/a");
	check(is(P("/cgroup.procs"), "") && is(P("/a/cgroup.procs"), me),
	      "T/cgroup.procs empty, T/a/cgroup.procs: us");
	check(populated(P("/cgroup.events"), 1), "T/cgroup.events: populated 1 (by its child)");
	check(wr_ok(P("/cgroup.procs"), "0\n"), "write \"0\\n\" to T/cgroup.procs");
	check(populated(P("/a/cgroup.events"), 0), "T/a/cgroup.events: populated 0");
	check(rmdir(P("/a")) == 0, "rmdir T/a, empty again");

	if (pipe(p) == 0) {
		pid = fork();
		if (pid == 0) {
			alarm(10);
			close(p[1]);
			if (read(p[0], &c, 1) < 0)
				_exit(1);
			_exit(0);
		}
		close(p[0]);
		check(pid > 0 && strcmp(cg_pid(pid), R("")) == 0,
		      "a forked child starts in T (/proc/PID/cgroup)");
		check(file_has_line(P("/cgroup.procs"), num(pid)) &&
			      file_has_line(P("/cgroup.procs"), line),
		      "T/cgroup.procs: the child and us");
		close(p[1]);
		check(pid > 0 && waitpid(pid, NULL, 0) == pid && is(P("/cgroup.procs"), me),
		      "the child gone: T/cgroup.procs is us again");
	}

	/* a thread of ours */
	if (pipe(tpipe) || pipe(tgo) || pthread_create(&th, NULL, thread_fn, NULL)) {
		check(0, "pthread_create");
		return;
	}
	check(read(tpipe[0], &c, 1) == 1 && thread_tid > 0, "a thread started");
	check(file_has_line(P("/cgroup.threads"), num(thread_tid)) &&
		      file_has_line(P("/cgroup.threads"), line),
	      "T/cgroup.threads: the thread and us");
	check(!file_has_line(P("/cgroup.procs"), num(thread_tid)) && is(P("/cgroup.procs"), me),
	      "T/cgroup.procs: only us, not the thread");
	check(mkdir(P("/t"), 0755) == 0, "mkdir T/t");
	check_err(wr(P("/t/cgroup.threads"), num(thread_tid)), EOPNOTSUPP,
		  "the thread's tid to T/t/cgroup.threads (another domain cgroup)");
	check_err(wr(P("/t/cgroup.threads"), "0"), EOPNOTSUPP,
		  "\"0\" to T/t/cgroup.threads (another domain cgroup)");
	check(wr_ok(P("/cgroup.threads"), num(thread_tid)),
	      "the thread's tid to T/cgroup.threads (its own cgroup)");
	check(wr_ok(P("/t/cgroup.procs"), num(thread_tid)), "the thread's tid to T/t/cgroup.procs");
	snprintf(buf, sizeof(buf), "/proc/self/task/%d/cgroup", (int)thread_tid);
	check(strcmp(cg_of("/proc/self/cgroup"), R("/t")) == 0 &&
		      strcmp(cg_of(buf), R("/t")) == 0 && is(P("/t/cgroup.procs"), me),
	      "it moved the whole process to T/t");
	check(wr_ok(P("/cgroup.procs"), "0") && strcmp(cg_of(buf), R("")) == 0,
	      "\"0\" to T/cgroup.procs: the whole process back");
	check(write(tgo[1], "g", 1) == 1 && pthread_join(th, NULL) == 0, "the thread ends");
	/* the joined thread leaves the list a moment later: Linux clears
	 * its tid (what pthread_join waits for) before its cgroup_exit */
	for (i = 0; i < 300 && !is(P("/cgroup.threads"), me); i++)
		usleep(10000);
	check(is(P("/cgroup.threads"), me), "T/cgroup.threads: us");
	check(rmdir(P("/t")) == 0, "rmdir T/t");
	close(tpipe[0]);
	close(tpipe[1]);
	close(tgo[0]);
	close(tgo[1]);
}

/* 7: cgroup.kill. */
static void kill_test(void)
{
	int p[2];
	pid_t pid;
	int st = 0;
	char c[2];

	check(mkdir(P("/k"), 0755) == 0 && mkdir(P("/k/g"), 0755) == 0, "mkdir T/k and T/k/g");
	if (pipe(p))
		return;
	pid = fork();
	if (pid == 0) {
		alarm(10);
		close(p[0]);
		if (!wr_ok(P("/k/cgroup.procs"), "0"))
			_exit(1);
		if (fork() == 0) {
			alarm(10);
			if (!wr_ok(P("/k/g/cgroup.procs"), "0"))
				_exit(1);
			if (write(p[1], "g", 1) != 1)
				_exit(1);
			for (;;)
				pause();
		}
		if (write(p[1], "c", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	check(pid > 0 && read(p[0], c, 1) == 1 && read(p[0], c + 1, 1) == 1,
	      "a child in T/k and its child in T/k/g");
	close(p[0]);
	check(populated(P("/k/cgroup.events"), 1) && populated(P("/k/g/cgroup.events"), 1),
	      "T/k and T/k/g: populated 1");
	check(wr(P("/k/cgroup.kill"), "1") == 1, "write \"1\" to T/k/cgroup.kill");
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
	      "the child: killed by SIGKILL");
	check(populated(P("/k/cgroup.events"), 0) || wait_populated(P("/k/cgroup.events"), 0),
	      "T/k/cgroup.events: populated 0 (its child's too)");
	check(populated(P("/k/g/cgroup.events"), 0), "T/k/g/cgroup.events: populated 0");
	check_err(wr(P("/k/cgroup.kill"), "0"), ERANGE, "write \"0\" to cgroup.kill");
	check_err(wr(P("/k/cgroup.kill"), "2"), ERANGE, "write \"2\" to cgroup.kill");
	check_err(wr(P("/k/cgroup.kill"), "x"), EINVAL, "write \"x\" to cgroup.kill");
	check(wr(P("/k/cgroup.kill"), "1\n") == 2,
	      "write \"1\\n\" to an empty cgroup's cgroup.kill");
	check(rmdir(P("/k/g")) == 0 && rmdir(P("/k")) == 0, "rmdir T/k/g, T/k");
}

/* The exit status of child pid, or -1. */
static int reap_status(long pid)
{
	int st;

	if (waitpid((pid_t)pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* 7a: cgroup.kill written by a pid namespace's init in the cgroup: its
 * child dies, it survives (SIGKILL reaches an init only from above). */
static void kill_init_test(void)
{
	pid_t pid;
	int st = 0;

	check(mkdir(P("/ki"), 0755) == 0, "mkdir T/ki");
	pid = fork();
	if (pid == 0) {
		pid_t init;

		alarm(10);
		if (unshare(CLONE_NEWPID))
			_exit(2);
		init = fork();
		if (init == 0) {
			pid_t g;

			if (!wr_ok(P("/ki/cgroup.procs"), "0"))
				_exit(3);
			g = fork();
			if (g == 0)
				for (;;)
					pause();
			if (wr(P("/ki/cgroup.kill"), "1") != 1)
				_exit(4);
			if (waitpid(g, &st, 0) != g || !WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)
				_exit(5);
			_exit(7);
		}
		if (waitpid(init, &st, 0) != init)
			_exit(6);
		_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st));
	}
	check(reap_status(pid) == 7,
	      "a pid namespace's init writing its cgroup's cgroup.kill: its child dies, it lives");
	check(rmdir(P("/ki")) == 0, "rmdir T/ki");
}

/* Wait up to 3 s for the cgroup.events file to say frozen want. */
static int wait_frozen(const char *events, int want)
{
	char line[32];
	int i;

	snprintf(line, sizeof(line), "frozen %d", want);
	for (i = 0; i < 300; i++) {
		if (file_has_line(events, line))
			return 1;
		usleep(10000);
	}
	return 0;
}

/* 7b: cgroup.freeze. */
static void freeze_test(void)
{
	volatile unsigned long *count;
	unsigned long before;
	int p[2], st = 0;
	pid_t pid;
	char c, root_freeze[128];

	snprintf(root_freeze, sizeof(root_freeze), "%s/cgroup.freeze", dir);
	check_err(access(root_freeze, F_OK), ENOENT, "the root has no cgroup.freeze");
	check(mkdir(P("/fz"), 0755) == 0 && mkdir(P("/fz/sub"), 0755) == 0,
	      "mkdir T/fz and T/fz/sub");
	check(is(P("/fz/cgroup.freeze"), "0\n"), "T/fz/cgroup.freeze reads \"0\\n\"");
	check(file_has_line(P("/fz/cgroup.events"), "frozen 0"), "T/fz: frozen 0");
	count = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (count == MAP_FAILED || pipe(p))
		return;
	pid = fork();
	if (pid == 0) {
		alarm(20);
		close(p[0]);
		if (!wr_ok(P("/fz/sub/cgroup.procs"), "0") || write(p[1], "c", 1) != 1)
			_exit(1);
		for (;;)
			(*count)++;
	}
	close(p[1]);
	check(pid > 0 && read(p[0], &c, 1) == 1, "a busy child in T/fz/sub");
	close(p[0]);
	check(wr(P("/fz/cgroup.freeze"), "1") == 1, "write \"1\" to T/fz/cgroup.freeze");
	check(wait_frozen(P("/fz/cgroup.events"), 1), "T/fz: frozen 1");
	check(file_has_line(P("/fz/sub/cgroup.events"), "frozen 1"), "T/fz/sub: frozen 1");
	check(is(P("/fz/sub/cgroup.freeze"), "0\n"), "T/fz/sub/cgroup.freeze still reads 0");
	before = *count;
	usleep(100000);
	check(*count == before, "the frozen child does not run");
	check(waitpid(pid, &st, WNOHANG | WUNTRACED) == 0, "wait reports no stop of it");
	check(mkdir(P("/fz/new"), 0755) == 0 &&
		      file_has_line(P("/fz/new/cgroup.events"), "frozen 1"),
	      "a new cgroup below a frozen one: frozen 1 at once");
	check(rmdir(P("/fz/new")) == 0, "rmdir it");
	check_err(wr(P("/fz/cgroup.freeze"), "2"), ERANGE, "write \"2\" to cgroup.freeze");
	check_err(wr(P("/fz/cgroup.freeze"), "-1"), ERANGE, "write \"-1\" to cgroup.freeze");
	check_err(wr(P("/fz/cgroup.freeze"), "x"), EINVAL, "write \"x\" to cgroup.freeze");
	check(wr(P("/fz/cgroup.freeze"), "0") == 1, "write \"0\" to T/fz/cgroup.freeze");
	check(wait_frozen(P("/fz/cgroup.events"), 0), "T/fz: frozen 0");
	before = *count;
	usleep(100000);
	check(*count != before, "the thawed child runs again");
	check(wr(P("/fz/sub/cgroup.freeze"), "1") == 1 &&
		      wait_frozen(P("/fz/sub/cgroup.events"), 1),
	      "T/fz/sub frozen by its own cgroup.freeze");
	check(file_has_line(P("/fz/cgroup.events"), "frozen 0"), "T/fz stays frozen 0");
	check(kill(pid, SIGKILL) == 0 && waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) &&
		      WTERMSIG(st) == SIGKILL,
	      "SIGKILL ends the frozen child");
	check(wr(P("/fz/sub/cgroup.freeze"), "0") == 1, "thaw T/fz/sub");
	check(rmdir(P("/fz/sub")) == 0 && rmdir(P("/fz")) == 0, "rmdir T/fz/sub, T/fz");
	munmap((void *)count, 4096);
}

/* 7c: a process asleep in read(2) freezes; its read goes on after the
 * thaw, as if nothing had happened (no EINTR). */
static void freeze_sleep_test(void)
{
	struct pollfd pf;
	int q[2], r[2], st = 0;
	pid_t pid;
	char b = 0;

	check(mkdir(P("/fs"), 0755) == 0, "mkdir T/fs");
	if (pipe(q) || pipe(r))
		return;
	pid = fork();
	if (pid == 0) {
		ssize_t got;

		alarm(20);
		close(q[1]);
		close(r[0]);
		got = read(q[0], &b, 1);
		_exit(write(r[1], got == 1 && b == 'x' ? "y" : "n", 1) == 1 ? 0 : 1);
	}
	close(q[0]);
	close(r[1]);
	check(pid > 0 && wr_ok(P("/fs/cgroup.procs"), num(pid)), "a child reading a pipe, in T/fs");
	usleep(50000);
	check(wr(P("/fs/cgroup.freeze"), "1") == 1 && wait_frozen(P("/fs/cgroup.events"), 1),
	      "T/fs: frozen 1 with the child asleep in read");
	check(write(q[1], "x", 1) == 1, "a byte written to its pipe");
	pf = (struct pollfd){ .fd = r[0], .events = POLLIN };
	check(poll(&pf, 1, 100) == 0, "the frozen child does not answer");
	check(wr(P("/fs/cgroup.freeze"), "0") == 1, "thaw T/fs");
	check(read(r[0], &b, 1) == 1 && b == 'y', "its read returned the byte");
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the child exits 0");
	close(q[1]);
	close(r[0]);
	check(rmdir(P("/fs")) == 0, "rmdir T/fs");
}

/* Wait up to 3 s for POLLPRI on the cgroup.events fd; revents or -1. */
static int pri(int fd, int ms)
{
	struct pollfd pf = { .fd = fd, .events = POLLPRI };
	int r = poll(&pf, 1, ms);

	return r < 0 ? -1 : r == 0 ? 0 : pf.revents;
}

/* Is there an IN_MODIFY event for wd within 3 s? All read. */
static int modified(int ifd, int wd)
{
	struct pollfd pf = { .fd = ifd, .events = POLLIN };
	char buf[4096] __attribute__((aligned(8)));
	struct inotify_event *ev;
	int found = 0;
	ssize_t len, off;

	if (poll(&pf, 1, 3000) != 1)
		return 0;
	len = read(ifd, buf, sizeof(buf));
	for (off = 0; off < len; off += sizeof(*ev) + ev->len) {
		ev = (struct inotify_event *)(buf + off);
		if (ev->wd == wd && (ev->mask & IN_MODIFY))
			found = 1;
	}
	return found;
}

/* Read the cgroup.events fd again from the start: is it populated want? */
static int reread(int fd, int want)
{
	char buf[256], line[32];
	ssize_t k = pread(fd, buf, sizeof(buf) - 1, 0);

	if (k < 0)
		return 0;
	buf[k] = 0;
	snprintf(line, sizeof(line), "populated %d", want);
	return has_line(buf, line);
}

/* 8: notifications. */
static void notify_test(void)
{
	int fd, ifd, wd, p[2];
	pid_t pid;
	char c;

	check(mkdir(P("/k2"), 0755) == 0, "mkdir T/k2");
	fd = open(P("/k2/cgroup.events"), O_RDONLY);
	ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	wd = inotify_add_watch(ifd, P("/k2/cgroup.events"), IN_MODIFY);
	check(fd >= 0 && ifd >= 0 && wd >= 0 && reread(fd, 0),
	      "T/k2/cgroup.events: open, read, inotify watch");
	check(pri(fd, 0) == 0, "poll POLLPRI: nothing yet");
	if (pipe(p))
		return;
	pid = fork();
	if (pid == 0) {
		alarm(10);
		close(p[1]);
		if (read(p[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[0]);
	check(wr_ok(P("/k2/cgroup.procs"), num(pid)), "a child moved into T/k2");
	check(pri(fd, 3000) == (POLLPRI | POLLERR), "poll: POLLPRI|POLLERR");
	check(reread(fd, 1), "reads populated 1");
	check(pri(fd, 0) == 0, "poll POLLPRI after the read: nothing");
	check(modified(ifd, wd), "inotify: IN_MODIFY");
	check(wr_ok(P("/cgroup.procs"), num(pid)), "the child moved out of T/k2");
	check(pri(fd, 3000) == (POLLPRI | POLLERR), "poll: POLLPRI|POLLERR");
	check(reread(fd, 0), "reads populated 0");
	check(modified(ifd, wd), "inotify: IN_MODIFY");
	check(wr_ok(P("/k2/cgroup.procs"), num(pid)), "the child moved into T/k2 again");
	check(pri(fd, 3000) == (POLLPRI | POLLERR) && reread(fd, 1) && modified(ifd, wd),
	      "poll: POLLPRI|POLLERR, reads populated 1, IN_MODIFY");
	close(p[1]);
	check(waitpid(pid, NULL, 0) == pid, "the child exits");
	check(pri(fd, 3000) == (POLLPRI | POLLERR), "poll: POLLPRI|POLLERR");
	check(reread(fd, 0), "reads populated 0");
	check(modified(ifd, wd), "inotify: IN_MODIFY");
	close(fd);
	close(ifd);
	check(rmdir(P("/k2")) == 0, "rmdir T/k2");
}

/* 9: a cgroup namespace. */
static void ns_test(void)
{
	int p[2], go[2], fd, st;
	pid_t pid, parent = getpid();
	char f[64], c;

	check(mkdir(P("/ns"), 0755) == 0 && mkdir(P("/ns2"), 0755) == 0, "mkdir T/ns and T/ns2");
	if (pipe(p) || pipe(go))
		return;
	pid = fork();
	if (pid == 0) {
		alarm(10);
		close(p[0]);
		close(go[1]);
		check(wr_ok(P("/ns/cgroup.procs"), "0"), "child: into T/ns");
		fd = open(P("/ns2/cgroup.procs"), O_WRONLY);
		check(fd >= 0, "child: open T/ns2/cgroup.procs");
		check(unshare(CLONE_NEWCGROUP) == 0, "child: unshare(CLONE_NEWCGROUP)");
		check(strcmp(cg_of("/proc/self/cgroup"), "/") == 0,
		      "child: /proc/self/cgroup: \"/\"");
		snprintf(f, sizeof(f), "/proc/%d/cgroup", (int)parent);
		check(strcmp(cg_of(f), "/..") == 0, "child: its parent's (in T): \"/..\"");
		check(write(fd, "0", 1) == 1, "child: \"0\" to T/ns2/cgroup.procs");
		check(strcmp(cg_of("/proc/self/cgroup"), "/../ns2") == 0,
		      "child: /proc/self/cgroup: \"/../ns2\"");
		*sh = n;
		if (write(p[1], "c", 1) != 1 || read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	close(go[0]);
	if (pid > 0 && read(p[0], &c, 1) == 1)
		n = *sh;
	check(pid > 0 && strcmp(cg_pid(pid), R("/ns2")) == 0,
	      "the child, seen from outside its namespace: T/ns2");
	close(go[1]);
	close(p[0]);
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the child finished");
	check(rmdir(P("/ns")) == 0 && rmdir(P("/ns2")) == 0, "rmdir T/ns, T/ns2");
}

static long clone3(struct cg_clone_args *a, size_t size)
{
	return syscall(CG_SYS_clone3, a, size);
}

#ifdef __x86_64__
/* clone3 whose child (a thread, maybe) only calls exit, touching no
 * memory. */
static long clone3_exit(struct cg_clone_args *a, size_t size)
{
	long r;

	asm volatile("syscall\n\t"
		     "test %%rax, %%rax\n\t"
		     "jnz 1f\n\t"
		     "mov $60, %%eax\n\t"
		     "xor %%edi, %%edi\n\t"
		     "syscall\n\t"
		     "1:"
		     : "=a"(r)
		     : "0"((long)CG_SYS_clone3), "D"(a), "S"(size)
		     : "rcx", "r11", "memory");
	if (r < 0 && r > -4096) {
		errno = -r;
		return -1;
	}
	return r;
}
#endif

/* 10: clone3(CLONE_INTO_CGROUP). */
static void clone3_test(void)
{
	struct cg_clone_args a;
	char want[1024], want2[1100];
	int cfd, tmp, file, st;
	long r;

	check(mkdir(P("/c3"), 0755) == 0, "mkdir T/c3");
	cfd = open(P("/c3"), O_DIRECTORY | O_RDONLY);
	check(cfd >= 0, "open T/c3 O_DIRECTORY");
	snprintf(want, sizeof(want), "0::%s\n", R("/c3"));
	snprintf(want2, sizeof(want2), "\n%s", want);
	memset(&a, 0, sizeof(a));
	a.flags = CG_CLONE_INTO_CGROUP;
	a.exit_signal = SIGCHLD;
	a.cgroup = cfd;
	r = clone3(&a, sizeof(a));
	if (r == 0) {
		char buf[4096];
		int fd = open("/proc/self/cgroup", O_RDONLY);
		ssize_t k = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

		if (k < 0)
			_exit(2);
		buf[k] = 0;
		_exit(strncmp(buf, want, strlen(want)) == 0 || strstr(buf, want2) ? 0 : 1);
	}
	st = -1;
	check(r > 0 && waitpid(r, &st, 0) == r && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "clone3(CLONE_INTO_CGROUP): the child's /proc/self/cgroup is T/c3");
	check(is(P("/c3/cgroup.procs"), "") && populated(P("/c3/cgroup.events"), 0),
	      "T/c3: empty again");

	/* with a new cgroup namespace too: rooted at the child's group */
	a.flags = CG_CLONE_INTO_CGROUP | CLONE_NEWCGROUP;
	r = clone3(&a, sizeof(a));
	if (r == 0)
		_exit(strcmp(cg_of("/proc/self/cgroup"), "/") == 0 ? 0 : 1);
	check(r > 0 && reap_status(r) == 0,
	      "clone3(CLONE_INTO_CGROUP|CLONE_NEWCGROUP): the child's namespace is rooted at T/c3");
	a.flags = CG_CLONE_INTO_CGROUP;

	tmp = open("/tmp", O_DIRECTORY | O_RDONLY);
	a.cgroup = tmp;
	r = clone3(&a, sizeof(a));
	if (r == 0)
		_exit(0);
	check_err(r, EBADF, "clone3(CLONE_INTO_CGROUP), an fd of /tmp");
	if (r > 0)
		waitpid(r, NULL, 0);
	close(tmp);
	file = open(P("/c3/cgroup.procs"), O_RDONLY);
	a.cgroup = file;
	r = clone3(&a, sizeof(a));
	if (r == 0)
		_exit(0);
	check_err(r, EBADF, "clone3(CLONE_INTO_CGROUP), an fd of T/c3/cgroup.procs");
	if (r > 0)
		waitpid(r, NULL, 0);
	close(file);
	a.cgroup = 900;
	r = clone3(&a, sizeof(a));
	if (r == 0)
		_exit(0);
	check_err(r, EBADF, "clone3(CLONE_INTO_CGROUP), a closed fd");
	if (r > 0)
		waitpid(r, NULL, 0);
	a.cgroup = (uint64_t)-1;
	r = clone3(&a, sizeof(a));
	if (r == 0)
		_exit(0);
	check_err(r, EINVAL, "clone3(CLONE_INTO_CGROUP), cgroup fd (u64)-1");
	if (r > 0)
		waitpid(r, NULL, 0);
	a.cgroup = cfd;
	r = clone3(&a, CLONE_ARGS_SIZE_VER1);
	if (r == 0)
		_exit(0);
	check_err(r, EINVAL, "clone3(CLONE_INTO_CGROUP) with the version-1 size");
	if (r > 0)
		waitpid(r, NULL, 0);
#ifdef __x86_64__
	a.flags = CG_CLONE_INTO_CGROUP | CLONE_THREAD | CLONE_SIGHAND | CLONE_VM;
	a.exit_signal = 0;
	a.cgroup = cfd;
	check_err(clone3_exit(&a, sizeof(a)), EOPNOTSUPP,
		  "clone3(CLONE_INTO_CGROUP|CLONE_THREAD) into another cgroup");
#endif
	close(cfd);
	check(rmdir(P("/c3")) == 0, "rmdir T/c3");
}

static int drop(void)
{
	return setgroups(0, NULL) == 0 && setgid(1000) == 0 && setuid(1000) == 0;
}

/* 11: delegation of T/d to uid 1000. */
static void deleg_test(void)
{
	struct stat st;
	int p[2];
	pid_t pid, rootp;
	char c;

	check(mkdir(P("/d"), 0755) == 0 && chown(P("/d"), 1000, 1000) == 0 &&
		      chown(P("/d/cgroup.procs"), 1000, 1000) == 0,
	      "mkdir T/d, chown it and its cgroup.procs to 1000");
	check(stat(P("/d/cgroup.procs"), &st) == 0 && st.st_uid == 1000 && st.st_gid == 1000 &&
		      stat(P("/d/cgroup.threads"), &st) == 0 && st.st_uid == 0,
	      "T/d/cgroup.procs: 1000's (cgroup.threads still root's)");
	/* a root process in T/d, to be moved by uid 1000 */
	if (pipe(p))
		return;
	rootp = fork();
	if (rootp == 0) {
		alarm(10);
		close(p[1]);
		if (read(p[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[0]);
	check(wr_ok(P("/d/cgroup.procs"), num(rootp)), "a root child into T/d");
	check(mkdir(P("/d/rs"), 0755) == 0, "mkdir T/d/rs as root");

	pid = fork();
	if (pid == 0) {
		alarm(10);
		check(wr_ok(P("/d/cgroup.procs"), "0"), "child: into T/d as root");
		check(drop(), "child: setgid, setuid 1000");
		check(mkdir(P("/d/x"), 0755) == 0, "child: mkdir T/d/x");
		check(stat(P("/d/x"), &st) == 0 && st.st_uid == 1000 && st.st_gid == 1000 &&
			      (st.st_mode & 07777) == 0755,
		      "child: T/d/x: 1000's, 0755");
		check(stat(P("/d/x/cgroup.procs"), &st) == 0 && st.st_uid == 1000 &&
			      st.st_gid == 1000 && (st.st_mode & 07777) == 0644,
		      "child: T/d/x/cgroup.procs: 1000's, 0644");
		check(wr_ok(P("/d/x/cgroup.procs"), "0"), "child: \"0\" to T/d/x/cgroup.procs");
		check(strcmp(cg_of("/proc/self/cgroup"), R("/d/x")) == 0,
		      "child: /proc/self/cgroup: T/d/x");
		check(wr_ok(P("/d/x/cgroup.procs"), num(rootp)),
		      "child: the root process from T/d to T/d/x");
		{
			struct cg_clone_args a = { .flags = CG_CLONE_INTO_CGROUP,
						   .exit_signal = SIGCHLD };
			int cfd = open(P("/d/rs"), O_RDONLY | O_DIRECTORY);
			long r;

			a.cgroup = (uint64_t)cfd;
			r = cfd >= 0 ? clone3(&a, sizeof(a)) : -1;
			if (r == 0)
				_exit(0);
			if (r > 0)
				waitpid((pid_t)r, NULL, 0);
			check_err(r, EACCES,
				  "child: clone3(CLONE_INTO_CGROUP) into T/d/rs (its cgroup.procs "
				  "root's)");
			a.cgroup = (uint64_t)open(P("/d/x"), O_RDONLY | O_DIRECTORY);
			r = clone3(&a, sizeof(a));
			if (r == 0)
				_exit(strcmp(cg_of("/proc/self/cgroup"), R("/d/x")) == 0 ? 0 : 1);
			check(r > 0 && reap_status(r) == 0,
			      "child: clone3(CLONE_INTO_CGROUP) into its own T/d/x");
			close(cfd);
			close((int)a.cgroup);
		}
		check_err(open(P("/cgroup.procs"), O_WRONLY), EACCES,
			  "child: open T/cgroup.procs for writing");
		check_err(wr(P("/cgroup.procs"), "0"), EACCES, "child: \"0\" to T/cgroup.procs");
		check_err(mkdir(P("/y"), 0755), EACCES, "child: mkdir T/y");
		check_err(open(P("/d/cgroup.threads"), O_WRONLY), EACCES,
			  "child: open T/d/cgroup.threads (root's) for writing");
		check(wr_ok(P("/d/cgroup.procs"), "0"), "child: \"0\" to T/d/cgroup.procs: back");
		check(wr_ok(P("/d/cgroup.procs"), num(rootp)),
		      "child: the root process back to T/d");
		check(rmdir(P("/d/x")) == 0, "child: rmdir T/d/x");
		child_done();
	}
	check(reap(pid), "the child finished");

	pid = fork();
	if (pid == 0) {
		int fd;

		alarm(10);
		check(drop(), "child in T: setgid, setuid 1000");
		check(mkdir(P("/d/x2"), 0755) == 0, "child: mkdir T/d/x2");
		fd = open(P("/d/x2/cgroup.procs"), O_WRONLY);
		check(fd >= 0, "child: open T/d/x2/cgroup.procs for writing");
		check_err(write(fd, "0", 1), EACCES,
			  "child: \"0\" to it from T (T/cgroup.procs is root's)");
		close(fd);
		check_err(wr(P("/d/cgroup.procs"), "0"), EACCES,
			  "child: \"0\" to T/d/cgroup.procs from T");
		check(strcmp(cg_of("/proc/self/cgroup"), R("")) == 0,
		      "child: /proc/self/cgroup: still T");
		check(rmdir(P("/d/x2")) == 0, "child: rmdir T/d/x2");
		child_done();
	}
	check(reap(pid), "the child finished");
	close(p[1]);
	check(waitpid(rootp, NULL, 0) == rootp, "the root child exits");
	check(rmdir(P("/d/rs")) == 0 && rmdir(P("/d")) == 0, "rmdir T/d/rs, T/d");
}

static void worker(void)
{
	char me[32];

	check(mkdir(T, 0777) == 0, "mkdir T");
	if (access(T, F_OK))
		return;
	new_cgroup();
	errors();
	limits();
	membership();
	kill_test();
	kill_init_test();
	freeze_test();
	freeze_sleep_test();
	notify_test();
	ns_test();
	clone3_test();
	deleg_test();
	snprintf(me, sizeof(me), "%d", (int)getpid());
	check(wr_ok(strcat(strcpy(big, orig), "/cgroup.procs"), me), "back to the original cgroup");
	check(rmdir(T) == 0, "rmdir T");
}

/* The options of the host's cgroup2 mount that set the hierarchy's flags. */
static void host_opts(char *out, size_t size)
{
	static const char *const known[] = { "nsdelegate",
					     "favordynmods",
					     "memory_localevents",
					     "memory_recursiveprot",
					     "memory_hugetlb_accounting",
					     "pids_localevents" };
	char line[1024], *sep, *tok, *save;
	FILE *f = fopen("/proc/self/mountinfo", "r");
	unsigned i;

	out[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		sep = strstr(line, " - cgroup2 ");
		if (!sep)
			continue;
		sep = strrchr(line, ' ');
		line[strcspn(line, "\n")] = 0;
		for (tok = strtok_r(sep + 1, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
				if (strcmp(tok, known[i]) == 0 &&
				    strlen(out) + strlen(tok) + 2 < size)
					strcat(strcat(out, out[0] ? "," : ""), tok);
		break;
	}
	fclose(f);
}

int main(void)
{
	char opts[256], path[512];
	struct statfs sfs;
	int mounted;
	pid_t pid;

	umask(022);
	sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	/* natively: a mount namespace of our own (none to be had is no error) */
	if (unshare(CLONE_NEWNS) == 0)
		mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL);
	host_opts(opts, sizeof(opts));
	strcpy(dir, "/tmp/skas-cg2-XXXXXX");
	if (!mkdtemp(dir)) {
		check(0, "mkdtemp");
		return 1;
	}
	mounted = mount("none", dir, "cgroup2", 0, opts[0] ? opts : NULL) == 0;
	check(mounted, "mount cgroup2 on a fresh directory");
	if (!mounted) {
		rmdir(dir);
		return 1;
	}
	check(statfs(dir, &sfs) == 0 && sfs.f_type == CGROUP2_MAGIC, "statfs: CGROUP2_SUPER_MAGIC");
	snprintf(path, sizeof(path), "%s", cg_of("/proc/self/cgroup"));
	check(path[0] == '/', "/proc/self/cgroup: a 0:: line");
	if (strcmp(path, "/") == 0)
		path[0] = 0;
	snprintf(orig, sizeof(orig), "%s%s", dir, path);
	snprintf(T, sizeof(T), "%s/skas-cg-%d", orig, (int)getpid());
	snprintf(rel, sizeof(rel), "%s/skas-cg-%d", path, (int)getpid());

	pid = fork();
	if (pid == 0) {
		worker();
		child_done();
	}
	check(reap(pid), "the checks ran to their end");

	rm_cg(T);
	check(access(T, F_OK) == -1 && errno == ENOENT, "cleanup: T is gone");
	check(umount(dir) == 0, "umount");
	rmdir(dir);
	return 0;
}
