/* Opening /proc/self/fd/N anew. A pipe is opened as Linux opens its
 * pipefs inode: an open file of its own (its own O_NONBLOCK), one reader
 * or writer more, never waiting for the other side (cat /dev/stdin after
 * the writer left). An anonymous inode's file (eventfd, timerfd,
 * signalfd, epoll, inotify) is named "anon_inode:[...]" and cannot be
 * opened (ENXIO); splice into an eventfd is EINVAL. skas shared the old
 * open file (its flags: a blocking read), named most "anon_inode:[unknown]"
 * and opened them. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>

#include "tap.h"

static int reopen(int fd, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return open(path, flags);
}

static void anon(const char *what, int fd, const char *name)
{
	char path[64], link[128] = "", what2[96];
	ssize_t n;
	int r;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = 0;
	snprintf(what2, sizeof(what2), "%s: %s", what, name);
	check(strcmp(link, name) == 0, what2);
	r = open(path, O_RDONLY | O_NONBLOCK);
	snprintf(what2, sizeof(what2), "%s: opening it anew is ENXIO", what);
	check(r < 0 && errno == ENXIO, what2);
	if (r >= 0)
		close(r);
	close(fd);
}

int main(void)
{
	struct stat a, b;
	sigset_t none;
	int p[2], r, w, e, q[2];
	char buf[16];

	sigemptyset(&none);
	signal(SIGPIPE, SIG_IGN);
	anon("eventfd", eventfd(0, 0), "anon_inode:[eventfd]");
	anon("timerfd", timerfd_create(CLOCK_MONOTONIC, 0), "anon_inode:[timerfd]");
	anon("signalfd", signalfd(-1, &none, 0), "anon_inode:[signalfd]");
	anon("epoll", epoll_create1(0), "anon_inode:[eventpoll]");
	anon("inotify", inotify_init1(0), "anon_inode:inotify");

	if (pipe(p) < 0)
		return 1;
	r = reopen(p[0], O_RDONLY | O_NONBLOCK);
	check(r >= 0 && fstat(r, &a) == 0 && fstat(p[0], &b) == 0 && a.st_ino == b.st_ino,
	      "a pipe's read end opened anew: the same pipe");
	check(read(r, buf, sizeof(buf)) < 0 && errno == EAGAIN,
	      "its own O_NONBLOCK: an empty pipe is EAGAIN");
	check(!(fcntl(p[0], F_GETFL) & O_NONBLOCK), "the old read end stays blocking");
	w = reopen(p[1], O_WRONLY);
	check(w >= 0 && write(w, "abc", 3) == 3, "the write end opened anew writes");
	check(read(p[0], buf, sizeof(buf)) == 3 && memcmp(buf, "abc", 3) == 0,
	      "the old read end reads it");
	close(p[0]);
	check(write(p[1], "de", 2) == 2, "with the old read end closed the new one still reads");
	close(p[1]);
	close(w);
	check(read(r, buf, sizeof(buf)) == 2 && read(r, buf, sizeof(buf)) == 0,
	      "all writers gone: its data, then end of file");
	close(r);

	/* cat /dev/stdin after echo left: no wait for a writer */
	if (pipe(p) < 0)
		return 1;
	check(write(p[1], "xyz", 3) == 3, "a pipe written");
	close(p[1]);
	r = reopen(p[0], O_RDONLY);
	check(r >= 0 && read(r, buf, sizeof(buf)) == 3, "its writer gone, opened anew: no wait");
	close(r);
	close(p[0]);
	/* a writer opened anew with no reader: no ENXIO (a FIFO's O_NONBLOCK
	 * writer would get it), and EPIPE on write */
	if (pipe(p) < 0)
		return 1;
	close(p[0]);
	w = reopen(p[1], O_WRONLY | O_NONBLOCK);
	check(w >= 0, "a write end opened anew with no reader (O_NONBLOCK)");
	check(w >= 0 && write(w, "x", 1) < 0 && errno == EPIPE, "writes EPIPE");
	close(w);
	close(p[1]);

	e = eventfd(0, 0);
	if (pipe(q) < 0 || write(q[1], "12345678", 8) != 8)
		return 1;
	check(splice(q[0], NULL, e, NULL, 8, 0) < 0 && errno == EINVAL,
	      "splice into an eventfd: EINVAL");
	return 0;
}
