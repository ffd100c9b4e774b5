/* System V semaphores: semget's rules, SETVAL/GETVAL/SETALL/GETALL/GETPID/
 * GETNCNT/GETZCNT, semop's all-or-nothing arrays and errors (E2BIG, EFBIG,
 * ERANGE, EAGAIN), semtimedop timeouts (0, short), waiters woken in order,
 * a signal interrupting a wait (EINTR even with SA_RESTART), EIDRM on
 * removal, SEM_UNDO at exit, IPC_STAT/SET/INFO and permissions. Every set
 * made here is removed. Children report through their exit status. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/time.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"

#ifndef SEM_STAT_ANY
#define SEM_STAT_ANY 20
#endif

union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
	struct seminfo *info;
};

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int child_exit(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Has pid exited (reaped now)? */
static int exited(pid_t pid)
{
	int st;

	return waitpid(pid, &st, WNOHANG) == pid;
}

/* Waits until cmd (GETNCNT/GETZCNT) of semnum reaches want. */
static int wait_count(int id, int semnum, int cmd, int want)
{
	for (int i = 0; i < 500; i++) {
		if (semctl(id, semnum, cmd) == want)
			return 1;
		sleep_ms(10);
	}
	return 0;
}

static int op(int id, int num, int val, int flg)
{
	struct sembuf b = { (unsigned short)num, (short)val, (short)flg };

	return semop(id, &b, 1);
}

static key_t unique_key(int i)
{
	return (key_t)(0x5e000000 | ((getpid() & 0xffff) << 4) | i);
}

static void test_get(void)
{
	key_t key = unique_key(1);
	int id;

	check_err(semget(IPC_PRIVATE, -1, 0600), EINVAL, "semget nsems -1");
	check_err(semget(IPC_PRIVATE, 32001, 0600), EINVAL, "semget nsems past SEMMSL");
	check_err(semget(IPC_PRIVATE, 0, 0600), EINVAL, "semget of a new set with nsems 0");
	check_err(semget(key, 1, 0600), ENOENT, "semget of a missing key");
	id = semget(key, 3, IPC_CREAT | IPC_EXCL | 0600);
	check(id >= 0, "semget IPC_CREAT|IPC_EXCL, 3 semaphores");
	check_err(semget(key, 3, IPC_CREAT | IPC_EXCL | 0600), EEXIST, "again: EEXIST");
	check(semget(key, 0, 0) == id && semget(key, 2, 0) == id, "found with nsems 0 or 2");
	check_err(semget(key, 4, 0), EINVAL, "more semaphores than the set has");
	check(semctl(id, 0, IPC_RMID) == 0, "IPC_RMID");
	check_err(semctl(id, 0, GETVAL), EINVAL, "GETVAL after IPC_RMID");
	check_err(semget(key, 0, 0), ENOENT, "the key is gone");
}

static void test_values(void)
{
	int id = semget(IPC_PRIVATE, 3, 0600);
	unsigned short all[3] = { 0, 0, 0 }, set[3] = { 5, 0, 32767 }, bad[3] = { 1, 40000, 1 };
	union semun u;

	u.array = all;
	check(semctl(id, 0, GETALL, u) == 0 && all[0] == 0 && all[1] == 0 && all[2] == 0,
	      "a new set is all zeros");
	u.val = 7;
	check(semctl(id, 1, SETVAL, u) == 0 && semctl(id, 1, GETVAL) == 7, "SETVAL 7, GETVAL 7");
	check(semctl(id, 1, GETPID) == getpid(), "GETPID is the setter");
	u.val = 32768;
	check_err(semctl(id, 1, SETVAL, u), ERANGE, "SETVAL 32768");
	u.val = -1;
	check_err(semctl(id, 1, SETVAL, u), ERANGE, "SETVAL -1");
	u.val = 1;
	check_err(semctl(id, 3, SETVAL, u), EINVAL, "SETVAL of semaphore 3 of 3");
	check_err(semctl(id, -1, GETVAL), EINVAL, "GETVAL of semaphore -1");
	u.array = set;
	check(semctl(id, 0, SETALL, u) == 0, "SETALL");
	u.array = all;
	check(semctl(id, 0, GETALL, u) == 0 && all[0] == 5 && all[1] == 0 && all[2] == 32767,
	      "GETALL gives them back");
	u.array = bad;
	check_err(semctl(id, 0, SETALL, u), ERANGE, "SETALL with 40000");
	check(semctl(id, 1, GETVAL) == 0, "and nothing changed");
	u.array = (unsigned short *)8;
	check_err(semctl(id, 0, GETALL, u), EFAULT, "GETALL to a bad pointer");
	check_err(semctl(id, 0, SETALL, u), EFAULT, "SETALL from a bad pointer");
	check_err(semctl(id, 0, 1234), EINVAL, "an unknown command");
	semctl(id, 0, IPC_RMID);
}

