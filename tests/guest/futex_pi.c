/* PI futexes, by raw futex(2) calls and through glibc's or musl's
 * PTHREAD_PRIO_INHERIT mutexes: the word's TID, FUTEX_WAITERS and
 * FUTEX_OWNER_DIED bits as the kernel sets them; FUTEX_LOCK_PI, LOCK_PI2,
 * TRYLOCK_PI and UNLOCK_PI with their errors (EDEADLK, EPERM, ESRCH,
 * EAGAIN, ETIMEDOUT, EINVAL, EFAULT, ENOSYS); the handoff to a waiter on
 * unlock, and on the owner's exit (robust or not); FUTEX_WAIT_REQUEUE_PI
 * and FUTEX_CMP_REQUEUE_PI. Every check is made by the main thread, once
 * the threads it waits for are done or known to be asleep in the kernel
 * (the word's FUTEX_WAITERS bit, or a requeue that found them). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#define TAP_ENAME
#include "tap.h"

/* <linux/futex.h>'s, written out */
#define F_WAIT		  0
#define F_WAKE		  1
#define F_LOCK_PI	  6
#define F_UNLOCK_PI	  7
#define F_TRYLOCK_PI	  8
#define F_WAIT_REQUEUE_PI 11
#define F_CMP_REQUEUE_PI  12
#define F_LOCK_PI2	  13
#define F_PRIVATE	  128
#define F_CLOCK_REALTIME  256
#define F_WAITERS	  0x80000000u
#define F_OWNER_DIED	  0x40000000u
#define F_TID_MASK	  0x3fffffffu

static long fx(uint32_t *uaddr, int op, uint32_t val, const struct timespec *ts, uint32_t *uaddr2,
	       uint32_t val3)
{
	return syscall(SYS_futex, uaddr, op, val, ts, uaddr2, val3);
}

/* FUTEX_CMP_REQUEUE_PI: the count to requeue where the timeout goes */
static long requeue_pi(uint32_t *from, long nreq, uint32_t *to, uint32_t cmpval)
{
	return syscall(SYS_futex, from, F_CMP_REQUEUE_PI | F_PRIVATE, 1, nreq, to, cmpval);
}

static uint32_t my_tid(void)
{
	return (uint32_t)syscall(SYS_gettid);
}

static uint32_t load(uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

static void wait_waiters(uint32_t *p)
{
	while (!(load(p) & F_WAITERS))
		usleep(1000);
}

/* A deadline ms from now on clock */
static struct timespec deadline(clockid_t clock, long ms)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	ts.tv_nsec += ms * 1000000;
	ts.tv_sec += ts.tv_nsec / 1000000000;
	ts.tv_nsec %= 1000000000;
	return ts;
}

/* What a thread got, for the main thread to check. */
struct res {
	long ret;
	int err;
	uint32_t tid, seen; /* its TID; the word when it returned */
};

static void check_res(const struct res *r, int want, const char *what)
{
	if (want) {
		errno = r->err;
		check_err(r->ret, want, what);
	} else {
		check(r->ret == 0, what);
	}
}

static void run(void *(*fn)(void *), void *arg)
{
	pthread_t th;

	pthread_create(&th, NULL, fn, arg);
	pthread_join(th, NULL);
}

/* One futex op by a thread of its own. */
struct op {
	uint32_t *w;
	int op;
	const struct timespec *ts;
	struct res r;
};

static void *op_thread(void *arg)
{
	struct op *o = arg;

	o->r.tid = my_tid();
	o->r.ret = fx(o->w, o->op, 0, o->ts, NULL, 0);
	o->r.err = errno;
	o->r.seen = load(o->w);
	if (o->r.ret == 0 && (o->op & 127) != F_UNLOCK_PI)
		fx(o->w, F_UNLOCK_PI | F_PRIVATE, 0, NULL, NULL, 0);
	return NULL;
}

static struct res op_by_thread(uint32_t *w, int op, const struct timespec *ts)
{
	struct op o = { .w = w, .op = op, .ts = ts };

	run(op_thread, &o);
	return o.r;
}

static void *exit_thread(void *arg)
{
	*(uint32_t *)arg = my_tid();
	return NULL;
}

