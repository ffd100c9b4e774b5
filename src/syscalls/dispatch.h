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
