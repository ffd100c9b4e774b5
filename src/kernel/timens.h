/* kernel/timens.h: time namespaces (Linux's time_namespace). A namespace
 * holds two offsets, added to CLOCK_MONOTONIC (and its RAW and COARSE
 * variants) and to CLOCK_BOOTTIME as its tasks read them, and taken back
 * from the absolute deadlines they give on those clocks. A task's set
 * (kernel/nsproxy.h) holds the namespace it is in (time) and the one its
 * children go into (ns[NS_TIME], Linux's time_ns_for_children):
 * unshare(CLONE_NEWTIME) makes the second, and the task's next fork or
 * exec enters it. Its offsets are written through
 * /proc/PID/timens_offsets until a task has entered it. The host's vDSO
 * reads the host's clocks: a task in a namespace other than the
 * instance's gets a copy whose clock_gettime makes the system call. */
#ifndef KERNEL_TIMENS_H
#define KERNEL_TIMENS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/nsproxy.h"
#include "abi/linux/types.h"

struct task;
struct cred;

struct time_ns {
	struct ns_common ns;
	struct linux_timespec mono, boot; /* as written (nsec 0..999999999) */
	int64_t mono_ns, boot_ns;	  /* the same in nanoseconds */
	/* A task has entered it: its offsets stay (Linux's frozen_offsets;
	 * the instance's is) */
	bool frozen;
};

extern struct time_ns init_time_ns;

/* A new namespace with old's offsets (Linux's clone_time_ns), or NULL. */
struct ns_common *time_ns_new(struct ns_common *old);
/* The namespace t is in. */
struct time_ns *task_time_ns(const struct task *t);
/* A reading of the host's clock clk as t sees it, and an absolute time on
 * it that t gave as the host's: the offset of clk's kind added or taken
 * (none for the other clocks; a time before the offset is 0). */
int64_t timens_to_task(const struct task *t, int clk, int64_t host_ns);
int64_t timens_to_host(const struct task *t, int clk, int64_t ns);
/* t has entered its set's time namespace (a fork's child, setns, exec):
 * the namespace's offsets are frozen, and t's vDSO is the one that makes
 * system calls unless that namespace is the instance's. */
void timens_commit(struct task *t);
/* t enters the namespace for its children if that is another: a fork's
 * child (Linux's timens_on_fork), and an exec past its point of no return
 * (exec_task_namespaces; the new image's vDSO is the exec's to choose,
 * by task_time_ns). 0 or -ENOMEM. */
int timens_enter_children(struct task *t, bool exec);
/* A write to /proc/PID/timens_offsets, for ns (the namespace for the
 * process's children), judged by the opener's credentials (Linux's
 * timens_offsets_write and proc_timens_set_offset; NULL: the process has
 * gone, ESRCH once the text parses): the count taken or -errno. */
long timens_offsets_write(const struct cred *opener, struct time_ns *ns, const char *buf,
			  size_t len, int64_t off);

#endif
