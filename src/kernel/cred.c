/* kernel/cred.c: the set*id family, groups and capabilities, with Linux's
 * rules (credentials(7), capabilities(7): "Effect of user ID changes on
 * capabilities"). Ids going in and out are the caller's user namespace's
 * (kernel/userns.h), root is its uid 0, and the capabilities to change
 * ids are counted there; the securebits' NO_SETUID_FIXUP and KEEP_CAPS
 * change that (exec.c heeds NOROOT and the file capabilities). */
#include <stdlib.h>
#include <string.h>

#include "kernel/task.h"
#include "kernel/pidns.h"
#include "kernel/userns.h"
#include "syscalls/dispatch.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"

#define NOCHANGE 0xffffffffU

uint32_t overflowuid = 65534, overflowgid = 65534;

void cred_init(struct cred *c, uint32_t uid, uint32_t gid)
{
	c->uid = c->euid = c->suid = c->fsuid = uid;
	c->gid = c->egid = c->sgid = c->fsgid = gid;
	c->cap_inheritable = 0;
	c->cap_permitted = c->cap_effective = uid == 0 ? CAP_FULL_SET : 0;
	c->cap_bset = CAP_FULL_SET;
}

/* What Linux's commit_creds does when the effective or fs ids change:
 * the process is no longer dumpable and the calling thread's parent-death
 * signal is dropped (the parent may no longer signal it). */
static void ids_changed(struct task *t)
{
	t->proc->nondumpable = true;
	t->pdeath_signal = 0;
}

void cred_exec_commit(struct task *t, const struct cred *nc)
{
	struct cred *c = &t->proc->cred;

	if (nc->euid != c->euid || nc->egid != c->egid || nc->fsuid != c->fsuid ||
	    nc->fsgid != c->fsgid)
		t->pdeath_signal = 0;
	*c = *nc;
	t->proc->nondumpable = nc->euid != nc->uid || nc->egid != nc->gid;
}

bool in_group(const struct cred *c, uint32_t gid)
{
	int i;

	if (c->fsgid == gid || c->egid == gid)
		return true;
	for (i = 0; i < c->ngroups; i++)
		if (c->groups[i] == gid)
			return true;
	return false;
}

bool cred_ptrace_may_access(const struct cred *c, const struct process *p, bool real_ids)
{
	const struct cred *pc = &p->cred;
	uint32_t uid = real_ids ? c->uid : c->euid, gid = real_ids ? c->gid : c->egid;

	/* ptrace_has_cap: in the target's user namespace; a nondumpable
	 * target's memory is the instance's to reach (Linux: the namespace
	 * of its exec, taken here as the instance's) */
	if (ns_capable(c, cred_user_ns(pc), CAP_SYS_PTRACE) &&
	    (!p->nondumpable || capable(c, CAP_SYS_PTRACE)))
		return true;
	return !p->nondumpable && uid == pc->uid && uid == pc->euid && uid == pc->suid &&
	       gid == pc->gid && gid == pc->egid && gid == pc->sgid;
}

/* Namespace ids (the caller's user namespace's) to instance ids in
 * place, NOCHANGE kept: false if one has no mapping (EINVAL). */
static bool map_ids(const struct cred *c, bool gid, uint32_t *ids, int n)
{
	const struct user_ns *ns = cred_user_ns(c);
	int i;

	for (i = 0; i < n; i++) {
		if (ids[i] == NOCHANGE)
			continue;
		ids[i] = gid ? make_kgid(ns, ids[i]) : make_kuid(ns, ids[i]);
		if (ids[i] == INVALID_ID)
			return false;
	}
	return true;
}

/* Capabilities follow the uids as capabilities(7) says; root is the
 * user namespace's uid 0. */
