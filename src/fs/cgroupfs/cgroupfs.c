/* fs/cgroupfs/cgroupfs.c: the cgroup2 filesystem, as Linux's kernfs shows
 * the default hierarchy: a directory per group, its interface files in it
 * (kernel/cgroup.h's enum cg_file; cgroup.events, cgroup.kill and
 * cgroup.type not in the root; the pids controller's where the parent
 * gives it: made again each time it does, so that descriptors of the
 * ones before read ENODEV), one super block for every mount, each
 * rooted at its mounter's cgroup namespace. mkdir makes a group, rmdir
 * removes one; files cannot be made, removed or renamed (EACCES for a new
 * regular file, EPERM for the rest: kernfs has no such operations, and
 * the VFS says EPERM for those a filesystem lacks), and a group cannot be
 * renamed (cgroup2 has no rename: EPERM). chmod, chown
 * and utimensat change the node (delegation). A file is read whole as at
 * its first read from offset 0 (a seq_file); a write takes at most a page
 * and is parsed whole. A removed group's open files read and write ENODEV
 * and poll POLLERR|POLLPRI; cgroup.events polls so after each change.
 * Differs from Linux: no extended attributes (EOPNOTSUPP; kernfs keeps
 * trusted.*, security.* and user.*); readdir lists the files, then the
 * groups (kernfs: by a hash of the names). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs/cgroupfs/cgroupfs.h"
#include "kernel/cgroup.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "kernel/userns.h"
#include "kernel/log.h"
#include "lib/sbuf.h"
#include "vfs/file.h"
#include "vfs/poll.h"
#include "vfs/readdir.h"
#include "vfs/vfs.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/poll.h"
#include "abi/linux/stat.h"

#define CGROUP2_SUPER_MAGIC 0x63677270
#define PAGE		    4096

static struct super_block cgroupfs_sb = {
	.fstype = "cgroup2",
	.magic = CGROUP2_SUPER_MAGIC,
	.no_fsize = true,
};

static const char *const file_names[CGF_N] = {
	[CGF_CONTROLLERS] = "cgroup.controllers",
	[CGF_EVENTS] = "cgroup.events",
	[CGF_FREEZE] = "cgroup.freeze",
	[CGF_KILL] = "cgroup.kill",
	[CGF_MAX_DEPTH] = "cgroup.max.depth",
	[CGF_MAX_DESCENDANTS] = "cgroup.max.descendants",
	[CGF_PROCS] = "cgroup.procs",
	[CGF_STAT] = "cgroup.stat",
	[CGF_SUBTREE_CONTROL] = "cgroup.subtree_control",
	[CGF_THREADS] = "cgroup.threads",
	[CGF_TYPE] = "cgroup.type",
	[CGF_CPU_STAT] = "cpu.stat",
	[CGF_PIDS_CURRENT] = "pids.current",
	[CGF_PIDS_EVENTS] = "pids.events",
	[CGF_PIDS_EVENTS_LOCAL] = "pids.events.local",
	[CGF_PIDS_MAX] = "pids.max",
	[CGF_PIDS_PEAK] = "pids.peak",
};

/* Does cg have file which (CFTYPE_NOT_ON_ROOT; a controller's where the
 * parent gives it)? */
static bool has_file(const struct cgroup *cg, int which)
{
	if (which >= CGF_PIDS_CURRENT && which <= CGF_PIDS_PEAK)
		return cg != &cgroup_root && cg->pids;
	return which > CGF_DIR && which < CGF_N &&
	       (cg != &cgroup_root || (which != CGF_EVENTS && which != CGF_FREEZE &&
				       which != CGF_KILL && which != CGF_TYPE));
}

struct cg_inode {
	struct cgroup *cg; /* a reference */
	int which;
	uint32_t gen; /* the node's when made */
};

static const struct inode_ops cg_iops;

static struct cg_inode *CI(const struct inode *ino)
{
	return ino->priv;
}

static struct inode *node_inode(struct cgroup *cg, int which)
{
	struct cg_node *nd = &cg->node[which];
	struct cg_inode *ci;
	struct inode *ino;

