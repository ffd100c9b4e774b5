/* Control messages on AF_UNIX sockets: SCM_RIGHTS passing a pipe to a
 * forked child that reads through it, several fds at once, a socket passed
 * over a socket, MSG_CMSG_CLOEXEC, MSG_PEEK (the fds are duplicated),
 * MSG_CTRUNC with a short or missing control buffer (the rest are closed),
 * a stream read stopping after the fds' data; SCM_CREDENTIALS with
 * SO_PASSCRED (implicit and explicit, EINVAL on a bad one; none at a
 * seqpacket's end of file, a stream's there), the errors
 * of malformed control data, and the collection of a socket cycle that
 * only its own queue holds, and of many cycles that no close ever
 * releases. Children never print. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"

/* Sends len bytes of data with nfds fds in one SCM_RIGHTS. */
static long send_fds(int s, const char *data, size_t len, const int *fds, int nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * 8)];
		struct cmsghdr align;
	} u;
	struct iovec iov = { (void *)data, len };
	struct msghdr mh;
	struct cmsghdr *cm;

	memset(&mh, 0, sizeof(mh));
	memset(&u, 0, sizeof(u));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (nfds) {
		mh.msg_control = u.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(cm), fds, sizeof(int) * nfds);
	}
	return sendmsg(s, &mh, 0);
}

/* Receives into buf with a control buffer of ctl bytes (0: none); the
 * fds that came go to fds (at most max), their count to *nfds. */
static long recv_fds(int s, char *buf, size_t len, size_t ctl, int flags, int *fds, int max,
		     int *nfds, int *msg_flags)
{
	union {
		char buf[512];
		struct cmsghdr align;
	} u;
	struct iovec iov = { buf, len };
	struct msghdr mh;
	struct cmsghdr *cm;
	long r;

	memset(&mh, 0, sizeof(mh));
	memset(&u, 0, sizeof(u));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = ctl ? u.buf : NULL;
	mh.msg_controllen = ctl;
	*nfds = 0;
	r = recvmsg(s, &mh, flags);
	if (r < 0)
		return r;
	*msg_flags = mh.msg_flags;
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
			int k = (int)((cm->cmsg_len - CMSG_LEN(0)) / sizeof(int)), i;

			for (i = 0; i < k && *nfds < max; i++)
				memcpy(&fds[(*nfds)++], CMSG_DATA(cm) + i * sizeof(int),
				       sizeof(int));
		}
	}
	return r;
}

static void test_pipe_to_child(void)
{
	int sv[2], p[2], st;
	char buf[32];
	pid_t pid;

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pipe(p);
	pid = fork();
	if (pid == 0) {
		int fds[1], k = 0, fl = 0;
		ssize_t r;

		close(sv[0]);
		close(p[0]);
		close(p[1]);
		if (recv_fds(sv[1], buf, sizeof(buf), 64, 0, fds, 1, &k, &fl) != 1 || k != 1)
			_exit(1);
		r = read(fds[0], buf, sizeof(buf));
		if (r <= 0)
			_exit(2);
		/* answer with what came through the pipe */
		write(sv[1], buf, r);
		_exit(read(fds[0], buf, 1) == 0 ? 0 : 3);
	}
	close(sv[1]);
	check(send_fds(sv[0], "F", 1, &p[0], 1) == 1, "send the pipe's read end");
	close(p[0]);
	check(write(p[1], "through-pipe", 12) == 12, "write into the pipe");
	close(p[1]);
	check(read(sv[0], buf, sizeof(buf)) == 12 && memcmp(buf, "through-pipe", 12) == 0,
	      "the child read it through the fd it received");
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child saw EOF on the pipe");
	close(sv[0]);
}

