/* preadv2/pwritev2's RWF_ flags, as Linux's kiocb_set_rw_flags takes
 * them: APPEND and NOAPPEND write at the end or at the position whatever
 * O_APPEND says, NOWAIT does not wait on the files that allow it (pipe(2)'s
 * ends, sockets, eventfd/timerfd reads, /dev/zero) and is EOPNOTSUPP on
 * others (tmpfs files, a FIFO opened by its path, /dev/full), NOSIGNAL
 * spares the writer SIGPIPE; ATOMIC, DONTCACHE and unknown bits are
 * EOPNOTSUPP on tmpfs, APPEND with NOAPPEND EINVAL. The file's own flags
 * stay as they were. skas took only HIPRI, DSYNC and SYNC. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"

/* musl has no preadv2 or its flags */
#define X_RWF_HIPRI	0x01
#define X_RWF_DSYNC	0x02
#define X_RWF_SYNC	0x04
#define X_RWF_NOWAIT	0x08
#define X_RWF_APPEND	0x10
#define X_RWF_NOAPPEND	0x20
#define X_RWF_ATOMIC	0x40
#define X_RWF_DONTCACHE 0x80
#define X_RWF_NOSIGNAL	0x100
#ifndef SYS_preadv2
#define SYS_preadv2  327
#define SYS_pwritev2 328
#endif
#define FS_IOC_SETFLAGS _IOW('f', 2, long)
#define FS_APPEND_FL	0x00000020

static int sigpipes;

static void on_sigpipe(int sig)
{
	(void)sig;
	sigpipes++;
}

static ssize_t wr(int fd, const char *s, off_t pos, int flags)
{
	struct iovec v = { (void *)s, strlen(s) };

	return syscall(SYS_pwritev2, fd, &v, 1, pos, 0, flags);
}

static ssize_t rd(int fd, char *buf, size_t n, off_t pos, int flags)
{
	struct iovec v = { buf, n };

	return syscall(SYS_preadv2, fd, &v, 1, pos, 0, flags);
}

static int content_is(int fd, const char *want)
{
	char buf[64];
	ssize_t n = pread(fd, buf, sizeof(buf), 0);

	return n == (ssize_t)strlen(want) && !memcmp(buf, want, (size_t)n);
}

static void regular_files(void)
{
	int fd = memfd_create("rwf", 0), afd;
	char buf[16], path[64];
	struct iovec none = { buf, 0 };

	check(fd >= 0 && write(fd, "0123456789", 10) == 10 && lseek(fd, 2, SEEK_SET) == 2,
	      "a memfd with 10 bytes, at 2");
	check(wr(fd, "ab", 0, X_RWF_HIPRI | X_RWF_DSYNC | X_RWF_SYNC) == 2 &&
		      content_is(fd, "ab23456789"),
	      "HIPRI|DSYNC|SYNC: written at the position asked");
	check(rd(fd, buf, 3, -1, X_RWF_HIPRI) == 3 && lseek(fd, 0, SEEK_CUR) == 5,
	      "HIPRI read at the file position");
	check_err(wr(fd, "x", 0, 0x200), EOPNOTSUPP, "an unknown flag");
	check(syscall(SYS_pwritev2, fd, &none, 1, 0, 0, 0x200) == 0,
	      "nothing to move: no flag is looked at");
	check_err(wr(fd, "x", 0, X_RWF_APPEND | X_RWF_NOAPPEND), EINVAL, "APPEND with NOAPPEND");
	check_err(wr(fd, "x", 0, X_RWF_NOWAIT), EOPNOTSUPP, "NOWAIT write of a tmpfs file");
	check_err(rd(fd, buf, 1, 0, X_RWF_NOWAIT), EOPNOTSUPP, "NOWAIT read of a tmpfs file");
	check_err(wr(fd, "x", 0, X_RWF_ATOMIC), EOPNOTSUPP, "ATOMIC write of a tmpfs file");
	check_err(rd(fd, buf, 1, 0, X_RWF_ATOMIC), EOPNOTSUPP, "ATOMIC read");
	check_err(wr(fd, "x", 0, X_RWF_DONTCACHE), EOPNOTSUPP, "DONTCACHE on tmpfs");
	check(content_is(fd, "ab23456789"), "none of them wrote");

	check(wr(fd, "XY", 0, X_RWF_APPEND) == 2 && content_is(fd, "ab23456789XY") &&
		      lseek(fd, 0, SEEK_CUR) == 5,
	      "APPEND at position 0: at the end, the file position stays");
	check(wr(fd, "Z", -1, X_RWF_APPEND) == 1 && content_is(fd, "ab23456789XYZ") &&
		      lseek(fd, 0, SEEK_CUR) == 13,
	      "APPEND at the file position: at the end, which the position follows");
	check(rd(fd, buf, 2, 0, X_RWF_APPEND) == 2 && !memcmp(buf, "ab", 2),
	      "APPEND on a read: read where asked");
	check((fcntl(fd, F_GETFL) & ~0100000 /* O_LARGEFILE, 0 to glibc */) == O_RDWR,
	      "the file is not O_APPEND after");

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	afd = open(path, O_WRONLY | O_APPEND);
	check(afd >= 0 && lseek(afd, 0, SEEK_SET) == 0, "the memfd open O_APPEND");
	check(wr(afd, "q", 1, X_RWF_NOAPPEND) == 1 && content_is(fd, "aq23456789XYZ"),
	      "NOAPPEND at position 1 of an O_APPEND file: there");
	check(wr(afd, "rs", -1, X_RWF_NOAPPEND) == 2 && content_is(fd, "rs23456789XYZ") &&
		      lseek(afd, 0, SEEK_CUR) == 2,
	      "NOAPPEND at the file position: there, which moves on");
	check(wr(afd, "!", 0, 0) == 1 && content_is(fd, "rs23456789XYZ!"),
	      "without it the file appends again");
	check((fcntl(afd, F_GETFL) & ~0100000 /* O_LARGEFILE, 0 to glibc */) ==
		      (O_WRONLY | O_APPEND),
	      "and stays O_APPEND");
	close(afd);

	{
		struct rlimit rl = { 16, RLIM_INFINITY }, old;

		signal(SIGXFSZ, SIG_IGN);
		getrlimit(RLIMIT_FSIZE, &old);
		setrlimit(RLIMIT_FSIZE, &rl);
		check(wr(fd, "12345", 0, X_RWF_APPEND) == 2 && content_is(fd, "rs23456789XYZ!12"),
		      "APPEND under RLIMIT_FSIZE 16: cut where the end meets it");
		check_err(wr(fd, "3", 0, X_RWF_APPEND), EFBIG, "then EFBIG");
		check(wr(fd, "3", 0, 0) == 1, "at position 0 a write goes");
		setrlimit(RLIMIT_FSIZE, &old);
		signal(SIGXFSZ, SIG_DFL);
	}
	close(fd);
}

