/* The x86-64 ptrace(2) ABI: requests, options, events, the
 * PTRACE_GET_SYSCALL_INFO record (linux/ptrace.h, asm/ptrace-abi.h). */
#ifndef ABI_LINUX_PTRACE_H
#define ABI_LINUX_PTRACE_H

#include <stddef.h>
#include <stdint.h>

#define LINUX_PTRACE_TRACEME	       0
#define LINUX_PTRACE_PEEKTEXT	       1
#define LINUX_PTRACE_PEEKDATA	       2
#define LINUX_PTRACE_PEEKUSR	       3
#define LINUX_PTRACE_POKETEXT	       4
#define LINUX_PTRACE_POKEDATA	       5
#define LINUX_PTRACE_POKEUSR	       6
#define LINUX_PTRACE_CONT	       7
#define LINUX_PTRACE_KILL	       8
#define LINUX_PTRACE_SINGLESTEP	       9
#define LINUX_PTRACE_GETREGS	       12
#define LINUX_PTRACE_SETREGS	       13
#define LINUX_PTRACE_GETFPREGS	       14
#define LINUX_PTRACE_SETFPREGS	       15
#define LINUX_PTRACE_ATTACH	       16
#define LINUX_PTRACE_DETACH	       17
#define LINUX_PTRACE_SYSCALL	       24
#define LINUX_PTRACE_ARCH_PRCTL	       30
#define LINUX_PTRACE_SYSEMU	       31
#define LINUX_PTRACE_SYSEMU_SINGLESTEP 32
#define LINUX_PTRACE_SETOPTIONS	       0x4200
#define LINUX_PTRACE_GETEVENTMSG       0x4201
#define LINUX_PTRACE_GETSIGINFO	       0x4202
#define LINUX_PTRACE_SETSIGINFO	       0x4203
#define LINUX_PTRACE_GETREGSET	       0x4204
#define LINUX_PTRACE_SETREGSET	       0x4205
#define LINUX_PTRACE_SEIZE	       0x4206
#define LINUX_PTRACE_INTERRUPT	       0x4207
#define LINUX_PTRACE_LISTEN	       0x4208
#define LINUX_PTRACE_GETSIGMASK	       0x420a
#define LINUX_PTRACE_SETSIGMASK	       0x420b
#define LINUX_PTRACE_GET_SYSCALL_INFO  0x420e

#define LINUX_PTRACE_O_TRACESYSGOOD    0x1
#define LINUX_PTRACE_O_TRACEFORK       0x2
#define LINUX_PTRACE_O_TRACEVFORK      0x4
#define LINUX_PTRACE_O_TRACECLONE      0x8
#define LINUX_PTRACE_O_TRACEEXEC       0x10
#define LINUX_PTRACE_O_TRACEVFORKDONE  0x20
#define LINUX_PTRACE_O_TRACEEXIT       0x40
#define LINUX_PTRACE_O_TRACESECCOMP    0x80
#define LINUX_PTRACE_O_EXITKILL	       0x100000
#define LINUX_PTRACE_O_SUSPEND_SECCOMP 0x200000
#define LINUX_PTRACE_O_MASK	       0x3000ff

#define LINUX_PTRACE_EVENT_FORK	      1
#define LINUX_PTRACE_EVENT_VFORK      2
#define LINUX_PTRACE_EVENT_CLONE      3
#define LINUX_PTRACE_EVENT_EXEC	      4
#define LINUX_PTRACE_EVENT_VFORK_DONE 5
#define LINUX_PTRACE_EVENT_EXIT	      6
#define LINUX_PTRACE_EVENT_SECCOMP    7
#define LINUX_PTRACE_EVENT_STOP	      128

#define LINUX_PTRACE_SYSCALL_INFO_NONE	  0
#define LINUX_PTRACE_SYSCALL_INFO_ENTRY	  1
#define LINUX_PTRACE_SYSCALL_INFO_EXIT	  2
#define LINUX_PTRACE_SYSCALL_INFO_SECCOMP 3

#define LINUX_NT_PRSTATUS   1
#define LINUX_NT_PRFPREG    2
#define LINUX_NT_X86_XSTATE 0x202

#define LINUX_AUDIT_ARCH_X86_64 0xc000003eU

struct linux_ptrace_syscall_info {
	uint8_t op;
	uint8_t pad[3];
	uint32_t arch;
	uint64_t instruction_pointer;
	uint64_t stack_pointer;
	union {
		struct {
			uint64_t nr;
			uint64_t args[6];
		} entry;
		struct {
			int64_t rval;
			uint8_t is_error;
		} exit;
		struct {
			uint64_t nr;
			uint64_t args[6];
			uint32_t ret_data;
			uint32_t reserved2;
		} seccomp;
	};
};
_Static_assert(offsetof(struct linux_ptrace_syscall_info, entry) == 24, "syscall_info");

/* The kernel's struct user (asm/user_64.h): the regs (27 words), then
 * u_fpvalid... up to u_debugreg at 848, 8 of them, error_code and
 * fault_address; 928 bytes (glibc's sys/user.h stops at 912). */
#define LINUX_USER_REGS_SIZE	216
#define LINUX_USER_DEBUGREG_OFF 848
#define LINUX_USER_SIZE		928

#endif
