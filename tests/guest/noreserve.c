/* MAP_NORESERVE under vm.overcommit_memory=0 (Linux's default and skas's):
 * a private writable mapping far larger than memory is not committed
 * memory, only the pages written count. AddressSanitizer maps its 14 TiB
 * shadow so (skas gave ENOMEM, so every -fsanitize=address program died at
 * start), glibc its thread arenas. Without the flag such a mapping is still
 * ENOMEM. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define TAP_FLUSH
#include "tap.h"

#define PG  4096UL
#define TIB (1UL << 40)

int main(void)
{
	size_t len = 14 * TIB;
	char *p, *q;
	int status;
	pid_t pid;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
		 0);
	check(p != MAP_FAILED, "mmap of 14 TiB MAP_NORESERVE, writable");
	if (p == MAP_FAILED)
		return 1;
	p[0] = 1;
	p[len / 2] = 2;
	p[len - 1] = 3;
	check(p[0] == 1 && p[len / 2] == 2 && p[len - 1] == 3, "pages written anywhere in it hold");
	check(p[PG] == 0 && p[len - PG - 1] == 0, "pages never written read as zero");

	check(mprotect(p + TIB, TIB, PROT_NONE) == 0, "mprotect of 1 TiB of it to PROT_NONE");
	check(mprotect(p + TIB, TIB, PROT_READ | PROT_WRITE) == 0,
	      "and back to writable: still not committed");

	q = mmap(p + 2 * TIB, 16 * PG, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
	check(q == p + 2 * TIB, "MAP_FIXED over part of it");
	memset(q, 7, 16 * PG);

	pid = fork();
	if (pid == 0)
		_exit(p[len - 1] == 3 && q[16 * PG - 1] == 7 ? 0 : 1);
	check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0,
	      "fork: the child sees the written pages");
	check(munmap(p, len) == 0, "munmap");

	q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(q == MAP_FAILED && errno == ENOMEM, "without MAP_NORESERVE: ENOMEM");
	q = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(q != MAP_FAILED, "PROT_NONE without the flag: a reservation, not committed");
	check(q != MAP_FAILED && mprotect(q, len, PROT_READ | PROT_WRITE) == -1 && errno == ENOMEM,
	      "but making it all writable is ENOMEM");
	return 0;
}
