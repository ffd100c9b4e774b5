/* skas-test: netns: lo */
/* NETLINK_KOBJECT_UEVENT sockets, as udev and libudev use them: anyone
 * may bind to the kernel's group 1 and udevd's group 2; a message to
 * group 2 (CAP_NET_ADMIN) reaches the other sockets there, through their
 * filters (libudev's attaches one); a request to the kernel from
 * CAP_SYS_ADMIN becomes an event of group 1 (port 0): the message past
 * its header and "SEQNUM=N" after it, and from anyone else is EPERM in an
 * acknowledgment. The sequence number is the host's natively, so it is
 * checked, not printed. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define TAP_ENAME
#include "tap.h"
#include "seccomp_abi.h"
#include "netlink_util.h"

#define NETLINK_KOBJECT_UEVENT 15
#ifndef SO_ATTACH_FILTER
#define SO_ATTACH_FILTER 26
#endif

static int uevent_sock(unsigned groups)
{
	struct sockaddr_nl a = { AF_NETLINK, 0, 0, groups };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		printf("socket or bind: %s\n", ename(errno));
		exit(1);
	}
	return fd;
}

static void show(const char *what, int fd)
{
	char buf[4096];
	struct sockaddr_nl from;
	socklen_t alen = sizeof(from);
	long r = recvfrom(fd, buf, sizeof(buf) - 1, 0, (struct sockaddr *)&from, &alen);
	char *seq;

	if (r < 0) {
		printf("%s: %s\n", what, ename(errno));
		return;
	}
	buf[r] = 0;
	seq = memmem(buf, (size_t)r, "SEQNUM=", 7);
	if (seq) {
		size_t digits = strspn(seq + 7, "0123456789");

		check(digits > 0 && seq[7] != '0', "a sequence number");
		memmove(seq + 7, seq + 7 + digits, (size_t)(buf + r - (seq + 7 + digits)) + 1);
		r -= (long)digits;
	}
	for (long i = 0; i < r; i++)
		if (buf[i] == 0)
			buf[i] = '|';
	printf("%s: %ld bytes (less the number) from %s, group %#x: %s\n", what, r,
	       from.nl_pid ? "a port" : "port 0", from.nl_groups, buf);
}

int main(void)
{
	static const char event[] = "add@/devices/virtual/skas\0ACTION=add\0SUBSYSTEM=skas\0";
	struct sockaddr_nl to = { AF_NETLINK, 0, 0, 2 };
	int kernel = uevent_sock(1), udev = uevent_sock(2), udev2 = uevent_sock(2), sender;
	struct {
		struct nlmsghdr h;
		char body[sizeof(event)];
	} req;
	/* libudev's kind: keep messages that start with "libudev" */
	struct sock_filter magic[] = {
		BPF_STMT(0x00 | 0x00 | 0x20, 0), /* ld [0] */
		BPF_JUMP(0x05 | 0x10, 0x6c696275 /* "libu" */, 1, 0),
		BPF_STMT(0x06, 0),
		BPF_STMT(0x06, 0xffffffff),
	};
	struct sock_fprog prog = { 4, magic };
	pid_t pid;
	int status;

	sender = uevent_sock(0);
	check(sendto(sender, "libudev-ish", 11, 0, (struct sockaddr *)&to, sizeof(to)) == 11,
	      "root sends to group 2");
	show("group 2", udev);
	show("group 2, the other", udev2);
	show("group 1", kernel);

	check(setsockopt(udev2, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) == 0,
	      "a filter on the second");
	sendto(sender, "other", 5, 0, (struct sockaddr *)&to, sizeof(to));
	sendto(sender, "libudev again", 13, 0, (struct sockaddr *)&to, sizeof(to));
	show("filtered", udev2);
	show("filtered, then", udev2);

	/* To the kernel: an event of group 1 */
	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = sizeof(req);
	req.h.nlmsg_type = 0x10;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.h.nlmsg_seq = 7;
	memcpy(req.body, event, sizeof(event));
	to.nl_groups = 0;
	check(sendto(sender, &req, sizeof(req), 0, (struct sockaddr *)&to, sizeof(to)) ==
		      (long)sizeof(req),
	      "root sends an event to the kernel");
	show("group 1 event", kernel);
	{
		char buf[256];
		long r = recv(sender, buf, sizeof(buf), 0);
		struct nlmsghdr *h = (struct nlmsghdr *)buf;

		printf("ack: %ld, type %d, error %d\n", r, r >= 20 ? h->nlmsg_type : -1,
		       r >= 20 ? *(int *)(buf + 16) : 0);
	}
	show("group 2 saw none of it", udev);

	/* Without CAP_SYS_ADMIN */
	pid = fork();
	if (pid == 0) {
		char buf[256];
		long r;

		if (setuid(65534) < 0)
			_exit(2);
		sendto(sender, &req, sizeof(req), 0, (struct sockaddr *)&to, sizeof(to));
		r = recv(sender, buf, sizeof(buf), 0);
		printf("unprivileged: ack %ld, error %d\n", r, r >= 20 ? *(int *)(buf + 16) : 0);
		to.nl_groups = 2;
		r = sendto(sender, "x", 1, 0, (struct sockaddr *)&to, sizeof(to));
		printf("unprivileged to group 2: %s\n", r < 0 ? ename(errno) : "sent");
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	show("group 1 after", kernel);
	return 0;
}
