/* Orphaned process groups: SIGTSTP/SIGTTIN/SIGTTOU at their default action
 * are discarded in one (SIGSTOP is not), and a group that becomes orphaned
 * while a member is stopped gets SIGHUP and SIGCONT. A stop of a
 * multithreaded process is reported once, when it is whole. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
static int hup_pipe[2];

static void on_hup(int sig)
{
	(void)sig;
	if (write(hup_pipe[1], "h", 1) != 1)
		_exit(3);
}

static void on_cont(int sig)
{
	(void)sig;
	if (write(hup_pipe[1], "c", 1) != 1)
		_exit(3);
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(void)
{
	int st;
	pid_t c, s;
	char buf[8];

	setvbuf(stdout, NULL, _IONBF, 0);
	alarm(20);

	/* 1-2: discarded stops in an orphaned group (a new session's) */
	c = fork();
	if (c == 0) {
		if (setsid() < 0)
			_exit(1);
		raise(SIGTSTP);
		raise(SIGTTIN);
		raise(SIGTTOU);
		_exit(0);
	}
	check(waitpid(c, &st, WUNTRACED) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "SIGTSTP, SIGTTIN, SIGTTOU to an orphaned group are discarded");
	c = fork();
	if (c == 0) {
		if (setsid() < 0)
			_exit(1);
		raise(SIGSTOP);
		_exit(0);
	}
	check(waitpid(c, &st, WUNTRACED) == c && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP,
	      "SIGSTOP still stops a process of an orphaned group");
	kill(c, SIGCONT);
	check(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "and SIGCONT lets it finish");

	/* 4: a group orphaned with a stopped member gets SIGHUP, SIGCONT */
	if (pipe(hup_pipe) < 0)
		return 1;
	s = fork();
	if (s == 0) {
		pid_t m, g;

		setsid(); /* session S, group S */
		m = fork();
		if (m == 0) {
			g = fork();
			if (g == 0) {
				struct sigaction sa;

				memset(&sa, 0, sizeof(sa));
				sa.sa_handler = on_hup;
				sigaction(SIGHUP, &sa, NULL);
				sa.sa_handler = on_cont;
				sigaction(SIGCONT, &sa, NULL);
				setpgid(0, 0); /* group G, its parent's group is S */
				raise(SIGSTOP);
				_exit(0);
			}
			/* once g is stopped, leave: g's group is orphaned */
			waitpid(g, &st, WUNTRACED);
			_exit(WIFSTOPPED(st) ? 0 : 1);
		}
		waitpid(m, &st, 0);
		_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 2);
	}
	close(hup_pipe[1]);
	check(waitpid(s, &st, 0) == s && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the middle process saw its child stop and exited");
	{
		ssize_t got = 0, r;

		while (got < 2 && (r = read(hup_pipe[0], buf + got, 2 - got)) > 0)
			got += r;
		buf[got < 2 ? 0 : 2] = 0;
	}
	/* both handlers run (in the order their frames stack) */
	check((buf[0] == 'h' && buf[1] == 'c') || (buf[0] == 'c' && buf[1] == 'h'),
	      "the orphaned stopped group got SIGHUP, then SIGCONT");
	close(hup_pipe[0]);

	/* 6-7: a multithreaded stop is reported once */
	c = fork();
	if (c == 0) {
		pthread_t th[3];
		int k;

		/* a group of its own, linked to the parent's: not orphaned
		 * (natively the test's own group may or may not be) */
		setpgid(0, 0);
		for (k = 0; k < 3; k++)
			pthread_create(&th[k], NULL, sleeper, NULL);
		for (;;)
			pause();
	}
	usleep(100000);
	kill(c, SIGTSTP);
	check(waitpid(c, &st, WUNTRACED) == c && WIFSTOPPED(st) && WSTOPSIG(st) == SIGTSTP,
	      "a 4-thread process stops on SIGTSTP");
	check(waitpid(c, &st, WUNTRACED | WNOHANG) == 0, "its stop is reported once");
	kill(c, SIGKILL);
	check(waitpid(c, &st, 0) == c && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
	      "SIGKILL ends it while stopped");
	return 0;
}
