/* mlock, mlock2, munlock, mlockall, munlockall: the ranges (rounding, a
 * hole is ENOMEM after what comes before it), the flags, VmLck as splits,
 * mremap, munmap, fork and MCL_FUTURE change it, and RLIMIT_MEMLOCK for a
 * caller without CAP_IPC_LOCK (ENOMEM, EAGAIN from mmap and brk, EPERM at
 * limit 0), checked in children that drop to an unprivileged uid. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tap.h"

#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 1
#endif
#ifndef MCL_ONFAULT
#define MCL_ONFAULT 4
#endif
static long pg;

static const char *ename(int e)
{
	switch (e) {
	case 0:
		return "0";
	case EINVAL:
		return "EINVAL";
	case ENOMEM:
		return "ENOMEM";
	case EPERM:
		return "EPERM";
	case EAGAIN:
		return "EAGAIN";
	case ENOSYS:
		return "ENOSYS";
	default:
		return "?";
	}
}

static void expect(long r, int want, const char *what)
{
	int e = r < 0 ? errno : 0;

	printf("%s %d - %s -> %s (want %s)\n", e == want ? "ok" : "not ok", ++n, what, ename(e),
	       ename(want));
}

/* VmLck in pages (read(2), no stdio: nothing that could allocate). */
static long locked(void)
{
	static char buf[8192];
	int fd = open("/proc/self/status", O_RDONLY);
	ssize_t len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	char *s;

	if (fd >= 0)
		close(fd);
	if (len <= 0)
		return -1;
	buf[len] = 0;
	s = strstr(buf, "VmLck:");
	return s ? atol(s + 6) * 1024 / pg : -1;
}

static void expect_locked(long base, long pages, const char *what)
{
	long now = locked();

	printf("%s %d - VmLck %ld pages more: %s\n", now - base == pages ? "ok" : "not ok", ++n,
	       pages, what);
	if (now - base != pages)
		printf("# VmLck is %ld pages more\n", now - base);
}

static long mlock2_(void *p, size_t len, int flags)
{
	return syscall(SYS_mlock2, p, len, flags);
}

/* The system calls themselves: musl's mmap turns EPERM into ENOMEM and
 * its sbrk only reads the break. */
