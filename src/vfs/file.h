/* vfs/file.h: open file descriptions and per-process fd tables.
 * A struct file is shared by dup'ed fds and across fork; each filesystem
 * supplies its file_ops. Until the VFS issue lands, the only filesystem is
 * the read-only host root (fs/hostfs) plus the host's stdio. */
#ifndef VFS_FILE_H
#define VFS_FILE_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

#include "vfs/vfs.h"

struct file;
struct dir_snapshot;
struct poll_table;
struct linux_stat;
struct linux_statx;
struct task;

struct file_ops {
	/* Read/write into kernel buffers; may sleep. Return bytes or -errno. */
	long (*read)(struct file *f, void *buf, size_t n);
	long (*write)(struct file *f, const void *buf, size_t n);
	long (*pread)(struct file *f, void *buf, size_t n, int64_t off);
	long (*pwrite)(struct file *f, const void *buf, size_t n, int64_t off);
	/* A read or write of n bytes at the file position of which the guest
	 * buffer takes or gives only the first ok (< n, maybe 0): for files
	 * where Linux's answer to its copy coming up short is not "the first
	 * ok bytes" (a pipe keeps a buffer it could not copy whole, an
	 * eventfd's count is read before its copy faults). buf holds ok
	 * bytes. read_fault sets *arrived: how many of them reach the guest
	 * whatever it returns (Linux's copy stopped at the fault, not before).
	 * Files without them get n cut to ok. */
	long (*read_fault)(struct file *f, void *buf, size_t n, size_t ok, size_t *arrived);
	long (*write_fault)(struct file *f, const void *buf, size_t n, size_t ok);
	int64_t (*llseek)(struct file *f, int64_t off, int whence);
	long (*getdents64)(struct file *f, void *buf, size_t n);
	int (*stat)(struct file *f, struct linux_stat *st);
	int (*statx)(struct file *f, unsigned mask, struct linux_statx *stx);
	long (*ioctl)(struct file *f, struct task *t, unsigned cmd, uint64_t arg);
	/* Readiness: returns LINUX_POLL* bits now; with pt, also registers
	 * the wait queues (or host fds) whose wakeups may change them. A file
	 * without poll is always ready for reading and writing. */
	unsigned (*poll)(struct file *f, struct poll_table *pt);
	/* The host fd whose pages a mapping of this file uses, or -ENODEV. */
	int (*mmap_fd)(struct file *f);
	/* May be NULL. The file a mapping of f maps and keeps instead of f
	 * (a reference stays f's), as Linux's ovl_mmap puts the real file in
	 * the VMA: an overlay file that reads through another. */
	struct file *(*mmap_file)(struct file *f);
	void (*release)(struct file *f);
	/* F_SETFL is about to change O_APPEND or O_NONBLOCK to flags (the
	 * file's new flags): a file whose host description acts on them
	 * follows, or fails the fcntl with -errno. */
	int (*setfl)(struct file *f, unsigned flags);
	/* Each close of an fd of it, by current (Linux's f_op->flush). */
	void (*flush)(struct file *f);
	/* A VMA mapping the file appears (mmap, fork, a split) or goes, as
	 * Linux's vm_ops open/close; such VMAs are never merged. bytes: the
	 * VMA's length when it appeared, the same at its close (a split
	 * shrinks the first part in place, so the parts together count more
	 * than before until they go). */
	void (*vma_open)(struct file *f, uint64_t bytes);
	void (*vma_close)(struct file *f, uint64_t bytes);
	/* fallocate(2) of a regular file open for writing; the VFS checked
	 * the arguments every filesystem shares (sys_fallocate). */
	long (*fallocate)(struct file *f, int mode, int64_t off, int64_t len);
	/* mmap maps anonymous memory instead, private or shared, once the
	 * file's access mode allowed it (/dev/zero). */
	bool mmap_anon;
	/* An anonymous-inode file's name in /proc/PID/fd ("anon_inode:NAME"). */
	const char *anon_name;
	/* May be NULL. A mapped file with no path: its name in /proc/PID/maps
	 * and smaps (malloc'd; NULL: none), as SysV shm's "/SYSVKEY (deleted)". */
	char *(*maps_name)(struct file *f);
	/* May be NULL. Shared memory (tmpfs files, SysV shm): the NUMA
	 * policies the object keeps for every mapping of it, mapped or not
	 * (mm/mempolicy.h). */
	struct shared_policy *(*shared_policy)(struct file *f);
	/* O_ASYNC signals the owner at the wakeups of its poll's queues
	 * (Linux's f_op->fasync; vfs/fown.c). */
	bool fasync;
	/* writev's vector is one write, gathered (Linux's write_iter sees it
	 * whole: /dev/kmsg makes it one record), not a write per segment. */
	bool write_whole;
	/* The directions in which preadv2/pwritev2's RWF_NOWAIT may ask the
	 * file not to wait (FILE_NOWAIT_*: Linux's FMODE_NOWAIT with an
	 * iter method for the way; pipes and sockets are sys_fs.c's). */
	uint8_t nowait;
};

