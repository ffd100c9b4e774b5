#!/usr/bin/env bash
# bench/run.sh SKAS: the skas benchmark suite (`make bench`).
#
# Builds the benchmark programs into build/bench/ (static, -O2; only those
# whose sources are newer than the binary), runs each workload natively and
# under "$SKAS run --platform=P --" for each platform P, and prints one
# table of medians:
#     workload | native | ptrace | ratio | seccomp | ratio   (ratio: skas/native)
# This is a report, not a test: a workload that fails under skas prints
# "n/a" with a one-line reason and the run goes on. The exit status is 0
# unless the suite itself cannot run (no skas, build failure).
#
# Sized for well under a minute on a 2-CPU VM. Environment knobs:
#   BENCH_SCALE=F    multiply every operation count by F (default 1)
#   BENCH_TIMEOUT=S  per-run time limit in seconds (default 60)
#   BENCH_REPS=K     runs per cell (default 3): a row runs native, then each
#                    column, K times over in turn, each run with 1/K of the
#                    count; a cell is the median of its K figures. A VM's
#                    speed drifts 10-30% within minutes, and taking turns
#                    puts a row's columns in the same minutes, so the ratios
#                    hold better than the figures themselves.
#   BENCH_PLATFORMS="ptrace seccomp sigsys"  the platforms to run (default all,
#                    each only where the host supports it)
#   BENCH_PEERS="proot runsc uml"  peers to run the same workloads under,
#                    as more columns (`make bench-peers`; a peer that is not
#                    installed or fails its probe is left out with a line
#                    saying why):
#       proot  PRoot (ptrace; the host's root as its own), `proot CMD`
#       runsc  gVisor, Debian's runsc on its ptrace platform, in a sandbox
#              on the host's root (bench/peer-runsc.sh); column runsc/ptrace
#       uml    User-Mode Linux, Debian's /usr/bin/linux booted on the host's
#              root through hostfs, read-only (bench/peer-uml.sh)
# Nothing else of the caller's environment reaches the workloads (below).
#
# How the peers are measured. The programs that time themselves (the rows
# in ns/µs per operation) just run under each peer: a peer's start is
# outside their figure. The rows timed as a whole command (busybox loop,
# pipe throughput, gcc, make) are timed from outside by build/bench/startup
# natively, under skas and under proot (whose start, like skas's, is a few
# ms and part of what they cost); runsc and uml boot a sandbox or a kernel
# for each run (~150 ms, 1-2 s), so for them build/bench/startup itself
# runs inside the peer (`peer startup R CMD...`) and the figure leaves the
# boot out. The row "startup /bin/true" is timed from outside for every
# column: it is the start cost itself, boot included. The peers take 2-20
# times skas's time per system call, fork or page fault, so their operation
# counts, the size of the busybox loop and of the pipe transfer (the time
# then multiplied back) and the number of starts in the startup row are
# divided by a per-peer figure (DIV below: proot 10, runsc 5, uml 20) to
# stay within BENCH_TIMEOUT; the figures mean the same. UML runs on one CPU.
set -u

# Every workload, native and under skas, runs in one small fixed
# environment: the caller's locale would otherwise decide how much work a
# program does (under LANG=C.UTF-8 coreutils loads a dozen locale files at
# each start) and the size of its environment what each exec copies. The
# busybox loop runs under LANG=C.UTF-8 too, as a row of its own.
if [ -z "${SKAS_BENCH_ENV:-}" ]; then
	exec env -i SKAS_BENCH_ENV=1 PATH=/usr/local/bin:/usr/bin:/bin HOME=/tmp \
		${TMPDIR:+TMPDIR="$TMPDIR"} ${BENCH_SCALE:+BENCH_SCALE="$BENCH_SCALE"} \
		${BENCH_TIMEOUT:+BENCH_TIMEOUT="$BENCH_TIMEOUT"} ${BENCH_REPS:+BENCH_REPS="$BENCH_REPS"} \
		${BENCH_PLATFORMS:+BENCH_PLATFORMS="$BENCH_PLATFORMS"} \
		${BENCH_PEERS:+BENCH_PEERS="$BENCH_PEERS"} ${CC:+CC="$CC"} bash "$0" "$@"
fi

