/* kernel/elf.h: checking an x86-64 ELF executable's headers. Pure code, no
 * I/O: the loader reads, this module says whether the bytes make sense. */
#ifndef KERNEL_ELF_H
#define KERNEL_ELF_H

#include <stdint.h>
#include <stddef.h>

#include "abi/linux/elf.h"

#define ELF_MAX_PHDRS_SIZE 65536 /* as Linux: larger program headers are ENOEXEC */

/* Checks the file header; 0 or -ENOEXEC. */
int elf_check_ehdr(const struct linux_elf64_ehdr *eh, uint64_t file_size);
/* Checks the program headers against each other and the file: PT_LOADs in
 * order, sizes that do not overflow, offsets and addresses congruent.
 * Finds the span of the PT_LOADs and the PT_INTERP header (or -1).
 * 0 or -ENOEXEC. */
struct elf_layout {
	uint64_t lo, hi; /* page-aligned span of the PT_LOADs */
	int interp;	 /* index of PT_INTERP or -1 */
	int nloads;
	uint64_t phdr_vaddr; /* where the program headers are in memory, 0 if not */
	int exec_stack;
};
int elf_check_phdrs(const struct linux_elf64_ehdr *eh, const struct linux_elf64_phdr *ph,
		    uint64_t file_size, struct elf_layout *out);

#endif
