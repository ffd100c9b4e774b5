/* skas-test: netns: lo */
/* getsockopt(TCP_INFO) on loopback TCP: the connection's state as the
 * socket goes through its life (CLOSE unconnected, LISTEN, ESTABLISHED on
 * both ends, CLOSE_WAIT after the peer's close, FIN_WAIT2 after its own),
 * a listener's accept queue and limit in tcpi_unacked and tcpi_sacked,
 * the loopback's MSS and window options, the length cut to what was asked
 * (and no more than the kernel's struct); a UDP socket has no TCP level.
 * skas said ENOPROTOOPT for TCP_INFO. */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#define TAP_ENAME
#include "tap.h"

static int info(int fd, struct tcp_info *ti)
{
	socklen_t len = sizeof(*ti);

	memset(ti, 0xee, sizeof(*ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, ti, &len) < 0)
		return -1;
	return len == sizeof(*ti) ? 0 : -2;
}

int main(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a), len;
	struct tcp_info ti;
	int l, c, s, c2, u;
	char small[8];

	l = socket(AF_INET, SOCK_STREAM, 0);
	check(info(l, &ti) == 0 && ti.tcpi_state == TCP_CLOSE, "a new socket: CLOSE");
	check(bind(l, (struct sockaddr *)&a, sizeof(a)) == 0 && listen(l, 5) == 0 &&
		      getsockname(l, (struct sockaddr *)&a, &alen) == 0,
	      "listening");
	check(info(l, &ti) == 0 && ti.tcpi_state == TCP_LISTEN && ti.tcpi_unacked == 0 &&
		      ti.tcpi_sacked == 5,
	      "LISTEN: queue 0 of 5");
	c = socket(AF_INET, SOCK_STREAM, 0);
	c2 = socket(AF_INET, SOCK_STREAM, 0);
	check(connect(c, (struct sockaddr *)&a, sizeof(a)) == 0 &&
		      connect(c2, (struct sockaddr *)&a, sizeof(a)) == 0,
	      "two connected");
	check(info(l, &ti) == 0 && ti.tcpi_unacked == 2, "the listener's queue: 2");
	s = accept(l, NULL, NULL);
	check(info(c, &ti) == 0 && ti.tcpi_state == TCP_ESTABLISHED, "the client: ESTABLISHED");
	/* (the connecting end's is 32741 on Linux 6.18) */
	check(ti.tcpi_snd_mss >= 32000 && ti.tcpi_snd_mss <= 32768 && ti.tcpi_advmss == 65483 &&
		      ti.tcpi_pmtu == 65535,
	      "loopback's MSS and path MTU");
	check((ti.tcpi_options & (TCPI_OPT_TIMESTAMPS | TCPI_OPT_SACK | TCPI_OPT_WSCALE)) ==
		      (TCPI_OPT_TIMESTAMPS | TCPI_OPT_SACK | TCPI_OPT_WSCALE),
	      "timestamps, SACK and window scaling");
	check(ti.tcpi_snd_cwnd == 10 && ti.tcpi_retransmits == 0 && ti.tcpi_ca_state == 0,
	      "a new window of 10, nothing retransmitted");
	check(info(s, &ti) == 0 && ti.tcpi_state == TCP_ESTABLISHED && ti.tcpi_snd_mss == 32768,
	      "the server's end: ESTABLISHED, MSS 32768");
	len = sizeof(small);
	check(getsockopt(c, IPPROTO_TCP, TCP_INFO, small, &len) == 0 && len == sizeof(small) &&
		      small[0] == TCP_ESTABLISHED,
	      "8 bytes asked: 8 given");
	{
		char big[4096];

		len = sizeof(big);
		check(getsockopt(c, IPPROTO_TCP, TCP_INFO, big, &len) == 0 &&
			      len >= sizeof(struct tcp_info) && len < sizeof(big),
		      "a large buffer: the kernel's struct");
	}
	len = (socklen_t)-1;
	check_err(getsockopt(c, IPPROTO_TCP, TCP_INFO, &ti, &len), EINVAL,
		  "a negative length: EINVAL");
	close(c);
	usleep(100000);
	check(info(s, &ti) == 0 && ti.tcpi_state == TCP_CLOSE_WAIT, "the peer closed: CLOSE_WAIT");
	shutdown(c2, SHUT_WR);
	usleep(100000);
	check(info(c2, &ti) == 0 && ti.tcpi_state == TCP_FIN_WAIT2,
	      "its own FIN acknowledged: FIN_WAIT2");
	u = socket(AF_INET, SOCK_DGRAM, 0);
	len = sizeof(ti);
	check_err(getsockopt(u, IPPROTO_TCP, TCP_INFO, &ti, &len), EOPNOTSUPP,
		  "a UDP socket: EOPNOTSUPP");
	close(u);
	close(s);
	close(c2);
	close(l);
	return 0;
}
