/* fs/hostfs/hostfs.c: host files seen by the guest. Every lookup opens an
 * O_PATH fd beneath the root first, checks what it found (no procfs/sysfs,
 * no devices but null/zero/random/urandom), then opens the same file for
 * I/O. Until the VFS issue brings an overlay, the root is read-only:
 * writes get EROFS. Streams (pipes, ttys) sleep in the event loop. */
#include <stdlib.h>
#include <string.h>

#include "fs/hostfs/hostfs.h"
#include "vfs/file.h"
#include "vfs/poll.h"
#include "abi/linux/poll.h"
#include "host/host.h"
#include "kernel/sched.h"
#include "kernel/task.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/ioctl.h"
#include "abi/linux/stat.h"
#include "mm/usercopy.h"

struct hostfs_priv {
	bool stream; /* a pipe, tty or socket: reads may have to wait */
	bool tty;
};

static long hostfs_read(struct file *f, void *buf, size_t n)
{
	struct hostfs_priv *p = f->priv;

	if (p && p->stream && !(f->flags & LINUX_O_NONBLOCK)) {
		while (!host_fd_readable(f->host_fd)) {
			int ret;

			if (signal_pending(current))
				return -ERESTARTSYS;
			ret = sched_wait_host_fd(f->host_fd, false);
			if (ret < 0)
				return ret;
		}
	}
	return host_read(f->host_fd, buf, n);
}

static long hostfs_write(struct file *f, const void *buf, size_t n)
{
	return host_write(f->host_fd, buf, n);
}

static long hostfs_pread(struct file *f, void *buf, size_t n, int64_t off)
{
	return host_pread(f->host_fd, buf, n, off);
}

static int64_t hostfs_llseek(struct file *f, int64_t off, int whence)
{
	return host_lseek(f->host_fd, off, whence);
}

static long hostfs_getdents64(struct file *f, void *buf, size_t n)
{
	return host_getdents64(f->host_fd, buf, n);
}

static int hostfs_fstat(struct file *f, struct linux_stat *st)
{
	return host_fstat(f->host_fd, st);
}

static int hostfs_fstatx(struct file *f, unsigned mask, struct linux_statx *stx)
{
	return host_statx(f->host_fd, mask, stx);
}

static long hostfs_fgetxattr(struct file *f, const char *name, void *buf, size_t n)
{
	return host_fgetxattr(f->host_fd, name, buf, n);
}

static long hostfs_flistxattr(struct file *f, char *buf, size_t n)
{
	return host_flistxattr(f->host_fd, buf, n);
}

/* Terminal ioctls that only read state pass through to a host tty. */
static long hostfs_ioctl(struct file *f, struct task *t, unsigned cmd, uint64_t arg)
{
	struct hostfs_priv *p = f->priv;
	union {
		struct linux_termios tio;
		struct linux_winsize ws;
	} u;
	size_t size;
	int ret;

	if (!p || !p->tty)
		return -ENOTTY;
	switch (cmd) {
	case LINUX_TCGETS:
		size = sizeof(u.tio);
		break;
	case LINUX_TIOCGWINSZ:
		size = sizeof(u.ws);
		break;
	default:
		return -ENOTTY;
	}
	ret = host_ioctl_tty(f->host_fd, cmd, &u, size);
	if (ret < 0)
		return ret;
	return copy_to_user(t->mm, arg, &u, size);
}

/* Host streams are asked directly; a wait registers the host fd with the
 * kernel's event loop. Files and directories are always ready. */
static unsigned hostfs_poll(struct file *f, struct poll_table *pt)
{
	struct hostfs_priv *p = f->priv;
	unsigned mask;

	if (!p || !p->stream)
		return LINUX_POLLIN | LINUX_POLLOUT | LINUX_POLLRDNORM | LINUX_POLLWRNORM;
	mask = host_fd_poll(f->host_fd);
	if (!mask && pt)
		poll_wait_host_fd(pt, f->host_fd, !file_readable(f));
	return mask;
}

static int hostfs_mmap_fd(struct file *f)
{
	struct hostfs_priv *p = f->priv;

	if (p && p->stream)
		return -ENODEV;
	return f->host_fd;
}

static void hostfs_release(struct file *f)
{
	host_close(f->host_fd);
	free(f->priv);
}

static const struct file_ops hostfs_ops = {
	.read = hostfs_read,
	.write = hostfs_write,
	.pread = hostfs_pread,
	.llseek = hostfs_llseek,
	.getdents64 = hostfs_getdents64,
	.stat = hostfs_fstat,
	.statx = hostfs_fstatx,
	.ioctl = hostfs_ioctl,
	.getxattr = hostfs_fgetxattr,
	.listxattr = hostfs_flistxattr,
	.poll = hostfs_poll,
	.mmap_fd = hostfs_mmap_fd,
	.release = hostfs_release,
};

/* An O_PATH fd for abs_path, if the guest may see what it names. */
static int lookup(int root_fd, const char *abs_path, bool nofollow, bool directory, bool *io_ok,
		  bool *writable_dev)
{
	unsigned flags = LINUX_O_PATH | (nofollow ? LINUX_O_NOFOLLOW : 0) |
			 (directory ? LINUX_O_DIRECTORY : 0);
	bool io, wdev;
	int fd, ret, tries = 0;

	do
		fd = host_openat_in_root(root_fd, abs_path, flags, 0);
	while (fd == -EAGAIN && ++tries < 8);
	if (fd < 0)
		return fd;
	ret = host_fd_allowed(fd, &io, &wdev);
	if (ret < 0) {
		host_close(fd);
		return ret;
	}
	if (io_ok)
		*io_ok = io;
	if (writable_dev)
		*writable_dev = wdev;
	return fd;
}

