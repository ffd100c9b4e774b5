/* Many files with data on tmpfs, and file data held in kernel memory.
 * skas once kept each tmpfs file with data in a host memfd of its own,
 * capped at a quarter of its host fd limit: extracting /usr/include (8181
 * files) into /tmp stopped half way with ENOSPC. Here 12000 small files
 * in /tmp (the root overlay's tmpfs upper under skas) and 1000 in
 * /dev/shm (a tmpfs) are written, all kept, read back and removed. Then a
 * file that starts in kernel memory: write() then mmap and a write through
 * the mapping then read() agree, MAP_PRIVATE sees the data, a copy of this
 * program there runs; memfds of a few MiB (kernel memory under skas) keep
 * sparse data, SEEK_DATA/SEEK_HOLE, st_blocks, punched holes, cuts and
 * growth, fallocate, O_APPEND, reads at the end, a growth past 64 MiB
 * (where skas moves the data to a memfd) and huge offsets. */
/* skas-test: timeout: 60 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define TAP_FLUSH
#include "tap.h"

#define NTMP 12000
#define NSHM 1000
#define MIB  (1LL << 20)

/* File i's data: 10 to 6010 bytes (one or two pages) that name it. */
static size_t content(int i, char *buf)
{
	size_t len = (size_t)(i % 7) * 1000 + 10, k;

	for (k = 0; k < len; k++)
		buf[k] = (char)('a' + (i + k) % 26);
	snprintf(buf, 10, "%08d", i);
	return len;
}

/* Writes, keeps, reads back and removes count files in dir: how many
 * went right at each step, the first failure's errno printed. */
static void many(const char *dir, int count)
{
	static char want[8192], got[8192];
	char path[256], other[256];
	int i, made = 0, same = 0, moved = 0, gone = 0, err = 0;
	struct stat st;

	for (i = 0; i < count; i++) {
		size_t len = content(i, want);
		int fd;

		snprintf(path, sizeof(path), "%s/f%05d", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0 || write(fd, want, len) != (ssize_t)len) {
			if (!err)
				err = errno;
		} else {
			made++;
		}
		if (fd >= 0)
			close(fd);
	}
	for (i = 0; i < count; i++) {
		size_t len = content(i, want);
		int fd;

		snprintf(path, sizeof(path), "%s/f%05d", dir, i);
		fd = open(path, O_RDONLY);
		if (fd >= 0 && read(fd, got, sizeof(got)) == (ssize_t)len &&
		    memcmp(got, want, len) == 0 && read(fd, got, 1) == 0)
			same++;
		if (fd >= 0)
			close(fd);
	}
	/* every third file renamed: the old name is gone, the new one
	 * found, a name taken is replaced */
	for (i = 0; i < count; i += 3) {
		snprintf(path, sizeof(path), "%s/f%05d", dir, i);
		snprintf(other, sizeof(other), "%s/g%05d", dir, i);
		if (rename(path, other) == 0 && stat(path, &st) < 0 && errno == ENOENT &&
		    stat(other, &st) == 0 && st.st_size == (off_t)content(i, want))
			moved++;
	}
	snprintf(path, sizeof(path), "%s/f%05d", dir, 1);
	snprintf(other, sizeof(other), "%s/g%05d", dir, 0);
	check(moved == (count + 2) / 3 && rename(path, other) == 0 && stat(other, &st) == 0 &&
		      st.st_size == (off_t)content(1, want) && stat(path, &st) < 0,
	      "a third renamed; a rename over one");
	for (i = 0; i < count; i++) {
		snprintf(path, sizeof(path), "%s/%c%05d", dir, i % 3 ? 'f' : 'g', i);
		if (i == 1 || unlink(path) == 0)
			gone++;
	}
	if (err)
		printf("# %s: %d made, first error %s\n", dir, made, strerror(err));
	snprintf(path, sizeof(path), "%d files with data written in %s", count,
		 strncmp(dir, "/tmp", 4) == 0 ? "/tmp" : "/dev/shm");
	check(made == count, path);
	check(same == count, "each read back whole, then EOF");
	check(gone == count, "each removed");
	check(rmdir(dir) == 0, "the directory removed");
}

static int run_child(const char *prog)
{
	int status;
	pid_t p = fork();

	if (p == 0) {
		execl(prog, prog, "child", (char *)NULL);
		_exit(127);
	}
	return p > 0 && waitpid(p, &status, 0) == p && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 42;
}

