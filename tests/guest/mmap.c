/* mmap/munmap/mprotect/mremap/madvise semantics and errno cases. Never
 * touches memory that is not mapped (no fault handlers here): unmapped-ness
 * is probed with mprotect, which fails with ENOMEM on a hole. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tap.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#ifndef MREMAP_FIXED
#define MREMAP_FIXED 2
#endif
#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK 18
#define MADV_KEEPONFORK 19
#endif
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ  22
#define MADV_POPULATE_WRITE 23
#endif
#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif

#define PG 4096UL
#define RW (PROT_READ | PROT_WRITE)
#define PA (MAP_PRIVATE | MAP_ANONYMOUS)

static const char hello[] = "Hello, world!\nThis is the skas test fixture.\n";

static const char *ename(int e)
{
	switch (e) {
	case 0:
		return "0";
	case EINVAL:
		return "EINVAL";
	case ENOMEM:
		return "ENOMEM";
	case EBADF:
		return "EBADF";
	case EEXIST:
		return "EEXIST";
	case EACCES:
		return "EACCES";
	case EPERM:
		return "EPERM";
	case EFAULT:
		return "EFAULT";
	case ENODEV:
		return "ENODEV";
	case EOVERFLOW:
		return "EOVERFLOW";
	case ENOSYS:
		return "ENOSYS";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	default:
		return "E?";
	}
}

/* raw syscalls: libc wrappers add their own checks (glibc and musl differ) */
static long rmmap(unsigned long a, unsigned long len, long prot, long flags, long fd, long off)
{
	return syscall(SYS_mmap, a, len, prot, flags, fd, off);
}

/* expect a raw call result of -1 with errno `want` */
static void check_err(long r, int want, const char *what)
{
	int e = errno;

	if (r == -1 && e == want)
		printf("ok %d - %s -> %s\n", ++n, what, ename(want));
	else
		printf("not ok %d - %s: ret %s, errno %s (want %s)\n", ++n, what,
		       r == -1 ? "-1" : "success", ename(r == -1 ? e : 0), ename(want));
}

static int mapped(void *p, unsigned long len)
{
	/* mprotect succeeds iff the whole range is mapped; keep it RW */
	return mprotect(p, len, RW) == 0;
}

static int all_is(const unsigned char *p, unsigned long len, unsigned char c)
{
	unsigned long i;

	for (i = 0; i < len; i++)
		if (p[i] != c)
			return 0;
	return 1;
}

