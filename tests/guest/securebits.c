/* prctl PR_SET_SECUREBITS as Linux's: CAP_SETPCAP to change them, a
 * locked bit stays, a lock stays, no unknown bit; SECBIT_NOROOT (root's
 * exec gains no capabilities), SECBIT_NO_SETUID_FIXUP (leaving root keeps
 * them), SECBIT_KEEP_CAPS (PR_SET_KEEPCAPS's bit, cleared by exec; its
 * lock makes PR_SET_KEEPCAPS EPERM), SECBIT_NO_CAP_AMBIENT_RAISE. skas
 * took keep-caps only (setpriv --securebits=+noroot failed). Each case in
 * a child of its own; root. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tap.h"
#include "caps.h"

#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT	     47
#define PR_CAP_AMBIENT_RAISE 2
#endif

#define NOROOT		     0x01
#define NOROOT_LOCKED	     0x02
#define NO_SETUID_FIXUP	     0x04
#define KEEP_CAPS	     0x10
#define KEEP_CAPS_LOCKED     0x20
#define NO_CAP_AMBIENT_RAISE 0x40

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

/* fn's result in a child, as its exit status */
static int in_child(int (*fn)(void))
{
	int st;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn());
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static const char *self;

/* exec of this program with --caps: 1 if it runs with no capabilities */
static int exec_caps(void)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		execl(self, self, "--caps", (char *)NULL);
		_exit(99);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int c_noroot(void)
{
	if (prctl(PR_SET_SECUREBITS, NOROOT, 0, 0, 0) < 0)
		return 10;
	if (prctl(PR_GET_SECUREBITS, 0, 0, 0, 0) != NOROOT)
		return 11;
	return exec_caps(); /* 1: none */
}

static int c_plain_exec(void)
{
	return exec_caps(); /* 0: root's */
}

static int c_locks(void)
{
	if (prctl(PR_SET_SECUREBITS, NOROOT | NOROOT_LOCKED, 0, 0, 0) < 0)
		return 10;
	if (!(prctl(PR_SET_SECUREBITS, NOROOT_LOCKED, 0, 0, 0) < 0 && errno == EPERM))
		return 11; /* the locked bit changed */
	if (!(prctl(PR_SET_SECUREBITS, NOROOT, 0, 0, 0) < 0 && errno == EPERM))
		return 12; /* the lock went */
	if (prctl(PR_SET_SECUREBITS, NOROOT | NOROOT_LOCKED | KEEP_CAPS, 0, 0, 0) < 0)
		return 13; /* another bit may change */
	if (!(prctl(PR_SET_SECUREBITS, 1 << 12, 0, 0, 0) < 0 && errno == EPERM))
		return 14;
	return 1;
}

static int c_keepcaps_lock(void)
{
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_GET_SECUREBITS, 0, 0, 0, 0) != KEEP_CAPS)
		return 10;
	if (prctl(PR_SET_SECUREBITS, KEEP_CAPS | KEEP_CAPS_LOCKED, 0, 0, 0) < 0)
		return 11;
	if (!(prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0 && errno == EPERM))
		return 12;
	return prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0) == 1;
}

static int c_no_fixup(void)
{
	if (prctl(PR_SET_SECUREBITS, NO_SETUID_FIXUP, 0, 0, 0) < 0)
		return 10;
	if (setresuid(1000, 1000, 1000) < 0)
		return 11;
	return status_caps("CapPrm") != 0 && status_caps("CapEff") != 0;
}

static int c_fixup(void)
{
	if (setresuid(1000, 1000, 1000) < 0)
		return 11;
	return status_caps("CapPrm") == 0 && status_caps("CapEff") == 0;
}

static int c_ambient(void)
{
	if (caps_change(CAP_NET_BIND_SERVICE, 1, 0) < 0)
		return 11;
	if (prctl(PR_SET_SECUREBITS, NO_CAP_AMBIENT_RAISE, 0, 0, 0) < 0)
		return 12;
	return prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_BIND_SERVICE, 0, 0) < 0 &&
	       errno == EPERM;
}

static int c_user(void)
{
	if (setresuid(1000, 1000, 1000) < 0)
		return 10;
	return prctl(PR_SET_SECUREBITS, NOROOT, 0, 0, 0) < 0 && errno == EPERM;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--caps") == 0)
		return status_caps("CapPrm") == 0 && status_caps("CapEff") == 0;
	self = "/proc/self/exe";
	{
		static char path[4096];
		ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

		if (n > 0) {
			path[n] = 0;
			self = path;
		}
	}
	check(prctl(PR_GET_SECUREBITS, 0, 0, 0, 0) == 0, "none set");
	check(in_child(c_plain_exec) == 0, "root's exec: capabilities");
	check(in_child(c_noroot) == 1, "NOROOT: root's exec gains none");
	check(in_child(c_locks) == 1, "a locked bit and a lock stay; no unknown bit (EPERM)");
	check(in_child(c_keepcaps_lock) == 1, "KEEP_CAPS is PR_SET_KEEPCAPS's; locked, EPERM");
	check(in_child(c_fixup) == 1, "leaving root drops the capabilities");
	check(in_child(c_no_fixup) == 1, "NO_SETUID_FIXUP: they stay");
	check(in_child(c_ambient) == 1, "NO_CAP_AMBIENT_RAISE: raising EPERM");
	check(in_child(c_user) == 1, "without CAP_SETPCAP: EPERM");
	return 0;
}
