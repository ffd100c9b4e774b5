/* Robust futexes: a lock holder's death marks its robust mutexes
 * OWNER_DIED, and the next locker gets EOWNERDEAD, for a process-shared
 * mutex in MAP_SHARED anonymous memory and in a shared file mapping (the
 * holder a child that exits, or one killed by SIGKILL), and for a
 * private mutex held by a thread that exits. A child that exits holding
 * a mutex in its own private copy leaves the parent's copy alone. A list
 * that loops without coming back to its head (a self-loop, a loop of two
 * after an entry) has each of its entries' words marked all the same
 * (skas walks such a loop once, not to Linux's limit of 2048 steps). An
 * entry whose next pointer cannot be read still has its word marked
 * (Linux's exit_robust_list handles it before it looks at the fault). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tap.h"

static void robust_init(pthread_mutex_t *m, int pshared)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutexattr_setpshared(&a, pshared);
	pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
}

/* A child takes m and dies holding it (exit, or SIGKILL from the parent
 * once it holds it); the parent's lock then reports the death once. */
static void child_dies_holding(pthread_mutex_t *m, int killed, const char *what)
{
	char msg[160];
	int p[2], st, r;
	pid_t pid;

	if (pipe(p) < 0)
		exit(1);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (pthread_mutex_lock(m) != 0)
			_exit(2);
		if (write(p[1], "x", 1) != 1)
			_exit(3);
		if (killed)
			pause();
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], msg, 1) != 1)
		exit(1);
	close(p[0]);
	if (killed)
		kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	r = pthread_mutex_lock(m);
	snprintf(msg, sizeof(msg), "%s: the next lock gets EOWNERDEAD", what);
	check(r == EOWNERDEAD, msg);
	if (r == EOWNERDEAD)
		pthread_mutex_consistent(m);
	pthread_mutex_unlock(m);
	r = pthread_mutex_lock(m);
	snprintf(msg, sizeof(msg), "%s: made consistent, it locks again", what);
	check(r == 0, msg);
	pthread_mutex_unlock(m);
}

/* A child sets its robust list to one in sh (shared with us): the head at
 * sh[0..2], entries at sh[8], sh[10], sh[12], each word 8 bytes past its
 * entry; links[i] is where entry i leads (0, 1, 2 or -1 for the head).
 * Each word holds the child's tid when it exits: its death should leave
 * each OWNER_DIED (0x40000000), the tid gone. */
static void looped_list(uint64_t *sh, const int *links, int nent, const char *what)
{
	uint64_t headp = (uint64_t)(uintptr_t)sh;
	int i, st, ok = 1;
	pid_t pid;

	memset(sh, 0, 4096);
	pid = fork();
	if (pid == 0) {
		uint32_t tid = (uint32_t)syscall(SYS_gettid);

		sh[0] = (uint64_t)(uintptr_t)&sh[8];
		sh[1] = 8; /* futex_offset */
		for (i = 0; i < nent; i++) {
			sh[8 + 2 * i] =
				links[i] < 0 ? headp : (uint64_t)(uintptr_t)&sh[8 + 2 * links[i]];
			*(uint32_t *)&sh[9 + 2 * i] = tid;
		}
		if (syscall(SYS_set_robust_list, sh, 24) != 0)
			_exit(2);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	for (i = 0; i < nent; i++)
		ok &= *(uint32_t *)&sh[9 + 2 * i] == 0x40000000u;
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0 && ok, what);
}

/* The list's one entry is on an unmapped page, its word (at the entry
 * plus futex_offset) in sh: Linux marks the word, then stops. */
static void faulting_entry(uint64_t *sh)
{
	int st;
	pid_t pid;

	memset(sh, 0, 4096);
	pid = fork();
	if (pid == 0) {
		uint32_t tid = (uint32_t)syscall(SYS_gettid);
		char *gone = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (gone == MAP_FAILED || munmap(gone, 4096) < 0)
			_exit(3);
		sh[0] = (uint64_t)(uintptr_t)gone;
		sh[1] = (uint64_t)((char *)&sh[4] - gone); /* futex_offset */
		*(uint32_t *)&sh[4] = tid;
		if (syscall(SYS_set_robust_list, sh, 24) != 0)
			_exit(2);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0 && *(uint32_t *)&sh[4] == 0x40000000u,
	      "an entry whose next cannot be read: its word OWNER_DIED all the same");
}

static void *thread_holds(void *arg)
{
	pthread_mutex_lock(arg);
	return NULL; /* exits holding it */
}

int main(void)
{
	char path[] = "/tmp/futex_robust.XXXXXX";
	pthread_mutex_t *m, priv;
	pthread_t th;
	int fd, st, r;
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 1;
	robust_init(m, PTHREAD_PROCESS_SHARED);
	child_dies_holding(m, 0, "shared anonymous, the holder exits");
	child_dies_holding(m, 1, "shared anonymous, the holder is killed");
	munmap(m, 4096);

	fd = mkstemp(path);
	if (fd < 0 || ftruncate(fd, 4096) < 0)
		return 1;
	unlink(path);
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return 1;
	robust_init(m, PTHREAD_PROCESS_SHARED);
	child_dies_holding(m, 0, "shared file mapping, the holder exits");
	munmap(m, 4096);

	robust_init(&priv, PTHREAD_PROCESS_PRIVATE);
	pthread_create(&th, NULL, thread_holds, &priv);
	pthread_join(th, NULL);
	r = pthread_mutex_lock(&priv);
	check(r == EOWNERDEAD, "a thread exits holding a private mutex: EOWNERDEAD");
	if (r == EOWNERDEAD)
		pthread_mutex_consistent(&priv);
	pthread_mutex_unlock(&priv);

	/* The child's copy is its own: its death leaves ours unlocked. */
	robust_init(&priv, PTHREAD_PROCESS_PRIVATE);
	pid = fork();
	if (pid == 0) {
		pthread_mutex_lock(&priv);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	r = pthread_mutex_lock(&priv);
	check(r == 0, "a child dies holding its copy of a private mutex: ours locks cleanly");
	pthread_mutex_unlock(&priv);

	{
		uint64_t *sh =
			mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		static const int self[] = { 0 }, two[] = { 1, 2, 1 }, ends[] = { 1, -1 };

		if (sh == MAP_FAILED)
			return 1;
		looped_list(sh, ends, 2, "a list of two back to its head: both words OWNER_DIED");
		looped_list(sh, self, 1, "an entry leading to itself: its word OWNER_DIED");
		looped_list(sh, two, 3, "an entry, then a loop of two: all three OWNER_DIED");
		faulting_entry(sh);
		munmap(sh, 4096);
	}
	printf("1..%d\n", n);
	return 0;
}
