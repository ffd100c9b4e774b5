/* fs/sysfs/sysfs.c: a minimal /sys, made once at mount on a tmpfs and
 * mounted read-only: what glibc's get_nprocs/get_nprocs_conf, sysconf and
 * nproc read (/sys/devices/system/cpu/{online,possible,present} and a
 * cpuN directory per CPU, as many as the guest is shown in /proc/cpuinfo),
 * the loopback's attributes (/sys/class/net/lo, a link to
 * devices/virtual/net/lo, as in a new network namespace with lo up:
 * scripts list /sys/class/net), /sys/dev/block and /sys/dev/char (empty:
 * no devices; lsblk lists none), and the usual top-level directories,
 * empty. Nothing of the host's sysfs
 * is exposed; /sys/fs/cgroup is absent. Differs from Linux: the files'
 * st_size is their length (sysfs says 4096). */
#include <stdio.h>

#include "fs/sysfs/sysfs.h"
#include "fs/tmpfs/tmpfs.h"
#include "vfs/vfs.h"
#include "host/host.h"
#include "abi/linux/stat.h"

#define SYSFS_MAGIC 0x62656572

static int mkdir_in(struct inode *dir, const char *name, struct inode **out)
{
	return dir->iop->mknod(dir, name, LINUX_S_IFDIR | 0755, 0, NULL, out);
}

static int add_text(struct inode *dir, const char *name, const char *text)
{
	size_t len = 0;

	while (text[len])
		len++;
	return tmpfs_add_file(dir, name, 0444, text, len);
}

static int make_cpu(struct inode *sys)
{
	struct inode *devices, *system, *cpu, *c;
	char range[32], name[32];
	int i, n = host_ncpus(), ret;

	if (n < 1)
		n = 1;
	ret = mkdir_in(sys, "devices", &devices);
	if (ret < 0)
		return ret;
	ret = mkdir_in(devices, "system", &system);
	inode_put(devices);
	if (ret < 0)
		return ret;
	ret = mkdir_in(system, "cpu", &cpu);
	inode_put(system);
	if (ret < 0)
		return ret;
	if (n == 1)
		snprintf(range, sizeof(range), "0\n");
	else
		snprintf(range, sizeof(range), "0-%d\n", n - 1);
	ret = add_text(cpu, "online", range);
	ret = ret ?: add_text(cpu, "possible", range);
	ret = ret ?: add_text(cpu, "present", range);
	ret = ret ?: add_text(cpu, "offline", "\n");
	for (i = 0; ret == 0 && i < n; i++) {
		snprintf(name, sizeof(name), "cpu%d", i);
		ret = mkdir_in(cpu, name, &c);
		if (ret == 0 && i > 0) /* as Linux: cpu0 cannot go offline */
			ret = add_text(c, "online", "1\n");
		if (ret == 0)
			inode_put(c);
	}
	inode_put(cpu);
	return ret;
}

/* The loopback of a new network namespace, up. Its counters and the
 * attributes whose read is an error (speed, duplex) are left out. */
static int make_net(struct inode *sys)
{
	static const struct {
		const char *name, *text;
	} attrs[] = {
		{ "addr_assign_type", "0\n" },
		{ "addr_len", "6\n" },
		{ "address", "00:00:00:00:00:00\n" },
		{ "broadcast", "00:00:00:00:00:00\n" },
		{ "carrier", "1\n" },
		{ "dev_id", "0x0\n" },
		{ "dev_port", "0\n" },
		{ "dormant", "0\n" },
		{ "flags", "0x9\n" },
		{ "ifalias", "\n" },
		{ "ifindex", "1\n" },
		{ "iflink", "1\n" },
		{ "link_mode", "0\n" },
		{ "mtu", "65536\n" },
		{ "netdev_group", "0\n" },
		{ "operstate", "unknown\n" },
		{ "tx_queue_len", "1000\n" },
		{ "type", "772\n" },
		{ "uevent", "INTERFACE=lo\nIFINDEX=1\n" },
	};
	struct inode *devices, *virt, *net, *lo, *class, *cnet;
	size_t i;
	int ret;

	ret = sys->iop->lookup(sys, "devices", &devices);
	if (ret < 0)
		return ret;
	ret = mkdir_in(devices, "virtual", &virt);
	inode_put(devices);
	if (ret < 0)
		return ret;
	ret = mkdir_in(virt, "net", &net);
	inode_put(virt);
	if (ret < 0)
		return ret;
	ret = mkdir_in(net, "lo", &lo);
	inode_put(net);
	if (ret < 0)
		return ret;
	for (i = 0; ret == 0 && i < sizeof(attrs) / sizeof(attrs[0]); i++)
		ret = add_text(lo, attrs[i].name, attrs[i].text);
	inode_put(lo);
	ret = ret ?: mkdir_in(sys, "class", &class);
	if (ret < 0)
		return ret;
	ret = mkdir_in(class, "net", &cnet);
	inode_put(class);
	if (ret < 0)
		return ret;
	ret = cnet->iop->symlink(cnet, "lo", "../../devices/virtual/net/lo", NULL);
	inode_put(cnet);
	return ret;
}

static int make_dev(struct inode *sys)
{
	struct inode *dev, *d;
	int ret = mkdir_in(sys, "dev", &dev);

	if (ret < 0)
		return ret;
	ret = mkdir_in(dev, "block", &d);
	if (ret == 0) {
		inode_put(d);
		ret = mkdir_in(dev, "char", &d);
	}
	if (ret == 0)
		inode_put(d);
	inode_put(dev);
	return ret;
}

int sysfs_mount(struct super_block **sb, struct inode **root)
{
	static const char *const top[] = { "block",  "bus",    "firmware", "fs",
					   "kernel", "module", "power" };
	struct inode *r, *d;
	size_t i;
	int ret = tmpfs_mount(1 << 20, 0555, sb, &r);

	if (ret < 0)
		return ret;
	(*sb)->fstype = "sysfs";
	(*sb)->magic = SYSFS_MAGIC;
	ret = make_cpu(r);
	ret = ret ?: make_net(r);
	ret = ret ?: make_dev(r);
	for (i = 0; ret == 0 && i < sizeof(top) / sizeof(top[0]); i++) {
		ret = mkdir_in(r, top[i], &d);
		if (ret == 0)
			inode_put(d);
	}
	if (ret < 0) {
		inode_put(r);
		if ((*sb)->put_super)
			(*sb)->put_super(*sb);
		return ret;
	}
	*root = r;
	return 0;
}
