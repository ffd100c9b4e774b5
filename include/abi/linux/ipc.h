/*
 * System V IPC and POSIX message queues as the x86-64 kernel ABI defines
 * them: the ipc64 structures (x86-64 always uses them; there is no IPC_64
 * bit to parse), commands, flags and the default limits of a fresh IPC
 * namespace.
 */
#ifndef ABI_LINUX_IPC_H
#define ABI_LINUX_IPC_H

#include <stddef.h>
#include <stdint.h>

#define LINUX_IPC_PRIVATE 0
#define LINUX_IPC_CREAT	  01000
#define LINUX_IPC_EXCL	  02000
#define LINUX_IPC_NOWAIT  04000

#define LINUX_IPC_RMID 0
#define LINUX_IPC_SET  1
#define LINUX_IPC_STAT 2
#define LINUX_IPC_INFO 3

struct linux_ipc64_perm {
	int32_t key;
	uint32_t uid, gid, cuid, cgid;
	uint32_t mode;
	uint16_t seq;
	uint16_t pad2;
	uint64_t unused1, unused2;
};
_Static_assert(sizeof(struct linux_ipc64_perm) == 48, "linux_ipc64_perm size");
_Static_assert(offsetof(struct linux_ipc64_perm, seq) == 24, "linux_ipc64_perm seq");

/* Shared memory */
#define LINUX_SHM_RDONLY    010000
#define LINUX_SHM_RND	    020000
#define LINUX_SHM_REMAP	    040000
#define LINUX_SHM_EXEC	    0100000
#define LINUX_SHM_HUGETLB   04000
#define LINUX_SHM_NORESERVE 010000
#define LINUX_SHM_LOCK	    11
#define LINUX_SHM_UNLOCK    12
#define LINUX_SHM_STAT	    13
#define LINUX_SHM_INFO	    14
#define LINUX_SHM_STAT_ANY  15
#define LINUX_SHM_DEST	    01000 /* in shm_perm.mode */
#define LINUX_SHM_LOCKED    02000
#define LINUX_SHMLBA	    4096
#define LINUX_SHMMIN	    1UL
#define LINUX_SHMMNI	    4096
#define LINUX_SHMMAX	    (UINT64_MAX - (1UL << 24))
#define LINUX_SHMALL	    (UINT64_MAX - (1UL << 24))

struct linux_shmid64_ds {
	struct linux_ipc64_perm shm_perm;
	uint64_t shm_segsz;
	int64_t shm_atime, shm_dtime, shm_ctime;
	int32_t shm_cpid, shm_lpid;
	uint64_t shm_nattch;
	uint64_t unused4, unused5;
};
_Static_assert(sizeof(struct linux_shmid64_ds) == 112, "linux_shmid64_ds size");
_Static_assert(offsetof(struct linux_shmid64_ds, shm_cpid) == 80, "linux_shmid64_ds shm_cpid");
_Static_assert(offsetof(struct linux_shmid64_ds, shm_nattch) == 88, "linux_shmid64_ds nattch");

struct linux_shminfo64 {
	uint64_t shmmax, shmmin, shmmni, shmseg, shmall;
	uint64_t unused1, unused2, unused3, unused4;
};
_Static_assert(sizeof(struct linux_shminfo64) == 72, "linux_shminfo64 size");

struct linux_shm_info {
	int32_t used_ids;
	uint64_t shm_tot, shm_rss, shm_swp, swap_attempts, swap_successes;
};
_Static_assert(sizeof(struct linux_shm_info) == 48, "linux_shm_info size");

/* Semaphores */
#define LINUX_SEM_UNDO	   0x1000
#define LINUX_GETPID	   11
#define LINUX_GETVAL	   12
#define LINUX_GETALL	   13
#define LINUX_GETNCNT	   14
#define LINUX_GETZCNT	   15
#define LINUX_SETVAL	   16
#define LINUX_SETALL	   17
#define LINUX_SEM_STAT	   18
#define LINUX_SEM_INFO	   19
#define LINUX_SEM_STAT_ANY 20
#define LINUX_SEMMNI	   32000
#define LINUX_SEMMSL	   32000
#define LINUX_SEMMNS	   (LINUX_SEMMNI * LINUX_SEMMSL)
#define LINUX_SEMOPM	   500
#define LINUX_SEMVMX	   32767
#define LINUX_SEMAEM	   LINUX_SEMVMX
#define LINUX_SEMUME	   LINUX_SEMOPM
#define LINUX_SEMMNU	   LINUX_SEMMNS
#define LINUX_SEMMAP	   LINUX_SEMMNS
#define LINUX_SEMUSZ	   20

