/*
 * Sockets as the x86-64 Linux kernel takes them: address families, socket
 * types, MSG_* flags, SOL_SOCKET options, control messages (cmsghdr,
 * ucred), struct msghdr and mmsghdr as the guest lays them out, and
 * struct sockaddr_un.
 */
#ifndef ABI_LINUX_SOCKET_H
#define ABI_LINUX_SOCKET_H

#include <stddef.h>
#include <stdint.h>

/* address families */
#define LINUX_AF_UNSPEC	 0
#define LINUX_AF_UNIX	 1
#define LINUX_AF_INET	 2
#define LINUX_AF_INET6	 10
#define LINUX_AF_NETLINK 16
#define LINUX_AF_PACKET	 17
#define LINUX_AF_MAX	 46 /* NPROTO */

/* socket types, and the flags socket(2) takes in the same word */
#define LINUX_SOCK_STREAM    1
#define LINUX_SOCK_DGRAM     2
#define LINUX_SOCK_RAW	     3
#define LINUX_SOCK_RDM	     4
#define LINUX_SOCK_SEQPACKET 5
#define LINUX_SOCK_DCCP	     6
#define LINUX_SOCK_PACKET    10
#define LINUX_SOCK_MAX	     11
#define LINUX_SOCK_TYPE_MASK 0xf
#define LINUX_SOCK_CLOEXEC   02000000
#define LINUX_SOCK_NONBLOCK  04000

/* send/recv flags */
#define LINUX_MSG_OOB	       0x1
#define LINUX_MSG_PEEK	       0x2
#define LINUX_MSG_DONTROUTE    0x4
#define LINUX_MSG_CTRUNC       0x8
#define LINUX_MSG_PROXY	       0x10
#define LINUX_MSG_TRUNC	       0x20
#define LINUX_MSG_DONTWAIT     0x40
#define LINUX_MSG_EOR	       0x80
#define LINUX_MSG_WAITALL      0x100
#define LINUX_MSG_FIN	       0x200
#define LINUX_MSG_SYN	       0x400
#define LINUX_MSG_CONFIRM      0x800
#define LINUX_MSG_RST	       0x1000
#define LINUX_MSG_ERRQUEUE     0x2000
#define LINUX_MSG_NOSIGNAL     0x4000
#define LINUX_MSG_MORE	       0x8000
#define LINUX_MSG_WAITFORONE   0x10000
#define LINUX_MSG_BATCH	       0x40000
#define LINUX_MSG_ZEROCOPY     0x4000000
#define LINUX_MSG_FASTOPEN     0x20000000
#define LINUX_MSG_CMSG_CLOEXEC 0x40000000
#define LINUX_MSG_CMSG_COMPAT  0x80000000

/* shutdown(2) */
#define LINUX_SHUT_RD	0
#define LINUX_SHUT_WR	1
#define LINUX_SHUT_RDWR 2

/* socket-level options (asm-generic/socket.h; x86-64 uses the generic set) */
#define LINUX_SOL_SOCKET       1
#define LINUX_SO_DEBUG	       1
#define LINUX_SO_REUSEADDR     2
#define LINUX_SO_TYPE	       3
#define LINUX_SO_ERROR	       4
#define LINUX_SO_DONTROUTE     5
#define LINUX_SO_BROADCAST     6
#define LINUX_SO_SNDBUF	       7
#define LINUX_SO_RCVBUF	       8
#define LINUX_SO_KEEPALIVE     9
#define LINUX_SO_OOBINLINE     10
#define LINUX_SO_NO_CHECK      11
#define LINUX_SO_PRIORITY      12
#define LINUX_SO_LINGER	       13
#define LINUX_SO_BSDCOMPAT     14
#define LINUX_SO_REUSEPORT     15
#define LINUX_SO_PASSCRED      16
#define LINUX_SO_PEERCRED      17
#define LINUX_SO_RCVLOWAT      18
#define LINUX_SO_SNDLOWAT      19
#define LINUX_SO_RCVTIMEO_OLD  20
#define LINUX_SO_SNDTIMEO_OLD  21
#define LINUX_SO_PEERNAME      28
#define LINUX_SO_COOKIE	       57
#define LINUX_SO_NETNS_COOKIE  71
#define LINUX_SO_BINDTODEVICE  25
#define LINUX_SO_BINDTOIFINDEX 62
#define LINUX_SO_ACCEPTCONN    30
#define LINUX_SO_PEERSEC       31
#define LINUX_SO_ATTACH_FILTER 26 /* getsockopt: SO_GET_FILTER */
#define LINUX_SO_DETACH_FILTER 27
#define LINUX_SO_LOCK_FILTER   44
#define LINUX_SO_SNDBUFFORCE   32
#define LINUX_SO_RCVBUFFORCE   33
#define LINUX_SO_PROTOCOL      38
#define LINUX_SO_DOMAIN	       39
#define LINUX_SO_RCVTIMEO_NEW  66
#define LINUX_SO_SNDTIMEO_NEW  67
#define LINUX_SO_RCVTIMEO      LINUX_SO_RCVTIMEO_OLD
#define LINUX_SO_SNDTIMEO      LINUX_SO_SNDTIMEO_OLD

/* the receive times (SO_TIMESTAMP...): option and control message */
#define LINUX_SO_TIMESTAMP_OLD	 29
#define LINUX_SO_TIMESTAMPNS_OLD 35
#define LINUX_SO_TIMESTAMP_NEW	 63
#define LINUX_SO_TIMESTAMPNS_NEW 64

