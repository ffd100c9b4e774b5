/* A reader woken by a writer that goes on running in user mode, making no
 * system call, still runs soon: the writer spins until the reader says (in
 * shared memory) that it got the data, and gives up after two seconds.
 * Pipes and UNIX sockets, both directions of wakeup (data for a reader,
 * room for a blocked writer). skas holds such a wakeup back while the
 * waker runs (kernel/sched.c, sched_wake_sync), at most a millisecond. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Spins (no system call but the vDSO's clock) until *flag is set or two
 * seconds pass; true if it was set. */
static int spin_for(volatile int *flag)
{
	int64_t end = now_ms() + 2000;

	while (!*flag)
		if (now_ms() > end)
			return 0;
	return 1;
}

/* fds[0] is read by a child, which sets *flag; the parent writes a byte
 * to fds[1] and spins. */
static void data_wakes_reader(int fds[2], const char *what)
{
	volatile int *flag =
		mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char c = 'x', buf[8];
	pid_t pid;
	int st;

	*flag = 0;
	pid = fork();
	if (pid == 0) {
		if (read(fds[0], buf, 1) == 1)
			*flag = 1;
		_exit(0);
	}
	usleep(50000); /* the child is blocked in read by now */
	check(write(fds[1], &c, 1) == 1 && spin_for(flag), what);
	waitpid(pid, &st, 0);
	munmap((void *)flag, 4096);
}

/* The child fills fds[1] and blocks writing one byte more; the parent reads
 * a buffer's worth and spins until the child's write went through. */
static void room_wakes_writer(int fds[2], const char *what)
{
	volatile int *flag =
		mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	static char buf[1 << 20];
	pid_t pid;
	int st, fl;
	ssize_t r;

	*flag = 0;
	pid = fork();
	if (pid == 0) {
		fl = fcntl(fds[1], F_GETFL);
		fcntl(fds[1], F_SETFL, fl | O_NONBLOCK);
		while (write(fds[1], buf, 4096) > 0)
			;
		fcntl(fds[1], F_SETFL, fl);
		if (write(fds[1], buf, 1) == 1)
			*flag = 1;
		_exit(0);
	}
	usleep(100000); /* the child is blocked in its last write by now */
	r = read(fds[0], buf, sizeof(buf));
	check(r > 0 && spin_for(flag), what);
	waitpid(pid, &st, 0);
	fl = fcntl(fds[0], F_GETFL);
	fcntl(fds[0], F_SETFL, fl | O_NONBLOCK);
	while (read(fds[0], buf, sizeof(buf)) > 0)
		;
	fcntl(fds[0], F_SETFL, fl);
	munmap((void *)flag, 4096);
}

int main(void)
{
	int p[2], s[2];

	if (pipe(p) < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, s) < 0)
		return 1;
	data_wakes_reader(p, "pipe: a reader runs while its writer spins");
	data_wakes_reader(s, "UNIX stream: a reader runs while its writer spins");
	room_wakes_writer(p, "pipe: a blocked writer runs while its reader spins");
	room_wakes_writer(s, "UNIX stream: a blocked writer runs while its reader spins");
	close(p[0]);
	close(p[1]);
	close(s[0]);
	close(s[1]);
	return 0;
}
