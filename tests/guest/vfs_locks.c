/* Advisory locks: fcntl F_GETLK/F_SETLK/F_SETLKW (ranges by l_whence,
 * l_start, l_len incl. 0 = to EOF and negative lengths; merging and
 * splitting; all of a process's locks on a file go when it closes any fd of
 * it; not inherited by fork; EDEADLK; EINTR; EBADF for the wrong mode),
 * F_OFD_* (per open file description, l_pid 0), flock(2) (LOCK_SH/EX/UN/NB,
 * per open file description, conversion) and /proc/locks. Children report
 * through their exit status (the line that failed). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"
#include "wait_util.h"
static char dir[64], path[128];

static int lk(int fd, int cmd, int type, int whence, long start, long len)
{
	struct flock fl = { .l_type = type, .l_whence = whence, .l_start = start, .l_len = len };

	return fcntl(fd, cmd, &fl);
}

/* F_GETLK (or F_OFD_GETLK) of [start, start+len): fills *out. */
static int getlk(int fd, int cmd, int type, long start, long len, struct flock *out)
{
	memset(out, 0, sizeof(*out));
	out->l_type = type;
	out->l_whence = SEEK_SET;
	out->l_start = start;
	out->l_len = len;
	return fcntl(fd, cmd, out);
}

#define C(cond)                                    \
	do {                                       \
		if (!(cond))                       \
			_exit(__LINE__ % 250 + 1); \
	} while (0)

/* Runs fn in a child; returns its exit status (0: all good). */
static int in_child(void (*fn)(int), int arg)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		fn(arg);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 200 + WTERMSIG(st);
}

static int report(int st, const char *what)
{
	if (st)
		printf("not ok %d - %s (child line %d)\n", ++n, what, st);
	else
		printf("ok %d - %s\n", ++n, what);
	return st;
}

static void child_sees_basic(int parent)
{
	int fd = open(path, O_RDWR);
	struct flock fl;

	C(fd >= 0);
	C(getlk(fd, F_GETLK, F_WRLCK, 5, 1, &fl) == 0);
	C(fl.l_type == F_WRLCK && fl.l_start == 0 && fl.l_len == 10 && fl.l_pid == parent &&
	  fl.l_whence == SEEK_SET);
	C(getlk(fd, F_GETLK, F_RDLCK, 10, 5, &fl) == 0 && fl.l_type == F_UNLCK);
	C(fl.l_start == 10 && fl.l_len == 5); /* untouched */
	C(lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 9, 1) == -1 && errno == EAGAIN);
	C(lk(fd, F_SETLK, F_RDLCK, SEEK_SET, 0, 1) == -1 && errno == EAGAIN);
	C(lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 10, 10) == 0);
}

static void child_sees_merged(int parent)
{
	int fd = open(path, O_RDWR);
	struct flock fl;

	(void)parent;
	C(fd >= 0);
	C(getlk(fd, F_GETLK, F_WRLCK, 15, 1, &fl) == 0);
	C(fl.l_type == F_WRLCK && fl.l_start == 0 && fl.l_len == 20);
}

static void child_sees_split(int parent)
{
	int fd = open(path, O_RDWR);
	struct flock fl;

	(void)parent;
	C(fd >= 0);
	C(getlk(fd, F_GETLK, F_WRLCK, 0, 100, &fl) == 0);
	C(fl.l_type == F_WRLCK && fl.l_start == 0 && fl.l_len == 5);
	C(getlk(fd, F_GETLK, F_WRLCK, 5, 5, &fl) == 0 && fl.l_type == F_UNLCK);
	C(getlk(fd, F_GETLK, F_WRLCK, 12, 1, &fl) == 0);
	C(fl.l_type == F_WRLCK && fl.l_start == 10 && fl.l_len == 10);
}

static void child_sees_read_eof(int parent)
{
	int fd = open(path, O_RDWR);
	struct flock fl;

	(void)parent;
	C(fd >= 0);
	C(lk(fd, F_SETLK, F_RDLCK, SEEK_SET, 3, 1) == 0);
	C(lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 1000, 1) == -1 && errno == EAGAIN);
	C(getlk(fd, F_GETLK, F_WRLCK, 1 << 20, 1, &fl) == 0);
	C(fl.l_type == F_RDLCK && fl.l_start == 0 && fl.l_len == 0);
}

static void child_sees_range(int parent)
{
	int fd = open(path, O_RDWR);
	struct flock fl;

	C(fd >= 0);
	C(getlk(fd, F_GETLK, F_WRLCK, 0, 0, &fl) == 0);
	C(fl.l_type == F_WRLCK && fl.l_start == parent && fl.l_len == 5);
}

