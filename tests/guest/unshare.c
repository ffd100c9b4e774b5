/* unshare and setns: a child that shares its parent's fd table (clone
 * CLONE_FILES) or directories (CLONE_FS) stops sharing them; CLONE_THREAD,
 * CLONE_SIGHAND and CLONE_VM succeed with nothing to unshare and are
 * EINVAL with a second thread or a second user of the address space;
 * CLONE_SYSVSEM applies the SEM_UNDO adjustments as an exit would; flags
 * that are not unshare's are EINVAL; without CAP_SYS_ADMIN a namespace
 * is EPERM. setns: EBADF for no fd or an O_PATH one, EINVAL for a file
 * that is not a namespace. Namespaces themselves: ns_uts, ns_mnt, ns_proc
 * and scenario namespaces.sh. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "caps.h"
#define TAP_ERR_NAMED
#include "tap.h"

static long do_unshare(unsigned long flags)
{
	return syscall(SYS_unshare, flags);
}

/* The threads of this process now, from /proc/self/task (-1: unreadable). */
static int nthreads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* A child process made by clone(flags | SIGCHLD) with no new stack (a
 * fork that shares what flags say); returns its exit status. */
static int clone_child(unsigned long flags, int (*fn)(void))
{
	long pid = syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
	int st;

	if (pid == 0)
		_exit(fn());
	if (pid < 0 || waitpid((pid_t)pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int files_child(void)
{
	int shared = open("/dev/null", O_RDONLY), own;

	if (shared < 0 || do_unshare(CLONE_FILES) != 0)
		return 1;
	own = open("/dev/null", O_RDONLY);
	if (own != shared + 1)
		return 2;
	close(shared); /* its own copy only */
	return 10 + shared;
}

static int fs_child(void)
{
	if (chdir("/tmp") != 0 || do_unshare(CLONE_FS) != 0 || chdir("/") != 0)
		return 1;
	return 0;
}

static int vm_child_ret;
static char vm_stack[65536] __attribute__((aligned(16)));

static int vm_child(void *arg)
{
	(void)arg;
	vm_child_ret = do_unshare(CLONE_VM) == -1 ? errno : 0;
	return 0;
}

static pthread_barrier_t bar;

static void *idle_thread(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&bar);
	pthread_barrier_wait(&bar);
	return NULL;
}

int main(void)
{
	char cwd[256], tmpl[] = "/tmp/unshare.XXXXXX";
	struct sembuf up = { 0, 1, SEM_UNDO };
	pthread_t th;
	int r, fd, semid;
	long pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	check(do_unshare(0) == 0, "unshare(0)");

	/* fds: the child's first open lands in the shared table; after
	 * unshare its second does not, and closing its copy of the first
	 * leaves ours open */
	r = clone_child(CLONE_FILES, files_child);
	check(r >= 10, "CLONE_FILES child: open, unshare(CLONE_FILES), open, close the first");
	fd = r - 10;
	check(r >= 10 && fcntl(fd, F_GETFD) >= 0, "its first open is in our table, still open");
	check(r >= 10 && fcntl(fd + 1, F_GETFD) == -1 && errno == EBADF, "its second is not");
	if (r >= 10)
		close(fd);

	/* directories: the child's chdir before unshare moves us, the one
	 * after does not */
	check(chdir("/") == 0, "chdir /");
	check(clone_child(CLONE_FS, fs_child) == 0, "CLONE_FS child: chdir, unshare, chdir");
	check(getcwd(cwd, sizeof(cwd)) && strcmp(cwd, "/tmp") == 0,
	      "our cwd is where it went before unshare(CLONE_FS)");
	check(chdir("/") == 0, "chdir / again");
	check(do_unshare(CLONE_FS) == 0 && do_unshare(CLONE_FILES) == 0,
	      "CLONE_FS, CLONE_FILES with nothing shared");

	/* nothing to unshare: one thread, one user of the address space */
	check(do_unshare(CLONE_THREAD) == 0, "CLONE_THREAD, one thread");
	check(do_unshare(CLONE_SIGHAND) == 0, "CLONE_SIGHAND, one thread");
	check(do_unshare(CLONE_VM) == 0, "CLONE_VM, alone");
	pid = clone(vm_child, vm_stack + sizeof(vm_stack), CLONE_VM | SIGCHLD, NULL);
	check(pid > 0 && waitpid((pid_t)pid, &r, 0) == pid, "a CLONE_VM child ran");
	check(vm_child_ret == EINVAL,
	      "CLONE_VM in a process that shares its address space: EINVAL");

	pthread_barrier_init(&bar, NULL, 2);
	check(pthread_create(&th, NULL, idle_thread, NULL) == 0, "a second thread");
	pthread_barrier_wait(&bar);
	check_err(do_unshare(CLONE_THREAD), EINVAL, "EINVAL", "CLONE_THREAD, two threads");
	check_err(do_unshare(CLONE_SIGHAND), EINVAL, "EINVAL", "CLONE_SIGHAND, two threads");
	check_err(do_unshare(CLONE_VM), EINVAL, "EINVAL", "CLONE_VM, two threads");
	check(do_unshare(CLONE_FS) == 0, "CLONE_FS, two threads");
	pthread_barrier_wait(&bar);
	pthread_join(th, NULL);
	/* The thread shared our SEM_UNDO list (pthread_create passes
	 * CLONE_SYSVSEM) and drops its share only after the join can return
	 * (Linux's exit_sem comes after the tid word is cleared): once it is
	 * gone from /proc/self/task, unshare(CLONE_SYSVSEM) below finds the
	 * list ours alone, as the check there wants. */
	while (nthreads() > 1)
		sched_yield();

	/* not unshare's flags */
	check_err(do_unshare(SIGCHLD), EINVAL, "EINVAL", "an exit signal");
	check_err(do_unshare(CLONE_PIDFD), EINVAL, "EINVAL", "CLONE_PIDFD");
	check_err(do_unshare(CLONE_VFORK), EINVAL, "EINVAL", "CLONE_VFORK");
	check_err(do_unshare(CLONE_SETTLS), EINVAL, "EINVAL", "CLONE_SETTLS");
	check_err(do_unshare(1UL << 40), EINVAL, "EINVAL", "bit 40");

	/* CLONE_SYSVSEM applies SEM_UNDO adjustments, as at exit */
	semid = semget(IPC_PRIVATE, 1, 0600);
	check(semid >= 0, "semget");
	check(semop(semid, &up, 1) == 0 && semctl(semid, 0, GETVAL) == 1, "semop +1, SEM_UNDO");
	check(do_unshare(CLONE_SYSVSEM) == 0, "unshare(CLONE_SYSVSEM)");
	check(semctl(semid, 0, GETVAL) == 0, "the adjustment was applied: the value is 0");
	check(semop(semid, &up, 1) == 0 && do_unshare(0) == 0 && semctl(semid, 0, GETVAL) == 1,
	      "unshare(0) applies nothing");
	semctl(semid, 0, IPC_RMID);

	/* setns */
	check_err(syscall(SYS_setns, -1, 0), EBADF, "EBADF", "setns(-1)");
	check_err(syscall(SYS_setns, 1000, 0), EBADF, "EBADF", "setns(closed fd)");
	fd = open("/", O_PATH);
	check_err(syscall(SYS_setns, fd, 0), EBADF, "EBADF", "setns(an O_PATH fd)");
	close(fd);
	fd = mkstemp(tmpl);
	check_err(syscall(SYS_setns, fd, 0), EINVAL, "EINVAL", "setns(a regular file)");
	check_err(syscall(SYS_setns, fd, CLONE_NEWNET), EINVAL, "EINVAL",
		  "setns(a regular file, CLONE_NEWNET)");
	close(fd);
	unlink(tmpl);

	/* namespaces without CAP_SYS_ADMIN (the user namespace needs none,
	 * and is left alone) */
	check(caps_drop(CAP_SYS_ADMIN) == 0, "capset drops CAP_SYS_ADMIN");
	check_err(do_unshare(CLONE_NEWNS), EPERM, "EPERM", "CLONE_NEWNS");
	check_err(do_unshare(CLONE_NEWUTS), EPERM, "EPERM", "CLONE_NEWUTS");
	check_err(do_unshare(CLONE_NEWIPC), EPERM, "EPERM", "CLONE_NEWIPC");
	check_err(do_unshare(CLONE_NEWNET), EPERM, "EPERM", "CLONE_NEWNET");
	check_err(do_unshare(CLONE_NEWPID), EPERM, "EPERM", "CLONE_NEWPID");
	check_err(do_unshare(CLONE_NEWCGROUP), EPERM, "EPERM", "CLONE_NEWCGROUP");
	check_err(do_unshare(0x80 /* CLONE_NEWTIME */), EPERM, "EPERM", "CLONE_NEWTIME");
	return 0;
}
