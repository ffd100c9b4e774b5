/* memfd_create(2) and file seals (fcntl F_ADD_SEALS, F_GET_SEALS): the
 * file (a nameless regular file, mode 0777, no links, "/memfd:NAME
 * (deleted)" in /proc/self/fd and maps), data shared through read, write
 * and a MAP_SHARED mapping with a forked child, the flag and name checks,
 * each seal's effect on write, truncate, fallocate, mmap and mprotect,
 * F_SEAL_WRITE's EBUSY while a writable shared mapping lives (in a child
 * too), and the seals of files that are no memfd. Calls whose native result
 * depends on a kernel newer than 5.10 are left out or tolerant:
 * MFD_NOEXEC_SEAL, MFD_EXEC and F_SEAL_EXEC are Linux 6.3 (EINVAL before:
 * either answer passes, the 6.3 one only with its semantics); a read-only
 * MAP_SHARED mapping of a writable fd after F_SEAL_WRITE is EPERM before
 * 6.7 and allowed from it (not checked); a GROW-sealed write over several
 * pages stops at the page that would grow the file (4096 bytes written)
 * where the page cache uses small pages, EPERM with large folios. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "tap.h"

#ifndef F_ADD_SEALS
#define F_ADD_SEALS 1033
#define F_GET_SEALS 1034
#endif
#ifndef F_SEAL_SEAL
#define F_SEAL_SEAL   0x0001
#define F_SEAL_SHRINK 0x0002
#define F_SEAL_GROW   0x0004
#define F_SEAL_WRITE  0x0008
#endif
#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif
#ifndef F_SEAL_EXEC
#define F_SEAL_EXEC 0x0020
#endif
#define MFD_CLOEXEC_	   0x0001U
#define MFD_ALLOW_SEALING_ 0x0002U
#define MFD_HUGETLB_	   0x0004U
#define MFD_NOEXEC_SEAL_   0x0008U
#define MFD_EXEC_	   0x0010U
#define MFD_HUGE_2MB_	   (21U << 26)
#define FALLOC_PUNCH	   0x03 /* PUNCH_HOLE | KEEP_SIZE */
#define FALLOC_KEEP	   0x01

static const char *ename(int e)
{
	switch (e) {
	case 0:
		return "0";
	case EPERM:
		return "EPERM";
	case EINVAL:
		return "EINVAL";
	case EFAULT:
		return "EFAULT";
	case EBADF:
		return "EBADF";
	case EBUSY:
		return "EBUSY";
	case EACCES:
		return "EACCES";
	case ENOSYS:
		return "ENOSYS";
	default:
		return "other";
	}
}

/* r is a call's result: -1 with errno, else success (want 0). */
static void expect(long r, int want, const char *what)
{
	int e = r < 0 ? errno : 0;

	if (e == want)
		printf("ok %d - %s -> %s\n", ++n, what, ename(want));
	else
		printf("not ok %d - %s: %s (want %s)\n", ++n, what, ename(e), ename(want));
}

static int mfd(const char *name, unsigned flags)
{
	return (int)syscall(SYS_memfd_create, name, flags);
}

static off_t size_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? st.st_size : -1;
}

static int seals(int fd)
{
	return fcntl(fd, F_GET_SEALS);
}

static int fd_link_is(int fd, const char *want)
{
	char path[64], buf[512];
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	len = readlink(path, buf, sizeof(buf) - 1);
	if (len < 0)
		return 0;
	buf[len] = 0;
	if (strcmp(buf, want))
		printf("# readlink %s: \"%s\"\n", path, buf);
	return strcmp(buf, want) == 0;
}

/* Opens the memfd fd again through /proc/self/fd with flags. */
static int reopen(int fd, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return open(path, flags);
}

