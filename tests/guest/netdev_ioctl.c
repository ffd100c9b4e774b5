/* skas-test: netns: lo */
/* The interface ioctls, as in a network namespace holding only lo (the
 * native side runs in one): SIOCGIFCONF (the size asked with a NULL
 * buffer, a buffer too short for one entry), SIOCGIFNAME, SIOCGIFINDEX,
 * SIOCGIFFLAGS, the address ones (AF_INET sockets only: ENOTTY on others),
 * SIOCGIFMTU, SIOCGIFHWADDR, SIOCGIFTXQLEN, SIOCGIFMETRIC, SIOCGIFMAP on
 * every kind of socket; ENODEV for an unknown name or index, EFAULT; the
 * setters need CAP_NET_ADMIN (EPERM as nobody). A setter as root would
 * change the namespace natively and is not tried here (tests/scenario/
 * netdev.sh has skas's answer). */
#include "inet_util.h"

#include <net/if.h>
#include <sys/ioctl.h>
#include <stdlib.h>

static void dump_ifr(const char *what, int fd, unsigned long cmd, const char *name)
{
	struct ifreq ifr;
	unsigned char *u = (unsigned char *)&ifr.ifr_ifru;

	memset(&ifr, 0x5a, sizeof(ifr));
	memset(ifr.ifr_name, 0, sizeof(ifr.ifr_name));
	strncpy(ifr.ifr_name, name, sizeof(ifr.ifr_name));
	errno = 0;
	if (ioctl(fd, cmd, &ifr) < 0) {
		printf("%s %s: %s\n", what, name, ename(errno));
		return;
	}
	printf("%s %s: name \"%.16s\"", what, name, ifr.ifr_name);
	for (unsigned i = 0; i < sizeof(ifr.ifr_ifru); i++)
		printf(" %02x", u[i]);
	printf("\n");
}

static void getters(const char *kind, int fd)
{
	static const struct {
		unsigned long cmd;
		const char *name;
	} cmds[] = {
		{ SIOCGIFFLAGS, "SIOCGIFFLAGS" },     { SIOCGIFADDR, "SIOCGIFADDR" },
		{ SIOCGIFDSTADDR, "SIOCGIFDSTADDR" }, { SIOCGIFBRDADDR, "SIOCGIFBRDADDR" },
		{ SIOCGIFNETMASK, "SIOCGIFNETMASK" }, { SIOCGIFMETRIC, "SIOCGIFMETRIC" },
		{ SIOCGIFMTU, "SIOCGIFMTU" },	      { SIOCGIFHWADDR, "SIOCGIFHWADDR" },
		{ SIOCGIFINDEX, "SIOCGIFINDEX" },     { SIOCGIFTXQLEN, "SIOCGIFTXQLEN" },
		{ SIOCGIFMAP, "SIOCGIFMAP" },
	};
	struct ifreq ifr;
	int ret;

	printf("%s socket:\n", kind);
	for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		dump_ifr(cmds[i].name, fd, cmds[i].cmd, "lo");
		dump_ifr(cmds[i].name, fd, cmds[i].cmd, "nope");
	}
	/* a name filling all 16 bytes: the last is taken as its end */
	dump_ifr("SIOCGIFINDEX", fd, SIOCGIFINDEX, "lo\0xxxxxxxxxxxxx");
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_ifindex = 1;
	errno = 0;
	ret = ioctl(fd, SIOCGIFNAME, &ifr);
	printf("SIOCGIFNAME 1: %d \"%s\" %s\n", ret, ifr.ifr_name, ename(errno));
	ifr.ifr_ifindex = 2;
	errno = 0;
	ret = ioctl(fd, SIOCGIFNAME, &ifr);
	printf("SIOCGIFNAME 2: %d %s\n", ret, ename(errno));
	errno = 0;
	ret = ioctl(fd, SIOCGIFFLAGS, NULL);
	printf("SIOCGIFFLAGS at NULL: %d %s\n", ret, ename(errno));
}

static void ifconf(int fd)
{
	struct ifreq reqs[4];
	struct ifconf ifc;
	int ret;

	memset(reqs, 0x5a, sizeof(reqs));
	ifc.ifc_len = sizeof(reqs);
	ifc.ifc_req = reqs;
	ret = ioctl(fd, SIOCGIFCONF, &ifc);
	printf("SIOCGIFCONF: %d len %d\n", ret, ifc.ifc_len);
	for (int i = 0; i < ifc.ifc_len / (int)sizeof(struct ifreq); i++) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&reqs[i].ifr_addr;
		char s[32];

		inet_ntop(AF_INET, &sin->sin_addr, s, sizeof(s));
		printf(" %s family %d port %d %s\n", reqs[i].ifr_name, sin->sin_family,
		       sin->sin_port, s);
	}
	ifc.ifc_len = 0;
	ifc.ifc_req = NULL;
	ret = ioctl(fd, SIOCGIFCONF, &ifc);
	printf("SIOCGIFCONF NULL: %d len %d\n", ret, ifc.ifc_len);
	ifc.ifc_len = sizeof(struct ifreq) - 1;
	ifc.ifc_req = reqs;
	ret = ioctl(fd, SIOCGIFCONF, &ifc);
	printf("SIOCGIFCONF short: %d len %d\n", ret, ifc.ifc_len);
	ifc.ifc_len = sizeof(reqs);
	ifc.ifc_req = (struct ifreq *)8;
	errno = 0;
	ret = ioctl(fd, SIOCGIFCONF, &ifc);
	printf("SIOCGIFCONF bad buffer: %d %s\n", ret, ename(errno));
}

/* The setters as nobody: EPERM before the name is looked up. */
static void unprivileged(void)
{
	static const unsigned long setters[] = { SIOCSIFFLAGS,	SIOCSIFADDR, SIOCSIFNETMASK,
						 SIOCSIFMTU,	SIOCSIFNAME, SIOCSIFHWADDR,
						 SIOCSIFTXQLEN, SIOCSIFMAP };
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		int fd = socket(AF_INET, SOCK_DGRAM, 0), bad = 0;
		struct ifreq ifr;

		if (setgid(65534) < 0 || setuid(65534) < 0)
			_exit(2);
		for (unsigned i = 0; i < sizeof(setters) / sizeof(setters[0]); i++) {
			memset(&ifr, 0, sizeof(ifr));
			strcpy(ifr.ifr_name, i % 2 ? "lo" : "nope");
			errno = 0;
			if (ioctl(fd, setters[i], &ifr) == 0 || errno != EPERM)
				bad++;
		}
		_exit(bad);
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "setters as nobody: EPERM");
}

int main(void)
{
	int in = socket(AF_INET, SOCK_DGRAM, 0), in6 = socket(AF_INET6, SOCK_STREAM, 0);
	int un = socket(AF_UNIX, SOCK_DGRAM, 0);

	setvbuf(stdout, NULL, _IONBF, 0);
	getters("AF_INET", in);
	getters("AF_INET6", in6);
	getters("AF_UNIX", un);
	ifconf(in);
	ifconf(un);
	unprivileged();
	return 0;
}
