/* kernel/log.h: the kernel log. Warnings go to the host's stderr; info
 * lines (unimplemented calls, ...) only with -v or --log=FILE. */
#ifndef KERNEL_LOG_H
#define KERNEL_LOG_H

enum { LOG_WARN, LOG_INFO, LOG_DEBUG };

extern int klog_level;

void klog(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A broken kernel invariant: not for anything a guest can cause. */
void panic(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
