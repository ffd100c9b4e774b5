/* fs/procfs/global.c: /proc's system-wide files: memory (from the host's
 * figures), CPUs (a plausible description of host_ncpus() virtual CPUs,
 * never the host's own /proc), uptime and boot time (the instance's, from
 * the procfs mount), load and task counts (the guest's), version, the
 * filesystems, and a few /proc/sys values. Formats as Linux's. */
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cpus.h"
#include "kernel/exec.h"
#include "kernel/cputime.h"
#include "kernel/cgroup.h"
#include "mm/commit.h"
#include "fs/procfs/internal.h"
#include "fs/procfs/procfs.h"
#include "kernel/task.h"
#include "net/socket.h"
#include "kernel/sched.h"
#include "kernel/coredump.h"
#include "kernel/nsproxy.h"
#include "kernel/pidns.h"
#include "kernel/userns.h"
#include "kernel/timens.h"
#include "kernel/uts.h"
#include "host/host.h"
#include "ipc/ipc.h"
#include "net/inet.h"
#include "vfs/pipe.h"
#include "vfs/locks.h"
#include "vfs/lease.h"
#include "vfs/inotify.h"
#include "vfs/aio.h"
#include "vfs/file.h"
#include "tty/pty.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"
#include "abi/linux/stat.h"
#include "abi/linux/types.h"

/* The highest pid or tid in use: Linux's last_pid, approximately. */
int procfs_last_pid(void)
{
	struct process *p;
	struct task *t;
	int last = 0;

	for (p = process_next(NULL); p; p = process_next(p)) {
		if (p->pid > last)
			last = p->pid;
		list_for_each_entry(t, &p->threads, thread_link)
		{
			if (t->tid > last)
				last = t->tid;
		}
	}
	return last;
}

static int64_t uptime_ns(void)
{
	int64_t ns = host_clock_ns(LINUX_CLOCK_MONOTONIC) - procfs_boot_mono_ns;

	return ns > 0 ? ns : 0;
}

static int ncpus(void)
{
	int n = cpus_count();

	return n > 0 ? n : 1;
}

static void kb(struct sbuf *b, const char *name, uint64_t bytes)
{
	sb_printf(b, "%-16s%8llu kB\n", name, (unsigned long long)(bytes >> 10));
}

/* MemTotal is the instance's memory (--memory, or the host's if less),
 * MemFree what is left of it; CommitLimit the same limit, Committed_AS what
 * counts against it (mm/commit.h). Differs from Linux: the page cache and
 * the kernel's own memory are not known: Cached is 0 and MemAvailable is
 * MemFree. */
static int gen_meminfo(const struct pnode *n, struct sbuf *b)
{
	uint64_t total, freeb, shared, buffers;
	int ret = mem_meminfo(&total, &freeb, &shared, &buffers);

	(void)n;
	if (ret < 0)
		return ret;
	kb(b, "MemTotal:", total);
	kb(b, "MemFree:", freeb);
	kb(b, "MemAvailable:", freeb + buffers);
	kb(b, "Buffers:", buffers);
	kb(b, "Cached:", 0);
	kb(b, "SwapCached:", 0);
	kb(b, "Active:", 0);
	kb(b, "Inactive:", 0);
	kb(b, "Active(anon):", 0);
	kb(b, "Inactive(anon):", 0);
	kb(b, "Active(file):", 0);
	kb(b, "Inactive(file):", 0);
	kb(b, "Unevictable:", 0);
	kb(b, "Mlocked:", 0);
	kb(b, "SwapTotal:", 0);
	kb(b, "SwapFree:", 0);
	kb(b, "Zswap:", 0);
	kb(b, "Zswapped:", 0);
	kb(b, "Dirty:", 0);
	kb(b, "Writeback:", 0);
	kb(b, "AnonPages:", 0);
	kb(b, "Mapped:", 0);
	kb(b, "Shmem:", shared);
	kb(b, "KReclaimable:", 0);
	kb(b, "Slab:", 0);
	kb(b, "SReclaimable:", 0);
	kb(b, "SUnreclaim:", 0);
	kb(b, "KernelStack:", 0);
	kb(b, "PageTables:", 0);
	kb(b, "SecPageTables:", 0);
	kb(b, "NFS_Unstable:", 0);
	kb(b, "Bounce:", 0);
	kb(b, "WritebackTmp:", 0);
	kb(b, "CommitLimit:", total);
	kb(b, "Committed_AS:", mem_committed());
	kb(b, "VmallocTotal:", 34359738367ULL << 10);
	kb(b, "VmallocUsed:", 0);
	kb(b, "VmallocChunk:", 0);
	kb(b, "Percpu:", 0);
	kb(b, "HardwareCorrupted:", 0);
	kb(b, "AnonHugePages:", 0);
	kb(b, "ShmemHugePages:", 0);
	kb(b, "ShmemPmdMapped:", 0);
	kb(b, "FileHugePages:", 0);
	kb(b, "FilePmdMapped:", 0);
	sb_printf(b, "HugePages_Total:       0\nHugePages_Free:        0\n"
		     "HugePages_Rsvd:        0\nHugePages_Surp:        0\n");
	kb(b, "Hugepagesize:", 2048 << 10);
	kb(b, "Hugetlb:", 0);
	return 0;
}

/* /proc/vmstat: the free pages; no paging or swapping is counted. */
static int gen_vmstat(const struct pnode *n, struct sbuf *b)
{
	static const char *const zero[] = {
		"nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file",
		"nr_unevictable",   "nr_mlock",	      "nr_anon_pages",	  "nr_mapped",
		"nr_file_pages",    "nr_dirty",	      "nr_writeback",	  "nr_shmem",
		"pgpgin",	    "pgpgout",	      "pswpin",		  "pswpout",
		"pgalloc_normal",   "pgfree",	      "pgfault",	  "pgmajfault",
		"oom_kill",
	};
	uint64_t total, freeb, shared, buffers;
	int ret = mem_meminfo(&total, &freeb, &shared, &buffers);
	size_t i;

	(void)n;
	if (ret < 0)
		return ret;
	sb_printf(b, "nr_free_pages %llu\n", (unsigned long long)(freeb / 4096));
	for (i = 0; i < sizeof(zero) / sizeof(zero[0]); i++)
		sb_printf(b, "%s 0\n", zero[i]);
	return 0;
}

/* The CPU's vendor and its feature flags that user code can use, from
 * cpuid (the instruction, not the host's /proc), named and ordered as
 * Linux's cpuinfo (by its feature words: leaf 1 edx, 0x80000001 edx, leaf
 * 1 ecx, 0x80000001 ecx, leaf 7 ebx, 0xd.1 eax, 7.1 eax, 7 ecx, 7 edx).
 * As Linux, the AVX, AVX-512 and AMX flags only when XCR0 enables their
 * state. Left out: what only a kernel uses (vme, pae, apic, pcid...) and
 * Linux's own synthetic flags, but for constant_tsc and nonstop_tsc (an
 * invariant TSC: clocks and benchmarks look for them). */
enum {
	W_1EDX,	 /* leaf 1 edx */
	W_81EDX, /* 0x80000001 edx */
	W_1ECX,
	W_81ECX,
	W_7EBX, /* leaf 7.0 ebx */
	W_D1EAX,
	W_71EAX,
	W_7ECX,
	W_7EDX,
	W_87EDX, /* 0x80000007 edx */
	NWORDS
};
enum { NEED_AVX = 1, NEED_AVX512 = 2, NEED_AMX = 3 };

