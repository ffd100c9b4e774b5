/* mount(2) and umount2(2) as root: tmpfs with size=/mode=/uid=/gid=, proc,
 * bind (and MS_REC), remount read-only (of the filesystem and of a bind),
 * nodev/noexec enforced, MS_MOVE, propagation types, MNT_DETACH,
 * MNT_EXPIRE, a new devpts (bwrap's) and its remounts, statfs's f_flags and inode counts,
 * EBUSY/EINVAL/ENOTDIR/ENOENT/ENODEV/EFAULT/EPERM, and /proc/self/mounts and mountinfo lines. Natively the test first moves to
 * a private mount namespace (unshare, then / private); under skas unshare
 * is refused and there is one namespace: either way every mount is made
 * under a fresh directory of /tmp and undone. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"

#define ST_VALID 0x0020 /* statfs f_flags is filled in (linux/statfs.h) */
static char top[64];

static char *P(const char *rel)
{
	static char buf[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", top, rel);
	return buf[i];
}

/* The line of file (mounts or mountinfo) for the mount point rel, from
 * the mount point on, with top replaced by "T"; the last if stacked. */
static const char *line_of(const char *file, const char *rel)
{
	static char out[512];
	char line[1024], *dir = P(rel);
	FILE *f = fopen(file, "r");

	out[0] = 0;
	if (!f)
		return out;
	while (fgets(line, sizeof(line), f)) {
		char *at = strstr(line, dir), *rest, *root = NULL;

		if (!at || at[strlen(dir)] != ' ')
			continue;
		rest = at + strlen(dir);
		line[strcspn(line, "\n")] = 0;
		if (strstr(file, "mountinfo")) {
			/* root field, then from the options on */
			root = at - 2;
			while (root > line && *root != ' ')
				root--;
			*(at - 1) = 0;
			snprintf(out, sizeof(out), "%s T/%s%s", root + 1, rel, rest);
		} else {
			snprintf(out, sizeof(out), "T/%s%s", rel, rest);
		}
	}
	fclose(f);
	return out;
}

static void check_line(const char *file, const char *rel, const char *want)
{
	const char *got = line_of(file, rel);
	char what[300];

	snprintf(what, sizeof(what), "%s: %s", strrchr(file, '/') + 1, want);
	check(strcmp(got, want) == 0, what);
	if (strcmp(got, want))
		printf("# got: %s\n", got);
}

static int put(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	long r;

	if (fd < 0)
		return -1;
	r = write(fd, s, strlen(s));
	close(fd);
	return r < 0 ? -1 : 0;
}

static void tmpfs_mounts(void)
{
	struct stat st;
	struct statfs sf;

	mkdir(P("t"), 0755);
	check(mount("none", P("t"), "tmpfs", 0, "size=1m,mode=750,uid=5,gid=6") == 0,
	      "mount tmpfs size=1m,mode=750,uid=5,gid=6");
	check(stat(P("t"), &st) == 0 && (st.st_mode & 07777) == 0750 && st.st_uid == 5 &&
		      st.st_gid == 6,
	      "its root: mode 750, uid 5, gid 6");
	check(statfs(P("t"), &sf) == 0 && sf.f_blocks == 256 && sf.f_bsize == 4096,
	      "statfs: 256 blocks of 4096");
	check(sf.f_flags == (ST_VALID | ST_RELATIME), "statfs f_flags: ST_VALID|ST_RELATIME");
	check(sf.f_files - sf.f_ffree == 1, "statfs: one inode in use (the root)");
	check_line("/proc/self/mounts", "t",
		   "T/t tmpfs rw,relatime,size=1024k,mode=750,uid=5,gid=6 0 0");
	check_line("/proc/self/mountinfo", "t",
		   "/ T/t rw,relatime - tmpfs none rw,size=1024k,mode=750,uid=5,gid=6");
	check(put(P("t/f"), "data") == 0, "a file written on it");
	check(mount(NULL, P("t"), NULL, MS_REMOUNT, "size=2m") == 0, "remount size=2m");
	check_line("/proc/self/mounts", "t",
		   "T/t tmpfs rw,relatime,size=2048k,mode=750,uid=5,gid=6 0 0");
	check(mount(NULL, P("t"), NULL, MS_REMOUNT | MS_RDONLY, NULL) == 0, "remount ro");
	check_err(open(P("t/g"), O_WRONLY | O_CREAT, 0644), EROFS, "create on it");
	check_err(open(P("t/f"), O_WRONLY), EROFS, "open for writing on it");
	check_err(mkdir(P("t/d"), 0755), EROFS, "mkdir on it");
	check(statfs(P("t"), &sf) == 0 && sf.f_flags == (ST_VALID | ST_RDONLY | ST_RELATIME),
	      "statfs f_flags: ST_VALID|ST_RDONLY|ST_RELATIME");
	check(sf.f_files - sf.f_ffree == 2, "statfs: two inodes in use");
	check_line("/proc/self/mounts", "t",
		   "T/t tmpfs ro,relatime,size=2048k,mode=750,uid=5,gid=6 0 0");
	check_line("/proc/self/mountinfo", "t",
		   "/ T/t ro,relatime - tmpfs none ro,size=2048k,mode=750,uid=5,gid=6");
	check(mount(NULL, P("t"), NULL, MS_REMOUNT, NULL) == 0, "remount rw");
	check(mkdir(P("t/d"), 0755) == 0, "mkdir again");
	check(umount(P("t")) == 0, "umount");
	check_err(stat(P("t/f"), &st), ENOENT, "its file is gone with it");

	check(mount("tmp2", P("t"), "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOATIME, NULL) ==
		      0,
	      "mount tmpfs nosuid,nodev,noexec,noatime");
	check_line("/proc/self/mounts", "t", "T/t tmpfs rw,nosuid,nodev,noexec,noatime 0 0");
	check(statfs(P("t"), &sf) == 0 &&
		      sf.f_flags == (ST_VALID | ST_NOSUID | ST_NODEV | ST_NOEXEC | ST_NOATIME),
	      "statfs f_flags: ST_VALID|ST_NOSUID|ST_NODEV|ST_NOEXEC|ST_NOATIME");
	check(mknod(P("t/null"), S_IFCHR | 0666, makedev(1, 3)) == 0, "mknod a char device");
	check_err(open(P("t/null"), O_RDWR), EACCES, "open a device on nodev");
	{
		int in = open("/proc/self/exe", O_RDONLY),
		    out = open(P("t/exe"), O_WRONLY | O_CREAT, 0755);
		char buf[65536];
		long r;
		void *m;

		while (in >= 0 && out >= 0 && (r = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, r) != r)
				break;
		close(in);
		close(out);
		char *argv[] = { P("t/exe"), NULL };
		check_err(execv(argv[0], argv), EACCES, "exec on noexec");
		in = open(P("t/exe"), O_RDONLY);
		m = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, in, 0);
		check_err(m == MAP_FAILED ? -1 : 0, EPERM, "mmap PROT_EXEC on noexec");
		m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, in, 0);
		check(m != MAP_FAILED, "mmap PROT_READ on noexec");
		if (m != MAP_FAILED)
			munmap(m, 4096);
		close(in);
	}
	check(mount(NULL, P("t"), NULL, MS_REMOUNT | MS_BIND, NULL) == 0,
	      "bind remount without flags clears them");
	check_line("/proc/self/mounts", "t", "T/t tmpfs rw,noatime 0 0");
	check(umount2(P("t"), 0) == 0, "umount2");
}

