/* The main thread's stack grows on demand up to RLIMIT_STACK: deep
 * recursion, a signal handler running deep in a fresh part of the stack,
 * the [stack] mapping growing, and SIGSEGV past the limit in a child. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "tap.h"

/* Each level touches 4 KiB of its frame. */
static long deep(int levels)
{
	volatile char frame[4096];

	frame[0] = (char)levels;
	frame[4095] = 1;
	if (levels == 0)
		return frame[4095];
	return deep(levels - 1) + frame[0] - (char)levels + 1;
}

static volatile int handled;

static void on_usr1(int sig)
{
	volatile char big[16384];

	big[0] = (char)sig;
	big[16383] = 1;
	handled = big[0] + big[16383];
}

static long deep_signal(int levels)
{
	volatile char frame[4096];

	frame[0] = 1;
	if (levels == 0) {
		raise(SIGUSR1);
		return frame[0];
	}
	return deep_signal(levels - 1) + frame[0];
}

/* The size of the [stack] mapping, from /proc/self/maps. */
static unsigned long stack_size(void)
{
	char line[512];
	unsigned long lo, hi, size = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[stack]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			size = hi - lo;
	fclose(f);
	return size;
}

int main(void)
{
	unsigned long before = stack_size(), after;
	int status;
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);
	check(before > 0 && before < (1UL << 20), "the stack starts small (under 1 MiB)");
	check(deep(1536) == 1537, "recursion over 6 MiB of stack");
	after = stack_size();
	check(after >= (6UL << 20) && after <= (8UL << 20), "[stack] grew to 6-8 MiB");
	signal(SIGUSR1, on_usr1);
	check(deep_signal(200) == 201 && handled == SIGUSR1 + 1,
	      "a handler with a 16 KiB frame runs deep in the stack");
	pid = fork();
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		deep(2304); /* 9 MiB: past the 8 MiB RLIMIT_STACK */
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "past RLIMIT_STACK: SIGSEGV");
	return 0;
}
