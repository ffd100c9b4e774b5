/* System V message queues: msgget's rules, msgsnd/msgrcv by type (0, >0,
 * <0, MSG_EXCEPT), MSG_NOERROR, E2BIG, ENOMSG, MSG_COPY, msg_qbytes and a
 * sender waiting for room, receivers woken in order, a too-small waiting
 * receiver (E2BIG), a signal interrupting a wait, EIDRM on removal,
 * IPC_STAT/SET/INFO and permissions. Every queue made here is removed.
 * Children report through their exit status. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/time.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"
#include "wait_util.h"

#ifndef MSG_COPY
#define MSG_COPY 040000
#endif
#ifndef MSG_STAT_ANY
#define MSG_STAT_ANY 13
#endif

struct mbuf {
	long mtype;
	char mtext[8300];
};

static int child_exit(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int exited(pid_t pid)
{
	int st;

	return waitpid(pid, &st, WNOHANG) == pid;
}

static int snd(int id, long type, const char *text, int flg)
{
	struct mbuf m;

	m.mtype = type;
	strcpy(m.mtext, text);
	return msgsnd(id, &m, strlen(text), flg);
}

/* Receives into m; returns the length or -1; the text gets a NUL. */
static long rcv(int id, struct mbuf *m, size_t size, long type, int flg)
{
	long r = msgrcv(id, m, size, type, flg);

	if (r >= 0)
		m->mtext[r] = 0;
	return r;
}

static long qnum(int id)
{
	struct msqid_ds ds;

	return msgctl(id, IPC_STAT, &ds) < 0 ? -1 : (long)ds.msg_qnum;
}

/* Waits (at most 10 s) until the child pid sleeps (its /proc/PID/stat
 * says S): it is then blocked in its one call. A fixed 100 ms was a race: a
 * child that had not reached its msgrcv or msgsnd by an IPC_RMID got EINVAL
 * instead of EIDRM. */
static void settle(pid_t pid)
{
	int i;

	for (i = 0; i < 10000 && !proc_sleeps(pid); i++)
		sleep_ms(1);
}

static key_t unique_key(int i)
{
	return (key_t)(0x3a000000 | ((getpid() & 0xffff) << 4) | i);
}

static void test_get(void)
{
	key_t key = unique_key(1);
	int id, id2;

	check_err(msgget(key, 0600), ENOENT, "msgget of a missing key");
	id = msgget(key, IPC_CREAT | IPC_EXCL | 0600);
	check(id >= 0, "msgget IPC_CREAT|IPC_EXCL");
	check_err(msgget(key, IPC_CREAT | IPC_EXCL | 0600), EEXIST, "again: EEXIST");
	check(msgget(key, 0) == id, "msgget finds it");
	id2 = msgget(IPC_PRIVATE, 0600);
	check(id2 >= 0 && id2 != id, "IPC_PRIVATE makes another");
	msgctl(id2, IPC_RMID, NULL);
	check(msgctl(id, IPC_RMID, NULL) == 0, "IPC_RMID");
	check_err(msgget(key, 0), ENOENT, "the key is gone");
}

