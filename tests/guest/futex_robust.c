/* Robust futexes: a lock holder's death marks its robust mutexes
 * OWNER_DIED, and the next locker gets EOWNERDEAD, for a process-shared
 * mutex in MAP_SHARED anonymous memory and in a shared file mapping (the
 * holder a child that exits, or one killed by SIGKILL), and for a
 * private mutex held by a thread that exits. A child that exits holding
 * a mutex in its own private copy leaves the parent's copy alone. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
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
	printf("1..%d\n", n);
	return 0;
}
