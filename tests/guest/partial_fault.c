/* Buffers that are only partly accessible: they run from a mapped page
 * into one that is unmapped, PROT_NONE, or (for reads into them) read-only.
 * Linux's answer differs per call: most read paths return what was copied
 * before the fault (EFAULT if nothing was) and consume only that; pipes and
 * AF_UNIX stream sockets count only whole buffers copied and keep the rest
 * queued; a datagram that faults is lost; eventfd's counter is read (reset)
 * before the copy that faults; pipe2 and socketpair close their new fds;
 * rt_sigprocmask sets the new mask before its oldset copy faults; wait4
 * reaps the child before its status copy faults. Every line printed is
 * compared with native Linux: return values, errno, the bytes that arrived
 * before the edge, file positions and what stays queued. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "partial_fault.h"

#define edge_map(kind) edge_map_zeroed(kind, 0)

static int before_fds;

static void reads_file(int kind, const char *fs, const char *path)
{
	unsigned char *e = edge_map(kind);
	struct iovec iov[2];
	char label[128];
	unsigned char small[8];
	int fd = open(path, O_RDONLY);

#define L(s) (snprintf(label, sizeof label, "%s %s %s", fs, kind_name[kind], s), label)
	CALL(L("read 100 at edge-10"), syscall(SYS_read, fd, e - 10, 100));
	show("got", e - 10, 10);
	printf("  pos %ld\n", (long)lseek(fd, 0, SEEK_CUR));
	CALL(L("read 100 at edge"), syscall(SYS_read, fd, e, 100));
	printf("  pos %ld\n", (long)lseek(fd, 0, SEEK_CUR));
	{
		int q = -1;
		CALL(L("FIONREAD"), syscall(SYS_ioctl, fd, FIONREAD, &q));
		printf("  %d\n", q);
	}
	memset(e - 10, '.', 10);
	CALL(L("pread64 100 at edge-10 off 3"), syscall(SYS_pread64, fd, e - 10, 100, 3));
	show("got", e - 10, 10);
	printf("  pos %ld\n", (long)lseek(fd, 0, SEEK_CUR));
	/* an iovec fully copied, then one that straddles, then one never reached */
	lseek(fd, 2, SEEK_SET);
	memset(e - 10, '.', 10);
	iov[0].iov_base = small;
	iov[0].iov_len = 4;
	iov[1].iov_base = e - 6;
	iov[1].iov_len = 50;
	CALL(L("readv 4 + 50 at edge-6"), syscall(SYS_readv, fd, iov, 2));
	show("got", small, 4);
	show("got", e - 6, 6);
	printf("  pos %ld\n", (long)lseek(fd, 0, SEEK_CUR));
	memset(e - 10, '.', 10);
	CALL(L("preadv 4 + 50 at edge-6 off 20"), syscall(SYS_preadv, fd, iov, 2, 20, 0));
	show("got", small, 4);
	show("got", e - 6, 6);
	printf("  pos %ld\n", (long)lseek(fd, 0, SEEK_CUR));
	/* the first iovec straddles: the second is never reached */
	lseek(fd, 0, SEEK_SET);
	iov[0].iov_base = e - 3;
	iov[0].iov_len = 10;
	iov[1].iov_base = small;
	iov[1].iov_len = 4;
	CALL(L("readv 10 at edge-3 + 4"), syscall(SYS_readv, fd, iov, 2));
	printf("  pos %ld\n", (long)lseek(fd, 0, SEEK_CUR));
	close(fd);
	edge_unmap(e);
#undef L
}

static void reads_dev(int kind)
{
	unsigned char *e = edge_map(kind);
	char label[128];
	int fd = open("/dev/zero", O_RDONLY);

#define L(s) (snprintf(label, sizeof label, "%s %s", kind_name[kind], s), label)
	CALL(L("/dev/zero read 100 at edge-10"), syscall(SYS_read, fd, e - 10, 100));
	show("got", e - 10, 10);
	CALL(L("/dev/zero read 5000 at edge-4106"), syscall(SYS_read, fd, e - 4106, 5000));
	close(fd);
	fd = open("/dev/urandom", O_RDONLY);
	CALL(L("/dev/urandom read 100 at edge-10"), syscall(SYS_read, fd, e - 10, 100));
	CALL(L("/dev/urandom read 100 at edge-40"), syscall(SYS_read, fd, e - 40, 100));
	CALL(L("/dev/urandom read 8 at edge"), syscall(SYS_read, fd, e, 8));
	close(fd);
	CALL(L("getrandom 100 at edge-10"), syscall(SYS_getrandom, e - 10, 100, 0));
	CALL(L("getrandom 100 at edge-33"), syscall(SYS_getrandom, e - 33, 100, 0));
	CALL(L("getrandom 5000 at edge-4106"), syscall(SYS_getrandom, e - 4106, 5000, 0));
	edge_unmap(e);
#undef L
}

