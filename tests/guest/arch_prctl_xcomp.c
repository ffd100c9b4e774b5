/* arch_prctl's XSAVE feature calls and the vDSO ones: ARCH_GET_XCOMP_SUPP,
 * ARCH_GET_XCOMP_PERM and ARCH_GET_XCOMP_GUEST_PERM give the host's masks
 * (skas said EINVAL to all of them), ARCH_REQ_XCOMP_PERM takes a feature
 * number (AMX tile data, 18, is the only one to ask for), and
 * ARCH_MAP_VDSO_64 is EEXIST while a vDSO is mapped. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>

#define TAP_ERR_NAMED
#include "tap.h"

#define ARCH_GET_XCOMP_SUPP	  0x1021
#define ARCH_GET_XCOMP_PERM	  0x1022
#define ARCH_REQ_XCOMP_PERM	  0x1023
#define ARCH_GET_XCOMP_GUEST_PERM 0x1024
#define ARCH_MAP_VDSO_64	  0x2003

static long ap(int code, unsigned long arg)
{
	errno = 0;
	return syscall(SYS_arch_prctl, code, arg);
}

int main(void)
{
	uint64_t supp = 0, perm = 0, gperm = 0;
	long r;

	r = ap(ARCH_GET_XCOMP_SUPP, (unsigned long)&supp);
	if (r < 0 && errno == EINVAL) {
		printf("# the host is older than Linux 5.16: no XSAVE feature calls\n");
		return 0;
	}
	check(r == 0 && (supp & 3) == 3, "ARCH_GET_XCOMP_SUPP: x87 and SSE at least");
	printf("# supported %#llx\n", (unsigned long long)supp);
	r = ap(ARCH_GET_XCOMP_PERM, (unsigned long)&perm);
	check(r == 0 && (perm & ~supp) == 0 && (perm & 3) == 3,
	      "ARCH_GET_XCOMP_PERM: within the supported ones");
	printf("# permitted %#llx\n", (unsigned long long)perm);
	r = ap(ARCH_GET_XCOMP_GUEST_PERM, (unsigned long)&gperm);
	check(r == 0 && (gperm & ~supp) == 0, "ARCH_GET_XCOMP_GUEST_PERM: within them too");
	check_err(ap(ARCH_GET_XCOMP_SUPP, 8), EFAULT, "EFAULT",
		  "ARCH_GET_XCOMP_SUPP to a bad pointer");
	check_err(ap(ARCH_REQ_XCOMP_PERM, 99), EINVAL, "EINVAL",
		  "ARCH_REQ_XCOMP_PERM of no feature");
	check_err(ap(ARCH_REQ_XCOMP_PERM, 1), EOPNOTSUPP, "EOPNOTSUPP",
		  "ARCH_REQ_XCOMP_PERM of SSE (not one to ask for)");
	r = ap(ARCH_REQ_XCOMP_PERM, 18);
	/* Granted by a Linux on an AMX CPU; skas does not offer it (logged). */
	check(r == 0 || errno == EOPNOTSUPP, "ARCH_REQ_XCOMP_PERM of AMX: granted or EOPNOTSUPP");
	check_err(ap(ARCH_MAP_VDSO_64, 0x200000000UL), EEXIST, "EEXIST",
		  "ARCH_MAP_VDSO_64 with the vDSO mapped");
	return 0;
}
