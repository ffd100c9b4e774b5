/* Pseudo-terminals and the line discipline: openpty and posix_openpt +
 * grantpt + unlockpt + ptsname, the slave's default settings, canonical
 * lines with echo and editing (ERASE, KILL, WERASE, VEOF), raw reads with
 * VMIN/VTIME, ICRNL and OPOST, signal characters to the foreground group of
 * a child that made the slave its controlling terminal, window size and
 * SIGWINCH, job control (SIGTTIN, SIGTTOU with TOSTOP, EIO when ignored),
 * FIONREAD and TCFLSH, TIOCSTI, and hangup when the master closes.
 *
 * Under skas this program is pid 1 and a session leader: every terminal is
 * opened with O_NOCTTY here, and controlling terminals belong to forked
 * children (setsid + TIOCSCTTY), which report through pipes and their exit
 * status and never print. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "tap.h"

static void checkf(int cond, const char *what, long a, long b)
{
	if (cond)
		printf("ok %d - %s\n", ++n, what);
	else
		printf("not ok %d - %s: %ld %ld\n", ++n, what, a, b);
}

/* Reads until want bytes came or nothing more comes within ms. */
static int read_some(int fd, char *buf, int want, int ms)
{
	int got = 0;

	while (got < want) {
		struct pollfd p = { fd, POLLIN, 0 };
		int r;

		if (poll(&p, 1, ms) <= 0 || !(p.revents & POLLIN))
			break;
		r = read(fd, buf + got, want - got);
		if (r <= 0)
			break;
		got += r;
	}
	buf[got] = 0;
	return got;
}

/* Drains what the master has to read (echoes) for ms. */
static void drain(int m, int ms)
{
	char buf[256];

	while (read_some(m, buf, sizeof(buf) - 1, ms) > 0)
		;
}

static void check_bytes(const char *what, const char *got, int n_got, const char *want)
{
	int ok = n_got == (int)strlen(want) && memcmp(got, want, n_got) == 0;

	if (ok) {
		check(1, what);
		return;
	}
	printf("not ok %d - %s: got %d [", ++n, what, n_got);
	for (int i = 0; i < n_got; i++)
		printf(got[i] >= 32 && got[i] < 127 ? "%c" : "\\x%02x", (unsigned char)got[i]);
	printf("]\n");
}

static void pair(int *m, int *s)
{
	if (openpty(m, s, NULL, NULL, NULL) < 0) {
		printf("not ok - openpty: %s\n", strerror(errno));
		exit(1);
	}
}

static void set_lflag(int s, tcflag_t on, tcflag_t off, int vmin, int vtime)
{
	struct termios t;

	tcgetattr(s, &t);
	t.c_lflag = (t.c_lflag | on) & ~off;
	if (vmin >= 0) {
		t.c_cc[VMIN] = vmin;
		t.c_cc[VTIME] = vtime;
	}
	tcsetattr(s, TCSANOW, &t);
}

/* a later than b */
static int later(struct timespec a, struct timespec b)
{
	return a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec > b.tv_nsec);
}

/* the clock Linux stamps a devpts node with */
static struct timespec now_coarse(void)
{
	struct timespec t = { 0, 0 };

	clock_gettime(CLOCK_REALTIME_COARSE, &t);
	return t;
}

/* The pty node at path made at born is gone: no such name, or the name is
 * another pty's, made later. */
static int pts_gone(const char *path, struct timespec born)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return errno == ENOENT;
	return later(st.st_ctim, born);
}

