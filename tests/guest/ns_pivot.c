/* pivot_root(2) in a mount namespace of its own: the new root's mount
 * becomes / and the old root goes on put_old; the root and cwd of the
 * caller that were the old root move to the new one; the old root can be
 * unmounted; pivot_root(".", ".") then umount2(".", MNT_DETACH); a cwd
 * left in the old root, then "(unreachable)" once it is detached; Linux's
 * errors (EPERM, EBUSY, EINVAL, ENOTDIR, ENOENT). Natively too: only in
 * children that unshared first. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "caps.h"

#include "ns_util.h"
static char top[64];

static long pivot(const char *a, const char *b)
{
	return syscall(SYS_pivot_root, a, b);
}

static const char *P(const char *rel)
{
	static char buf[4][128];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", top, rel);
	return buf[k];
}

static int setup(void)
{
	int fd;

	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("x", top, "tmpfs", 0, NULL) || mkdir(P("old"), 0755) || mkdir(P("dir"), 0755))
		return -1;
	fd = open(P("marker"), O_CREAT | O_WRONLY, 0644);
	close(fd);
	return chdir("/");
}

static void errors(void)
{
	check(setup() == 0, "a namespace with a tmpfs to pivot to");
	check_err(pivot("/", P("old")), EBUSY, "EBUSY", "new_root on the root's mount");
	check_err(pivot(top, "/tmp"), EBUSY, "EBUSY", "put_old on the root's mount");
	check_err(pivot(P("dir"), P("old")), EINVAL, "EINVAL", "new_root not a mount point");
	check_err(pivot(P("missing"), P("old")), ENOENT, "ENOENT", "new_root missing");
	check_err(pivot(P("marker"), P("old")), ENOTDIR, "ENOTDIR", "new_root a file");
	check_err(pivot(top, P("marker")), ENOTDIR, "ENOTDIR", "put_old a file");
	check_err(pivot(top, "/dev"), EINVAL, "EINVAL", "put_old not under new_root");
	check(caps_drop(CAP_SYS_ADMIN) == 0, "drop CAP_SYS_ADMIN");
	check_err(pivot(top, P("old")), EPERM, "EPERM", "without CAP_SYS_ADMIN");
}

static void pivots(void)
{
	char cwd[128];

	check(setup() == 0, "a namespace with a tmpfs to pivot to");
	check(pivot(top, P("old")) == 0, "pivot_root(tmpfs, tmpfs/old)");
	check(getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, "/"), "the cwd was /: it is the new /");
	check(access("/marker", F_OK) == 0, "/marker: the tmpfs is /");
	check(access("/old/etc/passwd", F_OK) == 0, "the old root is on /old");
	check(access("/old/proc/self/mountinfo", F_OK) == 0, "with what was mounted on it");
	check(access("/proc/self", F_OK) == -1, "no /proc in the new root");
	check(umount2("/old", MNT_DETACH) == 0, "umount2(/old, MNT_DETACH)");
	check(access("/old/etc/passwd", F_OK) == -1 && errno == ENOENT, "the old root is gone");
	check_err(pivot("/", "/old"), EBUSY, "EBUSY", "pivot to the root itself");
}

static int cwd_is(const char *want)
{
	char buf[128];
	long r = syscall(SYS_getcwd, buf, sizeof(buf));

	return r == (long)strlen(want) + 1 && !strcmp(buf, want);
}

/* A cwd in the old root (not the old root itself) stays there: reachable
 * through put_old, then, once that is detached, "(unreachable)". */
static void cwd_left(void)
{
	check(setup() == 0 && chdir("/etc") == 0, "a namespace to pivot in, cwd /etc");
	check(pivot(top, P("old")) == 0, "pivot_root(tmpfs, tmpfs/old)");
	check(cwd_is("/old/etc"), "getcwd: /old/etc, through put_old");
	check(umount2("/old", MNT_DETACH) == 0, "umount2(/old, MNT_DETACH)");
	check(cwd_is("(unreachable)/etc"), "getcwd: (unreachable)/etc");
	check(chdir("/") == 0 && cwd_is("/"), "chdir /: the new root");
}

static void dot_dot(void)
{
	check(setup() == 0, "a namespace with a tmpfs to pivot to");
	check(chdir(top) == 0, "chdir into the tmpfs");
	check(pivot(".", ".") == 0, "pivot_root(\".\", \".\")");
	check(umount2(".", MNT_DETACH) == 0, "umount2(\".\", MNT_DETACH): the old root");
	check(chdir("/") == 0 && access("/marker", F_OK) == 0, "/ is the tmpfs");
	check(access("/etc/passwd", F_OK) == -1, "nothing of the old root");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(top, sizeof(top), "/tmp/ns_pivot.XXXXXX");
	if (!mkdtemp(top))
		return 1;
	in_child(errors);
	in_child(pivots);
	in_child(dot_dot);
	in_child(cwd_left);
	check(access("/etc/passwd", F_OK) == 0 && access(P("marker"), F_OK) == -1,
	      "our root is unchanged");
	check(rmdir(top) == 0, "cleaned up");
	return 0;
}
