/* host/host.c: host files, time, randomness and process-level calls for the
 * kernel. Each wrapper returns -errno on failure and retries EINTR. */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/rseq.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/xattr.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <linux/openat2.h>

#include "host/host.h"
#include "abi/linux/stat.h"
#include "abi/linux/types.h"

#define RETRY(expr)                               \
	({                                        \
		long _r;                          \
		do                                \
			_r = (long)(expr);        \
		while (_r < 0 && errno == EINTR); \
		_r < 0 ? -errno : _r;             \
	})

_Static_assert(sizeof(struct stat) == sizeof(struct linux_stat), "host stat is the kernel's");

int host_open_root(const char *path)
{
	return RETRY(open(path, O_PATH | O_DIRECTORY | O_CLOEXEC));
}

int host_openat_in_root(int root_fd, const char *path, int flags, int mode)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC | O_NOCTTY),
		.mode = (flags & (O_CREAT | __O_TMPFILE)) ? (uint64_t)mode : 0,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};

	if (flags & O_PATH)
		how.flags &= O_PATH | O_CLOEXEC | O_DIRECTORY | O_NOFOLLOW;
	while (*path == '/')
		path++;
	if (!*path)
		path = ".";
	return RETRY(syscall(SYS_openat2, root_fd, path, &how, sizeof(how)));
}

int host_lookup_at(int dir_fd, const char *name)
{
	return RETRY(openat(dir_fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC));
}

int host_stat_at(int dir_fd, const char *name, struct linux_stat *st)
{
	return RETRY(fstatat(dir_fd, name, (struct stat *)st, AT_SYMLINK_NOFOLLOW));
}

/* The kernel's /proc/self/fd, opened once: a call on fd N through it
 * looks up one name ("N") instead of four components (a reopen: 3.5 µs
 * instead of 4.7 here). Opened at first use, by the kernel process (the
 * zygote execs its stub before it uses any of this). dir_fd and name for
 * fd; the full path if the directory cannot be opened. */
static int fd_at(int fd, char *name, size_t n)
{
	static int dir = -2;

	if (dir == -2)
		dir = open("/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0) {
		snprintf(name, n, "/proc/self/fd/%d", fd);
		return AT_FDCWD;
	}
	snprintf(name, n, "%d", fd);
	return dir;
}

int host_reopen(int path_fd, unsigned flags)
{
	char p[64];
	int dir = fd_at(path_fd, p, sizeof(p));

	flags &= ~(unsigned)(O_CREAT | O_EXCL | O_TRUNC | O_NOFOLLOW);
	return RETRY(openat(dir, p, (int)flags | O_CLOEXEC | O_NOCTTY));
}

int host_getflags(int path_fd, uint32_t *flags)
{
	int fd = host_reopen(path_fd, O_RDONLY | O_NONBLOCK), ret;
	unsigned f = 0;

	if (fd < 0)
		return fd;
	ret = ioctl(fd, FS_IOC_GETFLAGS, &f) < 0 ? -errno : 0;
	close(fd);
	*flags = f;
	return ret;
}

int host_create_at(int dir_fd, const char *name, unsigned mode)
{
	return RETRY(
		openat(dir_fd, name, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, mode));
}

int host_tmpfile_at(int dir_fd, unsigned mode, bool excl)
{
	return RETRY(
		openat(dir_fd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC | (excl ? O_EXCL : 0), mode));
}

int host_mkdir_at(int dir_fd, const char *name, unsigned mode)
{
	return RETRY(mkdirat(dir_fd, name, mode));
}

int host_mknod_at(int dir_fd, const char *name, unsigned mode, uint64_t dev)
{
	return RETRY(mknodat(dir_fd, name, mode, dev));
}

int host_symlink_at(const char *target, int dir_fd, const char *name)
{
	return RETRY(symlinkat(target, dir_fd, name));
}

int host_link_at(int old_fd, int dir_fd, const char *name)
{
	char p[64];
	int dir = fd_at(old_fd, p, sizeof(p));

	return RETRY(linkat(dir, p, dir_fd, name, AT_SYMLINK_FOLLOW));
}

int host_unlink_at(int dir_fd, const char *name, bool is_dir)
{
	return RETRY(unlinkat(dir_fd, name, is_dir ? AT_REMOVEDIR : 0));
}

