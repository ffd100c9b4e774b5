/* tests/unit/elf_test.c: the ELF header checks of kernel/elf.c against
 * valid, hostile and randomly mutated headers. TAP output. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "abi/linux/errno.h"
#include "kernel/elf.h"

#define TOP	  0x7ffffffff000ULL /* TASK_SIZE */
#define FILE_SIZE 0x10000ULL
#define MAX_PH	  (ELF_MAX_PHDRS_SIZE / sizeof(struct linux_elf64_phdr))

static int passed, failed;

__attribute__((format(printf, 2, 3))) static void ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", passed + failed + 1);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (cond)
		passed++;
	else
		failed++;
}

/* One ELF image under test: the file header and its program headers. */
struct image {
	struct linux_elf64_ehdr eh;
	struct linux_elf64_phdr ph[MAX_PH];
	uint64_t size;
};

static struct linux_elf64_phdr phdr(uint32_t type, uint64_t off, uint64_t vaddr, uint64_t filesz,
				    uint64_t memsz)
{
	return (struct linux_elf64_phdr){ .p_type = type,
					  .p_flags = LINUX_PF_R,
					  .p_offset = off,
					  .p_vaddr = vaddr,
					  .p_paddr = vaddr,
					  .p_filesz = filesz,
					  .p_memsz = memsz,
					  .p_align = 4096 };
}

static void header(struct image *im, uint16_t type, uint16_t phnum)
{
	memset(im, 0, sizeof(*im));
	memcpy(im->eh.e_ident, LINUX_ELFMAG, LINUX_SELFMAG);
	im->eh.e_ident[LINUX_EI_CLASS] = LINUX_ELFCLASS64;
	im->eh.e_ident[LINUX_EI_DATA] = LINUX_ELFDATA2LSB;
	im->eh.e_ident[LINUX_EI_VERSION] = LINUX_EV_CURRENT;
	im->eh.e_type = type;
	im->eh.e_machine = LINUX_EM_X86_64;
	im->eh.e_version = LINUX_EV_CURRENT;
	im->eh.e_entry = 0x401000;
	im->eh.e_phoff = sizeof(struct linux_elf64_ehdr);
	im->eh.e_ehsize = sizeof(struct linux_elf64_ehdr);
	im->eh.e_phentsize = sizeof(struct linux_elf64_phdr);
	im->eh.e_phnum = phnum;
	im->size = FILE_SIZE;
}

/* A static executable: text (carrying the headers), data+bss, stack. */
static void static_exec(struct image *im)
{
	header(im, LINUX_ET_EXEC, 3);
	im->ph[0] = phdr(LINUX_PT_LOAD, 0, 0x400000, 0x2345, 0x2345);
	im->ph[1] = phdr(LINUX_PT_LOAD, 0x3e10, 0x404e10, 0x400, 0x1800);
	im->ph[2] = phdr(LINUX_PT_GNU_STACK, 0, 0, 0, 0);
}

/* A PIE: PHDR, INTERP, two loads, an executable stack. */
static void dyn_exec(struct image *im)
{
	header(im, LINUX_ET_DYN, 5);
	im->ph[0] = phdr(LINUX_PT_PHDR, 64, 64, 5 * 56, 5 * 56);
	im->ph[1] = phdr(LINUX_PT_INTERP, 0x318, 0x318, 28, 28);
	im->ph[2] = phdr(LINUX_PT_LOAD, 0, 0, 0x1000, 0x1000);
	im->ph[3] = phdr(LINUX_PT_LOAD, 0x2df0, 0x3df0, 0x220, 0x228);
	im->ph[4] = phdr(LINUX_PT_GNU_STACK, 0, 0, 0, 0);
	im->ph[4].p_flags = LINUX_PF_R | LINUX_PF_W | LINUX_PF_X;
}

static int check(const struct image *im, struct elf_layout *l)
{
	int ret = elf_check_ehdr(&im->eh, im->size);

	return ret ? ret : elf_check_phdrs(&im->eh, im->ph, im->size, l);
}

