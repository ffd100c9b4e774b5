/* TOCTOU: a second thread rewrites what a system call reads from memory (a
 * path, an iovec, a msghdr, a sigaction, a page's protection) while the
 * call runs. The kernel must copy each structure once and then use that
 * copy: what it validated is what it uses, the results agree with each
 * other (bytes reported = bytes that arrive), and nothing crashes. The
 * writer updates fields one by one, so a mixture of versions is a fair
 * reading, natively too. Only deterministic facts are printed. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "tap.h"

#define ROUNDS 3000
static atomic_int stop;

/* ---- a path flipping between two files and a name too long ---- */

static char path[8192];
static const char *const names[] = { "/tmp/toctou.a", "/tmp/toctou.bb" };

static void *flip_path(void *arg)
{
	unsigned i = 0;

	(void)arg;
	while (!atomic_load(&stop)) {
		switch (i++ % 3) {
		case 0:
		case 1:
			strcpy(path, names[i % 2]);
			break;
		case 2:
			memset(path, 'x', sizeof(path) - 1); /* ENAMETOOLONG */
			break;
		}
	}
	return NULL;
}

static int test_path(void)
{
	int i, fd, bad = 0;
	char c;

	for (i = 0; i < 2; i++) {
		fd = open(names[i], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, i ? "b" : "a", 1) != 1)
			return -1;
		close(fd);
	}
	strcpy(path, names[0]);
	for (i = 0; i < ROUNDS; i++) {
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			if (errno != ENOENT && errno != ENAMETOOLONG)
				bad++;
			continue;
		}
		if (read(fd, &c, 1) != 1 || (c != 'a' && c != 'b'))
			bad++;
		close(fd);
	}
	unlink(names[0]);
	unlink(names[1]);
	return bad;
}

/* ---- an iovec whose base and length change ---- */

static char bufa[64], bufb[64];
static struct iovec iov[2];

static void *flip_iov(void *arg)
{
	unsigned i = 0;

	(void)arg;
	while (!atomic_load(&stop)) {
		i++;
		iov[0].iov_base = (i & 1) ? bufa : bufb;
		iov[0].iov_len = (i & 2) ? 8 : 16;
		iov[1].iov_base = (i & 4) ? bufb : (char *)8; /* a bad pointer */
		iov[1].iov_len = (i & 8) ? 0 : 4;
	}
	return NULL;
}

/* writev into a pipe: what arrives is exactly what the call says it wrote,
 * all from one buffer per iovec entry. */
static int test_iov(void)
{
	int p[2], i, bad = 0;
	char got[64];
	ssize_t w, r;

	memset(bufa, 'A', sizeof(bufa));
	memset(bufb, 'B', sizeof(bufb));
	iov[0].iov_base = bufa;
	iov[0].iov_len = 8;
	iov[1].iov_base = bufb;
	iov[1].iov_len = 4;
	if (pipe(p) < 0)
		return -1;
	for (i = 0; i < ROUNDS; i++) {
		w = writev(p[1], iov, 2);
		if (w < 0) {
			if (errno != EFAULT)
				bad++;
			continue;
		}
		if (w != 8 && w != 12 && w != 16 && w != 20) {
			bad++;
			continue;
		}
		r = read(p[0], got, sizeof(got));
		if (r != w)
			bad++;
		else if (memcmp(got, got[0] == 'A' ? bufa : bufb, w > 12 ? 16 : 8) != 0)
			bad++;
	}
	close(p[0]);
	close(p[1]);
	return bad;
}

/* ---- a msghdr whose iovec count and name change ---- */

static struct msghdr mh;
static struct iovec miov[2];

static void *flip_msg(void *arg)
{
	unsigned i = 0;

	(void)arg;
	while (!atomic_load(&stop)) {
		i++;
		mh.msg_iovlen = (i & 1) ? 1 : 2;
		mh.msg_iov = (i & 2) ? miov : (struct iovec *)8;
		mh.msg_control = NULL;
		mh.msg_controllen = (i & 4) ? 0 : 1u << 30;
	}
	return NULL;
}