static void test_basic(void)
{
	char buf[64];
	struct stat st;
	int fd = mfd("test", 0), fd2;

	check(fd >= 0, "memfd_create(\"test\", 0)");
	check(fstat(fd, &st) == 0 && S_ISREG(st.st_mode), "a regular file");
	check((st.st_mode & 07777) == 0777, "mode 0777 (no umask)");
	check(st.st_nlink == 0, "no links");
	check(st.st_size == 0, "empty");
	check(st.st_uid == getuid() && st.st_gid == getgid(), "owned by the caller");
	check((fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR, "open O_RDWR");
	check(fcntl(fd, F_GETFD) == 0, "no FD_CLOEXEC without MFD_CLOEXEC");
	check(fd_link_is(fd, "/memfd:test (deleted)"), "/proc/self/fd: /memfd:test (deleted)");
	check(write(fd, "hello world", 11) == 11, "write 11 bytes");
	check(size_of(fd) == 11, "size 11");
	check(lseek(fd, 0, SEEK_SET) == 0 && read(fd, buf, sizeof(buf)) == 11 &&
		      memcmp(buf, "hello world", 11) == 0,
	      "read them back");
	check(pread(fd, buf, 5, 6) == 5 && memcmp(buf, "world", 5) == 0, "pread");
	check(ftruncate(fd, 8192) == 0 && size_of(fd) == 8192, "ftruncate to 8192");
	check(lseek(fd, 0, SEEK_END) == 8192, "SEEK_END at 8192");
	expect(seals(fd), 0, "F_GET_SEALS without MFD_ALLOW_SEALING");
	check(seals(fd) == F_SEAL_SEAL, "... is F_SEAL_SEAL");
	expect(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK), EPERM, "F_ADD_SEALS without sealing");
	expect(fcntl(fd, F_ADD_SEALS, 0), EPERM, "F_ADD_SEALS(0) without sealing");

	/* /proc/self/fd opens the same file */
	fd2 = reopen(fd, O_RDWR);
	check(fd2 >= 0, "open /proc/self/fd/N O_RDWR");
	check(pwrite(fd2, "HELLO", 5, 0) == 5 && pread(fd, buf, 5, 0) == 5 &&
		      memcmp(buf, "HELLO", 5) == 0,
	      "a write through it shows in the memfd");
	check(fd_link_is(fd2, "/memfd:test (deleted)"), "its /proc/self/fd link is the same");
	close(fd2);
	close(fd);

	fd = mfd("cloexec", MFD_CLOEXEC_);
	check(fd >= 0 && fcntl(fd, F_GETFD) == FD_CLOEXEC, "MFD_CLOEXEC: FD_CLOEXEC");
	close(fd);
}

static void test_names(void)
{
	char name[300];
	int fd;

	fd = mfd("", 0);
	check(fd >= 0 && fd_link_is(fd, "/memfd: (deleted)"), "an empty name");
	close(fd);
	fd = mfd("a/b c", 0);
	check(fd >= 0 && fd_link_is(fd, "/memfd:a/b c (deleted)"), "a name with / and space");
	close(fd);
	memset(name, 'n', sizeof(name));
	name[249] = 0;
	fd = mfd(name, 0);
	check(fd >= 0, "a name of 249 bytes");
	close(fd);
	name[249] = 'n';
	name[250] = 0;
	expect(mfd(name, 0), EINVAL, "a name of 250 bytes");
	name[299] = 0;
	expect(mfd(name, 0), EINVAL, "a name of 299 bytes");
	expect(mfd(NULL, 0), EFAULT, "a NULL name");
	expect(mfd((const char *)1, 0), EFAULT, "a bad name pointer");
}

