/* skas-test: netns: lo */
/* net.core.somaxconn and net.ipv4.ip_local_port_range read and written
 * as Linux's (the ports a bind to port 0 takes follow the range; a range
 * backwards or outside 1..65535 is EINVAL, a negative somaxconn too);
 * kernel.random.entropy_avail and poolsize say 256. All four were ENOENT
 * in skas (Go and Redis read somaxconn). Root, in a network namespace of
 * its own natively. */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#define TAP_ENAME
#include "tap.h"

static const char *get(const char *path)
{
	static char buf[64];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

static long put(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	long n;
	int e;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	e = errno;
	close(fd);
	errno = e;
	return n;
}

static int bound_port(int fd)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);

	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		return -errno;
	getsockname(fd, (struct sockaddr *)&a, &len);
	return ntohs(a.sin_port);
}

int main(void)
{
	const char *som = "/proc/sys/net/core/somaxconn",
		   *range = "/proc/sys/net/ipv4/ip_local_port_range";
	int a, b, c, pa, pb, pc;

	check(strcmp(get(som), "4096\n") == 0, "somaxconn: 4096");
	check(strcmp(get(range), "32768\t60999\n") == 0, "ip_local_port_range: 32768 60999");
	check(strcmp(get("/proc/sys/kernel/random/entropy_avail"), "256\n") == 0,
	      "entropy_avail: 256");
	check(strcmp(get("/proc/sys/kernel/random/poolsize"), "256\n") == 0, "poolsize: 256");

	check(put(som, "128\n") == 4 && strcmp(get(som), "128\n") == 0, "somaxconn set to 128");
	check_err(put(som, "-1"), EINVAL, "somaxconn -1: EINVAL");
	check_err(put(som, "x"), EINVAL, "not a number: EINVAL");
	check(strcmp(get(som), "128\n") == 0, "still 128");

	check(put(range, "40000 40001\n") == 12 && strcmp(get(range), "40000\t40001\n") == 0,
	      "the range set to 40000-40001");
	a = socket(AF_INET, SOCK_STREAM, 0);
	b = socket(AF_INET, SOCK_STREAM, 0);
	c = socket(AF_INET, SOCK_STREAM, 0);
	pa = bound_port(a);
	pb = bound_port(b);
	pc = bound_port(c);
	check(pa >= 40000 && pa <= 40001 && pb >= 40000 && pb <= 40001 && pa != pb,
	      "two binds to port 0: the range's two ports");
	check(pc == -EADDRINUSE, "a third: EADDRINUSE");
	close(a);
	close(b);
	close(c);
	check_err(put(range, "5 4"), EINVAL, "backwards: EINVAL");
	check_err(put(range, "0 10"), EINVAL, "from 0: EINVAL");
	check_err(put(range, "1 65536"), EINVAL, "past 65535: EINVAL");
	check_err(put(range, "1 x"), EINVAL, "not a number: EINVAL");
	check(strcmp(get(range), "40000\t40001\n") == 0, "unchanged");
	check(put(range, "1024 65535") == 10 && strcmp(get(range), "1024\t65535\n") == 0,
	      "1024-65535");
	return 0;
}
