/* tmpfs's inode64/inode32, huge= and noswap options (fstab lines, systemd
 * and container runtimes pass them): taken, shown in /proc/self/mounts in
 * shmem_show_options's order (size, nr_inodes, mode, uid, gid, inode64,
 * huge, mpol, noswap), huge=deny/force and bad values EINVAL, noswap not
 * turned on by a remount. skas refused all three (EINVAL). Every mount
 * says inode64 or inode32: which one a kernel shows by default depends on
 * its CONFIG_TMPFS_INODE64. Also the superblock flags sync, dirsync, mand
 * and lazytime (MS_*): shown in mounts and mountinfo (show_sb_opts),
 * statvfs's ST_SYNCHRONOUS and ST_MANDLOCK, a remount resets all but
 * dirsync; skas took them and showed none. Runs in a mount namespace of
 * its own (root). */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"

static char dir[64];

/* The mount's options in /proc/self/mounts less "rw,relatime," (or
 * "?" if it is not there). */
static const char *opts(void)
{
	static char out[512];
	char line[1024], pat[128], *p;
	FILE *f = fopen("/proc/self/mounts", "r");

	snprintf(out, sizeof(out), "?");
	snprintf(pat, sizeof(pat), " %s tmpfs ", dir);
	while (f && fgets(line, sizeof(line), f)) {
		p = strstr(line, pat);
		if (!p)
			continue;
		p += strlen(pat);
		p[strcspn(p, " ")] = 0;
		if (strncmp(p, "rw,relatime", 11) == 0)
			p += 11;
		snprintf(out, sizeof(out), "%s", *p == ',' ? p + 1 : p);
	}
	if (f)
		fclose(f);
	return out;
}

/* field (0-based, by blanks) of path's line in the file: "?" if none */
static const char *field(const char *file, const char *path, int n)
{
	static char out[512];
	char line[1024], pat[128], *p, *save = NULL;
	FILE *f = fopen(file, "r");
	int i;

	snprintf(out, sizeof(out), "?");
	snprintf(pat, sizeof(pat), " %s ", path);
	while (f && fgets(line, sizeof(line), f)) {
		if (!strstr(line, pat))
			continue;
		for (p = strtok_r(line, " \n", &save), i = 0; p && i < n; i++)
			p = strtok_r(NULL, " \n", &save);
		snprintf(out, sizeof(out), "%s", p ? p : "?");
	}
	if (f)
		fclose(f);
	return out;
}

static void check_str(const char *got, const char *want, const char *what)
{
	check(strcmp(got, want) == 0, what);
	if (strcmp(got, want))
		printf("# got \"%s\", want \"%s\"\n", got, want);
}

static void check_opts(const char *want, const char *what)
{
	const char *got = opts();

	check(strcmp(got, want) == 0, what);
	if (strcmp(got, want))
		printf("# got \"%s\", want \"%s\"\n", got, want);
}

static int mnt(const char *data)
{
	umount(dir);
	return mount("t", dir, "tmpfs", 0, data);
}

static int remount(const char *data)
{
	return mount(NULL, dir, NULL, MS_REMOUNT, data);
}