static void test_semop(void)
{
	int id = semget(IPC_PRIVATE, 2, 0600);
	struct sembuf many[501], b[3];
	struct semid_ds ds;
	union semun u;

	u.buf = &ds;
	check(semctl(id, 0, IPC_STAT, u) == 0 && ds.sem_otime == 0 && ds.sem_nsems == 2,
	      "IPC_STAT: sem_otime 0, sem_nsems 2");
	memset(many, 0, sizeof(many));
	check_err(semop(id, many, 0), EINVAL, "semop of 0 operations");
	check_err(semop(id, many, 501), E2BIG, "semop of 501 operations");
	check_err(semop(id, (struct sembuf *)8, 1), EFAULT, "semop from a bad pointer");
	check_err(op(id, 2, 1, 0), EFBIG, "semop on semaphore 2 of 2");
	check_err(op(-1, 0, 1, 0), EINVAL, "semop on id -1");
	check_err(op(id, 0, -1, IPC_NOWAIT), EAGAIN, "decrement below 0 with IPC_NOWAIT");
	check(op(id, 0, 3, 0) == 0 && semctl(id, 0, GETVAL) == 3, "increment by 3");
	check(semctl(id, 0, IPC_STAT, u) == 0 && ds.sem_otime > 0, "sem_otime is set");
	check_err(op(id, 0, 0, IPC_NOWAIT), EAGAIN, "wait for zero at 3 with IPC_NOWAIT");
	check_err(op(id, 0, 32765, 0), ERANGE, "past SEMVMX");
	b[0] = (struct sembuf){ 1, 5, 0 };
	b[1] = (struct sembuf){ 0, -4, IPC_NOWAIT };
	check_err(semop(id, b, 2), EAGAIN, "all or nothing: the second would block");
	check(semctl(id, 1, GETVAL) == 0 && semctl(id, 0, GETVAL) == 3,
	      "and the first did not happen");
	b[0] = (struct sembuf){ 0, 2, 0 };
	b[1] = (struct sembuf){ 0, -4, 0 };
	b[2] = (struct sembuf){ 1, 0, 0 };
	check(semop(id, b, 3) == 0 && semctl(id, 0, GETVAL) == 1,
	      "operations apply in order (+2, -4, wait for zero)");
	b[0] = (struct sembuf){ 0, -1, 0 };
	b[1] = (struct sembuf){ 0, -1, IPC_NOWAIT };
	check_err(semop(id, b, 2), EAGAIN, "the same semaphore twice: the second would block");
	check(semctl(id, 0, GETVAL) == 1, "the first was undone");
	semctl(id, 0, IPC_RMID);
}

