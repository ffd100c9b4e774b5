/* skas-test: timeout: 60 */
/* Life-cycle storm: several workers run, at once, a seeded mix of process
 * and thread life-cycle events that race with each other inside the kernel:
 * execve from the leader or another thread while siblings sleep in a pipe
 * read, a futex wait, nanosleep or spin in user mode; exit_group while other
 * threads fork and create threads; vfork children that exec or _exit while
 * the parent has other threads; SIGSTOP/SIGCONT/SIGTERM/SIGKILL to process
 * groups the test made; pidfd_open + pidfd_send_signal + waitid(P_PIDFD);
 * PR_SET_PDEATHSIG from a thread that exits; setsid/setpgid churn; waits
 * with WNOHANG and __WALL. Each event's result is checked; the output is the
 * count of each kind run (fixed by the seed) and "ok" or the failures.
 *
 * Safe natively: it signals only its own unreaped children (a pid or a group
 * whose leader is such a child), never pid -1 or groups it did not make, and
 * every worker is a child subreaper that reaps all it orphaned. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#ifndef FUTEX_WAIT_PRIVATE
#define FUTEX_WAIT_PRIVATE 128
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef P_PIDFD
#define P_PIDFD 3
#endif
#ifndef __WALL
#define __WALL 0x40000000
#endif

enum {
	S_EXEC_MT,
	S_EXIT_RACE,
	S_VFORK,
	S_GROUP_SIG,
	S_PIDFD,
	S_PDEATH,
	S_SESSION,
	S_THREADS,
	S_EXEC_VFORK,
	S_KILL_VFORK,
	S_ROBUST,
	S_STOP_EXEC,
	S_NKINDS
};

static const char *const kind_name[S_NKINDS] = {
	"exec from a multi-threaded process",
	"exit_group racing with fork and clone",
	"vfork beside other threads",
	"signals to a process group",
	"pidfd_send_signal and waitid(P_PIDFD)",
	"PR_SET_PDEATHSIG from an exiting thread",
	"setsid and setpgid",
	"threads with SETTLS/CHILD_CLEARTID joined",
	"exec while another thread waits in vfork",
	"SIGKILL or SIGTERM while a thread waits in vfork",
	"exit or exec holding robust futexes",
	"SIGSTOP around an exec",
};

#define NWORKERS       3
#define DEFAULT_ROUNDS 12

struct tally {
	int runs[S_NKINDS];
	int bad[S_NKINDS];
};

static const char *self_exe = "/proc/self/exe";
static uint64_t rng;
static struct tally tally;
static volatile sig_atomic_t sigchld_seen;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static void fail(int kind, const char *what, long a, long b)
{
	tally.bad[kind]++;
	printf("not ok - %s: %s (%ld, %ld)\n", kind_name[kind], what, a, b);
	fflush(stdout);
}

static pid_t xwait(pid_t pid, int *st, int flags)
{
	pid_t r;

	while ((r = waitpid(pid, st, flags)) < 0 && errno == EINTR)
		;
	return r;
}

/* Waiting by polling with WNOHANG (sometimes through waitid and __WALL)
 * must give the same result as a blocking wait. */
static pid_t poll_wait(pid_t pid, int *st)
{
	int use_waitid = rnd(2); /* once: how often it polls is timing */

	for (;;) {
		if (use_waitid) {
			siginfo_t si;

			memset(&si, 0, sizeof(si));
			if (waitid(P_PID, pid, &si, WEXITED | WNOHANG | __WALL) < 0) {
				if (errno == EINTR)
					continue;
				return -1;
			}
			if (si.si_pid == pid) {
				if (si.si_code == CLD_EXITED)
					*st = (si.si_status & 0xff) << 8;
				else
					*st = si.si_status & 0x7f;
				return pid;
			}
		} else {
			pid_t r = waitpid(pid, st, WNOHANG | __WALL);

			if (r != 0) {
				if (r < 0 && errno == EINTR)
					continue;
				return r;
			}
		}
		sched_yield();
	}
}

