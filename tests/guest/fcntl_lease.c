/* File leases: fcntl F_SETLEASE / F_GETLEASE. Read and write leases per
 * open file description, their EAGAIN conflicts with other opens and
 * leases, EINVAL for a directory, a pipe or a bad type, EAGAIN to unlock
 * none, EACCES for a non-owner; the holder becomes the file's owner and
 * loses it (and F_SETSIG) with the lease. Breaking: an open for writing,
 * truncate(2) or (of a write lease) a read-only open by another process
 * signals the holder (SIGIO, or F_SETSIG's with si_fd, si_code POLL_MSG)
 * and waits until the holder unlocks or downgrades (F_GETLEASE then says
 * the type asked for); O_NONBLOCK is EWOULDBLOCK; O_RDONLY|O_TRUNC does
 * not break a read lease. /proc/locks' LEASE lines (ACTIVE, BREAKING and
 * the BREAKER under it). The last close of the file removes the lease.
 * Signals are blocked and taken with sigtimedwait; nothing waits for
 * lease-break-time. Children report through their exit status. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"
#include "wait_util.h"

static char dir[64], path[128];

/* The signal of set that is pending or comes within 5 s (0: none). */
static int take(int sig, siginfo_t *si)
{
	struct timespec ts = { 5, 0 };
	sigset_t set;
	int r;

	sigemptyset(&set);
	sigaddset(&set, sig);
	memset(si, 0, sizeof(*si));
	do
		r = sigtimedwait(&set, si, &ts);
	while (r < 0 && errno == EINTR);
	return r < 0 ? 0 : r;
}

static int pending(int sig)
{
	sigset_t set;

	sigpending(&set);
	return sigismember(&set, sig);
}

static int child_status(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The lease line of our file (after "N: "), and its number, in one read
 * of /proc/locks (the host's: other files' lines come and go); with want
 * a breaker line numbered as it must follow. */
static int lease_line(const char *want, const char *breaker)
{
	static char buf[65536];
	char *line, *save = NULL, *colon;
	int num = 0, found = 0;
	size_t len;
	FILE *f = fopen("/proc/locks", "r");

	if (!f)
		return 0;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	buf[len] = 0;
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		colon = strchr(line, ':');
		if (!colon || colon[1] != ' ')
			continue;
		if (!num && strcmp(colon + 2, want) == 0) {
			num = atoi(line);
			found = !breaker;
		} else if (num && breaker && atoi(line) == num && strcmp(colon + 2, breaker) == 0) {
			found = 1;
		}
	}
	return found;
}

/* Looks (up to 3 s) until /proc/locks shows the lease line with the
 * breaker under it: the breaker may not have queued yet. */
static int lease_listed(const char *want, const char *breaker)
{
	int i;

	for (i = 0; i < 300; i++) {
		if (lease_line(want, breaker))
			return 1;
		sleep_ms(10);
	}
	return 0;
}

static void fmt_lease(char *buf, size_t size, const char *state, const char *type)
{
	struct stat st;

	stat(path, &st);
	snprintf(buf, size, "LEASE  %s %s %d %02x:%02x:%lu 0 EOF", state, type, (int)getpid(),
		 major(st.st_dev), minor(st.st_dev), (unsigned long)st.st_ino);
}

