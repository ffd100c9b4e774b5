/* host/host.h: the only door from the kernel to the host for guest work.
 * Every function returns >= 0 or -errno (EINTR is retried inside); types are
 * the guest ABI's (include/abi/linux) or plain C, never the host libc's. */
#ifndef HOST_HOST_H
#define HOST_HOST_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

struct linux_stat;
struct linux_statx;
struct linux_utsname;
struct linux_statfs;
struct linux_timespec;
struct linux_termios2;
struct linux_winsize;

/* Files. A "root" fd confines every lookup beneath it (openat2's
 * RESOLVE_IN_ROOT, no magic links); a host fd is closed with host_close. */
int host_open_root(const char *path);
int host_openat_in_root(int root_fd, const char *path, int flags, int mode);
int host_close(int fd);
int host_dup(int fd);
/* The canonical host path of a path or an fd; malloc'ed, NULL on error. */
char *host_realpath(const char *path);
char *host_fd_path(int fd);
long host_read(int fd, void *buf, size_t n);
long host_write(int fd, const void *buf, size_t n);
/* A socket's read and write that never block (recvmsg and sendmsg with
 * MSG_DONTWAIT; EPIPE without the host's SIGPIPE): -EAGAIN instead. */
long host_recv_nowait(int fd, void *buf, size_t n);
long host_send_nowait(int fd, const void *buf, size_t n);
/* read(2) and write(2) that never block (preadv2 and pwritev2 at the file
 * position with RWF_NOWAIT: pipes and FIFOs, not ttys): -EAGAIN instead,
 * -EOPNOTSUPP if the file cannot. */
long host_read_nowait(int fd, void *buf, size_t n);
long host_write_nowait(int fd, const void *buf, size_t n);
long host_pread(int fd, void *buf, size_t n, int64_t off);
long host_lseek(int fd, int64_t off, int whence);
int host_fstat(int fd, struct linux_stat *st);
int host_statx(int fd, unsigned mask, struct linux_statx *stx);
long host_getdents64(int fd, void *buf, size_t n);
long host_readlinkat_in_root(int root_fd, const char *path, char *buf, size_t n);
/* An O_PATH fd's xattrs (link: it is a symlink's, whose own cannot be
 * reached: none to read, EOPNOTSUPP to write). */
long host_fgetxattr(int fd, bool link, const char *name, void *buf, size_t n);
/* chattr's flags (FS_IOC_GETFLAGS) of the regular file or directory of
 * an O_PATH fd, through a read-only open of its own. */
int host_getflags(int path_fd, uint32_t *flags);
long host_flistxattr(int fd, bool link, char *buf, size_t n);
/* May a guest see fd through the host root: -ENOENT for procfs, sysfs and
 * the like. *io_ok: may it read it (not a block device, fifo, socket, or a
 * character device other than null/zero/random/urandom); *writable_dev:
 * may it write it although the root is read-only (null, zero). */
int host_fd_allowed(int fd, bool *io_ok, bool *writable_dev);
/* Would a read on fd block right now? */
bool host_fd_readable(int fd);
/* poll(2) of one host fd with no wait: POLLIN/POLLOUT/POLLHUP/POLLERR bits
 * (the same numbers as the guest's). */
unsigned host_fd_poll(int fd);
bool host_fd_is_tty(int fd);
/* A close-on-exec dup of the host's stdio fd (0, 1 or 2), above 2. */
int host_dup_stdio(int fd);
/* The open flags of a host fd (access mode, O_APPEND, O_NONBLOCK). */
unsigned host_fd_flags(int fd);
/* Sets or clears O_APPEND of a host fd's description. */
int host_fd_set_append(int fd, bool on);
int host_ioctl_tty(int fd, unsigned long cmd, void *arg, size_t size);

/* hostfs: one component at a time beneath a directory fd, never
 * following a host symlink. */
