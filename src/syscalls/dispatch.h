/* syscalls/dispatch.h: from a trapped system call to its handler. */
#ifndef SYSCALLS_DISPATCH_H
#define SYSCALLS_DISPATCH_H

#include <stdint.h>

#include "mm/mm.h"

struct task;

struct sysargs {
	uint64_t a[6];
};

static inline int sysarg_int(const struct sysargs *a, int i)
{
	return (int)a->a[i];
}

static inline unsigned sysarg_uint(const struct sysargs *a, int i)
{
	return (unsigned)a->a[i];
}

static inline uaddr_t sysarg_uaddr(const struct sysargs *a, int i)
{
	return a->a[i];
}

static inline uint64_t sysarg_size(const struct sysargs *a, int i)
{
	return a->a[i];
}

static inline int64_t sysarg_long(const struct sysargs *a, int i)
{
	return (int64_t)a->a[i];
}

/* Copies a guest path (at most PATH_MAX with its NUL) into a malloc'ed
 * string: 0, -EFAULT or -ENAMETOOLONG. */
int get_user_path(struct task *t, uaddr_t upath, char **out);

struct file;
/* What preadv2/pwritev2's RWF_ flags changed for a transfer, undone at its
 * end (rwf_end). */
struct rwf_call {
	unsigned saved, applied; /* the file's O_APPEND and O_NONBLOCK before, during */
	bool nowait, nosignal;
};

/* preadv2/pwritev2's RWF_ flags, Linux's kiocb_set_rw_flags in its order,
 * applied for the call. HIPRI (polling), DSYNC and SYNC (a write is in
 * the host's page cache or tmpfs memory once it returns) change nothing
 * here. APPEND writes at the end whatever O_APPEND says, NOAPPEND where
 * the position says (EPERM for an append-only inode's file open
 * O_APPEND); on a regular file, both are O_APPEND set or cleared for the
 * call (elsewhere it means nothing). NOWAIT is O_NONBLOCK for the call,
 * on the files file_nowait names; others are EOPNOTSUPP, regular files
 * included (as tmpfs's; Linux's ext4 would take a read of a host
 * directory's file). NOSIGNAL spares the caller SIGPIPE. ATOMIC and
 * DONTCACHE are EOPNOTSUPP: no file here has atomic or uncached writes
 * (tmpfs has neither). The flags live in the shared file only while the
 * transfer runs, and it never sleeps then: a regular file's write does
 * not, and with O_NONBLOCK neither does a transfer of a file NOWAIT takes
 * (a pipe a splice holds is EAGAIN: t->rwf_nowait), so no other task can
 * see them or change the file's flags in between. */
long rwf_check(struct file *f, unsigned rwf, bool write);
/* rwf_check, then the flags applied to f and t for the transfer. */
long rwf_begin(struct task *t, struct file *f, unsigned rwf, bool write, struct rwf_call *rc);
void rwf_end(struct task *t, struct file *f, const struct rwf_call *rc);

/* Handles t->ev (a system call) and sets the result in the guest. */
void syscall_enter(struct task *t);

/* Every handler: long sys_<name>(struct task *t, const struct sysargs *a).
 * Declared weak by dispatch.c: a call without a handler is -ENOSYS. */
#define SC(nr, name, nargs, fmt) long sys_##name(struct task *t, const struct sysargs *a);
#include "syscalls/syscall_table.h"
#undef SC

/* --strace */
int strace_open(const char *path);
void strace_enter(struct task *t, int nr, const struct sysargs *a);
void strace_exit(struct task *t, int nr, const struct sysargs *a, long ret);
extern int strace_on;
void strace_noreturn(struct task *t, int nr, const struct sysargs *a);
const char *syscall_name(int nr);

#endif
