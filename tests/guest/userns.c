/* User namespaces (CLONE_NEWUSER), as Linux has them. The test runs as
 * root; the unprivileged paths run in a child that drops to uid and gid
 * 65534 (no supplementary groups, dumpable again so that its /proc files
 * stay its own) before it unshares. Each part's processes record what they
 * saw in shared memory; the driver (the part's process, root, outside)
 * prints, after they are gone.
 *
 * What is checked:
 * - Root's unshare(CLONE_NEWUSER): uid and gid read 65534 (the overflow
 *   ids) until a map is written, uid_map is empty, setgroups "allow", the
 *   effective and permitted sets full (0 to cap_last_cap). Writing uid_map
 *   "0 0 1" makes getuid() 0; a second write is EPERM; in another fresh
 *   namespace a malformed line, a write of 0 bytes and overlapping extents
 *   are EINVAL (and leave the map empty).
 * - The unprivileged user: uid_map "0 65534 1" (its own uid); gid_map is
 *   EPERM until setgroups is "deny", which cannot be undone ("allow":
 *   EPERM); then uid 0 and gid 0, setgroups(2) EPERM, uid_map read as
 *   "%10u %10u %10u" (from inside and from outside). Mapping uid 0 of the
 *   parent (not its own) is EPERM.
 * - Files as uid 0 there: root's files read as 65534 (unmapped), its own
 *   as 0, old and new; chown to an unmapped uid is EINVAL, to 0 works;
 *   writing /etc/passwd is EACCES (no CAP_DAC_OVERRIDE over an unmapped
 *   owner); setuid(1) EINVAL (unmapped), setuid(0) works.
 * - Namespaces it owns: a UTS namespace (sethostname; NS_GET_USERNS gives
 *   the user namespace), a mount namespace (a tmpfs whose root is its
 *   mounter's, umount), a network namespace (lo up, UDP to itself, port
 *   80). Without them: sethostname, mount and SIOCSIFFLAGS are EPERM.
 * - Outside: kill(0) and PTRACE_ATTACH of the root driver are EPERM; the
 *   Uid: line of /proc/<pid>/status reads 0 inside, 65534 from outside.
 * - Nesting: a namespace in it, mapped "0 0 1" (relative to its parent);
 *   NS_GET_OWNER_UID 0; NS_GET_PARENT gives the first namespace from there,
 *   EPERM from inside (past the caller's own) and on the initial one.
 * - setns(CLONE_NEWUSER) of root into that namespace: root is unmapped
 *   there (65534); into its own namespace: EINVAL.
 * - clone(CLONE_NEWUSER) of the unprivileged user: a child with full caps
 *   and uid 65534; with CLONE_FS or CLONE_THREAD: EINVAL.
 * - /proc/sys/user/max_user_namespaces is above 0.
 * Numbers the host gives (pids, inode numbers) are compared, never
 * printed. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "caps.h"

#ifndef CLONE_NEWUSER
#define CLONE_NEWUSER 0x10000000
#endif
#ifndef CLONE_NEWNS
#define CLONE_NEWNS 0x00020000
#endif
#ifndef CLONE_NEWUTS
#define CLONE_NEWUTS 0x04000000
#endif
#ifndef CLONE_NEWNET
#define CLONE_NEWNET 0x40000000
#endif
#define NS_GET_USERNS	 0xb701 /* _IO(0xb7, 0x1) */
#define NS_GET_PARENT	 0xb702 /* _IO(0xb7, 0x2) */
#define NS_GET_OWNER_UID 0xb704 /* _IO(0xb7, 0x4) */

#define NOBODY 65534

#define TAP_FLUSH
#include "ns_util.h"

