/* Names looked up as absent, then made by each way a name is made (open
 * O_CREAT, mkdir, mknod, symlink, link, a socket's bind, O_TMPFILE's
 * linkat, rename), are found at once; names found before a name is made
 * are still found, and removed ones are gone. skas caches lookups (absent
 * ones too) and forgets the absent ones when a name is made. In a private
 * directory under /tmp (a tmpfs under skas) and under /var/tmp (the
 * overlay root's); nothing printed depends on their names. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "tap.h"

static int exists(const char *p)
{
	struct stat st;

	return lstat(p, &st) == 0;
}

/* Asks for p in every way a lookup can fail (the last name, a directory on
 * the way, access, open), so that each is cached as absent. */
static void miss(const char *p)
{
	char deeper[256];
	struct stat st;

	snprintf(deeper, sizeof(deeper), "%s/x", p);
	if (lstat(p, &st) == 0 || stat(deeper, &st) == 0 || access(p, F_OK) == 0 ||
	    open(p, O_RDONLY) >= 0)
		printf("# %s exists already\n", p);
}

static int run(const char *base)
{
	char dir[64];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd, s;

	printf("# in %s\n", base);
	snprintf(dir, sizeof(dir), "%s/skasdcache.XXXXXX", base);
	if (!mkdtemp(dir) || chdir(dir) < 0) {
		perror("mkdtemp");
		return 1;
	}
	if (mkdir("keep", 0755) < 0 || close(open("keep/f", O_CREAT | O_WRONLY, 0644)) < 0) {
		perror("keep");
		return 1;
	}
	check(exists("keep/f"), "a name made before is found");

	miss("a");
	fd = open("a", O_CREAT | O_WRONLY, 0644);
	check(fd >= 0 && exists("a") && access("a", F_OK) == 0, "open O_CREAT: found at once");
	close(fd);

	miss("d");
	miss("d/e");
	check(mkdir("d", 0755) == 0 && exists("d"), "mkdir: found at once");
	check(!exists("d/e"), "mkdir: its inside is empty");
	check(mkdir("d/e", 0755) == 0 && exists("d/e") && stat("d/e/.", &st) == 0,
	      "mkdir inside it: found at once");

	miss("fifo");
	check(mknod("fifo", S_IFIFO | 0644, 0) == 0 && exists("fifo"), "mknod: found at once");

	miss("sym");
	check(symlink("a", "sym") == 0 && exists("sym") && stat("sym", &st) == 0,
	      "symlink: found at once");
	miss("dangling");
	miss("target");
	check(symlink("target", "dangling") == 0 && stat("dangling", &st) < 0 && errno == ENOENT,
	      "a dangling symlink's target: absent");
	fd = open("dangling", O_CREAT | O_WRONLY, 0644);
	check(fd >= 0 && exists("target") && stat("dangling", &st) == 0,
	      "open O_CREAT through it makes its target, found at once");
	close(fd);

	miss("hard");
	check(link("a", "hard") == 0 && exists("hard"), "link: found at once");

	miss("sock");
	strcpy(sa.sun_path, "sock");
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	check(s >= 0 && bind(s, (struct sockaddr *)&sa, sizeof(sa)) == 0 && exists("sock"),
	      "bind: found at once");
	close(s);

	miss("tmpf");
	fd = open(".", O_TMPFILE | O_WRONLY, 0644);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR)) {
		check(1, "O_TMPFILE + linkat # skip O_TMPFILE unsupported");
	} else {
		char p[64];

		snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
		check(fd >= 0 && linkat(AT_FDCWD, p, AT_FDCWD, "tmpf", AT_SYMLINK_FOLLOW) == 0 &&
			      exists("tmpf"),
		      "O_TMPFILE + linkat: found at once");
		close(fd);
	}

	miss("moved");
	check(rename("hard", "moved") == 0 && exists("moved") && !exists("hard"),
	      "rename: the new name found, the old one gone");

	check(exists("keep/f") && exists("a") && exists("d/e"),
	      "names found before the others were made: still found");
	check(unlink("a") == 0 && !exists("a") && open("a", O_RDONLY) < 0 && errno == ENOENT,
	      "unlink: gone at once");
	check(exists("sym") && stat("sym", &st) < 0 && errno == ENOENT,
	      "a symlink to the removed name: dangling");
	check(rmdir("d/e") == 0 && !exists("d/e") && exists("d"), "rmdir: gone at once");

	unlink("fifo");
	unlink("sym");
	unlink("dangling");
	unlink("target");
	unlink("sock");
	unlink("tmpf");
	unlink("moved");
	unlink("keep/f");
	rmdir("keep");
	rmdir("d");
	if (chdir("/") < 0)
		perror("chdir");
	check(rmdir(dir) == 0, "the directory is empty at the end");
	return 0;
}

int main(void)
{
	if (run("/tmp") || run("/var/tmp"))
		return 1;
	printf("1..%d\n", n);
	return 0;
}
