/* skas-test: exit: 139 */
/* Prints "before", flushes, then stores through a NULL pointer: the guest
 * must die of SIGSEGV (exit status 139) and nothing after it is printed. */
#include <stdio.h>

int main(void)
{
	/* volatile pointer to volatile: the compiler can neither drop the store
	 * nor turn it into a trap instruction */
	volatile int *volatile p = 0;

	printf("before\n");
	fflush(stdout);
	*p = 1;
	printf("after\n");
	return 0;
}
