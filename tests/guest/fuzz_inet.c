/* skas-test: timeout: 120 */
/* A seeded random-call stress of AF_INET/AF_INET6 sockets (the hostile
 * guest of the loopback network): socket, bind, connect, listen, accept,
 * send/recv in all their forms, shutdown, setsockopt/getsockopt,
 * getsockname/getpeername, poll, O_NONBLOCK, SIOCINQ, dup2, close and
 * fork, with junk families, lengths, flags and pointers (NULL, (void *)1,
 * a kernel address, the end of a mapping). It passes when the kernel
 * under it survives: it prints only "ok 1 - inet fuzzer survived N calls"
 * natively and under skas (the calls' results differ and are never
 * printed). Under the ASan build of skas the run must leave no sanitizer
 * report; a repeating 5 ms ITIMER_REAL (no SA_RESTART) breaks any call
 * that blocks.
 *
 * Safe natively beside other tests: every bind is to port 0 or to a port
 * one of our own open sockets holds, and every destination is such a
 * port on loopback, so nothing reaches another program's socket; the
 * options set are the common ones (never TCP_ULP or TCP_CONGESTION,
 * which load modules, nor multicast membership).
 *
 * usage: fuzz_inet [SEED [COUNT]]; FUZZ_TRACE=1 writes each call to
 * stderr before making it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#define NFD   8
#define BUFSZ (128 * 1024)

static uint64_t rng;
static int fds[NFD];
static char *buf, *edge; /* edge: 16 bytes before an unmapped page */
static int trace, forks;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned pick(unsigned n)
{
	return (unsigned)(rnd() % n);
}

static void *ptr(void)
{
	switch (pick(10)) {
	case 0:
		return NULL;
	case 1:
		return (void *)1;
	case 2:
		return (void *)0xffff888000000000ULL;
	case 3:
		return edge;
	default:
		return buf + pick(64);
	}
}

static int len_of(void)
{
	static const int lens[] = { -1, 0, 1, 2, 3, 4, 8, 15, 16, 23, 24, 27, 28, 100, 128, 129 };

	return lens[pick(sizeof(lens) / sizeof(lens[0]))];
}

static int somefd(void)
{
	switch (pick(12)) {
	case 0:
		return -1;
	case 1:
		return 0; /* not a socket */
	case 2:
		return 999;
	default:
		/* mostly an open one */
		for (int tries = 0; tries < 4; tries++) {
			int fd = fds[pick(NFD)];

			if (fd >= 0)
				return fd;
		}
		return fds[pick(NFD)];
	}
}

/* A port one of our open sockets holds (or 0). */
static int our_port(void)
{
	struct sockaddr_in6 a;
	socklen_t l = sizeof(a);
	int fd = fds[pick(NFD)];

	if (fd < 0 || pick(8) == 0 || getsockname(fd, (struct sockaddr *)&a, &l) < 0)
		return 0;
	return ntohs(a.sin6_port); /* sin_port is at the same offset */
}

/* A loopback (or wildcard, or group) address with one of our ports, in
 * buf, as either family or junk; returns a length to pass. */
