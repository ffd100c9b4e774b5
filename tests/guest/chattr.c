/* chattr's flags on tmpfs, as Linux 6.18's: FS_IOC_GETFLAGS/SETFLAGS and
 * FS_IOC_FSGETXATTR/FSSETXATTR take immutable, append-only, nodump and
 * noatime (others EOPNOTSUPP), the owner (or CAP_FOWNER) sets them and
 * only CAP_LINUX_IMMUTABLE sets or clears i and a; then the VFS holds an
 * immutable file or directory unchanged (EPERM to open for writing,
 * truncate, chmod, chown, utimes, unlink, rename, link, xattrs, entries
 * made or removed in it) and an append-only file appended to only
 * (O_APPEND opens, no truncation, no shared mapping of it open for
 * writing, no removal), and noatime keeps reads from moving the access
 * time. skas said ENOTTY. Also the access time itself, which skas never
 * moved: a read, readdir or readlink moves it as relatime says, not
 * through O_NOATIME or on a noatime mount; and a pwrite to a file open
 * with O_APPEND lands at its end (skas wrote at the offset). Runs in a
 * mount namespace of its own (root). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#define TAP_ENAME
#include "tap.h"

/* linux/fs.h's (musl has no kernel headers) */
#define FS_IOC_GETFLAGS	      _IOR('f', 1, long)
#define FS_IOC_SETFLAGS	      _IOW('f', 2, long)
#define FS_IOC_FSGETXATTR     _IOR('X', 31, struct fsxattr)
#define FS_IOC_FSSETXATTR     _IOW('X', 32, struct fsxattr)
#define FS_SYNC_FL	      0x00000008
#define FS_IMMUTABLE_FL	      0x00000010
#define FS_APPEND_FL	      0x00000020
#define FS_NODUMP_FL	      0x00000040
#define FS_NOATIME_FL	      0x00000080
#define FS_COMPR_FL	      0x00000004
#define FS_XFLAG_REALTIME     0x00000001
#define FS_XFLAG_IMMUTABLE    0x00000008
#define FS_XFLAG_SYNC	      0x00000020
#define FS_XFLAG_NOATIME      0x00000040
#define FS_XFLAG_NODUMP	      0x00000080
#define FS_XFLAG_PROJINHERIT  0x00000200
#define FS_XFLAG_EXTSIZE      0x00000800
#define FS_XFLAG_EXTSZINHERIT 0x00001000
#define FS_XFLAG_DAX	      0x00008000
#define FS_XFLAG_HASATTR      0x80000000
#ifndef FALLOC_FL_KEEP_SIZE
#define FALLOC_FL_KEEP_SIZE  1
#define FALLOC_FL_PUNCH_HOLE 2
#endif

struct fsxattr {
	unsigned fsx_xflags, fsx_extsize, fsx_nextents, fsx_projid, fsx_cowextsize;
	unsigned char fsx_pad[8];
};

static char dir[64], file[96], file2[96], sub[96], subf[128];

static void check_ok(long r, const char *what)
{
	check(r >= 0, what);
	if (r < 0)
		printf("# %s\n", ename(errno));
}

static long getflags(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	unsigned f = 0;
	long r;

	if (fd < 0)
		return -1;
	r = ioctl(fd, FS_IOC_GETFLAGS, &f);
	close(fd);
	return r < 0 ? r : (long)f;
}

static int setflags(const char *path, unsigned f)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	int r, e;

	if (fd < 0)
		return -1;
	r = ioctl(fd, FS_IOC_SETFLAGS, &f);
	e = errno;
	close(fd);
	errno = e;
	return r;
}

static int fsset(int fd, unsigned xflags, unsigned extsize, unsigned projid)
{
	struct fsxattr x;

	memset(&x, 0, sizeof(x));
	x.fsx_xflags = xflags;
	x.fsx_extsize = extsize;
	x.fsx_projid = projid;
	return ioctl(fd, FS_IOC_FSSETXATTR, &x);
}

static int touch(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY, 0644);

	if (fd < 0)
		return -1;
	return close(fd);
}

/* In a child that drops to uid 1000 (all capabilities gone): fn's result
 * as the exit status. */
