#!/bin/bash
# The walls around skas, checked from the host (issue 9): kill -9 of the
# kernel leaves no stub behind; the kernel runs boxed (seccomp filter,
# no_new_privs; when started by root, as nobody with no capability but
# CAP_DAC_READ_SEARCH); stubs run boxed too (filter, no_new_privs, their own
# user, mount and net namespaces, an empty root, two fds at most); a guest
# sees no host process, reads no host file outside --root, cannot ptrace a
# stub, and running the stub's own code gets it nowhere. One TAP line per
# check, then "N passed, M failed"; exit 1 if anything failed.
#
# usage: SKAS=./skas tests/scenario/security.sh     (run from anywhere)
set -u

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SKAS=${SKAS:-$root/skas}
case $SKAS in
    /*) ;;
    */*) SKAS=$PWD/$SKAS ;;
esac
cd "$root" || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/skas-sec.XXXXXX") || exit 2
kpid=
cleanup() {
    [ -n "$kpid" ] && kill -9 "$kpid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

n=0
failed=0
ok() { # NAME CONDITION-STATUS [NOTE...]
    local name=$1 res=$2
    shift 2
    n=$((n + 1))
    if [ "$res" = 0 ]; then
        echo "ok $n - $name"
    else
        failed=$((failed + 1))
        echo "not ok $n - $name"
        for note in "$@"; do echo "# $note"; done
    fi
}

if ! command -v "$SKAS" >/dev/null 2>&1; then
    echo "not ok 1 - skas not found: $SKAS"
    echo "0 passed, 1 failed"
    exit 1
fi

# A static helper for guests: h cat FILE | h ptrace HOST_PID | h stubjump
cat >"$tmp/h.c" <<'EOF'
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

static const char *ename(int e)
{
	return e == ENOSYS ? "ENOSYS" : e == EPERM ? "EPERM" : e == ESRCH ? "ESRCH" : "other";
}

int main(int argc, char **argv)
{
	char buf[4096];
	long n;
	int fd;

	if (argc == 3 && strcmp(argv[1], "cat") == 0) {
		fd = open(argv[2], O_RDONLY);
		if (fd < 0) {
			printf("%s: %s\n", argv[2], strerror(errno));
			return 1;
		}
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, n, stdout);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "ptrace") == 0) {
		int pid = atoi(argv[2]);
		long v;

		printf("attach %s", ptrace(PTRACE_ATTACH, pid, 0, 0) < 0 ? ename(errno) : "OK");
		printf(" seize %s", ptrace(PTRACE_SEIZE, pid, 0, 0) < 0 ? ename(errno) : "OK");
		errno = 0;
		v = ptrace(PTRACE_PEEKDATA, pid, 0x7fffff000000, 0);
		printf(" peek %s\n", v == -1 && errno ? ename(errno) : "OK");
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "stubjump") == 0) {
		/* The stub's batch loop (stub/stub.h STUB_BATCH): its syscall
		 * instructions trap like any other guest call. */
		((void (*)(void))0x7fffff000080UL)();
		printf("returned\n");
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "stubexit") == 0) {
		/* The stub's exit(0) of a retired thread (STUB_EXIT_THREAD):
		 * the guest's own exit(0) if it traps, a stub thread gone
		 * behind the kernel's back (SIGKILL) if it reached the host. */
		((void (*)(void))0x7fffff000100UL)();
		printf("returned\n");
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "stubinit") == 0) {
		/* The seccomp backend's filter install (STUB_GUEST_INIT): a
		 * guest seccomp() call, then the int3 (SIGTRAP). */
		((void (*)(void))0x7fffff000180UL)();
		printf("returned\n");
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "opspeek") == 0) {
		/* A child maps memory at a telling address; then the parent
		 * reads the stub's ops page (STUB_OPS, read-only in its own
		 * address space) for it: it must hold only its own batches. */
		const unsigned long mark = 0x5a5a0000UL;
		const unsigned long *ops = (const unsigned long *)0x7fffff002000UL;
		int st, i, seen = 0;

		if (fork() == 0) {
			mmap((void *)mark, 4096, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
			_exit(0);
		}
		wait(&st);
		for (i = 0; i < 0x4000 / 8; i++)
			seen |= ops[i] == mark;
		printf("%s\n", seen ? "seen" : "not seen");
		return 0;
	}
	return 2;
}
EOF
if ! gcc -static -O1 -o "$tmp/h" "$tmp/h.c" 2>"$tmp/cc"; then
    echo "not ok 1 - build the guest helper"
    sed 's/^/# /' "$tmp/cc"
    echo "0 passed, 1 failed"
    exit 1
