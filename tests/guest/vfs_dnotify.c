/* dnotify (fcntl F_NOTIFY) and a file's owner and signal (F_SETOWN,
 * F_SETOWN_EX, F_SETSIG and their getters). A directory's changes of the
 * asked kinds signal its owner (the caller) with F_SETSIG's signal,
 * si_code POLL_MSG, si_band and si_fd, or plain SIGIO; once, or every
 * time with DN_MULTISHOT; F_NOTIFY 0 or a close of the fd ends it, a
 * child closing its copy does not. skas once said EINVAL to all of these
 * (CPython's test_fcntl test_fcntl_64_bit: F_NOTIFY with DN_MULTISHOT).
 * The signals are blocked and counted, never waited for. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tap.h"
static char dir[64];

/* How many sig are pending; takes them all and keeps the last's info. */
static int take(int sig, siginfo_t *last)
{
	sigset_t set, pend;
	struct timespec zero = { 0, 0 };
	int count = 0;

	sigemptyset(&set);
	sigaddset(&set, sig);
	for (;;) {
		sigpending(&pend);
		if (!sigismember(&pend, sig))
			return count;
		if (sigtimedwait(&set, last, &zero) != sig)
			return count;
		count++;
	}
}

static void touch(const char *name)
{
	char p[128];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fd = open(p, O_CREAT | O_WRONLY, 0600);
	if (fd >= 0)
		close(fd);
}

static void do_chmod(const char *name, mode_t m)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	chmod(p, m);
}