static void test_flags(void)
{
	struct stat st;
	int fd;

	expect(mfd("f", 0x40), EINVAL, "an unknown flag");
	expect(mfd("f", 0x80000000U), EINVAL, "the top flag bit");
	expect(mfd(NULL, 0x40), EINVAL, "an unknown flag before a bad name");
	expect(mfd("f", MFD_HUGE_2MB_), EINVAL, "a huge page size without MFD_HUGETLB");
	expect(mfd("f", MFD_HUGETLB_ | 0x40), EINVAL, "MFD_HUGETLB with an unknown flag");
	expect(mfd("f", MFD_EXEC_ | MFD_NOEXEC_SEAL_), EINVAL, "MFD_EXEC with MFD_NOEXEC_SEAL");

	/* Linux 6.3: a non-executable file sealed against exec (sealing
	 * allowed); EINVAL before. */
	fd = mfd("noexec", MFD_NOEXEC_SEAL_);
	if (fd < 0) {
		check(errno == EINVAL, "MFD_NOEXEC_SEAL (EINVAL before 6.3, or its semantics)");
	} else {
		check(fstat(fd, &st) == 0 && (st.st_mode & 07777) == 0666 &&
			      seals(fd) == F_SEAL_EXEC && fchmod(fd, 0755) < 0 && errno == EPERM &&
			      fchmod(fd, 0600) == 0 && fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) == 0 &&
			      seals(fd) == (F_SEAL_EXEC | F_SEAL_SHRINK),
		      "MFD_NOEXEC_SEAL (EINVAL before 6.3, or its semantics)");
		close(fd);
	}
	fd = mfd("exec", MFD_EXEC_);
	if (fd < 0) {
		check(errno == EINVAL, "MFD_EXEC (EINVAL before 6.3, or its semantics)");
	} else {
		check(fstat(fd, &st) == 0 && (st.st_mode & 07777) == 0777 &&
			      seals(fd) == F_SEAL_SEAL,
		      "MFD_EXEC (EINVAL before 6.3, or its semantics)");
		close(fd);
	}
	/* F_SEAL_EXEC (6.3) on an executable memfd implies the write seals */
	fd = mfd("sealexec", MFD_ALLOW_SEALING_);
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_EXEC) < 0) {
		check(errno == EINVAL, "F_SEAL_EXEC (EINVAL before 6.3, or its semantics)");
	} else {
		check(seals(fd) == (F_SEAL_EXEC | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE |
				    F_SEAL_FUTURE_WRITE) &&
			      write(fd, "x", 1) < 0 && errno == EPERM && fchmod(fd, 0666) < 0 &&
			      errno == EPERM,
		      "F_SEAL_EXEC (EINVAL before 6.3, or its semantics)");
	}
	close(fd);
}

/* A MAP_SHARED mapping is the same memory in a forked child. */
static void test_shared_fork(void)
{
	char buf[16];
	char *m;
	int fd = mfd("shared", 0), st;
	pid_t pid;

	check(ftruncate(fd, 4096) == 0, "ftruncate 4096");
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(m != MAP_FAILED, "mmap MAP_SHARED");
	if (m == MAP_FAILED)
		return;
	strcpy(m, "parent");
	pid = fork();
	if (pid == 0) {
		int ok = strcmp(m, "parent") == 0;

		strcpy(m, "child");
		ok = ok && pwrite(fd, "via write", 9, 100) == 9;
		_exit(ok ? 0 : 1);
	}
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the child saw the parent's bytes");
	check(strcmp(m, "child") == 0, "the parent sees the child's store");
	check(memcmp(m + 100, "via write", 9) == 0, "the mapping sees the child's write");
	check(pread(fd, buf, 5, 0) == 5 && memcmp(buf, "child", 5) == 0,
	      "read sees the child's store");
	munmap(m, 4096);
	close(fd);
}

static int maps_line_has(void *addr, const char *want)
{
	char line[512], start[32];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	if (!f)
		return 0;
	snprintf(start, sizeof(start), "%lx-", (unsigned long)addr);
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, start, strlen(start)) == 0 && strstr(line, want))
			found = 1;
	fclose(f);
	return found;
}

static void test_maps(void)
{
	int fd = mfd("mapped", 0);
	void *m;

	ftruncate(fd, 4096);
	m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	check(m != MAP_FAILED && maps_line_has(m, " /memfd:mapped (deleted)\n"),
	      "/proc/self/maps names the mapping /memfd:mapped (deleted)");
	munmap(m, 4096);
	close(fd);
}

