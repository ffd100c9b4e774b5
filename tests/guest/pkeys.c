/* Memory protection keys on a CPU without them (these machines': no OSPKE
 * in CPUID), and mprotect's order of checks, which pkey_mprotect shares.
 * skas had no pkey_* calls (ENOSYS; Node and Chromium's V8 ask for a key
 * at start-up) and checked mprotect's protection before an empty or
 * wrapping range (Linux: 0 and ENOMEM first). On such a Linux an address
 * space's first pkey_alloc that passes its argument checks is EINVAL and
 * every later one ENOSPC (key 0 is taken and not given back); a fork
 * keeps that, an exec starts afresh. pkey_free is EINVAL; pkey_mprotect
 * is mprotect for key -1 and EINVAL for any other. On a CPU with keys the
 * test says so and checks only mprotect (skas gives no key there). (A
 * kernel built without CONFIG_X86_INTEL_MEMORY_PROTECTION_KEYS, rare on
 * x86-64, answers ENOSPC at once and takes key 0: this test fails there
 * natively.) */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"

static long pkey_alloc_(unsigned long flags, unsigned long init)
{
	return syscall(SYS_pkey_alloc, flags, init);
}

static long pkey_mprotect_(void *p, unsigned long len, unsigned long prot, unsigned long key)
{
	return syscall(SYS_pkey_mprotect, p, len, prot, key);
}

/* The protection /proc/self/maps shows for the mapping at p ("rw-p"...). */
static const char *maps_perms(void *p)
{
	static char perms[8];
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi;

	perms[0] = 0;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && lo <= (unsigned long)p &&
		    (unsigned long)p < hi)
			break;
	if (f)
		fclose(f);
	return perms;
}

static void mprotect_order(char *p)
{
	check(syscall(SYS_mprotect, p, 0UL, 0x100UL) == 0, "mprotect, length 0, unknown prot: 0");
	check_err(syscall(SYS_mprotect, p + 1, 0UL, 0x100UL), EINVAL,
		  "mprotect, misaligned, length 0");
	check_err(syscall(SYS_mprotect, p, -4096UL, 0x100UL), ENOMEM,
		  "mprotect, a wrapping range, unknown prot");
	check_err(syscall(SYS_mprotect, p, 4096UL, 0x100UL), EINVAL, "mprotect, unknown prot");
	check_err(syscall(SYS_mprotect, p, 4096UL, PROT_READ | (1UL << 40)), EINVAL,
		  "mprotect, a prot bit past 31");
	check(syscall(SYS_mprotect, p, 4096UL, PROT_READ | PROT_WRITE | 0x8 /* PROT_SEM */) == 0,
	      "mprotect with PROT_SEM");
}

int main(int argc, char **argv)
{
	unsigned a, b, c, d;
	char *p;

	if (argc > 1) { /* exec'd: a fresh address space */
		long r = pkey_alloc_(0, 0);

		return r == -1 && errno == EINVAL ? 0 : 1;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	mprotect_order(p);
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (c & (1U << 4))) {
		printf("# the CPU has protection keys (OSPKE): skas gives none, not compared\n");
		return 0;
	}

	check_err(pkey_alloc_(1, 0), EINVAL, "pkey_alloc, flags 1");
	check_err(pkey_alloc_(1UL << 40, 0), EINVAL, "pkey_alloc, a flag past 31");
	check_err(pkey_alloc_(0, 4), EINVAL, "pkey_alloc, init_val 4");
	check_err(pkey_alloc_(0, 1UL << 40), EINVAL, "pkey_alloc, an init_val bit past 31");
	check_err(pkey_alloc_(0, 0), EINVAL, "pkey_alloc, the first: key 0 taken and refused");
	check_err(pkey_alloc_(0, 0), ENOSPC, "pkey_alloc, the next");
	check_err(pkey_alloc_(0, 3), ENOSPC, "pkey_alloc, init_val 3");
	if (fork() == 0) {
		int bad = pkey_alloc_(0, 0) != -1 || errno != ENOSPC;

		_exit(bad);
	} else {
		int st = -1;

		wait(&st);
		check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a forked child's pkey_alloc: ENOSPC");
	}
	if (fork() == 0) {
		execl("/proc/self/exe", argv[0], "exec", (char *)NULL);
		_exit(127);
	} else {
		int st = -1;

		wait(&st);
		check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "after exec, the first pkey_alloc: EINVAL again");
	}
	check_err(syscall(SYS_pkey_free, 0), EINVAL, "pkey_free 0");
	check_err(syscall(SYS_pkey_free, 1), EINVAL, "pkey_free 1");
	check_err(syscall(SYS_pkey_free, -1), EINVAL, "pkey_free -1");

	check(pkey_mprotect_(p, 4096, PROT_READ, -1UL) == 0 && strcmp(maps_perms(p), "r--p") == 0,
	      "pkey_mprotect with key -1: mprotect");
	check(pkey_mprotect_(p, 4096, PROT_READ | PROT_WRITE, 0xffffffffUL) == 0 &&
		      strcmp(maps_perms(p), "rw-p") == 0,
	      "pkey_mprotect with key 0xffffffff (an int: -1)");
	check_err(pkey_mprotect_(p, 4096, PROT_READ, 0), EINVAL, "pkey_mprotect with key 0");
	check_err(pkey_mprotect_(p, 4096, PROT_READ, 1), EINVAL, "pkey_mprotect with key 1");
	check(pkey_mprotect_(p, 0, 0x100, 5) == 0,
	      "pkey_mprotect, length 0, unknown prot, key 5: 0");
	check_err(pkey_mprotect_(p + 1, 4096, PROT_READ, 5), EINVAL, "pkey_mprotect, misaligned");
	check_err(pkey_mprotect_(p, 4096, 0x100, -1UL), EINVAL, "pkey_mprotect, unknown prot");
	munmap(p, 8192);
	check_err(pkey_mprotect_(p, 4096, PROT_READ, -1UL), ENOMEM,
		  "pkey_mprotect of nothing mapped, key -1");
	check_err(pkey_mprotect_(p, 4096, PROT_READ, 3), EINVAL,
		  "pkey_mprotect of nothing mapped, key 3: the key first");
	return 0;
}
