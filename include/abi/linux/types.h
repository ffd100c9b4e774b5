/*
 * Basic x86-64 Linux guest types: time values, iovec, resource limits and
 * usage, utsname, sysinfo, tms, and the AT_* flags of the *at() calls.
 * Guest addresses are uint64_t, never C pointers.
 */
#ifndef ABI_LINUX_TYPES_H
#define ABI_LINUX_TYPES_H

#include <stddef.h>
#include <stdint.h>

/* struct __kernel_timespec; also the x86-64 struct timespec */
struct linux_timespec {
	int64_t tv_sec;
	int64_t tv_nsec;
};
_Static_assert(sizeof(struct linux_timespec) == 16, "linux_timespec size");
_Static_assert(offsetof(struct linux_timespec, tv_nsec) == 8, "linux_timespec tv_nsec");

/* struct __kernel_old_timeval; also the x86-64 struct timeval */
struct linux_timeval {
	int64_t tv_sec;
	int64_t tv_usec;
};
_Static_assert(sizeof(struct linux_timeval) == 16, "linux_timeval size");
_Static_assert(offsetof(struct linux_timeval, tv_usec) == 8, "linux_timeval tv_usec");

/* timer_settime(2), timerfd_settime(2) */
struct linux_itimerspec {
	struct linux_timespec it_interval;
	struct linux_timespec it_value;
};
_Static_assert(sizeof(struct linux_itimerspec) == 32, "linux_itimerspec size");
_Static_assert(offsetof(struct linux_itimerspec, it_value) == 16, "linux_itimerspec it_value");

/* setitimer(2), getitimer(2) */
struct linux_itimerval {
	struct linux_timeval it_interval;
	struct linux_timeval it_value;
};
_Static_assert(sizeof(struct linux_itimerval) == 32, "linux_itimerval size");
_Static_assert(offsetof(struct linux_itimerval, it_value) == 16, "linux_itimerval it_value");

struct linux_iovec {
	uint64_t iov_base; /* guest address */
	uint64_t iov_len;
};
_Static_assert(sizeof(struct linux_iovec) == 16, "linux_iovec size");
_Static_assert(offsetof(struct linux_iovec, iov_len) == 8, "linux_iovec iov_len");

#define LINUX_UIO_MAXIOV 1024

/* getrlimit/setrlimit; prlimit64's struct rlimit64 has the same layout */
struct linux_rlimit {
	uint64_t rlim_cur;
	uint64_t rlim_max;
};
_Static_assert(sizeof(struct linux_rlimit) == 16, "linux_rlimit size");
_Static_assert(offsetof(struct linux_rlimit, rlim_max) == 8, "linux_rlimit rlim_max");

#define LINUX_RLIM_INFINITY (~(uint64_t)0)

#define LINUX_RLIMIT_CPU	0
#define LINUX_RLIMIT_FSIZE	1
#define LINUX_RLIMIT_DATA	2
#define LINUX_RLIMIT_STACK	3
#define LINUX_RLIMIT_CORE	4
#define LINUX_RLIMIT_RSS	5
#define LINUX_RLIMIT_NPROC	6
#define LINUX_RLIMIT_NOFILE	7
#define LINUX_RLIMIT_MEMLOCK	8
#define LINUX_RLIMIT_AS		9
#define LINUX_RLIMIT_LOCKS	10
#define LINUX_RLIMIT_SIGPENDING 11
#define LINUX_RLIMIT_MSGQUEUE	12
#define LINUX_RLIMIT_NICE	13
#define LINUX_RLIMIT_RTPRIO	14
#define LINUX_RLIMIT_RTTIME	15
#define LINUX_RLIM_NLIMITS	16

/* getrusage(2) "who" */
#define LINUX_RUSAGE_SELF     0
#define LINUX_RUSAGE_CHILDREN (-1)
#define LINUX_RUSAGE_THREAD   1

/* getpriority(2)/setpriority(2) "which" */
#define LINUX_PRIO_PROCESS 0
#define LINUX_PRIO_PGRP	   1
#define LINUX_PRIO_USER	   2

struct linux_rusage {
	struct linux_timeval ru_utime;
	struct linux_timeval ru_stime;
	int64_t ru_maxrss;
	int64_t ru_ixrss;
	int64_t ru_idrss;
	int64_t ru_isrss;
	int64_t ru_minflt;
	int64_t ru_majflt;
	int64_t ru_nswap;
	int64_t ru_inblock;
	int64_t ru_oublock;
	int64_t ru_msgsnd;
	int64_t ru_msgrcv;
	int64_t ru_nsignals;
	int64_t ru_nvcsw;
	int64_t ru_nivcsw;
};
_Static_assert(sizeof(struct linux_rusage) == 144, "linux_rusage size");
_Static_assert(offsetof(struct linux_rusage, ru_stime) == 16, "linux_rusage ru_stime");
_Static_assert(offsetof(struct linux_rusage, ru_maxrss) == 32, "linux_rusage ru_maxrss");
_Static_assert(offsetof(struct linux_rusage, ru_nivcsw) == 136, "linux_rusage ru_nivcsw");

/* struct new_utsname, filled by uname(2) */
#define LINUX_UTS_LEN 64

