/* platform/sigsys/hwbp.c: the sigsys backend's hardware breakpoints. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include "kernel/log.h"
#include "platform/ptrace/ptrace.h"
#include "platform/sigsys/hwbp.h"
#include "stub/stub.h"

/*
 * Hardware breakpoints: the kernel keeps the debug registers (this backend
 * does not trace its threads, so it has no debugreg) and arms each enabled
 * breakpoint here as a host perf event on the guest thread's host thread
 * alone, with sigtrap (Linux 5.13): a hit is a synchronous SIGTRAP
 * (TRAP_PERF, the breakpoint's number in si_perf_data) that the handler
 * posts like any fault, and sigsys.c's take() makes it Linux's
 * TRAP_HWBKPT. The host sets RF in the frame of an exec breakpoint's hit,
 * so going on runs the instruction once. User space only, as ptrace's
 * breakpoints. One that reaches into the stub is not armed: guest code
 * never runs or touches data there (Linux, with no stub, never fires it),
 * and the stub's own handler would trip it on every trap.
 */
void sg_hwbp_close(struct pf_thread *th)
{
	int i;

	for (i = 0; i < 4; i++)
		if (th->hwbp_mask & (1u << i))
			close(th->hwbp_fd[i]);
	th->hwbp_mask = 0;
}

/* DR6's bits of a hit: every event whose count went up since the last
 * (two breakpoints on one instruction fire at once, and their two
 * SIGTRAPs merge into one), else the one the signal named. */
unsigned sg_hwbp_hits(struct pf_thread *th, unsigned named)
{
	unsigned bits = 0;
	uint64_t n;
	int i;

	for (i = 0; i < 4; i++)
		if ((th->hwbp_mask & (1u << i)) &&
		    read(th->hwbp_fd[i], &n, sizeof(n)) == (ssize_t)sizeof(n) &&
		    n != th->hwbp_count[i]) {
			th->hwbp_count[i] = n;
			bits |= 1u << i;
		}
	return bits ? bits : named;
}

int sg_hwbp_arm(struct pf_thread *th, unsigned mask, const uint64_t addr[4], const uint8_t lt[4])
{
	static const uint64_t bytes[] = { 1, 2, 8, 4 };
	static bool told;
	struct perf_event_attr a;
	int i, fd;

	sg_hwbp_close(th);
	if (mask && th->tid <= 0)
		return -ESRCH;
	for (i = 0; i < 4; i++) {
		if (!(mask & (1u << i)) ||
		    (addr[i] + bytes[lt[i] >> 2] > STUB_BASE && addr[i] < STUB_END))
			continue;
		memset(&a, 0, sizeof(a));
		a.type = PERF_TYPE_BREAKPOINT;
		a.size = sizeof(a);
		/* DR7's type: 0 exec, 1 write, 3 read or write (the kernel's
		 * checks refused 2, I/O) */
		a.bp_type = (lt[i] & 3) == 0   ? HW_BREAKPOINT_X
			    : (lt[i] & 3) == 1 ? HW_BREAKPOINT_W
					       : HW_BREAKPOINT_RW;
		a.bp_len = (lt[i] & 3) == 0 ? sizeof(long) : bytes[lt[i] >> 2];
		a.bp_addr = addr[i];
		a.sample_period = 1;
		a.sigtrap = 1;
		a.remove_on_exec = 1; /* which sigtrap needs */
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		a.sig_data = (uint64_t)i;
		fd = (int)syscall(SYS_perf_event_open, &a, th->tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			fd = -errno;
			sg_hwbp_close(th);
			if (fd != -ESRCH && !told) {
				told = true;
				klog(LOG_WARN,
				     "sigsys: hardware breakpoints cannot be armed on this host "
				     "(perf_event_open: %s): they never fire",
				     strerror(-fd));
			}
			return fd;
		}
		th->hwbp_fd[i] = fd;
		th->hwbp_count[i] = 0;
		th->hwbp_mask |= 1u << i;
	}
	return 0;
}