static void test_open(void)
{
	char name[64], *pn;
	int m, s, ptn = -1, m2, s2;
	struct stat st;
	struct timespec born;

	pair(&m, &s);
	check(ttyname_r(s, name, sizeof(name)) == 0 && strncmp(name, "/dev/pts/", 9) == 0,
	      "openpty: the slave is /dev/pts/N");
	check(ioctl(m, TIOCGPTN, &ptn) == 0 && atoi(name + 9) == ptn, "TIOCGPTN gives N");
	check(isatty(m) && isatty(s), "both ends are terminals");
	check(ioctl(s, TIOCGPTN, &ptn) < 0 && errno == ENOTTY, "TIOCGPTN on the slave: ENOTTY");
	check(fstat(s, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) >= 136 &&
		      major(st.st_rdev) < 144,
	      "the slave is a character device of major 136..143");
	check(stat("/dev/ptmx", &st) == 0 && st.st_rdev == makedev(5, 2), "/dev/ptmx is 5,2");

	m2 = posix_openpt(O_RDWR | O_NOCTTY);
	check(m2 >= 0, "posix_openpt");
	pn = ptsname(m2);
	check(pn && strncmp(pn, "/dev/pts/", 9) == 0, "ptsname");
	s2 = open(pn, O_RDWR | O_NOCTTY);
	check(s2 < 0 && errno == EIO, "the slave is locked before unlockpt: EIO");
	check(grantpt(m2) == 0, "grantpt");
	check(unlockpt(m2) == 0, "unlockpt");
	s2 = open(pn, O_RDWR | O_NOCTTY);
	check(s2 >= 0, "the slave opens after unlockpt");
	check(access(pn, F_OK) == 0, "/dev/pts/N exists while the master is open");
	/* Natively N is free again once the master is gone, and any process
	 * on the host may take it at once (a tmux pane of the scenarios, say)
	 * and keep it. A node made after ours has a later
	 * ctime once the clock that stamps it has passed ours. */
	fstat(s2, &st);
	born = st.st_ctim;
	for (int i = 0; i < 1000 && !later(now_coarse(), born); i++)
		usleep(1000);
	close(s2);
	close(m2);
	/* Linux releases a tty from a workqueue: the node may outlive the
	 * close by a moment on a busy machine. */
	for (int i = 0; i < 200 && !pts_gone(pn, born); i++)
		usleep(5000);
	check(pts_gone(pn, born), "/dev/pts/N goes with the master");
	close(s);
	close(m);
}

static void test_defaults(void)
{
	struct termios t, tm;
	int m, s;

	pair(&m, &s);
	memset(&t, 0, sizeof(t));
	memset(&tm, 0, sizeof(tm));
	tcgetattr(s, &t);
	tcgetattr(m, &tm);
	printf("# iflag %o oflag %o lflag %o cflag-csize %o\n",
	       t.c_iflag & (ICRNL | IXON | INLCR | IGNCR | ISTRIP | IXOFF),
	       t.c_oflag & (OPOST | ONLCR | OCRNL),
	       t.c_lflag & (ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHONL | ECHOCTL | ECHOKE |
			    IEXTEN | TOSTOP | NOFLSH),
	       t.c_cflag & CSIZE);
	printf("# cc intr %d quit %d erase %d kill %d eof %d min %d time %d susp %d werase %d\n",
	       t.c_cc[VINTR], t.c_cc[VQUIT], t.c_cc[VERASE], t.c_cc[VKILL], t.c_cc[VEOF],
	       t.c_cc[VMIN], t.c_cc[VTIME], t.c_cc[VSUSP], t.c_cc[VWERASE]);
	check(cfgetospeed(&t) == B38400, "38400 baud");
	check(memcmp(&t, &tm, sizeof(t)) == 0, "tcgetattr on the master gives the slave's");
	close(s);
	close(m);
}

static void test_canon(void)
{
	char buf[256];
	int m, s, r, nread = -1;

	pair(&m, &s);
	write(m, "hello\n", 6);
	r = read(s, buf, sizeof(buf));
	check_bytes("a canonical line", buf, r, "hello\n");
	r = read_some(m, buf, 7, 2000);
	check_bytes("its echo on the master (ONLCR)", buf, r, "hello\r\n");

	write(m, "abc\177d\n", 6);
	r = read(s, buf, sizeof(buf));
	check_bytes("ERASE", buf, r, "abd\n");
	r = read_some(m, buf, 9, 2000);
	check_bytes("ERASE's echo (ECHOE)", buf, r, "abc\b \bd\r\n");

	write(m, "xyz\025ok\n", 7);
	r = read(s, buf, sizeof(buf));
	check_bytes("KILL", buf, r, "ok\n");
	r = read_some(m, buf, 16, 2000);
	check_bytes("KILL's echo (ECHOKE)", buf, r, "xyz\b \b\b \b\b \bok\r\n");

	write(m, "foo bar\027baz\n", 12);
	r = read(s, buf, sizeof(buf));
	check_bytes("WERASE", buf, r, "foo baz\n");
	drain(m, 200);

	write(m, "two\nlines\n", 10);
	r = read(s, buf, sizeof(buf));
	check_bytes("one line per read", buf, r, "two\n");
	r = read(s, buf, 3);
	check_bytes("a line in parts", buf, r, "lin");
	r = read(s, buf, sizeof(buf));
	check_bytes("the rest of the line", buf, r, "es\n");

	write(m, "ab\004", 3);
	r = read(s, buf, sizeof(buf));
	check_bytes("VEOF after text pushes it", buf, r, "ab");
	write(m, "\004", 1);
	r = read(s, buf, sizeof(buf));
	checkf(r == 0, "VEOF on an empty line: end of file", r, 0);
	drain(m, 200);

	write(m, "cr\r", 3);
	r = read(s, buf, sizeof(buf));
	check_bytes("ICRNL", buf, r, "cr\n");
	drain(m, 200);

	write(m, "x\003y\n", 4);
	r = read(s, buf, sizeof(buf));
	check_bytes("^C without a foreground group flushes the line", buf, r, "y\n");
	r = read_some(m, buf, 5, 2000);
	check_bytes("^C echoes as ^C (ECHOCTL), the line's echo gone", buf, r, "^Cy\r\n");

	write(m, "pending\n", 8);
	{
		struct pollfd p = { s, POLLIN, 0 };

		poll(&p, 1, 2000);
	}
	check(ioctl(s, FIONREAD, &nread) == 0 && nread == 8, "FIONREAD");
	check(tcflush(s, TCIFLUSH) == 0 && ioctl(s, FIONREAD, &nread) == 0 && nread == 0,
	      "TCFLSH discards input");
	close(s);
	close(m);
}

