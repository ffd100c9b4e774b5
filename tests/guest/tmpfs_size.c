/* tmpfs's size= as Linux's shmem has it: whole pages (size=1 is one,
 * size=4097 two), a write cut at the first page that does not fit (ENOSPC
 * only when none did), a symlink of 128 bytes or more a page, size=0 no
 * limit (statfs: 0 blocks), and without
 * nr_inodes= half the memory's pages as inodes (shmem_default_max_inodes).
 * size= and nr_blocks= are memparse numbers (no sign; K to E; wrapping).
 * skas kept size= in bytes and failed a write that did not fit whole.
 * Runs in a mount namespace of its own (root). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#define TAP_ENAME
#include "tap.h"

static char dir[64], file[96];
static char buf[65536];

static void check_ok(long r, const char *what)
{
	check(r >= 0, what);
	if (r < 0)
		printf("# %s\n", ename(errno));
}

static void check_eq(long got, long want, const char *what)
{
	check(got == want, what);
	if (got != want)
		printf("# got %ld, want %ld\n", got, want);
}

static long blocks(int which)
{
	struct statfs st;

	if (statfs(dir, &st) < 0)
		return -1;
	return which == 0 ? (long)st.f_blocks : which == 1 ? (long)st.f_bfree : (long)st.f_bavail;
}

static int remount(const char *opts)
{
	umount(dir);
	return mount("none", dir, "tmpfs", 0, opts);
}

/* MemTotal, in pages */
static long mem_pages(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb / 4;
}

