/* The NUMA memory-policy calls on a machine of one node (node 0, with
 * MAX_NUMNODES 1024 and nr_node_ids 1): set_mempolicy, get_mempolicy,
 * mbind, migrate_pages, move_pages and set_mempolicy_home_node, as
 * mm/mempolicy.c and mm/migrate.c define them, and what
 * /proc/self/numa_maps and /proc/self/status show of them.
 *
 * A node mask is read as maxnode - 1 bits (get_nodes: maxnode 0 wraps and
 * is EINVAL with a mask, more than PAGE_SIZE * 8 bits EINVAL, bits from
 * MAX_NUMNODES up must be 0), after the mode (sanitize_mpol_flags) and
 * before anything else; a node that is not there is dropped, and a mask
 * left empty is EINVAL (mpol_set_nodemask), but for RELATIVE_NODES, which
 * folds it onto node 0. get_mempolicy wants maxnode >= nr_node_ids and
 * writes whole longs: ALIGN(maxnode - 1, 64) / 8 bytes, zeroes past the
 * node words (copy_nodes_to_user), after the mode. mbind checks its flags,
 * CAP_SYS_NICE for MOVE_ALL, the start, then a length of 0 (success) before
 * the policy, and a hole (EFAULT) before changing anything; it splits and
 * merges VMAs. move_pages reports per page in status (-ENOENT for a page
 * never touched, -EFAULT for no mapping; the zero page, -EFAULT too, is
 * left out: some hosts map none) but fails as a whole for a node without
 * memory (ENODEV). set_mempolicy_home_node takes
 * only BIND and PREFERRED_MANY ranges (EOPNOTSUPP), ENOENT when none has a
 * policy. The task's policy survives fork and exec; a VMA's survives fork.
 * Unprivileged, MOVE_ALL is EPERM, and so is another user's process.
 * STRICT without a move is EIO over a page off the mask; shared memory
 * keeps its policies in the object for every mapping. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ENAME
#include "tap.h"

#define PG 4096UL

/* include/uapi/linux/mempolicy.h (musl has no linux/ headers) */
#define MPOL_DEFAULT		 0
#define MPOL_PREFERRED		 1
#define MPOL_BIND		 2
#define MPOL_INTERLEAVE		 3
#define MPOL_LOCAL		 4
#define MPOL_PREFERRED_MANY	 5
#define MPOL_WEIGHTED_INTERLEAVE 6
#define MPOL_MAX		 7
#define MPOL_F_STATIC_NODES	 (1 << 15)
#define MPOL_F_RELATIVE_NODES	 (1 << 14)
#define MPOL_F_NUMA_BALANCING	 (1 << 13)
#define MPOL_F_NODE		 (1 << 0)
#define MPOL_F_ADDR		 (1 << 1)
#define MPOL_F_MEMS_ALLOWED	 (1 << 2)
#define MPOL_MF_STRICT		 (1 << 0)
#define MPOL_MF_MOVE		 (1 << 1)
#define MPOL_MF_MOVE_ALL	 (1 << 2)
#define MPOL_MF_LAZY		 (1 << 3)

#ifndef SYS_set_mempolicy_home_node
#define SYS_set_mempolicy_home_node 450
#endif

#define NOPID INT_MAX /* above any pid_max */

static long setpol(int mode, const unsigned long *mask, unsigned long maxnode)
{
	return syscall(SYS_set_mempolicy, mode, mask, maxnode);
}

static long getpol(int *mode, unsigned long *mask, unsigned long maxnode, void *addr,
		   unsigned long flags)
{
	return syscall(SYS_get_mempolicy, mode, mask, maxnode, addr, flags);
}

static long mbind_(void *p, unsigned long len, int mode, const unsigned long *mask,
		   unsigned long maxnode, unsigned flags)
{
	return syscall(SYS_mbind, p, len, mode, mask, maxnode, flags);
}

static long migrate(int pid, unsigned long maxnode, const unsigned long *from,
		    const unsigned long *to)
{
	return syscall(SYS_migrate_pages, pid, maxnode, from, to);
}

static long movep(int pid, unsigned long count, void **pages, const int *nodes, int *status,
		  int flags)
{
	return syscall(SYS_move_pages, pid, count, pages, nodes, status, flags);
}

static long home(void *p, unsigned long len, unsigned long node, unsigned long flags)
{
	return syscall(SYS_set_mempolicy_home_node, p, len, node, flags);
}

/* check_err for ESRCH, which ename() does not know. */
static void check_srch(long r, const char *what)
{
	int e = errno;
	char msg[160];

	if (r == -1 && e == ESRCH)
		snprintf(msg, sizeof(msg), "%s -> ESRCH", what);
	else
		snprintf(msg, sizeof(msg), "%s: got %ld (%s), want ESRCH", what, r,
			 r == -1 ? ename(e) : "no error");
	check(r == -1 && e == ESRCH, msg);
}

/* A one-word node mask, in one of a few buffers (a call may take two). */
static unsigned long *nm(unsigned long bits)
{
	static unsigned long b[4][2];
	static int i;

	i = (i + 1) % 4;
	b[i][0] = bits;
	b[i][1] = 0;
	return b[i];
}

/* The task's policy is mode, its mask (65 bits asked) mask. */
static int polis(int mode, unsigned long mask)
{
	unsigned long k[2] = { ~0UL, ~0UL };
	int m = -1;

	return getpol(&m, k, 65, NULL, 0) == 0 && m == mode && k[0] == mask && k[1] == ~0UL;
}

/* The policy of the VMA at a is mode, with mask. */
static int addrpol(void *a, int mode, unsigned long mask)
{
	unsigned long k = ~0UL;
	int m = -1;

	return getpol(&m, &k, 65, a, MPOL_F_ADDR) == 0 && m == mode && k == mask;
}

/* pages read-write pages, between two PROT_NONE ones so that they never
 * merge with a neighbour. */
static char *region(int pages)
{
	char *r = mmap(NULL, (pages + 2) * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (r == MAP_FAILED)
		return NULL;
	r = mmap(r + PG, pages * PG, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	return r == MAP_FAILED ? NULL : r;
}

/* bytes bytes that end where an unmapped page begins. */
static void *before_hole(size_t bytes)
{
	char *r = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (r == MAP_FAILED)
		return NULL;
	munmap(r + PG, PG);
	return r + PG - bytes;
}

/* A page that is not mapped (until the next mmap). */
static void *hole(void)
{
	char *r = mmap(NULL, PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (r != MAP_FAILED)
		munmap(r, PG);
	return r;
}

/* The number of lines of /proc/self/maps inside [p, p + len). */
static int nvmas(void *p, unsigned long len)
{
	unsigned long lo = (unsigned long)p, s, e;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int c = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &s, &e) == 2 && s >= lo && e <= lo + len)
			c++;
	fclose(f);
	return c;
}

/* The policy words of the lines of /proc/self/numa_maps for the VMAs
 * inside [p, p + len), joined by ',': each line is "ADDR POLICY" and then
 * the page counts, if any, which are cut off. */
static const char *numa_pol(void *p, unsigned long len)
{
	static const char *const keys[] = { " anon=",	   " dirty=",	  " mapped=",
					    " mapmax=",	   " swapcache=", " active=",
					    " writeback=", " file=",	  " heap",
					    " stack",	   " huge",	  " kernelpagesize_kB=",
					    " N" };
	static char out[256];
	unsigned long lo = (unsigned long)p, s;
	char line[512];
	FILE *f = fopen("/proc/self/numa_maps", "r");
	unsigned i;

	out[0] = 0;
	if (!f)
		return "(no numa_maps)";
	while (fgets(line, sizeof(line), f)) {
		char *w = strchr(line, ' ');

		if (sscanf(line, "%lx", &s) != 1 || s < lo || s >= lo + len || !w)
			continue;
		w++;
		w[strcspn(w, "\n")] = 0;
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			char *k = strstr(w, keys[i]);

			if (k)
				*k = 0;
		}
		if (out[0])
			strncat(out, ",", sizeof(out) - strlen(out) - 1);
		strncat(out, w, sizeof(out) - strlen(out) - 1);
	}
	fclose(f);
	return out;
}