static void child_free(int parent)
{
	int fd = open(path, O_RDWR);

	(void)parent;
	C(fd >= 0);
	C(lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 0, 0) == 0);
}

static void ranges(int fd)
{
	int me = getpid();

	check(lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 0, 10) == 0, "lock [0,10)");
	report(in_child(child_sees_basic, me),
	       "a child sees it with F_GETLK, conflicts, locks next");
	check(lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 10, 10) == 0, "lock [10,20): adjacent");
	report(in_child(child_sees_merged, 0), "the two merged into [0,20)");
	check(lk(fd, F_SETLK, F_UNLCK, SEEK_SET, 5, 5) == 0, "unlock [5,10)");
	report(in_child(child_sees_split, 0), "split into [0,5) and [10,20)");
	check(lk(fd, F_SETLK, F_RDLCK, SEEK_SET, 0, 0) == 0, "read lock [0,EOF) over them");
	report(in_child(child_sees_read_eof, 0), "shared with a reader; a writer conflicts");
	check(lk(fd, F_SETLK, F_UNLCK, SEEK_SET, 0, 0) == 0, "unlock all");
	check(lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 10, -5) == 0, "negative length: [5,10)");
	report(in_child(child_sees_range, 5), "seen as start 5 len 5");
	check(lk(fd, F_SETLK, F_UNLCK, SEEK_SET, 0, 0) == 0, "unlock all");
	lseek(fd, 50, SEEK_SET);
	check(lk(fd, F_SETLK, F_WRLCK, SEEK_CUR, -10, 5) == 0, "SEEK_CUR -10: [40,45)");
	report(in_child(child_sees_range, 40), "seen as start 40 len 5");
	check(lk(fd, F_SETLK, F_UNLCK, SEEK_SET, 0, 0) == 0, "unlock all");
	check(lk(fd, F_SETLK, F_WRLCK, SEEK_END, -3, 5) == 0, "SEEK_END -3 (size 100)");
	report(in_child(child_sees_range, 97), "seen as start 97 len 5");
	check(lk(fd, F_SETLK, F_UNLCK, SEEK_SET, 0, 0) == 0, "unlock all");
	report(in_child(child_free, 0), "free again");
	check_err(lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 2, -5), EINVAL, "range before 0");
	check_err(lk(fd, F_SETLK, F_WRLCK, SEEK_SET, -1, 1), EINVAL, "negative start");
	check_err(lk(fd, F_SETLK, F_WRLCK, 7, 0, 1), EINVAL, "bad whence");
	check_err(lk(fd, F_SETLK, 9, SEEK_SET, 0, 1), EINVAL, "bad type");
	check_err(lk(fd, F_GETLK, F_UNLCK, SEEK_SET, 0, 1), EINVAL, "F_GETLK of F_UNLCK");
	check(fcntl(fd, F_SETLK, (void *)16) == -1 && errno == EFAULT, "bad pointer: EFAULT");
}

static void modes(void)
{
	int rd = open(path, O_RDONLY), wr = open(path, O_WRONLY), pfd = open(path, O_PATH);

	check_err(lk(rd, F_SETLK, F_WRLCK, SEEK_SET, 0, 1), EBADF, "write lock on O_RDONLY");
	check_err(lk(wr, F_SETLK, F_RDLCK, SEEK_SET, 0, 1), EBADF, "read lock on O_WRONLY");
	check(lk(rd, F_SETLK, F_RDLCK, SEEK_SET, 0, 1) == 0, "read lock on O_RDONLY");
	check(lk(rd, F_SETLK, F_UNLCK, SEEK_SET, 0, 1) == 0, "unlock on O_RDONLY");
	check(lk(wr, F_SETLK, F_UNLCK, SEEK_SET, 0, 1) == 0, "unlock on O_WRONLY");
	check_err(lk(pfd, F_SETLK, F_UNLCK, SEEK_SET, 0, 1), EBADF, "O_PATH");
	check_err(flock(pfd, LOCK_SH), EBADF, "flock on O_PATH");
	check_err(lk(99, F_SETLK, F_RDLCK, SEEK_SET, 0, 1), EBADF, "closed fd");
	close(rd);
	close(wr);
	close(pfd);
}

static void close_any(void)
{
	int a = open(path, O_RDWR), b = open(path, O_RDONLY);

	check(lk(a, F_SETLK, F_WRLCK, SEEK_SET, 0, 0) == 0, "lock through fd a");
	report(in_child(child_sees_range, 0) == 0 ? 1 : 0, "a child is blocked");
	close(b);
	report(in_child(child_free, 0), "closing another fd of the file released it");
	close(a);
}

