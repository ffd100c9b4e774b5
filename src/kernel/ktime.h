/* kernel/ktime.h: nanosecond times and the guest's timespecs, as the timer
 * code (POSIX timers, timerfd) converts them: saturating at KTIME_MAX
 * ("never") instead of overflowing. */
#ifndef KERNEL_KTIME_H
#define KERNEL_KTIME_H

#include <stdbool.h>
#include <stdint.h>

#include "abi/linux/types.h"

#define NSEC_PER_SEC 1000000000LL
#define KTIME_MAX    INT64_MAX

static inline int64_t add_sat(int64_t a, int64_t b)
{
	if (b > 0 && a > KTIME_MAX - b)
		return KTIME_MAX;
	return a + b;
}

static inline int64_t ts_to_ns(const struct linux_timespec *ts)
{
	if (ts->tv_sec >= KTIME_MAX / NSEC_PER_SEC)
		return KTIME_MAX;
	return ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

static inline struct linux_timespec ns_to_ts(int64_t ns)
{
	struct linux_timespec ts = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };

	return ts;
}

static inline bool ts_valid(const struct linux_timespec *ts)
{
	return ts->tv_sec >= 0 && ts->tv_nsec >= 0 && ts->tv_nsec < NSEC_PER_SEC;
}

#endif
