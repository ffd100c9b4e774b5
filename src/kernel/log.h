/* kernel/log.h: the kernel log. Warnings go to the host's stderr; info
 * lines (unimplemented calls, ...) only with -v or --log=FILE. Both go to
 * the message buffer the guest reads with syslog(2) (kernel/syslog.c). */
#ifndef KERNEL_LOG_H
#define KERNEL_LOG_H

#include <stddef.h>
#include <stdint.h>

enum { LOG_WARN, LOG_INFO, LOG_DEBUG };

extern int klog_level;

void klog(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A broken kernel invariant: not for anything a guest can cause. */
void panic(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* The message buffer's time 0: skas's start. */
void klog_boot(void);

/* The message buffer: positions count bytes ever written; the buffer
 * keeps the last KLOG_BUF_SIZE of them, in whole lines. */
#define KLOG_BUF_SIZE 65536
enum klog_mark {
	KLOG_MARK_HEAD,	 /* the end */
	KLOG_MARK_CLEAR, /* SYSLOG_ACTION_CLEAR's mark (or the oldest kept) */
	KLOG_MARK_READ,	 /* SYSLOG_ACTION_READ's position (or the oldest kept) */
};
uint64_t klog_pos(enum klog_mark m);
void klog_set_mark(enum klog_mark m, uint64_t pos);
/* The newest whole lines after from that fit in len bytes. */
size_t klog_copy_newest(char *out, size_t len, uint64_t from);
/* From the READ mark on (destructive), at most len bytes. */
size_t klog_read_unread(char *out, size_t len);
/* Woken at each message. */
struct waitq *klog_waitq(void);

#endif
