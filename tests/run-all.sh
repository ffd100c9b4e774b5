#!/bin/bash
# Runs every test against one skas binary: unit tests (given as extra
# arguments), the differential guest tests and the scenario scripts.
# Prints each suite's TAP and one final line "N passed, M failed".
#
# The unit tests run first, one after the other. Then two lanes side by
# side: the guest suites (one per platform, each running its tests in
# parallel jobs) one after the other, and the scenario scripts one after
# the other (they mostly sleep, and time what the host sees: with every
# suite at once on 2 CPUs, hostfd.sh, tty.sh and a guest test's 100 ms
# failed). The output of each
# suite is held back and printed whole, in the order above; its
# "# NAME: N s" is its own time, in the company of the other lane.
set -u
SKAS=${1:?usage: tests/run-all.sh SKAS [UNIT_TEST...]}
shift
cd "$(dirname "$0")/.."
passed=0
failed=0
suites_failed=""

dir=$(mktemp -d "${TMPDIR:-/tmp}/skas-all.XXXXXX") || exit 2
cleanup() {
	local p
	for p in $(jobs -p); do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The guest suites' native runs, made once and taken by the other
# platforms' suites (tests/guest/run.sh): the same binaries on the same
# host, so the same stdout and status.
export SKAS_NATIVE_CACHE=$dir/native

# count NAME OUT RC: add a finished suite's result to the totals.
count() {
	local name=$1 out=$2 rc=$3 line
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -1)
	if [ -n "$line" ]; then
		passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
		failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
	else
		failed=$((failed + 1))
	fi
	if [ "$rc" -ne 0 ]; then
		suites_failed="$suites_failed $name"
		[ -n "$line" ] && [ "$(echo "$line" | cut -d' ' -f3)" = 0 ] && failed=$((failed + 1))
	fi
}

# run_suite NAME CMD...: run one suite now, its output as it comes.
run_suite() {
	local name=$1 t0=$SECONDS rc
	shift
	echo "# === $name"
	"$@" 2>&1 | tee "$dir/unit.out"
	rc=${PIPESTATUS[0]}
	echo "# $name: $((SECONDS - t0)) s"
	count "$name" "$dir/unit.out" "$rc"
}

for t in "$@"; do
	run_suite "unit: $(basename "$t")" "$t"
done

# The suites that run side by side: suite I is ${names[I]}, run as
# ${cmds[I]} (words quoted for eval) in lane ${lanes[I]}; a skipped one has
# its note instead.
names=()
cmds=()
notes=()
lanes=()
add() { # NAME LANE NOTE CMD...
	names+=("$1")
	lanes+=("$2")
	notes+=("$3")
	shift 3
	cmds+=("$(printf '%q ' "$@")")
}
# The guest suite on each platform (seccomp and sigsys only where the host
# has what they need).
add "guest tests (ptrace)" guest "" tests/guest/run.sh --skas "$SKAS" --platform ptrace
if "$SKAS" run --platform=seccomp -- /bin/true >/dev/null 2>&1; then
	add "guest tests (seccomp)" guest "" tests/guest/run.sh --skas "$SKAS" --platform seccomp
else
	add "guest tests (seccomp)" guest "the host lacks USER_NOTIF or pidfd_getfd, skipped"
fi
if "$SKAS" run --platform=sigsys -- /bin/true >/dev/null 2>&1; then
	add "guest tests (sigsys)" guest "" tests/guest/run.sh --skas "$SKAS" --platform sigsys
else
	add "guest tests (sigsys)" guest "the host lacks SECCOMP_RET_TRAP, skipped"
fi
for s in tests/scenario/*.sh; do
	add "scenario: $(basename "$s")" scenario "" env SKAS="$SKAS" bash "$s"
done

# suite I: run suite I, its output to I.out, then "STATUS SECONDS" to I.rc
# (last, and renamed into place: its presence says it is done).
suite() {
	local i=$1 t0=$SECONDS
	eval "${cmds[$i]}" >"$dir/$i.out" 2>&1 </dev/null
	echo "$? $((SECONDS - t0))" >"$dir/$i.rc.new"
	mv "$dir/$i.rc.new" "$dir/$i.rc"
}

# lane NAME: run the lane's suites one after the other.
lane() {
	local i
	for ((i = 0; i < ${#names[@]}; i++)); do
		[ "${lanes[$i]}" = "$1" ] && [ -z "${notes[$i]}" ] && suite "$i"
	done
}

# flush: print the finished suites that come next.
next=0
flush() {
	local rc secs
	while [ "$next" -lt "${#names[@]}" ]; do
		if [ -n "${notes[$next]}" ]; then
			echo "# === ${names[$next]}: ${notes[$next]}"
		else
			[ -f "$dir/$next.rc" ] || return
			read -r rc secs <"$dir/$next.rc"
			echo "# === ${names[$next]}"
			cat "$dir/$next.out"
			echo "# ${names[$next]}: $secs s"
			count "${names[$next]}" "$dir/$next.out" "$rc"
		fi
		next=$((next + 1))
	done
}

lane guest &
lane scenario &
while [ -n "$(jobs -rp)" ]; do
	flush
	sleep 0.5
done
wait
flush
for ((; next < ${#names[@]}; next++)); do # a lane that died
	echo "# === ${names[$next]}: did not finish"
	failed=$((failed + 1))
	suites_failed="$suites_failed ${names[$next]}"
done

[ -n "$suites_failed" ] && echo "# failed suites:$suites_failed"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