static const struct cpu_flag {
	unsigned char word, bit, need;
	const char *name;
} cpu_flags[] = {
	{ W_1EDX, 0, 0, "fpu" },
	{ W_1EDX, 4, 0, "tsc" },
	{ W_1EDX, 8, 0, "cx8" },
	{ W_1EDX, 15, 0, "cmov" },
	{ W_1EDX, 19, 0, "clflush" },
	{ W_1EDX, 23, 0, "mmx" },
	{ W_1EDX, 24, 0, "fxsr" },
	{ W_1EDX, 25, 0, "sse" },
	{ W_1EDX, 26, 0, "sse2" },
	{ W_1EDX, 28, 0, "ht" },
	{ W_81EDX, 11, 0, "syscall" },
	{ W_81EDX, 20, 0, "nx" },
	{ W_81EDX, 22, 0, "mmxext" },
	{ W_81EDX, 25, 0, "fxsr_opt" },
	{ W_81EDX, 27, 0, "rdtscp" },
	{ W_81EDX, 29, 0, "lm" },
	{ W_81EDX, 30, 0, "3dnowext" },
	{ W_81EDX, 31, 0, "3dnow" },
	{ W_87EDX, 8, 0, "constant_tsc" },
	{ W_87EDX, 8, 0, "nonstop_tsc" },
	{ W_1ECX, 0, 0, "pni" },
	{ W_1ECX, 1, 0, "pclmulqdq" },
	{ W_1ECX, 9, 0, "ssse3" },
	{ W_1ECX, 12, NEED_AVX, "fma" },
	{ W_1ECX, 13, 0, "cx16" },
	{ W_1ECX, 19, 0, "sse4_1" },
	{ W_1ECX, 20, 0, "sse4_2" },
	{ W_1ECX, 22, 0, "movbe" },
	{ W_1ECX, 23, 0, "popcnt" },
	{ W_1ECX, 25, 0, "aes" },
	{ W_1ECX, 26, 0, "xsave" },
	{ W_1ECX, 28, NEED_AVX, "avx" },
	{ W_1ECX, 29, NEED_AVX, "f16c" },
	{ W_1ECX, 30, 0, "rdrand" },
	{ W_1ECX, 31, 0, "hypervisor" },
	{ W_81ECX, 0, 0, "lahf_lm" },
	{ W_81ECX, 5, 0, "abm" },
	{ W_81ECX, 6, 0, "sse4a" },
	{ W_81ECX, 7, 0, "misalignsse" },
	{ W_81ECX, 8, 0, "3dnowprefetch" },
	{ W_81ECX, 11, NEED_AVX, "xop" },
	{ W_81ECX, 16, NEED_AVX, "fma4" },
	{ W_81ECX, 21, 0, "tbm" },
	{ W_7EBX, 3, 0, "bmi1" },
	{ W_7EBX, 4, 0, "hle" },
	{ W_7EBX, 5, NEED_AVX, "avx2" },
	{ W_7EBX, 8, 0, "bmi2" },
	{ W_7EBX, 9, 0, "erms" },
	{ W_7EBX, 11, 0, "rtm" },
	{ W_7EBX, 16, NEED_AVX512, "avx512f" },
	{ W_7EBX, 17, NEED_AVX512, "avx512dq" },
	{ W_7EBX, 18, 0, "rdseed" },
	{ W_7EBX, 19, 0, "adx" },
	{ W_7EBX, 21, NEED_AVX512, "avx512ifma" },
	{ W_7EBX, 23, 0, "clflushopt" },
	{ W_7EBX, 24, 0, "clwb" },
	{ W_7EBX, 26, NEED_AVX512, "avx512pf" },
	{ W_7EBX, 27, NEED_AVX512, "avx512er" },
	{ W_7EBX, 28, NEED_AVX512, "avx512cd" },
	{ W_7EBX, 29, 0, "sha_ni" },
	{ W_7EBX, 30, NEED_AVX512, "avx512bw" },
	{ W_7EBX, 31, NEED_AVX512, "avx512vl" },
	{ W_D1EAX, 0, 0, "xsaveopt" },
	{ W_D1EAX, 1, 0, "xsavec" },
	{ W_D1EAX, 2, 0, "xgetbv1" },
	{ W_71EAX, 4, NEED_AVX, "avx_vnni" },
	{ W_71EAX, 5, NEED_AVX512, "avx512_bf16" },
	{ W_7ECX, 1, NEED_AVX512, "avx512vbmi" },
	{ W_7ECX, 6, NEED_AVX512, "avx512_vbmi2" },
	{ W_7ECX, 8, 0, "gfni" },
	{ W_7ECX, 9, NEED_AVX, "vaes" },
	{ W_7ECX, 10, NEED_AVX, "vpclmulqdq" },
	{ W_7ECX, 11, NEED_AVX512, "avx512_vnni" },
	{ W_7ECX, 12, NEED_AVX512, "avx512_bitalg" },
	{ W_7ECX, 14, NEED_AVX512, "avx512_vpopcntdq" },
	{ W_7ECX, 22, 0, "rdpid" },
	{ W_7ECX, 27, 0, "movdiri" },
	{ W_7ECX, 28, 0, "movdir64b" },
	{ W_7EDX, 2, NEED_AVX512, "avx512_4vnniw" },
	{ W_7EDX, 3, NEED_AVX512, "avx512_4fmaps" },
	{ W_7EDX, 4, 0, "fsrm" },
	{ W_7EDX, 8, NEED_AVX512, "avx512_vp2intersect" },
	{ W_7EDX, 14, 0, "serialize" },
	{ W_7EDX, 22, NEED_AMX, "amx_bf16" },
	{ W_7EDX, 23, NEED_AVX512, "avx512_fp16" },
	{ W_7EDX, 24, NEED_AMX, "amx_tile" },
	{ W_7EDX, 25, NEED_AMX, "amx_int8" },
};

