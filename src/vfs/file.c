/* vfs/file.c: open file descriptions and fd tables. */
#include <stdlib.h>
#include <string.h>

#include "vfs/file.h"
#include "vfs/denywrite.h"
#include "vfs/dnotify.h"
#include "vfs/fown.h"
#include "vfs/epoll.h"
#include "abi/linux/errno.h"
#include "abi/linux/poll.h"
#include "vfs/readdir.h"
#include "vfs/namei.h"
#include "vfs/locks.h"
#include "vfs/lease.h"
#include "vfs/fsnotify.h"
#include "net/unix.h"
#include "kernel/sched.h"
#include "kernel/task.h"
#include "abi/linux/signal.h"
#include "abi/linux/stat.h"
#include "abi/linux/types.h"

/* Open file descriptions in the whole instance, and the cap (--nofile;
 * Linux's fs.file-max). Differs from Linux: root does not bypass it. */
static long files_nr, files_max = 1L << 20;

void files_set_max(long n)
{
	files_max = n;
}

long files_max_get(void)
{
	return files_max;
}

long files_nr_open(void)
{
	return files_nr;
}

bool files_take_slot(void)
{
	if (files_nr >= files_max)
		return false;
	files_nr++;
	return true;
}

void files_give_slot(void)
{
	files_nr--;
}

int file_alloc_error(void)
{
	return files_nr >= files_max ? -ENFILE : -ENOMEM;
}

/* A new file with one reference, uncounted. */
static struct file *file_new(const struct file_ops *ops, unsigned flags, int host_fd,
			     const struct path *path)
{
	struct file *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->ops = ops;
	f->refcount = 1;
	f->flags = flags;
	f->host_fd = host_fd;
	if (path && path->dentry) {
		f->path = *path;
		path_get(path);
		f->inode = path->dentry->inode;
		inode_get(f->inode);
	}
	return f;
}

struct file *file_alloc(const struct file_ops *ops, unsigned flags, int host_fd,
			const struct path *path)
{
	struct file *f;

	/* Sockets that only each other's queues hold are garbage, but their
	 * files count: collect them before saying ENFILE. Differs from Linux,
	 * which has no cap here and collects once 16000 sockets are in flight. */
	if (files_nr >= files_max)
		unix_gc();
	if (files_nr >= files_max)
		return NULL;
	f = file_new(ops, flags, host_fd, path);
	if (f)
		files_nr++;
	return f;
}

struct file *file_alloc_backing(unsigned flags, const struct path *path)
{
	struct file *f = file_new(NULL, flags, -1, path);

	if (f)
		f->backing = true;
	return f;
}

void file_pass_count(struct file *from, struct file *to)
{
	if (!from->backing && to->backing) {
		from->backing = true;
		to->backing = false;
	}
}

int file_stat(struct file *f, struct linux_stat *st)
{
	if (f->path.dentry)
		return vfs_getattr(f->path.dentry->inode, st);
	return f->ops->stat ? f->ops->stat(f, st) : -EBADF;
}

long file_op_read(struct file *f, void *buf, size_t n)
{
	return f->ops->read ? f->ops->read(f, buf, n) : -EINVAL;
}

long file_op_write(struct file *f, const void *buf, size_t n)
{
	return f->ops->write ? f->ops->write(f, buf, n) : -EINVAL;
}

long file_op_pread(struct file *f, void *buf, size_t n, int64_t off)
{
	return f->ops->pread ? f->ops->pread(f, buf, n, off) : -ESPIPE;
}

long file_op_pwrite(struct file *f, const void *buf, size_t n, int64_t off)
{
	return f->ops->pwrite ? f->ops->pwrite(f, buf, n, off) : -ESPIPE;
}

int64_t file_op_llseek(struct file *f, int64_t off, int whence)
{
	return f->ops->llseek ? f->ops->llseek(f, off, whence) : -ESPIPE;
}

long file_op_ioctl(struct file *f, struct task *t, unsigned cmd, uint64_t arg)
{
	return f->ops->ioctl ? f->ops->ioctl(f, t, cmd, arg) : -ENOTTY;
}

unsigned file_op_poll(struct file *f, struct poll_table *pt)
{
	if (!f->ops->poll)
		return LINUX_POLLIN | LINUX_POLLOUT | LINUX_POLLRDNORM | LINUX_POLLWRNORM;
	return f->ops->poll(f, pt);
}

void path_accessed(const struct path *p)
{
	struct inode *ino = p->dentry->inode;
	unsigned mf = p->mnt->flags;

	if (!ino->iop->touch_atime || (inode_iflags(ino) & INODE_NOATIME) || (mf & MNT_NOATIME) ||
	    ((mf & MNT_NODIRATIME) && inode_is_dir(ino)) || path_rdonly(p))
		return;
	ino->iop->touch_atime(ino, mf & MNT_RELATIME);
}

void file_accessed(struct file *f)
{
	if (f->flags & LINUX_O_NOATIME)
		return;
	if (f->path.dentry && f->path.mnt) {
		path_accessed(&f->path);
	} else if (f->inode && f->inode->iop->touch_atime && !f->inode->sb->rdonly &&
		   !(inode_iflags(f->inode) & INODE_NOATIME)) {
		f->inode->iop->touch_atime(f->inode, true);
	}
}