static void reads_eventfd(int kind)
{
	unsigned char *e = edge_map(kind);
	char label[128];
	unsigned long long v = 0;
	int fd = eventfd(0, EFD_NONBLOCK);

#define L(s) (snprintf(label, sizeof label, "%s %s", kind_name[kind], s), label)
	CALL(L("eventfd read 8 at the edge itself, count 0"), syscall(SYS_read, fd, e, 8));
	CALL(L("eventfd read 4 at the edge itself, count 0"), syscall(SYS_read, fd, e, 4));
	eventfd_write(fd, 7);
	CALL(L("eventfd read 8 at edge-4"), syscall(SYS_read, fd, e - 4, 8));
	show("got", e - 4, 4);
	CALL(L("eventfd then"), syscall(SYS_read, fd, &v, 8));
	printf("  value %llu\n", v);
	eventfd_write(fd, 5);
	CALL(L("eventfd read 100 at edge-8"), syscall(SYS_read, fd, e - 8, 100));
	CALL(L("eventfd read 4 at edge-4"), syscall(SYS_read, fd, e - 4, 4));
	CALL(L("eventfd then"), syscall(SYS_read, fd, &v, 8));
	printf("  value %llu\n", v);
	if (kind != 2) {
		memcpy(e - 4, "\x01\0\0\0", 4);
		CALL(L("eventfd write 8 from edge-4"), syscall(SYS_write, fd, e - 4, 8));
		CALL(L("eventfd then"), syscall(SYS_read, fd, &v, 8));
	}
	close(fd);
	edge_unmap(e);
#undef L
}

/* files of records taken before the copy out: signalfd and inotify lose
 * the record whose copy faults (EFAULT if it was the first), timerfd's
 * ticks are read and its copy may come up short */
static void reads_records(int kind, const char *dir)
{
	unsigned char *e = edge_map(kind);
	char label[128], path[128], buf[512];
	struct signalfd_siginfo si;
	struct itimerspec its;
	unsigned long long v = 0;
	struct pollfd pf;
	sigset_t set, old;
	int fd, i;

#define L(s) (snprintf(label, sizeof label, "%s %s", kind_name[kind], s), label)
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, &old);
	fd = signalfd(-1, &set, SFD_NONBLOCK);
	raise(SIGUSR1);
	raise(SIGUSR2);
	CALL(L("signalfd read 256 at edge-64"), syscall(SYS_read, fd, e - 64, 256));
	CALL(L("then"), read(fd, &si, sizeof si));
	printf("  signo %s\n", si.ssi_signo == SIGUSR2 ? "SIGUSR2" : "other");
	raise(SIGUSR1);
	raise(SIGUSR2);
	CALL(L("signalfd read 256 at edge-160"), syscall(SYS_read, fd, e - 160, 256));
	printf("  signo %s\n",
	       ((struct signalfd_siginfo *)(e - 160))->ssi_signo == SIGUSR1 ? "SIGUSR1" : "other");
	CALL(L("then"), read(fd, &si, sizeof si));
	close(fd);
	sigprocmask(SIG_SETMASK, &old, NULL);

	fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	memset(&its, 0, sizeof its);
	its.it_value.tv_nsec = 1000;
	timerfd_settime(fd, 0, &its, NULL);
	pf.fd = fd;
	pf.events = POLLIN;
	poll(&pf, 1, -1);
	CALL(L("timerfd read 8 at edge-4"), syscall(SYS_read, fd, e - 4, 8));
	show("got", e - 4, 4);
	CALL(L("then"), read(fd, &v, 8));
	timerfd_settime(fd, 0, &its, NULL);
	poll(&pf, 1, -1);
	CALL(L("timerfd read 8 at the edge itself"), syscall(SYS_read, fd, e, 8));
	CALL(L("then"), read(fd, &v, 8));
	close(fd);

	mkdir(dir, 0700);
	fd = inotify_init1(IN_NONBLOCK);
	inotify_add_watch(fd, dir, IN_CREATE);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/n%d", dir, i);
		close(open(path, O_CREAT | O_WRONLY, 0600));
	}
	CALL(L("inotify read 256 at edge-20"), syscall(SYS_read, fd, e - 20, 256));
	CALL(L("then"), read(fd, buf, sizeof buf));
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/n%d", dir, i);
		unlink(path);
	}
	close(fd);
	rmdir(dir);
	edge_unmap(e);
#undef L
}

