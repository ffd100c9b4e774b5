/* tty/devpts.c: the devpts filesystem: a directory with "ptmx" (char 5,2,
 * mode 000 as Linux mounts it by default) and one character device N
 * (136, N) per open pty master, owned by whoever opened the
 * master, group tty, mode 620. Inodes are made at each lookup; their
 * numbers are Linux's (root 1, ptmx 2, pts N is N+3).
 * Differs from Linux: one instance however many times it is mounted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tty/pty.h"
#include "tty/tty.h"
#include "vfs/devices.h"
#include "vfs/file.h"
#include "vfs/readdir.h"
#include "kernel/cred.h"
#include "abi/linux/errno.h"
#include "abi/linux/stat.h"

#define ROOT_INO 1
#define PTMX_INO 2

static struct super_block devpts_sb = {
	.fstype = "devpts",
	.magic = DEVPTS_SUPER_MAGIC,
};
static struct inode *devpts_root;
static struct linux_timespec mount_time;
static uint32_t ptmx_mode = 0;

static const struct inode_ops devpts_iops;

static struct inode *make_inode(uint64_t ino, uint32_t mode)
{
	return inode_new(&devpts_sb, ino, mode, &devpts_iops, NULL);
}

/* The number N of a name that is one, else -1. */
static int pts_number(const char *name)
{
	char *end;
	long n;

	if (name[0] < '0' || name[0] > '9' || (name[0] == '0' && name[1]))
		return -1;
	n = strtol(name, &end, 10);
	return *end || n >= PTY_LIMIT ? -1 : (int)n;
}

static int devpts_lookup(struct inode *dir, const char *name, struct inode **out)
{
	int n;

	(void)dir;
	if (strcmp(name, "ptmx") == 0) {
		*out = make_inode(PTMX_INO, LINUX_S_IFCHR);
		return *out ? 0 : -ENOMEM;
	}
	n = pts_number(name);
	if (n < 0 || !pty_lookup((unsigned)n))
		return -ENOENT;
	*out = make_inode(3 + (uint64_t)n, LINUX_S_IFCHR);
	return *out ? 0 : -ENOMEM;
}

static int devpts_getattr(struct inode *ino, struct linux_stat *st)
{
	struct linux_timespec t = mount_time;
	struct pty *pty = NULL;

	memset(st, 0, sizeof(*st));
	st->st_dev = devpts_sb.dev;
	st->st_ino = ino->ino;
	st->st_nlink = 1;
	st->st_blksize = 1024;
	if (ino->ino == ROOT_INO) {
		st->st_mode = LINUX_S_IFDIR | 0755;
		st->st_nlink = 2;
	} else if (ino->ino == PTMX_INO) {
		st->st_mode = LINUX_S_IFCHR | ptmx_mode;
		st->st_rdev = MKDEV(5, 2);
	} else {
		pty = pty_lookup((unsigned)(ino->ino - 3));
		if (!pty)
			return -ENOENT;
		st->st_mode = LINUX_S_IFCHR | pty->mode;
		st->st_uid = pty->uid;
		st->st_gid = pty->gid;
		st->st_rdev = MKDEV(PTY_SLAVE_MAJOR, pty->index);
		t = pty->ctime;
	}
	st->st_atime_sec = st->st_mtime_sec = st->st_ctime_sec = t.tv_sec;
	st->st_atime_nsec = st->st_mtime_nsec = st->st_ctime_nsec = t.tv_nsec;
	return 0;
}

static int devpts_setattr(struct inode *ino, const struct iattr *ia)
{
	struct pty *pty = ino->ino > PTMX_INO ? pty_lookup((unsigned)(ino->ino - 3)) : NULL;

	if (ia->valid & ATTR_SIZE)
		return -EINVAL;
	if (ino->ino == PTMX_INO) {
		if (ia->valid & ATTR_MODE)
			ptmx_mode = ia->mode & 07777;
		return 0;
	}
	if (!pty)
		return ino->ino == ROOT_INO ? -EPERM : -ENOENT;
	if (ia->valid & ATTR_MODE)
		pty->mode = ia->mode & 07777;
	if (ia->valid & ATTR_UID)
		pty->uid = ia->uid;
	if (ia->valid & ATTR_GID)
		pty->gid = ia->gid;
	pty->ctime = vfs_now();
	return 0;
}

static int devpts_iterate(struct inode *dir, dir_emit_fn emit, void *ctx)
{
	char name[16];
	int i, ret;

	(void)dir;
	ret = emit(ctx, ".", ROOT_INO, LINUX_DT_DIR);
	ret = ret ?: emit(ctx, "..", ROOT_INO, LINUX_DT_DIR);
	ret = ret ?: emit(ctx, "ptmx", PTMX_INO, LINUX_DT_CHR);
	for (i = 0; i < (int)pty_index_end() && !ret; i++) {
		if (!pty_lookup((unsigned)i))
			continue;
		snprintf(name, sizeof(name), "%d", i);
		ret = emit(ctx, name, 3 + (uint64_t)i, LINUX_DT_CHR);
	}
	return 0;
}

static const struct file_ops devpts_dir_fops = {
	.read = dir_read,
	.pread = dir_pread,
	.getdents64 = dir_getdents64,
	.llseek = dir_llseek,
};

static int devpts_open(struct inode *ino, struct file *f)
{
	if (ino->ino != ROOT_INO)
		return -ENXIO;
	f->ops = &devpts_dir_fops;
	return 0;
}

static int devpts_statfs(struct inode *ino, struct linux_statfs *st)
{
	(void)ino;
	memset(st, 0, sizeof(*st));
	st->f_type = DEVPTS_SUPER_MAGIC;
	st->f_bsize = 4096;
	st->f_frsize = 4096;
	st->f_namelen = 255;
	return 0;
}

static const struct inode_ops devpts_iops = {
	.lookup = devpts_lookup,
	.getattr = devpts_getattr,
	.setattr = devpts_setattr,
	.iterate = devpts_iterate,
	.open = devpts_open,
	.statfs = devpts_statfs,
};

/* The options /proc/PID/mounts shows (Linux's devpts_show_options, with
 * the ptys' group and mode as skas makes them): ptmxmode is the mount
 * option, whatever a chmod of ptmx did since. */
static void show_opts(uint32_t ptmxmode)
{
	snprintf(devpts_sb.opts, sizeof(devpts_sb.opts), ",gid=%d,mode=%03o,ptmxmode=%03o", PTY_GID,
		 PTY_MODE, ptmxmode);
}

void devpts_set_ptmx_mode(uint32_t mode)
{
	ptmx_mode = mode & 07777;
	show_opts(ptmx_mode);
}

int devpts_mount(struct super_block **sb, struct inode **root)
{
	if (!devpts_root) {
		devpts_sb.dev = vfs_anon_dev();
		mount_time = vfs_now();
		devpts_root = make_inode(ROOT_INO, LINUX_S_IFDIR);
		if (!devpts_root)
			return -ENOMEM;
		show_opts(ptmx_mode);
	}
	inode_get(devpts_root);
	*sb = &devpts_sb;
	*root = devpts_root;
	return 0;
}
