/* futex_waitv (Linux 5.16) and futex_wake, futex_wait and futex_requeue
 * (Linux 6.7), all ENOSYS in skas before (Wine and Proton wait with
 * futex_waitv). futex_waitv sleeps on up to 128 32-bit futexes and
 * answers the index of the one woken (EAGAIN if a value differs, an
 * absolute timeout on CLOCK_MONOTONIC or CLOCK_REALTIME: ETIMEDOUT).
 * futex_wake with a count of 0 wakes none; futex_wait takes a mask;
 * futex_requeue moves waiters from the first futex of a pair to the
 * second if the first holds the value given. The argument checks (EINVAL,
 * EFAULT) in Linux's order; a futex shared through MAP_SHARED memory
 * meets a forked child. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TAP_FLUSH
#define TAP_ENAME
#include "tap.h"

#define NR_futex_waitv	 449
#define NR_futex_wake	 454
#define NR_futex_wait	 455
#define NR_futex_requeue 456
#define F2_U8		 0x00
#define F2_U32		 0x02
#define F2_PRIVATE	 128
#define WAKE_PRIVATE	 129	      /* FUTEX_WAKE | FUTEX_PRIVATE_FLAG */
#define ANY		 0xffffffffUL /* a 32-bit futex's whole mask */

struct waitv {
	uint64_t val, uaddr;
	uint32_t flags, reserved;
};

static uint32_t fx[4];

static long waitv(struct waitv *v, unsigned n, unsigned flags, struct timespec *ts, int clk)
{
	return syscall(NR_futex_waitv, v, n, flags, ts, clk);
}

static long wake2(void *p, unsigned long mask, int n, unsigned flags)
{
	return syscall(NR_futex_wake, p, mask, n, flags);
}

static long wait2(void *p, unsigned long val, unsigned long mask, unsigned flags,
		  struct timespec *ts, int clk)
{
	return syscall(NR_futex_wait, p, val, mask, flags, ts, clk);
}

static long requeue2(struct waitv *v, unsigned flags, int nwake, int nreq)
{
	return syscall(NR_futex_requeue, v, flags, nwake, nreq);
}

static long old_wake(uint32_t *p, int n)
{
	return syscall(SYS_futex, p, WAKE_PRIVATE, n, NULL, NULL, 0);
}

static struct timespec in_ms(int clk, long ms)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	ts.tv_nsec += ms * 1000000;
	ts.tv_sec += ts.tv_nsec / 1000000000;
	ts.tv_nsec %= 1000000000;
	return ts;
}

static void set3(struct waitv *v, unsigned flags)
{
	for (int i = 0; i < 3; i++)
		v[i] = (struct waitv){ .val = 0, .uaddr = (uintptr_t)&fx[i], .flags = flags };
}

/* Wakes with fn until one waiter wakes (the thread may not sleep yet):
 * what fn said then. */
static long wake_until(long (*fn)(int), int arg)
{
	long r = 0;

	for (int i = 0; i < 2000 && r == 0; i++) {
		r = fn(arg);
		if (r == 0)
			usleep(1000);
	}
	return r;
}

static long wake_old(int i)
{
	return old_wake(&fx[i], 1);
}

static long wake_new(int i)
{
	return wake2(&fx[i], ANY, 1, F2_U32 | F2_PRIVATE);
}

static void *waitv_thread(void *arg)
{
	struct waitv v[3];

	(void)arg;
	set3(v, F2_U32 | F2_PRIVATE);
	return (void *)waitv(v, 3, 0, NULL, 0);
}

static void *wait2_thread(void *arg)
{
	return (void *)wait2(&fx[(long)arg], 0, ANY, F2_U32 | F2_PRIVATE, NULL, 0);
}