static void uncontended(void)
{
	uint32_t w = 0, me = my_tid(), dead;
	struct timespec ts;
	struct res r;

	check(__sync_bool_compare_and_swap(&w, 0, me), "user space takes a free word: 0 -> TID");
	check(fx(&w, F_UNLOCK_PI | F_PRIVATE, 0, NULL, NULL, 0) == 0 && w == 0,
	      "UNLOCK_PI with no waiters: the word is 0");
	check(fx(&w, F_LOCK_PI | F_PRIVATE, 0, NULL, NULL, 0) == 0 && w == me,
	      "LOCK_PI of a free word: the caller's TID, no bit");
	check_err(fx(&w, F_LOCK_PI | F_PRIVATE, 0, NULL, NULL, 0), EDEADLK, "LOCK_PI of one's own");
	check_err(fx(&w, F_TRYLOCK_PI | F_PRIVATE, 0, NULL, NULL, 0), EDEADLK,
		  "TRYLOCK_PI of one's own");
	check_err(fx(&w, F_LOCK_PI2 | F_PRIVATE, 0, NULL, NULL, 0), EDEADLK,
		  "LOCK_PI2 of one's own");

	r = op_by_thread(&w, F_UNLOCK_PI | F_PRIVATE, NULL);
	check_res(&r, EPERM, "UNLOCK_PI by a thread that does not own it");
	check(w == me, "the word still names its owner");
	r = op_by_thread(&w, F_TRYLOCK_PI | F_PRIVATE, NULL);
	check_res(&r, EAGAIN, "TRYLOCK_PI of a held futex");
	check(w == (me | F_WAITERS), "TRYLOCK_PI left FUTEX_WAITERS set");
	check(fx(&w, F_UNLOCK_PI | F_PRIVATE, 0, NULL, NULL, 0) == 0 && w == 0,
	      "UNLOCK_PI with the bit but no waiter: 0");
	check_err(fx(&w, F_UNLOCK_PI | F_PRIVATE, 0, NULL, NULL, 0), EPERM,
		  "UNLOCK_PI of a free word");

	r = op_by_thread(&w, F_TRYLOCK_PI | F_PRIVATE, NULL);
	check(r.ret == 0 && r.seen == r.tid && w == 0, "TRYLOCK_PI of a free word takes it");
	w = F_WAITERS;
	check(fx(&w, F_LOCK_PI | F_PRIVATE, 0, NULL, NULL, 0) == 0 && w == me,
	      "LOCK_PI of a stale FUTEX_WAITERS: taken, the bit dropped");
	w = F_OWNER_DIED;
	check(fx(&w, F_LOCK_PI | F_PRIVATE, 0, NULL, NULL, 0) == 0 && w == (me | F_OWNER_DIED),
	      "LOCK_PI of an ownerless OWNER_DIED word: taken, the bit kept");

	run(exit_thread, &dead);
	w = dead;
	check_err(fx(&w, F_LOCK_PI | F_PRIVATE, 0, NULL, NULL, 0), ESRCH,
		  "LOCK_PI of a word naming a thread that exited");
	check(w == (dead | F_WAITERS), "ESRCH left FUTEX_WAITERS set");
	w = dead | F_OWNER_DIED;
	check_err(fx(&w, F_LOCK_PI | F_PRIVATE, 0, NULL, NULL, 0), ESRCH,
		  "LOCK_PI of OWNER_DIED with a dead TID");
	w = 0x3ffffffe;
	check_err(fx(&w, F_TRYLOCK_PI | F_PRIVATE, 0, NULL, NULL, 0), ESRCH,
		  "TRYLOCK_PI of a TID no thread ever had");

	check_err(fx(NULL, F_LOCK_PI | F_PRIVATE, 0, NULL, NULL, 0), EFAULT, "LOCK_PI of NULL");
	check_err(fx(NULL, F_UNLOCK_PI, 0, NULL, NULL, 0), EFAULT, "UNLOCK_PI of NULL");
	check_err(fx((uint32_t *)((char *)&w + 1), F_LOCK_PI | F_PRIVATE, 0, NULL, NULL, 0), EINVAL,
		  "LOCK_PI of a misaligned word");
	w = 0;
	check_err(fx(&w, F_LOCK_PI | F_PRIVATE | F_CLOCK_REALTIME, 0, NULL, NULL, 0), ENOSYS,
		  "LOCK_PI with FUTEX_CLOCK_REALTIME");
	ts = (struct timespec){ 0, 2000000000 };
	check_err(fx(&w, F_LOCK_PI | F_PRIVATE, 0, &ts, NULL, 0), EINVAL,
		  "LOCK_PI with a bad timespec");
	check(fx(&w, F_TRYLOCK_PI | F_PRIVATE, 0, &ts, NULL, 0) == 0 && w == me,
	      "TRYLOCK_PI reads no timeout");
}

