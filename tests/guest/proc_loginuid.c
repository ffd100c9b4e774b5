/* /proc/PID/loginuid, sessionid and timerslack_ns, as Linux's: the audit
 * login uid a thread sets for itself (inherited, unset 4294967295; a set
 * one changes only with CAP_AUDIT_CONTROL; each setting a new session)
 * and the PR_SET_TIMERSLACK slack (another process's needs CAP_SYS_NICE,
 * at the read or the write). All three were ENOENT in skas. Root. A
 * child that drops root stays dumpable, to own its /proc/self files.
 * These and io and personality look at the process at each read (ESRCH
 * once it is reaped), not at the open. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"

static void check_ok(long r, const char *what)
{
	check(r >= 0, what);
	if (r < 0)
		printf("# %s\n", ename(errno));
}

/* The file's contents ("" on an error: errno says it). */
static const char *get(const char *path)
{
	static char buf[64];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0) {
		int e = errno;

		close(fd);
		errno = e;
	}
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

static long put(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	long n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	if (n < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	close(fd);
	return n;
}

static unsigned long num(const char *path)
{
	return strtoul(get(path), NULL, 10);
}

static void check_mode(const char *path, unsigned mode)
{
	struct stat st;
	char what[96];

	snprintf(what, sizeof(what), "%s: mode %o", path, mode);
	check(stat(path, &st) == 0 && (st.st_mode & 07777) == mode, what);
}

static void *thread_fn(void *arg)
{
	char path[64];
	long *r = arg;

	r[0] = put("/proc/self/loginuid", "77");
	r[1] = errno;
	snprintf(path, sizeof(path), "/proc/self/task/%ld/loginuid", (long)syscall(SYS_gettid));
	r[2] = put(path, "77");
	r[3] = (long)num("/proc/thread-self/loginuid");
	r[4] = (long)num("/proc/self/loginuid");
	return NULL;
}

int main(void)
{
	char ppath[64], s1[16];
	unsigned long start_slack, sid1, sid2;
	long r[5] = { 0 };
	pthread_t th;
	pid_t pid;
	int st, fd;

	check_mode("/proc/self/loginuid", 0644);
	check_mode("/proc/self/sessionid", 0444);
	check_mode("/proc/self/timerslack_ns", 0666);
	check_mode("/proc/thread-self/loginuid", 0644);

	/* loginuid */
	check_ok(put("/proc/self/loginuid", "4294967295"), "unset it");
	check(strcmp(get("/proc/self/loginuid"), "4294967295") == 0,
	      "reads 4294967295, no newline");
	check(strcmp(get("/proc/self/sessionid"), "4294967295") == 0, "no session");
	check_ok(put("/proc/self/loginuid", "1000\n"), "set to 1000 (a newline after it)");
	check(strcmp(get("/proc/self/loginuid"), "1000") == 0, "reads 1000");
	sid1 = num("/proc/self/sessionid");
	check(sid1 != 4294967295UL, "a session");
	check_ok(put("/proc/self/loginuid", "+1001"), "set to 1001 (root)");
	sid2 = num("/proc/self/sessionid");
	check(sid2 != sid1 && sid2 != 4294967295UL, "a new session");
	check_err(put("/proc/self/loginuid", "abc"), EINVAL, "not a number: EINVAL");
	check_err(put("/proc/self/loginuid", "-1"), EINVAL, "-1: EINVAL");
	check_err(put("/proc/self/loginuid", "1000 "), EINVAL, "a blank after it: EINVAL");
	check_err(put("/proc/self/loginuid", "4294967296"), ERANGE, "past 32 bits: ERANGE");
	fd = open("/proc/self/loginuid", O_WRONLY);
	check_err(pwrite(fd, "5", 1, 1), EINVAL, "at offset 1: EINVAL");
	close(fd);
	check(num("/proc/self/loginuid") == 1001, "still 1001");

	pthread_create(&th, NULL, thread_fn, r);
	pthread_join(th, NULL);
	check(r[0] < 0 && r[1] == EPERM, "a thread writing its process's: EPERM");
	check(r[2] == 2, "a thread writing its own");
	check(r[3] == 77, "the thread's reads 77");
	check(r[4] == 1001, "the process's (its first thread's) still 1001");

	snprintf(ppath, sizeof(ppath), "/proc/%d/loginuid", (int)getpid());
	pid = fork();
	if (pid == 0) {
		int ok = num("/proc/self/loginuid") == 1001 && num("/proc/self/sessionid") == sid2;

		ok = ok << 1 | (put(ppath, "5") < 0 && errno == EPERM);
		_exit(ok);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && (WEXITSTATUS(st) & 2), "a child inherits uid and session");
	check(WIFEXITED(st) && (WEXITSTATUS(st) & 1), "a child writing its parent's: EPERM");

	pid = fork();
	if (pid == 0) {
		int ok;

		if (setuid(1000) < 0 || prctl(PR_SET_DUMPABLE, 1) < 0)
			_exit(0);
		ok = put("/proc/self/loginuid", "1002") < 0 && errno == EPERM;
		_exit(ok);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 1,
	      "a set one changed without CAP_AUDIT_CONTROL: EPERM");

	check_ok(put("/proc/self/loginuid", "4294967295"), "unset again");
	pid = fork();
	if (pid == 0) {
		int ok;

		if (setuid(1000) < 0 || prctl(PR_SET_DUMPABLE, 1) < 0)
			_exit(0);
		ok = put("/proc/self/loginuid", "1000") == 4;
		ok = ok << 1 | (num("/proc/self/loginuid") == 1000);
		ok = ok << 1 | (put("/proc/self/loginuid", "1001") < 0 && errno == EPERM);
		_exit(ok);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && (WEXITSTATUS(st) & 4), "unset: any user sets it once");
	check(WIFEXITED(st) && (WEXITSTATUS(st) & 2), "and reads it");
	check(WIFEXITED(st) && (WEXITSTATUS(st) & 1), "then no more: EPERM");

	/* timerslack_ns */
	start_slack = (unsigned long)prctl(PR_GET_TIMERSLACK);
	snprintf(s1, sizeof(s1), "%lu\n", start_slack);
	check(strcmp(get("/proc/self/timerslack_ns"), s1) == 0, "timerslack_ns: the slack");
	prctl(PR_SET_TIMERSLACK, 12345);
	check(num("/proc/self/timerslack_ns") == 12345, "follows PR_SET_TIMERSLACK");
	check_ok(put("/proc/self/timerslack_ns", "777\n"), "written");
	check(prctl(PR_GET_TIMERSLACK) == 777, "PR_GET_TIMERSLACK says it");
	check_ok(put("/proc/self/timerslack_ns", "0"), "0 written");
	check((unsigned long)prctl(PR_GET_TIMERSLACK) == start_slack, "0: the default again");
	check_err(put("/proc/self/timerslack_ns", "x"), EINVAL, "not a number: EINVAL");
	check_err(put("/proc/self/timerslack_ns", "18446744073709551616"), ERANGE,
		  "past 64 bits: ERANGE");
	check_ok(put("/proc/self/timerslack_ns", "18446744073709551615"), "2^64-1 written");
	check(strcmp(get("/proc/self/timerslack_ns"), "18446744073709551615\n") == 0,
	      "2^64-1 read");
	prctl(PR_SET_TIMERSLACK, 5000);

	snprintf(ppath, sizeof(ppath), "/proc/%d/timerslack_ns", (int)getpid());
	pid = fork();
	if (pid == 0) {
		int ok = num(ppath) == 5000;

		ok = ok << 1 | (put(ppath, "6000") > 0);
		if (setuid(1000) < 0)
			_exit(0);
		fd = open(ppath, O_RDONLY);
		ok = ok << 1 | (fd >= 0);
		ok = ok << 1 | (read(fd, s1, sizeof(s1)) < 0 && errno == EPERM);
		ok = ok << 1 | (put(ppath, "7000") < 0 && errno == EPERM);
		_exit(ok);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && (WEXITSTATUS(st) & 16), "root reads another's");
	check(WIFEXITED(st) && (WEXITSTATUS(st) & 8), "and writes it");
	check(prctl(PR_GET_TIMERSLACK) == 6000, "the write set it");
	check(WIFEXITED(st) && (WEXITSTATUS(st) & 4), "without CAP_SYS_NICE: the open is fine");
	check(WIFEXITED(st) && (WEXITSTATUS(st) & 2), "the read EPERM");
	check(WIFEXITED(st) && (WEXITSTATUS(st) & 1), "the write EPERM");
	check(prctl(PR_GET_TIMERSLACK) == 6000, "unchanged");

	/* these files look at the process when read: after the process is
	 * reaped, a read of one opened before is ESRCH */
	{
		static const char *const names[] = { "timerslack_ns", "loginuid", "sessionid", "io",
						     "personality" };
		int fds[5];
		char what[80];
		size_t i;

		pid = fork();
		if (pid == 0) {
			pause();
			_exit(0);
		}
		for (i = 0; i < 5; i++) {
			snprintf(ppath, sizeof(ppath), "/proc/%d/%s", (int)pid, names[i]);
			fds[i] = open(ppath, O_RDONLY);
		}
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		for (i = 0; i < 5; i++) {
			snprintf(what, sizeof(what), "%s opened, read after the reap: ESRCH",
				 names[i]);
			check_err(read(fds[i], s1, sizeof(s1)), ESRCH, what);
			close(fds[i]);
		}
	}
	return 0;
}
