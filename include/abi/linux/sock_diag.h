/*
 * NETLINK_SOCK_DIAG as the x86-64 Linux kernel takes it (linux/sock_diag.h,
 * linux/inet_diag.h, linux/unix_diag.h): the requests, the replies, their
 * attributes and the filter bytecode of inet_diag.
 */
#ifndef ABI_LINUX_SOCK_DIAG_H
#define ABI_LINUX_SOCK_DIAG_H

#include <stdint.h>

#define LINUX_NETLINK_SOCK_DIAG 4 /* NETLINK_INET_DIAG too */

/* message types */
#define LINUX_TCPDIAG_GETSOCK	    18
#define LINUX_DCCPDIAG_GETSOCK	    19
#define LINUX_SOCK_DIAG_BY_FAMILY   20
#define LINUX_SOCK_DESTROY	    21
#define LINUX_INET_DIAG_GETSOCK_MAX 24

struct linux_sock_diag_req {
	uint8_t sdiag_family;
	uint8_t sdiag_protocol;
};

struct linux_inet_diag_sockid {
	uint16_t idiag_sport; /* network order */
	uint16_t idiag_dport;
	uint32_t idiag_src[4];
	uint32_t idiag_dst[4];
	uint32_t idiag_if;
	uint32_t idiag_cookie[2];
};

#define LINUX_INET_DIAG_NOCOOKIE (~0U)

/* TCPDIAG_GETSOCK's request (the first version) */
struct linux_inet_diag_req {
	uint8_t idiag_family;
	uint8_t idiag_src_len;
	uint8_t idiag_dst_len;
	uint8_t idiag_ext;
	struct linux_inet_diag_sockid id;
	uint32_t idiag_states;
	uint32_t idiag_dbs;
};

struct linux_inet_diag_req_v2 {
	uint8_t sdiag_family;
	uint8_t sdiag_protocol;
	uint8_t idiag_ext;
	uint8_t pad;
	uint32_t idiag_states;
	struct linux_inet_diag_sockid id;
};

/* the request's attributes */
#define LINUX_INET_DIAG_REQ_BYTECODE	    1
#define LINUX_INET_DIAG_REQ_SK_BPF_STORAGES 2
#define LINUX_INET_DIAG_REQ_PROTOCOL	    3
#define LINUX_INET_DIAG_REQ_NATTRS	    4

#define LINUX_SK_DIAG_BPF_STORAGE_REQ_MAP_FD 1

struct linux_inet_diag_bc_op {
	uint8_t code;
	uint8_t yes;
	uint16_t no;
};

enum {
	LINUX_INET_DIAG_BC_NOP,
	LINUX_INET_DIAG_BC_JMP,
	LINUX_INET_DIAG_BC_S_GE,
	LINUX_INET_DIAG_BC_S_LE,
	LINUX_INET_DIAG_BC_D_GE,
	LINUX_INET_DIAG_BC_D_LE,
	LINUX_INET_DIAG_BC_AUTO,
	LINUX_INET_DIAG_BC_S_COND,
	LINUX_INET_DIAG_BC_D_COND,
	LINUX_INET_DIAG_BC_DEV_COND,
	LINUX_INET_DIAG_BC_MARK_COND,
	LINUX_INET_DIAG_BC_S_EQ,
	LINUX_INET_DIAG_BC_D_EQ,
	LINUX_INET_DIAG_BC_CGROUP_COND,
};

struct linux_inet_diag_hostcond {
	uint8_t family;
	uint8_t prefix_len;
	int32_t port;
	uint32_t addr[];
};

struct linux_inet_diag_markcond {
	uint32_t mark;
	uint32_t mask;
};

struct linux_inet_diag_msg {
	uint8_t idiag_family;
	uint8_t idiag_state;
	uint8_t idiag_timer;
	uint8_t idiag_retrans;
	struct linux_inet_diag_sockid id;
	uint32_t idiag_expires;
	uint32_t idiag_rqueue;
	uint32_t idiag_wqueue;
	uint32_t idiag_uid;
	uint32_t idiag_inode;
};

/* the reply's attributes (idiag_ext asks for those up to SHUTDOWN by bit
 * type - 1) */