static void child_wait(int parent)
{
	int fd = open(path, O_RDWR);
	char c = 0;

	(void)parent;
	C(fd >= 0);
	C(lk(fd, F_SETLKW, F_WRLCK, SEEK_SET, 0, 1) == 0);
	C(pread(fd, &c, 1, 0) == 1 && c == 'U'); /* written just before the unlock */
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void child_eintr(int parent)
{
	int fd = open(path, O_RDWR);
	struct sigaction sa;
	struct itimerval it = { { 0, 100000 },
				{ 0, 100000 } }; /* repeats: a late call is still hit */

	(void)parent;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	C(lk(fd, F_SETLKW, F_WRLCK, SEEK_SET, 0, 1) == -1 && errno == EINTR);
}

static void waiting(void)
{
	int fd = open(path, O_RDWR), st;
	pid_t pid;

	check(lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 0, 0) == 0, "lock all");
	pwrite(fd, "x", 1, 0);
	pid = fork();
	if (pid == 0) {
		child_wait(0);
		_exit(0);
	}
	wait_blocked(pid);
	pwrite(fd, "U", 1, 0);
	lk(fd, F_SETLK, F_UNLCK, SEEK_SET, 0, 0);
	waitpid(pid, &st, 0);
	report(WIFEXITED(st) ? WEXITSTATUS(st) : 99, "F_SETLKW waits for the unlock");
	check(lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 0, 0) == 0, "lock all again");
	report(in_child(child_eintr, 0), "F_SETLKW interrupted by a handler: EINTR");
	close(fd);
}

static void deadlock(void)
{
	int fd = open(path, O_RDWR), st, sync[2];
	pid_t pid;
	char c;

	if (pipe(sync) < 0)
		return;
	check(lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 0, 1) == 0, "parent locks byte 0");
	pid = fork();
	if (pid == 0) {
		int cfd = open(path, O_RDWR);

		C(lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, 1, 1) == 0);
		write(sync[1], "x", 1);
		C(lk(cfd, F_SETLKW, F_WRLCK, SEEK_SET, 0, 1) == 0);
		_exit(0);
	}
	read(sync[0], &c, 1);
	wait_blocked(pid);
	check_err(lk(fd, F_SETLKW, F_WRLCK, SEEK_SET, 1, 1), EDEADLK,
		  "waiting for the child that waits for us");
	lk(fd, F_SETLK, F_UNLCK, SEEK_SET, 0, 1);
	waitpid(pid, &st, 0);
	report(WIFEXITED(st) ? WEXITSTATUS(st) : 99, "the child got byte 0 after the unlock");
	close(fd);
	close(sync[0]);
	close(sync[1]);
}

static void ofd(void)
{
	int a = open(path, O_RDWR), b = open(path, O_RDWR), d;
	struct flock fl;

	check(lk(a, F_OFD_SETLK, F_WRLCK, SEEK_SET, 0, 10) == 0, "OFD lock through a");
	check_err(lk(b, F_OFD_SETLK, F_WRLCK, SEEK_SET, 5, 1), EAGAIN,
		  "another description of the same process conflicts");
	check_err(lk(b, F_SETLK, F_WRLCK, SEEK_SET, 5, 1), EAGAIN, "a POSIX lock conflicts");
	check(getlk(b, F_OFD_GETLK, F_RDLCK, 0, 1, &fl) == 0 && fl.l_type == F_WRLCK &&
		      fl.l_pid == -1 && fl.l_len == 10,
	      "F_OFD_GETLK: l_pid -1");
	check(getlk(b, F_GETLK, F_RDLCK, 0, 1, &fl) == 0 && fl.l_type == F_WRLCK && fl.l_pid == -1,
	      "F_GETLK sees it too");
	check(getlk(a, F_OFD_GETLK, F_WRLCK, 0, 1, &fl) == 0 && fl.l_type == F_UNLCK,
	      "not a conflict for its own description");
	fl.l_type = F_WRLCK;
	fl.l_pid = 1;
	check_err(fcntl(a, F_OFD_SETLK, &fl), EINVAL, "F_OFD_SETLK with l_pid != 0");
	fl.l_pid = 1;
	check_err(fcntl(a, F_OFD_GETLK, &fl), EINVAL, "F_OFD_GETLK with l_pid != 0");
	d = dup(a);
	close(a);
	check_err(lk(b, F_OFD_SETLK, F_WRLCK, SEEK_SET, 5, 1), EAGAIN, "kept while a dup is open");
	close(d);
	check(lk(b, F_OFD_SETLK, F_WRLCK, SEEK_SET, 5, 1) == 0, "released with the last fd");
	check(lk(b, F_OFD_SETLK, F_UNLCK, SEEK_SET, 0, 0) == 0, "OFD unlock");
	close(b);
}

