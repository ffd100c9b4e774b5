/* seccomp(2) and prctl(PR_SET_SECCOMP): strict mode, classic BPF filters
 * and their actions (ERRNO, TRAP with its SIGSYS, KILL_THREAD,
 * KILL_PROCESS, LOG, TRACE without a tracer), argument checks, stacking
 * and precedence, inheritance by fork, threads and exec, TSYNC, the
 * checks a filter must pass, and /proc/PID/status. skas had none:
 * seccomp was ENOSYS and PR_SET_SECCOMP EINVAL. Each case runs in its own
 * child, as a filter cannot be taken back. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_FLUSH
#include "tap.h"
#include "seccomp_abi.h"

#define SECCOMP_MODE_STRICT	  1
#define SECCOMP_MODE_FILTER	  2
#define SECCOMP_SET_MODE_STRICT	  0
#define SECCOMP_SET_MODE_FILTER	  1
#define SECCOMP_GET_ACTION_AVAIL  2
#define SECCOMP_FILTER_FLAG_TSYNC 1
#define SECCOMP_RET_KILL_PROCESS  0x80000000U
#define SECCOMP_RET_KILL_THREAD	  0x00000000U
#define SECCOMP_RET_TRAP	  0x00030000U
#define SECCOMP_RET_ERRNO	  0x00050000U
#define SECCOMP_RET_TRACE	  0x7ff00000U
#define SECCOMP_RET_LOG		  0x7ffc0000U
#define SECCOMP_RET_ALLOW	  0x7fff0000U
#define SYS_SECCOMP_CODE	  1

#define NR	  offsetof(struct seccomp_data, nr)
#define ARCH	  offsetof(struct seccomp_data, arch)
#define ARG_LO(i) offsetof(struct seccomp_data, args[i])

static long sc(long nr, long a, long b, long c)
{
	return syscall(nr, a, b, c);
}

static int install(struct sock_filter *f, unsigned short len, unsigned flags)
{
	struct sock_fprog prog = { len, f };

	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

/* A filter: the syscall nr gets ret, the rest pass. */
static int deny(int nr, unsigned ret, unsigned flags)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, ret),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return install(f, 4, flags);
}

/* Runs fn in a child with no_new_privs set; its wait status. */
static int in_child(int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		_exit(fn());
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

static int exited(int status, int code)
{
	return WIFEXITED(status) && WEXITSTATUS(status) == code;
}

static int killed_by(int status, int sig)
{
	return WIFSIGNALED(status) && WTERMSIG(status) == sig;
}

static int errno_case(void)
{
	if (deny(SYS_getppid, SECCOMP_RET_ERRNO | EPERM, 0) != 0)
		return 10;
	if (sc(SYS_getppid, 0, 0, 0) != -1 || errno != EPERM)
		return 11;
	if (sc(SYS_getpid, 0, 0, 0) <= 0)
		return 12;
	/* data past MAX_ERRNO is 4095 */
	if (deny(SYS_getuid, SECCOMP_RET_ERRNO | 0xffff, 0) != 0)
		return 13;
	if (sc(SYS_getuid, 0, 0, 0) != -1 || errno != 4095)
		return 14;
	return 0;
}

static volatile int trap_ok;

static void on_sigsys(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	const unsigned char *ip = si->si_call_addr;

	trap_ok = sig == SIGSYS && si->si_code == SYS_SECCOMP_CODE && si->si_errno == 42 &&
		  si->si_syscall == SYS_getppid && si->si_arch == AUDIT_ARCH_X86_64 &&
		  ip[-2] == 0x0f && ip[-1] == 0x05 && uc->uc_mcontext.gregs[REG_RAX] == SYS_getppid;
	uc->uc_mcontext.gregs[REG_RAX] = 7777;
}

static int trap_case(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSYS, &sa, NULL);
	if (deny(SYS_getppid, SECCOMP_RET_TRAP | 42, 0) != 0)
		return 10;
	if (sc(SYS_getppid, 0, 0, 0) != 7777)
		return 11;
	return trap_ok ? 0 : 12;
}

