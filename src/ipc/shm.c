/* ipc/shm.c: System V shared memory. A segment's pages are one memfd,
 * mapped MAP_SHARED by mm/ like a tmpfs file. Each shmat makes a struct
 * file for the attachment; mm/ tells it of every VMA that maps it (mmap,
 * fork, a split by mprotect or munmap) and of every one that goes (munmap,
 * shmdt, exec, exit), as Linux's shm_open/shm_close, which keep
 * shm_nattch, shm_lpid, shm_atime and shm_dtime. A removed segment
 * (SHM_DEST, key IPC_PRIVATE) lives until its last VMA goes.
 * Differs from Linux: SHM_HUGETLB is ENOMEM (no huge pages, as on a host
 * without a pool); shm_rss counts every page resident and shm_swp none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipc/ipc.h"
#include "mm/commit.h"
#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "mm/mm.h"
#include "mm/mempolicy.h"
#include "mm/usercopy.h"
#include "vfs/file.h"
#include "host/host.h"
#include "platform/platform.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/mman.h"
#include "abi/linux/stat.h"

struct shm_seg {
	struct kern_ipc_perm perm; /* first: the table holds &perm */
	uint64_t size;
	int32_t name_key; /* its key at creation, its name's ("/SYSV%08x") */
	int memfd;	  /* the pages, PAGE_ALIGN(size) long */
	int64_t atime, dtime, ctime;
	int cpid, lpid;
	uint64_t nattch;	     /* VMAs mapping it */
	int nfiles;		     /* attachment files still alive */
	bool removed;		     /* out of the table: freed with its last file */
	struct shared_policy policy; /* mbind's NUMA policies (mm/mempolicy.h) */
};

static const struct file_ops shm_file_ops;

static struct shm_seg *seg_of(struct kern_ipc_perm *p)
{
	return (struct shm_seg *)p;
}

static void seg_maybe_free(struct shm_seg *s)
{
	if (!s->removed || s->nfiles > 0)
		return;
	mem_account(-(int64_t)PAGE_ALIGN(s->size)); /* --memory: counted once */
	host_close(s->memfd);
	mpol_shared_free(&s->policy);
	free(s);
}

/* Out of the table now; the memory goes with the last attachment file. */
static void seg_destroy(struct shm_seg *s)
{
	ipc_remove(&s->perm.ns->shm_ids, &s->perm);
	s->perm.ns->shm_tot -= PAGE_ALIGN(s->size) / PAGE_SIZE;
	s->removed = true;
	seg_maybe_free(s);
}

static void shm_vma_open(struct file *f, uint64_t bytes)
{
	struct shm_seg *s = f->priv;

	(void)bytes; /* the segment counts attaches, not bytes */
	s->nattch++;
	s->atime = ipc_now();
	s->lpid = ipc_pid(current);
}

static void shm_vma_close(struct file *f, uint64_t bytes)
{
	struct shm_seg *s = f->priv;

	(void)bytes; /* the segment counts attaches, not bytes */
	s->nattch--;
	s->dtime = ipc_now();
	s->lpid = ipc_pid(current);
	if (s->nattch == 0 && (s->perm.mode & LINUX_SHM_DEST) && !s->removed)
		seg_destroy(s);
}

static void shm_file_release(struct file *f)
{
	struct shm_seg *s = f->priv;

	struct ipc_ns *ns = s->perm.ns;

	s->nfiles--;
	seg_maybe_free(s);
	ns_put(&ns->ns); /* last: its end removes what is left in it */
}

static int shm_file_mmap_fd(struct file *f)
{
	struct shm_seg *s = f->priv;

	return s->removed ? -EIDRM : s->memfd;
}

static int shm_file_stat(struct file *f, struct linux_stat *st)
{
	struct shm_seg *s = f->priv;

	memset(st, 0, sizeof(*st));
	st->st_mode = LINUX_S_IFREG | (s->perm.mode & 0777);
	st->st_nlink = 1;
	st->st_ino = (uint64_t)s->perm.id;
	st->st_size = (int64_t)s->size;
	st->st_blksize = PAGE_SIZE;
	st->st_uid = s->perm.uid;
	st->st_gid = s->perm.gid;
	return 0;
}

/* As Linux's shm file, named by its key at creation and unlinked from
 * its internal mount at once. */
static char *shm_file_maps_name(struct file *f)
{
	struct shm_seg *s = f->priv;
	char *name = malloc(32);

	if (name)
		snprintf(name, 32, "/SYSV%08x (deleted)", (unsigned)s->name_key);
	return name;
}

static struct shared_policy *shm_file_shared_policy(struct file *f)
{
	return &((struct shm_seg *)f->priv)->policy;
}