static void errors(void)
{
	char notmnt[300];
	int fd;

	mkdir(P("e"), 0755);
	put(P("file"), "x");
	snprintf(notmnt, sizeof(notmnt), "%s", P("e"));
	check_err(mount("none", P("nothere"), "tmpfs", 0, NULL), ENOENT, "mount on a missing path");
	check_err(mount("none", P("file"), "tmpfs", 0, NULL), ENOTDIR, "tmpfs on a file");
	check_err(mount("none", P("e"), "nosuchfs", 0, NULL), ENODEV, "unknown type");
	check_err(mount("/", P("e"), "hostfs", 0, NULL), ENODEV, "hostfs from inside");
	check_err(mount("none", P("e"), NULL, 0, NULL), EINVAL, "no type");
	check_err(mount("none", P("e"), "tmpfs", 0, "bogus=1"), EINVAL, "an unknown tmpfs option");
	check_err(mount("none", P("e"), "tmpfs", 0, "size=1x"), EINVAL, "a bad size");
	check_err(mount("none", P("e"), (char *)8, 0, NULL), EFAULT, "a bad type pointer");
	check_err(mount("none", (char *)8, "tmpfs", 0, NULL), EFAULT, "a bad target pointer");
	check_err(mount(NULL, P("e"), NULL, MS_REMOUNT, NULL), EINVAL, "remount of no mount");
	check_err(mount(NULL, P("e"), NULL, MS_PRIVATE, NULL), EINVAL, "MS_PRIVATE on no mount");
	check_err(mount("", P("e"), NULL, MS_BIND, NULL), EINVAL, "bind of \"\"");
	check_err(mount(P("nothere"), P("e"), NULL, MS_BIND, NULL), ENOENT,
		  "bind of a missing path");
	check_err(mount(P("file"), P("e"), NULL, MS_BIND, NULL), ENOTDIR,
		  "bind of a file on a dir");
	check_err(umount(notmnt), EINVAL, "umount of no mount");
	check_err(umount(P("nothere")), ENOENT, "umount of a missing path");
	check_err(umount2(P("e"), 0x100), EINVAL, "umount2 unknown flag");
	check_err(umount2(P("e"), MNT_EXPIRE | MNT_DETACH), EINVAL, "MNT_EXPIRE|MNT_DETACH");

	check(mount("none", P("e"), "tmpfs", 0, NULL) == 0, "mount tmpfs");
	check_err(mount(NULL, P("e"), NULL, MS_PRIVATE | MS_NOSUID, NULL), EINVAL,
		  "MS_PRIVATE with another flag");
	check(mount(NULL, P("e"), NULL, MS_PRIVATE, NULL) == 0, "MS_PRIVATE");
	check(mount(NULL, P("e"), NULL, MS_SLAVE | MS_REC, NULL) == 0, "MS_SLAVE|MS_REC");
	fd = open(P("e/x"), O_WRONLY | O_CREAT, 0644);
	check_err(umount(P("e")), EBUSY, "umount with an open file");
	close(fd);
	check(chdir(P("e")) == 0, "chdir into it");
	check_err(umount(P("e")), EBUSY, "umount with a cwd in it");
	check(chdir("/") == 0, "chdir out");
	check_err(umount2(P("e"), MNT_EXPIRE), EAGAIN, "MNT_EXPIRE once");
	check(umount2(P("e"), MNT_EXPIRE) == 0, "MNT_EXPIRE twice");

	check(mount("none", P("e"), "tmpfs", 0, NULL) == 0, "mount tmpfs again");
	mkdir(P("e/in"), 0755);
	check(mount("none", P("e/in"), "tmpfs", 0, NULL) == 0, "a mount below it");
	check_err(umount(P("e")), EBUSY, "umount with a mount below");
	mkdir(P("e/other"), 0755);
	check_err(rename(P("e/in"), P("e/moved")), EBUSY, "rename of a mount point");
	check_err(rename(P("e/other"), P("e/in")), EBUSY, "rename over a mount point");
	check_err(rmdir(P("e/in")), EBUSY, "rmdir of a mount point");
	/* through a bind of e without its mounts: still a mount point */
	mkdir(P("e2"), 0755);
	check(mount(P("e"), P("e2"), NULL, MS_BIND, NULL) == 0, "a bind of it, not recursive");
	check_err(rename(P("e2/in"), P("e2/moved")), EBUSY,
		  "rename of the mount point through the bind");
	check_err(rmdir(P("e2/in")), EBUSY, "rmdir of the mount point through the bind");
	check(umount(P("e2")) == 0 && rmdir(P("e2")) == 0, "the bind goes");
	check(umount(P("e/in")) == 0 && umount(P("e")) == 0, "umount below, then it");

	if (fork() == 0) {
		setuid(1000);
		check_err(mount("none", P("e"), "tmpfs", 0, NULL), EPERM, "mount as a user");
		check_err(umount(P("e")), EPERM, "umount as a user");
		check_err(mount("none", P("nothere"), "tmpfs", 0, NULL), ENOENT,
			  "a user's mount on a missing path");
		fflush(stdout);
		_exit(0);
	}
	wait(NULL);
	n += 3;
}

