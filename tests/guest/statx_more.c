/* statx's fields beyond stat's: a tmpfs file's birth time (STATX_BTIME,
 * given when asked, set at creation and kept by writes, renames and
 * utimes), the mount id (STATX_MNT_ID, mountinfo's), the mount root
 * attribute, and tmpfs's append/immutable/nodump attributes (chattr's
 * a, i, d). skas gave only the basic stats: no birth time (stat's
 * "Birth: -", Rust's created(), Go), no mount id. Runs in a mount
 * namespace of its own (root). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define TAP_ENAME
#include "tap.h"
#include "statx.h"

#define A_IMMUTABLE  0x10ULL
#define A_APPEND     0x20ULL
#define A_NODUMP     0x40ULL
#define A_MOUNT_ROOT 0x2000ULL

#define GETFLAGS     _IOR('f', 1, long)
#define SETFLAGS     _IOW('f', 2, long)
#define FL_IMMUTABLE 0x10
#define FL_APPEND    0x20
#define FL_NODUMP    0x40

static int ts_eq(struct xstatx_ts a, struct xstatx_ts b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* a <= b */
static int ts_le(struct xstatx_ts a, struct xstatx_ts b)
{
	return a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec <= b.tv_nsec);
}

static struct xstatx_ts now(void)
{
	struct timespec ts;
	struct xstatx_ts x = { 0, 0, 0 };

	clock_gettime(CLOCK_REALTIME, &ts);
	x.tv_sec = ts.tv_sec;
	x.tv_nsec = (uint32_t)ts.tv_nsec;
	return x;
}

/* The mount id of mountinfo's line for path, or -1. */
static long mountinfo_id(const char *path)
{
	char line[1024], pat[128];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	long id = -1;

	snprintf(pat, sizeof(pat), " %s ", path);
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, pat))
			id = strtol(line, NULL, 10);
	if (f)
		fclose(f);
	return id;
}

static int set_flags(const char *path, long flags)
{
	int fd = open(path, O_RDONLY), r;

	if (fd < 0)
		return -1;
	r = ioctl(fd, SETFLAGS, &flags);
	close(fd);
	return r;
}

