/* tests/scenario/cgroup_pids.c: cgroup v2's pids controller, run as root
 * in a fresh instance (or a fresh Linux with every controller on cgroup v2,
 * cgroup2 mounted on /sys/fs/cgroup): giving it with
 * cgroup.subtree_control and its errors, the files it adds, pids.max's
 * parse, what counts (threads, zombies until reaped, an exec's old
 * leader, a leader gone before its threads), forks and threads refused at
 * a limit here or above (EAGAIN, clone3 into a group too), the events
 * files, moves past the limit, the no-internal-process rule as a threaded
 * controller has it (thread roots), taking the controller back (open
 * files read ENODEV), the pids_localevents mount option, cgroup.stat's
 * counts and /proc/cgroups, charges kept after a task has gone (a traced
 * thread's, a zombie's) and the dying groups they keep. One TAP line per
 * check.
 *
 * The host kernel of the test machines binds pids to cgroup v1, so this
 * runs under skas only (tests/scenario/cgroup_pids.sh); every line is
 * what Linux 6.12.118 (Debian's) printed for it under tools/vmoracle.sh,
 * with every controller on cgroup v2 (only the pids of "# move" notes
 * differ). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ENAME
#include "../guest/tap.h"

#define CG "/sys/fs/cgroup"

static char T[256];

static char *P(const char *rel)
{
	static char bufs[8][512];
	static int i;
	char *b = bufs[i++ % 8];

	snprintf(b, 512, "%s%s", T, rel);
	return b;
}

static int wr(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t r;

	if (fd < 0)
		return -1;
	r = write(fd, s, strlen(s));
	if (r < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	close(fd);
	return 0;
}

static const char *rd(const char *path)
{
	static char bufs[4][4096];
	static int i;
	char *b = bufs[i++ % 4];
	int fd = open(path, O_RDONLY);
	ssize_t r;

	if (fd < 0)
		return "(none)";
	r = read(fd, b, 4095);
	close(fd);
	if (r < 0)
		return "(error)";
	b[r] = 0;
	return b;
}

/* The value of key's line in a flat-keyed file, or -1. */
static long keyed(const char *path, const char *key)
{
	const char *s = rd(path), *l;
	size_t k = strlen(key);

	for (l = s; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, key, k) == 0 && l[k] == ' ')
			return atol(l + k + 1);
	return -1;
}

static long num(const char *path)
{
	const char *s = rd(path);

	return s[0] >= '0' && s[0] <= '9' ? atol(s) : -1;
}

/* pids.current once it is want (a task's release follows the futex wake
 * pthread_join and waitid wait for), or what it is after 3 s. */
static long current_is(const char *path, long want)
{
	long v = -1;
	int i;

	for (i = 0; i < 300; i++) {
		v = num(path);
		if (v == want)
			break;
		usleep(10000);
	}
	return v;
}

/* keyed()'s value once it is want (a dying css goes after an RCU grace
 * period), or what it is after 3 s. */
static long keyed_is(const char *path, const char *key, long want)
{
	long v = -1;
	int i;

	for (i = 0; i < 300; i++) {
		v = keyed(path, key);
		if (v == want)
			break;
		usleep(10000);
	}
	return v;
}

static int has_token(const char *path, const char *tok)
{
	char buf[4096], *s, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", rd(path));
	for (s = strtok_r(buf, " \n", &save); s; s = strtok_r(NULL, " \n", &save))
		if (strcmp(s, tok) == 0)
			return 1;
	return 0;
}

static int move(pid_t pid, const char *group)
{
	char path[512], s[32];
	int r;

	snprintf(path, sizeof(path), "%s/cgroup.procs", group);
	snprintf(s, sizeof(s), "%d", (int)pid);
	r = wr(path, s);
	if (r < 0)
		printf("# move %d to %s: %s\n", (int)pid, group, strerror(errno));
	return r;
}

/* A worker: a process that does what it is told through a pipe, one byte
 * a command, and answers with an int (0 or an errno). */
struct worker {
	pid_t pid;
	int to, from;
};

static int block_r = -1, block_w = -1; /* its children and threads wait on it */
static pthread_t threads[16];
static int nthreads;
static pid_t kids[16];
static int nkids;

