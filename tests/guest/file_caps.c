/* File capabilities at exec, as capabilities(7): a non-root user running
 * a program whose security.capability gives CAP_NET_BIND_SERVICE gets it
 * permitted (effective too with the effective flag), revision 2 or 3;
 * NO_NEW_PRIVS gains nothing; a capability the bounding set lacks makes
 * the exec EPERM; a malformed one is EINVAL to set. skas
 * ignored file capabilities (a setcap'd ping failed for users). On
 * /dev/shm; root sets the xattrs, children of uid 1000 exec. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "tap.h"

#define CAP_NET_BIND_SERVICE 10
#define NBS		     (1ULL << CAP_NET_BIND_SERVICE)

static char prog[64];

static unsigned long long status_caps(const char *field)
{
	char line[256], want[32];
	unsigned long long v = ~0ULL;
	FILE *f = fopen("/proc/self/status", "r");

	snprintf(want, sizeof(want), "%s:\t%%llx", field);
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, want, &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/* security.capability of revision rev (2 or 3), permitted p, effective */
static int set_caps(int rev, uint32_t p, int eff)
{
	uint32_t v[6] = { (rev == 3 ? 0x03000000u : 0x02000000u) | (eff ? 1 : 0), p, 0, 0, 0, 0 };

	return setxattr(prog, "security.capability", v, rev == 3 ? 24 : 20, 0);
}

/* prog --report run by uid 1000: its exit status (1: CapPrm has NBS, 2:
 * CapEff has it), or 100 + errno of a failed exec. */
static int run(int nnp)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		if (setgid(1000) < 0 || setuid(1000) < 0)
			_exit(99);
		if (nnp)
			prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		execl(prog, prog, "--report", (char *)NULL);
		_exit(100 + errno);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(int argc, char **argv)
{
	int in, out, r;

	if (argc == 2 && strcmp(argv[1], "--report") == 0)
		return ((status_caps("CapPrm") & NBS) ? 1 : 0) |
		       ((status_caps("CapEff") & NBS) ? 2 : 0) | (status_caps("CapAmb") ? 4 : 0);
	snprintf(prog, sizeof(prog), "/dev/shm/skas-fcaps-%d", (int)getpid());
	in = open("/proc/self/exe", O_RDONLY);
	out = open(prog, O_CREAT | O_WRONLY | O_TRUNC, 0755);
	check(in >= 0 && out >= 0 && sendfile(out, in, NULL, 1 << 24) > 0,
	      "a copy of this program");
	close(in);
	close(out);

	check(run(0) == 0, "without file capabilities: none");
	check(set_caps(2, NBS, 1) == 0, "revision 2, permitted and effective");
	check(run(0) == 3, "the user's exec: permitted and effective");
	check(run(1) == 0, "under NO_NEW_PRIVS: none gained");
	check(set_caps(2, NBS, 0) == 0, "revision 2, permitted only");
	check(run(0) == 1, "permitted, not effective");
	check(set_caps(3, NBS, 1) == 0, "revision 3 (root uid 0)");
	check(run(0) == 3, "permitted and effective");
	{
		uint32_t bad[6] = { 0x02000001u, NBS, 0, 0, 0, 0 };

		check(setxattr(prog, "security.capability", bad, 16, 0) < 0 && errno == EINVAL,
		      "a revision 2 of 16 bytes: EINVAL");
		bad[0] = 0x01000001u;
		check(setxattr(prog, "security.capability", bad, 12, 0) < 0 && errno == EINVAL,
		      "a revision 1: EINVAL");
		r = run(0);
		check(r == 3, "the file's stay");
	}
	check(set_caps(2, NBS, 1) == 0, "revision 2 again");
	{
		int st;
		pid_t pid = fork();

		if (pid == 0) {
			if (prctl(PR_CAPBSET_DROP, CAP_NET_BIND_SERVICE, 0, 0, 0) < 0)
				_exit(98);
			_exit(run(0));
		}
		waitpid(pid, &st, 0);
		check(WIFEXITED(st) && WEXITSTATUS(st) == 100 + EPERM,
		      "the bounding set without it: the exec EPERM");
	}
	check(removexattr(prog, "security.capability") == 0 && run(0) == 0, "removed: none");
	unlink(prog);
	return 0;
}