static void child_flock(int fd)
{
	C(flock(fd, LOCK_EX | LOCK_NB) == 0); /* the inherited description's lock */
	C(flock(fd, LOCK_UN) == 0);
}

static void child_flock_wait(int unused)
{
	int fd = open(path, O_RDONLY);

	(void)unused;
	C(flock(fd, LOCK_EX) == 0);
}

static void flocks(void)
{
	int a = open(path, O_RDONLY), b = open(path, O_RDONLY), c, d, st;
	pid_t pid;

	check(flock(a, LOCK_EX) == 0, "flock LOCK_EX");
	check(flock(a, LOCK_EX) == 0, "again: no change");
	check_err(flock(b, LOCK_EX | LOCK_NB), EAGAIN, "another description: EWOULDBLOCK");
	check_err(flock(b, LOCK_SH | LOCK_NB), EAGAIN, "shared too");
	check(lk(b, F_SETLK, F_RDLCK, SEEK_SET, 0, 0) == 0, "fcntl locks are independent");
	lk(b, F_SETLK, F_UNLCK, SEEK_SET, 0, 0);
	d = dup(a);
	check(flock(d, LOCK_SH) == 0, "a dup converts it to shared");
	check(flock(b, LOCK_SH | LOCK_NB) == 0, "now b shares it");
	check_err(flock(a, LOCK_EX | LOCK_NB), EAGAIN, "upgrade while b shares");
	check(flock(b, LOCK_UN) == 0, "b unlocks");
	c = open(path, O_RDONLY);
	check(flock(c, LOCK_EX | LOCK_NB) == 0, "the failed upgrade had dropped a's lock");
	check(flock(c, LOCK_UN) == 0, "unlock c");
	check(flock(a, LOCK_EX) == 0, "a locks again");
	report(in_child(child_flock, a), "a child shares the description and its lock");
	check(flock(a, LOCK_EX) == 0, "a locks again");
	pid = fork();
	if (pid == 0) {
		close(a); /* the inherited description would keep its lock */
		close(d);
		child_flock_wait(0);
		_exit(0);
	}
	wait_blocked(pid);
	close(a);
	close(d);
	waitpid(pid, &st, 0);
	report(WIFEXITED(st) ? WEXITSTATUS(st) : 99, "closing the last fd wakes a waiter");
	check_err(flock(b, LOCK_SH | LOCK_EX), EINVAL, "bad operation");
	check_err(flock(-1, LOCK_SH), EBADF, "bad fd");
	check(flock(b, LOCK_UN) == 0, "unlock without a lock");
	close(b);
	close(c);
}

/* s with every run of spaces made one (kernels have padded the lock type
 * differently: "READ " before, "READ" now). */
static void squeeze(char *s)
{
	char *d = s, *start = s;

	for (; *s; s++)
		if (*s != ' ' || d == start || d[-1] != ' ')
			*d++ = *s;
	*d = 0;
}

/* The number of the first line of the snapshot buf (lines squeezed,
 * NUL-separated, n of them) whose text after "N: " starts with want
 * (squeezed) and whose number is num (0: any); 0 if none. */
static int find_line(const char *buf, int n, const char *want_, int num)
{
	char want[160];
	int i;

	snprintf(want, sizeof(want), "%s", want_);
	squeeze(want);
	for (i = 0; i < n; i++, buf += strlen(buf) + 1) {
		const char *p = strchr(buf, ':');

		if (p && strncmp(p + 2, want, strlen(want)) == 0 && (!num || atoi(buf) == num))
			return atoi(buf);
	}
	return 0;
}

