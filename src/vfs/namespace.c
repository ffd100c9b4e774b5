/* vfs/namespace.c: mount(2) and umount2(2) inside the instance, as Linux's
 * fs/namespace.c does them: new mounts of tmpfs, proc and sysfs; bind
 * mounts (MS_BIND, MS_REC); remounts of a filesystem or of one mount
 * (MS_REMOUNT, MS_BIND|MS_REMOUNT); moves (MS_MOVE); unmounts (busy
 * unless MNT_DETACH). A guest names only guest paths: hostfs is not
 * mountable from inside, so no mount reaches a host file outside the root.
 *
 * Mount namespaces (CLONE_NEWNS) are copies of the caller's tree, and a
 * mount call acts only on mounts of the caller's namespace (Linux's
 * check_mnt). skas has no mount propagation: every mount is private, as
 * Linux's after `mount --make-rprivate /`, and so is a new namespace's
 * copy. So MS_PRIVATE and
 * MS_SLAVE (a slave of nothing is private) change nothing, honestly;
 * MS_UNBINDABLE is kept and enforced. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vfs/namespace.h"
#include "vfs/mount.h"
#include "vfs/namei.h"
#include "vfs/dcache.h"
#include "fs/tmpfs/tmpfs.h"
#include "mm/mempolicy.h"
#include "fs/sysfs/sysfs.h"
#include "fs/cgroupfs/cgroupfs.h"
#include "kernel/cgroup.h"
#include "tty/pty.h"
#include "mm/commit.h"
#include "kernel/task.h"
#include "kernel/cred.h"
#include "kernel/pidns.h"
#include "kernel/userns.h"
#include "abi/linux/errno.h"

#define MNT_ATIME_MASK (MNT_NOATIME | MNT_NODIRATIME | MNT_RELATIME)
#define MS_PROPAGATION (LINUX_MS_SHARED | LINUX_MS_SLAVE | LINUX_MS_PRIVATE | LINUX_MS_UNBINDABLE)

static bool at_mount_root(const struct path *p)
{
	return p->dentry == p->mnt->root;
}

struct mnt_ns init_mnt_ns = {
	.ns = { .refcount = 1, .ino = NS_INO_MNT, .type = NS_MNT },
};

struct mnt_ns *task_mnt_ns(struct task *t)
{
	if (!t || !t->nsproxy)
		return &init_mnt_ns;
	return (struct mnt_ns *)t->nsproxy->ns[NS_MNT];
}

/* Is m attached in t's mount namespace (Linux's check_mnt)? */
static bool check_mnt(struct task *t, const struct mount *m)
{
	return m->ns == task_mnt_ns(t);
}

static void mnt_ns_free(struct ns_common *ns)
{
	struct mnt_ns *mns = (struct mnt_ns *)ns;

	if (mns->root && mns->root->ns == mns)
		mount_detach(mns->root);
	ns_ino_free(ns->ino);
	free(mns);
}

/* The copies' flags locked, as Linux's copy_mnt_ns with CL_UNPRIVILEGED:
 * what a namespace's root cannot change in the mounts it was given. */
static void lock_mounts(struct mnt_ns *n)
{
	struct mount *m;

	list_for_each_entry(m, &mounts, link)
	{
		if (m->ns != n)
			continue;
		m->flags |= MNT_LOCK_ATIME | (m->rdonly ? MNT_LOCK_READONLY : 0) |
			    (m->flags & MNT_NOSUID ? MNT_LOCK_NOSUID : 0) |
			    (m->flags & MNT_NODEV ? MNT_LOCK_NODEV : 0) |
			    (m->flags & MNT_NOEXEC ? MNT_LOCK_NOEXEC : 0);
		if (m != n->root)
			m->flags |= MNT_LOCKED;
	}
}

int mnt_ns_copy(struct ns_common *old, struct fs_info *fs, bool lock, struct ns_common **out)
{
	struct mnt_ns *n = calloc(1, sizeof(*n));
	struct path *fix[2] = { &fs->root, &fs->cwd };
	int ret;

	if (!n)
		return -ENOMEM;
	n->ns = (struct ns_common){ .refcount = 1, .type = NS_MNT, .free = mnt_ns_free };
	n->ns.ino = ns_ino_alloc();
	if (!n->ns.ino) {
		free(n);
		return -ENOSPC;
	}
	ret = mount_copy_ns((struct mnt_ns *)old, n, fix, 2);
	if (ret < 0) {
		ns_ino_free(n->ns.ino);
		free(n);
		return ret;
	}
	if (lock)
		lock_mounts(n);
	*out = &n->ns;
	return 0;
}

bool fs_chrooted(struct task *t)
{
	struct mnt_ns *ns = task_mnt_ns(t);
	struct mount *top = ns->root, *m;
	struct dentry *d = top ? top->root : NULL;

	if (!t->fs || !top)
		return false;
	/* the namespace's root with what is mounted on it (current_chrooted) */
	while ((m = mount_lookup(top, d->inode))) {
		top = m;
		d = m->root;
	}
	return t->fs->root.mnt != top || t->fs->root.dentry != d;
}

void mnt_ns_enter(struct mnt_ns *ns, struct fs_info *fs)
{
	struct path root = { ns->root, ns->root->root };
	struct mount *m;

	path_get(&root);
	while ((m = mount_lookup(root.mnt, root.dentry->inode))) {
		path_put(&root);
		root.mnt = mnt_get(m);
		root.dentry = dentry_get(m->root);
	}
	path_put(&fs->root);
	path_put(&fs->cwd);
	fs->root = root;
	fs->cwd = root;
	path_get(&fs->cwd);
}

/* The per-mount flags mount(2)'s flags ask for (Linux's path_mount); a
 * remount (old) keeps its atime flags unless it names one. */
