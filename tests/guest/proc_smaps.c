/* /proc/PID/smaps and smaps_rollup (skas had neither: pmap -x printed
 * nothing): the ranges of maps, each with its size and the pages it holds
 * (a written mapping all resident, private, dirty and anonymous; an
 * untouched one none), VmFlags, and the rollup's totals. A SysV shm
 * attachment: its name in maps, shared memory in the rollup (skas's
 * smaps crashed the kernel on one). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/ipc.h>
#include <sys/shm.h>

#define TAP_FLUSH
#include "tap.h"
#include "maps_util.h"

#define MiB (1UL << 20)

struct entry {
	unsigned long size, rss, anon, priv_dirty, swap;
	char flags[512];
};

/* The smaps entry that holds addr (the host may have merged a mapping
 * with a neighbour, as Linux may). */
static int find(void *addr, struct entry *e)
{
	char line[512];
	unsigned long lo, hi, a = (unsigned long)addr;
	int in = 0, found = 0;
	FILE *f = fopen("/proc/self/smaps", "r");

	memset(e, 0, sizeof(*e));
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 &&
		    strchr(line, ' ') < strchr(line, ':')) {
			in = lo <= a && a < hi;
			found |= in;
			continue;
		}
		if (!in)
			continue;
		sscanf(line, "Size: %lu", &e->size);
		sscanf(line, "Rss: %lu", &e->rss);
		sscanf(line, "Anonymous: %lu", &e->anon);
		sscanf(line, "Private_Dirty: %lu", &e->priv_dirty);
		sscanf(line, "Swap: %lu", &e->swap);
		if (strncmp(line, "VmFlags:", 8) == 0) {
			snprintf(e->flags, sizeof(e->flags), "%s", line + 8);
			in = 0;
		}
	}
	if (f)
		fclose(f);
	return found;
}

static char mbuf[1 << 18], sbuf[1 << 20];

static size_t slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	size_t len = 0;
	ssize_t r;

	while (fd >= 0 && len < size - 1 && (r = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)r;
	if (fd >= 0)
		close(fd);
	buf[len] = 0;
	return len;
}

/* Every range of maps is a header of smaps, in the same order (both read
 * with no allocation between: a new mapping would change them). */
static int same_ranges(void)
{
	char *m = mbuf, *s = sbuf, *ml, *sl;
	int count = 0;

	if (!slurp("/proc/self/maps", mbuf, sizeof(mbuf)) ||
	    !slurp("/proc/self/smaps", sbuf, sizeof(sbuf)))
		return 0;
	for (; *m; m = ml + 1) {
		ml = strchr(m, '\n');
		if (!ml)
			return 0;
		/* the next header of smaps: a line whose first word has a '-' */
		for (;;) {
			sl = strchr(s, '\n');
			if (!sl)
				return 0;
			if (strchr(s, ' ') < strchr(s, ':') || !strchr(s, ':') ||
			    strchr(s, ':') > sl)
				break;
			s = sl + 1;
		}
		if (ml - m != sl - s || memcmp(m, s, (size_t)(ml - m)) != 0)
			return 0;
		s = sl + 1;
		count++;
	}
	return count > 5;
}

static void sysv_shm(void)
{
	int id = shmget(IPC_PRIVATE, MiB, IPC_CREAT | 0600);
	char *p = id >= 0 ? shmat(id, NULL, 0) : (char *)-1;
	unsigned long pss_shmem = 0;
	struct entry e;
	char line[256];
	FILE *f;

	if (id >= 0)
		shmctl(id, IPC_RMID, NULL); /* it goes with its attachment */
	check(p != (char *)-1, "a SysV shm segment of 1 MiB attached");
	if (p == (char *)-1)
		return;
	memset(p, 1, MiB);
	check(strcmp(maps_name(p, line, sizeof(line)), "/SYSV00000000 (deleted)") == 0,
	      "its name in maps: /SYSV00000000 (deleted)");
	check(find(p, &e) && e.size >= 1024 && e.rss >= 1024 && e.anon == 0,
	      "its smaps entry: written, resident, not anonymous");
	f = fopen("/proc/self/smaps_rollup", "r");
	while (f && fgets(line, sizeof(line), f))
		sscanf(line, "Pss_Shmem: %lu", &pss_shmem);
	if (f)
		fclose(f);
	check(pss_shmem >= 1024, "the rollup counts it as Pss_Shmem");
	shmdt(p);
}

int main(void)
{
	char *w = mmap(NULL, 16 * MiB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *u = mmap(NULL, 8 * MiB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *r = mmap(NULL, 4 * MiB, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	unsigned long rollup_rss = 0, rollup_anon = 0;
	struct entry e;
	char line[256];
	FILE *f;

	memset(w, 1, 16 * MiB);
	check(same_ranges(), "smaps has the ranges of maps, in order");
	check(find(w, &e) && e.size >= 16384, "a 16 MiB mapping: Size 16384 kB or more");
	check(e.rss >= 16384 && e.anon >= 16384 && e.priv_dirty >= 16384,
	      "written: all resident, anonymous, private and dirty");
	check(strstr(e.flags, " rd wr mr mw me") && strstr(e.flags, " ac"),
	      "VmFlags rd wr mr mw me ... ac");
	check(find(u, &e) && e.size >= 8192 && e.rss == 0 && e.anon == 0,
	      "an untouched read-only one: nothing resident");
	check(strstr(e.flags, " rd mr mw me") && !strstr(e.flags, " ac"), "VmFlags rd mr mw me");
	check(find(r, &e) && strstr(e.flags, " nr"), "MAP_NORESERVE: nr");
	f = fopen("/proc/self/smaps_rollup", "r");
	check(f && fgets(line, sizeof(line), f) && strstr(line, " ---p 00000000 00:00 0 ") &&
		      strstr(line, "[rollup]\n") && line[73] == '[',
	      "smaps_rollup: its first line, [rollup] at column 74");
	while (f && fgets(line, sizeof(line), f)) {
		sscanf(line, "Rss: %lu", &rollup_rss);
		sscanf(line, "Anonymous: %lu", &rollup_anon);
	}
	if (f)
		fclose(f);
	check(rollup_rss >= 16384 && rollup_anon >= 16384, "the rollup counts the written mapping");
	sysv_shm();
	return 0;
}