/* The slots of v[]: what the processes of a part saw. */
enum {
	/* root's namespaces */
	R_UNSHARE,
	R_UID,
	R_EUID,
	R_GID,
	R_MAPLEN,
	R_CAPS,
	R_MAP,
	R_MAPUID,
	R_MAP2,
	R_UNSHARE2,
	R_BAD,
	R_EMPTY,
	R_OVERLAP,
	R_MAPLEN2,
	/* the unprivileged user's */
	U_DROP,
	U_ROOTMAP,
	U_UNSHARE,
	U_UIDMAP,
	U_GIDMAP1,
	U_DENY,
	U_GIDMAP2,
	U_ALLOW,
	U_UID,
	U_GID,
	U_SETGROUPS,
	U_PW_UID,
	U_PW_GID,
	U_PRE_UID,
	U_PRE_GID,
	U_MADE_UID,
	U_CHOWN1,
	U_CHOWN0,
	U_PW_WRITE,
	U_SETUID1,
	U_SETUID0,
	U_SETHOST,
	U_MOUNT,
	U_IFUP,
	U_KILL,
	U_PTRACE,
	/* its UTS namespace */
	T_UNSHARE,
	T_SETHOST,
	T_NAME,
	T_USERNS,
	/* its mount namespace */
	M_UNSHARE,
	M_PRIVATE,
	M_MOUNT,
	M_ROOTUID,
	M_FILE,
	M_UMOUNT,
	M_GONE,
	/* its network namespace */
	N_UNSHARE,
	N_IFUP,
	N_SELF,
	N_BIND80,
	/* the namespace in it */
	G_UNSHARE,
	G_MAP,
	G_UID,
	G_OWNER,
	G_PARENT_IN,
	G_PARENT,
	/* the driver's setns */
	D_SELF,
	D_SETNS,
	D_UID,
	D_EUID,
	D_INIT_PARENT,
	/* clone */
	C_CLONE,
	C_CAPS,
	C_UID,
	C_FS,
	C_THREAD,
	NSLOTS
};

#define UNSET (-999)
enum { X_SETGROUPS, X_UIDMAP, X_SETGROUPS2, X_UIDMAP2, X_STATUS, X_NESTMAP, X_OSTATUS, X_OMAP, NX };
struct shared {
	volatile long v[NSLOTS];
	char text[NX][64];
	volatile long driver;
};
static struct shared *S;

/* The directory of the files (mkdtemp, mode 0777). */
static char dir[64];

/* The full capability set, words 0 and 1, from cap_last_cap. */
static unsigned full[2];

static void reset(void)
{
	int i;

	memset(S->text, 0, sizeof(S->text));
	for (i = 0; i < NSLOTS; i++)
		S->v[i] = UNSET;
}

/* Run fn in a child (with a safety net): 1 if it exits 0. */
static int run(void (*fn)(void))
{
	pid_t pid = fork();

	if (pid == 0) {
		alarm(10);
		fn();
		_exit(0);
	}
	return pid > 0 && exited(reap(pid), 0);
}

static void in_dir(char *out, size_t size, const char *name)
{
	snprintf(out, size, "%s/%s", dir, name);
}

/* Write len bytes of buf to path, opened afresh: 0 or the errno. */
static long write_file(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY);
	ssize_t r;
	long e;

	if (fd < 0)
		return errno;
	r = write(fd, buf, len);
	e = r == (ssize_t)len ? 0 : r < 0 ? errno : EIO;
	close(fd);
	return e;
}

/* Read path into out, without a last newline: the bytes read, -1 if it
 * cannot be opened. */
static long read_text(const char *path, char *out, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t r;
	size_t len = 0;

	out[0] = 0;
	if (fd < 0)
		return -1;
	while (len < size - 1 && (r = read(fd, out + len, size - 1 - len)) > 0)
		len += (size_t)r;
	close(fd);
	out[len] = 0;
	if (len && out[len - 1] == '\n')
		out[len - 1] = 0;
	return (long)len;
}

/* The line of a /proc file that starts with key, without the newline; ""
 * if none. */
static void status_line(const char *path, const char *key, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	char line[256];

	out[0] = 0;
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key))) {
			line[strcspn(line, "\n")] = 0;
			snprintf(out, size, "%s", line);
		}
	if (f)
		fclose(f);
}

static unsigned long ino_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (unsigned long)st.st_ino : 0;
}

static unsigned long fd_ino(int fd)
{
	struct stat st;

	return fd >= 0 && fstat(fd, &st) == 0 ? (unsigned long)st.st_ino : 0;
}

/* st_uid (or st_gid) of path, UNSET if stat fails. */
static long owner_of(const char *path, int gid)
{
	struct stat st;

	if (stat(path, &st))
		return UNSET;
	return gid ? (long)st.st_gid : (long)st.st_uid;
}

/* Whether the effective and permitted sets are full. */
static int full_caps(void)
{
	struct cap_data d[2];

	return caps_get(d) == 0 && d[0].effective == full[0] && d[1].effective == full[1] &&
	       d[0].permitted == full[0] && d[1].permitted == full[1];
}

