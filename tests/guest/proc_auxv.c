/* /proc/PID/auxv: the auxiliary vector exec gave the process, as the
 * words on its stack (skas had no such file), in Linux's order; and
 * AT_HWCAP is CPUID 1's EDX as Linux passes it, less the features the
 * kernel turned off (skas passed glibc's own view, 2). The rseq entries (27, 28) are left out: skas has no
 * rseq, so it gives none. */
#define _GNU_SOURCE
#include <cpuid.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>

#define TAP_FLUSH
#include "tap.h"

/* CPUID 1's EDX bits every x86-64 CPU has: FPU, CX8, CMOV, FXSR, SSE, SSE2. */
#define X86_64_EDX ((1UL << 0) | (1UL << 8) | (1UL << 15) | (1UL << 24) | (1UL << 25) | (1UL << 26))

static int read_auxv(const char *path, unsigned long *v, int max)
{
	int fd = open(path, O_RDONLY), got = 0;
	ssize_t r;

	if (fd < 0)
		return -1;
	while (got < max && (r = read(fd, (char *)v + got * 8, 64)) > 0)
		got += (int)(r / 8);
	close(fd);
	return got;
}

static unsigned long find(const unsigned long *v, int nw, unsigned long type)
{
	for (int i = 0; i + 1 < nw; i += 2)
		if (v[i] == type)
			return v[i + 1];
	return ~0UL;
}

int main(void)
{
	unsigned long v[256], w[256], hw;
	unsigned a = 0, b = 0, c = 0, d = 0;
	int nw = read_auxv("/proc/self/auxv", v, 256), nw2 = 0, i, ok = 1, pfd[2];
	char order[512] = "", num[16], path[64];
	pid_t pid;

	check(nw > 10 && nw % 2 == 0, "/proc/self/auxv: pairs of words");
	check(nw >= 2 && v[nw - 2] == AT_NULL && v[nw - 1] == 0, "ending with AT_NULL");
	for (i = 0; i + 1 < nw; i += 2) {
		if (v[i] == 27 || v[i] == 28 || v[i] == 51) /* rseq; a host's AT_MINSIGSTKSZ */
			continue;
		snprintf(num, sizeof(num), "%lu ", v[i]);
		strcat(order, num);
		if (v[i] != AT_HWCAP && v[i] != AT_HWCAP2 && v[i] != AT_NULL &&
		    getauxval(v[i]) != v[i + 1])
			ok = 0;
	}
	printf("# types in order: %s\n", order);
	check(strcmp(order, "33 16 6 17 3 4 5 7 8 9 11 12 13 14 23 25 26 31 15 0 ") == 0,
	      "the types in create_elf_tables's order");
	check(ok, "each value is getauxval's");
	__get_cpuid(1, &a, &b, &c, &d);
	/* Less what the kernel turned off (MTRR under some hypervisors). */
	hw = find(v, nw, AT_HWCAP);
	check((hw & ~(unsigned long)d) == 0 && (hw & X86_64_EDX) == X86_64_EDX,
	      "AT_HWCAP is CPUID 1's EDX");
	check(find(v, nw, AT_PAGESZ) == 4096, "AT_PAGESZ 4096");
	check(strcmp((char *)find(v, nw, AT_EXECFN), "/proc/self/exe") != 0 &&
		      strrchr((char *)find(v, nw, AT_EXECFN), '/') != NULL,
	      "AT_EXECFN points at the path exec was given");

	/* A child's, read by its parent, is the child's own (after its exec). */
	if (pipe(pfd) < 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		close(pfd[1]);
		dup2(pfd[0], 0);
		execl("/bin/cat", "cat", (char *)NULL);
		_exit(127);
	}
	close(pfd[0]);
	/* Until the exec has made its tables: Linux names the process
	 * "cat" (begin_new_exec) before create_elf_tables fills the new
	 * auxv, so its comm is no sign. */
	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	for (i = 0; i < 2000; i++) {
		nw2 = read_auxv(path, w, 256);
		if (nw2 > 10 && find(w, nw2, AT_ENTRY) != find(v, nw, AT_ENTRY))
			break;
		usleep(1000);
	}
	check(nw2 > 10 && find(w, nw2, AT_ENTRY) != find(v, nw, AT_ENTRY),
	      "a child's after exec: its own AT_ENTRY");
	close(pfd[1]);
	waitpid(pid, NULL, 0);
	return 0;
}
