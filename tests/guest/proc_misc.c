/* /proc files tools read for what the system has: /proc/devices (the
 * character devices by driver; libudev and MAKEDEV scripts), /proc/swaps
 * (swapon --show, free), /proc/partitions and /proc/diskstats (blkid,
 * fdisk -l, iostat), and /proc/PID/personality. They were ENOENT. What
 * is checked is what any Linux shows, whatever its disks and swap. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tap.h"

static char text[65536];

static long slurp(const char *path)
{
	int fd = open(path, O_RDONLY);
	long n = 0, r;

	text[0] = 0;
	if (fd < 0)
		return -1;
	while ((r = read(fd, text + n, sizeof(text) - 1 - (size_t)n)) > 0)
		n += r;
	close(fd);
	text[n] = 0;
	return r < 0 ? -1 : n;
}

static int has_line(const char *line)
{
	size_t k = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line)) != NULL) {
		if ((p == text || p[-1] == '\n') && p[k] == '\n')
			return 1;
		p += k;
	}
	return 0;
}

static int mode_is(const char *path, unsigned mode)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0777) == mode;
}

int main(void)
{
	int st;
	pid_t k;

	check(slurp("/proc/devices") > 0 && strncmp(text, "Character devices:\n", 19) == 0,
	      "/proc/devices starts with the character devices");
	check(has_line("  1 mem") && has_line("  5 /dev/tty") && has_line("  5 /dev/console") &&
		      has_line("  5 /dev/ptmx") && has_line("136 pts"),
	      "mem, /dev/tty, /dev/console, /dev/ptmx and pts");
	check(strstr(text, "\n\nBlock devices:\n") != NULL,
	      "then a blank line and the block devices");
	check(mode_is("/proc/devices", 0444), "mode 0444");

	check(slurp("/proc/swaps") > 0 &&
		      strncmp(text, "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n", 39) == 0,
	      "/proc/swaps starts with its header");
	check(mode_is("/proc/swaps", 0444), "mode 0444");
	check(slurp("/proc/partitions") >= 0 && mode_is("/proc/partitions", 0444),
	      "/proc/partitions reads");
	check(slurp("/proc/diskstats") >= 0 && mode_is("/proc/diskstats", 0444),
	      "/proc/diskstats reads");

	check(slurp("/proc/self/personality") == 9 && strcmp(text, "00000000\n") == 0,
	      "/proc/self/personality: 00000000");
	check(mode_is("/proc/self/personality", 0400), "mode 0400");
	k = fork();
	if (k == 0) {
		personality(ADDR_NO_RANDOMIZE | READ_IMPLIES_EXEC);
		_exit(slurp("/proc/self/personality") == 9 && strcmp(text, "00440000\n") == 0 ? 0
											      : 1);
	}
	check(k > 0 && waitpid(k, &st, 0) == k && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "after personality(ADDR_NO_RANDOMIZE|READ_IMPLIES_EXEC): 00440000");
	return 0;
}
