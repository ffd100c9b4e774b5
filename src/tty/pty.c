/* tty/pty.c: pseudo-terminal pairs. What one end writes goes through its
 * own line discipline's output processing and arrives as input at the
 * other end's line discipline. The master starts raw; the slave has the
 * standard settings and is locked until TIOCSPTLCK unlocks it. When the
 * slave's last file closes, the master reads EIO (after the data) and
 * polls POLLHUP; when the master's last file closes, the slave is hung up
 * and /dev/pts/N goes away. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tty/pty.h"
#include "tty/tty.h"
#include "vfs/devices.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "kernel/task.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/poll.h"
#include "abi/linux/signal.h"
#include "abi/linux/types.h"

/* The ptys by index, grown as more are open at once; how many are. An
 * index stays taken (by GONE) after its master's close until its slave
 * tty is freed, as Linux's devpts_kill_index at the pair's release: no
 * new pty takes the number of a slave still open, and nr counts it. */
static struct pty **ptys;
static unsigned ptys_cap;
static int nr_ptys;
static int max_ptys = PTY_MAX_DEFAULT, reserve_ptys = 1024;
static struct pty gone;
#define GONE (&gone)

struct pty *pty_lookup(unsigned index)
{
	return index < ptys_cap && ptys[index] != GONE ? ptys[index] : NULL;
}

unsigned pty_index_end(void)
{
	return ptys_cap;
}

int pty_max(void)
{
	return max_ptys;
}

int pty_reserve(void)
{
	return reserve_ptys;
}

int pty_nr(void)
{
	return nr_ptys;
}

int pty_set_max(long v)
{
	if (v < 0 || v > INT_MAX)
		return -EINVAL;
	max_ptys = (int)v;
	return 0;
}

int pty_set_reserve(long v)
{
	if (v < 0 || v > INT_MAX)
		return -EINVAL;
	reserve_ptys = (int)v;
	return 0;
}

/* The lowest free index (devpts_new_index), the table grown to hold it:
 * -ENOSPC at kernel.pty.max (whose last one is never given: Linux counts
 * the new pty before it compares), -ENOMEM. */
