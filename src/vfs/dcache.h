/* vfs/dcache.h: the path walk's cache of lookups (parent dentry, name) →
 * child dentry or "no such name", for the filesystems that ask for it. */
#ifndef VFS_DCACHE_H
#define VFS_DCACHE_H

#include "vfs/vfs.h"

/* 0: *child (a new reference) is the cached child; -ENOENT: the name is
 * cached as absent; -EAGAIN: not cached (ask the filesystem). */
int dcache_lookup(struct dentry *parent, const char *name, struct dentry **child);
/* Remembers what a lookup found (child NULL: -ENOENT), if parent's
 * filesystem caches lookups. */
void dcache_add(struct dentry *parent, const char *name, struct dentry *child);
/* A name was created, removed or renamed somewhere, or a mount changed:
 * nothing cached before counts any more. */
void dcache_invalidate(void);
/* A name was created: what was cached as absent counts no more. */
void dcache_invalidate_absent(void);

#endif
