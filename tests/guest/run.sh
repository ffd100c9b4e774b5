#!/bin/bash
# Differential guest tests: build every tests/guest/*.c statically (glibc and,
# if musl-gcc exists, musl), run each natively and under `$SKAS run --`, and
# compare stdout and exit status byte for byte. The native run must itself
# pass (its expected exit status, no "not ok" line).
#
# usage: tests/guest/run.sh [--skas PATH] [--only NAME] [--libc glibc|musl|both]
#                           [--platform ptrace|seccomp|sigsys] [--native-only]
#                           [-j N]
#
# --platform (default: $SKAS_PLATFORM, else skas's own default) is passed to
# `skas run` as --platform=NAME.
#
# -j N (default: $SKAS_TEST_JOBS, else the number of CPUs; twice that,
# beside the scenario lane of run-all.sh, made glibc/timers' native
# si_overrun count fail twice in 6 runs on 2 CPUs): N tests at once. Every binary is built first; the TAP lines come
# in test order all the same. The native runs of one test (glibc and musl)
# never overlap, as they share the host's names and per-user counts.
#
# $SKAS_NATIVE_CACHE (tests/run-all.sh sets it for its suites): a directory
# where each native pass's stdout and exit status are kept, keyed by the
# binary, and taken from by the next suite instead of running it again.
#
# --native-only (for checking the tests themselves): build and run natively
# only; a test passes when its exit status is the expected one (0, or the
# value of a `/* skas-test: exit: N */` line) and it
# printed no "not ok" line.
#
# A `/* skas-test: args: ... */` line in a test (a line of its own,
# anywhere in the file) gives its
# arguments (shell quoting rules); `/* skas-test: timeout: S */` its time
# limit per run in seconds (default 20); `/* skas-test: netns: lo */` runs
# its native side in a network namespace of its own with only lo, up (as
# `unshare --net` then `ip link set lo up`): what a guest sees, where the
# host's own interfaces would differ.
set -u

orig_pwd=$PWD
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

SKAS=
only=
libc=both
native_only=0
skas_given=0
platform=${SKAS_PLATFORM:-}
njobs=${SKAS_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
cache=${SKAS_NATIVE_CACHE:-}

usage() {
    echo "usage: $0 [--skas PATH] [--only NAME] [--libc glibc|musl|both] [--platform NAME] [--native-only] [-j N]" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case $1 in
        --skas) [ $# -ge 2 ] || usage; SKAS=$2; skas_given=1; shift 2 ;;
        --skas=*) SKAS=${1#--skas=}; skas_given=1; shift ;;
        --only) [ $# -ge 2 ] || usage; only=$2; shift 2 ;;
        --only=*) only=${1#--only=}; shift ;;
        --libc) [ $# -ge 2 ] || usage; libc=$2; shift 2 ;;
        --libc=*) libc=${1#--libc=}; shift ;;
        --platform) [ $# -ge 2 ] || usage; platform=$2; shift 2 ;;
        --platform=*) platform=${1#--platform=}; shift ;;
        --native-only) native_only=1; shift ;;
        -j|--jobs) [ $# -ge 2 ] || usage; njobs=$2; shift 2 ;;
        -j*) njobs=${1#-j}; shift ;;
        --jobs=*) njobs=${1#--jobs=}; shift ;;
        -h|--help) usage ;;
        *) echo "$0: unknown option: $1" >&2; usage ;;
    esac
done

case $libc in glibc|musl|both) ;; *) usage ;; esac
case $njobs in ''|*[!0-9]*|0) usage ;; esac

# The default is the repo's ./skas; a --skas path relative to the caller's
# directory keeps its meaning after we cd to the repo root (a bare name is
# looked up in PATH).
if [ "$skas_given" = 1 ]; then
    case $SKAS in
        /*) ;;
        */*) SKAS=$orig_pwd/$SKAS ;;
    esac
else
    SKAS=$root/skas
fi

cd "$root" || exit 2

skas_opts=()
if [ -n "$platform" ]; then
    skas_opts+=("--platform=$platform")
    echo "# platform: $platform"
fi

skas_ok=1
if [ "$native_only" = 0 ] && ! command -v "$SKAS" >/dev/null 2>&1; then
    skas_ok=0
fi

libcs=()
if [ "$libc" = glibc ] || [ "$libc" = both ]; then libcs+=(glibc); fi
if [ "$libc" = musl ] || [ "$libc" = both ]; then
    if command -v musl-gcc >/dev/null 2>&1; then
        libcs+=(musl)
    elif [ "$libc" = musl ]; then
        echo "$0: musl-gcc not found (apt-get install musl-tools)" >&2
        exit 2
    else
        echo "# musl-gcc not found: musl builds skipped (apt-get install musl-tools)"
    fi
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/skas-guest.XXXXXX") || exit 2
# On any exit (Ctrl-C too) the running tests go with the directory.
cleanup() {
    local p
    for p in $(jobs -p); do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -n "$cache" ] && ! mkdir -p "$cache" 2>/dev/null; then
    cache=
