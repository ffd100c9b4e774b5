/* mincore(2) says which pages are resident as Linux's mincore_pte_range:
 * a page mapped in the process's page tables, or, for a file mapping, a
 * page of the file in the page cache (shmem's pages for shared anonymous
 * memory, memfds and tmpfs files). skas said 1 for every page of a file or
 * of shared memory, touched or not. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tap.h"

#define PG 4096

/* The vector of n pages from p as digits ("0110"), or "E" if it fails. */
static const char *residency(void *p, size_t n)
{
	static char got[64];
	unsigned char vec[64];
	size_t i;

	if (mincore(p, n * PG, vec) < 0)
		return "E";
	for (i = 0; i < n; i++)
		got[i] = (char)('0' + vec[i]);
	got[n] = 0;
	return got;
}

static void check_res(void *p, size_t n, const char *want, const char *what)
{
	char line[256];
	const char *got = residency(p, n);

	snprintf(line, sizeof(line), "%s: %s", what, got);
	check(strcmp(got, want) == 0, line);
}

int main(void)
{
	char *a, *s, *m, *pm, *f, *big, path[] = "/tmp/mincore_resident.XXXXXX";
	int fd, tf;
	size_t i, count;
	unsigned char *vec;

	/* private anonymous: only touched pages */
	a = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check_res(a, 4, "0000", "private anonymous, untouched");
	a[PG] = 1;
	(void)*(volatile char *)(a + 2 * PG);
	check_res(a, 4, "0110", "private anonymous, page 1 written, page 2 read");

	/* shared anonymous: shmem pages come with the first touch */
	s = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	check_res(s, 4, "0000", "shared anonymous, untouched");
	s[3 * PG] = 1;
	check_res(s, 4, "0001", "shared anonymous, page 3 written");

	/* a memfd: its pages in the page cache, however they came */
	fd = memfd_create("mincore", 0);
	check(fd >= 0 && ftruncate(fd, 4 * PG) == 0, "a memfd of 4 pages");
	m = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check_res(m, 4, "0000", "shared memfd mapping, nothing written");
	check(pwrite(fd, "x", 1, 2 * PG) == 1, "pwrite to page 2 of the memfd");
	check_res(m, 4, "0010", "... page 2 resident though never touched through the mapping");
	m[0] = 1;
	check_res(m, 4, "1010", "... and page 0 once written through it");
	pm = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	check_res(pm, 4, "1010", "a private mapping of it: the file's cached pages");
	pm[3 * PG] = 1;
	check_res(pm, 4, "1011", "... and its private copy of page 3");
	check_res(m, 4, "1011", "... for which the file's page 3 was read in");
	check_res(pm + PG, 2, "01", "a range from the middle of the mapping");

	/* a file in /tmp, written at page 1 only (sparse) */
	tf = mkstemp(path);
	check(tf >= 0 && ftruncate(tf, 4 * PG) == 0 && pwrite(tf, "y", 1, PG) == 1,
	      "a file in /tmp, page 1 written");
	f = mmap(NULL, 4 * PG, PROT_READ, MAP_SHARED, tf, 0);
	check_res(f, 4, "0100", "its mapping: page 1 only");
	{
		/* can_do_mincore: one who neither owns the file nor could
		 * write it learns nothing of its pages: all resident */
		int st = -1, ro = open(path, O_RDONLY);
		pid_t pid;

		fchmod(tf, 0644);
		pid = fork();
		if (pid == 0) {
			unsigned char v[4];
			void *q;

			if (setresgid(65534, 65534, 65534) < 0 ||
			    setresuid(65534, 65534, 65534) < 0)
				_exit(2);
			q = mmap(NULL, 4 * PG, PROT_READ, MAP_SHARED, ro, 0);
			_exit(q != MAP_FAILED && mincore(q, 4 * PG, v) == 0 && v[0] && v[2] && v[3]
				      ? 0
				      : 1);
		}
		waitpid(pid, &st, 0);
		check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "to another user, who may not write it: every page resident");
		close(ro);
	}
	unlink(path);

	/* a big mostly untouched range: answered, and only the touched pages */
	big = mmap(NULL, 1UL << 30, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	vec = malloc((1UL << 30) / PG);
	big[0] = big[12345 * PG] = 1;
	count = 0;
	if (big != MAP_FAILED && vec && mincore(big, 1UL << 30, vec) == 0)
		for (i = 0; i < (1UL << 30) / PG; i++)
			count += vec[i];
	check(count == 2, "1 GiB of anonymous memory with 2 pages touched: 2 resident");
	return 0;
}
