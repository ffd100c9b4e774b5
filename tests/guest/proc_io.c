/* /proc/PID/io and /proc/PID/task/TID/io: the bytes and calls of reads
 * and writes (Linux's task_io_accounting). Counted when a call gets past
 * its checks (read/write/pread: a bad fd, a file not open for it or a bad
 * buffer is not counted; readv/writev count any call), sendfile and
 * copy_file_range on both sides; a thread's own counts start at 0, a
 * process's hold its threads gone and the children it reaped. Every
 * figure here is a difference or a count this program alone made: the
 * lines are printed at the end, so stdout's own writes come after. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "tap.h"

struct io {
	unsigned long long rchar, wchar, syscr, syscw, rb, wb, cwb;
	long len; /* bytes the read of it returned */
};

/* One read(2) of the file: the counts before it. */
static int io_read(const char *path, struct io *io)
{
	char buf[512];
	int fd = open(path, O_RDONLY);
	long r;

	memset(io, 0, sizeof(*io));
	if (fd < 0)
		return -1;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return -1;
	buf[r] = 0;
	io->len = r;
	return sscanf(buf,
		      "rchar: %llu\nwchar: %llu\nsyscr: %llu\nsyscw: %llu\nread_bytes: %llu\n"
		      "write_bytes: %llu\ncancelled_write_bytes: %llu\n",
		      &io->rchar, &io->wchar, &io->syscr, &io->syscw, &io->rb, &io->wb,
		      &io->cwb) == 7
		       ? 0
		       : -1;
}

static char lines[64][160];
static int nlines;

static void note(int cond, const char *what, long long got, long long want)
{
	snprintf(lines[nlines++], sizeof(lines[0]), "%d|%s: %lld (want %lld)", cond, what, got,
		 want);
}

static char *volatile low_ptr = (char *)8;
static char *volatile kernel_ptr = (char *)0xffff888000000000UL;
static int tfd = -1;
static struct io thread_io;
static int thread_ok;

static void *thread_main(void *arg)
{
	char buf[8], path[64];

	(void)arg;
	thread_ok = pread(tfd, buf, 7, 0) == 7;
	snprintf(path, sizeof(path), "/proc/self/task/%ld/io", (long)syscall(SYS_gettid));
	if (io_read(path, &thread_io) < 0)
		thread_ok = 0;
	return NULL;
}

