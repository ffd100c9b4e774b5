/* Time namespaces: unshare(CLONE_NEWTIME) makes the namespace of the
 * caller's next children and exec, /proc/PID/timens_offsets sets its
 * offsets until a task enters it (then EACCES), and a task in it reads
 * CLOCK_MONOTONIC (RAW, COARSE) and CLOCK_BOOTTIME shifted, through the
 * vDSO (glibc's clock_gettime) and the system call alike, while
 * CLOCK_REALTIME is the same. Absolute deadlines on the shifted clocks
 * (clock_nanosleep, timerfd, POSIX timers, futex waits) are taken back by
 * the offsets: a deadline 50 ms ahead on the task's clock comes in 50 ms.
 * Also: the parse and range errors of the offsets file, no thread or vfork
 * after the unshare (EINVAL), clone3(CLONE_NEWTIME), setns into one (the
 * caller's clocks move at once), a nested unshare inheriting the offsets,
 * a user namespace's root making one, sysinfo's and /proc/uptime's
 * uptime, /proc/stat's btime, /proc/PID/stat's starttime. Run as root. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/timerfd.h>
#include <sys/wait.h>

#define TAP_FLUSH
#include "ns_util.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x80
#endif
#define NS_GET_PARENT	     0xb702
#define NS_GET_NSTYPE	     0xb703
#define FUTEX_WAIT_BITSET    9
#define FUTEX_CLOCK_REALTIME 256

#define MONO_OFF 1000 /* seconds */
#define BOOT_OFF 2000

static int64_t now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t sys_now_ns(clockid_t c)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, c, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static ino_t ns_ino(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_ino : 0;
}

static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY), len;

	if (fd < 0)
		return -1;
	len = (int)read(fd, buf, size - 1);
	close(fd);
	buf[len > 0 ? len : 0] = 0;
	return len;
}

/* write(2) of s to the offsets file of pid (0: self): its result's errno,
 * 0 when it took all of s. */
static long write_offsets(pid_t pid, const char *s)
{
	char path[64];
	int fd;
	long r;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/timens_offsets", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/timens_offsets");
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	r = write(fd, s, strlen(s));
	r = r == (long)strlen(s) ? 0 : r < 0 ? errno : -r;
	close(fd);
	return r;
}

/* Is got within [want - slack, want + slack] nanoseconds? */
static int near(int64_t got, int64_t want, int64_t slack)
{
	return got >= want - slack && got <= want + slack;
}

#define SEC 1000000000LL

static void *idle(void *arg)
{
	return arg;
}

/* The time namespace of the thread it runs in, into *arg. */
static void *thread_ns(void *arg)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%ld/ns/time", (long)syscall(SYS_gettid));
	*(ino_t *)arg = ns_ino(path);
	return NULL;
}

static volatile sig_atomic_t fired;

static void on_alarm(int sig)
{
	(void)sig;
	fired = 1;
}

/* 50 ms from now on clock c, as the caller reads it. */
static struct timespec soon(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	ts.tv_nsec += 50000000;
	if (ts.tv_nsec >= SEC) {
		ts.tv_sec++;
		ts.tv_nsec -= SEC;
	}
	return ts;
}

