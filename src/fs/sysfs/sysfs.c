/* fs/sysfs/sysfs.c: a minimal /sys, made once at mount on a tmpfs whose
 * tree then answers changes as kernfs does (tmpfs_freeze: a sysfs the
 * guest mounts read-write is not a tmpfs to write), and mounted read-only
 * at boot: what glibc's get_nprocs/get_nprocs_conf, sysconf and
 * nproc read (/sys/devices/system/cpu/{online,possible,present} and a
 * cpuN directory per CPU, as many as the guest is shown in /proc/cpuinfo,
 * with the topology lscpu and hwloc read, and the host's
 * cpu/vulnerabilities),
 * the one memory node (/sys/devices/system/node),
 * the loopback's attributes (/sys/class/net/lo, a link to
 * devices/virtual/net/lo, as in a new network namespace with lo up:
 * scripts list /sys/class/net), /sys/dev/block and /sys/dev/char (empty:
 * no devices; lsblk lists none), /sys/kernel/mm/transparent_hugepage
 * (never: skas has no huge pages), and the usual top-level directories,
 * empty. Nothing else of the host's sysfs
 * is exposed; /sys/fs/cgroup is an empty directory (boot mounts cgroup2
 * there: vfs/mount.c). Differs from Linux: the files'
 * st_size is their length (sysfs says 4096). */
#include <stdio.h>
#include <string.h>

#include "fs/sysfs/sysfs.h"
#include "fs/tmpfs/tmpfs.h"
#include "vfs/vfs.h"
#include "kernel/cpus.h"
#include "host/host.h"
#include "abi/linux/stat.h"

#define SYSFS_MAGIC 0x62656572

static int mkdir_in(struct inode *dir, const char *name, struct inode **out)
{
	return dir->iop->mknod(dir, name, LINUX_S_IFDIR | 0755, 0, NULL, out);
}

static int add_file(struct inode *dir, const char *name, uint32_t mode, const char *text)
{
	return tmpfs_add_file(dir, name, mode, text, strlen(text));
}

static int add_text(struct inode *dir, const char *name, const char *text)
{
	return add_file(dir, name, 0444, text);
}

/* The most CPUs sysfs shows (as /proc/cpuinfo's count is bounded), and
 * the room their %*pb text takes: nine characters a word and a newline. */
#define SYSFS_CPUS_MAX 1024
#define CPUMASK_TEXT   (9 * (SYSFS_CPUS_MAX / 32) + 2)

/* The CPUs lo..hi of n as Linux's %*pb writes a cpumask: hex words of 32
 * CPUs from the highest, by commas, the first as wide as its CPUs need
 * (bitmap_print_to_pagebuf), and a newline. */
static void cpumask_text(char *buf, size_t size, int n, int lo, int hi)
{
	int w, at = 0;

	for (w = (n - 1) / 32; w >= 0 && (size_t)at < size; w--) {
		int bits = n - w * 32 >= 32 ? 32 : n - w * 32, b;
		uint32_t word = 0;

		for (b = 0; b < bits; b++)
			if (w * 32 + b >= lo && w * 32 + b <= hi)
				word |= 1u << b;
		at += snprintf(buf + at, size - (size_t)at, "%s%0*x", at ? "," : "",
			       w == (n - 1) / 32 ? (bits + 3) / 4 : 8, word);
	}
	if ((size_t)at < size)
		snprintf(buf + at, size - (size_t)at, "\n");
}

static void cpulist_text(char *buf, size_t size, int lo, int hi)
{
	if (lo == hi)
		snprintf(buf, size, "%d\n", lo);
	else
		snprintf(buf, size, "%d-%d\n", lo, hi);
}

/* cpuN/topology: each CPU a core of its own in one package (a virtual
 * machine's CPUs without SMT): what lscpu, hwloc and OpenMP runtimes
 * read for threads per core, cores per socket, sockets. cluster_id is
 * x86's for an unknown L2 (BAD_APICID). */