static pid_t wait_child(pid_t pid, int *st)
{
	return rnd(3) == 0 ? poll_wait(pid, st) : xwait(pid, st, __WALL);
}

static void expect_exit(int kind, pid_t pid, int code)
{
	int st = 0;
	pid_t r = wait_child(pid, &st);

	if (r != pid)
		fail(kind, "wait", r, errno);
	else if (!WIFEXITED(st) || WEXITSTATUS(st) != code)
		fail(kind, "exit status", st, code << 8);
}

static void expect_signal(int kind, pid_t pid, int sig)
{
	int st = 0;
	pid_t r = wait_child(pid, &st);

	if (r != pid)
		fail(kind, "wait", r, errno);
	else if (!WIFSIGNALED(st) || WTERMSIG(st) != sig)
		fail(kind, "death by signal", st, sig);
}

/* Reap every orphan that came back to this subreaper. */
static void reap_all(void)
{
	while (xwait(-1, NULL, __WALL) > 0)
		;
}

static void spin(unsigned n)
{
	for (volatile unsigned i = 0; i < n; i++)
		;
}

static long futex_wait(atomic_int *addr, int val)
{
	return syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

/* ---- execve from a multi-threaded process ---- */

static int pipefd[2];
static atomic_int futex_word;
static atomic_int started;
static atomic_int stop_spin;

static void *t_reader(void *a)
{
	char c;

	(void)a;
	started++;
	for (;;)
		if (read(pipefd[0], &c, 1) == 0)
			break;
	return NULL;
}

static void *t_futex(void *a)
{
	(void)a;
	started++;
	for (;;)
		futex_wait(&futex_word, 0);
	return NULL;
}

static void *t_sleep(void *a)
{
	struct timespec ts = { 1000, 0 };

	(void)a;
	started++;
	for (;;)
		nanosleep(&ts, NULL);
	return NULL;
}

static void *t_spin(void *a)
{
	(void)a;
	started++;
	while (!stop_spin)
		spin(1000);
	return NULL;
}

static void *(*const blockers[])(void *) = { t_reader, t_futex, t_sleep, t_spin };

static int start_blockers(unsigned mask)
{
	int n = 0;

	started = 0;
	for (unsigned i = 0; i < 4; i++) {
		pthread_t t;

		if (!(mask & (1u << i)))
			continue;
		if (pthread_create(&t, NULL, blockers[i], NULL) != 0)
			_exit(90);
		n++;
	}
	while (started < n)
		sched_yield();
	return n;
}

static pid_t exec_pid;
static unsigned exec_yields;

static void do_exec(void)
{
	char pidbuf[32];
	char *argv[] = { "lifecycle_storm", "--exec-check", pidbuf, NULL };

	snprintf(pidbuf, sizeof(pidbuf), "%d", (int)exec_pid);
	for (unsigned i = 0; i < exec_yields; i++)
		sched_yield();
	execv(self_exe, argv);
	_exit(91);
}

static void *t_exec(void *a)
{
	(void)a;
	do_exec();
	return NULL;
}

/* Run by the new image: the pid and thread id are the old process's, and
 * every other thread is gone. */
static int exec_check(const char *pidstr)
{
	pid_t want = (pid_t)atoi(pidstr);
	char line[256];
	int threads = -1;
	FILE *f;

	if (getpid() != want || syscall(SYS_gettid) != want)
		return 80;
	f = fopen("/proc/self/status", "r");
	if (!f)
		return 81;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Threads: %d", &threads) == 1)
			break;
	fclose(f);
	return threads == 1 ? 7 : 82;
}

static void s_exec_mt(void)
{
	unsigned mask = 1 + rnd(15);
	int from_thread = rnd(2);
	pid_t pid;

	exec_yields = rnd(4);
	pid = fork();
	if (pid == 0) {
		if (pipe(pipefd) < 0)
			_exit(92);
		start_blockers(mask);
		exec_pid = getpid();
		if (from_thread) {
			pthread_t t;

			if (pthread_create(&t, NULL, t_exec, NULL) != 0)
				_exit(93);
			for (;;)
				pause();
		}
		do_exec();
	}
	expect_exit(S_EXEC_MT, pid, 7);
}

/* ---- exit_group racing with fork and clone ---- */

static void *t_forker(void *a)
{
	(void)a;
	for (;;) {
		pid_t p = fork();

		if (p == 0)
			_exit(0);
		if (p > 0)
			waitpid(p, NULL, 0);
	}
	return NULL;
}

static void *t_nothing(void *a)
{
	return a;
}

static void *t_cloner(void *a)
{
	(void)a;
	for (;;) {
		pthread_t t;

		if (pthread_create(&t, NULL, t_nothing, NULL) == 0)
			pthread_join(t, NULL);
	}
	return NULL;
}

static void *t_exiter(void *a)
{
	spin((unsigned)(uintptr_t)a);
	_exit(3);
}

static void s_exit_race(void)
{
	unsigned nforkers = 1 + rnd(2), ncloners = rnd(3), delay = rnd(200000);
	int from_thread = rnd(2);
	pid_t pid = fork();

	if (pid == 0) {
		pthread_t t;

		for (unsigned i = 0; i < nforkers; i++)
			pthread_create(&t, NULL, t_forker, NULL);
		for (unsigned i = 0; i < ncloners; i++)
			pthread_create(&t, NULL, t_cloner, NULL);
		if (from_thread) {
			pthread_create(&t, NULL, t_exiter, (void *)(uintptr_t)delay);
			for (;;)
				pause();
		}
		spin(delay);
		_exit(3);
	}
	expect_exit(S_EXIT_RACE, pid, 3);
	reap_all();
}

/* ---- vfork beside other threads ---- */

static void s_vfork(void)
{
	unsigned mask = rnd(16);
	int mode = rnd(3);
	pid_t pid = fork();

	if (pid == 0) {
		pid_t c;
		int st;

		if (pipe(pipefd) < 0)
			_exit(92);
		start_blockers(mask);
		c = vfork();
		if (c == 0) {
			if (mode == 0)
				_exit(6);
			if (mode == 1) {
				char *argv[] = { "lifecycle_storm", "--exit", "5", NULL };

				execv(self_exe, argv);
				_exit(94);
			}
			/* exec of a missing file fails and returns to the child */
			execl("/nonexistent/lifecycle", "x", (char *)NULL);
			_exit(errno == ENOENT ? 4 : 95);
		}
		if (c < 0)
			_exit(96);
		if (xwait(c, &st, 0) != c || !WIFEXITED(st))
			_exit(97);
		/* the other threads are still there: exit_group ends them */
		_exit(WEXITSTATUS(st));
	}
	expect_exit(S_VFORK, pid, mode == 0 ? 6 : mode == 1 ? 5 : 4);
}

/* ---- signals to a process group ---- */

static void on_term(int sig)
{
	(void)sig;
	_exit(21);
}

static void s_group_sig(void)
{
	int n = 2 + rnd(3), how = rnd(4);
	pid_t kids[5], pg = 0;
	int ready[2];
	char c;

	if (pipe(ready) < 0) {
		fail(S_GROUP_SIG, "pipe", errno, 0);
		return;
	}
	for (int i = 0; i < n; i++) {
		pid_t p = fork();

		if (p == 0) {
			close(ready[0]);
			setpgid(0, i == 0 ? 0 : pg);
			if (write(ready[1], "x", 1) != 1)
				_exit(98);
			for (;;)
				pause();
		}
		kids[i] = p;
		if (i == 0)
			pg = p;
		/* both sides set the group, so it is set whichever runs first */
		if (setpgid(p, pg) < 0 && errno != EACCES)
			fail(S_GROUP_SIG, "setpgid", errno, i);
	}
	close(ready[1]);
	for (int i = 0; i < n; i++)
		if (read(ready[0], &c, 1) != 1)
			fail(S_GROUP_SIG, "ready", errno, i);
	close(ready[0]);

	if (how == 0) { /* stop everyone, see each stop, continue */
		int st;

		kill(-pg, SIGSTOP);
		for (int i = 0; i < n; i++)
			if (xwait(kids[i], &st, WUNTRACED) != kids[i] || !WIFSTOPPED(st) ||
			    WSTOPSIG(st) != SIGSTOP)
				fail(S_GROUP_SIG, "stop", st, i);
		kill(-pg, SIGCONT);
		for (int i = 0; i < n; i++)
			if (xwait(kids[i], &st, WCONTINUED) != kids[i] || !WIFCONTINUED(st))
				fail(S_GROUP_SIG, "continue", st, i);
		kill(-pg, SIGTERM);
		for (int i = 0; i < n; i++)
			expect_exit(S_GROUP_SIG, kids[i], 21);
	} else if (how == 1) { /* SIGTERM while stopped runs after SIGCONT */
		kill(-pg, SIGSTOP);
		kill(-pg, SIGTERM);
		kill(-pg, SIGCONT);
		for (int i = 0; i < n; i++)
			expect_exit(S_GROUP_SIG, kids[i], 21);
	} else if (how == 2) { /* SIGKILL ends a stopped group */
		kill(-pg, SIGSTOP);
		kill(-pg, SIGKILL);
		for (int i = 0; i < n; i++)
			expect_signal(S_GROUP_SIG, kids[i], SIGKILL);
	} else { /* the leader goes first, the group lives on */

		siginfo_t si;

		kill(kids[0], SIGKILL);
		memset(&si, 0, sizeof(si));
		while (waitid(P_PID, kids[0], &si, WNOWAIT | WEXITED) < 0 && errno == EINTR)
			;
		if (si.si_pid != kids[0] || si.si_code != CLD_KILLED)
			fail(S_GROUP_SIG, "leader waitid", si.si_pid, si.si_code);
		/* the leader is a zombie: its pid still names the group */
		kill(-pg, SIGTERM);
		expect_signal(S_GROUP_SIG, kids[0], SIGKILL);
		for (int i = 1; i < n; i++)
			expect_exit(S_GROUP_SIG, kids[i], 21);
	}
}

/* ---- pidfd ---- */

static void s_pidfd(void)
{
	int sig = rnd(2) ? SIGKILL : SIGTERM, early = rnd(2);
	pid_t pid = fork();
	int fd;

	if (pid == 0) {
		for (;;)
			pause();
	}
	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0) {
		fail(S_PIDFD, "pidfd_open", errno, 0);
		kill(pid, SIGKILL);
		xwait(pid, NULL, 0);
		return;
	}
	if (!early)
		sched_yield();
	if (syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0) < 0)
		fail(S_PIDFD, "pidfd_send_signal", errno, 0);
	struct pollfd p = { fd, POLLIN, 0 };
	while (poll(&p, 1, -1) < 0 && errno == EINTR)
		;
	if (!(p.revents & POLLIN))
		fail(S_PIDFD, "poll", p.revents, 0);
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	if (waitid(P_PIDFD, fd, &si, WEXITED) < 0)
		fail(S_PIDFD, "waitid", errno, 0);
	else if (si.si_pid != pid ||
		 (sig == SIGKILL ? si.si_code != CLD_KILLED || si.si_status != SIGKILL
				 : si.si_code != CLD_EXITED || si.si_status != 21))
		fail(S_PIDFD, "waitid result", si.si_code, si.si_status);
	/* the process is gone: signals through the pidfd now fail */
	if (syscall(SYS_pidfd_send_signal, fd, 0, NULL, 0) != -1 || errno != ESRCH)
		fail(S_PIDFD, "signal after reap", errno, 0);
	close(fd);
}

