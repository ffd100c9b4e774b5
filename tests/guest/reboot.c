/* reboot's refusals: a wrong first or second magic number, a command
 * that is none (EINVAL), and without CAP_SYS_BOOT anything (EPERM, before
 * the magic is looked at). Nothing that would act is tried: natively as
 * root it would restart the machine (scenario processes.sh ends an
 * instance with it). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "caps.h"
#define TAP_ERR_NAMED
#include "tap.h"

#define MAGIC1 0xfee1deadu
#define MAGIC2 0x28121969u

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_err(syscall(SYS_reboot, 0, 0, 0, NULL), EINVAL, "EINVAL", "no magic");
	check_err(syscall(SYS_reboot, MAGIC1, 0, 0, NULL), EINVAL, "EINVAL", "no second magic");
	check_err(syscall(SYS_reboot, 0, MAGIC2, 0x01234567, NULL), EINVAL, "EINVAL",
		  "RESTART without the first magic");
	check_err(syscall(SYS_reboot, MAGIC1, MAGIC2, 0xdeadbeefu, NULL), EINVAL, "EINVAL",
		  "a command that is none");
	check_err(syscall(SYS_reboot, MAGIC1, 0x05121996u, 0x12345678u, NULL), EINVAL, "EINVAL",
		  "magic 2A, a command that is none");
	check(caps_drop(CAP_SYS_BOOT) == 0, "capset drops CAP_SYS_BOOT");
	check_err(syscall(SYS_reboot, 0, 0, 0, NULL), EPERM, "EPERM", "without CAP_SYS_BOOT");
	check_err(syscall(SYS_reboot, MAGIC1, MAGIC2, 0xdeadbeefu, NULL), EPERM, "EPERM",
		  "without CAP_SYS_BOOT, a command that is none");
	return 0;
}
