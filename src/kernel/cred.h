/* kernel/cred.h: a process's credentials, in the guest's own model. */
#ifndef KERNEL_CRED_H
#define KERNEL_CRED_H

#include <stdint.h>

#define NGROUPS_MAX_GUEST 65536

struct cred {
	uint32_t uid, euid, suid, fsuid;
	uint32_t gid, egid, sgid, fsgid;
	int ngroups;
	uint32_t *groups;
};

#endif
