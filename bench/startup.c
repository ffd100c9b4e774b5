/* bench/startup.c: wall time from fork to exit of a command, run R times.
 * This one runs natively (it forks); it times `CMD...` as a whole, e.g.
 *     startup 50 /bin/true
 *     startup 50 ./skas run -- /bin/true
 * and prints "startup min_ns=X median_ns=Y n=R rounds=R". The command's
 * stdout/stderr go to /dev/null; a non-zero exit aborts with status 1. */
#include "bench.h"
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: startup R CMD [ARGS...]\n");
		return 2;
	}
	int r = atoi(argv[1]);
	if (r < 1)
		r = 1;
	if (r > BENCH_MAX_ROUNDS)
		r = BENCH_MAX_ROUNDS;
	double res[BENCH_MAX_ROUNDS];
	for (int k = -1; k < r; k++) { /* k == -1: warm-up */
		long long t0 = bench_now_ns();
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);
			if (null >= 0) {
				dup2(null, 1);
				dup2(null, 2);
			}
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		int st;
		if (waitpid(pid, &st, 0) < 0) {
			perror("waitpid");
			return 1;
		}
		long long t1 = bench_now_ns();
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			fprintf(stderr, "startup: %s failed (status 0x%x)\n", argv[2], st);
			return 1;
		}
		if (k >= 0)
			res[k] = (double)(t1 - t0);
	}
	bench_report("startup", res, r, r);
	return 0;
}
