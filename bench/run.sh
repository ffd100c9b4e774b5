#!/usr/bin/env bash
# bench/run.sh SKAS: the skas benchmark suite (`make bench`).
#
# Builds the benchmark programs into build/bench/ (static, -O2; only those
# whose sources are newer than the binary), runs each workload natively and
# under "$SKAS run --", and prints one table of medians:
#     workload | native | skas (ptrace) | ratio (skas/native)
# This is a report, not a test: a workload that fails under skas prints
# "n/a" with a one-line reason and the run goes on. The exit status is 0
# unless the suite itself cannot run (no skas, build failure).
#
# Sized for well under a minute on a 2-CPU VM. Environment knobs:
#   BENCH_SCALE=F    multiply every operation count by F (default 1)
#   BENCH_TIMEOUT=S  per-run time limit in seconds (default 60)
set -u

SKAS=${1:-./skas}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/build/bench
SCALE=${BENCH_SCALE:-1}
TMO=${BENCH_TIMEOUT:-60}

if [ ! -x "$SKAS" ]; then
	echo "bench: '$SKAS' is not an executable skas (run 'make skas')" >&2
	exit 2
fi
case $SKAS in /*) ;; *) SKAS=$(cd "$(dirname "$SKAS")" && pwd)/$(basename "$SKAS") ;; esac

# ---- build ---------------------------------------------------------------
mkdir -p "$OUT" || exit 2
for p in getppid clock open_close stat pread touch startup fork pingpong signal sockpingpong \
	evfdwake epoll1k; do
	src=$ROOT/bench/$p.c
	bin=$OUT/$p
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ] || [ "$ROOT/bench/bench.h" -nt "$bin" ]; then
		echo "bench: cc $p" >&2
		${CC:-gcc} -O2 -static -Wall -Wextra -I"$ROOT/bench" -o "$bin" "$src" || {
			echo "bench: building $p failed" >&2
			exit 2
		}
	fi
done

# ---- helpers ---------------------------------------------------------------
TMP=$(mktemp -d "${TMPDIR:-/tmp}/skas-bench.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT

n() { awk -v n="$1" -v s="$SCALE" 'BEGIN { v = int(n * s); if (v < 7) v = 7; print v }'; }

# Runs "$@", with stdout to $TMP/out and stderr to $TMP/err; on success sets
# MED to the median_ns of the result line; on failure sets WHY and returns 1.
# With SKAS_LOG set, the kernel log goes there (for the failure reason).
measure() {
	MED= WHY=
	timeout "$TMO" "$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	MED=$(sed -n 's/.*median_ns=\([0-9.]*\).*/\1/p' "$TMP/out" | tail -1)
	if [ $rc -eq 0 ] && [ -n "$MED" ]; then
		return 0
	fi
	if [ $rc -eq 124 ]; then
		WHY="timed out after ${TMO}s"
	else
		WHY="exit status $rc"
		local last
		last=$(grep -v '^$' "$TMP/err" | tail -1)
		[ -n "$last" ] && WHY="$WHY: $last"
	fi
	if [ -n "${SKAS_LOG:-}" ] && [ -s "$SKAS_LOG" ]; then
		# rseq is refused on purpose (glibc copes); any other missing call
		# is the likely culprit.
		local ni
		ni=$(grep 'not implemented' "$SKAS_LOG" | grep -v 'rseq (334)' | sed 's/^skas: //' |
			paste -sd ';' -)
		[ -n "$ni" ] && WHY="$WHY; $ni"
	fi
	return 1
}

# A value in ns, shown in the unit that suits it ("fixed" unit if given).
fmt() {
	awk -v v="$1" -v u="${2:-}" 'BEGIN {
		if (u == "ms" || (u == "" && v >= 1e6)) printf "%.2f ms", v / 1e6
		else if (u == "us" || (u == "" && v >= 1000)) printf "%.2f µs", v / 1e3
		else printf "%.0f ns", v }'
}