	if (nd->inode && CI(nd->inode)->gen == nd->gen) {
		inode_get(nd->inode);
		return nd->inode;
	}
	ci = malloc(sizeof(*ci));
	if (!ci)
		return NULL;
	ci->cg = cg;
	ci->which = which;
	ci->gen = nd->gen;
	ino = inode_new(&cgroupfs_sb, nd->ino, nd->mode & LINUX_S_IFMT, &cg_iops, ci);
	if (!ino) {
		free(ci);
		return NULL;
	}
	cgroup_get(cg);
	nd->inode = ino;
	return ino;
}

static void cg_release(struct inode *ino)
{
	struct cg_inode *ci = CI(ino);

	if (ci->cg->node[ci->which].inode == ino)
		ci->cg->node[ci->which].inode = NULL;
	cgroup_put(ci->cg);
	free(ci);
}

/* A removed group's files, and a controller's file made again or gone
 * since it was opened: kernfs's deactivated node. */
static bool gone(const struct cg_inode *ci)
{
	return ci->cg->dead || !has_file(ci->cg, ci->which) ||
	       ci->gen != ci->cg->node[ci->which].gen;
}

static int file_index(const struct cgroup *cg, const char *name)
{
	int i;

	for (i = CGF_DIR + 1; i < CGF_N; i++)
		if (has_file(cg, i) && strcmp(name, file_names[i]) == 0)
			return i;
	return -1;
}

static int cg_lookup(struct inode *dir, const char *name, struct inode **out)
{
	struct cgroup *cg = CI(dir)->cg, *child;
	int i;

	if (cg->dead)
		return -ENOENT;
	i = file_index(cg, name);
	if (i > 0)
		*out = node_inode(cg, i);
	else if ((child = cgroup_child(cg, name)) != NULL)
		*out = node_inode(child, CGF_DIR);
	else
		return -ENOENT;
	return *out ? 0 : -ENOMEM;
}

static int cg_getattr(struct inode *ino, struct linux_stat *st)
{
	struct cgroup *cg = CI(ino)->cg, *c;
	const struct cg_node *nd = &cg->node[CI(ino)->which];

	memset(st, 0, sizeof(*st));
	st->st_dev = cgroupfs_sb.dev;
	st->st_ino = nd->ino;
	st->st_mode = nd->mode;
	st->st_nlink = 1;
	if (CI(ino)->which == CGF_DIR) {
		/* kernfs: 2 and one per subdirectory; none once removed */
		st->st_nlink = cg->dead ? 0 : 2;
		list_for_each_entry(c, &cg->children, sibling)
		{
			st->st_nlink++;
		}
	}
	st->st_uid = nd->uid;
	st->st_gid = nd->gid;
	st->st_blksize = PAGE;
	st->st_atime_sec = (uint64_t)nd->atime.tv_sec;
	st->st_atime_nsec = (uint64_t)nd->atime.tv_nsec;
	st->st_mtime_sec = (uint64_t)nd->mtime.tv_sec;
	st->st_mtime_nsec = (uint64_t)nd->mtime.tv_nsec;
	st->st_ctime_sec = (uint64_t)nd->ctime.tv_sec;
	st->st_ctime_nsec = (uint64_t)nd->ctime.tv_nsec;
	return 0;
}

/* kernfs_iop_setattr: mode, owner and times; a size (O_TRUNC) is taken
 * and ignored. */
static int cg_setattr(struct inode *ino, const struct iattr *ia)
{
	struct cg_node *nd = &CI(ino)->cg->node[CI(ino)->which];

	if (ia->valid & ATTR_MODE)
		nd->mode = (nd->mode & LINUX_S_IFMT) | (ia->mode & 07777);
	if (ia->valid & ATTR_UID)
		nd->uid = ia->uid;
	if (ia->valid & ATTR_GID)
		nd->gid = ia->gid;
	if (ia->valid & ATTR_ATIME)
		nd->atime = ia->atime;
	if (ia->valid & ATTR_MTIME)
		nd->mtime = ia->mtime;
	if (ia->valid & ~ATTR_SIZE)
		nd->ctime = vfs_now();
	return 0;
}