struct linux_sembuf {
	uint16_t sem_num;
	int16_t sem_op;
	int16_t sem_flg;
};
_Static_assert(sizeof(struct linux_sembuf) == 6, "linux_sembuf size");

struct linux_semid64_ds {
	struct linux_ipc64_perm sem_perm;
	int64_t sem_otime;
	uint64_t unused1;
	int64_t sem_ctime;
	uint64_t unused2;
	uint64_t sem_nsems;
	uint64_t unused3, unused4;
};
_Static_assert(sizeof(struct linux_semid64_ds) == 104, "linux_semid64_ds size");
_Static_assert(offsetof(struct linux_semid64_ds, sem_nsems) == 80, "linux_semid64_ds nsems");

struct linux_seminfo {
	int32_t semmap, semmni, semmns, semmnu, semmsl, semopm, semume, semusz, semvmx, semaem;
};
_Static_assert(sizeof(struct linux_seminfo) == 40, "linux_seminfo size");

/* Message queues */
#define LINUX_MSG_NOERROR  010000
#define LINUX_MSG_EXCEPT   020000
#define LINUX_MSG_COPY	   040000
#define LINUX_MSG_STAT	   11
#define LINUX_MSG_INFO	   12
#define LINUX_MSG_STAT_ANY 13
#define LINUX_MSGMNI	   32000
#define LINUX_MSGMAX	   8192
#define LINUX_MSGMNB	   16384
#define LINUX_MSGSSZ	   16
#define LINUX_MSGPOOL	   (LINUX_MSGMNI * LINUX_MSGMNB / 1024)
#define LINUX_MSGTQL	   LINUX_MSGMNB
#define LINUX_MSGMAP	   LINUX_MSGMNB
#define LINUX_MSGSEG	   0xffff

struct linux_msqid64_ds {
	struct linux_ipc64_perm msg_perm;
	int64_t msg_stime, msg_rtime, msg_ctime;
	uint64_t msg_cbytes, msg_qnum, msg_qbytes;
	int32_t msg_lspid, msg_lrpid;
	uint64_t unused4, unused5;
};
_Static_assert(sizeof(struct linux_msqid64_ds) == 120, "linux_msqid64_ds size");
_Static_assert(offsetof(struct linux_msqid64_ds, msg_lspid) == 96, "linux_msqid64_ds lspid");

struct linux_msginfo {
	int32_t msgpool, msgmap, msgmax, msgmnb, msgmni, msgssz, msgtql;
	uint16_t msgseg;
};
_Static_assert(sizeof(struct linux_msginfo) == 32, "linux_msginfo size");

/* POSIX message queues */
#define LINUX_MQ_PRIO_MAX	32768
#define LINUX_MQ_NAME_MAX	255
#define LINUX_DFLT_QUEUESMAX	256
#define LINUX_DFLT_MSG		10
#define LINUX_DFLT_MSGMAX	10
#define LINUX_HARD_MSGMAX	65536
#define LINUX_DFLT_MSGSIZE	8192
#define LINUX_DFLT_MSGSIZEMAX	8192
#define LINUX_HARD_MSGSIZEMAX	(16 * 1024 * 1024)
#define LINUX_MQ_RLIMIT_DEFAULT 819200
#define LINUX_NOTIFY_COOKIE_LEN 32

struct linux_mq_attr {
	int64_t mq_flags, mq_maxmsg, mq_msgsize, mq_curmsgs;
	int64_t reserved[4];
};
_Static_assert(sizeof(struct linux_mq_attr) == 64, "linux_mq_attr size");

#ifndef LINUX_SIGEV_SIGNAL
#define LINUX_SIGEV_SIGNAL    0
#define LINUX_SIGEV_NONE      1
#define LINUX_SIGEV_THREAD    2
#define LINUX_SIGEV_THREAD_ID 4
#endif

struct linux_mq_sigevent {
	uint64_t sigev_value;
	int32_t sigev_signo;
	int32_t sigev_notify;
	union {
		int32_t pad[12];
		int32_t tid;
	} un;
};
_Static_assert(sizeof(struct linux_mq_sigevent) == 64, "linux_mq_sigevent size");

#endif
