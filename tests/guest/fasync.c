/* O_ASYNC: a file with an owner (F_SETOWN) signals it when data or room
 * comes: SIGIO, or F_SETSIG's signal with si_code POLL_IN/POLL_OUT, si_fd
 * and si_band. Pipes (reader and writer), a socketpair, FIOASYNC, F_GETFL,
 * a regular file (F_SETFL does not keep the flag, FIOASYNC is ENOTTY),
 * and a closed file that sends no more. Signals are blocked and taken
 * with sigtimedwait (a 5 s bound only guards against a hang). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

/* The signal from set that is pending now or comes within 5 s, or 0. */
static int take(const sigset_t *set, siginfo_t *si)
{
	struct timespec ts = { 5, 0 };
	int r;

	memset(si, 0, sizeof(*si));
	do
		r = sigtimedwait(set, si, &ts);
	while (r < 0 && errno == EINTR);
	return r < 0 ? 0 : r;
}

/* Is a signal of set pending right now? Takes it. */
static int pending_now(const sigset_t *set)
{
	struct timespec ts = { 0, 0 };
	siginfo_t si;

	return sigtimedwait(set, &si, &ts) > 0;
}

int main(void)
{
	int rt = SIGRTMIN + 1, p[2], sv[2], fd, v, fl;
	sigset_t set;
	siginfo_t si;
	char buf[65536];

	setvbuf(stdout, NULL, _IONBF, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	sigaddset(&set, rt);
	sigprocmask(SIG_BLOCK, &set, NULL);
	memset(buf, 'x', sizeof(buf));

	/* a pipe's reader: SIGIO when data comes */
	if (pipe(p) < 0)
		return 1;
	check(fcntl(p[0], F_SETOWN, getpid()) == 0, "F_SETOWN the reader");
	fl = fcntl(p[0], F_GETFL);
	check(fcntl(p[0], F_SETFL, fl | O_ASYNC) == 0, "F_SETFL O_ASYNC on the reader");
	check(fcntl(p[0], F_GETFL) & O_ASYNC, "F_GETFL shows O_ASYNC");
	check(!pending_now(&set), "nothing is sent for turning it on");
	check(write(p[1], "a", 1) == 1, "write a byte");
	check(take(&set, &si) == SIGIO, "the reader's owner gets SIGIO");
	check(read(p[0], buf, 1) == 1, "read it back");

	/* F_SETSIG: the signal with its information */
	check(fcntl(p[0], F_SETSIG, rt) == 0 && fcntl(p[0], F_GETSIG) == rt, "F_SETSIG SIGRTMIN+1");
	check(write(p[1], "b", 1) == 1, "write a byte");
	check(take(&set, &si) == rt, "the reader's owner gets SIGRTMIN+1");
	check(si.si_code == POLL_IN, "si_code POLL_IN");
	check(si.si_fd == p[0], "si_fd the reader's fd");
	check(si.si_band == (POLLIN | POLLRDNORM), "si_band POLLIN|POLLRDNORM");
	check(read(p[0], buf, 1) == 1, "read it back");

	/* O_ASYNC off: nothing more */
	check(fcntl(p[0], F_SETFL, fl) == 0 && !(fcntl(p[0], F_GETFL) & O_ASYNC),
	      "F_SETFL without O_ASYNC");
	check(write(p[1], "c", 1) == 1 && !pending_now(&set), "a write sends nothing");
	check(read(p[0], buf, 1) == 1, "read it back");

	/* a pipe's writer: room after a full pipe */
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	while (write(p[1], buf, sizeof(buf)) > 0)
		;
	check(errno == EAGAIN, "the pipe is full");
	check(fcntl(p[1], F_SETOWN, getpid()) == 0 && fcntl(p[1], F_SETSIG, rt) == 0,
	      "F_SETOWN and F_SETSIG on the writer");
	v = 1;
	check(ioctl(p[1], FIOASYNC, &v) == 0, "FIOASYNC on the writer");
	check(fcntl(p[1], F_GETFL) & O_ASYNC, "F_GETFL shows O_ASYNC");
	check(read(p[0], buf, 4096) == 4096, "read a page");
	check(take(&set, &si) == rt && si.si_code == POLL_OUT && si.si_fd == p[1],
	      "the writer's owner gets POLL_OUT with its fd");
	check(si.si_band == (POLLOUT | POLLWRNORM | POLLWRBAND), "si_band POLLOUT|WRNORM|WRBAND");
	while (pending_now(&set))
		;
	close(p[0]);
	close(p[1]);

	/* a socketpair */
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return 1;
	v = 1;
	check(fcntl(sv[1], F_SETOWN, getpid()) == 0 && ioctl(sv[1], FIOASYNC, &v) == 0,
	      "F_SETOWN and FIOASYNC on a socket");
	check(send(sv[0], "s", 1, 0) == 1, "send a byte to it");
	check(take(&set, &si) == SIGIO, "its owner gets SIGIO");
	check(recv(sv[1], buf, 1, 0) == 1, "receive it");
	/* closed: no more */
	close(sv[1]);
	while (pending_now(&set))
		;
	check(send(sv[0], "t", 1, MSG_NOSIGNAL) == -1 && !pending_now(&set),
	      "after its close, nothing is sent");
	close(sv[0]);

	/* a regular file: F_SETFL takes O_ASYNC but does not keep it;
	 * FIOASYNC on is ENOTTY, off (no change) 0 */
	fd = open("/proc/self/exe", O_RDONLY);
	check(fcntl(fd, F_SETOWN, getpid()) == 0, "F_SETOWN on a regular file");
	check(fcntl(fd, F_SETFL, O_ASYNC) == 0 && !(fcntl(fd, F_GETFL) & O_ASYNC),
	      "F_SETFL O_ASYNC on a regular file: 0, not kept");
	v = 1;
	errno = 0;
	check(ioctl(fd, FIOASYNC, &v) == -1 && errno == ENOTTY,
	      "FIOASYNC on a regular file: ENOTTY");
	v = 0;
	check(ioctl(fd, FIOASYNC, &v) == 0, "FIOASYNC off on a regular file: 0");
	check(read(fd, buf, 16) == 16 && !pending_now(&set), "a read sends nothing");
	close(fd);

	/* no owner: nothing */
	if (pipe(p) < 0)
		return 1;
	check(fcntl(p[0], F_SETFL, O_ASYNC) == 0, "O_ASYNC on a pipe with no owner");
	check(write(p[1], "d", 1) == 1 && !pending_now(&set), "a write sends nothing");
	return 0;
}