static int cg_iterate(struct inode *dir, dir_emit_fn emit, void *ctx)
{
	struct cgroup *cg = CI(dir)->cg, *c;
	int ret, i;

	if (cg->dead)
		return 0;
	ret = emit(ctx, ".", cg->node[CGF_DIR].ino, LINUX_DT_DIR);
	if (ret == 0)
		ret = emit(ctx, "..", (cg->parent ?: cg)->node[CGF_DIR].ino, LINUX_DT_DIR);
	for (i = CGF_DIR + 1; ret == 0 && i < CGF_N; i++)
		if (has_file(cg, i))
			ret = emit(ctx, file_names[i], cg->node[i].ino, LINUX_DT_REG);
	list_for_each_entry(c, &cg->children, sibling)
	{
		if (ret)
			break;
		ret = emit(ctx, c->name, c->node[CGF_DIR].ino, LINUX_DT_DIR);
	}
	return ret < 0 ? ret : 0;
}

/* mkdir makes a group; kernfs has no create (EACCES from the VFS) nor
 * mknod (EPERM). */
static int cg_mknod(struct inode *dir, const char *name, uint32_t mode, uint64_t rdev,
		    const struct cred *c, struct inode **out)
{
	struct cgroup *child;
	int ret;

	(void)rdev;
	if (LINUX_S_ISREG(mode))
		return -EACCES;
	if (!LINUX_S_ISDIR(mode))
		return -EPERM;
	ret = cgroup_mkdir(CI(dir)->cg, name, mode, c, &child);
	if (ret < 0)
		return ret;
	if (out) {
		*out = node_inode(child, CGF_DIR);
		if (!*out)
			return -ENOMEM; /* the group stays, as after Linux's mkdir */
	}
	return 0;
}

static int cg_unlink(struct inode *dir, const char *name, bool is_dir)
{
	struct cgroup *child;

	if (!is_dir)
		return -EPERM; /* kernfs has no unlink */
	child = cgroup_child(CI(dir)->cg, name);
	if (!child)
		return file_index(CI(dir)->cg, name) > 0 ? -ENOTDIR : -ENOENT;
	return cgroup_rmdir(child);
}

static int cg_statfs(struct inode *ino, struct linux_statfs *st)
{
	(void)ino;
	memset(st, 0, sizeof(*st));
	st->f_type = CGROUP2_SUPER_MAGIC;
	st->f_bsize = PAGE;
	st->f_frsize = PAGE;
	st->f_namelen = 255;
	return 0;
}

/* Open files. */

struct cg_open {
	char *buf; /* what the last read from offset 0 generated */
	size_t len;
	uint64_t seen;	    /* cgroup.events' change count at the last read */
	struct cred opener; /* its own groups; a reference on its namespace */
	bool has_opener;
	/* the opener's cgroup namespace (a reference): nsdelegate's rules
	 * are judged by it, as Linux's cgroup_file_ctx keeps it */
	struct ns_common *ns;
};

struct gen_ctx {
	struct sbuf b;
	struct task *reader;
};

static void show_proc(struct process *p, void *arg)
{
	struct gen_ctx *g = arg;
	struct task *t;

	list_for_each_entry(t, &p->threads, thread_link)
	{
		if (t->tid == p->pid && t->state != TASK_DEAD) {
			sb_printf(&g->b, "%d\n", pid_vnr(g->reader, p->pid));
			return;
		}
	}
}

static void show_threads(struct process *p, void *arg)
{
	struct gen_ctx *g = arg;
	struct task *t;

	list_for_each_entry(t, &p->threads, thread_link)
	{
		if (t->state != TASK_DEAD)
			sb_printf(&g->b, "%d\n", pid_vnr(g->reader, t->tid));
	}
}

static void show_limit(struct gen_ctx *g, int v)
{
	if (v == INT32_MAX)
		sb_printf(&g->b, "max\n");
	else
		sb_printf(&g->b, "%d\n", v);
}