static void binds(void)
{
	struct stat a, b;
	int fd;
	char buf[8] = { 0 };

	mkdir(P("src"), 0755);
	mkdir(P("b"), 0755);
	mkdir(P("c"), 0755);
	check(mount("srcfs", P("src"), "tmpfs", 0, NULL) == 0, "mount a tmpfs");
	mkdir(P("src/sub"), 0755);
	mkdir(P("src/sub/in"), 0755);
	put(P("src/sub/f"), "bound");
	check(mount("inner", P("src/sub/in"), "tmpfs", 0, NULL) == 0, "and one below it");
	put(P("src/sub/in/g"), "inner");
	check(mount(P("src/sub"), P("b"), NULL, MS_BIND, NULL) == 0, "bind its sub");
	check(stat(P("src/sub/f"), &a) == 0 && stat(P("b/f"), &b) == 0 && a.st_ino == b.st_ino &&
		      a.st_dev == b.st_dev,
	      "the same file through both");
	check_err(stat(P("b/in/g"), &b), ENOENT, "a plain bind has no mount below");
	check_line("/proc/self/mountinfo", "b", "/sub T/b rw,relatime - tmpfs srcfs rw");
	check(mount(NULL, P("b"), NULL, MS_BIND | MS_REMOUNT | MS_RDONLY, NULL) == 0,
	      "remount the bind ro");
	check_err(open(P("b/f"), O_WRONLY), EROFS, "write through the ro bind");
	check(put(P("src/sub/f"), "again") == 0, "write through the source");
	fd = open(P("b/f"), O_RDONLY);
	check(fd >= 0 && read(fd, buf, 5) == 5 && strcmp(buf, "again") == 0,
	      "read it through the bind");
	close(fd);
	check_line("/proc/self/mountinfo", "b", "/sub T/b ro,relatime - tmpfs srcfs rw");
	check_line("/proc/self/mounts", "b", "T/b tmpfs ro,relatime 0 0");
	check(umount(P("b")) == 0, "umount the bind");

	check(mount(P("src"), P("b"), NULL, MS_BIND | MS_REC, NULL) == 0, "rbind");
	check(stat(P("b/sub/in/g"), &b) == 0, "a rbind has the mount below");
	check_line("/proc/self/mountinfo", "b/sub/in", "/ T/b/sub/in rw,relatime - tmpfs inner rw");
	check_err(umount(P("b")), EBUSY, "umount of the rbind: busy below");
	check(umount2(P("b"), MNT_DETACH) == 0, "MNT_DETACH of the rbind");
	check_err(stat(P("b/sub"), &b), ENOENT, "gone from its place");

	check(mount(NULL, P("src"), NULL, MS_UNBINDABLE, NULL) == 0, "MS_UNBINDABLE");
	check_err(mount(P("src"), P("b"), NULL, MS_BIND, NULL), EINVAL, "bind of an unbindable");
	check(mount(NULL, P("src"), NULL, MS_PRIVATE, NULL) == 0, "MS_PRIVATE again");

	check(mount(P("src"), P("c"), NULL, MS_MOVE, NULL) == 0, "MS_MOVE");
	check(stat(P("c/sub/f"), &b) == 0 && stat(P("c/sub/in/g"), &b) == 0,
	      "moved with the mount below");
	check_err(stat(P("src/sub"), &b), ENOENT, "not at the old place");
	check_err(mount(P("c"), P("c/sub"), NULL, MS_MOVE, NULL), ELOOP, "MS_MOVE below itself");
	check_err(mount(P("c/sub"), P("b"), NULL, MS_MOVE, NULL), EINVAL, "MS_MOVE of no mount");

	fd = open(P("c/sub/f"), O_RDONLY);
	check(umount2(P("c"), MNT_DETACH) == 0, "MNT_DETACH with an open file");
	memset(buf, 0, sizeof(buf));
	check(fd >= 0 && pread(fd, buf, 5, 0) == 5 && strcmp(buf, "again") == 0,
	      "the open file still reads");
	check_err(stat(P("c/sub"), &b), ENOENT, "the mount is gone from the tree");
	close(fd);
}

