/* ipc/ipc.c: IPC namespaces, id tables, key lookup and permission checks
 * shared by the three System V IPC kinds. */
#include <stdlib.h>

#include "ipc/ipc.h"
#include "kernel/task.h"
#include "kernel/userns.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"

#define IDS(max)                                            \
	{                                                   \
		.max_idx = -1, .last_idx = -1, .mni = (max) \
	}

/* A new namespace's tables and limits: Linux's defaults. */
#define IPC_NS_DEFAULTS                                                                           \
	.shm_ids = IDS(LINUX_SHMMNI), .sem_ids = IDS(LINUX_SEMMNI), .msg_ids = IDS(LINUX_MSGMNI), \
	.shm_ctlmax = LINUX_SHMMAX, .shm_ctlall = LINUX_SHMALL, .msg_ctlmax = LINUX_MSGMAX,       \
	.msg_ctlmnb = LINUX_MSGMNB, .sem_ctlmsl = LINUX_SEMMSL, .sem_ctlmns = LINUX_SEMMNS,       \
	.sem_ctlopm = LINUX_SEMOPM, .mq_queues_max = LINUX_DFLT_QUEUESMAX,                        \
	.mq_msg_max = LINUX_DFLT_MSGMAX, .mq_msgsize_max = LINUX_DFLT_MSGSIZEMAX,                 \
	.mq_msg_default = LINUX_DFLT_MSG, .mq_msgsize_default = LINUX_DFLT_MSGSIZE

struct ipc_ns init_ipc_ns = {
	.ns = { .refcount = 1, .ino = NS_INO_IPC, .type = NS_IPC },
	IPC_NS_DEFAULTS,
};

struct ipc_ns *ipc_ns_of(struct task *t)
{
	if (!t || !t->nsproxy)
		return &init_ipc_ns;
	return (struct ipc_ns *)t->nsproxy->ns[NS_IPC];
}

static void ipc_ns_free(struct ns_common *c)
{
	struct ipc_ns *ns = (struct ipc_ns *)c;

	shm_exit_ns(ns);
	sem_exit_ns(ns);
	msg_exit_ns(ns);
	mq_exit_ns(ns);
	free(ns->shm_ids.entry);
	free(ns->sem_ids.entry);
	free(ns->msg_ids.entry);
	ns_ino_free(c->ino);
	free(ns);
}

struct ns_common *ipc_ns_new(void)
{
	struct ipc_ns *ns = ns_alloc(sizeof(*ns), NS_IPC, ipc_ns_free);
	struct ns_common c;

	if (!ns)
		return NULL;
	c = ns->ns; /* ns_alloc's; the rest as a new namespace's */
	*ns = (struct ipc_ns){ IPC_NS_DEFAULTS };
	ns->ns = c;
	return &ns->ns;
}

/* Makes entry[idx] exist. */
static int ids_grow(struct ipc_ids *ids, int idx)
{
	int nsize = ids->size ? ids->size : 16;
	struct kern_ipc_perm **n;

	while (nsize <= idx)
		nsize *= 2;
	if (nsize > IPC_MNI)
		nsize = IPC_MNI;
	if (nsize <= ids->size)
		return 0;
	n = realloc(ids->entry, (size_t)nsize * sizeof(*n));
	if (!n)
		return -ENOMEM;
	for (int i = ids->size; i < nsize; i++)
		n[i] = NULL;
	ids->entry = n;
	ids->size = nsize;
	return 0;
}

/* Linux 6's idr_alloc_cyclic: the first free index after the last one
 * given, wrapping to 0, when the sequence number moves on. */
static int ids_next_free(struct ipc_ids *ids)
{
	for (int k = 0; k < IPC_MNI; k++) {
		int idx = (ids->last_idx + 1 + k) % IPC_MNI;

		if (idx >= ids->size || !ids->entry[idx])
			return idx;
	}
	return -ENOSPC;
}

int ipc_add(struct ipc_ids *ids, struct kern_ipc_perm *p, struct task *t, int32_t key, int flg)
{
	const struct cred *c = &t->proc->cred;
	int idx, ret;

	if (ids->in_use >= ids->mni)
		return -ENOSPC;
	idx = ids_next_free(ids);
	if (idx < 0)
		return idx;
	ret = ids_grow(ids, idx);
	if (ret < 0)
		return ret;
	p->ns = ipc_ns_of(t);
	p->key = key;
	p->uid = p->cuid = c->euid;
	p->gid = p->cgid = c->egid;
	p->mode = (unsigned)flg & 0777;
	p->deleted = false;
	if (idx <= ids->last_idx && ++ids->seq >= (unsigned)(INT32_MAX >> IPC_SEQ_SHIFT))
		ids->seq = 0;
	ids->last_idx = idx;
	p->seq = ids->seq;
	p->id = (int)(p->seq << IPC_SEQ_SHIFT) + idx;
	ids->entry[idx] = p;
	ids->in_use++;
	if (idx > ids->max_idx)
		ids->max_idx = idx;
	return p->id;
}

