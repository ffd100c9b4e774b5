/* tmpfs's nr_inodes= as Linux's shmem has it: the root takes one inode,
 * every other inode one, every name of a file past its first another
 * (shmem_link); past the limit a create, mkdir, symlink, mknod or link is
 * ENOSPC; statfs says f_files and f_ffree (both 0 for nr_inodes=0, no
 * limit); /proc/self/mounts shows the count after a remount too; a
 * remount below what is in use, or a limit put on a tmpfs that had none
 * (inodes or size), is EINVAL and changes nothing. skas showed nr_inodes=
 * but limited nothing by it and kept the first value. Runs in a mount
 * namespace of its own (root). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#define TAP_ENAME
#include "tap.h"

static char dir[64];

static void check_ok(long r, const char *what)
{
	check(r >= 0, what);
	if (r < 0)
		printf("# %s\n", ename(errno));
}

static int files_are(long total, long avail)
{
	struct statfs st;

	if (statfs(dir, &st) < 0)
		return 0;
	if ((long)st.f_files == total && (long)st.f_ffree == avail)
		return 1;
	printf("# f_files %ld, f_ffree %ld\n", (long)st.f_files, (long)st.f_ffree);
	return 0;
}

/* The options /proc/self/mounts shows for dir, after "tmpfs rw,relatime". */
static const char *opts(void)
{
	static char line[512];
	FILE *f = fopen("/proc/self/mounts", "r");
	char *p;

	while (f && fgets(line, sizeof(line), f))
		if ((p = strstr(line, dir)) && p[strlen(dir)] == ' ') {
			fclose(f);
			p = strstr(line, "relatime");
			if (p) {
				p[strcspn(p, " ")] = 0;
				return p + strlen("relatime");
			}
			return "?";
		}
	if (f)
		fclose(f);
	return "(none)";
}

static void check_opts(const char *want, const char *what)
{
	const char *got = opts();

	check(strcmp(got, want) == 0, what);
	if (strcmp(got, want))
		printf("# got '%s'\n", got);
}

static int mk(const char *name)
{
	int fd = open(name, O_CREAT | O_WRONLY, 0644);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

int main(void)
{
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL) < 0) {
		printf("not ok 1 - a mount namespace of its own: %s\n", strerror(errno));
		return 1;
	}
	snprintf(dir, sizeof(dir), "/tmp/skas-tmpfsino-%d", (int)getpid());
	if (mkdir(dir, 0755) < 0) {
		printf("not ok 1 - mkdir %s: %s\n", dir, strerror(errno));
		return 1;
	}
	check_ok(mount("none", dir, "tmpfs", 0, "nr_inodes=4,size=1m"), "tmpfs with nr_inodes=4");
	if (chdir(dir) < 0)
		return 1;
	check(files_are(4, 3), "statfs: 4 inodes, 3 free (the root has one)");
	check_opts(",size=1024k,nr_inodes=4", "mounts: nr_inodes=4");
	check_ok(mk("a"), "a file");
	check_ok(mkdir("d", 0755), "a directory");
	check_ok(symlink("a", "s"), "a symlink: the last inode");
	check(files_are(4, 0), "statfs: none free");
	check_err(mk("b"), ENOSPC, "a file past it");
	check_err(mkdir("e", 0755), ENOSPC, "a directory past it");
	check_err(symlink("a", "t"), ENOSPC, "a symlink past it");
	check_err(mknod("p", S_IFIFO | 0644, 0), ENOSPC, "a fifo past it");
	check_err(link("a", "a2"), ENOSPC, "a second name of a file past it");
	check_err(open("d", O_TMPFILE | O_WRONLY, 0644), ENOSPC, "O_TMPFILE past it");
	check_ok(unlink("s"), "the symlink removed");
	check(files_are(4, 1), "statfs: 1 free");
	check_ok(link("a", "a2"), "a second name of a file takes it");
	check(files_are(4, 0), "statfs: none free again");
	check_ok(unlink("a2"), "the second name removed");
	check(files_are(4, 1), "statfs: 1 free again");

	check_err(mount(NULL, dir, NULL, MS_REMOUNT, "nr_inodes=2"), EINVAL,
		  "remount below the 3 in use");
	check(files_are(4, 1), "(nothing changed)");
	check_err(mount(NULL, dir, NULL, MS_REMOUNT, "size=2m,nr_inodes=2"), EINVAL,
		  "remount with a good size and too few inodes");
	check_opts(",size=1024k,nr_inodes=4", "(the size did not change either)");
	check_ok(mount(NULL, dir, NULL, MS_REMOUNT, "nr_inodes=3"),
		 "remount to exactly what is in use");
	check(files_are(3, 0), "statfs: 3, none free");
	check_ok(mount(NULL, dir, NULL, MS_REMOUNT, "nr_inodes=10"), "remount to 10");
	check(files_are(10, 7), "statfs: 10 inodes, 7 free");
	check_opts(",size=1024k,nr_inodes=10", "mounts: nr_inodes=10");
	check_ok(mk("b"), "a file fits again");
	check_ok(mount(NULL, dir, NULL, MS_REMOUNT, "size=2m"), "remount with a size only");
	check_opts(",size=2048k,nr_inodes=10", "mounts: the count kept");
	check_ok(mount(NULL, dir, NULL, MS_REMOUNT, "nr_inodes=0"), "remount to no limit");
	check(files_are(0, 0), "statfs: 0 and 0 without a limit");
	check_opts(",size=2048k,nr_inodes=0", "mounts: nr_inodes=0");
	check_err(mount(NULL, dir, NULL, MS_REMOUNT, "nr_inodes=100"), EINVAL,
		  "no limit put on one that had none");
	check_ok(mount(NULL, dir, NULL, MS_REMOUNT, "nr_inodes=0"), "nr_inodes=0 again");
	check_ok(mount(NULL, dir, NULL, MS_REMOUNT, "size=0"), "remount to no size limit");
	check_err(mount(NULL, dir, NULL, MS_REMOUNT, "size=1m"), EINVAL,
		  "no size limit put on one that had none");

	if (chdir("/") < 0)
		return 1;
	check_ok(umount(dir), "unmounted");
	check_ok(mount("none", dir, "tmpfs", 0, "nr_inodes=1"), "nr_inodes=1: the root's");
	check(files_are(1, 0), "statfs: 1, none free");
	check_err(mkdir(strcat(strcpy((char[128]){ 0 }, dir), "/x"), 0755), ENOSPC, "nothing more");
	check_ok(umount(dir), "unmounted");
	check_ok(rmdir(dir), "cleaned up");
	return 0;
}