int file_op_mmap_fd(struct file *f)
{
	return f->ops->mmap_fd ? f->ops->mmap_fd(f) : -ENODEV;
}

long file_read_fault_records(struct file *f, void *buf, size_t n, size_t ok, size_t *arrived,
			     size_t rec, bool partial)
{
	size_t whole = ok / rec, lim = (whole + 1) * rec;
	char *tmp;
	long r;

	if (lim > n / rec * rec)
		lim = n < rec ? n : n / rec * rec; /* n < rec: the file's EINVAL */
	tmp = malloc(lim ? lim : 1);
	if (!tmp)
		return -ENOMEM;
	r = f->ops->read(f, tmp, lim);
	if (r > 0) {
		*arrived = (size_t)r < ok ? (size_t)r : ok;
		memcpy(buf, tmp, *arrived);
		if ((size_t)r > ok)
			r = whole ? (long)(whole * rec) : partial && ok ? (long)ok : -EFAULT;
	}
	free(tmp);
	return r;
}

void file_get(struct file *f)
{
	f->refcount++;
}

/* The last reference: the file is released, and the files its release
 * puts (those in flight in a socket's queue, which may hold more) are
 * released after it, in a loop rather than one kernel frame per socket
 * of a chain a guest may make thousands long. Done before the outermost
 * file_put returns. */
static struct file *to_release;
static bool releasing;

void file_put(struct file *f)
{
	if (!f || --f->refcount > 0)
		return;
	f->release_next = to_release;
	to_release = f;
	if (releasing)
		return;
	releasing = true;
	while (to_release) {
		f = to_release;
		to_release = f->release_next;
		epoll_file_release(f); /* items hold no reference: they go now */
		fsnotify_close(f);
		dnotify_file_gone(f);
		fown_file_gone(f);
		locks_remove_file(f);
		lease_remove_file(f);
		if (f->write_access > 0)
			write_access_put(f->wa_dev, f->wa_ino);
		else if (f->write_access < 0)
			write_access_allow(f->wa_dev, f->wa_ino);
		if (f->read_access)
			read_access_put(f->wa_dev, f->wa_ino);
		if (f->ops->release)
			f->ops->release(f);
		dir_snapshot_free(f);
		inode_put(f->inode);
		if (f->mnt_writer) {
			f->path.mnt->writers--;
			f->path.mnt->sb->writers--;
		}
		path_put(&f->path);
		if (!f->backing)
			files_nr--;
		free(f);
	}
	releasing = false;
}

void file_discard(struct file *f)
{
	if (!f)
		return;
	files_nr--;
	free(f);
}

int files_create(struct files **out)
{
	struct files *fs = calloc(1, sizeof(*fs));

	if (!fs)
		return -ENOMEM;
	fs->refcount = 1;
	*out = fs;
	return 0;
}

/* An fd of fs that held f is closed: the file hears of it (flush), fs's
 * POSIX locks on the file go (whichever fd they were taken through), then
 * the reference. */
static void close_file(struct files *fs, struct file *f)
{
	if (f && f->ops->flush)
		f->ops->flush(f);
	if (f) {
		locks_remove_posix(f, fs);
		dnotify_flush(f, fs);
	}
	file_put(f);
}

void files_put(struct files *fs)
{
	int i;

	if (!fs || --fs->refcount > 0)
		return;
	for (i = 0; i < fs->max; i++) {
		struct file *f = fs->fd[i];

		fs->fd[i] = NULL; /* nobody may find it while it closes */
		close_file(fs, f);
	}
	free(fs->fd);
	free(fs->cloexec);
	free(fs);
}

static int grow(struct files *fs, int want)
{
	int n = fs->max ? fs->max : 64;
	struct file **fd;
	unsigned char *ce;

	while (n <= want)
		n *= 2;
	fd = realloc(fs->fd, n * sizeof(*fd));
	if (!fd)
		return -ENOMEM;
	fs->fd = fd;
	ce = realloc(fs->cloexec, n);
	if (!ce)
		return -ENOMEM;
	fs->cloexec = ce;
	memset(fs->fd + fs->max, 0, (n - fs->max) * sizeof(*fd));
	memset(fs->cloexec + fs->max, 0, n - fs->max);
	fs->max = n;
	return 0;
}

int files_dup(struct files *src, struct files **out)
{
	struct files *fs;
	int i, ret = files_create(&fs);

	if (ret < 0)
		return ret;
	if (src->max && grow(fs, src->max - 1) < 0) {
		files_put(fs);
		return -ENOMEM;
	}
	for (i = 0; i < src->max; i++) {
		fs->fd[i] = src->fd[i];
		fs->cloexec[i] = src->cloexec[i];
		if (fs->fd[i])
			file_get(fs->fd[i]);
	}
	*out = fs;
	return 0;
}

long file_read_at_pos(struct file *f, void *buf, size_t n)
{
	long ret = f->ops->pread(f, buf, n, f->pos);

	if (ret > 0)
		f->pos += ret;
	return ret;
}