int main(void)
{
	struct statfs st;
	struct stat sb;
	int fd;

	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL) < 0) {
		printf("not ok 1 - a mount namespace of its own: %s\n", strerror(errno));
		return 1;
	}
	snprintf(dir, sizeof(dir), "/tmp/skas-tmpfssize-%d", (int)getpid());
	snprintf(file, sizeof(file), "%s/f", dir);
	if (mkdir(dir, 0755) < 0) {
		printf("not ok 1 - mkdir %s: %s\n", dir, strerror(errno));
		return 1;
	}
	memset(buf, 'x', sizeof(buf));

	check_ok(mount("none", dir, "tmpfs", 0, "size=1"), "size=1");
	check_eq(blocks(0), 1, "is a page");
	fd = open(file, O_CREAT | O_RDWR, 0644);
	check_eq(write(fd, buf, 1), 1, "a byte written");
	check_eq(write(fd, buf, 4096), 4095, "a page's write: the rest of the page");
	check_err(write(fd, buf, 1), ENOSPC, "then ENOSPC");
	check_eq(blocks(1), 0, "no block free");
	close(fd);

	check_ok(remount("size=4097"), "size=4097");
	check_eq(blocks(0), 2, "is two pages");

	check_ok(remount("size=16k"), "size=16k");
	fd = open(file, O_CREAT | O_RDWR, 0644);
	check_eq(write(fd, buf, 20480), 16384, "a write of 20 KiB: 16 KiB");
	check(fstat(fd, &sb) == 0 && sb.st_size == 16384, "the file is 16 KiB");
	check_err(write(fd, buf, 100), ENOSPC, "the next: ENOSPC");
	check_eq(pwrite(fd, buf, 100, 50), 100, "a write over what is there");
	check_ok(ftruncate(fd, 4096), "cut to a page");
	check_eq(pwrite(fd, buf, 65536, 8192), 12288,
		 "past a hole: the pages that fit (the hole takes none)");
	close(fd);

	check_ok(remount("size=8k"), "size=8k");
	fd = open(file, O_CREAT | O_RDWR, 0644);
	check_ok(ftruncate(fd, 1 << 20), "a sparse file of 1 MiB");
	check_eq(pwrite(fd, buf, 10000, 100), 8092, "a write at 100: up to two pages");
	check_err(pwrite(fd, buf, 10, 500000), ENOSPC, "further on: ENOSPC");
	close(fd);

	/* a symlink of 128 bytes or more (129 with its NUL) takes a page */
	check_ok(remount("size=8k"), "size=8k again");
	memset(buf, 'y', 200);
	buf[127] = 0;
	check_ok(symlink(buf, file), "a symlink of 127 bytes");
	check_eq(blocks(1), 2, "takes no block");
	buf[127] = 'y';
	buf[128] = 0;
	snprintf(buf + 1000, 200, "%s/l2", dir);
	check_ok(symlink(buf, buf + 1000), "one of 128 bytes");
	check_eq(blocks(1), 1, "takes one");
	snprintf(buf + 1000, 200, "%s/l3", dir);
	check_ok(symlink(buf, buf + 1000), "another");
	snprintf(buf + 1000, 200, "%s/l4", dir);
	check_err(symlink(buf, buf + 1000), ENOSPC, "a third: ENOSPC");
	check_ok(unlink(file), "the short one removed");
	snprintf(buf + 1000, 200, "%s/l2", dir);
	check_ok(unlink(buf + 1000), "a long one removed");
	check_eq(blocks(1), 1, "its block free again");
	memset(buf, 'x', sizeof(buf));

	/* pages the file holds cost nothing: a full tmpfs takes writes there */
	check_ok(remount("size=8k"), "size=8k, once more");
	fd = open(file, O_CREAT | O_RDWR, 0644);
	check_ok(ftruncate(fd, 1 << 20), "a sparse file");
	check_eq(pwrite(fd, buf, 4096, 0), 4096, "its first page");
	check_eq(pwrite(fd, buf, 4096, 8192), 4096, "its third: full");
	check_eq(pwrite(fd, buf, 1, 0), 1, "a byte into the first: taken");
	check_err(pwrite(fd, buf, 8192, 4096), ENOSPC,
		  "pages 1 and 2: page 1 does not fit (2 would): ENOSPC");
	check_eq(pwrite(fd, buf, 100, 8292), 100, "into page 2, which it holds: taken");
	close(fd);
	unlink(file);
	fd = open(file, O_CREAT | O_RDWR, 0644);
	check_eq(write(fd, buf, 8192), 8192, "a dense file of two pages");
	check_ok(ftruncate(fd, 100), "cut to 100 bytes");
	check_eq(pwrite(fd, buf, 4000, 4000), 4000, "a write across its page and the next");
	check_ok(ftruncate(fd, 100), "cut again");
	check_eq(pwrite(fd, buf, 9000, 100), 8092, "a write from 100: to the end of page 1");
	close(fd);
	unlink(file);

	check_ok(remount("size=0"), "size=0");
	check(statfs(dir, &st) == 0 && st.f_blocks == 0 && st.f_bfree == 0 && st.f_bavail == 0,
	      "no limit: statfs says 0 blocks, 0 free");

	/* memparse's numbers: base 0, no sign or blank, K to E, wrapping */
	{
		static const struct {
			const char *opts;
			long blocks; /* -1: EINVAL */
		} t[] = {
			{ "size=-1", -1 },
			{ "size=+4096", -1 },
			{ "size= 4096", -1 },
			{ "size=4096x", -1 },
			{ "size=", -1 },
			{ "size=0x3000", 3 },
			{ "size=010", 1 },
			{ "size=1M", 256 },
			{ "size=1p", 1L << 38 },
			{ "size=16E", 0 },
			{ "size=18446744073709551615", 0 },
			{ "size=18446744073709547520", (1L << 52) - 1 },
			{ "size=K", 0 },
			{ "nr_blocks=9223372036854775808", -1 },
			{ "nr_blocks=2k", 2048 },
		};
		char what[96];
		size_t i;

		for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
			int r = remount(t[i].opts);
			int e = errno;

			snprintf(what, sizeof(what), "%s: %s", t[i].opts,
				 t[i].blocks < 0 ? "EINVAL" : "mounted");
			check(t[i].blocks < 0 ? r < 0 && e == EINVAL : r == 0, what);
			if (t[i].blocks < 0 ? !(r < 0 && e == EINVAL) : r != 0)
				printf("# %d %s\n", r, r < 0 ? ename(e) : "");
			if (r < 0 || t[i].blocks < 0)
				continue;
			snprintf(what, sizeof(what), "%s: %ld blocks", t[i].opts, t[i].blocks);
			check_eq(blocks(0), t[i].blocks, what);
		}
	}

	check_ok(remount(""), "no options");
	check(statfs(dir, &st) == 0 && (long)st.f_files == mem_pages() / 2,
	      "inodes: half the memory's pages");
	if ((long)st.f_files != mem_pages() / 2)
		printf("# f_files %ld, memory %ld pages\n", (long)st.f_files, mem_pages());

	if (chdir("/") < 0)
		return 1;
	check_ok(umount(dir), "unmounted");
	check_ok(rmdir(dir), "cleaned up");
	return 0;
}
