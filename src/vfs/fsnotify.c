/* vfs/fsnotify.c: from VFS changes to inotify events, in Linux's order: a
 * directory hears about its entry (with the name) before the entry's own
 * watches; an unlink of the last link is IN_ATTRIB, IN_DELETE_SELF (the
 * watches end) and then the directory's IN_DELETE; a rename is
 * IN_MOVED_FROM and IN_MOVED_TO with one cookie, IN_ATTRIB for a replaced
 * target, IN_MOVE_SELF, then the target's IN_DELETE_SELF. A file removed
 * while still held (an fd, a mapping, a cwd) gets its IN_DELETE_SELF when
 * the last fd or mapping of it goes, as Linux: who holds it is found by
 * looking through every process, only when a watched file loses its last
 * name. Differs from Linux: IN_UNMOUNT never comes (no umount yet); leaving
 * a removed cwd does not deliver the wait, nor does a file kept only by an
 * SCM_RIGHTS message in flight delay it. */
#include "vfs/fsnotify.h"
#include "vfs/dnotify.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "kernel/task.h"
#include "mm/mm.h"
#include "abi/linux/fcntl.h"

static uint32_t cookie_next;

/* Anybody listening: an inotify watch or a dnotify mark. */
static bool watchers(void)
{
	return inotify_nwatches || dnotify_nmarks;
}

/* The event to both: inotify's watches and dnotify's marks. */
static void notify(uint64_t dev, uint64_t ino, uint32_t mask, uint32_t cookie, const char *name,
		   bool child_unlinked)
{
	inotify_event(dev, ino, mask, cookie, name, child_unlinked);
	dnotify_event(dev, ino, mask);
}

static uint32_t isdir(const struct inode *ino)
{
	return inode_is_dir(ino) ? IN_ISDIR : 0;
}

void fsnotify_dentry(struct dentry *d, uint32_t mask)
{
	struct inode *ino = d->inode;

	if (!watchers())
		return;
	mask |= isdir(ino);
	if (d->parent && (inotify_watched(d->parent->inode->dev, d->parent->inode->ino) ||
			  dnotify_marked(d->parent->inode->dev, d->parent->inode->ino))) {
		struct linux_stat st;
		bool unlinked =
			!inode_is_dir(ino) && vfs_getattr(ino, &st) == 0 && st.st_nlink == 0;

		notify(d->parent->inode->dev, d->parent->inode->ino, mask, 0, d->name, unlinked);
	}
	notify(ino->dev, ino->ino, mask, 0, NULL, false);
}

void fsnotify_file(struct file *f, uint32_t mask)
{
	if (watchers() && f->path.dentry && !(f->flags & LINUX_O_PATH))
		fsnotify_dentry(f->path.dentry, mask);
}

void fsnotify_inode(struct inode *ino, uint32_t mask)
{
	if (watchers())
		notify(ino->dev, ino->ino, mask, 0, NULL, false);
}

void fsnotify_name(struct inode *dir, const char *name, uint32_t mask, uint32_t cookie)
{
	if (watchers())
		notify(dir->dev, dir->ino, mask, cookie, name, false);
}

void fsnotify_open(struct file *f)
{
	f->notify_close = true;
	fsnotify_file(f, IN_OPEN);
}

void fsnotify_create(struct inode *dir, const char *name, bool is_dir)
{
	fsnotify_name(dir, name, IN_CREATE | (is_dir ? IN_ISDIR : 0), 0);
}

void fsnotify_link(struct inode *dir, const char *name, struct inode *target)
{
	fsnotify_inode(target, IN_ATTRIB);
	fsnotify_name(dir, name, IN_CREATE, 0);
}

struct holder_scan {
	uint64_t dev, ino;
	bool found;
};

static bool same(struct holder_scan *h, struct dentry *d)
{
	return d && d->inode->dev == h->dev && d->inode->ino == h->ino;
}