static long mmap_(size_t len, int flags)
{
	return syscall(SYS_mmap, NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
}

static unsigned long brk_(unsigned long to)
{
	return (unsigned long)syscall(SYS_brk, to);
}

static char *anon(size_t pages)
{
	char *p =
		mmap(NULL, pages * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void ranges(void)
{
	long base = locked();
	char *p = anon(8), *q;

	check(p != NULL, "8 anonymous pages");
	expect(mlock(p, 0), 0, "mlock of length 0");
	expect_locked(base, 0, "length 0 locks nothing");
	/* above every mapping: no VMA to look at (the kernel crashed here) */
	expect(mlock((void *)0x7ffffffff000UL, 0), 0, "mlock of length 0 above every mapping");
	expect(mlock2_((void *)0x7ffffffff000UL, 0, 0), 0, "mlock2 of length 0 there");
	expect(mlock(p + 1, 1), 0, "mlock of one byte inside a page");
	expect_locked(base, 1, "the whole page is locked");
	expect(mlock(p, 2 * pg), 0, "mlock over a locked page");
	expect_locked(base, 2, "a page locked twice counts once");
	expect(munlock(p, 8 * pg), 0, "munlock all 8");
	expect_locked(base, 0, "nothing locked");
	expect(mlock(p, (size_t)-1), 0, "a length of -1 rounds up to 0");
	expect(mlock(p, -(size_t)(2 * pg)), EINVAL, "a range past the end of memory");
	expect(munlock(p, -(size_t)(2 * pg)), EINVAL, "munlock past the end of memory");
	expect_locked(base, 0, "nothing locked by those");

	check(munmap(p + 3 * pg, pg) == 0, "a hole at the 4th page");
	expect(mlock(p + 3 * pg, 2 * pg), ENOMEM, "mlock starting in the hole");
	expect_locked(base, 0, "nothing locked");
	expect(mlock(p, 8 * pg), ENOMEM, "mlock across the hole");
	expect_locked(base, 3, "the 3 pages before the hole are locked");
	expect(munlock(p, 8 * pg), ENOMEM, "munlock across the hole");
	expect_locked(base, 0, "and unlocked by munlock");
	expect(munlock(p + 3 * pg, pg), ENOMEM, "munlock of the hole alone");
	expect(mlock(p + 4 * pg, 4 * pg), 0, "mlock after the hole");
	expect_locked(base, 4, "4 pages");

	expect(mprotect(p + 5 * pg, pg, PROT_READ), 0, "mprotect splits the locked mapping");
	expect_locked(base, 4, "both parts stay locked");
	expect(munmap(p + 7 * pg, pg), 0, "munmap of a locked page");
	expect_locked(base, 3, "one page less");
	expect(munlock(p + 5 * pg, pg), 0, "munlock of the middle page");
	expect_locked(base, 2, "two left");
	expect(munlock(p, 8 * pg), ENOMEM, "munlock across the hole stops at it");
	expect_locked(base, 2, "the two after it stay locked");
	expect(munlock(p + 4 * pg, 3 * pg), 0, "munlock of the pages after it");
	expect_locked(base, 0, "none left");
	munmap(p, 8 * pg);

	expect(mlock2_(p, pg, 2), EINVAL, "mlock2 flag 2");
	expect(mlock2_(p, pg, -1), EINVAL, "mlock2 flag -1");
	p = anon(4);
	expect(mlock2_(p, 2 * pg, MLOCK_ONFAULT), 0, "mlock2 MLOCK_ONFAULT");
	expect_locked(base, 2, "locked on fault counts as locked");
	expect(mlock2_(p, 4 * pg, 0), 0, "mlock2 flags 0");
	expect_locked(base, 4, "4 pages");

	/* mremap of a locked mapping: the new pages are locked too */
	q = mremap(p, 4 * pg, 6 * pg, MREMAP_MAYMOVE);
	check(q != MAP_FAILED, "mremap grows the locked mapping");
	expect_locked(base, 6, "6 pages locked");
	p = mremap(q, 6 * pg, 2 * pg, 0);
	check(p == q, "mremap shrinks it");
	expect_locked(base, 2, "2 pages locked");
	munmap(p, 2 * pg);
	expect_locked(base, 0, "munmap unlocks");
}

static void all(void)
{
	long base = locked();
	char *p = anon(2), *q;
	unsigned long b;
	pid_t pid;
	int st;

	expect(mlockall(0), EINVAL, "mlockall(0)");
	expect(mlockall(MCL_ONFAULT), EINVAL, "mlockall(MCL_ONFAULT) alone");
	expect(mlockall(8), EINVAL, "mlockall(8)");
	expect(mlockall(MCL_CURRENT | 8), EINVAL, "mlockall(MCL_CURRENT|8)");
	expect(mlock(p, pg), 0, "mlock one page");
	expect(mlockall(MCL_FUTURE), 0, "mlockall(MCL_FUTURE)");
	expect_locked(base, 1, "keeps what is locked, locks nothing more");
	q = anon(3);
	check(q != NULL, "mmap after MCL_FUTURE");
	expect_locked(base, 4, "the new mapping is locked");
	b = brk_(0);
	check(brk_(b + 2 * pg) == b + 2 * pg, "the heap grows");
	expect_locked(base,
		      4 + (long)(((b + 2 * pg + pg - 1) & ~(pg - 1)) - ((b + pg - 1) & ~(pg - 1))) /
				      pg,
		      "the new heap pages are locked");
	check(brk_(b) == b, "the heap shrinks back");
	expect_locked(base, 4, "to 4 pages locked");
	pid = fork();
	if (pid == 0) {
		char *c;

		if (locked() != 0)
			_exit(1);
		c = anon(1);
		_exit(c && locked() == 0 ? 0 : 2);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a fork child has nothing locked and no MCL_FUTURE");
	expect(munlockall(), 0, "munlockall");
	expect_locked(base, 0, "nothing locked");
	munmap(q, 3 * pg);
	q = anon(1);
	expect_locked(base, 0, "no MCL_FUTURE after munlockall");
	munmap(q, pg);
	expect(mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT), 0,
	       "mlockall(MCL_CURRENT|MCL_FUTURE|MCL_ONFAULT)");
	check(locked() > 0, "everything is locked");
	q = anon(1);
	expect(munlock(q, pg), 0, "munlock of a future-locked page");
	expect(munlockall(), 0, "munlockall");
	expect_locked(base, 0, "nothing locked");
	munmap(q, pg);
	munmap(p, 2 * pg);
}

/* In a child as uid 65534 (no CAP_IPC_LOCK) with RLIMIT_MEMLOCK pages. */
static void unprivileged(long limit_pages)
{
	struct rlimit rl = { limit_pages * pg, limit_pages * pg };
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char *p = anon(4);
		unsigned long b;
		long base;

		if (setrlimit(RLIMIT_MEMLOCK, &rl) || setuid(65534)) {
			printf("not ok - drop privileges\n");
			_exit(1);
		}
		base = locked();
		if (limit_pages == 0) {
			expect(mlock(p, pg), EPERM, "limit 0: mlock");
			expect(mlock2_(p, pg, 2), EINVAL, "limit 0: mlock2 checks flags first");
			expect(munlock(p, pg), 0, "limit 0: munlock");
			expect(mlockall(MCL_FUTURE), EPERM, "limit 0: mlockall");
			expect(mlockall(0), EINVAL, "limit 0: mlockall checks flags first");
			expect(munlockall(), 0, "limit 0: munlockall");
			expect(mmap_(pg, MAP_LOCKED), EPERM, "limit 0: mmap MAP_LOCKED");
			fflush(stdout);
			_exit(0);
		}
		expect(mlock(p, 2 * pg), ENOMEM, "limit 1: mlock of 2 pages");
		expect_locked(base, 0, "nothing locked");
		expect(mlock(p + pg, pg), 0, "limit 1: mlock of 1 page");
		expect(mlock(p + pg, pg), 0, "limit 1: the same page again");
		expect(mlock(p + pg, 2 * pg), ENOMEM, "limit 1: it and the next");
		expect(mlock(p + 2 * pg, pg), ENOMEM, "limit 1: another page");
		expect_locked(base, 1, "one page locked");
		expect(mlockall(MCL_CURRENT), ENOMEM, "limit 1: mlockall(MCL_CURRENT)");
		expect(mlockall(MCL_FUTURE), 0, "limit 1: mlockall(MCL_FUTURE) alone");
		expect(mmap_(pg, 0), EAGAIN, "limit 1 reached: mmap under MCL_FUTURE");
		b = brk_(0);
		check(brk_(b + 2 * pg) == b, "limit 1 reached: brk fails under MCL_FUTURE");
		expect(munlockall(), 0, "munlockall");
		expect_locked(base, 0, "nothing locked");
		expect(mmap_(pg, MAP_LOCKED) == -1 ? -1 : 0, 0,
		       "limit 1: mmap MAP_LOCKED of 1 page");
		expect(mmap_(pg, MAP_LOCKED), EAGAIN, "limit 1: another MAP_LOCKED page");
		expect(mlock2_(p, pg, MLOCK_ONFAULT), ENOMEM, "limit 1: mlock2 of one more page");
		expect_locked(base, 1, "one page locked");
		fflush(stdout);
		_exit(0);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the unprivileged child");
}

int main(void)
{
	pg = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);
	ranges();
	all();
	unprivileged(1);
	unprivileged(0);
	return 0;
}