static int new_index(void)
{
	unsigned i, cap;
	struct pty **grown;

	if (nr_ptys + 1 >= max_ptys)
		return -ENOSPC;
	for (i = 0; i < ptys_cap; i++)
		if (!ptys[i])
			return (int)i;
	if (ptys_cap == PTY_LIMIT)
		return -ENOSPC;
	cap = ptys_cap ? 2 * ptys_cap : 64;
	grown = realloc(ptys, cap * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	memset(grown + ptys_cap, 0, (cap - ptys_cap) * sizeof(*grown));
	ptys = grown;
	ptys_cap = cap;
	return (int)i;
}

/* Drivers */

static long ptm_write(struct tty *tty, const void *buf, size_t n)
{
	return (long)tty_receive(tty->link, buf, n);
}

static size_t ptm_write_room(struct tty *tty)
{
	return tty_receive_room(tty->link);
}

/* One end's input queue has room: the other end's writers go on. */
static void pty_input_room(struct tty *tty)
{
	if (tty->link)
		waitq_wake(&tty->link->write_wait, LINUX_POLLOUT);
}

static long pts_write(struct tty *tty, const void *buf, size_t n)
{
	return tty->link ? (long)tty_receive(tty->link, buf, n) : (long)n;
}

static size_t pts_write_room(struct tty *tty)
{
	return tty->link ? tty_receive_room(tty->link) : TTY_BUF_SIZE;
}

static long ptm_open_peer(struct tty *tty, struct task *t, unsigned flags)
{
	struct pty *pty = tty->driver_data;
	char name[32];
	struct path p = { 0 };
	struct file *f;
	int ret;

	snprintf(name, sizeof(name), "/dev/pts/%d", pty->index);
	if (path_lookupat(t, LINUX_AT_FDCWD, name, LOOKUP_FOLLOW, &p) < 0 ||
	    p.dentry->inode->sb->magic != DEVPTS_SUPER_MAGIC) {
		if (p.dentry)
			path_put(&p);
		memset(&p, 0, sizeof(p));
	}
	flags &= LINUX_O_ACCMODE | LINUX_O_NONBLOCK | LINUX_O_NOCTTY | LINUX_O_CLOEXEC |
		 LINUX_O_APPEND;
	f = file_alloc(NULL, flags, -1, p.dentry ? &p : NULL);
	if (p.dentry)
		path_put(&p);
	if (!f)
		return file_alloc_error();
	ret = tty_open_file(tty->link, f, false);
	if (ret < 0) {
		f->ops = &path_file_ops;
		file_put(f);
		return ret;
	}
	ret = fd_install(t->files, f, 0, flags & LINUX_O_CLOEXEC,
			 (int)t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur);
	if (ret < 0)
		file_put(f);
	return ret;
}

static long ptm_ioctl(struct tty *tty, struct file *f, struct task *t, unsigned cmd, uint64_t arg)
{
	struct pty *pty = tty->driver_data;
	int v;

	(void)f;
	switch (cmd) {
	case LINUX_TIOCGPTN:
		return copy_to_user(t->mm, arg, &pty->index, sizeof(int));
	case LINUX_TIOCSPTLCK:
		if (copy_from_user(t->mm, &v, arg, sizeof(v)) < 0)
			return -EFAULT;
		tty->link->locked = v != 0;
		return 0;
	case LINUX_TIOCGPTLCK:
		v = tty->link->locked;
		return copy_to_user(t->mm, arg, &v, sizeof(v));
	case LINUX_TIOCPKT:
		if (copy_from_user(t->mm, &v, arg, sizeof(v)) < 0)
			return -EFAULT;
		if (v && !tty->packet)
			tty->pkt_status = 0;
		tty->packet = v != 0;
		return 0;
	case LINUX_TIOCGPKT:
		v = tty->packet;
		return copy_to_user(t->mm, arg, &v, sizeof(v));
	case LINUX_TIOCSIG:
		if (arg != LINUX_SIGINT && arg != LINUX_SIGQUIT && arg != LINUX_SIGTSTP)
			return -EINVAL;
		tty_signal_pgrp(tty->link->pgrp, (int)arg);
		return 0;
	case LINUX_TIOCGPTPEER:
		return ptm_open_peer(tty, t, (unsigned)arg);
	default:
		return -ENOIOCTLCMD;
	}
}

static void ptm_close(struct tty *tty, struct file *f)
{
	struct pty *pty = tty->driver_data;
	struct tty *slave = tty->link;

	(void)f;
	if (tty->count > 0)
		return;
	ptys[pty->index] = GONE; /* until the slave tty goes: pts_destroy */
	slave->other_closed = true;
	tty_hangup(slave);
	/* Break the pair: the slave may outlive the master in open files. */
	slave->link = NULL;
	tty->link = NULL;
	tty_put(tty); /* the pty's */
	tty_put(slave);
	free(pty);
}

static int pts_drv_open(struct tty *tty, struct file *f)
{
	(void)f;
	if (!tty->link || tty->other_closed)
		return -EIO;
	if (tty->locked)
		return -EIO;
	tty->link->other_closed = false;
	return 0;
}

static void pts_drv_close(struct tty *tty, struct file *f)
{
	(void)f;
	if (tty->count > 0 || !tty->link)
		return;
	tty->link->other_closed = true;
	waitq_wake_all(&tty->link->read_wait);
	waitq_wake_all(&tty->link->write_wait);
}

/* The slave tty is freed (the master closed, the last slave file too):
 * its number is free. */
static void pts_destroy(struct tty *tty)
{
	if ((unsigned)tty->index < ptys_cap && ptys[tty->index] == GONE) {
		ptys[tty->index] = NULL;
		nr_ptys--;
	}
}

static const struct tty_driver ptm_driver = {
	.name = "pty master",
	.write = ptm_write,
	.write_room = ptm_write_room,
	.input_room = pty_input_room,
	.ioctl = ptm_ioctl,
	.close = ptm_close,
	.is_pty_master = true,
	.is_pty = true,
};

static const struct tty_driver pts_driver = {
	.name = "pty slave",
	.write = pts_write,
	.write_room = pts_write_room,
	.input_room = pty_input_room,
	.open = pts_drv_open,
	.close = pts_drv_close,
	.destroy = pts_destroy,
	.is_pty = true,
};

/* Opening */

int ptmx_open(struct file *f)
{
	struct linux_termios2 mt = tty_std_termios, st = tty_std_termios;
	struct process *p = current ? current->proc : NULL;
	struct pty *pty;
	int i, ret;

	i = new_index();
	if (i < 0)
		return i;
	pty = calloc(1, sizeof(*pty));
	if (!pty)
		return -ENOMEM;
	mt.c_iflag = mt.c_oflag = mt.c_lflag = 0;
	mt.c_cflag = LINUX_CS8 | LINUX_HUPCL | LINUX_CREAD;
	st.c_cflag = LINUX_B38400 | LINUX_CS8 | LINUX_CREAD;
	pty->index = i;
	pty->master = tty_alloc(&ptm_driver, MKDEV(PTY_MASTER_MAJOR, i), i, &mt);
	pty->slave = tty_alloc(&pts_driver, MKDEV(PTY_SLAVE_MAJOR, i), i, &st);
	if (!pty->master || !pty->slave) {
		tty_put(pty->master);
		tty_put(pty->slave);
		free(pty);
		return -ENOMEM;
	}
	pty->master->link = pty->slave;
	pty->slave->link = pty->master;
	pty->master->driver_data = pty->slave->driver_data = pty;
	pty->slave->locked = true;
	pty->uid = p ? p->cred.fsuid : 0;
	pty->gid = PTY_GID;
	pty->mode = PTY_MODE;
	pty->ctime = vfs_now();
	ret = tty_open_file(pty->master, f, true);
	if (ret < 0) {
		tty_put(pty->master);
		tty_put(pty->slave);
		free(pty);
		return ret;
	}
	ptys[i] = pty;
	nr_ptys++;
	return 0;
}

int pts_open(unsigned index, struct file *f)
{
	struct pty *pty = pty_lookup(index);

	if (!pty)
		return -ENXIO;
	return tty_open_file(pty->slave, f, false);
}