/* The state components the OS enabled (XCR0), or 0 without OSXSAVE. */
static uint64_t xcr0(unsigned leaf1_ecx)
{
	unsigned lo, hi;

	if (!(leaf1_ecx & (1u << 27)))
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

static bool state_enabled(uint64_t x, int need)
{
	switch (need) {
	case NEED_AVX:
		return (x & 0x6) == 0x6; /* SSE, AVX */
	case NEED_AVX512:
		return (x & 0xe6) == 0xe6; /* and opmask, ZMM_Hi256, Hi16_ZMM */
	case NEED_AMX:
		return (x & 0x60000) == 0x60000; /* XTILECFG, XTILEDATA */
	default:
		return true;
	}
}

static void cpu_ident(char vendor[13], unsigned *family, unsigned *model, unsigned *stepping,
		      struct sbuf *flags)
{
	unsigned a = 0, bx = 0, c = 0, d = 0, max, ext = 0, w[NWORDS] = { 0 };
	uint64_t x;
	size_t i;

	memset(vendor, 0, 13);
	*family = *model = *stepping = 0;
	if (!__get_cpuid(0, &max, &bx, &c, &d))
		return;
	memcpy(vendor, &bx, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	if (__get_cpuid(1, &a, &bx, &c, &d)) {
		*family = (a >> 8) & 0xf;
		*model = (a >> 4) & 0xf;
		*stepping = a & 0xf;
		if (*family == 0xf)
			*family += (a >> 20) & 0xff;
		if (*family >= 6)
			*model |= ((a >> 16) & 0xf) << 4;
		w[W_1EDX] = d;
		w[W_1ECX] = c;
	}
	if (max >= 7 && __get_cpuid_count(7, 0, &a, &bx, &c, &d)) {
		w[W_7EBX] = bx;
		w[W_7ECX] = c;
		w[W_7EDX] = d;
		if (a >= 1 && __get_cpuid_count(7, 1, &a, &bx, &c, &d))
			w[W_71EAX] = a;
	}
	if (max >= 0xd && __get_cpuid_count(0xd, 1, &a, &bx, &c, &d))
		w[W_D1EAX] = a;
	ext = __get_cpuid_max(0x80000000, NULL);
	if (ext >= 0x80000001 && __get_cpuid(0x80000001, &a, &bx, &c, &d)) {
		w[W_81EDX] = d;
		w[W_81ECX] = c;
	}
	if (ext >= 0x80000007 && __get_cpuid(0x80000007, &a, &bx, &c, &d))
		w[W_87EDX] = d;
	x = xcr0(w[W_1ECX]);
	for (i = 0; i < sizeof(cpu_flags) / sizeof(cpu_flags[0]); i++)
		if ((w[cpu_flags[i].word] & (1U << cpu_flags[i].bit)) &&
		    state_enabled(x, cpu_flags[i].need))
			sb_printf(flags, "%s%s", flags->len ? " " : "", cpu_flags[i].name);
}

static int gen_cpuinfo(const struct pnode *n, struct sbuf *b)
{
	struct sbuf flags = { 0 };
	unsigned family, model, stepping;
	char vendor[13];
	int i, cpus = ncpus();

	(void)n;
	cpu_ident(vendor, &family, &model, &stepping, &flags);
	for (i = 0; i < cpus; i++) {
		sb_printf(b, "processor\t: %d\nvendor_id\t: %s\ncpu family\t: %u\nmodel\t\t: %u\n",
			  i, vendor[0] ? vendor : "unknown", family, model);
		sb_printf(b, "model name\t: skas virtual CPU\nstepping\t: %u\n", stepping);
		sb_printf(b, "cpu MHz\t\t: 1000.000\ncache size\t: 0 KB\nphysical id\t: 0\n");
		sb_printf(b, "siblings\t: %d\ncore id\t\t: %d\ncpu cores\t: %d\n", cpus, i, cpus);
		sb_printf(b, "apicid\t\t: %d\ninitial apicid\t: %d\n", i, i);
		sb_printf(b,
			  "fpu\t\t: yes\nfpu_exception\t: yes\ncpuid level\t: 13\nwp\t\t: yes\n");
		sb_printf(b, "flags\t\t: %s\nbugs\t\t:\nbogomips\t: 2000.00\n",
			  flags.buf ? flags.buf : "");
		sb_printf(b, "clflush size\t: 64\ncache_alignment\t: 64\n"
			     "address sizes\t: 48 bits physical, 48 bits virtual\n"
			     "power management:\n\n");
	}
	free(flags.buf);
	return 0;
}

/* The boot time, in seconds of CLOCK_REALTIME, less the reader's boottime
 * offset (Linux's timens_sub_boottime). */
static int64_t btime_s(void)
{
	int64_t off = current ? timens_to_task(current, LINUX_CLOCK_BOOTTIME, 0) : 0;
	int64_t ns = procfs_boot_real_ns - off;

	return ns >= 0 ? ns / 1000000000 : -((-ns + 999999999) / 1000000000);
}

static unsigned long long ticks(int64_t ns)
{
	return ns > 0 ? (unsigned long long)ns / (1000000000 / USER_HZ) : 0;
}

/* /proc/stat: each guest CPU's user, nice, system and idle time
 * (kernel/cputime.c), the first line their sums; no iowait, irq or
 * steal time. */
static int gen_stat(const struct pnode *n, struct sbuf *b)
{
	int i, cpus = ncpus();
	struct cpu_stat *cs = calloc((size_t)cpus, sizeof(*cs)), sum = { 0 };

	(void)n;
	if (!cs)
		return -ENOMEM;
	cputime_cpu_stat(cpus, uptime_ns(), cs, &sum);
	sb_printf(b, "cpu  %llu %llu %llu %llu 0 0 0 0 0 0\n", ticks(sum.user), ticks(sum.nice),
		  ticks(sum.system), ticks(sum.idle));
	for (i = 0; i < cpus; i++)
		sb_printf(b, "cpu%d %llu %llu %llu %llu 0 0 0 0 0 0\n", i, ticks(cs[i].user),
			  ticks(cs[i].nice), ticks(cs[i].system), ticks(cs[i].idle));
	free(cs);
	sb_printf(b,
		  "intr 0\nctxt %llu\nbtime %lld\nprocesses %d\nprocs_running %d\n"
		  "procs_blocked 0\nsoftirq 0 0 0 0 0 0 0 0 0 0 0\n",
		  (unsigned long long)cputime_ctxt, (long long)btime_s(), procfs_last_pid(),
		  task_nr_active());
	return 0;
}

int64_t procfs_uptime_ns(struct task *t)
{
	/* the reader's boottime offset, as Linux's (the instance's uptime
	 * is shorter than the host's: not below 0) */
	int64_t up = t ? timens_to_task(t, LINUX_CLOCK_BOOTTIME, uptime_ns()) : uptime_ns();

	return up > 0 ? up : 0;
}

/* The uptime and the CPUs' idle time summed (/proc/stat's), in
 * hundredths. */
static int gen_uptime(const struct pnode *n, struct sbuf *b)
{
	struct cpu_stat sum;
	int64_t up = procfs_uptime_ns(current) / 10000000, idle;

	cputime_cpu_stat(ncpus(), uptime_ns(), NULL, &sum);
	idle = sum.idle / 10000000;

	(void)n;
	sb_printf(b, "%lld.%02lld %lld.%02lld\n", (long long)(up / 100), (long long)(up % 100),
		  (long long)(idle / 100), (long long)(idle % 100));
	return 0;
}

/* Linux's proc_cgroupstats_show with the one controller, bound to cgroup
 * v2 (hierarchy 0): the groups of the hierarchy, removed ones not yet
 * freed included. */
static int gen_cgroups(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	cgroup_root_init();
	sb_printf(b, "#subsys_name\thierarchy\tnum_cgroups\tenabled\npids\t0\t%d\t1\n",
		  1 + cgroup_root.nr_descendants + cgroup_root.nr_dying_descendants);
	return 0;
}

static int gen_loadavg(const struct pnode *n, struct sbuf *b)
{
	char avg[64];

	(void)n;
	loadavg_update(sched_now_ns(), 0);
	loadavg_format(avg, sizeof(avg));
	sb_printf(b, "%s %d/%d %d\n", avg, task_nr_active(), task_count(), procfs_last_pid());
	return 0;
}

static int gen_version(const struct pnode *n, struct sbuf *b)
{
	struct linux_utsname u;
	int ret = host_uname(&u);

	(void)n;
	if (ret < 0)
		return ret;
	sb_printf(b, "Linux version %s (skas) %s\n", u.release, u.version);
	return 0;
}

/* The types mount(2) takes inside (vfs/namespace.c), and pipefs as
 * Linux lists its internal ones; not the root's overlay, /dev's devtmpfs
 * or hostfs, which a guest cannot mount (ENODEV): runtimes look here for
 * "overlay" before they try it. */
static int gen_filesystems(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "nodev\tsysfs\nnodev\ttmpfs\nnodev\tproc\nnodev\tcgroup2\nnodev\tpipefs\n"
		     "nodev\tdevpts\n");
	return 0;
}

/* The character devices skas's device nodes open (vfs/devices.c), by
 * driver as Linux's chrdev_show; no block device. */
static int gen_devices(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "Character devices:\n  1 mem\n  5 /dev/tty\n  5 /dev/console\n"
		     "  5 /dev/ptmx\n136 pts\n\nBlock devices:\n");
	return 0;
}

/* No swap, and no disk: /proc/swaps has its header only, /proc/partitions
 * and /proc/diskstats nothing (Linux prints the partitions header with
 * the first disk). */
static int gen_swaps(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	return 0;
}

static int gen_empty(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	(void)b;
	return 0;
}

static int gen_cmdline(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "skas\n");
	return 0;
}

/* hostname and domainname (kernel/uts.c) */
static bool is_domainname(const struct pnode *n)
{
	return strcmp(n->e->name, "domainname") == 0;
}

static int gen_hostname(const struct pnode *n, struct sbuf *b)
{
	sb_printf(b, "%s\n", uts_name(current, is_domainname(n)));
	return 0;
}

/* Linux's proc_dostring: the first line, at most 64 bytes kept. */
static long put_hostname(const struct pnode *n, const char *buf, size_t len)
{
	const char *nl = memchr(buf, '\n', len);
	size_t keep = nl ? (size_t)(nl - buf) : len;

	uts_set_name(current, is_domainname(n), buf, keep > LINUX_UTS_LEN ? LINUX_UTS_LEN : keep);
	return (long)len;
}

static int gen_osrelease(const struct pnode *n, struct sbuf *b)
{
	struct linux_utsname u;
	int ret = host_uname(&u);

	(void)n;
	if (ret < 0)
		return ret;
	sb_printf(b, "%s\n", u.release);
	return 0;
}

static int gen_ostype(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "Linux\n");
	return 0;
}

static int gen_pid_max(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%d\n", PID_MAX);
	return 0;
}

