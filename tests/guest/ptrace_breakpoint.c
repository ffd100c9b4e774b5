/* A debugger's breakpoint with ptrace(2): POKETEXT of an int3 into the
 * tracee's read-only text (written all the same, as Linux's FOLL_FORCE,
 * copy-on-write: the tracer's own text and the file keep theirs), the
 * SIGTRAP stop it gives (si_code SI_KERNEL, rip past the int3), the byte
 * put back and rip moved back, the call then runs as if nothing happened;
 * POKEDATA of a shared read-only mapping is EIO; GETFPREGS. skas had no
 * ptrace. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

#include "tap.h"

__attribute__((noinline, noipa)) static int target(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 6;
}

static volatile int seven = 7;

int main(void)
{
	uintptr_t at = (uintptr_t)&target;
	struct user_regs_struct r;
	struct user_fpregs_struct fp;
	siginfo_t si;
	long word, patched;
	int st;
	char *shared;
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);
	shared = mmap(NULL, 4096, PROT_READ, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return 1;
	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		_exit(target(seven));
	}
	waitpid(pid, &st, 0);
	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, at, 0);
	check(errno == 0 && word == *(long *)at, "PEEKTEXT reads the tracee's text");
	patched = (word & ~0xffL) | 0xcc;
	check(ptrace(PTRACE_POKETEXT, pid, at, patched) == 0,
	      "POKETEXT of an int3 into read-only text");
	check(ptrace(PTRACE_PEEKTEXT, pid, at, 0) == patched, "the tracee's text has it");
	check(*(long *)at == word, "the tracer's own text does not");
	check(ptrace(PTRACE_POKEDATA, pid, shared, 1) == -1 && errno == EIO,
	      "POKEDATA of a read-only shared mapping is EIO");
	check(ptrace(PTRACE_GETFPREGS, pid, 0, &fp) == 0 && fp.cwd == 0x37f,
	      "GETFPREGS: the x87 control word");
	ptrace(PTRACE_CONT, pid, 0, 0);
	check(waitpid(pid, &st, 0) == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP,
	      "the int3 stops the tracee with SIGTRAP");
	check(ptrace(PTRACE_GETSIGINFO, pid, 0, &si) == 0 && si.si_code == SI_KERNEL,
	      "its si_code is SI_KERNEL");
	check(ptrace(PTRACE_GETREGS, pid, 0, &r) == 0 && r.rip == at + 1, "rip is past the int3");
	check(ptrace(PTRACE_POKETEXT, pid, at, word) == 0, "the byte put back");
	r.rip = at;
	check(ptrace(PTRACE_SETREGS, pid, 0, &r) == 0, "rip moved back");
	ptrace(PTRACE_CONT, pid, 0, 0);
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 42,
	      "the call runs as if nothing happened");
	return 0;
}