/* Set, get, change and remove; the conflicts of F_SETLEASE. */
static void set_get(void)
{
	int fd = open(path, O_RDONLY), fd2, rw, dfd, p[2];
	char want[160];

	check(fcntl(fd, F_GETLEASE) == F_UNLCK, "no lease: F_GETLEASE is F_UNLCK");
	check_err(fcntl(fd, F_SETLEASE, F_UNLCK), EAGAIN, "F_UNLCK of no lease");
	check_err(fcntl(fd, F_SETLEASE, 7), EINVAL, "F_SETLEASE of a bad type");
	check(fcntl(fd, F_GETOWN) == 0, "no owner before");
	check(fcntl(fd, F_SETLEASE, F_RDLCK) == 0, "read lease on an O_RDONLY fd");
	check(fcntl(fd, F_GETLEASE) == F_RDLCK, "F_GETLEASE: F_RDLCK");
	check(fcntl(fd, F_GETOWN) == getpid(), "the holder owns the file");
	fmt_lease(want, sizeof(want), "ACTIVE   ", "READ");
	check(lease_line(want, NULL), "/proc/locks: LEASE ACTIVE READ");
	check(fcntl(fd, F_SETLEASE, F_WRLCK) == 0, "upgraded to a write lease");
	check(fcntl(fd, F_GETLEASE) == F_WRLCK, "F_GETLEASE: F_WRLCK");
	fmt_lease(want, sizeof(want), "ACTIVE   ", "WRITE");
	check(lease_line(want, NULL), "/proc/locks: LEASE ACTIVE WRITE");
	check(fcntl(fd, F_SETLEASE, F_RDLCK) == 0, "downgraded to a read lease");
	check(fcntl(fd, F_SETSIG, SIGUSR1) == 0, "F_SETSIG");
	check(fcntl(fd, F_SETLEASE, F_UNLCK) == 0, "F_UNLCK");
	check(fcntl(fd, F_GETLEASE) == F_UNLCK, "F_GETLEASE: F_UNLCK after it");
	check(fcntl(fd, F_GETOWN) == 0 && fcntl(fd, F_GETSIG) == 0,
	      "the owner and F_SETSIG went with the lease");
	check_err(fcntl(fd, F_SETLEASE, F_UNLCK), EAGAIN, "F_UNLCK again");

	fd2 = open(path, O_RDONLY);
	check(fcntl(fd, F_SETLEASE, F_RDLCK) == 0 && fcntl(fd2, F_SETLEASE, F_RDLCK) == 0,
	      "two read leases of two open files");
	check_err(fcntl(fd, F_SETLEASE, F_WRLCK), EAGAIN, "write lease beside another lease");
	check(fcntl(fd2, F_SETLEASE, F_UNLCK) == 0, "the other one unlocked");
	check_err(fcntl(fd, F_SETLEASE, F_WRLCK), EAGAIN, "write lease, the file open elsewhere");
	close(fd2);
	check(fcntl(fd, F_SETLEASE, F_WRLCK) == 0, "write lease once that is closed");
	fcntl(fd, F_SETLEASE, F_UNLCK);

	rw = open(path, O_RDWR);
	check_err(fcntl(rw, F_SETLEASE, F_RDLCK), EAGAIN, "read lease on an O_RDWR fd");
	check_err(fcntl(fd, F_SETLEASE, F_RDLCK), EAGAIN, "read lease, the file open for writing");
	check_err(fcntl(rw, F_SETLEASE, F_WRLCK), EAGAIN, "write lease, the file open read-only");
	close(fd);
	check(fcntl(rw, F_SETLEASE, F_WRLCK) == 0, "write lease on the only (O_RDWR) open");
	check_err(fcntl(rw, F_SETLEASE, F_RDLCK), EAGAIN, "its downgrade: open for writing");
	check(fcntl(rw, F_GETLEASE) == F_WRLCK, "still a write lease");
	fcntl(rw, F_SETLEASE, F_UNLCK);
	close(rw);

	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	check_err(fcntl(dfd, F_SETLEASE, F_RDLCK), EINVAL, "read lease on a directory");
	check_err(fcntl(dfd, F_SETLEASE, F_UNLCK), EINVAL, "F_UNLCK on a directory");
	check(fcntl(dfd, F_GETLEASE) == F_UNLCK, "F_GETLEASE of a directory");
	close(dfd);
	pipe(p);
	check_err(fcntl(p[0], F_SETLEASE, F_RDLCK), EINVAL, "read lease on a pipe");
	check(fcntl(p[0], F_GETLEASE) == F_UNLCK, "F_GETLEASE of a pipe");
	close(p[0]);
	close(p[1]);
}

/* A process that does not own the file has no CAP_LEASE once it is
 * nobody (natively as a user: the check holds as printed). */