static void fix_caps(struct cred *c, uint32_t old_uid, uint32_t old_euid, uint32_t old_suid,
		     uint32_t old_fsuid)
{
	uint32_t root = make_kuid(cred_user_ns(c), 0);

	if (c->securebits & SECBIT_NO_SETUID_FIXUP)
		return; /* cap_task_fix_setuid */
	if ((old_uid == root || old_euid == root || old_suid == root) && c->uid != root &&
	    c->euid != root && c->suid != root) {
		if (!(c->securebits & SECBIT_KEEP_CAPS)) {
			c->cap_permitted = 0;
			c->cap_effective = 0;
		}
		c->cap_ambient = 0; /* keep-caps or not */
	}
	if (old_euid == root && c->euid != root)
		c->cap_effective = 0;
	if (old_euid != root && c->euid == root)
		c->cap_effective = c->cap_permitted;
	if (old_fsuid == root && c->fsuid != root)
		c->cap_effective &= ~((1ULL << CAP_CHOWN) | (1ULL << CAP_DAC_OVERRIDE) |
				      (1ULL << CAP_DAC_READ_SEARCH) | (1ULL << CAP_FOWNER));
}

static bool is_one_of(uint32_t v, uint32_t a, uint32_t b, uint32_t c)
{
	return v == a || v == b || v == c;
}

/* Sets the ids (NOCHANGE leaves one), without permission checks. */
static long set_resuid_priv(struct task *t, uint32_t r, uint32_t e, uint32_t s)
{
	struct cred *c = &t->proc->cred;
	uint32_t ou = c->uid, oe = c->euid, os = c->suid, of = c->fsuid;

	if (r != NOCHANGE)
		c->uid = r;
	if (e != NOCHANGE)
		c->euid = e;
	if (s != NOCHANGE)
		c->suid = s;
	c->fsuid = c->euid;
	fix_caps(c, ou, oe, os, of);
	if (c->euid != oe || c->fsuid != of)
		ids_changed(t);
	/* Linux's flag_nproc_exceeded: set*uid does not fail past
	 * RLIMIT_NPROC (programs run as root do not check); the next execve
	 * does. */
	if (c->uid != ou)
		t->proc->nproc_exceeded =
			c->uid != 0 &&
			nproc_count(c->uid) > t->proc->rlim[LINUX_RLIMIT_NPROC].rlim_cur;
	return 0;
}

static long set_resuid(struct task *t, uint32_t r, uint32_t e, uint32_t s)
{
	struct cred *c = &t->proc->cred;

	if (!ns_capable(c, cred_user_ns(c), CAP_SETUID) &&
	    ((r != NOCHANGE && !is_one_of(r, c->uid, c->euid, c->suid)) ||
	     (e != NOCHANGE && !is_one_of(e, c->uid, c->euid, c->suid)) ||
	     (s != NOCHANGE && !is_one_of(s, c->uid, c->euid, c->suid))))
		return -EPERM;
	return set_resuid_priv(t, r, e, s);
}

static long set_resgid_priv(struct task *t, uint32_t r, uint32_t e, uint32_t s)
{
	struct cred *c = &t->proc->cred;
	uint32_t oe = c->egid, of = c->fsgid;

	if (r != NOCHANGE)
		c->gid = r;
	if (e != NOCHANGE)
		c->egid = e;
	if (s != NOCHANGE)
		c->sgid = s;
	c->fsgid = c->egid;
	if (c->egid != oe || c->fsgid != of)
		ids_changed(t);
	return 0;
}

static long set_resgid(struct task *t, uint32_t r, uint32_t e, uint32_t s)
{
	struct cred *c = &t->proc->cred;

	if (!ns_capable(c, cred_user_ns(c), CAP_SETGID) &&
	    ((r != NOCHANGE && !is_one_of(r, c->gid, c->egid, c->sgid)) ||
	     (e != NOCHANGE && !is_one_of(e, c->gid, c->egid, c->sgid)) ||
	     (s != NOCHANGE && !is_one_of(s, c->gid, c->egid, c->sgid))))
		return -EPERM;
	return set_resgid_priv(t, r, e, s);
}