int host_rename_at(int odir_fd, const char *oname, int ndir_fd, const char *nname, unsigned flags)
{
	return RETRY(syscall(SYS_renameat2, odir_fd, oname, ndir_fd, nname, flags));
}

int host_chmod_fd(int path_fd, unsigned mode)
{
	char p[64];
	int dir = fd_at(path_fd, p, sizeof(p));

	return RETRY(fchmodat(dir, p, mode, 0));
}

int host_chown_fd(int path_fd, uint32_t uid, uint32_t gid)
{
	return RETRY(fchownat(path_fd, "", uid, gid, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW));
}

int host_truncate_fd(int path_fd, uint64_t size)
{
	char p[64];

	snprintf(p, sizeof(p), "/proc/self/fd/%d", path_fd);
	return RETRY(truncate(p, (off_t)size));
}

int host_utimens_fd(int path_fd, const struct linux_timespec *ts)
{
	char p[64];
	int dir = fd_at(path_fd, p, sizeof(p));

	return RETRY(utimensat(dir, p, (const struct timespec *)ts, 0));
}

long host_readlink_fd(int path_fd, char *buf, size_t n)
{
	return RETRY(readlinkat(path_fd, "", buf, n));
}

long host_pwrite(int fd, const void *buf, size_t n, int64_t off)
{
	return RETRY(pwrite(fd, buf, n, off));
}

int host_ftruncate(int fd, uint64_t size)
{
	return RETRY(ftruncate(fd, (off_t)size));
}

int host_fallocate(int fd, int mode, int64_t off, int64_t len)
{
	return RETRY(fallocate(fd, mode, (off_t)off, (off_t)len));
}

int host_fstatfs(int fd, struct linux_statfs *st)
{
	_Static_assert(sizeof(struct statfs) == sizeof(struct linux_statfs), "statfs");
	return RETRY(fstatfs(fd, (struct statfs *)st));
}

int host_memfd(const char *name)
{
	return RETRY(memfd_create(name, MFD_CLOEXEC));
}

/* The xattr calls of an O_PATH fd go through its /proc/self/fd link,
 * followed (the l* calls would name the link itself: EOPNOTSUPP for
 * every file); a symlink's own (link true) cannot be reached so. */
long host_fsetxattr(int fd, bool link, const char *name, const void *val, size_t n, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return link ? -EOPNOTSUPP : RETRY(setxattr(path, name, val, n, flags));
}

long host_fremovexattr(int fd, bool link, const char *name)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return link ? -EOPNOTSUPP : RETRY(removexattr(path, name));
}

int host_close(int fd)
{
	return close(fd) < 0 && errno != EINTR ? -errno : 0;
}

int host_dup(int fd)
{
	return RETRY(fcntl(fd, F_DUPFD_CLOEXEC, 3));
}

char *host_realpath(const char *path)
{
	return realpath(path, NULL);
}

char *host_fd_path(int fd)
{
	char link[64], *buf = malloc(4097);
	ssize_t n;

	if (!buf)
		return NULL;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, 4096);
	if (n <= 0) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	return buf;
}

long host_read(int fd, void *buf, size_t n)
{
	return RETRY(read(fd, buf, n));
}

long host_write(int fd, const void *buf, size_t n)
{
	return RETRY(write(fd, buf, n));
}

long host_recv_nowait(int fd, void *buf, size_t n)
{
	struct iovec iov = { .iov_base = buf, .iov_len = n };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };

	return RETRY(recvmsg(fd, &m, MSG_DONTWAIT));
}

long host_send_nowait(int fd, const void *buf, size_t n)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = n };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };

	return RETRY(sendmsg(fd, &m, MSG_DONTWAIT | MSG_NOSIGNAL));
}

long host_read_nowait(int fd, void *buf, size_t n)
{
	struct iovec iov = { .iov_base = buf, .iov_len = n };

	return RETRY(preadv2(fd, &iov, 1, -1, RWF_NOWAIT));
}

long host_write_nowait(int fd, const void *buf, size_t n)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = n };

	return RETRY(pwritev2(fd, &iov, 1, -1, RWF_NOWAIT));
}

long host_pread(int fd, void *buf, size_t n, int64_t off)
{
	return RETRY(pread(fd, buf, n, off));
}

long host_lseek(int fd, int64_t off, int whence)
{
	return RETRY(lseek(fd, off, whence));
}

