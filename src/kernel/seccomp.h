/* kernel/seccomp.h: seccomp(2) for guests — strict mode and classic BPF
 * filters, run by the kernel at each guest system call as Linux runs them
 * at syscall entry, with every action: USER_NOTIF waits for the filter's
 * listener (kernel/seccomp_notify.c), RET_TRACE stops for a guest tracer.
 * The names say task_: libseccomp's functions, which the kernel links for
 * its own sandbox, are seccomp_*. */
#ifndef KERNEL_SECCOMP_H
#define KERNEL_SECCOMP_H

#include <stdbool.h>
#include <stdint.h>

struct task;
struct sysargs;
struct seccomp_filter;
struct linux_sock_filter;
struct linux_seccomp_data;

/* A system call of t (compat: the i386 ABI) about to run with args: true
 * if it may (a tracer's PTRACE_EVENT_SECCOMP stop may have changed *nr and
 * args; a supervisor's CONTINUE lets it). False: *ret is what the guest
 * gets instead (ERRNO, ENOSYS, the number back for TRAP, whose SIGSYS is
 * queued, the rax a tracer left when it skipped the call, a supervisor's
 * answer, or -EINTR with t->restart_ret set when a signal withdrew a
 * notification). A kill does not return. */
bool task_seccomp_allows(struct task *t, int *nr, uint64_t *args, bool compat, long *ret);
/* prctl(PR_SET_SECCOMP, mode, filter). */
long task_seccomp_prctl(struct task *t, unsigned long mode, uint64_t filter);
/* clone: child runs under its creator's mode and filters. */
void task_seccomp_fork(struct task *child, const struct task *parent);
/* The task goes: its reference to its filters. */
void task_seccomp_release(struct task *t);
/* /proc/PID/status's Seccomp_filters. */
int task_seccomp_filters(const struct task *t);
/* A seccomp program's checks (it is rewritten: LEN loads become
 * immediates): 0, -EINVAL or -ENOMEM; and a run of a checked one on d.
 * Also for tests/fuzz/fuzz_seccomp.c. */
int seccomp_check_filter(struct linux_sock_filter *p, unsigned len);
uint32_t seccomp_run_filter(const struct linux_sock_filter *insns,
			    const struct linux_seccomp_data *d);

#endif