static unsigned mnt_flags_of(uint64_t flags, const struct mount *old)
{
	unsigned f = (flags & LINUX_MS_NOATIME) ? 0 : MNT_RELATIME;

	if (flags & LINUX_MS_NOSUID)
		f |= MNT_NOSUID;
	if (flags & LINUX_MS_NODEV)
		f |= MNT_NODEV;
	if (flags & LINUX_MS_NOEXEC)
		f |= MNT_NOEXEC;
	if (flags & LINUX_MS_NOSYMFOLLOW)
		f |= MNT_NOSYMFOLLOW;
	if (flags & LINUX_MS_NOATIME)
		f |= MNT_NOATIME;
	if (flags & LINUX_MS_NODIRATIME)
		f |= MNT_NODIRATIME;
	if (flags & LINUX_MS_STRICTATIME)
		f &= ~(MNT_RELATIME | MNT_NOATIME);
	if (old && !(flags & (LINUX_MS_NOATIME | LINUX_MS_NODIRATIME | LINUX_MS_RELATIME |
			      LINUX_MS_STRICTATIME)))
		f = (f & ~MNT_ATIME_MASK) | (old->flags & MNT_ATIME_MASK);
	return f;
}

/* A filesystem's options (mount(2)'s data): the generic ones and
 * tmpfs's. */
struct fs_opts {
	bool rdonly_set, rdonly;
	bool size_set, nr_inodes_set, mode_set;
	uint64_t size, nr_inodes;
	uint32_t mode, uid, gid;
	struct mempolicy *mpol; /* mpol='s (a reference), NULL for default */
	unsigned cg_flags;	/* cgroup2's CGRP_* */
	/* tmpfs's inode64/inode32, huge= (an index of huge_names), noswap:
	 * hints that change nothing here (skas's tmpfs inode numbers are
	 * a per-mount count, it makes no huge pages and never swaps), kept
	 * to be shown and checked as Linux's shmem does */
	bool inode64_set, inode64, huge_set, noswap;
	int huge;
};

static const char *const huge_names[] = { "never", "always", "within_size", "advise" };

/* Linux's memparse: simple_strtoull's number (base 0: 0x hex, 0 octal;
 * no blank, no sign; past 2^64 it wraps) with an optional K, M, G, T, P or
 * E suffix (shifted out past 2^64 as well). No digits at all is 0, as
 * there: "size=K" is no limit. */
static int parse_size(const char *s, uint64_t *out)
{
	static const char suffixes[] = "kmgtpe";
	unsigned base = 10, shift = 0, d;
	const char *p;
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2]))
		base = 16, s += 2;
	else if (s[0] == '0')
		base = 8;
	for (;; s++) {
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && isxdigit((unsigned char)*s))
			d = (unsigned)(tolower((unsigned char)*s) - 'a' + 10);
		else
			break;
		if (d >= base)
			break;
		v = v * base + d;
	}
	if (*s && (p = strchr(suffixes, tolower((unsigned char)*s))) != NULL)
		shift = 10 * (unsigned)(p - suffixes + 1), s++;
	if (*s)
		return -EINVAL;
	*out = shift < 64 ? v << shift : 0;
	return 0;
}

static int parse_u32(const char *s, int base, uint32_t *out)
{
	char *end;
	unsigned long long v;

	/* kstrtouint's: digits, a '+' before them at most (strtoull would
	 * take blanks and a '-' too) */
	if (*s == '+')
		s++;
	if (!(*s >= '0' && *s <= '9'))
		return -EINVAL;
	v = strtoull(s, &end, base);
	if (*end || v > 0xffffffffULL)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* devpts's options (Linux's devpts_parse_param). skas has one devpts
 * instance however often it is mounted, so newinstance is what it always
 * does, ptmxmode sets that one ptmx's mode, and mode and gid are taken
 * only as what its ptys have (620, group tty); uid, max and other values
 * are EINVAL. */
static int parse_devpts_opt(char *key, struct fs_opts *o)
{
	uint32_t v;
	int ret;

	if (strcmp(key, "newinstance") == 0)
		return 0;
	if (strncmp(key, "ptmxmode=", 9) == 0) {
		ret = parse_u32(key + 9, 8, &o->mode);
		o->mode &= 07777;
		o->mode_set = true;
		return ret;
	}
	if (strncmp(key, "mode=", 5) == 0) {
		ret = parse_u32(key + 5, 8, &v);
		return ret ?: (v & 07777) == PTY_MODE ? 0 : -EINVAL;
	}
	if (strncmp(key, "gid=", 4) == 0) {
		ret = parse_u32(key + 4, 10, &v);
		return ret ?: v == PTY_GID ? 0 : -EINVAL;
	}
	return 1; /* not devpts's own */
}

/* Whose options a mount takes beyond the generic ones. */
enum fs_kind { FS_OTHER, FS_TMPFS, FS_DEVPTS, FS_CGROUP2 };

