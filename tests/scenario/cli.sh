#!/bin/bash
# End-to-end checks of the skas command line. One TAP line per check, then
# "N passed, M failed"; exit 1 if anything failed.
#
# usage: SKAS=./skas tests/scenario/cli.sh     (run from anywhere)
set -u

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# default: the repo's ./skas; a relative SKAS is relative to the caller's cwd
SKAS=${SKAS:-$root/skas}
case $SKAS in
    /*) ;;
    */*) SKAS=$PWD/$SKAS ;;
esac
cd "$root" || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/skas-cli.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

n=0
passed=0
failed=0
have_skas=1
command -v "$SKAS" >/dev/null 2>&1 || have_skas=0

# sk CMD...: run "$SKAS CMD..." with a timeout; stdout in $tmp/out, stderr in
# $tmp/err, status in $rc. The subshell swallows bash's own crash reports.
sk() {
    ( timeout -k 5 20 "$SKAS" "$@" </dev/null >"$tmp/out" 2>"$tmp/err" ) 2>/dev/null
    rc=$?
}

# t NAME FUNC: run one check; FUNC returns 0 for a pass, and what it prints
# follows the TAP line as comments (on a failure, so do the exit status and
# the first lines of output). Without a skas binary every check fails.
t() {
    local name=$1 res
    shift
    n=$((n + 1))
    if [ "$have_skas" = 0 ]; then
        failed=$((failed + 1))
        echo "not ok $n - $name"
        echo "# skas not found: $SKAS"
        return
    fi
    rc=
    : >"$tmp/out"; : >"$tmp/err"
    "$@" >"$tmp/notes" 2>&1
    res=$?
    if [ "$res" = 0 ]; then
        passed=$((passed + 1))
        echo "ok $n - $name"
    else
        failed=$((failed + 1))
        echo "not ok $n - $name"
        echo "exit status ${rc:-?}" >>"$tmp/notes"
        [ -s "$tmp/out" ] && head -n 5 "$tmp/out" | sed 's/^/stdout: /' >>"$tmp/notes"
        [ -s "$tmp/err" ] && head -n 5 "$tmp/err" | sed 's/^/stderr: /' >>"$tmp/notes"
    fi
    sed 's/^/# /' "$tmp/notes"
}

lines() { if [ -s "$1" ]; then wc -l <"$1"; else echo 0; fi; }

