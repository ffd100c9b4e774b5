/* vfs/dnotify.c: fcntl F_NOTIFY, Linux's fs/notify/dnotify: a directory
 * opened by a process is marked with the kinds of change it wants to hear
 * of (access, modify, create, delete, rename, attrib of its entries or of
 * itself); each change sends the file's owner (vfs/fown.c: the caller,
 * unless F_SETOWN said another) SIGIO or F_SETSIG's signal with
 * si_code POLL_MSG and the fd, once, or every time with DN_MULTISHOT. A
 * mark belongs to the fd table it was set from and goes when that table
 * closes any fd of the file; a second F_NOTIFY through the same file adds
 * to it, 0 removes it. The events are inotify's (vfs/fsnotify.c). */
#include <stdlib.h>

#include "vfs/dnotify.h"
#include "vfs/file.h"
#include "vfs/fown.h"
#include "vfs/inotify.h"
#include "vfs/vfs.h"
#include "kernel/task.h"
#include "lib/list.h"
#include "abi/linux/errno.h"
#include "abi/linux/signal.h"

struct dnotify_mark {
	struct list_head link;
	uint64_t dev, ino;
	struct file *file; /* no reference: the mark goes before the file */
	struct files *owner;
	int fd;
	uint32_t mask; /* IN_* */
	bool multishot;
};

static LIST_HEAD_DECL(marks);
int dnotify_nmarks;

static uint32_t in_mask(uint64_t arg)
{
	uint32_t m = 0;

	if (arg & LINUX_DN_ACCESS)
		m |= IN_ACCESS;
	if (arg & LINUX_DN_MODIFY)
		m |= IN_MODIFY;
	if (arg & LINUX_DN_CREATE)
		m |= IN_CREATE;
	if (arg & LINUX_DN_DELETE)
		m |= IN_DELETE;
	if (arg & LINUX_DN_RENAME)
		m |= IN_MOVED_FROM | IN_MOVED_TO;
	if (arg & LINUX_DN_ATTRIB)
		m |= IN_ATTRIB;
	return m;
}

static void mark_remove(struct dnotify_mark *m)
{
	list_del(&m->link);
	dnotify_nmarks--;
	free(m);
}

long dnotify_fcntl(struct task *t, struct file *f, int fd, uint64_t arg)
{
	struct dnotify_mark *m;

	/* Linux takes the whole unsigned long: DN_MULTISHOT is bit 31. */
	if ((arg & ~(uint64_t)LINUX_DN_MULTISHOT) == 0) {
		dnotify_flush(f, t->files);
		return 0;
	}
	if (!f->inode || !inode_is_dir(f->inode))
		return -ENOTDIR;
	list_for_each_entry(m, &marks, link)
	{
		if (m->file == f && m->owner == t->files) {
			m->fd = fd;
			m->mask |= in_mask(arg);
			m->multishot |= (arg & LINUX_DN_MULTISHOT) != 0;
			fown_set_default(t, f);
			return 0;
		}
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->dev = f->inode->dev;
	m->ino = f->inode->ino;
	m->file = f;
	m->owner = t->files;
	m->fd = fd;
	m->mask = in_mask(arg);
	m->multishot = (arg & LINUX_DN_MULTISHOT) != 0;
	list_add_tail(&m->link, &marks);
	dnotify_nmarks++;
	fown_set_default(t, f);
	return 0;
}

bool dnotify_marked(uint64_t dev, uint64_t ino)
{
	struct dnotify_mark *m;

	list_for_each_entry(m, &marks, link) if (m->dev == dev && m->ino == ino) return true;
	return false;
}

void dnotify_event(uint64_t dev, uint64_t ino, uint32_t mask)
{
	struct dnotify_mark *m, *next;

	if (!dnotify_nmarks)
		return;
	list_for_each_entry_safe(m, next, &marks, link)
	{
		if (m->dev != dev || m->ino != ino || !(m->mask & mask))
			continue;
		fown_send_sigio(m->file, m->fd, LINUX_POLL_MSG);
		if (!m->multishot)
			mark_remove(m);
	}
}

void dnotify_flush(struct file *f, struct files *fs)
{
	struct dnotify_mark *m, *next;

	if (!dnotify_nmarks)
		return;
	list_for_each_entry_safe(m, next, &marks, link) if (m->file == f && m->owner == fs)
		mark_remove(m);
}

void dnotify_file_gone(struct file *f)
{
	struct dnotify_mark *m, *next;

	if (!dnotify_nmarks)
		return;
	list_for_each_entry_safe(m, next, &marks, link) if (m->file == f) mark_remove(m);
}
