/* execveat: a program run by fd (fexecve, AT_EMPTY_PATH), by a name
 * relative to a directory fd, by an absolute name; what AT_EXECFN then
 * says ("/dev/fd/N[/name]"); its flags and errors; a script by a
 * close-on-exec fd (ENOENT: its interpreter could not open it); and an
 * execute-only binary, which a non-root user may run (exec needs search
 * permission, not read). The program re-execs itself: argv[1] "child"
 * prints what the new image sees and exits 0. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_FLUSH
#include "tap.h"

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif
static char dir[] = "/tmp/skasexecat.XXXXXX";

static long execveat_(int dirfd, const char *path, char *const argv[], int flags)
{
	char *envp[] = { "EXECAT=1", NULL };

	return syscall(SYS_execveat, dirfd, path, argv, envp, flags);
}

/* Runs execveat in a child; the child's image prints "  image: ..." and
 * exits 0. Returns the errno of a failed execveat (0: it ran). */
static int run(int dirfd, const char *path, int flags, const char *tag)
{
	char *argv[] = { "exec_at", "child", (char *)tag, NULL };
	int st;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execveat_(dirfd, path, argv, flags);
		_exit(100 + errno);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st) >= 100 ? WEXITSTATUS(st) - 100 : 0;
}

static int copy_self(const char *to, mode_t mode)
{
	char buf[65536];
	int in = open("/proc/self/exe", O_RDONLY),
	    out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0700);
	ssize_t k;

	if (in < 0 || out < 0)
		return -1;
	while ((k = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, k) != k)
			return -1;
	close(in);
	close(out);
	return chmod(to, mode);
}

static void image(char **argv)
{
	const char *fn = (const char *)getauxval(AT_EXECFN);
	const char *kind = !fn							? "none"
			   : !strncmp(fn, "/dev/fd/", 8) && strchr(fn + 8, '/') ? "/dev/fd/N/name"
			   : !strncmp(fn, "/dev/fd/", 8)			? "/dev/fd/N"
			   : fn[0] == '/'					? "absolute"
										: "other";

	printf("  image %s: AT_EXECFN is %s, EXECAT=%s\n", argv[2], kind,
	       getenv("EXECAT") ? getenv("EXECAT") : "unset");
	fflush(stdout);
	exit(0);
}

