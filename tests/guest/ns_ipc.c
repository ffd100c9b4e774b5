/* IPC namespaces: unshare(CLONE_NEWIPC) gives an empty set of System V
 * objects and POSIX message queue names (shmget, semget, msgget by key and
 * mq_open by name do not find the other namespace's; /proc/sysvipc and
 * *_INFO count only the caller's); unshare applies the SEM_UNDO
 * adjustments first; clone(CLONE_NEWIPC|CLONE_SYSVSEM) is EINVAL; setns
 * with the namespace file enters a namespace its processes have left; a
 * shared memory attachment and an open queue outlive their namespace.
 * Natively everything is made in children that unshared first. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define KEY 0x5eed1
#define MQ  "/ns_ipc_test"

#include "ns_util.h"

static unsigned long ipc_ino(const char *who)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%s/ns/ipc", who);
	return stat(path, &st) == 0 ? (unsigned long)st.st_ino : 0;
}

static int proc_lines(const char *file)
{
	char line[512];
	int k = 0;
	FILE *f = fopen(file, "r");

	while (f && fgets(line, sizeof(line), f))
		k++;
	if (f)
		fclose(f);
	return k;
}

/* Runs fn in a child (its checks count as ours). */

static int a_ns_fd, b_ns_fd, semid_a, to_b[2], to_a[2];

/* B: a namespace of its own, left behind at its end. */
static void child_b(void)
{
	struct mq_attr at = { .mq_maxmsg = 4, .mq_msgsize = 16 };
	struct msginfo mi;
	char buf[16], c;
	mqd_t q;
	void *mem;
	int id;

	check(unshare(CLONE_NEWIPC) == 0, "B: unshare(CLONE_NEWIPC)");
	check(ipc_ino("self") != ipc_ino(".."), "B: a namespace other than A's");
	check_err(shmget(KEY, 0, 0), ENOENT, "ENOENT", "B: A's shared memory key");
	check_err(semget(KEY, 0, 0), ENOENT, "ENOENT", "B: A's semaphore key");
	check_err(msgget(KEY, 0), ENOENT, "ENOENT", "B: A's message queue key");
	check_err(mq_open(MQ, O_RDONLY), ENOENT, "ENOENT", "B: A's POSIX queue name");
	check(proc_lines("/proc/sysvipc/shm") == 1 && proc_lines("/proc/sysvipc/sem") == 1 &&
		      proc_lines("/proc/sysvipc/msg") == 1,
	      "B: /proc/sysvipc lists nothing");
	check(msgctl(0, MSG_INFO, (struct msqid_ds *)&mi) == 0 && mi.msgpool == 0,
	      "B: MSG_INFO counts no queue");
	id = shmget(KEY, 4096, IPC_CREAT | 0600);
	check(id >= 0, "B: the same key makes a segment of its own");
	mem = shmat(id, NULL, 0);
	check(mem != (void *)-1, "B: shmat");
	strcpy(mem, "b-data");
	shmctl(id, IPC_RMID, NULL);
	q = mq_open(MQ, O_RDWR | O_CREAT, 0600, &at);
	check(q >= 0, "B: the same queue name makes a queue of its own");
	mq_unlink(MQ);
	check(msgget(KEY, IPC_CREAT | 0600) >= 0, "B: a message queue with the key");
	fflush(stdout);
	write(to_a[1], "x", 1);
	read(to_b[0], &c, 1);

	/* back to A's namespace: B's has no process left, but the file A
	 * holds keeps it; the attachment and the queue live on */
	check(setns(a_ns_fd, CLONE_NEWIPC) == 0, "B: setns back to A's namespace");
	check(shmget(KEY, 0, 0) >= 0, "B: A's key again");
	check(strcmp(mem, "b-data") == 0, "B: its attachment still reads");
	check(shmdt(mem) == 0, "B: shmdt");
	check(mq_send(q, "m", 1, 0) == 0 && mq_receive(q, buf, sizeof(buf), NULL) == 1,
	      "B: its open queue still works");
	mq_close(q);
}