static int generate(struct file *f)
{
	struct cg_inode *ci = CI(f->inode);
	struct cg_open *cf = f->priv;
	struct cgroup *cg = ci->cg;
	struct gen_ctx g = { .reader = current };
	int64_t user, sys;

	if (gone(ci))
		return -ENODEV;
	cf->seen = cg->node[ci->which].seq; /* kernfs_seq_show */
	switch (ci->which) {
	case CGF_CONTROLLERS:
		/* no newline after none */
		if (cg->pids)
			sb_printf(&g.b, "pids\n");
		break;
	case CGF_SUBTREE_CONTROL:
		if (cg->subtree_control & CGC_PIDS)
			sb_printf(&g.b, "pids\n");
		break;
	case CGF_EVENTS:
		sb_printf(&g.b, "populated %d\nfrozen %d\n", cgroup_populated(cg), cg->frozen);
		break;
	case CGF_FREEZE:
		sb_printf(&g.b, "%d\n", cg->freeze);
		break;
	case CGF_MAX_DEPTH:
		show_limit(&g, cg->max_depth);
		break;
	case CGF_MAX_DESCENDANTS:
		show_limit(&g, cg->max_descendants);
		break;
	case CGF_PROCS:
		cgroup_for_each_proc(cg, show_proc, &g);
		break;
	case CGF_THREADS:
		cgroup_for_each_proc(cg, show_threads, &g);
		break;
	case CGF_STAT:
		/* the controllers' csses live and dying after each count */
		sb_printf(&g.b,
			  "nr_descendants %d\nnr_subsys_pids %d\nnr_dying_descendants %d\n"
			  "nr_dying_subsys_pids %d\n",
			  cg->nr_descendants, cgroup_nr_subsys_pids(cg), cg->nr_dying_descendants,
			  cg->nr_dying_pids);
		break;
	case CGF_TYPE:
		sb_printf(&g.b, "%s\n",
			  !cgroup_valid_domain(cg) ? "domain invalid"
			  : cgroup_thread_root(cg) ? "domain threaded"
						   : "domain");
		break;
	case CGF_CPU_STAT:
		cgroup_cpu_usage(cg, &user, &sys);
		sb_printf(&g.b, "usage_usec %lld\nuser_usec %lld\nsystem_usec %lld\n",
			  (long long)((user + sys) / 1000), (long long)(user / 1000),
			  (long long)(sys / 1000));
		break;
	case CGF_PIDS_CURRENT:
		sb_printf(&g.b, "%lld\n", (long long)cg->pids->count);
		break;
	case CGF_PIDS_PEAK:
		sb_printf(&g.b, "%lld\n", (long long)cg->pids->peak);
		break;
	case CGF_PIDS_MAX:
		if (cg->pids->max == PIDS_MAX)
			sb_printf(&g.b, "max\n");
		else
			sb_printf(&g.b, "%lld\n", (long long)cg->pids->max);
		break;
	case CGF_PIDS_EVENTS:
	case CGF_PIDS_EVENTS_LOCAL:
		/* pids_localevents: both count the forks refused here, as
		 * pids.events did before 6.11 */
		sb_printf(&g.b, "max %lld\n",
			  (long long)(cgroup_root_flags & CGRP_PIDS_LOCAL_EVENTS
					      ? cg->pids->forkfail
				      : ci->which == CGF_PIDS_EVENTS ? cg->pids->events
								     : cg->pids->events_local));
		break;
	default:
		return -EINVAL; /* cgroup.kill: no seq_show */
	}
	if (g.b.oom) {
		free(g.b.buf);
		return -ENOMEM;
	}
	free(cf->buf);
	cf->buf = g.b.buf;
	cf->len = g.b.len;
	return 0;
}

static long cg_pread(struct file *f, void *buf, size_t n, int64_t off)
{
	struct cg_open *cf = f->priv;

	if (off < 0)
		return -EINVAL;
	if (gone(CI(f->inode)))
		return -ENODEV;
	if (n == 0)
		return 0;
	if (off == 0 || !cf->buf) {
		int ret = generate(f);

		if (ret < 0)
			return ret;
	}
	return read_from_buffer(buf, n, off, cf->buf, cf->len);
}

/* cgroup.max.depth and cgroup.max.descendants: "max" or an int >= 0. */
static int write_limit(struct cgroup *cg, char *buf, int *limit)
{
	int64_t v;
	int ret = cgroup_parse_max(buf, &v);

	if (ret < 0)
		return ret;
	if (ret)
		v = INT32_MAX;
	else if (v < 0 || v > INT32_MAX) /* kstrtoint's ERANGE, then the sign */
		return -ERANGE;
	if (cg->dead)
		return -ENOENT;
	*limit = (int)v;
	return 0;
}

