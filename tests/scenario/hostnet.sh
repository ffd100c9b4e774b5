#!/bin/bash
# --net=host: the guest's TCP and UDP sockets are host sockets. Servers
# on the host's 127.0.0.1 (a TCP echo, a UDP echo, an HTTP server, from
# python3) are reached from inside by python's urllib, curl, and a C
# client (tests/scenario/hostnet.c, built static) whose every line must
# be what it prints natively: blocking and non-blocking connect, poll and
# epoll, send/recv with MSG_WAITALL, MSG_PEEK, MSG_TRUNC, ECONNREFUSED,
# hostile addresses, EINTR/SA_RESTART/SO_RCVTIMEO of a blocked recv and
# accept; a host client reaches a guest's listener; the kernel's host fds
# come back to their count after many sockets (dup'd and fork'd) close;
# and without --net=host the host's server is not reachable
# (ECONNREFUSED: the instance's own loopback), nor from a new network
# namespace under --net=host, whose lo cannot be taken down. On every
# platform the host has. Needs no outside network.
set -u
. "$(dirname "$0")/common.bash"
scratch hostnet

if ! command -v python3 >/dev/null || ! command -v gcc >/dev/null; then
	echo "ok 1 - # SKIP needs python3 and gcc"
	exit 0
fi
if ! gcc -O1 -static -o "$tmp/hostnet" "$(dirname "$0")/hostnet.c" 2>"$tmp/cc.err"; then
	check "build hostnet.c" "" "$(cat "$tmp/cc.err")"
	summary
	exit
fi

mkdir -p "$tmp/www"
echo "hello from the host" >"$tmp/www/index.html"
cat >"$tmp/servers.py" <<'EOF'
import socket, socketserver, threading, http.server, sys, os
class Echo(socketserver.BaseRequestHandler):
    def handle(self):
        while True:
            d = self.request.recv(65536)
            if not d:
                break
            self.request.sendall(d)
class T(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True
class UEcho(socketserver.BaseRequestHandler):
    def handle(self):
        data, sock = self.request
        sock.sendto(data, self.client_address)
class Q(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):
        pass
os.chdir(sys.argv[1])
tcp = T(("127.0.0.1", 0), Echo)
udp = socketserver.ThreadingUDPServer(("127.0.0.1", 0), UEcho)
web = T(("127.0.0.1", 0), Q)
for s in (tcp, udp, web):
    threading.Thread(target=s.serve_forever, daemon=True).start()
c = socket.socket()          # a port nobody listens on
c.bind(("127.0.0.1", 0))
closed = c.getsockname()[1]
c.close()
print(tcp.server_address[1], udp.server_address[1], web.server_address[1], closed, flush=True)
threading.Event().wait()
EOF
python3 "$tmp/servers.py" "$tmp/www" >"$tmp/ports" 2>&1 </dev/null &
srv_pid=$!
trap 'kill $srv_pid 2>/dev/null; rm -rf "$tmp"' EXIT
for ((i = 0; i < 400; i++)); do
	[ -s "$tmp/ports" ] && read -r TCP UDP HTTP CLOSED <"$tmp/ports" && [ -n "$CLOSED" ] && break
	sleep 0.05
done

platforms="ptrace"
for p in seccomp sigsys; do
	"$SKAS" run --platform=$p -- /bin/true >/dev/null 2>&1 && platforms="$platforms $p"
done

run() { # PLATFORM ARGS...
	local p=$1
	shift
	timeout -k 5 60 "$SKAS" run --platform="$p" --net=host -- "$@" 2>&1
}

# The host client of a guest server: the guest says its port on stdout.
guest_server() { # PLATFORM
	local out=$tmp/serve.out i port
	: >"$out"
	timeout -k 5 60 "$SKAS" run --platform="$1" --net=host -- "$tmp/hostnet" serve \
		>"$out" 2>"$tmp/serve.err" &
	local pid=$!
	for ((i = 0; i < 400; i++)); do
		port=$(sed -n 's/^port \([0-9]*\)$/\1/p' "$out")
		[ -n "$port" ] && break
		sleep 0.05
	done
	python3 -c "
import socket
s = socket.create_connection(('127.0.0.1', $port))
s.sendall(b'host-client\n')
print(s.makefile().readline().strip())"
	wait $pid
	cat "$tmp/serve.err"
}

# The kernel's host fds while the guest holds 200 sockets and after it
# closed them: up by about that many, then back to the count before.
fd_count() { ls "/proc/$1/fd" | wc -l; }
leak_check() { # PLATFORM
	local kpid before during after line
	coproc G { exec timeout -k 5 120 "$SKAS" run --platform="$1" --net=host -- \
		"$tmp/hostnet" many "$TCP" 2>&1; }
	read -r line <&"${G[0]}"
	kpid=$(pgrep -P "${G_PID:-0}" -x skas || echo "${G_PID:-0}")
	# a first round: what the kernel keeps for good (the fork's, the
	# first socket's) is open before the count
	echo "open 8" >&"${G[1]}"
	read -r line <&"${G[0]}"
	echo "close" >&"${G[1]}"
	read -r line <&"${G[0]}"
	before=$(fd_count "$kpid")
	echo "open 200" >&"${G[1]}"
	read -r line <&"${G[0]}"
	during=$(fd_count "$kpid")
	echo "close" >&"${G[1]}"
	read -r line <&"${G[0]}"
	after=$(fd_count "$kpid")
	echo "quit" >&"${G[1]}"
	wait "${G_PID:-0}" 2>/dev/null
	echo "$((during - before >= 200)) $((after - before))"
}

for p in $platforms; do
	for m in "tcp $TCP" "nbtcp $TCP" "udp $UDP" "cmsg" "hostile $UDP" "v6 $TCP" "bulk $TCP" "refused $CLOSED" "errq $CLOSED" "eintr" "edge"; do
		want=$("$tmp/hostnet" $m 2>&1)
		check "$p: hostnet $m as natively" "$want" "$(run "$p" "$tmp/hostnet" $m)"
	done
	check "$p: options not passed on are ENOPROTOOPT" "timestamping ENOPROTOOPT, options ENOPROTOOPT, fastopen EOPNOTSUPP" \
		"$(run "$p" /usr/bin/env HOSTNET_UNSUPPORTED=1 "$tmp/hostnet" hostile "$UDP" |
			sed -n 's/^sockopt:.*len -1 EINVAL, //p')"
	check "$p: python urllib from the host's server" "200 hello from the host" \
		"$(run "$p" python3 -c "
