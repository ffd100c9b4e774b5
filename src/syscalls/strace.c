/* syscalls/strace.c: --strace, each guest system call decoded from the
 * table's argument letters, with its result, one line per call:
 *   [pid N] openat(AT_FDCWD, "/etc/passwd", O_RDONLY|O_CLOEXEC) = 3 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "mm/usercopy.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/types.h"

int strace_on;
static int strace_fd = 2;

static const char *const fmts[512] = {
#define SC(nr, name, nargs, fmt) [nr] = fmt,
#include "syscalls/syscall_table.h"
#undef SC
};

static const char *const errnames[134] = {
#define ERRNO(e) [e] = #e,
#include "abi/linux/errno_names.h"
#undef ERRNO
};

const char *syscall_name(int nr);

int strace_open(const char *path)
{
	if (path) {
		int ret = host_log_open_extra(path);

		if (ret < 0)
			return ret;
		strace_fd = ret;
	}
	strace_on = 1;
	return 0;
}

struct sbuf {
	char *s;
	size_t len, cap;
};

static void sb_putc(struct sbuf *b, char c)
{
	if (b->len + 2 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		char *s = realloc(b->s, cap);

		if (!s)
			return;
		b->s = s;
		b->cap = cap;
	}
	b->s[b->len++] = c;
	b->s[b->len] = 0;
}

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	int n, i;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	for (i = 0; i < n && i < (int)sizeof(tmp) - 1; i++)
		sb_putc(b, tmp[i]);
}

static void sb_quoted(struct sbuf *b, const char *s, size_t n, bool more)
{
	size_t i;

	sb_putc(b, '"');
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\')
			sb_printf(b, "\\%c", c);
		else if (c == '\n')
			sb_printf(b, "\\n");
		else if (c == '\t')
			sb_printf(b, "\\t");
		else if (c < 32 || c >= 127)
			sb_printf(b, "\\%o", c);
		else
			sb_putc(b, c);
	}
	sb_putc(b, '"');
	if (more)
		sb_printf(b, "...");
}

static void put_string(struct sbuf *b, struct task *t, uaddr_t addr)
{
	char s[65];
	long n;

	if (!addr) {
		sb_printf(b, "NULL");
		return;
	}
	n = strncpy_from_user(t->mm, s, addr, sizeof(s));
	if (n == -EFAULT)
		sb_printf(b, "%#llx", (unsigned long long)addr);
	else
		sb_quoted(b, s, n < 0 ? 64 : (size_t)n, n < 0);
}

static void put_buffer(struct sbuf *b, struct task *t, uaddr_t addr, long len)
{
	char s[32];
	size_t n = len < 0 ? 0 : (size_t)len;

	if (n > sizeof(s))
		n = sizeof(s);
	if (copy_from_user(t->mm, s, addr, n) < 0)
		sb_printf(b, "%#llx", (unsigned long long)addr);
	else
		sb_quoted(b, s, n, (size_t)len > n);
}

static void put_strv(struct sbuf *b, struct task *t, uaddr_t addr)
{
	uint64_t p;
	int i;

	if (!addr) {
		sb_printf(b, "NULL");
		return;
	}
	sb_putc(b, '[');
	for (i = 0; i < 8; i++) {
		if (copy_from_user(t->mm, &p, addr + 8 * i, 8) < 0 || !p)
			break;
		if (i)
			sb_printf(b, ", ");
		put_string(b, t, p);
	}
	if (i == 8)
		sb_printf(b, ", ...");
	sb_putc(b, ']');
}

static const struct {
	unsigned flag;
	const char *name;
} oflags[] = {
	{ LINUX_O_CREAT, "O_CREAT" },	      { LINUX_O_EXCL, "O_EXCL" },
	{ LINUX_O_NOCTTY, "O_NOCTTY" },	      { LINUX_O_TRUNC, "O_TRUNC" },
	{ LINUX_O_APPEND, "O_APPEND" },	      { LINUX_O_NONBLOCK, "O_NONBLOCK" },
	{ LINUX_O_DIRECTORY, "O_DIRECTORY" }, { LINUX_O_NOFOLLOW, "O_NOFOLLOW" },
	{ LINUX_O_CLOEXEC, "O_CLOEXEC" },     { LINUX_O_PATH, "O_PATH" },
	{ LINUX_O_LARGEFILE, "O_LARGEFILE" },
};

static void put_oflags(struct sbuf *b, unsigned f)
{
	static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };
	size_t i;

	sb_printf(b, "%s", acc[f & 3]);
	f &= ~3u;
	for (i = 0; i < sizeof(oflags) / sizeof(oflags[0]); i++) {
		if (f & oflags[i].flag) {
			sb_printf(b, "|%s", oflags[i].name);
			f &= ~oflags[i].flag;
		}
	}
	if (f)
		sb_printf(b, "|%#o", f);
}

/* Arguments known at entry; output buffers wait for the result. */
static void put_arg(struct sbuf *b, struct task *t, char kind, const struct sysargs *a, int i,
		    long ret, bool at_exit)
{
	uint64_t v = a->a[i];

	switch (kind) {
	case 'd':
		sb_printf(b, "%d", (int)v);
		break;
	case 'f':
		if ((int)v == LINUX_AT_FDCWD)
			sb_printf(b, "AT_FDCWD");
		else
			sb_printf(b, "%d", (int)v);
		break;
	case 'l': /* an offset or a length: loff_t */
		sb_printf(b, "%lld", (long long)v);
		break;
	case 'u':
	case 'z':
		sb_printf(b, "%llu", (unsigned long long)v);
		break;
	case 's':
		put_string(b, t, v);
		break;
	case 'B':
		put_buffer(b, t, v, (long)a->a[i + 1]);
		break;
	case 'b':
		if (at_exit && ret >= 0)
			put_buffer(b, t, v, ret);
		else
			sb_printf(b, "%#llx", (unsigned long long)v);
		break;
	case 'v':
		put_strv(b, t, v);
		break;
	case 'o':
		put_oflags(b, (unsigned)v);
		break;
	case 'm':
		sb_printf(b, "%#llo", (unsigned long long)v);
		break;
	case 'S':
		sb_printf(b, "%d", (int)v);
		break;
	default:
		if (v == 0)
			sb_printf(b, "0");
		else
			sb_printf(b, "%#llx", (unsigned long long)v);
	}
}

