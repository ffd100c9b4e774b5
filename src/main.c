/* main.c: the command line and boot: parse, start the platform, start the
 * first process, run the scheduler until the instance ends, and exit with
 * the first process's status as a shell reports it. */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/task.h"
#include "kernel/log.h"
#include "kernel/sched.h"
#include "platform/platform.h"
#include "platform/stub_image.h"
#include "stub/stub.h"
#include "syscalls/dispatch.h"
#include "host/host.h"
#include "vfs/mount.h"
#include "tty/console.h"
#include "kernel/cpus.h"
#include "mm/commit.h"
#include "vfs/file.h"
#include "fs/hostfs/hostfs.h"
#include "fs/tmpfs/tmpfs.h"
#include "net/hostinet.h"

#define SKAS_VERSION "0.1.0"

extern char **environ;

/* With no program: the root's shell. */
static const char *const shells[] = { "/bin/bash", NULL, "/bin/sh", NULL };

static void usage(FILE *out)
{
	fprintf(out,
		"usage: skas run [options] -- PROGRAM [ARGS...]\n"
		"       skas [run [options]]      the root's shell (/bin/bash, else /bin/sh)\n"
		"       skas --help | --version\n"
		"\n"
		"Runs a Linux x86-64 program inside skas, a user-mode kernel whose kernel\n"
		"lives in a separate address space from the programs it runs.\n"
		"\n"
		"options:\n"
		"  -t, --tty          the guest's fds 0-2 are /dev/console, a terminal on\n"
		"                     the host's stdio (default when stdin is a terminal:\n"
		"                     then the fds that are a host terminal are the console)\n"
		"  -i, --interactive  no terminal: fds 0-2 are the host's even when stdin\n"
		"                     is a terminal (-it: a terminal)\n"
		"  --init             the program runs as pid 2 under a small init (pid 1)\n"
		"                     that passes signals on to it and reaps orphans:\n"
		"                     SIGPIPE, Ctrl-C, SIGTERM end it as they would\n"
		"                     outside (pid 1, a namespace's init, ignores them)\n"
		"  --root=DIR         the host directory that is / inside (default: /); the\n"
		"                     guest writes to a tmpfs over it, the host never changes\n"
		"  --rw               writes go through to the root directory instead\n"
		"  -v, --volume=HOST:GUEST[:ro]\n"
		"                     mount a host directory inside (read-write unless :ro;\n"
		"                     written as the host user of --host-user)\n"
		"  --tmpfs-size=SIZE  the most the guest may write to / and tmpfs (default:\n"
		"                     half the host's memory)\n"
		"  --user=UID[:GID]   the first program's credentials (default 0:0, root)\n"
		"  --strace[=FILE]    print every guest system call and its result\n"
		"                     (to stderr, or to FILE)\n"
		"  --platform=NAME    host support: seccomp (the default where the host\n"
		"                     has it), ptrace, or sigsys (faster system calls,\n"
		"                     slower process creation)\n"
		"  --log=FILE         write the kernel log to FILE\n"
		"  --pids-max=N       at most N tasks (default 4096): fork beyond is EAGAIN\n"
		"  --memory=SIZE      the guest's memory (K, M, G; default: half the host's):\n"
		"                     committed memory (private writable mappings, shared\n"
		"                     memory, tmpfs data) beyond it is ENOMEM, or the OOM\n"
		"                     killer ends the largest process\n"
		"  --nofile=N         RLIMIT_NOFILE of the first program (soft and hard) and\n"
		"                     the most files open in the whole instance (ENFILE;\n"
		"                     default: a quarter of the kernel's host fd limit)\n"
		"  --cpus=N           at most N guest threads run at once, on N host CPUs\n"
		"                     (default: all share the kernel's CPU, unthrottled)\n"
		"  --net=MODE         the guest's network: loopback (default) is its own,\n"
		"                     with only `lo`, nothing outside reachable; host makes\n"
		"                     its TCP and UDP sockets host sockets: the guest reaches\n"
		"                     whatever the host user skas runs as can (the outside\n"
		"                     network and the host's own 127.0.0.1 services) and\n"
		"                     its ports are the host's\n"
		"  --host-user=UID[:GID]  started by root: the host user skas runs as\n"
		"                     (default 65534, nobody; 0 stays root). It reads any\n"
		"                     host file; it writes (--rw, -v) where that user may\n"
		"  --verbose          kernel log (unimplemented calls, faults) on stderr\n"
		"  -h, --help         this text\n"
		"  --version          version and platform\n"
		"\n"
		"The exit status is the program's: 128+N if a signal N killed it,\n"
		"127 if PROGRAM does not exist, 126 if it cannot be executed.\n");
}

