/* fs/tmpfs/tmpfs.c: directories, symlinks, hard links, device nodes,
 * fifos and sockets in kernel memory; regular file data in kernel pages
 * (fs/tmpfs/pages.c) until the file is mapped or grows big, then in a
 * memfd of its own; user.*, trusted.* and security.* xattrs, and POSIX
 * ACLs (vfs/acl.c) as system.posix_acl_*; a size limit (ENOSPC);
 * file seals (F_SEAL_*, set by mm/memfd.c) checked where data or size
 * change. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/commit.h"
#include "mm/mm.h"
#include "mm/mempolicy.h"
#include "fs/tmpfs/pages.h"
#include "vfs/acl.h"
#include "fs/tmpfs/tmpfs.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "vfs/poll.h"
#include "vfs/readdir.h"
#include "vfs/pipe.h"
#include "kernel/cred.h"
#include "kernel/task.h"
#include "kernel/userns.h"
#include "host/host.h"
#include "abi/linux/ioctl.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/poll.h"
#include "abi/linux/stat.h"

struct tmpfs_sb {
	uint64_t next_ino;
	uint64_t limit, used;
	/* Live inodes; put_super on a tmpfs whose inodes some reference
	 * still holds leaves the freeing to the last one's release. */
	uint64_t ninodes;
	/* Bytes of the inode space taken (ispace_take), and the most
	 * (nr_inodes= times BOGO_INODE_SIZE; 0: no limit). */
	uint64_t ispace, max_ispace;
	bool dead;
	bool frozen; /* tmpfs_freeze: sysfs's */
	/* mpol=: the NUMA policy new files start with (a reference), or
	 * NULL. */
	struct mempolicy *mpol;
	/* Every live inode by number (isize buckets, a power of two, chained
	 * through their inext): what a file handle names is found there, as
	 * Linux's shmem finds it in the inode hash (ilookup5). */
	struct inode **itab;
	uint32_t isize;
};

/* Linux's shmem: nr_inodes inodes of BOGO_INODE_SIZE bytes of "inode
 * space" (free_ispace): each inode takes one, each name of a file past
 * its first another (shmem_link), and extended attributes draw on it
 * too. What it stands for is kernel memory the guest holds, so it also
 * counts against --memory (Linux's memcg charges the slab objects); past
 * either, a create, link or setxattr is ENOSPC. */
#define TMPFS_NR_INODES	  (1 << 20)
#define BOGO_INODE_SIZE	  1024
#define SHORT_SYMLINK_LEN 128

struct tmpfs_dirent {
	struct list_head link;	    /* in the directory's entries, in creation order */
	struct tmpfs_dirent *hnext; /* in its bucket of the directory's htab */
	uint32_t hash;
	char *name;
	struct inode *inode; /* owns a reference */
};

struct tmpfs_xattr {
	struct list_head link;
	char *name;
	void *val;
	size_t len;
};

struct tmpfs_node {
	uint32_t mode, uid, gid, nlink;
	uint64_t rdev, size, parent_ino;
	struct linux_timespec atime, mtime, ctime;
	struct linux_timespec btime; /* its birth (Linux's i_crtime) */
	/* A regular file's data: in pages while memfd is -1; once a memfd
	 * holds it (tmpfs_data_fd), there only, for good. */
	struct tmpfs_pages pages;
	int memfd;
	char *target;
	struct list_head entries, xattrs;
	uint64_t xattr_bytes; /* what its xattrs draw on the inode space */
	uint32_t units;	      /* its inode and extra names' BOGO_INODE_SIZEs taken */
	uint64_t nentries;    /* a directory's: its size is Linux's count of them */
	/* A directory's entries by name hash (hsize buckets, a power of two,
	 * or none while it is small): a lookup stays a bucket long however
	 * many files /tmp holds (a walk of the list made 12000 creates in a
	 * directory take 14 s, 50000 nine minutes). */
	struct tmpfs_dirent **htab;
	uint32_t hsize;
	bool opaque;
	struct inode *redirect; /* tmpfs_set_redirect's (a reference), or NULL */
	bool has_origin;	/* origin_dev/origin_ino: tmpfs_set_origin */
	uint64_t origin_dev, origin_ino;
	bool linkable; /* an O_TMPFILE file that linkat may still name */
	/* F_SEAL_*: F_SEAL_SEAL from birth (nothing more can be added) but
	 * for memfd_create's files (mm/memfd.c), as Linux's shmem. */
	unsigned seals;
	uint32_t fsflags; /* chattr's (LINUX_FS_*_FL): TMPFS_FL_MODIFIABLE's */
	/* Its file handle's generation (Linux's i_generation, random at
	 * birth); the next inode in its bucket of the tmpfs's itab. The
	 * directory of its last name is parent_ino, a directory's only one. */
	uint32_t gen;
	struct inode *inext;
	void *fifo; /* a named pipe's pipe */
	/* What the file counts against the tmpfs size and --memory, in whole
	 * pages as Linux's shmem counts: its size rounded up while it is
	 * dense (no hole: every page below the size is data); once it may
	 * have holes (a truncate or a write past the end, a punched hole),
	 * the pages it holds in the kernel or the host, so a sparse file
	 * costs what it stores (trinity's writes at offsets of 4 GiB into a
	 * few memfds counted 13 GB of "data" and left no memory to fork
	 * with). A byte of data costs a page: 10^6 files of one byte hold
	 * 4 GB, not 1 MB. A fault through a mapping adds pages the kernel
	 * never sees: a sparse file also counts the length of every VMA that
	 * maps it (at most its size in all). */
	uint64_t charged;
	bool sparse;
	uint64_t mapped;	     /* bytes of the VMAs mapping it (vma_open/vma_close) */
	struct shared_policy policy; /* mbind's NUMA policies (mm/mempolicy.h) */
};

static const struct inode_ops tmpfs_iops;

static struct tmpfs_node *N(const struct inode *i)
{
	return i->priv;
}

static struct tmpfs_sb *SB(const struct inode *i)
{
	return i->sb->priv;
}

bool is_tmpfs(const struct inode *ino)
{
	return ino->iop == &tmpfs_iops;
}

/* A tree sysfs built (tmpfs_freeze): kernfs's answers to changes. */
static bool frozen(const struct inode *i)
{
	return i->sb && i->sb->priv && SB(i)->frozen;
}

void tmpfs_freeze(struct super_block *sb)
{
	((struct tmpfs_sb *)sb->priv)->frozen = true;
}

bool tmpfs_is_opaque(const struct inode *dir)
{
	return is_tmpfs(dir) && N(dir)->opaque;
}

void tmpfs_set_origin(struct inode *ino, uint64_t dev, uint64_t nr)
{
	if (is_tmpfs(ino)) {
		N(ino)->has_origin = true;
		N(ino)->origin_dev = dev;
		N(ino)->origin_ino = nr;
	}
}

bool tmpfs_origin(const struct inode *ino, uint64_t *dev, uint64_t *nr)
{
	if (!is_tmpfs(ino) || !N(ino)->has_origin)
		return false;
	*dev = N(ino)->origin_dev;
	*nr = N(ino)->origin_ino;
	return true;
}

void tmpfs_set_opaque(struct inode *dir, bool opaque)
{
	if (is_tmpfs(dir))
		N(dir)->opaque = opaque;
}

int tmpfs_set_redirect(struct inode *dir, struct inode *lower)
{
	if (!is_tmpfs(dir))
		return -EXDEV;
	if (N(dir)->redirect == lower)
		return 0;
	if (!N(dir)->redirect && !files_take_slot())
		return -ENFILE;
	inode_get(lower);
	inode_put(N(dir)->redirect);
	N(dir)->redirect = lower;
	return 0;
}

struct inode *tmpfs_redirect(const struct inode *dir)
{
	return is_tmpfs(dir) ? N(dir)->redirect : NULL;
}

static bool ispace_fits(const struct tmpfs_sb *s, uint64_t bytes)
{
	return (!s->max_ispace ||
		(s->ispace <= s->max_ispace && bytes <= s->max_ispace - s->ispace)) &&
	       mem_fits(bytes);
}

bool tmpfs_can_create(const struct inode *dir)
{
	return is_tmpfs(dir) && ispace_fits(SB(dir), BOGO_INODE_SIZE);
}

/* Takes bytes of s's inode space, and of --memory: false (ENOSPC), with
 * nothing taken, past either. */
