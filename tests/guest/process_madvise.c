/* process_madvise(2) (skas had it as ENOSYS): madvise for each range of
 * an iovec array in the process a pidfd names, in order up to the first
 * that fails, returning the bytes advised, or that failure when there are
 * none. On one's own memory any advice goes (Linux 6.13), so MADV_DONTNEED
 * zeroes pages; another process's takes only MADV_COLD, MADV_PAGEOUT and
 * MADV_WILLNEED (EINVAL), needs ptrace access (EACCES) and CAP_SYS_NICE
 * (EPERM). flags must be 0; the iovec array is checked as readv's (EINVAL,
 * EFAULT) before the pidfd (EBADF, ESRCH once the process is gone). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ENAME
#include "tap.h"

#define PG 4096

static long pmadv(int pidfd, const struct iovec *iov, size_t n, int advice, unsigned flags)
{
	return syscall(SYS_process_madvise, pidfd, iov, n, advice, flags);
}

static int pidfd_open_(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

/* A child that waits (as uid, dumpable, if uid is not 0) until killed;
 * returns once it has its credentials. */
static pid_t sleeper(uid_t uid)
{
	int p[2];
	char c = 0;
	pid_t pid;

	if (pipe(p) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		if (uid && (setresuid(uid, uid, uid) != 0 || prctl(PR_SET_DUMPABLE, 1) != 0))
			_exit(1);
		if (write(p[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (pid > 0 && read(p[0], &c, 1) != 1)
		c = 0;
	close(p[0]);
	return c == 'r' ? pid : -1;
}

int main(void)
{
	static struct iovec big[1025];
	struct iovec v[3];
	char *p, *hole;
	int self, fd, st;
	pid_t a, b;

	self = pidfd_open_(getpid());
	p = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	hole = mmap(NULL, PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (self < 0 || p == MAP_FAILED || hole == MAP_FAILED) {
		perror("setup");
		return 1;
	}
	munmap(hole, PG);
	memset(p, 'x', 4 * PG);

	v[0] = (struct iovec){ p, 2 * PG };
	v[1] = (struct iovec){ p + 2 * PG, PG };
	check(pmadv(self, v, 2, MADV_DONTNEED, 0) == 3 * PG, "own memory, DONTNEED: 3 pages");
	check(p[0] == 0 && p[2 * PG + 5] == 0 && p[3 * PG] == 'x',
	      "those pages read 0, the fourth is kept");

	check_err(pmadv(self, v, 2, MADV_DONTNEED, 1), EINVAL, "flags 1");
	check_err(pmadv(self, big, 1025, MADV_WILLNEED, 0), EINVAL, "1025 ranges");
	check_err(pmadv(self, (void *)8, 1, MADV_WILLNEED, 0), EFAULT, "a bad iovec array");
	fd = dup(0);
	check_err(pmadv(fd, v, 1, MADV_WILLNEED, 0), EBADF, "an fd that is no pidfd");
	check_err(pmadv(-1, v, 1, MADV_WILLNEED, 0), EBADF, "fd -1");
	check_err(pmadv(-1, (void *)8, 1, MADV_WILLNEED, 0), EFAULT, "a bad array before a bad fd");
	check(pmadv(-1, NULL, 0, MADV_WILLNEED, 1) == -1 && errno == EINVAL, "flags before the fd");
	check_err(pmadv(-1, NULL, 0, MADV_WILLNEED, 0), EBADF, "no ranges, a bad fd");
	check(pmadv(self, NULL, 0, 999, 0) == 0, "no ranges, unknown advice: 0");

	/* The first failure ends it; what went before counts. */
	v[0] = (struct iovec){ p, PG };
	v[1] = (struct iovec){ hole, PG };
	v[2] = (struct iovec){ p + PG, PG };
	check(pmadv(self, v, 3, MADV_WILLNEED, 0) == PG, "a hole second: 1 page");
	check_err(pmadv(self, v + 1, 2, MADV_WILLNEED, 0), ENOMEM, "a hole first");
	v[0] = (struct iovec){ p + 1, PG };
	check_err(pmadv(self, v, 1, MADV_WILLNEED, 0), EINVAL, "an unaligned start");
	check_err(pmadv(self, v + 2, 1, 999, 0), EINVAL, "unknown advice");
	v[0] = (struct iovec){ p, 0 };
	v[1] = (struct iovec){ p, 0 };
	check(pmadv(self, v, 2, MADV_DONTNEED, 0) == 0, "empty ranges: 0");
	v[1] = (struct iovec){ p, PG };
	check(pmadv(self, v, 2, MADV_DONTNEED, 0) == PG, "an empty range, then one page");

	/* Another process's memory. */
	a = sleeper(0);
	fd = pidfd_open_(a);
	v[0] = (struct iovec){ p, 2 * PG };
	check(fd >= 0 && pmadv(fd, v, 1, MADV_COLD, 0) == 2 * PG, "another's, COLD: 2 pages");
	check(pmadv(fd, v, 1, MADV_PAGEOUT, 0) == 2 * PG, "PAGEOUT: 2 pages");
	check(pmadv(fd, v, 1, MADV_WILLNEED, 0) == 2 * PG, "WILLNEED: 2 pages");
	check_err(pmadv(fd, v, 1, MADV_DONTNEED, 0), EINVAL, "DONTNEED");
	check_err(pmadv(fd, v, 1, MADV_FREE, 0), EINVAL, "FREE");
	check(pmadv(fd, NULL, 0, MADV_DONTNEED, 0) == -1 && errno == EINVAL,
	      "DONTNEED with no ranges: EINVAL all the same");
	kill(a, SIGKILL);
	waitpid(a, &st, 0);
	check_err(pmadv(fd, v, 1, MADV_COLD, 0), ESRCH, "the process is gone");
	close(fd);

	/* Without privilege: another user's process is EACCES; one's own
	 * user's, EPERM (no CAP_SYS_NICE). */
	a = sleeper(1000);
	b = fork();
	if (b == 0) {
		int mine, roots;

		if (setresuid(1000, 1000, 1000) != 0)
			_exit(1);
		mine = pidfd_open_(a);
		roots = pidfd_open_(getppid());
		check_err(pmadv(roots, v, 1, MADV_COLD, 0), EACCES, "unprivileged, root's process");
		check_err(pmadv(mine, v, 1, MADV_COLD, 0), EPERM, "unprivileged, its user's");
		check_err(pmadv(mine, v, 1, MADV_DONTNEED, 0), EINVAL,
			  "unprivileged, its user's, DONTNEED");
		v[0] = (struct iovec){ p + 3 * PG, PG };
		check(pmadv(pidfd_open_(getpid()), v, 1, MADV_DONTNEED, 0) == PG && p[3 * PG] == 0,
		      "unprivileged, its own memory: DONTNEED");
		_exit(n); /* the parent goes on from here */
	}
	if (waitpid(b, &st, 0) == b && WIFEXITED(st) && WEXITSTATUS(st) > n)
		n = WEXITSTATUS(st);
	else
		check(0, "the unprivileged child ran");
	kill(a, SIGKILL);
	waitpid(a, &st, 0);
	check(p[3 * PG] == 'x', "the child's DONTNEED left ours");
	return 0;
}
