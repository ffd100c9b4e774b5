/* prctl PR_CAPBSET_DROP and PR_CAPBSET_READ: the capability bounding set.
 * A drop needs CAP_SETPCAP (EPERM) and a capability number (EINVAL); it
 * leaves the permitted set alone, shows in /proc/self/status's CapBnd, is
 * inherited by fork and kept by exec, where root's new permitted set is
 * the bounding set (with the inheritable set); capset may not add to the
 * inheritable set from outside it. Each case runs in a child of its own.
 * Under NO_NEW_PRIVS root that dropped its capabilities gets none back by
 * an exec. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "caps.h"
#define TAP_ERR_NAMED
#include "tap.h"

#define CAP_CHOWN   0
#define CAP_NET_RAW 13

/* The bounding set as PR_CAPBSET_READ tells it, one bit per capability. */
static uint64_t bset_read(void)
{
	uint64_t b = 0;

	for (int i = 0; i <= CAP_LAST; i++)
		if (prctl(PR_CAPBSET_READ, i, 0, 0, 0) == 1)
			b |= 1ULL << i;
	return b;
}

/* /proc/self/status's value for key (e.g. "CapBnd:"), or ~0 if absent. */
static uint64_t status_caps(const char *key)
{
	char line[256];
	uint64_t v = ~0ULL;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return v;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, strlen(key)) == 0)
			v = strtoull(line + strlen(key), NULL, 16);
	fclose(f);
	return v;
}

static uint64_t permitted(void)
{
	struct cap_data d[2];

	if (caps_get(d) < 0)
		return ~0ULL;
	return d[0].permitted | (uint64_t)d[1].permitted << 32;
}

static uint64_t effective(void)
{
	struct cap_data d[2];

	if (caps_get(d) < 0)
		return ~0ULL;
	return d[0].effective | (uint64_t)d[1].effective << 32;
}

/* After exec (argv[1] "after-exec"): what a root exec made of a bounding
 * set without CAP_NET_RAW. */
static int after_exec(void)
{
	uint64_t b = bset_read();

	check(!(b >> CAP_NET_RAW & 1) && (b >> CAP_CHOWN & 1),
	      "exec keeps the bounding set (CAP_NET_RAW dropped, CAP_CHOWN in)");
	check(permitted() == b, "root's permitted set after exec is the bounding set");
	check(effective() == b, "and so is its effective set");
	check(status_caps("CapBnd:") == b && status_caps("CapPrm:") == b,
	      "/proc/self/status says so");
	return 0;
}

/* After exec (argv[1] "after-nnp-exec"): root without capabilities, under
 * NO_NEW_PRIVS. */
static int after_nnp_exec(void)
{
	check(permitted() == 0 && effective() == 0,
	      "NO_NEW_PRIVS: an exec gives root no capabilities back");
	check(status_caps("CapPrm:") == 0, "/proc/self/status says so");
	return 0;
}

static void in_child(void (*fn)(char **), char **argv)
{
	int st;
	pid_t p = fork();

	if (p == 0) {
		fn(argv);
		fflush(stdout);
		_exit(0);
	}
	waitpid(p, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		check(0, "child died");
	n += 100; /* each child's checks are numbered apart */
}

static void drop_basics(char **argv)
{
	uint64_t full = bset_read(), perm = permitted();
	pid_t p;
	int st;

	(void)argv;
	check((full >> CAP_NET_RAW & 1) && (full >> CAP_CHOWN & 1), "root starts with a full set");
	check(prctl(PR_CAPBSET_DROP, CAP_NET_RAW, 0, 0, 0) == 0, "PR_CAPBSET_DROP CAP_NET_RAW");
	check(prctl(PR_CAPBSET_READ, CAP_NET_RAW, 0, 0, 0) == 0, "PR_CAPBSET_READ says 0 now");
	check(prctl(PR_CAPBSET_READ, CAP_CHOWN, 0, 0, 0) == 1, "the others stay");
	check(bset_read() == (full & ~(1ULL << CAP_NET_RAW)), "one bit gone");
	check(status_caps("CapBnd:") == (full & ~(1ULL << CAP_NET_RAW)), "CapBnd shows it");
	check(permitted() == perm, "the permitted set is untouched");
	check(prctl(PR_CAPBSET_DROP, CAP_NET_RAW, 0, 0, 0) == 0, "a second drop succeeds");
	check_err(prctl(PR_CAPBSET_DROP, CAP_LAST + 1, 0, 0, 0), EINVAL, "EINVAL", "capability 41");
	check_err(prctl(PR_CAPBSET_DROP, -1L, 0, 0, 0), EINVAL, "EINVAL", "capability -1");
	p = fork();
	if (p == 0)
		_exit(prctl(PR_CAPBSET_READ, CAP_NET_RAW, 0, 0, 0) == 0 ? 0 : 1);
	waitpid(p, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "fork inherits the bounding set");
	/* capset: nothing new in the inheritable set from outside it */
	check_err(caps_change(CAP_NET_RAW, 1, 0), EPERM, "EPERM",
		  "capset adding a dropped capability to the inheritable set");
	check(caps_change(CAP_CHOWN, 1, 0) == 0, "capset adding one still bounded");
}

static void drop_needs_setpcap(char **argv)
{
	(void)argv;
	check(caps_drop(CAP_SETPCAP) == 0, "CAP_SETPCAP out of the effective set");
	check_err(prctl(PR_CAPBSET_DROP, CAP_NET_RAW, 0, 0, 0), EPERM, "EPERM",
		  "PR_CAPBSET_DROP without CAP_SETPCAP");
	check_err(prctl(PR_CAPBSET_DROP, CAP_LAST + 1, 0, 0, 0), EPERM, "EPERM",
		  "the capability is checked after");
	check(prctl(PR_CAPBSET_READ, CAP_NET_RAW, 0, 0, 0) == 1, "nothing dropped");
}

static void drop_then_exec(char **argv)
{
	char *args[] = { argv[0], "after-exec", NULL };

	check(prctl(PR_CAPBSET_DROP, CAP_NET_RAW, 0, 0, 0) == 0, "drop CAP_NET_RAW, then exec");
	fflush(stdout);
	execv(argv[0], args);
	check(0, "exec");
}

static void nnp_exec(char **argv)
{
	struct cap_header h = { CAP_VERSION_3, 0 };
	struct cap_data d[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
	char *args[] = { argv[0], "after-nnp-exec", NULL };

	check(syscall(SYS_capset, &h, d) == 0, "root drops every capability");
	check(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0, "and sets NO_NEW_PRIVS");
	fflush(stdout);
	execv(argv[0], args);
	check(0, "exec");
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 1 && strcmp(argv[1], "after-exec") == 0)
		return after_exec();
	if (argc > 1 && strcmp(argv[1], "after-nnp-exec") == 0)
		return after_nnp_exec();
	if (getuid() != 0) {
		printf("skip: not root\n");
		return 0;
	}
	in_child(drop_basics, argv);
	in_child(drop_needs_setpcap, argv);
	in_child(drop_then_exec, argv);
	in_child(nnp_exec, argv);
	return 0;
}
