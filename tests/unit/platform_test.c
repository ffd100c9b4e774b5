/* tests/unit/platform_test.c: the host-support interface (platform/platform.h)
 * on one backend (PLATFORM_NAME, ptrace unless built otherwise), from the
 * kernel's side: address spaces hold nothing but the stub and what the
 * kernel maps, copies are copy-on-write, stubs are boxed, guest system calls
 * never reach the host, and a host call off a stub's allowlist kills the
 * stub. TAP output. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <sys/user.h>

#include "host/host.h"
#include "platform/platform.h"
#include "stub/stub.h"

#ifndef PLATFORM_NAME
#define PLATFORM_NAME "ptrace"
#endif

#define ANON_ADDR  0x10000000UL
#define FILE1_ADDR 0x11000000UL
#define FILE2_ADDR 0x12000000UL
#define FILE3_ADDR 0x13000000UL
#define CODE_ADDR  0x20000000UL
#define ANON_FLAGS (MAP_PRIVATE | MAP_ANONYMOUS)

static int passed, failed;

__attribute__((format(printf, 2, 3))) static void ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", passed + failed + 1);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (cond)
		passed++;
	else
		failed++;
}

struct range {
	uint64_t lo, hi;
};

/* The ranges of pid's maps outside the stub's pages, the host vDSO the
 * platform keeps (platform->vdso) and [vsyscall]. */
static int foreign_maps(int pid, struct range *r, int max)
{
	const struct pf_vdso *vd = platform->vdso ? platform->vdso() : NULL;
	char path[64], line[512];
	unsigned long long lo, hi;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx", &lo, &hi) != 2)
			continue;
		if ((lo >= STUB_BASE && hi <= STUB_END) || strstr(line, "[vsyscall]"))
			continue;
		if (vd && lo >= vd->base && hi <= vd->base + vd->size)
			continue;
		printf("# pid %d maps outside the stub: %s", pid, line);
		if (n < max)
			r[n] = (struct range){ lo, hi };
		n++;
	}
	fclose(f);
	return n;
}

/* Queues an anonymous map and flushes it. */
static int map_anon(struct pf_mm *mm, uint64_t addr, int prot)
{
	int ret = platform->mm_map(mm, addr, 4096, prot, ANON_FLAGS, -1, 0);

	return ret ? ret : platform->mm_flush(mm);
}

static bool reads(struct pf_mm *mm, uint64_t addr, const void *want, size_t n)
{
	char buf[4096];

	return platform->mm_read(mm, buf, addr, n) == (long)n && memcmp(buf, want, n) == 0;
}

static void test_maps(struct pf_mm *mm)
{
	int pid = platform->mm_host_pid(mm), n;
	struct range r[4];

	n = foreign_maps(pid, r, 4);
	ok(n == 0, "a new stub maps only [STUB_BASE, STUB_END), the vDSO and [vsyscall] (%d more)",
	   n);
	if (getauxval(AT_SYSINFO_EHDR)) {
		const struct pf_vdso *vd = platform->vdso ? platform->vdso() : NULL;

		ok(vd && vd->size && vd->nparts >= 2 &&
			   reads(mm, vd->base + vd->ehdr_off, "\177ELF", 4),
		   "the host has a vDSO: the stub keeps it, an ELF image at base+ehdr_off");
	}
	ok(map_anon(mm, ANON_ADDR, PROT_READ | PROT_WRITE) == 0, "map an anonymous page");
	n = foreign_maps(pid, r, 4);
	ok(n == 1 && r[0].lo == ANON_ADDR && r[0].hi == ANON_ADDR + 4096,
	   "maps shows exactly the new page (%d ranges)", n);
}

