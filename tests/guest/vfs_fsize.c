/* RLIMIT_FSIZE: a write to a regular file that starts below the limit is
 * cut to end at it (a short write, no signal); one that starts at or past
 * it fails with EFBIG and SIGXFSZ to the caller, whether or not the file
 * would grow (write, pwrite, writev, O_APPEND writes). truncate and
 * ftruncate past the limit, and fallocate growing the file past it, are
 * EFBIG + SIGXFSZ. copy_file_range cuts or fails like a write (even with
 * nothing to copy); sendfile and splice to a file write again after a
 * short write, so that the second write gets EFBIG and SIGXFSZ while the
 * call returns the short count (Linux's iter_file_splice_write, 5.10 on).
 * Pipes, /dev/null and procfs's files have no limit. A 0-byte write
 * checks nothing.
 * SIGXFSZ's default action kills (with a core): a child shows it.
 * fallocate with KEEP_SIZE differs between filesystems (tmpfs checks, ext4
 * does not): not checked. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "tap.h"

#ifndef SYS_copy_file_range
#define SYS_copy_file_range 326
#endif

#define LIMIT 4096
static char buf[20000];
static volatile sig_atomic_t got;

static void on_xfsz(int sig)
{
	(void)sig;
	got++;
}

/* r is the failure e, or the count want (e 0); sigs SIGXFSZ came since
 * the last check. */
static void expect(long r, int e, long want, int sigs, const char *what)
{
	int err = errno, seen = got;

	got = 0;
	if ((e ? (r == -1 && err == e) : r == want) && seen == sigs) {
		check(1, what);
		return;
	}
	printf("# %s: got %ld (%s) with %d SIGXFSZ, want %ld (%s) with %d\n", what, r,
	       r < 0 ? strerror(err) : "-", seen, e ? -1 : want, e ? strerror(e) : "-", sigs);
	check(0, what);
}

static void set_limit(rlim_t cur)
{
	struct rlimit rl = { cur, RLIM_INFINITY };

	if (setrlimit(RLIMIT_FSIZE, &rl) < 0)
		check(0, "setrlimit");
}

static long cfr(int in, off_t *oi, int out, off_t *oo, size_t len)
{
	return syscall(SYS_copy_file_range, in, oi, out, oo, len, 0);
}

static void writes(int fd, const char *path)
{
	int ap;

	expect(write(fd, buf, 5000), 0, LIMIT, 0, "write of 5000 from 0: cut to 4096");
	expect(write(fd, buf, 1), EFBIG, 0, 1, "write of 1 at the limit: EFBIG, SIGXFSZ");
	expect(write(fd, buf, 0), 0, 0, 0, "write of 0 at the limit: 0, no signal");
	expect(pwrite(fd, buf, 10, LIMIT - 6), 0, 6, 0, "pwrite of 10 at 4090: 6");
	expect(pwrite(fd, buf, 10, 100), 0, 10, 0, "pwrite inside the file: whole");
	expect(pwrite(fd, buf, 1, 5000), EFBIG, 0, 1, "pwrite at 5000: EFBIG, SIGXFSZ");
	expect(pwritev(fd, (struct iovec[]){ { buf, 2000 }, { buf, 2096 }, { buf, 2000 } }, 3, 0),
	       0, LIMIT, 0, "pwritev ending past the limit: cut, no signal");
	expect(pwritev(fd, (struct iovec[]){ { buf, 2048 }, { buf, 2048 }, { buf, 10 } }, 3, 0), 0,
	       LIMIT, 0, "pwritev whose last segment starts at the limit: cut, no signal");
	lseek(fd, LIMIT - 100, SEEK_SET);
	expect(writev(fd, (struct iovec[]){ { buf, 100 }, { buf, 100 } }, 2), 0, 100, 0,
	       "writev at the position: cut at the limit");
	expect(lseek(fd, 0, SEEK_CUR), 0, LIMIT, 0, "... the position is at the limit");
	ap = open(path, O_WRONLY | O_APPEND);
	expect(ftruncate(fd, 4000), 0, 0, 0, "ftruncate to 4000");
	expect(write(ap, buf, 200), 0, 96, 0, "O_APPEND write of 200 at 4000: 96");
	expect(write(ap, buf, 200), EFBIG, 0, 1, "O_APPEND write at the limit: EFBIG, SIGXFSZ");
	close(ap);
	set_limit(RLIM_INFINITY);
	expect(ftruncate(fd, 10000), 0, 0, 0, "no limit: ftruncate to 10000");
	set_limit(LIMIT);
	expect(pwrite(fd, buf, 10, 6000), EFBIG, 0, 1,
	       "pwrite past the limit inside the file: EFBIG, SIGXFSZ");
	expect(pwrite(fd, buf, 5000, 0), 0, LIMIT, 0, "pwrite from 0 inside the file: cut");
	expect(ftruncate(fd, 5000), 0, 0, 0, "ftruncate shrinking past the limit: fine");
}