# Pad to a width in columns (µ is two bytes but one column, in any locale).
pad() {
	local s=$1 w=$2 plain=${1//µ/} len
	len=$(( ${#plain} + (${#s} - ${#plain}) / ${#MU} ))
	printf '%s%*s' "$s" $(( w > len ? w - len : 0 )) ''
}
MU=µ

ROWS=()
NOTES=()
row() { ROWS+=("$1"$'\t'"$2"$'\t'"$3"$'\t'"$4"); }

# bench NAME UNIT NATIVE-N SKAS-N PROGRAM ARGS... ; "@N" in ARGS is the count.
bench() {
	local name=$1 unit=$2 nn=$3 sn=$4 nat sk ratio
	shift 4
	local -a nargs=() sargs=()
	local a
	for a in "$@"; do
		nargs+=("${a/@N/$nn}")
		sargs+=("${a/@N/$sn}")
	done
	if measure "${nargs[@]}"; then
		nat=$MED
	else
		row "$name" "n/a" "" ""
		NOTES+=("$name: native run failed: $WHY")
		return
	fi
	SKAS_LOG=$TMP/klog
	rm -f "$SKAS_LOG"
	if measure "$SKAS" run --log="$SKAS_LOG" -- "${sargs[@]}"; then
		sk=$MED
		ratio=$(awk -v a="$sk" -v b="$nat" 'BEGIN { printf (b > 0 ? "%.1fx" : "-"), a / b }')
		row "$name" "$(fmt "$nat" "$unit")" "$(fmt "$sk" "$unit")" "$ratio"
	else
		row "$name" "$(fmt "$nat" "$unit")" "n/a" "-"
		NOTES+=("$name: skas run failed: $WHY")
	fi
	SKAS_LOG=
}

# ---- workloads -------------------------------------------------------------
# Counts: under skas a system call costs ~10-35 µs, so each skas run is ~2 s;
# native runs take 5x the count for steadier numbers at ~0.2-2 µs per call.
B=$OUT
N1=$(n 200000) N2=$(n 70000) N3=$(n 100000) N4=$(n 140000)
MIB=$(n 256) STARTS=$(n 50)
# The pread file must exist on the host and in the guest (its root is the
# host's /, read-only) and be >= 4 KiB: the pread binary itself will do.
bench "getppid (syscall)"          ""   "$(( N1 * 5 ))" "$N1" "$B/getppid" @N 7
bench "clock_gettime (vDSO)"       ""   "$(n 5000000)" "$(n 5000000)" "$B/clock" @N 7
bench "open+close /etc/passwd"     ""   "$(( N2 * 5 ))" "$N2" "$B/open_close" @N 7 /etc/passwd
bench "stat /etc/passwd"           ""   "$(( N3 * 5 ))" "$N3" "$B/stat" @N 7 /etc/passwd
bench "pread 4 KiB @0"             ""   "$(( N4 * 5 ))" "$N4" "$B/pread" "$B/pread" @N 7
bench "first touch, per 4 KiB page" "" "$MIB" "$MIB" "$B/touch" @N 5

# Processes (static binaries only, so the numbers compare like with like).
FN=$(n 300) PN=$(n 20000) SN=$(n 20000)
${CC:-gcc} -O2 -static -o "$B/true" -x c - <<<'int main(void){return 0;}' 2>/dev/null
bench "fork+exit+wait"             ""   "$(( FN * 5 ))" "$FN" "$B/fork" @N 7
bench "fork+exec(true)+wait"       ""   "$(( FN * 5 ))" "$FN" "$B/fork" @N 7 "$B/true"
bench "pipe ping-pong (2 procs)"   ""   "$(( PN * 5 ))" "$PN" "$B/pingpong" @N 7
bench "signal: kill self+handler"  ""   "$(( SN * 5 ))" "$SN" "$B/signal" @N 7
bench "unix socket ping-pong"      ""   "$(( PN * 5 ))" "$PN" "$B/sockpingpong" @N 7
bench "eventfd wakeup round trip"  ""   "$(( PN * 5 ))" "$PN" "$B/evfdwake" @N 7
EN=$(n 20000)
bench "epoll_wait 1000 idle+1 ready" "" "$(( EN * 5 ))" "$EN" "$B/epoll1k" @N 7

# A busybox sh loop of 1,000 'echo x | cat >/dev/null', start to exit.
if command -v busybox >/dev/null; then
	BB=$(command -v busybox)
	LOOP='i=0; while [ $i -lt 1000 ]; do echo x | cat >/dev/null; i=$((i+1)); done'
	if measure "$B/startup" 3 "$BB" sh -c "$LOOP"; then
		nat=$MED
		if measure "$B/startup" 3 "$SKAS" run -- "$BB" sh -c "$LOOP"; then
			row "busybox sh: 1000 x echo|cat" "$(fmt "$nat" ms)" "$(fmt "$MED" ms)" \
				"$(awk -v a="$MED" -v b="$nat" 'BEGIN { printf "%.1fx", a / b }')"
		else
			row "busybox sh: 1000 x echo|cat" "$(fmt "$nat" ms)" "n/a" "-"
			NOTES+=("busybox loop: skas run failed: $WHY")
		fi
	fi
fi

# Startup is timed from outside (fork+exec+wait by build/bench/startup,
# which itself runs natively, since skas has no fork yet).
if measure "$B/startup" "$STARTS" /bin/true; then
	nat=$MED
	if measure "$B/startup" "$STARTS" "$SKAS" run -- /bin/true; then
		row "startup /bin/true" "$(fmt "$nat" ms)" "$(fmt "$MED" ms)" \
			"$(awk -v a="$MED" -v b="$nat" 'BEGIN { printf "%.1fx", a / b }')"
	else
		row "startup /bin/true" "$(fmt "$nat" ms)" "n/a" "-"
		NOTES+=("startup: skas run failed: $WHY")
	fi
else
	row "startup /bin/true" "n/a" "" ""
	NOTES+=("startup: native run failed: $WHY")
fi

# ---- report ----------------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
echo "skas bench: $(date '+%Y-%m-%d %H:%M:%S %Z') on $(uname -n): nproc=$(nproc)," \
	"Linux $(uname -r) $(uname -m)${cpu:+, $cpu}"
echo "skas: $("$SKAS" --version 2>/dev/null | head -1)   (median per op of 7 rounds; startup: median of $STARTS runs)"
echo
W1=28 W2=11 W3=14
line() { pad "$1" $W1; printf ' | '; pad "$2" $W2; printf ' | '; pad "$3" $W3; printf ' | %s\n' "$4"; }
line "workload" "native" "skas (ptrace)" "ratio"
printf '%s-|-%s-|-%s-|-%s\n' "$(printf '%*s' $W1 '' | tr ' ' -)" "$(printf '%*s' $W2 '' | tr ' ' -)" \
	"$(printf '%*s' $W3 '' | tr ' ' -)" "------"
for r in "${ROWS[@]}"; do
	IFS=$'\t' read -r c1 c2 c3 c4 <<<"$r"
	line "$c1" "$c2" "$c3" "$c4"
done
if [ ${#NOTES[@]} -gt 0 ]; then
	echo
	for nt in "${NOTES[@]}"; do echo "  n/a: $nt"; done
fi
exit 0