static void check_numa(void *p, unsigned long len, const char *want, const char *what)
{
	const char *got = numa_pol(p, len);
	char msg[256];

	if (strcmp(got, want) == 0)
		snprintf(msg, sizeof(msg), "%s: numa_maps says \"%s\"", what, want);
	else
		snprintf(msg, sizeof(msg), "%s: numa_maps says \"%s\", want \"%s\"", what, got,
			 want);
	check(strcmp(got, want) == 0, msg);
}

static void t_set_mempolicy(void)
{
	unsigned long *big = calloc(4096 / sizeof(long) + 1, sizeof(long));
	unsigned long *edge = before_hole(sizeof(long));
	int m;

	if (!big || !edge) {
		check(0, "set_mempolicy setup");
		return;
	}
	check(setpol(MPOL_DEFAULT, NULL, 0) == 0 && polis(MPOL_DEFAULT, 0),
	      "set_mempolicy DEFAULT, no mask: mode DEFAULT, mask 0");
	check(setpol(MPOL_DEFAULT, nm(0), 65) == 0, "DEFAULT with an empty mask");
	check_err(setpol(MPOL_DEFAULT, nm(1), 65), EINVAL, "DEFAULT with node 0 in the mask");
	check_err(setpol(MPOL_DEFAULT, nm(0), 0), EINVAL,
		  "a mask with maxnode 0 (maxnode - 1 wraps)");

	check(setpol(MPOL_BIND, nm(1), 65) == 0 && polis(MPOL_BIND, 1), "BIND {0}: read back");
	check_err(setpol(MPOL_BIND, nm(0), 65), EINVAL, "BIND, an empty mask");
	check_err(setpol(MPOL_BIND, nm(2), 65), EINVAL, "BIND {1}: no node 1");
	check(setpol(MPOL_BIND, nm(1 << 5 | 1), 65) == 0 && polis(MPOL_BIND, 1),
	      "BIND {0,5}: node 5 dropped, mask {0}");
	check_err(setpol(MPOL_BIND, nm(1), 1), EINVAL, "maxnode 1 is no bits: an empty mask");
	check(setpol(MPOL_BIND, nm(1), 2) == 0, "maxnode 2 is one bit: node 0");
	check_err(setpol(MPOL_BIND, nm(2), 2), EINVAL, "maxnode 2 leaves out bit 1");
	check_err(setpol(MPOL_BIND, (void *)8, 65), EFAULT, "a bad mask pointer");
	check_err(setpol(MPOL_DEFAULT, (void *)8, 65), EFAULT, "DEFAULT with a bad mask pointer");
	check_err(setpol(MPOL_MAX, (void *)8, 65), EINVAL, "the mode before the mask");

	/* get_nodes reads maxnode - 1 bits: 64 read one long, 65 two. */
	*edge = 1;
	check(setpol(MPOL_BIND, edge, 65) == 0, "maxnode 65 reads one long");
	check_err(setpol(MPOL_BIND, edge, 66), EFAULT, "maxnode 66 reads two");
	big[0] = 1;
	check(setpol(MPOL_BIND, big, 4096 * 8 + 1) == 0, "maxnode PAGE_SIZE * 8 + 1");
	check_err(setpol(MPOL_BIND, big, 4096 * 8 + 2), EINVAL, "maxnode PAGE_SIZE * 8 + 2");
	big[1024 / 64] = 1;
	check(setpol(MPOL_BIND, big, 1025) == 0, "bit 1024 not read with maxnode 1025");
	check_err(setpol(MPOL_BIND, big, 1026), EINVAL, "bit 1024 (MAX_NUMNODES) set");
	big[1024 / 64] = 0;
	big[4000 / 64] = 1UL << (4000 % 64);
	check_err(setpol(MPOL_BIND, big, 4096 * 8 + 1), EINVAL, "bit 4000 set");

	check(setpol(MPOL_INTERLEAVE, nm(1), 65) == 0 && polis(MPOL_INTERLEAVE, 1),
	      "INTERLEAVE {0}");
	m = -1;
	check(getpol(&m, NULL, 0, NULL, MPOL_F_NODE) == 0 && m == 0,
	      "INTERLEAVE: MPOL_F_NODE gives the next node, 0");
	check(setpol(MPOL_WEIGHTED_INTERLEAVE, nm(1), 65) == 0 &&
		      polis(MPOL_WEIGHTED_INTERLEAVE, 1),
	      "WEIGHTED_INTERLEAVE {0}");
	m = -1;
	check(getpol(&m, NULL, 0, NULL, MPOL_F_NODE) == 0 && m == 0,
	      "WEIGHTED_INTERLEAVE: MPOL_F_NODE gives 0");
	check(setpol(MPOL_PREFERRED, nm(1), 65) == 0 && polis(MPOL_PREFERRED, 1), "PREFERRED {0}");
	check_err(getpol(&m, NULL, 0, NULL, MPOL_F_NODE), EINVAL,
		  "MPOL_F_NODE alone, not interleaving");
	check(setpol(MPOL_PREFERRED, nm(0), 65) == 0 && polis(MPOL_LOCAL, 0),
	      "PREFERRED, an empty mask: it is LOCAL");
	check_err(setpol(MPOL_PREFERRED | MPOL_F_STATIC_NODES, nm(0), 65), EINVAL,
		  "PREFERRED|STATIC_NODES, an empty mask");
	check(setpol(MPOL_LOCAL, NULL, 0) == 0 && polis(MPOL_LOCAL, 0), "LOCAL");
	check_err(setpol(MPOL_LOCAL, nm(1), 65), EINVAL, "LOCAL with a mask");
	check_err(setpol(MPOL_LOCAL | MPOL_F_RELATIVE_NODES, NULL, 0), EINVAL,
		  "LOCAL|RELATIVE_NODES");
	check(setpol(MPOL_PREFERRED_MANY, nm(1), 65) == 0 && polis(MPOL_PREFERRED_MANY, 1),
	      "PREFERRED_MANY {0}");

	check(setpol(MPOL_MAX, nm(1), 65) == -1 && errno == EINVAL &&
		      setpol(MPOL_BIND | 1 << 12, nm(1), 65) == -1 && errno == EINVAL,
	      "mode MPOL_MAX, mode bit 12: EINVAL");
	check_err(setpol(MPOL_BIND | MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES, nm(1), 65),
		  EINVAL, "STATIC_NODES|RELATIVE_NODES");
	check(setpol(MPOL_BIND | MPOL_F_NUMA_BALANCING, nm(1), 65) == 0 &&
		      polis(MPOL_BIND | MPOL_F_NUMA_BALANCING, 1),
	      "BIND|NUMA_BALANCING: the flag read back");
	check(setpol(MPOL_PREFERRED_MANY | MPOL_F_NUMA_BALANCING, nm(1), 65) == 0,
	      "PREFERRED_MANY|NUMA_BALANCING");
	check_err(setpol(MPOL_INTERLEAVE | MPOL_F_NUMA_BALANCING, nm(1), 65), EINVAL,
		  "INTERLEAVE|NUMA_BALANCING");
	check(setpol(MPOL_BIND | MPOL_F_STATIC_NODES, nm(3), 65) == 0 &&
		      polis(MPOL_BIND | MPOL_F_STATIC_NODES, 3),
	      "BIND|STATIC_NODES {0,1}: the mask given read back");
	check_err(setpol(MPOL_BIND | MPOL_F_STATIC_NODES, nm(2), 65), EINVAL,
		  "BIND|STATIC_NODES {1}");
	check(setpol(MPOL_BIND | MPOL_F_RELATIVE_NODES, nm(2), 65) == 0 &&
		      polis(MPOL_BIND | MPOL_F_RELATIVE_NODES, 2),
	      "BIND|RELATIVE_NODES {1}: folded onto node 0, {1} read back");
	check(setpol(MPOL_DEFAULT, NULL, 0) == 0 && polis(MPOL_DEFAULT, 0), "back to DEFAULT");
	free(big);
}

