/* process_vm_readv and process_vm_writev: a parent reads and writes a
 * child's memory through scattered iovecs (a remote vector split over
 * local ones and back), its own memory too; partial transfers stop at the
 * first fault on either side (what moved is the result, EFAULT if
 * nothing did; a read-only page is not written); argument errors in
 * Linux's order (flags, local iovecs, a zero total before anything else,
 * remote iovecs, ESRCH); and EPERM for another user's process without
 * CAP_SYS_PTRACE. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "caps.h"
#define TAP_ERR_NAMED
#include "tap.h"

static long rd(pid_t pid, struct iovec *l, unsigned long ln, struct iovec *r, unsigned long rn,
	       unsigned long flags)
{
	return syscall(SYS_process_vm_readv, pid, l, ln, r, rn, flags);
}

static long wr(pid_t pid, struct iovec *l, unsigned long ln, struct iovec *r, unsigned long rn)
{
	return syscall(SYS_process_vm_writev, pid, l, ln, r, rn, 0UL);
}

/* The child's memory: the same addresses in both (fork). */
static char text[64] = "0123456789abcdefghijklmnopqrstuvwxyz";
static char *page; /* two pages: rw, then nothing */
static const char ro[16] = "read-only here";

int main(void)
{
	char a[8], b[8], c[64], big[8192];
	struct iovec l[3], r[2];
	int go[2], done[2], st;
	pid_t pid;
	char x;

	setvbuf(stdout, NULL, _IOLBF, 0);
	page = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(page, 'p', 4096);
	mprotect(page + 4096, 4096, PROT_NONE);
	if (pipe(go) < 0 || pipe(done) < 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		/* waits while the parent works, then reports what it has */
		close(go[1]);
		close(done[0]);
		strcpy(text, "CHILD-0123456789");
		if (write(done[1], "r", 1) != 1 || read(go[0], &x, 1) != 1)
			_exit(1);
		if (write(done[1], text, 16) != 16 || write(done[1], page + 4090, 6) != 6)
			_exit(2);
		_exit(0);
	}
	close(go[0]);
	close(done[1]);
	/* the child's strcpy is done (checked by the read below): it says
	 * so, where a fixed 50 ms was a race with a slow child */
	if (read(done[0], &x, 1) != 1)
		return 1;

	/* a remote vector of 12 bytes over local ones of 5 and 7 */
	r[0] = (struct iovec){ text, 12 };
	l[0] = (struct iovec){ a, 5 };
	l[1] = (struct iovec){ b, 7 };
	check(rd(pid, l, 2, r, 1, 0) == 12 && !memcmp(a, "CHILD", 5) && !memcmp(b, "-012345", 7),
	      "readv: 12 bytes of the child's, over two local vectors");
	/* two remote vectors into one local */
	r[0] = (struct iovec){ text, 3 };
	r[1] = (struct iovec){ text + 6, 4 };
	l[0] = (struct iovec){ c, 64 };
	check(rd(pid, l, 1, r, 2, 0) == 7 && !memcmp(c, "CHI0123", 7),
	      "readv: two remote vectors into one local");
	/* writev: into the child's text */
	l[0] = (struct iovec){ "WRITTEN!", 8 };
	r[0] = (struct iovec){ text + 6, 8 };
	check(wr(pid, l, 1, r, 1) == 8, "writev: 8 bytes into the child");
	/* partial: the remote range runs into the PROT_NONE page */
	r[0] = (struct iovec){ page + 4090, 100 };
	l[0] = (struct iovec){ c, 64 };
	check(rd(pid, l, 1, r, 1, 0) == 6 && !memcmp(c, "pppppp", 6),
	      "readv up to the child's PROT_NONE page: the 6 bytes before it");
	r[0] = (struct iovec){ page + 4096, 10 };
	check_err(rd(pid, l, 1, r, 1, 0), EFAULT, "EFAULT", "readv of a PROT_NONE page only");
	l[0] = (struct iovec){ "XYZXYZ", 6 };
	r[0] = (struct iovec){ page + 4090, 6 };
	check(wr(pid, l, 1, r, 1) == 6, "writev just below it");
	r[0] = (struct iovec){ (void *)ro, 4 };
	check_err(wr(pid, l, 1, r, 1), EFAULT, "EFAULT", "writev to a read-only page");
	/* local side faults */
	r[0] = (struct iovec){ text, 16 };
	l[0] = (struct iovec){ (void *)8, 16 };
	check_err(rd(pid, l, 1, r, 1, 0), EFAULT, "EFAULT", "readv into a bad local pointer");
	l[0] = (struct iovec){ a, 4 };
	l[1] = (struct iovec){ (void *)8, 16 };
	check(rd(pid, l, 2, r, 1, 0) == 4, "readv: the good local vector, then a bad one: 4");
	/* a big read: 8 KiB of our own memory (pid: ourselves) */
	memset(big, 0, sizeof(big));
	r[0] = (struct iovec){ page, 4096 };
	l[0] = (struct iovec){ big, sizeof(big) };
	check(rd(getpid(), l, 1, r, 1, 0) == 4096 && big[0] == 'p' && big[4095] == 'p' &&
		      !big[4096],
	      "readv of our own memory");

	/* argument errors, in order */
	r[0] = (struct iovec){ text, 4 };
	l[0] = (struct iovec){ a, 4 };
	check_err(rd(pid, l, 1, r, 1, 1), EINVAL, "EINVAL", "flags 1");
	check_err(rd(pid, l, 1025, r, 1, 0), EINVAL, "EINVAL", "1025 local vectors");
	check_err(rd(pid, (struct iovec *)8, 1, r, 1, 0), EFAULT, "EFAULT",
		  "bad local iovec array");
	l[0] = (struct iovec){ a, (size_t)-1 };
	check_err(rd(pid, l, 1, r, 1, 0), EINVAL, "EINVAL", "a negative local length");
	l[0] = (struct iovec){ (void *)0xffff800000000000UL, 4 };
	check_err(rd(pid, l, 1, r, 1, 0), EFAULT, "EFAULT", "a kernel local address");
	l[0] = (struct iovec){ a, 0 };
	check(rd(999999, l, 1, (struct iovec *)8, 1, 0) == 0,
	      "a local total of 0: 0, before the remote array and the pid");
	l[0] = (struct iovec){ a, 4 };
	check_err(rd(pid, l, 1, r, 1025, 0), EINVAL, "EINVAL", "1025 remote vectors");
	r[1] = (struct iovec){ text, (size_t)-1 };
	check_err(rd(pid, l, 1, &r[1], 1, 0), EINVAL, "EINVAL", "a negative remote length");
	{
		struct iovec l2[2] = { { a, 0x7ffff000 }, { (void *)0x7fffffffe000, 0x100000 } };

		check_err(rd(pid, l2, 2, r, 1, 0), EFAULT, "EFAULT",
			  "a local vector past user space after 2 GiB: checked before the cap");
	}
	check_err(rd(pid, l, 1, (struct iovec *)8, 1, 0), EFAULT, "EFAULT", "bad remote array");
	r[1] = (struct iovec){ text, 0 };
	check(rd(999999, l, 1, &r[1], 1, 0) == 0, "a remote total of 0: 0, before the pid");
	check_err(rd(999999, l, 1, r, 1, 0), ESRCH, "ESRCH", "no such process");

	/* the child: what it saw */
	st = 0;
	if (write(go[1], "g", 1) == 1)
		while (st < 22) {
			long k = read(done[0], c + st, 22 - st);

			if (k <= 0)
				break;
			st += (int)k;
		}
	check(st == 22, "the child reports");
	check(!memcmp(c, "CHILD-WRITTEN!89", 16) && !memcmp(c + 16, "XYZXYZ", 6),
	      "the child has what we wrote");
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the child exits 0");
	check_err(rd(pid, l, 1, r, 1, 0), ESRCH, "ESRCH", "a reaped child");

	/* another user's process, without CAP_SYS_PTRACE */
	if (getuid() == 0) {
		int sync[2];

		if (pipe(sync) < 0 || pipe(go) < 0)
			return 1;
		pid = fork();
		if (pid == 0) {
			close(go[1]);
			if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
				_exit(1);
			write(sync[1], "u", 1);
			read(go[0], &x, 1);
			_exit(0);
		}
		check(read(sync[0], &x, 1) == 1, "a child of user 65534");
		check(rd(pid, l, 1, r, 1, 0) == 4, "as root: its memory");
		check(caps_drop(CAP_SYS_PTRACE) == 0, "capset drops CAP_SYS_PTRACE");
		check_err(rd(pid, l, 1, r, 1, 0), EPERM, "EPERM", "without it: EPERM");
		check_err(wr(pid, l, 1, r, 1), EPERM, "EPERM", "writev too");
		close(go[1]);
		waitpid(pid, &st, 0);
	}
	return 0;
}
