/* fs/procfs/procfs.c: procfs's inodes. The tree is tables of entries
 * (global.c, pid.c) plus the directories whose names come from the kernel:
 * one per process, per thread, per open fd. An inode is made at each
 * lookup and holds its place (entry, pid, tid, fd); its number is made
 * from that place, so it is the same every time. Regular files print
 * their whole content into a buffer when opened (and again when read from
 * offset 0, as Linux's seq_file does); symlinks compute their target;
 * magic links (fd/N, cwd, root, exe) give the path itself, so opening
 * /proc/self/fd/N reaches the very file. A file with no path (a pipe, the
 * host's stdio) is reached through a "proxy" inode that shares it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs/procfs/procfs.h"
#include "fs/procfs/internal.h"
#include "fs/nsfs/nsfs.h"
#include "vfs/namespace.h"
#include "vfs/file.h"
#include "vfs/pipe.h"
#include "vfs/mount.h"
#include "vfs/namei.h"
#include "vfs/readdir.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "kernel/userns.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/misc.h"
#include "abi/linux/poll.h"
#include "abi/linux/stat.h"

static struct super_block proc_sb;
static bool proc_sb_ready;
int64_t procfs_boot_mono_ns, procfs_boot_real_ns;

static const struct inode_ops dir_iops, file_iops, link_iops, magic_iops, proxy_iops;

/* Text buffers (lib/sbuf.h). */

void sb_escaped(struct sbuf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\\')
			sb_printf(b, "\\%03o", (unsigned char)*s);
		else
			sb_put(b, s, 1);
	}
}

/* Places. */

struct process *procfs_process(const struct pnode *n)
{
	return process_by_pid(n->pid);
}

static bool task_alive(const struct task *t)
{
	return t && t->state != TASK_DEAD;
}

struct task *procfs_task(const struct pnode *n)
{
	struct process *p = process_by_pid(n->pid);
	struct task *t;

	if (!p)
		return NULL;
	if (n->tid) {
		t = task_by_tid(n->tid);
		return task_alive(t) && t->proc == p ? t : NULL;
	}
	t = task_by_tid(n->pid);
	if (task_alive(t) && t->proc == p)
		return t;
	list_for_each_entry(t, &p->threads, thread_link)
	{
		if (task_alive(t))
			return t;
	}
	return NULL;
}

struct task *procfs_own_task(const struct pnode *n)
{
	struct task *t = procfs_task(n);

	return t && (n->tid || t->tid == n->pid) ? t : NULL;
}

struct file *procfs_fd_file(const struct pnode *n)
{
	struct task *t = procfs_own_task(n);

	if (!t || !t->files || n->fd < 0)
		return NULL;
	return fdget(t->files, n->fd);
}

int procfs_pid_dir_process(struct file *f, struct process **pp)
{
	const struct pnode *n;

	if (!f->inode || f->inode->sb != &proc_sb || f->inode->iop != &dir_iops)
		return -EBADF;
	n = f->inode->priv;
	if (n->e != &procfs_pid_entry)
		return -EBADF;
	*pp = procfs_process(n);
	return *pp ? 0 : -ESRCH;
}

bool procfs_may_access(struct task *caller, struct process *p)
{
	return caller->proc == p || cred_ptrace_may_access(&caller->proc->cred, p, false);
}

struct mount *procfs_mount_of(void)
{
	struct mount *m;

	struct mount *any = NULL;

	/* the caller's namespace's first, else any */
	list_for_each_entry(m, &mounts, link)
	{
		if (m->sb == &proc_sb && m->ns == task_mnt_ns(current))
			return m;
		if (m->sb == &proc_sb && !any)
			any = m;
	}
	return any;
}

/* Inode numbers: system-wide entries are their id (< 256); under a
 * process, pid, tid and fd + 1 above it. */
static uint64_t ino_of(const struct pnode *n)
{
	return ((uint64_t)n->pid << 45) | ((uint64_t)n->tid << 29) | ((uint64_t)(n->fd + 1) << 8) |
	       n->e->id;
}

static struct inode *node_inode(const struct pnode *n, uint64_t parent_ino)
{
	struct pnode *p = malloc(sizeof(*p));
	const struct inode_ops *iop;
	struct inode *ino;

