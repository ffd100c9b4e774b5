/* tty/n_tty_io.c: the line discipline's reads (ICANON's lines, or VMIN
 * and VTIME), writes through OPOST (ONLCR, OCRNL, ONOCR, ONLRET, OLCUC,
 * XTABS, with the column kept for erasing), and poll. */
#include <string.h>

#include "tty/n_tty.h"
#include "vfs/file.h"
#include "kernel/task.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/poll.h"

#define LINUX_TABDLY 0014000
#define LINUX_XTABS  0014000

/* Output */

int n_tty_opost_char(struct tty *tty, unsigned char c, unsigned char *out, size_t space)
{
	struct n_tty *ld = &tty->ld;
	unsigned spaces;

	if (!space)
		return -1;
	switch (c) {
	case '\n':
		if (oflag(tty, LINUX_ONLCR)) {
			if (space < 2)
				return -1;
			ld->column = ld->canon_column = 0;
			out[0] = '\r';
			out[1] = '\n';
			return 2;
		}
		if (oflag(tty, LINUX_ONLRET))
			ld->column = 0;
		ld->canon_column = ld->column;
		break;
	case '\r':
		if (oflag(tty, LINUX_ONOCR) && ld->column == 0)
			return 0;
		if (oflag(tty, LINUX_OCRNL)) {
			c = '\n';
			if (oflag(tty, LINUX_ONLRET))
				ld->canon_column = ld->column = 0;
			break;
		}
		ld->canon_column = ld->column = 0;
		break;
	case '\t':
		spaces = 8 - (ld->column & 7);
		if ((tty->termios.c_oflag & LINUX_TABDLY) == LINUX_XTABS) {
			if (space < spaces)
				return -1;
			ld->column += spaces;
			memset(out, ' ', spaces);
			return (int)spaces;
		}
		ld->column += spaces;
		break;
	case '\b':
		if (ld->column > 0)
			ld->column--;
		break;
	default:
		if (!is_cntrl(c)) {
			if (oflag(tty, LINUX_OLCUC) && c >= 'a' && c <= 'z')
				c -= 'a' - 'A';
			if (!is_continuation(tty, c))
				ld->column++;
		}
		break;
	}
	out[0] = c;
	return 1;
}

/* Reading */

/* Is there something for read (poll: as poll counts it, VMIN)? */
static bool input_available(const struct tty *tty, bool poll)
{
	const struct n_tty *ld = &tty->ld;
	size_t amt = 1;

	if (canonical(tty))
		return ld->canon_head != ld->tail;
	if (poll && !tty->termios.c_cc[LINUX_VTIME] && tty->termios.c_cc[LINUX_VMIN])
		amt = tty->termios.c_cc[LINUX_VMIN];
	return read_cnt(ld) >= amt;
}

/* Copies one line (or as much of it as fits) out of the buffer. */
static size_t canon_copy(struct tty *tty, unsigned char *out, size_t n)
{
	struct n_tty *ld = &tty->ld;
	size_t done = 0;

	while (ld->tail != ld->canon_head && done < n) {
		unsigned char f = ld->flags[MASK(ld->tail)];

		ld->flags[MASK(ld->tail)] = 0;
		if (f & NTTY_EOF) {
			ld->tail++;
			break;
		}
		out[done++] = ld->buf[MASK(ld->tail)];
		ld->tail++;
		if (f & NTTY_EOL)
			break;
	}
	return done;
}

static size_t raw_copy(struct tty *tty, unsigned char *out, size_t n)
{
	struct n_tty *ld = &tty->ld;
	size_t done = 0;

	while (ld->tail != ld->head && done < n) {
		ld->flags[MASK(ld->tail)] = 0;
		out[done++] = ld->buf[MASK(ld->tail)];
		ld->tail++;
	}
	return done;
}

struct read_timer {
	struct task *task;
	bool expired;
};

static void read_timeout(void *arg)
{
	struct read_timer *rt = arg;

	rt->expired = true;
	sched_wake(rt->task);
}

/* Waits for input until deadline (monotonic ns; -1: none); false once
 * the deadline has passed. */
static bool read_wait(struct tty *tty, int64_t deadline_ns)
{
	struct read_timer rt = { current, false };
	struct ktimer tm = { .armed = false };

	if (deadline_ns >= 0) {
		if (sched_now_ns() >= deadline_ns)
			return false;
		ktimer_arm(&tm, deadline_ns, read_timeout, &rt);
	}
	waitq_sleep(&tty->read_wait);
	ktimer_cancel(&tm);
	return !rt.expired;
}