static void sizes(int fd, const char *path)
{
	expect(ftruncate(fd, 100), 0, 0, 0, "ftruncate to 100");
	expect(ftruncate(fd, LIMIT), 0, 0, 0, "ftruncate to the limit: fine");
	expect(ftruncate(fd, LIMIT + 1), EFBIG, 0, 1, "ftruncate past the limit: EFBIG, SIGXFSZ");
	expect(truncate(path, 5000), EFBIG, 0, 1, "truncate past the limit: EFBIG, SIGXFSZ");
	expect(ftruncate(fd, 100), 0, 0, 0, "ftruncate to 100");
	expect(fallocate(fd, 0, 0, 5000), EFBIG, 0, 1, "fallocate to 5000: EFBIG, SIGXFSZ");
	expect(fallocate(fd, 0, 0, LIMIT), 0, 0, 0, "fallocate to the limit: fine");
	expect(ftruncate(fd, 100), 0, 0, 0, "ftruncate to 100");
}

static void transfers(int fd, int src)
{
	off_t oi = 0, oo = 4000;
	int p[2];

	expect(lseek(fd, 5000, SEEK_SET), 0, 5000, 0, "seek to 5000");
	expect(sendfile(fd, src, &(off_t){ 0 }, 1000), EFBIG, 0, 1,
	       "sendfile to a file at 5000: EFBIG, SIGXFSZ");
	lseek(fd, 4000, SEEK_SET);
	expect(sendfile(fd, src, &(off_t){ 0 }, 1000), 0, 96, 1,
	       "sendfile of 1000 at 4000: 96, then SIGXFSZ from the retry");
	expect(sendfile(fd, src, &(off_t){ 0 }, 1000), EFBIG, 0, 1,
	       "sendfile at the limit: EFBIG, SIGXFSZ");
	expect(ftruncate(fd, 100), 0, 0, 0, "ftruncate to 100");
	expect(cfr(src, &oi, fd, &oo, 1000), 0, 96, 0, "copy_file_range of 1000 to 4000: 96");
	oi = 0;
	oo = 5000;
	expect(cfr(src, &oi, fd, &oo, 1000), EFBIG, 0, 1,
	       "copy_file_range to 5000: EFBIG, SIGXFSZ");
	oi = 10000;
	expect(cfr(src, &oi, fd, &oo, 1000), EFBIG, 0, 1,
	       "copy_file_range from EOF to 5000: EFBIG, SIGXFSZ all the same");
	if (pipe(p) < 0) {
		check(0, "pipe");
		return;
	}
	expect(write(p[1], buf, 1000), 0, 1000, 0, "1000 bytes into a pipe");
	lseek(fd, 4000, SEEK_SET);
	expect(splice(p[0], NULL, fd, NULL, 1000, 0), 0, 96, 1,
	       "splice of 1000 from a pipe to 4000: 96, then SIGXFSZ from the retry");
	expect(splice(p[0], NULL, fd, NULL, 1000, SPLICE_F_NONBLOCK), EFBIG, 0, 1,
	       "splice at the limit: EFBIG, SIGXFSZ");
	close(p[0]);
	close(p[1]);
}