/* kernel.threads-max: the instance's task limit (--pids-max). */
static int gen_threads_max(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%d\n", task_pids_max());
	return 0;
}

/* fs.dir-notify-enable: dnotify (fcntl F_NOTIFY) is there. */
static int gen_one(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "1\n");
	return 0;
}

static int gen_ngroups_max(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%d\n", NGROUPS_MAX_GUEST);
	return 0;
}

static int gen_cap_last_cap(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%d\n", CAP_LAST_CAP);
	return 0;
}

static int gen_nr_open(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%d\n", 1024 * 1024);
	return 0;
}

/* fs.file-max: the instance's cap on open files (ENFILE past it), and
 * fs.file-nr: the files open, 0 free, the cap (Linux's format). */
static int gen_file_max(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%ld\n", files_max_get());
	return 0;
}

static int gen_file_nr(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%ld\t0\t%ld\n", files_nr_open(), files_max_get());
	return 0;
}

/* A random (version 4) UUID as Linux's proc_do_uuid writes it. */
static void put_uuid(struct sbuf *b, uint8_t u[16])
{
	int i;

	u[6] = (uint8_t)((u[6] & 0x0f) | 0x40);
	u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
	for (i = 0; i < 16; i++)
		sb_printf(b, "%02x%s", u[i], i == 3 || i == 5 || i == 7 || i == 9 ? "-" : "");
	sb_printf(b, "\n");
}

/* kernel.random.uuid: a new one at each read (shell scripts make UUIDs
 * with it: cat said ENOENT); boot_id: one for the instance. */
static int gen_random_uuid(const struct pnode *n, struct sbuf *b)
{
	static uint8_t boot_id[16];
	static bool have_boot_id;
	uint8_t u[16];
	int ret;

	if (strcmp(n->e->name, "boot_id") == 0) {
		if (!have_boot_id) {
			ret = host_getrandom(boot_id, sizeof(boot_id));
			if (ret < 0)
				return ret;
			have_boot_id = true;
		}
		memcpy(u, boot_id, sizeof(u));
	} else {
		ret = host_getrandom(u, sizeof(u));
		if (ret < 0)
			return ret;
	}
	put_uuid(b, u);
	return 0;
}

static int gen_max_map_count(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%d\n", mm_max_map_count());
	return 0;
}

static int gen_pipe_max_size(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%u\n", pipe_max_size);
	return 0;
}

static int gen_inotify_max_queued(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%d\n", INOTIFY_MAX_QUEUED_EVENTS);
	return 0;
}

static int gen_inotify_max_instances(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%d\n", INOTIFY_MAX_USER_INSTANCES);
	return 0;
}

static int gen_inotify_max_watches(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%d\n", INOTIFY_MAX_USER_WATCHES);
	return 0;
}

static void locks_line(void *ctx, const char *line)
{
	sb_printf(ctx, "%s", line);
}

static int gen_locks(const struct pnode *n, struct sbuf *b)
{
	locks_proc_show(n->ns, locks_line, b);
	return 0;
}

static bool sysctl_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

#define SYSCTL_NUMLEN 22 /* Linux's TMPBUFLEN */

/* Linux's strtoul_lenient in base 0: "0x" and a hex digit, "0", or
 * decimal; false when the value overflows. */
