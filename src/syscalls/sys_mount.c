/* syscalls/sys_mount.c: mount(2), umount2(2) and pivot_root(2): the
 * guest's strings copied in, the work in vfs/namespace.c. */
#include <stdlib.h>
#include <string.h>

#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "kernel/cred.h"
#include "mm/usercopy.h"
#include "vfs/namei.h"
#include "vfs/namespace.h"
#include "abi/linux/errno.h"

#define PAGE 4096

/* Linux's copy_mount_string: NULL stays NULL. */
static int get_mount_string(struct task *t, uaddr_t u, char **out)
{
	*out = NULL;
	return u ? get_user_path(t, u, out) : 0;
}

/* Linux's copy_mount_options: a page, or what of it can be read up to the
 * first fault (EFAULT if nothing); NUL-ended for the text options here. */
static int get_mount_data(struct task *t, uaddr_t u, char **out)
{
	size_t first = PAGE - (u & (PAGE - 1));
	char *buf;

	*out = NULL;
	if (!u)
		return 0;
	buf = calloc(1, PAGE);
	if (!buf)
		return -ENOMEM;
	if (copy_from_user(t->mm, buf, u, first) < 0) {
		free(buf);
		return -EFAULT;
	}
	if (first < PAGE && copy_from_user(t->mm, buf + first, u + first, PAGE - first) < 0)
		memset(buf + first, 0, PAGE - first);
	buf[PAGE - 1] = 0;
	*out = buf;
	return 0;
}

long sys_mount(struct task *t, const struct sysargs *a)
{
	char *source = NULL, *target = NULL, *type = NULL, *data = NULL;
	int ret = get_mount_string(t, sysarg_uaddr(a, 2), &type);

	if (ret == 0)
		ret = get_mount_string(t, sysarg_uaddr(a, 0), &source);
	if (ret == 0)
		ret = get_mount_data(t, sysarg_uaddr(a, 4), &data);
	if (ret == 0)
		ret = get_user_path(t, sysarg_uaddr(a, 1), &target);
	if (ret == 0)
		ret = vfs_mount(t, source, target, type, (uint64_t)sysarg_long(a, 3), data);
	free(source);
	free(target);
	free(type);
	free(data);
	return ret;
}

long sys_umount2(struct task *t, const struct sysargs *a)
{
	char *target;
	int ret;

	if (sysarg_int(a, 1) &
	    ~(LINUX_MNT_FORCE | LINUX_MNT_DETACH | LINUX_MNT_EXPIRE | LINUX_UMOUNT_NOFOLLOW))
		return -EINVAL; /* before the path, as Linux */
	ret = get_user_path(t, sysarg_uaddr(a, 0), &target);
	if (ret < 0)
		return ret;
	ret = vfs_umount(t, target, sysarg_int(a, 1));
	free(target);
	return ret;
}

long sys_pivot_root(struct task *t, const struct sysargs *a)
{
	char *new_root = NULL, *put_old = NULL;
	int ret;

	/* Linux checks the capability before it reads the paths */
	if (!vfs_may_mount(t))
		return -EPERM;
	ret = get_user_path(t, sysarg_uaddr(a, 0), &new_root);
	if (ret == 0)
		ret = get_user_path(t, sysarg_uaddr(a, 1), &put_old);
	if (ret == 0)
		ret = vfs_pivot_root(t, new_root, put_old);
	free(new_root);
	free(put_old);
	return ret;
}
