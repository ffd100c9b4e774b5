/* kcmp and pidfd_getfd: which resources two tasks share (a thread shares
 * everything, a fork child nothing but the files it inherited, dup shares
 * a description), the order of two different ones is the same both ways
 * round, io contexts (ioprio_set makes one, a fork copies a set one) and
 * SysV undo lists (a SEM_UNDO semop makes one), an epoll's targets; the
 * errors in Linux's order (ESRCH, EPERM, then the type's). pidfd_getfd
 * takes a copy of another process's fd, close-on-exec, and fails with
 * EINVAL, EBADF, EPERM or ESRCH as Linux does. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ERR_NAMED
#include "tap.h"

#ifndef SYS_kcmp
#define SYS_kcmp 312
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

enum {
	KCMP_FILE,
	KCMP_VM,
	KCMP_FILES,
	KCMP_FS,
	KCMP_SIGHAND,
	KCMP_IO,
	KCMP_SYSVSEM,
	KCMP_EPOLL_TFD
};

struct kcmp_epoll_slot {
	unsigned efd, tfd, toff; /* 12 bytes, as linux/kcmp.h */
};

static long kcmp(pid_t a, pid_t b, int type, unsigned long i1, unsigned long i2)
{
	return syscall(SYS_kcmp, a, b, type, i1, i2);
}

/* Different, and ordered the same both ways round. */
static int differ(pid_t a, pid_t b, int type, unsigned long i1, unsigned long i2)
{
	long x = kcmp(a, b, type, i1, i2), y = kcmp(b, a, type, i2, i1);

	return (x == 1 && y == 2) || (x == 2 && y == 1);
}

static pid_t thread_tid;
static int thread_go[2], thread_done[2];

static void *thread_fn(void *arg)
{
	char c;

	(void)arg;
	thread_tid = (pid_t)syscall(SYS_gettid);
	if (write(thread_done[1], "t", 1) != 1 || read(thread_go[0], &c, 1) != 1)
		return NULL;
	return NULL;
}

