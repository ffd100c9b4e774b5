/* The names an open file, a mapping and the working directory show
 * follow what happens to them (Linux's d_move, d_exchange and d_delete
 * seen through d_path): /proc/self/fd/N and /proc/self/maps give the
 * file's name after a rename (in its directory, to another, of a
 * directory above it), " (deleted)" once its name is removed (unlink, a
 * rename over it, the unlink of one of two links: that name's), both sides
 * of RENAME_EXCHANGE, an O_TMPFILE file as "#INO (deleted)"; getcwd
 * follows a rename of the working directory, in a chroot too, where ".."
 * still stops at the root however the directories moved. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <signal.h>

#define TAP_FLUSH
#include "tap.h"

static char base[64];

/* The name /proc/self/fd/fd shows, "base/" as "D". */
static const char *fdname(int fd)
{
	static char out[512];
	char link[64], buf[400];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n < 0)
		return "(readlink failed)";
	buf[n] = 0;
	if (strncmp(buf, base, strlen(base)) == 0 && buf[strlen(base)] == '/')
		snprintf(out, sizeof(out), "D%s", buf + strlen(base) + 1);
	else
		snprintf(out, sizeof(out), "%s", buf);
	return out;
}

static void check_name(int fd, const char *want, const char *what)
{
	const char *got = fdname(fd);
	char msg[600];

	if (strcmp(got, want) == 0)
		snprintf(msg, sizeof(msg), "%s: %s", what, want);
	else
		snprintf(msg, sizeof(msg), "%s: %s, want %s", what, got, want);
	check(strcmp(got, want) == 0, msg);
}

static char *in(const char *name)
{
	static char p[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), "%s/%s", base, name);
	return p[i];
}

/* The name /proc/self/maps shows for the mapping at addr. */
static int maps_has(void *addr, const char *suffix)
{
	char line[8192], want[64];
	FILE *f = fopen("/proc/self/maps", "r");
	int ok = 0;

	if (!f)
		return 0;
	snprintf(want, sizeof(want), "%lx-", (unsigned long)addr);
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line);

		if (strncmp(line, want, strlen(want)) != 0)
			continue;
		if (n && line[n - 1] == '\n')
			line[--n] = 0;
		ok = n >= strlen(suffix) && strcmp(line + n - strlen(suffix), suffix) == 0;
	}
	fclose(f);
	return ok;
}

/* A process chrooted in base/jail, working in w/sub, while another
 * renames w (in the jail) and moves sub to other: its cwd follows, and
 * ".." from there stops at its root, as in Linux (the names' moves must
 * keep its dentries below its root's). */
static void t_chroot(void)
{
	int go[2], done[2], st = -1;
	char c = 0, buf[256];
	pid_t pid;

	if (mkdir(in("jail"), 0700) != 0 || mkdir(in("jail/w"), 0700) != 0 ||
	    mkdir(in("jail/w/sub"), 0700) != 0 || mkdir(in("jail/other"), 0700) != 0 ||
	    pipe(go) != 0 || pipe(done) != 0) {
		check(0, "chroot setup");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int ok;

		if (chroot(in("jail")) != 0 || chdir("/w/sub") != 0)
			_exit(1);
		if (write(done[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(1);
		ok = getcwd(buf, sizeof(buf)) && strcmp(buf, "/other/sub") == 0;
		ok = ok && chdir("../../../../..") == 0 && getcwd(buf, sizeof(buf)) &&
		     strcmp(buf, "/") == 0 && access("other", F_OK) == 0 &&
		     access("tmp", F_OK) != 0;
		_exit(ok ? 0 : 2);
	}
	if (read(done[0], &c, 1) == 1) {
		rename(in("jail/w"), in("jail/w2"));
		rename(in("jail/w2/sub"), in("jail/other/sub"));
	}
	if (write(go[1], &c, 1) != 1)
		kill(pid, SIGKILL);
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "chrooted: the cwd follows its moves, \"..\" stops at the root");
	rmdir(in("jail/other/sub"));
	rmdir(in("jail/other"));
	rmdir(in("jail/w2"));
	rmdir(in("jail"));
	close(go[0]);
	close(go[1]);
	close(done[0]);
	close(done[1]);
}

/* A name past a page (20 directories of 249 bytes): readlink of its fd
 * is ENAMETOOLONG (d_path); a newline in a mapped file's name is \012 in
 * maps (seq_file_path). */
static void t_long(void)
{
	char name[250], link[64], buf[8192];
	char *m;
	int i, fd, cwd = open(".", O_RDONLY | O_DIRECTORY);
	ssize_t r;

	memset(name, 'x', 249);
	name[249] = 0;
	if (cwd < 0 || chdir(base) != 0)
		return;
	for (i = 0; i < 20; i++)
		if (mkdir(name, 0700) != 0 || chdir(name) != 0)
			break;
	fd = open("f", O_RDWR | O_CREAT, 0600);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	r = readlink(link, buf, sizeof(buf));
	check(i == 20 && fd >= 0 && r == -1 && errno == ENAMETOOLONG,
	      "readlink of an fd whose path passes a page: ENAMETOOLONG");
	m = fd >= 0 && ftruncate(fd, 4096) == 0 ? mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0)
						: MAP_FAILED;
	check(m != MAP_FAILED && maps_has(m, "x/f"), "... maps gives its name whole");
	if (m != MAP_FAILED)
		munmap(m, 4096);
	close(fd);
	unlink("f");
	while (i-- > 0)
		if (chdir("..") != 0 || rmdir(name) != 0)
			break;
	fd = open(in("n\nl"), O_RDWR | O_CREAT, 0600);
	m = fd >= 0 && ftruncate(fd, 4096) == 0 ? mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0)
						: MAP_FAILED;
	check(m != MAP_FAILED && maps_has(m, "/n\\012l"), "maps: a newline in a name is \\012");
	if (m != MAP_FAILED)
		munmap(m, 4096);
	close(fd);
	unlink(in("n\nl"));
	if (fchdir(cwd) != 0)
		check(0, "back");
	close(cwd);
}

