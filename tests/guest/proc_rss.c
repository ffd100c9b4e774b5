/* VmRSS, RssAnon, VmHWM in /proc/self/status and statm's resident field
 * count the pages really held: skas gave the sizes of the mappings, so a
 * 14 TiB MAP_NORESERVE mapping (AddressSanitizer's shadow) made ps show
 * 14 TiB resident, and touching memory changed nothing. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define TAP_FLUSH
#include "tap.h"

#define MiB (1UL << 20)

static unsigned long status_kb(const char *name)
{
	char line[256];
	unsigned long v = 0;
	size_t len = strlen(name);
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, name, len) == 0 && line[len] == ':')
			sscanf(line + len + 1, "%lu", &v);
	if (f)
		fclose(f);
	return v;
}

static unsigned long statm_resident_kb(void)
{
	unsigned long size = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f && fscanf(f, "%lu %lu", &size, &res) != 2)
		res = 0;
	if (f)
		fclose(f);
	return res * 4;
}

int main(void)
{
	unsigned long rss0 = status_kb("VmRSS"), anon0 = status_kb("RssAnon"), rss1, anon1, hwm;
	unsigned long size0 = status_kb("VmSize");
	char *p = mmap(NULL, 64 * MiB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *big;

	check(rss0 > 0 && rss0 < 64 * 1024, "VmRSS at start: some, below 64 MiB");
	check(status_kb("VmRSS") < rss0 + 16 * 1024,
	      "mapping 64 MiB untouched: VmRSS barely moves");
	memset(p, 1, 64 * MiB);
	rss1 = status_kb("VmRSS");
	anon1 = status_kb("RssAnon");
	check(rss1 >= rss0 + 60 * 1024, "writing it: VmRSS grows by 64 MiB");
	check(anon1 >= anon0 + 60 * 1024, "and RssAnon");
	check(statm_resident_kb() >= rss0 + 60 * 1024, "statm's resident field too");
	munmap(p, 64 * MiB);
	hwm = status_kb("VmHWM");
	check(status_kb("VmRSS") < rss1 - 60 * 1024, "munmap: VmRSS falls back");
	check(hwm >= rss1 - 1024, "VmHWM keeps the peak");

	big = mmap(NULL, 1UL << 40, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	check(big != MAP_FAILED, "1 TiB MAP_NORESERVE");
	if (big != MAP_FAILED) {
		big[0] = big[1UL << 39] = 1;
		check(status_kb("VmSize") >= size0 + (1UL << 30), "VmSize counts it");
		check(status_kb("VmRSS") < rss0 + 64 * 1024, "VmRSS counts the two pages written");
	}
	return 0;
}
