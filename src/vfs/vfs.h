/* vfs/vfs.h: the virtual filesystem's objects. An inode is a file of some
 * filesystem (its inode_ops say how to look up, create, remove, stat...);
 * a dentry names an inode under its parent (made as paths are walked, kept
 * while referenced: cwd, roots, open files); a mount attaches a filesystem
 * root at a dentry of another mount. A path is (mount, dentry). */
#ifndef VFS_VFS_H
#define VFS_VFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/list.h"
#include "abi/linux/stat.h"
#include "abi/linux/types.h"

struct file;
struct file_ops;
struct cred;
struct task;
struct inode;
struct linux_statfs;
struct super_block;

/* How a filesystem's inodes are named by file handles (Linux's
 * export_operations): name_to_handle_at and open_by_handle_at
 * (vfs/fhandle.c). */
struct export_ops {
	/* ino's handle in fh (room for *len bytes; *len set to the size it
	 * takes): its type (> 0), or -EOVERFLOW with nothing written. */
	int (*encode_fh)(struct inode *ino, uint8_t *fh, int *len);
	/* The live inode a handle of len bytes names (a reference), or NULL:
	 * the bytes and the type are the guest's, any at all. */
	struct inode *(*fh_to_inode)(struct super_block *sb, const uint8_t *fh, int len, int type);
	/* A directory (a reference, in *dir) holding a name of ino (copied to
	 * name, LINUX_NAME_MAX + 1 bytes): -ENOENT for the root and a file with
	 * no name left. */
	int (*get_name)(struct inode *ino, struct inode **dir, char *name);
};

struct super_block {
	const char *fstype; /* "tmpfs", "hostfs", "overlay", "proc", "devtmpfs" */
	uint64_t dev;	    /* st_dev of its inodes (hostfs: the host's) */
	bool rdonly;
	/* MS_SYNCHRONOUS, MS_DIRSYNC, MS_MANDLOCK and MS_LAZYTIME as its
	 * mount and remounts gave them (Linux's SB_* flags): shown in
	 * /proc/PID/mounts and statfs, nothing more (skas's filesystems
	 * write through at once, there are no mandatory locks since Linux
	 * 5.15, and times kept in memory need no lazytime). */
	unsigned sflags;
	bool cache_lookups; /* names change only through the VFS (vfs/dcache.c) */
	/* Its regular files are the kernel's interfaces (proc, sysfs,
	 * cgroup2): writes to them ignore RLIMIT_FSIZE, as Linux's handlers
	 * there call no generic_write_checks. */
	bool no_fsize;
	uint64_t magic; /* f_type for statfs */
	int nmounts;	/* mounts of it (vfs.c): the last to go puts it */
	int writers;	/* files open for writing on it, through any mount */
	/* Its inodes with no name left that something still holds (an open
	 * file, a mapping, a cwd): the filesystem counts them (Linux's
	 * s_remove_count; tmpfs does). */
	long remove_count;
	/* Its own options for /proc/PID/mounts, each after a comma
	 * (",size=1024k,mode=750"), or "". */
	char opts[256];
	void *priv;
	/* NULL: handles that can be opened again are EOPNOTSUPP, AT_HANDLE_FID
	 * gives inode numbers (Linux's exportfs_encode_ino64_fid). */
	const struct export_ops *export_op;
	/* Frees an unmounted superblock (NULL: static, nothing to free). */
	void (*put_super)(struct super_block *sb);
	/* The user namespace it belongs to (Linux's s_user_ns: a tmpfs's
	 * mounter's), whose CAP_SYS_ADMIN changes its options (a
	 * reference); NULL: the instance's. */
	struct user_ns *user_ns;
};

/* Changes setattr makes; valid says which. */
enum {
	ATTR_MODE = 1 << 0,
	ATTR_UID = 1 << 1,
	ATTR_GID = 1 << 2,
	ATTR_SIZE = 1 << 3,
	ATTR_ATIME = 1 << 4,
	ATTR_MTIME = 1 << 5,
	ATTR_CTIME = 1 << 6,
	/* How the times were given, for the permission check: both to the
	 * current time (NULL times, or both UTIME_NOW), or explicitly. */
	ATTR_TOUCH = 1 << 7,
	ATTR_TIMES_SET = 1 << 8,
};

struct iattr {
	unsigned valid;
	uint32_t mode, uid, gid;
	uint64_t size;
	struct linux_timespec atime, mtime;
};

/* readdir's callback: returns nonzero to stop. */
typedef int (*dir_emit_fn)(void *ctx, const char *name, uint64_t ino, unsigned dtype);

