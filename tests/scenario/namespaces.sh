#!/bin/bash
# Namespaces with the real tools inside skas: unshare(1) of UTS, mount
# (its default --propagation private) and IPC namespaces, nsenter(1) into
# another process's namespaces, lsns(1) and readlink of /proc/self/ns,
# unshare --net and bwrap --unshare-net (which sets up its lo by
# rtnetlink), unshare --cgroup, unshare --pid, unshare -r (user
# namespaces, as root and as nobody, compared with the host), bwrap
# --unshare-pid and --unshare-all (as root and as nobody), and unshare
# --time with offsets (compared with the host). One TAP line each.
set -u
. "$(dirname "$0")/common.bash"

run() { timeout -k 5 60 "$SKAS" run -- "$@" 2>&1; }

if ! command -v unshare >/dev/null || ! command -v nsenter >/dev/null ||
	! command -v lsns >/dev/null; then
	echo "ok 1 # skip: util-linux's unshare, nsenter, lsns missing"
	exit 0
fi

out=$(run /bin/sh -c 'readlink /proc/self/ns/uts /proc/self/ns/mnt /proc/self/ns/net /proc/self/ns/pid_for_children')
check "readlink /proc/self/ns/*: Linux's numbers of the initial namespaces" \
	"uts:[4026531838] mnt:[4026531832] net:[4026531833] pid:[4026531836]" "$(echo $out)"

out=$(run /bin/sh -c 'unshare -u sh -c "hostname inner; hostname"; hostname')
check "unshare -u: hostname in the child, the parent keeps its own" "inner skas" "$(echo $out)"

out=$(run /bin/sh -c 'unshare -m sh -c "mount -t tmpfs x /mnt && echo hi > /mnt/f && cat /mnt/f && grep -c \" /mnt tmpfs\" /proc/self/mounts"; test -e /mnt/f; echo $?; grep -c " /mnt tmpfs" /proc/self/mounts')
check "unshare -m: a tmpfs on /mnt in the child only" "hi 1 1 0" "$(echo $out)"

out=$(run /bin/sh -c 'a=$(readlink /proc/self/ns/mnt); b=$(unshare -m readlink /proc/self/ns/mnt); c=$(unshare -m readlink /proc/self/ns/uts); [ "$a" != "$b" ] && echo new-mnt; [ "$c" = "$(readlink /proc/self/ns/uts)" ] && echo same-uts')
check "unshare -m: a new mount namespace, the same UTS one" "new-mnt same-uts" "$(echo $out)"