int host_lookup_at(int dir_fd, const char *name); /* O_PATH|O_NOFOLLOW */
/* fstatat of one name in dir_fd, not following a symlink. */
int host_stat_at(int dir_fd, const char *name, struct linux_stat *st);
int host_reopen(int path_fd, unsigned flags); /* a real fd from O_PATH */
int host_create_at(int dir_fd, const char *name, unsigned mode);
/* An unnamed file in dir_fd (O_TMPFILE, O_RDWR; excl: never linkable). */
int host_tmpfile_at(int dir_fd, unsigned mode, bool excl);
int host_mkdir_at(int dir_fd, const char *name, unsigned mode);
int host_mknod_at(int dir_fd, const char *name, unsigned mode, uint64_t dev);
int host_symlink_at(const char *target, int dir_fd, const char *name);
int host_link_at(int old_fd, int dir_fd, const char *name);
int host_unlink_at(int dir_fd, const char *name, bool is_dir);
int host_rename_at(int odir_fd, const char *oname, int ndir_fd, const char *nname, unsigned flags);
int host_chmod_fd(int path_fd, unsigned mode);
int host_chown_fd(int path_fd, uint32_t uid, uint32_t gid);
int host_truncate_fd(int path_fd, uint64_t size);
int host_utimens_fd(int path_fd, const struct linux_timespec *ts);
long host_readlink_fd(int path_fd, char *buf, size_t n);
long host_pwrite(int fd, const void *buf, size_t n, int64_t off);
int host_ftruncate(int fd, uint64_t size);
int host_fallocate(int fd, int mode, int64_t off, int64_t len);
int host_fstatfs(int fd, struct linux_statfs *st);
int host_memfd(const char *name);
long host_fsetxattr(int fd, bool link, const char *name, const void *val, size_t n, int flags);
long host_fremovexattr(int fd, bool link, const char *name);

/* Time and randomness. */
int64_t host_clock_ns(int clock_id);
int host_clock_res_ns(int clock_id, int64_t *res);
int host_getrandom(void *buf, size_t n);
int host_uname(struct linux_utsname *u);
/* The host's membarrier(2) with no flags: MEMBARRIER_CMD_QUERY's mask, or
 * 0 for MEMBARRIER_CMD_GLOBAL (a full barrier on every host CPU); -errno
 * (-ENOSYS: the host has none). The sandbox allows only those two. */
int host_membarrier(int cmd);
/* Which of npages pages of the host file fd from off (page-aligned) are in
 * the host's page cache, as the host's mincore says of a private read-only
 * mapping of them made for the question (no page is faulted in): 1 is
 * or'ed into vec[i] for each one that is. 0, or -errno (fd not readable
 * or not mappable: vec unchanged). */
int host_fd_mincore(int fd, uint64_t off, size_t npages, unsigned char *vec);
/* The host's memory figures (bytes), for the guest's sysinfo. */
int host_meminfo(uint64_t *total, uint64_t *free, uint64_t *shared, uint64_t *buffers);
unsigned long host_auxv(unsigned long type);
/* The host's vDSO image, len bytes (its [vdso] mapping's length), with
 * clock_gettime's entry made the system call (a task in a time namespace
 * must have its offsets added): built once from the kernel's own vDSO,
 * which is the stubs'. NULL if there is none, it is shorter than len, or
 * its symbols cannot be read. */
const void *host_vdso_clock_syscall(size_t len);
/* The host's answer to arch_prctl(code, &v) for ARCH_GET_XCOMP_SUPP,
 * ARCH_GET_XCOMP_PERM or ARCH_GET_XCOMP_GUEST_PERM (the XSAVE features a
 * thread may use, Linux 5.16), as the kernel process got it at start:
 * 0, or -errno (-EINVAL: an older host). */
int host_xcomp(int code, uint64_t *v);
/* File i of the host's /sys/devices/system/cpu/vulnerabilities as read at
 * host_init: its name, and its text (with the newline) in *text; NULL past
 * the last (none if the host has no such directory). */
const char *host_cpu_vuln(int i, const char **text);
/* CPU accounting of a host thread (cputime.c): run time in ns, the
 * user/system split and page faults as the host counted them (ticks of
 * 1/100 s); a stub's peak resident set in kB. */
struct host_cputime {
	int64_t rt_ns;
	uint64_t uticks, sticks;
	uint64_t minflt, majflt;
};
/* Opens /proc for the reads below (host_init, before the sandbox). */
void host_cputime_init(void);
/* The host thread tid of stub pid; last: the thread is about to go (its
 * kept fds go too); maxrss_kb (may be NULL): the stub's peak resident set
 * as well (-errno if unknown), in the same few host calls. */
