/* vfs/eventfd.c: eventfd(2). A 64-bit counter: write adds to it, read
 * takes it all (or 1 with EFD_SEMAPHORE); a read at 0 and a write that
 * would pass 0xfffffffffffffffe wait. Readers and writers share one wait
 * queue, as in Linux. Differs from Linux: a read or write of 0 bytes
 * returns 0 before it gets here (EINVAL on Linux). */
#include <stdlib.h>
#include <string.h>

#include "vfs/eventfd.h"
#include "vfs/file.h"
#include "vfs/poll.h"
#include "kernel/task.h"
#include "syscalls/dispatch.h"
#include "abi/linux/epoll.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/poll.h"
#include "abi/linux/stat.h"
#include "abi/linux/types.h"

#define EVENTFD_MAX	 UINT64_MAX /* the count never reaches it */
#define ANON_INODE_INO	 1
#define ANON_INODE_DEV	 0xd
#define ANON_INODE_BLKSZ 4096

struct eventfd {
	uint64_t count;
	bool semaphore;
	struct waitq wq; /* readers and writers */
};

int anon_inode_stat(struct file *f, struct linux_stat *st)
{
	(void)f;
	memset(st, 0, sizeof(*st));
	st->st_mode = 0600;
	st->st_nlink = 1;
	st->st_ino = ANON_INODE_INO;
	st->st_dev = ANON_INODE_DEV;
	st->st_blksize = ANON_INODE_BLKSZ;
	return 0;
}

int64_t anon_inode_llseek(struct file *f, int64_t off, int whence)
{
	(void)f;
	(void)off;
	(void)whence;
	return 0;
}

static long eventfd_read(struct file *f, void *buf, size_t n)
{
	struct eventfd *ev = f->priv;
	uint64_t val;

	if (n < sizeof(val))
		return -EINVAL;
	while (ev->count == 0) {
		if (f->flags & LINUX_O_NONBLOCK)
			return -EAGAIN;
		if (signal_pending(current))
			return -ERESTARTSYS;
		waitq_sleep(&ev->wq);
	}
	val = ev->semaphore ? 1 : ev->count;
	ev->count -= val;
	waitq_wake(&ev->wq, LINUX_POLLOUT); /* as Linux: room for writers */
	memcpy(buf, &val, sizeof(val));
	return sizeof(val);
}

static long eventfd_write(struct file *f, const void *buf, size_t n)
{
	struct eventfd *ev = f->priv;
	uint64_t val;

	if (n < sizeof(val))
		return -EINVAL;
	memcpy(&val, buf, sizeof(val));
	if (val == EVENTFD_MAX)
		return -EINVAL;
	while (EVENTFD_MAX - ev->count <= val) {
		if (f->flags & LINUX_O_NONBLOCK)
			return -EAGAIN;
		if (signal_pending(current))
			return -ERESTARTSYS;
		waitq_sleep(&ev->wq);
	}
	ev->count += val;
	waitq_wake(&ev->wq, LINUX_POLLIN); /* as Linux, even for 0 */
	return sizeof(val);
}

/* Linux's eventfd_read takes the count before its copy to the guest,
 * which comes up short where the buffer ends: the count is gone, EFAULT. */
static long eventfd_read_fault(struct file *f, void *buf, size_t n, size_t ok, size_t *arrived)
{
	return file_read_fault_records(f, buf, n, ok, arrived, sizeof(uint64_t), false);
}

/* eventfd_write copies the 8 bytes in before anything else */
static long eventfd_write_fault(struct file *f, const void *buf, size_t n, size_t ok)
{
	if (n < sizeof(uint64_t))
		return -EINVAL;
	if (ok < sizeof(uint64_t))
		return -EFAULT;
	return eventfd_write(f, buf, ok);
}

static unsigned eventfd_poll(struct file *f, struct poll_table *pt)
{
	struct eventfd *ev = f->priv;
	unsigned mask = 0;

	poll_wait(pt, &ev->wq);
	if (ev->count > 0)
		mask |= LINUX_POLLIN | LINUX_POLLRDNORM;
	if (ev->count == EVENTFD_MAX)
		mask |= LINUX_POLLERR;
	if (EVENTFD_MAX - 1 > ev->count)
		mask |= LINUX_POLLOUT | LINUX_POLLWRNORM;
	return mask;
}

static void eventfd_release(struct file *f)
{
	free(f->priv);
}

static const struct file_ops eventfd_ops = {
	.anon_name = "[eventfd]",
	.read = eventfd_read,
	.write = eventfd_write,
	.read_fault = eventfd_read_fault,
	.write_fault = eventfd_write_fault,
	.llseek = anon_inode_llseek,
	.stat = anon_inode_stat,
	.poll = eventfd_poll,
	.release = eventfd_release,
	.nowait = FILE_NOWAIT_READ, /* its write has no write_iter */
};

bool is_eventfd(const struct file *f)
{
	return f->ops == &eventfd_ops;
}

void eventfd_signal_file(struct file *f)
{
	struct eventfd *ev = f->priv;

	if (ev->count < EVENTFD_MAX - 1)
		ev->count++;
	waitq_wake(&ev->wq, LINUX_POLLIN);
}

static long do_eventfd2(struct task *t, unsigned count, int flags)
{
	struct eventfd *ev;
	struct file *f;
	int fd;

	if (flags & ~(LINUX_EFD_SEMAPHORE | LINUX_EFD_NONBLOCK | LINUX_EFD_CLOEXEC))
		return -EINVAL;
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	f = file_alloc(&eventfd_ops, LINUX_O_RDWR | (flags & LINUX_EFD_NONBLOCK), -1, NULL);
	if (!f) {
		free(ev);
		return file_alloc_error();
	}
	ev->count = count;
	ev->semaphore = flags & LINUX_EFD_SEMAPHORE;
	waitq_init(&ev->wq);
	f->priv = ev;
	fd = fd_install(t->files, f, 0, flags & LINUX_EFD_CLOEXEC,
			(int)t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur);
	if (fd < 0)
		file_put(f);
	return fd;
}

long sys_eventfd(struct task *t, const struct sysargs *a)
{
	return do_eventfd2(t, sysarg_uint(a, 0), 0);
}

long sys_eventfd2(struct task *t, const struct sysargs *a)
{
	return do_eventfd2(t, sysarg_uint(a, 0), sysarg_int(a, 1));
}
