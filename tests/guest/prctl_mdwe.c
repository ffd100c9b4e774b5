/* PR_SET_MDWE (Linux 6.3, NO_INHERIT 6.6): memory-deny-write-execute.
 * With PR_MDWE_REFUSE_EXEC_GAIN no mapping is made writable and
 * executable, nor made executable when it was not (EACCES from mmap and
 * mprotect); a read-only executable mapping is still made; the bits stay
 * for good (EPERM to change them), are kept by fork and exec, or by
 * neither with PR_MDWE_NO_INHERIT. systemd's MemoryDenyWriteExecute= asks
 * for it. skas said EINVAL. Each case runs in a child, as the setting
 * cannot be undone. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ENAME
#include "tap.h"

#define SET_MDWE	 65
#define GET_MDWE	 66
#define REFUSE_EXEC_GAIN 1
#define NO_INHERIT	 2

static int mdwe(void)
{
	return prctl(GET_MDWE, 0, 0, 0, 0);
}

/* The child's exit status: its mdwe bits after an exec of itself with
 * "report" (its argv[0] is /proc/self/exe). */
static int bits_after_exec(void)
{
	pid_t p = fork();
	int st;

	if (p == 0) {
		execl("/proc/self/exe", "prctl_mdwe", "report", (char *)NULL);
		_exit(99);
	}
	if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* in a child: the bits after a fork */
static int bits_after_fork(void)
{
	pid_t p = fork();
	int st;

	if (p == 0)
		_exit(mdwe());
	if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static void refuse_case(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *rw, *rx, *rwx;

	/* an rwx mapping from before, with room after it */
	rwx = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	check(rwx != MAP_FAILED && munmap(rwx + pg, pg) == 0, "an rwx page from before");
	check(prctl(SET_MDWE, REFUSE_EXEC_GAIN, 0, 0, 0) == 0, "PR_SET_MDWE REFUSE_EXEC_GAIN");
	check(mremap(rwx, pg, 2 * pg, 0) == rwx, "it grows in place (mremap): no new mapping");
	check(mdwe() == REFUSE_EXEC_GAIN, "PR_GET_MDWE: it");
	errno = 0;
	check(mmap(NULL, pg, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		   0) == MAP_FAILED &&
		      errno == EACCES,
	      "mmap of rwx: EACCES");
	rx = mmap(NULL, pg, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(rx != MAP_FAILED, "mmap of r-x: made");
	rw = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(rw != MAP_FAILED, "mmap of rw-: made");
	errno = 0;
	check_err(mprotect(rw, pg, PROT_READ | PROT_EXEC), EACCES, "mprotect rw- to r-x: EACCES");
	errno = 0;
	check_err(mprotect(rx, pg, PROT_READ | PROT_WRITE | PROT_EXEC), EACCES,
		  "mprotect r-x to rwx: EACCES");
	check(mprotect(rx, pg, PROT_READ) == 0, "mprotect r-x to r--: fine");
	errno = 0;
	check_err(mprotect(rx, pg, PROT_READ | PROT_EXEC), EACCES,
		  "and back to r-x: EACCES (it was not executable)");
	check(mprotect(rw, pg, PROT_NONE) == 0 && mprotect(rw, pg, PROT_READ | PROT_WRITE) == 0,
	      "rw- to --- and back: fine");
	errno = 0;
	check_err(prctl(SET_MDWE, 0, 0, 0, 0), EPERM, "PR_SET_MDWE 0: EPERM (for good)");
	errno = 0;
	check_err(prctl(SET_MDWE, REFUSE_EXEC_GAIN | NO_INHERIT, 0, 0, 0), EPERM,
		  "adding NO_INHERIT: EPERM");
	check(prctl(SET_MDWE, REFUSE_EXEC_GAIN, 0, 0, 0) == 0, "the same bits again: fine");
	check(bits_after_fork() == REFUSE_EXEC_GAIN, "a fork keeps it");
	check(bits_after_exec() == REFUSE_EXEC_GAIN, "an exec keeps it");
}

/* Touches n KiB more of the stack, a page at a time. */
static int deeper(int n)
{
	volatile char pad[1024];

	pad[0] = 1;
	return n > 0 ? deeper(n - 1) + pad[0] : 0;
}

/* A stack made rwx before MDWE still grows (Linux checks MDWE at mmap
 * and mprotect, not at a stack's growth). */
static void stack_case(void)
{
	unsigned long lo = 0, hi = 0;
	char line[256];
	FILE *f = fopen("/proc/self/maps", "r");
	pid_t p;
	int st;

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "[stack]"))
			sscanf(line, "%lx-%lx", &lo, &hi);
	if (f)
		fclose(f);
	check(lo && mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE | PROT_EXEC) == 0,
	      "the stack made rwx");
	check(prctl(SET_MDWE, REFUSE_EXEC_GAIN, 0, 0, 0) == 0, "then PR_SET_MDWE");
	fflush(stdout);
	p = fork();
	if (p == 0)
		_exit(deeper(2048) >= 0 ? 0 : 1); /* 2 MiB deeper */
	check(p > 0 && waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "it grows 2 MiB deeper");
}

static void no_inherit_case(void)
{
	check(prctl(SET_MDWE, REFUSE_EXEC_GAIN | NO_INHERIT, 0, 0, 0) == 0,
	      "PR_SET_MDWE REFUSE_EXEC_GAIN|NO_INHERIT");
	check(mdwe() == (REFUSE_EXEC_GAIN | NO_INHERIT), "PR_GET_MDWE: both");
	check(bits_after_fork() == 0, "a fork drops them");
	check(bits_after_exec() == 0, "an exec drops them");
}

static void run(void (*fn)(void))
{
	pid_t p;
	int st;

	fflush(stdout);
	p = fork();
	if (p == 0) {
		fn();
		fflush(stdout);
		_exit(n);
	}
	if (p > 0 && waitpid(p, &st, 0) == p && WIFEXITED(st))
		n = WEXITSTATUS(st);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "report") == 0)
		return mdwe();
	check(mdwe() == 0, "PR_GET_MDWE: 0 at first");
	errno = 0;
	check_err(prctl(GET_MDWE, 1, 0, 0, 0), EINVAL, "PR_GET_MDWE with an argument: EINVAL");
	errno = 0;
	check_err(prctl(SET_MDWE, 4, 0, 0, 0), EINVAL, "PR_SET_MDWE of an unknown bit: EINVAL");
	errno = 0;
	check_err(prctl(SET_MDWE, NO_INHERIT, 0, 0, 0), EINVAL, "NO_INHERIT alone: EINVAL");
	errno = 0;
	check_err(prctl(SET_MDWE, REFUSE_EXEC_GAIN, 1, 0, 0), EINVAL, "a third argument: EINVAL");
	check(mdwe() == 0, "still 0");
	run(refuse_case);
	run(stack_case);
	run(no_inherit_case);
	return 0;
}
