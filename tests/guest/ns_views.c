/* What files and calls show through a namespace: /proc/locks of a proc
 * mounted in a new pid namespace lists only the locks of that namespace's
 * processes, by its numbers (an OFD lock's pid is -1);
 * /proc/sysvipc/msg, sem and shm give owners as the reader's user
 * namespace names them (65534 for one it cannot); getpriority(PRIO_USER)
 * takes a uid of the caller's user namespace (an unmapped one: ESRCH).
 * The host's own locks and root processes differ from the instance's, so
 * only what the namespace decides is printed. Run as root. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ipc.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/wait.h>

#define TAP_FLUSH
#include "ns_util.h"

static const char lockfile[] = "/tmp/ns_views.lock";

/* The pid fields of /proc/locks, in order, into pids; their count. */
static int lock_pids(long *pids, int max)
{
	FILE *f = fopen("/proc/locks", "r");
	char line[256];
	int k = 0;

	if (!f)
		return -1;
	while (k < max && fgets(line, sizeof(line), f)) {
		char kind[16], adv[16], rw[16];
		long pid;

		/* "N: POSIX  ADVISORY  WRITE PID MAJ:MIN:INO START END" */
		if (sscanf(line, "%*d: %15s %15s %15s %ld", kind, adv, rw, &pid) == 4)
			pids[k++] = pid;
	}
	fclose(f);
	return k;
}

static void locks_in_pid_ns(void)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };
	int fd = open(lockfile, O_RDWR | O_CREAT, 0600), st, p[2];
	pid_t pid;

	/* a lock of this process, which the namespace below cannot see */
	check(fd >= 0 && fcntl(fd, F_SETLK, &fl) == 0, "a lock outside the namespace");
	check_ok(err_of(unshare(CLONE_NEWPID | CLONE_NEWNS)),
		 "unshare(CLONE_NEWPID | CLONE_NEWNS)");
	if (pipe(p) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		int before = n, g = open(lockfile, O_RDWR), k;
		struct flock mine = {
			.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 4, .l_len = 1
		};
		struct flock ofd = {
			.l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 8, .l_len = 1
		};
		long pids[16];

		check(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
			      mount("proc", "/proc", "proc", 0, NULL) == 0,
		      "proc mounted in the new pid namespace");
		check(g >= 0 && fcntl(g, F_SETLK, &mine) == 0 && fcntl(g, F_OFD_SETLK, &ofd) == 0,
		      "its init takes a POSIX and an OFD lock");
		k = lock_pids(pids, 16);
		check_eq(k, 2, "/proc/locks lists those two alone");
		check(k == 2 &&
			      ((pids[0] == 1 && pids[1] == -1) || (pids[0] == -1 && pids[1] == 1)),
		      "by the namespace's pid 1, and -1 for the OFD lock");
		fflush(stdout);
		_exit(n - before);
	}
	close(p[0]);
	close(p[1]);
	st = reap(pid);
	n += WIFEXITED(st) ? WEXITSTATUS(st) : 0;
	check(WIFEXITED(st), "the namespace's init exited");
	close(fd);
	unlink(lockfile);
}

/* Writes s to a /proc/self file: 0 or the errno. */
static long write_self(const char *name, const char *s)
{
	char path[64];
	int fd;
	long r;

	snprintf(path, sizeof(path), "/proc/self/%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	r = write(fd, s, strlen(s)) == (long)strlen(s) ? 0 : errno;
	close(fd);
	return r;
}

/* The uid, gid, cuid and cgid columns of the line of id in a
 * /proc/sysvipc file (ucol: the uid column's index from 0). */
static int ipc_ids(const char *file, int id, int ucol, unsigned *ids)
{
	char path[64], line[512];
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/sysvipc/%s", file);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f)) { /* the header */
		fclose(f);
		return 0;
	}
	while (!found && fgets(line, sizeof(line), f)) {
		char *tok, *save = NULL;
		int col = 0, idv = -1;

		for (tok = strtok_r(line, " \n", &save); tok;
		     tok = strtok_r(NULL, " \n", &save), col++) {
			if (col == 1)
				idv = atoi(tok);
			else if (col >= ucol && col < ucol + 4 && idv == id)
				ids[col - ucol] = (unsigned)strtoul(tok, NULL, 10);
		}
		found = idv == id;
	}
	fclose(f);
	return found;
}

static void ids_in_user_ns(void)
{
	int msq = msgget(IPC_PRIVATE, 0600), sem = semget(IPC_PRIVATE, 1, 0600),
	    shm = shmget(IPC_PRIVATE, 4096, 0600);
	unsigned ids[4] = { 0 };

	check(msq >= 0 && sem >= 0 && shm >= 0, "a queue, a set and a segment, made by root");
	check_ok(err_of(unshare(CLONE_NEWUSER)), "unshare(CLONE_NEWUSER)");
	check_ok(write_self("uid_map", "1000 0 1\n"), "uid 1000 there is root");
	check_ok(write_self("setgroups", "deny\n"), "setgroups deny");
	check_ok(write_self("gid_map", "2000 0 1\n"), "gid 2000 there is root's group");

	check(ipc_ids("msg", msq, 7, ids) && ids[0] == 1000 && ids[1] == 2000 && ids[2] == 1000 &&
		      ids[3] == 2000,
	      "/proc/sysvipc/msg: uid, gid, cuid, cgid 1000 2000 1000 2000");
	check(ipc_ids("sem", sem, 4, ids) && ids[0] == 1000 && ids[1] == 2000 && ids[2] == 1000 &&
		      ids[3] == 2000,
	      "/proc/sysvipc/sem: the same");
	check(ipc_ids("shm", shm, 7, ids) && ids[0] == 1000 && ids[1] == 2000 && ids[2] == 1000 &&
		      ids[3] == 2000,
	      "/proc/sysvipc/shm: the same");

	errno = 0;
	getpriority(PRIO_USER, 1000);
	check_eq(errno, 0, "getpriority(PRIO_USER, 1000): uid 1000 of the namespace has processes");
	errno = 0;
	check(getpriority(PRIO_USER, 5) == -1 && errno == ESRCH,
	      "getpriority(PRIO_USER, 5): an unmapped uid has none (ESRCH)");
	errno = 0;
	check(setpriority(PRIO_USER, 5, 0) == -1 && errno == ESRCH,
	      "setpriority(PRIO_USER, 5): ESRCH");
	msgctl(msq, IPC_RMID, NULL);
	semctl(sem, 0, IPC_RMID);
	shmctl(shm, IPC_RMID, NULL);
}

int main(void)
{
	in_child(locks_in_pid_ns);
	in_child(ids_in_user_ns);
	return 0;
}
