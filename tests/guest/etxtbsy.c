/* ETXTBSY, as Linux's i_writecount has it: while a program runs from a
 * file (and in every process forked from it), opening the file for
 * writing, O_TRUNC with it, or truncate(2) is ETXTBSY and leaves it whole,
 * while reading it, unlinking it or renaming over it is fine; an exec of a
 * file open for writing is ETXTBSY (a memfd's own fd, which Linux makes
 * without do_dentry_open, is no writer; an open of it is). skas had
 * no ETXTBSY: a write over a running program truncated its image under it
 * (SIGBUS). */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ENAME
#include "tap.h"

static char dir[64], prog[96], other[96];

static int copy_file(const char *from, const char *to)
{
	int in = open(from, O_RDONLY), out;
	char buf[65536];
	ssize_t n;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (out < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			return -1;
	close(in);
	return close(out);
}

static int copy_self(const char *to)
{
	return copy_file("/proc/self/exe", to);
}

/* A copy of the dynamic program from whose PT_INTERP names interp (which
 * must fit in it); orig: the one it named. */
static int copy_with_interp(const char *from, const char *to, const char *interp, char *orig,
			    size_t origsz)
{
	static char buf[1 << 20];
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	Elf64_Phdr *ph;
	int fd = open(from, O_RDONLY), i;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < (ssize_t)sizeof(*eh) || eh->e_phoff + eh->e_phnum * sizeof(*ph) > (size_t)n)
		return -1;
	ph = (Elf64_Phdr *)(buf + eh->e_phoff);
	for (i = 0; i < eh->e_phnum && ph[i].p_type != PT_INTERP; i++)
		;
	if (i == eh->e_phnum || ph[i].p_offset + ph[i].p_filesz > (size_t)n ||
	    strlen(interp) >= ph[i].p_filesz || ph[i].p_filesz > origsz)
		return -1;
	memcpy(orig, buf + ph[i].p_offset, ph[i].p_filesz);
	orig[ph[i].p_filesz - 1] = 0;
	memset(buf + ph[i].p_offset, 0, ph[i].p_filesz);
	strcpy(buf + ph[i].p_offset, interp);
	fd = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd < 0 || write(fd, buf, (size_t)n) != n)
		return -1;
	return close(fd);
}

/* Whether process k runs name and sleeps: its exec is done. */
static int runs_asleep(pid_t k, const char *name)
{
	char path[64], buf[256], *p;
	int fd, r;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)k);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	r = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return 0;
	buf[r] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S' && strstr(buf, name) != NULL;
}

/* Runs path --wait in a child that waits for a byte on the pipe; the
 * child's pid (its exec done once it wrote a byte back). */