int main(void)
{
	static struct waitv big[129];
	struct waitv v[3];
	struct timespec ts, bad = { 0, 1000000000 };
	pthread_t th;
	void *ret;
	uint32_t *shared;
	pid_t pid;
	int st;

	/* futex_waitv's checks. */
	set3(v, F2_U32 | F2_PRIVATE);
	check_err(waitv(v, 3, 1, NULL, 0), EINVAL, "waitv: flags 1");
	check_err(waitv(v, 0, 0, NULL, 0), EINVAL, "waitv: no futexes");
	check_err(waitv(big, 129, 0, NULL, 0), EINVAL, "waitv: 129 futexes");
	check_err(waitv(NULL, 1, 0, NULL, 0), EINVAL, "waitv: no array");
	ts = in_ms(CLOCK_MONOTONIC, 10);
	check_err(waitv(v, 3, 0, &ts, CLOCK_BOOTTIME), EINVAL, "waitv: CLOCK_BOOTTIME");
	check_err(waitv(v, 3, 0, (void *)8, CLOCK_MONOTONIC), EFAULT, "waitv: a bad timeout");
	check_err(waitv(v, 3, 0, &bad, CLOCK_MONOTONIC), EINVAL, "waitv: 10^9 ns");
	check_err(waitv((void *)8, 3, 0, NULL, 0), EFAULT, "waitv: a bad array");
	v[1].flags = F2_U8;
	check_err(waitv(v, 3, 0, NULL, 0), EINVAL, "waitv: an 8-bit futex");
	set3(v, F2_U32 | F2_PRIVATE);
	v[2].reserved = 1;
	check_err(waitv(v, 3, 0, NULL, 0), EINVAL, "waitv: reserved not 0");
	set3(v, F2_U32 | F2_PRIVATE);
	v[0].val = 1ULL << 32;
	check_err(waitv(v, 3, 0, NULL, 0), EINVAL, "waitv: a value past 32 bits");
	set3(v, F2_U32 | F2_PRIVATE | 0x100);
	check_err(waitv(v, 3, 0, NULL, 0), EINVAL, "waitv: an unknown flag");
	set3(v, F2_U32 | F2_PRIVATE);
	v[1].uaddr += 1;
	check_err(waitv(v, 3, 0, NULL, 0), EINVAL, "waitv: a misaligned futex");
	set3(v, F2_U32 | F2_PRIVATE);
	v[2].uaddr = 8;
	check_err(waitv(v, 3, 0, NULL, 0), EFAULT, "waitv: an unmapped private futex");
	set3(v, F2_U32);
	v[2].uaddr = 8;
	check_err(waitv(v, 3, 0, NULL, 0), EFAULT, "waitv: an unmapped shared futex");
	set3(v, F2_U32 | F2_PRIVATE);
	v[1].val = 5;
	check_err(waitv(v, 3, 0, NULL, 0), EAGAIN, "waitv: a value differs");

	/* Timeouts are absolute. */
	set3(v, F2_U32 | F2_PRIVATE);
	ts = in_ms(CLOCK_MONOTONIC, 30);
	check_err(waitv(v, 3, 0, &ts, CLOCK_MONOTONIC), ETIMEDOUT, "waitv: 30 ms, monotonic");
	ts = in_ms(CLOCK_REALTIME, 30);
	check_err(waitv(v, 3, 0, &ts, CLOCK_REALTIME), ETIMEDOUT, "waitv: 30 ms, realtime");
	ts = (struct timespec){ 0, 0 };
	check_err(waitv(v, 3, 0, &ts, CLOCK_MONOTONIC), ETIMEDOUT, "waitv: a time past");

	/* The index of the futex woken. */
	pthread_create(&th, NULL, waitv_thread, NULL);
	check(wake_until(wake_old, 2) == 1, "FUTEX_WAKE of the third wakes one");
	pthread_join(th, &ret);
	check((long)ret == 2, "waitv answers 2");
	pthread_create(&th, NULL, waitv_thread, NULL);
	check(wake_until(wake_new, 0) == 1, "futex_wake of the first wakes one");
	pthread_join(th, &ret);
	check((long)ret == 0, "waitv answers 0");

	/* futex_wake and futex_wait. */
	check_err(wake2(&fx[0], ANY, 1, F2_U8), EINVAL, "wake: an 8-bit futex");
	check_err(wake2(&fx[0], 0, 1, F2_U32), EINVAL, "wake: mask 0");
	check_err(wake2(&fx[0], 1UL << 32, 1, F2_U32), EINVAL, "wake: a mask past 32 bits");
	check_err(wake2((char *)&fx[0] + 2, ANY, 1, F2_U32), EINVAL, "wake: misaligned");
	check_err(wake2((void *)8, ANY, 1, F2_U32), EFAULT, "wake: unmapped, shared");
	check(wake2(&fx[0], ANY, 1, F2_U32 | F2_PRIVATE) == 0, "wake: nobody waits: 0");
	check_err(wait2(&fx[0], 1, ANY, F2_U32 | F2_PRIVATE, NULL, 0), EAGAIN,
		  "wait: the value differs");
	check_err(wait2(&fx[0], 0, 0, F2_U32 | F2_PRIVATE, NULL, 0), EINVAL, "wait: mask 0");
	check_err(wait2(&fx[0], 1UL << 32, ANY, F2_U32 | F2_PRIVATE, NULL, 0), EINVAL,
		  "wait: a value past 32 bits");
	ts = in_ms(CLOCK_MONOTONIC, 30);
	check_err(wait2(&fx[0], 0, ANY, F2_U32 | F2_PRIVATE, &ts, CLOCK_MONOTONIC), ETIMEDOUT,
		  "wait: 30 ms");
	check_err(wait2(&fx[0], 0, ANY, F2_U32 | F2_PRIVATE, &ts, 7), EINVAL,
		  "wait: CLOCK_BOOTTIME");
	pthread_create(&th, NULL, wait2_thread, (void *)1L);
	for (int i = 0; i < 2000 && wake2(&fx[1], ANY, 0, F2_U32 | F2_PRIVATE) == 0 &&
			old_wake(&fx[1], 0) == 0; /* FUTEX_WAKE of 0 wakes one */
	     i++)
		usleep(1000);
	pthread_join(th, &ret);
	check((long)ret == 0, "wait: woken (futex_wake of 0 woke none, FUTEX_WAKE of 0 one)");

	/* futex_requeue. */
	v[0] = (struct waitv){ .val = 0, .uaddr = (uintptr_t)&fx[3], .flags = F2_U32 | F2_PRIVATE };
	v[1] = (struct waitv){ .val = 0, .uaddr = (uintptr_t)&fx[2], .flags = F2_U32 | F2_PRIVATE };
	check_err(requeue2(v, 1, 0, 1), EINVAL, "requeue: flags 1");
	check_err(requeue2(NULL, 0, 0, 1), EINVAL, "requeue: no array");
	check_err(requeue2((void *)8, 0, 0, 1), EFAULT, "requeue: a bad array");
	check_err(requeue2(v, 0, -1, 1), EINVAL, "requeue: nr_wake -1");
	v[0].val = 7;
	check_err(requeue2(v, 0, 0, 1), EAGAIN, "requeue: the first futex's value differs");
	v[0].val = 0;
	pthread_create(&th, NULL, wait2_thread, (void *)3L);
	for (int i = 0; i < 2000 && requeue2(v, 0, 0, 1) == 0; i++)
		usleep(1000);
	check(wake2(&fx[3], ANY, 1, F2_U32 | F2_PRIVATE) == 0, "requeued: none left on the first");
	check(wake2(&fx[2], ANY, 1, F2_U32 | F2_PRIVATE) == 1, "the second wakes it");
	pthread_join(th, &ret);
	check((long)ret == 0, "the requeued waiter returns 0");

	/* Shared: a forked child waits in MAP_SHARED memory. */
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid = fork();
	if (pid == 0) {
		struct waitv c[2] = {
			{ .val = 0, .uaddr = (uintptr_t)&shared[0], .flags = F2_U32 },
			{ .val = 0, .uaddr = (uintptr_t)&shared[1], .flags = F2_U32 },
		};

		_exit((int)waitv(c, 2, 0, NULL, 0));
	}
	for (int i = 0; i < 2000 && wake2(&shared[1], ANY, 1, F2_U32) == 0; i++)
		usleep(1000);
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 1,
	      "a forked child woken on the second shared futex: 1");
	return 0;
}
