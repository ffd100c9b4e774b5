/* msync: a shared file mapping's writes are in the file (read(2) sees them
 * before and after msync), the flag and alignment checks, and the ENOMEM
 * of a range with a gap (after the mapped parts; at once for MS_ASYNC). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "tap.h"

static void expect(int r, int want, const char *what)
{
	int e = r < 0 ? errno : 0;

	printf("%s %d - %s -> %s\n", e == want ? "ok" : "not ok", ++n, what,
	       want == 0	? "0"
	       : want == EINVAL ? "EINVAL"
	       : want == ENOMEM ? "ENOMEM"
				: "?");
}

int main(void)
{
	char path[] = "/tmp/skasmsync.XXXXXX", buf[8];
	long pg = sysconf(_SC_PAGESIZE);
	int fd = mkstemp(path);
	char *p, *q;

	check(fd >= 0 && ftruncate(fd, 4 * pg) == 0, "a 4-page file");
	p = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(p != MAP_FAILED, "map it shared");
	memcpy(p + pg, "hello", 5);
	check(pread(fd, buf, 5, pg) == 5 && !memcmp(buf, "hello", 5),
	      "read(2) sees the mapping's write");
	expect(msync(p, 4 * pg, MS_SYNC), 0, "msync MS_SYNC");
	expect(msync(p, 4 * pg, MS_ASYNC), 0, "msync MS_ASYNC");
	expect(msync(p, 4 * pg, MS_INVALIDATE), 0, "msync MS_INVALIDATE");
	expect(msync(p, 4 * pg, 0), 0, "msync flags 0");
	expect(msync(p + pg, 1, MS_SYNC), 0, "a 1-byte length is a page");
	expect(msync(p, 0, MS_SYNC), 0, "length 0");
	expect(msync(p + 1, pg, MS_SYNC), EINVAL, "an unaligned address");
	expect(msync(p, pg, MS_SYNC | MS_ASYNC), EINVAL, "MS_SYNC with MS_ASYNC");
	expect(msync(p, pg, 8), EINVAL, "flag 8");
	expect(msync(p, (size_t)-1, MS_SYNC), 0, "a length of -1 rounds up to 0");
	expect(msync(p, -(size_t)(2 * pg), MS_SYNC), ENOMEM, "a length past the end of memory");

	/* a gap: unmap the third page */
	check(munmap(p + 2 * pg, pg) == 0, "unmap the third page");
	expect(msync(p, 4 * pg, MS_SYNC), ENOMEM, "a gap: ENOMEM (MS_SYNC)");
	expect(msync(p, 4 * pg, MS_ASYNC), ENOMEM, "a gap: ENOMEM (MS_ASYNC)");
	expect(msync(p, 2 * pg, MS_ASYNC), 0, "up to the gap");
	expect(msync(p + 2 * pg, pg, MS_SYNC), ENOMEM, "the gap alone");
	q = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(q != MAP_FAILED, "an anonymous page");
	expect(msync(q, pg, MS_SYNC), 0, "msync of anonymous memory");
	munmap(q, pg);
	expect(msync(q, pg, MS_SYNC), ENOMEM, "msync of an unmapped page");
	munmap(p, 4 * pg);
	close(fd);
	unlink(path);
	return 0;
}