static void test_many_and_flags(void)
{
	int sv[2], p[2], q[2], fds[8], k, fl, got[8];
	char buf[16];
	struct stat a, b;

	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	pipe(p);
	pipe(q);
	fds[0] = p[0];
	fds[1] = q[1];
	fds[2] = p[0];
	check(send_fds(sv[0], "3", 1, fds, 3) == 1, "three fds in one message");
	check(recv_fds(sv[1], buf, sizeof(buf), 256, MSG_CMSG_CLOEXEC, got, 8, &k, &fl) == 1 &&
		      k == 3,
	      "three fds received");
	check(fl == MSG_CMSG_CLOEXEC, "msg_flags reports MSG_CMSG_CLOEXEC back");
	check(fcntl(got[0], F_GETFD) == FD_CLOEXEC && fcntl(got[2], F_GETFD) == FD_CLOEXEC,
	      "MSG_CMSG_CLOEXEC: the new fds are close-on-exec");
	fstat(got[0], &a);
	fstat(p[0], &b);
	check(a.st_ino == b.st_ino && got[0] != p[0] && got[2] != got[0],
	      "new fds for the same open files");
	check(write(got[1], "q", 1) == 1 && read(q[0], buf, 1) == 1, "the passed write end works");
	close(got[0]);
	close(got[1]);
	close(got[2]);

	/* MSG_PEEK duplicates the fds */
	check(send_fds(sv[0], "P", 1, &p[0], 1) == 1, "send one fd");
	check(recv_fds(sv[1], buf, sizeof(buf), 64, MSG_PEEK, got, 8, &k, &fl) == 1 && k == 1,
	      "MSG_PEEK gets an fd");
	check(recv_fds(sv[1], buf, sizeof(buf), 64, 0, got + 1, 7, &k, &fl) == 1 && k == 1 &&
		      got[1] != got[0],
	      "the real recv gets another");
	close(got[0]);
	close(got[1]);

	/* MSG_CTRUNC: room for one of two; the other is closed */
	fds[0] = p[0];
	fds[1] = p[0];
	send_fds(sv[0], "T", 1, fds, 2);
	check(recv_fds(sv[1], buf, sizeof(buf), CMSG_LEN(sizeof(int)), 0, got, 8, &k, &fl) == 1 &&
		      k == 1 && fl == MSG_CTRUNC,
	      "a control buffer for one fd of two: MSG_CTRUNC");
	close(got[0]);
	send_fds(sv[0], "N", 1, fds, 1);
	check(recv_fds(sv[1], buf, sizeof(buf), 0, 0, got, 8, &k, &fl) == 1 && k == 0 &&
		      fl == MSG_CTRUNC,
	      "no control buffer: MSG_CTRUNC");
	send_fds(sv[0], "H", 1, fds, 1);
	check(recv_fds(sv[1], buf, sizeof(buf), sizeof(struct cmsghdr), 0, got, 8, &k, &fl) == 1 &&
		      k == 0 && fl == MSG_CTRUNC,
	      "a buffer with room for the header only: MSG_CTRUNC");
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	check_err(write(p[1], "x", 1), EPIPE,
		  "the dropped fds were closed: the pipe has no reader");
	close(p[1]);
	close(q[0]);
	close(q[1]);
	close(sv[0]);
	close(sv[1]);
}

static void test_socket_and_stream(void)
{
	int sv[2], inner[2], got[4], k, fl;
	char buf[16];

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	socketpair(AF_UNIX, SOCK_STREAM, 0, inner);
	check(send_fds(sv[0], "ab", 2, &inner[1], 1) == 2, "pass a socket, with 2 bytes");
	close(inner[1]);
	check(send(sv[0], "cd", 2, 0) == 2, "then 2 more bytes alone");
	check(recv_fds(sv[1], buf, sizeof(buf), 64, 0, got, 4, &k, &fl) == 2 && k == 1 &&
		      memcmp(buf, "ab", 2) == 0,
	      "a stream read stops after the data that carried fds");
	check(recv(sv[1], buf, sizeof(buf), 0) == 2 && memcmp(buf, "cd", 2) == 0, "the rest");
	check(write(got[0], "via", 3) == 3 && read(inner[0], buf, sizeof(buf)) == 3,
	      "the passed socket works");
	close(got[0]);
	check(read(inner[0], buf, sizeof(buf)) == 0, "closing it: EOF on its peer");
	close(inner[0]);
	check(send_fds(sv[0], "", 0, &sv[0], 1) == 0, "fds with no data on a stream: 0 sent");
	close(sv[0]);
	close(sv[1]);
}