/* ---- PR_SET_PDEATHSIG ---- */

static pid_t pdeath_parent;
static int pdeath_sync;

static void *t_spawn_pdeath(void *a)
{
	pid_t *out = a;
	int p[2] = { -1, -1 };
	char c;
	pid_t pid;

	if (pdeath_sync && pipe(p) < 0)
		return NULL;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* the process that forked us may already be gone */
		if (getppid() != pdeath_parent)
			raise(SIGKILL);
		if (pdeath_sync && write(p[1], "x", 1) != 1)
			_exit(63);
		for (;;)
			pause();
	}
	/* a thread's death before the child's prctl sends nothing: wait */
	if (pdeath_sync) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			pid = -1;
		close(p[0]);
	}
	*out = pid;
	return NULL; /* the thread's exit sends the death signal */
}

static void s_pdeath(void)
{
	int mode = rnd(2);
	pid_t pid = fork();

	if (pid == 0) {
		pid_t g = 0;
		int st;

		pdeath_parent = getpid();
		pdeath_sync = mode == 0;
		if (mode == 0) {
			/* a thread forks, then exits: the child dies, the
			 * process goes on and reaps it */
			pthread_t t;

			pthread_create(&t, NULL, t_spawn_pdeath, &g);
			pthread_join(t, NULL);
			if (g <= 0 || xwait(g, &st, 0) != g)
				_exit(60);
			_exit(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL ? 0 : 61);
		}
		/* the whole process exits: the child comes to the subreaper */
		t_spawn_pdeath(&g);
		_exit(g > 0 ? 0 : 62);
	}
	expect_exit(S_PDEATH, pid, 0);
	if (mode == 1) {
		int st;
		pid_t r = xwait(-1, &st, __WALL);

		if (r <= 0 || !WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)
			fail(S_PDEATH, "orphan killed", r, st);
	}
	reap_all();
}