/* One option of a filesystem of that kind. */
static int parse_opt(char *key, enum fs_kind kind, struct fs_opts *o)
{
	static const char *const ignored[] = { "sync",	     "async", "dirsync", "lazytime",
					       "nolazytime", "mand",  "nomand",	 "posixacl",
					       "noposixacl", "silent" };
	char *val = strchr(key, '=');
	size_t i;

	if (kind == FS_DEVPTS) {
		int ret = parse_devpts_opt(key, o);

		if (ret != 1)
			return ret;
	}

	if (val)
		*val++ = 0;
	if (!val && (strcmp(key, "ro") == 0 || strcmp(key, "rw") == 0)) {
		o->rdonly_set = true;
		o->rdonly = key[1] == 'o';
		return 0;
	}
	for (i = 0; !val && i < sizeof(ignored) / sizeof(ignored[0]); i++)
		if (strcmp(key, ignored[i]) == 0)
			return 0;
	for (i = 0; kind == FS_CGROUP2 && !val && i < CGRP_NFLAGS; i++)
		if (strcmp(key, cgroup_flag_names[i]) == 0) {
			o->cg_flags |= 1u << i;
			return 0;
		}
	if (kind == FS_TMPFS && !val && strcmp(key, "noswap") == 0) {
		o->noswap = true;
		return 0;
	}
	if (kind == FS_TMPFS && !val &&
	    (strcmp(key, "inode64") == 0 || strcmp(key, "inode32") == 0)) {
		o->inode64_set = true;
		o->inode64 = key[5] == '6';
		return 0;
	}
	/* fs_parse takes no empty string for a value */
	if (kind != FS_TMPFS || !val || !*val)
		return -EINVAL;
	if (strcmp(key, "huge") == 0) {
		/* deny and force are only for the sysfs knob */
		for (i = 0; i < sizeof(huge_names) / sizeof(huge_names[0]); i++)
			if (strcmp(val, huge_names[i]) == 0) {
				o->huge_set = true;
				o->huge = (int)i;
				return 0;
			}
		return -EINVAL;
	}
	if (strcmp(key, "size") == 0) {
		size_t len = strlen(val);
		uint64_t pct, total, unused;

		o->size_set = true;
		/* N% of the instance's memory; then whole pages, as shmem's
		 * DIV_ROUND_UP(size, PAGE_SIZE), wrapping as its arithmetic
		 * does (a size within a page of 2^64 is 0: no limit) */
		if (len > 0 && val[len - 1] == '%') {
			val[len - 1] = 0;
			if (parse_size(val, &pct) < 0 ||
			    mem_meminfo(&total, &unused, &unused, &unused) < 0)
				return -EINVAL;
			o->size = (pct << 12) * (total >> 12) / 100;
		} else if (parse_size(val, &o->size) < 0) {
			return -EINVAL;
		}
		o->size = (o->size + 4095) / 4096 << 12;
		return 0;
	}
	if (strcmp(key, "nr_blocks") == 0) {
		o->size_set = true;
		/* shmem's bound; a count past what bytes can say is no
		 * smaller a limit than the largest they can */
		if (parse_size(val, &o->size) < 0 || o->size > INT64_MAX)
			return -EINVAL;
		o->size = o->size > (UINT64_MAX >> 12) ? UINT64_MAX & ~4095ULL : o->size << 12;
		return 0;
	}
	if (strcmp(key, "nr_inodes") == 0) {
		o->nr_inodes_set = true;
		/* Linux's bound: as many inodes as the inode space can count */
		return parse_size(val, &o->nr_inodes) < 0 || o->nr_inodes > UINT64_MAX / 1024
			       ? -EINVAL
			       : 0;
	}
	if (strcmp(key, "mode") == 0) {
		o->mode_set = true;
		return parse_u32(val, 8, &o->mode);
	}
	if (strcmp(key, "mpol") == 0) {
		struct mempolicy *p;
		int ret = mpol_parse_str(val, &p);

		if (ret < 0)
			return ret;
		mpol_put(o->mpol); /* the last one given counts */
		o->mpol = p;
		return 0;
	}
	/* (uid_t)-1 is no id (make_kuid's invalid one) */
	if (strcmp(key, "uid") == 0)
		return parse_u32(val, 10, &o->uid) < 0 || o->uid == INVALID_ID ? -EINVAL : 0;
	if (strcmp(key, "gid") == 0)
		return parse_u32(val, 10, &o->gid) < 0 || o->gid == INVALID_ID ? -EINVAL : 0;
	return -EINVAL;
}

/* The options, by commas (empty ones skipped); for tmpfs a comma before
 * a digit does not end an option, as mpol='s node lists have commas
 * (Linux's shmem_parse_monolithic). */
static int parse_opts(const char *data, enum fs_kind kind, struct fs_opts *o)
{
	char *buf, *p, *key, *c;
	int ret = 0;

	if (!data)
		return 0;
	buf = strdup(data);
	if (!buf)
		return -ENOMEM;
	for (p = buf; p && ret == 0;) {
		key = c = p;
		for (p = NULL; (c = strchr(c, ',')) != NULL;) {
			c++;
			if (kind != FS_TMPFS || *c < '0' || *c > '9') {
				c[-1] = 0;
				p = c;
				break;
			}
		}
		if (*key)
			ret = parse_opt(key, kind, o);
	}
	free(buf);
	return ret;
}

/* The options tmpfs shows, in shmem_show_options's order. */
static const char *const tmpfs_order[] = { "size",    "nr_inodes", "mode", "uid",   "gid",
					   "inode64", "huge",	   "mpol", "noswap" };

static size_t opt_rank(const char *opt)
{
	size_t i, len = strcspn(opt, "=,");

	for (i = 0; i < sizeof(tmpfs_order) / sizeof(tmpfs_order[0]); i++)
		if (strlen(tmpfs_order[i]) == len && strncmp(opt, tmpfs_order[i], len) == 0)
			return i;
	return i;
}

/* A tmpfs's shown options (sb->opts, ",a=1,b,...") with its option key
 * taken out and then, if text is not NULL, ",key<text>" put in its
 * place in tmpfs_order. */
static void tmpfs_opt_put(struct super_block *sb, const char *key, const char *text)
{
	char buf[2 * sizeof(sb->opts)], *p, *next;
	size_t rank = opt_rank(key), n;

	for (p = sb->opts; *p; p = next) {
		next = strchr(p + 1, ',');
		if (!next)
			next = p + strlen(p);
		if (opt_rank(p + 1) == rank) {
			memmove(p, next, strlen(next) + 1);
			next = p;
		}
	}
	if (!text)
		return;
	for (p = sb->opts; *p && opt_rank(p + 1) < rank;)
		p = strchr(p + 1, ',') ?: p + strlen(p);
	n = (size_t)(p - sb->opts);
	snprintf(buf, sizeof(buf), "%.*s,%s%s%s", (int)n, sb->opts, key, text, p);
	snprintf(sb->opts, sizeof(sb->opts), "%.*s", (int)sizeof(sb->opts) - 1, buf);
}