static int addr(void)
{
	struct sockaddr_in *a4 = (struct sockaddr_in *)buf;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)buf;
	static const uint32_t v4s[] = { 0x7f000001, 0x7f000002, 0,
					0xe0000001, 0xffffffff, 0xc0000201 };
	int port = our_port();

	memset(buf, 0, 128);
	switch (pick(4)) {
	case 0:
	case 1:
		a4->sin_family = pick(6) ? AF_INET : pick(2) ? AF_UNSPEC : AF_INET6;
		a4->sin_port = htons(port);
		a4->sin_addr.s_addr = htonl(v4s[pick(sizeof(v4s) / sizeof(v4s[0]))]);
		return pick(4) ? (int)sizeof(*a4) : len_of();
	case 2:
		a6->sin6_family = pick(6) ? AF_INET6 : pick(2) ? AF_UNSPEC : AF_INET;
		a6->sin6_port = htons(port);
		switch (pick(4)) {
		case 0:
			a6->sin6_addr.s6_addr[15] = 1; /* ::1 */
			break;
		case 1:
			a6->sin6_addr.s6_addr[10] = a6->sin6_addr.s6_addr[11] = 0xff;
			a6->sin6_addr.s6_addr[12] = 127;
			a6->sin6_addr.s6_addr[15] = pick(3);
			break;
		case 2:
			break; /* :: */
		default:
			a6->sin6_addr.s6_addr[0] = 0xfe;
			a6->sin6_addr.s6_addr[1] = 0x80;
			break;
		}
		return pick(4) ? (int)sizeof(*a6) : len_of();
	default:
		/* junk bytes, but still a port of ours or 0 */
		for (int i = 0; i < 28; i++)
			buf[i] = (char)rnd();
		a4->sin_port = htons(port);
		if (a4->sin_family == AF_INET || a4->sin_family == AF_INET6)
			a4->sin_addr.s_addr = htonl(0x7f000001);
		if (a4->sin_family == AF_INET6)
			memset(&a6->sin6_addr, 0, 15), a6->sin6_addr.s6_addr[15] = 1;
		return len_of();
	}
}

static unsigned msgflags(void)
{
	static const unsigned f[] = { MSG_OOB,	   MSG_PEEK,	 MSG_DONTWAIT, MSG_NOSIGNAL,
				      MSG_TRUNC,   MSG_WAITALL,	 MSG_MORE,     MSG_ERRQUEUE,
				      MSG_CONFIRM, MSG_FASTOPEN, 0x80000000U };
	unsigned v = MSG_DONTWAIT;

	for (int i = pick(4); i > 0; i--)
		v |= f[pick(sizeof(f) / sizeof(f[0]))];
	if (pick(16) == 0)
		v &= ~MSG_DONTWAIT; /* may block: the timer breaks it */
	return v;
}

static void put(int fd)
{
	int i = pick(NFD);

	if (fd < 0)
		return;
	if (fds[i] >= 0)
		close(fds[i]);
	fds[i] = fd;
}

/* A connection (or two UDP sockets connected to each other) on loopback
 * of either family, so that data moves: the listener too stays. */
static void pair(int type)
{
	int fam = pick(2) ? AF_INET : AF_INET6;
	struct sockaddr_storage ss;
	socklen_t l = sizeof(ss);
	int a = socket(fam, type, 0), b = socket(fam, type | SOCK_NONBLOCK, 0), c;

	memset(&ss, 0, sizeof(ss));
	ss.ss_family = fam;
	if (fam == AF_INET)
		((struct sockaddr_in *)&ss)->sin_addr.s_addr = htonl(0x7f000001);
	else
		((struct sockaddr_in6 *)&ss)->sin6_addr.s6_addr[15] = 1;
	if (bind(a, (struct sockaddr *)&ss, l) < 0 ||
	    getsockname(a, (struct sockaddr *)&ss, &l) < 0 ||
	    (type == SOCK_STREAM && listen(a, pick(3)) < 0)) {
		close(a);
		close(b);
		return;
	}
	connect(b, (struct sockaddr *)&ss, l);
	put(b);
	if (type == SOCK_STREAM) {
		c = accept4(a, NULL, NULL, SOCK_NONBLOCK);
		put(c);
	} else {
		l = sizeof(ss);
		if (getsockname(b, (struct sockaddr *)&ss, &l) == 0)
			connect(a, (struct sockaddr *)&ss, l);
	}
	put(a);
}

