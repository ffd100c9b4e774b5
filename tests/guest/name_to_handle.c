/* name_to_handle_at and open_by_handle_at on a tmpfs: a handle of three
 * words (FILEID_INO32_GEN, type 1) whose size a too small buffer learns
 * (EOVERFLOW, the mount id written all the same), the mount id statx's,
 * AT_HANDLE_FID and AT_HANDLE_MNT_ID_UNIQUE, bad flags and sizes EINVAL,
 * open_by_handle_at reading the file again (a directory's too, relative
 * to the cwd's mount), ESTALE once it is gone or for bytes naming
 * nothing, EPERM without CAP_DAC_READ_SEARCH. skas had neither call
 * (ENOSYS). Runs in a mount namespace of its own (root). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"
#include "statx.h"

#ifndef SYS_name_to_handle_at
#define SYS_name_to_handle_at 303
#endif
#ifndef SYS_open_by_handle_at
#define SYS_open_by_handle_at 304
#endif

#define H_MNT_ID_UNIQUE	     0x001
#define H_CONNECTABLE	     0x002
#define H_FID		     0x200
#define H_SYMLINK_FOLLOW     0x400
#define H_EMPTY_PATH	     0x1000
#define MAX_HANDLE	     128
#define XSTATX_MNT_ID_UNIQUE 0x4000U

struct fh {
	uint32_t bytes;
	int type;
	unsigned char f[MAX_HANDLE];
};

static long n2h(int dfd, const char *path, struct fh *h, void *mnt, int flags)
{
	return syscall(SYS_name_to_handle_at, dfd, path, h, mnt, flags);
}

static long obh(int mfd, struct fh *h, int flags)
{
	return syscall(SYS_open_by_handle_at, mfd, h, flags);
}

/* the first bytes of the file a handle opens, or "" */
static const char *read_back(int mfd, struct fh *h)
{
	static char buf[64];
	int fd = (int)obh(mfd, h, O_RDONLY);
	ssize_t r;

	buf[0] = 0;
	if (fd < 0)
		return buf;
	r = read(fd, buf, sizeof(buf) - 1);
	buf[r > 0 ? r : 0] = 0;
	close(fd);
	return buf;
}

