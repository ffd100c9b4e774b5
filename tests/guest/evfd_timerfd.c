/* timerfd_create, timerfd_settime, timerfd_gettime: the clocks, one-shot
 * and periodic timers, TFD_TIMER_ABSTIME on each clock (a periodic one
 * set in the past counts the intervals since), the old value,
 * disarming, blocking and nonblocking reads, poll, flags and errors.
 * Times are checked against bounds and never printed. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>

#define TAP_ENAME
#include "tap.h"

#ifndef TFD_TIMER_CANCEL_ON_SET
#define TFD_TIMER_CANCEL_ON_SET (1 << 1)
#endif

#define MS 1000000LL

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int64_t now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static struct timespec ts_of(int64_t ns)
{
	struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL };

	return ts;
}

static int64_t ns_of(struct timespec ts)
{
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int arm(int fd, int flags, int64_t value_ns, int64_t interval_ns)
{
	struct itimerspec its;

	its.it_value = ts_of(value_ns);
	its.it_interval = ts_of(interval_ns);
	return timerfd_settime(fd, flags, &its, NULL);
}

/* Expirations: a blocking or nonblocking read, or (uint64_t)-1 on error. */
static uint64_t rd(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return (uint64_t)-1;
	return v;
}

static short revents(int fd, int timeout_ms)
{
	struct pollfd p = { fd, POLLIN | POLLOUT, 0 };

	if (poll(&p, 1, timeout_ms) < 0)
		return -1;
	return p.revents;
}

static void test_create(void)
{
	int fd;

	check_err(timerfd_create(CLOCK_TAI, 0), EINVAL, "CLOCK_TAI");
	check_err(timerfd_create(CLOCK_PROCESS_CPUTIME_ID, 0), EINVAL, "CLOCK_PROCESS_CPUTIME_ID");
	check_err(timerfd_create(CLOCK_MONOTONIC_RAW, 0), EINVAL, "CLOCK_MONOTONIC_RAW");
	check_err(timerfd_create(-1, 0), EINVAL, "clock -1");
	check_err(timerfd_create(CLOCK_MONOTONIC, 1), EINVAL, "unknown flag");
	fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	check(fd >= 0, "CLOCK_MONOTONIC, TFD_NONBLOCK|TFD_CLOEXEC");
	check(fcntl(fd, F_GETFD) == FD_CLOEXEC, "close-on-exec set");
	check((fcntl(fd, F_GETFL) & (O_ACCMODE | O_NONBLOCK)) == (O_RDWR | O_NONBLOCK),
	      "O_RDWR|O_NONBLOCK");
	close(fd);
	fd = timerfd_create(CLOCK_REALTIME, 0);
	check(fd >= 0 && fcntl(fd, F_GETFD) == 0, "CLOCK_REALTIME, no flags");
	close(fd);
	fd = timerfd_create(CLOCK_BOOTTIME, 0);
	check(fd >= 0, "CLOCK_BOOTTIME");
	close(fd);
}

static void test_oneshot(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);
	struct itimerspec cur;
	uint64_t v;
	int64_t t0;

	check(timerfd_gettime(fd, &cur) == 0 && ns_of(cur.it_value) == 0 &&
		      ns_of(cur.it_interval) == 0,
	      "a new timer is disarmed");
	check_err(read(fd, &v, 4), EINVAL, "read of 4 bytes");
	t0 = now_ns(CLOCK_MONOTONIC);
	/* 300 ms: the three calls before expiry must fit in it even on a
	 * loaded machine (under ptrace 40 ms did not always). */
	check(arm(fd, 0, 300 * MS, 0) == 0, "arm a 300 ms one-shot");
	check(timerfd_gettime(fd, &cur) == 0 && ns_of(cur.it_value) > 0 &&
		      ns_of(cur.it_value) <= 300 * MS && ns_of(cur.it_interval) == 0,
	      "gettime: time left in (0, 300 ms]");
	check(revents(fd, 0) == 0, "not readable before it expires");
	check(fcntl(fd, F_SETFL, O_NONBLOCK) == 0, "make it nonblocking");
	check_err(read(fd, &v, 8), EAGAIN, "nonblocking read before expiry");
	fcntl(fd, F_SETFL, 0);
	check(rd(fd) == 1, "blocking read: 1 expiration");
	check(now_ns(CLOCK_MONOTONIC) - t0 >= 299 * MS, "not before its time");
	check(timerfd_gettime(fd, &cur) == 0 && ns_of(cur.it_value) == 0,
	      "gettime after expiry: disarmed");

	check(arm(fd, 0, 10 * MS, 0) == 0, "arm 10 ms");
	check(revents(fd, 1000) == POLLIN, "poll: POLLIN on expiry");
	check(revents(fd, 0) == POLLIN, "poll: stays readable until read");
	check(rd(fd) == 1, "read: 1");
	check(revents(fd, 0) == 0, "not readable after the read");
	close(fd);
}

static void test_periodic(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);
	struct itimerspec cur;
	uint64_t v;

	check(arm(fd, 0, 10 * MS, 10 * MS) == 0, "arm 10 ms every 10 ms");
	sleep_ms(55);
	v = rd(fd);
	check(v >= 4 && v != (uint64_t)-1, "after 55 ms: at least 4 expirations");
	check(rd(fd) >= 1, "the next read blocks for the next one");
	check(timerfd_gettime(fd, &cur) == 0 && ns_of(cur.it_value) > 0 &&
		      ns_of(cur.it_value) <= 10 * MS && ns_of(cur.it_interval) == 10 * MS,
	      "gettime: next expiry within the interval, the interval");
	close(fd);
}

