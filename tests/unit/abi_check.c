/*
 * Host-side check of include/abi/linux against the host's uapi and libc
 * headers: sizes, offsets, signedness and constant values. Mismatches stop
 * the build through _Static_assert; with -DABI_CHECK_RUNTIME_ONLY they show
 * as "not ok" TAP lines instead. Exits 1 on any failure.
 */

/*
 * Our errno.h comes first, before anything of the host's, and its values
 * are frozen into ours_E* enumerators: once a host header has (silently, as
 * a system header) redefined a name, the macro holds the host's value.
 */
#include "abi/linux/errno.h"

enum {
#define ERRNO(name) ours_##name = name,
#include "abi/linux/errno_names.h"
	ours_EWOULDBLOCK = EWOULDBLOCK,
	ours_EDEADLOCK = EDEADLOCK,
	ours_ENOTSUP = ENOTSUP,
};

/*
 * linux/stat.h hides S_IF* and S_I* once glibc's features.h has defined
 * __GLIBC__, so it must come before any header that pulls that in.
 */
#include <linux/stat.h>

#include "abi/linux/aio.h"
#include "abi/linux/auxv.h"
#include "abi/linux/elf.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/ioctl.h"
#include "abi/linux/ipc.h"
#include "abi/linux/misc.h"
#include "abi/linux/seccomp.h"
#include "abi/linux/mman.h"
#include "abi/linux/netlink.h"
#include "abi/linux/signal.h"
#include "abi/linux/socket.h"
#include "abi/linux/sock_diag.h"
#include "abi/linux/stat.h"
#include "abi/linux/types.h"

#include <asm-generic/errno.h>
#include <errno.h>

#include <asm/prctl.h>
#include <asm/siginfo.h>
#include <asm/signal.h>
#include <asm/stat.h>
#include <asm/termios.h>
#include <dirent.h>
#include <elf.h>
#include <linux/aio_abi.h>
#include <linux/auxvec.h>
#include <linux/fadvise.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/memfd.h>
#include <linux/mempolicy.h>
#include <linux/futex.h>
#include <linux/mman.h>
#include <linux/mqueue.h>
#include <linux/msg.h>
#include <linux/openat2.h>
#include <linux/personality.h>
#include <linux/prctl.h>
#include <linux/random.h>
#include <linux/resource.h>
#include <linux/sched.h>
#include <linux/sem.h>
#include <linux/shm.h>
#include <linux/signal.h>
#include <linux/socket.h>
#include <linux/un.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <asm/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/inet_diag.h>
#include <linux/unix_diag.h>
#include <linux/sockios.h>
#include <linux/sysinfo.h>
#include <linux/time.h>
#include <linux/seccomp.h>
#include <linux/time_types.h>
#include <linux/times.h>
#include <linux/uio.h>
#include <linux/utsname.h>
#include <linux/wait.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int n_pass, n_fail;

static void check(int ok, const char *what)
{
	if (ok)
		n_pass++;
	else
		n_fail++;
	printf("%s %d - %s\n", ok ? "ok" : "not ok", n_pass + n_fail, what);
}

#ifdef ABI_CHECK_RUNTIME_ONLY
#define STATIC_EQ(a, b, what)
#else
#define STATIC_EQ(a, b, what) \
	_Static_assert((unsigned long long)(a) == (unsigned long long)(b), what)
#endif

/* a == b, at compile time and again at run time */
#define EQ_MSG(ours, host, what)                                                       \
	do {                                                                           \
		STATIC_EQ(ours, host, what);                                           \
		check((unsigned long long)(ours) == (unsigned long long)(host), what); \
	} while (0)
#define EQ(ours, host) EQ_MSG(ours, host, #ours " == " #host)

/* LINUX_name == name */
#define C(name) EQ_MSG(LINUX_##name, name, "LINUX_" #name)

#define SIZE(otype, htype) EQ_MSG(sizeof(otype), sizeof(htype), "sizeof " #otype " == " #htype)

#define MEMBER(type, m) (((type *)0)->m)
#define IS_SIGNED(expr) ((__typeof__(expr))-1 < (__typeof__(expr))1)