static void t_get_mempolicy(void)
{
	unsigned char b[64], ff[64];
	unsigned char *pg = malloc(4096 + 64);
	unsigned long k[2];
	char *p = region(2);
	int m, i, ok;

	if (!pg || !p) {
		check(0, "get_mempolicy setup");
		return;
	}
	memset(ff, 0xff, sizeof(ff));
	check(getpol(NULL, NULL, 0, NULL, 0) == 0 && getpol(&m, NULL, 0, NULL, 0) == 0 &&
		      m == MPOL_DEFAULT,
	      "get_mempolicy, no mask, maxnode 0");
	check_err(getpol(&m, k, 0, NULL, 0), EINVAL, "a mask with maxnode 0 (< nr_node_ids)");
	check_err(getpol(&m, NULL, 0, NULL, 8), EINVAL, "flags bit 3");
	check(getpol(&m, NULL, 0, NULL, MPOL_F_MEMS_ALLOWED | MPOL_F_NODE) == -1 &&
		      errno == EINVAL &&
		      getpol(&m, NULL, 0, p, MPOL_F_MEMS_ALLOWED | MPOL_F_ADDR) == -1 &&
		      errno == EINVAL,
	      "MEMS_ALLOWED|NODE, MEMS_ALLOWED|ADDR: EINVAL");
	m = -1;
	k[0] = 0;
	check(getpol(&m, k, 65, p + 1, MPOL_F_MEMS_ALLOWED) == 0 && m == 0 && k[0] == 1,
	      "MEMS_ALLOWED: mode 0, mask {0}, addr ignored");
	check_err(getpol(&m, NULL, 0, p, 0), EINVAL, "an addr without MPOL_F_ADDR");
	check_err(getpol(&m, NULL, 0, hole(), MPOL_F_ADDR), EFAULT, "MPOL_F_ADDR, no VMA there");
	check_err(getpol(&m, NULL, 0, NULL, MPOL_F_NODE), EINVAL,
		  "MPOL_F_NODE alone, DEFAULT policy");
	check_err(getpol((int *)8, NULL, 0, NULL, 0), EFAULT, "a bad mode pointer");
	m = -1;
	check(getpol(&m, (void *)8, 65, NULL, 0) == -1 && errno == EFAULT && m == MPOL_DEFAULT,
	      "a bad mask pointer: EFAULT, the mode written first");

	setpol(MPOL_BIND, nm(1), 65);
	memset(b, 0xff, sizeof(b));
	check(getpol(&m, (void *)b, 1, NULL, 0) == 0 && memcmp(b, ff, 64) == 0 &&
		      getpol(&m, (void *)8, 1, NULL, 0) == 0,
	      "maxnode 1: nothing written (a bad pointer is not touched)");
	ok = getpol(&m, (void *)b, 2, NULL, 0) == 0 && b[0] == 1 && b[1] == 0 && b[7] == 0 &&
	     b[8] == 0xff;
	memset(b, 0xff, sizeof(b));
	check(ok && getpol(&m, (void *)b, 65, NULL, 0) == 0 && b[0] == 1 && b[7] == 0 &&
		      b[8] == 0xff,
	      "maxnode 2 and 65: one long written");
	memset(b, 0xff, sizeof(b));
	check(getpol(&m, (void *)b, 66, NULL, 0) == 0 && b[0] == 1 && b[8] == 0 && b[15] == 0 &&
		      b[16] == 0xff,
	      "maxnode 66: a second long, zeroed");
	memset(b, 0xff, sizeof(b));
	ok = getpol(&m, (void *)b, 200, NULL, 0) == 0 && b[0] == 1;
	for (i = 1; i < 32; i++)
		ok = ok && b[i] == 0;
	check(ok && memcmp(b + 32, ff, 32) == 0, "maxnode 200: 32 bytes written, 24 zeroed");
	memset(pg, 0xff, 4096 + 64);
	ok = getpol(&m, (void *)pg, 4096 * 8 + 1, NULL, 0) == 0 && pg[0] == 1;
	for (i = 1; i < 4096; i++)
		ok = ok && pg[i] == 0;
	check(ok && pg[4096] == 0xff, "maxnode PAGE_SIZE * 8 + 1: a page written");
	memset(pg, 0xff, 4096 + 64);
	m = -1;
	check(getpol(&m, (void *)pg, 4096 * 8 + 2, NULL, 0) == -1 && errno == EINVAL &&
		      m == MPOL_BIND && pg[0] == 0xff,
	      "maxnode PAGE_SIZE * 8 + 2: EINVAL, the mode written all the same, not the mask");

	/* By address: the VMA's own policy, DEFAULT when it has none. */
	check(addrpol(p, MPOL_DEFAULT, 0), "MPOL_F_ADDR, no VMA policy: DEFAULT (not the task's)");
	p[0] = 1;
	m = -1;
	check(getpol(&m, NULL, 0, p, MPOL_F_NODE | MPOL_F_ADDR) == 0 && m == 0,
	      "MPOL_F_NODE|MPOL_F_ADDR, a touched page: node 0");
	m = -1;
	check(getpol(&m, NULL, 0, p + PG + 5, MPOL_F_NODE | MPOL_F_ADDR) == 0 && m == 0,
	      "MPOL_F_NODE|MPOL_F_ADDR, an untouched page: node 0");
	mprotect(p + PG, PG, PROT_NONE);
	check_err(getpol(&m, NULL, 0, p + PG, MPOL_F_NODE | MPOL_F_ADDR), EFAULT,
		  "MPOL_F_NODE|MPOL_F_ADDR, a PROT_NONE page");
	setpol(MPOL_DEFAULT, NULL, 0);
	munmap(p - PG, 4 * PG);
	free(pg);
}

