/* System V shared memory: shmget's key, size and flag rules, shmat's
 * address choice (SHM_RND, SHM_REMAP, SHM_RDONLY), shmdt, shmctl
 * (IPC_STAT/SET/RMID, IPC_INFO, SHM_INFO, SHM_STAT, SHM_LOCK), shm_nattch
 * across fork, exec and exit, pages shared with other processes, removal
 * while attached, and permissions for a non-root user. Every segment made
 * here is removed before the end. Children report through their status.
 * Ends with a process-shared semaphore in a segment (futexes across
 * processes). */
#define _GNU_SOURCE
#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <time.h>

#define TAP_ENAME
#include "tap.h"

#define FUTEX_WAIT_OP 0 /* FUTEX_WAIT: musl has no linux/futex.h */

#ifndef SHM_STAT_ANY
#define SHM_STAT_ANY 15
#endif

static int child_exit(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static long nattch(int id)
{
	struct shmid_ds ds;

	if (shmctl(id, IPC_STAT, &ds) < 0)
		return -1;
	return (long)ds.shm_nattch;
}

static key_t unique_key(int i)
{
	return (key_t)(0x5c000000 | ((getpid() & 0xffff) << 4) | i);
}

static void test_get(void)
{
	key_t key = unique_key(1);
	int id, id2;
	struct shmid_ds ds;

	check_err(shmget(IPC_PRIVATE, 0, 0600), EINVAL, "shmget size 0");
	check_err(shmget(IPC_PRIVATE, (size_t)-1, 0600), EINVAL, "shmget size past SHMMAX");
	check_err(shmget(key, 4096, 0600), ENOENT, "shmget of a missing key without IPC_CREAT");
	id = shmget(key, 5000, IPC_CREAT | IPC_EXCL | 0640);
	check(id >= 0, "shmget IPC_CREAT|IPC_EXCL");
	check_err(shmget(key, 4096, IPC_CREAT | IPC_EXCL | 0600), EEXIST,
		  "IPC_CREAT|IPC_EXCL of an existing key");
	check(shmget(key, 0, 0) == id, "shmget of the key finds it (size 0)");
	check(shmget(key, 5000, IPC_CREAT | 0600) == id, "IPC_CREAT of an existing key finds it");
	check_err(shmget(key, 5001, 0), EINVAL, "a size larger than the segment's");
	id2 = shmget(IPC_PRIVATE, 4096, 0600);
	check(id2 >= 0 && id2 != id, "IPC_PRIVATE makes a new segment");
	check(shmctl(id, IPC_STAT, &ds) == 0, "IPC_STAT");
	check(ds.shm_segsz == 5000 && ds.shm_nattch == 0, "shm_segsz 5000, shm_nattch 0");
	check(ds.shm_perm.__key == key && (ds.shm_perm.mode & 0777) == 0640,
	      "the key and mode 0640");
	check(ds.shm_perm.uid == getuid() && ds.shm_perm.cuid == getuid() &&
		      ds.shm_perm.gid == getgid() && ds.shm_perm.cgid == getgid(),
	      "owner and creator are the caller");
	check(ds.shm_cpid == getpid() && ds.shm_lpid == 0, "shm_cpid is us, shm_lpid 0");
	check(ds.shm_atime == 0 && ds.shm_dtime == 0 && ds.shm_ctime > 0,
	      "no attach or detach time yet, a change time");
	check(shmctl(id, IPC_RMID, NULL) == 0 && shmctl(id2, IPC_RMID, NULL) == 0,
	      "IPC_RMID of both");
	check_err(shmctl(id, IPC_STAT, &ds), EINVAL, "IPC_STAT after IPC_RMID");
	check_err(shmget(key, 0, 0), ENOENT, "the key is gone");
	check_err(shmctl(-1, IPC_STAT, &ds), EINVAL, "IPC_STAT of id -1");
}

static void test_attach(void)
{
	int id = shmget(IPC_PRIVATE, 3 * 4096, 0600), st;
	char *p, *q, *r;
	struct shmid_ds ds;
	pid_t pid;

	p = shmat(id, NULL, 0);
	check(p != (void *)-1 && ((uintptr_t)p & 4095) == 0, "shmat at an address of our choosing");
	check(p[0] == 0 && p[3 * 4096 - 1] == 0, "a new segment reads zero");
	strcpy(p, "hello");
	q = shmat(id, NULL, SHM_RDONLY);
	check(q != (void *)-1 && q != p && strcmp(q, "hello") == 0,
	      "a second, read-only attachment sees the same bytes");
	check(nattch(id) == 2, "shm_nattch 2");
	check(shmctl(id, IPC_STAT, &ds) == 0 && ds.shm_lpid == getpid() && ds.shm_atime > 0,
	      "shm_lpid and shm_atime after shmat");
	check_err(mprotect(q, 4096, PROT_READ | PROT_WRITE), EACCES,
		  "mprotect PROT_WRITE of a read-only attachment");
	pid = fork();
	if (pid == 0) {
		q[0] = 'X';
		_exit(0);
	}
	st = child_exit(pid);
	check(st == 128 + SIGSEGV, "a write through SHM_RDONLY is SIGSEGV");
	check(shmdt(q) == 0 && nattch(id) == 1, "shmdt: shm_nattch 1");
	check_err(shmdt(q), EINVAL, "shmdt of a detached address");
	check_err(shmdt(p + 1), EINVAL, "shmdt of an unaligned address");
	check_err(shmdt(p + 4096), EINVAL, "shmdt inside the attachment");

	/* Address rules */
	check_err((long)shmat(id, p + 1, 0), EINVAL, "shmat at an unaligned address");
	check_err((long)shmat(id, NULL, SHM_REMAP), EINVAL, "SHM_REMAP without an address");
	check_err((long)shmat(id, p, 0), EINVAL, "shmat over a mapping without SHM_REMAP");
	r = mmap(NULL, 8 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(r, 8 * 4096);
	q = shmat(id, r + 100, SHM_RND);
	check(q == r, "SHM_RND rounds the address down");
	check(strcmp(q, "hello") == 0, "and maps the segment there");
	r = shmat(id, q, SHM_REMAP);
	check(r == q && nattch(id) == 2, "SHM_REMAP over our own attachment: shm_nattch 2");
	check_err((long)shmat(id + 1, NULL, 0), EINVAL, "shmat of a bad id");
	check_err((long)shmat(-5, NULL, 0), EINVAL, "shmat of a negative id");
	check(shmdt(r) == 0, "shmdt");

	/* Partial munmap and mprotect split the VMA: each piece counts. */
	q = shmat(id, NULL, 0);
	check(mprotect(q + 4096, 4096, PROT_READ) == 0 && nattch(id) == 4,
	      "mprotect splits the attachment: shm_nattch counts 3 pieces");
	check(mprotect(q + 4096, 4096, PROT_READ | PROT_WRITE) == 0 && nattch(id) == 4,
	      "mprotect back does not merge them");
	check(munmap(q + 4096, 4096) == 0 && nattch(id) == 3, "munmap of the middle piece");
	check(shmdt(q) == 0 && nattch(id) == 1, "shmdt drops the pieces left");
	check(shmdt(p) == 0 && nattch(id) == 0, "shmdt of the first: shm_nattch 0");
	check(shmctl(id, IPC_STAT, &ds) == 0 && ds.shm_dtime > 0, "shm_dtime after shmdt");
	shmctl(id, IPC_RMID, NULL);
}

static void test_fork_exec(const char *self)
{
	int id = shmget(IPC_PRIVATE, 4096, 0600);
	volatile int *p = shmat(id, NULL, 0);
	char arg[32];
	pid_t pid;
	int st;

	p[0] = 1;
	pid = fork();
	if (pid == 0) {
		struct shmid_ds d;

		if (nattch(id) != 2)
			_exit(1);
		if (shmctl(id, IPC_STAT, &d) < 0 || d.shm_lpid != getppid())
			_exit(2); /* fork's copy counts as the parent's attach */
		p[0] = 42;	  /* the parent sees it: the pages are shared */
		_exit(0);
	}
	st = child_exit(pid);
	check(st == 0,
	      "a forked child inherits the attachment (shm_nattch 2, shm_lpid the parent)");
	check(p[0] == 42, "the child's write is seen by the parent");
	check(nattch(id) == 1, "the child's exit detaches it");
	{
		struct shmid_ds d;

		check(shmctl(id, IPC_STAT, &d) == 0 && d.shm_lpid == pid,
		      "shm_lpid is the child that exited");
	}

	snprintf(arg, sizeof(arg), "%d", id);
	pid = fork();
	if (pid == 0) {
		execl(self, self, "nattch", arg, (char *)NULL);
		_exit(99);
	}
	st = child_exit(pid);
	check(st == 1, "exec drops the attachment (the new image sees shm_nattch 1)");

	/* An attachment made by another process by id. */
	pid = fork();
	if (pid == 0) {
		volatile int *c;

		shmdt((void *)p);
		c = shmat(id, NULL, 0);
		if (c == (void *)-1)
			_exit(2);
		c[1] = 7;
		_exit(nattch(id) == 2 ? 0 : 1);
	}
	st = child_exit(pid);
	check(st == 0 && p[1] == 7, "a separate shmat in another process shares the pages");
	shmdt((void *)p);
	shmctl(id, IPC_RMID, NULL);
}

static void test_rmid_attached(void)
{
	key_t key = unique_key(2);
	int id = shmget(key, 4096, IPC_CREAT | IPC_EXCL | 0600);
	struct shmid_ds ds;
	int *p = shmat(id, NULL, 0), *q;

	p[0] = 5;
	check(shmctl(id, IPC_RMID, NULL) == 0, "IPC_RMID while attached");
	check(shmctl(id, IPC_STAT, &ds) == 0, "the segment still exists");
	check(ds.shm_perm.__key == IPC_PRIVATE, "its key became IPC_PRIVATE");
	check((ds.shm_perm.mode & SHM_DEST) != 0, "SHM_DEST is set");
	check_err(shmget(key, 0, 0), ENOENT, "the key finds nothing");
	q = shmat(id, NULL, 0);
	check(q != (void *)-1 && q[0] == 5, "Linux still lets us attach it by id");
	check(shmdt(q) == 0 && shmctl(id, IPC_STAT, &ds) == 0, "one detach: still there");
	check(p[0] == 5, "the pages are intact until the last detach");
	/* SHM_REMAP of the same segment over its last attachment: the new
	 * attachment is made before the old one goes, so it stays. */
	q = shmat(id, p, SHM_REMAP);
	check(q == p && q[0] == 5, "SHM_REMAP over its last attachment: the same pages");
	check(shmctl(id, IPC_STAT, &ds) == 0 && ds.shm_nattch == 1,
	      "the segment lives on, shm_nattch 1");
	check(shmdt(p) == 0, "detach");
	check_err(shmctl(id, IPC_STAT, &ds), EINVAL, "after the last detach it is gone");
}

static void test_ctl(void)
{
	int id = shmget(IPC_PRIVATE, 8192, 0600), r, st;
	struct shmid_ds ds;
	struct shminfo si;
	struct shm_info sinfo;
	pid_t pid;

	r = shmctl(0, IPC_INFO, (struct shmid_ds *)&si);
	check(r >= 0, "IPC_INFO returns the highest index");
	check(si.shmmin == 1 && si.shmmni == 4096, "shmmin 1, shmmni 4096");
	r = shmctl(0, SHM_INFO, (struct shmid_ds *)&sinfo);
	check(r >= 0 && sinfo.used_ids >= 1, "SHM_INFO: used_ids >= 1");
	r = shmctl(id & 0x7fff, SHM_STAT, &ds);
	check(r == id && ds.shm_segsz == 8192, "SHM_STAT by index gives the id");
	r = shmctl(id & 0x7fff, SHM_STAT_ANY, &ds);
	check(r == id, "SHM_STAT_ANY by index gives the id");
	r = shmctl((id & 0x7fff) + 5 * 32768, SHM_STAT, &ds);
	check(r == id, "SHM_STAT takes the index modulo 32768");
	check_err(shmctl(id, 1234, &ds), EINVAL, "an unknown command");
	check_err(shmctl(id, -1, &ds), EINVAL, "a negative command");
	check_err(shmctl(id, IPC_STAT, (struct shmid_ds *)8), EFAULT, "IPC_STAT to a bad pointer");
	check_err(shmctl(id, IPC_SET, (struct shmid_ds *)8), EFAULT, "IPC_SET from a bad pointer");

	shmctl(id, IPC_STAT, &ds);
	ds.shm_perm.mode = 0604 | SHM_DEST;
	ds.shm_perm.uid = 1000;
	check(shmctl(id, IPC_SET, &ds) == 0, "IPC_SET mode 0604, uid 1000");
	check(shmctl(id, IPC_STAT, &ds) == 0 && (ds.shm_perm.mode & 07777) == 0604 &&
		      ds.shm_perm.uid == 1000 && ds.shm_perm.cuid == 0,
	      "only the permission bits and the owner changed");

	check(shmctl(id, SHM_LOCK, NULL) == 0, "SHM_LOCK as root");
	check(shmctl(id, IPC_STAT, &ds) == 0 && (ds.shm_perm.mode & SHM_LOCKED),
	      "SHM_LOCKED is set");
	check(shmctl(id, SHM_UNLOCK, NULL) == 0 && shmctl(id, IPC_STAT, &ds) == 0 &&
		      !(ds.shm_perm.mode & SHM_LOCKED),
	      "SHM_UNLOCK clears it");

	/* Another user: uid 1001 is neither owner nor creator. */
	pid = fork();
	if (pid == 0) {
		struct shmid_ds d;
		void *p;

		if (setgid(1001) < 0 || setuid(1001) < 0)
			_exit(10);
		p = shmat(id, NULL, SHM_RDONLY);
		if (p == (void *)-1)
			_exit(1); /* others have r-- */
		if (shmat(id, NULL, 0) != (void *)-1 || errno != EACCES)
			_exit(2);
		if (shmctl(id, IPC_STAT, &d) != 0)
			_exit(3);
		if (shmctl(id, IPC_RMID, NULL) == 0 || errno != EPERM)
			_exit(4);
		if (shmctl(id, IPC_SET, &d) == 0 || errno != EPERM)
			_exit(5);
		if (shmctl(id, SHM_LOCK, NULL) == 0 || errno != EPERM)
			_exit(6);
		_exit(0);
	}
	st = child_exit(pid);
	check(st == 0, "uid 1001: r-- attaches read-only only, no RMID/SET/LOCK (EACCES, EPERM)");
	pid = fork();
	if (pid == 0) {
		if (setuid(1000) < 0)
			_exit(10);
		/* The owner (uid 1000) may remove it though it did not create it. */
		_exit(shmctl(id, IPC_RMID, NULL) == 0 ? 0 : 1);
	}
	st = child_exit(pid);
	check(st == 0, "the owner removes it");
	check_err(shmctl(id, IPC_STAT, &ds), EINVAL, "gone");

	/* Mode 0000: root passes by CAP_IPC_OWNER, its owner uid 1001 does not. */
	id = shmget(IPC_PRIVATE, 4096, 0);
	shmctl(id, IPC_STAT, &ds);
	ds.shm_perm.uid = 1001;
	shmctl(id, IPC_SET, &ds);
	{
		void *p = shmat(id, NULL, 0);

		check(p != (void *)-1 && shmdt(p) == 0, "root attaches a mode 0000 segment");
	}
	pid = fork();
	if (pid == 0) {
		if (setgid(1001) < 0 || setuid(1001) < 0)
			_exit(10);
		if (shmat(id, NULL, SHM_RDONLY) != (void *)-1 || errno != EACCES)
			_exit(1);
		_exit(shmctl(id, IPC_RMID, NULL) == 0 ? 0 : 2); /* but may remove it */
	}
	check(child_exit(pid) == 0, "its owner cannot attach it (EACCES) but removes it");
}

/* A process-shared semaphore in a segment: its futex wakes across processes. */
static void test_futex(void)
{
	int id = shmget(IPC_PRIVATE, 4096, 0600);
	sem_t *s = shmat(id, NULL, 0);
	struct timespec ts = { 0, 100 * 1000000L };
	pid_t pid;

	shmctl(id, IPC_RMID, NULL);
	check(sem_init(s, 1, 0) == 0, "sem_init of a process-shared semaphore in the segment");
	pid = fork();
	if (pid == 0)
		_exit(sem_wait(s) == 0 ? 0 : 1);
	nanosleep(&ts, NULL);
	check(sem_post(s) == 0, "sem_post");
	check(child_exit(pid) == 0, "wakes the child in sem_wait");
	{
		struct timespec far = { 1000000000000LL, 0 };
		int *word = (int *)s + 200;

		check(syscall(SYS_futex, word, FUTEX_WAIT_OP, 1, &far, NULL, 0) == -1 &&
			      errno == EAGAIN,
		      "FUTEX_WAIT on a changed word with a 1e12 s timeout: EAGAIN");
	}
	shmdt(s);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "nattch") == 0)
		return (int)nattch(atoi(argv[2]));
	setvbuf(stdout, NULL, _IONBF, 0);
	test_get();
	test_attach();
	test_fork_exec(argv[0]);
	test_rmid_attached();
	test_ctl();
	test_futex();
	return 0;
}
