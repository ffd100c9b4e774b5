/* tty/tty.c: terminal files. Reading, writing and polling go to the line
 * discipline (n_tty.c) after the job-control checks: a background process
 * group reading its controlling terminal gets SIGTTIN, writing it with
 * TOSTOP or changing its settings gets SIGTTOU (EIO when that cannot stop
 * it). A session has at most one controlling terminal: the first terminal
 * its leader opens without O_NOCTTY, or TIOCSCTTY; setsid leaves it behind
 * (the terminal remembers its session, not the other way round). Hangup
 * (the pty master or the host terminal goes away) ends every file opened
 * before it. The termios ioctls live in tty_ioctl.c.
 * Differs from Linux: TIOCNOTTY by a process that is not the session
 * leader succeeds but does not detach it. */
#include <stdlib.h>
#include <string.h>

#include "tty/tty.h"
#include "vfs/file.h"
#include "vfs/poll.h"
#include "kernel/task.h"
#include "kernel/cred.h"
#include "syscalls/dispatch.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/poll.h"
#include "abi/linux/signal.h"
#include "abi/linux/stat.h"

static LIST_HEAD_DECL(ttys);

/* Linux's tty_std_termios: 38400 baud, 8 bits, canonical with echo. */
const struct linux_termios2 tty_std_termios = {
	.c_iflag = LINUX_ICRNL | LINUX_IXON,
	.c_oflag = LINUX_OPOST | LINUX_ONLCR,
	.c_cflag = LINUX_B38400 | LINUX_CS8 | LINUX_CREAD | LINUX_HUPCL,
	.c_lflag = LINUX_ISIG | LINUX_ICANON | LINUX_ECHO | LINUX_ECHOE | LINUX_ECHOK |
		   LINUX_ECHOCTL | LINUX_ECHOKE | LINUX_IEXTEN,
	.c_cc = { 3, 28, 127, 21, 4, 0, 1, 0, 17, 19, 26, 0, 18, 15, 23, 22, 0 },
	.c_ispeed = 38400,
	.c_ospeed = 38400,
};

struct tty *tty_alloc(const struct tty_driver *drv, uint64_t rdev, int index,
		      const struct linux_termios2 *init)
{
	struct tty *tty = calloc(1, sizeof(*tty));

	if (!tty)
		return NULL;
	tty->refcount = 1;
	tty->driver = drv;
	tty->rdev = rdev;
	tty->index = index;
	tty->termios = init ? *init : tty_std_termios;
	waitq_init(&tty->read_wait);
	waitq_init(&tty->write_wait);
	list_add_tail(&tty->node, &ttys);
	return tty;
}

void tty_get(struct tty *tty)
{
	tty->refcount++;
}

void tty_put(struct tty *tty)
{
	if (!tty || --tty->refcount > 0)
		return;
	list_del(&tty->node);
	if (tty->driver->destroy)
		tty->driver->destroy(tty);
	waitq_release(&tty->read_wait);
	waitq_release(&tty->write_wait);
	free(tty);
}

bool tty_file_hung_up(const struct tty_file *tf)
{
	return tf->gen != tf->tty->hangup_gen;
}

/* Sessions and process groups */

static bool is_session_leader(const struct process *p)
{
	return p->sid == p->pid;
}

struct tty *tty_ctty(const struct process *p)
{
	struct tty *tty;

	list_for_each_entry(tty, &ttys, node)
	{
		if (tty->session && tty->session == p->sid)
			return tty;
	}
	return NULL;
}

int tty_proc_nr(const struct process *p)
{
	struct tty *tty = tty_ctty(p);
	unsigned major, minor;

	if (!tty)
		return 0;
	major = (unsigned)(((tty->rdev >> 8) & 0xfff) | ((tty->rdev >> 32) & ~0xfffULL));
	minor = (unsigned)((tty->rdev & 0xff) | ((tty->rdev >> 12) & ~0xffULL));
	return (int)((minor & 0xff) | (major << 8) | ((minor & ~0xffU) << 12));
}

int tty_proc_tpgid(const struct process *p)
{
	struct tty *tty = tty_ctty(p);

	return tty && tty->pgrp ? tty->pgrp : -1;
}

void tty_set_ctty(struct tty *tty, struct process *p)
{
	tty->session = p->sid;
	tty->pgrp = p->pgid;
}

struct pgrp_signal {
	int pgrp, sig;
};

static void pgrp_signal_cb(struct process *p, void *arg)
{
	struct pgrp_signal *ps = arg;
	struct linux_siginfo si;

	if (p->pgid != ps->pgrp)
		return;
	memset(&si, 0, sizeof(si));
	si.si_signo = ps->sig;
	si.si_code = LINUX_SI_KERNEL;
	send_signal_info(p, NULL, ps->sig, &si);
}