/* inode64, huge= and noswap as shown: inode32 is not (a kernel without
 * CONFIG_TMPFS_INODE64 shows neither by default, as here), nor huge=never. */
static void tmpfs_show_hints(struct super_block *sb, const struct fs_opts *o)
{
	char v[32];

	if (o->inode64_set)
		tmpfs_opt_put(sb, "inode64", o->inode64 ? "" : NULL);
	if (o->huge_set) {
		snprintf(v, sizeof(v), "=%s", huge_names[o->huge]);
		tmpfs_opt_put(sb, "huge", o->huge ? v : NULL);
	}
	if (o->noswap)
		tmpfs_opt_put(sb, "noswap", "");
}

/* tmpfs's options as /proc/PID/mounts shows them (Linux's
 * shmem_show_options: what differs from the defaults). */
static void tmpfs_show(struct super_block *sb, const struct fs_opts *o)
{
	char v[64];

	sb->opts[0] = 0;
	if (o->size_set) {
		snprintf(v, sizeof(v), "=%lluk", (unsigned long long)((o->size + 4095) / 4096 * 4));
		tmpfs_opt_put(sb, "size", v);
	}
	if (o->nr_inodes_set) {
		snprintf(v, sizeof(v), "=%llu", (unsigned long long)o->nr_inodes);
		tmpfs_opt_put(sb, "nr_inodes", v);
	}
	if ((o->mode & 07777) != 01777) {
		snprintf(v, sizeof(v), "=%03o", o->mode & 07777);
		tmpfs_opt_put(sb, "mode", v);
	}
	if (o->uid) {
		snprintf(v, sizeof(v), "=%u", o->uid);
		tmpfs_opt_put(sb, "uid", v);
	}
	if (o->gid) {
		snprintf(v, sizeof(v), "=%u", o->gid);
		tmpfs_opt_put(sb, "gid", v);
	}
	tmpfs_show_hints(sb, o);
	if (o->mpol) {
		v[0] = '=';
		mpol_to_str(v + 1, sizeof(v) - 1, o->mpol);
		tmpfs_opt_put(sb, "mpol", v);
	}
}

/* A new tmpfs. Differs from Linux: huge=, noswap, quota are EINVAL. */
/* tmpfs's root belongs to its mounter (Linux's shmem_fill_super: the
 * fsuid and fsgid), or to uid= and gid=, ids of the mounter's user
 * namespace. */
static int new_tmpfs(struct task *t, const char *data, struct fs_opts *o, struct super_block **sb,
		     struct inode **root)
{
	const struct cred *c = &t->proc->cred;
	uint32_t uid, gid;
	uint64_t limit;
	int ret;

	o->mode = 01777;
	o->uid = uid = INVALID_ID;
	o->gid = gid = INVALID_ID;
	ret = parse_opts(data, FS_TMPFS, o);
	if (ret == 0 && o->uid != INVALID_ID &&
	    (uid = make_kuid(cred_user_ns(c), o->uid)) == INVALID_ID)
		ret = -EINVAL;
	if (ret == 0 && o->gid != INVALID_ID &&
	    (gid = make_kgid(cred_user_ns(c), o->gid)) == INVALID_ID)
		ret = -EINVAL;
	if (ret < 0) {
		mpol_put(o->mpol);
		return ret;
	}
	/* shmem_parse_one: "Turning off swap in unprivileged tmpfs mounts
	 * unsupported" */
	if (o->noswap && (cred_user_ns(c) != &init_user_ns || !capable(c, CAP_SYS_ADMIN))) {
		mpol_put(o->mpol);
		return -EINVAL;
	}
	o->uid = uid != INVALID_ID ? uid : c->fsuid;
	o->gid = gid != INVALID_ID ? gid : c->fsgid;
	limit = !o->size_set ? tmpfs_default_size : o->size ? o->size : UINT64_MAX;
	ret = tmpfs_mount_inodes(limit, o->nr_inodes_set ? o->nr_inodes : tmpfs_default_nr_inodes(),
				 o->mode, sb, root);
	if (ret < 0) {
		mpol_put(o->mpol);
		return ret;
	}
	if (o->uid || o->gid) {
		struct iattr ia = { .valid = ATTR_UID | ATTR_GID, .uid = o->uid, .gid = o->gid };

		ret = (*root)->iop->setattr(*root, &ia);
		if (ret < 0) {
			inode_put(*root);
			(*sb)->put_super(*sb);
			mpol_put(o->mpol);
			return ret;
		}
	}
	if (cred_user_ns(c) != &init_user_ns) {
		(*sb)->user_ns = cred_user_ns(c);
		ns_get(&(*sb)->user_ns->ns);
	}
	tmpfs_show(*sb, o);
	tmpfs_set_mpol(*sb, o->mpol); /* the mount's now */
	o->mpol = NULL;
	return 0;
}

/* devpts: one super block for every mount, where each is an instance of
 * its own on Linux. A read-only one is so at the mount, not for all. */
static bool one_instance(const struct super_block *sb)
{
	return sb->magic == DEVPTS_SUPER_MAGIC;
}

bool vfs_may_mount(struct task *t)
{
	return ns_capable(&t->proc->cred, ns_owner(&task_mnt_ns(t)->ns), CAP_SYS_ADMIN);
}

