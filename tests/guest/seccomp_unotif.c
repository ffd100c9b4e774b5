/* seccomp user notification (seccomp_unotify(2)): a filter installed with
 * SECCOMP_FILTER_FLAG_NEW_LISTENER gives a listener fd; a call the filter
 * answers with SECCOMP_RET_USER_NOTIF waits until the supervisor RECVs it
 * and SENDs a value, an error or CONTINUE. ADDFD (SETFD, SEND), ID_VALID,
 * SET_FLAGS, poll and epoll of the listener, one listener per filter
 * tree (EBUSY), the flag checks, a signal withdrawing a waiting call
 * (EINTR, SA_RESTART, WAIT_KILLABLE_RECV), and the listener closed under
 * a waiting call (ENOSYS). skas had none: NEW_LISTENER was EINVAL. Each
 * case runs in its own child; the target of a case is a child of that
 * one, which installs the filter (getppid is notified) and hands the
 * listener over a UNIX socket. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_FLUSH
#include "tap.h"
#include "seccomp_abi.h"

struct notif {
	uint64_t id;
	uint32_t pid;
	uint32_t flags;
	struct seccomp_data data;
};
struct notif_resp {
	uint64_t id;
	int64_t val;
	int32_t error;
	uint32_t flags;
};
struct notif_addfd {
	uint64_t id;
	uint32_t flags;
	uint32_t srcfd;
	uint32_t newfd;
	uint32_t newfd_flags;
};
struct notif_sizes {
	uint16_t notif, resp, data;
};

#define BPF_LD_W_ABS		0x20
#define BPF_JEQ_K		0x15
#define BPF_RET_K		0x06
#define SET_MODE_FILTER		1
#define GET_ACTION_AVAIL	2
#define GET_NOTIF_SIZES		3
#define FLAG_TSYNC		1
#define FLAG_NEW_LISTENER	8
#define FLAG_TSYNC_ESRCH	16
#define FLAG_WAIT_KILLABLE_RECV 32
#define RET_USER_NOTIF		0x7fc00000U
#define RET_ALLOW		0x7fff0000U
#define NOTIF_FLAG_CONTINUE	1
#define ADDFD_FLAG_SETFD	1
#define ADDFD_FLAG_SEND		2

#define IOC(dir, nr, size)   (((unsigned)(dir) << 30) | ((size) << 16) | ('!' << 8) | (nr))
#define IOCTL_RECV	     IOC(3, 0, 80)
#define IOCTL_SEND	     IOC(3, 1, 24)
#define IOCTL_ID_VALID	     IOC(1, 2, 8)
#define IOCTL_ID_VALID_WRONG IOC(2, 2, 8)
#define IOCTL_ADDFD	     IOC(1, 3, 24)
#define IOCTL_SET_FLAGS	     IOC(1, 4, 8)

/* getppid is notified, the rest pass. */
static int install(unsigned flags)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD_W_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JEQ_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET_K, RET_USER_NOTIF),
		BPF_STMT(BPF_RET_K, RET_ALLOW),
	};
	struct sock_fprog prog = { 4, f };

	return (int)syscall(SYS_seccomp, SET_MODE_FILTER, flags, &prog);
}

