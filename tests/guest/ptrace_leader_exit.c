/* A traced thread-group leader whose tracer is its parent is reported
 * once, when the whole process is gone: killed while another (untraced)
 * thread runs, the wait4 that reports it reaps it with every thread's CPU
 * time, and nothing is left to wait for (the leader's exit was reported
 * early, with no time, and again when the process was reaped). The same
 * when the leader exits first with pthread_exit-like SYS_exit. And a
 * traced thread's exit is reported to its tracer (the parent) before the
 * end of its process, even when both are pending at the wait. A leader
 * traced by another process: its tracer cannot reap it while its threads
 * run, then reaps it with the process's status, and the parent sees the
 * end only after that reap, or after the tracer is gone; an exec by
 * another thread after such a leader left takes its pid (tid == pid) and
 * its record goes untold; a subreaper that traces a grandchild and then
 * becomes its parent hears of its end once. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#define FUTEX_WAIT 0
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tap.h"

static int pfd[2];

static int64_t ns(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Burns 50 ms of this thread's CPU, says so on the pipe, then spins on. */
static void *spinner(void *arg)
{
	int64_t s = ns(CLOCK_THREAD_CPUTIME_ID);
	volatile uint64_t x = 0;

	while (ns(CLOCK_THREAD_CPUTIME_ID) - s < 50000000)
		for (int i = 0; i < 1000000; i++)
			x += (uint64_t)i;
	if (write(pfd[1], "x", 1) != 1)
		_exit(3);
	for (;;)
		x++;
	return arg;
}

/* how 0: the parent kills the process; 1: the leader leaves first with
 * SYS_exit, the spinner calls exit_group once it has burnt its time. */
static void run(int how)
{
	struct rusage ru;
	int st, reports = 0;
	pid_t p, r;
	char c;

	if (pipe(pfd) < 0)
		return;
	p = fork();
	if (p == 0) {
		pthread_t t;

		if (how == 1) {
			pthread_create(&t, NULL, spinner, NULL);
			raise(SIGSTOP); /* the parent seizes meanwhile */
			syscall(SYS_exit, 0);
		}
		pthread_create(&t, NULL, spinner, NULL);
		for (;;)
			pause();
	}
	if (how == 1)
		waitpid(p, &st, WUNTRACED);
	check(ptrace(PTRACE_SEIZE, p, 0, 0) == 0, "the parent seizes the leader");
	if (how == 1)
		kill(p, SIGCONT);
	if (read(pfd[0], &c, 1) != 1)
		check(0, "the spinner's word");
	if (how == 0)
		kill(p, SIGKILL);
	else
		kill(p, SIGTERM); /* the leader is gone: the spinner takes it */
	for (;;) {
		r = wait4(p, &st, __WALL, &ru);
		if (r != p)
			break;
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			reports++;
			break;
		}
		/* a ptrace stop of the leader (its SIGTERM, the group stop) */
		ptrace(PTRACE_CONT, p, 0, WIFSTOPPED(st) && WSTOPSIG(st) == SIGTERM ? SIGTERM : 0);
	}
	check(reports == 1 && WIFSIGNALED(st) && WTERMSIG(st) == (how == 0 ? SIGKILL : SIGTERM),
	      how == 0 ? "killed: one report, SIGKILL" : "leader gone first: one report, SIGTERM");
	check((ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 + ru.ru_utime.tv_usec +
			      ru.ru_stime.tv_usec >=
		      49000,
	      "its rusage has the spinner's 50 ms");
	errno = 0;
	check(wait4(p, &st, __WALL | WNOHANG, NULL) == -1 && errno == ECHILD,
	      "nothing more to wait for: ECHILD");
	close(pfd[0]);
	close(pfd[1]);
}

static void *quick(void *arg)
{
	return arg;
}

/* TRACECLONE: the thread and then the process end before the tracer
 * waits; the first wait must give the thread's exit. */