static void no_limit_here(void)
{
	int p[2], dn = open("/dev/null", O_WRONLY);

	if (pipe(p) < 0 || dn < 0) {
		check(0, "pipe, /dev/null");
		return;
	}
	expect(write(p[1], buf, 5000), 0, 5000, 0, "a pipe has no limit");
	lseek(dn, 10000, SEEK_SET);
	expect(write(dn, buf, 5000), 0, 5000, 0, "/dev/null at 10000 has no limit");
	close(p[0]);
	close(p[1]);
	close(dn);
}

/* procfs's files are regular files, but Linux's write handlers there never
 * look at RLIMIT_FSIZE (no generic_write_checks): a limit of 1, or of 0
 * with SIGXFSZ at its default, neither cuts nor refuses them. skas cut
 * "500" to "5" in oom_score_adj, and killed the writer at 0. */
static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	long r;

	if (fd < 0)
		return -1;
	r = write(fd, s, strlen(s));
	close(fd);
	return (int)r;
}

static void pseudo_files(void)
{
	char b[32] = "";
	long w_oom, w_comm;
	int fd, status, got_oom;
	pid_t pid;

	/* Nothing printed under these limits: our stdout may be a file. */
	fflush(stdout);
	set_limit(1);
	w_oom = write_str("/proc/self/oom_score_adj", "500");
	fd = open("/proc/self/oom_score_adj", O_RDONLY);
	got_oom = fd >= 0 && read(fd, b, sizeof(b) - 1) > 0 && strcmp(b, "500\n") == 0;
	close(fd);
	w_comm = write_str("/proc/self/comm", "fsize-test");
	set_limit(0);
	pid = fork();
	if (pid == 0) {
		signal(SIGXFSZ, SIG_DFL);
		_exit(write_str("/proc/self/oom_score_adj", "0") == 1 ? 0 : 1);
	}
	status = -1;
	waitpid(pid, &status, 0);
	set_limit(LIMIT);
	expect(w_oom, 0, 3, 0, "limit 1: /proc/self/oom_score_adj takes \"500\" whole");
	check(got_oom, "oom_score_adj reads 500");
	expect(w_comm, 0, 10, 0, "limit 1: /proc/self/comm takes 10 bytes");
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "limit 0, SIGXFSZ at its default: a procfs write is no reason to die");
}

/* With SIGXFSZ ignored: EFBIG alone. At its default: the writer dies. */
static void dispositions(int fd)
{
	pid_t pid;
	int status;

	signal(SIGXFSZ, SIG_IGN);
	expect(pwrite(fd, buf, 1, 5000), EFBIG, 0, 0, "SIGXFSZ ignored: EFBIG");
	signal(SIGXFSZ, SIG_DFL);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct rlimit core = { 0, 0 };

		setrlimit(RLIMIT_CORE, &core);
		pwrite(fd, buf, 1, 5000);
		_exit(0);
	}
	check(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ,
	      "SIGXFSZ at its default: the writer is killed by it");
	signal(SIGXFSZ, on_xfsz);
}

int main(void)
{
	char dir[] = "/tmp/fsizeXXXXXX", path[64], path2[64];
	int fd, src;

	if (!mkdtemp(dir)) {
		check(0, "mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/f", dir);
	snprintf(path2, sizeof(path2), "%s/src", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	src = open(path2, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || src < 0 || write(src, buf, 10000) != 10000) {
		check(0, "set-up");
		return 1;
	}
	signal(SIGXFSZ, on_xfsz);
	set_limit(LIMIT);
	writes(fd, path);
	sizes(fd, path);
	transfers(fd, src);
	no_limit_here();
	pseudo_files();
	dispositions(fd);
	set_limit(RLIM_INFINITY);
	close(fd);
	close(src);
	unlink(path);
	unlink(path2);
	rmdir(dir);
	printf("1..%d\n", n);
	return 0;
}