/* Become uid and gid 65534, with no supplementary groups; dumpable again
 * (the uid change made it not), so that /proc/self is its own: 0 or the
 * errno. */
static long drop(void)
{
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY) || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return errno;
	return 0;
}

/* Root's namespaces. */

static void root_first(void)
{
	S->v[R_UNSHARE] = err_of(unshare(CLONE_NEWUSER));
	S->v[R_UID] = getuid();
	S->v[R_EUID] = geteuid();
	S->v[R_GID] = getgid();
	S->v[R_MAPLEN] = read_text("/proc/self/uid_map", S->text[X_UIDMAP], 64);
	read_text("/proc/self/setgroups", S->text[X_SETGROUPS], 64);
	S->v[R_CAPS] = full_caps();
	S->v[R_MAP] = write_file("/proc/self/uid_map", "0 0 1", 5);
	S->v[R_MAPUID] = getuid();
	S->v[R_MAP2] = write_file("/proc/self/uid_map", "0 0 1", 5);
}

static void root_second(void)
{
	static const char overlap[] = "0 0 10\n5 100 10";
	char buf[64];

	S->v[R_UNSHARE2] = err_of(unshare(CLONE_NEWUSER));
	S->v[R_BAD] = write_file("/proc/self/uid_map", "x", 1);
	S->v[R_EMPTY] = write_file("/proc/self/uid_map", "", 0);
	S->v[R_OVERLAP] = write_file("/proc/self/uid_map", overlap, sizeof(overlap) - 1);
	S->v[R_MAPLEN2] = read_text("/proc/self/uid_map", buf, sizeof(buf));
}

static void root_ns(void)
{
	int a, b;

	alarm(20);
	reset();
	a = run(root_first);
	b = run(root_second);
	check(a && b, "root: the processes exit 0");
	check_ok(S->v[R_UNSHARE], "root's unshare(CLONE_NEWUSER)");
	check_eq(S->v[R_UID], NOBODY, "getuid() before a map: 65534 (the overflow uid)");
	check_eq(S->v[R_EUID], NOBODY, "geteuid(): 65534");
	check_eq(S->v[R_GID], NOBODY, "getgid(): 65534");
	check_eq(S->v[R_MAPLEN], 0, "/proc/self/uid_map is empty");
	check_str(S->text[X_SETGROUPS], "allow", "/proc/self/setgroups: allow");
	check(S->v[R_CAPS] == 1, "capget: the effective and permitted sets are full");
	check_ok(S->v[R_MAP], "uid_map \"0 0 1\"");
	check_eq(S->v[R_MAPUID], 0, "then getuid(): 0");
	check_errno(S->v[R_MAP2], EPERM, "EPERM", "a second write of uid_map");
	check_ok(S->v[R_UNSHARE2], "another unshare(CLONE_NEWUSER)");
	check_errno(S->v[R_BAD], EINVAL, "EINVAL", "uid_map \"x\"");
	check_errno(S->v[R_EMPTY], EINVAL, "EINVAL", "uid_map, 0 bytes");
	check_errno(S->v[R_OVERLAP], EINVAL, "EINVAL",
		    "uid_map \"0 0 10\\n5 100 10\" (overlapping)");
	check_eq(S->v[R_MAPLEN2], 0, "uid_map is still empty");
}

/* The unprivileged user's namespace. */

static int up[2], hold[2];

/* As the unprivileged user, outside: a map of the parent's uid 0. */
static void map_root(void)
{
	if (unshare(CLONE_NEWUSER) == 0)
		S->v[U_ROOTMAP] = write_file("/proc/self/uid_map", "0 0 1", 5);
}

static void uts_part(void)
{
	struct utsname u;
	int fd, ufd;

	S->v[T_UNSHARE] = err_of(unshare(CLONE_NEWUTS));
	S->v[T_SETHOST] = err_of(sethostname("box", 3));
	S->v[T_NAME] = uname(&u) == 0 && !strcmp(u.nodename, "box");
	fd = open("/proc/self/ns/uts", O_RDONLY);
	ufd = fd >= 0 ? ioctl(fd, NS_GET_USERNS) : -1;
	S->v[T_USERNS] = ufd >= 0 && fd_ino(ufd) == ino_of("/proc/self/ns/user");
}