long file_write_at_pos(struct file *f, const void *buf, size_t n)
{
	long ret = f->ops->pwrite(f, buf, n, f->pos);

	if (ret > 0)
		f->pos += ret;
	return ret;
}

long read_from_buffer(void *dst, size_t n, int64_t off, const void *text, size_t len)
{
	if (off < 0)
		return -EINVAL;
	if ((uint64_t)off >= len)
		return 0;
	if (n > len - (size_t)off)
		n = len - (size_t)off;
	memcpy(dst, (const char *)text + off, n);
	return (long)n;
}

int64_t seq_llseek(struct file *f, int64_t off, int whence)
{
	if (whence == LINUX_SEEK_CUR) {
		if (__builtin_add_overflow(off, f->pos, &off))
			return -EINVAL;
	} else if (whence != LINUX_SEEK_SET) {
		return -EINVAL;
	}
	if (off < 0)
		return -EINVAL;
	return f->pos = off;
}

struct file *fdget(struct files *fs, int fd)
{
	struct file *f;

	if (fd < 0 || fd >= fs->max || !fs->fd[fd])
		return NULL;
	f = fs->fd[fd];
	file_get(f);
	return f;
}

struct file *fdget_nopath(struct files *fs, int fd)
{
	struct file *f = fdget(fs, fd);

	if (f && (f->flags & LINUX_O_PATH)) {
		file_put(f);
		return NULL;
	}
	return f;
}

int fd_open_room(struct files *fs, int limit)
{
	int fd;

	for (fd = 0; fd < limit && fd < fs->max; fd++)
		if (!fs->fd[fd])
			break;
	if (fd >= limit)
		return -EMFILE;
	if (files_nr >= files_max)
		unix_gc();
	return files_nr >= files_max ? -ENFILE : 0;
}

int fd_install(struct files *fs, struct file *f, int min, bool cloexec, int limit)
{
	int fd;

	for (fd = min; fd < limit; fd++) {
		if (fd >= fs->max && grow(fs, fd) < 0)
			return -ENOMEM;
		if (!fs->fd[fd]) {
			fs->fd[fd] = f;
			fs->cloexec[fd] = cloexec;
			return fd;
		}
	}
	return -EMFILE;
}

int fd_install_at(struct files *fs, int fd, struct file *f, bool cloexec)
{
	struct file *old;

	if (fd >= fs->max && grow(fs, fd) < 0)
		return -ENOMEM;
	old = fs->fd[fd];
	fs->fd[fd] = f;
	fs->cloexec[fd] = cloexec;
	close_file(fs, old);
	return fd;
}

int fd_close(struct files *fs, int fd)
{
	struct file *f;

	if (fd < 0 || fd >= fs->max || !fs->fd[fd])
		return -EBADF;
	f = fs->fd[fd];
	fs->fd[fd] = NULL;
	fs->cloexec[fd] = 0;
	close_file(fs, f);
	return 0;
}

void files_close_on_exec(struct files *fs)
{
	int i;

	for (i = 0; i < fs->max; i++)
		if (fs->fd[i] && fs->cloexec[i])
			fd_close(fs, i);
}

static uint64_t fsize_limit(void)
{
	return current->proc->rlim[LINUX_RLIMIT_FSIZE].rlim_cur;
}

int file_write_limits(int64_t pos, uint64_t *count)
{
	uint64_t limit = fsize_limit();

	if (limit != LINUX_RLIM_INFINITY) {
		if ((uint64_t)pos >= limit) {
			send_sig_self(LINUX_SIGXFSZ);
			return -EFBIG;
		}
		if (*count > limit - (uint64_t)pos)
			*count = limit - (uint64_t)pos;
	}
	if (pos == INT64_MAX)
		return -EFBIG;
	if (*count > (uint64_t)(INT64_MAX - pos))
		*count = (uint64_t)(INT64_MAX - pos);
	return 0;
}

int file_write_checks(struct file *f, int64_t pos, uint64_t *count)
{
	struct linux_stat st;

	if (*count == 0 || fsize_limit() == LINUX_RLIM_INFINITY)
		return 0; /* MAX_LFS_FILESIZE: the offsets' checks keep below it */
	if (file_stat(f, &st) < 0 || !LINUX_S_ISREG(st.st_mode))
		return 0;
	if (f->inode && f->inode->sb && f->inode->sb->no_fsize)
		return 0;
	if (f->flags & LINUX_O_APPEND)
		pos = st.st_size;
	else if (pos < 0)
		pos = f->ops->llseek ? f->ops->llseek(f, 0, LINUX_SEEK_CUR) : f->pos;
	if (pos < 0)
		return 0;
	return file_write_limits(pos, count);
}

int file_newsize_ok(int64_t old_size, uint64_t new_size)
{
	uint64_t limit = fsize_limit();

	if (new_size <= (uint64_t)old_size || limit == LINUX_RLIM_INFINITY || new_size <= limit)
		return 0;
	send_sig_self(LINUX_SIGXFSZ);
	return -EFBIG;
}
