/*
 * seccomp(2) as the x86-64 kernel ABI defines it: the operations, filter
 * flags, return actions and struct seccomp_data (its programs are classic
 * BPF: abi/linux/filter.h).
 */
#ifndef ABI_LINUX_SECCOMP_H
#define ABI_LINUX_SECCOMP_H

#include <stdint.h>

#include "abi/linux/filter.h"

#define LINUX_SECCOMP_MODE_DISABLED 0
#define LINUX_SECCOMP_MODE_STRICT   1
#define LINUX_SECCOMP_MODE_FILTER   2

#define LINUX_SECCOMP_SET_MODE_STRICT  0
#define LINUX_SECCOMP_SET_MODE_FILTER  1
#define LINUX_SECCOMP_GET_ACTION_AVAIL 2
#define LINUX_SECCOMP_GET_NOTIF_SIZES  3

#define LINUX_SECCOMP_FILTER_FLAG_TSYNC		     (1U << 0)
#define LINUX_SECCOMP_FILTER_FLAG_LOG		     (1U << 1)
#define LINUX_SECCOMP_FILTER_FLAG_SPEC_ALLOW	     (1U << 2)
#define LINUX_SECCOMP_FILTER_FLAG_NEW_LISTENER	     (1U << 3)
#define LINUX_SECCOMP_FILTER_FLAG_TSYNC_ESRCH	     (1U << 4)
#define LINUX_SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1U << 5)

/* Return values: the action in the high 16 bits (the sign bit makes
 * KILL_PROCESS the strongest), data in the low 16. */
#define LINUX_SECCOMP_RET_KILL_PROCESS 0x80000000U
#define LINUX_SECCOMP_RET_KILL_THREAD  0x00000000U
#define LINUX_SECCOMP_RET_TRAP	       0x00030000U
#define LINUX_SECCOMP_RET_ERRNO	       0x00050000U
#define LINUX_SECCOMP_RET_USER_NOTIF   0x7fc00000U
#define LINUX_SECCOMP_RET_TRACE	       0x7ff00000U
#define LINUX_SECCOMP_RET_LOG	       0x7ffc0000U
#define LINUX_SECCOMP_RET_ALLOW	       0x7fff0000U
#define LINUX_SECCOMP_RET_ACTION_FULL  0xffff0000U
#define LINUX_SECCOMP_RET_DATA	       0x0000ffffU

#define LINUX_AUDIT_ARCH_X86_64 0xc000003eU
#define LINUX_AUDIT_ARCH_I386	0x40000003U

struct linux_seccomp_data {
	int32_t nr;
	uint32_t arch;
	uint64_t instruction_pointer;
	uint64_t args[6];
};
_Static_assert(sizeof(struct linux_seccomp_data) == 64, "seccomp_data size");

struct linux_seccomp_notif_sizes {
	uint16_t seccomp_notif;
	uint16_t seccomp_notif_resp;
	uint16_t seccomp_data;
};

/* User notification (seccomp_unotify(2)): what RECV fills, what SEND
 * answers, what ADDFD installs, and the listener's ioctls ('!'). */
struct linux_seccomp_notif {
	uint64_t id;
	uint32_t pid;
	uint32_t flags;
	struct linux_seccomp_data data;
};
_Static_assert(sizeof(struct linux_seccomp_notif) == 80, "seccomp_notif size");

struct linux_seccomp_notif_resp {
	uint64_t id;
	int64_t val;
	int32_t error;
	uint32_t flags;
};
_Static_assert(sizeof(struct linux_seccomp_notif_resp) == 24, "seccomp_notif_resp size");

struct linux_seccomp_notif_addfd {
	uint64_t id;
	uint32_t flags;
	uint32_t srcfd;
	uint32_t newfd;
	uint32_t newfd_flags;
};
_Static_assert(sizeof(struct linux_seccomp_notif_addfd) == 24, "seccomp_notif_addfd size");

#define LINUX_SECCOMP_USER_NOTIF_FLAG_CONTINUE	 (1U << 0)
#define LINUX_SECCOMP_ADDFD_FLAG_SETFD		 (1U << 0)
#define LINUX_SECCOMP_ADDFD_FLAG_SEND		 (1U << 1)
#define LINUX_SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1U << 0)

#define LINUX_SECCOMP_IOCTL_NOTIF_RECV		     0xc0502100U /* _IOWR('!', 0, seccomp_notif) */
#define LINUX_SECCOMP_IOCTL_NOTIF_SEND		     0xc0182101U /* _IOWR('!', 1, .._resp) */
#define LINUX_SECCOMP_IOCTL_NOTIF_ID_VALID	     0x40082102U /* _IOW('!', 2, __u64) */
#define LINUX_SECCOMP_IOCTL_NOTIF_ID_VALID_WRONG_DIR 0x80082102U /* its first, _IOR */
#define LINUX_SECCOMP_IOCTL_NOTIF_ADDFD		     0x40182103U /* _IOW('!', 3, .._addfd) */
#define LINUX_SECCOMP_IOCTL_NOTIF_SET_FLAGS	     0x40082104U /* _IOW('!', 4, __u64) */

#endif /* ABI_LINUX_SECCOMP_H */
