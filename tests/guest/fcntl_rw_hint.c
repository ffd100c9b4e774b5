/* fcntl F_GET_RW_HINT and F_SET_RW_HINT: a file's write-lifetime hint
 * (skas had neither: EINVAL). The hint is the inode's, so another open of
 * the same file sees it; it is a u64 read from and written to the
 * argument (EFAULT), RWH_WRITE_LIFE_NOT_SET (0) to RWH_WRITE_LIFE_EXTREME
 * (5), anything above EINVAL. Setting it is the owner's or CAP_FOWNER's
 * (EPERM, before the argument is read). The per-file forms Linux 5.17
 * removed are EINVAL, and an O_PATH descriptor is EBADF. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ENAME
#include "tap.h"

#define GET_RW_HINT	 1035
#define SET_RW_HINT	 1036
#define GET_FILE_RW_HINT 1037
#define SET_FILE_RW_HINT 1038
#define BAD		 ((void *)8)

static uint64_t hint_of(int fd)
{
	uint64_t h = 99;

	if (fcntl(fd, GET_RW_HINT, &h) != 0)
		return 100;
	return h;
}

int main(void)
{
	char path[] = "/tmp/rw_hintXXXXXX";
	uint64_t h;
	int fd, fd2, pfd, st;
	pid_t pid;

	fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		return 1;
	}
	check(hint_of(fd) == 0, "a new file's hint: 0 (not set)");
	for (h = 0; h <= 5; h++) {
		char what[64];

		snprintf(what, sizeof(what), "set %llu, then get it", (unsigned long long)h);
		check(fcntl(fd, SET_RW_HINT, &h) == 0 && hint_of(fd) == h, what);
	}
	h = 3;
	fcntl(fd, SET_RW_HINT, &h);
	fd2 = open(path, O_RDONLY);
	check(fd2 >= 0 && hint_of(fd2) == 3, "another open of the file sees 3");
	h = 1;
	check(fcntl(fd2, SET_RW_HINT, &h) == 0 && hint_of(fd) == 1,
	      "set through a read-only open, seen by the first");

	h = 6;
	check_err(fcntl(fd, SET_RW_HINT, &h), EINVAL, "hint 6");
	h = ~0ULL;
	check_err(fcntl(fd, SET_RW_HINT, &h), EINVAL, "hint ~0");
	check(hint_of(fd) == 1, "unchanged by the failures");
	check_err(fcntl(fd, SET_RW_HINT, BAD), EFAULT, "set from a bad pointer");
	check_err(fcntl(fd, GET_RW_HINT, BAD), EFAULT, "get to a bad pointer");
	check_err(fcntl(fd, GET_FILE_RW_HINT, &h), EINVAL, "F_GET_FILE_RW_HINT (removed)");
	check_err(fcntl(fd, SET_FILE_RW_HINT, &h), EINVAL, "F_SET_FILE_RW_HINT (removed)");
	pfd = open(path, O_PATH);
	check_err(fcntl(pfd, GET_RW_HINT, &h), EBADF, "get on an O_PATH descriptor");
	check_err(fcntl(pfd, SET_RW_HINT, &h), EBADF, "set on an O_PATH descriptor");
	check_err(fcntl(-1, GET_RW_HINT, &h), EBADF, "fd -1");

	/* Not the owner and no CAP_FOWNER: EPERM, before the pointer is read;
	 * getting is anyone's. */
	pid = fork();
	if (pid == 0) {
		if (setresuid(1000, 1000, 1000) != 0)
			_exit(2);
		h = 2;
		check_err(fcntl(fd, SET_RW_HINT, &h), EPERM, "another user sets: EPERM");
		check_err(fcntl(fd, SET_RW_HINT, BAD), EPERM, "another user, bad pointer: EPERM");
		check(hint_of(fd) == 1, "another user gets 1");
		_exit(0);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the other user's child ran");
	/* The owner without CAP_FOWNER may. */
	check(fchown(fd, 1000, 1000) == 0, "chown to 1000");
	pid = fork();
	if (pid == 0) {
		if (setresuid(1000, 1000, 1000) != 0)
			_exit(2);
		h = 4;
		check(fcntl(fd, SET_RW_HINT, &h) == 0, "the owner sets 4");
		_exit(0);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the owner's child ran");
	check(hint_of(fd) == 4, "4 seen");
	unlink(path);
	return 0;
}