/* read(fd) into *r; returns the milliseconds it took */
static long timed_read(int fd, char *buf, size_t len, int *r)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	*r = read(fd, buf, len);
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
}

static void test_raw(void)
{
	char buf[64];
	int m, s, r;
	long ms;

	pair(&m, &s);
	set_lflag(s, 0, ICANON | ECHO, 2, 0);
	write(m, "xy", 2);
	r = read(s, buf, sizeof(buf));
	check_bytes("ICANON off, VMIN=2: the bytes as they come", buf, r, "xy");
	write(m, "\177\025", 2);
	r = read(s, buf, sizeof(buf));
	check_bytes("no editing without ICANON", buf, r, "\177\025");
	r = read_some(m, buf, 10, 100);
	checkf(r == 0, "no echo without ECHO", r, 0);

	set_lflag(s, 0, 0, 0, 0);
	r = read(s, buf, sizeof(buf));
	checkf(r == 0, "VMIN=0 VTIME=0 with nothing: 0 at once", r, 0);
	/* A timer can never end early, but a loaded machine can leave the
	 * reader off the CPU past it (natively 1.8 s once, beside other
	 * suites): a slow read is tried again, up to 3 times in all; a VTIME
	 * that is always late still fails. */
	set_lflag(s, 0, 0, 0, 2);
	for (int i = 0; i < 3; i++) {
		ms = timed_read(s, buf, sizeof(buf), &r);
		if (r != 0 || ms < 1500)
			break;
	}
	checkf(r == 0 && ms >= 150 && ms < 1500, "VMIN=0 VTIME=2: 0 after 0.2 s", r, ms);

	set_lflag(s, 0, 0, 5, 2);
	for (int i = 0; i < 3; i++) {
		write(m, "ab", 2);
		ms = timed_read(s, buf, sizeof(buf), &r);
		if (r != 2 || ms < 1500)
			break;
	}
	checkf(r == 2 && ms >= 100 && ms < 1500, "VMIN=5 VTIME=2: what came, 0.2 s after", r, ms);

	set_lflag(s, 0, 0, 1, 0);
	{
		struct termios t;

		tcgetattr(s, &t);
		t.c_oflag &= ~OPOST;
		tcsetattr(s, TCSANOW, &t);
	}
	write(s, "o\n", 2);
	r = read_some(m, buf, 2, 2000);
	check_bytes("OPOST off: output as written", buf, r, "o\n");
	set_lflag(s, ICANON, 0, -1, 0);
	write(m, "q\n", 2);
	r = read(s, buf, sizeof(buf));
	check_bytes("ICANON back on", buf, r, "q\n");
	close(s);
	close(m);
}

static int sig_pipe = -1;

static void on_sig(int sig)
{
	char c = (char)sig;

	write(sig_pipe, &c, 1);
}

/* A child: a new session with the slave as controlling terminal, handlers
 * that tell the parent each signal; it says 'r' when ready and waits. */