enum { FILE_NOWAIT_READ = 1, FILE_NOWAIT_WRITE = 2 };

struct file {
	const struct file_ops *ops;
	int refcount;
	unsigned flags;		  /* LINUX_O_*: access mode, O_APPEND, O_NONBLOCK, O_PATH... */
	int host_fd;		  /* backing host fd, or -1 */
	int64_t pos;		  /* for files whose position is kept here (tmpfs, dirs) */
	struct path path;	  /* where it was opened (owns a reference), or none */
	struct inode *inode;	  /* owns a reference, or NULL (pipes, host stdio) */
	struct dir_snapshot *dir; /* getdents64 of a directory */
	bool notify_close;	  /* IN_OPEN was reported: IN_CLOSE_* will be */
	bool backing;		  /* file_alloc_backing's: not counted against the cap */
	bool mnt_writer;	  /* counted in its mount's and superblock's writers */
	unsigned pipe_seen;	  /* FIFO reader: no POLLHUP while writer opens are this - 1 */
	void *priv;
	struct file *release_next; /* file_put's list of files to release */
	/* vfs/fown.c: F_SETOWN's owner (0: none), its kind (LINUX_F_OWNER_*)
	 * and the ids of who set it; F_SETSIG's signal (0: SIGIO). */
	int owner_pid;
	uint8_t owner_type;
	uint32_t owner_uid, owner_euid;
	int sigio_sig;
	/* O_ASYNC's callbacks on the file's wait queues, and the fd they
	 * name (si_fd), as the F_SETFL or FIOASYNC that turned it on. */
	struct fasync_entry *fasync;
	int fasync_fd;
	/* vfs/denywrite.h: +1, it counts as a writer of the file dev/ino;
	 * -1, it denies writes to it (an exec's); 0, neither. */
	int8_t write_access;
	/* It counts as a reader of the file dev/ino (open read-only). */
	bool read_access;
	uint64_t wa_dev, wa_ino;
};

/* A new file with one reference; takes over host_fd and takes a reference
 * on path (may be NULL). */
struct file *file_alloc(const struct file_ops *ops, unsigned flags, int host_fd,
			const struct path *path);
/* A file another file works through (an overlay file's lower or upper
 * one, Linux's backing file): as file_alloc with no ops or host fd, but
 * neither capped nor counted as an open file; NULL without memory. */
struct file *file_alloc_backing(unsigned flags, const struct path *path);
/* from's place among the counted open files goes to to, a backing file of
 * it that may outlive it (an overlay file's lower file, which mappings
 * keep): the cap holds while either lives. */
void file_pass_count(struct file *from, struct file *to);
/* A place among the counted open files for what holds a host fd as long
 * as an open file would, without being one (an overlay redirect's lower
 * directory): false at the cap. files_give_slot gives it back. */
bool files_take_slot(void);
void files_give_slot(void);
/* Why file_alloc failed: -ENFILE at the instance's cap, else -ENOMEM. */
int file_alloc_error(void);
/* Frees a file from file_alloc that was never used (no ops run yet). */
void file_discard(struct file *f);
/* The instance-wide cap of open files (--nofile), and how many are open. */
void files_set_max(long n);
/* The cap (fs.file-max). */
long files_max_get(void);
long files_nr_open(void);
void file_get(struct file *f);
/* fstat: the inode it was opened by, else what the file says. */
int file_stat(struct file *f, struct linux_stat *st);
/* f's own method, or what the VFS does for a file without it: a
 * read or write is EINVAL, a positioned one or a seek ESPIPE, an ioctl
 * ENOTTY, a poll always ready, a mapping ENODEV. The calls of a file that
 * forwards to another (an overlay file, a /proc/PID/fd/N reopen). */
long file_op_read(struct file *f, void *buf, size_t n);
long file_op_write(struct file *f, const void *buf, size_t n);
long file_op_pread(struct file *f, void *buf, size_t n, int64_t off);
long file_op_pwrite(struct file *f, const void *buf, size_t n, int64_t off);
int64_t file_op_llseek(struct file *f, int64_t off, int whence);
long file_op_ioctl(struct file *f, struct task *t, unsigned cmd, uint64_t arg);
unsigned file_op_poll(struct file *f, struct poll_table *pt);
int file_op_mmap_fd(struct file *f);
/* Linux's file_accessed: path_accessed unless f was opened O_NOATIME (a
 * file without a path, a backing file: its inode, as a relatime mount's). */