static int send_fd(int sock, int fd)
{
	char c = 'f', buf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr m = { 0 };
	struct cmsghdr *cm;

	memset(buf, 0, sizeof(buf));
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = buf;
	m.msg_controllen = sizeof(buf);
	cm = CMSG_FIRSTHDR(&m);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &m, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char c, buf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr m = { 0 };
	struct cmsghdr *cm;
	int fd;

	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = buf;
	m.msg_controllen = sizeof(buf);
	if (recvmsg(sock, &m, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&m);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/* The target's report pipe: it writes a byte at each step it is asked
 * to tell; and its hold pipe, where it waits for the case to end (an
 * exited target would make the listener HUP). */
static int rep[2], hold[2];

static void wait_end(void)
{
	char c;

	if (read(hold[0], &c, 1) != 0)
		_exit(97);
}

static void tell(void)
{
	if (write(rep[1], "r", 1) != 1)
		_exit(99);
}

static int heard(void)
{
	char c;

	return read(rep[0], &c, 1) == 1;
}

/* Forks a target that installs the filter with flags, hands over the
 * listener (*lfd) and returns fn()'s value as its exit status. */
static pid_t spawn(unsigned flags, int (*fn)(void), int *lfd)
{
	int sv[2], fd;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0 || pipe(rep) < 0 || pipe(hold) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		close(rep[0]);
		close(hold[1]);
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		fd = install(flags);
		if (fd < 0 || send_fd(sv[1], fd) < 0)
			_exit(98);
		close(fd);
		close(sv[1]);
		_exit(fn());
	}
	close(sv[1]);
	close(rep[1]);
	close(hold[0]);
	*lfd = pid > 0 ? recv_fd(sv[0]) : -1;
	close(sv[0]);
	return pid;
}

static int reap(pid_t pid)
{
	int status;

	close(hold[1]);

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int do_recv(int lfd, struct notif *nt)
{
	memset(nt, 0, sizeof(*nt));
	return ioctl(lfd, IOCTL_RECV, nt);
}

static int do_send(int lfd, uint64_t id, int64_t val, int32_t error, uint32_t flags)
{
	struct notif_resp r = { id, val, error, flags };

	return ioctl(lfd, IOCTL_SEND, &r);
}

static int id_valid(int lfd, uint64_t id)
{
	return ioctl(lfd, IOCTL_ID_VALID, &id);
}

static int addfd(int lfd, uint64_t id, uint32_t flags, int srcfd, int newfd, uint32_t nflags)
{
	struct notif_addfd a = { id, flags, (uint32_t)srcfd, (uint32_t)newfd, nflags };

	return ioctl(lfd, IOCTL_ADDFD, &a);
}

static int fails(int ret, int err)
{
	return ret == -1 && errno == err;
}

/* The listener's readiness now. */
static int ready(int lfd)
{
	struct pollfd p = { lfd, POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM, 0 };

	if (poll(&p, 1, 0) < 0)
		return -1;
	return p.revents;
}

/* Waits until a notification is queued. */
static int wait_pending(int lfd)
{
	struct pollfd p = { lfd, POLLIN, 0 };

	return poll(&p, 1, -1) == 1 && (p.revents & POLLIN) ? 0 : -1;
}

static int in_child(int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn());
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int t_basic(void)
{
	long r = syscall(SYS_getppid, 1, 2, 3, 4, 5, 6);

	if (r != 42)
		return 1;
	errno = 0;
	if (syscall(SYS_getppid) != -1 || errno != EPERM)
		return 2;
	if (getpid() <= 0)
		return 3;
	return 0;
}

static int basic_case(void)
{
	struct notif a, b;
	int lfd, i;
	pid_t pid = spawn(FLAG_NEW_LISTENER, t_basic, &lfd);

	if (pid < 0 || lfd < 0)
		return 10;
	if (do_recv(lfd, &a) != 0)
		return 11;
	if ((pid_t)a.pid != pid || a.flags || a.data.nr != SYS_getppid ||
	    a.data.arch != AUDIT_ARCH_X86_64 || a.data.instruction_pointer == 0)
		return 12;
	for (i = 0; i < 6; i++)
		if (a.data.args[i] != (uint64_t)i + 1)
			return 13;
	if (id_valid(lfd, a.id) != 0 || ioctl(lfd, IOCTL_ID_VALID_WRONG, &a.id) != 0)
		return 14;
	if (do_send(lfd, a.id, 42, 0, 0) != 0)
		return 15;
	if (do_recv(lfd, &b) != 0 || b.id != a.id + 1 || b.data.nr != SYS_getppid)
		return 16;
	if (do_send(lfd, b.id, 99, -EPERM, 0) != 0) /* the error wins */
		return 17;
	if (reap(pid) != 0)
		return 18;
	/* Nobody uses the filter: HUP, and RECV does not wait. */
	if (ready(lfd) != POLLHUP)
		return 19;
	if (!fails(do_recv(lfd, &a), ENOENT) || !fails(do_send(lfd, b.id, 0, 0, 0), ENOENT) ||
	    !fails(id_valid(lfd, b.id), ENOENT))
		return 20;
	return 0;
}

static int t_twice(void)
{
	if (syscall(SYS_getppid) != 5)
		return 1;
	if (syscall(SYS_getppid) != 6)
		return 2;
	return 0;
}

/* States: nothing, queued (POLLIN), received (POLLOUT); answers before
 * the RECV are EINPROGRESS. */
static int states_case(void)
{
	struct notif a, b;
	int lfd, ep, fd;
	struct epoll_event ev = { EPOLLIN, { 0 } };
	pid_t pid = spawn(FLAG_NEW_LISTENER, t_twice, &lfd);

	if (pid < 0 || lfd < 0)
		return 10;
	ep = epoll_create1(0);
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev) < 0)
		return 11;
	if (epoll_wait(ep, &ev, 1, -1) != 1 || ev.events != EPOLLIN)
		return 12;
	if (ready(lfd) != (POLLIN | POLLRDNORM))
		return 13;
	if (do_recv(lfd, &a) != 0)
		return 14;
	if (ready(lfd) != (POLLOUT | POLLWRNORM) || epoll_wait(ep, &ev, 1, 0) != 0)
		return 15;
	if (do_send(lfd, a.id, 5, 0, 0) != 0)
		return 16;
	if (wait_pending(lfd) < 0)
		return 17;
	fd = open("/dev/null", O_RDONLY);
	if (!fails(do_send(lfd, a.id + 1, 6, 0, 0), EINPROGRESS) ||
	    !fails(id_valid(lfd, a.id + 1), ENOENT) ||
	    !fails(addfd(lfd, a.id + 1, 0, fd, 0, 0), EINPROGRESS))
		return 18;
	if (!fails(do_send(lfd, a.id + 2, 6, 0, 0), ENOENT) ||
	    !fails(addfd(lfd, a.id + 2, 0, fd, 0, 0), ENOENT))
		return 19;
	if (do_recv(lfd, &b) != 0 || b.id != a.id + 1)
		return 20;
	if (do_send(lfd, b.id, 6, 0, 0) != 0)
		return 21;
	return reap(pid);
}

