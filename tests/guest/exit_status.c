/* skas-test: exit: 42 */
/* Prints, flushes, then leaves through a raw exit_group(42): the runner
 * compares the exit status (42 natively and under skas). */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(void)
{
	printf("ok 1 - about to exit_group(42)\n");
	fflush(stdout);
	syscall(SYS_exit_group, 42);
	printf("not ok 2 - exit_group returned\n");
	return 1;
}