/* An option a guest may set: the common ones and a few unknown. */
static void opt(int *level, int *name)
{
	static const int sol[] = { 1, 2, 4, 5, 6, 7, 8, 9, 10, 13, 15, 16, 18, 19, 20, 21, 30, 31 };
	static const int ip[] = { 1, 2, 10, 11, 15, 9999 };
	static const int ip6[] = { 16, 25, 26, 67, 9999 };
	static const int tcp[] = { 1, 2, 3, 4, 5, 6, 7, 9, 12, 18, 23, 9999 };

	switch (pick(6)) {
	case 0:
		*level = SOL_SOCKET;
		*name = sol[pick(sizeof(sol) / sizeof(sol[0]))];
		break;
	case 1:
		*level = IPPROTO_IP;
		*name = ip[pick(sizeof(ip) / sizeof(ip[0]))];
		break;
	case 2:
		*level = IPPROTO_IPV6;
		*name = ip6[pick(sizeof(ip6) / sizeof(ip6[0]))];
		break;
	case 3:
		*level = IPPROTO_TCP;
		*name = tcp[pick(sizeof(tcp) / sizeof(tcp[0]))];
		break;
	case 4:
		*level = IPPROTO_UDP;
		*name = pick(2) ? 1 : 9999;
		break;
	default:
		*level = (int)rnd();
		*name = 1;
	}
}

