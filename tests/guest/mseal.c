/* mseal(2), Linux 6.10 (skas had it as ENOSYS; glibc's loader is to seal
 * its segments with it): a sealed mapping cannot be unmapped, moved,
 * resized, mapped over or have its protection changed (EPERM, nothing
 * changed), and its pages cannot be discarded where that would change
 * read-only anonymous memory. The checks: flags must be 0, the start
 * page-aligned, the length rounded up and not wrapping (EINVAL), every page
 * mapped (ENOMEM); an empty range is 0. EPERM comes after mremap's own
 * argument checks, and shmat's SHM_REMAP over a sealed range is EPERM
 * too. Sealing splits the VMAs at the
 * range's edges, shows "sl" in smaps' VmFlags, merges with sealed
 * neighbours, and a fork keeps it. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ENAME
#include "tap.h"

#define PG	       4096
#define SYS_mseal_     462
#define SYS_pkey_mprot 329

static long mseal_(void *p, unsigned long len, unsigned long flags)
{
	return syscall(SYS_mseal_, p, len, flags);
}

/* The VMA of maps holding p: its bounds, and whether smaps calls it
 * sealed. 0 if none. */
static int vma_of(void *p, unsigned long *lo, unsigned long *hi, int *sealed)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int found = 0;
	unsigned long a, b;

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &a, &b) == 2) {
			if (found)
				break;
			if (a <= (unsigned long)p && (unsigned long)p < b) {
				found = 1;
				*lo = a;
				*hi = b;
				*sealed = 0;
			}
		} else if (found && strncmp(line, "VmFlags:", 8) == 0) {
			*sealed = strstr(line, " sl") != NULL;
		}
	}
	if (f)
		fclose(f);
	return found;
}

/* p's VMA is exactly [p, p + n pages), sealed or not as want. */
static int vma_is(char *p, int n, int want)
{
	unsigned long lo, hi;
	int sealed;

	return vma_of(p, &lo, &hi, &sealed) && lo == (unsigned long)p &&
	       hi == (unsigned long)p + (unsigned long)n * PG && sealed == want;
}

