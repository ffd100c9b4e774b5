/*
 * ELF auxiliary vector entries that exec puts on the x86-64 guest stack.
 * Linux calls these AT_*; we say LINUX_AUXV_* so they cannot be confused
 * with the LINUX_AT_* flags of the *at() calls.
 */
#ifndef ABI_LINUX_AUXV_H
#define ABI_LINUX_AUXV_H

#include <stddef.h>
#include <stdint.h>

#define LINUX_AUXV_NULL		     0 /* end of vector */
#define LINUX_AUXV_IGNORE	     1
#define LINUX_AUXV_EXECFD	     2
#define LINUX_AUXV_PHDR		     3 /* program headers of the program */
#define LINUX_AUXV_PHENT	     4
#define LINUX_AUXV_PHNUM	     5
#define LINUX_AUXV_PAGESZ	     6
#define LINUX_AUXV_BASE		     7 /* interpreter load address */
#define LINUX_AUXV_FLAGS	     8
#define LINUX_AUXV_ENTRY	     9 /* program entry point */
#define LINUX_AUXV_NOTELF	     10
#define LINUX_AUXV_UID		     11
#define LINUX_AUXV_EUID		     12
#define LINUX_AUXV_GID		     13
#define LINUX_AUXV_EGID		     14
#define LINUX_AUXV_PLATFORM	     15 /* address of "x86_64" */
#define LINUX_AUXV_HWCAP	     16
#define LINUX_AUXV_CLKTCK	     17
#define LINUX_AUXV_SECURE	     23
#define LINUX_AUXV_BASE_PLATFORM     24
#define LINUX_AUXV_RANDOM	     25 /* address of 16 random bytes */
#define LINUX_AUXV_HWCAP2	     26
#define LINUX_AUXV_RSEQ_FEATURE_SIZE 27 /* Linux 6.3 */
#define LINUX_AUXV_RSEQ_ALIGN	     28 /* Linux 6.3 */
#define LINUX_AUXV_EXECFN	     31 /* address of the exec'd filename */
#define LINUX_AUXV_SYSINFO_EHDR	     33 /* vDSO base */
#define LINUX_AUXV_MINSIGSTKSZ	     51

/* one entry: Elf64_auxv_t */
struct linux_auxv {
	uint64_t a_type;
	uint64_t a_val;
};
_Static_assert(sizeof(struct linux_auxv) == 16, "linux_auxv size");
_Static_assert(offsetof(struct linux_auxv, a_val) == 8, "linux_auxv a_val");

#endif /* ABI_LINUX_AUXV_H */
