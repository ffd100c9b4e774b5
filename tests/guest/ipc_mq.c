/* POSIX message queues: mq_open's name, flag and attribute rules,
 * priority order, EMSGSIZE, O_NONBLOCK and mq_setattr, absolute timeouts
 * (past, short), EBADF by access mode, descriptors (close-on-exec, dup,
 * fork, poll, epoll, read of the status line), waiting receivers and
 * senders woken, a signal interrupting a wait with and without SA_RESTART,
 * mq_notify (SIGEV_SIGNAL, SIGEV_NONE, EBUSY, once per registration) and
 * mq_unlink. Every queue made here is unlinked. Children report through
 * their exit status. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* An absolute CLOCK_REALTIME time ms from now. */
static struct timespec in_ms(long ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += (ms % 1000) * 1000000L;
	ts.tv_sec += ms / 1000 + ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	return ts;
}

static int child_exit(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int exited(pid_t pid)
{
	int st;

	return waitpid(pid, &st, WNOHANG) == pid;
}

static char names[8][64];
static int base_pid; /* the parent's: children name the same queues */

static const char *qname(int i)
{
	snprintf(names[i], sizeof(names[i]), "/skas-mq-%d-%d", base_pid, i);
	return names[i];
}

/* The kernel's call, without the libc's own name checks. */
static long raw_open(const char *name, int flags, int mode, struct mq_attr *attr)
{
	return syscall(SYS_mq_open, name, flags, mode, attr);
}

static mqd_t open_q(int i, int flags, long maxmsg, long msgsize)
{
	struct mq_attr attr = { 0, maxmsg, msgsize, 0 };

	return mq_open(qname(i), flags | O_CREAT | O_EXCL, 0600, &attr);
}

static void test_open(void)
{
	char longname[300];
	struct mq_attr attr;
	mqd_t q;

	check_err(raw_open("", O_RDWR | O_CREAT, 0600, NULL), ENOENT, "an empty name");
	check_err(raw_open("a/b", O_RDWR | O_CREAT, 0600, NULL), EACCES, "a name with a slash");
	check_err(raw_open(".", O_RDWR | O_CREAT, 0600, NULL), EACCES, "the name .");
	check_err(raw_open("..", O_RDWR, 0600, NULL), EACCES, "the name ..");
	memset(longname, 'x', 256);
	longname[256] = 0;
	check_err(raw_open(longname, O_RDWR | O_CREAT, 0600, NULL), ENAMETOOLONG,
		  "a 256-byte name");
	check_err(raw_open((char *)8, O_RDWR, 0600, NULL), EFAULT, "a name at a bad pointer");
	snprintf(longname, 256, "skas-mq-%d-", (int)getpid());
	memset(longname + strlen(longname), 'y', 255 - strlen(longname));
	longname[255] = 0;
	q = raw_open(longname, O_RDWR | O_CREAT | O_EXCL, 0600, NULL);
	check(q >= 0, "a 255-byte name");
	close(q);
	check(syscall(SYS_mq_unlink, longname) == 0, "mq_unlink it");

	check_err(mq_open(qname(0), O_RDWR), ENOENT, "mq_open of a missing queue");
	q = mq_open(qname(0), O_RDWR | O_CREAT | O_EXCL, 0640, NULL);
	check(q >= 0, "O_CREAT|O_EXCL with default attributes");
	check_err(mq_open(qname(0), O_RDWR | O_CREAT | O_EXCL, 0600, NULL), EEXIST,
		  "again: EEXIST");
	check(mq_getattr(q, &attr) == 0 && attr.mq_maxmsg == 10 && attr.mq_msgsize == 8192 &&
		      attr.mq_curmsgs == 0 && attr.mq_flags == 0,
	      "defaults: 10 messages of 8192 bytes");
	check_err(raw_open(qname(0) + 1, O_RDWR | O_WRONLY, 0, NULL), EINVAL,
		  "O_RDWR|O_WRONLY of an existing queue");
	check(fcntl(q, F_GETFD) == FD_CLOEXEC, "the descriptor is close-on-exec");
	{
		struct stat st;

		check(fstat(q, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0640,
		      "fstat: a regular file with mode 0640");
	}
	close(q);
	check(mq_unlink(qname(0)) == 0, "mq_unlink");
	check_err(mq_unlink(qname(0)), ENOENT, "mq_unlink again");

	attr = (struct mq_attr){ 0, 0, 16, 0 };
	check_err(mq_open(qname(1), O_RDWR | O_CREAT, 0600, &attr), EINVAL, "mq_maxmsg 0");
	attr = (struct mq_attr){ 0, 4, 0, 0 };
	check_err(mq_open(qname(1), O_RDWR | O_CREAT, 0600, &attr), EINVAL, "mq_msgsize 0");
	attr = (struct mq_attr){ 0, -1, 16, 0 };
	check_err(mq_open(qname(1), O_RDWR | O_CREAT, 0600, &attr), EINVAL, "mq_maxmsg -1");
	check_err(raw_open(qname(1) + 1, O_RDWR | O_CREAT, 0600, (struct mq_attr *)8), EFAULT,
		  "attributes at a bad pointer");
	check_err(mq_open(qname(1), O_RDWR), ENOENT, "none of them made a queue");
}

static void test_messages(void)
{
	mqd_t q = open_q(2, O_RDWR, 4, 64), r, w;
	char buf[128];
	unsigned prio;
	struct mq_attr attr, old;
	struct timespec ts;
	long t0;

	check(q >= 0, "a queue of 4 messages of 64 bytes");
	check(mq_send(q, "a", 1, 1) == 0 && mq_send(q, "b", 1, 5) == 0 &&
		      mq_send(q, "c", 1, 3) == 0 && mq_send(q, "d", 1, 5) == 0,
	      "four messages with priorities 1 5 3 5");
	check(mq_getattr(q, &attr) == 0 && attr.mq_curmsgs == 4, "mq_curmsgs 4");
	{
		int ok = 1;
		const char *want = "bdca";
		unsigned wprio[] = { 5, 5, 3, 1 };

		for (int i = 0; i < 4; i++) {
			long len = mq_receive(q, buf, sizeof(buf), &prio);

			ok &= len == 1 && buf[0] == want[i] && prio == wprio[i];
		}
		check(ok, "received by priority, oldest first within one: b d c a");
	}
	check_err(mq_send(q, buf, 65, 0), EMSGSIZE, "a 65-byte message");
	check_err(mq_receive(q, buf, 63, NULL), EMSGSIZE, "a 63-byte buffer");
	check_err(mq_send(q, "x", 1, 32768), EINVAL, "priority 32768");
	check(mq_send(q, "", 0, 32767) == 0 && mq_receive(q, buf, 64, &prio) == 0 && prio == 32767,
	      "an empty message with priority 32767");
	check_err(mq_send(q, (char *)8, 1, 0), EFAULT, "a message at a bad pointer");

	/* Timeouts and O_NONBLOCK */
	ts = in_ms(-1000);
	check_err(mq_timedreceive(q, buf, 64, NULL, &ts), ETIMEDOUT,
		  "mq_timedreceive on an empty queue, a time in the past");
	ts = in_ms(100);
	t0 = now_ms();
	check_err(mq_timedreceive(q, buf, 64, NULL, &ts), ETIMEDOUT, "and 100 ms from now");
	check(now_ms() - t0 >= 90, "it waited the 100 ms");
	ts.tv_nsec = 1000000000L;
	mq_send(q, "m", 1, 0);
	check_err(mq_timedreceive(q, buf, 64, NULL, &ts), EINVAL,
		  "tv_nsec 1e9 is EINVAL even with a message there");
	check_err(mq_timedreceive(q, buf, 64, NULL, (struct timespec *)8), EFAULT,
		  "a timeout at a bad pointer");
	ts = in_ms(-1000);
	check(mq_timedreceive(q, buf, 64, NULL, &ts) == 1,
	      "a past time does not matter with a message");
	for (int i = 0; i < 4; i++)
		mq_send(q, "f", 1, 0);
	ts = in_ms(-1000);
	check_err(mq_timedsend(q, "g", 1, 0, &ts), ETIMEDOUT, "mq_timedsend on a full queue, past");
	attr.mq_flags = O_NONBLOCK;
	check(mq_setattr(q, &attr, NULL) == 0, "mq_setattr O_NONBLOCK");
	check((fcntl(q, F_GETFL) & O_NONBLOCK) != 0, "F_GETFL shows O_NONBLOCK");
	check_err(mq_send(q, "g", 1, 0), EAGAIN, "a full queue, nonblocking");
	for (int i = 0; i < 4; i++)
		mq_receive(q, buf, 64, NULL);
	check_err(mq_receive(q, buf, 64, NULL), EAGAIN, "an empty queue, nonblocking");
	attr.mq_flags = O_NONBLOCK | O_APPEND;
	check_err(mq_setattr(q, &attr, NULL), EINVAL, "mq_flags other than O_NONBLOCK");
	attr.mq_flags = 0;
	check(mq_setattr(q, &attr, &old) == 0 && old.mq_flags == O_NONBLOCK && old.mq_maxmsg == 4 &&
		      old.mq_msgsize == 64,
	      "mq_setattr gives the old attributes");

	/* Access modes */
	r = mq_open(qname(2), O_RDONLY);
	w = mq_open(qname(2), O_WRONLY);
	check(r >= 0 && w >= 0, "opened read-only and write-only");
	check_err(mq_send(r, "x", 1, 0), EBADF, "mq_send on a read-only descriptor");
	check_err(mq_receive(w, buf, 64, NULL), EBADF, "mq_receive on a write-only descriptor");
	check(mq_send(w, "x", 1, 0) == 0 && mq_receive(r, buf, 64, NULL) == 1,
	      "each works the right way");
	{
		int p[2];

		pipe(p);
		check_err(mq_send(p[1], "x", 1, 0), EBADF, "mq_send on a pipe");
		check_err(mq_getattr(p[0], &attr), EBADF, "mq_getattr on a pipe");
		close(p[0]);
		close(p[1]);
	}
	check_err(mq_send(-1, "x", 1, 0), EBADF, "mq_send on fd -1");
	close(r);
	close(w);
	mq_close(q);
	mq_unlink(qname(2));
}

static short revents(int fd)
{
	struct pollfd p = { fd, POLLIN | POLLOUT, 0 };

	if (poll(&p, 1, 0) < 0)
		return -1;
	return p.revents;
}

static void test_fds(void)
{
	mqd_t q = open_q(3, O_RDWR, 2, 32), d;
	char buf[64], want[128];
	int ep, st;
	struct epoll_event ev = { .events = EPOLLIN }, out;
	pid_t pid;

	check(revents(q) == POLLOUT, "an empty queue polls writable only");
	ep = epoll_create1(0);
	epoll_ctl(ep, EPOLL_CTL_ADD, q, &ev);
	check(epoll_wait(ep, &out, 1, 0) == 0, "epoll: not readable");
	mq_send(q, "hello", 5, 0);
	check(revents(q) == (POLLIN | POLLOUT), "one message: readable and writable");
	check(epoll_wait(ep, &out, 1, 0) == 1 && out.events == EPOLLIN, "epoll: readable");
	{
		fd_set rd, wr;
		struct timeval tv = { 0, 0 };

		FD_ZERO(&rd);
		FD_ZERO(&wr);
		FD_SET(q, &rd);
		FD_SET(q, &wr);
		check(select(q + 1, &rd, &wr, NULL, &tv) == 2 && FD_ISSET(q, &rd) &&
			      FD_ISSET(q, &wr),
		      "select: readable and writable");
	}
	mq_send(q, "x", 1, 0);
	check(revents(q) == POLLIN, "full: readable only");
	mq_receive(q, buf, 32, NULL);
	mq_receive(q, buf, 32, NULL);
	close(ep);

	d = dup(q);
	check(d >= 0 && fcntl(d, F_GETFD) == 0, "dup: the copy is not close-on-exec");
	check(mq_send(d, "dup", 3, 0) == 0 && mq_receive(q, buf, 32, NULL) == 3,
	      "a message through the copy");
	close(d);
	pid = fork();
	if (pid == 0)
		_exit(mq_send(q, "child", 5, 7) == 0 ? 0 : 1);
	st = child_exit(pid);
	check(st == 0 && mq_receive(q, buf, 32, NULL) == 5, "a forked child sends through it");

	mq_send(q, "abc", 3, 0);
	snprintf(want, sizeof(want), "QSIZE:%-10u NOTIFY:%-5d SIGNO:%-5d NOTIFY_PID:%-6d\n", 3, 0,
		 0, 0);
	memset(buf, 0, sizeof(buf));
	check(read(q, buf, sizeof(buf) - 1) == (long)strlen(want) && strcmp(buf, want) == 0,
	      "read gives the status line (QSIZE 3)");
	check(read(q, buf, sizeof(buf)) == 0, "then end of file");
	check(pread(q, buf, 5, 1) == 5 && memcmp(buf, "SIZE:", 5) == 0, "pread at offset 1");
	check(lseek(q, 0, SEEK_END) == 80 && lseek(q, 1, SEEK_SET) == 1 && read(q, buf, 5) == 5 &&
		      memcmp(buf, "SIZE:", 5) == 0,
	      "lseek: the size is 80, and a read goes on from the offset");
	mq_close(q);
	mq_unlink(qname(3));
}

static void test_waiters(void)
{
	mqd_t q = open_q(4, O_RDWR, 1, 16);
	char buf[16];
	unsigned prio;
	pid_t a, b;

	a = fork();
	if (a == 0) {
		long len = mq_receive(q, buf, 16, &prio);

		_exit(len == 2 && prio == 9 ? 0 : 1);
	}
	sleep_ms(100);
	check(!exited(a), "a receiver waits on an empty queue");
	mq_send(q, "hi", 2, 9);
	check(child_exit(a) == 0, "a send wakes it with the message");
	mq_send(q, "1", 1, 0);
	b = fork();
	if (b == 0)
		_exit(mq_send(q, "2", 1, 4) == 0 ? 0 : 1);
	sleep_ms(100);
	check(!exited(b), "a sender waits on a full queue");
	check(mq_receive(q, buf, 16, NULL) == 1 && buf[0] == '1', "a receive takes the first");
	check(child_exit(b) == 0, "and lets the sender in");
	check(mq_receive(q, buf, 16, &prio) == 1 && buf[0] == '2' && prio == 4,
	      "its message is in the queue");
	mq_close(q);
	mq_unlink(qname(4));
}

static volatile sig_atomic_t got_sig, got_code, got_value, got_pid;

static void on_sig(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_code = si->si_code;
	got_value = si->si_value.sival_int;
	got_pid = si->si_pid;
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void test_signals(void)
{
	mqd_t q = open_q(5, O_RDWR, 2, 16);
	struct itimerval it = { { 0, 0 }, { 0, 50000 } };
	struct sigaction sa;
	struct sigevent sev;
	struct timespec ts;
	char buf[16];
	long t0;
	pid_t pid;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	check_err(mq_receive(q, buf, 16, NULL), EINTR, "a signal interrupts mq_receive");
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	ts = in_ms(300);
	t0 = now_ms();
	check_err(mq_timedreceive(q, buf, 16, NULL, &ts), ETIMEDOUT,
		  "with SA_RESTART it goes on waiting until the deadline");
	check(now_ms() - t0 >= 280, "the whole 300 ms");
	signal(SIGALRM, SIG_DFL);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sig;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGUSR1;
	sev.sigev_value.sival_int = 42;
	check(mq_notify(q, &sev) == 0, "mq_notify SIGEV_SIGNAL SIGUSR1");
	pid = fork();
	if (pid == 0) {
		struct sigevent s2 = { .sigev_notify = SIGEV_NONE };

		_exit(mq_notify(q, &s2) < 0 && errno == EBUSY ? 0 : 1);
	}
	check(child_exit(pid) == 0, "another process gets EBUSY");
	{
		char want[128], line[128] = { 0 };

		snprintf(want, sizeof(want), "QSIZE:%-10u NOTIFY:%-5d SIGNO:%-5d NOTIFY_PID:%-6d\n",
			 0, 0, SIGUSR1, (int)getpid());
		check(read(q, line, sizeof(line) - 1) > 0 && strcmp(line, want) == 0,
		      "the status line shows the registration");
	}
	mq_close(mq_open(qname(5), O_RDONLY));
	mq_send(q, "n", 1, 0);
	check(got_sig == 0, "any close of the queue by its owner ends the registration");
	mq_receive(q, buf, 16, NULL);
	check(mq_notify(q, &sev) == 0, "register again");
	mq_send(q, "n", 1, 0);
	check(got_sig == SIGUSR1 && got_code == SI_MESGQ && got_value == 42 && got_pid == getpid(),
	      "a message on the empty queue: SIGUSR1, SI_MESGQ, the value, the sender");
	got_sig = 0;
	mq_receive(q, buf, 16, NULL);
	mq_send(q, "n", 1, 0);
	check(got_sig == 0, "once: the registration is gone");
	check(mq_notify(q, &sev) == 0, "register again");
	mq_send(q, "n", 1, 0);
	check(got_sig == 0, "no signal when the queue was not empty");
	mq_receive(q, buf, 16, NULL);
	mq_receive(q, buf, 16, NULL);
	check(mq_notify(q, NULL) == 0, "mq_notify(NULL) unregisters");
	mq_send(q, "n", 1, 0);
	check(got_sig == 0, "no signal after that");
	mq_receive(q, buf, 16, NULL);
	sev.sigev_notify = SIGEV_NONE;
	check(mq_notify(q, &sev) == 0, "SIGEV_NONE registers");
	check_err(mq_notify(q, &sev), EBUSY, "a second registration");
	check(mq_notify(q, NULL) == 0, "unregister");
	sev.sigev_notify = 99;
	check_err(mq_notify(q, &sev), EINVAL, "sigev_notify 99");
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = 65;
	check_err(mq_notify(q, &sev), EINVAL, "signal 65");
	{
		int p[2];
		char cookie[32] = { 0 };
		struct sigevent th;

		pipe(p);
		memset(&th, 0, sizeof(th));
		th.sigev_notify = SIGEV_THREAD;
		th.sigev_signo = p[0];
		th.sigev_value.sival_ptr = cookie;
		check_err(syscall(SYS_mq_notify, q, &th), ENOTSOCK,
			  "SIGEV_THREAD with a pipe for the netlink socket");
		th.sigev_signo = 999;
		check_err(syscall(SYS_mq_notify, q, &th), EBADF, "SIGEV_THREAD with a closed fd");
		close(p[0]);
		close(p[1]);
	}
	check_err(syscall(SYS_mq_notify, q, (struct sigevent *)8), EFAULT,
		  "a sigevent at a bad pointer");
	mq_close(q);
	mq_unlink(qname(5));
}

static void test_unlink_perms(void)
{
	mqd_t q = open_q(6, O_RDWR, 2, 16);
	char buf[16];
	pid_t pid;

	check(mq_unlink(qname(6)) == 0, "mq_unlink while open");
	check_err(mq_open(qname(6), O_RDWR), ENOENT, "the name is gone");
	check(mq_send(q, "z", 1, 0) == 0 && mq_receive(q, buf, 16, NULL) == 1,
	      "the open queue still works");
	mq_close(q);

	q = open_q(6, O_RDWR, 2, 16);
	pid = fork();
	if (pid == 0) {
		struct mq_attr attr = { 0, 11, 16, 0 };

		if (setgid(1001) < 0 || setuid(1001) < 0)
			_exit(10);
		if (mq_open(qname(6), O_RDONLY) != -1 || errno != EACCES)
			_exit(1);
		if (syscall(SYS_mq_unlink, qname(6) + 1) == 0 || errno != EPERM)
			_exit(2); /* the libcs turn it into EACCES */
		if (mq_unlink(qname(6)) == 0 || errno != EACCES)
			_exit(5);
		if (mq_open(qname(7), O_RDWR | O_CREAT, 0600, &attr) != -1 || errno != EINVAL)
			_exit(3); /* past msg_max without CAP_SYS_RESOURCE */
		attr.mq_maxmsg = 10;
		attr.mq_msgsize = 8193;
		if (mq_open(qname(7), O_RDWR | O_CREAT, 0600, &attr) != -1 || errno != EINVAL)
			_exit(4);
		{
			/* RLIMIT_MSGQUEUE: a default queue counts 10 x 8192 bytes
			 * and its bookkeeping; 90000 bytes hold one. */
			struct rlimit rl = { 90000, 90000 };
			mqd_t a, b, c;

			setrlimit(RLIMIT_MSGQUEUE, &rl);
			a = mq_open(qname(7), O_RDWR | O_CREAT, 0600, NULL);
			b = mq_open(qname(0), O_RDWR | O_CREAT, 0600, NULL);
			if (a < 0 || b != -1 || errno != EMFILE)
				_exit(6);
			attr.mq_maxmsg = 1;
			attr.mq_msgsize = 16;
			c = mq_open(qname(0), O_RDWR | O_CREAT, 0600, &attr);
			if (c < 0)
				_exit(7); /* a small one still fits */
			mq_unlink(qname(7));
			mq_unlink(qname(0));
		}
		_exit(0);
	}
	check(child_exit(pid) == 0, "uid 1001: EACCES to open a 0600 queue, EPERM to unlink it, "
				    "EINVAL past the limits, EMFILE past RLIMIT_MSGQUEUE");
	mq_close(q);
	check(mq_unlink(qname(6)) == 0, "the owner unlinks it");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	base_pid = (int)getpid();
	test_open();
	test_messages();
	test_fds();
	test_waiters();
	test_signals();
	test_unlink_perms();
	return 0;
}