# a process in namespaces of its own, entered by nsenter: a fifo says when
# it has set them up (no sleep)
out=$(run /bin/bash -c '
mkfifo /tmp/ready
unshare -u -m sh -c "hostname held; mount -t tmpfs y /srv; touch /srv/z; echo > /tmp/ready; exec sleep 1000" &
q=$!
read < /tmp/ready
nsenter -t $q -m -u sh -c "hostname; ls /srv"
hostname; ls /srv | wc -l
lsns -n -t uts -o NS | wc -l
lsns -n -t mnt -o NS | wc -l
kill $q; wait')
check "nsenter -t PID -m -u: its hostname and mounts; ours unchanged; lsns counts both" \
	"held z skas 0 2 2" "$(echo $out)"

out=$(run /bin/sh -c 'lsns -n -o TYPE | sort | tr "\n" " "')
check "lsns: the eight types" "cgroup ipc mnt net pid time user uts " "$out"

if command -v ipcmk >/dev/null && command -v ipcs >/dev/null; then
	out=$(run /bin/sh -c 'ipcmk -Q >/dev/null; unshare -i sh -c "ipcs -q | grep -c ^0x; ipcmk -M 4096 >/dev/null; ipcs -m | grep -c ^0x"; ipcs -q | grep -c ^0x; ipcs -m | grep -c ^0x')
	check "unshare -i: an empty IPC namespace; ours keeps its queue, not the child's segment" \
		"0 1 1 0" "$(echo $out)"
fi

# time namespaces: the offsets set by unshare(1), then read by a shell, by
# Python through the vDSO and by date(1)'s uptime, as natively
timens_cmd='unshare -fT --monotonic 5000 --boottime 100000 sh -c "cat /proc/self/timens_offsets; python3 -c \"import time; print(5000 < time.monotonic() < 6000000, 100000 < time.clock_gettime(time.CLOCK_BOOTTIME) < 10000000)\"; awk \"{ print (\\\$1 >= 100000) }\" /proc/uptime; readlink /proc/self/ns/time | grep -vc 4026531834"; unshare -T --monotonic 7 sh -c "grep monotonic /proc/self/timens_offsets"'
want=$(sh -c "$timens_cmd" 2>&1)
out=$(run /bin/sh -c "$timens_cmd")
check "unshare --time --monotonic --boottime: as natively" "$(echo $want)" "$(echo $out)"

# user namespaces, as root and as nobody (setpriv), against the same
# commands natively
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
userns_cmds='unshare -r sh -c "id -u; id -g; cat /proc/self/uid_map /proc/self/setgroups; stat -c %u /etc/passwd"
unshare -rm sh -c "mount -t tmpfs x /mnt && stat -c %u /mnt && umount /mnt && echo unmounted"
unshare -rn sh -c "ip link set lo up && ping -c1 -W2 127.0.0.1 >/dev/null && echo ping"
unshare -ru sh -c "hostname box && hostname"
unshare -r sh -c "echo x >> /etc/passwd" 2>/dev/null || echo refused'
want=$(printf '%s\n' "$userns_cmds" | nobody sh 2>&1)
out=$(run setpriv --reuid=65534 --regid=65534 --clear-groups /bin/sh -c "$userns_cmds" 2>&1)
check "unshare -r, -rm, -rn, -ru as nobody: as natively" "$(echo $want)" "$(echo $out)"
want=$(printf '%s\n' "$userns_cmds" | sh 2>&1)
out=$(run /bin/sh -c "$userns_cmds" 2>&1)
check "the same as root: as natively" "$(echo $want)" "$(echo $out)"

out=$(run /bin/sh -c "unshare -fp --mount-proc sh -c 'echo \$\$; ps -o pid=,ppid=,comm=; true'")
check "unshare -fp --mount-proc: the shell is 1, ps 2, and proc shows no other" \
	"1 1 0 sh 2 1 ps" "$(echo $out)"

out=$(run /bin/sh -c 'unshare -fp sh -c "sleep 100 & echo started"; pgrep -x sleep | wc -l')
check "unshare -fp: the namespace's processes die with its init, before unshare returns" \
	"started 0" "$(echo $out)"

out=$(run /bin/sh -c 'a=$(readlink /proc/self/ns/cgroup); b=$(unshare --cgroup readlink /proc/self/ns/cgroup);
	[ "$a" != "$b" ] && echo other; unshare --cgroup cat /proc/self/cgroup')
check "unshare --cgroup: a namespace of its own, rooted at the one cgroup" "other 0::/" "$(echo $out)"

out=$(run /bin/sh -c 'a=$(readlink /proc/self/ns/net); b=$(unshare --net readlink /proc/self/ns/net);
	[ "$a" != "$b" ] && echo other; unshare --net cat /sys/class/net/lo/ifindex /proc/net/if_inet6')
check "unshare --net: a namespace of its own, lo there and down (no ::1)" "other 1" "$(echo $out)"

if command -v bwrap >/dev/null; then
	out=$(run bwrap --ro-bind / / --dev /dev --proc /proc --unshare-net --unshare-cgroup-try \
		-- /bin/sh -c 'cat /proc/net/if_inet6; ping -c1 -W2 127.0.0.1 >/dev/null && echo ping')
	check "bwrap --unshare-net --unshare-cgroup-try: lo given 127.0.0.1 and brought up" \
		"00000000000000000000000000000001 01 80 10 80 lo ping" "$(echo $out)"
else
	check "bwrap --unshare-net (missing: skipped)" "" ""
fi

if command -v bwrap >/dev/null; then
	out=$(run bwrap --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --unshare-user-try \
		--unshare-uts --hostname box -- /bin/sh -c 'hostname; ls /dev/pts')
	check "bwrap --unshare-user-try --unshare-uts --dev --proc --tmpfs" \
		"box ptmx" "$(echo $out)"
else
	check "bwrap (missing: skipped)" "" ""
fi

if command -v bwrap >/dev/null; then
	out=$(run bwrap --unshare-pid --ro-bind / / --dev /dev --proc /proc \
		-- /bin/sh -c 'echo $$; ps -o pid=,comm=; true')
	check "bwrap --unshare-pid: bwrap is the namespace's init, the shell 2" \
		"2 1 bwrap 2 sh 3 ps" "$(echo $out)"
	out=$(run bwrap --unshare-all --ro-bind / / --dev /dev --proc /proc --hostname box \
		-- /bin/sh -c 'hostname; echo $$; grep -c : /proc/net/dev')
	check "bwrap --unshare-all: hostname, pid, lo alone" \
		"box 2 1" "$(echo $out)"
	out=$(run setpriv --reuid=65534 --regid=65534 --clear-groups \
		bwrap --unshare-all --uid 1000 --gid 1000 --ro-bind / / --dev /dev --proc /proc \
		--tmpfs /tmp -- /bin/sh -c 'id -u; cat /proc/self/uid_map; hostname; echo $$')
	check "bwrap --unshare-all as nobody: user namespaces (uid 1000 in the inner one)" \
		"1000 1000 0 1 skas 2" "$(echo $out)"
else
	check "bwrap --unshare-pid (missing: skipped)" "" ""
fi

summary