	if (!p)
		return NULL;
	*p = *n;
	p->parent_ino = parent_ino;
	ns_get(&p->ns->ns);
	if (LINUX_S_ISDIR(n->e->mode))
		iop = &dir_iops;
	else if (LINUX_S_ISLNK(n->e->mode))
		iop = n->e->link ? &magic_iops : &link_iops;
	else
		iop = &file_iops;
	ino = inode_new(&proc_sb, ino_of(n), n->e->mode, iop, p);
	if (!ino) {
		ns_put(&p->ns->ns);
		free(p);
	}
	return ino;
}

static void node_release(struct inode *ino)
{
	struct pnode *n = ino->priv;

	ns_put(&n->ns->ns);
	free(n);
}

int procfs_nr(const struct pnode *n, int pid)
{
	return pid_nr_ns(pid, n->ns);
}

/* A decimal name as procfs takes it: no sign, no leading zero. */
static int name_to_int(const char *s)
{
	long v = 0;

	if (!*s || (s[0] == '0' && s[1]))
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
		if (v > 0x7fffffff)
			return -1;
	}
	return (int)v;
}

/* Is the place still there: its process, thread, fd? */
static bool node_alive(const struct pnode *n)
{
	struct file *f;

	if (!n->pid)
		return true;
	/* an id handed out again outside the mount's namespace: gone */
	if (!procfs_process(n) || !procfs_nr(n, n->pid))
		return false;
	/* A thread's directory goes with the thread, but the leader's stays
	 * as long as its process: Linux keeps a leader that has exited as a
	 * zombie until the process is reaped (a parent reads a zombie's
	 * /proc/PID/task/PID/stat for its times). */
	if (n->tid && n->tid != n->pid && !procfs_task(n))
		return false;
	if (n->fd >= 0) {
		f = procfs_fd_file(n);
		if (!f)
			return false;
		file_put(f);
	}
	return true;
}

/* Static children a directory shows: a thread's directory has none of
 * the process's alone. */
static bool child_shown(const struct pnode *dir, const struct pentry *e)
{
	return !(dir->e == &procfs_tid_entry && e->tgid_only);
}

/* /proc/PID/task lists the leader first, then these. */
static bool task_listed_after_leader(const struct process *p, const struct task *t)
{
	return task_alive(t) && t->tid != p->pid;
}

/* A directory's links, as Linux counts them: 2 and one per directory in it
 * (its processes for /proc, nr_threads for /proc/PID/task); 1 for those
 * of /proc/sys, whose inodes Linux never counts. */
static uint32_t dir_nlink(const struct pnode *d)
{
	const struct pentry *e;
	struct process *p;
	struct task *t;
	uint32_t n = 2;

	if (d->e->sysctl)
		return 1;
	for (e = d->e->children; e && e->name; e++)
		n += child_shown(d, e) && LINUX_S_ISDIR(e->mode);
	switch (d->e->dyn) {
	case PD_PIDS:
		for (p = process_next(NULL); p; p = process_next(p))
			n += procfs_nr(d, p->pid) != 0;
		break;
	case PD_TASKS:
		p = procfs_process(d);
		if (!p)
			break;
		n++; /* the leader, dead or not (see node_alive) */
		list_for_each_entry(t, &p->threads, thread_link) n +=
			task_listed_after_leader(p, t);
		break;
	default:
		break;
	}
	return n;
}

