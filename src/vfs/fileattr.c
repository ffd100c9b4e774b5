/* vfs/fileattr.c: chattr's file attributes, Linux's fs/file_attr.c. The
 * filesystem keeps the flags (inode_ops fileattr_get and _set; tmpfs keeps
 * immutable, append-only, nodump and noatime) and sets the INODE_* flags
 * of its inode that the VFS enforces: namei.c and the system calls refuse
 * what Linux's IS_IMMUTABLE and IS_APPEND refuse. Here are the checks every
 * filesystem shares: the mount writable, the owner (or CAP_FOWNER), and
 * CAP_LINUX_IMMUTABLE to set or clear immutable or append-only; and the
 * translation between FS_*_FL flags and FSGETXATTR's xflags. No
 * filesystem here keeps an extent size, a project id or an xflag without
 * an FS_*_FL twin: a request for one is EOPNOTSUPP. */
#include <string.h>

#include "vfs/fileattr.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "vfs/vfs.h"
#include "kernel/task.h"
#include "kernel/cred.h"
#include "kernel/userns.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"
#include "abi/linux/ioctl.h"
#include "abi/linux/stat.h"

/* FS_*_FL flags with an xflag twin (Linux's FS_COMMON_FL) */
static const struct {
	uint32_t fl, xfl;
} twins[] = {
	{ LINUX_FS_SYNC_FL, LINUX_FS_XFLAG_SYNC },
	{ LINUX_FS_IMMUTABLE_FL, LINUX_FS_XFLAG_IMMUTABLE },
	{ LINUX_FS_APPEND_FL, LINUX_FS_XFLAG_APPEND },
	{ LINUX_FS_NODUMP_FL, LINUX_FS_XFLAG_NODUMP },
	{ LINUX_FS_NOATIME_FL, LINUX_FS_XFLAG_NOATIME },
	{ LINUX_FS_DAX_FL, LINUX_FS_XFLAG_DAX },
	{ LINUX_FS_PROJINHERIT_FL, LINUX_FS_XFLAG_PROJINHERIT },
};

#define NTWINS (sizeof(twins) / sizeof(twins[0]))

static uint32_t xflags_of(uint32_t flags)
{
	uint32_t x = 0;
	size_t i;

	for (i = 0; i < NTWINS; i++)
		if (flags & twins[i].fl)
			x |= twins[i].xfl;
	return x;
}

static uint32_t flags_of(uint32_t xflags)
{
	uint32_t f = 0;
	size_t i;

	for (i = 0; i < NTWINS; i++)
		if (xflags & twins[i].xfl)
			f |= twins[i].fl;
	return f;
}

bool fileattr_ioctl_cmd(unsigned cmd)
{
	return cmd == LINUX_FS_IOC_GETFLAGS || cmd == LINUX_FS_IOC_SETFLAGS ||
	       cmd == LINUX_FS_IOC_FSGETXATTR || cmd == LINUX_FS_IOC_FSSETXATTR;
}

/* vfs_fileattr_set's checks of a change to flags: the mount writable,
 * the owner or CAP_FOWNER, CAP_LINUX_IMMUTABLE to change i or a; the
 * inode's flags now in *old. */
static int may_set_flags(struct task *t, struct file *f, uint32_t flags, uint32_t *old)
{
	const struct cred *c = &t->proc->cred;
	struct inode *ino = f->path.dentry->inode;
	struct linux_stat st;
	int ret;

	if (path_rdonly(&f->path))
		return -EROFS;
	ret = vfs_getattr(ino, &st);
	if (ret < 0)
		return ret;
	if (st.st_uid != c->fsuid && !capable_wrt_ids(c, st.st_uid, st.st_gid, CAP_FOWNER))
		return -EPERM;
	ret = ino->iop->fileattr_get(ino, old);
	if (ret < 0)
		return ret;
	if (((*old ^ flags) & (LINUX_FS_APPEND_FL | LINUX_FS_IMMUTABLE_FL)) &&
	    !capable(c, CAP_LINUX_IMMUTABLE))
		return -EPERM;
	return 0;
}