static const struct file_ops shm_file_ops = {
	.shared_policy = shm_file_shared_policy,
	.stat = shm_file_stat,
	.maps_name = shm_file_maps_name,
	.mmap_fd = shm_file_mmap_fd,
	.release = shm_file_release,
	.vma_open = shm_vma_open,
	.vma_close = shm_vma_close,
};

/* shmget */

static int shm_create(struct task *t, int32_t key, int flg, void *arg)
{
	uint64_t size = *(uint64_t *)arg, npages = PAGE_ALIGN(size) / PAGE_SIZE;
	struct ipc_ns *ns = ipc_ns_of(t);
	uint64_t tot = ns->shm_tot;
	struct shm_seg *s;
	int ret;

	if (size < LINUX_SHMMIN || size > ns->shm_ctlmax)
		return -EINVAL;
	if (npages == 0 || tot + npages < tot || tot + npages > ns->shm_ctlall)
		return -ENOSPC;
	if (flg & LINUX_SHM_HUGETLB)
		return -ENOMEM;
	/* Its pages count against --memory once, until it is freed (as
	 * Linux's strict overcommit accounts a segment at shmget). */
	if (!mem_fits(npages * PAGE_SIZE))
		return -ENOMEM;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->memfd = host_memfd("skas-sysv-shm");
	if (s->memfd < 0) {
		ret = -ENOMEM;
		goto out_free;
	}
	ret = host_ftruncate(s->memfd, npages * PAGE_SIZE);
	if (ret < 0) {
		ret = ret == -EFBIG || ret == -EINVAL ? -EINVAL : -ENOMEM;
		goto out_close;
	}
	s->size = size;
	s->name_key = key;
	s->cpid = ipc_pid(t);
	s->ctime = ipc_now();
	ret = ipc_add(&ipc_ns_of(t)->shm_ids, &s->perm, t, key, flg);
	if (ret < 0)
		goto out_close;
	ipc_ns_of(t)->shm_tot += npages;
	mem_account((int64_t)(npages * PAGE_SIZE));
	return ret;
out_close:
	host_close(s->memfd);
out_free:
	free(s);
	return ret;
}

static int shm_more_checks(struct kern_ipc_perm *p, void *arg)
{
	return seg_of(p)->size < *(uint64_t *)arg ? -EINVAL : 0;
}

static const struct ipc_ops shm_ops = { .create = shm_create, .more_checks = shm_more_checks };

long sys_shmget(struct task *t, const struct sysargs *a)
{
	uint64_t size = sysarg_size(a, 1);

	return ipc_get(t, &ipc_ns_of(t)->shm_ids, (int32_t)sysarg_int(a, 0), sysarg_int(a, 2),
		       &shm_ops, &size);
}

/* shmat */

static long do_shmat(struct task *t, int shmid, uaddr_t addr, int flg)
{
	struct mm *mm = t->mm;
	struct kern_ipc_perm *p;
	struct shm_seg *s;
	struct file *f;
	int prot, acc, ret;
	uint64_t len;
	unsigned vflags = VMA_SHARED;
	bool fixed = false;

	if (shmid < 0)
		return -EINVAL;
	if (addr) {
		fixed = true;
		if (addr & (LINUX_SHMLBA - 1)) {
			if (!(flg & LINUX_SHM_RND))
				return -EINVAL;
			addr &= ~(uaddr_t)(LINUX_SHMLBA - 1);
			if (!addr && (flg & LINUX_SHM_REMAP))
				return -EINVAL;
		}
	} else if (flg & LINUX_SHM_REMAP) {
		return -EINVAL;
	}
	if (flg & LINUX_SHM_RDONLY) {
		prot = LINUX_PROT_READ;
		acc = 0444;
	} else {
		prot = LINUX_PROT_READ | LINUX_PROT_WRITE;
		acc = 0666;
		vflags |= VMA_MAYWRITE;
	}
	if (flg & LINUX_SHM_EXEC) {
		prot |= LINUX_PROT_EXEC;
		acc |= 0111;
	}
	p = ipc_lookup(&ipc_ns_of(t)->shm_ids, shmid);
	if (!p)
		return -EINVAL;
	ret = ipc_perms(t, p, acc);
	if (ret < 0)
		return ret;
	s = seg_of(p);
	len = PAGE_ALIGN(s->size);
	if (fixed) {
		/* Differs from Linux: like skas's mmap, never below
		 * MMAP_MIN_ADDR, even for root with CAP_SYS_RAWIO. */
		if (addr < MMAP_MIN_ADDR)
			return -EPERM;
		if (len > TASK_SIZE || addr > TASK_SIZE - len)
			return -ENOMEM;
		if (!(flg & LINUX_SHM_REMAP) && mm_range_used(mm, addr, addr + len))
			return -EINVAL;
	} else {
		long r = mm_unmapped_area(mm, 0, len);

		if (r < 0)
			return r;
		addr = (uaddr_t)r;
	}
	f = file_alloc(&shm_file_ops, (flg & LINUX_SHM_RDONLY) ? LINUX_O_RDONLY : LINUX_O_RDWR, -1,
		       NULL);
	if (!f)
		return file_alloc_error(); /* ENFILE at the file cap, as Linux's */
	f->priv = s;
	s->nfiles++;
	ns_get(&s->perm.ns->ns); /* an attachment keeps its namespace */
	/* Differs from Linux: mlockall(MCL_FUTURE) locks the segment, but
	 * RLIMIT_MEMLOCK is not checked here (do_mmap's EAGAIN). */
	ret = mm_deny_write_exec(mm, prot, prot)
		      ? -EACCES
		      : mm_map(mm, addr, len, prot, vflags | mm->def_lock, f, 0);
	if (ret == 0)
		ret = platform->mm_flush(mm->pf);
	file_put(f); /* the VMA holds it now, or nobody */
	if (ret < 0)
		return ret == -EACCES || ret == -EPERM ? ret : -ENOMEM; /* EPERM: sealed */
	return (long)addr;
}