static int dir_lookup(struct inode *dir, const char *name, struct inode **out)
{
	const struct pnode *d = dir->priv;
	struct pnode n = { .pid = d->pid, .tid = d->tid, .fd = -1, .ns = d->ns };
	const struct pentry *e;
	struct process *p;
	struct task *t;
	struct file *f;
	int num;

	if (!node_alive(d))
		return -ENOENT;
	for (e = d->e->children; e && e->name; e++) {
		if (strcmp(e->name, name) == 0 && child_shown(d, e)) {
			n.e = e;
			goto found;
		}
	}
	num = name_to_int(name);
	if (num <= 0 && !(num == 0 && (d->e->dyn == PD_FDS || d->e->dyn == PD_FDINFO)))
		return -ENOENT;
	switch (d->e->dyn) {
	case PD_PIDS:
		num = pid_from_nr(d->ns, num); /* the instance pid */
		p = process_by_pid(num);
		if (p) {
			n.e = &procfs_pid_entry;
			n.pid = num;
			goto found;
		}
		/* /proc/TID: a thread that does not lead is found, not listed */
		t = task_by_tid(num);
		if (!task_alive(t))
			return -ENOENT;
		n.e = &procfs_pid_entry;
		n.pid = t->proc->pid;
		n.tid = num;
		goto found;
	case PD_TASKS:
		num = pid_from_nr(d->ns, num);
		t = task_by_tid(num);
		if (!num || (num != d->pid && (!task_alive(t) || t->proc->pid != d->pid)))
			return -ENOENT;
		n.e = &procfs_tid_entry;
		n.tid = num;
		goto found;
	case PD_FDS:
	case PD_FDINFO:
		n.fd = num;
		f = procfs_fd_file(&n);
		if (!f)
			return -ENOENT;
		file_put(f);
		n.e = d->e->dyn == PD_FDS ? &procfs_fd_entry : &procfs_fdinfo_entry;
		goto found;
	default:
		return -ENOENT;
	}
found:
	*out = node_inode(&n, dir->ino);
	return *out ? 0 : -ENOMEM;
}

static int dir_iterate(struct inode *dir, dir_emit_fn emit, void *ctx)
{
	const struct pnode *d = dir->priv;
	struct pnode n = { .pid = d->pid, .tid = d->tid, .fd = -1, .ns = d->ns };
	const struct pentry *e;
	char name[16];
	int ret, i;

	if (!node_alive(d))
		return -ENOENT;
	ret = emit(ctx, ".", dir->ino, LINUX_DT_DIR);
	if (ret == 0)
		ret = emit(ctx, "..", d->parent_ino, LINUX_DT_DIR);
	for (e = d->e->children; ret == 0 && e && e->name; e++) {
		if (!child_shown(d, e))
			continue;
		n.e = e;
		ret = emit(ctx, e->name, ino_of(&n), LINUX_IFTODT(e->mode));
	}
	if (ret)
		return ret < 0 ? ret : 0;
	switch (d->e->dyn) {
	case PD_PIDS: {
		struct process *p;

		/* Ascending pids, as Linux lists them: those the mount's
		 * namespace sees. */
		n.e = &procfs_pid_entry;
		for (p = process_next(NULL); ret == 0 && p; p = process_next(p)) {
			if (!procfs_nr(d, p->pid))
				continue;
			n.pid = p->pid;
			snprintf(name, sizeof(name), "%d", procfs_nr(d, p->pid));
			ret = emit(ctx, name, ino_of(&n), LINUX_DT_DIR);
		}
		break;
	}
	case PD_TASKS: {
		struct process *p = procfs_process(d);
		struct task *t;

		/* the leader first, dead or not (see node_alive) */
		n.e = &procfs_tid_entry;
		n.tid = p->pid;
		snprintf(name, sizeof(name), "%d", procfs_nr(d, p->pid));
		ret = emit(ctx, name, ino_of(&n), LINUX_DT_DIR);
		list_for_each_entry(t, &p->threads, thread_link)
		{
			if (ret)
				break;
			if (!task_listed_after_leader(p, t))
				continue;
			n.tid = t->tid;
			snprintf(name, sizeof(name), "%d", procfs_nr(d, t->tid));
			ret = emit(ctx, name, ino_of(&n), LINUX_DT_DIR);
		}
		break;
	}
	case PD_FDS:
	case PD_FDINFO: {
		struct task *t = procfs_own_task(d);

		if (!t || !t->files)
			break;
		n.e = d->e->dyn == PD_FDS ? &procfs_fd_entry : &procfs_fdinfo_entry;
		for (i = 0; ret == 0 && i < t->files->max; i++) {
			if (!t->files->fd[i])
				continue;
			n.fd = i;
			snprintf(name, sizeof(name), "%d", i);
			ret = emit(ctx, name, ino_of(&n), LINUX_IFTODT(n.e->mode));
		}
		break;
	}
	default:
		break;
	}
	return ret < 0 ? ret : 0;
}

