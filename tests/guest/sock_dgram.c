/* AF_UNIX datagram and seqpacket sockets: message boundaries, MSG_TRUNC
 * (the flag out and the flag in), MSG_PEEK, zero-length messages,
 * sendto/recvfrom with paths and abstract names, connect and send,
 * read(2)/write(2) as one message (0 bytes, EFAULT), the errors
 * (ENOTCONN, EPERM, ECONNREFUSED, ENOENT, EPROTOTYPE, EMSGSIZE, EPIPE,
 * EAGAIN on a full receiver), a peer's death, shutdown, writev as
 * one message, sendmmsg/recvmmsg, poll, and seqpacket's connection
 * (listen/accept, EOF). Children never print. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"
static char dir[64];

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static socklen_t path_addr(struct sockaddr_un *a, const char *name)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	snprintf(a->sun_path, sizeof(a->sun_path), "%s/%s", dir, name);
	return offsetof(struct sockaddr_un, sun_path) + strlen(a->sun_path) + 1;
}

static int bound(int type, const struct sockaddr_un *a, socklen_t len)
{
	int s = socket(AF_UNIX, type, 0);

	if (s < 0 || bind(s, (const struct sockaddr *)a, len) < 0)
		return -1;
	return s;
}

static short revents(int fd, short events)
{
	struct pollfd p = { fd, events, 0 };

	return poll(&p, 1, 0) == 1 ? p.revents : 0;
}

/* recvmsg into buf; *flags gets msg_flags. */
static long recv_flags(int s, char *buf, size_t len, int in, int *flags)
{
	struct iovec iov = { buf, len };
	struct msghdr mh;
	long r;

	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	r = recvmsg(s, &mh, in);
	*flags = mh.msg_flags;
	return r;
}

static void test_boundaries(int type, const char *name)
{
	int sv[2], fl = -1;
	char buf[64], what[128];

	check(socketpair(AF_UNIX, type, 0, sv) == 0, name);
	send(sv[0], "abc", 3, 0);
	send(sv[0], "defgh", 5, 0);
	send(sv[0], "", 0, 0);
	send(sv[0], "ijklmnop", 8, 0);
	snprintf(what, sizeof(what), "%s: the first message alone", name);
	check(recv(sv[1], buf, sizeof(buf), 0) == 3 && memcmp(buf, "abc", 3) == 0, what);
	snprintf(what, sizeof(what), "%s: MSG_PEEK the second", name);
	check(recv(sv[1], buf, sizeof(buf), MSG_PEEK) == 5, what);
	snprintf(what, sizeof(what), "%s: the second, cut: MSG_TRUNC in msg_flags", name);
	check(recv_flags(sv[1], buf, 2, 0, &fl) == 2 && fl == MSG_TRUNC &&
		      memcmp(buf, "de", 2) == 0,
	      what);
	snprintf(what, sizeof(what), "%s: the rest of it is gone; a zero-length message", name);
	check(recv_flags(sv[1], buf, sizeof(buf), 0, &fl) == 0 && fl == 0, what);
	snprintf(what, sizeof(what), "%s: MSG_TRUNC in flags returns the real length", name);
	check(recv(sv[1], buf, 4, MSG_TRUNC) == 8 && memcmp(buf, "ijkl", 4) == 0, what);
	snprintf(what, sizeof(what), "%s: writev sends one message", name);
	{
		struct iovec iov[2] = { { "one", 3 }, { "two", 3 } };

		check(writev(sv[0], iov, 2) == 6 && recv(sv[1], buf, sizeof(buf), 0) == 6, what);
	}
	snprintf(what, sizeof(what), "%s: write(2) of 0 bytes is an empty message", name);
	check(write(sv[0], buf, 0) == 0 && recv(sv[1], buf, sizeof(buf), MSG_DONTWAIT) == 0, what);
	{
		/* a buffer whose second half is not mapped */
		char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			       0);

		munmap(m + 4096, 4096);
		snprintf(what, sizeof(what), "%s: write(2) from a buffer that faults", name);
		check_err(write(sv[0], m + 4090, 12), EFAULT, what);
		snprintf(what, sizeof(what), "%s: read(2) into a buffer that faults", name);
		send(sv[0], "0123456789ab", 12, 0);
		check_err(read(sv[1], m + 4090, 12), EFAULT, what);
		munmap(m, 4096);
	}
	snprintf(what, sizeof(what), "%s: nothing left (neither message)", name);
	check_err(recv(sv[1], buf, sizeof(buf), MSG_DONTWAIT), EAGAIN, what);
	close(sv[0]);
	close(sv[1]);
}

