/* /sys/class/net/lo (a link into /sys/devices/virtual/net, as Linux) with
 * the loopback's attributes, and /sys/dev/block and /sys/dev/char as
 * directories (lsblk failed on the missing /sys/dev/block; scripts list
 * /sys/class/net). Only lo is looked at: a host has more. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define TAP_FLUSH
#include "tap.h"

static int attr_is(const char *name, const char *want)
{
	char path[128], buf[128] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/lo/%s", name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return strcmp(buf, want) == 0;
}

int main(void)
{
	char link[128] = "";
	struct stat st;
	ssize_t len = readlink("/sys/class/net/lo", link, sizeof(link) - 1);

	if (len > 0)
		link[len] = 0;
	check(strcmp(link, "../../devices/virtual/net/lo") == 0,
	      "/sys/class/net/lo links to ../../devices/virtual/net/lo");
	check(stat("/sys/devices/virtual/net/lo", &st) == 0 && S_ISDIR(st.st_mode),
	      "which is a directory");
	check(attr_is("ifindex", "1\n"), "ifindex 1");
	check(attr_is("mtu", "65536\n"), "mtu 65536");
	check(attr_is("type", "772\n"), "type 772 (ARPHRD_LOOPBACK)");
	check(attr_is("flags", "0x9\n"), "flags 0x9 (UP, LOOPBACK)");
	check(attr_is("address", "00:00:00:00:00:00\n"), "address all zero");
	check(attr_is("addr_len", "6\n"), "addr_len 6");
	check(attr_is("operstate", "unknown\n"), "operstate unknown");
	check(attr_is("carrier", "1\n"), "carrier 1");
	check(attr_is("tx_queue_len", "1000\n"), "tx_queue_len 1000");
	check(stat("/sys/dev/block", &st) == 0 && S_ISDIR(st.st_mode), "/sys/dev/block");
	check(stat("/sys/dev/char", &st) == 0 && S_ISDIR(st.st_mode), "/sys/dev/char");
	return 0;
}