static int node_getattr(struct inode *ino, struct linux_stat *st)
{
	const struct pnode *n = ino->priv;
	struct process *p = NULL;
	uint32_t mode = n->e->mode;

	if (!node_alive(n))
		return -ENOENT;
	if (n->pid)
		p = procfs_process(n);
	if (n->e == &procfs_fd_entry) {
		struct file *f = procfs_fd_file(n);

		if (f) {
			mode = LINUX_S_IFLNK | 0100 | (file_readable(f) ? 0400 : 0) |
			       (file_writable(f) ? 0200 : 0);
			file_put(f);
		}
	}
	st->st_dev = ino->dev;
	st->st_ino = ino->ino;
	st->st_mode = mode;
	st->st_nlink = LINUX_S_ISDIR(mode) ? dir_nlink(n) : 1;
	/* Linux's task_dump_owner: root's when not dumpable. */
	st->st_uid = p && !p->nondumpable ? p->cred.euid : 0;
	st->st_gid = p && !p->nondumpable ? p->cred.egid : 0;
	st->st_blksize = 1024;
	st->st_atime_sec = st->st_mtime_sec = st->st_ctime_sec =
		(uint64_t)(procfs_boot_real_ns / 1000000000);
	st->st_atime_nsec = st->st_mtime_nsec = st->st_ctime_nsec =
		(uint64_t)(procfs_boot_real_ns % 1000000000);
	return 0;
}

/* procfs is read-only: chmod and chown are refused, a truncation (of an
 * open with O_TRUNC) is accepted and does nothing, as on Linux. */
static int node_setattr(struct inode *ino, const struct iattr *ia)
{
	(void)ino;
	if (ia->valid & (ATTR_MODE | ATTR_UID | ATTR_GID))
		return -EPERM;
	return 0;
}

static int node_mknod(struct inode *dir, const char *name, uint32_t mode, uint64_t rdev,
		      const struct cred *c, struct inode **out)
{
	(void)dir;
	(void)name;
	(void)mode;
	(void)rdev;
	(void)c;
	(void)out;
	return -ENOENT;
}

static int node_symlink(struct inode *dir, const char *name, const char *target,
			const struct cred *c)
{
	(void)dir;
	(void)name;
	(void)target;
	(void)c;
	return -ENOENT;
}

static int node_unlink(struct inode *dir, const char *name, bool is_dir)
{
	(void)dir;
	(void)name;
	(void)is_dir;
	return -EPERM;
}

static int node_rename(struct inode *odir, const char *oname, struct inode *ndir, const char *nname,
		       unsigned flags)
{
	(void)odir;
	(void)oname;
	(void)ndir;
	(void)nname;
	(void)flags;
	return -EPERM;
}

static int node_link(struct inode *dir, const char *name, struct inode *old)
{
	(void)dir;
	(void)name;
	(void)old;
	return -EPERM;
}

static int node_statfs(struct inode *ino, struct linux_statfs *st)
{
	(void)ino;
	st->f_type = LINUX_PROC_SUPER_MAGIC;
	st->f_bsize = 4096;
	st->f_frsize = 4096;
	st->f_namelen = 255;
	return 0;
}

static const struct file_ops dir_fops = {
	.read = dir_read,
	.pread = dir_pread,
	.getdents64 = dir_getdents64,
	.llseek = dir_llseek,
};

static int dir_open(struct inode *ino, struct file *f)
{
	const struct pnode *n = ino->priv;

	if (!node_alive(n))
		return -ENOENT;
	/* Linux's proc_open_fdinfo: ptrace read access. */
	if (n->e->dyn == PD_FDINFO && (!current || !procfs_may_access(current, procfs_process(n))))
		return -EACCES;
	f->ops = &dir_fops;
	return 0;
}

static const struct inode_ops dir_iops = {
	.lookup = dir_lookup,
	.mknod = node_mknod,
	.symlink = node_symlink,
	.link = node_link,
	.unlink = node_unlink,
	.rename = node_rename,
	.getattr = node_getattr,
	.setattr = node_setattr,
	.iterate = dir_iterate,
	.open = dir_open,
	.statfs = node_statfs,
	.release = node_release,
};

/* Generated files: the content of the last generation; generated again
 * by a read at offset 0 unless just made by open. */