int main(void)
{
	char buf[4096], path[64] = "/tmp/skas-procio-XXXXXX";
	struct io a, b;
	struct iovec iov[2];
	struct stat st;
	int p[2], fd, out, w, ro, i, status;
	pthread_t th;
	pid_t pid;
	long k;

	memset(buf, 'x', sizeof(buf));
	fd = mkstemp(path);
	if (fd < 0 || write(fd, buf, 1000) != 1000 || pipe(p) < 0)
		return 1;
	tfd = fd;
	out = open("/dev/null", O_WRONLY);
	w = open(path, O_WRONLY);
	ro = open(path, O_RDONLY);

	check(stat("/proc/self/io", &st) == 0 && (st.st_mode & 0777) == 0400,
	      "/proc/self/io is mode 0400");
	check(io_read("/proc/self/io", &a) == 0, "/proc/self/io has its seven fields");

	/* counted: 2 reads (60 and the 40 left), 2 writes (100 and 0), a
	 * pread (10), a read of 0 bytes, a read at the end (0 bytes), a
	 * pread into an unmapped buffer (EFAULT after the checks) */
	k = write(p[1], buf, 100);
	k += read(p[0], buf, 60);
	k += read(p[0], buf, 50);
	k += pwrite(w, buf, 0, 0);
	k += pread(fd, buf, 10, 5);
	k += read(fd, buf, 0);
	lseek(fd, 0, SEEK_END);
	k += read(fd, buf, 10);
	k += pread(fd, low_ptr, 1, 0);
	/* not counted: a bad fd, a file not open for reading or writing, a
	 * buffer in the kernel's half, a pread on a pipe */
	k += read(-1, buf, 1) + write(-1, buf, 1) + read(out, buf, 1) + write(ro, buf, 1);
	k += read(p[0], kernel_ptr, 1) + write(p[1], kernel_ptr, 1) + pread(p[0], buf, 1, 0);
	/* readv and writev: counted, a bad fd too (2 reads 30 bytes, 2
	 * writes 30 bytes) */
	iov[0].iov_base = buf;
	iov[0].iov_len = 10;
	iov[1].iov_base = buf + 10;
	iov[1].iov_len = 20;
	k += writev(p[1], iov, 2) + readv(p[0], iov, 2);
	k += writev(-1, iov, 2) + readv(-1, iov, 2);
	/* sendfile and copy_file_range: both sides (64 bytes each); one of
	 * 0 bytes is not counted */
	k += sendfile(out, fd, &(off_t){ 0 }, 64);
	k += copy_file_range(fd, &(off_t){ 0 }, w, &(off_t){ 2000 }, 0, 0);
	(void)k;
	check(io_read("/proc/self/io", &b) == 0, "read again");
	note(b.rchar - a.rchar - a.len == 60 + 40 + 10 + 30 + 64, "rchar",
	     b.rchar - a.rchar - a.len, 60 + 40 + 10 + 30 + 64);
	note(b.wchar - a.wchar == 100 + 30 + 64, "wchar", b.wchar - a.wchar, 100 + 30 + 64);
	note(b.syscr - a.syscr - 1 == 6 + 2 + 1, "syscr", b.syscr - a.syscr - 1, 6 + 2 + 1);
	note(b.syscw - a.syscw == 2 + 2 + 1, "syscw", b.syscw - a.syscw, 2 + 2 + 1);

	/* a thread's own counts start at 0; once it is gone, the process's
	 * keep them */
	a = b;
	if (pthread_create(&th, NULL, thread_main, NULL) == 0)
		pthread_join(th, NULL);
	check(thread_ok, "the thread read its own /proc/self/task/TID/io");
	note(thread_io.rchar == 7 && thread_io.syscr == 1, "the thread's rchar", thread_io.rchar,
	     7);
	note(thread_io.syscr == 1 && thread_io.wchar == 0 && thread_io.syscw == 0,
	     "the thread's syscr", thread_io.syscr, 1);
	io_read("/proc/self/io", &b);
	note(b.rchar - a.rchar - a.len == 7 + thread_io.len, "rchar with the thread gone",
	     b.rchar - a.rchar - a.len, 7 + thread_io.len);
	note(b.syscr - a.syscr - 1 == 2, "syscr with the thread gone", b.syscr - a.syscr - 1, 2);

	/* a child's counts are its own, and its parent's once reaped */
	a = b;
	pid = fork();
	if (pid == 0) {
		struct io c;

		io_read("/proc/self/io", &c);
		_exit(c.rchar == 0 && c.syscr == 0 && c.wchar == 0 && c.syscw == 0 &&
				      pread(fd, buf, 50, 0) == 50
			      ? 0
			      : 1);
	}
	check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0,
	      "a child starts at 0");
	io_read("/proc/self/io", &b);
	note(b.syscr - a.syscr - 1 == 2, "syscr with the child reaped", b.syscr - a.syscr - 1, 2);
	note(b.rchar - a.rchar - a.len > 50, "rchar with the child reaped (its io read too)",
	     b.rchar - a.rchar - a.len > 50, 1);

	/* the main thread's own file is its own counts */
	snprintf(buf, sizeof(buf), "/proc/self/task/%d/io", getpid());
	check(io_read(buf, &b) == 0, "/proc/self/task/PID/io");
	unlink(path);
	for (i = 0; i < nlines; i++)
		check(lines[i][0] == '1', lines[i] + 2);
	return 0;
}
