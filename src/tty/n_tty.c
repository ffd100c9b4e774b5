/* tty/n_tty.c: the line discipline's input side, as Linux's N_TTY. Driver
 * input waits in a queue (tty->ld.in) and goes through one character at a
 * time while the read buffer has room: ISTRIP/IUCLC, IXON flow control,
 * ISIG's signal characters, IGNCR/ICRNL/INLCR, canonical editing (ERASE,
 * KILL, WERASE, LNEXT, REPRINT, EOF, EOL), and echo, written when the batch
 * is done. Reads, writes and output processing are in n_tty_io.c.
 * Differs from Linux: echoes are not held while output is stopped, and are
 * dropped if the driver has no room; bytes 0x80-0x9f are not control
 * characters for ECHOCTL. */
#include <string.h>

#include "tty/n_tty.h"
#include "abi/linux/poll.h"
#include "abi/linux/signal.h"

#define ECHO_COMMIT	256
#define INPUT_ROOM_WAKE 256

/* Writes the pending echoes; what the driver has no room for is lost. */
static void flush_echoes(struct tty *tty)
{
	struct n_tty *ld = &tty->ld;

	if (ld->echo_len)
		tty->driver->write(tty, ld->echo, ld->echo_len);
	ld->echo_len = 0;
}

static void echo_bytes(struct tty *tty, const unsigned char *b, size_t n)
{
	struct n_tty *ld = &tty->ld;

	if (ld->echo_len + n > sizeof(ld->echo))
		flush_echoes(tty);
	memcpy(ld->echo + ld->echo_len, b, n);
	ld->echo_len += n;
	if (ld->echo_len >= ECHO_COMMIT)
		flush_echoes(tty);
}

/* An echoed byte with OPOST processing. */
static void echo_raw(struct tty *tty, unsigned char c)
{
	unsigned char out[8];
	int k;

	if (!oflag(tty, LINUX_OPOST)) {
		echo_bytes(tty, &c, 1);
		return;
	}
	k = n_tty_opost_char(tty, c, out, sizeof(out));
	if (k > 0)
		echo_bytes(tty, out, (size_t)k);
}

/* An echoed character: ^X for a control character with ECHOCTL. */
static void echo_char(struct tty *tty, unsigned char c)
{
	unsigned char ctl[2] = { '^', (unsigned char)(c ^ 0100) };

	if (lflag(tty, LINUX_ECHOCTL) && is_cntrl(c) && c != '\t') {
		echo_bytes(tty, ctl, 2);
		tty->ld.column += 2;
		return;
	}
	echo_raw(tty, c);
}

static void finish_erasing(struct tty *tty)
{
	if (tty->ld.erasing) {
		echo_raw(tty, '/');
		tty->ld.erasing = false;
	}
}

static void set_canon_col(struct tty *tty)
{
	tty->ld.canon_column = tty->ld.column;
}

/* The read buffer */

static void put_char(struct n_tty *ld, unsigned char c, unsigned char flags)
{
	if (read_cnt(ld) >= TTY_BUF_SIZE)
		return;
	ld->buf[MASK(ld->head)] = c;
	ld->flags[MASK(ld->head)] = flags;
	ld->head++;
}

/* May one more input character go through? Canonical mode without a whole
 * line takes them all (erase and newline must work; text is dropped). */
static bool ld_has_room(const struct tty *tty)
{
	const struct n_tty *ld = &tty->ld;

	if (read_cnt(ld) < TTY_BUF_SIZE - 1)
		return true;
	return canonical(tty) && ld->canon_head == ld->tail;
}

static void erase_tab(struct tty *tty)
{
	struct n_tty *ld = &tty->ld;
	unsigned nchars = 0, nbs;
	bool after_tab = false;
	size_t pos = ld->head;

	while (pos != ld->canon_head) {
		unsigned char c = ld->buf[MASK(--pos)];

		if (c == '\t') {
			after_tab = true;
			break;
		} else if (is_cntrl(c)) {
			if (lflag(tty, LINUX_ECHOCTL))
				nchars += 2;
		} else if (!is_continuation(tty, c)) {
			nchars++;
		}
	}
	if (!after_tab)
		nchars += ld->canon_column;
	nbs = 8 - (nchars & 7);
	while (nbs--) {
		unsigned char bs = '\b';

		echo_bytes(tty, &bs, 1);
		if (ld->column > 0)
			ld->column--;
	}
}

