/* The System V IPC and POSIX message queue sysctls of an IPC namespace:
 * kernel.shmmax, shmall, shmmni, msgmax, msgmnb, msgmni, sem and
 * fs.mqueue.*, Linux's defaults in a new namespace, their bounds (EINVAL
 * past them), and their effect on shmget, msgsnd, msgget, semget, semop,
 * mq_open and the *_INFO answers. skas had none of these files (ENOENT:
 * ipcs, stress-ng and database setup scripts read them) and fixed limits.
 * Runs in an IPC namespace of its own (root), without CAP_SYS_RESOURCE
 * (which passes the message queue limits). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

#define TAP_ENAME
#include "tap.h"
#include "caps.h"

static char got[128];

static const char *get(const char *name)
{
	char path[128];
	int fd;
	ssize_t r;

	snprintf(path, sizeof(path), "/proc/sys/%s", name);
	fd = open(path, O_RDONLY);
	r = fd >= 0 ? read(fd, got, sizeof(got) - 1) : -1;
	if (fd >= 0)
		close(fd);
	got[r > 0 ? r : 0] = 0;
	return got;
}

/* write(2)'s result, or -errno */
static long put(const char *name, const char *val)
{
	char path[128];
	int fd;
	long r;

	snprintf(path, sizeof(path), "/proc/sys/%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	r = write(fd, val, strlen(val));
	if (r < 0)
		r = -errno;
	close(fd);
	return r;
}

static void check_is(const char *name, const char *want)
{
	char what[160];

	snprintf(what, sizeof(what), "%s reads %.*s", name, (int)strcspn(want, "\n"), want);
	check(strcmp(get(name), want) == 0, what);
	if (strcmp(got, want))
		printf("# got \"%s\"\n", got);
}

struct msgbuf1 {
	long mtype;
	char mtext[256];
};

int main(void)
{
	struct msgbuf1 m = { 1, { 0 } };
	struct shminfo si;
	struct msginfo mi;
	struct seminfo smi;
	struct msqid_ds ds;
	struct sembuf ops[6];
	struct mq_attr attr = { 0 };
	int shm1, q, s1, s2;
	mqd_t mq1, mq2;

	if (unshare(CLONE_NEWIPC) < 0) {
		printf("not ok 1 - an IPC namespace of its own: %s\n", strerror(errno));
		return 1;
	}
	check(caps_drop(CAP_SYS_RESOURCE) == 0, "CAP_SYS_RESOURCE dropped");
	check_is("kernel/shmmax", "18446744073692774399\n");
	check_is("kernel/shmall", "18446744073692774399\n");
	check_is("kernel/shmmni", "4096\n");
	check_is("kernel/msgmax", "8192\n");
	check_is("kernel/msgmnb", "16384\n");
	check_is("kernel/msgmni", "32000\n");
	check_is("kernel/sem", "32000\t1024000000\t500\t32000\n");
	check_is("fs/mqueue/queues_max", "256\n");
	check_is("fs/mqueue/msg_max", "10\n");
	check_is("fs/mqueue/msgsize_max", "8192\n");
	check_is("fs/mqueue/msg_default", "10\n");
	check_is("fs/mqueue/msgsize_default", "8192\n");

	/* bounds */
	check(put("kernel/shmmni", "32769") == -EINVAL, "shmmni 32769: EINVAL (past IPCMNI)");
	check(put("kernel/msgmni", "-1") == -EINVAL, "msgmni -1: EINVAL");
	check(put("kernel/shmmax", "-1") == -EINVAL, "shmmax -1: EINVAL");
	check(put("kernel/shmmax", "x") == -EINVAL, "shmmax x: EINVAL");
	check(put("fs/mqueue/queues_max", "-3") == 2, "queues_max takes any int (-3)");
	check_is("fs/mqueue/queues_max", "-3\n");
	check(put("fs/mqueue/msg_max", "0") == -EINVAL, "msg_max 0: EINVAL");
	check(put("fs/mqueue/msgsize_max", "127") == -EINVAL, "msgsize_max 127: EINVAL");
	check(put("kernel/sem", "1 2 3 40000") == -ERANGE, "sem with SEMMNI 40000: ERANGE");
	check_is("kernel/sem", "1\t2\t3\t32000\n");
	check(put("kernel/sem", "-5 7 9 11 12") == 10, "sem of five numbers: four taken");
	check_is("kernel/sem", "-5\t7\t9\t11\n");
	{
		int fd = open("/proc/sys/kernel/sem", O_WRONLY);

		check(fd >= 0 && write(fd, "1 2 3 4 ", 8) == 8 && write(fd, "5", 1) == 1,
		      "sem: a second write, past offset 0, taken");
		if (fd >= 0)
			close(fd);
	}
	check_is("kernel/sem", "1\t2\t3\t4\n");
	check(put("kernel/shmmax", "18446744073709551615") == 20, "shmmax 2^64-1");
	check_is("kernel/shmmax", "18446744073709551615\n");

	/* shared memory */
	check(put("kernel/shmmax", "4096\n") == 5, "shmmax 4096");
	errno = 0;
	check_err(shmget(IPC_PRIVATE, 8192, 0600), EINVAL, "shmget of 8 KiB: EINVAL");
	check(put("kernel/shmall", "1") == 1, "shmall 1 (page)");
	shm1 = shmget(IPC_PRIVATE, 4096, 0600);
	check(shm1 >= 0, "shmget of a page");
	errno = 0;
	check_err(shmget(IPC_PRIVATE, 100, 0600), ENOSPC, "a second page: ENOSPC (shmall)");
	check(put("kernel/shmall", "100") == 3 && put("kernel/shmmni", "1") == 1, "shmmni 1");
	errno = 0;
	check_err(shmget(IPC_PRIVATE, 100, 0600), ENOSPC, "a second segment: ENOSPC (shmmni)");
	check(shmctl(0, IPC_INFO, (struct shmid_ds *)&si) >= 0 && si.shmmax == 4096 &&
		      si.shmall == 100 && si.shmmni == 1,
	      "IPC_INFO: shmmax, shmall, shmmni as set");
	shmctl(shm1, IPC_RMID, NULL);

	/* message queues */
	check(put("kernel/msgmax", "100") == 3 && put("kernel/msgmnb", "200") == 3,
	      "msgmax 100, msgmnb 200");
	q = msgget(IPC_PRIVATE, 0600);
	check(q >= 0 && msgctl(q, IPC_STAT, &ds) == 0 && ds.msg_qbytes == 200,
	      "a new queue's msg_qbytes: msgmnb");
	errno = 0;
	check_err(msgsnd(q, &m, 101, IPC_NOWAIT), EINVAL, "msgsnd of 101 bytes: EINVAL");
	check(msgsnd(q, &m, 100, IPC_NOWAIT) == 0, "of 100: sent");
	ds.msg_qbytes = 300;
	errno = 0;
	check_err(msgctl(q, IPC_SET, &ds), EPERM, "IPC_SET msg_qbytes past msgmnb: EPERM");
	check(msgctl(0, IPC_INFO, (struct msqid_ds *)&mi) >= 0 && mi.msgmax == 100 &&
		      mi.msgmnb == 200 && mi.msgmni == 32000,
	      "IPC_INFO: msgmax, msgmnb, msgmni");
	check(put("kernel/msgmni", "1") == 1, "msgmni 1");
	errno = 0;
	check_err(msgget(IPC_PRIVATE, 0600), ENOSPC, "a second queue: ENOSPC");
	msgctl(q, IPC_RMID, NULL);

	/* semaphores */
	check(put("kernel/sem", "10 20 5 3") == 9, "sem 10 20 5 3");
	check_is("kernel/sem", "10\t20\t5\t3\n");
	errno = 0;
	check_err(semget(IPC_PRIVATE, 11, 0600), EINVAL, "semget of 11: EINVAL (SEMMSL)");
	s1 = semget(IPC_PRIVATE, 10, 0600);
	s2 = semget(IPC_PRIVATE, 10, 0600);
	check(s1 >= 0 && s2 >= 0, "two sets of 10");
	errno = 0;
	check_err(semget(IPC_PRIVATE, 1, 0600), ENOSPC, "one more semaphore: ENOSPC (SEMMNS)");
	memset(ops, 0, sizeof(ops));
	errno = 0;
	check_err(semop(s1, ops, 6), E2BIG, "semop of 6: E2BIG (SEMOPM)");
	check(semctl(0, 0, IPC_INFO, &smi) >= 0 && smi.semmsl == 10 && smi.semmns == 20 &&
		      smi.semopm == 5 && smi.semmni == 3,
	      "IPC_INFO: the four");
	check(put("kernel/sem", "7") == 1, "sem 7 (one number)");
	check_is("kernel/sem", "7\t20\t5\t3\n");
	semctl(s1, 0, IPC_RMID);
	semctl(s2, 0, IPC_RMID);

	/* POSIX message queues */
	check(put("fs/mqueue/msg_default", "3") == 1 && put("fs/mqueue/queues_max", "1") == 1,
	      "msg_default 3, queues_max 1");
	mq1 = mq_open("/skas-sysctl-ipc", O_CREAT | O_RDWR, 0600, NULL);
	check(mq1 != (mqd_t)-1 && mq_getattr(mq1, &attr) == 0 && attr.mq_maxmsg == 3,
	      "a queue's default mq_maxmsg: msg_default");
	errno = 0;
	mq2 = mq_open("/skas-sysctl-ipc2", O_CREAT | O_RDWR, 0600, NULL);
	check(mq2 == (mqd_t)-1 && errno == ENOSPC, "a second queue: ENOSPC (queues_max)");
	check(put("fs/mqueue/queues_max", "5") == 1 && put("fs/mqueue/msg_max", "5") == 1,
	      "queues_max 5, msg_max 5");
	attr.mq_maxmsg = 6;
	attr.mq_msgsize = 64;
	errno = 0;
	mq2 = mq_open("/skas-sysctl-ipc2", O_CREAT | O_RDWR, 0600, &attr);
	check(mq2 == (mqd_t)-1 && errno == EINVAL, "mq_maxmsg 6: EINVAL (msg_max)");
	attr.mq_maxmsg = 5;
	mq2 = mq_open("/skas-sysctl-ipc2", O_CREAT | O_RDWR, 0600, &attr);
	check(mq2 != (mqd_t)-1, "mq_maxmsg 5: made");
	mq_close(mq1);
	mq_close(mq2);
	mq_unlink("/skas-sysctl-ipc");
	mq_unlink("/skas-sysctl-ipc2");
	check(put("fs/mqueue/msg_default", "8") == 1 && put("fs/mqueue/queues_max", "-1") == 2,
	      "msg_default 8 (past msg_max 5), queues_max -1");
	mq1 = mq_open("/skas-sysctl-ipc", O_CREAT | O_RDWR, 0600, NULL);
	check(mq1 != (mqd_t)-1 && mq_getattr(mq1, &attr) == 0 && attr.mq_maxmsg == 5,
	      "a default queue: mq_maxmsg the smaller, msg_max");
	mq2 = mq_open("/skas-sysctl-ipc2", O_CREAT | O_RDWR, 0600, NULL);
	check(mq2 != (mqd_t)-1, "a second queue: queues_max -1 is no limit (unsigned)");
	mq_close(mq1);
	mq_close(mq2);
	mq_unlink("/skas-sysctl-ipc");
	mq_unlink("/skas-sysctl-ipc2");

	check(unshare(CLONE_NEWIPC) == 0, "another IPC namespace");
	check_is("kernel/shmmax", "18446744073692774399\n");
	check_is("kernel/sem", "32000\t1024000000\t500\t32000\n");
	check_is("fs/mqueue/queues_max", "256\n");
	return 0;
}