/* Linux's do_new_mount and do_add_mount: a new filesystem of type at. */
static int new_mount(struct task *t, struct path *at, const char *source, const char *type,
		     uint64_t flags, const char *data)
{
	struct fs_opts o = { 0 };
	struct super_block *sb;
	struct inode *root;
	struct mount *m;
	int ret;

	if (!type)
		return -EINVAL;
	if (strcmp(type, "tmpfs") == 0) {
		ret = new_tmpfs(t, data, &o, &sb, &root);
	} else if (strcmp(type, "proc") == 0 && procfs_mount_hook) {
		/* proc_fill_super: the pid namespace's owner's CAP_SYS_ADMIN */
		if (!ns_capable(&t->proc->cred, ns_owner(&task_pid_ns(t)->ns), CAP_SYS_ADMIN))
			return -EPERM;
		ret = parse_opts(data, FS_OTHER, &o);
		if (ret == 0)
			ret = procfs_mount_hook(&sb, &root);
	} else if (strcmp(type, "sysfs") == 0) {
		ret = parse_opts(data, FS_OTHER, &o);
		if (ret == 0)
			ret = sysfs_mount(&sb, &root);
	} else if (strcmp(type, "devpts") == 0) {
		ret = parse_opts(data, FS_DEVPTS, &o);
		if (ret == 0)
			ret = devpts_mount(&sb, &root);
	} else if (strcmp(type, "cgroup2") == 0) {
		/* FS_USERNS_MOUNT: the cgroup namespace's owner's
		 * CAP_SYS_ADMIN (cgroup_init_fs_context's user_ns) */
		if (!ns_capable(&t->proc->cred, ns_owner(t->nsproxy->ns[NS_CGROUP]), CAP_SYS_ADMIN))
			return -EPERM;
		ret = parse_opts(data, FS_CGROUP2, &o);
		if (ret == 0)
			ret = cgroupfs_mount(t, &sb, &root);
		if (ret == 0) {
			cgroup_apply_root_flags(t, o.cg_flags);
			cgroupfs_show_flags();
		}
	} else if (strcmp(type, "pipefs") == 0) {
		return -EINVAL; /* SB_NOUSER: the kernel's own */
	} else {
		return -ENODEV; /* hostfs among them: no host path from inside */
	}
	if (ret < 0)
		return ret;
	/* The same filesystem on the same mount point: sysfs (one per
	 * network namespace on Linux) on itself. proc is a new one at each
	 * mount on Linux: skas's one super block stacks on itself. */
	if (at_mount_root(at) && strcmp(type, "sysfs") == 0 &&
	    strcmp(at->mnt->sb->fstype, type) == 0)
		ret = -EBUSY;
	else if (!inode_is_dir(at->dentry->inode))
		ret = -ENOTDIR;
	else if (!check_mnt(t, at->mnt))
		ret = -EINVAL;
	if (ret == 0 && sb->nmounts == 0 && ((flags & LINUX_MS_RDONLY) || o.rdonly) &&
	    !one_instance(sb))
		sb->rdonly = true;
	if (ret == 0 && sb->nmounts == 0 && !one_instance(sb))
		sb->sflags = (unsigned)flags & SB_SHOWN;
	if (ret == 0)
		ret = mount_room();
	m = ret == 0 ? mount_add(at, sb, root, source,
				 (flags & LINUX_MS_RDONLY) || (one_instance(sb) && o.rdonly))
		     : NULL;
	inode_put(root);
	if (!m) {
		if (sb->nmounts == 0 && sb->put_super)
			sb->put_super(sb);
		return ret < 0 ? ret : -ENOMEM;
	}
	m->flags = mnt_flags_of(flags, NULL);
	if (sb->magic == DEVPTS_SUPER_MAGIC && o.mode_set && capable(&t->proc->cred, CAP_SYS_ADMIN))
		devpts_set_ptmx_mode(o.mode);
	return 0;
}

/* Is d (a dentry of old) at or below root? */
static bool dentry_under(struct dentry *d, struct dentry *root)
{
	for (; d; d = d->parent)
		if (d == root ||
		    (d->inode->dev == root->inode->dev && d->inode->ino == root->inode->ino))
			return true;
	return false;
}

/* MS_REC: old's mounts below root, again below n (a bind of old at root);
 * mounts made by this call (id from first_new) are not copied again. A
 * loop over a list of what is left to copy, not a recursion: a guest may
 * nest mounts thousands deep. */
struct clone_job {
	struct mount *old, *n;
	struct dentry *root;
};

static int clone_below(struct mount *old, struct dentry *root, struct mount *n, int first_new)
{
	struct clone_job *jobs = malloc(sizeof(*jobs)), *grown, job;
	size_t njobs = 1, cap = 1;
	struct mount *c, *cc;
	int ret = 0;

	if (!jobs)
		return -ENOMEM;
	jobs[0] = (struct clone_job){ old, n, root };
	while (njobs && ret == 0) {
		job = jobs[--njobs];
		list_for_each_entry(c, &mounts, link)
		{
			struct path at;

			if (c->parent != job.old || c->id >= first_new ||
			    (c->flags & MNT_UNBINDABLE) || !dentry_under(c->mountpoint, job.root))
				continue;
			ret = mount_room();
			if (ret < 0)
				break;
			at.mnt = job.n;
			at.dentry = c->mountpoint;
			cc = mount_clone(c, c->root, &at);
			if (!cc) {
				ret = -ENOMEM;
				break;
			}
			if (njobs == cap) {
				grown = realloc(jobs, 2 * cap * sizeof(*jobs));
				if (!grown) {
					ret = -ENOMEM;
					break;
				}
				jobs = grown;
				cap *= 2;
			}
			jobs[njobs++] = (struct clone_job){ c, cc, c->root };
		}
	}
	free(jobs);
	return ret;
}

