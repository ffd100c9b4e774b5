/* host/cputime.c: what the host has counted for a guest thread: its CPU
 * time (precise, from /proc/PID/task/TID/schedstat), the user/system split
 * and page faults (/proc/PID/task/TID/stat, in clock ticks), and a stub's
 * peak resident size (/proc/PID/status). The kernel cannot read another
 * process's thread CPU clock with clock_gettime (Linux allows that only
 * within a thread group), so it reads these files, only when a guest asks
 * and when a host thread or address space goes.
 *
 * The host calls are what counts (each a few microseconds, most of it the
 * /proc work itself; measured on a 6.18 host: open 2.5 us, read of stat
 * 3.4, schedstat 1.2, status 7.2, close 1.1, close_range of 3 fds 2.1):
 * - every open is relative to a /proc fd taken at boot (host_init, before
 *   the sandbox; openat is on the allowlist anyway): a path walk that
 *   starts below /proc (0.3 us of the 2.5 saved); "/proc/..." without it;
 * - a thread's end reads stat and schedstat, its process's end status too,
 *   all opened first, read, and closed with one close_range per run of
 *   consecutive fds: 3 opens, 3 reads and 1 or 2 closes (a hole low in the
 *   fd table takes the first) instead of 3 of each;
 * - reads of live threads (the CPU-time clocks, which programs read in
 *   loops: clock(), a spin until so much CPU went; getrusage, times,
 *   /proc/PID/stat) keep their fds, the last KEPT_MAX used: a read is then
 *   one pread, as /proc makes a file afresh for a read at offset 0
 *   (seq_file); a thread's end takes its kept fds instead of opening.
 * The end of a process whose stub never had another guest thread reads
 * none of these: the kernel waits for the stub's teardown and takes the
 * rusage of the wait4 that reaps it (platform mm_reap), which counts the
 * control thread too; a stub that had other threads (a vfork child's, a
 * thread's already counted) is read here as before. Not taken: io_uring
 * would batch the reads in one call, but /proc reads cannot run without
 * blocking (each goes to an io-wq worker: context switches) and its
 * operations escape the seccomp allowlist; taskstats (one netlink round
 * trip) takes CAP_NET_ADMIN; no /proc file has both the run time and the
 * split. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "host/host.h"

static int proc_fd = -1; /* /proc (O_PATH), or -1: full paths */