static bool is_stream(const struct linux_stat *st)
{
	return LINUX_S_ISFIFO(st->st_mode) || LINUX_S_ISSOCK(st->st_mode) ||
	       LINUX_S_ISCHR(st->st_mode);
}

int hostfs_open(int root_fd, char *abs_path, unsigned flags, unsigned mode, struct file **out)
{
	unsigned acc = flags & LINUX_O_ACCMODE;
	bool want_write = acc != LINUX_O_RDONLY || (flags & LINUX_O_TRUNC);
	struct linux_stat st, st2;
	struct hostfs_priv *p;
	struct file *f;
	bool io_ok = false, wdev = false;
	int pfd, fd, ret;

	(void)mode;
	pfd = lookup(root_fd, abs_path, flags & LINUX_O_NOFOLLOW, flags & LINUX_O_DIRECTORY, &io_ok,
		     &wdev);
	if (pfd < 0) {
		if (pfd == -ENOENT && (flags & LINUX_O_CREAT))
			pfd = -EROFS;
		goto fail;
	}
	if ((flags & LINUX_O_CREAT) && (flags & LINUX_O_EXCL)) {
		host_close(pfd);
		pfd = -EEXIST;
		goto fail;
	}
	ret = host_fstat(pfd, &st);
	if (ret < 0)
		goto out_close;
	if (flags & LINUX_O_PATH) {
		fd = pfd;
		goto make;
	}
	ret = -ELOOP;
	if (LINUX_S_ISLNK(st.st_mode))
		goto out_close; /* O_NOFOLLOW on a symlink */
	ret = -EISDIR;
	if (LINUX_S_ISDIR(st.st_mode) && (acc != LINUX_O_RDONLY || (flags & LINUX_O_CREAT)))
		goto out_close;
	ret = -EACCES;
	if (!io_ok)
		goto out_close;
	ret = -EROFS;
	if (want_write && !wdev)
		goto out_close;
	fd = host_openat_in_root(root_fd, abs_path,
				 flags & ~(LINUX_O_CREAT | LINUX_O_EXCL | LINUX_O_CLOEXEC), 0);
	if (fd < 0) {
		ret = fd;
		goto out_close;
	}
	host_close(pfd);
	/* The path may have changed under us: insist on the file we checked. */
	if (host_fstat(fd, &st2) < 0 || st2.st_dev != st.st_dev || st2.st_ino != st.st_ino) {
		host_close(fd);
		ret = -EAGAIN;
		goto fail_ret;
	}
make:
	p = calloc(1, sizeof(*p));
	f = p ? file_alloc(&hostfs_ops,
			   flags & ~(LINUX_O_CREAT | LINUX_O_EXCL | LINUX_O_TRUNC |
				     LINUX_O_CLOEXEC | LINUX_O_NOCTTY),
			   fd, abs_path)
	      : NULL;
	if (!f) {
		free(p);
		host_close(fd);
		ret = -ENOMEM;
		goto fail_ret;
	}
	p->stream = is_stream(&st) && !(flags & LINUX_O_PATH);
	f->priv = p;
	*out = f;
	return 0;
out_close:
	host_close(pfd);
fail_ret:
	free(abs_path);
	return ret;
fail:
	free(abs_path);
	return pfd;
}

int hostfs_stat(int root_fd, const char *abs_path, bool nofollow, struct linux_stat *st)
{
	int fd = lookup(root_fd, abs_path, nofollow, false, NULL, NULL), ret;

	if (fd < 0)
		return fd;
	ret = host_fstat(fd, st);
	host_close(fd);
	return ret;
}

int hostfs_statx(int root_fd, const char *abs_path, bool nofollow, unsigned mask,
		 struct linux_statx *stx)
{
	int fd = lookup(root_fd, abs_path, nofollow, false, NULL, NULL), ret;

	if (fd < 0)
		return fd;
	ret = host_statx(fd, mask, stx);
	host_close(fd);
	return ret;
}

long hostfs_readlink(int root_fd, const char *abs_path, char *buf, unsigned long n)
{
	int fd = lookup(root_fd, abs_path, true, false, NULL, NULL);
	long ret;

	if (fd < 0)
		return fd;
	host_close(fd);
	ret = host_readlinkat_in_root(root_fd, abs_path, buf, n);
	return ret == -ENOENT ? -EINVAL : ret;
}

long hostfs_getxattr(int root_fd, const char *abs_path, bool nofollow, const char *name, void *buf,
		     unsigned long n)
{
	int fd = lookup(root_fd, abs_path, nofollow, false, NULL, NULL);
	long ret;

	if (fd < 0)
		return fd;
	ret = host_fgetxattr(fd, name, buf, n);
	host_close(fd);
	return ret;
}

long hostfs_listxattr(int root_fd, const char *abs_path, bool nofollow, char *buf, unsigned long n)
{
	int fd = lookup(root_fd, abs_path, nofollow, false, NULL, NULL);
	long ret;

	if (fd < 0)
		return fd;
	ret = host_flistxattr(fd, buf, n);
	host_close(fd);
	return ret;
}

int hostfs_stdio(int host_fd, unsigned flags, struct file **out)
{
	struct hostfs_priv *p = calloc(1, sizeof(*p));
	struct linux_stat st;
	struct file *f;

	if (!p)
		return -ENOMEM;
	if (host_fstat(host_fd, &st) < 0) {
		free(p);
		return -EBADF;
	}
	p->stream = is_stream(&st);
	p->tty = host_fd_is_tty(host_fd);
	f = file_alloc(&hostfs_ops, flags, host_fd, NULL);
	if (!f) {
		free(p);
		return -ENOMEM;
	}
	f->priv = p;
	*out = f;
	return 0;
}
