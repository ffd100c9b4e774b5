/* POSIX ACLs on the guest's files (Linux's fs/posix_acl.c), through the
 * system.posix_acl_access and system.posix_acl_default xattrs as setfacl
 * writes them: the parse and checks (EOPNOTSUPP for another version,
 * EINVAL for a bad size, order, tag, permission or a missing mask), who may
 * set one (the owner: EPERM), an ACL the mode can say is not kept, the
 * mask in the mode's group bits, the permission check for named users and
 * groups through the mask, chmod changing the ACL, a default ACL (only on
 * a directory: EACCES) given to new files and directories in place of the
 * umask (a socket's bind takes both), removal (removexattr, or an empty
 * value), none on a symlink, and the ids as a user namespace sees them. Run as root,
 * in a directory of /tmp and one of /var/tmp. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#define TAP_FLUSH
#include "ns_util.h"

#define A_ACCESS  "system.posix_acl_access"
#define A_DEFAULT "system.posix_acl_default"

#define USER_OBJ  0x01
#define USER	  0x02
#define GROUP_OBJ 0x04
#define GROUP	  0x08
#define MASK	  0x10
#define OTHER	  0x20
#define NOID	  0xffffffffU

struct ent {
	uint16_t tag, perm;
	uint32_t id;
};

/* An xattr value of n entries, version 2 unless given; its length. */
static size_t acl(unsigned char *buf, uint32_t version, const struct ent *e, int n)
{
	int i;

	memcpy(buf, &version, 4);
	for (i = 0; i < n; i++)
		memcpy(buf + 4 + 8 * i, &e[i], 8);
	return 4 + 8 * (size_t)n;
}

static long set(const char *path, const char *name, const struct ent *e, int n)
{
	unsigned char buf[512];

	return err_of(setxattr(path, name, buf, acl(buf, 2, e, n), 0));
}

static unsigned mode_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_mode & 07777 : 0xffff;
}

/* What uid (and its groups) may do with path: open's errno for read and
 * for write, as "r0 w13". */
