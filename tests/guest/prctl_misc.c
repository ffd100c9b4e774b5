/* prctl options every x86-64 Linux answers: PR_GET_TIMING and
 * PR_SET_TIMING (statistical only), PR_GET_TSC (enabled) and PR_SET_TSC
 * (PR_TSC_ENABLE; 0 EINVAL), PR_TASK_PERF_EVENTS_DISABLE/ENABLE,
 * PR_MCE_KILL and PR_MCE_KILL_GET (the policy kept, inherited by fork,
 * its arguments checked), PR_SET_IO_FLUSHER/PR_GET_IO_FLUSHER (EPERM
 * without CAP_SYS_RESOURCE). skas said EINVAL to all. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"

int main(void)
{
	unsigned tsc = 0;
	int st;
	pid_t pid;

	check(prctl(PR_GET_TIMING, 0, 0, 0, 0) == PR_TIMING_STATISTICAL,
	      "PR_GET_TIMING: statistical");
	check(prctl(PR_SET_TIMING, PR_TIMING_STATISTICAL, 0, 0, 0) == 0,
	      "PR_SET_TIMING statistical");
	check_err(prctl(PR_SET_TIMING, PR_TIMING_TIMESTAMP, 0, 0, 0), EINVAL,
		  "PR_SET_TIMING timestamp: EINVAL");
	check(prctl(PR_GET_TSC, &tsc, 0, 0, 0) == 0 && tsc == PR_TSC_ENABLE, "PR_GET_TSC: enabled");
	check(prctl(PR_SET_TSC, PR_TSC_ENABLE, 0, 0, 0) == 0, "PR_SET_TSC enable");
	check_err(prctl(PR_SET_TSC, 0, 0, 0, 0), EINVAL, "PR_SET_TSC 0: EINVAL");
	check(prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0) == 0 &&
		      prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0) == 0,
	      "PR_TASK_PERF_EVENTS_DISABLE and _ENABLE");

	check(prctl(PR_MCE_KILL_GET, 0, 0, 0, 0) == PR_MCE_KILL_DEFAULT, "MCE policy: default");
	check(prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 0, 0) == 0 &&
		      prctl(PR_MCE_KILL_GET, 0, 0, 0, 0) == PR_MCE_KILL_EARLY,
	      "set early");
	pid = fork();
	if (pid == 0)
		_exit(prctl(PR_MCE_KILL_GET, 0, 0, 0, 0));
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == PR_MCE_KILL_EARLY,
	      "a child inherits it");
	check(prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_LATE, 0, 0) == 0 &&
		      prctl(PR_MCE_KILL_GET, 0, 0, 0, 0) == PR_MCE_KILL_LATE,
	      "set late");
	check_err(prctl(PR_MCE_KILL, PR_MCE_KILL_SET, 3, 0, 0), EINVAL, "set 3: EINVAL");
	check_err(prctl(PR_MCE_KILL, PR_MCE_KILL_CLEAR, 1, 0, 0), EINVAL,
		  "clear with an argument: EINVAL");
	check_err(prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 1, 0), EINVAL,
		  "a fourth argument: EINVAL");
	check_err(prctl(PR_MCE_KILL, 2, 0, 0, 0), EINVAL, "neither clear nor set: EINVAL");
	check_err(prctl(PR_MCE_KILL_GET, 1, 0, 0, 0), EINVAL, "get with an argument: EINVAL");
	check(prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_DEFAULT, 0, 0) == 0 &&
		      prctl(PR_MCE_KILL_GET, 0, 0, 0, 0) == PR_MCE_KILL_DEFAULT,
	      "set default");
	check(prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 0, 0) == 0 &&
		      prctl(PR_MCE_KILL, PR_MCE_KILL_CLEAR, 0, 0, 0) == 0 &&
		      prctl(PR_MCE_KILL_GET, 0, 0, 0, 0) == PR_MCE_KILL_DEFAULT,
	      "cleared: default");

	pid = fork();
	if (pid == 0) {
		int ok;

		if (setuid(1000) < 0)
			_exit(2);
		ok = prctl(PR_SET_IO_FLUSHER, 1, 0, 0, 0) < 0 && errno == EPERM;
		ok = ok && prctl(PR_GET_IO_FLUSHER, 0, 0, 0, 0) < 0 && errno == EPERM;
		_exit(ok);
	}
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 1,
	      "PR_SET_IO_FLUSHER, PR_GET_IO_FLUSHER without CAP_SYS_RESOURCE: EPERM");
	return 0;
}
