/* Identity syscalls. The uid/gid values are printed: the suite is run by the
 * same user natively and under skas. */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "tap.h"

int main(void)
{
	long pid = syscall(SYS_getpid);
	long ppid = syscall(SYS_getppid);
	long tid = syscall(SYS_gettid);

	printf("ok %d - getuid = %ld\n", ++n, syscall(SYS_getuid));
	printf("ok %d - geteuid = %ld\n", ++n, syscall(SYS_geteuid));
	printf("ok %d - getgid = %ld\n", ++n, syscall(SYS_getgid));
	printf("ok %d - getegid = %ld\n", ++n, syscall(SYS_getegid));
	check((long)getuid() == syscall(SYS_getuid), "libc getuid agrees with the syscall");
	check((long)getgid() == syscall(SYS_getgid), "libc getgid agrees with the syscall");
	check(pid > 0, "getpid > 0");
	/* Under skas the program is pid 1 of its own pid namespace, whose parent
	 * is 0 as in any container; natively it has a real parent. */
	check(ppid >= 0, "getppid >= 0");
	check(pid != ppid, "getpid != getppid");
	check(tid == pid, "gettid == getpid");
	check(syscall(SYS_getpid) == pid, "getpid is stable");
	check((long)getpid() == pid, "libc getpid agrees with the syscall");
	check((long)getppid() == ppid, "libc getppid agrees with the syscall");
	return 0;
}
