/* /proc/PID/auxv: the auxiliary vector exec gave, as getauxval sees it
 * (a debugger finds a PIE's load address by its AT_ENTRY), ending with
 * AT_NULL, for oneself and a child; a child's changes to its own copy do
 * not show. skas had no auxv file (gdb could not place breakpoints in a
 * PIE). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/wait.h>

#include "tap.h"

/* The value of type in pid's /proc auxv (0 if absent); *null: it ends with AT_NULL. */
static uint64_t auxv_of(const char *path, uint64_t type, int *null, int *count)
{
	uint64_t v[2 * 64], found = 0;
	int fd = open(path, O_RDONLY);
	ssize_t len;

	*null = 0;
	*count = 0;
	if (fd < 0)
		return 0;
	len = read(fd, v, sizeof(v));
	close(fd);
	for (int i = 0; i + 1 < len / 8; i += 2) {
		if (v[i] == type)
			found = v[i + 1];
		(*count)++;
		if (v[i] == AT_NULL && (i + 2) * 8 == len)
			*null = 1;
	}
	return found;
}

int main(void)
{
	int null, count, p[2], st;
	char path[64], c;
	pid_t pid;

	check(auxv_of("/proc/self/auxv", AT_ENTRY, &null, &count) == getauxval(AT_ENTRY) &&
		      getauxval(AT_ENTRY) != 0,
	      "AT_ENTRY as getauxval says");
	check(null && count > 5, "the vector ends with AT_NULL");
	check(auxv_of("/proc/self/auxv", AT_PAGESZ, &null, &count) == 4096, "AT_PAGESZ");
	check(auxv_of("/proc/self/auxv", AT_RANDOM, &null, &count) == getauxval(AT_RANDOM),
	      "AT_RANDOM");
	if (pipe(p) < 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		uint64_t *a = (uint64_t *)getauxval(AT_RANDOM);

		/* The auxv words on the stack are the child's own: change one
		 * (AT_RANDOM's 16 bytes, not the vector) and wait. */
		a[0] ^= 1;
		close(p[1]);
		while (read(p[0], &c, 1) < 0)
			;
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/auxv", pid);
	check(auxv_of(path, AT_ENTRY, &null, &count) == getauxval(AT_ENTRY) && null,
	      "a child's auxv (after fork: the same program)");
	close(p[1]);
	waitpid(pid, &st, 0);
	return 0;
}