static bool parse_ull0(char *p, unsigned long long *out, char **end)
{
	unsigned base = 10, d;
	unsigned long long v = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	    ((p[2] >= '0' && p[2] <= '9') || ((p[2] | 0x20) >= 'a' && (p[2] | 0x20) <= 'f'))) {
		base = 16;
		p += 2;
	} else if (p[0] == '0') {
		base = 8;
	}
	for (;; p++) {
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')
			d = (unsigned)((*p | 0x20) - 'a' + 10);
		else
			break;
		if (d >= base)
			break;
		if (v > (~0ULL - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	*end = p;
	return true;
}

/* An integer sysctl's value from 0 to INT_MAX as Linux's proc_dointvec
 * takes it from a write of *len bytes: white space first, a number in
 * C's notation (010 is 8, 0x10 is 16; "-0" is 0) that only a space, tab
 * or newline may follow, then white space, which it takes too. The
 * value, with *len the bytes taken (fewer than written when a second
 * value follows: the write returns them), or -EINVAL. */
/* How a sysctl number may have a minus: none (proc_doulongvec_minmax),
 * only before 0 (proc_dointvec_minmax from 0), any (proc_dointvec). */
enum { MINUS_NONE, MINUS_ZERO, MINUS_ANY };

/* One number of a sysctl write, at most max (a negative one at most
 * max + 1 below 0: *neg says it). *len becomes what it took, blanks after
 * it included. */
static int parse_sysctl_num(const char *buf, size_t *len, unsigned long long max, int minus,
			    unsigned long long *out, bool *negp)
{
	char tmp[SYSCTL_NUMLEN], *p = tmp, *end;
	unsigned long long v;
	size_t i = 0, n;
	bool neg = false;

	while (i < *len && sysctl_space(buf[i]))
		i++;
	if (i == *len || (buf[i] == '-' && minus == MINUS_NONE))
		return -EINVAL;
	n = *len - i < SYSCTL_NUMLEN - 1 ? *len - i : SYSCTL_NUMLEN - 1;
	memcpy(tmp, buf + i, n);
	tmp[n] = 0;
	if (*p == '-' && *len - i > 1) {
		neg = true;
		p++;
	}
	if (*p < '0' || *p > '9')
		return -EINVAL;
	if (!parse_ull0(p, &v, &end) || (size_t)(end - tmp) == SYSCTL_NUMLEN - 1)
		return -EINVAL;
	n = (size_t)(end - tmp);
	if (i + n < *len && buf[i + n] != ' ' && buf[i + n] != '\t' && buf[i + n] != '\n')
		return -EINVAL;
	if ((neg && v != 0 && minus != MINUS_ANY) || v > max + neg)
		return -EINVAL;
	for (i += n; i < *len && sysctl_space(buf[i]); i++)
		;
	*len = i;
	*out = v;
	if (negp)
		*negp = neg;
	return 0;
}

static long parse_sysctl_int(const char *buf, size_t *len)
{
	unsigned long long v;
	int ret = parse_sysctl_num(buf, len, 0x7fffffff, MINUS_ZERO, &v, NULL);

	return ret < 0 ? ret : (long)v;
}

/* proc_dointvec's write of up to nv ints (negative ones too) into v, the
 * rest kept: what it took (a number past the nv-th is left), or -EINVAL
 * (v then as far as it got). */
static long parse_sysctl_ints(const char *buf, size_t len, int nv, int *v)
{
	size_t at = 0, n;
	unsigned long long u;
	bool neg;
	int k, ret;

	for (k = 0; k < nv && at < len; k++) {
		n = len - at;
		ret = parse_sysctl_num(buf + at, &n, 0x7fffffff, MINUS_ANY, &u, &neg);
		if (ret < 0)
			return ret; /* (blanks after a number were taken with it) */
		v[k] = !neg ? (int)u : u ? -(int)(u - 1) - 1 : 0;
		at += n;
	}
	return (long)at;
}

/* kernel.ns_last_pid: the number the reader's pid namespace handed out
 * last; a write sets it (the next fork takes the number after it, if
 * free), with CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE over the namespace
 * (Linux's pid_ns_ctl_handler: asked before the value is read), from 0
 * to pid_max. The file is 0666. */
static int gen_ns_last_pid(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%d\n", current ? task_pid_ns(current)->last : init_pid_ns.last);
	return 0;
}

static long put_ns_last_pid(const struct pnode *n, const char *buf, size_t len)
{
	struct pid_ns *ns;
	long v;

	(void)n;
	if (!current)
		return -EPERM;
	ns = task_pid_ns(current);
	if (!ns_capable(&current->proc->cred, ns_owner(&ns->ns), CAP_SYS_ADMIN) &&
	    !ns_capable(&current->proc->cred, ns_owner(&ns->ns), CAP_CHECKPOINT_RESTORE))
		return -EPERM;
	if (len == 0)
		return 0;
	v = parse_sysctl_int(buf, &len);
	if (v < 0)
		return v;
	if (v > PID_MAX)
		return -EINVAL;
	ns->last = (int)v;
	return (long)len;
}

static int gen_ping_range(const struct pnode *n, struct sbuf *b)
{
	uint32_t r[2];

	(void)n;
	icmp_ping_range(r);
	sb_printf(b, "%u\t%u\n", r[0], r[1]);
	return 0;
}

/* nv numbers as proc_dointvec takes them for a vector: blanks between,
 * those not given stay as cur's; each at most INT_MAX. Differs from
 * Linux: no negative number (those vectors take them, to no use). */
static int parse_ints(const char *buf, size_t len, int nv, const long *cur, long *v)
{
	size_t i = 0;
	int k;

	for (k = 0; k < nv; k++)
		v[k] = cur[k];
	for (k = 0; k < nv; k++) {
		while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n'))
			i++;
		if (i == len && k > 0)
			break;
		if (i == len || buf[i] < '0' || buf[i] > '9')
			return -EINVAL;
		for (v[k] = 0; i < len && buf[i] >= '0' && buf[i] <= '9'; i++) {
			v[k] = v[k] * 10 + (buf[i] - '0');
			if (v[k] > 0x7fffffff)
				return -EINVAL;
		}
	}
	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n'))
		i++;
	return i == len ? 0 : -EINVAL;
}

/* net.ipv4.ping_group_range: two gids, each at most GID_T_MAX */
static long put_ping_range(const struct pnode *n, const char *buf, size_t len)
{
	uint32_t cur[2];
	long c[2], v[2];
	int ret;

	(void)n;
	icmp_ping_range(cur);
	c[0] = cur[0];
	c[1] = cur[1];
	ret = parse_ints(buf, len, 2, c, v);
	if (ret == 0)
		ret = icmp_set_ping_range(v[0], v[1]);
	return ret < 0 ? ret : (long)len;
}

/* net.core.somaxconn (proc_dointvec_minmax from 0) */
static int gen_somaxconn(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%d\n", sock_somaxconn);
	return 0;
}

static long put_somaxconn(const struct pnode *n, const char *buf, size_t len)
{
	long v = parse_sysctl_int(buf, &len);

	(void)n;
	if (v < 0)
		return v;
	sock_somaxconn = (int)v;
	return (long)len;
}

/* net.ipv4.ip_local_port_range: two numbers, as ping_group_range's */
static int gen_port_range(const struct pnode *n, struct sbuf *b)
{
	int r[2];

	(void)n;
	inet_local_port_range(r);
	sb_printf(b, "%d\t%d\n", r[0], r[1]);
	return 0;
}

static long put_port_range(const struct pnode *n, const char *buf, size_t len)
{
	int cur[2];
	long c[2], v[2];
	int ret;

	(void)n;
	inet_local_port_range(cur);
	c[0] = cur[0];
	c[1] = cur[1];
	ret = parse_ints(buf, len, 2, c, v);
	if (ret == 0)
		ret = inet_set_local_port_range((int)v[0], (int)v[1]);
	return ret < 0 ? ret : (long)len;
}

/* kernel.randomize_va_space (kernel/exec.h) */
static int gen_randomize_va(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%d\n", randomize_va_space);
	return 0;
}

static long put_randomize_va(const struct pnode *n, const char *buf, size_t len)
{
	(void)n;
	return parse_sysctl_ints(buf, len, 1, &randomize_va_space);
}

/* vm.max_map_count (the file is root's: mode 0644). */
static long put_max_map_count(const struct pnode *n, const char *buf, size_t len)
{
	long v = parse_sysctl_int(buf, &len);

	(void)n;
	if (v < 0)
		return v;
	mm_set_max_map_count((int)v);
	return (long)len;
}

static uint32_t *overflow_id(const struct pnode *n)
{
	return strcmp(n->e->name, "overflowuid") == 0 ? &overflowuid : &overflowgid;
}

static int gen_overflow_id(const struct pnode *n, struct sbuf *b)
{
	sb_printf(b, "%u\n", *overflow_id(n));
	return 0;
}

/* kernel.overflowuid and overflowgid: 0 to 65535 (Linux's minolduid and
 * maxolduid), else EINVAL. */
static long put_overflow_id(const struct pnode *n, const char *buf, size_t len)
{
	long v = parse_sysctl_int(buf, &len);

	if (v < 0)
		return v;
	if (v > 65535)
		return -EINVAL;
	*overflow_id(n) = (uint32_t)v;
	return (long)len;
}

/* fs.aio-nr and fs.aio-max-nr (vfs/aio.c): the events io_setup has
 * given out and the most it may (root may change it: an unsigned long). */
static int gen_aio_nr(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%llu\n", (unsigned long long)aio_nr_now());
	return 0;
}

static int gen_aio_max_nr(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%llu\n", (unsigned long long)aio_max_nr());
	return 0;
}

static long put_aio_max_nr(const struct pnode *n, const char *buf, size_t len)
{
	long v = parse_sysctl_int(buf, &len);

	(void)n;
	if (v < 0)
		return v;
	aio_set_max_nr((uint64_t)v);
	return (long)len;
}

/* user.max_TYPE_namespaces: the type from the name (NS_NTYPES for none,
 * whose limit is 0). */
static enum ns_type ns_max_type(const struct pnode *n)
{
	char name[32];
	int i;

	for (i = 0; i < NS_NTYPES; i++) {
		snprintf(name, sizeof(name), "max_%s_namespaces", ns_type_name(i));
		if (strcmp(n->e->name, name) == 0)
			break;
	}
	return (enum ns_type)i;
}

static int gen_ns_max(const struct pnode *n, struct sbuf *b)
{
	sb_printf(b, "%d\n", ns_max(ns_max_type(n)));
	return 0;
}

/* Partial: skas counts no namespaces, so a limit stays what it is (the
 * value it holds may be written back); any other is EINVAL. */
static long put_ns_max(const struct pnode *n, const char *buf, size_t len)
{
	long v = parse_sysctl_int(buf, &len);

	if (v < 0)
		return v;
	return v == ns_max(ns_max_type(n)) ? (long)len : -EINVAL;
}

static int gen_core_pattern(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%s\n", coredump_pattern());
	return 0;
}

static long put_core_pattern(const struct pnode *n, const char *buf, size_t len)
{
	int ret = coredump_set_pattern(buf, len);

	(void)n;
	return ret < 0 ? ret : (long)len;
}

static int gen_overcommit(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "%d\n", mem_overcommit());
	return 0;
}

/* vm.overcommit_memory: 0 or 2 (mm/commit.h; 1 is EINVAL). */
static long put_overcommit(const struct pnode *n, const char *buf, size_t len)
{
	long v = parse_sysctl_int(buf, &len);

	(void)n;
	if (v < 0)
		return v;
	v = mem_set_overcommit(v > 2 ? -1 : (int)v);
	return v < 0 ? v : (long)len;
}

/* The caller's numbers in the mount's namespace: none (ENOENT) from a
 * namespace above it. */
static int target_self(const struct pnode *n, struct sbuf *b)
{
	if (!current || !procfs_nr(n, current->proc->pid))
		return -ENOENT;
	sb_printf(b, "%d", procfs_nr(n, current->proc->pid));
	return 0;
}

static int target_thread_self(const struct pnode *n, struct sbuf *b)
{
	if (!current || !procfs_nr(n, current->proc->pid))
		return -ENOENT;
	sb_printf(b, "%d/task/%d", procfs_nr(n, current->proc->pid), procfs_nr(n, current->tid));
	return 0;
}

static int target_mounts(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "self/mounts");
	return 0;
}

static int target_net(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "self/net");
	return 0;
}

#define DIR_R  (LINUX_S_IFDIR | 0555)
#define FILE_R (LINUX_S_IFREG | 0444)
#define FILE_W (LINUX_S_IFREG | 0644)
#define LINK   (LINUX_S_IFLNK | 0777)