/* Are mounts locked (MNT_LOCKED) on m below d? */
static bool has_locked_children(const struct mount *m, struct dentry *d)
{
	struct mount *c;

	list_for_each_entry(c, &mounts, link) if (c->parent == m && (c->flags & MNT_LOCKED) &&
						  dentry_under(c->mountpoint, d)) return true;
	return false;
}

/* Linux's can_change_locked_flags: may a remount give m the per-mount
 * flags f (and read-only ro)? */
static bool locked_flags_kept(const struct mount *m, unsigned f, bool ro)
{
	if ((m->flags & MNT_LOCK_READONLY) && !ro)
		return false;
	if (((m->flags & MNT_LOCK_NOSUID) && !(f & MNT_NOSUID)) ||
	    ((m->flags & MNT_LOCK_NODEV) && !(f & MNT_NODEV)) ||
	    ((m->flags & MNT_LOCK_NOEXEC) && !(f & MNT_NOEXEC)))
		return false;
	return !(m->flags & MNT_LOCK_ATIME) || (f & MNT_ATIME_MASK) == (m->flags & MNT_ATIME_MASK);
}

/* Linux's do_loopback. The bind keeps the source mount's flags (a
 * read-only bind is a bind, then a MS_BIND|MS_REMOUNT|MS_RDONLY). */
static int bind_mount(struct task *t, struct path *at, const char *source, bool rec)
{
	struct path old;
	struct mount *n;
	int ret;

	if (!source || !*source)
		return -EINVAL;
	ret = path_lookupat(t, LINUX_AT_FDCWD, source, LOOKUP_FOLLOW, &old);
	if (ret < 0)
		return ret;
	if ((old.mnt->flags & MNT_UNBINDABLE) || !check_mnt(t, old.mnt) || !check_mnt(t, at->mnt))
		ret = -EINVAL;
	else if (!rec && has_locked_children(old.mnt, old.dentry))
		ret = -EINVAL; /* it would show what they cover */
	else if (inode_is_dir(at->dentry->inode) != inode_is_dir(old.dentry->inode))
		ret = -ENOTDIR;
	if (ret == 0)
		ret = mount_room();
	if (ret == 0) {
		n = mount_clone(old.mnt, old.dentry, at);
		if (n)
			n->flags &= ~MNT_LOCKED; /* the caller's own mount */
		ret = !n ? -ENOMEM : rec ? clone_below(old.mnt, old.dentry, n, n->id) : 0;
		if (ret < 0 && n)
			mount_detach(n);
	}
	path_put(&old);
	return ret;
}