static void t_mbind(void)
{
	char *p = region(4), *q;
	unsigned long k;
	int m;

	if (!p) {
		check(0, "mbind setup");
		return;
	}
	p[0] = 1;
	check_err(mbind_(p + 1, PG, MPOL_BIND, nm(1), 65, 0), EINVAL, "mbind, an unaligned start");
	check(mbind_(p, 0, MPOL_BIND, nm(0), 65, 0) == 0, "len 0: 0, before the empty mask");
	check_err(mbind_(p + 1, 0, MPOL_BIND, nm(1), 65, 0), EINVAL, "len 0, an unaligned start");
	check_err(mbind_(p, PG, MPOL_BIND, nm(1), 65, MPOL_MF_LAZY), EINVAL, "flags MPOL_MF_LAZY");
	check_err(mbind_(p + 1, PG, MPOL_MAX, (void *)8, 65, 8), EINVAL,
		  "a bad mode before a bad mask, flags, start");
	check_err(mbind_(p + 1, PG, MPOL_BIND, (void *)8, 65, 8), EFAULT,
		  "a bad mask before bad flags");
	check_err(mbind_(p, -2 * PG, MPOL_BIND, nm(1), 65, 0), EINVAL, "start + len wraps");
	check(mbind_(p, ~0UL, MPOL_BIND, nm(0), 65, 0) == 0, "len ~0: PAGE_ALIGN makes it 0");
	check(mbind_(p, PG, MPOL_LOCAL, nm(1), 65, 0) == -1 && errno == EINVAL &&
		      mbind_(p, PG, MPOL_DEFAULT, nm(1), 65, 0) == -1 && errno == EINVAL,
	      "LOCAL, DEFAULT with a mask: EINVAL");
	check_err(mbind_(p, PG, MPOL_BIND, nm(2), 65, 0), EINVAL, "BIND {1}");
	check(addrpol(p, MPOL_DEFAULT, 0), "none of those set a policy");

	check(mbind_(p, PG, MPOL_BIND, nm(1), 65, MPOL_MF_STRICT | MPOL_MF_MOVE) == 0 &&
		      addrpol(p, MPOL_BIND, 1) && addrpol(p + PG, MPOL_DEFAULT, 0),
	      "BIND the first page, STRICT|MOVE: it is BIND, the second DEFAULT");
	check(mbind_(p + PG, 1, MPOL_INTERLEAVE, nm(1), 65, MPOL_MF_MOVE_ALL) == 0 &&
		      addrpol(p + PG + 100, MPOL_INTERLEAVE, 1) &&
		      addrpol(p + 2 * PG, MPOL_DEFAULT, 0),
	      "len 1 is the whole page (MOVE_ALL, root)");
	check_err(getpol(&m, NULL, 0, p + PG, MPOL_F_NODE), EINVAL,
		  "MPOL_F_NODE, an addr but no MPOL_F_ADDR");
	check(mbind_(p + 2 * PG, PG, MPOL_PREFERRED, nm(0), 65, 0) == 0 &&
		      addrpol(p + 2 * PG, MPOL_LOCAL, 0),
	      "PREFERRED, an empty mask: LOCAL");
	k = 0;
	m = -1;
	check(getpol(&m, &k, 65, p, MPOL_F_NODE | MPOL_F_ADDR) == 0 && m == 0 && k == 1,
	      "NODE|ADDR: node 0 and the VMA's mask");

	/* A hole: EFAULT, and nothing changed; DEFAULT does not mind it. */
	munmap(p + 3 * PG, PG);
	q = p + 3 * PG;
	check(mbind_(p + 2 * PG, 2 * PG, MPOL_BIND, nm(1), 65, 0) == -1 && errno == EFAULT &&
		      addrpol(p + 2 * PG, MPOL_LOCAL, 0),
	      "a hole at the tail: EFAULT, the policy before it kept");
	check_err(mbind_(q, 2 * PG, MPOL_BIND, nm(1), 65, 0), EFAULT, "a hole at the head");
	check(mbind_(p + 2 * PG, 2 * PG, MPOL_DEFAULT, NULL, 0, 0) == 0 &&
		      addrpol(p + 2 * PG, MPOL_DEFAULT, 0),
	      "DEFAULT over the hole: 0");
	check_err(mbind_(q, PG, MPOL_DEFAULT, NULL, 0, 0), EFAULT, "DEFAULT, only a hole");
	munmap(p - PG, 5 * PG);
}

static void t_vmas(void)
{
	char *p = region(3);

	if (!p) {
		check(0, "VMA setup");
		return;
	}
	memset(p, 1, 3 * PG);
	check(nvmas(p, 3 * PG) == 1, "three pages, one VMA");
	mbind_(p + PG, PG, MPOL_BIND, nm(1), 65, 0);
	check(nvmas(p, 3 * PG) == 3, "mbind of the middle page: three VMAs");
	mbind_(p + PG, PG, MPOL_BIND | MPOL_F_STATIC_NODES, nm(1), 65, 0);
	check(nvmas(p, 3 * PG) == 3 && addrpol(p + PG, MPOL_BIND | MPOL_F_STATIC_NODES, 1),
	      "another policy there: still three");
	mbind_(p, PG, MPOL_BIND | MPOL_F_STATIC_NODES, nm(1), 65, 0);
	check(nvmas(p, 3 * PG) == 2, "the first page the same: merged, two");
	mbind_(p, 3 * PG, MPOL_BIND | MPOL_F_STATIC_NODES, nm(1), 65, 0);
	check(nvmas(p, 3 * PG) == 1, "all three the same: one");
	mbind_(p, 3 * PG, MPOL_BIND | MPOL_F_STATIC_NODES, nm(3), 65, 0);
	check(nvmas(p, 3 * PG) == 1 && addrpol(p, MPOL_BIND | MPOL_F_STATIC_NODES, 3),
	      "another static mask {0,1}: one VMA, the new mask");
	check(home(p + 2 * PG, PG, 0, 0) == 0 && nvmas(p, 3 * PG) == 2,
	      "a home node on the last page: split");
	check(addrpol(p + 2 * PG, MPOL_BIND | MPOL_F_STATIC_NODES, 3), "its policy reads the same");
	mbind_(p, 3 * PG, MPOL_DEFAULT, NULL, 0, 0);
	check(nvmas(p, 3 * PG) == 1, "DEFAULT over all: one again");
	munmap(p - PG, 5 * PG);
}