static void reads_pipe(int kind)
{
	unsigned char *e = edge_map(kind);
	char label[128];
	int p[2];

#define L(s) (snprintf(label, sizeof label, "%s %s", kind_name[kind], s), label)
	pipe2(p, O_NONBLOCK);
	CALL(L("empty pipe read 100 at the edge itself"), syscall(SYS_read, p[0], e, 100));
	write(p[1], "abcdefghijklmnopqrst", 20);
	CALL(L("pipe read 100 at the edge itself"), syscall(SYS_read, p[0], e, 100));
	CALL(L("pipe one buffer, read 100 at edge-10"), syscall(SYS_read, p[0], e - 10, 100));
	show("got", e - 10, 10);
	drain(p[0], 0);
	memset(e - 10, '.', 10);
	/* two pipe buffers: a write of 5 then, after a read emptied the pipe... */
	write(p[1], "ABCDE", 5);
	write(p[1], "FGHIJKLMNOPQRST", 15); /* merges into the same buffer */
	CALL(L("pipe merged buffer, read 100 at edge-10"), syscall(SYS_read, p[0], e - 10, 100));
	show("got", e - 10, 10);
	drain(p[0], 0);
	/* a full page buffer then a second: the first is copied whole */
	{
		static char big[PG + 20];
		memset(big, 'x', PG);
		memcpy(big + PG, "yyyyyyyyyyzzzzzzzzzz", 20);
		write(p[1], big, PG + 20);
		memset(e - PG - 10, '.', PG + 10);
		CALL(L("pipe two buffers, read 5000 at edge-4106"),
		     syscall(SYS_read, p[0], e - PG - 10, 5000));
		show("got", e - 10, 10);
		drain(p[0], 0);
	}
	/* readv: a whole segment, then one that straddles */
	{
		unsigned char small[4];
		struct iovec iov[2] = { { small, 4 }, { e - 6, 50 } };
		write(p[1], "abcdefghijklmnopqrst", 20);
		CALL(L("pipe readv 4 + 50 at edge-6"), syscall(SYS_readv, p[0], iov, 2));
		drain(p[0], 0);
		/* two buffers: the first fills the first segment whole */
		static char page[PG];
		memset(page, 'p', PG);
		write(p[1], page, PG);
		write(p[1], "cdefghijklmnopqrst", 18);
		iov[0].iov_base = page;
		iov[0].iov_len = PG;
		CALL(L("pipe readv 4096 + 50 at edge-6, two buffers"),
		     syscall(SYS_readv, p[0], iov, 2));
		show("got", e - 6, 6);
		drain(p[0], 0);
		iov[0].iov_base = small;
		iov[0].iov_len = 2;
		iov[1].iov_base = e - 3;
		CALL(L("pipe writev 2 + 50 from edge-3"), syscall(SYS_writev, p[1], iov, 2));
		drain(p[0], 0);
		iov[0].iov_base = page;
		iov[0].iov_len = PG;
		iov[1].iov_base = e - 3;
		iov[1].iov_len = 50;
		CALL(L("pipe writev 4096 + 50 from edge-3"), syscall(SYS_writev, p[1], iov, 2));
		{
			int q = 0;
			ioctl(p[0], FIONREAD, &q);
			printf("  queued %d\n", q);
		}
		while (read(p[0], page, PG) > 0)
			;
	}
	close(p[0]);
	close(p[1]);
	edge_unmap(e);
#undef L
}

