/* execve's errors and their order, as Linux 6.x: the file is opened before
 * argv and envp are read (a missing or non-executable file is ENOENT or
 * EACCES even with a bad argv); an empty argv gives the program argc 1 and
 * argv[0] "" (Linux 5.18 on); a failure after the old image is gone (a
 * data segment whose file bytes lie past the end of the file) kills the
 * process with SIGSEGV, for fork+exec and vfork+exec alike. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

static long raw_execve(const char *path, void *argv, void *envp)
{
	long r = syscall(SYS_execve, path, argv, envp);

	return r < 0 ? -errno : r;
}

/* A page no one maps: a pointer into it faults. */
static void *bad_page(void)
{
	void *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* A static ELF that would exit(0), but whose writable segment's file bytes
 * (offset 0x1000) lie past the file's end (200 bytes): the kernel maps it,
 * then cannot clear the rest of its page (the bss), after the point of no
 * return. */
static int write_bad_elf(const char *path)
{
	static const unsigned char code[] = {
		0xb8, 0x3c, 0x00, 0x00, 0x00, /* mov $60, %eax */
		0x31, 0xff,		      /* xor %edi, %edi */
		0x0f, 0x05,		      /* syscall */
	};
	unsigned char img[200];
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	Elf64_Phdr *ph = (Elf64_Phdr *)(img + sizeof(*eh));
	size_t code_off = sizeof(*eh) + 2 * sizeof(*ph);
	int fd;

	memset(img, 0, sizeof(img));
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_entry = 0x400000 + code_off;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 2;
	ph[0].p_type = PT_LOAD;
	ph[0].p_flags = PF_R | PF_X;
	ph[0].p_offset = 0;
	ph[0].p_vaddr = ph[0].p_paddr = 0x400000;
	ph[0].p_filesz = ph[0].p_memsz = sizeof(img);
	ph[0].p_align = 0x1000;
	ph[1].p_type = PT_LOAD;
	ph[1].p_flags = PF_R | PF_W;
	ph[1].p_offset = 0x1000;
	ph[1].p_vaddr = ph[1].p_paddr = 0x401000;
	ph[1].p_filesz = 0x10;
	ph[1].p_memsz = 0x100;
	ph[1].p_align = 0x1000;
	memcpy(img + code_off, code, sizeof(code));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd < 0)
		return -1;
	if (write(fd, img, sizeof(img)) != (ssize_t)sizeof(img)) {
		close(fd);
		return -1;
	}
	return close(fd);
}

static void describe(const char *how, int st)
{
	if (WIFSIGNALED(st))
		printf("ok %d - %s: killed by signal %d\n", ++n, how, WTERMSIG(st));
	else
		printf("ok %d - %s: exit %d\n", ++n, how, WEXITSTATUS(st));
}

int main(int argc, char **argv)
{
	char self[4096], bad[64];
	char *good_argv[] = { "x", NULL };
	void *badp = bad_page();
	ssize_t k;
	pid_t p;
	int st, fd;

	if (argc >= 1 && argv[0][0] == '\0') {
		/* The child of the empty-argv exec. */
		printf("child: argc %d, argv[0] \"%s\", argv[1] %s\n", argc, argv[0],
		       argv[1] ? "set" : "NULL");
		return 0;
	}
	if (argc == 0) {
		printf("child: argc 0\n");
		return 0;
	}
	k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (k < 0 || !badp) {
		printf("not ok 1 - setup\n");
		return 1;
	}
	self[k] = 0;

	/* The file comes first. */
	check(raw_execve("/nonexistent/x", badp, NULL) == -ENOENT,
	      "missing file, bad argv: ENOENT");
	check(raw_execve("/nonexistent/x", good_argv, badp) == -ENOENT,
	      "missing file, bad envp: ENOENT");
	snprintf(bad, sizeof(bad), "/tmp/exec_errors.%d", (int)getpid());
	fd = open(bad, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0)
		close(fd);
	check(raw_execve(bad, badp, NULL) == -EACCES, "non-executable file, bad argv: EACCES");
	check(raw_execve("/", badp, NULL) == -EACCES, "a directory, bad argv: EACCES");
	check(raw_execve(self, badp, NULL) == -EFAULT, "an executable, bad argv: EFAULT");
	check(raw_execve(self, good_argv, badp) == -EFAULT, "an executable, bad envp: EFAULT");
	check(raw_execve(bad, good_argv, NULL) == -EACCES, "non-executable file: EACCES");
	chmod(bad, 0755);
	check(raw_execve(bad, good_argv, NULL) == -ENOEXEC, "an empty executable file: ENOEXEC");

	/* argv NULL: argc 1, argv[0] "". */
	fflush(stdout);
	p = fork();
	if (p == 0) {
		raw_execve(self, NULL, NULL);
		_exit(99);
	}
	waitpid(p, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "argv NULL: the program runs");
	fflush(stdout);
	p = fork();
	if (p == 0) {
		char *empty[] = { NULL };

		raw_execve(self, empty, NULL);
		_exit(99);
	}
	waitpid(p, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "argv {NULL}: the program runs");

	/* Past the point of no return. */
	if (write_bad_elf(bad) < 0) {
		printf("not ok %d - write %s: %s\n", ++n, bad, strerror(errno));
		unlink(bad);
		return 1;
	}
	fflush(stdout);
	p = fork();
	if (p == 0) {
		raw_execve(bad, good_argv, NULL);
		_exit(99);
	}
	waitpid(p, &st, 0);
	describe("fork+exec of an ELF whose data lies past its end", st);
	p = vfork();
	if (p == 0) {
		raw_execve(bad, good_argv, NULL);
		_exit(98);
	}
	waitpid(p, &st, 0);
	describe("vfork+exec of the same", st);
	unlink(bad);
	return 0;
}
