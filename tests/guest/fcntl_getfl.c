/* F_GETFL's flags for each kind of file: O_LARGEFILE is open()'s (Linux's
 * force_o_largefile on 64-bit), so a file opened by path, a memfd and a
 * pipe reopened through /proc/self/fd show it, while an O_PATH, a pipe, a
 * socket, an eventfd, a timerfd, an epoll, a signalfd or an inotify fd
 * does not (skas added it to every file). And F_DUPFD_QUERY (Linux 6.10;
 * a host before it says EINVAL, which the lines then show as "old"): 1 for
 * the same open file (a dup, an O_PATH one too), 0 for another, EBADF for
 * a closed fd. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>

static void show(const char *what, int fd)
{
	printf("%-24s %#o\n", what, fd < 0 ? -1 : fcntl(fd, F_GETFL));
}

int main(void)
{
	char path[64];
	sigset_t m;
	int p[2], s[2];

	sigemptyset(&m);
	if (pipe(p) < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, s) < 0)
		return 1;
	show("pipe, read end", p[0]);
	show("pipe, write end", p[1]);
	show("socket", s[0]);
	show("eventfd", eventfd(0, 0));
	show("timerfd", timerfd_create(CLOCK_MONOTONIC, 0));
	show("epoll", epoll_create1(0));
	show("signalfd", signalfd(-1, &m, 0));
	show("inotify", inotify_init1(0));
	show("memfd", (int)syscall(SYS_memfd_create, "x", 0));
	show("open /etc/passwd", open("/etc/passwd", O_RDONLY));
	show("open /dev/null O_RDWR", open("/dev/null", O_RDWR));
	show("O_PATH /etc", open("/etc", O_PATH));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[0]);
	show("pipe reopened by path", open(path, O_RDONLY | O_NONBLOCK));
	{
		int a = open("/etc/passwd", O_RDONLY), b = dup(a),
		    c = open("/etc/passwd", O_RDONLY);
		int o = open("/etc", O_PATH), od = dup(o), r1, r2, r3, r4, e3;

		r1 = fcntl(a, 1027 /* F_DUPFD_QUERY */, b);
		if (r1 == -1 && errno == EINVAL) {
			printf("F_DUPFD_QUERY: old\n");
			return 0;
		}
		r2 = fcntl(a, 1027, c);
		r3 = fcntl(a, 1027, 9999);
		e3 = errno;
		r4 = fcntl(o, 1027, od) + 10 * fcntl(a, 1027, 0x100000000L | b); /* an int */
		printf("F_DUPFD_QUERY: dup %d, another open %d, closed %d %s, O_PATH dup and high "
		       "bits %d\n",
		       r1, r2, r3, e3 == EBADF ? "EBADF" : "?", r4);
	}
	return 0;
}
