/* skas-test: netns: lo */
/* SO_BINDTODEVICE and SO_BINDTOIFINDEX (a name of up to 15 bytes, with
 * or without its NUL; none unbinds; ENODEV for no such device, though an
 * index is taken unchecked; getsockopt's IFNAMSIZ buffer, but nothing
 * when unbound), and the multicast options kept on loopback sockets
 * (IP_MULTICAST_TTL and _LOOP as an int or a byte, -1 for the default,
 * EINVAL on a stream; IPV6_MULTICAST_HOPS, ENOPROTOOPT on a stream,
 * and _LOOP): each call's result as Linux gives it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>

#define R(x)                                                                      \
	do {                                                                      \
		errno = 0;                                                        \
		int r_ = (x);                                                     \
		printf("%-44s = %d %s\n", #x, r_, r_ < 0 ? strerror(errno) : ""); \
	} while (0)

int main(void)
{
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	char b[32];
	socklen_t l = 32;
	int v;
	socklen_t vl = 4;
	R(getsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, b, &l));
	printf("len %u\n", l);
	l = 8;
	R(getsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, b, &l));
	R(setsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, "eth9", 5));
	R(setsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, "lo", 3));
	l = 32;
	memset(b, 'x', 32);
	R(getsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, b, &l));
	printf("len %u name %s\n", l, b);
	l = 15;
	R(getsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, b, &l));
	R(getsockopt(s, SOL_SOCKET, SO_BINDTOIFINDEX, &v, &vl));
	printf("idx %d\n", v);
	R(setsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, "lo", 2));
	R(setsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, "", 0));
	R(getsockopt(s, SOL_SOCKET, SO_BINDTOIFINDEX, &v, &vl));
	printf("idx %d\n", v);
	v = 7;
	R(setsockopt(s, SOL_SOCKET, SO_BINDTOIFINDEX, &v, 4));
	v = -1;
	R(setsockopt(s, SOL_SOCKET, SO_BINDTOIFINDEX, &v, 4));
	v = 1;
	R(setsockopt(s, SOL_SOCKET, SO_BINDTOIFINDEX, &v, 2));
	v = 1;
	R(setsockopt(s, SOL_SOCKET, SO_BINDTOIFINDEX, &v, 4));
	R(getsockopt(s, SOL_SOCKET, SO_BINDTOIFINDEX, &v, &vl));
	printf("idx %d\n", v);
	R(setsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, "lolololololololololo", 20));
	int t = socket(AF_INET, SOCK_STREAM, 0);
	R(setsockopt(t, SOL_SOCKET, SO_BINDTODEVICE, "lo", 3));
	R(setsockopt(s, SOL_IP, IP_MULTICAST_TTL, &(int){ 5 }, 4));
	vl = 4;
	R(getsockopt(s, SOL_IP, IP_MULTICAST_TTL, &v, &vl));
	printf("mttl %d\n", v);
	R(setsockopt(s, SOL_IP, IP_MULTICAST_TTL, &(int){ -1 }, 4));
	vl = 4;
	R(getsockopt(s, SOL_IP, IP_MULTICAST_TTL, &v, &vl));
	printf("mttl %d\n", v);
	R(setsockopt(s, SOL_IP, IP_MULTICAST_TTL, &(int){ 256 }, 4));
	R(setsockopt(s, SOL_IP, IP_MULTICAST_TTL, &(char){ 7 }, 1));
	vl = 4;
	R(getsockopt(s, SOL_IP, IP_MULTICAST_TTL, &v, &vl));
	printf("mttl %d\n", v);
	R(setsockopt(s, SOL_IP, IP_MULTICAST_LOOP, &(int){ 0 }, 4));
	vl = 4;
	R(getsockopt(s, SOL_IP, IP_MULTICAST_LOOP, &v, &vl));
	printf("mloop %d\n", v);
	R(setsockopt(s, SOL_IP, IP_MULTICAST_LOOP, &(int){ 9 }, 4));
	vl = 4;
	R(getsockopt(s, SOL_IP, IP_MULTICAST_LOOP, &v, &vl));
	printf("mloop %d\n", v);
	R(setsockopt(s, SOL_IP, IP_MULTICAST_LOOP, &(char){ 0 }, 1));
	int s6 = socket(AF_INET6, SOCK_DGRAM, 0);
	vl = 4;
	R(getsockopt(s6, SOL_IPV6, IPV6_MULTICAST_HOPS, &v, &vl));
	printf("mhops %d\n", v);
	R(setsockopt(s6, SOL_IPV6, IPV6_MULTICAST_HOPS, &(int){ 300 }, 4));
	R(setsockopt(s6, SOL_IPV6, IPV6_MULTICAST_HOPS, &(int){ -2 }, 4));
	R(setsockopt(s6, SOL_IPV6, IPV6_MULTICAST_HOPS, &(int){ 9 }, 4));
	vl = 4;
	R(getsockopt(s6, SOL_IPV6, IPV6_MULTICAST_HOPS, &v, &vl));
	printf("mhops %d\n", v);
	R(setsockopt(s6, SOL_IPV6, IPV6_MULTICAST_HOPS, &(int){ -1 }, 4));
	vl = 4;
	R(getsockopt(s6, SOL_IPV6, IPV6_MULTICAST_HOPS, &v, &vl));
	printf("mhops %d\n", v);
	vl = 4;
	R(getsockopt(s6, SOL_IPV6, IPV6_MULTICAST_LOOP, &v, &vl));
	printf("mloop6 %d\n", v);
	R(setsockopt(s6, SOL_IPV6, IPV6_MULTICAST_LOOP, &(int){ 2 }, 4));
	R(setsockopt(s6, SOL_IPV6, IPV6_MULTICAST_LOOP, &(int){ 0 }, 4));
	vl = 4;
	R(getsockopt(s6, SOL_IPV6, IPV6_MULTICAST_LOOP, &v, &vl));
	printf("mloop6 %d\n", v);
	R(setsockopt(s, SOL_IP, IP_MULTICAST_TTL, &(int){ 5 }, 0));
	R(setsockopt(s, SOL_IP, IP_MULTICAST_LOOP, &(int){ 5 }, 0));
	int t6 = socket(AF_INET6, SOCK_STREAM, 0);
	R(setsockopt(t, SOL_IP, IP_MULTICAST_TTL, &(int){ 2 }, 4));
	R(setsockopt(t, SOL_IP, IP_MULTICAST_LOOP, &(int){ 0 }, 4));
	R(setsockopt(t6, SOL_IPV6, IPV6_MULTICAST_HOPS, &(int){ 2 }, 4));
	R(setsockopt(t6, SOL_IPV6, IPV6_MULTICAST_LOOP, &(int){ 0 }, 4));
	return 0;
}
