/* Shared futexes meet across processes: in MAP_SHARED anonymous memory
 * kept over fork, in a shared file mapping opened separately by each, and
 * under a process-shared pthread mutex and condition variable; a private
 * futex operation does not reach another process. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

/* <linux/futex.h> is not on musl's include path */
#define FUTEX_WAIT	     0
#define FUTEX_WAKE	     1
#define FUTEX_WAKE_PRIVATE   (FUTEX_WAKE | 128)
#define FUTEX_WAKE_OP	     5
#define FUTEX_CLOCK_REALTIME 256
/* FUTEX_OP(FUTEX_OP_ADD | FUTEX_OP_OPARG_SHIFT, 40, FUTEX_OP_CMP_EQ, 0) and
 * FUTEX_OP(FUTEX_OP_ADD, 1, 9, 0) */
#define FUTEX_OP_ADD_SHIFT_40  ((1u | 8u) << 28 | 40u << 12)
#define FUTEX_OP_ADD_1_BAD_CMP (1u << 28 | 9u << 24 | 1u << 12)
/* FUTEX_OP(FUTEX_OP_SET | FUTEX_OP_OPARG_SHIFT, 31, FUTEX_OP_CMP_EQ, 0):
 * 1 << 31, the sign bit (an int overflow in skas's ASan build once) */
#define FUTEX_OP_SET_SHIFT_31 ((0u | 8u) << 28 | 31u << 12)
/* FUTEX_OP(FUTEX_OP_SET, 5, FUTEX_OP_CMP_EQ, 0), and an operation 7 */
#define FUTEX_OP_SET_5 (5u << 12)
#define FUTEX_OP_BAD_7 (7u << 28 | 5u << 12)
/* FUTEX_OP(FUTEX_OP_ADD, 1, FUTEX_OP_CMP_EQ, 0) */
#define FUTEX_OP_ADD_1 (1u << 28 | 1u << 12)

static long futex(uint32_t *addr, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, addr, op, val, ts, NULL, 0);
}

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* Wakes one waiter on addr with op, retrying until one was there (the child
 * may not be asleep yet): the number woken, 0 after about 2 s. */
static long wake_one(uint32_t *addr, int op)
{
	long r = 0;
	int i;

	for (i = 0; i < 400 && r == 0; i++) {
		r = futex(addr, op, 1, NULL);
		if (r == 0)
			pause_ms(5);
	}
	return r;
}

/* A child waits on *f (shared) until woken; exits 0 if the wait returned 0. */
static pid_t waiter(uint32_t *f)
{
	pid_t c = fork();

	if (c == 0) {
		struct timespec ts = { 5, 0 };

		_exit(futex(f, FUTEX_WAIT, 0, &ts) == 0 ? 0 : 1);
	}
	return c;
}

