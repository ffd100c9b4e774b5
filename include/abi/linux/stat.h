/*
 * File status as the x86-64 guest sees it: struct stat (asm/stat.h),
 * struct statx, mode bits, and the linux_dirent64 records of getdents64.
 */
#ifndef ABI_LINUX_STAT_H
#define ABI_LINUX_STAT_H

#include <stddef.h>
#include <stdint.h>

/*
 * x86-64 struct stat, 144 bytes. Differs from asm/stat.h in names only:
 * st_atime etc. are macros in glibc's <sys/stat.h>, so ours end in _sec.
 */
struct linux_stat {
	uint64_t st_dev;
	uint64_t st_ino;
	uint64_t st_nlink;
	uint32_t st_mode;
	uint32_t st_uid;
	uint32_t st_gid;
	uint32_t pad0;
	uint64_t st_rdev;
	int64_t st_size;
	int64_t st_blksize;
	int64_t st_blocks; /* 512-byte units */
	uint64_t st_atime_sec;
	uint64_t st_atime_nsec;
	uint64_t st_mtime_sec;
	uint64_t st_mtime_nsec;
	uint64_t st_ctime_sec;
	uint64_t st_ctime_nsec;
	int64_t reserved[3];
};
_Static_assert(sizeof(struct linux_stat) == 144, "linux_stat size");
_Static_assert(offsetof(struct linux_stat, st_nlink) == 16, "linux_stat st_nlink");
_Static_assert(offsetof(struct linux_stat, st_mode) == 24, "linux_stat st_mode");
_Static_assert(offsetof(struct linux_stat, st_rdev) == 40, "linux_stat st_rdev");
_Static_assert(offsetof(struct linux_stat, st_size) == 48, "linux_stat st_size");
_Static_assert(offsetof(struct linux_stat, st_atime_sec) == 72, "linux_stat st_atime_sec");
_Static_assert(offsetof(struct linux_stat, st_ctime_nsec) == 112, "linux_stat st_ctime_nsec");

struct linux_statx_timestamp {
	int64_t tv_sec;
	uint32_t tv_nsec;
	int32_t reserved;
};
_Static_assert(sizeof(struct linux_statx_timestamp) == 16, "linux_statx_timestamp size");

/* statx(2), 256 bytes; the spare tail must be zeroed */
struct linux_statx {
	uint32_t stx_mask;
	uint32_t stx_blksize;
	uint64_t stx_attributes;
	uint32_t stx_nlink;
	uint32_t stx_uid;
	uint32_t stx_gid;
	uint16_t stx_mode;
	uint16_t spare0;
	uint64_t stx_ino;
	uint64_t stx_size;
	uint64_t stx_blocks;
	uint64_t stx_attributes_mask;
	struct linux_statx_timestamp stx_atime;
	struct linux_statx_timestamp stx_btime;
	struct linux_statx_timestamp stx_ctime;
	struct linux_statx_timestamp stx_mtime;
	uint32_t stx_rdev_major;
	uint32_t stx_rdev_minor;
	uint32_t stx_dev_major;
	uint32_t stx_dev_minor;
	uint64_t stx_mnt_id;
	uint32_t stx_dio_mem_align;
	uint32_t stx_dio_offset_align;
	uint64_t spare3[12];
};
_Static_assert(sizeof(struct linux_statx) == 256, "linux_statx size");
_Static_assert(offsetof(struct linux_statx, stx_nlink) == 0x10, "linux_statx stx_nlink");
_Static_assert(offsetof(struct linux_statx, stx_mode) == 0x1c, "linux_statx stx_mode");
_Static_assert(offsetof(struct linux_statx, stx_ino) == 0x20, "linux_statx stx_ino");
_Static_assert(offsetof(struct linux_statx, stx_atime) == 0x40, "linux_statx stx_atime");
_Static_assert(offsetof(struct linux_statx, stx_mtime) == 0x70, "linux_statx stx_mtime");
_Static_assert(offsetof(struct linux_statx, stx_rdev_major) == 0x80, "linux_statx stx_rdev_major");
_Static_assert(offsetof(struct linux_statx, stx_mnt_id) == 0x90, "linux_statx stx_mnt_id");
_Static_assert(offsetof(struct linux_statx, spare3) == 0xa0, "linux_statx spare3");

/* stx_mask bits */
#define LINUX_STATX_TYPE	  0x00000001U
#define LINUX_STATX_MODE	  0x00000002U
#define LINUX_STATX_NLINK	  0x00000004U
#define LINUX_STATX_UID		  0x00000008U
#define LINUX_STATX_GID		  0x00000010U
#define LINUX_STATX_ATIME	  0x00000020U
#define LINUX_STATX_MTIME	  0x00000040U
#define LINUX_STATX_CTIME	  0x00000080U
#define LINUX_STATX_INO		  0x00000100U
#define LINUX_STATX_SIZE	  0x00000200U
#define LINUX_STATX_BLOCKS	  0x00000400U
#define LINUX_STATX_BASIC_STATS	  0x000007ffU
#define LINUX_STATX_BTIME	  0x00000800U
#define LINUX_STATX_MNT_ID	  0x00001000U
#define LINUX_STATX_DIOALIGN	  0x00002000U
#define LINUX_STATX_MNT_ID_UNIQUE 0x00004000U
#define LINUX_STATX_RESERVED	  0x80000000U /* STATX__RESERVED: must be rejected */
#define LINUX_STATX_ALL		  0x00000fffU /* deprecated */