static bool ispace_take(struct tmpfs_sb *s, uint64_t bytes)
{
	if ((s->max_ispace && (s->ispace > s->max_ispace || bytes > s->max_ispace - s->ispace)) ||
	    !mem_take_kernel(bytes))
		return false;
	s->ispace += bytes;
	return true;
}

static void ispace_give(struct tmpfs_sb *s, uint64_t bytes)
{
	s->ispace -= bytes;
	mem_give_kernel(bytes);
}

/* Linux's i_generation for shmem: get_random_u32() for each inode; here
 * a xorshift64* stream seeded from the host once. */
static uint32_t next_gen(void)
{
	static uint64_t x;

	if (!x && (host_getrandom(&x, sizeof(x)) != (int)sizeof(x) || !x))
		x = 0x9E3779B97F4A7C15ULL ^ (uint64_t)vfs_now().tv_nsec;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	return (uint32_t)((x * 0x2545F4914F6CDD1DULL) >> 32);
}

static uint32_t ino_bucket(uint64_t nr, uint32_t size)
{
	return (uint32_t)((nr * 0x9E3779B97F4A7C15ULL) >> 32) & (size - 1);
}

/* Puts ino in s's table, growing it past one inode a bucket; without
 * memory to grow, chains lengthen (a table of none: file handles of the
 * tmpfs find nothing, ESTALE). */
static void itab_add(struct tmpfs_sb *s, struct inode *ino)
{
	if (s->ninodes > s->isize && s->isize < (1U << 30)) {
		uint32_t size = s->isize ? s->isize * 2 : 64, i;
		struct inode **tab = calloc(size, sizeof(*tab)), *e, *next;

		if (tab) {
			for (i = 0; i < s->isize; i++)
				for (e = s->itab[i]; e; e = next) {
					next = N(e)->inext;
					N(e)->inext = tab[ino_bucket(e->ino, size)];
					tab[ino_bucket(e->ino, size)] = e;
				}
			free(s->itab);
			s->itab = tab;
			s->isize = size;
		}
	}
	if (!s->isize)
		return;
	N(ino)->inext = s->itab[ino_bucket(ino->ino, s->isize)];
	s->itab[ino_bucket(ino->ino, s->isize)] = ino;
}

static void itab_del(struct tmpfs_sb *s, struct inode *ino)
{
	struct inode **pp;

	if (!s->isize)
		return;
	for (pp = &s->itab[ino_bucket(ino->ino, s->isize)]; *pp; pp = &N(*pp)->inext)
		if (*pp == ino) {
			*pp = N(ino)->inext;
			return;
		}
}

static struct inode *itab_find(struct tmpfs_sb *s, uint64_t nr)
{
	struct inode *e;

	if (!s->isize)
		return NULL;
	for (e = s->itab[ino_bucket(nr, s->isize)]; e; e = N(e)->inext)
		if (e->ino == nr)
			return e;
	return NULL;
}

/* A new inode, or NULL with *err ENOSPC (no inode space, see above) or
 * ENOMEM. Before the inode space was counted, 200000 empty files grew
 * the kernel by 120 MB under --memory=64M, and each tmpfs a guest
 * mounted allowed as many again. */
static struct inode *new_inode(struct super_block *sb, uint32_t mode, const struct cred *c,
			       uint64_t rdev, int *err)
{
	struct tmpfs_sb *s = sb->priv;
	struct tmpfs_node *n;
	struct inode *ino;

	*err = -ENOSPC;
	if (!ispace_take(s, BOGO_INODE_SIZE))
		return NULL;
	*err = -ENOMEM;
	n = calloc(1, sizeof(*n));
	ino = n ? inode_new(sb, s->next_ino++, mode, &tmpfs_iops, n) : NULL;
	if (!ino) {
		free(n);
		ispace_give(s, BOGO_INODE_SIZE);
		return NULL;
	}
	s->ninodes++;
	n->gen = next_gen();
	itab_add(s, ino);
	n->units = 1;
	n->mode = mode;
	n->uid = c ? c->fsuid : 0;
	n->gid = c ? c->fsgid : 0;
	n->nlink = LINUX_S_ISDIR(mode) ? 2 : 1;
	n->rdev = rdev;
	n->memfd = -1;
	n->seals = LINUX_F_SEAL_SEAL;
	n->atime = n->mtime = n->ctime = n->btime = vfs_now();
	list_init(&n->entries);
	list_init(&n->xattrs);
	if (LINUX_S_ISREG(mode))
		mpol_shared_init(&n->policy, s->mpol);
	return ino;
}

/* FNV-1a */
static uint32_t name_hash(const char *name)
{
	uint32_t h = 2166136261u;

	while (*name)
		h = (h ^ (unsigned char)*name++) * 16777619u;
	return h;
}

static struct tmpfs_dirent *find(struct inode *dir, const char *name)
{
	struct tmpfs_node *d = N(dir);
	struct tmpfs_dirent *e;
	uint32_t h;

	if (!d->htab) {
		list_for_each_entry(e, &d->entries, link) if (strcmp(e->name, name) == 0) return e;
		return NULL;
	}
	h = name_hash(name);
	for (e = d->htab[h & (d->hsize - 1)]; e; e = e->hnext)
		if (e->hash == h && strcmp(e->name, name) == 0)
			return e;
	return NULL;
}

#define HASH_MIN 16 /* entries before a directory takes a table */

/* Rebuilds d's table with size buckets: without memory the old one (or
 * the list) still finds every name. */
static void rehash(struct tmpfs_node *d, uint32_t size)
{
	struct tmpfs_dirent **tab = calloc(size, sizeof(*tab)), *e;

	if (!tab)
		return;
	free(d->htab);
	d->htab = tab;
	d->hsize = size;
	list_for_each_entry(e, &d->entries, link)
	{
		e->hnext = tab[e->hash & (size - 1)];
		tab[e->hash & (size - 1)] = e;
	}
}

static void hash_add(struct tmpfs_node *d, struct tmpfs_dirent *e)
{
	if (d->nentries >= HASH_MIN && d->nentries > d->hsize && d->hsize < (1U << 30))
		rehash(d, d->hsize ? d->hsize * 2 : 2 * HASH_MIN); /* e is in the list */
	else if (d->htab) {
		e->hnext = d->htab[e->hash & (d->hsize - 1)];
		d->htab[e->hash & (d->hsize - 1)] = e;
	}
}

static void hash_del(struct tmpfs_node *d, struct tmpfs_dirent *e)
{
	struct tmpfs_dirent **pp;

	if (!d->htab)
		return;
	for (pp = &d->htab[e->hash & (d->hsize - 1)]; *pp; pp = &(*pp)->hnext) {
		if (*pp == e) {
			*pp = e->hnext;
			return;
		}
	}
}

static void touch_dir(struct inode *dir)
{
	N(dir)->mtime = N(dir)->ctime = vfs_now();
}

static int add_entry(struct inode *dir, const char *name, struct inode *ino)
{
	struct tmpfs_dirent *e = calloc(1, sizeof(*e));

	if (!e || !(e->name = strdup(name))) {
		free(e);
		return -ENOMEM;
	}
	inode_get(ino);
	e->inode = ino;
	e->hash = name_hash(name);
	list_add_tail(&e->link, &N(dir)->entries);
	N(dir)->nentries++;
	hash_add(N(dir), e);
	if (LINUX_S_ISDIR(ino->mode))
		N(dir)->nlink++;
	N(ino)->parent_ino = dir->ino;
	touch_dir(dir);
	return 0;
}

static void del_entry(struct inode *dir, struct tmpfs_dirent *e)
{
	hash_del(N(dir), e);
	list_del(&e->link);
	N(dir)->nentries--;
	if (LINUX_S_ISDIR(e->inode->mode))
		N(dir)->nlink--;
	touch_dir(dir);
	free(e->name);
	inode_put(e->inode);
	free(e);
}

static int tmpfs_lookup(struct inode *dir, const char *name, struct inode **out)
{
	struct tmpfs_dirent *e = find(dir, name);

	if (!e)
		return -ENOENT;
	inode_get(e->inode);
	*out = e->inode;
	return 0;
}