static int exited0(pid_t c)
{
	int st;

	return waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

int main(void)
{
	uint32_t *anon =
		mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char path[] = "/tmp/skas-futex-XXXXXX";
	pid_t c;
	int fd;

	setvbuf(stdout, NULL, _IONBF, 0);
	alarm(20);
	if (anon == MAP_FAILED)
		return 1;

	/* 1: shared anonymous memory across fork */
	c = waiter(&anon[1]);
	check(wake_one(&anon[1], FUTEX_WAKE) == 1,
	      "FUTEX_WAKE in MAP_SHARED|MAP_ANONYMOUS wakes a child");
	check(exited0(c), "the child's FUTEX_WAIT returned 0");

	/* 2: the private flag stays in its own address space */
	c = fork();
	if (c == 0) {
		struct timespec ts = { 0, 300000000 };
		long r = futex(&anon[2], FUTEX_WAIT, 0, &ts);

		_exit(r < 0 && errno == ETIMEDOUT ? 0 : 1);
	}
	pause_ms(50);
	check(futex(&anon[2], FUTEX_WAKE_PRIVATE, 1, NULL) == 0,
	      "FUTEX_WAKE_PRIVATE does not reach another process's waiter");
	check(exited0(c), "which times out");

	/* 3: a shared file mapping, each process mapping the file itself */
	fd = mkstemp(path);
	if (fd < 0 || ftruncate(fd, 8192) < 0)
		return 1;
	c = fork();
	if (c == 0) {
		int cfd = open(path, O_RDWR);
		uint32_t *m =
			cfd < 0 ? MAP_FAILED
				: mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
		struct timespec ts = { 5, 0 };

		if (m == MAP_FAILED)
			_exit(2);
		/* the futex at file offset 4100 */
		_exit(futex((uint32_t *)((char *)m + 4100), FUTEX_WAIT, 0, &ts) == 0 ? 0 : 1);
	}
	{
		/* mapped from page 1 of the file: a different address, the
		 * same file offset */
		char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 4096);

		check(m != MAP_FAILED && wake_one((uint32_t *)(m + 4), FUTEX_WAKE) == 1,
		      "a shared file futex is keyed by file offset, not address");
		check(exited0(c), "the other process's wait returned 0");
		munmap(m, 4096);
	}
	close(fd);
	unlink(path);

	/* 4: split mappings keep their identity: wake through the second page
	 * of a two-page shared mapping after the first page is unmapped */
	{
		char *two =
			mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

		c = waiter((uint32_t *)(two + 4096));
		check(munmap(two, 4096) == 0 && wake_one((uint32_t *)(two + 4096), FUTEX_WAKE) == 1,
		      "after munmap of the first page the second still wakes the child");
		check(exited0(c), "the child's wait returned 0");
	}

	/* 5: process-shared pthread mutex and condition variable */
	{
		struct shared {
			pthread_mutex_t mu;
			pthread_cond_t cv;
			int stage, count;
		} *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			     -1, 0);
		pthread_mutexattr_t ma;
		pthread_condattr_t ca;
		int i, ok = 1;

		pthread_mutexattr_init(&ma);
		pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
		pthread_condattr_init(&ca);
		pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
		pthread_mutex_init(&sh->mu, &ma);
		pthread_cond_init(&sh->cv, &ca);
		c = fork();
		if (c == 0) {
			for (i = 0; i < 200; i++) {
				pthread_mutex_lock(&sh->mu);
				while (sh->stage % 2 == 0)
					pthread_cond_wait(&sh->cv, &sh->mu);
				sh->count++;
				sh->stage++;
				pthread_cond_signal(&sh->cv);
				pthread_mutex_unlock(&sh->mu);
			}
			_exit(0);
		}
		for (i = 0; i < 200; i++) {
			pthread_mutex_lock(&sh->mu);
			while (sh->stage % 2 == 1)
				pthread_cond_wait(&sh->cv, &sh->mu);
			sh->count++;
			sh->stage++;
			pthread_cond_signal(&sh->cv);
			pthread_mutex_unlock(&sh->mu);
		}
		ok = exited0(c);
		check(ok && sh->count == 400 && sh->stage == 400,
		      "two processes alternate 400 times under a process-shared mutex and condvar");
	}

	/* 6: a shared futex on an unmapped address is EFAULT */
	{
		char *gone = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		munmap(gone, 4096);
		errno = 0;
		check(futex((uint32_t *)gone, FUTEX_WAKE, 1, NULL) == -1 && errno == EFAULT,
		      "FUTEX_WAKE on an unmapped address: EFAULT");
		check(futex((uint32_t *)gone, FUTEX_WAKE_PRIVATE, 1, NULL) == 0,
		      "FUTEX_WAKE_PRIVATE there: 0");
	}

	/* 7: FUTEX_WAKE of 0 (or a negative count) still wakes one waiter,
	 * as Linux; FUTEX_WAKE_OP masks a shift past 31 and does the
	 * operation before a bad comparison's ENOSYS; FUTEX_CLOCK_REALTIME
	 * with FUTEX_WAIT is ENOSYS. */
	{
		struct timespec ten_ms = { 0, 10000000 };
		pid_t c1 = waiter(&anon[3]), c2 = waiter(&anon[3]);
		long r = 0;
		int i;

		for (i = 0; i < 400 && r == 0; i++) {
			r = futex(&anon[3], FUTEX_WAKE, 0, NULL);
			if (r == 0)
				pause_ms(5);
		}
		check(r == 1, "FUTEX_WAKE of 0 wakes one waiter");
		r = 0;
		for (i = 0; i < 400 && r == 0; i++) {
			r = futex(&anon[3], FUTEX_WAKE, (uint32_t)-1, NULL);
			if (r == 0)
				pause_ms(5);
		}
		check(r == 1, "FUTEX_WAKE of -1 wakes one waiter");
		check(exited0(c1) && exited0(c2), "both waits returned 0");

		anon[4] = 5;
		r = syscall(SYS_futex, &anon[3], FUTEX_WAKE_OP, 1, (void *)1, &anon[4],
			    FUTEX_OP_ADD_SHIFT_40);
		check(r == 0 && anon[4] == 5 + 256, "FUTEX_WAKE_OP: a shift of 40 is one of 8");
		errno = 0;
		r = syscall(SYS_futex, &anon[3], FUTEX_WAKE_OP, 1, (void *)1, &anon[4],
			    FUTEX_OP_ADD_1_BAD_CMP);
		check(r == -1 && errno == ENOSYS && anon[4] == 5 + 256 + 1,
		      "FUTEX_WAKE_OP with a bad comparison: ENOSYS, the add done");
		r = syscall(SYS_futex, &anon[3], FUTEX_WAKE_OP, 1, (void *)1, &anon[4],
			    FUTEX_OP_SET_SHIFT_31);
		check(r == 0 && anon[4] == 0x80000000u,
		      "FUTEX_WAKE_OP: a shift of 31 sets the sign bit");
		errno = 0;
		r = futex(&anon[3], FUTEX_WAIT | FUTEX_CLOCK_REALTIME, 0, &ten_ms);
		check(r == -1 && errno == ENOSYS, "FUTEX_WAIT|FUTEX_CLOCK_REALTIME: ENOSYS");
	}

	/* 7b: FUTEX_WAKE_OP looks at both futexes' keys, then at the
	 * operation, before it touches the word: a shared one with an unmapped
	 * first address is EFAULT with the word unchanged; a bad operation is
	 * ENOSYS even with an unmapped word (a private futex needs no
	 * mapping for its key). */
	{
		char *gone = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		long r;

		munmap(gone, 4096);
		anon[4] = 1;
		errno = 0;
		r = syscall(SYS_futex, gone, FUTEX_WAKE_OP, 1, (void *)1, &anon[4], FUTEX_OP_SET_5);
		check(r == -1 && errno == EFAULT && anon[4] == 1,
		      "FUTEX_WAKE_OP on an unmapped shared futex: EFAULT, the word unchanged");
		errno = 0;
		r = syscall(SYS_futex, &anon[3], FUTEX_WAKE_OP | 128, 1, (void *)1, gone,
			    FUTEX_OP_BAD_7);
		check(r == -1 && errno == ENOSYS,
		      "FUTEX_WAKE_OP with operation 7 and an unmapped word: ENOSYS");
	}

	/* 8: FUTEX_WAKE_OP's read-modify-write is atomic, as Linux's: another
	 * process adding to the word at the same time loses none of its adds
	 * and none of the call's, though it adds without pause (a kernel that
	 * reads the word and exchanges it microseconds later loses adds, or
	 * fails nearly every exchange: 20-60 s for these calls). */
	{
		uint32_t *word = &anon[5], *go = &anon[6], *done = &anon[7];
		int i, ops = 3000;
		long r = 0;
		pid_t adder;

		*word = 0;
		*go = 0;
		*done = 0;
		adder = fork();
		if (adder == 0) {
			uint32_t adds = 0;

			alarm(20); /* not for ever, should the parent die */
			__atomic_store_n(go, 1, __ATOMIC_SEQ_CST);
			while (__atomic_load_n(go, __ATOMIC_SEQ_CST) == 1) {
				__atomic_fetch_add(word, 1, __ATOMIC_SEQ_CST);
				adds++;
			}
			*done = adds;
			_exit(0);
		}
		while (__atomic_load_n(go, __ATOMIC_SEQ_CST) == 0)
			sched_yield();
		for (i = 0; i < ops && r == 0; i++)
			r = syscall(SYS_futex, &anon[3], FUTEX_WAKE_OP, 1, (void *)1, word,
				    FUTEX_OP_ADD_1);
		__atomic_store_n(go, 2, __ATOMIC_SEQ_CST);
		check(r == 0 && exited0(adder), "FUTEX_WAKE_OP beside another process's adds");
		check(*word == (uint32_t)ops + *done,
		      "FUTEX_WAKE_OP's add and the other's: none lost");
	}
	return 0;
}
