/* /proc/sys files that everyday tools read: kernel/random/uuid (a new
 * version-4 UUID at each read: shell scripts make UUIDs with cat),
 * kernel/random/boot_id (the same at each read), fs/file-max and
 * fs/file-nr (sysctl, servers sizing their fd use). skas had none:
 * cat said ENOENT. kernel/overflowuid and overflowgid (bwrap reads them
 * and stopped without): 65534, 0 to 65535 written (the same value here,
 * so that the host's stays as it was). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

static int slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t got;

	if (!f)
		return 0;
	got = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[got] = 0;
	return got > 0;
}

/* 8-4-4-4-12 lowercase hex, version 4, variant 10xx, one newline. */
static int is_uuid4(const char *s)
{
	int i;

	if (strlen(s) != 37 || s[36] != '\n')
		return 0;
	for (i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return 0;
		} else if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i])) {
			return 0;
		}
	}
	return s[14] == '4' && strchr("89ab", s[19]) != NULL;
}

/* A write of s to path: 0 or the errno. */
static int put(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) < 0)
		err = errno;
	close(fd);
	return err;
}

static void overflow_id(const char *path)
{
	char a[64], what[128];

	snprintf(what, sizeof(what), "%s: 65534", path);
	check(slurp(path, a, sizeof(a)) && strcmp(a, "65534\n") == 0, what);
	snprintf(what, sizeof(what), "%s: 65536 written is EINVAL, -1 and x too", path);
	check(put(path, "65536") == EINVAL && put(path, "-1") == EINVAL && put(path, "x") == EINVAL,
	      what);
	snprintf(what, sizeof(what), "%s: 65534 written", path);
	check(put(path, "65534\n") == 0 && slurp(path, a, sizeof(a)) && strcmp(a, "65534\n") == 0,
	      what);
}

int main(void)
{
	char a[64], b[64];
	long max = 0, nr = -1, fr = -1, max2 = -1;

	check(slurp("/proc/sys/kernel/random/uuid", a, sizeof(a)) && is_uuid4(a),
	      "random/uuid: a version 4 UUID");
	check(slurp("/proc/sys/kernel/random/uuid", b, sizeof(b)) && is_uuid4(b) && strcmp(a, b),
	      "random/uuid: another at the next read");
	check(slurp("/proc/sys/kernel/random/boot_id", a, sizeof(a)) && is_uuid4(a),
	      "random/boot_id: a version 4 UUID");
	check(slurp("/proc/sys/kernel/random/boot_id", b, sizeof(b)) && !strcmp(a, b),
	      "random/boot_id: the same at the next read");
	check(slurp("/proc/sys/fs/file-max", a, sizeof(a)) && sscanf(a, "%ld", &max) == 1 &&
		      max > 0,
	      "fs/file-max: a positive number");
	check(slurp("/proc/sys/fs/file-nr", a, sizeof(a)) &&
		      sscanf(a, "%ld\t%ld\t%ld", &nr, &fr, &max2) == 3 && nr > 0 && fr == 0 &&
		      max2 == max,
	      "fs/file-nr: open, 0 free, file-max");
	overflow_id("/proc/sys/kernel/overflowuid");
	overflow_id("/proc/sys/kernel/overflowgid");
	return 0;
}