struct gen_file {
	char *buf;
	size_t len;
	bool fresh;
	bool made; /* generated once */
	/* the opener's credentials (no groups; a reference on their user
	 * namespace), for a put_opener entry */
	struct cred opener;
	bool has_opener;
};

static int generate(struct file *f)
{
	const struct pnode *n = f->inode->priv;
	struct gen_file *g = f->priv;
	struct sbuf b = { 0 };
	int ret;

	if (!node_alive(n))
		return -ESRCH;
	ret = n->e->gen(n, &b);
	if (ret == 0 && b.oom)
		ret = -ENOMEM;
	if (ret < 0) {
		free(b.buf);
		return ret;
	}
	free(g->buf);
	g->buf = b.buf;
	g->len = b.len;
	g->fresh = g->made = true;
	return 0;
}

static long gen_pread(struct file *f, void *buf, size_t n, int64_t off)
{
	struct gen_file *g = f->priv;

	if (off < 0)
		return -EINVAL;
	if (n == 0)
		return 0; /* seq_read_iter: nothing generated */
	if ((off == 0 && !g->fresh) || !g->made) {
		int ret = generate(f);

		if (ret < 0)
			return ret;
	}
	g->fresh = false;
	return read_from_buffer(buf, n, off, g->buf, g->len);
}

/* Linux: writing a file with no write method is EIO for the system-wide
 * ones and EINVAL for those of a process. */
static long gen_write_at(struct file *f, const void *buf, size_t n, int64_t off)
{
	const struct pnode *pn = f->inode->priv;
	struct gen_file *g = f->priv;
	long ret;

	if (pn->e->put_opener)
		ret = g->has_opener ? pn->e->put_opener(pn, &g->opener, buf, n, off) : -EPERM;
	else if (pn->e->put && n == 0 && !pn->pid && !pn->e->put_empty)
		return 0;
	else if (pn->e->int_sysctl && off > 0)
		return (long)n; /* taken, and ignored */
	else if (pn->e->put)
		ret = pn->e->put(pn, buf, n);
	else
		return pn->pid ? -EINVAL : -EIO;
	if (ret >= 0)
		g->fresh = false; /* a read from 0 shows what it did */
	return ret;
}

static long gen_write(struct file *f, const void *buf, size_t n)
{
	const struct pnode *pn = f->inode->priv;
	long ret = gen_write_at(f, buf, n, f->pos);

	if (ret > 0 && pn->e->int_sysctl)
		f->pos += ret; /* the next write is past offset 0 */
	return ret;
}

/* Linux's seq_file writers cannot be written at an offset (seq_open
 * clears FMODE_PWRITE). */
static long gen_pwrite(struct file *f, const void *buf, size_t n, int64_t off)
{
	const struct pnode *pn = f->inode->priv;

	return pn->e->seq ? -ESPIPE : gen_write_at(f, buf, n, off);
}

static void gen_release(struct file *f)
{
	struct gen_file *g = f->priv;

	if (g) {
		free(g->buf);
		if (g->has_opener)
			cred_put_ns(&g->opener);
	}
	free(g);
}

static const struct file_ops gen_fops = {
	.read = file_read_at_pos,
	.write = gen_write,
	.pread = gen_pread,
	.pwrite = gen_pwrite,
	.llseek = seq_llseek,
	.release = gen_release,
};

static bool is_sysctl(const struct pentry *e);

static int file_open(struct inode *ino, struct file *f)
{
	const struct pnode *n = ino->priv;
	struct gen_file *g;
	int ret;

	if (!node_alive(n))
		return -ENOENT;
	if ((f->flags & LINUX_O_ACCMODE) != LINUX_O_RDONLY && is_sysctl(n->e) && !n->e->put)
		return (n->e->mode & 0200) ? -EPERM : -EACCES;
	if (n->e->open)
		return n->e->open(n, f);
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	f->ops = &gen_fops;
	f->priv = g;
	if (n->e->put_opener && current) {
		g->opener = current->proc->cred;
		g->opener.groups = NULL;
		g->opener.ngroups = 0;
		cred_get_ns(&g->opener);
		g->has_opener = true;
	}
	ret = n->e->gen_at_read ? 0 : generate(f);
	if (ret < 0) {
		gen_release(f);
		f->priv = NULL;
		return ret == -ESRCH && !n->e->mem_open ? -ENOENT : ret;
	}
	return 0;
}