static void echo_rubout(struct tty *tty)
{
	echo_raw(tty, '\b');
	echo_raw(tty, ' ');
	echo_raw(tty, '\b');
}

enum kill_type { ERASE, WERASE, KILL };

/* Echo of one character erased (c, cnt bytes ending at head + cnt). */
static void echo_erased(struct tty *tty, enum kill_type kt, unsigned char c, size_t head,
			size_t cnt)
{
	struct n_tty *ld = &tty->ld;

	if (lflag(tty, LINUX_ECHOPRT)) {
		if (!ld->erasing) {
			echo_raw(tty, '\\');
			ld->erasing = true;
		}
		echo_char(tty, c);
		while (--cnt > 0) {
			echo_raw(tty, ld->buf[MASK(++head)]);
			if (ld->column > 0)
				ld->column--;
		}
	} else if (kt == ERASE && !lflag(tty, LINUX_ECHOE)) {
		echo_char(tty, tty->termios.c_cc[LINUX_VERASE]);
	} else if (c == '\t') {
		erase_tab(tty);
	} else {
		if (is_cntrl(c) && lflag(tty, LINUX_ECHOCTL))
			echo_rubout(tty);
		if (!is_cntrl(c) || lflag(tty, LINUX_ECHOCTL))
			echo_rubout(tty);
	}
}

/* ERASE, WERASE or KILL in canonical mode. */
static void eraser(struct tty *tty, unsigned char c)
{
	struct n_tty *ld = &tty->ld;
	enum kill_type kt;
	int seen_alnums = 0;

	if (ld->head == ld->canon_head)
		return;
	if (is_cc(tty, LINUX_VERASE, c)) {
		kt = ERASE;
	} else if (is_cc(tty, LINUX_VWERASE, c)) {
		kt = WERASE;
	} else {
		if (!lflag(tty, LINUX_ECHO)) {
			ld->head = ld->canon_head;
			return;
		}
		if (!lflag(tty, LINUX_ECHOK) || !lflag(tty, LINUX_ECHOKE) ||
		    !lflag(tty, LINUX_ECHOE)) {
			ld->head = ld->canon_head;
			finish_erasing(tty);
			echo_char(tty, tty->termios.c_cc[LINUX_VKILL]);
			if (lflag(tty, LINUX_ECHOK))
				echo_raw(tty, '\n');
			return;
		}
		kt = KILL;
	}
	while (ld->head != ld->canon_head) {
		size_t head = ld->head;

		do
			c = ld->buf[MASK(--head)];
		while (is_continuation(tty, c) && head != ld->canon_head);
		if (is_continuation(tty, c))
			break; /* never half a character */
		if (kt == WERASE) {
			if (is_alnum(c) || c == '_')
				seen_alnums++;
			else if (seen_alnums)
				break;
		}
		{
			size_t cnt = ld->head - head;

			ld->head = head;
			if (lflag(tty, LINUX_ECHO))
				echo_erased(tty, kt, c, head, cnt);
		}
		if (kt == ERASE)
			break;
	}
	if (ld->head == ld->canon_head && lflag(tty, LINUX_ECHO))
		finish_erasing(tty);
}

/* Input */

static void isig(struct tty *tty, int sig, unsigned char c)
{
	if (!lflag(tty, LINUX_NOFLSH)) {
		tty->ld.echo_len = 0;
		if (tty->driver->is_pty && tty->link)
			tty->link->ld.in_len = 0; /* output not yet taken by the master */
		n_tty_flush_input(tty);
	}
	tty_signal_pgrp(tty->pgrp, sig);
	if (iflag(tty, LINUX_IXON))
		tty_start(tty);
	if (lflag(tty, LINUX_ECHO))
		echo_char(tty, c);
}

static void end_line(struct tty *tty, unsigned char c, unsigned char flag)
{
	put_char(&tty->ld, c, flag);
	tty->ld.canon_head = tty->ld.head;
}