static void test_timeouts(void)
{
	int id = semget(IPC_PRIVATE, 1, 0600);
	struct sembuf b = { 0, -1, 0 };
	struct timespec ts = { 0, 0 };
	long t0;

	check_err(semtimedop(id, &b, 1, &ts), EAGAIN, "semtimedop with a 0 timeout");
	ts.tv_nsec = 100 * 1000000L;
	t0 = now_ms();
	check_err(semtimedop(id, &b, 1, &ts), EAGAIN, "semtimedop with 100 ms");
	check(now_ms() - t0 >= 90, "it waited the 100 ms");
	ts.tv_nsec = 1000000000L;
	check_err(semtimedop(id, &b, 1, &ts), EINVAL, "tv_nsec 1e9");
	ts.tv_sec = -1;
	ts.tv_nsec = 0;
	check_err(semtimedop(id, &b, 1, &ts), EINVAL, "a negative timeout");
	check_err(semtimedop(id, &b, 1, (struct timespec *)8), EFAULT,
		  "a timeout at a bad pointer");
	b.sem_op = 1;
	ts.tv_sec = 0;
	check(semtimedop(id, &b, 1, &ts) == 0 && semctl(id, 0, GETVAL) == 1,
	      "a timeout does not matter when it need not wait");
	ts.tv_sec = 1000000000000LL;
	check(semtimedop(id, &b, 1, &ts) == 0 && semctl(id, 0, GETVAL) == 2,
	      "a timeout of 1e12 seconds is valid");
	semctl(id, 0, IPC_RMID);
}