int host_fstat(int fd, struct linux_stat *st)
{
	return RETRY(fstat(fd, (struct stat *)st));
}

int host_statx(int fd, unsigned mask, struct linux_statx *stx)
{
	return RETRY(syscall(SYS_statx, fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, mask, stx));
}

long host_getdents64(int fd, void *buf, size_t n)
{
	return RETRY(syscall(SYS_getdents64, fd, buf, n));
}

long host_readlinkat_in_root(int root_fd, const char *path, char *buf, size_t n)
{
	int fd = host_openat_in_root(root_fd, path, O_PATH | O_NOFOLLOW, 0);
	long r;

	if (fd < 0)
		return fd;
	r = RETRY(readlinkat(fd, "", buf, n));
	close(fd);
	return r;
}

long host_fgetxattr(int fd, bool link, const char *name, void *buf, size_t n)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return link ? -ENODATA : RETRY(getxattr(path, name, buf, n));
}

long host_flistxattr(int fd, bool link, char *buf, size_t n)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return link ? 0 : RETRY(listxattr(path, buf, n));
}

int host_fd_allowed(int fd, bool *io_ok, bool *writable_dev)
{
	struct statfs sfs;
	struct stat st;

	*io_ok = true;
	*writable_dev = false;
	if (fstatfs(fd, &sfs) < 0 || fstat(fd, &st) < 0)
		return -errno;
	switch (sfs.f_type) {
	case PROC_SUPER_MAGIC:
	case SYSFS_MAGIC:
	case DEBUGFS_MAGIC:
	case TRACEFS_MAGIC:
	case SECURITYFS_MAGIC:
	case CGROUP_SUPER_MAGIC:
	case CGROUP2_SUPER_MAGIC:
	case DEVPTS_SUPER_MAGIC:
	case BPF_FS_MAGIC:
		return -ENOENT;
	}
	if (S_ISBLK(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISFIFO(st.st_mode)) {
		*io_ok = false;
	} else if (S_ISCHR(st.st_mode)) {
		/* the mem driver: 1,3 null; 1,5 zero; 1,8 random; 1,9 urandom */
		unsigned mi = minor(st.st_rdev);

		*io_ok = major(st.st_rdev) == 1 && (mi == 3 || mi == 5 || mi == 8 || mi == 9);
		*writable_dev = *io_ok && (mi == 3 || mi == 5);
	}
	return 0;
}

bool host_fd_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) > 0;
}

int host_dup_stdio(int fd)
{
	return RETRY(fcntl(fd, F_DUPFD_CLOEXEC, 3));
}

unsigned host_fd_flags(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? 0 : (unsigned)fl & (O_ACCMODE | O_APPEND | O_NONBLOCK);
}

int host_fd_set_append(int fd, bool on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -errno;
	fl = on ? fl | O_APPEND : fl & ~O_APPEND;
	return fcntl(fd, F_SETFL, fl) < 0 ? -errno : 0;
}

unsigned host_fd_poll(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };

	if (poll(&p, 1, 0) <= 0)
		return 0;
	return (unsigned)p.revents & (POLLIN | POLLOUT | POLLHUP | POLLERR | POLLPRI);
}

bool host_fd_is_tty(int fd)
{
	return isatty(fd);
}

int host_ioctl_tty(int fd, unsigned long cmd, void *arg, size_t size)
{
	(void)size;
	return RETRY(ioctl(fd, cmd, arg));
}

