/* Sizes and blocks that tmpfs reports, as Linux's shmem: a directory's
 * size is 20 bytes (BOGO_DIRENT_SIZE) for each entry plus 40, through
 * creat, mkdir, link, symlink, rename in and out, RENAME_EXCHANGE,
 * unlink and rmdir; a symlink of up to 127 bytes holds no block, a
 * longer one a page. skas once said 40 for every directory and 8 blocks
 * for every symlink (tar -tv, ls -l and du -b differed). Runs in a new
 * directory under /dev/shm, tmpfs natively and under skas. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "tap.h"

static long long size_of(const char *p)
{
	struct stat st;

	return lstat(p, &st) < 0 ? -1 : (long long)st.st_size;
}

static long long blocks_of(const char *p)
{
	struct stat st;

	return lstat(p, &st) < 0 ? -1 : (long long)st.st_blocks;
}

int main(void)
{
	char dir[] = "/dev/shm/dirsize.XXXXXX", target[200];
	int fd;

	if (!mkdtemp(dir) || chdir(dir) < 0) {
		printf("not ok 1 - a directory under /dev/shm\n");
		return 1;
	}
	mkdir("d", 0755);
	mkdir("e", 0755);
	check(size_of("d") == 40, "an empty directory: 40");
	fd = open("d/a", O_CREAT | O_WRONLY, 0644);
	close(fd);
	mkdir("d/sub", 0755);
	check(size_of("d") == 80, "two entries: 80");
	link("d/a", "d/b");
	symlink("a", "d/s");
	mkfifo("d/p", 0644);
	check(size_of("d") == 140, "a link, a symlink and a fifo more: 140");
	rename("d/b", "d/c");
	check(size_of("d") == 140, "a rename inside: the same");
	rename("d/c", "e/c");
	check(size_of("d") == 120 && size_of("e") == 60, "a rename out: one less, one more");
	/* not a's other link: a rename between links of one file does nothing */
	unlink("d/a");
	fd = open("d/f", O_CREAT | O_WRONLY, 0644);
	close(fd);
	rename("d/f", "e/c");
	check(size_of("d") == 100 && size_of("e") == 60, "a rename over an entry");
	syscall(SYS_renameat2, AT_FDCWD, "d/sub", AT_FDCWD, "e/c", 2 /* RENAME_EXCHANGE */);
	check(size_of("d") == 100 && size_of("e") == 60, "RENAME_EXCHANGE changes neither");
	unlink("d/s");
	unlink("d/p");
	rmdir("e/c");
	check(size_of("d") == 60 && size_of("e") == 40, "unlink and rmdir");
	check(blocks_of("d") == 0, "a directory holds no block");
	memset(target, 'x', sizeof(target));
	target[127] = 0;
	symlink(target, "s127");
	target[127] = 'x';
	target[128] = 0;
	symlink(target, "s128");
	check(size_of("s127") == 127 && blocks_of("s127") == 0, "a 127-byte symlink: no block");
	check(size_of("s128") == 128 && blocks_of("s128") == 8, "a 128-byte symlink: a page");
	unlink("s127");
	unlink("s128");
	unlink("d/sub");
	rmdir("d");
	rmdir("e");
	check(rmdir(dir) == 0, "all gone");
	return 0;
}