static void mnt_part(void)
{
	char path[96];
	int fd;

	in_dir(path, sizeof(path), "t");
	S->v[M_UNSHARE] = err_of(unshare(CLONE_NEWNS));
	S->v[M_PRIVATE] = err_of(mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL));
	S->v[M_MOUNT] = err_of(mount("none", dir, "tmpfs", 0, NULL));
	if (S->v[M_MOUNT])
		return;
	S->v[M_ROOTUID] = owner_of(dir, 0);
	fd = open(path, O_CREAT | O_WRONLY | O_EXCL, 0644);
	if (fd >= 0)
		close(fd);
	S->v[M_FILE] = fd >= 0 && owner_of(path, 0) == 0;
	S->v[M_UMOUNT] = err_of(umount(dir));
	S->v[M_GONE] = err_of(owner_of(path, 0) == UNSET ? -1 : 0);
}

/* SIOCSIFFLAGS, IFF_UP, on lo: 0 or the errno. */
static long lo_up(void)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	long e;

	if (s < 0)
		return errno;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0) {
		e = errno;
		close(s);
		return e;
	}
	ifr.ifr_flags |= IFF_UP;
	e = err_of(ioctl(s, SIOCSIFFLAGS, &ifr));
	close(s);
	return e;
}

static void net_part(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	char buf[8];
	int u, p;

	S->v[N_UNSHARE] = err_of(unshare(CLONE_NEWNET));
	S->v[N_IFUP] = lo_up();
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	u = socket(AF_INET, SOCK_DGRAM, 0);
	S->v[N_SELF] = u >= 0 && bind(u, (struct sockaddr *)&a, sizeof(a)) == 0 &&
		       getsockname(u, (struct sockaddr *)&a, &len) == 0 &&
		       sendto(u, "hi", 2, 0, (struct sockaddr *)&a, len) == 2 &&
		       recv(u, buf, sizeof(buf), 0) == 2 && !memcmp(buf, "hi", 2);
	p = socket(AF_INET, SOCK_DGRAM, 0);
	a.sin_port = htons(80);
	S->v[N_BIND80] = err_of(bind(p, (struct sockaddr *)&a, sizeof(a)));
}

/* A namespace in the first: its process maps "0 0 1", then waits while
 * the first's root looks at it. */
static void nest(void)
{
	int nup[2], nhold[2], fd, pfd;
	char path[64];
	uid_t o = 12345;
	pid_t g;

	if (pipe(nup) || pipe(nhold))
		return;
	g = fork();
	if (g == 0) {
		alarm(10);
		close(nup[0]);
		close(nhold[1]);
		S->v[G_UNSHARE] = err_of(unshare(CLONE_NEWUSER));
		S->v[G_MAP] = write_file("/proc/self/uid_map", "0 0 1", 5);
		S->v[G_UID] = getuid();
		read_text("/proc/self/uid_map", S->text[X_NESTMAP], 64);
		fd = open("/proc/self/ns/user", O_RDONLY);
		S->v[G_OWNER] = ioctl(fd, NS_GET_OWNER_UID, &o) == 0 ? (long)o : UNSET;
		S->v[G_PARENT_IN] = err_of(ioctl(fd, NS_GET_PARENT));
		put(nup[1]);
		wait_eof(nhold[0]);
		_exit(0);
	}
	close(nup[1]);
	close(nhold[0]);
	if (g > 0 && get(nup[0])) {
		snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)g);
		fd = open(path, O_RDONLY);
		pfd = fd >= 0 ? ioctl(fd, NS_GET_PARENT) : -1;
		S->v[G_PARENT] = pfd >= 0 && fd_ino(fd) != fd_ino(pfd) &&
				 fd_ino(pfd) == ino_of("/proc/self/ns/user");
		close(fd);
		close(pfd);
	}
	close(nhold[1]);
	close(nup[0]);
	if (g > 0)
		reap(g);
}

