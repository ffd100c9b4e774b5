/* MS_NOSYMFOLLOW (Linux 5.10): no symlink on the mount is followed
 * (ELOOP), readlink still reads them, a link elsewhere into it still
 * works; mountinfo and statfs say it, a remount takes it off, a bind
 * remount puts it on one mount. skas took the flag and followed. Also:
 * following a symlink moves its access time (pick_link's touch_atime).
 * Runs in a mount namespace of its own (root). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>

#define TAP_ENAME
#include "tap.h"

#ifndef MS_NOSYMFOLLOW
#define MS_NOSYMFOLLOW 256
#endif
#ifndef ST_NOSYMFOLLOW
#define ST_NOSYMFOLLOW 0x2000
#endif

static char dir[64], dir2[80], file[96], link1[96], link2[96], outer[96];

static void check_ok(long r, const char *what)
{
	check(r >= 0, what);
	if (r < 0)
		printf("# %s\n", ename(errno));
}

/* Does mountinfo's line for path name nosymfollow among its options? */
static int shown(const char *path)
{
	char line[1024], pat[128];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int ret = -1;

	snprintf(pat, sizeof(pat), " %s ", path);
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, pat))
			ret = strstr(line, "nosymfollow") != NULL;
	if (f)
		fclose(f);
	return ret;
}

int main(void)
{
	struct statvfs sv;
	struct stat st;
	struct timeval tv[2] = { { 946684800, 0 }, { 946684800, 0 } };
	char buf[64];
	int fd;

	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL) < 0) {
		printf("not ok 1 - a mount namespace of its own: %s\n", strerror(errno));
		return 1;
	}
	snprintf(dir, sizeof(dir), "/tmp/skas-nosymf-%d", (int)getpid());
	snprintf(dir2, sizeof(dir2), "%s.b", dir);
	snprintf(file, sizeof(file), "%s/f", dir);
	snprintf(link1, sizeof(link1), "%s/l", dir);
	snprintf(link2, sizeof(link2), "%s/l", dir2);
	snprintf(outer, sizeof(outer), "%s.o", dir);
	if (mkdir(dir, 0755) < 0 || mkdir(dir2, 0755) < 0) {
		printf("not ok 1 - mkdir: %s\n", strerror(errno));
		return 1;
	}
	check_ok(mount("t", dir, "tmpfs", MS_NOSYMFOLLOW, NULL), "a nosymfollow tmpfs");
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	check(fd >= 0 && write(fd, "hi", 2) == 2, "a file");
	close(fd);
	check_ok(symlink("f", link1), "a symlink on it");
	check_err(open(link1, O_RDONLY), ELOOP, "open through it: ELOOP");
	check_err(stat(link1, &st), ELOOP, "stat through it: ELOOP");
	check(lstat(link1, &st) == 0 && S_ISLNK(st.st_mode), "lstat: fine");
	check(readlink(link1, buf, sizeof(buf)) == 1, "readlink: fine");
	check_ok(symlink(file, outer), "a symlink elsewhere into it");
	fd = open(outer, O_RDONLY);
	check(fd >= 0, "followed");
	close(fd);
	check(statvfs(dir, &sv) == 0 && (sv.f_flag & ST_NOSYMFOLLOW), "statvfs: ST_NOSYMFOLLOW");
	check(shown(dir) == 1, "mountinfo: nosymfollow");

	check_ok(mount(NULL, dir, NULL, MS_REMOUNT, NULL), "remounted without it");
	check(shown(dir) == 0, "mountinfo: not shown");
	check(statvfs(dir, &sv) == 0 && !(sv.f_flag & ST_NOSYMFOLLOW), "statvfs: not set");
	check_ok(lutimes(link1, tv), "the link's access time in 2000");
	fd = open(link1, O_RDONLY);
	check(fd >= 0, "followed now");
	close(fd);
	check(lstat(link1, &st) == 0 && st.st_atime > 946684800,
	      "following it moved its access time");

	check_ok(mount(dir, dir2, NULL, MS_BIND, NULL), "a bind mount");
	check_ok(mount(NULL, dir2, NULL, MS_BIND | MS_REMOUNT | MS_NOSYMFOLLOW, NULL),
		 "the bind mount nosymfollow");
	check_err(open(link2, O_RDONLY), ELOOP, "through the bind mount: ELOOP");
	fd = open(link1, O_RDONLY);
	check(fd >= 0, "through the first: followed");
	close(fd);

	unlink(outer);
	if (chdir("/") < 0)
		return 1;
	check_ok(umount(dir2), "unmounted");
	check_ok(umount(dir), "unmounted");
	check_ok(rmdir(dir2), "cleaned up");
	check_ok(rmdir(dir), "cleaned up");
	return 0;
}
