/* /sys: the CPU files glibc and nproc read agree with get_nprocs(), one
 * cpuN directory per CPU, cpuN/online for N > 0, each CPU's topology
 * (lscpu and hwloc count threads, cores and sockets from it: skas had
 * none, lscpu said 0 of each) and its node link, statfs says sysfs with
 * no blocks or inodes (skas once gave the tmpfs's under it), /sys is r-x
 * for everybody. Every filesystem has an fsid (skas's were 0). */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>

#include "tap.h"

static int has(const char *path, const char *want)
{
	char buf[64];
	int fd = open(path, O_RDONLY);
	ssize_t r = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (r < 0)
		return 0;
	buf[r] = 0;
	return strcmp(buf, want) == 0;
}

/* Whether cpu i is in the CPU list ("0-3,5\n") in path. */
static int in_list(const char *path, int i)
{
	char buf[256], *p = buf;
	int fd = open(path, O_RDONLY), lo, hi, k;
	ssize_t r = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (r <= 0)
		return 0;
	buf[r] = 0;
	while (sscanf(p, "%d%n", &lo, &k) == 1) {
		p += k;
		hi = lo;
		if (*p == '-' && sscanf(p + 1, "%d%n", &hi, &k) == 1)
			p += 1 + k;
		if (i >= lo && i <= hi)
			return 1;
		if (*p != ',')
			break;
		p++;
	}
	return 0;
}

/* Whether bit i is set in the cpumask ("ff,00000001\n") in path. */
static int in_mask(const char *path, int i)
{
	char buf[256];
	int fd = open(path, O_RDONLY), words = 0, w;
	ssize_t r = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	unsigned v;
	char *p;

	if (fd >= 0)
		close(fd);
	if (r <= 0)
		return 0;
	buf[r] = 0;
	for (p = buf; *p; p++)
		words += *p == ',';
	for (p = buf, w = words; w >= 0; w--) {
		if (sscanf(p, "%x", &v) != 1)
			return 0;
		if (i / 32 == w)
			return (v >> (i % 32)) & 1;
		p = strchr(p, ',');
		if (!p)
			return 0;
		p++;
	}
	return 0;
}

static int topo_ok(int i)
{
	static const char *const lists[] = { "thread_siblings", "core_cpus", "core_siblings",
					     "package_cpus" };
	char path[128];
	int id;
	size_t k;
	FILE *f;

	for (k = 0; k < sizeof(lists) / sizeof(lists[0]); k++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s_list", i,
			 lists[k]);
		if (!in_list(path, i))
			return 0;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", i,
			 lists[k]);
		if (!in_mask(path, i))
			return 0;
	}
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
		 i);
	f = fopen(path, "r");
	k = f && fscanf(f, "%d", &id) == 1 && id >= 0;
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_id", i);
	f = fopen(path, "r");
	k = k && f && fscanf(f, "%d", &id) == 1 && id >= 0;
	if (f)
		fclose(f);
	return (int)k;
}

/* cpuN's link to its node, which lists it: 1 if so. */
static int node_ok(int i)
{
	char path[128], list[512];
	struct dirent *de;
	int ok = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", i);
	d = opendir(path);
	while (d && (de = readdir(d)))
		if (strncmp(de->d_name, "node", 4) == 0) {
			snprintf(list, sizeof(list), "%.128s/%.256s/cpulist", path, de->d_name);
			ok = in_list(list, i);
		}
	if (d)
		closedir(d);
	return ok;
}

int main(void)
{
	int cpus = get_nprocs(), dirs = 0;
	char range[32], path[64];
	struct statfs sfs;
	struct statfs sys;
	struct stat st;
	struct dirent *de;
	DIR *d;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (cpus == 1)
		snprintf(range, sizeof(range), "0\n");
	else
		snprintf(range, sizeof(range), "0-%d\n", cpus - 1);
	check(has("/sys/devices/system/cpu/online", range), "cpu/online matches get_nprocs()");
	check(has("/sys/devices/system/cpu/possible", range), "cpu/possible");
	check(has("/sys/devices/system/cpu/present", range), "cpu/present");
	check(get_nprocs_conf() == cpus, "get_nprocs_conf() agrees");
	check(sysconf(_SC_NPROCESSORS_CONF) == cpus && sysconf(_SC_NPROCESSORS_ONLN) == cpus,
	      "sysconf agrees");
	d = opendir("/sys/devices/system/cpu");
	while (d && (de = readdir(d))) {
		int i;

		if (sscanf(de->d_name, "cpu%d", &i) == 1 &&
		    strspn(de->d_name + 3, "0123456789") == strlen(de->d_name + 3))
			dirs++;
	}
	if (d)
		closedir(d);
	check(dirs == cpus, "one cpuN directory per CPU");
	check(stat("/sys/devices/system/cpu/cpu0", &st) == 0 && S_ISDIR(st.st_mode), "cpu0");
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpus - 1);
	check(cpus == 1 || has(path, "1\n"), "the last CPU is online");
	check(statfs("/sys", &sfs) == 0 && sfs.f_type == 0x62656572, "statfs: sysfs");
	check(sfs.f_blocks == 0 && sfs.f_bfree == 0 && sfs.f_files == 0 && sfs.f_ffree == 0 &&
		      sfs.f_bsize == 4096 && sfs.f_namelen == 255,
	      "statfs: no blocks or inodes, 4096-byte blocks, names of 255");
	sys = sfs;
	check(statfs("/proc", &sfs) == 0 && (sfs.f_fsid.__val[0] || sfs.f_fsid.__val[1]) &&
		      memcmp(&sfs.f_fsid, &sys.f_fsid, sizeof(sys.f_fsid)) &&
		      (sys.f_fsid.__val[0] || sys.f_fsid.__val[1]),
	      "statfs: /sys and /proc have fsids, not the same");
	{
		int i, topo = 1, node = 1, packages = 0, id;

		for (i = 0; i < cpus; i++) {
			topo = topo && topo_ok(i);
			node = node && node_ok(i);
		}
		check(topo, "every CPU's topology: in its own sibling, core and package lists and "
			    "masks; package and core ids");
		check(node, "every CPU's node link, whose cpulist has it");
		for (i = 0; i < cpus; i++) {
			char path[128];
			FILE *f;

			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/topology/package_cpus_list", i);
			/* a package counted at its first CPU */
			if (in_list(path, i)) {
				int j, first = 1;

				for (j = 0; j < i; j++)
					first = first && !in_list(path, j);
				packages += first;
			}
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", i);
			f = fopen(path, "r");
			if (f && fscanf(f, "%d", &id) != 1)
				packages = -1000;
			if (f)
				fclose(f);
		}
		check(packages >= 1 && packages <= cpus,
		      "packages: at least one, at most one a CPU");
	}
	check(stat("/sys", &st) == 0 && (st.st_mode & 0777) == 0555, "/sys is r-x");
	check(stat("/sys/kernel", &st) == 0 && S_ISDIR(st.st_mode), "/sys/kernel");
	return 0;
}