/* Field 22 of /proc/self/stat. */
static unsigned long long starttime(void)
{
	char buf[1024], *p;
	int i;

	if (read_file("/proc/self/stat", buf, sizeof(buf)) <= 0 || !(p = strrchr(buf, ')')))
		return 0;
	for (i = 2; i < 22 && p; i++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

/* /proc/stat's btime. */
static long long btime(void)
{
	char buf[8192], *p;

	if (read_file("/proc/stat", buf, sizeof(buf)) <= 0 || !(p = strstr(buf, "\nbtime ")))
		return 0;
	return atoll(p + 7);
}

static long long btime_root; /* btime in the first namespace */

/* In a process of the namespace: its clocks and deadlines. */
static void clocks_inside(int64_t mono_off, int64_t boot_off)
{
	int64_t before, waited;
	struct timespec ts;
	struct sysinfo si;
	char buf[256];

	check(near(now_ns(CLOCK_MONOTONIC) - sys_now_ns(CLOCK_MONOTONIC), 0, SEC / 2),
	      "the vDSO's CLOCK_MONOTONIC is the system call's");
	check(near(now_ns(CLOCK_REALTIME) - sys_now_ns(CLOCK_REALTIME), 0, SEC / 2),
	      "the vDSO's CLOCK_REALTIME is the system call's");
	check(near(now_ns(CLOCK_BOOTTIME) - now_ns(CLOCK_MONOTONIC), boot_off - mono_off,
		   SEC * 100000),
	      "CLOCK_BOOTTIME moved by its own offset");
	check(near(now_ns(CLOCK_MONOTONIC_RAW) - now_ns(CLOCK_MONOTONIC), 0, SEC / 2) &&
		      near(now_ns(CLOCK_MONOTONIC_COARSE) - now_ns(CLOCK_MONOTONIC), 0, SEC / 2),
	      "CLOCK_MONOTONIC_RAW and _COARSE moved with CLOCK_MONOTONIC");

	/* deadlines 50 ms ahead on the moved clocks */
	before = now_ns(CLOCK_REALTIME);
	ts = soon(CLOCK_MONOTONIC);
	check(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == 0,
	      "clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)");
	waited = now_ns(CLOCK_REALTIME) - before;
	check(waited >= 40000000 && waited < 5 * SEC, "it slept about 50 ms");

	before = now_ns(CLOCK_REALTIME);
	ts = soon(CLOCK_BOOTTIME);
	check(clock_nanosleep(CLOCK_BOOTTIME, TIMER_ABSTIME, &ts, NULL) == 0 &&
		      now_ns(CLOCK_REALTIME) - before < 5 * SEC,
	      "clock_nanosleep(CLOCK_BOOTTIME, TIMER_ABSTIME) comes in time");

	{
		int fd = timerfd_create(CLOCK_MONOTONIC, 0);
		struct itimerspec its = { { 0, 0 }, { 0, 0 } };
		uint64_t ticks = 0;

		its.it_value = soon(CLOCK_MONOTONIC);
		before = now_ns(CLOCK_REALTIME);
		check(timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL) == 0 &&
			      read(fd, &ticks, sizeof(ticks)) == sizeof(ticks) && ticks == 1,
		      "an absolute timerfd on CLOCK_MONOTONIC fires");
		waited = now_ns(CLOCK_REALTIME) - before;
		check(waited >= 30000000 && waited < 5 * SEC, "after about 50 ms");
		close(fd);
	}
	{
		struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM };
		struct itimerspec its = { { 0, 0 }, { 0, 0 } };
		timer_t tm;

		signal(SIGALRM, on_alarm);
		fired = 0;
		its.it_value = soon(CLOCK_BOOTTIME);
		before = now_ns(CLOCK_REALTIME);
		check(timer_create(CLOCK_BOOTTIME, &sev, &tm) == 0 &&
			      timer_settime(tm, TIMER_ABSTIME, &its, NULL) == 0,
		      "an absolute POSIX timer on CLOCK_BOOTTIME");
		while (!fired && now_ns(CLOCK_REALTIME) - before < 5 * SEC)
			usleep(1000);
		check(fired, "fires in time");
		timer_delete(tm);
	}
	{
		uint32_t word = 0;
		long r;

		ts = soon(CLOCK_MONOTONIC);
		before = now_ns(CLOCK_REALTIME);
		r = syscall(SYS_futex, &word, FUTEX_WAIT_BITSET, 0, &ts, NULL, ~0U);
		check(r == -1 && errno == ETIMEDOUT && now_ns(CLOCK_REALTIME) - before < 5 * SEC,
		      "FUTEX_WAIT_BITSET's absolute CLOCK_MONOTONIC deadline: ETIMEDOUT in time");
	}
	{
		/* deadlines before the offsets: passed already */
		struct timespec one = { 1, 0 };
		uint32_t word = 0;
		long r;

		before = now_ns(CLOCK_REALTIME);
		r = syscall(SYS_futex, &word, FUTEX_WAIT_BITSET, 0, &one, NULL, ~0U);
		check(r == -1 && errno == ETIMEDOUT && now_ns(CLOCK_REALTIME) - before < 5 * SEC,
		      "FUTEX_WAIT_BITSET at 1 s of CLOCK_MONOTONIC: ETIMEDOUT at once");
		r = syscall(SYS_futex, &word, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, 0, &one,
			    NULL, ~0U);
		check(r == -1 && errno == ETIMEDOUT && now_ns(CLOCK_REALTIME) - before < 5 * SEC,
		      "FUTEX_WAIT_BITSET at 1 s of CLOCK_REALTIME: ETIMEDOUT at once");
	}
	{
		/* a periodic timerfd from 1 s: its ticks count from the
		 * host's second 1 */
		int fd = timerfd_create(CLOCK_MONOTONIC, 0);
		struct itimerspec its = { { 1, 0 }, { 1, 0 } };
		uint64_t ticks = 0;
		int64_t host_s = (now_ns(CLOCK_MONOTONIC) - mono_off) / SEC;

		check(timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL) == 0 &&
			      read(fd, &ticks, sizeof(ticks)) == sizeof(ticks) &&
			      near((int64_t)ticks, host_s, 3),
		      "a periodic timerfd from a time before the offset counts the host's seconds");
		close(fd);
	}
	check(starttime() >= (unsigned long long)(boot_off / (SEC / 100)),
	      "/proc/self/stat's starttime has the offset");
	check(btime() != 0 && near(btime_root - btime(), (boot_off + SEC - 1) / SEC, 1),
	      "/proc/stat's btime is earlier by it");
	check(sysinfo(&si) == 0 && si.uptime >= boot_off / SEC, "sysinfo's uptime has the offset");
	check(read_file("/proc/uptime", buf, sizeof(buf)) > 0 && atol(buf) >= boot_off / SEC,
	      "/proc/uptime has the offset");
}

