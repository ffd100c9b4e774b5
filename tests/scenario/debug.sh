#!/bin/bash
# The kernel is an ordinary program: gdb stops in a system call handler
# when a guest makes that call, with the task's kernel stack as backtrace;
# valgrind's memcheck runs the kernel through a small workload (pipes,
# fork/exec, tmpfs, a signal, python3) with no error and no definite leak.
# Under valgrind the kernel is not boxed by its seccomp allowlist (valgrind
# makes host calls of its own); the stubs still are.
set -u
SKAS=${SKAS:-./skas}
. "$(dirname "$0")/common.bash"
platforms_probe
out=$(mktemp /tmp/skas-gdb.XXXXXX)
trap 'rm -f "$out" "$out.cmd" "$out.c" "$out.bin" "$out.leak" "$out.leak.c"' EXIT

cat >"$out.cmd" <<'CMD'
set pagination off
set confirm off
break sys_openat
run
bt 3
kill
CMD
timeout -k 5 120 gdb -batch -x "$out.cmd" --args "$SKAS" run -- /bin/cat /etc/hostname \
	>"$out" 2>&1 </dev/null
n=$((n + 1))
if grep -q "Breakpoint 1, sys_openat" "$out" && grep -q "in task_main" "$out"; then
	echo "ok $n - gdb stops in sys_openat when the guest opens a file"
else
	echo "not ok $n - gdb stops in sys_openat when the guest opens a file"
	sed 's/^/# /' "$out" | tail -20
	failed=$((failed + 1))
fi
# A host call off the kernel's allowlist (mount, made from gdb while the
# kernel is in a handler) kills it with a line naming the call.
cat >"$out.cmd" <<'CMD'
set pagination off
set confirm off
handle SIGSYS nostop noprint pass
handle SIGCHLD nostop noprint pass
break sys_getppid
run
call (long)syscall(165, 0, 0, 0, 0, 0)
kill
CMD
timeout -k 5 120 gdb -batch -x "$out.cmd" --args "$SKAS" run -- /bin/sh -c 'echo $PPID' \
	>"$out" 2>&1 </dev/null
n=$((n + 1))
if grep -q "the kernel made host call 165 (mount), which is not on its allowlist" "$out" &&
	grep -q "terminated with signal SIGSYS" "$out"; then
	echo "ok $n - a host call off the allowlist kills the kernel with a line naming it"
else
	echo "not ok $n - a host call off the allowlist kills the kernel with a line naming it"
	sed 's/^/# /' "$out" | tail -20
	failed=$((failed + 1))
fi
# valgrind cannot run an ASan binary: under make asan, memcheck runs the
# release kernel (make asan builds it too).
VG_SKAS=$SKAS
grep -qa __asan_report_load "$SKAS" 2>/dev/null && VG_SKAS=./skas
if command -v valgrind >/dev/null 2>&1; then
	timeout -k 5 300 valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite "$VG_SKAS" run -- /bin/sh -c \
		'echo hi | cat; ls / | wc -l >/dev/null; echo data >/tmp/x; cat /tmp/x
		 trap "echo trapped" TERM; (sleep 0.1; kill -TERM $$) & wait
		 python3 -c "import os; print(os.getpid() > 1)"' >"$out" 2>&1 </dev/null
	rc=$?
	n=$((n + 1))
	if [ "$rc" = 0 ] && [ "$(grep -vE '^(--[0-9]+-- |skas: sandbox: off under valgrind$)' "$out" |
		tr '\n' ' ')" = "hi data trapped True " ]; then
		echo "ok $n - valgrind memcheck: a small workload, no error, no definite leak"
	else
		echo "not ok $n - valgrind memcheck: a small workload, no error, no definite leak (status $rc)"
		sed 's/^/# /' "$out" | head -40
		failed=$((failed + 1))
	fi
else
	n=$((n + 1))
	echo "not ok $n - valgrind is not installed (tools/deps.sh installs it)"
	failed=$((failed + 1))
fi
# A host signal to skas that lands just before its idle wait (gdb stops
# the kernel at the wait's syscall instruction, the guest blocked in a
# read that nothing will end, and delivers SIGTERM there) ends the wait:
# the guest gets it at once, not at the next event, which never comes.
cat >"$out.c" <<'C'
#include <unistd.h>
int main(void) { int p[2]; char c; return pipe(p) ? 1 : (int)read(p[0], &c, 1); }
C
cat >"$out.cmd" <<'CMD'
set pagination off
set confirm off
handle SIGTERM pass nostop noprint
handle SIGCHLD pass nostop noprint
break sys_read
run
delete
break host_wait4_seen_call
break host_epoll_wait_seen_call
break host_ioctl_seen_call
continue
delete
signal SIGTERM
CMD
if gcc -O2 -static -o "$out.bin" "$out.c" 2>/dev/null; then
	for pf in $(platforms_of ptrace seccomp sigsys); do
		n=$((n + 1))
		start=$(date +%s)
		# (LeakSanitizer cannot run under gdb: an ASan kernel that exits
		# under it must not look for leaks)
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			timeout -k 5 30 gdb -batch -x "$out.cmd" --args "$SKAS" run --platform=$pf -- \
			"$out.bin" >"$out" 2>&1 </dev/null
		took=$(($(date +%s) - start))
		if grep -q "exited with code 0217" "$out" && [ "$took" -lt 15 ]; then
			echo "ok $n - $pf: SIGTERM at the idle wait's syscall instruction ends it"
		else
			echo "not ok $n - $pf: SIGTERM at the idle wait's syscall instruction ends it ($took s)"
			sed 's/^/# /' "$out" | tail -8
			failed=$((failed + 1))
		fi
	done
