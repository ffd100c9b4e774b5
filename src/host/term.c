/* host/term.c: the host's terminal while skas runs on it. It is raw (no
 * echo, no signals, no input or output processing: the guest's line
 * discipline does all that) and comes back as it was on every way out:
 * host_term_restore, exit (atexit), a fatal signal to skas (the handler
 * restores, then the signal goes on to its old action), and a stop
 * (SIGTSTP: restored while stopped, raw again after SIGCONT). SIGWINCH
 * arrives through a signalfd in the event loop. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <termios.h>
#include <unistd.h>

#include "host/host.h"
#include "abi/linux/ioctl.h"

static int term_fd = -1;
static struct termios saved, raw;
static volatile sig_atomic_t is_raw;
static struct sigaction old_actions[_NSIG];

/* SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1 and SIGUSR2 are not here: skas
 * passes them to the guest (host_init) and exits the normal way. */
static const int fatal_signals[] = {
	SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGALRM, SIGXCPU, SIGXFSZ, SIGSYS,
};

static void set_attr(const struct termios *t)
{
	while (tcsetattr(term_fd, TCSADRAIN, t) < 0 && errno == EINTR)
		;
}

void host_term_restore(void)
{
	int e = errno;

	if (is_raw) {
		is_raw = 0;
		set_attr(&saved);
	}
	errno = e;
}

static bool is_fault(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ||
	       sig == SIGTRAP || sig == SIGSYS;
}

/* Restores the terminal; the signal then takes its old action: a fault
 * happens again when the handler returns, anything else is raised again
 * (blocked until the handler returns). */
static void fatal_handler(int sig, siginfo_t *si, void *uc)
{
	int e = errno;

	(void)uc;
	host_term_restore();
	sigaction(sig, &old_actions[sig], NULL);
	if (!(is_fault(sig) && si->si_code > 0))
		raise(sig);
	errno = e;
}

static void tstp_handler(int sig)
{
	int e = errno;
	bool was_raw = is_raw;

	(void)sig;
	host_term_restore();
	raise(SIGSTOP);
	/* Continued: the terminal may have changed meanwhile. */
	if (was_raw && tcgetattr(term_fd, &saved) == 0) {
		set_attr(&raw);
		is_raw = 1;
	}
	errno = e;
}

static void install_handlers(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fatal_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++) {
		int sig = fatal_signals[i];

		if (sigaction(sig, NULL, &old_actions[sig]) < 0 ||
		    old_actions[sig].sa_handler == SIG_IGN)
			continue;
		sigaction(sig, &sa, NULL);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tstp_handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGTSTP, NULL, &old_actions[SIGTSTP]) == 0 &&
	    old_actions[SIGTSTP].sa_handler != SIG_IGN)
		sigaction(SIGTSTP, &sa, NULL);
}

int host_term_make_raw(int fd)
{
	if (tcgetattr(fd, &saved) < 0)
		return -errno;
	term_fd = fd;
	raw = saved;
	raw.c_iflag &= ~(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON | IXOFF);
	raw.c_oflag &= ~OPOST;
	raw.c_lflag &= ~(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
	raw.c_cflag &= ~(CSIZE | PARENB);
	raw.c_cflag |= CS8;
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	install_handlers();
	atexit(host_term_restore);
	is_raw = 1;
	if (tcsetattr(fd, TCSADRAIN, &raw) < 0) {
		is_raw = 0;
		return -errno;
	}
	return 0;
}

int host_fd_wait_writable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	int n;

	while ((n = poll(&p, 1, timeout_ms)) < 0 && errno == EINTR)
		;
	return n < 0 ? -errno : n;
}

bool host_term_is_foreground(int fd)
{
	pid_t pgrp = tcgetpgrp(fd);

	return pgrp > 0 && pgrp == getpgrp();
}

int host_term_get(int fd, struct linux_termios2 *tio)
{
	memset(tio, 0, sizeof(*tio));
	if (ioctl(fd, LINUX_TCGETS, tio) < 0)
		return -errno;
	return 0;
}

int host_term_winsize(int fd, struct linux_winsize *ws)
{
	if (ioctl(fd, LINUX_TIOCGWINSZ, ws) < 0)
		return -errno;
	return 0;
}

struct winch_watch {
	int fd;
	void (*fn)(void *arg);
	void *arg;
};

static struct winch_watch winch;

static void winch_ready(void *arg)
{
	struct signalfd_siginfo si[4];

	(void)arg;
	while (read(winch.fd, si, sizeof(si)) > 0)
		;
	winch.fn(winch.arg);
}

int host_term_on_winch(void (*fn)(void *arg), void *arg)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGWINCH);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -errno;
	winch.fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (winch.fd < 0)
		return -errno;
	winch.fn = fn;
	winch.arg = arg;
	return host_evloop_watch(winch.fd, false, winch_ready, NULL);
}