/* ---- setsid and setpgid ---- */

static void s_session(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		pid_t me = getpid(), d;
		int st, p[2];
		char c;

		if (setsid() != me || getsid(0) != me || getpgrp() != me)
			_exit(40);
		if (setsid() != -1 || errno != EPERM)
			_exit(41);
		if (setpgid(0, 0) != -1 || errno != EPERM)
			_exit(42);
		if (pipe(p) < 0)
			_exit(43);
		d = fork();
		if (d == 0) {
			pid_t dme = getpid();

			if (setpgid(0, 0) != 0 || getpgrp() != dme)
				_exit(50);
			if (setsid() != -1 || errno != EPERM)
				_exit(51);
			if (setpgid(0, me) != 0 || getpgrp() != me)
				_exit(52);
			if (setsid() != dme || getsid(0) != dme)
				_exit(53);
			/* a group in another session is out of reach */
			if (setpgid(0, me) != -1 || errno != EPERM)
				_exit(54);
			if (write(p[1], "x", 1) != 1)
				_exit(55);
			for (;;)
				pause();
		}
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(44);
		/* a child in another session cannot be moved */
		if (setpgid(d, me) != -1 || errno != EPERM)
			_exit(45);
		if (getsid(d) != d || getpgid(d) != d)
			_exit(46);
		kill(-d, SIGKILL);
		if (xwait(d, &st, 0) != d || !WIFSIGNALED(st))
			_exit(47);
		_exit(0);
	}
	/* moving the child into our own group races with its setsid: either
	 * it is a no-op or EPERM, and its setsid works all the same */
	if (rnd(2))
		setpgid(pid, getpgrp());
	expect_exit(S_SESSION, pid, 0);
}

