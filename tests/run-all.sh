#!/bin/bash
# Runs every test against one skas binary: unit tests (given as extra
# arguments), the differential guest tests and the scenario scripts.
# Prints each suite's TAP and one final line "N passed, M failed".
set -u
SKAS=${1:?usage: tests/run-all.sh SKAS [UNIT_TEST...]}
shift
cd "$(dirname "$0")/.."
passed=0
failed=0
suites_failed=""

# The guest suites' native runs, made by the first platform's suite and
# taken by the others (tests/guest/run.sh): the same binaries, the same
# host, so the same stdout and status.
SKAS_NATIVE_CACHE=$(mktemp -d "${TMPDIR:-/tmp}/skas-native.XXXXXX") || exit 2
export SKAS_NATIVE_CACHE
trap 'rm -rf "$SKAS_NATIVE_CACHE"' EXIT

run_suite() {
	local name=$1
	shift
	local out
	echo "# === $name"
	local t0=$SECONDS
	out=$("$@" 2>&1)
	local rc=$?
	printf '%s\n' "$out"
	echo "# $name: $((SECONDS - t0)) s"
	local line
	line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
	if [ -n "$line" ]; then
		passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
		failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
	else
		failed=$((failed + 1))
	fi
	if [ $rc -ne 0 ]; then
		suites_failed="$suites_failed $name"
		[ -n "$line" ] && [ "$(echo "$line" | cut -d' ' -f3)" = 0 ] && failed=$((failed + 1))
	fi
}

for t in "$@"; do
	run_suite "unit: $(basename "$t")" "$t"
done
# The guest suite on each platform (seccomp and sigsys only where the host
# has what they need).
run_suite "guest tests (ptrace)" tests/guest/run.sh --skas "$SKAS" --platform ptrace
if "$SKAS" run --platform=seccomp -- /bin/true >/dev/null 2>&1; then
	run_suite "guest tests (seccomp)" tests/guest/run.sh --skas "$SKAS" --platform seccomp
else
	echo "# === guest tests (seccomp): the host lacks USER_NOTIF or pidfd_getfd, skipped"
fi
if "$SKAS" run --platform=sigsys -- /bin/true >/dev/null 2>&1; then
	run_suite "guest tests (sigsys)" tests/guest/run.sh --skas "$SKAS" --platform sigsys
else
	echo "# === guest tests (sigsys): the host lacks FSGSBASE or SECCOMP_RET_TRAP, skipped"
fi
for s in tests/scenario/*.sh; do
	run_suite "scenario: $(basename "$s")" env SKAS="$SKAS" bash "$s"
done
[ -n "$suites_failed" ] && echo "# failed suites:$suites_failed"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
