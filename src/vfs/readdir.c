/* vfs/readdir.c: directory snapshots and getdents64. */
#include <stdlib.h>
#include <string.h>

#include "vfs/readdir.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "vfs/vfs.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/stat.h"

struct dir_entry {
	uint64_t ino;
	unsigned type;
	char *name;
};

struct dir_snapshot {
	struct dir_entry *e;
	size_t n, max;
};

static int add_entry(void *ctx, const char *name, uint64_t ino, unsigned type)
{
	struct dir_snapshot *s = ctx;

	if (s->n == s->max) {
		size_t max = s->max ? s->max * 2 : 32;
		struct dir_entry *e = realloc(s->e, max * sizeof(*e));

		if (!e)
			return -ENOMEM;
		s->e = e;
		s->max = max;
	}
	s->e[s->n].name = strdup(name);
	if (!s->e[s->n].name)
		return -ENOMEM;
	s->e[s->n].ino = ino;
	s->e[s->n].type = type;
	s->n++;
	return 0;
}

void dir_snapshot_free(struct file *f)
{
	struct dir_snapshot *s = f->dir;
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		free(s->e[i].name);
	free(s->e);
	free(s);
	f->dir = NULL;
}

static int snapshot(struct file *f)
{
	struct dir_snapshot *s;
	int ret;

	if (!f->inode || !LINUX_S_ISDIR(f->inode->mode) || !f->inode->iop->iterate)
		return -ENOTDIR;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	f->dir = s;
	ret = f->inode->iop->iterate(f->inode, add_entry, s);
	if (ret < 0) {
		dir_snapshot_free(f);
		return ret;
	}
	return 0;
}

long dir_getdents64(struct file *f, void *buf, size_t n)
{
	size_t off = 0;
	int ret;

	/* Linux's iterate_dir: a directory removed since it was opened
	 * lists nothing, ENOENT */
	if (f->inode && inode_dead_dir(f->inode))
		return -ENOENT;
	if (!f->dir) {
		ret = snapshot(f);
		if (ret < 0)
			return ret;
	}
	file_accessed(f); /* iterate_dir's */
	while ((size_t)f->pos < f->dir->n) {
		struct dir_entry *e = &f->dir->e[f->pos];
		size_t len = strlen(e->name);
		size_t reclen = LINUX_DIRENT64_RECLEN(len);
		struct linux_dirent64 d;

		if (off + reclen > n) {
			if (off == 0)
				return -EINVAL;
			break;
		}
		memset((char *)buf + off, 0, reclen);
		d.d_ino = e->ino;
		d.d_off = f->pos + 1;
		d.d_reclen = (uint16_t)reclen;
		d.d_type = (uint8_t)e->type;
		memcpy((char *)buf + off, &d, offsetof(struct linux_dirent64, d_name));
		memcpy((char *)buf + off + offsetof(struct linux_dirent64, d_name), e->name, len);
		off += reclen;
		f->pos++;
	}
	return (long)off;
}

int64_t dir_llseek(struct file *f, int64_t off, int whence)
{
	int64_t ret = seq_llseek(f, off, whence);

	if (ret == 0)
		dir_snapshot_free(f); /* rewinddir sees new entries */
	return ret;
}

long dir_read(struct file *f, void *buf, size_t n)
{
	(void)f;
	(void)buf;
	(void)n;
	return -EISDIR;
}

long dir_pread(struct file *f, void *buf, size_t n, int64_t off)
{
	(void)off;
	return dir_read(f, buf, n);
}