static void test_memory(struct pf_mm *mm)
{
	char buf[16];
	long r;

	r = platform->mm_write(mm, ANON_ADDR, "hello, stub", 12);
	ok(r == 12, "mm_write: %ld", r);
	ok(reads(mm, ANON_ADDR, "hello, stub", 12), "mm_read reads it back");
	r = platform->mm_read(mm, buf, 0x30000000, sizeof(buf));
	ok(r == -EFAULT, "mm_read of an unmapped address: %ld", r);
	r = platform->mm_read(mm, buf, ANON_ADDR + 4096 - 4, 8);
	ok(r == 4, "mm_read across the end of a mapping is short: %ld", r);
}

static struct pf_mm *test_copy(struct pf_mm *mm)
{
	struct pf_mm *copy = NULL;
	int ret = platform->mm_copy(mm, &copy);
	struct range r[2];

	ok(ret == 0 && copy, "mm_copy: %d", ret);
	if (ret)
		return NULL;
	ok(platform->mm_host_pid(copy) > 0 &&
		   platform->mm_host_pid(copy) != platform->mm_host_pid(mm),
	   "the copy has its own host pid (%d, %d)", platform->mm_host_pid(copy),
	   platform->mm_host_pid(mm));
	ok(foreign_maps(platform->mm_host_pid(copy), r, 2) == 1 && r[0].lo == ANON_ADDR,
	   "the copy maps the same page");
	ok(reads(copy, ANON_ADDR, "hello, stub", 12), "the copy sees the original's bytes");
	ok(platform->mm_write(copy, ANON_ADDR, "COPY!", 5) == 5, "write to the copy");
	ok(reads(copy, ANON_ADDR, "COPY!, stub", 12), "the copy reads its own bytes");
	ok(reads(mm, ANON_ADDR, "hello, stub", 12), "the original still reads the old bytes");
	return copy;
}

static void test_protect_unmap(struct pf_mm *mm)
{
	int ret = platform->mm_protect(mm, ANON_ADDR, 4096, PROT_READ);
	long r;

	ok(ret == 0 && platform->mm_flush(mm) == 0, "mm_protect PROT_READ");
	r = platform->mm_write(mm, ANON_ADDR, "x", 1);
	ok(r == -EFAULT, "mm_write to a read-only page fails: %ld", r);
	ok(reads(mm, ANON_ADDR, "hello, stub", 12), "the read-only page still reads");
	ret = platform->mm_unmap(mm, ANON_ADDR, 4096);
	ok(ret == 0 && platform->mm_flush(mm) == 0, "mm_unmap");
	r = platform->mm_read(mm, &ret, ANON_ADDR, 1);
	ok(r == -EFAULT, "mm_read after unmap fails: %ld", r);
}

/* A temporary file of one page: byte i is seed + i % 61. */
static int temp_file(char seed, char *page)
{
	char path[] = "/tmp/skas-platform-test-XXXXXX";
	int fd = mkstemp(path), i;

	if (fd < 0)
		return -1;
	unlink(path);
	for (i = 0; i < 4096; i++)
		page[i] = (char)(seed + i % 61);
	if (write(fd, page, 4096) != 4096) {
		close(fd);
		return -1;
	}
	return fd;
}

static void test_files(struct pf_mm *mm)
{
	static char page1[4096], page2[4096];
	int fd1 = temp_file('A', page1), fd2 = temp_file('a', page2), dir, ret;

	ok(fd1 >= 0 && fd2 >= 0, "two temp files");
	ret = platform->mm_map(mm, FILE1_ADDR, 4096, PROT_READ, MAP_PRIVATE, fd1, 0);
	ret = ret ? ret : platform->mm_map(mm, FILE2_ADDR, 4096, PROT_READ, MAP_PRIVATE, fd2, 0);
	close(fd2); /* the platform holds its own reference until the flush */
	ret = ret ? ret : platform->mm_flush(mm);
	ok(ret == 0, "map two files in one batch: %d", ret);
	ok(reads(mm, FILE1_ADDR, page1, 4096), "the first file's bytes");
	ok(reads(mm, FILE2_ADDR, page2, 4096), "the second file's bytes");

	dir = open("/", O_RDONLY | O_DIRECTORY);
	ret = platform->mm_map(mm, FILE3_ADDR, 4096, PROT_READ, MAP_PRIVATE, dir, 0);
	close(dir);
	ok(ret == 0, "mm_map of a directory queues: %d", ret);
	ret = platform->mm_flush(mm);
	ok(ret == -ENODEV, "... and fails at flush with ENODEV: %d", ret);
	ret = platform->mm_map(mm, FILE3_ADDR, 4096, PROT_READ, MAP_PRIVATE, fd1, 0);
	ret = ret ? ret : platform->mm_flush(mm);
	ok(ret == 0 && reads(mm, FILE3_ADDR, page1, 4096),
	   "a file map after the failure works (fd slot reused): %d", ret);
	close(fd1);
}

