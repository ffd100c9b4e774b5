/* kernel/timens.c: time namespaces, as Linux's kernel/time/namespace.c.
 * The offsets apply where Linux applies them: clock_gettime, the absolute
 * deadlines of clock_nanosleep, timer_settime, timerfd_settime and the
 * futex waits, sysinfo's and /proc/uptime's uptime. */
#include <stdlib.h>
#include <string.h>

#include "kernel/timens.h"
#include "kernel/task.h"
#include "kernel/cred.h"
#include "kernel/userns.h"
#include "kernel/ktime.h"
#include "mm/mm.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"

#define KTIME_SEC_MAX (KTIME_MAX / NSEC_PER_SEC)

struct time_ns init_time_ns = {
	.ns = { .refcount = 1, .ino = NS_INO_TIME, .type = NS_TIME },
	.frozen = true,
};

struct ns_common *time_ns_new(struct ns_common *old)
{
	struct time_ns *o = (struct time_ns *)old, *ns = ns_alloc(sizeof(*ns), NS_TIME, NULL);

	if (!ns)
		return NULL;
	ns->mono = o->mono;
	ns->boot = o->boot;
	ns->mono_ns = o->mono_ns;
	ns->boot_ns = o->boot_ns;
	return &ns->ns;
}

struct time_ns *task_time_ns(const struct task *t)
{
	return (struct time_ns *)t->nsproxy->time;
}

/* The offset of clk in ns: its monotonic one for the clocks that count
 * from boot without suspend, its boottime one for those with. */
static int64_t offset_of(const struct time_ns *ns, int clk)
{
	switch (clk) {
	case LINUX_CLOCK_MONOTONIC:
	case LINUX_CLOCK_MONOTONIC_RAW:
	case LINUX_CLOCK_MONOTONIC_COARSE:
		return ns->mono_ns;
	case LINUX_CLOCK_BOOTTIME:
	case LINUX_CLOCK_BOOTTIME_ALARM:
		return ns->boot_ns;
	default:
		return 0;
	}
}

int64_t timens_to_task(const struct task *t, int clk, int64_t host_ns)
{
	const struct time_ns *ns = task_time_ns(t);

	return ns == &init_time_ns ? host_ns : host_ns + offset_of(ns, clk);
}

int64_t timens_to_host(const struct task *t, int clk, int64_t ns)
{
	const struct time_ns *tn = task_time_ns(t);
	int64_t off, r;

	if (tn == &init_time_ns)
		return ns;
	off = offset_of(tn, clk);
	/* as Linux's do_timens_ktime_to_host: a time before the offset
	 * has passed already (0) */
	if (ns < off)
		return 0;
	return __builtin_sub_overflow(ns, off, &r) ? KTIME_MAX : r;
}

void timens_commit(struct task *t)
{
	struct time_ns *ns = task_time_ns(t);

	ns->frozen = true;
	if (ns != &init_time_ns && t->mm)
		mm_vdso_syscalls(t->mm);
}

int timens_enter_children(struct task *t, bool exec)
{
	struct nsproxy *old = t->nsproxy, *n;

	if (old->time == old->ns[NS_TIME])
		return 0;
	n = nsproxy_with(old, old->ns[NS_TIME]); /* time and its children's */
	if (!n)
		return -ENOMEM;
	nsproxy_put(old);
	t->nsproxy = n;
	if (exec)
		task_time_ns(t)->frozen = true;
	else
		timens_commit(t);
	return 0;
}

/* Linux's vsscanf, as timens_offsets_write uses it: white space skipped
 * before each field; a word of at most 9 characters; a decimal number,
 * signed or not, wrapping as simple_strtoull does. The next field starts
 * where this one stopped. */
static bool is_space(char c)
{
	/* Linux's isspace: Latin-1's no-break space too */
	return c == ' ' || (c >= '\t' && c <= '\r') || (unsigned char)c == 0xa0;
}

static const char *skip_space(const char *s)
{
	while (is_space(*s))
		s++;
	return s;
}

