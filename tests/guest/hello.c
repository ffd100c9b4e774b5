/* skas guest test: the smallest program that prints something. */
#include <stdio.h>

int main(void)
{
	printf("hello\n");
	return 0;
}