static void test_seal_basics(void)
{
	int fd = mfd("seals", MFD_ALLOW_SEALING_), ro, p[2], opath, shm;
	char shm_path[64];

	check(fd >= 0, "memfd_create(MFD_ALLOW_SEALING)");
	check(seals(fd) == 0, "no seals");
	expect(fcntl(fd, F_ADD_SEALS, 0), 0, "F_ADD_SEALS(0)");
	expect(fcntl(fd, F_ADD_SEALS, 0x8000), EINVAL, "F_ADD_SEALS of an unknown seal");
	expect(fcntl(fd, F_ADD_SEALS, 0x8000 | F_SEAL_SHRINK), EINVAL,
	       "... with a known one: nothing added");
	check(seals(fd) == 0, "still no seals");
	ro = reopen(fd, O_RDONLY);
	check(ro >= 0, "open /proc/self/fd/N O_RDONLY");
	expect(fcntl(ro, F_ADD_SEALS, F_SEAL_SHRINK), EPERM, "F_ADD_SEALS on a read-only fd");
	expect(fcntl(ro, F_ADD_SEALS, 0x8000), EPERM, "... before an unknown seal's EINVAL");
	expect(fcntl(ro, F_GET_SEALS), 0, "F_GET_SEALS on a read-only fd");
	close(ro);
	opath = reopen(fd, O_PATH);
	expect(fcntl(opath, F_GET_SEALS), EBADF, "F_GET_SEALS on an O_PATH fd");
	close(opath);
	expect(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW), 0, "add SHRINK|GROW");
	expect(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK), 0, "add SHRINK again");
	check(seals(fd) == (F_SEAL_SHRINK | F_SEAL_GROW), "F_GET_SEALS: SHRINK|GROW");
	expect(fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL), 0, "add SEAL");
	expect(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), EPERM, "add WRITE after SEAL");
	expect(fcntl(fd, F_ADD_SEALS, 0), EPERM, "add nothing after SEAL");
	expect(fcntl(fd, F_ADD_SEALS, 0x8000), EINVAL, "an unknown seal after SEAL: EINVAL first");
	check(seals(fd) == (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW), "SEAL|SHRINK|GROW");
	close(fd);

	/* files that are no memfd */
	check(pipe(p) == 0, "a pipe");
	expect(fcntl(p[0], F_GET_SEALS), EINVAL, "F_GET_SEALS on a pipe");
	expect(fcntl(p[1], F_ADD_SEALS, F_SEAL_SHRINK), EINVAL, "F_ADD_SEALS on its write end");
	expect(fcntl(p[0], F_ADD_SEALS, F_SEAL_SHRINK), EPERM, "F_ADD_SEALS on its read end");
	close(p[0]);
	close(p[1]);
	ro = open("/proc/self/status", O_RDONLY);
	expect(fcntl(ro, F_GET_SEALS), EINVAL, "F_GET_SEALS on a procfs file");
	close(ro);
	/* a tmpfs file is shmem: sealed for good from birth */
	snprintf(shm_path, sizeof(shm_path), "/dev/shm/skas-memfd.%d", (int)getpid());
	shm = open(shm_path, O_RDWR | O_CREAT | O_EXCL, 0600);
	check(shm >= 0, "a file in /dev/shm");
	check(seals(shm) == F_SEAL_SEAL, "F_GET_SEALS on it: F_SEAL_SEAL");
	expect(fcntl(shm, F_ADD_SEALS, F_SEAL_SHRINK), EPERM, "F_ADD_SEALS on it");
	close(shm);
	unlink(shm_path);
}