fi
has_flock=0
command -v flock >/dev/null 2>&1 && has_flock=1

# indent FILE: print it as TAP comment lines
indent() { sed 's/^/# /' "$1"; }

# directive FILE KEY: value of the first `/* skas-test: KEY: VALUE */` line.
# (Only the first 5 lines were read once: three tests' time limits below
# a long header comment were ignored, and tmpfs_pages timed out at 20 s
# under the sanitizer build.)
directive() {
    sed -n "s|^/\\* skas-test: $2: *\\(.*[^ ]\\) *\\*/ *\$|\\1|p" "$1" | head -n 1
}

# run_one OUT ERR CMD...: run CMD with the suite's conventions; prints status.
# The subshell swallows bash's own "Segmentation fault" report; fd 9 (a
# lock) is not the test's.
run_one() {
    local out=$1 err=$2
    shift 2
    ( timeout -k 5 "$limit" "$@" </dev/null >"$out" 2>"$err" 9>&- ) 2>/dev/null
    echo $?
}

shopt -s nullglob
srcs=(tests/guest/*.c)
if [ -n "$only" ]; then
    srcs=()
    [ -f "tests/guest/$only.c" ] && srcs=("tests/guest/$only.c")
    if [ ${#srcs[@]} -eq 0 ]; then
        echo "$0: no such test: tests/guest/$only.c" >&2
        exit 2
    fi
fi

# The tests in TAP order: item i is ${item_src[i]} built with ${item_lc[i]}.
item_src=()
item_lc=()
for src in "${srcs[@]}"; do
    for lc in "${libcs[@]}"; do
        item_src+=("$src")
        item_lc+=("$lc")
    done
done
count=${#item_src[@]}

# Each job writes its TAP lines to $tmp/I.tap, then "pass" or "fail" to
# $tmp/I.status (last, and renamed into place: its presence says the job
# is done).
finish() {
    echo "$2" >"$tmp/$1.status.new" && mv "$tmp/$1.status.new" "$tmp/$1.status"
}

#
# build I: build item I's binary unless it is up to date. The compiler
# writes a private name that is renamed into place, so that two suites
# building at once never run a half-written binary.
build() {
    local i=$1 src=${item_src[$1]} lc=${item_lc[$1]} name cc bin
    name=$(basename "$src" .c)
    if [ "$lc" = glibc ]; then cc=gcc; else cc=musl-gcc; fi
    bin=build/guest/$lc/$name
    mkdir -p "build/guest/$lc"
    if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ] ||
        [ -n "$(find tests/guest -name '*.h' -newer "$bin")" ]; then
        if ! $cc -static -O1 -Wall -Werror -o "$bin.$$.$i" "$src" >"$tmp/$i.cc" 2>&1 ||
            ! mv -f "$bin.$$.$i" "$bin"; then
            rm -f "$bin.$$.$i"
            echo "not ok $((i + 1)) - $lc/$name: build failed" >"$tmp/$i.tap"
            indent "$tmp/$i.cc" >>"$tmp/$i.tap"
            finish "$i" fail
        fi
    fi
}

# The host's device nodes every program uses: a native run (as root,
# in CI) must leave their modes and owners as they were. One that changes
# them fails, and they are put back when we may.
host_devs=(/dev/null /dev/zero /dev/full /dev/random /dev/urandom /dev/tty /dev/ptmx)
devs_state() { stat -c '%n %a %u %g' "${host_devs[@]}" 2>/dev/null; }

# devs_check I BEFORE: after item I's native run, the nodes that changed
# since BEFORE go into $tmp/I.native.host and back to BEFORE.
devs_check() {
    local i=$1 before=$2 n mode uid gid
    [ "$(devs_state)" = "$before" ] && return
    diff <(echo "$before") <(devs_state) | sed -n 's/^> //p' >"$tmp/$i.native.host"
    while read -r n mode uid gid; do
        chown "$uid:$gid" "$n" 2>/dev/null
        chmod "$mode" "$n" 2>/dev/null
    done <<<"$before"
}

# native I: item I's native run into $tmp/I.native.{out,rc}, or the cached
# one. Holds the test's lock (fd 9) meanwhile: one native run of a test
# at a time, across suites too.
native() {
    local i=$1 key=$2 bin=$3
    shift 3
    local lock=$tmp/$name.lock sig
    [ -n "$cache" ] && lock=$cache/$name.lock
    {
        [ "$has_flock" = 1 ] && flock 9
        sig="$(stat -c '%s %Y' "$bin") $limit $argstr"
        if [ -n "$cache" ] && [ -f "$cache/$key.rc" ] &&
            [ "$(cat "$cache/$key.sig" 2>/dev/null)" = "$sig" ]; then
            cp "$cache/$key.out" "$tmp/$i.native.out"
            cp "$cache/$key.rc" "$tmp/$i.native.rc"
        else
            local devs
            devs=$(devs_state)
            run_one "$tmp/$i.native.out" "$tmp/$i.native.err" "${netns_cmd[@]}" "$bin" "$@" >"$tmp/$i.native.rc"
            devs_check "$i" "$devs"
            # Only a native pass is kept: a native failure (the test's own
            # flake, say) is the next suite's to see afresh, as without a
            # cache.
            if [ -n "$cache" ] && [ "$(cat "$tmp/$i.native.rc")" = "$expect" ] &&
                ! grep -q '^not ok' "$tmp/$i.native.out" && [ ! -e "$tmp/$i.native.host" ]; then
                cp "$tmp/$i.native.out" "$cache/$key.out"
                echo "$sig" >"$cache/$key.sig"
                cp "$tmp/$i.native.rc" "$cache/$key.rc"
            fi
        fi
    } 9>"$lock"
}

# job I: run item I (already built) and judge it.
job() {
    local i=$1 src=${item_src[$1]} lc=${item_lc[$1]}
    local n=$((i + 1)) name label bin argstr expect limit nrc skas_rc
    local args=() netns_cmd=()
    name=$(basename "$src" .c)
    label="$lc/$name"
    bin=build/guest/$lc/$name
    argstr=$(directive "$src" args)
    expect=$(directive "$src" exit)
    [ -n "$expect" ] || expect=0
    limit=$(directive "$src" timeout)
    [ -n "$limit" ] || limit=20
    if [ -n "$argstr" ]; then
        eval "args=($argstr)"
    fi
    if [ "$(directive "$src" netns)" = lo ]; then
        # shellcheck disable=SC2016
        netns_cmd=(unshare --net sh -c 'ip link set lo up && exec "$0" "$@"')
    fi
    exec >"$tmp/$i.tap"

    if [ "$native_only" = 0 ] && [ "$skas_ok" = 0 ]; then
        echo "not ok $n - $label"
        echo "# skas not found: $SKAS"
        finish "$i" fail
        return
    fi

    native "$i" "$lc.$name" "$bin" "${args[@]}"
    nrc=$(cat "$tmp/$i.native.rc")
    if [ -e "$tmp/$i.native.host" ]; then
        echo "not ok $n - $label: the native run changed the host's device nodes"
        sed 's/^/# now (mode uid gid; put back): /' "$tmp/$i.native.host"
        finish "$i" fail
        return
    fi

    if [ "$native_only" = 1 ]; then
        if [ "$nrc" = "$expect" ] && ! grep -q '^not ok' "$tmp/$i.native.out"; then
            echo "ok $n - $label"
            finish "$i" pass
        else
            echo "not ok $n - $label"
            echo "# native exit status $nrc, expected $expect"
            grep '^not ok' "$tmp/$i.native.out" | sed 's/^/# /'
            finish "$i" fail
        fi
        return
    fi

    skas_rc=$(run_one "$tmp/$i.skas.out" "$tmp/$i.skas.err" "$SKAS" run "${skas_opts[@]}" -- "$bin" "${args[@]}")

    # A test that fails natively (a hang ended by its alarm, a "not ok")
    # proves nothing even when skas fails the same way.
    if [ "$nrc" != "$expect" ] || grep -q '^not ok' "$tmp/$i.native.out"; then
        echo "not ok $n - $label: the test itself fails natively"
        echo "# native exit status $nrc, expected $expect"
        grep '^not ok' "$tmp/$i.native.out" | sed 's/^/# /'
        finish "$i" fail
    elif [ "$nrc" = "$skas_rc" ] && cmp -s "$tmp/$i.native.out" "$tmp/$i.skas.out"; then
        echo "ok $n - $label"
        finish "$i" pass
    else
        echo "not ok $n - $label"
        diff -u --label native --label skas "$tmp/$i.native.out" "$tmp/$i.skas.out" | sed 's/^/# /'
        echo "# exit status: native $nrc, skas $skas_rc"
        if [ -s "$tmp/$i.skas.err" ]; then
            echo "# skas stderr (last 10 lines):"
            tail -n 10 "$tmp/$i.skas.err" | sed 's/^/#   /'
        fi
        finish "$i" fail
    fi
}

passed=0
failed=0
next=0

# flush: print the finished items that come next in TAP order.
flush() {
    while [ "$next" -lt "$count" ] && [ -f "$tmp/$next.status" ]; do
        cat "$tmp/$next.tap"
        if [ "$(cat "$tmp/$next.status")" = pass ]; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
        fi
        next=$((next + 1))
    done
}

# start CMD...: run CMD in the background, at most $njobs at once (one
# must end before the next starts).
running=0
start() {
    if [ "$running" -ge "$njobs" ]; then
        wait -n
        running=$((running - 1))
    fi
    "$@" &
    running=$((running + 1))
}

for ((i = 0; i < count; i++)); do
    start build "$i"
done
wait
running=0
for ((i = 0; i < count; i++)); do
    [ -f "$tmp/$i.status" ] && continue # its build failed
    start job "$i"
    flush
done
while [ "$running" -gt 0 ]; do
    wait -n
    running=$((running - 1))
    flush
done
wait
flush

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