static void *blocked(void *arg)
{
	char c;

	(void)arg;
	(void)!read(block_r, &c, 1);
	return NULL;
}

static int serve_fd_in, serve_fd_out;
static int tid_pipe[2];

static void *tell_tid(void *arg)
{
	int tid = (int)syscall(SYS_gettid);

	(void)arg;
	if (write(tid_pipe[1], &tid, sizeof(tid)) != sizeof(tid))
		return NULL;
	return blocked(NULL);
}

static void *serve(void *arg);

static void worker_loop(int in, int out)
{
	char c;

	for (;;) {
		int ret = 0;
		pid_t k;

		if (read(in, &c, 1) != 1)
			_exit(0);
		switch (c) {
		case 'f': /* a child that waits */
			k = fork();
			if (k == 0) {
				close(block_w); /* EOF once the worker's goes */
				blocked(NULL);
				_exit(0);
			}
			if (k < 0)
				ret = errno;
			else
				kids[nkids++] = k;
			break;
		case 't': /* a thread that waits */
			ret = pthread_create(&threads[nthreads], NULL, blocked, NULL);
			if (ret == 0)
				nthreads++;
			break;
		case 'z': /* a child that exits at once, left a zombie */
			k = fork();
			if (k == 0)
				_exit(0);
			if (k < 0) {
				ret = errno;
			} else {
				siginfo_t si;

				waitid(P_PID, (id_t)k, &si, WEXITED | WNOWAIT);
			}
			break;
		case 'Z': /* the same, answered with its pid */
			k = fork();
			if (k == 0)
				_exit(0);
			if (k < 0) {
				ret = -errno;
			} else {
				siginfo_t si;

				waitid(P_PID, (id_t)k, &si, WEXITED | WNOWAIT);
				ret = (int)k;
			}
			break;
		case 'T': /* a thread that waits, answered with its tid */
			ret = pthread_create(&threads[nthreads], NULL, tell_tid, &out);
			if (ret == 0) {
				nthreads++;
				if (read(tid_pipe[0], &ret, sizeof(ret)) != sizeof(ret))
					ret = -1;
			}
			break;
		case 'w': /* reap the zombies */
			while (waitpid(-1, NULL, WNOHANG) > 0)
				;
			break;
		case 'k': { /* the waiting children and threads go */
			int fds[2];

			close(block_w);
			while (nthreads > 0)
				pthread_join(threads[--nthreads], NULL);
			while (nkids > 0)
				waitpid(kids[--nkids], NULL, 0);
			close(block_r);
			(void)!pipe(fds);
			block_r = fds[0];
			block_w = fds[1];
			break;
		}
		case 'e': { /* a second thread execs this program: a worker again */
			pthread_t th;

			serve_fd_in = in;
			serve_fd_out = out;
			ret = pthread_create(&th, NULL, serve, (void *)"exec");
			if (ret == 0)
				for (;;)
					pause();
			break;
		}
		case 'l': { /* the leader leaves; a second thread serves */
			pthread_t th;

			serve_fd_in = in;
			serve_fd_out = out;
			ret = pthread_create(&th, NULL, serve, (void *)"loop");
			if (ret == 0)
				pthread_exit(NULL);
			break;
		}
		case 'x':
			_exit(0);
		}
		if (write(out, &ret, sizeof(ret)) != sizeof(ret))
			_exit(1);
	}
}

static void *serve(void *arg)
{
	if (strcmp(arg, "exec") == 0) {
		char a[16], b[16];

		snprintf(a, sizeof(a), "%d", serve_fd_in);
		snprintf(b, sizeof(b), "%d", serve_fd_out);
		execl("/proc/self/exe", "cgroup_pids", "--worker", a, b, (char *)NULL);
		_exit(127);
	}
	{
		int ret = 0;

		if (write(serve_fd_out, &ret, sizeof(ret)) != sizeof(ret))
			_exit(1);
	}
	worker_loop(serve_fd_in, serve_fd_out);
	return NULL;
}

static struct worker spawn(const char *group)
{
	struct worker w = { -1, -1, -1 };
	int a[2], b[2];

