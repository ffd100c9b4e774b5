/* kernel/log.h: the kernel log. Warnings go to the host's stderr; info
 * lines (unimplemented calls, ...) only with -v or --log=FILE. Both go to
 * the message buffer the guest reads with syslog(2) (kernel/syslog.c). */
#ifndef KERNEL_LOG_H
#define KERNEL_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { LOG_WARN, LOG_INFO, LOG_DEBUG };

extern int klog_level;

void klog(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A line a guest can make at will (its faults, seccomp's RET_LOG, a
 * refused flag at each call): at most KLOG_BURST of one call site per
 * KLOG_INTERVAL_NS, as Linux's printk_ratelimited, then "N lines
 * suppressed" once the next interval's first line is said; so a guest
 * cannot fill the --log file or drown the lines that matter. */
#define KLOG_BURST	 10
#define KLOG_INTERVAL_NS 5000000000LL
struct klog_ratelimit {
	int64_t begin_ns;
	int printed, missed;
};
bool klog_ratelimit_ok(struct klog_ratelimit *rl);
#define klog_ratelimited(level, ...)                   \
	do {                                           \
		static struct klog_ratelimit klog_rl_; \
		if (klog_ratelimit_ok(&klog_rl_))      \
			klog(level, __VA_ARGS__);      \
	} while (0)
/* A line said once per run, at its call site's first pass (something
 * skas does not implement, named on its first use). */
#define klog_once(level, ...)                     \
	do {                                      \
		static bool klog_said_;           \
		if (!klog_said_) {                \
			klog_said_ = true;        \
			klog(level, __VA_ARGS__); \
		}                                 \
	} while (0)
/* A broken kernel invariant: not for anything a guest can cause. */
void panic(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* The message buffer's time 0: skas's start. */
void klog_boot(void);

/* The message buffer (syslog(2)): the last KLOG_BUF_SIZE bytes of
 * messages, in whole lines. klog_read_all: the newest whole lines since
 * the last klog_clear that fit in len bytes (clear: then clears);
 * klog_read_unread: from where it last stopped (destructive), at most len
 * bytes, whole lines when the first fits; klog_unread: how many bytes
 * that would give. */
#define KLOG_BUF_SIZE 65536
size_t klog_read_all(char *out, size_t len, bool clear);
void klog_clear(void);
size_t klog_read_unread(char *out, size_t len);
uint64_t klog_unread(void);
/* Woken at each message. */
struct waitq *klog_waitq(void);

/* /dev/kmsg (vfs/devices.c): a reader's place among the records. */
struct klog_cursor {
	uint64_t pos, seq; /* its next record's first byte and number */
};
enum { KLOG_FIRST, KLOG_CLEAR, KLOG_END };
/* At the oldest record kept, the first after the last clear (SEEK_DATA),
 * or past the last (SEEK_END). */
void klog_cursor_set(struct klog_cursor *c, int where);
/* 1 if a record waits at c, 0 if none yet, -EPIPE if c's was dropped. */
int klog_cursor_state(const struct klog_cursor *c);
/* The record at c in /dev/kmsg's form, c moved past it: its length; 0 if
 * none yet; -EINVAL if cap cannot hold it (c moves past it all the same);
 * -EPIPE, c moved to the oldest, if c's was dropped. */
long klog_kmsg_read(struct klog_cursor *c, char *out, size_t cap);
/* A guest's message (a /dev/kmsg write) of priority prio. */
#define KLOG_TEXT_MAX 1024
void klog_user(unsigned prio, const char *text, size_t n);

#endif