static int tmpfs_mknod(struct inode *dir, const char *name, uint32_t mode, uint64_t rdev,
		       const struct cred *c, struct inode **out)
{
	struct inode *ino;
	int ret;

	if (find(dir, name))
		return -EEXIST;
	if (!(mode & LINUX_S_IFMT))
		mode |= LINUX_S_IFREG;
	if (frozen(dir)) /* kernfs has no create (vfs_create's EACCES), no mkdir or mknod */
		return LINUX_S_ISREG(mode) ? -EACCES : -EPERM;
	ino = new_inode(dir->sb, mode, c, rdev, &ret);
	if (!ino)
		return ret;
	/* A set-group-ID directory passes its group (and, to
	 * subdirectories, the bit) on. */
	if (N(dir)->mode & 02000) {
		N(ino)->gid = N(dir)->gid;
		if (LINUX_S_ISDIR(mode))
			N(ino)->mode |= 02000;
	}
	ret = add_entry(dir, name, ino);
	if (ret == 0 && out) {
		*out = ino;
		return 0;
	}
	inode_put(ino);
	return ret;
}

static bool space_for(struct inode *ino, uint64_t bytes);
static void set_charge(struct inode *ino, uint64_t bytes);

static int tmpfs_symlink(struct inode *dir, const char *name, const char *target,
			 const struct cred *c)
{
	struct inode *ino;
	int ret;

	if (find(dir, name))
		return -EEXIST;
	if (frozen(dir))
		return -EPERM;
	ino = new_inode(dir->sb, LINUX_S_IFLNK | 0777, c, 0, &ret);
	if (!ino)
		return ret;
	N(ino)->target = strdup(target);
	N(ino)->size = strlen(target);
	ret = N(ino)->target ? 0 : -ENOMEM;
	/* shmem keeps a target longer than SHORT_SYMLINK_LEN (128) bytes,
	 * its NUL counted, in a page of its own: a block of the size */
	if (ret == 0 && N(ino)->size + 1 > SHORT_SYMLINK_LEN) {
		if (space_for(ino, PAGE_SIZE))
			set_charge(ino, PAGE_SIZE);
		else
			ret = -ENOSPC;
	}
	if (ret == 0)
		ret = add_entry(dir, name, ino);
	inode_put(ino);
	return ret;
}

static int tmpfs_tmpfile(struct inode *dir, uint32_t mode, const struct cred *c, bool linkable,
			 struct inode **out)
{
	int ret;
	struct inode *ino;

	if (frozen(dir))
		return -EOPNOTSUPP;
	ino = new_inode(dir->sb, LINUX_S_IFREG | (mode & 07777), c, 0, &ret);
	if (!ino)
		return ret;
	if (N(dir)->mode & 02000)
		N(ino)->gid = N(dir)->gid;
	N(ino)->nlink = 0;
	dir->sb->remove_count++;
	N(ino)->linkable = linkable;
	*out = ino;
	return 0;
}

static int tmpfs_link(struct inode *dir, const char *name, struct inode *old)
{
	bool extra;
	int ret;

	if (!is_tmpfs(old) || old->sb != dir->sb)
		return -EXDEV;
	if (find(dir, name))
		return -EEXIST;
	if (frozen(dir))
		return -EPERM;
	if (N(old)->nlink == 0 && !N(old)->linkable)
		return -ENOENT;
	/* A second name takes inode space of its own (Linux's shmem_link);
	 * an O_TMPFILE file's first does not. */
	extra = N(old)->nlink > 0;
	if (extra && !ispace_take(SB(old), BOGO_INODE_SIZE))
		return -ENOSPC;
	ret = add_entry(dir, name, old);
	if (ret < 0 && extra)
		ispace_give(SB(old), BOGO_INODE_SIZE);
	if (ret == 0) {
		if (extra)
			N(old)->units++;
		N(old)->linkable = false;
		if (N(old)->nlink++ == 0)
			old->sb->remove_count--;
		N(old)->ctime = vfs_now();
	}
	return ret;
}

/* One name of ino fewer: a file's names past its first give their inode
 * space back (Linux's shmem_unlink). */
static void drop_name(struct inode *ino)
{
	struct tmpfs_node *n = N(ino);
	bool dir = LINUX_S_ISDIR(n->mode);

	if (!dir && n->nlink > 1 && n->units > 1) {
		ispace_give(SB(ino), BOGO_INODE_SIZE);
		n->units--;
	}
	n->nlink -= dir ? 2 : 1;
	if (n->nlink == 0)
		ino->sb->remove_count++;
}

static int tmpfs_unlink(struct inode *dir, const char *name, bool is_dir)
{
	struct tmpfs_dirent *e = find(dir, name);
	struct inode *ino;

	if (frozen(dir))
		return -EPERM;

	if (!e)
		return -ENOENT;
	ino = e->inode;
	if (is_dir != LINUX_S_ISDIR(ino->mode))
		return is_dir ? -ENOTDIR : -EISDIR;
	if (is_dir && !list_empty(&N(ino)->entries))
		return -ENOTEMPTY;
	drop_name(ino);
	N(ino)->ctime = vfs_now();
	del_entry(dir, e);
	return 0;
}

/* RENAME_EXCHANGE: the two entries swap inodes. */
static int exchange(struct inode *odir, struct tmpfs_dirent *e, struct inode *ndir,
		    struct tmpfs_dirent *d)
{
	struct inode *a = e->inode, *b = d->inode;
	bool adir = LINUX_S_ISDIR(a->mode), bdir = LINUX_S_ISDIR(b->mode);

	e->inode = b;
	d->inode = a;
	if (odir != ndir && adir != bdir) {
		/* a directory changes parents: the ".." links follow */
		N(odir)->nlink += adir ? -1 : 1;
		N(ndir)->nlink += adir ? 1 : -1;
	}
	N(a)->parent_ino = ndir->ino;
	N(b)->parent_ino = odir->ino;
	N(a)->ctime = N(b)->ctime = vfs_now();
	touch_dir(odir);
	touch_dir(ndir);
	return 0;
}

/* flags: RENAME_NOREPLACE (1), RENAME_EXCHANGE (2), RENAME_WHITEOUT (4:
 * a 0/0 character device owned by the caller is left at the old name). */
static int tmpfs_rename(struct inode *odir, const char *oname, struct inode *ndir,
			const char *nname, unsigned flags)
{
	struct tmpfs_dirent *e = find(odir, oname), *d;
	struct inode *ino;
	int ret;

	if (!e)
		return -ENOENT;
	if (!is_tmpfs(ndir) || ndir->sb != odir->sb)
		return -EXDEV;
	if (frozen(odir))
		return -EPERM;
	/* RENAME_WHITEOUT's device must fit before anything moves (Linux's
	 * shmem_rename2 makes it first). */
	if ((flags & 4) && !ispace_fits(SB(odir), BOGO_INODE_SIZE))
		return -ENOSPC;
	ino = e->inode;
	d = find(ndir, nname);
	if (flags & 2)
		return d ? exchange(odir, e, ndir, d) : -ENOENT;
	if (d) {
		if (flags & 1)
			return -EEXIST;
		if (LINUX_S_ISDIR(d->inode->mode) && !list_empty(&N(d->inode)->entries))
			return -ENOTEMPTY;
		drop_name(d->inode);
		del_entry(ndir, d);
	}
	inode_get(ino);
	del_entry(odir, e);
	ret = add_entry(ndir, nname, ino);
	N(ino)->ctime = vfs_now();
	inode_put(ino);
	if (ret == 0 && (flags & 4))
		ret = tmpfs_mknod(odir, oname, LINUX_S_IFCHR, 0,
				  current ? &current->proc->cred : NULL, NULL);
	return ret;
}

static long tmpfs_readlink(struct inode *ino, char *buf, size_t n)
{
	size_t len;

	if (!N(ino)->target)
		return -EINVAL;
	len = strlen(N(ino)->target);
	if (len > n)
		len = n;
	memcpy(buf, N(ino)->target, len);
	return (long)len;
}

/* A sparse file's blocks: the pages it holds, in the kernel or the host
 * (Linux's shmem counts the pages it has). */
static int64_t held_st_blocks(const struct tmpfs_node *n)
{
	struct linux_stat st;

	if (n->memfd < 0)
		return (int64_t)(n->pages.held * (TMPFS_PAGE / 512));
	if (host_fstat(n->memfd, &st) < 0 || st.st_blocks < 0)
		return 0;
	return st.st_blocks;
}

