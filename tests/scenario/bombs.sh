#!/bin/bash
# Bombs held by their limits (issue 9): a memory bomb (malloc, mmap, brk,
# fork) meets --memory with ENOMEM; tmpfs data past --memory wakes the OOM
# killer (SIGKILL and a log line); an fd bomb meets --nofile (EMFILE, and
# ENFILE across processes); a disk-fill bomb meets --tmpfs-size (ENOSPC);
# --cpus N gates guest threads and the CPUs the stubs run on. While each
# bomb runs, a second skas instance runs a command correctly. One TAP line
# per check, then "N passed, M failed".
#
# usage: SKAS=./skas tests/scenario/bombs.sh     (run from anywhere)
set -u

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SKAS=${SKAS:-$root/skas}
. "$root/tests/scenario/common.bash"
cd "$root" || exit 2

scratch bomb
chmod 755 "$tmp"

cat >"$tmp/bomb.c" <<'EOF'
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/xattr.h>

#define MiB (1UL << 20)

static const char *ename(int e)
{
	return e == ENOMEM ? "ENOMEM" : e == EMFILE ? "EMFILE" : e == ENFILE ? "ENFILE"
	       : e == ENOSPC ? "ENOSPC" : e == EAGAIN ? "EAGAIN" : e == ENOLCK ? "ENOLCK" : strerror(e);
}

static volatile int stop;
static long spins[2];

static void *spin(void *arg)
{
	long *n = arg;

	while (!stop)
		(*n)++;
	return NULL;
}

/* Private maps until ENOMEM, then tmpfs files until ENOSPC: less than
 * a KiB of --memory is left. */
static int nfill;