int main(void)
{
	int a, b, c, t;
	char cwd[512], *m;

	snprintf(base, sizeof(base), "/tmp/dentry_names.%d", (int)getpid());
	if (mkdir(base, 0700) != 0 || mkdir(in("sub"), 0700) != 0) {
		check(0, "setup");
		return 1;
	}
	a = open(in("a"), O_RDWR | O_CREAT, 0600);
	check_name(a, "Da", "an open file");
	rename(in("a"), in("a2"));
	check_name(a, "Da2", "renamed in its directory");
	rename(in("a2"), in("sub/a3"));
	check_name(a, "Dsub/a3", "renamed into a subdirectory");
	rename(in("sub"), in("sub2"));
	check_name(a, "Dsub2/a3", "its directory renamed");
	rename(in("sub2/a3"), in("a"));
	check_name(a, "Da", "renamed back up");

	b = open(in("b"), O_RDWR | O_CREAT, 0600);
	check(syscall(SYS_renameat2, AT_FDCWD, in("a"), AT_FDCWD, in("b"), 2) == 0,
	      "RENAME_EXCHANGE of a and b");
	check_name(a, "Db", "... a's file is b");
	check_name(b, "Da", "... b's file is a");
	rename(in("a"), in("b"));
	check_name(a, "Db (deleted)", "a rename over a file: the file replaced");
	check_name(b, "Db", "... the file renamed");

	c = open(in("c"), O_RDWR | O_CREAT, 0600);
	link(in("c"), in("c2"));
	unlink(in("c"));
	check_name(c, "Dc (deleted)", "one of two links removed: the name it was opened by");
	unlink(in("c2"));

	ftruncate(b, 4096);
	m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, b, 0);
	check(m != MAP_FAILED && maps_has(m, "/b"), "a mapping shows the file's name");
	unlink(in("b"));
	check_name(b, "Db (deleted)", "unlinked");
	check(maps_has(m, "/b (deleted)"), "... and so does the mapping");
	munmap(m, 4096);

	t = open(base, O_TMPFILE | O_RDWR, 0600);
	if (t >= 0) {
		const char *n = fdname(t);
		size_t len = strlen(n);

		check(strncmp(n, "D#", 2) == 0 && len > 12 &&
			      strcmp(n + len - 10, " (deleted)") == 0,
		      "O_TMPFILE: D#INO (deleted)");
	} else {
		check(errno == EOPNOTSUPP, "O_TMPFILE (not here)");
	}

	t_chroot();
	t_long();
	mkdir(in("w"), 0700);
	chdir(in("w"));
	rename(in("w"), in("w2"));
	check(getcwd(cwd, sizeof(cwd)) && strcmp(cwd, in("w2")) == 0,
	      "getcwd after its directory was renamed");
	chdir("/");
	rmdir(in("w2"));
	rmdir(in("sub2"));
	close(a);
	close(b);
	close(c);
	if (t >= 0)
		close(t);
	check(rmdir(base) == 0, "cleanup");
	return 0;
}
