/* mm/mempolicy.h: NUMA memory policies, as Linux's mm/mempolicy.c on a
 * machine of one memory node, node 0 (what the guest's sysfs and
 * Mems_allowed say). A policy is kept per thread (set_mempolicy: inherited
 * by clone, kept by exec) and per VMA (mbind: split and merged with it,
 * copied by fork, moved by mremap), read back by get_mempolicy and
 * /proc/PID/numa_maps, with Linux's checks and errors. With one node every
 * page is where any policy wants it: nothing ever migrates, and the host
 * places the pages as it would anyway.
 *
 * Shared memory (tmpfs files and memfds, SysV shm, shared anonymous
 * memory) keeps its policies in the object, by page, for every mapping of
 * it, mapped or not (Linux's shared_policy of shmem). */
#ifndef MM_MEMPOLICY_H
#define MM_MEMPOLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Linux's MAX_NUMNODES of Debian's kernels (CONFIG_NODES_SHIFT 10): the
 * node masks' width for the calls and Mems_allowed. */
#define MAX_NUMNODES   1024
#define NODEMASK_WORDS (MAX_NUMNODES / 64)

/* A policy other than the default (which is NULL). Never changed once
 * made: VMAs and threads share one by reference. */
struct mempolicy {
	int refcount;
	unsigned short mode;  /* LINUX_MPOL_*, never DEFAULT */
	unsigned short flags; /* its LINUX_MPOL_MODE_FLAGS */
	int home_node;	      /* set_mempolicy_home_node's, or -1 */
	uint64_t nodes;	      /* the nodes it names: node 0, or none for LOCAL */
	/* The caller's mask, kept when a mode flag asks (Linux's
	 * w.user_nodemask): get_mempolicy gives it back. */
	uint64_t user[NODEMASK_WORDS];
};

void mpol_get(struct mempolicy *p);
void mpol_put(struct mempolicy *p);
/* Linux's mpol_equal: NULL is the default; VMAs merge only when equal. */
bool mpol_equal(const struct mempolicy *a, const struct mempolicy *b);
/* Linux's mpol_to_str, as numa_maps prints it ("bind:0", "default"). */
void mpol_to_str(char *buf, size_t len, const struct mempolicy *p);

/* A shared memory object's policies by page index (Linux's
 * shared_policy): a list of ranges by start, none overlapping, each
 * holding a reference. Empty at first (all zeros); mpol_shared_free when
 * the object goes. */
struct sp_node;
struct shared_policy {
	struct sp_node *first;
};
void mpol_shared_free(struct shared_policy *sp);

/* tmpfs's mpol= (Linux's mpol_parse_str): MODE[=static|relative][:NODES]
 * with the names numa_maps prints; 0 with *out the mount's policy (NULL for
 * default), or -EINVAL. */
int mpol_parse_str(const char *str, struct mempolicy **out);
/* A new tmpfs file's policies: the mount's mp, made for the file, over
 * all of it (Linux's mpol_shared_policy_init); none if mp is NULL. */
void mpol_shared_init(struct shared_policy *sp, const struct mempolicy *mp);

struct vma;
/* The policy that governs v at addr (Linux's __get_vma_policy): the
 * object's for shared memory, else the VMA's; NULL for none (the
 * thread's then applies). No reference is taken. */
struct mempolicy *mpol_vma_at(struct vma *v, uint64_t addr);

struct task;
/* clone: the new thread takes its creator's policy (Linux's mpol_dup). */
void mpol_task_fork(struct task *c, const struct task *t);

#endif
