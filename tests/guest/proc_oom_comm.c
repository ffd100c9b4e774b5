/* /proc/PID/oom_score_adj, oom_adj and oom_score, coredump_filter, and
 * writing comm:
 * values and their parsing, the floor a writer without CAP_SYS_RESOURCE
 * cannot go under, fork's copy; comm as written (15 bytes, a newline
 * kept), another thread's through task/TID/comm (pthread_setname_np),
 * another process's EINVAL; coredump_filter's parsing (base 0, one newline
 * at most), its 9 bits, fork's copy. Writes were EINVAL in skas. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "caps.h"
#include "tap.h"

static int put_n(const char *path, const char *v, size_t len)
{
	int fd = open(path, O_WRONLY), r;

	if (fd < 0)
		return -errno;
	r = write(fd, v, len);
	r = r < 0 ? -errno : r;
	close(fd);
	return r;
}

static int put(const char *path, const char *v)
{
	return put_n(path, v, strlen(v));
}

static const char *get(const char *path)
{
	static char buf[64];
	int fd = open(path, O_RDONLY), r;

	buf[0] = 0;
	if (fd < 0)
		return "open failed";
	r = read(fd, buf, sizeof(buf) - 1);
	buf[r > 0 ? r : 0] = 0;
	close(fd);
	return buf;
}

/* on 1, 0: raise or drop CAP_SYS_RESOURCE; -1: whether it is effective */
static int cap_resource(int on)
{
	return on < 0 ? caps_has(CAP_SYS_RESOURCE) : caps_change(CAP_SYS_RESOURCE, on, 1);
}

static pthread_t other;
static volatile int stop;

static void *idle(void *arg)
{
	while (!stop)
		usleep(1000);
	return arg;
}

int main(void)
{
	const char *adj = "/proc/self/oom_score_adj", *old = "/proc/self/oom_adj";
	char path[64], name[32];
	int had, st, score;
	pid_t c;

	setvbuf(stdout, NULL, _IONBF, 0);
	had = cap_resource(-1);
	cap_resource(0); /* a floor of 0 from here, natively and in skas */
	check(strcmp(get(adj), "0\n") == 0 && strcmp(get(old), "0\n") == 0, "both start at 0");
	check(put(adj, "500") == 3 && strcmp(get(adj), "500\n") == 0, "oom_score_adj 500");
	check(strcmp(get(old), "8\n") == 0, "oom_adj shows it scaled: 8");
	check(put(adj, " 5\n\n") == 4 && strcmp(get(adj), "5\n") == 0, "blanks around it: 5");
	check(put(adj, "0x10") == 4 && strcmp(get(adj), "16\n") == 0, "base 0: 0x10 is 16");
	check(put(adj, "-17x") == -EINVAL, "not a number: EINVAL");
	check(put(adj, "1001") == -EINVAL && put(adj, "-1001") == -EINVAL, "out of range: EINVAL");
	check(put(adj, "2147483648") == -ERANGE, "past an int: ERANGE");
	check(put_n(adj, "6 \0x", 4) == 4 && strcmp(get(adj), "6\n") == 0, "a NUL ends it");
	check(put(adj, "\xa0"
		       "7") == 2 &&
		      strcmp(get(adj), "7\n") == 0,
	      "NBSP is a blank too");
	check(put(adj, "8                   ") == 12 && strcmp(get(adj), "8\n") == 0,
	      "a long write: 12 bytes taken");
	check(put(adj, "") == 0 || put(adj, "") == -EINVAL, "nothing: 0 bytes or EINVAL");
	check(put(old, "3") == 1 && strcmp(get(adj), "176\n") == 0 && strcmp(get(old), "2\n") == 0,
	      "oom_adj 3 is 176, read back as 2");
	check(put(old, "15") == 2 && strcmp(get(adj), "1000\n") == 0, "oom_adj 15 is 1000");
	check(put(old, "3") == -EACCES, "oom_adj below its value without CAP_SYS_RESOURCE: EACCES");
	check(put(old, "16") == -EINVAL && put(old, "-18") == -EINVAL,
	      "oom_adj past -17..15: EINVAL");
	check(put(adj, "0") == 1, "oom_score_adj down to the floor: allowed");
	check(put(adj, "-1") == -EACCES, "below the floor without CAP_SYS_RESOURCE: EACCES");
	cap_resource(1);
	check(had ? put(adj, "-1000") == 5 && strcmp(get(adj), "-1000\n") == 0
		  : put(adj, "-1000") == -EACCES,
	      "-1000 with CAP_SYS_RESOURCE (EACCES without)");
	score = atoi(get("/proc/self/oom_score"));
	check(had ? score == 0 : score >= 0 && score <= 2000,
	      "oom_score: 0 at -1000, else 0..2000");
	c = fork();
	if (c == 0)
		_exit(strcmp(get(adj), had ? "-1000\n" : "0\n") == 0 ? 0 : 1);
	check(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a fork child has the same");
	cap_resource(0);
	check(!had || (put(adj, "-999") == 4 && put(adj, "-1000") == 5),
	      "the floor a privileged write set stays after the cap goes");
	cap_resource(1);

	{
		const char *cf = "/proc/self/coredump_filter";

		check(strcmp(get(cf), "00000033\n") == 0, "coredump_filter starts at 33");
		check(put(cf, "0x7") == 3 && strcmp(get(cf), "00000007\n") == 0,
		      "coredump_filter 0x7");
		check(put(cf, "0xffff") == 6 && strcmp(get(cf), "000001ff\n") == 0,
		      "only its 9 bits");
		check(put(cf, "012") == 3 && strcmp(get(cf), "0000000a\n") == 0, "012 is octal");
		check(put(cf, "5\n") == 2 && put(cf, "+3") == 2 &&
			      strcmp(get(cf), "00000003\n") == 0,
		      "a newline after it, a + before it");
		check(put(cf, " 5") == -EINVAL && put(cf, "5\n\n") == -EINVAL &&
			      put(cf, "-1") == -EINVAL,
		      "blanks, two newlines, a minus: EINVAL");
		check(put(cf, "0x100000000") == -ERANGE, "past 32 bits: ERANGE");
		c = fork();
		if (c == 0)
			_exit(strcmp(get(cf), "00000003\n") == 0 ? 0 : 1);
		check(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "a fork child has the same coredump_filter");
		put(cf, "0x33");
	}
	check(put("/proc/self/comm", "abc\n") == 4 &&
		      strcmp(get("/proc/self/comm"), "abc\n\n") == 0,
	      "comm as written, its newline kept");
	check(put("/proc/self/comm", "0123456789abcdefXYZ") == 19 &&
		      strcmp(get("/proc/self/comm"), "0123456789abcde\n") == 0,
	      "comm: the first 15 bytes");
	pthread_create(&other, NULL, idle, NULL);
	check(pthread_setname_np(other, "worker-7") == 0 &&
		      pthread_getname_np(other, name, 32) == 0 && strcmp(name, "worker-7") == 0,
	      "another thread's name (pthread_setname_np: task/TID/comm)");
	stop = 1;
	pthread_join(other, NULL);
	c = fork();
	if (c == 0) {
		pause();
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", c);
	check(put(path, "x") == -EINVAL, "another process's comm: EINVAL");
	snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", c);
	check(put(path, "300") == 3 && strcmp(get(path), "300\n") == 0,
	      "another process's oom_score_adj (its owner writes it)");
	kill(c, SIGKILL);
	waitpid(c, &st, 0);
	return 0;
}