static void unpriv_worker(void)
{
	char path[96];
	int fd;

	S->v[U_DROP] = drop();
	if (S->v[U_DROP])
		return;
	in_dir(path, sizeof(path), "pre");
	fd = open(path, O_CREAT | O_WRONLY | O_EXCL, 0644);
	if (fd >= 0)
		close(fd);
	run(map_root);

	S->v[U_UNSHARE] = err_of(unshare(CLONE_NEWUSER));
	S->v[U_UIDMAP] = write_file("/proc/self/uid_map", "0 65534 1", 9);
	S->v[U_GIDMAP1] = write_file("/proc/self/gid_map", "0 65534 1", 9);
	S->v[U_DENY] = write_file("/proc/self/setgroups", "deny", 4);
	S->v[U_GIDMAP2] = write_file("/proc/self/gid_map", "0 65534 1", 9);
	read_text("/proc/self/setgroups", S->text[X_SETGROUPS2], 64);
	S->v[U_ALLOW] = write_file("/proc/self/setgroups", "allow", 5);
	S->v[U_UID] = getuid();
	S->v[U_GID] = getgid();
	S->v[U_SETGROUPS] = err_of(setgroups(0, NULL));
	read_text("/proc/self/uid_map", S->text[X_UIDMAP2], 64);

	/* files */
	S->v[U_PW_UID] = owner_of("/etc/passwd", 0);
	S->v[U_PW_GID] = owner_of("/etc/passwd", 1);
	S->v[U_PRE_UID] = owner_of(path, 0);
	S->v[U_PRE_GID] = owner_of(path, 1);
	in_dir(path, sizeof(path), "made");
	fd = open(path, O_CREAT | O_WRONLY | O_EXCL, 0644);
	if (fd >= 0)
		close(fd);
	S->v[U_MADE_UID] = owner_of(path, 0);
	S->v[U_CHOWN1] = err_of(chown(path, 1, -1));
	S->v[U_CHOWN0] = err_of(chown(path, 0, 0));
	fd = open("/etc/passwd", O_WRONLY | O_APPEND);
	S->v[U_PW_WRITE] = err_of(fd);
	if (fd >= 0)
		close(fd);
	S->v[U_SETUID1] = err_of(setuid(1));
	S->v[U_SETUID0] = err_of(setuid(0));

	/* namespaces owned by the initial one, then its own */
	S->v[U_SETHOST] = err_of(sethostname("box", 3));
	S->v[U_MOUNT] = err_of(mount("none", dir, "tmpfs", 0, NULL));
	S->v[U_IFUP] = lo_up();
	run(uts_part);
	run(mnt_part);
	run(net_part);

	/* the root driver */
	S->v[U_KILL] = err_of(kill((pid_t)S->driver, 0));
	S->v[U_PTRACE] = err_of(ptrace(PTRACE_ATTACH, (pid_t)S->driver, NULL, NULL));
	if (!S->v[U_PTRACE])
		ptrace(PTRACE_DETACH, (pid_t)S->driver, NULL, NULL);

	status_line("/proc/self/status", "Uid:", S->text[X_STATUS], 64);
	nest();

	/* the driver looks at this process */
	put(up[1]);
	wait_eof(hold[0]);
}

/* The driver's child: setns into the unprivileged user's namespace. */
static int target_fd = -1;

static void enter(void)
{
	int self = open("/proc/self/ns/user", O_RDONLY);

	S->v[D_SELF] = err_of(setns(self, CLONE_NEWUSER));
	S->v[D_SETNS] = err_of(setns(target_fd, CLONE_NEWUSER));
	S->v[D_UID] = getuid();
	S->v[D_EUID] = geteuid();
}

