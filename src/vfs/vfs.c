/* vfs/vfs.c: inodes, dentries and mounts: references and names. */
#include <stdlib.h>
#include <string.h>

#include "vfs/vfs.h"
#include "vfs/dcache.h"
#include "vfs/namespace.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"

LIST_HEAD_DECL(mounts);

static int next_mount_id = 21; /* as the first of a Linux boot */

struct inode *inode_new(struct super_block *sb, uint64_t ino, uint32_t mode,
			const struct inode_ops *iop, void *priv)
{
	struct inode *i = calloc(1, sizeof(*i));

	if (!i)
		return NULL;
	i->refcount = 1;
	i->sb = sb;
	i->dev = sb ? sb->dev : 0;
	i->ino = ino;
	i->mode = mode;
	i->iop = iop;
	i->priv = priv;
	return i;
}

void inode_get(struct inode *ino)
{
	ino->refcount++;
}

/* The last reference: the inode is released, and what its release puts
 * (a directory's entries) is released after it, in a loop rather than one
 * kernel frame per level of a tree a guest may make thousands deep. Done
 * before the outermost inode_put returns. */
static struct inode *to_release;
static bool releasing;

void inode_put(struct inode *ino)
{
	if (!ino || --ino->refcount > 0)
		return;
	ino->release_next = to_release;
	to_release = ino;
	if (releasing)
		return;
	releasing = true;
	while (to_release) {
		ino = to_release;
		to_release = ino->release_next;
		if (ino->iop && ino->iop->release)
			ino->iop->release(ino);
		free(ino);
	}
	releasing = false;
}

/* The named dentries (those with a parent and an inode) by their
 * parent's inode and their name. */
#define NAMED_BITS 12
static struct list_head named[1 << NAMED_BITS];

static struct list_head *named_bucket(const struct inode *dir, const char *name)
{
	uint64_t h = (dir->dev * 0x9E3779B97F4A7C15ULL) ^ (dir->ino * 0xC2B2AE3D27D4EB4FULL);
	const unsigned char *s;
	int i;

	if (!named[0].next)
		for (i = 0; i < (1 << NAMED_BITS); i++)
			list_init(&named[i]);
	for (s = (const unsigned char *)name; *s; s++)
		h = (h ^ *s) * 0x100000001B3ULL;
	h ^= h >> 29; /* every byte into the low bits */
	h *= 0xBF58476D1CE4E5B9ULL;
	h ^= h >> 32;
	return &named[h & ((1 << NAMED_BITS) - 1)];
}

static void named_add(struct dentry *d)
{
	if (d->parent && d->parent->inode && d->inode)
		list_add(&d->named, named_bucket(d->parent->inode, d->name));
}

static void named_del(struct dentry *d)
{
	if (!list_empty(&d->named)) {
		list_del(&d->named);
		list_init(&d->named);
	}
}

static bool same_inode(const struct inode *a, const struct inode *b)
{
	return a == b || (a && b && a->dev == b->dev && a->ino == b->ino);
}

struct dentry *dentry_new(const char *name, struct dentry *parent, struct inode *inode)
{
	struct dentry *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->name = strdup(name);
	if (!d->name) {
		free(d);
		return NULL;
	}
	d->refcount = 1;
	d->parent = parent ? dentry_get(parent) : NULL;
	d->inode = inode;
	if (inode)
		inode_get(inode);
	list_init(&d->named);
	named_add(d);
	return d;
}

/* The dentries of (dir, name) that name inode, taken off the table into
 * out (by their named link). */
static void named_take(struct inode *dir, const char *name, struct inode *inode,
		       struct list_head *out)
{
	struct list_head *b = named_bucket(dir, name), *pos, *next;

	for (pos = b->next; pos != b; pos = next) {
		struct dentry *d = list_entry(pos, struct dentry, named);

		next = pos->next;
		if (same_inode(d->parent->inode, dir) && strcmp(d->name, name) == 0 &&
		    same_inode(d->inode, inode)) {
			list_del(&d->named);
			list_add(&d->named, out);
		}
	}
}