int64_t host_clock_ns(int clock_id)
{
	struct timespec ts;

	if (clock_gettime(clock_id, &ts) < 0)
		return -errno;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int host_clock_res_ns(int clock_id, int64_t *res)
{
	struct timespec ts;

	if (clock_getres(clock_id, &ts) < 0)
		return -errno;
	*res = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	return 0;
}

int host_getrandom(void *buf, size_t n)
{
	size_t done = 0;

	while (done < n) {
		long r = RETRY(getrandom((char *)buf + done, n - done, 0));

		if (r < 0)
			return (int)r;
		done += r;
	}
	return 0;
}

int host_membarrier(int cmd)
{
	return (int)RETRY(syscall(SYS_membarrier, cmd, 0, 0));
}

int host_uname(struct linux_utsname *u)
{
	struct utsname h;

	_Static_assert(sizeof(h.sysname) == sizeof(u->sysname), "utsname");
	if (uname(&h) < 0)
		return -errno;
	memcpy(u->sysname, h.sysname, sizeof(u->sysname));
	memcpy(u->nodename, h.nodename, sizeof(u->nodename));
	memcpy(u->release, h.release, sizeof(u->release));
	memcpy(u->version, h.version, sizeof(u->version));
	memcpy(u->machine, h.machine, sizeof(u->machine));
	memcpy(u->domainname, h.domainname, sizeof(u->domainname));
	return 0;
}

int host_fd_mincore(int fd, uint64_t off, size_t npages, unsigned char *vec)
{
	size_t len = npages * 4096, i;
	unsigned char *got;
	void *p;
	int ret = 0;

	if (!npages)
		return 0;
	got = malloc(npages);
	if (!got)
		return -ENOMEM;
	p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, (off_t)off);
	if (p == MAP_FAILED) {
		ret = -errno;
		goto out;
	}
	if (mincore(p, len, got) < 0)
		ret = -errno;
	munmap(p, len);
	for (i = 0; ret == 0 && i < npages; i++)
		vec[i] |= got[i] & 1;
out:
	free(got);
	return ret;
}

int host_meminfo(uint64_t *total, uint64_t *free, uint64_t *shared, uint64_t *buffers)
{
	struct sysinfo si;

	if (sysinfo(&si) < 0)
		return -errno;
	*total = (uint64_t)si.totalram * si.mem_unit;
	*free = (uint64_t)si.freeram * si.mem_unit;
	*shared = (uint64_t)si.sharedram * si.mem_unit;
	*buffers = (uint64_t)si.bufferram * si.mem_unit;
	return 0;
}

/* AT_HWCAP and AT_HWCAP2 as the host gave them: glibc's getauxval
 * answers those two with its own view (on x86-64, AT_HWCAP is its platform
 * bits, 2, not CPUID 1's EDX), so they are read from /proc/self/auxv once
 * (host_init, before the sandbox). */
static unsigned long raw_hwcap[2];
static bool raw_hwcap_read;

static void read_raw_hwcap(void)
{
	unsigned long v[128];
	ssize_t n;
	int fd = open("/proc/self/auxv", O_RDONLY | O_CLOEXEC);
	size_t i;

	if (fd < 0)
		return;
	n = read(fd, v, sizeof(v));
	close(fd);
	for (i = 0; n > 0 && i + 1 < (size_t)n / sizeof(v[0]); i += 2) {
		if (v[i] == AT_HWCAP)
			raw_hwcap[0] = v[i + 1];
		else if (v[i] == AT_HWCAP2)
			raw_hwcap[1] = v[i + 1];
	}
	raw_hwcap_read = true;
}

static const int xcomp_codes[3] = { 0x1021, 0x1022, 0x1024 };
static uint64_t xcomp_v[3];
static int xcomp_err[3];

/* Read at start: the sandbox does not let arch_prctl through. */
static void read_xcomp(void)
{
	int i;

	for (i = 0; i < 3; i++)
		if (syscall(SYS_arch_prctl, xcomp_codes[i], &xcomp_v[i]) < 0)
			xcomp_err[i] = -errno;
}

int host_xcomp(int code, uint64_t *v)
{
	int i;

	for (i = 0; i < 3; i++) {
		if (xcomp_codes[i] != code)
			continue;
		if (xcomp_err[i])
			return xcomp_err[i];
		*v = xcomp_v[i];
		return 0;
	}
	return -EINVAL;
}

/* The host's /sys/devices/system/cpu/vulnerabilities: guest code runs on
 * the host's CPUs under the host kernel's mitigations, so the host's
 * answers are the guest's. Read once (host_init, before the sandbox: a
 * sysfs the guest mounts later is made from the same copy), each file's
 * name and text, in the host's directory order. */
#define HOST_VULNS_MAX 64
static struct {
	char *name, *text;
} host_vulns[HOST_VULNS_MAX];
static int host_nvulns;