void tty_signal_pgrp(int pgrp, int sig)
{
	struct pgrp_signal ps = { pgrp, sig };

	if (pgrp > 0)
		for_each_process(pgrp_signal_cb, &ps);
}

static void signal_process(struct process *p, int sig)
{
	struct linux_siginfo si;

	memset(&si, 0, sizeof(si));
	si.si_signo = sig;
	si.si_code = LINUX_SI_KERNEL;
	send_signal_info(p, NULL, sig, &si);
}

static bool sig_ignored_by(struct task *t, int sig)
{
	return (t->sigmask & (1ULL << (sig - 1))) ||
	       t->proc->sigactions[sig - 1].handler == LINUX_SIG_IGN;
}

int tty_check_change(struct tty *tty, int sig)
{
	struct task *t = current;
	struct process *p;

	if (!t)
		return 0;
	p = t->proc;
	if (!tty->session || tty->session != p->sid)
		return 0;
	if (!tty->pgrp || p->pgid == tty->pgrp)
		return 0;
	if (sig_ignored_by(t, sig))
		return sig == LINUX_SIGTTIN ? -EIO : 0;
	if (pgrp_is_orphaned(p->pgid, NULL, NULL))
		return -EIO;
	tty_signal_pgrp(p->pgid, sig);
	return -ERESTARTSYS;
}

void tty_hangup(struct tty *tty)
{
	struct process *leader = tty->session ? process_by_pid(tty->session) : NULL;
	int pgrp = tty->pgrp;

	tty->hangup_gen++;
	tty->session = tty->pgrp = 0;
	/* Only the session leader is signalled, as Linux's
	 * tty_signal_session_leader; the foreground group is when it exits. */
	if (leader && !leader->zombie) {
		signal_process(leader, LINUX_SIGHUP);
		signal_process(leader, LINUX_SIGCONT);
		leader->tty_old_pgrp = pgrp;
	}
	n_tty_flush_input(tty);
	tty->ld.in_len = 0;
	tty->stopped = tty->tco_stopped = false;
	waitq_wake_all(&tty->read_wait);
	waitq_wake_all(&tty->write_wait);
}

/* vhangup(2): TIOCVHANGUP on the caller's controlling terminal, if it has
 * one, for CAP_SYS_TTY_CONFIG. */
long sys_vhangup(struct task *t, const struct sysargs *a)
{
	struct tty *tty;

	(void)a;
	if (!capable(&t->proc->cred, CAP_SYS_TTY_CONFIG))
		return -EPERM;
	tty = tty_ctty(t->proc);
	if (tty)
		tty_hangup(tty);
	return 0;
}

void tty_session_leader_exit(struct process *p)
{
	struct tty *tty = tty_ctty(p);
	int pgrp;

	if (!tty) {
		/* Its terminal hung up: the foreground group of then. */
		pgrp = p->tty_old_pgrp;
		p->tty_old_pgrp = 0;
		tty_signal_pgrp(pgrp, LINUX_SIGHUP);
		tty_signal_pgrp(pgrp, LINUX_SIGCONT);
		return;
	}
	pgrp = tty->pgrp;
	tty->session = tty->pgrp = 0;
	tty_signal_pgrp(pgrp, LINUX_SIGHUP);
	tty_signal_pgrp(pgrp, LINUX_SIGCONT);
}

void tty_set_winsize(struct tty *tty, const struct linux_winsize *ws)
{
	if (memcmp(ws, &tty->winsize, sizeof(*ws)) == 0)
		return;
	tty->winsize = *ws;
	tty_signal_pgrp(tty->pgrp, LINUX_SIGWINCH);
	if (tty->link && tty->link->pgrp != tty->pgrp)
		tty_signal_pgrp(tty->link->pgrp, LINUX_SIGWINCH);
}

/* Files */

static long tty_read(struct file *f, void *buf, size_t n)
{
	struct tty_file *tf = f->priv;
	int ret;

	if (tty_file_hung_up(tf))
		return 0;
	ret = tty_check_change(tf->tty, LINUX_SIGTTIN);
	if (ret < 0)
		return ret;
	return n_tty_read(tf->tty, f, buf, n);
}

/* Linux's tty_read hands the line discipline 64-byte pieces of the
 * request and copies each to the guest: the piece the fault falls in is
 * taken from the tty whole, and its bytes past the fault are lost. */
#define TTY_READ_PIECE 64