enum {
	LINUX_INET_DIAG_NONE,
	LINUX_INET_DIAG_MEMINFO,
	LINUX_INET_DIAG_INFO,
	LINUX_INET_DIAG_VEGASINFO,
	LINUX_INET_DIAG_CONG,
	LINUX_INET_DIAG_TOS,
	LINUX_INET_DIAG_TCLASS,
	LINUX_INET_DIAG_SKMEMINFO,
	LINUX_INET_DIAG_SHUTDOWN,
	LINUX_INET_DIAG_DCTCPINFO,
	LINUX_INET_DIAG_PROTOCOL,
	LINUX_INET_DIAG_SKV6ONLY,
	LINUX_INET_DIAG_LOCALS,
	LINUX_INET_DIAG_PEERS,
	LINUX_INET_DIAG_PAD,
	LINUX_INET_DIAG_MARK,
	LINUX_INET_DIAG_BBRINFO,
	LINUX_INET_DIAG_CLASS_ID,
	LINUX_INET_DIAG_MD5SIG,
	LINUX_INET_DIAG_ULP_INFO,
	LINUX_INET_DIAG_SK_BPF_STORAGES,
	LINUX_INET_DIAG_CGROUP_ID,
	LINUX_INET_DIAG_SOCKOPT,
};

struct linux_inet_diag_meminfo {
	uint32_t idiag_rmem;
	uint32_t idiag_wmem;
	uint32_t idiag_fmem;
	uint32_t idiag_tmem;
};

/* struct inet_diag_sockopt: two bytes of bits */
#define LINUX_INET_DIAG_SOCKOPT_RECVERR	    (1 << 0)
#define LINUX_INET_DIAG_SOCKOPT_IS_ICSK	    (1 << 1)
#define LINUX_INET_DIAG_SOCKOPT_FREEBIND    (1 << 2)
#define LINUX_INET_DIAG_SOCKOPT_MC_LOOP	    (1 << 4)
#define LINUX_INET_DIAG_SOCKOPT_TRANSPARENT (1 << 5)
#define LINUX_INET_DIAG_SOCKOPT_MC_ALL	    (1 << 6)

/* sock_diag_put_meminfo's array (SK_MEMINFO_*) */
#define LINUX_SK_MEMINFO_VARS 9

/* the TCP states, as sock_diag numbers them; a states mask has bit 1 << n */
enum {
	LINUX_TCP_ESTABLISHED = 1,
	LINUX_TCP_SYN_SENT,
	LINUX_TCP_SYN_RECV,
	LINUX_TCP_FIN_WAIT1,
	LINUX_TCP_FIN_WAIT2,
	LINUX_TCP_TIME_WAIT,
	LINUX_TCP_CLOSE,
	LINUX_TCP_CLOSE_WAIT,
	LINUX_TCP_LAST_ACK,
	LINUX_TCP_LISTEN,
	LINUX_TCP_CLOSING,
	LINUX_TCP_NEW_SYN_RECV,
	LINUX_TCP_BOUND_INACTIVE,
};

struct linux_unix_diag_req {
	uint8_t sdiag_family;
	uint8_t sdiag_protocol;
	uint16_t pad;
	uint32_t udiag_states;
	uint32_t udiag_ino;
	uint32_t udiag_show;
	uint32_t udiag_cookie[2];
};

#define LINUX_UDIAG_SHOW_NAME	 0x01
#define LINUX_UDIAG_SHOW_VFS	 0x02
#define LINUX_UDIAG_SHOW_PEER	 0x04
#define LINUX_UDIAG_SHOW_ICONS	 0x08
#define LINUX_UDIAG_SHOW_RQLEN	 0x10
#define LINUX_UDIAG_SHOW_MEMINFO 0x20
#define LINUX_UDIAG_SHOW_UID	 0x40

struct linux_unix_diag_msg {
	uint8_t udiag_family;
	uint8_t udiag_type;
	uint8_t udiag_state;
	uint8_t pad;
	uint32_t udiag_ino;
	uint32_t udiag_cookie[2];
};

enum {
	LINUX_UNIX_DIAG_NAME,
	LINUX_UNIX_DIAG_VFS,
	LINUX_UNIX_DIAG_PEER,
	LINUX_UNIX_DIAG_ICONS,
	LINUX_UNIX_DIAG_RQLEN,
	LINUX_UNIX_DIAG_MEMINFO,
	LINUX_UNIX_DIAG_SHUTDOWN,
	LINUX_UNIX_DIAG_UID,
};

struct linux_unix_diag_vfs {
	uint32_t udiag_vfs_ino;
	uint32_t udiag_vfs_dev;
};

struct linux_unix_diag_rqlen {
	uint32_t udiag_rqueue;
	uint32_t udiag_wqueue;
};

_Static_assert(sizeof(struct linux_inet_diag_req) == 60, "inet_diag_req size");
_Static_assert(sizeof(struct linux_inet_diag_req_v2) == 56, "inet_diag_req_v2 size");
_Static_assert(sizeof(struct linux_inet_diag_msg) == 72, "inet_diag_msg size");
_Static_assert(sizeof(struct linux_inet_diag_hostcond) == 8, "inet_diag_hostcond size");
_Static_assert(sizeof(struct linux_unix_diag_req) == 24, "unix_diag_req size");
_Static_assert(sizeof(struct linux_unix_diag_msg) == 16, "unix_diag_msg size");

#endif
