/* /sys/devices/system/cpu/vulnerabilities: guest code runs on the host's
 * CPUs under the host kernel's mitigations, so the files are the host's
 * (lscpu prints them as its Vulnerability lines; skas had none). Each file,
 * by name in order, is checked to be a root-owned 0444 regular file of one
 * line, and its text is printed in the check's name: run.sh compares the
 * native run (the host's own files) with the run under skas byte for byte,
 * so the texts must agree. A host without the directory: one check. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tap.h"

#define DIRPATH "/sys/devices/system/cpu/vulnerabilities"

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void check_file(int dfd, const char *name)
{
	char buf[4096], what[4096 + 300];
	struct stat st;
	int fd = openat(dfd, name, O_RDONLY);
	ssize_t r = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	int one_line;

	if (fd >= 0)
		close(fd);
	if (r < 0)
		r = 0;
	buf[r] = 0;
	one_line = r > 0 && buf[r - 1] == '\n' && strchr(buf, '\n') == buf + r - 1;
	if (one_line)
		buf[r - 1] = 0;
	snprintf(what, sizeof(what), "%s reads as one line: %s", name, buf);
	check(one_line, what);
	snprintf(what, sizeof(what), "%s: a regular file, 0444, owned by root", name);
	check(fstatat(dfd, name, &st, 0) == 0 && S_ISREG(st.st_mode) &&
		      (st.st_mode & 07777) == 0444 && st.st_uid == 0 && st.st_gid == 0,
	      what);
}

int main(void)
{
	char *names[256];
	int dfd, i, count = 0;
	struct dirent *e;
	DIR *d = opendir(DIRPATH);

	if (!d) {
		check(access("/sys/devices/system/cpu/online", R_OK) == 0,
		      "no vulnerabilities directory (as the host), the cpu directory there");
		return 0;
	}
	while (count < 256 && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names[count++] = strdup(e->d_name);
	}
	check(count > 0, "vulnerabilities lists files");
	qsort(names, (size_t)count, sizeof(names[0]), cmp);
	dfd = dirfd(d);
	for (i = 0; i < count; i++)
		check_file(dfd, names[i]);
	check(openat(dfd, "no_such_issue", O_RDONLY) < 0 && errno == ENOENT,
	      "an unknown name: ENOENT");
	closedir(d);
	return 0;
}