static void one_call(void)
{
	int fd = somefd(), l, level, name;
	socklen_t sl;
	struct msghdr mh;
	struct iovec iov[2];
	unsigned op = pick(22);

	if (trace)
		fprintf(stderr, "%d op %u fd %d\n", getpid(), op, fd);
	switch (op) {
	case 0:
	case 1: {
		static const int fam[] = { AF_INET, AF_INET6, AF_UNSPEC, 99 };
		static const int ty[] = { SOCK_STREAM, SOCK_DGRAM, SOCK_RAW, SOCK_SEQPACKET, 11 };
		static const int pr[] = { IPPROTO_TCP, IPPROTO_UDP, -1, 263, 1 };
		int t = ty[pick(6) ? pick(2) : pick(5)];

		if (pick(3) == 0)
			t |= SOCK_NONBLOCK;
		put(socket(fam[pick(8) ? pick(2) : pick(4)], t, pick(6) ? 0 : pr[pick(5)]));
		break;
	}
	case 2:
		l = addr();
		bind(fd, pick(10) ? (struct sockaddr *)buf : ptr(), l);
		break;
	case 3:
		l = addr();
		connect(fd, pick(10) ? (struct sockaddr *)buf : ptr(), l);
		break;
	case 4:
		listen(fd, pick(3) ? (int)pick(4) : (int)rnd());
		break;
	case 5:
		sl = (socklen_t)len_of();
		put(accept4(fd, pick(2) ? (struct sockaddr *)(buf + 256) : ptr(),
			    pick(4) ? &sl : ptr(), pick(4) ? SOCK_NONBLOCK : (int)rnd()));
		break;
	case 6:
		l = addr();
		sendto(fd, pick(8) ? buf + 512 : ptr(), pick(4) ? pick(2000) : pick(70000),
		       msgflags(), pick(2) ? (struct sockaddr *)buf : NULL, l);
		break;
	case 7:
		sl = (socklen_t)len_of();
		recvfrom(fd, pick(8) ? buf + 512 : ptr(), pick(4) ? pick(2000) : pick(70000),
			 msgflags(), pick(2) ? (struct sockaddr *)(buf + 256) : ptr(),
			 pick(4) ? &sl : ptr());
		break;
	case 8:
	case 9:
		memset(&mh, 0, sizeof(mh));
		iov[0].iov_base = pick(8) ? buf + 512 : ptr();
		iov[0].iov_len = pick(3000);
		iov[1].iov_base = pick(8) ? buf + 4096 : ptr();
		iov[1].iov_len = pick(4) ? pick(100) : (size_t)rnd();
		mh.msg_iov = pick(10) ? iov : ptr();
		mh.msg_iovlen = pick(3);
		l = addr();
		mh.msg_name = pick(2) ? buf : NULL;
		mh.msg_namelen = l;
		if (pick(4) == 0) {
			mh.msg_control = buf + 8192;
			mh.msg_controllen = pick(64);
		}
		if (op == 8)
			sendmsg(fd, &mh, msgflags());
		else
			recvmsg(fd, &mh, msgflags());
		break;
	case 10:
		if (fd > 2) {
			close(fd);
			for (int i = 0; i < NFD; i++)
				if (fds[i] == fd)
					fds[i] = -1;
		}
		break;
	case 11:
		shutdown(fd, (int)pick(6) - 1);
		break;
	case 12:
		opt(&level, &name);
		*(int *)(buf + 1024) = pick(2) ? (int)pick(300) - 1 : (int)rnd();
		setsockopt(fd, level, name, pick(8) ? buf + 1024 : ptr(),
			   pick(4) ? sizeof(int) : (socklen_t)len_of());
		break;
	case 13:
		opt(&level, &name);
		sl = (socklen_t)len_of();
		getsockopt(fd, level, name, pick(8) ? buf + 1024 : ptr(), pick(8) ? &sl : ptr());
		break;
	case 14:
		sl = (socklen_t)len_of();
		if (pick(2))
			getsockname(fd, pick(4) ? (struct sockaddr *)(buf + 256) : ptr(),
				    pick(4) ? &sl : ptr());
		else
			getpeername(fd, pick(4) ? (struct sockaddr *)(buf + 256) : ptr(),
				    pick(4) ? &sl : ptr());
		break;
	case 15: {
		struct pollfd p[3] = { { fds[pick(NFD)], POLLIN | POLLOUT | POLLPRI | POLLRDHUP,
					 0 },
				       { fds[pick(NFD)], POLLIN, 0 },
				       { fds[pick(NFD)], POLLOUT, 0 } };

		poll(p, 3, pick(3));
		break;
	}
	case 16:
		fcntl(fd, F_SETFL, pick(2) ? O_NONBLOCK : 0);
		break;
	case 17:
		ioctl(fd, pick(2) ? FIONREAD : TIOCOUTQ, pick(8) ? (void *)(buf + 1024) : ptr());
		break;
	case 18:
		if (fd > 2 && pick(2)) {
			int i = pick(NFD);

			if (fds[i] >= 0 && fds[i] != fd)
				dup2(fd, fds[i]);
		}
		break;
	case 19:
	case 20:
		pair(op == 19 ? SOCK_STREAM : SOCK_DGRAM);
		break;
	default:
		if (forks < 6 && pick(20) == 0) {
			pid_t pid;

			forks++;
			pid = fork();
			if (pid == 0) {
				/* a child has no timer of its own until it sets one */
				struct itimerval it = { { 0, 5000 }, { 0, 5000 } };

				setitimer(ITIMER_REAL, &it, NULL);
				rng ^= 0x9e3779b97f4a7c15ULL * (uint64_t)getpid();
				for (int i = 0; i < 300; i++)
					one_call();
				_exit(0);
			}
			if (pid > 0)
				while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
					;
		}
		break;
	}
}

static void on_alarm(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	unsigned long count = argc > 2 ? strtoul(argv[2], NULL, 0) : 20000;
	struct sigaction sa;
	struct itimerval it = { { 0, 5000 }, { 0, 5000 } };
	char *map;
	unsigned long i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	rng = argc > 1 ? strtoull(argv[1], NULL, 0) : 0x5eed1e7;
	if (!rng)
		rng = 1;
	trace = getenv("FUZZ_TRACE") != NULL;
	map = mmap(NULL, BUFSZ + 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return 1;
	munmap(map + BUFSZ, 4096);
	buf = map;
	edge = map + BUFSZ - 16;
	for (i = 0; i < NFD; i++)
		fds[i] = -1;
	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm; /* no SA_RESTART */
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	for (i = 0; i < count; i++)
		one_call();
	it.it_value.tv_usec = it.it_interval.tv_usec = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	printf("ok 1 - inet fuzzer survived %lu calls\n", count);
	return 0;
}
