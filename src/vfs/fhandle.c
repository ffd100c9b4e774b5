/* vfs/fhandle.c: file handles, as Linux's fs/exportfs. A filesystem with
 * export_ops (tmpfs) encodes an inode and finds it again while it lives;
 * the path is rebuilt from the mount's root down through each directory's
 * name of the next (Linux's reconnect_path), or is a dentry of no name when
 * the file has none. A filesystem without them (hostfs, overlay, procfs)
 * gives AT_HANDLE_FID's inode-number handles only, and its other handles
 * are EOPNOTSUPP, as a Linux filesystem without export operations.
 * Differs from Linux: overlayfs's own FID format (origin and upper file
 * handles) is not used, and sysfs, built on tmpfs, has tmpfs's handles
 * rather than kernfs's. */
#include <stdlib.h>
#include <string.h>

#include "vfs/fhandle.h"
#include "vfs/namei.h"
#include "abi/linux/errno.h"

/* Linux's FILEID_INO64_GEN, which exportfs_encode_ino64_fid gives for a
 * filesystem without encode_fh: the inode number, then its generation
 * (skas keeps none there: 0), packed in 12 bytes. */
#define FILEID_INO64_GEN 0x81
#define INO64_FH_LEN	 12

int fh_encode(const struct path *p, bool fid, uint8_t *fh, int *len, int *type)
{
	const struct export_ops *op = p->mnt->sb->export_op;
	struct inode *ino = p->dentry->inode;
	uint32_t gen = 0;
	int ret;

	/* exportfs_can_encode_fh: a handle meant to be opened wants a
	 * filesystem that decodes them */
	if (!fid && (!op || !op->fh_to_inode))
		return -EOPNOTSUPP;
	if (op && op->encode_fh) {
		ret = op->encode_fh(ino, fh, len);
		*type = ret < 0 ? FILEID_INVALID : ret;
		return ret < 0 ? ret : 0;
	}
	if (*len < INO64_FH_LEN) {
		*len = INO64_FH_LEN;
		*type = FILEID_INVALID;
		return -EOVERFLOW;
	}
	memcpy(fh, &ino->ino, sizeof(ino->ino));
	memcpy(fh + sizeof(ino->ino), &gen, sizeof(gen));
	*len = INO64_FH_LEN;
	*type = FILEID_INO64_GEN;
	return 0;
}

/* One step up from the file a handle named: an inode and its name in the
 * directory above (the next step's inode). */
struct step {
	struct inode *ino; /* a reference */
	char name[LINUX_NAME_MAX + 1];
};

/* The dentry of ino with no parent: a file whose names are gone (" (deleted)"
 * in /proc/PID/fd, as Linux's d_path of an unlinked alias), or one that
 * cannot be reached from the mount's root. NULL without memory. */
static struct dentry *disconnected(struct inode *ino)
{
	struct dentry *d = dentry_new("/", NULL, ino);
	struct linux_stat st;

	if (d && vfs_getattr(ino, &st) == 0 && st.st_nlink == 0)
		d->unlinked = true;
	return d;
}

/* The dentry of ino under m's root, made name by name from the root down;
 * *connected says whether it was reached. NULL without memory. */
static struct dentry *reconnect(struct mount *m, struct inode *ino, bool *connected)
{
	const struct export_ops *op = m->sb->export_op;
	struct inode *top = m->root->inode, *cur = ino;
	struct step *steps = NULL, *ns;
	struct dentry *d = NULL, *child;
	size_t n = 0, cap = 0;

	inode_get(cur);
	while (cur != top && !(cur->dev == top->dev && cur->ino == top->ino)) {
		struct inode *dir;

		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			ns = realloc(steps, cap * sizeof(*steps));
			if (!ns)
				goto out;
			steps = ns;
		}
		steps[n].ino = cur;
		if (!op->get_name || op->get_name(cur, &dir, steps[n].name) < 0) {
			cur = NULL; /* reached neither m's root nor a name */
			n++;
			break;
		}
		n++;
		cur = dir;
	}
	*connected = cur != NULL;
	if (!cur) {
		d = disconnected(ino);
		goto out;
	}
	d = dentry_get(m->root);
	while (d && n > 0) {
		n--;
		child = dentry_new(steps[n].name, d, steps[n].ino);
		dentry_put(d);
		inode_put(steps[n].ino);
		d = child;
	}
out:
	inode_put(cur);
	while (n > 0)
		inode_put(steps[--n].ino);
	free(steps);
	return d;
}

int fh_to_path(struct mount *m, const uint8_t *fh, int len, int type, bool connectable, bool dir,
	       struct path *out)
{
	const struct export_ops *op = m->sb->export_op;
	struct inode *ino;
	bool connected = false;
	struct dentry *d;

	if (!op || !op->fh_to_inode)
		return -ESTALE;
	ino = op->fh_to_inode(m->sb, fh, len, type);
	if (!ino)
		return -ESTALE;
	/* exportfs_decode_fh_raw's EXPORT_FH_DIR_ONLY and a connectable
	 * handle's path, which must lead from the mount's root */
	if (dir && !inode_is_dir(ino)) {
		inode_put(ino);
		return -ESTALE;
	}
	d = reconnect(m, ino, &connected);
	inode_put(ino);
	if (!d)
		return -ENOMEM;
	if (connectable && !connected) {
		dentry_put(d);
		return -ESTALE;
	}
	out->mnt = mnt_get(m);
	out->dentry = d;
	return 0;
}
