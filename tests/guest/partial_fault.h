/* Helpers of the partly-accessible-buffer guest tests (partial_fault,
 * partial_fault2): a buffer that runs from mapped pages into an unmapped,
 * PROT_NONE or read-only one, and deterministic printing of results and
 * bytes (compared line by line with native Linux). */
#ifndef PARTIAL_FAULT_H
#define PARTIAL_FAULT_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>

#define PG 4096UL
#define D  "tests/guest/data/"

static inline const char *ename(int e)
{
	switch (e) {
	case 0:
		return "0";
	case EFAULT:
		return "EFAULT";
	case EINVAL:
		return "EINVAL";
	case EAGAIN:
		return "EAGAIN";
	case ECHILD:
		return "ECHILD";
	case ERANGE:
		return "ERANGE";
	case EBADF:
		return "EBADF";
	case ESPIPE:
		return "ESPIPE";
	case EMSGSIZE:
		return "EMSGSIZE";
	case EXDEV:
		return "EXDEV";
	case EPERM:
		return "EPERM";
	case ENOTCONN:
		return "ENOTCONN";
	case EISDIR:
		return "EISDIR";
	default:
		return strerror(e);
	}
}

/* "r=N" or "errno=NAME" of a raw call's result */
static inline const char *res(long r, int e)
{
	static char s[64];

	if (r < 0)
		snprintf(s, sizeof s, "errno=%s", ename(e));
	else
		snprintf(s, sizeof s, "r=%ld", r);
	return s;
}

/* the n bytes at p, non-printing ones as \xNN */
static inline void show(const char *label, const unsigned char *p, size_t n)
{
	size_t i;

	printf("  %s \"", label);
	for (i = 0; i < n; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\')
			putchar(p[i]);
		else
			printf("\\x%02x", p[i]);
	}
	printf("\"\n");
}

#define CALL(label, call)                                  \
	do {                                               \
		long r_;                                   \
		errno = 0;                                 \
		r_ = (call);                               \
		printf("%s: %s\n", label, res(r_, errno)); \
	} while (0)

static const char *const kind_name[] = { "unmapped", "PROT_NONE", "PROT_READ" };

/* Two accessible pages filled with '.' and a third that is unmapped (kind
 * 0), PROT_NONE (1) or read-only (2), whose first zero_head bytes are 0
 * (an offset or an iovec read from a read-only page). Returns the start
 * of the third page. */
static inline unsigned char *edge_map_zeroed(int kind, size_t zero_head)
{
	unsigned char *b =
		mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (b == MAP_FAILED) {
		printf("not ok - mmap\n");
		exit(1);
	}
	memset(b, '.', 3 * PG);
	memset(b + 2 * PG, 0, zero_head);
	if (kind == 0)
		munmap(b + 2 * PG, PG);
	else
		mprotect(b + 2 * PG, PG, kind == 1 ? PROT_NONE : PROT_READ);
	return b + 2 * PG;
}

static inline void edge_unmap(unsigned char *e)
{
	munmap(e - 2 * PG, 3 * PG);
}

/* what remains readable in fd (nonblocking), each read on its own line */
static inline void drain(int fd, int sock)
{
	unsigned char buf[256];
	long r;

	for (;;) {
		errno = 0;
		r = sock ? recv(fd, buf, sizeof buf, MSG_DONTWAIT) : read(fd, buf, sizeof buf);
		if (r <= 0) {
			printf("  then %s\n", res(r, errno));
			return;
		}
		show("then", buf, r);
	}
}

/* the open fds among the first 256 */
static inline int count_fds(void)
{
	int i, c = 0;

	for (i = 0; i < 256; i++)
		if (fcntl(i, F_GETFD) >= 0)
			c++;
	return c;
}

#endif
