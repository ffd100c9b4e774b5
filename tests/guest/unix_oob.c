/* AF_UNIX stream out-of-band data (MSG_OOB, Linux 5.15): the last byte of
 * such a send is the reader's out-of-band byte; reads stop before it and
 * pass over it; recv(MSG_OOB) takes it once; SIOCATMARK, FIONREAD, poll's
 * POLLPRI and SIGURG say it is there; a newer one makes the older plain
 * data (unlike TCP, which drops it when it is next to read); SO_OOBINLINE
 * reads it in line; an empty MSG_OOB send is EOPNOTSUPP, as is MSG_OOB on
 * AF_UNIX datagram and seqpacket sockets. skas had none (EOPNOTSUPP). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#define TAP_ENAME
#include "tap.h"
#include "oob_util.h"

int main(void)
{
	int sv[2], c, a, d, n, one = 1;
	char ch;

	signal(SIGURG, on_urg);
	check(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "a stream pair");
	c = sv[0];
	a = sv[1];
	check(fcntl(a, F_SETOWN, getpid()) == 0, "the reader's end is owned (F_SETOWN)");
	check_err(recv(a, &ch, 1, MSG_OOB), EINVAL, "recv(MSG_OOB) with no out-of-band byte");
	check(at_mark(a) == 0, "SIOCATMARK 0");
	check_err(send(c, "", 0, MSG_OOB), EOPNOTSUPP, "an empty MSG_OOB send");

	send(c, "abc", 3, 0);
	check(send(c, "XYZ", 3, MSG_OOB) == 3, "send(MSG_OOB) of 3 bytes");
	send(c, "def", 3, 0);
	check(sigurgs == 1, "SIGURG to the owner");
	check(revents(a) == (POLLIN | POLLPRI), "poll: POLLIN and POLLPRI");
	check(inq(a) == 9 && at_mark(a) == 0, "FIONREAD counts every byte; not at the mark");
	check_read(a, MSG_PEEK, "abcXY", "a peek stops before it");
	check_read(a, 0, "abcXY", "so does a read");
	check(at_mark(a) == 1 && inq(a) == 4, "at the mark");
	check(recv(a, &ch, 1, MSG_OOB | MSG_PEEK) == 1 && ch == 'Z', "recv(MSG_OOB|MSG_PEEK): Z");
	check(recv(a, &ch, 1, MSG_OOB) == 1 && ch == 'Z', "recv(MSG_OOB): Z");
	check_err(recv(a, &ch, 1, MSG_OOB), EINVAL, "only once");
	check(revents(a) == POLLIN && at_mark(a) == 1 && inq(a) == 3,
	      "POLLPRI gone, still at the mark, FIONREAD 3");
	check_read(a, 0, "def", "the read goes on after it");
	check(at_mark(a) == 0 && revents(a) == 0, "past the mark");

	send(c, "1", 1, MSG_OOB);
	send(c, "23", 2, MSG_OOB);
	check(sigurgs == 3, "a SIGURG for each");
	check_read(a, 0, "12", "a newer out-of-band byte makes the older plain data");
	check(recv(a, &ch, 1, MSG_OOB) == 1 && ch == '3', "the newer one out of band");
	check_read(a, MSG_DONTWAIT, "EAGAIN", "nothing else");

	send(c, "Q", 1, MSG_OOB);
	check(at_mark(a) == 1 && revents(a) == (POLLIN | POLLPRI),
	      "the byte alone: at the mark, POLLIN and POLLPRI");
	check_read(a, MSG_PEEK | MSG_DONTWAIT, "EAGAIN", "a peek of it alone sees nothing");
	check_read(a, MSG_DONTWAIT, "EAGAIN", "a read of it alone drops it");
	check_err(recv(a, &ch, 1, MSG_OOB), EINVAL, "then recv(MSG_OOB) has none");
	check(at_mark(a) == 0 && revents(a) == 0, "and nothing is left");

	check(setsockopt(a, SOL_SOCKET, SO_OOBINLINE, &one, sizeof(one)) == 0, "SO_OOBINLINE");
	send(c, "ab", 2, 0);
	send(c, "!", 1, MSG_OOB);
	send(c, "cd", 2, 0);
	check_err(recv(a, &ch, 1, MSG_OOB), EINVAL, "inline: recv(MSG_OOB) EINVAL");
	check_read(a, 0, "ab", "inline: a read stops before it");
	check(at_mark(a) == 1, "inline: at the mark");
	check_read(a, 0, "!cd", "inline: then reads it as data");
	check(at_mark(a) == 0, "inline: past it");
	one = 0;
	setsockopt(a, SOL_SOCKET, SO_OOBINLINE, &one, sizeof(one));

	n = sigurgs;
	check(send(c, "x", 1, MSG_OOB) == 1 && sigurgs == n + 1, "an out-of-band byte");
	close(c);
	check(recv(a, &ch, 1, MSG_OOB) == 1 && ch == 'x', "taken after the peer's close");
	check_read(a, 0, "", "then end of file");
	close(a);

	check(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "a second pair");
	shutdown(sv[1], SHUT_RD);
	signal(SIGPIPE, SIG_IGN);
	check_err(send(sv[0], "z", 1, MSG_OOB), EPIPE, "MSG_OOB to a reader shut down: EPIPE");
	close(sv[0]);
	close(sv[1]);
	d = socket(AF_UNIX, SOCK_DGRAM, 0);
	check(at_mark(d) == -EOPNOTSUPP, "SIOCATMARK of a datagram socket: EOPNOTSUPP");
	close(d);
	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	check_err(send(sv[0], "z", 1, MSG_OOB), EOPNOTSUPP, "MSG_OOB on a datagram pair");
	close(sv[0]);
	close(sv[1]);
	socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv);
	check_err(send(sv[0], "z", 1, MSG_OOB), EOPNOTSUPP, "MSG_OOB on a seqpacket pair");
	close(sv[0]);
	close(sv[1]);
	return 0;
}