static void thread_first(void)
{
	int st, events = 0, first_exit = 0;
	pid_t pid = fork(), w, tid = 0;

	if (pid == 0) {
		pthread_t th;

		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		pthread_create(&th, NULL, quick, NULL);
		pthread_join(th, NULL);
		_exit(5);
	}
	waitpid(pid, &st, 0);
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACECLONE | PTRACE_O_EXITKILL);
	ptrace(PTRACE_CONT, pid, 0, 0);
	for (;;) {
		w = waitpid(-1, &st, __WALL);
		if (w < 0)
			break;
		if (WIFSTOPPED(st)) {
			if (w == pid && (st >> 16) == PTRACE_EVENT_CLONE) {
				unsigned long m = 0;

				ptrace(PTRACE_GETEVENTMSG, pid, 0, &m);
				tid = (pid_t)m;
			}
			events++;
			ptrace(PTRACE_CONT, w, 0, 0);
			if (events >= 2)	/* the clone event and the thread's first stop */
				usleep(200000); /* let both ends happen before the next wait */
			continue;
		}
		if (!first_exit)
			first_exit = w;
		if (w == pid)
			break;
	}
	check(tid > 0 && first_exit == tid,
	      "a traced thread's exit comes before its process's end");
	check(w == pid && WIFEXITED(st) && WEXITSTATUS(st) == 5, "then the process's, status 5");
}

static volatile int leader_word;
static int to_b[2], to_t[2], to_a[2], to_b2[2], go[2];

/* The other thread: waits for the leader's SYS_exit (its clear_child_tid
 * word), tells the tracer, and ends the process with status 7 when told. */
static void *survivor(void *arg)
{
	char c;
	int v;

	while ((v = leader_word) != 0)
		syscall(SYS_futex, &leader_word, FUTEX_WAIT, v, NULL, NULL, 0);
	if (write(to_b[1], "g", 1) != 1 || read(to_t[0], &c, 1) != 1)
		_exit(90);
	syscall(SYS_exit_group, 7);
	return arg;
}

/* A child whose leader, told on go, leaves with SYS_exit (its
 * clear_child_tid word leader_word wakes fn's thread) while fn runs. */
static pid_t fork_leaving_leader(void *(*fn)(void *))
{
	pid_t p = fork();
	pthread_t t;
	char c;

	if (p != 0)
		return p;
	leader_word = getpid();
	pthread_create(&t, NULL, fn, NULL);
	if (read(go[0], &c, 1) != 1)
		_exit(89);
	syscall(SYS_set_tid_address, &leader_word);
	syscall(SYS_exit, 0);
	return 0;
}

/* The tracer, a sibling of the traced process: reap 1 reaps the leader,
 * 0 leaves without reaping it. */
static void other_tracer(pid_t p, int reap)
{
	siginfo_t si;
	int st, r;
	char c;

	if (ptrace(PTRACE_SEIZE, p, 0, 0) != 0 || write(go[1], "s", 1) != 1 ||
	    read(to_b[0], &c, 1) != 1)
		_exit(91);
	usleep(50000);
	r = waitpid(p, &st, __WALL | WNOHANG);
	check(r == 0, "tracer: the leader is gone, its threads run: nothing to reap");
	if (write(to_t[1], "x", 1) != 1)
		_exit(92);
	memset(&si, 0, sizeof(si));
	r = waitid(P_PID, p, &si, WEXITED | WNOWAIT | __WALL);
	check(r == 0 && si.si_pid == p && si.si_code == CLD_EXITED && si.si_status == 7,
	      "tracer: the process's end, status 7, seen without a reap");
	if (write(to_a[1], "e", 1) != 1 || read(to_b2[0], &c, 1) != 1)
		_exit(93);
	if (reap) {
		r = waitpid(p, &st, __WALL);
		check(r == p && WIFEXITED(st) && WEXITSTATUS(st) == 7,
		      "tracer: reaps it, status 7");
	}
	_exit(0);
}

static void traced_by_other(int reap)
{
	int st, r;
	pid_t p, b;
	char c;

	if (pipe(to_b) || pipe(to_t) || pipe(to_a) || pipe(to_b2) || pipe(go))
		return;
	p = fork_leaving_leader(survivor);
	b = fork();
	if (b == 0)
		other_tracer(p, reap);
	if (read(to_a[0], &c, 1) != 1)
		return;
	r = waitpid(p, &st, WNOHANG);
	check(r == 0, "parent: the traced zombie is its tracer's to reap first");
	if (write(to_b2[1], "y", 1) != 1)
		return;
	check(waitpid(b, &st, 0) == b && WIFEXITED(st) && WEXITSTATUS(st) == 0, "the tracer's end");
	st = 0;
	check(waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == 7,
	      reap ? "parent: reaps it after the tracer, status 7"
		   : "parent: reaps it once the tracer is gone, status 7");
	close(to_b[0]), close(to_b[1]), close(to_t[0]), close(to_t[1]), close(go[0]);
	close(to_a[0]), close(to_a[1]), close(to_b2[0]), close(to_b2[1]), close(go[1]);
}