static int write_kill(struct cgroup *cg, char *buf)
{
	int v, ret = cgroup_parse_int(cgroup_strip(buf), &v);

	if (ret < 0)
		return ret;
	if (v != 1)
		return -ERANGE;
	if (cg->dead)
		return -ENOENT;
	cgroup_kill(cg);
	return 0;
}

/* cgroup.freeze: 0 or 1 (Linux's cgroup_freeze_write). */
static int write_freeze(struct cgroup *cg, char *buf)
{
	int v, ret = cgroup_parse_int(cgroup_strip(buf), &v);

	if (ret < 0)
		return ret;
	if (v < 0 || v > 1)
		return -ERANGE;
	if (cg->dead)
		return -ENOENT;
	cgroup_set_freeze(cg, v);
	return 0;
}

static int write_type(struct cgroup *cg, char *buf)
{
	(void)cg;
	if (strcmp(cgroup_strip(buf), "threaded") == 0)
		klog_once(LOG_INFO, "cgroup: threaded groups are not supported: EINVAL");
	return -EINVAL; /* only "threaded" is ever taken */
}

static long cg_pwrite(struct file *f, const void *ubuf, size_t n, int64_t off)
{
	struct cg_inode *ci = CI(f->inode);
	struct cg_open *cf = f->priv;
	struct cgroup *cg = ci->cg;
	struct cgroup_ns *ns;
	char *buf;
	int ret;

	(void)off;
	if (n == 0)
		return 0; /* kernfs_fop_write_iter: no call of the handler */
	if (gone(ci))
		return -ENODEV;
	if (n > PAGE)
		n = PAGE;
	/* nsdelegate: a namespace's root is its parent's to configure, but
	 * for what may be delegated (CFTYPE_NS_DELEGATABLE) */
	ns = (struct cgroup_ns *)cf->ns;
	if ((cgroup_root_flags & CGRP_NSDELEGATE) && ns != &init_cgroup_ns && ns->root == cg &&
	    ci->which != CGF_PROCS && ci->which != CGF_THREADS && ci->which != CGF_SUBTREE_CONTROL)
		return -EPERM;
	buf = malloc(n + 1);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, ubuf, n);
	buf[n] = 0;
	switch (ci->which) {
	case CGF_PROCS:
	case CGF_THREADS:
		ret = cgroup_procs_write(current, &cf->opener, ns->root, cg, buf,
					 ci->which == CGF_PROCS);
		break;
	case CGF_MAX_DEPTH:
		ret = write_limit(cg, buf, &cg->max_depth);
		break;
	case CGF_MAX_DESCENDANTS:
		ret = write_limit(cg, buf, &cg->max_descendants);
		break;
	case CGF_SUBTREE_CONTROL:
		/* new files are the writer's (cgroup_add_file) */
		ret = cgroup_subtree_control_write(cg, buf, &current->proc->cred);
		break;
	case CGF_PIDS_MAX:
		ret = cgroup_pids_max_write(cg, buf);
		break;
	case CGF_KILL:
		ret = write_kill(cg, buf);
		break;
	case CGF_FREEZE:
		ret = write_freeze(cg, buf);
		break;
	case CGF_TYPE:
		ret = write_type(cg, buf);
		break;
	default:
		ret = -EINVAL; /* cgroup_file_write: no write handler */
	}
	free(buf);
	return ret < 0 ? ret : (long)n;
}

/* kernfs_generic_poll: always readable and writable; POLLERR|POLLPRI once
 * the file's node was notified after its last read, or removed. */
static unsigned cg_poll(struct file *f, struct poll_table *pt)
{
	struct cg_inode *ci = CI(f->inode);
	struct cg_open *cf = f->priv;
	unsigned mask = LINUX_POLLIN | LINUX_POLLOUT | LINUX_POLLRDNORM | LINUX_POLLWRNORM;

	if (pt)
		poll_wait(pt, &ci->cg->events_wq);
	if (gone(ci) || cf->seen != ci->cg->node[ci->which].seq)
		mask |= LINUX_POLLERR | LINUX_POLLPRI;
	return mask;
}