struct linux_utsname {
	char sysname[LINUX_UTS_LEN + 1];
	char nodename[LINUX_UTS_LEN + 1];
	char release[LINUX_UTS_LEN + 1];
	char version[LINUX_UTS_LEN + 1];
	char machine[LINUX_UTS_LEN + 1];
	char domainname[LINUX_UTS_LEN + 1];
};
_Static_assert(sizeof(struct linux_utsname) == 390, "linux_utsname size");
_Static_assert(offsetof(struct linux_utsname, domainname) == 325, "linux_utsname domainname");

/* sysinfo(2) */
struct linux_sysinfo {
	int64_t uptime;
	uint64_t loads[3];
	uint64_t totalram;
	uint64_t freeram;
	uint64_t sharedram;
	uint64_t bufferram;
	uint64_t totalswap;
	uint64_t freeswap;
	uint16_t procs;
	uint16_t pad;
	uint32_t pad2; /* implicit in Linux's struct */
	uint64_t totalhigh;
	uint64_t freehigh;
	uint32_t mem_unit;
	uint32_t pad3; /* Linux's char _f[0] plus tail padding */
};
_Static_assert(sizeof(struct linux_sysinfo) == 112, "linux_sysinfo size");
_Static_assert(offsetof(struct linux_sysinfo, procs) == 80, "linux_sysinfo procs");
_Static_assert(offsetof(struct linux_sysinfo, totalhigh) == 88, "linux_sysinfo totalhigh");
_Static_assert(offsetof(struct linux_sysinfo, mem_unit) == 104, "linux_sysinfo mem_unit");

/* times(2); clock_t is long on x86-64 */
struct linux_tms {
	int64_t tms_utime;
	int64_t tms_stime;
	int64_t tms_cutime;
	int64_t tms_cstime;
};
_Static_assert(sizeof(struct linux_tms) == 32, "linux_tms size");
_Static_assert(offsetof(struct linux_tms, tms_cstime) == 24, "linux_tms tms_cstime");

/* dirfd and flags of the *at() system calls (linux/fcntl.h) */
#define LINUX_AT_FDCWD		    (-100)
#define LINUX_AT_SYMLINK_NOFOLLOW   0x100
#define LINUX_AT_EACCESS	    0x200 /* faccessat only */
#define LINUX_AT_REMOVEDIR	    0x200 /* unlinkat only */
#define LINUX_AT_SYMLINK_FOLLOW	    0x400
#define LINUX_AT_NO_AUTOMOUNT	    0x800
#define LINUX_AT_EMPTY_PATH	    0x1000
#define LINUX_AT_STATX_SYNC_TYPE    0x6000
#define LINUX_AT_STATX_SYNC_AS_STAT 0x0000
#define LINUX_AT_STATX_FORCE_SYNC   0x2000
#define LINUX_AT_STATX_DONT_SYNC    0x4000
#define LINUX_AT_RECURSIVE	    0x8000
/* name_to_handle_at's own (they share values with the above) */
#define LINUX_AT_HANDLE_MNT_ID_UNIQUE 0x001
#define LINUX_AT_HANDLE_CONNECTABLE   0x002
#define LINUX_AT_HANDLE_FID	      0x200

/* name_to_handle_at(2), open_by_handle_at(2): struct file_handle's fixed
 * part, then handle_bytes of f_handle */
struct linux_file_handle {
	uint32_t handle_bytes;
	int32_t handle_type;
};
_Static_assert(sizeof(struct linux_file_handle) == 8, "linux_file_handle size");
#define LINUX_MAX_HANDLE_SZ 128
/* handle_type's bits of the VFS's own (FILEID_USER_FLAGS_MASK): an
 * AT_HANDLE_CONNECTABLE handle, of a directory */
#define LINUX_FILEID_USER_FLAGS_MASK 0xffff0000U
#define LINUX_FILEID_IS_CONNECTABLE  0x10000
#define LINUX_FILEID_IS_DIR	     0x20000

/* adjtimex(2), clock_adjtime(2): struct __kernel_timex, 208 bytes */
struct linux_timex {
	uint32_t modes;
	uint32_t pad0;
	int64_t offset, freq, maxerror, esterror;
	int32_t status;
	uint32_t pad1;
	int64_t constant, precision, tolerance;
	struct linux_timeval time;
	int64_t tick, ppsfreq, jitter;
	int32_t shift;
	uint32_t pad2;
	int64_t stabil, jitcnt, calcnt, errcnt, stbcnt;
	int32_t tai;
	int32_t reserved[11];
};
_Static_assert(sizeof(struct linux_timex) == 208, "linux_timex size");
_Static_assert(offsetof(struct linux_timex, status) == 40, "linux_timex status");
_Static_assert(offsetof(struct linux_timex, time) == 72, "linux_timex time");
_Static_assert(offsetof(struct linux_timex, shift) == 112, "linux_timex shift");
_Static_assert(offsetof(struct linux_timex, tai) == 160, "linux_timex tai");

#define LINUX_ADJ_OFFSET_SINGLESHOT 0x0001
#define LINUX_ADJ_OFFSET_READONLY   0x2000
#define LINUX_ADJ_ADJTIME	    0x8000
#define LINUX_ADJ_OFFSET_SS_READ    0xa001

#endif /* ABI_LINUX_TYPES_H */
