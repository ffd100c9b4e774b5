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
long host_pread(int fd, void *buf, size_t n, int64_t off);
long host_lseek(int fd, int64_t off, int whence);
int host_fstat(int fd, struct linux_stat *st);
int host_statx(int fd, unsigned mask, struct linux_statx *stx);
long host_getdents64(int fd, void *buf, size_t n);
long host_readlinkat_in_root(int root_fd, const char *path, char *buf, size_t n);
long host_fgetxattr(int fd, const char *name, void *buf, size_t n);
long host_flistxattr(int fd, char *buf, size_t n);
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
int host_ioctl_tty(int fd, unsigned long cmd, void *arg, size_t size);

/* hostfs: one component at a time beneath a directory fd, never
 * following a host symlink. */
int host_lookup_at(int dir_fd, const char *name); /* O_PATH|O_NOFOLLOW */
int host_reopen(int path_fd, unsigned flags);	  /* a real fd from O_PATH */
int host_create_at(int dir_fd, const char *name, unsigned mode);
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
int host_fstatfs(int fd, struct linux_statfs *st);
int host_memfd(const char *name);
long host_fsetxattr(int fd, const char *name, const void *val, size_t n, int flags);
long host_fremovexattr(int fd, const char *name);

/* Time and randomness. */
int64_t host_clock_ns(int clock_id);
int host_clock_res_ns(int clock_id, int64_t *res);
int host_getrandom(void *buf, size_t n);
int host_uname(struct linux_utsname *u);
/* The host's memory figures (bytes), for the guest's sysinfo. */
int host_meminfo(uint64_t *total, uint64_t *free, uint64_t *shared, uint64_t *buffers);
unsigned long host_auxv(unsigned long type);

/* The event loop: wait for fds to be ready or a timeout (ns, -1 forever). */
int host_evloop_init(void);
int host_evloop_add(int fd, bool write, void *cookie);
int host_evloop_del(int fd);
/* Waits; calls fn(cookie) for each ready fd; returns how many. */
int host_evloop_wait(int64_t timeout_ns, void (*fn)(void *cookie));
/* Does the event loop have anything to wait for besides the platform? */
bool host_evloop_busy(void);

/* Process-level. host_init: ignore SIGPIPE (a guest gets EPIPE). */
int host_init(void);
int host_pin_cpu(void);
int host_ncpus(void);
int host_current_cpu(void);
void host_log_write(const char *buf, size_t n);
int host_log_open(const char *path);
/* Opens a file for a trace or log: returns the host fd. */
int host_log_open_extra(const char *path);
void host_write_all(int fd, const char *buf, size_t n);
void host_exit(int status) __attribute__((noreturn));
void host_kill_self(int signo) __attribute__((noreturn));

#endif