#define MOVE_DEPTH 256

/* The parent d takes in the directory to (the rename's dentry of it), as
 * dentries of d's own chain: the root and mount checks compare dentries
 * by address, so d may never hang below a dentry its walks did not make
 * (a chroot's root or a bind mount's would be passed by: ".." out of
 * them). The deepest of d's ancestors that is one of to's directories
 * (by inode) is kept, and new dentries are made below it for the rest of
 * to's path. A new reference, or NULL where there is none (to is not
 * below anything d's chain holds, or no memory): then d stays as it was. */
static struct dentry *move_parent(struct dentry *d, struct dentry *to)
{
	struct dentry *path[MOVE_DEPTH], *q = NULL, *t, *cur, *nd;
	int n = 0, i;

	if (same_inode(d->parent->inode, to->inode))
		return dentry_get(d->parent);
	/* to's chain up to the first directory d's chain also holds */
	for (t = to; t && n < MOVE_DEPTH; t = t->parent) {
		for (q = d->parent; q; q = q->parent)
			if (same_inode(q->inode, t->inode))
				break;
		if (q)
			break;
		path[n++] = t;
	}
	if (!q)
		return NULL;
	cur = dentry_get(q);
	for (i = n - 1; i >= 0; i--) {
		nd = dentry_new(path[i]->name, cur, path[i]->inode);
		dentry_put(cur);
		if (!nd)
			return NULL;
		cur = nd;
	}
	return cur;
}

/* Each dentry on list gets nname under the directory to (its own chain's
 * dentry of it: move_parent), and goes back on the table; one that cannot
 * follow keeps its place and name. */
static void named_move(struct list_head *list, struct dentry *to, const char *nname)
{
	while (!list_empty(list)) {
		struct dentry *d = list_entry(list->next, struct dentry, named);
		struct dentry *np = move_parent(d, to);
		char *s = np ? strdup(nname) : NULL;

		list_del(&d->named);
		list_init(&d->named);
		if (s) {
			struct dentry *old = d->parent;

			free(d->name);
			d->name = s;
			d->parent = np;
			dentry_put(old);
		} else if (np) {
			dentry_put(np);
		}
		named_add(d);
	}
}

void dentry_renamed(struct inode *dir, const char *name, struct inode *inode,
		    struct dentry *nparent, const char *nname)
{
	struct list_head moved;

	list_init(&moved);
	named_take(dir, name, inode, &moved);
	named_move(&moved, nparent, nname);
}

void dentry_exchanged(struct inode *odir, const char *oname, struct inode *oinode,
		      struct dentry *oparent, struct inode *ndir, const char *nname,
		      struct inode *ninode, struct dentry *nparent)
{
	struct list_head a, b;

	list_init(&a);
	list_init(&b);
	named_take(odir, oname, oinode, &a);
	named_take(ndir, nname, ninode, &b);
	named_move(&a, nparent, nname);
	named_move(&b, oparent, oname);
}

void dentry_unlinked(struct inode *dir, const char *name, struct inode *inode)
{
	struct list_head gone;

	list_init(&gone);
	named_take(dir, name, inode, &gone);
	while (!list_empty(&gone)) {
		struct dentry *d = list_entry(gone.next, struct dentry, named);

		list_del(&d->named);
		list_init(&d->named);
		d->unlinked = true;
	}
}

struct dentry *dentry_get(struct dentry *d)
{
	d->refcount++;
	return d;
}

void dentry_put(struct dentry *d)
{
	while (d && --d->refcount == 0) {
		struct dentry *parent = d->parent;

		named_del(d);
		inode_put(d->inode);
		free(d->name);
		free(d);
		d = parent;
	}
}

void path_get(const struct path *p)
{
	dentry_get(p->dentry);
	mnt_get(p->mnt);
}

void path_put(struct path *p)
{
	if (p->dentry)
		dentry_put(p->dentry);
	mnt_put(p->mnt);
	p->dentry = NULL;
	p->mnt = NULL;
}

struct mount *mnt_get(struct mount *m)
{
	if (m)
		m->count++;
	return m;
}