static void unpriv(void)
{
	char path[64];
	int ok = 0, st = -1, fd;
	pid_t pid;

	alarm(20);
	reset();
	S->driver = getpid();
	if (pipe(up) || pipe(hold))
		return;
	pid = fork();
	if (pid == 0) {
		alarm(10);
		close(up[0]);
		close(hold[1]);
		unpriv_worker();
		_exit(0);
	}
	close(up[1]);
	close(hold[0]);
	if (pid > 0 && get(up[0])) {
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
		status_line(path, "Uid:", S->text[X_OSTATUS], 64);
		snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)pid);
		read_text(path, S->text[X_OMAP], 64);
		snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
		target_fd = open(path, O_RDONLY);
		ok = run(enter);
		close(target_fd);
		fd = open("/proc/self/ns/user", O_RDONLY);
		S->v[D_INIT_PARENT] = err_of(ioctl(fd, NS_GET_PARENT));
		close(fd);
	}
	close(hold[1]);
	if (pid > 0)
		st = reap(pid);
	close(up[0]);

	check(exited(st, 0) && ok, "unprivileged: the processes exit 0");
	check_ok(S->v[U_DROP], "a child drops to uid and gid 65534");
	check_errno(S->v[U_ROOTMAP], EPERM, "EPERM",
		    "uid 65534's uid_map \"0 0 1\" (not its own uid)");
	check_ok(S->v[U_UNSHARE], "uid 65534's unshare(CLONE_NEWUSER)");
	check_ok(S->v[U_UIDMAP], "uid_map \"0 65534 1\"");
	check_errno(S->v[U_GIDMAP1], EPERM, "EPERM", "gid_map \"0 65534 1\" before setgroups deny");
	check_ok(S->v[U_DENY], "setgroups \"deny\"");
	check_ok(S->v[U_GIDMAP2], "then gid_map \"0 65534 1\"");
	check_str(S->text[X_SETGROUPS2], "deny", "/proc/self/setgroups: deny");
	check_errno(S->v[U_ALLOW], EPERM, "EPERM", "setgroups \"allow\" after deny");
	check_eq(S->v[U_UID], 0, "getuid(): 0");
	check_eq(S->v[U_GID], 0, "getgid(): 0");
	check_errno(S->v[U_SETGROUPS], EPERM, "EPERM", "setgroups(0, NULL) (denied)");
	check_str(S->text[X_UIDMAP2], "         0      65534          1",
		  "uid_map read inside: \"%10u %10u %10u\", 0 65534 1");
	check_str(S->text[X_OMAP], "         0      65534          1",
		  "uid_map read from outside: the same");

	check_eq(S->v[U_PW_UID], NOBODY, "stat /etc/passwd: st_uid 65534 (root is unmapped)");
	check_eq(S->v[U_PW_GID], NOBODY, "st_gid 65534");
	check_eq(S->v[U_PRE_UID], 0, "a file uid 65534 made before: st_uid 0");
	check_eq(S->v[U_PRE_GID], 0, "st_gid 0");
	check_eq(S->v[U_MADE_UID], 0, "a file made inside: st_uid 0");
	check_errno(S->v[U_CHOWN1], EINVAL, "EINVAL", "chown(file, 1, -1) (1 is unmapped)");
	check_ok(S->v[U_CHOWN0], "chown(file, 0, 0)");
	check_errno(S->v[U_PW_WRITE], EACCES, "EACCES", "open /etc/passwd O_WRONLY|O_APPEND");
	check_errno(S->v[U_SETUID1], EINVAL, "EINVAL", "setuid(1) (unmapped)");
	check_ok(S->v[U_SETUID0], "setuid(0)");

	check_errno(S->v[U_SETHOST], EPERM, "EPERM", "sethostname in the initial UTS namespace");
	check_errno(S->v[U_MOUNT], EPERM, "EPERM", "mount tmpfs in the initial mount namespace");
	check_errno(S->v[U_IFUP], EPERM, "EPERM", "SIOCSIFFLAGS on lo of the initial network");
	check_ok(S->v[T_UNSHARE], "unshare(CLONE_NEWUTS) in it");
	check_ok(S->v[T_SETHOST], "sethostname(\"box\")");
	check(S->v[T_NAME] == 1, "uname: nodename box");
	check(S->v[T_USERNS] == 1, "NS_GET_USERNS of the UTS namespace: our user namespace");
	check_ok(S->v[M_UNSHARE], "unshare(CLONE_NEWNS) in it");
	check_ok(S->v[M_PRIVATE], "mount(MS_REC|MS_PRIVATE) of /");
	check_ok(S->v[M_MOUNT], "mount a tmpfs on the directory");
	check_eq(S->v[M_ROOTUID], 0, "its root: st_uid 0 (the mounter)");
	check(S->v[M_FILE] == 1, "a file made in it is there, st_uid 0");
	check_ok(S->v[M_UMOUNT], "umount");
	check_errno(S->v[M_GONE], ENOENT, "ENOENT", "then stat of the file");
	check_ok(S->v[N_UNSHARE], "unshare(CLONE_NEWNET) in it");
	check_ok(S->v[N_IFUP], "SIOCSIFFLAGS IFF_UP on its lo");
	check(S->v[N_SELF] == 1, "a UDP socket on 127.0.0.1 sends to itself");
	check_ok(S->v[N_BIND80], "bind to 127.0.0.1 port 80");

	check_errno(S->v[U_KILL], EPERM, "EPERM", "kill(the root driver, 0) from inside");
	check_errno(S->v[U_PTRACE], EPERM, "EPERM", "PTRACE_ATTACH of the root driver");
	check_str(S->text[X_STATUS], "Uid:\t0\t0\t0\t0", "/proc/self/status inside: Uid 0 0 0 0");
	check_str(S->text[X_OSTATUS], "Uid:\t65534\t65534\t65534\t65534",
		  "/proc/<it>/status from outside: Uid 65534 65534 65534 65534");

	check_ok(S->v[G_UNSHARE], "unshare(CLONE_NEWUSER) as root of the first namespace");
	check_ok(S->v[G_MAP], "its uid_map \"0 0 1\"");
	check_eq(S->v[G_UID], 0, "getuid() there: 0");
	check_str(S->text[X_NESTMAP], "         0          0          1",
		  "its uid_map read inside: 0 0 1 (the parent's 0)");
	check_eq(S->v[G_OWNER], 0, "NS_GET_OWNER_UID of it, inside: 0");
	check_errno(S->v[G_PARENT_IN], EPERM, "EPERM", "NS_GET_PARENT of it, inside");
	check(S->v[G_PARENT] == 1, "NS_GET_PARENT of it from the first: the first namespace");
	check_errno(S->v[D_INIT_PARENT], EPERM, "EPERM", "NS_GET_PARENT of the initial namespace");
	check_errno(S->v[D_SELF], EINVAL, "EINVAL", "setns(CLONE_NEWUSER) into its own namespace");
	check_ok(S->v[D_SETNS], "root's setns(CLONE_NEWUSER) into the first namespace");
	check_eq(S->v[D_UID], NOBODY, "then getuid(): 65534 (root is unmapped there)");
	check_eq(S->v[D_EUID], NOBODY, "geteuid(): 65534");
}