long sys_setuid(struct task *t, const struct sysargs *a)
{
	struct cred *c = &t->proc->cred;
	uint32_t uid = sysarg_uint(a, 0);

	if (uid == NOCHANGE || !map_ids(c, false, &uid, 1))
		return -EINVAL;
	if (ns_capable(c, cred_user_ns(c), CAP_SETUID))
		return set_resuid(t, uid, uid, uid);
	if (uid != c->uid && uid != c->suid)
		return -EPERM;
	return set_resuid(t, NOCHANGE, uid, NOCHANGE);
}

long sys_setgid(struct task *t, const struct sysargs *a)
{
	struct cred *c = &t->proc->cred;
	uint32_t gid = sysarg_uint(a, 0);

	if (gid == NOCHANGE || !map_ids(c, true, &gid, 1))
		return -EINVAL;
	if (ns_capable(c, cred_user_ns(c), CAP_SETGID))
		return set_resgid(t, gid, gid, gid);
	if (gid != c->gid && gid != c->sgid)
		return -EPERM;
	return set_resgid(t, NOCHANGE, gid, NOCHANGE);
}

long sys_setreuid(struct task *t, const struct sysargs *a)
{
	struct cred *c = &t->proc->cred;
	uint32_t r = sysarg_uint(a, 0), e = sysarg_uint(a, 1), s = NOCHANGE;

	if (!map_ids(c, false, &r, 1) || !map_ids(c, false, &e, 1))
		return -EINVAL;
	if (!ns_capable(c, cred_user_ns(c), CAP_SETUID)) {
		if (r != NOCHANGE && r != c->uid && r != c->euid)
			return -EPERM;
		if (e != NOCHANGE && !is_one_of(e, c->uid, c->euid, c->suid))
			return -EPERM;
	}
	if (r != NOCHANGE || (e != NOCHANGE && e != c->uid))
		s = e != NOCHANGE ? e : c->euid;
	return set_resuid_priv(t, r, e, s);
}

long sys_setregid(struct task *t, const struct sysargs *a)
{
	struct cred *c = &t->proc->cred;
	uint32_t r = sysarg_uint(a, 0), e = sysarg_uint(a, 1), s = NOCHANGE;

	if (!map_ids(c, true, &r, 1) || !map_ids(c, true, &e, 1))
		return -EINVAL;
	if (!ns_capable(c, cred_user_ns(c), CAP_SETGID)) {
		if (r != NOCHANGE && r != c->gid && r != c->egid)
			return -EPERM;
		if (e != NOCHANGE && !is_one_of(e, c->gid, c->egid, c->sgid))
			return -EPERM;
	}
	if (r != NOCHANGE || (e != NOCHANGE && e != c->gid))
		s = e != NOCHANGE ? e : c->egid;
	return set_resgid_priv(t, r, e, s);
}

long sys_setresuid(struct task *t, const struct sysargs *a)
{
	uint32_t ids[3] = { sysarg_uint(a, 0), sysarg_uint(a, 1), sysarg_uint(a, 2) };

	if (!map_ids(&t->proc->cred, false, ids, 3))
		return -EINVAL;
	return set_resuid(t, ids[0], ids[1], ids[2]);
}

long sys_setresgid(struct task *t, const struct sysargs *a)
{
	uint32_t ids[3] = { sysarg_uint(a, 0), sysarg_uint(a, 1), sysarg_uint(a, 2) };

	if (!map_ids(&t->proc->cred, true, ids, 3))
		return -EINVAL;
	return set_resgid(t, ids[0], ids[1], ids[2]);
}

/* The three ids (instance's) as the caller's user namespace sees them. */
static long get_res(struct task *t, const struct sysargs *a, uint32_t r, uint32_t e, uint32_t s,
		    bool gid)
{
	const struct user_ns *ns = cred_user_ns(&t->proc->cred);

	r = gid ? from_kgid_munged(ns, r) : from_kuid_munged(ns, r);
	e = gid ? from_kgid_munged(ns, e) : from_kuid_munged(ns, e);
	s = gid ? from_kgid_munged(ns, s) : from_kuid_munged(ns, s);
	if (copy_to_user(t->mm, sysarg_uaddr(a, 0), &r, 4) < 0 ||
	    copy_to_user(t->mm, sysarg_uaddr(a, 1), &e, 4) < 0 ||
	    copy_to_user(t->mm, sysarg_uaddr(a, 2), &s, 4) < 0)
		return -EFAULT;
	return 0;
}

