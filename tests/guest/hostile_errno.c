/* Hostile arguments whose errno skas once got wrong, found by an errno
 * sweep (each call with one argument replaced by a hostile value, native
 * Linux the oracle): O_PATH fds where a real open file is needed (sockets,
 * timerfd, inotify, fgetxattr and flistxattr: EBADF), fchdir to a file
 * (ENOTDIR before the permission check), pwrite to a directory (EBADF,
 * not ESPIPE), readlink of "" (ENOENT), waitid's infop written even on
 * error (EFAULT), mmap's MAP_HUGETLB with a size x86-64 lacks (EINVAL),
 * mremap to or from lengths past the user range (EINVAL),
 * sched_getaffinity of no process (ESRCH) or a length whose bits wrap
 * (EINVAL), fstatat's AT_STATX_* sync flags (accepted), mprotect's prot
 * bits past 31 (EINVAL) and a shrinking mremap of what is not mapped (the
 * tail unmapped, no VMA needed); clone's CLONE_PIDFD with CLONE_DETACHED
 * (EINVAL, no child), clone3's size past a page (E2BIG), mremap to a
 * length past the user range of nothing mapped (EINVAL) and mlock of a
 * PROT_NONE page (ENOMEM: Linux cannot fault it in); a removed directory
 * that is still the cwd (nothing made or listed in it: ENOENT, and no
 * getcwd) and open's O_DIRECTORY | O_CREAT (EINVAL, Linux 6.4 on). Works in a
 * directory made with mkdtemp("/tmp/skashe.XXXXXX"), removed at the end. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#define XMAP_HUGETLB	0x040000
#define XP_ALL		0
#define XAT_FORCE_SYNC	0x2000
#define XAT_DONT_SYNC	0x4000
#define XIN_ALL_EVENTS	0xfff
#define XCLONE_PIDFD	0x1000
#define XCLONE_DETACHED 0x400000

static int n;
static char dir[64];

static const char *ename(long r, int e)
{
	static char buf[32];

	if (r >= 0)
		return "ok";
	switch (e) {
	case EBADF:
		return "EBADF";
	case EINVAL:
		return "EINVAL";
	case ENOENT:
		return "ENOENT";
	case EFAULT:
		return "EFAULT";
	case ENOTDIR:
		return "ENOTDIR";
	case EACCES:
		return "EACCES";
	case ESPIPE:
		return "ESPIPE";
	case ESRCH:
		return "ESRCH";
	case ECHILD:
		return "ECHILD";
	case ENOMEM:
		return "ENOMEM";
	case ENOTSOCK:
		return "ENOTSOCK";
	case ENODATA:
		return "ENODATA";
	case EISDIR:
		return "EISDIR";
	case E2BIG:
		return "E2BIG";
	}
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

/* One check: the call's result (its errno name, or "ok") against want. */
static void expect(const char *what, long r, const char *want)
{
	const char *got = ename(r, errno);

	printf("%s %d - %s: %s\n", strcmp(got, want) ? "not ok" : "ok", ++n, what, got);
}

#define T(what, call, want)               \
	do {                              \
		errno = 0;                \
		expect(what, call, want); \
	} while (0)