static void access_as(uid_t uid, gid_t gid, gid_t extra, const char *path, char *out)
{
	int p[2], st;
	pid_t pid;

	if (pipe(p) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		int r, w, fd;
		char s[32];

		if (setgroups(extra ? 1 : 0, &extra) < 0 || setgid(gid) < 0 || setuid(uid) < 0)
			_exit(1);
		fd = open(path, O_RDONLY);
		r = fd < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
		fd = open(path, O_WRONLY);
		w = fd < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
		snprintf(s, sizeof(s), "r%d w%d", r, w);
		if (write(p[1], s, strlen(s) + 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	out[0] = 0;
	if (read(p[0], out, 32) <= 0)
		strcpy(out, "?");
	close(p[0]);
	reap(pid);
	(void)st;
}

/* The entries of path's ACL of name as "tag:id:perm ..." (ids as
 * numbers, -1 for none). */
static void show(const char *path, const char *name, char *out, size_t size)
{
	unsigned char buf[512];
	long n = getxattr(path, name, buf, sizeof(buf));
	size_t k = 0;
	int i;

	if (n < 0) {
		snprintf(out, size, "errno %d", errno);
		return;
	}
	out[0] = 0;
	for (i = 0; 4 + 8 * i + 8 <= n && k < size; i++) {
		struct ent e;

		memcpy(&e, buf + 4 + 8 * i, 8);
		k += (size_t)snprintf(out + k, size - k, "%s%x:%d:%o", i ? " " : "", e.tag,
				      (int)e.id, e.perm);
	}
}

static char dir[64];
static char file[96], sub[96];

static void basics(void)
{
	const struct ent named[] = { { USER_OBJ, 6, NOID },
				     { USER, 4, 65534 },
				     { GROUP_OBJ, 0, NOID },
				     { MASK, 4, NOID },
				     { OTHER, 0, NOID } };
	const struct ent plain[] = { { USER_OBJ, 7, NOID },
				     { GROUP_OBJ, 5, NOID },
				     { OTHER, 1, NOID } };
	unsigned char buf[512];
	char got[256];
	int fd;

	fd = open(file, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	check(fd >= 0, "a file, mode 600");
	close(fd);
	chmod(file, 0600);
	check_errno(err_of(getxattr(file, A_ACCESS, buf, sizeof(buf))), ENODATA, "ENODATA",
		    "no access ACL yet");

	/* the parse and the checks */
	check_errno(err_of(setxattr(file, A_ACCESS, buf, acl(buf, 1, named, 5), 0)), EOPNOTSUPP,
		    "EOPNOTSUPP", "version 1");
	check_errno(err_of(setxattr(file, A_ACCESS, buf, 3, 0)), EINVAL, "EINVAL",
		    "shorter than the header");
	check_errno(err_of(setxattr(file, A_ACCESS, buf, acl(buf, 2, named, 5) + 3, 0)), EINVAL,
		    "EINVAL", "a partial entry");
	{
		struct ent e[5];

		memcpy(e, named, sizeof(e));
		e[3] = (struct ent){ OTHER, 0, NOID };
		check_errno(set(file, A_ACCESS, e, 4), EINVAL, "EINVAL", "a named user, no mask");
		memcpy(e, named, sizeof(e));
		e[1].perm = 8;
		check_errno(set(file, A_ACCESS, e, 5), EINVAL, "EINVAL", "a permission past rwx");
		memcpy(e, named, sizeof(e));
		e[1].tag = 0x40;
		check_errno(set(file, A_ACCESS, e, 5), EINVAL, "EINVAL", "an unknown tag");
		memcpy(e, named, sizeof(e));
		e[0] = named[2];
		e[2] = named[0];
		check_errno(set(file, A_ACCESS, e, 5), EINVAL, "EINVAL", "out of order");
		check_errno(set(file, A_ACCESS, named, 4), EINVAL, "EINVAL", "no other entry");
	}

	check_ok(set(file, A_ACCESS, named, 5), "an ACL with a named user");
	check_eq(mode_of(file), 0640, "the mode's group bits are its mask");
	show(file, A_ACCESS, got, sizeof(got));
	check_str(got, "1:-1:6 2:65534:4 4:-1:0 10:-1:4 20:-1:0", "it reads back as written");
	access_as(65534, 65534, 0, file, got);
	check_str(got, "r0 w13", "the named user reads, cannot write");
	access_as(65533, 65533, 0, file, got);
	check_str(got, "r13 w13", "another user neither");

	/* chmod sets the mask */
	check_ok(err_of(chmod(file, 0600)), "chmod 600");
	show(file, A_ACCESS, got, sizeof(got));
	check_str(got, "1:-1:6 2:65534:4 4:-1:0 10:-1:0 20:-1:0", "the mask is 0 now");
	access_as(65534, 65534, 0, file, got);
	check_str(got, "r13 w13", "the named user is masked out");
	check_ok(err_of(chmod(file, 0674)), "chmod 674");
	show(file, A_ACCESS, got, sizeof(got));
	check_str(got, "1:-1:6 2:65534:4 4:-1:0 10:-1:7 20:-1:4", "owner, mask and other follow");
	access_as(65534, 65534, 0, file, got);
	check_str(got, "r0 w13", "the named user's own entry still bounds it");

	{
		/* named groups; the owning group through the ACL */
		const struct ent g[] = { { USER_OBJ, 6, NOID },
					 { GROUP_OBJ, 0, NOID },
					 { GROUP, 6, 12345 },
					 { MASK, 6, NOID },
					 { OTHER, 0, NOID } };

		check_ok(set(file, A_ACCESS, g, 5), "an ACL with a named group");
		access_as(65533, 65533, 12345, file, got);
		check_str(got, "r0 w0", "a member of it reads and writes");
		access_as(65533, 65533, 0, file, got);
		check_str(got, "r13 w13", "others do not");
		access_as(65533, 0, 0, file, got);
		check_str(got, "r13 w13",
			  "nor a member of the owning group whose entry grants nothing");
	}

	check_ok(set(file, A_ACCESS, plain, 3), "an ACL the mode can say");
	check_errno(err_of(getxattr(file, A_ACCESS, buf, sizeof(buf))), ENODATA, "ENODATA",
		    "is not kept");
	check_eq(mode_of(file), 0751, "the mode says it");

	check_ok(set(file, A_ACCESS, named, 5), "an ACL again");
	check_ok(err_of(removexattr(file, A_ACCESS)), "removexattr");
	check_errno(err_of(getxattr(file, A_ACCESS, buf, sizeof(buf))), ENODATA, "ENODATA",
		    "it is gone");
	check_eq(mode_of(file), 0640, "the mode stays");

	check_errno(set(file, A_DEFAULT, named, 5), EACCES, "EACCES", "a default ACL on a file");
	check_errno(err_of(getxattr(file, A_DEFAULT, buf, sizeof(buf))), ENODATA, "ENODATA",
		    "a file has none");
	check_ok(set(file, A_ACCESS, named, 5), "an ACL to look at");
	check_eq(getxattr(file, A_ACCESS, NULL, 0), 44, "getxattr with size 0: its size");
	check_errno(err_of(getxattr(file, A_ACCESS, buf, 10)), ERANGE, "ERANGE",
		    "a buffer too small");
	{
		char names[512];
		long n = listxattr(file, names, sizeof(names)), i;
		int seen = 0;

		for (i = 0; i < n; i += (long)strlen(names + i) + 1)
			seen |= !strcmp(names + i, A_ACCESS);
		check(seen, "listxattr names it");
	}

	/* only the owner (or CAP_FOWNER) sets one, and that is asked before
	 * the entries' order */
	{
		struct ent bad[5];
		pid_t pid = fork();
		int st;

		memcpy(bad, named, sizeof(bad));
		bad[0] = named[2];
		bad[2] = named[0];
		if (pid == 0) {
			if (setuid(65534) < 0)
				_exit(2);
			_exit(set(file, A_ACCESS, named, 5) != EPERM		    ? 1
			      : set(file, A_ACCESS, bad, 5) != EPERM		    ? 3
			      : err_of(setxattr(file, A_ACCESS, "", 0, 0)) != EPERM ? 4
										    : 0);
		}
		st = reap(pid);
		check(exited(st, 0), "another user: EPERM, for a bad order or a removal too");
		check_errno(set(file, A_DEFAULT, bad, 5), EACCES, "EACCES",
			    "a default ACL in a bad order on a file: EACCES first");
	}
	check_ok(err_of(setxattr(file, A_ACCESS, "", 0, 0)), "setxattr of an empty value");
	check_errno(err_of(getxattr(file, A_ACCESS, buf, sizeof(buf))), ENODATA, "ENODATA",
		    "removes it");
	check_errno(err_of(getxattr(file, "system.posix_acl_other", buf, sizeof(buf))), EOPNOTSUPP,
		    "EOPNOTSUPP", "getxattr of another system.posix_acl_ name");
	check_errno(err_of(removexattr(file, "system.posix_acl_other")), EOPNOTSUPP, "EOPNOTSUPP",
		    "and removexattr");
	{
		/* a symlink has no ACLs */
		char link[128];
		struct stat lst;

		snprintf(link, sizeof(link), "%s/link", dir);
		check_ok(err_of(symlink("file", link)), "a symlink");
		check_errno(err_of(lsetxattr(link, A_ACCESS, buf, acl(buf, 2, named, 5), 0)),
			    EOPNOTSUPP, "EOPNOTSUPP", "lsetxattr of an ACL on it");
		check_errno(err_of(lgetxattr(link, A_ACCESS, buf, sizeof(buf))), EOPNOTSUPP,
			    "EOPNOTSUPP", "lgetxattr");
		check(lstat(link, &lst) == 0 && (lst.st_mode & 0777) == 0777, "its mode stays 777");
		unlink(link);
	}
}

static void defaults(void)
{
	const struct ent d[] = { { USER_OBJ, 7, NOID },
				 { USER, 7, 65534 },
				 { GROUP_OBJ, 5, NOID },
				 { MASK, 7, NOID },
				 { OTHER, 0, NOID } };
	char got[256], path[128];
	int fd;

	check_ok(err_of(mkdir(sub, 0755)), "a directory");
	check_ok(set(sub, A_DEFAULT, d, 5), "a default ACL on it");
	check_eq(mode_of(sub), 0755, "which leaves its mode");
	umask(022);
	snprintf(path, sizeof(path), "%s/f", sub);
	fd = open(path, O_CREAT | O_WRONLY, 0666);
	check(fd >= 0, "a file made in it with mode 666, umask 022");
	close(fd);
	check_eq(mode_of(path), 0660, "the default ACL masks its mode, not the umask");
	show(path, A_ACCESS, got, sizeof(got));
	check_str(got, "1:-1:6 2:65534:7 4:-1:5 10:-1:6 20:-1:0",
		  "it has the default's entries, masked by the mode");
	access_as(65534, 65534, 0, path, got);
	check_str(got, "r0 w0", "the named user reads and writes it");
	check_errno(err_of(getxattr(path, A_DEFAULT, got, sizeof(got))), ENODATA, "ENODATA",
		    "a file takes no default ACL");
	snprintf(path, sizeof(path), "%s/d", sub);
	check_ok(err_of(mkdir(path, 0777)), "a directory made in it with mode 777");
	check_eq(mode_of(path), 0770, "mode 770");
	show(path, A_DEFAULT, got, sizeof(got));
	check_str(got, "1:-1:7 2:65534:7 4:-1:5 10:-1:7 20:-1:0", "it takes the default ACL");
	snprintf(path, sizeof(path), "%s/n", sub);
	check_ok(err_of(mknod(path, S_IFIFO | 0604, 0)), "a fifo made in it with mode 604");
	check_eq(mode_of(path), 0600, "mode 600");
	{
		/* a default that the mode can say: no access ACL, still the
		 * default's bits */
		const struct ent plain[] = { { USER_OBJ, 6, NOID },
					     { GROUP_OBJ, 4, NOID },
					     { OTHER, 4, NOID } };

		snprintf(path, sizeof(path), "%s/d2", sub);
		check_ok(err_of(mkdir(path, 0777)), "another directory");
		check_ok(set(path, A_DEFAULT, plain, 3), "a plain default ACL on it");
		snprintf(path, sizeof(path), "%s/d2/f", sub);
		fd = open(path, O_CREAT | O_WRONLY, 0777);
		close(fd);
		check_eq(mode_of(path), 0644, "a file there: mode 777 masked by it");
		check_errno(err_of(getxattr(path, A_ACCESS, got, sizeof(got))), ENODATA, "ENODATA",
			    "and no access ACL");
	}
	{
		/* a socket's bind takes the umask, then the default ACL */
		const struct ent open_all[] = { { USER_OBJ, 7, NOID },
						{ GROUP_OBJ, 7, NOID },
						{ OTHER, 7, NOID } };
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		int s;

		snprintf(path, sizeof(path), "%s/d3", sub);
		check_ok(err_of(mkdir(path, 0777)), "a third directory");
		check_ok(set(path, A_DEFAULT, open_all, 3), "a default ACL of rwx for all on it");
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/d3/sock", sub);
		s = socket(AF_UNIX, SOCK_STREAM, 0);
		check_ok(err_of(bind(s, (struct sockaddr *)&sa, sizeof(sa))),
			 "a socket bound there, umask 022");
		close(s);
		check_eq(mode_of(sa.sun_path), 0755, "mode 755");
	}
	snprintf(path, sizeof(path), "%s/d", sub);
	check_ok(err_of(removexattr(path, A_DEFAULT)), "removexattr of a default ACL");
	check_errno(err_of(getxattr(path, A_DEFAULT, got, sizeof(got))), ENODATA, "ENODATA",
		    "gone");
	snprintf(path, sizeof(path), "%s/d/g", sub);
	fd = open(path, O_CREAT | O_WRONLY, 0666);
	close(fd);
	check_eq(mode_of(path), 0644, "new files there take the umask again");
}

/* In a user namespace where root is 1000 and 65534 has no name: the ids
 * it reads and gives. */
static void in_userns(void)
{
	const struct ent mine[] = { { USER_OBJ, 6, NOID },
				    { USER, 4, 1000 },
				    { GROUP_OBJ, 0, NOID },
				    { MASK, 4, NOID },
				    { OTHER, 0, NOID } };
	const struct ent bad[] = { { USER_OBJ, 6, NOID },
				   { USER, 4, 5 },
				   { GROUP_OBJ, 0, NOID },
				   { MASK, 4, NOID },
				   { OTHER, 0, NOID } };
	const struct ent named[] = { { USER_OBJ, 6, NOID },
				     { USER, 4, 65534 },
				     { GROUP_OBJ, 0, NOID },
				     { MASK, 4, NOID },
				     { OTHER, 0, NOID } };
	char got[256];
	int fd;

	check_ok(set(file, A_ACCESS, named, 5), "an ACL naming 65534");
	check_ok(err_of(unshare(CLONE_NEWUSER)), "unshare(CLONE_NEWUSER)");
	fd = open("/proc/self/uid_map", O_WRONLY);
	check(fd >= 0 && write(fd, "1000 0 1\n", 9) == 9, "uid 1000 there is root");
	close(fd);
	show(file, A_ACCESS, got, sizeof(got));
	check_str(got, "1:-1:6 2:-1:4 4:-1:0 10:-1:4 20:-1:0",
		  "an id the namespace cannot name reads -1");
	check_ok(set(file, A_ACCESS, mine, 5), "its owner sets one naming 1000");
	show(file, A_ACCESS, got, sizeof(got));
	check_str(got, "1:-1:6 2:1000:4 4:-1:0 10:-1:4 20:-1:0", "which reads 1000 there");
	check_errno(set(file, A_ACCESS, bad, 5), EINVAL, "EINVAL", "an id it cannot name");
}

static void outside(void)
{
	char got[256];

	show(file, A_ACCESS, got, sizeof(got));
	check_str(got, "1:-1:6 2:0:4 4:-1:0 10:-1:4 20:-1:0", "outside, that entry names root");
}

int main(void)
{
	/* /tmp, and /var/tmp (under skas the root's overlay: files copied up
	 * as their ACL is set) */
	static const char *const bases[] = { "/tmp", "/var/tmp" };
	size_t i;

	for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		char cmd[128];

		printf("# in %s\n", bases[i]);
		snprintf(dir, sizeof(dir), "%s/acl-test.%d", bases[i], (int)getpid());
		snprintf(file, sizeof(file), "%s/file", dir);
		snprintf(sub, sizeof(sub), "%s/sub", dir);
		if (mkdir(dir, 0755) < 0) {
			check(0, "mkdir");
			return 1;
		}
		basics();
		defaults();
		in_child(in_userns);
		outside();
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd) != 0)
			check(0, "cleaned up");
	}
	return 0;
}