/* Ids of the system-wide entries (their inode numbers). */
enum {
	G_ROOT = 1,
	G_SELF,
	G_THREAD_SELF,
	G_MEMINFO,
	G_CPUINFO,
	G_STAT,
	G_UPTIME,
	G_LOADAVG,
	G_VERSION,
	G_FILESYSTEMS,
	G_MOUNTS,
	G_CMDLINE,
	G_SYS,
	G_SYS_KERNEL,
	G_HOSTNAME,
	G_DOMAINNAME,
	G_OSRELEASE,
	G_OSTYPE,
	G_PID_MAX,
	G_THREADS_MAX,
	G_DIR_NOTIFY,
	G_NGROUPS_MAX,
	G_OVERFLOWUID,
	G_OVERFLOWGID,
	G_SYS_USER,
	G_AIO_NR,
	G_AIO_MAX_NR,
	G_USER_INOTIFY_INSTANCES,
	G_USER_INOTIFY_WATCHES,
	G_MAX_CGROUP_NS,
	G_MAX_IPC_NS,
	G_MAX_MNT_NS,
	G_MAX_NET_NS,
	G_MAX_PID_NS,
	G_MAX_TIME_NS,
	G_MAX_USER_NS,
	G_MAX_UTS_NS,
	G_CAP_LAST_CAP,
	G_SYS_VM,
	G_OVERCOMMIT,
	G_CORE_PATTERN,
	G_MAX_MAP_COUNT,
	G_SYS_FS,
	G_NR_OPEN,
	G_VMSTAT,
	G_SYSVIPC,
	G_SYSVIPC_SHM,
	G_SYSVIPC_SEM,
	G_SYSVIPC_MSG,
	G_PIPE_MAX_SIZE,
	G_LOCKS,
	G_SYS_FS_INOTIFY,
	G_INOTIFY_MAX_QUEUED,
	G_INOTIFY_MAX_INSTANCES,
	G_INOTIFY_MAX_WATCHES,
	G_FILE_MAX,
	G_FILE_NR,
	G_SYS_KERNEL_RANDOM,
	G_RANDOM_UUID,
	G_RANDOM_BOOT_ID,
	G_NET,
	G_SYS_NET,
	G_SYS_NET_IPV4,
	G_PING_GROUP_RANGE,
	G_SYS_NET_CORE,
	G_SOMAXCONN,
	G_IP_LOCAL_PORT_RANGE,
	G_RANDOM_ENTROPY_AVAIL,
	G_RANDOM_POOLSIZE,
	G_SYS_KERNEL_PTY,
	G_PTY_MAX,
	G_PTY_RESERVE,
	G_PTY_NR,
	G_NS_LAST_PID,
	G_CGROUPS,
	G_DEVICES,
	G_SWAPS,
	G_PARTITIONS,
	G_DISKSTATS,
	G_SHMMAX,
	G_SHMALL,
	G_SHMMNI,
	G_MSGMAX,
	G_MSGMNB,
	G_MSGMNI,
	G_SEM,
	G_SYS_FS_MQUEUE,
	G_MQ_QUEUES_MAX,
	G_MQ_MSG_MAX,
	G_MQ_MSGSIZE_MAX,
	G_MQ_MSG_DEFAULT,
	G_MQ_MSGSIZE_DEFAULT,
	G_RANDOMIZE_VA,
	G_LEASE_BREAK_TIME,
	G_LEASES_ENABLE,
};

/* The reader's IPC namespace's limits (ipc/ipc.h): kernel.shmmax and
 * shmall (proc_doulongvec_minmax), shmmni, msgmax, msgmnb, msgmni
 * (proc_dointvec_minmax: the counts of objects to IPCMNI), kernel.sem
 * (SEMMSL SEMMNS SEMOPM SEMMNI; SEMMNI to IPCMNI), fs.mqueue.* (their
 * bounds from Linux's mq_sysctl.c: queues_max has none). */
#define IPC_MNI_MAX	  32768
#define MQ_MIN_MSGSIZEMAX 128

static struct ipc_ns *sysctl_ipc_ns(void)
{
	return ipc_ns_of(current);
}

static int *ipc_int(struct ipc_ns *ns, int id, long *lo, long *hi)
{
	*lo = 0;
	*hi = 0x7fffffff;
	switch (id) {
	case G_SHMMNI:
		*hi = IPC_MNI_MAX;
		return &ns->shm_ids.mni;
	case G_MSGMNI:
		*hi = IPC_MNI_MAX;
		return &ns->msg_ids.mni;
	case G_MSGMAX:
		return &ns->msg_ctlmax;
	case G_MSGMNB:
		return &ns->msg_ctlmnb;
	case G_MQ_QUEUES_MAX:
		return &ns->mq_queues_max;
	case G_MQ_MSG_MAX:
	case G_MQ_MSG_DEFAULT:
		*lo = 1;
		*hi = LINUX_HARD_MSGMAX;
		return id == G_MQ_MSG_MAX ? &ns->mq_msg_max : &ns->mq_msg_default;
	default:
		*lo = MQ_MIN_MSGSIZEMAX;
		*hi = LINUX_HARD_MSGSIZEMAX;
		return id == G_MQ_MSGSIZE_MAX ? &ns->mq_msgsize_max : &ns->mq_msgsize_default;
	}
}

static int gen_ipc_sysctl(const struct pnode *n, struct sbuf *b)
{
	struct ipc_ns *ns = sysctl_ipc_ns();
	long lo, hi;

	switch (n->e->id) {
	case G_SHMMAX:
	case G_SHMALL:
		sb_printf(b, "%llu\n",
			  (unsigned long long)(n->e->id == G_SHMMAX ? ns->shm_ctlmax
								    : ns->shm_ctlall));
		break;
	case G_SEM:
		sb_printf(b, "%d\t%d\t%d\t%d\n", ns->sem_ctlmsl, ns->sem_ctlmns, ns->sem_ctlopm,
			  ns->sem_ids.mni);
		break;
	default:
		sb_printf(b, "%d\n", *ipc_int(ns, n->e->id, &lo, &hi));
	}
	return 0;
}

static long put_ipc_sysctl(const struct pnode *n, const char *buf, size_t len)
{
	struct ipc_ns *ns = sysctl_ipc_ns();
	unsigned long long u;
	long lo, hi, v, r;
	int ret, *p, sem[4];

	switch (n->e->id) {
	case G_SHMMAX:
	case G_SHMALL:
		ret = parse_sysctl_num(buf, &len, UINT64_MAX, MINUS_NONE, &u, NULL);
		if (ret < 0)
			return ret;
		*(n->e->id == G_SHMMAX ? &ns->shm_ctlmax : &ns->shm_ctlall) = u;
		return (long)len;
	case G_SEM:
		/* proc_ipc_sem_dointvec: what was taken stays, but for a
		 * SEMMNI out of [0, IPCMNI] (ERANGE) */
		sem[0] = ns->sem_ctlmsl;
		sem[1] = ns->sem_ctlmns;
		sem[2] = ns->sem_ctlopm;
		sem[3] = ns->sem_ids.mni;
		r = parse_sysctl_ints(buf, len, 4, sem);
		ns->sem_ctlmsl = sem[0];
		ns->sem_ctlmns = sem[1];
		ns->sem_ctlopm = sem[2];
		if (r >= 0 && (sem[3] < 0 || sem[3] > IPC_MNI_MAX))
			return -ERANGE;
		ns->sem_ids.mni = sem[3];
		return r;
	case G_MQ_QUEUES_MAX: /* proc_dointvec: any int */
		return parse_sysctl_ints(buf, len, 1, &ns->mq_queues_max);
	default:
		p = ipc_int(ns, n->e->id, &lo, &hi);
		v = parse_sysctl_int(buf, &len);
		if (v < 0)
			return v;
		if (v < lo || v > hi)
			return -EINVAL;
		*p = (int)v;
		return (long)len;
	}
}

static void sb_emit(void *arg, const char *line)
{
	sb_put(arg, line, strlen(line));
}

static int gen_sysvipc(const struct pnode *n, struct sbuf *b)
{
	switch (n->e->id) {
	case G_SYSVIPC_SHM:
		shm_proc_show(sb_emit, b);
		break;
	case G_SYSVIPC_SEM:
		sem_proc_show(sb_emit, b);
		break;
	default:
		msg_proc_show(sb_emit, b);
	}
	return 0;
}