static char *read_small_file(int dir_fd, const char *name)
{
	char buf[4096];
	long n, got = 0;
	int fd = openat(dir_fd, name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	while (got < (long)sizeof(buf) - 1) {
		n = RETRY(read(fd, buf + got, sizeof(buf) - 1 - (size_t)got));
		if (n <= 0)
			break;
		got += n;
	}
	close(fd);
	buf[got] = 0;
	return got > 0 ? strdup(buf) : NULL;
}

static void read_cpu_vulns(void)
{
	DIR *d = opendir("/sys/devices/system/cpu/vulnerabilities");
	struct dirent *e;

	if (!d)
		return;
	while (host_nvulns < HOST_VULNS_MAX && (e = readdir(d))) {
		char *text;

		if (e->d_type != DT_REG)
			continue;
		text = read_small_file(dirfd(d), e->d_name);
		if (!text)
			continue;
		host_vulns[host_nvulns].name = strdup(e->d_name);
		if (!host_vulns[host_nvulns].name) {
			free(text);
			break;
		}
		host_vulns[host_nvulns++].text = text;
	}
	closedir(d);
}

const char *host_cpu_vuln(int i, const char **text)
{
	if (i < 0 || i >= host_nvulns)
		return NULL;
	*text = host_vulns[i].text;
	return host_vulns[i].name;
}

unsigned long host_auxv(unsigned long type)
{
	if (raw_hwcap_read && (type == AT_HWCAP || type == AT_HWCAP2))
		return raw_hwcap[type == AT_HWCAP2];
	return getauxval(type);
}

/* Where the symbol named in ehdr's image of size bytes starts, by its
 * section headers: 0 if none is found, or it would lie outside. */
static uint64_t vdso_symbol(const unsigned char *img, size_t size, const char *name, size_t *fsize)
{
	const Elf64_Ehdr *eh = (const void *)img;
	const Elf64_Shdr *sh;
	size_t i, j;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_shentsize != sizeof(*sh) || eh->e_shoff > size ||
	    eh->e_shnum > (size - eh->e_shoff) / sizeof(*sh))
		return 0;
	sh = (const void *)(img + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *str;
		const Elf64_Sym *sym;

		if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= eh->e_shnum ||
		    sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset)
			continue;
		str = &sh[sh[i].sh_link];
		if (str->sh_offset > size || str->sh_size > size - str->sh_offset || !str->sh_size)
			continue;
		sym = (const void *)(img + sh[i].sh_offset);
		for (j = 0; j < sh[i].sh_size / sizeof(*sym); j++) {
			const char *nm = (const char *)img + str->sh_offset + sym[j].st_name;

			if (sym[j].st_name >= str->sh_size ||
			    ELF64_ST_TYPE(sym[j].st_info) != STT_FUNC ||
			    strnlen(nm, str->sh_size - sym[j].st_name) ==
				    str->sh_size - sym[j].st_name ||
			    strcmp(nm, name) || sym[j].st_value >= size ||
			    sym[j].st_size > size - sym[j].st_value)
				continue;
			*fsize = sym[j].st_size;
			return sym[j].st_value;
		}
	}
	return 0;
}

const void *host_vdso_clock_syscall(size_t len)
{
	/* endbr64 (kept: a caller may check it), mov $228, %eax (clock_gettime),
	 * syscall, ret */
	static const unsigned char endbr[] = { 0xf3, 0x0f, 0x1e, 0xfa },
				   call[] = { 0xb8, 228, 0, 0, 0, 0x0f, 0x05, 0xc3 };
	static unsigned char *img;
	static size_t img_len;
	const unsigned char *host = (const void *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const void *)host;
	const char *names[] = { "__vdso_clock_gettime", "clock_gettime" };
	size_t i, fsize, done = 0, file;

	if (img)
		return img_len == len ? img : NULL;
	/* The image is the file up to its section headers, which end it;
	 * the rest of the mapping is zeros. */
	if (!host || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_shentsize != sizeof(Elf64_Shdr))
		return NULL;
	file = eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr);
	if (file > len)
		return NULL;
	img = calloc(1, len);
	if (!img)
		return NULL;
	img_len = len;
	memcpy(img, host, file);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		uint64_t at = vdso_symbol(img, len, names[i], &fsize);

		if (!at)
			continue;
		if (fsize >= sizeof(endbr) + sizeof(call) &&
		    !memcmp(img + at, endbr, sizeof(endbr))) {
			at += sizeof(endbr);
			fsize -= sizeof(endbr);
		}
		if (fsize < sizeof(call))
			continue;
		memcpy(img + at, call, sizeof(call));
		done++;
	}
	if (!done) {
		free(img);
		img = NULL;
		img_len = 0;
	}
	return img;
}

static int kernel_cpu = -1;
static cpu_set_t spill_set; /* the CPUs skas was given, less the kernel's */