static void with_setns(void);

/* The test again, in exec mode, its checks numbered on from here. */
static void exec_self(void)
{
	char num[16];

	fflush(stdout);
	snprintf(num, sizeof(num), "%d", n);
	execl("/proc/self/exe", "timens", "exec", num, NULL);
	_exit(127);
}

/* The namespace's tasks: a fork's child, and what it execs. */
static pid_t keeper; /* a child in the namespace, for setns */
static int keeper_pipe[2];

static void made_by_unshare(void)
{
	int64_t mono = now_ns(CLOCK_MONOTONIC), boot = now_ns(CLOCK_BOOTTIME);
	int64_t real = now_ns(CLOCK_REALTIME);
	ino_t own = ns_ino("/proc/self/ns/time");
	char buf[256], want[256];
	int st, p[2];
	pid_t pid;

	btime_root = btime();
	check_ok(err_of(unshare(CLONE_NEWTIME)), "unshare(CLONE_NEWTIME)");
	check(ns_ino("/proc/self/ns/time") == own, "the caller stays in its time namespace");
	check(ns_ino("/proc/self/ns/time_for_children") != own, "time_for_children is the new one");
	check(read_file("/proc/self/timens_offsets", buf, sizeof(buf)) > 0, "read timens_offsets");
	check_str(buf, "monotonic           0         0\nboottime            0         0\n",
		  "a new namespace's offsets are its parent's: none");

	/* the file's checks */
	check_errno(write_offsets(0, "foo 1 0\n"), EINVAL, "EINVAL", "an unknown clock");
	check_errno(write_offsets(0, "realtime 1 0\n"), EINVAL, "EINVAL", "CLOCK_REALTIME");
	check_errno(write_offsets(0, "0 1 0\n"), EINVAL, "EINVAL", "clock id 0");
	check_errno(write_offsets(0, "monotonic 1\n"), EINVAL, "EINVAL", "no nanoseconds");
	check_errno(write_offsets(0, "monotonic 1 1000000000\n"), EINVAL, "EINVAL",
		    "nanoseconds past a second");
	check_errno(write_offsets(0, "monotonic 1 -1\n"), EINVAL, "EINVAL", "negative nanoseconds");
	check_errno(write_offsets(0, "monotonic +1 0\n"), EINVAL, "EINVAL", "a plus sign");
	check_errno(write_offsets(0, "monotonic 1 0\n\n"), EINVAL, "EINVAL", "an empty line");
	check_errno(write_offsets(0, "monotonicx 1 0\n"), EINVAL, "EINVAL",
		    "a clock name too long");
	check_errno(write_offsets(0, "monotonic 10000000000 0\n"), ERANGE, "ERANGE",
		    "past KTIME_SEC_MAX");
	check_errno(write_offsets(0, "boottime -9000000000 0\n"), ERANGE, "ERANGE",
		    "a clock that would go below 0");
	check_errno(write_offsets(0, "monotonic 5000000000 0\n"), ERANGE, "ERANGE",
		    "a clock past KTIME_SEC_MAX / 2");
	{
		int fd = open("/proc/self/timens_offsets", O_WRONLY);

		check_errno(err_of(pwrite(fd, "monotonic 1 0\n", 14, 0)), ESPIPE, "ESPIPE",
			    "pwrite");
		check_errno(
			err_of(lseek(fd, 1, SEEK_SET) == 1 ? write(fd, "monotonic 1 0\n", 14) : -1),
			EINVAL, "EINVAL", "a write past offset 0");
		close(fd);
	}
	{
		int fd = open("/proc/self/timens_offsets", O_RDWR);
		char got[256];
		long k;

		check(fd >= 0 && write(fd, "monotonic 3 0\n", 14) == 14 &&
			      lseek(fd, 0, SEEK_SET) == 0 &&
			      (k = read(fd, got, sizeof(got) - 1)) > 0 &&
			      (got[k] = 0, strstr(got, "monotonic           3         0\n")),
		      "a read back on the same fd shows the write");
		close(fd);
	}
	check_ok(write_offsets(0, "1 1 0\n7 2 0\n"), "clock ids 1 and 7 name them");
	check(read_file("/proc/self/timens_offsets", buf, sizeof(buf)) > 0 &&
		      strstr(buf, "monotonic           1         0\n") &&
		      strstr(buf, "boottime            2         0\n"),
	      "and set them");
	check_ok(write_offsets(0, "monotonic -1 500000000\n"), "a negative offset");
	check(read_file("/proc/self/timens_offsets", buf, sizeof(buf)) > 0 &&
		      strstr(buf, "monotonic          -1 500000000\n") &&
		      strstr(buf, "boottime            2         0\n"),
	      "reads as written; the other stays");
	snprintf(want, sizeof(want), "monotonic %d 0\nboottime %d 500000000\n", MONO_OFF, BOOT_OFF);
	check_ok(write_offsets(0, want), "both offsets in one write");
	{
		int fd = open("/proc/self/timens_offsets", O_WRONLY);
		const char *three = "monotonic 1000 0\nboottime 2000 500000000\nmonotonic 7 0\n";

		check_eq(write(fd, three, strlen(three)), 41,
			 "a third line is not taken: the write is short");
		close(fd);
	}
	check(near(now_ns(CLOCK_MONOTONIC) - mono, 0, 60 * SEC) &&
		      near(now_ns(CLOCK_BOOTTIME) - boot, 0, 60 * SEC),
	      "the caller's own clocks did not move");

	/* a thread, or a vfork child, shares the address space: it stays
	 * in the caller's namespace (a vfork child enters the new one by
	 * its exec) */
	{
		pthread_t th;
		ino_t ino = 0;

		check(pthread_create(&th, NULL, thread_ns, &ino) == 0 &&
			      pthread_join(th, NULL) == 0 && ino == own,
		      "a thread is in the caller's namespace");
		pid = vfork();
		if (pid == 0)
			_exit(ns_ino("/proc/self/ns/time") == own ? 0 : 1);
		check(exited(reap(pid), 0), "so is a vfork child");
	}

	if (pipe(p) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		int before = n;

		check(ns_ino("/proc/self/ns/time") != own, "the child is in the new namespace");
		check(near(now_ns(CLOCK_MONOTONIC) - mono, (int64_t)MONO_OFF * SEC, 60 * SEC),
		      "its CLOCK_MONOTONIC is ahead by the offset (vDSO)");
		check(near(sys_now_ns(CLOCK_MONOTONIC) - mono, (int64_t)MONO_OFF * SEC, 60 * SEC),
		      "and by the system call");
		check(near(now_ns(CLOCK_BOOTTIME) - boot, (int64_t)BOOT_OFF * SEC + SEC / 2,
			   60 * SEC),
		      "its CLOCK_BOOTTIME by its offset");
		check(near(now_ns(CLOCK_REALTIME) - real, 0, 60 * SEC),
		      "its CLOCK_REALTIME did not move");
		check_errno(write_offsets(0, "monotonic 1 0\n"), EACCES, "EACCES",
			    "the offsets of an entered namespace stay");
		clocks_inside((int64_t)MONO_OFF * SEC, (int64_t)BOOT_OFF * SEC + SEC / 2);
		{
			pthread_t th;

			check_eq(pthread_create(&th, NULL, idle, NULL), 0,
				 "inside, threads can be made");
			pthread_join(th, NULL);
		}
		/* a nested one inherits the offsets */
		check_ok(err_of(unshare(CLONE_NEWTIME)), "a nested unshare");
		check(read_file("/proc/self/timens_offsets", buf, sizeof(buf)) > 0 &&
			      strstr(buf, "monotonic        1000         0\n") &&
			      strstr(buf, "boottime         2000 500000000\n"),
		      "its offsets are its parent's");
		fflush(stdout);
		_exit(n - before);
	}
	st = reap(pid);
	n += WIFEXITED(st) ? WEXITSTATUS(st) : 0;
	check(WIFEXITED(st), "the child exited");
	check_errno(write_offsets(0, "monotonic 1 0\n"), EACCES, "EACCES",
		    "once a child entered, the offsets stay");
	{
		/* a zombie's file: empty, parsed before the process is
		 * looked for */
		char path[64];
		int fd;

		pid = fork();
		if (pid == 0)
			_exit(0);
		while (1) { /* until it is a zombie */
			char stat[256], st2[64];

			snprintf(st2, sizeof(st2), "/proc/%d/stat", pid);
			if (read_file(st2, stat, sizeof(stat)) <= 0 || strstr(stat, ") Z "))
				break;
			usleep(1000);
		}
		snprintf(path, sizeof(path), "/proc/%d/timens_offsets", pid);
		fd = open(path, O_RDWR);
		check(fd >= 0, "a zombie's timens_offsets opens");
		check_eq(read(fd, buf, sizeof(buf)), 0, "and reads empty");
		check_errno(err_of(write(fd, "bogus", 5)), EINVAL, "EINVAL", "a bad write to it");
		check_errno(err_of(write(fd, "monotonic 1 0\n", 14)), ESRCH, "ESRCH", "a good one");
		close(fd);
		reap(pid);
	}

	/* a keeper in the namespace, for setns from outside */
	keeper = fork();
	if (keeper == 0) {
		close(p[1]);
		get(p[0]);
		_exit(0);
	}
	close(p[0]);
	keeper_pipe[1] = p[1];
	/* the test again, in a mode that prints the checks of the new
	 * image */
	pid = fork();
	if (pid == 0)
		exec_self();
	st = reap(pid);
	n += WIFEXITED(st) && WEXITSTATUS(st) < 100 ? WEXITSTATUS(st) : 0;
	with_setns();
	close(keeper_pipe[1]);
	reap(keeper);
}

