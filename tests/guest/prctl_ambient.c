/* Ambient capabilities and securebits: PR_CAP_AMBIENT's IS_SET, RAISE
 * (only a capability both permitted and inheritable), LOWER and CLEAR_ALL
 * and their EINVALs; capset dropping the inheritable bit drops the
 * ambient one; a setuid away from root clears the set (keep-caps or not);
 * an exec of a program as a user then gets it as permitted and effective
 * (/proc/self/status); PR_GET/SET_SECUREBITS with keep-caps. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "caps.h"
#define TAP_ERR_NAMED
#include "tap.h"
#define AMB_IS_SET    1
#define AMB_RAISE     2
#define AMB_LOWER     3
#define AMB_CLEAR_ALL 4
#define NBS	      CAP_NET_BIND_SERVICE

static long amb(long op, long cap)
{
	return prctl(PR_CAP_AMBIENT, op, cap, 0, 0);
}

int main(void)
{
	int p[2], st, k;
	char out[512];
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (getuid() != 0) {
		printf("ok 1 - (not root: nothing to check)\n");
		return 0;
	}
	check(amb(AMB_IS_SET, NBS) == 0, "IS_SET: not yet");
	check_err(amb(AMB_RAISE, NBS), EPERM, "EPERM", "RAISE without the inheritable bit");
	check(caps_change(NBS, 1, 0) == 0, "capset: inheritable CAP_NET_BIND_SERVICE");
	check(amb(AMB_RAISE, NBS) == 0 && amb(AMB_IS_SET, NBS) == 1, "RAISE, IS_SET");
	check(amb(AMB_IS_SET, NBS + 1) == 0, "IS_SET of another: 0");
	check_err(amb(AMB_IS_SET, 41), EINVAL, "EINVAL", "IS_SET of capability 41");
	check_err(prctl(PR_CAP_AMBIENT, AMB_IS_SET, NBS, 1, 0), EINVAL, "EINVAL",
		  "IS_SET with a fourth argument");
	check_err(amb(5, NBS), EINVAL, "EINVAL", "operation 5");
	check_err(amb(AMB_CLEAR_ALL, NBS), EINVAL, "EINVAL", "CLEAR_ALL with a capability");
	check(amb(AMB_LOWER, NBS) == 0 && amb(AMB_IS_SET, NBS) == 0, "LOWER");
	check(amb(AMB_RAISE, NBS) == 0 && amb(AMB_CLEAR_ALL, 0) == 0 && amb(AMB_IS_SET, NBS) == 0,
	      "CLEAR_ALL");
	check(amb(AMB_RAISE, NBS) == 0 && caps_change(NBS, 0, 0) == 0 && amb(AMB_IS_SET, NBS) == 0,
	      "dropping the inheritable bit drops the ambient one");
	check(caps_change(NBS, 1, 0) == 0 && amb(AMB_RAISE, NBS) == 0, "raised again");

	/* a setuid from root clears it; with keep-caps the permitted set
	 * stays, so it can be raised again, and an exec as the user gets
	 * it */
	check(pipe(p) == 0, "a pipe");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "/bin/sh", "-c",
				 "grep -E '^Cap(Inh|Prm|Eff|Amb)' /proc/self/status", NULL };

		dup2(p[1], 1);
		if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0 || setresuid(65534, 65534, 65534) != 0)
			_exit(2);
		if (amb(AMB_IS_SET, NBS) != 0)
			_exit(3);
		if (amb(AMB_RAISE, NBS) != 0)
			_exit(4);
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	k = 0;
	while (k < (int)sizeof(out) - 1) {
		int r = (int)read(p[0], out + k, sizeof(out) - 1 - k);

		if (r <= 0)
			break;
		k += r;
	}
	out[k] = 0;
	close(p[0]);
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "keep-caps, setresuid to 65534, RAISE, exec");
	k = strcmp(out, "CapInh:\t0000000000000400\nCapPrm:\t0000000000000400\n"
			"CapEff:\t0000000000000400\nCapAmb:\t0000000000000400\n");
	check(k == 0, "the program has it permitted, effective and ambient");
	if (k != 0)
		printf("# got:\n%s", out);

	check(prctl(PR_GET_SECUREBITS, 0, 0, 0, 0) == 0, "PR_GET_SECUREBITS: 0");
	check(prctl(PR_SET_SECUREBITS, 0x10, 0, 0, 0) == 0 &&
		      prctl(PR_GET_SECUREBITS, 0, 0, 0, 0) == 0x10 &&
		      prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0) == 1,
	      "PR_SET_SECUREBITS keep-caps: PR_GET_KEEPCAPS says so");
	check(prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) == 0 && prctl(PR_GET_SECUREBITS, 0, 0, 0, 0) == 0,
	      "PR_SET_KEEPCAPS 0 clears the bit");
	check_err(prctl(PR_SET_SECUREBITS, 0x10000, 0, 0, 0), EPERM, "EPERM", "a bit Linux lacks");
	check(caps_change(CAP_SETPCAP, 0, 1) == 0, "capset: CAP_SETPCAP not effective");
	check_err(prctl(PR_SET_SECUREBITS, 0x10, 0, 0, 0), EPERM, "EPERM",
		  "PR_SET_SECUREBITS without CAP_SETPCAP");
	return 0;
}
