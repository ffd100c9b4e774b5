/* inotify: init flags, add_watch/rm_watch errors and mask flags
 * (IN_ONLYDIR, IN_DONT_FOLLOW, IN_MASK_ADD, IN_MASK_CREATE, IN_ONESHOT,
 * IN_EXCL_UNLINK), the events of file and directory operations in Linux's
 * order (a directory hears about its entry before the entry's own watch),
 * move cookies, IN_DELETE_SELF/IN_IGNORED, coalescing, short buffers,
 * FIONREAD, poll/epoll, blocking reads woken by another process or a
 * signal, and IN_Q_OVERFLOW past max_queued_events. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"
static char got[8192];
static unsigned cookies[16];
static int ncookies;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Reads what is queued (non-blocking fd) into got: "wd:mask[:name][:c]"
 * separated by spaces; move cookies go to cookies[]. */
static void drain(int in)
{
	char buf[65536] __attribute__((aligned(8)));
	size_t pos = 0;
	ssize_t r;

	got[0] = 0;
	ncookies = 0;
	while ((r = read(in, buf, sizeof(buf))) > 0) {
		char *p;

		for (p = buf; p < buf + r;) {
			struct inotify_event *e = (struct inotify_event *)p;

			pos += snprintf(got + pos, sizeof(got) - pos, "%s%d:%x%s%s%s",
					pos ? " " : "", e->wd, e->mask, e->len ? ":" : "",
					e->len ? e->name : "", e->cookie ? ":c" : "");
			if (e->cookie && ncookies < 16)
				cookies[ncookies++] = e->cookie;
			p += sizeof(*e) + e->len;
			if (pos >= sizeof(got) - 64)
				return;
		}
	}
}

static void expect(int in, const char *want, const char *what)
{
	drain(in);
	if (strcmp(got, want) == 0)
		printf("ok %d - %s\n", ++n, what);
	else
		printf("not ok %d - %s: got \"%s\", want \"%s\"\n", ++n, what, got, want);
}

static void touch(const char *p)
{
	close(open(p, O_CREAT | O_WRONLY, 0644));
}

static void errors(void)
{
	int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC), fd = open("/dev/null", O_RDONLY);
	char c;

	check(in >= 0, "inotify_init1(IN_NONBLOCK|IN_CLOEXEC)");
	check(fcntl(in, F_GETFD) == FD_CLOEXEC, "close-on-exec");
	check((fcntl(in, F_GETFL) & (O_NONBLOCK | O_ACCMODE)) == O_NONBLOCK, "O_RDONLY|O_NONBLOCK");
	check_err(read(in, &c, 1), EAGAIN, "empty, non-blocking");
	{
		char link[64], target[64];
		ssize_t r;

		snprintf(link, sizeof(link), "/proc/self/fd/%d", in);
		r = readlink(link, target, sizeof(target) - 1);
		target[r > 0 ? r : 0] = 0;
		check(strcmp(target, "anon_inode:inotify") == 0,
		      "/proc/self/fd: anon_inode:inotify");
	}
	check_err(inotify_init1(O_APPEND), EINVAL, "inotify_init1 with a bad flag");
	check_err(inotify_add_watch(-1, ".", IN_ALL_EVENTS), EBADF, "add_watch: bad fd");
	check_err(inotify_add_watch(fd, ".", IN_ALL_EVENTS), EINVAL, "add_watch: not inotify");
	check_err(inotify_add_watch(in, ".", 0), EINVAL, "add_watch: empty mask");
	check_err(inotify_add_watch(in, ".", IN_MODIFY | IN_MASK_ADD | IN_MASK_CREATE), EINVAL,
		  "add_watch: MASK_ADD|MASK_CREATE");
	check_err(inotify_add_watch(in, "nope", IN_MODIFY), ENOENT, "add_watch: missing path");
	touch("f");
	check_err(inotify_add_watch(in, "f", IN_MODIFY | IN_ONLYDIR), ENOTDIR,
		  "add_watch: IN_ONLYDIR on a file");
	check(inotify_add_watch(in, ".", IN_MODIFY | IN_ONLYDIR) == 1, "first wd is 1");
	check(inotify_add_watch(in, "./", IN_ATTRIB) == 1, "the same inode: the same wd");
	check_err(inotify_add_watch(in, ".", IN_ATTRIB | IN_MASK_CREATE), EEXIST,
		  "IN_MASK_CREATE on a watched inode");
	check(inotify_add_watch(in, "f", IN_ATTRIB) == 2, "next wd is 2");
	check_err(inotify_rm_watch(in, 7), EINVAL, "rm_watch: unknown wd");
	check_err(inotify_rm_watch(fd, 1), EINVAL, "rm_watch: not inotify");
	check_err(inotify_rm_watch(-1, 1), EBADF, "rm_watch: bad fd");
	check(inotify_rm_watch(in, 2) == 0, "rm_watch");
	expect(in, "2:8000", "IN_IGNORED for it");
	check(inotify_add_watch(in, "f", IN_ATTRIB) == 3, "wds are not reused at once");
	unlink("f");
	expect(in, "3:4 3:8000", "unlink: IN_ATTRIB (IN_DELETE_SELF not asked for), IN_IGNORED");
	close(in);
	close(fd);
}

