/*
 * The parts of 64-bit ELF that exec needs: the file header, program
 * headers and their constants, as in <elf.h> and linux/elf.h.
 */
#ifndef ABI_LINUX_ELF_H
#define ABI_LINUX_ELF_H

#include <stddef.h>
#include <stdint.h>

/* e_ident */
#define LINUX_EI_NIDENT	    16
#define LINUX_EI_MAG0	    0
#define LINUX_EI_MAG1	    1
#define LINUX_EI_MAG2	    2
#define LINUX_EI_MAG3	    3
#define LINUX_EI_CLASS	    4
#define LINUX_EI_DATA	    5
#define LINUX_EI_VERSION    6
#define LINUX_EI_OSABI	    7
#define LINUX_EI_ABIVERSION 8

#define LINUX_ELFMAG0 0x7f
#define LINUX_ELFMAG1 'E'
#define LINUX_ELFMAG2 'L'
#define LINUX_ELFMAG3 'F'
#define LINUX_ELFMAG  "\177ELF"
#define LINUX_SELFMAG 4

#define LINUX_ELFCLASS32    1
#define LINUX_ELFCLASS64    2
#define LINUX_ELFDATA2LSB   1
#define LINUX_EV_CURRENT    1
#define LINUX_ELFOSABI_NONE 0
#define LINUX_ELFOSABI_GNU  3

/* e_type */
#define LINUX_ET_NONE 0
#define LINUX_ET_REL  1
#define LINUX_ET_EXEC 2
#define LINUX_ET_DYN  3
#define LINUX_ET_CORE 4

/* e_machine */
#define LINUX_EM_X86_64 62

struct linux_elf64_ehdr {
	uint8_t e_ident[LINUX_EI_NIDENT];
	uint16_t e_type;
	uint16_t e_machine;
	uint32_t e_version;
	uint64_t e_entry;
	uint64_t e_phoff;
	uint64_t e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize;
	uint16_t e_phentsize;
	uint16_t e_phnum;
	uint16_t e_shentsize;
	uint16_t e_shnum;
	uint16_t e_shstrndx;
};
_Static_assert(sizeof(struct linux_elf64_ehdr) == 64, "linux_elf64_ehdr size");
_Static_assert(offsetof(struct linux_elf64_ehdr, e_type) == 16, "linux_elf64_ehdr e_type");
_Static_assert(offsetof(struct linux_elf64_ehdr, e_entry) == 24, "linux_elf64_ehdr e_entry");
_Static_assert(offsetof(struct linux_elf64_ehdr, e_phoff) == 32, "linux_elf64_ehdr e_phoff");
_Static_assert(offsetof(struct linux_elf64_ehdr, e_flags) == 48, "linux_elf64_ehdr e_flags");
_Static_assert(offsetof(struct linux_elf64_ehdr, e_phentsize) == 54,
	       "linux_elf64_ehdr e_phentsize");
_Static_assert(offsetof(struct linux_elf64_ehdr, e_phnum) == 56, "linux_elf64_ehdr e_phnum");
_Static_assert(offsetof(struct linux_elf64_ehdr, e_shstrndx) == 62, "linux_elf64_ehdr e_shstrndx");

/* p_type */
#define LINUX_PT_NULL	      0
#define LINUX_PT_LOAD	      1
#define LINUX_PT_DYNAMIC      2
#define LINUX_PT_INTERP	      3
#define LINUX_PT_NOTE	      4
#define LINUX_PT_SHLIB	      5
#define LINUX_PT_PHDR	      6
#define LINUX_PT_TLS	      7
#define LINUX_PT_GNU_EH_FRAME 0x6474e550
#define LINUX_PT_GNU_STACK    0x6474e551
#define LINUX_PT_GNU_RELRO    0x6474e552
#define LINUX_PT_GNU_PROPERTY 0x6474e553

/* p_flags */
#define LINUX_PF_X 0x1
#define LINUX_PF_W 0x2
#define LINUX_PF_R 0x4

struct linux_elf64_phdr {
	uint32_t p_type;
	uint32_t p_flags;
	uint64_t p_offset;
	uint64_t p_vaddr;
	uint64_t p_paddr;
	uint64_t p_filesz;
	uint64_t p_memsz;
	uint64_t p_align;
};
_Static_assert(sizeof(struct linux_elf64_phdr) == 56, "linux_elf64_phdr size");
_Static_assert(offsetof(struct linux_elf64_phdr, p_flags) == 4, "linux_elf64_phdr p_flags");
_Static_assert(offsetof(struct linux_elf64_phdr, p_offset) == 8, "linux_elf64_phdr p_offset");
_Static_assert(offsetof(struct linux_elf64_phdr, p_vaddr) == 16, "linux_elf64_phdr p_vaddr");
_Static_assert(offsetof(struct linux_elf64_phdr, p_filesz) == 32, "linux_elf64_phdr p_filesz");
_Static_assert(offsetof(struct linux_elf64_phdr, p_align) == 48, "linux_elf64_phdr p_align");

#endif /* ABI_LINUX_ELF_H */
