/* An open that finds no free file descriptor (EMFILE under RLIMIT_NOFILE)
 * fails before it touches the file, as Linux's do_sys_openat2 takes the
 * descriptor (get_unused_fd_flags) before it opens: O_TRUNC leaves the
 * data, O_CREAT makes nothing, for open, openat, creat and openat2. Path
 * errors still come first (a bad pointer is EFAULT). skas opened (and
 * truncated or created) first and failed at the install. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define TAP_ENAME
#include "tap.h"

#define NR_openat2 437

struct how {
	uint64_t flags, mode, resolve;
};

static long size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

int main(void)
{
	char dir[] = "/tmp/nofdXXXXXX", old[64], fresh[64];
	struct rlimit rl, low;
	struct how how = { O_RDWR | O_TRUNC, 0, 0 };
	int fd, first, i;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (!mkdtemp(dir))
		return 1;
	snprintf(old, sizeof(old), "%s/old", dir);
	snprintf(fresh, sizeof(fresh), "%s/new", dir);
	fd = open(old, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, "hello world\n", 12) != 12)
		return 1;
	close(fd);
	getrlimit(RLIMIT_NOFILE, &rl);
	low = rl;
	low.rlim_cur = 16;
	if (setrlimit(RLIMIT_NOFILE, &low) < 0)
		return 1;
	first = open("/dev/null", O_RDONLY);
	for (i = first; i >= 0 && i < 15; i++)
		if (open("/dev/null", O_RDONLY) < 0)
			break;
	check(first >= 0 && open("/dev/null", O_RDONLY) == -1 && errno == EMFILE,
	      "every descriptor below 16 taken: EMFILE");

	check_err(open(old, O_RDWR | O_TRUNC), EMFILE, "open O_TRUNC: EMFILE");
	check(size_of(old) == 12, "the file keeps its 12 bytes");
	check_err(openat(AT_FDCWD, old, O_WRONLY | O_TRUNC), EMFILE, "openat O_TRUNC: EMFILE");
	check(size_of(old) == 12, "still 12 bytes");
	check_err(creat(old, 0600), EMFILE, "creat of it: EMFILE");
	check(size_of(old) == 12, "creat did not truncate it");
	check_err(syscall(NR_openat2, AT_FDCWD, old, &how, sizeof(how)), EMFILE,
		  "openat2 O_TRUNC: EMFILE");
	check(size_of(old) == 12, "openat2 did not truncate it");

	check_err(open(fresh, O_RDWR | O_CREAT | O_EXCL, 0600), EMFILE,
		  "open O_CREAT|O_EXCL: EMFILE");
	check(size_of(fresh) == -1 && errno == ENOENT, "no file was made");
	check_err(creat(fresh, 0600), EMFILE, "creat: EMFILE");
	check(size_of(fresh) == -1 && errno == ENOENT, "creat made none either");
	how.flags = O_RDWR | O_CREAT;
	how.mode = 0600;
	check_err(syscall(NR_openat2, AT_FDCWD, fresh, &how, sizeof(how)), EMFILE,
		  "openat2 O_CREAT: EMFILE");
	check(size_of(fresh) == -1 && errno == ENOENT, "openat2 made none");

	check_err(open((const char *)8, O_RDONLY), EFAULT, "a bad path pointer: EFAULT first");

	close(first);
	fd = open(old, O_RDWR | O_TRUNC);
	check(fd == first && size_of(old) == 0, "one descriptor free: the open truncates");
	close(fd);
	setrlimit(RLIMIT_NOFILE, &rl);
	unlink(old);
	unlink(fresh);
	rmdir(dir);
	printf("1..%d\n", n);
	return 0;
}
