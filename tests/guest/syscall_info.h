/* tests/guest/syscall_info.h: PTRACE_GET_SYSCALL_INFO's request number
 * and struct (linux/ptrace.h's, which glibc's and musl's sys/ptrace.h may
 * lack), for the ptrace tests that read it. */
#ifndef TESTS_GUEST_SYSCALL_INFO_H
#define TESTS_GUEST_SYSCALL_INFO_H

#include <stdint.h>

#ifndef PTRACE_GET_SYSCALL_INFO
#define PTRACE_GET_SYSCALL_INFO 0x420e
#endif

struct syscall_info {
	uint8_t op;
	uint8_t pad[3];
	uint32_t arch;
	uint64_t ip, sp;
	union {
		struct {
			uint64_t nr, args[6];
		} entry;
		struct {
			int64_t rval;
			uint8_t is_error;
		} exit;
	};
};

#endif
