/* tty/console.c: the console, a terminal bridged to the host's stdio. The
 * host's bytes come in through a watch in the kernel's event loop (paused
 * while the input queue is full) and go through the guest's line
 * discipline; output goes to the host fd, and a writer waits (in the event
 * loop, not blocking the kernel) while the host fd is full. When the host
 * terminal goes away the console hangs up; the end of input that is not a
 * terminal (a pipe, with -t) arrives as the VEOF character. Host SIGWINCH
 * sets the window size (and SIGWINCH in the guest).
 * Differs from Linux: the kernel's own echo writes wait for the host. */
#include <stdlib.h>

#include "tty/console.h"
#include "tty/tty.h"
#include "vfs/devices.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "kernel/task.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/poll.h"
#include "abi/linux/types.h"

#define OUT_CHUNK 4096

static struct console {
	struct tty *tty;
	int in_fd, out_fd; /* host fds, the kernel's own */
	bool host_tty;	   /* in_fd is a host terminal */
	bool in_done;	   /* input ended */
	bool eof_pending;  /* input ended: VEOF still to queue */
	bool out_broken;   /* the host fd fails: output is dropped */
	bool out_waiting;  /* the write watch is on */
	bool in_polled;	   /* in_fd is watched (else a file: read as room allows) */
	bool out_polled;   /* out_fd can be waited for */
	bool stdio[3];
	struct file *stdio_file; /* fds 0-2 of the first process */
} con = { .in_fd = -1, .out_fd = -1 };

static long con_write(struct tty *tty, const void *buf, size_t n)
{
	const char *b = buf;
	size_t done = 0;

	(void)tty;
	while (done < n && !con.out_broken) {
		long k = host_write(con.out_fd, b + done, n - done);

		if (k == -EAGAIN) /* O_NONBLOCK set on the host's side */
			k = host_fd_wait_writable(con.out_fd, 1000) > 0 ? 0 : -EIO;
		if (k < 0)
			con.out_broken = true;
		else
			done += (size_t)k;
	}
	return (long)n;
}

static void out_ready(void *arg)
{
	(void)arg;
	host_evloop_watch_pause(con.out_fd, true);
	con.out_waiting = false;
	waitq_wake(&con.tty->write_wait, LINUX_POLLOUT);
}

static size_t con_write_room(struct tty *tty)
{
	(void)tty;
	if (con.out_broken || !con.out_polled ||
	    (host_fd_poll(con.out_fd) & (LINUX_POLLOUT | LINUX_POLLERR)))
		return OUT_CHUNK;
	if (!con.out_waiting) {
		con.out_waiting = true;
		host_evloop_watch_pause(con.out_fd, false);
	}
	return 0;
}

static void queue_eof(void)
{
	unsigned char veof = con.tty->termios.c_cc[LINUX_VEOF];

	if (!con.eof_pending || !tty_receive_room(con.tty))
		return;
	con.eof_pending = false;
	if (veof)
		tty_receive(con.tty, &veof, 1);
}

static void pump_file(void);

static void con_input_room(struct tty *tty)
{
	(void)tty;
	if (!con.in_done && con.in_polled)
		host_evloop_watch_pause(con.in_fd, false);
	else if (!con.in_done)
		pump_file();
	queue_eof();
}

static const struct tty_driver console_driver = {
	.name = "console",
	.write = con_write,
	.write_room = con_write_room,
	.input_room = con_input_room,
};

static void input_end(void)
{
	con.in_done = true;
	if (con.in_polled)
		host_evloop_unwatch(con.in_fd);
	if (con.host_tty) {
		tty_hangup(con.tty);
		return;
	}
	con.eof_pending = true;
	queue_eof();
}

static void in_ready(void *arg)
{
	char buf[TTY_BUF_SIZE];
	size_t room = tty_receive_room(con.tty);
	long n;

	(void)arg;
	if (!room) {
		host_evloop_watch_pause(con.in_fd, true);
		return;
	}
	if (!host_fd_readable(con.in_fd) && !(host_fd_poll(con.in_fd) & LINUX_POLLHUP))
		return;
	n = host_read(con.in_fd, buf, room < sizeof(buf) ? room : sizeof(buf));
	if (n == -EAGAIN || n == -EINTR)
		return;
	if (n <= 0) {
		input_end();
		return;
	}
	tty_receive(con.tty, buf, (size_t)n);
}