static int tmpfs_getattr(struct inode *ino, struct linux_stat *st)
{
	struct tmpfs_node *n = N(ino);

	st->st_dev = ino->sb->dev;
	st->st_ino = ino->ino;
	st->st_mode = n->mode;
	st->st_nlink = n->nlink;
	st->st_uid = n->uid;
	st->st_gid = n->gid;
	st->st_rdev = n->rdev;
	/* Linux's shmem: a directory's size is BOGO_DIRENT_SIZE (20) for
	 * each entry and for "." and ".."; a symlink's target shorter than
	 * SHORT_SYMLINK_LEN (128 with its NUL) lives in the inode, no page.
	 * (ls -l, du -b and tar's listings showed 40 for every directory and
	 * 8 blocks for every symlink.) */
	st->st_size = LINUX_S_ISDIR(n->mode) ? (int64_t)(40 + 20 * n->nentries) : (int64_t)n->size;
	st->st_blksize = 4096;
	st->st_blocks = (int64_t)((n->size + 4095) / 4096 * 8);
	if (LINUX_S_ISLNK(n->mode) && n->size < 128)
		st->st_blocks = 0;
	if (n->sparse && LINUX_S_ISREG(n->mode))
		st->st_blocks = held_st_blocks(n);
	st->st_atime_sec = n->atime.tv_sec;
	st->st_atime_nsec = n->atime.tv_nsec;
	st->st_mtime_sec = n->mtime.tv_sec;
	st->st_mtime_nsec = n->mtime.tv_nsec;
	st->st_ctime_sec = n->ctime.tv_sec;
	st->st_ctime_nsec = n->ctime.tv_nsec;
	return 0;
}

/* Linux's shmem_getattr: the birth time when asked, and three of
 * chattr's flags as statx attributes. */
static void tmpfs_getattr_x(struct inode *ino, unsigned mask, struct linux_statx *stx)
{
	struct tmpfs_node *n = N(ino);

	if (mask & LINUX_STATX_BTIME) {
		stx->stx_mask |= LINUX_STATX_BTIME;
		stx->stx_btime.tv_sec = n->btime.tv_sec;
		stx->stx_btime.tv_nsec = (uint32_t)n->btime.tv_nsec;
	}
	if (n->fsflags & LINUX_FS_APPEND_FL)
		stx->stx_attributes |= LINUX_STATX_ATTR_APPEND;
	if (n->fsflags & LINUX_FS_IMMUTABLE_FL)
		stx->stx_attributes |= LINUX_STATX_ATTR_IMMUTABLE;
	if (n->fsflags & LINUX_FS_NODUMP_FL)
		stx->stx_attributes |= LINUX_STATX_ATTR_NODUMP;
	stx->stx_attributes_mask |=
		LINUX_STATX_ATTR_APPEND | LINUX_STATX_ATTR_IMMUTABLE | LINUX_STATX_ATTR_NODUMP;
}

/* Files that are mapped hold a host memfd each (the stubs map its pages,
 * so that read/write and the mappings see the same data), and so do files
 * grown past MEMFD_SIZE: at most memfds_max of them in the instance, so
 * that the kernel keeps host fds for everything else. Every other file
 * keeps its data in kernel pages and no host fd: a guest may hold as many
 * as its memory allows (tar of /usr/include into /tmp stopped half way at
 * a quarter of the host's fd limit when each file with data had a memfd).
 * Differs from Linux: tmpfs's inode limit (ENOSPC) counts only files with
 * a memfd, and is met when a file is mapped (mmap: ENFILE) or grows past
 * MEMFD_SIZE. */
static long memfds, memfds_max = 1L << 20;

/* Past this size a file moves to a memfd: big files are few, so their fds
 * are cheap; the host then holds their pages as shared memory (which it
 * can swap) instead of the kernel's heap; and the page array of a file in
 * kernel memory stays at most 128 KiB, however far out a sparse file's
 * data lies (a 1 TiB file truncated to size needs no array at all). */
#define MEMFD_SIZE (64ULL << 20)

void tmpfs_set_max_files(long n)
{
	memfds_max = n;
}

/* Copies the pages of n into the new memfd fd: 0 or -errno. */
static int pages_to_memfd(const struct tmpfs_node *n, int fd)
{
	int ret = n->size ? host_ftruncate(fd, n->size) : 0;
	uint64_t i;

	for (i = 0; ret >= 0 && i < n->pages.nslots && i * TMPFS_PAGE < n->size; i++) {
		const void *pg = pages_at(&n->pages, i);
		uint64_t len = n->size - i * TMPFS_PAGE;
		long done;

		if (!pg)
			continue;
		if (len > TMPFS_PAGE)
			len = TMPFS_PAGE;
		if (pages_unwritten(&n->pages, i)) { /* the host's stays unwritten too */
			ret = host_fallocate(fd, 0, (int64_t)(i * TMPFS_PAGE), (int64_t)len);
			continue;
		}
		done = host_pwrite(fd, pg, len, (int64_t)(i * TMPFS_PAGE));
		if (done != (long)len)
			ret = done < 0 ? (int)done : -EIO;
	}
	return ret;
}

int tmpfs_data_fd(struct inode *ino)
{
	struct tmpfs_node *n = N(ino);
	int fd, ret;

	if (n->memfd >= 0)
		return n->memfd;
	if (memfds >= memfds_max)
		return -ENOSPC;
	fd = host_memfd("skas-tmpfs");
	if (fd == -EMFILE || fd == -ENFILE)
		return -ENOSPC;
	if (fd < 0)
		return fd;
	/* The pages move in once; from now on the data lives there only. */
	ret = pages_to_memfd(n, fd);
	if (ret < 0) {
		host_close(fd);
		return ret;
	}
	pages_free(&n->pages);
	n->memfd = fd;
	memfds++;
	return fd;
}

/* What the file should count now (see tmpfs_node.charged): at most its
 * pages, as a dense file counts (the host may hold a large folio). */
static uint64_t charge_of(const struct tmpfs_node *n)
{
	uint64_t all = PAGE_ALIGN(n->size), held;

	if (!n->sparse)
		return all;
	held = (uint64_t)held_st_blocks(n) * 512;
	if (held > all)
		held = all;
	return n->mapped < all - held ? held + n->mapped : all;
}

/* Would bytes more still fit in the tmpfs? */
static bool space_for(struct inode *ino, uint64_t bytes)
{
	struct tmpfs_sb *s = SB(ino);

	return s->used <= s->limit && bytes <= s->limit - s->used;
}

/* Counts the file at bytes from now on. Over --memory, the OOM killer
 * runs (mem_account_data): the pages are already there. */
static void set_charge(struct inode *ino, uint64_t bytes)
{
	struct tmpfs_node *n = N(ino);

	SB(ino)->used = SB(ino)->used - n->charged + bytes;
	mem_account_data((int64_t)bytes - (int64_t)n->charged);
	n->charged = bytes;
}

/* Counts a sparse file again after its data changed. */
static void recharge(struct inode *ino)
{
	if (N(ino)->sparse)
		set_charge(ino, charge_of(N(ino)));
}

/* A new size. hole: the growth is a hole (a truncate, a write or an
 * allocation that starts past the end), which makes the file sparse: then
 * it counts no more until data lands in it. */
static int resize(struct inode *ino, uint64_t size, bool hole)
{
	struct tmpfs_node *n = N(ino);
	bool sparse = n->sparse || (hole && size > n->size);
	uint64_t want = sparse ? n->charged : PAGE_ALIGN(size);
	int fd, ret;

	if (want > n->charged && !space_for(ino, want - n->charged))
		return -ENOSPC;
	if (n->memfd < 0 && size > MEMFD_SIZE) {
		fd = tmpfs_data_fd(ino);
		if (fd < 0)
			return fd;
	}
	if (n->memfd >= 0) {
		ret = host_ftruncate(n->memfd, size);
		if (ret < 0)
			return ret;
	} else if (size < n->size) {
		pages_truncate(&n->pages, size);
	}
	/* In the pages a growth is a hole until a write lands: the bytes
	 * past the old size in its last page are zero (pages_truncate and
	 * pages_punch clear them, writes stop at the size). */
	n->size = size;
	n->sparse = sparse;
	set_charge(ino, charge_of(n)); /* a cut frees the pages past it */
	return 0;
}

/* Room for data in [off, end) of a file that is or becomes sparse
 * (its pages may all be new); a dense file's growth is checked by
 * resize. */