static void test_bad_control(void)
{
	int sv[2], fd = 12345;
	union {
		char buf[CMSG_SPACE(sizeof(int) * 2)];
		struct cmsghdr align;
	} u;
	struct iovec iov = { "x", 1 };
	struct msghdr mh;
	struct cmsghdr *cm;

	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	check_err(send_fds(sv[0], "x", 1, &fd, 1), EBADF, "SCM_RIGHTS with a closed fd");
	memset(&mh, 0, sizeof(mh));
	memset(&u, 0, sizeof(u));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = u.buf;
	mh.msg_controllen = sizeof(u.buf);
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = sizeof(u.buf) + 8;
	check_err(sendmsg(sv[0], &mh, 0), EINVAL, "cmsg_len past the buffer");
	cm->cmsg_len = 4;
	check_err(sendmsg(sv[0], &mh, 0), EINVAL, "cmsg_len shorter than the header");
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	cm->cmsg_type = 77;
	check_err(sendmsg(sv[0], &mh, 0), EINVAL, "an unknown SOL_SOCKET type");
	cm->cmsg_level = 6;
	check(sendmsg(sv[0], &mh, 0) == 1, "other levels are ignored");
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_CREDENTIALS;
	check_err(sendmsg(sv[0], &mh, 0), EINVAL, "SCM_CREDENTIALS of the wrong length");
	mh.msg_controllen = 8;
	check(sendmsg(sv[0], &mh, 0) == 1, "a control buffer shorter than a header: ignored");
	mh.msg_control = (void *)8;
	mh.msg_controllen = 32;
	/* raw calls: musl's sendmsg copies the control buffer itself */
	check_err(syscall(SYS_sendmsg, sv[0], &mh, 0L), EFAULT, "a bad control pointer");
	mh.msg_controllen = 1 << 20;
	check_err(syscall(SYS_sendmsg, sv[0], &mh, 0L), ENOBUFS, "a 1 MiB control buffer");
	close(sv[0]);
	close(sv[1]);
}

static int get_creds(int s, struct ucred *uc, int *msg_flags)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred)) + 64];
		struct cmsghdr align;
	} u;
	char data[16];
	struct iovec iov = { data, sizeof(data) };
	struct msghdr mh;
	struct cmsghdr *cm;
	int found = 0;

	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = u.buf;
	mh.msg_controllen = sizeof(u.buf);
	if (recvmsg(s, &mh, 0) < 0)
		return -1;
	*msg_flags = mh.msg_flags;
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_CREDENTIALS &&
		    cm->cmsg_len == CMSG_LEN(sizeof(*uc))) {
			memcpy(uc, CMSG_DATA(cm), sizeof(*uc));
			found = 1;
		}
	return found;
}

static void test_credentials(void)
{
	int sv[2], one = 1, fl = 0, st;
	struct ucred uc;
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { "c", 1 };
	struct msghdr mh;
	struct cmsghdr *cm;
	pid_t pid;

	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	send(sv[0], "a", 1, 0);
	check(get_creds(sv[1], &uc, &fl) == 0, "no SO_PASSCRED: no credentials");
	check(setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) == 0, "SO_PASSCRED");
	send(sv[0], "b", 1, 0);
	memset(&uc, 0, sizeof(uc));
	check(get_creds(sv[1], &uc, &fl) == 1, "SCM_CREDENTIALS arrives");
	check(uc.pid == getpid() && uc.uid == getuid() && uc.gid == getgid(),
	      "the sender's pid, uid and gid");

	pid = fork();
	if (pid == 0) {
		send(sv[0], "k", 1, 0);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	check(get_creds(sv[1], &uc, &fl) == 1 && uc.pid == pid, "a child's message: its pid");

	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = u.buf;
	mh.msg_controllen = sizeof(u.buf);
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_CREDENTIALS;
	cm->cmsg_len = CMSG_LEN(sizeof(struct ucred));
	uc.pid = getpid();
	uc.uid = getuid();
	uc.gid = getgid();
	memcpy(CMSG_DATA(cm), &uc, sizeof(uc));
	check(sendmsg(sv[0], &mh, 0) == 1, "explicit SCM_CREDENTIALS with our own ids");
	memset(&uc, 0, sizeof(uc));
	check(get_creds(sv[1], &uc, &fl) == 1 && uc.pid == getpid(), "they arrive");
	uc.pid = getpid();
	uc.uid = (uid_t)-1;
	memcpy(CMSG_DATA(cm), &uc, sizeof(uc));
	check_err(sendmsg(sv[0], &mh, 0), EINVAL, "uid -1: EINVAL");

	/* no control buffer with SO_PASSCRED: MSG_CTRUNC */
	send(sv[0], "d", 1, 0);
	{
		char d[4];
		struct iovec v = { d, sizeof(d) };
		struct msghdr h;

		memset(&h, 0, sizeof(h));
		h.msg_iov = &v;
		h.msg_iovlen = 1;
		check(recvmsg(sv[1], &h, 0) == 1 && h.msg_flags == MSG_CTRUNC,
		      "SO_PASSCRED without a control buffer: MSG_CTRUNC");
	}
	close(sv[0]);
	close(sv[1]);

	/* stream: SO_PASSCRED on the receiver, data from two writers is not glued */
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one));
	send(sv[0], "x", 1, 0);
	pid = fork();
	if (pid == 0) {
		send(sv[0], "y", 1, 0);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	check(get_creds(sv[1], &uc, &fl) == 1 && uc.pid == getpid(),
	      "stream: the first writer's bytes and credentials");
	check(get_creds(sv[1], &uc, &fl) == 1 && uc.pid == pid,
	      "then the second writer's, in a read of their own");
	close(sv[0]);
	close(sv[1]);
}