static void operations(void)
{
	int in = inotify_init1(IN_NONBLOCK), fd, dfd;
	char buf[1024];

	mkdir("sub", 0755);
	touch("f");
	touch("g");
	check(inotify_add_watch(in, ".", IN_ALL_EVENTS) == 1 &&
		      inotify_add_watch(in, "f", IN_ALL_EVENTS) == 2 &&
		      inotify_add_watch(in, "sub", IN_ALL_EVENTS) == 3 &&
		      inotify_add_watch(in, "g", IN_ALL_EVENTS) == 4,
	      "four watches");
	fd = open("f", O_RDWR | O_TRUNC);
	write(fd, "x", 1);
	pread(fd, buf, 1, 0);
	close(fd);
	expect(in, "1:20:f 2:20 1:2:f 2:2 1:2:f 2:2 1:1:f 2:1 1:8:f 2:8",
	       "open O_TRUNC, write, pread, close");
	fd = open("f", O_RDONLY);
	read(fd, buf, 1);
	read(fd, buf, 1);
	close(fd);
	expect(in, "1:20:f 2:20 1:1:f 2:1 1:10:f 2:10", "read-only open and close");
	chmod("f", 0600);
	expect(in, "1:4:f 2:4", "chmod");
	truncate("f", 0);
	expect(in, "1:2:f 2:2", "truncate");
	utimensat(AT_FDCWD, "f", NULL, 0);
	expect(in, "1:4:f 2:4", "utimensat");
	rename("f", "sub/f2");
	expect(in, "1:40:f:c 3:80:f2:c 2:800", "rename into a subdirectory");
	check(ncookies == 2 && cookies[0] == cookies[1], "one cookie for the pair");
	rename("sub/f2", "g");
	expect(in, "3:40:f2:c 1:80:g:c 4:4 2:800 4:400 4:8000", "rename over a watched file");
	check(ncookies == 2 && cookies[0] == cookies[1], "one cookie again");
	link("g", "h");
	expect(in, "2:4 1:100:h", "link");
	unlink("h");
	expect(in, "2:4 1:200:h", "unlink of one of two links");
	unlink("g");
	expect(in, "2:4 2:400 2:8000 1:200:g", "unlink of the last link");
	dfd = open("sub", O_RDONLY | O_DIRECTORY);
	syscall(SYS_getdents64, dfd, buf, sizeof(buf));
	close(dfd);
	expect(in, "1:40000020:sub 3:40000020 1:40000001:sub 3:40000001 1:40000010:sub 3:40000010",
	       "readdir of a watched directory");
	chmod("sub", 0700);
	expect(in, "1:40000004:sub 3:40000004", "chmod of a directory");
	rename("sub", "sub2");
	expect(in, "1:40000040:sub:c 1:40000080:sub2:c 3:800", "rename of a directory");
	rmdir("sub2");
	expect(in, "3:400 3:8000 1:40000200:sub2", "rmdir");
	mkdir("s2", 0755);
	touch("s2/x");
	symlink("x", "ln");
	mknod("fifo", S_IFIFO | 0644, 0);
	expect(in, "1:40000100:s2 1:100:ln 1:100:fifo", "mkdir, symlink, mknod");
	setxattr("s2/x", "user.a", "1", 1, 0);
	check(inotify_add_watch(in, "s2/x", IN_ATTRIB) == 5, "watch s2/x");
	if (setxattr("s2/x", "user.a", "2", 1, 0) == 0)
		expect(in, "5:4", "setxattr");
	else
		check(1, "setxattr (no user xattrs here)");
	unlink("ln");
	unlink("fifo");
	unlink("s2/x");
	rmdir("s2");
	expect(in, "1:200:ln 1:200:fifo 5:4 5:8000 1:40000200:s2", "removals");
	check(inotify_rm_watch(in, 1) == 0, "rm_watch of the directory");
	expect(in, "1:8000", "IN_IGNORED");
	touch("quiet");
	unlink("quiet");
	expect(in, "", "no more events");
	close(in);
}

