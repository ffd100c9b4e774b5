/* kernel/userns.c: user namespaces: their maps, the translation of ids
 * through them, and capabilities counted per namespace. The instance's
 * namespace maps every id to itself. */
#include <stdlib.h>
#include <string.h>

#include "kernel/userns.h"
#include "kernel/cred.h"
#include "kernel/task.h"
#include "vfs/namespace.h"
#include "abi/linux/errno.h"

struct user_ns init_user_ns = {
	.ns = { .refcount = 1, .ino = NS_INO_USER, .type = NS_USER },
	.uid_map = { .n = 1, .e = { { 0, 0, 0xffffffffU } } },
	.gid_map = { .n = 1, .e = { { 0, 0, 0xffffffffU } } },
};

/* Live user namespaces but the instance's, against
 * /proc/sys/user/max_user_namespaces. */
static int nr_user_ns;

struct user_ns *cred_user_ns(const struct cred *c)
{
	return c->user_ns ? c->user_ns : &init_user_ns;
}

struct user_ns *ns_owner(const struct ns_common *ns)
{
	return ns->owner ? (struct user_ns *)ns->owner : &init_user_ns;
}

/* id in the extents' first range to their lower one (down), or back. */
static uint32_t map_down(const struct id_map *m, uint32_t id)
{
	int i;

	for (i = 0; i < m->n; i++)
		if (id - m->e[i].first < m->e[i].count)
			return m->e[i].lower + (id - m->e[i].first);
	return INVALID_ID;
}

static uint32_t map_up(const struct id_map *m, uint32_t id)
{
	int i;

	for (i = 0; i < m->n; i++)
		if (id - m->e[i].lower < m->e[i].count)
			return m->e[i].first + (id - m->e[i].lower);
	return INVALID_ID;
}

uint32_t make_kuid(const struct user_ns *ns, uint32_t uid)
{
	return ns == &init_user_ns ? uid : map_down(&ns->uid_map, uid);
}

uint32_t make_kgid(const struct user_ns *ns, uint32_t gid)
{
	return ns == &init_user_ns ? gid : map_down(&ns->gid_map, gid);
}

uint32_t from_kuid(const struct user_ns *ns, uint32_t kuid)
{
	return ns == &init_user_ns ? kuid : map_up(&ns->uid_map, kuid);
}

uint32_t from_kgid(const struct user_ns *ns, uint32_t kgid)
{
	return ns == &init_user_ns ? kgid : map_up(&ns->gid_map, kgid);
}

uint32_t from_kuid_munged(const struct user_ns *ns, uint32_t kuid)
{
	uint32_t id = from_kuid(ns, kuid);

	return id == INVALID_ID ? overflowuid : id;
}

uint32_t from_kgid_munged(const struct user_ns *ns, uint32_t kgid)
{
	uint32_t id = from_kgid(ns, kgid);

	return id == INVALID_ID ? overflowgid : id;
}

void stat_ids_for(const struct task *t, uint32_t *uid, uint32_t *gid)
{
	const struct user_ns *ns = cred_user_ns(&t->proc->cred);

	if (ns == &init_user_ns)
		return;
	*uid = from_kuid_munged(ns, *uid);
	*gid = from_kgid_munged(ns, *gid);
}

bool ns_capable(const struct cred *c, const struct user_ns *ns, int cap)
{
	const struct user_ns *own = cred_user_ns(c);

	for (;;) {
		if (ns == own)
			return c->cap_effective & (1ULL << cap);
		if (ns->level <= own->level)
			return false;
		/* the owner of a namespace made in its own has them all */
		if (ns->parent == own && ns->owner == c->euid)
			return true;
		ns = ns->parent;
	}
}

bool user_ns_within(const struct user_ns *ns, const struct user_ns *anc)
{
	while (ns && ns->level > anc->level)
		ns = ns->parent;
	return ns == anc;
}

bool capable_wrt_ids(const struct cred *c, uint32_t kuid, uint32_t kgid, int cap)
{
	const struct user_ns *ns = cred_user_ns(c);

	return ns_capable(c, ns, cap) && from_kuid(ns, kuid) != INVALID_ID &&
	       from_kgid(ns, kgid) != INVALID_ID;
}