static void t_numa_maps(void)
{
	char *p = region(3);
	char line[256];
	FILE *f;
	int ok = 0;

	if (!p) {
		check(0, "numa_maps setup");
		return;
	}
	p[0] = 1;
	check_numa(p, PG, "default", "no policy");
	mbind_(p, 3 * PG, MPOL_BIND, nm(1), 65, 0);
	check_numa(p, PG, "bind:0", "BIND");
	mbind_(p, 3 * PG, MPOL_INTERLEAVE, nm(1), 65, 0);
	check_numa(p, PG, "interleave:0", "INTERLEAVE");
	mbind_(p, 3 * PG, MPOL_WEIGHTED_INTERLEAVE, nm(1), 65, 0);
	check_numa(p, PG, "weighted interleave:0", "WEIGHTED_INTERLEAVE");
	mbind_(p, 3 * PG, MPOL_PREFERRED, nm(1), 65, 0);
	check_numa(p, PG, "prefer:0", "PREFERRED");
	mbind_(p, 3 * PG, MPOL_LOCAL, NULL, 0, 0);
	check_numa(p, PG, "local", "LOCAL");
	mbind_(p, 3 * PG, MPOL_PREFERRED_MANY, nm(1), 65, 0);
	check_numa(p, PG, "prefer (many):0", "PREFERRED_MANY");
	mbind_(p, 3 * PG, MPOL_BIND | MPOL_F_STATIC_NODES, nm(3), 65, 0);
	check_numa(p, PG, "bind=static:0", "BIND|STATIC {0,1}");
	mbind_(p, 3 * PG, MPOL_INTERLEAVE | MPOL_F_RELATIVE_NODES, nm(2), 65, 0);
	check_numa(p, PG, "interleave=relative:0", "INTERLEAVE|RELATIVE {1}");
	mbind_(p, 3 * PG, MPOL_BIND | MPOL_F_NUMA_BALANCING, nm(1), 65, 0);
	check_numa(p, PG, "bind=balancing:0", "BIND|NUMA_BALANCING");
	mbind_(p, 3 * PG, MPOL_PREFERRED_MANY | MPOL_F_STATIC_NODES | MPOL_F_NUMA_BALANCING, nm(1),
	       65, 0);
	check_numa(p, PG, "prefer (many)=static|balancing:0", "PREFERRED_MANY|STATIC|BALANCING");
	mbind_(p, 3 * PG, MPOL_DEFAULT, NULL, 0, 0);
	mbind_(p + PG, PG, MPOL_BIND, nm(1), 65, 0);
	check_numa(p, 3 * PG, "default,bind:0,default", "the middle page BIND");
	setpol(MPOL_INTERLEAVE, nm(1), 65);
	check_numa(p, 3 * PG, "interleave:0,bind:0,interleave:0",
		   "task INTERLEAVE: a VMA without a policy shows the task's");
	setpol(MPOL_LOCAL, NULL, 0);
	check_numa(p, PG, "local", "task LOCAL");
	setpol(MPOL_DEFAULT, NULL, 0);
	munmap(p - PG, 5 * PG);

	f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (strcmp(line, "Mems_allowed_list:\t0\n") == 0)
			ok = 1;
	if (f)
		fclose(f);
	check(ok, "/proc/self/status: Mems_allowed_list 0");
}

static void t_migrate_pages(void)
{
	char *p = region(1);

	if (!p) {
		check(0, "migrate_pages setup");
		return;
	}
	p[0] = 1;
	check(migrate(0, 65, nm(1), nm(1)) == 0 && migrate(getpid(), 65, nm(1), nm(1)) == 0,
	      "migrate_pages pid 0 and its own pid, {0} to {0}: 0");
	check(migrate(0, 65, nm(0), nm(1)) == 0, "from {}: 0");
	check(migrate(0, 65, nm(1), nm(3)) == 0, "to {0,1} (root): 0");
	check_err(migrate(0, 65, nm(1), nm(0)), EINVAL, "to {}");
	check_err(migrate(0, 65, nm(1), nm(2)), EINVAL, "to {1} (root): nothing left");
	check_err(migrate(0, 65, NULL, NULL), EINVAL, "no masks");
	check_err(migrate(0, 0, nm(1), nm(1)), EINVAL, "maxnode 0");
	check_srch(migrate(NOPID, 65, nm(1), nm(1)), "no such pid");
	check_srch(migrate(-1, 65, nm(1), nm(1)), "pid -1");
	check(migrate(NOPID, 65, (void *)8, nm(1)) == -1 && errno == EFAULT &&
		      migrate(NOPID, 65, nm(1), (void *)8) == -1 && errno == EFAULT,
	      "a bad old or new mask before the pid: EFAULT");
	check_err(migrate(NOPID, 4096 * 8 + 2, nm(1), nm(1)), EINVAL,
		  "maxnode too big before the pid");
	munmap(p - PG, 3 * PG);
}

static void t_move_pages(void)
{
	char *p = region(3);
	void *pages[3];
	int nodes[3] = { 0, 0, 0 };
	int st[3], bad[2] = { 0, 1 };

	if (!p) {
		check(0, "move_pages setup");
		return;
	}
	/* Page 0 touched, page 1 never, page 2 gone. (A page only read
	 * would be the zero page, -EFAULT, where there is one.) */
	p[0] = 1;
	munmap(p + 2 * PG, PG);
	pages[0] = p;
	pages[1] = p + PG;
	pages[2] = p + 2 * PG;

	memset(st, 0x55, sizeof(st));
	check(movep(0, 3, pages, NULL, st, 0) == 0, "move_pages, no nodes (a query): 0");
	check(st[0] == 0 && st[1] == -ENOENT && st[2] == -EFAULT,
	      "status: a touched page 0 (its node), an untouched one -ENOENT, none -EFAULT");
	memset(st, 0x55, sizeof(st));
	check(movep(getpid(), 3, pages, nodes, st, MPOL_MF_MOVE) == 0 && st[0] == 0 &&
		      st[1] == -ENOENT && st[2] == -EFAULT,
	      "nodes {0...}, MOVE, own pid: the same status");
	check(movep(0, 1, pages, nodes, st, MPOL_MF_MOVE_ALL) == 0 && st[0] == 0,
	      "MOVE_ALL (root)");
	check(movep(0, 0, NULL, NULL, NULL, 0) == 0, "count 0");
	check_err(movep(0, 1, NULL, NULL, st, 0), EFAULT, "a bad page array");
	check_err(movep(0, 1, pages, NULL, NULL, 0), EFAULT, "a bad status array");
	check(movep(0, 0, NULL, NULL, NULL, MPOL_MF_STRICT) == -1 && errno == EINVAL &&
		      movep(0, 0, NULL, NULL, NULL, 8) == -1 && errno == EINVAL,
	      "flags MPOL_MF_STRICT, flags 8: EINVAL");
	check_srch(movep(NOPID, 1, pages, NULL, st, 0), "no such pid");
	check_err(movep(NOPID, 1, pages, NULL, st, 8), EINVAL, "flags before the pid");

	pages[1] = p;
	memset(st, 0x55, sizeof(st));
	check_err(movep(0, 2, pages, bad, st, MPOL_MF_MOVE), ENODEV,
		  "node 1 for the second page: the call fails");
	check(st[0] == 0 && st[1] == 0x55555555, "the first status written, not the second");
	bad[0] = -1;
	bad[1] = 1024;
	check(movep(0, 1, pages, bad, st, 0) == -1 && errno == ENODEV &&
		      movep(0, 1, pages, bad + 1, st, 0) == -1 && errno == ENODEV,
	      "node -1, node 1024: ENODEV");
	check_err(movep(0, 1, pages, (void *)8, st, 0), EFAULT, "a bad node array");
	munmap(p - PG, 3 * PG);
	munmap(p + 3 * PG, PG);
}