static void not_owner(void)
{
	pid_t pid;

	if (geteuid() != 0) {
		check(1, "non-owner's read lease -> EACCES");
		return;
	}
	pid = fork();
	if (pid == 0) {
		int fd = open(path, O_RDONLY);

		if (fd < 0 || setresgid(65534, 65534, 65534) < 0 ||
		    setresuid(65534, 65534, 65534) < 0)
			_exit(2);
		_exit(fcntl(fd, F_SETLEASE, F_RDLCK) < 0 && errno == EACCES ? 0 : 1);
	}
	check(child_status(pid) == 0, "non-owner's read lease -> EACCES");
}

/* A child that opens (or truncates) path: exit 0 if it did, or with
 * would_block if it failed with EWOULDBLOCK. */
static pid_t opener(int flags, int trunc, int would_block)
{
	pid_t pid = fork();

	if (pid == 0) {
		int r = trunc ? truncate(path, 0) : open(path, flags);

		if (would_block)
			_exit(r < 0 && errno == EWOULDBLOCK ? 0 : 1);
		_exit(r < 0 ? 1 : 0);
	}
	return pid;
}

/* A read lease broken by an open for writing, then by truncate(2); the
 * holder unlocks in answer and the opener goes on. */
static void break_read(void)
{
	int fd = open(path, O_RDONLY), t;
	char want[160], breaker[160];
	siginfo_t si;
	pid_t pid;

	check(fcntl(fd, F_SETLEASE, F_RDLCK) == 0, "read lease");
	t = open(path, O_RDONLY | O_TRUNC | O_NONBLOCK);
	check(t >= 0 && !pending(SIGIO) && fcntl(fd, F_GETLEASE) == F_RDLCK,
	      "O_RDONLY|O_TRUNC does not break it");
	close(t);

	pid = opener(O_WRONLY, 0, 0);
	check(take(SIGIO, &si) == SIGIO && si.si_code == SI_KERNEL,
	      "an open for writing elsewhere: SIGIO");
	check(fcntl(fd, F_GETLEASE) == F_UNLCK, "F_GETLEASE during the break: F_UNLCK");
	wait_blocked(pid);
	fmt_lease(want, sizeof(want), "BREAKING ", "UNLCK");
	snprintf(breaker, sizeof(breaker), "-> LEASE  BREAKER   WRITE %d <none>:0 0 EOF", (int)pid);
	check(lease_listed(want, breaker), "/proc/locks: BREAKING UNLCK, its BREAKER WRITE");
	check(waitpid(pid, NULL, WNOHANG) == 0, "the opener waits");
	check(fcntl(fd, F_SETLEASE, F_UNLCK) == 0, "the holder unlocks");
	check(child_status(pid) == 0, "the open goes on");

	check(fcntl(fd, F_SETLEASE, F_RDLCK) == 0, "read lease again");
	pid = opener(0, 1, 0);
	check(take(SIGIO, &si) == SIGIO, "truncate(2) elsewhere: SIGIO");
	check(fcntl(fd, F_GETLEASE) == F_UNLCK, "F_GETLEASE: F_UNLCK");
	wait_blocked(pid);
	check(waitpid(pid, NULL, WNOHANG) == 0, "the truncate waits");
	check(fcntl(fd, F_SETLEASE, F_UNLCK) == 0, "the holder unlocks");
	check(child_status(pid) == 0, "the truncate goes on");

	check(fcntl(fd, F_SETLEASE, F_RDLCK) == 0, "read lease again");
	pid = opener(O_RDONLY | O_NONBLOCK, 0, 0);
	check(child_status(pid) == 0, "a read-only O_NONBLOCK open does not conflict");
	check(!pending(SIGIO), "no signal");
	pid = opener(O_WRONLY | O_NONBLOCK, 0, 1);
	check(child_status(pid) == 0, "O_WRONLY|O_NONBLOCK -> EWOULDBLOCK");
	check(take(SIGIO, &si) == SIGIO, "the holder is signalled all the same");
	check(fcntl(fd, F_GETLEASE) == F_UNLCK, "and asked to unlock");
	check(fcntl(fd, F_SETLEASE, F_UNLCK) == 0, "the holder unlocks");
	t = open(path, O_WRONLY | O_NONBLOCK);
	check(t >= 0, "then O_WRONLY|O_NONBLOCK opens");
	close(t);
	close(fd);
}