static void mount_free(struct mount *m)
{
	struct super_block *sb = m->sb;

	/* The cache's dentries hold inodes of sb: they go first. */
	dcache_invalidate();
	dentry_put(m->root);
	free(m->source);
	free(m);
	if (--sb->nmounts == 0 && sb->put_super)
		sb->put_super(sb);
}

void mnt_put(struct mount *m)
{
	if (!m)
		return;
	m->flags &= ~MNT_EXPIRE_MARK; /* used since */
	if (--m->count == 0 && (m->flags & MNT_DETACHED))
		mount_free(m);
}

#define MOUNT_MAX 100000
static int nattached; /* mounts in the table */

int mount_room(void)
{
	return nattached < MOUNT_MAX ? 0 : -ENOSPC;
}

/* Out of the table, one mount. */
static void detach_one(struct mount *m)
{
	list_del(&m->link);
	list_init(&m->link);
	nattached--;
	if (m->mountpoint)
		dentry_put(m->mountpoint);
	m->mountpoint = NULL;
	m->parent = NULL;
	m->ns = NULL;
	m->flags |= MNT_DETACHED;
	mnt_put(m); /* the mount table's reference */
}

/* c's depth below the mount whose ->below is 0, or -1 if not below it:
 * one walk up to a mount already known, then the answer set along the
 * way (every mount is walked over once). */
static void depth_below(struct mount *c)
{
	struct mount *p = c;
	int k = 0, d;

	while (p && p->below == -2) {
		p = p->parent;
		k++;
	}
	d = p ? p->below : -1;
	for (p = c; k > 0; k--, p = p->parent)
		p->below = d < 0 ? -1 : d + k;
}

static int deeper_first(const void *x, const void *y)
{
	const struct mount *a = *(struct mount *const *)x, *b = *(struct mount *const *)y;

	return (b->below > a->below) - (b->below < a->below);
}

/* m and every mount below it, the deepest first: a loop over the table,
 * not a recursion (a guest may nest mounts thousands deep). */
void mount_detach(struct mount *m)
{
	struct mount *c, **sub;
	size_t n = 0, i;

	list_for_each_entry(c, &mounts, link) c->below = -2;
	m->below = 0;
	list_for_each_entry(c, &mounts, link)
	{
		depth_below(c);
		n += c->below > 0;
	}
	sub = n ? malloc(n * sizeof(*sub)) : NULL;
	if (sub) {
		i = 0;
		list_for_each_entry(c, &mounts, link) if (c->below > 0) sub[i++] = c;
		qsort(sub, n, sizeof(*sub), deeper_first);
		for (i = 0; i < n; i++)
			detach_one(sub[i]);
		free(sub);
	} else {
		/* no memory for the list: the deepest, one scan each */
		while (n--) {
			struct mount *deepest = NULL;

			list_for_each_entry(c, &mounts,
					    link) if (c->below > 0 &&
						      (!deepest || c->below > deepest->below))
				deepest = c;
			detach_one(deepest);
		}
	}
	detach_one(m);
	dcache_invalidate();
}

static struct mount *mount_new(struct super_block *sb, struct inode *root, const char *source)
{
	struct mount *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->root = dentry_new("/", NULL, root);
	m->source = strdup(source ? source : "none");
	if (!m->root || !m->source) {
		if (m->root)
			dentry_put(m->root);
		free(m->source);
		free(m);
		return NULL;
	}
	m->sb = sb;
	m->count = 1;
	sb->nmounts++;
	list_init(&m->link);
	return m;
}

struct mount *mount_internal(struct super_block *sb, struct inode *root, const char *source)
{
	return mount_new(sb, root, source);
}

/* A new mount of old's filesystem at root, with old's source and flags
 * (less drop), a new id, attached nowhere yet. */
static struct mount *mount_dup(const struct mount *old, struct dentry *root, unsigned drop)
{
	struct mount *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->source = strdup(old->source);
	if (!m->source) {
		free(m);
		return NULL;
	}
	m->root = dentry_get(root);
	m->sb = old->sb;
	m->sb->nmounts++;
	m->count = 1;
	m->rdonly = old->rdonly;
	m->flags = old->flags & ~drop;
	m->id = next_mount_id++;
	return m;
}