static void t_home_node(void)
{
	char *p = region(4);

	if (!p) {
		check(0, "home_node setup");
		return;
	}
	check_err(home(p + 1, PG, 0, 0), EINVAL, "set_mempolicy_home_node, an unaligned start");
	check_err(home(p, PG, 0, 1), EINVAL, "flags 1");
	check_err(home(p, 0, 0, 1), EINVAL, "flags 1, len 0");
	check_err(home(p, PG, 1, 0), EINVAL, "node 1 (offline)");
	check_err(home(p, 0, 1, 0), EINVAL, "node 1, len 0");
	check(home(p, PG, 1024, 0) == -1 && errno == EINVAL && home(p, PG, ~0UL, 0) == -1 &&
		      errno == EINVAL,
	      "node 1024, node -1: EINVAL");
	check(home(p, 0, 0, 0) == 0, "len 0: 0");
	check(home(p, ~0UL, 0, 0) == 0, "len ~0: PAGE_ALIGN makes it 0");
	check_err(home(p, -2 * PG, 0, 0), EINVAL, "start + len wraps");
	check_err(home(p, PG, 0, 0), ENOENT, "a range with no policy");
	check_err(home(hole(), PG, 0, 0), ENOENT, "a range with no VMA");

	mbind_(p, PG, MPOL_BIND, nm(1), 65, 0);
	mbind_(p + PG, PG, MPOL_PREFERRED_MANY, nm(1), 65, 0);
	mbind_(p + 2 * PG, PG, MPOL_INTERLEAVE, nm(1), 65, 0);
	check(home(p, PG, 0, 0) == 0 && home(p + PG, PG, 0, 0) == 0 && home(p, 2 * PG, 0, 0) == 0,
	      "BIND, PREFERRED_MANY, both: 0");
	check_err(home(p + 2 * PG, PG, 0, 0), EOPNOTSUPP, "INTERLEAVE");
	check(home(p + PG, 2 * PG, 0, 0) == -1 && errno == EOPNOTSUPP,
	      "PREFERRED_MANY then INTERLEAVE: EOPNOTSUPP");
	check(home(p - PG, 2 * PG, 0, 0) == 0, "the PROT_NONE guard (no policy), then BIND: 0");
	check(home(p + 3 * PG, 2 * PG, 0, 0) == -1 && errno == ENOENT,
	      "no policy then the guard: ENOENT");
	mbind_(p + 3 * PG, PG, MPOL_LOCAL, NULL, 0, 0);
	check_err(home(p + 3 * PG, PG, 0, 0), EOPNOTSUPP, "LOCAL");
	munmap(p - PG, 6 * PG);
	p = region(2);
	mbind_(p, PG, MPOL_BIND, nm(1), 65, 0);
	munmap(p + PG, PG);
	check(home(p, 2 * PG, 0, 0) == 0, "BIND then a hole: 0, holes are not checked");
	munmap(p - PG, 3 * PG);
}

/* The exec'd side: its policy as an exit status. */
static int exec_child(void)
{
	unsigned long k = 0;
	char *q = region(1);
	int m = -1, r = 0;

	if (getpol(&m, &k, 65, NULL, 0) != 0)
		return 100;
	if (m == MPOL_INTERLEAVE)
		r |= 1;
	if (k == 1)
		r |= 2;
	if (q && strcmp(numa_pol(q, PG), "interleave:0") == 0)
		r |= 4;
	return r;
}

static void t_fork_exec(void)
{
	char *p = region(2);
	pid_t pid;
	int st;

	if (!p) {
		check(0, "fork setup");
		return;
	}
	setpol(MPOL_INTERLEAVE, nm(1), 65);
	mbind_(p, PG, MPOL_BIND, nm(1), 65, 0);
	pid = fork();
	if (pid == 0) {
		check(polis(MPOL_INTERLEAVE, 1), "fork: the child has the task policy");
		check(addrpol(p, MPOL_BIND, 1) && addrpol(p + PG, MPOL_DEFAULT, 0) &&
			      nvmas(p, 2 * PG) == 2,
		      "fork: and the VMA policies, the VMAs split as they were");
		check(setpol(MPOL_LOCAL, NULL, 0) == 0 && polis(MPOL_LOCAL, 0) &&
			      mbind_(p, PG, MPOL_PREFERRED, nm(1), 65, 0) == 0,
		      "the child changes both");
		_exit(n);
	}
	if (waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) > n)
		n = WEXITSTATUS(st);
	else
		check(0, "the fork child ran");
	check(polis(MPOL_INTERLEAVE, 1) && addrpol(p, MPOL_BIND, 1),
	      "the parent's policies are its own");

	pid = fork();
	if (pid == 0) {
		execl("/proc/self/exe", "mempolicy", "exec-child", (char *)NULL);
		_exit(99);
	}
	st = 0;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && (WEXITSTATUS(st) & 3) == 3,
	      "exec: the task policy is kept (INTERLEAVE {0})");
	check(WIFEXITED(st) && WEXITSTATUS(st) == 7, "exec: numa_maps shows it for a new mapping");
	setpol(MPOL_DEFAULT, NULL, 0);
	munmap(p - PG, 4 * PG);
}

static void t_unprivileged(void)
{
	char *p = region(1);
	void *pages[1] = { p };
	int nodes[1] = { 0 }, st[1];
	pid_t pid, parent = getpid();
	int s;

	if (!p) {
		check(0, "unprivileged setup");
		return;
	}
	p[0] = 1;
	pid = fork();
	if (pid == 0) {
		if (setresuid(65534, 65534, 65534) != 0)
			_exit(1);
		check(setpol(MPOL_BIND, nm(1), 65) == 0 && polis(MPOL_BIND, 1),
		      "unprivileged: set_mempolicy BIND");
		check_err(mbind_(p, PG, MPOL_BIND, nm(1), 65, MPOL_MF_MOVE_ALL), EPERM,
			  "unprivileged: mbind MOVE_ALL");
		check_err(mbind_(p + 1, PG, MPOL_BIND, nm(1), 65, MPOL_MF_MOVE_ALL), EPERM,
			  "MOVE_ALL before the unaligned start");
		check_err(mbind_(p, PG, MPOL_BIND, nm(1), 65, MPOL_MF_MOVE_ALL | 8), EINVAL,
			  "bad flags before MOVE_ALL");
		check_err(mbind_(p, PG, MPOL_BIND, (void *)8, 65, MPOL_MF_MOVE_ALL), EFAULT,
			  "the mask before MOVE_ALL");
		check(mbind_(p, PG, MPOL_BIND, nm(1), 65, MPOL_MF_MOVE) == 0, "mbind MOVE");
		check_err(movep(0, 1, pages, nodes, st, MPOL_MF_MOVE_ALL), EPERM,
			  "move_pages MOVE_ALL");
		check_err(movep(NOPID, 1, pages, nodes, st, MPOL_MF_MOVE_ALL), EPERM,
			  "MOVE_ALL before the pid");
		check(movep(0, 1, pages, nodes, st, MPOL_MF_MOVE) == 0 && st[0] == 0,
		      "move_pages MOVE, its own");
		check_err(movep(parent, 1, pages, NULL, st, 0), EPERM,
			  "move_pages, root's process");
		check_err(migrate(parent, 65, nm(1), nm(1)), EPERM,
			  "migrate_pages, root's process");
		check(migrate(0, 65, nm(1), nm(1)) == 0, "migrate_pages, its own");
		check(migrate(0, 65, nm(1), nm(3)) == -1 && errno == EPERM &&
			      migrate(0, 65, nm(1), nm(2)) == -1 && errno == EPERM,
		      "to {0,1}, to {1}: not its nodes, EPERM");
		check_err(migrate(0, 65, nm(1), nm(0)), EINVAL, "to {}");
		check_srch(migrate(NOPID, 65, nm(1), nm(1)), "no such pid");
		_exit(n);
	}
	if (waitpid(pid, &s, 0) == pid && WIFEXITED(s) && WEXITSTATUS(s) > n)
		n = WEXITSTATUS(s);
	else
		check(0, "the unprivileged child ran");
	check(polis(MPOL_DEFAULT, 0) && addrpol(p, MPOL_DEFAULT, 0),
	      "the parent's policies are untouched");
	munmap(p - PG, 3 * PG);
}

/* MPOL_MF_STRICT without a move (queue_pages_range, strictly_unmovable):
 * EIO when a page in the range is on a node outside the mask as given
 * (before relative nodes fold it, or static ones drop what is not
 * there), nothing changed; pages never touched are no pages; a hole
 * ahead of the page is seen first; with a move, or for DEFAULT (which
 * drops STRICT), the call goes through. */