/* Input that cannot be polled (a regular file, /dev/null) never blocks:
 * it is read whenever the input queue has room. */
static void pump_file(void)
{
	char buf[TTY_BUF_SIZE];
	size_t room;

	while (!con.in_done && (room = tty_receive_room(con.tty)) > 0) {
		long n = host_read(con.in_fd, buf, room < sizeof(buf) ? room : sizeof(buf));

		if (n <= 0) {
			input_end();
			return;
		}
		tty_receive(con.tty, buf, (size_t)n);
	}
}

static void winch(void *arg)
{
	struct linux_winsize ws;

	(void)arg;
	if (host_term_winsize(con.in_fd, &ws) == 0)
		tty_set_winsize(con.tty, &ws);
}

/* The host fd the console writes to. */
static int pick_out_fd(void)
{
	if (host_fd_is_tty(1))
		return 1;
	if (host_fd_is_tty(2))
		return 2;
	if (host_fd_is_tty(0) && (host_fd_flags(0) & LINUX_O_ACCMODE) == LINUX_O_RDWR)
		return 0;
	return 1;
}

int console_init(bool all)
{
	struct linux_termios2 tio = tty_std_termios;
	int i, ret;

	if (con.tty)
		return 0;

	con.host_tty = host_fd_is_tty(0);
	if (con.host_tty && host_term_get(0, &tio) == 0)
		tty_termios_speeds(&tio);
	con.in_fd = host_dup_stdio(0);
	con.out_fd = host_dup_stdio(pick_out_fd());
	if (con.in_fd < 0 || con.out_fd < 0)
		return -EBADF;
	con.tty = tty_alloc(&console_driver, MKDEV(5, 1), 0, &tio);
	if (!con.tty)
		return -ENOMEM;
	for (i = 0; i < 3; i++)
		con.stdio[i] = all || host_fd_is_tty(i);
	if (con.host_tty) {
		host_term_winsize(con.in_fd, &con.tty->winsize);
		ret = host_term_make_raw(con.in_fd);
		if (ret < 0)
			return ret;
		host_term_on_winch(winch, NULL);
	}
	con.in_polled = host_evloop_watch(con.in_fd, false, in_ready, NULL) == 0;
	con.out_polled = host_evloop_watch(con.out_fd, true, out_ready, NULL) == 0 &&
			 host_evloop_watch_pause(con.out_fd, true) == 0;
	if (!con.in_polled)
		pump_file();
	return 0;
}

bool console_is_stdio(int fd)
{
	return con.tty && fd >= 0 && fd < 3 && con.stdio[fd];
}

int console_open(struct file *f)
{
	if (!con.tty)
		return -ENODEV;
	return tty_open_file(con.tty, f, true);
}

int console_stdio_file(struct task *t, struct file **out)
{
	struct file *f;
	int ret;

	if (!con.tty)
		return -ENODEV;
	if (con.stdio_file) {
		/* One open file for fds 0-2, as init's dup'ed console. */
		file_get(con.stdio_file);
		*out = con.stdio_file;
		return 0;
	}
	ret = vfs_openat(t, LINUX_AT_FDCWD, "/dev/console", LINUX_O_RDWR | LINUX_O_NOCTTY, 0, &f);
	if (ret < 0 || !file_is_tty(f)) {
		if (ret == 0)
			file_put(f);
		/* No /dev (a --rw root without it): a file with no path. */
		f = file_alloc(NULL, LINUX_O_RDWR, -1, NULL);
		if (!f)
			return -ENOMEM;
		ret = tty_open_file(con.tty, f, true);
		if (ret < 0) {
			f->ops = &path_file_ops;
			file_put(f);
			return ret;
		}
	}
	tty_set_ctty(con.tty, t->proc);
	con.stdio_file = f; /* the console keeps this reference */
	file_get(f);
	*out = f;
	return 0;
}