static int sigpipes;

static void on_sigpipe(int sig)
{
	(void)sig;
	sigpipes++;
}

static void test_seqpacket(void)
{
	struct sockaddr_un a;
	socklen_t alen = path_addr(&a, "seq");
	int l = bound(SOCK_SEQPACKET, &a, alen), s, c, sv[2], v = 0;
	char buf[16];

	check(l >= 0 && listen(l, 2) == 0, "seqpacket: listen");
	s = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	check_err(send(s, "x", 1, 0), ENOTCONN, "seqpacket: send unconnected");
	check_err(recv(s, buf, 1, 0), ENOTCONN, "seqpacket: recv unconnected");
	check(revents(s, POLLIN | POLLOUT) == (POLLOUT | POLLHUP),
	      "seqpacket unconnected: POLLHUP");
	check(connect(s, (struct sockaddr *)&a, alen) == 0, "seqpacket: connect");
	c = accept(l, NULL, NULL);
	check(c >= 0, "seqpacket: accept");
	check(send(s, "12345", 5, 0) == 5 && send(s, "67", 2, 0) == 2, "seqpacket: two messages");
	check(recv(c, buf, 3, 0) == 3 && recv(c, buf, sizeof(buf), 0) == 2 &&
		      memcmp(buf, "67", 2) == 0,
	      "seqpacket: boundaries kept, the cut part dropped");
	check(ioctl(c, FIONREAD, &v) == 0 && v == 0, "FIONREAD 0");
	close(s);
	check(recv(c, buf, sizeof(buf), 0) == 0, "seqpacket: EOF after the peer closed");
	check(recv(c, buf, sizeof(buf), MSG_DONTWAIT) == 0, "seqpacket: EOF even nonblocking");
	check(revents(c, POLLIN | POLLOUT) == (POLLIN | POLLOUT | POLLHUP),
	      "seqpacket: POLLIN | POLLOUT | POLLHUP");
	signal(SIGPIPE, on_sigpipe);
	check_err(send(c, "x", 1, 0), EPIPE, "seqpacket: send to a closed peer");
	check(sigpipes == 0, "seqpacket: no SIGPIPE");
	signal(SIGPIPE, SIG_IGN);
	close(c);
	close(l);
	unlink(a.sun_path);

	socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv);
	shutdown(sv[0], SHUT_WR);
	check_err(send(sv[0], "x", 1, MSG_NOSIGNAL), EPIPE, "seqpacket: send after SHUT_WR");
	check(recv(sv[1], buf, sizeof(buf), 0) == 0, "seqpacket: the peer reads EOF");
	close(sv[0]);
	close(sv[1]);
}

