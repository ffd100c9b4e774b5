/* kernel/userns.h: user namespaces (Linux's user_namespace). Credentials
 * hold instance ids (Linux's kuid_t and kgid_t) and the user namespace
 * they belong to; a namespace's uid_map and gid_map say which instance ids
 * its ids stand for. Calls take and give ids through the caller's maps
 * (an id with none is EINVAL going in, overflowuid coming out).
 * Capabilities count in the namespace they were given in: capable() is the
 * instance's namespace's, ns_capable() a namespace's that owns something
 * (another namespace, a mapped inode). */
#ifndef KERNEL_USERNS_H
#define KERNEL_USERNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/nsproxy.h"

struct cred;

#define USERNS_LEVEL_MAX   32  /* Linux's: a parent deeper than this is ENOSPC */
#define ID_MAP_EXTENTS_MAX 340 /* Linux's UID_GID_MAP_MAX_EXTENTS */
#define INVALID_ID	   0xffffffffU

struct id_extent {
	uint32_t first; /* the namespace's */
	uint32_t lower; /* the instance's */
	uint32_t count;
};

struct id_map {
	int n;
	struct id_extent e[ID_MAP_EXTENTS_MAX];
};

struct user_ns {
	struct ns_common ns;
	struct user_ns *parent; /* a reference; NULL for the instance's */
	int level;
	uint32_t owner; /* the maker's effective uid (instance's) */
	struct id_map uid_map, gid_map;
	/* /proc/PID/setgroups: "deny" (set before gid_map, unprivileged
	 * maps need it) keeps setgroups(2) EPERM for good */
	bool setgroups_deny;
};

extern struct user_ns init_user_ns;

/* The user namespace of credentials c (the instance's for static ones). */
struct user_ns *cred_user_ns(const struct cred *c);
/* Namespace ids to instance ids and back: INVALID_ID where the map has
 * none. */
uint32_t make_kuid(const struct user_ns *ns, uint32_t uid);
uint32_t make_kgid(const struct user_ns *ns, uint32_t gid);
uint32_t from_kuid(const struct user_ns *ns, uint32_t kuid);
uint32_t from_kgid(const struct user_ns *ns, uint32_t kgid);
/* The same, overflowuid / overflowgid where there is none. */
uint32_t from_kuid_munged(const struct user_ns *ns, uint32_t kuid);
uint32_t from_kgid_munged(const struct user_ns *ns, uint32_t kgid);
/* A file's owner and group (instance ids, in place) as task t's user
 * namespace sees them (stat, statx). */
struct task;
void stat_ids_for(const struct task *t, uint32_t *uid, uint32_t *gid);
/* Has c capability cap in ns (Linux's cap_capable): its own namespace
 * with cap in its effective set, or an ancestor's, or as the owner of a
 * namespace made in its own. */
bool ns_capable(const struct cred *c, const struct user_ns *ns, int cap);
/* Is ns anc or below it? */
bool user_ns_within(const struct user_ns *ns, const struct user_ns *anc);
/* capable_wrt_inode_uidgid: cap in c's own namespace, and the inode's
 * owner and group mapped there. */
bool capable_wrt_ids(const struct cred *c, uint32_t kuid, uint32_t kgid, int cap);
/* The owning user namespace of a namespace (the instance's for the
 * initial ones). */
struct user_ns *ns_owner(const struct ns_common *ns);
/* A new namespace below c's, made by task t with credentials c, which c
 * then belongs to, with every capability there (Linux's create_user_ns
 * and its cred): 0, -ENOSPC, -EPERM (see user_ns_may_create), -ENOMEM. */
int user_ns_new(struct task *t, struct cred *c);
/* Its checks alone, for task t: 0, -ENOSPC (too deep, or past
 * max_user_namespaces) or -EPERM (chrooted, or c's ids unmapped). */
int user_ns_may_create(struct task *t, const struct cred *c);
/* c enters ns (setns): every capability there. False if c did not have
 * them all before (commit_creds then makes the process nondumpable). */
bool user_ns_enter(struct cred *c, struct user_ns *ns);
/* fork's copy of credentials takes a reference; the last one gone lets
 * go of it. */
void cred_get_ns(struct cred *c);
void cred_put_ns(struct cred *c);

/* /proc/PID/uid_map, gid_map, setgroups (fs/procfs): extent i of a map
 * as reader sees it (the lower ids in reader's namespace, or the parent's
 * when reader is ns itself), false past the last; and a write at offset
 * off through a file opened with credentials opener, by writer (Linux's
 * map_write and proc_setgroups_write): 0 or -errno. */
bool user_ns_map_extent(const struct user_ns *ns, bool gid, const struct user_ns *reader, int i,
			struct id_extent *out);
int user_ns_map_write(const struct cred *opener, const struct cred *writer, struct user_ns *ns,
		      bool gid, const char *buf, size_t len, int64_t off);
int user_ns_setgroups_write(const struct cred *opener, struct user_ns *ns, const char *buf,
			    size_t len, int64_t off);
/* May setgroups(2) be called in ns at all (a gid_map, not denied)? */
bool user_ns_may_setgroups(const struct user_ns *ns);

#endif
