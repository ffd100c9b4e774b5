/* Stop and continue: a child stopping itself (raise(SIGSTOP)) or stopped
 * by SIGTSTP, seen by waitpid(WUNTRACED/WCONTINUED) and waitid (once each,
 * WNOWAIT), SIGCHLD with CLD_STOPPED/CLD_CONTINUED and SA_NOCLDSTOP, every
 * thread stopping, a SIGCONT handler, pending stop/continue signals
 * discarding each other, SIGKILL and SIGTERM on a stopped child.
 *
 * Under skas this program is pid 1, which ignores signals it does not
 * handle: everything that stops or dies is a forked child. Children never
 * print; they tell their result through their exit status. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "tap.h"

static void checkf(int cond, const char *what, long a, long b)
{
	if (cond)
		printf("ok %d - %s\n", ++n, what);
	else
		printf("not ok %d - %s: %ld %ld\n", ++n, what, a, b);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static pid_t xfork(void)
{
	fflush(stdout);
	return fork();
}

/* The child blocks until the parent writes a byte (or closes). */
static void wait_byte(int fd)
{
	char c;

	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
}

static void send_byte(int fd)
{
	char c = 1;

	if (write(fd, &c, 1) != 1)
		perror("write");
}

/* SIGCHLD is blocked in the parent: take one, waiting up to ms. */
static int take_sigchld(siginfo_t *si, long ms)
{
	sigset_t set;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	memset(si, 0, sizeof(*si));
	return sigtimedwait(&set, si, &ts);
}

static void raise_stop(void)
{
	int p[2], st, sig;
	siginfo_t si;
	pid_t pid, r;

	if (pipe(p) < 0)
		return;
	pid = xfork();
	if (pid == 0) {
		close(p[1]);
		raise(SIGSTOP);
		wait_byte(p[0]);
		_exit(7);
	}
	close(p[0]);
	r = waitpid(pid, &st, WUNTRACED);
	check(r == pid, "waitpid(WUNTRACED) returns the stopped child");
	check(WIFSTOPPED(st), "WIFSTOPPED");
	checkf(WSTOPSIG(st) == SIGSTOP, "WSTOPSIG is SIGSTOP", WSTOPSIG(st), 0);
	checkf(st == 0x137f, "the status is 0x137f", st, 0);
	sig = take_sigchld(&si, 5000);
	checkf(sig == SIGCHLD, "SIGCHLD came (blocked, default action)", sig, errno);
	checkf(si.si_code == CLD_STOPPED, "si_code CLD_STOPPED", si.si_code, 0);
	checkf(si.si_status == SIGSTOP, "si_status SIGSTOP", si.si_status, 0);
	check(si.si_pid == pid, "si_pid is the child");
	r = waitpid(pid, &st, WUNTRACED | WNOHANG);
	checkf(r == 0, "the stop is reported once", r, st);
	check(kill(pid, 0) == 0, "kill(pid, 0) on a stopped child");
	check(kill(pid, SIGCONT) == 0, "kill(SIGCONT)");
	r = waitpid(pid, &st, WCONTINUED);
	check(r == pid, "waitpid(WCONTINUED) returns the continued child");
	check(WIFCONTINUED(st), "WIFCONTINUED");
	checkf(st == 0xffff, "the status is 0xffff", st, 0);
	r = waitpid(pid, &st, WCONTINUED | WNOHANG);
	checkf(r == 0, "the continue is reported once", r, st);
	sig = take_sigchld(&si, 5000);
	checkf(sig == SIGCHLD, "SIGCHLD came for the continue", sig, errno);
	checkf(si.si_code == CLD_CONTINUED, "si_code CLD_CONTINUED", si.si_code, 0);
	checkf(si.si_status == SIGCONT, "si_status SIGCONT", si.si_status, 0);
	send_byte(p[1]);
	r = waitpid(pid, &st, 0);
	check(r == pid && WIFEXITED(st) && WEXITSTATUS(st) == 7,
	      "the continued child goes on and exits normally");
	sig = take_sigchld(&si, 5000);
	checkf(sig == SIGCHLD && si.si_code == CLD_EXITED, "SIGCHLD CLD_EXITED", sig, si.si_code);
	close(p[1]);
}

