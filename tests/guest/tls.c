/* Thread-local storage: libc sets up %fs with arch_prctl(ARCH_SET_FS) at
 * startup; __thread variables must work and ARCH_GET_FS must agree with the
 * TCB self-pointer at %fs:0 (both glibc and musl keep one there). */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tap.h"

#define ARCH_SET_GS 0x1001
#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
#define ARCH_GET_GS 0x1004

static __thread int tv = 5;
static __thread long tz[64];
static __thread char tc = 'x';

int main(void)
{
	unsigned long fs = 0, gs = 1, self, fs2 = 0;
	volatile int *vp = &tv;
	long r;
	int i, zero = 1;

	check(*vp == 5, "__thread int initialised to 5 reads 5");
	*vp = 7;
	check(tv == 7, "after writing 7 it reads 7");
	for (i = 0; i < 64; i++)
		if (tz[i])
			zero = 0;
	check(zero, "zero-initialised __thread array (tbss) is zero");
	tz[63] = 9;
	check(tz[63] == 9, "tbss is writable");
	check(tc == 'x', "__thread char initialised");

	r = syscall(SYS_arch_prctl, ARCH_GET_FS, &fs);
	check(r == 0, "arch_prctl(ARCH_GET_FS) returns 0");
	check(fs != 0, "FS base is nonzero");
	__asm__ volatile("mov %%fs:0, %0" : "=r"(self));
	check(self == fs, "%fs:0 (TCB self-pointer) equals ARCH_GET_FS");
	check((unsigned long)&tv < fs && fs - (unsigned long)&tv < 65536,
	      "TLS variables sit just below the FS base (variant II)");

	r = syscall(SYS_arch_prctl, ARCH_GET_GS, &gs);
	check(r == 0 && gs == 0, "arch_prctl(ARCH_GET_GS) is 0");

	/* setting FS to its own value is harmless */
	r = syscall(SYS_arch_prctl, ARCH_SET_FS, fs);
	check(r == 0, "arch_prctl(ARCH_SET_FS, same value) returns 0");
	syscall(SYS_arch_prctl, ARCH_GET_FS, &fs2);
	check(fs2 == fs && tv == 7, "FS unchanged, TLS still reads 7");

	errno = 0;
	r = syscall(SYS_arch_prctl, ARCH_SET_FS, 0xffff800000000000UL);
	check(r == -1 && errno == EPERM, "ARCH_SET_FS to a kernel address -> EPERM");
	errno = 0;
	r = syscall(SYS_arch_prctl, 0x9999, &fs2);
	check(r == -1 && errno == EINVAL, "arch_prctl with a bad code -> EINVAL");
	syscall(SYS_arch_prctl, ARCH_GET_FS, &fs2);
	check(fs2 == fs && tv == 7, "FS still unchanged after the failed calls");

	/* GS is the program's own to set (nothing in libc uses it). */
	r = syscall(SYS_arch_prctl, ARCH_SET_GS, (unsigned long)tz);
	syscall(SYS_arch_prctl, ARCH_GET_GS, &gs);
	__asm__ volatile("mov %%gs:(%1), %0" : "=r"(self) : "r"(63 * sizeof(long)));
	check(r == 0 && gs == (unsigned long)tz && self == 9, "ARCH_SET_GS: %gs reads there");
	r = syscall(SYS_arch_prctl, ARCH_SET_GS, 0UL);
	syscall(SYS_arch_prctl, ARCH_GET_GS, &gs);
	check(r == 0 && gs == 0, "ARCH_SET_GS back to 0");

	/* A fork whose TLS is a kernel address fails as arch_prctl would. */
	errno = 0;
	r = syscall(SYS_clone, SIGCHLD | CLONE_SETTLS, 0UL, NULL, NULL, 0xffff800000000000UL);
	if (r == 0)
		syscall(SYS_exit, 0);
	if (r > 0)
		waitpid((pid_t)r, NULL, 0);
	check(r == -1 && errno == EPERM, "clone with CLONE_SETTLS of a kernel address -> EPERM");
	return 0;
}