static void user_ns_free(struct ns_common *common)
{
	struct user_ns *ns = (struct user_ns *)common;

	ns_ino_free(common->ino);
	ns_put(&ns->parent->ns);
	free(ns);
	nr_user_ns--;
}

static void full_caps(struct cred *c)
{
	c->cap_permitted = c->cap_effective = c->cap_bset = CAP_FULL_SET;
	c->cap_inheritable = 0;
	c->cap_ambient = 0;
	c->securebits = 0;
}

int user_ns_may_create(struct task *t, const struct cred *c)
{
	struct user_ns *parent = cred_user_ns(c);

	/* create_user_ns: too deep or too many (ENOSPC since Linux 4.9),
	 * then a chrooted maker (EPERM: it could leave its root) */
	if (parent->level > USERNS_LEVEL_MAX || nr_user_ns >= ns_max(NS_USER))
		return -ENOSPC;
	if (fs_chrooted(t))
		return -EPERM;
	/* the maker's ids must mean something where the new one hangs */
	if (from_kuid(parent, c->euid) == INVALID_ID || from_kgid(parent, c->egid) == INVALID_ID)
		return -EPERM;
	return 0;
}

int user_ns_new(struct task *t, struct cred *c)
{
	struct user_ns *parent = cred_user_ns(c), *ns;
	int ret = user_ns_may_create(t, c);

	if (ret < 0)
		return ret;
	ns = ns_alloc(sizeof(*ns), NS_USER, user_ns_free);
	if (!ns)
		return -ENOMEM;
	nr_user_ns++;
	ns->parent = parent; /* c's reference on it passes to this link */
	ns->level = parent->level + 1;
	ns->owner = c->euid;
	ns->setgroups_deny = parent->setgroups_deny; /* Linux's flags are inherited */
	c->user_ns = ns;			     /* its first reference */
	full_caps(c);
	return 0;
}

bool user_ns_enter(struct cred *c, struct user_ns *ns)
{
	/* Linux's cred_cap_issubset: c held every capability there before
	 * only if ns is below c's and c's euid owns it or one between */
	const struct user_ns *own = cred_user_ns(c), *n;
	bool subset = false;

	for (n = ns; n && n != &init_user_ns; n = n->parent)
		if (n->parent == own && n->owner == c->euid)
			subset = true;
	ns_get(&ns->ns);
	cred_put_ns(c);
	c->user_ns = ns;
	full_caps(c);
	return subset;
}

void cred_get_ns(struct cred *c)
{
	ns_get(&cred_user_ns(c)->ns);
}

void cred_put_ns(struct cred *c)
{
	ns_put(&cred_user_ns(c)->ns);
}

/* /proc/PID/{uid,gid}_map */

bool user_ns_map_extent(const struct user_ns *ns, bool gid, const struct user_ns *reader, int i,
			struct id_extent *out)
{
	const struct id_map *m = gid ? &ns->gid_map : &ns->uid_map;
	const struct user_ns *lower_ns = reader;

	if (i >= m->n)
		return false;
	if (lower_ns == ns && ns->parent)
		lower_ns = ns->parent;
	*out = m->e[i];
	out->lower = gid ? from_kgid(lower_ns, m->e[i].lower) : from_kuid(lower_ns, m->e[i].lower);
	return true;
}

/* A decimal number and what follows it; NULL if there is none. */
static const char *parse_u32(const char *s, const char *end, uint32_t *v)
{
	uint64_t n = 0;
	const char *p = s;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	s = p;
	while (p < end && *p >= '0' && *p <= '9') {
		n = n * 10 + (uint64_t)(*p++ - '0');
		if (n > 0xffffffffULL)
			return NULL;
	}
	if (p == s)
		return NULL;
	*v = (uint32_t)n;
	return p;
}

static bool extents_overlap(const struct id_map *m, const struct id_extent *e)
{
	int i;

	for (i = 0; i < m->n; i++) {
		const struct id_extent *o = &m->e[i];

		if ((e->first <= o->first + (o->count - 1) &&
		     o->first <= e->first + (e->count - 1)) ||
		    (e->lower <= o->lower + (o->count - 1) &&
		     o->lower <= e->lower + (e->count - 1)))
			return true;
	}
	return false;
}

/* Linux's new_idmap_permitted: the opener, the namespace's owner, mapping
 * its own id alone (its gid only once setgroups is denied), or CAP_SETUID
 * / CAP_SETGID over the parent namespace in the writer and the opener. */
