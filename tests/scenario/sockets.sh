#!/bin/bash
# UNIX sockets with real programs inside skas: python3's socket.socketpair,
# an asyncio UNIX server and its clients in one event loop (epoll and the
# self-pipe), and an fd passed with SCM_RIGHTS between two unrelated
# python3 processes over a socket bound to a path. One TAP line each.
set -u
. "$(dirname "$0")/common.bash"

run() { timeout -k 5 60 "$SKAS" run -- "$@" 2>&1; }

out=$(run /usr/bin/python3 -c '
import socket
a, b = socket.socketpair()
a.sendall(b"ping")
print(b.recv(10).decode())
b.sendall(b"pong")
print(a.recv(10).decode())
a.close()
print(repr(b.recv(10)))
d1, d2 = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
d1.send(b"one"); d1.send(b"two")
print(d2.recv(10).decode(), d2.recv(10).decode())
')
check "python3: socket.socketpair, stream and datagram" "ping pong b'' one two" "$(echo $out)"

out=$(run /usr/bin/python3 -c '
import asyncio, os, socket, tempfile

async def handle(r, w):
    line = await r.readline()
    w.write(b"echo:" + line)
    await w.drain()
    w.close()
    await w.wait_closed()

async def client(path, i):
    r, w = await asyncio.open_unix_connection(path)
    w.write(b"hi %d\n" % i)
    await w.drain()
    data = await r.read()
    w.close()
    await w.wait_closed()
    return data.decode().strip()

async def main():
    d = tempfile.mkdtemp()
    path = os.path.join(d, "srv.sock")
    srv = await asyncio.start_unix_server(handle, path)
    got = await asyncio.gather(*(client(path, i) for i in range(5)))
    srv.close()
    await srv.wait_closed()
    os.unlink(path)
    os.rmdir(d)
    a, b = socket.socketpair()
    a.setblocking(False)
    b.setblocking(False)
    loop = asyncio.get_running_loop()
    await loop.sock_sendall(a, b"pair")
    got.append((await loop.sock_recv(b, 10)).decode())
    await asyncio.sleep(0.01)
    print(" ".join(got))

asyncio.run(main())
')
check "python3: asyncio UNIX server and 5 clients in one loop" \
	"echo:hi 0 echo:hi 1 echo:hi 2 echo:hi 3 echo:hi 4 pair" "$out"

out=$(run /bin/sh -c '
d=$(mktemp -d /tmp/skas-scm.XXXXXX)
echo "secret in a file" > $d/data
chmod 600 $d/data
/usr/bin/python3 -c "
import socket, sys, os
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1] + \"/srv\")
s.listen(1)
open(sys.argv[1] + \"/ready\", \"w\").close()
c, _ = s.accept()
msg, fds, flags, addr = socket.recv_fds(c, 16, 4)
print(msg.decode(), os.read(fds[0], 100).decode().strip())
" $d &
while [ ! -e $d/ready ]; do sleep 0.05; done
/usr/bin/python3 -c "
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1] + \"/srv\")
with open(sys.argv[1] + \"/data\") as f:
    socket.send_fds(s, [b\"fd:\"], [f.fileno()])
" $d
wait
rm -rf $d
')
check "SCM_RIGHTS between unrelated processes" "fd: secret in a file" "$out"

summary