	if (pipe(a) < 0 || pipe(b) < 0)
		return w;
	w.pid = fork();
	if (w.pid == 0) {
		int fds[2];

		close(a[1]);
		close(b[0]);
		(void)!pipe(tid_pipe);
		(void)!pipe(fds);
		block_r = fds[0];
		block_w = fds[1];
		worker_loop(a[0], b[1]);
	}
	close(a[0]);
	close(b[1]);
	w.to = a[1];
	w.from = b[0];
	if (group)
		move(w.pid, group);
	return w;
}

static int ask(struct worker *w, char c)
{
	int ret = -1;

	if (write(w->to, &c, 1) != 1 || read(w->from, &ret, sizeof(ret)) != sizeof(ret))
		return -1;
	return ret;
}

static void finish(struct worker *w)
{
	char c = 'x';

	(void)!write(w->to, &c, 1);
	close(w->to);
	close(w->from);
	waitpid(w->pid, NULL, 0);
}

static void check_eq(const char *what, const char *got, const char *want)
{
	if (strcmp(got, want) == 0) {
		check(1, what);
	} else {
		check(0, what);
		printf("# got '%s', want '%s'\n", got, want);
	}
}

static void check_num(const char *what, long got, long want)
{
	check(got == want, what);
	if (got != want)
		printf("# got %ld, want %ld\n", got, want);
}

static int rmgroup(const char *path)
{
	int i;

	for (i = 0; i < 300; i++) {
		if (rmdir(path) == 0 || errno == ENOENT)
			return 0;
		usleep(10000);
	}
	return -1;
}

static void pidsmax_parse(void)
{
	const char *m = P("/L/pids.max");

	check(wr(m, "max") == 0 && strcmp(rd(m), "max\n") == 0, "pids.max: max");
	check(wr(m, "0") == 0 && strcmp(rd(m), "0\n") == 0, "pids.max: 0");
	check(wr(m, " 5 \n") == 0 && strcmp(rd(m), "5\n") == 0, "pids.max: white space around");
	check(wr(m, "0x10") == 0 && strcmp(rd(m), "16\n") == 0, "pids.max: 0x10 is 16");
	check(wr(m, "010") == 0 && strcmp(rd(m), "8\n") == 0, "pids.max: 010 is 8");
	check(wr(m, "+7") == 0 && strcmp(rd(m), "7\n") == 0, "pids.max: +7");
	check(wr(m, "4194304") == 0 && strcmp(rd(m), "4194304\n") == 0,
	      "pids.max: 4194304 (PID_MAX_LIMIT)");
	check_err(wr(m, "4194305"), EINVAL, "pids.max: 4194305");
	check_err(wr(m, "-1"), EINVAL, "pids.max: -1");
	check_err(wr(m, "abc"), EINVAL, "pids.max: abc");
	check_err(wr(m, "5x"), EINVAL, "pids.max: 5x");
	check_err(wr(m, "MAX"), EINVAL, "pids.max: MAX");
	check_err(wr(m, "99999999999999999999"), ERANGE, "pids.max: past 64 bits");
	check_err(wr(m, "99999999999999999999x"), ERANGE, "pids.max: past 64 bits, then junk");
	check_err(wr(m, "9223372036854775808"), ERANGE, "pids.max: past a long long");
	check_err(wr(m, "- 1"), EINVAL, "pids.max: a sign apart");
	check(strcmp(rd(m), "4194304\n") == 0, "pids.max: a refused write changes nothing");
	check(wr(m, "max") == 0, "pids.max: max again");
}

static void subtree_control_errors(void)
{
	check_err(wr(P("/cgroup.subtree_control"), "pids"), EINVAL,
		  "subtree_control: a name without a sign");
	check_err(wr(P("/cgroup.subtree_control"), "+nosuch"), EINVAL,
		  "subtree_control: an unknown controller");
	check_err(wr(P("/cgroup.subtree_control"), "*pids"), EINVAL,
		  "subtree_control: another sign");
	check(mkdir(P("/L/X"), 0755) == 0, "a grandchild");
	check_err(wr(P("/L/X/cgroup.subtree_control"), "+pids"), ENOENT,
		  "subtree_control: +pids where the parent does not give it");
	check(wr(P("/L/X/cgroup.subtree_control"), "-pids") == 0,
	      "subtree_control: -pids where it is not given: nothing");
	check(rmdir(P("/L/X")) == 0, "the grandchild removed");
	check(wr(P("/cgroup.subtree_control"), "-pids +pids") == 0 &&
		      strcmp(rd(P("/cgroup.subtree_control")), "pids\n") == 0,
	      "subtree_control: the last token for a controller wins");
	check(wr(P("/cgroup.subtree_control"), "  +pids  ") == 0,
	      "subtree_control: +pids again, spaces around");
	check_err(wr(CG "/cgroup.subtree_control", "-pids"), EBUSY,
		  "subtree_control: -pids while a child gives it");
}

