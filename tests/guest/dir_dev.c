/* A directory made inside another has its parent's device (one
 * filesystem), and no directory has the device and inode number of one
 * of its ancestors (find and du would see a loop). Under skas /tmp is in
 * the root overlay: a new directory had the upper tmpfs's device while
 * the lower ones had the host's, so find / -xdev skipped it, mountpoint
 * and df took it for a mount point; and an upper directory numbered 2
 * would have been "/" again. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tap.h"

/* No ancestor of path (up to "/") has its device and inode number. */
static int no_loop(const char *path)
{
	char p[4096];
	struct stat st, a;

	if (stat(path, &st) < 0)
		return 0;
	snprintf(p, sizeof(p), "%s", path);
	for (;;) {
		char *slash = strrchr(p, '/');

		if (!slash)
			return 1;
		if (slash == p) {
			if (!p[1])
				return 1;
			p[1] = 0;
		} else {
			*slash = 0;
		}
		if (stat(p, &a) < 0)
			return 0;
		if (a.st_dev == st.st_dev && a.st_ino == st.st_ino)
			return 0;
	}
}

int main(void)
{
	char dir[] = "/tmp/dir_dev.XXXXXX", sub[64], sub2[96], file[96];
	struct stat tmp, d, s, s2;
	int i, ok = 1;

	if (!mkdtemp(dir)) {
		printf("not ok 1 - mkdtemp\n");
		return 1;
	}
	snprintf(sub, sizeof(sub), "%s/a", dir);
	snprintf(sub2, sizeof(sub2), "%s/a/b", dir);
	snprintf(file, sizeof(file), "%s/a/f", dir);
	mkdir(sub, 0755);
	mkdir(sub2, 0755);
	fclose(fopen(file, "w"));
	check(stat("/tmp", &tmp) == 0 && stat(dir, &d) == 0 && stat(sub, &s) == 0 &&
		      stat(sub2, &s2) == 0,
	      "stat them");
	check(d.st_dev == tmp.st_dev, "a new directory in /tmp: /tmp's device");
	check(s.st_dev == d.st_dev && s2.st_dev == s.st_dev, "and the ones in it");
	check(d.st_ino != s.st_ino && s.st_ino != s2.st_ino && d.st_ino != tmp.st_ino,
	      "numbered apart");
	check(no_loop(dir) && no_loop(sub) && no_loop(sub2), "none is its own ancestor");
	/* more directories: none may take an ancestor's number */
	for (i = 0; i < 20; i++) {
		char p[128];

		snprintf(p, sizeof(p), "%s/d%d", dir, i);
		mkdir(p, 0755);
		ok &= no_loop(p);
		rmdir(p);
	}
	check(ok, "twenty more, none its own ancestor");
	unlink(file);
	rmdir(sub2);
	rmdir(sub);
	check(rmdir(dir) == 0, "all gone");
	return 0;
}
