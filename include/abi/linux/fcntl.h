/*
 * open(2) flags, fcntl(2) commands and their structs, openat2's open_how,
 * lseek whence values and access(2) modes, as on x86-64 Linux.
 */
#ifndef ABI_LINUX_FCNTL_H
#define ABI_LINUX_FCNTL_H

#include <stddef.h>
#include <stdint.h>

/* open flags (octal, like asm-generic/fcntl.h) */
#define LINUX_O_ACCMODE	  00000003
#define LINUX_O_RDONLY	  00000000
#define LINUX_O_WRONLY	  00000001
#define LINUX_O_RDWR	  00000002
#define LINUX_O_CREAT	  00000100
#define LINUX_O_EXCL	  00000200
#define LINUX_O_NOCTTY	  00000400
#define LINUX_O_TRUNC	  00001000
#define LINUX_O_APPEND	  00002000
#define LINUX_O_NONBLOCK  00004000
#define LINUX_O_NDELAY	  LINUX_O_NONBLOCK
#define LINUX_O_DSYNC	  00010000
#define LINUX_O_ASYNC	  00020000 /* FASYNC */
#define LINUX_O_DIRECT	  00040000
#define LINUX_O_LARGEFILE 00100000
#define LINUX_O_DIRECTORY 00200000
#define LINUX_O_NOFOLLOW  00400000
#define LINUX_O_NOATIME	  01000000
#define LINUX_O_CLOEXEC	  02000000
#define LINUX_O_SYNC	  04010000 /* __O_SYNC | O_DSYNC */
#define LINUX_O_PATH	  010000000
#define LINUX_O_TMPFILE	  020200000 /* __O_TMPFILE | O_DIRECTORY */

/* fcntl commands */
#define LINUX_F_DUPFD		    0
#define LINUX_F_GETFD		    1
#define LINUX_F_SETFD		    2
#define LINUX_F_GETFL		    3
#define LINUX_F_SETFL		    4
#define LINUX_F_GETLK		    5
#define LINUX_F_SETLK		    6
#define LINUX_F_SETLKW		    7
#define LINUX_F_SETOWN		    8
#define LINUX_F_GETOWN		    9
#define LINUX_F_SETSIG		    10
#define LINUX_F_GETSIG		    11
#define LINUX_F_SETOWN_EX	    15
#define LINUX_F_GETOWN_EX	    16
#define LINUX_F_GETOWNER_UIDS	    17
#define LINUX_F_OFD_GETLK	    36
#define LINUX_F_OFD_SETLK	    37
#define LINUX_F_OFD_SETLKW	    38
#define LINUX_F_LINUX_SPECIFIC_BASE 1024
#define LINUX_F_SETLEASE	    1024
#define LINUX_F_GETLEASE	    1025
#define LINUX_F_NOTIFY		    1026
#define LINUX_F_DUPFD_QUERY	    1027
#define LINUX_F_CANCELLK	    1029
#define LINUX_F_DUPFD_CLOEXEC	    1030
#define LINUX_F_SETPIPE_SZ	    1031
#define LINUX_F_GETPIPE_SZ	    1032
#define LINUX_F_ADD_SEALS	    1033
#define LINUX_F_GET_SEALS	    1034
#define LINUX_F_GET_RW_HINT	    1035
#define LINUX_F_SET_RW_HINT	    1036
#define LINUX_F_GET_FILE_RW_HINT    1037
#define LINUX_F_SET_FILE_RW_HINT    1038

/* F_GETFD/F_SETFD */
#define LINUX_FD_CLOEXEC 1

/* F_ADD_SEALS/F_GET_SEALS */
/* preadv2/pwritev2's flags (include/uapi/linux/fs.h) */
#define LINUX_RWF_HIPRI	    0x01
#define LINUX_RWF_DSYNC	    0x02
#define LINUX_RWF_SYNC	    0x04
#define LINUX_RWF_NOWAIT    0x08
#define LINUX_RWF_APPEND    0x10
#define LINUX_RWF_NOAPPEND  0x20  /* Linux 6.9 */
#define LINUX_RWF_ATOMIC    0x40  /* Linux 6.11 */
#define LINUX_RWF_DONTCACHE 0x80  /* Linux 6.14 */
#define LINUX_RWF_NOSIGNAL  0x100 /* Linux 6.18 */
#define LINUX_RWF_SUPPORTED 0x1ff

#define LINUX_F_SEAL_SEAL	  0x0001
#define LINUX_F_SEAL_SHRINK	  0x0002
#define LINUX_F_SEAL_GROW	  0x0004
#define LINUX_F_SEAL_WRITE	  0x0008
#define LINUX_F_SEAL_FUTURE_WRITE 0x0010
#define LINUX_F_SEAL_EXEC	  0x0020 /* Linux 6.3 */

