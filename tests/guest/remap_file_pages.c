/* remap_file_pages(2), deprecated but in every x86-64 Linux (skas had it
 * as ENOSYS; stress-ng's remap stressor calls it): a shared file mapping's
 * pages are mapped again at other file offsets, as a new mapping of the
 * same file over the range. The range may span adjacent VMAs of the same
 * file and flags; prot must be 0; flags are ignored. EINVAL for a private
 * mapping, an address with no mapping, a range that runs into a hole or
 * into another file's mapping, an empty or wrapping range, a wrapping
 * page offset; EOVERFLOW for an offset past the largest file; EPERM where
 * the file's seals forbid the new mapping. The start is rounded down to
 * its page. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#define TAP_ENAME
#include "tap.h"

#define PG 4096

static long rfp(void *start, unsigned long size, unsigned long prot, unsigned long pgoff,
		unsigned long flags)
{
	return syscall(SYS_remap_file_pages, start, size, prot, pgoff, flags);
}

/* A file of n pages, page i all 'A' + i. */
static int make_file(const char *path, int n)
{
	char buf[PG];
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	for (int i = 0; fd >= 0 && i < n; i++) {
		memset(buf, 'A' + i, sizeof(buf));
		if (write(fd, buf, sizeof(buf)) != PG)
			return -1;
	}
	return fd;
}

/* The file offsets /proc/self/maps shows for the pages of [p, p + n
 * pages), one letter per page: 'a' + offset in pages, '-' if none. */
static const char *offsets(char *p, int n)
{
	static char out[16];
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi, off;

	memset(out, '-', (size_t)n);
	out[n] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %*s %lx", &lo, &hi, &off) != 3)
			continue;
		for (int i = 0; i < n; i++) {
			unsigned long a = (unsigned long)p + (unsigned long)i * PG;

			if (a >= lo && a < hi)
				out[i] = (char)('a' + (off + (a - lo)) / PG);
		}
	}
	if (f)
		fclose(f);
	return out;
}

static int pages_read(char *p, const char *want)
{
	for (int i = 0; want[i]; i++)
		if (p[i * PG] != want[i] || p[i * PG + PG - 1] != want[i])
			return 0;
	return 1;
}