static int room_for(struct inode *ino, uint64_t off, uint64_t end)
{
	struct tmpfs_node *n = N(ino);

	if (!(n->sparse || off > n->size) || end <= off)
		return 0;
	return space_for(ino, PAGE_ALIGN(end) - (off & PAGE_MASK)) ? 0 : -ENOSPC;
}

static int tmpfs_setattr(struct inode *ino, const struct iattr *ia)
{
	struct tmpfs_node *n = N(ino);
	int ret;

	if ((ia->valid & ATTR_MODE) && (n->seals & LINUX_F_SEAL_EXEC) &&
	    ((n->mode ^ ia->mode) & 0111))
		return -EPERM;
	if ((ia->valid & ATTR_SIZE) && ((ia->size < n->size && (n->seals & LINUX_F_SEAL_SHRINK)) ||
					(ia->size > n->size && (n->seals & LINUX_F_SEAL_GROW))))
		return -EPERM;
	if ((ia->valid & ATTR_SIZE) && !frozen(ino)) { /* kernfs ignores a size */
		ret = resize(ino, ia->size, true);
		if (ret < 0)
			return ret;
		n->mtime = vfs_now();
	}
	if (ia->valid & ATTR_MODE)
		n->mode = (n->mode & LINUX_S_IFMT) | (ia->mode & 07777);
	if (ia->valid & ATTR_UID)
		n->uid = ia->uid;
	if (ia->valid & ATTR_GID)
		n->gid = ia->gid;
	if (ia->valid & ATTR_ATIME)
		n->atime = ia->atime;
	if (ia->valid & ATTR_MTIME)
		n->mtime = ia->mtime;
	n->ctime = vfs_now();
	return 0;
}

/* chattr's flags of a regular file or directory (Linux's shmem keeps
 * these four; its other inodes have none). */
#define TMPFS_FL_MODIFIABLE \
	(LINUX_FS_IMMUTABLE_FL | LINUX_FS_APPEND_FL | LINUX_FS_NODUMP_FL | LINUX_FS_NOATIME_FL)

static int tmpfs_fileattr_get(struct inode *ino, uint32_t *flags)
{
	if (!LINUX_S_ISREG(ino->mode) && !LINUX_S_ISDIR(ino->mode))
		return -ENOIOCTLCMD;
	*flags = N(ino)->fsflags;
	return 0;
}

static int tmpfs_fileattr_set(struct inode *ino, uint32_t flags)
{
	if (!LINUX_S_ISREG(ino->mode) && !LINUX_S_ISDIR(ino->mode))
		return -ENOIOCTLCMD;
	if (flags & ~TMPFS_FL_MODIFIABLE)
		return -EOPNOTSUPP;
	N(ino)->fsflags = flags;
	ino->flags = ((flags & LINUX_FS_IMMUTABLE_FL) ? INODE_IMMUTABLE : 0) |
		     ((flags & LINUX_FS_APPEND_FL) ? INODE_APPEND : 0) |
		     ((flags & LINUX_FS_NOATIME_FL) ? INODE_NOATIME : 0);
	N(ino)->ctime = vfs_now();
	return 0;
}

static bool ts_before(struct linux_timespec a, struct linux_timespec b)
{
	return a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec);
}

/* Linux's relatime_need_update, and then the time of now. */
static void tmpfs_touch_atime(struct inode *ino, bool relatime)
{
	struct tmpfs_node *n = N(ino);
	struct linux_timespec now = vfs_now();

	if (relatime && ts_before(n->mtime, n->atime) && ts_before(n->ctime, n->atime) &&
	    now.tv_sec - n->atime.tv_sec < 24 * 60 * 60)
		return;
	n->atime = now;
}

static int tmpfs_iterate(struct inode *dir, dir_emit_fn emit, void *ctx)
{
	struct tmpfs_dirent *e;
	int ret;

	ret = emit(ctx, ".", dir->ino, LINUX_DT_DIR);
	if (ret == 0)
		ret = emit(ctx, "..", N(dir)->parent_ino ? N(dir)->parent_ino : dir->ino,
			   LINUX_DT_DIR);
	list_for_each_entry(e, &N(dir)->entries, link)
	{
		if (ret)
			break;
		ret = emit(ctx, e->name, e->inode->ino, LINUX_IFTODT(e->inode->mode));
	}
	return ret < 0 ? ret : 0;
}

/* Regular files: data in the pages or the memfd, position in the struct
 * file. */

static long tf_pread(struct file *f, void *buf, size_t n, int64_t off)
{
	struct tmpfs_node *tn = N(f->inode);

	if (off < 0)
		return -EINVAL;
	if (n > 0)
		file_accessed(f); /* shmem_file_read_iter's, at the end too */
	if ((uint64_t)off >= tn->size)
		return 0;
	if (n > tn->size - (uint64_t)off)
		n = tn->size - (uint64_t)off;
	if (tn->memfd >= 0)
		return host_pread(tn->memfd, buf, n, off);
	pages_read(&tn->pages, buf, n, (uint64_t)off);
	return (long)n;
}

/* Writes n bytes at off, below the file's size: the bytes written, or
 * -errno. A short write into the pages (no memory) leaves a hole, which
 * makes the file sparse: it counts what it holds. */
static long data_pwrite(struct inode *ino, const void *buf, size_t n, uint64_t off)
{
	struct tmpfs_node *tn = N(ino);
	long ret;

	if (tn->memfd >= 0)
		return host_pwrite(tn->memfd, buf, n, (int64_t)off);
	ret = pages_write(&tn->pages, buf, n, off);
	if (ret < (long)n)
		tn->sparse = true;
	return ret;
}

/* shmem_write_begin's seal checks, page by page as Linux writes: a write
 * under F_SEAL_GROW stops at the page that would grow the file, EPERM if
 * that is the first. */
static long sealed_write(const struct tmpfs_node *tn, int64_t off, size_t *n)
{
	uint64_t stop = tn->size & ~4095ULL;

	if (*n == 0)
		return 0;
	if (tn->seals & SEALS_WRITE)
		return -EPERM;
	if (!(tn->seals & LINUX_F_SEAL_GROW) || (uint64_t)off + *n <= tn->size)
		return 0;
	if (stop <= (uint64_t)off)
		return -EPERM;
	*n = stop - (uint64_t)off;
	return 0;
}

/* From page i on (below page lim): whether the file holds it, and the
 * first page past i where that changes, or lim. A dense file holds every
 * page below its size; a sparse one asks its pages or its memfd. */
static uint64_t page_run(const struct tmpfs_node *tn, uint64_t i, uint64_t lim, bool *held)
{
	uint64_t size_pages = PAGE_ALIGN(tn->size) / PAGE_SIZE, j;
	int64_t r;

	*held = false;
	if (i >= size_pages)
		return lim;
	if (lim > size_pages)
		lim = size_pages; /* past it nothing is held: the caller's next run */
	if (!tn->sparse) {
		*held = true;
		return lim;
	}
	if (tn->memfd < 0) {
		*held = pages_at(&tn->pages, i) != NULL;
		for (j = i + 1; j < lim && (pages_at(&tn->pages, j) != NULL) == *held; j++)
			;
		return j;
	}
	r = host_lseek(tn->memfd, (int64_t)(i * PAGE_SIZE), LINUX_SEEK_DATA);
	if (r < 0 || (uint64_t)r >= lim * PAGE_SIZE)
		return lim; /* a hole to lim */
	if ((uint64_t)r / PAGE_SIZE > i)
		return (uint64_t)r / PAGE_SIZE;
	*held = true;
	r = host_lseek(tn->memfd, (int64_t)(i * PAGE_SIZE), LINUX_SEEK_HOLE);
	j = r < 0 ? lim : PAGE_ALIGN((uint64_t)r) / PAGE_SIZE;
	return j > i && j < lim ? j : lim;
}

/* What of a write of n bytes at off fits in the mount's space: shmem
 * charges a page the file does not hold yet as the write reaches it, so
 * a write is cut at the first such page that does not fit (0: none did,
 * ENOSPC); pages it holds cost nothing. */
