/* Extended attributes where a filesystem has none, or a file cannot have
 * user.* ones (Linux's xattr_permission, then the filesystem): procfs
 * files have no xattrs (EOPNOTSUPP to read or write any name); user.*
 * names live on regular files and directories only, so on a device, a
 * FIFO, a pipe, a socket or a symlink reading one is ENODATA and writing
 * or removing one EPERM. Reading a user.* name needs the file's read
 * permission (EACCES), a trusted.* one CAP_SYS_ADMIN (ENODATA without);
 * writing trusted.* or security.* needs CAP_SYS_ADMIN (EPERM), a sticky
 * directory's user.* its owner, a name in no namespace is EOPNOTSUPP, and
 * listxattr shows trusted.* names to CAP_SYS_ADMIN only. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "tap.h"

static void check_err(long r, int want, const char *what)
{
	int e = errno;

	if (r == -1 && e == want)
		printf("ok %d - %s -> %s\n", ++n, what, strerror(want));
	else
		printf("not ok %d - %s: got %ld (%s), want %s\n", ++n, what, r,
		       r == -1 ? strerror(e) : "no error", strerror(want));
}

int main(void)
{
	char dir[] = "/tmp/xattr_special.XXXXXX", path[64], lnk[64], buf[64];
	int pfd[2], sv[2], fd;

	setvbuf(stdout, NULL, _IONBF, 0);
	check_err(getxattr("/proc/self/status", "user.x", buf, sizeof(buf)), EOPNOTSUPP,
		  "procfs: getxattr user.x");
	check_err(getxattr("/proc/self/status", "trusted.x", buf, sizeof(buf)), EOPNOTSUPP,
		  "procfs: getxattr trusted.x");
	check_err(getxattr("/proc/self", "user.x", buf, sizeof(buf)), EOPNOTSUPP,
		  "procfs: getxattr user.x of a directory");
	check_err(setxattr("/proc/self/status", "user.x", "v", 1, 0), EOPNOTSUPP,
		  "procfs: setxattr user.x");
	check_err(getxattr("/dev/null", "user.x", buf, sizeof(buf)), ENODATA,
		  "a device: getxattr user.x");
	check_err(setxattr("/dev/null", "user.x", "v", 1, 0), EPERM, "a device: setxattr user.x");
	check_err(removexattr("/dev/null", "user.x"), EPERM, "a device: removexattr user.x");
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/fifo", dir);
	snprintf(lnk, sizeof(lnk), "%s/lnk", dir);
	check(mkfifo(path, 0600) == 0 && symlink("fifo", lnk) == 0, "a FIFO and a symlink");
	check_err(getxattr(path, "user.x", buf, sizeof(buf)), ENODATA, "a FIFO: getxattr user.x");
	check_err(setxattr(path, "user.x", "v", 1, 0), EPERM, "a FIFO: setxattr user.x");
	check_err(lsetxattr(lnk, "user.x", "v", 1, 0), EPERM, "a symlink: lsetxattr user.x");
	check_err(lgetxattr(lnk, "user.x", buf, sizeof(buf)), ENODATA,
		  "a symlink: lgetxattr user.x");
	check(pipe(pfd) == 0 && socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0,
	      "a pipe and a socket");
	check_err(fgetxattr(pfd[0], "user.x", buf, sizeof(buf)), ENODATA,
		  "a pipe: fgetxattr user.x");
	check_err(fsetxattr(pfd[1], "user.x", "v", 1, 0), EPERM, "a pipe: fsetxattr user.x");
	check_err(fgetxattr(sv[0], "user.x", buf, sizeof(buf)), ENODATA,
		  "a socket: fgetxattr user.x");
	snprintf(path, sizeof(path), "%s/file", dir);
	fd = open(path, O_CREAT | O_RDWR, 0600);
	check(fd >= 0, "a regular file");
	check_err(fgetxattr(fd, "user.none", buf, sizeof(buf)), ENODATA,
		  "a regular file: fgetxattr of a name it lacks");
	close(fd);
	{
		/* as uid 1000: a root file it cannot read, one it can */
		char other[64];
		int st;
		pid_t p;

		char open_f[64], sticky[64], list[256];

		snprintf(other, sizeof(other), "%s/readable", dir);
		snprintf(open_f, sizeof(open_f), "%s/open", dir);
		snprintf(sticky, sizeof(sticky), "%s/sticky", dir);
		fd = open(other, O_CREAT | O_RDWR, 0644);
		if (fd >= 0)
			close(fd);
		fd = open(open_f, O_CREAT | O_RDWR, 0666);
		if (fd >= 0)
			close(fd);
		check(chmod(dir, 0755) == 0 && chmod(path, 0600) == 0 && chmod(open_f, 0666) == 0 &&
			      mkdir(sticky, 01777) == 0 && chmod(sticky, 01777) == 0,
		      "files for uid 1000");
		check(setxattr(open_f, "trusted.t", "1", 1, 0) == 0 &&
			      setxattr(open_f, "user.b", "1", 1, 0) == 0,
		      "root sets trusted.t and user.b");
		p = fork();
		if (p == 0) {
			if (setresuid(1000, 1000, 1000) < 0)
				_exit(1);
			check_err(getxattr(path, "user.x", buf, sizeof(buf)), EACCES,
				  "uid 1000: getxattr user.x of a file it cannot read");
			check_err(getxattr(other, "user.x", buf, sizeof(buf)), ENODATA,
				  "uid 1000: getxattr user.x of a file it can read");
			check_err(getxattr(other, "trusted.x", buf, sizeof(buf)), ENODATA,
				  "uid 1000: getxattr trusted.x (no CAP_SYS_ADMIN)");
			check_err(setxattr(open_f, "trusted.x", "1", 1, 0), EPERM,
				  "uid 1000: setxattr trusted.x of a file it can write");
			check_err(setxattr(open_f, "security.x", "1", 1, 0), EPERM,
				  "uid 1000: setxattr security.x");
			check_err(removexattr(open_f, "trusted.t"), EPERM,
				  "uid 1000: removexattr trusted.t");
			check_err(setxattr(open_f, "foo", "1", 1, 0), EOPNOTSUPP,
				  "uid 1000: setxattr of a name in no namespace");
			check_err(getxattr(open_f, "foo", buf, sizeof(buf)), EOPNOTSUPP,
				  "uid 1000: getxattr of a name in no namespace");
			check_err(setxattr(other, "user.x", "1", 1, 0), EACCES,
				  "uid 1000: setxattr user.x of a file it cannot write");
			check_err(setxattr(sticky, "user.x", "1", 1, 0), EPERM,
				  "uid 1000: setxattr user.x of root's sticky directory");
			check_err(fsetxattr(pfd[0], "trusted.x", "1", 1, 0), EPERM,
				  "uid 1000: fsetxattr trusted.x of a pipe");
			memset(list, 0, sizeof(list));
			check(listxattr(open_f, list, sizeof(list)) == 7 &&
				      strcmp(list, "user.b") == 0,
			      "uid 1000: listxattr shows user.b, not trusted.t");
			_exit(0);
		}
		waitpid(p, &st, 0);
		n += 12;
		memset(list, 0, sizeof(list));
		check(listxattr(open_f, list, sizeof(list)) == 17, "root lists both names");
		unlink(open_f);
		rmdir(sticky);
		check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the uid-1000 child");
		unlink(other);
	}
	unlink(path);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	unlink(path);
	unlink(lnk);
	rmdir(dir);
	return 0;
}
