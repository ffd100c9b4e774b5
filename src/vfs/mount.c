/* vfs/mount.c: the mount table at boot. The default root is the host's /
 * read-only under an overlay with a tmpfs upper: every program on the host
 * runs inside with no set-up, and nothing on the host changes. Then devfs
 * on /dev, a tmpfs on /dev/shm, devpts on /dev/pts, procfs on /proc, a
 * read-only sysfs on /sys, and the -v volumes; the guest's /etc/hosts
 * names its hostname. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/uts.h"
#include "vfs/mount.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "vfs/devices.h"
#include "fs/hostfs/hostfs.h"
#include "fs/tmpfs/tmpfs.h"
#include "fs/sysfs/sysfs.h"
#include "fs/cgroupfs/cgroupfs.h"
#include "fs/overlay/overlay.h"
#include "tty/pty.h"
#include "kernel/cred.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/stat.h"

int (*procfs_mount_hook)(struct super_block **sb, struct inode **root);

struct mount *shm_mnt;
uint64_t tmpfs_default_size;

static const struct cred root_cred = { .cap_effective = CAP_FULL_SET,
				       .cap_permitted = CAP_FULL_SET };

/* The directory at guest path inside root, made (mkdir -p) if needed and
 * allowed (never in a root written through to the host: --rw). */
static bool may_create = true;