static void reads_unix(int kind)
{
	unsigned char *e = edge_map(kind);
	char label[128];
	struct iovec iov;
	struct msghdr mh;
	int s[2];

#define L(s) (snprintf(label, sizeof label, "%s %s", kind_name[kind], s), label)
	socketpair(AF_UNIX, SOCK_STREAM, 0, s);
	send(s[1], "abcdefghijklmnopqrst", 20, 0);
	CALL(L("unix stream one skb, recv 100 at edge-10"),
	     syscall(SYS_recvfrom, s[0], e - 10, 100, MSG_DONTWAIT, NULL, NULL));
	show("got", e - 10, 10);
	drain(s[0], 1);
	memset(e - 10, '.', 10);
	send(s[1], "ABCDE", 5, 0);
	send(s[1], "FGHIJKLMNOPQRST", 15, 0);
	CALL(L("unix stream two skbs, read 100 at edge-10"), syscall(SYS_read, s[0], e - 10, 100));
	show("got", e - 10, 10);
	drain(s[0], 1);
	send(s[1], "abcdefghijklmnopqrst", 20, 0);
	iov.iov_base = e - 10;
	iov.iov_len = 100;
	memset(&mh, 0, sizeof mh);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	CALL(L("unix stream recvmsg 100 at edge-10"),
	     syscall(SYS_recvmsg, s[0], &mh, MSG_DONTWAIT));
	drain(s[0], 1);
	close(s[0]);
	close(s[1]);

	socketpair(AF_UNIX, SOCK_DGRAM, 0, s);
	send(s[1], "abcdefghijklmnopqrst", 20, 0);
	send(s[1], "second", 6, 0);
	memset(e - 10, '.', 10);
	CALL(L("unix dgram recv 100 at edge-10"),
	     syscall(SYS_recvfrom, s[0], e - 10, 100, MSG_DONTWAIT, NULL, NULL));
	show("got", e - 10, 10);
	drain(s[0], 1);
	send(s[1], "abcdefghijklmnopqrst", 20, 0);
	CALL(L("unix dgram recv 100 at edge-10 MSG_PEEK"),
	     syscall(SYS_recvfrom, s[0], e - 10, 100, MSG_DONTWAIT | MSG_PEEK, NULL, NULL));
	CALL(L("unix dgram recvmsg 100 at edge-10"), syscall(SYS_recvmsg, s[0], &mh, MSG_DONTWAIT));
	drain(s[0], 1);
	send(s[1], "abcdefghijklmnopqrst", 20, 0);
	CALL(L("unix dgram read 100 at edge-10"), syscall(SYS_read, s[0], e - 10, 100));
	drain(s[0], 1);
	close(s[0]);
	close(s[1]);

	socketpair(AF_UNIX, SOCK_SEQPACKET, 0, s);
	send(s[1], "abcdefghijklmnopqrst", 20, 0);
	send(s[1], "second", 6, 0);
	CALL(L("unix seqpacket recv 100 at edge-10"),
	     syscall(SYS_recvfrom, s[0], e - 10, 100, MSG_DONTWAIT, NULL, NULL));
	drain(s[0], 1);
	close(s[0]);
	close(s[1]);
	edge_unmap(e);
#undef L
}

/* a pty's slave, raw and then canonical: the line discipline hands a
 * chunk over before the copy to the guest faults */
static void reads_tty(int kind)
{
	unsigned char *e = edge_map(kind);
	char label[128];
	struct termios tio;
	struct pollfd pf;
	int m, sl, canon;

#define L(s) (snprintf(label, sizeof label, "%s %s", kind_name[kind], s), label)
	m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) || unlockpt(m) || (sl = open(ptsname(m), O_RDWR | O_NOCTTY)) < 0) {
		printf("not ok - pty\n");
		exit(1);
	}
	for (canon = 0; canon < 3; canon++) {
		tcgetattr(sl, &tio);
		if (canon != 1)
			cfmakeraw(&tio);
		else
			tio.c_lflag |= ICANON, tio.c_lflag &= ~ECHO;
		tcsetattr(sl, TCSANOW, &tio);
		if (canon < 2) {
			write(m, "abcdefghijklmnopqrst\n", 21);
			pf.fd = sl;
			pf.events = POLLIN;
			poll(&pf, 1, 5000);
			memset(e - 10, '.', 10);
			CALL(L(canon ? "pty canonical read 100 at edge-10"
				     : "pty raw read 100 at edge-10"),
			     syscall(SYS_read, sl, e - 10, 100));
			show("got", e - 10, 10);
		} else {
			/* 150 bytes queued: pieces of 64 from the buffer's start */
			char big[150];
			int i, q = 0;
			for (i = 0; i < 150; i++)
				big[i] = 'A' + i % 26;
			write(m, big, 150);
			for (i = 0; i < 5000 && q < 150; i++) {
				ioctl(sl, FIONREAD, &q);
				if (q < 150)
					usleep(1000);
			}
			CALL(L("pty raw read 200 at edge-100"),
			     syscall(SYS_read, sl, e - 100, 200));
		}
		fcntl(sl, F_SETFL, O_NONBLOCK);
		drain(sl, 0);
		fcntl(sl, F_SETFL, 0);
	}
	close(sl);
	close(m);
	edge_unmap(e);
#undef L
}