/* An ordinary character: echo and queue. */
static void receive_plain(struct tty *tty, unsigned char c)
{
	struct n_tty *ld = &tty->ld;

	if (canonical(tty) && read_cnt(ld) >= TTY_BUF_SIZE - 1)
		return; /* the line is full: only its end goes in */
	if (lflag(tty, LINUX_ECHO)) {
		finish_erasing(tty);
		if (c == '\n') {
			echo_raw(tty, '\n');
		} else {
			if (ld->canon_head == ld->head)
				set_canon_col(tty);
			echo_char(tty, c);
		}
	}
	if (c == 0377 && iflag(tty, LINUX_PARMRK))
		put_char(ld, c, 0);
	put_char(ld, c, 0);
}

/* Canonical mode's special characters; false if c is not one. */
static bool receive_canon(struct tty *tty, unsigned char c)
{
	struct n_tty *ld = &tty->ld;
	bool iexten = lflag(tty, LINUX_IEXTEN), echo = lflag(tty, LINUX_ECHO);

	if (is_cc(tty, LINUX_VERASE, c) || is_cc(tty, LINUX_VKILL, c) ||
	    (iexten && is_cc(tty, LINUX_VWERASE, c))) {
		eraser(tty, c);
		return true;
	}
	if (iexten && is_cc(tty, LINUX_VLNEXT, c)) {
		ld->lnext = true;
		if (echo) {
			finish_erasing(tty);
			if (lflag(tty, LINUX_ECHOCTL)) {
				echo_raw(tty, '^');
				echo_raw(tty, '\b');
			}
		}
		return true;
	}
	if (iexten && echo && is_cc(tty, LINUX_VREPRINT, c)) {
		size_t pos;

		finish_erasing(tty);
		echo_char(tty, c);
		echo_raw(tty, '\n');
		for (pos = ld->canon_head; pos != ld->head; pos++)
			echo_char(tty, ld->buf[MASK(pos)]);
		return true;
	}
	if (c == '\n') {
		if (echo || lflag(tty, LINUX_ECHONL))
			echo_raw(tty, '\n');
		end_line(tty, c, NTTY_EOL);
		return true;
	}
	if (is_cc(tty, LINUX_VEOF, c)) {
		end_line(tty, 0, NTTY_EOF);
		return true;
	}
	if (is_cc(tty, LINUX_VEOL, c) || (iexten && is_cc(tty, LINUX_VEOL2, c))) {
		if (echo) {
			if (ld->canon_head == ld->head)
				set_canon_col(tty);
			echo_char(tty, c);
		}
		if (c == 0377 && iflag(tty, LINUX_PARMRK))
			put_char(ld, c, 0);
		end_line(tty, c, NTTY_EOL);
		return true;
	}
	return false;
}

static void receive_char(struct tty *tty, unsigned char c)
{
	struct n_tty *ld = &tty->ld;

	if (iflag(tty, LINUX_ISTRIP))
		c &= 0x7f;
	if (iflag(tty, LINUX_IUCLC) && lflag(tty, LINUX_IEXTEN) && c >= 'A' && c <= 'Z')
		c += 'a' - 'A';
	if (ld->lnext) {
		ld->lnext = false;
		receive_plain(tty, c);
		return;
	}
	if (iflag(tty, LINUX_IXON)) {
		if (is_cc(tty, LINUX_VSTART, c)) {
			tty_start(tty);
			return;
		}
		if (is_cc(tty, LINUX_VSTOP, c)) {
			tty_stop(tty);
			return;
		}
	}
	if (lflag(tty, LINUX_ISIG)) {
		if (is_cc(tty, LINUX_VINTR, c)) {
			isig(tty, LINUX_SIGINT, c);
			return;
		}
		if (is_cc(tty, LINUX_VQUIT, c)) {
			isig(tty, LINUX_SIGQUIT, c);
			return;
		}
		if (is_cc(tty, LINUX_VSUSP, c)) {
			isig(tty, LINUX_SIGTSTP, c);
			return;
		}
	}
	if (tty->stopped && !tty->tco_stopped && iflag(tty, LINUX_IXON) && iflag(tty, LINUX_IXANY))
		tty_start(tty);
	if (c == '\r') {
		if (iflag(tty, LINUX_IGNCR))
			return;
		if (iflag(tty, LINUX_ICRNL))
			c = '\n';
	} else if (c == '\n' && iflag(tty, LINUX_INLCR)) {
		c = '\r';
	}
	if (canonical(tty) && receive_canon(tty, c))
		return;
	receive_plain(tty, c);
}

