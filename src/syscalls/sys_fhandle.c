/* syscalls/sys_fhandle.c: name_to_handle_at and open_by_handle_at, as
 * Linux's fs/fhandle.c: argument checks and copies; the handles are
 * vfs/fhandle.c's. */
#include <stdlib.h>
#include <string.h>

#include "syscalls/dispatch.h"
#include "kernel/cred.h"
#include "kernel/task.h"
#include "mm/usercopy.h"
#include "vfs/fhandle.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/types.h"

/* do_sys_name_to_handle: the handle's room (handle_bytes, read after the
 * lookup), the mount id written even when the handle did not fit, then the
 * fixed part with the size it needs and FILEID_INVALID (EOVERFLOW), or the
 * whole handle. */
static long name_to_handle(struct task *t, const struct path *p, uaddr_t ufh, uaddr_t umnt,
			   int flags)
{
	struct {
		struct linux_file_handle h;
		uint8_t fh[LINUX_MAX_HANDLE_SZ];
	} out;
	int len, type;
	long ret;

	if (copy_from_user(t->mm, &out.h, ufh, sizeof(out.h)) < 0)
		return -EFAULT;
	if (out.h.handle_bytes > LINUX_MAX_HANDLE_SZ)
		return -EINVAL;
	len = (int)(out.h.handle_bytes & ~3U); /* in 32-bit words, as Linux counts */
	ret = fh_encode(p, flags & LINUX_AT_HANDLE_FID, out.fh, &len, &type);
	if (ret < 0 && ret != -EOVERFLOW)
		return ret;
	/* AT_HANDLE_CONNECTABLE: marked in the type, and a directory's too */
	if (ret == 0 && (flags & LINUX_AT_HANDLE_CONNECTABLE)) {
		type |= LINUX_FILEID_IS_CONNECTABLE;
		if (inode_is_dir(p->dentry->inode))
			type |= LINUX_FILEID_IS_DIR;
	}
	out.h.handle_bytes = (uint32_t)len;
	out.h.handle_type = type;
	if (flags & LINUX_AT_HANDLE_MNT_ID_UNIQUE) {
		uint64_t id = mount_unique_id(p->mnt);

		if (copy_to_user(t->mm, umnt, &id, sizeof(id)) < 0)
			return -EFAULT;
	} else if (copy_to_user(t->mm, umnt, &p->mnt->id, sizeof(int)) < 0) {
		return -EFAULT;
	}
	if (copy_to_user(t->mm, ufh, &out, sizeof(out.h) + (ret < 0 ? 0 : (size_t)len)) < 0)
		return -EFAULT;
	return ret;
}

/* name_to_handle_at(2). Differs from Linux: a file with no path (a pipe,
 * a socket, an eventfd with AT_EMPTY_PATH) has no handle at all
 * (EOPNOTSUPP), where Linux gives AT_HANDLE_FID's of its pseudo
 * filesystem's inode. */
long sys_name_to_handle_at(struct task *t, const struct sysargs *a)
{
	int dirfd = sysarg_int(a, 0), flags = sysarg_int(a, 4);
	struct path p;
	char *path;
	long ret;

	if (flags & ~(LINUX_AT_SYMLINK_FOLLOW | LINUX_AT_EMPTY_PATH | LINUX_AT_HANDLE_FID |
		      LINUX_AT_HANDLE_MNT_ID_UNIQUE | LINUX_AT_HANDLE_CONNECTABLE))
		return -EINVAL;
	/* a connectable handle is to be opened (not FID's), of a file with a
	 * known parent (not an fd's, which may have none) */
	if ((flags & LINUX_AT_HANDLE_CONNECTABLE) &&
	    (flags & (LINUX_AT_HANDLE_FID | LINUX_AT_EMPTY_PATH)))
		return -EINVAL;
	ret = get_user_path(t, sysarg_uaddr(a, 1), &path);
	if (ret < 0)
		return ret;
	if (!path[0] && (flags & LINUX_AT_EMPTY_PATH) && dirfd != LINUX_AT_FDCWD) {
		struct file *f = fdget(t->files, dirfd);

		ret = !f ? -EBADF : !f->path.dentry ? -EOPNOTSUPP : 0;
		if (f)
			file_put(f);
	}
	if (ret == 0)
		ret = path_lookupat(t, dirfd, path,
				    ((flags & LINUX_AT_SYMLINK_FOLLOW) ? LOOKUP_FOLLOW : 0) |
					    ((flags & LINUX_AT_EMPTY_PATH) ? LOOKUP_EMPTY : 0),
				    &p);
	free(path);
	if (ret < 0)
		return ret;
	ret = name_to_handle(t, &p, sysarg_uaddr(a, 2), sysarg_uaddr(a, 3), flags);
	path_put(&p);
	return ret;
}

