/* SO_TIMESTAMP, SO_TIMESTAMPNS and their _NEW forms on UDP: which one
 * getsockopt reports after each set (one at a time, the last wins, 0
 * turns them off), the control message each gives a datagram (type,
 * length, a time of arrival between the send and the receive), before
 * IP_TTL's, and none when off or with no room (MSG_CTRUNC); TCP and
 * AF_UNIX datagram and seqpacket sockets have them, AF_UNIX streams not. */
#include "inet_util.h"

#include <stdint.h>
#include <time.h>

#ifndef SO_TIMESTAMP_NEW
#define SO_TIMESTAMP_NEW   63
#define SO_TIMESTAMPNS_NEW 64
#endif
#define SO_TIMESTAMP_OLD_   29
#define SO_TIMESTAMPNS_OLD_ 35

static const int names[4] = { SO_TIMESTAMP_OLD_, SO_TIMESTAMPNS_OLD_, SO_TIMESTAMP_NEW,
			      SO_TIMESTAMPNS_NEW };

static void show_opts(int fd, const char *after)
{
	int i;

	printf("after %s:", after);
	for (i = 0; i < 4; i++) {
		int v = -1;
		socklen_t l = sizeof(v);

		getsockopt(fd, SOL_SOCKET, names[i], &v, &l);
		printf(" %d=%d", names[i], v);
	}
	printf("\n");
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* One datagram from a to b, received with a control buffer of ctlsize. */
static void one(int a, int b, size_t ctlsize, const char *what)
{
	char buf[16], ctl[256];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	int64_t t0 = now_ns(), t1;
	struct cmsghdr *cm;

	mh.msg_control = ctl;
	mh.msg_controllen = ctlsize;
	send(a, "x", 1, 0);
	check(recvmsg(b, &mh, 0) == 1, what);
	t1 = now_ns();
	printf("%s: flags %#x", what, mh.msg_flags & MSG_CTRUNC);
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		int64_t v[2];

		printf(" [level %d type %d len %zu", cm->cmsg_level, cm->cmsg_type,
		       (size_t)cm->cmsg_len);
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_len >= CMSG_LEN(sizeof(v))) {
			int ns = cm->cmsg_type == SO_TIMESTAMPNS_OLD_ ||
				 cm->cmsg_type == SO_TIMESTAMPNS_NEW;
			int64_t t;

			memcpy(v, CMSG_DATA(cm), sizeof(v));
			t = v[0] * 1000000000 + v[1] * (ns ? 1 : 1000);
			printf(" %s", t >= t0 - (ns ? 0 : 1000) && t <= t1 && v[1] >= 0 &&
						      v[1] < (ns ? 1000000000 : 1000000)
					      ? "in time"
					      : "WRONG");
		}
		printf("]");
	}
	printf("\n");
}

int main(void)
{
	struct sockaddr_in lo = sin4("127.0.0.1", 0);
	int a = socket(AF_INET, SOCK_DGRAM, 0), b = socket(AF_INET, SOCK_DGRAM, 0), one_ = 1, i;
	socklen_t l = sizeof(lo);

	setvbuf(stdout, NULL, _IONBF, 0);
	bind(b, (struct sockaddr *)&lo, sizeof(lo));
	/* Linux stamps TCP segments only while some socket wants times (a
	 * static key it turns on and off from a work queue): a, never
	 * read, keeps it on, so the TCP check below does not race it */
	setsockopt(a, SOL_SOCKET, SO_TIMESTAMP_OLD_, &one_, sizeof(one_));
	getsockname(b, (struct sockaddr *)&lo, &l);
	connect(a, (struct sockaddr *)&lo, sizeof(lo));
	show_opts(b, "nothing");
	one(a, b, 256, "off");
	for (i = 0; i < 4; i++) {
		char what[32];

		check(setsockopt(b, SOL_SOCKET, names[i], &one_, sizeof(one_)) == 0, "set");
		snprintf(what, sizeof(what), "set %d", names[i]);
		show_opts(b, what);
		one(a, b, 256, what);
	}
	setsockopt(b, SOL_IP, IP_RECVTTL, &one_, sizeof(one_));
	one(a, b, 256, "with IP_RECVTTL");
	one(a, b, CMSG_SPACE(16) + 4, "room for the time only");
	one(a, b, 0, "no room");
	int zero = 0;
	setsockopt(b, SOL_SOCKET, SO_TIMESTAMP_OLD_, &zero, sizeof(zero));
	show_opts(b, "0 to SO_TIMESTAMP");
	one(a, b, 256, "off again");

	/* TCP: the time of the last segment read */
	int l2 = socket(AF_INET, SOCK_STREAM, 0), c = socket(AF_INET, SOCK_STREAM, 0), s;
	struct sockaddr_in la = sin4("127.0.0.1", 0);
	l = sizeof(la);
	bind(l2, (struct sockaddr *)&la, sizeof(la));
	getsockname(l2, (struct sockaddr *)&la, &l);
	listen(l2, 1);
	connect(c, (struct sockaddr *)&la, sizeof(la));
	s = accept(l2, NULL, NULL);
	setsockopt(s, SOL_SOCKET, SO_TIMESTAMP_NEW, &one_, sizeof(one_));
	usleep(100000); /* and a moment for that work queue */
	one(c, s, 256, "TCP");
	close(c);
	close(s);
	close(l2);

	static const int types[3] = { SOCK_DGRAM, SOCK_SEQPACKET, SOCK_STREAM };
	for (i = 0; i < 3; i++) {
		int sv[2];
		char what[32];

		socketpair(AF_UNIX, types[i], 0, sv);
		setsockopt(sv[1], SOL_SOCKET, SO_TIMESTAMPNS_OLD_, &one_, sizeof(one_));
		snprintf(what, sizeof(what), "AF_UNIX type %d", types[i]);
		one(sv[0], sv[1], 256, what);
		close(sv[0]);
		close(sv[1]);
	}
	return 0;
}
