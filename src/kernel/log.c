/* kernel/log.c: the kernel log, one line per message, prefixed "skas: ". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel/log.h"
#include "host/host.h"

int klog_level = LOG_WARN;

static __attribute__((format(printf, 1, 0))) void vlog(const char *fmt, va_list ap)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "skas: ");

	n += vsnprintf(buf + n, sizeof(buf) - n - 1, fmt, ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	host_log_write(buf, n);
}

void klog(int level, const char *fmt, ...)
{
	va_list ap;

	if (level > klog_level)
		return;
	va_start(ap, fmt);
	vlog(fmt, ap);
	va_end(ap);
}

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(fmt, ap);
	va_end(ap);
	abort();
}