static void test_wakeups(void)
{
	int id = semget(IPC_PRIVATE, 2, 0600);
	pid_t a, b, z;

	a = fork();
	if (a == 0)
		_exit(op(id, 0, -1, 0) == 0 ? 0 : 1);
	check(wait_count(id, 0, GETNCNT, 1), "first waiter blocked: GETNCNT 1");
	b = fork();
	if (b == 0)
		_exit(op(id, 0, -1, 0) == 0 ? 0 : 1);
	check(wait_count(id, 0, GETNCNT, 2), "second waiter blocked: GETNCNT 2");
	check(semctl(id, 0, GETZCNT) == 0, "GETZCNT 0");
	op(id, 0, 1, 0);
	check(child_exit(a) == 0, "one increment wakes the first waiter");
	sleep_ms(50);
	check(!exited(b) && semctl(id, 0, GETNCNT) == 1, "the second still waits");
	op(id, 0, 1, 0);
	check(child_exit(b) == 0 && semctl(id, 0, GETVAL) == 0, "the next wakes the second");
	check(semctl(id, 0, GETPID) == b, "GETPID is the last waiter that went through");

	op(id, 1, 1, 0);
	z = fork();
	if (z == 0)
		_exit(op(id, 1, 0, 0) == 0 ? 0 : 1);
	check(wait_count(id, 1, GETZCNT, 1), "a wait for zero blocks: GETZCNT 1");
	op(id, 1, -1, 0);
	check(child_exit(z) == 0, "reaching zero wakes it");

	/* An array waits until all of it can go. */
	a = fork();
	if (a == 0) {
		struct sembuf arr[2] = { { 0, -1, 0 }, { 1, -1, 0 } };

		_exit(semop(id, arr, 2) == 0 ? 0 : 1);
	}
	check(wait_count(id, 0, GETNCNT, 1), "an array blocked on semaphore 0");
	op(id, 0, 1, 0);
	check(wait_count(id, 1, GETNCNT, 1), "then on semaphore 1");
	check(semctl(id, 0, GETVAL) == 1, "without taking semaphore 0");
	op(id, 1, 1, 0);
	check(child_exit(a) == 0 && semctl(id, 0, GETVAL) == 0 && semctl(id, 1, GETVAL) == 0,
	      "both at once");

	/* A waiter killed with SIGKILL leaves the queue. */
	a = fork();
	if (a == 0)
		_exit(op(id, 0, -1, 0) == 0 ? 0 : 1);
	check(wait_count(id, 0, GETNCNT, 1), "a waiter blocked");
	kill(a, SIGKILL);
	check(child_exit(a) == 128 + SIGKILL && semctl(id, 0, GETNCNT) == 0,
	      "SIGKILL ends it and it leaves the queue (GETNCNT 0)");

	/* Removal wakes waiters with EIDRM. */
	a = fork();
	if (a == 0)
		_exit(op(id, 0, -1, 0) == -1 && errno == EIDRM ? 0 : 1);
	check(wait_count(id, 0, GETNCNT, 1), "a waiter blocked");
	semctl(id, 0, IPC_RMID);
	check(child_exit(a) == 0, "IPC_RMID: the waiter gets EIDRM");
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void test_signal(void)
{
	int id = semget(IPC_PRIVATE, 1, 0600);
	struct sigaction sa;
	struct itimerval it = { { 0, 0 }, { 0, 50000 } };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	check_err(op(id, 0, -1, 0), EINTR, "a signal interrupts semop (SA_RESTART or not)");
	check(semctl(id, 0, GETNCNT) == 0, "and the operation left the queue");
	signal(SIGALRM, SIG_DFL);
	semctl(id, 0, IPC_RMID);
}

static void test_undo(void)
{
	int id = semget(IPC_PRIVATE, 2, 0600);
	union semun u;
	pid_t pid;

	u.val = 5;
	semctl(id, 0, SETVAL, u);
	pid = fork();
	if (pid == 0) {
		op(id, 0, 3, SEM_UNDO);
		op(id, 1, 2, SEM_UNDO);
		op(id, 0, -1, SEM_UNDO);
		_exit(semctl(id, 0, GETVAL) == 7 ? 0 : 1);
	}
	check(child_exit(pid) == 0, "a child changes values with SEM_UNDO");
	check(semctl(id, 0, GETVAL) == 5 && semctl(id, 1, GETVAL) == 0,
	      "its exit undoes the changes");
	check(semctl(id, 0, GETPID) == pid, "GETPID is the exited child");

	pid = fork();
	if (pid == 0) {
		union semun v = { .val = 10 };

		op(id, 0, 2, SEM_UNDO);
		semctl(id, 0, SETVAL, v);
		_exit(0);
	}
	child_exit(pid);
	check(semctl(id, 0, GETVAL) == 10, "SETVAL clears the adjustment");

	u.val = 0;
	semctl(id, 1, SETVAL, u);
	pid = fork();
	if (pid == 0) {
		op(id, 1, 5, SEM_UNDO);
		op(id, 1, -5, 0);
		_exit(0);
	}
	child_exit(pid);
	check(semctl(id, 1, GETVAL) == 0, "an undo below 0 stops at 0");

	pid = fork();
	if (pid == 0) {
		if (op(id, 1, 32767, SEM_UNDO) < 0 || op(id, 1, -32767, 0) < 0)
			_exit(1);
		if (op(id, 1, 2, SEM_UNDO) == 0 || errno != ERANGE)
			_exit(2);
		_exit(0);
	}
	check(child_exit(pid) == 0, "an adjustment past -32768 is ERANGE");

	/* A waiter is woken by an undo at exit. */
	u.val = 0;
	semctl(id, 0, SETVAL, u);
	op(id, 0, 1, SEM_UNDO);
	pid = fork();
	if (pid == 0)
		_exit(op(id, 0, 0, 0) == 0 ? 0 : 1);
	check(wait_count(id, 0, GETZCNT, 1), "a child waits for zero");
	pid_t undoer = fork();
	if (undoer == 0) {
		op(id, 0, -1, 0); /* takes our 1 away... */
		op(id, 0, 1, SEM_UNDO);
		_exit(0);
	}
	child_exit(undoer);
	check(child_exit(pid) == 0, "...and the exit of a SEM_UNDO holder wakes the waiter");
	semctl(id, 0, IPC_RMID);
}

static int undo_id;

static void *undo_thread(void *arg)
{
	(void)arg;
	op(undo_id, 0, 4, SEM_UNDO);
	return NULL;
}

/* Adjustments belong to the process: a thread's end undoes nothing, the
 * process's exit undoes what all its threads did. */
static void test_undo_threads(void)
{
	pid_t pid;

	undo_id = semget(IPC_PRIVATE, 1, 0600);
	pid = fork();
	if (pid == 0) {
		pthread_t th;

		if (pthread_create(&th, NULL, undo_thread, NULL) != 0)
			_exit(1);
		pthread_join(th, NULL);
		if (semctl(undo_id, 0, GETVAL) != 4)
			_exit(2); /* the thread's end undid nothing */
		op(undo_id, 0, 1, SEM_UNDO);
		_exit(0);
	}
	check(child_exit(pid) == 0, "a thread's SEM_UNDO stays after the thread ends");
	check(semctl(undo_id, 0, GETVAL) == 0, "the process's exit undoes both threads' changes");
	semctl(undo_id, 0, IPC_RMID);
}

static void test_ctl(void)
{
	int id = semget(IPC_PRIVATE, 1, 0640), r, st;
	struct semid_ds ds;
	struct seminfo si;
	union semun u;
	pid_t pid;

	u.info = &si;
	r = semctl(0, 0, IPC_INFO, u);
	check(r >= 0 && si.semmsl == 32000 && si.semopm == 500 && si.semvmx == 32767,
	      "IPC_INFO: semmsl 32000, semopm 500, semvmx 32767");
	r = semctl(0, 0, SEM_INFO, u);
	check(r >= 0 && si.semusz >= 1 && si.semaem >= 1, "SEM_INFO counts sets and semaphores");
	u.buf = &ds;
	check(semctl(id & 0x7fff, 0, SEM_STAT, u) == id, "SEM_STAT by index gives the id");
	check(semctl(id & 0x7fff, 0, SEM_STAT_ANY, u) == id, "SEM_STAT_ANY too");
	check(semctl((id & 0x7fff) + 32768, 0, SEM_STAT, u) == id,
	      "SEM_STAT takes the index modulo 32768");
	check(semctl(id, 0, IPC_STAT, u) == 0 && (ds.sem_perm.mode & 0777) == 0640 &&
		      ds.sem_perm.cuid == getuid(),
	      "IPC_STAT: mode 0640, cuid");
	ds.sem_perm.mode = 0604;
	check(semctl(id, 0, IPC_SET, u) == 0, "IPC_SET mode 0604");
	check(semctl(id, 0, IPC_STAT, u) == 0 && (ds.sem_perm.mode & 0777) == 0604,
	      "IPC_STAT shows 0604");
	pid = fork();
	if (pid == 0) {
		if (setgid(1001) < 0 || setuid(1001) < 0)
			_exit(10);
		if (semctl(id, 0, GETVAL) != 0)
			_exit(1); /* others may read */
		if (op(id, 0, 1, 0) == 0 || errno != EACCES)
			_exit(2);
		if (semctl(id, 0, IPC_RMID) == 0 || errno != EPERM)
			_exit(3);
		if (op(id, 0, 0, IPC_NOWAIT) != 0)
			_exit(4); /* waiting for zero only reads */
		_exit(0);
	}
	st = child_exit(pid);
	check(st == 0,
	      "uid 1001 with r--: GETVAL, wait for zero; no semop (EACCES), no RMID (EPERM)");
	check(semctl(id, 0, IPC_RMID) == 0, "IPC_RMID");
	check_err(semctl(id, 0, IPC_RMID), EINVAL, "IPC_RMID again");
	check_err(semctl(-1, 0, IPC_STAT, u), EINVAL, "IPC_STAT of id -1");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_get();
	test_values();
	test_semop();
	test_timeouts();
	test_wakeups();
	test_signal();
	test_undo();
	test_undo_threads();
	test_ctl();
	return 0;
}
