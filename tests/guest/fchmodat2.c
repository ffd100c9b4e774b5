/* fchmodat2 (Linux 6.6): like fchmodat, through a symlink by default;
 * AT_SYMLINK_NOFOLLOW changes a file's mode but a symlink's is
 * EOPNOTSUPP (dangling or not, by name or by an O_PATH fd);
 * AT_EMPTY_PATH names the fd itself (O_PATH included); other flags are
 * EINVAL, a bad path EFAULT. fchmodat has no flags argument. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define TAP_ERR_NAMED
#include "tap.h"

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif

static long chmod2(int dirfd, const char *path, unsigned mode, int flags)
{
	return syscall(SYS_fchmodat2, dirfd, path, mode, flags);
}

static unsigned mode_of(int dirfd, const char *name)
{
	struct stat st;

	return fstatat(dirfd, name, &st, 0) == 0 ? (unsigned)(st.st_mode & 07777) : 0xffff;
}

int main(void)
{
	char dir[] = "/tmp/fchmodat2.XXXXXX";
	int d, f, p, pl;

	setvbuf(stdout, NULL, _IOLBF, 0);
	check(mkdtemp(dir) != NULL, "a directory");
	d = open(dir, O_RDONLY | O_DIRECTORY);
	f = openat(d, "f", O_CREAT | O_RDWR, 0644);
	check(d >= 0 && f >= 0 && symlinkat("f", d, "l") == 0 &&
		      symlinkat("none", d, "dangling") == 0,
	      "a file, a symlink to it, a dangling symlink");

	check(chmod2(d, "f", 0600, 0) == 0 && mode_of(d, "f") == 0600, "a file: 0600");
	check(chmod2(d, "l", 0640, 0) == 0 && mode_of(d, "f") == 0640,
	      "through the symlink: the file's mode");
	check(chmod2(d, "f", 0604, AT_SYMLINK_NOFOLLOW) == 0 && mode_of(d, "f") == 0604,
	      "AT_SYMLINK_NOFOLLOW on a file");
	check_err(chmod2(d, "l", 0600, AT_SYMLINK_NOFOLLOW), EOPNOTSUPP, "EOPNOTSUPP",
		  "AT_SYMLINK_NOFOLLOW on a symlink");
	check(mode_of(d, "f") == 0604, "the file is unchanged");
	check_err(chmod2(d, "dangling", 0600, AT_SYMLINK_NOFOLLOW), EOPNOTSUPP, "EOPNOTSUPP",
		  "AT_SYMLINK_NOFOLLOW on a dangling symlink");
	check_err(chmod2(d, "dangling", 0600, 0), ENOENT, "ENOENT", "through a dangling symlink");

	check_err(chmod2(d, "f", 0600, 1), EINVAL, "EINVAL", "flag 1");
	check_err(chmod2(d, "f", 0600, AT_REMOVEDIR), EINVAL, "EINVAL", "AT_REMOVEDIR");
	check_err(chmod2(d, "", 0600, 0), ENOENT, "ENOENT", "an empty path without AT_EMPTY_PATH");
	check_err(chmod2(d, (const char *)8, 0600, 0), EFAULT, "EFAULT", "a bad path");
	check_err(chmod2(-1, "f", 0600, 0), EBADF, "EBADF", "a relative path from fd -1");

	check(chmod2(f, "", 0611, AT_EMPTY_PATH) == 0 && mode_of(d, "f") == 0611,
	      "AT_EMPTY_PATH on an open file");
	p = openat(d, "f", O_PATH);
	check(chmod2(p, "", 0612, AT_EMPTY_PATH) == 0 && mode_of(d, "f") == 0612,
	      "AT_EMPTY_PATH on an O_PATH fd");
	pl = openat(d, "l", O_PATH | O_NOFOLLOW);
	check_err(chmod2(pl, "", 0600, AT_EMPTY_PATH), EOPNOTSUPP, "EOPNOTSUPP",
		  "AT_EMPTY_PATH on an O_PATH fd of a symlink");
	check_err(syscall(SYS_fchmodat, pl, "", 0600), ENOENT, "ENOENT",
		  "fchmodat has no AT_EMPTY_PATH");
	check(syscall(SYS_fchmodat, d, "f", 0644, AT_SYMLINK_NOFOLLOW) == 0 &&
		      mode_of(d, "f") == 0644,
	      "fchmodat ignores a fourth argument");

	close(p);
	close(pl);
	close(f);
	unlinkat(d, "f", 0);
	unlinkat(d, "l", 0);
	unlinkat(d, "dangling", 0);
	close(d);
	check(rmdir(dir) == 0, "clean up");
	return 0;
}