/* Linux's S_IMMUTABLE, S_APPEND and S_NOATIME: an inode's chattr +i, +a
 * and +A (vfs/fileattr.c), which its filesystem sets with the FS_*_FL
 * flags it keeps. */
enum { INODE_IMMUTABLE = 1, INODE_APPEND = 2, INODE_NOATIME = 4 };

struct inode_ops {
	/* The child name of dir: *out holds a reference; -ENOENT if none. */
	int (*lookup)(struct inode *dir, const char *name, struct inode **out);
	/* Creates name in dir (regular, directory, fifo, socket, device by
	 * the S_IF bits of mode); *out (may be NULL) gets a reference. */
	int (*mknod)(struct inode *dir, const char *name, uint32_t mode, uint64_t rdev,
		     const struct cred *c, struct inode **out);
	int (*symlink)(struct inode *dir, const char *name, const char *target,
		       const struct cred *c);
	/* O_TMPFILE: a regular file with no name (nlink 0) on dir's
	 * filesystem; linkable says whether linkat may give it one. */
	int (*tmpfile)(struct inode *dir, uint32_t mode, const struct cred *c, bool linkable,
		       struct inode **out);
	/* -ENOENT for a file with no links left unless it is a linkable
	 * O_TMPFILE. */
	int (*link)(struct inode *dir, const char *name, struct inode *old);
	/* unlink (is_dir false) or rmdir (is_dir true) of name in dir. */
	int (*unlink)(struct inode *dir, const char *name, bool is_dir);
	int (*rename)(struct inode *odir, const char *oname, struct inode *ndir, const char *nname,
		      unsigned flags);
	long (*readlink)(struct inode *ino, char *buf, size_t n);
	int (*getattr)(struct inode *ino, struct linux_stat *st);
	/* statx's fields that stat has not, after getattr's: the birth
	 * time if mask (the caller's) asks for it (adding LINUX_STATX_BTIME
	 * to stx_mask), and the filesystem's own stx_attributes and
	 * stx_attributes_mask bits (Linux's ->getattr). NULL: none. */
	void (*getattr_x)(struct inode *ino, unsigned mask, struct linux_statx *stx);
	int (*setattr)(struct inode *ino, const struct iattr *ia);
	int (*iterate)(struct inode *dir, dir_emit_fn emit, void *ctx);
	/* Fills f (ops, priv, host_fd) to open the inode with flags. */
	int (*open)(struct inode *ino, struct file *f);
	long (*getxattr)(struct inode *ino, const char *name, void *buf, size_t n);
	int (*setxattr)(struct inode *ino, const char *name, const void *val, size_t n, int flags);
	long (*listxattr)(struct inode *ino, char *buf, size_t n);
	int (*removexattr)(struct inode *ino, const char *name);
	/* A filesystem that keeps POSIX ACLs (vfs/acl.h) in its xattrs:
	 * which ino has (ACL_KIND_* bits), at no host call. NULL: none. */
	unsigned (*acl_kinds)(struct inode *ino);
	int (*statfs)(struct inode *ino, struct linux_statfs *st);
	/* procfs's magic links (/proc/PID/fd/N, cwd, exe, root): the path
	 * they name, without a string. Returns -ENOENT if none. */
	int (*get_link_path)(struct inode *ino, struct task *t, void *path_out);
	/* chattr's flags (LINUX_FS_*_FL, Linux's fileattr_get and _set):
	 * -ENOIOCTLCMD for an inode without them (the open file's own ioctl
	 * answers then); set gets every flag the inode is to have, the
	 * VFS's checks made, and is -EOPNOTSUPP for one it does not keep.
	 * NULL: none for any inode of the filesystem. */
	int (*fileattr_get)(struct inode *ino, uint32_t *flags);
	int (*fileattr_set)(struct inode *ino, uint32_t flags);
	/* The INODE_* flags that hold for ino when they are another
	 * inode's (an overlay inode's real one); NULL: ino->flags. */
	unsigned (*iflags)(struct inode *ino);
	/* A read moves the access time to now (relatime: only if it is not
	 * after the last change, or is a day old); NULL: the filesystem
	 * keeps no access time of its own (a host file's is the host's). */
	void (*touch_atime)(struct inode *ino, bool relatime);
	void (*release)(struct inode *ino);
};