static int test_msg(void)
{
	int sv[2], i, bad = 0;
	char got[64];
	ssize_t w, r;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0)
		return -1;
	miov[0].iov_base = bufa;
	miov[0].iov_len = 5;
	miov[1].iov_base = bufb;
	miov[1].iov_len = 3;
	mh.msg_iov = miov;
	mh.msg_iovlen = 1;
	for (i = 0; i < ROUNDS; i++) {
		w = sendmsg(sv[0], &mh, MSG_DONTWAIT);
		if (w < 0) {
			if (errno != EFAULT && errno != EINVAL && errno != ENOBUFS &&
			    errno != EMSGSIZE && errno != ENOMEM)
				bad++;
			continue;
		}
		r = recv(sv[1], got, sizeof(got), 0);
		if (r != w || (w != 5 && w != 8) || memcmp(got, "AAAAA", 5) != 0 ||
		    (w == 8 && memcmp(got + 5, "BBB", 3) != 0))
			bad++;
	}
	close(sv[0]);
	close(sv[1]);
	return bad;
}

/* ---- a sigaction whose handler, flags and mask change ---- */

struct ksigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

static void handler_a(int s)
{
	(void)s;
}

static void handler_b(int s)
{
	(void)s;
}

#define SA_RESTORER_ 0x04000000UL
#define BIT(s)	     (1ULL << ((s)-1))

static struct ksigaction ksa;

/* The fields are written one by one, so a reader may see a mixture (on
 * Linux too); what the kernel validated is what it installs: SIGKILL and
 * SIGSTOP never end up in the mask, whichever version it read. */
static void *flip_sigaction(void *arg)
{
	unsigned i = 0;

	(void)arg;
	while (!atomic_load(&stop)) {
		i++;
		ksa.handler = (i & 1) ? handler_a : handler_b;
		ksa.flags = SA_RESTORER_ | ((i & 2) ? SA_RESTART : SA_NODEFER);
		ksa.mask = (i & 4) ? BIT(SIGKILL) | BIT(SIGSTOP) | BIT(SIGUSR2) : BIT(SIGTERM);
	}
	return NULL;
}

static int test_sigaction(void)
{
	struct ksigaction old;
	int i, bad = 0;

	ksa.handler = handler_a;
	ksa.flags = SA_RESTART | SA_RESTORER_;
	ksa.mask = BIT(SIGUSR2);
	for (i = 0; i < ROUNDS; i++) {
		if (syscall(SYS_rt_sigaction, SIGUSR1, &ksa, NULL, 8) < 0 ||
		    syscall(SYS_rt_sigaction, SIGUSR1, NULL, &old, 8) < 0) {
			bad++;
			continue;
		}
		if (old.handler != handler_a && old.handler != handler_b)
			bad++;
		else if (old.mask & (BIT(SIGKILL) | BIT(SIGSTOP)))
			bad++;
		else if (old.mask & ~(BIT(SIGUSR2) | BIT(SIGTERM)))
			bad++;
		else if (old.flags & ~(SA_RESTORER_ | SA_RESTART | SA_NODEFER))
			bad++;
	}
	signal(SIGUSR1, SIG_DFL);
	return bad;
}

/* ---- the page holding a path loses and regains its protection ---- */

static char *page;

static void *flip_prot(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		mprotect(page, 4096, PROT_NONE);
		mprotect(page, 4096, PROT_READ | PROT_WRITE);
	}
	return NULL;
}

/* The page is made (main) before the flipper starts. */
static int test_prot(void)
{
	int i, fd, bad = 0;

	for (i = 0; i < ROUNDS; i++) {
		fd = open(page, O_RDONLY);
		if (fd >= 0)
			close(fd);
		else if (errno != EFAULT)
			bad++;
	}
	return bad;
}

static void race(void *(*flipper)(void *), int (*test)(void), const char *what)
{
	pthread_t th;
	int bad;

	atomic_store(&stop, 0);
	if (pthread_create(&th, NULL, flipper, NULL) != 0) {
		check(0, what);
		return;
	}
	bad = test();
	atomic_store(&stop, 1);
	pthread_join(th, NULL);
	check(bad == 0, what);
	if (bad)
		printf("# %d inconsistent results\n", bad);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	race(flip_path, test_path, "open: a racing path names a file, or ENOENT/ENAMETOOLONG");
	race(flip_iov, test_iov, "writev: what arrives is what one version of the iovec says");
	race(flip_msg, test_msg, "sendmsg: what arrives is what one version of the msghdr says");
	race(flip_sigaction, test_sigaction,
	     "rt_sigaction: a racing mask never installs SIGKILL or SIGSTOP");
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return 1;
	strcpy(page, "/dev/null");
	race(flip_prot, test_prot, "open: a path on a page losing its protection: ok or EFAULT");
	check(1, "the kernel survived");
	return 0;
}
