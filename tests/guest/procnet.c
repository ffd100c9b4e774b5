/* skas-test: netns: lo */
/* /proc/net, as in a network namespace holding only lo (the native side
 * runs in one): the link to self/net, dev, if_inet6, igmp, igmp6,
 * dev_mcast, route and arp (route -n, netstat -rn, arp -n), then tcp, tcp6, udp, udp6 and unix with sockets of this test
 * (listening, connected with unread data, bound UDP, a connected UDP6, a
 * named and an abstract AF_UNIX listener): the headers byte for byte and each socket's row
 * field by field, its inode that of fstat. What Linux leaves to chance or
 * to timing is not printed: row order (sorted here), hash buckets,
 * pointers, TCP's timer and congestion columns, traffic counters. */
#include "inet_util.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <stddef.h>
#include <sys/un.h>

static char *slurp(const char *path)
{
	static char buf[65536];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f) {
		printf("%s: %s\n", path, ename(errno));
		buf[0] = 0;
		return buf;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static unsigned long ino_of(int fd)
{
	struct stat st;

	fstat(fd, &st);
	return st.st_ino;
}

/* An ephemeral port differs from run to run: "port" unless 0. */
static void mask_port(char *addr)
{
	char *colon = strchr(addr, ':');

	if (colon && strcmp(colon, ":0000") != 0)
		strcpy(colon, ":port");
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Rows of tcp/udp[6]: the columns that do not depend on chance, sorted;
 * the inode checked against the sockets'. */
static void inet_file(const char *name, const unsigned long *inos, int ninos)
{
	char path[64], *text, *line, *save, *rows[32];
	int nrows = 0, first = 1;

	snprintf(path, sizeof(path), "/proc/net/%s", name);
	text = slurp(path);
	printf("%s:\n", name);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char local[64], remote[64], st[8], queues[32], trtm[32], retr[16];
		unsigned uid;
		int timeout;
		unsigned long ino;
		int known = 0;

		if (first) {
			printf(" header (%zu): [%s]\n", strlen(line), line);
			first = 0;
			continue;
		}
		if (sscanf(line, "%*s %63s %63s %7s %31s %31s %15s %u %d %lu", local, remote, st,
			   queues, trtm, retr, &uid, &timeout, &ino) != 9) {
			printf(" unparsed: [%s]\n", line);
			continue;
		}
		for (int i = 0; i < ninos; i++)
			known |= inos[i] == ino;
		if (!known || nrows == 32)
			continue;
		mask_port(local);
		mask_port(remote);
		rows[nrows] = malloc(256);
		/* the length but for the inode's digits (tcp and udp pad
		 * their lines to a width; the IPv6 files do not) */
		snprintf(path, sizeof(path), "%lu", ino);
		snprintf(rows[nrows], 256, "%s %s %s %s %s %s %u %d (len %zu)", local, remote, st,
			 queues, trtm, retr, uid, timeout,
			 strlen(line) - (strchr(name, '6') ? strlen(path) : 0));
		nrows++;
	}
	qsort(rows, nrows, sizeof(rows[0]), cmp);
	for (int i = 0; i < nrows; i++) {
		printf(" %s\n", rows[i]);
		free(rows[i]);
	}
}

static void unix_file(const char *dir, const unsigned long *inos, int ninos)
{
	char *text = slurp("/proc/net/unix"), *line, *save, *rows[16];
	int nrows = 0, first = 1;

	printf("unix:\n");
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char num[32], path[256] = "";
		unsigned ref, proto, flags, type, st;
		unsigned long ino;
		int known = 0;

		if (first) {
			printf(" header: [%s]\n", line);
			first = 0;
			continue;
		}
		if (sscanf(line, "%31s %x %x %x %x %x %lu %255s", num, &ref, &proto, &flags, &type,
			   &st, &ino, path) < 7)
			continue;
		for (int i = 0; i < ninos; i++)
			known |= inos[i] == ino;
		if (!known || nrows == 16)
			continue;
		if (strncmp(path, dir, strlen(dir)) == 0)
			memmove(path + 3, path + strlen(dir), strlen(path + strlen(dir)) + 1),
				memcpy(path, "DIR", 3);
		rows[nrows] = malloc(300);
		snprintf(rows[nrows], 300, "protocol %x flags %x type %x st %x path %s", proto,
			 flags, type, st, path[0] ? path : "(none)");
		nrows++;
	}
	qsort(rows, nrows, sizeof(rows[0]), cmp);
	for (int i = 0; i < nrows; i++) {
		printf(" %s\n", rows[i]);
		free(rows[i]);
	}
}

