/* vfs/fsnotify.h: the one place where VFS changes become notification
 * events (for inotify). The VFS calls these after a change succeeds; each
 * returns at once while nothing is watched. */
#ifndef VFS_FSNOTIFY_H
#define VFS_FSNOTIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "vfs/inotify.h"

struct file;
struct dentry;
struct inode;
struct iattr;

/* An event on a file or path: its parent directory hears it with the name,
 * then the inode itself; IN_ISDIR is added for a directory. */
void fsnotify_file(struct file *f, uint32_t mask);
void fsnotify_dentry(struct dentry *d, uint32_t mask);
/* An event on the inode alone (its link count, IN_MOVE_SELF). */
void fsnotify_inode(struct inode *ino, uint32_t mask);
/* An entry of dir changed (IN_CREATE, IN_DELETE, IN_MOVED_*). */
void fsnotify_name(struct inode *dir, const char *name, uint32_t mask, uint32_t cookie);

/* The hooks, by VFS operation. */
void fsnotify_open(struct file *f);
void fsnotify_close(struct file *f);
void fsnotify_create(struct inode *dir, const char *name, bool is_dir);
void fsnotify_link(struct inode *dir, const char *name, struct inode *target);
/* unlink/rmdir of victim (had nlink links before) from dir. */
void fsnotify_unlink(struct inode *dir, const char *name, struct inode *victim, unsigned nlink);
/* rename; target is the replaced inode (NULL if none) with its old link
 * count; exchange: both moved. */
void fsnotify_rename(struct inode *odir, const char *oname, struct inode *ndir, const char *nname,
		     struct inode *src, struct inode *target, unsigned target_nlink, bool exchange);
/* setattr with ia->valid as asked by the caller. */
void fsnotify_change(struct dentry *d, unsigned valid);

#endif