struct mount *mount_clone(const struct mount *old, struct dentry *root, struct path *at)
{
	struct mount *m = mount_dup(old, root, MNT_DETACHED);

	if (!m)
		return NULL;
	m->parent = at->mnt;
	m->ns = at->mnt->ns;
	m->mountpoint = dentry_get(at->dentry);
	list_add_tail(&m->link, &mounts);
	nattached++;
	dcache_invalidate();
	return m;
}

struct mount *mount_add(struct path *at, struct super_block *sb, struct inode *root,
			const char *source, bool rdonly)
{
	struct mount *m = mount_new(sb, root, source);

	if (!m)
		return NULL;
	m->rdonly = rdonly;
	m->flags = MNT_RELATIME;
	m->id = next_mount_id++;
	if (at) {
		m->parent = at->mnt;
		m->ns = at->mnt->ns;
		m->mountpoint = dentry_get(at->dentry);
	} else {
		/* the boot's root: the initial namespace's */
		m->ns = &init_mnt_ns;
		if (!init_mnt_ns.root)
			init_mnt_ns.root = m;
	}
	list_add_tail(&m->link, &mounts);
	nattached++;
	dcache_invalidate();
	return m;
}

/* One copy, in the table, its parent yet to be set. */
static struct mount *mount_copy_one(const struct mount *old, struct mnt_ns *n)
{
	struct mount *m = mount_dup(old, old->root, MNT_DETACHED | MNT_EXPIRE_MARK);

	if (!m)
		return NULL;
	m->ns = n;
	if (old->mountpoint)
		m->mountpoint = dentry_get(old->mountpoint);
	list_add_tail(&m->link, &mounts);
	nattached++;
	return m;
}

/* The copies go in the table in the order of the originals (a later mount
 * on the same point stays on top); each original's scratch field below
 * holds its index meanwhile, for its children to find their parent's
 * copy. */
int mount_copy_ns(struct mnt_ns *old, struct mnt_ns *n, struct path **fix, int nfix)
{
	struct mount *m, **copies;
	size_t count = 0, i = 0;
	int k;

	list_for_each_entry(m, &mounts, link) if (m->ns == old) count++;
	if (nattached + count > MOUNT_MAX)
		return -ENOSPC;
	copies = malloc((count ? count : 1) * sizeof(*copies));
	if (!copies)
		return -ENOMEM;
	list_for_each_entry(m, &mounts, link)
	{
		if (m->ns != old || i == count)
			continue;
		m->below = (int)i;
		copies[i] = mount_copy_one(m, n);
		if (!copies[i]) {
			while (i > 0)
				detach_one(copies[--i]);
			free(copies);
			return -ENOMEM;
		}
		i++;
	}
	list_for_each_entry(m, &mounts, link)
	{
		if (m->ns != old)
			continue;
		if (m->parent)
			copies[m->below]->parent = copies[m->parent->below];
		if (m == old->root)
			n->root = copies[m->below];
	}
	for (k = 0; k < nfix; k++) {
		struct path *p = fix[k];

		if (p->mnt && p->mnt->ns == old) {
			m = mnt_get(copies[p->mnt->below]);
			mnt_put(p->mnt);
			p->mnt = m;
		}
	}
	free(copies);
	dcache_invalidate();
	return 0;
}

/* The most recent mount on mountpoint inside parent. */
struct mount *mount_lookup(struct mount *parent, struct inode *mp)
{
	struct mount *m, *found = NULL;

	list_for_each_entry(m, &mounts, link) if (m->parent == parent && m->mountpoint &&
						  m->mountpoint->inode->dev == mp->dev &&
						  m->mountpoint->inode->ino == mp->ino) found = m;
	return found;
}

