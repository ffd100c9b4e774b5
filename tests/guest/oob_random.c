/* Out-of-band data at random, on a loopback TCP connection (the urgent
 * byte) and on an AF_UNIX stream pair (Linux 5.15's out-of-band byte): a
 * seeded sequence of sends (plain and MSG_OOB), nonblocking receives
 * (MSG_OOB, MSG_PEEK, MSG_TRUNC, short buffers), SO_OOBINLINE switched on
 * and off, SIOCATMARK, FIONREAD and poll, read to the end every few
 * sends. Each check's text carries a digest of 250 operations' results,
 * so the runs natively and under skas must agree on every one
 * (OOB_TRACE=1 prints them). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <poll.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#define TAP_ENAME
#include "tap.h"
#include "oob_util.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static uint64_t digest = 1469598103934665603ULL;
static int trace;

static void note(const char *fmt, long a, long b, const char *s)
{
	char line[128];

	snprintf(line, sizeof(line), fmt, a, b, s);
	if (trace)
		fprintf(stderr, "%s\n", line);
	for (const char *p = line; *p; p++)
		digest = (digest ^ (unsigned char)*p) * 1099511628211ULL;
}

/* 2000 operations on the connection from c to a, in 8 checks. tcp: the
 * rules that keep clear of Linux TCP's quirks. */
static void run(int c, int a, bool tcp, const char *name)
{
	char next = 'a';
	int sends = 0, urgent = 0;

	for (int round = 0; round < 8; round++) {
		char what[96];

		for (int i = 0; i < 250; i++) {
			char buf[16];
			unsigned op = rnd(100);
			long r;
			int v;

			if (op < 30 && sends >= 8) {
				/* Read everything (plain reads pass the urgent
				 * bytes): Linux's TCP receive buffer is charged
				 * per segment, and a few hundred tiny ones close
				 * its window, which loopback here does not
				 * model. */
				while ((r = recv(a, buf, sizeof(buf) - 1, MSG_DONTWAIT)) > 0) {
					buf[r] = 0;
					note("drain %ld %ld: %s", r, 0, buf);
				}
				note("drained %ld %ld", r < 0 ? -errno : r, 0, "");
				sends = 0;
				urgent = 0;
			} else if (op < 30) {
				size_t n = 1 + rnd(4);
				int oob = rnd(3) == 0 && !(tcp && urgent), mark = 0;

				/* Linux's TCP receiver sitting at an urgent byte
				 * may take no more data, and one with an urgent
				 * byte read may miss a newer one (quirks of its
				 * own, not modelled here): nothing is sent at the
				 * mark, and one urgent byte at a time, until a
				 * drain. */
				if (tcp && ioctl(a, SIOCATMARK, &mark) == 0 && mark) {
					note("at the mark", 0, 0, "");
					continue;
				}
				urgent |= oob;
				for (size_t k = 0; k < n; k++) {
					buf[k] = next;
					next = next == 'z' ? 'a' : next + 1;
				}
				r = send(c, buf, n, oob ? MSG_OOB : 0);
				sends++;
				note("send %ld oob %ld", r, oob, "");
			} else if (op < 75) {
				static const int fl[] = { 0,	     MSG_PEEK,
							  MSG_OOB,   MSG_OOB | MSG_PEEK,
							  MSG_TRUNC, MSG_OOB | MSG_TRUNC };
				int f = fl[rnd(6)];
				size_t n = rnd(6);

				memset(buf, 0, sizeof(buf));
				r = recv(a, buf, n, f | MSG_DONTWAIT);
				note("recv %ld flags %ld: %s", r < 0 ? -errno : r, f,
				     r > 0 && !(f & MSG_TRUNC) ? buf : "");
			} else if (op < 82) {
				v = (int)rnd(2);
				setsockopt(a, SOL_SOCKET, SO_OOBINLINE, &v, sizeof(v));
				note("inline %ld", v, 0, "");
			} else if (op < 90) {
				v = -1;
				r = ioctl(a, SIOCATMARK, &v);
				note("atmark %ld %ld", r, v, "");
			} else if (op < 95) {
				/* Linux 6.18's AF_UNIX count keeps an
				 * out-of-band byte a read passed over (older
				 * ones sum the buffers): not asked. */
				v = -1;
				r = tcp ? ioctl(a, FIONREAD, &v) : 0;
				note("inq %ld %ld", r, v, "");
			} else {
				struct pollfd p = { .fd = a, .events = POLLIN | POLLPRI };

				r = poll(&p, 1, 0);
				note("poll %ld %ld", r, p.revents, "");
			}
		}
		snprintf(what, sizeof(what), "%s: operations %d-%d: digest %016llx", name,
			 round * 250, round * 250 + 249, (unsigned long long)digest);
		check(1, what);
	}
}

int main(void)
{
	int l, c, a, sv[2];

	trace = getenv("OOB_TRACE") != NULL;
	l = tcp_pair(&c, &a);
	/* Each send its own segment at once: no Nagle wait for a delayed ACK
	 * (which loopback here does not model either). */
	check(setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &(int){ 1 }, sizeof(int)) == 0,
	      "TCP_NODELAY");
	run(c, a, true, "tcp");
	close(c);
	close(a);
	close(l);
	check(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "an AF_UNIX stream pair");
	run(sv[0], sv[1], false, "unix");
	close(sv[0]);
	close(sv[1]);
	return 0;
}