static void cg_file_release(struct file *f)
{
	struct cg_open *cf = f->priv;

	if (cf) {
		free(cf->buf);
		if (cf->has_opener) {
			free(cf->opener.groups);
			cred_put_ns(&cf->opener);
		}
		ns_put(cf->ns);
		free(cf);
	}
}

/* kernfs_fop_llseek: ENODEV once removed, else generic_file_llseek over
 * a size of 0. */
static int64_t cg_llseek(struct file *f, int64_t off, int whence)
{
	if (gone(CI(f->inode)))
		return -ENODEV;
	if (whence == LINUX_SEEK_END)
		whence = LINUX_SEEK_SET;
	else if (whence == LINUX_SEEK_DATA || whence == LINUX_SEEK_HOLE)
		return -ENXIO; /* any offset is at or past the end */
	return seq_llseek(f, off, whence);
}

static const struct file_ops cg_fops = {
	.read = file_read_at_pos,
	.write = file_write_at_pos,
	.pread = cg_pread,
	.pwrite = cg_pwrite,
	.llseek = cg_llseek,
	.poll = cg_poll,
	.release = cg_file_release,
};

static const struct file_ops cg_dir_fops = {
	.read = dir_read,
	.pread = dir_pread,
	.getdents64 = dir_getdents64,
	.llseek = dir_llseek,
};

/* Directories list as the VFS's. A file opens for what its mode allows
 * the opener (the VFS checked); a read of a file that only takes writes
 * (cgroup.kill), or a write of one that only shows, is EINVAL. */
static int cg_open(struct inode *ino, struct file *f)
{
	struct cg_inode *ci = CI(ino);
	struct cg_open *cf;

	if (ci->which == CGF_DIR) {
		f->ops = &cg_dir_fops;
		return 0;
	}
	if (gone(ci))
		return -ENODEV;
	cf = calloc(1, sizeof(*cf));
	if (!cf)
		return -ENOMEM;
	if (current) {
		cf->opener = current->proc->cred;
		cf->opener.groups = NULL;
		cf->opener.ngroups = 0;
		if (current->proc->cred.ngroups) {
			size_t sz = current->proc->cred.ngroups * sizeof(uint32_t);

			cf->opener.groups = malloc(sz);
			if (!cf->opener.groups) {
				free(cf);
				return -ENOMEM;
			}
			memcpy(cf->opener.groups, current->proc->cred.groups, sz);
			cf->opener.ngroups = current->proc->cred.ngroups;
		}
		cred_get_ns(&cf->opener);
		cf->has_opener = true;
	}
	cf->ns = current ? current->nsproxy->ns[NS_CGROUP] : &init_cgroup_ns.ns;
	ns_get(cf->ns);
	cf->seen = ci->cg->node[ci->which].seq;
	f->ops = &cg_fops;
	f->priv = cf;
	return 0;
}

static const struct inode_ops cg_iops = {
	.lookup = cg_lookup,
	.mknod = cg_mknod,
	.unlink = cg_unlink,
	.getattr = cg_getattr,
	.setattr = cg_setattr,
	.iterate = cg_iterate,
	.open = cg_open,
	.statfs = cg_statfs,
	.release = cg_release,
};

struct cgroup *cgroupfs_file_cgroup(struct file *f)
{
	struct inode *ino = f->path.dentry ? f->path.dentry->inode : NULL;

	if (!ino || ino->iop != &cg_iops || CI(ino)->which != CGF_DIR)
		return NULL;
	return CI(ino)->cg;
}

void cgroupfs_show_flags(void)
{
	cgroup_show_flags(cgroupfs_sb.opts, sizeof(cgroupfs_sb.opts));
}

int cgroupfs_mount(struct task *t, struct super_block **sb, struct inode **root)
{
	if (!cgroupfs_sb.dev)
		cgroupfs_sb.dev = vfs_anon_dev();
	cgroup_root_init();
	*root = node_inode(t ? task_cgroup_ns_root(t) : &cgroup_root, CGF_DIR);
	if (!*root)
		return -ENOMEM;
	*sb = &cgroupfs_sb;
	return 0;
}