static void tstp_and_kill(void)
{
	int p[2], st;
	siginfo_t si;
	pid_t pid, r;

	if (pipe(p) < 0)
		return;
	pid = xfork();
	if (pid == 0) {
		/* Its own process group, whose parent is outside: not an
		 * orphaned group, so SIGTSTP stops it. */
		setpgid(0, 0);
		close(p[1]);
		wait_byte(p[0]);
		_exit(0);
	}
	close(p[0]);
	setpgid(pid, pid);
	check(kill(pid, SIGTSTP) == 0, "kill(SIGTSTP)");
	r = waitpid(pid, &st, WUNTRACED);
	check(r == pid && WIFSTOPPED(st), "SIGTSTP's default action stops the child");
	checkf(WSTOPSIG(st) == SIGTSTP, "WSTOPSIG is SIGTSTP", WSTOPSIG(st), 0);
	take_sigchld(&si, 5000);
	check(kill(pid, SIGTERM) == 0, "kill(SIGTERM) on the stopped child");
	sleep_ms(50);
	r = waitpid(pid, &st, WNOHANG);
	checkf(r == 0, "SIGTERM waits until the child is continued", r, st);
	check(kill(pid, SIGKILL) == 0, "kill(SIGKILL) on the stopped child");
	r = waitpid(pid, &st, 0);
	check(r == pid && WIFSIGNALED(st), "SIGKILL ends the stopped child");
	checkf(WTERMSIG(st) == SIGKILL, "WTERMSIG is SIGKILL", WTERMSIG(st), 0);
	take_sigchld(&si, 5000);
	close(p[1]);
}

static void with_waitid(void)
{
	siginfo_t si;
	pid_t pid;
	int ret;

	pid = xfork();
	if (pid == 0) {
		raise(SIGSTOP);
		for (;;)
			pause();
	}
	memset(&si, 0, sizeof(si));
	ret = waitid(P_PID, pid, &si, WSTOPPED | WNOWAIT);
	check(ret == 0 && si.si_pid == pid, "waitid(WSTOPPED|WNOWAIT) sees the stop");
	checkf(si.si_code == CLD_STOPPED, "waitid: CLD_STOPPED", si.si_code, 0);
	checkf(si.si_status == SIGSTOP, "waitid: si_status SIGSTOP", si.si_status, 0);
	check(si.si_signo == SIGCHLD, "waitid: si_signo SIGCHLD");
	memset(&si, 0, sizeof(si));
	ret = waitid(P_PID, pid, &si, WSTOPPED);
	check(ret == 0 && si.si_pid == pid && si.si_code == CLD_STOPPED,
	      "WNOWAIT left it: waitid(WSTOPPED) sees it again");
	memset(&si, 0, sizeof(si));
	ret = waitid(P_PID, pid, &si, WSTOPPED | WNOHANG);
	check(ret == 0 && si.si_pid == 0, "then it is consumed");
	memset(&si, 0, sizeof(si));
	ret = waitid(P_PID, pid, &si, WEXITED | WNOHANG);
	check(ret == 0 && si.si_pid == 0, "WEXITED alone does not report a stop");
	kill(pid, SIGCONT);
	memset(&si, 0, sizeof(si));
	ret = waitid(P_PID, pid, &si, WCONTINUED);
	check(ret == 0 && si.si_pid == pid, "waitid(WCONTINUED)");
	checkf(si.si_code == CLD_CONTINUED, "waitid: CLD_CONTINUED", si.si_code, 0);
	checkf(si.si_status == SIGCONT, "waitid: si_status SIGCONT", si.si_status, 0);
	kill(pid, SIGKILL);
	memset(&si, 0, sizeof(si));
	ret = waitid(P_PID, pid, &si, WEXITED);
	check(ret == 0 && si.si_code == CLD_KILLED && si.si_status == SIGKILL,
	      "waitid: CLD_KILLED by SIGKILL");
	/* drain SIGCHLDs */
	while (take_sigchld(&si, 100) > 0)
		;
}

static volatile int cont_handled;

static void on_cont(int sig)
{
	(void)sig;
	cont_handled++;
}

static void cont_handler(void)
{
	int st;
	siginfo_t si;
	pid_t pid;

	pid = xfork();
	if (pid == 0) {
		signal(SIGCONT, on_cont);
		raise(SIGSTOP);
		_exit(cont_handled == 1 ? 3 : 4);
	}
	waitpid(pid, &st, WUNTRACED);
	check(WIFSTOPPED(st), "a child with a SIGCONT handler stops");
	kill(pid, SIGCONT);
	waitpid(pid, &st, 0);
	checkf(WIFEXITED(st) && WEXITSTATUS(st) == 3, "its SIGCONT handler ran once", st, 0);
	while (take_sigchld(&si, 100) > 0)
		;
}

