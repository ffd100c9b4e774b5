/* PR_SET_PDEATHSIG is a thread's own setting (Linux keeps it in the task):
 * a new thread and a forked child start with 0; when the parent goes,
 * each thread of the child that set one sends it to its process; a change
 * of the effective or fs ids drops the calling thread's; an exec that
 * changes no id keeps it. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TAP_FLUSH
#include "tap.h"

static int get_pdeath(void)
{
	int sig = -1;

	if (prctl(PR_GET_PDEATHSIG, &sig) < 0)
		return -2;
	return sig;
}

static void *thread_get(void *arg)
{
	*(int *)arg = get_pdeath();
	return NULL;
}

static int ready[2];

static void *thread_set(void *arg)
{
	int sig = *(int *)arg;

	if (prctl(PR_SET_PDEATHSIG, sig) < 0 || write(ready[1], "s", 1) != 1)
		_exit(9);
	/* stays alive: its setting is what the parent's death reads */
	for (;;)
		pause();
	return NULL;
}

/* The grandchild: a second thread sets SIGUSR2, the main thread none;
 * SIGUSR1 and SIGUSR2 blocked in both. Reports which arrived when its
 * parent exits, on fd out. */
static void grandchild(int out)
{
	struct timespec ts = { 10, 0 };
	sigset_t set;
	pthread_t t;
	int sig = SIGUSR2, got;
	char c;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (pipe(ready) < 0 || pthread_create(&t, NULL, thread_set, &sig) != 0 ||
	    read(ready[0], &c, 1) != 1)
		_exit(8);
	c = get_pdeath() == 0 ? 'z' : 'n'; /* the main thread's own: none */
	if (write(out, &c, 1) != 1)
		_exit(7);
	got = sigtimedwait(&set, NULL, &ts);
	c = got == SIGUSR2 ? '2' : got == SIGUSR1 ? '1' : 't';
	if (write(out, &c, 1) != 1)
		_exit(7);
	_exit(0);
}

int main(int argc, char **argv)
{
	int sig, p[2], status;
	pthread_t t;
	pid_t pid, mid;
	char buf[4];

	if (argc > 2 && strcmp(argv[1], "after-exec") == 0) {
		n = atoi(argv[2]);
		check(get_pdeath() == SIGUSR1, "an exec that changes no id keeps the signal");
		return 0;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	prctl(PR_SET_CHILD_SUBREAPER, 1);

	check(prctl(PR_SET_PDEATHSIG, SIGUSR1) == 0, "PR_SET_PDEATHSIG SIGUSR1");
	check(get_pdeath() == SIGUSR1, "PR_GET_PDEATHSIG reads it back");
	sig = -1;
	pthread_create(&t, NULL, thread_get, &sig);
	pthread_join(t, NULL);
	check(sig == 0, "a new thread starts with none");
	pid = fork();
	if (pid == 0)
		_exit(get_pdeath() == 0 ? 0 : 1);
	check(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "a forked child starts with none");
	errno = 0;
	check(prctl(PR_SET_PDEATHSIG, 65) == -1 && errno == EINVAL, "signal 65 is EINVAL");
	check(get_pdeath() == SIGUSR1, "the failed set changed nothing");

	/* the parent goes: the thread that set SIGUSR2 sends it */
	if (pipe(p) < 0)
		return 1;
	mid = fork();
	if (mid == 0) {
		if (fork() == 0) {
			close(p[0]);
			grandchild(p[1]);
		}
		/* waits for the grandchild's first byte, then exits */
		if (read(p[0], buf, 1) != 1)
			_exit(5);
		_exit(buf[0] == 'z' ? 0 : 6);
	}
	close(p[1]);
	check(waitpid(mid, &status, 0) == mid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the middle process exits; the child's main thread had none");
	check(read(p[0], buf, 1) == 1 && buf[0] == '2',
	      "the thread's SIGUSR2 came when the parent exited");
	close(p[0]);
	while (waitpid(-1, &status, 0) > 0)
		;

	/* an id change drops the calling thread's */
	pid = fork();
	if (pid == 0) {
		int r = 0;

		prctl(PR_SET_PDEATHSIG, SIGUSR2);
		syscall(SYS_setresuid, -1, -1, -1);
		if (get_pdeath() != SIGUSR2)
			r |= 1; /* no change: kept */
		syscall(SYS_setfsuid, 0);
		if (get_pdeath() != SIGUSR2)
			r |= 2; /* fsuid already 0: kept */
		syscall(SYS_setfsuid, 1234);
		if (get_pdeath() != 0)
			r |= 4; /* fsuid changed: dropped */
		syscall(SYS_setfsuid, 0);
		prctl(PR_SET_PDEATHSIG, SIGUSR2);
		syscall(SYS_setresgid, -1, 4321, -1);
		if (get_pdeath() != 0)
			r |= 8; /* egid changed: dropped */
		_exit(r);
	}
	check(waitpid(pid, &status, 0) == pid && WIFEXITED(status), "the id-change child exited");
	check(WEXITSTATUS(status) == 0,
	      "an unchanged id keeps it, a changed fsuid or egid drops it");
	if (WEXITSTATUS(status))
		printf("# bits %d\n", WEXITSTATUS(status));

	/* exec keeps it */
	pid = fork();
	if (pid == 0) {
		char count[16];
		char *args[] = { "pdeathsig", "after-exec", count, NULL };

		snprintf(count, sizeof(count), "%d", n);
		prctl(PR_SET_PDEATHSIG, SIGUSR1);
		execv("/proc/self/exe", args);
		_exit(1);
	}
	n++; /* the exec child's check */
	check(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the exec child exited 0");
	return 0;
}