static void test_send_receive(void)
{
	int id = msgget(IPC_PRIVATE, 0600);
	struct msqid_ds ds;
	struct mbuf m;
	long r;

	check(msgctl(id, IPC_STAT, &ds) == 0 && ds.msg_qnum == 0 && ds.msg_qbytes == 16384 &&
		      ds.msg_stime == 0 && ds.msg_lspid == 0,
	      "a new queue: empty, msg_qbytes 16384");
	check_err(snd(id, 0, "x", 0), EINVAL, "mtype 0");
	check_err(snd(id, -3, "x", 0), EINVAL, "a negative mtype");
	m.mtype = 1;
	check_err(msgsnd(id, &m, 8193, 0), EINVAL, "a message past MSGMAX");
	check_err(msgsnd(id, &m, (size_t)-1, 0), EINVAL, "a negative size");
	check_err(msgsnd(id, (void *)8, 1, 0), EFAULT, "msgsnd from a bad pointer");
	check_err(snd(-1, 1, "x", 0), EINVAL, "msgsnd to id -1");
	check(snd(id, 3, "three", 0) == 0 && snd(id, 1, "one-a", 0) == 0 &&
		      snd(id, 2, "two", 0) == 0 && snd(id, 1, "one-b", 0) == 0 &&
		      snd(id, 5, "five", 0) == 0,
	      "five messages of types 3 1 2 1 5");
	check(msgctl(id, IPC_STAT, &ds) == 0 && ds.msg_qnum == 5 && ds.msg_cbytes == 22 &&
		      ds.msg_lspid == getpid() && ds.msg_stime > 0,
	      "msg_qnum 5, msg_cbytes 22, msg_lspid, msg_stime");
	r = rcv(id, &m, 100, 1, MSG_COPY | IPC_NOWAIT);
	if (r < 0 && errno == ENOSYS) {
		check(1, "MSG_COPY (not in this host kernel)");
		check(1, "MSG_COPY (not in this host kernel)");
	} else {
		check(r == 5 && m.mtype == 1 && strcmp(m.mtext, "one-a") == 0,
		      "MSG_COPY 1 peeks at the second message");
		check_err(rcv(id, &m, 100, 9, MSG_COPY | IPC_NOWAIT), ENOMSG,
			  "MSG_COPY past the end");
		check_err(msgrcv(id + 7 * 32768, (void *)8, 100, 0, MSG_COPY | IPC_NOWAIT), EFAULT,
			  "MSG_COPY reads the buffer before it looks the id up");
	}
	check_err(rcv(id, &m, 100, 0, MSG_COPY), EINVAL, "MSG_COPY without IPC_NOWAIT");
	check(qnum(id) == 5, "MSG_COPY took nothing");
	check(rcv(id, &m, 100, -2, 0) == 5 && m.mtype == 1 && strcmp(m.mtext, "one-a") == 0,
	      "type -2: the lowest type <= 2, oldest first");
	check(rcv(id, &m, 100, 1, MSG_EXCEPT) == 5 && m.mtype == 3 && strcmp(m.mtext, "three") == 0,
	      "MSG_EXCEPT 1: the first not of type 1");
	check(rcv(id, &m, 100, 5, 0) == 4 && strcmp(m.mtext, "five") == 0, "type 5");
	check_err(rcv(id, &m, 100, 4, IPC_NOWAIT), ENOMSG, "type 4 with IPC_NOWAIT");
	check_err(rcv(id, &m, 2, 0, 0), E2BIG, "a 2-byte buffer for 5 bytes");
	check(qnum(id) == 2, "the message stayed");
	check(rcv(id, &m, 2, 0, MSG_NOERROR) == 2 && m.mtype == 2 && strcmp(m.mtext, "tw") == 0,
	      "MSG_NOERROR truncates");
	check(msgctl(id, IPC_STAT, &ds) == 0 && ds.msg_lrpid == getpid() && ds.msg_rtime > 0,
	      "msg_lrpid, msg_rtime");
	check(rcv(id, &m, 100, 0, 0) == 5 && m.mtype == 1, "type 0: the oldest (1)");
	check_err(rcv(id, &m, 100, 0, IPC_NOWAIT), ENOMSG, "an empty queue with IPC_NOWAIT");
	check_err(rcv(id, &m, (size_t)-1, 0, IPC_NOWAIT), EINVAL, "a negative size");
	check_err(rcv(-1, &m, 10, 0, IPC_NOWAIT), EINVAL, "msgrcv from id -1");
	snd(id, 7, "seven", 0);
	check(rcv(id, &m, 100, -9223372036854775807L - 1, 0) == 5 && m.mtype == 7,
	      "type LONG_MIN takes any");
	m.mtype = 4;
	check(msgsnd(id, &m, 0, 0) == 0 && rcv(id, &m, 0, 0, 0) == 0 && m.mtype == 4,
	      "an empty message");
	snd(id, 8, "lost", 0);
	check_err(msgrcv(id, (void *)8, 10, 0, 0), EFAULT, "msgrcv to a bad pointer");
	check(qnum(id) == 0, "Linux drops the message it could not copy out");
	msgctl(id, IPC_RMID, NULL);
}

