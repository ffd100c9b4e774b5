#!/bin/bash
# The guest's network devices as tools see them: `ip addr`, `ip link`,
# `ip route show table all`, `ip -6 route show table all`, `ip neigh`,
# `ip -s link`, `ip -d link`, `ip -6 addr`, `ip rule`, `ip route get`,
# `ip maddr` and `hostname -I` inside skas print what they print
# natively in a fresh network namespace with lo up (`unshare --net`), the
# oracle. Then what only skas can say (natively as root they would change
# the namespace): a change that changes nothing succeeds (`ip link set lo
# up`, SIOCSIFFLAGS with lo's flags, SIOCSIFMTU of its MTU, SIOCSIFADDR of
# 127.0.0.1), SIOCSIFFLAGS takes lo down and up again, SIOCSIFADDR of no
# family is EINVAL, and any other change is EOPNOTSUPP
# ("RTNETLINK answers: Operation not supported"). One TAP line each.
# netstat -tuln and -i (from /proc/net) as natively too, and rtnetlink's
# notifications of lo's changes in a new namespace.
set -u
. "$(dirname "$0")/common.bash"

run() { timeout -k 5 60 "$SKAS" run -- "$@" 2>&1; }

IP=$(command -v ip)
if [ -z "$IP" ] || ! unshare --net true 2>/dev/null; then
	check "ip and unshare --net (missing: skipped)" "" ""
	summary
	exit
fi

for cmd in "ip addr" "ip link" "ip route show table all" "ip -6 route show table all" \
	"ip route" "ip neigh" "ip -s link" "ip -d link" "ip -6 addr" "ip -6 link" \
	"ip -4 addr show dev lo" "hostname -I" "ip rule" "ip -6 rule" "ip route get 127.0.0.1" \
	"ip -6 route get ::1" "ip route get 8.8.8.8" "ip maddr"; do
	# shellcheck disable=SC2086
	want=$(unshare --net sh -c "ip link set lo up && $cmd" 2>&1)
	# shellcheck disable=SC2086
	got=$(run $cmd)
	check "$cmd: as in unshare --net" "$want" "$got"
done

# rtnetlink's notifications of lo's changes (what `ip monitor` shows) in a
# new namespace: bwrap's order (the address, then up), down, up again; and
# up at once. The types, families, prefixes and flags, as natively.
if [ -x /usr/bin/python3 ]; then
	prog='import socket, struct, subprocess, select, sys
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
s.bind((0, 1 | 1 << 4 | 1 << 6 | 1 << 8 | 1 << 10)) # link, IPv4/6 addresses and routes
def drain():
    out = []
    while select.select([s], [], [], 0.5)[0]:
        d = s.recv(65536)
        while len(d) >= 16:
            ln, ty = struct.unpack("IH", d[:6])
            b = d[16:ln]
            if ty == 16:
                out.append("link %#x" % (struct.unpack("BxHiII", b[:16])[3] & 0x10041))
            elif ty in (20, 21):
                out.append("%s %d/%d" % ("+addr" if ty == 20 else "-addr", b[0], b[1]))
            elif ty in (24, 25):
                out.append("%s %d/%d %d" % ("+route" if ty == 24 else "-route", b[0], b[1], b[7]))
            else:
                out.append("type %d" % ty)
            d = d[(ln + 3) & ~3:]
    return out
steps = ["addr add 127.0.0.1/8 dev lo", "link set lo up", "link set lo down", "link set lo up"]
for step in steps[int(sys.argv[1]):]:
    subprocess.run(["ip"] + step.split())
    print(step + ":", "; ".join(drain()))'
	for first in 0 1; do
		want=$(unshare --net /usr/bin/python3 -c "$prog" $first 2>&1)
		got=$(run unshare --net /usr/bin/python3 -c "$prog" $first)
		check "ip monitor's notifications of lo in a new namespace (from step $first): as natively" \
			"$want" "$got"
	done
fi

# netstat reads /proc/net: a listener and a bound UDP socket as natively
if command -v netstat >/dev/null && [ -x /usr/bin/python3 ]; then
	prog='import socket, subprocess
s = socket.socket(); s.bind(("127.0.0.1", 8080)); s.listen()
u = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM); u.bind(("::1", 5353))
subprocess.run(["netstat", "-tuln"])
subprocess.run(["netstat", "-i"])'
	want=$(unshare --net sh -c 'ip link set lo up && exec python3 -c "$0"' "$prog" 2>&1)
	got=$(run /usr/bin/python3 -c "$prog")
	check "netstat -tuln, netstat -i: as in unshare --net" "$want" "$got"
fi

check "ip link set lo up: nothing to change" "0" "$(run "$IP" link set lo up; echo $?)"
check "ip addr add: EOPNOTSUPP" "RTNETLINK answers: Operation not supported 2" \
	"$(echo $(run "$IP" addr add 10.1.2.3/8 dev lo; echo $?))"
check "ip link set lo mtu 1500 (by SIOCSIFMTU): EOPNOTSUPP" "SIOCSIFMTU: Operation not supported 1" \
	"$(echo $(run "$IP" link set lo mtu 1500; echo $?))"
check "ip route add: EOPNOTSUPP" "RTNETLINK answers: Operation not supported 2" \
	"$(echo $(run "$IP" route add 10.0.0.0/8 dev lo; echo $?))"

if [ -x /usr/bin/python3 ]; then
	out=$(run /usr/bin/python3 -c '
import errno, fcntl, socket, struct
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
def ioc(cmd, val):
    try:
        fcntl.ioctl(s.fileno(), cmd, struct.pack("16si20x", b"lo", val))
        return "ok"
    except OSError as e:
        return errno.errorcode[e.errno]
flags = struct.unpack("16sh", fcntl.ioctl(s.fileno(), 0x8913, struct.pack("16s24x", b"lo"))[:18])[1]
def up():
    f = struct.unpack("16sh", fcntl.ioctl(s.fileno(), 0x8913, struct.pack("16s24x", b"lo"))[:18])[1]
    return "up" if f & 1 else "down"
print(ioc(0x8914, flags))          # SIOCSIFFLAGS, the same
print(ioc(0x8914, flags & ~1), up())  # down
print(ioc(0x8914, flags), up())    # up again
print(ioc(0x8914, flags | 0x100))  # IFF_PROMISC
print(ioc(0x8922, 65536))          # SIOCSIFMTU, the same
print(ioc(0x8922, 1500))
print(ioc(0x8943, 1000))           # SIOCSIFTXQLEN, the same
print(ioc(0x8916, 0))              # SIOCSIFADDR, no family
def setaddr(a):
    try:
        fcntl.ioctl(s.fileno(), 0x8916, struct.pack("16sH2s4s16x", b"lo", socket.AF_INET, b"", socket.inet_aton(a)))
        return "ok"
    except OSError as e:
        return errno.errorcode[e.errno]
print(setaddr("127.0.0.1"))        # the address lo has: no change
print(setaddr("10.1.2.3"))
')
	check "setters: the same ok, lo down and up, others EOPNOTSUPP (ENOTSUP to python)" \
		"ok ok down ok up ENOTSUP ok ENOTSUP ok EINVAL ok ENOTSUP" "$(echo $out)"
fi

summary
