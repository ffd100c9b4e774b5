/* lib/sbuf.c: a text buffer that grows (lib/sbuf.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sbuf.h"

static bool sb_grow(struct sbuf *b, size_t more)
{
	size_t cap;
	char *nb;

	if (b->oom)
		return false;
	if (b->len + more + 1 <= b->cap)
		return true;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + more + 1)
		cap *= 2;
	nb = realloc(b->buf, cap);
	if (!nb) {
		b->oom = true;
		return false;
	}
	b->buf = nb;
	b->cap = cap;
	return true;
}

void sb_put(struct sbuf *b, const void *p, size_t n)
{
	if (!sb_grow(b, n))
		return;
	memcpy(b->buf + b->len, p, n);
	b->len += n;
	b->buf[b->len] = 0;
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !sb_grow(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}