static void test_full(void)
{
	int id = msgget(IPC_PRIVATE, 0600), st;
	struct msqid_ds ds;
	struct mbuf m;
	pid_t pid;

	msgctl(id, IPC_STAT, &ds);
	ds.msg_qbytes = 10;
	check(msgctl(id, IPC_SET, &ds) == 0, "IPC_SET msg_qbytes 10");
	check(snd(id, 1, "123456", 0) == 0, "6 bytes fit");
	check_err(snd(id, 1, "12345", IPC_NOWAIT), EAGAIN, "5 more do not (IPC_NOWAIT)");
	pid = fork();
	if (pid == 0)
		_exit(snd(id, 2, "12345", 0) == 0 ? 0 : 1);
	settle(pid);
	check(!exited(pid), "a sender waits for room");
	rcv(id, &m, 100, 0, 0);
	check(child_exit(pid) == 0 && qnum(id) == 1, "a receive makes room: it sends");
	rcv(id, &m, 100, 0, 0);
	check(snd(id, 1, "", 0) == 0 && snd(id, 1, "", 0) == 0, "empty messages count too");
	msgctl(id, IPC_STAT, &ds);
	ds.msg_qbytes = 2;
	msgctl(id, IPC_SET, &ds);
	check_err(snd(id, 1, "", IPC_NOWAIT), EAGAIN, "at most msg_qbytes messages");
	ds.msg_qbytes = 16384;
	check(msgctl(id, IPC_SET, &ds) == 0, "msg_qbytes back to MSGMNB");
	pid = fork();
	if (pid == 0) {
		struct msqid_ds d;

		if (setgid(1001) < 0 || setuid(1001) < 0)
			_exit(10);
		if (snd(id, 1, "x", 0) == 0 || errno != EACCES)
			_exit(1);
		if (msgctl(id, IPC_STAT, &d) == 0 || errno != EACCES)
			_exit(2);
		if (msgctl(id, IPC_RMID, NULL) == 0 || errno != EPERM)
			_exit(3);
		_exit(0);
	}
	st = child_exit(pid);
	check(st == 0, "uid 1001 on a 0600 queue: EACCES to send or stat, EPERM to remove");
	msgctl(id, IPC_STAT, &ds);
	ds.msg_perm.uid = 1001;
	ds.msg_qbytes = 16384;
	msgctl(id, IPC_SET, &ds);
	pid = fork();
	if (pid == 0) {
		struct msqid_ds d;

		if (setgid(1001) < 0 || setuid(1001) < 0)
			_exit(10);
		if (msgctl(id, IPC_STAT, &d) != 0)
			_exit(1);
		d.msg_qbytes = 20000;
		if (msgctl(id, IPC_SET, &d) == 0 || errno != EPERM)
			_exit(2);
		d.msg_qbytes = 100;
		if (msgctl(id, IPC_SET, &d) != 0)
			_exit(3);
		/* Linux hands msg_qbytes on as an int: the high half goes. */
		d.msg_qbytes = 0x100000064UL;
		if (msgctl(id, IPC_SET, &d) != 0)
			_exit(5);
		if (msgctl(id, IPC_STAT, &d) != 0 || d.msg_qbytes != 100)
			_exit(6);
		_exit(msgctl(id, IPC_RMID, NULL) == 0 ? 0 : 4);
	}
	st = child_exit(pid);
	check(st == 0,
	      "the new owner: no raise past MSGMNB (EPERM), lowers it (32 bits), removes it");
	check_err(msgctl(id, IPC_STAT, &ds), EINVAL, "gone");
}