int host_thread_cputime(int pid, int tid, bool last, struct host_cputime *out, long *maxrss_kb);
/* Closes what the reads above keep for thread tid of stub pid, which goes
 * without a last read (its count comes from the stub's reaping). */
void host_cputime_forget(int pid, int tid);
/* Only the run time (one file read instead of two, usually one pread);
 * 0 if unknown. */
int64_t host_thread_runtime_ns(int pid, int tid);
long host_proc_maxrss_kb(int pid);
/* A stub's resident memory (its /proc status), kB: 0 or -errno. */
struct host_rss {
	long anon_kb, file_kb, shmem_kb, hwm_kb;
};
int host_proc_rss(int pid, struct host_rss *out);
/* A stub's mappings as its /proc/PID/smaps counts them (kB), in address
 * order: *out (malloc'ed) and their number, or -errno. */
enum {
	HOST_SM_RSS,
	HOST_SM_PSS,
	HOST_SM_PSS_DIRTY,
	HOST_SM_SHARED_CLEAN,
	HOST_SM_SHARED_DIRTY,
	HOST_SM_PRIVATE_CLEAN,
	HOST_SM_PRIVATE_DIRTY,
	HOST_SM_REFERENCED,
	HOST_SM_ANONYMOUS,
	HOST_SM_LAZYFREE,
	HOST_SM_ANONHUGE,
	HOST_SM_SWAP,
	HOST_SM_SWAPPSS,
	HOST_SM_LOCKED,
	HOST_SM_N
};
struct host_smap {
	uint64_t start, end;
	uint64_t kb[HOST_SM_N];
};
long host_proc_smaps(int pid, struct host_smap **out);
/* The name of count i, as smaps spells it ("Rss"). */
const char *host_smap_name(int i);
/* A stub's /proc/PID/pagemap (a host fd, or -errno), and what it says
 * of [start, end) (PAGEMAP_SCAN; before Linux 6.7 the entries one by one,
 * which cannot tell the zero page):
 * - host_pagemap_present: how many pages are present, the zero page not
 *   counted, stopping at max (0: no limit), or -errno;
 * - host_pagemap_classes: a byte a page, 0 for none, 1 present, 2 the
 *   zero page; 0 or -errno. */
int host_pagemap_open(int pid);
long host_pagemap_present(int fd, uint64_t start, uint64_t end, long max);
int host_pagemap_classes(int fd, uint64_t start, uint64_t end, unsigned char *cls);
/* The ioctl they make (Linux's PAGEMAP_SCAN: a struct pm_scan_arg of 96
 * bytes), for the kernel's own filter. */
#define HOST_PAGEMAP_SCAN _IOWR('f', 16, uint64_t[12])
/* A stub's /proc/PID/numa_maps: each mapping's start and end (0 when
 * /proc/PID/maps no longer has it), its pages (the sum of its N<node> counts) and
 * the counts below (active: all its pages when the host left it out, as
 * Linux does when none is inactive). A malloc'ed array and its length, or
 * -errno. */
enum {
	HOST_NUMA_ANON,
	HOST_NUMA_DIRTY,
	HOST_NUMA_MAPMAX,
	HOST_NUMA_SWAPCACHE,
	HOST_NUMA_ACTIVE,
	HOST_NUMA_WRITEBACK,
	HOST_NUMA_N
};
struct host_numa {
	uint64_t start, end, pages;
	uint64_t count[HOST_NUMA_N];
};
long host_proc_numa_maps(int pid, struct host_numa **out);
/* The host CPU a stub thread last ran on (/proc stat's processor). */
int host_thread_cpu(int pid, int tid);
/* adjtimex of the host clock with modes 0 or ADJ_OFFSET_SS_READ only
 * (timex.c): the clock state, -EPERM for any other modes. */
struct linux_timex;
int host_adjtime_read(unsigned modes, struct linux_timex *out);

/* The event loop: wait for fds to be ready or a timeout (ns, -1 forever). */
int host_evloop_init(void);
/* Waits; runs the watches of the fds that are ready; returns how many. */
int host_evloop_wait(int64_t timeout_ns);
/* Does the event loop have anything to wait for besides the platform? */
bool host_evloop_busy(void);
/* Changes whenever host_evloop_wait consumed a SIGCHLD: a platform that
 * watches SIGCHLD itself knows it must reap. */