static void t_strict(void)
{
	char *p = region(8);

	if (!p) {
		check(0, "strict setup");
		return;
	}
	check(mbind_(p, 8 * PG, MPOL_LOCAL, NULL, 0, MPOL_MF_STRICT) == 0,
	      "STRICT LOCAL over pages never touched: 0");
	p[3 * PG] = 1;
	check(mbind_(p, 8 * PG, MPOL_BIND, nm(1), 65, 0) == 0, "BIND {0} over it, no flags");
	check_err(mbind_(p, 8 * PG, MPOL_LOCAL, NULL, 0, MPOL_MF_STRICT), EIO,
		  "STRICT LOCAL over a written page (its node is not in the empty mask)");
	check(addrpol(p + 3 * PG, MPOL_BIND, 1) && addrpol(p, MPOL_BIND, 1),
	      "after that EIO the range is still BIND {0}");
	check(mbind_(p, 2 * PG, MPOL_LOCAL, NULL, 0, MPOL_MF_STRICT) == 0,
	      "STRICT LOCAL over the pages before it: 0");
	check_err(mbind_(p, 8 * PG, MPOL_PREFERRED, NULL, 0, MPOL_MF_STRICT), EIO,
		  "STRICT PREFERRED with no nodes (local): EIO");
	check(mbind_(p, 8 * PG, MPOL_BIND, nm(1), 65, MPOL_MF_STRICT) == 0, "STRICT BIND {0}: 0");
	check_err(mbind_(p, 8 * PG, MPOL_BIND | MPOL_F_RELATIVE_NODES, nm(2), 65, MPOL_MF_STRICT),
		  EIO, "STRICT BIND relative {1}: EIO (the mask as given lacks node 0)");
	check(mbind_(p, 8 * PG, MPOL_BIND | MPOL_F_STATIC_NODES, nm(3), 65, MPOL_MF_STRICT) == 0,
	      "STRICT BIND static {0,1}: 0");
	check(mbind_(p, 8 * PG, MPOL_LOCAL, NULL, 0, MPOL_MF_STRICT | MPOL_MF_MOVE) == 0 &&
		      addrpol(p + 3 * PG, MPOL_LOCAL, 0),
	      "STRICT|MOVE LOCAL: 0, the range LOCAL");
	check(mbind_(p, 8 * PG, MPOL_DEFAULT, NULL, 0, MPOL_MF_STRICT) == 0,
	      "STRICT DEFAULT: 0 (DEFAULT drops STRICT)");
	munmap(p + 5 * PG, PG);
	check_err(mbind_(p, 8 * PG, MPOL_LOCAL, NULL, 0, MPOL_MF_STRICT), EFAULT,
		  "STRICT LOCAL over a written page then a hole: EFAULT (holes first)");
	munmap(p - PG, 10 * PG);
}

/* The mode and mask at a as one number, mode * 10 + mask (-errno). */
static int at(void *a)
{
	unsigned long k = 0;
	int m = -1;

	if (getpol(&m, &k, 65, a, MPOL_F_ADDR) != 0)
		return -errno;
	return m * 10 + (int)k;
}

/* Shared memory keeps its policies in the object, by page, for every
 * mapping (shmem_set_policy, shmem_get_policy): a memfd's other
 * mappings, private ones too, and later ones after all are gone; shared
 * anonymous memory across fork; SysV shm across attaches. mbind skips a
 * VMA whose own policy already equals the new one (mbind_range), even
 * where the object's differs. */
static void t_shared(void)
{
	int fd = (int)syscall(SYS_memfd_create, "mpol", 0), st = -1, id;
	char *a, *b, *c, *d, *s, *x, *y;
	pid_t pid;

	if (fd < 0 || ftruncate(fd, 8 * PG) != 0) {
		check(0, "shared setup");
		return;
	}
	a = mmap(NULL, 8 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	b = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 2 * PG);
	c = mmap(NULL, 8 * PG, PROT_READ, MAP_PRIVATE, fd, 0);
	check(mbind_(a + 2 * PG, 2 * PG, MPOL_BIND, nm(1), 65, 0) == 0,
	      "memfd: BIND {0} on pages 2-3 through one mapping");
	check(at(a + PG) == 0 && at(a + 2 * PG) == 21 && at(a + 3 * PG) == 21 &&
		      at(a + 4 * PG) == 0,
	      "... that mapping: BIND on pages 2-3 only");
	check(at(b) == 21 && at(b + PG) == 21 && at(b + 2 * PG) == 0,
	      "... another mapping from page 2: BIND on its first two pages");
	check(at(c) == 0 && at(c + 2 * PG) == 21, "... a private mapping of it: the file's too");
	munmap(a, 8 * PG);
	munmap(b, 4 * PG);
	d = mmap(NULL, 8 * PG, PROT_READ, MAP_SHARED, fd, 0);
	check(at(d + 2 * PG) == 21 && at(d + 3 * PG) == 21,
	      "... kept by the file with no shared mapping left");
	check(mbind_(c + 3 * PG, PG, MPOL_INTERLEAVE, nm(1), 65, 0) == 0 && at(d + 3 * PG) == 31 &&
		      at(d + 2 * PG) == 21,
	      "mbind through the private mapping changes the file's page 3");
	check(mbind_(d, 8 * PG, MPOL_DEFAULT, NULL, 0, 0) == 0 && at(d + 2 * PG) == 21 &&
		      at(d + 3 * PG) == 31,
	      "DEFAULT over a VMA whose own policy is DEFAULT changes nothing");
	check(mbind_(c, 8 * PG, MPOL_DEFAULT, NULL, 0, 0) == 0 && at(d + 2 * PG) == 0 &&
		      at(d + 3 * PG) == 0,
	      "DEFAULT over the VMA that set them clears the file's");
	munmap(c, 8 * PG);
	munmap(d, 8 * PG);
	close(fd);

	s = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	mbind_(s + PG, PG, MPOL_PREFERRED, nm(1), 65, 0);
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(at(s) == 0 && at(s + PG) == 11 && mbind_(s, PG, MPOL_BIND, nm(1), 65, 0) == 0
			      ? 0
			      : 1);
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "shared anonymous: the child sees PREFERRED on page 1 and sets BIND on page 0");
	check(at(s) == 21 && at(s + PG) == 11, "... the parent sees the child's BIND");
	munmap(s, 4 * PG);

	id = shmget(IPC_PRIVATE, 4 * PG, 0600);
	x = shmat(id, NULL, 0);
	y = shmat(id, NULL, 0);
	shmctl(id, IPC_RMID, NULL);
	check(mbind_(x + PG, PG, MPOL_INTERLEAVE, nm(1), 65, 0) == 0 && at(y) == 0 &&
		      at(y + PG) == 31,
	      "SysV shm: INTERLEAVE through one attach shows through another");
	shmdt(x);
	shmdt(y);
}

/* What the review found: a zombie is EINVAL after the ptrace check
 * (kernel_migrate_pages, find_mm_struct: no mm); an mremap that grows a
 * policied VMA in place keeps the policy on the new part (the VMA grows),
 * here for locked memory, whose new part skas maps apart. */