static void test_shrink_grow(void)
{
	char buf[8192], path[64];
	int fd = mfd("sg", MFD_ALLOW_SEALING_), fd2;
	long r;

	memset(buf, 'a', sizeof(buf));
	check(ftruncate(fd, 5000) == 0, "ftruncate 5000");
	expect(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK), 0, "add SHRINK");
	expect(ftruncate(fd, 4000), EPERM, "SHRINK: ftruncate smaller");
	expect(ftruncate(fd, 0), EPERM, "SHRINK: ftruncate to 0");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	expect(truncate(path, 10), EPERM, "SHRINK: truncate(/proc/self/fd/N) smaller");
	expect(open(path, O_RDWR | O_TRUNC), EPERM, "SHRINK: open O_TRUNC");
	expect(ftruncate(fd, 5000), 0, "SHRINK: ftruncate to the same size");
	expect(ftruncate(fd, 6000), 0, "SHRINK: ftruncate larger");
	expect(fallocate(fd, FALLOC_PUNCH, 0, 4096), 0, "SHRINK: a hole is no shrink");
	expect(pwrite(fd, buf, 100, 6000), 0, "SHRINK: write at the end");
	check(size_of(fd) == 6100, "size 6100");

	expect(fcntl(fd, F_ADD_SEALS, F_SEAL_GROW), 0, "add GROW");
	expect(ftruncate(fd, 6101), EPERM, "GROW: ftruncate larger");
	expect(truncate(path, 100000), EPERM, "GROW: truncate(/proc/self/fd/N) larger");
	expect(pwrite(fd, buf, 10, 6095), EPERM, "GROW: a write across the end");
	expect(pwrite(fd, buf, 1, 6100), EPERM, "GROW: a write at the end");
	expect(pwrite(fd, buf, 10, 50000), EPERM, "GROW: a write past the end");
	check(pwrite(fd, buf, 5, 6095) == 5, "GROW: a write up to the end");
	r = pwrite(fd, buf, 8000, 0);
	check(r == 4096 || (r < 0 && errno == EPERM),
	      "GROW: a write over pages stops before the page that grows");
	fd2 = reopen(fd, O_RDWR | O_APPEND);
	expect(write(fd2, buf, 1), EPERM, "GROW: an O_APPEND write");
	close(fd2);
	expect(fallocate(fd, 0, 0, 6200), EPERM, "GROW: fallocate past the end");
	expect(fallocate(fd, FALLOC_KEEP, 0, 6200), EPERM, "GROW: fallocate KEEP_SIZE past it");
	expect(fallocate(fd, 0, 0, 6100), 0, "GROW: fallocate inside");
	expect(fallocate(fd, FALLOC_PUNCH, 0, 100000), 0, "GROW: a hole past the end");
	expect(write(fd, buf, 0), 0, "GROW: an empty write");
	check(size_of(fd) == 6100, "the size stayed 6100");
	close(fd);
}

static void test_write_seal(void)
{
	struct iovec iov = { "x", 1 };
	char buf[16], *m, *priv, *ro_map;
	int fd = mfd("w", MFD_ALLOW_SEALING_), ro, sync_p[2], st;
	pid_t pid;

	check(ftruncate(fd, 8192) == 0, "ftruncate 8192");
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(m != MAP_FAILED, "a shared writable mapping");
	expect(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), EBUSY, "add WRITE while it lives");
	expect(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK), EBUSY,
	       "add WRITE|SHRINK while it lives");
	check(seals(fd) == 0, "nothing was added");
	check(mprotect(m, 4096, PROT_READ) == 0, "mprotect it read-only");
	expect(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), EBUSY, "add WRITE: it may be made writable");
	munmap(m, 4096);
	m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	expect(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), EBUSY,
	       "add WRITE: a read-only shared mapping of a writable fd");
	munmap(m, 4096);
	priv = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	ro = reopen(fd, O_RDONLY);
	ro_map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, ro, 0);
	check(priv != MAP_FAILED && ro_map != MAP_FAILED,
	      "a private mapping and a shared one of a read-only fd");

	/* a child keeps a writable mapping after the parent dropped it */
	check(pipe(sync_p) == 0, "a pipe");
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	pid = fork();
	if (pid == 0) {
		close(sync_p[1]);
		read(sync_p[0], buf, 1);
		_exit(0);
	}
	munmap(m, 4096);
	expect(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), EBUSY, "add WRITE: a child maps it");
	close(sync_p[0]);
	close(sync_p[1]);
	waitpid(pid, &st, 0);

	expect(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), 0, "add WRITE with none left");
	check(seals(fd) == F_SEAL_WRITE, "F_GET_SEALS: WRITE");
	expect(write(fd, "x", 1), EPERM, "WRITE: write");
	expect(pwrite(fd, "x", 1, 0), EPERM, "WRITE: pwrite");
	expect(writev(fd, &iov, 1), EPERM, "WRITE: writev");
	expect(pwrite(fd, "x", 1, 100000), EPERM, "WRITE: a write past the end");
	expect(write(fd, "x", 0), 0, "WRITE: an empty write");
	expect(fallocate(fd, FALLOC_PUNCH, 0, 4096), EPERM, "WRITE: punch a hole");
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	expect(m == MAP_FAILED ? -1 : 0, EPERM, "WRITE: mmap PROT_WRITE MAP_SHARED");
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	check(m != MAP_FAILED, "WRITE: mmap PROT_WRITE MAP_PRIVATE");
	if (m != MAP_FAILED) {
		m[0] = 'p';
		check(pread(fd, buf, 1, 0) == 1 && buf[0] == 0, "a private store stays private");
		munmap(m, 4096);
	}
	check(priv != MAP_FAILED && mprotect(priv, 4096, PROT_READ | PROT_WRITE) == 0,
	      "WRITE: the earlier private mapping stays writable");
	check(ro_map != MAP_FAILED && ro_map[0] == 0, "the read-only shared mapping reads");
	expect(mprotect(ro_map, 4096, PROT_READ | PROT_WRITE), EACCES,
	       "mprotect PROT_WRITE of the read-only fd's shared mapping");
	m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, ro, 0);
	check(m != MAP_FAILED, "WRITE: mmap a read-only fd MAP_SHARED");
	if (m != MAP_FAILED)
		munmap(m, 4096);
	expect(ftruncate(fd, 4096), 0, "WRITE: ftruncate (SHRINK is another seal)");
	expect(ftruncate(fd, 8192), 0, "WRITE: ftruncate larger");
	check(pread(fd, buf, 4, 0) == 4, "WRITE: read");
	expect(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), 0, "add WRITE again");
	if (priv != MAP_FAILED)
		munmap(priv, 4096);
	if (ro_map != MAP_FAILED)
		munmap(ro_map, 4096);
	close(ro);
	close(fd);
}

