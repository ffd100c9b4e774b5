/* vfs/devices.c: the memory devices (null, zero, full, random, urandom),
 * the terminals (tty/: /dev/tty, /dev/console, /dev/ptmx, /dev/pts/N) and
 * O_PATH files. */
#include <string.h>

#include "vfs/devices.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "vfs/poll.h"
#include "host/host.h"
#include "kernel/task.h"
#include "tty/console.h"
#include "tty/pty.h"
#include "tty/tty.h"
#include "abi/linux/errno.h"
#include "abi/linux/poll.h"

static long null_read(struct file *f, void *buf, size_t n)
{
	(void)f;
	(void)buf;
	(void)n;
	return 0;
}

static long null_write(struct file *f, const void *buf, size_t n)
{
	(void)f;
	(void)buf;
	return (long)n;
}

static long zero_read(struct file *f, void *buf, size_t n)
{
	(void)f;
	memset(buf, 0, n);
	return (long)n;
}

static long full_write(struct file *f, const void *buf, size_t n)
{
	(void)f;
	(void)buf;
	(void)n;
	return -ENOSPC;
}

static long random_read(struct file *f, void *buf, size_t n)
{
	(void)f;
	return host_getrandom(buf, n) < 0 ? -EIO : (long)n;
}

static long null_pread(struct file *f, void *buf, size_t n, int64_t off)
{
	(void)off;
	return f->ops->read(f, buf, n);
}

static int64_t dev_llseek(struct file *f, int64_t off, int whence)
{
	(void)whence;
	(void)off;
	f->pos = 0;
	return 0;
}

static int dev_stat(struct file *f, struct linux_stat *st)
{
	return vfs_getattr(f->inode, st);
}

static unsigned dev_poll(struct file *f, struct poll_table *pt)
{
	(void)f;
	(void)pt;
	return LINUX_POLLIN | LINUX_POLLOUT | LINUX_POLLRDNORM | LINUX_POLLWRNORM;
}

static const struct file_ops null_ops = {
	.read = null_read,
	.write = null_write,
	.pread = null_pread,
	.llseek = dev_llseek,
	.stat = dev_stat,
	.poll = dev_poll,
};
static const struct file_ops zero_ops = {
	.read = zero_read,
	.write = null_write,
	.pread = null_pread,
	.llseek = dev_llseek,
	.stat = dev_stat,
	.poll = dev_poll,
	.mmap_anon = true,
};
static const struct file_ops full_ops = {
	.read = zero_read,
	.write = full_write,
	.pread = null_pread,
	.llseek = dev_llseek,
	.stat = dev_stat,
	.poll = dev_poll,
};
static const struct file_ops random_ops = {
	.read = random_read,
	.write = null_write,
	.pread = null_pread,
	.llseek = dev_llseek,
	.stat = dev_stat,
	.poll = dev_poll,
};

/* /dev/tty: the opener's controlling terminal. */
static int ctty_open(struct file *f)
{
	struct tty *tty = current ? tty_ctty(current->proc) : NULL;

	if (!tty)
		return -ENXIO;
	return tty_open_file(tty, f, true);
}

static int tty_device_open(uint64_t rdev, struct file *f)
{
	unsigned major = MAJOR(rdev), minor = MINOR(rdev);

	if (major == 5) {
		switch (minor) {
		case 0:
			return ctty_open(f);
		case 1:
			return console_open(f);
		case 2:
			return ptmx_open(f);
		}
		return -ENXIO;
	}
	if (major == PTY_SLAVE_MAJOR)
		return minor < PTY_LIMIT ? pts_open((int)minor, f) : -ENXIO;
	return -ENXIO;
}

int device_open(struct inode *ino, uint64_t rdev, struct file *f)
{
	if (!LINUX_S_ISCHR(ino->mode))
		return -ENXIO;
	if (MAJOR(rdev) != 1)
		return tty_device_open(rdev, f);
	switch (MINOR(rdev)) {
	case 3:
		f->ops = &null_ops;
		return 0;
	case 5:
		f->ops = &zero_ops;
		return 0;
	case 7:
		f->ops = &full_ops;
		return 0;
	case 8:
	case 9:
		f->ops = &random_ops;
		return 0;
	}
	return -ENXIO;
}

static int path_stat(struct file *f, struct linux_stat *st)
{
	return f->inode ? vfs_getattr(f->inode, st) : -EBADF;
}

const struct file_ops path_file_ops = {
	.stat = path_stat,
};
