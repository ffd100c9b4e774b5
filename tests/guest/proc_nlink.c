/* procfs directories' link counts, as Linux gives them: /proc/PID/task
 * has 2 and one per thread (Chromium's zygote checks it is 3 before it
 * forks: a single thread), a zombie leader's thread still counted; a
 * /proc/PID or /proc/PID/task/TID directory has 2 and one per directory
 * it lists; /proc has 2, one per process and one per other directory it
 * lists, and so at least 2 more than the pid directories it lists; the
 * directories of /proc/sys have 1. Which directories there are differs
 * from the host's, so counts are compared with a listing, not printed,
 * but for the thread counts. */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

static long nlink(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long)st.st_nlink : -1;
}

/* How many directories path lists (not . and ..), and of them how many
 * have a number for a name. */
static long subdirs(const char *path, long *numeric)
{
	DIR *d = opendir(path);
	struct dirent *e;
	long n = 0;

	*numeric = 0;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n++;
		*numeric += e->d_name[0] >= '1' && e->d_name[0] <= '9';
	}
	closedir(d);
	return n;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int go;

static void *waiter(void *arg)
{
	pthread_mutex_lock(&lock);
	while (!go)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	return arg;
}

static void *wait_forever(void *arg)
{
	for (;;)
		pause();
	return arg;
}

int main(void)
{
	char path[64], buf[128];
	pthread_t th[2];
	long dirs, nums, before;
	int fds[2], i;
	pid_t pid;

	printf("task, one thread: %ld\n", nlink("/proc/self/task"));
	for (i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, waiter, NULL);
	printf("task, three threads: %ld\n", nlink("/proc/self/task"));
	snprintf(path, sizeof(path), "/proc/%d/task", getpid());
	printf("/proc/PID/task, three threads: %ld\n", nlink(path));
	pthread_mutex_lock(&lock);
	go = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	printf("task, joined: %ld\n", nlink("/proc/self/task"));

	/* A leader gone with a thread left: a zombie still counted. */
	if (pipe(fds) < 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		pthread_t t;

		pthread_create(&t, NULL, wait_forever, NULL);
		write(fds[1], "x", 1);
		syscall(SYS_exit, 0);
	}
	read(fds[0], buf, 1);
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	for (i = 0; i < 1000; i++) {
		snprintf(buf, sizeof(buf), "/proc/%d/stat", pid);
		FILE *f = fopen(buf, "r");
		char state = 0;

		if (f) {
			if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
				state = 0;
			fclose(f);
		}
		if (state == 'Z')
			break;
		usleep(1000);
	}
	printf("task of a zombie leader with a thread: %ld\n", nlink(path));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);

	dirs = subdirs("/proc/self", &nums);
	check(dirs > 0 && nlink("/proc/self") == 2 + dirs, "/proc/self: 2 + its directories");
	snprintf(path, sizeof(path), "/proc/self/task/%d", getpid());
	dirs = subdirs(path, &nums);
	check(dirs > 0 && nlink(path) == 2 + dirs, "/proc/self/task/TID: 2 + its directories");
	check(nlink("/proc/self/fd") == 2, "/proc/self/fd: 2");
	check(nlink("/proc/self/ns") == 2, "/proc/self/ns: 2");
	/* Processes come and go on the host: at least one process more than
	 * the other directories it lists. */
	before = nlink("/proc");
	dirs = subdirs("/proc", &nums);
	check(before >= 1 + dirs - nums && nums > 0, "/proc: its other directories + pids");
	check(nlink("/proc/sys") == 1, "/proc/sys: 1");
	check(nlink("/proc/sys/kernel") == 1, "/proc/sys/kernel: 1");
	check(nlink("/proc/sys/fs/inotify") == 1, "/proc/sys/fs/inotify: 1");
	check(nlink("/proc/sys/kernel/hostname") == 1, "/proc/sys/kernel/hostname: 1");
	check(nlink("/proc/self/status") == 1, "/proc/self/status: 1");
	return 0;
}
