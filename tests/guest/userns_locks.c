/* What a user namespace's root cannot do, as Linux refuses it: make one
 * from a chroot, write a uid_map through a file an unprivileged process
 * opened (even as root), write one at an offset, deny setgroups after a
 * gid_map; and, in a mount namespace copied from a more privileged one,
 * unmount or move a mount it was given, clear its nosuid, bind it without
 * the mounts below, or change the filesystem's own options (but for a
 * tmpfs it mounted itself: skas said EPERM). Runs as root;
 * the unprivileged parts in children that drop to uid and gid 65534. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>

#define TAP_FLUSH
#include "tap.h"

static char dir[64];

/* A child's result: its exit status holds an errno (0: it worked). */
static int child(int (*fn)(void))
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		alarm(10);
		_exit(fn());
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int err(long r)
{
	return r < 0 ? errno : 0;
}

static int drop(void)
{
	if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
		return -1;
	return prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), e;

	if (fd < 0)
		return errno;
	e = err(write(fd, s, strlen(s)));
	close(fd);
	return e;
}

static int chrooted_unshare(void)
{
	if (chroot(dir) || chdir("/"))
		return 100;
	return err(unshare(CLONE_NEWUSER));
}

static int deny_twice(void)
{
	int e;

	if (drop() || unshare(CLONE_NEWUSER) || write_str("/proc/self/setgroups", "deny") ||
	    write_str("/proc/self/gid_map", "0 65534 1"))
		return 100;
	e = write_str("/proc/self/setgroups", "deny");
	return e ? e : 101;
}

static int map_at_offset(void)
{
	int fd, e;

	if (drop() || unshare(CLONE_NEWUSER))
		return 100;
	fd = open("/proc/self/uid_map", O_WRONLY);
	if (fd < 0)
		return 101;
	e = lseek(fd, 1, SEEK_SET) == 1 ? err(write(fd, "0 65534 1", 9)) : 102;
	close(fd);
	return e;
}

/* An unprivileged process opens its uid_map and hands the fd to root,
 * which writes a map only root could: the opener decides (EPERM). */
static int sv[2];

static int send_fd(int s, int fd)
{
	char c = 0, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl };
	struct cmsghdr *cm;

	m.msg_controllen = sizeof(ctl);
	cm = CMSG_FIRSTHDR(&m);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(s, &m, 0) == 1 ? 0 : -1;
}

