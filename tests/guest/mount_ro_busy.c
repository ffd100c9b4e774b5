/* A read-only remount while a file is open for writing is EBUSY, as
 * Linux's sb_prepare_remount_readonly (the filesystem: a writer through
 * any of its mounts) and mnt_make_readonly (MS_BIND: a writer through
 * that mount). skas made the mount read-only under the writer, which
 * then still wrote. An O_TMPFILE file is a writer too. Runs in a mount
 * namespace of its own (root). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>

#define TAP_ENAME
#include "tap.h"

static char dir[64], dir2[80], file[96], file2[96];

static void check_ok(long r, const char *what)
{
	check(r >= 0, what);
	if (r < 0)
		printf("# %s\n", ename(errno));
}

static int remount(const char *d, unsigned long flags)
{
	return mount(NULL, d, NULL, MS_REMOUNT | flags, NULL);
}

int main(void)
{
	int fd, ro;

	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL) < 0) {
		printf("not ok 1 - a mount namespace of its own: %s\n", strerror(errno));
		return 1;
	}
	snprintf(dir, sizeof(dir), "/tmp/skas-robusy-%d", (int)getpid());
	snprintf(dir2, sizeof(dir2), "%s.bind", dir);
	snprintf(file, sizeof(file), "%s/f", dir);
	snprintf(file2, sizeof(file2), "%s/f", dir2);
	if (mkdir(dir, 0755) < 0 || mkdir(dir2, 0755) < 0) {
		printf("not ok 1 - mkdir %s: %s\n", dir, strerror(errno));
		return 1;
	}
	check_ok(mount("none", dir, "tmpfs", 0, "size=1m"), "a tmpfs");
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	check(fd >= 0, "a file open for writing");
	check_err(remount(dir, MS_RDONLY), EBUSY, "remount read-only: EBUSY");
	check_err(remount(dir, MS_BIND | MS_RDONLY), EBUSY, "the mount read-only: EBUSY");
	check(write(fd, "x", 1) == 1, "the file still written");
	close(fd);
	ro = open(file, O_RDONLY);
	check_ok(remount(dir, MS_RDONLY), "closed (one open for reading): remount read-only");
	check_err(open(file, O_WRONLY), EROFS, "an open for writing: EROFS");
	check_ok(remount(dir, 0), "read-write again");
	close(ro);

	fd = open(dir, O_TMPFILE | O_RDWR, 0600);
	check(fd >= 0, "an O_TMPFILE file");
	check_err(remount(dir, MS_RDONLY), EBUSY, "remount read-only: EBUSY");
	close(fd);
	check_ok(remount(dir, MS_RDONLY), "closed: remount read-only");
	check_ok(remount(dir, 0), "read-write again");

	check_ok(mount(dir, dir2, NULL, MS_BIND, NULL), "a bind mount of it");
	fd = open(file2, O_WRONLY);
	check(fd >= 0, "the file open for writing through the bind mount");
	check_ok(remount(dir, MS_BIND | MS_RDONLY), "the first mount read-only: fine");
	check_err(remount(dir2, MS_BIND | MS_RDONLY), EBUSY, "the bind mount read-only: EBUSY");
	check_err(remount(dir, MS_RDONLY), EBUSY, "the filesystem read-only: EBUSY");
	check_ok(remount(dir, MS_BIND), "the first mount read-write again");
	close(fd);
	check_ok(remount(dir2, MS_BIND | MS_RDONLY), "closed: the bind mount read-only");

	if (chdir("/") < 0)
		return 1;
	check_ok(umount(dir2), "unmounted");
	check_ok(umount(dir), "unmounted");
	check_ok(rmdir(dir2), "cleaned up");
	check_ok(rmdir(dir), "cleaned up");
	return 0;
}