static pid_t real_ppid;

static int t_continue(void)
{
	if (syscall(SYS_getppid) != real_ppid)
		return 1;
	return 0;
}

static int continue_case(void)
{
	struct notif a;
	int lfd;
	pid_t pid;

	real_ppid = getpid();
	pid = spawn(FLAG_NEW_LISTENER, t_continue, &lfd);
	if (pid < 0 || lfd < 0)
		return 10;
	if (do_recv(lfd, &a) != 0)
		return 11;
	if (!fails(do_send(lfd, a.id, 1, 0, NOTIF_FLAG_CONTINUE), EINVAL) ||
	    !fails(do_send(lfd, a.id, 0, -1, NOTIF_FLAG_CONTINUE), EINVAL) ||
	    !fails(do_send(lfd, a.id, 0, 0, 2), EINVAL))
		return 12;
	if (do_send(lfd, a.id, 0, 0, NOTIF_FLAG_CONTINUE) != 0)
		return 13;
	return reap(pid);
}

static int t_addfd(void)
{
	long fd = syscall(SYS_getppid);

	if (fd < 0 || fcntl((int)fd, F_GETFD) != 0 || write((int)fd, "a", 1) != 1)
		return 1;
	fd = syscall(SYS_getppid);
	if (fd != 77 || fcntl(77, F_GETFD) != FD_CLOEXEC || write(77, "b", 1) != 1)
		return 2;
	fd = syscall(SYS_getppid);
	if (fd < 0 || fd == 77 || fcntl((int)fd, F_GETFD) != 0 || write((int)fd, "c", 1) != 1)
		return 3;
	return 0;
}