static void misuse(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void misuse(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "skas: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see skas --help)\n");
	exit(2);
}

enum {
	OPT_ROOT = 256,
	OPT_STRACE,
	OPT_PLATFORM,
	OPT_LOG,
	OPT_VERSION,
	OPT_PIDS_MAX,
	OPT_RW,
	OPT_TMPFS_SIZE,
	OPT_USER,
	OPT_HOST_USER,
	OPT_MEMORY,
	OPT_NOFILE,
	OPT_CPUS,
	OPT_NET,
	OPT_INIT,
};

static const struct option options[] = {
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "strace", optional_argument, NULL, OPT_STRACE },
	{ "platform", required_argument, NULL, OPT_PLATFORM },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "pids-max", required_argument, NULL, OPT_PIDS_MAX },
	{ "rw", no_argument, NULL, OPT_RW },
	{ "volume", required_argument, NULL, 'v' },
	{ "tmpfs-size", required_argument, NULL, OPT_TMPFS_SIZE },
	{ "user", required_argument, NULL, OPT_USER },
	{ "host-user", required_argument, NULL, OPT_HOST_USER },
	{ "memory", required_argument, NULL, OPT_MEMORY },
	{ "nofile", required_argument, NULL, OPT_NOFILE },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "net", required_argument, NULL, OPT_NET },
	{ "init", no_argument, NULL, OPT_INIT },
	{ "verbose", no_argument, NULL, 'L' },
	{ "tty", no_argument, NULL, 't' },
	{ "interactive", no_argument, NULL, 'i' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

struct cmdline {
	uint32_t uid, gid; /* the guest's first credentials (--user; root) */
	const char *root;
	const char *strace_file;
	bool strace;
	const char *log_file;
	int pids_max;
	bool rw;
	uint64_t tmpfs_size;
	uint64_t memory; /* 0: half the host's */
	int nofile;	 /* 0: the default rlimit, no cap but the default */
	int cpus;	 /* 0: everything on the kernel's CPU, no gate */
	struct volume volumes[32];
	int nvolumes;
	bool tty, interactive;
	bool host_net;	  /* --net=host */
	bool init;	  /* --init: init/init.c is pid 1, the program pid 2 */
	char **prog_argv; /* NULL: the root's shell */
};

/* A size with an optional K, M or G suffix; 0 if it is not one. */
static uint64_t parse_size(const char *s)
{
	char *end;
	unsigned long long n = strtoull(s, &end, 10);

	if (end == s)
		return 0;
	switch (*end) {
	case 'k':
	case 'K':
		n <<= 10;
		end++;
		break;
	case 'm':
	case 'M':
		n <<= 20;
		end++;
		break;
	case 'g':
	case 'G':
		n <<= 30;
		end++;
		break;
	}
	return *end ? 0 : n;
}

/* A decimal number in [lo, hi]; -1 if it is not one. */
static int parse_count(const char *s, int lo, int hi)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (end == s || *end || n < lo || n > hi)
		return -1;
	return (int)n;
}

/* -v HOST:GUEST[:ro] */
static void add_volume(struct cmdline *cl, char *arg)
{
	char *guest = strchr(arg, ':'), *opt;
	struct volume *v;

	if (!guest || guest == arg || guest[1] != '/')
		misuse("-v wants HOST_DIR:/GUEST_DIR[:ro], not '%s'", arg);
	if (cl->nvolumes == 32)
		misuse("%s", "at most 32 volumes");
	*guest++ = 0;
	opt = strchr(guest, ':');
	v = &cl->volumes[cl->nvolumes++];
	v->rdonly = false;
	if (opt) {
		*opt++ = 0;
		if (strcmp(opt, "ro") == 0)
			v->rdonly = true;
		else if (strcmp(opt, "rw") != 0)
			misuse("-v options are ro or rw, not '%s'", opt);
	}
	if (access(arg, X_OK) < 0)
		misuse("the volume '%s' is not a directory skas can enter", arg);
	v->host_dir = arg;
	v->guest_dir = guest;
}