static void fill_limit(void)
{
	char name[64];
	size_t len;
	int fd;

	for (len = 1UL << 30; len >= 4096; len /= 2)
		while (mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) !=
		       MAP_FAILED)
			;
	for (;;) {
		snprintf(name, sizeof(name), "/dev/shm/fill%d", nfill++);
		fd = open(name, O_CREAT | O_WRONLY, 0600);
		if (fd < 0)
			break;
		close(fd);
	}
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	unsigned long mib = 0;
	int fd, i;

	if (strcmp(mode, "mapcount") == 0) {
		/* Only inside skas: the guest's own max_map_count. Maps at the
		 * limit, then an mremap that must split a VMA to move part of
		 * it: ENOMEM, and the kernel goes on. */
		char *p, *q, *last = NULL;
		int n = 0;

		fd = open("/proc/sys/vm/max_map_count", O_WRONLY);
		if (fd < 0 || write(fd, "200\n", 4) != 4)
			return 1;
		close(fd);
		p = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		while ((q = mmap(NULL, 4096, (n & 1) ? PROT_READ : PROT_NONE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) != MAP_FAILED) {
			last = q;
			n++;
		}
		q = mremap(p + 4096, 4096, 8192, MREMAP_MAYMOVE);
		printf("mapcount: mremap %s\n", q == MAP_FAILED ? ename(errno) : "moved");
		/* A fixed map into the middle needs two splits, and one VMA
		 * fewer leaves room for one: ENOMEM, and the page there is
		 * still the old, writable one. */
		if (!last || munmap(last, 4096))
			return 1;
		p[4096] = 7;
		q = mmap(p + 4096, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		if (p[4096] != 7)
			return 1;
		printf("mapcount: fixed mmap %s\n", q == MAP_FAILED ? ename(errno) : "mapped");
		p[4096] = 1;
		p[0] = 1;
		printf("mapcount: still runs\n");
	} else if (strcmp(mode, "malloc") == 0) {
		char *p;

		while ((p = malloc(MiB))) {
			memset(p, 1, MiB);
			mib++;
		}
		printf("malloc: NULL after %s MiB\n", mib < 64 ? "<64" : ">=64");
	} else if (strcmp(mode, "mmap") == 0) {
		void *p;

		while ((p = mmap(NULL, 16 * MiB, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)) != MAP_FAILED)
			mib += 16;
		printf("mmap NORESERVE: %s after %s MiB\n", ename(errno), mib < 64 ? "<64" : ">=64");
		p = mmap(NULL, 16 * MiB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		printf("read-only mmap still works: %s\n", p != MAP_FAILED ? "yes" : ename(errno));
		printf("mprotect to writable: %s\n",
		       mprotect(p, 16 * MiB, PROT_READ | PROT_WRITE) ? ename(errno) : "ok");
	} else if (strcmp(mode, "noreserve") == 0) {
		/* Under vm.overcommit_memory=0 a MAP_NORESERVE mapping is not
		 * committed: what it holds is sampled, and past --memory the
		 * OOM killer ends the writer. */
		size_t len = 1024 * MiB, off;
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		printf("noreserve: 1 GiB mapped: %s\n", p != MAP_FAILED ? "yes" : ename(errno));
		fflush(stdout);
		for (i = 0; p != MAP_FAILED && i < 20; i++)
			for (off = 0; off < len; off += 4096)
				p[off] = (char)i;
		printf("noreserve: wrote 20 GiB into it, not killed\n");
	} else if (strcmp(mode, "brk") == 0) {
		while (sbrk(MiB) != (void *)-1)
			mib++;
		printf("brk: %s after %s MiB\n", ename(errno), mib < 64 ? "<64" : ">=64");
	} else if (strcmp(mode, "fork") == 0) {
		/* 16 MiB each, touched: the parent and two children fit in
		 * 64 MiB, a third child does not. */
		char *p = mmap(NULL, 16 * MiB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);
		pid_t pid[8];

		memset(p, 1, 16 * MiB);
		for (i = 0; i < 8; i++) {
			pid[i] = fork();
			if (pid[i] == 0) {
				pause();
				_exit(0);
			}
			if (pid[i] < 0)
				break;
		}
		printf("fork: %s after %d children\n", ename(errno), i);
		while (i-- > 0)
			kill(pid[i], SIGKILL);
	} else if (strcmp(mode, "shm") == 0) {
		/* Shared memory counts once, however many processes map it. */
		char *p = mmap(NULL, 40 * MiB, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			       -1, 0), *q;
		int st, ok = 0;

		if (p == MAP_FAILED)
			return 1;
		for (i = 0; i < 3; i++) {
			if (fork() == 0) {
				memset(p + i * MiB, i + 1, MiB);
				_exit(0);
			}
		}
		for (i = 0; i < 3; i++)
			if (wait(&st) > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
				ok++;
		printf("shm: 3 children wrote the shared 40 MiB: %s\n",
		       ok == 3 && p[2 * MiB] == 3 ? "yes" : "no");
		q = mmap(NULL, 40 * MiB, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		printf("shm: another 40 MiB: %s\n", q == MAP_FAILED ? ename(errno) : "mapped");
		munmap(p, 40 * MiB);
		q = mmap(NULL, 40 * MiB, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		printf("shm: after munmap: %s\n", q == MAP_FAILED ? ename(errno) : "mapped");
	} else if (strcmp(mode, "sysvshm") == 0) {
		int ids[64], k, id;

		for (i = 0; i < 64; i++) {
			ids[i] = shmget(IPC_PRIVATE, 16 * MiB, IPC_CREAT | 0600);
			if (ids[i] < 0)
				break;
		}
		printf("sysvshm: %s after %ld segments of 16 MiB\n", ename(errno), (long)i);
		for (k = 0; k < i; k++)
			shmctl(ids[k], IPC_RMID, NULL);
		id = shmget(IPC_PRIVATE, 16 * MiB, IPC_CREAT | 0600);
		printf("sysvshm: after IPC_RMID: %s\n", id >= 0 ? "made" : ename(errno));
		shmctl(id, IPC_RMID, NULL);
	} else if (strcmp(mode, "fds") == 0) {
		/* dup makes descriptors without files: RLIMIT_NOFILE stops it. */
		fd = open("/dev/null", O_RDONLY);
		while ((fd = dup(fd)) >= 0)
			i = fd;
		printf("fds: dup: %s, last fd %d\n", ename(errno), i);

	} else if (strcmp(mode, "hostfds") == 0) {
		/* Host files, the rlimit raised as far as it goes: the instance's
		 * default cap stops the bomb before the kernel runs out of host
		 * fds, and everything works again once they are closed. */
		struct rlimit rl = { 1 << 20, 1 << 20 };
		int last = -1;

		setrlimit(RLIMIT_NOFILE, &rl);
		while ((fd = open("/etc/hostname", O_RDONLY)) >= 0)
			last = fd;
		printf("hostfds: %s\n", ename(errno));
		while (last > 2)
			close(last--);
		fd = open("/etc/hostname", O_RDONLY);
		printf("hostfds: after closing: %s\n", fd >= 0 ? "opens again" : ename(errno));
	} else if (strcmp(mode, "mapfds") == 0) {
		/* A host file opened with its own host fd (O_DIRECT), mapped,
		 * closed: the mapping keeps the file, which still counts
		 * against the instance's cap (it once did not: an overlay's
		 * lower file was uncounted, and the bomb took every host fd
		 * of the kernel). */
		for (i = 0; i < 100000; i++) {
			fd = open("/etc/hostname", O_RDONLY | O_DIRECT);
			if (fd < 0)
				break;
			if (mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0) == MAP_FAILED) {
				printf("mapfds: mmap %s\n", ename(errno));
				break;
			}
			close(fd);
		}
		printf("mapfds: %s after %s\n", ename(errno), i < 200 ? "<200" : ">=200");
	} else if (strcmp(mode, "shmfull") == 0) {
		/* At the instance's cap a shmat has no file for its
		 * attachment: ENFILE, as Linux's alloc_file (it said ENOMEM). */
		struct rlimit rl = { 1 << 20, 1 << 20 };
		int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);

		setrlimit(RLIMIT_NOFILE, &rl);
		while (open("/dev/null", O_RDONLY) >= 0)
			;
		printf("shmfull: open %s, ", ename(errno));
		printf("shmat %s\n", shmat(id, NULL, 0) == (void *)-1 ? ename(errno) : "fine");
		shmctl(id, IPC_RMID, NULL);
	} else if (strcmp(mode, "vmas") == 0) {
		/* One-page mappings inside a PROT_NONE region: each makes two
		 * VMAs, so vm.max_map_count (set to 2000) stops it near 1000. */
		char *base = mmap(NULL, 80000 * 2 * 4096UL, PROT_NONE,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		for (i = 0; i < 80000; i++)
			if (mmap(base + i * 2 * 4096UL, 4096, PROT_READ,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
				break;
		printf("vmas: %s after %s maps\n", ename(errno),
		       i > 950 && i < 1000 ? "950-1000" : "another number of");
		munmap(base, 80000 * 2 * 4096UL);
	} else if (strcmp(mode, "inodes") == 0) {
		/* Small tmpfs files, each with a byte of data (a page's worth
		 * of --tmpfs-size, as Linux's shmem counts). */
		char path[64];

		for (i = 0; i < 100000; i++) {
			snprintf(path, sizeof(path), "/tmp/f%d", i);
			fd = open(path, O_CREAT | O_WRONLY, 0644);
			if (fd < 0)
				break;
			if (write(fd, "x", 1) != 1) {
				close(fd);
				break;
			}
			close(fd);
		}
		printf("inodes: %s after %s files\n", ename(errno),
		       i <= 1024 ? "<=1024" : i <= 4096 ? "1025-4096" : ">4096");
		fd = open("/etc/hostname", O_RDONLY);
		printf("inodes: a host file then: %s\n", fd >= 0 ? "opens" : ename(errno));
	} else if (strcmp(mode, "nfile") == 0) {
		/* Two processes share the instance's cap: the child holds files. */
		int p[2];
		char c;

		if (pipe(p) < 0)
			return 1;
		pid_t pid = fork();

		if (pid == 0) {
			int k = 0;

			while (k < 40 && open("/dev/null", O_RDONLY) >= 0)
				k++;
			write(p[1], "x", 1);
			pause();
			_exit(0);
		}
		read(p[0], &c, 1);
		while ((fd = open("/dev/null", O_RDONLY)) >= 0)
			;
		printf("nfile: %s\n", ename(errno));
		kill(pid, SIGKILL);
	} else if (strcmp(mode, "disk") == 0) {
		static char buf[1 << 20];
		ssize_t w;

		fd = open("/tmp/fill", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		while ((w = write(fd, buf, sizeof(buf))) > 0)
			mib++;
		printf("disk: %s after %s MiB\n", ename(errno), mib <= 32 ? "<=32" : ">32");
		close(fd);
		unlink("/tmp/fill");
		fd = open("/tmp/after", O_WRONLY | O_CREAT, 0644);
		printf("after unlink: %s\n", write(fd, buf, 4096) == 4096 ? "writes again" : "no");
	} else if (strcmp(mode, "xattr") == 0) {
		/* extended attributes are kernel memory: counted (ENOSPC) */
		static char val[65536];
		char name[32];

		fd = open("/tmp/xa", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		close(fd);
		for (i = 0; i < 4096; i++) {
			snprintf(name, sizeof(name), "user.%d", i);
			if (setxattr("/tmp/xa", name, val, sizeof(val), 0) != 0)
				break;
		}
		printf("xattr: %s after %s MiB\n", ename(errno), i < 1024 ? "<64" : ">=64");
		printf("xattr: after removing one: %s\n",
		       removexattr("/tmp/xa", "user.0") == 0 &&
				       setxattr("/tmp/xa", "user.0", val, sizeof(val), 0) == 0
			       ? "room again"
			       : ename(errno));
	} else if (strcmp(mode, "pipes") == 0) {
		/* pipe buffers are kernel memory: counted (ENOMEM) */
		static char buf[65536];
		struct rlimit r = { 1 << 16, 1 << 16 };
		int p[2], err = 0;
		ssize_t w;

		setrlimit(RLIMIT_NOFILE, &r);
		for (i = 0; i < 3000 && !err; i++) {
			if (pipe2(p, O_NONBLOCK) != 0)
				break;
			while ((w = write(p[1], buf, sizeof(buf))) > 0)
				mib += (unsigned long)w;
			if (errno != EAGAIN)
				err = errno;
		}
		printf("pipes: %s after %s MiB\n", ename(err ? err : errno),
		       (mib >> 20) < 64 ? "<64" : ">=64");
	} else if (strcmp(mode, "vmamem") == 0) {
		/* VMAs are kernel memory: counted (ENOMEM before the
		 * guest's vm.max_map_count of 65530 under --memory=12M) */
		for (i = 0; i < 70000; i++)
			if (mmap(NULL, 4096, i & 1 ? PROT_READ : PROT_NONE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
				break;
		printf("vmas: %s after %s\n", ename(errno), i < 60000 ? "<60000" : ">=60000");
	} else if (strcmp(mode, "epitems") == 0) {
		/* epoll items are kernel memory: counted (ENOMEM) */
		struct rlimit r = { 1024, 1024 };
		struct epoll_event ev = { .events = EPOLLIN };
		int ep[400], efd[400], j, items = 0, err = 0;

		setrlimit(RLIMIT_NOFILE, &r);
		for (i = 0; i < 400; i++) {
			ep[i] = epoll_create1(0);
			efd[i] = eventfd(0, 0);
		}
		for (i = 0; i < 400 && !err; i++)
			for (j = 0; j < 400 && !err; j++, items++)
				if (epoll_ctl(ep[i], EPOLL_CTL_ADD, efd[j], &ev) != 0)
					err = errno;
		printf("epitems: %s after %s\n", ename(err), items < 160000 ? "<160000" : "160000");
	} else if (strcmp(mode, "locks") == 0) {
		/* record locks are kernel memory: counted (ENOLCK); a lock
		 * on every other byte, none merge */
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 1 };
		char path[32];
		int j, n = 0, err = 0;

		for (i = 0; i < 512 && !err; i++) {
			snprintf(path, sizeof(path), "/tmp/lk%d", i);
			fd = open(path, O_RDWR | O_CREAT, 0644);
			for (j = 0; j < 512 && !err; j++, n++) {
				fl.l_start = 2 * j;
				if (fcntl(fd, F_SETLK, &fl) != 0)
					err = errno;
			}
		}
		printf("locks: %s after %s\n", err ? ename(err) : "none", n < 262144 ? "<262144" : "262144");
	} else if (strcmp(mode, "msgq") == 0) {
		/* queued System V messages are kernel memory: counted
		 * (ENOMEM), each IPC namespace's limits notwithstanding */
		static struct {
			long mtype;
			char text[8192];
		} msg = { 1, { 0 } };
		int ns, k, id, err = 0;
		long queued = 0;

		for (ns = 0; ns < 64 && !err; ns++) {
			/* each namespace kept by an fd of its own */
			if (unshare(CLONE_NEWIPC) != 0 || open("/proc/self/ns/ipc", O_RDONLY) < 0) {
				err = errno;
				break;
			}
			for (k = 0; k < 32 && !err; k++) {
				id = msgget(IPC_PRIVATE, 0600);
				if (id < 0) {
					err = errno;
					break;
				}
				while (msgsnd(id, &msg, sizeof(msg.text), IPC_NOWAIT) == 0)
					queued += sizeof(msg.text);
				if (errno != EAGAIN)
					err = errno;
			}
		}
		printf("msgq: %s after %s MiB\n", ename(err), (queued >> 20) < 32 ? "<32" : ">=32");
	} else if (strcmp(mode, "atlimit") == 0 && argc > 2) {
		/* At --memory's limit (fill_limit before each), what frees or
		 * only moves memory still works and nothing is lost: an
		 * unlock, a munmap that splits, a splice from a file (what it
		 * says it moved is in the pipe), an unlink of a modified lower
		 * file (gone, or kept whole). */
		static char big[65536];
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		char got[16] = "";
		void *mb = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);
		int lk = open("/tmp/lk", O_RDWR | O_CREAT, 0600), src, pp[2], low, inpipe = 0;
		long r;

		memset(big, 'x', sizeof(big));
		src = open("/tmp/src", O_RDWR | O_CREAT, 0600);
		if (write(src, big, sizeof(big)) != sizeof(big) || pipe2(pp, O_NONBLOCK) < 0 ||
		    lseek(src, 0, SEEK_SET) != 0 || fcntl(lk, F_SETLK, &fl) != 0)
			return 1;
		low = open(argv[2], O_WRONLY | O_TRUNC);
		if (low < 0 || write(low, "modified", 8) != 8)
			return 1;
		close(low);
		printf("atlimit:\n"); /* stdout's buffer, before memory runs out */
		fill_limit();
		/* read locks on every other byte of the write-locked file:
		 * each splits it, until the locks' memory runs out */
		fl.l_type = F_RDLCK;
		fl.l_len = 1;
		for (fl.l_start = 0; fl.l_start < (1 << 24) && fcntl(lk, F_SETLK, &fl) == 0;
		     fl.l_start += 2)
			;
		fl.l_type = F_UNLCK;
		fl.l_start = fl.l_len = 0;
		printf("unlock: %s\n", fcntl(lk, F_SETLK, &fl) == 0 ? "ok" : ename(errno));
		fill_limit();
		printf("munmap of a mapping's last page: %s\n",
		       munmap((char *)mb + (1 << 20) - 4096, 4096) == 0 ? "ok" : ename(errno));
		fill_limit();
		r = splice(src, NULL, pp[1], NULL, sizeof(big), SPLICE_F_NONBLOCK);
		ioctl(pp[0], FIONREAD, &inpipe);
		printf("splice: %s\n",
		       lseek(src, 0, SEEK_CUR) == (r < 0 ? 0 : r) && inpipe == (r < 0 ? 0 : r)
			       ? "nothing lost"
			       : "lost data");
		open(argv[2], O_RDONLY); /* held open: its unlink frees no inode */
		fill_limit();
		r = unlink(argv[2]);
		low = open(argv[2], O_RDONLY);
		if (low >= 0 && read(low, got, sizeof(got) - 1) < 0)
			got[0] = 0;
		printf("unlink of a modified lower file: %s\n",
		       (r == 0 && low < 0) || (r < 0 && strcmp(got, "modified") == 0)
			       ? "nothing lost"
			       : "lost the copy");
	} else if (strcmp(mode, "kmem") == 0) {
		/* empty files, second names and fresh tmpfs mounts are kernel
		 * memory too: counted against --memory (ENOSPC), each tmpfs's
		 * inodes as much as the first's */
		char path[300], name[300];
		int files, links, mounts;

		printf("kmem:\n"); /* stdout's buffer, before memory runs out */
		for (files = 0; files < 200000; files++) {
			snprintf(path, sizeof(path), "/tmp/f%0200d", files);
			fd = open(path, O_WRONLY | O_CREAT, 0644);
			if (fd < 0)
				break;
			close(fd);
		}
		printf("files: %s after %s\n", ename(errno), files < 65536 ? "<65536" : ">=65536");
		for (i = 0; i < 16; i++) {
			snprintf(path, sizeof(path), "/tmp/f%0200d", i);
			unlink(path);
		}
		snprintf(path, sizeof(path), "/tmp/f%0200d", 16);
		for (links = 0; links < 200000; links++) {
			snprintf(name, sizeof(name), "/tmp/l%0200d", links);
			if (link(path, name) != 0)
				break;
		}
		printf("links: %s after %s\n", ename(errno), links <= 16 ? "<=16" : ">16");
		for (i = 0; i < links; i++) {
			snprintf(name, sizeof(name), "/tmp/l%0200d", i);
			unlink(name);
		}
		for (mounts = 0; mounts < 1000; mounts++) {
			snprintf(path, sizeof(path), "/tmp/m%d", mounts);
			if (mkdir(path, 0755) != 0 || mount("x", path, "tmpfs", 0, NULL) != 0)
				break;
			strcat(path, "/x");
			fd = open(path, O_WRONLY | O_CREAT, 0644);
			if (fd < 0)
				break;
			close(fd);
		}
		printf("tmpfs mounts: %s after %s\n", ename(errno), mounts <= 16 ? "<=16" : ">16");
	} else if (strcmp(mode, "tmpfs") == 0) {
		static char buf[1 << 20];

		fd = open("/tmp/fill", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		while (write(fd, buf, sizeof(buf)) > 0)
			mib++;
		printf("tmpfs: %s after %lu MiB\n", ename(errno), mib);
	} else if (strcmp(mode, "sparse") == 0) {
		/* trinity's pattern: files written at offsets of GiBs cost the
		 * pages written, not their sizes (under --memory=64M) */
		char path[32];
		int ok = 0, status;
		pid_t p;

		for (i = 0; i < 16; i++) {
			snprintf(path, sizeof(path), "/tmp/sparse%d", i);
			fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
			if (fd >= 0 && ftruncate(fd, 1LL << 40) == 0 &&
			    pwrite(fd, "x", 1, (off_t)(i + 1) << 32) == 1)
				ok++;
			if (fd >= 0)
				close(fd);
			fd = memfd_create("sparse", 0);
			if (fd >= 0 && pwrite(fd, "x", 1, (off_t)(i + 1) << 32) == 1)
				ok++;
		}
		printf("sparse: %d of 32 files written at GiB offsets\n", ok);
		p = fork();
		if (p == 0) {
			char *m = mmap(NULL, 32 << 20, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			_exit(m == MAP_FAILED ? 1 : (memset(m, 1, 32 << 20), 0));
		}
		printf("sparse: fork and 32 MiB: %s\n",
		       p > 0 && waitpid(p, &status, 0) == p && status == 0 ? "yes" : "no");
	} else if (strcmp(mode, "threads") == 0) {
		pthread_t t[2];
		struct timespec ts = { 0, 300 * 1000 * 1000 };

		for (i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, spin, &spins[i]);
		nanosleep(&ts, NULL);
		stop = 1;
		for (i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		printf("threads: both ran: %s\n", spins[0] > 0 && spins[1] > 0 ? "yes" : "no");
	} else if (strcmp(mode, "faults") == 0) {
		/* 2000 children that die of SIGSEGV, each a kernel log line */
		int dead = 0, st;

		for (i = 0; i < 2000; i++) {
			pid_t c = fork();

			if (c == 0)
				*(volatile int *)0 = 1;
			if (c > 0 && waitpid(c, &st, 0) == c && WIFSIGNALED(st) &&
			    WTERMSIG(st) == SIGSEGV)
				dead++;
		}
		printf("faults: %d died of SIGSEGV\n", dead);
	} else if (strcmp(mode, "cpus") == 0) {
		cpu_set_t set;

		sched_getaffinity(0, sizeof(set), &set);
		printf("cpus: %d %ld\n", CPU_COUNT(&set), sysconf(_SC_NPROCESSORS_ONLN) > 0 ? 1L : 0L);
	}
	return 0;
}
EOF
if ! gcc -O1 -static -pthread -o "$tmp/bomb" "$tmp/bomb.c" 2>"$tmp/cc.err"; then
    echo "not ok 1 - the bomb helper builds"
    sed 's/^/# /' "$tmp/cc.err"
    echo "0 passed, 1 failed"
    exit 1
fi

# guest_runs PID N: waits (at most 20 s) until N stubs (skas's zygote, then
# one per guest process) run under PID, or PID has ended. The host side's
# clock starts there, not at the command's start: skas may be slow to start
# (a cold cache on a loaded machine).
guest_runs() {
    local i
    for i in $(seq 400); do
        ps -e -o pid=,ppid=,stat=,comm= | awk -v top="$1" -v want="$2" '
            { par[$1] = $2; st[$1] = $3; comm[$1] = $4 }
            END {
                if (!(top in st) || st[top] ~ /^Z/)
                    exit 0
                for (p in par)
                    if (comm[p] == "memfd:skas-stub")
                        for (q = par[p]; q > 1; q = par[q])
                            if (q == top) {
                                n++
                                break
                            }
                exit n < want
            }' && return
        sleep 0.05
    done
}

# BOMB-ARGS... : runs skas with them in the background, starts a second
# instance once the bomb's guest runs, then waits; sets out, rc, second,
# took.
bomb() {
    local start=$SECONDS pid
    timeout -k 5 60 "$SKAS" run --log="$tmp/log" "$@" >"$tmp/out" 2>&1 &
    pid=$!
    guest_runs "$pid" 2
    second=$(timeout -k 5 30 "$SKAS" run -- /bin/echo second 2>&1)
    wait "$pid"
    rc=$?
    out=$(cat "$tmp/out")
    took=$((SECONDS - start))
}
fast() { [ "$took" -lt 30 ] && echo yes || echo "no: $took s"; }

b=$tmp/bomb
bomb --memory=64M -- "$b" malloc
check "memory bomb (malloc, --memory=64M): NULL before 64 MiB" "malloc: NULL after <64 MiB 0" "$out $rc"
check "  a second instance ran meanwhile" "second" "$second"
check "  the bomb ended quickly" "yes" "$(fast)"

bomb --memory=64M -- /bin/sh -c "echo 2 >/proc/sys/vm/overcommit_memory && exec $b mmap"
check "memory bomb (mmap MAP_NORESERVE, vm.overcommit_memory=2): ENOMEM; read-only maps go on, mprotect to writable is ENOMEM" \
    "mmap NORESERVE: ENOMEM after <64 MiB
read-only mmap still works: yes
mprotect to writable: ENOMEM 0" "$out $rc"

# Socket memory is an eighth of --memory; TCP connections whose readers
# do not read fill it (2.5 MiB each): a writer then waits for room, as
# Linux's sk_stream_wait_memory (EAGAIN if nonblocking), where it said
# ENOBUFS; one reader draining lets a blocked writer on
cat >"$tmp/tmem.py" <<'PYEOF'
import socket, errno, threading, time
l = socket.socket(); l.bind(("127.0.0.1", 0)); l.listen(64)
pairs, errs = [], set()
for i in range(8):
    c = socket.socket(); c.connect(l.getsockname()); a, _ = l.accept()
    c.setblocking(False)
    try:
        while True: c.send(b"x" * 65536)
    except OSError as e: errs.add(errno.errorcode[e.errno])
    pairs.append((c, a))
print("nonblocking:", sorted(errs))
c = pairs[-1][0]; c.setblocking(True); c.settimeout(20)
def drain():
    time.sleep(0.3)
    s = pairs[0][1]; s.setblocking(False)
    try:
        while s.recv(1 << 20): pass
    except BlockingIOError: pass
threading.Thread(target=drain).start()
try: print("blocking: sent", c.send(b"y" * 65536) > 0)
except OSError as e: print("blocking:", e)
PYEOF
out=$(timeout -k 5 60 "$SKAS" run --memory=64M -v "$tmp:/t:ro" -- python3 /t/tmem.py 2>&1)
check "TCP writers wait for socket memory: EAGAIN nonblocking, a blocked one goes on" "nonblocking: ['EAGAIN']
blocking: sent True" "$out"
check "  a second instance ran meanwhile" "second" "$second"

out=$(timeout -k 5 30 "$SKAS" run --memory=64M -- /bin/sh -c \
    'for i in $(seq 40); do sleep 1 & done; wait; echo waited' 2>&1)
check "--memory=64M still runs 40 small processes at once (stacks grow as used)" "waited" "$out"

bomb --memory=64M -- "$b" noreserve
check "memory bomb (MAP_NORESERVE written, vm.overcommit_memory=0): the OOM killer ends the writer (SIGKILL)" \
    "noreserve: 1 GiB mapped: yes 137" "$out $rc"
check "  with a kernel log line" "1" "$(grep -c 'Out of memory (resident memory): killed process 1 (bomb)' "$tmp/log")"
check "  a second instance ran meanwhile" "second" "$second"

bomb --memory=64M -- /bin/sh -c "echo -1000 >/proc/self/oom_score_adj; $b noreserve; echo rc=\$?"
check "the same with every process at oom_score_adj -1000: --memory holds, the biggest goes" \
    "noreserve: 1 GiB mapped: yes
Killed
rc=137 0" "$out $rc"

bomb --memory=64M -- "$b" brk
check "memory bomb (brk): ENOMEM before 64 MiB" "brk: ENOMEM after <64 MiB 0" "$out $rc"

bomb --memory=64M -- "$b" fork
check "memory bomb (fork of a 16 MiB process): ENOMEM at the third child" \
    "fork: ENOMEM after 2 children" "$(echo "$out" | head -1)"
check "  a second instance ran meanwhile" "second" "$second"

bomb --memory=64M -- "$b" shm
check "shared memory counts once across fork; past --memory ENOMEM; munmap gives it back" \
    "shm: 3 children wrote the shared 40 MiB: yes
shm: another 40 MiB: ENOMEM
shm: after munmap: mapped 0" "$out $rc"

bomb --memory=64M -- "$b" sysvshm
check "SysV shm segments count against --memory: ENOMEM, back after IPC_RMID" \
    "sysvshm: ENOMEM after 3 segments of 16 MiB
sysvshm: after IPC_RMID: made 0" "$out $rc"

bomb --memory=64M -- "$b" xattr
check "xattr bomb (64 KiB each, --memory=64M): ENOSPC before 64 MiB, room again after a removal" \
    "xattr: ENOSPC after <64 MiB
xattr: after removing one: room again 0" "$out $rc"

bomb --memory=64M -- "$b" pipes
check "pipe bomb (full 64 KiB pipes, --memory=64M): ENOMEM before 64 MiB" "pipes: ENOMEM after <64 MiB 0" "$out $rc"
check "  a second instance ran meanwhile" "second" "$second"

bomb --memory=12M -- "$b" vmamem
check "VMA bomb (--memory=12M): ENOMEM before vm.max_map_count" "vmas: ENOMEM after <60000 0" "$out $rc"

bomb --memory=32M -- "$b" epitems
check "epoll item bomb (400 epolls x 400 eventfds, --memory=32M): ENOMEM" "epitems: ENOMEM after <160000 0" "$out $rc"

bomb --memory=16M -- "$b" locks
check "record lock bomb (a lock per other byte, --memory=16M): ENOLCK" "locks: ENOLCK after <262144 0" "$out $rc"

bomb --memory=32M -- "$b" msgq
check "System V message bomb (queues filled in 64 IPC namespaces, --memory=32M): ENOMEM" "msgq: ENOMEM after <32 MiB 0" "$out $rc"

echo original >"$tmp/lowerfile"
bomb --memory=32M -- "$b" atlimit "$tmp/lowerfile"
check "at --memory's limit: an unlock, a munmap that splits, a splice from a file, an unlink of a modified lower file lose nothing" \
    "atlimit:
unlock: ok
munmap of a mapping's last page: ok
splice: nothing lost
unlink of a modified lower file: nothing lost 0" "$out $rc"
check "  the host's file untouched" "original" "$(cat "$tmp/lowerfile")"

bomb --memory=64M -- "$b" kmem
check "kernel memory bomb (--memory=64M): empty files, hard links and new tmpfs mounts are ENOSPC at the limit" \
    "kmem:
files: ENOSPC after <65536
links: ENOSPC after <=16
tmpfs mounts: ENOSPC after <=16 0" "$out $rc"
check "  a second instance ran meanwhile" "second" "$second"

bomb --memory=64M --tmpfs-size=1G -- "$b" tmpfs
check "tmpfs data past --memory: the OOM killer ends the writer (SIGKILL)" "137" "$rc"
check "  with a kernel log line" "1" "$(grep -c 'Out of memory (tmpfs data): killed process 1 (bomb)' "$tmp/log")"
check "  a second instance ran meanwhile" "second" "$second"

bomb --memory=64M --tmpfs-size=1G -- "$b" sparse
check "sparse tmpfs files and memfds count the pages written, not their sizes (16 TiB of holes under --memory=64M)" \
    "sparse: 32 of 32 files written at GiB offsets
sparse: fork and 32 MiB: yes 0" "$out $rc"

out=$(timeout -k 5 30 "$SKAS" run --memory=64M -- /bin/sh -c 'grep -E "^(MemTotal|CommitLimit):" /proc/meminfo' 2>&1)
check "/proc/meminfo shows --memory as MemTotal and CommitLimit" \
    "MemTotal:          65536 kB
CommitLimit:       65536 kB" "$out"

bomb --nofile=64 -- "$b" fds
check "fd bomb (--nofile=64): dup to EMFILE at fd 63" "fds: dup: EMFILE, last fd 63 0" "$out $rc"
check "  a second instance ran meanwhile" "second" "$second"

bomb -- "$b" mapcount
check "mremap and a fixed mmap that must split VMAs at max_map_count: ENOMEM, the old page stays, the kernel goes on" \
    "mapcount: mremap ENOMEM
mapcount: fixed mmap ENOMEM
mapcount: still runs 0" "$out $rc"

bomb --nofile=64 -- /bin/sh -c 'ulimit -Sn; ulimit -Hn'
check "--nofile sets the soft and hard RLIMIT_NOFILE" "64 64" "$(echo $out)"

bomb --nofile=64 -- /bin/sh -c "ulimit -n 1000 && $b nfile"
check "fd bomb across processes, rlimit raised: ENFILE at the instance's cap" "nfile: ENFILE" "$out"

bomb --nofile=100 -- "$b" shmfull
check "shmat at the cap (--nofile=100): ENFILE" "shmfull: open ENFILE, shmat ENFILE" "$out"

bomb --nofile=100 -- "$b" mapfds
check "mapped host files, each closed (--nofile=100): ENFILE at the cap" "mapfds: ENFILE after <200" "$out"

bomb -- "$b" hostfds
check "fd bomb of host files, rlimit raised: ENFILE at the default cap, then it works again" \
    "hostfds: ENFILE
hostfds: after closing: opens again 0" "$out $rc"
check "  a second instance ran meanwhile" "second" "$second"

out=$(timeout -k 5 60 "$SKAS" run -- /bin/sh -c \
    "cat /proc/sys/vm/max_map_count; echo 2000 >/proc/sys/vm/max_map_count &&
     cat /proc/sys/vm/max_map_count && $b vmas" 2>&1)
check "VMA bomb: ENOMEM at vm.max_map_count (65530, lowered to 2000 by root)" "65530
2000
vmas: ENOMEM after 950-1000 maps" "$out"

# The kernel's host fd limit sets the default caps: 4096 here, 1024 each.
# Files that are only written hold no host fd (skas once gave each tmpfs
# file with data a memfd, and stopped them at 1024 here): the bomb meets
# --tmpfs-size, 16 MiB of 4 KiB pages, with the kernel's fds untouched.
out=$(ulimit -n 4096 && timeout -k 5 60 "$SKAS" run --tmpfs-size=16M -- "$b" inodes 2>&1)
check "tmpfs file bomb (1-byte files, --tmpfs-size=16M): ENOSPC past the old fd cap, at a page a file; host files still open" \
    "inodes: ENOSPC after 1025-4096 files
inodes: a host file then: opens" "$out"

bomb --tmpfs-size=32M -- "$b" disk
check "disk-fill bomb (--tmpfs-size=32M): ENOSPC, and space comes back on unlink" \
    "disk: ENOSPC after <=32 MiB
after unlink: writes again 0" "$out $rc"
check "  a second instance ran meanwhile" "second" "$second"

start=$SECONDS
# The second instance starts once the bomb is near its cap (60 stubs), or
# over.
out=$(timeout -k 5 60 "$SKAS" run --pids-max=64 -- /bin/bash -c \
    ':(){ :|:& };:; sleep 2; echo survived' 2>/dev/null &
    guest_runs $! 60; timeout -k 5 30 "$SKAS" run -- /bin/echo second 2>&1; wait)
check "fork bomb (--pids-max=64) and a second instance meanwhile" "second survived" "$(echo $out)"

bomb -- "$b" faults
check "log bomb (2000 segfaults): all die of SIGSEGV" "faults: 2000 died of SIGSEGV 0" "$out $rc"
check "  at most 10 fault lines per 5 s in the --log file" \
    "yes" "$([ "$(grep -c 'signal 11 (code 1)' "$tmp/log")" -le $((10 * (took / 5 + 1))) ] && echo yes)"
check "  a second instance ran meanwhile" "second" "$second"

bomb --cpus=1 -- "$b" threads
check "--cpus=1: two spinning threads both run (time slices)" "threads: both ran: yes 0" "$out $rc"
bomb --cpus=1 -- "$b" cpus
check "--cpus=1: sched_getaffinity shows one CPU" "cpus: 1 1" "$out"
out=$(timeout -k 5 30 "$SKAS" run --cpus=1 -- /usr/bin/nproc 2>&1)
check "--cpus=1: nproc says 1" "1" "$out"
out=$(timeout -k 5 30 "$SKAS" run --cpus=1 -- /bin/sh -c 'cat /sys/devices/system/cpu/online /sys/devices/system/node/node0/cpulist; ls -d /sys/devices/system/cpu/cpu*; getconf _NPROCESSORS_ONLN' 2>&1)
check "--cpus=1: sysfs shows one CPU (getconf, lscpu, os.cpu_count read it)" "0
0
/sys/devices/system/cpu/cpu0
1" "$out"
ncpu=$(nproc)
out=$(timeout -k 5 30 "$SKAS" run --cpus="$ncpu" -- /bin/sh -c "$b cpus; nproc" 2>&1)
check "--cpus=$ncpu (all): the guest sees $ncpu" "cpus: $ncpu 1
$ncpu" "$out"
# lscpu's threads per core x cores per socket x sockets: every CPU (the
# sysfs topology; it said 0 x 0 x 0)
out=$(timeout -k 5 30 "$SKAS" run --cpus="$ncpu" -- lscpu 2>&1 |
    awk -F: '/^Thread\(s\) per core/ {t=$2} /^Core\(s\) per socket/ {c=$2} /^Socket\(s\)/ {s=$2} END {print t*c*s}')
check "lscpu counts the $ncpu CPUs in threads, cores and sockets" "$ncpu" "$out"

# The stubs' host CPUs: Cpus_allowed_list of the stub running a sleep.
"$SKAS" run --cpus=1 --memory=64M -- /bin/sleep 3 &
kpid=$!
guest_runs "$kpid" 2
allowed=$(for s in $(pgrep -P "$kpid"); do grep Cpus_allowed_list "/proc/$s/status" | cut -f2; done | sort -u)
data=$(for s in $(pgrep -P "$kpid"); do grep 'Max data size' "/proc/$s/limits" | awk '{print $4}'; done | sort -u)
kill "$kpid" 2>/dev/null
wait "$kpid" 2>/dev/null
check "--cpus=1: the stubs may run on one host CPU" "1" "$(echo "$allowed" | grep -c '^[0-9]*$')"
check "--memory=64M: the stubs' host RLIMIT_DATA backstop (soft) is 144 MiB" "$((144 << 20))" "$data"

# Without --cpus the kernel and its stubs keep one host CPU of those skas
# was given (the fastest when it starts: host_pin_cpu), named in the log.
"$SKAS" run --log="$tmp/cpulog" -- /bin/sleep 3 &
kpid=$!
guest_runs "$kpid" 2
kcpu=$(sed -n 's/.*kernel CPU: \([0-9]*\) of the host.s$/\1/p' "$tmp/cpulog")
allowed=$( (grep Cpus_allowed_list "/proc/$kpid/status"
	for s in $(pgrep -P "$kpid"); do grep Cpus_allowed_list "/proc/$s/status"; done) |
	cut -f2 | sort -u)
kill "$kpid" 2>/dev/null
wait "$kpid" 2>/dev/null
check "the kernel and its stubs share the one host CPU the log names" "$kcpu" "$allowed"
last=$(($(nproc) - 1))
out=$(timeout -k 5 30 taskset -c "$last" "$SKAS" run --log="$tmp/cpulog" -- /bin/true 2>&1 &&
	sed -n 's/.*kernel CPU: \([0-9]*\) of the host.s$/\1/p' "$tmp/cpulog")
check "started on host CPU $last alone, the kernel keeps it" "$last" "$out"

out=$(timeout -k 5 30 "$SKAS" run --memory=12 -- /bin/true 2>&1; echo $?)
check "--memory misuse: one sentence, status 2" "skas: --memory wants a size of at least 4M like 512M or 2G, not '12' (see skas --help)
2" "$out"
out=$(timeout -k 5 30 "$SKAS" run --cpus=0 -- /bin/true 2>&1 | wc -l; exit "${PIPESTATUS[0]}")
check "--cpus=0 is misuse" "1" "$out"

summary