/* Only fd 0, a socket, is open in the stub. */
static bool sigsys; /* the sigsys backend: its stubs also hold an eventfd */

static void test_fds(struct pf_mm *mm, const char *what)
{
	char path[64], link[64] = "";
	int pid = platform->mm_host_pid(mm), n = 0;
	struct dirent *de;
	bool only0 = true;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		/* sigsys: fd 2 is the kernel's eventfd, for good */
		if (sigsys && strcmp(de->d_name, "2") == 0) {
			char l2[64] = "";

			snprintf(path, sizeof(path), "/proc/%d/fd/2", pid);
			if (readlink(path, l2, sizeof(l2) - 1) < 0 ||
			    strcmp(l2, "anon_inode:[eventfd]") != 0) {
				printf("# %s: fd 2 is %s, not the eventfd\n", what, l2);
				only0 = false;
			}
			continue;
		}
		n++;
		if (strcmp(de->d_name, "0") != 0) {
			printf("# %s: fd %s is open\n", what, de->d_name);
			only0 = false;
		}
	}
	if (d)
		closedir(d);
	snprintf(path, sizeof(path), "/proc/%d/fd/0", pid);
	if (readlink(path, link, sizeof(link) - 1) < 0)
		link[0] = 0;
	ok(d && n == 1 && only0 && strncmp(link, "socket:", 7) == 0,
	   "%s: only fd 0 is open, a socket%s (%d fds, fd 0 -> %s)", what,
	   sigsys ? ", and the eventfd" : "", n, link);
}

static void test_boxed(struct pf_mm *mm, const char *what)
{
	char path[64], buf[4096];
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/status", platform->mm_host_pid(mm));
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = 0;
	ok(strstr(buf, "\nSeccomp:\t2\n") != NULL, "%s: Seccomp: 2 (filter)", what);
	ok(strstr(buf, "\nNoNewPrivs:\t1\n") != NULL, "%s: NoNewPrivs: 1", what);
}

static struct {
	int n;
	void *owner;
	struct pf_event ev;
} got;

static void on_event(void *owner, const struct pf_event *ev)
{
	got.n++;
	got.owner = owner;
	got.ev = *ev;
}

/* Blocks in platform->wait until an event for a known thread arrives. */
static bool wait_event(void)
{
	got.n = 0;
	alarm(5); /* a hang is a failure, not a stuck test run */
	while (got.n == 0)
		if (platform->wait(on_event) < 0)
			break;
	alarm(0);
	return got.n > 0;
}

static int owner_token;

static struct pf_thread *test_thread(struct pf_mm *mm)
{
	struct pf_thread *th = NULL;
	struct pf_regs regs;
	int ret = platform->thread_new(mm, &owner_token, &th);

	ok(ret == 0 && th, "thread_new: %d", ret);
	if (ret)
		return NULL;
	ret = platform->get_regs(th, &regs);
	ok(ret == 0 && regs.rip >= STUB_CODE && regs.rip < STUB_CODE + 4096,
	   "get_regs: rip %#llx in the stub's code page", (unsigned long long)regs.rip);
	return th;
}