long sys_getresuid(struct task *t, const struct sysargs *a)
{
	struct cred *c = &t->proc->cred;

	return get_res(t, a, c->uid, c->euid, c->suid, false);
}

long sys_getresgid(struct task *t, const struct sysargs *a)
{
	struct cred *c = &t->proc->cred;

	return get_res(t, a, c->gid, c->egid, c->sgid, true);
}

long sys_setfsuid(struct task *t, const struct sysargs *a)
{
	struct cred *c = &t->proc->cred;
	uint32_t old = c->fsuid, v = sysarg_uint(a, 0);
	long ret = from_kuid_munged(cred_user_ns(c), old);

	if (v == NOCHANGE || !map_ids(c, false, &v, 1))
		return ret;
	if (ns_capable(c, cred_user_ns(c), CAP_SETUID) || v == c->uid || v == c->euid ||
	    v == c->suid || v == c->fsuid) {
		c->fsuid = v;
		fix_caps(c, c->uid, c->euid, c->suid, old);
		if (v != old)
			ids_changed(t);
	}
	return ret;
}

long sys_setfsgid(struct task *t, const struct sysargs *a)
{
	struct cred *c = &t->proc->cred;
	uint32_t old = c->fsgid, v = sysarg_uint(a, 0);
	long ret = from_kgid_munged(cred_user_ns(c), old);

	if (v == NOCHANGE || !map_ids(c, true, &v, 1))
		return ret;
	if (ns_capable(c, cred_user_ns(c), CAP_SETGID) || v == c->gid || v == c->egid ||
	    v == c->sgid || v == c->fsgid) {
		c->fsgid = v;
		if (v != old)
			ids_changed(t);
	}
	return ret;
}

long sys_getgroups(struct task *t, const struct sysargs *a)
{
	struct cred *c = &t->proc->cred;
	int size = sysarg_int(a, 0);

	if (size < 0)
		return -EINVAL;
	if (size == 0)
		return c->ngroups;
	if (size < c->ngroups)
		return -EINVAL;
	if (cred_user_ns(c) != &init_user_ns) {
		uint32_t *g = malloc(c->ngroups * sizeof(uint32_t) + 1);
		int i, ret;

		if (!g)
			return -ENOMEM;
		for (i = 0; i < c->ngroups; i++)
			g[i] = from_kgid_munged(cred_user_ns(c), c->groups[i]);
		ret = copy_to_user(t->mm, sysarg_uaddr(a, 1), g, c->ngroups * sizeof(uint32_t));
		free(g);
		return ret < 0 ? -EFAULT : c->ngroups;
	}
	if (copy_to_user(t->mm, sysarg_uaddr(a, 1), c->groups, c->ngroups * sizeof(uint32_t)) < 0)
		return -EFAULT;
	return c->ngroups;
}

