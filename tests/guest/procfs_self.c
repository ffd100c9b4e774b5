/* /proc/self: status, cmdline, fd links, maps, stat; /proc/meminfo,
 * /proc/uptime, /proc/mounts. */
/* skas-test: args: one "two words" */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tap.h"

/* The whole file (NUL-terminated; *len without the NUL), or NULL. */
static char *slurp(const char *path, size_t *len)
{
	size_t cap = 4096, got = 0;
	char *buf = malloc(cap + 1);
	int fd = open(path, O_RDONLY);
	ssize_t r;

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((r = read(fd, buf + got, cap - got)) > 0) {
		got += (size_t)r;
		if (got == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
			if (!buf)
				break;
		}
	}
	close(fd);
	if (!buf || r < 0) {
		free(buf);
		return NULL;
	}
	buf[got] = 0;
	if (len)
		*len = got;
	return buf;
}

static int has_line_with(const char *text, const char *needle)
{
	const char *p = text;

	while (p && *p) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (memmem(p, l, needle, strlen(needle)))
			return 1;
		p = e ? e + 1 : NULL;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char *s, *base, want[64], path[64], buf[4096], state = 0;
	size_t len, off;
	int i, ok, fd, pid = -1, nf = 0;
	double a = -1, b = -1;
	ssize_t r;
	void *old_brk, *new_brk;
	struct stat st1, st2;
	DIR *d;
	struct dirent *de;

	/* Name: the program's name (truncated to 15 as comm is). */
	base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	snprintf(want, sizeof(want), "Name:\t%.15s\n", base);
	s = slurp("/proc/self/status", NULL);
	check(s != NULL, "open /proc/self/status");
	check(s && strncmp(s, want, strlen(want)) == 0, "status Name is the program's name");
	snprintf(want, sizeof(want), "\nPid:\t%d\n", getpid());
	check(s && strstr(s, want) != NULL, "status Pid is getpid()");
	snprintf(want, sizeof(want), "\nPPid:\t%d\n", getppid());
	check(s && strstr(s, want) != NULL, "status PPid is getppid()");
	snprintf(want, sizeof(want), "\nUid:\t%d\t%d\t", getuid(), geteuid());
	check(s && strstr(s, want) != NULL, "status Uid");
	check(s && strstr(s, "\nState:\tR (running)\n") != NULL, "status State is R");
	check(s && strstr(s, "\nThreads:\t1\n") != NULL, "status Threads is 1");
	check(s && strstr(s, "\nSigBlk:\t") != NULL && strlen(strstr(s, "\nSigBlk:\t")) > 25 &&
		      strstr(s, "\nSigBlk:\t")[25] == '\n',
	      "status SigBlk has 16 hex digits");
	free(s);

	/* cmdline: argv, NUL-separated. */
	s = slurp("/proc/self/cmdline", &len);
	ok = s != NULL;
	for (i = 0, off = 0; ok && i < argc; i++) {
		size_t l = strlen(argv[i]) + 1;

		ok = off + l <= len && memcmp(s + off, argv[i], l) == 0;
		off += l;
	}
	check(ok && off == len, "cmdline is argv");
	free(s);

	/* comm */
	s = slurp("/proc/self/comm", NULL);
	snprintf(want, sizeof(want), "%.15s\n", base);
	check(s && strcmp(s, want) == 0, "comm is the program's name");
	free(s);

	/* fd links. */
	r = readlink("/proc/self/fd/1", buf, sizeof(buf));
	check(r > 0, "readlink /proc/self/fd/1");
	fd = open("/proc/self/fd/0", O_RDONLY);
	check(fd >= 0, "open /proc/self/fd/0");
	check(fd >= 0 && fstat(fd, &st1) == 0 && fstat(0, &st2) == 0 && st1.st_ino == st2.st_ino &&
		      st1.st_dev == st2.st_dev,
	      "/proc/self/fd/0 opens the same file as fd 0");
	if (fd >= 0)
		close(fd);
	fd = open("/proc/self/status", O_RDONLY);
	snprintf(want, sizeof(want), "/proc/%d/status", getpid());
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	r = readlink(path, buf, sizeof(buf) - 1);
	if (r >= 0)
		buf[r] = 0;
	check(r > 0 && strcmp(buf, want) == 0, "readlink of an fd gives its path");
	close(fd);
	check(lstat("/proc/self/fd/1", &st1) == 0 && S_ISLNK(st1.st_mode), "fd/1 is a symlink");
	d = opendir("/proc/self/fd");
	check(d != NULL, "opendir /proc/self/fd");
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, "0") == 0 || strcmp(de->d_name, "1") == 0 ||
		    strcmp(de->d_name, "2") == 0)
			nf++;
	if (d)
		closedir(d);
	check(nf == 3, "fd/ lists 0, 1, 2");

	/* self and cwd */
	r = readlink("/proc/self", buf, sizeof(buf) - 1);
	if (r >= 0)
		buf[r] = 0;
	snprintf(want, sizeof(want), "%d", getpid());
	check(r > 0 && strcmp(buf, want) == 0, "/proc/self links to the pid");
	check(stat("/proc/self/cwd", &st1) == 0 && stat(".", &st2) == 0 &&
		      st1.st_ino == st2.st_ino && st1.st_dev == st2.st_dev,
	      "/proc/self/cwd is the cwd");

	/* maps: [stack], and [heap] once the heap exists. */
	/* (musl's sbrk only answers sbrk(0): brk itself) */
	old_brk = (void *)syscall(SYS_brk, 0);
	new_brk = (void *)syscall(SYS_brk, (char *)old_brk + (1 << 20));
	check(new_brk == (char *)old_brk + (1 << 20), "brk grows the heap by 1 MiB");
	if (new_brk == (char *)old_brk + (1 << 20))
		memset(old_brk, 1, 1 << 20);
	s = slurp("/proc/self/maps", NULL);
	check(s != NULL, "open /proc/self/maps");
	check(s && has_line_with(s, "[stack]"), "maps has [stack]");
	check(s && has_line_with(s, "[heap]"), "maps has [heap]");
	check(s && s[0] && strchr("0123456789abcdef", s[0]) && strchr(s, '-') &&
		      strchr(s, '-') - s >= 8,
	      "maps lines start with an address range");
	free(s);

	/* stat: pid (comm) state ... */
	s = slurp("/proc/self/stat", NULL);
	check(s && sscanf(s, "%d", &pid) == 1 && pid == getpid(), "stat field 1 is getpid()");
	if (s && strrchr(s, ')'))
		state = strrchr(s, ')')[2];
	check(state == 'R', "stat field 3 is R");
	if (s && strrchr(s, ')')) {
		char *p = strrchr(s, ')') + 2;
		int fields = 3;

		while ((p = strchr(p, ' ')))
			fields++, p++;
		check(fields == 52, "stat has 52 fields");
	} else {
		check(0, "stat has 52 fields");
	}
	free(s);

	/* system-wide files */
	s = slurp("/proc/meminfo", NULL);
	check(s && strncmp(s, "MemTotal:", 9) == 0, "meminfo starts with MemTotal:");
	check(s && strstr(s, "\nMemAvailable:") != NULL, "meminfo has MemAvailable");
	free(s);
	s = slurp("/proc/uptime", NULL);
	check(s && sscanf(s, "%lf %lf", &a, &b) == 2 && a >= 0 && b >= 0, "uptime is two numbers");
	free(s);
	s = slurp("/proc/mounts", NULL);
	check(s && has_line_with(s, "proc /proc proc "), "mounts has proc on /proc");
	free(s);
	s = slurp("/proc/sys/kernel/ostype", NULL);
	check(s && strcmp(s, "Linux\n") == 0, "sys/kernel/ostype");
	free(s);
	s = slurp("/proc/loadavg", NULL);
	check(s && sscanf(s, "%lf %lf %lf", &a, &a, &a) == 3, "loadavg");
	free(s);

	/* read-only; errors as Linux gives them to a non-root user or root */
	errno = 0;
	check(open("/proc/nonexistent", O_RDONLY) < 0 && errno == ENOENT, "ENOENT");
	errno = 0;
	check(mkdir("/proc/newdir", 0755) < 0 && errno == ENOENT, "mkdir in /proc: ENOENT");
	errno = 0;
	check(open("/proc/sys/kernel/ostype", O_WRONLY) < 0 && errno == EACCES,
	      "writing a read-only sysctl: EACCES");

	/* setproctitle: argv's area rewritten, its last NUL kept: all of
	 * it; the NUL overwritten (on into the environment): the string to
	 * its NUL, as Linux's get_mm_proctitle */
	{
		extern char **environ;
		char *end = argv[argc - 1] + strlen(argv[argc - 1]);
		size_t area = (size_t)(end - argv[0]), envlen = environ[0] ? strlen(environ[0]) : 0;

		memset(argv[0], ' ', area);
		memcpy(argv[0], "short", 6);
		s = slurp("/proc/self/cmdline", &len);
		check(s && len == area + 1 && memcmp(s, "short\0", 6) == 0,
		      "a title within argv's area: the whole area");
		free(s);
		if (envlen > 2 && environ[0] == end + 1) {
			memset(argv[0], 'x', area + 1 + envlen / 2);
			memcpy(argv[0], "TITLE", 5);
			argv[0][area + 1 + envlen / 2] = 0;
			s = slurp("/proc/self/cmdline", &len);
			check(s && len == area + 2 + envlen / 2 && memcmp(s, "TITLE", 5) == 0 &&
				      s[len - 1] == 0,
			      "one over its end: up to its NUL, into the environment");
			free(s);
		} else {
			check(0, "the environment follows argv");
		}
	}
	return 0;
}