#define CPU_PROBES	 8	/* CPUs timed at most, the one skas starts on first */
#define CPU_PROBE_ROUNDS 9	/* rounds per CPU; the median counts */
#define CPU_PROBE_SPINS	 4000	/* loop turns per round: ~1-2 us */
#define CPU_PROBE_MARGIN 8	/* another CPU must be 1/8 faster to be taken */
#define CPU_BUSY_NS	 200000 /* a yield that long: another task ran */

/* How long this CPU takes for a fixed loop: the median of a few rounds,
 * each short enough to fall between the host's interruptions; twice that
 * if another task is ready to run here (a sched_yield that gives the CPU
 * away for more than CPU_BUSY_NS): the kernel would get half of it. */
static int64_t cpu_probe(void)
{
	int64_t d[CPU_PROBE_ROUNDS], t;
	bool busy;
	int i, j, k;

	t = host_clock_ns(CLOCK_MONOTONIC);
	sched_yield();
	busy = host_clock_ns(CLOCK_MONOTONIC) - t > CPU_BUSY_NS;
	for (i = 0; i < CPU_PROBE_ROUNDS; i++) {
		t = host_clock_ns(CLOCK_MONOTONIC);
		for (k = 0; k < CPU_PROBE_SPINS; k++)
			__asm__ volatile("" ::: "memory");
		t = host_clock_ns(CLOCK_MONOTONIC) - t;
		for (j = i; j > 0 && d[j - 1] > t; j--)
			d[j] = d[j - 1];
		d[j] = t;
	}
	return d[CPU_PROBE_ROUNDS / 2] * (busy ? 2 : 1);
}

/* The CPU the kernel should keep: of the ones skas may use, the one that
 * would run a loop fastest now, counting another task ready there as half
 * its speed (skas instances side by side spread out). On a virtual machine
 * a vCPU whose host core is shared runs guest code 2-2.6x slower for tens
 * of seconds at a time (seen on these 2-vCPU machines, the other vCPU at
 * full speed), and everything skas runs shares the kernel's CPU. The CPU
 * skas starts on is kept unless another is clearly faster; at most
 * CPU_PROBES are tried (~0.1 ms each, a time slice more where busy). */
static int fastest_cpu(void)
{
	int start = sched_getcpu(), best = start, tried = 0, cpu, i;
	int64_t best_ns = INT64_MAX, ns;
	cpu_set_t allowed, one;

	if (start < 0 || sched_getaffinity(0, sizeof(allowed), &allowed) < 0 ||
	    CPU_COUNT(&allowed) < 2)
		return start;
	for (i = 0; i < CPU_SETSIZE && tried < CPU_PROBES; i++) {
		cpu = (start + i) % CPU_SETSIZE;
		if (!CPU_ISSET(cpu, &allowed))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one) < 0)
			continue;
		tried++;
		ns = cpu_probe();
		if (cpu == start)
			best_ns = ns;
		else if (ns < best_ns - best_ns / CPU_PROBE_MARGIN)
			best = cpu, best_ns = ns;
	}
	sched_setaffinity(0, sizeof(allowed), &allowed);
	return best;
}

/* Pins the kernel (and the stubs it starts, which inherit it) to one CPU,
 * the fastest when it first chooses: a trap that crosses cores costs
 * 34-130 us on these machines. */