static void exec_mode(void)
{
	check(ns_ino("/proc/self/ns/time") == ns_ino("/proc/self/ns/time_for_children"),
	      "exec: the child's image is in its namespace");
	check(near(now_ns(CLOCK_MONOTONIC) - sys_now_ns(CLOCK_MONOTONIC), 0, SEC / 2) &&
		      near(now_ns(CLOCK_BOOTTIME) - now_ns(CLOCK_MONOTONIC),
			   (int64_t)(BOOT_OFF - MONO_OFF) * SEC + SEC / 2, 60 * SEC),
	      "exec: its clocks have the offsets, vDSO and system call alike");
}

/* unshare then exec, without a fork: the exec enters the namespace */
static void unshare_exec(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		char want[128];

		if (unshare(CLONE_NEWTIME) < 0)
			_exit(100);
		snprintf(want, sizeof(want), "monotonic %d 0\nboottime %d 500000000\n", MONO_OFF,
			 BOOT_OFF);
		if (write_offsets(0, want))
			_exit(101);
		exec_self();
	}
	st = reap(pid);
	n += WIFEXITED(st) && WEXITSTATUS(st) < 100 ? WEXITSTATUS(st) : 0;
	check(WIFEXITED(st) && WEXITSTATUS(st) < 100, "unshare and exec");
}

