/* vfs/devices.c: the memory devices (null, zero, full, random, urandom,
 * kmsg), the terminals (tty/: /dev/tty, /dev/console, /dev/ptmx,
 * /dev/pts/N) and O_PATH files. */
#include <stdlib.h>
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
#include "kernel/log.h"
#include "kernel/cred.h"
#include "kernel/sched.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
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
	.nowait = FILE_NOWAIT_READ | FILE_NOWAIT_WRITE,
};
static const struct file_ops zero_ops = {
	.read = zero_read,
	.write = null_write,
	.pread = null_pread,
	.llseek = dev_llseek,
	.stat = dev_stat,
	.poll = dev_poll,
	.mmap_anon = true,
	.nowait = FILE_NOWAIT_READ | FILE_NOWAIT_WRITE,
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
	.nowait = FILE_NOWAIT_READ | FILE_NOWAIT_WRITE,
};

static const struct file_ops kmsg_ops;

/* /dev/kmsg: the kernel's message buffer (kernel/log.c) a record per
 * read, and a message per write, as Linux's devkmsg. Reading needs what
 * syslog(2) needs (CAP_SYSLOG or CAP_SYS_ADMIN: dmesg_restrict); a write
 * is at most 1024 bytes (EINVAL), "<N>" before it its priority (a level
 * with the user facility, or facility and level), else user.warning, one
 * newline at its end dropped; ten per five seconds per open file, the
 * rest dropped, their count said at the close. Differs from Linux: a
 * writev is a message per segment. */
struct kmsg_file {
	struct klog_cursor c;
	struct klog_ratelimit rl;
};

static int kmsg_open(struct file *f)
{
	const struct cred *c = current ? &current->proc->cred : NULL;
	struct kmsg_file *k;

	if ((f->flags & LINUX_O_ACCMODE) != LINUX_O_WRONLY && c && !capable(c, CAP_SYSLOG) &&
	    !capable(c, CAP_SYS_ADMIN))
		return -EPERM;
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	klog_cursor_set(&k->c, KLOG_FIRST);
	f->priv = k;
	f->ops = &kmsg_ops;
	return 0;
}

static long kmsg_read(struct file *f, void *buf, size_t n)
{
	struct kmsg_file *k = f->priv;
	long ret;

	while ((ret = klog_kmsg_read(&k->c, buf, n)) == 0) {
		if (f->flags & LINUX_O_NONBLOCK)
			return -EAGAIN;
		if (signal_pending(current))
			return -ERESTARTSYS;
		waitq_sleep(klog_waitq());
	}
	return ret;
}

static long kmsg_pread(struct file *f, void *buf, size_t n, int64_t off)
{
	(void)off;
	return kmsg_read(f, buf, n);
}

static long kmsg_write(struct file *f, const void *buf, size_t n)
{
	struct kmsg_file *k = f->priv;
	const char *s = buf, *p;
	unsigned facility = 1, level = 4; /* LOG_USER, default_message_loglevel */
	size_t len = n;

	if (n > KLOG_TEXT_MAX)
		return -EINVAL;
	if (len && s[0] == '<') {
		unsigned long v = 0;

		for (p = s + 1; p < s + len && *p >= '0' && *p <= '9'; p++)
			v = v * 10 + (unsigned long)(*p - '0');
		if (p < s + len && *p == '>') { /* "<>" too: simple_strtoul's 0 */
			level = (unsigned)(v & 7);
			if ((v >> 3) & 0xff)
				facility = (unsigned)(v >> 3) & 0xff;
			len -= (size_t)(p + 1 - s);
			s = p + 1;
		}
	}
	if (len && s[len - 1] == '\n')
		len--;
	if (klog_ratelimit_ok(&k->rl))
		klog_user(facility << 3 | level, s, len);
	return (long)n;
}

static int64_t kmsg_llseek(struct file *f, int64_t off, int whence)
{
	struct kmsg_file *k = f->priv;

	if (off)
		return -ESPIPE;
	switch (whence) {
	case LINUX_SEEK_SET:
		klog_cursor_set(&k->c, KLOG_FIRST);
		return 0;
	case LINUX_SEEK_DATA:
		klog_cursor_set(&k->c, KLOG_CLEAR);
		return 0;
	case LINUX_SEEK_END:
		klog_cursor_set(&k->c, KLOG_END);
		return 0;
	}
	return -EINVAL;
}

static unsigned kmsg_poll(struct file *f, struct poll_table *pt)
{
	struct kmsg_file *k = f->priv;
	int s = klog_cursor_state(&k->c);

	poll_wait(pt, klog_waitq());
	if (s < 0)
		return LINUX_POLLIN | LINUX_POLLRDNORM | LINUX_POLLERR | LINUX_POLLPRI;
	return s ? LINUX_POLLIN | LINUX_POLLRDNORM : 0;
}

static void kmsg_release(struct file *f)
{
	struct kmsg_file *k = f->priv;

	if (k && k->rl.missed)
		klog(LOG_INFO, "%s: %d output lines suppressed due to ratelimiting",
		     current ? current->comm : "?", k->rl.missed);
	free(k);
}

static const struct file_ops kmsg_ops = {
	.read = kmsg_read,
	.write = kmsg_write,
	.pread = kmsg_pread,
	.llseek = kmsg_llseek,
	.stat = dev_stat,
	.poll = kmsg_poll,
	.release = kmsg_release,
	.write_whole = true,
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
	case 11:
		return kmsg_open(f);
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