/* handle_to_path: the fixed part's checks, the mount (mount_fd's, or the
 * cwd's), the caller's right, then the handle. Differs from Linux: only
 * CAP_DAC_READ_SEARCH in the instance's user namespace opens handles;
 * Linux 6.9's relaxed rule for O_DIRECTORY in a mount a user namespace's
 * root could mount or bind itself is not made (EPERM). */
static long handle_to_path(struct task *t, int mount_fd, uaddr_t ufh, struct path *out)
{
	struct {
		struct linux_file_handle h;
		uint8_t fh[LINUX_MAX_HANDLE_SZ];
	} in;
	struct path root;
	int type;
	long ret;

	if (copy_from_user(t->mm, &in.h, ufh, sizeof(in.h)) < 0)
		return -EFAULT;
	if (in.h.handle_bytes > LINUX_MAX_HANDLE_SZ || in.h.handle_bytes == 0)
		return -EINVAL;
	type = in.h.handle_type;
	if (type < 0 || ((uint32_t)type & LINUX_FILEID_USER_FLAGS_MASK &
			 ~(uint32_t)(LINUX_FILEID_IS_CONNECTABLE | LINUX_FILEID_IS_DIR)))
		return -EINVAL;
	if (mount_fd == LINUX_AT_FDCWD) {
		root = t->fs->cwd;
		path_get(&root);
	} else {
		struct file *f = fdget(t->files, mount_fd);

		if (!f)
			return -EBADF;
		root = f->path;
		if (root.dentry)
			path_get(&root);
		file_put(f);
	}
	ret = capable(&t->proc->cred, CAP_DAC_READ_SEARCH) ? 0 : -EPERM;
	if (ret == 0 && copy_from_user(t->mm, in.fh, ufh + sizeof(in.h), in.h.handle_bytes) < 0)
		ret = -EFAULT;
	/* a pipe's or a socket's mount decodes no handles */
	if (ret == 0 && !root.dentry)
		ret = -ESTALE;
	if (ret == 0)
		ret = fh_to_path(root.mnt, in.fh, (int)(in.h.handle_bytes & ~3U),
				 (int)((uint32_t)type & ~LINUX_FILEID_USER_FLAGS_MASK),
				 type & LINUX_FILEID_IS_CONNECTABLE, type & LINUX_FILEID_IS_DIR,
				 out);
	if (root.dentry)
		path_put(&root);
	return ret;
}

/* open_by_handle_at(2): the handle's file opened with flags, as openat
 * opens what it finds; as Linux's do_handle_open, the fd is taken after
 * the handle's decoding but before the open (a full table: EMFILE, and
 * O_TRUNC has not emptied the file). */
long sys_open_by_handle_at(struct task *t, const struct sysargs *a)
{
	unsigned flags = sysarg_uint(a, 2);
	struct file *f;
	struct path p;
	long ret;

	ret = handle_to_path(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), &p);
	if (ret < 0)
		return ret;
	ret = fd_open_room(t->files, task_nofile(t));
	if (ret == 0)
		ret = vfs_open_found(t, &p, flags, &f);
	path_put(&p);
	if (ret < 0)
		return ret;
	ret = fd_install(t->files, f, 0, flags & LINUX_O_CLOEXEC, task_nofile(t));
	if (ret < 0)
		file_put(f);
	return ret;
}