int main(void)
{
	char file[96], buf[8192];
	int pfile, pdir, rdir, sv[2];
	struct stat st;
	uint64_t cpus[16];
	void *p, *q;
	int pidfd;
	long r;

	strcpy(dir, "/tmp/skashe.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(file, sizeof(file), "%s/f", dir);
	close(open(file, O_CREAT | O_RDWR, 0600));
	pfile = open(file, O_PATH);
	pdir = open(dir, O_PATH | O_DIRECTORY);
	rdir = open(dir, O_RDONLY | O_DIRECTORY);
	if (pfile < 0 || pdir < 0 || rdir < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return 1;

	/* O_PATH fds: only the path is there, no open file (Linux's fdget) */
	T("send to an O_PATH fd", send(pfile, "x", 1, 0), "EBADF");
	T("listen on an O_PATH fd", listen(pdir, 1), "EBADF");
	T("getsockopt on an O_PATH fd",
	  getsockopt(pfile, SOL_SOCKET, SO_TYPE, buf, &(socklen_t){ 4 }), "EBADF");
	T("timerfd_gettime on an O_PATH fd", syscall(SYS_timerfd_gettime, pfile, buf), "EBADF");
	T("inotify_add_watch on an O_PATH fd",
	  syscall(SYS_inotify_add_watch, pdir, dir, XIN_ALL_EVENTS), "EBADF");
	T("fgetxattr on an O_PATH fd", syscall(SYS_fgetxattr, pfile, "user.x", buf, 8), "EBADF");
	T("flistxattr on an O_PATH fd", syscall(SYS_flistxattr, pfile, buf, 8), "EBADF");
	T("fchdir to an O_PATH file", fchdir(pfile), "ENOTDIR");
	T("fchdir to an O_PATH directory", fchdir(pdir), "ok");
	T("chdir back", chdir("/"), "ok");

	/* a directory is positional: its pwrite is EBADF, its pread EISDIR */
	T("pwrite to a directory", pwrite(rdir, "x", 1, 0), "EBADF");
	T("pwritev to a directory", pwritev(rdir, &(struct iovec){ buf, 1 }, 1, 0), "EBADF");
	T("pread from a directory", pread(rdir, buf, 1, 0), "EISDIR");
	T("pwrite to a socket", pwrite(sv[0], "x", 1, 0), "ESPIPE");

	T("readlink of \"\"", readlink("", buf, sizeof(buf)), "ENOENT");
	T("readlinkat of \"\" at a directory", readlinkat(rdir, "", buf, sizeof(buf)), "ENOENT");
	T("readlinkat of \".\"", readlinkat(rdir, ".", buf, sizeof(buf)), "EINVAL");

	/* waitid writes infop's fields whatever the error */
	T("waitid, no child, NULL infop",
	  syscall(SYS_waitid, XP_ALL, 0, NULL, WNOHANG | WEXITED, NULL), "ECHILD");
	T("waitid, no child, bad infop",
	  syscall(SYS_waitid, XP_ALL, 0, (void *)1, WNOHANG | WEXITED, NULL), "EFAULT");
	T("waitid, bad options, bad infop", syscall(SYS_waitid, XP_ALL, 0, (void *)1, 0, NULL),
	  "EFAULT");

	T("mmap MAP_HUGETLB of size log 63",
	  syscall(SYS_mmap, 0, 4096, PROT_READ,
		  MAP_PRIVATE | MAP_ANONYMOUS | XMAP_HUGETLB | (63U << 26), -1, 0),
	  "EINVAL");
	T("mmap with flags -1", syscall(SYS_mmap, 0, 4096, PROT_READ, -1, -1, 0), "EINVAL");
	/* raw calls: musl's mremap wrapper refuses the lengths itself */
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	T("mprotect with prot 1 << 40", syscall(SYS_mprotect, p, 4096, 1UL << 40), "EINVAL");
	/* a shrink only unmaps the tail, mapped or not (at an address with
	 * nothing else within 2 GiB) */
	q = mmap((void *)0x300000000000UL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		 -1, 0);
	T("mremap shrink from 2^31 bytes",
	  syscall(SYS_mremap, q, 0x80000000UL, 4096, 0, 0) == 0x300000000000L ? 0 : -1, "ok");
	T("mremap from -4096 bytes", syscall(SYS_mremap, p, -4096UL, 4096, 0, 0), "EINVAL");
	T("mremap to -4096 bytes", syscall(SYS_mremap, p, 4096, -4096UL, 0, 0), "EINVAL");

	T("mremap of nothing to 2^48 bytes",
	  syscall(SYS_mremap, 0x310000000000UL, 4096, 1UL << 48, 0, 0), "EINVAL");
	/* mlock faults the range in, which a PROT_NONE page fails */
	q = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	T("mlock of a PROT_NONE page", mlock(q, 4096), "ENOMEM");
	T("mlock2 MLOCK_ONFAULT of it", syscall(SYS_mlock2, q, 4096, 1), "ok");
	munlock(q, 4096);

	/* a child made by mistake leaves at once */
	errno = 0;
	r = syscall(SYS_clone, XCLONE_PIDFD | XCLONE_DETACHED | SIGCHLD, 0, &pidfd, 0, 0);
	if (r == 0)
		_exit(0);
	if (r > 0)
		waitpid(r, NULL, 0);
	expect("clone with CLONE_PIDFD | CLONE_DETACHED", r, "EINVAL");
	memset(buf, 0, sizeof(buf));
	T("clone3 with a size past a page", syscall(SYS_clone3, buf, 8192), "E2BIG");
	{
		/* a tid store that faults is not the clone's failure (Linux's
		 * kernel_clone and schedule_tail ignore it) */
		uint64_t ca[8] = { 0 };
		int k;

		for (k = 0; k < 2; k++) {
			ca[0] = k ? 0x01000000 /* CHILD_SETTID */ : 0x00100000 /* PARENT_SETTID */;
			ca[2] = ca[3] = 0x10; /* child_tid, parent_tid: unmapped */
			ca[4] = SIGCHLD;
			errno = 0;
			r = syscall(SYS_clone3, ca, sizeof(ca));
			if (r == 0)
				_exit(0);
			if (r > 0)
				waitpid(r, NULL, 0);
			expect(k ? "clone3, CLONE_CHILD_SETTID at an unmapped address"
				 : "clone3, CLONE_PARENT_SETTID at an unmapped address",
			       r > 0 ? 0 : -1, "ok");
		}
	}

	T("sched_getaffinity of pid -1", syscall(SYS_sched_getaffinity, -1, sizeof(cpus), cpus),
	  "ESRCH");
	T("sched_getaffinity of no such pid",
	  syscall(SYS_sched_getaffinity, 0x7fffffff, sizeof(cpus), cpus), "ESRCH");
	T("sched_getaffinity of length 2^31",
	  syscall(SYS_sched_getaffinity, 0, 0x80000000UL, cpus) < 0 ? -1 : 0, "EINVAL");
	T("sched_getaffinity of length 2^32 + 128",
	  syscall(SYS_sched_getaffinity, 0, 0x100000080UL, cpus) < 0 ? -1 : 0, "ok");

	T("fstatat AT_STATX_FORCE_SYNC", fstatat(AT_FDCWD, dir, &st, XAT_FORCE_SYNC), "ok");
	T("fstatat AT_STATX_DONT_SYNC", fstatat(AT_FDCWD, dir, &st, XAT_DONT_SYNC), "ok");
	T("fstatat with 0x8000", fstatat(AT_FDCWD, dir, &st, 0x8000), "EINVAL");

	/* a removed directory, still the cwd: nothing is made or listed in
	 * it, and getcwd fails (skas made files there once, which nothing
	 * could reach or free) */
	snprintf(file, sizeof(file), "%s/gone", dir);
	if (mkdir(file, 0700) == 0 && chdir(file) == 0 && rmdir(file) == 0) {
		int dfd = open(".", O_RDONLY | O_DIRECTORY);

		T("creat in a removed cwd", creat("x", 0600), "ENOENT");
		T("mkdir in a removed cwd", mkdir("x", 0700), "ENOENT");
		T("symlink in a removed cwd", symlink("t", "x"), "ENOENT");
		T("mknod in a removed cwd", mknod("x", S_IFIFO | 0600, 0), "ENOENT");
		T("getcwd in a removed cwd", syscall(SYS_getcwd, buf, sizeof(buf)), "ENOENT");
		T("getdents64 of a removed directory",
		  syscall(SYS_getdents64, dfd, buf, sizeof(buf)), "ENOENT");
		T("open O_DIRECTORY | O_CREAT", open("y", O_CREAT | O_DIRECTORY | O_RDWR, 0600),
		  "EINVAL");
		close(dfd);
	}
	if (chdir("/") < 0)
		return 1;
	snprintf(file, sizeof(file), "%s/f", dir);
	unlink(file);
	rmdir(dir);
	return 0;
}