static void test_settime_old_and_disarm(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	struct itimerspec its, old;
	uint64_t v;

	arm(fd, 0, 1000 * MS, 500 * MS);
	memset(&its, 0, sizeof(its));
	memset(&old, 0xff, sizeof(old));
	check(timerfd_settime(fd, 0, &its, &old) == 0, "disarm with a zero it_value");
	check(ns_of(old.it_value) > 900 * MS && ns_of(old.it_value) <= 1000 * MS,
	      "old it_value: about 1 s left");
	check(ns_of(old.it_interval) == 500 * MS, "old it_interval: 500 ms");
	check(timerfd_gettime(fd, &old) == 0 && ns_of(old.it_value) == 0, "gettime: disarmed");

	arm(fd, 0, 10 * MS, 0);
	memset(&its, 0, sizeof(its));
	timerfd_settime(fd, 0, &its, NULL);
	sleep_ms(30);
	check_err(read(fd, &v, 8), EAGAIN, "a disarmed timer never expires");

	arm(fd, 0, 5 * MS, 0);
	sleep_ms(20);
	check(revents(fd, 0) == POLLIN, "expired");
	arm(fd, 0, 1000 * MS, 0);
	check_err(read(fd, &v, 8), EAGAIN, "settime forgets unread expirations");
	close(fd);
}

static void test_abstime(clockid_t c, const char *name)
{
	int fd = timerfd_create(c, 0);
	char what[96];
	int64_t t0 = now_ns(CLOCK_MONOTONIC);
	struct itimerspec cur;
	uint64_t v;

	snprintf(what, sizeof(what), "%s: TFD_TIMER_ABSTIME 30 ms ahead", name);
	check(arm(fd, TFD_TIMER_ABSTIME, now_ns(c) + 30 * MS, 0) == 0, what);
	snprintf(what, sizeof(what), "%s: gettime is relative", name);
	check(timerfd_gettime(fd, &cur) == 0 && ns_of(cur.it_value) > 0 &&
		      ns_of(cur.it_value) <= 30 * MS,
	      what);
	snprintf(what, sizeof(what), "%s: read blocks until then", name);
	check(rd(fd) == 1 && now_ns(CLOCK_MONOTONIC) - t0 >= 25 * MS, what);
	snprintf(what, sizeof(what), "%s: a deadline in the past expires at once", name);
	check(arm(fd, TFD_TIMER_ABSTIME, now_ns(c) - 1000 * MS, 0) == 0 &&
		      revents(fd, 1000) == POLLIN && rd(fd) == 1,
	      what);
	snprintf(what, sizeof(what), "%s: a periodic deadline 1 s past counts the intervals since",
		 name);
	v = arm(fd, TFD_TIMER_ABSTIME, now_ns(c) - 1000 * MS, 100 * MS) == 0 ? rd(fd) : 0;
	check(v >= 10 && v <= 12, what);
	snprintf(what, sizeof(what), "%s: relative 10 ms", name);
	check(arm(fd, 0, 10 * MS, 0) == 0 && rd(fd) == 1, what);
	close(fd);
}

static void test_errors(void)
{
	int fd = timerfd_create(CLOCK_REALTIME, 0), efd = eventfd(0, 0);
	struct itimerspec its, cur;

	memset(&its, 0, sizeof(its));
	its.it_value.tv_nsec = 1000000000;
	check_err(timerfd_settime(fd, 0, &its, NULL), EINVAL, "it_value.tv_nsec = 1e9");
	its.it_value.tv_nsec = 0;
	its.it_value.tv_sec = -1;
	check_err(timerfd_settime(fd, 0, &its, NULL), EINVAL, "it_value.tv_sec = -1");
	its.it_value.tv_sec = 1;
	its.it_interval.tv_nsec = -1;
	check_err(timerfd_settime(fd, 0, &its, NULL), EINVAL, "it_interval.tv_nsec = -1");
	its.it_interval.tv_nsec = 0;
	check_err(timerfd_settime(fd, 4, &its, NULL), EINVAL, "unknown settime flag");
	check_err(timerfd_settime(efd, 0, &its, NULL), EINVAL, "settime on an eventfd");
	check_err(timerfd_gettime(efd, &cur), EINVAL, "gettime on an eventfd");
	check_err(timerfd_settime(999, 0, &its, NULL), EBADF, "settime on a bad fd");
	check_err(timerfd_gettime(999, &cur), EBADF, "gettime on a bad fd");
	check_err(syscall(SYS_timerfd_settime, fd, 0, NULL, NULL), EFAULT, "settime NULL");
	check_err(syscall(SYS_timerfd_gettime, fd, NULL), EFAULT, "gettime NULL");
	its.it_value.tv_sec = 100000;
	check(timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &its, NULL) == 0,
	      "TFD_TIMER_CANCEL_ON_SET is accepted");
	close(fd);
	close(efd);
}

static void test_stat(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, 0), efd = eventfd(0, 0);
	struct stat st, est;

	check(fstat(fd, &st) == 0 && fstat(efd, &est) == 0, "fstat");
	check((st.st_mode & S_IFMT) == 0 && (st.st_mode & 07777) == 0600,
	      "anonymous inode: mode 0600, no type");
	check(st.st_ino == est.st_ino && st.st_dev == est.st_dev, "the same inode as an eventfd's");
	check(lseek(fd, 0, SEEK_SET) == 0, "lseek is a no-op giving 0");
	close(fd);
	close(efd);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_create();
	test_oneshot();
	test_periodic();
	test_settime_old_and_disarm();
	test_abstime(CLOCK_MONOTONIC, "CLOCK_MONOTONIC");
	test_abstime(CLOCK_REALTIME, "CLOCK_REALTIME");
	test_abstime(CLOCK_BOOTTIME, "CLOCK_BOOTTIME");
	test_errors();
	test_stat();
	return 0;
}
