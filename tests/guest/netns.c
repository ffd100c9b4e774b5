/* Network namespaces: unshare(CLONE_NEWNET) gives a namespace of its own
 * (another /proc/self/ns/net inode) holding only lo, index 1, loopback
 * and down. With lo down 127.0.0.1 is not lo's address (SIOCGIFADDR
 * EADDRNOTAVAIL) nor reachable (connect ENETUNREACH), yet bind takes it
 * and any other address (Linux has no local routing table there yet), and
 * 0.0.0.0. SIOCSIFFLAGS brings lo up (UP, RUNNING, 127.0.0.1; an address
 * not lo's is then EADDRNOTAVAIL to bind). Sockets made before the
 * unshare stay in the old namespace: its TCP listener is not reached from
 * the new one (ECONNREFUSED), its TCP and UDP ports and its abstract
 * AF_UNIX name are free to bind again here, while a pathname AF_UNIX
 * listener is reached through the filesystem, which is not per namespace.
 * /proc/net/tcp shows each namespace its own listener only. A child
 * forked after the unshare is in the new namespace. setns is EINVAL for a
 * file that is not a namespace or one of another type; setns with the old
 * namespace's file goes back: a socket keeps the namespace it was made in,
 * one made then reaches the old listeners. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <poll.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#ifndef CLONE_NEWNET
#define CLONE_NEWNET 0x40000000
#endif
#ifndef CLONE_NEWUTS
#define CLONE_NEWUTS 0x04000000
#endif
#ifndef IFF_RUNNING
#define IFF_RUNNING 0x40
#endif

#define TAP_FLUSH
#include "inet_util.h"

static unsigned long net_ino(void)
{
	struct stat st;

	return stat("/proc/self/ns/net", &st) == 0 ? (unsigned long)st.st_ino : 0;
}

static int bind4(int fd, const char *addr, unsigned short port)
{
	struct sockaddr_in a = sin4(addr, port);

	return bind(fd, (struct sockaddr *)&a, sizeof(a));
}

static int connect4(int fd, const char *addr, unsigned short port)
{
	struct sockaddr_in a = sin4(addr, port);

	return connect(fd, (struct sockaddr *)&a, sizeof(a));
}

/* An AF_UNIX address: name, with a leading '\0' for the abstract
 * namespace (len bytes of it). */
static socklen_t unix_addr(struct sockaddr_un *a, const char *name, size_t len)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	memcpy(a->sun_path, name, len);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
}

static int ifreq_lo(int fd, unsigned long cmd, struct ifreq *ifr)
{
	memset(ifr, 0, sizeof(*ifr));
	strcpy(ifr->ifr_name, "lo");
	return ioctl(fd, cmd, ifr);
}

/* 0 if /proc/net/tcp has one row only whose local address is
 * 127.0.0.1:port and its inode is fd's, else -1. */
static int tcp_row_is(unsigned short port, int fd)
{
	char line[512], local[64], want[32];
	unsigned long ino, sock_ino;
	struct in_addr lo;
	struct stat st;
	FILE *f;
	int rows = 0, mine = 0;

	if (fstat(fd, &st) != 0 || !(f = fopen("/proc/net/tcp", "r")))
		return -1;
	sock_ino = (unsigned long)st.st_ino;
	inet_pton(AF_INET, "127.0.0.1", &lo);
	/* the address as the kernel prints it: its four bytes as one
	 * native-endian word, in uppercase hex */
	snprintf(want, sizeof(want), "%08X:%04X", (unsigned)lo.s_addr, port);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %63s %*s %*s %*s %*s %*s %*u %*d %lu", local, &ino) == 2 &&
		    strcmp(local, want) == 0) {
			rows++;
			mine += ino == sock_ino;
		}
	fclose(f);
	return rows == 1 && mine == 1 ? 0 : -1;
}

/* An accept4 with SOCK_NONBLOCK on a non-blocking listener, after
 * waiting up to wait_ms for a connection: the errno, or 0 for a
 * connection (closed). */
static int accept_nb(int fd, int wait_ms)
{
	struct pollfd p = { fd, POLLIN, 0 };
	int c;

	if (wait_ms)
		poll(&p, 1, wait_ms);
	c = accept4(fd, NULL, NULL, SOCK_NONBLOCK);
	if (c < 0)
		return errno;
	close(c);
	return 0;
}