unsigned host_evloop_sigchld_count(void);
/* A persistent watch: fn(arg) runs in the idle loop each time fd is ready
 * for reading (or writing), until paused or removed. */
int host_evloop_watch(int fd, bool write, void (*fn)(void *arg), void *arg);
int host_evloop_watch_pause(int fd, bool paused);
/* The platform's own fd (its traps): it ends host_evloop_wait, which runs
 * nothing for it (the idle loop polls the platform after every wait), and
 * it does not count in host_evloop_busy. */
int host_evloop_watch_platform(int fd);
/* SIGCHLD, blocked and read through signalfds, goes to a handler that
 * counts it (host_evloop_sigchld_count) while unblocked: a platform whose
 * wait no epoll covers unblocks it, and host_ioctl_unless's wait ends with
 * -EINTR at a SIGCHLD that comes after seen. Every epoll
 * wait blocks it first (host_sigchld_block: true if it was unblocked, a
 * SIGCHLD may be in the count only), and so does a platform's wait for one
 * stub; host_evloop_wait then waits no time, the idle loop looks at the
 * platform first. */
int host_sigchld_unblock(void);
bool host_sigchld_block(void);
/* The kernel's blocking waits, with -errno: each ends with -EINTR, never
 * blocking, if a signal of skas's (SIGCHLD while unblocked, a forwarded
 * one: host_init) came since host_wake_seen said seen; so a caller that
 * takes seen, then looks at what the signals record, then waits, loses
 * none to the instructions in between. */
unsigned host_wake_seen(void);
long host_ioctl_unless(int fd, unsigned long req, void *arg, unsigned seen);
long host_wait4_unless(int pid, int *status, int options, unsigned seen);
struct epoll_event;
/* timeout_ns: -1 none, else to the ns (whole ms on a host before 5.11) */
long host_epoll_wait_unless(int fd, struct epoll_event *evs, int max, int64_t timeout_ns,
			    unsigned seen);
/* For skas's signal handlers: counts the signal, and ends a wait above
 * that has not begun. */
void host_wake_window(void *ucontext);
int host_evloop_unwatch(int fd);
/* An edge-triggered watch (the host's EPOLLET): fn(arg, events) runs in the
 * idle loop at each readiness event of fd for reading (or writing), with
 * the poll bits it reports (the guest's LINUX_POLL* values): each write
 * into a host pipe is one event, a ready fd that nobody writes to gives
 * none. Registering a ready fd gives one event at once. w is the caller's,
 * and stays in use until host_evloop_edge_del. */
struct host_edge_watch {
	int fd; /* -1 when not registered */
	void (*fn)(void *arg, unsigned events);
	void *arg;
};
int host_evloop_edge_add(struct host_edge_watch *w, int fd, bool write);
/* The same for both directions of a socket: each event reports its
 * readiness for reading and writing (host sockets of --net=host). */
int host_evloop_edge_add_rw(struct host_edge_watch *w, int fd);
void host_evloop_edge_del(struct host_edge_watch *w);
/* Runs the edge watches' pending events now, so that a listener attached
 * next hears only of later ones. */
void host_evloop_edge_flush(void);

/* The host terminal (term.c). host_term_make_raw saves fd's settings and
 * makes it raw (no echo, signals, or input and output processing); they
 * come back with host_term_restore, at exit, on a fatal signal to skas,
 * and while skas is stopped. */
int host_term_make_raw(int fd);
void host_term_restore(void);
/* Waits up to timeout_ms for fd to take a write: 1, 0 on timeout, -errno. */
int host_fd_wait_writable(int fd, int timeout_ms);
/* Is skas in the foreground process group of the terminal fd? */
bool host_term_is_foreground(int fd);
/* fd's settings (without the speed fields) and window size in the guest
 * ABI's types. */
int host_term_get(int fd, struct linux_termios2 *tio);
int host_term_winsize(int fd, struct linux_winsize *ws);
/* fn(arg) runs in the event loop after each SIGWINCH to skas. */
int host_term_on_winch(void (*fn)(void *arg), void *arg);

