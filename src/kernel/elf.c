/* kernel/elf.c: validating ELF headers. Everything here is hostile input:
 * every size is checked for overflow before use. */
#include <string.h>

#include "kernel/elf.h"
#include "mm/mm.h"
#include "abi/linux/errno.h"

int elf_check_ehdr(const struct linux_elf64_ehdr *eh, uint64_t file_size)
{
	if (memcmp(eh->e_ident, LINUX_ELFMAG, LINUX_SELFMAG) != 0)
		return -ENOEXEC;
	if (eh->e_ident[LINUX_EI_CLASS] != LINUX_ELFCLASS64 ||
	    eh->e_ident[LINUX_EI_DATA] != LINUX_ELFDATA2LSB)
		return -ENOEXEC;
	if (eh->e_type != LINUX_ET_EXEC && eh->e_type != LINUX_ET_DYN)
		return -ENOEXEC;
	if (eh->e_machine != LINUX_EM_X86_64)
		return -ENOEXEC;
	if (eh->e_phentsize != sizeof(struct linux_elf64_phdr))
		return -ENOEXEC;
	if (eh->e_phnum < 1 ||
	    (size_t)eh->e_phnum * sizeof(struct linux_elf64_phdr) > ELF_MAX_PHDRS_SIZE)
		return -ENOEXEC;
	if (eh->e_phoff > file_size ||
	    file_size - eh->e_phoff < (uint64_t)eh->e_phnum * sizeof(struct linux_elf64_phdr))
		return -ENOEXEC;
	return 0;
}

int elf_check_phdrs(const struct linux_elf64_ehdr *eh, const struct linux_elf64_phdr *ph,
		    uint64_t file_size, struct elf_layout *out)
{
	uint64_t prev_end = 0;
	int i;

	(void)file_size;
	memset(out, 0, sizeof(*out));
	out->interp = -1;
	out->lo = UINT64_MAX;
	for (i = 0; i < eh->e_phnum; i++) {
		const struct linux_elf64_phdr *p = &ph[i];

		if (p->p_type == LINUX_PT_INTERP) {
			if (out->interp >= 0 || p->p_filesz < 2 || p->p_filesz > 4096 ||
			    p->p_offset > file_size || file_size - p->p_offset < p->p_filesz)
				return -ENOEXEC;
			out->interp = i;
		}
		if (p->p_type == LINUX_PT_GNU_STACK)
			out->exec_stack = !!(p->p_flags & LINUX_PF_X);
		if (p->p_type != LINUX_PT_LOAD)
			continue;
		if (p->p_filesz > p->p_memsz || p->p_memsz > TASK_SIZE ||
		    p->p_vaddr > TASK_SIZE - p->p_memsz || p->p_offset > UINT64_MAX - p->p_filesz)
			return -ENOEXEC;
		if ((p->p_vaddr & (PAGE_SIZE - 1)) != (p->p_offset & (PAGE_SIZE - 1)))
			return -ENOEXEC;
		if (out->nloads > 0 && p->p_vaddr < prev_end)
			return -ENOEXEC;
		prev_end = p->p_vaddr + p->p_memsz;
		if ((p->p_vaddr & PAGE_MASK) < out->lo)
			out->lo = p->p_vaddr & PAGE_MASK;
		if (PAGE_ALIGN(prev_end) > out->hi)
			out->hi = PAGE_ALIGN(prev_end);
		/* The program headers, if some PT_LOAD carries them. */
		if (!out->phdr_vaddr && eh->e_phoff >= p->p_offset &&
		    eh->e_phoff - p->p_offset < p->p_filesz)
			out->phdr_vaddr = p->p_vaddr + (eh->e_phoff - p->p_offset);
		out->nloads++;
	}
	if (out->nloads == 0)
		return -ENOEXEC;
	if (out->hi - out->lo > TASK_SIZE)
		return -ENOEXEC;
	return 0;
}