/* stx_attributes bits */
#define LINUX_STATX_ATTR_COMPRESSED 0x00000004
#define LINUX_STATX_ATTR_IMMUTABLE  0x00000010
#define LINUX_STATX_ATTR_APPEND	    0x00000020
#define LINUX_STATX_ATTR_NODUMP	    0x00000040
#define LINUX_STATX_ATTR_ENCRYPTED  0x00000800
#define LINUX_STATX_ATTR_AUTOMOUNT  0x00001000
#define LINUX_STATX_ATTR_MOUNT_ROOT 0x00002000
#define LINUX_STATX_ATTR_VERITY	    0x00100000
#define LINUX_STATX_ATTR_DAX	    0x00200000

/* st_mode */
#define LINUX_S_IFMT   0170000
#define LINUX_S_IFSOCK 0140000
#define LINUX_S_IFLNK  0120000
#define LINUX_S_IFREG  0100000
#define LINUX_S_IFBLK  0060000
#define LINUX_S_IFDIR  0040000
#define LINUX_S_IFCHR  0020000
#define LINUX_S_IFIFO  0010000
#define LINUX_S_ISUID  0004000
#define LINUX_S_ISGID  0002000
#define LINUX_S_ISVTX  0001000

#define LINUX_S_ISLNK(m)  (((m)&LINUX_S_IFMT) == LINUX_S_IFLNK)
#define LINUX_S_ISREG(m)  (((m)&LINUX_S_IFMT) == LINUX_S_IFREG)
#define LINUX_S_ISDIR(m)  (((m)&LINUX_S_IFMT) == LINUX_S_IFDIR)
#define LINUX_S_ISCHR(m)  (((m)&LINUX_S_IFMT) == LINUX_S_IFCHR)
#define LINUX_S_ISBLK(m)  (((m)&LINUX_S_IFMT) == LINUX_S_IFBLK)
#define LINUX_S_ISFIFO(m) (((m)&LINUX_S_IFMT) == LINUX_S_IFIFO)
#define LINUX_S_ISSOCK(m) (((m)&LINUX_S_IFMT) == LINUX_S_IFSOCK)

#define LINUX_S_IRWXU 00700
#define LINUX_S_IRUSR 00400
#define LINUX_S_IWUSR 00200
#define LINUX_S_IXUSR 00100
#define LINUX_S_IRWXG 00070
#define LINUX_S_IRGRP 00040
#define LINUX_S_IWGRP 00020
#define LINUX_S_IXGRP 00010
#define LINUX_S_IRWXO 00007
#define LINUX_S_IROTH 00004
#define LINUX_S_IWOTH 00002
#define LINUX_S_IXOTH 00001

/*
 * getdents64(2) record header; the NUL-terminated name follows and the
 * record is padded to a multiple of 8 bytes.
 */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	uint16_t d_reclen;
	uint8_t d_type;
	char d_name[];
};
_Static_assert(offsetof(struct linux_dirent64, d_off) == 8, "linux_dirent64 d_off");
_Static_assert(offsetof(struct linux_dirent64, d_reclen) == 16, "linux_dirent64 d_reclen");
_Static_assert(offsetof(struct linux_dirent64, d_type) == 18, "linux_dirent64 d_type");
_Static_assert(offsetof(struct linux_dirent64, d_name) == 19, "linux_dirent64 d_name");

/* record length for a name of namelen bytes (without its NUL) */
#define LINUX_DIRENT64_RECLEN(namelen) \
	((offsetof(struct linux_dirent64, d_name) + (namelen) + 1 + 7) & ~(size_t)7)

#define LINUX_DT_UNKNOWN 0
#define LINUX_DT_FIFO	 1
#define LINUX_DT_CHR	 2
#define LINUX_DT_DIR	 4
#define LINUX_DT_BLK	 6
#define LINUX_DT_REG	 8
#define LINUX_DT_LNK	 10
#define LINUX_DT_SOCK	 12
#define LINUX_DT_WHT	 14

/* d_type from an st_mode */
#define LINUX_IFTODT(mode) (((mode)&LINUX_S_IFMT) >> 12)

/* statfs(2), x86-64 */
struct linux_statfs {
	int64_t f_type;
	int64_t f_bsize;
	uint64_t f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	int32_t f_fsid[2];
	int64_t f_namelen;
	int64_t f_frsize;
	int64_t f_flags;
	int64_t f_spare[4];
};
_Static_assert(sizeof(struct linux_statfs) == 120, "linux_statfs size");
_Static_assert(offsetof(struct linux_statfs, f_namelen) == 64, "linux_statfs f_namelen");

#define LINUX_ST_RDONLY		    0x0001
#define LINUX_ST_NOSUID		    0x0002
#define LINUX_ST_NODEV		    0x0004
#define LINUX_ST_NOEXEC		    0x0008
#define LINUX_ST_SYNCHRONOUS	    0x0010
#define LINUX_ST_MANDLOCK	    0x0040
#define LINUX_ST_VALID		    0x0020 /* f_flags is filled in */
#define LINUX_ST_NOATIME	    0x0400
#define LINUX_ST_NODIRATIME	    0x0800
#define LINUX_ST_RELATIME	    0x1000
#define LINUX_ST_NOSYMFOLLOW	    0x2000
#define LINUX_TMPFS_MAGIC	    0x01021994
#define LINUX_PROC_SUPER_MAGIC	    0x9fa0
#define LINUX_OVERLAYFS_SUPER_MAGIC 0x794c7630

#endif /* ABI_LINUX_STAT_H */