static size_t write_fits(struct inode *ino, uint64_t off, size_t n)
{
	struct tmpfs_node *tn = N(ino);
	struct tmpfs_sb *s = SB(ino);
	uint64_t end = off + n, avail = s->used < s->limit ? s->limit - s->used : 0;
	uint64_t i = off / PAGE_SIZE, lim = PAGE_ALIGN(end) / PAGE_SIZE, left = avail / PAGE_SIZE;

	/* every page new fits: no need to look */
	if (PAGE_ALIGN(end) - (off & PAGE_MASK) <= avail)
		return n;
	while (i < lim) {
		bool held;
		uint64_t j = page_run(tn, i, lim, &held);

		if (!held) {
			if (j - i > left) {
				end = (i + left) * PAGE_SIZE;
				break;
			}
			left -= j - i;
		}
		i = j;
	}
	return end > off ? (size_t)(end - off) : 0;
}

static long tf_pwrite(struct file *f, const void *buf, size_t n, int64_t off)
{
	struct tmpfs_node *tn = N(f->inode);
	long ret;

	if (off < 0)
		return -EINVAL;
	if (n == 0)
		return 0; /* generic_write_checks: no seal check, no growth */
	if (frozen(f->inode))
		return -EINVAL; /* a sysfs store: no value skas could honour */
	/* generic_write_checks: a file open with O_APPEND is written at its
	 * end, by pwrite too (pwrite(2)'s BUGS) */
	if (f->flags & LINUX_O_APPEND)
		off = (int64_t)tn->size;
	if (tn->seals & (SEALS_WRITE | LINUX_F_SEAL_GROW)) {
		ret = sealed_write(tn, off, &n);
		if (ret < 0)
			return ret;
	}
	n = write_fits(f->inode, (uint64_t)off, n);
	if (n == 0)
		return -ENOSPC;
	if ((uint64_t)off + n > tn->size) {
		int r = resize(f->inode, (uint64_t)off + n, (uint64_t)off > tn->size);

		if (r < 0)
			return r;
	}
	ret = data_pwrite(f->inode, buf, n, (uint64_t)off);
	if (ret > 0)
		tn->mtime = tn->ctime = vfs_now();
	recharge(f->inode);
	return ret;
}

/* fallocate's work on [off, end), below the size. A page that cannot be
 * had leaves the file with a hole: it becomes sparse. */
static int falloc_data(struct tmpfs_node *tn, int mode, uint64_t off, uint64_t end)
{
	int ret;

	if (tn->memfd >= 0)
		return host_fallocate(tn->memfd, mode, (int64_t)off, (int64_t)(end - off));
	if (mode & LINUX_FALLOC_FL_PUNCH_HOLE) {
		pages_punch(&tn->pages, off, end);
		return 0;
	}
	ret = pages_alloc(&tn->pages, off, end);
	if (ret < 0)
		tn->sparse = true;
	return ret;
}

/* shmem's modes: allocate (the size grows unless KEEP_SIZE) and
 * PUNCH_HOLE|KEEP_SIZE; others are EOPNOTSUPP, as on Linux's tmpfs. The
 * host's pages are allocated only below the size (a dense file counts its
 * size, a sparse one what the host holds): KEEP_SIZE beyond it reserves
 * nothing more. */
static long tf_fallocate(struct file *f, int mode, int64_t off, int64_t len)
{
	struct tmpfs_node *tn = N(f->inode);
	uint64_t end = (uint64_t)off + (uint64_t)len;
	int ret = 0;

	if (mode & ~(LINUX_FALLOC_FL_KEEP_SIZE | LINUX_FALLOC_FL_PUNCH_HOLE))
		return -EOPNOTSUPP;
	/* shmem's seals: a hole changes the data, an allocation past the
	 * size grows the file (even with KEEP_SIZE). */
	if ((mode & LINUX_FALLOC_FL_PUNCH_HOLE)
		    ? (tn->seals & SEALS_WRITE)
		    : ((tn->seals & LINUX_F_SEAL_GROW) && end > tn->size))
		return -EPERM;
	/* shmem checks RLIMIT_FSIZE even with KEEP_SIZE (the VFS did
	 * without) */
	if (!(mode & LINUX_FALLOC_FL_PUNCH_HOLE) && (mode & LINUX_FALLOC_FL_KEEP_SIZE)) {
		ret = file_newsize_ok((int64_t)tn->size, end);
		if (ret < 0)
			return ret;
	}
	if (!(mode & LINUX_FALLOC_FL_PUNCH_HOLE)) {
		ret = room_for(f->inode, (uint64_t)off,
			       (mode & LINUX_FALLOC_FL_KEEP_SIZE) && end > tn->size ? tn->size
										    : end);
		if (ret < 0)
			return ret;
	}
	if (!(mode & LINUX_FALLOC_FL_KEEP_SIZE) && end > tn->size) {
		ret = resize(f->inode, end, (uint64_t)off > tn->size);
		if (ret < 0)
			return ret;
	}
	if ((uint64_t)off < tn->size)
		ret = falloc_data(tn, mode, (uint64_t)off, end < tn->size ? end : tn->size);
	if (ret == 0) {
		tn->ctime = vfs_now();
		if (mode & LINUX_FALLOC_FL_PUNCH_HOLE) {
			tn->mtime = tn->ctime;
			tn->sparse = true;
		}
	}
	recharge(f->inode);
	return ret;
}

static long tf_write(struct file *f, const void *buf, size_t n)
{
	long ret;

	if (n == 0)
		return 0; /* the position stays, even with O_APPEND */
	if (f->flags & LINUX_O_APPEND)
		f->pos = (int64_t)N(f->inode)->size;
	ret = tf_pwrite(f, buf, n, f->pos);
	if (ret > 0)
		f->pos += ret;
	return ret;
}

static int64_t tf_llseek(struct file *f, int64_t off, int whence)
{
	int64_t base;

	switch (whence) {
	case LINUX_SEEK_SET:
		base = 0;
		break;
	case LINUX_SEEK_CUR:
		base = f->pos;
		break;
	case LINUX_SEEK_END:
		base = (int64_t)N(f->inode)->size;
		break;
	case LINUX_SEEK_DATA:
	case LINUX_SEEK_HOLE:
		/* Both are ENXIO at or past the end (shmem's
		 * mapping_seek_hole_data); inside, the pages or the host's
		 * memfd know which pages the file holds. */
		if (off < 0 || (uint64_t)off >= N(f->inode)->size)
			return -ENXIO;
		if (N(f->inode)->memfd < 0)
			base = pages_seek(&N(f->inode)->pages, (uint64_t)off, N(f->inode)->size,
					  whence == LINUX_SEEK_DATA);
		else
			base = host_lseek(N(f->inode)->memfd, off, whence);
		return base < 0 ? base : (f->pos = base);
	default:
		return -EINVAL;
	}
	if (__builtin_add_overflow(base, off, &off) || off < 0)
		return -EINVAL; /* past 2^63 - 1 wraps negative on Linux too */
	return f->pos = off;
}

static int tf_stat(struct file *f, struct linux_stat *st)
{
	return tmpfs_getattr(f->inode, st);
}

static unsigned tf_poll(struct file *f, struct poll_table *pt)
{
	(void)f;
	(void)pt;
	return LINUX_POLLIN | LINUX_POLLOUT | LINUX_POLLRDNORM | LINUX_POLLWRNORM;
}

/* A mapping needs the data in a memfd: the file moves there for good.
 * Differs from Linux: past the instance's memfds, mmap (and exec) fail
 * ENFILE. */
static int tf_mmap_fd(struct file *f)
{
	int fd = tmpfs_data_fd(f->inode);

	return fd == -ENOSPC ? -ENFILE : fd;
}

/* A mapping of a sparse file counts its length (faults may fill it); past
 * --memory the OOM killer runs, as Linux's would once the pages are
 * touched. */
static void tf_vma_open(struct file *f, uint64_t bytes)
{
	N(f->inode)->mapped += bytes;
	recharge(f->inode);
}

static void tf_vma_close(struct file *f, uint64_t bytes)
{
	N(f->inode)->mapped -= bytes;
	recharge(f->inode);
}

static struct shared_policy *tf_shared_policy(struct file *f)
{
	return &N(f->inode)->policy;
}

static const struct file_ops tmpfs_file_ops = {
	.read = file_read_at_pos,
	.write = tf_write,
	.pread = tf_pread,
	.pwrite = tf_pwrite,
	.llseek = tf_llseek,
	.stat = tf_stat,
	.poll = tf_poll,
	.mmap_fd = tf_mmap_fd,
	.vma_open = tf_vma_open,
	.vma_close = tf_vma_close,
	.fallocate = tf_fallocate,
	.shared_policy = tf_shared_policy,
};