int main(void)
{
	char abs_name[64], path[64];
	struct sockaddr_un ua;
	struct ifreq ifr;
	socklen_t ualen, plen;
	size_t abs_len;
	unsigned long old_ino, new_ino;
	unsigned short lport, uport;
	int L, U, A, P, oldns, fd, ioc, N, c, s, st, r;
	pid_t pid;

	/* 1: in the namespace we start in */
	L = socket(AF_INET, SOCK_STREAM, 0);
	check(L >= 0 && bind4(L, "127.0.0.1", 0) == 0 && listen(L, 8) == 0,
	      "a TCP listener L on 127.0.0.1");
	lport = (unsigned short)port_of(L);
	check(port_of(L) > 0, "its port, from getsockname");
	U = socket(AF_INET, SOCK_DGRAM, 0);
	check(U >= 0 && bind4(U, "127.0.0.1", 0) == 0, "a UDP socket U bound to 127.0.0.1");
	uport = (unsigned short)port_of(U);
	check(port_of(U) > 0, "its port, from getsockname");

	snprintf(abs_name, sizeof(abs_name), "%cskas-netns-test-%d", 0, (int)getpid());
	abs_len = 1 + strlen(abs_name + 1);
	A = socket(AF_UNIX, SOCK_STREAM, 0);
	ualen = unix_addr(&ua, abs_name, abs_len);
	check(A >= 0 && bind(A, (struct sockaddr *)&ua, ualen) == 0 && listen(A, 8) == 0,
	      "an abstract AF_UNIX listener A");
	snprintf(path, sizeof(path), "/tmp/skas-netns-test-%d", (int)getpid());
	unlink(path);
	P = socket(AF_UNIX, SOCK_STREAM, 0);
	plen = unix_addr(&ua, path, strlen(path) + 1);
	check(P >= 0 && bind(P, (struct sockaddr *)&ua, plen) == 0 && listen(P, 8) == 0,
	      "a pathname AF_UNIX listener P under /tmp");
	old_ino = net_ino();
	oldns = open("/proc/self/ns/net", O_RDONLY);
	check(old_ino != 0 && oldns >= 0, "stat and open /proc/self/ns/net");

	/* 2 */
	check(unshare(CLONE_NEWNET) == 0, "unshare(CLONE_NEWNET)");
	new_ino = net_ino();
	check(new_ino != 0 && new_ino != old_ino, "/proc/self/ns/net: another inode");

	/* 3: only lo, down */
	check(if_nametoindex("lo") == 1, "if_nametoindex(lo) is 1");
	ioc = socket(AF_INET, SOCK_DGRAM, 0);
	r = ifreq_lo(ioc, SIOCGIFFLAGS, &ifr);
	check(r == 0 && (ifr.ifr_flags & IFF_LOOPBACK), "SIOCGIFFLAGS lo: IFF_LOOPBACK");
	check(r == 0 && !(ifr.ifr_flags & IFF_UP), "SIOCGIFFLAGS lo: not IFF_UP");
	check(r == 0 && !(ifr.ifr_flags & IFF_RUNNING), "SIOCGIFFLAGS lo: not IFF_RUNNING");
	check_err(ifreq_lo(ioc, SIOCGIFADDR, &ifr), EADDRNOTAVAIL, "SIOCGIFADDR lo, down");

	/* 4: with lo down */
	/* Linux (CONFIG_IP_MULTIPLE_TABLES) makes the local routing table
	 * when lo first comes up; until then inet_addr_type takes every
	 * address for a broadcast one, which bind accepts */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	check(bind4(fd, "127.0.0.1", 0) == 0, "lo down: TCP bind 127.0.0.1:0 (no local table yet)");
	close(fd);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	check(bind4(fd, "192.0.2.1", 0) == 0, "lo down: TCP bind 192.0.2.1:0 (no local table yet)");
	close(fd);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	check(bind4(fd, "0.0.0.0", 0) == 0, "lo down: TCP bind 0.0.0.0:0");
	close(fd);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	check_err(connect4(fd, "127.0.0.1", 9), ENETUNREACH, "lo down: UDP connect 127.0.0.1:9");
	close(fd);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	check_err(connect4(fd, "127.0.0.1", lport), ENETUNREACH,
		  "lo down: TCP connect to 127.0.0.1:L's port");
	close(fd);

	/* 5: lo up */
	r = ifreq_lo(ioc, SIOCGIFFLAGS, &ifr);
	ifr.ifr_flags |= IFF_UP;
	check(r == 0 && ioctl(ioc, SIOCSIFFLAGS, &ifr) == 0, "SIOCSIFFLAGS lo: IFF_UP");
	r = ifreq_lo(ioc, SIOCGIFFLAGS, &ifr);
	check(r == 0 && (ifr.ifr_flags & IFF_UP) && (ifr.ifr_flags & IFF_RUNNING),
	      "SIOCGIFFLAGS lo: IFF_UP and IFF_RUNNING");
	r = ifreq_lo(ioc, SIOCGIFADDR, &ifr);
	check(r == 0 && ifr.ifr_addr.sa_family == AF_INET &&
		      ((struct sockaddr_in *)&ifr.ifr_addr)->sin_addr.s_addr ==
			      htonl(INADDR_LOOPBACK),
	      "SIOCGIFADDR lo: 127.0.0.1");

	fd = socket(AF_INET, SOCK_STREAM, 0);
	check_err(bind4(fd, "192.0.2.1", 0), EADDRNOTAVAIL, "lo up: TCP bind 192.0.2.1:0");
	close(fd);

	/* 6: the old namespace's ports are another namespace's */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	check_err(connect4(fd, "127.0.0.1", lport), ECONNREFUSED,
		  "lo up: TCP connect to 127.0.0.1:L's port");
	close(fd);
	N = socket(AF_INET, SOCK_STREAM, 0);
	check(N >= 0 && bind4(N, "127.0.0.1", lport) == 0, "a TCP bind to 127.0.0.1:L's port");
	check(listen(N, 8) == 0, "listen on it: N");

	/* 10: each namespace's /proc/net/tcp has its own listener only */
	check(tcp_row_is(lport, N) == 0, "/proc/net/tcp: one row for 127.0.0.1:L's port, N's");

	fd = socket(AF_INET, SOCK_STREAM, 0);
	check(connect4(fd, "127.0.0.1", lport) == 0, "a TCP connect to N");
	c = accept(N, NULL, NULL);
	check(c >= 0, "N accepts it");
	close(c);
	close(fd);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	check(bind4(fd, "127.0.0.1", uport) == 0, "a UDP bind to 127.0.0.1:U's port");
	close(fd);

	/* 7: AF_UNIX: abstract names are per namespace, paths are not */
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ualen = unix_addr(&ua, abs_name, abs_len);
	check_err(connect(fd, (struct sockaddr *)&ua, ualen), ECONNREFUSED,
		  "connect to A's abstract name");
	close(fd);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	check(bind(fd, (struct sockaddr *)&ua, ualen) == 0, "bind another socket to A's name");
	close(fd);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	plen = unix_addr(&ua, path, strlen(path) + 1);
	check(connect(fd, (struct sockaddr *)&ua, plen) == 0, "connect to P's path");
	c = accept(P, NULL, NULL);
	check(c >= 0, "P accepts it");
	close(c);
	close(fd);

	/* 11: a child is in the namespace of its parent */
	pid = fork();
	if (pid == 0)
		_exit(net_ino() == new_ino ? 0 : 1);
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a child forked now is in the new namespace");

	/* 9: setns to what is not a network namespace */
	fd = open("/", O_RDONLY);
	check_err(setns(fd, CLONE_NEWNET), EINVAL, "setns(/, CLONE_NEWNET)");
	close(fd);
	check_err(setns(oldns, CLONE_NEWUTS), EINVAL, "setns(old net ns, CLONE_NEWUTS)");
	check(net_ino() == new_ino, "still in the new namespace");

	/* 8: back to the old namespace */
	s = socket(AF_INET, SOCK_STREAM, 0);
	check(setns(oldns, CLONE_NEWNET) == 0, "setns(old net ns, CLONE_NEWNET)");
	check(net_ino() == old_ino, "/proc/self/ns/net: the first inode again");
	check(tcp_row_is(lport, L) == 0, "/proc/net/tcp: one row for 127.0.0.1:L's port, L's");
	check(fcntl(L, F_SETFL, O_NONBLOCK) == 0 && fcntl(N, F_SETFL, O_NONBLOCK) == 0,
	      "L and N non-blocking");
	check(connect4(s, "127.0.0.1", lport) == 0,
	      "a socket made in the new namespace connects to 127.0.0.1:L's port");
	check(accept_nb(N, 5000) == 0, "to N: N accepts it");
	check(accept_nb(L, 0) == EAGAIN, "not to L: accept4 on L -> EAGAIN");
	close(s);
	s = socket(AF_INET, SOCK_STREAM, 0);
	check(connect4(s, "127.0.0.1", lport) == 0, "a socket made now connects to L's port");
	check(accept_nb(L, 5000) == 0, "L accepts it");
	check(accept_nb(N, 0) == EAGAIN, "not N: accept4 on N -> EAGAIN");
	close(s);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	ualen = unix_addr(&ua, abs_name, abs_len);
	check(connect(s, (struct sockaddr *)&ua, ualen) == 0, "connect to A's abstract name");
	c = accept(A, NULL, NULL);
	check(c >= 0, "A accepts it");
	close(c);
	close(s);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	check_err(bind4(s, "127.0.0.1", uport), EADDRINUSE, "a UDP bind to U's port");
	close(s);

	close(N);
	close(ioc);
	close(oldns);
	close(L);
	close(U);
	close(A);
	close(P);
	unlink(path);
	return 0;
}
