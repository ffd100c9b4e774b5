#!/bin/bash
# cgroup v2's pids controller inside skas: tests/scenario/cgroup_pids.c
# (built static) on every platform the host has, every line "ok" (what it
# expects is what Linux 6.12 printed for it, booted with every controller
# on cgroup v2 by tools/vmoracle.sh: the host's own kernel binds pids to
# cgroup v1, so no native run here); then a shell's fork bomb in a group
# with pids.max 40 stays at 40 tasks while a command outside it runs, the
# group's pids.events counts the refused forks, and cgroup.kill ends the
# bomb. One TAP line per check, then "N passed, M failed".
#
# usage: SKAS=./skas tests/scenario/cgroup_pids.sh     (run from anywhere)
set -u
. "$(dirname "$0")/common.bash"
scratch cgpids
chmod 755 "$tmp"

if ! gcc -O1 -static -o "$tmp/cgroup_pids" "$(dirname "$0")/cgroup_pids.c" -lpthread \
	2>"$tmp/cc.err"; then
	check "build cgroup_pids.c" "" "$(cat "$tmp/cc.err")"
	summary
	exit
fi

platforms_probe
for p in $(platforms_of seccomp ptrace sigsys); do
	out=$(timeout -k 5 120 "$SKAS" run --platform="$p" -- "$tmp/cgroup_pids" 2>&1)
	st=$?
	total=$(grep -c '^ok ' <<<"$out")
	bad=$(grep -v '^ok \|^# move ' <<<"$out")
	check "$p: cgroup_pids.c exits 0" 0 "$st"
	check "$p: cgroup_pids.c, every line ok ($total)" "" "$bad"
	check "$p: cgroup_pids.c ran to its end" "groups removed" "$(tail -n 1 <<<"$out" | sed 's/^ok [0-9]* - //')"
done

# A fork bomb held by pids.max, then killed with its group.
cat >"$tmp/bomb.sh" <<'EOF'
cd /sys/fs/cgroup || exit 1
mkdir bomb && echo +pids >cgroup.subtree_control && echo 40 >bomb/pids.max || exit 1
bash -c 'echo $$ >/sys/fs/cgroup/bomb/cgroup.procs; b() { b & b; }; b' 2>/dev/null &
sleep 2
echo "current $(cat bomb/pids.current)"
echo "outside $(ls / >/dev/null && echo ran)"
echo "refused $(sed -n 's/^max //p' bomb/pids.events | awk '{print ($1 > 0)}')"
echo 1 >bomb/cgroup.kill
for i in $(seq 100); do
	grep -q 'populated 0' bomb/cgroup.events && break
	sleep 0.05
done
echo "after kill: $(grep populated bomb/cgroup.events)"
wait
for i in $(seq 100); do
	[ "$(cat bomb/pids.current)" = 0 ] && break
	sleep 0.05
done
echo "current $(cat bomb/pids.current), peak $(cat bomb/pids.peak)"
rmdir bomb && echo removed
EOF
out=$(timeout -k 5 60 "$SKAS" run -- /bin/sh "$tmp/bomb.sh" 2>&1)
check "a fork bomb held at pids.max, killed with its group" \
	"current 40|outside ran|refused 1|after kill: populated 0|current 0, peak 40|removed" \
	"$(tr '\n' '|' <<<"$out" | sed 's/|$//')"

summary