static void flags(void)
{
	int in = inotify_init1(IN_NONBLOCK), fd, wd;

	touch("f");
	symlink("f", "l");
	wd = inotify_add_watch(in, "f", IN_MODIFY | IN_ONESHOT);
	fd = open("f", O_WRONLY);
	write(fd, "a", 1);
	write(fd, "a", 1);
	expect(in, "1:2 1:8000", "IN_ONESHOT: one event, then IN_IGNORED");
	write(fd, "a", 1);
	expect(in, "", "then nothing");
	wd = inotify_add_watch(in, "f", IN_MODIFY);
	check(wd == 2, "a new watch");
	check(inotify_add_watch(in, "l", IN_ATTRIB | IN_MASK_ADD) == wd,
	      "through the symlink: the same file");
	write(fd, "a", 1);
	fchmod(fd, 0644);
	expect(in, "2:2 2:4", "IN_MASK_ADD keeps IN_MODIFY");
	inotify_add_watch(in, "f", IN_ATTRIB);
	write(fd, "a", 1);
	fchmod(fd, 0600);
	expect(in, "2:4", "without IN_MASK_ADD the mask is replaced");
	wd = inotify_add_watch(in, "l", IN_ATTRIB | IN_DONT_FOLLOW);
	check(wd == 3, "IN_DONT_FOLLOW watches the link itself");
	fchmod(fd, 0644);
	expect(in, "2:4", "the link's watch does not hear the target");
	close(fd);
	unlink("l");
	expect(in, "3:4 3:8000", "it hears its own removal");
	inotify_add_watch(in, ".", IN_MODIFY | IN_EXCL_UNLINK);
	fd = open("f", O_WRONLY);
	write(fd, "a", 1);
	expect(in, "4:2:f", "a child's write, heard by the directory");
	unlink("f");
	expect(in, "2:4", "its unlink: the file is still open");
	write(fd, "a", 1);
	expect(in, "", "IN_EXCL_UNLINK: nothing after the unlink");
	close(fd);
	inotify_add_watch(in, ".", IN_MODIFY);
	touch("f");
	fd = open("f", O_WRONLY);
	unlink("f");
	write(fd, "a", 1);
	expect(in, "2:8000 4:2:f",
	       "the last close ended the old watch; without IN_EXCL_UNLINK the unlinked child "
	       "reports");
	close(fd);
	close(in);
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void reading(void)
{
	int in = inotify_init(), fd, avail = -1, epfd, st;
	char buf[256] __attribute__((aligned(8)));
	struct pollfd pfd = { .events = POLLIN };
	struct epoll_event ev = { .events = EPOLLIN }, out;
	struct sigaction sa;
	struct itimerval it = { { 0, 100000 },
				{ 0, 100000 } }; /* repeats: a late call is still hit */
	pid_t pid;

	pfd.fd = in;
	inotify_add_watch(in, ".", IN_CREATE | IN_MODIFY);
	check(poll(&pfd, 1, 0) == 0, "poll: nothing yet");
	epfd = epoll_create1(0);
	ev.data.fd = in;
	epoll_ctl(epfd, EPOLL_CTL_ADD, in, &ev);
	check(epoll_wait(epfd, &out, 1, 0) == 0, "epoll: nothing yet");
	touch("a-long-name-of-twenty");
	check(poll(&pfd, 1, 0) == 1 && pfd.revents == POLLIN, "poll: POLLIN");
	check(epoll_wait(epfd, &out, 1, 0) == 1 && out.data.fd == in, "epoll: ready");
	ioctl(in, FIONREAD, &avail);
	check(avail == 16 + 32, "FIONREAD: 16 + the name padded to 32");
	check_err(read(in, buf, 16), EINVAL, "a buffer too short for the event");
	check_err(read(in, buf, 47), EINVAL, "one byte short");
	check(read(in, buf, 48) == 48, "exactly one event");
	fd = open("a-long-name-of-twenty", O_WRONLY);
	write(fd, "x", 1);
	write(fd, "x", 1);
	write(fd, "x", 1);
	ioctl(in, FIONREAD, &avail);
	check(avail == 48, "identical events coalesce");
	touch("b");
	check(read(in, buf, 64) == 48, "a read returns only whole events");
	check(read(in, buf, sizeof(buf)) == 32, "then the next");
	pid = fork();
	if (pid == 0) {
		sleep_ms(100);
		touch("c");
		_exit(0);
	}
	check(read(in, buf, sizeof(buf)) == 32 &&
		      strcmp(((struct inotify_event *)buf)->name, "c") == 0,
	      "a blocking read woken by another process's change");
	waitpid(pid, &st, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	check_err(read(in, buf, sizeof(buf)), EINTR, "a blocking read interrupted by a signal");
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	close(fd);
	close(epfd);
	unlink("a-long-name-of-twenty");
	unlink("b");
	unlink("c");
	close(in);
}

static void overflow(void)
{
	int in = inotify_init1(IN_NONBLOCK), fd = open("big", O_RDWR | O_CREAT, 0644), i;
	int events = 0, overflows = 0, last_wd = 0;
	char buf[65536] __attribute__((aligned(8))), c = 'x', limit[32] = "";
	ssize_t r;
	FILE *f = fopen("/proc/sys/fs/inotify/max_queued_events", "r");

	if (f) {
		if (!fgets(limit, sizeof(limit), f))
			limit[0] = 0;
		fclose(f);
	}
	check(strcmp(limit, "16384\n") == 0, "max_queued_events is 16384");
	inotify_add_watch(in, "big", IN_MODIFY | IN_ACCESS);
	for (i = 0; i < 9000; i++) {
		pwrite(fd, &c, 1, 0);
		pread(fd, &c, 1, 0);
	}
	while ((r = read(in, buf, sizeof(buf))) > 0) {
		char *p;

		for (p = buf; p < buf + r; p += sizeof(struct inotify_event)) {
			struct inotify_event *e = (struct inotify_event *)p;

			if (e->mask == IN_Q_OVERFLOW && e->wd == -1)
				overflows++;
			else
				events++;
			last_wd = e->wd;
		}
	}
	check(events == 16384 && overflows == 1 && last_wd == -1,
	      "16384 events, then one IN_Q_OVERFLOW");
	pwrite(fd, &c, 1, 0);
	drain(in);
	check(strcmp(got, "1:2") == 0, "events flow again once read");
	close(fd);
	unlink("big");
	close(in);
}

/* A user may have 128 instances (max_user_instances): EMFILE beyond. A
 * fresh uid, so that the host's own instances (natively) do not count. */
static void limits(void)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		int i, fd = -1, last = -1;
		char buf[32] = "";
		FILE *f = fopen("/proc/sys/fs/inotify/max_user_instances", "r");

		if (!f || !fgets(buf, sizeof(buf), f) || strcmp(buf, "128\n"))
			_exit(1);
		fclose(f);
		if (setgid(54321) < 0 || setuid(54321) < 0)
			_exit(2);
		for (i = 0; i < 200; i++) {
			fd = inotify_init1(IN_CLOEXEC);
			if (fd < 0)
				break;
			last = fd;
		}
		if (i != 128 || errno != EMFILE)
			_exit(3);
		close(last);
		if (inotify_init() < 0)
			_exit(4);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "128 instances per user, EMFILE beyond, one more after a close");
}

