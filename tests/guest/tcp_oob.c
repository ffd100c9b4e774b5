/* TCP urgent data on loopback (send and recv with MSG_OOB): the last byte
 * of an urgent send is the urgent byte; reads stop before it and pass over
 * it; recv(MSG_OOB) takes it once (EINVAL before, after, and with
 * SO_OOBINLINE); SIOCATMARK, FIONREAD, poll's POLLPRI and SIGURG to the
 * socket's owner say where it is; a newer urgent byte makes the older one
 * plain data, or drops it when it is next to read; a read of nothing but
 * the urgent byte drops it. skas refused MSG_OOB (EOPNOTSUPP): ftplib's
 * abort and asyncore's handle_expt failed. */
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
	int l, c, a, n, one = 1;
	char ch;

	signal(SIGURG, on_urg);
	l = tcp_pair(&c, &a);
	check(fcntl(a, F_SETOWN, getpid()) == 0, "the reader's end is owned (F_SETOWN)");
	check_err(recv(a, &ch, 1, MSG_OOB), EINVAL, "recv(MSG_OOB) with no urgent byte");
	check(at_mark(a) == 0 && at_mark(l) == 0, "SIOCATMARK 0 (a listener's too)");

	send(c, "abc", 3, 0);
	check(send(c, "XYZ", 3, MSG_OOB) == 3, "send(MSG_OOB) of 3 bytes");
	send(c, "def", 3, 0);
	check(sigurgs == 1, "SIGURG to the owner");
	check(revents(a) == (POLLIN | POLLPRI), "poll: POLLIN and POLLPRI");
	check(inq(a) == 5 && at_mark(a) == 0, "FIONREAD counts to the urgent byte; not at it");
	check_read(a, MSG_PEEK, "abcXY", "a peek stops before it");
	check_read(a, 0, "abcXY", "so does a read");
	check(inq(a) == 0 && at_mark(a) == 1, "at the mark, FIONREAD 0");
	check(revents(a) == (POLLIN | POLLPRI), "poll: the data after it is readable");
	check(recv(a, &ch, 1, MSG_OOB | MSG_PEEK) == 1 && ch == 'Z', "recv(MSG_OOB|MSG_PEEK): Z");
	check(recv(a, &ch, 1, MSG_OOB) == 1 && ch == 'Z', "recv(MSG_OOB): Z");
	check_err(recv(a, &ch, 1, MSG_OOB), EINVAL, "only once");
	check(revents(a) == POLLIN, "poll: POLLPRI gone");
	check_read(a, 0, "def", "the read passes over it");
	check(at_mark(a) == 0, "past the mark");

	send(c, "1", 1, MSG_OOB);
	send(c, "23", 2, MSG_OOB);
	check(sigurgs == 3, "a SIGURG for each");
	check_read(a, 0, "2", "a newer urgent byte drops the older one next to read");
	check(recv(a, &ch, 1, MSG_OOB) == 1 && ch == '3', "the newer one out of band");
	check_read(a, MSG_DONTWAIT, "EAGAIN", "nothing else");

	send(c, "ab", 2, MSG_OOB);
	send(c, "c", 1, 0);
	send(c, "d", 1, MSG_OOB);
	check_read(a, 0, "abc", "an older urgent byte not next to read is plain data");
	check(recv(a, &ch, 1, MSG_OOB) == 1 && ch == 'd', "the newer one out of band");

	send(c, "Q", 1, MSG_OOB);
	check(revents(a) == POLLPRI, "the urgent byte alone: POLLPRI, not POLLIN");
	check_read(a, MSG_PEEK | MSG_DONTWAIT, "EAGAIN", "a peek of it alone sees nothing");
	check(recv(a, &ch, 0, MSG_DONTWAIT) == 0 && at_mark(a) == 1,
	      "a read of 0 bytes does not pass it");
	check_read(a, MSG_DONTWAIT, "EAGAIN", "a read of it alone drops it");
	check_err(recv(a, &ch, 1, MSG_OOB), EINVAL, "then recv(MSG_OOB) has none");

	check(setsockopt(a, SOL_SOCKET, SO_OOBINLINE, &one, sizeof(one)) == 0, "SO_OOBINLINE");
	send(c, "ab", 2, 0);
	send(c, "!", 1, MSG_OOB);
	send(c, "cd", 2, 0);
	check(at_mark(a) == 0 && inq(a) == 5, "inline: FIONREAD counts it");
	check_err(recv(a, &ch, 1, MSG_OOB), EINVAL, "inline: recv(MSG_OOB) EINVAL");
	check_read(a, 0, "ab", "inline: a read stops before it");
	check(at_mark(a) == 1, "inline: at the mark");
	check_read(a, 0, "!cd", "inline: then reads it as data");
	check(at_mark(a) == 0, "inline: past it");

	n = sigurgs;
	check(send(c, "", 0, MSG_OOB) == 0 && sigurgs == n && at_mark(a) == 0,
	      "an empty urgent send: nothing");
	one = 0;
	setsockopt(a, SOL_SOCKET, SO_OOBINLINE, &one, sizeof(one));
	check(send(c, "x", 1, MSG_OOB) == 1, "an urgent byte, then the peer's close");
	close(c);
	check(recv(a, &ch, 1, MSG_OOB) == 1 && ch == 'x', "the urgent byte after the peer's close");
	check_read(a, 0, "", "then end of file");
	close(a);
	close(l);
	return 0;
}