long sys_shmat(struct task *t, const struct sysargs *a)
{
	return do_shmat(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_int(a, 2));
}

static bool is_attach_at(struct vma *v, uaddr_t addr)
{
	return v->file && v->file->ops == &shm_file_ops && v->start >= addr &&
	       v->start - addr == v->off;
}

long sys_shmdt(struct task *t, const struct sysargs *a)
{
	struct mm *mm = t->mm;
	uaddr_t addr = sysarg_uaddr(a, 0), end;
	struct vma *v;
	struct file *f;

	if (addr & (PAGE_SIZE - 1))
		return -EINVAL;
	for (v = mm_find_vma(mm, addr); v; v = mm_find_vma(mm, v->end))
		if (is_attach_at(v, addr))
			break;
	if (!v)
		return -EINVAL;
	f = v->file;
	file_get(f);
	end = addr + PAGE_ALIGN(((struct shm_seg *)f->priv)->size);
	/* Linux unmaps the VMAs of this attachment that lie in the segment's
	 * size from addr, each at its own offset. */
	while (v && v->end <= end) {
		uaddr_t next = v->end;

		/* One that is sealed (mseal) stays; the rest go, as Linux. */
		if (v->file == f && v->start - addr == v->off)
			mm_unmap(mm, v->start, v->end - v->start);
		v = mm_find_vma(mm, next);
	}
	file_put(f);
	return 0;
}

/* shmctl */

static void seg_to_user(struct shm_seg *s, struct linux_shmid64_ds *ds)
{
	memset(ds, 0, sizeof(*ds));
	ipc_perm_to_user(&s->perm, &ds->shm_perm);
	ds->shm_segsz = s->size;
	ds->shm_atime = s->atime;
	ds->shm_dtime = s->dtime;
	ds->shm_ctime = s->ctime;
	ds->shm_cpid = pid_vnr(current, s->cpid);
	ds->shm_lpid = pid_vnr(current, s->lpid);
	ds->shm_nattch = s->nattch;
}

static long shm_info(struct task *t, int cmd, uaddr_t buf)
{
	struct ipc_ns *ns = ipc_ns_of(t);
	int maxidx = ns->shm_ids.max_idx < 0 ? 0 : ns->shm_ids.max_idx;

	if (cmd == LINUX_IPC_INFO) {
		struct linux_shminfo64 si = {
			.shmmax = ns->shm_ctlmax,
			.shmmin = LINUX_SHMMIN,
			.shmmni = (uint64_t)ns->shm_ids.mni,
			.shmseg = LINUX_SHMMNI, /* Linux's SHMSEG */
			.shmall = ns->shm_ctlall,
		};

		if (copy_to_user(t->mm, buf, &si, sizeof(si)) < 0)
			return -EFAULT;
	} else {
		struct linux_shm_info si = {
			.used_ids = ns->shm_ids.in_use,
			.shm_tot = ns->shm_tot,
			.shm_rss = ns->shm_tot,
		};

		if (copy_to_user(t->mm, buf, &si, sizeof(si)) < 0)
			return -EFAULT;
	}
	return maxidx;
}

static long shm_stat(struct task *t, int shmid, int cmd, uaddr_t buf)
{
	struct linux_shmid64_ds ds;
	struct kern_ipc_perm *p;
	int ret;

	p = ipc_stat_lookup(&ipc_ns_of(t)->shm_ids, t, shmid, cmd == LINUX_IPC_STAT,
			    cmd == LINUX_SHM_STAT_ANY, &ret);
	if (!p)
		return ret;
	seg_to_user(seg_of(p), &ds);
	if (copy_to_user(t->mm, buf, &ds, sizeof(ds)) < 0)
		return -EFAULT;
	return cmd == LINUX_IPC_STAT ? 0 : p->id;
}