/* A file written with write() then mapped: both ways agree. */
static void coherence(const char *dir)
{
	char path[256], buf[16];
	int fd, in, out;
	char *m, *pm;

	snprintf(path, sizeof(path), "%s/data", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0 && write(fd, "hello, world", 12) == 12, "write() 12 bytes");
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(m != MAP_FAILED && memcmp(m, "hello, world", 12) == 0, "a shared mapping sees them");
	if (m == MAP_FAILED)
		return;
	check(m[12] == 0 && m[4095] == 0, "the rest of the page is zeros");
	memcpy(m, "HELLO", 5);
	check(pread(fd, buf, 12, 0) == 12 && memcmp(buf, "HELLO, world", 12) == 0,
	      "read() sees the write through the mapping");
	check(pwrite(fd, "WORLD", 5, 7) == 5 && memcmp(m, "HELLO, WORLD", 12) == 0,
	      "the mapping sees a later write()");
	pm = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	check(pm != MAP_FAILED && memcmp(pm, "HELLO, WORLD", 12) == 0,
	      "a private mapping sees the data");
	if (pm != MAP_FAILED) {
		pm[0] = 'J';
		check(m[0] == 'H', "its copy stays private");
		munmap(pm, 4096);
	}
	munmap(m, 4096);
	check(pread(fd, buf, 12, 0) == 12 && memcmp(buf, "HELLO, WORLD", 12) == 0,
	      "the data stays after munmap");
	close(fd);
	unlink(path);

	/* a private mapping first, of a file with data in a second page */
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0 && pwrite(fd, "abc", 3, 5000) == 3, "3 bytes at 5000 of a new file");
	pm = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, fd, 0);
	check(pm != MAP_FAILED && pm[0] == 0 && memcmp(pm + 5000, "abc", 3) == 0,
	      "a private mapping sees the hole and the data");
	if (pm != MAP_FAILED)
		munmap(pm, 8192);
	close(fd);
	unlink(path);

	/* a copy of this program, written with write(), runs */
	snprintf(path, sizeof(path), "%s/prog", dir);
	in = open("/proc/self/exe", O_RDONLY);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (in >= 0 && out >= 0) {
		static char chunk[65536];
		ssize_t got;

		while ((got = read(in, chunk, sizeof(chunk))) > 0)
			if (write(out, chunk, (size_t)got) != got)
				break;
	}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	check(run_child(path), "a copy of this program in the directory runs");
	unlink(path);
}

static long long blocks(int fd)
{
	struct stat st;

	return fstat(fd, &st) < 0 ? -1 : (long long)st.st_blocks;
}

static long long fsize(int fd)
{
	struct stat st;

	return fstat(fd, &st) < 0 ? -1 : (long long)st.st_size;
}

/* Every byte of [off, off + len) is c. */
static int all(int fd, off_t off, size_t len, char c)
{
	static char buf[65536];
	size_t k;

	while (len) {
		size_t part = len < sizeof(buf) ? len : sizeof(buf);

		if (pread(fd, buf, part, off) != (ssize_t)part)
			return 0;
		for (k = 0; k < part; k++)
			if (buf[k] != c)
				return 0;
		off += (off_t)part;
		len -= part;
	}
	return 1;
}

