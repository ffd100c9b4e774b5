/* tty/tty.h: terminals. A struct tty is one terminal device: its termios,
 * window size, foreground process group and session, and its line
 * discipline (n_tty.c) between a driver and the files that read and write
 * it. Drivers: the console bridged to the host terminal (console.c) and
 * pseudo-terminal pairs (pty.c). tty.c holds the file operations, the
 * ioctls, controlling terminals and job control. */
#ifndef TTY_TTY_H
#define TTY_TTY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/list.h"
#include "kernel/sched.h"
#include "abi/linux/ioctl.h"

struct tty;
struct file;
struct process;
struct task;

#define TTY_BUF_SIZE  4096
#define CAP_SYS_ADMIN 21

struct tty_driver {
	const char *name;
	/* Takes up to n bytes of output; returns how many it took (0: no
	 * room now; the writer waits on tty->write_wait). Never sleeps. */
	long (*write)(struct tty *tty, const void *buf, size_t n);
	/* How many bytes write would take now. */
	size_t (*write_room)(struct tty *tty);
	/* The input queue has room again after being full. */
	void (*input_room)(struct tty *tty);
	/* Driver ioctls (pty master: TIOCGPTN...); -ENOIOCTLCMD if not one. */
	long (*ioctl)(struct tty *tty, struct file *f, struct task *t, unsigned cmd, uint64_t arg);
	/* A file of this tty is opened (after the first: count > 1) or closed. */
	int (*open)(struct tty *tty, struct file *f);
	void (*close)(struct tty *tty, struct file *f);
	/* The last reference is going: free driver data. */
	void (*destroy)(struct tty *tty);
	bool is_pty_master;
	bool is_pty;
};

/* The line discipline's state (n_tty.c). Positions count up forever and
 * are taken modulo TTY_BUF_SIZE. */
struct n_tty {
	unsigned char buf[TTY_BUF_SIZE];
	unsigned char flags[TTY_BUF_SIZE]; /* NTTY_EOL, NTTY_EOF per position */
	size_t head, tail;		   /* bytes at [tail, head) */
	size_t canon_head;		   /* canonical mode: end of the last whole line */
	unsigned column, canon_column;	   /* output column, and where the line began */
	bool lnext, erasing;
	/* Echoes of the input being processed, written when it is done (a
	 * signal character without NOFLSH discards them, as Linux's). */
	unsigned char echo[512];
	size_t echo_len;
	/* Bytes from the driver not yet through the line discipline: a pty
	 * writer's data, the host terminal's keys. */
	unsigned char in[TTY_BUF_SIZE];
	size_t in_head, in_len;
	bool processing; /* n_tty_process is running: a nested call queues only */
};

struct tty {
	struct list_head node; /* on the list of every tty */
	int refcount;	       /* files, the pty peer, the console */
	const struct tty_driver *driver;
	uint64_t rdev; /* its device number */
	int index;     /* pty number */
	int count;     /* open files */
	struct linux_termios2 termios;
	/* TIOCSLCKTRMIOS: bits and characters a termios change keeps */
	struct linux_termios termios_locked;
	struct linux_winsize winsize;
	int session, pgrp;   /* controlling terminal of session; foreground group; 0: none */
	struct tty *link;    /* the other end of a pty pair */
	unsigned hangup_gen; /* files opened before a hangup are hung up */
	bool other_closed;   /* pty: the other end's files are all closed */
	bool stopped;	     /* output stopped (^S) */
	bool tco_stopped;    /* output stopped by TCXONC */
	bool locked;	     /* pty slave: may not be opened (TIOCSPTLCK) */
	bool exclusive;	     /* TIOCEXCL */
	bool packet;	     /* pty master: TIOCPKT */
	unsigned char pkt_status;
	struct waitq read_wait, write_wait;
	struct n_tty ld;
	void *driver_data;
};

/* A file open on a tty: f->priv. */
struct tty_file {
	struct tty *tty;
	unsigned gen; /* tty->hangup_gen when opened */
};

/* tty.c */
/* A new tty with one reference, default termios, on the list of ttys. */
struct tty *tty_alloc(const struct tty_driver *drv, uint64_t rdev, int index,
		      const struct linux_termios2 *init);
void tty_get(struct tty *tty);
void tty_put(struct tty *tty);
/* Makes f a file of tty (f->ops, f->priv; takes a reference) and runs the
 * open rules: exclusive mode, the driver's open, and the controlling
 * terminal for a session leader without one (unless noctty). */
int tty_open_file(struct tty *tty, struct file *f, bool noctty);
/* The controlling terminal of process p, or NULL. */
struct tty *tty_ctty(const struct process *p);
/* For /proc/PID/stat: the controlling terminal's number (0: none) and its
 * foreground group (-1: none). */
int tty_proc_nr(const struct process *p);
int tty_proc_tpgid(const struct process *p);
/* Makes tty the controlling terminal of p's session, p its foreground. */
void tty_set_ctty(struct tty *tty, struct process *p);
/* Hangup: files opened until now read EOF and fail to write; the session
 * leader and the foreground group get SIGHUP and SIGCONT; the tty is no
 * longer anybody's controlling terminal. */
void tty_hangup(struct tty *tty);
/* The session leader p is exiting: its terminal's foreground group gets
 * SIGHUP and the session loses it. */
void tty_session_leader_exit(struct process *p);
/* A new window size: SIGWINCH to the foreground group if it changed. */
void tty_set_winsize(struct tty *tty, const struct linux_winsize *ws);
/* sig to every process of group pgrp, from the kernel. */
void tty_signal_pgrp(int pgrp, int sig);
/* Is the tty hung up for this file? */
bool tty_file_hung_up(const struct tty_file *tf);
/* Job control for the current task on tty: 0 if it may go on (the tty is
 * not its controlling terminal, or it is in the foreground group); else
 * sig to its group and -ERESTARTSYS, or -EIO (SIGTTIN ignored or blocked,
 * or an orphaned group). An ignored or blocked SIGTTOU lets it go on. */
int tty_check_change(struct tty *tty, int sig);
bool file_is_tty(const struct file *f);
/* The terminal ioctls (tty_ioctl.c); the speed fields from c_cflag. */
void tty_termios_speeds(struct linux_termios2 *tio);
long tty_ioctl(struct tty *tty, struct file *f, struct task *t, unsigned cmd, uint64_t arg);
extern const struct linux_termios2 tty_std_termios;

/* n_tty.c: the line discipline. */
/* Queues n bytes of driver input (returns how many fit) and runs them
 * through the line discipline: echo, signals, the read buffer. */
size_t tty_receive(struct tty *tty, const void *buf, size_t n);
/* Room in the input queue. */
size_t tty_receive_room(struct tty *tty);
/* Runs queued input through the line discipline as room allows. */
void n_tty_process(struct tty *tty);
long n_tty_read(struct tty *tty, struct file *f, void *buf, size_t n);
long n_tty_write(struct tty *tty, struct file *f, const void *buf, size_t n);
unsigned n_tty_poll_mask(struct tty *tty, struct file *f);
/* The termios changed (old: what it was): canonical mode on or off. */
void n_tty_set_termios(struct tty *tty, const struct linux_termios2 *old);
void n_tty_flush_input(struct tty *tty);
/* FIONREAD: bytes a read would see. */
int n_tty_inq(struct tty *tty);
/* Output stop/start (^S/^Q, TCXONC). */
void tty_stop(struct tty *tty);
void tty_start(struct tty *tty);
/* Writes one character to the driver (TCIOFF/TCION), bypassing stops. */
void tty_send_char(struct tty *tty, unsigned char c);

#endif