/* exec of a watched program: IN_OPEN, IN_ACCESS (the kernel reads its
 * headers), IN_CLOSE_NOWRITE when the process is gone. */
static void exec_events(void)
{
	char self[4096];
	ssize_t r = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int in = inotify_init1(IN_NONBLOCK), st;
	pid_t pid;

	if (r <= 0) {
		check(0, "readlink /proc/self/exe");
		return;
	}
	self[r] = 0;
	inotify_add_watch(in, self, IN_ALL_EVENTS);
	pid = fork();
	if (pid == 0) {
		execl(self, "vfs_inotify", "--exit", (char *)NULL);
		_exit(1);
	}
	waitpid(pid, &st, 0);
	expect(in, "1:20 1:1 1:10", "exec: open, access, close");
	close(in);
}

int main(int argc, char **argv)
{
	char dir[64] = "/tmp/skas-inotify.XXXXXX";

	if (argc > 1 && strcmp(argv[1], "--exit") == 0)
		return 0;
	setvbuf(stdout, NULL, _IONBF, 0);
	if (!mkdtemp(dir) || chdir(dir) < 0)
		return 1;
	errors();
	operations();
	flags();
	reading();
	overflow();
	limits();
	exec_events();
	chdir("/");
	check(rmdir(dir) == 0, "all cleaned up");
	return 0;
}
