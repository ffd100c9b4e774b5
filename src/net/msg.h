/* net/msg.h: what a sendmsg or recvmsg carries, in kernel terms: the data
 * (an iterator over guest iovecs or a kernel buffer), an address and the
 * control data of SOL_SOCKET (SCM_RIGHTS files, SCM_CREDENTIALS). The
 * guest's msghdr, iovec array and control buffer are copied once and
 * checked here; the protocols see only these structures. */
#ifndef NET_MSG_H
#define NET_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm/mm.h"
#include "abi/linux/socket.h"
#include "abi/linux/types.h"

struct task;
struct file;

/* The data of one call: guest segments or one kernel buffer. */
struct msg_iter {
	struct mm *mm;		 /* guest memory, or NULL: kbuf */
	struct linux_iovec *iov; /* checked segments (owned by the iterator) */
	int nr_segs, seg;	 /* the current segment */
	size_t seg_off;		 /* bytes of it done */
	char *kbuf;		 /* a kernel buffer: its next byte */
	size_t count;		 /* bytes left */
};

/* Control data: files passed (references) and credentials. */
struct scm {
	struct file **fds;
	int nfds;
	bool has_cred; /* cred is set (explicitly by the sender, or by the protocol) */
	struct linux_ucred cred;
	/* IP level. sendmsg: the values given (ip_given: SCM_IP_* bits for
	 * IP_TTL, IP_TOS, IPV6_HOPLIMIT, IPV6_TCLASS; -1 for IPv6 is no
	 * value) and whether one was malformed (ip_bad: EINVAL for UDP, as
	 * ip_cmsg_send). recvmsg: what UDP reports (ip_report, for
	 * IP_RECVTTL...). The values are in ttl, tos, hops and tclass. */
	unsigned ip_given, ip_report;
	bool ip_bad;
	int ttl, tos, hops, tclass;
	/* IP_PKTINFO, IPV6_PKTINFO (SCM_IP_PKTINFO, SCM_IPV6_PKTINFO):
	 * sendmsg's source address and interface; recvmsg's destination
	 * address (IPv6 form) and, for IPv4, the address a reply comes from */
	int pkt_ifindex;
	uint8_t pkt_addr[16], pkt_spec_dst[16];
	/* recvmsg: the receive time to report (ts_type: SO_TIMESTAMP_OLD...,
	 * the control message's type; 0 none) */
	int ts_type;
	int64_t tstamp_ns;
	/* recvmsg(MSG_ERRQUEUE): the error's IP_RECVERR or IPV6_RECVERR
	 * message (a sock_extended_err and the offender's address), after
	 * the IP level's; serr_len 0: none */
	int serr_level, serr_type;
	unsigned serr_len;
	unsigned char serr[48];
	/* recvmsg of a --net=host socket (net/hostinet.c): the host's own
	 * control messages that passed its allowlist, as cmsghdrs in the
	 * host's order, passed on as they are (malloc'd; scm_destroy frees) */
	unsigned char *raw;
	unsigned raw_len;
};

#define SCM_IP_TTL	 1
#define SCM_IP_TOS	 2
#define SCM_IPV6_HOPS	 4
#define SCM_IPV6_TCLASS	 8
#define SCM_IP_PKTINFO	 16
#define SCM_IPV6_PKTINFO 32

/* The IP-level control message types (as the socket options' names). */
#define IP_TOS	      1
#define IP_TTL	      2
#define IPV6_HOPLIMIT 52
#define IP_PKTINFO    8
#define IPV6_PKTINFO  50
#define IPV6_TCLASS   67
/* and the options asking for them at recvmsg */
#define IP_RECVTTL	  12
#define IP_RECVTOS	  13
#define IPV6_UNICAST_HOPS 16
#define IPV6_RECVHOPLIMIT 51
#define IPV6_RECVTCLASS	  66
#define IPV6_RECVPKTINFO  49
/* the error queue's and path MTU discovery's */
#define IP_RECVERR	  11
#define IPV6_RECVERR	  25
#define IP_MTU_DISCOVER	  10 /* IP_PMTUDISC_DONT (0): no path MTU errors */
#define IPV6_MTU_DISCOVER 23

struct kmsg {
	struct msg_iter iter;
	/* sendmsg: the destination (namelen 0: none); recvmsg: the source */
	struct linux_sockaddr_storage name;
	int namelen;
	/* sendmsg: an address was given, even of length 0 (sendto passes
	 * one so; UDP says EINVAL, AF_UNIX takes it as none) */
	bool has_name;
	bool want_name; /* recvmsg: the caller asked for the source */
	struct scm scm;
	unsigned flags; /* recvmsg: the msg_flags to report (MSG_TRUNC...) */
	/* recvmsg: no datagram came (a datagram or seqpacket socket's end of
	 * file), so no control message either, not even SO_PASSCRED's */
	bool no_dgram;
};

void iter_init_kernel(struct msg_iter *it, void *buf, size_t n);
/* A msghdr's iovec array: more than UIO_MAXIOV segments is -EMSGSIZE
 * (__copy_msghdr), the rest is iovec_import's (vfs/iov.h). */
int iter_import(struct task *t, uaddr_t uiov, uint64_t nr, struct msg_iter *it);
/* The same from an iovec array iovec_import gave (readv on a socket). */
int iter_from_iovec(struct task *t, const struct linux_iovec *iov, int nr, struct msg_iter *it);
/* One guest buffer, as import_ubuf. */
int iter_import_buf(struct task *t, uaddr_t buf, uint64_t len, struct msg_iter *it);
void iter_free(struct msg_iter *it);
/* How many of the next n (<= it->count) bytes the guest can have
 * written to (all of them for a kernel buffer): a receive that takes
 * data from a host socket takes no more, so a fault loses nothing. */
size_t iter_writable(const struct msg_iter *it, size_t n);
/* Copy n (<= it->count) bytes out of or into the data and advance:
 * 0 or -EFAULT (then the position is unspecified). */
int iter_copy_from(struct msg_iter *it, void *dst, size_t n);
int iter_copy_to(struct msg_iter *it, const void *src, size_t n);

/* Parses a kernel copy of sendmsg's control buffer (Linux's __scm_send):
 * SCM_RIGHTS takes references on the files, SCM_CREDENTIALS is checked
 * against t's credentials. On error nothing is held. */
int scm_send(struct task *t, const void *ctl, size_t len, struct scm *scm);
/* Drops the files' references. */
void scm_destroy(struct scm *scm);
/* Duplicates scm's file references into out (MSG_PEEK). */
int scm_dup(const struct scm *scm, struct scm *out);
/* recvmsg's control data: writes SCM_CREDENTIALS (when passcred) and
 * SCM_RIGHTS (installing the files as new fds of t) into the guest's
 * buffer at ctl of *ctllen bytes; *ctllen becomes the bytes used and
 * MSG_CTRUNC is added to *msg_flags when something did not fit. Consumes
 * scm's references. Returns 0 or -EFAULT. */
int scm_recv(struct task *t, struct scm *scm, bool passcred, uaddr_t ctl, uint64_t *ctllen,
	     unsigned *msg_flags);

#endif
