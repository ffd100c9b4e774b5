/* ptrace(2) events: TRACEFORK/VFORK/CLONE attach the new task (it starts
 * with a SIGSTOP stop, or PTRACE_EVENT_STOP when seized) and stop the
 * parent with the event (GETEVENTMSG: the new pid); VFORK_DONE; TRACEEXEC
 * (message: the old pid) or, without it, a SIGTRAP after exec; TRACEEXIT
 * (message: the wait status); the auto-attached grandchild's exit is
 * reported to the tracer and to its parent. skas had no ptrace at all. */
/* skas-test: timeout: 30 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tap.h"

static int event(int st)
{
	return st >> 16;
}

static unsigned long msg(pid_t pid)
{
	unsigned long m = 0;

	ptrace(PTRACE_GETEVENTMSG, pid, 0, &m);
	return m;
}

/* waitpid(want, __WALL), passing on the SIGCHLD stops of a tracee whose
 * child exited (a tracee stops for every signal). */
static pid_t wait_skip(pid_t want, int *st)
{
	pid_t w;

	for (;;) {
		w = waitpid(want, st, __WALL);
		if (w < 0 || !WIFSTOPPED(*st) || WSTOPSIG(*st) != SIGCHLD || event(*st))
			return w;
		ptrace(PTRACE_CONT, w, 0, SIGCHLD);
	}
}

/* The child forks a grandchild that exits 5, waits for it, then execs
 * this program again ("exec" argument: exit 0 at once). */
static void fork_exec_child(void)
{
	int st;
	pid_t g;

	ptrace(PTRACE_TRACEME, 0, 0, 0);
	raise(SIGSTOP);
	g = fork();
	if (g == 0)
		_exit(5);
	if (waitpid(g, &st, 0) != g || !WIFEXITED(st) || WEXITSTATUS(st) != 5)
		_exit(1);
	execl("/proc/self/exe", "ptrace_events", "exec", (char *)NULL);
	_exit(2);
}

static void test_fork_exec_exit(void)
{
	int st, got_fork = 0, got_gstop = 0, got_gexit_ev = 0, got_gexit = 0;
	pid_t pid = fork(), g = 0, w;

	if (pid == 0)
		fork_exec_child();
	waitpid(pid, &st, 0);
	check(ptrace(PTRACE_SETOPTIONS, pid, 0,
		     PTRACE_O_TRACEFORK | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT |
			     PTRACE_O_EXITKILL) == 0,
	      "SETOPTIONS FORK EXEC EXIT");
	ptrace(PTRACE_CONT, pid, 0, 0);
	/* The parent's fork event and the grandchild's first stop, in
	 * either order; then the grandchild's exit event and exit. */
	while (!(got_fork && got_gexit)) {
		w = wait_skip(-1, &st);
		if (w < 0)
			break;
		if (w == pid && WIFSTOPPED(st) && event(st) == PTRACE_EVENT_FORK) {
			got_fork = 1;
			g = (pid_t)msg(pid);
			ptrace(PTRACE_CONT, pid, 0, 0);
		} else if (w == pid) {
			break;
		} else if (WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP && !got_gstop) {
			got_gstop = w;
			ptrace(PTRACE_CONT, w, 0, 0);
		} else if (WIFSTOPPED(st) && event(st) == PTRACE_EVENT_EXIT) {
			got_gexit_ev = msg(w) == 5 << 8;
			ptrace(PTRACE_CONT, w, 0, 0);
		} else if (WIFEXITED(st)) {
			got_gexit = w;
			check(WEXITSTATUS(st) == 5,
			      "the grandchild's exit is reported to the tracer");
		}
	}
	check(got_fork && g > 0, "PTRACE_EVENT_FORK, GETEVENTMSG is the new pid");
	check(got_gstop == g, "the new child is traced and starts with a SIGSTOP stop");
	check(got_gexit_ev, "PTRACE_EVENT_EXIT of the grandchild, message its wait status");
	check(got_gexit == g, "its exit, though it is not the tracer's child");
	check(wait_skip(pid, &st) == pid && WIFSTOPPED(st) && event(st) == PTRACE_EVENT_EXEC,
	      "PTRACE_EVENT_EXEC");
	check(msg(pid) == (unsigned long)pid, "its message is the former pid");
	ptrace(PTRACE_CONT, pid, 0, 0);
	check(wait_skip(pid, &st) == pid && WIFSTOPPED(st) && event(st) == PTRACE_EVENT_EXIT &&
		      msg(pid) == 0,
	      "PTRACE_EVENT_EXIT of the child, message 0");
	ptrace(PTRACE_CONT, pid, 0, 0);
	check(wait_skip(pid, &st) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the child (whose wait saw its grandchild's exit) exits");
}

/* Without TRACEEXEC: a SIGTRAP after a successful exec. */
static void test_exec_sigtrap(void)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		execl("/proc/self/exe", "ptrace_events", "exec", (char *)NULL);
		_exit(2);
	}
	check(waitpid(pid, &st, 0) == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP &&
		      event(st) == 0,
	      "exec without TRACEEXEC: a SIGTRAP stop");
	ptrace(PTRACE_CONT, pid, 0, 0);
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "CONT with 0: the new program runs");
}