/* Packet mode (pty master): a status byte alone, or a 0 before data. */
static bool packet_status(struct tty *tty, unsigned char *b, size_t *done)
{
	if (!tty->packet || !tty->pkt_status)
		return false;
	if (*done == 0) {
		b[(*done)++] = tty->pkt_status;
		tty->pkt_status = 0;
	}
	return true;
}

long n_tty_read(struct tty *tty, struct file *f, void *buf, size_t n)
{
	struct tty_file *tf = f->priv;
	unsigned char *b = buf;
	size_t done = 0, minimum = 0;
	int64_t deadline_ns = -1, time_ns = 0;
	long ret = 0;

	if (!canonical(tty)) {
		unsigned vmin = tty->termios.c_cc[LINUX_VMIN];
		int64_t vtime_ns = tty->termios.c_cc[LINUX_VTIME] * 100000000LL;

		if (vmin) {
			minimum = vmin;
			time_ns = vtime_ns;
		} else {
			deadline_ns = sched_now_ns() + vtime_ns;
			minimum = 1;
		}
	}
	while (done < n) {
		if (packet_status(tty, b, &done))
			break;
		if (!input_available(tty, false)) {
			if (tty->other_closed) {
				ret = -EIO;
				break;
			}
			if (tty_file_hung_up(tf))
				break;
			if (deadline_ns >= 0 && sched_now_ns() >= deadline_ns)
				break;
			if (f->flags & LINUX_O_NONBLOCK) {
				ret = -EAGAIN;
				break;
			}
			if (signal_pending(current)) {
				ret = -ERESTARTSYS;
				break;
			}
			if (!read_wait(tty, deadline_ns))
				break;
			continue;
		}
		if (tty->packet && done == 0)
			b[done++] = LINUX_TIOCPKT_DATA;
		if (canonical(tty)) {
			done += canon_copy(tty, b + done, n - done);
			n_tty_process(tty);
			break;
		}
		done += raw_copy(tty, b + done, n - done);
		n_tty_process(tty);
		if (done >= minimum)
			break;
		if (time_ns)
			deadline_ns = sched_now_ns() + time_ns;
	}
	return done ? (long)done : ret;
}

/* Writing */

/* Processes output from buf into out (at most space bytes): returns how
 * many input bytes went, *outn how many output bytes they made. */
static size_t opost_block(struct tty *tty, const unsigned char *buf, size_t n, unsigned char *out,
			  size_t space, size_t *outn)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		int k = n_tty_opost_char(tty, buf[i], out + o, space - o);

		if (k < 0)
			break;
		o += (size_t)k;
	}
	*outn = o;
	return i;
}

/* Hands bytes to the driver; returns how many input bytes went. */
static size_t write_some(struct tty *tty, const unsigned char *buf, size_t n)
{
	unsigned char out[TTY_BUF_SIZE];
	size_t room = tty->driver->write_room(tty), in, outn;

	if (!room)
		return 0;
	if (!oflag(tty, LINUX_OPOST)) {
		long k = tty->driver->write(tty, buf, n < room ? n : room);

		return k > 0 ? (size_t)k : 0;
	}
	if (room > sizeof(out))
		room = sizeof(out);
	in = opost_block(tty, buf, n, out, room, &outn);
	if (outn)
		tty->driver->write(tty, out, outn);
	return in;
}

long n_tty_write(struct tty *tty, struct file *f, const void *buf, size_t n)
{
	struct tty_file *tf = f->priv;
	const unsigned char *b = buf;
	size_t done = 0;
	long ret = 0;

	for (;;) {
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		if (tty_file_hung_up(tf)) {
			ret = -EIO;
			break;
		}
		while (done < n && !tty->stopped) {
			size_t k = write_some(tty, b + done, n - done);

			if (!k)
				break;
			done += k;
		}
		if (done == n)
			break;
		if (f->flags & LINUX_O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		waitq_sleep(&tty->write_wait);
	}
	return done ? (long)done : ret;
}

unsigned n_tty_poll_mask(struct tty *tty, struct file *f)
{
	unsigned mask = 0;

	(void)f;
	if (input_available(tty, true))
		mask |= LINUX_POLLIN | LINUX_POLLRDNORM;
	if (tty->packet && tty->pkt_status)
		mask |= LINUX_POLLPRI | LINUX_POLLIN | LINUX_POLLRDNORM;
	if (tty->other_closed)
		mask |= LINUX_POLLHUP;
	if (!tty->stopped && tty->driver->write_room(tty) > 0)
		mask |= LINUX_POLLOUT | LINUX_POLLWRNORM;
	return mask;
}