static int addfd_case(void)
{
	struct notif a;
	struct notif_addfd big[2];
	int lfd, p[2], fd;
	char buf[4] = { 0 };
	pid_t pid;

	if (pipe(p) < 0)
		return 9;
	pid = spawn(FLAG_NEW_LISTENER, t_addfd, &lfd);
	if (pid < 0 || lfd < 0)
		return 10;
	if (do_recv(lfd, &a) != 0)
		return 11;
	if (!fails(addfd(lfd, a.id, 0, p[1], 0, O_NONBLOCK), EINVAL) ||
	    !fails(addfd(lfd, a.id, 4, p[1], 0, 0), EINVAL) ||
	    !fails(addfd(lfd, a.id, 0, p[1], 5, 0), EINVAL) ||
	    !fails(addfd(lfd, a.id, 0, -1, 0, 0), EBADF) ||
	    !fails(addfd(lfd, a.id + 1, 0, p[1], 0, 0), ENOENT))
		return 12;
	/* Its size is in the number: below the first version's EINVAL, a
	 * longer one must be zeros past it (E2BIG). */
	memset(big, 0, sizeof(big));
	big[0] = (struct notif_addfd){ a.id, 0, (uint32_t)p[1], 0, 0 };
	big[1].id = 1;
	if (!fails(ioctl(lfd, IOC(1, 3, 16), &big[0]), EINVAL) ||
	    !fails(ioctl(lfd, IOC(1, 3, 48), &big[0]), E2BIG))
		return 13;
	fd = addfd(lfd, a.id, 0, p[1], 0, 0);
	if (fd < 0 || do_send(lfd, a.id, fd, 0, 0) != 0)
		return 14;
	if (do_recv(lfd, &a) != 0)
		return 15;
	if (addfd(lfd, a.id, ADDFD_FLAG_SETFD, p[1], 77, O_CLOEXEC) != 77 ||
	    do_send(lfd, a.id, 77, 0, 0) != 0)
		return 16;
	if (do_recv(lfd, &a) != 0)
		return 17;
	fd = addfd(lfd, a.id, ADDFD_FLAG_SEND, p[1], 0, 0);
	if (fd < 0 || fd == 77)
		return 18;
	if (reap(pid) != 0)
		return 19;
	close(p[1]);
	if (read(p[0], buf, 3) != 3 || strcmp(buf, "abc") != 0)
		return 20;
	return 0;
}

static int t_sleep(void)
{
	syscall(SYS_getppid);
	return 1;
}

static int dead_case(void)
{
	struct notif a;
	int lfd;
	pid_t pid = spawn(FLAG_NEW_LISTENER, t_sleep, &lfd);

	if (pid < 0 || lfd < 0)
		return 10;
	if (do_recv(lfd, &a) != 0 || id_valid(lfd, a.id) != 0)
		return 11;
	kill(pid, SIGKILL);
	if (reap(pid) != 128 + SIGKILL)
		return 12;
	if (!fails(id_valid(lfd, a.id), ENOENT) || !fails(do_send(lfd, a.id, 0, 0, 0), ENOENT))
		return 13;
	if (ready(lfd) != POLLHUP)
		return 14;
	return 0;
}

static int t_hold(void)
{
	wait_end();
	return 0;
}

/* A RECV finds nothing once no task runs under the filter, whether it
 * waited already or comes after. */