/* Process-level. host_init: ignore SIGPIPE (a guest gets EPIPE); record
 * SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1 and SIGUSR2 to skas for the
 * guest instead of dying of them. host_signals_take: the recorded ones
 * (bit sig - 1), cleared; a blocking platform or event-loop wait returns
 * early when one arrives. */
int host_init(void);
uint64_t host_signals_take(void);
/* Whether one is recorded and not yet taken: a wait about to block looks,
 * after host_wake_seen (one that comes after the look ends the wait). */
bool host_signals_pending(void);
int host_pin_cpu(void);
/* Lets the kernel (and the stubs it starts next) run on n CPUs from first
 * on (wrapping), for --cpus. */
int host_set_cpus(int first, int n);
/* Lets the kernel (and the stubs it starts next) run on every CPU skas was
 * given, until host_pin_cpu pins it to its CPU again. */
int host_unpin_cpu(void);
/* Moves a guest thread (host tid) off the kernel's CPU, onto the host's
 * others (out), or back onto the kernel's; -ENOSYS if the kernel is not
 * pinned to one CPU of several. */
int host_thread_spill(int tid, bool out);
/* Raises the kernel's own RLIMIT_NOFILE to its hard limit (hostfs files,
 * tmpfs memfds and the stubs' fds are host fds); returns the limit. */
long host_raise_nofile(void);
int host_ncpus(void);
int host_current_cpu(void);
/* Takes back glibc's rseq registration of the kernel's thread (see
 * host.c); 0 or -errno (nothing registered, or a glibc that did it its own
 * way: the registration stays, which only costs time). */
int host_rseq_unregister(void);
void host_log_write(const char *buf, size_t n);
int host_log_open(const char *path);
/* Opens a file for a trace or log: returns the host fd. */
int host_log_open_extra(const char *path);
void host_write_all(int fd, const char *buf, size_t n);
void host_exit(int status) __attribute__((noreturn));
void host_kill_self(int signo) __attribute__((noreturn));

/* The sandbox (host/sandbox.c). host_sandbox_set_user: --host-user=UID[:GID],
 * the host user the kernel and its stubs become when started by root
 * (default 65534, "nobody"; 0 keeps root with only its file capabilities);
 * -EINVAL if spec is not one. host_sandbox_child: in a forked stub-to-be,
 * before exec: that user, rlimits, fresh namespaces and an empty root where
 * the host allows (logs one line for what it does not). host_sandbox_enter:
 * once, after start-up and before the first guest process: that user, no
 * capabilities, no_new_privs and the kernel's seccomp allowlist; a host call
 * off the list then kills the kernel with a log line naming it (name(nr),
 * called from a signal handler: NULL if unknown). Exits with
 * a message if it cannot: a kernel that cannot box itself runs no guest.
 * host_sandbox_count: how many host calls the allowlist names. */
int host_sandbox_set_user(const char *spec);
int host_sandbox_child(void);
void host_sandbox_enter(const char *(*name)(int nr));
int host_sandbox_count(void);
/* --net=host: the allowlist gains the socket calls of host/hostnet.c. */
void host_sandbox_allow_net(void);
/* The sigsys platform: the allowlist gains perf_event_open of one thread
 * (its hardware breakpoints). */
void host_sandbox_allow_perf(void);
/* Is the kernel running under valgrind? (Then it is not boxed, and a
 * forked stub-to-be cannot lower its fd limit before exec.) */
bool host_under_valgrind(void);
/* Under valgrind, tells it about a kernel stack (so that switching stacks
 * is not taken for a huge frame); otherwise nothing. */
unsigned host_stack_register(void *base, size_t size);
void host_stack_deregister(unsigned id);
/* A kernel stack of size bytes (a multiple of the page size) with an
 * inaccessible page below it: an overflow faults there at once rather
 * than write over the heap. NULL if the host has no memory. */
void *host_stack_alloc(size_t size);
void host_stack_free(void *base, size_t size);
/* The RLIMIT_DATA of every stub started from now on (a --memory backstop). */
void host_sandbox_set_stub_data(uint64_t bytes);
/* Lifts that limit for stub pid (its guest maps MAP_NORESERVE memory). */
int host_stub_data_unlimit(int pid);

#endif