fi

# start_guest CMD...: a guest in the background, its kernel's pid in $kpid;
# waits until the guest runs (two stubs: the zygote and the guest's).
start_guest() {
    "$SKAS" run -- "$@" </dev/null >/dev/null 2>&1 &
    kpid=$!
    for _ in $(seq 100); do
        [ "$(pgrep -P "$kpid" | wc -l)" -ge 2 ] && return 0
        sleep 0.05
    done
    return 1
}
stop_guest() {
    kill -9 "$kpid" 2>/dev/null
    wait "$kpid" 2>/dev/null
    kpid=
}
field() { # PID FIELD: a line of /proc/PID/status, the value only
    sed -n "s/^$2:[[:space:]]*//p" "/proc/$1/status" 2>/dev/null | head -n 1
}

# --- the kernel and its stubs, from the host ---

start_guest /bin/sh -c 'sleep 30 & sleep 30'
for _ in $(seq 100); do
    [ "$(pgrep -P "$kpid" | wc -l)" -ge 3 ] && break
    sleep 0.05
done
stubs=$(pgrep -P "$kpid" | tr '\n' ' ')
stub=$(pgrep -P "$kpid" | tail -n 1)
ok "the kernel runs under a seccomp filter (Seccomp: 2)" \
    "$([ "$(field "$kpid" Seccomp)" = 2 ]; echo $?)" "Seccomp: $(field "$kpid" Seccomp)"
ok "the kernel has no_new_privs (NoNewPrivs: 1)" \
    "$([ "$(field "$kpid" NoNewPrivs)" = 1 ]; echo $?)" "NoNewPrivs: $(field "$kpid" NoNewPrivs)"
if [ "$(id -u)" = 0 ]; then
    uids=$(field "$kpid" Uid | tr -s '\t ' ' ')
    ok "started by root, the kernel runs as nobody (65534)" \
        "$([ "$uids" = "65534 65534 65534 65534" ]; echo $?)" "Uid: $uids"
    ok "the kernel keeps no capability but CAP_DAC_READ_SEARCH" \
        "$([ "$(field "$kpid" CapEff)" = 0000000000000004 ] &&
            [ "$(field "$kpid" CapPrm)" = 0000000000000004 ] &&
            [ "$(field "$kpid" CapBnd)" = 0000000000000004 ]; echo $?)" \
        "CapEff $(field "$kpid" CapEff) CapPrm $(field "$kpid" CapPrm) CapBnd $(field "$kpid" CapBnd)"
fi
ok "a stub runs under a seccomp filter with no_new_privs" \
    "$([ "$(field "$stub" Seccomp)" = 2 ] && [ "$(field "$stub" NoNewPrivs)" = 1 ]; echo $?)"
ok "a stub has its own user, mount, net, ipc and uts namespaces" \
    "$(for ns in user mnt net ipc uts; do
        [ "$(readlink "/proc/$stub/ns/$ns")" != "$(readlink "/proc/self/ns/$ns")" ] || exit 1
    done; echo $?)" "stub $stub: $(ls -l "/proc/$stub/ns" 2>&1 | tr '\n' ' ')"
ok "a stub's root is empty" \
    "$([ -z "$(ls -A "/proc/$stub/root/" 2>&1)" ]; echo $?)" "$(ls -A "/proc/$stub/root/" 2>&1 | head -n 3)"
ok "a stub may hold two fds and no core file" \
    "$(grep -q '^Max open files  *2  *2 ' "/proc/$stub/limits" &&
        grep -q '^Max core file size  *0  *0 ' "/proc/$stub/limits"; echo $?)" \
    "$(grep -E 'open files|core' "/proc/$stub/limits" 2>&1)"
ok "the kernel traces its stubs (TracerPid)" \
    "$([ "$(field "$stub" TracerPid)" = "$kpid" ]; echo $?)"
threads=
for p in $stubs; do
    threads="$threads $(ls "/proc/$p/task" 2>/dev/null | tr '\n' ' ')"
done
stop_guest
sleep 1
left=
for p in $threads; do
    state=$(field "$p" State)
    [ -n "$state" ] && [ "${state#Z}" = "$state" ] && left="$left $p($state)"