static void test_future_write(void)
{
	char buf[16], *m, *m2;
	int fd = mfd("fw", MFD_ALLOW_SEALING_);

	check(ftruncate(fd, 4096) == 0, "ftruncate 4096");
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(m != MAP_FAILED, "a shared writable mapping");
	expect(fcntl(fd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE), 0, "add FUTURE_WRITE while it lives");
	check(seals(fd) == F_SEAL_FUTURE_WRITE, "F_GET_SEALS: FUTURE_WRITE");
	if (m == MAP_FAILED)
		return;
	strcpy(m, "old map");
	check(pread(fd, buf, 7, 0) == 7 && memcmp(buf, "old map", 7) == 0,
	      "FUTURE_WRITE: the existing mapping still writes");
	expect(write(fd, "x", 1), EPERM, "FUTURE_WRITE: write");
	expect(pwrite(fd, "x", 1, 0), EPERM, "FUTURE_WRITE: pwrite");
	expect(fallocate(fd, FALLOC_PUNCH, 0, 4096), EPERM, "FUTURE_WRITE: punch a hole");
	m2 = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	expect(m2 == MAP_FAILED ? -1 : 0, EPERM, "FUTURE_WRITE: mmap PROT_WRITE MAP_SHARED");
	m2 = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	check(m2 != MAP_FAILED && memcmp(m2, "old map", 7) == 0,
	      "FUTURE_WRITE: mmap PROT_READ MAP_SHARED");
	if (m2 != MAP_FAILED) {
		expect(mprotect(m2, 4096, PROT_READ | PROT_WRITE), EACCES,
		       "FUTURE_WRITE: mprotect PROT_WRITE of the new mapping");
		munmap(m2, 4096);
	}
	check(mprotect(m, 4096, PROT_READ) == 0 && mprotect(m, 4096, PROT_READ | PROT_WRITE) == 0,
	      "FUTURE_WRITE: the old mapping may be made writable again");
	m[0] = 'O';
	check(pread(fd, buf, 1, 0) == 1 && buf[0] == 'O', "... and writes");
	expect(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), EBUSY,
	       "add WRITE while the old mapping lives");
	munmap(m, 4096);
	expect(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), 0, "add WRITE once it is gone");
	close(fd);
}

int main(void)
{
	test_basic();
	test_names();
	test_flags();
	test_shared_fork();
	test_maps();
	test_seal_basics();
	test_shrink_grow();
	test_write_seal();
	test_future_write();
	return 0;
}