static void t_edges(void)
{
	char *p = region(4), *g;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(0);
	usleep(100000); /* a zombie until the wait below */
	check_err(migrate(pid, 65, nm(1), nm(1)), EINVAL, "migrate_pages of a zombie: EINVAL");
	check_err(movep(pid, 0, NULL, NULL, NULL, 0), EINVAL, "move_pages of a zombie: EINVAL");
	waitpid(pid, NULL, 0);
	if (!p) {
		check(0, "edges setup");
		return;
	}
	munmap(p + 2 * PG, 3 * PG); /* room after two pages */
	check(mlock(p, 2 * PG) == 0 && mbind_(p, 2 * PG, MPOL_BIND, nm(1), 65, 0) == 0,
	      "two locked pages, BIND");
	g = mremap(p, 2 * PG, 4 * PG, 0);
	check(g == p && addrpol(p + 3 * PG, MPOL_BIND, 1) && nvmas(p, 4 * PG) == 1,
	      "mremap grows them in place: the new pages BIND too, one VMA");
	munmap(p - PG, 5 * PG);
}

/* The first line of file, or "" (sysfs's node files). */
static const char *line1(const char *file)
{
	static char b[128];
	FILE *f = fopen(file, "r");

	b[0] = 0;
	if (f) {
		if (!fgets(b, sizeof(b), f))
			b[0] = 0;
		fclose(f);
	}
	b[strcspn(b, "\n")] = 0;
	return b;
}

/* sysfs says what the calls say: one node, 0, with memory, at distance 10
 * from itself. */
static void t_sysfs(void)
{
	check(strcmp(line1("/sys/devices/system/node/online"), "0") == 0,
	      "/sys/devices/system/node/online: 0");
	check(strcmp(line1("/sys/devices/system/node/possible"), "0") == 0, "... possible: 0");
	check(strcmp(line1("/sys/devices/system/node/has_memory"), "0") == 0, "... has_memory: 0");
	check(strcmp(line1("/sys/devices/system/node/node0/distance"), "10") == 0,
	      "... node0/distance: 10");
}

/* The mpol= word of /proc/self/mounts for dir ("" if none). */
static const char *mount_mpol(const char *dir)
{
	static char out[256];
	char l[512], d[256], t[64], o[256], *m;
	FILE *f = fopen("/proc/self/mounts", "r");

	out[0] = 0;
	while (f && fgets(l, sizeof(l), f))
		if (sscanf(l, "%*s %255s %63s %255s", d, t, o) == 3 && strcmp(d, dir) == 0) {
			m = strstr(o, "mpol=");
			snprintf(out, sizeof(out), "%s", m ? m : "");
		}
	if (f)
		fclose(f);
	return out;
}

/* The policy (mode * 10 + mask) of a new file in dir, mapped. */
static int newfile_pol(const char *dir)
{
	char p[300];
	int fd, r;
	char *m;

	snprintf(p, sizeof(p), "%s/f", dir);
	fd = open(p, O_RDWR | O_CREAT, 0600);
	if (fd < 0 || ftruncate(fd, PG) != 0)
		return -1;
	m = mmap(NULL, PG, PROT_READ, MAP_SHARED, fd, 0);
	r = m == MAP_FAILED ? -1 : at(m);
	if (m != MAP_FAILED)
		munmap(m, PG);
	close(fd);
	unlink(p);
	return r;
}

/* tmpfs's mpol= (mpol_parse_str, shmem_show_mpol, a new file's policy
 * from mpol_shared_policy_init), in a private mount namespace of a child,
 * which ends the test: its checks go on with the numbers. */
static int t_tmpfs(void)
{
	static const struct {
		const char *opt, *shown;
		int pol; /* a new file's, or -EINVAL: refused */
	} cases[] = {
		{ "mpol=default", "", 0 },
		{ "mpol=bind:0", "mpol=bind:0", 21 },
		{ "mpol=interleave", "mpol=interleave:0", 31 },
		{ "mpol=prefer", "mpol=local", 40 },
		{ "mpol=prefer:0", "mpol=prefer:0", 11 },
		{ "mpol=local", "mpol=local", 40 },
		{ "mpol=bind=static:0", "mpol=bind=static:0", MPOL_F_STATIC_NODES * 10 + 21 },
		{ "mpol=interleave=relative", "mpol=interleave=relative:0",
		  MPOL_F_RELATIVE_NODES * 10 + 31 },
		{ "mpol=bind:0-0", "mpol=bind:0", 21 },
		{ "mpol=bind:0,0", "mpol=bind:0", 21 },
		{ "mpol=bind:0,mpol=interleave", "mpol=interleave:0", 31 },
		{ "mpol=bind", NULL, -EINVAL },
		{ "mpol=bind:1", NULL, -EINVAL },
		{ "mpol=local:0", NULL, -EINVAL },
		{ "mpol=default:0", NULL, -EINVAL },
		{ "mpol=bogus", NULL, -EINVAL },
		{ "mpol=prefer:0,0", NULL, -EINVAL },
		{ "mpol=local=static", NULL, -EINVAL },
		{ "mpol=bind:", NULL, -EINVAL },
		{ "mpol=bind:0-0:1/1", "mpol=bind:0", 21 },
		{ "mpol=bind:all:1/1024", "mpol=bind:0", 21 },
		{ "mpol=bind: 0", "mpol=bind:0", 21 },
		{ "mpol=bind:0:1/1", NULL, -EINVAL },
		{ "mpol=bind:0-", NULL, -EINVAL },
		{ "mpol=bind:N", NULL, -EINVAL },
	};
	/* a name of its own: the native run's /tmp is the lower layer of
	 * the root the runs under skas see, and they run at once */
	char dir[64], what[160];
	size_t i;
	int st = -1;
	pid_t pid;

	snprintf(dir, sizeof(dir), "/tmp/mempolicy_tmpfs.%d", (int)getpid());
	fflush(stdout);
	pid = fork();
	if (pid != 0)
		return waitpid(pid, &st, 0) == pid && WIFEXITED(st) ? WEXITSTATUS(st) : 1;
	if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL) != 0 ||
	    (mkdir(dir, 0700) != 0 && errno != EEXIST)) {
		check(0, "tmpfs: a private mount namespace");
		_exit(1);
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = mount("t", dir, "tmpfs", 0, cases[i].opt);

		snprintf(what, sizeof(what), "tmpfs -o %s", cases[i].opt);
		if (cases[i].pol == -EINVAL) {
			check(r == -1 && errno == EINVAL, what);
			if (r == 0)
				umount(dir);
			continue;
		}
		check(r == 0 && strcmp(mount_mpol(dir), cases[i].shown) == 0 &&
			      newfile_pol(dir) == cases[i].pol,
		      what);
		if (r == 0 && i == 1) {
			check(mount(NULL, dir, NULL, MS_REMOUNT, "mpol=interleave:0") == 0 &&
				      strcmp(mount_mpol(dir), "mpol=interleave:0") == 0 &&
				      newfile_pol(dir) == 31,
			      "... remount with mpol=interleave:0");
			check(mount(NULL, dir, NULL, MS_REMOUNT, "mpol=default") == 0 &&
				      strcmp(mount_mpol(dir), "mpol=interleave:0") == 0 &&
				      newfile_pol(dir) == 31,
			      "... remount with mpol=default changes nothing");
		}
		if (r == 0)
			umount(dir);
	}
	rmdir(dir);
	fflush(stdout);
	_exit(0);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "exec-child") == 0)
		return exec_child();
	t_set_mempolicy();
	t_get_mempolicy();
	t_mbind();
	t_strict();
	t_shared();
	t_edges();
	t_sysfs();
	t_vmas();
	t_numa_maps();
	t_migrate_pages();
	t_move_pages();
	t_home_node();
	t_fork_exec();
	t_unprivileged();
	return t_tmpfs();
}