static void writes(int kind, const char *fs, const char *path)
{
	unsigned char *e = edge_map(kind);
	unsigned char buf[256];
	struct iovec iov[2];
	char label[128];
	int fd, p[2], s[2];
	long r;

#define L(s) (snprintf(label, sizeof label, "%s %s %s", fs, kind_name[kind], s), label)
	memcpy(e - 10, "0123456789", 10);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CALL(L("write 100 from edge-10"), syscall(SYS_write, fd, e - 10, 100));
	printf("  pos %ld size %ld\n", (long)lseek(fd, 0, SEEK_CUR), (long)lseek(fd, 0, SEEK_END));
	CALL(L("pwrite64 100 from edge-4 off 2"), syscall(SYS_pwrite64, fd, e - 4, 100, 2));
	printf("  size %ld\n", (long)lseek(fd, 0, SEEK_END));
	iov[0].iov_base = "ab";
	iov[0].iov_len = 2;
	iov[1].iov_base = e - 3;
	iov[1].iov_len = 50;
	CALL(L("writev 2 + 50 from edge-3"), syscall(SYS_writev, fd, iov, 2));
	printf("  pos %ld\n", (long)lseek(fd, 0, SEEK_CUR));
	CALL(L("pwritev 2 + 50 from edge-3 off 30"), syscall(SYS_pwritev, fd, iov, 2, 30, 0));
	CALL(L("write 100 from edge"), syscall(SYS_write, fd, e, 100));
	memset(e - PG - 10, 'w', PG);
	lseek(fd, 0, SEEK_END);
	CALL(L("write 5000 from edge-4106"), syscall(SYS_write, fd, e - PG - 10, 5000));
	r = pread(fd, buf, sizeof buf, 0);
	show("file", buf, r > 64 ? 64 : r);
	printf("  size %ld\n", (long)lseek(fd, 0, SEEK_END));
	close(fd);
	unlink(path);

	if (fs[0] != 'h') { /* once: pipes and sockets do not depend on the fs */
		pipe2(p, O_NONBLOCK);
		CALL(L("pipe write 100 from edge-10"), syscall(SYS_write, p[1], e - 10, 100));
		{
			/* no empty buffer is left in the ring: not readable */
			struct pollfd pf = { .fd = p[0], .events = POLLIN };
			int q = -1;
			ioctl(p[0], FIONREAD, &q);
			printf("  poll %d revents %#x queued %d\n", poll(&pf, 1, 0), pf.revents, q);
		}
		drain(p[0], 0);
		CALL(L("pipe write 100 from the edge itself"), syscall(SYS_write, p[1], e, 100));
		drain(p[0], 0);
		write(p[1], "x", 1);
		CALL(L("pipe write 100 from edge-10 after 1 byte"),
		     syscall(SYS_write, p[1], e - 10, 100));
		drain(p[0], 0);
		CALL(L("pipe write 5000 from edge-4106"),
		     syscall(SYS_write, p[1], e - PG - 10, 5000));
		{
			int q = 0;
			ioctl(p[0], FIONREAD, &q);
			printf("  queued %d\n", q);
		}
		drain(p[0], 0);
		/* a full pipe: EAGAIN comes before the copy */
		{
			static char big[PG];
			int k = 0;
			while (write(p[1], big, PG) == PG)
				k++;
			printf("  pipe took %d pages\n", k);
			CALL(L("full pipe write 100 from the edge itself"),
			     syscall(SYS_write, p[1], e, 100));
			while (read(p[0], big, PG) > 0)
				;
		}
		close(p[0]);
		close(p[1]);

		socketpair(AF_UNIX, SOCK_STREAM, 0, s);
		CALL(L("unix stream send 100 from edge-10"),
		     syscall(SYS_sendto, s[0], e - 10, 100, MSG_DONTWAIT, NULL, 0));
		drain(s[1], 1);
		close(s[0]);
		close(s[1]);
		socketpair(AF_UNIX, SOCK_DGRAM, 0, s);
		CALL(L("unix dgram send 100 from edge-10"),
		     syscall(SYS_sendto, s[0], e - 10, 100, MSG_DONTWAIT, NULL, 0));
		drain(s[1], 1);
		close(s[0]);
		close(s[1]);
	}
	edge_unmap(e);
#undef L
}

/* a directory of 10 entries whose names are 2 bytes: every dirent64 is 24
 * bytes, whatever order the file system lists them in */
