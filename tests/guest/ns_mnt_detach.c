/* A name removed or replaced in one mount namespace takes the mounts on it
 * in the others with it (Linux's detach_mounts, since 3.18): rmdir of a
 * directory, unlink of a file bind-mounted on, and a rename over a
 * directory mounted on elsewhere all succeed where the name is no mount
 * point, and the other namespace's mounts there, and those below them,
 * are gone; a renamed mount point keeps its mount; in the namespace that
 * has the mount the same calls stay EBUSY. skas left the other
 * namespaces' mounts in place. Runs as root, each side in a mount
 * namespace of its own. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ENAME
#include "tap.h"

static char base[64], d[96], sub[112], f[96], t[96], src[96], m[96], m2[96];

/* Mounts whose mount point is exactly path. */
static int mounts_at(const char *path)
{
	char line[1024], mp[512];
	FILE *fp = fopen("/proc/self/mounts", "r");
	int n = 0;

	while (fp && fgets(line, sizeof(line), fp))
		if (sscanf(line, "%*s %511s", mp) == 1 && strcmp(mp, path) == 0)
			n++;
	if (fp)
		fclose(fp);
	return n;
}

static int private_ns(void)
{
	return unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL);
}

int main(void)
{
	int p1[2], p2[2];
	struct stat st;
	pid_t k;

	snprintf(base, sizeof(base), "/tmp/skas-mntdetach-%d", (int)getpid());
	snprintf(d, sizeof(d), "%s/d", base);
	snprintf(sub, sizeof(sub), "%s/d/sub", base);
	snprintf(f, sizeof(f), "%s/f", base);
	snprintf(t, sizeof(t), "%s/t", base);
	snprintf(src, sizeof(src), "%s/src", base);
	snprintf(m, sizeof(m), "%s/m", base);
	snprintf(m2, sizeof(m2), "%s/m2", base);
	if (private_ns() || mkdir(base, 0755) || mkdir(d, 0755) || mkdir(t, 0755) ||
	    mkdir(src, 0755) || mkdir(m, 0755) || close(open(f, O_CREAT | O_WRONLY, 0644))) {
		printf("not ok 1 - set up: %s\n", strerror(errno));
		return 1;
	}
	if (pipe(p1) || pipe(p2))
		return 1;
	k = fork();
	if (k == 0) {
		check(private_ns() == 0, "the other side: a mount namespace of its own");
		check(mount("none", d, "tmpfs", 0, NULL) == 0 && mkdir(sub, 0755) == 0 &&
			      mount("none", sub, "tmpfs", 0, NULL) == 0,
		      "a tmpfs on d, another on d/sub");
		check(mount(f, f, NULL, MS_BIND, NULL) == 0, "f bound on itself");
		check(mount("none", t, "tmpfs", 0, NULL) == 0, "a tmpfs on t");
		check(mount("none", m, "tmpfs", 0, NULL) == 0, "a tmpfs on m");
		check_err(rmdir(m), EBUSY, "rmdir of its own mount point");
		/* the TAP count goes back and forth with the turns */
		if (write(p1[1], &n, sizeof(n)) != sizeof(n) ||
		    read(p2[0], &n, sizeof(n)) != sizeof(n))
			_exit(1);
		check(mounts_at(d) == 0 && mounts_at(sub) == 0,
		      "d removed over there: its mounts are gone, the one below too");
		check_err(stat(d, &st), ENOENT, "d is no more");
		check(mounts_at(f) == 0, "f removed over there: its bind is gone");
		check(mounts_at(t) == 0, "t replaced by a rename over there: its mount is gone");
		check(stat(t, &st) == 0 && S_ISDIR(st.st_mode), "t is the renamed directory");
		check(mounts_at(m) == 0 && mounts_at(m2) == 1,
		      "m renamed to m2: its mount follows");
		check(umount(m2) == 0, "and is unmounted by its new name");
		if (write(p1[1], &n, sizeof(n)) != sizeof(n))
			_exit(1);
		_exit(0);
	}
	if (read(p1[0], &n, sizeof(n)) != sizeof(n))
		return 1;
	check(rmdir(d) == 0, "rmdir of d, a mount point elsewhere only");
	check(unlink(f) == 0, "unlink of f, a mount point elsewhere only");
	check(rename(src, t) == 0, "rename over t, a mount point elsewhere only");
	check(rename(m, m2) == 0, "rename of m, a mount point elsewhere only");
	if (write(p2[1], &n, sizeof(n)) != sizeof(n) || read(p1[0], &n, sizeof(n)) != sizeof(n))
		return 1;
	check(waitpid(k, NULL, 0) == k, "the other side is done");
	check(rmdir(t) == 0 && rmdir(m2) == 0 && rmdir(base) == 0, "cleaned up");
	return 0;
}
