/* fs/procfs/internal.h: what procfs's files share: the text buffer file
 * contents are printed into, the entries of the tree, and the generators
 * (global.c: system-wide files; pid.c: /proc/PID/...). */
#ifndef FS_PROCFS_INTERNAL_H
#define FS_PROCFS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfs/vfs.h"
#include "lib/sbuf.h"

struct task;
struct process;
struct pid_ns;
struct cred;
struct mm;

/* A path or source as /proc/mounts writes it: space, tab, newline and
 * backslash as octal escapes. */
void sb_escaped(struct sbuf *b, const char *s);

struct pnode;

/* Fills b with a file's content; 0 or -errno (ESRCH: the process is gone). */
typedef int (*gen_fn)(const struct pnode *n, struct sbuf *b);

/* One name in the tree. Directories have children (a table ending with a
 * NULL name) and, for the dynamic ones, a kind; files a generator; plain
 * symlinks a target; magic links a path. */
struct pentry {
	const char *name;
	uint8_t id;    /* the low byte of the inode number: unique per entry */
	uint32_t mode; /* type and permission bits */
	gen_fn gen;
	const struct pentry *children;
	unsigned dyn; /* PD_*: the directory also lists these */
	bool sysctl;  /* a directory of /proc/sys (its nlink is 1, as Linux's) */
	/* Plain symlinks: the target (may depend on the caller). */
	int (*target)(const struct pnode *n, struct sbuf *b);
	/* Magic links: the path they stand for, a reference in *out. */
	int (*link)(const struct pnode *n, struct task *t, struct path *out);
	/* Writable sysctl files: a write sets the value; bytes or -errno. */
	long (*put)(const struct pnode *n, const char *buf, size_t len);
	/* The same for a file whose write is judged by who opened it too
	 * (uid_map: Linux's file->f_cred), at offset off. */
	long (*put_opener)(const struct pnode *n, const struct cred *opener, const char *buf,
			   size_t len, int64_t off);
	/* A writable file that is a seq_file in Linux: pwrite is ESPIPE. */
	bool seq;
	/* Generated (and its checks made) by each read from offset 0, not
	 * at the open: Linux's files whose show or read looks at the task
	 * then (an EPERM or ESRCH comes at the read; the open is fine). */
	bool gen_at_read;
	/* A sysctl whose put judges an empty write itself (its handler asks
	 * for a capability first); any other's is 0, as Linux's handlers
	 * take nothing from nothing. */
	bool put_empty;
	/* An integer sysctl (proc_dointvec): write moves the offset, and a
	 * write past offset 0 changes nothing (its bytes are taken), as
	 * Linux's strict writes. */
	bool int_sysctl;
	/* In /proc/PID only, not a thread's directory (Linux's
	 * tgid_base_stuff). */
	bool tgid_only;
	/* Opened as Linux's __mem_open (environ, auxv, smaps_rollup): the
	 * gen's ESRCH (no mm: a zombie) is the open's, not ENOENT. */
	bool mem_open;
	/* Files that are not generated text (/proc/PID/mem): sets f's ops
	 * and private data itself; 0 or -errno. */
	int (*open)(const struct pnode *n, struct file *f);
};

enum {
	PD_PIDS = 1,  /* /proc: one directory per process */
	PD_TASKS = 2, /* /proc/PID/task: one per thread */
	PD_FDS = 3,   /* /proc/PID/fd: one magic link per open fd */
	PD_FDINFO = 4 /* /proc/PID/fdinfo: one file per open fd */
};

/* An inode's place: its entry and the process, thread and fd it is about
 * (instance pids; 0, 0, -1 for system-wide entries; tid 0 under
 * /proc/PID itself), and the pid namespace of its mount, whose numbers it
 * shows (a reference). */
struct pnode {
	const struct pentry *e;
	int pid, tid, fd;
	uint64_t parent_ino; /* for ".." */
	struct pid_ns *ns;
};

/* A pid as n's mount shows it (0: outside its namespace). */
int procfs_nr(const struct pnode *n, int pid);

/* The tables (pid.c, global.c). */
extern const struct pentry procfs_root_entry;
extern const struct pentry procfs_pid_entry;
extern const struct pentry procfs_tid_entry;
extern const struct pentry procfs_fd_entry;
extern const struct pentry procfs_fdinfo_entry;
extern const struct pentry procfs_pid_children[];
extern const struct pentry procfs_sys_children[];

/* The process (zombies too) and the thread a node speaks of: for tid 0
 * the thread group leader (or any thread if it has gone); NULL if none. */
struct process *procfs_process(const struct pnode *n);
struct task *procfs_task(const struct pnode *n);
/* The task whose own memory, files, fs and namespaces the node shows: the
 * thread's for task/TID, the leader's for PID; NULL once that task has
 * exited, though other threads run on (Linux reads the leader's: a
 * zombie leader's fd/ is empty, its cwd ENOENT, its maps empty). */
struct task *procfs_own_task(const struct pnode *n);
/* The file at fd of node n's thread: a reference, or NULL. */
struct file *procfs_fd_file(const struct pnode *n);
/* May the caller look into process p's private parts (fds, cwd, exe,
 * environ)? As Linux's ptrace_may_access: same user and dumpable, or
 * CAP_SYS_PTRACE. */
bool procfs_may_access(struct task *caller, struct process *p);
/* The instance's start (monotonic and realtime ns), set at mount. */
extern int64_t procfs_boot_mono_ns, procfs_boot_real_ns;
#define USER_HZ 100 /* the clock ticks of /proc (Linux's, and AT_CLKTCK) */
/* The mount procfs is on (for the paths of magic links to fds without a
 * path), or NULL. */
struct mount *procfs_mount_of(void);
/* The name readlink gives for an open file: its path from the caller's
 * root, or "pipe:[N]", "socket:[N]", "anon_inode:[...]"; 0, or
 * -ENAMETOOLONG for a path longer than a page (Linux's d_path). */
int procfs_file_name(struct file *f, struct sbuf *b);
/* A path standing for f, which has none (a pipe, the host's stdio): a
 * procfs inode whose opening shares f. */
int procfs_proxy_path(struct file *f, struct path *out);

/* Per-process numbers. */
struct mm_sizes {
	uint64_t vsize, data, stack, exe, lib; /* from the VMAs */
	/* Resident, as the host counts the stub's pages: anonymous, of files
	 * (the host's), shared memory (tmpfs and shared anonymous memory);
	 * the peak of their sum. */
	uint64_t rss_anon, rss_file, rss_shmem, hwm;
};
/* Bytes; all 0 for NULL (a zombie). */
void procfs_mm_sizes(struct mm *mm, struct mm_sizes *s);
int procfs_last_pid(void);

#endif