static const struct inode_ops file_iops = {
	.getattr = node_getattr,
	.setattr = node_setattr,
	.open = file_open,
	.statfs = node_statfs,
	.release = node_release,
};

/* Plain symlinks (self, thread-self, mounts). */

static long put_link(struct sbuf *b, char *buf, size_t n)
{
	size_t len;

	if (b->oom) {
		free(b->buf);
		return -ENOMEM;
	}
	len = b->len < n ? b->len : n;
	if (len)
		memcpy(buf, b->buf, len);
	free(b->buf);
	return (long)len;
}

static long link_readlink(struct inode *ino, char *buf, size_t n)
{
	const struct pnode *pn = ino->priv;
	struct sbuf b = { 0 };
	int ret;

	if (!node_alive(pn))
		return -ENOENT;
	ret = pn->e->target(pn, &b);
	if (ret < 0) {
		free(b.buf);
		return ret;
	}
	return put_link(&b, buf, n);
}

static const struct inode_ops link_iops = {
	.readlink = link_readlink,
	.getattr = node_getattr,
	.setattr = node_setattr,
	.statfs = node_statfs,
	.release = node_release,
};

/* Magic links. */

static bool is_proxy(const struct file *f)
{
	return f->inode && f->inode->iop == &proxy_iops;
}

int procfs_file_name(struct file *f, struct sbuf *b)
{
	struct linux_stat st;
	char *s;

	/* Opened through a proxy: the name of the file it shares. */
	while (is_proxy(f))
		f = f->inode->priv;
	if (nsfs_ns(f)) {
		char name[32];

		nsfs_name(nsfs_ns(f), name, sizeof(name));
		sb_printf(b, "%s", name);
		return 0;
	}
	if (f->path.dentry && current && current->fs) {
		s = path_name_d(&f->path, &current->fs->root);
		if (!s)
			return -ENAMETOOLONG; /* past a page: Linux's d_path */
		sb_printf(b, "%s", s);
		free(s);
		return 0;
	}
	memset(&st, 0, sizeof(st));
	if (f->ops->stat && f->ops->stat(f, &st) == 0) {
		if (LINUX_S_ISFIFO(st.st_mode)) {
			sb_printf(b, "pipe:[%llu]", (unsigned long long)st.st_ino);
			return 0;
		}
		if (LINUX_S_ISSOCK(st.st_mode)) {
			sb_printf(b, "socket:[%llu]", (unsigned long long)st.st_ino);
			return 0;
		}
	}
	if (f->host_fd >= 0) {
		s = host_fd_path(f->host_fd);
		if (s) {
			sb_printf(b, "%s", s);
			free(s);
			return 0;
		}
	}
	sb_printf(b, "anon_inode:%s", f->ops->anon_name ? f->ops->anon_name : "[unknown]");
	return 0;
}

static int magic_get_link_path(struct inode *ino, struct task *t, void *out)
{
	const struct pnode *n = ino->priv;
	struct process *p;
	struct file *f;
	int ret;

	if (!node_alive(n))
		return -ENOENT;
	p = procfs_process(n);
	if (!procfs_may_access(t, p))
		return -EACCES;
	if (n->e != &procfs_fd_entry)
		return n->e->link(n, t, out);
	f = procfs_fd_file(n);
	if (!f)
		return -ENOENT;
	if (f->path.dentry) {
		*(struct path *)out = f->path;
		path_get(&f->path);
		ret = 0;
	} else {
		ret = procfs_proxy_path(f, out);
	}
	file_put(f);
	return ret;
	return 0;
}

