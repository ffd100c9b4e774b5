/* A buffer just below the main thread's stack, handed to a system call:
 * Linux's copy faults there and the fault grows the stack, so the call
 * works and the stack's mapping reaches down over the buffer. Each step
 * takes a buffer a page or two below the stack's current bottom (read
 * from /proc/self/maps) and checks the call's result, the bytes, and that
 * [stack] now starts at or below the buffer. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define TAP_FLUSH
#include "tap.h"

/* The start of [stack] in /proc/self/maps, or 0. */
static uintptr_t stack_start(void)
{
	char line[512];
	uintptr_t lo = 0, a, b;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[stack]") && sscanf(line, "%lx-%lx", &a, &b) == 2)
			lo = a;
	fclose(f);
	return lo;
}

/* A buffer `pages` pages below the stack's bottom. */
static char *below(int pages)
{
	return (char *)(stack_start() - (uintptr_t)pages * 4096);
}

static int grown_over(const void *p)
{
	uintptr_t s = stack_start();

	return s && s <= (uintptr_t)p;
}

int main(void)
{
	char msg[100], *buf;
	struct iovec iov[2];
	struct msghdr mh;
	struct cmsghdr *cm;
	siginfo_t *si;
	int p[2], sv[2], fd;
	long r;

	setvbuf(stdout, NULL, _IONBF, 0);
	memset(msg, 'm', sizeof(msg));
	check(stack_start() != 0, "/proc/self/maps names [stack]");

	/* a pipe read into it */
	if (pipe(p) < 0)
		return 1;
	buf = below(2);
	check(write(p[1], msg, sizeof(msg)) == (long)sizeof(msg), "write 100 bytes to a pipe");
	r = read(p[0], buf, sizeof(msg));
	check(r == (long)sizeof(msg) && memcmp(buf, msg, sizeof(msg)) == 0,
	      "read from a pipe into a buffer 2 pages below the stack");
	check(grown_over(buf), "the stack grew over it");

	/* readv whose second piece is below */
	buf = below(2);
	iov[0].iov_base = msg;
	iov[0].iov_len = 10;
	iov[1].iov_base = buf;
	iov[1].iov_len = 50;
	check(write(p[1], "0123456789abcdefghij", 20) == 20, "write 20 bytes");
	r = readv(p[0], iov, 2);
	check(r == 20 && memcmp(buf, "abcdefghij", 10) == 0,
	      "readv of a pipe: the second piece below the stack");
	check(grown_over(buf), "the stack grew over it");

	/* recvmsg: data and an SCM_RIGHTS control buffer below */
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return 1;
	{
		char cbuf[CMSG_SPACE(sizeof(int))];
		struct iovec one = { (void *)"x", 1 };

		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = &one;
		mh.msg_iovlen = 1;
		mh.msg_control = cbuf;
		mh.msg_controllen = sizeof(cbuf);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &p[0], sizeof(int));
		check(sendmsg(sv[0], &mh, 0) == 1, "sendmsg one byte and a pipe fd");
	}
	buf = below(3);
	memset(&mh, 0, sizeof(mh));
	iov[0].iov_base = msg;
	iov[0].iov_len = 1;
	mh.msg_iov = iov;
	mh.msg_iovlen = 1;
	mh.msg_control = buf;
	mh.msg_controllen = CMSG_SPACE(sizeof(int));
	r = recvmsg(sv[1], &mh, 0);
	cm = r == 1 ? CMSG_FIRSTHDR(&mh) : NULL;
	fd = -1;
	if (cm && cm->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	check(r == 1 && !(mh.msg_flags & MSG_CTRUNC) && fd >= 0,
	      "recvmsg: the control buffer 3 pages below the stack gets the fd");
	check(grown_over(buf), "the stack grew over it");
	if (fd >= 0)
		close(fd);

	/* getsockname's address below */
	buf = below(2) + 64;
	{
		int s = socket(AF_UNIX, SOCK_DGRAM, 0);
		struct sockaddr_un {
			sa_family_t f;
			char path[108];
		} *sa = (void *)buf;
		socklen_t len = sizeof(*sa);

		r = getsockname(s, (struct sockaddr *)sa, &len);
		check(r == 0 && sa->f == AF_UNIX, "getsockname into an address below the stack");
		check(grown_over(buf), "the stack grew over it");
		close(s);
	}

	/* waitid's siginfo below */
	if (fork() == 0)
		_exit(3);
	si = (siginfo_t *)below(2);
	r = waitid(P_ALL, 0, si, WEXITED);
	check(r == 0 && si->si_code == CLD_EXITED && si->si_status == 3,
	      "waitid: the siginfo below the stack");
	check(grown_over(si), "the stack grew over it");
	return 0;
}
