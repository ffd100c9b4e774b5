/* tty/tty_ioctl.c: the terminal ioctls. On a pty master, the settings,
 * window size and job-control calls act on its slave, as on Linux. The
 * driver's own calls (TIOCGPTN...) come first.
 * Differs from Linux: TIOCSTI needs CAP_SYS_ADMIN, whatever the terminal
 * (as Linux with dev.tty.legacy_tiocsti=0, but EPERM rather than EIO). */
#include <string.h>

#include "tty/tty.h"
#include "vfs/file.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/signal.h"

#define IBSHIFT 16

static const unsigned baud_table[] = {
	0,	 50,	  75,	   110,	    134,     150,     200,     300,
	600,	 1200,	  1800,	   2400,    4800,    9600,    19200,   38400,
	57600,	 115200,  230400,  460800,  500000,  576000,  921600,  1000000,
	1152000, 1500000, 2000000, 2500000, 3000000, 3500000, 4000000,
};

static unsigned cbaud_speed(unsigned cbaud, unsigned other)
{
	if (cbaud == LINUX_BOTHER)
		return other;
	if (cbaud & LINUX_CBAUDEX)
		cbaud = (cbaud & ~LINUX_CBAUDEX) + 15;
	return cbaud < sizeof(baud_table) / sizeof(baud_table[0]) ? baud_table[cbaud] : 0;
}

void tty_termios_speeds(struct linux_termios2 *tio)
{
	unsigned in = (tio->c_cflag >> IBSHIFT) & LINUX_CBAUD;

	tio->c_ospeed = cbaud_speed(tio->c_cflag & LINUX_CBAUD, tio->c_ospeed);
	tio->c_ispeed = in == LINUX_B0 ? tio->c_ospeed : cbaud_speed(in, tio->c_ispeed);
}

static int get_int(struct task *t, uint64_t arg, int *v)
{
	return copy_from_user(t->mm, v, arg, sizeof(*v));
}

static int put_int(struct task *t, uint64_t arg, int v)
{
	return copy_to_user(t->mm, arg, &v, sizeof(v));
}

static void flush_input(struct tty *tty)
{
	n_tty_flush_input(tty);
	tty->ld.in_len = 0;
	if (tty->driver->input_room)
		tty->driver->input_room(tty);
}

/* The form a TCSETS*-like request takes in user memory. */
enum termios_form { FORM_TERMIOS, FORM_TERMIOS2, FORM_TERMIO };

/* System V's termio into the termios it changes: the low 16 bits of each
 * flag word, the line, the first NCC characters (Linux's
 * user_termio_to_kernel_termios). */
static int termio_in(struct task *t, uint64_t arg, struct linux_termios2 *tio)
{
	struct linux_termio v;

	if (copy_from_user(t->mm, &v, arg, sizeof(v)) < 0)
		return -EFAULT;
	tio->c_iflag = (tio->c_iflag & 0xffff0000u) | v.c_iflag;
	tio->c_oflag = (tio->c_oflag & 0xffff0000u) | v.c_oflag;
	tio->c_cflag = (tio->c_cflag & 0xffff0000u) | v.c_cflag;
	tio->c_lflag = (tio->c_lflag & 0xffff0000u) | v.c_lflag;
	tio->c_line = v.c_line;
	memcpy(tio->c_cc, v.c_cc, LINUX_NCC);
	return 0;
}

/* What TIOCSLCKTRMIOS locked stays as it was (Linux's
 * unset_locked_termios). */
static void keep_locked(const struct linux_termios *lk, const struct linux_termios2 *old,
			struct linux_termios2 *tio)
{
	int i;

	tio->c_iflag = (tio->c_iflag & ~lk->c_iflag) | (old->c_iflag & lk->c_iflag);
	tio->c_oflag = (tio->c_oflag & ~lk->c_oflag) | (old->c_oflag & lk->c_oflag);
	tio->c_cflag = (tio->c_cflag & ~lk->c_cflag) | (old->c_cflag & lk->c_cflag);
	tio->c_lflag = (tio->c_lflag & ~lk->c_lflag) | (old->c_lflag & lk->c_lflag);
	if (lk->c_line)
		tio->c_line = old->c_line;
	for (i = 0; i < LINUX_NCCS; i++)
		if (lk->c_cc[i])
			tio->c_cc[i] = old->c_cc[i];
}

