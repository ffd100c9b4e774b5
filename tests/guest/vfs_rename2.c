/* renameat2 RENAME_EXCHANGE (files, directories, a file with a directory,
 * across directories, EINVAL with NOREPLACE or WHITEOUT, ENOENT when either
 * is missing, ancestors) on the directory of /tmp and on /dev/shm (a
 * tmpfs), and RENAME_WHITEOUT on /dev/shm (a 0/0 character device owned by
 * the caller is left behind; unprivileged callers may do it, as Linux
 * since 5.8). Children report through their exit status. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"

#define NOREPLACE 1
#define EXCHANGE  2
#define WHITEOUT  4

static long ren(const char *a, const char *b, unsigned flags)
{
	return syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, flags);
}

static void put(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	write(fd, s, strlen(s));
	close(fd);
}

static int has(const char *path, const char *s)
{
	char buf[64];
	int fd = open(path, O_RDONLY);
	ssize_t r = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (r < 0)
		return 0;
	buf[r] = 0;
	return strcmp(buf, s) == 0;
}

static ino_t ino(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 ? st.st_ino : 0;
}

static long nlink(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 ? (long)st.st_nlink : -1;
}

static void exchange_in(const char *base, const char *label)
{
	char what[128];
	ino_t ia, ib;

	if (chdir(base) < 0) {
		check(0, "chdir");
		return;
	}
#define T(s) (snprintf(what, sizeof(what), "%s: %s", label, s), what)
	put("a", "A");
	put("b", "B");
	ia = ino("a");
	ib = ino("b");
	check(ren("a", "b", EXCHANGE) == 0, T("exchange two files"));
	check(has("a", "B") && has("b", "A"), T("contents swapped"));
	check(ino("a") == ib && ino("b") == ia, T("inodes swapped"));
	mkdir("d1", 0755);
	mkdir("d2", 0755);
	put("d1/in", "I");
	check(ren("a", "d1", EXCHANGE) == 0, T("exchange a file with a directory"));
	check(has("d1", "B") && has("a/in", "I"), T("the file and the directory swapped"));
	check(ren("a", "d1", EXCHANGE) == 0, T("and back"));
	check(nlink("d1") == 2 && nlink("d2") == 2, T("directory link counts"));
	check(ren("b", "d2/x", EXCHANGE) == -1 && errno == ENOENT, T("missing target: ENOENT"));
	mkdir("d2/sub", 0755);
	check(ren("d1/in", "d2/sub", EXCHANGE) == 0, T("exchange across directories"));
	check(has("d2/sub", "I") && access("d1/in/.", F_OK) == 0, T("moved both ways"));
	check(nlink("d1") == 3 && nlink("d2") == 2, T("parents' link counts follow the directory"));
	check(ren("d1/in", "d2/sub", EXCHANGE) == 0, T("and back"));
	check(nlink("d1") == 2 && nlink("d2") == 3, T("link counts back"));
	check_err(ren("nope", "b", EXCHANGE), ENOENT, T("missing source"));
	check_err(ren("a", "b", EXCHANGE | NOREPLACE), EINVAL, T("EXCHANGE|NOREPLACE"));
	check_err(ren("a", "b", EXCHANGE | WHITEOUT), EINVAL, T("EXCHANGE|WHITEOUT"));
	check_err(ren("a", "b", 8), EINVAL, T("unknown flag"));
	check_err(ren("a", "..", NOREPLACE), EEXIST, T("NOREPLACE onto ..: EEXIST"));
	check_err(ren("a", ".", NOREPLACE), EEXIST, T("NOREPLACE onto .: EEXIST"));
	check_err(ren("a", "..", 0), EBUSY, T("onto ..: EBUSY"));
	check_err(ren("..", "z", NOREPLACE), EBUSY, T("NOREPLACE from ..: EBUSY"));
	check_err(ren("d2", "d2/sub", EXCHANGE), EINVAL, T("with its own subdirectory"));
	check_err(ren("d2/sub", "d2", EXCHANGE), EINVAL, T("with its parent"));
	check_err(ren("d2/sub", "d2", 0), ENOTEMPTY, T("plain rename onto its parent"));
	check_err(ren("a", "b", NOREPLACE), EEXIST, T("NOREPLACE onto a file"));
	link("a", "a2");
	check(ren("a", "a2", EXCHANGE) == 0 && has("a", "B"), T("exchange of two links: nothing"));
	unlink("a2");
	check(ren("b", "d2/sub/b", 0) == 0 && ren("d2/sub/b", "b", EXCHANGE) == -1,
	      T("rename into a subdirectory; exchange with a missing name fails"));
	ren("d2/sub/b", "b", 0);
	unlink("a");
	unlink("b");
	unlink("d1/in");
	rmdir("d1");
	rmdir("d2/sub");
	rmdir("d2");
#undef T
}

static void whiteouts(const char *base)
{
	struct stat st;
	int status;
	pid_t pid;

	if (chdir(base) < 0)
		return;
	put("b", "B");
	check(ren("b", "c", WHITEOUT) == 0, "tmpfs: RENAME_WHITEOUT");
	check(has("c", "B"), "the file moved");
	check(lstat("b", &st) == 0 && st.st_mode == S_IFCHR && st.st_rdev == 0 && st.st_uid == 0,
	      "a 0/0 character device, mode 0, owned by the caller, is left");
	put("b2", "X");
	check(ren("b2", "c", WHITEOUT) == 0 && has("c", "X"), "whiteout over an existing target");
	check_err(ren("c", "b2", WHITEOUT | NOREPLACE), EEXIST, "WHITEOUT|NOREPLACE onto a file");
	unlink("b");
	unlink("b2");
	unlink("c");
	chmod(".", 0777);
	pid = fork();
	if (pid == 0) {
		if (setgid(65534) < 0 || setuid(65534) < 0)
			_exit(1);
		put("u", "U");
		if (ren("u", "v", WHITEOUT) < 0)
			_exit(2);
		if (lstat("u", &st) < 0 || st.st_uid != 65534 || !S_ISCHR(st.st_mode))
			_exit(3);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "an unprivileged user may leave a whiteout");
	unlink("u");
	unlink("v");
}

int main(void)
{
	char tmp[64] = "/tmp/skas-rename.XXXXXX", shm[64] = "/dev/shm/skas-rename.XXXXXX";

	setvbuf(stdout, NULL, _IONBF, 0);
	if (!mkdtemp(tmp) || !mkdtemp(shm))
		return 1;
	exchange_in(tmp, "/tmp");
	exchange_in(shm, "/dev/shm");
	whiteouts(shm);
	chdir("/");
	check(rmdir(tmp) == 0 && rmdir(shm) == 0, "all cleaned up");
	return 0;
}
