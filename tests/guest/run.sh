#!/bin/bash
# Differential guest tests: build every tests/guest/*.c statically (glibc and,
# if musl-gcc exists, musl), run each natively and under `$SKAS run --`, and
# compare stdout and exit status byte for byte. The native run must itself
# pass (its expected exit status, no "not ok" line).
#
# usage: tests/guest/run.sh [--skas PATH] [--only NAME] [--libc glibc|musl|both]
#                           [--platform ptrace|seccomp] [--native-only]
#
# --platform (default: $SKAS_PLATFORM, else skas's own default) is passed to
# `skas run` as --platform=NAME.
#
# --native-only (for checking the tests themselves): build and run natively
# only; a test passes when its exit status is the expected one (0, or the
# value of a `/* skas-test: exit: N */` comment in its first lines) and it
# printed no "not ok" line.
#
# A `/* skas-test: args: ... */` comment in a test's first lines gives its
# arguments (shell quoting rules); `/* skas-test: timeout: S */` its time
# limit per run in seconds (default 20).
set -u

orig_pwd=$PWD
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

SKAS=
only=
libc=both
native_only=0
skas_given=0
platform=${SKAS_PLATFORM:-}

usage() {
    echo "usage: $0 [--skas PATH] [--only NAME] [--libc glibc|musl|both] [--platform NAME] [--native-only]" >&2
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
        -h|--help) usage ;;
        *) echo "$0: unknown option: $1" >&2; usage ;;
    esac
done

case $libc in glibc|musl|both) ;; *) usage ;; esac

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
trap 'rm -rf "$tmp"' EXIT

n=0
passed=0
failed=0

# indent FILE: print it as TAP comment lines
indent() { sed 's/^/# /' "$1"; }

# directive FILE KEY: value of `skas-test: KEY: VALUE */` in the first lines
directive() {
    head -n 5 "$1" | sed -n "s|.*skas-test: $2: *\\(.*[^ ]\\) *\\*/.*|\\1|p" | head -n 1
}

# run_one OUT ERR CMD...: run CMD with the suite's conventions; prints status.
# The subshell swallows bash's own "Segmentation fault" report.
run_one() {
    local out=$1 err=$2
    shift 2
    ( timeout -k 5 "$limit" "$@" </dev/null >"$out" 2>"$err" ) 2>/dev/null
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

for src in "${srcs[@]}"; do
    name=$(basename "$src" .c)
    argstr=$(directive "$src" args)
    expect=$(directive "$src" exit)
    [ -n "$expect" ] || expect=0
    limit=$(directive "$src" timeout)
    [ -n "$limit" ] || limit=20
    args=()
    if [ -n "$argstr" ]; then
        eval "args=($argstr)"
    fi

    for lc in "${libcs[@]}"; do
        n=$((n + 1))
        label="$lc/$name"
        if [ "$lc" = glibc ]; then cc=gcc; else cc=musl-gcc; fi
        bin=build/guest/$lc/$name
        mkdir -p "build/guest/$lc"
        if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
            rm -f "$bin"
            if ! $cc -static -O1 -Wall -Werror -o "$bin" "$src" >"$tmp/cc" 2>&1; then
                echo "not ok $n - $label: build failed"
                indent "$tmp/cc"
                failed=$((failed + 1))
                continue
            fi
        fi

        nrc=$(run_one "$tmp/native.out" "$tmp/native.err" "$bin" "${args[@]}")

        if [ "$native_only" = 1 ]; then
            if [ "$nrc" = "$expect" ] && ! grep -q '^not ok' "$tmp/native.out"; then
                echo "ok $n - $label"
                passed=$((passed + 1))
            else
                echo "not ok $n - $label"
                echo "# native exit status $nrc, expected $expect"
                grep '^not ok' "$tmp/native.out" | sed 's/^/# /'
                failed=$((failed + 1))
            fi
            continue
        fi

        if [ "$skas_ok" = 0 ]; then
            echo "not ok $n - $label"
            echo "# skas not found: $SKAS"
            failed=$((failed + 1))
            continue
        fi

        skas_rc=$(run_one "$tmp/skas.out" "$tmp/skas.err" "$SKAS" run "${skas_opts[@]}" -- "$bin" "${args[@]}")

        # A test that fails natively (a hang ended by its alarm, a "not ok")
        # proves nothing even when skas fails the same way.
        if [ "$nrc" != "$expect" ] || grep -q '^not ok' "$tmp/native.out"; then
            echo "not ok $n - $label: the test itself fails natively"
            echo "# native exit status $nrc, expected $expect"
            grep '^not ok' "$tmp/native.out" | sed 's/^/# /'
            failed=$((failed + 1))
        elif [ "$nrc" = "$skas_rc" ] && cmp -s "$tmp/native.out" "$tmp/skas.out"; then
            echo "ok $n - $label"
            passed=$((passed + 1))
        else
            echo "not ok $n - $label"
            diff -u --label native --label skas "$tmp/native.out" "$tmp/skas.out" | sed 's/^/# /'
            echo "# exit status: native $nrc, skas $skas_rc"
            if [ -s "$tmp/skas.err" ]; then
                echo "# skas stderr (last 10 lines):"
                tail -n 10 "$tmp/skas.err" | sed 's/^/#   /'
            fi
            failed=$((failed + 1))
        fi
    done
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