static void dents(int kind, const char *fs, const char *dir)
{
	unsigned char *e = edge_map(kind);
	char label[128], path[256], buf[4096];
	int i, fd, total = 0, seen = 0;
	long r;

#define L(s) (snprintf(label, sizeof label, "%s %s %s", fs, kind_name[kind], s), label)
	mkdir(dir, 0700);
	for (i = 0; i < 8; i++) {
		snprintf(path, sizeof path, "%s/f%d", dir, i);
		close(open(path, O_CREAT | O_WRONLY, 0600));
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY);
#define G(off)                                                        \
	do {                                                          \
		CALL(L("getdents64 4096 at edge-" #off),              \
		     r = syscall(SYS_getdents64, fd, e - off, 4096)); \
		total += r > 0 ? r / 24 : 0;                          \
	} while (0)
	G(100);
	G(10);
	G(30);
#undef G
	/* no entry lost, none repeated: 10 in all with the ones above */
	while ((r = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
		long off = 0;
		while (off < r) {
			unsigned short reclen = *(unsigned short *)(buf + off + 16);
			seen++;
			off += reclen;
		}
	}
	printf("  then %d more entries, %d in all\n", seen, total + seen);
	close(fd);
	for (i = 0; i < 8; i++) {
		snprintf(path, sizeof path, "%s/f%d", dir, i);
		unlink(path);
	}
	rmdir(dir);
	edge_unmap(e);
#undef L
}

static void misc(int kind)
{
	unsigned char *e = edge_map(kind);
	char label[128];
	sigset_t set, old;
	int before, st, i;
	pid_t pid;

#define L(s) (snprintf(label, sizeof label, "%s %s", kind_name[kind], s), label)
	CALL(L("getcwd 100 at edge-5"), syscall(SYS_getcwd, e - 5, 100));
	CALL(L("readlink 100 at edge-4"), syscall(SYS_readlink, D "link", e - 4, 100));
	memset(e - 4, '.', 4);
	CALL(L("readlink 4 at edge-4"), syscall(SYS_readlink, D "link", e - 4, 4));
	show("got", e - 4, 4);
	CALL(L("readlinkat 100 at edge-4"),
	     syscall(SYS_readlinkat, AT_FDCWD, D "link", e - 4, 100));
	CALL(L("readlink /proc/self/cwd 100 at edge-4"),
	     syscall(SYS_readlink, "/proc/self/cwd", e - 4, 100));
	CALL(L("uname at edge-200"), syscall(SYS_uname, e - 200));
	CALL(L("fstat at edge-64"), syscall(SYS_fstat, 0, e - 64));
	CALL(L("statx at edge-64"), syscall(SYS_statx, AT_FDCWD, D "hello.txt", 0, 0x7ff, e - 64));
	CALL(L("sysinfo at edge-64"), syscall(SYS_sysinfo, e - 64));
	CALL(L("gettimeofday at edge-8"), syscall(SYS_gettimeofday, e - 8, NULL));
	CALL(L("gettimeofday tz at edge-4"), syscall(SYS_gettimeofday, NULL, e - 4));
	CALL(L("clock_gettime at edge-8"), syscall(SYS_clock_gettime, CLOCK_REALTIME, e - 8));
	CALL(L("clock_getres at edge-8"), syscall(SYS_clock_getres, CLOCK_REALTIME, e - 8));
	CALL(L("time at edge-4"), syscall(SYS_time, e - 4));

	before = count_fds();
	CALL(L("pipe2 fds at edge-4"), syscall(SYS_pipe2, e - 4, 0));
	printf("  fds leaked %d\n", count_fds() - before);
	CALL(L("pipe fds at edge-4"), syscall(SYS_pipe, e - 4));
	printf("  fds leaked %d\n", count_fds() - before);
	CALL(L("socketpair fds at edge-4"),
	     syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, e - 4));
	printf("  fds leaked %d\n", count_fds() - before);
	CALL(L("socketpair fds at edge"), syscall(SYS_socketpair, AF_UNIX, SOCK_DGRAM, 0, e));
	printf("  fds leaked %d\n", count_fds() - before);

	pid = fork();
	if (pid == 0)
		_exit(3);
	CALL(L("wait4 status at edge-2"), syscall(SYS_wait4, pid, e - 2, 0, NULL));
	CALL(L("wait4 again"), syscall(SYS_wait4, pid, &st, WNOHANG, NULL));
	pid = fork();
	if (pid == 0)
		_exit(4);
	CALL(L("wait4 rusage at edge-64"), syscall(SYS_wait4, pid, &st, 0, e - 64));
	CALL(L("wait4 again"), syscall(SYS_wait4, pid, &st, WNOHANG, NULL));
	pid = fork();
	if (pid == 0)
		_exit(5);
	CALL(L("waitid info at edge-64"), syscall(SYS_waitid, P_PID, pid, e - 64, WEXITED, NULL));
	CALL(L("wait4 again"), syscall(SYS_wait4, pid, &st, WNOHANG, NULL));
	{
		/* a child not yet exited: no rusage written */
		struct rusage ru;
		int pp[2];
		pipe(pp);
		pid = fork();
		if (pid == 0) {
			char c;
			read(pp[0], &c, 1);
			_exit(6);
		}
		memset(&ru, 0x55, sizeof ru);
		memset(e - 64, 0x55, 64);
		CALL(L("waitid WNOHANG info at edge-64, none exited"),
		     syscall(SYS_waitid, P_PID, pid, e - 64, WEXITED | WNOHANG, &ru));
		printf("  rusage untouched %d\n", ((unsigned char *)&ru)[0] == 0x55);
		show("info", e - 64, 32);
		write(pp[1], "x", 1);
		memset(e - 20, 0x55, 20);
		CALL(L("waitid info at edge-20"),
		     syscall(SYS_waitid, P_PID, pid, e - 20, WEXITED, &ru));
		show("info", e - 20, 16); /* signo, errno, code; padding */
		CALL(L("wait4 again"), syscall(SYS_wait4, pid, &st, WNOHANG, NULL));
		close(pp[0]);
		close(pp[1]);
	}

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_SETMASK, NULL, &old);
	CALL(L("rt_sigprocmask oldset at edge-4"),
	     syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, e - 4, 8));
	sigprocmask(SIG_SETMASK, NULL, &set);
	printf("  SIGUSR1 blocked now %d\n", sigismember(&set, SIGUSR1));
	sigprocmask(SIG_SETMASK, &old, NULL);
	memcpy(e - 4, "\0\0\0\0", 4);
	if (kind != 2)
		CALL(L("rt_sigprocmask set at edge-4"),
		     syscall(SYS_rt_sigprocmask, SIG_BLOCK, e - 4, NULL, 8));
	CALL(L("rt_sigpending at edge-4"), syscall(SYS_rt_sigpending, e - 4, 8));

	/* process_vm_readv of our own memory: the local side straddles */
	{
		static char src[100];
		struct iovec l, rm;
		for (i = 0; i < 100; i++)
			src[i] = 'a' + i % 26;
		memset(e - 10, '.', 10);
		l.iov_base = e - 10;
		l.iov_len = 100;
		rm.iov_base = src;
		rm.iov_len = 100;
		CALL(L("process_vm_readv local at edge-10"),
		     syscall(SYS_process_vm_readv, getpid(), &l, 1, &rm, 1, 0));
		show("got", e - 10, 10);
		if (kind != 2) {
			/* the remote side straddles */
			memcpy(e - 10, "0123456789", 10);
			l.iov_base = src;
			rm.iov_base = e - 10;
			CALL(L("process_vm_readv remote at edge-10"),
			     syscall(SYS_process_vm_readv, getpid(), &l, 1, &rm, 1, 0));
			show("got", (unsigned char *)src, 12);
		}
	}
	edge_unmap(e);