static void append_only(void)
{
	char dir[] = "/tmp/rwf_flags.XXXXXX", path[64], buf[4];
	int fd, fl = FS_APPEND_FL, ok;

	if (!mkdtemp(dir)) {
		check(0, "a directory in /tmp");
		return;
	}
	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_RDWR | O_CREAT | O_APPEND, 0600);
	ok = fd >= 0 && write(fd, "abc", 3) == 3 && ioctl(fd, FS_IOC_SETFLAGS, &fl) == 0;
	/* /tmp of a host without chattr's flags: say the same under skas */
	if (!ok && errno == ENOTTY) {
		for (int i = 0; i < 3; i++)
			check(1, "append-only checks: no chattr here");
	} else {
		check(ok, "an append-only file, open O_APPEND");
		check_err(wr(fd, "x", 0, X_RWF_NOAPPEND), EPERM, "NOAPPEND: EPERM");
		check_err(rd(fd, buf, 1, 0, X_RWF_NOAPPEND), EPERM, "on a read too");
		fl = 0;
		ioctl(fd, FS_IOC_SETFLAGS, &fl);
	}
	close(fd);
	unlink(path);
	rmdir(dir);
}

static void streams(void)
{
	int p[2], sv[2], ep, e, tf, dz, df, dn, ff;
	char buf[8], fifo[] = "/tmp/rwf_fifo.XXXXXX";
	long big;

	check(pipe(p) == 0, "a pipe");
	check_err(rd(p[0], buf, 1, -1, X_RWF_NOWAIT), EAGAIN, "NOWAIT read of an empty pipe");
	check(fcntl(p[0], F_GETFL) == O_RDONLY, "which stays blocking");
	check(wr(p[1], "ab", -1, X_RWF_NOWAIT | X_RWF_APPEND) == 2, "NOWAIT|APPEND write to it");
	check(rd(p[0], buf, 8, -1, X_RWF_NOWAIT) == 2 && !memcmp(buf, "ab", 2),
	      "NOWAIT read of it");
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	for (big = 0; write(p[1], "0123456789abcdef", 16) == 16; big++)
		;
	fcntl(p[1], F_SETFL, 0);
	check(big > 0, "the pipe filled");
	check_err(wr(p[1], "x", -1, X_RWF_NOWAIT), EAGAIN, "NOWAIT write to a full pipe");
	check(fcntl(p[1], F_GETFL) == O_WRONLY, "which stays blocking");
	{
		/* a writer blocked with APPEND shows nothing in the shared
		 * file's flags, and loses no F_SETFL made meanwhile */
		pid_t pid = fork();
		int st;

		if (pid == 0)
			_exit(wr(p[1], "0123456789", -1, X_RWF_APPEND) == 10 ? 0 : 1);
		usleep(100000);
		check(fcntl(p[1], F_GETFL) == O_WRONLY,
		      "a writer blocked with APPEND: F_GETFL as before");
		check(fcntl(p[1], F_SETFL, O_NONBLOCK) == 0, "F_SETFL O_NONBLOCK meanwhile");
		fcntl(p[0], F_SETFL, O_NONBLOCK);
		while (waitpid(pid, &st, WNOHANG) == 0)
			if (read(p[0], buf, sizeof(buf)) < 0)
				usleep(1000);
		fcntl(p[0], F_SETFL, 0);
		check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "the writer went on once the pipe drained");
		check(fcntl(p[1], F_GETFL) == (O_WRONLY | O_NONBLOCK), "and O_NONBLOCK stays");
		fcntl(p[1], F_SETFL, 0);
	}
	close(p[0]);
	sigpipes = 0;
	signal(SIGPIPE, on_sigpipe);
	e = (int)wr(p[1], "x", -1, X_RWF_NOSIGNAL);
	/* Linux before 6.18 has no NOSIGNAL: EOPNOTSUPP, and no signal */
	check(e == -1 && (errno == EPIPE || errno == EOPNOTSUPP) && sigpipes == 0,
	      "NOSIGNAL write to a pipe without reader: EPIPE, no SIGPIPE");
	check_err(wr(p[1], "x", -1, 0), EPIPE, "without it: EPIPE");
	check(sigpipes == 1, "and SIGPIPE");
	close(p[1]);

	check(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "a socket pair");
	check_err(rd(sv[0], buf, 1, -1, X_RWF_NOWAIT), EAGAIN, "NOWAIT read of an empty socket");
	check(fcntl(sv[0], F_GETFL) == O_RDWR, "which stays blocking");
	check(wr(sv[1], "hi", -1, X_RWF_NOWAIT) == 2 && rd(sv[0], buf, 8, -1, X_RWF_NOWAIT) == 2,
	      "NOWAIT write and read through it");
	check_err(wr(sv[0], "x", -1, X_RWF_ATOMIC), EOPNOTSUPP, "ATOMIC on a socket");
	close(sv[1]);
	sigpipes = 0;
	e = (int)wr(sv[0], "x", -1, X_RWF_NOSIGNAL);
	check(e == -1 && (errno == EPIPE || errno == EOPNOTSUPP) && sigpipes == 0,
	      "NOSIGNAL send to a closed peer: EPIPE, no SIGPIPE");
	check_err(wr(sv[0], "x", -1, 0), EPIPE, "without it: EPIPE");
	check(sigpipes == 1, "and SIGPIPE");
	close(sv[0]);
	signal(SIGPIPE, SIG_DFL);

	e = eventfd(0, 0);
	check_err(rd(e, buf, 8, -1, X_RWF_NOWAIT), EAGAIN, "NOWAIT read of an eventfd at 0");
	check_err(wr(e, "\1\0\0\0\0\0\0\0", -1, X_RWF_NOWAIT), EOPNOTSUPP,
		  "NOWAIT write of an eventfd: EOPNOTSUPP");
	close(e);
	tf = timerfd_create(CLOCK_MONOTONIC, 0);
	check_err(rd(tf, buf, 8, -1, X_RWF_NOWAIT), EAGAIN, "NOWAIT read of an unarmed timerfd");
	close(tf);
	ep = epoll_create1(0);
	check_err(rd(ep, buf, 8, -1, X_RWF_NOWAIT), EINVAL, "an epoll fd: EINVAL before the flags");
	close(ep);

	dz = open("/dev/zero", O_RDWR);
	check(rd(dz, buf, 8, -1, X_RWF_NOWAIT) == 8 && wr(dz, "x", -1, X_RWF_NOWAIT) == 1,
	      "NOWAIT on /dev/zero");
	dn = open("/dev/null", O_RDWR);
	check(rd(dn, buf, 8, -1, X_RWF_NOWAIT) == 0 && wr(dn, "x", -1, X_RWF_NOWAIT) == 1,
	      "NOWAIT on /dev/null");
	df = open("/dev/full", O_RDWR);
	check_err(rd(df, buf, 8, -1, X_RWF_NOWAIT), EOPNOTSUPP, "NOWAIT on /dev/full: EOPNOTSUPP");
	close(dz);
	close(dn);
	close(df);

	close(mkstemp(fifo));
	unlink(fifo);
	check(mkfifo(fifo, 0600) == 0, "a FIFO");
	ff = open(fifo, O_RDWR);
	check_err(rd(ff, buf, 1, -1, X_RWF_NOWAIT), EOPNOTSUPP,
		  "NOWAIT on a FIFO opened by path: EOPNOTSUPP");
	check(wr(ff, "y", -1, X_RWF_NOAPPEND) == 1 && rd(ff, buf, 1, -1, 0) == 1,
	      "NOAPPEND through it");
	close(ff);
	unlink(fifo);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	regular_files();
	append_only();
	streams();
	return 0;
}