/* Timeouts: LOCK_PI's absolute CLOCK_REALTIME, LOCK_PI2's CLOCK_MONOTONIC
 * or, with FUTEX_CLOCK_REALTIME, CLOCK_REALTIME. */
static void timeouts(void)
{
	uint32_t w = my_tid();
	struct timespec rt = deadline(CLOCK_REALTIME, 100), mono = deadline(CLOCK_MONOTONIC, 100);
	struct timespec past = { 1, 0 };
	struct res r;

	r = op_by_thread(&w, F_LOCK_PI | F_PRIVATE, &rt);
	check_res(&r, ETIMEDOUT, "LOCK_PI, CLOCK_REALTIME deadline");
	check(w == (my_tid() | F_WAITERS), "the timed-out waiter left the bit");
	r = op_by_thread(&w, F_LOCK_PI2 | F_PRIVATE, &mono);
	check_res(&r, ETIMEDOUT, "LOCK_PI2, CLOCK_MONOTONIC deadline");
	rt = deadline(CLOCK_REALTIME, 50);
	r = op_by_thread(&w, F_LOCK_PI2 | F_PRIVATE | F_CLOCK_REALTIME, &rt);
	check_res(&r, ETIMEDOUT, "LOCK_PI2|FUTEX_CLOCK_REALTIME, CLOCK_REALTIME deadline");
	r = op_by_thread(&w, F_LOCK_PI | F_PRIVATE, &past);
	check_res(&r, ETIMEDOUT, "LOCK_PI, a deadline long past");
	check(fx(&w, F_UNLOCK_PI | F_PRIVATE, 0, NULL, NULL, 0) == 0 && w == 0,
	      "UNLOCK_PI once the waiters timed out: 0");
}

/* Contention: two waiters behind the owner, each handed the lock. */
static uint32_t lockword;
static struct res waiter_res[2];

static void *pi_waiter(void *arg)
{
	struct res *r = arg;

	r->tid = my_tid();
	r->ret = fx(&lockword, F_LOCK_PI | F_PRIVATE, 0, NULL, NULL, 0);
	r->err = errno;
	r->seen = load(&lockword);
	usleep(20000);
	/* the user space unlock fails on FUTEX_WAITERS: the kernel's */
	if (!__sync_bool_compare_and_swap(&lockword, r->tid, 0))
		fx(&lockword, F_UNLOCK_PI | F_PRIVATE, 0, NULL, NULL, 0);
	return NULL;
}

static void contended(void)
{
	uint32_t me = my_tid(), after;
	pthread_t th[2];
	int i, ok = 1;

	lockword = me;
	for (i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, pi_waiter, &waiter_res[i]);
	wait_waiters(&lockword);
	check(!__sync_bool_compare_and_swap(&lockword, me, 0),
	      "the owner's user space unlock fails");
	check((lockword & F_TID_MASK) == me, "a waiter set FUTEX_WAITERS, the owner's TID kept");
	errno = 0;
	check_err(fx(&lockword, F_WAKE | F_PRIVATE, 1, NULL, NULL, 0), EINVAL,
		  "FUTEX_WAKE of a PI futex with waiters");
	check(fx(&lockword, F_UNLOCK_PI | F_PRIVATE, 0, NULL, NULL, 0) == 0,
	      "UNLOCK_PI to a waiter");
	after = load(&lockword);
	check((after & F_WAITERS) && ((after & F_TID_MASK) == waiter_res[0].tid ||
				      (after & F_TID_MASK) == waiter_res[1].tid),
	      "the word names the new owner, FUTEX_WAITERS set");
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < 2; i++)
		ok &= waiter_res[i].ret == 0 &&
		      (waiter_res[i].seen & F_TID_MASK) == waiter_res[i].tid;
	check(ok, "each waiter got the lock with its TID in the word");
	check(lockword == 0, "free once both unlocked");
}

