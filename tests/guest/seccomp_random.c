/* seccomp filters made at random (fixed seed), each installed in its own
 * child, which then makes a harmless call (getppid, getuid, getgid,
 * sched_yield) with random arguments: whether the filter was accepted
 * (or its errno), then what the call met — its result, its errno, or the
 * signal that ended the child — is printed, so the run under skas is
 * compared with Linux's own verifier and interpreter, program by program.
 * Each program starts with a guard that lets every other call through
 * (the child must still report and exit).
 * Programs mostly hold instructions seccomp allows, with some that it
 * does not, jumps that may leave the program, scratch words that may be
 * read before they are written, and loads of any offset but the
 * instruction pointer's (it differs from run to run). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "seccomp_abi.h"

#define PROGRAMS 1500

static uint64_t seed = 0x5eccd0e5ULL;

static uint32_t rnd(void)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(seed >> 33);
}

/* Opcodes seccomp allows (LD ABS and LEN among them), then some it does
 * not (LD H/B ABS, LD IND, MOD, a NEG with X, an unknown class bit). */
static const unsigned short allowed[] = {
	0x20, 0x80, 0x81, 0x06, 0x16, 0x04, 0x0c, 0x14, 0x1c, 0x24, 0x2c, 0x34, 0x3c, 0x54,
	0x5c, 0x44, 0x4c, 0xa4, 0xac, 0x64, 0x6c, 0x74, 0x7c, 0x84, 0x00, 0x01, 0x07, 0x87,
	0x60, 0x61, 0x02, 0x03, 0x05, 0x15, 0x1d, 0x35, 0x3d, 0x25, 0x2d, 0x45, 0x4d,
};
static const unsigned short refused[] = { 0x28, 0x30, 0x40, 0x94, 0x8c, 0xd5, 0x0e };

/* A return value: mostly one of the actions, with data. */
static unsigned action(void)
{
	static const unsigned acts[] = { 0x80000000U, 0x00000000U, 0x00030000U, 0x00050000U,
					 0x7ff00000U, 0x7ffc0000U, 0x7fff0000U, 0x12340000U };

	if (rnd() % 8 == 0)
		return rnd();
	return acts[rnd() % 8] | (rnd() % 3 == 0 ? rnd() & 0xffff : rnd() % 40);
}

static unsigned make(struct sock_filter *p, long nr)
{
	unsigned len = 1 + rnd() % 24, i;

	/* the guard: nr == the call ? the body : ALLOW */
	p[0] = (struct sock_filter){ 0x20, 0, 0, 0 };
	p[1] = (struct sock_filter){ 0x15, 1, 0, (unsigned)nr };
	p[2] = (struct sock_filter){ 0x06, 0, 0, 0x7fff0000U };
	p += 3;
	for (i = 0; i < len; i++) {
		struct sock_filter *f = &p[i];
		unsigned left = len - i - 1;

		f->code = rnd() % 50 ? allowed[rnd() % (sizeof(allowed) / sizeof(allowed[0]))]
				     : refused[rnd() % (sizeof(refused) / sizeof(refused[0]))];
		f->jt = (unsigned char)(left && rnd() % 20 ? rnd() % left : rnd() % 256);
		f->jf = (unsigned char)(left && rnd() % 20 ? rnd() % left : rnd() % 256);
		f->k = rnd() % 4 ? rnd() % 64 : rnd();
		switch (f->code) {
		case 0x20: /* LD W ABS: any offset but 8 and 12 (the ip) */
			f->k = rnd() % 10 ? (rnd() % 16) * 4 : rnd() % 80;
			if (f->k == 8 || f->k == 12)
				f->k = 0;
			break;
		case 0x05: /* JA */
			f->k = left && rnd() % 20 ? rnd() % left : rnd() % 64;
			break;
		case 0x06: /* RET K */
			f->k = action();
			break;
		case 0x60:
		case 0x61:
		case 0x02:
		case 0x03: /* scratch words */
			f->k = rnd() % 18;
			break;
		case 0x64:
		case 0x74: /* shifts by K */
			f->k = rnd() % 36;
			break;
		case 0x34: /* DIV K */
			f->k = rnd() % 4;
			break;
		}
	}
	if (rnd() % 20) {
		p[len - 1].code = rnd() % 4 ? 0x06 : 0x16;
		p[len - 1].k = action();
	}
	return len + 3;
}

int main(void)
{
	static const long calls[] = { SYS_getppid, SYS_getuid, SYS_getgid, SYS_sched_yield };
	struct sock_filter prog[32];
	int i, accepted = 0;

	for (i = 0; i < PROGRAMS; i++) {
		long nr = calls[rnd() % 4], args[6];
		unsigned len = make(prog, nr);
		int status, j, fds[2];
		char line[64] = "";
		pid_t pid;

		for (j = 0; j < 6; j++)
			args[j] = rnd() % 2 ? (long)rnd() : (long)(((uint64_t)rnd() << 32) | rnd());
		if (pipe(fds) < 0)
			return 1;
		pid = fork();
		if (pid == 0) {
			struct sock_fprog fp = { (unsigned short)len, prog };
			long r;

			close(fds[0]);
			prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
			if (syscall(SYS_seccomp, 1, 0, &fp) != 0) {
				snprintf(line, sizeof(line), "refused %d", errno);
				if (write(fds[1], line, strlen(line)) < 0)
					_exit(2);
				_exit(0);
			}
			if (write(fds[1], "accepted", 8) != 8)
				_exit(2);
			errno = 0;
			r = syscall(nr, args[0], args[1], args[2], args[3], args[4], args[5]);
			_exit(r == -1 ? 100 + (errno & 0xff) : 50);
		}
		close(fds[1]);
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			return 1;
		if (read(fds[0], line, sizeof(line) - 1) < 0)
			line[0] = 0;
		close(fds[0]);
		if (strcmp(line, "accepted") == 0)
			accepted++;
		if (WIFSIGNALED(status))
			printf("%d: %s, signal %d\n", i, line, WTERMSIG(status));
		else if (WEXITSTATUS(status) >= 100)
			printf("%d: %s, errno %d\n", i, line, WEXITSTATUS(status) - 100);
		else if (WEXITSTATUS(status) == 50)
			printf("%d: %s, ran\n", i, line);
		else
			printf("%d: %s\n", i, line);
	}
	printf("# %d of %d accepted\n", accepted, PROGRAMS);
	return 0;
}