void ipc_remove(struct ipc_ids *ids, struct kern_ipc_perm *p)
{
	int idx = p->id & (IPC_MNI - 1);

	if (idx < ids->size && ids->entry[idx] == p) {
		ids->entry[idx] = NULL;
		ids->in_use--;
		while (ids->max_idx >= 0 && !ids->entry[ids->max_idx])
			ids->max_idx--;
	}
	p->deleted = true;
}

struct kern_ipc_perm *ipc_at(struct ipc_ids *ids, int idx)
{
	if (idx < 0 || idx >= ids->size)
		return NULL;
	return ids->entry[idx];
}

struct kern_ipc_perm *ipc_stat_lookup(struct ipc_ids *ids, struct task *t, int id, bool by_id,
				      bool any, int *err)
{
	/* An index is taken modulo IPC_MNI, as Linux's ipc_obtain_object_idr. */
	struct kern_ipc_perm *p = by_id ? ipc_lookup(ids, id) : ipc_at(ids, id & (IPC_MNI - 1));

	*err = p ? 0 : -EINVAL;
	if (p && !any)
		*err = ipc_perms(t, p, 0444);
	return *err < 0 ? NULL : p;
}

struct kern_ipc_perm *ipc_lookup(struct ipc_ids *ids, int id)
{
	struct kern_ipc_perm *p;

	if (id < 0)
		return NULL;
	p = ipc_at(ids, id & (IPC_MNI - 1));
	if (!p || p->id != id)
		return NULL;
	return p;
}

static struct kern_ipc_perm *ipc_find_key(struct ipc_ids *ids, int32_t key)
{
	for (int i = 0; i <= ids->max_idx; i++)
		if (ids->entry[i] && ids->entry[i]->key == key)
			return ids->entry[i];
	return NULL;
}

int ipc_get(struct task *t, struct ipc_ids *ids, int32_t key, int flg, const struct ipc_ops *ops,
	    void *arg)
{
	struct kern_ipc_perm *p;
	int ret;

	if (key == LINUX_IPC_PRIVATE)
		return ops->create(t, key, flg, arg);
	p = ipc_find_key(ids, key);
	if (!p) {
		if (!(flg & LINUX_IPC_CREAT))
			return -ENOENT;
		return ops->create(t, key, flg, arg);
	}
	if ((flg & LINUX_IPC_CREAT) && (flg & LINUX_IPC_EXCL))
		return -EEXIST;
	if (ops->more_checks) {
		ret = ops->more_checks(p, arg);
		if (ret < 0)
			return ret;
	}
	ret = ipc_perms(t, p, flg);
	return ret < 0 ? ret : p->id;
}

int ipc_perms(struct task *t, const struct kern_ipc_perm *p, int flg)
{
	const struct cred *c = &t->proc->cred;
	unsigned requested = ((unsigned)flg >> 6 | (unsigned)flg >> 3 | (unsigned)flg) & 7;
	unsigned granted = p->mode;

	if (c->euid == p->cuid || c->euid == p->uid)
		granted >>= 6;
	else if (in_group(c, p->cgid) || in_group(c, p->gid))
		granted >>= 3;
	if ((requested & ~granted & 7) && !capable(c, CAP_IPC_OWNER))
		return -EACCES;
	return 0;
}

int ipc_owner_check(struct task *t, const struct kern_ipc_perm *p)
{
	const struct cred *c = &t->proc->cred;

	if (c->euid == p->cuid || c->euid == p->uid || capable(c, CAP_SYS_ADMIN))
		return 0;
	return -EPERM;
}

/* The caller's user namespace's ids (kernel_to_ipc64_perm), and back
 * (ipc_update_perm: EINVAL for one it has no mapping of). */
static const struct user_ns *caller_ns(void)
{
	return current ? cred_user_ns(&current->proc->cred) : &init_user_ns;
}

void ipc_perm_to_user(const struct kern_ipc_perm *p, struct linux_ipc64_perm *out)
{
	const struct user_ns *ns = caller_ns();

	out->key = p->key;
	out->uid = from_kuid_munged(ns, p->uid);
	out->gid = from_kgid_munged(ns, p->gid);
	out->cuid = from_kuid_munged(ns, p->cuid);
	out->cgid = from_kgid_munged(ns, p->cgid);
	out->mode = p->mode;
	out->seq = (uint16_t)p->seq;
	out->pad2 = 0;
	out->unused1 = out->unused2 = 0;
}

int ipc_perm_set(struct kern_ipc_perm *p, const struct linux_ipc64_perm *in)
{
	uint32_t uid = make_kuid(caller_ns(), in->uid), gid = make_kgid(caller_ns(), in->gid);

	if (uid == INVALID_ID || gid == INVALID_ID)
		return -EINVAL;
	p->uid = uid;
	p->gid = gid;
	p->mode = (p->mode & ~0777u) | (in->mode & 0777);
	return 0;
}

int64_t ipc_now(void)
{
	return host_clock_ns(LINUX_CLOCK_REALTIME) / 1000000000LL;
}

int ipc_pid(struct task *t)
{
	return t ? t->proc->pid : 0;
}