#undef L
}

static void on_usr2(int sig)
{
	(void)sig;
}

/* calls that change something, then copy the old value out: the change
 * stays when that copy faults */
static void misc2(int kind)
{
	unsigned char *e = edge_map(kind);
	char label[128], buf[64];
	struct sigaction sa, cur;
	stack_t ss, cur_ss;
	struct itimerval it, cur_it;
	struct rlimit rl, cur_rl, save_rl;
	struct sockaddr_un sun;
	socklen_t alen;
	int fd, l, c, a, s[2];
	long r;

#define L(s) (snprintf(label, sizeof label, "%s %s", kind_name[kind], s), label)
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr2;
	CALL(L("rt_sigaction oldact at edge-8"), syscall(SYS_rt_sigaction, SIGUSR2, &sa, e - 8, 8));
	sigaction(SIGUSR2, NULL, &cur);
	printf("  handler set %d\n", cur.sa_handler == on_usr2);
	signal(SIGUSR2, SIG_DFL);

	ss.ss_sp = malloc(65536);
	ss.ss_size = 65536;
	ss.ss_flags = 0;
	CALL(L("sigaltstack old at edge-8"), syscall(SYS_sigaltstack, &ss, e - 8));
	sigaltstack(NULL, &cur_ss);
	printf("  altstack set %d\n", cur_ss.ss_sp == ss.ss_sp);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);

	memset(&it, 0, sizeof it);
	it.it_value.tv_sec = 1000;
	CALL(L("setitimer old at edge-8"), syscall(SYS_setitimer, ITIMER_REAL, &it, e - 8));
	getitimer(ITIMER_REAL, &cur_it);
	printf("  timer armed %d\n", cur_it.it_value.tv_sec > 0);
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_REAL, &it, NULL);

	getrlimit(RLIMIT_CORE, &save_rl);
	rl.rlim_cur = 0;
	rl.rlim_max = save_rl.rlim_max;
	CALL(L("prlimit64 old at edge-8"), syscall(SYS_prlimit64, 0, RLIMIT_CORE, &rl, e - 8));
	getrlimit(RLIMIT_CORE, &cur_rl);
	printf("  limit set %d\n", cur_rl.rlim_cur == 0);
	setrlimit(RLIMIT_CORE, &save_rl);

	/* the mask's size is the kernel's (NR_CPUS) own: copied whole or not */
	{
		long sz = syscall(SYS_sched_getaffinity, 0, 128, buf);
		r = syscall(SYS_sched_getaffinity, 0, 128, e - sz);
		printf("%s: %s\n", L("sched_getaffinity 128 at edge-size"),
		       r == sz ? "r=size" : res(r, errno));
		CALL(L("sched_getaffinity 128 at edge-size+4"),
		     syscall(SYS_sched_getaffinity, 0, 128, e - sz + 4));
	}

	/* accept4 whose address copy faults: the connection is dropped */
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path + 1, sizeof sun.sun_path - 1, "partial_fault.%d.%d", getpid(), kind);
	l = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	bind(l, (struct sockaddr *)&sun, sizeof sun);
	listen(l, 4);
	c = socket(AF_UNIX, SOCK_STREAM, 0);
	connect(c, (struct sockaddr *)&sun, sizeof sun);
	alen = 110;
	before_fds = count_fds();
	CALL(L("accept4 addr at edge-1"), syscall(SYS_accept4, l, e - 1, &alen, SOCK_NONBLOCK));
	printf("  fds leaked %d\n", count_fds() - before_fds);
	CALL(L("accept4 again"), a = syscall(SYS_accept4, l, NULL, NULL, SOCK_NONBLOCK));
	if (a >= 0)
		close(a);
	CALL(L("the client's read"), syscall(SYS_recvfrom, c, buf, 10, MSG_DONTWAIT, NULL, NULL));
	close(c);
	CALL(L("getsockname at edge-1"), syscall(SYS_getsockname, l, e - 1, &alen));
	close(l);

	/* recvfrom whose address copy faults: the datagram is gone */
	socketpair(AF_UNIX, SOCK_DGRAM, 0, s);
	send(s[1], "datagram", 8, 0);
	alen = 110;
	memset(buf, '.', 8);
	CALL(L("unix dgram recvfrom addr at edge-1"),
	     syscall(SYS_recvfrom, s[0], buf, 8, MSG_DONTWAIT, e - 1, &alen));
	show("got", (unsigned char *)buf, 8);
	drain(s[0], 1);
	alen = 110;
	send(s[1], "datagram", 8, 0);
	CALL(L("unix dgram recvfrom addrlen at edge-2"),
	     syscall(SYS_recvfrom, s[0], buf, 8, MSG_DONTWAIT, buf + 16, e - 2));
	drain(s[0], 1);
	close(s[0]);
	close(s[1]);

	/* a /proc file keeps what did not fit for the next read */
	fd = open("/proc/self/comm", O_RDONLY);
	memset(e - 4, '.', 4);
	CALL(L("/proc/self/comm read 100 at edge-4"), syscall(SYS_read, fd, e - 4, 100));
	show("got", e - 4, 4);
	printf("  pos %ld\n", (long)lseek(fd, 0, SEEK_CUR));
	r = read(fd, buf, sizeof buf);
	show("then", (unsigned char *)buf, r > 0 ? r : 0);
	close(fd);

	fd = open(D "dir", O_RDONLY | O_DIRECTORY);
	CALL(L("getdents into 10 bytes before the edge"), syscall(SYS_getdents, fd, e - 10, 4096));
	close(fd);
	fd = open(D "hello.txt", O_RDONLY);
	CALL(L("ioctl FIONREAD of a file at edge-2"), syscall(SYS_ioctl, fd, FIONREAD, e - 2));
	close(fd);
	edge_unmap(e);