struct inode {
	int refcount;
	struct super_block *sb;
	uint64_t dev, ino; /* identity (mount points are found by it) */
	uint32_t mode;	   /* file type bits (permissions: ask getattr) */
	const struct inode_ops *iop;
	void *priv;
	uint8_t write_hint;	    /* F_SET_RW_HINT's, in memory only (Linux's i_write_hint) */
	unsigned flags;		    /* INODE_*: chattr's that the VFS enforces (Linux's i_flags) */
	struct inode *release_next; /* inode_put's list of inodes to release */
};

struct dentry {
	int refcount;
	char *name;
	struct dentry *parent; /* owns a reference; NULL at a filesystem root */
	struct inode *inode;   /* owns a reference */
	/* In vfs.c's table of named dentries, by parent inode and name:
	 * a rename moves every dentry of the name that it moves, an unlink
	 * marks them (Linux's d_move and d_delete). Empty when not there. */
	struct list_head named;
	bool unlinked; /* its name was removed: d_path adds " (deleted)" */
};

/* A mount's own flags (Linux's MNT_*; rdonly is apart). */
enum {
	MNT_NOSUID = 0x01,
	MNT_NODEV = 0x02,
	MNT_NOEXEC = 0x04,
	MNT_NOATIME = 0x08,
	MNT_NODIRATIME = 0x10,
	MNT_RELATIME = 0x20,
	MNT_UNBINDABLE = 0x40,	  /* mount(2)'s MS_UNBINDABLE: no bind of it */
	MNT_LOCK_READONLY = 0x80, /* read-only by the host's choice: stays so */
	MNT_DETACHED = 0x100,	  /* unmounted; freed with its last reference */
	MNT_EXPIRE_MARK = 0x200,  /* umount2's MNT_EXPIRE: unused since marked */
	/* Copied into a mount namespace of a less privileged user namespace
	 * (Linux's CL_UNPRIVILEGED): these flags stay as they were, and the
	 * mount (but the namespace's root) cannot be unmounted or moved on
	 * its own, nor left out of a bind, to show what it covers. */
	MNT_LOCK_NOSUID = 0x400,
	MNT_LOCK_NODEV = 0x800,
	MNT_LOCK_NOEXEC = 0x1000,
	MNT_LOCK_ATIME = 0x2000,
	MNT_LOCKED = 0x4000,
	MNT_NOSYMFOLLOW = 0x8000, /* MS_NOSYMFOLLOW: no symlink on it is followed */
};

struct mnt_ns;

struct mount {
	struct list_head link;	   /* in mounts while attached */
	struct mnt_ns *ns;	   /* its mount namespace; NULL once detached */
	struct dentry *root;	   /* the filesystem's root, or a bind's directory */
	struct mount *parent;	   /* NULL for the root mount and detached mounts */
	struct dentry *mountpoint; /* in parent */
	bool rdonly;
	unsigned flags; /* MNT_* */
	/* Paths that hold it (path_get) and 1 for the mount table or the
	 * kernel pointer that made it. */
	int count;
	int id; /* mountinfo's */
	char *source;
	struct super_block *sb;
	int below;   /* mount_detach's scratch: depth below the mount it detaches */
	int writers; /* files open for writing through it (Linux's mnt_get_writers) */
};

struct path {
	struct mount *mnt;
	struct dentry *dentry;
};

/* Linux 6.8's 64-bit mount id, never used again (statx's
 * STATX_MNT_ID_UNIQUE): skas's ids are never reused, so it is the id past
 * Linux's MNT_UNIQUE_ID_OFFSET, kept clear of the 32-bit ones. */
static inline uint64_t mount_unique_id(const struct mount *m)
{
	return (1ULL << 31) + (uint64_t)m->id;
}

/* References. */
struct inode *inode_new(struct super_block *sb, uint64_t ino, uint32_t mode,
			const struct inode_ops *iop, void *priv);
void inode_get(struct inode *ino);
void inode_put(struct inode *ino);
struct dentry *dentry_new(const char *name, struct dentry *parent, struct inode *inode);
struct dentry *dentry_get(struct dentry *d);
void dentry_put(struct dentry *d);
/* A path holds its dentry and its mount. */
void path_get(const struct path *p);
void path_put(struct path *p);
struct mount *mnt_get(struct mount *m);
void mnt_put(struct mount *m);

/* Mounts. */
struct mount *mount_add(struct path *at, struct super_block *sb, struct inode *root,
			const char *source, bool rdonly);
/* A mount attached nowhere and not in the mount table (Linux's
 * kern_mount): no path walk reaches it, /proc/PID/mounts leaves it out, and
 * path_name gives its files' names from its root. */
struct mount *mount_internal(struct super_block *sb, struct inode *root, const char *source);
struct mount *mount_lookup(struct mount *parent, struct inode *mountpoint);
/* Is ino mounted on in namespace ns, by whatever path (Linux's
 * is_local_mountpoint)? */