static int trap_blocked_case(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGSYS);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (deny(SYS_getppid, SECCOMP_RET_TRAP, 0) != 0)
		return 10;
	sc(SYS_getppid, 0, 0, 0);
	return 11; /* not reached: a blocked SIGSYS is forced */
}

static int kill_process_case(void)
{
	if (deny(SYS_getppid, SECCOMP_RET_KILL_PROCESS, 0) != 0)
		return 10;
	sc(SYS_getppid, 0, 0, 0);
	return 11;
}

static int marker[2] = { -1, -1 };

static void *killed_thread(void *arg)
{
	(void)arg;
	sc(SYS_getppid, 0, 0, 0);
	return (void *)1;
}

static int count_tasks(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int k = 0;

	while (d && (e = readdir(d)))
		k += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return k;
}

static int kill_thread_case(void)
{
	pthread_t th;
	int i;

	/* Only the thread goes (musl's join never sees it end: it waits
	 * for the thread's own exit path, so /proc/self/task is watched);
	 * with one thread left, the same call ends the process. */
	if (deny(SYS_getppid, SECCOMP_RET_KILL_THREAD, 0) != 0)
		return 10;
	if (pthread_create(&th, NULL, killed_thread, NULL) != 0)
		return 11;
	for (i = 0; i < 10000 && count_tasks() != 1; i++)
		usleep(1000);
	if (write(marker[1], count_tasks() == 1 ? "j" : "r", 1) != 1)
		return 12;
	sc(SYS_getppid, 0, 0, 0);
	return 13;
}

static int log_and_trace_case(void)
{
	if (deny(SYS_getppid, SECCOMP_RET_LOG, 0) != 0)
		return 10;
	if (sc(SYS_getppid, 0, 0, 0) <= 0)
		return 11;
	if (deny(SYS_getuid, SECCOMP_RET_TRACE, 0) != 0)
		return 12;
	if (sc(SYS_getuid, 0, 0, 0) != -1 || errno != ENOSYS)
		return 13;
	return 0;
}

static int args_case(void)
{
	/* write only to fd 1; anything else EACCES; the arch checked. */
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARCH),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_write, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(0)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	if (install(f, 9, 0) != 0)
		return 10;
	if (write(2, "", 0) != -1 || errno != EACCES)
		return 11;
	if (write(1, "", 0) != 0)
		return 12;
	return 0;
}

static int scratch_case(void)
{
	/* Scratch memory, X, ALU and JSET: nr * 2 + 1 stored and reloaded;
	 * getppid (110) gives 221, which has bit 0 set. */
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
		BPF_STMT(BPF_ST, 3),
		BPF_STMT(BPF_LDX | BPF_MEM, 3),
		BPF_STMT(BPF_ALU | BPF_ADD | BPF_X, 0),
		BPF_STMT(BPF_ALU | BPF_OR | BPF_K, 1),
		BPF_STMT(BPF_MISC | BPF_TAX, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 2 * SYS_getppid + 1, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | E2BIG),
		BPF_STMT(BPF_LD | BPF_W | BPF_LEN, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, sizeof(struct seccomp_data), 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	if (install(f, 12, 0) != 0)
		return 10;
	if (sc(SYS_getppid, 0, 0, 0) != -1 || errno != E2BIG)
		return 11;
	if (sc(SYS_getpid, 0, 0, 0) <= 0)
		return 12;
	return 0;
}

static int stack_case(void)
{
	/* Equal actions: the newest filter's data; a stronger action of an
	 * older filter wins over a newer ALLOW. */
	if (deny(SYS_getppid, SECCOMP_RET_ERRNO | 1, 0) ||
	    deny(SYS_getppid, SECCOMP_RET_ERRNO | 2, 0))
		return 10;
	if (sc(SYS_getppid, 0, 0, 0) != -1 || errno != 2)
		return 11;
	if (deny(SYS_getppid, SECCOMP_RET_TRAP, 0) || deny(SYS_getppid, SECCOMP_RET_ERRNO | 3, 0))
		return 12;
	signal(SIGSYS, SIG_IGN); /* forced anyway: the process dies */
	sc(SYS_getppid, 0, 0, 0);
	return 13;
}

static char **self_argv;

static int exec_case(void)
{
	if (deny(SYS_getppid, SECCOMP_RET_ERRNO | EXDEV, 0) != 0)
		return 10;
	execl("/proc/self/exe", self_argv[0], "exec-child", (char *)NULL);
	return 11;
}

static int fork_case(void)
{
	int status;
	pid_t pid;

	if (deny(SYS_getppid, SECCOMP_RET_ERRNO | EXDEV, 0) != 0)
		return 10;
	pid = fork();
	if (pid == 0)
		_exit(sc(SYS_getppid, 0, 0, 0) == -1 && errno == EXDEV ? 0 : 1);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !exited(status, 0))
		return 11;
	return 0;
}