done
ok "kill -9 of the kernel leaves none of its stubs (host threads:$threads)" \
    "$([ -z "$left" ] && [ -n "$stubs" ]; echo $?)" "still there:$left"

# --- what a guest sees ---

out=$("$SKAS" run -- /bin/sh -c 'ls /proc' 2>&1 | grep -E '^[0-9]+$' | tr '\n' ' ')
ok "a guest's /proc lists only its own processes" \
    "$(for p in $out; do [ "$p" -le 8 ] || exit 1; done; [ -n "$out" ]; echo $?)" "pids: $out"
out=$("$SKAS" run -- /bin/sh -c 'cat /proc/1/comm' 2>&1)
ok "a guest's /proc/1 is its own first process, not the host's init" \
    "$([ "$out" = sh ]; echo $?)" "comm: $out"

mkdir -p "$tmp/root"
cp "$tmp/h" "$tmp/root/h"
if [ -r /proc/1/environ ]; then
    "$SKAS" run --root "$tmp/root" -- /h cat /proc/1/environ >"$tmp/env" 2>&1
    ok "--root: a guest cannot read the host's /proc/1/environ" \
        "$(! cmp -s "$tmp/env" /proc/1/environ; echo $?)" "$(head -c 200 "$tmp/env" | tr -d "\0")"
fi
for f in /etc/hostname /proc/self/root/etc/hostname /../../etc/hostname /proc/1/root/etc/hostname; do
    out=$("$SKAS" run --root "$tmp/root" -- /h cat "$f" 2>&1)
    ok "--root: a guest cannot read the host's $f" \
        "$([ "$out" != "$(cat /etc/hostname)" ] && [ "${out#*: }" != "$out" ]; echo $?)" "$out"
done

start_guest /bin/sleep 30
stub=$(pgrep -P "$kpid" | tail -n 1)
out=$("$SKAS" run -- "$tmp/h" ptrace "$stub" 2>&1)
ok "a guest root cannot ptrace a stub of another instance (host pid $stub)" \
    "$(echo "$out" | grep -Eq '^attach (ENOSYS|EPERM|ESRCH) seize (ENOSYS|EPERM|ESRCH) peek (ENOSYS|EPERM|ESRCH)$'; echo $?)" "$out"
ok "the stub is still traced by its own kernel only" \
    "$([ "$(field "$stub" TracerPid)" = "$kpid" ]; echo $?)" "TracerPid: $(field "$stub" TracerPid)"
stop_guest
for pf in ptrace seccomp; do
    if ! "$SKAS" run --platform=$pf -- /bin/true >/dev/null 2>&1; then
        echo "# platform $pf: not available on this host"
        continue
    fi
    out=$("$SKAS" run --platform=$pf -- /bin/sh -c "'$tmp/h' stubjump; echo status \$?" 2>&1 | tail -n 1)
    ok "$pf: a guest that runs the stub's batch loop gets a signal, not a host call" \
        "$(echo "$out" | grep -Eq '^status 1(3[0-9]|[2-4][0-9])$'; echo $?)" "$out"
    out=$("$SKAS" run --platform=$pf -- /bin/sh -c "'$tmp/h' stubexit; echo status \$?" 2>&1 | tail -n 1)
    ok "$pf: a guest that runs the stub's thread exit makes its own exit(0), not the host's" \
        "$([ "$out" = "status 0" ]; echo $?)" "$out"
    out=$("$SKAS" run --platform=$pf -- /bin/sh -c "'$tmp/h' stubinit; echo status \$?" 2>&1 | tail -n 1)
    ok "$pf: a guest that runs the stub's filter install gets SIGTRAP, not a host call" \
        "$([ "$out" = "status 133" ]; echo $?)" "$out"
    out=$("$SKAS" run --platform=$pf -- "$tmp/h" opspeek 2>&1 | tail -n 1)
    ok "$pf: a guest's stub ops page shows none of another process's batches" \
        "$([ "$out" = "not seen" ]; echo $?)" "$out"
done
out=$("$SKAS" run -- /bin/echo still alive 2>&1)
ok "skas still runs programs" "$([ "$out" = "still alive" ]; echo $?)" "$out"

count=$("$SKAS" run --verbose -- /bin/true 2>&1 | sed -n 's/.*sandbox: \([0-9]*\) host calls.*/\1/p')
echo "# the kernel's allowlist: ${count:-?} host calls"

echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
