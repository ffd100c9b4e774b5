/* FICLONE and FICLONERANGE on tmpfs: Linux's checks (a bad source fd
 * EBADF, another mount EXDEV, a directory EISDIR, not a regular file
 * EINVAL, the source not readable or the target not writable or O_APPEND
 * EBADF), then EOPNOTSUPP: tmpfs shares no extents. skas said ENOTTY
 * (cp --reflink=always named the wrong reason). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#define TAP_ENAME
#include "tap.h"

#define FICLONE_      _IOW(0x94, 9, int)
#define FICLONERANGE_ _IOW(0x94, 13, struct range)

struct range {
	int64_t src_fd;
	uint64_t src_offset, src_length, dest_offset;
};

int main(void)
{
	char a[64], b[64], d[64];
	int src, dst, ro, wo, ap, dir, p[2];
	struct range r = { 0 };

	snprintf(a, sizeof(a), "/dev/shm/skas-ficlone-%d-a", (int)getpid());
	snprintf(b, sizeof(b), "/dev/shm/skas-ficlone-%d-b", (int)getpid());
	snprintf(d, sizeof(d), "/dev/shm/skas-ficlone-%d-d", (int)getpid());
	src = open(a, O_CREAT | O_RDWR, 0644);
	dst = open(b, O_CREAT | O_RDWR, 0644);
	check(src >= 0 && dst >= 0 && write(src, "data", 4) == 4, "two files on /dev/shm");
	check_err(ioctl(dst, FICLONE_, src), EOPNOTSUPP, "FICLONE: EOPNOTSUPP");
	r.src_fd = src;
	r.src_length = 4;
	check_err(ioctl(dst, FICLONERANGE_, &r), EOPNOTSUPP, "FICLONERANGE: EOPNOTSUPP");
	check_err(ioctl(dst, FICLONERANGE_, NULL), EFAULT, "FICLONERANGE from NULL: EFAULT");
	check_err(ioctl(dst, FICLONE_, 999), EBADF, "a bad source fd: EBADF");
	wo = open(a, O_WRONLY);
	check_err(ioctl(dst, FICLONE_, wo), EBADF, "a source not open for reading: EBADF");
	ro = open(b, O_RDONLY);
	check_err(ioctl(ro, FICLONE_, src), EBADF, "a target not open for writing: EBADF");
	ap = open(b, O_WRONLY | O_APPEND);
	check_err(ioctl(ap, FICLONE_, src), EBADF, "an O_APPEND target: EBADF");
	mkdir(d, 0755);
	dir = open(d, O_RDONLY | O_DIRECTORY);
	check_err(ioctl(dst, FICLONE_, dir), EISDIR, "a directory: EISDIR");
	check(pipe(p) == 0, "a pipe");
	check_err(ioctl(dst, FICLONE_, p[0]), EXDEV, "a pipe (another mount): EXDEV");
	{
		int fd = open("/proc/self/status", O_RDONLY);

		check_err(ioctl(dst, FICLONE_, fd), EXDEV, "a /proc file: EXDEV");
		close(fd);
	}
	close(src);
	close(dst);
	close(wo);
	close(ro);
	close(ap);
	close(dir);
	unlink(a);
	unlink(b);
	rmdir(d);
	return 0;
}