static pid_t session_child(int m, int s, int *from_child)
{
	int p[2];
	pid_t pid;

	pipe(p);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		close(m);
		sig_pipe = p[1];
		signal(SIGINT, on_sig);
		signal(SIGQUIT, on_sig);
		signal(SIGTSTP, on_sig);
		signal(SIGWINCH, on_sig);
		signal(SIGHUP, on_sig);
		if (setsid() < 0 || ioctl(s, TIOCSCTTY, 0) < 0)
			_exit(1);
		write(p[1], "r", 1);
		for (;;)
			pause();
	}
	close(p[1]);
	*from_child = p[0];
	return pid;
}

static char next_signal(int fd)
{
	char c = 0;

	return read_some(fd, &c, 1, 3000) == 1 ? c : 0;
}

static void test_signals(void)
{
	int m, s, from, pgrp = -1, sid = -1;
	struct winsize ws = { 24, 80, 0, 0 }, got;
	pid_t pid;
	char buf[64];
	int r;

	pair(&m, &s);
	pid = session_child(m, s, &from);
	check(next_signal(from) == 'r', "a child makes the slave its controlling terminal");
	check(ioctl(m, TIOCGPGRP, &pgrp) == 0 && pgrp == pid, "TIOCGPGRP on the master");
	check(ioctl(m, TIOCGSID, &sid) == 0 && sid == pid, "TIOCGSID on the master");
	check(ioctl(s, TIOCGPGRP, &pgrp) < 0 && errno == ENOTTY,
	      "TIOCGPGRP on a slave that is not ours: ENOTTY");
	write(m, "\003", 1);
	checkf(next_signal(from) == SIGINT, "VINTR on the master: SIGINT to the foreground", 0, 0);
	r = read_some(m, buf, 2, 2000);
	check_bytes("VINTR's echo", buf, r, "^C");
	write(m, "\034", 1);
	check(next_signal(from) == SIGQUIT, "VQUIT: SIGQUIT");
	write(m, "\032", 1);
	check(next_signal(from) == SIGTSTP, "VSUSP: SIGTSTP");
	drain(m, 100);
	{
		struct termios t;

		tcgetattr(s, &t);
		t.c_lflag &= ~ISIG;
		tcsetattr(s, TCSANOW, &t);
		write(m, "\003\n", 2);
		r = read(s, buf, sizeof(buf));
		check_bytes("without ISIG ^C is a character", buf, r, "\003\n");
		t.c_lflag |= ISIG;
		tcsetattr(s, TCSANOW, &t);
	}
	check(ioctl(m, TIOCSWINSZ, &ws) == 0, "TIOCSWINSZ on the master");
	check(next_signal(from) == SIGWINCH, "SIGWINCH to the foreground group");
	check(ioctl(s, TIOCGWINSZ, &got) == 0 && got.ws_row == 24 && got.ws_col == 80,
	      "TIOCGWINSZ on the slave");
	ioctl(s, TIOCSWINSZ, &ws);
	check(read_some(from, buf, 1, 300) == 0, "the same size again: no SIGWINCH");
	{
		char c = 'q';

		r = ioctl(s, TIOCSTI, &c);
		printf("# TIOCSTI: %s\n", r == 0 ? "0" : strerror(errno));
	}
	close(m);
	check(next_signal(from) == SIGHUP, "closing the master: SIGHUP to the session leader");
	r = read(s, buf, sizeof(buf));
	checkf(r == 0, "the slave reads end of file after hangup", r, 0);
	r = write(s, "x", 1);
	checkf(r < 0 && errno == EIO, "the slave's writes fail with EIO", r, errno);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(from);
	close(s);
}

