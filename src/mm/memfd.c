/* mm/memfd.c: memfd_create(2) and file seals, as Linux's mm/memfd.c. A
 * memfd is an unnamed regular file on shm_mnt, the kernel's own tmpfs
 * (its data in kernel pages until it is mapped, then in a host memfd, as
 * every tmpfs file's, counted as theirs against --memory and the tmpfs
 * size); its name in /proc/PID/fd and maps is
 * "/memfd:NAME (deleted)". Seals live in the tmpfs inode, which enforces
 * them on writes, truncation and fallocate; mmap asks here. */
#include <stdio.h>

#include "mm/memfd.h"
#include "mm/mm.h"
#include "mm/usercopy.h"
#include "fs/tmpfs/tmpfs.h"
#include "kernel/task.h"
#include "syscalls/dispatch.h"
#include "vfs/devices.h"
#include "vfs/file.h"
#include "vfs/mount.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/mman.h"

#define MFD_NAME_MAX 249 /* NAME_MAX less "memfd:" */
#define MFD_ALL                                                                                    \
	(LINUX_MFD_CLOEXEC | LINUX_MFD_ALLOW_SEALING | LINUX_MFD_HUGETLB | LINUX_MFD_NOEXEC_SEAL | \
	 LINUX_MFD_EXEC)
#define SEALS_ALL                                                                           \
	(LINUX_F_SEAL_SEAL | LINUX_F_SEAL_SHRINK | LINUX_F_SEAL_GROW | LINUX_F_SEAL_WRITE | \
	 LINUX_F_SEAL_FUTURE_WRITE | LINUX_F_SEAL_EXEC)

/* A new memfd file named name, open for reading and writing: mode 0777
 * (0666 with MFD_NOEXEC_SEAL), owned by t's fsuid and fsgid, no umask. */
static int memfd_file(struct task *t, const char *name, unsigned flags, struct file **out)
{
	struct inode *root, *ino;
	char tag[sizeof("memfd:") + MFD_NAME_MAX + sizeof(" (deleted)")];
	struct path p;
	struct file *f;
	unsigned *seals;
	int ret;

	if (!shm_mnt)
		return -ENOMEM;
	root = shm_mnt->root->inode;
	ret = root->iop->tmpfile(root, (flags & LINUX_MFD_NOEXEC_SEAL) ? 0666 : 0777,
				 &t->proc->cred, false, &ino);
	if (ret < 0)
		return ret;
	snprintf(tag, sizeof(tag), "memfd:%s (deleted)", name);
	p.mnt = mnt_get(shm_mnt);
	p.dentry = dentry_new(tag, shm_mnt->root, ino);
	inode_put(ino);
	if (!p.dentry) {
		mnt_put(p.mnt);
		return -ENOMEM;
	}
	f = file_alloc(NULL, LINUX_O_RDWR | LINUX_O_LARGEFILE, -1, &p);
	path_put(&p);
	if (!f)
		return file_alloc_error();
	ret = f->inode->iop->open(f->inode, f);
	if (ret < 0) {
		f->ops = &path_file_ops;
		file_put(f);
		return ret;
	}
	seals = tmpfs_file_seals(f);
	if (flags & LINUX_MFD_NOEXEC_SEAL)
		*seals = LINUX_F_SEAL_EXEC;
	else if (flags & LINUX_MFD_ALLOW_SEALING)
		*seals = 0;
	*out = f;
	return 0;
}

int memfd_image(struct task *t, const char *name, const void *data, size_t len, struct path *out)
{
	struct file *f;
	int ret = memfd_file(t, name, LINUX_MFD_ALLOW_SEALING, &f);

	if (ret < 0)
		return ret;
	ret = tmpfs_fill(f->inode, data, len);
	if (ret == 0) {
		*tmpfs_file_seals(f) = LINUX_F_SEAL_SEAL | LINUX_F_SEAL_WRITE |
				       LINUX_F_SEAL_SHRINK | LINUX_F_SEAL_GROW;
		*out = f->path;
		path_get(out);
	}
	file_put(f); /* no writer left: the exec's deny of writes can take */
	return ret;
}