/* TCSETS*, TCSETA*: tty is the slave for a pty master's file. */
static long set_termios(struct tty *tty, struct task *t, uint64_t arg, enum termios_form form,
			bool flush)
{
	struct linux_termios2 tio = tty->termios, old = tty->termios;
	int ret = tty_check_change(tty, LINUX_SIGTTOU);

	if (ret < 0)
		return ret;
	if (form == FORM_TERMIO)
		ret = termio_in(t, arg, &tio);
	else if (copy_from_user(t->mm, &tio, arg,
				form == FORM_TERMIOS2 ? sizeof(tio)
						      : sizeof(struct linux_termios)) < 0)
		ret = -EFAULT;
	if (ret < 0)
		return ret;
	keep_locked(&tty->termios_locked, &old, &tio);
	tty_termios_speeds(&tio);
	if (flush)
		flush_input(tty);
	if (tty->driver->is_pty) {
		tio.c_cflag &= ~(LINUX_CSIZE | LINUX_PARENB);
		tio.c_cflag |= LINUX_CS8 | LINUX_CREAD;
	} else {
		/* No hardware: the line settings stay as they were. */
		const unsigned keep = LINUX_HUPCL | LINUX_CREAD | LINUX_CLOCAL;

		tio.c_cflag = (tio.c_cflag & keep) | (old.c_cflag & ~keep);
		tio.c_ispeed = old.c_ispeed;
		tio.c_ospeed = old.c_ospeed;
	}
	tty->termios = tio;
	if (tty->link && tty->link->packet) {
		bool oflow = (old.c_iflag & LINUX_IXON) && old.c_cc[LINUX_VSTOP] == 023 &&
			     old.c_cc[LINUX_VSTART] == 021;
		bool nflow = (tio.c_iflag & LINUX_IXON) && tio.c_cc[LINUX_VSTOP] == 023 &&
			     tio.c_cc[LINUX_VSTART] == 021;

		if (oflow != nflow) {
			tty->link->pkt_status &= ~(LINUX_TIOCPKT_DOSTOP | LINUX_TIOCPKT_NOSTOP);
			tty->link->pkt_status |=
				nflow ? LINUX_TIOCPKT_DOSTOP : LINUX_TIOCPKT_NOSTOP;
			waitq_wake_all(&tty->link->read_wait);
		}
	}
	n_tty_set_termios(tty, &old);
	return 0;
}

static long tiocsctty(struct tty *tty, struct file *f, struct process *p, uint64_t arg)
{
	bool admin = capable(&p->cred, CAP_SYS_ADMIN);

	if (p->sid == p->pid && tty->session == p->sid)
		return 0;
	if (p->sid != p->pid || tty_ctty(p))
		return -EPERM;
	if (tty->session && !(arg == 1 && admin))
		return -EPERM;
	if (!file_readable(f) && !admin)
		return -EPERM;
	tty_set_ctty(tty, p);
	return 0;
}

struct pgrp_find {
	int nr, sid;
	bool found_pgrp, found_pid;
	int pid_sid;
};

static void pgrp_find_cb(struct process *p, void *arg)
{
	struct pgrp_find *c = arg;

	if (p->pgid == c->nr && !c->found_pgrp) {
		c->found_pgrp = true;
		c->sid = p->sid;
	}
	if (p->pid == c->nr) {
		c->found_pid = true;
		c->pid_sid = p->sid;
	}
}

static long tiocspgrp(struct tty *real, struct task *t, uint64_t arg)
{
	struct process *p = t->proc;
	struct pgrp_find c = { 0 };
	int ret = tty_check_change(real, LINUX_SIGTTOU), nr;

	if (ret == -EIO)
		return -ENOTTY;
	if (ret < 0)
		return ret;
	if (get_int(t, arg, &nr) < 0)
		return -EFAULT;
	if (nr < 0)
		return -EINVAL;
	if (!real->session || real->session != p->sid)
		return -ENOTTY;
	nr = pid_from_nr(task_pid_ns(t), nr); /* 0: none the caller sees */
	if (!nr)
		return -ESRCH;
	c.nr = nr;
	for_each_process(pgrp_find_cb, &c);
	if (!c.found_pgrp && !c.found_pid)
		return -ESRCH;
	if ((c.found_pgrp ? c.sid : c.pid_sid) != p->sid)
		return -EPERM;
	real->pgrp = nr;
	return 0;
}