/* ---- threads joined ---- */

static void *t_work(void *a)
{
	uintptr_t i = (uintptr_t)a;

	if (i % 3 == 0)
		pthread_exit((void *)(i * 2));
	if (i % 3 == 1)
		sched_yield();
	return (void *)(i * 2);
}

static void s_threads(void)
{
	unsigned n = 2 + rnd(6);
	pthread_t t[8];

	for (unsigned i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, t_work, (void *)(uintptr_t)i) != 0) {
			fail(S_THREADS, "pthread_create", i, 0);
			n = i;
			break;
		}
	for (unsigned i = 0; i < n; i++) {
		void *r;

		if (pthread_join(t[i], &r) != 0 || r != (void *)(uintptr_t)(i * 2))
			fail(S_THREADS, "join", i, (long)(uintptr_t)r);
	}
	/* a detached thread may still be exiting when the next event runs */
	pthread_t d;
	pthread_attr_t at;
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	pthread_create(&d, &at, t_nothing, NULL);
	pthread_attr_destroy(&at);
}

/* ---- exec and SIGKILL while a thread waits in vfork ---- */

static int vfork_pipe[2];

/* The vfork child waits for a byte that only comes once the thread that
 * vforked is gone (Linux's vfork wait is killable). */
static void *t_vfork_wait(void *a)
{
	char c;

	(void)a;
	started++;
	if (vfork() == 0)
		_exit(read(vfork_pipe[0], &c, 1) == 1 ? 9 : 10);
	for (;;)
		pause();
	return NULL;
}

