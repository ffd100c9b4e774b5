/* host/sandbox.c: the walls around skas's own host processes (DESIGN.md,
 * "Security, in layers", 3 and 5). host_sandbox_enter boxes the kernel once
 * it has started: an unprivileged host user when started by root, no
 * capability it does not need, no_new_privs and a seccomp allowlist of the
 * host calls it makes. host_sandbox_child boxes a stub-to-be before it execs:
 * the same host user, small rlimits, fresh namespaces and an empty root. */
#define _GNU_SOURCE
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <linux/fs.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/mount.h>
#include <sys/ioctl.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <linux/sockios.h>
#include <sys/syscall.h>
#include <seccomp.h>
#include <linux/futex.h>
#include <linux/perf_event.h>

#include "host/host.h"
#include "kernel/log.h"

/* The host user the kernel and its stubs become when started by root:
 * --host-user, "nobody" unless told otherwise; 0 keeps root. The kernel
 * keeps CAP_DAC_READ_SEARCH: it still reads every host file the root who
 * started it could (the guest, root inside, sees the host's / as root
 * would), but it writes (--rw, -v) only where that user may. */
static uid_t host_uid = 65534;
static gid_t host_gid = 65534;

/* The capabilities the kernel keeps when started by root: as the host
 * user, reading; with --host-user=0, the file access a root user expects
 * from hostfs. Everything else (admin, net, modules, ptrace or kill of
 * others' processes, raw I/O) goes. */
#define USER_FILE_CAPS (1ULL << CAP_DAC_READ_SEARCH)
#define ROOT_FILE_CAPS                                                             \
	((1ULL << CAP_CHOWN) | (1ULL << CAP_DAC_OVERRIDE) | (1ULL << CAP_FOWNER) | \
	 (1ULL << CAP_FSETID) | (1ULL << CAP_DAC_READ_SEARCH))

int host_sandbox_set_user(const char *spec)
{
	unsigned long uid, gid;
	char *end;

	errno = 0;
	uid = strtoul(spec, &end, 10);
	if (end == spec || errno || uid > 0xfffffffeUL)
		return -EINVAL;
	gid = uid;
	if (*end == ':') {
		spec = end + 1;
		gid = strtoul(spec, &end, 10);
		if (end == spec || errno || gid > 0xfffffffeUL)
			return -EINVAL;
	}
	if (*end)
		return -EINVAL;
	host_uid = (uid_t)uid;
	host_gid = (gid_t)gid;
	return 0;
}

/* Only root changes host user; anyone else already is one. */
static bool drop_user(void)
{
	return geteuid() == 0 && host_uid != 0;
}

/* keep_caps: the permitted capabilities survive (for set_caps to pick
 * from); otherwise the change of user clears them all. */