/* struct flock l_type */
#define LINUX_F_RDLCK 0
#define LINUX_F_WRLCK 1
#define LINUX_F_UNLCK 2

/* struct f_owner_ex type */
#define LINUX_F_OWNER_TID  0
#define LINUX_F_OWNER_PID  1
#define LINUX_F_OWNER_PGRP 2

/* flock(2) */
#define LINUX_LOCK_SH 1
#define LINUX_LOCK_EX 2
#define LINUX_LOCK_NB 4
#define LINUX_LOCK_UN 8

/* F_GETLK/F_SETLK/F_SETLKW and the F_OFD_* variants */
struct linux_flock {
	int16_t l_type;
	int16_t l_whence;
	uint32_t pad0;
	int64_t l_start;
	int64_t l_len;
	int32_t l_pid;
	uint32_t pad1;
};
_Static_assert(sizeof(struct linux_flock) == 32, "linux_flock size");
_Static_assert(offsetof(struct linux_flock, l_whence) == 2, "linux_flock l_whence");
_Static_assert(offsetof(struct linux_flock, l_start) == 8, "linux_flock l_start");
_Static_assert(offsetof(struct linux_flock, l_len) == 16, "linux_flock l_len");
_Static_assert(offsetof(struct linux_flock, l_pid) == 24, "linux_flock l_pid");

/* F_SETOWN_EX/F_GETOWN_EX */
struct linux_f_owner_ex {
	int32_t type;
	int32_t pid;
};
_Static_assert(sizeof(struct linux_f_owner_ex) == 8, "linux_f_owner_ex size");

/* openat2(2) */
struct linux_open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};
_Static_assert(sizeof(struct linux_open_how) == 24, "linux_open_how size");
_Static_assert(offsetof(struct linux_open_how, mode) == 8, "linux_open_how mode");
_Static_assert(offsetof(struct linux_open_how, resolve) == 16, "linux_open_how resolve");

#define LINUX_RESOLVE_NO_XDEV	    0x01
#define LINUX_RESOLVE_NO_MAGICLINKS 0x02
#define LINUX_RESOLVE_NO_SYMLINKS   0x04
#define LINUX_RESOLVE_BENEATH	    0x08
#define LINUX_RESOLVE_IN_ROOT	    0x10
#define LINUX_RESOLVE_CACHED	    0x20

/* lseek(2) whence */
#define LINUX_SEEK_SET	0
#define LINUX_SEEK_CUR	1
#define LINUX_SEEK_END	2
#define LINUX_SEEK_DATA 3
#define LINUX_SEEK_HOLE 4

/* splice(2), tee(2), vmsplice(2) flags */
#define LINUX_SPLICE_F_MOVE	0x01
#define LINUX_SPLICE_F_NONBLOCK 0x02
#define LINUX_SPLICE_F_MORE	0x04
#define LINUX_SPLICE_F_GIFT	0x08
#define LINUX_SPLICE_F_ALL	0x0f

/* posix_fadvise(2) advice (x86-64: DONTNEED 4, NOREUSE 5) */
/* close_range flags */
#define LINUX_CLOSE_RANGE_UNSHARE 0x2
#define LINUX_CLOSE_RANGE_CLOEXEC 0x4

/* fallocate modes */
#define LINUX_FALLOC_FL_KEEP_SIZE      0x01
#define LINUX_FALLOC_FL_PUNCH_HOLE     0x02
#define LINUX_FALLOC_FL_NO_HIDE_STALE  0x04
#define LINUX_FALLOC_FL_COLLAPSE_RANGE 0x08
#define LINUX_FALLOC_FL_ZERO_RANGE     0x10
#define LINUX_FALLOC_FL_INSERT_RANGE   0x20
#define LINUX_FALLOC_FL_UNSHARE_RANGE  0x40
#define LINUX_FALLOC_FL_WRITE_ZEROES   0x80

#define LINUX_POSIX_FADV_NORMAL	    0
#define LINUX_POSIX_FADV_RANDOM	    1
#define LINUX_POSIX_FADV_SEQUENTIAL 2
#define LINUX_POSIX_FADV_WILLNEED   3
#define LINUX_POSIX_FADV_DONTNEED   4
#define LINUX_POSIX_FADV_NOREUSE    5

/* access(2)/faccessat(2) mode */
#define LINUX_F_OK 0
#define LINUX_X_OK 1
#define LINUX_W_OK 2
#define LINUX_R_OK 4

#endif /* ABI_LINUX_FCNTL_H */