void host_cputime_init(void)
{
	if (proc_fd < 0)
		proc_fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/* Opens "/proc/..." (path), relative to proc_fd when there is one. */
static int proc_open(const char *path)
{
	int fd;

	do
		fd = proc_fd >= 0 ? openat(proc_fd, path + 6, O_RDONLY | O_CLOEXEC)
				  : open(path, O_RDONLY | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	return fd < 0 ? -errno : fd;
}

/* Reads a small /proc file from its start into buf (NUL-terminated):
 * length or -errno. A /proc file that fits in buf comes whole in the first
 * read (seq_file fills what it can), so a short read is the end: no read
 * to see EOF. */
static long read_small(int fd, char *buf, size_t size)
{
	long n, done = 0;

	buf[0] = 0;
	if (fd < 0)
		return fd;
	while ((size_t)done < size - 1) {
		size_t want = size - 1 - (size_t)done;

		n = pread(fd, buf + done, want, done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		done += n;
		if ((size_t)n < want)
			break;
	}
	buf[done] = 0;
	return done;
}

/* Closes the fds (those < 0 are skipped), a run of consecutive ones with
 * one close_range. */
static void close_fds(int *fds, int n)
{
	static bool no_close_range;
	int i, j, lo, hi;

	for (i = 0; i < n; i++) {
		if (fds[i] < 0)
			continue;
		lo = hi = fds[i];
		fds[i] = -1;
		for (j = i + 1; j < n; j++) {
			if (fds[j] == hi + 1 || fds[j] == lo - 1) {
				lo = fds[j] < lo ? fds[j] : lo;
				hi = fds[j] > hi ? fds[j] : hi;
				fds[j] = -1;
				j = i; /* a later one may extend the run now */
			}
		}
		if (lo < hi && !no_close_range &&
		    syscall(SYS_close_range, (unsigned)lo, (unsigned)hi, 0) == 0)
			continue;
		if (lo < hi && errno == ENOSYS)
			no_close_range = true; /* a host older than 5.9 */
		for (; lo <= hi; lo++)
			close(lo);
	}
}

/* The /proc files a sample reads: of a thread, and of its stub. */
enum proc_file { PROC_STAT, PROC_SCHEDSTAT, PROC_STATUS, PROC_FILES };

static int open_file(int pid, int tid, enum proc_file f)
{
	char path[64];

	if (f == PROC_STAT)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	else if (f == PROC_SCHEDSTAT)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", pid, tid);
	else
		snprintf(path, sizeof(path), "/proc/%d/status", pid);
	return proc_open(path);
}

/* The fds the reads of live threads keep (see the top), the least
 * recently used one closed for a new one. A fd names its host thread or
 * process, not its number: once that is gone, it reads ESRCH. */
#define KEPT_MAX 32
static struct {
	int pid, tid, fd; /* fd 0: a free slot (fd 0 itself is never kept) */
	enum proc_file file;
	unsigned long used;
} kept[KEPT_MAX];
static unsigned long kept_clock;

static int kept_find(int pid, int tid, enum proc_file f)
{
	int i;

	if (f == PROC_STATUS)
		tid = 0;
	for (i = 0; i < KEPT_MAX; i++)
		if (kept[i].fd > 0 && kept[i].pid == pid && kept[i].tid == tid && kept[i].file == f)
			return i;
	return -1;
}

/* Takes a kept fd out (the caller closes it): -1 if none. */
static int kept_take(int pid, int tid, enum proc_file f)
{
	int i = kept_find(pid, tid, f), fd;

	if (i < 0)
		return -1;
	fd = kept[i].fd;
	kept[i].fd = 0;
	return fd;
}

static void kept_put(int pid, int tid, enum proc_file f, int fd)
{
	int i, victim = 0;

	if (fd == 0) { /* skas started with stdin closed */
		close(fd);
		return;
	}
	for (i = 0; i < KEPT_MAX; i++) {
		if (kept[i].fd <= 0) {
			victim = i;
			break;
		}
		if (kept[i].used < kept[victim].used)
			victim = i;
	}
	if (kept[victim].fd > 0)
		close(kept[victim].fd);
	kept[victim].pid = pid;
	kept[victim].tid = f == PROC_STATUS ? 0 : tid;
	kept[victim].file = f;
	kept[victim].fd = fd;
	kept[victim].used = ++kept_clock;
}

/* Reads a file of a live thread (or its stub) through a kept fd, opening
 * and keeping one if there is none: the length read or -errno. */
static long read_kept(int pid, int tid, enum proc_file f, char *buf, size_t size)
{
	int i = kept_find(pid, tid, f), fd;
	long n;

	if (i >= 0) {
		kept[i].used = ++kept_clock;
		n = read_small(kept[i].fd, buf, size);
		if (n > 0)
			return n;
		close(kept_take(pid, tid, f)); /* gone: another of the same number? */
	}
	fd = open_file(pid, tid, f);
	n = read_small(fd, buf, size);
	if (n > 0)
		kept_put(pid, tid, f, fd);
	else if (fd >= 0)
		close(fd);
	return n;
}

static int parse_stat(char *buf, struct host_cputime *out)
{
	unsigned long long v[13];
	char *p;
	int i;

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
	return 0;
}

/* A "Name:   N kB" line of /proc/PID/status (name with its newline):
 * N, or 0 if none. */
static long status_kb(const char *buf, const char *name)
{
	const char *p = strstr(buf, name);

	return p ? strtol(p + strlen(name), NULL, 10) : 0;
}

static long parse_maxrss(const char *buf)
{
	return status_kb(buf, "\nVmHWM:");
}

/* The last reads of a thread that goes (and of its stub, with status):
 * the fds kept for them are taken, the others opened together; all are
 * closed together. */
static void read_last(int pid, int tid, bool status, char bufs[PROC_FILES][4096],
		      long n[PROC_FILES])
{
	int fd[PROC_FILES], f;

	for (f = 0; f < PROC_FILES; f++) {
		fd[f] = -1;
		n[f] = -ENOENT;
		if (f == PROC_STATUS && !status)
			continue;
		fd[f] = kept_take(pid, tid, f);
		if (fd[f] < 0)
			fd[f] = open_file(pid, tid, f);
	}
	for (f = 0; f < PROC_FILES; f++)
		if (fd[f] >= 0)
			n[f] = read_small(fd[f], bufs[f], sizeof(bufs[f]));
	close_fds(fd, PROC_FILES);
}

void host_cputime_forget(int pid, int tid)
{
	int fd[PROC_FILES], f;

	for (f = 0; f < PROC_FILES; f++)
		fd[f] = kept_take(pid, tid, f);
	close_fds(fd, PROC_FILES);
}

int host_thread_cputime(int pid, int tid, bool last, struct host_cputime *out, long *maxrss_kb)
{
	static char bufs[PROC_FILES][4096]; /* off the small kernel stacks */
	long n[PROC_FILES];
	int ret, f;

	memset(out, 0, sizeof(*out));
	if (maxrss_kb)
		*maxrss_kb = -ESRCH;
	if (pid <= 0 || tid <= 0)
		return -ESRCH;
	if (last)
		read_last(pid, tid, maxrss_kb != NULL, bufs, n);
	else
		for (f = 0; f < PROC_FILES; f++)
			n[f] = f == PROC_STATUS && !maxrss_kb
				       ? -ENOENT
				       : read_kept(pid, tid, f, bufs[f], sizeof(bufs[f]));
	ret = n[PROC_STAT] < 0 ? (int)n[PROC_STAT] : parse_stat(bufs[PROC_STAT], out);
	if (ret == 0 && n[PROC_SCHEDSTAT] > 0)
		out->rt_ns = (int64_t)strtoull(bufs[PROC_SCHEDSTAT], NULL, 10);
	/* Without schedstat (or before the first update): the ticks. */
	if (out->rt_ns == 0)
		out->rt_ns = (int64_t)(out->uticks + out->sticks) * 10000000LL;
	if (maxrss_kb)
		*maxrss_kb = n[PROC_STATUS] < 0 ? n[PROC_STATUS] : parse_maxrss(bufs[PROC_STATUS]);
	return ret;
}

int64_t host_thread_runtime_ns(int pid, int tid)
{
	struct host_cputime c;
	char buf[128];
	int64_t ns = 0;

	if (pid <= 0 || tid <= 0)
		return 0;
	if (read_kept(pid, tid, PROC_SCHEDSTAT, buf, sizeof(buf)) > 0)
		ns = (int64_t)strtoull(buf, NULL, 10);
	if (ns == 0 && host_thread_cputime(pid, tid, false, &c, NULL) == 0)
		ns = c.rt_ns;
	return ns;
}

int host_thread_cpu(int pid, int tid)
{
	char buf[1024], *p;
	int field;

	if (pid <= 0 || tid <= 0 || read_kept(pid, tid, PROC_STAT, buf, sizeof(buf)) <= 0)
		return -ESRCH;
	/* After "pid (comm) ": state (field 3) ... processor (field 39). */
	p = strrchr(buf, ')');
	if (!p)
		return -EIO;
	for (field = 2; field < 39 && p; field++)
		p = strchr(p + 1, ' ');
	return p ? (int)strtol(p + 1, NULL, 10) : -EIO;
}

/* A stub's /proc/PID/status into buf: its length or -errno. */
static long read_status(int pid, char *buf, size_t size)
{
	char path[48];
	int fd;
	long n;

	if (pid <= 0)
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	fd = proc_open(path);
	n = read_small(fd, buf, size);
	if (fd >= 0)
		close(fd);
	return n;
}

long host_proc_maxrss_kb(int pid)
{
	char buf[4096];
	long n = read_status(pid, buf, sizeof(buf));

	return n < 0 ? n : parse_maxrss(buf);
}

int host_proc_rss(int pid, struct host_rss *out)
{
	char buf[4096];
	long n = read_status(pid, buf, sizeof(buf));

	memset(out, 0, sizeof(*out));
	if (n < 0)
		return (int)n;
	out->anon_kb = status_kb(buf, "\nRssAnon:");
	out->file_kb = status_kb(buf, "\nRssFile:");
	out->shmem_kb = status_kb(buf, "\nRssShmem:");
	out->hwm_kb = status_kb(buf, "\nVmHWM:");
	return 0;
}

/* A stub's /proc/PID/smaps, whole (it can be long: about 1 KiB a
 * mapping): a malloc'ed NUL-terminated text, or NULL. */
static char *read_all(int fd)
{
	size_t cap = 65536, len = 0;
	char *buf = malloc(cap), *nb;
	ssize_t r;

	while (buf) {
		if (cap - len < 4097) {
			nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0) {
				buf[len] = 0;
				return buf;
			}
			break;
		}
		len += (size_t)r;
	}
	free(buf);
	return NULL;
}

static const char *const smap_names[HOST_SM_N] = {
	[HOST_SM_RSS] = "Rss",
	[HOST_SM_PSS] = "Pss",
	[HOST_SM_PSS_DIRTY] = "Pss_Dirty",
	[HOST_SM_SHARED_CLEAN] = "Shared_Clean",
	[HOST_SM_SHARED_DIRTY] = "Shared_Dirty",
	[HOST_SM_PRIVATE_CLEAN] = "Private_Clean",
	[HOST_SM_PRIVATE_DIRTY] = "Private_Dirty",
	[HOST_SM_REFERENCED] = "Referenced",
	[HOST_SM_ANONYMOUS] = "Anonymous",
	[HOST_SM_LAZYFREE] = "LazyFree",
	[HOST_SM_ANONHUGE] = "AnonHugePages",
	[HOST_SM_SWAP] = "Swap",
	[HOST_SM_SWAPPSS] = "SwapPss",
	[HOST_SM_LOCKED] = "Locked",
};

const char *host_smap_name(int i)
{
	return smap_names[i];
}

/* Room in the array *v (of *cap elements of size, n used) for one more:
 * it doubles when full. False when no memory (*v is left as it was). */
static bool room(void *v, long n, long *cap, size_t size)
{
	void **pv = v, *nv;

	if (n < *cap)
		return true;
	nv = realloc(*pv, (size_t)(*cap ? *cap * 2 : 64) * size);
	if (!nv)
		return false;
	*pv = nv;
	*cap = *cap ? *cap * 2 : 64;
	return true;
}

/* A stub's /proc/PID/name whole (read_all), or NULL with *err. */
static char *read_pid_file(int pid, const char *name, long *err)
{
	char path[48], *text;
	int fd;

	*err = -ESRCH;
	if (pid <= 0)
		return NULL;
	snprintf(path, sizeof(path), "/proc/%d/%s", pid, name);
	fd = proc_open(path);
	*err = fd;
	if (fd < 0)
		return NULL;
	text = read_all(fd);
	close(fd);
	*err = -ENOMEM;
	return text;
}

long host_proc_smaps(int pid, struct host_smap **out)
{
	char *text, *line, *next, *colon;
	struct host_smap *v = NULL;
	long n = 0, cap = 0, err;
	unsigned long long s, e;
	int i;

	*out = NULL;
	text = read_pid_file(pid, "smaps", &err);
	if (!text)
		return err;
	for (line = text; *line; line = next) {
		/* Each line on its own: sscanf measures all that follows it,
		 * which made a read of many mappings quadratic. */
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		else
			next = line + strlen(line);
		colon = strchr(line, ':');
		/* A mapping's first line starts "start-end ". */
		if (sscanf(line, "%llx-%llx ", &s, &e) == 2 &&
		    (!colon || colon > strchr(line, ' '))) {
			if (!room(&v, n, &cap, sizeof(*v))) {
				free(v);
				free(text);
				return -ENOMEM;
			}
			memset(&v[n], 0, sizeof(v[n]));
			v[n].start = s;
			v[n].end = e;
			n++;
			continue;
		}
		if (!n || !colon)
			continue;
		for (i = 0; i < HOST_SM_N; i++)
			if ((size_t)(colon - line) == strlen(smap_names[i]) &&
			    strncmp(line, smap_names[i], (size_t)(colon - line)) == 0)
				v[n - 1].kb[i] = strtoull(colon + 1, NULL, 10);
	}
	free(text);
	*out = v;
	return n;
}

/* PAGEMAP_SCAN (Linux 6.7's linux/fs.h, not in older headers). */
struct pm_page_region {
	uint64_t start, end, categories;
};
struct pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};
_Static_assert(sizeof(struct pm_scan_arg) == 96, "pm_scan_arg");
#define PM_PAGE_IS_PRESENT (1 << 3)
#define PM_PAGE_IS_PFNZERO (1 << 5)
#define PM_ENTRY_PRESENT   (1ULL << 63)

/* Without PAGEMAP_SCAN: the page map's entries, 512 at a time. cls (if
 * not NULL) gets 1 for each present page (the zero page is not told
 * apart); the count stops once it reaches max (0: no limit). */
static long pages_present_read(int fd, uint64_t start, uint64_t end, unsigned char *cls, long max)
{
	uint64_t pm[512], at = start;
	long sum = 0;

	while (at < end && (!max || sum < max)) {
		uint64_t n = (end - at) / 4096, i;
		ssize_t r;

		if (n > 512)
			n = 512;
		do
			r = pread(fd, pm, n * 8, (off_t)(at / 4096 * 8));
		while (r < 0 && errno == EINTR);
		if (r < 0)
			return -errno;
		if (r < 8)
			break;
		for (i = 0; i < (uint64_t)r / 8; i++) {
			bool present = pm[i] & PM_ENTRY_PRESENT;

			sum += present;
			if (cls)
				cls[(at - start) / 4096 + i] = present;
		}
		at += (uint64_t)r / 8 * 4096;
	}
	return sum;
}

/* PAGEMAP_SCAN over [start, end), the walk skipping what the page tables
 * do not hold (a terabyte in a few ms): with cls, each present page's
 * class there (1, or 2 for the zero page; 0 for none) and the count of
 * present pages; without, the count of present pages but the zero page,
 * up to max (0: no limit). */
static long pagemap_scan(int fd, uint64_t start, uint64_t end, unsigned char *cls, long max)
{
	struct pm_page_region r[64];
	struct pm_scan_arg a;
	uint64_t at = start, p;
	long sum = 0, n, i;

	if (cls)
		memset(cls, 0, (end - start) / 4096);
	while (at < end && (!max || sum < max)) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.start = at;
		a.end = end;
		a.vec = (uint64_t)(uintptr_t)r;
		a.vec_len = 64;
		a.max_pages = max ? (uint64_t)(max - sum) : 0;
		a.category_mask = PM_PAGE_IS_PRESENT | (cls ? 0 : PM_PAGE_IS_PFNZERO);
		a.category_inverted = cls ? 0 : PM_PAGE_IS_PFNZERO;
		a.return_mask = PM_PAGE_IS_PRESENT | PM_PAGE_IS_PFNZERO;
		n = ioctl(fd, HOST_PAGEMAP_SCAN, &a);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			if (errno != ENOTTY && errno != EINVAL)
				return -errno;
			n = pages_present_read(fd, at, end, cls ? cls + (at - start) / 4096 : NULL,
					       max ? max - sum : 0);
			return n < 0 ? n : sum + n;
		}
		for (i = 0; i < n; i++) {
			sum += (long)((r[i].end - r[i].start) / 4096);
			for (p = r[i].start; cls && p < r[i].end; p += 4096)
				cls[(p - start) / 4096] =
					(r[i].categories & PM_PAGE_IS_PFNZERO) ? 2 : 1;
		}
		if (a.walk_end <= at)
			break;
		at = a.walk_end;
	}
	return sum;
}