int host_pin_cpu(void)
{
	cpu_set_t set;
	int cpu = kernel_cpu >= 0 ? kernel_cpu : fastest_cpu();

	if (cpu < 0)
		return -errno;
	if (kernel_cpu < 0) {
		if (sched_getaffinity(0, sizeof(spill_set), &spill_set) < 0)
			CPU_ZERO(&spill_set);
		CPU_CLR(cpu, &spill_set);
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return -errno;
	kernel_cpu = cpu;
	return cpu;
}

int host_unpin_cpu(void)
{
	cpu_set_t set = spill_set;

	if (kernel_cpu < 0)
		return -ENOSYS;
	CPU_SET(kernel_cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) < 0 ? -errno : 0;
}

int host_thread_spill(int tid, bool out)
{
	cpu_set_t set;

	if (kernel_cpu < 0 || CPU_COUNT(&spill_set) == 0)
		return -ENOSYS;
	if (out) {
		set = spill_set;
	} else {
		CPU_ZERO(&set);
		CPU_SET(kernel_cpu, &set);
	}
	return sched_setaffinity(tid, sizeof(set), &set) < 0 ? -errno : 0;
}

/* Host signals for the guest: skas passes these on instead of dying of
 * them (a signal skas was started with ignored stays ignored, as a shell
 * leaves SIGINT ignored for a background job). The handler only records
 * the signal; having no SA_RESTART it also ends the idle loop's blocking
 * wait (waitpid or epoll_wait) with EINTR, and the idle loop hands what was
 * recorded to the guest. One that lands between the idle loop's look and
 * its wait ends the wait before it begins (host_wake_window). */
static const int forwarded_signals[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2 };
static uint64_t host_sig_pending;

static void forward_handler(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	__atomic_fetch_or(&host_sig_pending, 1ULL << (sig - 1), __ATOMIC_RELAXED);
	host_wake_window(uc);
}

bool host_signals_pending(void)
{
	return __atomic_load_n(&host_sig_pending, __ATOMIC_RELAXED) != 0;
}

uint64_t host_signals_take(void)
{
	if (!__atomic_load_n(&host_sig_pending, __ATOMIC_RELAXED))
		return 0;
	return __atomic_exchange_n(&host_sig_pending, 0, __ATOMIC_RELAXED);
}

long host_raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 1024;
	if (rl.rlim_cur < rl.rlim_max) {
		rlim_t cur = rl.rlim_cur;

		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			rl.rlim_cur = cur;
	}
	return rl.rlim_cur > (1 << 30) ? 1 << 30 : (long)rl.rlim_cur;
}

int host_set_cpus(int first, int n)
{
	cpu_set_t set;
	int i, ncpus = host_ncpus();

	CPU_ZERO(&set);
	for (i = 0; i < n && i < ncpus; i++)
		CPU_SET((first + i) % ncpus, &set);
	return sched_setaffinity(0, sizeof(set), &set) < 0 ? -errno : 0;
}

int host_init(void)
{
	struct sigaction sa, old;
	size_t i;

	signal(SIGPIPE, SIG_IGN);
	host_cputime_init();
	read_raw_hwcap();
	read_xcomp();
	read_cpu_vulns();
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = forward_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(forwarded_signals) / sizeof(forwarded_signals[0]); i++) {
		if (sigaction(forwarded_signals[i], NULL, &old) < 0 || old.sa_handler == SIG_IGN)
			continue;
		if (sigaction(forwarded_signals[i], &sa, NULL) < 0)
			return -errno;
	}
	return 0;
}

int host_current_cpu(void)
{
	int cpu = sched_getcpu();

	return cpu < 0 ? 0 : cpu;
}

/* glibc registers every thread for restartable sequences, which the
 * kernel never uses; the host then refreshes the thread's rseq area on
 * each return to user mode after the thread slept or was preempted: the
 * kernel process sleeps once per guest call (1.2% of all samples of a
 * getppid loop were __rseq_handle_notify_resume in it). glibc reads the
 * area only in sched_getcpu, which falls back to the vDSO once the host
 * has marked it unregistered (cpu_id -1). */
int host_rseq_unregister(void)
{
	void *area;

	if (__rseq_size == 0)
		return -ENOENT;
	area = (char *)__builtin_thread_pointer() + __rseq_offset;
	/* The length must be the one registered, which can be more than
	 * __rseq_size says: Debian 12's glibc registers 32 bytes and says 20. */
	if (syscall(SYS_rseq, area, 32, RSEQ_FLAG_UNREGISTER, RSEQ_SIG) == 0 ||
	    syscall(SYS_rseq, area, __rseq_size, RSEQ_FLAG_UNREGISTER, RSEQ_SIG) == 0)
		return 0;
	return -errno;
}

int host_ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

static int log_fd = 2;

void host_log_write(const char *buf, size_t n)
{
	host_write_all(log_fd, buf, n);
}

void host_write_all(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t r = write(fd, buf, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return;
		buf += r;
		n -= r;
	}
}

int host_log_open_extra(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	return fd < 0 ? -errno : fd;
}

int host_log_open(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	log_fd = fd;
	return 0;
}

void host_exit(int status)
{
	exit(status);
}

void host_kill_self(int signo)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(signo, &sa, NULL);
	signal(SIGCHLD, SIG_DFL);
	raise(signo);
	exit(128 + signo);
}