static volatile int thread_go, thread_result;

static void *sync_thread(void *arg)
{
	(void)arg;
	while (!thread_go)
		usleep(100);
	thread_result = sc(SYS_getppid, 0, 0, 0) == -1 && errno == ENOTTY;
	return NULL;
}

static int tsync_case(void)
{
	pthread_t th;

	if (pthread_create(&th, NULL, sync_thread, NULL) != 0)
		return 10;
	if (deny(SYS_getppid, SECCOMP_RET_ERRNO | ENOTTY, SECCOMP_FILTER_FLAG_TSYNC) != 0)
		return 11;
	thread_go = 1;
	pthread_join(th, NULL);
	return thread_result ? 0 : 12;
}

static int strict_case(void)
{
	static const char msg[] = "strict\n";

	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT, 0, 0, 0) != 0)
		return 10;
	if (write(1, msg, 0) != 0)
		return 11;
	sc(SYS_getppid, 0, 0, 0); /* SIGKILL */
	return 12;
}

static int strict_exit_case(void)
{
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_STRICT, 0, NULL) != 0)
		return 10;
	syscall(SYS_exit, 5);
	return 11;
}

static int prctl_case(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOEXEC),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { 4, f };
	char line[128];
	int mode = -1, count = -1;
	FILE *st;

	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) != 0)
		return 10;
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0)
		return 11;
	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) != 2)
		return 12;
	if (sc(SYS_getppid, 0, 0, 0) != -1 || errno != ENOEXEC)
		return 13;
	if (deny(SYS_getuid, SECCOMP_RET_ALLOW, 0) != 0)
		return 14;
	st = fopen("/proc/self/status", "r");
	while (st && fgets(line, sizeof(line), st)) {
		sscanf(line, "Seccomp: %d", &mode);
		sscanf(line, "Seccomp_filters: %d", &count);
	}
	if (st)
		fclose(st);
	if (mode != 2 || count != 2)
		return 15;
	/* strict after filter: EINVAL */
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT, 0, 0, 0) != -1 || errno != EINVAL)
		return 16;
	return 0;
}

static int bad_filter(struct sock_filter *f, unsigned short len)
{
	return install(f, len, 0) == -1 ? errno : 0;
}