/* getpid by a guest thread traps to the kernel; the host never sees it. */
static void test_sysemu(struct pf_mm *mm, struct pf_thread *th)
{
	static const unsigned char code[] = { 0xb8, 39, 0, 0, 0, 0x0f, 0x05, 0xcc };
	struct pf_regs regs;
	int ret;

	ok(map_anon(mm, CODE_ADDR, PROT_READ | PROT_WRITE | PROT_EXEC) == 0 &&
		   platform->mm_write(mm, CODE_ADDR, code, sizeof(code)) == sizeof(code),
	   "map and write `mov $39,%%eax; syscall; int3`");
	platform->get_regs(th, &regs);
	regs.rip = CODE_ADDR;
	platform->set_regs(th, &regs);
	ret = platform->resume(th);
	ok(ret == 0 && wait_event(), "resume: %d, an event arrives", ret);
	ok(got.owner == &owner_token && got.ev.kind == PF_EV_SYSCALL && got.ev.nr == 39 &&
		   got.ev.ip == CODE_ADDR + 7,
	   "PF_EV_SYSCALL nr %llu ip %#llx (kind %d)", (unsigned long long)got.ev.nr,
	   (unsigned long long)got.ev.ip, got.ev.kind);
	ret = platform->get_regs(th, &regs);
	ok(ret == 0 && regs.orig_rax == 39 && (long)regs.rax == -ENOSYS,
	   "the host skipped the call: orig_rax %lld, rax %lld", (long long)regs.orig_rax,
	   (long long)regs.rax);
	platform->set_result(th, 4242);
	ok(platform->resume(th) == 0 && wait_event(), "resume with a result");
	ok(got.ev.kind == PF_EV_FAULT && got.ev.signo == SIGTRAP,
	   "int3 is PF_EV_FAULT SIGTRAP (kind %d signo %d)", got.ev.kind, got.ev.signo);
	ret = platform->get_regs(th, &regs);
	ok(ret == 0 && regs.rax == 4242 && regs.rip == CODE_ADDR + 8,
	   "the guest saw the kernel's result: rax %lld", (long long)regs.rax);
}

