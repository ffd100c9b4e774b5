/* A write larger than skas's 1 MiB copy buffer goes whole, as in Linux:
 * a blocking pipe write of 3 MiB returns only when a reader took it all,
 * and a regular file gets all 3 MiB in one write or pwrite; a non-blocking pipe
 * write stops short with the count written. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

#define BIG (3L << 20)

int main(void)
{
	char *b = malloc(BIG), path[] = "/tmp/write_big.XXXXXX";
	int p[2], q[2], st, fd;
	long w, got = 0, r;
	struct stat sb;
	pid_t pid;

	if (!b || pipe(p) < 0 || pipe(q) < 0)
		return 1;
	memset(b, 'z', BIG);
	pid = fork();
	if (pid == 0) {
		char buf[65536];

		close(p[1]);
		while ((r = read(p[0], buf, sizeof(buf))) > 0)
			got += r;
		if (write(q[1], &got, sizeof(got)) != sizeof(got))
			_exit(1);
		_exit(0);
	}
	close(p[0]);
	w = write(p[1], b, BIG);
	close(p[1]);
	if (read(q[0], &got, sizeof(got)) != sizeof(got))
		got = -1;
	waitpid(pid, &st, 0);
	check(w == BIG, "a blocking 3 MiB pipe write returns 3 MiB");
	check(got == BIG, "the reader got all of it");

	fd = mkstemp(path);
	check(fd >= 0 && write(fd, b, BIG) == BIG && fstat(fd, &sb) == 0 && sb.st_size == BIG,
	      "a 3 MiB write to a file writes 3 MiB");
	check(fd >= 0 && pwrite(fd, b, BIG, 4096) == BIG && fstat(fd, &sb) == 0 &&
		      sb.st_size == BIG + 4096 && lseek(fd, 0, SEEK_CUR) == BIG,
	      "a 3 MiB pwrite writes 3 MiB at its offset, the file position unmoved");
	check(pwrite(fd, b, 1, -1) == -1 && errno == EINVAL, "pwrite at a negative offset: EINVAL");
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}

	if (pipe(p) < 0)
		return 1;
	check(pwrite(p[1], b, 1, 0) == -1 && errno == ESPIPE, "pwrite to a pipe: ESPIPE");
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	w = write(p[1], b, BIG);
	check(w > 0 && w < BIG && w % 4096 == 0, "a non-blocking 3 MiB pipe write stops short");
	return 0;
}