/* A background process group of a session with a controlling terminal. */
static int bg_child(int s, int what)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		pid_t gc;
		char c;

		if (setsid() < 0 || ioctl(s, TIOCSCTTY, 0) < 0)
			_exit(100);
		gc = fork();
		if (gc == 0) {
			struct termios t;

			setpgid(0, 0);
			switch (what) {
			case 0:
				read(s, &c, 1);
				_exit(0);
			case 1:
				signal(SIGTTIN, SIG_IGN);
				_exit(read(s, &c, 1) < 0 && errno == EIO ? 7 : 8);
			case 2:
				_exit(write(s, "w", 1) == 1 ? 7 : 8);
			case 3:
				tcgetattr(s, &t);
				t.c_lflag |= TOSTOP;
				tcsetattr(s, TCSANOW, &t);
				_exit(9); /* not reached: stopped */
			case 4:
				signal(SIGTTOU, SIG_IGN);
				tcgetattr(s, &t);
				_exit(tcsetattr(s, TCSANOW, &t) == 0 ? 7 : 8);
			}
			_exit(10);
		}
		setpgid(gc, gc);
		if (waitpid(gc, &st, WUNTRACED) != gc)
			_exit(101);
		kill(gc, SIGKILL);
		if (WIFSTOPPED(st))
			_exit(WSTOPSIG(st) == SIGTTIN ? 1 : WSTOPSIG(st) == SIGTTOU ? 2 : 3);
		if (WIFEXITED(st))
			_exit(WEXITSTATUS(st));
		_exit(102);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_job_control(void)
{
	int m, s, r;

	pair(&m, &s);
	r = bg_child(s, 0);
	checkf(r == 1, "a background read stops with SIGTTIN", r, 1);
	r = bg_child(s, 1);
	checkf(r == 7, "with SIGTTIN ignored: EIO", r, 7);
	r = bg_child(s, 2);
	checkf(r == 7, "a background write without TOSTOP goes through", r, 7);
	r = bg_child(s, 3);
	checkf(r == 2, "a background tcsetattr stops with SIGTTOU", r, 2);
	r = bg_child(s, 4);
	checkf(r == 7, "with SIGTTOU ignored it goes through", r, 7);
	{
		struct termios t;

		tcgetattr(s, &t);
		t.c_lflag |= TOSTOP;
		tcsetattr(s, TCSANOW, &t);
	}
	r = bg_child(s, 2);
	checkf(r == 2, "a background write with TOSTOP stops with SIGTTOU", r, 2);
	close(s);
	close(m);
}

/* The kernel's termios2 (TCGETS2/TCSETS2): any speed with BOTHER. */
struct k_termios2 {
	unsigned c_iflag, c_oflag, c_cflag, c_lflag;
	unsigned char c_line, c_cc[19];
	unsigned c_ispeed, c_ospeed;
};
#define K_TCGETS2 _IOR('T', 0x2A, struct k_termios2)
#define K_TCSETS2 _IOW('T', 0x2B, struct k_termios2)
#define K_CBAUD	  0010017
#define K_BOTHER  0010000

static void test_termios2(void)
{
	struct k_termios2 t2;
	struct termios t;
	int m, s;

	pair(&m, &s);
	check(ioctl(s, K_TCGETS2, &t2) == 0 && t2.c_ispeed == 38400 && t2.c_ospeed == 38400,
	      "TCGETS2: 38400 both ways");
	t2.c_cflag = (t2.c_cflag & ~K_CBAUD) | K_BOTHER;
	t2.c_ispeed = t2.c_ospeed = 12345;
	check(ioctl(s, K_TCSETS2, &t2) == 0, "TCSETS2 with BOTHER");
	memset(&t2, 0, sizeof(t2));
	check(ioctl(m, K_TCGETS2, &t2) == 0 && t2.c_ospeed == 12345 && t2.c_ispeed == 12345 &&
		      (t2.c_cflag & K_CBAUD) == K_BOTHER,
	      "the speed stays (and the master sees it)");
	tcgetattr(s, &t);
	cfsetspeed(&t, B9600);
	tcsetattr(s, TCSANOW, &t);
	check(ioctl(s, K_TCGETS2, &t2) == 0 && t2.c_ospeed == 9600 && t2.c_ispeed == 9600,
	      "TCSETS with B9600: the speed fields follow");
	close(s);
	close(m);
}

/* Packet mode on the master: a 0 before data, a status byte alone. */
static void test_packet(void)
{
	char buf[16];
	int m, s, on = 1, r;

	pair(&m, &s);
	check(ioctl(m, TIOCPKT, &on) == 0, "TIOCPKT");
	write(s, "x", 1);
	r = read_some(m, buf, 2, 2000);
	checkf(r == 2 && buf[0] == TIOCPKT_DATA && buf[1] == 'x',
	       "data comes after a TIOCPKT_DATA byte", r, buf[0]);
	tcflush(s, TCIFLUSH);
	r = read_some(m, buf, 1, 2000);
	checkf(r == 1 && buf[0] == TIOCPKT_FLUSHREAD, "a flush comes as TIOCPKT_FLUSHREAD", r,
	       buf[0]);
	close(s);
	close(m);
}

/* Much output through a slow reader: the writer waits for room, ONLCR's
 * newlines and all. */