int main(void)
{
	char dir[64], file[96], sub[96], moved[96];
	struct xstatx sx, sx2;
	struct xstatx_ts before, after, birth;
	struct timespec times[2] = { { 946684800, 0 }, { 946684800, 0 } };
	long id;
	int fd;

	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL) < 0) {
		printf("not ok 1 - a mount namespace of its own: %s\n", strerror(errno));
		return 1;
	}
	snprintf(dir, sizeof(dir), "/tmp/skas-statx-%d", (int)getpid());
	snprintf(file, sizeof(file), "%s/f", dir);
	snprintf(sub, sizeof(sub), "%s/d", dir);
	snprintf(moved, sizeof(moved), "%s/d/g", dir);
	if (mkdir(dir, 0755) < 0 || mount("t", dir, "tmpfs", 0, NULL) < 0) {
		printf("not ok 1 - a tmpfs: %s\n", strerror(errno));
		return 1;
	}

	before = now();
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	after = now();
	check(fd >= 0, "a file on a tmpfs");
	check(xstatx(AT_FDCWD, file, 0, XSTATX_BASIC | XSTATX_BTIME, &sx) == 0,
	      "statx asking for BTIME");
	check((sx.mask & (XSTATX_BASIC | XSTATX_BTIME)) == (XSTATX_BASIC | XSTATX_BTIME),
	      "mask: BASIC_STATS and BTIME");
	birth = sx.btime;
	/* the coarse clock of a file's times may lag the fine one by a tick */
	before.tv_sec -= 1;
	check(ts_le(before, birth) && ts_le(birth, after), "the birth time is the creation's");
	check(ts_eq(birth, sx.mtime) && ts_eq(birth, sx.ctime), "born with its mtime and ctime");
	check(sx.btime.pad == 0, "the timestamp's spare is 0");
	check(xstatx(AT_FDCWD, file, 0, XSTATX_BASIC, &sx) == 0 && !(sx.mask & XSTATX_BTIME),
	      "not asked: no BTIME in the mask");

	usleep(20000);
	check(write(fd, "data", 4) == 4, "written to");
	close(fd);
	check(utimensat(AT_FDCWD, file, times, 0) == 0, "its times set to 2000");
	/* (Linux 6.13 on leaves out mtime and ctime unless asked) */
	check(xstatx(AT_FDCWD, file, 0, XSTATX_BASIC | XSTATX_BTIME, &sx) == 0 &&
		      (sx.mask & XSTATX_BTIME) && ts_eq(sx.btime, birth),
	      "write and utimes keep the birth time");
	check(sx.mtime.tv_sec == 946684800 && !ts_eq(sx.ctime, birth),
	      "while mtime and ctime moved");
	check(mkdir(sub, 0755) == 0 && rename(file, moved) == 0, "renamed into a directory");
	check(xstatx(AT_FDCWD, moved, 0, XSTATX_BTIME, &sx) == 0 && ts_eq(sx.btime, birth),
	      "a rename keeps it");
	fd = open(moved, O_RDONLY);
	check(xstatx(fd, "", AT_EMPTY_PATH, XSTATX_BTIME, &sx2) == 0 && ts_eq(sx2.btime, birth),
	      "statx of the open file: the same");
	close(fd);
	check(xstatx(AT_FDCWD, sub, 0, XSTATX_BTIME, &sx) == 0 && (sx.mask & XSTATX_BTIME) &&
		      ts_le(birth, sx.btime),
	      "a directory has one too");
	check(symlink("g", file) == 0 &&
		      xstatx(AT_FDCWD, file, AT_SYMLINK_NOFOLLOW, XSTATX_BTIME, &sx) == 0 &&
		      (sx.mask & XSTATX_BTIME) && ts_le(birth, sx.btime),
	      "and a symlink");

	id = mountinfo_id(dir);
	check(id > 0, "the tmpfs in mountinfo");
	check(xstatx(AT_FDCWD, dir, 0, XSTATX_BASIC, &sx) == 0 && (sx.mask & XSTATX_MNT_ID),
	      "mask: MNT_ID, not asked");
	check(sx.mnt_id == (uint64_t)id, "stx_mnt_id is mountinfo's");
	check((sx.attributes_mask & A_MOUNT_ROOT) && (sx.attributes & A_MOUNT_ROOT),
	      "the mount point: STATX_ATTR_MOUNT_ROOT");
	check(xstatx(AT_FDCWD, moved, 0, XSTATX_BASIC, &sx) == 0 && sx.mnt_id == (uint64_t)id &&
		      (sx.attributes_mask & A_MOUNT_ROOT) && !(sx.attributes & A_MOUNT_ROOT),
	      "a file in it: that mount, not its root");
	check(xstatx(AT_FDCWD, "/tmp", 0, XSTATX_BASIC, &sx) == 0 && (sx.mask & XSTATX_MNT_ID) &&
		      sx.mnt_id != (uint64_t)id,
	      "its parent: another mount");

	check((sx2.attributes_mask & (A_APPEND | A_IMMUTABLE | A_NODUMP)) ==
			      (A_APPEND | A_IMMUTABLE | A_NODUMP) &&
		      !(sx2.attributes & (A_APPEND | A_IMMUTABLE | A_NODUMP)),
	      "tmpfs's attributes: append, immutable, nodump known, none set");
	check(set_flags(moved, FL_APPEND | FL_NODUMP) == 0, "chattr +ad");
	check(xstatx(AT_FDCWD, moved, 0, XSTATX_BASIC, &sx) == 0 &&
		      (sx.attributes & (A_APPEND | A_IMMUTABLE | A_NODUMP)) ==
			      (A_APPEND | A_NODUMP),
	      "statx: APPEND and NODUMP");
	check(set_flags(moved, FL_IMMUTABLE) == 0, "chattr =i");
	check(xstatx(AT_FDCWD, moved, 0, XSTATX_BASIC, &sx) == 0 &&
		      (sx.attributes & (A_APPEND | A_IMMUTABLE | A_NODUMP)) == A_IMMUTABLE,
	      "statx: IMMUTABLE only");
	check(set_flags(moved, 0) == 0, "chattr =");

	unlink(moved);
	unlink(file);
	rmdir(sub);
	umount(dir);
	rmdir(dir);
	return 0;
}