else
	n=$((n + 1))
	echo "not ok $n - cannot build the blocked reader (gcc -static)"
	failed=$((failed + 1))
fi

# dmesg inside reads the kernel's own log (syslog(2)): the platform, a
# call skas lacks, a fault, as a Linux's dmesg shows its kernel's; a user
# is refused, as with dmesg_restrict.
timeout -k 5 60 "$SKAS" run -- /bin/sh -c \
	'python3 -c "import ctypes; ctypes.string_at(0)"; dmesg' >"$out" 2>/dev/null
n=$((n + 1))
if grep -q '^\[ *[0-9]*\.[0-9]*\] platform: ' "$out" &&
	grep -q 'rseq (334) is not implemented: ENOSYS' "$out" &&
	grep -q '(python3): signal 11 (code 1), access at 0, ip ' "$out"; then
	echo "ok $n - dmesg inside: the kernel's log, its platform, a call it lacks, a fault"
else
	echo "not ok $n - dmesg inside: the kernel's log, its platform, a call it lacks, a fault"
	sed 's/^/# /' "$out" | head -20
	failed=$((failed + 1))
fi
n=$((n + 1))
got=$(timeout -k 5 60 "$SKAS" run --user=1000 -- /bin/sh -c 'dmesg 2>&1' 2>/dev/null)
if [ "$got" = "dmesg: read kernel buffer failed: Operation not permitted" ]; then
	echo "ok $n - dmesg as a user: EPERM"
else
	echo "not ok $n - dmesg as a user: EPERM (got: $got)"
	failed=$((failed + 1))
fi