static void test_waiters(void)
{
	int id = msgget(IPC_PRIVATE, 0600);
	struct mbuf m;
	pid_t a, b;

	a = fork();
	if (a == 0)
		_exit(rcv(id, &m, 100, 2, 0) == 1 ? (int)m.mtype : 99);
	settle(a);
	b = fork();
	if (b == 0)
		_exit(rcv(id, &m, 100, 0, 0) == 1 ? (int)m.mtype : 99);
	settle(b);
	snd(id, 1, "x", 0);
	check(child_exit(b) == 1, "type 1 goes to the receiver of any type");
	check(!exited(a), "the receiver of type 2 still waits");
	snd(id, 2, "y", 0);
	check(child_exit(a) == 2 && qnum(id) == 0, "type 2 goes to it");

	a = fork();
	if (a == 0)
		_exit(rcv(id, &m, 3, 0, 0) < 0 && errno == E2BIG ? 0 : 1);
	settle(a);
	snd(id, 1, "too long", 0);
	check(child_exit(a) == 0, "a waiting receiver too small for the message gets E2BIG");
	check(qnum(id) == 1, "and the message is queued");
	rcv(id, &m, 100, 0, 0);

	{
		struct msqid_ds ds;

		msgctl(id, IPC_STAT, &ds);
		ds.msg_perm.mode = 0666;
		msgctl(id, IPC_SET, &ds);
		a = fork();
		if (a == 0) {
			if (setgid(1001) < 0 || setuid(1001) < 0)
				_exit(10);
			_exit(rcv(id, &m, 100, 0, 0) < 0 && errno == EACCES ? 0 : 1);
		}
		settle(a);
		ds.msg_perm.mode = 0600;
		msgctl(id, IPC_SET, &ds);
		check(child_exit(a) == 0,
		      "IPC_SET makes a waiting receiver check again: uid 1001 gets EACCES");
	}

	a = fork();
	if (a == 0)
		_exit(rcv(id, &m, 100, 0, 0) < 0 && errno == EIDRM ? 0 : 1);
	settle(a);
	msgctl(id, IPC_RMID, NULL);
	check(child_exit(a) == 0, "IPC_RMID wakes a receiver with EIDRM");

	id = msgget(IPC_PRIVATE, 0600);
	{
		struct msqid_ds ds;

		msgctl(id, IPC_STAT, &ds);
		ds.msg_qbytes = 1;
		msgctl(id, IPC_SET, &ds);
	}
	snd(id, 1, "a", 0);
	a = fork();
	if (a == 0)
		_exit(snd(id, 1, "b", 0) < 0 && errno == EIDRM ? 0 : 1);
	settle(a);
	msgctl(id, IPC_RMID, NULL);
	check(child_exit(a) == 0, "and a sender waiting for room");
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void test_signal(void)
{
	int id = msgget(IPC_PRIVATE, 0600);
	struct itimerval it = { { 0, 0 }, { 0, 50000 } };
	struct sigaction sa;
	struct mbuf m;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	check_err(rcv(id, &m, 100, 0, 0), EINTR, "a handled signal interrupts msgrcv (SA_RESTART)");
	signal(SIGALRM, SIG_DFL);
	msgctl(id, IPC_RMID, NULL);
}

static void test_info(void)
{
	int id = msgget(IPC_PRIVATE, 0600), r;
	struct msginfo mi;
	struct msqid_ds ds;

	r = msgctl(0, IPC_INFO, (struct msqid_ds *)&mi);
	check(r >= 0 && mi.msgmax == 8192 && mi.msgmnb == 16384 && mi.msgssz == 16,
	      "IPC_INFO: msgmax 8192, msgmnb 16384, msgssz 16");
	snd(id, 1, "abc", 0);
	r = msgctl(0, MSG_INFO, (struct msqid_ds *)&mi);
	check(r >= 0 && mi.msgpool >= 1 && mi.msgmap >= 1 && mi.msgtql >= 3,
	      "MSG_INFO counts queues, messages and bytes");
	check(msgctl(id & 0x7fff, MSG_STAT, &ds) == id && ds.msg_qnum == 1,
	      "MSG_STAT by index gives the id");
	check(msgctl(id & 0x7fff, MSG_STAT_ANY, &ds) == id, "MSG_STAT_ANY too");
	check(msgctl((id & 0x7fff) + 3 * 32768, MSG_STAT, &ds) == id,
	      "MSG_STAT takes the index modulo 32768");
	check_err(msgctl(id, 99, &ds), EINVAL, "an unknown command");
	check_err(msgctl(id, IPC_STAT, (void *)8), EFAULT, "IPC_STAT to a bad pointer");
	check_err(msgctl(id, IPC_SET, (void *)8), EFAULT, "IPC_SET from a bad pointer");
	check(msgctl(id, IPC_RMID, NULL) == 0, "IPC_RMID with a message queued");
	check_err(msgctl(id, IPC_RMID, NULL), EINVAL, "IPC_RMID again");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_get();
	test_send_receive();
	test_full();
	test_waiters();
	test_signal();
	test_info();
	return 0;
}
