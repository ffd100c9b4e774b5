/* tests/fuzz/fuzz_elf.c: libFuzzer over the ELF loader's checks
 * (kernel/elf.c, linked as the kernel has it). The input is an executable
 * file; the harness reads it as exec.c's binfile_read_elf does (file header,
 * then the program headers at e_phoff) and, when the checks accept it,
 * asserts what the loader then relies on: every PT_LOAD inside the user
 * range and the file, the span ordered and bounded, PT_INTERP inside the
 * file. A violation aborts: a finding. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/elf.h"
#include "mm/mm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
	fprintf(stderr, "fuzz_elf: the checks accepted a file where %s\n", what);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct linux_elf64_ehdr eh;
	struct linux_elf64_phdr *ph;
	struct elf_layout lay;
	size_t phsize;
	int i;

	if (size < sizeof(eh))
		return 0;
	memcpy(&eh, data, sizeof(eh));
	if (elf_check_ehdr(&eh, size) < 0)
		return 0;
	phsize = (size_t)eh.e_phnum * sizeof(*ph);
	if (phsize > ELF_MAX_PHDRS_SIZE || eh.e_phoff > size || size - eh.e_phoff < phsize)
		fail("the program headers are outside the file");
	ph = malloc(phsize);
	if (!ph)
		return 0;
	memcpy(ph, data + eh.e_phoff, phsize);
	if (elf_check_phdrs(&eh, ph, size, &lay) == 0) {
		if (lay.nloads < 1 || lay.lo > lay.hi || lay.hi - lay.lo > TASK_SIZE)
			fail("the PT_LOAD span is wrong");
		if (!PAGE_ALIGNED(lay.lo) || !PAGE_ALIGNED(lay.hi))
			fail("the span is not page-aligned");
		for (i = 0; i < eh.e_phnum; i++) {
			const struct linux_elf64_phdr *p = &ph[i];

			if (p->p_type == LINUX_PT_INTERP &&
			    (i != lay.interp || p->p_offset > size ||
			     size - p->p_offset < p->p_filesz))
				fail("PT_INTERP is outside the file");
			if (p->p_type != LINUX_PT_LOAD)
				continue;
			if (p->p_filesz > p->p_memsz || p->p_vaddr > TASK_SIZE ||
			    p->p_memsz > TASK_SIZE - p->p_vaddr)
				fail("a PT_LOAD leaves the user range");
			if ((p->p_vaddr & PAGE_MASK) < lay.lo ||
			    PAGE_ALIGN(p->p_vaddr + p->p_memsz) > lay.hi)
				fail("a PT_LOAD is outside the span");
			if (p->p_offset + p->p_filesz < p->p_offset)
				fail("a PT_LOAD's file range overflows");
		}
		if (lay.interp >= 0 && ph[lay.interp].p_type != LINUX_PT_INTERP)
			fail("the interpreter index is not PT_INTERP");
	}
	free(ph);
	return 0;
}