static long magic_readlink(struct inode *ino, char *buf, size_t n)
{
	const struct pnode *pn = ino->priv;
	struct sbuf b = { 0 };
	struct process *p;
	struct path path;
	struct file *f;
	char *s;
	int ret;

	if (!node_alive(pn) || !current)
		return -ENOENT;
	p = procfs_process(pn);
	if (!procfs_may_access(current, p))
		return -EACCES;
	if (pn->e == &procfs_fd_entry) {
		f = procfs_fd_file(pn);
		if (!f)
			return -ENOENT;
		ret = procfs_file_name(f, &b);
		file_put(f);
		if (ret < 0) {
			free(b.buf);
			return ret;
		}
		return put_link(&b, buf, n);
	}
	if (pn->e->target) { /* a name that is no path (/proc/PID/ns) */
		ret = pn->e->target(pn, &b);
		if (ret < 0) {
			free(b.buf);
			return ret;
		}
		return put_link(&b, buf, n);
	}
	ret = pn->e->link(pn, current, &path);
	if (ret < 0)
		return ret;
	s = path_name_d(&path, &current->fs->root);
	path_put(&path);
	if (!s)
		return -ENAMETOOLONG; /* past a page: Linux's d_path */
	sb_printf(&b, "%s", s);
	free(s);
	return put_link(&b, buf, n);
}

static const struct inode_ops magic_iops = {
	.readlink = magic_readlink,
	.getattr = node_getattr,
	.setattr = node_setattr,
	.statfs = node_statfs,
	.get_link_path = magic_get_link_path,
	.release = node_release,
};

/* Proxies: opening /proc/PID/fd/N of a file with no path shares that
 * file (Linux opens its inode anew; here the new open file forwards to
 * the old one, so they share flags and position: host stdio, say). A
 * pipe of ours is opened anew, and an anonymous inode is ENXIO, as in
 * Linux; a socket is ENXIO by its type. */

static struct file *orig_of(struct file *f)
{
	return f->priv;
}

static long px_read(struct file *f, void *buf, size_t n)
{
	return file_op_read(orig_of(f), buf, n);
}

/* The proxy's own O_APPEND (at open, or by F_SETFL): a write to a regular
 * file lands at its end, through pwrite, so that neither the original's
 * offset nor its host description (maybe shared with the user's shell)
 * changes. Differs from Linux: the proxy's position does not move to the
 * end, and another writer between the size and the write can interleave. */
static long px_write(struct file *f, const void *buf, size_t n)
{
	struct file *o = orig_of(f);
	struct linux_stat st;

	if ((f->flags & LINUX_O_APPEND) && !(o->flags & LINUX_O_APPEND) && o->ops->pwrite &&
	    file_stat(o, &st) == 0 && LINUX_S_ISREG(st.st_mode))
		return o->ops->pwrite(o, buf, n, (int64_t)st.st_size);
	return file_op_write(o, buf, n);
}

static long px_pread(struct file *f, void *buf, size_t n, int64_t off)
{
	return file_op_pread(orig_of(f), buf, n, off);
}

static long px_pwrite(struct file *f, const void *buf, size_t n, int64_t off)
{
	return file_op_pwrite(orig_of(f), buf, n, off);
}

static int64_t px_llseek(struct file *f, int64_t off, int whence)
{
	return file_op_llseek(orig_of(f), off, whence);
}

static int px_stat(struct file *f, struct linux_stat *st)
{
	return file_stat(orig_of(f), st);
}

static long px_ioctl(struct file *f, struct task *t, unsigned cmd, uint64_t arg)
{
	return file_op_ioctl(orig_of(f), t, cmd, arg);
}

static unsigned px_poll(struct file *f, struct poll_table *pt)
{
	return file_op_poll(orig_of(f), pt);
}

static int px_mmap_fd(struct file *f)
{
	return file_op_mmap_fd(orig_of(f));
}

/* An original that maps another file (an overlay file's real one): the
 * mapping holds that one, as it would through the original. */
static struct file *px_mmap_file(struct file *f)
{
	struct file *o = orig_of(f);

	return o->ops->mmap_file ? o->ops->mmap_file(o) : f;
}

/* A mapping through the proxy maps the original's data: its file counts
 * the mappings (tmpfs: a mapped file counts its whole size). */
static void px_vma_open(struct file *f, uint64_t bytes)
{
	struct file *o = orig_of(f);

	if (o->ops->vma_open)
		o->ops->vma_open(o, bytes);
}

static void px_vma_close(struct file *f, uint64_t bytes)
{
	struct file *o = orig_of(f);

	if (o->ops->vma_close)
		o->ops->vma_close(o, bytes);
}

static void px_release(struct file *f)
{
	file_put(orig_of(f));
}