static int recv_fd(int s)
{
	char c, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl };
	struct cmsghdr *cm;
	int fd;

	m.msg_controllen = sizeof(ctl);
	if (recvmsg(s, &m, 0) != 1 || !(cm = CMSG_FIRSTHDR(&m)) || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

static int opener(void)
{
	char c;
	int fd;

	if (drop() || unshare(CLONE_NEWUSER))
		return 100;
	fd = open("/proc/self/uid_map", O_WRONLY);
	if (fd < 0 || send_fd(sv[1], fd))
		return 101;
	/* stay until root has written */
	return read(sv[1], &c, 1) == 1 ? 0 : 102;
}

static void passed_fd(void)
{
	pid_t pid;
	int fd, st, e = -1;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return;
	pid = fork();
	if (pid == 0) {
		alarm(10);
		_exit(opener());
	}
	fd = recv_fd(sv[0]);
	if (fd >= 0) {
		e = err(write(fd, "0 0 1", 5));
		close(fd);
	}
	if (write(sv[0], "x", 1) != 1)
		e = -2;
	waitpid(pid, &st, 0);
	check(e == EPERM, "root writes uid_map \"0 0 1\" through an fd uid 65534 opened -> EPERM");
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the opener exits 0");
}

/* Mounts: root's own mount namespace has, under dir, a nosuid tmpfs at a
 * with a tmpfs at a/b; uid 65534's copy of it is locked. */
static char a[96], ab[96], other[96];

static int locked_ops(void)
{
	int r[7];

	if (drop() || unshare(CLONE_NEWUSER | CLONE_NEWNS))
		return 100;
	r[0] = err(umount2(ab, 0));
	r[1] = err(umount2(ab, MNT_DETACH));
	r[2] = err(mount(NULL, a, NULL, MS_REMOUNT | MS_BIND, NULL));
	r[3] = err(mount(NULL, a, NULL, MS_REMOUNT | MS_BIND | MS_NOSUID, NULL));
	r[4] = err(mount(a, other, NULL, MS_BIND, NULL));
	r[5] = err(mount(a, other, NULL, MS_BIND | MS_REC, NULL));
	r[6] = err(mount(NULL, a, NULL, MS_REMOUNT | MS_NOSUID, "size=1m"));
	return (r[0] == EINVAL) | (r[1] == EINVAL) << 1 | (r[2] == EPERM) << 2 | (r[3] == 0) << 3 |
	       (r[4] == EINVAL) << 4 | (r[5] == 0) << 5 | (r[6] == EPERM) << 6;
}

/* A tmpfs mounted in the user namespace is its own: its options change
 * (Linux's s_user_ns is the mounter's). */
static int own_tmpfs_ops(void)
{
	int r[4];

	if (drop() || unshare(CLONE_NEWUSER | CLONE_NEWNS))
		return 100;
	if (mount("z", other, "tmpfs", 0, "size=1m"))
		return 101;
	r[0] = err(mount(NULL, other, NULL, MS_REMOUNT, "size=2m"));
	r[1] = err(mount(NULL, other, NULL, MS_REMOUNT | MS_RDONLY, NULL));
	r[2] = err(mount(NULL, other, NULL, MS_REMOUNT, NULL));
	r[3] = err(mount(NULL, "/", NULL, MS_REMOUNT, NULL));
	return (r[0] == 0) | (r[1] == 0) << 1 | (r[2] == 0) << 2 | (r[3] == EPERM) << 3;
}

static int mounts_part(void)
{
	if (unshare(CLONE_NEWNS) || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("x", a, "tmpfs", MS_NOSUID, "mode=0755") || mkdir(ab, 0755) ||
	    mount("y", ab, "tmpfs", 0, "mode=0755"))
		return 200;
	return child(locked_ops);
}

int main(void)
{
	int r;

	alarm(30);
	snprintf(dir, sizeof(dir), "/tmp/userns_locks.XXXXXX");
	if (!mkdtemp(dir) || chmod(dir, 0755))
		return 1;
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(ab, sizeof(ab), "%s/a/b", dir);
	snprintf(other, sizeof(other), "%s/other", dir);
	if (mkdir(a, 0755) || mkdir(other, 0755) || chmod(other, 0777))
		return 1;

	r = child(chrooted_unshare);
	check(r == EPERM, "unshare(CLONE_NEWUSER) in a chroot -> EPERM");
	r = child(deny_twice);
	check(r == EPERM, "setgroups \"deny\" again once a gid_map is written -> EPERM");
	r = child(map_at_offset);
	check(r == EINVAL, "uid_map written at offset 1 (lseek, write) -> EINVAL");
	passed_fd();
	r = child(mounts_part);
	check(r < 200 && (r & 1), "a locked mount: umount -> EINVAL");
	check(r < 200 && (r & 2), "umount MNT_DETACH -> EINVAL");
	check(r < 200 && (r & 4), "remount,bind without nosuid -> EPERM");
	check(r < 200 && (r & 8), "remount,bind,nosuid");
	check(r < 200 && (r & 16), "a bind without its locked mounts below -> EINVAL");
	check(r < 200 && (r & 32), "a recursive bind");
	check(r < 200 && (r & 64), "a remount of the filesystem's options -> EPERM");
	r = child(own_tmpfs_ops);
	check(r < 100 && (r & 1), "its own tmpfs: a remount with size=");
	check(r < 100 && (r & 2), "its own tmpfs: a read-only remount");
	check(r < 100 && (r & 4), "its own tmpfs: a read-write remount");
	check(r < 100 && (r & 8), "the root's filesystem: a remount -> EPERM");
	rmdir(ab);
	rmdir(a);
	rmdir(other);
	check(rmdir(dir) == 0, "the directory is removed");
	return 0;
}
