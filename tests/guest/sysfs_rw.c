/* A sysfs mounted read-write (mount -t sysfs without ro, as a container
 * runtime or an init script does): its tree is the kernel's, not a tmpfs
 * to change. kernfs gives EPERM for mkdir, mknod, symlink, link, unlink,
 * rmdir and rename, EACCES for a new file and for opening a file without a
 * store (no write bit) for writing, even to root, EOPNOTSUPP for
 * O_TMPFILE, ignores a truncation, and a store refuses a value it does not
 * know (EINVAL). skas's sysfs took every change as tmpfs would. Nothing
 * here changes the host's sysfs when run natively (no chmod: its nodes are
 * shared by every sysfs mount). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>

#define TAP_ENAME
#include "tap.h"

/* relative to a directory of its own: the glibc and musl builds, native
 * and under skas, run at once, and a fixed /tmp name was one the other
 * runs made and removed under this one (skas's /tmp sees the host's) */
#define D   "sysfs_rw.d"
#define CPU D "/devices/system/cpu"

int main(void)
{
	char buf[256], top[] = "/tmp/sysfs_rwXXXXXX";
	struct stat st;
	int fd;
	ssize_t n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!mkdtemp(top) || chdir(top) < 0)
		return 1;
	check(unshare(CLONE_NEWNS) == 0 && mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL) == 0,
	      "a mount namespace of its own");
	mkdir(D, 0755);
	check(mount("sysfs", D, "sysfs", 0, NULL) == 0, "sysfs mounted read-write");
	fd = open(CPU "/online", O_RDONLY);
	n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
	check(n > 0, "cpu/online reads");
	close(fd);
	check_err(open(CPU "/online", O_WRONLY), EACCES, "opened for writing: EACCES");
	check_err(open(CPU "/online", O_RDWR | O_TRUNC), EACCES, "O_RDWR|O_TRUNC: EACCES");
	check_err(open(CPU "/newf", O_CREAT | O_WRONLY, 0644), EACCES, "a new file: EACCES");
	check_err(mkdir(CPU "/newd", 0755), EPERM, "mkdir: EPERM");
	check_err(mkdir(CPU "/online", 0755), EEXIST, "mkdir of an existing name: EEXIST");
	check_err(mknod(CPU "/fifo", S_IFIFO | 0600, 0), EPERM, "mknod of a FIFO: EPERM");
	check_err(symlink("x", CPU "/sl"), EPERM, "symlink: EPERM");
	check_err(link(CPU "/online", CPU "/ln"), EPERM, "link: EPERM");
	check_err(unlink(CPU "/online"), EPERM, "unlink: EPERM");
	check_err(rmdir(CPU "/cpu0"), EPERM, "rmdir: EPERM");
	check_err(rename(CPU "/online", CPU "/online2"), EPERM, "rename: EPERM");
	check_err(open(CPU, O_TMPFILE | O_RDWR, 0600), EOPNOTSUPP, "O_TMPFILE: EOPNOTSUPP");
	check(truncate(CPU "/online", 0) == 0, "truncate: taken");
	fd = open(CPU "/online", O_RDONLY);
	check(fd >= 0 && read(fd, buf, sizeof(buf)) == n, "and ignored: the text is whole");
	close(fd);
	check(stat(CPU "/online", &st) == 0 && (st.st_mode & 07777) == 0444,
	      "the file is still there, 0444");
	fd = open(D "/kernel/mm/transparent_hugepage/enabled", O_WRONLY);
	check(fd >= 0, "transparent_hugepage/enabled (a store) opens for writing");
	check_err(write(fd, "bogus\n", 6), EINVAL, "a value it does not know: EINVAL");
	close(fd);
	check(umount(D) == 0, "unmounted");
	rmdir(D);
	if (chdir("/") == 0)
		rmdir(top);
	return 0;
}