void mount_detach_on(const struct inode *dir, const char *name, const struct inode *ino)
{
	struct mount *m;
	bool found;

	do {
		found = false;
		list_for_each_entry(m, &mounts, link)
		{
			struct dentry *mp = m->mountpoint;

			if (mp && mp->parent && same_inode(mp->inode, ino) &&
			    same_inode(mp->parent->inode, dir) && strcmp(mp->name, name) == 0) {
				found = true;
				break;
			}
		}
		if (found)
			mount_detach(m);
	} while (found);
}

bool mount_is_local_mountpoint(const struct mnt_ns *ns, const struct inode *ino)
{
	struct mount *m;

	list_for_each_entry(m, &mounts,
			    link) if (m->ns == ns && m->mountpoint &&
				      same_inode(m->mountpoint->inode, ino)) return true;
	return false;
}

char *path_name(const struct path *p, const struct path *root)
{
	return path_name_reach(p, root, NULL);
}

/* s (a path_build, NULL passed on) and " (deleted)" if d was unlinked, in
 * at most max bytes with the NUL; NULL past them or without memory. */
static char *add_deleted(char *s, const struct dentry *d, size_t max)
{
	char *ns;

	if (!s || !d->unlinked)
		return s;
	ns = strlen(s) + sizeof(" (deleted)") <= max ? realloc(s, strlen(s) + sizeof(" (deleted)"))
						     : NULL;
	if (!ns) {
		free(s);
		return NULL;
	}
	strcat(ns, " (deleted)");
	return ns;
}

char *path_name_d(const struct path *p, const struct path *root)
{
	/* the suffix counts toward the page (d_path) */
	return add_deleted(path_name_reach(p, root, NULL), p->dentry, 4096);
}

static char *path_build(const struct path *p, const struct path *root, bool *reached, size_t size);

char *path_name_reach(const struct path *p, const struct path *root, bool *reached)
{
	return path_build(p, root, reached, 4096);
}

char *path_name_seq(const struct path *p, const struct path *root)
{
	char *s = path_build(p, root, NULL, 4096);

	if (!s)
		s = path_build(p, root, NULL, 1 << 20);
	return add_deleted(s, p->dentry, SIZE_MAX);
}

/* The path in a buffer of size bytes (the NUL's included), or NULL. */
static char *path_build(const struct path *p, const struct path *root, bool *reached, size_t size)
{
	char *buf = malloc(size), *pos;
	struct mount *mnt = p->mnt;
	struct dentry *d = p->dentry;
	size_t len;

	if (!buf)
		return NULL;
	if (reached)
		*reached = false;
	pos = buf + size - 1;
	*pos = 0;
	for (;;) {
		if (d == root->dentry && mnt == root->mnt) {
			if (reached)
				*reached = true;
			break;
		}
		if (d == mnt->root) {
			if (!mnt->parent)
				break; /* outside the root: as Linux, the global path */
			d = mnt->mountpoint;
			mnt = mnt->parent;
			continue;
		}
		if (!d->parent)
			break;
		len = strlen(d->name);
		if ((size_t)(pos - buf) < len + 1) { /* a page: 4095 and the NUL */
			free(buf);
			return NULL;
		}
		pos -= len;
		memcpy(pos, d->name, len);
		*--pos = '/';
		d = d->parent;
	}
	if (!*pos)
		*--pos = '/';
	memmove(buf, pos, strlen(pos) + 1);
	return buf;
}

uint64_t vfs_anon_dev(void)
{
	static uint64_t next = 0x20; /* minor numbers of major 0, as Linux's anon devs */

	return next++;
}

/* Linux's counter has handed out thousands by the time user space runs
 * (boot's pipes, sockets and anonymous inodes): tools expect such numbers
 * (net-tools' netstat -p skips a "socket:[N]" link shorter than 11
 * characters, so socket 1 to 9 had no program). */
uint64_t vfs_next_ino(void)
{
	static uint64_t next = 4096;

	return next++;
}

struct linux_timespec vfs_now(void)
{
	int64_t ns = host_clock_ns(LINUX_CLOCK_REALTIME);
	struct linux_timespec ts = { ns / 1000000000, ns % 1000000000 };

	return ts;
}