/* MS_REMOUNT: of one mount (bind) or of its filesystem too. */
static int remount(struct task *t, struct path *at, uint64_t flags, const char *data)
{
	struct mount *m = at->mnt;
	struct super_block *sb = m->sb;
	bool bind = flags & LINUX_MS_BIND, ro = flags & LINUX_MS_RDONLY;
	struct fs_opts o = { 0 };
	int ret;

	if (!check_mnt(t, m) || !at_mount_root(at))
		return -EINVAL;
	if (!locked_flags_kept(m, mnt_flags_of(flags, m), ro))
		return -EPERM;
	/* mnt_make_readonly: not while a file is open for writing through
	 * the mount */
	if (bind && ro && !m->rdonly && m->writers > 0)
		return -EBUSY;
	/* the filesystem's own options: its user namespace's capability
	 * (a tmpfs mounted in a user namespace belongs to it; skas's other
	 * filesystems to the instance's) */
	if (!bind &&
	    !ns_capable(&t->proc->cred, sb->user_ns ? sb->user_ns : &init_user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	if (!bind && one_instance(sb)) {
		ret = parse_opts(data, FS_DEVPTS, &o);
		if (ret < 0)
			return ret;
		if (o.mode_set)
			devpts_set_ptmx_mode(o.mode);
	} else if (!bind) {
		bool tmpfs = strcmp(sb->fstype, "tmpfs") == 0;
		bool cgroup2 = strcmp(sb->fstype, "cgroup2") == 0;

		ret = parse_opts(data, tmpfs ? FS_TMPFS : cgroup2 ? FS_CGROUP2 : FS_OTHER, &o);
		/* Linux's sb_prepare_remount_readonly: not while a file on it
		 * is open for writing, nor while a file or directory whose
		 * last name went is still in use (its removal is a write to
		 * come) */
		if (ret == 0 && ro && !sb->rdonly && (sb->writers > 0 || sb->remove_count > 0))
			ret = -EBUSY;
		if (ret == 0 && cgroup2) {
			cgroup_apply_root_flags(t, o.cg_flags);
			cgroupfs_show_flags();
		}
		/* shmem_reconfigure: "Cannot disable swap on remount"; and
		 * only the initial user namespace's may ask (shmem_parse_one) */
		if (ret == 0 && tmpfs && o.noswap &&
		    (!strstr(sb->opts, ",noswap") || sb->user_ns ||
		     !capable(&t->proc->cred, CAP_SYS_ADMIN)))
			ret = -EINVAL;
		if (ret == 0 && tmpfs && (o.size_set || o.nr_inodes_set)) {
			uint64_t size = o.size ? o.size : UINT64_MAX;

			ret = tmpfs_reconfigure(sb, o.size_set ? &size : NULL,
						o.nr_inodes_set ? &o.nr_inodes : NULL);
		}
		if (ret < 0) {
			mpol_put(o.mpol);
			return ret;
		}
		/* mpol=default changes nothing (Linux's shmem_reconfigure
		 * takes only a policy) */
		if (o.mpol) {
			char pol[64];

			pol[0] = '=';
			mpol_to_str(pol + 1, sizeof(pol) - 1, o.mpol);
			tmpfs_opt_put(sb, "mpol", pol);
			tmpfs_set_mpol(sb, o.mpol);
			o.mpol = NULL;
		}
		if (o.size_set) {
			char v[32];

			snprintf(v, sizeof(v), "=%lluk",
				 (unsigned long long)((o.size + 4095) / 4096 * 4));
			tmpfs_opt_put(sb, "size", v);
		}
		if (o.nr_inodes_set) {
			char v[32];

			snprintf(v, sizeof(v), "=%llu", (unsigned long long)o.nr_inodes);
			tmpfs_opt_put(sb, "nr_inodes", v);
		}
		if (tmpfs)
			tmpfs_show_hints(sb, &o);
		sb->rdonly = ro;
		/* do_remount's MS_RMT_MASK: not MS_DIRSYNC */
		if (!one_instance(sb))
			sb->sflags = (sb->sflags & LINUX_MS_DIRSYNC) |
				     ((unsigned)flags & SB_SHOWN & ~LINUX_MS_DIRSYNC);
	}
	m->rdonly = ro;
	m->flags = mnt_flags_of(flags, m) | (m->flags & (MNT_UNBINDABLE | MNT_LOCK_READONLY));
	return 0;
}

/* MS_SHARED, MS_SLAVE, MS_PRIVATE, MS_UNBINDABLE (with MS_REC: the mounts
 * below too). Differs from Linux: MS_SHARED is EINVAL, since skas
 * propagates no mount event (to accept it would be to lie). */
static int change_type(struct task *t, struct path *at, uint64_t flags)
{
	uint64_t type = flags & ~(uint64_t)(LINUX_MS_REC | LINUX_MS_SILENT);
	struct mount *m;

	/* Not another namespace's mounts (through /proc/PID/root), nor a
	 * detached one: Linux's do_change_type checks it too. */
	if (!at_mount_root(at) || !check_mnt(t, at->mnt))
		return -EINVAL;
	if (type == 0 || (type & (type - 1)) || !(type & MS_PROPAGATION))
		return -EINVAL;
	if (type == LINUX_MS_SHARED)
		return -EINVAL;
	list_for_each_entry(m, &mounts, link)
	{
		struct mount *up = m;

		while (up && up != at->mnt && (flags & LINUX_MS_REC))
			up = up->parent;
		if (up != at->mnt)
			continue;
		if (type == LINUX_MS_UNBINDABLE)
			m->flags |= MNT_UNBINDABLE;
		else
			m->flags &= ~MNT_UNBINDABLE;
	}
	return 0;
}

/* MS_MOVE: the mount at source goes to at (Linux's do_move_mount). */
static int move_mount(struct task *t, struct path *at, const char *source)
{
	struct path old;
	struct mount *m, *p;
	int ret;

	if (!source || !*source)
		return -EINVAL;
	ret = path_lookupat(t, LINUX_AT_FDCWD, source, LOOKUP_FOLLOW, &old);
	if (ret < 0)
		return ret;
	m = old.mnt;
	if (!check_mnt(t, m) || !check_mnt(t, at->mnt) || !at_mount_root(&old) ||
	    (m->flags & MNT_LOCKED))
		ret = -EINVAL;
	else if (inode_is_dir(at->dentry->inode) != inode_is_dir(old.dentry->inode))
		ret = -ENOTDIR;
	else if (!m->parent)
		ret = -EINVAL;
	for (p = at->mnt; ret == 0 && p; p = p->parent)
		if (p == m)
			ret = -ELOOP;
	if (ret == 0) {
		dentry_put(m->mountpoint);
		m->mountpoint = dentry_get(at->dentry);
		m->parent = at->mnt;
		/* last in the table: on top of what is mounted at at */
		list_del(&m->link);
		list_add_tail(&m->link, &mounts);
	}
	path_put(&old);
	return ret;
}

int vfs_mount(struct task *t, const char *source, const char *target, const char *type,
	      uint64_t flags, const char *data)
{
	struct path at;
	int ret;

	if ((flags & LINUX_MS_MGC_MSK) == LINUX_MS_MGC_VAL)
		flags &= ~LINUX_MS_MGC_MSK;
	ret = path_lookupat(t, LINUX_AT_FDCWD, target, LOOKUP_FOLLOW, &at);
	if (ret < 0)
		return ret;
	if (flags & LINUX_MS_NOUSER)
		ret = -EINVAL;
	else if (!vfs_may_mount(t))
		ret = -EPERM;
	else if ((flags & (LINUX_MS_REMOUNT | LINUX_MS_BIND)) == (LINUX_MS_REMOUNT | LINUX_MS_BIND))
		ret = remount(t, &at, flags, NULL);
	else if (flags & LINUX_MS_REMOUNT)
		ret = remount(t, &at, flags, data);
	else if (flags & LINUX_MS_BIND)
		ret = bind_mount(t, &at, source, flags & LINUX_MS_REC);
	else if (flags & MS_PROPAGATION)
		ret = change_type(t, &at, flags);
	else if (flags & LINUX_MS_MOVE)
		ret = move_mount(t, &at, source);
	else
		ret = new_mount(t, &at, source, type, flags, data);
	path_put(&at);
	return ret;
}

/* Linux's do_umount. Busy: a mount below it, or a path that holds it
 * besides the mount table and this call's own (an open file, a cwd). */
static int umount_one(struct task *t, struct mount *m, int flags)
{
	struct mount *c;
	bool busy = m->count > 2;

	list_for_each_entry(c, &mounts, link) if (c->parent == m) busy = true;
	if (m->flags & MNT_LOCKED)
		return -EINVAL; /* it would show what it covers */
	if (flags & LINUX_MNT_EXPIRE) {
		if (m == t->fs->root.mnt || (flags & (LINUX_MNT_FORCE | LINUX_MNT_DETACH)))
			return -EINVAL;
		if (m->count != 2)
			return -EBUSY;
		if (!(m->flags & MNT_EXPIRE_MARK)) {
			m->flags |= MNT_EXPIRE_MARK;
			return -EAGAIN;
		}
	}
	/* Differs from Linux: the caller's own root is busy (Linux remounts
	 * it read-only), and the mount table's root stays. */
	if (m == t->fs->root.mnt && !(flags & LINUX_MNT_DETACH))
		return -EBUSY;
	if (!m->parent)
		return -EINVAL;
	if (busy && !(flags & LINUX_MNT_DETACH))
		return -EBUSY;
	mount_detach(m);
	return 0;
}

int vfs_umount(struct task *t, const char *target, int flags)
{
	struct mount *m;
	struct path p;
	int ret;

	if (flags &
	    ~(LINUX_MNT_FORCE | LINUX_MNT_DETACH | LINUX_MNT_EXPIRE | LINUX_UMOUNT_NOFOLLOW))
		return -EINVAL;
	ret = path_lookupat(t, LINUX_AT_FDCWD, target,
			    (flags & LINUX_UMOUNT_NOFOLLOW) ? 0 : LOOKUP_FOLLOW, &p);
	if (ret < 0)
		return ret;
	/* Linux's LOOKUP_MOUNTPOINT: the last component crosses onto what
	 * is mounted on it even where the walk does not (".", the cwd: the
	 * old root after pivot_root(".", ".")) */
	while ((m = mount_lookup(p.mnt, p.dentry->inode))) {
		path_put(&p);
		p.mnt = mnt_get(m);
		p.dentry = dentry_get(m->root);
	}
	if (!vfs_may_mount(t))
		ret = -EPERM;
	else if (!at_mount_root(&p) || !check_mnt(t, p.mnt))
		ret = -EINVAL;
	else
		ret = umount_one(t, p.mnt, flags);
	if (ret == -EAGAIN) {
		/* As Linux's path_umount: a put that keeps the expiry mark. */
		dentry_put(p.dentry);
		p.mnt->count--;
		return ret;
	}
	path_put(&p);
	return ret;
}

/* Is (mnt, d) at or below root, crossing mounts upwards (Linux's
 * is_path_reachable)? */
static bool path_reachable(struct mount *mnt, struct dentry *d, const struct path *root)
{
	while (mnt != root->mnt && mnt->parent) {
		d = mnt->mountpoint;
		mnt = mnt->parent;
	}
	return mnt == root->mnt && dentry_under(d, root->dentry);
}

struct fs_refs {
	struct path old, new;
};

/* Linux's chroot_fs_refs: every task whose root or cwd is the old root
 * gets the new one. */
static void fs_refs_cb(struct process *p, void *arg)
{
	struct fs_refs *r = arg;
	struct task *th;

	list_for_each_entry(th, &p->threads, thread_link)
	{
		struct path *ps[2];
		int i;

		if (!th->fs)
			continue;
		ps[0] = &th->fs->root;
		ps[1] = &th->fs->cwd;
		for (i = 0; i < 2; i++) {
			if (ps[i]->mnt != r->old.mnt || ps[i]->dentry != r->old.dentry)
				continue;
			path_put(ps[i]);
			*ps[i] = r->new;
			path_get(ps[i]);
		}
	}
}

/* Linux's pivot_root, in its order of checks (the caller checked
 * CAP_SYS_ADMIN). Differs from Linux: skas's
 * / is its namespace's first mount, with no rootfs below it, so a root
 * mount without a parent may be pivoted (Linux: EINVAL) and new_root
 * then becomes the namespace's first mount. */
int vfs_pivot_root(struct task *t, const char *new_root, const char *put_old)
{
	struct path nw, old, root;
	struct mount *new_mnt, *root_mnt, *old_mnt, *root_parent;
	struct dentry *root_mp, *new_mp;
	struct fs_refs refs;
	int ret;

	ret = path_lookupat(t, LINUX_AT_FDCWD, new_root, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &nw);
	if (ret < 0)
		return ret;
	ret = path_lookupat(t, LINUX_AT_FDCWD, put_old, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &old);
	if (ret < 0) {
		path_put(&nw);
		return ret;
	}
	root = t->fs->root;
	path_get(&root);
	new_mnt = nw.mnt;
	root_mnt = root.mnt;
	old_mnt = old.mnt;
	ret = -EINVAL;
	if (!check_mnt(t, root_mnt) || !check_mnt(t, new_mnt))
		goto out;
	ret = -EBUSY;
	if (new_mnt == root_mnt || old_mnt == root_mnt)
		goto out;
	ret = -EINVAL;
	if (!at_mount_root(&root) || !at_mount_root(&nw) || !new_mnt->parent)
		goto out;
	if (!path_reachable(old_mnt, old.dentry, &nw) || !path_reachable(new_mnt, nw.dentry, &root))
		goto out;
	ret = 0;
	/* new_root leaves its place and takes the old root's; the old root
	 * goes on put_old, on top of what is mounted there */
	root_parent = root_mnt->parent;
	root_mp = root_mnt->mountpoint;
	new_mp = new_mnt->mountpoint;
	root_mnt->parent = old_mnt;
	root_mnt->mountpoint = dentry_get(old.dentry);
	new_mnt->parent = root_parent;
	new_mnt->mountpoint = root_mp;
	dentry_put(new_mp);
	if (!root_parent)
		task_mnt_ns(t)->root = new_mnt;
	list_del(&root_mnt->link);
	list_add_tail(&root_mnt->link, &mounts);
	dcache_invalidate();
	refs.old = root;
	refs.new = (struct path){ new_mnt, new_mnt->root };
	for_each_process(fs_refs_cb, &refs);
out:
	path_put(&root);
	path_put(&old);
	path_put(&nw);
	return ret;
}