static int mkdir_p(struct path *root, const char *gpath, struct path *out)
{
	char *buf = strdup(gpath), *comp, *save = NULL;
	struct path p = *root;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	path_get(&p);
	for (comp = strtok_r(buf, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
		struct inode *dir = p.dentry->inode, *child;
		struct mount *m;
		struct dentry *d;

		if (strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0) {
			ret = -EINVAL;
			break;
		}
		ret = dir->iop->lookup(dir, comp, &child);
		if (ret == -ENOENT && dir->iop->mknod && may_create)
			ret = dir->iop->mknod(dir, comp, LINUX_S_IFDIR | 0755, 0, &root_cred,
					      &child);
		if (ret < 0)
			break;
		if (!LINUX_S_ISDIR(child->mode)) {
			inode_put(child);
			ret = -ENOTDIR;
			break;
		}
		d = dentry_new(comp, p.dentry, child);
		inode_put(child);
		if (!d) {
			ret = -ENOMEM;
			break;
		}
		dentry_put(p.dentry);
		p.dentry = d;
		while ((m = mount_lookup(p.mnt, p.dentry->inode))) {
			path_put(&p);
			p.dentry = dentry_get(m->root);
			p.mnt = mnt_get(m);
		}
	}
	free(buf);
	if (ret < 0) {
		path_put(&p);
		return ret;
	}
	*out = p;
	return 0;
}

static int mount_at(struct path *root, const char *gpath, struct super_block *sb,
		    struct inode *fsroot, const char *source, bool rdonly)
{
	struct path at;
	struct mount *m;
	int ret = mkdir_p(root, gpath, &at);

	if (ret < 0) {
		/* Not mounted: the filesystem goes, its superblock with it. */
		inode_put(fsroot);
		if (sb->put_super)
			sb->put_super(sb);
		return ret;
	}
	m = mount_add(&at, sb, fsroot, source, rdonly);
	/* Read-only by the host's choice (sysfs, -v ...:ro): a remount
	 * inside does not make it writable (Linux's MNT_LOCK_READONLY). */
	if (m && rdonly)
		m->flags |= MNT_LOCK_READONLY;
	ret = m ? 0 : -ENOMEM;
	inode_put(fsroot);
	path_put(&at);
	return ret;
}

static int add_node(struct inode *dir, const char *name, uint32_t mode, uint64_t rdev)
{
	return dir->iop->mknod(dir, name, mode, rdev, &root_cred, NULL);
}

/* devfs: a tmpfs with the device nodes programs expect. */
static int make_devfs(struct super_block **sb, struct inode **root)
{
	struct inode *r;
	int ret = tmpfs_mount(1 << 20, 0755, sb, &r);

	if (ret < 0)
		return ret;
	(*sb)->fstype = "devtmpfs";
	ret = add_node(r, "null", LINUX_S_IFCHR | 0666, MKDEV(1, 3));
	ret = ret ?: add_node(r, "zero", LINUX_S_IFCHR | 0666, MKDEV(1, 5));
	ret = ret ?: add_node(r, "full", LINUX_S_IFCHR | 0666, MKDEV(1, 7));
	ret = ret ?: add_node(r, "random", LINUX_S_IFCHR | 0666, MKDEV(1, 8));
	ret = ret ?: add_node(r, "urandom", LINUX_S_IFCHR | 0666, MKDEV(1, 9));
	ret = ret ?: add_node(r, "kmsg", LINUX_S_IFCHR | 0644, MKDEV(1, 11));
	ret = ret ?: add_node(r, "tty", LINUX_S_IFCHR | 0666, MKDEV(5, 0));
	ret = ret ?: add_node(r, "console", LINUX_S_IFCHR | 0600, MKDEV(5, 1));
	ret = ret ?: add_node(r, "ptmx", LINUX_S_IFCHR | 0666, MKDEV(5, 2));
	ret = ret ?: add_node(r, "shm", LINUX_S_IFDIR | 01777, 0);
	ret = ret ?: add_node(r, "pts", LINUX_S_IFDIR | 0755, 0);
	ret = ret ?: r->iop->symlink(r, "fd", "/proc/self/fd", &root_cred);
	ret = ret ?: r->iop->symlink(r, "stdin", "/proc/self/fd/0", &root_cred);
	ret = ret ?: r->iop->symlink(r, "stdout", "/proc/self/fd/1", &root_cred);
	ret = ret ?: r->iop->symlink(r, "stderr", "/proc/self/fd/2", &root_cred);
	if (ret < 0) {
		inode_put(r);
		return ret;
	}
	*root = r;
	return 0;
}

static int make_shm_mnt(uint64_t size)
{
	struct super_block *sb;
	struct inode *r;
	int ret = tmpfs_mount(size, 01777, &sb, &r);

	if (ret < 0)
		return ret;
	shm_mnt = mount_internal(sb, r, "tmpfs");
	inode_put(r);
	if (!shm_mnt) {
		sb->put_super(sb);
		return -ENOMEM;
	}
	return 0;
}

/* Whether the hosts(5) text names name (a blank-separated word after the
 * address, before any '#'). */
static bool hosts_names(const char *text, const char *name)
{
	size_t len = strlen(name);
	const char *p = text, *eol, *w;

	for (; *p; p = *eol ? eol + 1 : eol) {
		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		w = p + strspn(p, " \t");
		w += strcspn(w, " \t\n#"); /* the address */
		while (w < eol && *w != '#') {
			w += strspn(w, " \t");
			if ((size_t)(eol - w) >= len && strncmp(w, name, len) == 0 &&
			    (w + len == eol || strchr(" \t#", w[len])))
				return true;
			w += strcspn(w, " \t\n#");
		}
	}
	return false;
}

#define HOSTS_MAX 65536

/* The guest's /etc/hosts names the instance's hostname, as a Debian
 * installer's "127.0.1.1 NAME" line does: the root's file is the host's,
 * which does not know "skas", and without it a lookup of the own name
 * fails (sudo's "unable to resolve host", Java's getLocalHost, Erlang's
 * node names; there is no DNS inside). Only on the private overlay,
 * where the line goes into the guest's copy and the host's file stays as
 * it is, and only to a regular file that does not name it yet. */
static void hosts_name_self(struct path *root)
{
	const char *name = uts_name(NULL, false);
	struct inode *etc = NULL, *ino = NULL;
	struct path p = { 0 };
	struct file *f = NULL;
	char *buf = malloc(HOSTS_MAX + 1), line[LINUX_UTS_LEN + 16];
	long n;

	if (root->dentry->inode->iop->lookup(root->dentry->inode, "etc", &etc) < 0) {
		etc = NULL;
		goto out;
	}
	if (!LINUX_S_ISDIR(etc->mode) || etc->iop->lookup(etc, "hosts", &ino) < 0) {
		ino = NULL;
		goto out;
	}
	if (!LINUX_S_ISREG(ino->mode))
		goto out;
	p.mnt = root->mnt;
	p.dentry = dentry_new("etc", root->dentry, etc);
	if (p.dentry) {
		struct dentry *d = dentry_new("hosts", p.dentry, ino);

		dentry_put(p.dentry);
		p.dentry = d;
	}
	/* read first: an open for writing copies the file up */
	if (!p.dentry || !buf || vfs_open_path(&p, LINUX_O_RDONLY, &f) < 0)
		goto out;
	n = file_op_pread(f, buf, HOSTS_MAX, 0);
	file_put(f);
	f = NULL;
	if (n < 0 || n == HOSTS_MAX)
		goto out; /* unread, or too large to tell */
	buf[n] = 0;
	if (hosts_names(buf, name))
		goto out;
	if (vfs_open_path(&p, LINUX_O_WRONLY | LINUX_O_APPEND, &f) < 0)
		goto out;
	snprintf(line, sizeof(line), "%s127.0.1.1\t%s\n", n && buf[n - 1] != '\n' ? "\n" : "",
		 name);
	file_op_write(f, line, strlen(line));
out:
	free(buf);
	if (f)
		file_put(f);
	if (p.dentry)
		dentry_put(p.dentry);
	if (ino)
		inode_put(ino);
	if (etc)
		inode_put(etc);
}

int vfs_mount_root(const struct root_config *cfg, struct path *root, const char **why)
{
	struct super_block *sb, *lsb, *usb;
	struct inode *r, *lower, *upper;
	struct mount *m;
	int ret, i;

	if (cfg->rw) {
		ret = hostfs_mount(cfg->host_root, false, &sb, &r);
		if (ret < 0) {
			*why = "cannot open the root directory";
			return ret;
		}
	} else {
		ret = hostfs_mount(cfg->host_root, true, &lsb, &lower);
		if (ret < 0) {
			*why = "cannot open the root directory";
			return ret;
		}
		ret = tmpfs_mount(cfg->tmpfs_size, 0755, &usb, &upper);
		if (ret < 0) {
			inode_put(lower);
			*why = "cannot make the root's tmpfs";
			return ret;
		}
		ret = overlay_mount(upper, lower, &sb, &r);
		if (ret < 0) {
			*why = "cannot make the root overlay";
			return ret;
		}
	}
	if (!shm_mnt) {
		ret = make_shm_mnt(cfg->tmpfs_size);
		if (ret < 0) {
			inode_put(r);
			*why = "cannot make the internal tmpfs";
			return ret;
		}
	}
	may_create = !cfg->rw;
	tmpfs_default_size = cfg->tmpfs_size;
	m = mount_add(NULL, sb, r, cfg->rw ? cfg->host_root : "overlay", false);
	inode_put(r);
	if (!m)
		return -ENOMEM;
	root->mnt = mnt_get(m);
	root->dentry = dentry_get(m->root);
	if (!cfg->rw)
		hosts_name_self(root);

	/* With --rw, a root without /dev or /proc goes without them. */
	ret = make_devfs(&sb, &r);
	if (ret == 0)
		ret = mount_at(root, "/dev", sb, r, "devtmpfs", false);
	if (ret == 0) {
		ret = tmpfs_mount(cfg->tmpfs_size, 01777, &sb, &r);
		if (ret == 0)
			ret = mount_at(root, "/dev/shm", sb, r, "tmpfs", false);
	}
	if (ret == 0) {
		ret = devpts_mount(&sb, &r);
		if (ret == 0)
			ret = mount_at(root, "/dev/pts", sb, r, "devpts", false);
	}
	if (ret == -ENOENT && cfg->rw)
		ret = 0;
	if (ret == 0 && procfs_mount_hook) {
		ret = procfs_mount_hook(&sb, &r);
		if (ret == 0)
			ret = mount_at(root, "/proc", sb, r, "proc", false);
		if (ret == -ENOENT && cfg->rw)
			ret = 0;
	}
	if (ret == 0) {
		ret = sysfs_mount(&sb, &r);
		if (ret == 0)
			ret = mount_at(root, "/sys", sb, r, "sysfs", true);
		/* cgroup2 where systemd and container runtimes mount it */
		if (ret == 0)
			ret = cgroupfs_mount(NULL, &sb, &r);
		if (ret == 0)
			ret = mount_at(root, "/sys/fs/cgroup", sb, r, "cgroup2", false);
		if (ret == -ENOENT && cfg->rw)
			ret = 0;
	}
	if (ret < 0) {
		*why = "cannot mount /dev, /proc or /sys";
		path_put(root);
		return ret;
	}
	for (i = 0; i < cfg->nvolumes; i++) {
		const struct volume *v = &cfg->volumes[i];

		may_create = true; /* a volume's mount point is made in the guest */
		ret = hostfs_mount(v->host_dir, v->rdonly, &sb, &r);
		if (ret == 0)
			ret = mount_at(root, v->guest_dir, sb, r, v->host_dir, v->rdonly);
		if (ret < 0) {
			*why = v->host_dir;
			path_put(root);
			return ret;
		}
	}
	return 0;
}

void mounts_for_each(const struct path *root,
		     void (*fn)(void *ctx, const char *src, const char *dir, const char *type,
				bool rdonly),
		     void *ctx)
{
	struct mount *m;

	list_for_each_entry(m, &mounts, link)
	{
		struct path p = { m, m->root };
		char *dir = path_name(&p, root);

		if (dir)
			fn(ctx, m->source, dir, m->sb->fstype, m->rdonly || m->sb->rdonly);
		free(dir);
	}
}
