#!/bin/bash
# ss (NETLINK_SOCK_DIAG and /proc/net/sockstat, snmp) inside skas prints
# what it prints natively in a fresh network namespace with lo up
# (`unshare --net`), the oracle: a python program makes TCP listeners
# (IPv4 and IPv6), a connection with unread data, UDP sockets and AF_UNIX
# ones, then runs ss -tln, -tlnp, -tan, -uan, -xa, -s, the filters
# `sport = :8123`, `dst 127.0.0.1` and `-tn state established`, -tlne
# and -tnm, `python3 -m http.server` as a server's listener, and ss -K
# aborting a connection.
# Normalised, as they must differ: ephemeral ports, pids, inodes and
# socket cookies (ino:, sk:), and the columns' widths that follow them;
# the rows' order (Linux lists by hash); -e's cgroup (skas's sockets carry
# no cgroup id); -m's socket memory (skas's own
# buffers and sizes, where Linux autotunes); ss -s's TCP total and
# "closed" (Linux's TCP alloc counts the host's every TCP socket, not the
# namespace's) and its Total (the namespace's sockets, which Linux frees
# after an RCU grace period).
set -u
. "$(dirname "$0")/common.bash"

run() { timeout -k 5 60 "$SKAS" run -- "$@" 2>&1; }

if ! command -v ss >/dev/null || ! unshare --net true 2>/dev/null || [ ! -x /usr/bin/python3 ]; then
	check "ss, python3 and unshare --net (missing: skipped)" "" ""
	summary
	exit
fi

prog='import os, re, socket, subprocess, sys, tempfile
known = {"8123", "8124", "5353", "5354", "0", "*"}
def norm(line):
    orig = line
    line = re.sub(r"pid=\d+", "pid=N", line)
    line = re.sub(r"(ino|sk):\S+", r"\1:X", line)
    line = re.sub(r" cgroup:\S+", "", line)
    line = re.sub(r"skmem:\(.*\)", "skmem:(M)", line)
    def port(m):
        return m.group(1) + (m.group(2) if m.group(2) in known else "EPH")
    line = re.sub(r"(\S*[\]\d\*]:)(\d+|\*)(?=\s|$)", port, line)
    f = line.split()
    if f and f[0] in ("u_str", "u_dgr", "u_seq"):
        # Local Address:Port and Peer are "name inode" and "peer inode"
        f[5] = "INO" if f[5] != "0" else "0"
        f[7] = "INO" if f[7] != "0" else "0"
        line = " ".join(f)
    line = re.sub(r"^Total: \d+", "Total: N", line)
    line = re.sub(r"^TCP:   \d+ \(estab (\d+), closed \d+", r"TCP:   N (estab \1, closed C", line)
    if line != orig and not line.startswith(("Total", "TCP:")):
        line = " ".join(line.split())  # columns as wide as what was normalised
    return line
def ss(args):
    out = subprocess.run(["ss"] + args.split(), capture_output=True, text=True)
    lines = (out.stdout + out.stderr).splitlines() or [""]
    print("$ ss " + args)
    if args.startswith("-s"):
        print("\n".join(norm(l) for l in lines))
        return
    # the header widths follow the rows (pids, inodes, paths)
    print(" ".join(lines[0].split()).replace("PortProcess", "Port Process"))
    print("\n".join(sorted(norm(l.replace(d, "DIR")) for l in lines[1:])))
l = socket.socket()
l.bind(("0.0.0.0", 8123))
l.listen(5)
c = socket.create_connection(("127.0.0.1", 8123))
s, _ = l.accept()
c.send(b"hello")
l6 = socket.socket(socket.AF_INET6)
l6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
l6.bind(("::1", 8124))
l6.listen(3)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.bind(("127.0.0.1", 5353))
u6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
u6.bind(("::1", 5354))
u6.connect(("::1", 5354))
d = tempfile.mkdtemp()
x = socket.socket(socket.AF_UNIX)
x.bind(d + "/sock")
x.listen(2)
xc = socket.socket(socket.AF_UNIX)
xc.connect(d + "/sock")
xs, _ = x.accept()
xa = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
xa.bind("\0ssdiag")
for a in ["-tln", "-tlnp", "-tan", "-uan", "-xa", "-s", "-tn sport = :8123",
          "-tan dst 127.0.0.1", "-tn state established", "-tlne", "-tnm", "-t6ln",
          "-4tan", "-tan sport gt :8123"]:
    ss(a)
os.unlink(d + "/sock")
os.rmdir(d)'

want=$(unshare --net sh -c 'ip link set lo up && exec python3 -c "$0"' "$prog" 2>&1)
got=$(run /usr/bin/python3 -c "$prog")
while IFS= read -r cmd; do
	w=$(printf '%s\n' "$want" | awk -v c="$cmd" '/^\$ /{on = ($0 == c)} on')
	g=$(printf '%s\n' "$got" | awk -v c="$cmd" '/^\$ /{on = ($0 == c)} on')
	check "${cmd#\$ }: as in unshare --net" "$w" "$g"
done < <(printf '%s\n' "$want" | grep '^\$ ')

# a server's own listener: `python3 -m http.server` binds 0.0.0.0 as natively
srv='python3 -m http.server 8125 >/dev/null 2>&1 & i=0; until ss -tln | grep -q 8125 || [ $i -ge 60 ]; do sleep 0.5; i=$((i + 1)); done; ss -tln; kill $!'
want=$(unshare --net sh -c "ip link set lo up && $srv" 2>&1)
got=$(run /bin/sh -c "$srv")
check "python3 -m http.server: ss -tln as in unshare --net" "$want" "$got"

# ss -K (SOCK_DESTROY): the connection aborted, its peer reset
kill='import re, socket, subprocess
l = socket.socket(); l.bind(("127.0.0.1", 8123)); l.listen(5)
c = socket.create_connection(("127.0.0.1", 8123)); s = l.accept()[0]
out = subprocess.run(["ss", "-tnK", "dport = :8123"], capture_output=True, text=True)
print(re.sub(r":\d{5}\b", ":EPH", out.stdout + out.stderr))
for name, sk in (("client", c), ("server", s)):
    try:
        print(name, sk.recv(10))
    except OSError as e:
        print(name, e)
print(subprocess.run(["ss", "-tan"], capture_output=True, text=True).stdout)'
want=$(unshare --net sh -c 'ip link set lo up && exec python3 -c "$0"' "$kill" 2>&1)
got=$(run /usr/bin/python3 -c "$kill")
check "ss -tnK dport = :8123: as in unshare --net" "$want" "$got"

# netstat -s and nstat read /proc/net/snmp and netstat: no error
out=$(run /bin/sh -c 'netstat -s >/dev/null && echo netstat ok; nstat -a >/dev/null && echo nstat ok' 2>&1)
check "netstat -s and nstat read /proc/net" "netstat ok
nstat ok" "$out"

# netstat -p names the program of the first listener an instance makes
# (net-tools skips a "socket:[N]" link shorter than 11 characters: skas
# numbered sockets from 1)
if command -v netstat >/dev/null; then
	out=$(run /bin/sh -c 'python3 -c "import socket, time
s = socket.socket(); s.bind((\"127.0.0.1\", 8125)); s.listen(); time.sleep(30)" &
for i in 1 2 3 4 5 6 7 8 9 10; do
	netstat -tlnp 2>/dev/null | grep -q ":8125 " && break; sleep 0.5
done
netstat -tlnp 2>/dev/null | grep ":8125 " | awk "{print \$NF}"; kill $!')
	check "netstat -tlnp: the first listener's program" "python3" "${out#*/}"
fi

summary
