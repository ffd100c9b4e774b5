/* Which error a call on a read-only mount gives when more than one
 * applies: Linux takes the mount's write access (mnt_want_write) right
 * after it has split the path, so a rename, unlink or rmdir is EROFS
 * before the names are looked up (ENOENT, ENOTDIR, EISDIR, EEXIST for
 * RENAME_NOREPLACE, EINVAL for a directory into itself, and a rename of
 * a file onto itself, which otherwise succeeds, all give way to it), while
 * mkdir, link, symlink, mknod and open(O_CREAT) look the name up first
 * (EEXIST for one there). skas looked the names up first for rename,
 * unlink and rmdir. Runs in a mount namespace of its own (root). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define TAP_ENAME
#include "tap.h"

static void check_ok(long r, const char *what)
{
	check(r >= 0, what);
	if (r < 0)
		printf("# %s\n", ename(errno));
}

int main(void)
{
	char dir[64];
	int fd;

	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL) < 0) {
		printf("not ok 1 - a mount namespace of its own: %s\n", strerror(errno));
		return 1;
	}
	snprintf(dir, sizeof(dir), "/tmp/skas-roerrno-%d", (int)getpid());
	if (mkdir(dir, 0755) < 0 || mount("none", dir, "tmpfs", 0, NULL) < 0 || chdir(dir) < 0) {
		printf("not ok 1 - a tmpfs on %s: %s\n", dir, strerror(errno));
		return 1;
	}
	mkdir("d", 0755);
	mkdir("d2", 0755);
	close(open("d2/x", O_CREAT | O_WRONLY, 0644));
	close(open("f", O_CREAT | O_WRONLY, 0644));
	check_ok(mount(NULL, ".", NULL, MS_REMOUNT | MS_RDONLY, NULL), "remounted read-only");
	if (chdir("/") < 0 || chdir(dir) < 0)
		return 1;

	check_err(rename("nosuch", "x"), EROFS, "rename of no such name");
	check_err(rename("f", "d"), EROFS, "rename of a file onto a directory");
	check_err(rename("d", "f"), EROFS, "rename of a directory onto a file");
	check_err(rename("d", "d/sub"), EROFS, "rename of a directory into itself");
	check_err(rename("f/", "y"), EROFS, "rename of a file with a trailing slash");
	check_err(syscall(SYS_renameat2, AT_FDCWD, "f", AT_FDCWD, "d", 1 /* RENAME_NOREPLACE */),
		  EROFS, "RENAME_NOREPLACE onto a name that is there");
	check_err(rename("f", "f"), EROFS, "rename of a file onto itself");
	check_err(rename("d", "d2"), EROFS, "rename onto a directory that is not empty");
	check_err(rename("d", ".."), EBUSY, "rename onto \"..\": EBUSY first");
	check_err(unlink("nosuch"), EROFS, "unlink of no such name");
	check_err(unlink("d"), EROFS, "unlink of a directory");
	check_err(unlink("f/"), EROFS, "unlink with a trailing slash");
	check_err(unlink("."), EISDIR, "unlink of \".\": EISDIR first");
	check_err(rmdir("nosuch"), EROFS, "rmdir of no such name");
	check_err(rmdir("f"), EROFS, "rmdir of a file");
	check_err(rmdir("d2"), EROFS, "rmdir of a directory that is not empty");
	check_err(rmdir("."), EINVAL, "rmdir of \".\": EINVAL first");
	check_err(rmdir(".."), ENOTEMPTY, "rmdir of \"..\": ENOTEMPTY first");
	check_err(mkdir("d", 0755), EEXIST, "mkdir of a name that is there: EEXIST");
	check_err(mkdir("new", 0755), EROFS, "mkdir of a new name");
	check_err(link("f", "d"), EEXIST, "link onto a name that is there: EEXIST");
	check_err(link("nosuch", "g"), ENOENT, "link of no such name: ENOENT");
	check_err(link("f", "g"), EROFS, "link to a new name");
	check_err(symlink("f", "d"), EEXIST, "symlink onto a name that is there: EEXIST");
	check_err(symlink("f", "s"), EROFS, "symlink of a new name");
	check_err(mknod("d", S_IFIFO | 0644, 0), EEXIST, "mknod onto a name that is there: EEXIST");
	check_err(open("f", O_CREAT | O_EXCL | O_WRONLY, 0644), EEXIST,
		  "O_CREAT|O_EXCL of a name that is there");
	check_err(open("new", O_CREAT | O_WRONLY, 0644), EROFS, "O_CREAT of a new name");
	check_err(open("nosuch", O_WRONLY), ENOENT, "open for writing of no such name: ENOENT");
	check_err(open("f", O_WRONLY), EROFS, "open of a file for writing");
	check_err(truncate("nosuch", 0), ENOENT, "truncate of no such name: ENOENT");
	check_err(chmod("nosuch", 0644), ENOENT, "chmod of no such name: ENOENT");
	check_err(chmod("f", 0600), EROFS, "chmod of a file");
	check_err(open("d", O_WRONLY | O_TMPFILE, 0644), EROFS, "O_TMPFILE");

	if (chdir("/") == 0 && umount(dir) == 0 && rmdir(dir) == 0)
		check(1, "cleaned up");
	else
		check(0, "cleaned up");
	fd = open(dir, O_RDONLY);
	check(fd < 0 && errno == ENOENT, "the directory is gone");
	return 0;
}