/* One read of /proc/locks into buf (squeezed, NUL-separated): its lines. */
static int snapshot(char *buf, size_t size)
{
	FILE *f = fopen("/proc/locks", "r");
	size_t len;
	char *line, *save = NULL, *d = buf;
	static char raw[65536];
	int n = 0;

	if (!f)
		return 0;
	len = fread(raw, 1, sizeof(raw) - 1, f);
	raw[len] = 0;
	fclose(f);
	for (line = strtok_r(raw, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		squeeze(line);
		if ((size_t)(d - buf) + strlen(line) + 1 > size)
			break;
		strcpy(d, line);
		d += strlen(line) + 1;
		n++;
	}
	return n;
}

/* Does /proc/locks list waiter under holder (one read: the host's locks
 * of other processes renumber the lines between two)? Looked at until it
 * does, at most 3 s: the waiter may not have queued yet. */
static int listed_under(const char *holder, const char *waiter)
{
	static char buf[65536];
	int i, n, num;

	for (i = 0; i < 300; i++) {
		n = snapshot(buf, sizeof(buf));
		num = find_line(buf, n, holder, 0);
		if (num && find_line(buf, n, waiter, num))
			return 1;
		sleep_ms(10);
	}
	return 0;
}

static int listed(const char *want)
{
	static char buf[65536];

	return find_line(buf, snapshot(buf, sizeof(buf)), want, 0) != 0;
}

/* A request that waits is listed under the lock it waits for, with that
 * lock's number and "-> " (Linux's locks_show), until it is granted. */
static void proc_locks_waiters(void)
{
	int fd = open(path, O_RDWR), fd2, st_;
	char holder[128], want[128], dev[64];
	struct stat st;
	pid_t c;

	fstat(fd, &st);
	snprintf(dev, sizeof(dev), "%02x:%02x:%lu", major(st.st_dev), minor(st.st_dev),
		 (unsigned long)st.st_ino);
	lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 7, 3);
	c = fork();
	if (c == 0) {
		int cfd = open(path, O_RDWR);

		_exit(lk(cfd, F_SETLKW, F_RDLCK, SEEK_SET, 8, 4) == 0 ? 0 : 1);
	}
	snprintf(holder, sizeof(holder), "POSIX  ADVISORY  WRITE %d %s 7 9", getpid(), dev);
	snprintf(want, sizeof(want), "-> POSIX  ADVISORY  READ  %d %s 8 11", c, dev);
	check(listed_under(holder, want), "/proc/locks: a POSIX waiter under its blocker");
	close(fd); /* the lock goes: the child gets its own */
	waitpid(c, &st_, 0);
	check(WIFEXITED(st_) && WEXITSTATUS(st_) == 0, "the waiter got its lock");
	check(!listed(want), "/proc/locks: the waiter's line goes once it is granted");

	fd2 = open(path, O_RDONLY);
	flock(fd2, LOCK_SH);
	c = fork();
	if (c == 0) {
		int cfd = open(path, O_RDONLY);

		close(fd2); /* the parent's description: its lock is held while open */
		_exit(flock(cfd, LOCK_EX) == 0 ? 0 : 1);
	}
	snprintf(holder, sizeof(holder), "FLOCK  ADVISORY  READ  %d %s 0 EOF", getpid(), dev);
	snprintf(want, sizeof(want), "-> FLOCK  ADVISORY  WRITE %d %s 0 EOF", c, dev);
	check(listed_under(holder, want), "/proc/locks: a flock waiter under its blocker");
	close(fd2);
	waitpid(c, &st_, 0);
	check(WIFEXITED(st_) && WEXITSTATUS(st_) == 0, "the flock waiter got its lock");
}

static void proc_locks(void)
{
	int fd = open(path, O_RDWR);
	struct stat st;
	char want[128], buf[65536], *line;
	FILE *f;
	size_t len;
	int found = 0;

	fstat(fd, &st);
	lk(fd, F_SETLK, F_WRLCK, SEEK_SET, 7, 3);
	snprintf(want, sizeof(want), "POSIX  ADVISORY  WRITE %d %02x:%02x:%lu 7 9", getpid(),
		 major(st.st_dev), minor(st.st_dev), (unsigned long)st.st_ino);
	f = fopen("/proc/locks", "r");
	if (f) {
		len = fread(buf, 1, sizeof(buf) - 1, f);
		buf[len] = 0;
		fclose(f);
		for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
			char *p = strchr(line, ':');

			if (p && strncmp(p + 2, want, strlen(want)) == 0)
				found++;
		}
	}
	check(found == 1, "/proc/locks shows the lock");
	close(fd);
	proc_locks_waiters();
}

int main(void)
{
	int fd;
	char data[100];

	setvbuf(stdout, NULL, _IONBF, 0);
	snprintf(dir, sizeof(dir), "/tmp/skas-locks.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_RDWR | O_CREAT, 0644);
	memset(data, 'x', sizeof(data));
	write(fd, data, sizeof(data));
	ranges(fd);
	close(fd);
	modes();
	close_any();
	waiting();
	deadlock();
	ofd();
	flocks();
	proc_locks();
	unlink(path);
	rmdir(dir);
	return 0;
}