int main(void)
{
	unsigned char *p, *q, *r;
	long ret;
	int fd;

	/* --- basic anonymous mapping --- */
	p = mmap(NULL, 3 * PG, RW, PA, -1, 0);
	check(p != MAP_FAILED, "anonymous private mmap of 3 pages");
	check(((unsigned long)p & (PG - 1)) == 0, "mmap result is page-aligned");
	check(all_is(p, 3 * PG, 0), "anonymous memory is zero");
	memset(p, 0x5a, 3 * PG);
	check(all_is(p, 3 * PG, 0x5a), "anonymous memory is writable");
	check(munmap(p, 3 * PG) == 0, "munmap returns 0");
	check(!mapped(p, PG), "unmapped range is gone");

	/* length not a page multiple: the mapping is rounded up */
	p = mmap(NULL, 100, RW, PA, -1, 0);
	check(p != MAP_FAILED, "mmap of 100 bytes");
	p[PG - 1] = 1;
	check(p[PG - 1] == 1 && mapped(p, PG), "a 100-byte mapping covers a whole page");
	check(munmap(p, 100) == 0, "munmap of 100 bytes unmaps the page");
	check(!mapped(p, PG), "page gone");

	/* --- errno cases --- */
	errno = 0;
	check_err(rmmap(0, 0, RW, PA, -1, 0), EINVAL, "mmap length 0");
	errno = 0;
	check_err(rmmap(0x10000001, PG, RW, PA | MAP_FIXED, -1, 0), EINVAL,
		  "mmap MAP_FIXED unaligned address");
	errno = 0;
	check_err(rmmap(0, PG, RW, MAP_ANONYMOUS, -1, 0), EINVAL,
		  "mmap without MAP_PRIVATE or MAP_SHARED");
	errno = 0;
	check_err(rmmap(0, PG, RW, MAP_PRIVATE | MAP_SHARED | MAP_ANONYMOUS, -1, 0), EINVAL,
		  "anonymous mmap with MAP_SHARED_VALIDATE (= MAP_PRIVATE|MAP_SHARED)");
	errno = 0;
	check_err(rmmap(0, PG, RW, MAP_PRIVATE, -1, 0), EBADF, "file mmap of fd -1");
	errno = 0;
	check_err(rmmap(0, PG, RW, MAP_PRIVATE, 1000, 0), EBADF, "file mmap of fd 1000");
	errno = 0;
	check_err(rmmap(0, PG, RW, PA, -1, 100), EINVAL, "mmap with an unaligned offset");
	errno = 0;
	check_err(rmmap(0, 1UL << 48, RW, PA, -1, 0), ENOMEM, "mmap of 2^48 bytes");
	errno = 0;
	check_err(rmmap(0, -PG, RW, PA, -1, 0), ENOMEM, "mmap of length -4096");
	errno = 0;
	check_err(rmmap(0xffff800000000000UL, PG, RW, PA | MAP_FIXED, -1, 0), ENOMEM,
		  "mmap MAP_FIXED at a kernel address");

	p = mmap(NULL, 2 * PG, RW, PA, -1, 0);
	errno = 0;
	check_err(syscall(SYS_munmap, p + 1, PG), EINVAL, "munmap unaligned");
	errno = 0;
	check_err(syscall(SYS_munmap, p, 0), EINVAL, "munmap length 0");
	errno = 0;
	check_err(syscall(SYS_munmap, 0xffff800000000000UL, PG), EINVAL,
		  "munmap of a kernel address");
	check(munmap(p, 2 * PG) == 0, "munmap");
	check(syscall(SYS_munmap, p, 2 * PG) == 0, "munmap of an unmapped range returns 0");
	errno = 0;
	check_err(syscall(SYS_mprotect, p, PG, PROT_READ), ENOMEM, "mprotect of an unmapped range");

	p = mmap(NULL, 2 * PG, RW, PA, -1, 0);
	errno = 0;
	check_err(syscall(SYS_mprotect, p + 1, PG, PROT_READ), EINVAL, "mprotect unaligned");
	errno = 0;
	check_err(syscall(SYS_mprotect, p, PG, 0x100), EINVAL, "mprotect with bad prot bits");
	check(syscall(SYS_mprotect, p, 0, PROT_READ) == 0, "mprotect length 0 returns 0");
	/* a range that runs off the end of the mapping into a hole */
	munmap(p + PG, PG);
	errno = 0;
	check_err(syscall(SYS_mprotect, p, 2 * PG, PROT_READ), ENOMEM,
		  "mprotect running into a hole");
	munmap(p, PG);

	/* MAP_FIXED_NOREPLACE */
	p = mmap(NULL, 2 * PG, RW, PA, -1, 0);
	errno = 0;
	check_err(rmmap((unsigned long)p + PG, PG, RW, PA | MAP_FIXED_NOREPLACE, -1, 0), EEXIST,
		  "MAP_FIXED_NOREPLACE over an existing mapping");
	munmap(p + PG, PG);
	check(rmmap((unsigned long)p + PG, PG, RW, PA | MAP_FIXED_NOREPLACE, -1, 0) ==
		      (long)(p + PG),
	      "MAP_FIXED_NOREPLACE into a free page returns that page");
	munmap(p, 2 * PG);

	/* the hint is honoured when the range is free */
	p = mmap(NULL, 4 * PG, RW, PA, -1, 0);
	munmap(p, 4 * PG);
	q = mmap(p + PG, 2 * PG, RW, PA, -1, 0);
	check(q == p + PG, "a free page-aligned hint is honoured");
	munmap(q, 2 * PG);
	/* an unaligned hint without MAP_FIXED is not an error */
	q = mmap(p + 5, PG, RW, PA, -1, 0);
	check(q != MAP_FAILED && ((unsigned long)q & (PG - 1)) == 0,
	      "an unaligned hint still maps (page-aligned)");
	munmap(q, PG);
	/* an occupied hint yields some other address */
	p = mmap(NULL, PG, RW, PA, -1, 0);
	q = mmap(p, PG, RW, PA, -1, 0);
	check(q != MAP_FAILED && q != p, "an occupied hint gives a different address");
	check(p != MAP_FAILED && mapped(p, PG), "the occupying mapping is untouched");
	munmap(p, PG);
	munmap(q, PG);

	/* MAP_FIXED replaces part of a mapping and keeps the rest */
	p = mmap(NULL, 3 * PG, RW, PA, -1, 0);
	memset(p, 0x11, 3 * PG);
	q = mmap(p + PG, PG, RW, PA | MAP_FIXED, -1, 0);
	check(q == p + PG, "MAP_FIXED over the middle page returns that address");
	check(all_is(p + PG, PG, 0), "the replaced page is zero");
	check(all_is(p, PG, 0x11) && all_is(p + 2 * PG, PG, 0x11),
	      "the pages around it keep their contents");
	munmap(p, 3 * PG);

	/* PROT_NONE then mprotect to RW */
	p = mmap(NULL, 2 * PG, PROT_NONE, PA, -1, 0);
	check(p != MAP_FAILED, "PROT_NONE mapping");
	check(mprotect(p, 2 * PG, RW) == 0, "mprotect PROT_NONE -> RW");
	p[0] = 3;
	p[2 * PG - 1] = 4;
	check(p[0] == 3 && p[2 * PG - 1] == 4, "writable after mprotect");
	check(mprotect(p, PG, PROT_READ) == 0, "mprotect first page to PROT_READ");
	check(p[0] == 3, "still readable");
	check(mprotect(p, PG, RW) == 0, "mprotect back to RW");
	p[0] = 5;
	check(p[0] == 5, "writable again");
	munmap(p, 2 * PG);

	/* a large reservation, touched at both ends */
	p = mmap(NULL, 256UL << 20, RW, PA | MAP_NORESERVE, -1, 0);
	check(p != MAP_FAILED, "256 MiB anonymous mapping");
	if (p != MAP_FAILED) {
		p[0] = 1;
		p[(256UL << 20) - 1] = 2;
		check(p[0] == 1 && p[(256UL << 20) - 1] == 2, "both ends of it are writable");
		munmap(p, 256UL << 20);
	}

	/* --- private file mapping --- */
	fd = open("tests/guest/data/hello.txt", O_RDONLY);
	check(fd >= 0, "open hello.txt");
	p = mmap(NULL, PG, PROT_READ, MAP_PRIVATE, fd, 0);
	check(p != MAP_FAILED, "private read-only file mapping");
	if (p != MAP_FAILED) {
		check(memcmp(p, hello, sizeof hello - 1) == 0,
		      "the mapping shows the file's bytes");
		check(all_is(p + sizeof hello - 1, PG - (sizeof hello - 1), 0),
		      "the page past EOF is zero");
		munmap(p, PG);
	}
	p = mmap(NULL, PG, RW, MAP_PRIVATE, fd, 0);
	check(p != MAP_FAILED, "private writable file mapping of a read-only fd");
	if (p != MAP_FAILED) {
		char buf[64];

		memcpy(p, "JELLO", 5);
		check(memcmp(p, "JELLO, world!", 13) == 0,
		      "writes to the private mapping are visible in it");
		memset(buf, 0, sizeof buf);
		check(pread(fd, buf, 13, 0) == 13 && memcmp(buf, "Hello, world!", 13) == 0,
		      "the file itself is unchanged");
		munmap(p, PG);
	}
	/* mapping at a nonzero page offset past EOF is allowed (access would
	 * SIGBUS, so don't touch it) */
	ret = rmmap(0, PG, PROT_READ, MAP_PRIVATE, fd, PG);
	check(ret != -1, "mapping a file page past EOF succeeds");
	if (ret != -1)
		munmap((void *)ret, PG);
	errno = 0;
	check_err(rmmap(0, PG, RW, MAP_SHARED, fd, 0), EACCES,
		  "shared writable mapping of a read-only fd");
	{
		int dfd = open("tests/guest/data/dir", O_RDONLY | O_DIRECTORY);
		errno = 0;
		check_err(rmmap(0, PG, PROT_READ, MAP_PRIVATE, dfd, 0), ENODEV,
			  "mmap of a directory");
		close(dfd);
	}
	close(fd);
	/* the mapping outlives the fd */
	fd = open("tests/guest/data/hello.txt", O_RDONLY);
	p = mmap(NULL, PG, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	check(p != MAP_FAILED && memcmp(p, hello, 5) == 0,
	      "a file mapping stays valid after close");
	if (p != MAP_FAILED)
		munmap(p, PG);

	/* --- mremap --- */
	/* grow in place: reserve 4 pages, keep 2, grow back to 4 */
	p = mmap(NULL, 4 * PG, RW, PA, -1, 0);
	munmap(p + 2 * PG, 2 * PG);
	memset(p, 0x22, 2 * PG);
	q = mremap(p, 2 * PG, 4 * PG, 0);
	check(q == p, "mremap grows in place when the space is free");
	check(all_is(p, 2 * PG, 0x22), "old contents kept");
	check(all_is(p + 2 * PG, 2 * PG, 0), "grown part is zero");
	/* shrink */
	q = mremap(p, 4 * PG, PG, 0);
	check(q == p, "mremap shrink returns the same address");
	check(all_is(p, PG, 0x22), "shrunk mapping keeps its contents");
	check(!mapped(p + PG, PG) && !mapped(p + 3 * PG, PG), "the tail is unmapped after shrink");
	munmap(p, PG);

	/* blocked growth: without MAYMOVE -> ENOMEM, with MAYMOVE it moves */
	p = mmap(NULL, 3 * PG, RW, PA, -1, 0);
	memset(p, 0x33, PG);
	memset(p + PG, 0x44, 2 * PG);
	errno = 0;
	check_err(syscall(SYS_mremap, p, PG, 2 * PG, 0), ENOMEM,
		  "mremap growing into a mapped page without MAYMOVE");
	q = mremap(p, PG, 2 * PG, MREMAP_MAYMOVE);
	check(q != MAP_FAILED && q != p, "MREMAP_MAYMOVE moves the mapping");
	if (q != MAP_FAILED) {
		check(all_is(q, PG, 0x33), "moved mapping keeps its contents");
		check(all_is(q + PG, PG, 0), "its grown part is zero");
		check(!mapped(p, PG), "the old first page is unmapped");
		check(mapped(p + PG, 2 * PG) && all_is(p + PG, 2 * PG, 0x44),
		      "the rest of the old mapping is untouched");
		munmap(q, 2 * PG);
	}
	munmap(p, 3 * PG);

	/* MREMAP_FIXED moves to a chosen address */
	p = mmap(NULL, 2 * PG, RW, PA, -1, 0);
	r = mmap(NULL, 4 * PG, RW, PA, -1, 0);
	memset(p, 0x55, 2 * PG);
	memset(r, 0x66, 4 * PG);
	q = mremap(p, 2 * PG, 2 * PG, MREMAP_MAYMOVE | MREMAP_FIXED, r + PG);
	check(q == r + PG, "MREMAP_FIXED returns the requested address");
	check(all_is(r + PG, 2 * PG, 0x55), "the target holds the moved contents");
	check(all_is(r, PG, 0x66) && all_is(r + 3 * PG, PG, 0x66),
	      "the target's neighbours are kept");
	check(!mapped(p, PG) && !mapped(p + PG, PG), "the source is unmapped");
	munmap(r, 4 * PG);

	/* mremap errors */
	p = mmap(NULL, 2 * PG, RW, PA, -1, 0);
	errno = 0;
	check_err(syscall(SYS_mremap, p, 0, PG, MREMAP_MAYMOVE), EINVAL,
		  "mremap old_size 0 of a private mapping");
	errno = 0;
	check_err(syscall(SYS_mremap, p, PG, 2 * PG, 0x80), EINVAL, "mremap with bad flags");
	errno = 0;
	check_err(syscall(SYS_mremap, p, PG, 2 * PG, MREMAP_FIXED, p + 8 * PG), EINVAL,
		  "mremap MREMAP_FIXED without MREMAP_MAYMOVE");
	errno = 0;
	check_err(syscall(SYS_mremap, p + 1, PG, 2 * PG, MREMAP_MAYMOVE), EINVAL,
		  "mremap unaligned address");
	errno = 0;
	check_err(syscall(SYS_mremap, p, PG, 0, MREMAP_MAYMOVE), EINVAL, "mremap new_size 0");
	errno = 0;
	check_err(syscall(SYS_mremap, p, PG, PG, MREMAP_MAYMOVE | MREMAP_FIXED, p), EINVAL,
		  "mremap MREMAP_FIXED onto itself (overlap)");
	munmap(p, 2 * PG);
	errno = 0;
	check_err(syscall(SYS_mremap, p, PG, 2 * PG, MREMAP_MAYMOVE), EFAULT,
		  "mremap of an unmapped address");

	/* --- madvise --- */
	p = mmap(NULL, 3 * PG, RW, PA, -1, 0);
	memset(p, 0x77, 3 * PG);
	check(madvise(p + PG, PG, MADV_DONTNEED) == 0, "madvise(MADV_DONTNEED)");
	check(all_is(p + PG, PG, 0), "MADV_DONTNEED zeroes private anonymous pages");
	check(all_is(p, PG, 0x77) && all_is(p + 2 * PG, PG, 0x77),
	      "neighbouring pages keep their contents");
	check(madvise(p, 3 * PG, MADV_NORMAL) == 0, "madvise(MADV_NORMAL)");
	check(madvise(p, 3 * PG, MADV_WILLNEED) == 0, "madvise(MADV_WILLNEED)");
	errno = 0;
	check_err(syscall(SYS_madvise, p + 1, PG, MADV_DONTNEED), EINVAL, "madvise unaligned");
	errno = 0;
	check_err(syscall(SYS_madvise, p, PG, 12345), EINVAL, "madvise with a bad advice");
	munmap(p, 3 * PG);
	errno = 0;
	check_err(syscall(SYS_madvise, p, PG, MADV_DONTNEED), ENOMEM,
		  "madvise of an unmapped range");

	/* the file mapping after MADV_DONTNEED shows the file again */
	fd = open("tests/guest/data/hello.txt", O_RDONLY);
	p = mmap(NULL, PG, RW, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p != MAP_FAILED) {
		p[0] = 'J';
		check(madvise(p, PG, MADV_DONTNEED) == 0 && p[0] == 'H',
		      "MADV_DONTNEED on a private file mapping drops the private copy");
		munmap(p, PG);
	} else {
		check(0, "MADV_DONTNEED on a private file mapping drops the private copy");
	}

	/* A hole in the range: ENOMEM, the mapped part advised all the same
	 * (Linux); a length rounding up to 0 is EINVAL. */
	p = mmap(NULL, 3 * PG, RW, PA, -1, 0);
	memset(p, 0x55, 3 * PG);
	munmap(p + PG, PG);
	check_err(syscall(SYS_madvise, p, 3 * PG, MADV_DONTNEED), ENOMEM,
		  "MADV_DONTNEED over a hole");
	check(all_is(p, PG, 0) && all_is(p + 2 * PG, PG, 0),
	      "... and the pages around it are zeroed all the same");
	check_err(syscall(SYS_madvise, p, 3 * PG, MADV_WILLNEED), ENOMEM,
		  "MADV_WILLNEED over a hole");
	check_err(syscall(SYS_madvise, p, -1UL, MADV_NORMAL), EINVAL,
		  "madvise length rounding up to 0");
	munmap(p, 3 * PG);

	/* MADV_WIPEONFORK: the child sees zeros, the parent its data;
	 * MADV_KEEPONFORK undoes it; a file mapping refuses it. */
	p = mmap(NULL, 2 * PG, RW, PA, -1, 0);
	memset(p, 0x66, 2 * PG);
	check(madvise(p, PG, MADV_WIPEONFORK) == 0, "madvise(MADV_WIPEONFORK)");
	check(madvise(p + PG, PG, MADV_WIPEONFORK) == 0 &&
		      madvise(p + PG, PG, MADV_KEEPONFORK) == 0,
	      "madvise(MADV_KEEPONFORK)");
	fflush(stdout);
	{
		int st;
		pid_t c = fork();

		if (c == 0)
			_exit(all_is(p, PG, 0) && all_is(p + PG, PG, 0x66) ? 0 : 1);
		check(c > 0 && waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "the child's copy is wiped, the KEEPONFORK page kept");
	}
	check(all_is(p, 2 * PG, 0x66), "the parent's is not");
	munmap(p, 2 * PG);
	fd = open("tests/guest/data/hello.txt", O_RDONLY);
	p = mmap(NULL, PG, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	check_err(syscall(SYS_madvise, p, PG, MADV_WIPEONFORK), EINVAL,
		  "MADV_WIPEONFORK on a file mapping");
	munmap(p, PG);

	/* MADV_POPULATE_READ/WRITE prefault; the data stays. */
	p = mmap(NULL, 2 * PG, RW, PA, -1, 0);
	p[0] = 9;
	check(madvise(p, 2 * PG, MADV_POPULATE_READ) == 0 &&
		      madvise(p, 2 * PG, MADV_POPULATE_WRITE) == 0 && p[0] == 9 && p[PG] == 0,
	      "MADV_POPULATE_READ and _WRITE");
	munmap(p, 2 * PG);

	/* msync: flag checks, ENOMEM for a hole (MS_SYNC stops there, the
	 * others go on), a length rounding to 0 is 0; on a shared file
	 * mapping the data is the file's. */
	p = mmap(NULL, 3 * PG, RW, PA, -1, 0);
	check(msync(p, 3 * PG, MS_SYNC) == 0 && msync(p, 3 * PG, MS_ASYNC) == 0 &&
		      msync(p, 3 * PG, MS_INVALIDATE) == 0 && msync(p, 3 * PG, 0) == 0,
	      "msync of a mapped range");
	check_err(syscall(SYS_msync, p + 1, PG, MS_SYNC), EINVAL, "msync unaligned");
	check_err(syscall(SYS_msync, p, PG, MS_SYNC | MS_ASYNC), EINVAL, "msync MS_SYNC|MS_ASYNC");
	check_err(syscall(SYS_msync, p, PG, 0x100), EINVAL, "msync with a bad flag");
	check(syscall(SYS_msync, p, -1UL, MS_SYNC) == 0, "msync length rounding to 0: 0");
	munmap(p + PG, PG);
	check_err(syscall(SYS_msync, p, 3 * PG, MS_SYNC), ENOMEM, "msync(MS_SYNC) over a hole");
	check_err(syscall(SYS_msync, p, 3 * PG, MS_ASYNC), ENOMEM, "msync(MS_ASYNC) over a hole");

	/* mincore: a byte per page up to a hole (ENOMEM), EINVAL unaligned,
	 * ENOMEM past the user range, EFAULT for a bad vector. */
	{
		unsigned char vec[4] = { 7, 7, 7, 7 };

		check_err(syscall(SYS_mincore, p, 3 * PG, vec), ENOMEM, "mincore over a hole");
		check(vec[0] <= 1 && vec[1] == 7, "... the vector filled up to it");
		memset(vec, 7, sizeof(vec));
		check(mincore(p + 2 * PG, PG - 1, vec) == 0 && vec[0] <= 1 && vec[1] == 7,
		      "mincore of a page (length rounded up)");
		check_err(syscall(SYS_mincore, p + 1, PG, vec), EINVAL, "mincore unaligned");
		check_err(syscall(SYS_mincore, p, PG, (void *)1), EFAULT,
			  "mincore with a bad vector");
		check_err(syscall(SYS_mincore, 0x7ffffffff000UL, 2 * PG, vec), ENOMEM,
			  "mincore past the user range");
		check(mincore(p, 0, vec) == 0, "mincore of nothing");
	}
	munmap(p, 3 * PG);
	/* mincore of private anonymous memory: 1 where a page is there
	 * (written, or read), 0 where none ever was or MADV_DONTNEED took
	 * it, whatever the protection now. */
	{
		char *a = mmap(NULL, 8 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);
		unsigned char vec[8];
		char got[9];
		int i;

		a[0] = 1;
		a[3 * PG] = 1;
		a[5 * PG] = *(volatile char *)(a + 6 * PG);
		madvise(a + 3 * PG, PG, MADV_DONTNEED);
		mprotect(a + 5 * PG, PG, PROT_NONE);
		check(mincore(a, 8 * PG, vec) == 0, "mincore of anonymous memory");
		for (i = 0; i < 8; i++)
			got[i] = (char)('0' + vec[i]);
		got[8] = 0;
		check(strcmp(got, "10000110") == 0, "... pages 0, 5 (now PROT_NONE) and 6 (read)");
		munmap(a, 8 * PG);
	}

	/* Flag checks of mmap and mprotect, as Linux. */
	fd = open("tests/guest/data/hello.txt", O_RDONLY);
	check_err(rmmap(0, PG, PROT_READ, MAP_SHARED, fd, 0x7ffffffffffff000L), EOVERFLOW,
		  "mmap of a file past the largest offset: EOVERFLOW");
	check_err(rmmap(0x300000000UL, PG, PROT_READ, MAP_SHARED_VALIDATE | MAP_FIXED_NOREPLACE, fd,
			0),
		  EOPNOTSUPP, "MAP_SHARED_VALIDATE does not take MAP_FIXED_NOREPLACE");
	p = mmap(NULL, PG, PROT_READ, MAP_SHARED_VALIDATE | 0x54000000 /* MAP_HUGE_2MB */, fd, 0);
	check(p != MAP_FAILED, "MAP_SHARED_VALIDATE takes the MAP_HUGE_* bits (ignored)");
	if (p != MAP_FAILED)
		munmap(p, PG);
	check_err(rmmap(0, PG, PROT_READ, MAP_PRIVATE | MAP_GROWSDOWN, fd, 0), EINVAL,
		  "a file mapping with MAP_GROWSDOWN: EINVAL");
	close(fd);
	p = mmap(NULL, 4 * PG, RW, PA, -1, 0);
	check_err(syscall(SYS_mprotect, p + PG, PG, PROT_READ | PROT_GROWSDOWN), EINVAL,
		  "mprotect(PROT_GROWSDOWN) of a mapping that does not grow down");
	check_err(syscall(SYS_mprotect, p + PG, PG, PROT_READ | PROT_GROWSUP), EINVAL,
		  "mprotect(PROT_GROWSUP): EINVAL (nothing grows up)");
	munmap(p, 4 * PG);
	p = mmap(NULL, 4 * PG, RW, PA | MAP_GROWSDOWN, -1, 0);
	check(mprotect(p + 2 * PG, PG, PROT_READ | PROT_GROWSDOWN) == 0,
	      "mprotect(PROT_GROWSDOWN) of a MAP_GROWSDOWN mapping");
	munmap(p, 4 * PG);

	/* realloc's pattern: memory moved by mremap, grown in place, then
	 * moved again keeps every byte. skas grew it with a second host
	 * mapping that the host did not merge with the moved one, and the
	 * second move lost the memory (CPython's test_eintr: SIGSEGV). A
	 * child does it: a lost page kills only the child. */
	pid_t c = fork();
	int st;

	if (c == 0) {
		unsigned long l1 = 65 * PG, l2 = 81 * PG, l3 = 97 * PG, l4 = 161 * PG,
			      big = 1024 * PG;
		char *b = mmap(NULL, big, RW, PA, -1, 0), *m, *q, *r;

		/* m ends a page below the end of b: it cannot grow in place */
		m = b + big - PG - l1;
		munmap(b, big - PG - l1);
		memset(m, 'a', l1);
		q = mremap(m, l1, l2, MREMAP_MAYMOVE);
		if (q == MAP_FAILED || q == m)
			_exit(2);
		memset(q + l1, 'b', l2 - l1);
		r = mremap(q, l2, l3, MREMAP_MAYMOVE);
		if (r == MAP_FAILED)
			_exit(3);
		memset(r + l2, 'c', l3 - l2);
		q = mremap(r, l3, l4, MREMAP_MAYMOVE);
		if (q == MAP_FAILED)
			_exit(4);
		if (!all_is((unsigned char *)q, l1, 'a') ||
		    !all_is((unsigned char *)q + l1, l2 - l1, 'b') ||
		    !all_is((unsigned char *)q + l2, l3 - l2, 'c'))
			_exit(5);
		memset(q + l3, 'd', l4 - l3);
		_exit(0);
	}
	check(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "mremap: moved, grown in place, moved again: every byte kept");
	return 0;
}