static void child_c(void)
{
	check(setns(b_ns_fd, 0) == 0, "C: setns into B's namespace after B is gone");
	check(msgget(KEY, 0) >= 0, "C: B's message queue is there");
	check_err(shmget(KEY, 0, 0), ENOENT, "ENOENT", "C: B's removed segment is not");
	check(ipc_ino("self") != ipc_ino(".."), "C: not A's");
}

static void child_undo(void)
{
	struct sembuf up = { 0, 1, SEM_UNDO };
	char c;

	check(semop(semid_a, &up, 1) == 0, "D: semop +1 with SEM_UNDO");
	check(unshare(CLONE_NEWIPC) == 0, "D: unshare(CLONE_NEWIPC)");
	fflush(stdout);
	write(to_a[1], "x", 1);
	read(to_b[0], &c, 1);
}

static void child_a(void)
{
	char path[64], c;
	pid_t b;
	int st, shm, msq;
	mqd_t q;

	check(unshare(CLONE_NEWIPC) == 0, "A: unshare(CLONE_NEWIPC)");
	shm = shmget(KEY, 4096, IPC_CREAT | 0600);
	semid_a = semget(KEY, 1, IPC_CREAT | 0600);
	msq = msgget(KEY, IPC_CREAT | 0600);
	q = mq_open(MQ, O_RDWR | O_CREAT, 0600, NULL);
	check(shm >= 0 && semid_a >= 0 && msq >= 0 && q >= 0, "A: a segment, a set, two queues");
	check(proc_lines("/proc/sysvipc/shm") == 2, "A: /proc/sysvipc/shm lists its segment");
	a_ns_fd = open("/proc/self/ns/ipc", O_RDONLY);

	pipe(to_b);
	pipe(to_a);
	fflush(stdout);
	b = fork();
	if (b == 0) {
		int before = n;

		child_b();
		fflush(stdout);
		_exit(n - before);
	}
	read(to_a[0], &c, 1);
	snprintf(path, sizeof(path), "/proc/%d/ns/ipc", b);
	b_ns_fd = open(path, O_RDONLY);
	check(b_ns_fd >= 0, "A: open B's ns/ipc");
	check(proc_lines("/proc/sysvipc/shm") == 2, "A: B's segment is not in A's list");
	write(to_b[1], "x", 1);
	waitpid(b, &st, 0);
	n += WIFEXITED(st) ? WEXITSTATUS(st) : 0;
	in_child(child_c);
	close(b_ns_fd);

	/* the SEM_UNDO adjustment is applied at unshare, as at exit */
	b = fork();
	if (b == 0) {
		int before = n;

		child_undo();
		fflush(stdout);
		_exit(n - before);
	}
	read(to_a[0], &c, 1);
	check(semctl(semid_a, 0, GETVAL) == 0, "A: D's adjustment was undone at its unshare");
	write(to_b[1], "x", 1);
	waitpid(b, &st, 0);
	n += WIFEXITED(st) ? WEXITSTATUS(st) : 0;

	check_err(syscall(SYS_clone, CLONE_NEWIPC | CLONE_SYSVSEM | SIGCHLD, 0, 0, 0, 0), EINVAL,
		  "EINVAL", "A: clone(CLONE_NEWIPC|CLONE_SYSVSEM)");
	shmctl(shm, IPC_RMID, NULL);
	semctl(semid_a, 0, IPC_RMID);
	msgctl(msq, IPC_RMID, NULL);
	mq_unlink(MQ);
}

int main(void)
{
	unsigned long before = ipc_ino("self");

	setvbuf(stdout, NULL, _IOLBF, 0);
	in_child(child_a);
	check(ipc_ino("self") == before, "our namespace is unchanged");
	check_err(shmget(KEY, 0, 0), ENOENT, "ENOENT", "nothing of A's in ours");
	return 0;
}