size_t tty_receive_room(struct tty *tty)
{
	return TTY_BUF_SIZE - tty->ld.in_len;
}

size_t tty_receive(struct tty *tty, const void *buf, size_t n)
{
	struct n_tty *ld = &tty->ld;
	const unsigned char *b = buf;
	size_t i, room = tty_receive_room(tty);

	if (n > room)
		n = room;
	for (i = 0; i < n; i++)
		ld->in[MASK(ld->in_head + ld->in_len + i)] = b[i];
	ld->in_len += n;
	n_tty_process(tty);
	return n;
}

void n_tty_process(struct tty *tty)
{
	struct n_tty *ld = &tty->ld;
	/* Nearly full: a writer may wait for room (an ONLCR newline needs 2). */
	bool was_full = ld->in_len > TTY_BUF_SIZE - INPUT_ROOM_WAKE, took = false;

	if (ld->processing)
		return;
	ld->processing = true;
	tty_get(tty);
	while (ld->in_len && ld_has_room(tty)) {
		unsigned char c = ld->in[MASK(ld->in_head)];

		ld->in_head = MASK(ld->in_head + 1);
		ld->in_len--;
		took = true;
		receive_char(tty, c);
	}
	flush_echoes(tty);
	ld->processing = false;
	if (took) {
		waitq_wake(&tty->read_wait, LINUX_POLLIN | LINUX_POLLRDNORM);
		if (was_full && tty->driver->input_room)
			tty->driver->input_room(tty);
	}
	tty_put(tty);
}

void n_tty_flush_input(struct tty *tty)
{
	struct n_tty *ld = &tty->ld;

	ld->tail = ld->canon_head = ld->head;
	ld->erasing = false;
	memset(ld->flags, 0, sizeof(ld->flags));
	if (tty->link && tty->link->packet) {
		tty->link->pkt_status |= LINUX_TIOCPKT_FLUSHREAD;
		waitq_wake_all(&tty->link->read_wait);
	}
}

void n_tty_set_termios(struct tty *tty, const struct linux_termios2 *old)
{
	struct n_tty *ld = &tty->ld;

	if ((old->c_lflag ^ tty->termios.c_lflag) & LINUX_ICANON) {
		memset(ld->flags, 0, sizeof(ld->flags));
		if (!canonical(tty) || !read_cnt(ld)) {
			ld->canon_head = ld->tail;
		} else {
			/* What was typed raw is one line now. */
			ld->flags[MASK(ld->head - 1)] = NTTY_EOL;
			ld->canon_head = ld->head;
		}
		ld->erasing = ld->lnext = false;
	}
	if (!iflag(tty, LINUX_IXON) && (old->c_iflag & LINUX_IXON) && !tty->tco_stopped)
		tty_start(tty);
	waitq_wake_all(&tty->read_wait);
	n_tty_process(tty);
}

int n_tty_inq(struct tty *tty)
{
	struct n_tty *ld = &tty->ld;
	size_t pos;
	int n = 0;

	if (!canonical(tty))
		return (int)read_cnt(ld);
	for (pos = ld->tail; pos != ld->canon_head; pos++)
		if (!(ld->flags[MASK(pos)] & NTTY_EOF))
			n++;
	return n;
}

/* Flow control */

void tty_stop(struct tty *tty)
{
	if (tty->stopped)
		return;
	tty->stopped = true;
	if (tty->link && tty->link->packet) {
		tty->link->pkt_status =
			(tty->link->pkt_status & ~LINUX_TIOCPKT_START) | LINUX_TIOCPKT_STOP;
		waitq_wake_all(&tty->link->read_wait);
	}
}

void tty_start(struct tty *tty)
{
	if (!tty->stopped || tty->tco_stopped)
		return;
	tty->stopped = false;
	if (tty->link && tty->link->packet) {
		tty->link->pkt_status =
			(tty->link->pkt_status & ~LINUX_TIOCPKT_STOP) | LINUX_TIOCPKT_START;
		waitq_wake_all(&tty->link->read_wait);
	}
	waitq_wake(&tty->write_wait, LINUX_POLLOUT); /* Linux's tty_wakeup */
}

void tty_send_char(struct tty *tty, unsigned char c)
{
	tty->driver->write(tty, &c, 1);
}