import urllib.request
r = urllib.request.urlopen('http://127.0.0.1:$HTTP/index.html')
print(r.status, r.read().decode().strip())")"
	if command -v curl >/dev/null; then
		check "$p: curl from the host's server" "hello from the host" \
			"$(run "$p" curl -s "http://127.0.0.1:$HTTP/index.html")"
	fi
	check "$p: a host client reaches the guest's listener" \
		"guest-served acceptconn 1, accepted from loopback 1, cloexec 1, read 12" \
		"$(echo $(guest_server "$p"))"
	check "$p: the kernel's host fds after 200 sockets closed" "1 0" "$(leak_check "$p")"
	check "$p: without --net=host the host's server is not reachable" \
		"blocking ECONNREFUSED nonblocking ECONNREFUSED udp connected ECONNREFUSED" \
		"$(echo $(timeout -k 5 60 "$SKAS" run --platform="$p" -- "$tmp/hostnet" refused "$TCP" 2>&1))"
done

# --net=host's initial namespace keeps its lo as it is (the host's
# sockets do not use it), and a new network namespace has the in-kernel
# loopback: the host's server is not reachable from there.
if command -v ip >/dev/null && command -v unshare >/dev/null; then
	check "--net=host: lo stays up; a new network namespace does not reach the host" \
		"SIOCSIFFLAGS: Operation not supported blocking ECONNREFUSED nonblocking ECONNREFUSED udp connected ECONNREFUSED" \
		"$(echo $(timeout -k 5 60 "$SKAS" run --net=host -- /bin/sh -c \
			"ip link set lo down; unshare --net /bin/sh -c 'ip link set lo up; $tmp/hostnet refused $TCP'" 2>&1))"
else
	check "--net=host and unshare --net (ip or unshare missing: skipped)" "" ""
fi

# DNS: the resolver's queries go to the host. A fake name server on the
# host's 127.0.0.1:53 (UDP, every A query answered 10.1.2.3), named in
# the guest's /etc/resolv.conf (the guest may write its overlay root):
# getent finds the name. Skipped when port 53 is taken on the host.
cat >"$tmp/dns.py" <<'EOF'
import socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
try:
    s.bind(("127.0.0.1", 53))
except OSError:
    print("busy", flush=True)
    sys.exit(0)
print("ready", flush=True)
while True:
    q, peer = s.recvfrom(512)
    qid = struct.unpack("!H", q[:2])[0]
    end = 12
    while q[end]:
        end += q[end] + 1
    question = q[12:end + 5]
    qtype = struct.unpack("!H", q[end + 1:end + 3])[0]
    answer = b""
    if qtype == 1:
        answer = b"\xc0\x0c" + struct.pack("!HHIH", 1, 1, 60, 4) + bytes([10, 1, 2, 3])
    hdr = struct.pack("!HHHHHH", qid, 0x8180, 1, 1 if answer else 0, 0, 0)
    s.sendto(hdr + question + answer, peer)
EOF
python3 "$tmp/dns.py" >"$tmp/dns.out" 2>&1 </dev/null &
dns_pid=$!
trap 'kill $srv_pid $dns_pid 2>/dev/null; rm -rf "$tmp"' EXIT
for ((i = 0; i < 400; i++)); do
	[ -s "$tmp/dns.out" ] && break
	sleep 0.05
done
if [ "$(cat "$tmp/dns.out")" = ready ]; then
	check "DNS through the guest's /etc/resolv.conf to the host" "10.1.2.3 example.test" \
		"$(timeout -k 5 60 "$SKAS" run --net=host -- /bin/sh -c \
			'echo "nameserver 127.0.0.1" >/etc/resolv.conf; getent hosts example.test' |
			awk '{ print $1, $2 }')"
else
	check "DNS (127.0.0.1:53 taken on the host: skipped)" "" ""
fi

# the kernel's allowlist has the socket calls only with --net=host
allowed() { "$SKAS" run --verbose "$@" -- /bin/true 2>&1 | sed -n 's/.*sandbox: \([0-9]*\) host calls allowed.*/\1/p'; }
check "the allowlist gains 10 socket calls with --net=host only" \
	"10 0" "$(($(allowed --net=host) - $(allowed))) $(($(allowed --net=loopback) - $(allowed)))"

out=$("$SKAS" run --net=outside -- /bin/true 2>&1)
check "--net=outside: one sentence, status 2" \
	"skas: --net is loopback or host, not 'outside' (see skas --help) 2" "$out $?"

summary