static void counting(void)
{
	const char *cur = P("/L/pids.current");
	struct worker w = spawn(P("/L"));

	check_num("a process moved in: pids.current 1", num(cur), 1);
	check_num("the parent counts it too", num(P("/pids.current")), 1);
	check(ask(&w, 't') == 0 && ask(&w, 't') == 0, "two threads made");
	check_num("threads count: 3", num(cur), 3);
	check(ask(&w, 'f') == 0, "a child forked");
	check_num("the child counts: 4", num(cur), 4);
	check(ask(&w, 'z') == 0, "a child that exited, not reaped");
	check_num("a zombie counts: 5", num(cur), 5);
	check(ask(&w, 'w') == 0, "reaped");
	check_num("reaped: 4", current_is(cur, 4), 4);
	check(ask(&w, 'k') == 0, "threads joined, child waited for");
	check_num("back to 1", current_is(cur, 1), 1);
	check_num("pids.peak: 5", num(P("/L/pids.peak")), 5);
	check_num("the parent's pids.peak: 5", num(P("/pids.peak")), 5);
	check(ask(&w, 't') == 0, "a thread again");
	check(ask(&w, 'e') == 0, "the second thread execs");
	check_num("after the exec: 1 (the old leader released)", current_is(cur, 1), 1);
	check(ask(&w, 't') == 0 && num(cur) == 2, "the new image makes a thread: 2");
	check(ask(&w, 'k') == 0 && current_is(cur, 1) == 1, "and joins it: 1");
	check(ask(&w, 'l') == 0, "the leader leaves, a thread serves");
	check_num("a leader gone before its threads counts: 2", current_is(cur, 2), 2);
	finish(&w);
	check_num("the process reaped: 0", current_is(cur, 0), 0);
}

static int clone3_into(int dirfd)
{
	struct {
		uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls,
			set_tid, set_tid_size, cgroup;
	} args = { .flags = 0x200000000ULL /* CLONE_INTO_CGROUP */,
		   .exit_signal = SIGCHLD,
		   .cgroup = (uint64_t)dirfd };
	long pid = syscall(SYS_clone3, &args, sizeof(args));

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid((pid_t)pid, NULL, 0);
	return (int)pid;
}