static int become_host_user(bool keep_caps)
{
	int ret = 0;

	if (keep_caps && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
		return -errno;
	if (setgroups(0, NULL) < 0 || setresgid(host_gid, host_gid, host_gid) < 0 ||
	    setresuid(host_uid, host_uid, host_uid) < 0)
		ret = -errno;
	prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
	return ret;
}

/* Drops every capability but keep from the bounding set, where we may
 * (it takes CAP_SETPCAP, so before a change of user), and the ambient set. */
static void drop_bounding(uint64_t keep)
{
	int cap;

	for (cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
		if (!(keep & (1ULL << cap)))
			prctl(PR_CAPBSET_DROP, cap, 0, 0, 0); /* EPERM if not ours */
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
}

/* Keeps exactly the capabilities in keep, permitted and effective; none
 * inheritable. */
static int set_caps(uint64_t keep)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	data[0].effective = data[0].permitted = (uint32_t)keep;
	data[1].effective = data[1].permitted = (uint32_t)(keep >> 32);
	if (syscall(SYS_capset, &hdr, data) < 0)
		return -errno;
	return 0;
}

/*
 * The stub-to-be's box. Runs in the forked child of a single-threaded
 * kernel, before it execs the stub image, so it may log. Fresh user, mount,
 * net, ipc, uts and cgroup namespaces: no pid namespace, as a stub names no
 * pid in any call it may make, and the first stub forked into one would be
 * its init (its exit would end the namespace, and init may not use
 * CLONE_PARENT, which every stub fork does).
 */
#define STUB_NAMESPACES \
	(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP)

static const struct {
	int flag;
	const char *name;
} stub_ns[] = {
	{ CLONE_NEWUSER, "user" }, { CLONE_NEWNS, "mount" }, { CLONE_NEWNET, "net" },
	{ CLONE_NEWIPC, "ipc" },   { CLONE_NEWUTS, "uts" },  { CLONE_NEWCGROUP, "cgroup" },
};

/* The root becomes an empty, read-only tmpfs that is attached nowhere:
 * nothing of the host's file tree is left to name. */
static int empty_root(void)
{
	int fs_fd, mnt_fd, ret = 0;

	fs_fd = (int)syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
	if (fs_fd < 0)
		return -errno;
	if (syscall(SYS_fsconfig, fs_fd, FSCONFIG_SET_STRING, "size", "4k", 0) < 0 ||
	    syscall(SYS_fsconfig, fs_fd, FSCONFIG_SET_STRING, "mode", "0100", 0) < 0 ||
	    syscall(SYS_fsconfig, fs_fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		ret = -errno;
		close(fs_fd);
		return ret;
	}
	mnt_fd = (int)syscall(SYS_fsmount, fs_fd, FSMOUNT_CLOEXEC,
			      MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
				      MOUNT_ATTR_NOEXEC);
	close(fs_fd);
	if (mnt_fd < 0)
		return -errno;
	if (fchdir(mnt_fd) < 0 || chroot(".") < 0 || chdir("/") < 0)
		ret = -errno;
	close(mnt_fd);
	return ret;
}

/* No core file of guest memory, no file writes, no locked memory, no
 * message queues. (RLIMIT_NOFILE comes once the stub's fds are in place.) */
/* A backstop under --memory: a stub's private writable memory, as the host
 * counts it. The kernel's own count (mm/commit.c) is what the guest meets.
 * Only the soft limit: the kernel lifts it for a stub whose guest maps
 * MAP_NORESERVE memory, which the host counts there too (the kernel samples
 * that memory instead); no stub code raises its own. */
static rlim_t stub_data_max = RLIM_INFINITY;

void host_sandbox_set_stub_data(uint64_t bytes)
{
	stub_data_max = bytes;
}

int host_stub_data_unlimit(int pid)
{
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };

	return prlimit(pid, RLIMIT_DATA, &rl, NULL) < 0 ? -errno : 0;
}

static int stub_rlimits(void)
{
	static const struct {
		int res;
		rlim_t max;
	} lim[] = {
		{ RLIMIT_CORE, 0 },
		{ RLIMIT_FSIZE, 0 },
		{ RLIMIT_MEMLOCK, 0 },
		{ RLIMIT_MSGQUEUE, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(lim) / sizeof(lim[0]); i++) {
		struct rlimit rl = { lim[i].max, lim[i].max };

		if (setrlimit(lim[i].res, &rl) < 0)
			return -errno;
	}
	if (stub_data_max != RLIM_INFINITY &&
	    setrlimit(RLIMIT_DATA, &(struct rlimit){ stub_data_max, RLIM_INFINITY }) < 0)
		return -errno;
	return 0;
}

int host_sandbox_child(void)
{
	char missing[96] = "";
	int got = 0, ret;
	size_t i;

	if (drop_user()) {
		ret = become_host_user(false);
		if (ret < 0)
			return ret;
	}
	if (unshare(STUB_NAMESPACES) == 0) {
		got = STUB_NAMESPACES;
	} else {
		/* One at a time: a host may refuse some (no user namespaces
		 * for unprivileged users, a container without CAP_SYS_ADMIN). */
		for (i = 0; i < sizeof(stub_ns) / sizeof(stub_ns[0]); i++)
			if (unshare(stub_ns[i].flag) == 0)
				got |= stub_ns[i].flag;
	}
	for (i = 0; i < sizeof(stub_ns) / sizeof(stub_ns[0]); i++) {
		if (got & stub_ns[i].flag)
			continue;
		strcat(missing, missing[0] ? ", " : " ");
		strcat(missing, stub_ns[i].name);
	}
	ret = (got & CLONE_NEWNS) ? empty_root() : -EPERM;
	if (missing[0] || ret < 0)
		klog(LOG_INFO, "stub sandbox: the host refused%s%s%s", missing,
		     missing[0] ? " namespaces" : "",
		     ret < 0 ? "; the stubs keep the host's root" : "");
	return stub_rlimits(); /* last: RLIMIT_FSIZE would stop the log line */
}

/* ---- the kernel's own allowlist ---- */

static uint64_t listed[8]; /* the distinct host calls named, as a bitmap */

static int allow(scmp_filter_ctx ctx, int nr, unsigned ncmp, const struct scmp_arg_cmp *cmp)
{
	if (nr >= 0 && nr < 512)
		listed[nr / 64] |= 1ULL << (nr % 64);
	return seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, nr, ncmp, cmp) < 0 ? -1 : 0;
}

#define ALLOW(call) allow(ctx, SCMP_SYS(call), 0, NULL)
#define ALLOW_IF(call, ...)                                                                 \
	allow(ctx, SCMP_SYS(call),                                                          \
	      sizeof((struct scmp_arg_cmp[]){ __VA_ARGS__ }) / sizeof(struct scmp_arg_cmp), \
	      (struct scmp_arg_cmp[]){ __VA_ARGS__ })

/* Memory of the kernel itself: malloc, kernel stacks, the shared ops
 * pages. Never executable: after start-up no new code appears. */
static int allow_memory(scmp_filter_ctx ctx)
{
	int r = 0;

	/* malloc, kernel stacks; mprotect: their guard pages */
	r |= ALLOW_IF(mmap, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
	r |= ALLOW_IF(mprotect, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
	r |= ALLOW(munmap);  /* free, kstack_free */
	r |= ALLOW(mremap);  /* realloc of big blocks */
	r |= ALLOW(madvise); /* free giving pages back */
	r |= ALLOW(mincore); /* host_fd_mincore: a guest's mincore(2) */
	r |= ALLOW(brk);     /* malloc's main arena */
	return r;
}

/* host/host.c: host files for hostfs, tmpfs's memfds, the log. */
static int allow_files(scmp_filter_ctx ctx)
{
	int r = 0;

	r |= ALLOW(openat);	  /* open: host_reopen, the log, /proc/self/fd */
	r |= ALLOW(openat2);	  /* host_openat_in_root: RESOLVE_IN_ROOT lookups */
	r |= ALLOW(close);	  /* host_close */
	r |= ALLOW(read);	  /* host_read, signalfd, stdin */
	r |= ALLOW(write);	  /* host_write, the log, stdout/stderr */
	r |= ALLOW(pread64);	  /* host_pread: file reads, ELF loading */
	r |= ALLOW(pwrite64);	  /* host_pwrite: hostfs and tmpfs writes */
	r |= ALLOW(preadv2);	  /* host_read_nowait: a host stdio pipe shared */
	r |= ALLOW(pwritev2);	  /* host_write_nowait: the same */
	r |= ALLOW(lseek);	  /* host_lseek */
	r |= ALLOW(fstat);	  /* host_fstat with a glibc older than 2.33 */
	r |= ALLOW(newfstatat);	  /* host_fstat: glibc's fstat is fstatat(AT_EMPTY_PATH) */
	r |= ALLOW(statx);	  /* host_statx */
	r |= ALLOW(fstatfs);	  /* host_fstatfs, host_fd_allowed */
	r |= ALLOW(getdents64);	  /* host_getdents64 */
	r |= ALLOW(readlink);	  /* host_fd_path: readlink of /proc/self/fd/N */
	r |= ALLOW(readlinkat);	  /* host_readlink_fd */
	r |= ALLOW(mkdirat);	  /* host_mkdir_at */
	r |= ALLOW(mknodat);	  /* host_mknod_at */
	r |= ALLOW(unlinkat);	  /* host_unlink_at */
	r |= ALLOW(renameat2);	  /* host_rename_at */
	r |= ALLOW(symlinkat);	  /* host_symlink_at */
	r |= ALLOW(linkat);	  /* host_link_at */
	r |= ALLOW(fchmodat);	  /* host_chmod_fd: chmod of /proc/self/fd/N */
	r |= ALLOW(fchownat);	  /* host_chown_fd */
	r |= ALLOW(truncate);	  /* host_truncate_fd */
	r |= ALLOW(ftruncate);	  /* host_ftruncate: tmpfs memfds */
	r |= ALLOW(fallocate);	  /* host_fallocate: tmpfs memfds, hostfs files */
	r |= ALLOW(utimensat);	  /* host_utimens_fd */
	r |= ALLOW(getxattr);	  /* host_fgetxattr through /proc/self/fd/N */
	r |= ALLOW(listxattr);	  /* host_flistxattr */
	r |= ALLOW(setxattr);	  /* host_fsetxattr */
	r |= ALLOW(removexattr);  /* host_fremovexattr */
	r |= ALLOW(memfd_create); /* host_memfd: tmpfs files, shared memory */
	r |= ALLOW(fcntl);	  /* host_dup (F_DUPFD_CLOEXEC), host_fd_flags */
	r |= ALLOW(sendmsg);	  /* platform: an fd to a stub (SCM_RIGHTS) */
	r |= ALLOW(recvmsg);	  /* platform: drain fds a failed batch left */
	/* host_ioctl_tty and isatty on the host's terminal: read and set the
	 * modes and window size; never TIOCSTI (typing into the host). */
	r |= ALLOW_IF(ioctl, SCMP_A1_32(SCMP_CMP_EQ, TCGETS));
	r |= ALLOW_IF(ioctl, SCMP_A1_32(SCMP_CMP_EQ, TCSETS));
	r |= ALLOW_IF(ioctl, SCMP_A1_32(SCMP_CMP_EQ, TCSETSW));
	r |= ALLOW_IF(ioctl, SCMP_A1_32(SCMP_CMP_EQ, TCSETSF));
	r |= ALLOW_IF(ioctl, SCMP_A1_32(SCMP_CMP_EQ, TIOCGWINSZ));
	/* host_getflags: a host file's chattr flags (reading them only) */
	r |= ALLOW_IF(ioctl, SCMP_A1_32(SCMP_CMP_EQ, (uint32_t)FS_IOC_GETFLAGS));
	/* host_pagemap_present and _classes: a stub's present pages (the query only:
	 * the kernel never asks it to write-protect) */
	r |= ALLOW_IF(ioctl, SCMP_A1_32(SCMP_CMP_EQ, (uint32_t)HOST_PAGEMAP_SCAN));
	/* host/cputime.c: the /proc files of a sample, closed together */
	r |= ALLOW_IF(close_range, SCMP_A2(SCMP_CMP_EQ, 0));
	return r;
}

static bool perf_allowed; /* the sigsys platform */

void host_sandbox_allow_perf(void)
{
	perf_allowed = true;
}

/* platform/ptrace: running stubs. The requests are the ones the backend
 * uses on its own stubs: no ATTACH, SEIZE or PEEKDATA of anything else. */
static int allow_platform(scmp_filter_ctx ctx)
{
	static const int requests[] = {
		PTRACE_CONT,	  PTRACE_SYSEMU,	   PTRACE_GETREGS,    PTRACE_SETREGS,
		PTRACE_PEEKUSER,  PTRACE_POKEUSER,	   PTRACE_GETFPREGS,  PTRACE_SETFPREGS,
		PTRACE_GETREGSET, PTRACE_SETREGSET,	   PTRACE_GETSIGINFO, PTRACE_GETEVENTMSG,
		PTRACE_INTERRUPT, PTRACE_GET_SYSCALL_INFO,
	};
	size_t i;
	int r = 0;

	for (i = 0; i < sizeof(requests) / sizeof(requests[0]); i++)
		r |= ALLOW_IF(ptrace, SCMP_A0(SCMP_CMP_EQ, requests[i]));
	r |= ALLOW(wait4);				    /* waitpid: stub events */
	r |= ALLOW(process_vm_readv);			    /* copy_from_user */
	r |= ALLOW(process_vm_writev);			    /* copy_to_user, the stub's msghdr */
	r |= ALLOW_IF(kill, SCMP_A1(SCMP_CMP_EQ, SIGKILL)); /* a stub's end */
	r |= ALLOW_IF(futex, SCMP_A1(SCMP_CMP_EQ, FUTEX_WAKE)); /* a stub's doorbell */
	r |= ALLOW_IF(tgkill, SCMP_A2(SCMP_CMP_EQ, SIGKILL));	/* a stub thread's */
	r |= ALLOW_IF(tgkill, SCMP_A0(SCMP_CMP_EQ, getpid()));	/* raise: abort, host_kill_self */
	/* platform/sigsys: the interrupt of a guest thread; a wait for a
	 * thread's first trap lets it run. */
	r |= ALLOW_IF(tgkill, SCMP_A2(SCMP_CMP_EQ, SIGUSR2));
	r |= ALLOW(sched_yield);
	/* platform/sigsys alone: a guest thread's hardware breakpoint, a
	 * perf event on that one thread (a pid, any CPU, no group). */
	if (perf_allowed)
		r |= ALLOW_IF(perf_event_open, SCMP_A1_32(SCMP_CMP_GT, 0),
			      SCMP_A2_32(SCMP_CMP_EQ, (uint32_t)-1),
			      SCMP_A3_32(SCMP_CMP_EQ, (uint32_t)-1),
			      SCMP_A4(SCMP_CMP_EQ, PERF_FLAG_FD_CLOEXEC));
	/* platform/seccomp: a new guest thread's listener, taken from its stub
	 * or (PIDFD_THREAD, O_EXCL) from the thread's own fd table; its
	 * notifications received and answered. */
	r |= ALLOW_IF(pidfd_open, SCMP_A1(SCMP_CMP_EQ, 0));
	r |= ALLOW_IF(pidfd_open, SCMP_A1(SCMP_CMP_EQ, O_EXCL));
	r |= ALLOW_IF(pidfd_getfd, SCMP_A2(SCMP_CMP_EQ, 0));
	r |= ALLOW_IF(ioctl, SCMP_A1_32(SCMP_CMP_EQ, (uint32_t)SECCOMP_IOCTL_NOTIF_RECV));
	r |= ALLOW_IF(ioctl, SCMP_A1_32(SCMP_CMP_EQ, (uint32_t)SECCOMP_IOCTL_NOTIF_SEND));
	return r;
}

/* The event loop, signals, time and the rest of host/. */
static int allow_process(scmp_filter_ctx ctx)
{
	int r = 0;

	r |= ALLOW(epoll_wait);	     /* host_evloop_wait: the idle kernel */
	r |= ALLOW(epoll_pwait2);    /* the same to the ns (Linux 5.11) */
	r |= ALLOW(epoll_ctl);	     /* host_evloop_watch, _edge_add */
	r |= ALLOW(poll);	     /* host_fd_readable, host_fd_poll (no wait) */
	r |= ALLOW(rt_sigaction);    /* host_kill_self, abort */
	r |= ALLOW(rt_sigprocmask);  /* raise, abort */
	r |= ALLOW(rt_sigreturn);    /* the end of a host signal handler */
	r |= ALLOW(restart_syscall); /* a poll resumed after SIGSTOP/SIGCONT */
	r |= ALLOW(getpid);	     /* raise */
	r |= ALLOW(gettid);	     /* raise */
	r |= ALLOW(clock_gettime);   /* host_clock_ns, when the vDSO cannot */
	r |= ALLOW(clock_getres);    /* host_clock_res_ns, likewise */
	r |= ALLOW(getrandom);	     /* host_getrandom: the guest's AT_RANDOM, getrandom */
	/* host_membarrier: MEMBARRIER_CMD_QUERY and MEMBARRIER_CMD_GLOBAL */
	r |= ALLOW_IF(membarrier, SCMP_A0_32(SCMP_CMP_EQ, 0), SCMP_A1_32(SCMP_CMP_EQ, 0));
	r |= ALLOW_IF(membarrier, SCMP_A0_32(SCMP_CMP_EQ, 1), SCMP_A1_32(SCMP_CMP_EQ, 0));
	/* host_adjtime_read: reads only (and the kernel has no CAP_SYS_TIME) */
	r |= ALLOW_IF(clock_adjtime, SCMP_A0(SCMP_CMP_EQ, CLOCK_REALTIME));
	r |= ALLOW(uname);	       /* host_uname */
	r |= ALLOW(sysinfo);	       /* host_meminfo */
	r |= ALLOW(getcpu);	       /* host_current_cpu, when neither rseq nor the vDSO can */
	r |= ALLOW(sched_getaffinity); /* host_ncpus: glibc's sysconf may count by affinity */
	r |= ALLOW(sched_setaffinity); /* host_thread_spill: a guest thread's CPUs */
	/* host_stub_data_unlimit: only RLIMIT_DATA, only set */
	r |= ALLOW_IF(prlimit64, SCMP_A1(SCMP_CMP_EQ, RLIMIT_DATA), SCMP_A3(SCMP_CMP_EQ, 0));
	r |= ALLOW(exit_group); /* the end */
	return r;
}

static bool net_allowed; /* --net=host */

void host_sandbox_allow_net(void)
{
	net_allowed = true;
}

/* host/hostnet.c, with --net=host only: the guest's TCP and UDP sockets,
 * of the IP families only (no AF_UNIX, AF_NETLINK or AF_PACKET socket of
 * the host's); sendmsg, recvmsg, poll and close are on the list already. */
static int allow_net(scmp_filter_ctx ctx)
{
	int r = 0;
	static const int families[] = { AF_INET, AF_INET6 }, types[] = { SOCK_STREAM, SOCK_DGRAM };
	size_t f, ty;

	if (!net_allowed)
		return 0;
	/* only the streams and datagrams host_net_socket makes (never
	 * SOCK_RAW or SOCK_PACKET, should the kernel have CAP_NET_RAW) */
	for (f = 0; f < 2; f++)
		for (ty = 0; ty < 2; ty++)
			r |= ALLOW_IF(socket, SCMP_A0_32(SCMP_CMP_EQ, (uint32_t)families[f]),
				      SCMP_A1_32(SCMP_CMP_EQ, (uint32_t)(types[ty] | SOCK_NONBLOCK |
									 SOCK_CLOEXEC)));
	r |= ALLOW(bind);
	r |= ALLOW(connect);
	r |= ALLOW(listen);
	r |= ALLOW_IF(accept4, SCMP_A3_32(SCMP_CMP_EQ, SOCK_NONBLOCK | SOCK_CLOEXEC));
	r |= ALLOW(getsockname);
	r |= ALLOW(getpeername);
	r |= ALLOW(setsockopt);
	r |= ALLOW(getsockopt);
	r |= ALLOW(shutdown);
	/* host_net_ioctl: the queues' counts and the urgent mark */
	r |= ALLOW_IF(ioctl, SCMP_A1_32(SCMP_CMP_EQ, FIONREAD));
	r |= ALLOW_IF(ioctl, SCMP_A1_32(SCMP_CMP_EQ, SIOCOUTQ));
	r |= ALLOW_IF(ioctl, SCMP_A1_32(SCMP_CMP_EQ, SIOCATMARK));
	return r;
}

#ifdef __SANITIZE_ADDRESS__
/* The ASan build only: LeakSanitizer stops the kernel at exit from a
 * tracer task (clone, ptrace attach, dumpable), and the runtime's own
 * stacks and locks. */
static int allow_sanitizer(scmp_filter_ctx ctx)
{
	int r = 0;

	r |= ALLOW_IF(clone,
		      SCMP_A0(SCMP_CMP_EQ, CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_UNTRACED));
	r |= ALLOW_IF(ptrace, SCMP_A0(SCMP_CMP_EQ, PTRACE_ATTACH));
	r |= ALLOW_IF(ptrace, SCMP_A0(SCMP_CMP_EQ, PTRACE_DETACH));
	r |= ALLOW_IF(prctl, SCMP_A0(SCMP_CMP_EQ, PR_GET_DUMPABLE));
	r |= ALLOW_IF(prctl, SCMP_A0(SCMP_CMP_EQ, PR_SET_DUMPABLE));
	r |= ALLOW_IF(prctl, SCMP_A0(SCMP_CMP_EQ, PR_SET_PDEATHSIG));
	r |= ALLOW_IF(prctl, SCMP_A0(SCMP_CMP_EQ, PR_SET_PTRACER));
	r |= ALLOW(getppid);	 /* the tracer watches its parent */
	r |= ALLOW(open);	 /* the runtime's own calls: /proc/self/task, maps */
	r |= ALLOW(getdents);	 /* likewise */
	r |= ALLOW(pipe2);	 /* a report tests memory for readability */
	r |= ALLOW(sigaltstack); /* the runtime's signal stack */
	r |= ALLOW(futex);	 /* its locks */
	r |= ALLOW(sched_yield); /* its spin waits */
	return r;
}
#else
static int allow_sanitizer(scmp_filter_ctx ctx)
{
	(void)ctx;
	return 0;
}
#endif

/* A call off the list is a kernel bug (or an attack): say which, and die
 * of SIGSYS as SCMP_ACT_KILL_PROCESS would, through the handler that was
 * there before (host/term.c's gives the host terminal back). The name
 * comes from the caller's table (host_sandbox_enter), which allocates
 * nothing; libseccomp's lookup of all 512 in advance was ~1M instructions,
 * most of a start-up's user time. */
static const char *(*call_name)(int nr);
static struct sigaction old_sigsys;

static void denied(int signo, siginfo_t *si, void *uc)
{
	char buf[200];
	int nr = si->si_syscall, n;
	const char *name = call_name ? call_name(nr) : NULL;
	struct sigaction sa;

	(void)uc;
	n = snprintf(buf, sizeof(buf),
		     "skas: sandbox: the kernel made host call %d (%s), which is not on "
		     "its allowlist (src/host/sandbox.c)\n",
		     nr, name ? name : "?");
	host_log_write(buf, (size_t)n);
	sigaction(signo, &old_sigsys, NULL);
	raise(signo);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(signo, &sa, NULL);
	raise(signo);
	_exit(128 + signo);
}

static int load_filter(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_TRAP);
	struct sigaction sa;
	int ret;

	if (!ctx)
		return -ENOMEM;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = denied;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSYS, &sa, &old_sigsys);
	ret = -EINVAL;
	if (allow_memory(ctx) || allow_files(ctx) || allow_platform(ctx) || allow_process(ctx) ||
	    allow_net(ctx) || allow_sanitizer(ctx))
		goto out;
	/* A binary search on the call number, not one test after another in
	 * libseccomp's priority order: the calls the kernel makes most with
	 * arguments to check (the host skips the filter for the others) ran
	 * through 76-97 BPF instructions each, now 16-29 (ioctl NOTIF_RECV:
	 * 83 -> 17). The same allowlist; should the library refuse the
	 * attribute, the filter stays the linear one. */
	seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	ret = seccomp_load(ctx); /* sets no_new_privs first */
out:
	seccomp_release(ctx);
	return ret;
}

static int enter(void)
{
	uint64_t keep = 0;
	int ret;

	if (geteuid() == 0)
		keep = host_uid == 0 ? ROOT_FILE_CAPS : USER_FILE_CAPS;
	drop_bounding(keep);
	if (drop_user()) {
		ret = become_host_user(true);
		if (ret < 0)
			return ret;
	}
	ret = set_caps(keep);
	if (ret < 0)
		return ret;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -errno;
	klog(LOG_INFO, "sandbox: host user %u:%u, capabilities %#llx", (unsigned)getuid(),
	     (unsigned)getgid(), (unsigned long long)keep);
	ret = load_filter();
	if (ret == 0)
		klog(LOG_INFO, "sandbox: %d host calls allowed", host_sandbox_count());
	return ret;
}

bool host_under_valgrind(void)
{
#ifdef RUNNING_ON_VALGRIND
	return RUNNING_ON_VALGRIND;
#else
	return false;
#endif
}

unsigned host_stack_register(void *base, size_t size)
{
#ifdef VALGRIND_STACK_REGISTER
	return VALGRIND_STACK_REGISTER(base, (char *)base + size);
#else
	(void)base;
	(void)size;
	return 0;
#endif
}

void host_stack_deregister(unsigned id)
{
#ifdef VALGRIND_STACK_DEREGISTER
	if (id)
		VALGRIND_STACK_DEREGISTER(id);
#else
	(void)id;
#endif
}

#define GUARD_SIZE 4096

void *host_stack_alloc(size_t size)
{
	char *p = mmap(NULL, size + GUARD_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (mprotect(p + GUARD_SIZE, size, PROT_READ | PROT_WRITE) < 0) {
		munmap(p, size + GUARD_SIZE);
		return NULL;
	}
	return p + GUARD_SIZE;
}

void host_stack_free(void *base, size_t size)
{
	munmap((char *)base - GUARD_SIZE, size + GUARD_SIZE);
}

void host_sandbox_enter(const char *(*name)(int nr))
{
	int ret;

	call_name = name;
#ifdef SKAS_COVERAGE
	/* gcov writes its counters at exit, as the user that started skas:
	 * the coverage build (make coverage) is not boxed. */
	return;
#endif
	if (host_under_valgrind()) {
		/* valgrind runs inside the kernel's process and makes host calls of
	 * its own that no allowlist can foresee: under valgrind (memcheck of
		 * the kernel, tests/scenario/debug.sh) the kernel is not boxed. */
		klog(LOG_WARN, "sandbox: off under valgrind");
		return;
	}
	ret = enter();

	if (ret < 0) {
		fprintf(stderr, "skas: cannot box the kernel: %s\n", strerror(-ret));
		exit(1);
	}
}

int host_sandbox_count(void)
{
	int i, n = 0;

	for (i = 0; i < 8; i++)
		n += __builtin_popcountll(listed[i]);
	return n;
}