static long tty_read_fault(struct file *f, void *buf, size_t n, size_t ok, size_t *arrived)
{
	size_t lim = (ok / TTY_READ_PIECE + 1) * TTY_READ_PIECE;
	char *tmp;
	long r;

	if (lim > n)
		lim = n;
	tmp = malloc(lim);
	if (!tmp)
		return -ENOMEM;
	r = tty_read(f, tmp, lim);
	if (r > 0) {
		*arrived = (size_t)r < ok ? (size_t)r : ok;
		memcpy(buf, tmp, *arrived);
		if ((size_t)r > ok)
			r = ok ? (long)ok : -EFAULT;
	}
	free(tmp);
	return r;
}

static long tty_write(struct file *f, const void *buf, size_t n)
{
	struct tty_file *tf = f->priv;
	struct tty *tty = tf->tty;
	int ret;

	if (tty_file_hung_up(tf))
		return -EIO;
	if (tty->termios.c_lflag & LINUX_TOSTOP) {
		ret = tty_check_change(tty, LINUX_SIGTTOU);
		if (ret < 0)
			return ret;
	}
	return n_tty_write(tty, f, buf, n);
}

static unsigned tty_poll(struct file *f, struct poll_table *pt)
{
	struct tty_file *tf = f->priv;
	struct tty *tty = tf->tty;

	if (tty_file_hung_up(tf))
		return LINUX_POLLIN | LINUX_POLLOUT | LINUX_POLLERR | LINUX_POLLHUP |
		       LINUX_POLLRDNORM | LINUX_POLLWRNORM;
	poll_wait(pt, &tty->read_wait);
	poll_wait(pt, &tty->write_wait);
	return n_tty_poll_mask(tty, f);
}

static int64_t tty_llseek(struct file *f, int64_t off, int whence)
{
	(void)f;
	(void)off;
	(void)whence;
	return -ESPIPE;
}

/* fstat of a terminal file that has no path. */
static int tty_stat(struct file *f, struct linux_stat *st)
{
	struct tty_file *tf = f->priv;
	struct linux_timespec now = vfs_now();

	memset(st, 0, sizeof(*st));
	st->st_mode = LINUX_S_IFCHR | 0620;
	st->st_nlink = 1;
	st->st_rdev = tf->tty->rdev;
	st->st_blksize = 1024;
	st->st_dev = 0x16;
	st->st_ino = 3 + (uint64_t)tf->tty->index;
	st->st_atime_sec = st->st_mtime_sec = st->st_ctime_sec = now.tv_sec;
	return 0;
}

static long tty_file_ioctl(struct file *f, struct task *t, unsigned cmd, uint64_t arg)
{
	struct tty_file *tf = f->priv;

	if (tty_file_hung_up(tf))
		return cmd == LINUX_TIOCSPGRP ? -ENOTTY : -EIO;
	return tty_ioctl(tf->tty, f, t, cmd, arg);
}

static void tty_release(struct file *f)
{
	struct tty_file *tf = f->priv;
	struct tty *tty = tf->tty;

	tty->count--;
	if (tty->driver->close)
		tty->driver->close(tty, f);
	free(tf);
	tty_put(tty);
}

static const struct file_ops tty_fops = {
	.read = tty_read,
	.write = tty_write,
	.read_fault = tty_read_fault,
	.llseek = tty_llseek,
	.stat = tty_stat,
	.ioctl = tty_file_ioctl,
	.poll = tty_poll,
	.release = tty_release,
	.fasync = true,
};

bool file_is_tty(const struct file *f)
{
	return f->ops == &tty_fops;
}

int tty_open_file(struct tty *tty, struct file *f, bool noctty)
{
	struct process *p = current ? current->proc : NULL;
	struct tty_file *tf;
	int ret;

	if (tty->exclusive && p && !capable(&p->cred, CAP_SYS_ADMIN))
		return -EBUSY;
	tf = malloc(sizeof(*tf));
	if (!tf)
		return -ENOMEM;
	tf->tty = tty;
	tf->gen = tty->hangup_gen;
	tty->count++;
	if (tty->driver->open) {
		ret = tty->driver->open(tty, f);
		if (ret < 0) {
			tty->count--;
			free(tf);
			return ret;
		}
	}
	tty_get(tty);
	f->ops = &tty_fops;
	f->priv = tf;
	if (f->flags & LINUX_O_NOCTTY)
		noctty = true;
	if (!noctty && p && is_session_leader(p) && !tty_ctty(p) && !tty->session &&
	    file_readable(f))
		tty_set_ctty(tty, p);
	return 0;
}