static void scan_task(struct task *t, struct holder_scan *h)
{
	struct vma *v;
	int i;

	if (t->files)
		for (i = 0; i < t->files->max && !h->found; i++)
			if (t->files->fd[i] && same(h, t->files->fd[i]->path.dentry))
				h->found = true;
	if (t->mm)
		list_for_each_entry(v, &t->mm->vmas,
				    link) if (v->file && same(h, v->file->path.dentry)) h->found =
			true;
	if (t->fs && same(h, t->fs->cwd.dentry))
		h->found = true;
}

static void scan_process(struct process *p, void *arg)
{
	struct holder_scan *h = arg;
	struct task *t;

	list_for_each_entry(t, &p->threads, thread_link) if (!h->found) scan_task(t, h);
}

/* Is the file (dev, ino) still open somewhere? */
static bool still_open(uint64_t dev, uint64_t ino)
{
	struct holder_scan h = { dev, ino, false };

	for_each_process(scan_process, &h);
	return h.found;
}

static void delete_self_now(uint64_t dev, uint64_t ino)
{
	notify(dev, ino, IN_DELETE_SELF, 0, NULL, false);
	inotify_inode_gone(dev, ino);
}

static void delete_self(struct inode *ino)
{
	if (!inotify_watched(ino->dev, ino->ino))
		return;
	if (still_open(ino->dev, ino->ino))
		inotify_set_gone_pending(ino->dev, ino->ino);
	else
		delete_self_now(ino->dev, ino->ino);
}

void fsnotify_close(struct file *f)
{
	struct inode *ino;

	if (!watchers() || !f->path.dentry)
		return;
	if (f->notify_close)
		fsnotify_file(f, file_writable(f) ? IN_CLOSE_WRITE : IN_CLOSE_NOWRITE);
	ino = f->path.dentry->inode;
	if (inotify_gone_pending(ino->dev, ino->ino) && !still_open(ino->dev, ino->ino))
		delete_self_now(ino->dev, ino->ino);
}

void fsnotify_unlink(struct inode *dir, const char *name, struct inode *victim, unsigned nlink)
{
	if (!watchers())
		return;
	if (!inode_is_dir(victim))
		fsnotify_inode(victim, IN_ATTRIB);
	if (inode_is_dir(victim) || nlink <= 1)
		delete_self(victim);
	fsnotify_name(dir, name, IN_DELETE | isdir(victim), 0);
}

static void move(struct inode *odir, const char *oname, struct inode *ndir, const char *nname,
		 struct inode *src, struct inode *target)
{
	uint32_t cookie = ++cookie_next ? cookie_next : ++cookie_next;

	fsnotify_name(odir, oname, IN_MOVED_FROM | isdir(src), cookie);
	fsnotify_name(ndir, nname, IN_MOVED_TO | isdir(src), cookie);
	if (target)
		fsnotify_inode(target, IN_ATTRIB);
	fsnotify_inode(src, IN_MOVE_SELF);
}

void fsnotify_rename(struct inode *odir, const char *oname, struct inode *ndir, const char *nname,
		     struct inode *src, struct inode *target, unsigned target_nlink, bool exchange)
{
	if (!watchers())
		return;
	if (exchange) {
		move(odir, oname, ndir, nname, src, NULL);
		move(ndir, nname, odir, oname, target, NULL);
		return;
	}
	move(odir, oname, ndir, nname, src, target);
	if (target && (inode_is_dir(target) || target_nlink <= 1))
		delete_self(target);
}

void fsnotify_change(struct dentry *d, unsigned valid)
{
	uint32_t mask = 0;

	if (valid & (ATTR_UID | ATTR_GID | ATTR_MODE))
		mask |= IN_ATTRIB;
	if (valid & ATTR_SIZE)
		mask |= IN_MODIFY;
	if ((valid & (ATTR_ATIME | ATTR_MTIME)) == (ATTR_ATIME | ATTR_MTIME))
		mask |= IN_ATTRIB;
	else if (valid & ATTR_ATIME)
		mask |= IN_ACCESS;
	else if (valid & ATTR_MTIME)
		mask |= IN_MODIFY;
	if (mask)
		fsnotify_dentry(d, mask);
}