/* A seized tracee's vfork: VFORK event, the child's PTRACE_EVENT_STOP,
 * VFORK_DONE once it has exited. */
static void test_vfork(void)
{
	int st, got_vfork = 0, got_cstop = 0, got_done = 0, got_cexit = 0, p[2];
	pid_t pid, w, c = 0;
	char ch;

	if (pipe(p) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		pid_t v;

		while (read(p[0], &ch, 1) < 0 && errno == EINTR)
			;
		v = vfork();
		if (v == 0)
			_exit(6);
		waitpid(v, &st, 0);
		_exit(WIFEXITED(st) && WEXITSTATUS(st) == 6 ? 0 : 1);
	}
	check(ptrace(PTRACE_SEIZE, pid, 0,
		     PTRACE_O_TRACEVFORK | PTRACE_O_TRACEVFORKDONE | PTRACE_O_EXITKILL) == 0,
	      "SEIZE with TRACEVFORK and TRACEVFORKDONE");
	if (write(p[1], "x", 1) != 1)
		return;
	while (!got_done || !got_cexit) {
		w = wait_skip(-1, &st);
		if (w < 0)
			break;
		if (w == pid && WIFSTOPPED(st) && event(st) == PTRACE_EVENT_VFORK) {
			got_vfork = 1;
			c = (pid_t)msg(pid);
		} else if (w == pid && WIFSTOPPED(st) && event(st) == PTRACE_EVENT_VFORK_DONE) {
			got_done = msg(pid) == (unsigned long)c;
		} else if (w == pid) {
			break;
		} else if (WIFSTOPPED(st) && event(st) == PTRACE_EVENT_STOP) {
			got_cstop = w;
		} else if (WIFEXITED(st)) {
			got_cexit = w;
		}
		if (WIFSTOPPED(st))
			ptrace(PTRACE_CONT, w, 0, 0);
	}
	check(got_vfork && c > 0, "PTRACE_EVENT_VFORK with the child's pid");
	check(got_cstop == c, "the seized child starts with PTRACE_EVENT_STOP");
	check(got_cexit == c, "its exit is reported");
	check(got_done, "PTRACE_EVENT_VFORK_DONE with the child's pid");
	check(wait_skip(pid, &st) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the traced parent exits");
	close(p[0]);
	close(p[1]);
}

static void *thread_fn(void *arg)
{
	return arg;
}

/* TRACECLONE: a thread is traced too; wait needs __WALL or __WCLONE for
 * it? No: tracees are waited for whatever their exit signal. */
static void test_clone(void)
{
	int st, got_clone = 0, got_tstop = 0, got_texit = 0;
	pid_t pid = fork(), w, tid = 0;

	if (pid == 0) {
		pthread_t th;

		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		if (pthread_create(&th, NULL, thread_fn, NULL) != 0)
			_exit(1);
		pthread_join(th, NULL);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACECLONE | PTRACE_O_EXITKILL);
	ptrace(PTRACE_CONT, pid, 0, 0);
	for (;;) {
		w = wait_skip(-1, &st);
		if (w < 0 || (w == pid && !WIFSTOPPED(st)))
			break;
		if (w == pid && event(st) == PTRACE_EVENT_CLONE) {
			got_clone = 1;
			tid = (pid_t)msg(pid);
		} else if (w != pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP) {
			got_tstop = w;
		} else if (w != pid && WIFEXITED(st)) {
			got_texit = w;
		}
		if (WIFSTOPPED(st))
			ptrace(PTRACE_CONT, w, 0,
			       WSTOPSIG(st) == SIGSTOP || WSTOPSIG(st) == SIGTRAP ? 0
										  : WSTOPSIG(st));
	}
	check(got_clone && tid > 0, "PTRACE_EVENT_CLONE with the thread's id");
	check(got_tstop == tid, "the thread is traced, with a SIGSTOP stop first");
	check(got_texit == tid, "the thread's exit is reported to the tracer");
	check(w == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0, "the process exits");
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "exec") == 0)
		return 0;
	setvbuf(stdout, NULL, _IONBF, 0);
	test_fork_exec_exit();
	test_exec_sigtrap();
	test_vfork();
	test_clone();
	return 0;
}