static int make_topology(struct inode *c, int i, int n)
{
	char self_map[CPUMASK_TEXT], all_map[CPUMASK_TEXT], self_list[16], all_list[32], id[16];
	struct inode *t;
	int ret = mkdir_in(c, "topology", &t);

	if (ret < 0)
		return ret;
	cpumask_text(self_map, sizeof(self_map), n, i, i);
	cpumask_text(all_map, sizeof(all_map), n, 0, n - 1);
	cpulist_text(self_list, sizeof(self_list), i, i);
	cpulist_text(all_list, sizeof(all_list), 0, n - 1);
	snprintf(id, sizeof(id), "%d\n", i);
	ret = add_text(t, "core_id", id);
	ret = ret ?: add_text(t, "physical_package_id", "0\n");
	ret = ret ?: add_text(t, "die_id", "0\n");
	ret = ret ?: add_text(t, "cluster_id", "65535\n");
	ret = ret ?: add_text(t, "thread_siblings", self_map);
	ret = ret ?: add_text(t, "thread_siblings_list", self_list);
	ret = ret ?: add_text(t, "core_cpus", self_map);
	ret = ret ?: add_text(t, "core_cpus_list", self_list);
	ret = ret ?: add_text(t, "cluster_cpus", self_map);
	ret = ret ?: add_text(t, "cluster_cpus_list", self_list);
	ret = ret ?: add_text(t, "core_siblings", all_map);
	ret = ret ?: add_text(t, "core_siblings_list", all_list);
	ret = ret ?: add_text(t, "die_cpus", all_map);
	ret = ret ?: add_text(t, "die_cpus_list", all_list);
	ret = ret ?: add_text(t, "package_cpus", all_map);
	ret = ret ?: add_text(t, "package_cpus_list", all_list);
	inode_put(t);
	return ret;
}

/* cpu/vulnerabilities: guest code runs on the host's CPUs under the host
 * kernel's mitigations, so each file is the host's own (read-only, as
 * Linux's cpu_show_* attributes), what lscpu prints as Vulnerability
 * lines. None if the host has no such directory. */
static int make_vulns(struct inode *cpu)
{
	struct inode *v;
	const char *name, *text;
	int i, ret;

	if (!host_cpu_vuln(0, &text))
		return 0;
	ret = mkdir_in(cpu, "vulnerabilities", &v);
	if (ret < 0)
		return ret;
	for (i = 0; ret == 0 && (name = host_cpu_vuln(i, &text)); i++)
		ret = add_text(v, name, text);
	inode_put(v);
	return ret;
}

static int make_cpu(struct inode *sys)
{
	struct inode *devices, *system, *cpu, *c, *smt;
	char range[32], name[32];
	int i, n = cpus_count(), ret;

	if (n < 1)
		n = 1;
	if (n > SYSFS_CPUS_MAX)
		n = SYSFS_CPUS_MAX;
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
	ret = ret ?: add_text(cpu, "isolated", "\n");
	ret = ret ?: mkdir_in(cpu, "smt", &smt);
	if (ret == 0) { /* no SMT: cpu_smt_control's CPU_SMT_NOT_SUPPORTED */
		ret = add_text(smt, "active", "0\n");
		ret = ret ?: add_text(smt, "control", "notsupported\n");
		inode_put(smt);
	}
	ret = ret ?: make_vulns(cpu);
	for (i = 0; ret == 0 && i < n; i++) {
		snprintf(name, sizeof(name), "cpu%d", i);
		ret = mkdir_in(cpu, name, &c);
		if (ret < 0)
			break;
		if (i > 0) /* as Linux: cpu0 cannot go offline */
			ret = add_text(c, "online", "1\n");
		ret = ret ?: make_topology(c, i, n);
		ret = ret ?: c->iop->symlink(c, "node0", "../../node/node0", NULL);
		inode_put(c);
	}
	inode_put(cpu);
	return ret;
}

/* /sys/devices/system/node: one memory node, node 0, with every CPU (what
 * libnuma and numactl read; mm/mempolicy.h's machine). node0's cpumap is
 * Linux's %*pb: hex words of 32 CPUs from the highest, by commas. Differs
 * from Linux: no meminfo, numastat or vmstat (node 0's counts are the
 * instance's, in /proc/meminfo). */