static int gone_case(void)
{
	struct notif a;
	int lfd;
	pid_t pid = spawn(FLAG_NEW_LISTENER, t_hold, &lfd);

	if (pid < 0 || lfd < 0)
		return 10;
	if (ready(lfd) != 0)
		return 11;
	kill(pid, SIGKILL);
	if (!fails(do_recv(lfd, &a), ENOENT))
		return 12;
	if (reap(pid) != 128 + SIGKILL || ready(lfd) != POLLHUP)
		return 13;
	return 0;
}

/* One listener in a filter tree: EBUSY under one that has it, for a child
 * too; once it is closed, the filter answers ENOSYS and another may
 * come. */
static int ebusy_case(void)
{
	int fd, status;
	pid_t pid;

	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	fd = install(FLAG_NEW_LISTENER);
	if (fd < 0)
		return 10;
	if (!fails(install(FLAG_NEW_LISTENER), EBUSY))
		return 11;
	if (install(0) != 0 || !fails(install(FLAG_NEW_LISTENER), EBUSY))
		return 12;
	pid = fork();
	if (pid == 0)
		_exit(fails(install(FLAG_NEW_LISTENER), EBUSY) ? 0 : 1);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0)
		return 13;
	close(fd);
	if (!fails(syscall(SYS_getppid), ENOSYS))
		return 14;
	fd = install(FLAG_NEW_LISTENER);
	if (fd < 0)
		return 15;
	return 0;
}

static int flags_case(void)
{
	struct notif_sizes s;
	struct notif a;
	char link[64], path[64];
	uint32_t action = RET_USER_NOTIF;
	ssize_t len;
	int fd, fd2;

	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (syscall(SYS_seccomp, GET_ACTION_AVAIL, 0, &action) != 0)
		return 10;
	if (syscall(SYS_seccomp, GET_NOTIF_SIZES, 0, &s) != 0 || s.notif != 80 || s.resp != 24 ||
	    s.data != 64)
		return 11;
	if (!fails(install(FLAG_NEW_LISTENER | FLAG_TSYNC), EINVAL) ||
	    !fails(install(FLAG_WAIT_KILLABLE_RECV), EINVAL) ||
	    !fails(install(FLAG_WAIT_KILLABLE_RECV | FLAG_TSYNC), EINVAL))
		return 12;
	fd2 = dup(0);
	close(fd2); /* the lowest free fd */
	fd = install(FLAG_NEW_LISTENER | FLAG_TSYNC | FLAG_TSYNC_ESRCH | FLAG_WAIT_KILLABLE_RECV);
	if (fd != fd2)
		return 13;
	if (fcntl(fd, F_GETFD) != FD_CLOEXEC || (fcntl(fd, F_GETFL) & O_ACCMODE) != O_RDWR)
		return 14;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	len = readlink(path, link, sizeof(link) - 1);
	if (len < 0)
		return 15;
	link[len] = 0;
	if (strcmp(link, "anon_inode:seccomp notify") != 0)
		return 16;
	if (!fails(read(fd, link, 8), EINVAL) || !fails(write(fd, link, 8), EINVAL) ||
	    !fails(read(fd, link, 0), EINVAL) || !fails(lseek(fd, 0, SEEK_SET), ESPIPE))
		return 17;
	if (!fails(ioctl(fd, IOC(3, 9, 8), &a), EINVAL) || !fails(ioctl(fd, 0x5401, &a), EINVAL))
		return 18;
	memset(&a, 0, sizeof(a));
	a.data.args[5] = 1;
	if (!fails(ioctl(fd, IOCTL_RECV, &a), EINVAL))
		return 19;
	if (!fails(do_send(fd, 1, 0, 0, 4), EINVAL))
		return 20;
	if (!fails(ioctl(fd, IOCTL_SET_FLAGS, 2UL), EINVAL) ||
	    ioctl(fd, IOCTL_SET_FLAGS, 1UL) != 0 || ioctl(fd, IOCTL_SET_FLAGS, 0UL) != 0)
		return 21;
	if (!fails(ioctl(fd, IOCTL_RECV, (void *)8), EFAULT) ||
	    !fails(ioctl(fd, IOCTL_SEND, (void *)8), EFAULT) ||
	    !fails(ioctl(fd, IOCTL_ID_VALID, (void *)8), EFAULT))
		return 22;
	return 0;
}