static long tcflsh(struct tty *tty, int arg)
{
	int ret = tty_check_change(tty, LINUX_SIGTTOU);

	if (ret < 0)
		return ret;
	switch (arg) {
	case LINUX_TCIFLUSH:
		flush_input(tty);
		return 0;
	case LINUX_TCIOFLUSH:
		flush_input(tty);
		/* fall through */
	case LINUX_TCOFLUSH:
		if (tty->link && tty->driver->is_pty)
			tty->link->ld.in_len = 0;
		return 0;
	default:
		return -EINVAL;
	}
}

static long tcxonc(struct tty *tty, int arg)
{
	int ret = tty_check_change(tty, LINUX_SIGTTOU);

	if (ret < 0)
		return ret;
	switch (arg) {
	case LINUX_TCOOFF:
		if (!tty->tco_stopped) {
			tty_stop(tty);
			tty->tco_stopped = true;
		}
		return 0;
	case LINUX_TCOON:
		if (tty->tco_stopped) {
			tty->tco_stopped = false;
			tty_start(tty);
		}
		return 0;
	case LINUX_TCIOFF:
		if (tty->termios.c_cc[LINUX_VSTOP])
			tty_send_char(tty, tty->termios.c_cc[LINUX_VSTOP]);
		return 0;
	case LINUX_TCION:
		if (tty->termios.c_cc[LINUX_VSTART])
			tty_send_char(tty, tty->termios.c_cc[LINUX_VSTART]);
		return 0;
	default:
		return -EINVAL;
	}
}

static long tiocsti(struct tty *tty, struct task *t, uint64_t arg)
{
	unsigned char c;

	if (!capable(&t->proc->cred, CAP_SYS_ADMIN))
		return -EPERM;
	if (copy_from_user(t->mm, &c, arg, 1) < 0)
		return -EFAULT;
	tty_receive(tty, &c, 1);
	return 0;
}

/* Settings and window size: on real (the slave of a pty master). */
static long mode_ioctl(struct tty *real, struct task *t, unsigned cmd, uint64_t arg)
{
	struct linux_winsize ws;

	switch (cmd) {
	case LINUX_TCGETS:
		return copy_to_user(t->mm, arg, &real->termios, sizeof(struct linux_termios));
	case LINUX_TCGETS2:
		return copy_to_user(t->mm, arg, &real->termios, sizeof(struct linux_termios2));
	case LINUX_TCSETS:
	case LINUX_TCSETSW:
		return set_termios(real, t, arg, FORM_TERMIOS, false);
	case LINUX_TCSETSF:
		return set_termios(real, t, arg, FORM_TERMIOS, true);
	case LINUX_TCSETS2:
	case LINUX_TCSETSW2:
		return set_termios(real, t, arg, FORM_TERMIOS2, false);
	case LINUX_TCSETSF2:
		return set_termios(real, t, arg, FORM_TERMIOS2, true);
	case LINUX_TCGETA: {
		struct linux_termio v;

		memset(&v, 0, sizeof(v));
		v.c_iflag = (uint16_t)real->termios.c_iflag;
		v.c_oflag = (uint16_t)real->termios.c_oflag;
		v.c_cflag = (uint16_t)real->termios.c_cflag;
		v.c_lflag = (uint16_t)real->termios.c_lflag;
		v.c_line = real->termios.c_line;
		memcpy(v.c_cc, real->termios.c_cc, LINUX_NCC);
		return copy_to_user(t->mm, arg, &v, sizeof(v));
	}
	case LINUX_TCSETA:
	case LINUX_TCSETAW:
		return set_termios(real, t, arg, FORM_TERMIO, false);
	case LINUX_TCSETAF:
		return set_termios(real, t, arg, FORM_TERMIO, true);
	case LINUX_TIOCGLCKTRMIOS:
		return copy_to_user(t->mm, arg, &real->termios_locked,
				    sizeof(real->termios_locked));
	case LINUX_TIOCSLCKTRMIOS: {
		struct linux_termios lk;

		/* Linux's checkpoint_restore_ns_capable */
		if (!capable(&t->proc->cred, CAP_SYS_ADMIN) &&
		    !capable(&t->proc->cred, CAP_CHECKPOINT_RESTORE))
			return -EPERM;
		if (copy_from_user(t->mm, &lk, arg, sizeof(lk)) < 0)
			return -EFAULT;
		real->termios_locked = lk;
		return 0;
	}
	case LINUX_TIOCGWINSZ:
		return copy_to_user(t->mm, arg, &real->winsize, sizeof(real->winsize));
	case LINUX_TIOCSWINSZ:
		if (copy_from_user(t->mm, &ws, arg, sizeof(ws)) < 0)
			return -EFAULT;
		tty_set_winsize(real, &ws);
		return 0;
	default:
		return -ENOIOCTLCMD;
	}
}