/* Reaps (through poll) until pid is gone, up to 2 s. */
static bool gone(int pid)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < 200; i++) {
		platform->poll(on_event);
		if (kill(pid, 0) < 0 && errno == ESRCH)
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

/* A stub thread makes a real host call (raw ptrace, past the interface):
 * the seccomp allowlist kills its stub, and only that one. Under ptrace the
 * guest thread runs it (no SYSEMU); under seccomp and sigsys the guest
 * thread's own filter would trap it (and under sigsys it is not traced), so
 * the control thread does (its allowlist stops it in ptrace, and the kernel
 * kills the stub). */
static void test_forbidden(struct pf_mm *mm, struct pf_thread *th, struct pf_mm *other)
{
	int pid = platform->mm_host_pid(mm), tid = -1;
	struct user_regs_struct regs;
	char path[64], buf[16];
	struct dirent *de;
	bool died;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.' && atoi(de->d_name) != pid)
			tid = atoi(de->d_name);
	if (d)
		closedir(d);
	if (strcmp(platform->name, "ptrace") != 0) {
		int status;

		/* Between batches it may wait in its doorbell loop, running. */
		tid = pid;
		if (ptrace(PTRACE_GETREGS, tid, 0, &regs) < 0 &&
		    ptrace(PTRACE_INTERRUPT, tid, 0, 0) == 0)
			waitpid(tid, &status, __WALL);
	}
	ok(tid > 0 && ptrace(PTRACE_GETREGS, tid, 0, &regs) == 0, "the %s thread's tid %d",
	   tid == pid ? "control" : "guest", tid);
	regs.rip = CODE_ADDR;
	regs.orig_rax = (unsigned long long)-1; /* no restart of a futex wait */
	ok(ptrace(PTRACE_SETREGS, tid, 0, &regs) == 0 && ptrace(PTRACE_CONT, tid, 0, 0) == 0,
	   "run getpid for real (PTRACE_CONT)");
	died = wait_event();
	ok(died && got.owner == &owner_token && got.ev.kind == PF_EV_GONE,
	   "the thread is PF_EV_GONE (kind %d)", got.ev.kind);
	ok(gone(pid), "the whole stub %d is gone", pid);
	ok(platform->mm_read(mm, buf, CODE_ADDR, 1) == -EFAULT, "mm_read of it: -EFAULT");
	ok(platform->mm_unmap(mm, CODE_ADDR, 4096) == 0 && platform->mm_flush(mm) == -ESRCH,
	   "mm_flush of it: -ESRCH");
	ok(kill(platform->mm_host_pid(other), 0) == 0 && reads(other, ANON_ADDR, "COPY!", 5),
	   "another stub lives on");
	platform->thread_put(th);
}

/* An exec's recycle: every mapping but the vDSO's goes, and the stub goes
 * on taking batches. */
static void test_recycle(struct pf_mm *mm)
{
	const struct pf_vdso *vd = platform->vdso ? platform->vdso() : NULL;
	int pid = platform->mm_host_pid(mm), n, ret;
	struct range r[4];

	ret = map_anon(mm, ANON_ADDR + 8 * 4096, PROT_READ | PROT_WRITE);
	ok(ret == 0 && foreign_maps(pid, r, 4) > 0, "recycle: the stub maps guest pages (%d)", ret);
	ret = platform->mm_recycle(mm, vd ? vd->base : 0, vd ? vd->size : 0);
	if (ret == 0)
		ret = platform->mm_flush(mm);
	n = foreign_maps(pid, r, 4);
	ok(ret == 0 && n == 0, "recycle: nothing left but the stub and the vDSO (%d, %d more)", ret,
	   n);
	if (vd)
		ok(reads(mm, vd->base + vd->ehdr_off, "\177ELF", 4), "recycle: the vDSO stays");
	ok(map_anon(mm, ANON_ADDR, PROT_READ | PROT_WRITE) == 0 && foreign_maps(pid, r, 4) == 1,
	   "recycle: the stub maps again");
}

static void test_put(struct pf_mm *mm, const char *what)
{
	int pid = platform->mm_host_pid(mm);

	platform->mm_put(mm);
	ok(gone(pid), "%s: mm_put kills stub %d", what, pid);
}

int main(void)
{
	struct pf_mm *mm = NULL, *copy, *fresh = NULL;
	struct pf_thread *th;
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	platform_select(PLATFORM_NAME);
	sigsys = strcmp(PLATFORM_NAME, "sigsys") == 0;
	if (platform->probe && platform->probe() < 0) {
		printf("# %s: the host lacks what it needs, skipped\n", platform->name);
		printf("0 passed, 0 failed\n");
		return 0;
	}
	ret = host_evloop_init();
	if (ret == 0)
		ret = platform->init();
	ok(ret == 0, "%s: init: %d", platform->name, ret);
	if (ret == 0)
		ret = platform->mm_new(&mm);
	ok(ret == 0 && mm && platform->mm_host_pid(mm) > 0, "mm_new: %d, host pid %d", ret,
	   mm ? platform->mm_host_pid(mm) : -1);
	if (ret || !mm)
		goto out;
	test_maps(mm);
	test_memory(mm);
	copy = test_copy(mm);
	test_protect_unmap(mm);
	test_files(mm);
	test_fds(mm, "stub after file maps");
	test_boxed(mm, "stub");
	if (copy) {
		test_fds(copy, "copy");
		test_boxed(copy, "copy");
	}
	th = test_thread(mm);
	if (th && copy) {
		test_sysemu(mm, th);
		test_forbidden(mm, th, copy);
	}
	platform->mm_put(mm);
	if (copy) {
		test_recycle(copy);
		test_put(copy, "copy");
	}
	ret = platform->mm_new(&fresh);
	ok(ret == 0, "mm_new after all that: %d", ret);
	if (ret == 0)
		test_put(fresh, "fresh");
out:
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