c_true() { sk run -- /bin/true; [ "$rc" = 0 ]; }
c_false() { sk run -- /bin/false; [ "$rc" = 1 ]; }
c_env() {
    sk run -- /usr/bin/env -i A=1 /usr/bin/env
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "A=1" ] && [ "$(lines "$tmp/out")" = 1 ]
}
c_echo() {
    sk run -- /bin/echo hello world
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "hello world" ]
}
c_ls() {
    LC_ALL=C ls -l tests/guest/data/dir >"$tmp/native" 2>&1
    LC_ALL=C sk run -- /bin/ls -l tests/guest/data/dir
    if [ "$rc" = 0 ] && cmp -s "$tmp/native" "$tmp/out"; then
        return 0
    fi
    diff -u --label native --label skas "$tmp/native" "$tmp/out"
    return 1
}
c_nonexistent() {
    sk run -- /nonexistent
    [ "$rc" = 127 ] && [ "$(lines "$tmp/err")" = 1 ]
}
c_directory() {
    sk run -- tests/guest/data
    [ "$rc" = 126 ]
}
c_truncated() {
    head -c 100 /bin/true >"$tmp/trunc"
    chmod +x "$tmp/trunc"
    sk run -- "$tmp/trunc"
    [ -s "$tmp/err" ] && echo "skas says: $(head -n 1 "$tmp/err")"
    [ "$rc" = 126 ]
}
static_binary() {
    # a static ELF to patch: the suite's own if built, else build one
    if [ -x build/guest/glibc/hello ]; then
        cp build/guest/glibc/hello "$1"
    else
        printf 'int main(void){return 0;}\n' >"$tmp/s.c"
        gcc -static -O1 -o "$1" "$tmp/s.c"
    fi
}
c_phnum() {
    static_binary "$tmp/phnum" || return 1
    # e_phnum is the 16-bit little-endian field at offset 56 of the ELF64 header
    printf '\377\377' | dd of="$tmp/phnum" bs=1 seek=56 conv=notrunc status=none
    chmod +x "$tmp/phnum"
    sk run -- "$tmp/phnum"
    [ -s "$tmp/err" ] && echo "skas says: $(head -n 1 "$tmp/err")"
    [ "$rc" = 126 ]
}
c_bogus() {
    sk run --bogus -- /bin/true
    [ "$rc" = 2 ] && [ "$(lines "$tmp/err")" = 1 ]
}
c_user() {
    sk run --user 1000:100 -- /usr/bin/id -u
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = 1000 ] || return 1
    sk run --user 1000:100 -- /usr/bin/id -g
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = 100 ]
}
c_user_bad() {
    sk run --user=nobody -- /bin/true
    [ "$rc" = 2 ] && [ "$(lines "$tmp/err")" = 1 ]
}
c_help() {
    sk --help
    [ "$rc" = 0 ] && [ -s "$tmp/out" -o -s "$tmp/err" ]
}
c_version() {
    sk --version
    [ "$rc" = 0 ] && [ -s "$tmp/out" -o -s "$tmp/err" ]
}
c_extra_arg() {
    sk --version extra
    [ "$rc" = 2 ] && [ "$(lines "$tmp/err")" = 1 ] || return 1
    sk --help extra
    [ "$rc" = 2 ] && [ "$(lines "$tmp/err")" = 1 ]
}
c_log_dashdash() {
    sk run --log -- /bin/true
    [ "$rc" = 2 ] && [ "$(lines "$tmp/err")" = 1 ] && [ ! -e ./-- ]
}
c_strace() {
    sk run --strace -- /bin/true
    [ "$rc" = 0 ] && grep -q -e '^execve(' -e 'exit_group(0)' "$tmp/err"
}
c_strace_file() {
    rm -f "$tmp/trace"
    sk run --strace="$tmp/trace" -- /bin/true
    [ "$rc" = 0 ] && [ -f "$tmp/trace" ] && grep -q 'exit_group' "$tmp/trace"
}
# 64-bit offsets and lengths are shown whole (they were cut to an int:
# ftruncate(3, 591751049) for 0x123456789).
c_strace_loff() {
    printf '#define _GNU_SOURCE\n#include <fcntl.h>\n#include <unistd.h>\nint main(void){char b[4];int fd=open("/tmp/loff",O_RDWR|O_CREAT|O_TRUNC,0600);ftruncate(fd,0x123456789LL);pread(fd,b,4,0x100000000LL);fallocate(fd,1,0x100000000LL,0x180001000LL);unlink("/tmp/loff");return 0;}\n' >"$tmp/loff.c"
    gcc -static -O1 -o "$tmp/loff" "$tmp/loff.c" || return 1
    sk run --strace -- "$tmp/loff"
    [ "$rc" = 0 ] && grep -q 'ftruncate(3, 4886718345) = 0' "$tmp/err" &&
        grep -q 'pread64(3, .*, 4, 4294967296) = 4' "$tmp/err" &&
        grep -q 'fallocate(3, 0x1, 4294967296, 6442455040) = 0' "$tmp/err"
}
c_crash_then_true() {
    local bin=build/guest/glibc/nullwrite crash
    if [ ! -x "$bin" ]; then
        bin=$tmp/nullwrite
        printf '#include <stdio.h>\nint main(void){volatile int *volatile p=0;printf("before\\n");fflush(stdout);*p=1;return 0;}\n' >"$tmp/nw.c"
        gcc -static -O1 -o "$bin" "$tmp/nw.c" || return 1
    fi
    sk run -- "$bin"
    crash=$rc
    if [ "$crash" != 139 ] || [ "$(cat "$tmp/out")" != before ]; then
        echo "the NULL write gave exit status $crash"
        return 1
    fi
    sk run -- /bin/true
    [ "$rc" = 0 ]
}

