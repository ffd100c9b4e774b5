/* prctl: PR_CAPBSET_READ (as root, the bounding set is the permitted set;
 * nothing beyond CAP_LAST_CAP), PR_GET_SECCOMP (0), PR_GET/SET_KEEPCAPS (a
 * setuid from root to a user keeps the permitted set; exec and bad values),
 * PR_GET/SET_TIMERSLACK (per thread, 0 sets the default back, inherited
 * by fork, 0 under SCHED_FIFO), PR_GET_TID_ADDRESS, PR_GET_AUXV (Linux
 * 6.4: the vector exec gave, its first len bytes; the whole saved array's
 * size returned, whatever len; skas had it EINVAL). */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "caps.h"
#ifndef PR_GET_AUXV
#define PR_GET_AUXV 0x41555856
#endif
#define TAP_ERR_NAMED
#include "tap.h"

/* In a child: keep-caps as asked, then every uid to 65534; exit 0 if the
 * permitted set is then nonempty, 1 if empty, 2 on error. */
static int setuid_child(int keep)
{
	struct cap_data d[2];
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		if (prctl(PR_SET_KEEPCAPS, keep, 0, 0, 0) != 0 ||
		    setresuid(65534, 65534, 65534) != 0 || caps_get(d) != 0)
			_exit(2);
		if (prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0) != keep)
			_exit(3);
		_exit(d[0].permitted || d[1].permitted ? (d[0].effective ? 4 : 0) : 1);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int main(void)
{
	struct sched_param sp = { .sched_priority = 1 };
	struct cap_data d[2];
	uint64_t addr = 1;
	long slack, child_slack;
	int i, all = 1, st;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);

	/* root's permitted set is the bounding set (no file capabilities):
	 * the host's may lack some, skas's lacks none */
	check(caps_get(d) == 0, "capget");
	for (i = 0; i <= CAP_LAST; i++) {
		long r = prctl(PR_CAPBSET_READ, i, 0, 0, 0);

		all &= getuid() == 0 ? r == ((d[i / 32].permitted >> (i % 32)) & 1)
				     : (r == 0 || r == 1);
	}
	check(all, "PR_CAPBSET_READ 0..40: as root, the permitted set");
	check_err(prctl(PR_CAPBSET_READ, CAP_LAST + 1, 0, 0, 0), EINVAL, "EINVAL", "capability 41");
	check_err(prctl(PR_CAPBSET_READ, -1L, 0, 0, 0), EINVAL, "EINVAL", "capability -1");
	check(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 0, "PR_GET_SECCOMP: 0");

	check(prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0) == 0, "PR_GET_KEEPCAPS: 0");
	check_err(prctl(PR_SET_KEEPCAPS, 2, 0, 0, 0), EINVAL, "EINVAL", "PR_SET_KEEPCAPS 2");
	check(prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) == 0 && prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0) == 1,
	      "PR_SET_KEEPCAPS 1");
	check(prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) == 0 && prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0) == 0,
	      "PR_SET_KEEPCAPS 0");
	if (getuid() == 0) {
		check(setuid_child(0) == 1, "root to a user: the permitted set is gone");
		check(setuid_child(1) == 0, "with keep-caps: kept, the effective set empty");
	} else {
		check(1, "(not root: no setuid checks)");
		check(1, "(not root: no setuid checks)");
	}
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "/bin/sh", "-c", "exit 0", NULL };

		prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0);
		execv(argv[0], argv);
		_exit(127);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a child with keep-caps runs /bin/sh");

	slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	check(slack > 0, "PR_GET_TIMERSLACK: some slack");
	check(prctl(PR_SET_TIMERSLACK, 123456, 0, 0, 0) == 0 &&
		      prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0) == 123456,
	      "PR_SET_TIMERSLACK 123456");
	pid = fork();
	if (pid == 0) {
		long s = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);

		prctl(PR_SET_TIMERSLACK, 0, 0, 0, 0); /* back to its default: ours */
		_exit(s == 123456 && prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0) == 123456 ? 0 : 1);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a child inherits it, as its default too");
	check(prctl(PR_SET_TIMERSLACK, 0, 0, 0, 0) == 0 &&
		      prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0) == slack,
	      "PR_SET_TIMERSLACK 0: our default again");
	if (sched_setscheduler(0, SCHED_FIFO, &sp) == 0) {
		child_slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
		check(child_slack == 0, "SCHED_FIFO: no slack");
		check(prctl(PR_SET_TIMERSLACK, 5000, 0, 0, 0) == 0 &&
			      prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0) == 0,
		      "SCHED_FIFO: setting is ignored");
		sp.sched_priority = 0;
		check(sched_setscheduler(0, SCHED_OTHER, &sp) == 0 &&
			      prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0) == slack,
		      "SCHED_OTHER again: the default");
	} else {
		check(1, "(no SCHED_FIFO here)");
		check(1, "(no SCHED_FIFO here)");
		check(1, "(no SCHED_FIFO here)");
	}

	check(prctl(PR_GET_TID_ADDRESS, &addr, 0, 0, 0) == 0 && addr != 1,
	      "PR_GET_TID_ADDRESS: libc's clear_child_tid");
	check_err(prctl(PR_GET_TID_ADDRESS, (void *)8, 0, 0, 0), EFAULT, "EFAULT",
		  "PR_GET_TID_ADDRESS to a bad pointer");
	{
		unsigned long v[128], one[2] = { 7, 7 };
		long size;
		int pagesz = 0, entry = 0, end = 0;

		memset(v, 0xff, sizeof(v));
		size = prctl(PR_GET_AUXV, v, sizeof(v), 0, 0);
		for (i = 0; size > 0 && i < size / 8 - 1; i += 2) {
			if (v[i] == AT_PAGESZ && v[i + 1] == getauxval(AT_PAGESZ))
				pagesz = 1;
			if (v[i] == AT_ENTRY && v[i + 1] == getauxval(AT_ENTRY))
				entry = 1;
			if (v[i] == AT_NULL) {
				end = i;
				break;
			}
		}
		check(size > 0 && size % 16 == 0 && size <= (long)sizeof(v) && v[size / 8] == ~0UL,
		      "PR_GET_AUXV: the saved array's size, that many bytes written");
		check(pagesz && entry && end > 0 && v[end + 1] == 0 && v[size / 8 - 1] == 0,
		      "AT_PAGESZ and AT_ENTRY as getauxval says, AT_NULL, zeros after");
		check(prctl(PR_GET_AUXV, one, 8, 0, 0) == size && one[0] == v[0] && one[1] == 7,
		      "a len of 8: 8 bytes copied, the size returned all the same");
		check(prctl(PR_GET_AUXV, NULL, 0, 0, 0) == size, "NULL with a len of 0: the size");
		check_err(prctl(PR_GET_AUXV, (void *)8, 8, 0, 0), EFAULT, "EFAULT",
			  "PR_GET_AUXV to a bad pointer");
		check_err(prctl(PR_GET_AUXV, v, 8, 1, 0), EINVAL, "EINVAL",
			  "PR_GET_AUXV with arg4");
	}
	return 0;
}