/* The new image: let the vfork child go, reap it. */
static int release_vfork(int fd)
{
	int st;
	pid_t r;

	if (write(fd, "x", 1) != 1)
		return 83;
	/* none if the exec killed the thread before its vfork */
	r = xwait(-1, &st, 0);
	if (r < 0)
		return errno == ECHILD ? 7 : 86;
	return WIFEXITED(st) && WEXITSTATUS(st) == 9 ? 7 : 84;
}

/* The vfork child is not yet running in user mode when vfork's caller
 * sleeps; the child shows up in our children once it exists, but its
 * vfork wait may begin a little later: yield a few times for the mix. */
static void start_vfork_waiter(void)
{
	pthread_t t;

	started = 0;
	if (pipe(vfork_pipe) < 0 || pthread_create(&t, NULL, t_vfork_wait, NULL) != 0)
		_exit(92);
	while (started < 1)
		sched_yield();
	for (unsigned i = rnd(4); i > 0; i--)
		sched_yield();
}

static void s_exec_vfork(void)
{
	pid_t pid;

	(void)rnd(1);
	pid = fork();
	if (pid == 0) {
		char fdbuf[16];
		char *argv[] = { "lifecycle_storm", "--release-vfork", fdbuf, NULL };

		start_vfork_waiter();
		snprintf(fdbuf, sizeof(fdbuf), "%d", vfork_pipe[1]);
		execv(self_exe, argv);
		_exit(91);
	}
	expect_exit(S_EXEC_VFORK, pid, 7);
}

static void s_kill_vfork(void)
{
	/* SIGTERM's default action ends the process at once too */
	int p[2], st, sig = rnd(2) ? SIGKILL : SIGTERM;
	pid_t pid, r;
	char c;

	if (pipe(p) < 0 || pipe(vfork_pipe) < 0) {
		fail(S_KILL_VFORK, "pipe", errno, 0);
		return;
	}
	pid = fork();
	if (pid == 0) {
		pthread_t t;

		close(p[0]);
		signal(SIGTERM, SIG_DFL);
		started = 0;
		if (pthread_create(&t, NULL, t_vfork_wait, NULL) != 0)
			_exit(92);
		while (started < 1)
			sched_yield();
		/* only the thread in vfork may take SIGTERM now */
		sigset_t m;
		sigemptyset(&m);
		sigaddset(&m, SIGTERM);
		sigprocmask(SIG_BLOCK, &m, NULL);
		if (write(p[1], "x", 1) != 1)
			_exit(93);
		for (;;)
			pause();
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1)
		fail(S_KILL_VFORK, "ready", errno, 0);
	close(p[0]);
	for (unsigned i = rnd(4); i > 0; i--)
		sched_yield();
	kill(pid, sig);
	expect_signal(S_KILL_VFORK, pid, sig);
	/* the vfork child (if the vfork had begun) came to us: let it go */
	if (write(vfork_pipe[1], "x", 1) != 1)
		fail(S_KILL_VFORK, "write", errno, 0);
	close(vfork_pipe[0]);
	close(vfork_pipe[1]);
	while ((r = xwait(-1, &st, __WALL)) > 0)
		if (!WIFEXITED(st) || (WEXITSTATUS(st) != 9 && WEXITSTATUS(st) != 10))
			fail(S_KILL_VFORK, "vfork child", r, st);
}