static void test_valid(void)
{
	struct elf_layout l;
	struct image im;
	int ret;

	static_exec(&im);
	ret = check(&im, &l);
	ok(ret == 0, "static ET_EXEC: %d", ret);
	ok(l.lo == 0x400000 && l.hi == 0x407000 && l.nloads == 2 && l.interp == -1,
	   "static layout [%#llx, %#llx) nloads %d interp %d", (unsigned long long)l.lo,
	   (unsigned long long)l.hi, l.nloads, l.interp);
	ok(l.phdr_vaddr == 0x400040 && l.exec_stack == 0, "static phdr_vaddr %#llx, no exec stack",
	   (unsigned long long)l.phdr_vaddr);
	dyn_exec(&im);
	ret = check(&im, &l);
	ok(ret == 0, "ET_DYN with PT_INTERP: %d", ret);
	ok(l.lo == 0 && l.hi == 0x5000 && l.nloads == 2 && l.interp == 1 && l.phdr_vaddr == 64 &&
		   l.exec_stack == 1,
	   "dyn layout [%#llx, %#llx) interp %d phdr_vaddr %#llx exec_stack %d",
	   (unsigned long long)l.lo, (unsigned long long)l.hi, l.interp,
	   (unsigned long long)l.phdr_vaddr, l.exec_stack);
	dyn_exec(&im);
	im.eh.e_phnum = MAX_PH; /* the rest are PT_NULL */
	im.size = 2 * FILE_SIZE;
	ok(check(&im, &l) == 0, "e_phnum %zu (64 KiB of program headers) is fine", MAX_PH);
}