/* An owner that exits holding a PI futex a thread waits on: the waiter
 * gets it, OWNER_DIED set (no robust list needed). */
static uint32_t dying_word;

static void *dies_holding(void *arg)
{
	(void)arg;
	dying_word = my_tid();
	wait_waiters(&dying_word);
	return NULL; /* exits holding it */
}

static void owner_exits(void)
{
	uint32_t me = my_tid();
	pthread_t th;
	long r;

	dying_word = 0;
	pthread_create(&th, NULL, dies_holding, NULL);
	while (!load(&dying_word))
		usleep(1000);
	r = fx(&dying_word, F_LOCK_PI | F_PRIVATE, 0, NULL, NULL, 0);
	check(r == 0, "LOCK_PI waiting on an owner that exits: got it");
	check(dying_word == (me | F_WAITERS | F_OWNER_DIED),
	      "the word: the new owner's TID, FUTEX_WAITERS, FUTEX_OWNER_DIED");
	pthread_join(th, NULL);
	check(fx(&dying_word, F_UNLOCK_PI | F_PRIVATE, 0, NULL, NULL, 0) == 0 && dying_word == 0,
	      "and it unlocks to 0");
}

/* A lock chain back to the caller: EDEADLK. */
static uint32_t l1, l2;
static struct res chain_res;

static void *chain_thread(void *arg)
{
	(void)arg;
	l2 = my_tid();
	while (!load(&l1))
		usleep(1000);
	chain_res.ret = fx(&l1, F_LOCK_PI | F_PRIVATE, 0, NULL, NULL, 0);
	chain_res.err = errno;
	fx(&l1, F_UNLOCK_PI | F_PRIVATE, 0, NULL, NULL, 0);
	fx(&l2, F_UNLOCK_PI | F_PRIVATE, 0, NULL, NULL, 0);
	return NULL;
}

static void deadlock(void)
{
	struct timespec ts = deadline(CLOCK_REALTIME, 3000);
	pthread_t th;
	long r;
	int e;

	pthread_create(&th, NULL, chain_thread, NULL);
	while (!load(&l2))
		usleep(1000);
	l1 = my_tid();
	wait_waiters(&l1);
	usleep(50000);
	r = fx(&l2, F_LOCK_PI | F_PRIVATE, 0, &ts, NULL, 0);
	e = errno;
	fx(&l1, F_UNLOCK_PI | F_PRIVATE, 0, NULL, NULL, 0);
	pthread_join(th, NULL);
	errno = e;
	check_err(r, EDEADLK, "LOCK_PI closing a chain of PI locks back to the caller");
	check(chain_res.ret == 0 && l1 == 0 && l2 == 0, "the other side gets its lock after");
}

/* FUTEX_WAIT_REQUEUE_PI and FUTEX_CMP_REQUEUE_PI */
static uint32_t cond, mutex;
static struct res rq_res;
static struct timespec rq_ts;

static void *rq_waiter(void *arg)
{
	(void)arg;
	rq_res.tid = my_tid();
	rq_res.ret = fx(&cond, F_WAIT_REQUEUE_PI | F_PRIVATE, 0, rq_ts.tv_sec ? &rq_ts : NULL,
			&mutex, 0);
	rq_res.err = errno;
	rq_res.seen = load(&mutex);
	if (rq_res.ret == 0 && !__sync_bool_compare_and_swap(&mutex, rq_res.tid, 0))
		fx(&mutex, F_UNLOCK_PI | F_PRIVATE, 0, NULL, NULL, 0);
	return NULL;
}

