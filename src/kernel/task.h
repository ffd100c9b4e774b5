/* kernel/task.h: a guest task (thread) and the process it belongs to.
 * A task has its own kernel stack and one host thread in its address
 * space's stub; the process holds what its threads share. */
#ifndef KERNEL_TASK_H
#define KERNEL_TASK_H

#include <stdint.h>
#include <stdbool.h>

#include "kernel/sched.h"
#include "kernel/cred.h"
#include "platform/platform.h"
#include "abi/linux/types.h"
#include "abi/linux/signal.h"

struct mm;
struct files;
struct fs_info;

enum task_state {
	TASK_RUNNABLE, /* on the run queue */
	TASK_RUNNING,  /* on the CPU: current */
	TASK_USER,     /* its host thread runs guest code */
	TASK_SLEEPING, /* in the kernel, waiting */
	TASK_DEAD,
};

#define TASK_COMM_LEN 16
#define NRLIMITS      16

struct process {
	int pid;
	int ppid;
	int exit_code;	   /* wait status once exiting */
	bool exiting;
	int nthreads;
	struct cred cred;
	struct linux_rlimit rlim[NRLIMITS];
	unsigned umask;
	unsigned personality;
	bool no_new_privs;
	struct linux_sigaction sigactions[64]; /* bookkeeping; delivery: signals issue */
};

struct task {
	int tid;
	enum task_state state;
	struct process *proc;
	struct mm *mm;	      /* owns a reference */
	struct files *files;  /* owns a reference */
	struct fs_info *fs;   /* owns a reference */
	struct pf_thread *thread;
	struct kstack kstack;
	struct list_head run_link;
	struct pf_event ev;   /* the trap that woke the task */
	bool no_result;	      /* the handler set all registers itself */
	char comm[TASK_COMM_LEN];
	uint64_t clear_child_tid;
	uint64_t robust_list, robust_len;
	uint64_t sigmask;
	struct linux_stack_t altstack;
	/* --strace: what the entry of the current call printed */
	char *trace_buf;
};

struct init_config {
	const char *path;
	char *const *argv;
	char *const *envp;
	const char *host_root; /* the host directory that is the guest's / */
	const char *cwd;       /* the guest's starting directory */
	uint32_t uid, gid;
};

/* Starts the first process (pid 1). Returns 0 or -errno (ENOENT, EACCES,
 * ENOEXEC...) without starting anything. */
int task_start_init(const struct init_config *cfg);
void set_comm(struct task *t, const char *path);

/* Ends the whole process of t with a wait status (exit code << 8, or
 * signal number); does not return to the guest. */
void process_exit(struct task *t, int wait_status) __attribute__((noreturn));

/* Frees a dead task once the scheduler has left its stack. */
void task_free(struct task *t);
int task_count(void);

/* The wait status of the first process once everything has ended. */
int task_init_status(void);

#endif
