/* prctl PR_SET_THP_DISABLE and PR_GET_THP_DISABLE (skas had neither:
 * EINVAL, and MariaDB calls the first at start-up). The flag is the
 * address space's: another thread sees it, a fork keeps it and so does an
 * exec. Linux 6.18's third argument PR_THP_DISABLE_EXCEPT_ADVISED disables
 * huge pages but where madvise asks for them: the get then answers 3, and
 * /proc/self/status's THP_enabled stays 1 (it is 0 only when they are
 * disabled outright). Flags are only for disabling; unused arguments are
 * EINVAL. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ENAME
#include "tap.h"

#define EXCEPT_ADVISED (1 << 1)

static long get(void)
{
	return prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0);
}

/* /proc/self/status's THP_enabled, or -1. */
static int status_thp(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	int v = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "THP_enabled: %d", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

static void *thread_set(void *arg)
{
	(void)arg;
	return (void *)(long)prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
}

int main(int argc, char **argv)
{
	pthread_t th;
	void *ret;
	pid_t pid;
	int st;

	if (argc > 1) { /* the exec'd image: report what it was given */
		printf("exec: get %ld, THP_enabled %d\n", get(), status_thp());
		return 0;
	}
	check(get() == 0, "enabled at start: get 0");
	check(status_thp() == 1, "status THP_enabled 1");

	check(prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0, "disable: 0");
	check(get() == 1, "get 1");
	check(status_thp() == 0, "status THP_enabled 0");

	check(prctl(PR_SET_THP_DISABLE, 1, EXCEPT_ADVISED, 0, 0) == 0, "disable except advised: 0");
	check(get() == (1 | EXCEPT_ADVISED), "get 3");
	check(status_thp() == 1, "status THP_enabled 1 (not disabled outright)");

	check(prctl(PR_SET_THP_DISABLE, 0, 0, 0, 0) == 0, "enable: 0");
	check(get() == 0, "get 0");

	check(prctl(PR_SET_THP_DISABLE, 2, 0, 0, 0) == 0, "arg2 2 disables: 0");
	check(get() == 1, "get 1");
	prctl(PR_SET_THP_DISABLE, 0, 0, 0, 0);

	/* Flags only when disabling, and only the one; the rest unused. */
	check_err(prctl(PR_SET_THP_DISABLE, 0, EXCEPT_ADVISED, 0, 0), EINVAL, "enable with a flag");
	check_err(prctl(PR_SET_THP_DISABLE, 1, 1, 0, 0), EINVAL, "flag 1");
	check_err(prctl(PR_SET_THP_DISABLE, 1, 4 | EXCEPT_ADVISED, 0, 0), EINVAL,
		  "an unknown flag with the known one");
	check_err(prctl(PR_SET_THP_DISABLE, 1, 0, 1, 0), EINVAL, "set, arg4");
	check_err(prctl(PR_SET_THP_DISABLE, 1, 0, 0, 1), EINVAL, "set, arg5");
	check(get() == 0, "the failed calls changed nothing");
	check_err(prctl(PR_GET_THP_DISABLE, 1, 0, 0, 0), EINVAL, "get, arg2");
	check_err(prctl(PR_GET_THP_DISABLE, 0, 1, 0, 0), EINVAL, "get, arg3");
	check_err(prctl(PR_GET_THP_DISABLE, 0, 0, 1, 0), EINVAL, "get, arg4");
	check_err(prctl(PR_GET_THP_DISABLE, 0, 0, 0, 1), EINVAL, "get, arg5");

	/* The address space's: set in another thread, seen here. */
	check(pthread_create(&th, NULL, thread_set, NULL) == 0 && pthread_join(th, &ret) == 0 &&
		      ret == NULL,
	      "a thread disables");
	check(get() == 1, "the main thread sees it");

	/* A fork keeps it, and so does an exec. */
	prctl(PR_SET_THP_DISABLE, 1, EXCEPT_ADVISED, 0, 0);
	pid = fork();
	if (pid == 0) {
		printf("child: get %ld\n", get());
		fflush(stdout);
		execl("/proc/self/exe", argv[0], "exec", (char *)NULL);
		_exit(127);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "child ran");
	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	pid = fork();
	if (pid == 0) {
		execl("/proc/self/exe", argv[0], "exec", (char *)NULL);
		_exit(127);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "second child ran");
	return 0;
}
