#!/bin/bash
# SysV IPC with real processes inside skas: a counter in a shared memory
# segment incremented by 4 unrelated processes (each attaches by key) under
# a semaphore, ending at the exact total; ipcmk/ipcs/ipcrm and
# /proc/sysvipc; python3's multiprocessing Lock across processes; a process
# blocked in semtimedop for a second costs the host no CPU. One TAP line
# each.
set -u
. "$(dirname "$0")/common.bash"

scratch ipc

cat >"$tmp/counter.c" <<'C'
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/shm.h>

/* counter init KEY | work KEY N | total KEY | block */
int main(int argc, char **argv)
{
	key_t key = argc > 2 ? (key_t)strtol(argv[2], NULL, 0) : 0;
	struct sembuf p = { 0, -1, SEM_UNDO }, v = { 0, 1, SEM_UNDO };
	int shm, sem;
	volatile long *c;

	if (!strcmp(argv[1], "block")) {
		struct timespec ts = { 1, 0 };
		struct sembuf b = { 0, -1, 0 };

		sem = semget(IPC_PRIVATE, 1, 0600);
		semtimedop(sem, &b, 1, &ts);
		semctl(sem, 0, IPC_RMID);
		return 0;
	}
	if (!strcmp(argv[1], "init")) {
		shm = shmget(key, sizeof(long), IPC_CREAT | IPC_EXCL | 0600);
		sem = semget(key, 1, IPC_CREAT | IPC_EXCL | 0600);
		if (shm < 0 || sem < 0 || semctl(sem, 0, SETVAL, 1) < 0)
			return 1;
		return 0;
	}
	shm = shmget(key, 0, 0);
	sem = semget(key, 0, 0);
	if (shm < 0 || sem < 0)
		return 2;
	c = shmat(shm, NULL, 0);
	if (c == (void *)-1)
		return 3;
	if (!strcmp(argv[1], "work")) {
		for (long i = 0, n = atol(argv[3]); i < n; i++) {
			long x;

			if (semop(sem, &p, 1) < 0)
				return 4;
			x = *c;
			if (i % 64 == 0)
				sched_yield(); /* invite a race the semaphore must prevent */
			*c = x + 1;
			if (semop(sem, &v, 1) < 0)
				return 5;
		}
		return 0;
	}
	printf("%ld %d\n", *c, semctl(sem, 0, GETVAL));
	shmdt((void *)c);
	shmctl(shm, IPC_RMID, NULL);
	semctl(sem, 0, IPC_RMID);
	return 0;
}
C
if ! gcc -static -O2 -o "$tmp/counter" "$tmp/counter.c" 2>"$tmp/cc.err"; then
	echo "not ok 1 - build the counter"
	sed 's/^/# /' "$tmp/cc.err"
	echo "0 passed, 1 failed"
	exit 1
fi

key=$((0x1c000000 + $$ % 65536))
out=$(timeout -k 5 120 "$SKAS" run -- /bin/sh -c "
	c=$tmp/counter
	\$c init $key || exit 1
	for i in 1 2 3 4; do \$c work $key 2500 & done
	wait
	\$c total $key
" 2>&1)
check "4 processes x 2500 increments under a semaphore: the counter, the semaphore back at 1" \
	"10000 1" "$out"

# util-linux's tools on the instance's own IPC namespace (ids start at 0).
if command -v ipcmk >/dev/null && command -v ipcs >/dev/null; then
	out=$(timeout -k 5 60 "$SKAS" run -- /bin/sh -c '
		ipcmk -M 8192 -p 0640; ipcmk -S 2; ipcmk -Q
		ipcs -m | awk "\$2 == 0 { print \$4, \$5 }"
		awk "NR > 1 { print \$2, \$3, \$4 }" /proc/sysvipc/sem
		ipcrm -m 0 -s 0 -q 0 && wc -l < /proc/sysvipc/msg' 2>&1)
	out2=$(timeout -k 5 60 "$SKAS" run -- /bin/sh -c '
		ipcmk -M 100; ipcmk -M 100; ipcrm -m 0; ipcmk -M 100; ipcrm -m 1 -m 2' 2>&1)
	check "ids are given as Linux 6 does (the next index, not the lowest free)" \
		"Shared memory id: 0 Shared memory id: 1 Shared memory id: 2" "$(echo $out2)"
	check "ipcmk, ipcs, /proc/sysvipc, ipcrm" \
		"Shared memory id: 0 Semaphore id: 0 Message queue id: 0 640 8192 0 644 2 1" \
		"$(echo $out)"
fi

# python3's multiprocessing: a Lock (a POSIX semaphore in /dev/shm, whose
# futex must wake across processes) guarding a shared Value.
out=$(timeout -k 5 120 "$SKAS" run -- /usr/bin/python3 -c '
import multiprocessing as mp
def work(v, lock, n):
    for _ in range(n):
        with lock:
            x = v.value
            v.value = x + 1
if __name__ == "__main__":
    mp.set_start_method("fork")
    v = mp.Value("i", 0, lock=False)
    lock = mp.Lock()
    ps = [mp.Process(target=work, args=(v, lock, 500)) for _ in range(4)]
    for p in ps: p.start()
    for p in ps: p.join()
    print(v.value, [p.exitcode for p in ps])
' 2>&1)
check "python3 multiprocessing: 4 processes x 500 under a Lock" "2000 [0, 0, 0, 0]" "$out"

# CPU time of skas and its stubs while the guest sleeps 1 s in semtimedop.
TIMEFORMAT='%3U %3S'
t=$( { time "$SKAS" run -- "$tmp/counter" block >/dev/null 2>&1; } 2>&1)
cpu_ms=$(echo "$t" | awk '{ printf "%d", ($1 + $2) * 1000 }')
check "a blocked semtimedop costs no host CPU (under 250 ms of CPU for 1 s; was ${cpu_ms} ms)" \
	yes "$([ "$cpu_ms" -lt 250 ] && echo yes || echo no)"

summary