int main(void)
{
	char path[] = "/tmp/rfpXXXXXX", path2[] = "/tmp/rfp2XXXXXX";
	int fd, fd2, rfd;
	char *p, *q, *r, c;

	fd = mkstemp(path);
	fd2 = mkstemp(path2);
	if (fd < 0 || fd2 < 0 || make_file(path, 4) < 0 || make_file(path2, 2) < 0) {
		perror("setup");
		return 1;
	}
	close(fd);
	fd = open(path, O_RDWR);
	p = mmap(NULL, 6 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	munmap(p + 4 * PG, 2 * PG); /* a hole after the 4 pages */
	check(pages_read(p, "ABCD"), "mapped: ABCD");

	check(rfp(p, PG, 0, 3, 0) == 0, "page 0 -> file page 3: 0");
	check(pages_read(p, "DBCD"), "reads DBCD");
	check(strcmp(offsets(p, 4), "dbcd") == 0, "maps offsets d b c d");
	p[0] = 'x';
	check(pread(fd, &c, 1, 3 * PG) == 1 && c == 'x', "a write there is file page 3's");
	p[0] = 'D';

	check(rfp(p + 2 * PG + 100, PG + 100, 0, 0, 0) == 0,
	      "unaligned start and size, both rounded down: page 2 -> 0");
	check_err(rfp(p + 2 * PG, 100, 0, 0, 0), EINVAL, "size under a page (rounds to 0)");
	check(pages_read(p, "DBAD"), "reads DBAD");
	check(rfp(p, 4 * PG, 0, 0, MAP_NONBLOCK | MAP_PRIVATE | 0x1000000) == 0,
	      "across the four VMAs back to 0, stray flags ignored: 0");
	check(pages_read(p, "ABCD"), "reads ABCD");
	check(strcmp(offsets(p, 4), "abcd") == 0, "maps offsets a b c d");
	check(rfp(p + PG, 2 * PG, 0, 1, 0) == 0, "the same offsets again: 0");

	check_err(rfp(p, PG, PROT_READ, 1, 0), EINVAL, "prot not 0");
	check_err(rfp(p, 0, 0, 1, 0), EINVAL, "size 0");
	check_err(rfp(p, 5 * PG, 0, 0, 0), EINVAL, "into the hole after the mapping");
	check_err(rfp(p + 4 * PG, PG, 0, 0, 0), EINVAL, "in the hole");
	check_err(rfp(p, -2UL * PG, 0, 0, 0), EINVAL, "a wrapping range");
	check_err(rfp(p, PG, 0, -1UL, 0), EINVAL, "a wrapping page offset");
	check_err(rfp(p, PG, 0, 1UL << 52, 0), EOVERFLOW, "an offset past the largest file");
	check(pages_read(p, "ABCD"), "unchanged by the failures");

	/* Another file's mapping right after: not one range. */
	q = mmap(p + 4 * PG, PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd2, 0);
	check(q == p + 4 * PG && *q == 'A', "another file mapped in the hole");
	check_err(rfp(p + 3 * PG, 2 * PG, 0, 0, 0), EINVAL, "into another file's mapping");
	check(rfp(q, PG, 0, 1, 0) == 0 && *q == 'B', "that one's page -> its page 1");
	munmap(q, PG);

	/* Protection differs between the VMAs: not one range. */
	mprotect(p + PG, PG, PROT_READ);
	check_err(rfp(p, 2 * PG, 0, 2, 0), EINVAL, "across VMAs of other protections");
	check(rfp(p + PG, PG, 0, 2, 0) == 0 && pages_read(p, "ACCD"),
	      "a read-only page -> page 2: 0");
	mprotect(p + PG, PG, PROT_READ | PROT_WRITE);

	/* A private mapping of the file, and anonymous memory: EINVAL. */
	r = mmap(NULL, 2 * PG, PROT_READ, MAP_PRIVATE, fd, 0);
	check_err(rfp(r, PG, 0, 1, 0), EINVAL, "a private file mapping");
	munmap(r, 2 * PG);
	r = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check_err(rfp(r, PG, 0, 0, 0), EINVAL, "private anonymous memory");
	munmap(r, PG);

	/* A shared mapping of a read-only open is not VM_SHARED in Linux. */
	rfd = open(path, O_RDONLY);
	r = mmap(NULL, 2 * PG, PROT_READ, MAP_SHARED, rfd, 0);
	check(r != MAP_FAILED, "shared mapping of a read-only open");
	check_err(rfp(r, PG, 0, 2, 0), EINVAL, "remapped");
	/* A read-only mapping of a writable open is. */
	r = mmap(NULL, 2 * PG, PROT_READ, MAP_SHARED, fd, 0);
	check(r != MAP_FAILED && rfp(r, 2 * PG, 0, 2, 0) == 0 && pages_read(r, "CD"),
	      "read-only shared mapping of a writable open: pages 2 and 3");
	check(strcmp(offsets(r, 2), "cd") == 0, "maps offsets c d");

	/* The new mapping obeys the file's seals: a writable shared mapping
	 * of a memfd sealed against future writes is not remapped. */
	fd2 = (int)syscall(SYS_memfd_create, "rfp", 2 /* MFD_ALLOW_SEALING */);
	if (fd2 >= 0 && ftruncate(fd2, 2 * PG) == 0) {
		r = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd2, 0);
		check(r != MAP_FAILED && fcntl(fd2, 1033 /* F_ADD_SEALS */,
					       0x10 /* F_SEAL_FUTURE_WRITE */) == 0,
		      "a memfd mapped writable, then sealed against future writes");
		check_err(rfp(r, PG, 0, 1, 0), EPERM, "remapped");
	} else {
		check(0, "memfd_create");
	}
	unlink(path);
	unlink(path2);
	return 0;
}