static void limits(void)
{
	struct worker w = spawn(P("/L")), v;
	int dirfd;

	check(wr(P("/L/pids.max"), "2") == 0, "L's pids.max 2");
	check(ask(&w, 'f') == 0, "a fork to 2");
	check_num("a fork past it: EAGAIN", ask(&w, 'f'), EAGAIN);
	check_num("a thread past it: EAGAIN", ask(&w, 't'), EAGAIN);
	check_num("L's pids.events: max 2", keyed(P("/L/pids.events"), "max"), 2);
	check_num("L's pids.events.local: max 2", keyed(P("/L/pids.events.local"), "max"), 2);
	check_num("the parent's pids.events: max 2 (a limit below it)",
		  keyed(P("/pids.events"), "max"), 2);
	check_num("the parent's pids.events.local: max 0", keyed(P("/pids.events.local"), "max"),
		  0);
	dirfd = open(P("/L"), O_RDONLY | O_DIRECTORY);
	check_err(clone3_into(dirfd), EAGAIN, "clone3 CLONE_INTO_CGROUP into L at its limit");
	check_num("L's pids.events: max 3", keyed(P("/L/pids.events"), "max"), 3);
	check_num("the parent's pids.events: max 3", keyed(P("/pids.events"), "max"), 3);
	close(dirfd);

	/* a limit above: the parent's */
	check(wr(P("/L/pids.max"), "max") == 0 && wr(P("/pids.max"), "3") == 0,
	      "L without a limit, the parent's 3");
	v = spawn(P("/M"));
	check_num("M's process makes 3", num(P("/pids.current")), 3);
	check_num("a fork in M past the parent's limit: EAGAIN", ask(&v, 'f'), EAGAIN);
	check_num("M's pids.events: max 0 (not its limit)", keyed(P("/M/pids.events"), "max"), 0);
	check_num("the parent's pids.events: max 4 (L's 3, its own 1)",
		  keyed(P("/pids.events"), "max"), 4);
	check_num("the parent's pids.events.local: max 1", keyed(P("/pids.events.local"), "max"),
		  1);
	check_num("M's pids.events.local: max 0", keyed(P("/M/pids.events.local"), "max"), 0);

	/* moves are never refused for it */
	check(wr(P("/pids.max"), "max") == 0 && wr(P("/L/pids.max"), "1") == 0,
	      "L's pids.max 1, with 2 in it");
	check(move(v.pid, P("/L")) == 0, "a process moved into L past its limit");
	check_num("L's pids.current 3 > pids.max 1", num(P("/L/pids.current")), 3);
	check_num("L's pids.peak 5 (since it was made)", num(P("/L/pids.peak")), 5);
	check_num("M's pids.current 0", num(P("/M/pids.current")), 0);
	check(ask(&w, 'k') == 0 && current_is(P("/L/pids.current"), 2) == 2,
	      "the waiting child gone: 2");
	check(wr(P("/L/pids.max"), "max") == 0, "L's limit off");
	finish(&w);
	finish(&v);

	/* pids_localevents: pids.events counts the forks refused from the
	 * group, wherever the limit was (before 6.11's meaning) */
	check(mount(NULL, CG, NULL, MS_REMOUNT, "pids_localevents") == 0,
	      "remount with pids_localevents");
	check_num("L's pids.events: max 3 (refused in it)", keyed(P("/L/pids.events"), "max"), 3);
	check_num("M's pids.events: max 1 (refused in it)", keyed(P("/M/pids.events"), "max"), 1);
	check_num("the parent's pids.events: max 0 (none refused in it)",
		  keyed(P("/pids.events"), "max"), 0);
	check_num("the parent's pids.events.local too: max 0",
		  keyed(P("/pids.events.local"), "max"), 0);
	check_num("L's pids.events.local: max 3", keyed(P("/L/pids.events.local"), "max"), 3);
	check(mount(NULL, CG, NULL, MS_REMOUNT, "") == 0, "remount without it");
	check_num("the parent's pids.events: max 4 again", keyed(P("/pids.events"), "max"), 4);
	check_num("the parent's pids.events.local: max 1 again",
		  keyed(P("/pids.events.local"), "max"), 1);
}

static void internal_processes(void)
{
	struct worker w = spawn(P("/L")), v;

	check_err(move(getpid(), P("")), EBUSY,
		  "a process into a group that gives pids, with a populated child: EBUSY");
	v = spawn(NULL);
	check_err(move(v.pid, P("")), EBUSY, "(so for any process)");
	finish(&w);
	(void)current_is(P("/L/pids.current"), 0);
	check(move(v.pid, P("")) == 0,
	      "no child populated: a process may join a group that gives pids");
	check_eq("which makes it a thread root", rd(P("/cgroup.type")), "domain threaded\n");
	check_eq("and its children invalid domains", rd(P("/M/cgroup.type")), "domain invalid\n");
	check_err(move(v.pid, P("/M")), EOPNOTSUPP, "a process into an invalid domain");
	check_err(wr(P("/M/cgroup.subtree_control"), "+pids"), EOPNOTSUPP,
		  "+pids to an invalid domain");
	check(move(getpid(), P("/M/")) != 0 && mkdir(P("/M/Y"), 0755) == 0 &&
		      strcmp(rd(P("/M/Y/cgroup.type")), "domain invalid\n") == 0 &&
		      rmdir(P("/M/Y")) == 0,
	      "a new group below it is an invalid domain too");
	check(move(v.pid, CG) == 0, "the process leaves for the root");
	check_eq("a domain again", rd(P("/cgroup.type")), "domain\n");
	check_eq("its children too", rd(P("/M/cgroup.type")), "domain\n");
	check(move(v.pid, P("/M")) == 0, "the process moves on to a child");
	check(wr(P("/cgroup.subtree_control"), "-pids") == 0, "-pids with a populated child");
	check(move(v.pid, P("")) == 0, "the process back in the group, which gives nothing");
	w = spawn(P("/L"));
	check_err(wr(P("/cgroup.subtree_control"), "+pids"), EBUSY,
		  "+pids with a process of its own and a populated child: EBUSY");
	finish(&w);
	(void)current_is(P("/pids.current"), 1);
	check(wr(P("/cgroup.subtree_control"), "+pids") == 0,
	      "+pids with a process of its own, no child populated");
	check(move(v.pid, CG) == 0, "the process leaves");
	finish(&v);
}