static bool has_out_buffer(const char *fmt)
{
	return fmt && strchr(fmt, 'b');
}

static void format_call(struct sbuf *b, struct task *t, int nr, const struct sysargs *a, long ret,
			bool at_exit)
{
	const char *name = syscall_name(nr), *fmt = nr >= 0 && nr < 512 ? fmts[nr] : NULL;
	int i;

	sb_printf(b, "[pid %d] ", t->tid);
	if (name)
		sb_printf(b, "%s(", name);
	else
		sb_printf(b, "syscall_%#x(", (unsigned)nr);
	for (i = 0; fmt && fmt[i]; i++) {
		if (i)
			sb_printf(b, ", ");
		put_arg(b, t, fmt[i], a, i, ret, at_exit);
	}
	sb_putc(b, ')');
}

void strace_enter(struct task *t, int nr, const struct sysargs *a)
{
	const char *fmt = nr >= 0 && nr < 512 ? fmts[nr] : NULL;
	struct sbuf b = { 0 };

	/* Calls that may not return (execve, exit) are printed at entry. */
	free(t->trace_buf);
	t->trace_buf = NULL;
	if (has_out_buffer(fmt))
		return;
	format_call(&b, t, nr, a, 0, false);
	t->trace_buf = b.s;
}

void strace_exit(struct task *t, int nr, const struct sysargs *a, long ret)
{
	struct sbuf b = { 0 };

	if (t->trace_buf) {
		sb_printf(&b, "%s", t->trace_buf);
		free(t->trace_buf);
		t->trace_buf = NULL;
	} else {
		format_call(&b, t, nr, a, ret, true);
	}
	if (ret < 0 && ret > -4096 && -ret < 134 && errnames[-ret])
		sb_printf(&b, " = -1 %s\n", errnames[-ret]);
	else if (t->no_result)
		sb_printf(&b, " = 0\n");
	else if (ret < 0 && ret > -4096)
		sb_printf(&b, " = -1 (errno %ld)\n", -ret);
	else if (ret > 0xffff)
		sb_printf(&b, " = %#lx\n", ret);
	else
		sb_printf(&b, " = %ld\n", ret);
	if (b.s)
		host_write_all(strace_fd, b.s, b.len);
	free(b.s);
}

/* exit and exit_group never return: print them as they are made. */
void strace_noreturn(struct task *t, int nr, const struct sysargs *a)
{
	struct sbuf b = { 0 };

	if (!strace_on)
		return;
	format_call(&b, t, nr, a, 0, false);
	sb_printf(&b, " = ?\n");
	if (b.s)
		host_write_all(strace_fd, b.s, b.len);
	free(b.s);
	free(t->trace_buf);
	t->trace_buf = NULL;
}