int main(int argc, char **argv)
{
	char self[256], path[300], script[300];
	int fd, dfd, sfd, r;
	ssize_t k;

	if (argc > 2 && !strcmp(argv[1], "child"))
		image(argv);
	if (!mkdtemp(dir))
		return 1;
	snprintf(self, sizeof(self), "%s/prog", dir);
	check(copy_self(self, 0755) == 0, "a copy of the program");

	fd = open(self, O_RDONLY);
	check(run(fd, "", AT_EMPTY_PATH, "by-fd") == 0,
	      "execveat(fd, \"\", AT_EMPTY_PATH) runs it");
	close(fd);
	fd = open(self, O_PATH);
	check(run(fd, "", AT_EMPTY_PATH, "by-opath-fd") == 0, "the same through an O_PATH fd");
	close(fd);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	check(run(dfd, "prog", 0, "by-dirfd") == 0, "execveat(dirfd, \"prog\") runs it");
	check(run(dfd, self, 0, "absolute") == 0, "an absolute name ignores dirfd");
	check(run(AT_FDCWD, self, 0, "cwd") == 0, "execveat(AT_FDCWD, path)");

	/* errors */
	check(run(dfd, "prog", 0x1, "x") == EINVAL, "flag 0x1: EINVAL");
	check(run(dfd, "", 0, "x") == ENOENT, "an empty name without AT_EMPTY_PATH: ENOENT");
	check(run(dfd, "", AT_EMPTY_PATH, "x") == EACCES, "a directory fd itself: EACCES");
	check(run(-1, "prog", 0, "x") == EBADF, "fd -1 with a relative name: EBADF");
	fd = open(self, O_RDONLY);
	check(run(fd, "prog", 0, "x") == ENOTDIR, "a file fd with a relative name: ENOTDIR");
	close(fd);
	snprintf(path, sizeof(path), "%s/link", dir);
	check(symlink("prog", path) == 0, "a symlink to it");
	check(run(dfd, "link", 0, "via-link") == 0, "through the symlink");
	check(run(dfd, "link", AT_SYMLINK_NOFOLLOW, "x") == ELOOP,
	      "AT_SYMLINK_NOFOLLOW on the symlink: ELOOP");
	check(run(dfd, "missing", 0, "x") == ENOENT, "a missing name: ENOENT");

	{
		char node[sizeof(dir) + 8];

		/* Not a regular file, whatever its x bits: EACCES before any open
		 * (a FIFO's would wait for a writer; alarm ends a child that does). */
		snprintf(node, sizeof(node), "%s/fifo", dir);
		check(mkfifo(node, 0777) == 0 && chmod(node, 0777) == 0, "a FIFO of mode 0777");
		alarm(5);
		check(run(dfd, "fifo", 0, "x") == EACCES,
		      "execveat of the FIFO: EACCES, not blocked");
		alarm(0);
		unlink(node);
		snprintf(node, sizeof(node), "%s/sock", dir);
		check(mknod(node, S_IFSOCK | 0777, 0) == 0 && chmod(node, 0777) == 0,
		      "a socket node of mode 0777");
		check(run(dfd, "sock", 0, "x") == EACCES, "execveat of the socket node: EACCES");
		unlink(node);
	}

	/* a script by fd */
	snprintf(script, sizeof(script), "%s/script", dir);
	sfd = open(script, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	k = dprintf(sfd, "#!/bin/sh\ncase \"$0\" in /dev/fd/*) echo '  script: $0 is /dev/fd/N';; "
			 "*) echo \"  script: $0\";; esac\n");
	close(sfd);
	check(k > 0, "a script");
	sfd = open(script, O_RDONLY);
	check(run(sfd, "", AT_EMPTY_PATH, "x") == 0, "a script by fd runs");
	close(sfd);
	sfd = open(script, O_RDONLY | O_CLOEXEC);
	check(run(sfd, "", AT_EMPTY_PATH, "x") == ENOENT, "a script by a close-on-exec fd: ENOENT");
	close(sfd);

	/* execute-only, as uid 1000 */
	check(chmod(dir, 0755) == 0 && unlink(path) == 0,
	      "the directory searchable by others, the link removed");
	check(copy_self(path, 0111) == 0, "an execute-only copy (0111)");
	fflush(stdout);
	if (fork() == 0) {
		char *av[] = { "exec_at", "child", "exec-only", NULL };

		if (setresuid(1000, 1000, 1000) < 0)
			_exit(99);
		execv(path, av);
		_exit(100 + errno);
	}
	wait(&r);
	check(WIFEXITED(r) && WEXITSTATUS(r) == 0, "uid 1000 runs the execute-only binary");
	check(chown(path, 0, 1000) == 0 && chmod(path, 0010) == 0,
	      "group 1000 alone may execute it (0010)");
	fflush(stdout);
	if (fork() == 0) {
		char *av[] = { "exec_at", "child", "group-exec", NULL };

		if (setresgid(1000, 1000, 1000) < 0 || setresuid(1000, 1000, 1000) < 0)
			_exit(99);
		execv(path, av);
		_exit(100 + errno);
	}
	wait(&r);
	check(WIFEXITED(r) && WEXITSTATUS(r) == 0, "uid 1000 in group 1000 runs it");
	check(chmod(path, 0644) == 0, "a copy without x (0644)");
	fflush(stdout);
	if (fork() == 0) {
		char *av[] = { "exec_at", "child", "x", NULL };

		if (setresuid(1000, 1000, 1000) < 0)
			_exit(99);
		execv(path, av);
		_exit(100 + errno);
	}
	wait(&r);
	check(WIFEXITED(r) && WEXITSTATUS(r) == 100 + EACCES, "uid 1000, no x: EACCES");
	close(dfd);
	unlink(path);
	unlink(script);
	unlink(self);
	rmdir(dir);
	return 0;
}