static void take_back(void)
{
	struct worker w = spawn(P("/L"));
	int fd = open(P("/L/pids.current"), O_RDONLY);
	char buf[64];
	struct stat st;

	check(wr(P("/L/pids.max"), "7") == 0, "L's pids.max 7");
	check(wr(P("/cgroup.subtree_control"), "-pids") == 0, "-pids");
	check_eq("the parent's subtree_control empty", rd(P("/cgroup.subtree_control")), "");
	check_eq("L's cgroup.controllers empty", rd(P("/L/cgroup.controllers")), "");
	check_err(stat(P("/L/pids.max"), &st), ENOENT, "L's pids.max gone");
	check_err(read(fd, buf, sizeof(buf)), ENODEV, "an open pids.current of L reads ENODEV");
	check_num("the parent still counts: 1", num(P("/pids.current")), 1);
	check_num("cgroup.stat: nr_subsys_pids of the parent 1",
		  keyed(P("/cgroup.stat"), "nr_subsys_pids"), 1);
	check_num("cgroup.stat: nr_subsys_pids of L 0",
		  keyed_is(P("/L/cgroup.stat"), "nr_subsys_pids", 0), 0);
	check(ask(&w, 't') == 0, "L's process makes a thread");
	check(wr(P("/cgroup.subtree_control"), "+pids") == 0, "+pids again");
	check_eq("L's pids.max made again: max", rd(P("/L/pids.max")), "max\n");
	check_num("L's pids.current 2", num(P("/L/pids.current")), 2);
	check_num("L's pids.peak 2 (its new count)", num(P("/L/pids.peak")), 2);
	check_num("L's pids.events: max 0", keyed(P("/L/pids.events"), "max"), 0);
	check_err(read(fd, buf, sizeof(buf)), ENODEV, "the file opened before still reads ENODEV");
	close(fd);
	check(ask(&w, 'k') == 0, "the thread joined");
	finish(&w);
	check_num("cgroup.stat: nr_subsys_pids of the parent 3",
		  keyed(P("/cgroup.stat"), "nr_subsys_pids"), 3);
	check_num("cgroup.stat: nr_dying_subsys_pids 0",
		  keyed_is(P("/cgroup.stat"), "nr_dying_subsys_pids", 0), 0);
}

