/* /sys/kernel/mm/transparent_hugepage, what Go's runtime, the JVM and
 * jemalloc read: enabled, defrag and shmem_enabled list Linux's choices
 * with exactly one in brackets, hpage_pmd_size is a power of two above the
 * page size, with Linux's modes (skas had no such directory). Only what
 * holds on any host is checked: which choice is selected is the host's
 * setting natively and never under skas. Nothing is written (natively,
 * that would change the host's setting). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tap.h"

#define THP "/sys/kernel/mm/transparent_hugepage/"

static int read_text(const char *name, char *buf, size_t size)
{
	char path[128];
	int fd;
	ssize_t r;

	snprintf(path, sizeof(path), THP "%s", name);
	fd = open(path, O_RDONLY);
	r = fd >= 0 ? read(fd, buf, size - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (r < 0)
		r = 0;
	buf[r] = 0;
	return (int)r;
}

/* Whether name reads as the choices want (by spaces, then a newline)
 * with exactly one of them in brackets. */
static int choices(const char *name, const char *want)
{
	char buf[256], plain[256];
	int len = read_text(name, buf, sizeof(buf)), open = 0, shut = 0, j = 0, i;

	if (len < 2 || buf[len - 1] != '\n')
		return 0;
	buf[len - 1] = 0;
	for (i = 0; buf[i]; i++) {
		if (buf[i] == '[') {
			open++;
			if (i > 0 && buf[i - 1] != ' ')
				return 0;
		} else if (buf[i] == ']') {
			shut++;
			if (buf[i + 1] && buf[i + 1] != ' ')
				return 0;
		} else {
			plain[j++] = buf[i];
		}
	}
	plain[j] = 0;
	return open == 1 && shut == 1 && strcmp(plain, want) == 0;
}

static int mode_is(const char *name, unsigned mode)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), THP "%s", name);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 07777) == mode &&
	       st.st_uid == 0 && st.st_gid == 0;
}

int main(void)
{
	char buf[64], *end;
	unsigned long long pmd;
	struct stat st;

	check(stat(THP, &st) == 0 && S_ISDIR(st.st_mode), "transparent_hugepage is a directory");
	check(choices("enabled", "always madvise never"),
	      "enabled: always madvise never, one in brackets");
	check(choices("defrag", "always defer defer+madvise madvise never"),
	      "defrag: always defer defer+madvise madvise never, one in brackets");
	check(choices("shmem_enabled", "always within_size advise never deny force"),
	      "shmem_enabled: always within_size advise never deny force, one in brackets");
	read_text("hpage_pmd_size", buf, sizeof(buf));
	pmd = strtoull(buf, &end, 10);
	check(end != buf && strcmp(end, "\n") == 0 && pmd > 4096 && (pmd & (pmd - 1)) == 0,
	      "hpage_pmd_size: a power of two above the page size");
	check(mode_is("enabled", 0644) && mode_is("defrag", 0644) && mode_is("shmem_enabled", 0644),
	      "enabled, defrag and shmem_enabled: 0644, root's");
	check(mode_is("hpage_pmd_size", 0444), "hpage_pmd_size: 0444, root's");
	check(open(THP "no_such_knob", O_RDONLY) < 0 && errno == ENOENT, "an unknown name: ENOENT");
	return 0;
}
