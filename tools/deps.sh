#!/bin/sh
# Installs the Debian packages skas builds and tests with, when run as root;
# otherwise prints the exact apt-get line. Quiet when everything is there.
# With "fuzz": also what `make fuzz` needs (clang, trinity).
need=""
command -v gcc >/dev/null 2>&1 || need="$need gcc"
command -v make >/dev/null 2>&1 || need="$need make"
command -v musl-gcc >/dev/null 2>&1 || need="$need musl-tools"
[ -f /usr/include/seccomp.h ] || need="$need libseccomp-dev"
command -v busybox >/dev/null 2>&1 || need="$need busybox"
command -v clang-format >/dev/null 2>&1 || need="$need clang-format"
command -v tmux >/dev/null 2>&1 || need="$need tmux"
[ -x /usr/bin/python3 ] || need="$need python3"
command -v gdb >/dev/null 2>&1 || need="$need gdb"
command -v script >/dev/null 2>&1 || need="$need bsdutils" # script(1): tests/scenario/tty.sh
command -v expect >/dev/null 2>&1 || need="$need expect" # tests/scenario/tty.sh
command -v screen >/dev/null 2>&1 || need="$need screen" # tests/scenario/tty.sh
command -v valgrind >/dev/null 2>&1 || need="$need valgrind"
command -v perf >/dev/null 2>&1 || need="$need linux-perf" # tests/scenario/hostcalls.sh
command -v pgrep >/dev/null 2>&1 || need="$need procps" # pgrep, ps: tests/scenario/*.sh
command -v flock >/dev/null 2>&1 || need="$need util-linux" # flock: tests/guest/run.sh -j
command -v strace >/dev/null 2>&1 || need="$need strace" # tests/scenario/ptrace.sh: strace inside
command -v ip >/dev/null 2>&1 || need="$need iproute2" # netns tests, tests/scenario/netdev.sh
command -v git >/dev/null 2>&1 || need="$need git" # tests/scenario/vfs.sh: git clone inside
command -v ping >/dev/null 2>&1 || need="$need iputils-ping" # tests/scenario/inet.sh
command -v traceroute >/dev/null 2>&1 || need="$need traceroute" # tests/scenario/inet.sh
command -v bwrap >/dev/null 2>&1 || need="$need bubblewrap" # tests/scenario/namespaces.sh
# `tools/deps.sh fuzz` (make fuzz): clang for libFuzzer, trinity if Debian has it.
if [ "${1:-}" = fuzz ]; then
	command -v clang >/dev/null 2>&1 || need="$need clang"
	command -v trinity >/dev/null 2>&1 || [ ! -x /usr/bin/apt-cache ] ||
		! apt-cache show trinity >/dev/null 2>&1 || need="$need trinity"
fi
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "skas: installing:$need"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null && apt-get install -y -q $need >/dev/null || {
		echo "skas: apt-get install failed:$need" >&2
		exit 1
	}
else
	echo "skas: missing packages; run: sudo apt-get install -y$need" >&2
	exit 1
fi