static int cmp_gid(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

long sys_setgroups(struct task *t, const struct sysargs *a)
{
	struct cred *c = &t->proc->cred;
	int size = sysarg_int(a, 0);
	uint32_t *g = NULL;

	/* may_setgroups: CAP_SETGID in the caller's user namespace, which
	 * has a gid_map and setgroups not denied */
	if (!ns_capable(c, cred_user_ns(c), CAP_SETGID) ||
	    (cred_user_ns(c) != &init_user_ns && !user_ns_may_setgroups(cred_user_ns(c))))
		return -EPERM;
	if (size < 0 || size > NGROUPS_MAX_GUEST)
		return -EINVAL;
	if (size) {
		g = malloc(size * sizeof(uint32_t));
		if (!g)
			return -ENOMEM;
		if (copy_from_user(t->mm, g, sysarg_uaddr(a, 1), size * sizeof(uint32_t)) < 0) {
			free(g);
			return -EFAULT;
		}
		if (!map_ids(c, true, g, size)) {
			free(g);
			return -EINVAL;
		}
		qsort(g, size, sizeof(uint32_t), cmp_gid);
	}
	free(c->groups);
	c->groups = g;
	c->ngroups = size;
	return 0;
}

#define LINUX_CAPABILITY_VERSION_1 0x19980330
#define LINUX_CAPABILITY_VERSION_2 0x20071026
#define LINUX_CAPABILITY_VERSION_3 0x20080522

struct cap_header {
	uint32_t version;
	int32_t pid;
};

struct cap_data {
	uint32_t effective, permitted, inheritable;
};

static int cap_words(struct task *t, uaddr_t uhdr, struct cap_header *h)
{
	if (copy_from_user(t->mm, h, uhdr, sizeof(*h)) < 0)
		return -EFAULT;
	switch (h->version) {
	case LINUX_CAPABILITY_VERSION_1:
		return 1;
	case LINUX_CAPABILITY_VERSION_2:
	case LINUX_CAPABILITY_VERSION_3:
		return 2;
	default:
		h->version = LINUX_CAPABILITY_VERSION_3;
		if (copy_to_user(t->mm, uhdr, h, sizeof(*h)) < 0)
			return -EFAULT;
		return -EINVAL;
	}
}

long sys_capget(struct task *t, const struct sysargs *a)
{
	struct cap_header h;
	struct cap_data d[2];
	struct process *p;
	int n = cap_words(t, sysarg_uaddr(a, 0), &h), i;

	if (n == -EINVAL && !sysarg_uaddr(a, 1))
		return 0;
	if (n < 0)
		return n;
	if (h.pid < 0)
		return -EINVAL;
	p = h.pid ? process_by_vpid(t, h.pid) : t->proc;
	if (!p) {
		struct task *th = task_by_vtid(t, h.pid);

		p = th ? th->proc : NULL;
	}
	if (!p)
		return -ESRCH;
	for (i = 0; i < 2; i++) {
		d[i].effective = (uint32_t)(p->cred.cap_effective >> (32 * i));
		d[i].permitted = (uint32_t)(p->cred.cap_permitted >> (32 * i));
		d[i].inheritable = (uint32_t)(p->cred.cap_inheritable >> (32 * i));
	}
	if (!sysarg_uaddr(a, 1))
		return 0;
	return copy_to_user(t->mm, sysarg_uaddr(a, 1), d, n * sizeof(d[0]));
}

long sys_capset(struct task *t, const struct sysargs *a)
{
	struct cred *c = &t->proc->cred;
	struct cap_header h;
	struct cap_data d[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
	uint64_t e, p, i;
	int n = cap_words(t, sysarg_uaddr(a, 0), &h);

	if (n < 0)
		return n;
	if (h.pid != 0 && h.pid != pid_vnr(t, t->tid) && h.pid != pid_vnr(t, t->proc->pid))
		return -EPERM;
	if (copy_from_user(t->mm, d, sysarg_uaddr(a, 1), n * sizeof(d[0])) < 0)
		return -EFAULT;
	e = d[0].effective | ((uint64_t)d[1].effective << 32);
	p = d[0].permitted | ((uint64_t)d[1].permitted << 32);
	i = d[0].inheritable | ((uint64_t)d[1].inheritable << 32);
	e &= CAP_FULL_SET;
	p &= CAP_FULL_SET;
	i &= CAP_FULL_SET;
	if ((p & ~c->cap_permitted) || (e & ~p))
		return -EPERM;
	if ((i & ~(c->cap_inheritable | c->cap_permitted)) &&
	    !ns_capable(c, cred_user_ns(c), CAP_SETPCAP))
		return -EPERM;
	/* nothing new in the inheritable set from outside the bounding set */
	if (i & ~(c->cap_inheritable | c->cap_bset))
		return -EPERM;
	c->cap_effective = e;
	c->cap_permitted = p;
	c->cap_inheritable = i;
	c->cap_ambient &= p & i;
	return 0;
}
