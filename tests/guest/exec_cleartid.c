/* An exec in a child that shares its parent's memory (clone CLONE_VM
 * without CLONE_VFORK, with CLONE_CHILD_CLEARTID) releases the old memory
 * as Linux's mm_release does: the child's clear_child_tid word is zeroed
 * and a futex waiter on it woken, as at a thread's exit, because someone
 * else still uses that memory. Then the child runs the new program
 * (itself, with "child") and exits 7. A second child whose exec fails
 * (a missing file) still has its word: only the exec's point of no return
 * releases it. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TAP_FLUSH
#include "tap.h"

#define FUTEX_WAIT 0
static volatile uint32_t tid_word = 0x5a5a;
static volatile int exec_errno;
static char stack[2][64 * 1024] __attribute__((aligned(16)));

/* The child: only raw calls, sharing the parent's memory and TLS. */
static int child_exec(void *arg)
{
	char *argv[] = { "exec_cleartid", "child", NULL };
	const char *path = arg;

	syscall(SYS_execve, path, argv, NULL);
	exec_errno = errno;
	syscall(SYS_exit, 3);
	return 0;
}

int main(int argc, char **argv)
{
	struct timespec ts = { 5, 0 };
	int pid, status;
	long r;

	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return 7;
	setvbuf(stdout, NULL, _IONBF, 0);

	/* The parent waits on the word before the child can exec: the
	 * exec's wake (or its zero, seen as EAGAIN) ends the wait; a wait
	 * that times out means neither came (the bound is only a guard). */
	pid = clone(child_exec, stack[0] + sizeof(stack[0]),
		    CLONE_VM | CLONE_CHILD_CLEARTID | SIGCHLD, "/proc/self/exe", NULL, NULL,
		    &tid_word);
	check(pid > 0, "clone CLONE_VM|CLONE_CHILD_CLEARTID");
	if (pid < 0)
		return 1;
	do
		r = syscall(SYS_futex, &tid_word, FUTEX_WAIT, 0x5a5a, &ts, NULL, 0);
	while (r == -1 && errno == EINTR);
	check(r == 0 || errno == EAGAIN, "the futex wait on the word ends (woken or zero)");
	check(tid_word == 0, "the exec zeroed the child's clear_child_tid word");
	check(waitpid(pid, &status, 0) == pid, "waitpid the child");
	check(WIFEXITED(status) && WEXITSTATUS(status) == 7, "the child ran the new program");

	/* An exec that fails early keeps the word and the child's memory. */
	tid_word = 0x5a5a;
	exec_errno = 0;
	pid = clone(child_exec, stack[1] + sizeof(stack[1]),
		    CLONE_VM | CLONE_VFORK | CLONE_CHILD_CLEARTID | SIGCHLD, "/nonexistent/x", NULL,
		    NULL, &tid_word);
	check(pid > 0, "clone CLONE_VM|CLONE_VFORK|CLONE_CHILD_CLEARTID, a missing file");
	if (pid < 0)
		return 1;
	check(waitpid(pid, &status, 0) == pid, "waitpid the child");
	check(WIFEXITED(status) && WEXITSTATUS(status) == 3,
	      "the child's exec failed, it exited 3");
	check(exec_errno == ENOENT, "the exec failed ENOENT");
	/* The child's exit cleared the word (its memory is still shared). */
	check(tid_word == 0, "the child's exit zeroed the word");
	return 0;
}