static const struct pentry sysvipc[] = {
	{ .name = "msg", .id = G_SYSVIPC_MSG, .mode = FILE_R, .gen = gen_sysvipc },
	{ .name = "sem", .id = G_SYSVIPC_SEM, .mode = FILE_R, .gen = gen_sysvipc },
	{ .name = "shm", .id = G_SYSVIPC_SHM, .mode = FILE_R, .gen = gen_sysvipc },
	{ 0 },
};

/* kernel.random.entropy_avail and poolsize: Linux 5.18's pool, always
 * full once seeded (skas's randomness is the host's getrandom). */
static int gen_random_256(const struct pnode *n, struct sbuf *b)
{
	(void)n;
	sb_printf(b, "256\n");
	return 0;
}

static const struct pentry sys_kernel_random[] = {
	{ .name = "boot_id", .id = G_RANDOM_BOOT_ID, .mode = FILE_R, .gen = gen_random_uuid },
	{ .name = "entropy_avail",
	  .id = G_RANDOM_ENTROPY_AVAIL,
	  .mode = FILE_R,
	  .gen = gen_random_256 },
	{ .name = "poolsize", .id = G_RANDOM_POOLSIZE, .mode = FILE_R, .gen = gen_random_256 },
	{ .name = "uuid", .id = G_RANDOM_UUID, .mode = FILE_R, .gen = gen_random_uuid },
	{ 0 },
};

/* kernel.pty: max and reserve (0 to INT_MAX), nr. */
static int gen_pty(const struct pnode *n, struct sbuf *b)
{
	sb_printf(b, "%d\n",
		  n->e->id == G_PTY_MAX	      ? pty_max()
		  : n->e->id == G_PTY_RESERVE ? pty_reserve()
					      : pty_nr());
	return 0;
}

static long put_pty(const struct pnode *n, const char *buf, size_t len)
{
	long v = parse_sysctl_int(buf, &len);
	int ret;

	if (v < 0)
		return v;
	ret = n->e->id == G_PTY_MAX ? pty_set_max(v) : pty_set_reserve(v);
	return ret < 0 ? ret : (long)len;
}

static const struct pentry sys_kernel_pty[] = {
	{ .name = "max",
	  .id = G_PTY_MAX,
	  .mode = FILE_W,
	  .gen = gen_pty,
	  .put = put_pty,
	  .int_sysctl = true },
	{ .name = "nr", .id = G_PTY_NR, .mode = FILE_R, .gen = gen_pty },
	{ .name = "reserve",
	  .id = G_PTY_RESERVE,
	  .mode = FILE_W,
	  .gen = gen_pty,
	  .put = put_pty,
	  .int_sysctl = true },
	{ 0 },
};

#define IPC_SYSCTL(name_, id_, is_int)                                           \
	{                                                                        \
		.name = name_, .id = id_, .mode = FILE_W, .gen = gen_ipc_sysctl, \
		.put = put_ipc_sysctl, .int_sysctl = is_int                      \
	}

static const struct pentry sys_kernel[] = {
	{ .name = "cap_last_cap", .id = G_CAP_LAST_CAP, .mode = FILE_R, .gen = gen_cap_last_cap },
	{ .name = "core_pattern",
	  .id = G_CORE_PATTERN,
	  .mode = FILE_W,
	  .gen = gen_core_pattern,
	  .put = put_core_pattern },
	{ .name = "domainname",
	  .id = G_DOMAINNAME,
	  .mode = FILE_W,
	  .gen = gen_hostname,
	  .put = put_hostname },
	{ .name = "hostname",
	  .id = G_HOSTNAME,
	  .mode = FILE_W,
	  .gen = gen_hostname,
	  .put = put_hostname },
	IPC_SYSCTL("msgmax", G_MSGMAX, true),
	IPC_SYSCTL("msgmnb", G_MSGMNB, true),
	IPC_SYSCTL("msgmni", G_MSGMNI, true),
	{ .name = "ngroups_max", .id = G_NGROUPS_MAX, .mode = FILE_R, .gen = gen_ngroups_max },
	{ .name = "osrelease", .id = G_OSRELEASE, .mode = FILE_R, .gen = gen_osrelease },
	{ .name = "ostype", .id = G_OSTYPE, .mode = FILE_R, .gen = gen_ostype },
	{ .name = "overflowgid",
	  .id = G_OVERFLOWGID,
	  .mode = FILE_W,
	  .gen = gen_overflow_id,
	  .put = put_overflow_id,
	  .int_sysctl = true },
	{ .name = "overflowuid",
	  .id = G_OVERFLOWUID,
	  .mode = FILE_W,
	  .gen = gen_overflow_id,
	  .put = put_overflow_id,
	  .int_sysctl = true },
	{ .name = "ns_last_pid",
	  .id = G_NS_LAST_PID,
	  .mode = LINUX_S_IFREG | 0666,
	  .gen = gen_ns_last_pid,
	  .put = put_ns_last_pid,
	  .int_sysctl = true,
	  .put_empty = true },
	{ .name = "pid_max", .id = G_PID_MAX, .mode = FILE_W, .gen = gen_pid_max },
	{ .name = "randomize_va_space",
	  .id = G_RANDOMIZE_VA,
	  .mode = FILE_W,
	  .gen = gen_randomize_va,
	  .put = put_randomize_va,
	  .int_sysctl = true },
	{ .name = "pty",
	  .id = G_SYS_KERNEL_PTY,
	  .mode = DIR_R,
	  .children = sys_kernel_pty,
	  .sysctl = true },
	{ .name = "threads-max", .id = G_THREADS_MAX, .mode = FILE_W, .gen = gen_threads_max },
	{ .name = "random",
	  .id = G_SYS_KERNEL_RANDOM,
	  .mode = DIR_R,
	  .children = sys_kernel_random,
	  .sysctl = true },
	IPC_SYSCTL("sem", G_SEM, true),
	IPC_SYSCTL("shmall", G_SHMALL, true),
	IPC_SYSCTL("shmmax", G_SHMMAX, true),
	IPC_SYSCTL("shmmni", G_SHMMNI, true),
	{ 0 },
};

#define NS_MAX(type, id_)                                                                        \
	{                                                                                        \
		.name = "max_" type "_namespaces", .id = id_, .mode = FILE_W, .gen = gen_ns_max, \
		.put = put_ns_max, .int_sysctl = true                                            \
	}

/* /proc/sys/user: the limits Linux keeps per user namespace (skas's one). */
static const struct pentry sys_user[] = {
	NS_MAX("cgroup", G_MAX_CGROUP_NS),
	{ .name = "max_inotify_instances",
	  .id = G_USER_INOTIFY_INSTANCES,
	  .mode = FILE_W,
	  .gen = gen_inotify_max_instances },
	{ .name = "max_inotify_watches",
	  .id = G_USER_INOTIFY_WATCHES,
	  .mode = FILE_W,
	  .gen = gen_inotify_max_watches },
	NS_MAX("ipc", G_MAX_IPC_NS),
	NS_MAX("mnt", G_MAX_MNT_NS),
	NS_MAX("net", G_MAX_NET_NS),
	NS_MAX("pid", G_MAX_PID_NS),
	NS_MAX("time", G_MAX_TIME_NS),
	NS_MAX("user", G_MAX_USER_NS),
	NS_MAX("uts", G_MAX_UTS_NS),
	{ 0 },
};

static const struct pentry sys_vm[] = {
	{ .name = "max_map_count",
	  .id = G_MAX_MAP_COUNT,
	  .mode = FILE_W,
	  .gen = gen_max_map_count,
	  .put = put_max_map_count,
	  .int_sysctl = true },
	{ .name = "overcommit_memory",
	  .id = G_OVERCOMMIT,
	  .mode = FILE_W,
	  .gen = gen_overcommit,
	  .put = put_overcommit,
	  .int_sysctl = true },
	{ 0 },
};