/* Pending stop and continue signals throw each other away. */
static void discard(void)
{
	int go[2], ready[2], st;
	siginfo_t si;
	pid_t pid;

	if (pipe(go) < 0 || pipe(ready) < 0)
		return;
	pid = xfork();
	if (pid == 0) {
		sigset_t set, pend;

		close(go[1]);
		signal(SIGCONT, on_cont);
		sigemptyset(&set);
		sigaddset(&set, SIGTSTP);
		sigaddset(&set, SIGTTOU);
		sigaddset(&set, SIGCONT);
		sigprocmask(SIG_BLOCK, &set, NULL);
		send_byte(ready[1]);
		wait_byte(go[0]); /* parent: SIGTSTP, then SIGCONT */
		sigpending(&pend);
		if (sigismember(&pend, SIGTSTP) || !sigismember(&pend, SIGCONT))
			_exit(10);
		send_byte(ready[1]);
		wait_byte(go[0]); /* parent: SIGTTOU */
		sigpending(&pend);
		if (sigismember(&pend, SIGCONT) || !sigismember(&pend, SIGTTOU))
			_exit(11);
		_exit(12);
	}
	close(go[0]);
	close(ready[1]);
	wait_byte(ready[0]);
	kill(pid, SIGTSTP);
	kill(pid, SIGCONT);
	send_byte(go[1]);
	wait_byte(ready[0]);
	kill(pid, SIGTTOU);
	send_byte(go[1]);
	waitpid(pid, &st, 0);
	checkf(WIFEXITED(st) && WEXITSTATUS(st) == 12,
	       "SIGCONT discards a pending SIGTSTP, SIGTTOU a pending SIGCONT", st, 0);
	close(go[1]);
	close(ready[0]);
	while (take_sigchld(&si, 100) > 0)
		;
}

static void nocldstop(void)
{
	struct sigaction sa;
	int p[2], st, sig;
	siginfo_t si;
	pid_t pid;

	if (pipe(p) < 0)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	pid = xfork();
	if (pid == 0) {
		close(p[1]);
		raise(SIGSTOP);
		wait_byte(p[0]);
		_exit(0);
	}
	close(p[0]);
	waitpid(pid, &st, WUNTRACED);
	check(WIFSTOPPED(st), "SA_NOCLDSTOP: waitpid still sees the stop");
	sig = take_sigchld(&si, 200);
	checkf(sig < 0 && errno == EAGAIN, "SA_NOCLDSTOP: no SIGCHLD for the stop", sig, errno);
	kill(pid, SIGCONT);
	waitpid(pid, &st, WCONTINUED);
	check(WIFCONTINUED(st), "SA_NOCLDSTOP: waitpid still sees the continue");
	sig = take_sigchld(&si, 200);
	checkf(sig < 0 && errno == EAGAIN, "SA_NOCLDSTOP: no SIGCHLD for the continue", sig, errno);
	send_byte(p[1]);
	waitpid(pid, &st, 0);
	sig = take_sigchld(&si, 5000);
	checkf(sig == SIGCHLD && si.si_code == CLD_EXITED, "SA_NOCLDSTOP: SIGCHLD for the exit",
	       sig, si.si_code);
	sa.sa_flags = 0;
	sigaction(SIGCHLD, &sa, NULL);
	close(p[1]);
}

static volatile unsigned long *counter;

static void *spin(void *arg)
{
	(void)arg;
	for (;;)
		(*counter)++;
	return NULL;
}

/* A stop stops every thread. */
static void threads(void)
{
	unsigned long c1, c2, c3;
	int p[2], st;
	siginfo_t si;
	pid_t pid;

	counter = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counter == MAP_FAILED || pipe(p) < 0)
		return;
	pid = xfork();
	if (pid == 0) {
		pthread_t th;

		close(p[1]);
		if (pthread_create(&th, NULL, spin, NULL) != 0)
			_exit(1);
		while (*counter < 1000)
			sched_yield();
		raise(SIGSTOP);
		wait_byte(p[0]);
		_exit(0);
	}
	close(p[0]);
	waitpid(pid, &st, WUNTRACED);
	check(WIFSTOPPED(st), "a process with two threads stops");
	sleep_ms(50);
	c1 = *counter;
	sleep_ms(100);
	c2 = *counter;
	checkf(c1 == c2, "its other thread stopped too", (long)c1, (long)c2);
	kill(pid, SIGCONT);
	/* until its count moves (at most 5 s): a fixed 50 ms was a race with
	 * a loaded machine that had not run the thread again by then */
	for (int i = 0; i < 5000 && *counter == c2; i++)
		sleep_ms(1);
	c3 = *counter;
	checkf(c3 > c2, "and runs again after SIGCONT", (long)c3, (long)c2);
	send_byte(p[1]);
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "then the process exits");
	close(p[1]);
	while (take_sigchld(&si, 100) > 0)
		;
}

int main(void)
{
	sigset_t set;

	setvbuf(stdout, NULL, _IOLBF, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	raise_stop();
	tstp_and_kill();
	with_waitid();
	cont_handler();
	discard();
	nocldstop();
	threads();
	printf("1..%d\n", n);
	return 0;
}