static void with_setns(void)
{
	char path[64];
	int fd, first = open("/proc/self/ns/time", O_RDONLY);
	int64_t mono = now_ns(CLOCK_MONOTONIC);

	snprintf(path, sizeof(path), "/proc/%d/ns/time", keeper);
	fd = open(path, O_RDONLY);
	check(fd >= 0, "open a namespace's file");
	check_eq(ioctl(fd, NS_GET_NSTYPE), CLONE_NEWTIME, "NS_GET_NSTYPE");
	check_err(ioctl(fd, NS_GET_PARENT), EINVAL, "EINVAL", "NS_GET_PARENT: none to have");
	check_ok(err_of(setns(fd, CLONE_NEWTIME)), "setns into it");
	check(ns_ino("/proc/self/ns/time") == ns_ino(path) &&
		      ns_ino("/proc/self/ns/time_for_children") == ns_ino(path),
	      "the caller and its children are in it");
	check(near(now_ns(CLOCK_MONOTONIC) - mono, (int64_t)MONO_OFF * SEC, 60 * SEC) &&
		      near(sys_now_ns(CLOCK_MONOTONIC) - mono, (int64_t)MONO_OFF * SEC, 60 * SEC),
	      "its clock moved at once, vDSO and system call alike");
	close(fd);
	check_ok(err_of(setns(first, 0)), "and back to the first one");
	check(near(now_ns(CLOCK_MONOTONIC) - mono, 0, 60 * SEC) &&
		      near(sys_now_ns(CLOCK_MONOTONIC) - mono, 0, 60 * SEC),
	      "its clock is back");
	close(first);
}