# Host signals to skas go to the guest (src/kernel/signal.c signal_from_host).
# hsig SIGS PROG...: skas in the background gets each of SIGS (a list), in
# order, after the guest printed "ready" (at most 20 s: skas may be slow to
# start on a loaded machine); stdout in $tmp/out, status in $rc.
hsig_opts=() # skas's options for hsig
hsig() {
    local sigs=$1 sig pid i
    shift
    # A background job of a script starts with SIGINT and SIGQUIT ignored
    # (and skas keeps what it was started with ignored): reset them.
    env --default-signal "$SKAS" run "${hsig_opts[@]}" -- "$@" </dev/null >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    for i in $(seq 400); do
        grep -q ready "$tmp/out" 2>/dev/null && break
        sleep 0.05
    done
    for sig in $sigs; do
        kill -"$sig" "$pid"
    done
    # at most 10 s, then SIGKILL (no watchdog subshell: it would share
    # the script's traps and pid races)
    for i in $(seq 200); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    kill -9 "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
}
c_hsig_int_default() {
    hsig INT /bin/sh -c 'echo ready; exec sleep 10'
    [ "$rc" = 130 ]
}
c_hsig_term_default() {
    hsig TERM /bin/sh -c 'echo ready; exec sleep 10'
    [ "$rc" = 143 ]
}
c_hsig_int_trap() {
    hsig INT /bin/bash -c 'trap "echo got INT; exit 7" INT; echo ready; sleep 5 & wait'
    [ "$rc" = 7 ] && grep -qx 'got INT' "$tmp/out"
}
c_hsig_hup_ignored() {
    # The guest waits for the USR1 sent after the HUP, not for a time the
    # host's kill might come after on a loaded machine.
    hsig "HUP USR1" /bin/sh -c 'trap "" HUP; trap "echo got USR1" USR1; echo ready
        sleep 10 & wait; echo survived'
    [ "$rc" = 0 ] && grep -qx 'got USR1' "$tmp/out" && grep -qx survived "$tmp/out"
}
c_hsig_term_ignored() {
    # SIGTERM ends the instance even when init ignores it (an interactive
    # shell does): the host's "please stop".
    hsig TERM /bin/sh -c 'trap "" TERM; echo ready; sleep 5; echo survived'
    [ "$rc" = 143 ] && ! grep -q survived "$tmp/out"
}
c_hsig_usr1_child() {
    # Only init gets it: a child with a handler is not signalled.
    # The guest waits for it (its wait returns to run the trap), not 0.5 s
    # the host's kill might come after on a loaded machine.
    hsig USR1 /bin/bash -c 'trap "echo init got USR1" USR1; echo ready; sleep 10 & wait; echo done'
    [ "$rc" = 0 ] && grep -qx 'init got USR1' "$tmp/out" && grep -qx done "$tmp/out"
}

# --init: init/init.c is pid 1, the program pid 2 with a plain process's
# signal rules; each check failed before --init (as pid 1, the program
# ignores what it does not handle).
c_init_pids() {
    sk run --init -- /bin/sh -c 'echo $$ $PPID; cat /proc/1/comm; tr "\0" " " </proc/1/cmdline; echo'
    [ "$rc" = 0 ] && [[ "$(cat "$tmp/out")" == "$(printf '2 1\nskas-init\nskas-init -- /bin/sh -c ')"* ]]
}
c_init_sigpipe() {
    # As natively: yes dies of SIGPIPE (141), silently; as pid 1 it
    # printed "Broken pipe" and exited 1.
    timeout 20 "$SKAS" run --init -- yes </dev/null 2>"$tmp/err" | head -n 1 >"$tmp/out"
    rc=${PIPESTATUS[0]}
    [ "$rc" = 141 ] && [ "$(cat "$tmp/out")" = y ] && [ ! -s "$tmp/err" ]
}
c_init_kill_self() {
    sk run --init -- /bin/sh -c 'kill -TERM $$; echo survived'
    [ "$rc" = 143 ] && [ ! -s "$tmp/out" ]
}
c_init_status() {
    sk run --init -- /bin/sh -c 'exit 7'
    [ "$rc" = 7 ]
}
c_init_missing() {
    sk run --init -- skas-no-such-program
    [ "$rc" = 127 ] &&
        [ "$(cat "$tmp/err")" = "skas: skas-no-such-program: No such file or directory" ]
}
c_init_directory() {
    sk run --init -- tests/guest/data
    [ "$rc" = 126 ] && [ "$(cat "$tmp/err")" = "skas: tests/guest/data: Permission denied" ]
}
c_init_reap() {
    # An orphan (cat) dies under a pid-2 program that reaps only its own
    # child (timeout): init reaps it, so the wait for it to be gone (a
    # zombie is still listed) ends; without a reaper timeout kills it.
    sk run --init -- /bin/sh -c '(cat </dev/null >/dev/null &); exec timeout 10 /bin/sh -c "while pgrep -x cat >/dev/null; do sleep 0.05; done; ps -eo stat=,comm="'
    [ "$rc" = 0 ] && grep -q timeout "$tmp/out" && ! grep -q '^Z' "$tmp/out"
}
c_init_shell() {
    ( printf 'echo pid=$$\n' | timeout -k 5 20 "$SKAS" run --init >"$tmp/out" 2>"$tmp/err" ) 2>/dev/null
    rc=$?
    [ "$rc" = 0 ] && grep -qx 'pid=2' "$tmp/out"
}
c_init_sealed() {
    # init's image: a sealed memfd, running; nobody writes it
    sk run --init -- /bin/sh -c 'echo x >/proc/1/exe && echo wrote; readlink /proc/1/exe'
    [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "/memfd:skas-init (deleted)" ]
}
c_init_hsig_trap() {
    hsig_opts=(--init)
    hsig TERM /bin/sh -c 'trap "echo got TERM; exit 3" TERM; echo ready; sleep 10 & wait'
    hsig_opts=()
    [ "$rc" = 3 ] && grep -qx 'got TERM' "$tmp/out"
}
c_init_hsig_default() {
    hsig_opts=(--init)
    hsig INT /bin/sh -c 'echo ready; sleep 10; echo survived'
    hsig_opts=()
    [ "$rc" = 130 ] && ! grep -q survived "$tmp/out"
}