#undef L
}

int main(void)
{
	char tpath[64], spath[64], tdir[64], sdir[64], idir[64];
	int kind;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# partial_fault\n");
	/* names of our own: native tests of other suites may run beside us */
	snprintf(tpath, sizeof tpath, "/tmp/partial_fault.%d", getpid());
	snprintf(spath, sizeof spath, "/dev/shm/partial_fault.%d", getpid());
	snprintf(tdir, sizeof tdir, "/tmp/partial_fault_d.%d", getpid());
	snprintf(sdir, sizeof sdir, "/dev/shm/partial_fault_d.%d", getpid());
	snprintf(idir, sizeof idir, "/tmp/partial_fault_i.%d", getpid());
	for (kind = 0; kind < 3; kind++) {
		reads_file(kind, "hostfile", D "hello.txt");
		{
			int fd = open(spath, O_RDWR | O_CREAT | O_TRUNC, 0600);
			write(fd, "Hello, world!\nThis is the skas test fixture.\n", 45);
			close(fd);
			reads_file(kind, "shm", spath);
			unlink(spath);
		}
		reads_dev(kind);
		reads_eventfd(kind);
		reads_records(kind, idir);
		reads_pipe(kind);
		reads_unix(kind);
		reads_tty(kind);
		dents(kind, "tmp", tdir);
		dents(kind, "shm", sdir);
		misc(kind);
		misc2(kind);
		if (kind != 2) {
			writes(kind, "shm", spath);
			writes(kind, "hostfile", tpath);
		}
	}
	printf("ok - done\n");
	return 0;
}