static void test_paths(void)
{
	struct sockaddr_un a, b, c, got;
	socklen_t alen = path_addr(&a, "a"), blen = path_addr(&b, "b"), clen, len;
	int sa = bound(SOCK_DGRAM, &a, alen), sb = bound(SOCK_DGRAM, &b, blen), s, st;
	char buf[32];

	check(sa >= 0 && sb >= 0, "two datagram sockets bound to paths");
	check(sendto(sa, "to-b", 4, 0, (struct sockaddr *)&b, blen) == 4, "sendto b's path");
	len = sizeof(got);
	memset(&got, 0, sizeof(got));
	check(recvfrom(sb, buf, sizeof(buf), 0, (struct sockaddr *)&got, &len) == 4 &&
		      memcmp(buf, "to-b", 4) == 0,
	      "recvfrom");
	check(len == alen && strcmp(got.sun_path, a.sun_path) == 0, "recvfrom: the sender's path");
	s = socket(AF_UNIX, SOCK_DGRAM, 0);
	check(sendto(s, "anon", 4, 0, (struct sockaddr *)&b, blen) == 4, "an unbound sender");
	len = sizeof(got);
	check(recvfrom(sb, buf, sizeof(buf), 0, (struct sockaddr *)&got, &len) == 4 && len == 0,
	      "recvfrom: address length 0");
	check_err(send(s, "x", 1, 0), ENOTCONN, "send unconnected");
	check(connect(s, (struct sockaddr *)&a, alen) == 0, "connect to a");
	check(send(s, "via-connect", 11, 0) == 11, "send to the default peer");
	check(recv(sa, buf, sizeof(buf), 0) == 11, "a receives it");
	len = sizeof(got);
	check(getpeername(s, (struct sockaddr *)&got, &len) == 0 && len == alen,
	      "getpeername: a's path");
	check(sendto(s, "other", 5, 0, (struct sockaddr *)&b, blen) == 5,
	      "sendto another address while connected");
	check(recv(sb, buf, sizeof(buf), 0) == 5, "b receives it");
	check(connect(sb, (struct sockaddr *)&b, blen) == 0, "b connects to itself");
	check_err(sendto(sa, "x", 1, 0, (struct sockaddr *)&b, blen), EPERM,
		  "sendto a socket connected elsewhere");
	check(send(sb, "self", 4, 0) == 4 && recv(sb, buf, sizeof(buf), 0) == 4,
	      "b talks to itself");
	c.sun_family = AF_UNSPEC;
	check(connect(sb, (struct sockaddr *)&c, sizeof(sa_family_t)) == 0,
	      "connect AF_UNSPEC: disconnect");
	check_err(send(sb, "x", 1, 0), ENOTCONN, "then send is ENOTCONN");
	check(sendto(sa, "x", 1, 0, (struct sockaddr *)&b, blen) == 1 &&
		      recv(sb, buf, sizeof(buf), 0) == 1,
	      "and a may send to b again");

	clen = path_addr(&c, "missing");
	check_err(sendto(s, "x", 1, 0, (struct sockaddr *)&c, clen), ENOENT,
		  "sendto a missing path");
	st = bound(SOCK_STREAM, &c, clen);
	check_err(sendto(s, "x", 1, 0, (struct sockaddr *)&c, clen), EPROTOTYPE,
		  "sendto a stream socket's path");
	close(st);
	check_err(sendto(s, "x", 1, 0, (struct sockaddr *)&c, clen), ECONNREFUSED,
		  "sendto a node whose socket is gone");
	check_err(bind(s, (struct sockaddr *)&c, clen), EADDRINUSE, "bind over the stale node");
	unlink(c.sun_path);
	check(bind(s, (struct sockaddr *)&c, clen) == 0, "bind once it is unlinked");
	check_err(sendto(s, "x", 1, 0, (struct sockaddr *)&c, 1), EINVAL, "sendto addrlen 1");
	close(s);
	close(sa);
	close(sb);
	unlink(a.sun_path);
	unlink(b.sun_path);
	unlink(c.sun_path);
}

static void test_full_and_death(void)
{
	struct sockaddr_un a;
	socklen_t alen = path_addr(&a, "full");
	int srv = bound(SOCK_DGRAM, &a, alen), s, sv[2], i, v;
	char buf[16];

	s = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	connect(s, (struct sockaddr *)&a, alen);
	for (i = 0; i < 100; i++)
		if (send(s, "m", 1, 0) < 0)
			break;
	printf("# %d datagrams queued\n", i);
	check(i == 11 && errno == EAGAIN, "a receiver not connected back takes 11, then EAGAIN");
	check(revents(s, POLLOUT) == 0, "the sender is not writable");
	check(recv(srv, buf, sizeof(buf), 0) == 1, "one read");
	check(revents(s, POLLOUT) == POLLOUT, "the sender is writable again");
	check(send(s, "m", 1, 0) == 1, "and sends one more");
	check(ioctl(srv, FIONREAD, &v) == 0 && v == 1, "FIONREAD: the next datagram's size");
	close(srv);
	check_err(send(s, "m", 1, 0), ECONNREFUSED, "the receiver closed: ECONNREFUSED");
	check_err(send(s, "m", 1, 0), ENOTCONN, "then ENOTCONN");
	close(s);
	unlink(a.sun_path);

	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	for (i = 0; i < 100000; i++)
		if (send(sv[0], "m", 1, 0) < 0)
			break;
	check(i > 11 && errno == EAGAIN, "a socketpair fills by SO_SNDBUF, then EAGAIN");
	check(revents(sv[0], POLLOUT) == 0, "not writable when full");
	close(sv[1]);
	check(revents(sv[0], POLLOUT) == POLLOUT, "writable once the peer's queue is gone");
	check_err(send(sv[0], "m", 1, 0), ECONNREFUSED, "its peer closed: ECONNREFUSED");
	close(sv[0]);

	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	shutdown(sv[0], SHUT_WR);
	signal(SIGPIPE, on_sigpipe);
	check_err(send(sv[0], "m", 1, 0), EPIPE, "send after SHUT_WR: EPIPE");
	check(sigpipes == 0, "datagram EPIPE: no SIGPIPE");
	signal(SIGPIPE, SIG_IGN);
	check(send(sv[1], "m", 1, 0) == 1, "the peer still sends to us");
	shutdown(sv[0], SHUT_RD);
	check_err(send(sv[1], "m", 1, 0), EPIPE, "send to a SHUT_RD socket: EPIPE");
	check(recv(sv[0], buf, sizeof(buf), 0) == 1, "what was queued is still read");
	check(recv(sv[0], buf, sizeof(buf), 0) == 0, "then 0");
	check_err(recv(sv[0], buf, sizeof(buf), MSG_DONTWAIT), EAGAIN,
		  "nonblocking: EAGAIN (datagram sockets have no EOF)");
	close(sv[0]);
	close(sv[1]);

	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	v = 4096;
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
	{
		static char big[9000];

		check_err(send(sv[0], big, sizeof(big), 0), EMSGSIZE,
			  "a datagram larger than SO_SNDBUF");
		check(send(sv[0], big, 8000, 0) == 8000, "one that fits");
	}
	close(sv[0]);
	close(sv[1]);
}