/* clone(CLONE_NEWUSER) of the unprivileged user. */

static void clone_worker(void)
{
	long c;

	if (drop())
		return;
	c = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
	if (c == 0) {
		S->v[C_CAPS] = full_caps();
		S->v[C_UID] = getuid();
		_exit(0);
	}
	S->v[C_CLONE] = c > 0 && exited(reap((pid_t)c), 0);
	S->v[C_FS] = err_of(syscall(SYS_clone, CLONE_NEWUSER | CLONE_FS | SIGCHLD, 0, 0, 0, 0));
	S->v[C_THREAD] = err_of(syscall(
		SYS_clone, CLONE_NEWUSER | CLONE_THREAD | CLONE_SIGHAND | CLONE_VM, 0, 0, 0, 0));
}

static void clones(void)
{
	int ok;

	alarm(20);
	reset();
	ok = run(clone_worker);
	check(ok && S->v[C_CLONE] == 1,
	      "uid 65534's clone(CLONE_NEWUSER|SIGCHLD): a child, exits 0");
	check(S->v[C_CAPS] == 1, "the child's effective and permitted sets are full");
	check_eq(S->v[C_UID], NOBODY, "its getuid() before a map: 65534");
	check_errno(S->v[C_FS], EINVAL, "EINVAL", "clone(CLONE_NEWUSER|CLONE_FS)");
	check_errno(S->v[C_THREAD], EINVAL, "EINVAL", "clone(CLONE_NEWUSER|CLONE_THREAD)");
}

static void limits(void)
{
	char buf[32];

	check(read_text("/proc/sys/user/max_user_namespaces", buf, sizeof(buf)) > 0 &&
		      atol(buf) > 0,
	      "/proc/sys/user/max_user_namespaces is above 0");
}

int main(void)
{
	static const char *const names[] = { "pre", "made", "t" };
	char path[96], buf[16];
	unsigned i;
	int last;

	alarm(60);
	S = mmap(NULL, sizeof(*S), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (S == MAP_FAILED)
		return 1;
	last = read_text("/proc/sys/kernel/cap_last_cap", buf, sizeof(buf)) > 0 ? atoi(buf) : 0;
	for (i = 0; i <= (unsigned)last && i < 64; i++)
		full[i / 32] |= 1u << (i % 32);
	signal(SIGPIPE, SIG_IGN);
	snprintf(dir, sizeof(dir), "/tmp/userns.XXXXXX");
	if (!mkdtemp(dir) || chmod(dir, 0777))
		return 1;
	in_child(root_ns);
	in_child(unpriv);
	in_child(clones);
	limits();
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		in_dir(path, sizeof(path), names[i]);
		unlink(path);
	}
	check(rmdir(dir) == 0, "the directory is removed");
	return 0;
}
