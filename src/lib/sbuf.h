/* lib/sbuf.h: a growing text buffer (procfs's and cgroupfs's generated
 * files); a failed allocation sets oom and drops the rest. Zero-initialise
 * one to start; buf (NUL-terminated once anything went in) is the
 * caller's to free. */
#ifndef LIB_SBUF_H
#define LIB_SBUF_H

#include <stdbool.h>
#include <stddef.h>

struct sbuf {
	char *buf;
	size_t len, cap;
	bool oom;
};

void sb_put(struct sbuf *b, const void *p, size_t n);
void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