static volatile int got_usr1;

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1++;
}

static void handle_usr1(int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = flags;
	sigaction(SIGUSR1, &sa, NULL);
}

static int t_eintr(void)
{
	handle_usr1(0);
	errno = 0;
	if (syscall(SYS_getppid) != -1 || errno != EINTR || got_usr1 != 1)
		return 1;
	tell();
	errno = 0;
	if (syscall(SYS_getppid) != -1 || errno != EINTR || got_usr1 != 2)
		return 2;
	tell();
	wait_end();
	return 0;
}

/* A signal withdraws the notification, received or not; one that was not
 * received leaves RECV an ENOENT, as Linux counts it. */
static int eintr_case(void)
{
	struct notif a;
	int lfd;
	pid_t pid = spawn(FLAG_NEW_LISTENER, t_eintr, &lfd);

	if (pid < 0 || lfd < 0)
		return 10;
	if (do_recv(lfd, &a) != 0)
		return 11;
	kill(pid, SIGUSR1);
	if (!heard())
		return 12;
	if (!fails(id_valid(lfd, a.id), ENOENT) || !fails(do_send(lfd, a.id, 0, 0, 0), ENOENT))
		return 13;
	if (wait_pending(lfd) < 0)
		return 14;
	kill(pid, SIGUSR1);
	if (!heard())
		return 15;
	if (ready(lfd) != 0 || !fails(do_recv(lfd, &a), ENOENT))
		return 16;
	return reap(pid);
}

static int t_restart(void)
{
	handle_usr1(SA_RESTART);
	if (syscall(SYS_getppid) != 9 || got_usr1 != 1)
		return 1;
	return 0;
}

/* With SA_RESTART the call comes again: a new notification. */
static int restart_case(void)
{
	struct notif a, b;
	int lfd;
	pid_t pid = spawn(FLAG_NEW_LISTENER, t_restart, &lfd);

	if (pid < 0 || lfd < 0)
		return 10;
	if (do_recv(lfd, &a) != 0)
		return 11;
	kill(pid, SIGUSR1);
	if (do_recv(lfd, &b) != 0 || b.id != a.id + 1 || b.data.nr != SYS_getppid)
		return 12;
	if (do_send(lfd, b.id, 9, 0, 0) != 0)
		return 13;
	return reap(pid);
}

static int t_stop(void)
{
	if (syscall(SYS_getppid) != 4)
		return 1;
	return 0;
}

/* A stop withdraws it too; SIGCONT brings the call again. */
static int stop_case(void)
{
	struct notif a, b;
	int lfd, status;
	pid_t pid = spawn(FLAG_NEW_LISTENER, t_stop, &lfd);

	if (pid < 0 || lfd < 0)
		return 10;
	if (do_recv(lfd, &a) != 0)
		return 11;
	kill(pid, SIGSTOP);
	if (waitpid(pid, &status, WUNTRACED) != pid || !WIFSTOPPED(status))
		return 12;
	if (!fails(id_valid(lfd, a.id), ENOENT) || ready(lfd) != 0)
		return 13;
	kill(pid, SIGCONT);
	if (do_recv(lfd, &b) != 0 || b.id != a.id + 1)
		return 14;
	if (do_send(lfd, b.id, 4, 0, 0) != 0)
		return 15;
	return reap(pid);
}

static int t_killable(void)
{
	handle_usr1(0);
	if (syscall(SYS_getppid) != 3 || got_usr1 != 1)
		return 1;
	errno = 0;
	if (syscall(SYS_getppid) != -1 || errno != EINTR || got_usr1 != 2)
		return 2;
	tell();
	return 0;
}