static void files(void)
{
	struct stat st;

	check(has_token(CG "/cgroup.controllers", "pids"), "the root's cgroup.controllers: pids");
	check_err(stat(CG "/pids.max", &st), ENOENT, "the root has no pids.max");
	check_err(stat(CG "/pids.current", &st), ENOENT, "the root has no pids.current");
	check_err(stat(P("/pids.max"), &st), ENOENT, "no pids.max before the root gives pids");
	check(wr(CG "/cgroup.subtree_control", "+pids") == 0, "+pids to the root");
	check(has_token(CG "/cgroup.subtree_control", "pids"), "the root's subtree_control: pids");
	check_eq("the group's cgroup.controllers", rd(P("/cgroup.controllers")), "pids\n");
	check_eq("the group's pids.max", rd(P("/pids.max")), "max\n");
	check_eq("the group's pids.current", rd(P("/pids.current")), "0\n");
	check_eq("the group's pids.peak", rd(P("/pids.peak")), "0\n");
	check_eq("the group's pids.events", rd(P("/pids.events")), "max 0\n");
	check_eq("the group's pids.events.local", rd(P("/pids.events.local")), "max 0\n");
	check(stat(P("/pids.max"), &st) == 0 && (st.st_mode & 07777) == 0644,
	      "pids.max's mode 0644");
	check(stat(P("/pids.current"), &st) == 0 && (st.st_mode & 07777) == 0444,
	      "pids.current's mode 0444");
	check(mkdir(P("/L"), 0755) == 0 && mkdir(P("/M"), 0755) == 0, "two children");
	check_err(stat(P("/L/pids.max"), &st), ENOENT, "a child's pids.max: not given yet");
	check(wr(P("/cgroup.subtree_control"), "+pids") == 0, "+pids to the group");
	check_eq("the child's pids.max", rd(P("/L/pids.max")), "max\n");
	check_num("cgroup.stat: nr_subsys_pids 3", keyed(P("/cgroup.stat"), "nr_subsys_pids"), 3);
	check(strstr(rd("/proc/cgroups"), "\npids\t0\t4\t1\n") != NULL,
	      "/proc/cgroups: pids on cgroup v2 (hierarchy 0), 4 groups");
}

static void dying(void)
{
	struct worker w = spawn(P("/L"));
	long before = keyed(P("/cgroup.stat"), "nr_dying_subsys_pids");

	check(ask(&w, 'z') == 0, "a zombie in L");
	check(move(w.pid, P("/M")) == 0, "its parent moves to M");
	check(rmdir(P("/L")) == 0, "L removed with the zombie in it");
	check_num("the parent's pids.current still counts the zombie: 2", num(P("/pids.current")),
		  2);
	check_num("nr_dying_subsys_pids one more", keyed(P("/cgroup.stat"), "nr_dying_subsys_pids"),
		  before + 1);
	check(ask(&w, 'w') == 0, "the zombie reaped");
	check_num("the parent's pids.current 1", current_is(P("/pids.current"), 1), 1);
	check_num("nr_dying_subsys_pids back",
		  keyed_is(P("/cgroup.stat"), "nr_dying_subsys_pids", before), before);
	finish(&w);
}

/* Charges a task keeps after it has gone until it is released: a traced
 * thread's until its tracer waits, a zombie's where it was made (a
 * controller given or taken back moves only the live tasks), and the
 * removed groups they keep dying; a fork refused above still raised the
 * peaks below; a clone that fails before its charge counts nothing. */
