/* ipc/ipc.h: what System V shared memory, semaphores and message queues
 * share: the ipc_perm of every object, the IPC namespaces with their id
 * tables (ids are seq * 32768 + index, as in Linux), the permission rules
 * by the caller's credentials, and the hooks fork/exit call. */
#ifndef IPC_IPC_H
#define IPC_IPC_H

#include <stdint.h>
#include <stdbool.h>

#include "abi/linux/ipc.h"
#include "kernel/nsproxy.h"
#include "lib/list.h"

struct task;
struct cred;

#define IPC_SEQ_SHIFT 15 /* Linux's IPCMNI_SHIFT */
#define IPC_MNI	      (1 << IPC_SEQ_SHIFT)
#define CAP_IPC_LOCK  14
#define CAP_IPC_OWNER 15
#define CAP_SYS_ADMIN 21

struct ipc_ns;

struct kern_ipc_perm {
	struct ipc_ns *ns; /* the namespace whose table holds it */
	int id;
	int32_t key;
	uint32_t uid, gid, cuid, cgid;
	unsigned mode; /* low 9 bits: permissions; shm adds SHM_DEST, SHM_LOCKED */
	unsigned seq;
	bool deleted; /* removed: waiters see EIDRM */
};

/* One table per kind: entry[index] or NULL. Start with max_idx and
 * last_idx at -1. */
struct ipc_ids {
	struct kern_ipc_perm **entry;
	int size;     /* slots allocated */
	int in_use;   /* objects in the table */
	int max_idx;  /* highest index in use, -1 if none */
	int last_idx; /* the index given last, -1 at first */
	unsigned seq;
	int mni; /* the most objects (SHMMNI, SEMMNI, MSGMNI) */
};

/* An IPC namespace (Linux's ipc_namespace): the three tables, their
 * counts, and its POSIX message queues' count (the queues themselves are
 * on mqueue.c's list, each with its namespace). The limits are its
 * sysctls' (kernel.shmmax, shmall, shmmni, msgmax, msgmnb, msgmni, sem;
 * fs.mqueue.*: procfs), Linux's defaults in a new namespace; the most
 * objects of each kind are its table's mni. A namespace goes with its
 * last reference (tasks, its nsfs file, shm attachments) and takes every
 * object still in it along (Linux's free_ipc_ns). */
struct ipc_ns {
	struct ns_common ns;
	struct ipc_ids shm_ids, sem_ids, msg_ids;
	uint64_t shm_tot; /* pages of every segment */
	long used_sems;
	uint64_t msg_hdrs, msg_bytes; /* every queued message */
	int mq_queues;
	uint64_t shm_ctlmax, shm_ctlall;
	int msg_ctlmax, msg_ctlmnb;
	int sem_ctlmsl, sem_ctlmns, sem_ctlopm;
	int mq_queues_max, mq_msg_max, mq_msgsize_max, mq_msg_default, mq_msgsize_default;
};

extern struct ipc_ns init_ipc_ns;
/* t's IPC namespace (t NULL: the initial one). */
struct ipc_ns *ipc_ns_of(struct task *t);
/* CLONE_NEWIPC: an empty namespace, or NULL. */
struct ns_common *ipc_ns_new(void);
/* At a namespace's end, each kind removes what it has there. */
void shm_exit_ns(struct ipc_ns *ns);
void sem_exit_ns(struct ipc_ns *ns);
void msg_exit_ns(struct ipc_ns *ns);
void mq_exit_ns(struct ipc_ns *ns);

/* Linux's ipcget: key lookup, IPC_CREAT/IPC_EXCL, the checks of an
 * existing object (more_checks, then permissions by the low 9 bits of flg)
 * or a new one (create). Returns the id or -errno. */
struct ipc_ops {
	int (*create)(struct task *t, int32_t key, int flg, void *arg); /* the id or -errno */
	int (*more_checks)(struct kern_ipc_perm *p, void *arg);
};
int ipc_get(struct task *t, struct ipc_ids *ids, int32_t key, int flg, const struct ipc_ops *ops,
	    void *arg);

/* Puts p (filled in by the caller except id/seq) into the table with the
 * caller's credentials as owner and creator; the id or -ENOSPC. */
int ipc_add(struct ipc_ids *ids, struct kern_ipc_perm *p, struct task *t, int32_t key, int flg);
/* Takes p out of the table and marks it deleted. */
void ipc_remove(struct ipc_ids *ids, struct kern_ipc_perm *p);
/* The object with this id, or NULL (-EINVAL for the caller). */
struct kern_ipc_perm *ipc_lookup(struct ipc_ids *ids, int id);
/* The object at this index (the *_STAT commands), or NULL. */
struct kern_ipc_perm *ipc_at(struct ipc_ids *ids, int idx);

/* The *_STAT family's object: IPC_STAT looks id up, the other two take it
 * as an index; read permission unless any (*_STAT_ANY). The object, or NULL
 * with *err set (-EINVAL, -EACCES). */
struct kern_ipc_perm *ipc_stat_lookup(struct ipc_ids *ids, struct task *t, int id, bool by_id,
				      bool any, int *err);

/* Linux's ipcperms: flg's rwx bits against the mode for the owner, group
 * or others; CAP_IPC_OWNER passes. 0 or -EACCES. */
int ipc_perms(struct task *t, const struct kern_ipc_perm *p, int flg);
/* IPC_SET and IPC_RMID: the owner, the creator or CAP_SYS_ADMIN; 0 or -EPERM. */
int ipc_owner_check(struct task *t, const struct kern_ipc_perm *p);
void ipc_perm_to_user(const struct kern_ipc_perm *p, struct linux_ipc64_perm *out);
/* IPC_SET's uid, gid and permission bits; -EINVAL for an invalid id. */
int ipc_perm_set(struct kern_ipc_perm *p, const struct linux_ipc64_perm *in);
int64_t ipc_now(void); /* CLOCK_REALTIME seconds */
int ipc_pid(struct task *t);

/* /proc/sysvipc/{shm,sem,msg}: the header and one line per object of the
 * reader's namespace, in Linux's format, each handed to emit. */
typedef void (*ipc_emit_fn)(void *arg, const char *line);
void shm_proc_show(ipc_emit_fn emit, void *arg);
void sem_proc_show(ipc_emit_fn emit, void *arg);
void msg_proc_show(ipc_emit_fn emit, void *arg);

/* Is f a POSIX message queue descriptor (mqueue.c)? */
struct file;
bool mq_is_queue(struct file *f);

/* Hooks: a process is gone (its semaphore adjustments are undone). */
void sem_exit(int pid);

#endif