/* Until the signal is taken: SigPnd or ShdPnd has it. */
static int signal_queued(pid_t pid, int sig)
{
	char path[64], line[128];
	unsigned long long mask = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long m;

		if ((sscanf(line, "SigPnd: %llx", &m) == 1) ||
		    (sscanf(line, "ShdPnd: %llx", &m) == 1))
			mask |= m;
	}
	fclose(f);
	return (mask >> (sig - 1)) & 1;
}

/* WAIT_KILLABLE_RECV: once received, only a fatal signal ends the wait;
 * before, any signal does. */
static int killable_case(void)
{
	struct notif a;
	int lfd;
	pid_t pid = spawn(FLAG_NEW_LISTENER | FLAG_WAIT_KILLABLE_RECV, t_killable, &lfd);

	if (pid < 0 || lfd < 0)
		return 10;
	if (do_recv(lfd, &a) != 0)
		return 11;
	kill(pid, SIGUSR1);
	while (!signal_queued(pid, SIGUSR1))
		sched_yield();
	if (id_valid(lfd, a.id) != 0 || do_send(lfd, a.id, 3, 0, 0) != 0)
		return 12;
	if (wait_pending(lfd) < 0)
		return 13;
	kill(pid, SIGUSR1);
	if (!heard())
		return 14;
	if (!fails(do_recv(lfd, &a), ENOENT))
		return 15;
	return reap(pid);
}

static int t_enosys(void)
{
	if (!fails(syscall(SYS_getppid), ENOSYS))
		return 1;
	if (!fails(syscall(SYS_getppid), ENOSYS))
		return 2;
	return 0;
}

/* Closing the listener answers every waiting call ENOSYS, received or
 * not, and the ones after. */
static int closed_case(void)
{
	struct notif a;
	int lfd;
	pid_t pid = spawn(FLAG_NEW_LISTENER, t_enosys, &lfd);

	if (pid < 0 || lfd < 0)
		return 10;
	if (wait_pending(lfd) < 0)
		return 11;
	close(lfd);
	if (reap(pid) != 0)
		return 12;
	pid = spawn(FLAG_NEW_LISTENER, t_enosys, &lfd);
	if (pid < 0 || lfd < 0)
		return 13;
	if (do_recv(lfd, &a) != 0)
		return 14;
	close(lfd);
	return reap(pid);
}

static void run(int (*fn)(void), const char *what)
{
	int st = in_child(fn);

	if (st)
		printf("# %s: %d\n", what, st);
	check(st == 0, what);
}

int main(void)
{
	run(basic_case, "RECV gives nr, arch, args, pid; SEND a value, an error; HUP at the end");
	run(states_case, "POLLIN, POLLOUT, epoll; EINPROGRESS before the RECV, ENOENT for none");
	run(continue_case, "SEND CONTINUE runs the call; CONTINUE with a value EINVAL");
	run(addfd_case, "ADDFD, SETFD with O_CLOEXEC, SEND; its EINVAL, EBADF, ENOENT, E2BIG");
	run(dead_case, "ID_VALID and SEND: ENOENT once the target died");
	run(gone_case, "RECV when the last task under the filter goes: ENOENT");
	run(ebusy_case, "one listener per filter tree: EBUSY; closed, the filter says ENOSYS");
	run(flags_case, "flag checks, the fd (cloexec, its name), read, write, ioctls, sizes");
	run(eintr_case, "a signal withdraws the notification: EINTR, then RECV ENOENT");
	run(restart_case, "SA_RESTART: the call comes again as a new notification");
	run(stop_case, "a stop withdraws it; SIGCONT makes the call again");
	run(killable_case, "WAIT_KILLABLE_RECV: received, a signal waits for the answer");
	run(closed_case, "the listener closed under a waiting call: ENOSYS");
	return 0;
}
