/* An open that finds no free file descriptor (EMFILE under RLIMIT_NOFILE)
 * fails before it touches the file, as Linux's do_sys_openat2 takes the
 * descriptor (get_unused_fd_flags) before it opens: O_TRUNC leaves the
 * data, O_CREAT makes nothing, for open, openat, creat, openat2 and
 * open_by_handle_at. What Linux refuses before it takes the descriptor
 * still comes first: a bad path pointer (EFAULT), an empty path (ENOENT),
 * O_CREAT|O_DIRECTORY and a read-only O_TMPFILE (EINVAL). skas opened
 * (and truncated or created) first and failed at the install. Also
 * openat2's O_PATH with other flags (EINVAL, where open drops them); and
 * at a limit of 0, dup's EMFILE but F_DUPFD's EINVAL (its start at or
 * past the limit). */
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
	char dir[] = "/tmp/nofdXXXXXX", old[64], fresh[64], shm[64];
	struct {
		struct file_handle h;
		unsigned char f[128];
	} fh;
	int mount_id, have_handle, shm_dir;
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
	/* a tmpfs file's handle, natively and under skas alike */
	snprintf(shm, sizeof(shm), "/dev/shm/nofd-%d", (int)getpid());
	fd = open(shm, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, "hello", 5) != 5)
		return 1;
	close(fd);
	fh.h.handle_bytes = sizeof(fh.f);
	shm_dir = open("/dev/shm", O_RDONLY | O_DIRECTORY);
	have_handle = shm_dir >= 0 &&
		      syscall(SYS_name_to_handle_at, AT_FDCWD, shm, &fh, &mount_id, 0) == 0;
	check(have_handle, "name_to_handle_at of a /dev/shm file");
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
	check_err(open("", O_RDONLY), ENOENT, "an empty path: ENOENT first");
	check_err(open(dir, O_RDONLY | O_CREAT | O_DIRECTORY, 0600), EINVAL,
		  "O_CREAT|O_DIRECTORY: EINVAL first");
	check_err(open(dir, O_RDONLY | O_TMPFILE, 0600), EINVAL,
		  "O_TMPFILE read-only: EINVAL first");
	if (have_handle) {
		check_err(syscall(SYS_open_by_handle_at, shm_dir, &fh, O_RDWR | O_TRUNC), EMFILE,
			  "open_by_handle_at O_TRUNC: EMFILE");
		check(size_of(shm) == 5, "the handle's file keeps its 5 bytes");
	}

	close(first);
	fd = open(old, O_RDWR | O_TRUNC);
	check(fd == first && size_of(old) == 0, "one descriptor free: the open truncates");
	close(fd);
	fd = open(dir, O_PATH | O_CREAT | O_DIRECTORY);
	check(fd >= 0, "open drops O_CREAT from an O_PATH open");
	close(fd);
	how.flags = O_PATH | O_RDWR;
	how.mode = 0;
	check_err(syscall(NR_openat2, AT_FDCWD, dir, &how, sizeof(how)), EINVAL,
		  "openat2 O_PATH|O_RDWR: EINVAL");
	low.rlim_cur = 0;
	setrlimit(RLIMIT_NOFILE, &low);
	check_err(dup(1), EMFILE, "RLIMIT_NOFILE 0: dup is EMFILE");
	check_err(fcntl(1, F_DUPFD, 0), EINVAL, "F_DUPFD from 0: EINVAL");
	setrlimit(RLIMIT_NOFILE, &rl);
	unlink(shm);
	unlink(old);
	unlink(fresh);
	rmdir(dir);
	printf("1..%d\n", n);
	return 0;
}
