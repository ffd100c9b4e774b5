/* fs/nsfs/nsfs.c: namespace files. One inode per namespace while anything
 * holds it (the namespace points at it without a reference; the inode
 * holds a reference on the namespace), on a mount of its own that no path
 * walk reaches, as Linux's nsfs is: S_IFREG, mode 0444, st_ino the
 * namespace's number, st_dev nsfs's. The ioctls answer as Linux's
 * ns_ioctl does: a namespace's owner is the user namespace of its maker
 * (kernel/userns.h), a user or pid namespace's parent is given if the
 * caller's own namespace is it or above it. Differs from Linux: the newer ioctls
 * (NS_GET_MNTNS_ID, NS_GET_PID_FROM_PIDNS...) are ENOTTY, as before Linux
 * 6.8. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs/nsfs/nsfs.h"
#include "vfs/file.h"
#include "vfs/devices.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "kernel/userns.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"

#define NS_GET_USERNS	 0xb701
#define NS_GET_PARENT	 0xb702
#define NS_GET_NSTYPE	 0xb703
#define NS_GET_OWNER_UID 0xb704
#define NSFS_MAGIC	 0x6e736673

static struct super_block nsfs_sb = {
	.fstype = "nsfs",
	.dev = MKDEV(0, 4), /* Linux's nsfs is its first anonymous device */
	.magic = NSFS_MAGIC,
};
static struct mount *nsfs_mnt;

struct nsfs_inode {
	struct ns_common *ns; /* a reference */
	struct linux_timespec made;
};

void nsfs_name(struct ns_common *ns, char *buf, size_t n)
{
	snprintf(buf, n, "%s:[%u]", ns_type_name(ns->type), ns->ino);
}

static int nsfs_getattr(struct inode *ino, struct linux_stat *st)
{
	struct nsfs_inode *ni = ino->priv;

	memset(st, 0, sizeof(*st));
	st->st_dev = nsfs_sb.dev;
	st->st_ino = ino->ino;
	st->st_mode = LINUX_S_IFREG | 0444;
	st->st_nlink = 1;
	st->st_blksize = 4096;
	st->st_atime_sec = st->st_mtime_sec = st->st_ctime_sec = (uint64_t)ni->made.tv_sec;
	st->st_atime_nsec = st->st_mtime_nsec = st->st_ctime_nsec = (uint64_t)ni->made.tv_nsec;
	return 0;
}

static int nsfs_statfs(struct inode *ino, struct linux_statfs *st)
{
	(void)ino;
	memset(st, 0, sizeof(*st));
	st->f_type = NSFS_MAGIC;
	st->f_bsize = 4096;
	st->f_namelen = 255;
	st->f_frsize = 4096;
	return 0;
}

static void nsfs_release(struct inode *ino)
{
	struct nsfs_inode *ni = ino->priv;

	ni->ns->inode = NULL;
	ns_put(ni->ns);
	free(ni);
}

/* Linux's nsfs inodes are S_IMMUTABLE: no change of them (chmod, chown,
 * O_TRUNC), and no open for writing. */
static int nsfs_setattr(struct inode *ino, const struct iattr *ia)
{
	(void)ino;
	(void)ia;
	return -EPERM;
}

/* No xattr handlers (Linux's nsfs sets no s_xattr, so no IOP_XATTR):
 * every get is EOPNOTSUPP, where a filesystem without the name says
 * ENODATA; a list is empty. A set or remove is EPERM, the inode being
 * immutable (Linux's xattr_permission checks that first; differs from
 * Linux: for a caller without CAP_FOWNER our W_OK check comes first,
 * EACCES). */
static long nsfs_getxattr(struct inode *ino, const char *name, void *buf, size_t n)
{
	(void)ino;
	(void)name;
	(void)buf;
	(void)n;
	return -EOPNOTSUPP;
}

static int nsfs_setxattr(struct inode *ino, const char *name, const void *val, size_t n, int flags)
{
	(void)ino;
	(void)name;
	(void)val;
	(void)n;
	(void)flags;
	return -EPERM;
}

static int nsfs_removexattr(struct inode *ino, const char *name)
{
	(void)ino;
	(void)name;
	return -EPERM;
}

static int nsfs_open(struct inode *ino, struct file *f);

static const struct inode_ops nsfs_iops = {
	.getattr = nsfs_getattr,
	.setattr = nsfs_setattr,
	.statfs = nsfs_statfs,
	.open = nsfs_open,
	.release = nsfs_release,
	.getxattr = nsfs_getxattr,
	.setxattr = nsfs_setxattr,
	.removexattr = nsfs_removexattr,
};

static struct inode *nsfs_inode(struct ns_common *ns)
{
	struct nsfs_inode *ni;
	struct inode *ino;

