#!/usr/bin/env bash
# bench/peer-runsc.sh CMD [ARGS...]: runs CMD in a gVisor sandbox (runsc; the
# "runsc" column of `make bench-peers`) and exits with its status.
#
# `runsc do` starts a sandbox whose root is the host's / read-only under a
# writable tmpfs overlay (writes never reach the host), as root, in the
# current directory, with this script's environment, without a network.
# The platform is ptrace (BENCH_RUNSC_PLATFORM overrides it): Debian's runsc
# also has kvm, which needs /dev/kvm and prints nothing in a nested VM.
# Each run boots a sandbox (~150 ms): bench/run.sh times its commands from
# inside. stdin is /dev/null. runsc's stdout and stderr go through a pipe to
# cat: on a terminal runsc sets up a console and mangles the output, and a
# regular file it writes from offset 0 whatever the caller's offset.
# SIGTERM/SIGINT/SIGHUP (timeout(1)) are passed on to runsc.
set -u
if [ $# -eq 0 ]; then
	echo "usage: peer-runsc.sh CMD [ARGS...]" >&2
	exit 2
fi
exec 3> >(exec cat)
cat1=$!
exec 4> >(exec cat >&2)
cat2=$!
runsc --network=none --platform="${BENCH_RUNSC_PLATFORM:-ptrace}" "do" -quiet "$@" \
	</dev/null >&3 2>&4 3>&- 4>&- &
pid=$!
exec 3>&- 4>&-
trap 'kill -TERM "$pid" 2>/dev/null' TERM INT HUP
while :; do
	wait "$pid"
	rc=$?
	kill -0 "$pid" 2>/dev/null || break
done
wait "$cat1" "$cat2" # their last output is out before we exit
exit "$rc"
