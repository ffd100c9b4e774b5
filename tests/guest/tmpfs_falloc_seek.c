/* A tmpfs page that fallocate took and nothing has written is a hole to
 * SEEK_DATA and SEEK_HOLE (shmem's folios that are not up to date),
 * though it is held (st_blocks) and reads as zeros; a write, even of one
 * byte, or a second fallocate makes the page data; a punch gives it back.
 * The same holds once the file is mapped (skas then keeps the data in a
 * host memfd). skas took every fallocated page for data. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "tap.h"

#define K 1024

static long long blocks(int fd)
{
	struct stat st;

	return fstat(fd, &st) < 0 ? -1 : (long long)st.st_blocks;
}

static long data_at(int fd, off_t off)
{
	off_t r = lseek(fd, off, SEEK_DATA);

	return r < 0 ? -errno : (long)r;
}

static long hole_at(int fd, off_t off)
{
	off_t r = lseek(fd, off, SEEK_HOLE);

	return r < 0 ? -errno : (long)r;
}

int main(void)
{
	char buf[4096], zero[4096];
	int fd = memfd_create("falloc-seek", 0);
	char *m;

	memset(zero, 0, sizeof(zero));
	check(fd >= 0, "a memfd");
	check(fallocate(fd, 0, 0, 64 * K) == 0, "fallocate 64 KiB");
	check(blocks(fd) == 128, "its 16 pages held");
	check(data_at(fd, 0) == -ENXIO, "SEEK_DATA: none, ENXIO");
	check(hole_at(fd, 0) == 0 && hole_at(fd, 5000) == 5000, "SEEK_HOLE: where it starts");
	check(pread(fd, buf, sizeof(buf), 8 * K) == 4096 && !memcmp(buf, zero, sizeof(zero)),
	      "an unwritten page reads as zeros");
	check(data_at(fd, 0) == -ENXIO, "and stays a hole after the read");

	check(pwrite(fd, "x", 1, 16 * K + 100) == 1, "one byte written at 16 KiB + 100");
	check(data_at(fd, 0) == 16 * K, "SEEK_DATA: its page");
	check(hole_at(fd, 16 * K) == 20 * K, "SEEK_HOLE: the page after it");
	check(data_at(fd, 20 * K) == -ENXIO, "no data after it");
	check(pread(fd, buf, sizeof(buf), 16 * K) == 4096 && buf[100] == 'x' && buf[0] == 0 &&
		      buf[4095] == 0,
	      "the rest of its page reads as zeros");

	check(pwrite(fd, buf, sizeof(buf), 32 * K) == 4096, "a whole page written at 32 KiB");
	check(data_at(fd, 20 * K) == 32 * K && hole_at(fd, 32 * K) == 36 * K, "data there");
	check(fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, 64 * K) == 0,
	      "a second fallocate over the same pages");
	check(data_at(fd, 0) == 0 && hole_at(fd, 0) == 64 * K,
	      "makes them all data (shmem's SGP_FALLOC: a page fallocated before is zeroed, up to "
	      "date)");
	check(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 16 * K, 4 * K) == 0,
	      "a page punched");
	check(hole_at(fd, 0) == 16 * K && data_at(fd, 16 * K) == 20 * K && blocks(fd) == 120,
	      "a hole, given back");
	check(ftruncate(fd, 128 * K) == 0 && hole_at(fd, 64 * K) == 64 * K &&
		      data_at(fd, 64 * K) == -ENXIO,
	      "grown: holes past");
	check(fallocate(fd, 0, 64 * K, 16 * K) == 0 && data_at(fd, 64 * K) == -ENXIO &&
		      blocks(fd) == 152,
	      "4 pages more fallocated: held, holes");
	check(ftruncate(fd, 2048 * K) == 0 && fallocate(fd, 0, 1024 * K, 4 * K) == 0 &&
		      data_at(fd, 80 * K) == -ENXIO,
	      "a page fallocated at 1 MiB: a hole");
	check(pwrite(fd, "z", 1, 1028 * K + 1) == 1 && data_at(fd, 80 * K) == 1028 * K &&
		      hole_at(fd, 1024 * K) == 1024 * K,
	      "the page after it written: data there only");

	m = mmap(NULL, 128 * K, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(m != MAP_FAILED, "mapped");
	check(hole_at(fd, 0) == 16 * K && data_at(fd, 16 * K) == 20 * K &&
		      data_at(fd, 64 * K) == 1028 * K && hole_at(fd, 1024 * K) == 1024 * K,
	      "the same once mapped");
	if (m != MAP_FAILED) {
		m[72 * K + 7] = 'y';
		check(data_at(fd, 64 * K) == 72 * K && hole_at(fd, 72 * K) == 76 * K &&
			      data_at(fd, 76 * K) == 1028 * K,
		      "a store through the mapping makes its page data");
		munmap(m, 128 * K);
	}
	check(fallocate(fd, 0, 96 * K, 8 * K) == 0 && data_at(fd, 76 * K) == 1028 * K &&
		      blocks(fd) == 184,
	      "a fallocate of the file that was mapped: held, holes");
	check(fallocate(fd, 0, 64 * K, 4 * K) == 0 && data_at(fd, 64 * K) == 64 * K &&
		      hole_at(fd, 64 * K) == 68 * K,
	      "and over an unwritten page: data");
	close(fd);
	return 0;
}
