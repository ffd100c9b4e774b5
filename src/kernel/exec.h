/* kernel/exec.h: building a fresh address space from an executable: the
 * ELF loader (static, static-PIE, PT_INTERP), "#!" scripts, the initial
 * stack as Linux lays it out. */
#ifndef KERNEL_EXEC_H
#define KERNEL_EXEC_H

#include <stddef.h>

#include "platform/platform.h"
#include "kernel/cred.h"

struct task;
struct mm;
struct file;

/* A vector of kernel strings (argv or envp); owns the strings. */
/* The most argument and environment bytes an exec takes (strings with
 * their NULs and the pointers to them): Linux's 3/4 of _STK_LIM. */
#define EXEC_ARGS_MAX (6UL << 20)

struct strv {
	char **v;
	int n, cap;   /* cap: room in v, its NULL included */
	size_t bytes; /* sum of strlen+1 */
};

int strv_push(struct strv *sv, const char *s);
int strv_insert(struct strv *sv, int at, const char *s);
void strv_free(struct strv *sv);

/* exec_load/exec_switch: failed past the point of no return (the old
 * image is gone): the caller frees what it holds and ends the process with
 * SIGSEGV, as Linux's exec. */
#define EXEC_FATAL 1

/* kernel.randomize_va_space (any int, as Linux's proc_dointvec): 0 no
 * address randomization at exec, 1 the stack, mmap base and vDSO, 2
 * (the default) the brk area too. */
extern int randomize_va_space;

/* Loads path (relative to dirfd; atflags AT_EMPTY_PATH and
 * AT_SYMLINK_NOFOLLOW as execveat's) for t, or file if not NULL (path
 * opened by vfs_open_exec; exec_load takes it over): on success *mm_out is a new address space ready to run
 * with *regs (rip, rsp; other general registers zero) in the stopped host
 * thread *th_out (a new one, or t's own if t's stub was recycled), and
 * *newcred the credentials the process has once it switches. t is not
 * changed but when t's stub is recycled (mm_create_recycled). Errors:
 * ENOENT, EACCES, ENOEXEC, E2BIG, ELOOP, ENOMEM, ..., or EXEC_FATAL. */
int exec_load(struct task *t, int dirfd, const char *path, int atflags, struct file *file,
	      struct strv *argv, struct strv *envp, struct mm **mm_out, struct pf_thread **th_out,
	      struct pf_regs *regs, struct cred *newcred);

/* The switch: t runs the loaded image from now on, in its new host thread
 * th (the seed's PTRACE_SWITCH_MM); its old thread and address space go.
 * Takes over th (put on failure); the caller keeps mm on failure but
 * EXEC_FATAL. */
int exec_switch(struct task *t, struct mm *mm, struct pf_thread *th, const struct pf_regs *regs);

#endif