static void parse(int argc, char **argv, struct cmdline *cl)
{
	int c;

	memset(cl, 0, sizeof(*cl));
	cl->root = "/";
	if (argc < 2)
		return; /* the shell */
	if ((strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	     strcmp(argv[1], "--version") == 0) &&
	    argc > 2)
		misuse("%s takes no argument, but '%s' was given", argv[1], argv[2]);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		exit(0);
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("skas %s (platform: %s)\n", SKAS_VERSION, platform_resolve());
		exit(0);
	}
	if (strcmp(argv[1], "run") != 0)
		misuse("unknown command '%s': the command is 'run'", argv[1]);
	optind = 2;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+hv:ti", options, NULL)) != -1) {
		switch (c) {
		case 't':
			cl->tty = true;
			break;
		case 'i':
			cl->interactive = true;
			break;
		case OPT_RW:
			cl->rw = true;
			break;
		case OPT_INIT:
			cl->init = true;
			break;
		case 'v':
			add_volume(cl, optarg);
			break;
		case OPT_HOST_USER:
			if (host_sandbox_set_user(optarg) < 0)
				misuse("--host-user wants UID[:GID], not '%s'", optarg);
			break;
		case OPT_USER: {
			char *end;
			unsigned long u = strtoul(optarg, &end, 10), g;

			if (end == optarg || (*end && *end != ':') || u > 0xfffffffeUL)
				misuse("--user wants UID[:GID] as numbers, not '%s'", optarg);
			g = u;
			if (*end == ':') {
				char *gs = end + 1;

				g = strtoul(gs, &end, 10);
				if (end == gs || *end || g > 0xfffffffeUL)
					misuse("--user wants UID[:GID] as numbers, not '%s'",
					       optarg);
			}
			cl->uid = (uint32_t)u;
			cl->gid = (uint32_t)g;
			break;
		}
		case OPT_TMPFS_SIZE:
			cl->tmpfs_size = parse_size(optarg);
			if (!cl->tmpfs_size)
				misuse("--tmpfs-size wants a size like 512M or 2G, not '%s'",
				       optarg);
			break;
		case OPT_MEMORY:
			cl->memory = parse_size(optarg);
			if (cl->memory < (4ULL << 20))
				misuse("--memory wants a size of at least 4M like 512M or 2G, not "
				       "'%s'",
				       optarg);
			break;
		case OPT_NOFILE:
			cl->nofile = parse_count(optarg, 3, 1 << 20);
			if (cl->nofile < 0)
				misuse("--nofile wants a number from 3 to 1048576, not '%s'",
				       optarg);
			break;
		case OPT_CPUS:
			cl->cpus = parse_count(optarg, 1, host_ncpus());
			if (cl->cpus < 0)
				misuse("--cpus wants a number from 1 to %d (the host's CPUs), not "
				       "'%s'",
				       host_ncpus(), optarg);
			break;
		case OPT_NET:
			if (strcmp(optarg, "host") == 0)
				cl->host_net = true;
			else if (strcmp(optarg, "loopback") == 0)
				cl->host_net = false;
			else
				misuse("--net is loopback or host, not '%s'", optarg);
			break;
		case OPT_ROOT:
			cl->root = optarg;
			break;
		case OPT_STRACE:
			cl->strace = true;
			cl->strace_file = optarg;
			break;
		case OPT_PLATFORM:
			if (platform_select(optarg) < 0)
				misuse("unknown platform '%s': the platforms are: seccomp, ptrace, "
				       "sigsys",
				       optarg);
			break;
		case OPT_LOG:
			if (strcmp(optarg, "--") == 0)
				misuse("--log wants a file name, not '--' (--log=FILE)");
			cl->log_file = optarg;
			break;
		case OPT_PIDS_MAX: {
			char *end;
			long n = strtol(optarg, &end, 10);

			if (*end || n < 1 || n > 32000)
				misuse("--pids-max wants a number from 1 to 32000, not '%s'",
				       optarg);
			cl->pids_max = (int)n;
			break;
		}
		case 'L':
			klog_level = LOG_INFO;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case OPT_VERSION:
			printf("skas %s (platform: %s)\n", SKAS_VERSION, platform_resolve());
			exit(0);
		default:
			misuse("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		cl->prog_argv = &argv[optind];
}

/* The guest starts where the user is, if that is inside its root. */
static char *start_cwd(const char *root)
{
	char *cwd = getcwd(NULL, 0);
	char *real_root = realpath(root, NULL);
	size_t n;

	if (cwd && real_root) {
		n = strlen(real_root);
		if (strcmp(real_root, "/") == 0) {
			free(real_root);
			return cwd;
		}
		if (strncmp(cwd, real_root, n) == 0 && (cwd[n] == '/' || cwd[n] == 0)) {
			char *inside = strdup(cwd[n] ? cwd + n : "/");

			free(cwd);
			free(real_root);
			return inside;
		}
	}
	free(cwd);
	free(real_root);
	return strdup("/");
}

/* A PROGRAM without a slash is looked for in $PATH inside the guest, as
 * execvp does: the first that is not missing (EACCES if only those). */
static int start_in_path(struct init_config *cfg, const char *name)
{
	const char *path = getenv("PATH");
	char *dirs, *dir, *save = NULL, *full;
	int ret = -ENOENT, err = -ENOENT;

	dirs = strdup(path && *path
			      ? path
			      : "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
	if (!dirs)
		return -ENOMEM;
	for (dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		full = malloc(strlen(dir) + strlen(name) + 3);
		if (!full)
			break;
		sprintf(full, "%s/%s", *dir ? dir : ".", name);
		cfg->path = full;
		ret = task_start_init(cfg);
		free(full); /* the kernel copied what it keeps */
		if (ret == 0)
			break;
		if (ret == -EACCES)
			err = ret;
		else if (ret != -ENOENT && ret != -ENOTDIR)
			break;
		ret = err;
	}
	cfg->path = name;
	free(dirs);
	return ret;
}

/* --init: init/init.c as pid 1, which starts the program (prog, or
 * NULL: the shell) as its child and finds it as start_in_path does. */
static int init_with_program(struct init_config *cfg, char **prog)
{
	char **argv;
	int n = 0, ret;

	while (prog && prog[n])
		n++;
	argv = calloc((size_t)n + 3, sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	argv[0] = "skas-init";
	if (prog) {
		argv[1] = "--";
		memcpy(&argv[2], prog, (size_t)n * sizeof(*argv));
	}
	cfg->path = argv[0];
	cfg->argv = argv;
	cfg->image = init_blob;
	cfg->image_len = (size_t)(init_blob_end - init_blob);
	ret = task_start_init(cfg);
	free(argv); /* the kernel copied what it keeps */
	return ret;
}

/* --memory, or half the host's memory; the stubs get a host-side
 * RLIMIT_DATA above it, in case the kernel's count were wrong. */
static void setup_memory(const struct cmdline *cl)
{
	uint64_t total = 0, freemem, shared, buffers, limit = cl->memory;

	if (!limit) {
		limit = 1ULL << 30;
		if (host_meminfo(&total, &freemem, &shared, &buffers) == 0)
			limit = total / 2;
	}
	mem_set_limit(limit);
	host_sandbox_set_stub_data(limit + limit / 4 + (64ULL << 20));
}

static int exit_status(int wait_status)
{
	if ((wait_status & 0x7f) == 0)
		return (wait_status >> 8) & 0xff;
	return 128 + (wait_status & 0x7f);
}

int main(int argc, char **argv)
{
	struct init_config cfg = { 0 };
	struct cmdline cl;
	struct path root;
	char *cwd;
	int i, ret;

	/* The kernel's heap holds its working set for good: no trim after
	 * each exit and no regrowth at each exec (two brk calls per exec,
	 * more per shell loop), and the exec's buffers (~160 KiB) stay on
	 * the heap rather than in an mmap of their own each time. */
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	mallopt(M_TRIM_THRESHOLD, 32 << 20);
	mallopt(M_TOP_PAD, 1 << 20);
	klog_boot();
	host_rseq_unregister(); /* one thread, which never uses it (host.c) */
	parse(argc, argv, &cl);
	if (cl.log_file && host_log_open(cl.log_file) < 0)
		misuse("cannot write the log file '%s'", cl.log_file);
	if (cl.log_file && klog_level < LOG_INFO)
		klog_level = LOG_INFO;
	if (cl.strace && strace_open(cl.strace_file) < 0)
		misuse("cannot write the trace file '%s'", cl.strace_file);
	if (access(cl.root, X_OK) < 0)
		misuse("the root '%s' is not a directory skas can enter", cl.root);
	ret = host_pin_cpu();
	if (ret >= 0)
		klog(LOG_INFO, "kernel CPU: %d of the host's", ret);
	/* The stubs inherit the CPUs of the zygote, which platform->init
	 * starts: --cpus widens the set for it, then the kernel keeps one. */
	if (cl.cpus)
		host_set_cpus(ret < 0 ? 0 : ret, cl.cpus);
	setup_memory(&cl);
	/* An open file can hold a few host fds (hostfs keeps one per inode on
	 * the way), a tmpfs file mapped or big one: by default the instance stops
	 * at a quarter of the kernel's for each (ENFILE, ENOSPC), before the
	 * kernel runs out. hostfs's cache of lookups keeps up to an eighth. */
	{
		long host_fds = host_raise_nofile() / 4;

		files_set_max(cl.nofile ? cl.nofile : host_fds < 64 ? 64 : host_fds);
		tmpfs_set_max_files(host_fds < 64 ? 64 : host_fds);
		hostfs_set_cache_max(host_fds / 2);
	}
	cpus_set(cl.cpus);
	if (cl.host_net) {
		hostinet_enable();
		host_sandbox_allow_net();
	}
	ret = host_init();
	if (ret == 0)
		ret = host_evloop_init();
	if (ret == 0) {
		platform_resolve();
		ret = stub_place();
		if (ret < 0)
			fprintf(stderr, "skas: no room for the stub at 0x%lx or 0x%lx\n",
				(unsigned long)STUB_BASE_HIGH, (unsigned long)STUB_BASE_LOW);
		/* A platform whose guest threads run apart from the kernel
		 * gives its stubs every CPU. */
		if (!cl.cpus && platform->threads_apart)
			host_unpin_cpu();
		if (ret == 0)
			ret = platform->init();
	}
	if (cl.cpus || platform->threads_apart)
		host_pin_cpu();
	if (ret < 0) {
		fprintf(stderr, "skas: cannot start the %s platform: %s\n", platform->name,
			strerror(-ret));
		return 1;
	}
	klog(LOG_INFO, "platform: %s", platform->name);
	if (stub_base != STUB_BASE_HIGH)
		klog(LOG_INFO, "stub: at %#lx, the usual place being taken (skas inside skas)",
		     stub_base);
	{
		struct root_config rc = { .host_root = cl.root,
					  .rw = cl.rw,
					  .tmpfs_size = cl.tmpfs_size,
					  .volumes = cl.volumes,
					  .nvolumes = cl.nvolumes };
		const char *why = "";
		uint64_t total, freemem, shared, buffers;

		if (!rc.tmpfs_size) {
			rc.tmpfs_size = 1ULL << 30;
			if (host_meminfo(&total, &freemem, &shared, &buffers) == 0)
				rc.tmpfs_size = total / 2;
		}
		ret = vfs_mount_root(&rc, &root, &why);
		if (ret < 0) {
			fprintf(stderr, "skas: cannot set up the file systems (%s): %s\n", why,
				strerror(-ret));
			return 1;
		}
	}
	/* A terminal by default when stdin is one that skas has (not in the
	 * background, as under timeout(1)). */
	if (cl.tty || (!cl.interactive && host_fd_is_tty(0) && host_term_is_foreground(0))) {
		ret = console_init(cl.tty);
		if (ret < 0) {
			fprintf(stderr, "skas: cannot make the console: %s\n", strerror(-ret));
			return 1;
		}
	}
	for (i = 0; i < 3; i++)
		if (!console_is_stdio(i))
			hostfs_stdio_prepare(i);
	cwd = start_cwd(cl.root);
	cfg.path = cl.prog_argv ? cl.prog_argv[0] : shells[0];
	cfg.argv = cl.prog_argv ? cl.prog_argv : (char **)shells;
	cfg.envp = environ;
	cfg.root = &root;
	cfg.cwd = cwd;
	cfg.uid = cl.uid;
	cfg.gid = cl.gid;
	cfg.pids_max = cl.pids_max;
	cfg.nofile = cl.nofile;
	host_sandbox_enter(syscall_name); /* the host's calls are x86-64's too */
	if (cl.init) {
		/* init/init.c: "--" and the program, or nothing (the shell) */
		ret = init_with_program(&cfg, cl.prog_argv);
	} else if (cl.prog_argv && !strchr(cl.prog_argv[0], '/')) {
		ret = start_in_path(&cfg, cl.prog_argv[0]);
	} else {
		ret = task_start_init(&cfg);
		if (ret == -ENOENT && !cl.prog_argv) {
			cfg.path = shells[2];
			cfg.argv = (char **)&shells[2];
			ret = task_start_init(&cfg);
		}
	}
	/* init holds its own: a pivot_root and an unmount of the old root
	 * must leave nothing of it held here (LeakSanitizer found it). */
	path_put(&root);
	free(cwd);
	if (ret < 0) {
		fprintf(stderr, "skas: %s: %s\n", cfg.path, strerror(-ret));
		return ret == -ENOENT ? 127 : 126;
	}
	sched_run();
	return exit_status(task_init_status());
}