static bool map_permitted(const struct cred *opener, const struct cred *writer,
			  const struct user_ns *ns, bool gid, const struct id_map *m)
{
	int cap = gid ? CAP_SETGID : CAP_SETUID;

	if (m->n == 1 && m->e[0].count == 1 && ns->owner == opener->euid) {
		uint32_t id = m->e[0].lower; /* still the parent's */

		if (!gid && make_kuid(ns->parent, id) == opener->euid)
			return true;
		if (gid && ns->setgroups_deny && make_kgid(ns->parent, id) == opener->egid)
			return true;
	}
	return ns_capable(writer, ns->parent, cap) && ns_capable(opener, ns->parent, cap);
}

/* Linux's map_id_range_down: the first of count ids from id through m,
 * the whole range in one extent; INVALID_ID if there is none. */
static uint32_t map_range_down(const struct id_map *m, uint32_t id, uint32_t count)
{
	int i;

	for (i = 0; i < m->n; i++)
		if (id - m->e[i].first < m->e[i].count &&
		    (id + (count - 1)) - m->e[i].first < m->e[i].count)
			return m->e[i].lower + (id - m->e[i].first);
	return INVALID_ID;
}

int user_ns_map_write(const struct cred *opener, const struct cred *writer, struct user_ns *ns,
		      bool gid, const char *buf, size_t len, int64_t off)
{
	struct id_map *dst = gid ? &ns->gid_map : &ns->uid_map, *m;
	const struct user_ns *own = cred_user_ns(opener);
	const char *p = buf, *end = buf + len;
	int i, ret = -EINVAL;

	/* proc_uid_map_write, then map_write's order */
	if (own != ns && own != ns->parent)
		return -EPERM;
	if (off != 0 || len >= 4096)
		return -EINVAL;
	if (ns == &init_user_ns || dst->n)
		return -EPERM; /* written once (the instance's at boot) */
	if (!ns_capable(opener, ns, CAP_SYS_ADMIN))
		return -EPERM;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	while (p < end) {
		struct id_extent e;
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end;

		if (!(p = parse_u32(p, le, &e.first)) || !(p = parse_u32(p, le, &e.lower)) ||
		    !(p = parse_u32(p, le, &e.count)))
			goto out;
		while (p < le && (*p == ' ' || *p == '\t'))
			p++;
		/* no range may reach 4294967295 (first + count wraps) */
		if (p != le || e.count == 0 || e.first + e.count <= e.first ||
		    e.lower + e.count <= e.lower || m->n == ID_MAP_EXTENTS_MAX ||
		    extents_overlap(m, &e))
			goto out;
		m->e[m->n++] = e;
		p = nl ? nl + 1 : end;
	}
	if (m->n == 0)
		goto out;
	ret = -EPERM;
	if (!map_permitted(opener, writer, ns, gid, m))
		goto out;
	/* the lower ids through the parent's map, each range in one extent */
	for (i = 0; i < m->n; i++) {
		uint32_t lo = m->e[i].lower;

		if (ns->parent != &init_user_ns)
			lo = map_range_down(gid ? &ns->parent->gid_map : &ns->parent->uid_map, lo,
					    m->e[i].count);
		if (lo == INVALID_ID)
			goto out;
		m->e[i].lower = lo;
	}
	*dst = *m;
	ret = 0;
out:
	free(m);
	return ret;
}

int user_ns_setgroups_write(const struct cred *opener, struct user_ns *ns, const char *buf,
			    size_t len, int64_t off)
{
	bool allow;

	if (off != 0 || len >= 8)
		return -EINVAL;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	if (len == 5 && !memcmp(buf, "allow", 5))
		allow = true;
	else if (len == 4 && !memcmp(buf, "deny", 4))
		allow = false;
	else
		return -EINVAL;
	if (!ns_capable(opener, ns, CAP_SYS_ADMIN))
		return -EPERM;
	if (allow && ns->setgroups_deny)
		return -EPERM; /* denied for good */
	if (!allow && ns->gid_map.n)
		return -EPERM; /* too late: a gid_map is written */
	ns->setgroups_deny = !allow;
	return 0;
}

bool user_ns_may_setgroups(const struct user_ns *ns)
{
	return ns->gid_map.n && !ns->setgroups_deny;
}
