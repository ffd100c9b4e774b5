/* Syscall numbers the kernel does not know fail with ENOSYS. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

static int n;

static void expect_enosys(long nr, const char *what)
{
	long r;

	errno = 0;
	r = syscall(nr, 0, 0, 0, 0, 0, 0);
	if (r == -1 && errno == ENOSYS)
		printf("ok %d - %s -> ENOSYS\n", ++n, what);
	else
		printf("not ok %d - %s: ret %ld errno %d\n", ++n, what, r, errno);
}

int main(void)
{
	long r;

	expect_enosys(1000, "syscall(1000)");
	expect_enosys(-1, "syscall(-1)");
	/* Not 335/336: since Linux 6.11/6.16 they are uretprobe/uprobe, and
	 * calling uretprobe from outside its trampoline raises SIGILL. The x86_64
	 * table has nothing in 337..423 (new common syscalls start at 424). */
	expect_enosys(387, "syscall(387) (unused x86_64 number)");
	expect_enosys(400, "syscall(400) (unused x86_64 number)");
	expect_enosys(0xffffffffL, "syscall(0xffffffff)");
	expect_enosys(512, "syscall(512) (x32-only number, without the x32 bit)");
	expect_enosys(100000, "syscall(100000)");

	/* Linux looks only at the low 32 bits of the syscall number (as a
	 * signed int): 0x100000000 + SYS_getpid is getpid. */
	errno = 0;
	r = syscall(0x100000000L + SYS_getpid, 0, 0, 0, 0, 0, 0);
	printf("%s %d - syscall(0x100000000 + SYS_getpid) is getpid\n",
	       r == getpid() ? "ok" : "not ok", ++n);
	/* The same for a call skas's seccomp backend takes in a ptrace stop
	 * and reads from the registers (where orig_rax has all 64 bits). */
	{
		unsigned long fs = 0, fs_hi = 0;
		long r2;

		r = syscall(SYS_arch_prctl, 0x1003 /* ARCH_GET_FS */, &fs);
		r2 = syscall(0x100000000L + SYS_arch_prctl, 0x1003, &fs_hi);
		printf("%s %d - syscall(0x100000000 + SYS_arch_prctl) is arch_prctl\n",
		       r == 0 && r2 == 0 && fs == fs_hi && fs != 0 ? "ok" : "not ok", ++n);
	}
	return 0;
}
