/* A chain of 1500 UNIX socket pairs, each held only in the previous
 * one's receive queue (SCM_RIGHTS), then the first closed: every socket of
 * the chain is released (the kernel must not take one stack frame per
 * link), and the process goes on making sockets. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "tap.h"

#define CHAIN 1500

static int sendfd(int s, int fd)
{
	char c = 'x', buf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr m = { 0 };
	struct cmsghdr *cm;

	memset(buf, 0, sizeof(buf));
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = buf;
	m.msg_controllen = sizeof(buf);
	cm = CMSG_FIRSTHDR(&m);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(s, &m, 0) == 1 ? 0 : -1;
}

int main(void)
{
	int prev[2], cur[2], first, i, ok = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, prev))
		return 1;
	first = prev[0];
	for (i = 0; i < CHAIN && ok; i++) {
		ok = socketpair(AF_UNIX, SOCK_STREAM, 0, cur) == 0 &&
		     sendfd(prev[1], cur[0]) == 0 && sendfd(prev[1], cur[1]) == 0;
		close(prev[1]);
		if (prev[0] != first)
			close(prev[0]);
		prev[0] = cur[0];
		prev[1] = cur[1];
	}
	check(ok && i == CHAIN, "1500 socket pairs, each in the previous one's queue");
	close(prev[0]);
	close(prev[1]);
	check(close(first) == 0, "the first closed: the chain goes with it");
	check(socketpair(AF_UNIX, SOCK_STREAM, 0, cur) == 0 && write(cur[0], "y", 1) == 1,
	      "new sockets after");
	return 0;
}