t "run -- /bin/true exits 0" c_true
t "run --init: the program is pid 2, skas-init pid 1" c_init_pids
t "run --init -- yes | head -1: yes dies of SIGPIPE, skas exits 141" c_init_sigpipe
t "run --init: sh's kill -TERM \$\$ ends it, skas exits 143" c_init_kill_self
t "run --init: the program's exit status is skas's" c_init_status
t "run --init: a missing program exits 127 with skas's line" c_init_missing
t "run --init: a directory exits 126 with skas's line" c_init_directory
t "run --init: init reaps an orphan" c_init_reap
t "run --init without a program: the shell is pid 2" c_init_shell
t "run --init: /proc/1/exe is a sealed memfd nobody can write" c_init_sealed
t "run --init: host SIGTERM reaches the program's trap" c_init_hsig_trap
t "run --init: host SIGINT ends a program at the default action" c_init_hsig_default
t "host SIGINT to skas: a guest at the default action ends, skas exits 130" c_hsig_int_default
t "host SIGTERM to skas: skas exits 143" c_hsig_term_default
t "host SIGINT to skas runs the guest's INT trap" c_hsig_int_trap
t "host SIGHUP to skas is dropped when the guest ignores it" c_hsig_hup_ignored
t "host SIGTERM ends the instance even when the guest ignores it" c_hsig_term_ignored
t "host SIGUSR1 reaches the guest's handler" c_hsig_usr1_child
t "run -- /bin/false exits 1" c_false
t "run -- env -i A=1 env prints exactly A=1" c_env
t "run -- echo hello world" c_echo
t "run -- ls -l tests/guest/data/dir matches native" c_ls
t "run -- /nonexistent exits 127 with one line on stderr" c_nonexistent
t "run -- a directory exits 126" c_directory
t "run -- a truncated ELF exits 126" c_truncated
t "run -- an ELF with e_phnum 0xffff exits 126" c_phnum
t "run --bogus exits 2 with one line on stderr" c_bogus
t "run --user 1000:100 starts the program with those ids" c_user
t "run --user with a name exits 2 with one line" c_user_bad
t "--help exits 0" c_help
t "--version exits 0" c_version
t "--version or --help with an argument exits 2 with one line" c_extra_arg
t "run --log -- (no file name) exits 2 with one line" c_log_dashdash
t "run --strace traces to stderr" c_strace
t "run --strace=FILE traces to FILE" c_strace_file
t "run --strace shows 64-bit offsets and lengths whole" c_strace_loff
t "a guest NULL write exits 139, then /bin/true still works" c_crash_then_true

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
