/* Writable-filesystem syscalls, all inside a private directory made with
 * mkdtemp("/tmp/skasvfs.XXXXXX") and removed at the end: create/write/read,
 * O_EXCL/O_TRUNC/O_APPEND, pread/pwrite, (f)truncate, (f)chmod, utimensat,
 * link/unlink, symlink/readlink, path errors, mkdir/rmdir, rename(at2),
 * getdents64, chdir/getcwd, mkfifo/mknod, *at calls, umask, statfs,
 * fsync, xattrs. Nothing printed depends on the directory's name, inode
 * numbers or times. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#define TAP_ERR_RET
#include "tap.h"

#ifndef SYS_renameat2
#define SYS_renameat2 316
#endif
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE 1
#endif
static char dir[64];

/* the call's result as the test prints it: "0" or the errno name */
static const char *res(long r)
{
	return r == -1 ? ename(errno) : (r == 0 ? "0" : "positive");
}

static void check_ok(long r, const char *what)
{
	int e = errno;

	if (r >= 0)
		printf("ok %d - %s\n", ++n, what);
	else
		printf("not ok %d - %s: errno %s\n", ++n, what, ename(e));
}

/* a path inside the test directory */
static const char *P(const char *name)
{
	static char bufs[4][512];
	static int i;
	char *b = bufs[i++ & 3];

	snprintf(b, 512, "%s/%s", dir, name);
	return b;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t w;

	if (fd < 0)
		return -1;
	w = write(fd, s, strlen(s));
	close(fd);
	return w == (ssize_t)strlen(s) ? 0 : -1;
}

/* the file's contents (at most 255 bytes), or "<errno>" */
static const char *read_file(const char *path)
{
	static char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t r;

	if (fd < 0) {
		snprintf(buf, sizeof buf, "<%s>", ename(errno));
		return buf;
	}
	r = read(fd, buf, sizeof buf - 1);
	close(fd);
	buf[r < 0 ? 0 : r] = 0;
	return buf;
}

