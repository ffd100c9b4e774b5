/* skas-test: netns: lo */
/* TCP's buffer sizes on loopback: a new socket's SO_SNDBUF and SO_RCVBUF
 * are tcp_wmem[1] and tcp_rmem[1] (16384, 131072), a listener keeps them,
 * and a connection's two ends grow their send buffer to hold megabytes
 * (tcp_sndbuf_expand: 2.5 MiB with cubic, 3.75 MiB with BBR), unless
 * SO_SNDBUF set it (then it stays, doubled). So a writer can put a
 * megabyte and more to a peer that has not read yet. skas gave every TCP
 * socket UDP's 212992 and blocked such a writer at 208 KiB. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "tap.h"

static int getint(int fd, int level, int name)
{
	int v = -1;
	socklen_t len = sizeof(v);

	return getsockopt(fd, level, name, &v, &len) < 0 ? -1 : v;
}

/* What a nonblocking writer puts in before EAGAIN, in 64 KiB writes. */
static long fill(int fd)
{
	static char buf[65536];
	long total = 0, n;

	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	while ((n = write(fd, buf, sizeof(buf))) > 0 && total < (64L << 20))
		total += n;
	return n < 0 && errno == EAGAIN ? total : -1;
}

int main(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	int l, c, s, c2, s2, u, v = 8192;
	long q;

	l = socket(AF_INET, SOCK_STREAM, 0);
	check(getint(l, SOL_SOCKET, SO_SNDBUF) == 16384, "a new TCP socket: SO_SNDBUF 16384");
	check(getint(l, SOL_SOCKET, SO_RCVBUF) == 131072, "SO_RCVBUF 131072");
	check(bind(l, (struct sockaddr *)&a, sizeof(a)) == 0 && listen(l, 8) == 0 &&
		      getsockname(l, (struct sockaddr *)&a, &alen) == 0,
	      "a listener");
	c = socket(AF_INET, SOCK_STREAM, 0);
	check(connect(c, (struct sockaddr *)&a, sizeof(a)) == 0, "connected");
	s = accept(l, NULL, NULL);
	check(s >= 0, "accepted");
	check(getint(l, SOL_SOCKET, SO_SNDBUF) == 16384, "the listener's stays 16384");
	check(getint(c, SOL_SOCKET, SO_SNDBUF) >= (2 << 20), "the client's grew past 2 MiB");
	check(getint(s, SOL_SOCKET, SO_SNDBUF) >= (2 << 20), "the accepted end's too");
	check(getint(c, SOL_SOCKET, SO_RCVBUF) == 131072 &&
		      getint(s, SOL_SOCKET, SO_RCVBUF) == 131072,
	      "their SO_RCVBUF: 131072");
	q = fill(c);
	check(q >= (2L << 20), "over 2 MiB written before the peer reads");

	c2 = socket(AF_INET, SOCK_STREAM, 0);
	check(setsockopt(c2, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)) == 0 &&
		      getint(c2, SOL_SOCKET, SO_SNDBUF) == 16384,
	      "SO_SNDBUF 8192 set: 16384");
	check(connect(c2, (struct sockaddr *)&a, sizeof(a)) == 0, "that one connected");
	s2 = accept(l, NULL, NULL);
	check(getint(c2, SOL_SOCKET, SO_SNDBUF) == 16384, "its size stays as set");
	q = fill(c2);
	check(q > 0 && q < (1L << 20), "less than a MiB written before the peer reads");
	check(getint(s2, SOL_SOCKET, SO_SNDBUF) >= (2 << 20), "its peer's grew");

	u = socket(AF_INET, SOCK_DGRAM, 0);
	check(getint(u, SOL_SOCKET, SO_SNDBUF) == 212992 &&
		      getint(u, SOL_SOCKET, SO_RCVBUF) == 212992,
	      "a UDP socket: 212992 both (net.core.wmem_default, rmem_default)");
	close(u);
	close(s2);
	close(c2);
	close(s);
	close(c);
	close(l);
	return 0;
}
