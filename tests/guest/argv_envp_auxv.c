/* skas-test: args: one "two words" 3 "" --last */
/* The initial stack: argv, environment and the auxiliary vector. */
#define _GNU_SOURCE
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>

#include "tap.h"

extern char **environ;
extern char _start[];

int main(int argc, char **argv)
{
	int i, envc, has_path = 0;
	unsigned long v;
	const char *s;

	printf("ok %d - argc = %d\n", ++n, argc);
	for (i = 0; i < argc; i++)
		printf("ok %d - argv[%d] = \"%s\"\n", ++n, i, argv[i]);
	check(argv[argc] == NULL, "argv[argc] is NULL");

	for (envc = 0; environ[envc]; envc++)
		if (strncmp(environ[envc], "PATH=", 5) == 0)
			has_path = 1;
	printf("ok %d - %d environment variables\n", ++n, envc);
	printf("ok %d - PATH %s\n", ++n, has_path ? "set" : "unset");
	check(environ == argv + argc + 1, "the environment follows argv on the stack");
	s = getenv("PATH");
	check((s != NULL) == has_path, "getenv(PATH) agrees");

	v = getauxval(AT_PAGESZ);
	printf("ok %d - AT_PAGESZ = %lu\n", ++n, v);
	check(getauxval(AT_UID) == (unsigned long)getuid(), "AT_UID == getuid()");
	check(getauxval(AT_EUID) == (unsigned long)geteuid(), "AT_EUID == geteuid()");
	check(getauxval(AT_GID) == (unsigned long)getgid(), "AT_GID == getgid()");
	check(getauxval(AT_EGID) == (unsigned long)getegid(), "AT_EGID == getegid()");
	printf("ok %d - AT_SECURE = %lu\n", ++n, getauxval(AT_SECURE));
	printf("ok %d - AT_CLKTCK = %lu\n", ++n, getauxval(AT_CLKTCK));
	printf("ok %d - AT_PHENT = %lu\n", ++n, getauxval(AT_PHENT));
	check(getauxval(AT_PHENT) == sizeof(Elf64_Phdr), "AT_PHENT == sizeof(Elf64_Phdr)");
	check(getauxval(AT_PHNUM) > 0, "AT_PHNUM > 0");
	check(getauxval(AT_ENTRY) != 0, "AT_ENTRY != 0");
	check(getauxval(AT_ENTRY) == (unsigned long)_start, "AT_ENTRY == _start");

	v = getauxval(AT_RANDOM);
	check(v != 0, "AT_RANDOM is non-null");
	if (v) {
		const volatile unsigned char *r = (const volatile unsigned char *)v;
		unsigned sum = 0;
		for (i = 0; i < 16; i++)
			sum += r[i];
		(void)sum;
		check(1, "AT_RANDOM: 16 bytes readable");
	}

	s = (const char *)getauxval(AT_EXECFN);
	check(s != NULL, "AT_EXECFN is non-null");
	check(s && strcmp(s, argv[0]) == 0, "AT_EXECFN equals argv[0]");

	/* Linux packs the strings at the top of the stack in this order:
	 * argv strings, environment strings, then the AT_EXECFN string
	 * (setproctitle-style code relies on it). */
	{
		const char *end = argv[0];
		int contiguous = 1;

		for (i = 0; i < argc; i++) {
			if (argv[i] != end)
				contiguous = 0;
			end = argv[i] + strlen(argv[i]) + 1;
		}
		check(contiguous, "argv strings are contiguous");
		for (i = 0; i < envc; i++) {
			if (environ[i] != end)
				contiguous = 0;
			end = environ[i] + strlen(environ[i]) + 1;
		}
		check(contiguous, "environment strings follow the argv strings");
		check(s == end, "the AT_EXECFN string follows the environment strings");
	}

	s = (const char *)getauxval(AT_PLATFORM);
	printf("ok %d - AT_PLATFORM = \"%s\"\n", ++n, s ? s : "(null)");
	check(getauxval(AT_HWCAP) != 0, "AT_HWCAP != 0");

	v = getauxval(AT_PHDR);
	check(v != 0, "AT_PHDR != 0");
	if (v) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)v;
		unsigned long k, phnum = getauxval(AT_PHNUM);
		int loads = 0, entry_in_exec_load = 0;
		unsigned long entry = getauxval(AT_ENTRY);

		for (k = 0; k < phnum; k++) {
			if (ph[k].p_type != PT_LOAD)
				continue;
			loads++;
			/* static non-PIE: p_vaddr is the runtime address */
			if ((ph[k].p_flags & PF_X) && entry >= ph[k].p_vaddr &&
			    entry < ph[k].p_vaddr + ph[k].p_memsz)
				entry_in_exec_load = 1;
		}
		check(loads > 0, "AT_PHDR: program headers include PT_LOAD");
		check(entry_in_exec_load, "AT_PHDR: AT_ENTRY lies in an executable PT_LOAD");
	}
	printf("ok %d - AT_BASE = %lu\n", ++n, getauxval(AT_BASE));
	return 0;
}
