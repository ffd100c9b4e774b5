/* net/hostinet.h: --net=host's AF_INET/AF_INET6 stream and datagram
 * sockets, host sockets the kernel owns (net/hostinet.c). */
#ifndef NET_HOSTINET_H
#define NET_HOSTINET_H

#include <stdbool.h>

struct socket;

/* --net=host: from now on socket() makes host sockets. */
void hostinet_enable(void);
bool hostinet_enabled(void);
/* A host socket of family (AF_INET, AF_INET6), type (SOCK_STREAM,
 * SOCK_DGRAM) and protocol: one reference, or -errno. */
int hostinet_create(int family, int type, int protocol, struct socket **out);

#endif
