/* RLIMIT_AS and RLIMIT_DATA bound an address space as Linux's
 * may_expand_vm does (skas kept them but let everything through: ulimit -v
 * limited nothing): mmap, mremap growth, brk and a mapping made writable
 * are ENOMEM past them; what is not data (read-only, shared, a stack)
 * does not count against RLIMIT_DATA; unmapping gives room back. The
 * limits are set relative to VmSize and VmData, in children. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>

#define TAP_FLUSH
#include "tap.h"

#define MiB (1UL << 20)

static unsigned long status_kb(const char *name)
{
	char line[256];
	unsigned long v = 0;
	size_t len = strlen(name);
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, name, len) == 0 && line[len] == ':')
			sscanf(line + len + 1, "%lu", &v);
	if (f)
		fclose(f);
	return v;
}

static void *map(size_t len, int prot, int flags)
{
	return mmap(NULL, len, prot, flags | MAP_ANONYMOUS, -1, 0);
}

static int as_case(void)
{
	struct rlimit rl;
	void *p, *q;

	rl.rlim_cur = status_kb("VmSize") * 1024 + 64 * MiB;
	rl.rlim_max = RLIM_INFINITY;
	if (setrlimit(RLIMIT_AS, &rl) != 0)
		return 10;
	if (map(128 * MiB, PROT_NONE, MAP_PRIVATE) != MAP_FAILED || errno != ENOMEM)
		return 11; /* PROT_NONE counts too */
	p = map(32 * MiB, PROT_READ, MAP_PRIVATE);
	if (p == MAP_FAILED)
		return 12;
	if (map(48 * MiB, PROT_READ, MAP_SHARED) != MAP_FAILED || errno != ENOMEM)
		return 13;
	q = mremap(p, 32 * MiB, 96 * MiB, MREMAP_MAYMOVE);
	if (q != MAP_FAILED || errno != ENOMEM)
		return 14;
	if (munmap(p, 32 * MiB) != 0 || (p = map(48 * MiB, PROT_READ, MAP_SHARED)) == MAP_FAILED)
		return 15; /* room again */
	if (sbrk(32 * MiB) != (void *)-1 || errno != ENOMEM)
		return 16;
	if (malloc(100 * MiB) != NULL)
		return 17;
	return 0;
}

static int data_case(void)
{
	struct rlimit rl;
	char *p, *g;

	rl.rlim_cur = status_kb("VmData") * 1024 + 16 * MiB;
	rl.rlim_max = RLIM_INFINITY;
	if (setrlimit(RLIMIT_DATA, &rl) != 0)
		return 10;
	if (map(32 * MiB, PROT_READ | PROT_WRITE, MAP_PRIVATE) != MAP_FAILED || errno != ENOMEM)
		return 11;
	p = map(32 * MiB, PROT_READ, MAP_PRIVATE);
	if (p == MAP_FAILED)
		return 12; /* read-only: not data */
	if (mprotect(p, 32 * MiB, PROT_READ | PROT_WRITE) != -1 || errno != ENOMEM)
		return 13;
	if (mprotect(p, 8 * MiB, PROT_READ | PROT_WRITE) != 0)
		return 14;
	if (map(32 * MiB, PROT_READ | PROT_WRITE, MAP_SHARED) == MAP_FAILED)
		return 15; /* shared: not data */
	g = map(32 * MiB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_GROWSDOWN);
	if (g == MAP_FAILED)
		return 16; /* a stack: not data */
	if (sbrk(32 * MiB) != (void *)-1 || errno != ENOMEM)
		return 17;
	return 0;
}

static int run(int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn());
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int main(void)
{
	int r;

	r = run(as_case);
	if (r)
		printf("# as_case: %d\n", r);
	check(r == 0,
	      "RLIMIT_AS: mmap (any), mremap, brk, malloc past it ENOMEM; munmap gives room");
	r = run(data_case);
	if (r)
		printf("# data_case: %d\n", r);
	check(r == 0, "RLIMIT_DATA: private writable past it ENOMEM, mprotect too; read-only, "
		      "shared and stacks do not count");
	return 0;
}
