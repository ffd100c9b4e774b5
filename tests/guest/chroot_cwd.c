/* chroot(2) and the cwd: a cwd left outside the new root is no longer
 * reachable from it, and getcwd(2) says so with "(unreachable)" before
 * the path from the real root, as Linux (glibc's and musl's getcwd then
 * fail with ENOENT); the cwd is reachable again after chdir("/"); an fd
 * opened outside takes the cwd back out (fchdir). In children: this
 * process keeps its root. Natively as root. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "ns_util.h"

static char dir[64], in[96], out[96];

static long raw_getcwd(char *buf, size_t size)
{
	return syscall(SYS_getcwd, buf, size);
}

/* Does the raw getcwd give want (and its length with the NUL)? */
static int cwd_is(const char *want)
{
	char buf[256];
	long r = raw_getcwd(buf, sizeof(buf));

	return r == (long)strlen(want) + 1 && strcmp(buf, want) == 0;
}

static void outside(void)
{
	char want[160], buf[160];
	size_t len;
	int fd;

	snprintf(want, sizeof(want), "(unreachable)%s", out);
	len = strlen(want) + 1;
	check(chdir(out) == 0 && chroot(in) == 0, "chdir out, chroot in");
	check(cwd_is(want), "getcwd: (unreachable) and the path from the real root");
	check(raw_getcwd(buf, len) == (long)len, "in a buffer of just its length");
	check_err(raw_getcwd(buf, len - 1), ERANGE, "ERANGE", "a byte shorter");
	errno = 0;
	check(getcwd(buf, sizeof(buf)) == NULL && errno == ENOENT, "libc getcwd: NULL, ENOENT");
	snprintf(want, sizeof(want), "(unreachable)%s", dir);
	check(chdir("..") == 0 && cwd_is(want), "chdir .. goes on outside");
	check(chdir("/") == 0 && cwd_is("/"), "chdir /: the new root, reachable");
	check(chdir("..") == 0 && cwd_is("/"), "chdir .. at the root stays there");
	fd = open("/", O_RDONLY | O_DIRECTORY);
	check(fd >= 0 && fchdir(fd) == 0 && cwd_is("/"), "fchdir to the root");
	close(fd);
}

static void fd_outside(void)
{
	char want[160];
	int fd = open(out, O_RDONLY | O_DIRECTORY);

	snprintf(want, sizeof(want), "(unreachable)%s", out);
	check(fd >= 0 && chroot(in) == 0 && chdir("/") == 0, "an fd of out, chroot in, chdir /");
	check(fchdir(fd) == 0 && cwd_is(want), "fchdir to it: unreachable again");
	close(fd);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() != 0) {
		printf("# not root: skipped\n");
		return 0;
	}
	strcpy(dir, "/tmp/chroot_cwd.XXXXXX");
	if (!mkdtemp(dir)) {
		printf("not ok 1 - mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	snprintf(in, sizeof(in), "%s/in", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	check(mkdir(in, 0755) == 0 && mkdir(out, 0755) == 0, "two directories");
	in_child(outside);
	in_child(fd_outside);
	rmdir(in);
	rmdir(out);
	rmdir(dir);
	return 0;
}