# A guest program built with -fsanitize=address runs and finds a heap
# overflow as it does natively (its 14 TiB MAP_NORESERVE shadow was
# ENOMEM); LeakSanitizer (a clone that ptrace-attaches to its parent)
# finds a leak, the program being pid 1 (the attach's SIGSTOP must stop
# init) or a shell's child.
cat >"$out.c" <<'C'
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	char *p = malloc(16);

	memset(p, 0, 16 + (argc > 1));
	free(p);
	return 0;
}
C
cat >"$out.leak.c" <<'C'
#include <stdlib.h>
void *keep;
int main(void)
{
	void *p = malloc(1234);

	keep = malloc(10);
	p = NULL;
	return p != NULL;
}
C
if gcc -g -fsanitize=address -o "$out.bin" "$out.c" 2>/dev/null &&
	gcc -g -fsanitize=address -o "$out.leak" "$out.leak.c" 2>/dev/null; then
	for pf in $(platforms_of seccomp ptrace sigsys); do
		n=$((n + 1))
		got=$(ASAN_OPTIONS=detect_leaks=0 timeout -k 5 60 "$SKAS" run --platform=$pf -- \
			/bin/sh -c "$out.bin && echo clean; $out.bin x 2>&1 | grep -o 'heap-buffer-overflow' | head -1" \
			2>&1)
		if [ "$got" = "clean
heap-buffer-overflow" ]; then
			echo "ok $n - $pf: an AddressSanitizer program runs and reports a heap overflow"
		else
			echo "not ok $n - $pf: an AddressSanitizer program runs and reports a heap overflow"
			echo "$got" | sed 's/^/# /' | head -8
			failed=$((failed + 1))
		fi
		n=$((n + 1))
		got=$( (ASAN_OPTIONS=detect_leaks=1 timeout -k 5 60 "$SKAS" run --platform=$pf -- \
			"$out.leak" 2>&1; ASAN_OPTIONS=detect_leaks=1 timeout -k 5 60 "$SKAS" run \
			--platform=$pf -- /bin/sh -c "$out.leak" 2>&1) | grep -o 'SUMMARY: AddressSanitizer: 1234 byte(s) leaked')
		if [ "$got" = "SUMMARY: AddressSanitizer: 1234 byte(s) leaked
SUMMARY: AddressSanitizer: 1234 byte(s) leaked" ]; then
			echo "ok $n - $pf: LeakSanitizer finds a leak, as pid 1 and under a shell"
		else
			echo "not ok $n - $pf: LeakSanitizer finds a leak, as pid 1 and under a shell"
			echo "$got" | sed 's/^/# /' | head -8
			failed=$((failed + 1))
		fi
	done
else
	n=$((n + 1))
	echo "not ok $n - cannot build with -fsanitize=address"
	failed=$((failed + 1))
fi

# Core files: a guest program that dies of SIGSEGV with RLIMIT_CORE set
# leaves an ELF core that gdb (inside) reads back to the faulting frame and
# its caller, the shell reports "(core dumped)"; core_pattern's specifiers
# name it; RLIMIT_CORE 0 leaves none; coredump_filter 0x32, inherited,
# leaves the heap (private anonymous memory) out. (In a scenario: the native
# kernel.core_pattern is the host's.)
cat >"$out.c" <<'C'
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static int depth(int n)
{
	volatile int *p = NULL;

	return n ? depth(n - 1) + 1 : *p;
}
int main(void)
{
	char *m = malloc(64);

	strcpy(m, "heap-marker-in-the-core");
	if (write(-1, m, 1) != -1)
		return 1;
	return depth(3);
}
C
if gcc -g -O0 -o "$out.bin" "$out.c" 2>/dev/null; then
	got=$(timeout -k 5 120 "$SKAS" run -- /bin/bash -c "
		d=\$(mktemp -d) && cd \$d && ulimit -c unlimited
		$out.bin; echo status=\$?
		ls
		gdb -batch -ex bt $out.bin core 2>/dev/null | grep '^#[01] ' | sort -u | grep -o 'depth (n=[0-9])'
		ls \$d >/dev/null
		grep -c heap-marker-in-the-core core
		readelf -h core | grep -o 'CORE (Core file)'
		echo \$d/'core.%e.%p.%s' >/proc/sys/kernel/core_pattern
		cd /; $out.bin; ls \$d | grep -c '^core\.skas-gdb\.[A-Za-z0-9]*\.[0-9]*\.11$'
		rm -f \$d/core*; ulimit -c 0; $out.bin; ls \$d | wc -l
		(echo '|/bin/false' >/proc/sys/kernel/core_pattern) 2>/dev/null || echo pipe refused
		ulimit -c unlimited; echo 0x32 >/proc/self/coredump_filter; cat /proc/self/coredump_filter
		$out.bin; grep -c heap-marker-in-the-core \$d/core.*" 2>&1 |
		grep -v 'Segmentation fault')
	n=$((n + 1))
	if [ "$got" = "status=139
core
depth (n=0)
depth (n=1)
1
CORE (Core file)
1
0
pipe refused
00000032
0" ]; then
		echo "ok $n - a core file: gdb reads it back; core_pattern names it; RLIMIT_CORE 0: none; coredump_filter 0x32 (fork keeps it) leaves the heap out"
	else
		echo "not ok $n - a core file: gdb reads it back; core_pattern names it; RLIMIT_CORE 0: none; coredump_filter 0x32 (fork keeps it) leaves the heap out"
		echo "$got" | sed 's/^/# /' | head -20
		failed=$((failed + 1))
	fi
else
	n=$((n + 1))
	echo "not ok $n - cannot build the crashing program"
	failed=$((failed + 1))
fi
# A multi-threaded program's core: every thread is in it (gdb's "info
# threads" lists the crashing one and the two others, each in its own
# function: a spinning one and one blocked in a system call), and the
# others stopped before the dump (the spinner's counter in the core is the
# one it had when it stopped, so it is readable; each thread's registers
# are its own).
cat >"$out-mt.c" <<'C'
#include <pthread.h>
#include <unistd.h>
volatile unsigned long spins;
volatile int sleeping;
static void *spinner(void *a)
{
	(void)a;
	for (;;)
		spins++;
	return NULL;
}
static void *sleeper(void *a)
{
	(void)a;
	sleeping = 1;
	for (;;)
		pause();
	return NULL;
}
int main(void)
{
	pthread_t x, y;
	volatile int *p = NULL;

	pthread_create(&x, NULL, spinner, NULL);
	pthread_create(&y, NULL, sleeper, NULL);
	while (spins < 1000000 || !sleeping)
		;
	usleep(10000);
	return *p;
}
C
if gcc -g -O0 -pthread -o "$out-mt.bin" "$out-mt.c" 2>/dev/null; then
	for p in $(platforms_of seccomp ptrace sigsys); do
		got=$(timeout -k 5 120 "$SKAS" run --platform="$p" -- /bin/bash -c "
			d=\$(mktemp -d) && cd \$d && ulimit -c unlimited
			$out-mt.bin; echo status=\$?
			gdb -batch -ex 'thread apply all bt' $out-mt.bin core 2>/dev/null |
				grep -o -E ' in (main|spinner|sleeper) ' | sort -u
			readelf -n core | grep -c NT_PRSTATUS" 2>&1 | grep -v 'Segmentation fault')
		n=$((n + 1))
		if [ "$got" = "status=139
 in main 
 in sleeper 
 in spinner 
3" ]; then
			echo "ok $n - $p: a threaded program's core holds every thread"
		else
			echo "not ok $n - $p: a threaded program's core holds every thread"
			echo "$got" | sed 's/^/# /' | head -20
			failed=$((failed + 1))
		fi
	done
else
	n=$((n + 1))
	echo "not ok $n - cannot build the threaded crashing program"
	failed=$((failed + 1))
fi
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
