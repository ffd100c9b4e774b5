/* A read-only remount while a file is open for writing is EBUSY, as
 * Linux's sb_prepare_remount_readonly (the filesystem: a writer through
 * any of its mounts) and mnt_make_readonly (MS_BIND: a writer through
 * that mount). skas made the mount read-only under the writer, which
 * then still wrote. An O_TMPFILE file is a writer too. A file or
 * directory with no name left that is still in use (open for reading,
 * mapped, a cwd) makes the filesystem's remount EBUSY as well (Linux's
 * s_remove_count), not a bind mount's. Runs in a mount namespace of its
 * own (root). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>

#define TAP_ENAME
#include "tap.h"

static char dir[64], dir2[80], file[96], file2[96], file3[96];

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
	snprintf(file3, sizeof(file3), "%s/g", dir);
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

	/* names gone, inodes in use */
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	close(fd);
	check_ok(unlink(file), "a file unlinked, not open");
	check_ok(remount(dir, MS_RDONLY), "remount read-only");
	check_ok(remount(dir, 0), "read-write again");
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	close(fd);
	ro = open(file, O_RDONLY);
	check_ok(unlink(file), "a file open for reading unlinked");
	check_err(remount(dir, MS_RDONLY), EBUSY, "remount read-only: EBUSY");
	check_ok(remount(dir, MS_BIND | MS_RDONLY), "the mount read-only: fine");
	check_ok(remount(dir, MS_BIND), "the mount read-write again");
	{
		void *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, ro, 0);

		check(p != MAP_FAILED, "mapped");
		close(ro);
		check_err(remount(dir, MS_RDONLY), EBUSY, "closed, still mapped: EBUSY");
		if (p != MAP_FAILED)
			munmap(p, 4096);
	}
	check_ok(remount(dir, MS_RDONLY), "unmapped: remount read-only");
	check_ok(remount(dir, 0), "read-write again");
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	close(fd);
	check_ok(link(file, file3), "a second name");
	ro = open(file, O_RDONLY);
	check_ok(unlink(file), "one name of an open file unlinked");
	check_ok(remount(dir, MS_RDONLY), "one name left: remount read-only");
	check_ok(remount(dir, 0), "read-write again");
	check_ok(unlink(file3), "its last name unlinked");
	check_err(remount(dir, MS_RDONLY), EBUSY, "remount read-only: EBUSY");
	close(ro);
	check_ok(remount(dir, MS_RDONLY), "closed: remount read-only");
	check_ok(remount(dir, 0), "read-write again");
	fd = open(dir, O_TMPFILE | O_RDWR, 0600);
	{
		char proc[64];

		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		check_ok(linkat(AT_FDCWD, proc, AT_FDCWD, file, AT_SYMLINK_FOLLOW),
			 "an O_TMPFILE file linked");
	}
	close(fd);
	check_ok(remount(dir, MS_RDONLY), "closed: remount read-only");
	check_ok(remount(dir, 0), "read-write again");
	check_ok(unlink(file), "unlinked");
	check_ok(mkdir(file, 0755), "a directory");
	check_ok(chdir(file), "the cwd in it");
	check_ok(rmdir(file), "removed");
	check_err(remount(dir, MS_RDONLY), EBUSY, "remount read-only: EBUSY");
	check_ok(chdir("/"), "the cwd elsewhere");
	check_ok(remount(dir, MS_RDONLY), "remount read-only");
	check_ok(remount(dir, 0), "read-write again");
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	close(fd);

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
