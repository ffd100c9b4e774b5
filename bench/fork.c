/* bench/fork.c: fork+_exit+waitpid, or with argv[3] = PATH,
 * fork+execve(PATH)+waitpid, per operation.
 * usage: fork [N [R [PATH]]] */
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static void fork_exit(void)
{
	int st;
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	waitpid(p, &st, 0);
}

static const char *path;

static void fork_exec(void)
{
	int st;
	pid_t p = fork();

	if (p == 0) {
		char *argv[] = { (char *)path, NULL }, *envp[] = { NULL };

		execve(path, argv, envp);
		_exit(127);
	}
	waitpid(p, &st, 0);
}

int main(int argc, char **argv)
{
	long n;
	int r;

	bench_args(argc, argv, 1, 1000, &n, &r);
	if (argc > 3) {
		path = argv[3];
		BENCH_LOOP("fork_exec", n, r, fork_exec());
	} else {
		BENCH_LOOP("fork_exit", n, r, fork_exit());
	}
	return 0;
}
