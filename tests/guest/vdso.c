/* The vDSO: AT_SYSINFO_EHDR names an ELF image that /proc/self/maps shows
 * as [vdso] (with its [vvar] data pages); its clocks agree with the system
 * calls (no offset: vDSO <= syscall <= vDSO); getcpu works; the data pages
 * cannot be made writable; the code can, and overwriting it in a child
 * (with int3) or unmapping it kills the child's next clock_gettime while
 * the parent's copy still works; fork and exec keep a working vDSO. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "tap.h"

struct range {
	unsigned long lo, hi;
	char perms[8];
};

/* Finds the maps line named name: 1 if found. */
static int find_map(const char *name, struct range *r)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '[');

		if (!p || strncmp(p, name, strlen(name)) != 0 || p[strlen(name)] != '\n')
			continue;
		if (sscanf(line, "%lx-%lx %7s", &r->lo, &r->hi, r->perms) == 3)
			found = 1;
	}
	fclose(f);
	return found;
}

static int64_t ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static int ordered(clockid_t c)
{
	struct timespec a, b, d;

	clock_gettime(c, &a);
	syscall(SYS_clock_gettime, c, &b);
	clock_gettime(c, &d);
	return ns(&a) <= ns(&b) && ns(&b) <= ns(&d);
}

static int child_status(void (*fn)(void))
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		fn();
		_exit(0);
	}
	waitpid(pid, &st, 0);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
}

static struct range vdso;

static void overwrite(void)
{
	struct timespec ts;

	if (mprotect((void *)vdso.lo, vdso.hi - vdso.lo, PROT_READ | PROT_WRITE | PROT_EXEC) < 0)
		_exit(1);
	memset((void *)vdso.lo, 0xcc, vdso.hi - vdso.lo);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	_exit(2);
}

static void unmap(void)
{
	struct timespec ts;

	if (munmap((void *)vdso.lo, vdso.hi - vdso.lo) < 0)
		_exit(1);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	_exit(2);
}

static void works(void)
{
	struct timespec ts;

	_exit(clock_gettime(CLOCK_MONOTONIC, &ts) == 0 && ts.tv_sec > 0 ? 0 : 1);
}

int main(int argc, char **argv)
{
	unsigned long ehdr = getauxval(AT_SYSINFO_EHDR);
	struct range vvar;
	struct timeval tv;
	struct timespec ts;
	time_t t0, t1;
	unsigned cpu = 99;
	int st;

	if (argc == 2 && strcmp(argv[1], "--exec") == 0)
		return ehdr && find_map("[vdso]", &vdso) && vdso.lo == ehdr &&
				       ordered(CLOCK_MONOTONIC)
			       ? 0
			       : 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	check(ehdr != 0, "AT_SYSINFO_EHDR is set");
	check(ehdr && memcmp((void *)ehdr, "\177ELF", 4) == 0, "it points to an ELF header");
	check(find_map("[vdso]", &vdso) && vdso.lo == ehdr && strcmp(vdso.perms, "r-xp") == 0,
	      "/proc/self/maps: [vdso] r-xp at AT_SYSINFO_EHDR");
	check(find_map("[vvar]", &vvar) && strcmp(vvar.perms, "r--p") == 0 && vvar.hi <= vdso.lo,
	      "/proc/self/maps: [vvar] r--p below it");
	check(ordered(CLOCK_REALTIME), "CLOCK_REALTIME: vDSO <= syscall <= vDSO");
	check(ordered(CLOCK_MONOTONIC), "CLOCK_MONOTONIC: vDSO <= syscall <= vDSO");
	check(ordered(CLOCK_BOOTTIME), "CLOCK_BOOTTIME: vDSO <= syscall <= vDSO");
	check(ordered(CLOCK_MONOTONIC_COARSE), "CLOCK_MONOTONIC_COARSE: vDSO <= syscall <= vDSO");
	gettimeofday(&tv, NULL);
	syscall(SYS_clock_gettime, CLOCK_REALTIME, &ts);
	check(tv.tv_sec <= ts.tv_sec && ts.tv_sec - tv.tv_sec <= 1, "gettimeofday agrees");
	t0 = time(NULL);
	t1 = syscall(SYS_time, NULL);
	/* musl's time() reads CLOCK_REALTIME, SYS_time the coarse clock,
	 * which lags it by up to a tick: either may be the second ahead. */
	check(t1 - t0 <= 1 && t0 - t1 <= 1, "time() agrees");
	check(syscall(SYS_getcpu, &cpu, NULL, NULL) == 0 && cpu < 4096, "getcpu system call");
	check(sched_getcpu() >= 0, "sched_getcpu");
	errno = 0;
	check(mprotect((void *)vvar.lo, vvar.hi - vvar.lo, PROT_READ | PROT_WRITE) == -1 &&
		      errno == EACCES,
	      "[vvar] cannot be made writable: EACCES");
	/* Special mappings never split (nor grow): part of one is EINVAL,
	 * the mapping stays whole, and the address space stays usable. */
	errno = 0;
	check(munmap((void *)vvar.lo, 4096) == -1 && errno == EINVAL,
	      "munmap of part of [vvar]: EINVAL");
	errno = 0;
	check(munmap((void *)vdso.lo, 4096) == -1 && errno == EINVAL,
	      "munmap of part of [vdso]: EINVAL");
	errno = 0;
	check(mmap((void *)vvar.lo, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
		   0) == MAP_FAILED &&
		      errno == EINVAL,
	      "MAP_FIXED over part of [vvar]: EINVAL");
	errno = 0;
	check(mremap((void *)vvar.lo, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED,
		     (void *)0x200000000) == MAP_FAILED &&
		      errno == EINVAL,
	      "mremap of part of [vvar]: EINVAL");
	errno = 0;
	check(mremap((void *)vdso.lo, vdso.hi - vdso.lo, vdso.hi - vdso.lo + 4096,
		     MREMAP_MAYMOVE) == MAP_FAILED &&
		      errno == EFAULT,
	      "mremap growing [vdso]: EFAULT");
	errno = 0;
	check(madvise((void *)vvar.lo, vvar.hi - vvar.lo, MADV_DONTNEED) == -1 && errno == EINVAL,
	      "MADV_DONTNEED on [vvar]: EINVAL");
	check(mprotect((void *)vvar.lo, 4096, PROT_READ) == 0,
	      "mprotect of part of [vvar] to what it is: 0");
	{
		struct range v2, d2;
		void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			       0);

		check(find_map("[vvar]", &v2) && v2.lo == vvar.lo && v2.hi == vvar.hi &&
			      find_map("[vdso]", &d2) && d2.lo == vdso.lo && d2.hi == vdso.hi,
		      "[vvar] and [vdso] are whole");
		check(p != MAP_FAILED, "mmap still works");
		if (p != MAP_FAILED)
			munmap(p, 4096);
	}
	check(ordered(CLOCK_MONOTONIC), "and so does the vDSO");
	check(child_status(works) == 0, "a forked child's vDSO works");
	check(child_status(overwrite) == 128 + SIGTRAP, "a child that fills its vDSO with int3 "
							"dies of SIGTRAP");
	check(child_status(unmap) == 128 + SIGSEGV, "a child that unmaps its vDSO dies of SIGSEGV");
	check(clock_gettime(CLOCK_MONOTONIC, &ts) == 0 && ordered(CLOCK_MONOTONIC),
	      "the parent's vDSO still works");
	if (fork() == 0) {
		execl("/proc/self/exe", argv[0], "--exec", (char *)NULL);
		_exit(3);
	}
	wait(&st);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "after exec: a vDSO again");
	return 0;
}
