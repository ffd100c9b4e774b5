/* O_TMPFILE on the directory of /tmp and on /dev/shm: an unnamed file
 * (nlink 0, mode from the umask), made visible by linkat(fd, "", ...,
 * AT_EMPTY_PATH) or linkat of /proc/self/fd/N with AT_SYMLINK_FOLLOW;
 * O_EXCL forbids that; EINVAL/ENOTDIR/ENOENT/EACCES/EOPNOTSUPP as open(2)
 * says; an unlinked ordinary file cannot be linked again. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tap.h"

static const char *ename(int e)
{
	switch (e) {
	case EINVAL:
		return "EINVAL";
	case ENOENT:
		return "ENOENT";
	case ENOTDIR:
		return "ENOTDIR";
	case EACCES:
		return "EACCES";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	case EISDIR:
		return "EISDIR";
	default:
		return "E?";
	}
}

static void check_err(long r, int want, const char *what)
{
	int e = errno;

	if (r == -1 && e == want)
		printf("ok %d - %s -> %s\n", ++n, what, ename(want));
	else
		printf("not ok %d - %s: got %ld (%s), want %s\n", ++n, what, r,
		       r == -1 ? ename(e) : "no error", ename(want));
	if (r >= 0)
		close((int)r);
}

static void in(const char *dir, const char *label)
{
	char what[160], path[160], proc[64], buf[256];
	struct stat st, st2;
	int fd, fd2;
	ssize_t r;

#define T(s) (snprintf(what, sizeof(what), "%s: %s", label, s), what)
	fd = open(dir, O_TMPFILE | O_RDWR, 0666);
	check(fd >= 0, T("O_TMPFILE|O_RDWR"));
	check(fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 0 &&
		      (st.st_mode & 07777) == 0644,
	      T("a regular file, nlink 0, mode 0666 & ~umask"));
	check(write(fd, "hello", 5) == 5 && pread(fd, buf, 5, 0) == 5 && !memcmp(buf, "hello", 5),
	      T("written and read back"));
	check((fcntl(fd, F_GETFL) & O_TMPFILE) == O_TMPFILE, T("F_GETFL shows O_TMPFILE"));
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	r = readlink(proc, buf, sizeof(buf) - 1);
	buf[r > 0 ? r : 0] = 0;
	snprintf(path, sizeof(path), "%s/#", dir);
	check(r > 0 && strncmp(buf, path, strlen(path)) == 0, T("/proc/self/fd names DIR/#INO"));
	snprintf(path, sizeof(path), "%s/named", dir);
	check(linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH) == 0, T("linkat AT_EMPTY_PATH"));
	check(stat(path, &st2) == 0 && st2.st_nlink == 1 && st2.st_size == 5,
	      T("the name shows the file"));
	check(fstat(fd, &st) == 0 && st.st_nlink == 1 && st.st_ino == st2.st_ino,
	      T("the fd's file has one link now"));
	snprintf(path, sizeof(path), "%s/named2", dir);
	check(linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH) == 0 && fstat(fd, &st) == 0 &&
		      st.st_nlink == 2,
	      T("a second link"));
	unlink(path);
	snprintf(path, sizeof(path), "%s/named", dir);
	unlink(path);
	close(fd);

	fd = open(dir, O_TMPFILE | O_WRONLY, 0600);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	snprintf(path, sizeof(path), "%s/viaproc", dir);
	check(fd >= 0 && linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0,
	      T("linkat of /proc/self/fd/N, AT_SYMLINK_FOLLOW"));
	check(stat(path, &st) == 0 && (st.st_mode & 07777) == 0600, T("visible with its mode"));
	unlink(path);
	close(fd);

	fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL, 0600);
	check(fd >= 0, T("O_TMPFILE|O_EXCL"));
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	check_err(linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH), ENOENT,
		  T("O_EXCL: linkat AT_EMPTY_PATH"));
	check_err(linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW), ENOENT,
		  T("O_EXCL: linkat via /proc"));
	close(fd);

	check_err(open(dir, O_TMPFILE | O_RDONLY, 0600), EINVAL, T("O_RDONLY"));
	check_err(open(dir, 020000000 | O_RDWR, 0600), EINVAL, T("without O_DIRECTORY"));
	check_err(open(dir, O_TMPFILE | O_CREAT | O_RDWR, 0600), EINVAL, T("with O_CREAT"));
	snprintf(path, sizeof(path), "%s/file", dir);
	close(open(path, O_CREAT | O_WRONLY, 0644));
	check_err(open(path, O_TMPFILE | O_RDWR, 0600), ENOTDIR, T("on a regular file"));
	fd = open(path, O_RDWR);
	unlink(path);
	check_err(linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH), ENOENT,
		  T("an unlinked ordinary file cannot be linked"));
	close(fd);
	snprintf(path, sizeof(path), "%s/missing", dir);
	check_err(open(path, O_TMPFILE | O_RDWR, 0600), ENOENT, T("in a missing directory"));
	fd = fork();
	if (fd == 0) {
		chmod(dir, 0755);
		if (setgid(65534) < 0 || setuid(65534) < 0)
			_exit(1);
		fd = open(dir, O_TMPFILE | O_RDWR, 0600);
		_exit(fd == -1 && errno == EACCES ? 0 : 2);
	}
	waitpid(fd, &fd2, 0);
	check(WIFEXITED(fd2) && WEXITSTATUS(fd2) == 0, T("no write permission: EACCES"));
#undef T
}

int main(void)
{
	char tmp[64] = "/tmp/skas-tmpfile.XXXXXX", shm[64] = "/dev/shm/skas-tmpfile.XXXXXX";

	setvbuf(stdout, NULL, _IONBF, 0);
	umask(022);
	if (!mkdtemp(tmp) || !mkdtemp(shm))
		return 1;
	in(tmp, "/tmp");
	in(shm, "/dev/shm");
	check_err(open("/proc", O_TMPFILE | O_RDWR, 0600), EOPNOTSUPP, "on /proc");
	check(rmdir(tmp) == 0 && rmdir(shm) == 0, "all cleaned up");
	return 0;
}