static long fsize(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* rm -rf of everything under dfd, then dfd itself is the caller's */
static void rm_tree(int dfd)
{
	DIR *d = fdopendir(dfd);
	struct dirent *e;

	if (!d) {
		close(dfd);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) == 0)
			continue;
		if (errno == EISDIR || errno == EPERM) {
			int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);

			if (sub >= 0)
				rm_tree(sub);
			unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
		}
	}
	closedir(d);
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct xdirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* the directory's names, sorted, joined with spaces */
static const char *list_dir(const char *path)
{
	static char out[1024];
	char buf[4096], *names[64];
	int fd = open(path, O_RDONLY | O_DIRECTORY), k = 0, i;
	long r;

	out[0] = 0;
	if (fd < 0)
		return "<open failed>";
	while ((r = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
		for (long off = 0; off < r;) {
			struct xdirent64 *d = (struct xdirent64 *)(buf + off);

			if (k < 64)
				names[k++] = strdup(d->d_name);
			off += d->d_reclen;
		}
	}
	close(fd);
	if (r < 0)
		return "<getdents64 failed>";
	qsort(names, k, sizeof names[0], cmpstr);
	for (i = 0; i < k; i++) {
		if (i)
			strncat(out, " ", sizeof out - strlen(out) - 1);
		strncat(out, names[i], sizeof out - strlen(out) - 1);
		free(names[i]);
	}
	return out;
}

int main(void)
{
	char buf[512], cwd[4096], longname[300];
	struct stat st, st2;
	struct statfs sfs;
	struct timespec ts[2];
	long r;
	int fd, fd2, dfd, status;
	pid_t pid;

	setvbuf(stdout, NULL, _IOFBF, 0);
	umask(022);
	strcpy(dir, "/tmp/skasvfs.XXXXXX");
	if (!mkdtemp(dir)) {
		printf("not ok 1 - mkdtemp: errno %s\n", ename(errno));
		return 1;
	}
	check(stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 07777) == 0700,
	      "mkdtemp makes a 0700 directory");

	/* --- create / write / read / lseek --- */
	fd = open(P("f"), O_RDWR | O_CREAT | O_EXCL, 0644);
	check(fd >= 0, "open O_CREAT|O_EXCL of a new file");
	check(write(fd, "hello world\n", 12) == 12, "write 12 bytes");
	check(lseek(fd, 0, SEEK_CUR) == 12, "the offset is 12 after the write");
	check(lseek(fd, 0, SEEK_SET) == 0, "lseek back to 0");
	memset(buf, 0, sizeof buf);
	check(read(fd, buf, sizeof buf) == 12 && strcmp(buf, "hello world\n") == 0,
	      "read back what was written");
	check(lseek(fd, 6, SEEK_SET) == 6 && write(fd, "WORLD", 5) == 5, "overwrite in the middle");
	check(strcmp(read_file(P("f")), "hello WORLD\n") == 0, "the overwrite shows in a new open");
	check(lseek(fd, 20, SEEK_SET) == 20 && write(fd, "!", 1) == 1, "write past EOF");
	check(fsize(P("f")) == 21, "the file grew to 21 bytes");
	memset(buf, 'x', sizeof buf);
	check(pread(fd, buf, 9, 12) == 9 && memcmp(buf, "\0\0\0\0\0\0\0\0!", 9) == 0,
	      "the hole reads as zeros");
	close(fd);

	errno = 0;
	check_err(open(P("f"), O_RDWR | O_CREAT | O_EXCL, 0644), EEXIST,
		  "O_CREAT|O_EXCL on an existing file");
	fd = open(P("f"), O_RDWR | O_CREAT, 0600);
	check(fd >= 0, "O_CREAT without O_EXCL opens the existing file");
	check(fstat(fd, &st) == 0 && (st.st_mode & 07777) == 0644 && st.st_size == 21,
	      "the existing file keeps its mode and size");
	close(fd);

	/* --- O_TRUNC / O_APPEND --- */
	fd = open(P("f"), O_WRONLY | O_TRUNC);
	check(fd >= 0 && fstat(fd, &st) == 0 && st.st_size == 0, "O_TRUNC empties the file");
	check(write(fd, "abc", 3) == 3, "write abc");
	close(fd);
	fd = open(P("f"), O_WRONLY | O_APPEND);
	check(fd >= 0, "open O_APPEND");
	lseek(fd, 0, SEEK_SET);
	check(write(fd, "def", 3) == 3, "write def with O_APPEND after lseek(0)");
	check(lseek(fd, 0, SEEK_CUR) == 6, "the O_APPEND write left the offset at the end");
	close(fd);
	check(strcmp(read_file(P("f")), "abcdef") == 0, "O_APPEND appended: abcdef");

	/* --- pread / pwrite --- */
	fd = open(P("f"), O_RDWR);
	check(pwrite(fd, "XY", 2, 2) == 2, "pwrite 2 bytes at offset 2");
	check(lseek(fd, 0, SEEK_CUR) == 0, "pwrite does not move the offset");
	memset(buf, 0, sizeof buf);
	check(pread(fd, buf, 4, 1) == 4 && strcmp(buf, "bXYe") == 0, "pread sees the pwrite");
	check(pwrite(fd, "Z", 1, 10) == 1 && fsize(P("f")) == 11,
	      "pwrite past EOF extends the file");
	errno = 0;
	check_err(pwrite(fd, "Z", 1, -1), EINVAL, "pwrite at a negative offset");

	/* --- ftruncate / truncate --- */
	check(ftruncate(fd, 100) == 0, "ftruncate to 100");
	check(fstat(fd, &st) == 0 && st.st_size == 100, "fstat: size 100");
	memset(buf, 'x', sizeof buf);
	r = pread(fd, buf, 200, 11);
	{
		int zeros = r == 89;

		for (int i = 0; i < 89 && zeros; i++)
			zeros = buf[i] == 0;
		check(zeros, "the grown part reads as 89 zeros");
	}
	check(ftruncate(fd, 3) == 0 && fstat(fd, &st) == 0 && st.st_size == 3,
	      "ftruncate shrinks to 3");
	check(strcmp(read_file(P("f")), "abX") == 0, "the shrunk file is abX");
	errno = 0;
	check_err(ftruncate(fd, -1), EINVAL, "ftruncate to -1");
	close(fd);
	fd = open(P("f"), O_RDONLY);
	errno = 0;
	check_err(ftruncate(fd, 0), EINVAL, "ftruncate of an O_RDONLY fd");
	close(fd);
	check(truncate(P("f"), 5000) == 0 && fsize(P("f")) == 5000, "truncate by path to 5000");
	check(truncate(P("f"), 2) == 0 && fsize(P("f")) == 2, "truncate by path to 2");
	errno = 0;
	check_err(truncate(P("nosuch"), 0), ENOENT, "truncate of a missing file");

	/* --- stat types --- */
	check(mkdir(P("d"), 0755) == 0, "mkdir d");
	check(stat(P("f"), &st) == 0 && S_ISREG(st.st_mode), "stat f: S_ISREG");
	check(stat(P("d"), &st) == 0 && S_ISDIR(st.st_mode), "stat d: S_ISDIR");
	check((st.st_mode & 07777) == 0755, "mkdir 0755 under umask 022 gives 0755");
	check(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode), "stat /dev/null: S_ISCHR");

	/* --- chmod / fchmod --- */
	check(chmod(P("f"), 0751) == 0, "chmod 0751");
	check(stat(P("f"), &st) == 0, "stat after chmod");
	printf("ok %d - mode after chmod: %04o\n", ++n, (unsigned)(st.st_mode & 07777));
	fd = open(P("f"), O_RDONLY);
	check(fchmod(fd, 04640) == 0, "fchmod 04640");
	check(fstat(fd, &st) == 0, "fstat after fchmod");
	printf("ok %d - mode after fchmod: %04o\n", ++n, (unsigned)(st.st_mode & 07777));
	close(fd);
	check(chmod(P("f"), 0644) == 0, "chmod back to 0644");

	/* --- utimensat --- */
	ts[0].tv_sec = 1000000000;
	ts[0].tv_nsec = 123456789;
	ts[1].tv_sec = 1234567890;
	ts[1].tv_nsec = 987654321;
	check(utimensat(AT_FDCWD, P("f"), ts, 0) == 0, "utimensat with explicit times");
	check(stat(P("f"), &st) == 0 && st.st_mtim.tv_sec == ts[1].tv_sec &&
		      st.st_mtim.tv_nsec == ts[1].tv_nsec,
	      "stat: mtime equals the one set");
	check(st.st_atim.tv_sec == ts[0].tv_sec && st.st_atim.tv_nsec == ts[0].tv_nsec,
	      "stat: atime equals the one set");
	ts[0].tv_nsec = UTIME_OMIT;
	ts[1].tv_sec = 2000000000;
	ts[1].tv_nsec = 0;
	check(utimensat(AT_FDCWD, P("f"), ts, 0) == 0 && stat(P("f"), &st) == 0 &&
		      st.st_mtim.tv_sec == 2000000000 && st.st_atim.tv_sec == 1000000000,
	      "UTIME_OMIT leaves atime alone");
	ts[0].tv_nsec = 1000000000;
	errno = 0;
	check_err(utimensat(AT_FDCWD, P("f"), ts, 0), EINVAL, "utimensat with tv_nsec 1e9");
	check_err(syscall(SYS_utimensat, AT_FDCWD, NULL, NULL, 0), EFAULT,
		  "utimensat(AT_FDCWD, NULL)");
	fd = open(P("f"), O_RDONLY);
	check_err(syscall(SYS_utimensat, fd, NULL, NULL, AT_SYMLINK_NOFOLLOW), EINVAL,
		  "utimensat(fd, NULL, AT_SYMLINK_NOFOLLOW)");
	close(fd);

	/* --- setting times as a non-owner (uid 1000): times set to now need
	 * write access (EACCES), other times the owner (EPERM) --- */
	check(write_file(P("t644"), "x") == 0 && chmod(P("t644"), 0644) == 0, "make t644");
	check(write_file(P("t666"), "x") == 0 && chmod(P("t666"), 0666) == 0, "make t666");
	check(chmod(dir, 0755) == 0, "the directory searchable by others");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct timespec now2[2] = { { 0, UTIME_NOW }, { 0, UTIME_NOW } };
		struct timespec now_omit[2] = { { 0, UTIME_NOW }, { 0, UTIME_OMIT } };
		struct timespec omit2[2] = { { 0, UTIME_OMIT }, { 0, UTIME_OMIT } };
		struct timespec set[2] = { { 5, 0 }, { 6, 0 } };
		struct timeval tv[2] = { { 7, 0 }, { 8, 0 } };
		long ub[2] = { 9, 10 };
		int n0 = n;

		if (setresuid(1000, 1000, 1000) < 0)
			_exit(255);
		errno = 0;
		check_err(utimensat(AT_FDCWD, P("t644"), NULL, 0), EACCES,
			  "utimensat(NULL), no write access");
		check(utimensat(AT_FDCWD, P("t666"), NULL, 0) == 0,
		      "utimensat(NULL), write access");
		check_err(utimensat(AT_FDCWD, P("t644"), now2, 0), EACCES,
			  "utimensat(NOW, NOW), no write access");
		check(utimensat(AT_FDCWD, P("t666"), now2, 0) == 0,
		      "utimensat(NOW, NOW), write access");
		check_err(utimensat(AT_FDCWD, P("t666"), now_omit, 0), EPERM,
			  "utimensat(NOW, OMIT), not the owner");
		check_err(utimensat(AT_FDCWD, P("t666"), set, 0), EPERM,
			  "utimensat(explicit times), not the owner");
		check(utimensat(AT_FDCWD, P("t644"), omit2, 0) == 0,
		      "utimensat(OMIT, OMIT) checks nothing");
		check_err(syscall(SYS_utimes, P("t644"), NULL), EACCES,
			  "utimes(NULL), no write access");
		check(syscall(SYS_utimes, P("t666"), NULL) == 0, "utimes(NULL), write access");
		check_err(syscall(SYS_utimes, P("t666"), tv), EPERM,
			  "utimes(times), not the owner");
		check_err(syscall(SYS_utime, P("t644"), NULL), EACCES,
			  "utime(NULL), no write access");
		check(syscall(SYS_utime, P("t666"), NULL) == 0, "utime(NULL), write access");
		check_err(syscall(SYS_utime, P("t666"), ub), EPERM, "utime(times), not the owner");
		check(syscall(SYS_futimesat, AT_FDCWD, P("t666"), NULL) == 0,
		      "futimesat(NULL), write access");
		check_err(syscall(SYS_futimesat, AT_FDCWD, P("t666"), tv), EPERM,
			  "futimesat(times), not the owner");
		fflush(stdout);
		_exit(n - n0);
	}
	check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 15,
	      "the uid-1000 child made its 15 checks");
	n += 15;
	check(chmod(dir, 0700) == 0, "the directory private again");
	{
		struct timeval tv[2] = { { 7, 500000 }, { 8, 250000 } };
		long ub[2] = { 9, 10 };

		check(syscall(SYS_utimes, P("t644"), tv) == 0 && stat(P("t644"), &st) == 0 &&
			      st.st_atim.tv_sec == 7 && st.st_atim.tv_nsec == 500000000 &&
			      st.st_mtim.tv_sec == 8 && st.st_mtim.tv_nsec == 250000000,
		      "utimes sets both times, to the microsecond");
		check(syscall(SYS_utime, P("t644"), ub) == 0 && stat(P("t644"), &st) == 0 &&
			      st.st_atim.tv_sec == 9 && st.st_mtim.tv_sec == 10 &&
			      st.st_mtim.tv_nsec == 0,
		      "utime sets both times, whole seconds");
		fd = open(P("t644"), O_RDONLY);
		check(syscall(SYS_futimesat, fd, NULL, tv) == 0 && fstat(fd, &st) == 0 &&
			      st.st_mtim.tv_sec == 8,
		      "futimesat(fd, NULL) sets the times of the file at fd");
		close(fd);
		check(unlink(P("t644")) == 0 && unlink(P("t666")) == 0, "remove t644 and t666");
	}

	/* --- an O_PATH fd changes nothing --- */
	fd = open(P("f"), O_PATH);
	check(fstat(fd, &st) == 0 && (st.st_mode & 07777) == 0644, "fstat of an O_PATH fd");
	check_err(syscall(SYS_fchmod, fd, 0600), EBADF, "fchmod of an O_PATH fd");
	check_err(syscall(SYS_fchown, fd, 1, 1), EBADF, "fchown of an O_PATH fd");
	check_err(syscall(SYS_ftruncate, fd, 1), EBADF, "ftruncate of an O_PATH fd");
	check_err(futimens(fd, NULL), EBADF, "futimens of an O_PATH fd");
	check_err(fsync(fd), EBADF, "fsync of an O_PATH fd");
	check_err(syscall(SYS_fsetxattr, fd, "user.x", "1", 1, 0), EBADF,
		  "fsetxattr of an O_PATH fd");
	check(stat(P("f"), &st) == 0 && (st.st_mode & 07777) == 0644 && st.st_uid != 1 &&
		      st.st_mtim.tv_sec == 2000000000,
	      "the file is unchanged");
	close(fd);

	/* --- hard links --- */
	check(write_file(P("a"), "content A") == 0, "create a");
	check(link(P("a"), P("b")) == 0, "link a b");
	check(stat(P("a"), &st) == 0 && st.st_nlink == 2, "a: nlink 2");
	check(stat(P("b"), &st2) == 0 && st2.st_nlink == 2 && st2.st_ino == st.st_ino,
	      "b: nlink 2, same inode");
	check(strcmp(read_file(P("b")), "content A") == 0, "b has a's content");
	errno = 0;
	check_err(link(P("a"), P("b")), EEXIST, "link onto an existing name");
	errno = 0;
	check_err(link(P("d"), P("dlink")), EPERM, "link of a directory");
	check(unlink(P("a")) == 0, "unlink a");
	check(stat(P("b"), &st) == 0 && st.st_nlink == 1, "b: nlink 1");
	errno = 0;
	check_err(stat(P("a"), &st), ENOENT, "a is gone");
	check(strcmp(read_file(P("b")), "content A") == 0, "b still has the content");
	fd = open(P("b"), O_RDONLY);
	check(unlink(P("b")) == 0, "unlink b while it is open");
	memset(buf, 0, sizeof buf);
	check(fd >= 0 && read(fd, buf, sizeof buf) == 9 && strcmp(buf, "content A") == 0,
	      "the open fd still reads the unlinked file");
	check(fstat(fd, &st) == 0 && st.st_nlink == 0, "fstat of the unlinked file: nlink 0");
	close(fd);

	/* --- symlinks --- */
	check(write_file(P("target"), "T") == 0, "create target");
	check(symlink("target", P("sl")) == 0, "symlink sl -> target");
	memset(buf, 0, sizeof buf);
	check(readlink(P("sl"), buf, sizeof buf) == 6 && strcmp(buf, "target") == 0,
	      "readlink sl is target");
	check(strcmp(read_file(P("sl")), "T") == 0, "open follows sl");
	check(lstat(P("sl"), &st) == 0 && S_ISLNK(st.st_mode) && st.st_size == 6,
	      "lstat sl: S_ISLNK, size 6");
	check(stat(P("sl"), &st) == 0 && S_ISREG(st.st_mode), "stat sl: S_ISREG");
	errno = 0;
	check_err(symlink("x", P("sl")), EEXIST, "symlink onto an existing name");
	check(symlink("nowhere", P("dangling")) == 0, "symlink to a missing target");
	errno = 0;
	check_err(open(P("dangling"), O_RDONLY), ENOENT, "open of a dangling symlink");
	fd = open(P("dangling"), O_WRONLY | O_CREAT, 0644);
	check(fd >= 0, "O_CREAT through a dangling symlink creates the target");
	close(fd);
	check(stat(P("nowhere"), &st) == 0 && S_ISREG(st.st_mode), "the target now exists");
	errno = 0;
	check_err(open(P("dangling"), O_WRONLY | O_CREAT | O_EXCL, 0644), EEXIST,
		  "O_CREAT|O_EXCL on a symlink");
	check(symlink("loop2", P("loop1")) == 0 && symlink("loop1", P("loop2")) == 0,
	      "symlinks loop1 -> loop2 -> loop1");
	errno = 0;
	check_err(open(P("loop1"), O_RDONLY), ELOOP, "open of a symlink loop");
	errno = 0;
	check_err(stat(P("loop1"), &st), ELOOP, "stat of a symlink loop");
	check(lstat(P("loop1"), &st) == 0 && S_ISLNK(st.st_mode), "lstat of a loop link works");
	errno = 0;
	check_err(open(P("sl"), O_RDONLY | O_NOFOLLOW), ELOOP, "O_NOFOLLOW on a symlink");
	check(symlink("d", P("dl")) == 0, "symlink dl -> d");
	check(stat(P("dl/"), &st) == 0 && S_ISDIR(st.st_mode), "dl/ follows to the directory");
	errno = 0;
	check_err(readlink(P("target"), buf, sizeof buf), EINVAL, "readlink of a regular file");

	/* --- path errors --- */
	errno = 0;
	check_err(open(P("f"), O_RDONLY | O_DIRECTORY), ENOTDIR, "O_DIRECTORY on a file");
	errno = 0;
	check_err(open(P("f/x"), O_RDONLY), ENOTDIR, "open f/x through a file");
	errno = 0;
	check_err(open(P("f/x"), O_WRONLY | O_CREAT, 0644), ENOTDIR, "create f/x through a file");
	errno = 0;
	check_err(mkdir(P("f/x"), 0755), ENOTDIR, "mkdir f/x through a file");
	memset(longname, 'n', 256);
	longname[256] = 0;
	errno = 0;
	check_err(open(P(longname), O_WRONLY | O_CREAT, 0644), ENAMETOOLONG,
		  "create with a 256-byte component");
	errno = 0;
	check_err(stat(P(longname), &st), ENAMETOOLONG, "stat of a 256-byte component");
	longname[255] = 0;
	fd = open(P(longname), O_WRONLY | O_CREAT, 0644);
	check(fd >= 0, "create with a 255-byte component works");
	close(fd);
	check(unlink(P(longname)) == 0, "unlink the 255-byte name");
	errno = 0;
	check_err(open(P("nosuch/x"), O_WRONLY | O_CREAT, 0644), ENOENT,
		  "create in a missing directory");
	errno = 0;
	check_err(open(P("d"), O_WRONLY), EISDIR, "open a directory for writing");
	errno = 0;
	check_err(open(P("newdir/"), O_WRONLY | O_CREAT, 0644), EISDIR,
		  "O_CREAT with a trailing slash");

	/* --- mkdir / rmdir / unlink --- */
	errno = 0;
	check_err(mkdir(P("d"), 0755), EEXIST, "mkdir of an existing directory");
	errno = 0;
	check_err(mkdir(P("f"), 0755), EEXIST, "mkdir over an existing file");
	check(write_file(P("d/inner"), "i") == 0, "create d/inner");
	errno = 0;
	check_err(rmdir(P("d")), ENOTEMPTY, "rmdir of a non-empty directory");
	errno = 0;
	check_err(rmdir(P("f")), ENOTDIR, "rmdir of a file");
	errno = 0;
	check_err(unlink(P("d")), EISDIR, "unlink of a directory");
	errno = 0;
	check_err(rmdir(P("d/.")), EINVAL, "rmdir d/.");
	errno = 0;
	check_err(rmdir(P("nosuch")), ENOENT, "rmdir of a missing name");
	check(mkdir(P("e"), 0755) == 0 && rmdir(P("e")) == 0, "mkdir then rmdir e");
	check(stat(P("e"), &st) == -1 && errno == ENOENT, "e is gone");
	check(stat(P("d"), &st) == 0 && st.st_nlink == 2, "d: nlink 2 (no subdirectories)");
	check(mkdir(P("d/s1"), 0755) == 0 && stat(P("d"), &st) == 0 && st.st_nlink == 3,
	      "a subdirectory raises d's nlink to 3");
	check(rmdir(P("d/s1")) == 0 && stat(P("d"), &st) == 0 && st.st_nlink == 2,
	      "rmdir of it lowers it back to 2");

	/* --- rename --- */
	check(write_file(P("r1"), "one") == 0 && write_file(P("r2"), "two") == 0, "create r1, r2");
	check(rename(P("r1"), P("r2")) == 0, "rename r1 over r2");
	check(strcmp(read_file(P("r2")), "one") == 0, "r2 now has r1's content");
	check(stat(P("r1"), &st) == -1 && errno == ENOENT, "r1 is gone");
	check(rename(P("r2"), P("r2")) == 0, "rename a file onto itself");
	check(mkdir(P("rd"), 0755) == 0 && write_file(P("rd/x"), "x") == 0, "mkdir rd with rd/x");
	check(rename(P("rd"), P("rd2")) == 0, "rename a directory to a new name");
	check(strcmp(read_file(P("rd2/x")), "x") == 0, "rd2/x is there");
	check(stat(P("rd"), &st) == -1 && errno == ENOENT, "rd is gone");
	check(mkdir(P("rd2/sub"), 0755) == 0, "mkdir rd2/sub");
	errno = 0;
	check_err(rename(P("rd2"), P("rd2/sub/in")), EINVAL,
		  "rename a directory into its own subdirectory");
	errno = 0;
	r = rename(P("rd2"), P("d"));
	printf("%s %d - rename onto a non-empty directory -> %s\n",
	       r == -1 && (errno == ENOTEMPTY || errno == EEXIST) ? "ok" : "not ok", ++n, res(r));
	check(mkdir(P("empty"), 0755) == 0 && rename(P("rd2"), P("empty")) == 0,
	      "rename a directory onto an empty one");
	check(strcmp(read_file(P("empty/x")), "x") == 0, "the moved directory's content is there");
	errno = 0;
	check_err(rename(P("f"), P("empty")), EISDIR, "rename a file onto a directory");
	errno = 0;
	check_err(rename(P("empty"), P("f")), ENOTDIR, "rename a directory onto a file");
	errno = 0;
	check_err(rename(P("nosuch"), P("f2")), ENOENT, "rename of a missing name");
	check(write_file(P("n1"), "n1") == 0, "create n1");
	errno = 0;
	check_err(syscall(SYS_renameat2, AT_FDCWD, P("n1"), AT_FDCWD, P("f"), RENAME_NOREPLACE),
		  EEXIST, "renameat2 RENAME_NOREPLACE onto an existing file");
	check(strcmp(read_file(P("f")), "ab") == 0 && strcmp(read_file(P("n1")), "n1") == 0,
	      "both files are unchanged");
	check(syscall(SYS_renameat2, AT_FDCWD, P("n1"), AT_FDCWD, P("n2"), RENAME_NOREPLACE) == 0,
	      "renameat2 RENAME_NOREPLACE to a new name");
	check(rename(P("sl"), P("sl2")) == 0 && lstat(P("sl2"), &st) == 0 && S_ISLNK(st.st_mode),
	      "rename moves the symlink itself");
	check(unlink(P("sl2")) == 0 && stat(P("target"), &st) == 0,
	      "unlink of a symlink keeps the target");

	/* --- getdents64 --- */
	{
		const char *want = ". .. d dangling dl empty f loop1 loop2 n2 nowhere r2 target";
		const char *got = list_dir(dir);

		check(strcmp(got, want) == 0, "getdents64 lists . .. d dangling dl empty f loop1 "
					      "loop2 n2 nowhere r2 target");
		if (strcmp(got, want) != 0)
			printf("# got: %s\n", got);
		got = list_dir(P("empty"));
		check(strcmp(got, ". .. sub x") == 0, "getdents64 of empty lists . .. sub x");
		if (strcmp(got, ". .. sub x") != 0)
			printf("# got: %s\n", got);
	}

	/* --- chdir / getcwd --- */
	check(chdir(dir) == 0, "chdir into the directory");
	check(getcwd(cwd, sizeof cwd) && strcmp(cwd, dir) == 0, "getcwd is the mkdtemp path");
	check(strcmp(read_file("f"), "ab") == 0, "a relative open finds f");
	check(chdir("empty") == 0 && getcwd(cwd, sizeof cwd) && strcmp(cwd, P("empty")) == 0,
	      "chdir empty: getcwd follows");
	check(chdir("..") == 0 && getcwd(cwd, sizeof cwd) && strcmp(cwd, dir) == 0,
	      "chdir .. returns");
	check(chdir("dl") == 0 && getcwd(cwd, sizeof cwd) && strcmp(cwd, P("d")) == 0,
	      "chdir through a symlink: getcwd is the real path");
	check(chdir("..") == 0 && chdir("..") == 0, "chdir .. twice");
	memset(cwd, 0, sizeof cwd);
	check(getcwd(cwd, sizeof cwd) && strcmp(cwd, "/tmp") == 0, "getcwd is /tmp");
	errno = 0;
	check_err(chdir(P("f")), ENOTDIR, "chdir to a file");
	check(chdir(dir) == 0, "chdir back in");

	/* --- fifos --- */
	check(mkfifo("fifo", 0644) == 0, "mkfifo");
	check(stat("fifo", &st) == 0 && S_ISFIFO(st.st_mode), "stat fifo: S_ISFIFO");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int w = open("fifo", O_WRONLY);

		if (w < 0 || write(w, "hi", 2) != 2)
			_exit(1);
		close(w);
		_exit(0);
	}
	fd = open("fifo", O_RDONLY);
	memset(buf, 0, sizeof buf);
	r = 0;
	if (fd >= 0) {
		ssize_t k;

		while ((k = read(fd, buf + r, sizeof buf - 1 - r)) > 0)
			r += k;
		close(fd);
	}
	check(r == 2 && strcmp(buf, "hi") == 0,
	      "the parent reads hi from the child through the fifo");
	check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0,
	      "the child exited 0");
	errno = 0;
	check_err(mkfifo("fifo", 0644), EEXIST, "mkfifo over an existing name");
	check(mknod("nodfifo", S_IFIFO | 0600, 0) == 0, "mknod S_IFIFO");
	check(stat("nodfifo", &st) == 0 && S_ISFIFO(st.st_mode) && (st.st_mode & 0777) == 0600,
	      "stat nodfifo: S_ISFIFO, 0600");
	check(mknod("nodreg", S_IFREG | 0644, 0) == 0 && stat("nodreg", &st) == 0 &&
		      S_ISREG(st.st_mode) && st.st_size == 0,
	      "mknod S_IFREG makes an empty file");
	fd = open("nodfifo", O_RDONLY | O_NONBLOCK);
	check(fd >= 0, "open a fifo O_RDONLY|O_NONBLOCK without a writer");
	fd2 = open("nodfifo", O_WRONLY | O_NONBLOCK);
	check(fd2 >= 0, "open it O_WRONLY|O_NONBLOCK while a reader has it open");
	close(fd2);
	close(fd);
	errno = 0;
	check_err(open("nodfifo", O_WRONLY | O_NONBLOCK), ENXIO,
		  "O_WRONLY|O_NONBLOCK without a reader");

	/* --- *at calls --- */
	dfd = open(P("d"), O_RDONLY | O_DIRECTORY);
	check(dfd >= 0, "open d as a dirfd");
	fd = openat(dfd, "at_file", O_RDWR | O_CREAT | O_EXCL, 0644);
	check(fd >= 0 && write(fd, "AT", 2) == 2, "openat(dirfd, at_file, O_CREAT) and write");
	close(fd);
	check(strcmp(read_file(P("d/at_file")), "AT") == 0, "the file is in d");
	check(symlinkat("at_file", dfd, "at_link") == 0, "symlinkat in d");
	check(fstatat(dfd, "at_link", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode),
	      "fstatat AT_SYMLINK_NOFOLLOW: S_ISLNK");
	check(fstatat(dfd, "at_link", &st, 0) == 0 && S_ISREG(st.st_mode) && st.st_size == 2,
	      "fstatat follows: S_ISREG, size 2");
	check(faccessat(dfd, "at_file", F_OK, 0) == 0, "faccessat F_OK");
	check(faccessat(dfd, "at_file", R_OK | W_OK, 0) == 0, "faccessat R_OK|W_OK");
	errno = 0;
	check_err(faccessat(dfd, "at_file", X_OK, 0), EACCES,
		  "faccessat X_OK on a 0644 file (root)");
	check(fchmodat(dfd, "at_file", 0700, 0) == 0 && faccessat(dfd, "at_file", X_OK, 0) == 0,
	      "fchmodat 0700, then X_OK is allowed");
	errno = 0;
	check_err(faccessat(dfd, "missing", F_OK, 0), ENOENT, "faccessat of a missing name");
	check(mkdirat(dfd, "at_dir", 0755) == 0, "mkdirat");
	check(renameat(dfd, "at_file", dfd, "at_dir/moved") == 0, "renameat into at_dir");
	check(linkat(dfd, "at_dir/moved", dfd, "hard", 0) == 0 &&
		      fstatat(dfd, "hard", &st, 0) == 0 && st.st_nlink == 2,
	      "linkat: nlink 2");
	check(unlinkat(dfd, "hard", 0) == 0, "unlinkat a file");
	errno = 0;
	check_err(unlinkat(dfd, "at_dir", 0), EISDIR,
		  "unlinkat of a directory without AT_REMOVEDIR");
	errno = 0;
	check_err(unlinkat(dfd, "at_dir", AT_REMOVEDIR), ENOTEMPTY,
		  "unlinkat AT_REMOVEDIR of a non-empty one");
	check(unlinkat(dfd, "at_dir/moved", 0) == 0 && unlinkat(dfd, "at_dir", AT_REMOVEDIR) == 0,
	      "unlinkat its file, then AT_REMOVEDIR");
	errno = 0;
	check_err(unlinkat(dfd, "at_link", AT_REMOVEDIR), ENOTDIR,
		  "unlinkat AT_REMOVEDIR of a symlink");
	check(unlinkat(dfd, "at_link", 0) == 0, "unlinkat the symlink");
	close(dfd);

	/* --- umask --- */
	check(umask(077) == 022, "umask(077) returns the old 022");
	fd = open("masked", O_WRONLY | O_CREAT | O_EXCL, 0666);
	check(fd >= 0 && fstat(fd, &st) == 0, "create masked with 0666");
	close(fd);
	printf("ok %d - mode under umask 077: %04o\n", ++n, (unsigned)(st.st_mode & 07777));
	check(mkdir("maskdir", 0777) == 0 && stat("maskdir", &st) == 0, "mkdir maskdir 0777");
	printf("ok %d - dir mode under umask 077: %04o\n", ++n, (unsigned)(st.st_mode & 07777));
	check(umask(022) == 077, "umask(022) returns 077");

	/* --- statfs / fsync --- */
	check(statfs(dir, &sfs) == 0, "statfs of the directory");
	fd = open("f", O_RDWR);
	check(fstatfs(fd, &sfs) == 0, "fstatfs");
	check(fsync(fd) == 0, "fsync");
	check(fdatasync(fd) == 0, "fdatasync");
	close(fd);
	errno = 0;
	check_err(fsync(1000), EBADF, "fsync of a bad fd");

	/* --- xattrs --- */
	r = setxattr("f", "user.test", "val", 3, 0);
	check_ok(r, "setxattr user.test");
	memset(buf, 0, sizeof buf);
	r = getxattr("f", "user.test", buf, sizeof buf);
	check(r == 3 && strcmp(buf, "val") == 0, "getxattr user.test is val");
	check(getxattr("f", "user.test", NULL, 0) == 3, "getxattr size query is 3");
	errno = 0;
	check_err(getxattr("f", "user.test", buf, 1), ERANGE, "getxattr into a small buffer");
	errno = 0;
	check_err(getxattr("f", "user.none", buf, sizeof buf), ENODATA,
		  "getxattr of a missing name");
	errno = 0;
	check_err(setxattr("f", "user.test", "v2", 2, XATTR_CREATE), EEXIST,
		  "setxattr XATTR_CREATE on an existing one");
	errno = 0;
	check_err(setxattr("f", "user.other", "v2", 2, XATTR_REPLACE), ENODATA,
		  "setxattr XATTR_REPLACE on a missing one");
	memset(buf, 0, sizeof buf);
	r = listxattr("f", buf, sizeof buf);
	check(r > 0 && memmem(buf, r, "user.test", 10) != NULL, "listxattr has user.test");
	check(removexattr("f", "user.test") == 0, "removexattr");
	errno = 0;
	check_err(getxattr("f", "user.test", buf, sizeof buf), ENODATA,
		  "getxattr after removexattr");

	/* --- cleanup --- */
	check(chdir("/") == 0, "chdir /");
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	rm_tree(fd);
	check(rmdir(dir) == 0, "the directory and everything in it is removed");
	errno = 0;
	check_err(stat(dir, &st), ENOENT, "the directory is gone");
	return 0;
}