/* Controlling terminal and foreground group. */
static long job_ioctl(struct tty *tty, struct tty *real, struct file *f, struct task *t,
		      unsigned cmd, uint64_t arg)
{
	struct process *p = t->proc;
	bool is_ctty = real->session && real->session == p->sid;

	switch (cmd) {
	case LINUX_TIOCSCTTY:
		return tiocsctty(real, f, p, arg);
	case LINUX_TIOCNOTTY:
		if (tty != real || !is_ctty)
			return -ENOTTY;
		if (p->sid == p->pid)
			tty_session_leader_exit(p);
		return 0;
	case LINUX_TIOCGPGRP:
		if (tty == real && !is_ctty)
			return -ENOTTY;
		return put_int(t, arg, pid_vnr(t, real->pgrp));
	case LINUX_TIOCSPGRP:
		return tiocspgrp(real, t, arg);
	case LINUX_TIOCGSID:
		if ((tty == real && !is_ctty) || !real->session)
			return -ENOTTY;
		return put_int(t, arg, pid_vnr(t, real->session));
	default:
		return -ENOIOCTLCMD;
	}
}

long tty_ioctl(struct tty *tty, struct file *f, struct task *t, unsigned cmd, uint64_t arg)
{
	struct tty *real = tty->driver->is_pty_master ? tty->link : tty;
	long ret;
	int v;

	if (tty->driver->ioctl) {
		ret = tty->driver->ioctl(tty, f, t, cmd, arg);
		if (ret != -ENOIOCTLCMD)
			return ret;
	}
	if (!real)
		return -EIO;
	ret = mode_ioctl(real, t, cmd, arg);
	if (ret == -ENOIOCTLCMD)
		ret = job_ioctl(tty, real, f, t, cmd, arg);
	if (ret != -ENOIOCTLCMD)
		return ret;
	switch (cmd) {
	case LINUX_TIOCSTI:
		return tiocsti(tty, t, arg);
	case LINUX_FIONREAD:
		return put_int(t, arg, n_tty_inq(tty));
	case LINUX_TIOCOUTQ:
		return put_int(t, arg, 0);
	case LINUX_TCFLSH:
		return tcflsh(tty, (int)arg);
	case LINUX_TCXONC:
		return tcxonc(tty, (int)arg);
	case LINUX_TCSBRK:
	case LINUX_TCSBRKP:
		return tty_check_change(tty, LINUX_SIGTTOU);
	case LINUX_TIOCEXCL:
	case LINUX_TIOCNXCL:
		tty->exclusive = cmd == LINUX_TIOCEXCL;
		return 0;
	case LINUX_TIOCGEXCL:
		return put_int(t, arg, tty->exclusive);
	case LINUX_TIOCGETD:
		return put_int(t, arg, 0);
	case LINUX_TIOCSETD:
		if (get_int(t, arg, &v) < 0)
			return -EFAULT;
		return v == 0 ? 0 : -EINVAL;
	case LINUX_TIOCGDEV:
		return put_int(t, arg, (int)new_encode_dev(real->rdev));
	case LINUX_TIOCVHANGUP:
		if (!capable(&t->proc->cred, CAP_SYS_ADMIN))
			return -EPERM;
		tty_hangup(tty);
		return 0;
	default:
		return -ENOTTY;
	}
}