/* A child that waits for a byte on go, then exits. */
static pid_t child_waiting(int go[2])
{
	pid_t pid;
	char c;

	if (pipe(go) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(go[0]);
	return pid;
}

static void child_release(pid_t pid, int go[2])
{
	int st;

	close(go[1]);
	waitpid(pid, &st, 0);
}

int main(void)
{
	pid_t me = getpid(), pid;
	pthread_t th;
	int go[2], fd, fd2, dupfd, epfd, p[2], st;
	struct kcmp_epoll_slot slot;
	char c;

	/* No undo lists yet (a fork child never inherits one). */
	pid = child_waiting(go);
	check(kcmp(me, pid, KCMP_SYSVSEM, 0, 0) == 0, "no SEM_UNDO yet: no undo lists");
	child_release(pid, go);

	/* Oneself, and a thread: everything shared. */
	check(kcmp(me, me, KCMP_VM, 0, 0) == 0, "self: same mm");
	check(kcmp(me, me, KCMP_FILES, 0, 0) == 0, "self: same fd table");
	if (pipe(thread_go) < 0 || pipe(thread_done) < 0)
		return 1;
	pthread_create(&th, NULL, thread_fn, NULL);
	if (read(thread_done[0], &c, 1) != 1)
		return 1;
	check(kcmp(me, thread_tid, KCMP_VM, 0, 0) == 0, "thread: same mm");
	check(kcmp(me, thread_tid, KCMP_FILES, 0, 0) == 0, "thread: same fd table");
	check(kcmp(me, thread_tid, KCMP_FS, 0, 0) == 0, "thread: same fs");
	check(kcmp(me, thread_tid, KCMP_SIGHAND, 0, 0) == 0, "thread: same handlers");
	check(kcmp(thread_tid, me, KCMP_FILE, 1, 1) == 0, "thread: fd 1 is the same file");
	if (write(thread_go[1], "g", 1) != 1)
		return 1;
	pthread_join(th, NULL);

	/* A fork child: its own of each, the inherited files the same. */
	fd = open("/dev/null", O_RDONLY);
	fd2 = open("/dev/null", O_RDONLY);
	dupfd = dup(fd);
	pid = child_waiting(go);
	check(differ(me, pid, KCMP_VM, 0, 0), "fork child: another mm, ordered both ways");
	check(differ(me, pid, KCMP_FILES, 0, 0), "fork child: another fd table");
	check(differ(me, pid, KCMP_FS, 0, 0), "fork child: another fs");
	check(differ(me, pid, KCMP_SIGHAND, 0, 0), "fork child: other handlers");
	check(kcmp(me, pid, KCMP_FILE, fd, fd) == 0, "fork child: inherited fd is the same file");
	check(kcmp(me, me, KCMP_FILE, fd, dupfd) == 0, "dup: the same file");
	check(differ(me, me, KCMP_FILE, fd, fd2), "a second open: another file");
	check(differ(me, pid, KCMP_SYSVSEM, 0, 0),
	      "a CLONE_SYSVSEM thread (pthread) made an undo list, the child has none");

	/* Errors, in Linux's order. */
	check_err(kcmp(me, me, KCMP_FILE, fd, 999), EBADF, "EBADF", "KCMP_FILE of a closed fd");
	check(kcmp(me, me, KCMP_FILE, 1UL << 32 | (unsigned)fd, fd) == 0,
	      "the index is an unsigned int");
	check_err(kcmp(me, me, 8, 0, 0), EINVAL, "EINVAL", "type 8");
	check_err(kcmp(me, me, -1, 0, 0), EINVAL, "EINVAL", "type -1");
	check_err(kcmp(0, me, KCMP_VM, 0, 0), ESRCH, "ESRCH", "pid 0");
	check_err(kcmp(me, -1, 99, 0, 0), ESRCH, "ESRCH", "no such pid before a bad type");
	child_release(pid, go);
	check_err(kcmp(me, pid, KCMP_VM, 0, 0), ESRCH, "ESRCH", "a reaped child");

	/* SysV undo lists: a SEM_UNDO semop makes one, a fork has none. */
	{
		int semid = semget(IPC_PRIVATE, 1, 0600);
		struct sembuf op = { 0, 1, SEM_UNDO };

		pid = child_waiting(go);
		check(semid >= 0 && semop(semid, &op, 1) == 0, "semop with SEM_UNDO");
		check(differ(me, pid, KCMP_SYSVSEM, 0, 0), "now an undo list the child lacks");
		check(kcmp(me, me, KCMP_SYSVSEM, 0, 0) == 0, "and its own is itself");
		child_release(pid, go);
		semctl(semid, 0, IPC_RMID);
	}

	/* io contexts: a set ioprio makes one, a fork child gets its own. */
	check(syscall(SYS_ioprio_set, 1, 0, 2 << 13 | 4) == 0, "ioprio_set BE 4");
	pid = child_waiting(go);
	check(differ(me, pid, KCMP_IO, 0, 0), "fork child of a set ioprio: another io context");
	child_release(pid, go);

	/* An epoll's targets. */
	if (pipe(p) < 0)
		return 1;
	epfd = epoll_create1(0);
	{
		struct epoll_event ev = { .events = EPOLLIN };

		epoll_ctl(epfd, EPOLL_CTL_ADD, p[0], &ev);
	}
	slot = (struct kcmp_epoll_slot){ (unsigned)epfd, (unsigned)p[0], 0 };
	check(kcmp(me, me, KCMP_EPOLL_TFD, p[0], (unsigned long)&slot) == 0,
	      "the epoll's target is the pipe's read end");
	check(kcmp(me, me, KCMP_EPOLL_TFD, p[1], (unsigned long)&slot) > 0,
	      "and not its write end");
	{
		/* the slot is 12 bytes: what follows is not read (stress-ng's
		 * kcmp stressor leaves stack bytes there), even a hole */
		unsigned words[4] = { (unsigned)epfd, (unsigned)p[0], 0, 0xffffffffu };
		char *pg = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
				0);

		check(kcmp(me, me, KCMP_EPOLL_TFD, p[0], (unsigned long)words) == 0,
		      "bytes after the 12-byte slot are not its");
		munmap(pg + 4096, 4096);
		memcpy(pg + 4096 - 12, words, 12);
		check(kcmp(me, me, KCMP_EPOLL_TFD, p[0], (unsigned long)(pg + 4096 - 12)) == 0,
		      "a slot that ends at a hole");
		munmap(pg, 4096);
	}
	slot.toff = 1;
	check_err(kcmp(me, me, KCMP_EPOLL_TFD, p[0], (unsigned long)&slot), ENOENT, "ENOENT",
		  "no second item under that fd");
	slot = (struct kcmp_epoll_slot){ (unsigned)epfd, (unsigned)p[1], 0 };
	check_err(kcmp(me, me, KCMP_EPOLL_TFD, p[0], (unsigned long)&slot), ENOENT, "ENOENT",
		  "an fd the epoll does not watch");
	slot = (struct kcmp_epoll_slot){ (unsigned)p[0], (unsigned)p[0], 0 };
	check_err(kcmp(me, me, KCMP_EPOLL_TFD, p[0], (unsigned long)&slot), EINVAL, "EINVAL",
		  "efd not an epoll");
	slot = (struct kcmp_epoll_slot){ 999, (unsigned)p[0], 0 };
	check_err(kcmp(me, me, KCMP_EPOLL_TFD, p[0], (unsigned long)&slot), EBADF, "EBADF",
		  "efd closed");
	slot = (struct kcmp_epoll_slot){ (unsigned)epfd, (unsigned)p[0], 0 };
	check_err(kcmp(me, me, KCMP_EPOLL_TFD, 999, (unsigned long)&slot), EBADF, "EBADF",
		  "idx1 closed");
	check_err(kcmp(me, me, KCMP_EPOLL_TFD, 999, 8), EFAULT, "EFAULT",
		  "a bad slot pointer, before the fds");

	/* pidfd_getfd. */
	pid = child_waiting(go);
	{
		int pidfd = (int)syscall(SYS_pidfd_open, pid, 0), got;

		got = (int)syscall(SYS_pidfd_getfd, pidfd, fd2, 0);
		check(got >= 0, "pidfd_getfd of the child's fd");
		check(got >= 0 && kcmp(me, pid, KCMP_FILE, got, fd2) == 0,
		      "it is the child's file");
		check(got >= 0 && fcntl(got, F_GETFD) == FD_CLOEXEC, "close-on-exec");
		close(got);
		check_err(syscall(SYS_pidfd_getfd, pidfd, fd2, 1), EINVAL, "EINVAL", "flags 1");
		check_err(syscall(SYS_pidfd_getfd, pidfd, 999, 0), EBADF, "EBADF",
			  "a closed fd in the child");
		check_err(syscall(SYS_pidfd_getfd, pidfd, -1, 0), EBADF, "EBADF", "fd -1");
		check_err(syscall(SYS_pidfd_getfd, fd, 0, 0), EBADF, "EBADF", "not a pidfd");
		check_err(syscall(SYS_pidfd_getfd, 999, 0, 0), EBADF, "EBADF", "no pidfd");
		check_err(syscall(SYS_pidfd_getfd, 999, 0, 1), EINVAL, "EINVAL",
			  "flags before the pidfd");
		close(go[1]);
		/* Exited, not reaped: its table is gone. */
		{
			siginfo_t si;

			waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT);
		}
		check_err(syscall(SYS_pidfd_getfd, pidfd, fd2, 0), ESRCH, "ESRCH",
			  "an exited child");
		waitpid(pid, &st, 0);
		check_err(syscall(SYS_pidfd_getfd, pidfd, fd2, 0), ESRCH, "ESRCH",
			  "a reaped child");
		close(pidfd);
		pidfd = (int)syscall(SYS_pidfd_open, me, 0);
		got = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
		check(got >= 0 && kcmp(me, me, KCMP_FILE, got, fd) == 0, "pidfd_getfd of oneself");
		close(got);
		close(pidfd);
	}

	/* Another user: no right over root's process (EPERM before the type's
	 * EINVAL), while oneself stays readable. */
	pid = fork();
	if (pid == 0) {
		pid_t parent = getppid();
		int pidfd = (int)syscall(SYS_pidfd_open, parent, 0);

		if (setresgid(65534, 65534, 65534) < 0 || setresuid(65534, 65534, 65534) < 0)
			_exit(1);
		check_err(kcmp(getpid(), parent, KCMP_VM, 0, 0), EPERM, "EPERM",
			  "kcmp of root's process");
		check_err(kcmp(getpid(), parent, 99, 0, 0), EPERM, "EPERM", "EPERM before EINVAL");
		check(kcmp(getpid(), getpid(), KCMP_VM, 0, 0) == 0, "oneself is still readable");
		check_err(syscall(SYS_pidfd_getfd, pidfd, 0, 0), EPERM, "EPERM",
			  "pidfd_getfd of root's process");
		_exit(0);
	}
	waitpid(pid, &st, 0);
	n += 4;
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the other user's child ran");
	return 0;
}
