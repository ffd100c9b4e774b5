/* vfs/dcache.c: the path walk's cache of lookups. Without it every
 * component of every path asks its filesystem again (hostfs: an openat and
 * an fstat on the host per component, then a close).
 *
 * An entry maps (parent dentry, name) to the child dentry found, or to
 * "absent". The VFS empties the cache whenever a name is removed or
 * renamed in any filesystem, and drops every "absent" whenever one is
 * created (coarse, but it cannot miss one: a new name was absent before,
 * and no other name changes), and an entry lives at most DCACHE_TTL_NS. Filesystems ask for it (super_block.cache_lookups):
 * tmpfs, whose names change only through the VFS, and the overlay, whose
 * host lower layer may change behind skas's back: such a change is seen
 * within DCACHE_TTL_NS, as NFS's attribute timeout does. hostfs mounts (-v
 * volumes, --rw roots) are not cached here: hostfs keeps its own cache,
 * checked against the host at every use, so a host change is seen at
 * once. procfs and devpts names come and go with processes and terminals.
 * Entries hold references on both dentries (an overlay entry keeps its
 * lower layer's host O_PATH fd open), so their number is bounded; the
 * least recently used goes first. */
#include <stdlib.h>
#include <string.h>

#include "vfs/dcache.h"
#include "kernel/sched.h"
#include "lib/list.h"
#include "abi/linux/errno.h"

#define DCACHE_BITS   10
#define DCACHE_MAX    1024
#define DCACHE_TTL_NS (1000 * 1000000LL)

struct dcache_entry {
	struct list_head hlink; /* in its bucket */
	struct list_head lru;	/* least recently used first */
	struct dentry *parent;	/* a reference */
	struct dentry *child;	/* a reference; NULL: the name is absent */
	int64_t born_ns;
	char name[];
};

static struct list_head buckets[1 << DCACHE_BITS];
static bool buckets_ready;
static LIST_HEAD_DECL(lru);
static int nentries;

static void entry_free(struct dcache_entry *e);

/* Everything goes at once, not lazily: an entry holds its child's inode,
 * and an unlinked file's data must go with its last name (tmpfs space
 * comes back at unlink, as on Linux). */
void dcache_invalidate(void)
{
	while (!list_empty(&lru))
		entry_free(list_first_entry(&lru, struct dcache_entry, lru));
}

void dcache_invalidate_absent(void)
{
	struct dcache_entry *e, *n;

	list_for_each_entry_safe(e, n, &lru, lru)
	{
		if (!e->child)
			entry_free(e);
	}
}

static struct list_head *bucket(const struct dentry *parent, const char *name)
{
	uint64_t h = (uint64_t)(uintptr_t)parent * 0x9E3779B97F4A7C15ULL;
	const unsigned char *s;

	if (!buckets_ready) {
		int i;

		for (i = 0; i < (1 << DCACHE_BITS); i++)
			list_init(&buckets[i]);
		buckets_ready = true;
	}
	for (s = (const unsigned char *)name; *s; s++)
		h = (h ^ *s) * 0x100000001B3ULL;
	return &buckets[h >> (64 - DCACHE_BITS)];
}

static void entry_free(struct dcache_entry *e)
{
	list_del(&e->hlink);
	list_del(&e->lru);
	dentry_put(e->parent);
	dentry_put(e->child);
	free(e);
	nentries--;
}

static bool cacheable(const struct dentry *parent)
{
	return parent->inode && parent->inode->sb && parent->inode->sb->cache_lookups;
}

int dcache_lookup(struct dentry *parent, const char *name, struct dentry **child)
{
	struct list_head *b;
	struct dcache_entry *e, *n;

	if (!cacheable(parent))
		return -EAGAIN;
	b = bucket(parent, name);
	list_for_each_entry_safe(e, n, b, hlink)
	{
		if (e->parent != parent || strcmp(e->name, name))
			continue;
		if (sched_now_ns() - e->born_ns > DCACHE_TTL_NS) {
			entry_free(e);
			return -EAGAIN;
		}
		list_del(&e->lru);
		list_add_tail(&e->lru, &lru);
		if (!e->child)
			return -ENOENT;
		*child = dentry_get(e->child);
		return 0;
	}
	return -EAGAIN;
}

void dcache_add(struct dentry *parent, const char *name, struct dentry *child)
{
	size_t len = strlen(name);
	struct dcache_entry *e;

	if (!cacheable(parent))
		return;
	/* The oldest go when full or past their time. */
	while (!list_empty(&lru)) {
		struct dcache_entry *old = list_first_entry(&lru, struct dcache_entry, lru);

		if (nentries < DCACHE_MAX && sched_now_ns() - old->born_ns <= DCACHE_TTL_NS)
			break;
		entry_free(old);
	}
	e = malloc(sizeof(*e) + len + 1);
	if (!e)
		return;
	memcpy(e->name, name, len + 1);
	e->parent = dentry_get(parent);
	e->child = child ? dentry_get(child) : NULL;
	e->born_ns = sched_now_ns();
	list_add(&e->hlink, bucket(parent, name));
	list_add_tail(&e->lru, &lru);
	nentries++;
}
