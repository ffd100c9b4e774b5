/* kernel/cred.h: a process's credentials, in the guest's own model: user
 * and group ids (real, effective, saved, filesystem), supplementary groups,
 * and capabilities. Root inside is root only inside. */
#ifndef KERNEL_CRED_H
#define KERNEL_CRED_H

#include <stdint.h>
#include <stdbool.h>

#define NGROUPS_MAX_GUEST      65536
#define CAP_CHOWN	       0
#define CAP_DAC_OVERRIDE       1
#define CAP_DAC_READ_SEARCH    2
#define CAP_FOWNER	       3
#define CAP_KILL	       5
#define CAP_SETGID	       6
#define CAP_SETUID	       7
#define CAP_SETPCAP	       8
#define CAP_LINUX_IMMUTABLE    9
#define CAP_IPC_LOCK	       14
#define CAP_SYS_CHROOT	       18
#define CAP_SYS_PTRACE	       19
#define CAP_SYS_ADMIN	       21
#define CAP_SYS_BOOT	       22
#define CAP_SYS_NICE	       23
#define CAP_SYS_RESOURCE       24
#define CAP_SYS_TIME	       25
#define CAP_SYS_TTY_CONFIG     26
#define CAP_LEASE	       28
#define CAP_AUDIT_CONTROL      30
#define CAP_SETFCAP	       31
#define CAP_SYSLOG	       34
#define CAP_CHECKPOINT_RESTORE 40
#define CAP_LAST_CAP	       40
#define CAP_FULL_SET	       ((1ULL << (CAP_LAST_CAP + 1)) - 1)

struct user_ns;

#define SECBIT_NOROOT		    0x01
#define SECBIT_NO_SETUID_FIXUP	    0x04
#define SECBIT_KEEP_CAPS	    0x10
#define SECBIT_NO_CAP_AMBIENT_RAISE 0x40
#define SECURE_ALL_BITS		    0x555 /* through EXEC_DENY_INTERACTIVE (6.14) */
#define SECURE_ALL_LOCKS	    (SECURE_ALL_BITS << 1)

struct cred {
	uint32_t uid, euid, suid, fsuid;
	uint32_t gid, egid, sgid, fsgid;
	int ngroups;
	uint32_t *groups;
	uint64_t cap_effective, cap_permitted, cap_inheritable;
	/* prctl PR_CAP_AMBIENT: kept by exec of an unprivileged program;
	 * always within permitted and inheritable */
	uint64_t cap_ambient;
	/* the bounding set (prctl PR_CAPBSET_DROP): what a root exec may
	 * permit beyond the inheritable set; only ever shrinks */
	uint64_t cap_bset;
	/* prctl PR_SET_SECUREBITS (SECBIT_*, with their locks):
	 * NOROOT, NO_SETUID_FIXUP, KEEP_CAPS (PR_SET_KEEPCAPS too; exec
	 * clears it), NO_CAP_AMBIENT_RAISE, and EXEC_RESTRICT_FILE and
	 * EXEC_DENY_INTERACTIVE (kept for interpreters to read) */
	unsigned securebits;
	/* The user namespace the ids and capabilities belong to
	 * (kernel/userns.h; a reference); NULL: the instance's. */
	struct user_ns *user_ns;
};

extern struct user_ns init_user_ns;

/* cap over the instance's own resources (Linux's capable: in the initial
 * user namespace); ns_capable (kernel/userns.h) for a namespace's. */
static inline bool capable(const struct cred *c, int cap)
{
	return (!c->user_ns || c->user_ns == &init_user_ns) && (c->cap_effective & (1ULL << cap));
}

/* kernel.overflowuid and kernel.overflowgid (0-65535, 65534 at boot): the
 * ids reported where none can be, as credentials that did not travel. */
extern uint32_t overflowuid, overflowgid;

/* Sets every id to uid/gid with the capabilities that go with them. */
void cred_init(struct cred *c, uint32_t uid, uint32_t gid);
bool in_group(const struct cred *c, uint32_t gid);
struct process;
struct task;
/* execve's new credentials (the groups already the old ones'), with the
 * dumpability and parent-death signal rules of Linux's exec. */
void cred_exec_commit(struct task *t, const struct cred *nc);
/* Linux's __ptrace_may_access for another process p: the caller's uid and
 * gid (its real ones with real_ids, else its effective ones) are all of
 * p's, or it has CAP_SYS_PTRACE; a p that is not dumpable needs the
 * capability either way. */
bool cred_ptrace_may_access(const struct cred *c, const struct process *p, bool real_ids);

#endif