/* Each hostile variant of a valid image must be -ENOEXEC. */
static void test_hostile(void)
{
	struct elf_layout l;
	struct image im;

#define BAD(base, what, ...)                                          \
	do {                                                          \
		base(&im);                                            \
		__VA_ARGS__;                                          \
		ok(check(&im, &l) == -ENOEXEC, "%s: -ENOEXEC", what); \
	} while (0)
	BAD(static_exec, "bad magic", im.eh.e_ident[1] = 'e');
	BAD(static_exec, "32-bit class", im.eh.e_ident[LINUX_EI_CLASS] = LINUX_ELFCLASS32);
	BAD(static_exec, "big-endian", im.eh.e_ident[LINUX_EI_DATA] = 2);
	BAD(static_exec, "wrong machine", im.eh.e_machine = 3);
	BAD(static_exec, "ET_REL", im.eh.e_type = LINUX_ET_REL);
	BAD(static_exec, "ET_CORE", im.eh.e_type = LINUX_ET_CORE);
	BAD(static_exec, "e_phentsize 32", im.eh.e_phentsize = 32);
	BAD(static_exec, "e_phnum 0", im.eh.e_phnum = 0);
	BAD(static_exec, "e_phnum 0xffff", im.eh.e_phnum = 0xffff);
	BAD(static_exec, "e_phnum one past 64 KiB", im.eh.e_phnum = MAX_PH + 1);
	BAD(static_exec, "e_phoff beyond the file", im.eh.e_phoff = FILE_SIZE + 8);
	BAD(static_exec, "e_phoff near 2^64", im.eh.e_phoff = ~0ULL - 8);
	BAD(static_exec, "phdrs run past the end", im.eh.e_phoff = FILE_SIZE - 2 * 56);
	BAD(static_exec, "file smaller than the phdrs", im.size = 64 + 2 * 56);
	BAD(static_exec, "filesz > memsz", im.ph[1].p_filesz = 0x1801);
	BAD(static_exec, "vaddr+memsz past 2^47", im.ph[1].p_memsz = TOP - 0x404e10 + 1);
	BAD(static_exec, "memsz wraps 2^64", im.ph[1].p_memsz = ~0ULL - 0x404e10 + 2);
	BAD(static_exec, "vaddr at 2^47", im.ph[1].p_vaddr = 1ULL << 47; im.ph[1].p_offset = 0);
	BAD(static_exec, "vaddr/offset not congruent", im.ph[1].p_offset = 0x3e18);
	BAD(static_exec, "PT_LOADs out of order", im.ph[1].p_vaddr = 0x300e10);
	BAD(static_exec, "PT_LOADs overlapping", im.ph[1].p_vaddr = 0x401e10);
	BAD(static_exec, "no PT_LOAD", im.ph[0].p_type = im.ph[1].p_type = LINUX_PT_NOTE);
	BAD(static_exec, "offset+filesz wraps", im.ph[1].p_offset = ~0ULL - 0x1ef);
	BAD(dyn_exec, "two PT_INTERP", im.ph[0] = im.ph[1]);
	BAD(dyn_exec, "PT_INTERP past EOF", im.ph[1].p_offset = FILE_SIZE - 10);
	BAD(dyn_exec, "PT_INTERP offset wraps", im.ph[1].p_offset = ~0ULL - 10);
	BAD(dyn_exec, "PT_INTERP of 1 byte", im.ph[1].p_filesz = 1);
	BAD(dyn_exec, "PT_INTERP of 1 MiB", im.ph[1].p_filesz = 1 << 20; im.size = 4 << 20);
#undef BAD
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static const uint64_t interesting[] = {
	0,
	1,
	2,
	55,
	56,
	57,
	64,
	0xfff,
	0x1000,
	0x1001,
	0xffff,
	0x10000,
	TOP - 0x1000,
	TOP,
	TOP + 1,
	1ULL << 47,
	1ULL << 63,
	~0ULL - 0xfff,
	~0ULL - 1,
	~0ULL,
};

/* Mutates a few bytes or 8-byte fields of a header as read from a file. */
static void mutate(char *bytes, size_t span)
{
	int i, n = 1 + rnd() % 4;

	for (i = 0; i < n; i++) {
		if (rnd() % 2) {
			bytes[rnd() % span] = (char)rnd();
		} else {
			uint64_t v =
				interesting[rnd() % (sizeof(interesting) / sizeof(interesting[0]))];
			size_t at = (rnd() % (span / 8)) * 8;

			memcpy(bytes + at, &v, 8);
		}
	}
}

static void test_random(void)
{
	static struct image im;
	static char flat[64 + 8 * 56];
	long i, iters = 100000, bad = 0, accepted = 0;
	struct elf_layout l;

	for (i = 0; i < iters; i++) {
		int nph, ret;

		if (i % 2)
			static_exec(&im);
		else
			dyn_exec(&im);
		nph = im.eh.e_phnum;
		/* Mutate a flat copy of the header and phdrs, as read from a file. */
		memcpy(flat, &im.eh, 64);
		memcpy(flat + 64, im.ph, nph * 56);
		mutate(flat, 64 + nph * 56);
		memcpy(&im.eh, flat, 64);
		memcpy(im.ph, flat + 64, nph * 56);
		if (rnd() % 16 == 0)
			im.size = rnd() % 3 ? rnd() % (2 * FILE_SIZE) : rnd();
		if (rnd() % 64 == 0)
			im.eh.e_phnum = rnd() % (MAX_PH + 8);
		ret = elf_check_ehdr(&im.eh, im.size);
		if (ret != 0 && ret != -ENOEXEC)
			bad++;
		/* The loader reads e_phnum headers only after the ehdr passes. */
		if (ret != 0)
			continue;
		memset(&l, 0x5a, sizeof(l));
		ret = elf_check_phdrs(&im.eh, im.ph, im.size, &l);
		if (ret != 0 && ret != -ENOEXEC)
			bad++;
		if (ret != 0)
			continue;
		accepted++;
		if (!(l.lo <= l.hi && l.hi <= TOP && l.nloads >= 1 && !(l.lo & 0xfff) &&
		      !(l.hi & 0xfff) &&
		      (l.interp == -1 || (l.interp >= 0 && l.interp < im.eh.e_phnum &&
					  im.ph[l.interp].p_type == LINUX_PT_INTERP)))) {
			if (bad++ < 5)
				printf("# iteration %ld: layout [%#llx, %#llx) nloads %d interp "
				       "%d\n",
				       i, (unsigned long long)l.lo, (unsigned long long)l.hi,
				       l.nloads, l.interp);
		}
	}
	ok(bad == 0, "%ld mutated headers: only 0 or -ENOEXEC, sane layouts (%ld bad)", iters, bad);
	ok(accepted > 100 && accepted < iters, "some mutants pass, most not (%ld passed)",
	   accepted);
}

int main(void)
{
	test_valid();
	test_hostile();
	test_random();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