/* control message types at SOL_SOCKET */
#define LINUX_SCM_RIGHTS      1
#define LINUX_SCM_CREDENTIALS 2
#define LINUX_SCM_SECURITY    3
#define LINUX_SCM_PIDFD	      4
#define LINUX_SCM_MAX_FD      253 /* fds in one SCM_RIGHTS message */

/* socket ioctls */
#define LINUX_SIOCINQ	 0x541B /* FIONREAD */
#define LINUX_SIOCOUTQ	 0x5411 /* TIOCOUTQ */
#define LINUX_SIOCATMARK 0x8905

#define LINUX_UNIX_PATH_MAX 108

struct linux_sockaddr_un {
	uint16_t sun_family;
	char sun_path[LINUX_UNIX_PATH_MAX];
};
_Static_assert(sizeof(struct linux_sockaddr_un) == 110, "linux_sockaddr_un size");

/* AF_INET and AF_INET6 addresses (netinet/in.h): port and address in
 * network byte order. */
struct linux_sockaddr_in {
	uint16_t sin_family;
	uint16_t sin_port;
	uint32_t sin_addr;
	uint8_t sin_zero[8];
};
_Static_assert(sizeof(struct linux_sockaddr_in) == 16, "linux_sockaddr_in size");

struct linux_sockaddr_in6 {
	uint16_t sin6_family;
	uint16_t sin6_port;
	uint32_t sin6_flowinfo;
	uint8_t sin6_addr[16];
	uint32_t sin6_scope_id;
};
_Static_assert(sizeof(struct linux_sockaddr_in6) == 28, "linux_sockaddr_in6 size");
_Static_assert(offsetof(struct linux_sockaddr_in6, sin6_addr) == 8, "linux_sockaddr_in6 addr");
#define LINUX_SIN6_LEN_RFC2133 24 /* a sockaddr_in6 without sin6_scope_id */

/* protocols, and the option levels that bear their numbers */
#define LINUX_IPPROTO_IP      0
#define LINUX_IPPROTO_ICMP    1
#define LINUX_IPPROTO_TCP     6
#define LINUX_IPPROTO_UDP     17
#define LINUX_IPPROTO_UDPLITE 136
#define LINUX_IPPROTO_IPV6    41
#define LINUX_IPPROTO_RAW     255
#define LINUX_SOL_IP	      LINUX_IPPROTO_IP
#define LINUX_SOL_TCP	      LINUX_IPPROTO_TCP
#define LINUX_SOL_UDP	      LINUX_IPPROTO_UDP
#define LINUX_SOL_UDPLITE     LINUX_IPPROTO_UDPLITE
#define LINUX_SOL_IPV6	      LINUX_IPPROTO_IPV6

#define LINUX_IPPROTO_ICMPV6 58
#define LINUX_SOL_ICMPV6     LINUX_IPPROTO_ICMPV6
#define LINUX_SOL_RAW	     255

/* Big enough for any address (struct sockaddr_storage). */
struct linux_sockaddr_storage {
	uint16_t ss_family;
	char data[126];
};
_Static_assert(sizeof(struct linux_sockaddr_storage) == 128, "linux_sockaddr_storage size");

/* struct user_msghdr: guest addresses are uint64_t */
struct linux_msghdr {
	uint64_t msg_name;
	int32_t msg_namelen;
	uint32_t pad0;
	uint64_t msg_iov;
	uint64_t msg_iovlen;
	uint64_t msg_control;
	uint64_t msg_controllen;
	uint32_t msg_flags;
	uint32_t pad1;
};
_Static_assert(sizeof(struct linux_msghdr) == 56, "linux_msghdr size");
_Static_assert(offsetof(struct linux_msghdr, msg_namelen) == 8, "linux_msghdr msg_namelen");
_Static_assert(offsetof(struct linux_msghdr, msg_iov) == 16, "linux_msghdr msg_iov");
_Static_assert(offsetof(struct linux_msghdr, msg_iovlen) == 24, "linux_msghdr msg_iovlen");
_Static_assert(offsetof(struct linux_msghdr, msg_control) == 32, "linux_msghdr msg_control");
_Static_assert(offsetof(struct linux_msghdr, msg_controllen) == 40, "linux_msghdr controllen");
_Static_assert(offsetof(struct linux_msghdr, msg_flags) == 48, "linux_msghdr msg_flags");

struct linux_mmsghdr {
	struct linux_msghdr msg_hdr;
	uint32_t msg_len;
	uint32_t pad;
};
_Static_assert(sizeof(struct linux_mmsghdr) == 64, "linux_mmsghdr size");
_Static_assert(offsetof(struct linux_mmsghdr, msg_len) == 56, "linux_mmsghdr msg_len");

struct linux_cmsghdr {
	uint64_t cmsg_len; /* header and data, unpadded */
	int32_t cmsg_level;
	int32_t cmsg_type;
};
_Static_assert(sizeof(struct linux_cmsghdr) == 16, "linux_cmsghdr size");

#define LINUX_CMSG_ALIGN(len) (((len) + sizeof(uint64_t) - 1) & ~(uint64_t)(sizeof(uint64_t) - 1))
#define LINUX_CMSG_LEN(len)   (sizeof(struct linux_cmsghdr) + (len))
#define LINUX_CMSG_SPACE(len) (sizeof(struct linux_cmsghdr) + LINUX_CMSG_ALIGN(len))

struct linux_ucred {
	int32_t pid;
	uint32_t uid;
	uint32_t gid;
};
_Static_assert(sizeof(struct linux_ucred) == 12, "linux_ucred size");

struct linux_linger {
	int32_t l_onoff;
	int32_t l_linger;
};
_Static_assert(sizeof(struct linux_linger) == 8, "linux_linger size");

#endif