/* ---- robust futexes ---- */

static void *t_lock(void *a)
{
	pthread_mutex_lock(a);
	started++;
	for (;;)
		pause();
	return NULL;
}

static void s_robust(void)
{
	unsigned n = 1 + rnd(3), how = rnd(3);
	pthread_mutex_t *m =
		mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pthread_mutexattr_t at;
	pid_t pid;

	if (m == MAP_FAILED) {
		fail(S_ROBUST, "mmap", errno, 0);
		return;
	}
	pthread_mutexattr_init(&at);
	pthread_mutexattr_setpshared(&at, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&at, PTHREAD_MUTEX_ROBUST);
	for (unsigned i = 0; i < n; i++)
		pthread_mutex_init(&m[i], &at);
	pthread_mutexattr_destroy(&at);
	pid = fork();
	if (pid == 0) {
		pthread_t t;

		started = 0;
		for (unsigned i = how == 2; i < n; i++)
			if (pthread_create(&t, NULL, t_lock, &m[i]) != 0)
				_exit(92);
		while (started < (int)(n - (how == 2)))
			sched_yield();
		if (how == 1)
			pthread_create(&t, NULL, t_exiter, (void *)(uintptr_t)0);
		else if (how == 0)
			_exit(3);
		if (how == 2) {
			/* an exec releases the execing thread's robust
			 * futexes too (the others die with their threads) */
			char *argv[] = { "lifecycle_storm", "--exit", "3", NULL };

			pthread_mutex_lock(&m[0]);
			execv(self_exe, argv);
			_exit(94);
		}
		for (;;)
			pause();
	}
	expect_exit(S_ROBUST, pid, 3);
	for (unsigned i = 0; i < n; i++) {
		int r = pthread_mutex_lock(&m[i]);

		if (r != EOWNERDEAD)
			fail(S_ROBUST, "EOWNERDEAD", r, i);
		else
			pthread_mutex_consistent(&m[i]);
		pthread_mutex_unlock(&m[i]);
	}
	munmap(m, 4096);
}

/* ---- SIGSTOP around an exec ---- */

static void s_stop_exec(void)
{
	unsigned mask = rnd(16);
	int st;
	pid_t pid;

	int go[2];

	exec_yields = rnd(4);
	if (pipe(go) < 0) {
		fail(S_STOP_EXEC, "pipe", errno, 0);
		return;
	}
	pid = fork();
	if (pid == 0) {
		char fdbuf[16];
		char *argv[] = { "lifecycle_storm", "--wait-go", fdbuf, NULL };

		close(go[1]);
		if (pipe(pipefd) < 0)
			_exit(92);
		start_blockers(mask);
		snprintf(fdbuf, sizeof(fdbuf), "%d", go[0]);
		for (unsigned i = 0; i < exec_yields; i++)
			sched_yield();
		execv(self_exe, argv);
		_exit(91);
	}
	close(go[0]);
	for (unsigned i = rnd(8); i > 0; i--)
		sched_yield();
	/* before, during or after the exec: the stop is reported once, and
	 * the new image runs to its end after SIGCONT */
	kill(pid, SIGSTOP);
	if (xwait(pid, &st, WUNTRACED) != pid || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGSTOP)
		fail(S_STOP_EXEC, "stopped", st, 0);
	kill(pid, SIGCONT);
	if (write(go[1], "x", 1) != 1)
		fail(S_STOP_EXEC, "write", errno, 0);
	close(go[1]);
	expect_exit(S_STOP_EXEC, pid, 7);
}