int main(void)
{
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL) < 0) {
		printf("not ok 1 - a mount namespace of its own: %s\n", strerror(errno));
		return 1;
	}
	snprintf(dir, sizeof(dir), "/tmp/skas-tmpfsopts-%d", (int)getpid());
	if (mkdir(dir, 0755) < 0) {
		printf("not ok 1 - mkdir: %s\n", strerror(errno));
		return 1;
	}

	check(mnt("noswap,huge=within_size,inode64,uid=5") == 0, "mounted noswap,huge,inode64,uid");
	check_opts("uid=5,inode64,huge=within_size,noswap", "shown in shmem's order");
	check(remount("noswap") == 0, "remount noswap: already");
	check(remount("huge=always") == 0, "remount huge=always");
	check_opts("uid=5,inode64,huge=always,noswap", "huge changed in place");
	check(remount("huge=never") == 0, "remount huge=never");
	check_opts("uid=5,inode64,noswap", "huge=never is not shown");

	check(mnt("inode64,mpol=local,huge=advise,size=1m,mode=700,nr_inodes=9") == 0,
	      "mounted with size, mode, mpol too");
	check_opts("size=1024k,nr_inodes=9,mode=700,inode64,huge=advise,mpol=local",
		   "all in order");
	check_err(remount("noswap"), EINVAL, "remount noswap: EINVAL (cannot disable swap)");
	check(remount("size=2m,mpol=default,huge=within_size") == 0, "remount size and huge");
	check_opts("size=2048k,nr_inodes=9,mode=700,inode64,huge=within_size,mpol=local",
		   "each in its place");
	check(remount("inode32") == 0, "remount inode32");
	check(strstr(opts(), "inode64") == NULL, "no inode64 shown");
	check(remount("inode64") == 0 && strstr(opts(), ",inode64,huge") != NULL,
	      "remount inode64: shown again");

	check_err(mnt("inode64,huge=deny"), EINVAL, "huge=deny: EINVAL (the sysfs knob's only)");
	check_err(mnt("inode64,huge=force"), EINVAL, "huge=force: EINVAL");
	check_err(mnt("inode64,huge=bogus"), EINVAL, "huge=bogus: EINVAL");
	check_err(mnt("inode64,huge="), EINVAL, "huge=: EINVAL");
	check_err(mnt("inode64,noswap=1"), EINVAL, "noswap=1: EINVAL");
	check_err(mnt("inode64=1"), EINVAL, "inode64=1: EINVAL");
	check(mnt("inode32,noswap") == 0 && strstr(opts(), "noswap") != NULL, "inode32 taken");

	umount(dir);
	check(mount("t", dir, "tmpfs", MS_SYNCHRONOUS | MS_DIRSYNC | MS_LAZYTIME | MS_MANDLOCK,
		    "inode64,mode=755") == 0,
	      "mounted sync, dirsync, lazytime, mand");
	check_str(field("/proc/self/mounts", dir, 3),
		  "rw,sync,dirsync,mand,lazytime,relatime,mode=755,inode64",
		  "mounts: the superblock's flags after rw");
	check_str(field("/proc/self/mountinfo", dir, 9),
		  "rw,sync,dirsync,mand,lazytime,mode=755,inode64",
		  "mountinfo: in the super options");
	check_str(field("/proc/self/mountinfo", dir, 5), "rw,relatime",
		  "mountinfo: not in the mount's");
	{
		struct statvfs sv;

		check(statvfs(dir, &sv) == 0 && (sv.f_flag & ST_SYNCHRONOUS) &&
			      (sv.f_flag & ST_MANDLOCK),
		      "statvfs: ST_SYNCHRONOUS, ST_MANDLOCK");
		check(mount(NULL, dir, NULL, MS_REMOUNT, NULL) == 0, "remounted with none");
		check(statvfs(dir, &sv) == 0 && !(sv.f_flag & (ST_SYNCHRONOUS | ST_MANDLOCK)),
		      "statvfs: neither");
	}
	check_str(field("/proc/self/mounts", dir, 3), "rw,dirsync,relatime,mode=755,inode64",
		  "a remount keeps dirsync only (MS_RMT_MASK)");
	check(mount(NULL, dir, NULL, MS_REMOUNT | MS_BIND | MS_NOSUID, NULL) == 0 &&
		      strcmp(field("/proc/self/mounts", dir, 3),
			     "rw,dirsync,nosuid,relatime,mode=755,inode64") == 0,
	      "a bind remount leaves them");
	{
		pid_t p = fork();
		int st;

		if (p == 0) {
			/* shmem_parse_one: noswap only in the initial user
			 * namespace */
			if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
				_exit(2);
			_exit(mount("t", dir, "tmpfs", 0, "noswap") < 0 && errno == EINVAL ? 0 : 1);
		}
		check(p > 0 && waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "noswap in a user namespace: EINVAL");
	}
	umount(dir);
	rmdir(dir);
	return 0;
}