/* same offset and size */
#define FIELD(otype, om, htype, hm)                                                         \
	do {                                                                                \
		EQ_MSG(offsetof(otype, om), offsetof(htype, hm), "offset " #otype "." #om); \
		EQ_MSG(sizeof(MEMBER(otype, om)), sizeof(MEMBER(htype, hm)),                \
		       "size " #otype "." #om);                                             \
	} while (0)

/* same offset, size and signedness (integer members only) */
#define SFIELD(otype, om, htype, hm)                                               \
	do {                                                                       \
		FIELD(otype, om, htype, hm);                                       \
		EQ_MSG(IS_SIGNED(MEMBER(otype, om)), IS_SIGNED(MEMBER(htype, hm)), \
		       "signedness " #otype "." #om);                              \
	} while (0)

/* our value of each errno name next to the host's */
static const struct {
	const char *name;
	int ours, host;
} errno_table[] = {
#define ERRNO(name) { #name, ours_##name, name },
#include "abi/linux/errno_names.h"
};

#ifndef ABI_CHECK_RUNTIME_ONLY
#define ERRNO(name) _Static_assert(ours_##name == name, #name);
#include "abi/linux/errno_names.h"
#endif

static void check_errno(void)
{
	size_t n = sizeof(errno_table) / sizeof(errno_table[0]);
	int expect = 1, in_order = 1;
	char what[64];
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "%s = %d", errno_table[i].name, errno_table[i].ours);
		check(errno_table[i].ours == errno_table[i].host, what);
		if (expect == 41 || expect == 58)
			expect++;
		if (errno_table[i].ours != expect++)
			in_order = 0;
	}
	check(n == 131, "errno_names.h has 131 entries");
	check(in_order, "errno_names.h lists 1..133 in order, without 41 and 58");
	EQ(ours_EWOULDBLOCK, EWOULDBLOCK);
	EQ(ours_EDEADLOCK, EDEADLOCK);
	EQ(ours_ENOTSUP, ENOTSUP);
	/* kernel-internal: include/linux/errno.h, not in uapi */
	EQ(ERESTARTSYS, 512);
	EQ(ERESTARTNOINTR, 513);
	EQ(ERESTARTNOHAND, 514);
	EQ(ENOIOCTLCMD, 515);
	EQ(ERESTART_RESTARTBLOCK, 516);
}

static void check_types(void)
{
	SIZE(struct linux_timespec, struct __kernel_timespec);
	SFIELD(struct linux_timespec, tv_sec, struct __kernel_timespec, tv_sec);
	SFIELD(struct linux_timespec, tv_nsec, struct __kernel_timespec, tv_nsec);
	SIZE(struct linux_timespec, struct timespec);
	SFIELD(struct linux_timespec, tv_nsec, struct timespec, tv_nsec);
	SIZE(struct linux_timeval, struct __kernel_old_timeval);
	SFIELD(struct linux_timeval, tv_sec, struct __kernel_old_timeval, tv_sec);
	SFIELD(struct linux_timeval, tv_usec, struct __kernel_old_timeval, tv_usec);
	SIZE(struct linux_itimerspec, struct itimerspec);
	FIELD(struct linux_itimerspec, it_value, struct itimerspec, it_value);
	SIZE(struct linux_itimerval, struct itimerval);
	FIELD(struct linux_itimerval, it_value, struct itimerval, it_value);

	SIZE(struct linux_iovec, struct iovec);
	FIELD(struct linux_iovec, iov_base, struct iovec, iov_base);
	SFIELD(struct linux_iovec, iov_len, struct iovec, iov_len);
	C(UIO_MAXIOV);

	SIZE(struct linux_rlimit, struct rlimit);
	SFIELD(struct linux_rlimit, rlim_cur, struct rlimit, rlim_cur);
	SFIELD(struct linux_rlimit, rlim_max, struct rlimit, rlim_max);
	SIZE(struct linux_rlimit, struct rlimit64);
	C(RLIM_INFINITY);
	EQ(LINUX_RLIM_INFINITY, RLIM64_INFINITY);
	C(RLIMIT_CPU);
	C(RLIMIT_FSIZE);
	C(RLIMIT_DATA);
	C(RLIMIT_STACK);
	C(RLIMIT_CORE);
	C(RLIMIT_RSS);
	C(RLIMIT_NPROC);
	C(RLIMIT_NOFILE);
	C(RLIMIT_MEMLOCK);
	C(RLIMIT_AS);
	C(RLIMIT_LOCKS);
	C(RLIMIT_SIGPENDING);
	C(RLIMIT_MSGQUEUE);
	C(RLIMIT_NICE);
	C(RLIMIT_RTPRIO);
	C(RLIMIT_RTTIME);
	C(RLIM_NLIMITS);
	C(RUSAGE_SELF);
	C(RUSAGE_CHILDREN);
	C(RUSAGE_THREAD);
	C(PRIO_PROCESS);
	C(PRIO_PGRP);
	C(PRIO_USER);

	SIZE(struct linux_rusage, struct rusage);
	FIELD(struct linux_rusage, ru_stime, struct rusage, ru_stime);
	SFIELD(struct linux_rusage, ru_maxrss, struct rusage, ru_maxrss);
	SFIELD(struct linux_rusage, ru_minflt, struct rusage, ru_minflt);
	SFIELD(struct linux_rusage, ru_nsignals, struct rusage, ru_nsignals);
	SFIELD(struct linux_rusage, ru_nivcsw, struct rusage, ru_nivcsw);

	EQ(LINUX_UTS_LEN, __NEW_UTS_LEN);
	SIZE(struct linux_utsname, struct new_utsname);
	FIELD(struct linux_utsname, nodename, struct new_utsname, nodename);
	FIELD(struct linux_utsname, release, struct new_utsname, release);
	FIELD(struct linux_utsname, version, struct new_utsname, version);
	FIELD(struct linux_utsname, machine, struct new_utsname, machine);
	FIELD(struct linux_utsname, domainname, struct new_utsname, domainname);

	SIZE(struct linux_sysinfo, struct sysinfo);
	C(IOCB_CMD_PREAD);
	C(IOCB_CMD_PWRITE);
	C(IOCB_CMD_FSYNC);
	C(IOCB_CMD_FDSYNC);
	C(IOCB_CMD_POLL);
	C(IOCB_CMD_NOOP);
	C(IOCB_CMD_PREADV);
	C(IOCB_CMD_PWRITEV);
	C(IOCB_FLAG_RESFD);
	C(IOCB_FLAG_IOPRIO);
	SIZE(struct linux_iocb, struct iocb);
	SFIELD(struct linux_iocb, aio_data, struct iocb, aio_data);
	SFIELD(struct linux_iocb, aio_key, struct iocb, aio_key);
	SFIELD(struct linux_iocb, aio_rw_flags, struct iocb, aio_rw_flags);
	SFIELD(struct linux_iocb, aio_lio_opcode, struct iocb, aio_lio_opcode);
	SFIELD(struct linux_iocb, aio_reqprio, struct iocb, aio_reqprio);
	SFIELD(struct linux_iocb, aio_fildes, struct iocb, aio_fildes);
	SFIELD(struct linux_iocb, aio_buf, struct iocb, aio_buf);
	SFIELD(struct linux_iocb, aio_nbytes, struct iocb, aio_nbytes);
	SFIELD(struct linux_iocb, aio_offset, struct iocb, aio_offset);
	SFIELD(struct linux_iocb, aio_reserved2, struct iocb, aio_reserved2);
	SFIELD(struct linux_iocb, aio_flags, struct iocb, aio_flags);
	SFIELD(struct linux_iocb, aio_resfd, struct iocb, aio_resfd);
	SIZE(struct linux_io_event, struct io_event);
	SFIELD(struct linux_io_event, data, struct io_event, data);
	SFIELD(struct linux_io_event, obj, struct io_event, obj);
	SFIELD(struct linux_io_event, res, struct io_event, res);
	SFIELD(struct linux_io_event, res2, struct io_event, res2);
	SFIELD(struct linux_sysinfo, uptime, struct sysinfo, uptime);
	FIELD(struct linux_sysinfo, loads, struct sysinfo, loads);
	SFIELD(struct linux_sysinfo, totalram, struct sysinfo, totalram);
	SFIELD(struct linux_sysinfo, freeswap, struct sysinfo, freeswap);
	SFIELD(struct linux_sysinfo, procs, struct sysinfo, procs);
	SFIELD(struct linux_sysinfo, totalhigh, struct sysinfo, totalhigh);
	SFIELD(struct linux_sysinfo, freehigh, struct sysinfo, freehigh);
	SFIELD(struct linux_sysinfo, mem_unit, struct sysinfo, mem_unit);

	SIZE(struct linux_tms, struct tms);
	SFIELD(struct linux_tms, tms_utime, struct tms, tms_utime);
	SFIELD(struct linux_tms, tms_cstime, struct tms, tms_cstime);

	C(AT_FDCWD);
	C(AT_SYMLINK_NOFOLLOW);
	C(AT_EACCESS);
	C(AT_REMOVEDIR);
	C(AT_SYMLINK_FOLLOW);
	C(AT_NO_AUTOMOUNT);
	C(AT_EMPTY_PATH);
	C(AT_STATX_SYNC_TYPE);
	C(AT_STATX_SYNC_AS_STAT);
	C(AT_STATX_FORCE_SYNC);
	C(AT_STATX_DONT_SYNC);
	C(AT_RECURSIVE);
}

static void check_stat(void)
{
	SIZE(struct linux_stat, struct stat);
	SFIELD(struct linux_stat, st_dev, struct stat, st_dev);
	SFIELD(struct linux_stat, st_ino, struct stat, st_ino);
	SFIELD(struct linux_stat, st_nlink, struct stat, st_nlink);
	SFIELD(struct linux_stat, st_mode, struct stat, st_mode);
	SFIELD(struct linux_stat, st_uid, struct stat, st_uid);
	SFIELD(struct linux_stat, st_gid, struct stat, st_gid);
	SFIELD(struct linux_stat, st_rdev, struct stat, st_rdev);
	SFIELD(struct linux_stat, st_size, struct stat, st_size);
	SFIELD(struct linux_stat, st_blksize, struct stat, st_blksize);
	SFIELD(struct linux_stat, st_blocks, struct stat, st_blocks);
	SFIELD(struct linux_stat, st_atime_sec, struct stat, st_atime);
	SFIELD(struct linux_stat, st_atime_nsec, struct stat, st_atime_nsec);
	SFIELD(struct linux_stat, st_mtime_sec, struct stat, st_mtime);
	SFIELD(struct linux_stat, st_mtime_nsec, struct stat, st_mtime_nsec);
	SFIELD(struct linux_stat, st_ctime_sec, struct stat, st_ctime);
	SFIELD(struct linux_stat, st_ctime_nsec, struct stat, st_ctime_nsec);

	SIZE(struct linux_statx_timestamp, struct statx_timestamp);
	SFIELD(struct linux_statx_timestamp, tv_sec, struct statx_timestamp, tv_sec);
	SFIELD(struct linux_statx_timestamp, tv_nsec, struct statx_timestamp, tv_nsec);
	SIZE(struct linux_statx, struct statx);
	SFIELD(struct linux_statx, stx_mask, struct statx, stx_mask);
	SFIELD(struct linux_statx, stx_blksize, struct statx, stx_blksize);
	SFIELD(struct linux_statx, stx_attributes, struct statx, stx_attributes);
	SFIELD(struct linux_statx, stx_nlink, struct statx, stx_nlink);
	SFIELD(struct linux_statx, stx_uid, struct statx, stx_uid);
	SFIELD(struct linux_statx, stx_gid, struct statx, stx_gid);
	SFIELD(struct linux_statx, stx_mode, struct statx, stx_mode);
	SFIELD(struct linux_statx, stx_ino, struct statx, stx_ino);
	SFIELD(struct linux_statx, stx_size, struct statx, stx_size);
	SFIELD(struct linux_statx, stx_blocks, struct statx, stx_blocks);
	SFIELD(struct linux_statx, stx_attributes_mask, struct statx, stx_attributes_mask);
	FIELD(struct linux_statx, stx_atime, struct statx, stx_atime);
	FIELD(struct linux_statx, stx_btime, struct statx, stx_btime);
	FIELD(struct linux_statx, stx_ctime, struct statx, stx_ctime);
	FIELD(struct linux_statx, stx_mtime, struct statx, stx_mtime);
	SFIELD(struct linux_statx, stx_rdev_major, struct statx, stx_rdev_major);
	SFIELD(struct linux_statx, stx_rdev_minor, struct statx, stx_rdev_minor);
	SFIELD(struct linux_statx, stx_dev_major, struct statx, stx_dev_major);
	SFIELD(struct linux_statx, stx_dev_minor, struct statx, stx_dev_minor);
	SFIELD(struct linux_statx, stx_mnt_id, struct statx, stx_mnt_id);
	SFIELD(struct linux_statx, stx_dio_mem_align, struct statx, stx_dio_mem_align);
	SFIELD(struct linux_statx, stx_dio_offset_align, struct statx, stx_dio_offset_align);

	C(STATX_TYPE);
	C(STATX_MODE);
	C(STATX_NLINK);
	C(STATX_UID);
	C(STATX_GID);
	C(STATX_ATIME);
	C(STATX_MTIME);
	C(STATX_CTIME);
	C(STATX_INO);
	C(STATX_SIZE);
	C(STATX_BLOCKS);
	C(STATX_BASIC_STATS);
	C(STATX_BTIME);
	C(STATX_MNT_ID);
	C(STATX_DIOALIGN);
	EQ(LINUX_STATX_RESERVED, STATX__RESERVED);
	C(STATX_ALL);
	C(STATX_ATTR_COMPRESSED);
	C(STATX_ATTR_IMMUTABLE);
	C(STATX_ATTR_APPEND);
	C(STATX_ATTR_NODUMP);
	C(STATX_ATTR_ENCRYPTED);
	C(STATX_ATTR_AUTOMOUNT);
	C(STATX_ATTR_MOUNT_ROOT);
	C(STATX_ATTR_VERITY);
	C(STATX_ATTR_DAX);

	C(S_IFMT);
	C(S_IFSOCK);
	C(S_IFLNK);
	C(S_IFREG);
	C(S_IFBLK);
	C(S_IFDIR);
	C(S_IFCHR);
	C(S_IFIFO);
	C(S_ISUID);
	C(S_ISGID);
	C(S_ISVTX);
	C(S_IRWXU);
	C(S_IRUSR);
	C(S_IWUSR);
	C(S_IXUSR);
	C(S_IRWXG);
	C(S_IRGRP);
	C(S_IWGRP);
	C(S_IXGRP);
	C(S_IRWXO);
	C(S_IROTH);
	C(S_IWOTH);
	C(S_IXOTH);
	EQ(LINUX_S_ISDIR(040755), S_ISDIR(040755));
	EQ(LINUX_S_ISLNK(0120777), S_ISLNK(0120777));
	EQ(LINUX_S_ISREG(040755), S_ISREG(040755));

	/* the kernel's linux_dirent64 is glibc's struct dirent on x86-64 */
	FIELD(struct linux_dirent64, d_ino, struct dirent, d_ino);
	FIELD(struct linux_dirent64, d_off, struct dirent, d_off);
	SFIELD(struct linux_dirent64, d_reclen, struct dirent, d_reclen);
	SFIELD(struct linux_dirent64, d_type, struct dirent, d_type);
	EQ(offsetof(struct linux_dirent64, d_name), offsetof(struct dirent, d_name));
	EQ(LINUX_DIRENT64_RECLEN(1), 24);
	EQ(LINUX_DIRENT64_RECLEN(4), 24);
	EQ(LINUX_DIRENT64_RECLEN(5), 32);
	C(DT_UNKNOWN);
	C(DT_FIFO);
	C(DT_CHR);
	C(DT_DIR);
	C(DT_BLK);
	C(DT_REG);
	C(DT_LNK);
	C(DT_SOCK);
	C(DT_WHT);
	EQ(LINUX_IFTODT(LINUX_S_IFLNK | 0777), IFTODT(S_IFLNK | 0777));
	EQ(LINUX_IFTODT(LINUX_S_IFDIR), DT_DIR);
}

static void check_fcntl(void)
{
	C(O_ACCMODE);
	C(O_RDONLY);
	C(O_WRONLY);
	C(O_RDWR);
	C(O_CREAT);
	C(O_EXCL);
	C(O_NOCTTY);
	C(O_TRUNC);
	C(O_APPEND);
	C(O_NONBLOCK);
	C(O_NDELAY);
	C(O_DSYNC);
	EQ(LINUX_O_ASYNC, FASYNC);
	C(O_DIRECT);
	C(O_LARGEFILE);
	C(O_DIRECTORY);
	C(O_NOFOLLOW);
	C(O_NOATIME);
	C(O_CLOEXEC);
	C(O_SYNC);
	C(O_PATH);
	C(O_TMPFILE);

	C(F_DUPFD);
	C(F_GETFD);
	C(F_SETFD);
	C(F_GETFL);
	C(F_SETFL);
	C(F_GETLK);
	C(F_SETLK);
	C(F_SETLKW);
	C(F_SETOWN);
	C(F_GETOWN);
	C(F_SETSIG);
	C(F_GETSIG);
	C(F_SETOWN_EX);
	C(F_GETOWN_EX);
	C(F_GETOWNER_UIDS);
	C(F_OFD_GETLK);
	C(F_OFD_SETLK);
	C(F_OFD_SETLKW);
	C(F_LINUX_SPECIFIC_BASE);
	C(F_SETLEASE);
	C(F_GETLEASE);
	C(F_NOTIFY);
	C(F_CANCELLK);
	C(F_DUPFD_CLOEXEC);
	C(F_SETPIPE_SZ);
	C(F_GETPIPE_SZ);
	C(F_ADD_SEALS);
	C(F_GET_SEALS);
	C(F_GET_RW_HINT);
	C(F_SET_RW_HINT);
	C(F_GET_FILE_RW_HINT);
	C(F_SET_FILE_RW_HINT);
	C(FD_CLOEXEC);
	C(F_SEAL_SEAL);
	C(F_SEAL_SHRINK);
	C(F_SEAL_GROW);
	C(F_SEAL_WRITE);
	C(F_SEAL_FUTURE_WRITE);
#ifdef F_SEAL_EXEC
	C(F_SEAL_EXEC);
#endif
	C(F_RDLCK);
	C(F_WRLCK);
	C(F_UNLCK);
	C(F_OWNER_TID);
	C(F_OWNER_PID);
	C(F_OWNER_PGRP);
	C(LOCK_SH);
	C(LOCK_EX);
	C(LOCK_NB);
	C(LOCK_UN);

	SIZE(struct linux_flock, struct flock);
	SFIELD(struct linux_flock, l_type, struct flock, l_type);
	SFIELD(struct linux_flock, l_whence, struct flock, l_whence);
	SFIELD(struct linux_flock, l_start, struct flock, l_start);
	SFIELD(struct linux_flock, l_len, struct flock, l_len);
	SFIELD(struct linux_flock, l_pid, struct flock, l_pid);
	SIZE(struct linux_f_owner_ex, struct f_owner_ex);
	SFIELD(struct linux_f_owner_ex, type, struct f_owner_ex, type);
	SFIELD(struct linux_f_owner_ex, pid, struct f_owner_ex, pid);

	SIZE(struct linux_open_how, struct open_how);
	SFIELD(struct linux_open_how, flags, struct open_how, flags);
	SFIELD(struct linux_open_how, mode, struct open_how, mode);
	SFIELD(struct linux_open_how, resolve, struct open_how, resolve);
	C(RESOLVE_NO_XDEV);
	C(RESOLVE_NO_MAGICLINKS);
	C(RESOLVE_NO_SYMLINKS);
	C(RESOLVE_BENEATH);
	C(RESOLVE_IN_ROOT);
	C(RESOLVE_CACHED);

	C(SEEK_SET);
	C(SEEK_CUR);
	C(SEEK_END);
	C(SEEK_DATA);
	C(SEEK_HOLE);
	C(POSIX_FADV_NORMAL);
	C(POSIX_FADV_RANDOM);
	C(POSIX_FADV_SEQUENTIAL);
	C(POSIX_FADV_WILLNEED);
	C(POSIX_FADV_DONTNEED);
	C(POSIX_FADV_NOREUSE);
	C(F_OK);
	C(X_OK);
	C(W_OK);
	C(R_OK);
}

static void check_mman(void)
{
	C(PROT_NONE);
	C(PROT_READ);
	C(PROT_WRITE);
	C(PROT_EXEC);
	C(PROT_SEM);
	C(PROT_GROWSDOWN);
	C(PROT_GROWSUP);
	C(MAP_SHARED);
	C(MAP_PRIVATE);
	C(MAP_SHARED_VALIDATE);
	C(MAP_TYPE);
	C(MAP_FIXED);
	C(MAP_ANONYMOUS);
	C(MAP_32BIT);
	C(MAP_GROWSDOWN);
	C(MAP_DENYWRITE);
	C(MAP_EXECUTABLE);
	C(MAP_LOCKED);
	C(MAP_NORESERVE);
	C(MAP_POPULATE);
	C(MAP_NONBLOCK);
	C(MAP_STACK);
	C(MAP_HUGETLB);
	C(MAP_SYNC);
	C(MAP_FIXED_NOREPLACE);
	C(MAP_UNINITIALIZED);
	C(MAP_HUGE_SHIFT);
	C(MAP_HUGE_MASK);
	C(MFD_CLOEXEC);
	C(MFD_ALLOW_SEALING);
	C(MFD_HUGETLB);
#ifdef MFD_EXEC
	C(MFD_NOEXEC_SEAL);
	C(MFD_EXEC);
#endif
	C(MFD_HUGE_SHIFT);
	C(MFD_HUGE_MASK);
	C(MREMAP_MAYMOVE);
	C(MREMAP_FIXED);
	C(MREMAP_DONTUNMAP);
	C(MADV_NORMAL);
	C(MADV_RANDOM);
	C(MADV_SEQUENTIAL);
	C(MADV_WILLNEED);
	C(MADV_DONTNEED);
	C(MADV_FREE);
	C(MADV_REMOVE);
	C(MADV_DONTFORK);
	C(MADV_DOFORK);
	C(MADV_MERGEABLE);
	C(MADV_UNMERGEABLE);
	C(MADV_HUGEPAGE);
	C(MADV_NOHUGEPAGE);
	C(MADV_DONTDUMP);
	C(MADV_DODUMP);
	C(MADV_WIPEONFORK);
	C(MADV_KEEPONFORK);
	C(MADV_COLD);
	C(MADV_PAGEOUT);
	C(MADV_POPULATE_READ);
	C(MADV_POPULATE_WRITE);
	C(MADV_DONTNEED_LOCKED);
	C(MPOL_DEFAULT);
	C(MPOL_PREFERRED);
	C(MPOL_BIND);
	C(MPOL_INTERLEAVE);
	C(MPOL_LOCAL);
	C(MPOL_PREFERRED_MANY);
	C(MPOL_F_STATIC_NODES);
	C(MPOL_F_RELATIVE_NODES);
	C(MPOL_F_NUMA_BALANCING);
	C(MPOL_MODE_FLAGS);
	C(MPOL_F_NODE);
	C(MPOL_F_ADDR);
	C(MPOL_F_MEMS_ALLOWED);
	C(MPOL_MF_STRICT);
	C(MPOL_MF_MOVE);
	C(MPOL_MF_MOVE_ALL);
	C(MPOL_MF_VALID);
	C(MADV_COLLAPSE);
	C(MADV_HWPOISON);
	C(MADV_SOFT_OFFLINE);
	C(MS_ASYNC);
	C(MS_INVALIDATE);
	C(MS_SYNC);
	C(MCL_CURRENT);
	C(MCL_FUTURE);
	C(MCL_ONFAULT);
	C(MLOCK_ONFAULT);
}

static void check_signal(void)
{
	C(SIGHUP);
	C(SIGINT);
	C(SIGQUIT);
	C(SIGILL);
	C(SIGTRAP);
	C(SIGABRT);
	C(SIGIOT);
	C(SIGBUS);
	C(SIGFPE);
	C(SIGKILL);
	C(SIGUSR1);
	C(SIGSEGV);
	C(SIGUSR2);
	C(SIGPIPE);
	C(SIGALRM);
	C(SIGTERM);
	C(SIGSTKFLT);
	C(SIGCHLD);
	C(SIGCONT);
	C(SIGSTOP);
	C(SIGTSTP);
	C(SIGTTIN);
	C(SIGTTOU);
	C(SIGURG);
	C(SIGXCPU);
	C(SIGXFSZ);
	C(SIGVTALRM);
	C(SIGPROF);
	C(SIGWINCH);
	C(SIGIO);
	C(SIGPOLL);
	C(SIGPWR);
	C(SIGSYS);
	C(SIGRTMIN);
	/* uapi x86 leaves _NSIG to the kernel: one unsigned long of signals */
	EQ(LINUX_NSIG, 8 * sizeof(sigset_t));
	EQ(LINUX_SIGRTMAX, LINUX_NSIG);
	EQ(LINUX_SIGSET_SIZE, sizeof(sigset_t));
	EQ(LINUX_SIGMASK(LINUX_SIGRTMAX), 1ULL << 63);

	C(SA_NOCLDSTOP);
	C(SA_NOCLDWAIT);
	C(SA_SIGINFO);
	C(SA_UNSUPPORTED);
	C(SA_EXPOSE_TAGBITS);
	C(SA_RESTORER);
	C(SA_ONSTACK);
	C(SA_RESTART);
	C(SA_NODEFER);
	C(SA_RESETHAND);
	check(LINUX_SIG_DFL == (uintptr_t)SIG_DFL, "LINUX_SIG_DFL");
	check(LINUX_SIG_IGN == (uintptr_t)SIG_IGN, "LINUX_SIG_IGN");
	C(SIG_BLOCK);
	C(SIG_UNBLOCK);
	C(SIG_SETMASK);

	SIZE(struct linux_sigaction, struct sigaction);
	FIELD(struct linux_sigaction, handler, struct sigaction, sa_handler);
	SFIELD(struct linux_sigaction, flags, struct sigaction, sa_flags);
	FIELD(struct linux_sigaction, restorer, struct sigaction, sa_restorer);
	SFIELD(struct linux_sigaction, mask, struct sigaction, sa_mask);

	SIZE(struct linux_stack_t, stack_t);
	FIELD(struct linux_stack_t, ss_sp, stack_t, ss_sp);
	SFIELD(struct linux_stack_t, ss_flags, stack_t, ss_flags);
	SFIELD(struct linux_stack_t, ss_size, stack_t, ss_size);
	C(SS_ONSTACK);
	C(SS_DISABLE);
	C(SS_AUTODISARM);
	C(MINSIGSTKSZ);
	C(SIGSTKSZ);

	SIZE(union linux_sigval, sigval_t);
	SIZE(struct linux_siginfo, siginfo_t);
	SFIELD(struct linux_siginfo, si_signo, siginfo_t, si_signo);
	SFIELD(struct linux_siginfo, si_errno, siginfo_t, si_errno);
	SFIELD(struct linux_siginfo, si_code, siginfo_t, si_code);
	EQ(offsetof(struct linux_siginfo, fields), offsetof(siginfo_t, _sifields));
	SFIELD(struct linux_siginfo, fields.kill.pid, siginfo_t, si_pid);
	SFIELD(struct linux_siginfo, fields.kill.uid, siginfo_t, si_uid);
	SFIELD(struct linux_siginfo, fields.timer.tid, siginfo_t, si_tid);
	SFIELD(struct linux_siginfo, fields.timer.overrun, siginfo_t, si_overrun);
	FIELD(struct linux_siginfo, fields.timer.sigval, siginfo_t, _sifields._timer._sigval);
	SFIELD(struct linux_siginfo, fields.timer.sys_private, siginfo_t, si_sys_private);
	FIELD(struct linux_siginfo, fields.rt.sigval, siginfo_t, si_value);
	SFIELD(struct linux_siginfo, fields.rt.sigval.sival_int, siginfo_t, si_int);
	FIELD(struct linux_siginfo, fields.rt.sigval.sival_ptr, siginfo_t, si_ptr);
	SFIELD(struct linux_siginfo, fields.sigchld.pid, siginfo_t, _sifields._sigchld._pid);
	SFIELD(struct linux_siginfo, fields.sigchld.status, siginfo_t, si_status);
	SFIELD(struct linux_siginfo, fields.sigchld.utime, siginfo_t, si_utime);
	SFIELD(struct linux_siginfo, fields.sigchld.stime, siginfo_t, si_stime);
	FIELD(struct linux_siginfo, fields.sigfault.addr, siginfo_t, si_addr);
	SFIELD(struct linux_siginfo, fields.sigfault.trapno, siginfo_t, si_trapno);
	SFIELD(struct linux_siginfo, fields.sigfault.addr_lsb, siginfo_t, si_addr_lsb);
	FIELD(struct linux_siginfo, fields.sigfault.addr_bnd.lower, siginfo_t, si_lower);
	FIELD(struct linux_siginfo, fields.sigfault.addr_bnd.upper, siginfo_t, si_upper);
	SFIELD(struct linux_siginfo, fields.sigfault.addr_pkey.pkey, siginfo_t, si_pkey);
	SFIELD(struct linux_siginfo, fields.sigfault.perf.data, siginfo_t, si_perf_data);
	SFIELD(struct linux_siginfo, fields.sigfault.perf.type, siginfo_t, si_perf_type);
	SFIELD(struct linux_siginfo, fields.sigfault.perf.flags, siginfo_t, si_perf_flags);
	SFIELD(struct linux_siginfo, fields.sigpoll.band, siginfo_t, si_band);
	SFIELD(struct linux_siginfo, fields.sigpoll.fd, siginfo_t, si_fd);
	FIELD(struct linux_siginfo, fields.sigsys.call_addr, siginfo_t, si_call_addr);
	SFIELD(struct linux_siginfo, fields.sigsys.syscall, siginfo_t, si_syscall);
	SFIELD(struct linux_siginfo, fields.sigsys.arch, siginfo_t, si_arch);

	C(SI_USER);
	C(SI_KERNEL);
	C(SI_QUEUE);
	C(SI_TIMER);
	C(SI_MESGQ);
	C(SI_ASYNCIO);
	C(SI_SIGIO);
	C(SI_TKILL);
	C(SI_DETHREAD);
	C(SI_ASYNCNL);
	C(ILL_ILLOPC);
	C(ILL_ILLOPN);
	C(ILL_ILLADR);
	C(ILL_ILLTRP);
	C(ILL_PRVOPC);
	C(ILL_PRVREG);
	C(ILL_COPROC);
	C(ILL_BADSTK);
	C(FPE_INTDIV);
	C(FPE_INTOVF);
	C(FPE_FLTDIV);
	C(FPE_FLTOVF);
	C(FPE_FLTUND);
	C(FPE_FLTRES);
	C(FPE_FLTINV);
	C(FPE_FLTSUB);
	C(FPE_FLTUNK);
	C(SEGV_MAPERR);
	C(SEGV_ACCERR);
	C(SEGV_BNDERR);
	C(SEGV_PKUERR);
	C(BUS_ADRALN);
	C(BUS_ADRERR);
	C(BUS_OBJERR);
	C(BUS_MCEERR_AR);
	C(BUS_MCEERR_AO);
	C(TRAP_BRKPT);
	C(TRAP_TRACE);
	C(TRAP_BRANCH);
	C(TRAP_HWBKPT);
	C(TRAP_UNK);
	C(TRAP_PERF);
	C(CLD_EXITED);
	C(CLD_KILLED);
	C(CLD_DUMPED);
	C(CLD_TRAPPED);
	C(CLD_STOPPED);
	C(CLD_CONTINUED);
	C(POLL_IN);
	C(POLL_OUT);
	C(POLL_MSG);
	C(POLL_ERR);
	C(POLL_PRI);
	C(POLL_HUP);
	C(SYS_SECCOMP);
	C(SYS_USER_DISPATCH);
}

#define AUXV(name) EQ_MSG(LINUX_AUXV_##name, AT_##name, "LINUX_AUXV_" #name)

static void check_auxv_elf(void)
{
	AUXV(NULL);
	AUXV(IGNORE);
	AUXV(EXECFD);
	AUXV(PHDR);
	AUXV(PHENT);
	AUXV(PHNUM);
	AUXV(PAGESZ);
	AUXV(BASE);
	AUXV(FLAGS);
	AUXV(ENTRY);
	AUXV(NOTELF);
	AUXV(UID);
	AUXV(EUID);
	AUXV(GID);
	AUXV(EGID);
	AUXV(PLATFORM);
	AUXV(HWCAP);
	AUXV(CLKTCK);
	AUXV(SECURE);
	AUXV(BASE_PLATFORM);
	AUXV(RANDOM);
	AUXV(HWCAP2);
#ifdef AT_RSEQ_FEATURE_SIZE
	AUXV(RSEQ_FEATURE_SIZE);
	AUXV(RSEQ_ALIGN);
#else
	/* host headers predate Linux 6.3; values from include/uapi/linux/auxvec.h */
	EQ(LINUX_AUXV_RSEQ_FEATURE_SIZE, 27);
	EQ(LINUX_AUXV_RSEQ_ALIGN, 28);
#endif
	AUXV(EXECFN);
	AUXV(SYSINFO_EHDR);
	AUXV(MINSIGSTKSZ);
	SIZE(struct linux_auxv, Elf64_auxv_t);
	SFIELD(struct linux_auxv, a_type, Elf64_auxv_t, a_type);
	SFIELD(struct linux_auxv, a_val, Elf64_auxv_t, a_un.a_val);

	SIZE(struct linux_elf64_ehdr, Elf64_Ehdr);
	FIELD(struct linux_elf64_ehdr, e_ident, Elf64_Ehdr, e_ident);
	SFIELD(struct linux_elf64_ehdr, e_type, Elf64_Ehdr, e_type);
	SFIELD(struct linux_elf64_ehdr, e_machine, Elf64_Ehdr, e_machine);
	SFIELD(struct linux_elf64_ehdr, e_version, Elf64_Ehdr, e_version);
	SFIELD(struct linux_elf64_ehdr, e_entry, Elf64_Ehdr, e_entry);
	SFIELD(struct linux_elf64_ehdr, e_phoff, Elf64_Ehdr, e_phoff);
	SFIELD(struct linux_elf64_ehdr, e_shoff, Elf64_Ehdr, e_shoff);
	SFIELD(struct linux_elf64_ehdr, e_flags, Elf64_Ehdr, e_flags);
	SFIELD(struct linux_elf64_ehdr, e_ehsize, Elf64_Ehdr, e_ehsize);
	SFIELD(struct linux_elf64_ehdr, e_phentsize, Elf64_Ehdr, e_phentsize);
	SFIELD(struct linux_elf64_ehdr, e_phnum, Elf64_Ehdr, e_phnum);
	SFIELD(struct linux_elf64_ehdr, e_shentsize, Elf64_Ehdr, e_shentsize);
	SFIELD(struct linux_elf64_ehdr, e_shnum, Elf64_Ehdr, e_shnum);
	SFIELD(struct linux_elf64_ehdr, e_shstrndx, Elf64_Ehdr, e_shstrndx);
	SIZE(struct linux_elf64_phdr, Elf64_Phdr);
	SFIELD(struct linux_elf64_phdr, p_type, Elf64_Phdr, p_type);
	SFIELD(struct linux_elf64_phdr, p_flags, Elf64_Phdr, p_flags);
	SFIELD(struct linux_elf64_phdr, p_offset, Elf64_Phdr, p_offset);
	SFIELD(struct linux_elf64_phdr, p_vaddr, Elf64_Phdr, p_vaddr);
	SFIELD(struct linux_elf64_phdr, p_paddr, Elf64_Phdr, p_paddr);
	SFIELD(struct linux_elf64_phdr, p_filesz, Elf64_Phdr, p_filesz);
	SFIELD(struct linux_elf64_phdr, p_memsz, Elf64_Phdr, p_memsz);
	SFIELD(struct linux_elf64_phdr, p_align, Elf64_Phdr, p_align);

	EQ(LINUX_EI_NIDENT, EI_NIDENT);
	C(EI_MAG0);
	C(EI_MAG1);
	C(EI_MAG2);
	C(EI_MAG3);
	C(EI_CLASS);
	C(EI_DATA);
	C(EI_VERSION);
	C(EI_OSABI);
	C(EI_ABIVERSION);
	C(ELFMAG0);
	C(ELFMAG1);
	C(ELFMAG2);
	C(ELFMAG3);
	check(sizeof(LINUX_ELFMAG) == sizeof(ELFMAG) &&
		      memcmp(LINUX_ELFMAG, ELFMAG, sizeof(ELFMAG)) == 0,
	      "LINUX_ELFMAG");
	C(SELFMAG);
	C(ELFCLASS32);
	C(ELFCLASS64);
	C(ELFDATA2LSB);
	C(EV_CURRENT);
	C(ELFOSABI_NONE);
	C(ELFOSABI_GNU);
	C(ET_NONE);
	C(ET_REL);
	C(ET_EXEC);
	C(ET_DYN);
	C(ET_CORE);
	C(EM_X86_64);
	C(PT_NULL);
	C(PT_LOAD);
	C(PT_DYNAMIC);
	C(PT_INTERP);
	C(PT_NOTE);
	C(PT_SHLIB);
	C(PT_PHDR);
	C(PT_TLS);
	C(PT_GNU_EH_FRAME);
	C(PT_GNU_STACK);
	C(PT_GNU_RELRO);
	C(PT_GNU_PROPERTY);
	C(PF_X);
	C(PF_W);
	C(PF_R);
}

static void check_ioctl(void)
{
	EQ(LINUX_IOWR('x', 7, sizeof(int)), _IOWR('x', 7, int));
	EQ(LINUX_IOC_DIR(TCGETS2), _IOC_DIR(TCGETS2));
	EQ(LINUX_IOC_SIZE(TCGETS2), _IOC_SIZE(TCGETS2));
	EQ(LINUX_IOC_TYPE(TCGETS2), _IOC_TYPE(TCGETS2));
	EQ(LINUX_IOC_NR(TCGETS2), _IOC_NR(TCGETS2));

	C(NCCS);
	SIZE(struct linux_termios, struct termios);
	SFIELD(struct linux_termios, c_iflag, struct termios, c_iflag);
	SFIELD(struct linux_termios, c_oflag, struct termios, c_oflag);
	SFIELD(struct linux_termios, c_cflag, struct termios, c_cflag);
	SFIELD(struct linux_termios, c_lflag, struct termios, c_lflag);
	SFIELD(struct linux_termios, c_line, struct termios, c_line);
	FIELD(struct linux_termios, c_cc, struct termios, c_cc);
	SIZE(struct linux_termios2, struct termios2);
	FIELD(struct linux_termios2, c_cc, struct termios2, c_cc);
	SFIELD(struct linux_termios2, c_ispeed, struct termios2, c_ispeed);
	SFIELD(struct linux_termios2, c_ospeed, struct termios2, c_ospeed);
	SIZE(struct linux_winsize, struct winsize);
	SFIELD(struct linux_winsize, ws_row, struct winsize, ws_row);
	SFIELD(struct linux_winsize, ws_col, struct winsize, ws_col);
	SFIELD(struct linux_winsize, ws_xpixel, struct winsize, ws_xpixel);
	SFIELD(struct linux_winsize, ws_ypixel, struct winsize, ws_ypixel);

	C(TCGETS);
	C(TCSETS);
	C(TCSETSW);
	C(TCSETSF);
	C(TCSBRK);
	C(TCXONC);
	C(TCFLSH);
	C(TIOCEXCL);
	C(TIOCNXCL);
	C(TIOCSCTTY);
	C(TIOCGPGRP);
	C(TIOCSPGRP);
	C(TIOCOUTQ);
	C(TIOCSTI);
	C(TIOCGWINSZ);
	C(TIOCSWINSZ);
	C(FIONREAD);
	C(TIOCINQ);
	C(TIOCPKT);
	C(FIONBIO);
	C(TIOCNOTTY);
	C(TIOCSETD);
	C(TIOCGETD);
	C(TCSBRKP);
	C(TIOCGSID);
	C(TCGETS2);
	C(TCSETS2);
	C(TCSETSW2);
	C(TCSETSF2);
	C(TIOCGPTN);
	C(TIOCSPTLCK);
	C(TIOCGDEV);
	C(TIOCSIG);
	C(TIOCVHANGUP);
	C(TIOCGPKT);
	C(TIOCGPTLCK);
	C(TIOCGEXCL);
	C(TIOCGPTPEER);
	C(FIONCLEX);
	C(FIOCLEX);
	C(FIOASYNC);
	C(FIOQSIZE);
	C(TCIFLUSH);
	C(TCOFLUSH);
	C(TCIOFLUSH);
	C(TCOOFF);
	C(TCOON);
	C(TCIOFF);
	C(TCION);

	C(VINTR);
	C(VQUIT);
	C(VERASE);
	C(VKILL);
	C(VEOF);
	C(VTIME);
	C(VMIN);
	C(VSWTC);
	C(VSTART);
	C(VSTOP);
	C(VSUSP);
	C(VEOL);
	C(VREPRINT);
	C(VDISCARD);
	C(VWERASE);
	C(VLNEXT);
	C(VEOL2);
	C(IGNBRK);
	C(BRKINT);
	C(IGNPAR);
	C(PARMRK);
	C(INPCK);
	C(ISTRIP);
	C(INLCR);
	C(IGNCR);
	C(ICRNL);
	C(IUCLC);
	C(IXON);
	C(IXANY);
	C(IXOFF);
	C(IMAXBEL);
	C(IUTF8);
	C(OPOST);
	C(OLCUC);
	C(ONLCR);
	C(OCRNL);
	C(ONOCR);
	C(ONLRET);
	C(CBAUD);
	C(B0);
	C(B9600);
	C(B38400);
	C(CSIZE);
	C(CS5);
	C(CS6);
	C(CS7);
	C(CS8);
	C(CSTOPB);
	C(CREAD);
	C(PARENB);
	C(PARODD);
	C(HUPCL);
	C(CLOCAL);
	C(CBAUDEX);
	C(BOTHER);
	C(B115200);
	C(CIBAUD);
	C(CRTSCTS);
	C(ISIG);
	C(ICANON);
	C(ECHO);
	C(ECHOE);
	C(ECHOK);
	C(ECHONL);
	C(NOFLSH);
	C(TOSTOP);
	C(ECHOCTL);
	C(ECHOPRT);
	C(ECHOKE);
	C(FLUSHO);
	C(PENDIN);
	C(IEXTEN);
	C(EXTPROC);
	C(TIOCPKT_DATA);
	C(TIOCPKT_FLUSHREAD);
	C(TIOCPKT_FLUSHWRITE);
	C(TIOCPKT_STOP);
	C(TIOCPKT_START);
	C(TIOCPKT_NOSTOP);
	C(TIOCPKT_DOSTOP);
	C(TIOCPKT_IOCTL);
}

static void check_misc(void)
{
	C(ARCH_SET_GS);
	C(ARCH_SET_FS);
	C(ARCH_GET_FS);
	C(ARCH_GET_GS);
	C(ARCH_GET_CPUID);
	C(ARCH_SET_CPUID);
	C(ARCH_GET_XCOMP_SUPP);
	C(ARCH_GET_XCOMP_PERM);
	C(ARCH_REQ_XCOMP_PERM);
	C(ARCH_MAP_VDSO_64);
	C(GRND_NONBLOCK);
	C(GRND_RANDOM);
	C(GRND_INSECURE);

	C(PR_SET_PDEATHSIG);
	C(PR_GET_PDEATHSIG);
	C(PR_GET_DUMPABLE);
	C(PR_SET_DUMPABLE);
	C(PR_GET_KEEPCAPS);
	C(PR_SET_KEEPCAPS);
	C(PR_SET_NAME);
	C(PR_GET_NAME);
	C(PR_GET_SECCOMP);
	C(PR_SET_SECCOMP);
	C(SECCOMP_FILTER_FLAG_NEW_LISTENER);
	C(SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV);
	C(SECCOMP_RET_USER_NOTIF);
	C(SECCOMP_USER_NOTIF_FLAG_CONTINUE);
	C(SECCOMP_ADDFD_FLAG_SETFD);
	C(SECCOMP_ADDFD_FLAG_SEND);
	C(SECCOMP_IOCTL_NOTIF_RECV);
	C(SECCOMP_IOCTL_NOTIF_SEND);
	C(SECCOMP_IOCTL_NOTIF_ID_VALID);
	C(SECCOMP_IOCTL_NOTIF_ADDFD);
	SIZE(struct linux_seccomp_notif, struct seccomp_notif);
	SIZE(struct linux_seccomp_notif_resp, struct seccomp_notif_resp);
	SIZE(struct linux_seccomp_notif_addfd, struct seccomp_notif_addfd);
	C(PR_CAPBSET_READ);
	C(PR_CAPBSET_DROP);
	C(PR_GET_TSC);
	C(PR_SET_TSC);
	C(PR_GET_SECUREBITS);
	C(PR_SET_SECUREBITS);
	C(PR_SET_TIMERSLACK);
	C(PR_GET_TIMERSLACK);
	C(PR_SET_MM);
	C(PR_SET_CHILD_SUBREAPER);
	C(PR_GET_CHILD_SUBREAPER);
	C(PR_SET_NO_NEW_PRIVS);
	C(PR_GET_NO_NEW_PRIVS);
	C(PR_GET_TID_ADDRESS);
	C(PR_SET_THP_DISABLE);
	C(PR_GET_THP_DISABLE);
	C(PR_CAP_AMBIENT);
	C(PR_GET_SPECULATION_CTRL);
	C(PR_SET_SPECULATION_CTRL);
	C(PR_SET_PTRACER);
	C(PR_SET_PTRACER_ANY);
	C(PR_SET_VMA);
	C(PR_SET_VMA_ANON_NAME);

	C(CLOCK_REALTIME);
	C(CLOCK_MONOTONIC);
	C(CLOCK_PROCESS_CPUTIME_ID);
	C(CLOCK_THREAD_CPUTIME_ID);
	C(CLOCK_MONOTONIC_RAW);
	C(CLOCK_REALTIME_COARSE);
	C(CLOCK_MONOTONIC_COARSE);
	C(CLOCK_BOOTTIME);
	C(CLOCK_REALTIME_ALARM);
	C(CLOCK_BOOTTIME_ALARM);
	C(CLOCK_SGI_CYCLE);
	C(CLOCK_TAI);
	C(MAX_CLOCKS);
	C(TIMER_ABSTIME);
	C(ITIMER_REAL);
	C(ITIMER_VIRTUAL);
	C(ITIMER_PROF);

	C(PER_LINUX);
	C(PER_LINUX32);
	C(PER_MASK);
	C(UNAME26);
	C(ADDR_NO_RANDOMIZE);
	C(FDPIC_FUNCPTRS);
	C(MMAP_PAGE_ZERO);
	C(ADDR_COMPAT_LAYOUT);
	C(READ_IMPLIES_EXEC);
	C(ADDR_LIMIT_32BIT);
	C(SHORT_INODE);
	C(WHOLE_SECONDS);
	C(STICKY_TIMEOUTS);
	C(ADDR_LIMIT_3GB);

	SIZE(struct linux_robust_list_head, struct robust_list_head);
	FIELD(struct linux_robust_list_head, list_next, struct robust_list_head, list.next);
	SFIELD(struct linux_robust_list_head, futex_offset, struct robust_list_head, futex_offset);
	FIELD(struct linux_robust_list_head, list_op_pending, struct robust_list_head,
	      list_op_pending);

	C(CSIGNAL);
	C(CLONE_NEWTIME);
	C(CLONE_VM);
	C(CLONE_FS);
	C(CLONE_FILES);
	C(CLONE_SIGHAND);
	C(CLONE_PIDFD);
	C(CLONE_PTRACE);
	C(CLONE_VFORK);
	C(CLONE_PARENT);
	C(CLONE_THREAD);
	C(CLONE_NEWNS);
	C(CLONE_SYSVSEM);
	C(CLONE_SETTLS);
	C(CLONE_PARENT_SETTID);
	C(CLONE_CHILD_CLEARTID);
	C(CLONE_DETACHED);
	C(CLONE_UNTRACED);
	C(CLONE_CHILD_SETTID);
	C(CLONE_NEWCGROUP);
	C(CLONE_NEWUTS);
	C(CLONE_NEWIPC);
	C(CLONE_NEWUSER);
	C(CLONE_NEWPID);
	C(CLONE_NEWNET);
	C(CLONE_IO);
	C(CLONE_CLEAR_SIGHAND);
	C(CLONE_INTO_CGROUP);
	SIZE(struct linux_clone_args, struct clone_args);
	SFIELD(struct linux_clone_args, flags, struct clone_args, flags);
	SFIELD(struct linux_clone_args, pidfd, struct clone_args, pidfd);
	SFIELD(struct linux_clone_args, child_tid, struct clone_args, child_tid);
	SFIELD(struct linux_clone_args, parent_tid, struct clone_args, parent_tid);
	SFIELD(struct linux_clone_args, exit_signal, struct clone_args, exit_signal);
	SFIELD(struct linux_clone_args, stack, struct clone_args, stack);
	SFIELD(struct linux_clone_args, stack_size, struct clone_args, stack_size);
	SFIELD(struct linux_clone_args, tls, struct clone_args, tls);
	SFIELD(struct linux_clone_args, set_tid, struct clone_args, set_tid);
	SFIELD(struct linux_clone_args, set_tid_size, struct clone_args, set_tid_size);
	SFIELD(struct linux_clone_args, cgroup, struct clone_args, cgroup);
	C(CLONE_ARGS_SIZE_VER0);
	C(CLONE_ARGS_SIZE_VER1);
	C(CLONE_ARGS_SIZE_VER2);

	C(WNOHANG);
	C(WUNTRACED);
	C(WSTOPPED);
	C(WEXITED);
	C(WCONTINUED);
	C(WNOWAIT);
	EQ(LINUX_WNOTHREAD, __WNOTHREAD);
	EQ(LINUX_WALL, __WALL);
	EQ(LINUX_WCLONE, __WCLONE);
	C(P_ALL);
	C(P_PID);
	C(P_PGID);
	C(P_PIDFD);

	C(FUTEX_WAIT);
	C(FUTEX_WAKE);
	C(FUTEX_FD);
	C(FUTEX_REQUEUE);
	C(FUTEX_CMP_REQUEUE);
	C(FUTEX_WAKE_OP);
	C(FUTEX_LOCK_PI);
	C(FUTEX_UNLOCK_PI);
	C(FUTEX_TRYLOCK_PI);
	C(FUTEX_WAIT_BITSET);
	C(FUTEX_WAKE_BITSET);
	C(FUTEX_WAIT_REQUEUE_PI);
	C(FUTEX_CMP_REQUEUE_PI);
	C(FUTEX_LOCK_PI2);
	C(FUTEX_PRIVATE_FLAG);
	C(FUTEX_CLOCK_REALTIME);
	C(FUTEX_CMD_MASK);
	C(FUTEX_BITSET_MATCH_ANY);
	C(FUTEX_WAITERS);
	C(FUTEX_OWNER_DIED);
	C(FUTEX_TID_MASK);
	C(ROBUST_LIST_LIMIT);
	C(FUTEX_OP_SET);
	C(FUTEX_OP_ADD);
	C(FUTEX_OP_OR);
	C(FUTEX_OP_ANDN);
	C(FUTEX_OP_XOR);
	C(FUTEX_OP_OPARG_SHIFT);
	C(FUTEX_OP_CMP_EQ);
	C(FUTEX_OP_CMP_NE);
	C(FUTEX_OP_CMP_LT);
	C(FUTEX_OP_CMP_LE);
	C(FUTEX_OP_CMP_GT);
	C(FUTEX_OP_CMP_GE);
}

/* The uapi has no msghdr or AF_ and MSG_ constants (glibc's
 * <sys/socket.h> clashes with it here); guest tests cover those. */
static void check_socket(void)
{
	C(SOL_SOCKET);
	C(SO_REUSEADDR);
	C(SO_TYPE);
	C(SO_ERROR);
	C(SO_SNDBUF);
	C(SO_RCVBUF);
	C(SO_PASSCRED);
	C(SO_PEERCRED);
	C(SO_ACCEPTCONN);
	C(SO_PROTOCOL);
	C(SO_DOMAIN);
	C(SO_RCVTIMEO_OLD);
	C(SO_SNDTIMEO_OLD);
	EQ(LINUX_UNIX_PATH_MAX, UNIX_PATH_MAX);
	SIZE(struct linux_sockaddr_un, struct sockaddr_un);
	FIELD(struct linux_sockaddr_un, sun_path, struct sockaddr_un, sun_path);
	SIZE(struct linux_sockaddr_storage, struct __kernel_sockaddr_storage);
	SIZE(struct linux_sockaddr_in, struct sockaddr_in);
	FIELD(struct linux_sockaddr_in, sin_port, struct sockaddr_in, sin_port);
	FIELD(struct linux_sockaddr_in, sin_addr, struct sockaddr_in, sin_addr);
	SIZE(struct linux_sockaddr_in6, struct sockaddr_in6);
	FIELD(struct linux_sockaddr_in6, sin6_port, struct sockaddr_in6, sin6_port);
	FIELD(struct linux_sockaddr_in6, sin6_addr, struct sockaddr_in6, sin6_addr);
	FIELD(struct linux_sockaddr_in6, sin6_scope_id, struct sockaddr_in6, sin6_scope_id);
}

static void check_sock_diag(void)
{
	C(NETLINK_SOCK_DIAG);
	C(TCPDIAG_GETSOCK);
	C(DCCPDIAG_GETSOCK);
	C(SOCK_DIAG_BY_FAMILY);
	C(SOCK_DESTROY);
	C(INET_DIAG_GETSOCK_MAX);
	C(INET_DIAG_NOCOOKIE);
	SIZE(struct linux_inet_diag_sockid, struct inet_diag_sockid);
	FIELD(struct linux_inet_diag_sockid, idiag_cookie, struct inet_diag_sockid, idiag_cookie);
	SIZE(struct linux_inet_diag_req, struct inet_diag_req);
	FIELD(struct linux_inet_diag_req, idiag_states, struct inet_diag_req, idiag_states);
	SIZE(struct linux_inet_diag_req_v2, struct inet_diag_req_v2);
	FIELD(struct linux_inet_diag_req_v2, id, struct inet_diag_req_v2, id);
	SIZE(struct linux_inet_diag_msg, struct inet_diag_msg);
	FIELD(struct linux_inet_diag_msg, idiag_inode, struct inet_diag_msg, idiag_inode);
	SIZE(struct linux_inet_diag_bc_op, struct inet_diag_bc_op);
	SIZE(struct linux_inet_diag_hostcond, struct inet_diag_hostcond);
	FIELD(struct linux_inet_diag_hostcond, port, struct inet_diag_hostcond, port);
	SIZE(struct linux_inet_diag_markcond, struct inet_diag_markcond);
	SIZE(struct linux_inet_diag_meminfo, struct inet_diag_meminfo);
	SIZE(struct linux_unix_diag_req, struct unix_diag_req);
	FIELD(struct linux_unix_diag_req, udiag_cookie, struct unix_diag_req, udiag_cookie);
	SIZE(struct linux_unix_diag_msg, struct unix_diag_msg);
	SIZE(struct linux_unix_diag_vfs, struct unix_diag_vfs);
	SIZE(struct linux_unix_diag_rqlen, struct unix_diag_rqlen);
	C(INET_DIAG_REQ_BYTECODE);
	C(INET_DIAG_REQ_SK_BPF_STORAGES);
	C(INET_DIAG_REQ_PROTOCOL);
	C(INET_DIAG_BC_NOP);
	C(INET_DIAG_BC_D_COND);
	C(INET_DIAG_BC_MARK_COND);
	C(INET_DIAG_BC_S_EQ);
	C(INET_DIAG_BC_D_EQ);
	C(INET_DIAG_BC_CGROUP_COND);
	C(INET_DIAG_MEMINFO);
	C(INET_DIAG_INFO);
	C(INET_DIAG_CONG);
	C(INET_DIAG_SHUTDOWN);
	C(INET_DIAG_SKV6ONLY);
	C(INET_DIAG_MARK);
	C(INET_DIAG_CLASS_ID);
	C(INET_DIAG_CGROUP_ID);
	C(INET_DIAG_SOCKOPT);
	C(SK_MEMINFO_VARS);
	C(UDIAG_SHOW_NAME);
	C(UDIAG_SHOW_UID);
	C(UNIX_DIAG_NAME);
	C(UNIX_DIAG_ICONS);
	C(UNIX_DIAG_SHUTDOWN);
	C(UNIX_DIAG_UID);
}

/* <linux/if.h> and <linux/if_arp.h> (struct ifreq, IFF_*, ARPHRD_*) take glibc's <sys/socket.h>, which
 * clashes here: guest tests cover those. */
static void check_netlink(void)
{
	C(NETLINK_ROUTE);
	C(MAX_LINKS);
	SIZE(struct linux_sockaddr_nl, struct sockaddr_nl);
	FIELD(struct linux_sockaddr_nl, nl_pid, struct sockaddr_nl, nl_pid);
	FIELD(struct linux_sockaddr_nl, nl_groups, struct sockaddr_nl, nl_groups);
	SIZE(struct linux_nlmsghdr, struct nlmsghdr);
	FIELD(struct linux_nlmsghdr, nlmsg_flags, struct nlmsghdr, nlmsg_flags);
	FIELD(struct linux_nlmsghdr, nlmsg_pid, struct nlmsghdr, nlmsg_pid);
	SIZE(struct linux_nlattr, struct nlattr);
	SIZE(struct linux_ifinfomsg, struct ifinfomsg);
	FIELD(struct linux_ifinfomsg, ifi_index, struct ifinfomsg, ifi_index);
	FIELD(struct linux_ifinfomsg, ifi_change, struct ifinfomsg, ifi_change);
	SIZE(struct linux_ifaddrmsg, struct ifaddrmsg);
	FIELD(struct linux_ifaddrmsg, ifa_index, struct ifaddrmsg, ifa_index);
	SIZE(struct linux_rtmsg, struct rtmsg);
	FIELD(struct linux_rtmsg, rtm_flags, struct rtmsg, rtm_flags);
	SIZE(struct linux_ifa_cacheinfo, struct ifa_cacheinfo);
	EQ(LINUX_RTA_CACHEINFO_SIZE, sizeof(struct rta_cacheinfo));
	C(NLM_F_REQUEST);
	C(NLM_F_MULTI);
	C(NLM_F_ACK);
	C(NLM_F_DUMP_FILTERED);
	C(NLM_F_DUMP);
	C(NLM_F_CAPPED);
	C(NLMSG_ERROR);
	C(NLMSG_DONE);
	C(NLMSG_MIN_TYPE);
	C(NETLINK_ADD_MEMBERSHIP);
	C(NETLINK_PKTINFO);
	C(NETLINK_LIST_MEMBERSHIPS);
	C(NETLINK_CAP_ACK);
	C(NETLINK_EXT_ACK);
	C(NETLINK_GET_STRICT_CHK);
	C(NLA_F_NESTED);
	C(RTM_NEWLINK);
	C(RTM_GETLINK);
	C(RTM_GETADDR);
	C(RTM_GETROUTE);
	C(RTM_GETNEIGH);
	C(RTM_NEWRULE);
	C(RTM_GETRULE);
	C(IFLA_ADDRESS);
	C(IFLA_IFNAME);
	C(IFLA_STATS64);
	C(IFLA_AF_SPEC);
	C(IFLA_EXT_MASK);
	C(IFLA_CARRIER_DOWN_COUNT);
	C(IFLA_TSO_MAX_SEGS);
	C(IFLA_XDP_ATTACHED);
	C(RTEXT_FILTER_SKIP_STATS);
	C(IFA_CACHEINFO);
	C(IFA_FLAGS);
	C(IFA_F_PERMANENT);
	C(RTA_DST);
	C(RTA_PREFSRC);
	C(RTA_TABLE);
	C(RTA_PREF);
	C(RT_TABLE_LOCAL);
	C(RTPROT_KERNEL);
	C(RT_SCOPE_HOST);
	C(RTN_BROADCAST);
	C(RTM_F_CLONED);
	C(SIOCGIFNAME);
	C(SIOCGIFCONF);
	C(SIOCGIFFLAGS);
	C(SIOCSIFFLAGS);
	C(SIOCGIFADDR);
	C(SIOCGIFBRDADDR);
	C(SIOCGIFNETMASK);
	C(SIOCGIFMTU);
	C(SIOCSIFNAME);
	C(SIOCGIFHWADDR);
	C(SIOCGIFINDEX);
	C(SIOCGIFTXQLEN);
	C(SIOCSIFTXQLEN);
	C(SIOCGIFMAP);
}

static void check_ipc(void)
{
	C(IPC_PRIVATE);
	C(IPC_CREAT);
	C(IPC_EXCL);
	C(IPC_NOWAIT);
	C(IPC_RMID);
	C(IPC_SET);
	C(IPC_STAT);
	C(IPC_INFO);
	SIZE(struct linux_ipc64_perm, struct ipc64_perm);
	SFIELD(struct linux_ipc64_perm, key, struct ipc64_perm, key);
	SFIELD(struct linux_ipc64_perm, uid, struct ipc64_perm, uid);
	SFIELD(struct linux_ipc64_perm, gid, struct ipc64_perm, gid);
	SFIELD(struct linux_ipc64_perm, cuid, struct ipc64_perm, cuid);
	SFIELD(struct linux_ipc64_perm, cgid, struct ipc64_perm, cgid);
	SFIELD(struct linux_ipc64_perm, mode, struct ipc64_perm, mode);
	SFIELD(struct linux_ipc64_perm, seq, struct ipc64_perm, seq);

	C(SHM_RDONLY);
	C(SHM_RND);
	C(SHM_REMAP);
	C(SHM_EXEC);
	C(SHM_HUGETLB);
	C(SHM_NORESERVE);
	C(SHM_LOCK);
	C(SHM_UNLOCK);
	C(SHM_STAT);
	C(SHM_INFO);
	C(SHM_STAT_ANY);
	C(SHMMIN);
	C(SHMMNI);
	C(SHMMAX);
	C(SHMALL);
	SIZE(struct linux_shmid64_ds, struct shmid64_ds);
	FIELD(struct linux_shmid64_ds, shm_perm, struct shmid64_ds, shm_perm);
	SFIELD(struct linux_shmid64_ds, shm_segsz, struct shmid64_ds, shm_segsz);
	SFIELD(struct linux_shmid64_ds, shm_atime, struct shmid64_ds, shm_atime);
	SFIELD(struct linux_shmid64_ds, shm_dtime, struct shmid64_ds, shm_dtime);
	SFIELD(struct linux_shmid64_ds, shm_ctime, struct shmid64_ds, shm_ctime);
	SFIELD(struct linux_shmid64_ds, shm_cpid, struct shmid64_ds, shm_cpid);
	SFIELD(struct linux_shmid64_ds, shm_lpid, struct shmid64_ds, shm_lpid);
	SFIELD(struct linux_shmid64_ds, shm_nattch, struct shmid64_ds, shm_nattch);
	SIZE(struct linux_shminfo64, struct shminfo64);
	SFIELD(struct linux_shminfo64, shmmax, struct shminfo64, shmmax);
	SFIELD(struct linux_shminfo64, shmall, struct shminfo64, shmall);
	SIZE(struct linux_shm_info, struct shm_info);
	SFIELD(struct linux_shm_info, used_ids, struct shm_info, used_ids);
	SFIELD(struct linux_shm_info, shm_tot, struct shm_info, shm_tot);
	SFIELD(struct linux_shm_info, swap_successes, struct shm_info, swap_successes);

	C(SEM_UNDO);
	C(GETPID);
	C(GETVAL);
	C(GETALL);
	C(GETNCNT);
	C(GETZCNT);
	C(SETVAL);
	C(SETALL);
	C(SEM_STAT);
	C(SEM_INFO);
	C(SEM_STAT_ANY);
	C(SEMMNI);
	C(SEMMSL);
	C(SEMMNS);
	C(SEMOPM);
	C(SEMVMX);
	C(SEMAEM);
	C(SEMUME);
	C(SEMMNU);
	C(SEMMAP);
	C(SEMUSZ);
	SIZE(struct linux_sembuf, struct sembuf);
	SFIELD(struct linux_sembuf, sem_num, struct sembuf, sem_num);
	SFIELD(struct linux_sembuf, sem_op, struct sembuf, sem_op);
	SFIELD(struct linux_sembuf, sem_flg, struct sembuf, sem_flg);
	SIZE(struct linux_semid64_ds, struct semid64_ds);
	SFIELD(struct linux_semid64_ds, sem_otime, struct semid64_ds, sem_otime);
	SFIELD(struct linux_semid64_ds, sem_ctime, struct semid64_ds, sem_ctime);
	SFIELD(struct linux_semid64_ds, sem_nsems, struct semid64_ds, sem_nsems);
	SIZE(struct linux_seminfo, struct seminfo);
	SFIELD(struct linux_seminfo, semmap, struct seminfo, semmap);
	SFIELD(struct linux_seminfo, semaem, struct seminfo, semaem);

	C(MSG_NOERROR);
	C(MSG_EXCEPT);
	C(MSG_COPY);
	C(MSG_STAT);
	C(MSG_INFO);
	C(MSG_STAT_ANY);
	C(MSGMNI);
	C(MSGMAX);
	C(MSGMNB);
	C(MSGSSZ);
	C(MSGPOOL);
	C(MSGTQL);
	C(MSGMAP);
	C(MSGSEG);
	SIZE(struct linux_msqid64_ds, struct msqid64_ds);
	SFIELD(struct linux_msqid64_ds, msg_stime, struct msqid64_ds, msg_stime);
	SFIELD(struct linux_msqid64_ds, msg_rtime, struct msqid64_ds, msg_rtime);
	SFIELD(struct linux_msqid64_ds, msg_ctime, struct msqid64_ds, msg_ctime);
	SFIELD(struct linux_msqid64_ds, msg_cbytes, struct msqid64_ds, msg_cbytes);
	SFIELD(struct linux_msqid64_ds, msg_qnum, struct msqid64_ds, msg_qnum);
	SFIELD(struct linux_msqid64_ds, msg_qbytes, struct msqid64_ds, msg_qbytes);
	SFIELD(struct linux_msqid64_ds, msg_lspid, struct msqid64_ds, msg_lspid);
	SFIELD(struct linux_msqid64_ds, msg_lrpid, struct msqid64_ds, msg_lrpid);
	SIZE(struct linux_msginfo, struct msginfo);
	SFIELD(struct linux_msginfo, msgpool, struct msginfo, msgpool);
	SFIELD(struct linux_msginfo, msgtql, struct msginfo, msgtql);
	SFIELD(struct linux_msginfo, msgseg, struct msginfo, msgseg);

	C(MQ_PRIO_MAX);
	C(NOTIFY_COOKIE_LEN);
	SIZE(struct linux_mq_attr, struct mq_attr);
	SFIELD(struct linux_mq_attr, mq_flags, struct mq_attr, mq_flags);
	SFIELD(struct linux_mq_attr, mq_maxmsg, struct mq_attr, mq_maxmsg);
	SFIELD(struct linux_mq_attr, mq_msgsize, struct mq_attr, mq_msgsize);
	SFIELD(struct linux_mq_attr, mq_curmsgs, struct mq_attr, mq_curmsgs);
	C(SIGEV_SIGNAL);
	C(SIGEV_NONE);
	C(SIGEV_THREAD);
	C(SIGEV_THREAD_ID);
	SIZE(struct linux_mq_sigevent, struct sigevent);
	FIELD(struct linux_mq_sigevent, sigev_value, struct sigevent, sigev_value);
	SFIELD(struct linux_mq_sigevent, sigev_signo, struct sigevent, sigev_signo);
	SFIELD(struct linux_mq_sigevent, sigev_notify, struct sigevent, sigev_notify);
	FIELD(struct linux_mq_sigevent, un.tid, struct sigevent, _sigev_un._tid);
}

int main(void)
{
	check_errno();
	check_types();
	check_stat();
	check_fcntl();
	check_mman();
	check_signal();
	check_auxv_elf();
	check_ioctl();
	check_misc();
	check_socket();
	check_netlink();
	check_sock_diag();
	check_ipc();

	printf("1..%d\n", n_pass + n_fail);
	printf("%d passed, %d failed\n", n_pass, n_fail);
	return n_fail ? 1 : 0;
}