	if (ns->inode) {
		inode_get(ns->inode);
		return ns->inode;
	}
	ni = malloc(sizeof(*ni));
	if (!ni)
		return NULL;
	ni->ns = ns;
	ni->made = vfs_now();
	ino = inode_new(&nsfs_sb, ns->ino, LINUX_S_IFREG | 0444, &nsfs_iops, ni);
	if (!ino) {
		free(ni);
		return NULL;
	}
	ns_get(ns);
	ns->inode = ino;
	return ino;
}

int nsfs_path(struct ns_common *ns, struct path *out)
{
	struct inode *ino;
	struct dentry *d;
	char name[32];

	if (!nsfs_mnt) {
		struct inode *root = inode_new(&nsfs_sb, 1, LINUX_S_IFDIR | 0555, NULL, NULL);

		if (!root)
			return -ENOMEM;
		nsfs_mnt = mount_internal(&nsfs_sb, root, "nsfs");
		inode_put(root);
		if (!nsfs_mnt)
			return -ENOMEM;
	}
	ino = nsfs_inode(ns);
	if (!ino)
		return -ENOMEM;
	nsfs_name(ns, name, sizeof(name));
	d = dentry_new(name, NULL, ino);
	inode_put(ino);
	if (!d)
		return -ENOMEM;
	out->mnt = mnt_get(nsfs_mnt);
	out->dentry = d;
	return 0;
}

static const struct file_ops nsfs_fops;

struct ns_common *nsfs_ns(struct file *f)
{
	if (f->ops != &nsfs_fops || !f->inode)
		return NULL;
	return ((struct nsfs_inode *)f->inode->priv)->ns;
}

/* Linux's open_related_ns: a new O_RDONLY|O_CLOEXEC fd of ns's file. */
static long open_related(struct task *t, struct ns_common *ns)
{
	struct path p;
	struct file *f;
	int ret = nsfs_path(ns, &p), fd;

	if (ret < 0)
		return ret;
	f = file_alloc(&nsfs_fops, LINUX_O_RDONLY, -1, &p);
	path_put(&p);
	if (!f)
		return file_alloc_error();
	fd = fd_install(t->files, f, 0, true, (int)t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur);
	if (fd < 0)
		file_put(f);
	return fd;
}

static long nsfs_ioctl(struct file *f, struct task *t, unsigned cmd, uint64_t arg)
{
	struct ns_common *ns = nsfs_ns(f);
	struct user_ns *owner;
	uint32_t uid = 0;

	switch (cmd) {
	case NS_GET_USERNS:
		/* the owning user namespace (a user namespace's is its
		 * parent), if the caller's own or below it (ns_get_owner) */
		owner = ns->type == NS_USER ? ((struct user_ns *)ns)->parent : ns_owner(ns);
		if (!owner || !user_ns_within(owner, cred_user_ns(&t->proc->cred)))
			return -EPERM;
		return open_related(t, &owner->ns);
	case NS_GET_PARENT:
		/* only pid and user namespaces have parents; the instance's
		 * have none, and a pid namespace's parent must be the
		 * caller's own or below it (pidns_get_parent) */
		if (ns->type == NS_PID) {
			struct pid_ns *parent = ((struct pid_ns *)ns)->parent;

			if (!parent || !pid_ns_within(parent, task_pid_ns(t)))
				return -EPERM;
			return open_related(t, &parent->ns);
		}
		if (ns->type == NS_USER) {
			owner = ((struct user_ns *)ns)->parent;
			if (!owner || !user_ns_within(owner, cred_user_ns(&t->proc->cred)))
				return -EPERM;
			return open_related(t, &owner->ns);
		}
		return -EINVAL;
	case NS_GET_NSTYPE:
		return (long)ns_type_flag(ns->type);
	case NS_GET_OWNER_UID:
		if (ns->type != NS_USER)
			return -EINVAL;
		uid = from_kuid_munged(cred_user_ns(&t->proc->cred), ((struct user_ns *)ns)->owner);
		return copy_to_user(t->mm, (uaddr_t)arg, &uid, sizeof(uid)) < 0 ? -EFAULT : 0;
	}
	return -ENOTTY;
}

/* No read or write: Linux's nsfs file has neither, so read and pread are
 * EINVAL (pread passes the ESPIPE check: Linux keeps FMODE_PREAD). */
static long nsfs_pread(struct file *f, void *buf, size_t n, int64_t off)
{
	(void)f;
	(void)buf;
	(void)n;
	(void)off;
	return -EINVAL;
}

static const struct file_ops nsfs_fops = {
	.pread = nsfs_pread,
	.ioctl = nsfs_ioctl,
};

static int nsfs_open(struct inode *ino, struct file *f)
{
	(void)ino;
	if ((f->flags & LINUX_O_ACCMODE) != LINUX_O_RDONLY)
		return -EPERM;
	f->ops = &nsfs_fops;
	return 0;
}
