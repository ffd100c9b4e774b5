/* tests/guest/statx.h: the kernel's struct statx and the statx call for
 * the guest tests (musl 1.2.3 has neither), with the mask bits they use.
 * xstatx fills the struct with 0xa5 first: what the kernel leaves shows. */
#ifndef TESTS_GUEST_STATX_H
#define TESTS_GUEST_STATX_H

#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

struct xstatx_ts {
	int64_t tv_sec;
	uint32_t tv_nsec;
	int32_t pad;
};
struct xstatx {
	uint32_t mask, blksize;
	uint64_t attributes;
	uint32_t nlink, uid, gid;
	uint16_t mode, pad0;
	uint64_t ino, size, blocks, attributes_mask;
	struct xstatx_ts atime, btime, ctime, mtime;
	uint32_t rdev_major, rdev_minor, dev_major, dev_minor;
	uint64_t mnt_id;
	uint64_t spare[13];
};
#define XSTATX_TYPE	0x1U
#define XSTATX_MODE	0x2U
#define XSTATX_NLINK	0x4U
#define XSTATX_INO	0x100U
#define XSTATX_SIZE	0x200U
#define XSTATX_BASIC	0x7ffU
#define XSTATX_BTIME	0x800U
#define XSTATX_MNT_ID	0x1000U
#define XSTATX_RESERVED 0x80000000U

static inline long xstatx(int dfd, const char *path, int flags, unsigned mask, struct xstatx *st)
{
	memset(st, 0xa5, sizeof(*st));
	return syscall(SYS_statx, dfd, path, flags, mask, st);
}

#endif
