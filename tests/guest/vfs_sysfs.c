/* /sys: the CPU files glibc and nproc read agree with get_nprocs(), one
 * cpuN directory per CPU, cpuN/online for N > 0, statfs says sysfs with
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
	check(stat("/sys", &st) == 0 && (st.st_mode & 0777) == 0555, "/sys is r-x");
	check(stat("/sys/kernel", &st) == 0 && S_ISDIR(st.st_mode), "/sys/kernel");
	return 0;
}