SKAS=${1:-./skas}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/build/bench
SCALE=${BENCH_SCALE:-1}
TMO=${BENCH_TIMEOUT:-60}
REPS=${BENCH_REPS:-3}
PLATFORMS=${BENCH_PLATFORMS:-ptrace seccomp sigsys}
PEERS=${BENCH_PEERS:-}

case $REPS in
[1-9] | [1-9][0-9]) ;;
*)
	echo "bench: BENCH_REPS must be a number from 1 to 99, not '$REPS'" >&2
	exit 2
	;;
esac
if [ ! -x "$SKAS" ]; then
	echo "bench: '$SKAS' is not an executable skas (run 'make skas')" >&2
	exit 2
fi
case $SKAS in /*) ;; *) SKAS=$(cd "$(dirname "$SKAS")" && pwd)/$(basename "$SKAS") ;; esac

# ---- build ---------------------------------------------------------------
mkdir -p "$OUT" || exit 2
for p in getppid clock open_close stat pread touch startup fork thread pingpong signal \
	sockpingpong evfdwake epoll1k handoff mmap nanosleep; do
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

TMP=$(mktemp -d "${TMPDIR:-/tmp}/skas-bench.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT

pfs=()
for pf in $PLATFORMS; do
	if "$SKAS" run --platform="$pf" -- /bin/true >/dev/null 2>&1; then
		pfs+=("$pf")
	else
		echo "bench: platform $pf does not run on this host: left out" >&2
	fi
done
[ ${#pfs[@]} -gt 0 ] || { echo "bench: no platform runs" >&2; exit 2; }

# ---- helpers ---------------------------------------------------------------
# PFX: the command prefix that runs a program under column pf. INSIDE=1 for
# a peer that boots on each run: its timed rows run build/bench/startup
# inside it. DIV: what the column's operation counts are divided by.
prefix() {
	INSIDE=0 DIV=1
	case $1 in
	peer:proot) PFX=(proot) DIV=10 ;;
	peer:runsc) PFX=("$ROOT/bench/peer-runsc.sh") INSIDE=1 DIV=5 ;;
	peer:uml) PFX=("$ROOT/bench/peer-uml.sh" -w "$TMP") INSIDE=1 DIV=20 ;;
	*) PFX=("$SKAS" run --platform="$1" ${SKAS_LOG:+--log="$SKAS_LOG"}) ;;
	esac
}
# A column's header: the platform, or the peer's name.
colname() {
	case $1 in
	peer:runsc) echo "runsc/ptrace" ;;
	*) echo "${1#peer:}" ;;
	esac
}
# What failed, for the notes: "skas" on a platform, or the peer.
runner() {
	case $1 in
	peer:*) echo "${1#peer:}" ;;
	*) echo "skas" ;;
	esac
}

# Peers are columns too, named "peer:NAME", each probed with /bin/true.
for peer in $PEERS; do
	case $peer in
	proot) need=proot pkg=proot ;;
	runsc) need=runsc pkg=runsc ;;
	uml) need=linux pkg=user-mode-linux ;;
	*)
		echo "bench: peer $peer: not one this suite knows (proot runsc uml): left out" >&2
		continue
		;;
	esac
	if ! command -v "$need" >/dev/null; then
		echo "bench: peer $peer is not installed (apt-get install $pkg): left out" >&2
		continue
	fi
	prefix "peer:$peer"
	if timeout "$TMO" "${PFX[@]}" /bin/true >/dev/null 2>"$TMP/err"; then
		pfs+=("peer:$peer")
	else
		echo "bench: peer $peer does not run /bin/true here (exit status $?:" \
			"$(grep -v '^$' "$TMP/err" | tail -1)): left out" >&2
	fi
done

n() { awk -v n="$1" -v s="$SCALE" 'BEGIN { v = int(n * s); if (v < 7) v = 7; print v }'; }
# A count for one of REPS runs (at least 7: the programs time 7 rounds).
per_rep() { echo $(( $1 / REPS > 7 ? $1 / REPS : 7 )); }
# The median of the numbers in $1 (blank-separated).
median() {
	tr ' ' '\n' <<<"$1" | grep . | sort -g |
		awk '{ a[NR] = $1 } END { print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

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
# row NAME NATIVE then a (value, ratio) pair per platform, tab-separated.
row() {
	local IFS=$'\t'
	ROWS+=("$*")
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf (b > 0 ? "%.1fx" : "-"), a / b }'; }

# take_turns NAME UNIT: REPS turns in which the native run, then each
# column's, is measured; then the row: each cell the median of its
# figures. The caller's functions native_cmd and column_cmd PF set RUN to
# the command (column_cmd may set MUL, a factor for the figure); a column
# whose run fails once is not run again in that row, and a native run that
# fails makes the row n/a.
take_turns() {
	local name=$1 unit=$2 nat= pf rep med
	local -a cells=()
	local -A vals=() why=()
	for ((rep = 0; rep < REPS; rep++)); do
		SKAS_LOG=
		native_cmd "${ARGS[@]}"
		if ! measure "${RUN[@]}"; then
			row "$name" "n/a"
			NOTES+=("$name: native run failed: $WHY")
			return
		fi
		nat+=" $MED"
		for pf in "${pfs[@]}"; do
			[ -n "${why[$pf]:-}" ] && continue
			SKAS_LOG=$TMP/klog
			rm -f "$SKAS_LOG"
			MUL=1
			column_cmd "$pf" "${ARGS[@]}"
			if measure "${RUN[@]}"; then
				[ "$MUL" = 1 ] || MED=$(awk -v m="$MED" -v d="$MUL" 'BEGIN { print m * d }')
				vals[$pf]+=" $MED"
			else
				why[$pf]=$WHY
			fi
		done
	done
	SKAS_LOG=
	nat=$(median "$nat")
	for pf in "${pfs[@]}"; do
		if [ -n "${why[$pf]:-}" ]; then
			cells+=("n/a" "-")
			NOTES+=("$name ($(colname "$pf")): $(runner "$pf") run failed: ${why[$pf]}")
		else
			med=$(median "${vals[$pf]}")
			cells+=("$(fmt "$med" "$unit")" "$(ratio "$med" "$nat")")
		fi
	done
	row "$name" "$(fmt "$nat" "$unit")" "${cells[@]}"
}

# bench NAME UNIT NATIVE-N SKAS-N PROGRAM ARGS... ; "@N" in ARGS is the count
# (SKAS-N under skas, SKAS-N / DIV under a peer), divided among REPS runs.
bench() {
	local name=$1 unit=$2 nn=$3 sn=$4
	shift 4
	native_cmd() {
		local a c
		c=$(per_rep "$nn")
		RUN=()
		for a in "$@"; do
			RUN+=("${a/@N/$c}")
		done
	}
	column_cmd() {
		local a c pf=$1
		shift
		prefix "$pf"
		c=$(per_rep $((sn / DIV)))
		RUN=("${PFX[@]}")
		for a in "$@"; do
			RUN+=("${a/@N/$c}")
		done
	}
	ARGS=("$@")
	take_turns "$name" "$unit"
}

# timed [-o] [-k K] NAME COUNT CMD... : a whole command run COUNT times in
# all (COUNT / REPS in each of the REPS turns, at least once), timed by
# build/bench/startup (ms). Under skas and proot startup times
# "PFX CMD" from outside; under a peer that boots on each run (INSIDE) it
# runs inside the peer, "PFX startup COUNT CMD", so that the boot is left
# out. -o: from outside for every column (the startup row; COUNT / DIV runs
# under a peer, at least 7). -k K: the command's size, "@K" in its
# arguments (loop iterations, bytes), is K / DIV under a peer and its time
# is multiplied by DIV: the figure is still the time for K.
timed() {
	local outside=0 k=
	while :; do
		case $1 in
		-o) outside=1 && shift ;;
		-k) k=$2 && shift 2 ;;
		*) break ;;
		esac
	done
	local name=$1 count=$2
	shift 2
	local each=$(( count / REPS > 1 ? count / REPS : 1 ))
	native_cmd() {
		local a
		RUN=("$B/startup" "$each")
		for a in "$@"; do
			RUN+=("${a//@K/$k}")
		done
	}
	column_cmd() {
		local a pf=$1 pk
		local -a cargs=()
		shift
		prefix "$pf"
		pk=${k:+$(( k / DIV ))}
		for a in "$@"; do
			cargs+=("${a//@K/$pk}")
		done
		if [ $outside = 1 ]; then
			RUN=("$B/startup" "$(( each / DIV > 7 ? each / DIV : 7 ))" "${PFX[@]}" "${cargs[@]}")
		elif [ "$INSIDE" = 1 ]; then
			RUN=("${PFX[@]}" "$B/startup" "$each" "${cargs[@]}")
		else
			RUN=("$B/startup" "$each" "${PFX[@]}" "${cargs[@]}")
		fi
		[ -n "$k" ] && MUL=$DIV
	}
	ARGS=("$@")
	take_turns "$name" ms
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
bench "  the same, 10000 VMAs"     ""   "$(( N4 * 5 ))" "$N4" "$B/pread" "$B/pread" @N 7 10000
bench "first touch, per 4 KiB page" "" "$MIB" "$MIB" "$B/touch" @N 5
bench "mmap+mprotect+munmap 64 KiB" ""  "$(( N2 * 5 ))" "$(( N2 / 4 ))" "$B/mmap" @N 7
bench "  the same, 10000 VMAs"     ""   "$(( N2 * 5 ))" "$(( N2 / 4 ))" "$B/mmap" @N 7 10000

# Processes (static binaries only, so the numbers compare like with like).
FN=$(n 300) PN=$(n 20000) SN=$(n 20000)
${CC:-gcc} -O2 -static -o "$B/true" -x c - <<<'int main(void){return 0;}' 2>/dev/null
bench "fork+exit+wait"             ""   "$(( FN * 5 ))" "$FN" "$B/fork" @N 7
bench "fork+exec(true)+wait"       ""   "$(( FN * 5 ))" "$FN" "$B/fork" @N 7 "$B/true"
bench "thread create+join"         ""   "$(( FN * 25 ))" "$(( FN * 5 ))" "$B/thread" @N 7
bench "pipe ping-pong (2 procs)"   ""   "$(( PN * 5 ))" "$PN" "$B/pingpong" @N 7
bench "signal: kill self+handler"  ""   "$(( SN * 5 ))" "$SN" "$B/signal" @N 7
bench "unix socket ping-pong"      ""   "$(( PN * 5 ))" "$PN" "$B/sockpingpong" @N 7
bench "eventfd wakeup round trip"  ""   "$(( PN * 5 ))" "$PN" "$B/evfdwake" @N 7
EN=$(n 20000)
bench "epoll_wait 1000 idle+1 ready" "" "$(( EN * 5 ))" "$EN" "$B/epoll1k" @N 7
ZN=$(n 1000)
bench "nanosleep 100 µs"           ""   "$ZN" "$ZN" "$B/nanosleep" @N 7

# A busybox sh loop of 1,000 'echo x | cat >/dev/null', start to exit.
if command -v busybox >/dev/null; then
	BB=$(command -v busybox)
	LOOP='i=0; while [ $i -lt @K ]; do echo x | cat >/dev/null; i=$((i+1)); done'
	timed -k 1000 "busybox sh: 1000 x echo|cat" 3 "$BB" sh -c "$LOOP"
	timed -k 1000 "  the same, LANG=C.UTF-8" 3 env LANG=C.UTF-8 "$BB" sh -c "$LOOP"
fi

# Pipe throughput: 256 MiB through a pipe between two processes.
timed -k 268435456 "pipe: 256 MiB head|cat" 3 /bin/sh -c 'head -c @K /dev/zero | cat >/dev/null'

# A compiler: gcc -O2 of a mid-size C file (skas's own path walk, ~1,300
# lines with its headers), and make -j2 of a small project of 8 files.
if command -v gcc >/dev/null && command -v make >/dev/null; then
	GCC=$(command -v gcc)
	timed "gcc -O2 -c vfs/namei.c" 3 "$GCC" -O2 -I"$ROOT/include" -I"$ROOT/src" -c \
		"$ROOT/src/vfs/namei.c" -o "$TMP/namei.o"
	# Two of them at once: guest threads that compute move off the
	# kernel's CPU (kernel/cpus.c).
	timed "2 x gcc -O2 -c at once" 3 /bin/sh -c \
		"'$GCC' -O2 -I'$ROOT/include' -I'$ROOT/src' -c '$ROOT/src/vfs/namei.c' -o '$TMP/n1.o' &
		 '$GCC' -O2 -I'$ROOT/include' -I'$ROOT/src' -c '$ROOT/src/vfs/namei.c' -o '$TMP/n2.o' &
		 wait"
	mkdir -p "$TMP/proj"
	for i in 1 2 3 4 5 6 7 8; do
		printf '#include <stdio.h>\n#include <string.h>\nint f%d(const char *s) { char b[64]; snprintf(b, sizeof(b), "%%s%d", s); return (int)strlen(b); }\n' \
			"$i" "$i" >"$TMP/proj/f$i.c"
	done
	printf 'int f1(const char *);\nint main(void) { return f1("x") == 2 ? 0 : 1; }\n' >"$TMP/proj/main.c"
	printf 'OBJ = main.o f1.o f2.o f3.o f4.o f5.o f6.o f7.o f8.o\nprog: $(OBJ)\n\t$(CC) -o $@ $(OBJ)\n%%.o: %%.c\n\t$(CC) -O2 -c $< -o $@\nclean:\n\trm -f prog $(OBJ)\n' \
		>"$TMP/proj/Makefile"
	timed "make -j2: 9 files and a link" 3 /bin/sh -c \
		"make -s -C '$TMP/proj' clean && make -s -j2 -C '$TMP/proj' prog"
fi

# Startup is timed from outside (fork+exec+wait by build/bench/startup).
timed -o "startup /bin/true" "$STARTS" /bin/true

# ---- report ----------------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
echo "skas bench: $(date '+%Y-%m-%d %H:%M:%S %Z') on $(uname -n): nproc=$(nproc)," \
	"Linux $(uname -r) $(uname -m)${cpu:+, $cpu}"
echo "skas: $("$SKAS" --version 2>/dev/null | head -1)"
echo "(each cell: the median of $REPS runs, native and every column taking turns; a program's run"
echo " reports the median per op of its 7 rounds, a whole command's the median of its runs)"
echo
W1=28 W2=11 W3=12 W4=6
dashes() { printf '%*s' "$1" '' | tr ' ' -; }
hdr=$(pad "workload" $W1; printf ' | '; pad "native" $W2)
sep=$(dashes $W1; printf -- '-|-'; dashes $W2)
for pf in "${pfs[@]}"; do
	hdr+=$(printf ' | '; pad "$(colname "$pf")" $W3; printf ' | '; pad "ratio" $W4)
	sep+=$(printf -- '-|-'; dashes $W3; printf -- '-|-'; dashes $W4)
done
echo "$hdr"
echo "$sep"
for r in "${ROWS[@]}"; do
	IFS=$'\t' read -r -a c <<<"$r"
	l=$(pad "${c[0]}" $W1; printf ' | '; pad "${c[1]}" $W2)
	for ((i = 0; i < ${#pfs[@]}; i++)); do
		l+=$(printf ' | '; pad "${c[2 + 2 * i]:-}" $W3; printf ' | '; pad "${c[3 + 2 * i]:-}" $W4)
	done
	echo "$l"
done
# The trap mechanisms themselves, between two processes on one CPU.
echo
echo "trap mechanisms (build/bench/handoff: one getppid round trip; both processes on one CPU,"
echo "  but for sigsys-spin, whose supervisor spins on the other):"
"$B/handoff" "$(n 50000)" 7 | sed 's/^/  /'
peers=()
for pf in "${pfs[@]}"; do
	case $pf in peer:*) peers+=("$(colname "$pf")") ;; esac
done
if [ ${#peers[@]} -gt 0 ]; then
	echo
	echo "peers (${peers[*]}): rows per operation run the program under the peer (its start is"
	echo "  outside the figure); whole commands are timed from outside under proot, as under skas,"
	echo "  and from inside under runsc and uml (build/bench/startup runs in the sandbox or the UML"
	echo "  guest: their boot is left out); 'startup /bin/true' is timed from outside in every column."
	case " ${peers[*]} " in *" runsc/ptrace "*)
		echo "  runsc: gVisor on its ptrace platform (runsc do: host / read-only + tmpfs overlay)." ;;
	esac
	case " ${peers[*]} " in *" uml "*)
		echo "  uml: User-Mode Linux on the host's / by hostfs, read-only, one CPU, mem=512M." ;;
	esac
	divs=()
	for pf in "${pfs[@]}"; do
		prefix "$pf"
		[ "$DIV" -gt 1 ] && divs+=("$(colname "$pf") $DIV")
	done
	if [ ${#divs[@]} -gt 0 ]; then
		(IFS=,; echo "  Counts (and loop, transfer and start counts) divided, to fit BENCH_TIMEOUT, by:${divs[*]/#/ }.")
	fi
fi
if [ ${#NOTES[@]} -gt 0 ]; then
	echo
	for nt in "${NOTES[@]}"; do echo "  n/a: $nt"; done
fi
exit 0