static const char *scan_word(const char *s, char *out, size_t max)
{
	size_t n = 0;

	s = skip_space(s);
	while (*s && !is_space(*s) && n < max)
		out[n++] = *s++;
	out[n] = 0;
	return n ? s : NULL;
}

static const char *scan_number(const char *s, bool is_signed, uint64_t *out)
{
	bool neg = false;
	uint64_t v = 0;

	s = skip_space(s);
	if (is_signed && *s == '-') {
		neg = true;
		s++;
	}
	if (*s < '0' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (uint64_t)(*s++ - '0');
	*out = neg ? -v : v;
	return s;
}

struct new_offset {
	int clk;
	struct linux_timespec val;
};

/* One line: "CLOCK SECS NSECS", CLOCK "monotonic", "boottime" or their
 * clock ids. */
static int parse_line(const char *line, struct new_offset *o)
{
	char clock[10];
	uint64_t sec, nsec;
	const char *s = scan_word(line, clock, sizeof(clock) - 1);

	if (!s || !(s = scan_number(s, true, &sec)) || !scan_number(s, false, &nsec) ||
	    nsec >= (uint64_t)NSEC_PER_SEC)
		return -EINVAL;
	if (!strcmp(clock, "monotonic") || !strcmp(clock, "1"))
		o->clk = LINUX_CLOCK_MONOTONIC;
	else if (!strcmp(clock, "boottime") || !strcmp(clock, "7"))
		o->clk = LINUX_CLOCK_BOOTTIME;
	else
		return -EINVAL;
	o->val.tv_sec = (int64_t)sec;
	o->val.tv_nsec = (int64_t)nsec;
	return 0;
}

long timens_offsets_write(const struct cred *opener, struct time_ns *ns, const char *buf,
			  size_t len, int64_t off)
{
	struct new_offset o[2];
	char *text, *pos, *next;
	int n = 0, i;
	long ret = -EINVAL;

	if (off != 0 || len >= PAGE_SIZE)
		return -EINVAL;
	text = malloc(len + 1);
	if (!text)
		return -ENOMEM;
	memcpy(text, buf, len);
	text[len] = 0;
	/* Line by line, at most two; what follows a second is not taken
	 * (the write is short). An empty line is EINVAL. */
	for (pos = text; pos; pos = next) {
		next = strchr(pos, '\n');
		if (next) {
			*next++ = 0;
			if (!*next)
				next = NULL;
		}
		if (parse_line(pos, &o[n]) < 0)
			goto out;
		if (++n == 2) {
			if (next)
				len = (size_t)(next - text);
			break;
		}
	}
	ret = -ESRCH; /* the process has gone (a zombie has no namespaces) */
	if (!ns)
		goto out;
	ret = -EPERM;
	if (!ns_capable(opener, ns_owner(&ns->ns), CAP_SYS_TIME))
		goto out;
	for (i = 0; i < n; i++) {
		int64_t now = host_clock_ns(o[i].clk), sec;

		ret = -ERANGE;
		if (o[i].val.tv_sec > KTIME_SEC_MAX || o[i].val.tv_sec < -KTIME_SEC_MAX)
			goto out;
		/* the clock's time with it must stay in 0..KTIME_SEC_MAX / 2
		 * seconds */
		sec = now / NSEC_PER_SEC + o[i].val.tv_sec +
		      (now % NSEC_PER_SEC + o[i].val.tv_nsec) / NSEC_PER_SEC;
		if (sec < 0 || sec > KTIME_SEC_MAX / 2)
			goto out;
	}
	ret = -EACCES;
	if (ns->frozen)
		goto out;
	for (i = 0; i < n; i++) {
		struct linux_timespec *ts =
			o[i].clk == LINUX_CLOCK_MONOTONIC ? &ns->mono : &ns->boot;
		int64_t *v = o[i].clk == LINUX_CLOCK_MONOTONIC ? &ns->mono_ns : &ns->boot_ns;

		*ts = o[i].val;
		*v = ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
	}
	ret = (long)len;
out:
	free(text);
	return ret;
}