static long shm_set_rmid(struct task *t, int shmid, int cmd, uaddr_t buf)
{
	struct linux_shmid64_ds ds;
	struct kern_ipc_perm *p;
	struct shm_seg *s;
	int ret;

	if (cmd == LINUX_IPC_SET && copy_from_user(t->mm, &ds, buf, sizeof(ds)) < 0)
		return -EFAULT;
	p = ipc_lookup(&ipc_ns_of(t)->shm_ids, shmid);
	if (!p)
		return -EINVAL;
	ret = ipc_owner_check(t, p);
	if (ret < 0)
		return ret;
	s = seg_of(p);
	if (cmd == LINUX_IPC_SET) {
		ret = ipc_perm_set(p, &ds.shm_perm);
		if (ret == 0)
			s->ctime = ipc_now();
		return ret;
	}
	if (s->nattch == 0) {
		seg_destroy(s);
		return 0;
	}
	p->mode |= LINUX_SHM_DEST;
	p->key = LINUX_IPC_PRIVATE;
	return 0;
}

/* SHM_LOCK/SHM_UNLOCK only set the flag: the host decides about paging. */
static long shm_lock(struct task *t, int shmid, int cmd)
{
	const struct cred *c = &t->proc->cred;
	struct kern_ipc_perm *p = ipc_lookup(&ipc_ns_of(t)->shm_ids, shmid);

	if (!p)
		return -EINVAL;
	if (!capable(c, CAP_IPC_LOCK)) {
		if (c->euid != p->uid && c->euid != p->cuid)
			return -EPERM;
		if (cmd == LINUX_SHM_LOCK && t->proc->rlim[LINUX_RLIMIT_MEMLOCK].rlim_cur == 0)
			return -EPERM;
	}
	if (cmd == LINUX_SHM_LOCK)
		p->mode |= LINUX_SHM_LOCKED;
	else
		p->mode &= ~(unsigned)LINUX_SHM_LOCKED;
	return 0;
}

long sys_shmctl(struct task *t, const struct sysargs *a)
{
	int shmid = sysarg_int(a, 0), cmd = sysarg_int(a, 1);
	uaddr_t buf = sysarg_uaddr(a, 2);

	if (cmd < 0 || shmid < 0)
		return -EINVAL;
	switch (cmd) {
	case LINUX_IPC_INFO:
	case LINUX_SHM_INFO:
		return shm_info(t, cmd, buf);
	case LINUX_IPC_STAT:
	case LINUX_SHM_STAT:
	case LINUX_SHM_STAT_ANY:
		return shm_stat(t, shmid, cmd, buf);
	case LINUX_IPC_SET:
	case LINUX_IPC_RMID:
		return shm_set_rmid(t, shmid, cmd, buf);
	case LINUX_SHM_LOCK:
	case LINUX_SHM_UNLOCK:
		return shm_lock(t, shmid, cmd);
	default:
		return -EINVAL;
	}
}

void shm_proc_show(ipc_emit_fn emit, void *arg)
{
	struct ipc_ns *ns = ipc_ns_of(current);
	char line[256];

	emit(arg,
	     "       key      shmid perms                  size  cpid  lpid nattch   uid   gid  "
	     "cuid  cgid      atime      dtime      ctime                   rss                  "
	     "swap\n");
	for (int i = 0; i <= ns->shm_ids.max_idx; i++) {
		struct linux_ipc64_perm u;
		struct kern_ipc_perm *p = ipc_at(&ns->shm_ids, i);
		struct shm_seg *s;

		if (!p)
			continue;
		ipc_perm_to_user(p, &u); /* the reader's ids */
		s = seg_of(p);
		snprintf(
			line, sizeof(line),
			"%10d %10d  %4o %21llu %5d %5d  %5llu %5u %5u %5u %5u %10lld %10lld %10lld "
			"%21llu %21llu\n",
			p->key, p->id, p->mode, (unsigned long long)s->size,
			pid_vnr(current, s->cpid), pid_vnr(current, s->lpid),
			(unsigned long long)s->nattch, u.uid, u.gid, u.cuid, u.cgid,
			(long long)s->atime, (long long)s->dtime, (long long)s->ctime,
			(unsigned long long)PAGE_ALIGN(s->size), 0ULL);
		emit(arg, line);
	}
}

/* The namespace's end: no attachment holds it any more (each holds a
 * reference), so every segment left goes now. */
void shm_exit_ns(struct ipc_ns *ns)
{
	for (int i = 0; i <= ns->shm_ids.max_idx; i++) {
		struct kern_ipc_perm *p = ipc_at(&ns->shm_ids, i);

		if (p)
			seg_destroy(seg_of(p));
	}
}
