/* kernel/log.c: the kernel log, one line per message, prefixed "skas: ",
 * on the host's stderr or --log file; and the message buffer that the
 * guest reads with syslog(2) (dmesg): every message up to LOG_INFO as
 * Linux's "<level>[seconds.micros] text" lines, timed from skas's start,
 * the oldest lines dropped when it is full. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/log.h"
#include "kernel/sched.h"
#include "host/host.h"
#include "abi/linux/misc.h"

int klog_level = LOG_WARN;

static char ring[KLOG_BUF_SIZE];
static uint64_t ring_head;  /* bytes ever written */
static uint64_t ring_tail;  /* the oldest byte kept, a line's start */
static uint64_t ring_clear; /* klog_clear's mark */
static uint64_t ring_read;  /* klog_read_unread's position */
static struct waitq ring_wait = { LIST_HEAD_INIT(ring_wait.waiters) };
static int64_t boot_ns = -1;
static bool panicking; /* no wakeup from a kernel in a broken state */

static char ring_at(uint64_t pos)
{
	return ring[pos % KLOG_BUF_SIZE];
}

/* Appends one line (n < KLOG_BUF_SIZE, ending in a newline), dropping
 * the oldest whole lines first to make room. */
static void ring_put(const char *line, size_t n)
{
	size_t i;

	while (ring_head + n - ring_tail > KLOG_BUF_SIZE) {
		while (ring_at(ring_tail++) != '\n')
			;
	}
	for (i = 0; i < n; i++)
		ring[(ring_head + i) % KLOG_BUF_SIZE] = line[i];
	ring_head += n;
	if (!panicking)
		waitq_wake_all(&ring_wait);
}

static void record(int level, const char *text, size_t n)
{
	char line[600];
	int64_t ns;
	int len;

	if (boot_ns < 0)
		boot_ns = host_clock_ns(LINUX_CLOCK_MONOTONIC);
	ns = host_clock_ns(LINUX_CLOCK_MONOTONIC) - boot_ns;
	if (ns < 0)
		ns = 0;
	len = snprintf(line, sizeof(line), "<%d>[%5lld.%06lld] %.*s\n", level == LOG_WARN ? 4 : 6,
		       (long long)(ns / 1000000000), (long long)(ns % 1000000000 / 1000), (int)n,
		       text);
	if (len > (int)sizeof(line) - 1) {
		len = sizeof(line) - 1;
		line[len - 1] = '\n';
	}
	ring_put(line, (size_t)len);
}

static __attribute__((format(printf, 2, 0))) void vlog(int level, const char *fmt, va_list ap)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "skas: ");

	n += vsnprintf(buf + n, sizeof(buf) - n - 1, fmt, ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	if (level <= LOG_INFO)
		record(level, buf + 6, (size_t)n - 6);
	if (level <= klog_level) {
		buf[n++] = '\n';
		host_log_write(buf, n);
	}
}

void klog(int level, const char *fmt, ...)
{
	va_list ap;

	if (level > klog_level && level > LOG_INFO)
		return;
	va_start(ap, fmt);
	vlog(level, fmt, ap);
	va_end(ap);
}

bool klog_ratelimit_ok(struct klog_ratelimit *rl)
{
	int64_t now = host_clock_ns(LINUX_CLOCK_MONOTONIC);

	if (rl->printed == 0 || now - rl->begin_ns >= KLOG_INTERVAL_NS) {
		if (rl->missed)
			klog(LOG_INFO, "%d lines like the next were suppressed", rl->missed);
		rl->begin_ns = now;
		rl->printed = rl->missed = 0;
	}
	if (rl->printed < KLOG_BURST) {
		rl->printed++;
		return true;
	}
	rl->missed++;
	return false;
}

void panic(const char *fmt, ...)
{
	va_list ap;

	panicking = true;
	va_start(ap, fmt);
	vlog(LOG_WARN, fmt, ap);
	va_end(ap);
	abort();
}

void klog_boot(void)
{
	if (boot_ns < 0)
		boot_ns = host_clock_ns(LINUX_CLOCK_MONOTONIC);
}

/* A mark, or the oldest byte kept if the buffer has moved past it. */
static uint64_t kept(uint64_t mark)
{
	return mark > ring_tail ? mark : ring_tail;
}

size_t klog_read_all(char *out, size_t len, bool clear)
{
	uint64_t start = kept(ring_clear), p;
	size_t n = 0;

	while (ring_head - start > len) {
		while (ring_at(start++) != '\n')
			;
	}
	for (p = start; p < ring_head; p++)
		out[n++] = ring_at(p);
	if (clear)
		ring_clear = ring_head;
	return n;
}

void klog_clear(void)
{
	ring_clear = ring_head;
}

uint64_t klog_unread(void)
{
	return ring_head - kept(ring_read);
}

size_t klog_read_unread(char *out, size_t len)
{
	uint64_t p = kept(ring_read);
	size_t n = 0, last_line_end = 0;

	while (p + n < ring_head && n < len) {
		out[n] = ring_at(p + n);
		if (out[n++] == '\n')
			last_line_end = n;
	}
	if (last_line_end)
		n = last_line_end;
	ring_read = p + n;
	return n;
}

struct waitq *klog_waitq(void)
{
	return &ring_wait;
}
