/* kernel/log.c: the kernel log, one line per message, prefixed "skas: ",
 * on the host's stderr or --log file; and the message buffer that the
 * guest reads with syslog(2) (dmesg) and /dev/kmsg: every message up to
 * LOG_INFO, and the guest's own through /dev/kmsg, as Linux's
 * "<prio>[seconds.micros] text" lines, timed from skas's start, the
 * oldest lines dropped when it is full. A line is a record, numbered
 * from 0 for /dev/kmsg; its text keeps what /dev/kmsg shows escaped
 * (a byte below ' ', from DEL up, and '\' as \xNN), so a guest's
 * newline cannot make two records of one (syslog(2) shows it escaped
 * too, where Linux's shows the bytes). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/log.h"
#include "kernel/sched.h"
#include "host/host.h"
#include "abi/linux/misc.h"
#include "abi/linux/errno.h"

int klog_level = LOG_WARN;

static char ring[KLOG_BUF_SIZE];
static uint64_t ring_head;  /* bytes ever written */
static uint64_t ring_tail;  /* the oldest byte kept, a line's start */
static uint64_t ring_clear; /* klog_clear's mark */
static uint64_t ring_read;  /* klog_read_unread's position */
static uint64_t seq_tail;   /* the number of the record at ring_tail */
static uint64_t seq_head;   /* the number the next record gets */
static uint64_t seq_clear;  /* the first after klog_clear's mark */
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
		seq_tail++;
	}
	for (i = 0; i < n; i++)
		ring[(ring_head + i) % KLOG_BUF_SIZE] = line[i];
	ring_head += n;
	seq_head++;
	if (!panicking)
		waitq_wake_all(&ring_wait);
}

/* One record of priority prio (facility << 3 | level) with text's n
 * bytes (at most KLOG_TEXT_MAX), escaped. */
static void record(unsigned prio, const char *text, size_t n)
{
	char line[64 + 4 * KLOG_TEXT_MAX + 2];
	int64_t ns;
	size_t len, i;

	if (boot_ns < 0)
		boot_ns = host_clock_ns(LINUX_CLOCK_MONOTONIC);
	ns = host_clock_ns(LINUX_CLOCK_MONOTONIC) - boot_ns;
	if (ns < 0)
		ns = 0;
	if (n > KLOG_TEXT_MAX)
		n = KLOG_TEXT_MAX;
	len = (size_t)snprintf(line, 64, "<%u>[%5lld.%06lld] ", prio, (long long)(ns / 1000000000),
			       (long long)(ns % 1000000000 / 1000));
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c < ' ' || c >= 127 || c == '\\')
			len += (size_t)snprintf(line + len, 5, "\\x%02x", c);
		else
			line[len++] = (char)c;
	}
	line[len++] = '\n';
	ring_put(line, len);
}

void klog_user(unsigned prio, const char *text, size_t n)
{
	record(prio, text, n);
}

static __attribute__((format(printf, 2, 0))) void vlog(int level, const char *fmt, va_list ap)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "skas: ");

	n += vsnprintf(buf + n, sizeof(buf) - n - 1, fmt, ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	if (level <= LOG_INFO)
		record(level == LOG_WARN ? 4 : 6, buf + 6, (size_t)n - 6);
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
		klog_clear();
	return n;
}

void klog_clear(void)
{
	ring_clear = ring_head;
	seq_clear = seq_head;
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

void klog_cursor_set(struct klog_cursor *c, int where)
{
	if (where == KLOG_FIRST || (where == KLOG_CLEAR && ring_clear <= ring_tail)) {
		c->pos = ring_tail;
		c->seq = seq_tail;
	} else if (where == KLOG_CLEAR) {
		c->pos = ring_clear;
		c->seq = seq_clear;
	} else {
		c->pos = ring_head;
		c->seq = seq_head;
	}
}

int klog_cursor_state(const struct klog_cursor *c)
{
	if (c->pos < ring_tail)
		return -EPIPE;
	return c->pos < ring_head;
}

/* Linux's devkmsg_read, less the wait: "prio,seq,usecs,-;text\n". */
long klog_kmsg_read(struct klog_cursor *c, char *out, size_t cap)
{
	char head[64], *p;
	unsigned long long s = 0, us = 0;
	unsigned prio = 0;
	uint64_t q = c->pos, end;
	size_t n = 0, hn, tn;

	if (c->pos < ring_tail) {
		klog_cursor_set(c, KLOG_FIRST);
		return -EPIPE;
	}
	if (c->pos >= ring_head)
		return 0;
	/* the line's "<prio>[s.us] " */
	while (n < sizeof(head) - 1 && ring_at(q + n) != ']')
		head[n] = ring_at(q + n), n++;
	head[n] = 0;
	if (sscanf(head, "<%u>[%llu.%llu", &prio, &s, &us) != 3)
		prio = 0, s = us = 0;
	q += n + 2; /* past "] " */
	for (end = q; ring_at(end) != '\n'; end++)
		;
	tn = (size_t)(end - q);
	hn = (size_t)snprintf(head, sizeof(head), "%u,%llu,%llu,-;", prio,
			      (unsigned long long)c->seq, s * 1000000 + us);
	if (hn + tn + 1 > cap) {
		c->pos = end + 1; /* lost, as Linux 6's */
		c->seq++;
		return -EINVAL;
	}
	memcpy(out, head, hn);
	for (p = out + hn; q < end; q++)
		*p++ = ring_at(q);
	*p = '\n';
	c->pos = end + 1;
	c->seq++;
	return (long)(hn + tn + 1);
}
