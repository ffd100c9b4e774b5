/* /proc/PID/mem: a process's memory at the file offset (skas had no such
 * file; gdb fell back to PEEKDATA): read and written at any address
 * (pread/pwrite, lseek then read/write), read-only memory written all
 * the same (FOLL_FORCE: a private copy), EIO where nothing is mapped, a
 * child's memory through its file, and nothing once it has exec'd. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#define TAP_FLUSH
#include "tap.h"

char value[32] = "original value";
const char rodata[32] = "read-only string";
static char big[8192];

/* Compared through a pointer the compiler cannot follow: it cannot know
 * what the writes through the file changed (it folds reads of a const
 * object even through a volatile pointer). */
static int same(const char *obj, const char *s, size_t len)
{
	const volatile char *p = obj;

	__asm__ volatile("" : "+r"(p));
	for (size_t i = 0; i < len; i++)
		if (p[i] != s[i])
			return 0;
	return 1;
}

int main(void)
{
	int fd = open("/proc/self/mem", O_RDWR), p2c[2], c2p[2], cfd, status;
	char buf[64] = "", path[64], c;
	char *hole;
	pid_t pid;

	check(fd >= 0, "open /proc/self/mem read-write");
	check(pread(fd, buf, 14, (off_t)(uintptr_t)value) == 14 &&
		      memcmp(buf, "original value", 14) == 0,
	      "pread at a variable's address: its bytes");
	check(pwrite(fd, "CHANGED!", 8, (off_t)(uintptr_t)value) == 8 &&
		      same(value, "CHANGED! value", 14),
	      "pwrite there changes it");
	check(pwrite(fd, "READ", 4, (off_t)(uintptr_t)rodata) == 4 &&
		      same(rodata, "READ-only string", 16),
	      "read-only memory is written all the same");
	hole = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(hole + 4096, 4096);
	errno = 0;
	check(pread(fd, buf, 8, (off_t)(uintptr_t)(hole + 4096)) == -1 && errno == EIO,
	      "nothing mapped: EIO");
	check(pread(fd, big, 8192, (off_t)(uintptr_t)hole) == 4096,
	      "a read that runs into a hole: the part before it");
	check(lseek(fd, (off_t)(uintptr_t)value, SEEK_SET) == (off_t)(uintptr_t)value &&
		      read(fd, buf, 8) == 8 && memcmp(buf, "CHANGED!", 8) == 0 &&
		      lseek(fd, 0, SEEK_CUR) == (off_t)(uintptr_t)value + 8,
	      "lseek to an address, read, the position moves on");

	if (pipe(p2c) < 0 || pipe(c2p) < 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		strcpy(value, "child's value");
		if (write(c2p[1], "r", 1) != 1 || read(p2c[0], &c, 1) != 1)
			_exit(1);
		if (!same(value, "parent wrote!", 13))
			_exit(2);
		if (write(c2p[1], "s", 1) != 1 || read(p2c[0], &c, 1) != 1)
			_exit(3);
		execl("/bin/sleep", "sleep", "5", (char *)NULL);
		_exit(4);
	}
	if (read(c2p[0], &c, 1) != 1)
		return 1;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	cfd = open(path, O_RDWR);
	check(cfd >= 0 && pread(cfd, buf, 13, (off_t)(uintptr_t)value) == 13 &&
		      memcmp(buf, "child's value", 13) == 0,
	      "a child's memory through /proc/PID/mem");
	check(pwrite(cfd, "parent wrote!", 13, (off_t)(uintptr_t)value) == 13, "written there");
	if (write(p2c[1], "w", 1) != 1 || read(c2p[0], &c, 1) != 1)
		return 1;
	check(c == 's', "the child sees the parent's write");
	if (write(p2c[1], "x", 1) != 1)
		return 1;
	for (int i = 0; i < 2000; i++) {
		char comm[32] = "";
		int f;

		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
		f = open(path, O_RDONLY);
		if (f >= 0) {
			if (read(f, comm, sizeof(comm) - 1) < 0)
				comm[0] = 0;
			close(f);
		}
		if (strncmp(comm, "sleep", 5) == 0)
			break;
		usleep(1000);
	}
	check(pread(cfd, buf, 13, (off_t)(uintptr_t)value) == 0, "after its exec: nothing is read");
	kill(pid, 9);
	waitpid(pid, &status, 0);

	/* Two files open on a child that is then killed and reaped: neither
	 * reads or writes its memory any more (skas kept the address space
	 * alive through them, and its host process). */
	pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	{
		int f1 = open(path, O_RDWR), f2 = open(path, O_RDWR);

		check(f1 >= 0 && f2 >= 0 && pread(f1, buf, 8, (off_t)(uintptr_t)value) == 8,
		      "two files on a live child read it");
		kill(pid, 9);
		waitpid(pid, &status, 0);
		check(pread(f1, buf, 8, (off_t)(uintptr_t)value) == 0 &&
			      pread(f2, buf, 8, (off_t)(uintptr_t)value) == 0 &&
			      pwrite(f2, "x", 1, (off_t)(uintptr_t)value) == 0,
		      "once it is gone, neither reads nor writes");
		close(f1);
		close(f2);
	}
	return 0;
}
