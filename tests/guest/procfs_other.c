/* /proc/PID of other processes: what a uid-1000 process may see of a root
 * process (fd/, fdinfo/, environ, maps, cwd need ptrace access: EACCES;
 * stat, status, cmdline do not), and of a zombie (mounts: EINVAL). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>

static int n;

static void check(int cond, const char *what)
{
	printf("%s %d - %s\n", cond ? "ok" : "not ok", ++n, what);
}

static const char *pp(int pid, const char *f)
{
	static char path[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, f);
	return path;
}

/* open and read: 0 if it gives bytes, else -errno (-1000: empty). */
static int rd(const char *path)
{
	char buf[512];
	int fd = open(path, O_RDONLY), e;
	ssize_t r;

	if (fd < 0)
		return -errno;
	r = read(fd, buf, sizeof(buf));
	e = errno;
	close(fd);
	return r > 0 ? 0 : r == 0 ? -1000 : -e;
}

static int od(const char *path)
{
	DIR *d = opendir(path);

	if (!d)
		return -errno;
	closedir(d);
	return 0;
}

static void as_user(int root_pid)
{
	if (setresgid(1000, 1000, 1000) < 0 || setresuid(1000, 1000, 1000) < 0) {
		check(0, "setresuid");
		return;
	}
	check(rd(pp(root_pid, "stat")) == 0, "uid 1000 reads a root process's stat");
	check(rd(pp(root_pid, "cmdline")) == 0, "and cmdline");
	check(rd(pp(root_pid, "environ")) == -EACCES, "not environ (EACCES)");
	check(rd(pp(root_pid, "maps")) == -EACCES, "not maps (EACCES)");
	check(od(pp(root_pid, "fd")) == -EACCES, "not fd/ (EACCES)");
	check(od(pp(root_pid, "fdinfo")) == -EACCES, "not fdinfo/ (EACCES)");
	check(rd(pp(root_pid, "fdinfo/0")) == -EACCES, "not fdinfo/0 (EACCES)");
	check(rd(pp(getpid(), "fdinfo/0")) == 0, "its own fdinfo/0");
	check(od(pp(getpid(), "fdinfo")) == 0, "its own fdinfo/");
}

int main(void)
{
	pid_t root_child, zombie, user;
	int st;

	setvbuf(stdout, NULL, _IONBF, 0);
	root_child = fork();
	if (root_child == 0) {
		pause();
		_exit(0);
	}
	user = fork();
	if (user == 0) {
		as_user(root_child);
		_exit(0);
	}
	waitpid(user, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the uid-1000 child exits");
	kill(root_child, SIGKILL);
	waitpid(root_child, &st, 0);

	zombie = fork();
	if (zombie == 0)
		_exit(3);
	/* a zombie once waitid with WNOWAIT says it exited */
	waitid(P_PID, zombie, NULL, WEXITED | WNOWAIT);
	check(rd(pp(zombie, "stat")) == 0, "a zombie's stat");
	check(rd(pp(zombie, "mounts")) == -EINVAL, "a zombie's mounts: EINVAL");
	check(rd(pp(zombie, "mountinfo")) == -EINVAL, "a zombie's mountinfo: EINVAL");
	check(rd(pp(zombie, "maps")) == -1000, "a zombie's maps: empty");
	waitpid(zombie, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 3, "the zombie is reaped");
	return 0;
}