static pid_t run_waiting(const char *path, int to[2], int from[2])
{
	char a[16], b[16];
	pid_t k;

	if (pipe(to) || pipe(from))
		return -1;
	k = fork();
	if (k == 0) {
		close(to[1]);
		close(from[0]);
		snprintf(a, sizeof(a), "%d", to[0]);
		snprintf(b, sizeof(b), "%d", from[1]);
		execl(path, path, "--wait", a, b, (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	if (read(from[0], a, 1) != 1)
		return -1;
	return k;
}

static long size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* The errno an exec of path gets in a child (0: it ran and exited 0). */
static int exec_errno(const char *path, int fd)
{
	int p[2], e = -1;
	pid_t k;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	k = fork();
	if (k == 0) {
		char *argv[] = { (char *)path, "--exit", NULL }, *envp[] = { NULL };

		if (fd >= 0)
			syscall(SYS_execveat, fd, "", argv, envp, AT_EMPTY_PATH);
		else
			execve(path, argv, envp);
		e = errno;
		if (write(p[1], &e, sizeof(e)) != sizeof(e))
			_exit(2);
		_exit(1);
	}
	close(p[1]);
	if (read(p[0], &e, sizeof(e)) != sizeof(e))
		e = 0;
	close(p[0]);
	waitpid(k, NULL, 0);
	return e;
}

int main(int argc, char **argv)
{
	int to[2], from[2], fd, st, ro;
	long size;
	pid_t k;
	char c;

	if (argc == 4 && strcmp(argv[1], "--wait") == 0) {
		if (write(atoi(argv[3]), "r", 1) != 1 || read(atoi(argv[2]), &c, 1) < 0)
			return 1;
		/* a forked child of the running image keeps it too: it waits
		 * for the pipe's end, its parent goes */
		if (fork() == 0) {
			while (read(atoi(argv[2]), &c, 1) > 0)
				;
			_exit(0);
		}
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "--exit") == 0)
		return 0;

	snprintf(dir, sizeof(dir), "/tmp/skas-etxtbsy-%d", (int)getpid());
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	snprintf(other, sizeof(other), "%s/other", dir);
	if (mkdir(dir, 0755) || copy_self(prog) || copy_self(other)) {
		printf("not ok 1 - set up %s: %s\n", dir, strerror(errno));
		return 1;
	}
	size = size_of(prog);
	k = run_waiting(prog, to, from);
	check(k > 0, "a program runs from the file");
	check_err(open(prog, O_WRONLY), ETXTBSY, "open for writing");
	check_err(open(prog, O_RDWR), ETXTBSY, "open for reading and writing");
	check_err(open(prog, O_WRONLY | O_TRUNC), ETXTBSY, "O_TRUNC");
	check_err(open(prog, O_RDONLY | O_TRUNC), ETXTBSY, "O_RDONLY|O_TRUNC (handle_truncate)");
	check_err(open(dir, O_RDONLY | O_TRUNC), EISDIR,
		  "(O_RDONLY|O_TRUNC of a directory: EISDIR)");
	check_err(truncate(prog, 0), ETXTBSY, "truncate");
	check(size_of(prog) == size, "the file is whole");
	fd = open(prog, O_RDONLY);
	check(fd >= 0, "open for reading");
	close(fd);
	fd = open(prog, O_PATH);
	check(fd >= 0, "O_PATH");
	close(fd);
	check(link(prog, other) < 0 && errno == EEXIST, "(a link onto another name: EEXIST)");
	check(exec_errno(prog, -1) == 0, "a second exec of it runs");
	/* the exec'd process goes; its forked child still runs the image */
	check(write(to[1], "x", 1) == 1, "the program told to go");
	check(waitpid(k, &st, 0) == k && WIFEXITED(st) && WEXITSTATUS(st) == 0, "it exited");
	check_err(open(prog, O_WRONLY), ETXTBSY, "its forked child still runs it: ETXTBSY");
	close(to[1]);
	close(from[0]);
	for (st = 0; st < 300; st++) {
		fd = open(prog, O_WRONLY);
		if (fd >= 0 || errno != ETXTBSY)
			break;
		usleep(10000);
	}
	check(fd >= 0, "once none runs it, open for writing");
	check_err(exec_errno(prog, -1) == 0 ? 0 : -1, ETXTBSY,
		  "an exec of a file open for writing");
	close(fd);
	check(exec_errno(prog, -1) == 0, "closed: the exec runs");

	k = run_waiting(prog, to, from);
	check(k > 0 && unlink(prog) == 0, "a running program's file unlinked");
	check(rename(other, prog) == 0, "another renamed over its name");
	fd = open(prog, O_WRONLY);
	check(fd >= 0, "the new file opens for writing");
	close(fd);
	check(write(to[1], "x", 1) == 1 && waitpid(k, &st, 0) == k && WIFEXITED(st) &&
		      WEXITSTATUS(st) == 0,
	      "the program ran on unharmed");
	close(to[1]);
	close(from[0]);

	fd = (int)syscall(SYS_memfd_create, "etxtbsy", 0);
	ro = -1;
	if (fd >= 0) {
		int in = open(prog, O_RDONLY);
		char buf[65536];
		ssize_t n;

		while (in >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
			if (write(fd, buf, (size_t)n) != n)
				break;
		if (in >= 0)
			close(in);
		snprintf(buf, sizeof(buf), "/proc/self/fd/%d", fd);
		ro = open(buf, O_RDONLY | O_CLOEXEC);
	}
	check(fd >= 0 && ro >= 0, "a memfd with the program, and a read-only fd of it");
	check(exec_errno(prog, fd) == 0,
	      "execveat of the memfd runs (memfd_create's own fd is no writer)");
	{
		char path[64];
		int w;

		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		w = open(path, O_RDWR);
		check(w >= 0, "the memfd opened again for writing");
		errno = exec_errno(prog, ro);
		check_err(-1, ETXTBSY, "execveat of it then");
		close(w);
	}
	close(fd);
	check(exec_errno(prog, ro) == 0, "that closed: execveat of the read-only fd runs");
	close(ro);

	/* an O_TMPFILE file open for writing, given a name: not executed */
	{
		char tmpname[96], self[65536];
		int in, tf;
		ssize_t k2;

		snprintf(tmpname, sizeof(tmpname), "%s/tmpf", dir);
		tf = open(dir, O_TMPFILE | O_RDWR, 0755);
		in = open("/proc/self/exe", O_RDONLY);
		while (tf >= 0 && in >= 0 && (k2 = read(in, self, sizeof(self))) > 0)
			if (write(tf, self, (size_t)k2) != k2)
				break;
		if (in >= 0)
			close(in);
		snprintf(self, sizeof(self), "/proc/self/fd/%d", tf);
		check(tf >= 0 && linkat(AT_FDCWD, self, AT_FDCWD, tmpname, AT_SYMLINK_FOLLOW) == 0,
		      "an O_TMPFILE copy of the program, linked");
		errno = exec_errno(tmpname, -1);
		check_err(-1, ETXTBSY, "its exec while it is open for writing");
		close(tf);
		check(exec_errno(tmpname, -1) == 0, "closed: the exec runs");
		unlink(tmpname);
	}

	/* a dynamic program's interpreter is denied while the exec loads
	 * it, not while the program runs (allow_write_access at the end of
	 * the load): its mappings of it are no deny */
	{
		char interp[96], dyn[96], orig[64];
		int i;

		snprintf(interp, sizeof(interp), "%s/i", dir);
		snprintf(dyn, sizeof(dyn), "%s/dyn", dir);
		check(copy_with_interp("/bin/sleep", dyn, interp, orig, sizeof(orig)) == 0 &&
			      copy_file(orig, interp) == 0 && chmod(interp, 0755) == 0,
		      "a copy of sleep whose interpreter is a copy of ld.so");
		k = fork();
		if (k == 0) {
			execl(dyn, "dyn", "30", (char *)NULL);
			_exit(127);
		}
		for (i = 0; i < 500 && !runs_asleep(k, "(dyn)"); i++)
			usleep(10000);
		check(i < 500, "it runs");
		check_err(open(dyn, O_WRONLY), ETXTBSY, "the program's file: ETXTBSY");
		fd = open(interp, O_WRONLY);
		check(fd >= 0, "its interpreter's opens for writing");
		if (fd >= 0)
			close(fd);
		kill(k, SIGKILL);
		waitpid(k, NULL, 0);
		check(unlink(dyn) == 0 && unlink(interp) == 0, "removed");
	}

	check(unlink(prog) == 0 && rmdir(dir) == 0, "cleaned up");
	return 0;
}
