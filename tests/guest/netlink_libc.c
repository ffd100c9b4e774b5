/* skas-test: netns: lo */
/* What the C library builds on NETLINK_ROUTE, as in a network namespace
 * holding only lo (the native side runs in one): getifaddrs (the link
 * and both addresses, with masks and flags), if_nameindex, and
 * getaddrinfo with AI_ADDRCONFIG, which glibc answers from the addresses
 * that are not loopback ones (none here: AF_INET alone finds nothing). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

static void addr(const char *what, const struct sockaddr *sa)
{
	char s[64] = "";

	if (!sa) {
		printf(" %s none", what);
		return;
	}
	if (sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, s, sizeof(s));
	else if (sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, s, sizeof(s));
	printf(" %s family %d %s", what, sa->sa_family, s);
}

static void ifaddrs(void)
{
	struct ifaddrs *ifa, *i;

	if (getifaddrs(&ifa) < 0) {
		perror("getifaddrs");
		return;
	}
	for (i = ifa; i; i = i->ifa_next) {
		printf("ifaddr %s flags %#x", i->ifa_name, i->ifa_flags);
		addr("addr", i->ifa_addr);
		if (i->ifa_addr && i->ifa_addr->sa_family != AF_PACKET) {
			addr("mask", i->ifa_netmask);
			addr("broad/dst", i->ifa_broadaddr);
		}
		printf("\n");
	}
	freeifaddrs(ifa);
}

static void nameindex(void)
{
	struct if_nameindex *ni = if_nameindex(), *p;
	char name[IF_NAMESIZE];

	for (p = ni; p && p->if_index; p++)
		printf("if_nameindex %u %s\n", p->if_index, p->if_name);
	if (ni)
		if_freenameindex(ni);
	printf("if_nametoindex lo %u, nope %u\n", if_nametoindex("lo"), if_nametoindex("nope"));
	printf("if_indextoname 1 %s, 2 %s\n", if_indextoname(1, name) ? name : "NULL",
	       if_indextoname(2, name) ? "found" : "NULL");
}

static void gai(const char *host, int family, int flags)
{
	struct addrinfo hints = { 0 }, *res, *r;
	int ret;

	hints.ai_family = family;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = flags | AI_NUMERICHOST;
	ret = getaddrinfo(host, "80", &hints, &res);
	printf("getaddrinfo %s family %d flags %#x:", host, family, flags);
	if (ret) {
		printf(" %s\n", ret == EAI_NONAME	? "EAI_NONAME"
				: ret == EAI_ADDRFAMILY ? "EAI_ADDRFAMILY"
							: "error");
		return;
	}
	for (r = res; r; r = r->ai_next)
		printf(" %d", r->ai_family);
	printf("\n");
	freeaddrinfo(res);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	ifaddrs();
	nameindex();
#ifdef __GLIBC__
	/* musl's AI_ADDRCONFIG probes with a UDP connect instead */
	gai("127.0.0.1", AF_INET, AI_ADDRCONFIG);
	gai("::1", AF_INET6, AI_ADDRCONFIG);
	gai("127.0.0.1", AF_UNSPEC, AI_ADDRCONFIG);
	gai("::1", AF_UNSPEC, AI_ADDRCONFIG);
#endif
	gai("127.0.0.1", AF_INET, 0);
	gai("::1", AF_UNSPEC, 0);
	return 0;
}