int main(void)
{
	struct f_owner_ex ex;
	siginfo_t si;
	sigset_t set;
	int d, d2, f, sig = SIGRTMIN + 1, st;
	pid_t c;
	char p[128];

	setvbuf(stdout, NULL, _IONBF, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	sigaddset(&set, sig);
	sigaddset(&set, sig + 1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	strcpy(dir, "/tmp/dnotifyXXXXXX");
	if (!mkdtemp(dir))
		return 1;
	d = open(dir, O_RDONLY | O_DIRECTORY);

	/* a fresh file's owner and signal */
	check(fcntl(d, F_GETOWN) == 0, "F_GETOWN of a fresh file: 0");
	check(fcntl(d, F_GETSIG) == 0, "F_GETSIG of a fresh file: 0");
	memset(&ex, 0xff, sizeof(ex));
	check(fcntl(d, F_GETOWN_EX, &ex) == 0 && ex.type == F_OWNER_TID && ex.pid == 0,
	      "F_GETOWN_EX of a fresh file: F_OWNER_TID, 0");

	/* DN_MULTISHOT alone is F_NOTIFY 0: nothing to do */
	check(fcntl(d, F_NOTIFY, (unsigned long)DN_MULTISHOT) == 0,
	      "F_NOTIFY DN_MULTISHOT alone: 0");
	check(fcntl(d, F_GETOWN) == 0, "... sets no owner");

	/* multishot creates, with F_SETSIG's signal */
	check(fcntl(d, F_SETSIG, sig) == 0 && fcntl(d, F_GETSIG) == sig, "F_SETSIG SIGRTMIN+1");
	check(fcntl(d, F_NOTIFY, (unsigned long)(DN_CREATE | DN_MULTISHOT)) == 0,
	      "F_NOTIFY DN_CREATE|DN_MULTISHOT");
	check(fcntl(d, F_GETOWN) == getpid(), "the caller owns the directory now");
	touch("a");
	check(take(sig, &si) == 1, "a create: one signal");
	check(si.si_code == POLL_MSG && si.si_fd == d &&
		      si.si_band == (POLLIN | POLLRDNORM | POLLMSG),
	      "si_code POLL_MSG, si_fd, si_band POLLIN|POLLRDNORM|POLLMSG");
	touch("b");
	touch("c");
	check(take(sig, &si) == 2, "two more creates: two more signals");
	do_chmod("a", 0644);
	check(take(sig, &si) == 0, "a chmod was not asked for: none");

	/* a second F_NOTIFY through the same file adds to the mask */
	check(fcntl(d, F_NOTIFY, (unsigned long)(DN_ATTRIB | DN_MULTISHOT)) == 0, "add DN_ATTRIB");
	do_chmod("a", 0600);
	touch("d");
	check(take(sig, &si) == 2, "now a chmod and a create signal");

	/* a child's close of its copy leaves the mark; its changes count */
	c = fork();
	if (c == 0) {
		close(d);
		touch("e");
		_exit(0);
	}
	waitpid(c, &st, 0);
	check(take(sig, &si) == 1, "a child's create after its close: one signal");

	/* one-shot, through another open, with plain SIGIO */
	d2 = open(dir, O_RDONLY | O_DIRECTORY);
	check(fcntl(d2, F_NOTIFY, (unsigned long)DN_DELETE) == 0, "F_NOTIFY DN_DELETE, one shot");
	snprintf(p, sizeof(p), "%s/b", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/c", dir);
	unlink(p);
	check(take(SIGIO, &si) == 1 && si.si_code == SI_KERNEL,
	      "two deletes: one SIGIO, SI_KERNEL");
	check(take(sig, &si) == 0, "the first open did not ask for deletes");

	/* F_NOTIFY 0 ends it; so does a close */
	check(fcntl(d, F_NOTIFY, 0) == 0, "F_NOTIFY 0");
	touch("f");
	check(take(sig, &si) == 0, "no signal after F_NOTIFY 0");
	check(fcntl(d2, F_NOTIFY, (unsigned long)(DN_CREATE | DN_MULTISHOT)) == 0,
	      "F_NOTIFY DN_CREATE through the other open");
	close(d2);
	touch("g");
	check(take(SIGIO, &si) == 0, "no signal after its close");

	/* F_SETOWN, F_SETOWN_EX, F_SETSIG errors */
	f = open("/proc/self/exe", O_RDONLY);
	errno = 0;
	check(fcntl(f, F_NOTIFY, (unsigned long)DN_CREATE) == -1 && errno == ENOTDIR,
	      "F_NOTIFY of a regular file: ENOTDIR");
	errno = 0;
	check(fcntl(f, F_SETOWN, 0x3fffffff) == -1 && errno == ESRCH, "F_SETOWN of no one: ESRCH");
	check(fcntl(f, F_SETOWN, -getpgrp()) == 0 && fcntl(f, F_GETOWN) == -getpgrp(),
	      "F_SETOWN of the process group: F_GETOWN gives it negative");
	ex.type = F_OWNER_TID;
	ex.pid = (pid_t)syscall(SYS_gettid);
	check(fcntl(f, F_SETOWN_EX, &ex) == 0, "F_SETOWN_EX F_OWNER_TID");
	memset(&ex, 0, sizeof(ex));
	check(fcntl(f, F_GETOWN_EX, &ex) == 0 && ex.type == F_OWNER_TID &&
		      ex.pid == (pid_t)syscall(SYS_gettid),
	      "F_GETOWN_EX gives it back");
	ex.type = 3;
	errno = 0;
	check(fcntl(f, F_SETOWN_EX, &ex) == -1 && errno == EINVAL, "F_SETOWN_EX type 3: EINVAL");
	errno = 0;
	check(fcntl(f, F_SETSIG, 65) == -1 && errno == EINVAL, "F_SETSIG 65: EINVAL");
	errno = 0;
	check(fcntl(f, F_SETSIG, -1) == -1 && errno == EINVAL, "F_SETSIG -1: EINVAL");
	check(fcntl(f, F_SETOWN, 0) == 0 && fcntl(f, F_GETOWN) == 0, "F_SETOWN 0: no owner");
	close(f);
	close(d);

	for (const char *s = "adefg"; *s; s++) {
		snprintf(p, sizeof(p), "%s/%c", dir, *s);
		unlink(p);
	}
	rmdir(dir);
	return 0;
}
