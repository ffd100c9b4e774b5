/* host/cputime.c: what the host has counted for a guest thread: its CPU
 * time (precise, from /proc/PID/task/TID/schedstat), the user/system split
 * and page faults (/proc/PID/task/TID/stat, in clock ticks), and a stub's
 * peak resident size (/proc/PID/status). The kernel cannot read another
 * process's thread CPU clock with clock_gettime (Linux allows that only
 * within a thread group), so it reads these files: a few microseconds,
 * only when a guest asks and when a thread or address space goes (three
 * files then: open, one read, close each). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/host.h"

/* Reads a small /proc file into buf (NUL-terminated): length or -errno.
 * A /proc file that fits in buf comes whole in the first read (seq_file
 * fills what it can), so a short read is the end: no read to see EOF
 * (open, read, close: three host calls per file). */
static long read_small(const char *path, char *buf, size_t size)
{
	long n, done = 0;
	int fd;

	do
		fd = open(path, O_RDONLY | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -errno;
	while ((size_t)done < size - 1) {
		size_t want = size - 1 - (size_t)done;

		n = read(fd, buf + done, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += n;
		if ((size_t)n < want)
			break;
	}
	close(fd);
	buf[done] = 0;
	return done;
}

int host_thread_cputime(int pid, int tid, struct host_cputime *out)
{
	char path[64], buf[1024], *p;
	unsigned long long v[13];
	long n;
	int i;

	memset(out, 0, sizeof(*out));
	if (pid <= 0 || tid <= 0)
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	n = read_small(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	/* After "pid (comm) ": state ppid pgrp session tty tpgid flags minflt
	 * cminflt majflt cmajflt utime stime. */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2])
		return -EIO;
	p += 4; /* ") S " */
	for (i = 0; i < 13; i++) {
		char *end;

		v[i] = strtoull(p, &end, 10);
		if (end == p)
			return -EIO;
		p = end;
	}
	out->minflt = v[6];
	out->majflt = v[8];
	out->uticks = v[10];
	out->sticks = v[11];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", pid, tid);
	n = read_small(path, buf, sizeof(buf));
	if (n > 0)
		out->rt_ns = (int64_t)strtoull(buf, NULL, 10);
	/* Without schedstat (or before the first update): the ticks. */
	if (out->rt_ns == 0)
		out->rt_ns = (int64_t)(out->uticks + out->sticks) * 10000000LL;
	return 0;
}

int64_t host_thread_runtime_ns(int pid, int tid)
{
	struct host_cputime c;
	char path[64], buf[128];
	int64_t ns = 0;

	if (pid <= 0 || tid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", pid, tid);
	if (read_small(path, buf, sizeof(buf)) > 0)
		ns = (int64_t)strtoull(buf, NULL, 10);
	if (ns == 0 && host_thread_cputime(pid, tid, &c) == 0)
		ns = c.rt_ns;
	return ns;
}

long host_proc_maxrss_kb(int pid)
{
	char path[48], buf[4096], *p;
	long n;

	if (pid <= 0)
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	n = read_small(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	p = strstr(buf, "\nVmHWM:");
	if (!p)
		return 0;
	return strtol(p + 7, NULL, 10);
}