int main(void)
{
	char dir[64], file[96], sub[96], link[96], gone[96];
	struct fh h, h2, hd;
	struct xstatx sx;
	uint64_t uid64 = 0;
	int mid = -1, mfd, fd, st;
	pid_t pid;

	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL) < 0) {
		printf("not ok 1 - a mount namespace of its own: %s\n", strerror(errno));
		return 1;
	}
	snprintf(dir, sizeof(dir), "/tmp/skas-fh-%d", (int)getpid());
	snprintf(file, sizeof(file), "%s/f", dir);
	snprintf(sub, sizeof(sub), "%s/d", dir);
	snprintf(link, sizeof(link), "%s/l", dir);
	snprintf(gone, sizeof(gone), "%s/d/g", dir);
	if (mkdir(dir, 0755) < 0 || mount("t", dir, "tmpfs", 0, NULL) < 0) {
		printf("not ok 1 - a tmpfs: %s\n", strerror(errno));
		return 1;
	}
	fd = open(file, O_CREAT | O_WRONLY, 0600);
	check(fd >= 0 && write(fd, "hello", 5) == 5, "a file on the tmpfs");
	close(fd);
	check(mkdir(sub, 0755) == 0 && symlink("f", link) == 0, "a directory and a symlink");
	check(xstatx(AT_FDCWD, file, 0, XSTATX_MNT_ID, &sx) == 0 && (sx.mask & XSTATX_MNT_ID),
	      "statx's mount id");

	/* the size */
	memset(&h, 0xa5, sizeof(h));
	h.bytes = 0;
	check_err(n2h(AT_FDCWD, file, &h, &mid, 0), EOVERFLOW, "no room: EOVERFLOW");
	check(h.bytes == 12, "handle_bytes says 12 are needed");
	check(h.type == 255, "the type FILEID_INVALID");
	check(mid == (int)sx.mnt_id, "the mount id written all the same");
	h.bytes = 11;
	check_err(n2h(AT_FDCWD, file, &h, &mid, 0), EOVERFLOW, "11 bytes: EOVERFLOW");
	h.bytes = MAX_HANDLE + 1;
	check_err(n2h(AT_FDCWD, file, &h, &mid, 0), EINVAL, "129 bytes: EINVAL");
	h.bytes = MAX_HANDLE;
	check_err(n2h(AT_FDCWD, file, &h, &mid, 0x8000), EINVAL, "an unknown flag: EINVAL");
	check_err(n2h(AT_FDCWD, file, &h, &mid, H_CONNECTABLE | H_FID), EINVAL,
		  "CONNECTABLE with FID: EINVAL");
	check_err(n2h(AT_FDCWD, file, &h, &mid, H_CONNECTABLE | H_EMPTY_PATH), EINVAL,
		  "CONNECTABLE with EMPTY_PATH: EINVAL");
	check_err(n2h(AT_FDCWD, "", &h, &mid, 0), ENOENT, "an empty path: ENOENT");

	/* the handle */
	mid = -1;
	h.bytes = MAX_HANDLE;
	check(n2h(AT_FDCWD, file, &h, &mid, 0) == 0, "a handle of the file");
	check(h.bytes == 12 && h.type == 1, "12 bytes of type 1 (FILEID_INO32_GEN)");
	check(mid == (int)sx.mnt_id, "mount id: statx's STATX_MNT_ID");
	memcpy(&h2, &h, sizeof(h2));
	h2.bytes = 12;
	check(n2h(AT_FDCWD, file, &h2, &mid, 0) == 0 && memcmp(&h, &h2, 8 + 12) == 0,
	      "the same handle again, in exactly 12 bytes");
	h2.bytes = MAX_HANDLE;
	check(n2h(AT_FDCWD, file, &h2, &mid, H_FID) == 0 && h2.type == 1 && h2.bytes == 12,
	      "AT_HANDLE_FID: the same kind");
	h2.bytes = MAX_HANDLE;
	check(n2h(AT_FDCWD, link, &h2, &mid, H_SYMLINK_FOLLOW) == 0 && memcmp(&h, &h2, 8 + 12) == 0,
	      "AT_SYMLINK_FOLLOW: the link's target");
	h2.bytes = MAX_HANDLE;
	check(n2h(AT_FDCWD, link, &h2, &mid, 0) == 0 && memcmp(&h, &h2, 8 + 12) != 0,
	      "without it: the link itself");
	fd = open(file, O_RDONLY);
	h2.bytes = MAX_HANDLE;
	check(n2h(fd, "", &h2, &mid, H_EMPTY_PATH) == 0 && memcmp(&h, &h2, 8 + 12) == 0,
	      "AT_EMPTY_PATH: an open fd's");
	close(fd);
	check(xstatx(AT_FDCWD, file, 0, XSTATX_MNT_ID_UNIQUE, &sx) == 0, "statx's unique id");
	h2.bytes = MAX_HANDLE;
	check(n2h(AT_FDCWD, file, &h2, &uid64, H_MNT_ID_UNIQUE) == 0 &&
		      (!(sx.mask & XSTATX_MNT_ID_UNIQUE) || uid64 == sx.mnt_id),
	      "AT_HANDLE_MNT_ID_UNIQUE: a 64-bit id, statx's STATX_MNT_ID_UNIQUE");
	check(uid64 > (1ULL << 31), "past the 32-bit ids");

	/* open_by_handle_at */
	mfd = open(dir, O_RDONLY | O_DIRECTORY);
	check(strcmp(read_back(mfd, &h), "hello") == 0, "open_by_handle_at reads the file");
	fd = (int)obh(mfd, &h, O_RDONLY);
	check(fd >= 0 && fcntl(fd, F_GETFD) == 0, "no FD_CLOEXEC unless asked");
	close(fd);
	fd = (int)obh(mfd, &h, O_RDONLY | O_CLOEXEC);
	check(fd >= 0 && fcntl(fd, F_GETFD) == FD_CLOEXEC, "O_CLOEXEC");
	close(fd);
	fd = (int)obh(mfd, &h, O_WRONLY | O_APPEND);
	check(fd >= 0 && write(fd, " world", 6) == 6, "opened for writing");
	close(fd);
	check(strcmp(read_back(mfd, &h), "hello world") == 0, "and the write is there");
	check_err(obh(mfd, &h, O_RDONLY | O_DIRECTORY), ENOTDIR, "O_DIRECTORY: ENOTDIR");
	check_err(obh(mfd, &h, O_RDONLY | O_CREAT | O_EXCL), EEXIST, "O_CREAT|O_EXCL: EEXIST");
	fd = (int)obh(mfd, &h, O_PATH);
	check(fd >= 0, "O_PATH");
	close(fd);
	h2.bytes = MAX_HANDLE;
	n2h(AT_FDCWD, link, &h2, &mid, 0);
	check_err(obh(mfd, &h2, O_RDONLY), ELOOP, "a symlink's: ELOOP");
	fd = (int)obh(mfd, &h2, O_PATH | O_NOFOLLOW);
	check(fd >= 0, "a symlink's with O_PATH");
	close(fd);
	hd.bytes = MAX_HANDLE;
	check(n2h(AT_FDCWD, sub, &hd, &mid, 0) == 0 && hd.type == 1, "a directory's handle");
	check(chdir(dir) == 0, "cwd on the tmpfs");
	fd = (int)obh(AT_FDCWD, &hd, O_RDONLY | O_DIRECTORY);
	check(fd >= 0 && mkdirat(fd, "x", 0755) == 0 && access("d/x", F_OK) == 0,
	      "AT_FDCWD: the cwd's mount; the directory is the one named");
	close(fd);
	check(chdir("/") == 0, "cwd back");

	/* bad handles */
	memcpy(&h2, &h, sizeof(h2));
	h2.bytes = 0;
	check_err(obh(mfd, &h2, O_RDONLY), EINVAL, "0 bytes: EINVAL");
	h2.bytes = MAX_HANDLE + 1;
	check_err(obh(mfd, &h2, O_RDONLY), EINVAL, "129 bytes: EINVAL");
	h2.bytes = 12;
	h2.type = -1;
	check_err(obh(mfd, &h2, O_RDONLY), EINVAL, "a negative type: EINVAL");
	h2.type = 1 | 0x40000;
	check_err(obh(mfd, &h2, O_RDONLY), EINVAL, "an unknown type flag: EINVAL");
	h2.type = 1;
	h2.f[0] ^= 0x5a;
	check_err(obh(mfd, &h2, O_RDONLY), ESTALE, "another generation: ESTALE");
	memset(h2.f, 0xee, sizeof(h2.f));
	h2.bytes = MAX_HANDLE;
	check_err(obh(mfd, &h2, O_RDONLY), ESTALE, "garbage: ESTALE");
	memcpy(&h2, &h, sizeof(h2));
	h2.bytes = 8;
	check_err(obh(mfd, &h2, O_RDONLY), ESTALE, "cut short: ESTALE");
	check_err(obh(-1, &h, O_RDONLY), EBADF, "a bad mount fd: EBADF");

	/* a file that is gone */
	fd = open(gone, O_CREAT | O_WRONLY, 0600);
	check(fd >= 0 && write(fd, "bye", 3) == 3, "another file");
	h2.bytes = MAX_HANDLE;
	check(n2h(AT_FDCWD, gone, &h2, &mid, 0) == 0, "its handle");
	check(unlink(gone) == 0, "unlinked");
	check(strcmp(read_back(mfd, &h2), "bye") == 0, "still open: the handle opens it");
	close(fd);
	check_err(obh(mfd, &h2, O_RDONLY), ESTALE, "closed too: ESTALE");

	/* without CAP_DAC_READ_SEARCH */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (setresuid(65534, 65534, 65534) < 0)
			_exit(2);
		errno = 0;
		if (obh(mfd, &h, O_RDONLY) != -1 || errno != EPERM)
			_exit(3);
		if (obh(mfd, &hd, O_RDONLY | O_DIRECTORY) != -1 || errno != EPERM)
			_exit(4);
		h2.bytes = MAX_HANDLE;
		if (n2h(AT_FDCWD, dir, &h2, &mid, 0) != 0)
			_exit(5);
		_exit(0);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "uid 65534: EPERM to open, name_to_handle_at works");

	/* not exportable */
	h2.bytes = MAX_HANDLE;
	check_err(n2h(AT_FDCWD, "/proc/self/status", &h2, &mid, 0), EOPNOTSUPP,
		  "procfs: EOPNOTSUPP");
	h2.bytes = MAX_HANDLE;
	check(n2h(AT_FDCWD, "/proc/self/status", &h2, &mid, H_FID) == 0 && h2.bytes == 12 &&
		      h2.type == 0x81,
	      "procfs with AT_HANDLE_FID: FILEID_INO64_GEN");
	{
		int p[2];

		check(pipe(p) == 0, "a pipe");
		h2.bytes = MAX_HANDLE;
		check_err(n2h(p[0], "", &h2, &mid, H_EMPTY_PATH), EOPNOTSUPP, "a pipe: EOPNOTSUPP");
		close(p[0]);
		close(p[1]);
	}
	close(mfd);
	umount(dir);
	rmdir(dir);
	return 0;
}