/* memfd_create(2), in Linux's order: flags, name, then the file. */
long sys_memfd_create(struct task *t, const struct sysargs *a)
{
	unsigned flags = sysarg_uint(a, 1);
	char name[MFD_NAME_MAX + 1];
	struct file *f = NULL;
	long n;
	int fd;

	if (flags &
	    ~(MFD_ALL |
	      ((flags & LINUX_MFD_HUGETLB) ? LINUX_MFD_HUGE_MASK << LINUX_MFD_HUGE_SHIFT : 0)))
		return -EINVAL;
	if ((flags & LINUX_MFD_EXEC) && (flags & LINUX_MFD_NOEXEC_SEAL))
		return -EINVAL;
	n = strncpy_from_user(t->mm, name, sysarg_uaddr(a, 0), sizeof(name));
	if (n == -ENAMETOOLONG)
		return -EINVAL;
	if (n < 0)
		return n;
	/* Differs from Linux: no hugetlbfs, so no huge-page memfds (Linux
	 * fails them too where it has none: ENOSYS, or ENODEV for a size it
	 * lacks); EINVAL, as for a flag this kernel does not know. */
	if (flags & LINUX_MFD_HUGETLB)
		return -EINVAL;
	n = memfd_file(t, name, flags, &f);
	if (n < 0)
		return n;
	fd = fd_install(t->files, f, 0, flags & LINUX_MFD_CLOEXEC,
			(int)t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur);
	if (fd < 0)
		file_put(f);
	return fd;
}

struct writable_search {
	const struct inode *ino;
	bool found;
};

static void writable_cb(struct process *p, void *arg)
{
	struct writable_search *s = arg;
	struct task *t;

	list_for_each_entry(t, &p->threads, thread_link)
	{
		if (!s->found && t->mm && mm_maps_writable(t->mm, s->ino))
			s->found = true;
	}
}

/* Linux's mapping_deny_writable: does any address space map ino shared
 * with VMA_MAYWRITE? A walk over every process: F_SEAL_WRITE is rare, and
 * no mapping pays for a count. */
static bool mapped_writable(const struct inode *ino)
{
	struct writable_search s = { ino, false };

	for_each_process(writable_cb, &s);
	return s.found;
}

static long add_seals(struct file *f, unsigned seals)
{
	struct linux_stat st;
	unsigned *cur;

	if (!file_writable(f))
		return -EPERM;
	if (seals & ~SEALS_ALL)
		return -EINVAL;
	cur = tmpfs_file_seals(f);
	if (!cur)
		return -EINVAL;
	if (*cur & LINUX_F_SEAL_SEAL)
		return -EPERM;
	/* An executable file sealed against exec is sealed against writes
	 * too: W^X from then on. */
	if ((seals & LINUX_F_SEAL_EXEC) && file_stat(f, &st) == 0 && (st.st_mode & 0111))
		seals |= LINUX_F_SEAL_SHRINK | LINUX_F_SEAL_GROW | SEALS_WRITE;
	if ((seals & LINUX_F_SEAL_WRITE) && !(*cur & LINUX_F_SEAL_WRITE) &&
	    mapped_writable(f->inode))
		return -EBUSY;
	*cur |= seals;
	return 0;
}

long memfd_fcntl(struct file *f, int cmd, unsigned arg)
{
	unsigned *seals;

	if (cmd == LINUX_F_ADD_SEALS)
		return add_seals(f, arg);
	seals = tmpfs_file_seals(f);
	return seals ? (long)*seals : -EINVAL;
}

int memfd_check_seals_mmap(struct file *f, int prot, unsigned *vflags)
{
	unsigned *seals = tmpfs_file_seals(f);

	if (!seals || !(*seals & SEALS_WRITE))
		return 0;
	if (prot & LINUX_PROT_WRITE)
		return -EPERM;
	*vflags &= ~VMA_MAYWRITE;
	return 0;
}