static void (*const scenario[S_NKINDS])(void) = {
	s_exec_mt, s_exit_race, s_vfork,      s_group_sig,  s_pidfd,  s_pdeath,
	s_session, s_threads,	s_exec_vfork, s_kill_vfork, s_robust, s_stop_exec,
};

static void on_chld(int sig)
{
	(void)sig;
	sigchld_seen = 1;
}

static int only = -1;

static void worker(uint64_t seed, int rounds, int out)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_chld;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	rng = seed * 0x9e3779b97f4a7c15ull + 1;
	for (int i = 0; i < rounds; i++) {
		int k = rnd(S_NKINDS);

		if (only >= 0)
			k = only;

		tally.runs[k]++;
		scenario[k]();
	}
	reap_all();
	if (!sigchld_seen && tally.runs[S_THREADS] < rounds) {
		printf("not ok - no SIGCHLD\n");
		tally.bad[0]++;
	}
	fflush(stdout);
	if (write(out, &tally, sizeof(tally)) != sizeof(tally))
		_exit(1);
	_exit(0);
}

int main(int argc, char **argv)
{
	uint64_t seed = 1;
	int rounds = DEFAULT_ROUNDS, p[2], bad = 0;
	struct tally sum, t;
	pid_t w[NWORKERS];
	struct rlimit rl = { 0, 0 };

	if (argc == 3 && strcmp(argv[1], "--exec-check") == 0)
		return exec_check(argv[2]);
	if (argc == 3 && strcmp(argv[1], "--exit") == 0)
		return atoi(argv[2]);
	if (argc == 3 && strcmp(argv[1], "--wait-go") == 0) {
		char c;

		return read(atoi(argv[2]), &c, 1) == 1 ? 7 : 85;
	}
	if (argc == 3 && strcmp(argv[1], "--release-vfork") == 0)
		return release_vfork(atoi(argv[2]));
	if (argc > 1)
		seed = strtoull(argv[1], NULL, 0);
	if (argc > 2)
		rounds = atoi(argv[2]);
	if (argc > 3) /* for debugging: one kind of event only */
		only = atoi(argv[3]) % S_NKINDS;
	setvbuf(stdout, NULL, _IOLBF, 0);
	setrlimit(RLIMIT_CORE, &rl);
	alarm(120);

	printf("seed %llu, %d workers, %d rounds each\n", (unsigned long long)seed, NWORKERS,
	       rounds);
	if (pipe(p) < 0)
		return 1;
	for (int i = 0; i < NWORKERS; i++) {
		w[i] = fork();
		if (w[i] == 0) {
			close(p[0]);
			worker(seed * NWORKERS + (uint64_t)i, rounds, p[1]);
		}
	}
	close(p[1]);
	memset(&sum, 0, sizeof(sum));
	for (int i = 0; i < NWORKERS; i++) {
		if (read(p[0], &t, sizeof(t)) != sizeof(t)) {
			printf("not ok - a worker died\n");
			bad++;
			continue;
		}
		for (int k = 0; k < S_NKINDS; k++) {
			sum.runs[k] += t.runs[k];
			sum.bad[k] += t.bad[k];
		}
	}
	for (int i = 0; i < NWORKERS; i++) {
		int st;

		if (xwait(w[i], &st, 0) != w[i] || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			printf("not ok - worker %d status %#x\n", i, st);
			bad++;
		}
	}
	for (int k = 0; k < S_NKINDS; k++) {
		printf("%s %d - %s: %d runs\n", sum.bad[k] ? "not ok" : "ok", k + 1, kind_name[k],
		       sum.runs[k]);
		bad += sum.bad[k];
	}
	return bad ? 1 : 0;
}