static char *self_path;
static int exec_go[2];

/* Waits for the leader's SYS_exit, then execs this program ("image"),
 * which says whether it has the process's pid as its tid and exits 7. */
static void *exec_after_leader(void *arg)
{
	int v;
	char c;

	while ((v = leader_word) != 0)
		syscall(SYS_futex, &leader_word, FUTEX_WAIT, v, NULL, NULL, 0);
	if (read(exec_go[0], &c, 1) != 1)
		_exit(90);
	execl(self_path, self_path, "image", (char *)NULL);
	_exit(91);
	return arg;
}

/* The leader, traced by a process that is not its parent, has exited;
 * another thread execs: it takes the leader's pid, and the old leader's
 * death goes untold (Linux's de_thread releases it): the tracer's wait is
 * ECHILD, and the parent reaps the new image's exit. */
static void exec_after_traced_leader(void)
{
	int st, r, tp[2];
	pid_t p, b;
	char c;

	if (pipe(exec_go) || pipe(go) || pipe(tp))
		return;
	p = fork_leaving_leader(exec_after_leader);
	b = fork();
	if (b == 0) {
		if (ptrace(PTRACE_SEIZE, p, 0, 0) != 0 || write(go[1], "s", 1) != 1)
			_exit(1);
		if (read(tp[0], &c, 1) != 1) /* the parent has reaped the new image */
			_exit(2);
		r = waitpid(p, &st, __WALL | WNOHANG);
		_exit(r == -1 && errno == ECHILD ? 0 : 3);
	}
	if (write(exec_go[1], "x", 1) != 1)
		return;
	st = 0;
	r = waitpid(p, &st, 0);
	check(r == p && WIFEXITED(st) && WEXITSTATUS(st) == 7,
	      "exec after the traced leader left: the parent reaps the new image, status 7");
	if (write(tp[1], "r", 1) != 1)
		return;
	check(waitpid(b, &st, 0) == b && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "and the tracer has nothing of the old leader: ECHILD");
}

/* A subreaper traces a grandchild whose leader leaves first; its parent
 * exits, so the tracer becomes its parent too: one report, then ECHILD. */
static void tracer_becomes_parent(void)
{
	int st, r, pp[2], q_go[2];
	pid_t q, p = 0;
	char c;

	if (pipe(pp) || pipe(go) || pipe(to_t) || pipe(q_go) || pipe(to_b))
		return;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	q = fork();
	if (q == 0) {
		p = fork_leaving_leader(survivor);
		if (write(pp[1], &p, sizeof(p)) != sizeof(p) || read(q_go[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	if (read(pp[0], &p, sizeof(p)) != sizeof(p) || ptrace(PTRACE_SEIZE, p, 0, 0) != 0)
		return;
	if (write(go[1], "g", 1) != 1 || read(to_b[0], &c, 1) != 1) /* the leader is gone */
		return;
	if (write(q_go[1], "q", 1) != 1 || waitpid(q, &st, 0) != q) /* p is ours now */
		return;
	if (write(to_t[1], "x", 1) != 1) /* the survivor: exit_group(7) */
		return;
	st = 0;
	r = waitpid(p, &st, __WALL);
	check(r == p && WIFEXITED(st) && WEXITSTATUS(st) == 7,
	      "a subreaper tracing a grandchild that became its child: exited 7");
	errno = 0;
	r = waitpid(-1, &st, __WALL | WNOHANG);
	check(r == -1 && errno == ECHILD, "reported once: then ECHILD");
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "image") == 0)
		_exit(syscall(SYS_gettid) == getpid() ? 7 : 8);
	self_path = argv[0];
	setvbuf(stdout, NULL, _IONBF, 0);
	run(0);
	run(1);
	thread_first();
	traced_by_other(1);
	traced_by_other(0);
	exec_after_traced_leader();
	tracer_becomes_parent();
	return 0;
}