static void procs(void)
{
	struct stat st;

	mkdir(P("p"), 0755);
	check(mount("proc", P("p"), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0,
	      "mount proc");
	check(stat(P("p/self/status"), &st) == 0, "its self/status");
	check_line("/proc/self/mounts", "p", "T/p proc rw,nosuid,nodev,noexec,relatime 0 0");
	check(umount(P("p")) == 0, "umount proc");
}

/* A devpts as bwrap and container runtimes mount one in a sandbox's
 * /dev (a new instance: no ptys of its own here are listed). */
static void devpts(void)
{
	struct stat st;

	mkdir(P("d"), 0755);
	check_err(mount("devpts", P("d"), "devpts", 0, "newinstance,bogus"), EINVAL,
		  "devpts with an unknown option");
	check_err(mount("devpts", P("d"), "devpts", 0, "ptmxmode=9"), EINVAL,
		  "devpts with ptmxmode not octal");
	check(mount("devpts", P("d"), "devpts", MS_NOSUID | MS_NOEXEC,
		    "newinstance,ptmxmode=0666,mode=620,gid=5") == 0,
	      "mount devpts newinstance,ptmxmode=0666,mode=620,gid=5");
	check(stat(P("d/ptmx"), &st) == 0 && S_ISCHR(st.st_mode) && (st.st_mode & 07777) == 0666 &&
		      st.st_rdev == makedev(5, 2),
	      "its ptmx: char 5,2, mode 666");
	check_line("/proc/self/mounts", "d",
		   "T/d devpts rw,nosuid,noexec,relatime,gid=5,mode=620,ptmxmode=666 0 0");
	/* a chmod of ptmx is not the mount option; a remount sets both */
	check(chmod(P("d/ptmx"), 0600) == 0 && stat(P("d/ptmx"), &st) == 0 &&
		      (st.st_mode & 07777) == 0600,
	      "chmod 600 of its ptmx");
	check_line("/proc/self/mounts", "d",
		   "T/d devpts rw,nosuid,noexec,relatime,gid=5,mode=620,ptmxmode=666 0 0");
	/* (the options a remount leaves out go back to their defaults) */
	check(mount(NULL, P("d"), NULL, MS_REMOUNT | MS_NOSUID | MS_NOEXEC,
		    "ptmxmode=644,mode=620,gid=5") == 0 &&
		      stat(P("d/ptmx"), &st) == 0 && (st.st_mode & 07777) == 0644,
	      "remount with ptmxmode=644: ptmx has it");
	check(mount(NULL, P("d"), NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NOEXEC,
		    "ptmxmode=666,mode=620,gid=5") == 0,
	      "remount read-only");
	check_line("/proc/self/mounts", "d",
		   "T/d devpts ro,nosuid,noexec,relatime,gid=5,mode=620,ptmxmode=666 0 0");
	check_err(chmod(P("d/ptmx"), 0644), EROFS, "chmod there");
	check(umount(P("d")) == 0, "umount devpts");
}

int main(void)
{
	struct stat st;

	setvbuf(stdout, NULL, _IONBF, 0);
	/* a private namespace, so nothing reaches the host's */
	if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return 1;
	snprintf(top, sizeof(top), "/tmp/vfs_mount.XXXXXX");
	if (!mkdtemp(top) || chmod(top, 0755) < 0)
		return 1;
	tmpfs_mounts();
	errors();
	binds();
	procs();
	devpts();
	check(stat(P("t"), &st) == 0 && umount(P("t")) == -1 && errno == EINVAL,
	      "nothing left mounted");
	umount2(P("b"), MNT_DETACH);
	umount2(P("c"), MNT_DETACH);
	umount2(P("src"), MNT_DETACH);
	umount2(P("e"), MNT_DETACH);
	umount2(P("p"), MNT_DETACH);
	umount2(P("d"), MNT_DETACH);
	if (fork() == 0) {
		execlp("rm", "rm", "-rf", top, (char *)NULL);
		_exit(1);
	}
	wait(NULL);
	printf("1..%d\n", n);
	return 0;
}