static char *map(int pages, int prot)
{
	return mmap(NULL, (size_t)pages * PG, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

int main(void)
{
	char *p, *q, *r, *hole;
	void *brk0;
	int st, shmid;
	pid_t pid;

	p = map(3, PROT_READ | PROT_WRITE);
	hole = map(3, PROT_READ);
	if (p == MAP_FAILED || hole == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memset(p, 'x', 3 * PG);
	munmap(hole + PG, PG);

	/* The checks. */
	check_err(mseal_(p, PG, 1), EINVAL, "flags 1");
	check_err(mseal_(p + 1, PG, 0), EINVAL, "an unaligned start");
	check(mseal_(p, 0, 0) == 0, "length 0: 0");
	check_err(mseal_(p, -1UL, 0), EINVAL, "a length that rounds up to 0");
	check_err(mseal_(p, -2UL * PG, 0), EINVAL, "a wrapping range");
	check_err(mseal_(hole, 3 * PG, 0), ENOMEM, "a hole in the range");
	check_err(mseal_(hole + PG, PG, 0), ENOMEM, "nothing mapped");
	check(mprotect(hole, PG, PROT_NONE) == 0, "the failed seal sealed nothing");

	/* Seal the middle page: the VMA splits. */
	check(mseal_(p + PG, PG - 100, 0) == 0, "seal the middle page (length rounded up)");
	check(vma_is(p, 1, 0) && vma_is(p + PG, 1, 1) && vma_is(p + 2 * PG, 1, 0),
	      "three VMAs, the middle one sealed (smaps: sl)");
	check(mseal_(p + PG, PG, 0) == 0, "sealing again: 0");

	check_err(mprotect(p + PG, PG, PROT_READ), EPERM, "mprotect");
	check_err(mprotect(p + PG, PG, PROT_READ | PROT_WRITE), EPERM,
		  "mprotect to the same protection");
	check_err(syscall(SYS_pkey_mprot, p + PG, PG, PROT_READ, -1), EPERM, "pkey_mprotect");
	check_err(munmap(p + PG, PG), EPERM, "munmap");
	check_err(munmap(p, 3 * PG), EPERM, "munmap of all three");
	check(vma_is(p, 1, 0) && p[0] == 'x' && p[2 * PG] == 'x', "nothing was unmapped");
	check(mmap(p + PG, PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
			      MAP_FAILED &&
		      errno == EPERM,
	      "mmap MAP_FIXED over it: EPERM");
	check(mmap(p, 3 * PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
			      MAP_FAILED &&
		      errno == EPERM,
	      "mmap MAP_FIXED over all three: EPERM");
	check(p[0] == 'x' && p[PG] == 'x', "nothing was mapped over");
	check(mremap(p + PG, PG, 2 * PG, 0) == MAP_FAILED && errno == EPERM, "mremap grow");
	check(mremap(p + PG, PG, PG / 2, 0) == MAP_FAILED && errno == EPERM, "mremap shrink");
	check(mremap(p + PG, PG, PG, MREMAP_MAYMOVE | MREMAP_FIXED, hole + PG) == MAP_FAILED &&
		      errno == EPERM,
	      "mremap move");
	check(mremap(p + PG, PG, PG, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)0x800000000000UL) ==
			      MAP_FAILED &&
		      errno == EINVAL,
	      "mremap move past the user range: EINVAL first");
	shmid = shmget(IPC_PRIVATE, PG, 0600);
	check(shmat(shmid, p + PG, SHM_REMAP) == (void *)-1 && errno == EPERM,
	      "shmat SHM_REMAP over it: EPERM");
	shmctl(shmid, IPC_RMID, NULL);
	q = map(1, PROT_READ | PROT_WRITE);
	check(mremap(q, PG, PG, MREMAP_MAYMOVE | MREMAP_FIXED, p + PG) == MAP_FAILED &&
		      errno == EPERM,
	      "mremap of another mapping onto it");
	check(mprotect(p, PG, PROT_READ) == 0 && munmap(p + 2 * PG, PG) == 0,
	      "the pages beside it change");

	/* Discarding: writable memory may lose its pages, read-only not. */
	check(madvise(p + PG, PG, MADV_DONTNEED) == 0 && p[PG] == 0,
	      "DONTNEED on writable sealed memory: 0, zeroed");
	r = map(2, PROT_READ | PROT_WRITE);
	memset(r, 'y', 2 * PG);
	mprotect(r, 2 * PG, PROT_READ);
	check(mseal_(r + PG, PG, 0) == 0, "seal a read-only page");
	check_err(madvise(r + PG, PG, MADV_DONTNEED), EPERM, "DONTNEED on it");
	check_err(madvise(r + PG, PG, MADV_FREE), EPERM, "FREE on it");
	check_err(madvise(r, 2 * PG, MADV_DONTNEED), EPERM, "DONTNEED on it and the page before");
	check(r[PG] == 'y', "its data kept");
	check(madvise(r + PG, PG, MADV_WILLNEED) == 0 && madvise(r + PG, PG, MADV_COLD) == 0,
	      "WILLNEED and COLD on it: 0");

	/* Sealed neighbours merge; a range over sealed and unsealed seals the
	 * rest. */
	q = map(3, PROT_READ);
	check(mseal_(q, PG, 0) == 0 && mseal_(q + PG, PG, 0) == 0 && vma_is(q, 2, 1),
	      "two pages sealed one by one: one VMA");
	check(mseal_(q, 3 * PG, 0) == 0 && vma_is(q, 3, 1), "then all three: one VMA");

	/* A fork keeps it. */
	pid = fork();
	if (pid == 0)
		_exit(munmap(q, PG) == -1 && errno == EPERM && vma_is(q, 3, 1) ? 0 : 1);
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a forked child's copy is sealed");

	/* The heap: a sealed page stays (brk answers the old break; glibc's
	 * brk then says 0, musl has no sbrk to grow it). */
	brk0 = (void *)syscall(SYS_brk, 0);
	if (syscall(SYS_brk, (char *)brk0 + PG) == (long)brk0 + PG) {
		check(mseal_(brk0, PG, 0) == 0, "seal a heap page");
		check(syscall(SYS_brk, brk0) == (long)brk0 + PG,
		      "brk cannot shrink the heap over it: the old break");
	} else {
		check(0, "brk");
	}
	return 0;
}