static const struct file_ops proxy_fops = {
	.read = px_read,
	.write = px_write,
	.pread = px_pread,
	.pwrite = px_pwrite,
	.llseek = px_llseek,
	.stat = px_stat,
	.ioctl = px_ioctl,
	.poll = px_poll,
	.mmap_fd = px_mmap_fd,
	.mmap_file = px_mmap_file,
	.vma_open = px_vma_open,
	.vma_close = px_vma_close,
	.release = px_release,
};

static int proxy_getattr(struct inode *ino, struct linux_stat *st)
{
	return file_stat(ino->priv, st);
}

static int proxy_open(struct inode *ino, struct file *f)
{
	struct file *o = ino->priv;

	/* An anonymous inode's file (eventfd, epoll, ...) cannot be opened
	 * anew: Linux's no_open. A pipe is, as Linux's fifo_open of its
	 * inode: a reader or writer more with its own flags. */
	if (o->ops->anon_name)
		return -ENXIO;
	if (file_is_pipe(o))
		return pipe_reopen(o, f);
	file_get(o);
	f->ops = &proxy_fops;
	f->priv = o;
	return 0;
}

static void proxy_release(struct inode *ino)
{
	file_put(ino->priv);
}

static const struct inode_ops proxy_iops = {
	.getattr = proxy_getattr,
	.setattr = node_setattr,
	.open = proxy_open,
	.release = proxy_release,
};

int procfs_proxy_path(struct file *f, struct path *out)
{
	static uint64_t next_ino = 1ULL << 62;
	struct mount *m = procfs_mount_of();
	struct linux_stat st;
	uint32_t type = LINUX_S_IFREG;
	struct sbuf name = { 0 };
	struct inode *ino;
	struct dentry *d;

	if (!m)
		return -ENOENT;
	memset(&st, 0, sizeof(st));
	if (file_stat(f, &st) == 0) {
		if (LINUX_S_ISFIFO(st.st_mode))
			type = LINUX_S_IFIFO;
		else if (LINUX_S_ISSOCK(st.st_mode))
			type = LINUX_S_IFSOCK; /* ENXIO, as Linux */
	}
	(void)procfs_file_name(f, &name); /* a name too long: none */
	if (name.oom) {
		free(name.buf);
		return -ENOMEM;
	}
	ino = inode_new(&proc_sb, next_ino++, type | 0600, &proxy_iops, f);
	if (!ino) {
		free(name.buf);
		return -ENOMEM;
	}
	file_get(f);
	d = dentry_new(name.buf ? name.buf : "anon", NULL, ino);
	inode_put(ino);
	free(name.buf);
	if (!d)
		return -ENOMEM;
	out->mnt = mnt_get(m);
	out->dentry = d;
	return 0;
}

/* The sysctl files (/proc/sys/...) refuse opening for writing. */

static bool in_table(const struct pentry *e, const struct pentry *table)
{
	const struct pentry *c;

	for (c = table; c && c->name; c++) {
		if (c == e)
			return true;
		if (c->children && c->dyn == 0 && in_table(e, c->children))
			return true;
	}
	return false;
}

static bool is_sysctl(const struct pentry *e)
{
	return in_table(e, procfs_sys_children);
}

/* Mounting. */

int procfs_mount(struct super_block **sb, struct inode **root)
{
	/* the mounter's pid namespace, as Linux's proc_fill_super */
	struct pnode n = { .e = &procfs_root_entry,
			   .fd = -1,
			   .ns = current ? task_pid_ns(current) : &init_pid_ns };

	if (!proc_sb_ready) {
		proc_sb.fstype = "proc";
		proc_sb.dev = vfs_anon_dev();
		proc_sb.magic = LINUX_PROC_SUPER_MAGIC;
		proc_sb.no_fsize = true;
		procfs_boot_mono_ns = host_clock_ns(LINUX_CLOCK_MONOTONIC);
		procfs_boot_real_ns = host_clock_ns(LINUX_CLOCK_REALTIME);
		proc_sb_ready = true;
	}
	*root = node_inode(&n, ino_of(&n));
	if (!*root)
		return -ENOMEM;
	*sb = &proc_sb;
	return 0;
}

__attribute__((constructor)) static void procfs_register(void)
{
	procfs_mount_hook = procfs_mount;
}
