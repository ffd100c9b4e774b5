#!/bin/bash
# IP networking inside skas: a loopback-only network namespace of the
# instance. python3's http.server answers urllib on 127.0.0.1 and on
# localhost (/etc/hosts), busybox nc and httpd serve on 127.0.0.1, every
# destination off loopback is ENETUNREACH and every address off it
# EADDRNOTAVAIL (which natively depends on the host's network, hence
# here), a port a guest listens on is not open on the host, ephemeral
# port exhaustion gives Linux's errors (bind EADDRINUSE, UDP EAGAIN, TCP
# connect EADDRNOTAVAIL, listen EADDRINUSE; natively it would take the
# host's ports), and socket buffers stay within an eighth of --memory
# whatever SO_RCVBUFFORCE/SO_SNDBUFFORCE say. One TAP line each.
set -u
. "$(dirname "$0")/common.bash"

run() { timeout -k 5 60 "$SKAS" run -- "$@" 2>&1; }

if [ -x /usr/bin/python3 ]; then
	out=$(run /bin/sh -c '
cd /etc || exit 1
python3 -m http.server 0 --bind 127.0.0.1 >/tmp/srv.log 2>&1 &
i=0
while [ $i -lt 200 ]; do
	port=$(sed -n "s/.* port \([0-9]*\) .*/\1/p" /tmp/srv.log)
	[ -n "$port" ] && break
	sleep 0.05; i=$((i + 1))
done
python3 -c "
import urllib.request
for host in (\"127.0.0.1\", \"localhost\"):
    r = urllib.request.urlopen(\"http://%s:$port/hostname\" % host)
    print(r.status, r.read() == open(\"/etc/hostname\", \"rb\").read())
"
kill $!
wait $! 2>/dev/null
grep -c "GET /hostname" /tmp/srv.log')
	check "python3 http.server on 127.0.0.1 serves urllib (127.0.0.1, localhost)" \
		"200 True 200 True 2" "$(echo $out)"
else
	check "python3 http.server (no python3: skipped)" "" ""
fi

if command -v busybox >/dev/null 2>&1; then
	out=$(run /bin/sh -c '
mkdir -p /tmp/www && echo "hello from httpd" >/tmp/www/index.html
busybox httpd -f -p 127.0.0.1:8080 -h /tmp/www &
i=0
until busybox wget -q -O - http://127.0.0.1:8080/index.html 2>/dev/null; do
	i=$((i + 1)); [ $i -gt 100 ] && break; sleep 0.05
done
kill $!
# Each side reads what it sends from a file, not a pipe: busybox nc ends
# at the network EOF, and an echo behind a pipe can come too late for that
# (the other side has said its line and shut down meanwhile), a race of the
# check, not of skas, seen under load.
echo "nc says hi" >/tmp/nc.srv
echo "client says hi" >/tmp/nc.cli
busybox nc -l -p 9090 127.0.0.1 </tmp/nc.srv >/tmp/nc.out &
i=0
until busybox nc 127.0.0.1 9090 </tmp/nc.cli 2>/dev/null; do
	i=$((i + 1)); [ $i -gt 100 ] && break; sleep 0.05
done
wait
cat /tmp/nc.out')
	check "busybox httpd and nc on 127.0.0.1 (fixed ports: the instance's own network)" \
		"hello from httpd nc says hi client says hi" "$(echo $out)"
fi

if [ -x /usr/bin/python3 ]; then
	out=$(run /usr/bin/python3 -c '
import errno, socket
def err(f):
    try:
        f()
        return "ok"
    except OSError as e:
        return errno.errorcode[e.errno]
t = socket.socket()
print(err(lambda: t.connect(("8.8.8.8", 53))))
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
print(err(lambda: u.sendto(b"x", ("10.0.0.1", 53))))
print(err(lambda: u.connect(("192.168.1.1", 53))))
s6 = socket.socket(socket.AF_INET6)
print(err(lambda: s6.connect(("2001:4860:4860::8888", 53))))
print(err(lambda: socket.socket().bind(("8.8.8.8", 0))))
print(err(lambda: socket.socket(socket.AF_INET6).bind(("fe80::1", 0))))
print(err(lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW)))
print(err(lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW)))
print(err(lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)))
')
	check "off loopback: ENETUNREACH, EADDRNOTAVAIL; no packet sockets; netlink's route only" \
		"ENETUNREACH ENETUNREACH ENETUNREACH ENETUNREACH EADDRNOTAVAIL EADDRNOTAVAIL EAFNOSUPPORT ok EPROTONOSUPPORT" \
		"$(echo $out)"

	# The guest listens and waits on stdin; the host looks for the port.
	coproc G { timeout -k 5 60 "$SKAS" run -- /usr/bin/python3 -c '
import socket, sys
s = socket.socket()
s.bind(("0.0.0.0", 0))
s.listen()
print(s.getsockname()[1], flush=True)
sys.stdin.read()
' 2>&1; }
	read -r port <&"${G[0]}"
	hex=$(printf '%04X' "${port:-0}")
	open=$(awk -v p=":$hex" 'substr($2, length($2) - 4) == p && $4 == "0A"' \
		/proc/net/tcp /proc/net/tcp6 | wc -l)
	exec {G[1]}>&-
	wait "$G_PID" 2>/dev/null
	check "a guest's listening port is not open on the host" "0" "$open"
fi

if [ -x /usr/bin/python3 ]; then
	out=$(timeout -k 5 120 "$SKAS" run --nofile=70000 -- /usr/bin/python3 -c '
import socket, errno, resource
resource.setrlimit(resource.RLIMIT_NOFILE, (70000, 70000))
def err(f):
    try:
        f()
        return "ok"
    except OSError as e:
        return errno.errorcode[e.errno]
out = []
for typ in (socket.SOCK_DGRAM, socket.SOCK_STREAM):
    held = []
    while True:
        s = socket.socket(socket.AF_INET, typ)
        try:
            s.bind(("127.0.0.1", 0))
        except OSError as e:
            out += [len(held), errno.errorcode[e.errno]]
            break
        held.append(s)
    c = socket.socket(socket.AF_INET, typ)
    if typ == socket.SOCK_DGRAM:
        out.append(err(lambda: c.sendto(b"x", ("127.0.0.1", 9))))
    out.append(err(lambda: c.connect(("127.0.0.1", 9))))
    if typ == socket.SOCK_STREAM:
        out.append(err(lambda: c.listen()))
    for s in held:
        s.close()
print(*out)
' 2>&1)
	check "ephemeral ports used up: bind, UDP sendto/connect, TCP connect/listen" \
		"28232 EADDRINUSE EAGAIN EAGAIN 28232 EADDRINUSE EADDRNOTAVAIL EADDRINUSE" "$out"

	# 20 UDP sockets of SO_RCVBUFFORCE 32 MB each, flooded, then a stream
	# of SO_SNDBUFFORCE 32 MB: at most 256M / 8 = 32 MB is ever queued.
	out=$(timeout -k 5 120 "$SKAS" run --memory=256M -- /usr/bin/python3 -c '
import socket, errno
socks = []
tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(20):
    r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    r.setsockopt(socket.SOL_SOCKET, 33, 16000000)  # SO_RCVBUFFORCE
    r.bind(("127.0.0.1", 0))
    socks.append(r)
data = b"x" * 60000
for r in socks:
    for j in range(540):
        tx.sendto(data, r.getsockname())
a, b = socket.socketpair()
a.setsockopt(socket.SOL_SOCKET, 32, 16000000)  # SO_SNDBUFFORCE
a.setblocking(False)
try:
    while True:
        a.send(data)
except OSError as e:
    stop = errno.errorcode[e.errno]
queued = 0
for r in socks:
    r.setblocking(False)
    try:
        while True:
            queued += len(r.recv(65536))
    except BlockingIOError:
        pass
print(queued <= 32 << 20, stop)
' 2>&1)
	check "socket buffers within an eighth of --memory (UDP dropped, stream ENOBUFS)" \
		"True ENOBUFS" "$out"
fi

# ping: root's raw ICMP sockets (IPv4 and IPv6), an unreachable address,
# and nobody's ping sockets once ping_group_range lets everyone; the same
# output as natively in a network namespace with only lo (times aside).
# traceroute: UDP probes answered by ICMP port unreachable (read from the
# error queue, IP_RECVERR), and ICMP echo probes (-I); one probe at a time
# (-N 1): with 16 at once it waits for a hop's other answers 3 round trips
# long, which a guest's slower system calls can overrun.
if command -v ping >/dev/null 2>&1 && command -v unshare >/dev/null 2>&1 &&
	command -v traceroute >/dev/null 2>&1; then
	pings='ping -c 2 -i 0.2 127.0.0.1; ping -6 -c 1 ::1; ping -c 1 -W 1 10.9.9.9; echo "rc=$?"
echo "0 2147483647" >/proc/sys/net/ipv4/ping_group_range
setpriv --reuid=65534 --regid=65534 --clear-groups ping -c 1 127.0.0.3
setpriv --reuid=65534 --regid=65534 --clear-groups ping -6 -c 1 ::1
busybox ping -c 1 127.0.0.1
traceroute -N 1 127.0.0.1; traceroute -N 1 -6 ::1; traceroute -N 1 -I 127.0.0.1'
	mask() { sed -E 's/time=[0-9.]+ ms/time=T ms/; s/time [0-9]+ms/time Tms/; s#= [0-9./]+ ms#= R ms#; s/  [0-9.]+ ms/  T ms/g'; }
	native=$(unshare --net sh -c "ip link set lo up; $pings" 2>&1 | mask)
	inside=$(run /bin/sh -c "$pings" | mask)
	check "ping, busybox ping and traceroute on loopback print as natively" "$native" "$inside"

	# ss lists raw sockets (from /proc/net/raw and raw6), and
	# /proc/net/icmp and icmp6 the ping sockets, as natively (each line's
	# fields from the local address to the timeout: the first column is
	# a random hash bucket on Linux, the inode and pointer its own)
	socks='echo "0 0" >/proc/sys/net/ipv4/ping_group_range
python3 -c "
import socket, subprocess
r = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
r6 = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
c = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
c.connect((\"127.0.0.2\", 0))
p = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_ICMP)
p.bind((\"127.0.0.1\", 77))
p6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM, socket.IPPROTO_ICMPV6)
p6.bind((\"::1\", 78))
for f in (\"raw\", \"raw6\", \"icmp\", \"icmp6\"):
    for l in open(\"/proc/net/\" + f).read().splitlines()[1:]:
        print(f, \" \".join(l.split()[1:9]))
print(subprocess.run([\"ss\", \"-wan\"], capture_output=True, text=True).stdout)
"'
	native=$(unshare --net sh -c "ip link set lo up; $socks" 2>&1)
	inside=$(run /bin/sh -c "$socks")
	check "ss -w and /proc/net/raw, raw6, icmp, icmp6 as natively" "$native" "$inside"
else
	check "ping (no ping, traceroute or unshare: skipped)" "" ""
fi

summary
