#!/usr/bin/env bash
# bench/peer-uml.sh [-w DIR] CMD [ARGS...]: runs CMD under User-Mode Linux
# (Debian's user-mode-linux, /usr/bin/linux; the "uml" column of
# `make bench-peers`) and exits with its status, its stdout and stderr
# copied to ours.
#
# Each run boots a UML kernel (mem=512M, one CPU) whose root is the host's /
# through hostfs, read-only; this script is not the guest's init, a bash
# script written into a work directory is: it mounts /proc, mounts DIR (a
# host directory; default a fresh one under $TMPDIR or /tmp) over itself
# read-write through hostfs, goes to the caller's directory, runs CMD with
# this script's environment (TMPDIR set to the work directory, inside DIR)
# and its stdin from /dev/null, writes CMD's stdout, stderr and exit status
# into files in the work directory, and powers the guest off (sysrq o).
# Nothing else of the host is writable from the guest. The console, where
# the guest's kernel messages go, is kept in the work directory and shown
# only when the guest did not report a status. A boot takes 1-2 s, which
# is why bench/run.sh times commands from inside. SIGTERM/SIGINT/SIGHUP
# (timeout(1)) kill the guest, all its host processes.
set -u
usage() {
	echo "usage: peer-uml.sh [-w DIR] CMD [ARGS...]" >&2
	exit 2
}
rw=
if [ "${1:-}" = -w ]; then
	[ $# -ge 2 ] || usage
	rw=$(cd "$2" && pwd) || exit 2
	shift 2
fi
[ $# -gt 0 ] || usage
if [ -z "$rw" ]; then
	rw=$(mktemp -d "${TMPDIR:-/tmp}/peer-uml.XXXXXX") || exit 2
	work=$rw
else
	work=$(mktemp -d "$rw/peer-uml.XXXXXX") || exit 2
fi
trap 'rm -rf "$work"' EXIT

# The command and its environment, quoted for the guest's bash.
envs=()
while IFS= read -r -d '' e; do
	case $e in PWD=* | OLDPWD=* | SHLVL=* | _=*) ;; *) envs+=("$e") ;; esac
done < <(env -0)
printf -v cmd '%q ' env -i "${envs[@]}" "TMPDIR=$work" "$@"
printf -v dirs '%q ' "$rw" "$work" "$PWD"
cat >"$work/init" <<INIT
#!/bin/bash
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
set -- $dirs
mount -t proc proc /proc
if mount -t hostfs none "\$1" -o "\$1"; then
	cd "\$3" 2>/dev/null || cd /
	$cmd </dev/null >"\$2/out" 2>"\$2/err"
	echo \$? >"\$2/status"
fi
echo o >/proc/sysrq-trigger
sleep 10
INIT
chmod +x "$work/init"

# The guest is a group of host processes (the kernel, its helpers, one per
# guest address space) in a process group of its own, whose id is $pid:
# SIGTERM makes the kernel clean up, but helpers it leaves behind (seen when
# it was busy) go with the group, and so does anything left after a
# power-off.
setsid linux mem=512M root=/dev/root rootfstype=hostfs rootflags=/ ro quiet \
	init="$work/init" con0=fd:0,fd:1 con=null </dev/null >"$work/console" 2>&1 &
pid=$!
# shellcheck disable=SC2317 # (called by the trap)
stop() {
	kill -TERM "$pid" 2>/dev/null
	sleep 1
	kill -KILL -- -"$pid" 2>/dev/null
}
trap stop TERM INT HUP
while :; do
	wait "$pid"
	kill -0 "$pid" 2>/dev/null || break
done
kill -KILL -- -"$pid" 2>/dev/null
if [ ! -s "$work/status" ]; then
	echo "peer-uml.sh: the guest reported no status; its console ends:" >&2
	tail -5 "$work/console" >&2
	exit 125
fi
cat "$work/out"
cat "$work/err" >&2
exit "$(cat "$work/status")"
