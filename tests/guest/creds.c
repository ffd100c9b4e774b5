/* Credentials: the set*id transitions and their EPERMs, groups, and the
 * capabilities that follow the uids. Each case runs in a forked child. */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define TAP_FLUSH
#include "tap.h"

struct cap_header {
	uint32_t version;
	int pid;
};
struct cap_data {
	uint32_t effective, permitted, inheritable;
};

static uint32_t cap_eff(void)
{
	struct cap_header h = { 0x20080522, 0 };
	struct cap_data d[2];

	if (syscall(SYS_capget, &h, d) < 0)
		return 0xdeadbeef;
	return d[0].effective;
}

static void run(void (*fn)(void))
{
	int st;
	pid_t c = fork();

	if (c == 0) {
		fn();
		fflush(stdout);
		_exit(0);
	}
	waitpid(c, &st, 0);
}

static void as_root(void)
{
	uid_t r, e, s;

	check(getuid() == 0 && geteuid() == 0, "starts as root");
	check(cap_eff() != 0, "root has effective capabilities");
	check(getresuid(&r, &e, &s) == 0 && r == 0 && s == 0, "getresuid: all 0");
	check(setgroups(2, (gid_t[]){ 5, 7 }) == 0, "root may setgroups");
	{
		gid_t g[8];
		int k = getgroups(8, g);

		check(k == 2 && g[0] == 5 && g[1] == 7, "getgroups returns them");
		check(getgroups(1, g) == -1 && errno == EINVAL,
		      "getgroups with a small buffer -> EINVAL");
	}
}

static void drop_all(void)
{
	check(setresgid(100, 100, 100) == 0, "setresgid(100,100,100)");
	check(setresuid(1000, 1000, 1000) == 0, "setresuid(1000,1000,1000)");
	check(getuid() == 1000 && geteuid() == 1000, "the ids changed");
	check(cap_eff() == 0, "no capabilities once no uid is 0");
	errno = 0;
	check(setuid(0) == -1 && errno == EPERM, "setuid(0) afterwards -> EPERM");
	errno = 0;
	check(setgroups(0, NULL) == -1 && errno == EPERM, "setgroups unprivileged -> EPERM");
	errno = 0;
	check(setresuid(-1, 0, -1) == -1 && errno == EPERM, "setresuid to 0 -> EPERM");
	check(setresuid(-1, 1000, -1) == 0, "setresuid to an own id is allowed");
}

static void temporary(void)
{
	uid_t r, e, s;

	check(setresuid(-1, 1000, -1) == 0, "euid 1000, ruid and suid stay 0");
	check(getresuid(&r, &e, &s) == 0 && r == 0 && e == 1000 && s == 0, "getresuid 0/1000/0");
	check(cap_eff() == 0, "effective capabilities go with euid 0");
	check(seteuid(0) == 0, "seteuid(0) back is allowed (saved uid 0)");
	check(cap_eff() != 0, "and the capabilities come back");
	check(setreuid(1000, 2000) == 0, "setreuid(1000, 2000) as root");
	check(getresuid(&r, &e, &s) == 0 && r == 1000 && e == 2000 && s == 2000,
	      "setreuid sets the saved uid to the new euid");
	errno = 0;
	check(setreuid(0, -1) == -1 && errno == EPERM, "setreuid(0) then -> EPERM");
}

static void fsuid(void)
{
	check(setfsuid(1234) == 0, "setfsuid returns the old fsuid (0)");
	check(setfsuid(-1) == 1234, "and keeps the new one");
	check(setuid(1000) == 0, "setuid(1000) as root sets all three");
	check((int)setfsuid(0) == 1000, "fsuid follows euid");
	check((int)setfsuid(-1) == 1000, "an unprivileged setfsuid(0) changes nothing");
}

int main(void)
{
	run(as_root);
	run(drop_all);
	run(temporary);
	run(fsuid);
	return 0;
}
