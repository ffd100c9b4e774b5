/* vfs/vfs.c: inodes, dentries and mounts: references and names. */
#include <stdlib.h>
#include <string.h>

#include "vfs/vfs.h"
#include "vfs/dcache.h"
#include "host/host.h"
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

void inode_put(struct inode *ino)
{
	if (!ino || --ino->refcount > 0)
		return;
	if (ino->iop && ino->iop->release)
		ino->iop->release(ino);
	free(ino);
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
	return d;
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

void mount_detach(struct mount *m)
{
	struct mount *c;

again: /* a child's detach takes its own children out too */
	list_for_each_entry(c, &mounts, link)
	{
		if (c->parent == m) {
			mount_detach(c);
			goto again;
		}
	}
	list_del(&m->link);
	list_init(&m->link);
	if (m->mountpoint)
		dentry_put(m->mountpoint);
	m->mountpoint = NULL;
	m->parent = NULL;
	m->flags |= MNT_DETACHED;
	dcache_invalidate();
	mnt_put(m); /* the mount table's reference */
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

struct mount *mount_clone(const struct mount *old, struct dentry *root, struct path *at)
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
	m->flags = old->flags & ~MNT_DETACHED;
	m->id = next_mount_id++;
	m->parent = at->mnt;
	m->mountpoint = dentry_get(at->dentry);
	list_add_tail(&m->link, &mounts);
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
		m->mountpoint = dentry_get(at->dentry);
	}
	list_add_tail(&m->link, &mounts);
	dcache_invalidate();
	return m;
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

char *path_name(const struct path *p, const struct path *root)
{
	char *buf = malloc(4096), *pos;
	struct mount *mnt = p->mnt;
	struct dentry *d = p->dentry;
	size_t len;

	if (!buf)
		return NULL;
	pos = buf + 4095;
	*pos = 0;
	for (;;) {
		if (d == root->dentry && mnt == root->mnt)
			break;
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
		if ((size_t)(pos - buf) < len + 2) {
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

struct linux_timespec vfs_now(void)
{
	int64_t ns = host_clock_ns(LINUX_CLOCK_REALTIME);
	struct linux_timespec ts = { ns / 1000000000, ns % 1000000000 };

	return ts;
}
