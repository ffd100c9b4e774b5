/* platform/sigsys/hwbp.h: the sigsys backend's hardware breakpoints, host
 * perf events on a guest thread's host thread (hwbp.c). */
#ifndef PLATFORM_SIGSYS_HWBP_H
#define PLATFORM_SIGSYS_HWBP_H

#include <stdint.h>

struct pf_thread;

/* The platform op hwbp_arm (platform.h). */
int sg_hwbp_arm(struct pf_thread *th, unsigned mask, const uint64_t addr[4], const uint8_t lt[4]);
/* Closes th's events (a thread put, a re-arm). */
void sg_hwbp_close(struct pf_thread *th);
/* DR6's bits of a hit whose signal named the breakpoints in named. */
unsigned sg_hwbp_hits(struct pf_thread *th, unsigned named);

#endif