static int checks_case(void)
{
	struct sock_filter ok[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_filter noret[] = { BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR) };
	struct sock_filter unaligned[] = { BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 2),
					   BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_filter beyond[] = { BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 64),
					BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_filter half[] = { BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 0),
				      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_filter jump_out[] = { BPF_JUMP(BPF_JMP | BPF_JA, 1, 0, 0),
					  BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_filter cond_out[] = { BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
					  BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_filter mod[] = { BPF_STMT(BPF_ALU | BPF_MOD | BPF_K, 3),
				     BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_filter div0[] = { BPF_STMT(BPF_ALU | BPF_DIV | BPF_K, 0),
				      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_filter shift[] = { BPF_STMT(BPF_ALU | BPF_LSH | BPF_K, 32),
				       BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_filter unset_mem[] = { BPF_STMT(BPF_LD | BPF_MEM, 0),
					   BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_filter mem_range[] = { BPF_STMT(BPF_ST, 16),
					   BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	/* stored on one branch only */
	struct sock_filter one_path[] = {
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
		BPF_STMT(BPF_ST, 0),
		BPF_STMT(BPF_LD | BPF_MEM, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog null_filter = { 1, NULL };
	static struct sock_filter big[4097];
	unsigned action;

	if (bad_filter(ok, 0) != EINVAL)
		return 10;
	if (bad_filter(noret, 1) != EINVAL || bad_filter(unaligned, 2) != EINVAL ||
	    bad_filter(beyond, 2) != EINVAL || bad_filter(half, 2) != EINVAL)
		return 11;
	if (bad_filter(jump_out, 2) != EINVAL || bad_filter(cond_out, 2) != EINVAL)
		return 12;
	if (bad_filter(mod, 2) != EINVAL || bad_filter(div0, 2) != EINVAL ||
	    bad_filter(shift, 2) != EINVAL)
		return 13;
	if (bad_filter(unset_mem, 2) != EINVAL || bad_filter(mem_range, 2) != EINVAL ||
	    bad_filter(one_path, 4) != EINVAL)
		return 14;
	for (int i = 0; i < 4097; i++)
		big[i] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	if (bad_filter(big, 4097) != EINVAL)
		return 15;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, NULL) != -1 || errno != EFAULT)
		return 16;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &null_filter) != -1 || errno != EINVAL)
		return 17;
	null_filter.filter = (struct sock_filter *)8;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &null_filter) != -1 || errno != EFAULT)
		return 24;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 1U << 30, NULL) != -1 || errno != EINVAL)
		return 18;
	if (syscall(SYS_seccomp, 99, 0, NULL) != -1 || errno != EINVAL)
		return 19;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_STRICT, 1, NULL) != -1 || errno != EINVAL)
		return 20;
	action = SECCOMP_RET_ERRNO;
	if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) != 0)
		return 21;
	action = 0x12340000;
	if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) != -1 || errno != EOPNOTSUPP)
		return 22;
	if (install(ok, 1, 0) != 0)
		return 23;
	return 0;
}

static int path_limit_case(void)
{
	/* 4096-instruction filters: the chain holds 32768 instructions, 4
	 * more per filter; the 8th is ENOMEM. */
	static struct sock_filter f[4096];
	int i;

	for (i = 0; i < 4095; i++)
		f[i] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_IMM, (unsigned)i);
	f[4095] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	for (i = 0; i < 7; i++)
		if (install(f, 4096, 0) != 0)
			return 10 + i;
	if (install(f, 4096, 0) != -1 || errno != ENOMEM)
		return 20;
	return 0;
}