static void test_bulk(void)
{
	static char buf[65536];
	long total = 0, want = 20000 * 9;
	int m, s, r, st;
	pid_t pid;

	pair(&m, &s);
	pid = fork();
	if (pid == 0) {
		close(m);
		for (int i = 0; i < 20000; i++)
			if (write(s, "abcdefg\n", 8) != 8)
				_exit(1);
		_exit(0);
	}
	close(s);
	while (total < want && (r = read_some(m, buf, (int)sizeof(buf) - 1, 5000)) > 0)
		total += r;
	waitpid(pid, &st, 0);
	checkf(total == want && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "160000 bytes through OPOST to the master", total, want);
	close(m);
}

/* Output flow control: ^S and ^Q from the master, and tcflow. */
static int wait_pollout(int fd, int want)
{
	for (int i = 0; i < 300; i++) {
		struct pollfd p = { fd, POLLOUT, 0 };

		poll(&p, 1, 0);
		if (!!(p.revents & POLLOUT) == want)
			return 1;
		usleep(10000);
	}
	return 0;
}

static void test_flow(void)
{
	char buf[16];
	int m, s, r;

	pair(&m, &s);
	fcntl(s, F_SETFL, O_NONBLOCK);
	write(m, "\023", 1);
	check(wait_pollout(s, 0), "^S: the slave does not poll writable");
	r = write(s, "z", 1);
	checkf(r < 0 && errno == EAGAIN, "^S stops output (EAGAIN)", r, errno);
	write(m, "\021", 1);
	check(wait_pollout(s, 1), "^Q: writable again");
	r = write(s, "z", 1);
	checkf(r == 1, "^Q starts output", r, 1);
	r = read_some(m, buf, 1, 2000);
	check_bytes("the output arrives", buf, r, "z");
	check(tcflow(s, TCOOFF) == 0 && wait_pollout(s, 0), "tcflow TCOOFF");
	write(m, "\021", 1);
	usleep(100000);
	r = write(s, "z", 1);
	checkf(r < 0 && errno == EAGAIN, "^Q does not undo TCOOFF", r, errno);
	check(tcflow(s, TCOON) == 0 && wait_pollout(s, 1), "tcflow TCOON");
	close(s);
	close(m);
}

static volatile sig_atomic_t got_hup;

static void on_hup(int sig)
{
	(void)sig;
	got_hup = 1;
}

/* The controlling terminal: a session leader's first terminal opened
 * without O_NOCTTY, /dev/tty, TIOCNOTTY, and setsid leaving it behind. */
static void test_ctty(void)
{
	int m, s, st;
	char name[64];
	pid_t pid;

	pair(&m, &s);
	ttyname_r(s, name, sizeof(name));
	pid = fork();
	if (pid == 0) {
		int bad = 0, fd, pg = -1;
		pid_t gc;

		setsid();
		if (open("/dev/tty", O_RDWR) >= 0 || errno != ENXIO)
			bad |= 1;
		fd = open(name, O_RDWR | O_NOCTTY);
		if (fd < 0 || ioctl(fd, TIOCGPGRP, &pg) == 0)
			bad |= 2; /* O_NOCTTY: not ours */
		close(fd);
		fd = open(name, O_RDWR);
		if (fd < 0 || ioctl(fd, TIOCGPGRP, &pg) < 0 || pg != getpid())
			bad |= 4; /* the first terminal it opens */
		if (open("/dev/tty", O_RDWR) < 0)
			bad |= 8;
		gc = fork();
		if (gc == 0) {
			int r = open("/dev/tty", O_RDWR) >= 0;

			setsid();
			r |= (open("/dev/tty", O_RDWR) < 0 && errno == ENXIO) << 1;
			_exit(r == 3 ? 0 : 1);
		}
		waitpid(gc, &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			bad |= 16;
		got_hup = 0;
		signal(SIGHUP, on_hup); /* the leader's own group is the foreground */
		if (ioctl(fd, TIOCNOTTY) < 0)
			bad |= 32;
		if (!got_hup)
			bad |= 128;
		if (open("/dev/tty", O_RDWR) >= 0 || errno != ENXIO)
			bad |= 64;
		_exit(bad);
	}
	waitpid(pid, &st, 0);
	checkf(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "the controlling terminal: first open, /dev/tty, setsid, TIOCNOTTY", st, 0);
	close(s);
	close(m);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_open();
	test_defaults();
	test_canon();
	test_raw();
	test_signals();
	test_job_control();
	test_termios2();
	test_packet();
	test_bulk();
	test_flow();
	test_ctty();
	return 0;
}
