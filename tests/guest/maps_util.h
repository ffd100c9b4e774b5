/* The name column of /proc/self/maps for guest tests. */
#ifndef MAPS_UTIL_H
#define MAPS_UTIL_H

#include <stdio.h>
#include <string.h>

/* The name in maps of the mapping that starts at addr, into out ("" if
 * none); returns out. */
static inline const char *maps_name(void *addr, char *out, size_t size)
{
	char start[32], line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	snprintf(start, sizeof(start), "%lx-", (unsigned long)addr);
	out[0] = 0;
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, start, strlen(start)) == 0 && strlen(line) > 73) {
			snprintf(out, size, "%.*s", (int)strcspn(line + 73, "\n"), line + 73);
			break;
		}
	if (f)
		fclose(f);
	return out;
}

#endif
