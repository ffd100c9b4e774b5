/* syslog(2), what dmesg reads: the buffer's size, READ_ALL's lines
 * ("<level>[seconds] text"), the newest whole lines that fit a short
 * buffer, argument errors (EINVAL, EFAULT) and, without CAP_SYSLOG and
 * CAP_SYS_ADMIN, EPERM for what is always restricted. Nothing that would
 * change the machine's log (CLEAR, the console) is tried with the
 * capabilities: natively as root it would. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "caps.h"
#define TAP_ERR_NAMED
#include "tap.h"

static long klog(int type, void *buf, long len)
{
	return syscall(SYS_syslog, type, buf, len);
}

/* Every line of buf[0..len) is "<digits>[ digits.digits] ..." */
static int lines_ok(const char *buf, long len)
{
	long i = 0;

	if (len <= 0 || buf[len - 1] != '\n')
		return 0;
	while (i < len) {
		const char *l = buf + i, *end = memchr(l, '\n', (size_t)(len - i));
		const char *p = l + 1;

		if (*l != '<')
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == l + 1 || *p++ != '>' || *p++ != '[')
			return 0;
		while (*p == ' ')
			p++;
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p != '.')
			return 0;
		i = end - buf + 1;
	}
	return 1;
}

int main(void)
{
	long size, got, small, last, i;
	char *buf, one[8];

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* never empty: skas says which platform runs, the machine's log
	 * has its boot */
	/* prctl options Linux lacks (EINVAL): under skas each says so in the
	 * log, lines of three lengths, over 64 KiB: the buffer wraps and
	 * still starts with a whole line */
	for (i = 0; i < 2000; i++)
		prctl(100 + (i % 3) * 9900 + i, 0, 0, 0, 0);
	size = klog(10, NULL, 0);
	check(size > 0, "SIZE_BUFFER: the buffer's size");
	buf = malloc((size_t)size);
	got = klog(3, buf, size);
	check(got > 0 && got <= size, "READ_ALL: something");
	check(lines_ok(buf, got), "READ_ALL: <level>[time] lines");
	last = got - 1;
	while (last > 0 && buf[last - 1] != '\n')
		last--;
	small = klog(3, buf, got - last);
	check(small == got - last && lines_ok(buf, small),
	      "READ_ALL into the last line's size: it");
	check(klog(3, one, 1) == 0, "READ_ALL into 1 byte: no whole line fits");
	check(klog(3, buf, 0) == 0, "READ_ALL of 0 bytes");
	check_err(klog(3, NULL, 16), EINVAL, "EINVAL", "READ_ALL to NULL");
	check_err(klog(3, buf, -1), EINVAL, "EINVAL", "READ_ALL of -1 bytes");
	check_err(klog(3, (void *)8, size), EFAULT, "EFAULT", "READ_ALL to a bad pointer");
	check_err(klog(3, (void *)0xffff800000000000UL, 16), EFAULT, "EFAULT",
		  "READ_ALL to a kernel address");
	check_err(klog(2, NULL, 16), EINVAL, "EINVAL", "READ to NULL");
	check(klog(2, buf, 0) == 0, "READ of 0 bytes");
	check(klog(9, NULL, 0) >= 0, "SIZE_UNREAD");
	check(klog(0, NULL, 0) == 0 && klog(1, NULL, 0) == 0, "CLOSE, OPEN");
	check_err(klog(8, NULL, 0), EINVAL, "EINVAL", "CONSOLE_LEVEL 0");
	check_err(klog(8, NULL, 9), EINVAL, "EINVAL", "CONSOLE_LEVEL 9");
	check_err(klog(11, NULL, 0), EINVAL, "EINVAL", "type 11");
	check_err(klog(-1, NULL, 0), EINVAL, "EINVAL", "type -1");

	check(caps_drop(CAP_SYSLOG) == 0 && caps_drop(CAP_SYS_ADMIN) == 0,
	      "capset drops CAP_SYSLOG and CAP_SYS_ADMIN");
	check_err(klog(5, NULL, 0), EPERM, "EPERM", "CLEAR");
	check_err(klog(9, NULL, 0), EPERM, "EPERM", "SIZE_UNREAD");
	check_err(klog(2, buf, 16), EPERM, "EPERM", "READ");
	check_err(klog(4, buf, 16), EPERM, "EPERM", "READ_CLEAR");
	check_err(klog(6, NULL, 0), EPERM, "EPERM", "CONSOLE_OFF");
	check_err(klog(11, NULL, 0), EPERM, "EPERM", "type 11: the permission first");
	free(buf);
	return 0;
}
