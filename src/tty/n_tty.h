/* tty/n_tty.h: what the line discipline's two halves share: n_tty.c
 * (input: editing, echo, signals) and n_tty_io.c (read, write, poll and
 * output processing). */
#ifndef TTY_N_TTY_H
#define TTY_N_TTY_H

#include <stdbool.h>
#include <stddef.h>

#include "tty/tty.h"

#define NTTY_EOL 1 /* a line ends here (the byte is read) */
#define NTTY_EOF 2 /* a line ends here (the byte is an EOF mark, not read) */

#define MASK(i) ((i) & (TTY_BUF_SIZE - 1))

static inline bool iflag(const struct tty *tty, unsigned f)
{
	return tty->termios.c_iflag & f;
}

static inline bool oflag(const struct tty *tty, unsigned f)
{
	return tty->termios.c_oflag & f;
}

static inline bool lflag(const struct tty *tty, unsigned f)
{
	return tty->termios.c_lflag & f;
}

/* Is c the character c_cc[i]? 0 disables a character, as on Linux. */
static inline bool is_cc(const struct tty *tty, int i, unsigned char c)
{
	return tty->termios.c_cc[i] != 0 && tty->termios.c_cc[i] == c;
}

static inline bool is_cntrl(unsigned char c)
{
	return c < 32 || c == 127;
}

static inline bool is_continuation(const struct tty *tty, unsigned char c)
{
	return iflag(tty, LINUX_IUTF8) && (c & 0xc0) == 0x80;
}

static inline bool is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline bool canonical(const struct tty *tty)
{
	return lflag(tty, LINUX_ICANON);
}

static inline size_t read_cnt(const struct n_tty *ld)
{
	return ld->head - ld->tail;
}

/* One character through OPOST into out (space bytes free): returns the
 * bytes it became, or -1 without any change if they do not fit. */
int n_tty_opost_char(struct tty *tty, unsigned char c, unsigned char *out, size_t space);

#endif