static int fileattr_set(struct task *t, struct file *f, uint32_t flags)
{
	uint32_t old;
	int ret = may_set_flags(t, f, flags, &old);

	return ret < 0 ? ret
		       : f->path.dentry->inode->iop->fileattr_set(f->path.dentry->inode, flags);
}

/* FSSETXATTR: fileattr_set_prepare's checks of the fields the flags do
 * not carry, before the flags' own. */
static int fsxattr_set(struct task *t, struct file *f, struct linux_fsxattr *x)
{
	struct inode *ino = f->path.dentry->inode;
	const struct cred *c = &t->proc->cred;
	uint32_t old, xf = x->fsx_xflags & ~(LINUX_FS_XFLAG_PREALLOC | LINUX_FS_XFLAG_HASATTR);
	bool reg = LINUX_S_ISREG(ino->mode), dir = LINUX_S_ISDIR(ino->mode);
	int ret = may_set_flags(t, f, flags_of(xf), &old);

	if (ret < 0)
		return ret;
	/* a project id changes only from the instance's user namespace */
	if (cred_user_ns(c) != &init_user_ns &&
	    (x->fsx_projid != 0 || ((xflags_of(old) ^ xf) & LINUX_FS_XFLAG_PROJINHERIT)))
		return -EINVAL;
	if (((xf & LINUX_FS_XFLAG_EXTSIZE) && !reg) ||
	    ((xf & LINUX_FS_XFLAG_EXTSZINHERIT) && !dir) ||
	    ((xf & (LINUX_FS_XFLAG_COWEXTSIZE | LINUX_FS_XFLAG_DAX)) && !reg && !dir))
		return -EINVAL;
	if (x->fsx_extsize == 0)
		xf &= ~(LINUX_FS_XFLAG_EXTSIZE | LINUX_FS_XFLAG_EXTSZINHERIT);
	if (x->fsx_cowextsize == 0)
		xf &= ~LINUX_FS_XFLAG_COWEXTSIZE;
	/* what no filesystem here keeps */
	if ((xf & ~xflags_of(~0u)) || x->fsx_extsize || x->fsx_cowextsize || x->fsx_projid)
		return -EOPNOTSUPP;
	return ino->iop->fileattr_set(ino, flags_of(xf));
}

long vfs_fileattr_ioctl(struct task *t, struct file *f, unsigned cmd, uint64_t arg)
{
	struct inode *ino = f->path.dentry ? f->path.dentry->inode : NULL;
	struct linux_fsxattr x;
	uint32_t flags;
	int ret;

	if (!ino || !ino->iop->fileattr_get)
		return -ENOIOCTLCMD;
	switch (cmd) {
	case LINUX_FS_IOC_GETFLAGS:
		ret = ino->iop->fileattr_get(ino, &flags);
		return ret < 0 ? ret : copy_to_user(t->mm, arg, &flags, sizeof(flags));
	case LINUX_FS_IOC_FSGETXATTR:
		ret = ino->iop->fileattr_get(ino, &flags);
		if (ret < 0)
			return ret;
		memset(&x, 0, sizeof(x));
		x.fsx_xflags = xflags_of(flags);
		return copy_to_user(t->mm, arg, &x, sizeof(x));
	case LINUX_FS_IOC_SETFLAGS:
		ret = copy_from_user(t->mm, &flags, arg, sizeof(flags));
		if (ret < 0)
			return ret;
		/* the filesystem says whether it has attributes for this
		 * inode before anything is checked */
		ret = ino->iop->fileattr_get(ino, &(uint32_t){ 0 });
		return ret < 0 ? ret : fileattr_set(t, f, flags);
	case LINUX_FS_IOC_FSSETXATTR:
		ret = copy_from_user(t->mm, &x, arg, sizeof(x));
		if (ret < 0)
			return ret;
		ret = ino->iop->fileattr_get(ino, &(uint32_t){ 0 });
		return ret < 0 ? ret : fsxattr_set(t, f, &x);
	}
	return -ENOIOCTLCMD;
}