static void test_mmsg(void)
{
	int sv[2], i, ok = 1;
	struct mmsghdr m[4];
	struct iovec iov[4];
	char bufs[4][16];
	struct timespec ts = { 1, 0 };

	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	memset(m, 0, sizeof(m));
	for (i = 0; i < 3; i++) {
		snprintf(bufs[i], sizeof(bufs[i]), "msg-%d%s", i, i == 1 ? "-long" : "");
		iov[i].iov_base = bufs[i];
		iov[i].iov_len = strlen(bufs[i]);
		m[i].msg_hdr.msg_iov = &iov[i];
		m[i].msg_hdr.msg_iovlen = 1;
	}
	check(sendmmsg(sv[0], m, 3, 0) == 3, "sendmmsg: 3 datagrams");
	check(m[0].msg_len == 5 && m[1].msg_len == 10 && m[2].msg_len == 5, "their lengths");
	memset(m, 0, sizeof(m));
	memset(bufs, 0, sizeof(bufs));
	for (i = 0; i < 4; i++) {
		iov[i].iov_base = bufs[i];
		iov[i].iov_len = sizeof(bufs[i]);
		m[i].msg_hdr.msg_iov = &iov[i];
		m[i].msg_hdr.msg_iovlen = 1;
	}
	check(recvmmsg(sv[1], m, 4, MSG_DONTWAIT, NULL) == 3, "recvmmsg: 3 of 4");
	for (i = 0; i < 3; i++)
		ok &= (int)m[i].msg_len == (int)strlen(bufs[i]) && bufs[i][4] == '0' + i;
	check(ok, "each in its own buffer");
	send(sv[0], "w1", 2, 0);
	check(recvmmsg(sv[1], m, 4, MSG_WAITFORONE, &ts) == 1, "MSG_WAITFORONE: 1");
	check_err(recvmmsg(sv[1], m, 4, MSG_DONTWAIT, NULL), EAGAIN, "recvmmsg on empty");
	close(sv[0]);
	close(sv[1]);

	/* recvmmsg's vlen is not cut at UIO_MAXIOV: 1500 one-byte reads of
	 * a stream */
	{
		static struct mmsghdr mm[1500];
		static struct iovec one[1500];
		static char data[2000];

		socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
		for (i = 0; i < 1500; i++) {
			one[i].iov_base = data + i;
			one[i].iov_len = 1;
			mm[i].msg_hdr.msg_iov = &one[i];
			mm[i].msg_hdr.msg_iovlen = 1;
		}
		write(sv[0], data, sizeof(data));
		check(recvmmsg(sv[1], mm, 1500, MSG_DONTWAIT, NULL) == 1500,
		      "recvmmsg: vlen 1500 reads 1500");
		close(sv[0]);
		close(sv[1]);
	}
}

static void test_blocking(void)
{
	int sv[2];
	char buf[16];
	pid_t pid;
	int st;

	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	pid = fork();
	if (pid == 0) {
		sleep_ms(50);
		send(sv[1], "late", 4, 0);
		_exit(recv(sv[1], buf, sizeof(buf), 0) == 4 ? 0 : 1);
	}
	check(recv(sv[0], buf, sizeof(buf), 0) == 4, "recv sleeps until the child sends");
	check(send(sv[0], "back", 4, 0) == 4, "answer");
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child got it");
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	strcpy(dir, "/tmp/skas-sockd.XXXXXX");
	if (!mkdtemp(dir)) {
		printf("not ok 1 - mkdtemp\n");
		return 1;
	}
	test_boundaries(SOCK_DGRAM, "dgram socketpair");
	test_boundaries(SOCK_SEQPACKET, "seqpacket socketpair");
	test_seqpacket();
	test_paths();
	test_full_and_death();
	test_mmsg();
	test_blocking();
	check(rmdir(dir) == 0, "the temporary directory is empty and removed");
	return 0;
}