/* Requeues (nreq) until the waiter was found: the count. */
static long requeue_found(long nreq)
{
	long r;

	while ((r = requeue_pi(&cond, nreq, &mutex, 0)) == 0)
		usleep(1000);
	return r;
}

static void requeue(void)
{
	uint32_t me = my_tid();
	struct timespec ts;
	pthread_t th;
	long r;

	cond = mutex = 0;
	check_err(fx(&cond, F_WAIT_REQUEUE_PI | F_PRIVATE, 0, NULL, &cond, 0), EINVAL,
		  "WAIT_REQUEUE_PI onto its own word");
	check_err(fx(&cond, F_WAIT_REQUEUE_PI | F_PRIVATE, 1, NULL, &mutex, 0), EAGAIN,
		  "WAIT_REQUEUE_PI with a stale value");
	ts = deadline(CLOCK_MONOTONIC, 50);
	check_err(fx(&cond, F_WAIT_REQUEUE_PI | F_PRIVATE, 0, &ts, &mutex, 0), ETIMEDOUT,
		  "WAIT_REQUEUE_PI, CLOCK_MONOTONIC deadline");
	ts = deadline(CLOCK_REALTIME, 50);
	check_err(fx(&cond, F_WAIT_REQUEUE_PI | F_PRIVATE | F_CLOCK_REALTIME, 0, &ts, &mutex, 0),
		  ETIMEDOUT, "WAIT_REQUEUE_PI, CLOCK_REALTIME deadline");
	check_err(syscall(SYS_futex, &cond, F_CMP_REQUEUE_PI | F_PRIVATE, 2, 1L, &mutex, 0), EINVAL,
		  "CMP_REQUEUE_PI waking 2");
	check_err(requeue_pi(&cond, 1, &cond, 0), EINVAL, "CMP_REQUEUE_PI onto the same word");
	check_err(requeue_pi(&cond, 1, &mutex, 7), EAGAIN, "CMP_REQUEUE_PI with a stale value");
	check(requeue_pi(&cond, 1, &mutex, 0) == 0, "CMP_REQUEUE_PI with no waiters: 0");

	/* The PI futex free: the requeue takes it for the waiter. */
	rq_ts = (struct timespec){ 0, 0 };
	pthread_create(&th, NULL, rq_waiter, NULL);
	r = requeue_found(0);
	check(r == 1, "CMP_REQUEUE_PI of a free PI futex: one woken");
	pthread_join(th, NULL);
	check(rq_res.ret == 0 && rq_res.seen == rq_res.tid,
	      "the waiter returns owning it: its TID alone");
	check(mutex == 0, "and unlocks it in user space");

	/* The PI futex held: the waiter is requeued, then handed it. */
	mutex = me;
	pthread_create(&th, NULL, rq_waiter, NULL);
	r = requeue_found(1);
	check(r == 1, "CMP_REQUEUE_PI of a held PI futex: one requeued");
	check(mutex == (me | F_WAITERS), "the held word got FUTEX_WAITERS");
	check_err(fx(&mutex, F_WAKE | F_PRIVATE, 1, NULL, NULL, 0), EINVAL,
		  "FUTEX_WAKE of the PI futex it waits on now");
	check(fx(&mutex, F_UNLOCK_PI | F_PRIVATE, 0, NULL, NULL, 0) == 0,
	      "UNLOCK_PI hands it to the requeued waiter");
	pthread_join(th, NULL);
	check(rq_res.ret == 0 && rq_res.seen == (rq_res.tid | F_WAITERS),
	      "the requeued waiter owns it: TID and FUTEX_WAITERS");
	check(mutex == 0, "and unlocks it through the kernel");

	/* A requeue-PI waiter is not a plain wake's, and a plain waiter is
	 * not a requeue-PI's. */
	rq_ts = deadline(CLOCK_MONOTONIC, 2000);
	pthread_create(&th, NULL, rq_waiter, NULL);
	while ((r = fx(&cond, F_WAKE | F_PRIVATE, 1, NULL, NULL, 0)) == 0)
		usleep(1000);
	check_err(r, EINVAL, "FUTEX_WAKE of a WAIT_REQUEUE_PI waiter");
	r = requeue_found(0);
	check(r == 1, "which CMP_REQUEUE_PI then finds");
	pthread_join(th, NULL);
	check(rq_res.ret == 0 && rq_res.seen == rq_res.tid && mutex == 0,
	      "and wakes owning the PI futex");
}

