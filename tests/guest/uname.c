/* uname(): fixed fields of an x86-64 Linux. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "tap.h"

int main(void)
{
	struct utsname u;
	int r;

	memset(&u, 'x', sizeof u);
	r = uname(&u);
	check(r == 0, "uname returns 0");
	check(strcmp(u.sysname, "Linux") == 0, "sysname is Linux");
	check(strcmp(u.machine, "x86_64") == 0, "machine is x86_64");
	check(u.release[0] != 0, "release is nonempty");
	check(u.version[0] != 0, "version is nonempty");
	check(u.nodename[0] != 0, "nodename is nonempty");
	check(memchr(u.release, 0, sizeof u.release) != NULL, "release is NUL-terminated");
	check(memchr(u.version, 0, sizeof u.version) != NULL, "version is NUL-terminated");
	check(memchr(u.nodename, 0, sizeof u.nodename) != NULL, "nodename is NUL-terminated");
	check(memchr(u.domainname, 0, sizeof u.domainname) != NULL, "domainname is NUL-terminated");
	/* release looks like "MAJOR.MINOR..." */
	check(u.release[0] >= '1' && u.release[0] <= '9' && strchr(u.release, '.') != NULL,
	      "release starts with a version number");
	return 0;
}