static int nnp_case(void)
{
	struct sock_filter ok[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	int status;
	pid_t pid = fork();

	/* A user without no_new_privs (nor CAP_SYS_ADMIN): EACCES. */
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(10);
		_exit(install(ok, 1, 0) == -1 && errno == EACCES ? 0 : 11);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

/* RET_TRACE with a tracer that asked for PTRACE_EVENT_SECCOMP: the call
 * stops (event message the filter's data); the tracer may skip it with
 * its own result, change it, or let it run (it is filtered again, where
 * TRACE lets it go). */
static int trace_child(void)
{
	pid_t me = getpid(), parent = getppid();

	if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0)
		return 10;
	raise(SIGSTOP);
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (deny(SYS_getppid, SECCOMP_RET_TRACE | 0x42, 0) != 0)
		return 11;
	if (sc(SYS_getppid, 0, 0, 0) != 1234)
		return 12; /* skipped, with the tracer's rax */
	if (sc(SYS_getppid, 0, 0, 0) != me)
		return 13; /* turned into getpid */
	if (sc(SYS_getppid, 0, 0, 0) != parent)
		return 14; /* let run */
	return 0;
}

/* GET_SYSCALL_INFO at a PTRACE_EVENT_SECCOMP stop: op SECCOMP, the
 * call and the filter's data, 84 bytes (linux/ptrace.h's record). */
static int seccomp_info_ok(pid_t pid)
{
	struct {
		uint8_t op, pad[3];
		uint32_t arch;
		uint64_t ip, sp, nr, args[6];
		uint32_t ret_data, reserved2;
	} info;
	long size;

	memset(&info, 0xff, sizeof(info));
	size = ptrace(0x420e /* PTRACE_GET_SYSCALL_INFO */, pid, sizeof(info), &info);
	return size == 84 && info.op == 3 && info.arch == AUDIT_ARCH_X86_64 &&
	       info.nr == SYS_getppid && info.ret_data == 0x42;
}

static int trace_case(void)
{
	struct user_regs_struct r;
	unsigned long msg = 0;
	int status, i;
	pid_t pid = fork();

	if (pid == 0)
		_exit(trace_child());
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		return 20;
	if (ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESECCOMP) != 0)
		return 21;
	ptrace(PTRACE_CONT, pid, 0, 0);
	for (i = 0; i < 3; i++) {
		if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status) ||
		    status >> 8 != (SIGTRAP | (7 << 8)))
			return 22 + i * 10;
		if (ptrace(PTRACE_GETEVENTMSG, pid, 0, &msg) != 0 || msg != 0x42)
			return 23 + i * 10;
		if (!seccomp_info_ok(pid))
			return 26 + i * 10;
		if (ptrace(PTRACE_GETREGS, pid, 0, &r) != 0 || r.orig_rax != SYS_getppid ||
		    (long)r.rax != -ENOSYS)
			return 24 + i * 10;
		if (i == 0) {
			r.orig_rax = (unsigned long)-1;
			r.rax = 1234;
		} else if (i == 1) {
			r.orig_rax = SYS_getpid;
		}
		if (ptrace(PTRACE_SETREGS, pid, 0, &r) != 0)
			return 25 + i * 10;
		ptrace(PTRACE_CONT, pid, 0, 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 60;
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	int st;

	if (argc > 1 && strcmp(argv[1], "exec-child") == 0)
		return sc(SYS_getppid, 0, 0, 0) == -1 && errno == EXDEV ? 0 : 1;
	self_argv = argv;
	check(exited(in_child(errno_case), 0),
	      "RET_ERRNO: the call fails with the data; 4095 at most");
	check(exited(in_child(trap_case), 0), "RET_TRAP: SIGSYS with SYS_SECCOMP, the call's "
					      "number, arch, address, data; rax the number");
	check(killed_by(in_child(trap_blocked_case), SIGSYS),
	      "RET_TRAP with SIGSYS blocked: killed by it");
	check(killed_by(in_child(kill_process_case), SIGSYS), "RET_KILL_PROCESS: killed by SIGSYS");
	if (pipe(marker) < 0)
		return 1;
	st = in_child(kill_thread_case);
	{
		char c = 0;

		close(marker[1]);
		if (read(marker[0], &c, 1) != 1)
			c = 0;
		check(killed_by(st, SIGSYS) && c == 'j',
		      "RET_KILL_THREAD: the thread goes, then the last one takes the process");
	}
	check(exited(in_child(log_and_trace_case), 0),
	      "RET_LOG runs the call; RET_TRACE without a tracer is ENOSYS");
	check(exited(in_child(args_case), 0), "arguments and arch in a filter");
	check(exited(in_child(scratch_case), 0), "scratch words, X, ALU, LEN");
	check(killed_by(in_child(stack_case), SIGSYS),
	      "stacked filters: newest data among equals, strongest action wins");
	check(exited(in_child(exec_case), 0), "exec keeps the filter");
	check(exited(in_child(fork_case), 0), "fork: the child inherits it");
	check(exited(in_child(tsync_case), 0), "TSYNC puts it on the other threads");
	check(killed_by(in_child(strict_case), SIGKILL),
	      "strict mode: write goes, getppid is SIGKILL");
	check(exited(in_child(strict_exit_case), 5), "strict mode: exit goes");
	check(exited(in_child(prctl_case), 0),
	      "prctl PR_SET_SECCOMP/PR_GET_SECCOMP, /proc/self/status");
	check(exited(in_child(checks_case), 0),
	      "filters that fail Linux's checks: EINVAL; a NULL program EINVAL, a bad one EFAULT; "
	      "GET_ACTION_AVAIL");
	check(exited(in_child(path_limit_case), 0),
	      "at most 32768 instructions in a chain: ENOMEM");
	check(exited(nnp_case(), 0), "without no_new_privs or CAP_SYS_ADMIN: EACCES");
	st = trace_case();
	if (st)
		printf("# trace_case: %d\n", st);
	check(st == 0, "RET_TRACE: PTRACE_EVENT_SECCOMP (GET_SYSCALL_INFO: op SECCOMP); the tracer "
		       "skips, changes or lets the call");
	return 0;
}