static const struct pentry sys_fs_inotify[] = {
	{ .name = "max_queued_events",
	  .id = G_INOTIFY_MAX_QUEUED,
	  .mode = FILE_W,
	  .gen = gen_inotify_max_queued },
	{ .name = "max_user_instances",
	  .id = G_INOTIFY_MAX_INSTANCES,
	  .mode = FILE_W,
	  .gen = gen_inotify_max_instances },
	{ .name = "max_user_watches",
	  .id = G_INOTIFY_MAX_WATCHES,
	  .mode = FILE_W,
	  .gen = gen_inotify_max_watches },
	{ 0 },
};

static const struct pentry sys_fs_mqueue[] = {
	IPC_SYSCTL("msg_default", G_MQ_MSG_DEFAULT, true),
	IPC_SYSCTL("msg_max", G_MQ_MSG_MAX, true),
	IPC_SYSCTL("msgsize_default", G_MQ_MSGSIZE_DEFAULT, true),
	IPC_SYSCTL("msgsize_max", G_MQ_MSGSIZE_MAX, true),
	IPC_SYSCTL("queues_max", G_MQ_QUEUES_MAX, true),
	{ 0 },
};

/* fs.lease-break-time and fs.leases-enable (vfs/lease.h): proc_dointvec,
 * files of root's (0644). */
static int *lease_sysctl(const struct pnode *n)
{
	return n->e->id == G_LEASES_ENABLE ? &leases_enable : &lease_break_time;
}

static int gen_lease_sysctl(const struct pnode *n, struct sbuf *b)
{
	sb_printf(b, "%d\n", *lease_sysctl(n));
	return 0;
}

static long put_lease_sysctl(const struct pnode *n, const char *buf, size_t len)
{
	return parse_sysctl_ints(buf, len, 1, lease_sysctl(n));
}

static const struct pentry sys_fs[] = {
	{ .name = "aio-max-nr",
	  .id = G_AIO_MAX_NR,
	  .mode = FILE_W,
	  .gen = gen_aio_max_nr,
	  .put = put_aio_max_nr,
	  .int_sysctl = true },
	{ .name = "aio-nr", .id = G_AIO_NR, .mode = FILE_R, .gen = gen_aio_nr },
	{ .name = "dir-notify-enable", .id = G_DIR_NOTIFY, .mode = FILE_W, .gen = gen_one },
	{ .name = "file-max", .id = G_FILE_MAX, .mode = FILE_R, .gen = gen_file_max },
	{ .name = "file-nr", .id = G_FILE_NR, .mode = FILE_R, .gen = gen_file_nr },
	{ .name = "inotify",
	  .id = G_SYS_FS_INOTIFY,
	  .mode = DIR_R,
	  .children = sys_fs_inotify,
	  .sysctl = true },
	{ .name = "lease-break-time",
	  .id = G_LEASE_BREAK_TIME,
	  .mode = FILE_W,
	  .gen = gen_lease_sysctl,
	  .put = put_lease_sysctl,
	  .int_sysctl = true },
	{ .name = "leases-enable",
	  .id = G_LEASES_ENABLE,
	  .mode = FILE_W,
	  .gen = gen_lease_sysctl,
	  .put = put_lease_sysctl,
	  .int_sysctl = true },
	{ .name = "mqueue",
	  .id = G_SYS_FS_MQUEUE,
	  .mode = DIR_R,
	  .children = sys_fs_mqueue,
	  .sysctl = true },
	{ .name = "nr_open", .id = G_NR_OPEN, .mode = FILE_W, .gen = gen_nr_open },
	{ .name = "pipe-max-size",
	  .id = G_PIPE_MAX_SIZE,
	  .mode = FILE_W,
	  .gen = gen_pipe_max_size },
	{ 0 },
};

static const struct pentry sys_net_core[] = {
	{ .name = "somaxconn",
	  .id = G_SOMAXCONN,
	  .mode = FILE_W,
	  .gen = gen_somaxconn,
	  .put = put_somaxconn,
	  .int_sysctl = true },
	{ 0 },
};

static const struct pentry sys_net_ipv4[] = {
	{ .name = "ip_local_port_range",
	  .id = G_IP_LOCAL_PORT_RANGE,
	  .mode = FILE_W,
	  .gen = gen_port_range,
	  .put = put_port_range },
	{ .name = "ping_group_range",
	  .id = G_PING_GROUP_RANGE,
	  .mode = FILE_W,
	  .gen = gen_ping_range,
	  .put = put_ping_range },
	{ 0 },
};

static const struct pentry sys_net[] = {
	{ .name = "core",
	  .id = G_SYS_NET_CORE,
	  .mode = DIR_R,
	  .children = sys_net_core,
	  .sysctl = true },
	{ .name = "ipv4",
	  .id = G_SYS_NET_IPV4,
	  .mode = DIR_R,
	  .children = sys_net_ipv4,
	  .sysctl = true },
	{ 0 },
};

const struct pentry procfs_sys_children[] = {
	{ .name = "fs", .id = G_SYS_FS, .mode = DIR_R, .children = sys_fs, .sysctl = true },
	{ .name = "kernel",
	  .id = G_SYS_KERNEL,
	  .mode = DIR_R,
	  .children = sys_kernel,
	  .sysctl = true },
	{ .name = "net", .id = G_SYS_NET, .mode = DIR_R, .children = sys_net, .sysctl = true },
	{ .name = "user", .id = G_SYS_USER, .mode = DIR_R, .children = sys_user, .sysctl = true },
	{ .name = "vm", .id = G_SYS_VM, .mode = DIR_R, .children = sys_vm, .sysctl = true },
	{ 0 },
};

static const struct pentry root_children[] = {
	{ .name = "cgroups", .id = G_CGROUPS, .mode = FILE_R, .gen = gen_cgroups },
	{ .name = "cmdline", .id = G_CMDLINE, .mode = FILE_R, .gen = gen_cmdline },
	{ .name = "cpuinfo", .id = G_CPUINFO, .mode = FILE_R, .gen = gen_cpuinfo },
	{ .name = "devices", .id = G_DEVICES, .mode = FILE_R, .gen = gen_devices },
	{ .name = "diskstats", .id = G_DISKSTATS, .mode = FILE_R, .gen = gen_empty },
	{ .name = "filesystems", .id = G_FILESYSTEMS, .mode = FILE_R, .gen = gen_filesystems },
	{ .name = "loadavg", .id = G_LOADAVG, .mode = FILE_R, .gen = gen_loadavg },
	{ .name = "locks", .id = G_LOCKS, .mode = FILE_R, .gen = gen_locks },
	{ .name = "meminfo", .id = G_MEMINFO, .mode = FILE_R, .gen = gen_meminfo },
	{ .name = "mounts", .id = G_MOUNTS, .mode = LINK, .target = target_mounts },
	{ .name = "net", .id = G_NET, .mode = LINK, .target = target_net },
	{ .name = "partitions", .id = G_PARTITIONS, .mode = FILE_R, .gen = gen_empty },
	{ .name = "self", .id = G_SELF, .mode = LINK, .target = target_self },
	{ .name = "stat", .id = G_STAT, .mode = FILE_R, .gen = gen_stat },
	{ .name = "sys",
	  .id = G_SYS,
	  .mode = DIR_R,
	  .children = procfs_sys_children,
	  .sysctl = true },
	{ .name = "swaps", .id = G_SWAPS, .mode = FILE_R, .gen = gen_swaps },
	{ .name = "sysvipc", .id = G_SYSVIPC, .mode = DIR_R, .children = sysvipc },
	{ .name = "thread-self", .id = G_THREAD_SELF, .mode = LINK, .target = target_thread_self },
	{ .name = "uptime", .id = G_UPTIME, .mode = FILE_R, .gen = gen_uptime },
	{ .name = "version", .id = G_VERSION, .mode = FILE_R, .gen = gen_version },
	{ .name = "vmstat", .id = G_VMSTAT, .mode = FILE_R, .gen = gen_vmstat },
	{ 0 },
};

const struct pentry procfs_root_entry = {
	.name = "/", .id = G_ROOT, .mode = DIR_R, .children = root_children, .dyn = PD_PIDS
};