unsigned *tmpfs_file_seals(struct file *f)
{
	if (f->ops != &tmpfs_file_ops || !f->path.dentry || f->path.dentry->inode != f->inode ||
	    f->inode->sb->magic != LINUX_TMPFS_MAGIC)
		return NULL;
	return &N(f->inode)->seals;
}

static const struct file_ops tmpfs_dir_ops = {
	.read = dir_read,
	.pread = dir_pread,
	.getdents64 = dir_getdents64,
	.llseek = dir_llseek,
	.stat = tf_stat,
};

static int tmpfs_open(struct inode *ino, struct file *f)
{
	/* kernfs_fop_open: a file of sysfs without a store (no write bit)
	 * is not opened for writing, even by root */
	if (frozen(ino) && (f->flags & LINUX_O_ACCMODE) != LINUX_O_RDONLY && !(N(ino)->mode & 0222))
		return -EACCES;
	if (LINUX_S_ISDIR(ino->mode)) {
		f->ops = &tmpfs_dir_ops;
		return 0;
	}
	if (LINUX_S_ISFIFO(ino->mode))
		return fifo_open(&N(ino)->fifo, f);
	f->ops = &tmpfs_file_ops;
	return 0;
}

static struct tmpfs_xattr *find_xattr(struct inode *ino, const char *name)
{
	struct tmpfs_xattr *x;

	list_for_each_entry(x, &N(ino)->xattrs, link) if (strcmp(x->name, name) == 0) return x;
	return NULL;
}

/* The ACLs come from vfs/acl.c alone, checked and in instance ids. */
static bool xattr_ns_ok(const char *name)
{
	return strncmp(name, "user.", 5) == 0 || strncmp(name, "trusted.", 8) == 0 ||
	       strncmp(name, "security.", 9) == 0 || acl_kind_of(name);
}

static unsigned tmpfs_acl_kinds(struct inode *ino)
{
	return (find_xattr(ino, ACL_XATTR_ACCESS) ? ACL_KIND_ACCESS : 0) |
	       (find_xattr(ino, ACL_XATTR_DEFAULT) ? ACL_KIND_DEFAULT : 0);
}

static long tmpfs_getxattr(struct inode *ino, const char *name, void *buf, size_t n)
{
	struct tmpfs_xattr *x = find_xattr(ino, name);

	if (!x)
		return -ENODATA;
	if (n == 0)
		return (long)x->len;
	if (n < x->len)
		return -ERANGE;
	memcpy(buf, x->val, x->len);
	return (long)x->len;
}

/* An xattr's draw on the inode space and kernel memory (Linux's
 * simple_xattr_space: its header, name and value). */
static uint64_t xattr_space(const char *name, size_t len)
{
	return sizeof(struct tmpfs_xattr) + strlen(name) + 1 + len;
}

/* bytes more of ino's xattrs: taken from its tmpfs's inode space and
 * --memory (kernel memory the guest holds), false (ENOSPC) past either. */
static bool xattr_take(struct inode *ino, uint64_t bytes)
{
	if (!ispace_take(SB(ino), bytes))
		return false;
	N(ino)->xattr_bytes += bytes;
	return true;
}

static void xattr_give(struct inode *ino, uint64_t bytes)
{
	N(ino)->xattr_bytes -= bytes;
	ispace_give(SB(ino), bytes);
}

static int tmpfs_setxattr(struct inode *ino, const char *name, const void *val, size_t n, int flags)
{
	struct tmpfs_xattr *x = find_xattr(ino, name);
	uint64_t want, had;
	void *copy;

	if (!xattr_ns_ok(name))
		return -EOPNOTSUPP;
	if ((flags & 1 /* XATTR_CREATE */) && x)
		return -EEXIST;
	if ((flags & 2 /* XATTR_REPLACE */) && !x)
		return -ENODATA;
	/* ENOSPC past the inode space or --memory (ispace_take). */
	want = xattr_space(name, n);
	had = x ? xattr_space(x->name, x->len) : 0;
	if (want > had && !xattr_take(ino, want - had))
		return -ENOSPC;
	copy = malloc(n ? n : 1);
	if (!copy)
		goto out_nomem;
	memcpy(copy, val, n);
	if (!x) {
		x = calloc(1, sizeof(*x));
		if (!x || !(x->name = strdup(name))) {
			free(x);
			free(copy);
			goto out_nomem;
		}
		list_add_tail(&x->link, &N(ino)->xattrs);
	} else {
		free(x->val);
	}
	x->val = copy;
	x->len = n;
	if (had > want)
		xattr_give(ino, had - want);
	N(ino)->ctime = vfs_now();
	return 0;
out_nomem:
	if (want > had)
		xattr_give(ino, want - had);
	return -ENOMEM;
}

static long tmpfs_listxattr(struct inode *ino, char *buf, size_t n)
{
	struct tmpfs_xattr *x;
	size_t total = 0;

	list_for_each_entry(x, &N(ino)->xattrs, link)
	{
		size_t l = strlen(x->name) + 1;

		if (n) {
			if (total + l > n)
				return -ERANGE;
			memcpy(buf + total, x->name, l);
		}
		total += l;
	}
	return (long)total;
}

static int tmpfs_removexattr(struct inode *ino, const char *name)
{
	struct tmpfs_xattr *x = find_xattr(ino, name);

	if (!x)
		return -ENODATA;
	xattr_give(ino, xattr_space(x->name, x->len));
	list_del(&x->link);
	free(x->name);
	free(x->val);
	free(x);
	return 0;
}

static int tmpfs_statfs(struct inode *ino, struct linux_statfs *st)
{
	struct tmpfs_sb *s = SB(ino);

	st->f_type = (int64_t)ino->sb->magic; /* tmpfs's, or what a user of it set */
	st->f_bsize = 4096;
	st->f_frsize = 4096;
	st->f_namelen = 255;
	/* sysfs on a tmpfs: Linux's simple_statfs, no blocks or inodes */
	if (ino->sb->magic != LINUX_TMPFS_MAGIC)
		return 0;
	/* Without a limit (size=0) all three are 0, as Linux's shmem_statfs */
	if (s->limit != UINT64_MAX) {
		st->f_blocks = s->limit / 4096;
		st->f_bfree = st->f_bavail = s->limit > s->used ? (s->limit - s->used) / 4096 : 0;
	}
	/* Free is the inode space left (Linux's free_ispace / BOGO_INODE_SIZE):
	 * the live inodes (the root among them; inode numbers can start high,
	 * an overlay's upper takes the lower's, so next_ino says nothing of
	 * how many), extra names and the xattrs. Without a limit (nr_inodes=0)
	 * both are 0, as Linux's. */
	if (s->max_ispace) {
		st->f_files = s->max_ispace / BOGO_INODE_SIZE;
		st->f_ffree = s->ispace < s->max_ispace
				      ? (int64_t)((s->max_ispace - s->ispace) / BOGO_INODE_SIZE)
				      : 0;
	}
	return 0;
}

static void tmpfs_release(struct inode *ino)
{
	struct tmpfs_node *n = N(ino);
	struct tmpfs_dirent *e, *en;
	struct tmpfs_xattr *x, *xn;

	if (n->memfd >= 0) {
		host_close(n->memfd);
		memfds--;
	}
	pages_free(&n->pages);
	if (n->nlink == 0 && ino->sb)
		ino->sb->remove_count--;
	/* What it counts: a regular file's pages, a long symlink's page
	 * (not the size: a symlink's is its target's length, and subtracting
	 * it let a guest pass --tmpfs-size by deleting symlinks). */
	if (ino->sb && ino->sb->priv && (LINUX_S_ISREG(n->mode) || LINUX_S_ISLNK(n->mode))) {
		SB(ino)->used -= n->charged;
		mem_account_data(-(int64_t)n->charged);
	}
	list_for_each_entry_safe(e, en, &n->entries, link)
	{
		free(e->name);
		inode_put(e->inode);
		free(e);
	}
	list_for_each_entry_safe(x, xn, &n->xattrs, link)
	{
		free(x->name);
		free(x->val);
		free(x);
	}
	if (n->xattr_bytes)
		xattr_give(ino, n->xattr_bytes);
	itab_del(SB(ino), ino);
	ispace_give(SB(ino), n->units * BOGO_INODE_SIZE);
	fifo_free(n->fifo);
	if (n->redirect) {
		inode_put(n->redirect);
		files_give_slot();
	}
	mpol_shared_free(&n->policy);
	free(n->htab);
	free(n->target);
	free(n);
	if (ino->sb && ino->sb->priv && --SB(ino)->ninodes == 0 && SB(ino)->dead) {
		mpol_put(SB(ino)->mpol);
		free(SB(ino)->itab);
		free(ino->sb->priv);
		free(ino->sb);
	}
}