static int make_node(struct inode *sys)
{
	struct inode *devices, *system, *node, *n0;
	char range[32], map[CPUMASK_TEXT], name[32], target[48];
	int n = cpus_count(), ret, i;

	if (n < 1)
		n = 1;
	if (n > SYSFS_CPUS_MAX)
		n = SYSFS_CPUS_MAX;
	cpulist_text(range, sizeof(range), 0, n - 1);
	cpumask_text(map, sizeof(map), n, 0, n - 1);
	ret = sys->iop->lookup(sys, "devices", &devices);
	if (ret < 0)
		return ret;
	ret = devices->iop->lookup(devices, "system", &system);
	inode_put(devices);
	if (ret < 0)
		return ret;
	ret = mkdir_in(system, "node", &node);
	inode_put(system);
	if (ret < 0)
		return ret;
	ret = add_text(node, "online", "0\n");
	ret = ret ?: add_text(node, "possible", "0\n");
	ret = ret ?: add_text(node, "has_cpu", "0\n");
	ret = ret ?: add_text(node, "has_memory", "0\n");
	ret = ret ?: add_text(node, "has_normal_memory", "0\n");
	ret = ret ?: add_text(node, "has_generic_initiator", "\n");
	ret = ret ?: mkdir_in(node, "node0", &n0);
	inode_put(node);
	if (ret < 0)
		return ret;
	ret = add_text(n0, "cpulist", range);
	ret = ret ?: add_text(n0, "cpumap", map);
	ret = ret ?: add_text(n0, "distance", "10\n");
	for (i = 0; ret == 0 && i < n; i++) {
		snprintf(name, sizeof(name), "cpu%d", i);
		snprintf(target, sizeof(target), "../../cpu/cpu%d", i);
		ret = n0->iop->symlink(n0, name, target, NULL);
	}
	inode_put(n0);
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

/* kernel/mm/transparent_hugepage: what Go's runtime, the JVM and jemalloc
 * read before they madvise(MADV_HUGEPAGE) or size their arenas. skas has
 * no huge pages (MADV_HUGEPAGE is taken and ignored), so it is shown as a
 * Linux built with THP whose every setting is never, in Linux 6.x's
 * formats (hugepage_global_enabled, defrag_show, shmem_enabled_show), with
 * the PMD size of x86-64. The setting files keep Linux's 0644, but there
 * is no store: always and madvise could not be honoured, so a write by
 * root fails (EROFS: /sys is mounted read-only, as a container's often
 * is) rather than be taken. Differs from Linux: no use_zero_page,
 * khugepaged/ or the per-size hugepages-<size>kB/ directories (6.8's
 * mTHP); when the host's own setting is always, the host may still back
 * guest memory with huge pages the guest never asked for. */
static int make_thp(struct inode *sys)
{
	struct inode *kernel, *mm, *thp;
	int ret = mkdir_in(sys, "kernel", &kernel);

	if (ret < 0)
		return ret;
	ret = mkdir_in(kernel, "mm", &mm);
	inode_put(kernel);
	if (ret < 0)
		return ret;
	ret = mkdir_in(mm, "transparent_hugepage", &thp);
	inode_put(mm);
	if (ret < 0)
		return ret;
	ret = add_file(thp, "enabled", 0644, "always madvise [never]\n");
	ret = ret ?: add_file(thp, "defrag", 0644, "always defer defer+madvise madvise [never]\n");
	ret = ret
		      ?: add_file(thp, "shmem_enabled", 0644,
				  "always within_size advise [never] deny force\n");
	ret = ret ?: add_text(thp, "hpage_pmd_size", "2097152\n");
	inode_put(thp);
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
	static const char *const top[] = { "block", "bus", "firmware", "fs", "module", "power" };
	struct inode *r, *d;
	size_t i;
	int ret = tmpfs_mount(1 << 20, 0555, sb, &r);

	if (ret < 0)
		return ret;
	(*sb)->fstype = "sysfs";
	(*sb)->magic = SYSFS_MAGIC;
	(*sb)->no_fsize = true;
	ret = make_cpu(r);
	ret = ret ?: make_node(r);
	ret = ret ?: make_net(r);
	ret = ret ?: make_dev(r);
	ret = ret ?: make_thp(r);
	for (i = 0; ret == 0 && i < sizeof(top) / sizeof(top[0]); i++) {
		struct inode *cg;

		ret = mkdir_in(r, top[i], &d);
		if (ret < 0)
			break;
		/* cgroup2's mount point, as Linux's sysfs has it */
		if (strcmp(top[i], "fs") == 0 && (ret = mkdir_in(d, "cgroup", &cg)) == 0)
			inode_put(cg);
		inode_put(d);
	}
	if (ret < 0) {
		inode_put(r);
		if ((*sb)->put_super)
			(*sb)->put_super(*sb);
		return ret;
	}
	tmpfs_freeze(*sb);
	*root = r;
	return 0;
}