struct mnt_ns;
bool mount_is_local_mountpoint(const struct mnt_ns *ns, const struct inode *ino);
/* Name name of dir, inode ino, was removed or replaced: the mounts on it
 * (in other namespaces: in the caller's it was EBUSY) and below them go,
 * as Linux's detach_mounts after an unlink, rmdir or rename over it. */
void mount_detach_on(const struct inode *dir, const char *name, const struct inode *ino);
/* A bind mount: old's filesystem and flags, root (a directory or file of
 * old) for its root, attached at at. */
struct mount *mount_clone(const struct mount *old, struct dentry *root, struct path *at);
/* Takes m (and everything mounted below it) out of the mount table; each
 * is freed, and its filesystem put with its last mount, when the last path
 * that holds it goes. */
void mount_detach(struct mount *m);
/* Copies of the mounts of namespace old for namespace n (Linux's
 * copy_tree of its root): n->root gets the copy of old's root; the paths
 * *fix (count of them) that are on old's mounts move to the copies. 0, or
 * -ENOMEM / -ENOSPC with nothing made. */
int mount_copy_ns(struct mnt_ns *old, struct mnt_ns *n, struct path **fix, int nfix);
/* Room for one more mount in the table: 0, or -ENOSPC past Linux's
 * default fs.mount-max (100000). */
int mount_room(void);
extern struct list_head mounts;

/* Are writes through p refused (EROFS)? */
static inline bool path_rdonly(const struct path *p)
{
	return p->mnt->rdonly || p->dentry->inode->sb->rdonly;
}

/* The full guest path of p as seen from root (malloc'ed). */
char *path_name(const struct path *p, const struct path *root);
/* As Linux's d_path: path_name, and " (deleted)" after a name that was
 * removed (/proc/PID/fd, maps, exe). */
char *path_name_d(const struct path *p, const struct path *root);
/* path_name_d without its page's bound (maps and numa_maps: Linux's
 * seq_path grows its buffer), up to 1 MiB. */
char *path_name_seq(const struct path *p, const struct path *root);
/* A name changed through the VFS: the dentries of (dir, name) naming
 * inode move to (nparent, nname), or (dentry_unlinked) are marked as
 * removed. */
void dentry_renamed(struct inode *dir, const char *name, struct inode *inode,
		    struct dentry *nparent, const char *nname);
void dentry_unlinked(struct inode *dir, const char *name, struct inode *inode);
/* RENAME_EXCHANGE: (odir, oname)'s dentries of oinode and (ndir, nname)'s
 * of ninode trade places (oparent and nparent: the rename's dentries of
 * the directories). */
void dentry_exchanged(struct inode *odir, const char *oname, struct inode *oinode,
		      struct dentry *oparent, struct inode *ndir, const char *nname,
		      struct inode *ninode, struct dentry *nparent);
/* The same, and *reached says whether the walk up met root: false when p
 * lies outside it (a cwd that chroot left behind, a detached mount), and
 * the name is then the path from the top of p's mount tree, as Linux's
 * prepend_path gives it. */
char *path_name_reach(const struct path *p, const struct path *root, bool *reached);

static inline unsigned inode_iflags(struct inode *i)
{
	return i->iop->iflags ? i->iop->iflags(i) : i->flags;
}

/* Linux's touch_atime: a read of p's file, unless its mount has
 * noatime (nodiratime, for a directory) or is read-only, or the inode
 * is noatime (chattr +A). */
void path_accessed(const struct path *p);

static inline bool inode_is_dir(const struct inode *i)
{
	return LINUX_S_ISDIR(i->mode);
}

uint64_t vfs_anon_dev(void);
/* The next inode number of a pseudo filesystem's inode (a pipe's, a
 * socket's), from one counter as Linux's get_next_ino. */
uint64_t vfs_next_ino(void);
struct linux_timespec vfs_now(void);

/* A device number (st_dev's form) as Linux's new_encode_dev packs it in
 * 32 bits: the tty ioctls' numbers and statfs's f_fsid. */
static inline uint32_t new_encode_dev(uint64_t dev)
{
	uint32_t major = (uint32_t)((dev >> 8) & 0xfff) | (uint32_t)((dev >> 32) & ~0xfffU);
	uint32_t minor = (uint32_t)(dev & 0xff) | (uint32_t)((dev >> 12) & ~0xffU);

	return (minor & 0xff) | (major << 8) | ((minor & ~0xffU) << 12);
}

#endif
