/* Names that end in a slash, and the order of errors Linux gives when a
 * new name is made (filename_create): rename, link, symlink, mknod and
 * mkdir in a private directory under /tmp, rmdir("/"). Nothing printed
 * depends on the directory's name. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define TAP_ENAME
#include "tap.h"

static void check_ok(long r, const char *what)
{
	int e = errno;

	if (r == 0)
		printf("ok %d - %s\n", ++n, what);
	else
		printf("not ok %d - %s: got %ld (%s)\n", ++n, what, r, ename(e));
}

static long ren2(const char *a, const char *b, unsigned flags)
{
	return syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, flags);
}

int main(void)
{
	char dir[] = "/tmp/skasnames.XXXXXX";
	struct stat st;
	int fd;

	if (!mkdtemp(dir) || chdir(dir) < 0) {
		perror("mkdtemp");
		return 1;
	}
	fd = open("f", O_CREAT | O_WRONLY, 0644);
	close(fd);
	mkdir("d", 0755);
	symlink("d", "sd");

	check_err(rename("f", "g/"), ENOTDIR, "rename f g/");
	check_err(rename("f/", "g"), ENOTDIR, "rename f/ g");
	check_err(rename("sd/", "g"), ENOTDIR, "rename sd/ g (a symlink to a directory)");
	check(stat("f", &st) == 0 && stat("g", &st) < 0, "f is still f");
	check_ok(ren2("f", "d/", 2), "RENAME_EXCHANGE f d/ (d is a directory)");
	check(stat("f", &st) == 0 && S_ISDIR(st.st_mode), "f is the directory now");
	check_err(ren2("f", "d/", 2), ENOTDIR, "RENAME_EXCHANGE f d/ (d is the file)");
	check_ok(ren2("f/", "d", 2), "RENAME_EXCHANGE f/ d");
	check_err(ren2("d", "f/", 2), ENOTDIR, "RENAME_EXCHANGE d f/");
	check(stat("f", &st) == 0 && S_ISREG(st.st_mode), "f is the file again");
	check_err(ren2("f", "d/", 1), EEXIST, "RENAME_NOREPLACE f d/");
	check_ok(rename("d/", "e/"), "rename d/ e/");
	check_ok(rename("e", "d/"), "rename e d/");

	check_err(link("f", "g/"), ENOENT, "link f g/");
	check_err(link("f", "d/"), EEXIST, "link f d/");
	check_err(link("f/", "g"), ENOTDIR, "link f/ g");
	check_err(link("d", "f"), EEXIST, "link d f (f exists: EEXIST before EPERM)");
	check_err(link("d", "g"), EPERM, "link d g");
	check_err(symlink("x", "g/"), ENOENT, "symlink x g/");
	check_err(symlink("x", "f/"), EEXIST, "symlink x f/");
	check_err(mknod("g/", S_IFIFO | 0644, 0), ENOENT, "mknod g/");
	check_err(mknod("f/", S_IFIFO | 0644, 0), EEXIST, "mknod f/");
	check_err(mkdir("f/", 0755), EEXIST, "mkdir f/");
	check_ok(mkdir("g/", 0755), "mkdir g/");
	check(lstat("g", &st) == 0 && S_ISDIR(st.st_mode), "g is a directory");
	check_ok(rmdir("g/"), "rmdir g/");
	check_err(rmdir("/"), EBUSY, "rmdir /");
	check_err(rmdir("//"), EBUSY, "rmdir //");
	check_err(unlink("/"), EISDIR, "unlink /");

	unlink("sd");
	unlink("f");
	rmdir("d");
	if (chdir("/") < 0 || rmdir(dir) < 0)
		check(0, "cleanup");
	return 0;
}