int host_pagemap_open(int pid)
{
	char path[48];

	if (pid <= 0)
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/pagemap", pid);
	return proc_open(path);
}

long host_pagemap_present(int fd, uint64_t start, uint64_t end, long max)
{
	return pagemap_scan(fd, start, end, NULL, max);
}

int host_pagemap_classes(int fd, uint64_t start, uint64_t end, unsigned char *cls)
{
	long n = pagemap_scan(fd, start, end, cls, 0);

	return n < 0 ? (int)n : 0;
}

/* One numa_maps field: "key=N" at *s (moved past it). */
static bool numa_field(const char **s, const char *key, uint64_t *v)
{
	size_t n = strlen(key);

	if (strncmp(*s, key, n) != 0 || (*s)[n] != '=')
		return false;
	*v = strtoull(*s + n + 1, NULL, 10);
	return true;
}

long host_proc_numa_maps(int pid, struct host_numa **out)
{
	static const char *const names[HOST_NUMA_N] = {
		[HOST_NUMA_ANON] = "anon",     [HOST_NUMA_DIRTY] = "dirty",
		[HOST_NUMA_MAPMAX] = "mapmax", [HOST_NUMA_SWAPCACHE] = "swapcache",
		[HOST_NUMA_ACTIVE] = "active", [HOST_NUMA_WRITEBACK] = "writeback",
	};
	char *text, *line, *next;
	struct host_numa *v = NULL;
	long n = 0, cap = 0, err;
	int i;

	*out = NULL;
	text = read_pid_file(pid, "numa_maps", &err);
	if (!text)
		return err;
	for (line = text; *line; line = next) {
		const char *s;
		bool has_active = false;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		else
			next = line + strlen(line);
		if (!room(&v, n, &cap, sizeof(*v))) {
			free(v);
			free(text);
			return -ENOMEM;
		}
		memset(&v[n], 0, sizeof(v[n]));
		v[n].start = strtoull(line, NULL, 16);
		/* Each field after the address and policy, " key=value". */
		for (s = strchr(line, ' '); s; s = strchr(s, ' ')) {
			uint64_t x;

			s++;
			if (s[0] == 'N' && s[1] >= '0' && s[1] <= '9') {
				v[n].pages +=
					strtoull(strchr(s, '=') ? strchr(s, '=') + 1 : s, NULL, 10);
				continue;
			}
			for (i = 0; i < HOST_NUMA_N; i++)
				if (numa_field(&s, names[i], &x)) {
					v[n].count[i] = x;
					has_active |= i == HOST_NUMA_ACTIVE;
				}
		}
		/* Linux prints active only when fewer than the pages. */
		if (!has_active)
			v[n].count[HOST_NUMA_ACTIVE] = v[n].pages;
		n++;
	}
	free(text);
	/* The ends: /proc/PID/maps has the same mappings in the same order
	 * (a mapping gone or come between the two reads: none of it is
	 * counted). */
	text = read_pid_file(pid, "maps", &err);
	i = 0;
	for (line = text; line && *line && i < n; line = next) {
		unsigned long long ms, me;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		else
			next = line + strlen(line);
		if (sscanf(line, "%llx-%llx", &ms, &me) == 2 && ms == v[i].start)
			v[i].end = me;
		i++;
	}
	free(text);
	*out = v;
	return n;
}
