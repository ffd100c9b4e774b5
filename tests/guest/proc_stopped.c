/* /proc/PID/stat and status show a stopped process as Linux does: 'T'
 * and "T (stopped)" once waitpid has reported the stop (ps shows T), and
 * no more once it is continued. skas said 'S' (sleeping) throughout:
 * found by ps -o stat of a job stopped with kill -STOP. A vfork parent
 * waiting for its child is 'D' (Linux's wait_for_vfork_done sleeps
 * TASK_KILLABLE); skas said 'S'. A traced process in a group stop is in
 * a ptrace stop, 't' (skas said 'T'). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tap.h"

static char stat_state(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t len;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

static int status_says(pid_t pid, const char *want)
{
	char path[64], line[256];
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "State:\t", 7) == 0)
			found = strncmp(line + 7, want, strlen(want)) == 0;
	fclose(f);
	return found;
}

int main(void)
{
	int status, i, p[2];
	pid_t pid;
	char c;

	if (pipe(p) < 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		/* asleep in a pipe read, as a job waiting for input */
		close(p[1]);
		read(p[0], &c, 1);
		_exit(0);
	}
	close(p[0]);
	kill(pid, SIGSTOP);
	check(waitpid(pid, &status, WUNTRACED) == pid && WIFSTOPPED(status),
	      "the stop is reported");
	check(stat_state(pid) == 'T', "stat: T");
	check(status_says(pid, "T (stopped)"), "status: T (stopped)");
	kill(pid, SIGCONT);
	check(waitpid(pid, &status, WCONTINUED) == pid && WIFCONTINUED(status),
	      "the continue is reported");
	/* it runs again, back to its read: no longer T (at most 5 s) */
	for (i = 0; i < 500 && stat_state(pid) == 'T'; i++)
		usleep(10000);
	check(stat_state(pid) != 'T', "stat: no longer T");
	close(p[1]);
	check(waitpid(pid, &status, 0) == pid && WIFEXITED(status), "it exits");

	/* a vfork parent while its child waits in a pipe read */
	if (pipe(p) < 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		if (vfork() == 0) {
			syscall(SYS_read, p[0], &c, 1);
			_exit(0);
		}
		_exit(0);
	}
	close(p[0]);
	for (i = 0; i < 500 && stat_state(pid) != 'D'; i++)
		usleep(10000);
	check(stat_state(pid) == 'D', "a vfork parent: stat D");
	check(status_says(pid, "D (disk sleep)"), "status: D (disk sleep)");
	close(p[1]);
	check(waitpid(pid, &status, 0) == pid && WIFEXITED(status), "the vfork parent exits");

	/* a traced process stopped by SIGSTOP is in a ptrace stop: 't' */
	pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	check(ptrace(PTRACE_SEIZE, pid, 0, 0) == 0, "seized");
	kill(pid, SIGSTOP);
	check(waitpid(pid, &status, 0) == pid && WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP,
	      "its signal-delivery stop");
	check(ptrace(PTRACE_CONT, pid, 0, SIGSTOP) == 0, "continued with SIGSTOP");
	check(waitpid(pid, &status, 0) == pid && WIFSTOPPED(status) &&
		      (status >> 16) == PTRACE_EVENT_STOP,
	      "its group stop");
	check(stat_state(pid) == 't', "traced, in its group stop: stat t");
	check(status_says(pid, "t (tracing stop)"), "status: t (tracing stop)");
	check(ptrace(PTRACE_LISTEN, pid, 0, 0) == 0, "PTRACE_LISTEN (as strace does)");
	usleep(100000);
	check(stat_state(pid) == 't', "listening, still in the stop: stat t");
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return 0;
}