static int as_user(int (*fn)(void))
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		if (setgid(1000) < 0 || setuid(1000) < 0)
			_exit(99);
		_exit(fn());
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int user_sets_others(void)
{
	int ok = getflags(file) == 0;

	ok = ok << 1 | (setflags(file, FS_NODUMP_FL) < 0 && errno == EPERM);
	return ok;
}

static int user_sets_own(void)
{
	int ok = setflags(file2, FS_NODUMP_FL) == 0;

	ok = ok << 1 | (setflags(file2, FS_NODUMP_FL | FS_IMMUTABLE_FL) < 0 && errno == EPERM);
	ok = ok << 1 | (setflags(file2, FS_APPEND_FL) < 0 && errno == EPERM);
	ok = ok << 1 | (getflags(file2) == FS_NODUMP_FL);
	return ok;
}

static int user_clears_immutable(void)
{
	return setflags(file2, 0) < 0 && errno == EPERM;
}

int main(void)
{
	struct fsxattr x;
	struct stat st;
	struct timeval tv[2] = { { 946684800, 0 }, { 946684800, 0 } };
	char buf[16];
	int fd, fd2, r;

	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL) < 0) {
		printf("not ok 1 - a mount namespace of its own: %s\n", strerror(errno));
		return 1;
	}
	snprintf(dir, sizeof(dir), "/tmp/skas-chattr-%d", (int)getpid());
	snprintf(file, sizeof(file), "%s/f", dir);
	snprintf(file2, sizeof(file2), "%s/g", dir);
	snprintf(sub, sizeof(sub), "%s/d", dir);
	snprintf(subf, sizeof(subf), "%s/d/x", dir);
	if (mkdir(dir, 0755) < 0 || mount("none", dir, "tmpfs", 0, "mode=755") < 0) {
		printf("not ok 1 - a tmpfs at %s: %s\n", dir, strerror(errno));
		return 1;
	}

	/* the flags themselves */
	check_ok(touch(file), "a file");
	check_ok(mkdir(sub, 0755), "a directory");
	check(getflags(file) == 0, "a new file: no flags");
	check(getflags(sub) == 0, "a new directory: no flags");
	fd = open(file, O_RDONLY);
	memset(&x, 0xff, sizeof(x));
	check(ioctl(fd, FS_IOC_FSGETXATTR, &x) == 0 && x.fsx_xflags == 0 && x.fsx_extsize == 0 &&
		      x.fsx_nextents == 0 && x.fsx_projid == 0 && x.fsx_cowextsize == 0,
	      "FS_IOC_FSGETXATTR: all 0");
	check_ok(setflags(file, FS_NODUMP_FL | FS_NOATIME_FL), "nodump and noatime set");
	check(getflags(file) == (FS_NODUMP_FL | FS_NOATIME_FL), "read back");
	check(ioctl(fd, FS_IOC_FSGETXATTR, &x) == 0 &&
		      x.fsx_xflags == (FS_XFLAG_NODUMP | FS_XFLAG_NOATIME),
	      "FSGETXATTR's xflags say them");
	check_err(setflags(file, FS_SYNC_FL), EOPNOTSUPP, "sync: EOPNOTSUPP");
	check_err(setflags(file, 0x80000), EOPNOTSUPP, "extents: EOPNOTSUPP");
	check_err(setflags(file, FS_NODUMP_FL | FS_COMPR_FL), EOPNOTSUPP, "compress: EOPNOTSUPP");
	check(getflags(file) == (FS_NODUMP_FL | FS_NOATIME_FL), "unchanged");
	check_err(ioctl(fd, FS_IOC_GETFLAGS, NULL), EFAULT, "GETFLAGS to NULL: EFAULT");
	check_err(ioctl(fd, FS_IOC_SETFLAGS, NULL), EFAULT, "SETFLAGS from NULL: EFAULT");
	check_err(ioctl(fd, FS_IOC_FSGETXATTR, NULL), EFAULT, "FSGETXATTR to NULL: EFAULT");
	check_err(ioctl(fd, FS_IOC_FSSETXATTR, NULL), EFAULT, "FSSETXATTR from NULL: EFAULT");
	check_ok(fsset(fd, FS_XFLAG_NODUMP, 0, 0), "FSSETXATTR nodump");
	check(getflags(file) == FS_NODUMP_FL, "the flags follow");
	check_err(fsset(fd, FS_XFLAG_REALTIME, 0, 0), EOPNOTSUPP,
		  "FSSETXATTR realtime: EOPNOTSUPP");
	check_err(fsset(fd, FS_XFLAG_SYNC, 0, 0), EOPNOTSUPP, "FSSETXATTR sync: EOPNOTSUPP");
	check_err(fsset(fd, FS_XFLAG_DAX, 0, 0), EOPNOTSUPP, "FSSETXATTR dax: EOPNOTSUPP");
	check_err(fsset(fd, FS_XFLAG_PROJINHERIT, 0, 0), EOPNOTSUPP,
		  "FSSETXATTR projinherit: EOPNOTSUPP");
	check_err(fsset(fd, FS_XFLAG_EXTSZINHERIT, 0, 0), EINVAL,
		  "FSSETXATTR extszinherit on a file: EINVAL");
	check_ok(fsset(fd, FS_XFLAG_EXTSIZE, 0, 0), "FSSETXATTR extsize of 0: dropped");
	check_ok(fsset(fd, FS_XFLAG_HASATTR, 0, 0), "FSSETXATTR hasattr: ignored");
	check_err(fsset(fd, 0, 4096, 0), EOPNOTSUPP, "FSSETXATTR an extent size: EOPNOTSUPP");
	check_err(fsset(fd, 0, 0, 5), EOPNOTSUPP, "FSSETXATTR a project: EOPNOTSUPP");
	check(getflags(file) == 0, "no flags left");
	close(fd);
	fd = open(sub, O_RDONLY);
	check_ok(fsset(fd, FS_XFLAG_EXTSZINHERIT, 0, 0),
		 "FSSETXATTR extszinherit of 0 on a directory");
	close(fd);
	check_ok(mkfifo(subf, 0644), "a FIFO");
	fd = open(subf, O_RDONLY | O_NONBLOCK);
	check_err(ioctl(fd, FS_IOC_GETFLAGS, buf), ENOTTY, "a FIFO's flags: ENOTTY");
	close(fd);
	unlink(subf);
	fd = open("/dev/null", O_RDONLY);
	check_err(ioctl(fd, FS_IOC_GETFLAGS, buf), ENOTTY, "/dev/null's flags: ENOTTY");
	close(fd);
	fd = open(file, O_PATH);
	check_err(ioctl(fd, FS_IOC_GETFLAGS, buf), EBADF, "through O_PATH: EBADF");
	close(fd);

	/* who may */
	check_ok(touch(file2), "a second file");
	check_ok(chown(file2, 1000, 1000), "owned by uid 1000");
	check(as_user(user_sets_others) == 3, "another's file: flags read, not set (EPERM)");
	check(as_user(user_sets_own) == 15,
	      "its own: nodump set, i and a EPERM without CAP_LINUX_IMMUTABLE");
	check_ok(setflags(file2, FS_IMMUTABLE_FL), "root sets i on it");
	check(as_user(user_clears_immutable) == 1, "its owner cannot clear it: EPERM");
	check_ok(setflags(file2, 0), "root clears it");

	/* immutable */
	fd2 = open(file, O_WRONLY);
	check_ok(setflags(file, FS_IMMUTABLE_FL), "i set");
	check_err(open(file, O_WRONLY), EPERM, "open for writing: EPERM");
	check_err(open(file, O_RDWR), EPERM, "open for reading and writing: EPERM");
	check_err(open(file, O_RDONLY | O_TRUNC), EPERM, "O_RDONLY|O_TRUNC: EPERM");
	fd = open(file, O_RDONLY);
	check(fd >= 0, "open for reading: fine");
	close(fd);
	check_err(access(file, W_OK), EPERM, "access W_OK: EPERM");
	check_err(truncate(file, 0), EPERM, "truncate: EPERM");
	check_err(chmod(file, 0600), EPERM, "chmod: EPERM");
	check_err(chown(file, 1, 1), EPERM, "chown: EPERM");
	check_err(utimes(file, NULL), EPERM, "utimes to now: EPERM");
	check_err(utimes(file, tv), EPERM, "utimes to a time: EPERM");
	check_err(unlink(file), EPERM, "unlink: EPERM");
	check_err(rename(file, file2), EPERM, "rename away: EPERM");
	check_err(rename(file2, file), EPERM, "rename over it: EPERM");
	check_err(link(file, subf), EPERM, "link: EPERM");
	check_err(setxattr(file, "user.a", "1", 1, 0), EPERM, "setxattr: EPERM");
	check_err(removexattr(file, "user.a"), EPERM, "removexattr: EPERM");
	check(write(fd2, "ab", 2) == 2, "an fd open for writing before: still writes");
	check_err(fallocate(fd2, 0, 0, 4096), EPERM, "fallocate through it: EPERM");
	check_ok(ftruncate(fd2, 0), "ftruncate through it: fine (only a is looked at)");
	close(fd2);
	check(getflags(file) == FS_IMMUTABLE_FL, "still i");
	check_ok(setflags(file, 0), "i cleared");
	check_ok(truncate(file, 0), "truncate fine again");

	/* an immutable directory */
	check_ok(touch(subf), "a file in the directory");
	check_ok(setflags(sub, FS_IMMUTABLE_FL), "i on the directory");
	check_err(mkdir(subf, 0755), EEXIST, "mkdir of a name there: EEXIST first");
	{
		char y[140];

		snprintf(y, sizeof(y), "%s/y", sub);
		check_err(open(y, O_CREAT | O_WRONLY, 0644), EPERM, "a new file in it: EPERM");
		check_err(mkdir(y, 0755), EPERM, "mkdir in it: EPERM");
		check_err(symlink("x", y), EPERM, "symlink in it: EPERM");
		check_err(rename(subf, y), EPERM, "rename in it: EPERM");
		check_err(rename(file2, y), EPERM, "rename into it: EPERM");
	}
	check_err(unlink(subf), EPERM, "unlink in it: EPERM");
	fd = open(subf, O_WRONLY);
	check(fd >= 0 && write(fd, "z", 1) == 1, "a file in it is written");
	close(fd);
	check_err(rmdir(sub), EPERM, "rmdir of it: EPERM");
	check_err(chmod(sub, 0700), EPERM, "chmod of it: EPERM");
	check_ok(setflags(sub, 0), "i cleared");
	check_ok(unlink(subf), "unlink in it fine again");

	/* append-only */
	check_ok(setflags(file, FS_APPEND_FL), "a set");
	check_err(open(file, O_WRONLY), EPERM, "open for writing without O_APPEND: EPERM");
	check_err(open(file, O_WRONLY | O_APPEND | O_TRUNC), EPERM, "with O_TRUNC: EPERM");
	fd = open(file, O_RDWR | O_APPEND);
	check(fd >= 0, "O_RDWR|O_APPEND: fine");
	check(write(fd, "12", 2) == 2 && pwrite(fd, "34", 2, 0) == 2, "written");
	check(pread(fd, buf, sizeof(buf), 0) == 4 && memcmp(buf, "1234", 4) == 0,
	      "both at the end (pwrite too)");
	check_err(fcntl(fd, F_SETFL, 0), EPERM, "F_SETFL without O_APPEND: EPERM");
	check(fcntl(fd, F_SETFL, O_APPEND | O_NONBLOCK) == 0, "F_SETFL keeping it: fine");
	check_err(ftruncate(fd, 0), EPERM, "ftruncate: EPERM");
	check_err(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 2), EPERM,
		  "fallocate punching a hole: EPERM");
	check_ok(fallocate(fd, 0, 0, 8192), "fallocate of mode 0: fine");
	check(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED && errno == EACCES,
	      "a shared mapping of it open for writing: EACCES");
	{
		void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);

		check(p != MAP_FAILED, "a private one: fine");
		if (p != MAP_FAILED)
			munmap(p, 4096);
	}
	close(fd);
	fd = open(file, O_RDONLY);
	{
		void *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);

		check(p != MAP_FAILED, "a shared one open for reading: fine");
		if (p != MAP_FAILED)
			munmap(p, 4096);
	}
	close(fd);
	check_err(truncate(file, 0), EPERM, "truncate: EPERM");
	check_err(chmod(file, 0600), EPERM, "chmod: EPERM");
	check_ok(utimes(file, NULL), "utimes to now: fine");
	check_err(utimes(file, tv), EPERM, "utimes to a time: EPERM");
	check_err(unlink(file), EPERM, "unlink: EPERM");
	check_err(link(file, subf), EPERM, "link: EPERM");
	check_err(setxattr(file, "user.a", "1", 1, 0), EPERM, "setxattr: EPERM");
	check_ok(setflags(file, 0), "a cleared");

	/* an append-only directory */
	check_ok(setflags(sub, FS_APPEND_FL), "a on the directory");
	check_ok(touch(subf), "a new file in it: fine");
	check_err(unlink(subf), EPERM, "unlink in it: EPERM");
	check_err(rename(subf, file2), EPERM, "rename out of it: EPERM");
	check_ok(setflags(sub, 0), "a cleared");
	check_ok(unlink(subf), "unlinked");

	/* noatime */
	check_ok(utimes(file, tv), "the access time in 2000");
	fd = open(file, O_RDONLY);
	r = (int)read(fd, buf, 1);
	close(fd);
	check(r == 1 && stat(file, &st) == 0 && st.st_atime > 946684800,
	      "a read moves it (relatime)");
	check_ok(utimes(file, tv), "back in 2000");
	fd = open(file, O_RDONLY | O_NOATIME);
	r = (int)read(fd, buf, 1);
	close(fd);
	check(r == 1 && stat(file, &st) == 0 && st.st_atime == 946684800,
	      "a read through an O_NOATIME open does not");
	check(r == 1 && stat(file, &st) == 0 && st.st_atime == 946684800, "nor a stat");
	check_ok(utimes(sub, tv), "the directory's in 2000");
	fd = open(sub, O_RDONLY | O_DIRECTORY);
	{
		char d[256];

		r = (int)syscall(SYS_getdents64, fd, d, sizeof(d));
	}
	close(fd);
	check(r > 0 && stat(sub, &st) == 0 && st.st_atime > 946684800, "a readdir moves it");
	check_ok(symlink("target", subf), "a symlink");
	check_ok(lutimes(subf, tv), "its access time in 2000");
	check(readlink(subf, buf, sizeof(buf)) == 6 && lstat(subf, &st) == 0 &&
		      st.st_atime > 946684800,
	      "a readlink moves it");
	unlink(subf);
	check_ok(mount(NULL, dir, NULL, MS_REMOUNT | MS_NOATIME, NULL), "remounted noatime");
	check_ok(utimes(file, tv), "the file's in 2000");
	fd = open(file, O_RDONLY);
	r = (int)read(fd, buf, 1);
	close(fd);
	check(r == 1 && stat(file, &st) == 0 && st.st_atime == 946684800,
	      "a read on a noatime mount does not move it");
	check_ok(mount(NULL, dir, NULL, MS_REMOUNT, NULL), "remounted relatime");
	check_ok(utimes(file, tv), "back in 2000");
	check_ok(setflags(file, FS_NOATIME_FL), "A set");
	fd = open(file, O_RDONLY);
	r = (int)read(fd, buf, 1);
	close(fd);
	check(r == 1 && stat(file, &st) == 0 && st.st_atime == 946684800, "a read does not");
	check_ok(setflags(file, 0), "A cleared");

	/* a read-only mount */
	check_ok(mount(NULL, dir, NULL, MS_REMOUNT | MS_RDONLY, NULL), "read-only");
	check(getflags(file) == 0, "flags read");
	check_err(setflags(file, FS_NODUMP_FL), EROFS, "not set: EROFS");
	check_ok(mount(NULL, dir, NULL, MS_REMOUNT, NULL), "read-write again");

	if (chdir("/") < 0)
		return 1;
	check_ok(umount(dir), "unmounted");
	check_ok(rmdir(dir), "cleaned up");
	return 0;
}