static void held(void)
{
	struct worker w, v;
	int tid, z, dirfd, pidfd, st;
	struct {
		uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls,
			set_tid, set_tid_size, cgroup;
	} args;

	check(mkdir(P("/Q"), 0755) == 0 && mkdir(P("/Q/R"), 0755) == 0, "Q and Q/R made");
	w = spawn(P("/Q"));
	tid = ask(&w, 'T');
	check(tid > 0 && ptrace(PTRACE_SEIZE, tid, 0, 0) == 0, "a thread of Q's process traced");
	check(ask(&w, 'k') == 0, "the thread exits, joined");
	check_num("Q's pids.current 2 until the tracer hears", current_is(P("/Q/pids.current"), 2),
		  2);
	check(waitpid(tid, &st, __WALL) == tid, "the tracer waits for the thread");
	check_num("Q's pids.current 1", current_is(P("/Q/pids.current"), 1), 1);
	finish(&w);

	v = spawn(P("/Q/R"));
	z = ask(&v, 'Z');
	check(z > 0, "a zombie in Q/R");
	check(wr(P("/Q/cgroup.subtree_control"), "+pids") == 0, "+pids to Q");
	check_num("Q/R's pids.current 1: the zombie's charge stays in Q",
		  num(P("/Q/R/pids.current")), 1);
	check_num("Q/R's pids.peak 1", num(P("/Q/R/pids.peak")), 1);
	check_num("Q's pids.current 2", num(P("/Q/pids.current")), 2);
	check(ask(&v, 'w') == 0 && current_is(P("/Q/pids.current"), 1) == 1 &&
		      num(P("/Q/R/pids.current")) == 1,
	      "reaped: Q 1, Q/R 1");
	z = ask(&v, 'Z');
	check(z > 0 && wr(P("/Q/cgroup.subtree_control"), "-pids") == 0,
	      "another zombie, made in Q/R's css; -pids to Q");
	check_num("its css dying: the parent's nr_dying_subsys_pids 1",
		  keyed(P("/cgroup.stat"), "nr_dying_subsys_pids"), 1);
	check_num("Q's nr_dying_subsys_pids 1", keyed(P("/Q/cgroup.stat"), "nr_dying_subsys_pids"),
		  1);
	check(wr(P("/Q/cgroup.subtree_control"), "+pids") == 0, "+pids to Q again");
	check_num("Q/R's new pids.current 1 (the zombie's is in the old one)",
		  num(P("/Q/R/pids.current")), 1);
	check(ask(&v, 'w') == 0, "reaped");
	check_num("the old css goes: nr_dying_subsys_pids 0",
		  keyed_is(P("/cgroup.stat"), "nr_dying_subsys_pids", 0), 0);
	check_num("Q's pids.current 1", current_is(P("/Q/pids.current"), 1), 1);

	check(wr(P("/Q/pids.max"), "1") == 0, "Q's pids.max 1");
	check_num("a fork in Q/R refused at Q", ask(&v, 'f'), EAGAIN);
	check_num("Q/R's pids.peak 2: it was charged on the way", num(P("/Q/R/pids.peak")), 2);
	check_num("Q's pids.peak 3: a task moved between csses is charged to the new one first",
		  num(P("/Q/pids.peak")), 3);
	dirfd = open(P("/Q/R"), O_RDONLY | O_DIRECTORY);
	memset(&args, 0, sizeof(args));
	args.flags = 0x200000000ULL /* CLONE_INTO_CGROUP */ | CLONE_PIDFD;
	args.pidfd = 1; /* not writable */
	args.exit_signal = SIGCHLD;
	args.cgroup = (uint64_t)dirfd;
	check_err(syscall(SYS_clone3, &args, sizeof(args)), EFAULT,
		  "clone3 into Q/R, a bad pidfd pointer: EFAULT before the limit");
	check_num("Q's pids.events.local: max 1 (that one not counted)",
		  keyed(P("/Q/pids.events.local"), "max"), 1);
	close(dirfd);
	check(wr(P("/Q/pids.max"), "max") == 0, "Q's limit off");

	z = ask(&v, 'Z');
	check(z > 0 && move(v.pid, CG) == 0, "a zombie in Q/R, its parent gone to the root");
	pidfd = (int)syscall(SYS_pidfd_open, z, 0);
	check(pidfd >= 0 && rmdir(P("/Q/R")) == 0 && rmdir(P("/Q")) == 0,
	      "a pidfd of the zombie; Q/R and Q removed");
	check_num("both dying: nr_dying_descendants 2",
		  keyed(P("/cgroup.stat"), "nr_dying_descendants"), 2);
	check_num("nr_dying_subsys_pids 2", keyed(P("/cgroup.stat"), "nr_dying_subsys_pids"), 2);
	check(ask(&v, 'w') == 0, "reaped, the pidfd still open");
	check_num("none dying", keyed_is(P("/cgroup.stat"), "nr_dying_descendants", 0), 0);
	check_num("no css dying", keyed_is(P("/cgroup.stat"), "nr_dying_subsys_pids", 0), 0);
	close(pidfd);
	finish(&v);
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "--worker") == 0) {
		int fds[2];

		(void)!pipe(fds);
		block_r = fds[0];
		block_w = fds[1];
		{
			int ret = 0;

			if (write(atoi(argv[3]), &ret, sizeof(ret)) != sizeof(ret))
				_exit(1);
		}
		worker_loop(atoi(argv[2]), atoi(argv[3]));
	}
	snprintf(T, sizeof(T), CG "/pidtest-%d", (int)getpid());
	if (mkdir(T, 0755) < 0) {
		printf("not ok 1 - mkdir %s: %s\n", T, strerror(errno));
		return 1;
	}
	files();
	pidsmax_parse();
	subtree_control_errors();
	counting();
	limits();
	internal_processes();
	take_back();
	dying();
	held();
	rmgroup(P("/L"));
	rmgroup(P("/M"));
	check(rmgroup(T) == 0, "groups removed");
	return 0;
}