static void sparse(void)
{
	int fd = memfd_create("pages", 0);
	char page[4096], buf[8];
	long long b;

	memset(page, 'x', sizeof(page));
	check(fd >= 0 && ftruncate(fd, 4 * MIB) == 0, "a memfd truncated to 4 MiB");
	check(blocks(fd) == 0, "holds no blocks");
	errno = 0;
	check(lseek(fd, 0, SEEK_DATA) < 0 && errno == ENXIO, "SEEK_DATA in a hole: ENXIO");
	check(lseek(fd, 4096, SEEK_HOLE) == 4096, "SEEK_HOLE in a hole: where it is");
	check(pwrite(fd, page, 4096, MIB) == 4096 && pwrite(fd, page, 4096, 3 * MIB) == 4096,
	      "a page written at 1 MiB and at 3 MiB");
	b = blocks(fd);
	check(b >= 16 && b <= 2048, "two pages' blocks (a large folio's natively)");
	check(lseek(fd, 0, SEEK_DATA) == MIB && lseek(fd, MIB, SEEK_HOLE) == MIB + 4096 &&
		      lseek(fd, MIB + 4096, SEEK_DATA) == 3 * MIB,
	      "SEEK_DATA and SEEK_HOLE find them");
	check(lseek(fd, MIB + 10, SEEK_DATA) == MIB + 10, "SEEK_DATA inside data: where it is");
	check(lseek(fd, 3 * MIB + 4096, SEEK_HOLE) == 3 * MIB + 4096,
	      "SEEK_HOLE after the last page");
	check(all(fd, 0, MIB, 0) && all(fd, MIB, 4096, 'x') && all(fd, MIB + 4096, MIB, 0),
	      "holes read zeros, data reads back");
	check(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, MIB, 4096) == 0,
	      "punch the page at 1 MiB");
	check(blocks(fd) < b && all(fd, MIB, 4096, 0), "fewer blocks, zeros there");
	check(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 3 * MIB + 100, 200) == 0 &&
		      all(fd, 3 * MIB, 100, 'x') && all(fd, 3 * MIB + 100, 200, 0) &&
		      all(fd, 3 * MIB + 300, 4096 - 300, 'x'),
	      "a punch inside a page zeroes only its bytes");
	check(fsize(fd) == 4 * MIB, "the size stays");

	/* a cut clears what lies past it, a growth reads zeros */
	check(ftruncate(fd, 3 * MIB + 10) == 0 && ftruncate(fd, 4 * MIB) == 0, "cut and grow back");
	check(all(fd, 3 * MIB, 10, 'x') && all(fd, 3 * MIB + 10, MIB - 10, 0),
	      "the bytes past the cut read zeros");
	check(ftruncate(fd, 0) == 0 && blocks(fd) == 0, "cut to 0: no blocks");

	/* fallocate allocates below the size, KEEP_SIZE keeps it */
	check(fallocate(fd, 0, 0, 8192) == 0 && fsize(fd) == 8192, "fallocate 8 KiB: the size");
	b = blocks(fd);
	check(b >= 16 && b <= 2048, "and the blocks");
	check(fallocate(fd, FALLOC_FL_KEEP_SIZE, 8192, 8192) == 0 && fsize(fd) == 8192,
	      "KEEP_SIZE keeps the size");
	check(all(fd, 0, 8192, 0), "allocated pages read zeros");

	/* O_APPEND and reads at the end */
	check(ftruncate(fd, 0) == 0 && pwrite(fd, "ab", 2, 0) == 2, "a write of 2 bytes");
	check(pread(fd, buf, 8, 2) == 0 && pread(fd, buf, 8, 1) == 1 && buf[0] == 'b',
	      "reads at and before the end");
	close(fd);
	{
		char name[64];
		int a;

		fd = memfd_create("append", 0);
		snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
		a = open(name, O_WRONLY | O_APPEND);
		check(a >= 0 && write(fd, "12345", 5) == 5 && write(a, "67", 2) == 2 &&
			      pread(fd, buf, 8, 0) == 7 && memcmp(buf, "1234567", 7) == 0,
		      "O_APPEND writes at the end");
		if (a >= 0)
			close(a);
		close(fd);
	}

	/* growth past 64 MiB keeps what was there */
	fd = memfd_create("big", 0);
	check(fd >= 0 && write(fd, "start", 5) == 5 && pwrite(fd, page, 4096, 40 * MIB) == 4096,
	      "data at 0 and at 40 MiB");
	check(pwrite(fd, "end", 3, 100 * MIB) == 3 && fsize(fd) == 100 * MIB + 3,
	      "a write at 100 MiB");
	check(pread(fd, buf, 5, 0) == 5 && memcmp(buf, "start", 5) == 0 &&
		      all(fd, 40 * MIB, 4096, 'x') && all(fd, 40 * MIB + 4096, 4096, 0) &&
		      pread(fd, buf, 3, 100 * MIB) == 3 && memcmp(buf, "end", 3) == 0,
	      "the data stays, the holes read zeros");
	check(lseek(fd, 4096, SEEK_DATA) == 40 * MIB, "SEEK_DATA finds the page at 40 MiB");
	b = blocks(fd);
	check(b >= 24 && b <= 4096, "three pages' blocks");
	check(ftruncate(fd, 4096) == 0 && pread(fd, buf, 5, 0) == 5 && memcmp(buf, "start", 5) == 0,
	      "a cut back under 64 MiB keeps the data");
	close(fd);

	/* huge offsets: the errors of Linux */
	fd = memfd_create("huge", 0);
	errno = 0;
	check(pwrite(fd, "x", 1, -1) < 0 && errno == EINVAL, "pwrite at -1: EINVAL");
	errno = 0;
	check(pwrite(fd, "x", 1, LLONG_MAX) < 0 && errno == EINVAL, "pwrite at 2^63-1: EINVAL");
	check(pwrite(fd, "x", 1, LLONG_MAX - 4096) == 1 && fsize(fd) == LLONG_MAX - 4095,
	      "pwrite at 2^63-4097: the size");
	check(ftruncate(fd, 0) == 0, "cut to 0");
	check(pwrite(fd, "x", 1, 1LL << 40) == 1 && fsize(fd) == (1LL << 40) + 1,
	      "pwrite at 1 TiB");
	check(pread(fd, buf, 2, 1LL << 40) == 1 && buf[0] == 'x' &&
		      pread(fd, buf, 1, LLONG_MAX - 1) == 0,
	      "read back; a read far past the end is 0");
	close(fd);
}

int main(int argc, char **argv)
{
	char tmp[] = "/tmp/skaspages.XXXXXX", shm[] = "/dev/shm/skaspages.XXXXXX";

	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return 42;
	check(mkdtemp(tmp) != NULL && mkdtemp(shm) != NULL, "two directories");
	coherence(shm);
	coherence(tmp);
	many(tmp, NTMP);
	many(shm, NSHM);
	sparse();
	return 0;
}
