/* membarrier: QUERY, the flag and command checks, registration before the
 * PRIVATE_EXPEDITED commands (EPERM), what GET_REGISTRATIONS reports, the
 * registrations kept by fork and dropped by exec, barriers with another
 * thread running; the RSEQ commands are there exactly when rseq(2) is. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tap.h"

enum {
	QUERY = 0,
	GLOBAL = 1,
	GLOBAL_EXPEDITED = 2,
	REGISTER_GLOBAL_EXPEDITED = 4,
	PRIVATE_EXPEDITED = 8,
	REGISTER_PRIVATE_EXPEDITED = 16,
	PRIVATE_EXPEDITED_SYNC_CORE = 32,
	REGISTER_PRIVATE_EXPEDITED_SYNC_CORE = 64,
	PRIVATE_EXPEDITED_RSEQ = 128,
	REGISTER_PRIVATE_EXPEDITED_RSEQ = 256,
	GET_REGISTRATIONS = 512,
	FLAG_CPU = 1,
};

static long mb(int cmd, unsigned flags, int cpu)
{
	return syscall(SYS_membarrier, cmd, flags, cpu);
}

static void expect(long r, int want, const char *what)
{
	int e = r < 0 ? errno : 0;

	printf("%s %d - %s\n", e == want ? "ok" : "not ok", ++n, what);
	if (e != want)
		printf("# got %s, want %s\n", e ? strerror(e) : "0", want ? strerror(want) : "0");
}

static int has_get_registrations;

/* GET_REGISTRATIONS (Linux 6.3) where the kernel has it. */
static void expect_registered(long want, const char *what)
{
	long r = has_get_registrations ? mb(GET_REGISTRATIONS, 0, 0) : want;

	printf("%s %d - registered: %s\n", r == want ? "ok" : "not ok", ++n, what);
	if (r != want)
		printf("# GET_REGISTRATIONS %ld, want %ld\n", r, want);
}

static volatile int stop;

static void *spin(void *arg)
{
	(void)arg;
	while (!stop)
		;
	return NULL;
}

int main(int argc, char **argv)
{
	long q = mb(QUERY, 0, 0);
	int rseq = syscall(SYS_rseq, NULL, 0, 0, 0) < 0 && errno != ENOSYS;
	pthread_t th;
	pid_t pid;
	int st;

	if (argc > 1 && !strcmp(argv[1], "exec")) {
		has_get_registrations = (q & GET_REGISTRATIONS) != 0;
		expect_registered(0, "none after exec");
		expect(mb(PRIVATE_EXPEDITED, 0, 0), EPERM, "after exec: PRIVATE_EXPEDITED");
		return 0;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	check(q >= 0 && (q & 0x7f) == 0x7f, "QUERY has GLOBAL .. SYNC_CORE");
	check(q >= 0 && !(q & ~0x3ffL), "QUERY has nothing unknown");
	check(q >= 0 && ((q & (PRIVATE_EXPEDITED_RSEQ | REGISTER_PRIVATE_EXPEDITED_RSEQ)) ==
			 (PRIVATE_EXPEDITED_RSEQ | REGISTER_PRIVATE_EXPEDITED_RSEQ)) == rseq,
	      "QUERY has the RSEQ commands exactly when rseq(2) is there");
	has_get_registrations = (q & GET_REGISTRATIONS) != 0;
	expect(mb(QUERY, 1, 0), EINVAL, "QUERY with flag 1");
	expect(mb(QUERY, 0, 5) == q ? 0 : -1, 0, "QUERY ignores cpu_id");
	expect(mb(3, 0, 0), EINVAL, "command 3");
	expect(mb(1024, 0, 0), EINVAL, "command 1024");
	expect(mb(-1, 0, 0), EINVAL, "command -1");
	expect(mb(PRIVATE_EXPEDITED, FLAG_CPU, 0), EINVAL, "PRIVATE_EXPEDITED with FLAG_CPU");
	expect(mb(PRIVATE_EXPEDITED_RSEQ, 2, 0), EINVAL, "PRIVATE_EXPEDITED_RSEQ with flag 2");
	expect(mb(GLOBAL, 0, 0), 0, "GLOBAL");
	expect(mb(GLOBAL_EXPEDITED, 0, 0), 0, "GLOBAL_EXPEDITED without registering");
	expect_registered(0, "none");
	expect(mb(PRIVATE_EXPEDITED, 0, 0), EPERM, "PRIVATE_EXPEDITED before registering");
	expect(mb(PRIVATE_EXPEDITED_SYNC_CORE, 0, 0), EPERM,
	       "PRIVATE_EXPEDITED_SYNC_CORE before registering");
	expect(mb(PRIVATE_EXPEDITED_RSEQ, FLAG_CPU, 0), rseq ? EPERM : EINVAL,
	       "PRIVATE_EXPEDITED_RSEQ: EPERM with rseq, EINVAL without");

	expect(mb(REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0), 0, "REGISTER_..._SYNC_CORE");
	expect_registered(REGISTER_PRIVATE_EXPEDITED_SYNC_CORE | REGISTER_PRIVATE_EXPEDITED,
			  "SYNC_CORE and PRIVATE_EXPEDITED");
	expect(mb(PRIVATE_EXPEDITED, 0, 0), EPERM, "PRIVATE_EXPEDITED still EPERM");
	expect(mb(PRIVATE_EXPEDITED_SYNC_CORE, 0, 0), 0, "PRIVATE_EXPEDITED_SYNC_CORE");
	expect(mb(REGISTER_PRIVATE_EXPEDITED, 0, 0), 0, "REGISTER_PRIVATE_EXPEDITED");
	expect(mb(PRIVATE_EXPEDITED, 0, 0), 0, "PRIVATE_EXPEDITED, one thread");
	expect(mb(REGISTER_PRIVATE_EXPEDITED, 0, 0), 0, "REGISTER_PRIVATE_EXPEDITED again");
	expect(mb(REGISTER_GLOBAL_EXPEDITED, 0, 0), 0, "REGISTER_GLOBAL_EXPEDITED");
	expect_registered(REGISTER_PRIVATE_EXPEDITED_SYNC_CORE | REGISTER_PRIVATE_EXPEDITED |
				  REGISTER_GLOBAL_EXPEDITED,
			  "all three");

	check(pthread_create(&th, NULL, spin, NULL) == 0, "a thread spins");
	expect(mb(PRIVATE_EXPEDITED, 0, 0), 0, "PRIVATE_EXPEDITED, two threads");
	expect(mb(PRIVATE_EXPEDITED_SYNC_CORE, 0, 0), 0,
	       "PRIVATE_EXPEDITED_SYNC_CORE, two threads");
	expect(mb(GLOBAL_EXPEDITED, 0, 0), 0, "GLOBAL_EXPEDITED, two threads");
	stop = 1;
	pthread_join(th, NULL);

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		expect_registered(REGISTER_PRIVATE_EXPEDITED_SYNC_CORE |
					  REGISTER_PRIVATE_EXPEDITED | REGISTER_GLOBAL_EXPEDITED,
				  "a fork child keeps them");
		expect(mb(PRIVATE_EXPEDITED, 0, 0), 0, "a fork child: PRIVATE_EXPEDITED");
		fflush(stdout);
		execl("/proc/self/exe", argv[0], "exec", (char *)NULL);
		_exit(127);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the child");
	return 0;
}
