/* kernel/syslog.c: syslog(2), the guest's view of the kernel's messages
 * (kernel/log.c): what dmesg reads. As Linux with dmesg_restrict set:
 * every action needs CAP_SYSLOG (or CAP_SYS_ADMIN). Partial: the console
 * actions (CONSOLE_OFF, CONSOLE_ON, CONSOLE_LEVEL) are EPERM, as the
 * kernel's console is the host's stderr or --log file, which whoever ran
 * skas chose. */
#include <stdlib.h>

#include "kernel/log.h"
#include "kernel/sched.h"
#include "kernel/task.h"
#include "kernel/cred.h"
#include "mm/mm.h"
#include "vfs/iov.h"
#include "mm/usercopy.h"
#include "syscalls/dispatch.h"
#include "abi/linux/errno.h"

enum {
	SYSLOG_CLOSE,
	SYSLOG_OPEN,
	SYSLOG_READ,
	SYSLOG_READ_ALL,
	SYSLOG_READ_CLEAR,
	SYSLOG_CLEAR,
	SYSLOG_CONSOLE_OFF,
	SYSLOG_CONSOLE_ON,
	SYSLOG_CONSOLE_LEVEL,
	SYSLOG_SIZE_UNREAD,
	SYSLOG_SIZE_BUFFER,
};

/* What READ and READ_ALL check before they copy: no buffer or a negative
 * length is EINVAL, a length of 0 reads nothing, a buffer that is not
 * all in user space is EFAULT. */
static long check_buf(uaddr_t buf, int len)
{
	if (!buf || len < 0)
		return -EINVAL;
	if (len == 0)
		return 0;
	return access_ok(buf, (uint64_t)len) ? 1 : -EFAULT;
}

static long copy_out(struct task *t, uaddr_t buf, const char *text, size_t n)
{
	return copy_to_user(t->mm, buf, text, n) < 0 ? -EFAULT : (long)n;
}

long sys_syslog(struct task *t, const struct sysargs *a)
{
	int type = sysarg_int(a, 0), len = sysarg_int(a, 2);
	uaddr_t buf = sysarg_uaddr(a, 1);
	const struct cred *c = &t->proc->cred;
	char *text;
	long ret;
	size_t n;

	if (!capable(c, CAP_SYSLOG) && !capable(c, CAP_SYS_ADMIN))
		return -EPERM;
	switch (type) {
	case SYSLOG_CLOSE:
	case SYSLOG_OPEN:
		return 0;
	case SYSLOG_READ:
		ret = check_buf(buf, len);
		if (ret <= 0)
			return ret;
		while (klog_unread() == 0) {
			if (signal_pending(t))
				return -ERESTARTSYS;
			waitq_sleep(klog_waitq());
		}
		text = malloc((size_t)len < KLOG_BUF_SIZE ? (size_t)len : KLOG_BUF_SIZE);
		if (!text)
			return -ENOMEM;
		n = klog_read_unread(text,
				     (size_t)len < KLOG_BUF_SIZE ? (size_t)len : KLOG_BUF_SIZE);
		ret = copy_out(t, buf, text, n);
		free(text);
		return ret;
	case SYSLOG_READ_CLEAR:
	case SYSLOG_READ_ALL:
		ret = check_buf(buf, len);
		if (ret <= 0)
			return ret;
		text = malloc(KLOG_BUF_SIZE);
		if (!text)
			return -ENOMEM;
		n = klog_read_all(text, (size_t)len, type == SYSLOG_READ_CLEAR);
		ret = copy_out(t, buf, text, n);
		free(text);
		return ret;
	case SYSLOG_CLEAR:
		klog_clear();
		return 0;
	case SYSLOG_CONSOLE_OFF:
	case SYSLOG_CONSOLE_ON:
		return -EPERM;
	case SYSLOG_CONSOLE_LEVEL:
		return len < 1 || len > 8 ? -EINVAL : -EPERM;
	case SYSLOG_SIZE_UNREAD:
		return (long)klog_unread();
	case SYSLOG_SIZE_BUFFER:
		return KLOG_BUF_SIZE;
	default:
		return -EINVAL;
	}
}