/* The end of file with SO_PASSCRED: a seqpacket's or a shut-down
 * datagram socket's carries no control message (Linux returns before
 * scm_recv; crashpad's handler reads a truncated message otherwise), a
 * stream's carries credentials. */
static void test_eof_credentials(void)
{
	static const struct {
		int type;
		const char *name;
	} types[] = { { SOCK_SEQPACKET, "seqpacket" },
		      { SOCK_STREAM, "stream" },
		      { SOCK_DGRAM, "dgram, SHUT_RD" } };
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		char b[8], c[256];
		struct iovec v = { b, sizeof(b) };
		struct msghdr h;
		int sv[2], one = 1;
		long r;

		socketpair(AF_UNIX, types[i].type, 0, sv);
		setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one));
		if (types[i].type == SOCK_DGRAM)
			shutdown(sv[1], SHUT_RD);
		close(sv[0]);
		memset(&h, 0, sizeof(h));
		h.msg_iov = &v;
		h.msg_iovlen = 1;
		h.msg_control = c;
		h.msg_controllen = sizeof(c);
		r = recvmsg(sv[1], &h, MSG_DONTWAIT);
		printf("%s end of file: %ld, control %zu, flags %#x\n", types[i].name, r,
		       (size_t)h.msg_controllen, (unsigned)h.msg_flags);
		h.msg_control = NULL;
		h.msg_controllen = 0;
		r = recvmsg(sv[1], &h, MSG_DONTWAIT);
		printf("%s, no control buffer: %ld, flags %#x\n", types[i].name, r,
		       (unsigned)h.msg_flags);
		close(sv[1]);
	}
}

/* A socket sent into its own queue, with a pipe's read end: once closed,
 * only the cycle holds them, until the collector runs (Linux runs it when
 * a socket is closed, in a worker: give it time). */
static void test_gc(void)
{
	int sv[2], p[2], fds[2], other[2], i, gone = 0;
	struct timespec ts = { 0, 20 * 1000000L };

	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	pipe(p);
	fds[0] = sv[1];
	fds[1] = p[0];
	check(send_fds(sv[0], "c", 1, fds, 2) == 1, "send a socket into its own queue");
	close(sv[0]);
	close(sv[1]);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	check(write(p[1], "x", 1) == 1, "the cycle keeps the pipe's reader");
	for (i = 0; i < 250 && !gone; i++) { /* up to 5 s: the worker may be slow under load */
		socketpair(AF_UNIX, SOCK_STREAM, 0, other);
		close(other[0]);
		close(other[1]);
		nanosleep(&ts, NULL);
		gone = write(p[1], "x", 1) < 0 && errno == EPIPE;
	}
	check(gone, "closing another socket collects the cycle: EPIPE");
	close(p[1]);
}

/* Many cycles of two datagram sockets, each in the other's queue, closed
 * with no other socket ever released: Linux collects them as the count in
 * flight grows, so socketpair never runs out of files. */
static void test_gc_many(void)
{
	int sv[2], i, fails = 0;

	for (i = 0; i < 20000 && !fails; i++) {
		if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0) {
			fails++;
			break;
		}
		if (send_fds(sv[0], "c", 1, &sv[0], 1) != 1 ||
		    send_fds(sv[1], "c", 1, &sv[1], 1) != 1)
			fails++;
		close(sv[0]);
		close(sv[1]);
	}
	check(!fails, "20000 garbage cycles: no ENFILE, no failed send");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_pipe_to_child();
	test_many_and_flags();
	test_socket_and_stream();
	test_bad_control();
	test_credentials();
	test_eof_credentials();
	test_gc();
	test_gc_many();
	return 0;
}