/* A plain FUTEX_WAIT waiter met by CMP_REQUEUE_PI. */
static void *plain_waiter(void *arg)
{
	struct timespec ts = { 2, 0 };

	(void)arg;
	fx(&cond, F_WAIT | F_PRIVATE, 0, &ts, NULL, 0);
	return NULL;
}

static void requeue_plain(void)
{
	pthread_t th;
	long r;

	cond = mutex = 0;
	pthread_create(&th, NULL, plain_waiter, NULL);
	while ((r = requeue_pi(&cond, 1, &mutex, 0)) == 0)
		usleep(1000);
	check_err(r, EINVAL, "CMP_REQUEUE_PI of a plain FUTEX_WAIT waiter");
	fx(&cond, F_WAKE | F_PRIVATE, 1, NULL, NULL, 0);
	pthread_join(th, NULL);
	check(mutex == 0, "the PI futex untouched");
}

/* PTHREAD_PRIO_INHERIT mutexes: robust ones whose owner exits, and a
 * condition variable over one. */
static pthread_mutex_t pm;
static volatile int holder_ready;

static void pi_mutex_init(int robust)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
	if (robust)
		pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&pm, &a);
	pthread_mutexattr_destroy(&a);
}

/* The lock word: glibc's __lock, musl's _m_lock. */
static uint32_t *pm_word(void)
{
#ifdef __GLIBC__
	return (uint32_t *)&pm;
#else
	return (uint32_t *)&pm + 1;
#endif
}

static void *lock_and_exit(void *arg)
{
	int wait_for_waiter = *(int *)arg;

	pthread_mutex_lock(&pm);
	holder_ready = 1;
	if (wait_for_waiter)
		wait_waiters(pm_word());
	return NULL;
}

static void robust(int wait_for_waiter, const char *what)
{
	pthread_t th;
	int r;

	pi_mutex_init(1);
	holder_ready = 0;
	pthread_create(&th, NULL, lock_and_exit, &wait_for_waiter);
	while (!holder_ready)
		usleep(1000);
	if (!wait_for_waiter)
		pthread_join(th, NULL);
	r = pthread_mutex_lock(&pm);
	if (wait_for_waiter)
		pthread_join(th, NULL);
	check(r == EOWNERDEAD, what);
	check(pthread_mutex_consistent(&pm) == 0 && pthread_mutex_unlock(&pm) == 0,
	      "made consistent and unlocked");
	check(pthread_mutex_lock(&pm) == 0 && pthread_mutex_unlock(&pm) == 0,
	      "then locks as usual");
	pthread_mutex_destroy(&pm);
}

static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int produced, consumed;

static void *consumer(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 50; i++) {
		pthread_mutex_lock(&pm);
		while (produced == consumed)
			pthread_cond_wait(&cv, &pm);
		consumed++;
		pthread_cond_signal(&cv);
		pthread_mutex_unlock(&pm);
	}
	return NULL;
}

static void condvar(void)
{
	pthread_t th;
	int i;

	pi_mutex_init(0);
	pthread_create(&th, NULL, consumer, NULL);
	for (i = 0; i < 50; i++) {
		pthread_mutex_lock(&pm);
		while (produced != consumed)
			pthread_cond_wait(&cv, &pm);
		produced++;
		pthread_cond_signal(&cv);
		pthread_mutex_unlock(&pm);
	}
	pthread_join(th, NULL);
	check(produced == 50 && consumed == 50,
	      "a condition variable over a PI mutex: 50 handoffs");
	pthread_mutex_destroy(&pm);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	uncontended();
	timeouts();
	contended();
	owner_exits();
	deadlock();
	requeue();
	requeue_plain();
	robust(0, "robust PI mutex whose owner exited: EOWNERDEAD");
	robust(1, "robust PI mutex whose owner exits while we wait: EOWNERDEAD");
	condvar();
	return 0;
}