void file_accessed(struct file *f);
/* read_fault (struct file_ops) of a file of rec-byte records that Linux
 * takes from the file before it copies each out (eventfd, timerfd,
 * signalfd): the records that fit whole count, the one the fault falls in
 * is taken and lost (its bytes before the fault arrive), none after it is
 * taken. EFAULT if no record fits whole, or with partial (timerfd's
 * copy_to_iter result) the bytes that arrived. */
long file_read_fault_records(struct file *f, void *buf, size_t n, size_t ok, size_t *arrived,
			     size_t rec, bool partial);
void file_put(struct file *f);

static inline bool file_readable(const struct file *f)
{
	return (f->flags & 3) != 1 && !(f->flags & 010000000);
}

static inline bool file_writable(const struct file *f)
{
	return (f->flags & 3) != 0 && !(f->flags & 010000000);
}

#define NR_OPEN_DEFAULT 1024

struct files {
	int refcount;
	int max;	  /* slots allocated */
	struct file **fd; /* owns one reference per slot */
	unsigned char *cloexec;
};

int files_create(struct files **out);
void files_put(struct files *fs);
/* A copy of the table (fork without CLONE_FILES): shares the files. */
int files_dup(struct files *src, struct files **out);
/* Takes a reference; NULL if fd is not open. */
/* The most one read, write or transfer moves (Linux's MAX_RW_COUNT). */
#define MAX_RW_COUNT 0x7ffff000UL

/* RLIMIT_FSIZE and the largest file (Linux's MAX_LFS_FILESIZE): a write
 * of a regular file at pos may go up to the limit. Past it (pos at or
 * beyond), the current thread gets SIGXFSZ and the write -EFBIG; below,
 * *count is cut to end at it (a short write). Linux's
 * generic_write_check_limits; 0 or -EFBIG. */
int file_write_limits(int64_t pos, uint64_t *count);
/* The same for a write of *count bytes at pos, or at the file's position
 * if pos < 0 (its end with O_APPEND): nothing for a count of 0, a file
 * that is not regular or one of a no_fsize filesystem (procfs, sysfs,
 * cgroup2; Linux's generic_write_checks, which their handlers skip). Every write of file
 * data goes through it once: write, pwrite and the vectored forms
 * (syscalls/sys_fs.c), sendfile, splice and copy_file_range
 * (vfs/splice.c). */
int file_write_checks(struct file *f, int64_t pos, uint64_t *count);
/* A regular file of size old_size to grow to new_size (truncate,
 * fallocate): past RLIMIT_FSIZE SIGXFSZ and -EFBIG (Linux's
 * inode_newsize_ok); shrinking is always fine. */
int file_newsize_ok(int64_t old_size, uint64_t new_size);

/* read and write as the file's pread and pwrite at its position, which
 * moves by what was done: for files with no other rule (no O_APPEND). */
long file_read_at_pos(struct file *f, void *buf, size_t n);
long file_write_at_pos(struct file *f, const void *buf, size_t n);
/* At most n bytes of text (len bytes) from offset off into dst: what a
 * generated file's pread gives (Linux's simple_read_from_buffer). */
long read_from_buffer(void *dst, size_t n, int64_t off, const void *text, size_t len);
/* lseek of a file read as generated text (Linux's seq_lseek): SEEK_SET
 * and SEEK_CUR to a position >= 0; else EINVAL. */
int64_t seq_llseek(struct file *f, int64_t off, int whence);

struct file *fdget(struct files *fs, int fd);
/* The same, but an O_PATH file is none (NULL: EBADF), as Linux's fdget;
 * fdget above is Linux's fdget_raw. */
struct file *fdget_nopath(struct files *fs, int fd);
/* Whether an open may go on to touch the file (O_CREAT, O_TRUNC): 0, or
 * -EMFILE with no fd free below limit, -ENFILE at the instance's cap
 * (Linux's get_unused_fd_flags and alloc_empty_file, which come first). */
int fd_open_room(struct files *fs, int limit);
/* Installs f (the caller's reference moves to the table) at the lowest free
 * fd >= min; returns the fd or -EMFILE. */
int fd_install(struct files *fs, struct file *f, int min, bool cloexec, int limit);
int fd_install_at(struct files *fs, int fd, struct file *f, bool cloexec);
int fd_close(struct files *fs, int fd);
/* Whether fd is open and close-on-exec. */
static inline bool fd_is_cloexec(const struct files *fs, int fd)
{
	return fd >= 0 && fd < fs->max && fs->fd[fd] && fs->cloexec[fd];
}
void files_close_on_exec(struct files *fs);

#endif