static const struct inode_ops tmpfs_iops = {
	.lookup = tmpfs_lookup,
	.mknod = tmpfs_mknod,
	.symlink = tmpfs_symlink,
	.tmpfile = tmpfs_tmpfile,
	.link = tmpfs_link,
	.unlink = tmpfs_unlink,
	.rename = tmpfs_rename,
	.readlink = tmpfs_readlink,
	.getattr = tmpfs_getattr,
	.getattr_x = tmpfs_getattr_x,
	.setattr = tmpfs_setattr,
	.iterate = tmpfs_iterate,
	.open = tmpfs_open,
	.getxattr = tmpfs_getxattr,
	.setxattr = tmpfs_setxattr,
	.listxattr = tmpfs_listxattr,
	.removexattr = tmpfs_removexattr,
	.acl_kinds = tmpfs_acl_kinds,
	.statfs = tmpfs_statfs,
	.fileattr_get = tmpfs_fileattr_get,
	.fileattr_set = tmpfs_fileattr_set,
	.touch_atime = tmpfs_touch_atime,
	.release = tmpfs_release,
};

int tmpfs_fill(struct inode *ino, const void *data, size_t len)
{
	long done;
	int ret;

	if (!len)
		return 0;
	ret = resize(ino, len, false);
	done = ret < 0 ? ret : data_pwrite(ino, data, len, 0);
	if (done < 0)
		ret = (int)done;
	else if (done != (long)len)
		ret = -ENOMEM;
	recharge(ino);
	return ret;
}

int tmpfs_add_file(struct inode *dir, const char *name, uint32_t mode, const void *data, size_t len)
{
	struct inode *ino;
	int ret = tmpfs_mknod(dir, name, LINUX_S_IFREG | (mode & 07777), 0, NULL, &ino);

	if (ret < 0)
		return ret;
	ret = tmpfs_fill(ino, data, len);
	inode_put(ino);
	return ret;
}

static void tmpfs_put_super(struct super_block *sb)
{
	struct tmpfs_sb *s = sb->priv;

	if (sb->user_ns) {
		ns_put(&sb->user_ns->ns);
		sb->user_ns = NULL;
	}
	if (s->ninodes) {
		s->dead = true;
		return;
	}
	mpol_put(s->mpol);
	free(s->itab);
	free(s);
	free(sb);
}

/* Linux's shmem_encode_fh: FILEID_INO32_GEN's type with three words, the
 * generation and the inode number's low and high halves. */
#define TMPFS_FILEID 1
#define TMPFS_FH_LEN 12

static int tmpfs_encode_fh(struct inode *ino, uint8_t *fh, int *len)
{
	uint32_t w[3] = { N(ino)->gen, (uint32_t)ino->ino, (uint32_t)(ino->ino >> 32) };

	if (*len < TMPFS_FH_LEN) {
		*len = TMPFS_FH_LEN;
		return -EOVERFLOW;
	}
	memcpy(fh, w, sizeof(w));
	*len = TMPFS_FH_LEN;
	return TMPFS_FILEID;
}

/* Linux's shmem_fh_to_dentry: any type, the first three words; a live
 * inode of that number and generation. */
static struct inode *tmpfs_fh_to_inode(struct super_block *sb, const uint8_t *fh, int len, int type)
{
	struct inode *ino;
	uint32_t w[3];

	(void)type;
	if (len < TMPFS_FH_LEN || sb->put_super != tmpfs_put_super)
		return NULL;
	memcpy(w, fh, sizeof(w));
	ino = itab_find(sb->priv, ((uint64_t)w[2] << 32) | w[1]);
	if (!ino || N(ino)->gen != w[0])
		return NULL;
	inode_get(ino);
	return ino;
}

/* The directory of ino's last name (parent_ino), if the name is still
 * there. Differs from Linux: a file whose last name was removed while
 * another link stays is not looked for elsewhere, and opens as a file
 * with no path ("/"). */
static int tmpfs_get_name(struct inode *ino, struct inode **dir, char *name)
{
	struct tmpfs_dirent *e;
	struct inode *d;

	if (!N(ino)->nlink || !N(ino)->parent_ino)
		return -ENOENT;
	d = itab_find(SB(ino), N(ino)->parent_ino);
	if (!d || !LINUX_S_ISDIR(d->mode))
		return -ENOENT;
	list_for_each_entry(e, &N(d)->entries, link)
	{
		if (e->inode == ino) {
			snprintf(name, LINUX_NAME_MAX + 1, "%s", e->name);
			inode_get(d);
			*dir = d;
			return 0;
		}
	}
	return -ENOENT;
}

static const struct export_ops tmpfs_export_ops = {
	.encode_fh = tmpfs_encode_fh,
	.fh_to_inode = tmpfs_fh_to_inode,
	.get_name = tmpfs_get_name,
};

void tmpfs_set_mpol(struct super_block *sb, struct mempolicy *p)
{
	struct tmpfs_sb *s = sb->priv;

	if (sb->put_super != tmpfs_put_super) {
		mpol_put(p);
		return;
	}
	mpol_put(s->mpol);
	s->mpol = p;
}

void tmpfs_set_next_ino(struct super_block *sb, uint64_t ino)
{
	struct tmpfs_sb *s = sb->priv;

	if (s->next_ino < ino)
		s->next_ino = ino;
}

int tmpfs_reconfigure(struct super_block *sb, const uint64_t *size_limit, const uint64_t *nr_inodes)
{
	struct tmpfs_sb *s = sb->priv;

	if (sb->put_super != tmpfs_put_super)
		return -EINVAL;
	/* Linux's shmem_reconfigure, in its order */
	if (size_limit && *size_limit != UINT64_MAX) {
		if (s->limit == UINT64_MAX)
			return -EINVAL; /* cannot retroactively limit size */
		if (*size_limit < s->used)
			return -EINVAL; /* too small a size for current use */
	}
	if (nr_inodes && *nr_inodes) {
		if (!s->max_ispace)
			return -EINVAL; /* cannot retroactively limit inodes */
		if (*nr_inodes < s->ispace / BOGO_INODE_SIZE)
			return -EINVAL; /* too few inodes for current use */
	}
	if (size_limit)
		s->limit = *size_limit;
	if (nr_inodes)
		s->max_ispace = *nr_inodes * BOGO_INODE_SIZE;
	return 0;
}

int tmpfs_mount_inodes(uint64_t size_limit, uint64_t nr_inodes, uint32_t root_mode,
		       struct super_block **sbp, struct inode **root)
{
	struct super_block *sb = calloc(1, sizeof(*sb));
	struct tmpfs_sb *s = calloc(1, sizeof(*s));
	int ret;

	if (!sb || !s) {
		free(sb);
		free(s);
		return -ENOMEM;
	}
	s->next_ino = 1;
	s->limit = size_limit;
	s->max_ispace = nr_inodes * BOGO_INODE_SIZE;
	sb->fstype = "tmpfs";
	sb->cache_lookups = true;
	sb->dev = vfs_anon_dev();
	sb->magic = LINUX_TMPFS_MAGIC;
	sb->priv = s;
	sb->put_super = tmpfs_put_super;
	sb->export_op = &tmpfs_export_ops;
	*root = new_inode(sb, LINUX_S_IFDIR | (root_mode & 07777), NULL, 0, &ret);
	if (!*root) {
		free(sb);
		free(s);
		return ret;
	}
	*sbp = sb;
	return 0;
}

uint64_t tmpfs_default_nr_inodes(void)
{
	uint64_t total, unused;

	if (mem_meminfo(&total, &unused, &unused, &unused) < 0)
		return TMPFS_NR_INODES;
	return total / 4096 / 2 ? total / 4096 / 2 : 1;
}

int tmpfs_mount(uint64_t size_limit, uint32_t root_mode, struct super_block **sb,
		struct inode **root)
{
	return tmpfs_mount_inodes(size_limit, TMPFS_NR_INODES, root_mode, sb, root);
}