int main(void)
{
	char link[64] = "", dir[] = "/tmp/procnet.XXXXXX", *devtext;
	struct sockaddr_in a = sin4("127.0.0.1", 0), b;
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	socklen_t len = sizeof(b);
	unsigned long inos[16];
	int n = 0, l, c, s, u, u6, l6, x, xa, xc;
	ssize_t r;

	setvbuf(stdout, NULL, _IONBF, 0);
	r = readlink("/proc/net", link, sizeof(link) - 1);
	printf("/proc/net -> %s (%zd)\n", link, r);
	/* dev before any traffic: its counters are 0 natively too */
	devtext = slurp("/proc/net/dev");
	printf("dev:\n%s", devtext);
	printf("if_inet6:\n%s", slurp("/proc/net/if_inet6"));
	printf("igmp:\n%s", slurp("/proc/net/igmp"));
	printf("igmp6:\n%s", slurp("/proc/net/igmp6"));
	printf("dev_mcast:\n%s", slurp("/proc/net/dev_mcast"));
	printf("route:\n%s", slurp("/proc/net/route"));
	printf("arp:\n%s", slurp("/proc/net/arp"));
	check(strcmp(slurp("/proc/self/net/if_inet6"), slurp("/proc/net/if_inet6")) == 0,
	      "/proc/self/net is /proc/net");

	l = socket(AF_INET, SOCK_STREAM, 0);
	bind(l, (struct sockaddr *)&a, sizeof(a));
	listen(l, 5);
	getsockname(l, (struct sockaddr *)&b, &len);
	c = socket(AF_INET, SOCK_STREAM, 0);
	connect(c, (struct sockaddr *)&b, sizeof(b));
	s = accept(l, NULL, NULL);
	write(c, "hello", 5);
	inos[n++] = ino_of(l), inos[n++] = ino_of(c), inos[n++] = ino_of(s);
	l6 = socket(AF_INET6, SOCK_STREAM, 0);
	a6.sin6_port = htons(0);
	bind(l6, (struct sockaddr *)&a6, sizeof(a6));
	listen(l6, 1);
	inos[n++] = ino_of(l6);
	u = socket(AF_INET, SOCK_DGRAM, 0);
	bind(u, (struct sockaddr *)&a, sizeof(a));
	inos[n++] = ino_of(u);
	u6 = socket(AF_INET6, SOCK_DGRAM, 0);
	bind(u6, (struct sockaddr *)&a6, sizeof(a6));
	connect(u6, (struct sockaddr *)&a6, sizeof(a6));
	inos[n++] = ino_of(u6);
	if (!mkdtemp(dir))
		return 1;
	x = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/sock", dir);
	bind(x, (struct sockaddr *)&un, sizeof(un));
	listen(x, 1);
	xa = socket(AF_UNIX, SOCK_DGRAM, 0);
	memset(un.sun_path, 0, sizeof(un.sun_path));
	memcpy(un.sun_path, "\0procnet\0x", 10);
	bind(xa, (struct sockaddr *)&un, offsetof(struct sockaddr_un, sun_path) + 10);
	xc = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/sock", dir);
	connect(xc, (struct sockaddr *)&un, sizeof(un));
	inos[n++] = ino_of(x), inos[n++] = ino_of(xa), inos[n++] = ino_of(xc);

	inet_file("tcp", inos, n);
	inet_file("tcp6", inos, n);
	inet_file("udp", inos, n);
	inet_file("udp6", inos, n);
	unix_file(dir, inos, n);
	unlink(un.sun_path);
	rmdir(dir);
	return 0;
}