/* A write lease with F_SETSIG broken by a read-only open: the holder
 * downgrades and the opener goes on. */
static void break_write(void)
{
	int fd = open(path, O_RDONLY), fd2;
	char want[160], breaker[160];
	siginfo_t si;
	pid_t pid;

	fd2 = dup2(fd, 20);
	close(fd);
	fcntl(fd2, F_SETSIG, SIGUSR1);
	check(fcntl(fd2, F_SETLEASE, F_WRLCK) == 0, "write lease with F_SETSIG(SIGUSR1)");
	pid = opener(O_RDONLY, 0, 0);
	check(take(SIGUSR1, &si) == SIGUSR1, "a read-only open elsewhere: SIGUSR1");
	check(si.si_fd == 20, "si_fd: the fd of the lease");
	check(si.si_code == POLL_MSG, "si_code: POLL_MSG");
	check(!pending(SIGIO), "no SIGIO");
	check(fcntl(fd2, F_GETLEASE) == F_RDLCK, "F_GETLEASE during the break: F_RDLCK");
	wait_blocked(pid);
	fmt_lease(want, sizeof(want), "BREAKING ", "READ");
	snprintf(breaker, sizeof(breaker), "-> LEASE  BREAKER   READ %d <none>:0 0 EOF", (int)pid);
	check(lease_listed(want, breaker), "/proc/locks: BREAKING READ, its BREAKER READ");
	check(waitpid(pid, NULL, WNOHANG) == 0, "the opener waits");
	check(fcntl(fd2, F_SETLEASE, F_RDLCK) == 0, "the holder downgrades");
	check(child_status(pid) == 0, "the open goes on");
	check(fcntl(fd2, F_GETLEASE) == F_RDLCK, "a read lease is left");
	fmt_lease(want, sizeof(want), "ACTIVE   ", "READ");
	check(lease_line(want, NULL), "/proc/locks: ACTIVE READ");
	fcntl(fd2, F_SETLEASE, F_UNLCK);
	close(fd2);
}

/* The lease is the open file description's: a dup keeps it, the last
 * close removes it. */
static void close_removes(void)
{
	int fd = open(path, O_RDONLY), d, t;
	char want[160];

	check(fcntl(fd, F_SETLEASE, F_RDLCK) == 0, "read lease");
	d = dup(fd);
	close(fd);
	check(fcntl(d, F_GETLEASE) == F_RDLCK, "a dup holds it after the close of the fd");
	close(d);
	fmt_lease(want, sizeof(want), "ACTIVE   ", "READ");
	check(!lease_line(want, NULL), "the last close removes it from /proc/locks");
	t = open(path, O_WRONLY | O_NONBLOCK);
	check(t >= 0, "an open for writing goes on");
	close(t);
	check(!pending(SIGIO), "and signals nobody");
}

static void sysctls(void)
{
	char buf[32] = "";
	int fd = open("/proc/sys/fs/lease-break-time", O_RDONLY);
	ssize_t r = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	check(r > 1 && buf[r - 1] == '\n', "/proc/sys/fs/lease-break-time");
	fd = open("/proc/sys/fs/leases-enable", O_RDONLY);
	r = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	check(r == 2 && buf[1] == '\n', "/proc/sys/fs/leases-enable");
}

int main(void)
{
	sigset_t set;
	int fd;

	setvbuf(stdout, NULL, _IONBF, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	snprintf(dir, sizeof(dir), "/tmp/skas-lease.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	chmod(dir, 0755);
	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_RDWR | O_CREAT, 0644);
	write(fd, "data", 4);
	close(fd);
	set_get();
	not_owner();
	break_read();
	break_write();
	close_removes();
	sysctls();
	unlink(path);
	rmdir(dir);
	return 0;
}
