/* mmap of /dev/zero (skas said ENODEV): MAP_PRIVATE is private anonymous
 * memory, MAP_SHARED shared memory that a fork's child writes and its
 * parent sees, named "/dev/zero (deleted)" in maps; the fd's access mode
 * is checked as for any file (O_WRONLY: EACCES; a shared one from an
 * O_RDONLY fd can never be made writable). /dev/null and /dev/full have
 * no mmap (ENODEV). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "tap.h"
#include "maps_util.h"

#define LEN (64 * 1024)

static int map_errno(const char *path, int mode, int prot, int flags)
{
	int fd = open(path, mode);
	void *p = fd >= 0 ? mmap(NULL, LEN, prot, flags, fd, 0) : MAP_FAILED;
	int e = p == MAP_FAILED ? errno : 0;

	if (p != MAP_FAILED)
		munmap(p, LEN);
	if (fd >= 0)
		close(fd);
	return e;
}

int main(void)
{
	int fd = open("/dev/zero", O_RDWR), st, i, zero = 1;
	char *priv = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	char *shared = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char name[256];
	pid_t pid;

	check(priv != MAP_FAILED, "MAP_PRIVATE of /dev/zero");
	check(shared != MAP_FAILED, "MAP_SHARED of /dev/zero");
	if (priv == MAP_FAILED || shared == MAP_FAILED)
		return 1;
	for (i = 0; i < LEN; i++)
		zero &= priv[i] == 0 && shared[i] == 0;
	check(zero, "both read zeros");
	close(fd);
	priv[100] = 7;
	shared[100] = 7;
	pid = fork();
	if (pid == 0) {
		priv[100] = 1;
		shared[100] = 42;
		_exit(0);
	}
	waitpid(pid, &st, 0);
	check(priv[100] == 7, "the private one: the child's write stays its own");
	check(shared[100] == 42, "the shared one: the parent sees the child's write");
	maps_name(shared, name, sizeof(name));
	check(strcmp(name, "/dev/zero (deleted)") == 0,
	      "the shared one in maps: /dev/zero (deleted)");
	check(mprotect(shared, LEN, PROT_READ) == 0 &&
		      mprotect(shared, LEN, PROT_READ | PROT_WRITE) == 0,
	      "the shared one of an O_RDWR fd: mprotect back to writable");
	munmap(priv, LEN);
	munmap(shared, LEN);

	check(map_errno("/dev/zero", O_RDONLY, PROT_READ, MAP_SHARED) == 0,
	      "O_RDONLY, PROT_READ, MAP_SHARED: mapped");
	check(map_errno("/dev/zero", O_RDONLY, PROT_READ | PROT_WRITE, MAP_PRIVATE) == 0,
	      "O_RDONLY, writable MAP_PRIVATE: mapped");
	check(map_errno("/dev/zero", O_RDONLY, PROT_READ | PROT_WRITE, MAP_SHARED) == EACCES,
	      "O_RDONLY, writable MAP_SHARED: EACCES");
	check(map_errno("/dev/zero", O_WRONLY, PROT_READ, MAP_PRIVATE) == EACCES,
	      "O_WRONLY: EACCES");
	check(map_errno("/dev/zero", O_RDWR, PROT_READ, MAP_SHARED_VALIDATE) == 0,
	      "MAP_SHARED_VALIDATE: mapped");
	fd = open("/dev/zero", O_RDONLY);
	shared = mmap(NULL, LEN, PROT_READ, MAP_SHARED, fd, 0);
	check(shared != MAP_FAILED && mprotect(shared, LEN, PROT_READ | PROT_WRITE) < 0 &&
		      errno == EACCES,
	      "shared from an O_RDONLY fd: mprotect to writable is EACCES");
	close(fd);
	check(map_errno("/dev/null", O_RDWR, PROT_READ, MAP_PRIVATE) == ENODEV,
	      "/dev/null: ENODEV");
	check(map_errno("/dev/full", O_RDWR, PROT_READ, MAP_PRIVATE) == ENODEV,
	      "/dev/full: ENODEV");
	return 0;
}