static void with_clone3(void)
{
	unsigned long long args[8] = { CLONE_NEWTIME, 0, 0, 0, SIGCHLD, 0, 0, 0 };
	ino_t own = ns_ino("/proc/self/ns/time");
	int p[2], st;
	long pid;

	if (pipe(p) < 0)
		return;
	pid = syscall(SYS_clone3, args, sizeof(args));
	if (pid == 0) {
		close(p[1]);
		get(p[0]); /* until the parent looked */
		_exit(0);
	}
	close(p[0]);
	check(pid > 0, "clone3(CLONE_NEWTIME)");
	{
		char path[64], buf[128];

		snprintf(path, sizeof(path), "/proc/%ld/ns/time", pid);
		check(ns_ino(path) != own && ns_ino(path) != 0, "the child has a new namespace");
		snprintf(path, sizeof(path), "/proc/%ld/timens_offsets", pid);
		check(read_file(path, buf, sizeof(buf)) > 0 &&
			      !strcmp(buf, "monotonic           0         0\n"
					   "boottime            0         0\n"),
		      "with no offsets");
		check_errno(write_offsets((pid_t)pid, "monotonic 1 0\n"), EACCES, "EACCES",
			    "which stay: the child entered it");
	}
	close(p[1]);
	st = reap((pid_t)pid);
	check(exited(st, 0), "it exits");
}

static void in_user_ns(void)
{
	pid_t pid;
	int st;

	check_ok(err_of(unshare(CLONE_NEWUSER | CLONE_NEWTIME)),
		 "unshare(CLONE_NEWUSER | CLONE_NEWTIME)");
	check_ok(write_offsets(0, "monotonic 100 0\n"),
		 "its root writes the offsets (CAP_SYS_TIME over it)");
	pid = fork();
	if (pid == 0)
		_exit(near(now_ns(CLOCK_MONOTONIC) - sys_now_ns(CLOCK_MONOTONIC), 0, SEC / 2) ? 0
											      : 1);
	st = reap(pid);
	check(exited(st, 0), "a child there reads the same clock from the vDSO and the call");
}

static void unprivileged(void)
{
	if (setuid(65534) < 0)
		return;
	check_err(unshare(CLONE_NEWTIME), EPERM, "EPERM", "as a user: unshare(CLONE_NEWTIME)");
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "exec")) {
		int start = n = atoi(argv[2]);

		exec_mode();
		return n - start;
	}
	{
		char buf[256];

		check(read_file("/proc/self/timens_offsets", buf, sizeof(buf)) > 0 &&
			      !strcmp(buf, "monotonic           0         0\n"
					   "boottime            0         0\n"),
		      "the first namespace's offsets are 0");
		check_errno(write_offsets(0, "monotonic 1 0\n"), EACCES, "EACCES",
			    "and cannot be set");
		check(ns_ino("/proc/self/ns/time") == ns_ino("/proc/self/ns/time_for_children"),
		      "time_for_children is time's");
		snprintf(buf, sizeof(buf), "/proc/self/task/%d/timens_offsets", getpid());
		check(access(buf, F_OK) == -1 && errno == ENOENT,
		      "a thread's directory has no timens_offsets (a process's alone)");
	}
	in_child(made_by_unshare);
	in_child(unshare_exec);
	in_child(with_clone3);
	in_child(in_user_ns);
	in_child(unprivileged);
	return 0;
}
